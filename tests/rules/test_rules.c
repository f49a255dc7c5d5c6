/* SPDX-License-Identifier: MIT
 * tests/rules/test_rules.c: one hand-made position per rule of international draughts
 * (../shared/docs/rules-international.md, FMJD articles), each with its COMPLETE list of
 * legal moves, compared as a set of Hub-notation strings.
 *
 * Every expected list was worked out by hand on the board diagram of the rules doc
 * (the reasoning is in each case's comment) and cross-checked with a separate
 * reference generator written independently of src/core. Square geometry used below:
 * square s is on row r = (s-1)/5 (0 = top, Black's back row 1-5) and column
 * c = 2*((s-1)%5) + (r even ? 1 : 0); a diagonal step changes r and c by 1.
 * White men move towards square 1, Black men towards 50.
 *
 * Hub notation: "32-28" for an ordinary move; "from x to x every captured square,
 * ascending" for a capture, so two capture paths with the same from, to and captured
 * set are the same string, i.e. ONE move (the duplicate policy of the issue). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/board10.h"
#include "core/move10.h"

typedef struct rule_case {
    const char *name;  /* FMJD article and what the position shows */
    const char *fen;   /* the position */
    const char *moves; /* every legal move, Hub notation, space-separated ("" = none) */
} rule_case;

