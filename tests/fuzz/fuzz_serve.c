/* SPDX-License-Identifier: MIT
 * tests/fuzz/fuzz_serve.c: the web server's requests (apps/serve) without sockets.
 * Each input gets a fresh server (srv_open, no threads) on a fresh SQLite file in a
 * temporary folder, with four games made first: 0 human against human, 1 against
 * the engine (level 1), 2 human with a clock (600+5), 3 a record uploaded for review.
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
 *           BODY is "PATH[?QUERY] BODY" (PATH after /api/);
 *   SLOT  the game: '0' + index in creation order (one past the last: an unknown id);
 *   KEY   w, b, s: that side's key in ?key=; n: none; anything else: a wrong key.
 * After each request the engine's pending moves are played (depth 2). Properties:
 * - every reply has an HTTP status (2xx or 4xx: a 5xx here is a bug: the database
 *   is local and nothing is busy) and a JSON object for body, which serialises and
 *   reads back; a refusal has an "error" message; a WebSocket answer is an ack, an
 *   error or a state;
 * - a refused request (4xx) changes no game (its state, offers, result and stored
 *   events) and adds none; an accepted move adds one ply (two when it
 *   answers conditional moves: their reply);
 * - the PDN of a game (200) reads back as one game with the same moves;
 * - at the end the server is stopped and opened again on its file: every game is
 *   restored as it was (nothing answered is lost, nothing refused is stored).
 * DM_FUZZ_VERBOSE=1 prints each request and its status (to write seeds). */
#define _DEFAULT_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include <damier/game.h>
#include <damier/pdn.h>

#include "fuzz.h"
#include "serve.h"

#define MAX_REQUESTS 48
#define MAX_SNAP 24 /* games compared around each request */

static int verbose; /* DM_FUZZ_VERBOSE set: each request and its status on stderr */
static char dir[512];
static char dbpath[600];
static char pzpath[600]; /* the puzzle trainer's file: one puzzle */

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
    rmdir(dir);
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
    if (dm_game_ply(gm) != n || dm_vboard_hash(dm_game_position_at(gm, 0)) !=
                                    dm_vboard_hash(dm_game_position_at(live, 0))) {
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

/* Send a route request; returns the status (checked). */
static int route(srv *s, const char *method, const char *path, const char *query, const char *body,
                 size_t len, const char *what, char **pdn)
{
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
    json_decref(r.body);
    return st;
}

/* The game at index slot, or NULL (one past the last: an unknown id). */
static srv_game *game_at(srv *s, int slot)
{
    pthread_mutex_lock(&s->games_mu);
    srv_game *g = slot >= 0 && slot < s->ngames ? s->all[slot] : NULL;
    pthread_mutex_unlock(&s->games_mu);
    return g;
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
    if (kc == 'w' || kc == 'b' || kc == 's') {
        if (g) {
            snprintf(key, sizeof key, "%s", g->row.keys[kc == 'w' ? 0 : kc == 'b' ? 1 : 2]);
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
            if (strstr(p2, "annotate")) {
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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    setup_dir();
    remove_db();
    session_cookie = session_csrf = NULL;
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
    const char *p = (const char *)data, *end = p + size;
    for (int n = 0; p < end && n < MAX_REQUESTS; n++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
        one_request(s, p, len);
        p += len + (nl ? 1 : 0);
    }
    /* a restart: every game as it was */
    snaps before, after;
    take(&before, s);
    int ngames = s->ngames;
    srv_stop(s);
    s = open_server();
    if (s->ngames != ngames) {
        fuzz_fail("restart: %d games of %d restored", s->ngames, ngames);
    }
    take(&after, s);
    same_games(&before, &after, "a restart");
    drop(&before);
    drop(&after);
    srv_stop(s);
    remove_db();
    return 0;
}
