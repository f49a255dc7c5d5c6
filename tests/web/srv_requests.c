/* SPDX-License-Identifier: MIT
 * tests/web/srv_requests.c (test_serve): `damier serve`'s request handling and
 * persistence, over real HTTP on the loopback (the server in this process, port 0,
 * a fresh database in a temporary folder; civetweb's client for the requests).
 * Bad requests get a 4xx with a message and change nothing; games, draw offers,
 * results and clocks survive a restart; the engine answers; a flag falls by itself. */
#define _DEFAULT_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <civetweb.h>
#include <jansson.h>

#include "http_client.h"
#include "serve.h"

static char dir[256];
static char dbpath[300];
static srv *server;

static void start(void)
{
    srv_options o = SRV_OPTIONS_INIT;
    o.db_path = dbpath;
    server = test_server_start(&o);
}

static void stop(void)
{
    srv_stop(server);
    server = NULL;
}

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/damier-serve-test-XXXXXX");
    if (!mkdtemp(dir)) {
        return -1;
    }
    snprintf(dbpath, sizeof dbpath, "%s/web.sqlite", dir);
    mg_init_library(0);
    start();
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    stop();
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

/* One request; returns the status, *out the body parsed (NULL if not JSON). */
static int request(const char *method, const char *path, const char *body, size_t len, json_t **out)
{
    return http_request(srv_port(server), method, path, "", body, len, out, NULL, NULL);
}

static int req(const char *method, const char *path, const char *body, json_t **out)
{
    return request(method, path, body, body ? strlen(body) : 0, out);
}

static const char *str(const json_t *o, const char *k)
{
    const json_t *v = json_object_get(o, k);
    return json_is_string(v) ? json_string_value(v) : "";
}

/* The error message of a reply contains want. */
static void assert_error(int status, json_t **jp, int want_status, const char *want)
{
    json_t *j = *jp;
    if (status != want_status || !strstr(str(j, "error"), want)) {
        fprintf(stderr, "status %d, error \"%s\"; wanted %d with \"%s\"\n", status, str(j, "error"),
                want_status, want);
    }
    assert_int_equal(status, want_status);
    assert_non_null(strstr(str(j, "error"), want));
    json_decref(j);
}

typedef struct game_keys {
    char id[32], white[64], black[64], spectator[64];
} game_keys;

/* The key of a link "/#/game/ID/KEY". */
static void key_of(char *out, size_t cap, const json_t *links, const char *side)
{
    const char *l = str(links, side);
    const char *k = strrchr(l, '/');
    snprintf(out, cap, "%s", k ? k + 1 : "");
}

static void create(game_keys *g, const char *body)
{
    json_t *j;
    assert_int_equal(req("POST", "/api/games", body, &j), 201);
    snprintf(g->id, sizeof g->id, "%s", str(j, "id"));
    const json_t *links = json_object_get(j, "links");
    key_of(g->white, sizeof g->white, links, "white");
    key_of(g->black, sizeof g->black, links, "black");
    key_of(g->spectator, sizeof g->spectator, links, "spectator");
    json_decref(j);
}

static json_t *state(const game_keys *g, const char *key)
{
    char path[256];
    snprintf(path, sizeof path, "/api/games/%s?key=%s", g->id, key);
    json_t *j;
    assert_int_equal(req("GET", path, NULL, &j), 200);
    return j;
}

static int post(const game_keys *g, const char *action, const char *key, const char *extra,
                json_t **out)
{
    char path[256], body[512];
    snprintf(path, sizeof path, "/api/games/%s/%s", g->id, action);
    snprintf(body, sizeof body, "{\"key\":\"%s\"%s%s}", key, extra ? "," : "", extra ? extra : "");
    return req("POST", path, body, out);
}

static int ply_of(const game_keys *g)
{
    json_t *j = state(g, g->spectator);
    int p = (int)json_integer_value(json_object_get(j, "ply"));
    json_decref(j);
    return p;
}

static void test_health(void **st)
{
    (void)st;
    json_t *j;
    assert_int_equal(req("GET", "/api/health", NULL, &j), 200);
    assert_true(json_is_true(json_object_get(j, "ok")));
    json_decref(j);
}

