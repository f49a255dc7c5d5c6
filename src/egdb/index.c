/* SPDX-License-Identifier: MIT
 * egdb/index.c: materials and binomial indexing of a slice's positions.
 *
 * A slice holds the positions of one material with White to move. Its index is
 *   ((i_wm * n_bm + i_bm) * n_wk + i_wk) * n_bk + i_bk
 * where each i_x is the colex rank of a set of squares in its own universe:
 *   White men: squares 6-50 (a White man never stands on row 1, his promotion row);
 *   Black men: squares 1-45 (never on row 10); a White and a Black man on the same
 *     square make an index that is not a position (stored as don't care);
 *   White kings: the squares without men, in order;
 *   Black kings: the squares without men or White kings, in order.
 * Colex rank of p0 < p1 < ... < p(k-1): sum of C(p_i, i + 1).
 * The 8x8 variants (Brazilian, Russian, English) index the same way over their 32
 * squares (men on 5-32 and 1-28): eg_binom carries the geometry (eg_geom, defined
 * here for each variant with a database). */
#include <stdio.h>

#include <damier/variant.h>

#include "core/gen.h"
#include "core/layout.h"
#include "egdb/egdb_int.h"
#include "util/bits.h"

/* ---- geometries ------------------------------------------------------------------ */

static uint64_t step10(uint64_t x, int d)
{
    return bb_step(x, d);
}

static int fast10_of(dm_board10 *out, const dm_board *b)
{
    return dm_board_to_board10(out, b) == DM_OK;
}

/* 8x8 layout bit (s-1) + (s-1)/8 holds square s: two rows of 4, then a ghost bit. */
static uint64_t to_compact8(uint64_t x)
{
    uint64_t c = 0;
    for (int q = 0; q < 4; q++) {
        c |= ((x >> (9 * q)) & 0xFF) << (8 * q);
    }
    return c;
}

static uint64_t from_compact8(uint64_t c)
{
    uint64_t x = 0;
    for (int q = 0; q < 4; q++) {
        x |= ((c >> (8 * q)) & 0xFF) << (9 * q);
    }
    return x;
}

static uint64_t flip8(uint64_t c)
{
    c = ((c >> 1) & 0x5555555555555555ULL) | ((c & 0x5555555555555555ULL) << 1);
    c = ((c >> 2) & 0x3333333333333333ULL) | ((c & 0x3333333333333333ULL) << 2);
    c = ((c >> 4) & 0x0F0F0F0F0F0F0F0FULL) | ((c & 0x0F0F0F0F0F0F0F0FULL) << 4);
    c = __builtin_bswap64(c);
    return c >> 32;
}

static uint64_t all8(void)
{
    return from_compact8(UINT64_C(0xFFFFFFFF));
}

static uint64_t step8(uint64_t x, int d)
{
    switch (d) {
        case 0:
            return (x >> 5) & all8();
        case 1:
            return (x >> 4) & all8();
        case 2:
            return (x << 4) & all8();
        default:
            return (x << 5) & all8();
    }
}

/* A quiet move crowns a man when it adds the king bit of its destination only (a
 * king's move toggles two king bits, a man's plain move none). */
static int promo8(const dm_board10 *before, const dm_move10 *m)
{
    (void)before;
    return m->ncapt == 0 && bb_count(m->kings) == 1;
}

static void apply8(dm_board10 *b, const dm_move10 *m)
{
    int c = b->side;
    b->pieces[c] ^= m->own;
    b->pieces[c ^ 1] ^= m->capt;
    b->kings ^= m->kings;
    b->side = c ^ 1;
}

static int fast8_of(dm_board10 *out, const dm_board *b)
{
    dm_gen8_fast_of(out, b);
    return 1;
}

static const eg_geom geom_intl = {DM_VARIANT_INTERNATIONAL,
                                  "international",
                                  50,
                                  5,
                                  1,
                                  eg_to_compact,
                                  eg_from_compact,
                                  eg_flip_compact,
                                  step10,
                                  dm_movegen10_legal,
                                  dm_movegen10_has_capture,
                                  dm_board10_apply,
                                  dm_move10_is_promotion,
                                  fast10_of};
static const eg_geom geom_braz = {
    DM_VARIANT_BRAZILIAN, "brazilian",   32,     4,       1,
    to_compact8,          from_compact8, flip8,  step8,   dm_gen8_legal_fmjd,
    dm_gen8_capture_fmjd, apply8,        promo8, fast8_of};
static const eg_geom geom_rus = {
    DM_VARIANT_RUSSIAN,  "russian",     32,     4,       1,
    to_compact8,         from_compact8, flip8,  step8,   dm_gen8_legal_rus,
    dm_gen8_capture_rus, apply8,        promo8, fast8_of};
