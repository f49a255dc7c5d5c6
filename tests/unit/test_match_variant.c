/* SPDX-License-Identifier: MIT
 * Tests of apps/cli/match_variant.c, the variants in `damier match`: the Hub names,
 * the Hub form of a position (numbered as the records number the squares), how an
 * engine's move text is read, and which position starts the `pos` line (the draw
 * counts and Frisian's king-move count it must not lose). Engine-independent: the
 * games are played move by move here. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include <damier/game.h>
#include <damier/variant.h>

#include "match_variant.h"

static const dm_variant *variant(const char *name)
{
    const dm_variant *v = NULL;
    assert_int_equal(dm_variant_from_name(&v, name, NULL), DM_OK);
    return v;
}

static dm_board board(const char *name, const char *fen)
{
    dm_board b;
    if (fen) {
        assert_int_equal(dm_board_from_fen(&b, variant(name), fen, NULL), DM_OK);
    } else {
        dm_board_start(&b, variant(name));
    }
    return b;
}

/* Scan's names where it has one, damier's for the others (what `damier hub` takes). */
static void test_match_variant__hub_names(void **state)
{
    (void)state;
    assert_string_equal(match_variant_hub_name(variant("international")), "normal");
    assert_string_equal(match_variant_hub_name(variant("russian")), "russian");
    assert_string_equal(match_variant_hub_name(variant("english")), "english");
    assert_string_equal(match_variant_hub_name(variant("canadian")), "canadian");
    assert_string_equal(match_variant_hub_name(variant("antidraughts")), "losing");
    assert_string_equal(match_variant_hub_name(variant("frisian")), "frisian");
    assert_string_equal(match_variant_hub_name(variant("breakthrough")), "breakthrough");
}

/* English starts with Black; 12x12 has 73 characters; Italian's square numbers are
 * those of its records (the FEN's), not the mirrored board's. */
static void test_match_variant__positions(void **state)
{
    (void)state;
    char pos[80];
    dm_board b = board("english", NULL);
    match_vpos_to_hub(pos, sizeof pos, &b);
    assert_string_equal(pos, "Bbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww");
    b = board("canadian", NULL);
    match_vpos_to_hub(pos, sizeof pos, &b);
    assert_int_equal(strlen(pos), 73);
    assert_memory_equal(pos, "Wbbbbb", 6);
    assert_string_equal(pos + 43, "wwwwwwwwwwwwwwwwwwwwwwwwwwwwww");
    b = board("italian", "W:W5,K30:B25");
    match_vpos_to_hub(pos, sizeof pos, &b);
    assert_int_equal(strlen(pos), 33);
    for (int n = 1; n <= 32; n++) {
        assert_int_equal(pos[n], n == 5 ? 'w' : n == 30 ? 'W' : n == 25 ? 'b' : 'e');
    }
    /* too small a buffer: nothing half written */
    match_vpos_to_hub(pos, 20, &b);
    assert_string_equal(pos, "");
}

/* Russian W:Wc3,a1:Bd4,f6,h8: White's only move is c3:g7, Hub 22x8x11x18. */
static void test_match_variant__moves(void **state)
{
    (void)state;
    dm_board b = board("russian", "W:Wc3,a1:Bd4,f6,h8");
    dm_move m, want;
    char why[300];
    assert_int_equal(match_vmove_read(&want, &b, "22x8x11x18", why, sizeof why), MATCH_MOVE_OK);
    assert_int_equal(want.from, 22);
    assert_int_equal(want.to, 8);
    assert_int_equal(want.ncapt, 2);
    /* the captured squares in any order, the PDN path, from and to alone */
    const char *same[] = {"22x8x18x11", "c3:g7", "c3:e5:g7", "22x8", "22-8"};
    for (size_t i = 0; i < sizeof same / sizeof same[0]; i++) {
        memset(&m, 0, sizeof m);
        assert_int_equal(match_vmove_read(&m, &b, same[i], why, sizeof why), MATCH_MOVE_OK);
        assert_int_equal(m.from, want.from);
        assert_int_equal(m.to, want.to);
        assert_memory_equal(m.capt, want.capt, sizeof m.capt);
    }
    /* a wrong captured set, a piece taken twice, a quiet move to its own square */
    assert_int_equal(match_vmove_read(&m, &b, "22x8x1", why, sizeof why), MATCH_MOVE_ILLEGAL);
    assert_non_null(strstr(why, "capture is compulsory"));
    assert_int_equal(match_vmove_read(&m, &b, "22x8x11x11", why, sizeof why), MATCH_MOVE_ILLEGAL);
    assert_int_equal(match_vmove_read(&m, &b, "29-29", why, sizeof why), MATCH_MOVE_ILLEGAL);
    /* not a move text at all */
    const char *garbled[] = {"zz!!", "", "22x", "22x99", "22 8"};
    for (size_t i = 0; i < sizeof garbled / sizeof garbled[0]; i++) {
        assert_int_equal(match_vmove_read(&m, &b, garbled[i], why, sizeof why), MATCH_MOVE_GARBLED);
        assert_true(why[0] != '\0');
    }
}

/* Play text in g (a legal move). */
static void play(dm_game *g, const char *text)
{
    dm_error err;
    assert_int_equal(dm_game_play_text(g, text, &err), DM_OK);
}

/* Russian counts moves without capture: a man move does not make a new base, a
 * capture does. English counts moves without a man move or capture: a man move does,
 * a king move does not. */
static void test_match_variant__base_after_captures(void **state)
{
    (void)state;
    dm_game *g;
    dm_board b = board("russian", NULL);
    assert_int_equal(dm_game_new(&g, &b), DM_OK);
    assert_true(match_vgame_fresh(g));
    play(g, "c3-d4");
    assert_false(match_vgame_fresh(g));
    play(g, "f6-e5");
    assert_false(match_vgame_fresh(g));
    play(g, "d4:f6");
    assert_true(match_vgame_fresh(g));
    dm_game_free(g);

    b = board("english", NULL);
    assert_int_equal(dm_game_new(&g, &b), DM_OK);
    play(g, "9-13");
    assert_true(match_vgame_fresh(g));
    dm_game_free(g);
    b = board("english", "B:WK30:BK3");
    assert_int_equal(dm_game_new(&g, &b), DM_OK);
    play(g, "3-7");
    assert_false(match_vgame_fresh(g));
    dm_game_free(g);
}

/* Frisian: while White's king has made moves in a row, a Hub position (which cannot
 * carry that count) is no base, even after Black's man move; White's man move ends
 * the count. */
static void test_match_variant__base_frisian_king_count(void **state)
{
    (void)state;
    dm_game *g;
    dm_board b = board("frisian", "W:WK28,46,47:B3,4,5");
    assert_int_equal(dm_game_new(&g, &b), DM_OK);
    play(g, "28-23");
    assert_false(match_vgame_fresh(g));
    play(g, "4-9");
    assert_false(match_vgame_fresh(g));
    play(g, "46-41");
    assert_true(match_vgame_fresh(g));
    dm_game_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_match_variant__hub_names),
        cmocka_unit_test(test_match_variant__positions),
        cmocka_unit_test(test_match_variant__moves),
        cmocka_unit_test(test_match_variant__base_after_captures),
        cmocka_unit_test(test_match_variant__base_frisian_king_count),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
