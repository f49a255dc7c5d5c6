/* SPDX-License-Identifier: MIT
 * tests/unit/test_pdn_irregular.c: accepted irregularities (FMJD 5.4, 5.7; docs/PDN.md):
 * an illegal move annotated "{accepted irregularity}" is replayed as written (the
 * position as played is the one the same moves give from a FEN of the position after
 * it), with a warning for the caller; without the annotation it stays illegal; the
 * writer keeps the annotation and the game reads back the same. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <damier/game.h>
#include <damier/pdn.h>

static dm_pdn_game *read_ok(const char *text)
{
    dm_pdn_reader *r = NULL;
    assert_int_equal(dm_pdn_reader_new(&r, text, strlen(text), "i.pdn"), DM_OK);
    dm_pdn_game *g = NULL;
    dm_error err = {{0}, 0, 0};
    dm_status st = dm_pdn_reader_next(&g, r, &err);
    dm_pdn_reader_free(r);
    if (st != DM_OK || !g) {
        fail_msg("cannot read %s: %s", text, err.message);
    }
    return g;
}

static dm_pdn_replay replay_text(const char *text)
{
    dm_pdn_game *g = read_ok(text);
    dm_pdn_replay rep;
    assert_int_equal(dm_pdn_replay_mainline(&rep, g), DM_OK);
    dm_pdn_game_free(g);
    rep.node = NULL; /* borrowed from the game just freed */
    rep.ambiguous = NULL;
    for (int i = 0; i < DM_PDN_MAX_IRREGULAR; i++) {
        rep.irregular[i].node = NULL;
    }
    return rep;
}

static void assert_same_end(const dm_pdn_replay *a, const dm_pdn_replay *b)
{
    char fa[512], fb[512];
    dm_board_to_fen(fa, sizeof fa, &a->end, 0);
    dm_board_to_fen(fb, sizeof fb, &b->end, 0);
    assert_string_equal(fa, fb);
}

/* White ignores the compulsory capture (FMJD 4.1) and Black plays on. */
#define IGNORED_CAPTURE "1. 32-28 19-23 2. 33-29 %s 23x32 3. 38x27 *\n"

static void test_irregular__ignored_capture_stands_with_the_annotation(void **s)
{
    (void)s;
    char text[256];
    snprintf(text, sizeof text, IGNORED_CAPTURE, "{accepted irregularity: Black played on}");
    dm_pdn_game *g = read_ok(text);
    dm_pdn_replay rep;
    dm_pdn_replay_mainline(&rep, g);
    assert_int_equal(rep.verdict, DM_PDN_LEGAL);
    assert_int_equal(rep.plies, 5);
    assert_int_equal(rep.nirregular, 1);
    assert_ptr_equal(rep.irregular[0].node, &g->main.nodes[2]);
    assert_int_equal(rep.irregular[0].move_number, 2);
    assert_int_equal(rep.irregular[0].black, 0);
    assert_non_null(strstr(rep.irregular[0].reason, "capture is compulsory"));
    /* the position as played: the same moves from the position after 33-29 */
    dm_pdn_replay want =
        replay_text("[FEN \"B:W28,29,31,34-50:B1-18,20,23\"]\n2... 23x32 3. 38x27 *\n");
    assert_int_equal(want.verdict, DM_PDN_LEGAL);
    assert_int_equal(want.nirregular, 0);
    assert_same_end(&rep, &want);
    dm_pdn_game_free(g);
}

static void test_irregular__same_record_without_the_annotation_fails(void **s)
{
    (void)s;
    char text[256];
    snprintf(text, sizeof text, IGNORED_CAPTURE, "{Black played on}");
    dm_pdn_replay rep = replay_text(text);
    assert_int_equal(rep.verdict, DM_PDN_ILLEGAL);
    assert_int_equal(rep.nirregular, 0);
    assert_int_equal(rep.move_number, 2);
    assert_int_equal(rep.plies, 2);
    /* the words must open the comment */
    snprintf(text, sizeof text, IGNORED_CAPTURE, "{not an accepted irregularity}");
    rep = replay_text(text);
    assert_int_equal(rep.verdict, DM_PDN_ILLEGAL);
    /* case does not matter */
    snprintf(text, sizeof text, IGNORED_CAPTURE, "{Accepted Irregularity}");
    rep = replay_text(text);
    assert_int_equal(rep.verdict, DM_PDN_LEGAL);
    assert_int_equal(rep.nirregular, 1);
}