static void test_bad_requests(void **st)
{
    (void)st;
    json_t *j;
    assert_error(req("POST", "/api/games", "{bad", &j), &j, 400, "malformed JSON at line 1");
    assert_error(req("POST", "/api/games", "[1,2]", &j), &j, 400, "JSON object");
    assert_error(req("POST", "/api/games", "{\"opponent\":\"robot\"}", &j), &j, 400, "opponent");
    assert_error(req("POST", "/api/games", "{\"level\":11}", &j), &j, 400, "level");
    assert_error(req("POST", "/api/games", "{\"time\":\"abc\"}", &j), &j, 400, "time control");
    assert_error(req("POST", "/api/games", "{\"time\":\"?\"}", &j), &j, 400, "time control");
    assert_error(req("POST", "/api/games", "{\"fen\":\"W:W99:B1\"}", &j), &j, 400, "FEN");
    assert_error(req("POST", "/api/games", "{\"variant\":\"checkers9\"}", &j), &j, 400,
                 "unknown variant 'checkers9' (valid: international, brazilian, russian");
    assert_error(req("POST", "/api/games", "{\"variant\":7}", &j), &j, 400, "\"variant\"");
    assert_error(
        req("POST", "/api/games", "{\"variant\":\"russian\",\"fen\":\"W:W31-50:B1-20\"}", &j), &j,
        400, "FEN");
    assert_error(req("GET", "/api/games/0123456789abcdef?key=x", NULL, &j), &j, 404,
                 "unknown game");
    assert_error(req("PUT", "/api/games", "{}", &j), &j, 405, "POST");
    assert_error(req("GET", "/api/nothing", NULL, &j), &j, 404, "no such endpoint");

    game_keys g;
    create(&g, "{\"opponent\":\"human\",\"side\":\"white\",\"time\":\"300+5\"}");
    char path[256];
    snprintf(path, sizeof path, "/api/games/%s?key=forged", g.id);
    assert_error(req("GET", path, NULL, &j), &j, 403, "wrong key");
    snprintf(path, sizeof path, "/api/games/%s", g.id);
    assert_error(req("GET", path, NULL, &j), &j, 403, "key");
    assert_error(post(&g, "move", "forged", "\"move\":\"32-28\"", &j), &j, 403, "wrong key");
    assert_error(post(&g, "move", g.black, "\"move\":\"19-23\"", &j), &j, 409, "White's move");
    assert_error(post(&g, "move", g.white, "\"move\":\"32-23\"", &j), &j, 400, "illegal move");
    assert_error(post(&g, "move", g.white, "\"move\":\"zz\"", &j), &j, 400, "");
    assert_error(post(&g, "move", g.white, "\"move\":32", &j), &j, 400, "\"move\"");
    assert_error(post(&g, "move", g.spectator, "\"move\":\"32-28\"", &j), &j, 403, "spectator");
    assert_error(post(&g, "move", g.white, "\"move\":\"32-28\",\"ply\":5", &j), &j, 409, "ply");
    assert_error(post(&g, "draw", g.white, "\"action\":\"accept\"", &j), &j, 409, "no draw offer");
    assert_error(post(&g, "draw", g.white, "\"action\":\"maybe\"", &j), &j, 400, "action");
    assert_error(post(&g, "jump", g.white, NULL, &j), &j, 404, "no such action");

    /* a body over the limit: 413, the connection closed, nothing changed */
    size_t big = SRV_MAX_JSON_BODY + 100;
    char *body = malloc(big + 1);
    memset(body, ' ', big);
    body[0] = '{';
    body[big - 1] = '}';
    body[big] = 0;
    snprintf(path, sizeof path, "/api/games/%s/move", g.id);
    assert_error(request("POST", path, body, big, &j), &j, 413, "larger than");
    free(body);
    char pdn[SRV_MAX_PDN_BODY + 10];
    memset(pdn, ' ', sizeof pdn);
    assert_error(request("POST", "/api/pdn", pdn, sizeof pdn, &j), &j, 413, "larger than");

    assert_int_equal(ply_of(&g), 0);
    /* the server still plays */
    assert_int_equal(post(&g, "move", g.white, "\"move\":\"32-28\",\"ply\":0", &j), 200);
    json_decref(j);
    assert_int_equal(ply_of(&g), 1);
    /* the same move sent again (a retry) is refused: not the player's turn */
    assert_error(post(&g, "move", g.white, "\"move\":\"32-28\",\"ply\":0", &j), &j, 409, "move");
    assert_int_equal(ply_of(&g), 1);
}

static int64_t clock_of(const json_t *s, const char *side)
{
    return json_integer_value(json_object_get(json_object_get(s, "clock"), side));
}

