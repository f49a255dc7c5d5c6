/* SPDX-License-Identifier: MIT
 * tests/unit/test_notation.c: move text out (PDN short/full path, full path, Hub) and
 * in (every common way of writing a move, resolved against the legal moves), with the
 * errors that say why a text is not a legal move (FMJD 4.1, 4.13, 8; PDN 3.0): the
 * fast board's dm_move10_parse and the every-variant dm_move_parse (what the game
 * reads) give the same reasons, with the moves that are legal. */
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

static void load(dm_board10 *b, const char *fen)
{
    dm_error err = {{0}, 0, 0};
    if (dm_board10_from_fen(b, fen, &err) != DM_OK) {
        fail_msg("FEN %s rejected: %s", fen, err.message);
    }
}

static dm_move10 find_move(const dm_board10 *b, const char *hub)
{
    dm_movelist10 list;
    dm_movegen10_legal(&list, b);
    for (int i = 0; i < list.count; i++) {
        char t[160];
        dm_move10_to_text(t, sizeof t, b, &list.moves[i], DM_NOTATION_HUB);
        if (!strcmp(t, hub)) {
            return list.moves[i];
        }
    }
    fail_msg("move %s not legal", hub);
    return list.moves[0];
}

static void expect_text(const char *fen, const char *hub, const char *pdn, const char *full)
{
    dm_board10 b;
    load(&b, fen);
    dm_move10 m = find_move(&b, hub);
    const char *want[3] = {pdn, full, hub};
    static const dm_notation style[3] = {DM_NOTATION_PDN, DM_NOTATION_FULL, DM_NOTATION_HUB};
    for (int k = 0; k < 3; k++) {
        char t[160];
        size_t len = dm_move10_to_text(t, sizeof t, &b, &m, style[k]);
        if (strcmp(t, want[k]) != 0) {
            fail_msg("%s in %s, style %d: got \"%s\", expected \"%s\"", hub, fen, k, t, want[k]);
        }
        assert_int_equal(len, strlen(want[k]));
    }
}

/* ---- move to text ---------------------------------------------------------------------- */

static void test_notation__to_text_styles(void **state)
{
    (void)state;
    /* an ordinary move is "from-to" in every style */
    expect_text("W:W31-50:B1-20", "32-28", "32-28", "32-28");
    expect_text("W:W39,K28:B10,14", "28-6", "28-6", "28-6");
    /* one capture */
    expect_text("B:W23:B28", "28x19x23", "28x19", "28x19");
    /* a multi-capture with a unique from/to: short in PDN, turning squares in full */
    expect_text("W:WK46:B12,13,23,33", "46x39x12x13x23x33", "46x39", "46x19x8x17x39");
    expect_text("W:WK36:B21,27,29,44", "36x49x27x29x44", "36x49", "36x18x40x49");
    expect_text("W:W47,K45:B23,29,32,42,K40", "47x27x32x42", "47x27", "47x38x27");
    /* two moves 43x1 with different pieces: PDN needs the path */
    expect_text("W:WK43:B7,17,22,32", "43x1x7x22x32", "43x27x18x1", "43x27x18x1");
    expect_text("W:WK43:B7,17,22,32", "43x1x7x17x32", "43x21x12x1", "43x21x12x1");
    /* a capture ending where it started; two paths, either may be written in full */
    dm_board10 b;
    load(&b, "W:W32:B17,18,27,28");
    dm_move10 m = find_move(&b, "32x32x17x18x27x28");
    char t[160];
    dm_move10_to_text(t, sizeof t, &b, &m, DM_NOTATION_PDN);
    assert_string_equal(t, "32x32");
    dm_move10_to_text(t, sizeof t, &b, &m, DM_NOTATION_FULL);
    if (strcmp(t, "32x21x12x23x32") != 0 && strcmp(t, "32x23x12x21x32") != 0) {
        fail_msg("32x32 written in full as \"%s\"", t);
    }
}

