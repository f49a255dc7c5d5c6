/* SPDX-License-Identifier: MIT
 * tests/egdb/egdb8_common.h: helpers of the 8x8 database tests (test_egdb8.c,
 * test_egdb8_deep.c): make a database in a temporary folder, open it, count its
 * positions as Schaeffer counts checkers positions, and check theorems of the
 * endings slice by slice. Include after cmocka.h and egdb/egdb_int.h. */
#ifndef DM_TESTS_EGDB8_COMMON_H
#define DM_TESTS_EGDB8_COMMON_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <damier/egdb.h>
#include <damier/variant.h>

#include "egdb/egdb_fast.h"
#include "egdb/egdb_int.h"

static void e8_rm_dir(const char *d)
{
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", d);
    if (system(cmd) != 0) {
        fprintf(stderr, "cannot remove %s\n", d);
    }
}

/* Generate variant v's database of up to pieces pieces into a new folder dir. */
static int e8_generate(char dir[64], dm_variant_id v, int pieces)
{
    snprintf(dir, 64, "/tmp/damier-egdb8-test-XXXXXX");
    if (!mkdtemp(dir)) {
        return -1;
    }
    dm_egdb_gen_options o = DM_EGDB_GEN_OPTIONS_INIT;
    o.pieces = pieces;
    o.threads = 2;
    o.variant = v;
    dm_error err;
    if (dm_egdb_generate(dir, &o, &err) != DM_OK) {
        fprintf(stderr, "generate: %s\n", err.message);
        return -1;
    }
    return 0;
}

/* The three 8x8 variants, and one database folder of each (made by e8_setup). */
static const dm_variant_id e8_variants[3] = {DM_VARIANT_RUSSIAN, DM_VARIANT_BRAZILIAN,
                                             DM_VARIANT_ENGLISH};
static char e8_dirs[3][64];

/* Group set-up: the database of up to pieces pieces of each variant into e8_dirs.
 * Returns 0, or -1 when one cannot be made. */
static int e8_setup(int pieces)
{
    for (int i = 0; i < 3; i++) {
        if (e8_generate(e8_dirs[i], e8_variants[i], pieces) != 0) {
            return -1;
        }
    }
    return 0;
}

/* Group tear-down: remove the folders of e8_setup. */
static int e8_teardown(void **state)
{
    (void)state;
    for (int i = 0; i < 3; i++) {
        e8_rm_dir(e8_dirs[i]);
    }
    return 0;
}

static dm_egdb *e8_open(const char *d)
{
    dm_egdb *db = NULL;
    dm_error err;
    assert_int_equal(dm_egdb_open(&db, d, &err), DM_OK);
    return db;
}

__attribute__((unused)) static int e8_find_slice(const dm_egdb *db, const char *name)
{
    for (int s = 0; s < dm_egdb_slice_count(db); s++) {
        dm_egdb_slice_info in;
        dm_egdb_slice(db, s, &in);
        if (!strcmp(in.name, name)) {
            return s;
        }
    }
    return -1;
}

static uint64_t e8_binom(int n, int k)
{
    uint64_t r = 1;
    for (int i = 1; i <= k; i++) {
        r = r * (uint64_t)(n - k + i) / (uint64_t)i;
    }
    return k < 0 || k > n ? 0 : r;
}

/* Positions of n pieces counted as Schaeffer counts them (no side to move, a side
 * without pieces included): the indices of the n-piece slices that are positions
 * (eg_unindex), plus the one-sided placements, m men on 28 squares and n - m kings
 * on the 32 - m others, of either colour. */
static uint64_t e8_schaeffer_count(const dm_egdb *db, int n)
{
    uint64_t total = 0;
    for (int s = 0; s < dm_egdb_slice_count(db); s++) {
        const eg_slice *sl = &db->slices[s];
        if (eg_mat_pieces(sl->mat) != n) {
            continue;
        }
        for (uint64_t i = 0; i < sl->shape.size; i++) {
            eg_pos p;
            total += (uint64_t)eg_unindex(&db->binom, &sl->shape, sl->mat, i, &p);
        }
    }
    for (int m = 0; m <= n; m++) {
        total += 2 * e8_binom(28, m) * e8_binom(32 - m, n - m);
    }
    return total;
}

