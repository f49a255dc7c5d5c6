/* SPDX-License-Identifier: MIT
 * session/session.c: a game with its clock and an engine (damier/session.h).
 *
 * The owner thread makes every call but stop / ponderhit / searching. dm_session_go
 * copies what the search needs (root, history, counters, limits, callbacks) into the
 * session and starts one thread that runs dm_engine_search (every variant;
 * the engine searches international on its fast board), publishes the result,
 * calls the done callback and ends. Only atomics are shared with it:
 *   searching     1 from go until the thread is about to end (after the callback);
 *   result_ready  1 once the result is written (before the done callback);
 *   stop_wanted / ponderhit_wanted: requests, repeated from the info callback
 *                 because dm_engine_search clears them on entry.
 * Every call that changes the game first "settles" the search: none started, or
 * ended, or with its result published (the done callback is then running and the
 * thread ending: it is joined); a search still thinking makes the call DM_ESTATE.
 * So the position cannot change under a search. */
#define _POSIX_C_SOURCE 200809L
#include <damier/book.h>
#include <damier/session.h>

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

struct dm_session {
    dm_session_options opts;
    dm_game *game;
    dm_clock *clock;   /* NULL: no time control */
    int clock_held;    /* the session paused the clock when the game ended */
    dm_engine *engine; /* made at the first go */
    int refused;       /* the last position given was refused */
    /* the search (written by go before the thread starts, then read by it) */
    pthread_t thread;
    int thread_live; /* a thread was started and is not joined yet */
    atomic_int searching;
    atomic_int result_ready;
    atomic_int stop_wanted;
    atomic_int ponderhit_wanted;
    int ponderhit_repeated; /* search thread only */
    int has_result;         /* owner: result holds the last search's result */
    dm_result result;
    dm_search_input in;
    uint64_t history[DM_ENGINE_MAX_HISTORY];
    dm_limits lim;
    dm_session_go_options go;
    const dm_book *book; /* dm_session_set_book (NULL: none) */
    uint64_t book_seed;
    int book_hit;           /* this search answers with book_move */
    dm_book_move book_move; /* ... chosen by go */
};

static dm_status check_rules(const dm_game_rules *r, dm_error *err)
{
    /* dm_game_set_rules is the judge: try them on a scratch game */
    dm_game *g;
    dm_status st = dm_game_new(&g, NULL);
    if (st != DM_OK) {
        return dm_error_set(err, st, 0, 0, "out of memory");
    }
    st = dm_game_set_rules(g, r);
    dm_game_free(g);
    if (st != DM_OK) {
        return dm_error_set(err, st, 0, 0, "bad draw rules (version, thresholds)");
    }
    return DM_OK;
}

static dm_status check_engine_options(const dm_engine_options *o, dm_error *err)
{
    if (o->version != DM_ENGINE_OPTIONS_VERSION || o->tt_mib < 1 || o->tt_mib > 65536 ||
        o->threads < 1 || o->threads > DM_ENGINE_MAX_THREADS) {
        return dm_error_set(err, DM_EINVAL, 0, 0,
                            "bad engine options (version, tt_mib 1..65536, threads 1..%d)",
                            DM_ENGINE_MAX_THREADS);
    }
    return DM_OK;
}

dm_status dm_session_create(dm_session **out, const dm_session_options *opts, dm_error *err)
{
    if (!out) {
        return dm_error_set(err, DM_EINVAL, 0, 0, "no session to create");
    }
    dm_session_options def = DM_SESSION_OPTIONS_INIT;
    if (!opts) {
        opts = &def;
    }
    if (opts->version != DM_SESSION_OPTIONS_VERSION) {
        return dm_error_set(err, DM_EINVAL, 0, 0, "session options version %d, expected %d",
                            opts->version, DM_SESSION_OPTIONS_VERSION);
    }
    dm_status st = check_engine_options(&opts->engine, err);
    st = st ? st : check_rules(&opts->rules, err);
    if (st != DM_OK) {
        return st;
    }
    dm_session *s = calloc(1, sizeof *s);
    if (!s) {
        return dm_error_set(err, DM_ENOMEM, 0, 0, "out of memory");
    }
    s->opts = *opts;
    if (dm_game_new(&s->game, NULL) != DM_OK || dm_game_set_rules(s->game, &opts->rules)) {
        dm_game_free(s->game);
        free(s);
        return dm_error_set(err, DM_ENOMEM, 0, 0, "out of memory");
    }
    atomic_init(&s->searching, 0);
    atomic_init(&s->result_ready, 0);
    atomic_init(&s->stop_wanted, 0);
    atomic_init(&s->ponderhit_wanted, 0);
    *out = s;
    return DM_OK;
}

