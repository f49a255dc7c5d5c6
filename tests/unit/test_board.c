/* SPDX-License-Identifier: MIT
 * tests/unit/test_board.c: the position value type: squares and pieces, counts,
 * validation, the incremental Zobrist hash (checked against the from-scratch hash after
 * every apply and undo of deterministic random games), undo, and the Hub position
 * string. */
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
    if (dm_board10_from_fen(b, fen, &err) != DM_OK) {
        fail_msg("FEN %s rejected: %s", fen, err.message);
    }
}

static void test_board__clear(void **state)
{
    (void)state;
    dm_board10 b;
    memset(&b, 0xFF, sizeof b);
    dm_board10_clear(&b);
    for (int sq = 1; sq <= DM_SQUARES10; sq++) {
        assert_int_equal(dm_board10_piece(&b, sq), DM_EMPTY);
    }
    assert_int_equal(b.side, DM_WHITE);
    assert_true(b.hash == dm_board10_compute_hash(&b));
    assert_int_equal(dm_board10_validate(&b, NULL), DM_OK);
}

/* FMJD 2.8: Black men on 1-20, White men on 31-50, 21-30 empty, White to move. */
static void test_board__start(void **state)
{
    (void)state;
    dm_board10 b;
    dm_board10_start(&b);
    for (int sq = 1; sq <= DM_SQUARES10; sq++) {
        dm_piece want = sq <= 20 ? DM_BLACK_MAN : sq >= 31 ? DM_WHITE_MAN : DM_EMPTY;
        if (dm_board10_piece(&b, sq) != want) {
            fail_msg("start position: square %d holds %d, expected %d", sq,
                     dm_board10_piece(&b, sq), want);
        }
    }
    assert_int_equal(b.side, DM_WHITE);
    assert_int_equal(dm_board10_count_men(&b, DM_WHITE), 20);
    assert_int_equal(dm_board10_count_men(&b, DM_BLACK), 20);
    assert_int_equal(dm_board10_count_kings(&b, DM_WHITE), 0);
    assert_int_equal(dm_board10_count_kings(&b, DM_BLACK), 0);
    assert_true(b.hash == dm_board10_compute_hash(&b));
    assert_int_equal(dm_board10_validate(&b, NULL), DM_OK);
}

static void test_board__put_and_piece(void **state)
{
    (void)state;
    dm_board10 b;
    dm_board10_clear(&b);
    static const dm_piece kinds[] = {DM_WHITE_MAN, DM_BLACK_MAN, DM_WHITE_KING, DM_BLACK_KING};
    /* every square, every kind, read back; the hash follows each change */
    for (int sq = 1; sq <= DM_SQUARES10; sq++) {
        for (int k = 0; k < 4; k++) {
            assert_int_equal(dm_board10_put(&b, sq, kinds[k]), DM_OK);
            assert_int_equal(dm_board10_piece(&b, sq), kinds[k]);
            assert_true(b.hash == dm_board10_compute_hash(&b));
        }
        assert_int_equal(dm_board10_put(&b, sq, DM_EMPTY), DM_OK);
        assert_int_equal(dm_board10_piece(&b, sq), DM_EMPTY);
        assert_true(b.hash == 0);
    }
    /* squares do not alias each other */
    assert_int_equal(dm_board10_put(&b, 1, DM_BLACK_MAN), DM_OK);
    assert_int_equal(dm_board10_put(&b, 50, DM_WHITE_KING), DM_OK);
    assert_int_equal(dm_board10_put(&b, 25, DM_WHITE_MAN), DM_OK);
    assert_int_equal(dm_board10_put(&b, 26, DM_BLACK_KING), DM_OK);
    for (int sq = 1; sq <= DM_SQUARES10; sq++) {
        dm_piece want = sq == 1    ? DM_BLACK_MAN
                        : sq == 50 ? DM_WHITE_KING
                        : sq == 25 ? DM_WHITE_MAN
                        : sq == 26 ? DM_BLACK_KING
                                   : DM_EMPTY;
        assert_int_equal(dm_board10_piece(&b, sq), want);
    }
    assert_int_equal(dm_board10_count_men(&b, DM_WHITE), 1);
    assert_int_equal(dm_board10_count_kings(&b, DM_WHITE), 1);
    assert_int_equal(dm_board10_count_men(&b, DM_BLACK), 1);
    assert_int_equal(dm_board10_count_kings(&b, DM_BLACK), 1);
    /* bad squares and pieces: refused, board unchanged */
    dm_board10 before = b;
    assert_int_equal(dm_board10_put(&b, 0, DM_WHITE_MAN), DM_EINVAL);
    assert_int_equal(dm_board10_put(&b, 51, DM_WHITE_MAN), DM_EINVAL);
    assert_int_equal(dm_board10_put(&b, -7, DM_EMPTY), DM_EINVAL);
    assert_int_equal(dm_board10_put(&b, 10, (dm_piece)5), DM_EINVAL);
    assert_int_equal(dm_board10_put(&b, 10, (dm_piece)-1), DM_EINVAL);
    assert_true(dm_board10_equal(&b, &before));
    assert_true(b.hash == before.hash);
    assert_int_equal(dm_board10_piece(&b, 0), DM_EMPTY);
    assert_int_equal(dm_board10_piece(&b, 51), DM_EMPTY);
    assert_int_equal(dm_board10_piece(&b, -1), DM_EMPTY);
    assert_int_equal(dm_board10_piece(&b, 1000), DM_EMPTY);
}

