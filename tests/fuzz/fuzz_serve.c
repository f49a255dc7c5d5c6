/* SPDX-License-Identifier: MIT
 * tests/fuzz/fuzz_serve.c: the web server's requests (apps/serve) without sockets.
 * Each input gets a fresh server (srv_open, no threads) on a fresh SQLite file in a
 * temporary folder, with every feature on: a puzzle file, the master-games library
 * (a PDN file of four short games written here at start: LIB_GAMES) and webhooks
 * (every URL the harness gives is 127.0.0.1 on a port bound and not listening: the
 * calls are refused at once, no network; the input ends when they have ended), and
 * four games made first: 0 human against human, 1 against the engine (level 1),
 * 2 human with a clock (600+5), 3 a record uploaded for review.
 * The input is read as lines, one request each (at most MAX_REQUESTS):
 *   OP SLOT KEY BODY...
 *   OP    c create (POST games), u upload (POST pdn), s state, p pdn, m move,
 *         q conditional moves,
 *         r resign, d draw, t takeback, a annotate, f position (BODY: the FEN),
 *         h health, w a message on the game's WebSocket (BODY: the message),
 *         k an account request: KEY u sign up, l sign in, o sign out, g GET account,
 *           c claim the game's side (BODY: the JSON; claim's key is the game's white
 *           key); the session's cookie and CSRF token, once given, go with every
 *           request after it, as a browser sends them (x with KEY 'F' drops the CSRF
 *           token for that one request);
 *         x any request: KEY is the method (G GET, P POST, D DELETE, else PUT),
 *           BODY is "PATH[?QUERY] BODY" (PATH after /api/; webhook paths left out);
 *         y a game's action: BODY is "ACTION JSON", POST games/ID/ACTION (arbiter,
 *           seal, touch, adjust ...; webhook and annotate left out: W, a);
 *         W the game's webhook: BODY "" or "-" removes it, "http://..." sets the
 *           closed local port's URL, anything else is sent as the URL (refused);
 *         l a library search: BODY is the query (player=..&year=..&fen=..); each game
 *           of the answer (the first two) is opened (GET library/N) and made a
 *           review game (POST library/N/review), whose PDN must read back;
 *         S a simul (POST simuls, BODY the JSON): its id and host key are kept;
 *         v the last simul (GET simuls/ID): KEY s its host key, n none, else wrong;
 *         j the position judge: BODY "FEN|MOVE|VARIANT" (each optional), GET
 *           position?fen=&move=&variant=;
 *   SLOT  the game: '0' + index in creation order (one past the last: an unknown id);
 *   KEY   w, b, s, a: White's, Black's, the spectator's, the arbiter's key in ?key=;
 *         n: none; anything else: a wrong key.
 * After each request the engine's pending moves are played (depth 2). Properties:
 * - every reply has an HTTP status (2xx or 4xx: a 5xx here is a bug: the database
 *   is local and nothing is busy) and a JSON object for body, which serialises and
 *   reads back; a refusal has an "error" message; a WebSocket answer is an ack, an
 *   error or a state;
 * - a refused request (4xx) changes no game (its state, offers, result and stored
 *   events) and adds none; an accepted move adds one ply (two when it
 *   answers conditional moves: their reply);
 * - the PDN of a game (200) reads back as one game with the same moves;
 * - every game a library search finds opens (200) and becomes a review game whose
 *   PDN reads back with the library game's moves;
 * - a simul's score is the sum of its boards' results, read from the games
 *   themselves (2 a win, 1 a draw; the host's side from the board's key);
 * - the position judge's move (200 with "played") is one the rules core generates
 *   (dm_movegen10_legal, dm_movegen_legal for a variant): the FEN after it is the
 *   FEN after one of the legal moves;
 * - at the end the server is stopped and opened again on its file: every game is
 *   restored as it was (nothing answered is lost, nothing refused is stored), and
 *   the last simul shows the same boards.
 * DM_FUZZ_VERBOSE=1 prints each request and its status (to write seeds). */
#define _DEFAULT_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include <damier/game.h>
#include <damier/pdn.h>
#include <damier/variant.h>

#include "fuzz.h"
#include "serve.h"

#define MAX_REQUESTS 48
#define MAX_SNAP 24 /* games compared around each request */

static int verbose; /* DM_FUZZ_VERBOSE set: each request and its status on stderr */
static char dir[512];
static char dbpath[600];
static char pzpath[600];  /* the puzzle trainer's file: one puzzle */
static char libpath[600]; /* the master-games library: LIB_GAMES */
static int hook_fd = -1;  /* a socket bound to 127.0.0.1 that never listens */
static char hook_url[64]; /* its URL: a webhook call there is refused at once */

/* The library: four short legal games (written here, not copied from anywhere). */
#define LIB_COUNT 4
static const char LIB_GAMES[] =
    "[Event \"Fuzz Open\"]\n[Date \"1996.05.01\"]\n[White \"Ann Sijbrands\"]\n"
    "[Black \"Bob Baljakin\"]\n[Result \"2-0\"]\n\n1. 32-28 19-23 2. 28x19 14x23 3. 37-32 "
    "10-14 2-0\n\n"
    "[Event \"Fuzz Cup\"]\n[Date \"2003.??.??\"]\n[White \"Cor\"]\n[Black \"Ann\"]\n"
    "[Result \"1-1\"]\n\n1. 33-28 18-23 2. 39-33 12-18 1-1\n\n"
    "[Event \"Fuzz Open\"]\n[Date \"1990.01.02\"]\n[White \"Dan\"]\n[Black \"Cor\"]\n"
    "[Result \"0-2\"]\n\n1. 32-28 18-23 2. 37-32 12-18 0-2\n\n"
    "[Event \"Club\"]\n[Date \"2010.03.04\"]\n[White \"Eve\"]\n[Black \"Dan\"]\n"
    "[Result \"2-0\"]\n\n1. 31-27 17-21 2. 36-31 21-26 2-0\n";

