/* SPDX-License-Identifier: MIT
 * tests/unit/test_pdn_marks.c: every annotation mark of the FMJD notation (rulebook
 * chapter 8, the signs after article 8.2) read, written and read again; their PDN NAG
 * forms; malformed marks reported with line and column; and the round-trip property
 * over every sequence of up to three marks (docs/PDN.md has the grammar). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <damier/pdn.h>

/* The one game of text, or NULL with *err filled (the reader's first error). */
static dm_pdn_game *read_first(const char *text, dm_error *err)
{
    dm_pdn_reader *r = NULL;
    assert_int_equal(dm_pdn_reader_new(&r, text, strlen(text), "m.pdn"), DM_OK);
    dm_pdn_game *g = NULL;
    dm_error e = {{0}, 0, 0};
    dm_status st = dm_pdn_reader_next(&g, r, &e);
    dm_pdn_reader_free(r);
    if (err) {
        *err = e;
    }
    if (st != DM_OK) {
        assert_null(g);
        return NULL;
    }
    return g;
}

static dm_pdn_game *read_ok(const char *text)
{
    dm_error err;
    dm_pdn_game *g = read_first(text, &err);
    if (!g) {
        fail_msg("cannot read %s: %s", text, err.message);
    }
    return g;
}

static char *write_pdn(const dm_pdn_game *g)
{
    char *out = NULL;
    assert_int_equal(dm_pdn_write(&out, NULL, g, DM_NOTATION_PDN), DM_OK);
    return out;
}

/* The mark of mainline node i ("" for none). */
static const char *mark_of(const dm_pdn_game *g, int i)
{
    assert_true(i < g->main.nnodes);
    return g->main.nodes[i].mark ? g->main.nodes[i].mark : "";
}

/* Read text (1. 32-28<written> 19-23 ...), check that the first move's mark is stored
 * as `stored`, that the writer writes it as `written_back`, and that the text written
 * reads back to the same marks and writes to the same text. */
static void check_mark(const char *written, const char *stored, const char *written_back)
{
    char text[256];
    snprintf(text, sizeof text, "[Event \"marks\"]\n\n1. 32-28%s 19-23%s 2. 28x19 14x23 *\n",
             written, written);
    dm_pdn_game *g = read_ok(text);
    assert_int_equal(g->main.nnodes, 4);
    assert_string_equal(g->main.nodes[0].text, "32-28");
    assert_string_equal(mark_of(g, 0), stored);
    assert_string_equal(mark_of(g, 1), stored);
    assert_string_equal(mark_of(g, 2), "");
    dm_pdn_replay rep;
    assert_int_equal(dm_pdn_replay_mainline(&rep, g), DM_OK);
    assert_int_equal(rep.verdict, DM_PDN_LEGAL);
    char *out = write_pdn(g);
    char want[64];
    snprintf(want, sizeof want, "1. 32-28%s 19-23%s 2. 28x19", written_back, written_back);
    if (!strstr(out, want)) {
        fail_msg("written %s, wanted %s in:\n%s", written, want, out);
    }
    dm_pdn_game *g2 = read_ok(out);
    assert_string_equal(mark_of(g2, 0), stored);
    assert_string_equal(mark_of(g2, 1), stored);
    char *out2 = write_pdn(g2);
    assert_string_equal(out, out2);
    free(out);
    free(out2);
    dm_pdn_game_free(g2);
    dm_pdn_game_free(g);
}

