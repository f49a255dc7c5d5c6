/* SPDX-License-Identifier: MIT
 * apps/serve/srv_webhook.c: webhooks of correspondence players (issue 13): a player
 * gives a URL for a game (POST /api/games/ID/webhook {key, url}), and after every move
 * that leaves that player to move, or ends the game, the server POSTs a small JSON
 * notice there: {"game", "ply", "move", "to_move", "result"} (never a key). Only with
 * `damier serve --webhooks` (a server that calls out on its users' behalf is the
 * operator's choice), only http:// URLs (civetweb's client; no TLS here), each call
 * in its own detached thread with a 5 s timeout, at most 16 at once (more are dropped
 * and logged). Stored in the server's database (table webhooks, made at first use). */
#define _POSIX_C_SOURCE 200809L
#include "serve.h"
#include "srv_community.h"

#include <civetweb.h>
#include <ctype.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WEBHOOK_MAX_URL 200
#define WEBHOOK_MAX_INFLIGHT 16

static atomic_int inflight; /* calls running, every server of the process */

static const char SCHEMA[] = "CREATE TABLE IF NOT EXISTS webhooks(game_id TEXT NOT NULL,"
                             " side INTEGER NOT NULL, url TEXT NOT NULL,"
                             " PRIMARY KEY(game_id, side));";

/* url split into host, port and path; 0 for a valid http:// URL */
static int parse_url(const char *url, char *host, size_t hcap, int *port, char *path, size_t pcap)
{
    if (strncmp(url, "http://", 7) != 0 || strlen(url) > WEBHOOK_MAX_URL) {
        return -1;
    }
    const char *h = url + 7;
    size_t n = 0;
    while (h[n] && (isalnum((unsigned char)h[n]) || h[n] == '.' || h[n] == '-')) {
        n++;
    }
    if (n == 0 || n >= hcap) {
        return -1;
    }
    memcpy(host, h, n);
    host[n] = 0;
    const char *p = h + n;
    *port = 80;
    if (*p == ':') {
        char *end;
        long v = strtol(p + 1, &end, 10);
        if (end == p + 1 || v < 1 || v > 65535) {
            return -1;
        }
        *port = (int)v;
        p = end;
    }
    if (*p && *p != '/') {
        return -1;
    }
    for (const char *c = p; *c; c++) {
        if ((unsigned char)*c <= ' ' || *c == 0x7f) {
            return -1; /* no spaces or control characters in the request line */
        }
    }
    snprintf(path, pcap, "%s", *p ? p : "/");
    return 0;
}

typedef struct call {
    char url[WEBHOOK_MAX_URL + 1];
    char *body;
    int quiet;
} call;

static void *run_call(void *arg)
{
    call *c = arg;
    char host[128], path[WEBHOOK_MAX_URL + 1], ebuf[200] = "";
    int port;
    if (parse_url(c->url, host, sizeof host, &port, path, sizeof path) == 0) {
        struct mg_connection *conn = mg_connect_client(host, port, 0, ebuf, sizeof ebuf);
        if (conn) {
            mg_printf(conn,
                      "POST %s HTTP/1.1\r\nHost: %s:%d\r\nContent-Type: application/json\r\n"
                      "Content-Length: %zu\r\nConnection: close\r\nUser-Agent: damier\r\n\r\n%s",
                      path, host, port, strlen(c->body), c->body);
            if (mg_get_response(conn, ebuf, sizeof ebuf, 5000) < 0 && !c->quiet) {
                fprintf(stderr, "damier serve: webhook %s: no answer (%s)\n", c->url, ebuf);
            }
            mg_close_connection(conn);
        } else if (!c->quiet) {
            fprintf(stderr, "damier serve: webhook %s: %s\n", c->url, ebuf);
        }
    }
    free(c->body);
    free(c);
    atomic_fetch_sub(&inflight, 1);
    return NULL;
}

static void fire(srv *s, const char *url, const char *body)
{
    if (atomic_fetch_add(&inflight, 1) >= WEBHOOK_MAX_INFLIGHT) {
        atomic_fetch_sub(&inflight, 1);
        if (!s->opt.quiet) {
            fprintf(stderr, "damier serve: webhook %s dropped (%d calls running)\n", url,
                    WEBHOOK_MAX_INFLIGHT);
        }
        return;
    }
    call *c = calloc(1, sizeof *c);
    char *b = strdup(body);
    pthread_t t;
    pthread_attr_t at;
    pthread_attr_init(&at);
    pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
    if (!c || !b) {
        free(c);
        free(b);
        atomic_fetch_sub(&inflight, 1);
    } else {
        size_t n = strnlen(url, WEBHOOK_MAX_URL);
        memcpy(c->url, url, n);
        c->url[n] = 0;
        c->body = b;
        c->quiet = s->opt.quiet;
        if (pthread_create(&t, &at, run_call, c) != 0) {
            free(c->body);
            free(c);
            atomic_fetch_sub(&inflight, 1);
        }
    }
    pthread_attr_destroy(&at);
}