/* A capture that takes fewer pieces than the majority rule wants (FMJD 4.13): the
 * piece its path jumps is removed, the one it should have taken stays. */
static void test_irregular__short_capture_removes_what_it_jumps(void **s)
{
    (void)s;
    dm_pdn_replay rep =
        replay_text("[FEN \"W:W38,50:B1,21,32\"]\n1. 38x27 {accepted irregularity} 21x32 *\n");
    assert_int_equal(rep.verdict, DM_PDN_LEGAL);
    assert_int_equal(rep.nirregular, 1);
    assert_non_null(strstr(rep.irregular[0].reason, "38x16"));
    dm_pdn_replay want = replay_text("[FEN \"B:W27,50:B1,21\"]\n1... 21x32 *\n");
    assert_int_equal(want.verdict, DM_PDN_LEGAL);
    assert_same_end(&rep, &want);
}

/* A man that reaches the far row as written is crowned. */
static void test_irregular__promotion_as_written(void **s)
{
    (void)s;
    dm_pdn_replay rep = replay_text("[FEN \"W:W12,50:B45\"]\n1. 12-1 {accepted irregularity} *\n");
    assert_int_equal(rep.verdict, DM_PDN_LEGAL);
    assert_int_equal(dm_board_piece(&rep.end, 1), DM_WHITE_KING);
    assert_int_equal(dm_board_piece(&rep.end, 12), DM_EMPTY);
    assert_int_equal(rep.end.side, DM_BLACK);
}

