/* SPDX-License-Identifier: MIT
 * tests/unit/test_session.c: dm_session (damier/session.h): a game with its clock and
 * an engine searching on the session's thread. Deterministic: depth-limited searches,
 * an injected clock, and a stop whose only timing claim is a generous bound. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <damier/session.h>

/* The injected time source: a counter the test moves. */
static int64_t fake_now(void *payload)
{
    return *(int64_t *)payload;
}

static dm_session *new_session(int64_t *clock_ms)
{
    dm_session_options o = DM_SESSION_OPTIONS_INIT;
    o.engine.tt_mib = 4;
    if (clock_ms) {
        o.now = fake_now;
        o.now_payload = clock_ms;
    }
    dm_session *s = NULL;
    dm_error err;
    assert_int_equal(dm_session_create(&s, &o, &err), DM_OK);
    return s;
}

static void play(dm_session *s, const char *text)
{
    dm_error err;
    if (dm_session_play_text(s, text, &err) != DM_OK) {
        fail_msg("move %s refused: %s", text, err.message);
    }
}

static int same_move(const dm_move *a, const dm_move *b)
{
    return a->from == b->from && a->to == b->to && a->capt[0] == b->capt[0] &&
           a->capt[1] == b->capt[1];
}

static int legal_in(const dm_board *b, const dm_move *m)
{
    static dm_movelist l;
    dm_movegen_legal(&l, b);
    for (int i = 0; i < l.count; i++) {
        if (same_move(&l.moves[i], m)) {
            return 1;
        }
    }
    return 0;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* What the callbacks saw. */
typedef struct seen {
    atomic_int infos;
    atomic_int dones;
    atomic_int on_main; /* a callback ran on the test's own thread */
    pthread_t main;
    dm_result done;
} seen;

static void on_info(const dm_info *info, void *payload)
{
    seen *w = payload;
    (void)info;
    atomic_fetch_add(&w->infos, 1);
    if (pthread_equal(pthread_self(), w->main)) {
        atomic_store(&w->on_main, 1);
    }
}

static void on_done(const dm_result *r, void *payload)
{
    seen *w = payload;
    w->done = *r;
    atomic_fetch_add(&w->dones, 1);
    if (pthread_equal(pthread_self(), w->main)) {
        atomic_store(&w->on_main, 1);
    }
}

/* A depth-limited go gives what dm_engine_search gives on the same input, with the
 * game's history and counters (an international game: on the fast board, the FMJD
 * draw rules folded at compile time, searching the same tree as with the rules read
 * at run time); the callbacks run on the search thread. */
static void test_session__go_matches_engine_search(void **state)
{
    (void)state;
    dm_session *s = new_session(NULL);
    const char *moves[] = {"32-28", "18-23", "37-32", "12-18", "41-37",
                           "7-12",  "34-29", "23x34", "40x29"};
    for (size_t i = 0; i < sizeof moves / sizeof *moves; i++) {
        play(s, moves[i]);
    }
    seen w;
    memset(&w, 0, sizeof w);
    w.main = pthread_self();
    dm_session_go_options go = DM_SESSION_GO_INIT;
    go.limits.depth = 7;
    go.on_info = on_info;
    go.on_done = on_done;
    go.payload = &w;
    dm_error err;
    assert_int_equal(dm_session_go(s, &go, &err), DM_OK);
    dm_result r;
    assert_int_equal(dm_session_wait(s, &r), DM_OK);
    assert_false(dm_session_searching(s));
    assert_int_equal(atomic_load(&w.dones), 1);
    assert_true(atomic_load(&w.infos) >= 7);
    assert_false(atomic_load(&w.on_main));
    assert_true(same_move(&w.done.best, &r.best));
    /* wait again: the same result */
    dm_result r2;
    assert_int_equal(dm_session_wait(s, &r2), DM_OK);
    assert_true(same_move(&r2.best, &r.best));

    /* the engine alone on the game layer's input */
    dm_search_input in;
    uint64_t hist[DM_ENGINE_MAX_HISTORY];
    dm_session_search_input(&in, hist, DM_ENGINE_MAX_HISTORY, s);
    assert_memory_equal(in.root.sq, dm_session_position(s)->sq, sizeof in.root.sq);
    dm_engine_options eo = DM_ENGINE_OPTIONS_INIT;
    eo.tt_mib = 4;
    dm_engine *e;
    assert_int_equal(dm_engine_create(&e, &eo), DM_OK);
    dm_limits lim;
    memset(&lim, 0, sizeof lim);
    lim.depth = 7;
    dm_result alone;
    assert_int_equal(dm_engine_search(&alone, e, &in, &lim, NULL, NULL, NULL), DM_OK);
    assert_true(r.has_move);
    assert_true(same_move(&alone.best, &r.best));
    assert_int_equal(alone.score, r.score);
    assert_int_equal(alone.depth, 7);
    assert_true(alone.nodes == r.nodes);
    assert_true(legal_in(dm_session_position(s), &r.best));
    /* The FMJD rules are folded at compile time for this search (the fast path); the
     * same rules read at run time (a copy with a rule that cannot bind here) search
     * the same tree. */
    dm_draw_rules run_time = in.root.variant->draw;
    run_time.no_capture_moves = 1000;
    in.draw = &run_time;
    dm_engine_clear(e);
    dm_result slow;
    assert_int_equal(dm_engine_search(&slow, e, &in, &lim, NULL, NULL, NULL), DM_OK);
    assert_true(same_move(&slow.best, &r.best));
    assert_int_equal(slow.score, r.score);
    assert_true(slow.nodes == r.nodes);
    dm_engine_free(e);

    /* the result is playable, and then the next go searches the new position */
    assert_int_equal(dm_session_play(s, &r.best, &err), DM_OK);
    assert_int_equal(dm_session_go(s, &go, &err), DM_OK);
    assert_int_equal(dm_session_wait(s, &r), DM_OK);
    assert_true(legal_in(dm_session_position(s), &r.best));
    dm_session_free(s);
}

/* The game layer's draw state goes to the engine: history since the last man move,
 * the 25-move and 5-move counters. */
static void test_session__search_input_from_the_game(void **state)
{
    (void)state;
    dm_session *s = new_session(NULL);
    dm_session_setup g = DM_SESSION_SETUP_INIT;
    g.fen = "W:WK46:BK1";
    dm_error err;
    assert_int_equal(dm_session_new_game(s, &g, &err), DM_OK);
    play(s, "46-41");
    play(s, "1-6");
    play(s, "41-46");
    dm_search_input in;
    uint64_t hist[DM_ENGINE_MAX_HISTORY];
    dm_session_search_input(&in, hist, DM_ENGINE_MAX_HISTORY, s);
    assert_int_equal(in.history_count, 3);
    assert_true(in.history[0] == dm_game_hash_at(dm_session_game(s), 0));
    assert_int_equal(in.draw_count.reversible_plies, 3);
    assert_int_equal(in.draw_count.material_plies, 3);
    /* a small buffer gets the most recent hashes */
    dm_session_search_input(&in, hist, 2, s);
    assert_int_equal(in.history_count, 2);
    assert_true(in.history[1] == dm_game_hash_at(dm_session_game(s), 2));
    dm_session_free(s);
}

/* stop ends an unlimited search at once with a legal move. */
static void test_session__stop_returns_a_legal_move_promptly(void **state)
{
    (void)state;
    dm_session *s = new_session(NULL);
    play(s, "32-28");
    dm_session_go_options go = DM_SESSION_GO_INIT;
    go.limits.infinite = 1;
    dm_error err;
    assert_int_equal(dm_session_go(s, &go, &err), DM_OK);
    assert_true(dm_session_searching(s));
    /* the position cannot change under the search */
    assert_int_equal(dm_session_play_text(s, "19-23", &err), DM_ESTATE);
    assert_non_null(strstr(err.message, "search is running"));
    assert_int_equal(dm_session_undo(s), DM_ESTATE);
    assert_int_equal(dm_session_go(s, &go, &err), DM_ESTATE);
    struct timespec pause = {0, 30 * 1000 * 1000};
    nanosleep(&pause, NULL);
    assert_true(dm_session_searching(s)); /* infinite: still thinking */
    double t0 = now_s();
    dm_session_stop(s);
    dm_result r;
    assert_int_equal(dm_session_wait(s, &r), DM_OK);
    double took = now_s() - t0;
    assert_true(took < 2.0); /* "a few ms"; generous for a loaded machine under ASan */
    assert_true(r.has_move);
    assert_true(legal_in(dm_session_position(s), &r.best));
    assert_int_equal(dm_session_play(s, &r.best, &err), DM_OK);

    /* a stop before the search has started its first iteration is not lost */
    assert_int_equal(dm_session_go(s, &go, &err), DM_OK);
    dm_session_stop(s);
    assert_int_equal(dm_session_wait(s, &r), DM_OK);
    assert_true(r.has_move);
    /* free while searching stops and joins */
    assert_int_equal(dm_session_go(s, &go, &err), DM_OK);
    dm_session_free(s);
}

/* go is refused on a finished game and after a refused position. */
static void test_session__go_refused_when_over_or_refused(void **state)
{
    (void)state;
    dm_session *s = new_session(NULL);
    dm_error err;
    dm_result r;
    assert_int_equal(dm_session_wait(s, &r), DM_ESTATE); /* nothing searched yet */
    /* no piece left for the side to move */
    dm_session_setup g = DM_SESSION_SETUP_INIT;
    g.fen = "B:W46:B";
    assert_int_equal(dm_session_new_game(s, &g, &err), DM_OK);
    assert_int_equal(dm_session_result(s, NULL), DM_OUTCOME_WHITE_WINS);
    assert_int_equal(dm_session_go(s, NULL, &err), DM_ESTATE);
    assert_non_null(strstr(err.message, "the game is over"));
    /* a resignation */
    assert_int_equal(dm_session_new_game(s, NULL, &err), DM_OK);
    assert_int_equal(dm_session_resign(s, DM_WHITE), DM_OK);
    assert_int_equal(dm_session_go(s, NULL, &err), DM_ESTATE);
    assert_int_equal(dm_session_play_text(s, "32-28", &err), DM_ESTATE);
    /* the arbiter's decision: any result but "ongoing", then nothing more */
    dm_reason why0;
    assert_int_equal(dm_session_new_game(s, NULL, &err), DM_OK);
    assert_int_equal(dm_session_declare_arbiter(s, DM_OUTCOME_ONGOING), DM_EINVAL);
    assert_int_equal(dm_session_declare_arbiter(NULL, DM_OUTCOME_DRAW), DM_ESTATE);
    assert_int_equal(dm_session_declare_arbiter(s, DM_OUTCOME_WHITE_WINS), DM_OK);
    assert_int_equal(dm_session_result(s, &why0), DM_OUTCOME_WHITE_WINS);
    assert_int_equal(why0, DM_REASON_ARBITER);
    assert_int_equal(dm_session_declare_arbiter(s, DM_OUTCOME_DRAW), DM_ESTATE);
    assert_int_equal(dm_session_play_text(s, "32-28", &err), DM_ESTATE);
    /* threefold repetition (FMJD rules: not played through) */
    g.fen = "W:WK46:BK1";
    assert_int_equal(dm_session_new_game(s, &g, &err), DM_OK);
    const char *rep[] = {"46-41", "1-6", "41-46", "6-1", "46-41", "1-6", "41-46", "6-1"};
    for (int i = 0; i < 8; i++) {
        play(s, rep[i]);
    }
    dm_reason why;
    assert_int_equal(dm_session_result(s, &why), DM_OUTCOME_DRAW);
    assert_int_equal(why, DM_REASON_REPETITION);
    assert_int_equal(dm_session_go(s, NULL, &err), DM_ESTATE);
    /* undo makes it playable again */
    assert_int_equal(dm_session_undo(s), DM_OK);
    dm_session_go_options go = DM_SESSION_GO_INIT;
    go.limits.depth = 2;
    assert_int_equal(dm_session_go(s, &go, &err), DM_OK);
    assert_int_equal(dm_session_wait(s, &r), DM_OK);

    /* a refused position: go does not search the older one */
    g.fen = "W:W31;B1";
    assert_int_equal(dm_session_new_game(s, &g, &err), DM_EPARSE);
    assert_int_equal(dm_session_go(s, &go, &err), DM_ESTATE);
    assert_non_null(strstr(err.message, "refused"));
    assert_int_equal(dm_session_new_game(s, NULL, &err), DM_OK);
    assert_int_equal(dm_session_go(s, &go, &err), DM_OK);
    assert_int_equal(dm_session_wait(s, &r), DM_OK);
    /* a protocol's own refusal, then a game set from outside */
    dm_session_refuse_position(s);
    assert_int_equal(dm_session_go(s, &go, &err), DM_ESTATE);
    dm_game *game;
    assert_int_equal(dm_game_new(&game, NULL), DM_OK);
    assert_int_equal(dm_game_play_text(game, "32-28", NULL), DM_OK);
    assert_int_equal(dm_session_set_game(s, game, &err), DM_OK);
    assert_int_equal(dm_session_position(s)->side, DM_BLACK);
    assert_int_equal(dm_session_go(s, &go, &err), DM_OK);
    assert_int_equal(dm_session_wait(s, &r), DM_OK);
    /* bad options */
    go.version = 0;
    assert_int_equal(dm_session_go(s, &go, &err), DM_EINVAL);
    dm_session_options o = DM_SESSION_OPTIONS_INIT;
    o.engine.threads = 0;
    dm_session *bad = NULL;
    assert_int_equal(dm_session_create(&bad, &o, &err), DM_EINVAL);
    assert_null(bad);
    dm_session_free(s);
}

/* Playing presses the clock; undo gives the turn back without counting a move; the
 * end of the game stops it; a fallen flag is a loss on time. */
static void test_session__clock_pressed_on_play(void **state)
{
    (void)state;
    int64_t t = 1000;
    dm_session *s = new_session(&t);
    dm_time_control tc;
    assert_int_equal(dm_time_control_parse(&tc, "60+1", NULL), DM_OK);
    dm_session_setup g = DM_SESSION_SETUP_INIT;
    g.white_tc = &tc;
    dm_error err;
    assert_int_equal(dm_session_new_game(s, &g, &err), DM_OK);
    dm_clock *c = dm_session_clock(s);
    assert_non_null(c);
    dm_color side;
    assert_true(dm_clock_running(c, &side));
    assert_int_equal(side, DM_WHITE);
    t += 5000;
    play(s, "32-28");
    assert_true(dm_clock_remaining(c, DM_WHITE) == 56000); /* 60 - 5 + 1 */
    assert_true(dm_clock_running(c, &side));
    assert_int_equal(side, DM_BLACK);
    t += 2000;
    assert_true(dm_clock_remaining(c, DM_BLACK) == 58000);
    /* undo: White's turn again, nobody's time changes, no move counted */
    assert_int_equal(dm_session_undo(s), DM_OK);
    assert_true(dm_clock_running(c, &side));
    assert_int_equal(side, DM_WHITE);
    t += 1000;
    assert_true(dm_clock_remaining(c, DM_BLACK) == 58000);
    assert_true(dm_clock_remaining(c, DM_WHITE) == 55000);
    dm_clock_side cs;
    dm_clock_side_info(&cs, c, DM_WHITE);
    assert_int_equal(cs.moves, 1);
    assert_int_equal(dm_session_redo(s), DM_OK);
    assert_true(dm_clock_running(c, &side));
    assert_int_equal(side, DM_BLACK);

    /* a clock-managed go reads the mover's clock: a depth limit ends it here */
    dm_session_go_options go = DM_SESSION_GO_INIT;
    go.limits.depth = 3;
    assert_int_equal(dm_session_go(s, &go, &err), DM_OK);
    dm_result r;
    assert_int_equal(dm_session_wait(s, &r), DM_OK);
    assert_int_equal(dm_session_play(s, &r.best, &err), DM_OK);

    /* the end of the game stops the clock */
    assert_int_equal(dm_session_agree_draw(s), DM_OK);
    assert_false(dm_clock_running(c, NULL));
    int64_t w = dm_clock_remaining(c, DM_WHITE);
    t += 100000;
    assert_true(dm_clock_remaining(c, DM_WHITE) == w);

    /* a flag: White runs out of time before moving */
    assert_int_equal(dm_session_new_game(s, &g, &err), DM_OK);
    c = dm_session_clock(s);
    t += 61000;
    assert_int_equal(dm_session_play_text(s, "32-28", &err), DM_ESTATE);
    assert_non_null(strstr(err.message, "loss on time"));
    dm_reason why;
    assert_int_equal(dm_session_result(s, &why), DM_OUTCOME_BLACK_WINS);
    assert_int_equal(why, DM_REASON_TIME);
    assert_int_equal(dm_session_go(s, NULL, &err), DM_ESTATE);

    /* no time control: no clock */
    assert_int_equal(dm_session_new_game(s, NULL, &err), DM_OK);
    assert_null(dm_session_clock(s));
    /* a bad time control is refused */
    dm_time_control unknown;
    assert_int_equal(dm_time_control_parse(&unknown, "?", NULL), DM_OK);
    g.white_tc = &unknown;
    assert_int_equal(dm_session_new_game(s, &g, &err), DM_EINVAL);
    dm_session_free(s);
}

/* With play_after_end (a protocol's GUI keeps the score), a draw by rule is played
 * through: go still searches and the clock keeps running. */
static void test_session__draw_rule_played_through(void **state)
{
    (void)state;
    int64_t t = 0;
    dm_session_options o = DM_SESSION_OPTIONS_INIT;
    o.engine.tt_mib = 4;
    o.rules.play_after_end = 1;
    o.now = fake_now;
    o.now_payload = &t;
    dm_session *s;
    dm_error err;
    assert_int_equal(dm_session_create(&s, &o, &err), DM_OK);
    dm_time_control tc;
    assert_int_equal(dm_time_control_parse(&tc, "600", NULL), DM_OK);
    dm_session_setup g = DM_SESSION_SETUP_INIT;
    g.fen = "W:WK46:BK1";
    g.white_tc = &tc;
    assert_int_equal(dm_session_new_game(s, &g, &err), DM_OK);
    const char *rep[] = {"46-41", "1-6", "41-46", "6-1", "46-41", "1-6", "41-46", "6-1"};
    for (int i = 0; i < 8; i++) {
        play(s, rep[i]);
    }
    dm_reason why;
    assert_int_equal(dm_session_result(s, &why), DM_OUTCOME_DRAW);
    assert_int_equal(why, DM_REASON_REPETITION);
    assert_true(dm_clock_running(dm_session_clock(s), NULL));
    dm_session_go_options go = DM_SESSION_GO_INIT;
    go.limits.depth = 2;
    assert_int_equal(dm_session_go(s, &go, &err), DM_OK);
    dm_result r;
    assert_int_equal(dm_session_wait(s, &r), DM_OK);
    assert_int_equal(dm_session_play(s, &r.best, &err), DM_OK);
    dm_session_free(s);
}

/* A pondering search waits for its ponder-hit, then keeps to its move time. */
static void test_session__ponderhit(void **state)
{
    (void)state;
    dm_session *s = new_session(NULL);
    dm_session_go_options go = DM_SESSION_GO_INIT;
    go.limits.ponder = 1;
    go.limits.move_time = 0.05;
    dm_error err;
    assert_int_equal(dm_session_go(s, &go, &err), DM_OK);
    struct timespec pause = {0, 100 * 1000 * 1000};
    nanosleep(&pause, NULL);
    assert_true(dm_session_searching(s)); /* pondering: the move time has not started */
    dm_session_ponderhit(s);
    dm_result r;
    assert_int_equal(dm_session_wait(s, &r), DM_OK);
    assert_true(r.has_move);
    dm_session_free(s);
}

/* What a search of another variant reported. */
typedef struct vseen {
    int infos;
    int done;
    dm_result r;
} vseen;

static void on_vinfo(const dm_info *info, void *payload)
{
    vseen *v = payload;
    assert_true(info->pv_count >= 1);
    v->infos++;
}

static void on_vdone(const dm_result *r, void *payload)
{
    vseen *v = payload;
    v->done++;
    v->r = *r;
}

/* Every variant on a session: a Russian game from its start with a clock (the move in
 * the variant's notation presses it), a search on the session's thread through the
 * same callbacks and dm_session_wait as international (its move legal, the same as
 * dm_engine_search's on the game's input), the clock's budget given to the
 * engine; a Canadian game by FEN and an English game by dm_session_set_game. */
static void test_session__every_variant(void **state)
{
    (void)state;
    int64_t t = 1000;
    dm_session *s = new_session(&t);
    dm_time_control tc;
    assert_int_equal(dm_time_control_parse(&tc, "60+1", NULL), DM_OK);
    dm_session_setup g = DM_SESSION_SETUP_INIT;
    g.white_tc = &tc;
    g.variant = dm_variant_get(DM_VARIANT_RUSSIAN);
    dm_error err;
    assert_int_equal(dm_session_new_game(s, &g, &err), DM_OK);
    assert_int_equal(dm_session_position(s)->variant->id, DM_VARIANT_RUSSIAN);
    dm_clock *c = dm_session_clock(s);
    t += 3000;
    play(s, "c3-d4");
    assert_true(dm_clock_remaining(c, DM_WHITE) == 58000); /* 60 - 3 + 1 */
    dm_color side;
    assert_true(dm_clock_running(c, &side) && side == DM_BLACK);

    vseen vs;
    memset(&vs, 0, sizeof vs);
    dm_session_go_options go = DM_SESSION_GO_INIT;
    go.limits.depth = 4;
    go.on_info = on_vinfo;
    go.on_done = on_vdone;
    go.payload = &vs;
    assert_int_equal(dm_session_go(s, &go, &err), DM_OK);
    dm_result r;
    assert_int_equal(dm_session_wait(s, &r), DM_OK);
    assert_int_equal(vs.done, 1);
    assert_true(vs.infos >= 1);
    assert_true(r.has_move && legal_in(dm_session_position(s), &r.best));
    assert_true(r.depth >= 1 && r.depth <= 5);
    /* the same search outside the session gives the same move (one thread, depth) */
    dm_search_input in;
    uint64_t hist[DM_ENGINE_MAX_HISTORY];
    dm_search_input_from_game(&in, hist, DM_ENGINE_MAX_HISTORY, dm_session_game(s));
    dm_engine *e = dm_session_engine(s);
    assert_non_null(e);
    dm_engine_clear(e);
    dm_result direct;
    dm_limits lim = {.depth = 4};
    lim.time = 60.0; /* what the session gave from Black's clock */
    lim.inc = 1.0;
    assert_int_equal(dm_engine_search(&direct, e, &in, &lim, NULL, NULL, &err), DM_OK);
    assert_true(direct.best.from == r.best.from && direct.best.to == r.best.to &&
                direct.best.capt[0] == r.best.capt[0] && direct.nodes == r.nodes);
    assert_int_equal(dm_session_play(s, &r.best, &err), DM_OK);
    assert_true(dm_clock_running(c, &side) && side == DM_WHITE);
    /* an illegal generic move is refused with the move in the message */
    assert_int_equal(dm_session_play(s, &r.best, &err), DM_EILLEGAL);
    assert_non_null(strstr(err.message, "move "));

    /* Canadian by FEN (12x12 threads made on the first search), no clock */
    dm_session_setup g2 = DM_SESSION_SETUP_INIT;
    g2.variant = dm_variant_get(DM_VARIANT_CANADIAN);
    g2.fen = "W:W60,61:B10,11";
    assert_int_equal(dm_session_new_game(s, &g2, &err), DM_OK);
    assert_null(dm_session_clock(s));
    memset(&vs, 0, sizeof vs);
    assert_int_equal(dm_session_go(s, &go, &err), DM_OK);
    assert_int_equal(dm_session_wait(s, &r), DM_OK);
    assert_true(r.has_move && legal_in(dm_session_position(s), &r.best));
    /* a bad FEN of the variant is refused and go refuses until a good position */
    g2.fen = "W:W99:B1";
    assert_int_equal(dm_session_new_game(s, &g2, &err), DM_EPARSE);
    assert_int_equal(dm_session_go(s, &go, &err), DM_ESTATE);

    /* English through set_game */
    dm_board en;
    dm_board_start(&en, dm_variant_get(DM_VARIANT_ENGLISH));
    dm_game *game = NULL;
    assert_int_equal(dm_game_new(&game, &en), DM_OK);
    assert_int_equal(dm_session_set_game(s, game, &err), DM_OK);
    play(s, "11-15");
    assert_int_equal(dm_session_go(s, &go, &err), DM_OK);
    assert_int_equal(dm_session_wait(s, &r), DM_OK);
    assert_true(r.has_move && legal_in(dm_session_position(s), &r.best));
    dm_session_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_session__go_matches_engine_search),
        cmocka_unit_test(test_session__search_input_from_the_game),
        cmocka_unit_test(test_session__stop_returns_a_legal_move_promptly),
        cmocka_unit_test(test_session__go_refused_when_over_or_refused),
        cmocka_unit_test(test_session__clock_pressed_on_play),
        cmocka_unit_test(test_session__draw_rule_played_through),
        cmocka_unit_test(test_session__ponderhit),
        cmocka_unit_test(test_session__every_variant),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
