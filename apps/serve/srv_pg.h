/* SPDX-License-Identifier: MIT
 * apps/serve/srv_pg.h: the games in PostgreSQL (srv_db_pg.c), called by srv_db.c with
 * its mutex held (one connection, one request at a time); the same contracts as the
 * srv_db_* functions of serve.h. */
#ifndef DM_APPS_SERVE_PG_H
#define DM_APPS_SERVE_PG_H

#include "serve.h"

typedef struct srv_pg srv_pg;

/* Connect to url, create the tables when new (once, under an advisory lock, as
 * several servers may start at once), refuse a newer schema. NULL with err. */
srv_pg *srv_pg_open(const char *url, char *err, size_t errcap);
/* Stop the listener (if any), then disconnect. NULL: nothing. */
void srv_pg_close(srv_pg *p);
int srv_pg_insert_game(srv_pg *p, const srv_game_row *r, const srv_move_row *moves, int n,
                       char *err, size_t errcap);
/* 0, SRV_DB_CONFLICT (an event at that index exists: unique (game, ply)), or -1. */
int srv_pg_add_move(srv_pg *p, const srv_game_row *r, int first, const srv_move_row *m, int n,
                    int64_t white_ms, int64_t black_ms, char *err, size_t errcap);
int srv_pg_update_game(srv_pg *p, const srv_game_row *r, char *err, size_t errcap);
int srv_pg_heartbeat(srv_pg *p, int64_t wall_ms);
/* The newest heartbeat of all the servers on the database (wall ms), 0 none. */
int64_t srv_pg_last_heartbeat(srv_pg *p);
/* id NULL: every game in creation order; else that game. The number found, -1 err. */
int srv_pg_load(srv_pg *p, const char *id,
                void (*fn)(void *, const srv_game_row *, const srv_move_row *, int), void *payload,
                char *err, size_t errcap);
/* Start the listener thread (its own connection): fn(payload, id, events) for each
 * notice sent by another connection. 0 or -1 with err. */
int srv_pg_listen(srv_pg *p, void (*fn)(void *, const char *, int), void *payload, char *err,
                  size_t errcap);
/* Stop the listener thread (none: nothing); fn is not called after it returns. */
void srv_pg_unlisten(srv_pg *p);

#endif
