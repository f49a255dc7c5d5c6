/* SPDX-License-Identifier: MIT
 * apps/serve/srv_tourney.c: tournaments on the web board (issues 13 and 20): a round
 * robin (Berger tables) or a Swiss (Monrad) event paired by the tourney library
 * (damier/tourney.h), each pairing an ordinary game of the server:
 *   a person against a person: a game between two links;
 *   a person against the engine (an entrant with engine_level): an engine game;
 *   the engine against the engine: the game is played at once by the server
 *     (srv_engine_game.c) and kept as a review game, its result recorded.
 * Whenever the tournament is looked at (GET), the finished games' results are
 * recorded and, a round complete, the next one is paired and its games created.
 *   POST /api/tournaments {"name", "system": "roundrobin"|"swiss", "rounds" (swiss),
 *        "players": [{"name", "engine_level"?}], "time"?} -> 201 {"id", "key", "link",
 *        "players": [{"name", "link"}]}
 *   GET  /api/tournaments/ID?key=K -> standings, rounds, crosstable (the organiser's
 *        key: every player's link too; a player's key: "you", his current game)
 *   GET  /api/tournaments/ID/pdn?key=K -> every game played, as PDN.
 * A team event ("boards": N, "teams": [{"name", "players": [N players]}]) pairs the
 * teams; each match is N such games, the home team White on the odd boards.
 * Stored in the server's database (tables tournaments, tournament_players,
 * tournament_games); the event itself as a tournament file (docs/TOURNEY.md). */
#define _POSIX_C_SOURCE 200809L
#include "serve.h"
#include "srv_community.h"
#include "srv_community_int.h"

#include <civetweb.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <damier/tourney.h>

#define TOURNEY_MAX_PLAYERS 32 /* entrants: players, or teams */
#define TOURNEY_MAX_ROUNDS 20
#define TOURNEY_MAX_BOARDS 8
#define TOURNEY_MAX_SLOTS 128 /* entrants times boards */

static const char SCHEMA[] =
    "CREATE TABLE IF NOT EXISTS tournaments(id TEXT PRIMARY KEY, org_key TEXT NOT NULL,"
    " time TEXT NOT NULL, data TEXT NOT NULL, created INTEGER NOT NULL);"
    "CREATE TABLE IF NOT EXISTS tournament_players(tid TEXT NOT NULL, idx INTEGER NOT NULL,"
    " level INTEGER NOT NULL," /* 0 a person, else the engine's level */
    " pkey TEXT NOT NULL, name TEXT NOT NULL, PRIMARY KEY(tid, idx));"
    "CREATE TABLE IF NOT EXISTS tournament_games(tid TEXT NOT NULL, pairing INTEGER NOT NULL,"
    " game_id TEXT NOT NULL, white_key TEXT NOT NULL, black_key TEXT NOT NULL," /* '' engine */
    " arbiter_key TEXT NOT NULL, result TEXT NOT NULL, PRIMARY KEY(tid, pairing));";

/* one tournament's syncs at a time (its lock before a game's and the database's) */
static pthread_mutex_t tourney_mu = PTHREAD_MUTEX_INITIALIZER;

typedef struct tgame {
    char id[24];
    char key[3][40]; /* White's and Black's ("" the engine), the arbiter's */
    char res[16];    /* no game: the engine against the engine, White's and Black's points
                        played at once by the server ("2-0"), kept for a team match still going on
                        (the tournament file keeps only a whole match's boards) */
} tgame;

typedef struct tevent {
    char id[24], org_key[40], time[64];
    dm_tourney t;
    int nb; /* boards: 1 for individuals */
    /* the players, slot entrant * nb + board (0-based): individuals one an entrant, a
     * team's members by board */
    int level[TOURNEY_MAX_SLOTS];
    char pkey[TOURNEY_MAX_SLOTS][40];
    char name[TOURNEY_MAX_SLOTS][64];
    tgame *games; /* pairing * nb + board (id "" none: a bye, or the engine against itself) */
    int ngames;
} tevent;

/* The slots playing White and Black on board b (0-based) of pairing p: a team match's
 * home team has White on the odd boards (1, 3, ...). */
static void board_slots(const tevent *e, const dm_tourney_pairing *p, int b, int *ws, int *bs)
{
    int home = p->white * e->nb + b, away = p->black * e->nb + b;
    *ws = b % 2 ? away : home;
    *bs = b % 2 ? home : away;
}

static int schema(srv *s)
{
    srv_db_lock(s->db);
    int rc = sqlite3_exec(srv_db_sqlite(s->db), SCHEMA, NULL, NULL, NULL) == SQLITE_OK ? 0 : -1;
    srv_db_unlock(s->db);
    return rc;
}

static void tevent_free(tevent *e)
{
    dm_tourney_free(&e->t);
    free(e->games);
    e->games = NULL;
}

/* The key at the end of a game's link "/#/game/ID/KEY". */
static void link_key(const char *link, char *out, size_t cap)
{
    const char *k = link ? strrchr(link, '/') : NULL;
    snprintf(out, cap, "%s", k ? k + 1 : "");
}

/* Create the game of board b of pairing i (a person in it); 0, or -1 with r filled. */
static int create_game(srv *s, tevent *e, int i, int b, srv_reply *r)
{
    int w, bl;
    board_slots(e, &e->t.pairings[i], b, &w, &bl);
    json_t *g = json_pack("{s:s,s:s}", "white_name", e->name[w], "black_name", e->name[bl]);
    if (e->time[0]) {
        json_object_set_new(g, "time", json_string(e->time));
    }
    int person = SRV_SIDE_WHITE;
    if (e->level[w] || e->level[bl]) {
        person = e->level[w] ? SRV_SIDE_BLACK : SRV_SIDE_WHITE;
        json_object_set_new(g, "opponent", json_string("engine"));
        json_object_set_new(g, "side", json_string(person ? "black" : "white"));
        json_object_set_new(g, "level", json_integer(e->level[w] ? e->level[w] : e->level[bl]));
    } else {
        json_object_set_new(g, "opponent", json_string("human"));
        json_object_set_new(g, "side", json_string("white"));
    }
    srv_reply gr = {0, NULL};
    srv_op_create(s, g, &gr);
    json_decref(g);
    if (gr.status != 201) {
        *r = gr;
        return -1;
    }
    tgame *t = &e->games[i * e->nb + b];
    snprintf(t->id, sizeof t->id, "%s", srv_json_str(gr.body, "id"));
    snprintf(t->key[person], sizeof t->key[person], "%s", srv_json_str(gr.body, "key"));
    snprintf(t->key[2], sizeof t->key[2], "%s", srv_json_str(gr.body, "arbiter_key"));
    if (!e->level[w] && !e->level[bl]) {
        link_key(srv_json_str(json_object_get(gr.body, "links"), "black"), t->key[1],
                 sizeof t->key[1]);
    }
    json_decref(gr.body);
    return 0;
}

