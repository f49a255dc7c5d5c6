/* SPDX-License-Identifier: MIT
 * tests/unit/test_pdn_variants.c: PDN records of the other variants through the real
 * reader, replay and writer: Russian (algebraic squares, ':' captures, free choice of
 * capture, a man crowned during a capture goes on as a king), English checkers
 * (numeric 1-32, Black moves first, men capture forward only, short kings), Brazilian
 * (algebraic, majority rule); which rules a game gets (GameType, Variant tag, the
 * squares); legal and illegal games; read -> write -> read round trips. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <damier/pdn.h>
#include <damier/variant.h>

/* ---- helpers --------------------------------------------------------------------- */

static dm_pdn_game *read_one(const char *text)
{
    dm_pdn_reader *r = NULL;
    assert_int_equal(dm_pdn_reader_new(&r, text, strlen(text), "v.pdn"), DM_OK);
    dm_pdn_game *g = NULL, *extra = NULL;
    dm_error err;
    if (dm_pdn_reader_next(&g, r, &err) != DM_OK || !g) {
        fail_msg("not read: %s\n%s", err.message, text);
    }
    assert_int_equal(dm_pdn_reader_next(&extra, r, &err), DM_OK);
    assert_null(extra);
    dm_pdn_reader_free(r);
    return g;
}

static dm_pdn_replay replay(const dm_pdn_game *g)
{
    dm_pdn_replay rep;
    assert_int_equal(dm_pdn_replay_mainline(&rep, g), DM_OK);
    return rep;
}

static char *write_game(const dm_pdn_game *g, dm_notation style)
{
    char *out = NULL;
    assert_int_equal(dm_pdn_write(&out, NULL, g, style), DM_OK);
    assert_non_null(out);
    return out;
}

static void assert_contains(const char *hay, const char *needle)
{
    if (!strstr(hay, needle)) {
        fail_msg("\"%s\" not found in:\n%s", needle, hay);
    }
}

static int same_vboard(const dm_board *a, const dm_board *b)
{
    return a->variant == b->variant && a->side == b->side && !memcmp(a->sq, b->sq, sizeof a->sq);
}

/* read -> write (style) -> read: same rules, verdict, plies and positions; writing the
 * result again gives the same text. */
static void assert_round_trip(const dm_pdn_game *g, dm_notation style)
{
    char *t1 = write_game(g, style);
    dm_pdn_game *g2 = read_one(t1);
    dm_pdn_replay r1 = replay(g), r2 = replay(g2);
    if (r1.verdict != r2.verdict || r1.plies != r2.plies || r1.variant != r2.variant ||
        !same_vboard(&r1.start, &r2.start) || !same_vboard(&r1.end, &r2.end)) {
        fail_msg("round trip changed the game (verdict %d/%d, plies %d/%d):\n%s", r1.verdict,
                 r2.verdict, r1.plies, r2.plies, t1);
    }
    char *t2 = write_game(g2, style);
    assert_string_equal(t1, t2);
    free(t1);
    free(t2);
    dm_pdn_game_free(g2);
}

/* Replay text: expect verdict under variant name (NULL: skipped), plies, and return
 * the game (caller frees). Legal and illegal games round-trip in both styles. */
static dm_pdn_game *expect_replay(const char *text, int verdict, const char *variant, int plies)
{
    dm_pdn_game *g = read_one(text);
    dm_pdn_replay rep = replay(g);
    if (rep.verdict != verdict || (verdict != DM_PDN_VARIANT && rep.plies != plies)) {
        fail_msg("%s\nverdict %d (expected %d), %d plies (expected %d): %s", text, rep.verdict,
                 verdict, rep.plies, plies, rep.reason.message);
    }
    if (variant) {
        assert_non_null(rep.variant);
        assert_string_equal(rep.variant->name, variant);
    } else {
        assert_null(rep.variant);
    }
    assert_round_trip(g, DM_NOTATION_PDN);
    assert_round_trip(g, DM_NOTATION_FULL);
    return g;
}