/* Annotated moves that cannot be played as written stay errors, with both reasons. */
static void test_irregular__cannot_be_played_as_written(void **s)
{
    (void)s;
    static const struct {
        const char *text;
        const char *why;
    } bad[] = {
        {"1. 32-28 19-23 2. 27-22 {accepted irregularity} *\n", "square 27 is empty"},
        {"1. 32-28 19-23 2. 33-28 {accepted irregularity} *\n", "square 28 is taken"},
        {"[FEN \"W:W38,50:B1,21,32\"]\n1. 38x16x20 {accepted irregularity} *\n",
         "not on one diagonal"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        dm_pdn_replay rep = replay_text(bad[i].text);
        assert_int_equal(rep.verdict, DM_PDN_ILLEGAL);
        assert_int_equal(rep.nirregular, 0);
        assert_non_null(strstr(rep.reason.message, "cannot be played as written"));
        if (!strstr(rep.reason.message, bad[i].why)) {
            fail_msg("%s: %s", bad[i].text, rep.reason.message);
        }
    }
}

/* Several irregularities: all counted, the first DM_PDN_MAX_IRREGULAR described. */
static void test_irregular__counted(void **s)
{
    (void)s;
    /* kings shuffling across squares they cannot reach, every move annotated */
    char text[1024] = "[FEN \"W:WK46:BK5\"]\n";
    static const char *const moves[] = {"46-1", "5-50", "1-46", "50-5", "46-1", "5-50"};
    for (int i = 0; i < 6; i++) {
        char one[64];
        snprintf(one, sizeof one, "%s {accepted irregularity} ", moves[i]);
        strcat(text, one);
    }
    strcat(text, "*\n");
    dm_pdn_replay rep = replay_text(text);
    assert_int_equal(rep.verdict, DM_PDN_LEGAL);
    assert_int_equal(rep.nirregular, 6);
    assert_int_equal(rep.irregular[0].move_number, 1);
    assert_int_equal(rep.irregular[1].black, 1);
    assert_int_equal(rep.irregular[DM_PDN_MAX_IRREGULAR - 1].move_number, DM_PDN_MAX_IRREGULAR / 2);
}

/* The generic core (Russian draughts) replays irregularities the same way. */
static void test_irregular__variant(void **s)
{
    (void)s;
    const char *with = "[GameType \"25\"]\n1. c3-d4 f6-e5 2. a3-b4 {accepted irregularity} e5xa5 "
                       "3. g3-h4 *\n";
    dm_pdn_replay rep = replay_text(with);
    assert_int_equal(rep.verdict, DM_PDN_LEGAL);
    assert_int_equal(rep.nirregular, 1);
    assert_int_equal(rep.irregular[0].move_number, 2);
    dm_pdn_replay plain =
        replay_text("[GameType \"25\"]\n1. c3-d4 f6-e5 2. a3-b4 e5xa5 3. g3-h4 *\n");
    assert_int_equal(plain.verdict, DM_PDN_ILLEGAL);
}

/* A dm_game holds legal moves only: turning a record with an accepted irregularity into
 * a game stops AT the irregular move, in every variant alike (a Russian game once
 * skipped it and failed on the next move, played from the wrong position). */
static void test_irregular__game_stops_at_the_irregular_move(void **s)
{
    (void)s;
    static const struct {
        const char *text, *irregular;
    } cases[] = {
        {"1. 32-28 19-23 2. 33-29 {accepted irregularity} 23x32 3. 38x27 *\n", "\"33-29\""},
        {"[GameType \"25\"]\n1. c3-d4 f6-e5 2. a3-b4 {accepted irregularity} e5xa5 3. g3-h4 *\n",
         "\"a3-b4\""},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        dm_game *g = NULL;
        dm_error err = {{0}, 0, 0};
        size_t n = strlen(cases[i].text);
        assert_int_not_equal(dm_pdn_read_game(&g, NULL, cases[i].text, n, "i.pdn", 0, &err), DM_OK);
        assert_null(g);
        if (!strstr(err.message, cases[i].irregular)) {
            fail_msg("case %zu: the error does not name %s: %s", i, cases[i].irregular,
                     err.message);
        }
        /* partial: the game up to the irregular move (two plies), err saying why */
        assert_int_equal(dm_pdn_read_game(&g, NULL, cases[i].text, n, "i.pdn", 1, &err), DM_OK);
        assert_non_null(g);
        assert_int_equal(dm_game_ply(g), 2);
        assert_non_null(strstr(err.message, cases[i].irregular));
        dm_game_free(g);
    }
}

/* The writer keeps the annotation, writes the moves after it normalised, and the text
 * reads back as the same game (read -> write -> read -> write is a fixed point). */
static void test_irregular__written_and_read_back(void **s)
{
    (void)s;
    const char *texts[] = {
        "1. 32-28 19-23 2. 33-29 {accepted irregularity} 23x32 3. 38x27 *\n",
        "[GameType \"25\"]\n1. c3-d4 f6-e5 2. a3-b4 {accepted irregularity} e5xa5 3. g3-h4 *\n",
    };
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        dm_pdn_game *g = read_ok(texts[i]);
        char *out = NULL, *out2 = NULL;
        assert_int_equal(dm_pdn_write(&out, NULL, g, DM_NOTATION_FULL), DM_OK);
        assert_non_null(strstr(out, "{accepted irregularity}"));
        dm_pdn_game *g2 = read_ok(out);
        dm_pdn_replay a, b;
        dm_pdn_replay_mainline(&a, g);
        dm_pdn_replay_mainline(&b, g2);
        assert_int_equal(b.verdict, DM_PDN_LEGAL);
        assert_int_equal(b.nirregular, a.nirregular);
        assert_int_equal(b.plies, a.plies);
        assert_same_end(&a, &b);
        assert_int_equal(dm_pdn_write(&out2, NULL, g2, DM_NOTATION_FULL), DM_OK);
        assert_string_equal(out, out2);
        free(out);
        free(out2);
        dm_pdn_game_free(g2);
        dm_pdn_game_free(g);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_irregular__ignored_capture_stands_with_the_annotation),
        cmocka_unit_test(test_irregular__same_record_without_the_annotation_fails),
        cmocka_unit_test(test_irregular__short_capture_removes_what_it_jumps),
        cmocka_unit_test(test_irregular__promotion_as_written),
        cmocka_unit_test(test_irregular__cannot_be_played_as_written),
        cmocka_unit_test(test_irregular__counted),
        cmocka_unit_test(test_irregular__variant),
        cmocka_unit_test(test_irregular__game_stops_at_the_irregular_move),
        cmocka_unit_test(test_irregular__written_and_read_back),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