static const rule_case cases[] = {
    /* [3] A man moves one square diagonally forward: White 33 (r6,c5) to 28 or 29;
     * 36 on the left edge only to 31; 45 on the right edge only to 40. Never back. */
    {"FMJD 3: men move one square forward only (White)", "W:W33,36,45:B5",
     "33-28 33-29 36-31 45-40"},
    /* [3] Black's forward is towards 50: 18 (r3,c4) to 22 or 23; 6 on the left edge to
     * 11 only; 15 on the right edge to 20 only. */
    {"FMJD 3: men move one square forward only (Black)", "B:W50:B6,15,18",
     "6-11 15-20 18-22 18-23"},
    /* [3] Flying king on 28 (e6): NW 22 17 11 6, NE 23 19 then Black's 14 (10 behind it
     * is occupied, so no capture), SW 32 37 41 46, SE 33 then its own man on 39. The
     * man 39 goes to 33 or 34. */
    {"FMJD 3: flying king moves any distance, stopped by pieces", "W:W39,K28:B10,14",
     "28-6 28-11 28-17 28-22 28-19 28-23 28-32 28-37 28-41 28-46 28-33 39-33 39-34"},
    /* [4] A piece never captures its own side's pieces: 22 stands in front of 28, 37
     * in front of the king on 46; nothing to capture, so ordinary moves. */
    {"FMJD 4: no capture of one's own pieces", "W:W22,28,37,K46:B5",
     "22-17 22-18 28-23 37-31 37-32 46-41"},
    /* [4.1] Capture is compulsory: 32 must take 28 (landing 23) although 32-27 and
     * 45-40 would otherwise be legal. */
    {"FMJD 4.1: capture is compulsory", "W:W32,45:B28", "32x23x28"},
    /* [4] Men capture backwards too: White 28 (r5,c4) jumps 33 (r6,c5) to 39. */
    {"FMJD 4: White man captures backwards", "W:W28:B33", "28x39x33"},
    /* [4] Black 28 jumps White 23 (towards Black's own side) to 19. */
    {"FMJD 4: Black man captures backwards", "B:W23:B28", "28x19x23"},
    /* [4] King capture at a distance: 46 sees 37 across the empty 41 and may land on
     * any empty square behind it up to its own man on 10: 32 28 23 19 14. */
    {"FMJD 4: flying king capture lands on any empty square behind", "W:W10,K46:B37",
     "46x14x37 46x19x37 46x23x37 46x28x37 46x32x37"},
    /* [4] A king cannot jump two pieces standing next to each other (37, 32): no
     * capture, so the only move is 46-41. */
    {"FMJD 4: king cannot jump two adjacent pieces", "W:WK46:B32,37", "46-41"},
    /* [4.13] Landing choice restricted: after 46x37 the landings are 32 28 23 19 14 10
     * 5, but only from 23 can the king go on (NW over 18 to 12, 7 or 1). The
     * sequence must go on, and the majority rule drops the one-piece captures. */
    {"FMJD 4.13: king landing restricted to squares that continue", "W:WK46:B18,37",
     "46x1x18x37 46x7x18x37 46x12x18x37"},
    /* [4] After 46x37 the king may go on straight (23 on the same diagonal, landing
     * 19 14 10 5) or turn at 32 onto 32-49 (over 38, landing 43 or 49). Both take two;
     * no route takes all three. */
    {"FMJD 4: king continues straight or turns", "W:WK46:B23,37,38",
     "46x5x23x37 46x10x23x37 46x14x23x37 46x19x23x37 46x43x37x38 46x49x37x38"},
    /* [4.8, 4.11] Turkish strike. 36x27 (land 18), 18 SE over 29 (land 40), 40 SW over
     * 44 to 49. From 49 the NW diagonal 43 38 32 27 21 16 would take 21 but runs
     * across 27, which was already jumped and still stands: blocked. Were jumped
     * pieces removed at once, 36x16 would take four. */
    {"FMJD 4.8/4.11: Turkish strike, a jumped piece blocks the way", "W:WK36:B21,27,29,44",
     "36x49x27x29x44"},
    /* [4] The same empty square may be crossed twice: 46 x23 (land 19), x13 (land 8),
     * x12 (land 17), then 17-22-28 x33 (land 39 44 50): 28 is crossed on the long
     * diagonal and again on 6-50. */
    {"FMJD 4: the same empty square may be crossed twice", "W:WK46:B12,13,23,33",
     "46x39x12x13x23x33 46x44x12x13x23x33 46x50x12x13x23x33"},
    /* [4.13] Majority rule, a king counts as one piece: the king 45 can take the king
     * on 40 (landing 34 only: 29 blocks, 23 stops 29 being taken), the man 47 can take
     * two men (42 then 32, ending on 27). Two men beat one king. */
    {"FMJD 4.13: majority rule, two men beat one king", "W:W47,K45:B23,29,32,42,K40",
     "47x27x32x42"},
    /* [4.14] Equal counts: the king takes a king, the man takes a man, one piece
     * each; the player chooses freely, so both are legal. */
    {"FMJD 4.14: free choice among equal captures, man or king", "W:W47,K45:B23,29,42,K40",
     "45x34x40 47x38x42"},
    /* [4.13, 4.14] Kings and men count the same: the man 17 takes the kings 12 (land
     * 8) and 13 (land 19); the king 30 takes the man 34 (landing 39 43 48), and from 48
     * the man 31 (land 26). Two each, so both are legal; the king's one-piece capture
     * of 13 (landing 8 or 2, 17 blocks 12) is dropped. */
    {"FMJD 4.13: a king counts as one piece, two kings = two men", "W:W17,K30:BK12,K13,31,34",
     "17x19x12x13 30x26x31x34"},
    /* [4.13] Ending on the start square and duplicate paths: the man 32 goes round the
     * diamond 28 18 17 27 (via 23 12 21) or the other way (via 21 12 23) and ends on
     * 32 both times with the same four pieces: one move, listed once. */
    {"FMJD 4.13: man capture round a diamond, two paths, one move", "W:W32:B17,18,27,28",
     "32x32x17x18x27x28"},
    /* [4] A king capture ending on its own start square (the square counts as empty
     * once the king has left it): round the same diamond clockwise the king ends on
     * 38 43 49 or 32; anticlockwise on 37 41 46 or 32. 32x32 is found both ways and
     * is one move. */
    {"FMJD 4: king capture ending on its start square", "W:WK32:B17,18,27,28",
     "32x32x17x18x27x28 32x37x17x18x27x28 32x38x17x18x27x28 32x41x17x18x27x28 "
     "32x43x17x18x27x28 32x46x17x18x27x28 32x49x17x18x27x28"},
    /* [4, 8] Two paths with different captured pieces are different moves: 43x32 then
     * from 27 NE x22 (18) NW x7 to 1, or from 21 NE x17 (12) NW x7 to 1. */
    {"FMJD 4/8: same from and to, different captured pieces: two moves", "W:WK43:B7,17,22,32",
     "43x1x7x17x32 43x1x7x22x32"},
    /* [4.15] Passing the back row: 13 jumps 8 to 2 (White's promotion row), must go on
     * over 7 to 11, and ends there as a man. As a king on 11 it could also take 22
     * (17 empty, 27 behind); it may not, so exactly two pieces are taken. */
    {"FMJD 4.15: a man passing the back row mid-capture is not promoted", "W:W13:B7,8,22",
     "13x11x7x8"},
    /* [3] Promotion by an ordinary move: 7 (r1) reaches row 1 on 1 or 2. */
    {"FMJD 3: man reaching the far row by a move", "W:W7:B45", "7-1 7-2"},
    /* [4.15] A capture ending on the far row promotes: 12 x8 lands on 3. */
    {"FMJD 4.15: capture ending on the far row (White)", "W:W12:B8", "12x3x8"},
    {"FMJD 4.15: capture ending on the far row (Black)", "B:W44:B39", "39x50x44"},
    /* [7.2] Blocked: 36 faces 31 with 27 behind, 45 faces 40 with 34 behind; men never
     * move backwards. No legal move. */
    {"FMJD 7.2: blocked side has no legal move", "W:W36,45:B27,31,34,40", ""},
    {"FMJD 7.2: no pieces, no legal move (White)", "W:W:B1", ""},
    {"FMJD 7.2: no pieces, no legal move (Black)", "B:W50:B", ""},
    /* [2.8, 3.3] The start position: each of 31-35 has its forward squares free. */
    {"FMJD 2.8: the nine moves of the start position", "W:W31-50:B1-20",
     "31-26 31-27 32-27 32-28 33-28 33-29 34-29 34-30 35-30"},
};

