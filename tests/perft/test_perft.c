/* SPDX-License-Identifier: MIT
 * tests/perft/test_perft.c: perft (leaf counts of the legal move tree) against
 * published counts, and against a brute-force perft written here (full generation and
 * apply/undo at every ply, no bulk counting) that shares nothing with dm_perft10 but
 * dm_movegen10_legal and dm_board10_apply/undo.
 *
 * Duplicate policy: capture paths with the same from, to and captured set are ONE move
 * (FMJD; the rule), so they are counted once. The published counts below use the
 * same policy; counting duplicates separately gives different numbers (e.g. 6,483,971
 * instead of 6,483,961 from the start at depth 8, per dctl), so these counts also prove
 * the policy.
 *
 * Provenance:
 * - start position, depths 1-8: dctl test/src/algo/traversal/initial/board_10x10.cpp,
 *   also in ../shared/docs/variants.md and style-by-example.md 5.9;
 * - "king-heavy" position B:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46:BK17,K24
 *   and Woldouby W:W25,27,28,30,32,33,34,35,37,38:B12,13,14,16,18,19,21,23,24,26: only
 *   deep counts are published (depth 9 and 15, in test_perft_deep.c). The shallow
 *   counts here were computed by dm_perft10 and cross-checked two ways: by the brute-force
 *   perft of this file, and by a separate reference generator written independently
 *   of src/core (a few dozen lines of Python, not part of the repository) which gave the
 *   same counts for depths 1-4 (king-heavy) and 1-6 (Woldouby). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>

#include "core/board10.h"
#include "core/move10.h"

#define START_FEN "W:W31-50:B1-20"
#define KINGS_FEN "B:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46:BK17,K24"
#define WOLDOUBY_FEN "W:W25,27,28,30,32,33,34,35,37,38:B12,13,14,16,18,19,21,23,24,26"

static void load(dm_board10 *b, const char *fen)
{
    dm_error err = {{0}, 0, 0};
    if (dm_board10_from_fen(b, fen, &err) != DM_OK) {
        fail_msg("FEN %s rejected: %s", fen, err.message);
    }
}

/* Brute force: generate, apply, recurse, undo; leaves counted one by one. Also checks
 * that the incremental hash and undo stay exact throughout the tree. */
static uint64_t brute_perft(dm_board10 *b, int depth)
{
    if (depth == 0) {
        return 1;
    }
    dm_movelist10 list;
    dm_movegen10_legal(&list, b);
    assert_false(list.overflow);
    uint64_t n = 0;
    for (int i = 0; i < list.count; i++) {
        uint64_t h = b->hash;
        dm_board10_apply(b, &list.moves[i]);
        n += brute_perft(b, depth - 1);
        dm_board10_undo(b, &list.moves[i]);
        assert_true(b->hash == h);
    }
    return n;
}

typedef struct perft_row {
    int depth;
    uint64_t nodes;
} perft_row;

static void check_counts(const char *fen, const perft_row *rows, int nrows, int brute_up_to)
{
    dm_board10 b;
    load(&b, fen);
    assert_true(dm_perft10(&b, 0) == 1);
    for (int i = 0; i < nrows; i++) {
        uint64_t got = dm_perft10(&b, rows[i].depth);
        if (got != rows[i].nodes) {
            fail_msg("perft(%d) of %s = %llu, expected %llu", rows[i].depth, fen,
                     (unsigned long long)got, (unsigned long long)rows[i].nodes);
        }
        if (rows[i].depth <= brute_up_to) {
            dm_board10 copy = b;
            uint64_t brute = brute_perft(&copy, rows[i].depth);
            if (brute != rows[i].nodes) {
                fail_msg("brute-force perft(%d) of %s = %llu, expected %llu", rows[i].depth, fen,
                         (unsigned long long)brute, (unsigned long long)rows[i].nodes);
            }
            assert_true(dm_board10_equal(&copy, &b));
        }
    }
}

/* Published: dctl board_10x10.cpp (duplicates counted once). */
static void test_perft__start_position(void **state)
{
    (void)state;
    static const perft_row rows[] = {
        {1, 9}, {2, 81}, {3, 658}, {4, 4265}, {5, 27117}, {6, 167140}, {7, 1049442}, {8, 6483961},
    };
    check_counts(START_FEN, rows, 8, 5);
}

/* Computed and cross-checked (see the file header); depth 9 published, in _deep. */
static void test_perft__king_heavy_position(void **state)
{
    (void)state;
    static const perft_row rows[] = {
        {1, 14}, {2, 55}, {3, 1168}, {4, 5432}, {5, 87195}, {6, 629010},
    };
    check_counts(KINGS_FEN, rows, 6, 5);
}

/* Computed and cross-checked (see the file header); depth 15 published, in _deep. */
static void test_perft__woldouby_position(void **state)
{
    (void)state;
    static const perft_row rows[] = {
        {1, 6},   {2, 12},   {3, 30},   {4, 73},    {5, 215},
        {6, 590}, {7, 1944}, {8, 6269}, {9, 22369}, {10, 88050},
    };
    check_counts(WOLDOUBY_FEN, rows, 10, 9);
}

/* Positions of the rules suite where duplicates, the majority rule and promotion all
 * occur near the root: dm_perft10 (bulk counting) must agree with brute force. */
static void test_perft__bulk_counting_agrees_with_brute_force(void **state)
{
    (void)state;
    static const char *const fens[] = {
        "W:WK32:B17,18,27,28",           "W:WK43:B7,17,22,32",
        "W:WK46:B12,13,23,33",           "W:W13:B7,8,22",
        "W:WK46,K50,31-35:BK1,K5,16-20", "B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29",
        "W:W36,45:B27,31,34,40",         "W:W:B1",
    };
    for (size_t f = 0; f < sizeof fens / sizeof fens[0]; f++) {
        dm_board10 b;
        load(&b, fens[f]);
        for (int d = 1; d <= 4; d++) {
            dm_board10 copy = b;
            uint64_t brute = brute_perft(&copy, d), bulk = dm_perft10(&b, d);
            if (brute != bulk) {
                fail_msg("perft(%d) of %s: dm_perft10 %llu, brute force %llu", d, fens[f],
                         (unsigned long long)bulk, (unsigned long long)brute);
            }
        }
    }
}

/* --divide: the counts under each root move add up to the total. */
static void test_perft__divide_sums(void **state)
{
    (void)state;
    dm_board10 b;
    load(&b, KINGS_FEN);
    dm_movelist10 list;
    dm_movegen10_legal(&list, &b);
    uint64_t sum = 0;
    for (int i = 0; i < list.count; i++) {
        dm_board10 next = b;
        dm_board10_apply(&next, &list.moves[i]);
        sum += dm_perft10(&next, 4);
    }
    assert_true(sum == dm_perft10(&b, 5));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_perft__start_position),
        cmocka_unit_test(test_perft__king_heavy_position),
        cmocka_unit_test(test_perft__woldouby_position),
        cmocka_unit_test(test_perft__bulk_counting_agrees_with_brute_force),
        cmocka_unit_test(test_perft__divide_sums),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