/* Record White's and Black's points wp, bp on board b of pairing i: the pairing's
 * result (individuals) or the board's (a team match, home player first). */
static int record(tevent *e, int i, int b, int out, int wp, int bp)
{
    dm_error err;
    if (!e->t.boards) {
        return dm_tourney_set_result(&e->t, i, out, wp, bp, &err) == DM_OK;
    }
    return dm_tourney_set_board(&e->t, i, b + 1, b % 2 ? bp : wp, b % 2 ? wp : bp, &err) == DM_OK;
}

/* The engines' games: tournaments with an engine-against-engine board to play, queued
 * by advance() (under tourney_mu) and played one game at a time by the runner's thread
 * (or by srv_tourney_step with no_threads), outside tourney_mu, as a game takes seconds. */
#define RUNNER_QUEUE 64

struct srv_tourney_runner {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    char ids[RUNNER_QUEUE][24];
    int n;
    pthread_t thread;
    int started, stopping;
};

static void *runner(void *arg);

/* Queue tournament id for its engines' games (once); under tourney_mu. A full queue
 * drops it: the next look at the tournament queues it again. */
static void wake(srv *s, const char *id)
{
    if (!s->trun) {
        s->trun = calloc(1, sizeof *s->trun);
        if (!s->trun) {
            return;
        }
        pthread_mutex_init(&s->trun->mu, NULL);
        pthread_cond_init(&s->trun->cv, NULL);
    }
    struct srv_tourney_runner *t = s->trun;
    pthread_mutex_lock(&t->mu);
    int have = 0;
    for (int i = 0; i < t->n && !have; i++) {
        have = !strcmp(t->ids[i], id);
    }
    if (!have && t->n < RUNNER_QUEUE && !t->stopping) {
        snprintf(t->ids[t->n++], sizeof t->ids[0], "%s", id);
        if (!t->started && !s->opt.no_threads && pthread_create(&t->thread, NULL, runner, s) == 0) {
            t->started = 1;
        }
        pthread_cond_signal(&t->cv);
    }
    pthread_mutex_unlock(&t->mu);
}

/* The next queued tournament into id: 1, or 0 when none (or stopping); blocking waits. */
static int next_queued(struct srv_tourney_runner *t, char *id, size_t cap, int blocking)
{
    pthread_mutex_lock(&t->mu);
    while (blocking && !t->stopping && t->n == 0) {
        pthread_cond_wait(&t->cv, &t->mu);
    }
    int got = !t->stopping && t->n > 0;
    if (got) {
        snprintf(id, cap, "%s", t->ids[0]);
        memmove(t->ids[0], t->ids[1], sizeof t->ids[0] * (size_t)(t->n - 1));
        t->n--;
    }
    pthread_mutex_unlock(&t->mu);
    return got;
}

/* The first board of e whose two players are engines and whose game is still to be
 * played (pairing * nb + board), or -1. */
static int engines_pending(const tevent *e)
{
    for (int k = 0; k < e->t.npairings * e->nb; k++) {
        int i = k / e->nb, b = k % e->nb, ws, bs;
        const dm_tourney_pairing *p = &e->t.pairings[i];
        if (p->outcome != DM_TOUT_PENDING || (e->t.boards && p->board_done[b]) ||
            e->games[k].id[0] || e->games[k].res[0]) {
            continue;
        }
        board_slots(e, p, b, &ws, &bs);
        if (e->level[ws] && e->level[bs]) {
            return k;
        }
    }
    return -1;
}

static int advance(srv *s, tevent *e, srv_reply *r);
static int save(srv *s, const tevent *e, int fresh);
static int load(srv *s, const char *id, tevent *e);

/* Play tournament id's next engines' game (srv_engine_game: a fixed budget per level, so
 * the same pairing gives the same game; kept as a review game whose link everyone sees),
 * then record its result and pair on. 1 when one was played, 0 when none is left, -1
 * when it could not be (the next look at the tournament queues it again). */
static int play_one(srv *s, const char *id, int max_depth)
{
    tevent e;
    pthread_mutex_lock(&tourney_mu);
    int k = load(s, id, &e) > 0 ? engines_pending(&e) : -1;
    char white[64], black[64], event[DM_TOURNEY_NAME_MAX], round[16];
    int lw = 0, lb = 0;
    if (k >= 0) {
        int ws, bs;
        board_slots(&e, &e.t.pairings[k / e.nb], k % e.nb, &ws, &bs);
        lw = e.level[ws];
        lb = e.level[bs];
        snprintf(white, sizeof white, "%s", e.name[ws]);
        snprintf(black, sizeof black, "%s", e.name[bs]);
        snprintf(event, sizeof event, "%s", e.t.event);
        snprintf(round, sizeof round, "%d", e.t.pairings[k / e.nb].round);
    }
    tevent_free(&e);
    pthread_mutex_unlock(&tourney_mu);
    if (k < 0) {
        return 0;
    }
    char gid[24], gkey[40], res[16], err[200];
    if (srv_engine_game(s, NULL, lw, lb, max_depth, white, black, event, round, gid, sizeof gid,
                        gkey, sizeof gkey, res, sizeof res, err, sizeof err) != 0) {
        return -1;
    }
    int played = -1;
    pthread_mutex_lock(&tourney_mu);
    if (load(s, id, &e) > 0 && engines_pending(&e) == k) {
        int out, wp, bp;
        tgame *g = &e.games[k];
        if (dm_tourney_result_from_text(&e.t, res, &out, &wp, &bp)) {
            snprintf(g->id, sizeof g->id, "%s", gid);
            snprintf(g->key[2], sizeof g->key[2], "%s", gkey);
            snprintf(g->res, sizeof g->res, "%d-%d", wp, bp);
            record(&e, k / e.nb, k % e.nb, out, wp, bp);
            srv_reply r = {0, NULL};
            if (advance(s, &e, &r) >= 0 && save(s, &e, 0) == 0) {
                played = 1;
            }
            json_decref(r.body);
        }
    }
    tevent_free(&e);
    pthread_mutex_unlock(&tourney_mu);
    return played;
}