/* ---- Russian ---------------------------------------------------------------------- */

/* lidraughts.org Russian game (GameType 25) with ':' captures; Black's man crowned on
 * g1 with the last capture. */
static const char russian_game[] =
    "[Event \"lidraughts\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"0-2\"]\n"
    "[GameType \"25\"]\n\n"
    "1. g3-h4 f6-e5 2. c3-b4 b6-a5 3. e3-f4 e5:g3 4. h2:f4 a5:c3 5. d2:b4 d6-c5\n"
    "6. b4:d6 c7:g3 7. g1-h2 g7-f6 8. h2:f4 f6-g5 9. h4:f6 e7:g1 0-2\n";

static void test_pdn_variants__russian_game(void **state)
{
    (void)state;
    dm_pdn_game *g = expect_replay(russian_game, DM_PDN_LEGAL, "russian", 18);
    dm_pdn_replay rep = replay(g);
    assert_int_equal(rep.guessed, 0);
    /* Black crowned on g1 (square 32 for White's numbering of 8x8: g1 = 32) */
    assert_int_equal(dm_board_piece(&rep.end, dm_square_parse(rep.variant, "g1", NULL)),
                     DM_BLACK_KING);
    char *out = write_game(g, DM_NOTATION_PDN);
    assert_contains(out, "[GameType \"25\"]\n");
    assert_contains(out, "3. e3-f4 e5:g3 4. h2:f4 a5:c3");
    assert_contains(out, "e7:g1 0-2");
    free(out);
    /* the same moves with 'x' captures, no tags at all: Russian from the squares */
    dm_pdn_game *g2 = expect_replay(
        "1. g3-h4 f6-e5 2. c3-b4 b6-a5 3. e3-f4 e5xg3 4. h2xf4 a5xc3 5. d2xb4 d6-c5 *",
        DM_PDN_LEGAL, "russian", 10);
    assert_int_equal(replay(g2).guessed, 1);
    out = write_game(g2, DM_NOTATION_PDN);
    assert_contains(out, "[GameType \"25\"]\n"); /* the rules found are written */
    assert_contains(out, "3. e3-f4 e5:g3");
    free(out);
    dm_pdn_game_free(g2);
    dm_pdn_game_free(g);
}

static void test_pdn_variants__russian_rules(void **state)
{
    (void)state;
    /* a man crowned on d8 in the middle of a capture goes on as a (flying) king */
    dm_pdn_game *g = expect_replay("[GameType \"25\"]\n[FEN \"W:Wb6:Bc7,e7\"]\n1. b6:h4 *",
                                   DM_PDN_LEGAL, "russian", 1);
    dm_pdn_replay rep = replay(g);
    assert_int_equal(dm_board_piece(&rep.end, dm_square_parse(rep.variant, "h4", NULL)),
                     DM_WHITE_KING);
    char *out = write_game(g, DM_NOTATION_FULL);
    assert_contains(out, "[FEN \"W:Wb6:Bc7,e7\"]"); /* algebraic FEN kept algebraic */
    assert_contains(out, "1. b6:d8:h4 *");          /* the path names where the piece turned */
    free(out);
    dm_pdn_game_free(g);
    /* Brazilian (FMJD 4.15): it goes on as a man, so b6:h4 is not legal there */
    g = expect_replay("[GameType \"26\"]\n[FEN \"W:Wb6:Bc7,e7\"]\n1. b6:h4 *", DM_PDN_ILLEGAL,
                      "brazilian", 0);
    rep = replay(g);
    assert_non_null(rep.node);
    assert_string_equal(rep.move_text, "b6:h4");
    assert_string_equal(rep.fen_before, "W:Wb6:Bc7,e7");
    dm_pdn_game_free(g);

    /* free choice of capture: the one-piece capture is legal in Russian... */
    g = expect_replay("[GameType \"25\"]\n[FEN \"W:Wc3,h2:Bd4,f6,g3\"]\n1. h2:f4 *", DM_PDN_LEGAL,
                      "russian", 1);
    dm_pdn_game_free(g);
    /* ...not under the majority rule (Brazilian) */
    g = expect_replay("[GameType \"26\"]\n[FEN \"W:Wc3,h2:Bd4,f6,g3\"]\n1. h2xf4 *", DM_PDN_ILLEGAL,
                      "brazilian", 0);
    rep = replay(g);
    assert_contains(rep.reason.message, "illegal move \"h2xf4\"");
    assert_int_equal(rep.move_number, 1);
    assert_int_equal(rep.black, 0);
    dm_pdn_game_free(g);
    /* capture is compulsory in both */
    g = expect_replay("[GameType \"25\"]\n\n1. c3-d4 f6-g5 2. d4-e5 d6:f4 3. g3-h4 *",
                      DM_PDN_ILLEGAL, "russian", 4);
    rep = replay(g);
    assert_int_equal(rep.move_number, 3);
    assert_int_equal(rep.black, 0);
    assert_string_equal(rep.move_text, "g3-h4");
    assert_int_equal(rep.node->line, 3);
    assert_int_equal(rep.node->column, 34);
    assert_contains(rep.reason.message, "capture is compulsory");
    /* FEN before in algebraic squares, as Russian records write them */
    assert_string_equal(rep.fen_before, "W:Wa3,e3,g3,b2,d2,f2,h2,a1,c1,e1,g1:Bb8,d8,f8,h8,"
                                        "a7,c7,e7,g7,b6,h6,g5,f4");
    dm_pdn_game_free(g);
}