/* ---- helpers ----------------------------------------------------------------------- */

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Split s on spaces into words (pointers into buf); returns the count. */
static int split_words(char *buf, size_t cap, const char *s, char **words, int max)
{
    int n = 0;
    snprintf(buf, cap, "%s", s);
    for (char *tok = strtok(buf, " "); tok && n < max; tok = strtok(NULL, " ")) {
        words[n++] = tok;
    }
    return n;
}

static void join_words(char *out, size_t cap, char **words, int n)
{
    size_t len = 0;
    out[0] = 0;
    for (int i = 0; i < n && len < cap; i++) {
        len += (size_t)snprintf(out + len, cap - len, "%s%s", i ? " " : "", words[i]);
    }
}

static void load(dm_board10 *b, const char *fen)
{
    dm_error err = {{0}, 0, 0};
    dm_status st = dm_board10_from_fen(b, fen, &err);
    if (st != DM_OK) {
        fail_msg("FEN %s rejected: %s", fen, err.message);
    }
}

/* Generate, check the list's own invariants, and return the moves as sorted Hub text. */
static int legal_texts(dm_movelist10 *list, const dm_board10 *b, char (*text)[160], char **ptr)
{
    int n = dm_movegen10_legal(list, b);
    assert_int_equal(n, list->count);
    assert_false(list->overflow);
    assert_int_equal(dm_movegen10_count(b), n);
    int has_capture = n > 0 && list->moves[0].ncapt > 0;
    assert_int_equal(dm_movegen10_has_capture(b) != 0, has_capture);
    for (int i = 0; i < n; i++) {
        const dm_move10 *m = &list->moves[i];
        /* majority rule: every move takes the same number of pieces */
        assert_int_equal(m->ncapt, list->moves[0].ncapt);
        dm_move10_to_text(text[i], 160, b, m, DM_NOTATION_HUB);
        ptr[i] = text[i];
    }
    qsort(ptr, (size_t)n, sizeof *ptr, cmp_str);
    for (int i = 1; i < n; i++) {
        if (!strcmp(ptr[i - 1], ptr[i])) {
            fail_msg("move %s listed twice (same from, to and captured set)", ptr[i]);
        }
    }
    return n;
}

static void run_case(void **state)
{
    const rule_case *rc = *state;
    dm_board10 b;
    load(&b, rc->fen);

    static dm_movelist10 list;
    static char text[DM_MAX_MOVES10][160];
    char *got[DM_MAX_MOVES10];
    int n = legal_texts(&list, &b, text, got);

    char buf[2048];
    char *want[DM_MAX_MOVES10];
    int nw = split_words(buf, sizeof buf, rc->moves, want, DM_MAX_MOVES10);
    qsort(want, (size_t)nw, sizeof *want, cmp_str);

    int same = n == nw;
    for (int i = 0; same && i < n; i++) {
        same = !strcmp(got[i], want[i]);
    }
    if (!same) {
        char g[4096], w[4096];
        join_words(g, sizeof g, got, n);
        join_words(w, sizeof w, want, nw);
        fail_msg("%s\n  FEN      %s\n  expected %d: %s\n  got      %d: %s", rc->name, rc->fen, nw,
                 w, n, g);
    }
}

/* Find the legal move written `hub` (Hub notation) in b, or fail. */
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
    return list.moves[0]; /* not reached */
}

/* ---- promotion (FMJD 3, 4.15) --------------------------------------------------------- */

