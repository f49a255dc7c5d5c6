/* SPDX-License-Identifier: MIT
 * apps/serve/srv_account.c: accounts of `damier serve` (issue 19): sign up, sign in
 * and out, the session cookie, CSRF tokens, rate-limited sign-ins, the language
 * preference, profiles and the leaderboard; the community tables' schema and its
 * migrations; the routing of the community's /api/ paths. docs/WEB.md "Accounts".
 *
 * Passwords: Argon2id by libsodium's crypto_pwhash_str (its "interactive" limits: 64
 * MiB, 2 passes), the encoded hash (salt and parameters in it) stored; one hash
 * computed at a time (memory). Sessions: a random 256-bit token in the cookie
 * (HttpOnly, SameSite=Strict, 30 days); the database keeps only its BLAKE2b hash. The
 * CSRF token is a keyed hash of the session token (BLAKE2b, stored nowhere): a POST
 * that a signed-in page makes carries it in X-CSRF-Token, a cross-site form cannot. */
#define _POSIX_C_SOURCE 200809L
#include "srv_community.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <civetweb.h>
#include <sodium.h>

#include "srv_community_int.h"

#define COOKIE_NAME "damier_session"
#define SESSION_DAYS 30
#define SESSION_MS ((int64_t)SESSION_DAYS * 24 * 3600 * 1000)

/* ---- the schema ----------------------------------------------------------------- */

/* The community tables, version by version (meta.community_version): each step runs
 * once, in order, in the transaction of srv_community_schema. The games' own schema
 * (srv_db.c, version 1) already has accounts(id, name, lang, created) and the games'
 * white_account, black_account columns. */
static const char *const migrations[] = {
    /* 1: passwords, titles, sessions, ratings, rated games */
    "ALTER TABLE accounts ADD COLUMN pwhash TEXT NOT NULL DEFAULT '';"
    "ALTER TABLE accounts ADD COLUMN title TEXT NOT NULL DEFAULT '';"
    "CREATE UNIQUE INDEX IF NOT EXISTS accounts_name_nocase ON accounts(name COLLATE NOCASE);"
    "ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;"
    "CREATE INDEX IF NOT EXISTS games_white_account ON games(white_account);"
    "CREATE INDEX IF NOT EXISTS games_black_account ON games(black_account);"
    "CREATE TABLE IF NOT EXISTS sessions("
    " token_hash TEXT PRIMARY KEY," /* hex BLAKE2b-256 of the cookie's token */
    " account_id INTEGER NOT NULL REFERENCES accounts(id),"
    " created INTEGER NOT NULL, expires INTEGER NOT NULL);"
    "CREATE TABLE IF NOT EXISTS ratings("
    " account_id INTEGER NOT NULL REFERENCES accounts(id),"
    " kind TEXT NOT NULL," /* a variant's name, or 'puzzle' */
    " rating REAL NOT NULL, rd REAL NOT NULL, vol REAL NOT NULL,"
    " games INTEGER NOT NULL DEFAULT 0, updated INTEGER NOT NULL,"
    " PRIMARY KEY(account_id, kind));"
    "CREATE INDEX IF NOT EXISTS ratings_kind ON ratings(kind, rating);"
    "CREATE TABLE IF NOT EXISTS rating_changes("
    " game_id TEXT NOT NULL, account_id INTEGER NOT NULL REFERENCES accounts(id),"
    " kind TEXT NOT NULL, side INTEGER NOT NULL,"
    " rating_before REAL NOT NULL, rating_after REAL NOT NULL, rd_after REAL NOT NULL,"
    " created INTEGER NOT NULL, PRIMARY KEY(game_id, account_id));",
    /* 2: the puzzle trainer */
    "CREATE TABLE IF NOT EXISTS puzzle_ratings("
    " puzzle TEXT PRIMARY KEY," /* the puzzle's id (srv_puzzles.c) */
    " rating REAL NOT NULL, rd REAL NOT NULL, vol REAL NOT NULL,"
    " attempts INTEGER NOT NULL, solved INTEGER NOT NULL, updated INTEGER NOT NULL);"
    "CREATE TABLE IF NOT EXISTS puzzle_attempts("
    " account_id INTEGER NOT NULL REFERENCES accounts(id), puzzle TEXT NOT NULL,"
    " solved INTEGER NOT NULL, created INTEGER NOT NULL, PRIMARY KEY(account_id, puzzle));",
    /* 3: the arbiter's key of a game ('' none: games stored before) */
    "ALTER TABLE games ADD COLUMN arbiter_key TEXT NOT NULL DEFAULT '';",
    /* 4: the lessons of the course an account has completed (srv_lessons.c) */
    "CREATE TABLE IF NOT EXISTS lessons_done("
    " account_id INTEGER NOT NULL REFERENCES accounts(id), lesson TEXT NOT NULL,"
    " created INTEGER NOT NULL, PRIMARY KEY(account_id, lesson));",
};

#define COMMUNITY_VERSION ((int)(sizeof migrations / sizeof migrations[0]))

