/* SPDX-License-Identifier: MIT
 * tests/egdb/test_egdb8_deep.c (label slow, the optimised build: about 30 s): the 8x8
 * databases of Russian, Brazilian and English up to 4 pieces made here. Every
 * position of up to 3 pieces, and of up to 4 kings, of each variant against the
 * brute-force solver over the public generic move generator (brute.h), with the
 * W/L/D counts of those slices; the English positions of 4 pieces against
 * Schaeffer's published count; Russian three kings against one king (Petrov's
 * triangle and the main road). */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include <damier/egdb.h>
#include <damier/variant.h>

#include "brute.h"
#include "egdb/egdb_int.h"

#include "egdb8_common.h"

static int setup(void **state)
{
    (void)state;
    return e8_setup(4);
}

static int kings_only(eg_mat m)
{
    return m.wm + m.bm == 0;
}

static void test_brute_force_3(void **state)
{
    (void)state;
    for (int i = 0; i < 3; i++) {
        dm_egdb *db = e8_open(e8_dirs[i]);
        assert_int_equal(dm_egdb_max_pieces(db), 4);
        assert_true(brv_check_db(db, dm_variant_get(e8_variants[i]), 3, NULL) > 300000);
        dm_egdb_close(db);
    }
}

static void test_brute_force_4_kings(void **state)
{
    (void)state;
    for (int i = 0; i < 3; i++) {
        dm_egdb *db = e8_open(e8_dirs[i]);
        assert_true(brv_check_db(db, dm_variant_get(e8_variants[i]), 4, kings_only) > 500000);
        dm_egdb_close(db);
    }
}

/* Schaeffer et al., Science 317 (2007), table 1 (OEIS A055213): 7 092 774 positions
 * of 4 pieces (test_egdb8.c: how they are counted). */
static void test_chinook_count_4(void **state)
{
    (void)state;
    dm_egdb *db = e8_open(e8_dirs[2]);
    assert_int_equal(e8_schaeffer_count(db, 4), 7092774);
    dm_egdb_close(db);
}

static int on_main_road(uint64_t compact)
{
    /* a1-h8: squares 29, 25, 22, 18, 15, 11, 8, 4 */
    static const int road[8] = {29, 25, 22, 18, 15, 11, 8, 4};
    uint64_t m = 0;
    for (int k = 0; k < 8; k++) {
        m |= UINT64_C(1) << (road[k] - 1);
    }
    return (compact & m) != 0;
}

/* Russian: three kings against one king. Ru.wikipedia "Треугольник Петрова" (Petrov's
 * triangle, after A. D. Petrov, 1827): three kings that hold the main road (the long
 * diagonal a1-h8) catch a lone king, Petrov's own position being White kings a1,
 * c1, e1 against f8; a lone king that holds the main road draws (the Russian rules'
 * 15-move limit for this ending exists because the win takes up to 13 moves; the
 * database counts no moves). So, with White to move and no capture on either side:
 * a White king on the main road and the lone king off it: won; the lone king on it
 * and no White king: drawn (96% of those positions), unless a White king can step
 * onto the road at once and so take it from the lone king. */
static void test_russian_three_kings(void **state)
{
    (void)state;
    dm_egdb *db = e8_open(e8_dirs[0]);
    dm_board b;
    dm_error err;
    const dm_variant *v = dm_variant_get(DM_VARIANT_RUSSIAN);
    assert_int_equal(dm_board_from_fen(&b, v, "W:WK29,K30,K31:BK3", &err), DM_OK);
    assert_int_equal(dm_egdb_probe(db, &b, NULL), DM_EGDB_WIN);
    assert_int_equal(dm_board_from_fen(&b, v, "B:WK29,K30,K31:BK3", &err), DM_OK);
    assert_int_equal(dm_egdb_probe(db, &b, NULL), DM_EGDB_LOSS);
    assert_int_equal(dm_board_from_fen(&b, v, "W:WK30,K31,K32:BK29", &err), DM_OK);
    assert_int_equal(dm_egdb_probe(db, &b, NULL), DM_EGDB_DRAW);

    const eg_geom *g = db->binom.geom;
    eg_mat m = {0, 3, 0, 1};
    const eg_slice *s = eg_db_find(db, m);
    assert_non_null(s);
    int held = 0, road = 0, road_draws = 0;
    for (uint64_t i = 0; i < s->shape.size; i++) {
        eg_pos p;
        if (!eg_unindex(&db->binom, &s->shape, m, i, &p)) {
            continue;
        }
        dm_board10 fb;
        eg_board_of_pos_g(g, &fb, &p);
        dm_board10 bl = fb;
        bl.side = DM_BLACK;
        if (g->has_capture(&fb) || g->has_capture(&bl)) {
            continue;
        }
        int white_road = on_main_road(p.wk), black_road = on_main_road(p.bk);
        dm_egdb_value val = egdb_lookup10(db, &fb, NULL);
        if (white_road && !black_road) {
            held++;
            if (val != DM_EGDB_WIN) {
                char fen[200];
                e8_fen(db, fen, sizeof fen, &fb);
                fail_msg("three kings holding the main road: %s is a %s", fen,
                         dm_egdb_value_name(val));
            }
        } else if (black_road && !white_road) {
            /* a win only when a White king can step onto the road at once */
            dm_movelist10 list;
            int n = g->legal(&list, &fb), reach = 0;
            for (int k = 0; k < n; k++) {
                reach |= on_main_road(g->to_compact(list.moves[k].own & ~fb.pieces[DM_WHITE]));
            }
            road++;
            road_draws += val == DM_EGDB_DRAW;
            if (val != DM_EGDB_DRAW && !(val == DM_EGDB_WIN && reach)) {
                char fen[200];
                e8_fen(db, fen, sizeof fen, &fb);
                fail_msg("the lone king on the main road: %s is a %s", fen,
                         dm_egdb_value_name(val));
            }
        }
    }
    assert_true(held > 10000 && road > 1000);
    assert_true(road_draws * 10 > road * 9); /* the road holds in most positions */
    /* the longest win: at most 13 moves to catch the king (26 plies) */
    assert_true(s->info.max_dtc <= 26);
    dm_egdb_close(db);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_brute_force_3),
        cmocka_unit_test(test_brute_force_4_kings),
        cmocka_unit_test(test_chinook_count_4),
        cmocka_unit_test(test_russian_three_kings),
    };
    return cmocka_run_group_tests(tests, setup, e8_teardown);
}