void srv_webhook_moved(srv *s, const srv_game_row *row, int ply, const char *move, int to_move)
{
    if (!s->opt.webhooks) {
        return;
    }
    int over = row->result[0] != '*';
    char url[2][WEBHOOK_MAX_URL + 1] = {"", ""};
    srv_db_lock(s->db);
    sqlite3 *db = srv_db_sqlite(s->db);
    sqlite3_stmt *q = NULL;
    if (sqlite3_exec(db, SCHEMA, NULL, NULL, NULL) == SQLITE_OK &&
        sqlite3_prepare_v2(db, "SELECT side, url FROM webhooks WHERE game_id = ?", -1, &q, NULL) ==
            SQLITE_OK) {
        sqlite3_bind_text(q, 1, row->id, -1, SQLITE_TRANSIENT);
        while (sqlite3_step(q) == SQLITE_ROW) {
            int side = sqlite3_column_int(q, 0);
            if (side == 0 || side == 1) {
                const char *u = (const char *)sqlite3_column_text(q, 1);
                size_t n = u ? strnlen(u, WEBHOOK_MAX_URL) : 0;
                memcpy(url[side], u ? u : "", n);
                url[side][n] = 0;
            }
        }
    }
    sqlite3_finalize(q);
    srv_db_unlock(s->db);
    for (int side = 0; side < 2; side++) {
        if (!url[side][0] || (!over && side != to_move)) {
            continue; /* the player to move is told, and both when the game ends */
        }
        json_t *o =
            json_pack("{s:s,s:i,s:s,s:s,s:s}", "game", row->id, "ply", ply, "move", move, "to_move",
                      over           ? ""
                      : to_move == 0 ? "white"
                                     : "black",
                      "result", row->result);
        char *body = o ? json_dumps(o, JSON_COMPACT) : NULL;
        if (body) {
            fire(s, url[side], body);
        }
        free(body);
        json_decref(o);
    }
}

int srv_webhook_calls(void)
{
    return atomic_load(&inflight);
}

void srv_op_webhook(srv *s, const char *id, const char *key, const json_t *req, srv_reply *r)
{
    if (!s->opt.webhooks) {
        srv_reply_error(r, 404, "webhooks are off on this server (damier serve --webhooks)");
        return;
    }
    const json_t *u = json_object_get(req, "url");
    char host[128], path[WEBHOOK_MAX_URL + 1];
    int port;
    const char *url = json_is_string(u) ? json_string_value(u) : NULL;
    if (!url || (*url && parse_url(url, host, sizeof host, &port, path, sizeof path) != 0)) {
        srv_reply_error(r, 400,
                        "\"url\" must be an http:// URL of at most %d characters (\"\" removes "
                        "it)",
                        WEBHOOK_MAX_URL);
        return;
    }
    int side;
    srv_game *g = srv_game_open(s, id, key, &side, r);
    if (!g) {
        return;
    }
    if (side != SRV_SIDE_WHITE && side != SRV_SIDE_BLACK) {
        srv_game_unlock(g);
        srv_reply_error(r, 403, "only a player's key sets a webhook");
        return;
    }
    srv_db_lock(s->db);
    sqlite3 *db = srv_db_sqlite(s->db);
    sqlite3_stmt *q = NULL;
    int ok = sqlite3_exec(db, SCHEMA, NULL, NULL, NULL) == SQLITE_OK &&
             sqlite3_prepare_v2(db,
                                *url ? "INSERT OR REPLACE INTO webhooks VALUES(?1, ?2, ?3)"
                                     : "DELETE FROM webhooks WHERE game_id = ?1 AND side = ?2",
                                -1, &q, NULL) == SQLITE_OK;
    if (ok) {
        sqlite3_bind_text(q, 1, id, -1, SQLITE_TRANSIENT);
        sqlite3_bind_int(q, 2, side);
        if (*url) {
            sqlite3_bind_text(q, 3, url, -1, SQLITE_TRANSIENT);
        }
        ok = sqlite3_step(q) == SQLITE_DONE;
    }
    sqlite3_finalize(q);
    srv_db_unlock(s->db);
    srv_game_unlock(g);
    if (!ok) {
        srv_reply_error(r, 503, "the webhook was not stored");
        return;
    }
    r->status = 200;
    r->body =
        json_pack("{s:s,s:s}", "side", side == SRV_SIDE_WHITE ? "white" : "black", "url", url);
}
