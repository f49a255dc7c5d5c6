/* SPDX-License-Identifier: MIT
 * tests/unit/test_notation_roundtrip.c: whatever damier writes for a move reads back as
 * exactly that move. Along random games (seeded) of every variant, every legal move of
 * the positions (every one with a capture, every eighth quiet one) is written short
 * (PDN; also with the other square style), in full and in Hub form, and parsed back; the international rules
 * also through the fast core's dm_move10_to_text / dm_move10_parse. Plus the position
 * where Russian "f8:b4" used to be written for a move damier then called ambiguous. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "core/board10.h"
#include "core/move10.h"
#include <damier/variant.h>

#define GAMES 200    /* per variant */
#define MAX_PLIES 80 /* per game */

static int same_vmove(const dm_move *a, const dm_move *b)
{
    return a->from == b->from && a->to == b->to && a->ncapt == b->ncapt &&
           !memcmp(a->capt, b->capt, sizeof a->capt);
}

static unsigned next_rand(unsigned *seed)
{
    *seed = *seed * 1103515245u + 12345u;
    return *seed >> 8;
}

/* Every legal move of b written in every style parses back to itself. */
static void check_vposition(const dm_board *b, const dm_movelist *list, long *checked)
{
    static const dm_notation styles[] = {DM_NOTATION_PDN, DM_NOTATION_FULL, DM_NOTATION_HUB};
    static const dm_square_style squares[] = {DM_SQUARES_DEFAULT, DM_SQUARES_NUMERIC,
                                              DM_SQUARES_ALGEBRAIC};
    int nsq = b->variant->size == 8 ? 3 : 2; /* algebraic squares: 8x8 boards */
    for (int i = 0; i < list->count; i++) {
        for (size_t s = 0; s < sizeof styles / sizeof styles[0]; s++) {
            /* the other square styles for the short form only (time under ASan) */
            for (int q = 0; q < (styles[s] == DM_NOTATION_PDN ? nsq : 1); q++) {
                char text[400], fen[400];
                dm_move_to_text(text, sizeof text, b, &list->moves[i], styles[s], squares[q]);
                dm_move back;
                dm_error err = {{0}, 0, 0};
                dm_status st = dm_move_parse(&back, b, text, &err);
                if (st != DM_OK || !same_vmove(&back, &list->moves[i])) {
                    dm_board_to_fen(fen, sizeof fen, b, b->variant->algebraic);
                    fail_msg("%s: move %d written \"%s\" (style %d, squares %d) reads back %s: "
                             "%s; FEN %s",
                             b->variant->name, i, text, (int)styles[s], q,
                             st == DM_OK ? "as another move" : "as an error",
                             st == DM_OK ? "" : err.message, fen);
                }
                (*checked)++;
            }
        }
    }
}

/* The fast 10x10 core's notation, in the same position (international rules). */
static void check_fast_position(const dm_board *vb, long *checked)
{
    dm_board10 b;
    assert_int_equal(dm_board_to_board10(&b, vb), DM_OK);
    dm_movelist10 list;
    int n = dm_movegen10_legal(&list, &b);
    static const dm_notation styles[] = {DM_NOTATION_PDN, DM_NOTATION_FULL, DM_NOTATION_HUB};
    for (int i = 0; i < n; i++) {
        for (size_t s = 0; s < sizeof styles / sizeof styles[0]; s++) {
            char text[200], fen[200];
            dm_move10_to_text(text, sizeof text, &b, &list.moves[i], styles[s]);
            dm_move10 back;
            dm_error err = {{0}, 0, 0};
            dm_status st = dm_move10_parse(&back, &b, text, &err);
            if (st != DM_OK || !dm_move10_equal(&back, &list.moves[i])) {
                dm_board10_to_fen(fen, sizeof fen, &b);
                fail_msg("fast core: \"%s\" (style %d) reads back %s: %s; FEN %s", text,
                         (int)styles[s], st == DM_OK ? "as another move" : "as an error",
                         st == DM_OK ? "" : err.message, fen);
            }
            (*checked)++;
        }
    }
}

/* GAMES random games of variant id (captures preferred half the time, so that kings
 * and long captures come up), every position checked. */
static void random_games(dm_variant_id id, unsigned seed)
{
    const dm_variant *v = dm_variant_get(id);
    assert_non_null(v);
    int fast = id == DM_VARIANT_INTERNATIONAL || id == DM_VARIANT_ANTIDRAUGHTS;
    long checked = 0;
    for (int g = 0; g < GAMES; g++) {
        dm_board b;
        dm_board_start(&b, v);
        for (int ply = 0; ply < MAX_PLIES; ply++) {
            dm_movelist list;
            int n = dm_movegen_legal(&list, &b);
            if (n == 0) {
                break;
            }
            /* every position with a capture (where short and full differ), every
             * eighth quiet one: a few seconds under ASan */
            if (list.moves[0].ncapt > 0 || ply % 8 == 0) {
                check_vposition(&b, &list, &checked);
                if (fast) {
                    check_fast_position(&b, &checked);
                }
            }
            dm_board_apply(&b, &list.moves[next_rand(&seed) % (unsigned)n]);
        }
    }
    print_message("%s: %ld move texts read back\n", v->name, checked);
}

