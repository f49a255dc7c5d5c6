/* SPDX-License-Identifier: MIT
 * apps/serve/srv_community_int.h: what the community files of apps/serve share
 * (srv_account.c, srv_rating.c, srv_lobby.c); not for the rest of the server. */
#ifndef DM_APPS_SRV_COMMUNITY_INT_H
#define DM_APPS_SRV_COMMUNITY_INT_H

#include "srv_community.h"

/* Failed sign-ins of one name ("n:NAME") or address ("a:ADDR"). */
typedef struct srv_limit {
    char key[64];
    int fails;    /* in a row */
    int64_t last; /* wall ms of the last attempt counted */
} srv_limit;

#define SRV_LIMITS 1024
#define SRV_MAX_SEEKS 200

/* An open seek of the lobby. */
typedef struct srv_seek {
    char id[20];
    char owner[36];  /* the poster's secret (cancel, the game's key when taken) */
    int64_t account; /* 0: anonymous */
    char name[32];
    int rating; /* the poster's rating of the kind (0: anonymous) */
    char variant[32];
    char time[64];
    int rated;
    int color; /* 0 white, 1 black, 2 random: the poster's */
    int64_t created, seen;
    struct mg_connection *conn; /* the lobby socket that holds it, or NULL */
    /* once taken: the poster's game */
    int taken;
    char game[24], key[40], you[8];
} srv_seek;

typedef struct srv_community {
    pthread_mutex_t hash_mu; /* one password hash at a time (64 MiB each) */
    pthread_mutex_t limit_mu;
    srv_limit limits[SRV_LIMITS];
    /* the lobby, under lobby_mu */
    pthread_mutex_t lobby_mu;
    srv_seek seeks[SRV_MAX_SEEKS];
    int nseeks;
    struct mg_connection **watchers;
    int nwatchers, capwatchers;
    struct srv_puzzles *puzzles; /* the puzzle trainer's (srv_puzzles.c), NULL without */
} srv_community;

srv_community *srv_comm(srv *s);
void srv_hex(char *out, const unsigned char *bytes, size_t n);
/* 2 * nbytes hex digits of libsodium's randomness (nbytes <= 64). */
void srv_random_token(char *out, size_t nbytes);
const char *srv_json_str(const json_t *o, const char *k);
/* "ID" or "ID/ACTION" split: the id in id (cap bytes), *action after the slash ("");
 * -1 for an empty or too long id. */
int srv_path_split(const char *rest, char *id, size_t cap, const char **action);
/* The JSON body of a POST: 405 for another method, 403 for a signed-in request
 * without its CSRF token, then as srv_read_json. */
json_t *srv_post_json(const srv_request *q, const srv_account *a, srv_reply *r);
/* 1 when a is signed in and the request carries its CSRF token, else 0 with r (401, 403). */
int srv_need_account(const srv_account *a, srv_reply *r);
/* GET and POST /api/account/lessons (srv_lessons.c): the lessons a signed-in
 * account has completed; POST {"done": [ID]} adds ids (CSRF token required) and answers the
 * account's whole list {"done": [ID]}. 401 without a session. */
void srv_lessons_route(srv *s, const srv_request *q, const srv_account *a, srv_reply *r);
/* {"name", "lang", "title", "created", "ratings"}, NULL when no such account. */
json_t *srv_account_json(srv *s, int64_t id);

/* Ratings (srv_rating.c). */
void srv_rating_restore(srv *s);
/* The account's rating of kind (1500 for none yet), rounded. */
int srv_rating_of(srv *s, int64_t account, const char *kind);
/* The account's rating of kind and its games, a new player's when none is stored;
 * under the database's lock. */
struct dm_glicko;
void srv_rating_get(sqlite3 *db, int64_t account, const char *kind, struct dm_glicko *out,
                    int *games);

/* The lobby (srv_lobby.c). */
void srv_lobby_init(srv_community *c);
void srv_lobby_free(srv_community *c);
void srv_lobby_route(srv *s, const srv_request *q, const char *what, srv_reply *r);

/* The puzzle trainer (srv_puzzles.c). */
int srv_puzzles_load(srv *s, const char *path, char *err, size_t errcap);
void srv_puzzles_free(srv_community *c);
void srv_puzzles_route(srv *s, const srv_request *q, const char *what, srv_reply *r);

#endif
