/* SPDX-License-Identifier: MIT
 * tests/property/prop.h: what the property tests share: a seeded random number
 * generator (the seed is printed at the start; DM_PROP_SEED=N in the environment
 * replays another one), random games and random legal positions of every variant,
 * and the failure report (seed, variant, ply, FEN) that makes a failure replayable.
 * Header-only: each test_prop_*.c is its own runner (tests/CMakeLists.txt). Include it
 * after cmocka.h. */
#ifndef DM_TESTS_PROP_H
#define DM_TESTS_PROP_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/board10.h"
#include "core/move10.h"
#include <damier/variant.h>

/* The run's seed: DM_PROP_SEED, else a fixed default, so that a test run is
 * deterministic and a failure can be replayed with the seed it prints. */
#define PROP_DEFAULT_SEED 20261201u

static uint64_t prop_seed; /* the run's seed */
static uint64_t prop_rng;  /* generator state */

/* Where the test is, for the failure report. */
static struct {
    const char *what;    /* the property */
    const dm_variant *v; /* the variant, NULL when none */
    int game;            /* game or position number */
    int ply;             /* ply within it, -1 when none */
    char fen[600];       /* the position, "" when none */
} prop_at;

static inline void prop_seed_init(void)
{
    const char *s = getenv("DM_PROP_SEED");
    prop_seed = s && *s ? strtoull(s, NULL, 10) : PROP_DEFAULT_SEED;
    prop_rng = prop_seed * 0x9E3779B97F4A7C15ull + 1;
    print_message("property tests: seed %llu (replay with DM_PROP_SEED=%llu)\n",
                  (unsigned long long)prop_seed, (unsigned long long)prop_seed);
}

/* Every test case starts from the run's seed mixed with its own number, so that
 * one case can be replayed alone (cmocka's CMOCKA_TEST_ABORT / filters). */
static inline void prop_case_seed(unsigned k)
{
    prop_rng = (prop_seed + k) * 0x9E3779B97F4A7C15ull + 1;
}

static inline uint64_t prop_next(void)
{
    /* splitmix64 */
    uint64_t z = (prop_rng += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Uniform in 0..n-1 (n > 0). */
static inline int prop_below(int n)
{
    return (int)(prop_next() % (uint64_t)n);
}

static inline const dm_variant *prop_variant(int id)
{
    const dm_variant *v = dm_variant_get((dm_variant_id)id);
    assert_non_null(v);
    return v;
}

/* Record where we are: variant, game, ply and the position b (generic board). */
static inline void prop_where(const char *what, const dm_board *b, int game, int ply)
{
    prop_at.what = what;
    prop_at.v = b ? b->variant : NULL;
    prop_at.game = game;
    prop_at.ply = ply;
    prop_at.fen[0] = 0;
    if (b) {
        dm_board_to_fen(prop_at.fen, sizeof prop_at.fen, b, 0);
    }
}

/* The same for a fast 10x10 board (international). */
static inline void prop_where_board(const char *what, const dm_board10 *b, int game, int ply)
{
    prop_at.what = what;
    prop_at.v = dm_variant_get(DM_VARIANT_INTERNATIONAL);
    prop_at.game = game;
    prop_at.ply = ply;
    dm_board10_to_fen(prop_at.fen, sizeof prop_at.fen, b);
}

/* Fail with everything needed to replay: seed, variant, game, ply, FEN, and why. */
#define PROP_FAIL(...)                                                                             \
    do {                                                                                           \
        char why_[8192];                                                                           \
        snprintf(why_, sizeof why_, __VA_ARGS__);                                                  \
        fail_msg("%s: seed %llu, variant %s, game %d, ply %d, FEN \"%s\": %s",                     \
                 prop_at.what ? prop_at.what : "?", (unsigned long long)prop_seed,                 \
                 prop_at.v ? prop_at.v->name : "-", prop_at.game, prop_at.ply, prop_at.fen, why_); \
    } while (0)

#define PROP_CHECK(cond, ...)                                                                      \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            PROP_FAIL(__VA_ARGS__);                                                                \
        }                                                                                          \
    } while (0)

/* Row of square sq (0 = the top row, White's promotion row). */
static inline int prop_row(const dm_variant *v, int sq)
{
    return (sq - 1) / (v->geometry == DM_GEOM_FULL ? v->size : v->size / 2);
}

/* A random piece for square sq: kings with probability king_pct %, and no man on
 * its own promotion row (it becomes a king there). */
static inline dm_piece prop_piece(const dm_variant *v, int sq, int king_pct)
{
    int white = prop_below(2) == 0;
    int king = prop_below(100) < king_pct;
    if (!king && white && prop_row(v, sq) == 0) {
        king = 1;
    }
    if (!king && !white && prop_row(v, sq) == v->size - 1) {
        king = 1;
    }
    return white ? (king ? DM_WHITE_KING : DM_WHITE_MAN) : (king ? DM_BLACK_KING : DM_BLACK_MAN);
}

/* A random legal placement of variant v: n pieces on distinct squares (at most
 * v->squares), kings with probability king_pct %, random side to move. */
static inline void prop_random_position(dm_board *b, const dm_variant *v, int n, int king_pct)
{
    dm_board_clear(b, v);
    if (n > v->squares) {
        n = v->squares;
    }
    for (int placed = 0; placed < n;) {
        int sq = 1 + prop_below(v->squares);
        if (b->sq[sq]) {
            continue;
        }
        assert_int_equal(dm_board_put(b, sq, prop_piece(v, sq, king_pct)), DM_OK);
        placed++;
    }
    b->side = prop_below(2);
    assert_int_equal(dm_board_validate(b, NULL), DM_OK);
}

/* A position with exactly kings kings (and men more men), for the 30+ kings cases. */
static inline void prop_random_kings(dm_board *b, const dm_variant *v, int kings, int men)
{
    dm_board_clear(b, v);
    if (kings > v->squares) {
        kings = v->squares;
    }
    if (kings + men > v->squares) {
        men = v->squares - kings;
    }
    for (int placed = 0; placed < kings + men;) {
        int sq = 1 + prop_below(v->squares);
        if (b->sq[sq]) {
            continue;
        }
        dm_piece p = prop_piece(v, sq, placed < kings ? 100 : 0);
        if (placed >= kings && (p == DM_WHITE_KING || p == DM_BLACK_KING)) {
            continue; /* a man drawn on its promotion row: try another square */
        }
        assert_int_equal(dm_board_put(b, sq, p), DM_OK);
        placed++;
    }
    b->side = prop_below(2);
    assert_int_equal(dm_board_validate(b, NULL), DM_OK);
}

/* The same move: from, to, captured set and promotion (dm_move's identity). */
static inline int prop_same_vmove(const dm_move *a, const dm_move *b)
{
    return a->from == b->from && a->to == b->to && a->ncapt == b->ncapt &&
           a->capt[0] == b->capt[0] && a->capt[1] == b->capt[1] && a->promote == b->promote;
}

/* Index of m in list, or -1. */
static inline int prop_find_vmove(const dm_movelist *list, const dm_move *m)
{
    for (int i = 0; i < list->count; i++) {
        if (prop_same_vmove(&list->moves[i], m)) {
            return i;
        }
    }
    return -1;
}

#endif /* DM_TESTS_PROP_H */
