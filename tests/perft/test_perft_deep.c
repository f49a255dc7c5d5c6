/* SPDX-License-Identifier: MIT
 * tests/perft/test_perft_deep.c: the deep published perft counts (labelled slow: a few
 * seconds in an optimised build; left out of the sanitizer run).
 *
 * Duplicate policy: capture paths with the same from, to and captured set are one move
 * and counted once, as in the sources below.
 *
 * Provenance (see ../shared/docs/style-by-example.md 5.9 and variants.md):
 * - start position, depth 9 = 41,022,423: dctl
 *   test/src/algo/traversal/initial/board_10x10.cpp (depths 10 and 11, 258,895,763 and
 *   1,665,861,398, are for the benchmark, not the tests);
 * - B:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46:BK17,K24, depth 9 =
 *   1,216,917,193: dctl board_10x10.cpp / international/fmjd.cpp and Moby Dam
 *   test/doperft;
 * - Woldouby W:W25,27,28,30,32,33,34,35,37,38:B12,13,14,16,18,19,21,23,24,26, depth 15 =
 *   346,184,885: same sources. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "core/board10.h"
#include "core/move10.h"

static void expect_perft(const char *fen, int depth, uint64_t want)
{
    dm_board10 b;
    dm_error err = {{0}, 0, 0};
    if (dm_board10_from_fen(&b, fen, &err) != DM_OK) {
        fail_msg("FEN %s rejected: %s", fen, err.message);
    }
    uint64_t got = dm_perft10(&b, depth);
    if (got != want) {
        fail_msg("perft(%d) of %s = %llu, expected %llu", depth, fen, (unsigned long long)got,
                 (unsigned long long)want);
    }
}

static void test_perft_deep__start_depth_9(void **state)
{
    (void)state;
    expect_perft("W:W31-50:B1-20", 9, UINT64_C(41022423));
}

static void test_perft_deep__king_heavy_depth_9(void **state)
{
    (void)state;
    expect_perft("B:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46:BK17,K24", 9,
                 UINT64_C(1216917193));
}

static void test_perft_deep__woldouby_depth_15(void **state)
{
    (void)state;
    expect_perft("W:W25,27,28,30,32,33,34,35,37,38:B12,13,14,16,18,19,21,23,24,26", 15,
                 UINT64_C(346184885));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_perft_deep__start_depth_9),
        cmocka_unit_test(test_perft_deep__king_heavy_depth_9),
        cmocka_unit_test(test_perft_deep__woldouby_depth_15),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