static void remove_db(void)
{
    const char *ext[] = {"", "-wal", "-shm", "-journal"};
    for (int i = 0; i < 4; i++) {
        char p[640];
        snprintf(p, sizeof p, "%s%s", dbpath, ext[i]);
        unlink(p);
    }
}

static void remove_dir(void)
{
    remove_db();
    unlink(pzpath);
    unlink(libpath);
    rmdir(dir);
    if (hook_fd >= 0) {
        close(hook_fd);
    }
}

static void setup_dir(void)
{
    if (dir[0]) {
        return;
    }
    /* in memory where Linux offers it (tmpfs): SQLite's syncs cost nothing there, and
     * each input makes a database of its own */
    struct stat st;
    const char *t = getenv("TMPDIR");
    if (!t || !*t) {
        t = stat("/dev/shm", &st) == 0 && S_ISDIR(st.st_mode) && access("/dev/shm", W_OK) == 0
                ? "/dev/shm"
                : "/tmp";
    }
    snprintf(dir, sizeof dir, "%s/damier-fuzz-serve-XXXXXX", t);
    if (!mkdtemp(dir)) {
        fuzz_fail("cannot make a temporary folder %s", dir);
    }
    snprintf(dbpath, sizeof dbpath, "%s/web.sqlite", dir);
    snprintf(pzpath, sizeof pzpath, "%s/puzzles.pdn", dir);
    FILE *f = fopen(pzpath, "w");
    if (!f) {
        fuzz_fail("cannot write %s", pzpath);
    }
    fputs("[Event \"puzzle\"]\n[Rating \"1100\"]\n[FEN \"W:W32,38,42,45:B11,16,22,24\"]\n\n"
          "1. 32-28 22x33 2. 38x20 *\n",
          f);
    fclose(f);
    snprintf(libpath, sizeof libpath, "%s/library.pdn", dir);
    f = fopen(libpath, "w");
    if (!f || fputs(LIB_GAMES, f) < 0 || fclose(f) != 0) {
        fuzz_fail("cannot write %s", libpath);
    }
    /* the webhooks' port: bound, so no one else takes it, and never listening */
    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t alen = sizeof a;
    hook_fd = socket(AF_INET, SOCK_STREAM, 0);
    if (hook_fd < 0 || bind(hook_fd, (struct sockaddr *)&a, sizeof a) != 0 ||
        getsockname(hook_fd, (struct sockaddr *)&a, &alen) != 0) {
        fuzz_fail("cannot bind a local port for the webhooks");
    }
    snprintf(hook_url, sizeof hook_url, "http://127.0.0.1:%d/hook", ntohs(a.sin_port));
    atexit(remove_dir);
    verbose = getenv("DM_FUZZ_VERBOSE") != NULL;
}

static srv *open_server(void)
{
    srv_options o = SRV_OPTIONS_INIT;
    o.db_path = dbpath;
    o.static_dir = NULL;
    o.quiet = 1;
    o.no_threads = 1;
    o.max_analyses = 1;
    o.fast_hash = 1;
    o.puzzles = pzpath;
    o.library = libpath;
    o.webhooks = 1;
    char err[512];
    srv *s = srv_open(&o, err, sizeof err);
    if (!s) {
        fuzz_fail("srv_open: %s", err);
    }
    return s;
}

/* ---- requests ---------------------------------------------------------------------- */

typedef struct body_src {
    const char *p;
    size_t n;
} body_src;

static char *read_body(void *ctx, size_t limit, size_t *len, int *status)
{
    const body_src *b = ctx;
    if (b->n > limit) {
        *status = 413;
        return NULL;
    }
    char *c = malloc(b->n + 1);
    if (!c) {
        *status = 503;
        return NULL;
    }
    memcpy(c, b->p, b->n);
    c[b->n] = 0;
    *len = b->n;
    return c;
}

/* Check a reply's form; returns its status. what names the request. */
static int check_reply(srv_reply *r, const char *what)
{
    if (r->status < 200 || r->status > 599) {
        fuzz_fail("%s: HTTP status %d", what, r->status);
    }
    if (!json_is_object(r->body)) {
        fuzz_fail("%s: status %d without a JSON object", what, r->status);
    }
    char *txt = json_dumps(r->body, JSON_COMPACT);
    if (!txt) {
        fuzz_fail("%s: the reply does not serialise", what);
    }
    json_error_t je;
    json_t *back = json_loads(txt, 0, &je);
    if (!json_is_object(back)) {
        fuzz_fail("%s: the reply %.200s does not read back: %s", what, txt, je.text);
    }
    json_decref(back);
    if (r->status >= 500) {
        fuzz_fail("%s: status %d: %.300s", what, r->status, txt);
    }
    const json_t *e = json_object_get(r->body, "error");
    if (r->status >= 400 && (!json_is_string(e) || !json_string_value(e)[0])) {
        fuzz_fail("%s: refused (%d) without a message: %.300s", what, r->status, txt);
    }
    if (r->status < 300 && e) {
        fuzz_fail("%s: accepted (%d) with an error: %.300s", what, r->status, txt);
    }
    free(txt);
    return r->status;
}

