/* SPDX-License-Identifier: MIT
 * tests/unit/test_engine.c: the search finds shots (combinations) and won endgames,
 * scores the fastest win exactly, applies the FMJD 6 draw rules, never returns an
 * illegal move and is deterministic at a fixed depth. Every case here is decided by
 * depth, never by the clock (label fast, so it runs under ASan+UBSan too); the
 * wall-clock bounds (stop, move time, clock) are test_engine_timing.c. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include <damier/engine.h>
#include <damier/eval.h>
#include "core/move10.h"

#include "../engine_fast.h"

static dm_engine *new_engine(void)
{
    dm_engine_options o = DM_ENGINE_OPTIONS_INIT;
    o.tt_mib = 8;
    dm_engine *e = NULL;
    assert_int_equal(dm_engine_create(&e, &o), DM_OK);
    return e;
}

static dm_board10 fen(const char *text)
{
    dm_board10 b;
    dm_error err;
    if (dm_board10_from_fen(&b, text, &err) != DM_OK) {
        fail_msg("bad test FEN %s: %s", text, err.message);
    }
    return b;
}

static fast_result search_depth(dm_engine *e, const dm_board10 *b, int depth)
{
    fast_input in;
    fast_input_init(&in, b);
    dm_limits lim;
    memset(&lim, 0, sizeof lim);
    lim.depth = depth;
    lim.analyse = 1;
    fast_result r;
    assert_int_equal(fast_search(&r, e, &in, &lim, NULL, NULL), DM_OK);
    return r;
}

/* ---- shots and won endgames ----------------------------------------------------- */

typedef struct shot {
    const char *fen;
    const char *solution; /* Hub notation */
    int depth;            /* depth at which the engine must find it */
    int min_score;        /* the score it must see (DM_SCORE_WIN_MIN: a forced win) */
    const char *why;      /* how the combination works */
} shot;

/* The positions come from games with random moves mixed in (combinations at equal
 * or nearly equal material) and from random endgames with kings (breakthroughs,
 * king against men): a position is kept when one move wins by 1.5 men or more, or
 * forces the game's end, and every other move, each searched on its own to depth 11,
 * scores at least 1.7 men (or a win) less, so the solution is unique. Some are
 * explained by hand in their "why" text; the rest carry the search's measurement. */
#include "engine_shots.inc"

static void test_engine__finds_shots(void **state)
{
    (void)state;
    dm_engine *e = new_engine();
    int n = (int)(sizeof shots / sizeof shots[0]);
    assert_true(n >= 20);
    int failed = 0;
    for (int i = 0; i < n; i++) {
        dm_board10 b = fen(shots[i].fen);
        dm_engine_clear(e);
        fast_result r = search_depth(e, &b, shots[i].depth);
        char text[160];
        assert_true(r.has_move);
        dm_move10_to_text(text, sizeof text, &b, &r.best, DM_NOTATION_HUB);
        if (strcmp(text, shots[i].solution) || r.score < shots[i].min_score) {
            print_error("shot %d (%s): expected %s with score >= %d, engine played %s "
                        "(score %d)\n",
                        i + 1, shots[i].fen, shots[i].solution, shots[i].min_score, text, r.score);
            failed++;
        }
    }
    dm_engine_free(e);
    assert_int_equal(failed, 0);
}

/* White 28x19 takes Black's last piece; Black, to move without a piece, has lost
 * at ply 1: the score is exactly a win in one ply. */
static void test_engine__fastest_win_is_scored_exactly(void **state)
{
    (void)state;
    dm_engine *e = new_engine();
    dm_board10 b = fen("W:W28,K46:B23");
    fast_result r = search_depth(e, &b, 6);
    assert_int_equal(r.score, DM_SCORE_WIN - 1);
    char text[160];
    dm_move10_to_text(text, sizeof text, &b, &r.best, DM_NOTATION_HUB);
    assert_string_equal(text, "28x19x23");

    /* Blocked: Black's only man, on 45, can only step to 50, where a White king
     * stands on the edge (nothing behind it to land on). Black to move has no legal
     * move and has lost (FMJD). */
    dm_board10 lost = fen("B:WK50,46:B45");
    assert_int_equal(dm_movegen10_count(&lost), 0);
    fast_input in;
    fast_input_init(&in, &lost);
    dm_limits lim;
    memset(&lim, 0, sizeof lim);
    lim.depth = 3;
    fast_result none;
    assert_int_equal(fast_search(&none, e, &in, &lim, NULL, NULL), DM_OK);
    assert_false(none.has_move);
    assert_true(none.score <= -DM_SCORE_WIN_MIN);
    dm_engine_free(e);
}

