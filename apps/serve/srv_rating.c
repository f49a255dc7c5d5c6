/* SPDX-License-Identifier: MIT
 * apps/serve/srv_rating.c: the ratings of `damier serve`'s accounts (issue 19): a game
 * linked to accounts, a rated game's end updating both players' Glicko-2 ratings
 * (src/rating, damier/rating.h) of the game's kind, the players shown in a game's
 * state. docs/WEB.md "Ratings".
 *
 * Each rated game is a rating period of its own (as lidraughts does): both players
 * are updated from their ratings before the game, in one transaction with the
 * game's row of rating_changes, whose key (game, account) makes it happen once; a
 * game that ended while the server was down is rated at the next start. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <damier/rating.h>

#include "srv_community_int.h"

const char *srv_rating_kind(const char *variant)
{
    return variant && *variant ? variant : "international";
}

/* The account's rating of kind, the defaults when none is stored. Under the
 * database's lock. */
void srv_rating_get(sqlite3 *db, int64_t account, const char *kind, dm_glicko *out, int *games)
{
    dm_glicko init = DM_GLICKO_INIT;
    *out = init;
    *games = 0;
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(db,
                           "SELECT rating, rd, vol, games FROM ratings WHERE account_id=? AND "
                           "kind=?",
                           -1, &st, NULL) == SQLITE_OK) {
        sqlite3_bind_int64(st, 1, account);
        sqlite3_bind_text(st, 2, kind, -1, SQLITE_TRANSIENT);
        if (sqlite3_step(st) == SQLITE_ROW) {
            out->rating = sqlite3_column_double(st, 0);
            out->rd = sqlite3_column_double(st, 1);
            out->vol = sqlite3_column_double(st, 2);
            *games = sqlite3_column_int(st, 3);
        }
    }
    sqlite3_finalize(st);
}

int srv_rating_of(srv *s, int64_t account, const char *kind)
{
    dm_glicko g;
    int n;
    srv_db_lock(s->db);
    srv_rating_get(srv_db_sqlite(s->db), account, kind, &g, &n);
    srv_db_unlock(s->db);
    return (int)(g.rating + 0.5);
}

/* One side of the players' JSON; under the database's lock. */
static json_t *player_json(sqlite3 *db, const char *game, int64_t account, const char *kind)
{
    if (!account) {
        return json_null();
    }
    sqlite3_stmt *st = NULL;
    json_t *p = NULL;
    if (sqlite3_prepare_v2(db, "SELECT name, title FROM accounts WHERE id=?", -1, &st, NULL) ==
        SQLITE_OK) {
        sqlite3_bind_int64(st, 1, account);
        if (sqlite3_step(st) == SQLITE_ROW) {
            p = json_pack("{s:s,s:s}", "name", (const char *)sqlite3_column_text(st, 0), "title",
                          (const char *)sqlite3_column_text(st, 1));
        }
    }
    sqlite3_finalize(st);
    if (!p) {
        return json_null();
    }
    int done = 0;
    if (sqlite3_prepare_v2(db,
                           "SELECT rating_before, rating_after, rd_after FROM rating_changes "
                           "WHERE game_id=? AND account_id=?",
                           -1, &st, NULL) == SQLITE_OK) {
        sqlite3_bind_text(st, 1, game, -1, SQLITE_TRANSIENT);
        sqlite3_bind_int64(st, 2, account);
        if (sqlite3_step(st) == SQLITE_ROW) {
            int before = (int)(sqlite3_column_double(st, 0) + 0.5);
            int after = (int)(sqlite3_column_double(st, 1) + 0.5);
            json_object_set_new(p, "rating", json_integer(before));
            json_object_set_new(p, "after", json_integer(after));
            json_object_set_new(p, "change", json_integer(after - before));
            json_object_set_new(p, "rd", json_integer((int)(sqlite3_column_double(st, 2) + 0.5)));
            done = 1;
        }
    }
    sqlite3_finalize(st);
    if (!done) {
        dm_glicko g;
        int n;
        srv_rating_get(db, account, kind, &g, &n);
        json_object_set_new(p, "rating", json_integer((int)(g.rating + 0.5)));
        json_object_set_new(p, "rd", json_integer((int)(g.rd + 0.5)));
    }
    return p;
}

json_t *srv_players_json(srv *s, srv_game *g)
{
    if (!g->account[0] && !g->account[1]) {
        return NULL;
    }
    const char *kind = srv_rating_kind(g->row.variant);
    srv_db_lock(s->db);
    sqlite3 *db = srv_db_sqlite(s->db);
    json_t *out = json_pack("{s:b,s:s,s:o,s:o}", "rated", g->rated, "kind", kind, "white",
                            player_json(db, g->row.id, g->account[0], kind), "black",
                            player_json(db, g->row.id, g->account[1], kind));
    srv_db_unlock(s->db);
    return out;
}