static void join(dm_session *s)
{
    if (s->thread_live) {
        pthread_join(s->thread, NULL);
        s->thread_live = 0;
    }
}

void dm_session_free(dm_session *s)
{
    if (!s) {
        return;
    }
    if (s->thread_live) {
        dm_session_stop(s);
        join(s);
    }
    dm_engine_free(s->engine);
    dm_clock_free(s->clock);
    dm_game_free(s->game);
    free(s);
}

/* May the game change now? Joins an ended search. DM_ESTATE while one thinks. */
static dm_status settle(dm_session *s, dm_error *err)
{
    if (!s->thread_live) {
        return DM_OK;
    }
    if (!atomic_load(&s->result_ready)) {
        return dm_error_set(err, DM_ESTATE, 0, 0,
                            "a search is running (dm_session_stop, then dm_session_wait)");
    }
    if (pthread_join(s->thread, NULL) == EDEADLK) {
        return dm_error_set(err, DM_ESTATE, 0, 0, "not from the search's callbacks");
    }
    s->thread_live = 0;
    return DM_OK;
}

/* ---- the clock ----------------------------------------------------------------- */

/* The game accepts no more moves: what dm_game_play would refuse (a decided result,
 * except a draw by rule played through under play_after_end). */
static int finished(const dm_game *g, dm_error *err)
{
    dm_reason r;
    dm_outcome o = dm_game_result(g, &r);
    if (o == DM_OUTCOME_ONGOING) {
        return 0;
    }
    int draw_rule = r == DM_REASON_REPETITION || r == DM_REASON_25_MOVES ||
                    r == DM_REASON_16_MOVES || r == DM_REASON_5_MOVES;
    if (draw_rule && dm_game_rules_of(g)->play_after_end) {
        return 0;
    }
    dm_error_set(err, DM_ESTATE, 0, 0, "the game is over: %s (%s)", dm_outcome_str(o),
                 dm_reason_str(r));
    return 1;
}

/* A fallen flag of the running side becomes a loss on time; the end of the game (no
 * more moves accepted; a draw by rule played through keeps it running) pauses the
 * clock, so that undo can start it again. */
static void sync_clock(dm_session *s)
{
    if (!s->clock) {
        return;
    }
    dm_color who;
    if (dm_clock_flagged(s->clock, &who)) {
        if (!dm_game_over(s->game)) {
            dm_game_flag(s->game, who);
        }
        return;
    }
    if (finished(s->game, NULL)) {
        if (dm_clock_running(s->clock, NULL) && dm_clock_pause(s->clock) == DM_OK) {
            s->clock_held = 1;
        }
        return;
    }
    /* the game goes on (after undo): the side to move has the clock */
    dm_color side = (dm_color)dm_game_position(s->game)->side;
    dm_clock_switch(s->clock, side);
    if (s->clock_held && dm_clock_resume(s->clock) == DM_OK) {
        s->clock_held = 0;
    }
}

/* ---- the game ------------------------------------------------------------------ */

