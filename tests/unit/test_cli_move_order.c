/* SPDX-License-Identifier: MIT
 * Tests of apps/cli/move_order.c (cli_intl_move_order): the legal moves of an
 * international position, as dm_movegen_legal lists them, put in the order of the fast
 * 10x10 generator (dm_movegen10_legal), the order `damier selfplay` draws its random
 * openings from, so that a seed keeps its openings. Checked move by move against that
 * generator over seeded random games (men's and kings' ordinary moves and captures,
 * kings' multiple captures), and on the start position written out. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include <damier/board10.h>
#include <damier/move10.h>
#include <damier/variant.h>

#include "commands.h"

static uint64_t rng_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* 1 when list (ordered) is the fast generator's list of b, move by move. */
static int same_order(const dm_movelist *list, const dm_board *b)
{
    dm_board10 b10;
    dm_movelist10 l10;
    assert_int_equal(dm_board_to_board10(&b10, b), DM_OK);
    int n = dm_movegen10_legal(&l10, &b10);
    if (n != list->count) {
        return 0;
    }
    for (int i = 0; i < n; i++) {
        dm_move m;
        assert_int_equal(dm_move_from_move10(&m, b, &l10.moves[i]), DM_OK);
        if (!dm_move_same(&m, &list->moves[i])) {
            return 0;
        }
    }
    return 1;
}

/* The start position, White then Black: men's moves by direction, then square. */
static void test_cli_move_order__start(void **state)
{
    (void)state;
    static const char *const want[2] = {"31-26 32-27 33-28 34-29 35-30 31-27 32-28 33-29 34-30",
                                        "17-21 18-22 19-23 20-24 16-21 17-22 18-23 19-24 20-25"};
    const dm_variant *v = dm_variant_get(DM_VARIANT_INTERNATIONAL);
    for (int side = 0; side < 2; side++) {
        dm_board b;
        dm_board_start(&b, v);
        b.side = side;
        static dm_movelist list;
        dm_movegen_legal(&list, &b);
        cli_intl_move_order(&list, &b);
        char got[256] = "";
        size_t k = 0;
        for (int i = 0; i < list.count; i++) {
            char t[64];
            dm_move_to_text(t, sizeof t, &b, &list.moves[i], DM_NOTATION_PDN, DM_SQUARES_DEFAULT);
            k += (size_t)snprintf(got + k, sizeof got - k, "%s%s", i ? " " : "", t);
        }
        assert_string_equal(got, want[side]);
        assert_true(same_order(&list, &b));
    }
}

/* A king with several captures, of one piece and of several, and a man's: the men's
 * first, then the king's in the fast generator's search order. */
static void test_cli_move_order__king_captures(void **state)
{
    (void)state;
    static const char *const fens[] = {
        "W:WK43:B7,17,22,32",     /* 43x1 twice, by different pieces */
        "W:WK46:B12,13,23,33",    /* one king, three captures */
        "W:WK28,33:B19,22,23,39", /* a man and a king capture */
        "B:WK1,K10,40:BK45,K5,17,18,22",
        "W:WK26,K48,31,32:B7,8,12,13,17,18,19,22,23,24,K42",
    };
    const dm_variant *v = dm_variant_get(DM_VARIANT_INTERNATIONAL);
    for (size_t i = 0; i < sizeof fens / sizeof fens[0]; i++) {
        dm_board b;
        assert_int_equal(dm_board_from_fen(&b, v, fens[i], NULL), DM_OK);
        static dm_movelist list;
        dm_movegen_legal(&list, &b);
        cli_intl_move_order(&list, &b);
        if (!same_order(&list, &b)) {
            fail_msg("%s: not the fast generator's order", fens[i]);
        }
    }
}

/* Seeded random games to their end (kings, long king captures, majority rule). */
static void test_cli_move_order__random_games(void **state)
{
    (void)state;
    const dm_variant *v = dm_variant_get(DM_VARIANT_INTERNATIONAL);
    uint64_t seed = 9;
    long positions = 0, king_choices = 0, differ = 0;
    static dm_movelist list, plain;
    for (int g = 0; g < 1500; g++) {
        dm_board b;
        dm_board_start(&b, v);
        for (int ply = 0; ply < 300; ply++) {
            int n = dm_movegen_legal(&list, &b);
            if (n == 0) {
                break;
            }
            plain = list;
            cli_intl_move_order(&list, &b);
            positions++;
            if (!same_order(&list, &b)) {
                if (differ++ < 3) {
                    char fen[512];
                    dm_board_to_fen(fen, sizeof fen, &b, 0);
                    print_message("order differs in %s\n", fen);
                }
            }
            int kc = 0;
            for (int i = 0; i < n; i++) {
                dm_piece p = dm_board_piece(&b, list.moves[i].from);
                kc += list.moves[i].ncapt > 0 && (p == DM_WHITE_KING || p == DM_BLACK_KING);
            }
            king_choices += kc >= 2;
            /* the same moves, only reordered */
            for (int i = 0; i < n; i++) {
                int found = 0;
                for (int j = 0; j < n && !found; j++) {
                    found = dm_move_same(&plain.moves[i], &list.moves[j]);
                }
                assert_true(found);
            }
            dm_board_apply(&b, &list.moves[rng_next(&seed) % (uint64_t)n]);
        }
    }
    assert_int_equal(differ, 0);
    assert_true(positions > 100000);
    assert_true(king_choices > 1000); /* the kings' capture order was exercised */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cli_move_order__start),
        cmocka_unit_test(test_cli_move_order__king_captures),
        cmocka_unit_test(test_cli_move_order__random_games),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