static const eg_geom geom_eng = {
    DM_VARIANT_ENGLISH,  "english",     32,     4,       0,
    to_compact8,         from_compact8, flip8,  step8,   dm_gen8_legal_eng,
    dm_gen8_capture_eng, apply8,        promo8, fast8_of};

const eg_geom *eg_geom_of(dm_variant_id v)
{
    switch (v) {
        case DM_VARIANT_INTERNATIONAL:
            return &geom_intl;
        case DM_VARIANT_BRAZILIAN:
            return &geom_braz;
        case DM_VARIANT_RUSSIAN:
            return &geom_rus;
        case DM_VARIANT_ENGLISH:
            return &geom_eng;
        default:
            return NULL;
    }
}

void eg_binom_init(eg_binom *t)
{
    eg_binom_init_geom(t, &geom_intl);
}

void eg_binom_init_geom(eg_binom *t, const eg_geom *g)
{
    t->geom = g;
    for (int n = 0; n <= 50; n++) {
        for (int k = 0; k <= DM_EGDB_MAX_PIECES; k++) {
            if (k == 0) {
                t->c[n][k] = 1;
            } else if (n == 0) {
                t->c[n][k] = 0;
            } else {
                t->c[n][k] = t->c[n - 1][k - 1] + t->c[n - 1][k];
            }
        }
    }
}

void eg_shape_of(eg_shape *out, const eg_binom *t, eg_mat m)
{
    int nsq = t->geom->nsq, men = nsq - t->geom->row;
    out->n_wm = t->c[men][m.wm];
    out->n_bm = t->c[men][m.bm];
    out->n_wk = t->c[nsq - m.wm - m.bm][m.wk];
    out->n_bk = t->c[nsq - m.wm - m.bm - m.wk][m.bk];
    out->size = out->n_wm * out->n_bm * out->n_wk * out->n_bk;
}

/* Layout bit 11q + r (r < 10) holds square 10q + r + 1. */
uint64_t eg_to_compact(uint64_t x)
{
    uint64_t c = 0;
    for (int q = 0; q < 5; q++) {
        c |= ((x >> (11 * q)) & 0x3FF) << (10 * q);
    }
    return c;
}

uint64_t eg_from_compact(uint64_t c)
{
    uint64_t x = 0;
    for (int q = 0; q < 5; q++) {
        x |= ((c >> (10 * q)) & 0x3FF) << (11 * q);
    }
    return x;
}

uint64_t eg_flip_compact(uint64_t c)
{
    /* Reverse 64 bits, then the 50 squares sit at the top. */
    c = ((c >> 1) & 0x5555555555555555ULL) | ((c & 0x5555555555555555ULL) << 1);
    c = ((c >> 2) & 0x3333333333333333ULL) | ((c & 0x3333333333333333ULL) << 2);
    c = ((c >> 4) & 0x0F0F0F0F0F0F0F0FULL) | ((c & 0x0F0F0F0F0F0F0F0FULL) << 4);
    c = __builtin_bswap64(c);
    return c >> 14;
}

void eg_pos_of_board(eg_pos *out, const dm_board10 *b)
{
    uint64_t w = eg_to_compact(b->pieces[DM_WHITE]);
    uint64_t bl = eg_to_compact(b->pieces[DM_BLACK]);
    uint64_t k = eg_to_compact(b->kings);
    if (b->side == DM_WHITE) {
        out->wm = w & ~k;
        out->wk = w & k;
        out->bm = bl & ~k;
        out->bk = bl & k;
    } else {
        out->wm = eg_flip_compact(bl & ~k);
        out->wk = eg_flip_compact(bl & k);
        out->bm = eg_flip_compact(w & ~k);
        out->bk = eg_flip_compact(w & k);
    }
}

void eg_pos_of_board_g(const eg_geom *g, eg_pos *out, const dm_board10 *b)
{
    uint64_t w = g->to_compact(b->pieces[DM_WHITE]);
    uint64_t bl = g->to_compact(b->pieces[DM_BLACK]);
    uint64_t k = g->to_compact(b->kings);
    if (b->side == DM_WHITE) {
        out->wm = w & ~k;
        out->wk = w & k;
        out->bm = bl & ~k;
        out->bk = bl & k;
    } else {
        out->wm = g->flip(bl & ~k);
        out->wk = g->flip(bl & k);
        out->bm = g->flip(w & ~k);
        out->bk = g->flip(w & k);
    }
}