static int check_ws_answer(json_t *a, const char *what)
{
    if (!json_is_object(a)) {
        fuzz_fail("%s: no JSON object", what);
    }
    char *txt = json_dumps(a, JSON_COMPACT);
    json_t *back = txt ? json_loads(txt, 0, NULL) : NULL;
    if (!json_is_object(back)) {
        fuzz_fail("%s: the answer does not read back", what);
    }
    json_decref(back);
    const json_t *t = json_object_get(a, "t");
    const char *type = json_is_string(t) ? json_string_value(t) : "";
    int status = (int)json_integer_value(json_object_get(a, "status"));
    if (!strcmp(type, "state")) {
        status = 200;
    } else if (!strcmp(type, "ack")) {
        if (status < 200 || status > 299) {
            fuzz_fail("%s: ack with status %d", what, status);
        }
    } else if (!strcmp(type, "error")) {
        const json_t *e = json_object_get(a, "error");
        if (status < 400 || status > 499 || !json_is_string(e) || !json_string_value(e)[0]) {
            fuzz_fail("%s: error answer %.300s", what, txt);
        }
    } else {
        fuzz_fail("%s: answer of type \"%s\": %.300s", what, type, txt);
    }
    free(txt);
    return status;
}

/* ---- game snapshots ---------------------------------------------------------------- */

/* What a game is, as a string (malloc'd): its state without the clock's readings and
 * the version, with the stored row's offers and result, its stored event count and its
 * conditional moves. */
static char *snapshot(srv_game *g)
{
    pthread_mutex_lock(&g->mu);
    json_t *st = srv_game_state(g, SRV_SIDE_SPECTATOR);
    json_object_del(st, "server_time");
    json_object_del(st, "clock");
    json_object_del(st, "version");
    json_object_del(st, "engine");
    json_t *row =
        json_pack("{s:s,s:s,s:i,s:i,s:i,s:s,s:s,s:s,s:i}", "result", g->row.result, "reason",
                  g->row.reason, "draw_offer", g->row.draw_offer, "takeback_offer",
                  g->row.takeback_offer, "nevents", g->nevents, "tc", g->row.time_control, "fen",
                  g->row.start_fen, "cond", g->cond, "cond_side", g->cond[0] ? g->cond_side : -1);
    json_object_set_new(st, "row", row);
    pthread_mutex_unlock(&g->mu);
    char *txt = json_dumps(st, JSON_COMPACT | JSON_SORT_KEYS);
    json_decref(st);
    if (!txt) {
        fuzz_fail("a game's state does not serialise");
    }
    return txt;
}

/* A game's fingerprint (malloc'd), cheaper than its snapshot: every change bumps its
 * version, and the fields a flag fall changes are there. */
static char *fingerprint(srv_game *g)
{
    pthread_mutex_lock(&g->mu);
    char buf[200];
    snprintf(buf, sizeof buf,
             "{\"version\":%d,\"nevents\":%d,\"result\":\"%s\",\"reason\":\"%s\",%d,%d,%d}", g->gen,
             g->nevents, g->row.result, g->row.reason, g->row.draw_offer, g->row.takeback_offer,
             dm_game_ply(dm_session_game(g->session)));
    pthread_mutex_unlock(&g->mu);
    char *c = strdup(buf);
    if (!c) {
        fuzz_fail("out of memory");
    }
    return c;
}

typedef struct snaps {
    int n;
    char *s[MAX_SNAP];
} snaps;

/* Every game's snapshot (full) or fingerprint, but game full_slot's snapshot. */
static void take_with(snaps *sn, srv *s, int full, int full_slot)
{
    pthread_mutex_lock(&s->games_mu);
    int n = s->ngames < MAX_SNAP ? s->ngames : MAX_SNAP;
    pthread_mutex_unlock(&s->games_mu);
    sn->n = n;
    for (int i = 0; i < n; i++) {
        sn->s[i] = full || i == full_slot ? snapshot(s->all[i]) : fingerprint(s->all[i]);
    }
}

static void take(snaps *sn, srv *s)
{
    take_with(sn, s, 1, -1);
}

static void drop(snaps *sn)
{
    for (int i = 0; i < sn->n; i++) {
        free(sn->s[i]);
    }
    sn->n = 0;
}

/* A flag that fell meanwhile: the server declares it when a request looks at the
 * game, whatever the request; not a change made by the request. */
static int flag_fell(const char *before, const char *after)
{
    return strstr(before, "\"result\":\"*\"") && strstr(after, "\"reason\":\"time\"");
}

/* Every game of a is as in b (a refused request; a restart). */
static void same_games(const snaps *a, const snaps *b, const char *what)
{
    for (int i = 0; i < a->n && i < b->n; i++) {
        if (strcmp(a->s[i], b->s[i]) != 0 && !flag_fell(a->s[i], b->s[i])) {
            fuzz_fail("%s changed game %d:\nbefore %s\nafter  %s", what, i, a->s[i], b->s[i]);
        }
    }
}

static int ply_of(const char *snap)
{
    const char *p = strstr(snap, "\"ply\":");
    return p ? atoi(p + 6) : -1;
}