dm_status dm_session_new_game(dm_session *s, const dm_session_setup *g, dm_error *err)
{
    if (!s) {
        return dm_error_set(err, DM_EINVAL, 0, 0, "no session");
    }
    dm_session_setup def = DM_SESSION_SETUP_INIT;
    if (!g) {
        g = &def;
    }
    dm_status st = settle(s, err);
    if (st != DM_OK) {
        return st;
    }
    if (g->version != DM_SESSION_SETUP_VERSION) {
        s->refused = 1;
        return dm_error_set(err, DM_EINVAL, 0, 0, "setup version %d, expected %d", g->version,
                            DM_SESSION_SETUP_VERSION);
    }
    dm_board start;
    const dm_variant *v = g->variant ? g->variant : dm_variant_get(DM_VARIANT_INTERNATIONAL);
    if (g->start) {
        start = *g->start;
        if (start.variant == NULL) {
            s->refused = 1;
            return dm_error_set(err, DM_EINVAL, 0, 0, "the start position has no variant");
        }
        if (dm_board_validate(&start, err) != DM_OK) {
            s->refused = 1;
            return DM_EINVAL;
        }
    } else if (g->fen) {
        st = dm_board_from_fen(&start, v, g->fen, err);
        if (st != DM_OK) {
            s->refused = 1;
            return st;
        }
    } else {
        dm_board_start(&start, v);
    }
    dm_game *game = NULL;
    dm_clock *clock = NULL;
    st = dm_game_new(&game, &start);
    if (st == DM_OK && start.variant->id == DM_VARIANT_INTERNATIONAL) {
        st = dm_game_set_rules(game, &s->opts.rules);
    }
    if (st != DM_OK) {
        dm_game_free(game);
        s->refused = 1;
        return dm_error_set(err, st, 0, 0, "cannot make the game: %s", dm_status_str(st));
    }
    if (g->white_tc) {
        st = dm_clock_new(&clock, g->white_tc, g->black_tc, s->opts.now, s->opts.now_payload, err);
        if (st != DM_OK) {
            dm_game_free(game);
            s->refused = 1;
            return st;
        }
    }
    dm_game_free(s->game);
    dm_clock_free(s->clock);
    s->game = game;
    s->clock = clock;
    s->clock_held = 0;
    s->refused = 0;
    s->has_result = 0;
    if (s->engine) {
        dm_engine_clear(s->engine);
    }
    if (clock && !finished(game, NULL)) {
        dm_clock_start(clock, (dm_color)start.side);
    }
    return DM_OK;
}

dm_status dm_session_set_game(dm_session *s, dm_game *game, dm_error *err)
{
    if (!s || !game) {
        return dm_error_set(err, DM_EINVAL, 0, 0, "no session or no game");
    }
    dm_status st = settle(s, err);
    if (st != DM_OK) {
        return st;
    }
    dm_game_free(s->game);
    s->game = game;
    s->refused = 0;
    s->has_result = 0;
    sync_clock(s);
    return DM_OK;
}

void dm_session_refuse_position(dm_session *s)
{
    if (s) {
        s->refused = 1;
    }
}

/* Before a move: the mover may have run out of time. */
static dm_status before_move(dm_session *s, dm_error *err)
{
    if (!s) {
        return dm_error_set(err, DM_EINVAL, 0, 0, "no session");
    }
    dm_status st = settle(s, err);
    if (st != DM_OK) {
        return st;
    }
    sync_clock(s); /* a fallen flag ends the game before the move */
    return finished(s->game, err) ? DM_ESTATE : DM_OK;
}

/* After a move was played: press the clock, stop it at the end of the game. */
static void after_move(dm_session *s)
{
    s->has_result = 0;
    if (s->clock && dm_clock_running(s->clock, NULL)) {
        dm_clock_press(s->clock);
    }
    sync_clock(s);
}

dm_status dm_session_play(dm_session *s, const dm_move *m, dm_error *err)
{
    dm_status st = before_move(s, err);
    if (st != DM_OK) {
        return st;
    }
    if (!m) {
        return dm_error_set(err, DM_EINVAL, 0, 0, "no move");
    }
    st = dm_game_play(s->game, m);
    if (st != DM_OK) {
        char text[400];
        dm_move_to_text(text, sizeof text, dm_game_position(s->game), m, DM_NOTATION_FULL,
                        DM_SQUARES_DEFAULT);
        return dm_error_set(err, st, 0, 0, "move %s: %s", text, dm_status_str(st));
    }
    after_move(s);
    return DM_OK;
}