static void test_persistence(void **st)
{
    (void)st;
    json_t *j;
    game_keys g;
    create(&g, "{\"opponent\":\"human\",\"time\":\"300+5\",\"white_name\":\"Ann\"}");
    assert_int_equal(post(&g, "move", g.white, "\"move\":\"32-28\"", &j), 200);
    json_decref(j);
    assert_int_equal(post(&g, "move", g.black, "\"move\":\"19-23\"", &j), 200);
    json_decref(j);
    assert_int_equal(post(&g, "move", g.white, "\"move\":\"28x19\"", &j), 200);
    json_decref(j);
    assert_int_equal(post(&g, "draw", g.white, "\"action\":\"offer\"", &j), 200);
    json_decref(j);
    json_t *before = state(&g, g.spectator);
    int64_t wb = clock_of(before, "white"), bb = clock_of(before, "black");
    /* White pressed twice: 300 s + 2 increments less its thinking (well under 1 s) */
    assert_true(wb > 304000 && wb <= 310000);
    stop();
    start();
    json_t *after = state(&g, g.black);
    assert_int_equal(json_integer_value(json_object_get(after, "ply")), 3);
    assert_string_equal(str(after, "fen"), str(before, "fen"));
    assert_string_equal(str(after, "draw_offer"), "white");
    assert_string_equal(str(after, "result"), "*");
    assert_string_equal(str(json_object_get(after, "names"), "white"), "Ann");
    int64_t wa = clock_of(after, "white"), ba = clock_of(after, "black");
    assert_int_equal(wa, wb); /* White does not run */
    assert_true(ba <= bb && ba > bb - 3000);
    assert_string_equal(str(json_object_get(after, "clock"), "running"), "black");
    json_decref(before);
    json_decref(after);
    /* Black declines by moving, then resigns; the result survives a restart */
    assert_int_equal(post(&g, "move", g.black, "\"move\":\"14x23\"", &j), 200);
    assert_true(json_is_null(json_object_get(j, "draw_offer")));
    json_decref(j);
    assert_int_equal(post(&g, "resign", g.black, NULL, &j), 200);
    assert_string_equal(str(j, "result"), "2-0");
    json_decref(j);
    assert_error(post(&g, "move", g.white, "\"move\":\"37-32\"", &j), &j, 409, "over");
    stop();
    start();
    j = state(&g, g.white);
    assert_string_equal(str(j, "result"), "2-0");
    assert_string_equal(str(j, "reason"), "resignation");
    assert_int_equal(json_integer_value(json_object_get(j, "ply")), 4);
    json_decref(j);
    /* the PDN */
    char path[256];
    snprintf(path, sizeof path, "/api/games/%s/pdn?key=%s", g.id, g.spectator);
    char ebuf[128];
    (void)ebuf;
    assert_int_equal(req("GET", path, NULL, NULL), 200);
}

/* Touch-move (issue 20): the server keeps the rule. A touched movable piece must be
 * played (another piece's move refused through the API), a touch survives a restart,
 * "I adjust" frees the next touch; without the option a touch is refused. */
static void test_touch_move(void **st)
{
    (void)st;
    json_t *j;
    game_keys g;
    assert_int_equal(req("POST", "/api/games", "{\"opponent\":\"human\",\"touch_move\":1}", &j),
                     400);
    json_decref(j);
    create(&g, "{\"opponent\":\"human\",\"touch_move\":true}");
    j = state(&g, g.white);
    assert_true(json_is_true(json_object_get(j, "touch_move")));
    assert_int_equal(json_integer_value(json_object_get(j, "touched")), 0);
    json_decref(j);
    assert_error(post(&g, "touch", g.black, "\"square\":19", &j), &j, 409, "not your move");
    assert_error(post(&g, "touch", g.white, "\"square\":19", &j), &j, 400, "");
    /* 46 cannot move: touching it commits nothing */
    assert_int_equal(post(&g, "touch", g.white, "\"square\":46", &j), 200);
    assert_int_equal(json_integer_value(json_object_get(j, "touched")), 0);
    json_decref(j);
    assert_int_equal(post(&g, "touch", g.white, "\"square\":32", &j), 200);
    assert_int_equal(json_integer_value(json_object_get(j, "touched")), 32);
    json_decref(j);
    stop();
    start();
    j = state(&g, g.white);
    assert_int_equal(json_integer_value(json_object_get(j, "touched")), 32);
    json_decref(j);
    assert_error(post(&g, "move", g.white, "\"move\":\"31-27\"", &j), &j, 400, "");
    assert_error(post(&g, "touch", g.white, "\"square\":31", &j), &j, 400, "");
    assert_int_equal(post(&g, "move", g.white, "\"move\":\"32-28\"", &j), 200);
    json_decref(j);
    /* Black announces "I adjust", touches 19 freely, then plays another piece */
    assert_int_equal(post(&g, "adjust", g.black, NULL, &j), 200);
    json_decref(j);
    assert_int_equal(post(&g, "touch", g.black, "\"square\":19", &j), 200);
    assert_int_equal(json_integer_value(json_object_get(j, "touched")), 0);
    json_decref(j);
    assert_int_equal(post(&g, "move", g.black, "\"move\":\"18-23\"", &j), 200);
    json_decref(j);
    /* a game without the rule */
    game_keys h;
    create(&h, "{\"opponent\":\"human\"}");
    assert_error(post(&h, "touch", h.white, "\"square\":32", &j), &j, 409,
                 "not played with touch-move");
    assert_error(post(&h, "adjust", h.white, NULL, &j), &j, 409, "not played with touch-move");
}

/* Handicap (issue 13): the giver starts without N men of its back rows; the start is
 * the game's FEN, kept in the PDN. */
