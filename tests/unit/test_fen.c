/* SPDX-License-Identifier: MIT
 * tests/unit/test_fen.c: draughts FEN (PDN 3.0 FEN tag) in and out: round trips, the
 * liberal forms real files use, and malformed input, which must give an error that
 * says what is wrong and at which character, never a crash (also under a few thousand
 * random and mutated strings, for dm_board10_from_fen and dm_move10_parse). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "core/board10.h"
#include "core/move10.h"

static void load(dm_board10 *b, const char *fen)
{
    dm_error err = {{0}, 0, 0};
    dm_status st = dm_board10_from_fen(b, fen, &err);
    if (st != DM_OK) {
        fail_msg("FEN \"%s\" rejected: %s (column %d)", fen, err.message, err.column);
    }
    assert_true(b->hash == dm_board10_compute_hash(b));
    assert_int_equal(dm_board10_validate(b, NULL), DM_OK);
}

/* in is read, written back as want, and want reads as the same board. */
static void expect_fen_out(const char *in, const char *want)
{
    dm_board10 b, again;
    load(&b, in);
    char out[200];
    size_t len = dm_board10_to_fen(out, sizeof out, &b);
    if (strcmp(out, want) != 0) {
        fail_msg("FEN \"%s\" written as \"%s\", expected \"%s\"", in, out, want);
    }
    assert_int_equal(len, strlen(want));
    load(&again, out);
    assert_true(dm_board10_equal(&b, &again));
    assert_true(b.hash == again.hash);
}

static void expect_same(const char *a, const char *b)
{
    dm_board10 x, y;
    load(&x, a);
    load(&y, b);
    if (!dm_board10_equal(&x, &y) || x.hash != y.hash) {
        fail_msg("FEN \"%s\" and \"%s\" should give the same position", a, b);
    }
}

/* fen must be rejected with status st at column col, the message containing what. */
static void expect_error(const char *fen, dm_status st, int col, const char *what)
{
    dm_board10 b;
    memset(&b, 0xA5, sizeof b);
    dm_board10 sentinel = b;
    dm_error err;
    memset(&err, 0, sizeof err);
    dm_status got = dm_board10_from_fen(&b, fen, &err);
    if (got != st || err.column != col || !strstr(err.message, what)) {
        fail_msg("FEN \"%s\": got status %d column %d \"%s\"; expected status %d column %d "
                 "with \"%s\"",
                 fen, (int)got, err.column, err.message, (int)st, col, what);
    }
    assert_memory_equal(&b, &sentinel, sizeof b); /* *out untouched on error */
    /* the same call without an error record must not crash either */
    assert_int_equal(dm_board10_from_fen(&b, fen, NULL), st);
}

/* ---- reading and writing --------------------------------------------------------------- */

static void test_fen__start_position(void **state)
{
    (void)state;
    dm_board10 b, start;
    load(&b, "W:W31-50:B1-20");
    dm_board10_start(&start);
    assert_true(dm_board10_equal(&b, &start));
    assert_true(b.hash == start.hash);
    expect_fen_out("W:W31-50:B1-20", "W:W31-50:B1-20");
}

static void test_fen__round_trips(void **state)
{
    (void)state;
    expect_fen_out("B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29",
                   "B:WK10,K15,18,24,27,28:B12,16,20,K22,K25,K29");
    expect_fen_out("B:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46:BK17,K24",
                   "B:W6,9-11,20-23,30,K31,33,37,41-44,46:BK17,K24");
    expect_fen_out("W:W25,27,28,30,32,33,34,35,37,38:B12,13,14,16,18,19,21,23,24,26",
                   "W:W25,27,28,30,32-35,37,38:B12-14,16,18,19,21,23,24,26");
    /* runs of two stay a list, runs of three or more become a range */
    expect_fen_out("W:W31,32:B1,2,3", "W:W31,32:B1-3");
    /* a king next to men of its colour: the kinds never merge into one range */
    expect_fen_out("W:WK31,32,33:B", "W:WK31,32,33:B");
    expect_fen_out("W:W50,49,48,47,46:B5,4", "W:W46-50:B4,5");
}