static void test_notation_roundtrip__international(void **state)
{
    (void)state;
    random_games(DM_VARIANT_INTERNATIONAL, 1);
}

static void test_notation_roundtrip__brazilian(void **state)
{
    (void)state;
    random_games(DM_VARIANT_BRAZILIAN, 2);
}

static void test_notation_roundtrip__russian(void **state)
{
    (void)state;
    random_games(DM_VARIANT_RUSSIAN, 3);
}

static void test_notation_roundtrip__english(void **state)
{
    (void)state;
    random_games(DM_VARIANT_ENGLISH, 4);
}

static void test_notation_roundtrip__canadian(void **state)
{
    (void)state;
    random_games(DM_VARIANT_CANADIAN, 5);
}

static void test_notation_roundtrip__antidraughts(void **state)
{
    (void)state;
    random_games(DM_VARIANT_ANTIDRAUGHTS, 6);
}

/* Russian (no majority rule): the king on f8 takes c5 alone, ending on b4, or four
 * pieces ending on b4 too. "f8:b4" (written for the first, its whole path) was
 * rejected as ambiguous; the other is written with its path. Every form that names one
 * move is read: from-to when unique, the whole path, other landing squares of a flying
 * king, the Hub form with captured squares in any order. */
static void test_notation_roundtrip__russian_short_capture_vs_long(void **state)
{
    (void)state;
    const dm_variant *v = dm_variant_get(DM_VARIANT_RUSSIAN);
    dm_board b;
    assert_int_equal(dm_board_from_fen(&b, v, "W:We3,g3,h4,a5,b2,h2,a3,Kf8:Bc5,e5,g5,g7,h8", NULL),
                     DM_OK);
    dm_movelist list;
    assert_int_equal(dm_movegen_legal(&list, &b), 3);
    char text[400];
    const dm_move *one = NULL, *four = NULL;
    for (int i = 0; i < list.count; i++) {
        if (list.moves[i].ncapt == 1 && list.moves[i].from == dm_square_parse(v, "f8", NULL)) {
            one = &list.moves[i];
        } else if (list.moves[i].ncapt == 4) {
            four = &list.moves[i];
        }
    }
    assert_non_null(one);
    assert_non_null(four);
    dm_move_to_text(text, sizeof text, &b, one, DM_NOTATION_PDN, DM_SQUARES_DEFAULT);
    assert_string_equal(text, "f8:b4");
    dm_move_to_text(text, sizeof text, &b, four, DM_NOTATION_PDN, DM_SQUARES_DEFAULT);
    assert_string_equal(text, "f8:h6:f4:d6:b4");
    dm_move m;
    dm_error err;
    assert_int_equal(dm_move_parse(&m, &b, "f8:b4", &err), DM_OK);
    assert_true(same_vmove(&m, one));
    assert_int_equal(dm_move_parse(&m, &b, "f8xb4", &err), DM_OK);
    assert_true(same_vmove(&m, one));
    assert_int_equal(dm_move_parse(&m, &b, "f8:h6:f4:d6:b4", &err), DM_OK);
    assert_true(same_vmove(&m, four));
    /* Hub forms, captured squares in any order */
    assert_int_equal(dm_move_parse(&m, &b, "f8xb4xc5", &err), DM_OK);
    assert_true(same_vmove(&m, one));
    assert_int_equal(dm_move_parse(&m, &b, "f8xb4xg5xe5xc5xg7", &err), DM_OK);
    assert_true(same_vmove(&m, four));
    /* from and to with some of the landing squares */
    assert_int_equal(dm_move_parse(&m, &b, "f8:f4:b4", &err), DM_OK);
    assert_true(same_vmove(&m, four));
    assert_int_equal(dm_move_parse(&m, &b, "f8:h6:d6:b4", &err), DM_OK);
    assert_true(same_vmove(&m, four));
    /* squares that are not landing squares of a capture ending there stay an error */
    assert_int_not_equal(dm_move_parse(&m, &b, "f8:e7:b4", &err), DM_OK);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_notation_roundtrip__russian_short_capture_vs_long),
        cmocka_unit_test(test_notation_roundtrip__international),
        cmocka_unit_test(test_notation_roundtrip__brazilian),
        cmocka_unit_test(test_notation_roundtrip__russian),
        cmocka_unit_test(test_notation_roundtrip__english),
        cmocka_unit_test(test_notation_roundtrip__canadian),
        cmocka_unit_test(test_notation_roundtrip__antidraughts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