static void *runner(void *arg)
{
    srv *s = arg;
    char id[24];
    while (next_queued(s->trun, id, sizeof id, 1)) {
        while (!srv_stopping(s) && play_one(s, id, 0) > 0) {
        }
    }
    return NULL;
}

int srv_tourney_step(srv *s, int max_depth)
{
    int played = 0;
    char id[24];
    pthread_mutex_lock(&tourney_mu);
    struct srv_tourney_runner *t = s->trun;
    pthread_mutex_unlock(&tourney_mu);
    while (t && s->opt.no_threads && next_queued(t, id, sizeof id, 0)) {
        while (play_one(s, id, max_depth) > 0) {
            played++;
        }
    }
    return played;
}

void srv_tourney_stop(srv *s)
{
    struct srv_tourney_runner *t = s->trun;
    if (!t) {
        return;
    }
    pthread_mutex_lock(&t->mu);
    t->stopping = 1;
    pthread_cond_broadcast(&t->cv);
    pthread_mutex_unlock(&t->mu);
    if (t->started) {
        pthread_join(t->thread, NULL);
    }
    pthread_mutex_destroy(&t->mu);
    pthread_cond_destroy(&t->cv);
    free(t);
    s->trun = NULL;
}

/* Record the finished games' results and pair the rounds that can be paired, creating
 * their games. Returns 1 when something changed, 0 when not, -1 with r filled. */
static int advance(srv *s, tevent *e, srv_reply *r)
{
    int changed = 0;
    for (;;) {
        dm_error err;
        for (int k = 0; k < e->t.npairings * e->nb; k++) {
            int i = k / e->nb, b = k % e->nb;
            const dm_tourney_pairing *p = &e->t.pairings[i];
            const tgame *g = &e->games[k];
            if (p->outcome != DM_TOUT_PENDING || (e->t.boards && p->board_done[b])) {
                continue;
            }
            int out, wp, bp;
            if (!g->id[0] || g->res[0]) { /* a bye, or the engines' game, played or not */
                int ws, bs;
                board_slots(e, p, b, &ws, &bs);
                if (!g->id[0] && !g->res[0] && e->level[ws] && e->level[bs]) {
                    wake(s, e->id); /* still to play (e.g. after a restart) */
                }
                if (g->res[0] && dm_tourney_result_from_text(&e->t, g->res, &out, &wp, &bp) &&
                    record(e, i, b, out, wp, bp)) {
                    changed = 1;
                }
                continue;
            }
            srv_reply gr = {0, NULL};
            srv_op_state(s, g->id, g->key[2], &gr);
            const char *res = gr.status == 200 ? srv_json_str(gr.body, "result") : NULL;
            if (res && strcmp(res, "*") != 0 &&
                dm_tourney_result_from_text(&e->t, res, &out, &wp, &bp) &&
                record(e, i, b, out, wp, bp)) {
                changed = 1;
            }
            json_decref(gr.body);
        }
        int cur = dm_tourney_current_round(&e->t);
        if (cur >= dm_tourney_total_rounds(&e->t)) {
            return changed;
        }
        for (int i = 0; i < e->t.npairings; i++) {
            if (e->t.pairings[i].outcome == DM_TOUT_PENDING) {
                return changed; /* the round goes on */
            }
        }
        int first = e->t.npairings;
        if (dm_tourney_pair_next(&e->t, NULL, &err) != DM_OK) {
            srv_reply_error(r, 500, "the round could not be paired: %s", err.message);
            return -1;
        }
        tgame *ng = realloc(e->games, sizeof *ng * (size_t)(e->t.npairings * e->nb));
        if (!ng) {
            srv_reply_error(r, 503, "out of memory");
            return -1;
        }
        e->games = ng;
        memset(e->games + first * e->nb, 0,
               sizeof *ng * (size_t)((e->t.npairings - first) * e->nb));
        e->ngames = e->t.npairings * e->nb;
        changed = 1;
        for (int i = first; i < e->t.npairings; i++) {
            dm_tourney_pairing *p = &e->t.pairings[i];
            if (p->outcome != DM_TOUT_PENDING) {
                continue; /* a bye */
            }
            for (int b = 0; b < e->nb; b++) {
                int ws, bs;
                board_slots(e, p, b, &ws, &bs);
                int lw = e->level[ws], lb = e->level[bs];
                if (lw && lb) { /* the engine against the engine: played by the runner */
                    wake(s, e->id);
                } else if (create_game(s, e, i, b, r) != 0) {
                    return -1;
                }
            }
        }
    }
}

