/* SPDX-License-Identifier: MIT
 * core/movegen.c: legal move generation for international draughts (FMJD 3 and 4).
 *
 * Captures are searched depth-first. A jumped piece is removed from the set that can
 * still be captured ("opp_left") but NOT from the occupied squares until the move is
 * over, so it blocks the path and cannot be jumped twice (FMJD 4.8, 4.11, Turkish
 * strike). The capturing piece's start square counts as empty, so a king may pass
 * over it or end there. The majority rule (4.13) lives in add_capture: shorter
 * sequences are dropped, a longer one clears the list. Moves with the same from, to
 * and captured set are the same move; they can only arise with 3 or more captures,
 * so only those are checked against the list. The perft counts of the tests (which
 * count such duplicates once) prove the policy. */
#include <damier/move.h>

#include "core/layout.h"

typedef struct gen_ctx {
    dm_movelist *list;
    int best;           /* pieces taken by the captures in the list (0: none yet) */
    uint64_t empty;     /* empty squares, plus the capturing piece's start square */
    uint64_t kings;     /* kings of both colours, before the move */
    uint64_t promo_row; /* the mover's promotion row */
    int from;           /* bit of the capturing piece */
    int is_king;        /* the capturing piece is a king */
    int count_only;     /* perft leaves: count captures below 3 pieces, list only the rest */
    int counted;        /* captures of `best` pieces counted but not listed */
} gen_ctx;

static inline void list_push(dm_movelist *list, uint64_t own, uint64_t capt, uint64_t kings,
                             int from, int to, int ncapt)
{
    if (list->count >= DM_MAX_MOVES) {
        list->overflow = 1;
        return;
    }
    dm_move *m = &list->moves[list->count++];
    m->own = own;
    m->capt = capt;
    m->kings = kings;
    m->from = (uint8_t)bit_to_sq(from);
    m->to = (uint8_t)bit_to_sq(to);
    m->ncapt = (uint8_t)ncapt;
    m->pad_ = 0;
}

/* FMJD 4.13 majority rule and duplicate removal. */
static void add_capture(gen_ctx *g, int to, uint64_t captured, int n)
{
    dm_movelist *list = g->list;
    if (n < g->best) {
        return;
    }
    if (n > g->best) {
        list->count = 0;
        list->overflow = 0;
        g->counted = 0;
        g->best = n;
    }
    if (n < 3 && g->count_only) {
        g->counted++; /* cannot be a duplicate: nothing to compare */
        return;
    }
    uint64_t own = bb_bit(g->from) ^ bb_bit(to);
    if (n >= 3) {
        for (int i = 0; i < list->count; i++) {
            const dm_move *m = &list->moves[i];
            if (m->capt == captured && m->to == bit_to_sq(to) && m->from == bit_to_sq(g->from)) {
                return;
            }
        }
    }
    uint64_t kings = captured & g->kings;
    if (g->is_king) {
        kings ^= own;
    } else if (bb_bit(to) & g->promo_row) {
        kings ^= bb_bit(to); /* FMJD 4.15: promoted only when the capture ends here */
    }
    list_push(list, own, captured, kings, g->from, to, n);
}

/* A man on bit at, having taken n pieces (captured), looks for the next jump. */
static void man_capture(gen_ctx *g, int at, uint64_t captured, int n, uint64_t opp_left)
{
    int any = 0;
    uint64_t here = bb_bit(at);
#pragma GCC unroll 4
    for (int d = 0; d < DIR_NB; d++) {
        uint64_t mid = bb_step(here, d) & opp_left;
        if (!mid) {
            continue;
        }
        uint64_t land = bb_step(mid, d) & g->empty;
        if (land) {
            any = 1;
            man_capture(g, bb_lsb(land), captured | mid, n + 1, opp_left & ~mid);
        }
    }
    if (!any && n > 0) {
        add_capture(g, at, captured, n);
    }
}

/* A king on bit at tries to capture in direction d; on success it recurses from
 * every landing square and returns 1, else returns 0. */
static int king_capture(gen_ctx *g, int at, int d, uint64_t captured, int n, uint64_t opp_left)
{
    uint64_t occ = BB_ALL & ~g->empty;
    int v = ray_first(at, d, occ);
    if (v < 0 || !((opp_left >> v) & 1)) {
        return 0;
    }
    int w = ray_first(v, d, occ);
    uint64_t landing = layout_tab.ray[d][v];
    if (w >= 0) {
        landing &= ~(layout_tab.ray[d][w] | bb_bit(w));
    }
    if (!landing) {
        return 0;
    }
    captured |= bb_bit(v);
    opp_left &= ~bb_bit(v);
    n++;

    /* Straight on: every landing square sees the same next piece w, so try once. */
    int any = king_capture(g, v, d, captured, n, opp_left);
    /* Turning: from each landing square onto the perpendicular diagonal. */
    int p1 = (d == DIR_NW || d == DIR_SE) ? DIR_NE : DIR_NW;
    int p2 = dir_reverse(p1);
    for (uint64_t l = landing; l;) {
        int at2 = bb_pop_lsb(&l);
        any |= king_capture(g, at2, p1, captured, n, opp_left);
        any |= king_capture(g, at2, p2, captured, n, opp_left);
    }
    if (!any) {
        for (uint64_t l = landing; l;) {
            add_capture(g, bb_pop_lsb(&l), captured, n);
        }
    }
    return 1;
}

/* Men of `men` that can jump an opponent piece in some direction. */
static inline uint64_t men_that_capture(uint64_t men, uint64_t opp, uint64_t empty)
{
    uint64_t c = 0;
#pragma GCC unroll 4
    for (int d = 0; d < DIR_NB; d++) {
        int r = dir_reverse(d);
        c |= bb_step(bb_step(empty, r) & opp, r) & men;
    }
    return c;
}