int srv_community_schema(sqlite3 *db, char *err, size_t errcap)
{
    char *msg = NULL;
    if (sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, &msg) != SQLITE_OK) {
        snprintf(err, errcap, "database: %s", msg ? msg : "?");
        sqlite3_free(msg);
        return -1;
    }
    int version = 0;
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(db, "SELECT value FROM meta WHERE key='community_version'", -1, &st,
                           NULL) == SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW) {
        version = atoi((const char *)sqlite3_column_text(st, 0));
    }
    sqlite3_finalize(st);
    if (version > COMMUNITY_VERSION) {
        sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
        snprintf(err, errcap,
                 "database: community schema version %d is newer than this damier's (%d)", version,
                 COMMUNITY_VERSION);
        return -1;
    }
    int rc = 0;
    for (int v = version; rc == 0 && v < COMMUNITY_VERSION; v++) {
        rc = sqlite3_exec(db, migrations[v], NULL, NULL, &msg) == SQLITE_OK ? 0 : -1;
    }
    if (rc == 0 && version < COMMUNITY_VERSION) {
        char sql[128];
        snprintf(sql, sizeof sql, "INSERT OR REPLACE INTO meta VALUES('community_version','%d')",
                 COMMUNITY_VERSION);
        rc = sqlite3_exec(db, sql, NULL, NULL, &msg) == SQLITE_OK ? 0 : -1;
    }
    if (rc == 0) {
        rc = sqlite3_exec(db, "COMMIT", NULL, NULL, &msg) == SQLITE_OK ? 0 : -1;
    }
    if (rc != 0) {
        snprintf(err, errcap, "database: community schema: %s", msg ? msg : "?");
        sqlite3_free(msg);
        sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
        return -1;
    }
    return 0;
}

/* ---- helpers -------------------------------------------------------------------- */

static pthread_once_t sodium_once = PTHREAD_ONCE_INIT;
static int sodium_ok;
static void sodium_start(void)
{
    sodium_ok = sodium_init() >= 0;
}

void srv_hex(char *out, const unsigned char *bytes, size_t n)
{
    sodium_bin2hex(out, 2 * n + 1, bytes, n);
}

/* The hex BLAKE2b-256 of text, with a context prefix. */
static void hash_hex(char out[65], const char *context, const char *text)
{
    unsigned char h[32];
    crypto_generichash_state st;
    crypto_generichash_init(&st, NULL, 0, sizeof h);
    crypto_generichash_update(&st, (const unsigned char *)context, strlen(context));
    crypto_generichash_update(&st, (const unsigned char *)text, strlen(text));
    crypto_generichash_final(&st, h, sizeof h);
    srv_hex(out, h, sizeof h);
}

void srv_random_token(char *out, size_t nbytes)
{
    unsigned char b[64];
    if (nbytes > sizeof b) {
        nbytes = sizeof b;
    }
    randombytes_buf(b, nbytes);
    srv_hex(out, b, nbytes);
}

const char *srv_json_str(const json_t *o, const char *k)
{
    const json_t *v = json_object_get(o, k);
    return json_is_string(v) ? json_string_value(v) : NULL;
}

static int valid_name(const char *n)
{
    size_t len = strlen(n);
    if (len < 3 || len > 20) {
        return 0;
    }
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)n[i];
        if (!isalnum(c) && c != '_' && c != '-') {
            return 0;
        }
    }
    return 1;
}

static int valid_lang(const char *l)
{
    return !strcmp(l, "en") || !strcmp(l, "zh-Hans") || !strcmp(l, "zh-Hant");
}

/* ---- the community's state -------------------------------------------------------- */

srv_community *srv_comm(srv *s)
{
    return s->comm;
}

void srv_community_free(srv *s)
{
    if (!s || !s->comm) {
        return;
    }
    srv_lobby_free(s->comm);
    srv_puzzles_free(s->comm);
    pthread_mutex_destroy(&s->comm->hash_mu);
    pthread_mutex_destroy(&s->comm->limit_mu);
    free(s->comm);
    s->comm = NULL;
}

/* ---- sign-in rate limits ------------------------------------------------------------ */

/* After LIMIT_FREE failures in a row for a name (or 4 times as many from an address)
 * each attempt waits 2^(n - LIMIT_FREE) s, at most 15 min, after the last failure;
 * an attempt before then is refused (429) without looking at the password. */
#define LIMIT_FREE 5
#define LIMIT_MAX_MS (15 * 60 * 1000)

static srv_limit *limit_find(srv_community *c, const char *key, int make)
{
    srv_limit *oldest = &c->limits[0];
    for (int i = 0; i < SRV_LIMITS; i++) {
        if (c->limits[i].key[0] && !strcmp(c->limits[i].key, key)) {
            return &c->limits[i];
        }
        if (c->limits[i].last < oldest->last) {
            oldest = &c->limits[i];
        }
    }
    if (!make) {
        return NULL;
    }
    memset(oldest, 0, sizeof *oldest);
    snprintf(oldest->key, sizeof oldest->key, "%s", key);
    return oldest;
}