/* ---- English checkers --------------------------------------------------------------- */

/* tinsley.pdn's first game, cut: no GameType; "10x14" is not a capture */
static const char english_game[] =
    "[Event \"Ohio State Ty 1946\"]\n[Black \"MF Tinsley\"]\n[White \"M Rex\"]\n"
    "[Result \"1/2-1/2\"]\n"
    "1. 11-15 23-18 2. 8-11 27-23 3. 4-8 23-19 4. 10x14 19x10 5. 14x23 26x19 6.\n"
    "7x14 24-20 7. 6-10 30-26 8. 11-15 28-24 1/2-1/2\n";

static void test_pdn_variants__english_game(void **state)
{
    (void)state;
    dm_pdn_game *g = expect_replay(english_game, DM_PDN_LEGAL, "english", 16);
    dm_pdn_replay rep = replay(g);
    assert_int_equal(rep.guessed, 1);
    assert_int_equal(rep.end.side, DM_BLACK); /* Black moved first, 16 plies */
    char *out = write_game(g, DM_NOTATION_PDN);
    assert_contains(out, "[GameType \"21\"]\n");
    /* Black's moves carry the number; the quiet move is written with '-' */
    assert_contains(out, "4. 10-14 19x10 5. 14x23 26x19");
    free(out);
    dm_pdn_game_free(g);

    /* with GameType 21: Black's bad move is "2.", White's "2..." */
    g = expect_replay("[GameType \"21\"]\n1. 11-15 23-19 2. 15-11 *", DM_PDN_ILLEGAL, "english", 2);
    rep = replay(g);
    assert_int_equal(rep.move_number, 2);
    assert_int_equal(rep.black, 1);
    assert_string_equal(rep.fen_before, "B:W19,21,22,24-32:B1-10,12,15");
    dm_pdn_game_free(g);
    g = expect_replay("[GameType \"21\"]\n1. 11-15 23-19 2. 8-11 19-23 *", DM_PDN_ILLEGAL,
                      "english", 3);
    rep = replay(g);
    assert_int_equal(rep.move_number, 2);
    assert_int_equal(rep.black, 0); /* White's move, the second of move 2 */
    dm_pdn_game_free(g);
}

/* English movetext numbered in White-first pairs, as in chess ("1... 9-13 2. 22-18
 * 13-17 3. 21x14"): it came out "1. 9-13 22-18 3. 13-17 21x14", every number after the
 * first pair shifted. Written in English numbering (Black's move opens the pair), in
 * variations too, and that reads back and writes the same. */