/* snprintf semantics: truncated, terminated, the full length returned. */
static void test_notation__to_text_truncates(void **state)
{
    (void)state;
    dm_board10 b;
    load(&b, "W:WK46:B12,13,23,33");
    dm_move10 m = find_move(&b, "46x39x12x13x23x33");
    char t[5];
    memset(t, 'z', sizeof t);
    assert_int_equal(dm_move10_to_text(t, sizeof t, &b, &m, DM_NOTATION_HUB), 17);
    assert_string_equal(t, "46x3");
    assert_int_equal(dm_move10_to_text(NULL, 0, &b, &m, DM_NOTATION_FULL), 13);
}

/* dm_move10_path: from, the turning squares, to. */
static void test_notation__path(void **state)
{
    (void)state;
    dm_board10 b;
    int sq[32];
    load(&b, "W:WK46:B12,13,23,33");
    dm_move10 m = find_move(&b, "46x44x12x13x23x33");
    int n = dm_move10_path(sq, 32, &b, &m);
    assert_int_equal(n, 5);
    static const int want[5] = {46, 19, 8, 17, 44};
    for (int i = 0; i < 5; i++) {
        assert_int_equal(sq[i], want[i]);
    }
    load(&b, "W:W31-50:B1-20");
    m = find_move(&b, "33-29");
    assert_int_equal(dm_move10_path(sq, 32, &b, &m), 2);
    assert_int_equal(sq[0], 33);
    assert_int_equal(sq[1], 29);
    /* a move of another position has no path here */
    dm_board10 other;
    load(&other, "W:WK43:B7,17,22,32");
    m = find_move(&other, "43x1x7x22x32");
    assert_int_equal(dm_move10_path(sq, 32, &b, &m), 0);
}

/* ---- text to move ---------------------------------------------------------------------- */

static void expect_parse(const char *fen, const char *text, const char *hub)
{
    dm_board10 b;
    load(&b, fen);
    dm_move10 want = find_move(&b, hub), got;
    dm_error err;
    memset(&err, 0, sizeof err);
    dm_status st = dm_move10_parse(&got, &b, text, &err);
    if (st != DM_OK) {
        fail_msg("\"%s\" in %s: status %d: %s", text, fen, (int)st, err.message);
    }
    if (!dm_move10_equal(&got, &want)) {
        char t[160];
        dm_move10_to_text(t, sizeof t, &b, &got, DM_NOTATION_HUB);
        fail_msg("\"%s\" in %s read as %s, expected %s", text, fen, t, hub);
    }
}

static void test_notation__parse_forms(void **state)
{
    (void)state;
    const char *start = "W:W31-50:B1-20";
    expect_parse(start, "32-28", "32-28");
    expect_parse(start, "32-28!?", "32-28");
    expect_parse(start, "32-28!", "32-28");
    expect_parse(start, "32-28??", "32-28");
    expect_parse(start, " 32-28 ", "32-28");
    expect_parse(start, "32x28", "32-28"); /* 'x' on a quiet move: real files do this */
    const char *c19 = "B:W23:B19";         /* Black 19 takes 23, landing on 28 */
    expect_parse(c19, "19x28", "19x28x23");
    expect_parse(c19, "19:28", "19x28x23");
    expect_parse(c19,
                 "19\xc3\x97"
                 "28",
                 "19x28x23");
    const char *cap = "B:W23:B28";
    expect_parse(cap, "28x19", "28x19x23");
    expect_parse(cap, "28:19", "28x19x23");
    expect_parse(cap,
                 "28\xc3\x97"
                 "19",
                 "28x19x23"); /* U+00D7 as the rulebook prints */
    expect_parse(cap, "28X19", "28x19x23");
    expect_parse(cap, "28-19", "28x19x23");    /* '-' on a capture: matched by from and to */
    expect_parse(cap, "28x19x23", "28x19x23"); /* Hub: with the captured square */
    expect_parse("B:W50:B6", "06-11", "6-11");
    expect_parse("B:W50:B1", "1- 6", "1-6");
    expect_parse("B:W50:B1", "1-6", "1-6");
    /* full paths and Hub forms tell the two 43x1 apart */
    const char *two = "W:WK43:B7,17,22,32";
    expect_parse(two, "43x27x18x1", "43x1x7x22x32");
    expect_parse(two, "43x21x12x1", "43x1x7x17x32");
    expect_parse(two, "43x27x1", "43x1x7x22x32");      /* part of the path */
    expect_parse(two, "43x1x7x22x32", "43x1x7x22x32"); /* Hub */
    expect_parse(two, "43x1x32x17x7", "43x1x7x17x32"); /* Hub, captured in any order */
    expect_parse(two, "43x32x22x7x1", "43x1x7x22x32"); /* PDN with captured squares */
    expect_parse("W:WK46:B12,13,23,33", "46x19x8x17x39", "46x39x12x13x23x33");
    expect_parse("W:WK46:B12,13,23,33", "46x39", "46x39x12x13x23x33");
    expect_parse("W:W32:B17,18,27,28", "32x32", "32x32x17x18x27x28");
    expect_parse("W:W32:B17,18,27,28", "32x23x12x21x32", "32x32x17x18x27x28");
}