static void test_handicap(void **st)
{
    (void)st;
    json_t *j;
    game_keys g;
    create(&g, "{\"opponent\":\"human\",\"handicap\":2,\"handicap_side\":\"white\"}");
    j = state(&g, g.white);
    assert_string_equal(str(j, "start_fen"), "W:W31-45,48-50:B1-20");
    json_decref(j);
    char path[256];
    snprintf(path, sizeof path, "/api/games/%s/pdn?key=%s", g.id, g.white);
    assert_int_equal(req("GET", path, NULL, NULL), 200);
    /* the engine gives by default: here it plays White and moves first */
    create(&g, "{\"opponent\":\"engine\",\"side\":\"black\",\"level\":1,\"handicap\":1}");
    j = state(&g, g.black);
    assert_string_equal(str(j, "start_fen"), "W:W31-45,47-50:B1-20");
    json_decref(j);
    create(&g, "{\"opponent\":\"human\",\"variant\":\"russian\",\"handicap\":1,"
               "\"handicap_side\":\"black\"}");
    j = state(&g, g.white);
    /* h8 (square 4): Black's back row from its own left, as 5..1 in international */
    assert_int_equal(str(j, "position")[3], '.');
    assert_int_equal(str(j, "position")[0], 'b');
    json_decref(j);
    assert_error(req("POST", "/api/games", "{\"opponent\":\"human\",\"handicap\":2}", &j), &j, 400,
                 "handicap_side");
    assert_error(req("POST", "/api/games", "{\"opponent\":\"engine\",\"handicap\":16}", &j), &j,
                 400, "1 to 15");
    assert_error(req("POST", "/api/games",
                     "{\"opponent\":\"human\",\"handicap\":3,\"handicap_side\":\"white\","
                     "\"fen\":\"W:W46,47:B1\"}",
                     &j),
                 &j, 400, "fewer than 3 men");
}

static void test_takeback(void **st)
{
    (void)st;
    json_t *j;
    game_keys g;
    create(&g, "{\"opponent\":\"human\",\"time\":\"40/600:300\"}");
    assert_error(post(&g, "takeback", g.white, "\"action\":\"offer\"", &j), &j, 409, "no move");
    assert_int_equal(post(&g, "move", g.white, "\"move\":\"32-28\"", &j), 200);
    json_decref(j);
    assert_int_equal(post(&g, "move", g.black, "\"move\":\"19-23\"", &j), 200);
    json_decref(j);
    assert_error(post(&g, "takeback", g.white, "\"action\":\"accept\"", &j), &j, 409,
                 "no takeback request");
    /* Black asks to take back 19-23; White declines, Black asks again, White accepts */
    assert_int_equal(post(&g, "takeback", g.black, "\"action\":\"offer\"", &j), 200);
    assert_string_equal(str(j, "takeback_offer"), "black");
    json_decref(j);
    assert_int_equal(post(&g, "takeback", g.white, "\"action\":\"decline\"", &j), 200);
    assert_true(json_is_null(json_object_get(j, "takeback_offer")));
    json_decref(j);
    assert_int_equal(post(&g, "takeback", g.black, "\"action\":\"offer\"", &j), 200);
    json_decref(j);
    stop();
    start(); /* the request is kept */
    j = state(&g, g.white);
    assert_string_equal(str(j, "takeback_offer"), "black");
    json_decref(j);
    assert_int_equal(post(&g, "takeback", g.white, "\"action\":\"accept\"", &j), 200);
    assert_int_equal(json_integer_value(json_object_get(j, "ply")), 1);
    assert_string_equal(str(j, "turn"), "black");
    assert_string_equal(str(json_object_get(j, "clock"), "running"), "black");
    int64_t w = clock_of(j, "white"), b = clock_of(j, "black");
    json_decref(j);
    /* played on and restored: the takeback is replayed at its place */
    assert_int_equal(post(&g, "move", g.black, "\"move\":\"18-23\"", &j), 200);
    json_decref(j);
    stop();
    start();
    j = state(&g, g.white);
    assert_int_equal(json_integer_value(json_object_get(j, "ply")), 2);
    const json_t *mv = json_array_get(json_object_get(j, "moves"), 1);
    assert_string_equal(str(mv, "text"), "18-23");
    /* White runs since 18-23, across the restart; Black's time is as it left it */
    assert_true(clock_of(j, "white") <= w && clock_of(j, "white") > w - 8000);
    assert_true(clock_of(j, "black") <= b && clock_of(j, "black") > b - 3000);
    json_decref(j);
    /* against the engine the takeback is granted at once: the move and the reply */
    game_keys e;
    create(&e, "{\"opponent\":\"engine\",\"level\":1}");
    assert_int_equal(post(&e, "move", e.white, "\"move\":\"32-28\"", &j), 200);
    json_decref(j);
    for (int i = 0; i < 100 && ply_of(&e) < 2; i++) {
        usleep(50000);
    }
    assert_int_equal(post(&e, "takeback", e.white, "\"action\":\"offer\"", &j), 200);
    assert_int_equal(json_integer_value(json_object_get(j, "ply")), 0);
    json_decref(j);
}

