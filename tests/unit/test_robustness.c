/* SPDX-License-Identifier: MIT
 * tests/unit/test_robustness.c: library-level regressions for hostile input found
 * by fuzzing the damier command (see also tests/cli/robustness.sh). One test per
 * bug: the input that broke, and the clear error now expected. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "core/board10.h"
#include "damier/pdn.h"
#include "damier/status.h"
#include "damier/variant.h"

/* A FEN with a side to move and no colour section ("W", "B.", "W:H0") was read by
 * the variant core as an empty board (0 moves, a silent guess), while the
 * international FEN reader rejects it. Every variant must reject it. */
static void test_robustness__variant_fen_without_pieces(void **state)
{
    (void)state;
    static const char *const fens[] = {"W", "B", "W.", " W ", "W:H0", "B:F12"};
    for (int id = 0; id < DM_VARIANT_COUNT; id++) {
        const dm_variant *v = dm_variant_get((dm_variant_id)id);
        assert_non_null(v);
        for (size_t i = 0; i < sizeof fens / sizeof fens[0]; i++) {
            dm_board b;
            dm_error err;
            memset(&err, 0, sizeof err);
            dm_status st = dm_board_from_fen(&b, v, fens[i], &err);
            if (st != DM_EPARSE) {
                fail_msg("%s: FEN \"%s\" gave status %d, expected a parse error", v->name, fens[i],
                         (int)st);
            }
            assert_non_null(strstr(err.message, "no piece section"));
        }
        /* One empty section is still a legal (lost) position. */
        dm_board b;
        assert_int_equal(dm_board_from_fen(&b, v, "W:W:B", NULL), DM_OK);
    }
}

/* Read the first game of text[0..len) (NUL bytes allowed). */
static dm_status read_one(dm_pdn_game **g, const char *text, size_t len, dm_error *err)
{
    dm_pdn_reader *r = NULL;
    assert_int_equal(dm_pdn_reader_new(&r, text, len, "t.pdn"), DM_OK);
    dm_status st = dm_pdn_reader_next(g, r, err);
    dm_pdn_reader_free(r);
    return st;
}

/* A NUL byte cut a tag value or comment short without a word ({ab<NUL>cd} became
 * {ab}), and one after a move was swallowed with it. Now the text keeps what
 * follows the NUL with a note, and a NUL between moves is an error at its place. */
static void test_robustness__pdn_nul_bytes(void **state)
{
    (void)state;
    static const char tagged[] = "[Event \"a\0b\"]\n1. 32-28 {ab\0cd} 19-23 *\n";
    dm_pdn_game *g = NULL;
    dm_error err;
    assert_int_equal(read_one(&g, tagged, sizeof tagged - 1, &err), DM_OK);
    assert_string_equal(dm_pdn_game_tag(g, "Event"), "ab");
    assert_int_equal(g->main.nnodes, 2);
    assert_int_equal(g->main.nodes[0].nafter, 1);
    assert_string_equal(g->main.nodes[0].after[0], "abcd");
    int noted = 0;
    for (int i = 0; i < g->nnotes; i++) {
        noted |= strstr(g->notes[i], "NUL") != NULL;
    }
    assert_true(noted);
    dm_pdn_game_free(g);

    static const char moves[] = "1. 32-28\0 19-23 *\n";
    g = NULL;
    memset(&err, 0, sizeof err);
    assert_int_equal(read_one(&g, moves, sizeof moves - 1, &err), DM_EPARSE);
    assert_int_equal(err.line, 1);
    assert_int_equal(err.column, 9);
    assert_non_null(strstr(err.message, "0x00"));
    dm_pdn_game_free(g);
}

/* A move number or NAG too long for an int was clamped without a word:
 * "99999999999999999999. 32-28" was written back as "999999. 32-28". */
static void test_robustness__pdn_huge_numbers(void **state)
{
    (void)state;
    static const char *const texts[] = {"99999999999999999999. 32-28 *\n",
                                        "1. 32-28 $99999999999 *\n"};
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        dm_pdn_game *g = NULL;
        dm_error err;
        memset(&err, 0, sizeof err);
        assert_int_equal(read_one(&g, texts[i], strlen(texts[i]), &err), DM_EPARSE);
        assert_non_null(strstr(err.message, "at most 6 digits"));
        dm_pdn_game_free(g);
    }
    dm_pdn_game *g = NULL;
    static const char ok[] = "999999. 32-28 $255 *\n";
    assert_int_equal(read_one(&g, ok, sizeof ok - 1, NULL), DM_OK);
    assert_int_equal(g->main.nodes[0].number, 999999);
    assert_int_equal(g->main.nodes[0].nags[0], 255);
    dm_pdn_game_free(g);
}

/* After an unreadable game, reading resumed only at a tag section: every later
 * game of a file without tags ("1. 32-28 *" per line) was skipped unseen. */
static void test_robustness__pdn_resync_tagless(void **state)
{
    (void)state;
    static const char text[] = "1. 32-28 )( *\n1. 33-28 *\n\n1. 34-29 *\n";
    dm_pdn_reader *r = NULL;
    assert_int_equal(dm_pdn_reader_new(&r, text, sizeof text - 1, "t.pdn"), DM_OK);
    dm_pdn_game *g = NULL;
    assert_int_equal(dm_pdn_reader_next(&g, r, NULL), DM_EPARSE);
    dm_pdn_game_free(g);
    static const char *const first[] = {"33-28", "34-29"};
    for (int i = 0; i < 2; i++) {
        g = NULL;
        assert_int_equal(dm_pdn_reader_next(&g, r, NULL), DM_OK);
        assert_non_null(g);
        assert_int_equal(g->main.nnodes, 1);
        assert_string_equal(g->main.nodes[0].text, first[i]);
        dm_pdn_game_free(g);
    }
    g = NULL;
    dm_pdn_reader_next(&g, r, NULL);
    assert_null(g); /* the end */
    dm_pdn_reader_free(r);
}

/* A FEN opened with '"' (copied from a tag) and never closed was accepted. */
static void test_robustness__fen_unclosed_quote(void **state)
{
    (void)state;
    dm_board10 b;
    dm_error err;
    memset(&err, 0, sizeof err);
    assert_int_equal(dm_board10_from_fen(&b, "\"W:W31-50:B1-20", &err), DM_EPARSE);
    assert_non_null(strstr(err.message, "close the quoted FEN"));
    assert_int_equal(err.column, 16);
    assert_int_equal(dm_board10_from_fen(&b, "\"W:W31-50:B1-20 ", NULL), DM_EPARSE);
    assert_int_equal(dm_board10_from_fen(&b, "\"W:W31-50:B1-20\"", NULL), DM_OK);
    assert_int_equal(dm_board10_from_fen(&b, "W:W31-50:B1-20", NULL), DM_OK);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_robustness__variant_fen_without_pieces),
        cmocka_unit_test(test_robustness__pdn_nul_bytes),
        cmocka_unit_test(test_robustness__pdn_huge_numbers),
        cmocka_unit_test(test_robustness__pdn_resync_tagless),
        cmocka_unit_test(test_robustness__fen_unclosed_quote),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