static int64_t limit_wait(const srv_limit *l, int free_fails, int64_t now)
{
    if (!l || l->fails < free_fails) {
        return 0;
    }
    int k = l->fails - free_fails;
    int64_t delay = k >= 20 ? LIMIT_MAX_MS : (int64_t)1000 << k;
    if (delay > LIMIT_MAX_MS) {
        delay = LIMIT_MAX_MS;
    }
    int64_t until = l->last + delay;
    return until > now ? until - now : 0;
}

static void limit_keys(const char *name, const srv_request *q, char *nk, char *ak)
{
    char low[24];
    size_t i = 0;
    for (; name[i] && i < sizeof low - 1; i++) {
        low[i] = (char)tolower((unsigned char)name[i]);
    }
    low[i] = 0;
    snprintf(nk, 64, "n:%s", low);
    snprintf(ak, 64, "a:%.60s", q->remote ? q->remote : "");
}

/* ms to wait before name may try again from q's address; 0: now. */
static int64_t login_wait(srv_community *c, const char *name, const srv_request *q)
{
    char nk[64], ak[64];
    limit_keys(name, q, nk, ak);
    int64_t now = srv_wall_ms();
    pthread_mutex_lock(&c->limit_mu);
    int64_t a = limit_wait(limit_find(c, nk, 0), LIMIT_FREE, now);
    int64_t b = limit_wait(limit_find(c, ak, 0), 4 * LIMIT_FREE, now);
    pthread_mutex_unlock(&c->limit_mu);
    return a > b ? a : b;
}

static void login_result(srv_community *c, const char *name, const srv_request *q, int ok)
{
    char nk[64], ak[64];
    limit_keys(name, q, nk, ak);
    int64_t now = srv_wall_ms();
    pthread_mutex_lock(&c->limit_mu);
    for (int i = 0; i < 2; i++) {
        const char *key = i ? ak : nk;
        if (ok && i == 1) {
            continue; /* a success of one name does not clear an address trying many */
        }
        srv_limit *l = limit_find(c, key, !ok);
        if (l) {
            l->fails = ok ? 0 : l->fails + 1;
            l->last = now;
        }
    }
    pthread_mutex_unlock(&c->limit_mu);
}

/* ---- sessions ------------------------------------------------------------------------ */

static void csrf_of(char out[65], const char *token)
{
    hash_hex(out, "damier csrf:", token);
}

void srv_account_of(srv *s, const srv_request *q, srv_account *a)
{
    memset(a, 0, sizeof *a);
    char token[80];
    if (!q->cookie || mg_get_cookie(q->cookie, COOKIE_NAME, token, sizeof token) != 64) {
        return;
    }
    char th[65];
    hash_hex(th, "damier session:", token);
    srv_db_lock(s->db);
    sqlite3 *db = srv_db_sqlite(s->db);
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(db,
                           "SELECT a.id, a.name, a.lang FROM sessions s JOIN accounts a ON "
                           "a.id = s.account_id WHERE s.token_hash=? AND s.expires>?",
                           -1, &st, NULL) == SQLITE_OK) {
        sqlite3_bind_text(st, 1, th, -1, SQLITE_TRANSIENT);
        sqlite3_bind_int64(st, 2, srv_wall_ms());
        if (sqlite3_step(st) == SQLITE_ROW) {
            a->id = sqlite3_column_int64(st, 0);
            snprintf(a->name, sizeof a->name, "%s", (const char *)sqlite3_column_text(st, 1));
            snprintf(a->lang, sizeof a->lang, "%s", (const char *)sqlite3_column_text(st, 2));
        }
    }
    sqlite3_finalize(st);
    srv_db_unlock(s->db);
    if (a->id) {
        char want[65];
        csrf_of(want, token);
        a->csrf_ok = q->csrf && strlen(q->csrf) == 64 && sodium_memcmp(q->csrf, want, 64) == 0;
    }
}

/* A new session for account: its row stored, the cookie in r, the CSRF token in
 * csrf. 0 or -1. */
static int session_new(srv *s, int64_t account, const srv_request *q, char csrf[65])
{
    char token[65], th[65];
    srv_random_token(token, 32);
    hash_hex(th, "damier session:", token);
    int64_t now = srv_wall_ms();
    srv_db_lock(s->db);
    sqlite3 *db = srv_db_sqlite(s->db);
    sqlite3_stmt *st = NULL;
    int rc = -1;
    /* expired sessions go on the way */
    sqlite3_stmt *del = NULL;
    if (sqlite3_prepare_v2(db, "DELETE FROM sessions WHERE expires<=?", -1, &del, NULL) ==
        SQLITE_OK) {
        sqlite3_bind_int64(del, 1, now);
        sqlite3_step(del);
    }
    sqlite3_finalize(del);
    if (sqlite3_prepare_v2(db, "INSERT INTO sessions VALUES(?,?,?,?)", -1, &st, NULL) ==
        SQLITE_OK) {
        sqlite3_bind_text(st, 1, th, -1, SQLITE_TRANSIENT);
        sqlite3_bind_int64(st, 2, account);
        sqlite3_bind_int64(st, 3, now);
        sqlite3_bind_int64(st, 4, now + SESSION_MS);
        rc = sqlite3_step(st) == SQLITE_DONE ? 0 : -1;
    }
    sqlite3_finalize(st);
    srv_db_unlock(s->db);
    if (rc == 0 && q->set_cookie) {
        snprintf(q->set_cookie, SRV_COOKIE_CAP,
                 COOKIE_NAME "=%s; Path=/; HttpOnly; SameSite=Strict; Max-Age=%d", token,
                 SESSION_DAYS * 24 * 3600);
        csrf_of(csrf, token);
    }
    return rc;
}

