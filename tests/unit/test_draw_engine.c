/* SPDX-License-Identifier: MIT
 * tests/unit/test_draw_engine.c: the engines and the game layer declare the same
 * draws at the same ply (issue 10: one implementation of the draw rules). Random
 * games from random sparse positions (a lone king against one to three pieces,
 * men near promotion, extra men), in every variant and in international draughts
 * on the fast board, walked three ways:
 * - the game layer: dm_variant_draw (variants) and a dm_game of the variant (its
 *   result and reason at every ply; an international game is judged the same way,
 *   with the FMJD set), judging each prefix of the game;
 * - the search's own per-node code (engine/search_impl.h S(play), the one search
 *   of every variant), through the test entries dm_search<N>_vdraw_walk
 *   and dm_search_draw_walk, from the start and from the middle of the game with
 *   the counters dm_variant_draw_count gives there;
 * - Frisian's king-move limit (FR 17): the square the search blocks at each node
 *   equals the generic core's (dm_gen_blocked_king).
 * Repetition is left out of the comparison: the game counts positions, the search
 * scores the first repetition as the draw it leads to (as every engine does). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include <damier/game.h>
#include <damier/variant.h>
#include <damier/engine.h>

#include "core/gen.h"
#include "engine/search_int.h"

#define MAXP 150 /* plies per random game (the search walks at most 159) */

/* A small deterministic generator (xorshift64*). */
static uint64_t rnd(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 0x2545F4914F6CDD1Dull;
}

static int rnd_below(uint64_t *s, int n)
{
    return (int)(rnd(s) % (uint64_t)n);
}

/* A random sparse position of v, valid: either a lone king against one to three
 * pieces (kings or men), or one to three pieces a side (the material rules do not
 * apply until captures make one). */
static void random_position(dm_board *b, const dm_variant *v, uint64_t *s)
{
    for (;;) {
        dm_board_clear(b, v);
        int weak = rnd_below(s, 2), strong = weak ^ 1;
        int n = 1 + rnd_below(s, 3);
        int lone = rnd_below(s, 2) == 0;
        int nweak = lone ? 1 : 1 + rnd_below(s, 3);
        int ok = 1;
        for (int i = 0; i < nweak + n && ok; i++) {
            int sq = 1 + rnd_below(s, v->squares);
            if (b->sq[sq] != DM_EMPTY) {
                ok = 0;
                break;
            }
            int c = i < nweak ? weak : strong;
            int king = (lone && i == 0) || rnd_below(s, 2) == 0;
            dm_piece p = c == DM_WHITE ? (king ? DM_WHITE_KING : DM_WHITE_MAN)
                                       : (king ? DM_BLACK_KING : DM_BLACK_MAN);
            ok = dm_board_put(b, sq, p) == DM_OK;
        }
        b->side = rnd_below(s, 2);
        if (ok && dm_board_validate(b, NULL) == DM_OK) {
            return;
        }
    }
}

typedef struct vgame {
    dm_board pos[MAXP + 1];
    dm_move moves[MAXP];
    int n;
} vgame;

/* A random legal move of b, mostly (7 in 8) one after which the opponent has no
 * capture when there is such a move, so that games last long enough to reach the
 * counting rules' thresholds. */
static int pick_vmove(const dm_movelist *list, const dm_board *b, uint64_t *s)
{
    int start = rnd_below(s, list->count);
    if (rnd_below(s, 8) == 0) {
        return start;
    }
    static dm_movelist reply;
    for (int k = 0; k < list->count; k++) {
        int i = (start + k) % list->count;
        dm_board c = *b;
        dm_board_apply(&c, &list->moves[i]);
        if (dm_movegen_legal(&reply, &c) == 0 || reply.moves[0].ncapt == 0) {
            return i;
        }
    }
    return start;
}

/* Random moves from pos[0] until no legal move or MAXP plies. */
static void random_game(vgame *g, uint64_t *s)
{
    g->n = 0;
    static dm_movelist list; /* large; the test is single-threaded */
    while (g->n < MAXP && dm_movegen_legal(&list, &g->pos[g->n]) > 0) {
        g->moves[g->n] = list.moves[pick_vmove(&list, &g->pos[g->n], s)];
        g->pos[g->n + 1] = g->pos[g->n];
        dm_board_apply(&g->pos[g->n + 1], &g->moves[g->n]);
        g->n++;
    }
}

/* pick_vmove on the fast board. */
static int pick_move(const dm_movelist10 *list, const dm_board10 *b, uint64_t *s)
{
    int start = rnd_below(s, list->count);
    if (rnd_below(s, 8) == 0) {
        return start;
    }
    for (int k = 0; k < list->count; k++) {
        int i = (start + k) % list->count;
        dm_board10 c = *b;
        dm_board10_apply(&c, &list->moves[i]);
        if (!dm_movegen10_has_capture(&c)) {
            return i;
        }
    }
    return start;
}

