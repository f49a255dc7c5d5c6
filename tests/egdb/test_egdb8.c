/* SPDX-License-Identifier: MIT
 * tests/egdb/test_egdb8.c (label fast): the endgame databases of the 8x8 variants
 * (Russian, Brazilian, English checkers), made by the one generator of src/egdb
 * with 2 and 3 pieces here. Every position of 2 pieces and of 3 kings (either side
 * to move, capture positions included) against the brute-force solver of brute.h run
 * over the public generic move generator of each variant, and the W/L/D counts of
 * those slices; verify of every slice; the variant in each file's header (a folder
 * of one variant refuses another's file, a probe of another variant's position is
 * unknown, generation into a folder of another variant fails); the number of
 * positions of 2 and 3 pieces against Schaeffer's published checkers counts;
 * published English endings; the 8x8 engine probing its variant's database. Every
 * position of 3 pieces, 4 kings and the Russian three kings against one: in
 * test_egdb8_deep (label slow). */
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
#include <damier/engine.h>
#include <damier/variant.h>

#include "brute.h"
#include "egdb/egdb_int.h"

#include "egdb8_common.h"

static int setup(void **state)
{
    (void)state;
    return e8_setup(3);
}

/* 2 pieces, and 3 kings: closed under captures and promotions. */
static int small_set(eg_mat m)
{
    return eg_mat_pieces(m) == 2 || m.wm + m.bm == 0;
}

static void test_against_brute_force(void **state)
{
    (void)state;
    for (int i = 0; i < 3; i++) {
        dm_egdb *db = e8_open(e8_dirs[i]);
        assert_int_equal(dm_egdb_problem_count(db), 0);
        assert_int_equal((int)dm_egdb_variant(db), (int)e8_variants[i]);
        assert_int_equal(dm_egdb_max_pieces(db), 3);
        assert_int_equal(dm_egdb_slice_count(db), 4 + 12);
        uint32_t n = brv_check_db(db, dm_variant_get(e8_variants[i]), 3, small_set);
        assert_true(n > 30000);
        dm_egdb_close(db);
    }
}

static void test_verify_all(void **state)
{
    (void)state;
    for (int i = 0; i < 3; i++) {
        dm_egdb *db = e8_open(e8_dirs[i]);
        for (int s = 0; s < dm_egdb_slice_count(db); s++) {
            dm_error err;
            if (dm_egdb_verify_slice(db, s, &err) != DM_OK) {
                fail_msg("verify %s: %s", dm_variant_get(e8_variants[i])->name, err.message);
            }
        }
        dm_egdb_close(db);
    }
}

/* The variants differ where their rules do: the same slice has other counts. */
static void test_variants_differ(void **state)
{
    (void)state;
    dm_egdb_slice_info in[3];
    for (int i = 0; i < 3; i++) {
        dm_egdb *db = e8_open(e8_dirs[i]);
        int s = e8_find_slice(db, "d0201");
        assert_true(s >= 0);
        assert_int_equal(dm_egdb_slice(db, s, &in[i]), DM_OK);
        assert_int_equal(in[i].variant, (int)e8_variants[i]);
        dm_egdb_close(db);
    }
    /* Flying kings (Russian, Brazilian): two kings rarely beat one; short kings
     * (English): almost always. */
    assert_true(in[0].wins * 4 < in[0].draws);
    assert_true(in[2].draws * 100 < in[2].wins);
}

static void copy_file(const char *from, const char *to)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "cp '%s' '%s'", from, to);
    assert_int_equal(system(cmd), 0);
}

/* A folder holds one variant: another variant's file is refused with a message
 * naming both; a position of another variant is not probed; generation into a
 * folder of another variant fails, naming the file. */
