/* SPDX-License-Identifier: MIT
 * apps/serve/srv_db_pg.c: the games of `damier serve --pg URL` in PostgreSQL (libpq),
 * shared by every server given the same database.
 *
 * Schema (version 1 in meta.schema_version, as srv_db.c's; docs/WEB.md "Storage"):
 *   meta(key PRIMARY KEY, value)   schema_version, heartbeat (the newest server's)
 *   games(id PRIMARY KEY, keys, arbiter_key, mode, engine, variant, time control,
 *         start FEN, result, reason, end_t, draw_offer, takeback_offer, t0_wall,
 *         clocks, names, created, updated, seq)
 *   moves(game_id, ply, hub, t)    one row per event, PRIMARY KEY(game_id, ply)
 * A move is one transaction (its rows, the game's row, a NOTIFY); it is acknowledged
 * after COMMIT, which PostgreSQL makes durable (synchronous_commit on, its default).
 * Two servers storing an event of one game at the same index: the primary key lets
 * one commit, the other gets unique_violation (SRV_DB_CONFLICT).
 *
 * NOTIFY damier_games 'ID EVENTS' is sent inside each transaction that changes a game
 * (so it is delivered at COMMIT, never for a rolled back change); each server's
 * listener thread (its own connection, LISTEN damier_games) skips its own notices
 * (the sender's backend pid is the store connection's) and passes the others on. */
#define _POSIX_C_SOURCE 200809L
#include "srv_pg.h"

#include <poll.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <libpq-fe.h>

#define PG_SCHEMA_VERSION 1
#define PG_CHANNEL "damier_games"

struct srv_pg {
    PGconn *c; /* the store's connection (srv_db.c's mutex) */
    char url[1024];
    atomic_int pid; /* c's backend pid: the notices this server sent */
    pthread_t th;
    PGconn *lc; /* the listener's connection (its thread's) */
    int listening;
    atomic_int stop;
    void (*fn)(void *, const char *, int);
    void *payload;
};

static const char *schema_sql =
    "SELECT pg_advisory_lock(7304112);"
    "CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);"
    "CREATE TABLE IF NOT EXISTS games("
    " id TEXT PRIMARY KEY,"
    " white_key TEXT NOT NULL, black_key TEXT NOT NULL, spectator_key TEXT NOT NULL,"
    " arbiter_key TEXT NOT NULL DEFAULT '',"
    " mode TEXT NOT NULL, engine_side INTEGER NOT NULL, engine_level INTEGER NOT NULL,"
    " variant TEXT NOT NULL, time_control TEXT NOT NULL, start_fen TEXT NOT NULL,"
    " result TEXT NOT NULL, reason TEXT NOT NULL, end_t BIGINT NOT NULL,"
    " draw_offer INTEGER NOT NULL, takeback_offer INTEGER NOT NULL DEFAULT -1,"
    " t0_wall BIGINT NOT NULL, white_ms BIGINT, black_ms BIGINT,"
    " white_name TEXT NOT NULL DEFAULT '', black_name TEXT NOT NULL DEFAULT '',"
    " lang TEXT NOT NULL DEFAULT 'en',"
    " created BIGINT NOT NULL, updated BIGINT NOT NULL, seq BIGSERIAL);"
    "CREATE TABLE IF NOT EXISTS moves("
    " game_id TEXT NOT NULL REFERENCES games(id), ply INTEGER NOT NULL,"
    " hub TEXT NOT NULL, t BIGINT NOT NULL, PRIMARY KEY(game_id, ply));"
    "CREATE INDEX IF NOT EXISTS games_created ON games(created, seq);"
    "INSERT INTO meta VALUES('schema_version', '1') ON CONFLICT(key) DO NOTHING;"
    "SELECT pg_advisory_unlock(7304112);";

static void pg_err(char *err, size_t cap, PGconn *c, const char *what)
{
    if (err && cap) {
        const char *m = c ? PQerrorMessage(c) : "?";
        size_t n = strlen(m);
        while (n > 0 && (m[n - 1] == '\n' || m[n - 1] == ' ')) {
            n--;
        }
        snprintf(err, cap, "PostgreSQL: %s: %.*s", what, (int)n, m);
    }
}