static void test_board__hash_differs_by_side(void **state)
{
    (void)state;
    dm_board10 w, b;
    dm_board10_start(&w);
    b = w;
    dm_board10_set_side(&b, DM_BLACK);
    assert_int_equal(b.side, DM_BLACK);
    assert_true(w.hash != b.hash);
    assert_true(b.hash == dm_board10_compute_hash(&b));
    assert_false(dm_board10_equal(&w, &b));
    dm_board10_set_side(&b, DM_BLACK); /* setting the same side twice changes nothing */
    assert_true(b.hash == dm_board10_compute_hash(&b));
    dm_board10_set_side(&b, DM_WHITE);
    assert_true(dm_board10_equal(&w, &b));
    assert_true(w.hash == b.hash);
    /* and a piece's colour and kind matter */
    dm_board10 x, y;
    dm_board10_clear(&x);
    dm_board10_clear(&y);
    dm_board10_put(&x, 28, DM_WHITE_MAN);
    dm_board10_put(&y, 28, DM_WHITE_KING);
    assert_true(x.hash != y.hash);
    dm_board10_put(&y, 28, DM_BLACK_MAN);
    assert_true(x.hash != y.hash);
    dm_board10_put(&y, 28, DM_WHITE_MAN);
    assert_true(x.hash == y.hash);
}

/* The hash is a fixed function of the position: the same on every run (engines store
 * it in files and opening books). */
static void test_board__hash_is_stable(void **state)
{
    (void)state;
    dm_board10 a, b;
    dm_board10_start(&a);
    load(&b, "W:W31-50:B1-20");
    assert_true(a.hash == b.hash);
    assert_true(a.hash != 0);
}

static void test_board__validate(void **state)
{
    (void)state;
    dm_board10 b;
    dm_error err;
    dm_board10_clear(&b);
    dm_board10_put(&b, 3, DM_WHITE_MAN);
    assert_int_equal(dm_board10_validate(&b, &err), DM_EINVAL);
    assert_non_null(strstr(err.message, "square 3"));
    dm_board10_clear(&b);
    dm_board10_put(&b, 48, DM_BLACK_MAN);
    assert_int_equal(dm_board10_validate(&b, &err), DM_EINVAL);
    assert_non_null(strstr(err.message, "square 48"));
    dm_board10_clear(&b);
    dm_board10_put(&b, 3, DM_WHITE_KING);
    dm_board10_put(&b, 48, DM_BLACK_KING);
    assert_int_equal(dm_board10_validate(&b, &err), DM_OK);
    /* hand-broken boards */
    dm_board10_start(&b);
    b.pieces[DM_WHITE] |= b.pieces[DM_BLACK] & (0 - b.pieces[DM_BLACK]); /* overlap */
    assert_int_equal(dm_board10_validate(&b, &err), DM_EINVAL);
    assert_non_null(strstr(err.message, "both"));
    dm_board10_start(&b);
    b.side = 2;
    assert_int_equal(dm_board10_validate(&b, NULL), DM_EINVAL);
    dm_board10_clear(&b);
    b.kings = 1; /* a king without a colour */
    assert_int_equal(dm_board10_validate(&b, NULL), DM_EINVAL);
    dm_board10_clear(&b);
    b.pieces[DM_WHITE] = UINT64_C(1) << 63; /* outside the 50 squares */
    assert_int_equal(dm_board10_validate(&b, NULL), DM_EINVAL);
}

