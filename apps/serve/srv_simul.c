/* SPDX-License-Identifier: MIT
 * apps/serve/srv_simul.c: the simultaneous display (issue 13; the FMJD rules' game
 * forms): one host against N opponents, each board an ordinary game of the server
 * (against the engine, or against a person given its board's link), grouped under a
 * simul with the host's key. The host's page goes from board to board in turn (the
 * page: web/simul.js); opponents move whenever the host is at another board.
 *   POST /api/simuls {"boards": N (1..30), "opponent": "engine"|"human", "side",
 *        "level", "time", "variant"} -> 201 {"id", "key", "boards": [...]}
 *   GET  /api/simuls/ID?key=K  -> the boards (game, the host's key, the opponent's
 *        link, turn, ply, result) and the score (2 a win, 1 a draw, per side).
 * Stored in the server's database (tables simuls, simul_boards), so a restart keeps
 * them as it keeps their games. */
#define _POSIX_C_SOURCE 200809L
#include "serve.h"
#include "srv_community.h"
#include "srv_community_int.h"

#include <civetweb.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SIMUL_MAX_BOARDS 30

static const char SCHEMA[] =
    "CREATE TABLE IF NOT EXISTS simuls(id TEXT PRIMARY KEY, host_key TEXT NOT NULL,"
    " boards INTEGER NOT NULL, created INTEGER NOT NULL);"
    "CREATE TABLE IF NOT EXISTS simul_boards(simul_id TEXT NOT NULL REFERENCES simuls(id),"
    " board INTEGER NOT NULL, game_id TEXT NOT NULL, host_key TEXT NOT NULL,"
    " opponent_link TEXT NOT NULL," /* '' against the engine */
    " PRIMARY KEY(simul_id, board));";

static int schema(srv *s)
{
    srv_db_lock(s->db);
    int rc = sqlite3_exec(srv_db_sqlite(s->db), SCHEMA, NULL, NULL, NULL) == SQLITE_OK ? 0 : -1;
    srv_db_unlock(s->db);
    return rc;
}

/* POST /api/simuls */
static void op_create(srv *s, const json_t *req, srv_reply *r)
{
    const json_t *nb = json_object_get(req, "boards");
    if (!json_is_integer(nb) || json_integer_value(nb) < 1 ||
        json_integer_value(nb) > SIMUL_MAX_BOARDS) {
        srv_reply_error(r, 400, "\"boards\" must be a whole number from 1 to %d", SIMUL_MAX_BOARDS);
        return;
    }
    int n = (int)json_integer_value(nb);
    const char *opp = srv_json_str(req, "opponent");
    if (!opp || (strcmp(opp, "engine") != 0 && strcmp(opp, "human") != 0)) {
        srv_reply_error(r, 400, "\"opponent\" must be \"engine\" or \"human\"");
        return;
    }
    if (schema(s) != 0) {
        srv_reply_error(r, 503, "the simul was not stored");
        return;
    }
    char id[24], key[40];
    srv_random_token(id, 6);
    srv_random_token(key, 16);
    json_t *boards = json_array();
    /* each board an ordinary game, made as POST /api/games makes it: the first one's
     * refusal (a bad side, level, time or variant) is the simul's */
    for (int i = 0; i < n; i++) {
        json_t *g = json_deep_copy(req);
        json_object_del(g, "boards");
        srv_reply gr = {0, NULL};
        srv_op_create(s, g, &gr);
        json_decref(g);
        if (gr.status != 201) {
            r->status = gr.status;
            r->body = gr.body;
            json_decref(boards);
            return;
        }
        const char *you = srv_json_str(gr.body, "you");
        const json_t *links = json_object_get(gr.body, "links");
        const char *other = you && !strcmp(you, "white") ? "black" : "white";
        const char *link = !strcmp(opp, "human") ? srv_json_str(links, other) : "";
        json_array_append_new(boards,
                              json_pack("{s:i,s:s,s:s,s:s}", "board", i + 1, "game",
                                        srv_json_str(gr.body, "id"), "key",
                                        srv_json_str(gr.body, "key"), "link", link ? link : ""));
        json_decref(gr.body);
    }
    srv_db_lock(s->db);
    sqlite3 *db = srv_db_sqlite(s->db);
    int ok = sqlite3_exec(db, "BEGIN", NULL, NULL, NULL) == SQLITE_OK;
    sqlite3_stmt *q = NULL;
    if (ok &&
        sqlite3_prepare_v2(db, "INSERT INTO simuls VALUES(?,?,?,?)", -1, &q, NULL) == SQLITE_OK) {
        sqlite3_bind_text(q, 1, id, -1, SQLITE_STATIC);
        sqlite3_bind_text(q, 2, key, -1, SQLITE_STATIC);
        sqlite3_bind_int(q, 3, n);
        sqlite3_bind_int64(q, 4, srv_wall_ms());
        ok = sqlite3_step(q) == SQLITE_DONE;
    } else {
        ok = 0;
    }
    sqlite3_finalize(q);
    q = NULL;
    if (ok && sqlite3_prepare_v2(db, "INSERT INTO simul_boards VALUES(?,?,?,?,?)", -1, &q, NULL) ==
                  SQLITE_OK) {
        size_t i;
        const json_t *b;
        json_array_foreach(boards, i, b)
        {
            sqlite3_reset(q);
            sqlite3_bind_text(q, 1, id, -1, SQLITE_STATIC);
            sqlite3_bind_int(q, 2, (int)i + 1);
            sqlite3_bind_text(q, 3, srv_json_str(b, "game"), -1, SQLITE_TRANSIENT);
            sqlite3_bind_text(q, 4, srv_json_str(b, "key"), -1, SQLITE_TRANSIENT);
            sqlite3_bind_text(q, 5, srv_json_str(b, "link"), -1, SQLITE_TRANSIENT);
            ok = ok && sqlite3_step(q) == SQLITE_DONE;
        }
    } else {
        ok = 0;
    }
    sqlite3_finalize(q);
    sqlite3_exec(db, ok ? "COMMIT" : "ROLLBACK", NULL, NULL, NULL);
    srv_db_unlock(s->db);
    if (!ok) {
        json_decref(boards);
        srv_reply_error(r, 503, "the simul was not stored");
        return;
    }
    char url[96];
    snprintf(url, sizeof url, "/#/simul/%s/%s", id, key);
    r->status = 201;
    r->body = json_pack("{s:s,s:s,s:s,s:o}", "id", id, "key", key, "link", url, "boards", boards);
}