/* FMJD 6: with the 25-move counter at 49 plies, every king move draws, so a big
 * material edge scores 0; with the counter at 0 it scores high. Likewise the 16-move
 * rule for three kings against one. */
static void test_engine__draw_rules_in_search(void **state)
{
    (void)state;
    dm_engine *e = new_engine();
    /* Four White kings against two Black kings, no capture in reach for White. */
    dm_board10 b = fen("W:WK46,K47,K48,K49:BK5,K4");
    assert_false(dm_movegen10_has_capture(&b));
    fast_input in;
    fast_input_init(&in, &b);
    dm_limits lim;
    memset(&lim, 0, sizeof lim);
    lim.depth = 4;
    fast_result r;
    assert_int_equal(fast_search(&r, e, &in, &lim, NULL, NULL), DM_OK);
    assert_true(r.score > 300);
    in.reversible_plies = 49;
    dm_engine_clear(e);
    assert_int_equal(fast_search(&r, e, &in, &lim, NULL, NULL), DM_OK);
    assert_int_equal(r.score, 0);

    /* Three kings against one: drawn once the 16-move rule's 32 plies are up. */
    dm_board10 k3 = fen("W:WK46,K47,K48:BK5");
    fast_input_init(&in, &k3);
    in.endgame_plies = 31;
    dm_engine_clear(e);
    assert_int_equal(fast_search(&r, e, &in, &lim, NULL, NULL), DM_OK);
    assert_int_equal(r.score, 0);
    in.endgame_plies = 0;
    dm_engine_clear(e);
    assert_int_equal(fast_search(&r, e, &in, &lim, NULL, NULL), DM_OK);
    assert_true(r.score > 0);
    dm_engine_free(e);
}

/* Repetition: the game history holds the position that White's king move 46-41
 * leads to (seen four plies before it would recur), so playing it repeats a
 * position: a draw, which White, a king down, takes. */
static void test_engine__repetition_is_a_draw(void **state)
{
    (void)state;
    dm_engine *e = new_engine();
    /* White king 46 against Black kings 5 and 10 far away; White is behind. */
    dm_board10 b = fen("W:WK46:BK5,K4");
    fast_input in;
    fast_input_init(&in, &b);
    dm_limits lim;
    memset(&lim, 0, sizeof lim);
    lim.depth = 5;
    fast_result r;
    assert_int_equal(fast_search(&r, e, &in, &lim, NULL, NULL), DM_OK);
    int behind = r.score;
    assert_true(behind < 0);
    dm_move10 m;
    assert_int_equal(dm_move10_parse(&m, &b, "46-41", NULL), DM_OK);
    dm_board10 after = b;
    dm_board10_apply(&after, &m);
    /* History, oldest first: after 46-41 (Black to move), then two other positions. */
    uint64_t hist[3] = {after.hash, after.hash ^ 1, after.hash ^ 2};
    in.history = hist;
    in.history_count = 3;
    in.reversible_plies = 3;
    dm_engine_clear(e);
    assert_int_equal(fast_search(&r, e, &in, &lim, NULL, NULL), DM_OK);
    assert_int_equal(r.score, 0);
    assert_true(dm_move10_equal(&r.best, &m));
    dm_engine_free(e);
}

/* ---- legality, determinism --------------------------------------------------- */

static uint32_t rng_state = 12345;

static uint32_t rnd(void)
{
    rng_state = rng_state * 1103515245u + 12345u;
    return rng_state >> 8;
}