/* ---- random games: apply/undo and the incremental hash ------------------------------ */

static uint64_t rng_state = UINT64_C(0x2545F4914F6CDD1D);

static uint32_t rng(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (uint32_t)((rng_state * UINT64_C(0x2545F4914F6CDD1D)) >> 32);
}

static int total_pieces(const dm_board10 *b)
{
    return dm_board10_count_men(b, DM_WHITE) + dm_board10_count_men(b, DM_BLACK) +
           dm_board10_count_kings(b, DM_WHITE) + dm_board10_count_kings(b, DM_BLACK);
}

/* Play random legal games from `fen`; after every apply and every undo the hash must
 * equal the hash computed from scratch, and undo must restore the board exactly. */
static long play_random_games(const char *fen, int games, int max_plies)
{
    enum {
        MAX_PLY = 400
    };
    static dm_board10 stack[MAX_PLY + 1];
    static dm_move10 played[MAX_PLY];
    long plies = 0;
    dm_board10 start;
    load(&start, fen);
    for (int g = 0; g < games; g++) {
        dm_board10 b = start;
        int n = 0;
        while (n < max_plies && n < MAX_PLY) {
            dm_movelist10 list;
            if (dm_movegen10_legal(&list, &b) == 0) {
                break;
            }
            const dm_move10 *m = &list.moves[rng() % (unsigned)list.count];
            stack[n] = b;
            played[n] = *m;
            int before = total_pieces(&b);
            int promo = dm_move10_is_promotion(&b, m);
            int mover = b.side;
            int kings_before = dm_board10_count_kings(&b, mover);
            dm_board10_apply(&b, m);
            n++;
            plies++;
            if (b.hash != dm_board10_compute_hash(&b)) {
                char t[160];
                dm_move10_to_text(t, sizeof t, &stack[n - 1], m, DM_NOTATION_HUB);
                fail_msg("game %d ply %d: hash out of step after %s", g, n, t);
            }
            assert_int_equal(b.side, mover ^ 1);
            assert_int_equal(total_pieces(&b), before - m->ncapt);
            assert_int_equal(dm_board10_validate(&b, NULL), DM_OK);
            /* kings of the mover: +1 on promotion, never fewer */
            assert_int_equal(dm_board10_count_kings(&b, mover), kings_before + promo);
            /* undo and redo this ply at once */
            dm_board10_undo(&b, m);
            assert_true(dm_board10_equal(&b, &stack[n - 1]));
            assert_true(b.hash == stack[n - 1].hash);
            dm_board10_apply(&b, m);
        }
        /* take everything back, one ply at a time */
        while (n > 0) {
            n--;
            dm_board10_undo(&b, &played[n]);
            if (!dm_board10_equal(&b, &stack[n]) || b.hash != stack[n].hash ||
                b.hash != dm_board10_compute_hash(&b)) {
                fail_msg("game %d: undo of ply %d does not restore the position", g, n + 1);
            }
        }
        assert_true(dm_board10_equal(&b, &start));
    }
    return plies;
}

static void test_board__hash_incremental_over_random_games(void **state)
{
    (void)state;
    long plies = 0;
    plies += play_random_games("W:W31-50:B1-20", 60, 300);
    plies +=
        play_random_games("B:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46:BK17,K24", 30, 200);
    plies += play_random_games("W:WK46,K50,31-35:BK1,K5,16-20", 30, 200);
    assert_true(plies > 2000);
}