static void test_engine_replies(void **st)
{
    (void)st;
    json_t *j;
    game_keys g;
    create(&g, "{\"opponent\":\"engine\",\"side\":\"white\",\"level\":1}");
    assert_int_equal(post(&g, "move", g.white, "\"move\":\"32-28\"", &j), 200);
    json_decref(j);
    for (int i = 0; i < 100 && ply_of(&g) < 2; i++) {
        usleep(50000);
    }
    assert_int_equal(ply_of(&g), 2);
    /* the engine's side cannot be played by the player; the engine's link does not exist */
    assert_true(g.black[0] == 0);
}

static void test_engine_white(void **st)
{
    (void)st;
    game_keys g;
    create(&g, "{\"opponent\":\"engine\",\"side\":\"black\",\"level\":2}");
    for (int i = 0; i < 100 && ply_of(&g) < 1; i++) {
        usleep(50000);
    }
    assert_int_equal(ply_of(&g), 1);
}

static int has_move(const json_t *s, const char *hub)
{
    const json_t *legal = json_object_get(s, "legal");
    for (size_t i = 0; i < json_array_size(legal); i++) {
        if (!strcmp(str(json_array_get(legal, i), "hub"), hub)) {
            return 1;
        }
    }
    return 0;
}

/* A game of another variant: Russian against the engine on the 8x8 board with its
 * algebraic squares, its moves and positions in the variant's form, an illegal move
 * refused with the rule and nothing changed, the engine's answer, the game restored
 * after a restart and its PDN with GameType 25. */
static void test_variant_russian(void **st)
{
    (void)st;
    json_t *j;
    game_keys g;
    create(&g, "{\"opponent\":\"engine\",\"variant\":\"russian\",\"level\":1}");
    j = state(&g, g.white);
    assert_string_equal(str(j, "variant"), "russian");
    assert_string_equal(str(j, "turn"), "white");
    const json_t *b = json_object_get(j, "board");
    assert_int_equal(json_integer_value(json_object_get(b, "size")), 8);
    assert_true(json_is_true(json_object_get(b, "coords")));
    assert_int_equal(json_integer_value(json_object_get(b, "game_type")), 25);
    assert_string_equal(json_string_value(json_array_get(json_object_get(b, "labels"), 0)), "b8");
    assert_string_equal(str(j, "position"), "bbbbbbbbbbbb........wwwwwwwwwwww");
    assert_true(has_move(j, "c3-d4"));
    assert_int_equal((int)json_array_size(json_object_get(j, "legal")), 7);
    json_decref(j);
    assert_error(post(&g, "move", g.white, "\"move\":\"c3-c4\"", &j), &j, 400, "");
    assert_error(post(&g, "move", g.white, "\"move\":\"32-28\"", &j), &j, 400, "");
    assert_int_equal(ply_of(&g), 0);
    assert_int_equal(post(&g, "move", g.white, "\"move\":\"c3-d4\",\"ply\":0", &j), 200);
    const json_t *m = json_array_get(json_object_get(j, "moves"), 0);
    assert_string_equal(str(m, "text"), "c3-d4");
    assert_int_equal(json_integer_value(json_array_get(json_object_get(m, "path"), 0)), 22);
    json_decref(j);
    for (int i = 0; i < 100 && ply_of(&g) < 2; i++) {
        usleep(50000);
    }
    assert_int_equal(ply_of(&g), 2);
    json_t *before = state(&g, g.white);
    stop();
    start();
    json_t *after = state(&g, g.white);
    assert_int_equal(json_integer_value(json_object_get(after, "ply")), 2);
    assert_string_equal(str(after, "fen"), str(before, "fen"));
    assert_string_equal(str(after, "variant"), "russian");
    json_decref(before);
    json_decref(after);
    char path[256];
    snprintf(path, sizeof path, "/api/games/%s/pdn?key=%s", g.id, g.white);
    assert_int_equal(req("GET", path, NULL, NULL), 200);
    /* the annotation of a Russian game: a mark and an evaluation per move, the PDN
     * with the variant's GameType and its algebraic squares */
    assert_int_equal(post(&g, "annotate", g.white, "\"depth\":3", &j), 200);
    assert_int_equal((int)json_array_size(json_object_get(j, "marks")), 2);
    assert_int_equal((int)json_array_size(json_object_get(j, "evals")), 2);
    assert_non_null(strstr(str(j, "pdn"), "[GameType \"25\"]"));
    assert_non_null(strstr(str(j, "pdn"), "1. c3-d4"));
    json_decref(j);
}

/* The capture is compulsory in Russian too: the rule in the message, nothing changed;
 * the capture is taken square by square as the page sends it (the Hub form). */