static void test_fen__ranges_and_kings(void **state)
{
    (void)state;
    dm_board10 b;
    load(&b, "W:WK1-3,31-35:BK46-48,K49");
    for (int sq = 1; sq <= 3; sq++) {
        assert_int_equal(dm_board10_piece(&b, sq), DM_WHITE_KING);
    }
    for (int sq = 31; sq <= 35; sq++) {
        assert_int_equal(dm_board10_piece(&b, sq), DM_WHITE_MAN);
    }
    for (int sq = 46; sq <= 49; sq++) {
        assert_int_equal(dm_board10_piece(&b, sq), DM_BLACK_KING);
    }
    assert_int_equal(dm_board10_piece(&b, 50), DM_EMPTY);
    assert_int_equal(dm_board10_count_kings(&b, DM_WHITE), 3);
    assert_int_equal(dm_board10_count_men(&b, DM_WHITE), 5);
    assert_int_equal(dm_board10_count_kings(&b, DM_BLACK), 4);
    assert_int_equal(dm_board10_count_men(&b, DM_BLACK), 0);
    expect_fen_out("W:WK1-3,31-35:BK46-48,K49", "W:WK1-3,31-35:BK46-49");
    /* lower-case k, a one-square range, leading zeros */
    expect_same("W:Wk1-3,31-31:B05", "W:WK1,K2,K3,31:B5");
    expect_same("W:W031-050:B01-020", "W:W31-50:B1-20");
}

static void test_fen__section_order_and_empty_sides(void **state)
{
    (void)state;
    expect_same("W:B1-20:W31-50", "W:W31-50:B1-20");
    expect_same("B:BK5:W46", "B:W46:BK5");
    dm_board10 b;
    load(&b, "W:W31:B");
    assert_int_equal(dm_board10_count_men(&b, DM_BLACK) + dm_board10_count_kings(&b, DM_BLACK), 0);
    expect_fen_out("W:W31:B", "W:W31:B");
    expect_fen_out("W:B1", "W:W:B1");   /* White's section missing */
    expect_fen_out("B:W33", "B:W33:B"); /* Black's section missing */
    expect_fen_out("B:W:B", "B:W:B");   /* an empty board */
}

static void test_fen__liberal_forms(void **state)
{
    (void)state;
    const char *start = "W:W31-50:B1-20";
    expect_same("W:W31-50:B1-20.", start); /* trailing period (PDN files) */
    expect_same("W:W31-50:B1-20.\r\n", start);
    expect_same("  W : W 31 - 49 , 50 : B 1 - 20 . \n", start); /* spaces */
    expect_same("W:W31-50:B1-20:H0:F1", start);                 /* lidraughts counters */
    expect_same("\"W:W31-50:B1-20\"", start);                   /* quoted, as copied from a tag */
    expect_same("w:w31-50:b1-20", start);                       /* lower case */
    dm_board10 b;
    load(&b, "?:W31-50:B1-20"); /* unknown side to move: read as White */
    assert_int_equal(b.side, DM_WHITE);
    load(&b, "B:W31-50:B1-20");
    assert_int_equal(b.side, DM_BLACK);
}

/* A square repeated after the range that holds it. */
static void test_fen__square_repeated_after_range(void **state)
{
    (void)state;
    expect_error("W:W31-50,50:B1-20", DM_EPARSE, 10, "given twice");
}

static void test_fen__hash_depends_on_side(void **state)
{
    (void)state;
    dm_board10 w, b;
    load(&w, "W:W31-50:B1-20");
    load(&b, "B:W31-50:B1-20");
    assert_false(dm_board10_equal(&w, &b));
    assert_true(w.hash != b.hash);
}

/* ---- malformed input ------------------------------------------------------------------- */

static void test_fen__bad_side(void **state)
{
    (void)state;
    expect_error("X:W31:B1", DM_EPARSE, 1, "side to move");
    expect_error("garbage", DM_EPARSE, 1, "'g'");
    expect_error("", DM_EPARSE, 1, "end of text");
    expect_error("   ", DM_EPARSE, 4, "end of text");
    expect_error(":W31:B1", DM_EPARSE, 1, "side to move");
}

