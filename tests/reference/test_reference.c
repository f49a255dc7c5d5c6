/* SPDX-License-Identifier: MIT
 * tests/reference/test_reference.c: the bitboard core (through the public generic
 * API, damier/variant.h) against the independent slow reference, the former
 * mailbox generator (tests/reference/ref_vmovegen.c). Seeded random games in every
 * variant, plus a description with the Italian men-do-not-capture-kings flag (the
 * run-time-rules instantiation): at every ply the two move lists must be equal
 * move for move (from, to, captured set, promotion, and order), the library's
 * dm_move_path of every capture must be the reference's PDN path, and every few
 * plies perft(2) (bulk counting, the fast mode) must match. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <damier/variant.h>

#include "reference/ref_vmovegen.h"
/* The reference is compiled into this test only, never into the library. */
#include "reference/ref_vmovegen.c"

#define GAMES 300
#define MAX_PLIES 160

static long plies_checked; /* positions compared, reported at the end */

static uint64_t rng_next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static void describe(char *buf, size_t cap, const dm_board *b)
{
    dm_board_to_fen(buf, cap, b, 0);
}

/* Move order: by from, to, captured set (the Turkish reference lists its quiet moves
 * square by square, the bitboard generator direction by direction). */
static int by_squares(const void *pa, const void *pb)
{
    const dm_move *a = pa, *b = pb;
    if (a->from != b->from) {
        return a->from - b->from;
    }
    if (a->to != b->to) {
        return a->to - b->to;
    }
    if (a->capt[0] != b->capt[0]) {
        return a->capt[0] < b->capt[0] ? -1 : 1;
    }
    return a->capt[1] < b->capt[1] ? -1 : a->capt[1] > b->capt[1];
}

static void check_same(const dm_movelist *a_in, const dm_movelist *r_in, const dm_board *b,
                       int game, int ply)
{
    char fen[512];
    const dm_movelist *a = a_in, *r = r_in;
    static dm_movelist sa, sr;
    if (b->variant->geometry == DM_GEOM_FULL) { /* the same set, in one order */
        sa = *a_in;
        sr = *r_in;
        qsort(sa.moves, (size_t)sa.count, sizeof sa.moves[0], by_squares);
        qsort(sr.moves, (size_t)sr.count, sizeof sr.moves[0], by_squares);
        a = &sa;
        r = &sr;
    }
    if (a->count != r->count || a->overflow != r->overflow) {
        describe(fen, sizeof fen, b);
        fail_msg("%s game %d ply %d %s: %d moves, reference %d", b->variant->name, game, ply, fen,
                 a->count, r->count);
    }
    for (int i = 0; i < a->count; i++) {
        const dm_move *x = &a->moves[i], *y = &r->moves[i];
        int same = x->from == y->from && x->to == y->to && x->ncapt == y->ncapt &&
                   x->promote == y->promote && x->capt[0] == y->capt[0] && x->capt[1] == y->capt[1];
        if (!same) {
            describe(fen, sizeof fen, b);
            fail_msg("%s game %d ply %d %s: move %d is %d-%d (%d taken, promote %d), "
                     "reference %d-%d (%d taken, promote %d)",
                     b->variant->name, game, ply, fen, i, x->from, x->to, x->ncapt, x->promote,
                     y->from, y->to, y->ncapt, y->promote);
        }
    }
}

/* dm_move_path of every move of the library's list a (the lists already found
 * equal as sets) is the reference's path of the same move (r, paths rp): the PDN 3.0
 * squares where the piece turned or right behind a piece taken going on straight. */
static long paths_checked; /* captures of 2+ pieces whose path was compared */