static int walk(const dm_search_input *in, const dm_move *m, int n, int *verdict, int *blocked)
{
    if (in->root.variant->geometry == DM_GEOM_FULL) {
        return dm_searchfull_vdraw_walk(in, m, n, verdict, blocked);
    }
    switch (in->root.variant->size) {
        case 8:
            return dm_search8_vdraw_walk(in, m, n, verdict, blocked);
        case 10:
            return dm_search10_vdraw_walk(in, m, n, verdict, blocked);
        default:
            return dm_search12_vdraw_walk(in, m, n, verdict, blocked);
    }
}

/* Every variant, its own draw set (and Russian's other sets): the game layer and the
 * variant search agree at every ply; the counters stepped one move at a time
 * (dm_variant_draw_step) equal those of the whole game (dm_variant_draw_count). */
static void test_draw_engine__variants(void **state)
{
    (void)state;
    static vgame g;
    static int verdict[MAXP + 1], blocked[MAXP + 1];
    uint64_t seed = 0x9E3779B97F4A7C15ull;
    int hits[8] = {0};
    for (int id = 0; id < DM_VARIANT_COUNT; id++) {
        const dm_variant *v = dm_variant_get((dm_variant_id)id);
        dm_draw_rules sets[3];
        int nsets = 0;
        sets[nsets++] = v->draw;
        if (id == DM_VARIANT_RUSSIAN) {
            assert_int_equal(dm_variant_draw_rules(&sets[nsets++], "russian-pydraughts", NULL),
                             DM_OK);
            assert_int_equal(dm_variant_draw_rules(&sets[nsets++], "fmjd", NULL), DM_OK);
        }
        for (int si = 0; si < nsets; si++) {
            dm_draw_rules d = sets[si];
            d.repetition = 0; /* compared apart (header) */
            for (int game = 0; game < 100; game++) {
                random_position(&g.pos[0], v, &seed);
                random_game(&g, &seed);
                dm_search_input in;
                memset(&in, 0, sizeof in);
                in.root = g.pos[0];
                in.draw = &d;
                assert_int_equal(walk(&in, g.moves, g.n, verdict, blocked), g.n);
                dm_draw_count c;
                dm_variant_draw_count(&c, &d, g.pos, g.moves, 0);
                /* the same game as a dm_game (the object every front end plays on) */
                dm_game *dg = NULL;
                assert_int_equal(dm_game_new(&dg, &g.pos[0]), DM_OK);
                dm_game_rules gr = DM_GAME_RULES_INIT;
                gr.play_after_end = 1;
                gr.repetitions = 0;
                assert_int_equal(dm_game_set_rules(dg, &gr), DM_OK);
                assert_int_equal(dm_game_set_draw_rules(dg, &d), DM_OK); /* every variant */
                for (int i = 0; i <= g.n; i++) {
                    dm_draw_kind k = dm_variant_draw(&d, g.pos, g.moves, i, NULL, 0);
                    if (verdict[i] != (int)k) {
                        fail_msg("%s set %s game %d ply %d: game %d, engine %d", v->name, d.name,
                                 game, i, k, verdict[i]);
                    }
                    if (dm_variant_result(&g.pos[i]) == DM_BOARD_RESULT_NONE) {
                        dm_reason why;
                        dm_outcome o = dm_game_result(dg, &why);
                        /* international names FMJD 6's rules, the others the kind */
                        int fmjd = id == DM_VARIANT_INTERNATIONAL;
                        dm_reason want = k == DM_DRAW_NONE ? DM_REASON_NONE
                                         : k == DM_DRAW_NO_PROGRESS
                                             ? (fmjd ? DM_REASON_25_MOVES : DM_REASON_NO_PROGRESS)
                                         : k == DM_DRAW_NO_CAPTURE            ? DM_REASON_NO_CAPTURE
                                         : fmjd && k == DM_DRAW_THREE_VS_KING ? DM_REASON_16_MOVES
                                         : fmjd && k == DM_DRAW_TWO_VS_KING   ? DM_REASON_5_MOVES
                                                                              : DM_REASON_MATERIAL;
                        assert_int_equal(o,
                                         k == DM_DRAW_NONE ? DM_OUTCOME_ONGOING : DM_OUTCOME_DRAW);
                        assert_int_equal(why, want);
                    }
                    if (i < g.n) {
                        assert_int_equal(dm_game_play(dg, &g.moves[i]), DM_OK);
                    }
                    hits[k]++;
                    assert_int_equal(blocked[i], dm_gen_blocked_king(&g.pos[i]));
                    dm_draw_count whole;
                    dm_variant_draw_count(&whole, &d, g.pos, g.moves, i);
                    assert_memory_equal(&c, &whole, sizeof c);
                    if (i < g.n) {
                        dm_variant_draw_step(&c, &c, &d, &g.pos[i], &g.moves[i]);
                    }
                }
                /* from the middle of the game, with the game's counters there (as
                 * dm_game_draw_count gives them to the engine) */
                int k0 = g.n / 2;
                in.root = g.pos[k0];
                dm_variant_draw_count(&in.draw_count, &d, g.pos, g.moves, k0);
                while (dm_game_ply(dg) > k0) {
                    dm_game_undo(dg);
                }
                dm_draw_count gc;
                dm_game_draw_count(&gc, dg);
                assert_memory_equal(&gc, &in.draw_count, sizeof gc);
                dm_game_free(dg);
                assert_int_equal(walk(&in, g.moves + k0, g.n - k0, verdict, blocked), g.n - k0);
                for (int i = k0; i <= g.n; i++) {
                    assert_int_equal(verdict[i - k0],
                                     (int)dm_variant_draw(&d, g.pos, g.moves, i, NULL, 0));
                }
            }
        }
    }
    print_message("plies judged: none %d, no progress %d, no capture %d, three v king %d, "
                  "two v king %d, king v king %d\n",
                  hits[DM_DRAW_NONE], hits[DM_DRAW_NO_PROGRESS], hits[DM_DRAW_NO_CAPTURE],
                  hits[DM_DRAW_THREE_VS_KING], hits[DM_DRAW_TWO_VS_KING],
                  hits[DM_DRAW_KING_VS_KING]);
    /* the games reached every counting rule (the comparison is not vacuous) */
    assert_true(hits[DM_DRAW_NO_PROGRESS] > 0);
    assert_true(hits[DM_DRAW_NO_CAPTURE] > 0);
    assert_true(hits[DM_DRAW_THREE_VS_KING] > 0);
    assert_true(hits[DM_DRAW_TWO_VS_KING] > 0);
    assert_true(hits[DM_DRAW_KING_VS_KING] > 0);
}