/* ---- accounts ------------------------------------------------------------------------ */

/* {"name", "lang", "title", "ratings": {kind: {"rating", "rd", "games"}}} */
json_t *srv_account_json(srv *s, int64_t id)
{
    sqlite3 *db = srv_db_sqlite(s->db);
    sqlite3_stmt *st = NULL;
    json_t *out = NULL;
    srv_db_lock(s->db);
    if (sqlite3_prepare_v2(db, "SELECT name, lang, title, created FROM accounts WHERE id=?", -1,
                           &st, NULL) == SQLITE_OK) {
        sqlite3_bind_int64(st, 1, id);
        if (sqlite3_step(st) == SQLITE_ROW) {
            out = json_pack("{s:s,s:s,s:s,s:I}", "name", (const char *)sqlite3_column_text(st, 0),
                            "lang", (const char *)sqlite3_column_text(st, 1), "title",
                            (const char *)sqlite3_column_text(st, 2), "created",
                            (json_int_t)sqlite3_column_int64(st, 3));
        }
    }
    sqlite3_finalize(st);
    if (out) {
        json_t *ratings = json_object();
        if (sqlite3_prepare_v2(db,
                               "SELECT kind, rating, rd, games FROM ratings WHERE account_id=? "
                               "ORDER BY kind",
                               -1, &st, NULL) == SQLITE_OK) {
            sqlite3_bind_int64(st, 1, id);
            while (sqlite3_step(st) == SQLITE_ROW) {
                json_object_set_new(ratings, (const char *)sqlite3_column_text(st, 0),
                                    json_pack("{s:i,s:i,s:i}", "rating",
                                              (int)(sqlite3_column_double(st, 1) + 0.5), "rd",
                                              (int)(sqlite3_column_double(st, 2) + 0.5), "games",
                                              sqlite3_column_int(st, 3)));
            }
        }
        sqlite3_finalize(st);
        json_object_set_new(out, "ratings", ratings);
    }
    srv_db_unlock(s->db);
    return out;
}

static void signed_in_reply(srv *s, int64_t id, int status, const char *csrf, srv_reply *r)
{
    json_t *acc = srv_account_json(s, id);
    if (!acc) {
        srv_reply_error(r, 503, "the account could not be read");
        return;
    }
    r->status = status;
    r->body = json_pack("{s:o,s:s}", "account", acc, "csrf", csrf);
}