static void test_variant_illegal(void **st)
{
    (void)st;
    json_t *j;
    game_keys g;
    create(&g, "{\"opponent\":\"human\",\"variant\":\"russian\",\"fen\":\"W:Wc3,g1:Bd4,h8\"}");
    assert_error(post(&g, "move", g.white, "\"move\":\"g1-h2\"", &j), &j, 400,
                 "capture is compulsory");
    assert_error(post(&g, "move", g.black, "\"move\":\"d4-e3\"", &j), &j, 409, "White's move");
    assert_int_equal(ply_of(&g), 0);
    assert_int_equal(post(&g, "move", g.white, "\"move\":\"c3:e5\"", &j), 200);
    const json_t *m = json_array_get(json_object_get(j, "moves"), 0);
    assert_string_equal(str(m, "text"), "c3:e5");
    assert_int_equal(json_integer_value(json_array_get(json_object_get(m, "captured"), 0)), 18);
    assert_string_equal(str(j, "turn"), "black");
    json_decref(j);
}

/* English checkers: Black moves first (numeric squares 1-32); Canadian on 12x12. */
static void test_variant_english_canadian(void **st)
{
    (void)st;
    json_t *j;
    game_keys g;
    create(&g, "{\"opponent\":\"human\",\"variant\":\"english\"}");
    j = state(&g, g.black);
    assert_string_equal(str(j, "turn"), "black");
    assert_string_equal(str(j, "start_fen"), "B:W21-32:B1-12");
    assert_true(json_is_false(json_object_get(json_object_get(j, "board"), "coords")));
    json_decref(j);
    assert_error(post(&g, "move", g.white, "\"move\":\"22-18\"", &j), &j, 409, "Black's move");
    assert_int_equal(post(&g, "move", g.black, "\"move\":\"11-15\"", &j), 200);
    assert_string_equal(str(j, "turn"), "white");
    json_decref(j);
    assert_int_equal(post(&g, "move", g.white, "\"move\":\"22-18\"", &j), 200);
    json_decref(j);
    /* takeback by agreement works on the generic board too */
    assert_int_equal(post(&g, "takeback", g.white, "\"action\":\"offer\"", &j), 200);
    json_decref(j);
    assert_int_equal(post(&g, "takeback", g.black, "\"action\":\"accept\"", &j), 200);
    assert_int_equal(json_integer_value(json_object_get(j, "ply")), 1);
    json_decref(j);

    game_keys c;
    create(&c, "{\"opponent\":\"human\",\"variant\":\"canadian\",\"time\":\"300\"}");
    j = state(&c, c.white);
    assert_int_equal(json_integer_value(json_object_get(json_object_get(j, "board"), "size")), 12);
    assert_int_equal((int)strlen(str(j, "position")), 72);
    json_decref(j);
    assert_int_equal(post(&c, "move", c.white, "\"move\":\"43-37\"", &j), 200);
    assert_string_equal(str(json_object_get(j, "clock"), "running"), "black");
    json_decref(j);
    assert_int_equal(post(&c, "resign", c.black, NULL, &j), 200);
    assert_string_equal(str(j, "result"), "2-0");
    assert_string_equal(str(j, "reason"), "resignation");
    json_decref(j);
}

/* Every variant of the library plays on the web board: a game against the engine, the
 * first mover's move (the engine's where it moves first), a reply, the state's board
 * the variant's size. */
static void test_variant_every(void **st)
{
    (void)st;
    static const char *const names[] = {"brazilian",    "russian",      "english",    "canadian",
                                        "antidraughts", "czech",        "italian",    "killer",
                                        "spanish",      "breakthrough", "pool",       "thai",
                                        "frisian",      "frysk",        "portuguese", "turkish"};
    for (size_t v = 0; v < sizeof names / sizeof names[0]; v++) {
        char body[160];
        snprintf(body, sizeof body, "{\"opponent\":\"engine\",\"level\":1,\"variant\":\"%s\"}",
                 names[v]);
        game_keys g;
        create(&g, body);
        json_t *j = state(&g, g.white);
        assert_string_equal(str(j, "variant"), names[v]);
        int size = (int)json_integer_value(json_object_get(json_object_get(j, "board"), "size"));
        /* Turkish plays every square of its board, the others the dark ones */
        int full = json_is_true(json_object_get(json_object_get(j, "board"), "full"));
        assert_int_equal(full, !strcmp(names[v], "turkish"));
        assert_int_equal((int)strlen(str(j, "position")), full ? size * size : size * size / 2);
        int first = !strcmp(str(j, "turn"), "white") ? 0 : 1;
        json_decref(j);
        for (int i = 0; i < 200 && ply_of(&g) < first; i++) {
            usleep(20000);
        }
        j = state(&g, g.white);
        assert_string_equal(str(j, "turn"), "white");
        char extra[300];
        snprintf(extra, sizeof extra, "\"move\":\"%s\"",
                 str(json_array_get(json_object_get(j, "legal"), 0), "hub"));
        int ply = (int)json_integer_value(json_object_get(j, "ply"));
        json_decref(j);
        if (post(&g, "move", g.white, extra, &j) != 200) {
            fprintf(stderr, "%s: %s refused: %s\n", names[v], extra, str(j, "error"));
        }
        assert_int_equal((int)json_integer_value(json_object_get(j, "ply")), ply + 1);
        json_decref(j);
        for (int i = 0; i < 200 && ply_of(&g) < ply + 2; i++) {
            usleep(20000);
        }
        assert_int_equal(ply_of(&g), ply + 2);
    }
}