/* dm_move10_parse refuses text with st, its message holding what1 (and what2). */
static void expect_parse_error_fast(const char *fen, const char *text, dm_status st,
                                    const char *what1, const char *what2)
{
    dm_board10 b;
    load(&b, fen);
    dm_move10 m;
    memset(&m, 0x77, sizeof m);
    dm_move10 sentinel = m;
    dm_error err;
    memset(&err, 0, sizeof err);
    dm_status got = dm_move10_parse(&m, &b, text, &err);
    if (got != st || !strstr(err.message, what1) || (what2 && !strstr(err.message, what2))) {
        fail_msg("\"%s\" in %s: got %d \"%s\"; expected %d with \"%s\"%s%s", text, fen, (int)got,
                 err.message, (int)st, what1, what2 ? " and " : "", what2 ? what2 : "");
    }
    assert_memory_equal(&m, &sentinel, sizeof m);
    assert_int_equal(dm_move10_parse(&m, &b, text, NULL), st);
}

/* dm_move_parse's reasons in a variant with its own squares and rules. */
static void expect_vparse_error(const char *variant, const char *fen, const char *text,
                                dm_status st, const char *what1, const char *what2)
{
    const dm_variant *v = NULL;
    assert_int_equal(dm_variant_from_name(&v, variant, NULL), DM_OK);
    dm_board b;
    assert_int_equal(dm_board_from_fen(&b, v, fen, NULL), DM_OK);
    dm_move m;
    dm_error err;
    memset(&err, 0, sizeof err);
    dm_status got = dm_move_parse(&m, &b, text, &err);
    if (got != st || !strstr(err.message, what1) || (what2 && !strstr(err.message, what2))) {
        fail_msg("%s \"%s\" in %s: got %d \"%s\"; expected %d with \"%s\"%s%s", variant, text, fen,
                 (int)got, err.message, (int)st, what1, what2 ? " and " : "", what2 ? what2 : "");
    }
}

/* Both parsers refuse text with st and the same reason: dm_move10_parse and
 * dm_move_parse, the parser of every variant (what dm_game_play_text reads). */
static void expect_parse_error(const char *fen, const char *text, dm_status st, const char *what1,
                               const char *what2)
{
    expect_parse_error_fast(fen, text, st, what1, what2);
    expect_vparse_error("international", fen, text, st, what1, what2);
}