static void test_wrong_variant(void **state)
{
    (void)state;
    char mixed[64];
    snprintf(mixed, sizeof mixed, "/tmp/damier-egdb8-mixed-XXXXXX");
    assert_non_null(mkdtemp(mixed));
    char from[128], to[128];
    snprintf(from, sizeof from, "%s/d0101.egdb", e8_dirs[0]); /* Russian */
    snprintf(to, sizeof to, "%s/d0101.egdb", mixed);
    copy_file(from, to);
    snprintf(from, sizeof from, "%s/d1001.egdb", e8_dirs[1]); /* Brazilian */
    snprintf(to, sizeof to, "%s/d1001.egdb", mixed);
    copy_file(from, to);
    dm_egdb *db = e8_open(mixed);
    assert_int_equal((int)dm_egdb_variant(db), DM_VARIANT_RUSSIAN);
    assert_int_equal(dm_egdb_slice_count(db), 1);
    assert_int_equal(dm_egdb_problem_count(db), 1);
    const char *why = dm_egdb_problem(db, 0);
    assert_non_null(strstr(why, "d1001.egdb"));
    assert_non_null(strstr(why, "brazilian"));
    assert_non_null(strstr(why, "russian"));
    dm_egdb_close(db);

    /* The same kings, Russian database: a Brazilian or international position is
     * unknown, the Russian one has its value. */
    db = e8_open(e8_dirs[0]);
    dm_board b;
    dm_error err;
    assert_int_equal(dm_board_from_fen(&b, dm_variant_get(DM_VARIANT_RUSSIAN), "W:WK29:BK4", &err),
                     DM_OK);
    assert_int_not_equal(dm_egdb_probe(db, &b, NULL), DM_EGDB_UNKNOWN);
    assert_int_equal(
        dm_board_from_fen(&b, dm_variant_get(DM_VARIANT_BRAZILIAN), "W:WK29:BK4", &err), DM_OK);
    assert_int_equal(dm_egdb_probe(db, &b, NULL), DM_EGDB_UNKNOWN);
    assert_int_equal(dm_egdb_lookup(db, &b, NULL), DM_EGDB_UNKNOWN);
    assert_int_equal(
        dm_board_from_fen(&b, dm_variant_get(DM_VARIANT_INTERNATIONAL), "W:WK46:BK5", &err), DM_OK);
    assert_int_equal(dm_egdb_probe(db, &b, NULL), DM_EGDB_UNKNOWN);
    dm_egdb_close(db);

    dm_egdb_gen_options o = DM_EGDB_GEN_OPTIONS_INIT;
    o.pieces = 2;
    o.variant = DM_VARIANT_BRAZILIAN;
    assert_int_equal(dm_egdb_generate(mixed, &o, &err), DM_EINVAL);
    assert_non_null(strstr(err.message, "another variant"));
    o.variant = DM_VARIANT_ITALIAN;
    assert_int_equal(dm_egdb_generate(mixed, &o, &err), DM_EINVAL);
    e8_rm_dir(mixed);
}

/* Schaeffer et al., "Checkers Is Solved", Science 317 (2007), table 1, also OEIS
 * A055213: positions of n pieces on the checkers board, 1..4: 120, 6 972, 261 224,
 * 7 092 774. They count placements of men (never on their own last row) and kings,
 * without the side to move, one-sided ones included. The database's slices hold
 * each two-sided placement once (White to move, a Black-to-move position is its
 * colour-flipped twin's), so: positions of the slices that are positions + one-sided
 * placements = the published count. */
static void test_chinook_counts(void **state)
{
    (void)state;
    dm_egdb *db = e8_open(e8_dirs[2]);
    assert_int_equal(e8_schaeffer_count(db, 2), 6972);
    assert_int_equal(e8_schaeffer_count(db, 3), 261224);
    dm_egdb_close(db);
}

static int probe_fen(const dm_egdb *db, dm_variant_id v, const char *fen)
{
    dm_board b;
    dm_error err;
    if (dm_board_from_fen(&b, dm_variant_get(v), fen, &err) != DM_OK) {
        fail_msg("%s: %s", fen, err.message);
    }
    return (int)dm_egdb_probe(db, &b, NULL);
}