static void test_marks__good(void **s)
{
    (void)s;
    check_mark("!", "!", "!");
}
static void test_marks__excellent(void **s)
{
    (void)s;
    check_mark("!!", "!!", "!!");
}
static void test_marks__bad(void **s)
{
    (void)s;
    check_mark("?", "?", "?");
}
static void test_marks__blunder(void **s)
{
    (void)s;
    check_mark("??", "??", "??");
}
static void test_marks__interesting(void **s)
{
    (void)s;
    check_mark("!?", "!?", "!?");
}
static void test_marks__dubious(void **s)
{
    (void)s;
    check_mark("?!", "?!", "?!");
}
static void test_marks__in_parentheses(void **s)
{
    (void)s;
    check_mark("(?)", "(?)", "(?)");
}
static void test_marks__forced(void **s)
{
    (void)s;
    check_mark("*", "*", "*");
}
static void test_marks__win(void **s)
{
    (void)s;
    check_mark("+", "+", "+");
}
static void test_marks__draw(void **s)
{
    (void)s;
    check_mark("=", "=", "=");
}
static void test_marks__material_won(void **s)
{
    (void)s;
    check_mark("+1", "+1", "+1");
    check_mark("+2", "+2", "+2");
    check_mark("(+2)", "+2", "+2");
}
static void test_marks__material_lost(void **s)
{
    (void)s;
    /* "-1" glued to the last square would continue the move: in parentheses */
    check_mark("(-1)", "-1", "(-1)");
    check_mark("(-2)", "-2", "(-2)");
    /* after another mark it is unambiguous and written so */
    check_mark("!-1", "!-1", "!-1");
}
static void test_marks__ad_libitum(void **s)
{
    (void)s;
    check_mark("a.l.", "a.l.", "a.l.");
}
static void test_marks__several(void **s)
{
    (void)s;
    check_mark("!*", "!*", "!*");
    check_mark("*+1", "*+1", "*+1");
    check_mark("?(-2)", "?-2", "?-2");
}

/* "-N" right after the last square is a square of the move (PDN has always read
 * "32-28-1" so): not a mark. */
static void test_marks__minus_after_square_is_move_text(void **s)
{
    (void)s;
    dm_pdn_game *g = read_ok("1. 32-28-1 *\n");
    assert_string_equal(g->main.nodes[0].text, "32-28-1");
    assert_null(g->main.nodes[0].mark);
    dm_pdn_game_free(g);
}

/* A mark on a capture, an algebraic move, a node before a variation and in one. */
static void test_marks__on_captures_variations_and_algebraic(void **s)
{
    (void)s;
    dm_pdn_game *g = read_ok("1. 32-28 19-23 2. 28x19a.l.(2. 33-29= 23x34+1) 14x23(-1) {c} $7 *\n");
    assert_string_equal(mark_of(g, 2), "a.l.");
    assert_string_equal(g->main.nodes[2].variations[0].nodes[0].mark, "=");
    assert_string_equal(g->main.nodes[2].variations[0].nodes[1].mark, "+1");
    assert_string_equal(mark_of(g, 3), "-1");
    assert_int_equal(g->main.nodes[3].nnags, 1);
    char *out = write_pdn(g);
    assert_non_null(strstr(out, "2. 28x19a.l. (2. 33-29= 23x34+1) 2... 14x23(-1) $7 {c} *"));
    free(out);
    dm_pdn_game_free(g);
    g = read_ok("[GameType \"25\"]\n1. c3-d4! f6-g5+ 2. d4-e5= *\n");
    assert_string_equal(mark_of(g, 0), "!");
    assert_string_equal(mark_of(g, 1), "+");
    assert_string_equal(mark_of(g, 2), "=");
    dm_pdn_replay rep;
    dm_pdn_replay_mainline(&rep, g);
    assert_int_equal(rep.verdict, DM_PDN_LEGAL);
    dm_pdn_game_free(g);
}

