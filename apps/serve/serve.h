/* SPDX-License-Identifier: MIT
 * apps/serve/serve.h: `damier serve`, the web board: HTTP and WebSocket (civetweb),
 * games stored in SQLite (WAL) or, shared by several servers, PostgreSQL (--pg), JSON
 * (jansson). docs/WEB.md describes the API.
 *
 * Threads: civetweb's workers run the request and WebSocket handlers; one ticker
 * thread declares flag falls and writes the heartbeat; engine workers play the
 * engine's moves; each analysis runs on a thread of its own; with PostgreSQL a listener
 * thread reads the games other servers changed (srv_db_listen). Every game has a mutex;
 * the database connection has one (srv_db_*), always taken after a game's; a game's
 * subscribers are under its mutex. */
#ifndef DM_APPS_SERVE_H
#define DM_APPS_SERVE_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include <damier/session.h>
#include <damier/variant.h>

typedef struct srv srv;
typedef struct srv_game srv_game;
typedef struct srv_db srv_db;

/* Endgame database folders a server takes (--egdb, once per variant that has them). */
#define SRV_EGDB_MAX 4

/* Options of a server. */
typedef struct srv_options {
    const char *host;       /* listening address, "127.0.0.1" */
    int port;               /* 8080; 0: any free port (srv_port says which) */
    const char *db_path;    /* the SQLite file */
    const char *pg_url;     /* NULL, or the PostgreSQL database holding the games
                               (srv_db_open_pg), shared with other servers */
    const char *static_dir; /* the page's files (web/) */
    int threads;            /* civetweb worker threads (each WebSocket holds one) */
    int engine_workers;     /* threads playing the engine's moves */
    int max_analyses;       /* analyses running at once */
    int sync_full;          /* 1: PRAGMA synchronous=FULL (power loss), else NORMAL */
    int quiet;              /* no log lines on stderr */
    int no_threads;         /* 1: no engine workers and no ticker: srv_engine_step plays the
                               engine's moves, flags fall when a request looks (tests) */
    int fast_hash;          /* 1: passwords hashed with libsodium's smallest Argon2id
                               limits (tests only: fast, not safe) */
    const char *puzzles;    /* a PDN file of puzzles (damier puzzles gen), or NULL */
    /* the endgame databases the analysis board probes, at most one of each variant
       that has them (international, Brazilian, Russian, English; not owned, they
       outlive the server); unused entries NULL. A search probes its variant's. */
    const struct dm_egdb *egdb[SRV_EGDB_MAX];
    const char *library; /* the master games: a PDN file or a folder of them, or NULL */
    /* A test hook: ms added to the wall clock of the correspondence games (their
     * deadlines), as if that much time had passed; 0. */
    int64_t clock_offset_ms;
    int webhooks; /* 1: players may give webhook URLs, which the server calls (srv_webhook.c) */
    /* A test hook (pg_url only): 1, the other servers' changes are not listened to, so
     * this server's games go stale and a move on one is refused by the store's unique
     * (game, ply) (DAMIER_SERVE_TEST_DEAF=1); 0. */
    int deaf;
} srv_options;

#define SRV_OPTIONS_INIT                                                                           \
    {                                                                                              \
        "127.0.0.1", 8080, NULL, NULL, NULL, 256, 2, 2, 0, 0, 0, 0, NULL, {NULL}, NULL, 0, 0, 0    \
    }

/* Limits of requests. */
#define SRV_MAX_JSON_BODY (64 * 1024)
#define SRV_MAX_PDN_BODY (1024 * 1024)
#define SRV_MAX_GAMES_PER_UPLOAD 200
#define SRV_MAX_PLIES 2000
#define SRV_MAX_EVENTS 4000 /* moves and takebacks stored for a game */

/* Start a server: open (or create) the database, restore every game, listen. On
 * failure returns NULL with the reason in err. */
srv *srv_start(const srv_options *opt, char *err, size_t errcap);
/* A server that does not listen (no civetweb): the database opened (or created),
 * every game restored, the threads started unless opt->no_threads; srv_route and
 * srv_ws_game_message answer its requests, srv_stop ends it. NULL with err. */
srv *srv_open(const srv_options *opt, char *err, size_t errcap);
/* The port it listens on. */
int srv_port(const srv *s);
/* Stop listening, end the threads, close the database, free everything. */
void srv_stop(srv *s);

/* ---- internals shared by the files of apps/serve -------------------------------- */

