/* SPDX-License-Identifier: MIT
 * apps/serve/srv_db.c: the games of `damier serve` in SQLite, WAL mode.
 *
 * Schema (version 1, in meta.schema_version; docs/WEB.md):
 *   meta(key PRIMARY KEY, value)          schema_version, heartbeat (wall ms)
 *   accounts(id, name, lang, created)     for accounts later; games point at them
 *   games(id, keys, mode, engine, variant, time control, start FEN, result,
 *         reason, end_t, draw_offer, t0_wall, created, updated, clocks, names,
 *         white_account, black_account, lang)
 *   moves(game_id, ply, hub, t)           one row per event: a move (hub text, unique),
 *                                         "undo" (a takeback), a touch-move or an
 *                                         arbiter's event (serve.h); ply = event index
 * (the arbiter's key, games.arbiter_key, is added by the community migrations).
 * A move is one transaction: its row and the game's row; the move is acknowledged
 * after COMMIT. With srv_db_open_pg the games and their events are in PostgreSQL
 * (srv_db_pg.c, the same tables) and this file keeps the server's own tables (accounts,
 * ratings, puzzles, the lobby, webhooks) and a copy of the rows of the games made here. With WAL and synchronous=NORMAL a commit survives the process being
 * killed (kill -9); FULL (--sync full) also a power loss. */
#define _POSIX_C_SOURCE 200809L
#include "serve.h"
#include "srv_community.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sqlite3.h>

#include "srv_pg.h"

#define SRV_SCHEMA_VERSION 1

struct srv_db {
    sqlite3 *db;
    pthread_mutex_t mu;
    sqlite3_stmt *add_move, *upd_game, *upd_clock, *heartbeat;
    srv_pg *pg; /* the shared game store (srv_db_pg.c), or NULL: the games in db */
};

int64_t srv_wall_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void db_err(char *err, size_t cap, sqlite3 *db, const char *what)
{
    if (err && cap) {
        snprintf(err, cap, "database: %s: %s", what, db ? sqlite3_errmsg(db) : "?");
    }
}

static const char *schema_sql =
    "CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);"
    "CREATE TABLE IF NOT EXISTS accounts("
    " id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, lang TEXT NOT NULL DEFAULT 'en',"
    " created INTEGER NOT NULL);"
    "CREATE TABLE IF NOT EXISTS games("
    " id TEXT PRIMARY KEY,"
    " white_key TEXT NOT NULL, black_key TEXT NOT NULL, spectator_key TEXT NOT NULL,"
    " mode TEXT NOT NULL,"            /* engine | human | review */
    " engine_side INTEGER NOT NULL,"  /* -1 none, 0 white, 1 black */
    " engine_level INTEGER NOT NULL," /* 1..10 */
    " variant TEXT NOT NULL,"
    " time_control TEXT NOT NULL,"  /* PDN TimeControl, '-' none */
    " start_fen TEXT NOT NULL,"     /* '' the initial position */
    " result TEXT NOT NULL,"        /* '*' ongoing, '2-0', '0-2', '1-1' */
    " reason TEXT NOT NULL,"        /* '' ongoing, else the reason's name */
    " end_t INTEGER NOT NULL,"      /* virtual ms of a declared end */
    " draw_offer INTEGER NOT NULL," /* -1 none, 0 white, 1 black */
    " takeback_offer INTEGER NOT NULL DEFAULT -1,"
    " t0_wall INTEGER NOT NULL,"           /* wall ms of the game's virtual time 0 */
    " white_ms INTEGER, black_ms INTEGER," /* clocks after the last move (display) */
    " white_name TEXT NOT NULL DEFAULT '', black_name TEXT NOT NULL DEFAULT '',"
    " white_account INTEGER REFERENCES accounts(id),"
    " black_account INTEGER REFERENCES accounts(id),"
    " lang TEXT NOT NULL DEFAULT 'en',"
    " created INTEGER NOT NULL, updated INTEGER NOT NULL);"
    "CREATE TABLE IF NOT EXISTS moves("
    " game_id TEXT NOT NULL REFERENCES games(id), ply INTEGER NOT NULL,"
    " hub TEXT NOT NULL, t INTEGER NOT NULL, PRIMARY KEY(game_id, ply));"
    "CREATE INDEX IF NOT EXISTS games_created ON games(created);";

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