/* Malformed marks: a parse error with line and column of the first bad byte. */
static void test_marks__malformed_reported_where(void **s)
{
    (void)s;
    static const struct {
        const char *move; /* glued to "32-28" on line 2 of the game */
        int column;       /* where the error points (the move starts at column 4) */
        const char *found;
    } bad[] = {
        {"!x", 10, "found 'x'"},    {"+123", 12, "found '3'"}, {"a.l", 9, "found 'a'"},
        {"a.l.x", 13, "found 'x'"}, {"=+-", 11, "found '-'"},  {"*.", 10, "found '.'"},
        {"(+1", 9, "found '('"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char text[128];
        snprintf(text, sizeof text, "[Event \"e\"]\n1. 32-28%s 19-23 *\n", bad[i].move);
        dm_error err;
        dm_pdn_game *g = read_first(text, &err);
        if (g) {
            fail_msg("%s was read", bad[i].move);
        }
        assert_int_equal(err.line, 2);
        if (err.column != bad[i].column) {
            fail_msg("%s: column %d, wanted %d: %s", bad[i].move, err.column, bad[i].column,
                     err.message);
        }
        char where[64];
        snprintf(where, sizeof where, "line 2, column %d: malformed mark", bad[i].column);
        assert_non_null(strstr(err.message, where));
        assert_non_null(strstr(err.message, "after the move 32-28"));
        assert_non_null(strstr(err.message, bad[i].found));
    }
}

static void test_marks__nags(void **s)
{
    (void)s;
    static const struct {
        const char *mark;
        int white, black;
    } t[] = {{"!", 1, 1},  {"?", 2, 2},  {"!!", 3, 3},   {"??", 4, 4},  {"!?", 5, 5},
             {"?!", 6, 6}, {"*", 7, 7},  {"=", 10, 10},  {"+", 18, 19}, {"(?)", 2, 2},
             {"+1", 0, 0}, {"-2", 0, 0}, {"a.l.", 0, 0}, {"!*", 0, 0}};
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        assert_int_equal(dm_pdn_mark_nag(t[i].mark, 0), t[i].white);
        assert_int_equal(dm_pdn_mark_nag(t[i].mark, 1), t[i].black);
        if (t[i].white && t[i].mark[0] != '(') {
            assert_string_equal(dm_pdn_nag_mark(t[i].white, 0), t[i].mark);
            assert_string_equal(dm_pdn_nag_mark(t[i].black, 1), t[i].mark);
        }
    }
    assert_int_equal(dm_pdn_mark_nag(NULL, 0), 0);
    assert_null(dm_pdn_nag_mark(19, 0)); /* Black's win after a White move: no mark */
    assert_null(dm_pdn_nag_mark(18, 1));
    assert_null(dm_pdn_nag_mark(14, 0));
}

/* The nags write option: marks PDN has a NAG for become that NAG ("+" by the side
 * that moved), the others stay marks; the output reads back with those NAGs. */
static void test_marks__written_as_nags(void **s)
{
    (void)s;
    dm_pdn_game *g = read_ok("1. 32-28!* 19-23+ 2. 28x19+1 14x23(-2)= 3. 33-28+ 23x32a.l. *\n");
    dm_pdn_write_options opt = {DM_NOTATION_PDN, 0, 1};
    char *out = NULL;
    assert_int_equal(dm_pdn_write_with(&out, NULL, g, &opt), DM_OK);
    if (!strstr(out,
                "1. 32-28 $1 $7 19-23 $19 2. 28x19+1 14x23(-2) $10 3. 33-28 $18 23x32a.l. *")) {
        fail_msg("got:\n%s", out);
    }
    dm_pdn_game *g2 = read_ok(out);
    assert_null(g2->main.nodes[0].mark);
    assert_int_equal(g2->main.nodes[0].nnags, 2);
    assert_int_equal(g2->main.nodes[0].nags[0], 1);
    assert_int_equal(g2->main.nodes[0].nags[1], 7);
    assert_string_equal(mark_of(g2, 2), "+1");
    assert_string_equal(mark_of(g2, 3), "-2");
    /* a fixed point */
    char *out2 = NULL;
    assert_int_equal(dm_pdn_write_with(&out2, NULL, g2, &opt), DM_OK);
    assert_string_equal(out, out2);
    free(out);
    free(out2);
    dm_pdn_game_free(g2);
    dm_pdn_game_free(g);
}