dm_status dm_session_play_text(dm_session *s, const char *text, dm_error *err)
{
    dm_status st = before_move(s, err);
    if (st != DM_OK) {
        return st;
    }
    if (!text) {
        return dm_error_set(err, DM_EINVAL, 0, 0, "no move text");
    }
    st = dm_game_play_text(s->game, text, err);
    if (st != DM_OK) {
        return st;
    }
    after_move(s);
    return DM_OK;
}

static dm_status step(dm_session *s, dm_status (*fn)(dm_game *))
{
    if (!s || settle(s, NULL) != DM_OK) {
        return DM_ESTATE;
    }
    dm_status st = fn(s->game);
    if (st == DM_OK) {
        s->has_result = 0;
        sync_clock(s);
    }
    return st;
}

dm_status dm_session_undo(dm_session *s)
{
    return step(s, dm_game_undo);
}

dm_status dm_session_redo(dm_session *s)
{
    return step(s, dm_game_redo);
}

/* A declared result: the game's call fn(game, who), then the clock follows. */
static dm_status declare(dm_session *s, dm_status (*fn)(dm_game *, dm_color), dm_color who)
{
    if (!s || settle(s, NULL) != DM_OK) {
        return DM_ESTATE;
    }
    sync_clock(s);
    dm_status st = fn(s->game, who);
    sync_clock(s);
    return st;
}

static dm_status agree(dm_game *g, dm_color who)
{
    (void)who;
    return dm_game_agree_draw(g);
}

dm_status dm_session_resign(dm_session *s, dm_color who)
{
    return declare(s, dm_game_resign, who);
}

dm_status dm_session_agree_draw(dm_session *s)
{
    return declare(s, agree, DM_WHITE);
}

static dm_status no_win(dm_game *g, dm_color who)
{
    (void)who;
    return dm_game_declare_no_win(g);
}

dm_status dm_session_declare_no_win(dm_session *s)
{
    return declare(s, no_win, DM_WHITE);
}

dm_status dm_session_declare_arbiter(dm_session *s, dm_outcome outcome)
{
    if (outcome != DM_OUTCOME_WHITE_WINS && outcome != DM_OUTCOME_BLACK_WINS &&
        outcome != DM_OUTCOME_DRAW) {
        return DM_EINVAL;
    }
    if (!s || settle(s, NULL) != DM_OK) {
        return DM_ESTATE;
    }
    sync_clock(s);
    dm_status st = dm_game_declare_arbiter(s->game, outcome);
    sync_clock(s);
    return st;
}

dm_status dm_session_set_touch_move(dm_session *s, int on)
{
    if (!s || settle(s, NULL) != DM_OK) {
        return DM_ESTATE;
    }
    dm_game_set_touch_move(s->game, on);
    return DM_OK;
}

dm_status dm_session_touch(dm_session *s, int sq, int *committed, dm_error *err)
{
    if (!s) {
        return dm_error_set(err, DM_EINVAL, 0, 0, "no session");
    }
    dm_status st = settle(s, err);
    if (st != DM_OK) {
        return st;
    }
    return dm_game_touch(s->game, sq, committed, err);
}

dm_status dm_session_adjust(dm_session *s, dm_error *err)
{
    if (!s) {
        return dm_error_set(err, DM_EINVAL, 0, 0, "no session");
    }
    dm_status st = settle(s, err);
    if (st != DM_OK) {
        return st;
    }
    return dm_game_adjust(s->game, err);
}

dm_status dm_session_forfeit(dm_session *s, dm_color who)
{
    return declare(s, dm_game_forfeit, who);
}

dm_outcome dm_session_result(dm_session *s, dm_reason *reason)
{
    /* a running search keeps the game as it is; the flag is only read then */
    if (settle(s, NULL) == DM_OK) {
        sync_clock(s);
    }
    return dm_game_result(s->game, reason);
}