static void check_paths(const dm_movelist *a, const dm_movelist *r, uint8_t (*rp)[DM_MAX_CAPT],
                        const dm_board *b, int game, int ply)
{
    char fen[512];
    for (int i = 0; i < a->count; i++) {
        const dm_move *x = &a->moves[i];
        uint8_t path[DM_MAX_CAPT];
        int n = dm_move_path(path, DM_MAX_CAPT, b, x);
        int want = x->ncapt > 1 ? x->ncapt - 1 : 0;
        int j = 0;
        while (j < r->count && !dm_move_same(&r->moves[j], x)) {
            j++;
        }
        int same = n == want && j < r->count;
        for (int k = 0; same && k < n; k++) {
            same = path[k] == rp[j][k];
        }
        if (!same) {
            describe(fen, sizeof fen, b);
            fail_msg("%s game %d ply %d %s: move %d-%d: dm_move_path gives %d squares (first %d), "
                     "the reference's path differs",
                     b->variant->name, game, ply, fen, x->from, x->to, n, n > 0 ? path[0] : 0);
        }
        paths_checked += n > 0;
    }
}

static void walk(const dm_variant *v, uint64_t seed)
{
    static dm_movelist mine, ref;
    static uint8_t ref_paths[DM_MAX_MOVES][DM_MAX_CAPT];
    for (int game = 0; game < GAMES; game++) {
        dm_board b;
        dm_board_start(&b, v);
        for (int ply = 0; ply < MAX_PLIES; ply++) {
            dm_movegen_legal(&mine, &b);
            ref_vmovegen_legal(&ref, ref_paths, &b);
            check_same(&mine, &ref, &b, game, ply);
            check_paths(&mine, &ref, ref_paths, &b, game, ply);
            if (ply % 16 == 7) {
                uint64_t x = dm_perft(&b, 2), y = ref_vperft(&b, 2);
                if (x != y) {
                    char fen[512];
                    describe(fen, sizeof fen, &b);
                    fail_msg("%s game %d ply %d %s: perft(2) %llu, reference %llu", v->name, game,
                             ply, fen, (unsigned long long)x, (unsigned long long)y);
                }
            }
            plies_checked++;
            if (mine.count == 0) {
                break;
            }
            dm_board_apply(&b, &mine.moves[rng_next(&seed) % (uint64_t)mine.count]);
        }
    }
}

static void test_reference__random_games_every_variant(void **state)
{
    (void)state;
    for (int id = 0; id < DM_VARIANT_COUNT; id++) {
        long before = paths_checked;
        walk(dm_variant_get((dm_variant_id)id), UINT64_C(0x9E3779B97F4A7C15) + (uint64_t)id);
        printf("%s: %ld capture paths compared\n", dm_variant_get((dm_variant_id)id)->name,
               paths_checked - before);
    }
    assert_true(paths_checked > 0);
}

/* Rules not among the compiled-in sets run through the run-time instantiation. */
static void test_reference__random_games_runtime_rules(void **state)
{
    (void)state;
    dm_variant italianish = *dm_variant_get(DM_VARIANT_BRAZILIAN);
    italianish.men_capture_kings = 0;
    walk(&italianish, 11);
    dm_variant russian12 = *dm_variant_get(DM_VARIANT_CANADIAN);
    russian12.majority = 0;
    russian12.promotion = DM_PROMOTE_CONTINUE_KING;
    walk(&russian12, 12);
    dm_variant english10 = *dm_variant_get(DM_VARIANT_INTERNATIONAL);
    english10.men_capture_back = 0;
    english10.flying_kings = 0;
    english10.promotion = DM_PROMOTE_STOPS;
    walk(&english10, 13);
    /* Turkish with the conflicting promotion reading (draughts.github.io: a man
     * reaching the last rank mid-capture goes on as a king) and with free choice */
    dm_variant turkish_king = *dm_variant_get(DM_VARIANT_TURKISH);
    turkish_king.promotion = DM_PROMOTE_CONTINUE_KING;
    walk(&turkish_king, 14);
    dm_variant turkish_free = *dm_variant_get(DM_VARIANT_TURKISH);
    turkish_free.precedence = DM_PREC_NONE;
    turkish_free.majority = 0;
    walk(&turkish_free, 15);
}

/* Perft where no count is published (breakthrough) or to extend the published ones:
 * the bitboard core against the reference, node counts printed for
 * docs/VARIANT_PERFT.md ("computed here, generator = reference"). */
