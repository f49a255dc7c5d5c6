/* SPDX-License-Identifier: MIT
 * tests/web/srv_requests.c (test_serve): `damier serve`'s request handling and
 * persistence, over real HTTP on the loopback (the server in this process, port 0,
 * a fresh database in a temporary folder; civetweb's client for the requests).
 * Bad requests get a 4xx with a message and change nothing; games, draw offers,
 * results and clocks survive a restart; the engine answers; a flag falls by itself;
 * the arbiter's controls. */
#define _DEFAULT_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include <civetweb.h>
#include <jansson.h>

#include <damier/pdn.h>

#include "http_client.h"
#include "serve.h"

static char dir[256];
static char dbpath[300];
static srv *server;
static int64_t clock_offset; /* the server's test hook: correspondence time passed */

static void start(void)
{
    srv_options o = SRV_OPTIONS_INIT;
    o.db_path = dbpath;
    o.clock_offset_ms = clock_offset;
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
/* The arbiter's controls (issue 20): the creator gets the arbiter's key; with it the
 * clocks are paused and resumed, time is added to a side, a result is declared by
 * the arbiter's decision; a pause, the time added and the decision survive a restart
 * (events of the game's log); a player's or spectator's key, a wrong key and bad
 * input are refused and change nothing. */
static void test_arbiter(void **st)
{
    (void)st;
    json_t *j;
    assert_int_equal(req("POST", "/api/games", "{\"opponent\":\"human\",\"time\":\"300\"}", &j),
                     201);
    game_keys g;
    snprintf(g.id, sizeof g.id, "%s", str(j, "id"));
    const json_t *links = json_object_get(j, "links");
    key_of(g.white, sizeof g.white, links, "white");
    key_of(g.black, sizeof g.black, links, "black");
    key_of(g.spectator, sizeof g.spectator, links, "spectator");
    char arb[64];
    key_of(arb, sizeof arb, links, "arbiter");
    assert_string_equal(arb, str(j, "arbiter_key"));
    assert_int_equal((int)strlen(arb), 32);
    json_decref(j);
    j = state(&g, arb);
    assert_string_equal(str(j, "you"), "arbiter");
    assert_true(json_is_true(json_object_get(j, "arbiter")));
    assert_true(json_is_false(json_object_get(json_object_get(j, "clock"), "paused")));
    json_decref(j);

    /* refusals: the keys, the actions and their arguments */
    assert_error(post(&g, "arbiter", g.white, "\"action\":\"pause\"", &j), &j, 403,
                 "not the arbiter's");
    assert_error(post(&g, "arbiter", g.spectator, "\"action\":\"pause\"", &j), &j, 403,
                 "spectator's link, not the arbiter's");
    assert_error(post(&g, "arbiter", "forged", "\"action\":\"pause\"", &j), &j, 403, "wrong key");
    assert_error(post(&g, "arbiter", arb, NULL, &j), &j, 400, "\"action\" must be");
    assert_error(post(&g, "arbiter", arb, "\"action\":\"stop\"", &j), &j, 400, "\"pause\"");
    assert_error(post(&g, "arbiter", arb, "\"action\":\"add_time\",\"seconds\":60", &j), &j, 400,
                 "\"side\"");
    assert_error(post(&g, "arbiter", arb, "\"action\":\"add_time\",\"side\":\"black\"", &j), &j,
                 400, "\"seconds\"");
    assert_error(
        post(&g, "arbiter", arb, "\"action\":\"add_time\",\"side\":\"black\",\"seconds\":0", &j),
        &j, 400, "from 1 to 36000");
    assert_error(
        post(&g, "arbiter", arb, "\"action\":\"add_time\",\"side\":\"red\",\"seconds\":5", &j), &j,
        400, "\"side\"");
    assert_error(post(&g, "arbiter", arb, "\"action\":\"declare\",\"result\":\"3-0\"", &j), &j, 400,
                 "\"result\"");
    assert_error(
        post(&g, "arbiter", arb, "\"action\":\"declare\",\"result\":\"1-1\",\"note\":5", &j), &j,
        400, "\"note\"");
    assert_error(post(&g, "arbiter", arb,
                      "\"action\":\"declare\",\"result\":\"1-1\",\"note\":\"a\\nb\"", &j),
                 &j, 400, "one line");
    assert_error(post(&g, "arbiter", arb, "\"action\":\"resume\"", &j), &j, 409, "not paused");
    assert_error(post(&g, "move", arb, "\"move\":\"32-28\"", &j), &j, 403, "arbiter's link");
    assert_error(post(&g, "resign", arb, NULL, &j), &j, 403, "arbiter's link");

    /* White moves; the arbiter stops the clocks on Black's time */
    assert_int_equal(post(&g, "move", g.white, "\"move\":\"32-28\"", &j), 200);
    json_decref(j);
    assert_int_equal(post(&g, "arbiter", arb, "\"action\":\"pause\"", &j), 200);
    assert_true(json_is_true(json_object_get(json_object_get(j, "clock"), "paused")));
    assert_true(json_is_null(json_object_get(json_object_get(j, "clock"), "running")));
    int64_t b0 = clock_of(j, "black"), w0 = clock_of(j, "white");
    json_decref(j);
    assert_error(post(&g, "arbiter", arb, "\"action\":\"pause\"", &j), &j, 409, "already paused");
    assert_error(post(&g, "move", g.black, "\"move\":\"19-23\"", &j), &j, 409, "paused");
    usleep(300000);
    j = state(&g, g.black);
    assert_int_equal(clock_of(j, "black"), b0); /* time stands still */
    json_decref(j);
    assert_int_equal(
        post(&g, "arbiter", arb, "\"action\":\"add_time\",\"side\":\"black\",\"seconds\":60", &j),
        200);
    assert_int_equal(clock_of(j, "black"), b0 + 60000);
    assert_int_equal(clock_of(j, "white"), w0);
    json_decref(j);

    /* a restart in the middle of the pause: still paused, the times kept */
    stop();
    start();
    usleep(200000);
    j = state(&g, g.spectator);
    assert_true(json_is_true(json_object_get(json_object_get(j, "clock"), "paused")));
    assert_int_equal(clock_of(j, "black"), b0 + 60000);
    assert_int_equal(clock_of(j, "white"), w0);
    assert_int_equal(json_integer_value(json_object_get(j, "ply")), 1);
    json_decref(j);
    assert_error(post(&g, "move", g.black, "\"move\":\"19-23\"", &j), &j, 409, "paused");

    /* resumed: Black's time runs again, Black moves */
    assert_int_equal(post(&g, "arbiter", arb, "\"action\":\"resume\"", &j), 200);
    assert_true(json_is_false(json_object_get(json_object_get(j, "clock"), "paused")));
    assert_string_equal(str(json_object_get(j, "clock"), "running"), "black");
    json_decref(j);
    assert_int_equal(post(&g, "move", g.black, "\"move\":\"19-23\"", &j), 200);
    int64_t b1 = clock_of(j, "black");
    assert_true(b1 <= b0 + 60000 && b1 > b0 + 55000);
    json_decref(j);
    assert_int_equal(
        post(&g, "arbiter", arb, "\"action\":\"add_time\",\"side\":\"white\",\"seconds\":30", &j),
        200);
    assert_true(clock_of(j, "white") > w0 + 25000 && clock_of(j, "white") <= w0 + 30000);
    json_decref(j);

    /* the arbiter's decision: a draw, with a note; then nothing more */
    assert_int_equal(post(&g, "arbiter", arb,
                          "\"action\":\"declare\",\"result\":\"1-1\",\"note\":\"both flags "
                          "agreed by the arbiter\"",
                          &j),
                     200);
    assert_string_equal(str(j, "result"), "1-1");
    assert_string_equal(str(j, "reason"), "arbiter's decision");
    assert_string_equal(str(j, "arbiter_note"), "both flags agreed by the arbiter");
    json_decref(j);
    assert_error(post(&g, "arbiter", arb, "\"action\":\"declare\",\"result\":\"2-0\"", &j), &j, 409,
                 "over");
    assert_error(post(&g, "arbiter", arb, "\"action\":\"pause\"", &j), &j, 409, "over");
    assert_error(post(&g, "move", g.white, "\"move\":\"28x19\"", &j), &j, 409, "over");
    stop();
    start();
    j = state(&g, g.white);
    assert_string_equal(str(j, "result"), "1-1");
    assert_string_equal(str(j, "reason"), "arbiter's decision");
    assert_string_equal(str(j, "arbiter_note"), "both flags agreed by the arbiter");
    assert_int_equal(json_integer_value(json_object_get(j, "ply")), 2);
    json_decref(j);
    /* the PDN's Termination says why */
    assert_int_equal(post(&g, "annotate", g.white, "\"depth\":1", &j), 200);
    assert_non_null(strstr(str(j, "pdn"), "[Termination \"arbiter's decision\"]"));
    assert_non_null(strstr(str(j, "pdn"), "1-1"));
    json_decref(j);

    /* a game without a clock: the clocks' actions are refused, a decision is not */
    game_keys h;
    assert_int_equal(req("POST", "/api/games", "{\"opponent\":\"human\"}", &j), 201);
    snprintf(h.id, sizeof h.id, "%s", str(j, "id"));
    key_of(arb, sizeof arb, json_object_get(j, "links"), "arbiter");
    json_decref(j);
    assert_error(post(&h, "arbiter", arb, "\"action\":\"pause\"", &j), &j, 409, "no clock");
    assert_error(
        post(&h, "arbiter", arb, "\"action\":\"add_time\",\"side\":\"white\",\"seconds\":5", &j),
        &j, 409, "no clock");
    assert_int_equal(post(&h, "arbiter", arb, "\"action\":\"declare\",\"result\":\"0-2\"", &j),
                     200);
    assert_string_equal(str(j, "result"), "0-2");
    assert_string_equal(str(j, "reason"), "arbiter's decision");
    assert_null(json_object_get(j, "arbiter_note"));
    json_decref(j);
}

/* The engine waits while the arbiter holds the clocks, and plays when they resume
 * (paused and resumed while it was searching: its move is dropped, searched again;
 * it was lost before, the resume could not queue a game being searched). */
static void test_arbiter_engine(void **st)
{
    (void)st;
    json_t *j;
    assert_int_equal(
        req("POST", "/api/games",
            "{\"opponent\":\"engine\",\"side\":\"black\",\"level\":7,\"time\":\"300\"}", &j),
        201);
    game_keys g;
    snprintf(g.id, sizeof g.id, "%s", str(j, "id"));
    snprintf(g.spectator, sizeof g.spectator, "%s", str(j, "key"));
    char arb[64];
    snprintf(arb, sizeof arb, "%s", str(j, "arbiter_key"));
    json_decref(j);
    assert_int_equal(post(&g, "arbiter", arb, "\"action\":\"pause\"", &j), 200);
    json_decref(j);
    int p = ply_of(&g); /* 0 unless the engine was quicker than the pause */
    usleep(300000);     /* level 7 searches 1 s: resumed while it still searches */
    assert_int_equal(ply_of(&g), p);
    assert_int_equal(post(&g, "arbiter", arb, "\"action\":\"resume\"", &j), 200);
    json_decref(j);
    for (int i = 0; i < 200 && ply_of(&g) < 1; i++) {
        usleep(50000);
    }
    assert_int_equal(ply_of(&g), 1);
}

/* Adjournment with a sealed move: the player to move seals a move (secret, the clocks
 * stop), a restart keeps it, the arbiter's resume plays it and starts the other
 * side's clock; the wrong side, a bad move and a takeback are refused. */
static void test_sealed_move(void **st)
{
    (void)st;
    json_t *j;
    assert_int_equal(req("POST", "/api/games", "{\"opponent\":\"human\",\"time\":\"300+5\"}", &j),
                     201);
    game_keys g;
    snprintf(g.id, sizeof g.id, "%s", str(j, "id"));
    const json_t *links = json_object_get(j, "links");
    key_of(g.white, sizeof g.white, links, "white");
    key_of(g.black, sizeof g.black, links, "black");
    key_of(g.spectator, sizeof g.spectator, links, "spectator");
    char arb[64];
    key_of(arb, sizeof arb, links, "arbiter");
    json_decref(j);
    assert_int_equal(post(&g, "move", g.white, "\"move\":\"32-28\"", &j), 200);
    assert_true(json_is_null(json_object_get(j, "sealed")));
    json_decref(j);
    assert_error(post(&g, "seal", g.white, "\"move\":\"37-32\"", &j), &j, 409, "player to move");
    assert_error(post(&g, "seal", g.spectator, "\"move\":\"19-23\"", &j), &j, 403, "spectator");
    assert_error(post(&g, "seal", g.black, "\"move\":\"19-28\"", &j), &j, 400, "");
    assert_error(post(&g, "seal", g.black, NULL, &j), &j, 400, "\"move\"");
    assert_int_equal(post(&g, "seal", g.black, "\"move\":\"19-23\"", &j), 200);
    assert_string_equal(str(j, "sealed"), "black");
    assert_true(json_is_true(json_object_get(json_object_get(j, "clock"), "paused")));
    assert_int_equal(json_integer_value(json_object_get(j, "ply")), 1); /* not played */
    int64_t b0 = clock_of(j, "black"), w0 = clock_of(j, "white");
    json_decref(j);
    /* the move is secret: the other side's state does not have it */
    j = state(&g, g.white);
    char *text = json_dumps(json_object_get(j, "moves"), 0);
    assert_null(strstr(text, "19-23"));
    free(text);
    json_decref(j);
    assert_error(post(&g, "seal", g.black, "\"move\":\"19-23\"", &j), &j, 409, "paused");
    assert_error(post(&g, "move", g.black, "\"move\":\"19-23\"", &j), &j, 409, "paused");
    assert_error(post(&g, "takeback", g.white, "\"action\":\"offer\"", &j), &j, 409, "adjourned");
    stop();
    start();
    usleep(200000);
    j = state(&g, g.spectator);
    assert_string_equal(str(j, "sealed"), "black");
    assert_int_equal(clock_of(j, "black"), b0);
    json_decref(j);
    /* the arbiter resumes: the sealed move is played, White's clock runs */
    assert_int_equal(post(&g, "arbiter", arb, "\"action\":\"resume\"", &j), 200);
    assert_true(json_is_null(json_object_get(j, "sealed")));
    assert_int_equal(json_integer_value(json_object_get(j, "ply")), 2);
    assert_string_equal(str(json_array_get(json_object_get(j, "moves"), 1), "text"), "19-23");
    assert_string_equal(str(json_object_get(j, "clock"), "running"), "white");
    assert_int_equal(clock_of(j, "black"), b0 + 5000); /* the increment after the move */
    assert_true(clock_of(j, "white") <= w0 && clock_of(j, "white") > w0 - 2000);
    json_decref(j);
    stop();
    start();
    j = state(&g, g.white);
    assert_int_equal(json_integer_value(json_object_get(j, "ply")), 2);
    assert_int_equal(clock_of(j, "black"), b0 + 5000);
    assert_true(json_is_false(json_object_get(json_object_get(j, "clock"), "paused")));
    json_decref(j);
    assert_int_equal(post(&g, "move", g.white, "\"move\":\"28x19\"", &j), 200);
    json_decref(j);
}

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

/* The games of GET /api/games/your-turn?keys=... (the reply owned by the caller). */
static json_t *your_turn(const char *keys)
{
    char path[512];
    snprintf(path, sizeof path, "/api/games/your-turn?keys=%s", keys);
    json_t *j;
    assert_int_equal(req("GET", path, NULL, &j), 200);
    return j;
}

/* Correspondence (issue 13): 3 days per move on the wall clock. The clock survives a
 * restart, the downtime counts (the server's test clock offset stands for the days
 * that pass), your-turn lists the games of the player to move with the deadline, and a
 * deadline that passed while the server was down loses the game on time when loaded. */
static void test_correspondence(void **st)
{
    (void)st;
    const int64_t day = 86400000LL;
    json_t *j;
    game_keys g;
    assert_error(req("POST", "/api/games", "{\"correspondence\":{\"days_per_move\":0}}", &j), &j,
                 400, "days_per_move");
    assert_error(req("POST", "/api/games", "{\"correspondence\":{\"days_per_move\":0.0001}}", &j),
                 &j, 400, "thousandths");
    assert_error(req("POST", "/api/games", "{\"correspondence\":3}", &j), &j, 400, "object");
    assert_error(req("POST", "/api/games",
                     "{\"time\":\"300\",\"correspondence\":{\"days_per_move\":3}}", &j),
                 &j, 400, "exclude");
    create(&g, "{\"opponent\":\"human\",\"correspondence\":{\"days_per_move\":2.5,"
               "\"budget_days\":30}}");
    j = state(&g, g.white);
    assert_string_equal(str(json_object_get(j, "clock"), "control"), "2.5d:30d");
    json_decref(j);
    create(&g, "{\"opponent\":\"human\",\"correspondence\":{\"days_per_move\":3}}");
    j = state(&g, g.white);
    const json_t *clock = json_object_get(j, "clock");
    assert_string_equal(str(clock, "control"), "3d");
    assert_true(json_is_true(json_object_get(clock, "correspondence")));
    int64_t now = (int64_t)json_integer_value(json_object_get(j, "server_time"));
    int64_t deadline = (int64_t)json_integer_value(json_object_get(clock, "deadline"));
    assert_true(deadline > now + 3 * day - 5000 && deadline <= now + 3 * day + 1000);
    json_decref(j);
    /* White to move: White's key lists it, Black's does not */
    char keys[200];
    snprintf(keys, sizeof keys, "%s,%s", g.white, g.black);
    j = your_turn(keys);
    json_t *a = json_object_get(j, "games");
    assert_int_equal(json_array_size(a), 1);
    assert_string_equal(str(json_array_get(a, 0), "id"), g.id);
    assert_string_equal(str(json_array_get(a, 0), "you"), "white");
    assert_string_equal(str(json_array_get(a, 0), "key"), g.white);
    assert_true(json_integer_value(json_object_get(json_array_get(a, 0), "deadline")) > now);
    json_decref(j);
    assert_int_equal(post(&g, "move", g.white, "\"move\":\"32-28\"", &j), 200);
    json_decref(j);
    j = your_turn(g.white);
    assert_int_equal(json_array_size(json_object_get(j, "games")), 0);
    json_decref(j);
    j = your_turn(g.black);
    assert_int_equal(json_array_size(json_object_get(j, "games")), 1);
    json_decref(j);
    j = your_turn(keys); /* both keys held: listed for the side to move */
    a = json_object_get(j, "games");
    assert_int_equal(json_array_size(a), 1);
    assert_string_equal(str(json_array_get(a, 0), "you"), "black");
    assert_string_equal(str(json_array_get(a, 0), "key"), g.black);
    json_decref(j);
    /* two days pass with the server down: Black has one day left */
    stop();
    clock_offset = 2 * day;
    start();
    j = state(&g, g.black);
    assert_string_equal(str(j, "result"), "*");
    int64_t left = clock_of(j, "black");
    assert_true(left > day - 10000 && left <= day);
    json_decref(j);
    assert_int_equal(post(&g, "move", g.black, "\"move\":\"19-23\"", &j), 200);
    assert_true(clock_of(j, "black") == 3 * day); /* the next move has 3 days again */
    json_decref(j);
    /* four days more: White's deadline passed while the server was down */
    stop();
    clock_offset = 6 * day;
    start();
    j = state(&g, g.spectator);
    assert_string_equal(str(j, "result"), "0-2");
    assert_string_equal(str(j, "reason"), "loss on time");
    assert_int_equal(json_integer_value(json_object_get(j, "ply")), 2);
    json_decref(j);
    j = your_turn(keys);
    assert_int_equal(json_array_size(json_object_get(j, "games")), 0);
    json_decref(j);
    stop();
    clock_offset = 0;
    start();
    /* the engine (level 6: half a second a move) does not take the days as its time:
     * it answers at once, and the engine's side is never "your turn" */
    create(&g, "{\"opponent\":\"engine\",\"side\":\"black\",\"level\":6,"
               "\"correspondence\":{\"days_per_move\":3}}");
    for (int i = 0; i < 100 && ply_of(&g) < 1; i++) {
        usleep(50000);
    }
    assert_int_equal(ply_of(&g), 1);
    j = your_turn(g.black);
    assert_int_equal(json_array_size(json_object_get(j, "games")), 1);
    json_decref(j);
}

/* Conditional moves (issue 13, correspondence): the waiting player gives the
 * opponent's expected move and the reply; the expected move is answered at once, another
 * move drops them; a restart keeps them; only the waiting player may set them. */
static void test_conditional(void **st)
{
    (void)st;
    json_t *j;
    game_keys g, h;
    create(&g, "{\"opponent\":\"human\",\"correspondence\":{\"days_per_move\":3}}");
    assert_int_equal(post(&g, "move", g.white, "\"move\":\"32-28\"", &j), 200);
    json_decref(j);
    assert_error(post(&g, "conditional", g.black, "\"moves\":[\"28-23\",\"19-23\"]", &j), &j, 409,
                 "your move");
    assert_error(post(&g, "conditional", g.spectator, "\"moves\":[]", &j), &j, 403, "");
    assert_error(post(&g, "conditional", g.white, "\"moves\":[\"19-23\"]", &j), &j, 400, "pairs");
    assert_error(post(&g, "conditional", g.white, "\"moves\":[\"50-45\",\"28-23\"]", &j), &j, 400,
                 "opponent's move");
    assert_int_equal(post(&g, "conditional", g.white,
                          "\"moves\":[\"19-23\",\"28x19\",\"14x23\","
                          "\"37-32\"]",
                          &j),
                     200);
    const json_t *c = json_object_get(j, "conditional");
    assert_int_equal(json_array_size(c), 4);
    assert_string_equal(json_string_value(json_array_get(c, 1)), "28x19");
    json_decref(j);
    j = state(&g, g.black); /* the opponent does not see them */
    assert_null(json_object_get(j, "conditional"));
    json_decref(j);
    /* Black plays the expected move: White's reply is played at once */
    assert_int_equal(post(&g, "move", g.black, "\"move\":\"19-23\"", &j), 200);
    assert_int_equal(json_integer_value(json_object_get(j, "ply")), 3);
    assert_string_equal(str(j, "turn"), "black");
    json_decref(j);
    j = state(&g, g.white);
    assert_int_equal(json_array_size(json_object_get(j, "conditional")), 2);
    json_decref(j);
    /* another move than the expected 14x23 drops the rest */
    assert_int_equal(post(&g, "move", g.black, "\"move\":\"13x24\"", &j), 200);
    assert_int_equal(json_integer_value(json_object_get(j, "ply")), 4);
    json_decref(j);
    j = state(&g, g.white);
    assert_null(json_object_get(j, "conditional"));
    json_decref(j);
    /* a restart keeps them, and they are answered after it */
    create(&h, "{\"opponent\":\"human\",\"correspondence\":{\"days_per_move\":3}}");
    assert_int_equal(post(&h, "move", h.white, "\"move\":\"32-28\"", &j), 200);
    json_decref(j);
    assert_int_equal(post(&h, "conditional", h.white, "\"moves\":[\"19-23\",\"28x19\"]", &j), 200);
    json_decref(j);
    stop();
    start();
    j = state(&h, h.white);
    assert_int_equal(json_array_size(json_object_get(j, "conditional")), 2);
    json_decref(j);
    assert_int_equal(post(&h, "move", h.black, "\"move\":\"19-23\"", &j), 200);
    assert_int_equal(json_integer_value(json_object_get(j, "ply")), 3);
    json_decref(j);
    /* and the game replays as played */
    stop();
    start();
    assert_int_equal(ply_of(&h), 3);
    assert_int_equal(ply_of(&g), 4);
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

/* An international game's replies keep the page's first protocol on the generic board
 * (issue 9): each move {text, hub, path, captured} and nothing more, no board
 * description or pieces; a king's capture written in full only where another capture
 * shares its from and to (PDN), its path where it turned. The same on /api/position. */
static void assert_intl_move(const json_t *m, const char *text, const char *hub, const char *path,
                             const char *captured)
{
    assert_string_equal(str(m, "text"), text);
    assert_string_equal(str(m, "hub"), hub);
    char *p = json_dumps(json_object_get(m, "path"), JSON_COMPACT);
    char *c = json_dumps(json_object_get(m, "captured"), JSON_COMPACT);
    assert_string_equal(p, path);
    assert_string_equal(c, captured);
    free(p);
    free(c);
    assert_int_equal(json_object_size(m), 4); /* no "promote" */
}

static void assert_intl_legal(const json_t *legal)
{
    assert_int_equal(json_array_size(legal), 3);
    for (size_t i = 0; i < 3; i++) {
        const json_t *m = json_array_get(legal, i);
        const char *h = str(m, "hub");
        if (!strcmp(h, "25x36x13x20x31")) {
            assert_intl_move(m, "25x36", h, "[25,9,18,36]", "[13,20,31]");
        } else if (!strcmp(h, "25x1x7x13x20")) {
            assert_intl_move(m, "25x9x18x1", h, "[25,9,18,1]", "[7,13,20]");
        } else {
            assert_intl_move(m, "25x14x23x1", "25x1x7x19x20", "[25,14,23,1]", "[7,19,20]");
        }
    }
}

static void test_international_protocol(void **st)
{
    (void)st;
    static const char *fen = "W:W43,K25,8,K28,48,50:B38,20,K47,7,41,31,13,19";
    char body[256];
    snprintf(body, sizeof body, "{\"opponent\":\"human\",\"fen\":\"%s\"}", fen);
    game_keys g;
    create(&g, body);
    json_t *j = state(&g, g.white);
    assert_string_equal(str(j, "variant"), "international");
    assert_string_equal(str(j, "start_fen"), "W:W8,K25,K28,43,48,50:B7,13,19,20,31,38,41,K47");
    assert_intl_legal(json_object_get(j, "legal"));
    static const char *const variant_only[] = {"board", "position", "start_position",
                                               "reason_text"};
    for (int i = 0; i < 4; i++) {
        assert_null(json_object_get(j, variant_only[i]));
    }
    json_decref(j);
    json_t *r;
    assert_int_equal(post(&g, "move", g.white, "\"move\":\"25x14x23x1\"", &r), 200);
    json_decref(r);
    j = state(&g, g.black);
    assert_intl_move(json_array_get(json_object_get(j, "moves"), 0), "25x14x23x1", "25x1x7x19x20",
                     "[25,14,23,1]", "[7,19,20]");
    assert_string_equal(str(j, "fen"), "B:WK1,8,K28,43,48,50:B13,31,38,41,K47");
    json_decref(j);
    char path[256];
    snprintf(path, sizeof path, "/api/position?fen=%s", fen);
    assert_int_equal(req("GET", path, NULL, &j), 200);
    assert_intl_legal(json_object_get(j, "legal"));
    for (int i = 0; i < 4; i++) {
        assert_null(json_object_get(j, variant_only[i]));
    }
    assert_null(json_object_get(j, "variant"));
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
    /* the one move reader of every variant (dm_move_parse, as a game's move request):
     * what is wrong and where */
    assert_error(req("GET", "/api/position?fen=W:W32&move=32-33x", NULL, &j), &j, 400,
                 "expected a square at column 7");
    assert_int_equal(
        req("GET", "/api/position?variant=russian&fen=W:Wc3:Bd4,h8&move=c3:e5", NULL, &j), 200);
    assert_string_equal(str(json_object_get(j, "played"), "text"), "c3:e5");
    json_decref(j);
    assert_error(req("GET", "/api/position?variant=russian&fen=W:Wc3:Bd4,h8&move=c3-b4", NULL, &j),
                 &j, 400, "capture is compulsory");
}

/* GET /api/jump/position (the Chinese checkers course): the start and its 14 moves, a
 * chain judged leg by leg and played, the rules core's words for illegal moves, and
 * refusals of a bad game, player count or position */
static void test_jump_position(void **st)
{
    (void)st;
    json_t *j;
    assert_int_equal(req("GET", "/api/jump/position?game=chinese-checkers", NULL, &j), 200);
    assert_string_equal(str(j, "pos"), "A:A112-121:B1-10");
    assert_string_equal(str(j, "turn"), "A");
    assert_int_equal(json_array_size(json_object_get(j, "legal")), 14);
    assert_int_equal(json_array_size(json_object_get(j, "holes")), 121);
    const char *pegs = str(j, "pegs");
    assert_int_equal(strlen(pegs), 121);
    assert_int_equal(pegs[0], 'B');
    assert_int_equal(pegs[60], '.');
    assert_int_equal(pegs[120], 'A');
    assert_true(json_is_null(json_object_get(j, "winner")));
    json_decref(j);
    /* a jump: "from-to" names the legal move, the answer gives its path */
    assert_int_equal(req("GET", "/api/jump/position?pos=A:A112-121:B1-10&move=117-104", NULL, &j),
                     200);
    json_t *pl = json_object_get(j, "played");
    assert_string_equal(str(pl, "text"), "117-104");
    assert_string_equal(str(pl, "from"), "117");
    assert_string_equal(json_string_value(json_array_get(json_object_get(pl, "path"), 0)), "104");
    assert_string_equal(str(j, "turn"), "B");
    assert_string_equal(str(j, "pos"), "B:A104,112-116,118-121:B1-10");
    json_decref(j);
    /* a chain of three jumps, given by its two ends */
    assert_int_equal(
        req("GET", "/api/jump/position?pos=A:A90,112,119,121:B1-10&move=121-78", NULL, &j), 200);
    assert_string_equal(str(json_object_get(j, "played"), "text"), "121-116-103-78");
    assert_int_equal(json_array_size(json_object_get(json_object_get(j, "played"), "path")), 3);
    json_decref(j);
    /* illegal: the rules core's words */
    assert_error(req("GET", "/api/jump/position?pos=A:A112-121:B1-10&move=113-95", NULL, &j), &j,
                 400, "113 cannot reach 95");
    assert_error(
        req("GET", "/api/jump/position?pos=A:A90,112,119,121:B1-10&move=121-116-102", NULL, &j), &j,
        400, "116 to 102 is not a jump");
    assert_error(req("GET", "/api/jump/position?move=1-11", NULL, &j), &j, 400,
                 "no piece of the side to move on 1");
    assert_error(req("GET", "/api/jump/position?game=chess", NULL, &j), &j, 400, "chess");
    assert_error(req("GET", "/api/jump/position?game=gewu", NULL, &j), &j, 400, "gewu");
    assert_error(req("GET", "/api/jump/position?players=5", NULL, &j), &j, 400, "");
    assert_error(req("GET", "/api/jump/position?players=x", NULL, &j), &j, 400, "players");
    assert_error(req("GET", "/api/jump/position?pos=A:A999:B1", NULL, &j), &j, 400, "position");
    assert_error(req("POST", "/api/jump/position", "{}", &j), &j, 405, "GET");
}

/* The master-games library (srv_library.c): the international games of a folder of
 * PDN files (another variant's game and an unreadable one skipped), searched by
 * player, year, result, opening, exact position and pattern; the opening explorer
 * with results; a game opened on the review board; bad requests refused; a missing
 * --library path refuses to start. */
static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void test_library(void **st)
{
    (void)st;
    char lib[400], sub[420], path[460];
    snprintf(lib, sizeof lib, "%s/library", dir);
    snprintf(sub, sizeof sub, "%s/more", lib);
    assert_int_equal(mkdir(lib, 0700), 0);
    assert_int_equal(mkdir(sub, 0700), 0);
    snprintf(path, sizeof path, "%s/a.pdn", lib);
    write_file(path,
               "[Event \"Test Open\"]\n[Date \"1996.04.01\"]\n[White \"T. Sijbrands\"]\n"
               "[Black \"Other\"]\n[Result \"2-0\"]\n\n1. 32-28 19-23 2. 28x19 14x23 2-0\n\n"
               "[Event \"Test Open\"]\n[Date \"1997.04.02\"]\n[White \"Other\"]\n"
               "[Black \"T. Sijbrands\"]\n[Result \"1-1\"]\n\n1. 32-28 19-23 2. 28x19 13x24 1-1\n\n"
               "[Event \"Bad\"]\n[White \"X\"]\n[Black \"Y\"]\n\n1. 32-28 1-2 *\n\n");
    snprintf(path, sizeof path, "%s/b.pdn", sub);
    write_file(path, "[Event \"Later\"]\n[Date \"2005.01.01\"]\n[White \"A\"]\n[Black \"B\"]\n"
                     "[Result \"0-1\"]\n\n1. 33-28 18-23 0-1\n\n"
                     "[GameType \"21\"]\n[White \"E\"]\n[Black \"F\"]\n\n1. 11-15 23-19 *\n\n");
    stop();
    srv_options o = SRV_OPTIONS_INIT;
    o.db_path = dbpath;
    o.library = lib;
    server = test_server_start(&o);
    json_t *j;
    assert_int_equal(req("GET", "/api/library?player=sijbrands", NULL, &j), 200);
    assert_int_equal(json_integer_value(json_object_get(j, "total")), 2);
    json_decref(j);
    assert_int_equal(req("GET", "/api/library", NULL, &j), 200);
    assert_int_equal(json_integer_value(json_object_get(j, "total")), 3);
    json_decref(j);
    assert_int_equal(req("GET", "/api/library?year=1997-2010", NULL, &j), 200);
    assert_int_equal(json_integer_value(json_object_get(j, "total")), 2);
    json_decref(j);
    /* "0-1" in the file is the draughts result 0-2 */
    assert_int_equal(req("GET", "/api/library?result=0-2", NULL, &j), 200);
    assert_int_equal(json_integer_value(json_object_get(j, "total")), 1);
    assert_string_equal(str(json_array_get(json_object_get(j, "games"), 0), "white"), "A");
    json_decref(j);
    assert_int_equal(req("GET", "/api/library?opening=32-28%2019-23", NULL, &j), 200);
    assert_int_equal(json_integer_value(json_object_get(j, "total")), 2);
    json_decref(j);
    assert_int_equal(req("GET", "/api/library?opening=32-28%2019-23%2028x19%2014x23", NULL, &j),
                     200);
    assert_int_equal(json_integer_value(json_object_get(j, "total")), 1);
    json_decref(j);
    /* the position after 1. 32-28 19-23 2. 28x19 14x23, reached by one game at ply 4 */
    assert_int_equal(req("GET", "/api/library?fen=W:W31,33-50:B1-13,15-18,20,23", NULL, &j), 200);
    assert_int_equal(json_integer_value(json_object_get(j, "total")), 1);
    assert_int_equal(
        json_integer_value(json_object_get(json_array_get(json_object_get(j, "games"), 0), "ply")),
        4);
    json_decref(j);
    assert_int_equal(req("GET", "/api/library?pattern=W:W28:B23", NULL, &j), 200);
    assert_int_equal(json_integer_value(json_object_get(j, "total")), 3);
    json_decref(j);
    assert_int_equal(req("GET", "/api/library/explorer", NULL, &j), 200);
    assert_int_equal(json_integer_value(json_object_get(j, "games")), 3);
    const json_t *first = json_array_get(json_object_get(j, "moves"), 0);
    assert_string_equal(str(first, "move"), "32-28");
    assert_int_equal(json_integer_value(json_object_get(first, "games")), 2);
    assert_int_equal(json_integer_value(json_object_get(first, "white")), 1);
    assert_int_equal(json_integer_value(json_object_get(first, "draws")), 1);
    json_decref(j);
    assert_int_equal(req("GET", "/api/library?player=Sijbrands&year=1996", NULL, &j), 200);
    json_int_t id =
        json_integer_value(json_object_get(json_array_get(json_object_get(j, "games"), 0), "id"));
    json_decref(j);
    char url[80];
    snprintf(url, sizeof url, "/api/library/%lld", (long long)id);
    assert_int_equal(req("GET", url, NULL, &j), 200);
    assert_non_null(strstr(str(j, "pdn"), "28x19"));
    json_decref(j);
    snprintf(url, sizeof url, "/api/library/%lld/review", (long long)id);
    assert_int_equal(req("POST", url, "{}", &j), 200);
    const char *link = str(json_array_get(json_object_get(j, "games"), 0), "link");
    assert_non_null(strstr(link, "#/game/"));
    json_decref(j);
    /* refusals */
    assert_error(req("GET", "/api/library?year=soon", NULL, &j), &j, 400, "year");
    assert_error(req("GET", "/api/library?result=1-0", NULL, &j), &j, 400, "result");
    assert_error(req("GET", "/api/library?fen=W:W99", NULL, &j), &j, 400, "fen: FEN");
    assert_error(req("GET", "/api/library/999999", NULL, &j), &j, 404, "no such library game");
    assert_error(req("GET", "/api/library/x1", NULL, &j), &j, 404, "no such library game");
    assert_error(req("GET", url, NULL, &j), &j, 405, "POST");
    stop();
    /* a missing path: the server does not start, and says why */
    char err[512] = "";
    o.library = "/nonexistent/damier-library";
    o.port = 0;
    o.quiet = 1;
    assert_null(srv_start(&o, err, sizeof err));
    assert_non_null(strstr(err, "no such file or folder"));
    start(); /* the usual server, for the tests after this one */
    assert_error(req("GET", "/api/library", NULL, &j), &j, 404, "--library");
}

/* The simultaneous display (srv_simul.c): N boards against people, each an ordinary
 * game with its opponent's link; the host's moves and the score; a restart keeps the
 * simul; refusals. */
static void test_simul(void **st)
{
    (void)st;
    json_t *j;
    assert_error(req("POST", "/api/simuls", "{\"boards\": 0, \"opponent\": \"engine\"}", &j), &j,
                 400, "boards");
    assert_error(req("POST", "/api/simuls", "{\"boards\": 31, \"opponent\": \"engine\"}", &j), &j,
                 400, "boards");
    assert_error(req("POST", "/api/simuls", "{\"boards\": 2, \"opponent\": \"cat\"}", &j), &j, 400,
                 "opponent");
    assert_error(req("POST", "/api/simuls",
                     "{\"boards\": 2, \"opponent\": \"human\", \"side\": \"purple\"}", &j),
                 &j, 400, "side");
    assert_int_equal(req("POST", "/api/simuls",
                         "{\"boards\": 2, \"opponent\": \"human\", \"side\": \"white\"}", &j),
                     201);
    char id[32], key[64], g1[32], k1[64], path[200];
    snprintf(id, sizeof id, "%s", str(j, "id"));
    snprintf(key, sizeof key, "%s", str(j, "key"));
    const json_t *b1 = json_array_get(json_object_get(j, "boards"), 0);
    snprintf(g1, sizeof g1, "%s", str(b1, "game"));
    snprintf(k1, sizeof k1, "%s", str(b1, "key"));
    assert_non_null(strstr(str(b1, "link"), "/#/game/"));
    assert_int_equal(json_array_size(json_object_get(j, "boards")), 2);
    json_decref(j);
    /* the host (White) moves on board 1; the opponent of board 1 answers by its link */
    snprintf(path, sizeof path, "/api/games/%s/move", g1);
    char body[200];
    snprintf(body, sizeof body, "{\"key\": \"%s\", \"move\": \"32-28\"}", k1);
    assert_int_equal(req("POST", path, body, &j), 200);
    json_decref(j);
    stop();
    start(); /* kept across a restart */
    snprintf(path, sizeof path, "/api/simuls/%s?key=%s", id, key);
    assert_int_equal(req("GET", path, NULL, &j), 200);
    const json_t *boards = json_object_get(j, "boards");
    assert_int_equal(json_array_size(boards), 2);
    assert_int_equal(json_integer_value(json_object_get(json_array_get(boards, 0), "ply")), 1);
    assert_string_equal(str(json_array_get(boards, 0), "turn"), "black");
    assert_string_equal(str(json_array_get(boards, 1), "turn"), "white");
    assert_string_equal(str(json_array_get(boards, 1), "you"), "white");
    assert_int_equal(json_integer_value(json_object_get(json_object_get(j, "score"), "finished")),
                     0);
    json_decref(j);
    /* the host resigns board 2: the opponents' score 2, the host's 0 */
    const char *g2 = NULL, *k2 = NULL;
    assert_int_equal(req("GET", path, NULL, &j), 200);
    g2 = str(json_array_get(json_object_get(j, "boards"), 1), "game");
    k2 = str(json_array_get(json_object_get(j, "boards"), 1), "key");
    char p2[200], b2[200];
    snprintf(p2, sizeof p2, "/api/games/%s/resign", g2);
    snprintf(b2, sizeof b2, "{\"key\": \"%s\"}", k2);
    json_decref(j);
    json_t *k;
    assert_int_equal(req("POST", p2, b2, &k), 200);
    json_decref(k);
    assert_int_equal(req("GET", path, NULL, &j), 200);
    const json_t *sc = json_object_get(j, "score");
    assert_int_equal(json_integer_value(json_object_get(sc, "finished")), 1);
    assert_int_equal(json_integer_value(json_object_get(sc, "host")), 0);
    assert_int_equal(json_integer_value(json_object_get(sc, "opponents")), 2);
    json_decref(j);
    snprintf(path, sizeof path, "/api/simuls/%s?key=nope", id);
    assert_error(req("GET", path, NULL, &j), &j, 403, "wrong key");
    assert_error(req("GET", "/api/simuls/0000?key=x", NULL, &j), &j, 404, "no simul");
    snprintf(path, sizeof path, "/api/simuls/%s", id);
    assert_error(req("POST", path, "{}", &j), &j, 405, "GET");
}

/* The key at the end of a link "/#/game/ID/KEY". */
static const char *link_key_of(const char *link)
{
    const char *k = strrchr(link, '/');
    return k ? k + 1 : "";
}

static void pdn_header(void *ctx, const char *name, const char *value)
{
    if (!strcasecmp(name, "Content-Disposition")) {
        snprintf((char *)ctx, 200, "%s", value);
    }
}

/* A tournament (srv_tourney.c): a four-player round robin whose games are ended by
 * resignation through the API (Black resigns every game, Blake draws nothing): each
 * round paired once the last is complete; the standings and the crosstable right; a
 * restart keeps it; a player's key sees his current game; refusals. */
/* Polls GET /api/tournaments/ID until the tournament is finished (engine pairings are
 * played by the server's tournament thread): the final JSON, owned by the caller. */
static json_t *tournament_finished(const char *id, const char *key)
{
    json_t *j = NULL;
    char path[200];
    for (int tries = 0; tries < 600; tries++) {
        snprintf(path, sizeof path, "/api/tournaments/%s?key=%s", id, key);
        assert_int_equal(req("GET", path, NULL, &j), 200);
        if (json_is_true(json_object_get(j, "finished"))) {
            return j;
        }
        json_decref(j);
        j = NULL;
        usleep(100 * 1000);
    }
    fail_msg("tournament %s not finished in 60 s", id);
    return NULL;
}

/* GET /api/tournaments/ID/pdn (a text reply): every game's PDN, owned by the caller. */
static char *tournament_pdn(const char *id, const char *key)
{
    srv_request rq = {"GET", NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL};
    char rpath[120], rquery[120];
    snprintf(rpath, sizeof rpath, "tournaments/%s/pdn", id);
    snprintf(rquery, sizeof rquery, "key=%s", key);
    rq.path = rpath;
    rq.query = rquery;
    srv_reply rr;
    char *text = NULL;
    srv_route(server, &rq, &rr, &text);
    json_decref(rr.body);
    assert_int_equal(rr.status, 200);
    assert_non_null(text);
    return text;
}

static void test_tournament(void **st)
{
    (void)st;
    json_t *j;
    assert_error(req("POST", "/api/tournaments", "{\"system\": \"cat\", \"players\": []}", &j), &j,
                 400, "system");
    assert_error(req("POST", "/api/tournaments",
                     "{\"system\": \"swiss\", \"players\": [{\"name\": \"a\"}, {\"name\": \"b\"}]}",
                     &j),
                 &j, 400, "rounds");
    assert_error(req("POST", "/api/tournaments",
                     "{\"system\": \"roundrobin\", \"players\": [{\"name\": \"a\"}]}", &j),
                 &j, 400, "players");
    assert_error(req("POST", "/api/tournaments",
                     "{\"system\": \"roundrobin\", \"players\": [{\"name\": \"a\"}, {\"name\": "
                     "\"a\"}]}",
                     &j),
                 &j, 400, "player 2");
    assert_error(req("POST", "/api/tournaments",
                     "{\"system\": \"roundrobin\", \"players\": [{\"name\": \"a\"}, {\"name\": "
                     "\"b\", \"engine_level\": 11}]}",
                     &j),
                 &j, 400, "engine_level");
    assert_int_equal(req("POST", "/api/tournaments",
                         "{\"name\": \"Club\", \"system\": \"roundrobin\", \"players\": [{\"name\":"
                         " \"Ann\"}, {\"name\": \"Bob\"}, {\"name\": \"Cy\"}, {\"name\": \"Di\"}]}",
                         &j),
                     201);
    char id[32], key[64], pkey[64], path[200], body[200];
    snprintf(id, sizeof id, "%s", str(j, "id"));
    snprintf(key, sizeof key, "%s", str(j, "key"));
    assert_int_equal(json_array_size(json_object_get(j, "players")), 4);
    snprintf(pkey, sizeof pkey, "%s",
             link_key_of(str(json_array_get(json_object_get(j, "players"), 0), "link")));
    json_decref(j);
    int won[4][4] = {{0}}; /* won[w][b]: w beat b */
    for (int round = 1; round <= 3; round++) {
        if (round == 2) {
            stop();
            start(); /* a restart in the middle keeps the event and its games */
        }
        snprintf(path, sizeof path, "/api/tournaments/%s?key=%s", id, key);
        assert_int_equal(req("GET", path, NULL, &j), 200);
        assert_int_equal(json_integer_value(json_object_get(j, "round")), round);
        assert_int_equal(json_integer_value(json_object_get(j, "rounds")), 3);
        const json_t *prs = json_object_get(
            json_array_get(json_object_get(j, "pairings"), (size_t)round - 1), "pairings");
        assert_int_equal(json_array_size(prs), 2);
        for (size_t k = 0; k < 2; k++) {
            const json_t *p = json_array_get(prs, k);
            assert_string_equal(str(p, "result"), "*");
            int w = str(p, "white")[0] == 'A'   ? 0
                    : str(p, "white")[0] == 'B' ? 1
                    : str(p, "white")[0] == 'C' ? 2
                                                : 3;
            int b = str(p, "black")[0] == 'A'   ? 0
                    : str(p, "black")[0] == 'B' ? 1
                    : str(p, "black")[0] == 'C' ? 2
                                                : 3;
            won[w][b] = 1;
            json_t *k2;
            snprintf(path, sizeof path, "/api/games/%s/resign", str(p, "game"));
            snprintf(body, sizeof body, "{\"key\": \"%s\"}", link_key_of(str(p, "black_link")));
            assert_int_equal(req("POST", path, body, &k2), 200);
            json_decref(k2);
        }
        json_decref(j);
    }
    for (int pass = 0; pass < 2; pass++) {
        snprintf(path, sizeof path, "/api/tournaments/%s?key=%s", id, key);
        assert_int_equal(req("GET", path, NULL, &j), 200);
        assert_true(json_is_true(json_object_get(j, "finished")));
        const json_t *sd = json_object_get(j, "standings");
        assert_int_equal(json_array_size(sd), 4);
        int sum = 0;
        for (size_t k = 0; k < 4; k++) {
            const json_t *line = json_array_get(sd, k);
            int pts = (int)json_integer_value(json_object_get(line, "points"));
            int who = (int)json_integer_value(json_object_get(line, "player"));
            int wins = 0;
            for (int o = 0; o < 4; o++) {
                wins += won[who][o];
            }
            assert_int_equal(pts, 2 * wins);
            assert_int_equal(json_integer_value(json_object_get(line, "games")), 3);
            assert_non_null(json_object_get(json_object_get(line, "tiebreaks"), "direct"));
            sum += pts;
            if (k > 0) {
                assert_true(pts <= json_integer_value(
                                       json_object_get(json_array_get(sd, k - 1), "points")));
            }
        }
        assert_int_equal(sum, 12);
        const json_t *ct = json_object_get(j, "crosstable");
        for (size_t a = 0; a < 4; a++) {
            const json_t *cells = json_object_get(json_array_get(ct, a), "cells");
            for (size_t b = 0; b < 4; b++) {
                const char *c = json_string_value(json_array_get(cells, b));
                const char *want = a == b ? "x" : won[a][b] ? "2" : "0";
                assert_string_equal(c, want);
            }
        }
        json_decref(j);
        if (pass == 0) {
            stop();
            start();
        }
    }
    /* the organiser has each game's arbiter link (to declare a result) */
    snprintf(path, sizeof path, "/api/tournaments/%s?key=%s", id, key);
    assert_int_equal(req("GET", path, NULL, &j), 200);
    const json_t *p0 = json_array_get(
        json_object_get(json_array_get(json_object_get(j, "pairings"), 0), "pairings"), 0);
    assert_non_null(strstr(str(p0, "arbiter_link"), "/#/game/"));
    json_decref(j);
    /* every game as PDN, with the event's name and the round */
    char *text = tournament_pdn(id, key);
    int games = 0;
    for (const char *c = text; (c = strstr(c, "[Event \"Club\"]")); c++) {
        games++;
    }
    assert_int_equal(games, 6);
    assert_non_null(strstr(text, "[Round \"3\"]"));
    assert_null(strstr(text, "[Round \"?\"]"));
    free(text);
    /* a player's key: his name, no game going on, nobody's links */
    snprintf(path, sizeof path, "/api/tournaments/%s?key=%s", id, pkey);
    assert_int_equal(req("GET", path, NULL, &j), 200);
    assert_string_equal(str(json_object_get(j, "you"), "name"), "Ann");
    assert_true(json_is_null(json_object_get(json_object_get(j, "you"), "game")));
    assert_null(json_object_get(json_array_get(json_object_get(j, "players"), 1), "link"));
    p0 = json_array_get(
        json_object_get(json_array_get(json_object_get(j, "pairings"), 0), "pairings"), 0);
    assert_null(json_object_get(p0, "arbiter_link"));
    json_decref(j);
    /* every game as PDN, by HTTP */
    char disp[200] = "";
    snprintf(path, sizeof path, "/api/tournaments/%s/pdn?key=%s", id, key);
    assert_int_equal(
        http_request(srv_port(server), "GET", path, "", NULL, 0, NULL, pdn_header, disp), 200);
    assert_non_null(strstr(disp, id));
    snprintf(path, sizeof path, "/api/tournaments/%s?key=nope", id);
    assert_error(req("GET", path, NULL, &j), &j, 403, "wrong key");
    assert_error(req("GET", "/api/tournaments/0000?key=x", NULL, &j), &j, 404, "no tournament");
    snprintf(path, sizeof path, "/api/tournaments/%s", id);
    assert_error(req("POST", path, "{}", &j), &j, 405, "GET");
}

/* A Swiss tournament of two rounds: the winners of round 1 meet in round 2 (Monrad),
 * then the event is over. */
static void test_tournament_swiss(void **st)
{
    (void)st;
    json_t *j;
    assert_int_equal(req("POST", "/api/tournaments",
                         "{\"system\": \"swiss\", \"rounds\": 2, \"players\": [{\"name\": \"A\"}, "
                         "{\"name\": \"B\"}, {\"name\": \"C\"}, {\"name\": \"D\"}]}",
                         &j),
                     201);
    char id[32], key[64], path[200], body[200], winners[2][8];
    snprintf(id, sizeof id, "%s", str(j, "id"));
    snprintf(key, sizeof key, "%s", str(j, "key"));
    json_decref(j);
    for (int round = 1; round <= 2; round++) {
        snprintf(path, sizeof path, "/api/tournaments/%s?key=%s", id, key);
        assert_int_equal(req("GET", path, NULL, &j), 200);
        assert_int_equal(json_integer_value(json_object_get(j, "rounds")), 2);
        const json_t *prs = json_object_get(
            json_array_get(json_object_get(j, "pairings"), (size_t)round - 1), "pairings");
        assert_int_equal(json_array_size(prs), 2);
        for (size_t k = 0; k < 2; k++) {
            const json_t *p = json_array_get(prs, k);
            if (round == 1) { /* Black wins every game of round 1 */
                snprintf(winners[k], sizeof winners[k], "%s", str(p, "black"));
            } else { /* the two winners meet */
                const char *w = str(json_array_get(prs, 0), "white");
                const char *b = str(json_array_get(prs, 0), "black");
                assert_true((!strcmp(w, winners[0]) && !strcmp(b, winners[1])) ||
                            (!strcmp(w, winners[1]) && !strcmp(b, winners[0])));
            }
            json_t *k2;
            snprintf(path, sizeof path, "/api/games/%s/resign", str(p, "game"));
            snprintf(body, sizeof body, "{\"key\": \"%s\"}", link_key_of(str(p, "white_link")));
            assert_int_equal(req("POST", path, body, &k2), 200);
            json_decref(k2);
        }
        json_decref(j);
    }
    snprintf(path, sizeof path, "/api/tournaments/%s?key=%s", id, key);
    assert_int_equal(req("GET", path, NULL, &j), 200);
    assert_true(json_is_true(json_object_get(j, "finished")));
    assert_string_equal(str(j, "system"), "swiss");
    const json_t *top = json_array_get(json_object_get(j, "standings"), 0);
    assert_int_equal(json_integer_value(json_object_get(top, "points")), 4);
    assert_non_null(json_object_get(json_object_get(top, "tiebreaks"), "buchholz"));
    json_decref(j);
}

/* A team event (issue 20): three teams on two boards, a round robin; each match's
 * boards are games (the people resign, the engines' boards decided by the levels);
 * the crosstable gives the board points of each match; a member's key sees his team
 * and his game; refusals of a bad team. */
static void test_tournament_teams(void **st)
{
    (void)st;
    json_t *j;
    assert_error(req("POST", "/api/tournaments",
                     "{\"system\": \"roundrobin\", \"boards\": 2, \"teams\": [{\"name\": \"T\", "
                     "\"players\": [{\"name\": \"a\"}]}, {\"name\": \"U\", \"players\": "
                     "[{\"name\": \"b\"}, {\"name\": \"c\"}]}]}",
                     &j),
                 &j, 400, "team 1");
    assert_error(req("POST", "/api/tournaments",
                     "{\"system\": \"roundrobin\", \"boards\": 9, \"teams\": []}", &j),
                 &j, 400, "boards");
    assert_int_equal(
        req("POST", "/api/tournaments",
            "{\"name\": \"League\", \"system\": \"roundrobin\", \"boards\": 2, \"teams\": ["
            "{\"name\": \"Eng\", \"players\": [{\"name\": \"e1\", \"engine_level\": 5}, "
            "{\"name\": \"e2\", \"engine_level\": 5}]},"
            "{\"name\": \"People\", \"players\": [{\"name\": \"p1\"}, {\"name\": \"p2\"}]},"
            "{\"name\": \"Mix\", \"players\": [{\"name\": \"m1\"}, {\"name\": \"m2\", "
            "\"engine_level\": 1}]}]}",
            &j),
        201);
    char id[32], key[64], pkey[64], path[200], body[200];
    snprintf(id, sizeof id, "%s", str(j, "id"));
    snprintf(key, sizeof key, "%s", str(j, "key"));
    const json_t *pl = json_object_get(j, "players");
    assert_int_equal(json_array_size(pl), 6);
    assert_string_equal(str(json_array_get(pl, 2), "team"), "People");
    assert_int_equal(json_integer_value(json_object_get(json_array_get(pl, 3), "board")), 2);
    snprintf(pkey, sizeof pkey, "%s", link_key_of(str(json_array_get(pl, 2), "link")));
    json_decref(j);
    /* a member's key: his name and team */
    snprintf(path, sizeof path, "/api/tournaments/%s?key=%s", id, pkey);
    assert_int_equal(req("GET", path, NULL, &j), 200);
    assert_string_equal(str(json_object_get(j, "you"), "name"), "p1");
    assert_string_equal(str(json_object_get(j, "you"), "entrant"), "People");
    json_decref(j);
    int finished = 0;
    for (int step = 0; step < 600 && !finished; step++) {
        int resigned = 0;
        snprintf(path, sizeof path, "/api/tournaments/%s?key=%s", id, key);
        assert_int_equal(req("GET", path, NULL, &j), 200);
        finished = json_is_true(json_object_get(j, "finished"));
        assert_int_equal(json_integer_value(json_object_get(j, "boards")), 2);
        size_t r, k, b;
        const json_t *rd, *p, *bd;
        json_array_foreach(json_object_get(j, "pairings"), r, rd)
        {
            json_array_foreach(json_object_get(rd, "pairings"), k, p)
            {
                json_array_foreach(json_object_get(p, "boards"), b, bd)
                {
                    if (strcmp(str(bd, "result"), "*") != 0 ||
                        (!*str(bd, "black_link") && !*str(bd, "white_link"))) {
                        continue; /* over, or the engines' game being played */
                    }
                    const char *l =
                        *str(bd, "black_link") ? str(bd, "black_link") : str(bd, "white_link");
                    json_t *k2;
                    snprintf(path, sizeof path, "/api/games/%s/resign", str(bd, "game"));
                    snprintf(body, sizeof body, "{\"key\": \"%s\"}", link_key_of(l));
                    assert_int_equal(req("POST", path, body, &k2), 200);
                    json_decref(k2);
                    resigned++;
                }
            }
        }
        json_decref(j);
        if (!resigned && !finished) {
            usleep(100 * 1000);
        }
    }
    assert_true(finished);
    snprintf(path, sizeof path, "/api/tournaments/%s?key=%s", id, key);
    assert_int_equal(req("GET", path, NULL, &j), 200);
    /* Eng won every board: 4-0 against each team */
    const json_t *ct = json_object_get(j, "crosstable");
    const json_t *eng = json_object_get(json_array_get(ct, 0), "cells");
    assert_string_equal(json_string_value(json_array_get(eng, 1)), "4");
    assert_string_equal(json_string_value(json_array_get(eng, 2)), "4");
    const json_t *ppl = json_object_get(json_array_get(ct, 1), "cells");
    assert_string_equal(json_string_value(json_array_get(ppl, 0)), "0");
    assert_string_equal(str(json_array_get(json_object_get(j, "standings"), 0), "name"), "Eng");
    assert_non_null(json_object_get(
        json_object_get(json_array_get(json_object_get(j, "standings"), 0), "tiebreaks"),
        "board-points"));
    json_decref(j);
}

/* Sections (paired apart: no game between them) and categories (ranked among
 * themselves) of one event: each section's standings and crosstable hold its members
 * only, the category's its bearers, and each game's PDN names its section. Refusals. */
static void test_tournament_sections(void **st)
{
    (void)st;
    json_t *j;
    assert_error(req("POST", "/api/tournaments",
                     "{\"system\": \"roundrobin\", \"players\": [{\"name\": \"a\", \"section\": 3},"
                     " {\"name\": \"b\"}]}",
                     &j),
                 &j, 400, "section");
    assert_int_equal(
        req("POST", "/api/tournaments",
            "{\"name\": \"Open\", \"system\": \"roundrobin\", \"players\": ["
            "{\"name\": \"A\", \"engine_level\": 2},"
            "{\"name\": \"W1\", \"engine_level\": 2, \"section\": \"women\", \"categories\": "
            "\"junior , u16\"},"
            "{\"name\": \"B\", \"engine_level\": 1, \"categories\": \"junior\"},"
            "{\"name\": \"W2\", \"engine_level\": 1, \"section\": \"women\"}]}",
            &j),
        201);
    char id[32], key[64];
    snprintf(id, sizeof id, "%s", str(j, "id"));
    snprintf(key, sizeof key, "%s", str(j, "key"));
    json_decref(j);
    j = NULL;
    j = tournament_finished(id, key);
    /* two sections of two: one round, one game each, none between them */
    assert_int_equal(json_integer_value(json_object_get(j, "rounds")), 1);
    const json_t *prs =
        json_object_get(json_array_get(json_object_get(j, "pairings"), 0), "pairings");
    assert_int_equal(json_array_size(prs), 2);
    for (size_t k = 0; k < 2; k++) {
        const char *w = str(json_array_get(prs, k), "white"),
                   *b = str(json_array_get(prs, k), "black");
        assert_int_equal(w[0] == 'W', b[0] == 'W');
    }
    const json_t *secs = json_object_get(j, "sections");
    assert_int_equal(json_array_size(secs), 2);
    assert_string_equal(str(json_array_get(secs, 0), "name"), "");
    assert_string_equal(str(json_array_get(secs, 1), "name"), "women");
    for (size_t k = 0; k < 2; k++) {
        const json_t *sec = json_array_get(secs, k);
        const json_t *ct = json_object_get(sec, "crosstable");
        const json_t *sd = json_object_get(sec, "standings");
        assert_int_equal(json_array_size(ct), 2);
        assert_int_equal(json_array_size(sd), 2);
        int sum = 0;
        for (size_t r = 0; r < 2; r++) {
            const json_t *row = json_array_get(ct, r);
            assert_int_equal(str(row, "name")[0] == 'W', k == 1);
            assert_int_equal(json_array_size(json_object_get(row, "cells")), 2);
            assert_string_equal(json_string_value(json_array_get(json_object_get(row, "cells"), r)),
                                "x");
            const char *c = json_string_value(json_array_get(json_object_get(row, "cells"), 1 - r));
            assert_int_equal(atoi(c), json_integer_value(json_object_get(row, "points")));
            sum += atoi(c);
            assert_int_equal(str(json_array_get(sd, r), "name")[0] == 'W', k == 1);
        }
        assert_int_equal(sum, 2); /* one game: 2 points shared */
    }
    /* the categories: junior (W1 and B, across the sections), u16 (W1) */
    const json_t *cats = json_object_get(j, "categories");
    assert_int_equal(json_array_size(cats), 2);
    assert_string_equal(str(json_array_get(cats, 0), "name"), "junior");
    assert_int_equal(json_array_size(json_object_get(json_array_get(cats, 0), "standings")), 2);
    assert_string_equal(str(json_array_get(cats, 1), "name"), "u16");
    const json_t *u16 = json_object_get(json_array_get(cats, 1), "standings");
    assert_int_equal(json_array_size(u16), 1);
    assert_string_equal(str(json_array_get(u16, 0), "name"), "W1");
    assert_int_equal(json_integer_value(json_object_get(json_array_get(u16, 0), "rank")), 1);
    json_decref(j);
    /* the PDN: two games, the women's named by its section tag */
    char *text = tournament_pdn(id, key);
    int games = 0, women = 0;
    for (const char *c = text; (c = strstr(c, "[Event \"Open\"]")); c++) {
        games++;
    }
    for (const char *c = text; (c = strstr(c, "[Section \"women\"]")); c++) {
        women++;
    }
    assert_int_equal(games, 2);
    assert_int_equal(women, 1);
    /* read back: two games, the section a tag of the women's */
    dm_pdn_reader *rd = NULL;
    assert_int_equal(dm_pdn_reader_new(&rd, text, strlen(text), "tournament.pdn"), DM_OK);
    dm_pdn_game *pg = NULL;
    dm_error err;
    int read = 0, tagged = 0;
    while (dm_pdn_reader_next(&pg, rd, &err) == DM_OK && pg) {
        read++;
        const char *sec = dm_pdn_game_tag(pg, "Section");
        tagged += sec && !strcmp(sec, "women");
        dm_pdn_game_free(pg);
    }
    assert_int_equal(read, 2);
    assert_int_equal(tagged, 1);
    dm_pdn_reader_free(rd);
    free(text);
}

/* A tournament with the engine: a person against the engine plays an engine game; the
 * engine against the engine is played by the server's tournament thread, its record
 * kept and its result counted (the same pairing giving the same game). */
static void test_tournament_engine(void **st)
{
    (void)st;
    json_t *j;
    assert_int_equal(req("POST", "/api/tournaments",
                         "{\"system\": \"roundrobin\", \"players\": [{\"name\": \"Ann\"}, "
                         "{\"name\": \"E3\", \"engine_level\": 3}, {\"name\": \"E1\", "
                         "\"engine_level\": 1}]}",
                         &j),
                     201);
    char id[32], pkey[64], path[200];
    snprintf(id, sizeof id, "%s", str(j, "id"));
    snprintf(pkey, sizeof pkey, "%s",
             link_key_of(str(json_array_get(json_object_get(j, "players"), 0), "link")));
    assert_null(json_object_get(json_array_get(json_object_get(j, "players"), 1), "link"));
    json_decref(j);
    /* three entrants: a bye each round; Ann resigns whatever game she has; the engines'
     * game is played by the server's own thread meanwhile (seconds) */
    int finished = 0;
    for (int tries = 0; tries < 600 && !finished; tries++) {
        snprintf(path, sizeof path, "/api/tournaments/%s?key=%s", id, pkey);
        assert_int_equal(req("GET", path, NULL, &j), 200);
        finished = json_is_true(json_object_get(j, "finished"));
        const char *g = json_string_value(json_object_get(json_object_get(j, "you"), "game"));
        if (g) {
            char gid[40], body[200];
            const char *rest = strstr(g, "/game/") + 6;
            snprintf(gid, sizeof gid, "%.*s", (int)(strchr(rest, '/') - rest), rest);
            snprintf(path, sizeof path, "/api/games/%s/resign", gid);
            snprintf(body, sizeof body, "{\"key\": \"%s\"}", link_key_of(g));
            json_t *k;
            assert_int_equal(req("POST", path, body, &k), 200);
            json_decref(k);
        } else if (!finished) {
            usleep(100 * 1000);
        }
        json_decref(j);
    }
    snprintf(path, sizeof path, "/api/tournaments/%s?key=%s", id, pkey);
    assert_int_equal(req("GET", path, NULL, &j), 200);
    assert_true(json_is_true(json_object_get(j, "finished")));
    /* the engines' pairing was played: its record, finished with the pairing's result */
    const json_t *ee = NULL;
    for (size_t r = 0; r < 3 && !ee; r++) {
        const json_t *prs =
            json_object_get(json_array_get(json_object_get(j, "pairings"), r), "pairings");
        for (size_t k = 0; k < json_array_size(prs); k++) {
            const json_t *p = json_array_get(prs, k);
            if (str(p, "white")[0] == 'E' && str(p, "black")[0] == 'E') {
                ee = p;
            }
        }
    }
    assert_non_null(ee);
    const char *link = str(ee, "link");
    assert_non_null(strstr(link, "/#/game/"));
    char gid[40], eres[16];
    const char *rest = strstr(link, "/game/") + 6;
    snprintf(gid, sizeof gid, "%.*s", (int)(strchr(rest, '/') - rest), rest);
    snprintf(eres, sizeof eres, "%s", str(ee, "result"));
    int e3_white = !strcmp(str(ee, "white"), "E3");
    snprintf(path, sizeof path, "/api/games/%s?key=%s", gid, link_key_of(link));
    json_t *gs;
    assert_int_equal(req("GET", path, NULL, &gs), 200);
    assert_string_equal(str(gs, "result"), eres); /* a played game, ended by the rules */
    assert_true(json_integer_value(json_object_get(gs, "ply")) > 10);
    json_decref(gs);
    assert_true(!strcmp(eres, "2-0") || !strcmp(eres, "1-1") || !strcmp(eres, "0-2"));
    int e3_pts = e3_white ? eres[0] - '0' : eres[2] - '0';
    /* each had a bye (2); both engines beat Ann, who resigned */
    const json_t *sd = json_object_get(j, "standings");
    for (size_t k = 0; k < 3; k++) {
        const json_t *line = json_array_get(sd, k);
        int pts = (int)json_integer_value(json_object_get(line, "points"));
        if (!strcmp(str(line, "name"), "Ann")) {
            assert_int_equal(pts, 2);
        } else if (!strcmp(str(line, "name"), "E3")) {
            assert_int_equal(pts, 4 + e3_pts);
        } else {
            assert_int_equal(pts, 4 + 2 - e3_pts);
        }
    }
    json_decref(j);
    /* the same pairing gives the same game: a second event, the same result */
    assert_int_equal(req("POST", "/api/tournaments",
                         "{\"system\": \"roundrobin\", \"players\": [{\"name\": \"E3\", "
                         "\"engine_level\": 3}, {\"name\": \"E1\", \"engine_level\": 1}]}",
                         &j),
                     201);
    snprintf(id, sizeof id, "%s", str(j, "id"));
    char okey[64];
    snprintf(okey, sizeof okey, "%s", str(j, "key"));
    json_decref(j);
    j = tournament_finished(id, okey);
    const json_t *p1 = json_array_get(
        json_object_get(json_array_get(json_object_get(j, "pairings"), 0), "pairings"), 0);
    if ((strcmp(str(p1, "white"), "E3") == 0) == e3_white) {
        assert_string_equal(str(p1, "result"), eres);
    }
    json_decref(j);
}

/* Webhooks (srv_webhook.c): off unless the server allows them; a player's http:// URL
 * is called after the opponent's move with the notice (game, ply, move, to_move), never
 * with a key; bad URLs, a spectator's key refused. */
static int listener(int *port)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    assert_int_equal(bind(fd, (struct sockaddr *)&a, sizeof a), 0);
    assert_int_equal(listen(fd, 4), 0);
    assert_int_equal(getsockname(fd, (struct sockaddr *)&a, &len), 0);
    *port = ntohs(a.sin_port);
    return fd;
}

/* one request received on fd within 5 s, into buf; answers 200 */
static void receive(int fd, char *buf, size_t cap)
{
    struct pollfd p = {fd, POLLIN, 0};
    assert_int_equal(poll(&p, 1, 5000), 1);
    int c = accept(fd, NULL, NULL);
    assert_true(c >= 0);
    size_t n = 0;
    for (int tries = 0; tries < 50 && n + 1 < cap; tries++) {
        struct pollfd q = {c, POLLIN, 0};
        if (poll(&q, 1, 100) != 1) {
            if (strstr(buf, "}")) {
                break;
            }
            continue;
        }
        ssize_t k = read(c, buf + n, cap - 1 - n);
        if (k <= 0) {
            break;
        }
        n += (size_t)k;
        buf[n] = 0;
        if (strstr(buf, "\r\n\r\n") && strchr(strstr(buf, "\r\n\r\n"), '}')) {
            break;
        }
    }
    const char ok[] = "HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";
    assert_true(write(c, ok, sizeof ok - 1) > 0);
    close(c);
}

static void test_webhook(void **st)
{
    (void)st;
    json_t *j;
    assert_int_equal(
        req("POST", "/api/games", "{\"opponent\": \"human\", \"side\": \"white\"}", &j), 201);
    char id[32], wkey[64], path[200], body[400];
    snprintf(id, sizeof id, "%s", str(j, "id"));
    snprintf(wkey, sizeof wkey, "%s", str(j, "key"));
    json_decref(j);
    snprintf(path, sizeof path, "/api/games/%s/webhook", id);
    snprintf(body, sizeof body, "{\"key\": \"%s\", \"url\": \"http://127.0.0.1:9/x\"}", wkey);
    assert_error(req("POST", path, body, &j), &j, 404, "--webhooks");
    /* a server that allows them */
    stop();
    srv_options o = SRV_OPTIONS_INIT;
    o.db_path = dbpath;
    o.webhooks = 1;
    server = test_server_start(&o);
    assert_int_equal(
        req("POST", "/api/games", "{\"opponent\": \"human\", \"side\": \"white\"}", &j), 201);
    snprintf(id, sizeof id, "%s", str(j, "id"));
    snprintf(wkey, sizeof wkey, "%s", str(j, "key"));
    const char *bl = str(json_object_get(j, "links"), "black");
    char bkey[64];
    snprintf(bkey, sizeof bkey, "%s", strrchr(bl, '/') + 1);
    const char *sp = str(json_object_get(j, "links"), "spectator");
    char skey[64];
    snprintf(skey, sizeof skey, "%s", strrchr(sp, '/') + 1);
    json_decref(j);
    int port;
    int fd = listener(&port);
    snprintf(path, sizeof path, "/api/games/%s/webhook", id);
    snprintf(body, sizeof body, "{\"key\": \"%s\", \"url\": \"https://example.org/x\"}", bkey);
    assert_error(req("POST", path, body, &j), &j, 400, "http://");
    snprintf(body, sizeof body, "{\"key\": \"%s\", \"url\": \"http://a b/\"}", bkey);
    assert_error(req("POST", path, body, &j), &j, 400, "http://");
    snprintf(body, sizeof body, "{\"key\": \"%s\", \"url\": \"http://127.0.0.1:%d/hook\"}", skey,
             port);
    assert_error(req("POST", path, body, &j), &j, 403, "player");
    snprintf(body, sizeof body, "{\"key\": \"%s\", \"url\": \"http://127.0.0.1:%d/hook\"}", bkey,
             port);
    assert_int_equal(req("POST", path, body, &j), 200);
    assert_string_equal(str(j, "side"), "black");
    json_decref(j);
    /* White moves: Black's webhook is called */
    snprintf(path, sizeof path, "/api/games/%s/move", id);
    snprintf(body, sizeof body, "{\"key\": \"%s\", \"move\": \"32-28\"}", wkey);
    assert_int_equal(req("POST", path, body, &j), 200);
    json_decref(j);
    char got[2048] = "";
    receive(fd, got, sizeof got);
    assert_non_null(strstr(got, "POST /hook HTTP/1.1"));
    assert_non_null(strstr(got, "\"move\":\"32-28\""));
    assert_non_null(strstr(got, "\"to_move\":\"black\""));
    assert_non_null(strstr(got, "\"ply\":1"));
    assert_null(strstr(got, bkey)); /* never a key */
    assert_null(strstr(got, wkey));
    close(fd);
    stop();
    start(); /* the usual server for the tests after this one */
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

static void count_game(void *payload, const srv_game_row *row, const srv_move_row *moves, int n)
{
    int *seen = payload;
    assert_string_equal(row->id, "g1");
    seen[0]++;
    seen[1] = n;
    assert_string_equal(moves[0].hub, "32-28");
}

/* The store's interface (SQLite): one game read by id, and an event at an index taken
 * refused as a conflict (SRV_DB_CONFLICT, what a second server gets in PostgreSQL),
 * nothing written. */
static void test_store_conflict(void **st)
{
    (void)st;
    char path[400], err[256];
    snprintf(path, sizeof path, "%s/store.sqlite", dir);
    srv_db *db = srv_db_open(path, 0, err, sizeof err);
    assert_non_null(db);
    assert_int_equal(srv_db_shared(db), 0);
    assert_int_equal(srv_db_listen(db, NULL, NULL, err, sizeof err), 0); /* nothing to hear */
    srv_game_row r;
    memset(&r, 0, sizeof r);
    snprintf(r.id, sizeof r.id, "g1");
    snprintf(r.keys[0], sizeof r.keys[0], "w");
    snprintf(r.keys[1], sizeof r.keys[1], "b");
    snprintf(r.keys[2], sizeof r.keys[2], "s");
    r.mode = SRV_MODE_HUMAN;
    r.engine_side = -1;
    r.level = 1;
    snprintf(r.variant, sizeof r.variant, "international");
    snprintf(r.time_control, sizeof r.time_control, "-");
    snprintf(r.result, sizeof r.result, "*");
    r.draw_offer = r.takeback_offer = -1;
    assert_int_equal(srv_db_insert_game(db, &r, NULL, 0, err, sizeof err), 0);
    srv_move_row m = {"32-28", 10}, m2 = {"33-28", 20};
    assert_int_equal(srv_db_add_move(db, &r, 0, &m, 1, -1, -1, err, sizeof err), 0);
    assert_int_equal(srv_db_add_move(db, &r, 0, &m2, 1, -1, -1, err, sizeof err), SRV_DB_CONFLICT);
    int seen[2] = {0, 0};
    assert_int_equal(srv_db_load_game(db, "g1", count_game, seen, err, sizeof err), 1);
    assert_int_equal(seen[0], 1);
    assert_int_equal(seen[1], 1); /* the first move only */
    assert_int_equal(srv_db_load_game(db, "nope", count_game, seen, err, sizeof err), 0);
    assert_int_equal(seen[0], 1);
    srv_db_close(db);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_store_conflict),
        cmocka_unit_test(test_health),
        cmocka_unit_test(test_bad_requests),
        cmocka_unit_test(test_persistence),
        cmocka_unit_test(test_engine_replies),
        cmocka_unit_test(test_engine_white),
        cmocka_unit_test(test_flag_fall),
        cmocka_unit_test(test_correspondence),
        cmocka_unit_test(test_conditional),
        cmocka_unit_test(test_upload),
        cmocka_unit_test(test_takeback),
        cmocka_unit_test(test_touch_move),
        cmocka_unit_test(test_arbiter),
        cmocka_unit_test(test_arbiter_engine),
        cmocka_unit_test(test_sealed_move),
        cmocka_unit_test(test_handicap),
        cmocka_unit_test(test_position),
        cmocka_unit_test(test_international_protocol),
        cmocka_unit_test(test_jump_position),
        cmocka_unit_test(test_library),
        cmocka_unit_test(test_simul),
        cmocka_unit_test(test_webhook),
        cmocka_unit_test(test_tournament),
        cmocka_unit_test(test_tournament_engine),
        cmocka_unit_test(test_tournament_swiss),
        cmocka_unit_test(test_tournament_teams),
        cmocka_unit_test(test_tournament_sections),
        cmocka_unit_test(test_not_utf8),
        cmocka_unit_test(test_variant_russian),
        cmocka_unit_test(test_variant_illegal),
        cmocka_unit_test(test_variant_english_canadian),
        cmocka_unit_test(test_variant_every),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
