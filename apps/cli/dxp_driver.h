/* SPDX-License-Identifier: MIT
 * apps/cli/dxp_driver.h: one DXP session (any number of games) as a state machine
 * over the library's dm_session (session.h: the game, its clock, the engine and its
 * asynchronous search) and DXP codec (damier/dxp.h). Every change of the game goes
 * through the session (dm_session_new_game, _play, _undo, _resign, _agree_draw,
 * _forfeit), which presses and stops the clock; the engine's move is searched on the
 * session through play_engine.c's levels (play_engine_choose: the clock's budget or
 * the level's limits), and each game's PDN is the library's record of the session's
 * game (dm_pdn_from_game) with the driver's Termination. It never touches a socket:
 * the front end (cmd_dxp.c) feeds it the messages received, the time passing and the
 * end of the connection, and hands the messages it sends to the peer.
 *
 * Policy (README.md, `damier dxp`):
 * - GAMEREQ: version other than 01 -> GAMEACC 1; during a game, from the follower's
 *   peer to an initiator, or with a position that is not valid or has no legal move
 *   -> GAMEACC 2 and a CHAT saying why; else GAMEACC 0 and the game starts.
 * - MOVE in the peer's turn that is malformed, illegal or ambiguous: the peer loses
 *   by forfeit (FMJD: refusing to play by the rules; DXP cannot ask for another move):
 *   CHAT with the reason, then GAMEEND reason 3 (I win).
 * - MOVE out of turn or outside a game, GAMEACC/BACKACC not asked for, malformed
 *   messages of other types, unknown headers, framing errors: CHAT "error: ..." with
 *   the reason, and the message is ignored.
 * - The game ends by the rules (dm_game: no piece, no move, repetition, 25/16/5-move
 *   rules) or at the move limit (adjudicated by a short search: +-3.00 men) or when
 *   our own clock has run out: in our turn we send GAMEEND with the reason from our
 *   side (1 I lose, 2 draw, 3 I win). A peer silent beyond its time (plus the grace)
 *   or the idle limit loses on time: CHAT, GAMEEND 3 sent out of turn.
 * - GAMEEND from the peer is acknowledged with GAMEEND 0 (and our stop code); the
 *   result is the rules' when the game is over by them, else the peer's reason
 *   (1 it resigns, 2 draw, 3 it wins; 0 at the move limit: our adjudication, as
 *   Scan sends 0 when it cannot judge; else unknown "*").
 * - BACKREQ during a game for a position of this game not after the current one:
 *   accepted (BACKACC 0), the moves are taken back and each clock keeps its time
 *   left; forward, before the start, or outside a game: BACKACC 2. */
#ifndef DM_APPS_CLI_DXP_DRIVER_H
#define DM_APPS_CLI_DXP_DRIVER_H

#include <stdint.h>
#include <stdio.h>

#include <damier/dxp.h>

#include "play.h"

/* What the driver is set up with (the command line). */
typedef struct dxp_config {
    int initiator;    /* 1: we send GAMEREQ (--connect); 0: follower (--listen) */
    int games;        /* initiator: games to play */
    int time_min;     /* initiator: thinking time per player, minutes 0..999 */
    int moves;        /* initiator: moves the time covers / move limit, 0..999 */
    int color;        /* initiator: our colour in the first game (then alternating) */
    const char *fen;  /* initiator: start position (NULL: the initial one) */
    int level, depth; /* engine strength (play_engine.c) */
    uint64_t seed;
    int grace_s;          /* seconds a peer may overstep its time before losing on it */
    int idle_s;           /* seconds of silence tolerated when no clock says more */
    const char *pdn_path; /* append each game's PDN here (NULL: none) */
    const char *site;     /* the Site tag (the peer's address) */
} dxp_config;

/* The messages the driver sends: formatted text without the NUL. */
typedef void (*dxp_send_fn)(void *payload, const char *text, size_t len);

typedef struct dxp_driver dxp_driver;

/* Make a driver; *out is the caller's (dxp_driver_free). 0 on success, else a
 * message on stderr and nonzero. */
int dxp_driver_new(dxp_driver **out, const dxp_config *cfg, dxp_send_fn send, void *payload);
void dxp_driver_free(dxp_driver *d);

/* The connection is up: the initiator sends its first GAMEREQ. */
void dxp_driver_connected(dxp_driver *d);

/* One message received (text[0..len), without its NUL). */
void dxp_driver_message(dxp_driver *d, const char *text, size_t len);

/* A framing error of the stream (overlong, empty, or half a message followed by
 * silence): answered with a CHAT. */
void dxp_driver_frame_error(dxp_driver *d, const char *what);

/* 1 when it is our move in a game in progress: the caller runs dxp_driver_think
 * (after reading what is already waiting on the connection). */
int dxp_driver_our_turn(const dxp_driver *d);

/* Choose and send our move, or end the game when it is over (rules, move limit, our
 * clock). Blocks for the search. */
void dxp_driver_think(dxp_driver *d);

/* Milliseconds until the driver must be polled again (a peer's deadline), -1 for none. */
int dxp_driver_timeout_ms(dxp_driver *d);

/* Time has passed: deadlines are checked. */
void dxp_driver_tick(dxp_driver *d);

/* The connection was lost (or is being closed by us): a game in progress is saved
 * with its moves so far (result "*"). */
void dxp_driver_disconnected(dxp_driver *d, const char *why);

/* 1 when the session is over (stop code, all games played, refusal, too many bad
 * messages): the caller closes the connection. */
int dxp_driver_finished(const dxp_driver *d);

/* The exit status the session deserves: 0 when every game was played to its end and
 * nothing failed, 1 otherwise. */
int dxp_driver_status(const dxp_driver *d);

/* Print the `match:` summary line on f. */
void dxp_driver_summary(const dxp_driver *d, FILE *f);

#endif