static void check_promotion(const char *fen, const char *hub, int promotes)
{
    dm_board10 b, after;
    load(&b, fen);
    dm_move10 m = find_move(&b, hub);
    assert_int_equal(dm_move10_is_promotion(&b, &m) != 0, promotes);
    after = b;
    dm_board10_apply(&after, &m);
    int white = b.side == DM_WHITE;
    int king = promotes || dm_board10_piece(&b, m.from) == DM_WHITE_KING ||
               dm_board10_piece(&b, m.from) == DM_BLACK_KING;
    dm_piece want =
        king ? (white ? DM_WHITE_KING : DM_BLACK_KING) : (white ? DM_WHITE_MAN : DM_BLACK_MAN);
    if (dm_board10_piece(&after, m.to) != want) {
        fail_msg("%s in %s: square %d holds piece %d, expected %d", hub, fen, m.to,
                 dm_board10_piece(&after, m.to), want);
    }
    assert_int_equal(dm_board10_piece(&after, m.from), m.from == m.to ? want : DM_EMPTY);
    assert_int_equal(dm_board10_count_kings(&after, b.side),
                     dm_board10_count_kings(&b, b.side) + promotes);
    assert_true(after.hash == dm_board10_compute_hash(&after));
    assert_int_equal(dm_board10_validate(&after, NULL), DM_OK);
    dm_board10_undo(&after, &m);
    assert_true(dm_board10_equal(&after, &b));
    assert_true(after.hash == b.hash);
}

static void test_rules__promotion_by_move(void **state)
{
    (void)state;
    check_promotion("W:W7:B45", "7-1", 1);
    check_promotion("W:W7:B45", "7-2", 1);
    check_promotion("B:WK5:B44", "44-49", 1);
    check_promotion("B:WK5:B44", "44-50", 1);
    check_promotion("W:W33,36,45:B5", "33-28", 0);
    /* a king reaching the far row is not "promoted" again */
    check_promotion("W:WK7:B45", "7-2", 0);
}

static void test_rules__promotion_by_capture_ending_on_far_row(void **state)
{
    (void)state;
    check_promotion("W:W12:B8", "12x3x8", 1);
    check_promotion("B:W44:B39", "39x50x44", 1);
}

static void test_rules__no_promotion_passing_far_row(void **state)
{
    (void)state;
    /* FMJD 4.15: 13x2 (row 1) x11, ends on 11: still a man */
    check_promotion("W:W13:B7,8,22", "13x11x7x8", 0);
}

/* A freshly crowned king moves as a king on its side's next move: after 7-2 and a
 * black reply the piece on 2 flies along 2-35 and 2-6 (FMJD 3). */
static void test_rules__crowned_king_moves_next_turn(void **state)
{
    (void)state;
    dm_board10 b;
    load(&b, "W:W7:B45");
    dm_move10 m = find_move(&b, "7-2");
    dm_board10_apply(&b, &m);
    m = find_move(&b, "45-50");
    dm_board10_apply(&b, &m);
    dm_movelist10 list;
    dm_movegen10_legal(&list, &b);
    /* from 2 (r0,c3): SW 7 11 16; SE 8 13 19 24 30 35 */
    assert_int_equal(list.count, 9);
    for (int i = 0; i < list.count; i++) {
        assert_int_equal(list.moves[i].from, 2);
    }
}

/* ---- capture application (FMJD 4.8: removed only after the move) -------------------- */

static void test_rules__capture_removes_every_jumped_piece(void **state)
{
    (void)state;
    dm_board10 b, after;
    load(&b, "W:WK36:B21,27,29,44");
    dm_move10 m = find_move(&b, "36x49x27x29x44");
    assert_int_equal(m.ncapt, 3);
    int sq[8];
    assert_int_equal(dm_move10_captured(&m, sq, 8), 3);
    assert_int_equal(sq[0], 27);
    assert_int_equal(sq[1], 29);
    assert_int_equal(sq[2], 44);
    after = b;
    dm_board10_apply(&after, &m);
    assert_int_equal(dm_board10_piece(&after, 49), DM_WHITE_KING);
    assert_int_equal(dm_board10_piece(&after, 36), DM_EMPTY);
    assert_int_equal(dm_board10_piece(&after, 27), DM_EMPTY);
    assert_int_equal(dm_board10_piece(&after, 29), DM_EMPTY);
    assert_int_equal(dm_board10_piece(&after, 44), DM_EMPTY);
    assert_int_equal(dm_board10_piece(&after, 21), DM_BLACK_MAN);
    assert_int_equal(after.side, DM_BLACK);
    assert_true(after.hash == dm_board10_compute_hash(&after));
}