static void test_fen__bad_squares(void **state)
{
    (void)state;
    expect_error("W:W0:B1", DM_EPARSE, 4, "square 0 is not in 1-50");
    expect_error("W:W51:B1", DM_EPARSE, 4, "square 51 is not in 1-50");
    expect_error("W:W999:B1", DM_EPARSE, 4, "square 999 is not in 1-50");
    expect_error("W:W31:B1-1000", DM_EPARSE, 10, "not in 1-50");
    expect_error("W:W31:BK60", DM_EPARSE, 9, "square 60");
}

static void test_fen__duplicate_square(void **state)
{
    (void)state;
    expect_error("W:W31,31:B1", DM_EPARSE, 7, "square 31 is given twice");
    expect_error("W:W31:B31", DM_EPARSE, 8, "square 31 is given twice");
    expect_error("W:W31-35,33:B1", DM_EPARSE, 10, "square 33 is given twice");
    expect_error("W:WK1-3:BK2", DM_EPARSE, 11, "square 2 is given twice");
}

static void test_fen__backwards_range(void **state)
{
    (void)state;
    expect_error("W:W35-31:B1", DM_EPARSE, 4, "backwards");
    expect_error("W:W31:BK20-11", DM_EPARSE, 9, "range 20-11");
}

static void test_fen__garbage(void **state)
{
    (void)state;
    expect_error("W:W31;B1", DM_EPARSE, 6, "';'");
    expect_error("W:X1", DM_EPARSE, 3, "colour");
    expect_error("W:W31-", DM_EPARSE, 7, "a square number");
    expect_error("W:WK", DM_EPARSE, 5, "a square number");
    expect_error("W:W31,:B1", DM_EPARSE, 7, "a square number");
    expect_error("W:W31:W32", DM_EPARSE, 7, "White section appears twice");
    expect_error("W:W31:B1:H", DM_EPARSE, 11, "a number");
    expect_error("W:W31-50:B1-20x", DM_EPARSE, 15, "'x'");
    expect_error("W:W31-50:B1-20. x", DM_EPARSE, 17, "'x'");
    expect_error("W:W31\x01", DM_EPARSE, 6, "0x01");
    expect_error("W", DM_EPARSE, 2, "no piece section");
    expect_error("W:W33\xc3\x97"
                 "2",
                 DM_EPARSE, 6, "0xC3");
}

/* Men on their own promotion row cannot exist (they would have been crowned). */
static void test_fen__man_on_promotion_row(void **state)
{
    (void)state;
    expect_error("W:W3:B20", DM_EINVAL, 4, "white man on square 3");
    expect_error("W:W31,1-2:B20", DM_EINVAL, 7, "white man on square 1");
    expect_error("W:W31:B46", DM_EINVAL, 8, "black man on square 46");
    expect_error("W:W31:B20,45-47", DM_EINVAL, 11, "black man on square 46");
    /* kings there are fine */
    dm_board10 b;
    load(&b, "W:WK3:BK46");
    assert_int_equal(dm_board10_piece(&b, 3), DM_WHITE_KING);
    assert_int_equal(dm_board10_piece(&b, 46), DM_BLACK_KING);
}

static void test_fen__null_arguments(void **state)
{
    (void)state;
    dm_board10 b;
    dm_error err;
    assert_int_equal(dm_board10_from_fen(&b, NULL, &err), DM_EINVAL);
    assert_true(strlen(err.message) > 0);
    assert_int_equal(dm_board10_from_fen(NULL, "W:W31:B1", &err), DM_EINVAL);
}

/* dm_board10_to_fen is snprintf-like: it truncates, always terminates, and returns the
 * length it needs. */