static void op_signup(srv *s, const srv_request *q, const json_t *req, srv_reply *r)
{
    const char *name = srv_json_str(req, "name"), *pw = srv_json_str(req, "password");
    const char *lang = srv_json_str(req, "lang");
    if (!name || !valid_name(name)) {
        srv_reply_error(r, 400,
                        "the name must be 3 to 20 letters, digits, '_' or '-' (\"name\": TEXT)");
        return;
    }
    if (!pw || strlen(pw) < 8 || strlen(pw) > 200) {
        srv_reply_error(r, 400, "the password must have 8 to 200 bytes (\"password\": TEXT)");
        return;
    }
    if (lang && !valid_lang(lang)) {
        srv_reply_error(r, 400, "lang must be \"en\", \"zh-Hans\" or \"zh-Hant\"");
        return;
    }
    (void)q;
    srv_community *c = s->comm;
    char hash[crypto_pwhash_STRBYTES];
    pthread_mutex_lock(&c->hash_mu);
    int hr = crypto_pwhash_str(
        hash, pw, strlen(pw),
        s->opt.fast_hash ? crypto_pwhash_OPSLIMIT_MIN : crypto_pwhash_OPSLIMIT_INTERACTIVE,
        s->opt.fast_hash ? crypto_pwhash_MEMLIMIT_MIN : crypto_pwhash_MEMLIMIT_INTERACTIVE);
    pthread_mutex_unlock(&c->hash_mu);
    if (hr != 0) {
        srv_reply_error(r, 503, "the password could not be hashed (out of memory)");
        return;
    }
    srv_db_lock(s->db);
    sqlite3 *db = srv_db_sqlite(s->db);
    sqlite3_stmt *st = NULL;
    int rc = -1, taken = 0;
    int64_t id = 0;
    if (sqlite3_prepare_v2(db, "INSERT INTO accounts(name, lang, created, pwhash) VALUES(?,?,?,?)",
                           -1, &st, NULL) == SQLITE_OK) {
        sqlite3_bind_text(st, 1, name, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(st, 2, lang ? lang : "en", -1, SQLITE_TRANSIENT);
        sqlite3_bind_int64(st, 3, srv_wall_ms());
        sqlite3_bind_text(st, 4, hash, -1, SQLITE_TRANSIENT);
        int sr = sqlite3_step(st);
        rc = sr == SQLITE_DONE ? 0 : -1;
        taken = sqlite3_extended_errcode(db) == SQLITE_CONSTRAINT_UNIQUE;
        id = sqlite3_last_insert_rowid(db);
    }
    sqlite3_finalize(st);
    srv_db_unlock(s->db);
    sodium_memzero(hash, sizeof hash);
    if (rc != 0) {
        if (taken) {
            srv_reply_error(r, 409, "the name \"%s\" is taken", name);
        } else {
            srv_reply_error(r, 503, "the account was not stored");
        }
        return;
    }
    char csrf[65];
    if (session_new(s, id, q, csrf) != 0) {
        srv_reply_error(r, 503, "the session was not stored");
        return;
    }
    signed_in_reply(s, id, 201, csrf, r);
}

/* A valid Argon2id string, so that an unknown name costs as much as a wrong password. */
static char dummy_hash[crypto_pwhash_STRBYTES];

static void op_login(srv *s, const srv_request *q, const json_t *req, srv_reply *r)
{
    const char *name = srv_json_str(req, "name"), *pw = srv_json_str(req, "password");
    if (!name || !pw || strlen(name) > 64 || strlen(pw) > 200) {
        srv_reply_error(r, 400, "give \"name\" and \"password\"");
        return;
    }
    srv_community *c = s->comm;
    int64_t wait = login_wait(c, name, q);
    if (wait > 0) {
        srv_reply_error(r, 429, "too many failed sign-ins: try again in %lld s",
                        (long long)((wait + 999) / 1000));
        json_object_set_new(r->body, "retry_after", json_integer((wait + 999) / 1000));
        return;
    }
    char hash[crypto_pwhash_STRBYTES] = "";
    int64_t id = 0;
    srv_db_lock(s->db);
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(srv_db_sqlite(s->db),
                           "SELECT id, pwhash FROM accounts WHERE name=? COLLATE NOCASE", -1, &st,
                           NULL) == SQLITE_OK) {
        sqlite3_bind_text(st, 1, name, -1, SQLITE_TRANSIENT);
        if (sqlite3_step(st) == SQLITE_ROW) {
            id = sqlite3_column_int64(st, 0);
            snprintf(hash, sizeof hash, "%s", (const char *)sqlite3_column_text(st, 1));
        }
    }
    sqlite3_finalize(st);
    srv_db_unlock(s->db);
    pthread_mutex_lock(&c->hash_mu);
    if (!dummy_hash[0] &&
        crypto_pwhash_str(dummy_hash, "no such account", 15,
                          s->opt.fast_hash ? crypto_pwhash_OPSLIMIT_MIN
                                           : crypto_pwhash_OPSLIMIT_INTERACTIVE,
                          s->opt.fast_hash ? crypto_pwhash_MEMLIMIT_MIN
                                           : crypto_pwhash_MEMLIMIT_INTERACTIVE) != 0) {
        dummy_hash[0] = 0;
    }
    const char *against = id && hash[0] ? hash : dummy_hash;
    int ok = against[0] && crypto_pwhash_str_verify(against, pw, strlen(pw)) == 0 && id && hash[0];
    pthread_mutex_unlock(&c->hash_mu);
    login_result(c, name, q, ok);
    if (!ok) {
        srv_reply_error(r, 401, "wrong name or password");
        return;
    }
    char csrf[65];
    if (session_new(s, id, q, csrf) != 0) {
        srv_reply_error(r, 503, "the session was not stored");
        return;
    }
    signed_in_reply(s, id, 200, csrf, r);
}

static void op_logout(srv *s, const srv_request *q, srv_reply *r)
{
    char token[80];
    if (q->cookie && mg_get_cookie(q->cookie, COOKIE_NAME, token, sizeof token) == 64) {
        char th[65];
        hash_hex(th, "damier session:", token);
        srv_db_lock(s->db);
        sqlite3_stmt *st = NULL;
        if (sqlite3_prepare_v2(srv_db_sqlite(s->db), "DELETE FROM sessions WHERE token_hash=?", -1,
                               &st, NULL) == SQLITE_OK) {
            sqlite3_bind_text(st, 1, th, -1, SQLITE_TRANSIENT);
            sqlite3_step(st);
        }
        sqlite3_finalize(st);
        srv_db_unlock(s->db);
    }
    if (q->set_cookie) {
        snprintf(q->set_cookie, SRV_COOKIE_CAP,
                 COOKIE_NAME "=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0");
    }
    r->status = 200;
    r->body = json_pack("{s:b}", "ok", 1);
}

