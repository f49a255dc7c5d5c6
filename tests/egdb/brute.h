/* SPDX-License-Identifier: MIT
 * tests/egdb/brute.h: an independent brute-force endgame solver for the egdb tests.
 * It shares no code with src/egdb: positions are enumerated square by square with
 * dm_board10_put (both sides to move, no colour flip, no index arithmetic), kept in a
 * hash table, their successors found with the public move generator, and the
 * values found by plain minimax iterated to its fixed point over the game graph
 * (memoised: one value per position; a position whose value never settles is a
 * draw, since neither side can force the end). FMJD: a side with no piece or no
 * legal move has lost. br_check_db, the comparison, takes egdb_int.h's eg_mat only to
 * name materials. */
#ifndef DM_TESTS_EGDB_BRUTE_H
#define DM_TESTS_EGDB_BRUTE_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/board10.h"
#include <damier/egdb.h>
#include "core/move10.h"

#include "egdb/egdb_int.h"

enum {
    BR_UNK = 0,
    BR_WIN = 1,
    BR_LOSS = 2,
    BR_DRAW = 3
};

typedef struct br_key {
    uint64_t w, b, k;
    int side;
} br_key;

typedef struct brute {
    br_key *keys; /* positions, in enumeration order */
    uint8_t *val;
    uint32_t n, cap;
    int64_t *slot;   /* hash table: index + 1, 0 = empty */
    uint64_t nslot;  /* power of two */
    uint32_t *first; /* CSR successors: child index, or UINT32_MAX = the mover wins */
    uint32_t *child;
    uint64_t nchild, capc; /* successors stored, room for */
} brute;

static uint64_t br_hash(const br_key *k)
{
    uint64_t h = k->w * 0x9E3779B97F4A7C15ULL ^ k->b * 0xC2B2AE3D27D4EB4FULL ^
                 k->k * 0x165667B19E3779F9ULL ^ (uint64_t)k->side;
    h ^= h >> 29;
    h *= 0xBF58476D1CE4E5B9ULL;
    return h ^ (h >> 32);
}

static br_key br_key_of(const dm_board10 *b)
{
    br_key k = {b->pieces[DM_WHITE], b->pieces[DM_BLACK], b->kings, b->side};
    return k;
}

static int64_t br_find(const brute *br, const br_key *k)
{
    uint64_t i = br_hash(k) & (br->nslot - 1);
    for (;;) {
        int64_t s = br->slot[i];
        if (s == 0) {
            return -1;
        }
        const br_key *o = &br->keys[s - 1];
        if (o->w == k->w && o->b == k->b && o->k == k->k && o->side == k->side) {
            return s - 1;
        }
        i = (i + 1) & (br->nslot - 1);
    }
}

static void br_add(brute *br, const br_key *k)
{
    if (br->n == br->cap) {
        br->cap = br->cap ? br->cap * 2 : 1024;
        br->keys = realloc(br->keys, br->cap * sizeof *br->keys);
    }
    br->keys[br->n++] = *k;
}

/* The pieces of material (wm, wk, bm, bk) in placing order; returns their number. */
static int br_kinds(dm_piece kinds[16], int wm, int wk, int bm, int bk)
{
    int n = 0;
    for (int i = 0; i < wm; i++)
        kinds[n++] = DM_WHITE_MAN;
    for (int i = 0; i < wk; i++)
        kinds[n++] = DM_WHITE_KING;
    for (int i = 0; i < bm; i++)
        kinds[n++] = DM_BLACK_MAN;
    for (int i = 0; i < bk; i++)
        kinds[n++] = DM_BLACK_KING;
    return n;
}

/* Place the pieces of `kinds` (count n) from square `from` on, then recurse to the next
 * kind; every complete placement is added with both sides to move. */