static void test_notation__parse_illegal(void **state)
{
    (void)state;
    const char *start = "W:W31-50:B1-20";
    /* FMJD 4.1: a capture exists, an ordinary move is written */
    expect_parse_error("W:W32,45:B28", "45-40", DM_EILLEGAL, "compulsory", "32x23");
    expect_parse_error("W:W32,45:B28", "32-27", DM_EILLEGAL, "compulsory", "32x23");
    /* written as a capture, but no capture of one piece exists there: still 4.1 */
    expect_parse_error("W:W32,45:B28", "45x40", DM_EILLEGAL, "compulsory", "32x23");
    expect_parse_error("W:W47,K45:B23,29,32,42,K40", "47x41", DM_EILLEGAL, "compulsory", "47x27");
    /* FMJD 4.13: a capture of fewer pieces than the most possible */
    expect_parse_error("W:W47,K45:B23,29,32,42,K40", "45x34", DM_EILLEGAL, "majority", "47x27");
    expect_parse_error("W:WK43:B7,17,22,32", "43x27", DM_EILLEGAL, "majority", "3 pieces");
    expect_parse_error(start, "28-23", DM_EILLEGAL, "square 28 is empty", NULL);
    expect_parse_error(start, "18-23", DM_EILLEGAL, "opponent", NULL);
    expect_parse_error(start, "46-41", DM_EILLEGAL, "cannot move", NULL);
    expect_parse_error(start, "31-28", DM_EILLEGAL, "31-26", "31-27");
    expect_parse_error("W:W36,45:B27,31,34,40", "36-31", DM_EILLEGAL, "no legal move", NULL);
    expect_parse_error("W:W36,45:B27,31,34,40", "36-31", DM_EILLEGAL, "White has no legal move",
                       NULL);
    expect_parse_error(start, "18-23", DM_EILLEGAL, "square 18", "(White to move)");
    expect_parse_error(start, "46-41", DM_EILLEGAL, "the man on 46 cannot move", NULL);
    expect_parse_error(start, "31-28", DM_EILLEGAL, "the man on 31 can play 31-26, 31-27", NULL);
    expect_parse_error("W:W32,45:B28", "45-40", DM_EILLEGAL, "1 piece can be captured", "32x23");

    /* the variants: their own squares in the reasons */
    expect_vparse_error("russian", "W:Wc3,g1:Bd4,h8", "g1-h2", DM_EILLEGAL, "capture is compulsory",
                        "c3:e5");
    expect_vparse_error("russian", "W:Wc3:Bd4,h8", "h8-g7", DM_EILLEGAL, "square h8",
                        "(White to move)");
    expect_vparse_error("russian", "W:Wc3:Bh8", "c3-c5", DM_EILLEGAL,
                        "the man on c3 can play c3-b4, c3-d4", NULL);
    expect_vparse_error("russian", "W:Wa1,b2:Bh8", "a1-c3", DM_EILLEGAL,
                        "the man on a1 cannot move", NULL);
    expect_vparse_error("english", "B:W5:B1,9", "10-14", DM_EILLEGAL, "square 10 is empty", NULL);
}

static void test_notation__parse_ambiguous(void **state)
{
    (void)state;
    const char *two = "W:WK43:B7,17,22,32";
    expect_parse_error(two, "43x1", DM_EAMBIGUOUS, "43x27x18x1", "43x21x12x1");
    expect_parse_error(two, "43-1", DM_EAMBIGUOUS, "2 legal moves", NULL);
    /* a captured square that both moves share does not settle it (dm_move10_parse
     * reads from, to and some captured squares; dm_move_parse reads the Hub form
     * only whole, so for it this is a capture short of the longest one) */
    expect_parse_error_fast(two, "43x1x7", DM_EAMBIGUOUS, "43x27x18x1", "43x21x12x1");
    expect_vparse_error("international", two, "43x1x7", DM_EILLEGAL,
                        "the majority rule (FMJD 4.13) requires capturing 3", NULL);
    /* a legal capture of fewer pieces than the most: the same wording of the rule (the
     * one web/i18n.js and apps/cli/cli_i18n.c translate), the move to play at the end */
    expect_vparse_error("international", "W:W33:B28,18,29", "33x24", DM_EILLEGAL,
                        "illegal move \"33x24\": the majority rule (FMJD 4.13) requires "
                        "capturing 2 pieces: 33x13",
                        NULL);
}