srv_db *srv_db_open(const char *path, int sync_full, char *err, size_t errcap)
{
    srv_db *d = calloc(1, sizeof *d);
    if (!d) {
        snprintf(err, errcap, "out of memory");
        return NULL;
    }
    pthread_mutex_init(&d->mu, NULL);
    if (sqlite3_open_v2(path, &d->db,
                        SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX,
                        NULL) != SQLITE_OK) {
        db_err(err, errcap, d->db, path);
        srv_db_close(d);
        return NULL;
    }
    sqlite3_busy_timeout(d->db, 5000);
    char *msg = NULL;
    char sql[256];
    snprintf(sql, sizeof sql,
             "PRAGMA journal_mode=WAL; PRAGMA synchronous=%s; PRAGMA foreign_keys=ON;",
             sync_full ? "FULL" : "NORMAL");
    if (sqlite3_exec(d->db, sql, NULL, NULL, &msg) != SQLITE_OK ||
        sqlite3_exec(d->db, schema_sql, NULL, NULL, &msg) != SQLITE_OK) {
        snprintf(err, errcap, "database %s: %s", path, msg ? msg : "?");
        sqlite3_free(msg);
        srv_db_close(d);
        return NULL;
    }
    /* The schema version: written when new, refused when newer than this program. */
    sqlite3_stmt *st = NULL;
    int version = 0;
    if (sqlite3_prepare_v2(d->db, "SELECT value FROM meta WHERE key='schema_version'", -1, &st,
                           NULL) == SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW) {
        version = atoi((const char *)sqlite3_column_text(st, 0));
    }
    sqlite3_finalize(st);
    if (version == 0) {
        snprintf(sql, sizeof sql, "INSERT OR REPLACE INTO meta VALUES('schema_version','%d')",
                 SRV_SCHEMA_VERSION);
        if (sqlite3_exec(d->db, sql, NULL, NULL, &msg) != SQLITE_OK) {
            snprintf(err, errcap, "database %s: %s", path, msg ? msg : "?");
            sqlite3_free(msg);
            srv_db_close(d);
            return NULL;
        }
    } else if (version > SRV_SCHEMA_VERSION) {
        snprintf(err, errcap, "database %s: schema version %d is newer than this damier's (%d)",
                 path, version, SRV_SCHEMA_VERSION);
        srv_db_close(d);
        return NULL;
    }
    if (srv_community_schema(d->db, err, errcap) != 0) { /* accounts, ratings (srv_account.c) */
        srv_db_close(d);
        return NULL;
    }
    if (sqlite3_prepare_v2(d->db, "INSERT INTO moves(game_id, ply, hub, t) VALUES(?,?,?,?)", -1,
                           &d->add_move, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(d->db,
                           "UPDATE games SET result=?, reason=?, end_t=?, draw_offer=?, "
                           "t0_wall=?, updated=?, takeback_offer=? WHERE id=?",
                           -1, &d->upd_game, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(d->db, "UPDATE games SET white_ms=?, black_ms=? WHERE id=?", -1,
                           &d->upd_clock, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(d->db, "INSERT OR REPLACE INTO meta VALUES('heartbeat', ?)", -1,
                           &d->heartbeat, NULL) != SQLITE_OK) {
        db_err(err, errcap, d->db, "prepare");
        srv_db_close(d);
        return NULL;
    }
    return d;
}

void srv_db_close(srv_db *d)
{
    if (!d) {
        return;
    }
    srv_pg_close(d->pg); /* its listener first: it calls into the games */
    sqlite3_finalize(d->add_move);
    sqlite3_finalize(d->upd_game);
    sqlite3_finalize(d->upd_clock);
    sqlite3_finalize(d->heartbeat);
    sqlite3_close(d->db);
    pthread_mutex_destroy(&d->mu);
    free(d);
}

sqlite3 *srv_db_sqlite(srv_db *d)
{
    return d->db;
}

void srv_db_lock(srv_db *d)
{
    pthread_mutex_lock(&d->mu);
}

void srv_db_unlock(srv_db *d)
{
    pthread_mutex_unlock(&d->mu);
}

static int exec(srv_db *d, const char *sql)
{
    return sqlite3_exec(d->db, sql, NULL, NULL, NULL) == SQLITE_OK ? 0 : -1;
}

static int step_done(sqlite3_stmt *st)
{
    int rc = sqlite3_step(st);
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    return rc == SQLITE_DONE ? 0 : -1;
}

static int bind_update(srv_db *d, const srv_game_row *r)
{
    sqlite3_stmt *st = d->upd_game;
    sqlite3_bind_text(st, 1, r->result, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 2, r->reason, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(st, 3, r->end_t);
    sqlite3_bind_int(st, 4, r->draw_offer);
    sqlite3_bind_int64(st, 5, r->t0_wall);
    sqlite3_bind_int64(st, 6, srv_wall_ms());
    sqlite3_bind_int(st, 7, r->takeback_offer);
    sqlite3_bind_text(st, 8, r->id, -1, SQLITE_TRANSIENT);
    return step_done(st);
}

static int insert_move(srv_db *d, const char *id, int ply, const srv_move_row *m)
{
    sqlite3_stmt *st = d->add_move;
    sqlite3_bind_text(st, 1, id, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(st, 2, ply);
    sqlite3_bind_text(st, 3, m->hub, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(st, 4, m->t);
    return step_done(st);
}

static int sq_insert_game(srv_db *d, const srv_game_row *r, const srv_move_row *moves, int n,
                          char *err, size_t errcap)
{
    int rc = exec(d, "BEGIN IMMEDIATE");
    sqlite3_stmt *st = NULL;
    if (rc == 0) {
        rc = sqlite3_prepare_v2(
                 d->db,
                 "INSERT INTO games(id, white_key, black_key, spectator_key, mode, engine_side, "
                 "engine_level, variant, time_control, start_fen, result, reason, end_t, "
                 "draw_offer, t0_wall, white_name, black_name, created, updated, "
                 "takeback_offer, arbiter_key) VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                 -1, &st, NULL) == SQLITE_OK
                 ? 0
                 : -1;
    }
    if (rc == 0) {
        int k = 1;
        sqlite3_bind_text(st, k++, r->id, -1, SQLITE_TRANSIENT);
        for (int i = 0; i < 3; i++) {
            sqlite3_bind_text(st, k++, r->keys[i], -1, SQLITE_TRANSIENT);
        }
        sqlite3_bind_text(st, k++, mode_name(r->mode), -1, SQLITE_STATIC);
        sqlite3_bind_int(st, k++, r->engine_side);
        sqlite3_bind_int(st, k++, r->level);
        sqlite3_bind_text(st, k++, r->variant, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(st, k++, r->time_control, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(st, k++, r->start_fen, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(st, k++, r->result, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(st, k++, r->reason, -1, SQLITE_TRANSIENT);
        sqlite3_bind_int64(st, k++, r->end_t);
        sqlite3_bind_int(st, k++, r->draw_offer);
        sqlite3_bind_int64(st, k++, r->t0_wall);
        sqlite3_bind_text(st, k++, r->white_name, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(st, k++, r->black_name, -1, SQLITE_TRANSIENT);
        sqlite3_bind_int64(st, k++, r->created);
        sqlite3_bind_int64(st, k++, r->created);
        sqlite3_bind_int(st, k++, r->takeback_offer);
        sqlite3_bind_text(st, k++, r->keys[SRV_SIDE_ARBITER], -1, SQLITE_TRANSIENT);
        rc = sqlite3_step(st) == SQLITE_DONE ? 0 : -1;
    }
    sqlite3_finalize(st);
    for (int i = 0; rc == 0 && i < n; i++) {
        rc = insert_move(d, r->id, i, &moves[i]);
    }
    if (rc == 0) {
        rc = exec(d, "COMMIT");
    }
    if (rc != 0) {
        db_err(err, errcap, d->db, "insert game");
        exec(d, "ROLLBACK");
    }
    return rc;
}

int srv_db_insert_game(srv_db *d, const srv_game_row *r, const srv_move_row *moves, int n,
                       char *err, size_t errcap)
{
    pthread_mutex_lock(&d->mu);
    int rc;
    if (d->pg) {
        rc = srv_pg_insert_game(d->pg, r, moves, n, err, errcap);
        if (rc == 0) {
            /* the server's own copy of the row, without its events, for the tables that
             * stay in SQLite (an account's games, ratings): best effort */
            char e2[64];
            sq_insert_game(d, r, NULL, 0, e2, sizeof e2);
        }
    } else {
        rc = sq_insert_game(d, r, moves, n, err, errcap);
    }
    pthread_mutex_unlock(&d->mu);
    return rc;
}

int srv_db_add_move(srv_db *d, const srv_game_row *r, int first, const srv_move_row *m, int n,
                    int64_t white_ms, int64_t black_ms, char *err, size_t errcap)
{
    pthread_mutex_lock(&d->mu);
    if (d->pg) {
        int prc = srv_pg_add_move(d->pg, r, first, m, n, white_ms, black_ms, err, errcap);
        if (prc == 0) {
            bind_update(d, r); /* the local copy of the row (srv_db_insert_game) */
        }
        pthread_mutex_unlock(&d->mu);
        return prc;
    }
    int rc = exec(d, "BEGIN IMMEDIATE");
    for (int i = 0; rc == 0 && i < n; i++) {
        rc = insert_move(d, r->id, first + i, &m[i]);
    }
    if (rc == 0) {
        rc = bind_update(d, r);
    }
    if (rc == 0) {
        sqlite3_stmt *st = d->upd_clock;
        sqlite3_bind_int64(st, 1, white_ms);
        sqlite3_bind_int64(st, 2, black_ms);
        sqlite3_bind_text(st, 3, r->id, -1, SQLITE_TRANSIENT);
        rc = step_done(st);
    }
    if (rc == 0) {
        rc = exec(d, "COMMIT");
    }
    if (rc != 0) {
        /* an event at that index already: a unique (game, ply) conflict */
        int conflict = sqlite3_extended_errcode(d->db) == SQLITE_CONSTRAINT_PRIMARYKEY;
        db_err(err, errcap, d->db, "add move");
        exec(d, "ROLLBACK");
        rc = conflict ? SRV_DB_CONFLICT : -1;
    }
    pthread_mutex_unlock(&d->mu);
    return rc;
}

int srv_db_update_game(srv_db *d, const srv_game_row *r, char *err, size_t errcap)
{
    pthread_mutex_lock(&d->mu);
    int rc;
    if (d->pg) {
        rc = srv_pg_update_game(d->pg, r, err, errcap);
        if (rc == 0) {
            bind_update(d, r);
        }
    } else if ((rc = bind_update(d, r)) != 0) {
        db_err(err, errcap, d->db, "update game");
    }
    pthread_mutex_unlock(&d->mu);
    return rc;
}

int srv_db_heartbeat(srv_db *d, int64_t wall_ms)
{
    pthread_mutex_lock(&d->mu);
    int rc;
    if (d->pg) {
        rc = srv_pg_heartbeat(d->pg, wall_ms);
    } else {
        sqlite3_bind_int64(d->heartbeat, 1, wall_ms);
        rc = step_done(d->heartbeat);
    }
    pthread_mutex_unlock(&d->mu);
    return rc;
}

int64_t srv_db_last_heartbeat(srv_db *d)
{
    int64_t v = 0;
    sqlite3_stmt *st = NULL;
    pthread_mutex_lock(&d->mu);
    if (d->pg) {
        v = srv_pg_last_heartbeat(d->pg);
    } else if (sqlite3_prepare_v2(d->db, "SELECT value FROM meta WHERE key='heartbeat'", -1, &st,
                                  NULL) == SQLITE_OK &&
               sqlite3_step(st) == SQLITE_ROW) {
        v = sqlite3_column_int64(st, 0);
    }
    sqlite3_finalize(st);
    pthread_mutex_unlock(&d->mu);
    return v;
}

static void copy_col(char *dst, size_t cap, sqlite3_stmt *st, int col)
{
    const unsigned char *t = sqlite3_column_text(st, col);
    snprintf(dst, cap, "%s", t ? (const char *)t : "");
}

/* The games (id NULL: all, in creation order; else that one): the number found, or -1
 * with err. */
static int sq_load(srv_db *d, const char *id,
                   void (*fn)(void *, const srv_game_row *, const srv_move_row *, int),
                   void *payload, char *err, size_t errcap)
{
    sqlite3_stmt *g = NULL, *mv = NULL;
    int rc = 0, found = 0;
    if (sqlite3_prepare_v2(
            d->db,
            id ? "SELECT id, white_key, black_key, spectator_key, mode, engine_side, "
                 "engine_level, variant, time_control, start_fen, result, reason, "
                 "end_t, draw_offer, t0_wall, created, white_name, black_name, takeback_offer, "
                 "arbiter_key FROM games WHERE id=?"
               : "SELECT id, white_key, black_key, spectator_key, mode, engine_side, "
                 "engine_level, variant, time_control, start_fen, result, reason, "
                 "end_t, draw_offer, t0_wall, created, white_name, black_name, takeback_offer, "
                 "arbiter_key FROM games ORDER BY created, rowid",
            -1, &g, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(d->db, "SELECT hub, t FROM moves WHERE game_id=? ORDER BY ply", -1, &mv,
                           NULL) != SQLITE_OK) {
        db_err(err, errcap, d->db, "load");
        rc = -1;
    }
    srv_move_row *moves = rc == 0 ? malloc(sizeof *moves * SRV_MAX_EVENTS) : NULL;
    if (rc == 0 && !moves) {
        snprintf(err, errcap, "out of memory");
        rc = -1;
    }
    if (rc == 0 && id) {
        sqlite3_bind_text(g, 1, id, -1, SQLITE_TRANSIENT);
    }
    while (rc == 0 && sqlite3_step(g) == SQLITE_ROW) {
        srv_game_row r;
        memset(&r, 0, sizeof r);
        copy_col(r.id, sizeof r.id, g, 0);
        for (int i = 0; i < 3; i++) {
            copy_col(r.keys[i], sizeof r.keys[i], g, 1 + i);
        }
        char mode[16];
        copy_col(mode, sizeof mode, g, 4);
        r.mode = mode_of(mode);
        r.engine_side = sqlite3_column_int(g, 5);
        r.level = sqlite3_column_int(g, 6);
        copy_col(r.variant, sizeof r.variant, g, 7);
        copy_col(r.time_control, sizeof r.time_control, g, 8);
        copy_col(r.start_fen, sizeof r.start_fen, g, 9);
        copy_col(r.result, sizeof r.result, g, 10);
        copy_col(r.reason, sizeof r.reason, g, 11);
        r.end_t = sqlite3_column_int64(g, 12);
        r.draw_offer = sqlite3_column_int(g, 13);
        r.t0_wall = sqlite3_column_int64(g, 14);
        r.created = sqlite3_column_int64(g, 15);
        copy_col(r.white_name, sizeof r.white_name, g, 16);
        copy_col(r.black_name, sizeof r.black_name, g, 17);
        r.takeback_offer = sqlite3_column_int(g, 18);
        copy_col(r.keys[SRV_SIDE_ARBITER], sizeof r.keys[SRV_SIDE_ARBITER], g, 19);
        sqlite3_bind_text(mv, 1, r.id, -1, SQLITE_TRANSIENT);
        int n = 0;
        while (sqlite3_step(mv) == SQLITE_ROW && n < SRV_MAX_EVENTS) {
            copy_col(moves[n].hub, sizeof moves[n].hub, mv, 0);
            moves[n].t = sqlite3_column_int64(mv, 1);
            n++;
        }
        sqlite3_reset(mv);
        fn(payload, &r, moves, n);
        found++;
    }
    free(moves);
    sqlite3_finalize(g);
    sqlite3_finalize(mv);
    return rc == 0 ? found : -1;
}

int srv_db_load(srv_db *d, void (*fn)(void *, const srv_game_row *, const srv_move_row *, int),
                void *payload, char *err, size_t errcap)
{
    pthread_mutex_lock(&d->mu);
    int rc = d->pg ? srv_pg_load(d->pg, NULL, fn, payload, err, errcap)
                   : sq_load(d, NULL, fn, payload, err, errcap);
    pthread_mutex_unlock(&d->mu);
    return rc < 0 ? -1 : 0;
}

int srv_db_load_game(srv_db *d, const char *id,
                     void (*fn)(void *, const srv_game_row *, const srv_move_row *, int),
                     void *payload, char *err, size_t errcap)
{
    pthread_mutex_lock(&d->mu);
    int rc = d->pg ? srv_pg_load(d->pg, id, fn, payload, err, errcap)
                   : sq_load(d, id, fn, payload, err, errcap);
    pthread_mutex_unlock(&d->mu);
    return rc < 0 ? -1 : rc > 0;
}

srv_db *srv_db_open_pg(const char *path, const char *url, int sync_full, char *err, size_t errcap)
{
    srv_db *d = srv_db_open(path, sync_full, err, errcap);
    if (!d) {
        return NULL;
    }
    d->pg = srv_pg_open(url, err, errcap);
    if (!d->pg) {
        srv_db_close(d);
        return NULL;
    }
    return d;
}

int srv_db_shared(const srv_db *d)
{
    return d->pg != NULL;
}

int srv_db_listen(srv_db *d, void (*fn)(void *, const char *, int), void *payload, char *err,
                  size_t errcap)
{
    return d->pg ? srv_pg_listen(d->pg, fn, payload, err, errcap) : 0;
}

void srv_db_unlisten(srv_db *d)
{
    if (d) {
        srv_pg_unlisten(d->pg);
    }
}