/* Property: every sequence of one to three marks, glued to a move, a capture and a
 * move before a variation, reads as the same marks, writes, and reads back the same,
 * and the written text is a fixed point of read -> write. Exhaustive (no seed). */
static void test_marks__round_trip_every_sequence(void **s)
{
    (void)s;
    /* as written / as stored */
    static const char *const atoms[][2] = {
        {"!", "!"},     {"!!", "!!"},   {"?", "?"},       {"??", "??"},
        {"!?", "!?"},   {"?!", "?!"},   {"(!)", "(!)"},   {"*", "*"},
        {"+", "+"},     {"=", "="},     {"+1", "+1"},     {"+2", "+2"},
        {"(-1)", "-1"}, {"(-2)", "-2"}, {"a.l.", "a.l."}, {"(+12)", "+12"},
    };
    const int na = (int)(sizeof atoms / sizeof atoms[0]);
    int checked = 0;
    for (int len = 1; len <= 3; len++) {
        int total = 1;
        for (int k = 0; k < len; k++) {
            total *= na;
        }
        for (int code = 0; code < total; code++) {
            char w[48] = "", st[48] = "";
            int c = code, prev_strength = 0, ok = 1;
            for (int k = 0; k < len; k++) {
                int a = c % na;
                c /= na;
                int strength = atoms[a][0][0] == '!' || atoms[a][0][0] == '?';
                /* "!" then "?" glue into one strength run ("!?"): skip those */
                if (strength && prev_strength) {
                    ok = 0;
                }
                prev_strength = strength;
                strcat(w, atoms[a][0]);
                strcat(st, atoms[a][1]);
            }
            if (!ok) {
                continue;
            }
            char text[256];
            snprintf(text, sizeof text, "1. 32-28%s 19-23 2. 28x19%s (2. 33-28%s) 14x23%s *\n", w,
                     w, w, w);
            dm_pdn_game *g = read_ok(text);
            const int idx[] = {0, 2, 3};
            for (int k = 0; k < 3; k++) {
                if (strcmp(mark_of(g, idx[k]), st)) {
                    fail_msg("%s: node %d has mark %s, wanted %s", text, idx[k], mark_of(g, idx[k]),
                             st);
                }
            }
            assert_string_equal(g->main.nodes[2].variations[0].nodes[0].mark, st);
            char *out = write_pdn(g);
            dm_pdn_game *g2 = read_ok(out);
            for (int k = 0; k < 3; k++) {
                assert_string_equal(mark_of(g2, idx[k]), st);
            }
            assert_string_equal(g2->main.nodes[2].variations[0].nodes[0].mark, st);
            char *out2 = write_pdn(g2);
            assert_string_equal(out, out2);
            free(out);
            free(out2);
            dm_pdn_game_free(g2);
            dm_pdn_game_free(g);
            checked++;
        }
    }
    assert_true(checked > 1000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_marks__good),
        cmocka_unit_test(test_marks__excellent),
        cmocka_unit_test(test_marks__bad),
        cmocka_unit_test(test_marks__blunder),
        cmocka_unit_test(test_marks__interesting),
        cmocka_unit_test(test_marks__dubious),
        cmocka_unit_test(test_marks__in_parentheses),
        cmocka_unit_test(test_marks__forced),
        cmocka_unit_test(test_marks__win),
        cmocka_unit_test(test_marks__draw),
        cmocka_unit_test(test_marks__material_won),
        cmocka_unit_test(test_marks__material_lost),
        cmocka_unit_test(test_marks__ad_libitum),
        cmocka_unit_test(test_marks__several),
        cmocka_unit_test(test_marks__minus_after_square_is_move_text),
        cmocka_unit_test(test_marks__on_captures_variations_and_algebraic),
        cmocka_unit_test(test_marks__malformed_reported_where),
        cmocka_unit_test(test_marks__nags),
        cmocka_unit_test(test_marks__written_as_nags),
        cmocka_unit_test(test_marks__round_trip_every_sequence),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