const dm_game *dm_session_game(const dm_session *s)
{
    return s->game;
}

const dm_board *dm_session_position(const dm_session *s)
{
    return dm_game_position(s->game);
}

dm_clock *dm_session_clock(dm_session *s)
{
    return s->clock;
}

void dm_session_search_input(dm_search_input *in, uint64_t *history, int cap, const dm_session *s)
{
    dm_search_input_from_game(in, history, cap, s->game);
}

dm_status dm_session_prepare_engine(dm_session *s)
{
    if (!s) {
        return DM_EINVAL;
    }
    if (s->engine) {
        return DM_OK;
    }
    if (settle(s, NULL) != DM_OK) {
        return DM_ESTATE;
    }
    dm_status st = dm_engine_create(&s->engine, &s->opts.engine);
    if (st != DM_OK) {
        s->engine = NULL;
    }
    return st;
}

dm_engine *dm_session_engine(dm_session *s)
{
    if (!s || settle(s, NULL) != DM_OK || dm_session_prepare_engine(s) != DM_OK) {
        return NULL;
    }
    return s->engine;
}

dm_status dm_session_set_engine_options(dm_session *s, const dm_engine_options *opts)
{
    if (!s || !opts || check_engine_options(opts, NULL) != DM_OK) {
        return DM_EINVAL;
    }
    if (settle(s, NULL) != DM_OK) {
        return DM_ESTATE;
    }
    if (s->engine) {
        dm_status st = dm_engine_set_options(s->engine, opts);
        if (st != DM_OK) {
            return st;
        }
    }
    s->opts.engine = *opts;
    return DM_OK;
}

/* ---- searching ------------------------------------------------------------------ */

/* The requests made before the engine's search began, which cleared them. */
static void repeat_requests(dm_session *s)
{
    if (atomic_load(&s->stop_wanted)) {
        dm_engine_stop(s->engine);
    }
    if (atomic_load(&s->ponderhit_wanted) && !s->ponderhit_repeated) {
        s->ponderhit_repeated = 1;
        dm_engine_ponderhit(s->engine);
    }
}

static void on_info(const dm_info *info, void *payload)
{
    dm_session *s = payload;
    /* a request made before the engine's search began was cleared by it: repeat it (the
     * first iteration takes microseconds) */
    repeat_requests(s);
    if (s->go.on_info) {
        s->go.on_info(info, s->go.payload);
    }
}

static void *search_main(void *arg)
{
    dm_session *s = arg;
    dm_result *r = &s->result;
    if (s->book_hit) {
        memset(r, 0, sizeof *r);
        r->has_move = 1;
        r->best = s->book_move.move;
        r->score = s->book_move.score;
        r->depth = s->book_move.depth;
        if (s->go.on_info) {
            dm_info info;
            memset(&info, 0, sizeof info);
            info.depth = r->depth;
            info.score = r->score;
            info.pv_count = 1;
            info.pv[0] = r->best;
            info.multipv = 1;
            info.multipv_count = 1;
            s->go.on_info(&info, s->go.payload);
        }
    } else if (dm_engine_search(r, s->engine, &s->in, &s->lim, on_info, s, NULL) != DM_OK) {
        memset(r, 0, sizeof *r); /* only out of memory (12x12): the root was checked */
    }
    atomic_store(&s->result_ready, 1);
    if (s->go.on_done) {
        s->go.on_done(r, s->go.payload);
    }
    atomic_store(&s->searching, 0);
    return NULL;
}

/* The book's answer (international only: the book is of 10x10 positions) to the
 * current position, into s->book_move; 0 when none. */
static int book_pick(dm_session *s)
{
    if (!s->book || s->lim.analyse || s->lim.infinite || s->lim.ponder ||
        !dm_book_pick(s->book, &s->in.root, s->book_seed, &s->book_move)) {
        return 0;
    }
    return 1;
}