static void check_legal(dm_engine *e, const dm_board10 *b, int depth)
{
    dm_movelist10 list;
    int n = dm_movegen10_legal(&list, b);
    fast_result r = search_depth(e, b, depth);
    if (n == 0) {
        assert_false(r.has_move);
        return;
    }
    assert_true(r.has_move);
    int found = 0;
    for (int i = 0; i < n; i++) {
        found |= dm_move10_equal(&list.moves[i], &r.best);
    }
    if (!found) {
        char f[256];
        dm_board10_to_fen(f, sizeof f, b);
        fail_msg("illegal best move from %d to %d in %s", r.best.from, r.best.to, f);
    }
    if (r.has_ponder) {
        dm_board10 after = *b;
        dm_board10_apply(&after, &r.best);
        n = dm_movegen10_legal(&list, &after);
        found = 0;
        for (int i = 0; i < n; i++) {
            found |= dm_move10_equal(&list.moves[i], &r.ponder);
        }
        assert_true(found);
    }
}

static void test_engine__never_returns_an_illegal_move(void **state)
{
    (void)state;
    dm_engine *e = new_engine();
    /* Positions from random games. */
    for (int g = 0; g < 30; g++) {
        dm_board10 b;
        dm_board10_start(&b);
        int plies = 1 + (int)(rnd() % 90);
        for (int p = 0; p < plies; p++) {
            dm_movelist10 list;
            int n = dm_movegen10_legal(&list, &b);
            if (n == 0) {
                break;
            }
            dm_board10_apply(&b, &list.moves[rnd() % (uint32_t)n]);
        }
        check_legal(e, &b, 4);
    }
    /* Random boards with kings. */
    for (int g = 0; g < 60; g++) {
        dm_board10 b;
        dm_board10_clear(&b);
        int pieces = 2 + (int)(rnd() % 14);
        for (int i = 0; i < pieces; i++) {
            int sq = 1 + (int)(rnd() % 50);
            dm_piece p = (dm_piece)(1 + rnd() % 4);
            if ((p == DM_WHITE_MAN && sq <= 5) || (p == DM_BLACK_MAN && sq >= 46)) {
                continue;
            }
            dm_board10_put(&b, sq, p);
        }
        dm_board10_set_side(&b, (dm_color)(rnd() & 1));
        check_legal(e, &b, 3);
    }
    dm_engine_free(e);
}

static void test_engine__deterministic_node_counts(void **state)
{
    (void)state;
    dm_board10 b = fen("W:W27,28,30,31,34-37,39,42,44-50:B2-7,9,11-15,19,24-26");
    dm_engine *e = new_engine();
    fast_result a = search_depth(e, &b, 8);
    dm_engine_clear(e);
    fast_result c = search_depth(e, &b, 8);
    dm_engine *f = new_engine();
    fast_result d = search_depth(f, &b, 8);
    assert_true(a.nodes > 1000);
    assert_int_equal(a.nodes, c.nodes);
    assert_int_equal(a.nodes, d.nodes);
    assert_true(dm_move10_equal(&a.best, &c.best) && dm_move10_equal(&a.best, &d.best));
    assert_int_equal(a.score, d.score);
    dm_engine_free(e);
    dm_engine_free(f);
}

/* The evaluation is symmetric (colour-flipped position, same score for the side to
 * move), its features are White-minus-Black counts, and a capture-free position with
 * an extra man favours its owner. */
