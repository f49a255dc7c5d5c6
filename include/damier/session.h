/* SPDX-License-Identifier: MIT
 * damier/session.h: a session: one game of any draughts variant with its clock and an
 * engine, the object front ends (the Hub, DXP, the terminal game, matches) play on.
 * One set of calls serves every variant, international included: moves are dm_move,
 * the position is dm_session_position, the search reports dm_info and ends with a
 * dm_result (dm_engine_search, which searches an international game
 * on the fast 10x10 board).
 *
 * A session owns
 *   - a dm_game: position, history, results and draw-rule state (game.h);
 *   - a dm_clock when the game has a time control (clock.h); a move played presses it;
 *   - a dm_engine (engine.h), made at the first search, and the search thread that
 *     dm_session_go starts: the search runs asynchronously, reports through
 *     callbacks, and is stopped, ponder-hit and waited for from the owning thread.
 * The engine is told about the game through the game layer (dm_search_input_from_game:
 * its history hashes and dm_game_draw_count): the draw rules in search see the same
 * history as the game.
 *
 * Threads: one thread owns the session and makes every call, except dm_session_stop,
 * dm_session_ponderhit and dm_session_searching, which are safe from any thread (a
 * callback or a signal-free reader thread included) while the session lives. The
 * callbacks run on the search thread and must not call the other functions.
 * No global state: two sessions share nothing. The library never prints. */
#ifndef DM_SESSION_H
#define DM_SESSION_H

#include <stddef.h>
#include <stdint.h>

#include <damier/clock.h>
#include <damier/engine.h>
#include <damier/game.h>
#include <damier/status.h>
#include <damier/variant.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct dm_session dm_session;

/* Creation options. Initialise with DM_SESSION_OPTIONS_INIT, then change fields. */
typedef struct dm_session_options {
    int version;              /* DM_SESSION_OPTIONS_VERSION */
    dm_engine_options engine; /* the engine's table size and threads (engine.h) */
    dm_game_rules rules;      /* draw rules of the games dm_session_new_game makes */
    dm_time_fn now;           /* the clock's time source, NULL = dm_clock_monotonic_ms */
    void *now_payload;        /* passed to now */
} dm_session_options;

#define DM_SESSION_OPTIONS_VERSION 1
#define DM_SESSION_OPTIONS_INIT                                                                    \
    {                                                                                              \
        DM_SESSION_OPTIONS_VERSION, DM_ENGINE_OPTIONS_INIT, DM_GAME_RULES_INIT, NULL, NULL         \
    }

/* Create a session holding a game from the initial position without a clock. opts may
 * be NULL for the defaults (copied). *out belongs to the caller (dm_session_free).
 * DM_EINVAL (bad version, engine options or rules; err says which), DM_ENOMEM. The
 * engine itself is allocated at the first dm_session_go. */
DM_API dm_status dm_session_create(dm_session **out, const dm_session_options *opts, dm_error *err);

/* Stop and wait for a running search, then free everything; NULL is fine. Not from a
 * callback. */
DM_API void dm_session_free(dm_session *s);

/* ---- the game -------------------------------------------------------------------- */

/* How a new game starts. Initialise with DM_SESSION_SETUP_INIT. */
typedef struct dm_session_setup {
    int version;                     /* DM_SESSION_SETUP_VERSION */
    const dm_board *start;           /* start position of any variant (copied; the game is
                                        of start->variant; fen and variant unused), or
                                        NULL: ... */
    const char *fen;                 /* ... this FEN of variant (dm_board_from_fen), or
                                        NULL: the variant's initial position */
    const dm_time_control *white_tc; /* White's time control; NULL: no clock */
    const dm_time_control *black_tc; /* Black's; NULL: the same as White's */
    const dm_variant *variant;       /* the game's variant without start (NULL:
                                        international) */
} dm_session_setup;

#define DM_SESSION_SETUP_VERSION 2
#define DM_SESSION_SETUP_INIT                                                                      \
    {                                                                                              \
        DM_SESSION_SETUP_VERSION, NULL, NULL, NULL, NULL, NULL                                     \
    }

/* Start a new game (g NULL: the initial position, no clock) under the session's rules
 * (an international game; a game of another variant keeps its variant's draw rules).
 * With a time control the clock starts at once for the side to move. The engine
 * forgets what it learnt (dm_engine_clear). On error nothing changes but the session
 * remembers that a position was refused: dm_session_go refuses until a position is
 * accepted (dm_session_new_game, dm_session_set_game). Errors: DM_EPARSE bad FEN,
 * DM_EINVAL bad board or time control (err says why), DM_ESTATE a search is running,
 * DM_ENOMEM. */