/* The PDN of game g reads back as one game with its moves. */
static void check_pdn(srv_game *g, const char *text, const char *what)
{
    dm_pdn_reader *rd = NULL;
    if (dm_pdn_reader_new(&rd, text, strlen(text), "fuzz") != DM_OK) {
        fuzz_fail("out of memory");
    }
    dm_pdn_game *rec = NULL;
    dm_error e;
    memset(&e, 0, sizeof e);
    if (dm_pdn_reader_next(&rec, rd, &e) != DM_OK || !rec) {
        fuzz_fail("%s: the PDN does not read back (%s):\n%s", what, e.message, text);
    }
    dm_game *gm = NULL;
    if (dm_pdn_to_game(&gm, rec, 0, &e) != DM_OK) {
        fuzz_fail("%s: the PDN's game is not legal (%s):\n%s", what, e.message, text);
    }
    pthread_mutex_lock(&g->mu);
    const dm_game *live = dm_session_game(g->session);
    int n = dm_game_ply(live);
    if (dm_game_ply(gm) != n ||
        dm_board_hash(dm_game_position_at(gm, 0)) != dm_board_hash(dm_game_position_at(live, 0))) {
        fuzz_fail("%s: the PDN holds %d plies, the game %d:\n%s", what, dm_game_ply(gm), n, text);
    }
    for (int i = 0; i < n; i++) {
        char ta[160], tb[160];
        dm_game_move_text(ta, sizeof ta, gm, i, DM_NOTATION_HUB);
        dm_game_move_text(tb, sizeof tb, live, i, DM_NOTATION_HUB);
        if (strcmp(ta, tb) != 0) {
            fuzz_fail("%s: ply %d reads back as %s, played %s", what, i + 1, ta, tb);
        }
    }
    pthread_mutex_unlock(&g->mu);
    dm_game_free(gm);
    dm_pdn_game_free(rec);
    if (dm_pdn_reader_next(&rec, rd, &e) == DM_OK && rec) {
        fuzz_fail("%s: the PDN of one game holds two:\n%s", what, text);
    }
    dm_pdn_reader_free(rd);
}

/* ---- the session ------------------------------------------------------------------- */

/* The cookie and CSRF token of the last sign-in, sent with every request after it, as
 * a browser does (NULL: none). */
static char *session_cookie, *session_csrf;
static char cookie_buf[SRV_COOKIE_CAP], csrf_buf[80];

static void remember_session(const char *set_cookie, const json_t *body)
{
    if (set_cookie[0]) {
        const char *semi = strchr(set_cookie, ';');
        size_t n = semi ? (size_t)(semi - set_cookie) : strlen(set_cookie);
        if (n >= sizeof cookie_buf) {
            fuzz_fail("a Set-Cookie header of %zu bytes", n);
        }
        memcpy(cookie_buf, set_cookie, n);
        cookie_buf[n] = 0;
        session_cookie = cookie_buf;
        if (!strstr(set_cookie, "HttpOnly") || !strstr(set_cookie, "SameSite=Strict")) {
            fuzz_fail("a session cookie without HttpOnly and SameSite: %s", set_cookie);
        }
    }
    const json_t *c = json_object_get(body, "csrf");
    if (json_is_string(c)) {
        snprintf(csrf_buf, sizeof csrf_buf, "%s", json_string_value(c));
        session_csrf = csrf_buf;
    }
}

/* ---- one request ------------------------------------------------------------------- */

/* Send a route request; returns the status (checked). keep (or NULL) gets the reply's
 * JSON body (the caller's to free; NULL for a PDN). */
static int route_keep(srv *s, const char *method, const char *path, const char *query,
                      const char *body, size_t len, const char *what, char **pdn, json_t **keep)
{
    if (keep) {
        *keep = NULL;
    }
    body_src b = {body ? body : "", body ? len : 0};
    char set_cookie[SRV_COOKIE_CAP] = "";
    srv_request q = {method,         path,         query,       read_body, &b,
                     session_cookie, session_csrf, "127.0.0.1", set_cookie};
    srv_reply r = {0, NULL};
    char *text = NULL;
    srv_route(s, &q, &r, &text);
    remember_session(set_cookie, r.body);
    if (text) {
        /* the PDN of a game: r carries no JSON to send */
        if (r.status != 200) {
            fuzz_fail("%s: PDN text with status %d", what, r.status);
        }
        json_decref(r.body);
        if (pdn) {
            *pdn = text;
        } else {
            free(text);
        }
        return 200;
    }
    int st = check_reply(&r, what);
    if (keep) {
        *keep = r.body;
    } else {
        json_decref(r.body);
    }
    return st;
}

static int route(srv *s, const char *method, const char *path, const char *query, const char *body,
                 size_t len, const char *what, char **pdn)
{
    return route_keep(s, method, path, query, body, len, what, pdn, NULL);
}

/* The game at index slot, or NULL (one past the last: an unknown id). */
static srv_game *game_at(srv *s, int slot)
{
    pthread_mutex_lock(&s->games_mu);
    srv_game *g = slot >= 0 && slot < s->ngames ? s->all[slot] : NULL;
    pthread_mutex_unlock(&s->games_mu);
    return g;
}

/* The game whose id is id, or NULL. */
static srv_game *game_by_id(srv *s, const char *id)
{
    srv_game *g = NULL;
    pthread_mutex_lock(&s->games_mu);
    for (int i = 0; id && i < s->ngames && !g; i++) {
        if (!strcmp(s->all[i]->row.id, id)) {
            g = s->all[i];
        }
    }
    pthread_mutex_unlock(&s->games_mu);
    return g;
}

/* n bytes of p, percent-encoded for a query (up to the first NUL), into out */
static void url_encode(char *out, size_t cap, const char *p, size_t n)
{
    size_t o = 0;
    for (size_t i = 0; i < n && p[i] && o + 4 < cap; i++) {
        unsigned char c = (unsigned char)p[i];
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) {
            out[o++] = (char)c;
        } else {
            o += (size_t)snprintf(out + o, cap - o, "%%%02X", c);
        }
    }
    out[o] = 0;
}