static void refresh_players(srv *s, srv_game *g)
{
    json_decref(g->players);
    g->players = srv_players_json(s, g);
}

int srv_game_link(srv *s, srv_game *g, int side, int64_t account, int rated)
{
    sqlite3 *db = srv_db_sqlite(s->db);
    char name[64] = "";
    sqlite3_stmt *st = NULL;
    int rc = -1;
    srv_db_lock(s->db);
    if (sqlite3_prepare_v2(db, "SELECT name FROM accounts WHERE id=?", -1, &st, NULL) ==
        SQLITE_OK) {
        sqlite3_bind_int64(st, 1, account);
        if (sqlite3_step(st) == SQLITE_ROW) {
            snprintf(name, sizeof name, "%s", (const char *)sqlite3_column_text(st, 0));
        }
    }
    sqlite3_finalize(st);
    const char *sql = side == SRV_SIDE_WHITE
                          ? "UPDATE games SET white_account=?, rated=?, white_name=? WHERE id=?"
                          : "UPDATE games SET black_account=?, rated=?, black_name=? WHERE id=?";
    if (name[0] && sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK) {
        sqlite3_bind_int64(st, 1, account);
        sqlite3_bind_int(st, 2, rated);
        sqlite3_bind_text(st, 3, name, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(st, 4, g->row.id, -1, SQLITE_TRANSIENT);
        rc = sqlite3_step(st) == SQLITE_DONE && sqlite3_changes(db) == 1 ? 0 : -1;
        sqlite3_finalize(st);
    }
    srv_db_unlock(s->db);
    if (rc != 0) {
        return -1;
    }
    g->account[side] = account;
    g->rated = rated;
    snprintf(side == SRV_SIDE_WHITE ? g->row.white_name : g->row.black_name,
             sizeof g->row.white_name, "%s", name);
    refresh_players(s, g);
    g->gen++;
    srv_broadcast(s, g);
    return 0;
}

/* The rating changes of the ended game g, in one transaction; 0, or -1. */
static int rate_game(srv *s, srv_game *g)
{
    double score;
    if (!strcmp(g->row.result, "2-0")) {
        score = 1.0;
    } else if (!strcmp(g->row.result, "0-2")) {
        score = 0.0;
    } else if (!strcmp(g->row.result, "1-1")) {
        score = 0.5;
    } else {
        return 0; /* no result to rate */
    }
    const char *kind = srv_rating_kind(g->row.variant);
    sqlite3 *db = srv_db_sqlite(s->db);
    sqlite3_stmt *st = NULL;
    int rc = 0, already = 0;
    srv_db_lock(s->db);
    if (sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK) {
        srv_db_unlock(s->db);
        return -1;
    }
    if (sqlite3_prepare_v2(db, "SELECT count(*) FROM rating_changes WHERE game_id=?", -1, &st,
                           NULL) == SQLITE_OK) {
        sqlite3_bind_text(st, 1, g->row.id, -1, SQLITE_TRANSIENT);
        already = sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int(st, 0) > 0;
    } else {
        rc = -1;
    }
    sqlite3_finalize(st);
    if (rc == 0 && !already) {
        dm_glicko before[2], after[2];
        int games[2];
        for (int i = 0; i < 2; i++) {
            srv_rating_get(db, g->account[i], kind, &before[i], &games[i]);
        }
        for (int i = 0; rc == 0 && i < 2; i++) {
            dm_glicko_game gm = {before[1 - i].rating, before[1 - i].rd,
                                 i == 0 ? score : 1.0 - score};
            dm_error e;
            if (dm_glicko_update(&after[i], &before[i], &gm, 1, DM_GLICKO_TAU, &e) != DM_OK) {
                rc = -1;
            }
        }
        int64_t now = srv_wall_ms();
        for (int i = 0; rc == 0 && i < 2; i++) {
            rc = sqlite3_prepare_v2(
                     db,
                     "INSERT INTO ratings(account_id, kind, rating, rd, vol, games, updated) "
                     "VALUES(?,?,?,?,?,?,?) ON CONFLICT(account_id, kind) DO UPDATE SET "
                     "rating=excluded.rating, rd=excluded.rd, vol=excluded.vol, "
                     "games=excluded.games, updated=excluded.updated",
                     -1, &st, NULL) == SQLITE_OK
                     ? 0
                     : -1;
            if (rc == 0) {
                sqlite3_bind_int64(st, 1, g->account[i]);
                sqlite3_bind_text(st, 2, kind, -1, SQLITE_TRANSIENT);
                sqlite3_bind_double(st, 3, after[i].rating);
                sqlite3_bind_double(st, 4, after[i].rd);
                sqlite3_bind_double(st, 5, after[i].vol);
                sqlite3_bind_int(st, 6, games[i] + 1);
                sqlite3_bind_int64(st, 7, now);
                rc = sqlite3_step(st) == SQLITE_DONE ? 0 : -1;
            }
            sqlite3_finalize(st);
            if (rc == 0) {
                rc = sqlite3_prepare_v2(db, "INSERT INTO rating_changes VALUES(?,?,?,?,?,?,?,?)",
                                        -1, &st, NULL) == SQLITE_OK
                         ? 0
                         : -1;
            }
            if (rc == 0) {
                sqlite3_bind_text(st, 1, g->row.id, -1, SQLITE_TRANSIENT);
                sqlite3_bind_int64(st, 2, g->account[i]);
                sqlite3_bind_text(st, 3, kind, -1, SQLITE_TRANSIENT);
                sqlite3_bind_int(st, 4, i);
                sqlite3_bind_double(st, 5, before[i].rating);
                sqlite3_bind_double(st, 6, after[i].rating);
                sqlite3_bind_double(st, 7, after[i].rd);
                sqlite3_bind_int64(st, 8, now);
                rc = sqlite3_step(st) == SQLITE_DONE ? 0 : -1;
            }
            sqlite3_finalize(st);
        }
    }
    if (rc == 0) {
        rc = sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) == SQLITE_OK ? 0 : -1;
    }
    if (rc != 0) {
        sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
    }
    srv_db_unlock(s->db);
    return rc;
}