DM_API dm_status dm_session_new_game(dm_session *s, const dm_session_setup *g, dm_error *err);

/* Replace the game by game (taken over on DM_OK, the caller's otherwise): a position
 * sent by a protocol as start plus moves, or a record read with dm_pdn_to_game. The
 * game (of any variant) keeps its own rules; the engine keeps what it learnt; the clock
 * (if any) keeps its times and runs for the new game's side to move (paused if it is
 * over).
 * DM_EINVAL for NULLs,
 * DM_ESTATE while a search runs (err says why). */
DM_API dm_status dm_session_set_game(dm_session *s, dm_game *game, dm_error *err);

/* The position a protocol sent could not be taken (its own parsing refused it, e.g. an
 * illegal move in its move list): the session keeps its game, and dm_session_go
 * refuses until a position is accepted, so that no search answers a question about
 * an older position. */
DM_API void dm_session_refuse_position(dm_session *s);

/* Play a move of the side to move (dm_game_play rules) and press the clock (when it
 * runs): the mover's time stops, its increment is added, the opponent's starts; a move
 * that ends the game stops the clock. m is a legal move of the current position of any
 * variant (dm_game_play), text any notation dm_move_parse reads. Errors (nothing
 * changes): DM_EILLEGAL, DM_EPARSE / DM_EAMBIGUOUS (text, as dm_move_parse), DM_ESTATE
 * (a search is running; the game is over; the mover's flag has fallen: the game is then
 * lost on time), DM_ENOMEM; err says why. */
DM_API dm_status dm_session_play(dm_session *s, const dm_move *m, dm_error *err);
DM_API dm_status dm_session_play_text(dm_session *s, const char *text, dm_error *err);

/* Take back the last move / replay the next one (dm_game_undo / _redo). The clock, if
 * it runs, goes to the side now to move without counting a move (times unchanged).
 * DM_ESTATE when there is nothing to undo / redo or a search is running. */
DM_API dm_status dm_session_undo(dm_session *s);
DM_API dm_status dm_session_redo(dm_session *s);

/* Declare a result (dm_game_resign / dm_game_agree_draw / dm_game_forfeit: `who`
 * refused to play by the rules, e.g. an engine without a move / dm_game_declare_no_win:
 * neither side can win) and stop the clock.
 * DM_ESTATE when the game is over or a search is running, DM_EINVAL for a bad colour. */
DM_API dm_status dm_session_resign(dm_session *s, dm_color who);
DM_API dm_status dm_session_agree_draw(dm_session *s);
DM_API dm_status dm_session_forfeit(dm_session *s, dm_color who);
DM_API dm_status dm_session_declare_no_win(dm_session *s);
/* The arbiter's decision (dm_game_declare_arbiter: outcome a win of either side or a
 * draw, DM_REASON_ARBITER) and stop the clock. DM_ESTATE when the game is over or a
 * search is running, DM_EINVAL for an outcome that is not a result. */
DM_API dm_status dm_session_declare_arbiter(dm_session *s, dm_outcome outcome);

/* Touch-move on the session's game (damier/game.h: dm_game_set_touch_move,
 * dm_game_touch, dm_game_adjust): the same rule, errors and out-parameters, and
 * DM_ESTATE while a search is running. The rule's state is read with
 * dm_game_touch_move / dm_game_touched on dm_session_game. */
DM_API dm_status dm_session_set_touch_move(dm_session *s, int on);
DM_API dm_status dm_session_touch(dm_session *s, int sq, int *committed, dm_error *err);
DM_API dm_status dm_session_adjust(dm_session *s, dm_error *err);

/* The result now: the game's, after polling the clock (a fallen flag of the side to
 * move is declared as a loss on time here). *reason may be NULL. */
DM_API dm_outcome dm_session_result(dm_session *s, dm_reason *reason);

/* The game, the current position and the clock (NULL without a time control), owned
 * by the session: valid until the next call that changes the game. Do not change the
 * game through the pointer; the clock may be read and paused (dm_clock_pause/resume). */
DM_API const dm_game *dm_session_game(const dm_session *s);
DM_API const dm_board *dm_session_position(const dm_session *s);
DM_API dm_clock *dm_session_clock(dm_session *s);

/* What the engine is given for the current position (dm_search_input_from_game):
 * root, the history hashes (into history, cap entries; DM_ENGINE_MAX_HISTORY suffice;
 * in->history points there) and the draw counters, all from the game layer. */