static inline int king_can_capture(int at, uint64_t opp, uint64_t occ)
{
#pragma GCC unroll 4
    for (int d = 0; d < DIR_NB; d++) {
        int v = ray_first(at, d, occ);
        if (v >= 0 && ((opp >> v) & 1)) {
            uint64_t behind = bb_step(bb_bit(v), d);
            if (behind && !(behind & occ)) {
                return 1;
            }
        }
    }
    return 0;
}

int dm_movegen_has_capture(const dm_board *b)
{
    int c = b->side;
    uint64_t own = b->pieces[c], opp = b->pieces[c ^ 1];
    uint64_t occ = own | opp, empty = BB_ALL & ~occ;
    if (men_that_capture(own & ~b->kings, opp, empty)) {
        return 1;
    }
    for (uint64_t k = own & b->kings; k;) {
        if (king_can_capture(bb_pop_lsb(&k), opp, occ)) {
            return 1;
        }
    }
    return 0;
}

static void gen_captures(gen_ctx *g, const dm_board *b)
{
    int c = b->side;
    uint64_t own = b->pieces[c], opp = b->pieces[c ^ 1];
    uint64_t empty = BB_ALL & ~(own | opp);
    g->kings = b->kings;
    g->promo_row = c == DM_WHITE ? BB_ROW1 : BB_ROW10;

    g->is_king = 0;
    for (uint64_t m = men_that_capture(own & ~b->kings, opp, empty); m;) {
        g->from = bb_pop_lsb(&m);
        g->empty = empty | bb_bit(g->from);
        man_capture(g, g->from, 0, 0, opp);
    }
    g->is_king = 1;
    for (uint64_t k = own & b->kings; k;) {
        g->from = bb_pop_lsb(&k);
        g->empty = empty | bb_bit(g->from);
    #pragma GCC unroll 4
    for (int d = 0; d < DIR_NB; d++) {
            king_capture(g, g->from, d, 0, 0, opp);
        }
    }
}

/* The squares a king on bit at can reach by an ordinary move in direction d. */
static inline uint64_t king_reach(int at, int d, uint64_t occ)
{
    uint64_t ray = layout_tab.ray[d][at];
    int v = ray_first(at, d, occ);
    if (v >= 0) {
        ray &= ~(layout_tab.ray[d][v] | bb_bit(v));
    }
    return ray;
}

/* Ordinary moves for colour c (a constant after inlining, so the shifts are fixed). */
static inline __attribute__((always_inline)) void gen_quiet_c(dm_movelist *list,
                                                             const dm_board *b, int c)
{
    uint64_t own = b->pieces[c], occ = b->pieces[0] | b->pieces[1];
    uint64_t empty = BB_ALL & ~occ;
    uint64_t men = own & ~b->kings;
    uint64_t promo = c == DM_WHITE ? BB_ROW1 : BB_ROW10;
    int d0 = c == DM_WHITE ? DIR_NW : DIR_SW;
#pragma GCC unroll 2
    for (int d = d0; d < d0 + 2; d++) {
        int r = dir_reverse(d);
        for (uint64_t to = bb_step(men, d) & empty; to;) {
            int t = bb_pop_lsb(&to);
            int f = bb_lsb(bb_step(bb_bit(t), r));
            uint64_t own_delta = bb_bit(f) | bb_bit(t);
            list_push(list, own_delta, 0, bb_bit(t) & promo, f, t, 0);
        }
    }
    for (uint64_t k = own & b->kings; k;) {
        int f = bb_pop_lsb(&k);
#pragma GCC unroll 4
        for (int d = 0; d < DIR_NB; d++) {
            for (uint64_t to = king_reach(f, d, occ); to;) {
                int t = bb_pop_lsb(&to);
                uint64_t own_delta = bb_bit(f) | bb_bit(t);
                list_push(list, own_delta, 0, own_delta, f, t, 0);
            }
        }
    }
}

static void gen_quiet(dm_movelist *list, const dm_board *b)
{
    if (b->side == DM_WHITE) {
        gen_quiet_c(list, b, DM_WHITE);
    } else {
        gen_quiet_c(list, b, DM_BLACK);
    }
}

int dm_movegen_legal(dm_movelist *list, const dm_board *b)
{
    gen_ctx g;
    list->count = 0;
    list->overflow = 0;
    g.list = list;
    g.best = 0;
    g.count_only = 0;
    gen_captures(&g, b);
    if (list->count == 0) {
        gen_quiet(list, b); /* FMJD 4.1: only when no capture exists */
    }
    return list->count;
}

int dm_movegen_count(const dm_board *b)
{
    dm_movelist list;
    gen_ctx g;
    list.count = 0;
    list.overflow = 0;
    g.list = &list;
    g.best = 0;
    g.count_only = 1;
    g.counted = 0;
    gen_captures(&g, b);
    if (g.best > 0) {
        return g.counted + list.count;
    }
    int c = b->side;
    uint64_t own = b->pieces[c], occ = b->pieces[0] | b->pieces[1];
    uint64_t empty = BB_ALL & ~occ;
    uint64_t men = own & ~b->kings;
    int n;
    if (c == DM_WHITE) {
        n = bb_count(bb_step(men, DIR_NW) & empty) + bb_count(bb_step(men, DIR_NE) & empty);
    } else {
        n = bb_count(bb_step(men, DIR_SW) & empty) + bb_count(bb_step(men, DIR_SE) & empty);
    }
    for (uint64_t k = own & b->kings; k;) {
        int f = bb_pop_lsb(&k);
#pragma GCC unroll 4
        for (int d = 0; d < DIR_NB; d++) {
            n += bb_count(king_reach(f, d, occ));
        }
    }
    return n;
}