static void test_flag_fall(void **st)
{
    (void)st;
    game_keys g;
    create(&g, "{\"opponent\":\"human\",\"time\":\"0.5\"}");
    usleep(800000);
    json_t *j = state(&g, g.white);
    assert_string_equal(str(j, "result"), "0-2");
    assert_string_equal(str(j, "reason"), "loss on time");
    json_decref(j);
    stop();
    start();
    j = state(&g, g.white);
    assert_string_equal(str(j, "result"), "0-2");
    assert_string_equal(str(j, "reason"), "loss on time");
    json_decref(j);
}

static void test_upload(void **st)
{
    (void)st;
    json_t *j;
    const char *bad = "[White \"A\"]\n[Black \"B\"]\n\n1. 32-28 19-23 2. 28x19 14x23 3. 27-22 "
                      "99-98 *\n";
    int s = req("POST", "/api/pdn", bad, &j);
    assert_int_equal(s, 400);
    const json_t *e = json_array_get(json_object_get(j, "errors"), 0);
    assert_non_null(e);
    assert_int_equal(json_integer_value(json_object_get(e, "line")), 4);
    assert_true(json_integer_value(json_object_get(e, "column")) > 30);
    json_decref(j);
    const char *good = "[White \"A\"]\n[Black \"B\"]\n[Result \"1-1\"]\n\n1. 32-28 19-23 1-1\n\n"
                       "[White \"C\"]\n\n1. 33-28 *\n";
    assert_int_equal(req("POST", "/api/pdn", good, &j), 200);
    assert_int_equal(json_array_size(json_object_get(j, "games")), 2);
    const json_t *g0 = json_array_get(json_object_get(j, "games"), 0);
    assert_string_equal(str(g0, "result"), "1-1");
    json_decref(j);
    assert_error(req("POST", "/api/pdn", "", &j), &j, 400, "no game");
    /* the engine's annotation of a record: a king given away is ?? */
    const char *blunder = "[FEN \"W:WK46,50:B5,22\"]\n\n1. 46-28 22x33 *\n";
    assert_int_equal(req("POST", "/api/pdn", blunder, &j), 200);
    game_keys g;
    const char *link = str(json_array_get(json_object_get(j, "games"), 0), "link");
    snprintf(g.id, sizeof g.id, "%.16s", strstr(link, "game/") + 5);
    snprintf(g.spectator, sizeof g.spectator, "%s", strrchr(link, '/') + 1);
    json_decref(j);
    assert_error(post(&g, "annotate", g.spectator, "\"depth\":40", &j), &j, 400, "depth");
    assert_int_equal(post(&g, "annotate", g.spectator, "\"depth\":4", &j), 200);
    assert_string_equal(json_string_value(json_array_get(json_object_get(j, "marks"), 0)), "??");
    assert_non_null(strstr(str(j, "pdn"), "46-28??"));
    json_decref(j);
    /* a game of another variant is stored for review in its variant, restored too */
    const char *ru = "[White \"R\"]\n[Black \"S\"]\n[GameType \"25\"]\n[Result \"2-0\"]\n\n"
                     "1. c3-d4 b6-c5 2. d4:b6 a7:c5 2-0\n";
    assert_int_equal(req("POST", "/api/pdn", ru, &j), 200);
    link = str(json_array_get(json_object_get(j, "games"), 0), "link");
    snprintf(g.id, sizeof g.id, "%.16s", strstr(link, "game/") + 5);
    snprintf(g.spectator, sizeof g.spectator, "%s", strrchr(link, '/') + 1);
    json_decref(j);
    stop();
    start();
    j = state(&g, g.spectator);
    assert_string_equal(str(j, "variant"), "russian");
    assert_string_equal(str(j, "mode"), "review");
    assert_int_equal(json_integer_value(json_object_get(j, "ply")), 4);
    assert_string_equal(str(json_array_get(json_object_get(j, "moves"), 3), "text"), "a7:c5");
    assert_string_equal(str(j, "result"), "2-0");
    assert_string_equal(str(j, "reason"), "resignation");
    json_decref(j);
}