static void test_reference__perft_unpublished(void **state)
{
    (void)state;
    static const struct {
        dm_variant_id id;
        const char *fen; /* "" = start */
        int depth;
        uint64_t count; /* the count both give at `depth` */
    } cases[] = {
        /* breakthrough: a crowning ends the game (no children); from the FMJD "almost
         * promotion" position every White move crowns; three rows further back the
         * first crowning comes at ply 5 */
        {DM_VARIANT_BREAKTHROUGH, "W:W6-10:B41-45", 3, UINT64_C(0)},
        /* international: 9 81 657 5329 41829 328329; from depth 6 they part */
        {DM_VARIANT_BREAKTHROUGH, "W:W16-20:B31-35", 6, UINT64_C(309993)},
        {DM_VARIANT_BREAKTHROUGH, "", 5, UINT64_C(27117)}, /* = international */
        /* Thai from its own start (8 men each, Black first): no count published */
        {DM_VARIANT_THAI, "", 5, UINT64_C(26592)},
        /* killer and pool from positions with kings */
        /* international (dctl AllKings): 17 79 352 1399 */
        {DM_VARIANT_KILLER, "W:WK31-50:BK1-20", 4, UINT64_C(822)},
        {DM_VARIANT_POOL, "W:WK21,K30,12:BK5,K9,20", 4, UINT64_C(11133)},
        /* Frysk! from its start (5 men each on the back row): no count published */
        {DM_VARIANT_FRYSK, "", 7, UINT64_C(2572197)},
        /* Frisian kings capture in 8 directions (orthogonally along rows and files) */
        {DM_VARIANT_FRISIAN, "W:WK31-50:BK1-20", 4, UINT64_C(1671)},
        {DM_VARIANT_FRISIAN, "W:WK28,33,38:B18,19,23,K30,39,40", 5, UINT64_C(0)},
        /* Turkish (full 8x8 board): the start (kish's KEEP row equals it to depth 6),
         * flying kings among men (pieces removed as jumped, no 180-degree turn), and
         * men next to their crowning rank */
        {DM_VARIANT_TURKISH, "", 6, UINT64_C(931312)},
        {DM_VARIANT_TURKISH, "W:WKa1,Kh8,d4,e4,c3:BKa8,Kh1,d5,e5,c6,f6", 5, UINT64_C(3449)},
        {DM_VARIANT_TURKISH, "W:WKd1,b4,c4,e3,f5,g5:BKe8,c5,d6,f7,g7,b6,h3", 5, UINT64_C(5003)},
        {DM_VARIANT_TURKISH, "W:Wb7,d7,f6,Kc1:Bc8,e8,g8,a7,Kd3,h2", 5, UINT64_C(47007)},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const dm_variant *v = dm_variant_get(cases[i].id);
        dm_board b;
        if (cases[i].fen[0]) {
            dm_error err;
            if (dm_board_from_fen(&b, v, cases[i].fen, &err) != DM_OK) {
                fail_msg("%s %s: %s", v->name, cases[i].fen, err.message);
            }
        } else {
            dm_board_start(&b, v);
        }
        for (int d = 1; d <= cases[i].depth; d++) {
            uint64_t x = dm_perft(&b, d), y = ref_vperft(&b, d);
            printf("%s %s perft(%d) = %llu\n", v->name, cases[i].fen[0] ? cases[i].fen : "start", d,
                   (unsigned long long)x);
            if (x != y) {
                fail_msg("%s %s perft(%d) %llu, reference %llu", v->name, cases[i].fen, d,
                         (unsigned long long)x, (unsigned long long)y);
            }
            if (d == cases[i].depth && x != cases[i].count) {
                fail_msg("%s %s perft(%d) %llu, recorded %llu", v->name, cases[i].fen, d,
                         (unsigned long long)x, (unsigned long long)cases[i].count);
            }
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reference__perft_unpublished),
        cmocka_unit_test(test_reference__random_games_every_variant),
        cmocka_unit_test(test_reference__random_games_runtime_rules),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    printf("%ld positions compared, %ld capture paths\n", plies_checked, paths_checked);
    return rc;
}