/* International: dm_game's judge (the FMJD set through the one judge of every variant,
 * dm_variant_draw_judge) and the international search on the fast board
 * (dm_search_draw_walk) agree at every ply. */
static void test_draw_engine__international(void **state)
{
    (void)state;
    const dm_variant *v = dm_variant_get(DM_VARIANT_INTERNATIONAL);
    static vgame g;
    static dm_move10 moves[MAXP];
    static dm_board10 pos[MAXP + 1];
    static int verdict[MAXP + 1];
    uint64_t seed = 12345;
    int hits[8] = {0}, promotions_in_rule = 0;
    for (int game = 0; game < 1000; game++) {
        random_position(&g.pos[0], v, &seed);
        assert_int_equal(dm_board_to_board10(&pos[0], &g.pos[0]), DM_OK);
        int n = 0;
        dm_movelist10 list;
        while (n < MAXP && dm_movegen10_legal(&list, &pos[n]) > 0) {
            moves[n] = list.moves[pick_move(&list, &pos[n], &seed)];
            pos[n + 1] = pos[n];
            dm_board10_apply(&pos[n + 1], &moves[n]);
            n++;
        }
        assert_int_equal(dm_search_draw_walk(&pos[0], 0, 0, moves, n, verdict), n);
        dm_game *dg = NULL;
        assert_int_equal(dm_game_new(&dg, &g.pos[0]), DM_OK);
        dm_game_rules rules = DM_GAME_RULES_INIT;
        rules.repetitions = 0;
        rules.play_after_end = 1;
        assert_int_equal(dm_game_set_rules(dg, &rules), DM_OK);
        for (int i = 0; i <= n; i++) {
            dm_reason r;
            dm_outcome o = dm_game_result(dg, &r);
            int want = DM_DRAW_NONE;
            if (o == DM_OUTCOME_DRAW) {
                want = r == DM_REASON_16_MOVES  ? DM_DRAW_THREE_VS_KING
                       : r == DM_REASON_5_MOVES ? DM_DRAW_TWO_VS_KING
                                                : DM_DRAW_NO_PROGRESS;
            }
            if (o == DM_OUTCOME_ONGOING || o == DM_OUTCOME_DRAW) {
                if (verdict[i] != want) {
                    fail_msg("game %d ply %d: game %d, engine %d", game, i, want, verdict[i]);
                }
                hits[want]++;
            }
            if (i < n) {
                dm_draw_count c;
                dm_game_draw_count(&c, dg);
                if (c.material_plies >= 0 && dm_move10_is_promotion(&pos[i], &moves[i]) &&
                    moves[i].ncapt == 0) {
                    promotions_in_rule++;
                }
                dm_move vm;
                assert_int_equal(dm_move_from_move10(&vm, dm_game_position(dg), &moves[i]), DM_OK);
                assert_int_equal(dm_game_play(dg, &vm), DM_OK);
            }
        }
        dm_game_free(dg);
    }
    print_message("plies judged: none %d, 25-move %d, 16-move %d, 5-move %d; promotions "
                  "inside a configuration %d\n",
                  hits[DM_DRAW_NONE], hits[DM_DRAW_NO_PROGRESS], hits[DM_DRAW_THREE_VS_KING],
                  hits[DM_DRAW_TWO_VS_KING], promotions_in_rule);
    assert_true(hits[DM_DRAW_NO_PROGRESS] > 0);
    assert_true(hits[DM_DRAW_THREE_VS_KING] > 0);
    assert_true(hits[DM_DRAW_TWO_VS_KING] > 0);
    assert_true(promotions_in_rule > 0); /* the restart on promotion was exercised */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_draw_engine__variants),
        cmocka_unit_test(test_draw_engine__international),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