/* ---- the library ------------------------------------------------------------------- */

/* Library game n opens, and becomes a review game whose PDN reads back with its moves. */
static void check_library_game(srv *s, json_int_t n, const char *what)
{
    char path[64];
    snprintf(path, sizeof path, "library/%lld", (long long)n);
    json_t *row = NULL;
    if (route_keep(s, "GET", path, NULL, NULL, 0, what, NULL, &row) != 200) {
        fuzz_fail("%s: library game %lld found but not opened", what, (long long)n);
    }
    const char *text = json_string_value(json_object_get(row, "pdn"));
    dm_pdn_reader *rd = NULL;
    dm_pdn_game *rec = NULL;
    dm_game *lib = NULL;
    dm_error e;
    memset(&e, 0, sizeof e);
    if (!text || dm_pdn_reader_new(&rd, text, strlen(text), "library") != DM_OK ||
        dm_pdn_reader_next(&rec, rd, &e) != DM_OK || !rec ||
        dm_pdn_to_game(&lib, rec, 0, &e) != DM_OK) {
        fuzz_fail("%s: library game %lld's PDN is not a game: %s", what, (long long)n, e.message);
    }
    int plies = dm_game_ply(lib);
    dm_game_free(lib);
    dm_pdn_game_free(rec);
    dm_pdn_reader_free(rd);
    json_decref(row);
    snprintf(path, sizeof path, "library/%lld/review", (long long)n);
    json_t *rev = NULL;
    int st = route_keep(s, "POST", path, NULL, "{}", 2, what, NULL, &rev);
    const json_t *g0 = json_array_get(json_object_get(rev, "games"), 0);
    const char *id = json_string_value(json_object_get(g0, "id"));
    srv_game *g = game_by_id(s, id); /* a review game: its link is the spectator's */
    if ((st != 200 && st != 201) || !g) {
        fuzz_fail("%s: library game %lld not opened for review (%d)", what, (long long)n, st);
    }
    char q[128], *pdn = NULL;
    snprintf(path, sizeof path, "games/%s/pdn", id);
    snprintf(q, sizeof q, "key=%s", g->row.keys[SRV_SIDE_SPECTATOR]);
    if (route(s, "GET", path, q, NULL, 0, what, &pdn) != 200 || !pdn) {
        fuzz_fail("%s: the review of library game %lld has no PDN", what, (long long)n);
    }
    check_pdn(g, pdn, what);
    free(pdn);
    pthread_mutex_lock(&g->mu);
    int got = dm_game_ply(dm_session_game(g->session));
    pthread_mutex_unlock(&g->mu);
    if (got != plies) {
        fuzz_fail("%s: library game %lld has %d plies, its review %d", what, (long long)n, plies,
                  got);
    }
    json_decref(rev);
}

/* ---- simuls ------------------------------------------------------------------------ */

static char simul_id[32], simul_key[64]; /* the last simul made ("": none) */

/* A simul's overview: its score is the sum of its boards' results, as the games say. */
static void check_simul(srv *s, const json_t *body, const char *what)
{
    const json_t *boards = json_object_get(body, "boards");
    const json_t *score = json_object_get(body, "score");
    int host = 0, opp = 0, finished = 0;
    size_t i;
    const json_t *b;
    json_array_foreach(boards, i, b)
    {
        const char *id = json_string_value(json_object_get(b, "game"));
        const char *key = json_string_value(json_object_get(b, "key"));
        srv_game *g = game_by_id(s, id);
        if (!g || !key) {
            fuzz_fail("%s: simul board %zu without its game", what, i + 1);
        }
        pthread_mutex_lock(&g->mu);
        int side = !strcmp(key, g->row.keys[0]) ? 0 : !strcmp(key, g->row.keys[1]) ? 1 : -1;
        char res[8];
        snprintf(res, sizeof res, "%s", g->row.result);
        pthread_mutex_unlock(&g->mu);
        if (side < 0) {
            fuzz_fail("%s: simul board %zu's key is not a player's", what, i + 1);
        }
        if (strcmp(res, "*") != 0) {
            int hp = !strcmp(res, "1-1") ? 1 : (!strcmp(res, "2-0")) == (side == 0) ? 2 : 0;
            host += hp;
            opp += 2 - hp;
            finished++;
        }
    }
    if (json_integer_value(json_object_get(score, "host")) != host ||
        json_integer_value(json_object_get(score, "opponents")) != opp ||
        json_integer_value(json_object_get(score, "finished")) != finished ||
        json_integer_value(json_object_get(score, "boards")) !=
            (json_int_t)json_array_size(boards)) {
        char *t = json_dumps(score, JSON_COMPACT);
        fuzz_fail("%s: simul score %s, its boards give host %d, opponents %d, finished %d", what, t,
                  host, opp, finished);
    }
}

/* The last simul's boards (their games, in order) as a string (malloc'd), or NULL. */
static char *simul_boards(srv *s)
{
    if (!simul_id[0]) {
        return NULL;
    }
    char path[64], q[96];
    snprintf(path, sizeof path, "simuls/%s", simul_id);
    snprintf(q, sizeof q, "key=%s", simul_key);
    json_t *body = NULL;
    if (route_keep(s, "GET", path, q, NULL, 0, "the simul", NULL, &body) != 200) {
        fuzz_fail("the simul %s is not shown to its host", simul_id);
    }
    check_simul(s, body, "the simul");
    json_t *games = json_array();
    size_t i;
    const json_t *b;
    json_array_foreach(json_object_get(body, "boards"), i, b)
    {
        json_array_append(games, json_object_get(b, "game"));
    }
    char *t = json_dumps(games, JSON_COMPACT);
    json_decref(games);
    json_decref(body);
    return t;
}