static void br_place(brute *br, dm_board10 *b, const dm_piece *kinds, int nk, int from)
{
    if (nk == 0) {
        for (int side = 0; side < 2; side++) {
            dm_board10_set_side(b, side ? DM_BLACK : DM_WHITE);
            br_key k = br_key_of(b);
            br_add(br, &k);
        }
        return;
    }
    dm_piece p = kinds[0];
    /* The same kind as the next: squares ascending, so each set is placed once. */
    for (int sq = from; sq <= 50; sq++) {
        if (dm_board10_piece(b, sq) != DM_EMPTY) {
            continue;
        }
        if ((p == DM_WHITE_MAN && sq <= 5) || (p == DM_BLACK_MAN && sq >= 46)) {
            continue; /* a man never stands on his own promotion row */
        }
        dm_board10_put(b, sq, p);
        int next = nk > 1 && kinds[1] == p ? sq + 1 : 1;
        br_place(br, b, kinds + 1, nk - 1, next);
        dm_board10_put(b, sq, DM_EMPTY);
    }
}

/* Add every position of material (wm, wk, bm, bk). */
static void br_material(brute *br, eg_mat m, const void *ctx)
{
    (void)ctx;
    dm_piece kinds[16];
    int n = br_kinds(kinds, m.wm, m.wk, m.bm, m.bk);
    dm_board10 b;
    dm_board10_clear(&b);
    br_place(br, &b, kinds, n, 1);
}

/* The successors of position k: the callback passes each child position to
 * br_edge(br, &child) and returns 0, or -1 as soon as br_edge does. */
typedef int (*br_succ_fn)(brute *br, const br_key *k, const void *ctx);

/* Record the move of the position being expanded to child c: the mover wins at once
 * when the opponent (c's side to move) has no piece left. Returns 0, or -1 when c is
 * not among the positions added. */
static int br_edge(brute *br, const br_key *c)
{
    uint32_t ci;
    if (!(c->side == DM_WHITE ? c->w : c->b)) {
        ci = UINT32_MAX; /* the opponent has no piece left: the mover wins */
    } else {
        int64_t f = br_find(br, c);
        if (f < 0) {
            return -1;
        }
        ci = (uint32_t)f;
    }
    if (br->nchild == br->capc) {
        br->capc *= 2;
        br->child = realloc(br->child, br->capc * sizeof *br->child);
    }
    br->child[br->nchild++] = ci;
    return 0;
}

/* Add, with add(br, m, ctx), every material m of 2 to maxp pieces (each side at least
 * one) that keep accepts (NULL: all). */
typedef void (*br_material_fn)(brute *br, eg_mat m, const void *ctx);
static void br_materials(brute *br, int maxp, int (*keep)(eg_mat), br_material_fn add,
                         const void *ctx)
{
    for (int n = 2; n <= maxp; n++) {
        for (int w = 1; w < n; w++) {
            for (int wm = 0; wm <= w; wm++) {
                for (int bm = 0; bm <= n - w; bm++) {
                    eg_mat m = {wm, w - wm, bm, n - w - bm};
                    if (!keep || keep(m)) {
                        add(br, m, ctx);
                    }
                }
            }
        }
    }
}

/* Build the graph over the positions added so far, with the successors that succ
 * gives, and solve it. Every successor must be among them (the caller adds a set of
 * materials closed under captures and promotions) or have a side without pieces.
 * Returns 0, or -1 when one is missing. */