static void test_fen__to_fen_truncates(void **state)
{
    (void)state;
    dm_board10 b;
    dm_board10_start(&b);
    char small[6];
    memset(small, 'z', sizeof small);
    size_t need = dm_board10_to_fen(small, sizeof small, &b);
    assert_int_equal(need, strlen("W:W31-50:B1-20"));
    assert_string_equal(small, "W:W31");
    char one[1] = {'z'};
    assert_int_equal(dm_board10_to_fen(one, 1, &b), need);
    assert_int_equal(one[0], 0);
    assert_int_equal(dm_board10_to_fen(NULL, 0, &b), need);
    /* the longest FEN: 50 isolated squares alternate kings and men */
    dm_board10_clear(&b);
    for (int sq = 1; sq <= 50; sq++) {
        int white = sq > 25;
        int king = sq % 2 || (white && sq <= 5) || (!white && sq >= 46);
        dm_board10_put(&b, sq,
                       white ? (king ? DM_WHITE_KING : DM_WHITE_MAN)
                             : (king ? DM_BLACK_KING : DM_BLACK_MAN));
    }
    char big[200];
    need = dm_board10_to_fen(big, sizeof big, &b);
    assert_true(need < sizeof big);
    dm_board10 again;
    load(&again, big);
    assert_true(dm_board10_equal(&b, &again));
}

/* ---- robustness: random and mutated text never crashes --------------------------------- */

static uint64_t rng_state = UINT64_C(0x9E3779B97F4A7C15);

static uint32_t rng(void)
{
    /* xorshift64*: deterministic, so a failure reproduces */
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (uint32_t)((rng_state * UINT64_C(0x2545F4914F6CDD1D)) >> 32);
}

static const char *const seeds[] = {
    "W:W31-50:B1-20",
    "B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29",
    "W:W25,27,28,30,32,33,34,35,37,38:B12,13,14,16,18,19,21,23,24,26.",
    "B:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46:BK17,K24",
    "W:WK43:B7,17,22,32:H0:F1",
};

static void random_text(char *s, size_t cap, const char *alphabet)
{
    size_t na = strlen(alphabet);
    size_t n = rng() % (cap - 1);
    for (size_t i = 0; i < n; i++) {
        s[i] = alphabet[rng() % na];
    }
    s[n] = 0;
}

static void mutate(char *s, size_t cap, const char *alphabet)
{
    size_t na = strlen(alphabet);
    int ops = 1 + (int)(rng() % 3);
    for (int k = 0; k < ops; k++) {
        size_t len = strlen(s);
        size_t at = len ? rng() % (len + 1) : 0;
        switch (rng() % 3) {
            case 0: /* replace */
                if (at < len) {
                    s[at] = alphabet[rng() % na];
                }
                break;
            case 1: /* insert */
                if (len + 2 < cap) {
                    memmove(s + at + 1, s + at, len - at + 1);
                    s[at] = alphabet[rng() % na];
                }
                break;
            default: /* delete */
                if (at < len) {
                    memmove(s + at, s + at + 1, len - at);
                }
                break;
        }
    }
}

static void check_fen_text(const char *s)
{
    dm_board10 b;
    memset(&b, 0x5A, sizeof b);
    dm_board10 sentinel = b;
    dm_error err;
    memset(&err, 0, sizeof err);
    dm_status st = dm_board10_from_fen(&b, s, &err);
    if (st == DM_OK) {
        assert_int_equal(dm_board10_validate(&b, NULL), DM_OK);
        assert_true(b.hash == dm_board10_compute_hash(&b));
        char out[200];
        dm_board10_to_fen(out, sizeof out, &b);
        dm_board10 again;
        assert_int_equal(dm_board10_from_fen(&again, out, NULL), DM_OK);
        assert_true(dm_board10_equal(&b, &again));
        return;
    }
    if (st != DM_EPARSE && st != DM_EINVAL) {
        fail_msg("FEN \"%s\": unexpected status %d", s, (int)st);
    }
    if (err.message[0] == 0 || err.column < 1 || (size_t)err.column > strlen(s) + 1) {
        fail_msg("FEN \"%s\": error without a usable column (%d) or message \"%s\"", s, err.column,
                 err.message);
    }
    assert_memory_equal(&b, &sentinel, sizeof b);
}