/* ---- the position judge ------------------------------------------------------------ */

/* The judge answered 200 with "played" for move on fen (variant: "" or a name): the
 * FEN it gives is the FEN after one of the moves the rules core generates. */
static void check_judged(const char *fen, const char *variant, const json_t *body, const char *what)
{
    const char *after = json_string_value(json_object_get(body, "fen"));
    if (!after) {
        fuzz_fail("%s: a judged move without the FEN after it", what);
    }
    dm_error e;
    memset(&e, 0, sizeof e);
    char out[512];
    const dm_variant *v;
    dm_board b;
    if (dm_variant_from_name(&v, variant[0] ? variant : "international", &e) != DM_OK) {
        fuzz_fail("%s: a move accepted in an unknown variant", what);
    }
    if (!fen[0]) {
        dm_board_start(&b, v);
    } else if (dm_board_from_fen(&b, v, fen, &e) != DM_OK) {
        fuzz_fail("%s: a move accepted on a FEN the board refuses (%s)", what, e.message);
    }
    dm_movelist *list = malloc(sizeof *list);
    if (!list) {
        fuzz_fail("out of memory");
    }
    dm_movegen_legal(list, &b);
    for (int i = 0; i < list->count; i++) {
        dm_board c = b;
        dm_board_apply(&c, &list->moves[i]);
        dm_board_to_fen(out, sizeof out, &c, v->algebraic);
        if (!strcmp(out, after)) {
            free(list);
            return;
        }
    }
    free(list);
    fuzz_fail("%s: the judge played a move to %s that no legal move of %s reaches", what, after,
              fen[0] ? fen : "the start");
}