static int br_solve_graph(brute *br, br_succ_fn succ, const void *ctx)
{
    br->nslot = 1;
    while (br->nslot < 2 * (uint64_t)br->n) {
        br->nslot *= 2;
    }
    br->slot = calloc(br->nslot, sizeof *br->slot);
    for (uint32_t i = 0; i < br->n; i++) {
        uint64_t h = br_hash(&br->keys[i]) & (br->nslot - 1);
        while (br->slot[h]) {
            h = (h + 1) & (br->nslot - 1);
        }
        br->slot[h] = (int64_t)i + 1;
    }
    br->first = malloc(((size_t)br->n + 1) * sizeof *br->first);
    br->capc = (uint64_t)br->n * 8;
    br->child = malloc(br->capc * sizeof *br->child);
    br->nchild = 0;
    for (uint32_t i = 0; i < br->n; i++) {
        br->first[i] = (uint32_t)br->nchild;
        if (succ(br, &br->keys[i], ctx) != 0) {
            return -1;
        }
    }
    br->first[br->n] = (uint32_t)br->nchild;
    br->val = calloc(br->n, 1);
    /* Minimax to the fixed point. */
    for (int changed = 1; changed;) {
        changed = 0;
        for (uint32_t i = 0; i < br->n; i++) {
            if (br->val[i] != BR_UNK) {
                continue;
            }
            int all_win = 1, win = 0;
            for (uint32_t c = br->first[i]; c < br->first[i + 1]; c++) {
                uint32_t ci = br->child[c];
                int v = ci == UINT32_MAX ? BR_LOSS : br->val[ci];
                if (v == BR_LOSS) {
                    win = 1;
                    break;
                }
                if (v != BR_WIN) {
                    all_win = 0;
                }
            }
            if (win || all_win) {
                br->val[i] = win ? BR_WIN : BR_LOSS; /* no move at all: a loss */
                changed = 1;
            }
        }
    }
    for (uint32_t i = 0; i < br->n; i++) {
        if (br->val[i] == BR_UNK) {
            br->val[i] = BR_DRAW;
        }
    }
    return 0;
}

/* Successors on the 10x10 board by the public fast move generator. */
static int br_succ10(brute *br, const br_key *k, const void *ctx)
{
    (void)ctx;
    dm_board10 b;
    dm_board10_clear(&b);
    b.pieces[DM_WHITE] = k->w;
    b.pieces[DM_BLACK] = k->b;
    b.kings = k->k;
    b.side = k->side;
    dm_movelist10 list;
    int n = dm_movegen10_legal(&list, &b);
    for (int m = 0; m < n; m++) {
        dm_board10 c = b;
        dm_board10_apply(&c, &list.moves[m]);
        br_key ck = br_key_of(&c);
        if (br_edge(br, &ck) != 0) {
            return -1;
        }
    }
    return 0;
}

/* Solve the international positions added so far (br_solve_graph). */
static int br_solve(brute *br)
{
    return br_solve_graph(br, br_succ10, NULL);
}

static void br_free(brute *br)
{
    free(br->keys);
    free(br->val);
    free(br->slot);
    free(br->first);
    free(br->child);
    memset(br, 0, sizeof *br);
}

#ifdef cmocka_unit_test
/* The W/L/D counts of every slice of db of up to maxp pieces that keep accepts (NULL:
 * all) against counts[wm][wk][bm][bk][value] (White to move, no capture pending);
 * failure messages start with prefix. Returns the slices compared. */
static int br_check_counts(const dm_egdb *db, uint64_t (*counts)[5][5][5][4], int maxp,
                           int (*keep)(eg_mat), const char *prefix)
{
    int slices = 0;
    for (int s = 0; s < dm_egdb_slice_count(db); s++) {
        dm_egdb_slice_info in;
        assert_int_equal(dm_egdb_slice(db, s, &in), DM_OK);
        eg_mat m = {in.wm, in.wk, in.bm, in.bk};
        if (eg_mat_pieces(m) > maxp || (keep && !keep(m))) {
            continue;
        }
        slices++;
        uint64_t *c = counts[in.wm][in.wk][in.bm][in.bk];
        if (c[DM_EGDB_WIN] != in.wins || c[DM_EGDB_LOSS] != in.losses ||
            c[DM_EGDB_DRAW] != in.draws) {
            fail_msg("%s%s: egdb W/L/D %llu/%llu/%llu, brute force %llu/%llu/%llu", prefix, in.name,
                     (unsigned long long)in.wins, (unsigned long long)in.losses,
                     (unsigned long long)in.draws, (unsigned long long)c[DM_EGDB_WIN],
                     (unsigned long long)c[DM_EGDB_LOSS], (unsigned long long)c[DM_EGDB_DRAW]);
        }
    }
    return slices;
}
#endif

/* Solve every material of up to maxp pieces accepted by keep (which must be closed
 * under captures and promotions) and compare each position, either side to move,
 * with dm_egdb_probe, and the W/L/D counts of the slices kept (White to move, no
 * capture pending) with the slice headers. Needs cmocka included before. Checks at
 * least min_positions positions. */