/* GET /api/simuls/ID?key=K */
static void op_show(srv *s, const char *id, const char *key, srv_reply *r)
{
    if (schema(s) != 0) {
        srv_reply_error(r, 503, "the simul store cannot be read");
        return;
    }
    srv_db_lock(s->db);
    sqlite3 *db = srv_db_sqlite(s->db);
    sqlite3_stmt *q = NULL;
    sqlite3_prepare_v2(db, "SELECT host_key FROM simuls WHERE id = ?", -1, &q, NULL);
    sqlite3_bind_text(q, 1, id, -1, SQLITE_TRANSIENT);
    int found = sqlite3_step(q) == SQLITE_ROW;
    int right = found && !strcmp((const char *)sqlite3_column_text(q, 0), key);
    sqlite3_finalize(q);
    json_t *rows = json_array();
    if (right) {
        sqlite3_prepare_v2(db,
                           "SELECT board, game_id, host_key, opponent_link FROM simul_boards"
                           " WHERE simul_id = ? ORDER BY board",
                           -1, &q, NULL);
        sqlite3_bind_text(q, 1, id, -1, SQLITE_TRANSIENT);
        while (sqlite3_step(q) == SQLITE_ROW) {
            json_array_append_new(rows,
                                  json_pack("{s:i,s:s,s:s,s:s}", "board", sqlite3_column_int(q, 0),
                                            "game", (const char *)sqlite3_column_text(q, 1), "key",
                                            (const char *)sqlite3_column_text(q, 2), "link",
                                            (const char *)sqlite3_column_text(q, 3)));
        }
        sqlite3_finalize(q);
    }
    srv_db_unlock(s->db);
    if (!found) {
        json_decref(rows);
        srv_reply_error(r, 404, "no simul %s", id);
        return;
    }
    if (!right) {
        json_decref(rows);
        srv_reply_error(r, 403, "wrong key for simul %s", id);
        return;
    }
    /* each board's game as its state says now (the database lock released: a game's
     * lock comes first) */
    int host = 0, opp = 0, finished = 0;
    size_t i;
    json_t *b;
    json_array_foreach(rows, i, b)
    {
        srv_reply gr = {0, NULL};
        srv_op_state(s, srv_json_str(b, "game"), srv_json_str(b, "key"), &gr);
        if (gr.status == 200) {
            const char *you = srv_json_str(gr.body, "you");
            const char *res = srv_json_str(gr.body, "result");
            json_object_set(b, "you", json_object_get(gr.body, "you"));
            json_object_set(b, "turn", json_object_get(gr.body, "turn"));
            json_object_set(b, "ply", json_object_get(gr.body, "ply"));
            json_object_set(b, "result", json_object_get(gr.body, "result"));
            json_object_set(b, "names", json_object_get(gr.body, "names"));
            if (res && strcmp(res, "*") != 0 && you) {
                int white = !strcmp(you, "white");
                int white_won = strcmp(res, "2-0") == 0;
                int hp = !strcmp(res, "1-1") ? 1 : white_won == white ? 2 : 0;
                host += hp;
                opp += 2 - hp;
                finished++;
            }
        }
        json_decref(gr.body);
    }
    r->status = 200;
    r->body =
        json_pack("{s:s,s:o,s:{s:i,s:i,s:i,s:i}}", "id", id, "boards", rows, "score", "host", host,
                  "opponents", opp, "finished", finished, "boards", (int)json_array_size(rows));
}

void srv_simul_route(srv *s, const srv_request *q, const char *what, srv_reply *r)
{
    if (!*what) {
        if (strcmp(q->method, "POST") != 0) {
            srv_reply_error(r, 405, "use POST to start a simul");
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
    if (srv_path_split(what, id, sizeof id, &action) != 0 || *action) {
        srv_reply_error(r, 404, "no such simul request");
        return;
    }
    if (strcmp(q->method, "GET") != 0) {
        srv_reply_error(r, 405, "use GET");
        return;
    }
    char key[64];
    srv_query_var(q->query, "key", key, sizeof key);
    op_show(s, id, key, r);
}