/* The connection, made again when the server went away; 0 or -1. */
static int pg_ready(srv_pg *p)
{
    if (PQstatus(p->c) == CONNECTION_OK) {
        return 0;
    }
    PQreset(p->c);
    if (PQstatus(p->c) != CONNECTION_OK) {
        return -1;
    }
    atomic_store(&p->pid, PQbackendPID(p->c));
    return 0;
}

/* Run sql with n text parameters; 0 when it succeeded; *state gets the SQLSTATE of a
 * failure (may be NULL). */
static int run(srv_pg *p, const char *sql, int n, const char *const *v, char *state, size_t cap)
{
    PGresult *res = PQexecParams(p->c, sql, n, NULL, v, NULL, NULL, 0);
    ExecStatusType st = PQresultStatus(res);
    int ok = st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK;
    if (!ok && state && cap) {
        const char *s = PQresultErrorField(res, PG_DIAG_SQLSTATE);
        snprintf(state, cap, "%s", s ? s : "");
    }
    PQclear(res);
    return ok ? 0 : -1;
}

static int simple(srv_pg *p, const char *sql)
{
    return run(p, sql, 0, NULL, NULL, 0);
}

srv_pg *srv_pg_open(const char *url, char *err, size_t errcap)
{
    srv_pg *p = calloc(1, sizeof *p);
    if (!p) {
        snprintf(err, errcap, "out of memory");
        return NULL;
    }
    snprintf(p->url, sizeof p->url, "%s", url);
    p->c = PQconnectdb(url);
    if (PQstatus(p->c) != CONNECTION_OK) {
        pg_err(err, errcap, p->c, "connect");
        srv_pg_close(p);
        return NULL;
    }
    atomic_store(&p->pid, PQbackendPID(p->c));
    PGresult *res = PQexec(p->c, "SET client_min_messages=warning");
    PQclear(res);
    res = PQexec(p->c, schema_sql);
    int ok = PQresultStatus(res) == PGRES_TUPLES_OK || PQresultStatus(res) == PGRES_COMMAND_OK;
    PQclear(res);
    if (!ok) {
        pg_err(err, errcap, p->c, "schema");
        srv_pg_close(p);
        return NULL;
    }
    res = PQexec(p->c, "SELECT value FROM meta WHERE key='schema_version'");
    int version = PQresultStatus(res) == PGRES_TUPLES_OK && PQntuples(res) == 1
                      ? atoi(PQgetvalue(res, 0, 0))
                      : -1;
    PQclear(res);
    if (version != PG_SCHEMA_VERSION) {
        snprintf(err, errcap, "PostgreSQL: schema version %d, this damier's is %d", version,
                 PG_SCHEMA_VERSION);
        srv_pg_close(p);
        return NULL;
    }
    return p;
}

void srv_pg_close(srv_pg *p)
{
    if (!p) {
        return;
    }
    srv_pg_unlisten(p);
    PQfinish(p->c);
    free(p);
}

static const char *mode_name(int mode)
{
    return mode == SRV_MODE_ENGINE ? "engine" : mode == SRV_MODE_HUMAN ? "human" : "review";
}

static int mode_of(const char *s)
{
    return !strcmp(s, "engine")  ? SRV_MODE_ENGINE
           : !strcmp(s, "human") ? SRV_MODE_HUMAN
                                 : SRV_MODE_REVIEW;
}

/* Numbers as parameters: each in its own 24 bytes. */
typedef char num[24];

static const char *put(num n, int64_t v)
{
    snprintf(n, sizeof(num), "%lld", (long long)v);
    return n;
}

static int notify(srv_pg *p, const char *id, int events)
{
    char msg[64];
    snprintf(msg, sizeof msg, "%s %d", id, events);
    const char *v[] = {msg};
    return run(p, "SELECT pg_notify('" PG_CHANNEL "', $1)", 1, v, NULL, 0);
}