/* Store e (a new one with its players when fresh); 0 or -1. Under the database lock. */
static int save(srv *s, const tevent *e, int fresh)
{
    char *data = NULL;
    if (dm_tourney_write(&data, NULL, &e->t) != DM_OK) {
        return -1;
    }
    srv_db_lock(s->db);
    sqlite3 *db = srv_db_sqlite(s->db);
    int ok = sqlite3_exec(db, "BEGIN", NULL, NULL, NULL) == SQLITE_OK;
    sqlite3_stmt *q = NULL;
    if (ok && sqlite3_prepare_v2(db, "INSERT OR REPLACE INTO tournaments VALUES(?,?,?,?,?)", -1, &q,
                                 NULL) == SQLITE_OK) {
        sqlite3_bind_text(q, 1, e->id, -1, SQLITE_STATIC);
        sqlite3_bind_text(q, 2, e->org_key, -1, SQLITE_STATIC);
        sqlite3_bind_text(q, 3, e->time, -1, SQLITE_STATIC);
        sqlite3_bind_text(q, 4, data, -1, SQLITE_STATIC);
        sqlite3_bind_int64(q, 5, srv_wall_ms());
        ok = sqlite3_step(q) == SQLITE_DONE;
    } else {
        ok = 0;
    }
    sqlite3_finalize(q);
    q = NULL;
    if (ok && fresh &&
        sqlite3_prepare_v2(db, "INSERT INTO tournament_players VALUES(?,?,?,?,?)", -1, &q, NULL) ==
            SQLITE_OK) {
        for (int i = 0; i < e->t.nentrants * e->nb; i++) {
            sqlite3_reset(q);
            sqlite3_bind_text(q, 1, e->id, -1, SQLITE_STATIC);
            sqlite3_bind_int(q, 2, i);
            sqlite3_bind_int(q, 3, e->level[i]);
            sqlite3_bind_text(q, 4, e->pkey[i], -1, SQLITE_STATIC);
            sqlite3_bind_text(q, 5, e->name[i], -1, SQLITE_STATIC);
            ok = ok && sqlite3_step(q) == SQLITE_DONE;
        }
    } else if (fresh) {
        ok = 0;
    }
    sqlite3_finalize(q);
    q = NULL;
    if (ok &&
        sqlite3_prepare_v2(db, "INSERT OR REPLACE INTO tournament_games VALUES(?,?,?,?,?,?,?)", -1,
                           &q, NULL) == SQLITE_OK) {
        for (int i = 0; i < e->ngames; i++) {
            sqlite3_reset(q);
            sqlite3_bind_text(q, 1, e->id, -1, SQLITE_STATIC);
            sqlite3_bind_int(q, 2, i);
            sqlite3_bind_text(q, 3, e->games[i].id, -1, SQLITE_STATIC);
            sqlite3_bind_text(q, 4, e->games[i].key[0], -1, SQLITE_STATIC);
            sqlite3_bind_text(q, 5, e->games[i].key[1], -1, SQLITE_STATIC);
            sqlite3_bind_text(q, 6, e->games[i].key[2], -1, SQLITE_STATIC);
            sqlite3_bind_text(q, 7, e->games[i].res, -1, SQLITE_STATIC);
            ok = ok && sqlite3_step(q) == SQLITE_DONE;
        }
    } else {
        ok = 0;
    }
    sqlite3_finalize(q);
    sqlite3_exec(db, ok ? "COMMIT" : "ROLLBACK", NULL, NULL, NULL);
    srv_db_unlock(s->db);
    free(data);
    return ok ? 0 : -1;
}

/* Load tournament id into e: 1, 0 when there is none, -1 on a read error. */
static int load(srv *s, const char *id, tevent *e)
{
    memset(e, 0, sizeof *e);
    dm_tourney_init(&e->t);
    srv_db_lock(s->db);
    sqlite3 *db = srv_db_sqlite(s->db);
    sqlite3_stmt *q = NULL;
    int rc = 0;
    sqlite3_prepare_v2(db, "SELECT org_key, time, data FROM tournaments WHERE id = ?", -1, &q,
                       NULL);
    sqlite3_bind_text(q, 1, id, -1, SQLITE_TRANSIENT);
    if (sqlite3_step(q) == SQLITE_ROW) {
        snprintf(e->id, sizeof e->id, "%s", id);
        snprintf(e->org_key, sizeof e->org_key, "%s", (const char *)sqlite3_column_text(q, 0));
        snprintf(e->time, sizeof e->time, "%s", (const char *)sqlite3_column_text(q, 1));
        const char *data = (const char *)sqlite3_column_text(q, 2);
        dm_error err;
        rc = dm_tourney_read(&e->t, data, strlen(data), &err) == DM_OK ? 1 : -1;
    }
    sqlite3_finalize(q);
    if (rc == 1) {
        e->nb = e->t.boards ? e->t.boards : 1;
        sqlite3_prepare_v2(db,
                           "SELECT idx, level, pkey, name FROM tournament_players WHERE tid = ?",
                           -1, &q, NULL);
        sqlite3_bind_text(q, 1, id, -1, SQLITE_TRANSIENT);
        while (sqlite3_step(q) == SQLITE_ROW) {
            int i = sqlite3_column_int(q, 0);
            if (i >= 0 && i < TOURNEY_MAX_SLOTS) {
                e->level[i] = sqlite3_column_int(q, 1);
                snprintf(e->pkey[i], sizeof e->pkey[i], "%s",
                         (const char *)sqlite3_column_text(q, 2));
                snprintf(e->name[i], sizeof e->name[i], "%s",
                         (const char *)sqlite3_column_text(q, 3));
            }
        }
        sqlite3_finalize(q);
        e->ngames = e->t.npairings * e->nb;
        e->games = calloc((size_t)(e->ngames ? e->ngames : 1), sizeof *e->games);
        if (!e->games) {
            rc = -1;
        } else {
            sqlite3_prepare_v2(
                db,
                "SELECT pairing, game_id, white_key, black_key, arbiter_key, result FROM"
                " tournament_games WHERE tid = ?",
                -1, &q, NULL);
            sqlite3_bind_text(q, 1, id, -1, SQLITE_TRANSIENT);
            while (sqlite3_step(q) == SQLITE_ROW) {
                int i = sqlite3_column_int(q, 0);
                if (i >= 0 && i < e->ngames) {
                    tgame *g = &e->games[i];
                    snprintf(g->id, sizeof g->id, "%s", (const char *)sqlite3_column_text(q, 1));
                    snprintf(g->key[0], sizeof g->key[0], "%s",
                             (const char *)sqlite3_column_text(q, 2));
                    snprintf(g->key[1], sizeof g->key[1], "%s",
                             (const char *)sqlite3_column_text(q, 3));
                    snprintf(g->key[2], sizeof g->key[2], "%s",
                             (const char *)sqlite3_column_text(q, 4));
                    snprintf(g->res, sizeof g->res, "%s", (const char *)sqlite3_column_text(q, 5));
                }
            }
            sqlite3_finalize(q);
        }
    }
    srv_db_unlock(s->db);
    if (rc != 1) {
        tevent_free(e);
    }
    return rc;
}

static json_t *player_link(const tevent *e, int i)
{
    char url[128];
    snprintf(url, sizeof url, "/#/tournament/%s/%s", e->id, e->pkey[i]);
    return json_string(url);
}