static void test_engine__evaluation_features(void **state)
{
    (void)state;
    const dm_variant *intl = dm_variant_get(DM_VARIANT_INTERNATIONAL);
    dm_board start;
    dm_board_start(&start, intl);
    int f[64], phase = 0;
    int n = dm_engine_features(f, 64, &phase, &start);
    assert_true(n >= 8 && n <= 64);
    assert_int_equal(phase, 40);
    for (int i = 0; i < n; i++) {
        assert_non_null(dm_engine_feature_name(i));
        assert_int_equal(f[i], 0); /* the start position is symmetric */
    }
    assert_null(dm_engine_feature_name(n));
    assert_string_equal(dm_engine_feature_name(0), "men");

    dm_board10 up = fen("W:W31-43,45-50,K12:B1-10,K44,13-19,26");
    dm_board gup;
    assert_int_equal(dm_board_from_board10(&gup, intl, &up), DM_OK);
    dm_engine_features(f, 64, &phase, &gup);
    /* The trained evaluation is international draughts': another variant's position,
     * even a 10x10 one, has no features. */
    dm_board anti;
    dm_board_start(&anti, dm_variant_get(DM_VARIANT_ANTIDRAUGHTS));
    assert_int_equal(dm_engine_features(f, 64, &phase, &anti), -1);
    dm_board russian;
    dm_board_start(&russian, dm_variant_get(DM_VARIANT_RUSSIAN));
    assert_int_equal(dm_engine_features(f, 64, &phase, &russian), -1);
    assert_int_equal(dm_engine_features(f, 64, &phase, NULL), -1);
    assert_int_equal(f[0], 19 - 18);
    assert_int_equal(f[1], 0);
    /* Mirror: square s <-> 51 - s, colours swapped, other side to move. */
    dm_board10 mirror;
    dm_board10_clear(&mirror);
    for (int sq = 1; sq <= 50; sq++) {
        dm_piece p = dm_board10_piece(&up, sq);
        static const dm_piece swap[] = {DM_EMPTY, DM_BLACK_MAN, DM_WHITE_MAN, DM_BLACK_KING,
                                        DM_WHITE_KING};
        dm_board10_put(&mirror, 51 - sq, swap[p]);
    }
    dm_board10_set_side(&mirror, DM_BLACK);
    dm_board gmirror;
    assert_int_equal(dm_board_from_board10(&gmirror, intl, &mirror), DM_OK);
    assert_int_equal(dm_eval_score(NULL, &gmirror), dm_eval_score(NULL, &gup));
}

static void test_engine__rejects_bad_arguments(void **state)
{
    (void)state;
    dm_engine *e = NULL;
    dm_engine_options o = DM_ENGINE_OPTIONS_INIT;
    o.threads = 0;
    assert_int_equal(dm_engine_create(&e, &o), DM_EINVAL);
    o.threads = 1;
    o.tt_mib = 0;
    assert_int_equal(dm_engine_create(&e, &o), DM_EINVAL);
    assert_null(e);
    e = new_engine();
    o.tt_mib = 4;
    o.threads = 3;
    assert_int_equal(dm_engine_set_options(e, &o), DM_OK);
    dm_board10 b;
    dm_board10_start(&b);
    check_legal(e, &b, 5); /* three threads */
    fast_input in;
    fast_input_init(&in, &b);
    in.root.pieces[0] |= in.root.pieces[1]; /* invalid: overlapping colours */
    dm_limits lim;
    memset(&lim, 0, sizeof lim);
    fast_result r;
    assert_int_equal(fast_search(&r, e, &in, &lim, NULL, NULL), DM_EINVAL);
    dm_engine_free(e);
    dm_engine_free(NULL);
}

/* ---- multi-PV ------------------------------------------------------------------ */

typedef struct mpv_log {
    int n;
    fast_info info[64];
} mpv_log;

static void mpv_collect(const fast_info *info, void *payload)
{
    mpv_log *l = payload;
    if (l->n < 64) {
        l->info[l->n++] = *info;
    }
}

static fast_result search_multipv(dm_engine *e, const dm_board10 *b, int depth, int multipv,
                                  mpv_log *log)
{
    fast_input in;
    fast_input_init(&in, b);
    dm_limits lim;
    memset(&lim, 0, sizeof lim);
    lim.depth = depth;
    lim.analyse = 1;
    lim.multipv = multipv;
    fast_result r;
    memset(log, 0, sizeof *log);
    assert_int_equal(fast_search(&r, e, &in, &lim, mpv_collect, log), DM_OK);
    return r;
}

/* Every depth reports `lines` lines, numbered 1..lines in order of score, with
 * distinct legal first moves and legal PVs; returns the reports of the last depth. */