DM_API void dm_session_search_input(dm_search_input *in, uint64_t *history, int cap,
                                    const dm_session *s);

/* Make the engine now (it is otherwise made at the first dm_session_go), so that a
 * protocol engine's first answer does not pay for allocating and clearing its table.
 * Nothing when it exists. DM_ENOMEM, DM_ESTATE while a search runs. */
DM_API dm_status dm_session_prepare_engine(dm_session *s);

/* The session's engine (made if need be), for searches the caller runs itself on
 * other positions than the current one (e.g. scoring every root move) with
 * dm_engine_search on the owning thread. NULL while a search of the session runs or
 * when it cannot be made. Owned by the session; the same engine for its lifetime. */
DM_API dm_engine *dm_session_engine(dm_session *s);

/* Change the engine's table size and threads (dm_engine_set_options). DM_ESTATE while
 * a search runs, DM_EINVAL, DM_ENOMEM (the old settings stay). */
DM_API dm_status dm_session_set_engine_options(dm_session *s, const dm_engine_options *opts);

struct dm_book;

/* Play from the opening book bk (damier/book.h; NULL: none, the default) in later
 * searches: dm_session_go on an international position that bk holds a legal move of
 * answers with a book move (dm_book_pick with seed: 0 the highest weight, another seed
 * a weighted draw) instead of searching: one info report (depth and score of the book
 * entry, the move as PV, 0 nodes), then the done callback with that move. Never for
 * limits.analyse, infinite or ponder searches, which search. The session does not own
 * bk, which must outlive its use. DM_ESTATE while a search runs. */
DM_API dm_status dm_session_set_book(dm_session *s, const struct dm_book *bk, uint64_t seed);

/* ---- searching ------------------------------------------------------------------- */

/* Called once when a search has ended, on the search thread, with its result (valid
 * during the call). The session still counts as searching until it returns. */
typedef void (*dm_session_done_fn)(const dm_result *result, void *payload);

/* What dm_session_go searches for. Initialise with DM_SESSION_GO_INIT. */
typedef struct dm_session_go_options {
    int version;                /* DM_SESSION_GO_VERSION */
    dm_limits limits;           /* explicit limits (engine.h): depth, nodes, move_time,
                             infinite, ponder, analyse; time/inc/moves_to_go too when
                             use_clock is 0 (a protocol's clock, e.g. Hub `level`) */
    int use_clock;              /* 1 (default): when the session has a clock, time, inc and
                             moves_to_go are the side to move's remaining time,
                             increment and moves to the next control, and the engine's
                             time management budgets the move from them */
    dm_info_fn on_info;         /* after each iteration, on the search thread; may be NULL */
    dm_session_done_fn on_done; /* at the end, on the search thread; may be NULL */
    void *payload;              /* passed to both */
} dm_session_go_options;

#define DM_SESSION_GO_VERSION 2
#define DM_SESSION_GO_INIT                                                                         \
    {                                                                                              \
        DM_SESSION_GO_VERSION, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, 1, NULL, NULL, NULL                 \
    }

/* Start searching the current position for the side to move on a thread of the
 * session; returns at once. go NULL: DM_SESSION_GO_INIT (the clock's budget, or until
 * dm_session_stop without a clock). With no limit at all the search runs until
 * stopped. Refused (DM_ESTATE, err says why): a search is running; the game accepts
 * no more moves (decided, and not a draw-rule result played through under
 * play_after_end); the last position given was refused. DM_EINVAL bad options,
 * DM_ENOMEM the engine or the thread cannot be made. The session's position cannot
 * change until the search has ended, so the search is always on the current one. */
DM_API dm_status dm_session_go(dm_session *s, const dm_session_go_options *go, dm_error *err);

/* Ask the running search to end soon (a few ms; it returns its best move so far, at
 * least depth 1). Any thread; nothing when no search runs. */
DM_API void dm_session_stop(dm_session *s);

/* The expected move was played: a pondering search (limits.ponder) starts its time
 * budget now. Any thread; nothing when no search runs. */
DM_API void dm_session_ponderhit(dm_session *s);

/* 1 from dm_session_go until the search thread has ended (its done callback
 * returned). Any thread. */
DM_API int dm_session_searching(const dm_session *s);

/* Wait for the search started last to end and get its result (*out may be NULL). The
 * result stays available: wait again gives it again, until the next go or new game.
 * DM_ESTATE when there is none (no search since), or from a callback. */
DM_API dm_status dm_session_wait(dm_session *s, dm_result *out);

#ifdef __cplusplus
}
#endif
#endif /* DM_SESSION_H */