/* The players: name, engine_level or (who -1, the organiser) the link; a team
 * event's with their team and board. */
static json_t *players_json(const tevent *e, int who)
{
    json_t *players = json_array();
    for (int k = 0; k < e->t.nentrants * e->nb; k++) {
        json_t *o = json_pack("{s:s}", "name", e->name[k]);
        if (e->t.boards) {
            json_object_set_new(o, "team", json_string(e->t.entrants[k / e->nb].name));
            json_object_set_new(o, "board", json_integer(k % e->nb + 1));
        }
        if (e->level[k]) {
            json_object_set_new(o, "engine_level", json_integer(e->level[k]));
        } else if (who < 0) {
            json_object_set_new(o, "link", player_link(e, k));
        }
        json_array_append_new(players, o);
    }
    return players;
}

/* POST /api/tournaments */
/* A list "a, b ,c " made "a,b,c" in place (the library matches a category exactly). */
static void trim_list(char *l)
{
    char *w = l;
    for (const char *c = l; *c; c++) {
        if (*c == ' ' && (w == l || w[-1] == ',' || c[1] == ',' || c[1] == ' ' || !c[1])) {
            continue;
        }
        *w++ = *c;
    }
    *w = 0;
}

static void op_create(srv *s, const json_t *req, srv_reply *r)
{
    tevent e;
    memset(&e, 0, sizeof e);
    dm_tourney_init(&e.t);
    const char *name = srv_json_str(req, "name");
    const char *sys = srv_json_str(req, "system");
    const char *tc = srv_json_str(req, "time");
    const json_t *pl = json_object_get(req, "players");
    if (!sys || (strcmp(sys, "roundrobin") != 0 && strcmp(sys, "swiss") != 0)) {
        srv_reply_error(r, 400, "\"system\" must be \"roundrobin\" or \"swiss\"");
        goto out;
    }
    e.t.system = !strcmp(sys, "swiss") ? DM_TOURNEY_SWISS : DM_TOURNEY_ROUND_ROBIN;
    if (e.t.system == DM_TOURNEY_SWISS) {
        const json_t *rd = json_object_get(req, "rounds");
        if (!json_is_integer(rd) || json_integer_value(rd) < 1 ||
            json_integer_value(rd) > TOURNEY_MAX_ROUNDS) {
            srv_reply_error(r, 400, "\"rounds\" must be a whole number from 1 to %d",
                            TOURNEY_MAX_ROUNDS);
            goto out;
        }
        e.t.rounds = (int)json_integer_value(rd);
    }
    snprintf(e.t.event, sizeof e.t.event, "%s", name && *name ? name : "Tournament");
    srv_utf8_fix(e.t.event);
    if (tc && strlen(tc) >= sizeof e.time) {
        srv_reply_error(r, 400, "time control too long");
        goto out;
    }
    snprintf(e.time, sizeof e.time, "%s", tc ? tc : "");
    const json_t *teams = json_object_get(req, "teams");
    if (teams) { /* a team event: each team's players by board */
        const json_t *nb = json_object_get(req, "boards");
        if (!json_is_integer(nb) || json_integer_value(nb) < 1 ||
            json_integer_value(nb) > TOURNEY_MAX_BOARDS) {
            srv_reply_error(r, 400, "\"boards\" must be a whole number from 1 to %d",
                            TOURNEY_MAX_BOARDS);
            goto out;
        }
        e.nb = e.t.boards = (int)json_integer_value(nb);
        pl = teams;
    } else {
        e.nb = 1;
    }
    const char *what = teams ? "teams" : "players";
    if (!json_is_array(pl) || json_array_size(pl) < 2 ||
        json_array_size(pl) * (size_t)e.nb > TOURNEY_MAX_SLOTS ||
        json_array_size(pl) > TOURNEY_MAX_PLAYERS) {
        srv_reply_error(r, 400, "\"%s\" must be a list of 2 to %d %s (%d players in all)", what,
                        TOURNEY_MAX_PLAYERS, what, TOURNEY_MAX_SLOTS);
        goto out;
    }
    size_t i;
    const json_t *p;
    json_array_foreach(pl, i, p)
    {
        const char *pn = srv_json_str(p, "name");
        if (!pn || !*pn) {
            srv_reply_error(r, 400, "%s %zu has no \"name\"", teams ? "team" : "player", i + 1);
            goto out;
        }
        const json_t *members = teams ? json_object_get(p, "players") : NULL;
        if (teams && (!json_is_array(members) || (int)json_array_size(members) != e.nb)) {
            srv_reply_error(r, 400, "team %zu: \"players\" must list %d players, one a board",
                            i + 1, e.nb);
            goto out;
        }
        for (int b = 0; b < e.nb; b++) {
            const json_t *m = teams ? json_array_get(members, (size_t)b) : p;
            const char *mn = srv_json_str(m, "name");
            const json_t *lv = json_object_get(m, "engine_level");
            int slot = (int)i * e.nb + b;
            if (!mn || !*mn) {
                srv_reply_error(r, 400, "team %zu, board %d: no \"name\"", i + 1, b + 1);
                goto out;
            }
            if (lv && !json_is_null(lv) &&
                (!json_is_integer(lv) || json_integer_value(lv) < 1 ||
                 json_integer_value(lv) > 10)) {
                srv_reply_error(r, 400, "player %d: \"engine_level\" must be from 1 to 10",
                                slot + 1);
                goto out;
            }
            e.level[slot] = json_is_integer(lv) ? (int)json_integer_value(lv) : 0;
            snprintf(e.name[slot], sizeof e.name[slot], "%s", mn);
            srv_utf8_fix(e.name[slot]);
            srv_random_token(e.pkey[slot], 16);
        }
        dm_tourney_entrant en;
        memset(&en, 0, sizeof en);
        snprintf(en.name, sizeof en.name, "%s", pn);
        srv_utf8_fix(en.name);
        const json_t *sec = json_object_get(p, "section"), *cat = json_object_get(p, "categories");
        if ((sec && !json_is_string(sec)) || (cat && !json_is_string(cat)) ||
            strlen(srv_json_str(p, "section") ? srv_json_str(p, "section") : "") >=
                sizeof en.section ||
            strlen(srv_json_str(p, "categories") ? srv_json_str(p, "categories") : "") >=
                sizeof en.categories) {
            srv_reply_error(r, 400,
                            "%s %zu: \"section\" and \"categories\" must be texts of at most %zu "
                            "bytes",
                            teams ? "team" : "player", i + 1, sizeof en.section - 1);
            goto out;
        }
        snprintf(en.section, sizeof en.section, "%s", sec ? json_string_value(sec) : "");
        snprintf(en.categories, sizeof en.categories, "%s", cat ? json_string_value(cat) : "");
        srv_utf8_fix(en.section);
        srv_utf8_fix(en.categories);
        trim_list(en.categories);
        dm_error err;
        if (dm_tourney_add_entrant(&e.t, &en, &err) != DM_OK) {
            srv_reply_error(r, 400, "%s %zu: %s", teams ? "team" : "player", i + 1, err.message);
            goto out;
        }
    }
    if (schema(s) != 0) {
        srv_reply_error(r, 503, "the tournament was not stored");
        goto out;
    }
    srv_random_token(e.id, 6);
    srv_random_token(e.org_key, 16);
    pthread_mutex_lock(&tourney_mu);
    int rc = advance(s, &e, r); /* round 1 and its games: a bad time is refused here */
    if (rc >= 0 && save(s, &e, 1) != 0) {
        srv_reply_error(r, 503, "the tournament was not stored");
        rc = -1;
    }
    pthread_mutex_unlock(&tourney_mu);
    if (rc < 0) {
        goto out;
    }
    json_t *players = players_json(&e, -1);
    char url[96];
    snprintf(url, sizeof url, "/#/tournament/%s/%s", e.id, e.org_key);
    r->status = 201;
    r->body = json_pack("{s:s,s:s,s:s,s:o}", "id", e.id, "key", e.org_key, "link", url, "players",
                        players);
out:
    tevent_free(&e);
}