static void test_pdn_variants__english_white_first_numbers(void **state)
{
    (void)state;
    dm_pdn_game *g = read_one("[GameType \"21\"]\n\n1... 9-13 2. 22-18 (2. 24-19 2... 11-16 "
                              "3. 22-18) 13-17 {c} 3. 21x14 10x17 *\n");
    assert_int_equal(replay(g).verdict, DM_PDN_LEGAL);
    char *out = write_game(g, DM_NOTATION_PDN);
    assert_contains(out, "\n1. 9-13 22-18 (1... 24-19 2. 11-16 22-18) 2. 13-17 {c} 2... 21x14 "
                         "3. 10x17 *\n");
    free(out);
    assert_round_trip(g, DM_NOTATION_PDN);
    dm_pdn_game_free(g);
    /* English numbering stays as it is */
    g = read_one("[GameType \"21\"]\n\n1. 9-13 22-18 2. 13-17 21x14 *\n");
    out = write_game(g, DM_NOTATION_PDN);
    assert_contains(out, "\n1. 9-13 22-18 2. 13-17 21x14 *\n");
    free(out);
    dm_pdn_game_free(g);
}

/* dm_pdn_write_with: captures with 'x' (or ':') instead of the variant's separator;
 * the output reads back as the same game; other separators refused. */
static void test_pdn_variants__write_capture_separator(void **state)
{
    (void)state;
    dm_pdn_game *g = read_one("[GameType \"25\"]\n\n1. c3-d4 f6-g5 2. d4-e5 d6:f4 3. g3:e5 *\n");
    dm_pdn_write_options opt = {DM_NOTATION_PDN, 'x', 0};
    char *out = NULL;
    assert_int_equal(dm_pdn_write_with(&out, NULL, g, &opt), DM_OK);
    assert_contains(out, "\n1. c3-d4 f6-g5 2. d4-e5 d6xf4 3. g3xe5 *\n");
    dm_pdn_game *g2 = read_one(out);
    dm_pdn_replay r1 = replay(g), r2 = replay(g2);
    assert_int_equal(r2.verdict, DM_PDN_LEGAL);
    assert_int_equal(r1.plies, r2.plies);
    assert_true(same_vboard(&r1.end, &r2.end));
    free(out);
    dm_pdn_game_free(g2);
    assert_int_equal(dm_pdn_write_with(&out, NULL, g, NULL), DM_OK);
    assert_contains(out, "d6:f4");
    free(out);
    opt.capture_sep = '-';
    assert_int_equal(dm_pdn_write_with(&out, NULL, g, &opt), DM_EINVAL);
    assert_null(out);
    dm_pdn_game_free(g);
}

static void test_pdn_variants__english_rules(void **state)
{
    (void)state;
    /* men capture forward only; kings move one square and capture both ways */
    dm_pdn_game *g = expect_replay("[GameType \"21\"]\n[FEN \"W:W18:B14,23\"]\n1. 18x27 *",
                                   DM_PDN_ILLEGAL, "english", 0);
    dm_pdn_game_free(g);
    g = expect_replay("[GameType \"21\"]\n[FEN \"W:WK18:B14,23\"]\n1. 18x27 *", DM_PDN_LEGAL,
                      "english", 1);
    dm_pdn_game_free(g);
    /* "10x26" has two paths; the move after it fits only 10x19x26 (White's 22 stays) */
    g = expect_replay("[GameType \"21\"]\n[FEN \"B:W14,15,22,23:B10\"]\n1. 10x26 22-18 *",
                      DM_PDN_LEGAL, "english", 2);
    dm_pdn_replay rep = replay(g);
    assert_int_equal(rep.resolved, 1);
    assert_string_equal(rep.ambiguous_as, "10x19x26");
    char *out = write_game(g, DM_NOTATION_PDN);
    assert_contains(out, "1. 10x19x26 22-18 *");
    free(out);
    dm_pdn_game_free(g);
    /* alone it stays ambiguous */
    g = expect_replay("[GameType \"21\"]\n[FEN \"B:W14,15,22,23:B10\"]\n1. 10x26 *", DM_PDN_ILLEGAL,
                      "english", 0);
    assert_contains(replay(g).reason.message, "ambiguous");
    dm_pdn_game_free(g);
}