static void one_request(srv *s, const char *line, size_t len)
{
    if (len < 3) {
        return;
    }
    char op = line[0];
    int ngames = s->ngames;
    int slot = (((unsigned char)line[1] - '0') % (ngames + 1) + ngames + 1) % (ngames + 1);
    char kc = line[2];
    const char *body = line + 3;
    size_t blen = len - 3;
    srv_game *g = game_at(s, slot);
    char id[32], key[64];
    snprintf(id, sizeof id, "%s", g ? g->row.id : "0123456789abcdef");
    key[0] = 0;
    if (kc == 'w' || kc == 'b' || kc == 's' || kc == 'a') {
        if (g) {
            snprintf(key, sizeof key, "%s",
                     g->row.keys[kc == 'w'   ? 0
                                 : kc == 'b' ? 1
                                 : kc == 's' ? 2
                                             : 3]);
        }
    } else if (kc != 'n') {
        snprintf(key, sizeof key, "%032x", (unsigned)kc);
    }
    char query[128], path[160];
    snprintf(query, sizeof query, "key=%s", key);
    char what[200];
    snprintf(what, sizeof what, "request '%c' on game %d (key %c)", op, slot, kc);

    snaps before, after;
    take_with(&before, s, 0, slot);
    int st;
    char *pdn = NULL;
    switch (op) {
        case 'c':
            st = route(s, "POST", "games", query, body, blen, what, NULL);
            break;
        case 'u':
            st = route(s, "POST", "pdn", query, body, blen, what, NULL);
            break;
        case 's':
            snprintf(path, sizeof path, "games/%s", id);
            st = route(s, "GET", path, query, NULL, 0, what, NULL);
            break;
        case 'p':
            snprintf(path, sizeof path, "games/%s/pdn", id);
            st = route(s, "GET", path, query, NULL, 0, what, &pdn);
            if (pdn) {
                if (!g) {
                    fuzz_fail("%s: a PDN for an unknown game", what);
                }
                check_pdn(g, pdn, what);
                free(pdn);
            }
            break;
        case 'm':
        case 'r':
        case 'd':
        case 't':
        case 'q':
        case 'a': {
            const char *action = op == 'm'   ? "move"
                                 : op == 'r' ? "resign"
                                 : op == 'd' ? "draw"
                                 : op == 't' ? "takeback"
                                 : op == 'q' ? "conditional"
                                             : "annotate";
            if (op == 'a') {
                /* an annotation searches every move: only cheap ones (depth 1 or 2, or a
             * depth refused), on short games */
                json_t *j = json_loadb(body, blen, 0, NULL);
                const json_t *d = json_object_get(j, "depth");
                int cheap = d && !(json_is_integer(d) && json_integer_value(d) >= 3 &&
                                   json_integer_value(d) <= 12);
                json_decref(j);
                if (!cheap || (g && ply_of(before.n > slot ? before.s[slot] : "") > 40)) {
                    drop(&before);
                    return;
                }
            }
            snprintf(path, sizeof path, "games/%s/%s", id, action);
            st = route(s, "POST", path, query, body, blen, what, NULL);
            break;
        }
        case 'f': {
            char fen[400];
            size_t n = blen < sizeof fen - 1 ? blen : sizeof fen - 1;
            memcpy(fen, body, n);
            fen[n] = 0;
            char q2[420];
            snprintf(q2, sizeof q2, "fen=%s", fen);
            st = route(s, "GET", "position", q2, NULL, 0, what, NULL);
            break;
        }
        case 'h':
            st = route(s, "GET", "health", NULL, NULL, 0, what, NULL);
            break;
        case 'k': {
            const char *p = kc == 'u'   ? "account/signup"
                            : kc == 'l' ? "account/login"
                            : kc == 'o' ? "account/logout"
                            : kc == 'g' ? "account"
                                        : NULL;
            if (p) {
                st = route(s, kc == 'g' ? "GET" : "POST", p, NULL, body, blen, what, NULL);
            } else {
                snprintf(path, sizeof path, "games/%s/claim", id);
                char cb[200];
                snprintf(cb, sizeof cb, "{\"key\":\"%s\"}", g ? g->row.keys[0] : "");
                st = route(s, "POST", path, NULL, cb, strlen(cb), what, NULL);
            }
            break;
        }
        case 'w': {
            json_t *a = srv_ws_game_message(s, id, key, body, blen);
            st = check_ws_answer(a, what);
            json_decref(a);
            break;
        }
        case 'x': {
            const char *method = kc == 'G'   ? "GET"
                                 : kc == 'P' ? "POST"
                                 : kc == 'D' ? "DELETE"
                                             : "PUT";
            const char *sp = memchr(body, ' ', blen);
            size_t plen = sp ? (size_t)(sp - body) : blen;
            char p2[256];
            size_t n = plen < sizeof p2 - 1 ? plen : sizeof p2 - 1;
            memcpy(p2, body, n);
            p2[n] = 0;
            char *qm = strchr(p2, '?');
            if (qm) {
                *qm++ = 0;
            }
            const char *rb = sp ? sp + 1 : "";
            size_t rlen = sp ? blen - plen - 1 : 0;
            if (strstr(p2, "annotate") || strstr(p2, "webhook")) {
                drop(&before);
                return; /* see 'a' */
            }
            char *csrf = session_csrf;
            if (kc == 'F') {
                session_csrf = NULL; /* a POST without the CSRF token */
            }
            st = route(s, kc == 'F' ? "POST" : method, p2, qm, rb, rlen, what, &pdn);
            session_csrf = csrf;
            free(pdn);
            break;
        }
        case 'y': {
            const char *sp = memchr(body, ' ', blen);
            size_t alen = sp ? (size_t)(sp - body) : blen;
            char action[32];
            if (alen >= sizeof action || memchr(body, 0, alen)) {
                drop(&before);
                return;
            }
            memcpy(action, body, alen);
            action[alen] = 0;
            if (strstr(action, "annotate") || strstr(action, "webhook")) {
                drop(&before);
                return; /* see 'a' and 'W' */
            }
            snprintf(path, sizeof path, "games/%s/%s", id, action);
            const char *rb = sp ? sp + 1 : "";
            st = route(s, "POST", path, query, rb, sp ? blen - alen - 1 : 0, what, NULL);
            break;
        }
        case 'W': {
            char url[256];
            size_t n = blen < sizeof url - 1 ? blen : sizeof url - 1;
            memcpy(url, body, n);
            url[n] = 0;
            if (!strcmp(url, "-")) {
                url[0] = 0;
            } else if (!strncmp(url, "http://", 7)) {
                snprintf(url, sizeof url, "%s", hook_url); /* never another host */
            }
            json_t *j = json_pack("{s:s,s:s}", "key", key, "url", url);
            char *jb = j ? json_dumps(j, JSON_COMPACT) : NULL;
            json_decref(j);
            if (!jb) {
                drop(&before);
                return; /* not UTF-8: no JSON string */
            }
            snprintf(path, sizeof path, "games/%s/webhook", id);
            st = route(s, "POST", path, NULL, jb, strlen(jb), what, NULL);
            free(jb);
            break;
        }
        case 'l': {
            char q2[600];
            size_t n = blen < sizeof q2 - 1 ? blen : sizeof q2 - 1;
            memcpy(q2, body, n);
            q2[n] = 0;
            json_t *res = NULL;
            st = route_keep(s, "GET", "library", q2, NULL, 0, what, NULL, &res);
            if (st == 200) {
                const json_t *gs = json_object_get(res, "games");
                const json_t *tot = json_object_get(res, "total");
                if (!json_is_array(gs) || !json_is_integer(tot) ||
                    json_integer_value(tot) > LIB_COUNT ||
                    (json_int_t)json_array_size(gs) > json_integer_value(tot)) {
                    fuzz_fail("%s: a search answered %.300s", what, json_dumps(res, 0));
                }
                for (size_t i = 0; i < json_array_size(gs) && i < 2; i++) {
                    check_library_game(
                        s, json_integer_value(json_object_get(json_array_get(gs, i), "id")), what);
                }
            }
            json_decref(res);
            break;
        }
        case 'S': {
            json_t *res = NULL;
            st = route_keep(s, "POST", "simuls", NULL, body, blen, what, NULL, &res);
            if (st < 300) {
                const char *sid = json_string_value(json_object_get(res, "id"));
                const char *skey = json_string_value(json_object_get(res, "key"));
                if (!sid || !skey) {
                    fuzz_fail("%s: a simul without its id and key", what);
                }
                snprintf(simul_id, sizeof simul_id, "%s", sid);
                snprintf(simul_key, sizeof simul_key, "%s", skey);
            }
            json_decref(res);
            break;
        }
        case 'v': {
            snprintf(path, sizeof path, "simuls/%s", simul_id[0] ? simul_id : "nosimul");
            char q2[96];
            snprintf(q2, sizeof q2, "key=%s", kc == 's' ? simul_key : key);
            json_t *res = NULL;
            st = route_keep(s, "GET", path, q2, NULL, 0, what, NULL, &res);
            if (st == 200) {
                check_simul(s, res, what);
            }
            json_decref(res);
            break;
        }
        case 'j': {
            /* FEN|MOVE|VARIANT, each cut to fit the server's query buffers */
            char part[3][200];
            const char *p = body, *end = body + blen;
            for (int i = 0; i < 3; i++) {
                const char *bar = i < 2 ? memchr(p, '|', (size_t)(end - p)) : NULL;
                size_t n = (size_t)((bar ? bar : end) - p);
                n = n < sizeof part[i] - 1 ? n : sizeof part[i] - 1;
                memcpy(part[i], p, n);
                part[i][n] = 0;
                part[i][strnlen(part[i], n)] = 0;
                p = bar ? bar + 1 : end;
            }
            part[2][60] = 0;
            char e0[620], e1[620], e2[200], q2[1500];
            url_encode(e0, sizeof e0, part[0], strlen(part[0]));
            url_encode(e1, sizeof e1, part[1], strlen(part[1]));
            url_encode(e2, sizeof e2, part[2], strlen(part[2]));
            snprintf(q2, sizeof q2, "fen=%s&move=%s&variant=%s", e0, e1, e2);
            json_t *res = NULL;
            st = route_keep(s, "GET", "position", q2, NULL, 0, what, NULL, &res);
            if (st == 200 && part[1][0]) {
                if (!json_object_get(res, "played")) {
                    fuzz_fail("%s: a move judged without \"played\"", what);
                }
                check_judged(part[0], part[2], res, what);
            }
            json_decref(res);
            break;
        }
        default:
            drop(&before);
            return;
    }
    take_with(&after, s, 0, slot);
    if (verbose) {
        fprintf(stderr, "%s: %d\n", what, st);
    }
    if (st >= 400) {
        if (s->ngames != before.n && before.n < MAX_SNAP) {
            fuzz_fail("%s: refused (%d) but %d games became %d", what, st, before.n, s->ngames);
        }
        same_games(&before, &after, what);
    } else if (op == 'm' && g && st == 200 && slot < before.n) {
        /* one ply, or two when the mover's opponent had conditional moves (its reply) */
        int cond = !strstr(before.s[slot], "\"cond\":\"\"");
        int got = ply_of(after.s[slot]) - ply_of(before.s[slot]);
        if (got != 1 && !(cond && got == 2)) {
            fuzz_fail("%s: an accepted move went from ply %d to %d", what, ply_of(before.s[slot]),
                      ply_of(after.s[slot]));
        }
    }
    drop(&before);
    drop(&after);
    srv_engine_step(s, 2);
}