static const char *result_text(const tevent *e, const dm_tourney_pairing *p, char *buf, size_t cap)
{
    if (p->outcome == DM_TOUT_PENDING) {
        return "*";
    }
    if (p->outcome == DM_TOUT_BYE) {
        return "bye";
    }
    (void)e;
    snprintf(buf, cap, "%d-%d", p->score[0], p->score[1]);
    return buf;
}

/* Board b of pairing k: {"board", "white", "black", "result", "game"?, "white_link"?,
 * "black_link"?, "arbiter_link"?}, the links to who (a slot, -1 the organiser) only;
 * *current gets who's link while the game goes on. */
static json_t *board_json(const tevent *e, int k, int b, int who, json_t **current)
{
    const dm_tourney_pairing *p = &e->t.pairings[k];
    char buf[32];
    int ws = p->white * e->nb + b, bs = -1;
    const char *res = result_text(e, p, buf, sizeof buf);
    if (p->black >= 0) {
        board_slots(e, p, b, &ws, &bs);
    }
    if (e->t.boards && p->black >= 0) {
        res = "*";
        if (p->board_done[b]) {
            snprintf(buf, sizeof buf, "%d-%d", p->board[b][b % 2], p->board[b][1 - b % 2]);
            res = buf;
        }
    }
    json_t *pj = json_pack("{s:i,s:s,s:s,s:s}", "board", b + 1, "white", e->name[ws], "black",
                           bs >= 0 ? e->name[bs] : "", "result", res);
    const tgame *g = &e->games[k * e->nb + b];
    if (g->id[0]) {
        char url[128];
        json_object_set_new(pj, "game", json_string(g->id));
        if (g->res[0]) { /* the engines' game, played: its record for everyone */
            snprintf(url, sizeof url, "/#/game/%s/%s", g->id, g->key[2]);
            json_object_set_new(pj, "link", json_string(url));
        } else if (who < 0 && g->key[2][0]) { /* the organiser arbitrates: a result declared */
            snprintf(url, sizeof url, "/#/game/%s/%s", g->id, g->key[2]);
            json_object_set_new(pj, "arbiter_link", json_string(url));
        }
        for (int c = 0; c < 2; c++) {
            int pi = c ? bs : ws;
            /* each side's link to the organiser; the player's own to him */
            if (g->key[c][0] && (who < 0 || who == pi)) {
                snprintf(url, sizeof url, "/#/game/%s/%s", g->id, g->key[c]);
                json_object_set_new(pj, c ? "black_link" : "white_link", json_string(url));
                if (who == pi && !strcmp(res, "*")) {
                    json_decref(*current);
                    *current = json_string(url);
                }
            }
        }
    }
    return pj;
}

/* The number of distinct sections of t ("" the main group counts as one). */
static int section_count(const dm_tourney *t)
{
    int c = 0;
    for (int i = 0; i < t->nentrants; i++) {
        int seen = 0;
        for (int k = 0; k < i && !seen; k++) {
            seen = !strcmp(t->entrants[k].section, t->entrants[i].section);
        }
        c += !seen;
    }
    return c;
}

/* The standings (and, cross not NULL, the crosstable) of the entrants of section
 * (NULL: all) carrying category (NULL: all): standings [{"rank", "player", "name",
 * "points", "games", "tiebreaks"}]; crosstable [{"name", "player", "cells", "points"}],
 * row and column in entry order, a cell what the row's entrant scored against the
 * column's ("" not yet, "x" himself; a double round robin's two games joined by a
 * space). */