enum {
    SRV_SIDE_WHITE = 0,
    SRV_SIDE_BLACK = 1,
    SRV_SIDE_SPECTATOR = 2,
    SRV_SIDE_ARBITER = 3, /* the arbiter's key: watches, pauses the clocks, decides */
    SRV_SIDE_NONE = 4
};
enum {
    SRV_MODE_ENGINE = 0,
    SRV_MODE_HUMAN = 1,
    SRV_MODE_REVIEW = 2
};

/* A reply: HTTP status (200, 4xx, 5xx) and a JSON body (owned). */
typedef struct srv_reply {
    int status;
    json_t *body;
} srv_reply;

/* One request to /api/, without its connection (srv_route). */
typedef struct srv_request {
    const char *method; /* "GET", "POST", ... */
    const char *path;   /* after "/api/": "games", "games/ID/move" */
    const char *query;  /* the query string ("key=...&fen=..."), or NULL */
    /* Reads the body, at most limit bytes: malloc'd and NUL-terminated, its length in
     * *len; NULL with *status 413 (too large) or another 4xx/5xx. */
    char *(*read_body)(void *ctx, size_t limit, size_t *len, int *status);
    void *ctx;
    const char *cookie; /* the Cookie header, or NULL (the session: srv_account.c) */
    const char *csrf;   /* the X-CSRF-Token header, or NULL */
    const char *remote; /* the client's address, or NULL (rate limits) */
    char *set_cookie;   /* out: a Set-Cookie header to send, SRV_COOKIE_CAP bytes ("" none);
                           NULL: none can be sent */
} srv_request;
#define SRV_COOKIE_CAP 192

/* Answer one /api/ request: r gets the status and the JSON body, except for the PDN
 * of a game (GET games/ID/pdn answered 200), whose text (malloc'd) is put in *pdn
 * (r's body is then to be dropped). Returns 1 when the connection is to be closed
 * after the reply (a body too large was left unread). */
int srv_route(srv *s, const srv_request *q, srv_reply *r, char **pdn);
/* Answer one text message of a game's WebSocket (id and key: the socket's): the
 * JSON to send back ({"t":"ack"}, {"t":"error"} or the state), never NULL unless
 * out of memory. */
json_t *srv_ws_game_message(srv *s, const char *id, const char *key, const char *data, size_t len);
/* With no_threads: play the engine's pending moves now, each searched at most
 * max_depth plies deep (0: as its level says). Returns how many were played. */
int srv_engine_step(srv *s, int max_depth);

/* Make s valid UTF-8 in place (JSON strings must be): every byte that does not
 * begin a valid sequence, or begins one cut short, becomes '?'. */
void srv_utf8_fix(char *s);

