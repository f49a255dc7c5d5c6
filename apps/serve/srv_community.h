/* SPDX-License-Identifier: MIT
 * apps/serve/srv_community.h: the community side of `damier serve` (issue 19):
 * accounts and sessions (srv_account.c), ratings (srv_rating.c), the lobby of seeks
 * (srv_lobby.c). docs/WEB.md describes the routes and the tables.
 *
 * Locks: a game's mutex, then the database's (srv_db_lock); the lobby's mutex is
 * taken alone (never while holding a game's or the database's). */
#ifndef DM_APPS_SRV_COMMUNITY_H
#define DM_APPS_SRV_COMMUNITY_H

#include <sqlite3.h>

#include "serve.h"

/* The community tables made or brought up to date in an open database (meta key
 * community_version; docs/WEB.md "Storage"): run by srv_db_open after the games'
 * schema, in one transaction. 0, or -1 with err. */
int srv_community_schema(sqlite3 *db, char *err, size_t errcap);

/* The JSON object of q's body, or NULL with r filled (400, 413): srv_http.c's. */
json_t *srv_read_json(const srv_request *q, srv_reply *r);

/* The database's connection and its mutex (srv_db.c), for the community files. */
sqlite3 *srv_db_sqlite(srv_db *d);
void srv_db_lock(srv_db *d);
void srv_db_unlock(srv_db *d);

/* After the games are restored: each game's accounts and rating read back, the rated
 * games that ended while the server was down rated, the puzzles of opt.puzzles read.
 * 0, or -1 with err (the puzzle file). */
int srv_community_restore(srv *s, char *err, size_t errcap);
/* Free what the community keeps (srv_stop, before the database closes). */
void srv_community_free(srv *s);

/* Answer the community's /api/ routes (account/..., users/..., leaderboard,
 * lobby..., puzzles..., games/ID/claim). Returns 1 when the path is one of them (r filled), 0
 * otherwise. */
int srv_community_route(srv *s, const srv_request *q, srv_reply *r);
/* After POST /api/games answered 201: a signed-in creator (with the CSRF header) is
 * linked to the side r says they play. */
void srv_account_link_created(srv *s, const srv_request *q, srv_reply *r);
/* A request that carries a live session but not its CSRF token (X-CSRF-Token): 1 with
 * r set to 403, so that another site cannot act in a signed-in player's name (make
 * games that join his account); 0 otherwise (no session: an anonymous request). */
int srv_csrf_refused(srv *s, const srv_request *q, srv_reply *r);

/* A signed-in account, as the session cookie of a request names it. */
typedef struct srv_account {
    int64_t id; /* 0: none */
    char name[32];
    char lang[16];
    int csrf_ok; /* the request carries the session's CSRF token */
} srv_account;

/* The account of q's session cookie (id 0 when none, forged or expired). */
void srv_account_of(srv *s, const srv_request *q, srv_account *a);

/* Ratings (srv_rating.c). The rating kind of a variant ("international", ...). */
const char *srv_rating_kind(const char *variant);
/* A game's players as the state shows them: {"rated", "white": {"name", "rating",
 * "rd", "change"} | null, "black": ...}; g locked. NULL for a game without account. */
json_t *srv_players_json(srv *s, srv_game *g);
/* g (locked) has ended: a rated game between two accounts updates both ratings
 * (Glicko-2, one game a period), once; the players' JSON refreshed. */
void srv_rating_game_over(srv *s, srv_game *g);
/* Link account to side of the locked game g (and rated), in the database and in g. */
int srv_game_link(srv *s, srv_game *g, int side, int64_t account, int rated);

/* The lobby (srv_lobby.c): its WebSocket /ws/lobby registered on civetweb. */
struct mg_context;
void srv_lobby_register(srv *s, struct mg_context *ctx);

#endif