static void op_lang(srv *s, const srv_account *a, const json_t *req, srv_reply *r)
{
    const char *lang = srv_json_str(req, "lang");
    if (!lang || !valid_lang(lang)) {
        srv_reply_error(r, 400, "lang must be \"en\", \"zh-Hans\" or \"zh-Hant\"");
        return;
    }
    srv_db_lock(s->db);
    sqlite3_stmt *st = NULL;
    int rc = -1;
    if (sqlite3_prepare_v2(srv_db_sqlite(s->db), "UPDATE accounts SET lang=? WHERE id=?", -1, &st,
                           NULL) == SQLITE_OK) {
        sqlite3_bind_text(st, 1, lang, -1, SQLITE_TRANSIENT);
        sqlite3_bind_int64(st, 2, a->id);
        rc = sqlite3_step(st) == SQLITE_DONE ? 0 : -1;
    }
    sqlite3_finalize(st);
    srv_db_unlock(s->db);
    if (rc != 0) {
        srv_reply_error(r, 503, "the language was not stored");
        return;
    }
    r->status = 200;
    r->body = json_pack("{s:s}", "lang", lang);
}

/* GET users/NAME: the profile. */
static void op_profile(srv *s, const char *name, srv_reply *r)
{
    int64_t id = 0;
    sqlite3 *db = srv_db_sqlite(s->db);
    sqlite3_stmt *st = NULL;
    srv_db_lock(s->db);
    if (sqlite3_prepare_v2(db, "SELECT id FROM accounts WHERE name=? COLLATE NOCASE", -1, &st,
                           NULL) == SQLITE_OK) {
        sqlite3_bind_text(st, 1, name, -1, SQLITE_TRANSIENT);
        if (sqlite3_step(st) == SQLITE_ROW) {
            id = sqlite3_column_int64(st, 0);
        }
    }
    sqlite3_finalize(st);
    srv_db_unlock(s->db);
    json_t *acc = id ? srv_account_json(s, id) : NULL;
    if (!acc) {
        srv_reply_error(r, 404, "no account \"%s\"", name);
        return;
    }
    json_object_del(acc, "lang"); /* the player's own business */
    json_t *games = json_array();
    srv_db_lock(s->db);
    if (sqlite3_prepare_v2(
            db,
            "SELECT g.id, g.spectator_key, g.variant, g.white_name, g.black_name, g.result, "
            "g.reason, g.rated, g.created, g.white_account=?1, c.rating_before, c.rating_after "
            "FROM games g LEFT JOIN rating_changes c ON c.game_id=g.id AND c.account_id=?1 "
            "WHERE g.white_account=?1 OR g.black_account=?1 ORDER BY g.created DESC LIMIT 50",
            -1, &st, NULL) == SQLITE_OK) {
        sqlite3_bind_int64(st, 1, id);
        while (sqlite3_step(st) == SQLITE_ROW) {
            char link[128];
            snprintf(link, sizeof link, "/#/game/%s/%s", sqlite3_column_text(st, 0),
                     sqlite3_column_text(st, 1));
            json_t *g = json_pack("{s:s,s:s,s:s,s:s,s:s,s:s,s:s,s:b,s:I,s:s}", "id",
                                  (const char *)sqlite3_column_text(st, 0), "link", link, "variant",
                                  (const char *)sqlite3_column_text(st, 2), "white",
                                  (const char *)sqlite3_column_text(st, 3), "black",
                                  (const char *)sqlite3_column_text(st, 4), "result",
                                  (const char *)sqlite3_column_text(st, 5), "reason",
                                  (const char *)sqlite3_column_text(st, 6), "rated",
                                  sqlite3_column_int(st, 7), "created",
                                  (json_int_t)sqlite3_column_int64(st, 8), "side",
                                  sqlite3_column_int(st, 9) ? "white" : "black");
            if (sqlite3_column_type(st, 10) != SQLITE_NULL) {
                json_object_set_new(g, "rating_before",
                                    json_integer((int)(sqlite3_column_double(st, 10) + 0.5)));
                json_object_set_new(g, "rating_after",
                                    json_integer((int)(sqlite3_column_double(st, 11) + 0.5)));
            }
            json_array_append_new(games, g);
        }
    }
    sqlite3_finalize(st);
    srv_db_unlock(s->db);
    json_object_set_new(acc, "games", games);
    r->status = 200;
    r->body = acc;
}