#ifdef cmocka_unit_test
__attribute__((unused)) static void br_check_db(const dm_egdb *db, int maxp, int (*keep)(eg_mat),
                                                uint32_t min_positions)
{
    brute br;
    memset(&br, 0, sizeof br);
    br_materials(&br, maxp, keep, br_material, NULL);
    assert_int_equal(br_solve(&br), 0);
    assert_true(br.n >= min_positions);
    uint64_t(*counts)[5][5][5][4] = calloc(5, sizeof *counts);
    for (uint32_t i = 0; i < br.n; i++) {
        dm_board10 b;
        dm_board10_clear(&b);
        b.pieces[0] = br.keys[i].w;
        b.pieces[1] = br.keys[i].b;
        b.kings = br.keys[i].k;
        b.side = br.keys[i].side;
        b.hash = dm_board10_compute_hash(&b);
        int want = br.val[i] == BR_WIN    ? DM_EGDB_WIN
                   : br.val[i] == BR_LOSS ? DM_EGDB_LOSS
                                          : DM_EGDB_DRAW;
        dm_egdb_value got = egdb_probe10(db, &b, NULL);
        if ((int)got != want) {
            char fen[200];
            dm_board10_to_fen(fen, sizeof fen, &b);
            fail_msg("%s: egdb %s, brute force %s", fen, dm_egdb_value_name(got),
                     dm_egdb_value_name((dm_egdb_value)want));
        }
        if (b.side == DM_WHITE && !dm_movegen10_has_capture(&b)) {
            int wk = dm_board10_count_kings(&b, DM_WHITE),
                bk = dm_board10_count_kings(&b, DM_BLACK);
            int wm = dm_board10_count_men(&b, DM_WHITE), bm = dm_board10_count_men(&b, DM_BLACK);
            counts[wm][wk][bm][bk][want]++;
        }
    }
    br_check_counts(db, counts, maxp, keep, "");
    free(counts);
    br_free(&br);
}
#endif

/* ---- any variant over the public generic API (dm_board, dm_movegen_legal) ------
 * The same solver for the 8x8 databases: positions of variant v placed square by
 * square with dm_board_put (both sides to move), successors by dm_movegen_legal and
 * dm_board_apply, keys the square sets (bit s-1 = square s). */

static br_key brv_key_of(const dm_board *b)
{
    br_key k = {0, 0, 0, b->side};
    for (int sq = 1; sq <= b->variant->squares; sq++) {
        uint64_t bit = UINT64_C(1) << (sq - 1);
        dm_piece p = (dm_piece)b->sq[sq];
        if (p == DM_WHITE_MAN || p == DM_WHITE_KING) {
            k.w |= bit;
        } else if (p == DM_BLACK_MAN || p == DM_BLACK_KING) {
            k.b |= bit;
        }
        if (p == DM_WHITE_KING || p == DM_BLACK_KING) {
            k.k |= bit;
        }
    }
    return k;
}

static void brv_board_of(dm_board *b, const dm_variant *v, const br_key *k)
{
    dm_board_clear(b, v);
    for (int sq = 1; sq <= v->squares; sq++) {
        uint64_t bit = UINT64_C(1) << (sq - 1);
        int king = (k->k & bit) != 0;
        if (k->w & bit) {
            dm_board_put(b, sq, king ? DM_WHITE_KING : DM_WHITE_MAN);
        } else if (k->b & bit) {
            dm_board_put(b, sq, king ? DM_BLACK_KING : DM_BLACK_MAN);
        }
    }
    b->side = k->side;
}

static void brv_place(brute *br, dm_board *b, const dm_piece *kinds, int nk, int from)
{
    if (nk == 0) {
        for (int side = 0; side < 2; side++) {
            b->side = side ? DM_BLACK : DM_WHITE;
            br_key k = brv_key_of(b);
            br_add(br, &k);
        }
        return;
    }
    dm_piece p = kinds[0];
    int n = b->variant->squares, row = b->variant->size / 2;
    for (int sq = from; sq <= n; sq++) {
        if (dm_board_piece(b, sq) != DM_EMPTY) {
            continue;
        }
        if ((p == DM_WHITE_MAN && sq <= row) || (p == DM_BLACK_MAN && sq > n - row)) {
            continue; /* a man never stands on his own promotion row */
        }
        dm_board_put(b, sq, p);
        int next = nk > 1 && kinds[1] == p ? sq + 1 : 1;
        brv_place(br, b, kinds + 1, nk - 1, next);
        dm_board_put(b, sq, DM_EMPTY);
    }
}