/* English checkers. Edward Lasker, "Chess and Checkers: the Way to Mastership"
 * (1918), "Elementary tactics", diagram 88: a white king on 32 against a black king
 * on 26: White to move wins (32-27 takes the opposition, "the move"); Black to move
 * draws (26-31 gains the opposition, White retreats to the double corner). Diagram
 * 89 and text: a king entrenched in the double corner needs two kings to be beaten,
 * and two kings against one win (diagram 89, the kings on 19 and 23 against 32, won
 * whoever moves); the exceptions (e8_two_kings_win): the lone king wins a king at
 * once (a fork), which leaves king against king, or holds one of them in a single
 * corner. */
static void test_english_published(void **state)
{
    (void)state;
    dm_egdb *db = e8_open(e8_dirs[2]);
    assert_int_equal(probe_fen(db, DM_VARIANT_ENGLISH, "W:WK32:BK26"), DM_EGDB_WIN);
    assert_int_equal(probe_fen(db, DM_VARIANT_ENGLISH, "B:WK32:BK26"), DM_EGDB_DRAW);
    /* the lone king in the double corner, two kings against it: won either side to move */
    assert_int_equal(probe_fen(db, DM_VARIANT_ENGLISH, "W:WK19,K23:BK32"), DM_EGDB_WIN);
    assert_int_equal(probe_fen(db, DM_VARIANT_ENGLISH, "B:WK19,K23:BK32"), DM_EGDB_LOSS);
    int corner = 0;
    int checked = e8_two_kings_win(db, &corner);
    assert_true(checked > 10000);
    assert_true(corner > 0 && corner * 1000 < checked); /* a few corner cases */
    dm_egdb_close(db);
}

/* The 8x8 engine probes the database of its variant: a position it decides scores as
 * a database win at once; another variant's database is not used. */
static void test_engine_probe(void **state)
{
    (void)state;
    dm_egdb *eng = e8_open(e8_dirs[2]), *rus = e8_open(e8_dirs[0]);
    dm_board b;
    dm_error err;
    assert_int_equal(dm_board_from_fen(&b, dm_variant_get(DM_VARIANT_ENGLISH), "W:WK32:BK26", &err),
                     DM_OK);
    dm_engine *e;
    assert_int_equal(dm_engine_create(&e, NULL), DM_OK);
    dm_search_input in;
    dm_search_input_init(&in, &b);
    dm_limits lim;
    memset(&lim, 0, sizeof lim);
    lim.depth = 3;
    dm_result r;
    assert_int_equal(dm_engine_search(&r, e, &in, &lim, NULL, NULL, &err), DM_OK);
    int plain = r.score;
    assert_true(plain < DM_SCORE_EGDB_MIN);
    assert_int_equal(dm_engine_set_egdb(e, rus), DM_OK);
    assert_int_equal(dm_engine_search(&r, e, &in, &lim, NULL, NULL, &err), DM_OK);
    assert_true(r.score < DM_SCORE_EGDB_MIN); /* a Russian database: not probed */
    assert_int_equal(dm_engine_set_egdb(e, eng), DM_OK);
    assert_int_equal(dm_engine_search(&r, e, &in, &lim, NULL, NULL, &err), DM_OK);
    assert_true(r.score >= DM_SCORE_EGDB_MIN && r.score < DM_SCORE_WIN_MIN);
    /* Black to move: the database's draw */
    b.side = DM_BLACK;
    dm_search_input_init(&in, &b);
    assert_int_equal(dm_engine_search(&r, e, &in, &lim, NULL, NULL, &err), DM_OK);
    assert_int_equal(r.score, 0);
    dm_engine_free(e);
    dm_egdb_close(eng);
    dm_egdb_close(rus);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_against_brute_force), cmocka_unit_test(test_verify_all),
        cmocka_unit_test(test_variants_differ),     cmocka_unit_test(test_wrong_variant),
        cmocka_unit_test(test_chinook_counts),      cmocka_unit_test(test_english_published),
        cmocka_unit_test(test_engine_probe),
    };
    return cmocka_run_group_tests(tests, setup, e8_teardown);
}