void eg_board_of_pos_g(const eg_geom *g, dm_board10 *out, const eg_pos *p)
{
    out->pieces[DM_WHITE] = g->from_compact(p->wm | p->wk);
    out->pieces[DM_BLACK] = g->from_compact(p->bm | p->bk);
    out->kings = g->from_compact(p->wk | p->bk);
    out->hash = 0;
    out->side = DM_WHITE;
}

eg_mat eg_mat_of(const eg_pos *p)
{
    eg_mat m = {bb_count(p->wm), bb_count(p->wk), bb_count(p->bm), bb_count(p->bk)};
    return m;
}

void eg_board_of_pos(dm_board10 *out, const eg_pos *p)
{
    out->pieces[DM_WHITE] = eg_from_compact(p->wm | p->wk);
    out->pieces[DM_BLACK] = eg_from_compact(p->bm | p->bk);
    out->kings = eg_from_compact(p->wk | p->bk);
    out->hash = 0;
    out->side = DM_WHITE;
}

/* Colex rank of the set bits of set, each bit's universe position being its index
 * minus the number of blocked bits below it (blocked = squares not in the universe). */
static uint64_t rank(const eg_binom *t, uint64_t set, uint64_t blocked)
{
    uint64_t r = 0;
    int i = 1;
    while (set) {
        int s = bb_pop_lsb(&set);
        int p = s - bb_count(blocked & ((UINT64_C(1) << s) - 1));
        r += t->c[p][i++];
    }
    return r;
}

/* The set of k squares of colex rank r; universe position p is the p-th free bit. */
static uint64_t unrank(const eg_binom *t, uint64_t r, int k, uint64_t free_bits)
{
    uint64_t set = 0;
    int top = bb_count(free_bits) - 1;
    for (int i = k; i >= 1; i--) {
        int p = top;
        while (t->c[p][i] > r) {
            p--;
        }
        r -= t->c[p][i];
        top = p - 1;
        /* the p-th free bit */
        uint64_t f = free_bits;
        for (int j = 0; j < p; j++) {
            f &= f - 1;
        }
        set |= f & (~f + 1);
    }
    return set;
}

/* All squares, White men's (6-50 on 10x10, 5-32 on 8x8: not the first row) and
 * Black men's (1-45, 1-28: not the last row). */
#define SQ_ALL(g) ((UINT64_C(1) << (g)->nsq) - 1)
#define ROW_MASK(g) ((UINT64_C(1) << (g)->row) - 1)
#define WM_SQUARES(g) (SQ_ALL(g) & ~ROW_MASK(g))
#define BM_SQUARES(g) (SQ_ALL(g) & ~(ROW_MASK(g) << ((g)->nsq - (g)->row)))

uint64_t eg_index(const eg_binom *t, const eg_shape *s, const eg_pos *p)
{
    uint64_t men = p->wm | p->bm;
    uint64_t i_wm = rank(t, p->wm, ~WM_SQUARES(t->geom));
    uint64_t i_bm = rank(t, p->bm, ~BM_SQUARES(t->geom));
    uint64_t i_wk = rank(t, p->wk, men);
    uint64_t i_bk = rank(t, p->bk, men | p->wk);
    return ((i_wm * s->n_bm + i_bm) * s->n_wk + i_wk) * s->n_bk + i_bk;
}

int eg_unindex(const eg_binom *t, const eg_shape *s, eg_mat m, uint64_t i, eg_pos *p)
{
    uint64_t i_bk = i % s->n_bk;
    i /= s->n_bk;
    uint64_t i_wk = i % s->n_wk;
    i /= s->n_wk;
    uint64_t i_bm = i % s->n_bm;
    uint64_t i_wm = i / s->n_bm;
    const eg_geom *g = t->geom;
    p->wm = unrank(t, i_wm, m.wm, WM_SQUARES(g));
    p->bm = unrank(t, i_bm, m.bm, BM_SQUARES(g));
    if (p->wm & p->bm) {
        p->wk = p->bk = 0;
        return 0;
    }
    uint64_t men = p->wm | p->bm;
    p->wk = unrank(t, i_wk, m.wk, SQ_ALL(g) & ~men);
    p->bk = unrank(t, i_bk, m.bk, SQ_ALL(g) & ~men & ~p->wk);
    return 1;
}

void eg_mat_name(char name[16], eg_mat m)
{
    snprintf(name, 16, "d%d%d%d%d", m.wm, m.wk, m.bm, m.bk);
}

int eg_mat_pieces(eg_mat m)
{
    return m.wm + m.wk + m.bm + m.bk;
}

eg_mat eg_mat_flip(eg_mat m)
{
    eg_mat f = {m.bm, m.bk, m.wm, m.wk};
    return f;
}
