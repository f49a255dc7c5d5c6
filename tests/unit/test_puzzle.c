/* SPDX-License-Identifier: MIT
 * Tests of damier/puzzle.h on positions written for them (no shared data):
 * - a two-for-one shot: W:W32,38,42,45:B11,16,22,24. 32-28 gives a man: Black must take
 *   22x33 (42 stops the capture there), and 38x20 takes 33 and 24. Found, with that
 *   line cut where the man is won, themed "shot";
 * - a Turkish strike: W:W20,30,31,33,36,42:BK26,23. 31-27 makes the king take four,
 *   26x48x25x14(..)x31 along 42, 30, 20, 27; on 31 it stops, because 42, already jumped,
 *   stays on the board until the capture ends (FMJD 4.11), and 36x27 takes it: a
 *   forced win, themed "turkish-strike" and "win";
 * - the start position (nothing wins), four kings against a man (everything wins: not
 *   unique), a compulsory capture, a single legal move;
 * - the theme names, options and positions that are refused. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include <damier/engine.h>
#include "core/move10.h"
#include <damier/puzzle.h>

static dm_engine *new_engine(void)
{
    dm_engine_options o = DM_ENGINE_OPTIONS_INIT;
    o.tt_mib = 8;
    dm_engine *e = NULL;
    assert_int_equal(dm_engine_create(&e, &o), DM_OK);
    return e;
}

static dm_board fen(const char *text)
{
    dm_board b;
    dm_error err;
    if (dm_board_from_fen(&b, dm_variant_get(DM_VARIANT_INTERNATIONAL), text, &err) != DM_OK) {
        fail_msg("bad test FEN %s: %s", text, err.message);
    }
    return b;
}

static dm_puzzle examine(const char *text, int depth)
{
    dm_engine *e = new_engine();
    dm_board b = fen(text);
    dm_puzzle_options o = DM_PUZZLE_OPTIONS_INIT;
    o.depth = depth;
    dm_puzzle p;
    dm_error err = {0};
    assert_int_equal(dm_puzzle_examine(&p, e, &b, &o, &err), DM_OK);
    dm_engine_free(e);
    return p;
}

/* The line as "32-28 22x33 38x20". */
static void line_text(char *buf, size_t cap, const dm_puzzle *p)
{
    dm_board b = p->position;
    size_t n = 0;
    buf[0] = '\0';
    for (int i = 0; i < p->line_count && n + 20 < cap; i++) {
        char mv[160];
        dm_move_to_text(mv, sizeof mv, &b, &p->line[i], DM_NOTATION_PDN, DM_SQUARES_DEFAULT);
        n += (size_t)snprintf(buf + n, cap - n, "%s%s", i ? " " : "", mv);
        dm_board_apply(&b, &p->line[i]);
    }
}

static void test_puzzle__finds_two_for_one_shot(void **state)
{
    (void)state;
    dm_puzzle p = examine("W:W32,38,42,45:B11,16,22,24", 8);
    assert_int_equal(p.verdict, DM_PUZZLE_FOUND);
    char line[512];
    line_text(line, sizeof line, &p);
    assert_string_equal(line, "32-28 22x33 38x20");
    assert_true(p.themes & DM_THEME_SHOT);
    assert_false(p.themes & (DM_THEME_TURKISH | DM_THEME_BREAKTHROUGH | DM_THEME_WIN));
    assert_true(p.themes & DM_THEME_ENDGAME); /* 8 pieces */
    assert_int_equal(p.material, 0);
    assert_int_equal(p.gain, 100);
    assert_true(p.best_score >= 150 && p.best_score - p.second_score >= 150);
    assert_true(p.unique_from >= 1 && p.unique_from <= 6);
    assert_true(p.rating >= 600 && p.rating <= 3000);
    /* The same answer again (the engine is cleared first). */
    dm_puzzle q = examine("W:W32,38,42,45:B11,16,22,24", 8);
    assert_int_equal(q.nodes, p.nodes);
    assert_int_equal(q.best.from, p.best.from);
    assert_int_equal(q.best.to, p.best.to);
    assert_memory_equal(q.best.capt, p.best.capt, sizeof q.best.capt);
    /* The result is the generic position and moves: the examined position is the one
     * given, and the line replays on it. */
    dm_board given = fen("W:W32,38,42,45:B11,16,22,24");
    assert_memory_equal(p.position.sq, given.sq, sizeof given.sq);
    assert_ptr_equal(p.position.variant, given.variant);
}

static void test_puzzle__finds_turkish_strike(void **state)
{
    (void)state;
    dm_puzzle p = examine("W:W20,30,31,33,36,42:BK26,23", 10);
    assert_int_equal(p.verdict, DM_PUZZLE_FOUND);
    char line[512];
    line_text(line, sizeof line, &p);
    /* the strike itself is forced; which of Black's losing replies the line shows
     * (23-28 or 23-29, each answered by a capture) depends on the evaluation */
    assert_true(!strncmp(line, "31-27 26x31 36x27 23-2", 22));
    assert_true(!strcmp(line + 22, "8 33x22") || !strcmp(line + 22, "9 33x24"));
    assert_true(p.themes & DM_THEME_SHOT);
    assert_true(p.themes & DM_THEME_TURKISH);
    assert_true(p.themes & DM_THEME_WIN);
    assert_true(p.best_score >= DM_SCORE_WIN_MIN);
}