void srv_rating_game_over(srv *s, srv_game *g)
{
    if (!g->rated || !g->account[0] || !g->account[1] || g->account[0] == g->account[1] ||
        g->row.result[0] == '*') {
        return;
    }
    if (json_object_get(json_object_get(g->players, "white"), "after")) {
        return; /* rated already */
    }
    if (rate_game(s, g) != 0 && !s->opt.quiet) {
        fprintf(stderr, "damier serve: game %s: the ratings were not stored\n", g->row.id);
    }
    refresh_players(s, g);
}

/* ---- at a start ---------------------------------------------------------------------- */

typedef struct linked {
    char id[24];
    int64_t account[2];
    int rated;
} linked;

static int linked_cmp(const void *a, const void *b)
{
    return strcmp(((const linked *)a)->id, ((const linked *)b)->id);
}

void srv_rating_restore(srv *s)
{
    linked *rows = NULL;
    int n = 0, cap = 0;
    sqlite3_stmt *st = NULL;
    srv_db_lock(s->db);
    if (sqlite3_prepare_v2(srv_db_sqlite(s->db),
                           "SELECT id, ifnull(white_account, 0), ifnull(black_account, 0), rated "
                           "FROM games WHERE white_account IS NOT NULL OR black_account IS NOT "
                           "NULL ORDER BY id",
                           -1, &st, NULL) == SQLITE_OK) {
        while (sqlite3_step(st) == SQLITE_ROW) {
            if (n == cap) {
                cap = cap ? 2 * cap : 64;
                linked *a = realloc(rows, sizeof *a * (size_t)cap);
                if (!a) {
                    break;
                }
                rows = a;
            }
            snprintf(rows[n].id, sizeof rows[n].id, "%s", (const char *)sqlite3_column_text(st, 0));
            rows[n].account[0] = sqlite3_column_int64(st, 1);
            rows[n].account[1] = sqlite3_column_int64(st, 2);
            rows[n].rated = sqlite3_column_int(st, 3);
            n++;
        }
    }
    sqlite3_finalize(st);
    srv_db_unlock(s->db);
    if (n > 1) {
        qsort(rows, (size_t)n, sizeof *rows, linked_cmp); /* strcmp's order, not SQL's */
    }
    pthread_mutex_lock(&s->games_mu);
    int ngames = s->ngames;
    pthread_mutex_unlock(&s->games_mu);
    for (int i = 0; n && i < ngames; i++) {
        pthread_mutex_lock(&s->games_mu);
        srv_game *g = s->all[i];
        pthread_mutex_unlock(&s->games_mu);
        linked key;
        snprintf(key.id, sizeof key.id, "%s", g->row.id);
        const linked *l = bsearch(&key, rows, (size_t)n, sizeof *rows, linked_cmp);
        if (!l) {
            continue;
        }
        pthread_mutex_lock(&g->mu);
        g->account[0] = l->account[0];
        g->account[1] = l->account[1];
        g->rated = l->rated;
        refresh_players(s, g);
        if (g->rated && g->row.result[0] != '*') {
            srv_rating_game_over(s, g); /* ended while the server was down */
        }
        pthread_mutex_unlock(&g->mu);
    }
    free(rows);
}