static void test_notation__parse_malformed(void **state)
{
    (void)state;
    const char *start = "W:W31-50:B1-20";
    static const struct {
        const char *text;
        int column;
    } bad[] = {
        {"32-", 4},  {"ab", 1},      {"99-1", 1}, {"", 1},       {"32", 3},     {"3228", 1},
        {"32-0", 4}, {"32-28 x", 7}, {"-28", 1},  {"32--28", 4}, {"32-28-", 7},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        dm_board10 b;
        load(&b, start);
        dm_move10 m;
        dm_error err;
        memset(&err, 0, sizeof err);
        dm_status st = dm_move10_parse(&m, &b, bad[i].text, &err);
        if (st != DM_EPARSE || err.column != bad[i].column || !strstr(err.message, "bad move")) {
            fail_msg("\"%s\": got %d column %d \"%s\"; expected a parse error at column %d",
                     bad[i].text, (int)st, err.column, err.message, bad[i].column);
        }
    }
    dm_board10 b;
    dm_move10 m;
    dm_board10_start(&b);
    assert_int_equal(dm_move10_parse(&m, &b, NULL, NULL), DM_EINVAL);
    assert_int_equal(dm_move10_parse(NULL, &b, "32-28", NULL), DM_EINVAL);
    assert_int_equal(dm_move10_parse(&m, NULL, "32-28", NULL), DM_EINVAL);
}

/* ---- every legal move round-trips through text, in every style --------------------- */

static uint64_t rng_state = UINT64_C(0xD1B54A32D192ED03);

static uint32_t rng(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (uint32_t)((rng_state * UINT64_C(0x2545F4914F6CDD1D)) >> 32);
}

static int round_trip_all(const dm_board10 *b)
{
    static const dm_notation styles[3] = {DM_NOTATION_PDN, DM_NOTATION_FULL, DM_NOTATION_HUB};
    dm_movelist10 list;
    dm_movegen10_legal(&list, b);
    for (int i = 0; i < list.count; i++) {
        for (int k = 0; k < 3; k++) {
            char t[160];
            dm_move10_to_text(t, sizeof t, b, &list.moves[i], styles[k]);
            dm_move10 got;
            dm_error err;
            dm_status st = dm_move10_parse(&got, b, t, &err);
            if (st != DM_OK || !dm_move10_equal(&got, &list.moves[i])) {
                char fen[200], hub[160];
                dm_board10_to_fen(fen, sizeof fen, b);
                dm_move10_to_text(hub, sizeof hub, b, &list.moves[i], DM_NOTATION_HUB);
                fail_msg("move %s written \"%s\" (style %d) does not read back in %s: %s", hub, t,
                         k, fen, st ? err.message : "another move");
            }
        }
    }
    return list.count;
}

static void test_notation__every_move_round_trips(void **state)
{
    (void)state;
    static const char *const fens[] = {
        "W:W31-50:B1-20",
        "B:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46:BK17,K24",
        "W:WK43:B7,17,22,32",
        "W:WK32:B17,18,27,28",
        "W:WK46,K50,31-35:BK1,K5,16-20",
    };
    long moves = 0;
    for (size_t f = 0; f < sizeof fens / sizeof fens[0]; f++) {
        for (int g = 0; g < 8; g++) {
            dm_board10 b;
            load(&b, fens[f]);
            for (int ply = 0; ply < 150; ply++) {
                moves += round_trip_all(&b);
                dm_movelist10 list;
                if (dm_movegen10_legal(&list, &b) == 0) {
                    break;
                }
                dm_board10_apply(&b, &list.moves[rng() % (unsigned)list.count]);
            }
        }
    }
    assert_true(moves > 5000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_notation__to_text_styles),
        cmocka_unit_test(test_notation__to_text_truncates),
        cmocka_unit_test(test_notation__path),
        cmocka_unit_test(test_notation__parse_forms),
        cmocka_unit_test(test_notation__parse_illegal),
        cmocka_unit_test(test_notation__parse_ambiguous),
        cmocka_unit_test(test_notation__parse_malformed),
        cmocka_unit_test(test_notation__every_move_round_trips),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
