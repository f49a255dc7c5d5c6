/* SPDX-License-Identifier: MIT
 * src/jump/jump_int.h: bit-set primitives of the jumping games (layer jump only). */
#ifndef DM_JUMP_INT_H
#define DM_JUMP_INT_H

#include <damier/jump.h>

static inline int jset_has(const dm_jset *s, int i)
{
    return (int)((s->w[i >> 6] >> (i & 63)) & 1u);
}

static inline void jset_add(dm_jset *s, int i)
{
    s->w[i >> 6] |= (uint64_t)1 << (i & 63);
}

static inline void jset_del(dm_jset *s, int i)
{
    s->w[i >> 6] &= ~((uint64_t)1 << (i & 63));
}

static inline void jset_or(dm_jset *a, const dm_jset *b)
{
    for (int w = 0; w < 4; w++) {
        a->w[w] |= b->w[w];
    }
}

static inline int jset_count(const dm_jset *s)
{
    int n = 0;
    for (int w = 0; w < 4; w++) {
        n += __builtin_popcountll(s->w[w]);
    }
    return n;
}

/* The pieces the side to move may move: its own, or in the capture game (食棋, option
 * capture) the pegs of the board, which belong to no seat and are kept in seat A's set
 * (every seat moves any peg). */
static inline int jpos_mover_seat(const dm_jrules *r, const dm_jpos *p)
{
    return (r->options & DM_JOPT_CAPTURE) ? 0 : p->to_move;
}

/* dm_jsearch_multi with the two-player search's transposition table on or off
 * (use_tt 0: the plain alpha-beta search of fixed depth; the tests compare the two). */
dm_status jsearch_run(const dm_jrules *r, const dm_jpos *p, int depth, dm_jmulti method, int use_tt,
                      dm_jsearch_result *out, dm_error *err);

/* The lowest member >= from, or -1. */
static inline int jset_next(const dm_jset *s, int from)
{
    for (int w = from >> 6; w < 4 && from < 256; w++) {
        uint64_t m = s->w[w];
        if (w == from >> 6) {
            m &= ~(uint64_t)0 << (from & 63);
        }
        if (m) {
            return w * 64 + __builtin_ctzll(m);
        }
    }
    return -1;
}

/* Where a jump from s in direction d lands with occupancy occ, or -1: over the
 * adjacent piece to the square straight beyond; with DM_JOPT_SUPER_JUMP over the first
 * piece along the line, the squares before it empty, to the square as far beyond it
 * with the squares between empty too. */
static inline int jump_land(const dm_jrules *r, const dm_jset *occ, int s, int d)
{
    int k = 0, q = s;
    do {
        q = r->nb[q][d];
        k++;
        if (q < 0) {
            return -1;
        }
    } while (!jset_has(occ, q) && (r->options & DM_JOPT_SUPER_JUMP));
    if (!jset_has(occ, q)) {
        return -1;
    }
    for (int j = 0; j < k; j++) {
        q = r->nb[q][d];
        if (q < 0 || jset_has(occ, q)) {
            return -1;
        }
    }
    return q;
}

#endif