static const fast_info *check_lines(const mpv_log *log, const dm_board10 *b, int depth, int lines)
{
    assert_int_equal(log->n, depth * lines);
    for (int d = 0; d < depth; d++) {
        const fast_info *row = &log->info[d * lines];
        for (int k = 0; k < lines; k++) {
            assert_int_equal(row[k].depth, row[0].depth);
            assert_int_equal(row[k].multipv, k + 1);
            assert_int_equal(row[k].multipv_count, lines);
            assert_true(row[k].pv_count >= 1);
            if (k > 0) {
                assert_true(row[k].score <= row[k - 1].score);
            }
            for (int j = 0; j < k; j++) {
                assert_false(dm_move10_equal(&row[j].pv[0], &row[k].pv[0]));
            }
            dm_board10 x = *b;
            for (int i = 0; i < row[k].pv_count; i++) {
                dm_movelist10 list;
                dm_movegen10_legal(&list, &x);
                int legal = 0;
                for (int m = 0; m < list.count; m++) {
                    legal |= dm_move10_equal(&list.moves[m], &row[k].pv[i]);
                }
                assert_true(legal);
                dm_board10_apply(&x, &row[k].pv[i]);
            }
        }
    }
    return &log->info[(depth - 1) * lines];
}

/* Multi-PV from the start: four lines per depth; the result is line 1. */
static void test_engine__multipv_lines(void **state)
{
    (void)state;
    static mpv_log log;
    dm_board10 b;
    dm_board10_start(&b);
    dm_engine *e = new_engine();
    fast_result r = search_multipv(e, &b, 6, 4, &log);
    const fast_info *last = check_lines(&log, &b, 6, 4);
    assert_true(dm_move10_equal(&r.best, &last[0].pv[0]));
    assert_int_equal(r.score, last[0].score);
    dm_engine_free(e);
}

/* More lines than root moves: one line per legal move, the winning shot first
 * (W:W10,18:BK27: 10-4 wins in 3 plies, 18-13 loses at once). */
static void test_engine__multipv_every_root_move(void **state)
{
    (void)state;
    static mpv_log log;
    dm_board10 b = fen("W:W10,18:BK27");
    dm_movelist10 list;
    assert_int_equal(dm_movegen10_legal(&list, &b), 4);
    dm_engine *e = new_engine();
    fast_result r = search_multipv(e, &b, 8, DM_ENGINE_MAX_MULTIPV, &log);
    const fast_info *last = check_lines(&log, &b, 8, 4);
    char text[32];
    dm_move10_to_text(text, sizeof text, &b, &last[0].pv[0], DM_NOTATION_HUB);
    assert_string_equal(text, "10-4");
    assert_true(last[0].score >= DM_SCORE_WIN_MIN);
    assert_true(last[1].score < DM_SCORE_WIN_MIN);
    dm_move10_to_text(text, sizeof text, &b, &last[3].pv[0], DM_NOTATION_HUB);
    assert_string_equal(text, "18-13");
    assert_true(last[3].score <= -DM_SCORE_WIN_MIN);
    assert_true(dm_move10_equal(&r.best, &last[0].pv[0]));
    dm_engine_free(e);
}

/* multipv 0 and 1 are the plain search: the same nodes, move and score. */
static void test_engine__multipv_one_is_plain(void **state)
{
    (void)state;
    static mpv_log log;
    dm_board10 b = fen("W:W27,28,30,31,34-37,39,42,44-50:B2-7,9,11-15,19,24-26");
    dm_engine *e = new_engine();
    fast_result a = search_depth(e, &b, 7);
    dm_engine_clear(e);
    fast_result c = search_multipv(e, &b, 7, 1, &log);
    assert_int_equal(log.n, 7);
    assert_int_equal(log.info[6].multipv, 1);
    assert_int_equal(log.info[6].multipv_count, 1);
    assert_int_equal(a.nodes, c.nodes);
    assert_true(dm_move10_equal(&a.best, &c.best));
    assert_int_equal(a.score, c.score);
    dm_engine_free(e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_engine__finds_shots),
        cmocka_unit_test(test_engine__fastest_win_is_scored_exactly),
        cmocka_unit_test(test_engine__draw_rules_in_search),
        cmocka_unit_test(test_engine__repetition_is_a_draw),
        cmocka_unit_test(test_engine__never_returns_an_illegal_move),
        cmocka_unit_test(test_engine__deterministic_node_counts),
        cmocka_unit_test(test_engine__evaluation_features),
        cmocka_unit_test(test_engine__rejects_bad_arguments),
        cmocka_unit_test(test_engine__multipv_lines),
        cmocka_unit_test(test_engine__multipv_every_root_move),
        cmocka_unit_test(test_engine__multipv_one_is_plain),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