/* playstrategy.org: algebraic squares with Black on ranks 1-3, a multi-capture written
 * as single jumps (each token a half-move) */
static void test_pdn_variants__split_captures_joined(void **state)
{
    (void)state;
    dm_pdn_game *g = expect_replay("[Variant \"American/English\"]\n[P1 \"x\"]\n"
                                   "[FEN \"B:W18,26:B14\"]\n1. 14x23 23x30 *",
                                   DM_PDN_LEGAL, "english", 1);
    dm_pdn_replay rep = replay(g);
    assert_int_equal(rep.joined, 1);
    char *out = write_game(g, DM_NOTATION_FULL);
    assert_contains(out, "\n1. 14x23x30 *");
    free(out);
    dm_pdn_game_free(g);
    /* a token that does not start where the capture ended is not joined */
    g = expect_replay("[Variant \"American/English\"]\n[FEN \"B:W18,26:B14\"]\n"
                      "1. 14x23 22x30 *",
                      DM_PDN_ILLEGAL, "english", 0);
    rep = replay(g);
    assert_int_equal(rep.joined, 0);
    assert_string_equal(rep.move_text, "14x23");
    dm_pdn_game_free(g);
    /* a real playstrategy opening with algebraic squares */
    g = expect_replay("[Variant \"American/English\"]\n1. c3-d4 b6-c5 2. d4xb6 a7xc5 0-1",
                      DM_PDN_LEGAL, "english", 4);
    out = write_game(g, DM_NOTATION_PDN);
    assert_contains(out, "[GameType \"21\"]\n");
    assert_contains(out, "[Variant \"American/English\"]\n");
    assert_contains(out, "1. 11-15 24-19 2. 15x24 28x19 0-1"); /* numeric, English style */
    free(out);
    dm_pdn_game_free(g);
}

/* ---- Brazilian ---------------------------------------------------------------------- */

static void test_pdn_variants__brazilian_game(void **state)
{
    (void)state;
    /* lidraughts.org brazilian.pdn: Black's man crowned on c1 captures as a king */
    dm_pdn_game *g;
    dm_pdn_replay rep;
    g = expect_replay("[GameType \"26\"]\n"
                      "1. c3-b4 b6-c5 2. b4-a5 f6-e5 3. b2-c3 c5-b4 4. a3xc5 d6xb4 5. c1-b2 "
                      "b4-a3 6. c3-b4 a3xc1 7. b4-c5 c7-b6 8. a5xc7 d8xd4 9. e3xc5 c1xb6 "
                      "10. e1-d2 e5-d4 *",
                      DM_PDN_LEGAL, "brazilian", 20);
    rep = replay(g);
    /* Black's king from c1 (crowned at 6...) */
    assert_int_equal(dm_board_piece(&rep.end, dm_square_parse(rep.variant, "b6", NULL)),
                     DM_BLACK_KING);
    char *out = write_game(g, DM_NOTATION_FULL);
    assert_contains(out, "8. a5xc7 d8xb6xd4"); /* full path of the two-piece capture */
    free(out);
    out = write_game(g, DM_NOTATION_PDN);
    assert_contains(out, "8. a5xc7 d8xd4 9. e3xc5 c1xb6");
    assert_null(strstr(out, "[FEN")); /* start position: no FEN */
    free(out);
    dm_pdn_game_free(g);
    /* majority rule: the king must take two, not one */
    g = expect_replay("[GameType \"26\"]\n"
                      "1. c3-b4 b6-c5 2. b4-a5 f6-e5 3. b2-c3 c5-b4 4. a3xc5 d6xb4 5. c1-b2 "
                      "b4-a3 6. c3-b4 a3xc1 7. b4-c5 c7-b6 8. a5xc7 d8xb6 *",
                      DM_PDN_ILLEGAL, "brazilian", 15);
    rep = replay(g);
    assert_int_equal(rep.move_number, 8);
    assert_int_equal(rep.black, 1);
    dm_pdn_game_free(g);
}