static void group_json(const tevent *e, const char *section, const char *category, const int *tbs,
                       int ntb, json_t **standings, json_t **cross)
{
    const dm_tourney *t = &e->t;
    dm_tourney_standing st[TOURNEY_MAX_PLAYERS];
    int ns = dm_tourney_standings(t, section, category, st, TOURNEY_MAX_PLAYERS);
    *standings = json_array();
    for (int i = 0; i < ns && i < TOURNEY_MAX_PLAYERS; i++) {
        json_t *tb = json_object();
        for (int k = 0; k < ntb; k++) {
            json_object_set_new(tb, dm_tourney_tiebreak_name(tbs[k]), json_real(st[i].tb[k]));
        }
        json_array_append_new(*standings, json_pack("{s:i,s:s,s:i,s:i,s:i,s:o}", "rank", st[i].rank,
                                                    "name", t->entrants[st[i].entrant].name,
                                                    "player", st[i].entrant, "points", st[i].points,
                                                    "games", st[i].games, "tiebreaks", tb));
    }
    if (!cross) {
        return;
    }
    int n = t->nentrants, members[TOURNEY_MAX_PLAYERS], m = 0;
    for (int i = 0; i < n && m < TOURNEY_MAX_PLAYERS; i++) {
        if (!section || !strcmp(t->entrants[i].section, section)) {
            members[m++] = i;
        }
    }
    *cross = json_array();
    for (int a = 0; a < m; a++) {
        int i = members[a];
        json_t *row = json_array();
        for (int c = 0; c < m; c++) {
            int j = members[c];
            char cell[32] = "";
            if (i == j) {
                snprintf(cell, sizeof cell, "x");
            }
            for (int k = 0; k < t->npairings && i != j; k++) {
                const dm_tourney_pairing *p = &t->pairings[k];
                int side = p->white == i && p->black == j   ? 0
                           : p->white == j && p->black == i ? 1
                                                            : -1;
                if (side < 0 || p->outcome == DM_TOUT_PENDING) {
                    continue;
                }
                size_t l = strlen(cell);
                snprintf(cell + l, sizeof cell - l, "%s%d", l ? " " : "", p->score[side]);
            }
            json_array_append_new(row, json_string(cell));
        }
        int total = 0;
        for (int k = 0; k < ns; k++) {
            if (st[k].entrant == i) {
                total = st[k].points;
            }
        }
        json_array_append_new(*cross, json_pack("{s:s,s:i,s:o,s:i}", "name", t->entrants[i].name,
                                                "player", i, "cells", row, "points", total));
    }
}

/* The tournament's view: who a player's slot, -1 the organiser. */
static json_t *view(const tevent *e, int who)
{
    const dm_tourney *t = &e->t;
    int n = t->nentrants;
    int tbs[DM_TOURNEY_MAX_TIEBREAKS];
    int ntb = t->ntiebreaks >= 0 ? t->ntiebreaks : dm_tourney_default_tiebreaks(t, tbs);
    if (t->ntiebreaks >= 0) {
        memcpy(tbs, t->tiebreaks, sizeof tbs);
    }
    json_t *standings = NULL, *cross = NULL;
    group_json(e, NULL, NULL, tbs, ntb, &standings, &cross);
    /* the sections, paired apart, each with its standings and crosstable; the categories
     * ranked among themselves (their tie-break values the whole event's) */
    json_t *sections = json_array(), *categories = json_array();
    for (int i = 0; i < n; i++) {
        const char *sec = t->entrants[i].section;
        int seen = 0;
        for (int k = 0; k < i && !seen; k++) {
            seen = !strcmp(t->entrants[k].section, sec);
        }
        if (!seen && (sec[0] || section_count(t) > 1)) {
            json_t *sst = NULL, *scr = NULL;
            group_json(e, sec, NULL, tbs, ntb, &sst, &scr);
            json_array_append_new(sections, json_pack("{s:s,s:o,s:o}", "name", sec, "standings",
                                                      sst, "crosstable", scr));
        }
        char cats[DM_TOURNEY_NAME_MAX];
        snprintf(cats, sizeof cats, "%s", t->entrants[i].categories);
        char *save = NULL;
        for (char *c = strtok_r(cats, ",", &save); c; c = strtok_r(NULL, ",", &save)) {
            int have = 0;
            size_t k;
            json_t *o;
            json_array_foreach(categories, k, o)
            {
                have = have || !strcmp(srv_json_str(o, "name"), c);
            }
            if (!have && *c) {
                json_t *cst = NULL;
                group_json(e, NULL, c, tbs, ntb, &cst, NULL);
                json_array_append_new(categories,
                                      json_pack("{s:s,s:o}", "name", c, "standings", cst));
            }
        }
    }
    json_t *rounds = json_array();
    json_t *current = json_null();
    for (int k = 0; k < t->npairings; k++) {
        const dm_tourney_pairing *p = &t->pairings[k];
        while ((int)json_array_size(rounds) < p->round) {
            json_array_append_new(rounds, json_pack("{s:i,s:[]}", "round",
                                                    (int)json_array_size(rounds) + 1, "pairings"));
        }
        char buf[32];
        json_t *pj;
        if (!t->boards || p->black < 0) {
            pj = board_json(e, k, 0, who, &current);
            if (p->black < 0) {
                json_object_set_new(pj, "black", json_string(""));
            }
        } else { /* a team match: its board points, and its boards */
            pj = json_pack("{s:s,s:s,s:s,s:[]}", "white", t->entrants[p->white].name, "black",
                           t->entrants[p->black].name, "result", result_text(e, p, buf, sizeof buf),
                           "boards");
            for (int b = 0; b < e->nb; b++) {
                json_array_append_new(json_object_get(pj, "boards"),
                                      board_json(e, k, b, who, &current));
            }
        }
        json_array_append_new(
            json_object_get(json_array_get(rounds, (size_t)p->round - 1), "pairings"), pj);
    }
    json_t *players = players_json(e, who);
    int cur = dm_tourney_current_round(t), total = dm_tourney_total_rounds(t);
    int finished = cur == total;
    for (int k = 0; k < t->npairings; k++) {
        finished = finished && t->pairings[k].outcome != DM_TOUT_PENDING;
    }
    json_t *v =
        json_pack("{s:s,s:s,s:s,s:i,s:i,s:i,s:b,s:o,s:o,s:o,s:o,s:o,s:o}", "id", e->id, "name",
                  t->event, "system", t->system == DM_TOURNEY_SWISS ? "swiss" : "roundrobin",
                  "round", cur, "rounds", total, "boards", t->boards, "finished", finished,
                  "players", players, "standings", standings, "crosstable", cross, "sections",
                  sections, "categories", categories, "pairings", rounds);
    if (who >= 0) {
        json_object_set_new(v, "you",
                            json_pack("{s:s,s:s,s:o}", "name", e->name[who], "entrant",
                                      t->entrants[who / e->nb].name, "game", current));
    } else {
        json_decref(current);
        json_object_set_new(v, "organiser", json_true());
    }
    return v;
}