static void test_rules__capture_ending_on_start_square(void **state)
{
    (void)state;
    dm_board10 b, after;
    load(&b, "W:WK32:B17,18,27,28");
    dm_move10 m = find_move(&b, "32x32x17x18x27x28");
    assert_int_equal(m.from, 32);
    assert_int_equal(m.to, 32);
    assert_true(m.own == 0);
    after = b;
    dm_board10_apply(&after, &m);
    assert_int_equal(dm_board10_piece(&after, 32), DM_WHITE_KING);
    assert_int_equal(dm_board10_count_men(&after, DM_BLACK), 0);
    assert_int_equal(dm_board10_count_kings(&after, DM_WHITE), 1);
    assert_true(after.hash == dm_board10_compute_hash(&after));
    dm_board10_undo(&after, &m);
    assert_true(dm_board10_equal(&after, &b));

    /* the man's round trip, too */
    load(&b, "W:W32:B17,18,27,28");
    m = find_move(&b, "32x32x17x18x27x28");
    after = b;
    dm_board10_apply(&after, &m);
    assert_int_equal(dm_board10_piece(&after, 32), DM_WHITE_MAN);
    assert_int_equal(dm_board10_count_men(&after, DM_BLACK), 0);
}

/* ---- notation of the rule positions (FMJD 8) --------------------------------------- */

static void expect_text(const char *fen, const char *hub, dm_notation style, const char *want)
{
    dm_board10 b;
    load(&b, fen);
    dm_move10 m = find_move(&b, hub);
    char t[160];
    size_t len = dm_move10_to_text(t, sizeof t, &b, &m, style);
    if (strcmp(t, want) != 0) {
        fail_msg("%s in %s, style %d: got \"%s\", expected \"%s\"", hub, fen, (int)style, t, want);
    }
    assert_int_equal(len, strlen(want));
}

/* Two moves 43x1 with different captured pieces: PDN prints the full paths; a move
 * whose from/to is unique keeps the short form even when it has several paths. */
static void test_rules__pdn_full_path_only_where_needed(void **state)
{
    (void)state;
    const char *fen = "W:WK43:B7,17,22,32";
    expect_text(fen, "43x1x7x22x32", DM_NOTATION_PDN, "43x27x18x1");
    expect_text(fen, "43x1x7x17x32", DM_NOTATION_PDN, "43x21x12x1");
    expect_text(fen, "43x1x7x22x32", DM_NOTATION_FULL, "43x27x18x1");
    expect_text(fen, "43x1x7x17x32", DM_NOTATION_FULL, "43x21x12x1");
    expect_text("W:W32:B17,18,27,28", "32x32x17x18x27x28", DM_NOTATION_PDN, "32x32");
    expect_text("W:WK46:B12,13,23,33", "46x39x12x13x23x33", DM_NOTATION_PDN, "46x39");
    expect_text("W:WK46:B12,13,23,33", "46x39x12x13x23x33", DM_NOTATION_FULL, "46x19x8x17x39");
    expect_text("W:WK36:B21,27,29,44", "36x49x27x29x44", DM_NOTATION_FULL, "36x18x40x49");
}

int main(void)
{
    enum {
        NCASES = sizeof cases / sizeof cases[0]
    };
    static const struct CMUnitTest fixed[] = {
        cmocka_unit_test(test_rules__promotion_by_move),
        cmocka_unit_test(test_rules__promotion_by_capture_ending_on_far_row),
        cmocka_unit_test(test_rules__no_promotion_passing_far_row),
        cmocka_unit_test(test_rules__crowned_king_moves_next_turn),
        cmocka_unit_test(test_rules__capture_removes_every_jumped_piece),
        cmocka_unit_test(test_rules__capture_ending_on_start_square),
        cmocka_unit_test(test_rules__pdn_full_path_only_where_needed),
    };
    enum {
        NFIXED = sizeof fixed / sizeof fixed[0]
    };
    static struct CMUnitTest tests[NCASES + NFIXED];
    for (int i = 0; i < NCASES; i++) {
        tests[i] = (struct CMUnitTest){cases[i].name, run_case, NULL, NULL, (void *)&cases[i]};
    }
    for (int i = 0; i < NFIXED; i++) {
        tests[NCASES + i] = fixed[i];
    }
    return _cmocka_run_group_tests("rules", tests, NCASES + NFIXED, NULL, NULL);
}