static int update_row(srv_pg *p, const srv_game_row *r)
{
    num a, b, c, d, e;
    const char *v[] = {r->result,
                       r->reason,
                       put(a, r->end_t),
                       put(b, r->draw_offer),
                       put(c, r->t0_wall),
                       put(d, srv_wall_ms()),
                       put(e, r->takeback_offer),
                       r->id};
    return run(p,
               "UPDATE games SET result=$1, reason=$2, end_t=$3, draw_offer=$4, t0_wall=$5, "
               "updated=$6, takeback_offer=$7 WHERE id=$8",
               8, v, NULL, 0);
}

static int insert_move(srv_pg *p, const char *id, int ply, const srv_move_row *m, char *state,
                       size_t cap)
{
    num a, b;
    const char *v[] = {id, put(a, ply), m->hub, put(b, m->t)};
    return run(p, "INSERT INTO moves(game_id, ply, hub, t) VALUES($1,$2,$3,$4)", 4, v, state, cap);
}

static int finish(srv_pg *p, int rc, const char *what, char *err, size_t errcap)
{
    if (rc == 0 && simple(p, "COMMIT") == 0) {
        return 0;
    }
    pg_err(err, errcap, p->c, what);
    simple(p, "ROLLBACK");
    return -1;
}

int srv_pg_insert_game(srv_pg *p, const srv_game_row *r, const srv_move_row *moves, int n,
                       char *err, size_t errcap)
{
    if (pg_ready(p) != 0) {
        pg_err(err, errcap, p->c, "connect");
        return -1;
    }
    int rc = simple(p, "BEGIN");
    if (rc == 0) {
        num a, b, c, d, e, f, g;
        const char *v[] = {r->id,
                           r->keys[0],
                           r->keys[1],
                           r->keys[2],
                           mode_name(r->mode),
                           put(a, r->engine_side),
                           put(b, r->level),
                           r->variant,
                           r->time_control,
                           r->start_fen,
                           r->result,
                           r->reason,
                           put(c, r->end_t),
                           put(d, r->draw_offer),
                           put(e, r->t0_wall),
                           r->white_name,
                           r->black_name,
                           put(f, r->created),
                           put(g, r->takeback_offer),
                           r->keys[SRV_SIDE_ARBITER]};
        rc = run(p,
                 "INSERT INTO games(id, white_key, black_key, spectator_key, mode, "
                 "engine_side, engine_level, variant, time_control, start_fen, result, reason, "
                 "end_t, draw_offer, t0_wall, white_name, black_name, created, updated, "
                 "takeback_offer, arbiter_key) VALUES($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,"
                 "$13,$14,$15,$16,$17,$18,$18,$19,$20)",
                 20, v, NULL, 0);
    }
    for (int i = 0; rc == 0 && i < n; i++) {
        rc = insert_move(p, r->id, i, &moves[i], NULL, 0);
    }
    if (rc == 0) {
        rc = notify(p, r->id, n);
    }
    return finish(p, rc, "insert game", err, errcap);
}

int srv_pg_add_move(srv_pg *p, const srv_game_row *r, int first, const srv_move_row *m, int n,
                    int64_t white_ms, int64_t black_ms, char *err, size_t errcap)
{
    if (pg_ready(p) != 0) {
        pg_err(err, errcap, p->c, "connect");
        return -1;
    }
    char state[8] = "";
    int rc = simple(p, "BEGIN");
    for (int i = 0; rc == 0 && i < n; i++) {
        rc = insert_move(p, r->id, first + i, &m[i], state, sizeof state);
    }
    if (rc == 0) {
        rc = update_row(p, r);
    }
    if (rc == 0) {
        num a, b;
        const char *v[] = {put(a, white_ms), put(b, black_ms), r->id};
        rc = run(p, "UPDATE games SET white_ms=$1, black_ms=$2 WHERE id=$3", 3, v, NULL, 0);
    }
    if (rc == 0) {
        rc = notify(p, r->id, first + n);
    }
    if (rc != 0 && !strcmp(state, "23505")) { /* unique_violation: (game, ply) taken */
        snprintf(err, errcap, "event %d of game %s was stored by another server first", first,
                 r->id);
        simple(p, "ROLLBACK");
        return SRV_DB_CONFLICT;
    }
    return finish(p, rc, "add move", err, errcap);
}