/* ---- Hub position string ------------------------------------------------------------- */

static void test_board__hub_round_trip(void **state)
{
    (void)state;
    dm_board10 b, again;
    char s[64];
    dm_board10_start(&b);
    assert_int_equal(dm_board10_to_hub(s, sizeof s, &b), 51);
    assert_string_equal(s, "Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww");
    assert_int_equal(dm_board10_from_hub(&again, s, NULL), DM_OK);
    assert_true(dm_board10_equal(&b, &again));
    assert_true(b.hash == again.hash);

    load(&b, "B:WK10,K15,18,24,27,28:B12,16,20,K22,K25,K29");
    dm_board10_to_hub(s, sizeof s, &b);
    assert_string_equal(s, "BeeeeeeeeeWebeeWbewebeBewBewwBeeeeeeeeeeeeeeeeeeeee");
    assert_int_equal(s[0], 'B');
    assert_int_equal(s[10], 'W'); /* king on 10 */
    assert_int_equal(s[12], 'b');
    assert_int_equal(s[22], 'B');
    assert_int_equal(s[28], 'w');
    assert_int_equal(s[50], 'e');
    assert_int_equal(dm_board10_from_hub(&again, s, NULL), DM_OK);
    assert_true(dm_board10_equal(&b, &again));
    assert_true(b.hash == again.hash);

    /* too small a buffer: nothing but an empty string, and the length it needs */
    char small[51];
    memset(small, 'z', sizeof small);
    assert_int_equal(dm_board10_to_hub(small, sizeof small, &b), 51);
    assert_int_equal(small[0], 0);
}

static void expect_hub_error(const char *pos, dm_status st, int col, const char *what)
{
    dm_board10 b;
    memset(&b, 0x33, sizeof b);
    dm_board10 sentinel = b;
    dm_error err;
    memset(&err, 0, sizeof err);
    dm_status got = dm_board10_from_hub(&b, pos, &err);
    if (got != st || err.column != col || !strstr(err.message, what)) {
        fail_msg("Hub position \"%s\": got %d column %d \"%s\"; expected %d column %d with \"%s\"",
                 pos, (int)got, err.column, err.message, (int)st, col, what);
    }
    assert_memory_equal(&b, &sentinel, sizeof b);
}

static void test_board__hub_errors(void **state)
{
    (void)state;
    const char *start = "Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww";
    char s[80];
    expect_hub_error("Xbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww", DM_EPARSE, 1, "side");
    expect_hub_error("", DM_EPARSE, 1, "side");
    expect_hub_error("Wbbbb", DM_EPARSE, 6, "5 characters");
    snprintf(s, sizeof s, "%s", start);
    s[25] = 'x';
    expect_hub_error(s, DM_EPARSE, 26, "square 25");
    snprintf(s, sizeof s, "%se", start);
    expect_hub_error(s, DM_EPARSE, 52, "longer");
    snprintf(s, sizeof s, "%s", start);
    s[2] = 'w'; /* a white man on square 2 */
    expect_hub_error(s, DM_EINVAL, 3, "square 2");
    snprintf(s, sizeof s, "%s", start);
    s[47] = 'b'; /* a black man on square 47 */
    expect_hub_error(s, DM_EINVAL, 48, "square 47");
    dm_board10 b;
    assert_int_equal(dm_board10_from_hub(&b, NULL, NULL), DM_EINVAL);
    assert_int_equal(dm_board10_from_hub(NULL, start, NULL), DM_EINVAL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_board__clear),
        cmocka_unit_test(test_board__start),
        cmocka_unit_test(test_board__put_and_piece),
        cmocka_unit_test(test_board__hash_differs_by_side),
        cmocka_unit_test(test_board__hash_is_stable),
        cmocka_unit_test(test_board__validate),
        cmocka_unit_test(test_board__hash_incremental_over_random_games),
        cmocka_unit_test(test_board__hub_round_trip),
        cmocka_unit_test(test_board__hub_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