/* Add every position of material m of variant ctx (a dm_variant). */
static void brv_material(brute *br, eg_mat m, const void *ctx)
{
    const dm_variant *v = ctx;
    dm_piece kinds[16];
    int n = br_kinds(kinds, m.wm, m.wk, m.bm, m.bk);
    dm_board b;
    dm_board_clear(&b, v);
    brv_place(br, &b, kinds, n, 1);
}

/* Successors in variant ctx (a dm_variant) by the public generic move generator. */
static int brv_succ(brute *br, const br_key *k, const void *ctx)
{
    const dm_variant *v = ctx;
    dm_board b;
    brv_board_of(&b, v, k);
    dm_movelist *list = malloc(sizeof *list);
    int n = dm_movegen_legal(list, &b), rc = 0;
    for (int m = 0; m < n && rc == 0; m++) {
        dm_board c = b;
        dm_board_apply(&c, &list->moves[m]);
        br_key ck = brv_key_of(&c);
        rc = br_edge(br, &ck);
    }
    free(list);
    return rc;
}

/* br_solve over variant v's public generator. */
static int brv_solve(brute *br, const dm_variant *v)
{
    return br_solve_graph(br, brv_succ, v);
}

/* br_check_db for a database of variant v: every position of up to maxp pieces of the
 * materials keep accepts (NULL: all; a set closed under captures and promotions),
 * either side to move, against dm_egdb_probe (the public call on the generic board), and the
 * W/L/D counts of every slice (White to move, no capture pending) against its
 * header. Returns the positions compared. */
#ifdef cmocka_unit_test
__attribute__((unused)) static uint32_t brv_check_db(const dm_egdb *db, const dm_variant *v,
                                                     int maxp, int (*keep)(eg_mat))
{
    brute br;
    memset(&br, 0, sizeof br);
    br_materials(&br, maxp, keep, brv_material, v);
    assert_int_equal(brv_solve(&br, v), 0);
    uint64_t(*counts)[5][5][5][4] = calloc(5, sizeof *counts);
    dm_movelist *list = malloc(sizeof *list);
    for (uint32_t i = 0; i < br.n; i++) {
        dm_board b;
        brv_board_of(&b, v, &br.keys[i]);
        int want = br.val[i] == BR_WIN    ? DM_EGDB_WIN
                   : br.val[i] == BR_LOSS ? DM_EGDB_LOSS
                                          : DM_EGDB_DRAW;
        dm_egdb_value got = dm_egdb_probe(db, &b, NULL);
        if ((int)got != want) {
            char fen[200];
            dm_board_to_fen(fen, sizeof fen, &b, 0);
            fail_msg("%s %s: egdb %s, brute force %s", v->name, fen, dm_egdb_value_name(got),
                     dm_egdb_value_name((dm_egdb_value)want));
        }
        int n = dm_movegen_legal(list, &b);
        int capture = n > 0 && list->moves[0].ncapt > 0;
        if (b.side == DM_WHITE && !capture) {
            int c[5] = {0, 0, 0, 0, 0};
            for (int sq = 1; sq <= v->squares; sq++) {
                c[b.sq[sq] < 5 ? b.sq[sq] : 0]++;
            }
            counts[c[DM_WHITE_MAN]][c[DM_WHITE_KING]][c[DM_BLACK_MAN]][c[DM_BLACK_KING]][want]++;
        }
    }
    free(list);
    char prefix[40];
    snprintf(prefix, sizeof prefix, "%s ", v->name);
    assert_true(br_check_counts(db, counts, maxp, keep, prefix) > 0);
    uint32_t n = br.n;
    free(counts);
    br_free(&br);
    return n;
}
#endif

#endif