int srv_pg_update_game(srv_pg *p, const srv_game_row *r, char *err, size_t errcap)
{
    if (pg_ready(p) != 0) {
        pg_err(err, errcap, p->c, "connect");
        return -1;
    }
    int rc = simple(p, "BEGIN");
    if (rc == 0) {
        rc = update_row(p, r);
    }
    if (rc == 0) {
        rc = notify(p, r->id, -1);
    }
    return finish(p, rc, "update game", err, errcap);
}

int srv_pg_heartbeat(srv_pg *p, int64_t wall_ms)
{
    if (pg_ready(p) != 0) {
        return -1;
    }
    num a;
    const char *v[] = {put(a, wall_ms)};
    return run(p,
               "INSERT INTO meta VALUES('heartbeat', $1) ON CONFLICT(key) DO UPDATE SET "
               "value=GREATEST(meta.value::bigint, excluded.value::bigint)::text",
               1, v, NULL, 0);
}

int64_t srv_pg_last_heartbeat(srv_pg *p)
{
    if (pg_ready(p) != 0) {
        return 0;
    }
    PGresult *res = PQexec(p->c, "SELECT value FROM meta WHERE key='heartbeat'");
    int64_t v = PQresultStatus(res) == PGRES_TUPLES_OK && PQntuples(res) == 1
                    ? strtoll(PQgetvalue(res, 0, 0), NULL, 10)
                    : 0;
    PQclear(res);
    return v;
}

static void col(char *dst, size_t cap, PGresult *res, int row, int c)
{
    snprintf(dst, cap, "%s", PQgetisnull(res, row, c) ? "" : PQgetvalue(res, row, c));
}

static int64_t icol(PGresult *res, int row, int c)
{
    return strtoll(PQgetvalue(res, row, c), NULL, 10);
}

int srv_pg_load(srv_pg *p, const char *id,
                void (*fn)(void *, const srv_game_row *, const srv_move_row *, int), void *payload,
                char *err, size_t errcap)
{
    if (pg_ready(p) != 0) {
        pg_err(err, errcap, p->c, "connect");
        return -1;
    }
    static const char *cols =
        "SELECT id, white_key, black_key, spectator_key, mode, engine_side, engine_level, "
        "variant, time_control, start_fen, result, reason, end_t, draw_offer, t0_wall, created, "
        "white_name, black_name, takeback_offer, arbiter_key FROM games ";
    char sql[512];
    snprintf(sql, sizeof sql, "%s%s", cols, id ? "WHERE id=$1" : "ORDER BY created, seq");
    const char *v[] = {id};
    PGresult *g = PQexecParams(p->c, sql, id ? 1 : 0, NULL, id ? v : NULL, NULL, NULL, 0);
    if (PQresultStatus(g) != PGRES_TUPLES_OK) {
        pg_err(err, errcap, p->c, "load");
        PQclear(g);
        return -1;
    }
    srv_move_row *moves = malloc(sizeof *moves * SRV_MAX_EVENTS);
    if (!moves) {
        snprintf(err, errcap, "out of memory");
        PQclear(g);
        return -1;
    }
    int found = 0, rc = 0;
    for (int i = 0; i < PQntuples(g) && rc == 0; i++) {
        srv_game_row r;
        memset(&r, 0, sizeof r);
        col(r.id, sizeof r.id, g, i, 0);
        for (int k = 0; k < 3; k++) {
            col(r.keys[k], sizeof r.keys[k], g, i, 1 + k);
        }
        r.mode = mode_of(PQgetvalue(g, i, 4));
        r.engine_side = (int)icol(g, i, 5);
        r.level = (int)icol(g, i, 6);
        col(r.variant, sizeof r.variant, g, i, 7);
        col(r.time_control, sizeof r.time_control, g, i, 8);
        col(r.start_fen, sizeof r.start_fen, g, i, 9);
        col(r.result, sizeof r.result, g, i, 10);
        col(r.reason, sizeof r.reason, g, i, 11);
        r.end_t = icol(g, i, 12);
        r.draw_offer = (int)icol(g, i, 13);
        r.t0_wall = icol(g, i, 14);
        r.created = icol(g, i, 15);
        col(r.white_name, sizeof r.white_name, g, i, 16);
        col(r.black_name, sizeof r.black_name, g, i, 17);
        r.takeback_offer = (int)icol(g, i, 18);
        col(r.keys[SRV_SIDE_ARBITER], sizeof r.keys[SRV_SIDE_ARBITER], g, i, 19);
        const char *mv[] = {r.id};
        PGresult *m = PQexecParams(p->c, "SELECT hub, t FROM moves WHERE game_id=$1 ORDER BY ply",
                                   1, NULL, mv, NULL, NULL, 0);
        if (PQresultStatus(m) != PGRES_TUPLES_OK) {
            pg_err(err, errcap, p->c, "load moves");
            rc = -1;
        } else {
            int n = PQntuples(m) < SRV_MAX_EVENTS ? PQntuples(m) : SRV_MAX_EVENTS;
            for (int k = 0; k < n; k++) {
                col(moves[k].hub, sizeof moves[k].hub, m, k, 0);
                moves[k].t = icol(m, k, 1);
            }
            fn(payload, &r, moves, n);
            found++;
        }
        PQclear(m);
    }
    free(moves);
    PQclear(g);
    return rc == 0 ? found : -1;
}