/* ---- the input --------------------------------------------------------------------- */

static const char *const setup_requests[][3] = {
    {"POST", "games", "{\"opponent\":\"human\",\"white_name\":\"Ann\",\"black_name\":\"Bob\"}"},
    {"POST", "games", "{\"opponent\":\"engine\",\"side\":\"white\",\"level\":1}"},
    {"POST", "games", "{\"opponent\":\"human\",\"time\":\"600+5\"}"},
    {"POST", "pdn",
     "[White \"A\"]\n[Black \"B\"]\n[Result \"2-0\"]\n\n1. 32-28 19-23 2. 28x19 14x23 "
     "3. 37-32 10-14 2-0\n"},
};

/* The webhook calls (detached threads, refused at once by the closed port) ended. */
static void wait_webhooks(void)
{
    for (int i = 0; srv_webhook_calls() > 0; i++) {
        if (i > 10000) {
            fuzz_fail("webhook calls still running after 10 s");
        }
        struct timespec ts = {0, 1000000};
        nanosleep(&ts, NULL);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    setup_dir();
    remove_db();
    session_cookie = session_csrf = NULL;
    simul_id[0] = simul_key[0] = 0;
    srv *s = open_server();
    for (size_t i = 0; i < sizeof setup_requests / sizeof setup_requests[0]; i++) {
        const char *b = setup_requests[i][2];
        int st = route(s, setup_requests[i][0], setup_requests[i][1], NULL, b, strlen(b),
                       "setting up", NULL);
        if (st != 200 && st != 201) {
            fuzz_fail("setting up: request %zu answered %d", i, st);
        }
    }
    srv_engine_step(s, 2);
    static int library_checked;
    if (!library_checked) { /* every game of LIB_GAMES indexed (once: it is read-only) */
        json_t *all = NULL;
        route_keep(s, "GET", "library", "", NULL, 0, "the library", NULL, &all);
        if (json_integer_value(json_object_get(all, "total")) != LIB_COUNT) {
            fuzz_fail("the library holds %lld games of %d",
                      (long long)json_integer_value(json_object_get(all, "total")), LIB_COUNT);
        }
        json_decref(all);
        library_checked = 1;
    }
    const char *p = (const char *)data, *end = p + size;
    for (int n = 0; p < end && n < MAX_REQUESTS; n++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
        one_request(s, p, len);
        p += len + (nl ? 1 : 0);
    }
    /* a restart: every game as it was, the simul with its boards */
    snaps before, after;
    take(&before, s);
    int ngames = s->ngames;
    char *simul = simul_boards(s);
    wait_webhooks();
    srv_stop(s);
    s = open_server();
    if (s->ngames != ngames) {
        fuzz_fail("restart: %d games of %d restored", s->ngames, ngames);
    }
    take(&after, s);
    same_games(&before, &after, "a restart");
    drop(&before);
    drop(&after);
    char *simul2 = simul_boards(s);
    if (simul && strcmp(simul, simul2) != 0) {
        fuzz_fail("restart: the simul's boards %s became %s", simul, simul2);
    }
    free(simul);
    free(simul2);
    wait_webhooks();
    srv_stop(s);
    remove_db();
    return 0;
}