/* An error reply {"error": message}. */
void srv_reply_error(srv_reply *r, int status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The operations behind the endpoints (srv_game.c); each fills r. */
void srv_op_create(srv *s, const json_t *req, srv_reply *r);
void srv_op_state(srv *s, const char *id, const char *key, srv_reply *r);
void srv_op_move(srv *s, const char *id, const char *key, const json_t *req, srv_reply *r);
void srv_op_resign(srv *s, const char *id, const char *key, srv_reply *r);
void srv_op_touch(srv *s, const char *id, const char *key, const json_t *req, srv_reply *r);
void srv_op_adjust(srv *s, const char *id, const char *key, srv_reply *r);
void srv_op_draw(srv *s, const char *id, const char *key, const json_t *req, srv_reply *r);
void srv_op_takeback(srv *s, const char *id, const char *key, const json_t *req, srv_reply *r);
/* The arbiter's controls (the arbiter's key only): action pause, resume, add_time
 * (side, seconds) or declare (result, note), each an event of the game's log. */
void srv_op_arbiter(srv *s, const char *id, const char *key, const json_t *req, srv_reply *r);
/* Adjournment: the player to move seals a move (kept secret, the clocks stop); the
 * arbiter's resume plays it. */
void srv_op_seal(srv *s, const char *id, const char *key, const json_t *req, srv_reply *r);
/* Conditional moves: {"moves": [the opponent's move, your reply, ...]} ([] clears them). */
void srv_op_conditional(srv *s, const char *id, const char *key, const json_t *req, srv_reply *r);
/* The engine's marks and evaluations of every move (apps/cli/annotate.h). */
void srv_op_annotate(srv *s, const char *id, const char *key, const json_t *req, srv_reply *r);
/* The PDN of a game: *text malloc'd on 200. */
void srv_op_pdn(srv *s, const char *id, const char *key, char **text, srv_reply *r);
void srv_op_upload(srv *s, const char *text, size_t len, srv_reply *r);
/* The value of name in a URL's query string (decoded) into buf; "" when absent (or
 * longer than cap). query may be NULL. */
void srv_query_var(const char *query, const char *name, char *buf, size_t cap);
/* The master-games library (srv_library.c): indexed from path at start (-1 and err
 * when path is missing), freed at stop, its requests (/api/library...). */
typedef struct srv_library srv_library;
int srv_library_load(srv *s, const char *path, char *err, size_t errcap);
void srv_library_free(srv *s);
void srv_library_route(srv *s, const srv_request *q, const char *what, srv_reply *r);
/* A game between engine levels level_white and level_black (1-10) of variant (NULL:
 * international) played to its end at once and stored as a review game
 * (srv_engine_game.c): its id, a key to see it and its result ("2-0", ...) out; the
 * PDN tags event, round (may be NULL), white and black; max_depth > 0 caps every
 * search at that depth (srv_engine_step's). Seconds at the top levels: call it from a
 * thread of its own. 0, or -1 with err (also when the server stops meanwhile). */
int srv_engine_game(srv *s, const char *variant, int level_white, int level_black, int max_depth,
                    const char *white, const char *black, const char *event, const char *round,
                    char *id, size_t idcap, char *key, size_t keycap, char *result, size_t rescap,
                    char *err, size_t errcap);
/* The simultaneous displays (srv_simul.c): POST /api/simuls, GET /api/simuls/ID. */
void srv_simul_route(srv *s, const srv_request *q, const char *what, srv_reply *r);
/* Tournaments (srv_tourney.c): POST /api/tournaments, GET /api/tournaments/ID and
 * GET /api/tournaments/ID/pdn (its text, malloc'd, in *pdn on 200). */
void srv_tourney_route(srv *s, const srv_request *q, const char *what, srv_reply *r, char **pdn);
/* The tournaments' engine-against-engine games, played by a thread of the tournaments'
 * own (started at the first such pairing): srv_tourney_stop joins it (srv_games_stop);
 * with no_threads, srv_tourney_step plays the pending ones now, each search at most
 * max_depth (srv_engine_step calls it); the number played. */
void srv_tourney_stop(srv *s);
int srv_tourney_step(srv *s, int max_depth);
/* 1 once the server is stopping (srv_games_stop), else 0. */
int srv_stopping(srv *s);
/* GET /api/position: a position of variant (a name, any variant; fen "" or NULL: its
 * initial position) with its legal moves and result, for the analysis board. move (NULL
 * or "": none): a move in notation played first, the answer being the position after
 * it with "played" (the MOVE); an illegal move is a 400 whose error says the rule (the
 * lessons' judge). Another variant than international adds the board's description and
 * squares as in a game's state (srv_vboard_desc, srv_vboard_json). */
void srv_op_position(const char *variant, const char *fen, const char *move, srv_reply *r);
/* GET /api/jump/position (srv_jump.c): a jumping game's position (game: a name of
 * dm_jgame_from_name, "" Chinese checkers; players "" = 2; pos: dm_jpos_from_text, ""
 * the start) with its legal moves, holes and pegs; move (NULL or "": none) played first
 * ("played" in the answer). An illegal move is a 400 with the rules core's error. */
void srv_op_jump_position(const char *game, const char *players, const char *pos, const char *move,
                          srv_reply *r);
/* The ongoing games where it is the turn of the player holding one of keys (a
 * comma-separated list of game keys, may be NULL) or of account (0: none), with each
 * game's deadline: {"games": [...]} (docs/WEB.md). */
void srv_op_your_turn(srv *s, const char *keys, int64_t account, srv_reply *r);
#define SRV_MAX_TURN_QUERY 8192 /* the bytes of ?keys= read */
/* A generic move as JSON ({text, hub, path, captured, promote}), a position's squares
 * as a string (w, W, b, B, '.'), a variant's board ({size, labels, coords, ...}). */
json_t *srv_vmove_json(const dm_board *b, const dm_move *m);
json_t *srv_vboard_json(const dm_board *b);
json_t *srv_vboard_desc(const dm_variant *v);

/* A game found by id and key: locked on success (srv_game_unlock), with the
 * caller's side; NULL with r filled (404 unknown game, 403 wrong key). */
srv_game *srv_game_open(srv *s, const char *id, const char *key, int *side, srv_reply *r);
void srv_game_unlock(srv_game *g);
/* The state of a locked game as seen by side. */
json_t *srv_game_state(srv_game *g, int side);

/* Subscribers of a game (WebSocket connections), srv_http.c. */
struct mg_connection;
void srv_subscribe(srv *s, srv_game *g, struct mg_connection *c, int side);
void srv_unsubscribe(srv *s, srv_game *g, const struct mg_connection *c);
/* Send every subscriber of g (locked) its state. */
void srv_broadcast(srv *s, srv_game *g);
/* Send a JSON value on a WebSocket (thread-safe per connection); decrefs v. */
void srv_ws_send(struct mg_connection *c, json_t *v);

/* Analysis (srv_analysis.c): one per WebSocket connection. */
typedef struct srv_analysis srv_analysis;
srv_analysis *srv_analysis_new(srv *s, struct mg_connection *c);
/* A message of the analysis socket: {"t":"analyse", ...} or {"t":"stop"}. */
void srv_analysis_message(srv_analysis *a, const json_t *msg);
void srv_analysis_free(srv_analysis *a);

/* Game registry and threads (srv_game.c). */
int srv_games_init(srv *s, char *err, size_t errcap);
void srv_games_stop(srv *s);
void srv_games_free(srv *s);

/* ---- the database (srv_db.c) ------------------------------------------------------ */

/* What the database keeps of a game. */
typedef struct srv_game_row {
    char id[24];
    char keys[4][40]; /* white, black, spectator, arbiter ("": none, a game stored
                         before arbiters or uploaded) */
    int mode;
    int engine_side; /* -1: none */
    int level;
    char variant[32];
    char time_control[64]; /* "-": none */
    char start_fen[256];   /* "": the initial position */
    char result[8];        /* "*" while ongoing */
    char reason[40];       /* dm_reason name ("" while ongoing) */
    int64_t end_t;         /* virtual time of a declared end (ms) */
    int draw_offer;        /* -1 none, else the colour that offers */
    int takeback_offer;    /* -1 none, else the colour that asks */
    int64_t t0_wall;       /* wall-clock ms of virtual time 0 */
    int64_t created;       /* wall-clock ms */
    char white_name[64];
    char black_name[64];
} srv_game_row;

/* Webhooks (srv_webhook.c): POST /api/games/ID/webhook {key, url} by a player; after
 * a move of game row (ply plies played, the last one move, to_move the side to move),
 * the player to move's URL, and both when the game is over, get a notice. Called with
 * the game locked; the calls run in their own threads. */
void srv_op_webhook(srv *s, const char *id, const char *key, const json_t *req, srv_reply *r);
void srv_webhook_moved(srv *s, const srv_game_row *row, int ply, const char *move, int to_move);
/* The webhook calls running now, in every server of the process (each a detached
 * thread that ends within about 5 s): a test waits for 0 before it stops. */
int srv_webhook_calls(void);

/* One event as stored: a move's Hub text (unique), or "undo" (a move taken back), a
 * touch-move event ("touch-move", "touch SQ", "adjust") or an arbiter's ("pause",
 * "resume", "add-time white|black MS", "declare RESULT[ NOTE]", "seal HUB"), and the
 * virtual time
 * it happened at. */
typedef struct srv_move_row {
    char hub[200];
    int64_t t;
} srv_move_row;

srv_db *srv_db_open(const char *path, int sync_full, char *err, size_t errcap);
/* The games in the PostgreSQL database at url (a libpq connection string or URI,
 * "postgresql://user@host:port/db"), shared by every server given that url; the
 * server's own tables (accounts, ratings, puzzles, the lobby, webhooks) stay in the
 * SQLite file at path. NULL with err when either cannot be opened. */
srv_db *srv_db_open_pg(const char *path, const char *url, int sync_full, char *err, size_t errcap);
/* 1 when the games are shared with other servers (srv_db_open_pg), else 0. */
int srv_db_shared(const srv_db *db);
/* Shared store: start a thread that calls fn(payload, game id, events stored) for each
 * game another server stored an event or a change of (PostgreSQL LISTEN/NOTIFY on
 * channel damier_games), until srv_db_close. 0, or -1 with err; 0 at once for SQLite. */
int srv_db_listen(srv_db *db, void (*fn)(void *, const char *, int), void *payload, char *err,
                  size_t errcap);
/* The listener stopped: fn is not called after it returns (none: nothing). */
void srv_db_unlisten(srv_db *db);
void srv_db_close(srv_db *db);
/* srv_db_add_move: an event at that index is stored already (another server stored
 * one first: the unique (game, ply)); nothing was written. */
#define SRV_DB_CONFLICT (-2)
/* Each returns 0 on success, -1 with the reason in err (a transaction failed:
 * nothing was written). */
int srv_db_insert_game(srv_db *db, const srv_game_row *row, const srv_move_row *moves, int n,
                       char *err, size_t errcap);
/* n events appended from index first and the game's row updated, in one transaction. */
int srv_db_add_move(srv_db *db, const srv_game_row *row, int first, const srv_move_row *m, int n,
                    int64_t white_ms, int64_t black_ms, char *err, size_t errcap);
/* The game's row updated (result, draw offer, t0_wall). */
int srv_db_update_game(srv_db *db, const srv_game_row *row, char *err, size_t errcap);
int srv_db_heartbeat(srv_db *db, int64_t wall_ms);
int64_t srv_db_last_heartbeat(srv_db *db);
/* Every game, in creation order: fn is called with each row and its moves. */
int srv_db_load(srv_db *db, void (*fn)(void *, const srv_game_row *, const srv_move_row *, int),
                void *payload, char *err, size_t errcap);
/* The game id, as srv_db_load gives it: 1 found (fn called), 0 not found, -1 with err. */
int srv_db_load_game(srv_db *db, const char *id,
                     void (*fn)(void *, const srv_game_row *, const srv_move_row *, int),
                     void *payload, char *err, size_t errcap);

/* Wall-clock (CLOCK_REALTIME) milliseconds. */
int64_t srv_wall_ms(void);

/* ---- the objects ------------------------------------------------------------------ */

#define SRV_BUCKETS 4096
#define SRV_QUEUE 4096

struct mg_context;

/* A subscriber: a WebSocket connection watching a game from a side. */
typedef struct srv_sub {
    struct mg_connection *conn;
    int side;
} srv_sub;

struct srv_game {
    srv_game_row row;
    pthread_mutex_t mu;
    dm_session *session;
    const dm_variant *var;  /* the game's variant (international included), never NULL */
    int replaying;          /* 1 while restoring: the clock reads vfixed */
    int corr;               /* 1: a correspondence game: virtual time follows the wall
                              clock (row.t0_wall + v), the downtime is charged */
    char cond[200];         /* conditional moves (correspondence): the opponent's expected
                              move, the reply, ... as texts separated by spaces; "" none */
    int cond_side;          /* the side the conditional moves are for */
    int cond_matched;       /* the opponent's move being played is the expected one */
    int64_t vfixed;         /* virtual time while replaying or frozen */
    int frozen;             /* 1 during one request: the clock and the stored times read vfixed */
    int64_t offset;         /* virtual time = monotonic ms + offset */
    int gen;                /* bumped by every change (the state's version) */
    int engine_queued;      /* in the engine queue or being searched */
    int nevents;            /* rows of the game in the moves table */
    char arbiter_note[128]; /* the note of the arbiter's decision ("" none) */
    char sealed[200];       /* adjourned: the sealed move's Hub text ("" none), secret */
    int sealed_side;        /* the colour that sealed it */
    srv_sub *subs;          /* under mu */
    int nsubs, capsubs;
    uint64_t rng;
    int64_t account[2]; /* the accounts playing White and Black (0: none; srv_account.c) */
    int rated;          /* 1: a rated game between two accounts (srv_rating.c) */
    json_t *players;    /* the state's "players" (srv_players_json), NULL without account */
    srv_game *next;     /* hash chain */
};

struct srv {
    srv_options opt;
    char db_path[1024];
    char static_dir[1024];
    srv_db *db;
    struct mg_context *ctx;
    int port;
    pthread_mutex_t games_mu;
    srv_game *buckets[SRV_BUCKETS];
    srv_game **all; /* creation order, for the ticker */
    int ngames, capgames;
    /* the engine's moves */
    pthread_mutex_t q_mu;
    pthread_cond_t q_cv;
    srv_game *queue[SRV_QUEUE];
    int qhead, qcount;
    pthread_t workers[8];
    struct srv_worker {
        srv *s;
        dm_engine *engine;
    } wargs[8];
    int nworkers;
    pthread_t ticker;
    int ticker_started;
    pthread_mutex_t stop_mu;
    pthread_cond_t stop_cv;
    int stopping;
    dm_engine *step_engine; /* srv_engine_step's (no_threads) */
    /* analyses */
    pthread_mutex_t an_mu;
    int analyses;
    struct srv_community *comm;      /* accounts' rate limits, the lobby (srv_community.h) */
    struct srv_library *library;     /* the master games (srv_library.c), or NULL */
    struct srv_tourney_runner *trun; /* the tournaments' engine games (srv_tourney.c) */
};

#endif