/* GET leaderboard?kind=KIND */
static void op_leaderboard(srv *s, const char *kind, srv_reply *r)
{
    if (!*kind) {
        kind = "international";
    }
    if (strlen(kind) > 31) {
        srv_reply_error(r, 400, "unknown rating kind");
        return;
    }
    char kbuf[32]; /* echoed in the reply: JSON needs it valid UTF-8 (fuzz finding) */
    snprintf(kbuf, sizeof kbuf, "%s", kind);
    srv_utf8_fix(kbuf);
    kind = kbuf;
    json_t *list = json_array();
    sqlite3_stmt *st = NULL;
    srv_db_lock(s->db);
    if (sqlite3_prepare_v2(srv_db_sqlite(s->db),
                           "SELECT a.name, a.title, r.rating, r.rd, r.games FROM ratings r JOIN "
                           "accounts a ON a.id=r.account_id WHERE r.kind=? AND r.games>0 "
                           "ORDER BY r.rating DESC, a.name LIMIT 100",
                           -1, &st, NULL) == SQLITE_OK) {
        sqlite3_bind_text(st, 1, kind, -1, SQLITE_TRANSIENT);
        while (sqlite3_step(st) == SQLITE_ROW) {
            json_array_append_new(list,
                                  json_pack("{s:s,s:s,s:i,s:i,s:i}", "name",
                                            (const char *)sqlite3_column_text(st, 0), "title",
                                            (const char *)sqlite3_column_text(st, 1), "rating",
                                            (int)(sqlite3_column_double(st, 2) + 0.5), "rd",
                                            (int)(sqlite3_column_double(st, 3) + 0.5), "games",
                                            sqlite3_column_int(st, 4)));
        }
    }
    sqlite3_finalize(st);
    srv_db_unlock(s->db);
    r->status = 200;
    r->body = json_pack("{s:s,s:o}", "kind", kind, "players", list);
}

/* POST games/ID/claim {key}: the signed-in player's account on the key's side. */
static void op_claim(srv *s, const srv_account *a, const char *id, const json_t *req, srv_reply *r)
{
    const char *key = srv_json_str(req, "key");
    int side;
    srv_game *g = srv_game_open(s, id, key ? key : "", &side, r);
    if (!g) {
        return;
    }
    if (side != SRV_SIDE_WHITE && side != SRV_SIDE_BLACK) {
        srv_game_unlock(g);
        srv_reply_error(r, 403, "a spectator's key plays no side");
        return;
    }
    if (g->row.mode == SRV_MODE_REVIEW) {
        srv_game_unlock(g);
        srv_reply_error(r, 409, "a game record is played by nobody");
        return;
    }
    if (g->account[side] && g->account[side] != a->id) {
        srv_game_unlock(g);
        srv_reply_error(r, 409, "this side is another account's");
        return;
    }
    if (g->account[1 - side] == a->id) {
        srv_game_unlock(g);
        srv_reply_error(r, 409, "you play the other side of this game");
        return;
    }
    if (!g->account[side] && srv_game_link(s, g, side, a->id, g->rated) != 0) {
        srv_game_unlock(g);
        srv_reply_error(r, 503, "the game was not stored");
        return;
    }
    r->status = 200;
    r->body = srv_game_state(g, side);
    srv_game_unlock(g);
}

int srv_csrf_refused(srv *s, const srv_request *q, srv_reply *r)
{
    if (!q->cookie) {
        return 0;
    }
    srv_account a;
    srv_account_of(s, q, &a);
    if (a.id && !a.csrf_ok) {
        srv_reply_error(r, 403, "missing or wrong CSRF token (X-CSRF-Token)");
        return 1;
    }
    return 0;
}

void srv_account_link_created(srv *s, const srv_request *q, srv_reply *r)
{
    if (r->status != 201 || !r->body || !q->cookie) {
        return;
    }
    srv_account a;
    srv_account_of(s, q, &a);
    if (!a.id || !a.csrf_ok) {
        return; /* played anonymously (no session; a session without its token is refused
                   before: srv_csrf_refused) */
    }
    const char *id = srv_json_str(r->body, "id"), *key = srv_json_str(r->body, "key");
    int side;
    srv_reply e = {0, NULL};
    srv_game *g = srv_game_open(s, id ? id : "", key ? key : "", &side, &e);
    json_decref(e.body);
    if (!g) {
        return;
    }
    if (side <= SRV_SIDE_BLACK && srv_game_link(s, g, side, a.id, 0) == 0) {
        json_object_set_new(r->body, "state", srv_game_state(g, side));
    }
    srv_game_unlock(g);
}

/* ---- routing ----------------------------------------------------------------------- */

/* The id of "ID" or "ID/ACTION" in id (cap bytes) and *action ("" none); -1 when the id
 * is empty or too long. */
int srv_path_split(const char *rest, char *id, size_t cap, const char **action)
{
    const char *slash = strchr(rest, '/');
    size_t idlen = slash ? (size_t)(slash - rest) : strlen(rest);
    if (idlen == 0 || idlen >= cap) {
        return -1;
    }
    memcpy(id, rest, idlen);
    id[idlen] = 0;
    *action = slash ? slash + 1 : "";
    return 0;
}

json_t *srv_post_json(const srv_request *q, const srv_account *a, srv_reply *r)
{
    if (strcmp(q->method, "POST") != 0) {
        srv_reply_error(r, 405, "use POST");
        return NULL;
    }
    if (a->id && !a->csrf_ok) {
        srv_reply_error(r, 403, "missing or wrong CSRF token (X-CSRF-Token)");
        return NULL;
    }
    return srv_read_json(q, r);
}