static void test_fen__random_and_mutated_fens_never_crash(void **state)
{
    (void)state;
    static const char alphabet[] = "WBwbK?k0123456789:,-. HF\"x\t\xc3\x97";
    char s[96];
    int accepted = 0;
    for (int i = 0; i < 3000; i++) {
        if (i % 3 == 0) {
            random_text(s, 48, alphabet);
        } else {
            snprintf(s, sizeof s, "%s", seeds[rng() % (sizeof seeds / sizeof seeds[0])]);
            mutate(s, sizeof s, alphabet);
        }
        dm_board10 b;
        accepted += dm_board10_from_fen(&b, s, NULL) == DM_OK;
        check_fen_text(s);
    }
    /* the mutations keep a fair share valid, so both paths were exercised */
    assert_true(accepted > 100);
    assert_true(accepted < 2900);
}

static void check_move_text(const dm_board10 *b, const char *s)
{
    dm_move10 m;
    dm_error err;
    memset(&err, 0, sizeof err);
    dm_status st = dm_move10_parse(&m, b, s, &err);
    if (st == DM_OK) {
        dm_movelist10 list;
        dm_movegen10_legal(&list, b);
        int found = 0;
        for (int i = 0; i < list.count; i++) {
            found |= dm_move10_equal(&m, &list.moves[i]);
        }
        if (!found) {
            fail_msg("move \"%s\" parsed to a move that is not legal", s);
        }
        return;
    }
    if (st != DM_EPARSE && st != DM_EILLEGAL && st != DM_EAMBIGUOUS) {
        fail_msg("move \"%s\": unexpected status %d", s, (int)st);
    }
    if (err.message[0] == 0) {
        fail_msg("move \"%s\": error %d without a message", s, (int)st);
    }
}

static void test_fen__random_move_texts_never_crash(void **state)
{
    (void)state;
    static const char alphabet[] = "0123456789-x:X !?*()+#\xc3\x97 ";
    static const char *const moves[] = {"32-28",         "19x28", "43x27x18x1", "43x1x32x22x7",
                                        "46x19x8x17x39", "06-11", "1- 6"};
    dm_board10 boards[4];
    dm_board10_start(&boards[0]);
    load(&boards[1], "W:WK43:B7,17,22,32");
    load(&boards[2], "W:WK46:B12,13,23,33");
    load(&boards[3], "B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29");
    char s[64];
    int ok = 0;
    for (int i = 0; i < 3000; i++) {
        if (i % 2 == 0) {
            random_text(s, 24, alphabet);
        } else {
            snprintf(s, sizeof s, "%s", moves[rng() % (sizeof moves / sizeof moves[0])]);
            mutate(s, sizeof s, alphabet);
        }
        const dm_board10 *b = &boards[rng() % 4];
        dm_move10 m;
        ok += dm_move10_parse(&m, b, s, NULL) == DM_OK;
        check_move_text(b, s);
    }
    assert_true(ok > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fen__start_position),
        cmocka_unit_test(test_fen__round_trips),
        cmocka_unit_test(test_fen__ranges_and_kings),
        cmocka_unit_test(test_fen__section_order_and_empty_sides),
        cmocka_unit_test(test_fen__liberal_forms),
        cmocka_unit_test(test_fen__square_repeated_after_range),
        cmocka_unit_test(test_fen__hash_depends_on_side),
        cmocka_unit_test(test_fen__bad_side),
        cmocka_unit_test(test_fen__bad_squares),
        cmocka_unit_test(test_fen__duplicate_square),
        cmocka_unit_test(test_fen__backwards_range),
        cmocka_unit_test(test_fen__garbage),
        cmocka_unit_test(test_fen__man_on_promotion_row),
        cmocka_unit_test(test_fen__null_arguments),
        cmocka_unit_test(test_fen__to_fen_truncates),
        cmocka_unit_test(test_fen__random_and_mutated_fens_never_crash),
        cmocka_unit_test(test_fen__random_move_texts_never_crash),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
