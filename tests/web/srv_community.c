/* SPDX-License-Identifier: MIT
 * tests/web/srv_community.c (test_serve_community): the accounts, lobby and ratings
 * of `damier serve` (issue 19) over real HTTP on the loopback, a browser's cookies
 * kept per client: sign up, in and out, the session cookie's flags, the CSRF token,
 * sign-ins slowed after failures, no password or token in the database in clear, a
 * database from before the accounts opening with its games, the lobby (seeks posted,
 * listed, accepted, cancelled, gone when the poster's socket closes), rated games
 * changing both ratings as Glicko-2 says, kept across a restart, the leaderboard and
 * profiles; every bad request a 4xx that changes nothing. */
#define _DEFAULT_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <civetweb.h>
#include <jansson.h>
#include <sqlite3.h>

#include <damier/rating.h>

#include "http_client.h"
#include "serve.h"

static char dir[256];
static char dbpath[300];
static char puzzles[300]; /* a puzzle file to start with, "" none */
static srv *server;

static void start(void)
{
    srv_options o = SRV_OPTIONS_INIT;
    o.puzzles = puzzles[0] ? puzzles : NULL;
    o.db_path = dbpath;
    o.fast_hash = 1;
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
    snprintf(dir, sizeof dir, "/tmp/damier-community-test-XXXXXX");
    if (!mkdtemp(dir)) {
        return -1;
    }
    snprintf(dbpath, sizeof dbpath, "%s/web.sqlite", dir);
    puzzles[0] = 0;
    mg_init_library(0);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    if (server) {
        stop();
    }
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

/* A browser: its session cookie and CSRF token. */
typedef struct client {
    char cookie[200];
    char csrf[80];
    int no_csrf; /* 1: the next requests leave the token out */
} client;

/* The session cookie a response sets, kept (after checking its flags). */
static void keep_cookie(void *ctx, const char *name, const char *value)
{
    client *cl = ctx;
    if (!cl || strcasecmp(name, "Set-Cookie") != 0) {
        return;
    }
    assert_non_null(strstr(value, "HttpOnly"));
    assert_non_null(strstr(value, "SameSite=Strict"));
    const char *semi = strchr(value, ';');
    snprintf(cl->cookie, sizeof cl->cookie, "%.*s", (int)(semi - value), value);
}

/* One request as cl (NULL: no cookie); the status, *out the JSON body (NULL if
 * none). The cookie the server sets and the CSRF token it gives are kept. */
static int call(client *cl, const char *method, const char *path, const char *body, json_t **out)
{
    char hdr[512] = "";
    if (cl && cl->cookie[0]) {
        snprintf(hdr, sizeof hdr, "Cookie: %s\r\n", cl->cookie);
    }
    if (cl && cl->csrf[0] && !cl->no_csrf) {
        size_t n = strlen(hdr);
        snprintf(hdr + n, sizeof hdr - n, "X-CSRF-Token: %s\r\n", cl->csrf);
    }
    json_t *j = NULL;
    int st = http_request(srv_port(server), method, path, hdr, body, body ? strlen(body) : 0, &j,
                          keep_cookie, cl);
    const json_t *csrf = json_object_get(j, "csrf");
    if (cl && json_is_string(csrf)) {
        snprintf(cl->csrf, sizeof cl->csrf, "%s", json_string_value(csrf));
    }
    if (out) {
        *out = j;
    } else {
        json_decref(j);
    }
    return st;
}

static const char *str(const json_t *o, const char *k)
{
    const json_t *v = json_object_get(o, k);
    return json_is_string(v) ? json_string_value(v) : "";
}

static int num(const json_t *o, const char *k)
{
    return (int)json_integer_value(json_object_get(o, k));
}

/* A refusal: status want and an error containing text; j released. */
static void refused(int status, json_t **jp, int want, const char *text)
{
    json_t *j = *jp;
    if (status != want || !strstr(str(j, "error"), text)) {
        fprintf(stderr, "status %d, error \"%s\"; wanted %d with \"%s\"\n", status, str(j, "error"),
                want, text);
    }
    assert_int_equal(status, want);
    assert_non_null(strstr(str(j, "error"), text));
    json_decref(j);
}

static void signup(client *cl, const char *name, const char *password)
{
    char body[200];
    snprintf(body, sizeof body, "{\"name\":\"%s\",\"password\":\"%s\"}", name, password);
    json_t *j;
    assert_int_equal(call(cl, "POST", "/api/account/signup", body, &j), 201);
    assert_string_equal(str(json_object_get(j, "account"), "name"), name);
    assert_int_equal(strlen(cl->csrf), 64);
    json_decref(j);
}

/* The number of rows of a table (the database read beside the server). */
static int rows(const char *sql)
{
    sqlite3 *db;
    assert_int_equal(sqlite3_open_v2(dbpath, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
    sqlite3_stmt *st;
    assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
    int n = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int(st, 0) : -1;
    sqlite3_finalize(st);
    sqlite3_close(db);
    return n;
}

/* ---- a database from before the accounts ------------------------------------------------ */

/* The schema of version 1 as damier 0.2.0 made it (srv_db.c before the accounts). */
static const char *old_schema =
    "PRAGMA journal_mode=WAL;"
    "CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);"
    "CREATE TABLE accounts(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, lang TEXT NOT "
    "NULL DEFAULT 'en', created INTEGER NOT NULL);"
    "CREATE TABLE games(id TEXT PRIMARY KEY, white_key TEXT NOT NULL, black_key TEXT NOT NULL,"
    " spectator_key TEXT NOT NULL, mode TEXT NOT NULL, engine_side INTEGER NOT NULL,"
    " engine_level INTEGER NOT NULL, variant TEXT NOT NULL, time_control TEXT NOT NULL,"
    " start_fen TEXT NOT NULL, result TEXT NOT NULL, reason TEXT NOT NULL, end_t INTEGER NOT "
    "NULL, draw_offer INTEGER NOT NULL, takeback_offer INTEGER NOT NULL DEFAULT -1,"
    " t0_wall INTEGER NOT NULL, white_ms INTEGER, black_ms INTEGER,"
    " white_name TEXT NOT NULL DEFAULT '', black_name TEXT NOT NULL DEFAULT '',"
    " white_account INTEGER REFERENCES accounts(id), black_account INTEGER REFERENCES "
    "accounts(id), lang TEXT NOT NULL DEFAULT 'en', created INTEGER NOT NULL, updated INTEGER "
    "NOT NULL);"
    "CREATE TABLE moves(game_id TEXT NOT NULL REFERENCES games(id), ply INTEGER NOT NULL,"
    " hub TEXT NOT NULL, t INTEGER NOT NULL, PRIMARY KEY(game_id, ply));"
    "CREATE INDEX games_created ON games(created);"
    "INSERT INTO meta VALUES('schema_version','1');"
    "INSERT INTO games VALUES('00000000000000aa','wkey','bkey','skey','human',-1,5,"
    "'international','-','','*','',0,-1,-1,1700000000000,NULL,NULL,'Ann','Bob',NULL,NULL,'en',"
    "1700000000000,1700000000000);"
    "INSERT INTO moves VALUES('00000000000000aa',0,'32-28',0);"
    "INSERT INTO moves VALUES('00000000000000aa',1,'19-23',1000);";

static void test_old_database(void **st)
{
    (void)st;
    sqlite3 *db;
    assert_int_equal(sqlite3_open(dbpath, &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, old_schema, NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
    start();
    json_t *j;
    assert_int_equal(call(NULL, "GET", "/api/games/00000000000000aa?key=wkey", NULL, &j), 200);
    assert_int_equal(num(j, "ply"), 2);
    assert_string_equal(str(json_object_get(j, "names"), "white"), "Ann");
    assert_null(json_object_get(j, "players"));
    json_decref(j);
    /* it plays on, and an account can be made in it */
    assert_int_equal(call(NULL, "POST", "/api/games/00000000000000aa/move",
                          "{\"key\":\"wkey\",\"move\":\"28x19\"}", &j),
                     200);
    json_decref(j);
    client a = {"", "", 0};
    signup(&a, "oldtimer", "password-1");
    stop();
    assert_int_equal(rows("SELECT value FROM meta WHERE key='community_version'"), 4);
    assert_int_equal(rows("SELECT count(*) FROM moves WHERE game_id='00000000000000aa'"), 3);
    /* and opens again, the migration done once */
    start();
    assert_int_equal(call(NULL, "GET", "/api/games/00000000000000aa?key=skey", NULL, &j), 200);
    assert_int_equal(num(j, "ply"), 3);
    json_decref(j);
    stop();
}

static void test_newer_community_schema_refused(void **st)
{
    (void)st;
    start();
    stop();
    sqlite3 *db;
    assert_int_equal(sqlite3_open(dbpath, &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, "UPDATE meta SET value='99' WHERE key='community_version'",
                                  NULL, NULL, NULL),
                     SQLITE_OK);
    sqlite3_close(db);
    srv_options o = SRV_OPTIONS_INIT;
    o.port = 0;
    o.db_path = dbpath;
    o.quiet = 1;
    char err[512] = "";
    srv *s = srv_start(&o, err, sizeof err);
    assert_null(s);
    assert_non_null(strstr(err, "newer"));
}

/* ---- accounts ------------------------------------------------------------------------- */

static void test_accounts(void **st)
{
    (void)st;
    start();
    client a = {"", "", 0}, anon = {"", "", 0};
    json_t *j;
    /* bad sign-ups change nothing */
    refused(call(&anon, "POST", "/api/account/signup", "{bad", &j), &j, 400, "malformed JSON");
    refused(call(&anon, "POST", "/api/account/signup", "[]", &j), &j, 400, "JSON object");
    refused(call(&anon, "POST", "/api/account/signup",
                 "{\"name\":\"al\",\"password\":\"12345678\"}", &j),
            &j, 400, "3 to 20");
    refused(call(&anon, "POST", "/api/account/signup",
                 "{\"name\":\"a l i\",\"password\":\"12345678\"}", &j),
            &j, 400, "letters");
    refused(call(&anon, "POST", "/api/account/signup",
                 "{\"name\":\"alice\",\"password\":\"short\"}", &j),
            &j, 400, "password");
    refused(call(&anon, "POST", "/api/account/signup",
                 "{\"name\":\"alice\",\"password\":\"12345678\",\"lang\":\"fr\"}", &j),
            &j, 400, "lang");
    refused(call(&anon, "GET", "/api/account/signup", NULL, &j), &j, 405, "POST");
    refused(call(&anon, "POST", "/api/account/whoami", "{}", &j), &j, 404,
            "no such account action");
    assert_int_equal(rows("SELECT count(*) FROM accounts"), 0);
    assert_string_equal(anon.cookie, "");

    signup(&a, "alice", "correct horse");
    assert_true(strlen(a.cookie) > 20);
    refused(call(&anon, "POST", "/api/account/signup",
                 "{\"name\":\"ALICE\",\"password\":\"12345678\"}", &j),
            &j, 409, "taken");
    /* who am I */
    assert_int_equal(call(&a, "GET", "/api/account", NULL, &j), 200);
    assert_string_equal(str(json_object_get(j, "account"), "name"), "alice");
    json_decref(j);
    assert_int_equal(call(&anon, "GET", "/api/account", NULL, &j), 200);
    assert_true(json_is_null(json_object_get(j, "account")));
    json_decref(j);
    /* a forged cookie is nobody */
    client forged = {
        "damier_session=0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef", "", 0};
    assert_int_equal(call(&forged, "GET", "/api/account", NULL, &j), 200);
    assert_true(json_is_null(json_object_get(j, "account")));
    json_decref(j);
    refused(call(&forged, "POST", "/api/account/lang", "{\"lang\":\"zh-Hans\"}", &j), &j, 401,
            "sign in");

    /* the language, stored; not without the CSRF token */
    a.no_csrf = 1;
    refused(call(&a, "POST", "/api/account/lang", "{\"lang\":\"zh-Hans\"}", &j), &j, 403, "CSRF");
    a.no_csrf = 0;
    refused(call(&a, "POST", "/api/account/lang", "{\"lang\":\"xx\"}", &j), &j, 400, "lang");
    assert_int_equal(rows("SELECT count(*) FROM accounts WHERE lang='en'"), 1);
    assert_int_equal(call(&a, "POST", "/api/account/lang", "{\"lang\":\"zh-Hant\"}", &j), 200);
    json_decref(j);
    assert_int_equal(rows("SELECT count(*) FROM accounts WHERE lang='zh-Hant'"), 1);

    /* neither the password nor the session token in clear; the hash is Argon2id */
    assert_int_equal(rows("SELECT count(*) FROM accounts WHERE pwhash LIKE '$argon2id$%'"), 1);
    assert_int_equal(rows("SELECT count(*) FROM accounts WHERE pwhash LIKE '%correct horse%'"), 0);
    char sql[300];
    snprintf(sql, sizeof sql, "SELECT count(*) FROM sessions WHERE token_hash='%s'",
             strchr(a.cookie, '=') + 1);
    assert_int_equal(rows(sql), 0);
    assert_int_equal(rows("SELECT count(*) FROM sessions"), 1);

    /* signing in: wrong password, unknown name, then right (any case of the name) */
    client b = {"", "", 0};
    refused(
        call(&b, "POST", "/api/account/login", "{\"name\":\"alice\",\"password\":\"nope\"}", &j),
        &j, 401, "wrong name or password");
    refused(
        call(&b, "POST", "/api/account/login", "{\"name\":\"nobody\",\"password\":\"nope\"}", &j),
        &j, 401, "wrong name or password");
    refused(call(&b, "POST", "/api/account/login", "{\"name\":\"alice\"}", &j), &j, 400,
            "password");
    assert_string_equal(b.cookie, "");
    assert_int_equal(call(&b, "POST", "/api/account/login",
                          "{\"name\":\"Alice\",\"password\":\"correct horse\"}", &j),
                     200);
    assert_string_equal(str(json_object_get(j, "account"), "lang"), "zh-Hant");
    json_decref(j);
    assert_true(strlen(b.cookie) > 20);
    assert_int_equal(rows("SELECT count(*) FROM sessions"), 2);

    /* signing out: the CSRF token needed, then the session is gone */
    b.no_csrf = 1;
    refused(call(&b, "POST", "/api/account/logout", NULL, &j), &j, 403, "CSRF");
    b.no_csrf = 0;
    char old_cookie[200];
    snprintf(old_cookie, sizeof old_cookie, "%s", b.cookie);
    assert_int_equal(call(&b, "POST", "/api/account/logout", NULL, &j), 200);
    json_decref(j);
    assert_int_equal(rows("SELECT count(*) FROM sessions"), 1);
    client replay = {"", "", 0};
    snprintf(replay.cookie, sizeof replay.cookie, "%s", old_cookie);
    assert_int_equal(call(&replay, "GET", "/api/account", NULL, &j), 200);
    assert_true(json_is_null(json_object_get(j, "account")));
    json_decref(j);

    /* an expired session is nobody */
    stop();
    sqlite3 *db;
    assert_int_equal(sqlite3_open(dbpath, &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, "UPDATE sessions SET expires=1", NULL, NULL, NULL),
                     SQLITE_OK);
    sqlite3_close(db);
    start();
    assert_int_equal(call(&a, "GET", "/api/account", NULL, &j), 200);
    assert_true(json_is_null(json_object_get(j, "account")));
    json_decref(j);
    stop();
}

static void test_login_rate_limit(void **st)
{
    (void)st;
    start();
    client a = {"", "", 0}, b = {"", "", 0};
    signup(&a, "carol", "right password");
    json_t *j;
    for (int i = 0; i < 5; i++) {
        refused(call(&b, "POST", "/api/account/login",
                     "{\"name\":\"carol\",\"password\":\"wrong password\"}", &j),
                &j, 401, "wrong");
    }
    /* the sixth attempt is refused before the password is looked at, right or wrong */
    int s = call(&b, "POST", "/api/account/login",
                 "{\"name\":\"CAROL\",\"password\":\"right password\"}", &j);
    assert_int_equal(s, 429);
    assert_true(num(j, "retry_after") >= 1);
    json_decref(j);
    assert_string_equal(b.cookie, "");
    /* another name is not held up */
    signup(&b, "dave", "right password");
    stop();
}

/* ---- the lobby and ratings ---------------------------------------------------------------- */

static void key_of(char *out, size_t cap, const char *link)
{
    const char *k = strrchr(link, '/');
    snprintf(out, cap, "%s", k ? k + 1 : "");
}

static int seek_count(void)
{
    json_t *j;
    assert_int_equal(call(NULL, "GET", "/api/lobby", NULL, &j), 200);
    int n = (int)json_array_size(json_object_get(j, "seeks"));
    json_decref(j);
    return n;
}

/* The lobby socket's messages, for test_lobby_socket. */
typedef struct ws_seen {
    int held, seeks;
} ws_seen;

static int ws_data(struct mg_connection *c, int bits, char *data, size_t len, void *user)
{
    (void)c;
    ws_seen *w = user;
    if ((bits & 0x0f) == MG_WEBSOCKET_OPCODE_TEXT) {
        json_t *m = json_loadb(data, len, 0, NULL);
        const char *t = str(m, "t");
        w->held += !strcmp(t, "held");
        w->seeks += !strcmp(t, "seeks");
        json_decref(m);
    }
    return 1;
}

static void test_lobby(void **st)
{
    (void)st;
    start();
    client a = {"", "", 0}, b = {"", "", 0}, anon = {"", "", 0};
    signup(&a, "erin", "password-e");
    signup(&b, "frank", "password-f");
    json_t *j;
    /* bad seeks change nothing */
    refused(call(&a, "POST", "/api/lobby/seeks", "{\"variant\":\"chess\"}", &j), &j, 400,
            "variant");
    refused(call(&a, "POST", "/api/lobby/seeks", "{\"variant\":3}", &j), &j, 400, "variant");
    refused(call(&a, "POST", "/api/lobby/seeks", "{\"time\":\"soon\"}", &j), &j, 400, "time");
    refused(call(&a, "POST", "/api/lobby/seeks", "{\"rated\":\"yes\"}", &j), &j, 400, "rated");
    refused(call(&a, "POST", "/api/lobby/seeks", "{\"color\":\"green\"}", &j), &j, 400, "color");
    refused(call(&a, "POST", "/api/lobby/seeks", "{oops", &j), &j, 400, "malformed");
    refused(call(&anon, "POST", "/api/lobby/seeks", "{\"rated\":true}", &j), &j, 401, "sign in");
    a.no_csrf = 1;
    refused(call(&a, "POST", "/api/lobby/seeks", "{\"rated\":true}", &j), &j, 403, "CSRF");
    a.no_csrf = 0;
    refused(call(&a, "GET", "/api/lobby/seeks", NULL, &j), &j, 405, "POST");
    refused(call(&a, "GET", "/api/lobby/other", NULL, &j), &j, 404, "lobby");
    refused(call(&a, "POST", "/api/lobby", "{}", &j), &j, 405, "GET");
    assert_int_equal(seek_count(), 0);

    /* erin seeks a rated game as White */
    assert_int_equal(call(&a, "POST", "/api/lobby/seeks",
                          "{\"rated\":true,\"time\":\"300+3\",\"color\":\"white\"}", &j),
                     201);
    char sid[32], owner[64], path[200];
    snprintf(sid, sizeof sid, "%s", str(json_object_get(j, "seek"), "id"));
    snprintf(owner, sizeof owner, "%s", str(j, "owner"));
    assert_int_equal(num(json_object_get(j, "seek"), "rating"), 1500);
    json_decref(j);
    refused(call(&a, "POST", "/api/lobby/seeks", "{}", &j), &j, 409, "open seek already");
    assert_int_equal(seek_count(), 1);
    /* the list shows it, with the poster's name and rating, no owner token */
    assert_int_equal(call(NULL, "GET", "/api/lobby", NULL, &j), 200);
    const json_t *k0 = json_array_get(json_object_get(j, "seeks"), 0);
    assert_string_equal(str(k0, "name"), "erin");
    assert_string_equal(str(k0, "time"), "300+3");
    assert_true(json_is_true(json_object_get(k0, "rated")));
    assert_null(json_object_get(k0, "owner"));
    json_decref(j);
    /* refusals: its own poster, an anonymous taker of a rated seek, unknown seeks, a
     * wrong owner */
    snprintf(path, sizeof path, "/api/lobby/seeks/%s/accept", sid);
    refused(call(&a, "POST", path, "{}", &j), &j, 409, "your own");
    refused(call(&anon, "POST", path, "{}", &j), &j, 401, "sign in");
    refused(call(&b, "POST", "/api/lobby/seeks/ffff/accept", "{}", &j), &j, 404, "no such");
    refused(call(&b, "POST", "/api/lobby/seeks/ffff/dance", "{}", &j), &j, 404, "accept, cancel");
    snprintf(path, sizeof path, "/api/lobby/seeks/%s/cancel", sid);
    refused(call(&b, "POST", path, "{\"owner\":\"nope\"}", &j), &j, 403, "not your seek");
    snprintf(path, sizeof path, "/api/lobby/seeks/%s?owner=nope", sid);
    refused(call(&b, "GET", path, NULL, &j), &j, 403, "not your seek");
    snprintf(path, sizeof path, "/api/lobby/seeks/%s?owner=%s", sid, owner);
    assert_int_equal(call(NULL, "GET", path, NULL, &j), 200);
    assert_string_equal(str(j, "status"), "open");
    json_decref(j);
    assert_int_equal(seek_count(), 1);

    /* frank accepts: a rated game, erin White, frank Black */
    snprintf(path, sizeof path, "/api/lobby/seeks/%s/accept", sid);
    assert_int_equal(call(&b, "POST", path, "{}", &j), 201);
    char gid[32], bkey[64], wkey[64];
    snprintf(gid, sizeof gid, "%s", str(j, "id"));
    snprintf(bkey, sizeof bkey, "%s", str(j, "key"));
    assert_string_equal(str(j, "you"), "black");
    const json_t *pl = json_object_get(json_object_get(j, "state"), "players");
    assert_true(json_is_true(json_object_get(pl, "rated")));
    assert_string_equal(str(json_object_get(pl, "white"), "name"), "erin");
    assert_string_equal(str(json_object_get(pl, "black"), "name"), "frank");
    json_decref(j);
    assert_int_equal(seek_count(), 0);
    refused(call(&anon, "POST", path, "{}", &j), &j, 404, "no such");
    /* erin learns her game */
    snprintf(path, sizeof path, "/api/lobby/seeks/%s?owner=%s", sid, owner);
    assert_int_equal(call(NULL, "GET", path, NULL, &j), 200);
    assert_string_equal(str(j, "status"), "taken");
    assert_string_equal(str(json_object_get(j, "game"), "id"), gid);
    assert_string_equal(str(json_object_get(j, "game"), "you"), "white");
    snprintf(wkey, sizeof wkey, "%s", str(json_object_get(j, "game"), "key"));
    json_decref(j);
    snprintf(path, sizeof path, "/api/games/%s?key=%s", gid, wkey);
    assert_int_equal(call(NULL, "GET", path, NULL, &j), 200);
    assert_string_equal(str(j, "you"), "white");
    assert_string_equal(str(json_object_get(j, "names"), "white"), "erin");
    assert_string_equal(str(json_object_get(j, "clock"), "control"), "300+3");
    json_decref(j);

    /* frank resigns: erin wins, both ratings move as Glicko-2 says */
    char body[200];
    snprintf(path, sizeof path, "/api/games/%s/resign", gid);
    snprintf(body, sizeof body, "{\"key\":\"%s\"}", bkey);
    assert_int_equal(call(&b, "POST", path, body, &j), 200);
    assert_string_equal(str(j, "result"), "2-0");
    dm_glicko p = DM_GLICKO_INIT, win, loss;
    dm_glicko_game gw = {1500, 350, 1.0}, gl = {1500, 350, 0.0};
    assert_int_equal(dm_glicko_update(&win, &p, &gw, 1, DM_GLICKO_TAU, NULL), DM_OK);
    assert_int_equal(dm_glicko_update(&loss, &p, &gl, 1, DM_GLICKO_TAU, NULL), DM_OK);
    pl = json_object_get(j, "players");
    assert_int_equal(num(json_object_get(pl, "white"), "after"), (int)(win.rating + 0.5));
    assert_int_equal(num(json_object_get(pl, "black"), "after"), (int)(loss.rating + 0.5));
    assert_int_equal(num(json_object_get(pl, "white"), "change"), (int)(win.rating + 0.5) - 1500);
    json_decref(j);
    assert_int_equal((int)(win.rating + 0.5), 1662); /* Glicko-2: 1500 beats 1500, both RD 350 */

    /* once only: a second resignation is refused and rates nothing */
    refused(call(&b, "POST", path, body, &j), &j, 409, "");
    assert_int_equal(rows("SELECT count(*) FROM rating_changes"), 2);

    /* the leaderboard and the profiles, also after a restart */
    for (int round = 0; round < 2; round++) {
        assert_int_equal(call(NULL, "GET", "/api/leaderboard?kind=international", NULL, &j), 200);
        const json_t *ps = json_object_get(j, "players");
        assert_int_equal(json_array_size(ps), 2);
        assert_string_equal(str(json_array_get(ps, 0), "name"), "erin");
        assert_int_equal(num(json_array_get(ps, 0), "rating"), 1662);
        assert_string_equal(str(json_array_get(ps, 1), "name"), "frank");
        json_decref(j);
        assert_int_equal(call(NULL, "GET", "/api/users/FRANK", NULL, &j), 200);
        assert_string_equal(str(j, "name"), "frank");
        assert_null(json_object_get(j, "lang"));
        assert_int_equal(
            num(json_object_get(json_object_get(j, "ratings"), "international"), "rating"),
            (int)(loss.rating + 0.5));
        const json_t *g0 = json_array_get(json_object_get(j, "games"), 0);
        assert_string_equal(str(g0, "id"), gid);
        assert_string_equal(str(g0, "side"), "black");
        assert_int_equal(num(g0, "rating_before"), 1500);
        json_decref(j);
        snprintf(path, sizeof path, "/api/games/%s?key=%s", gid, wkey);
        assert_int_equal(call(NULL, "GET", path, NULL, &j), 200);
        pl = json_object_get(j, "players");
        assert_int_equal(num(json_object_get(pl, "white"), "after"), 1662);
        json_decref(j);
        stop();
        start();
    }
    assert_int_equal(rows("SELECT count(*) FROM rating_changes"), 2);
    refused(call(NULL, "GET", "/api/users/nobody", NULL, &j), &j, 404, "no account");
    refused(call(NULL, "GET", "/api/users/bad%20name", NULL, &j), &j, 404, "no such account");
    refused(call(NULL, "POST", "/api/leaderboard", "{}", &j), &j, 405, "GET");
    assert_int_equal(call(NULL, "GET", "/api/leaderboard?kind=russian", NULL, &j), 200);
    assert_int_equal(json_array_size(json_object_get(j, "players")), 0);
    json_decref(j);

    /* a casual seek cancelled by its poster; an anonymous one taken anonymously */
    assert_int_equal(call(&a, "POST", "/api/lobby/seeks", "{\"variant\":\"russian\"}", &j), 201);
    snprintf(sid, sizeof sid, "%s", str(json_object_get(j, "seek"), "id"));
    snprintf(owner, sizeof owner, "%s", str(j, "owner"));
    json_decref(j);
    snprintf(path, sizeof path, "/api/lobby/seeks/%s/cancel", sid);
    snprintf(body, sizeof body, "{\"owner\":\"%s\"}", owner);
    assert_int_equal(call(&a, "POST", path, body, &j), 200);
    json_decref(j);
    assert_int_equal(seek_count(), 0);
    assert_int_equal(call(&anon, "POST", "/api/lobby/seeks", "{\"name\":\"guest\"}", &j), 201);
    snprintf(sid, sizeof sid, "%s", str(json_object_get(j, "seek"), "id"));
    json_decref(j);
    snprintf(path, sizeof path, "/api/lobby/seeks/%s/accept", sid);
    assert_int_equal(call(NULL, "POST", path, "{\"name\":\"visitor\"}", &j), 201);
    assert_null(json_object_get(json_object_get(j, "state"), "players"));
    json_decref(j);
    stop();
}

static void test_lobby_socket(void **st)
{
    (void)st;
    start();
    json_t *j;
    assert_int_equal(call(NULL, "POST", "/api/lobby/seeks", "{\"name\":\"ws\"}", &j), 201);
    char msg[200];
    snprintf(msg, sizeof msg, "{\"t\":\"hold\",\"seek\":\"%s\",\"owner\":\"%s\"}",
             str(json_object_get(j, "seek"), "id"), str(j, "owner"));
    json_decref(j);
    ws_seen seen = {0, 0};
    char ebuf[256];
    struct mg_connection *c =
        mg_connect_websocket_client("127.0.0.1", srv_port(server), 0, ebuf, sizeof ebuf,
                                    "/ws/lobby", NULL, ws_data, NULL, &seen);
    assert_non_null(c);
    mg_websocket_client_write(c, MG_WEBSOCKET_OPCODE_TEXT, "{\"t\":\"nope\"}", 12);
    mg_websocket_client_write(c, MG_WEBSOCKET_OPCODE_TEXT, msg, strlen(msg));
    for (int i = 0; i < 500 && !seen.held; i++) {
        usleep(10000); /* waits for the answer, at most 5 s; nothing is timed */
    }
    assert_int_equal(seen.held, 1);
    assert_true(seen.seeks >= 1);
    assert_int_equal(seek_count(), 1);
    /* the poster leaves: the seek goes */
    mg_close_connection(c);
    int n = 1;
    for (int i = 0; i < 500 && (n = seek_count()) != 0; i++) {
        usleep(10000);
    }
    assert_int_equal(n, 0);
    stop();
}

/* ---- games linked to accounts ------------------------------------------------------------- */

static void test_claim_and_create(void **st)
{
    (void)st;
    start();
    client a = {"", "", 0}, b = {"", "", 0};
    signup(&a, "gina", "password-g");
    signup(&b, "hank", "password-h");
    json_t *j;
    /* a friend game made by a signed-in player is hers */
    assert_int_equal(
        call(&a, "POST", "/api/games", "{\"opponent\":\"human\",\"side\":\"black\"}", &j), 201);
    char gid[32], wkey[64], skey[64], path[200], body[200];
    snprintf(gid, sizeof gid, "%s", str(j, "id"));
    key_of(wkey, sizeof wkey, str(json_object_get(j, "links"), "white"));
    key_of(skey, sizeof skey, str(json_object_get(j, "links"), "spectator"));
    const json_t *pl = json_object_get(json_object_get(j, "state"), "players");
    assert_string_equal(str(json_object_get(pl, "black"), "name"), "gina");
    assert_true(json_is_null(json_object_get(pl, "white")));
    assert_true(json_is_false(json_object_get(pl, "rated")));
    json_decref(j);
    /* hank claims White by its link; bad claims change nothing */
    snprintf(path, sizeof path, "/api/games/%s/claim", gid);
    snprintf(body, sizeof body, "{\"key\":\"%s\"}", skey);
    refused(call(&b, "POST", path, body, &j), &j, 403, "spectator");
    refused(call(&b, "POST", path, "{\"key\":\"wrong\"}", &j), &j, 403, "");
    refused(call(NULL, "POST", path, "{}", &j), &j, 401, "sign in");
    refused(call(&b, "POST", path, "{bad", &j), &j, 400, "malformed");
    refused(call(&b, "GET", path, NULL, &j), &j, 405, "POST");
    refused(call(&b, "POST", "/api/games/nosuchgame/claim", "{\"key\":\"x\"}", &j), &j, 404, "");
    snprintf(body, sizeof body, "{\"key\":\"%s\"}", wkey);
    refused(call(&a, "POST", path, body, &j), &j, 409, "other side");
    b.no_csrf = 1;
    refused(call(&b, "POST", path, body, &j), &j, 403, "CSRF");
    b.no_csrf = 0;
    assert_int_equal(rows("SELECT count(*) FROM games WHERE white_account IS NOT NULL"), 0);
    assert_int_equal(call(&b, "POST", path, body, &j), 200);
    pl = json_object_get(j, "players");
    assert_string_equal(str(json_object_get(pl, "white"), "name"), "hank");
    assert_string_equal(str(json_object_get(j, "names"), "white"), "hank");
    json_decref(j);
    assert_int_equal(call(&b, "POST", path, body, &j), 200); /* again: the same */
    json_decref(j);
    client c = {"", "", 0};
    signup(&c, "ivan", "password-i");
    refused(call(&c, "POST", path, body, &j), &j, 409, "another account");
    /* a casual game rates nothing */
    snprintf(path, sizeof path, "/api/games/%s/resign", gid);
    assert_int_equal(call(&b, "POST", path, body, &j), 200);
    json_decref(j);
    assert_int_equal(rows("SELECT count(*) FROM rating_changes"), 0);
    /* a game made with the session but without its CSRF token (another site's form
     * posting in the player's name) is refused and makes nothing */
    int before = rows("SELECT count(*) FROM games");
    a.no_csrf = 1;
    refused(call(&a, "POST", "/api/games", "{\"opponent\":\"human\"}", &j), &j, 403, "CSRF");
    assert_int_equal(rows("SELECT count(*) FROM games"), before);
    stop();
}

/* Correspondence (issue 13): GET /api/games/your-turn of a signed-in player lists
 * the account's games waiting for its move, without any key. */
static void test_your_turn_account(void **st)
{
    (void)st;
    start();
    client a = {"", "", 0};
    signup(&a, "jane", "password-j");
    json_t *j;
    assert_int_equal(call(&a, "POST", "/api/games",
                          "{\"opponent\":\"human\",\"side\":\"black\","
                          "\"correspondence\":{\"days_per_move\":3}}",
                          &j),
                     201);
    char gid[32], wkey[64], path[200], body[200];
    snprintf(gid, sizeof gid, "%s", str(j, "id"));
    key_of(wkey, sizeof wkey, str(json_object_get(j, "links"), "white"));
    json_decref(j);
    /* White (anonymous, by its link) is to move: not Jane's turn */
    assert_int_equal(call(&a, "GET", "/api/games/your-turn", NULL, &j), 200);
    assert_int_equal(json_array_size(json_object_get(j, "games")), 0);
    json_decref(j);
    snprintf(path, sizeof path, "/api/games/%s/move", gid);
    snprintf(body, sizeof body, "{\"key\":\"%s\",\"move\":\"32-28\"}", wkey);
    assert_int_equal(call(NULL, "POST", path, body, &j), 200);
    json_decref(j);
    assert_int_equal(call(&a, "GET", "/api/games/your-turn", NULL, &j), 200);
    const json_t *games = json_object_get(j, "games");
    assert_int_equal(json_array_size(games), 1);
    assert_string_equal(str(json_array_get(games, 0), "id"), gid);
    assert_string_equal(str(json_array_get(games, 0), "you"), "black");
    assert_true(json_integer_value(json_object_get(json_array_get(games, 0), "deadline")) > 0);
    json_decref(j);
    /* nobody signed in and no key: nothing */
    assert_int_equal(call(NULL, "GET", "/api/games/your-turn", NULL, &j), 200);
    assert_int_equal(json_array_size(json_object_get(j, "games")), 0);
    json_decref(j);
    refused(call(&a, "POST", "/api/games/your-turn", "{}", &j), &j, 405, "GET");
    stop();
}

/* ---- the puzzle trainer -------------------------------------------------------------------- */

/* Two puzzles written for the test (docs/PUZZLES.md's format): a two-for-one shot
 * (tests/unit/test_puzzle.c's) and a king's capture line of two moves. */
static const char *puzzle_file =
    "[Event \"puzzle\"]\n[Round \"1\"]\n[Result \"*\"]\n[GameType \"20\"]\n"
    "[FEN \"W:W32,38,42,45:B11,16,22,24\"]\n[SetUp \"1\"]\n[Theme \"shot\"]\n"
    "[Rating \"1100\"]\n\n1. 32-28 22x33 2. 38x20 *\n\n"
    "[Event \"puzzle\"]\n[Round \"2\"]\n[Result \"*\"]\n[GameType \"20\"]\n"
    "[FEN \"W:W20,30,31,33,36,42:BK26,23\"]\n[SetUp \"1\"]\n[Rating \"1400\"]\n\n"
    "1. 31-27 26x31 2. 36x27 *\n\n"
    "[Event \"not a puzzle: Russian\"]\n[GameType \"25\"]\n\n1. c3-d4 *\n";

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* POST puzzles/ID/move with the moves (a JSON array's inside). */
static int pz_move(client *cl, const char *id, const char *moves, json_t **out)
{
    char path[100], body[300];
    snprintf(path, sizeof path, "/api/puzzles/%s/move", id);
    snprintf(body, sizeof body, "{\"moves\":[%s]}", moves);
    return call(cl, "POST", path, body, out);
}

static void test_puzzles(void **st)
{
    (void)st;
    json_t *j;
    /* without --puzzles: none */
    start();
    refused(call(NULL, "GET", "/api/puzzles/next", NULL, &j), &j, 404, "--puzzles");
    stop();
    /* a file that cannot be read, or has no puzzle, stops the start */
    snprintf(puzzles, sizeof puzzles, "%s/none.pdn", dir);
    srv_options o = SRV_OPTIONS_INIT;
    o.port = 0;
    o.db_path = dbpath;
    o.quiet = 1;
    o.puzzles = puzzles;
    char err[512] = "";
    assert_null(srv_start(&o, err, sizeof err));
    assert_non_null(strstr(err, "cannot be read"));
    write_file(puzzles, "[Event \"x\"]\n\n1. 32-28 *\n");
    assert_null(srv_start(&o, err, sizeof err));
    assert_non_null(strstr(err, "no puzzle"));

    snprintf(puzzles, sizeof puzzles, "%s/puzzles.pdn", dir);
    write_file(puzzles, puzzle_file);
    start();
    assert_int_equal(call(NULL, "GET", "/api/puzzles", NULL, &j), 200);
    assert_int_equal(num(j, "count"), 2);
    assert_true(json_is_null(json_object_get(j, "rating")));
    char daily[32];
    snprintf(daily, sizeof daily, "%s", str(j, "daily"));
    json_decref(j);
    assert_int_equal(call(NULL, "GET", "/api/puzzles/daily", NULL, &j), 200);
    assert_string_equal(str(j, "id"), daily);
    json_decref(j);
    /* a visitor's next: the file's order */
    assert_int_equal(call(NULL, "GET", "/api/puzzles/next", NULL, &j), 200);
    char id[32], id2[32], path[100];
    snprintf(id, sizeof id, "%s", str(j, "id"));
    assert_string_equal(str(j, "fen"), "W:W32,38,42,45:B11,16,22,24");
    assert_int_equal(num(j, "rating"), 1100);
    assert_int_equal(num(j, "moves"), 2);
    assert_int_equal(json_array_size(json_object_get(j, "legal")), 5);
    json_decref(j);
    snprintf(path, sizeof path, "/api/puzzles/next?after=%s", id);
    assert_int_equal(call(NULL, "GET", path, NULL, &j), 200);
    snprintf(id2, sizeof id2, "%s", str(j, "id"));
    assert_int_equal(num(j, "rating"), 1400);
    json_decref(j);
    snprintf(path, sizeof path, "/api/puzzles/%s", id2);
    assert_int_equal(call(NULL, "GET", path, NULL, &j), 200);
    json_decref(j);

    /* bad requests */
    refused(call(NULL, "GET", "/api/puzzles/0000", NULL, &j), &j, 404, "no such puzzle");
    refused(call(NULL, "POST", "/api/puzzles", "{}", &j), &j, 405, "GET");
    snprintf(path, sizeof path, "/api/puzzles/%s/move", id);
    refused(call(NULL, "GET", path, NULL, &j), &j, 405, "POST");
    refused(call(NULL, "POST", path, "{bad", &j), &j, 400, "malformed");
    refused(call(NULL, "POST", path, "{}", &j), &j, 400, "moves");
    refused(call(NULL, "POST", path, "{\"moves\":[]}", &j), &j, 400, "moves");
    snprintf(path, sizeof path, "/api/puzzles/%s/hint", id);
    refused(call(NULL, "POST", path, "{}", &j), &j, 404, "no such puzzle action");
    refused(pz_move(NULL, id, "7", &j), &j, 400, "not a text");
    refused(pz_move(NULL, id, "\"32-29\"", &j), &j, 400, "");
    refused(pz_move(NULL, id, "\"32-27\",\"38x20\"", &j), &j, 409, "move 1 is not");
    refused(pz_move(NULL, id, "\"32-28\",\"38x20\",\"45-40\"", &j), &j, 409, "solved after 2");

    /* a visitor: right, the reply, then solved; a wrong move shows the solution */
    assert_int_equal(pz_move(NULL, id, "\"32-28\"", &j), 200);
    assert_true(json_is_true(json_object_get(j, "correct")));
    assert_true(json_is_false(json_object_get(j, "solved")));
    assert_string_equal(str(json_object_get(j, "reply"), "text"), "22x33");
    assert_string_equal(str(j, "fen"), "W:W38,42,45:B11,16,24,33");
    json_decref(j);
    assert_int_equal(pz_move(NULL, id, "\"32-28\",\"38x29x20\"", &j), 200);
    assert_true(json_is_true(json_object_get(j, "solved")));
    assert_null(json_object_get(j, "rating"));
    json_decref(j);
    assert_int_equal(pz_move(NULL, id, "\"45-40\"", &j), 200);
    assert_true(json_is_false(json_object_get(j, "correct")));
    assert_string_equal(json_string_value(json_array_get(json_object_get(j, "solution"), 2)),
                        "38x20");
    json_decref(j);
    assert_int_equal(rows("SELECT count(*) FROM puzzle_attempts"), 0);

    /* an account: its first attempt is rated, both ways, once */
    client a = {"", "", 0};
    signup(&a, "solver", "password-s");
    assert_int_equal(call(&a, "GET", "/api/puzzles/next", NULL, &j), 200);
    assert_string_equal(str(j, "id"), id2); /* the closest to 1500 */
    json_decref(j);
    a.no_csrf = 1;
    refused(pz_move(&a, id, "\"32-28\"", &j), &j, 403, "CSRF");
    a.no_csrf = 0;
    assert_int_equal(pz_move(&a, id, "\"32-28\",\"38x20\"", &j), 200);
    const json_t *rt = json_object_get(j, "rating");
    dm_glicko u = DM_GLICKO_INIT, u2;
    dm_glicko_game g = {1100, 200, 1.0};
    assert_int_equal(dm_glicko_update(&u2, &u, &g, 1, DM_GLICKO_TAU, NULL), DM_OK);
    assert_int_equal(num(rt, "before"), 1500);
    assert_int_equal(num(rt, "after"), (int)(u2.rating + 0.5));
    json_decref(j);
    assert_int_equal(pz_move(&a, id, "\"32-28\",\"38x20\"", &j), 200);
    assert_null(json_object_get(j, "rating")); /* once */
    json_decref(j);
    /* a failure of the other puzzle lowers it again */
    assert_int_equal(pz_move(&a, id2, "\"20-14\"", &j), 200);
    assert_true(num(json_object_get(j, "rating"), "change") < 0);
    json_decref(j);
    /* kept across a restart: the solver's and the puzzle's */
    stop();
    start();
    assert_int_equal(call(&a, "GET", "/api/puzzles", NULL, &j), 200);
    assert_int_equal(num(json_object_get(j, "rating"), "games"), 2);
    json_decref(j);
    snprintf(path, sizeof path, "/api/puzzles/%s", id);
    assert_int_equal(call(NULL, "GET", path, NULL, &j), 200);
    assert_true(num(j, "rating") < 1100);
    assert_int_equal(num(j, "attempts"), 1);
    assert_int_equal(num(j, "solved"), 1);
    json_decref(j);
    stop();
}

/* The course's progress of an account (issue 19): GET/POST /api/account/lessons; the
 * browser's list merged into the account's, kept across a restart and a new session;
 * refused without a session, without the CSRF token, for a malformed list. */
static void test_lessons_progress(void **st)
{
    (void)st;
    start();
    json_t *j;
    client anon = {"", "", 0}, a = {"", "", 0};
    refused(call(&anon, "GET", "/api/account/lessons", NULL, &j), &j, 401, "sign in");
    refused(call(&anon, "POST", "/api/account/lessons", "{\"done\":[\"board\"]}", &j), &j, 401,
            "sign in");
    signup(&a, "learner", "password-l");
    assert_int_equal(call(&a, "GET", "/api/account/lessons", NULL, &j), 200);
    assert_int_equal(json_array_size(json_object_get(j, "done")), 0);
    json_decref(j);
    a.no_csrf = 1;
    refused(call(&a, "POST", "/api/account/lessons", "{\"done\":[\"board\"]}", &j), &j, 403,
            "CSRF");
    a.no_csrf = 0;
    assert_int_equal(rows("SELECT count(*) FROM lessons_done"), 0);
    refused(call(&a, "POST", "/api/account/lessons", "{\"done\":[\"Bad id!\"]}", &j), &j, 400,
            "not a lesson id");
    refused(call(&a, "POST", "/api/account/lessons", "{\"done\":\"board\"}", &j), &j, 400, "array");
    refused(call(&a, "POST", "/api/account/lessons", "{bad", &j), &j, 400, "JSON");
    /* the browser's list merged: the answer is the union, sorted, each once */
    assert_int_equal(
        call(&a, "POST", "/api/account/lessons", "{\"done\":[\"cc-jump\",\"board\"]}", &j), 200);
    json_decref(j);
    assert_int_equal(
        call(&a, "POST", "/api/account/lessons", "{\"done\":[\"cc-board\",\"board\"]}", &j), 200);
    const json_t *d = json_object_get(j, "done");
    assert_int_equal(json_array_size(d), 3);
    assert_string_equal(json_string_value(json_array_get(d, 0)), "board");
    assert_string_equal(json_string_value(json_array_get(d, 1)), "cc-board");
    assert_string_equal(json_string_value(json_array_get(d, 2)), "cc-jump");
    json_decref(j);
    /* kept across a restart, for a new session of the account (another browser) */
    stop();
    start();
    client b = {"", "", 0};
    assert_int_equal(call(&b, "POST", "/api/account/login",
                          "{\"name\":\"learner\",\"password\":\"password-l\"}", &j),
                     200);
    json_decref(j);
    assert_int_equal(call(&b, "GET", "/api/account/lessons", NULL, &j), 200);
    assert_int_equal(json_array_size(json_object_get(j, "done")), 3);
    json_decref(j);
    refused(call(&b, "DELETE", "/api/account/lessons", NULL, &j), &j, 405, "GET or POST");
    stop();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_old_database, setup, teardown),
        cmocka_unit_test_setup_teardown(test_newer_community_schema_refused, setup, teardown),
        cmocka_unit_test_setup_teardown(test_accounts, setup, teardown),
        cmocka_unit_test_setup_teardown(test_login_rate_limit, setup, teardown),
        cmocka_unit_test_setup_teardown(test_lobby, setup, teardown),
        cmocka_unit_test_setup_teardown(test_lobby_socket, setup, teardown),
        cmocka_unit_test_setup_teardown(test_claim_and_create, setup, teardown),
        cmocka_unit_test_setup_teardown(test_your_turn_account, setup, teardown),
        cmocka_unit_test_setup_teardown(test_puzzles, setup, teardown),
        cmocka_unit_test_setup_teardown(test_lessons_progress, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