/* FEN of fast board b of db's variant (for messages). */
static void e8_fen(const dm_egdb *db, char *buf, size_t cap, const dm_board10 *b)
{
    const eg_geom *g = db->binom.geom;
    dm_board v;
    dm_board_clear(&v, dm_variant_get(g->variant));
    uint64_t w = g->to_compact(b->pieces[DM_WHITE]), bl = g->to_compact(b->pieces[DM_BLACK]);
    uint64_t k = g->to_compact(b->kings);
    for (int sq = 1; sq <= g->nsq; sq++) {
        uint64_t bit = UINT64_C(1) << (sq - 1);
        if ((w | bl) & bit) {
            dm_board_put(&v, sq,
                         (w & bit) ? ((k & bit) ? DM_WHITE_KING : DM_WHITE_MAN)
                                   : ((k & bit) ? DM_BLACK_KING : DM_BLACK_MAN));
        }
    }
    v.side = b->side;
    dm_board_to_fen(buf, cap, &v, 0);
}

/* English: every position of two White kings against a Black king, White to move,
 * where neither side could capture, is a database win, except where all three kings
 * stand next to a single corner (squares 3, 4, 7, 8, 11, 12, 15, 16 round h8, or the
 * same turned round the board, s -> 33 - s, round a1: the ends of the long diagonal)
 * and the lone king holds the two there (each move of theirs gives a king away, or
 * leaves one shut in the corner); those draws come in pairs turned round the board.
 * The other draws are all positions where the lone king attacks (Black would have a
 * capture: a fork). Returns the positions checked; *corner gets the single-corner
 * draws. */
__attribute__((unused)) static int e8_two_kings_win(const dm_egdb *db, int *corner)
{
    const eg_geom *g = db->binom.geom;
    eg_mat m = {0, 2, 0, 1};
    const eg_slice *s = eg_db_find(db, m);
    assert_non_null(s);
    int checked = 0, draws = 0, at4 = 0, at29 = 0;
    for (uint64_t i = 0; i < s->shape.size; i++) {
        eg_pos p;
        if (!eg_unindex(&db->binom, &s->shape, m, i, &p)) {
            continue;
        }
        dm_board10 b;
        eg_board_of_pos_g(g, &b, &p);
        if (g->has_capture(&b)) {
            continue;
        }
        dm_board10 bl = b;
        bl.side = DM_BLACK;
        int attacked = g->has_capture(&bl);
        dm_egdb_value v = egdb_lookup10(db, &b, NULL);
        if (v == DM_EGDB_DRAW) {
            draws++;
        }
        if (attacked) {
            continue;
        }
        checked++;
        if (v == DM_EGDB_WIN) {
            continue;
        }
        char fen[200];
        e8_fen(db, fen, sizeof fen, &b);
        uint64_t r4 = 0;
        static const int near4[8] = {3, 4, 7, 8, 11, 12, 15, 16};
        for (int k = 0; k < 8; k++) {
            r4 |= UINT64_C(1) << (near4[k] - 1);
        }
        uint64_t r29 = g->flip(r4), all = p.wk | p.bk;
        if (v != DM_EGDB_DRAW || ((all & ~r4) && (all & ~r29))) {
            fail_msg("two kings against one, %s (no capture either side): %s", fen,
                     dm_egdb_value_name(v));
        }
        at4 += !(all & ~r4);
        at29 += !(all & ~r29);
    }
    assert_int_equal((uint64_t)draws, s->info.draws);
    assert_int_equal(at4, at29);
    *corner = at4 + at29;
    return checked;
}

#endif