int srv_need_account(const srv_account *a, srv_reply *r)
{
    if (!a->id) {
        srv_reply_error(r, 401, "sign in first (no session, or it has expired)");
        return 0;
    }
    if (!a->csrf_ok) {
        srv_reply_error(r, 403, "missing or wrong CSRF token (X-CSRF-Token)");
        return 0;
    }
    return 1;
}

static void route_account(srv *s, const srv_request *q, const char *what, srv_reply *r)
{
    int post = !strcmp(q->method, "POST"), get = !strcmp(q->method, "GET");
    srv_account a;
    srv_account_of(s, q, &a);
    if (!*what) {
        if (!get) {
            srv_reply_error(r, 405, "use GET");
        } else if (!a.id) {
            r->status = 200;
            r->body = json_pack("{s:n}", "account");
        } else {
            char token[80], csrf[65];
            mg_get_cookie(q->cookie, COOKIE_NAME, token, sizeof token);
            csrf_of(csrf, token);
            signed_in_reply(s, a.id, 200, csrf, r);
        }
        return;
    }
    if (!strcmp(what, "lessons")) { /* the course's progress (srv_lessons.c) */
        srv_lessons_route(s, q, &a, r);
        return;
    }
    int known = !strcmp(what, "signup") || !strcmp(what, "login") || !strcmp(what, "logout") ||
                !strcmp(what, "lang");
    if (!known) {
        srv_reply_error(
            r, 404, "no such account action \"%s\" (signup, login, logout, lang, lessons)", what);
        return;
    }
    if (!post) {
        srv_reply_error(r, 405, "use POST");
        return;
    }
    if (!strcmp(what, "logout")) {
        if (a.id && !a.csrf_ok) {
            srv_reply_error(r, 403, "missing or wrong CSRF token (X-CSRF-Token)");
            return;
        }
        op_logout(s, q, r);
        return;
    }
    if (!strcmp(what, "lang") && !srv_need_account(&a, r)) {
        return;
    }
    json_t *req = srv_read_json(q, r);
    if (!req) {
        return;
    }
    if (!strcmp(what, "signup")) {
        op_signup(s, q, req, r);
    } else if (!strcmp(what, "login")) {
        op_login(s, q, req, r);
    } else {
        op_lang(s, &a, req, r);
    }
    json_decref(req);
}

int srv_community_route(srv *s, const srv_request *q, srv_reply *r)
{
    const char *path = q->path;
    char buf[128];
    if (!s->comm) {
        return 0;
    }
    if (!strcmp(path, "account") || !strncmp(path, "account/", 8)) {
        route_account(s, q, path[7] ? path + 8 : "", r);
        return 1;
    }
    if (!strncmp(path, "users/", 6)) {
        if (strcmp(q->method, "GET")) {
            srv_reply_error(r, 405, "use GET");
        } else if (!valid_name(path + 6)) {
            srv_reply_error(r, 404, "no such account");
        } else {
            op_profile(s, path + 6, r);
        }
        return 1;
    }
    if (!strcmp(path, "leaderboard")) {
        srv_query_var(q->query, "kind", buf, sizeof buf);
        if (strcmp(q->method, "GET")) {
            srv_reply_error(r, 405, "use GET");
        } else {
            op_leaderboard(s, buf, r);
        }
        return 1;
    }
    if (!strcmp(path, "puzzles") || !strncmp(path, "puzzles/", 8)) {
        srv_puzzles_route(s, q, path[7] ? path + 8 : "", r);
        return 1;
    }
    if (!strcmp(path, "lobby") || !strncmp(path, "lobby/", 6)) {
        srv_lobby_route(s, q, path[5] ? path + 6 : "", r);
        return 1;
    }
    char id[32];
    const char *action;
    if (!strncmp(path, "games/", 6) && srv_path_split(path + 6, id, sizeof id, &action) == 0 &&
        !strcmp(action, "claim")) {
        if (strcmp(q->method, "POST")) {
            srv_reply_error(r, 405, "use POST");
            return 1;
        }
        srv_account a;
        srv_account_of(s, q, &a);
        if (!srv_need_account(&a, r)) {
            return 1;
        }
        json_t *req = srv_post_json(q, &a, r);
        if (req) {
            op_claim(s, &a, id, req, r);
            json_decref(req);
        }
        return 1;
    }
    return 0;
}

int srv_community_restore(srv *s, char *err, size_t errcap)
{
    pthread_once(&sodium_once, sodium_start);
    if (!sodium_ok) {
        snprintf(err, errcap, "libsodium cannot start (no randomness)");
        return -1;
    }
    srv_community *c = calloc(1, sizeof *c);
    if (!c) {
        snprintf(err, errcap, "out of memory");
        return -1;
    }
    pthread_mutex_init(&c->hash_mu, NULL);
    pthread_mutex_init(&c->limit_mu, NULL);
    srv_lobby_init(c);
    s->comm = c;
    srv_rating_restore(s);
    if (s->opt.puzzles && s->opt.puzzles[0]) {
        return srv_puzzles_load(s, s->opt.puzzles, err, errcap);
    }
    return 0;
}