static void test_position(void **st)
{
    (void)st;
    json_t *j;
    assert_int_equal(req("GET", "/api/position?fen=W:W28:B19,K22", NULL, &j), 200);
    assert_int_equal(json_array_size(json_object_get(j, "legal")), 1);
    json_decref(j);
    assert_error(req("GET", "/api/position?fen=W:Wx", NULL, &j), &j, 400, "FEN");
    /* a variant's position: its FEN, its moves (the capture compulsory), its board */
    assert_int_equal(req("GET", "/api/position?variant=russian&fen=W:Wc3:Bd4,h8", NULL, &j), 200);
    assert_int_equal(json_array_size(json_object_get(j, "legal")), 1);
    assert_string_equal(str(json_array_get(json_object_get(j, "legal"), 0), "text"), "c3:e5");
    assert_string_equal(str(j, "position"), "...b.............b...w..........");
    json_decref(j);
    assert_int_equal(req("GET", "/api/position?variant=canadian", NULL, &j), 200);
    assert_string_equal(str(j, "fen"), "W:W43-72:B1-30");
    json_decref(j);
    assert_error(req("GET", "/api/position?variant=chess", NULL, &j), &j, 400, "unknown variant");
    assert_error(req("GET", "/api/position?variant=russian&fen=W:Wz9", NULL, &j), &j, 400, "FEN");
    /* a move judged (the lessons): played, the position after it; or refused with the
     * rule, international and a variant */
    assert_int_equal(req("GET", "/api/position?fen=W:W32,47:B27&move=32x21", NULL, &j), 200);
    assert_string_equal(str(json_object_get(j, "played"), "text"), "32x21");
    assert_string_equal(str(j, "fen"), "B:W21,47:B");
    assert_string_equal(str(j, "result"), "2-0");
    json_decref(j);
    assert_error(req("GET", "/api/position?fen=W:W32,47:B27&move=47-42", NULL, &j), &j, 400,
                 "capture is compulsory (FMJD 4.1)");
    assert_error(req("GET", "/api/position?fen=W:W32,38:B27,33,24&move=32x21", NULL, &j), &j, 400,
                 "the majority rule (FMJD 4.13)");
    assert_error(req("GET", "/api/position?fen=W:W32&move=32-33x", NULL, &j), &j, 400, "bad move");
    assert_int_equal(
        req("GET", "/api/position?variant=russian&fen=W:Wc3:Bd4,h8&move=c3:e5", NULL, &j), 200);
    assert_string_equal(str(json_object_get(j, "played"), "text"), "c3:e5");
    json_decref(j);
    assert_error(req("GET", "/api/position?variant=russian&fen=W:Wc3:Bd4,h8&move=c3-b4", NULL, &j),
                 &j, 400, "capture is compulsory");
}

/* Bytes that are not UTF-8, in a path or a name, still get a JSON answer (found by
 * fuzz_serve: an error message quoting them, or a name cut inside a character, made
 * the body unserialisable, answered 500 "internal error", and such a game's state
 * could never be sent). */
static void test_not_utf8(void **st)
{
    (void)st;
    json_t *j;
    assert_error(req("GET", "/api/games/%FF%FE?key=x", NULL, &j), &j, 404, "unknown game");
    assert_error(req("POST", "/api/games/0123/m%B1", "{}", &j), &j, 404, "");
    assert_error(req("POST", "/api/games", "{\"opponent\":\"\u00e9\u00e9\"}", &j), &j, 400,
                 "opponent");
    /* 40 two-byte characters: cut at 63 bytes, inside the 32nd */
    char body[512], name[100] = "";
    for (int i = 0; i < 40; i++) {
        strcat(name, "\u00e9");
    }
    snprintf(body, sizeof body, "{\"opponent\":\"human\",\"white_name\":\"%s\"}", name);
    assert_int_equal(req("POST", "/api/games", body, &j), 201);
    const char *w = str(json_object_get(json_object_get(j, "state"), "names"), "white");
    assert_int_equal(strlen(w), 63); /* 31 characters and a '?' for the cut one */
    assert_int_equal((unsigned char)w[62], '?');
    json_decref(j);
    /* a PDN in Latin-1: the reader turns it into UTF-8 */
    assert_int_equal(req("POST", "/api/pdn", "[White \"J\xe9r\xf4me\"]\n\n1. 32-28 *\n", &j), 200);
    assert_string_equal(str(json_array_get(json_object_get(j, "games"), 0), "white"),
                        "J\xc3\xa9r\xc3\xb4me");
    json_decref(j);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_health),
        cmocka_unit_test(test_bad_requests),
        cmocka_unit_test(test_persistence),
        cmocka_unit_test(test_engine_replies),
        cmocka_unit_test(test_engine_white),
        cmocka_unit_test(test_flag_fall),
        cmocka_unit_test(test_upload),
        cmocka_unit_test(test_takeback),
        cmocka_unit_test(test_touch_move),
        cmocka_unit_test(test_handicap),
        cmocka_unit_test(test_position),
        cmocka_unit_test(test_not_utf8),
        cmocka_unit_test(test_variant_russian),
        cmocka_unit_test(test_variant_illegal),
        cmocka_unit_test(test_variant_english_canadian),
        cmocka_unit_test(test_variant_every),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