dm_status dm_session_go(dm_session *s, const dm_session_go_options *go, dm_error *err)
{
    if (!s) {
        return dm_error_set(err, DM_EINVAL, 0, 0, "no session");
    }
    dm_session_go_options def = DM_SESSION_GO_INIT;
    if (!go) {
        go = &def;
    }
    if (go->version != DM_SESSION_GO_VERSION) {
        return dm_error_set(err, DM_EINVAL, 0, 0, "go options version %d, expected %d", go->version,
                            DM_SESSION_GO_VERSION);
    }
    const dm_limits *l = &go->limits;
    if (l->depth < 0 || l->move_time < 0 || l->time < 0 || l->inc < 0 || l->moves_to_go < 0) {
        return dm_error_set(err, DM_EINVAL, 0, 0, "negative limits");
    }
    dm_status st = settle(s, err);
    if (st != DM_OK) {
        return st;
    }
    if (s->refused) {
        return dm_error_set(err, DM_ESTATE, 0, 0,
                            "the last position given was refused: give a valid one first");
    }
    sync_clock(s);
    if (finished(s->game, err)) {
        return DM_ESTATE;
    }
    st = dm_session_prepare_engine(s);
    if (st != DM_OK) {
        return dm_error_set(err, st, 0, 0, "cannot create the engine: %s", dm_status_str(st));
    }
    s->go = *go;
    s->lim = go->limits;
    if (go->use_clock && s->clock) {
        dm_clock_side cs;
        dm_color side = (dm_color)dm_game_position(s->game)->side;
        dm_clock_side_info(&cs, s->clock, side);
        if (cs.remaining_ms != INT64_MAX) {
            /* at least a millisecond: zero would mean "no clock" to the engine */
            s->lim.time = cs.remaining_ms > 0 ? (double)cs.remaining_ms / 1000.0 : 1e-3;
            s->lim.inc = (double)cs.increment_ms / 1000.0;
            s->lim.moves_to_go = cs.moves_to_go;
        }
    }
    dm_session_search_input(&s->in, s->history, DM_ENGINE_MAX_HISTORY, s);
    s->book_hit = book_pick(s);
    atomic_store(&s->stop_wanted, 0);
    atomic_store(&s->ponderhit_wanted, 0);
    atomic_store(&s->result_ready, 0);
    atomic_store(&s->searching, 1);
    s->ponderhit_repeated = 0;
    s->has_result = 0;
    if (pthread_create(&s->thread, NULL, search_main, s) != 0) {
        atomic_store(&s->searching, 0);
        return dm_error_set(err, DM_ENOMEM, 0, 0, "cannot start the search thread");
    }
    s->thread_live = 1;
    s->has_result = 1; /* once joined */
    return DM_OK;
}

dm_status dm_session_set_book(dm_session *s, const dm_book *bk, uint64_t seed)
{
    if (!s) {
        return DM_EINVAL;
    }
    if (settle(s, NULL) != DM_OK) {
        return DM_ESTATE;
    }
    s->book = bk;
    s->book_seed = seed;
    return DM_OK;
}

void dm_session_stop(dm_session *s)
{
    if (s && atomic_load(&s->searching)) {
        atomic_store(&s->stop_wanted, 1);
        dm_engine_stop(s->engine);
    }
}

void dm_session_ponderhit(dm_session *s)
{
    if (s && atomic_load(&s->searching)) {
        atomic_store(&s->ponderhit_wanted, 1);
        dm_engine_ponderhit(s->engine);
    }
}

int dm_session_searching(const dm_session *s)
{
    return s ? atomic_load(&s->searching) : 0;
}

static dm_status wait_thread(dm_session *s)
{
    if (!s || !s->has_result) {
        return DM_ESTATE;
    }
    if (s->thread_live) {
        if (pthread_join(s->thread, NULL) == EDEADLK) {
            return DM_ESTATE;
        }
        s->thread_live = 0;
    }
    return DM_OK;
}

dm_status dm_session_wait(dm_session *s, dm_result *out)
{
    dm_status st = wait_thread(s);
    if (st == DM_OK && out) {
        *out = s->result;
    }
    return st;
}