/* Append bytes to text (len bytes, cap allocated); 0 or -1 (out of memory). */
static int append(char **text, size_t *len, size_t *cap, const char *b, size_t n)
{
    if (*len + n + 1 >= *cap) {
        size_t nc = (*len + n + 1) * 2;
        char *nt = realloc(*text, nc);
        if (!nt) {
            return -1;
        }
        *text = nt;
        *cap = nc;
    }
    memcpy(*text + *len, b, n);
    *len += n;
    (*text)[*len] = 0;
    return 0;
}

/* Append a game's PDN (one) to text with the event's name for "damier serve" and the
 * round for "?", then an empty line; 0 or -1 (out of memory). */
/* text as a PDN tag value (its \" and \\ escaped) into out. */
static void tag_value(const char *text, char *out, size_t cap)
{
    size_t n = 0;
    for (const char *c = text; *c && n + 3 < cap; c++) {
        if (*c == '"' || *c == '\\') {
            out[n++] = '\\';
        }
        out[n++] = *c;
    }
    out[n] = 0;
}

static int append_pdn(char **text, size_t *len, size_t *cap, const char *one, const char *event,
                      const char *section, int round)
{
    static const char ev[] = "[Event \"damier serve\"]\n", rd[] = "[Round \"?\"]\n";
    char tags[2 * DM_TOURNEY_NAME_MAX + 64], name[2 * DM_TOURNEY_NAME_MAX];
    tag_value(event, name, sizeof name);
    int rc = 0;
    if (!strncmp(one, ev, sizeof ev - 1)) {
        snprintf(tags, sizeof tags, "[Event \"%s\"]\n", name);
        rc |= append(text, len, cap, tags, strlen(tags));
        one += sizeof ev - 1;
    } else if (!strncmp(one, "[Event ", 7) && strchr(one, '\n')) { /* an engines' game */
        rc |= append(text, len, cap, one, (size_t)(strchr(one, '\n') + 1 - one));
        one = strchr(one, '\n') + 1;
    }
    if (section && *section) { /* PGN's supplemental tag: the playing section */
        tag_value(section, name, sizeof name);
        snprintf(tags, sizeof tags, "[Section \"%s\"]\n", name);
        rc |= append(text, len, cap, tags, strlen(tags));
    }
    const char *r = strstr(one, rd);
    const char *moves = strstr(one, "\n\n");
    if (r && (!moves || r < moves)) {
        snprintf(tags, sizeof tags, "[Round \"%d\"]\n", round);
        rc |= append(text, len, cap, one, (size_t)(r - one));
        rc |= append(text, len, cap, tags, strlen(tags));
        one = r + sizeof rd - 1;
    }
    rc |= append(text, len, cap, one, strlen(one));
    rc |= append(text, len, cap, "\n", 1);
    return rc ? -1 : 0;
}

/* GET /api/tournaments/ID[/pdn]?key=K */
static void op_show(srv *s, const char *id, const char *key, int pdn_wanted, char **pdn,
                    srv_reply *r)
{
    if (schema(s) != 0) {
        srv_reply_error(r, 503, "the tournament store cannot be read");
        return;
    }
    pthread_mutex_lock(&tourney_mu);
    tevent e;
    int rc = load(s, id, &e);
    if (rc == 0) {
        srv_reply_error(r, 404, "no tournament %s", id);
        goto unlock;
    }
    if (rc < 0) {
        srv_reply_error(r, 503, "the tournament %s cannot be read", id);
        goto unlock;
    }
    int who = -2;
    if (*key && !strcmp(key, e.org_key)) {
        who = -1;
    }
    for (int i = 0; i < e.t.nentrants * e.nb && who == -2 && *key; i++) {
        if (!e.level[i] && !strcmp(key, e.pkey[i])) {
            who = i;
        }
    }
    if (who == -2) {
        srv_reply_error(r, 403, "wrong key for tournament %s", id);
        goto done;
    }
    rc = advance(s, &e, r);
    if (rc > 0 && save(s, &e, 0) != 0) {
        srv_reply_error(r, 503, "the tournament was not stored");
        rc = -1;
    }
    if (rc < 0) {
        goto done;
    }
    if (pdn_wanted) {
        size_t len = 0, cap = 1024;
        char *text = malloc(cap);
        if (!text) {
            srv_reply_error(r, 503, "out of memory");
            goto done;
        }
        text[0] = 0;
        for (int i = 0; i < e.ngames; i++) {
            const tgame *g = &e.games[i];
            if (!g->id[0]) {
                continue;
            }
            char *one = NULL;
            srv_reply gr = {0, NULL};
            srv_op_pdn(s, g->id, g->key[2], &one, &gr);
            json_decref(gr.body);
            if (!one) {
                continue;
            }
            const dm_tourney_pairing *pp = &e.t.pairings[i / e.nb];
            int bad = append_pdn(&text, &len, &cap, one, e.t.event, e.t.entrants[pp->white].section,
                                 pp->round);
            free(one);
            if (bad) {
                free(text);
                srv_reply_error(r, 503, "out of memory");
                goto done;
            }
        }
        *pdn = text;
        r->status = 200;
        r->body = json_object();
        goto done;
    }
    r->status = 200;
    r->body = view(&e, who);
done:
    tevent_free(&e);
unlock:
    pthread_mutex_unlock(&tourney_mu);
}

void srv_tourney_route(srv *s, const srv_request *q, const char *what, srv_reply *r, char **pdn)
{
    if (!*what) {
        if (strcmp(q->method, "POST") != 0) {
            srv_reply_error(r, 405, "use POST to start a tournament");
            return;
        }
        srv_account a;
        srv_account_of(s, q, &a);
        json_t *req = srv_post_json(q, &a, r);
        if (req) {
            op_create(s, req, r);
            json_decref(req);
        }
        return;
    }
    char id[24];
    const char *action = "";
    if (srv_path_split(what, id, sizeof id, &action) != 0 ||
        (*action && strcmp(action, "pdn") != 0)) {
        srv_reply_error(r, 404, "no such tournament request");
        return;
    }
    if (strcmp(q->method, "GET") != 0) {
        srv_reply_error(r, 405, "use GET");
        return;
    }
    char key[64];
    srv_query_var(q->query, "key", key, sizeof key);
    op_show(s, id, key, *action != 0, pdn, r);
}