/* ---- the listener ----------------------------------------------------------------- */

static void nap_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* A connection that listens; NULL when it cannot be made. */
static PGconn *listen_conn(const char *url)
{
    PGconn *c = PQconnectdb(url);
    PGresult *res = PQstatus(c) == CONNECTION_OK ? PQexec(c, "LISTEN " PG_CHANNEL) : NULL;
    int ok = res && PQresultStatus(res) == PGRES_COMMAND_OK;
    PQclear(res);
    if (!ok) {
        PQfinish(c);
        return NULL;
    }
    return c;
}

static void *listener(void *arg)
{
    srv_pg *p = arg;
    PGconn *c = p->lc;
    while (!atomic_load(&p->stop)) {
        while (c && !atomic_load(&p->stop)) {
            struct pollfd pf = {PQsocket(c), POLLIN, 0};
            int pr = poll(&pf, 1, 100); /* the stop flag is looked at 10 times a second */
            if (pr < 0 || (pr > 0 && !PQconsumeInput(c))) {
                break; /* the connection went away: made again */
            }
            PGnotify *nt;
            while ((nt = PQnotifies(c)) != NULL) {
                char id[32];
                int events = -1;
                if (nt->be_pid != atomic_load(&p->pid) &&
                    sscanf(nt->extra, "%31s %d", id, &events) >= 1) {
                    p->fn(p->payload, id, events);
                }
                PQfreemem(nt);
            }
        }
        PQfinish(c);
        c = NULL;
        for (int i = 0; i < 10 && !atomic_load(&p->stop); i++) {
            nap_ms(100); /* a second between attempts to reconnect */
        }
        if (!atomic_load(&p->stop)) {
            c = listen_conn(p->url);
        }
    }
    PQfinish(c);
    return NULL;
}

int srv_pg_listen(srv_pg *p, void (*fn)(void *, const char *, int), void *payload, char *err,
                  size_t errcap)
{
    if (p->listening) {
        return 0;
    }
    p->fn = fn;
    p->payload = payload;
    /* listening before the games are read: no change after the read is missed */
    p->lc = listen_conn(p->url);
    if (!p->lc) {
        snprintf(err, errcap, "PostgreSQL: cannot LISTEN " PG_CHANNEL);
        return -1;
    }
    if (pthread_create(&p->th, NULL, listener, p) != 0) {
        PQfinish(p->lc);
        p->lc = NULL;
        snprintf(err, errcap, "cannot start the PostgreSQL listener thread");
        return -1;
    }
    p->listening = 1;
    return 0;
}

void srv_pg_unlisten(srv_pg *p)
{
    if (p && p->listening) {
        atomic_store(&p->stop, 1);
        pthread_join(p->th, NULL);
        p->listening = 0;
    }
}