static void test_puzzle__rejects(void **state)
{
    (void)state;
    /* Quiet: nothing wins material. */
    dm_puzzle p = examine("W:W31-50:B1-20", 8);
    assert_int_equal(p.verdict, DM_PUZZLE_NO_WIN);
    assert_int_equal(p.line_count, 0);
    /* Four kings against a man: every move wins. */
    p = examine("W:WK1,K5,K46,K50:B25", 8);
    assert_int_equal(p.verdict, DM_PUZZLE_NOT_UNIQUE);
    /* A capture is compulsory: 31x22 or 32x21. */
    p = examine("W:W31,32:B27,10", 8);
    assert_int_equal(p.verdict, DM_PUZZLE_CAPTURE);
    /* One legal move (46-41). */
    p = examine("W:W46:B5", 8);
    assert_int_equal(p.verdict, DM_PUZZLE_NO_CHOICE);
    assert_int_equal(p.best.from, 46);
    assert_int_equal(p.best.to, 41);
}

static void test_puzzle__themes_text(void **state)
{
    (void)state;
    char buf[96];
    assert_int_equal(dm_puzzle_themes_text(buf, sizeof buf, 0), 0);
    assert_string_equal(buf, "");
    unsigned all = (1u << DM_PUZZLE_THEME_COUNT) - 1;
    size_t n = dm_puzzle_themes_text(buf, sizeof buf, all);
    assert_string_equal(buf, "shot majority-capture turkish-strike breakthrough endgame win");
    assert_int_equal(n, strlen(buf));
    char small[6];
    assert_int_equal(dm_puzzle_themes_text(small, sizeof small, all), n);
    assert_string_equal(small, "shot ");
    unsigned t = 0;
    assert_int_equal(dm_puzzle_themes_parse(&t, buf, NULL), DM_OK);
    assert_int_equal(t, all);
    assert_int_equal(dm_puzzle_themes_parse(&t, " win,shot ", NULL), DM_OK);
    assert_int_equal(t, DM_THEME_WIN | DM_THEME_SHOT);
    dm_error err = {0};
    assert_int_equal(dm_puzzle_themes_parse(&t, "shot fork", &err), DM_EPARSE);
    assert_int_equal(err.column, 6);
    assert_non_null(strstr(err.message, "unknown theme 'fork'"));
    assert_null(dm_puzzle_theme_name(DM_PUZZLE_THEME_COUNT));
    assert_string_equal(dm_puzzle_theme_name(2), "turkish-strike");
}

static void test_puzzle__bad_arguments(void **state)
{
    (void)state;
    dm_engine *e = new_engine();
    dm_board b = fen("W:W31-50:B1-20");
    dm_puzzle p;
    dm_error err = {0};
    dm_puzzle_options o = DM_PUZZLE_OPTIONS_INIT;
    o.depth = 0;
    assert_int_equal(dm_puzzle_examine(&p, e, &b, &o, &err), DM_EINVAL);
    assert_non_null(strstr(err.message, "depth 0"));
    o.depth = 4;
    o.stable = 4;
    assert_int_equal(dm_puzzle_examine(&p, e, &b, &o, &err), DM_EINVAL);
    assert_non_null(strstr(err.message, "stable 4"));
    o.stable = 0;
    o.margin = 0;
    assert_int_equal(dm_puzzle_examine(&p, e, &b, &o, &err), DM_EINVAL);
    assert_non_null(strstr(err.message, "margin"));
    o = (dm_puzzle_options)DM_PUZZLE_OPTIONS_INIT;
    o.version = 99;
    assert_int_equal(dm_puzzle_examine(&p, e, &b, &o, &err), DM_EINVAL);
    assert_int_equal(dm_puzzle_examine(NULL, e, &b, NULL, &err), DM_EINVAL);
    assert_int_equal(dm_puzzle_examine(&p, NULL, &b, NULL, &err), DM_EINVAL);
    /* A white man on its promotion row does not validate. */
    dm_board bad = b;
    assert_int_equal(dm_board_put(&bad, 3, DM_WHITE_MAN), DM_OK);
    assert_int_equal(dm_puzzle_examine(&p, e, &bad, NULL, &err), DM_EINVAL);
    /* Puzzles are international: another variant's position is refused by name. */
    dm_board russian;
    dm_board_start(&russian, dm_variant_get(DM_VARIANT_RUSSIAN));
    assert_int_equal(dm_puzzle_examine(&p, e, &russian, NULL, &err), DM_EINVAL);
    assert_non_null(strstr(err.message, "Russian"));
    dm_engine_free(e);
    assert_int_equal(dm_puzzle_material(&b), 0);
    dm_board k = fen("B:WK1,12:B40");
    assert_int_equal(dm_puzzle_material(&k), -300);
    /* Any variant's material: Russian's start is level, one king more is 300. */
    assert_int_equal(dm_puzzle_material(&russian), 0);
    assert_int_equal(dm_board_put(&russian, 1, DM_EMPTY), DM_OK);
    assert_int_equal(dm_puzzle_material(&russian), 100);
    assert_int_equal(dm_puzzle_material(NULL), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_puzzle__finds_two_for_one_shot),
        cmocka_unit_test(test_puzzle__finds_turkish_strike),
        cmocka_unit_test(test_puzzle__rejects),
        cmocka_unit_test(test_puzzle__themes_text),
        cmocka_unit_test(test_puzzle__bad_arguments),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