/* ---- which rules ------------------------------------------------------------------- */

static void test_pdn_variants__selection(void **state)
{
    (void)state;
    /* without GameType, an 8x8 game legal under no candidate for ten plies is another
     * variant (skipped, the first failure named), not called illegal */
    dm_pdn_game *g = expect_replay("1. c3-d4 f6-g5 2. d4xf6 *", DM_PDN_VARIANT, NULL, 0);
    dm_pdn_replay rep = replay(g);
    assert_contains(rep.reason.message, "not legal as russian, brazilian or czech");
    assert_contains(rep.reason.message, "move 2. d4xf6");
    /* --variant (the CLI sets the GameType of games without one) makes it checkable */
    assert_int_equal(dm_pdn_game_set_tag(g, "GameType", "25"), DM_OK);
    rep = replay(g);
    assert_int_equal(rep.verdict, DM_PDN_ILLEGAL);
    assert_string_equal(rep.variant->name, "russian");
    assert_int_equal(rep.guessed, 0);
    dm_pdn_game_free(g);
    /* a long English game with a move from an empty square is English, illegal */
    g = expect_replay("1. 11-15 23-18 2. 8-11 27-23 3. 4-8 23-19 4. 10x14 19x10 5. 14x23 "
                      "26x19 6. 7x14 24-20 7. 13-17 *",
                      DM_PDN_ILLEGAL, "english", 12);
    rep = replay(g);
    assert_contains(rep.reason.message, "empty");
    dm_pdn_game_free(g);
    /* FEN-only 8x8 problems: English; a FEN with a man on its crowning row is
     * unreadable (not a skipped variant) */
    g = expect_replay("[FEN \"W:W31,27,19:B17,12,5.\"]\n0-1", DM_PDN_LEGAL, "english", 0);
    dm_pdn_game_free(g);
    g = expect_replay("[FEN \"W:W18,K15,1:BK30,K26,2.\"]\n0-1", DM_PDN_UNREADABLE, "english", 0);
    assert_contains(replay(g).reason.message, "cannot be read as English");
    dm_pdn_game_free(g);
    /* a bad FEN for the tagged variant */
    g = expect_replay("[GameType \"25\"]\n[FEN \"W:Wz9:Bb8\"]\n1. c3-d4 *", DM_PDN_UNREADABLE,
                      "russian", 0);
    dm_pdn_game_free(g);
    /* setup command and unknown move in a variant game */
    g = expect_replay("[GameType \"25\"]\n1. c3-d4 /FEN \"B:Wc3:Bf6\"/ 1... f6-e5 2. c3-d4 *",
                      DM_PDN_LEGAL, "russian", 3);
    dm_pdn_game_free(g);
    g = expect_replay("[GameType \"25\"]\n1. c3-d4 - 2. d4-e5 *", DM_PDN_UNREADABLE, "russian", 1);
    assert_contains(replay(g).reason.message, "unknown move");
    dm_pdn_game_free(g);
    /* Canadian 12x12 (72 squares): moves replayed, the bad capture reported */
    g = expect_replay("[GameType \"27\"]\n1. 43-37 30-36 2. 37x35 *", DM_PDN_ILLEGAL, "canadian",
                      2);
    dm_pdn_game_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pdn_variants__russian_game),
        cmocka_unit_test(test_pdn_variants__russian_rules),
        cmocka_unit_test(test_pdn_variants__english_game),
        cmocka_unit_test(test_pdn_variants__english_white_first_numbers),
        cmocka_unit_test(test_pdn_variants__write_capture_separator),
        cmocka_unit_test(test_pdn_variants__english_rules),
        cmocka_unit_test(test_pdn_variants__split_captures_joined),
        cmocka_unit_test(test_pdn_variants__brazilian_game),
        cmocka_unit_test(test_pdn_variants__selection),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
