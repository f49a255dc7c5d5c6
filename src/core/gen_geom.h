/* SPDX-License-Identifier: MIT
 * core/gen_geom.h: the board geometry half of the move generator template: the
 * bitset type, masks, the four diagonal steps, rays and square <-> bit conversion of
 * one board size. Included once per geometry file (gen8.c, gen10.c, gen12.c) after
 * defining:
 *   GEN_N        board size n (8, 10, 12)
 *   GEN_PREFIX   name prefix token (gen8_, ...): every name below is GEN_PREFIX##x
 *   GEN_BB       the bitset type (uint64_t for 8x8 and 10x10, gen_u128 for 12x12)
 *   GEN_RAY(d,b) the ray table entry: squares strictly beyond bit b in direction d
 *   GEN_POS      position type with fields BB pieces[2], BB kings, int side
 *   GEN_MOVE     move type with BB own, capt, kings and uint8_t from, to, ncapt
 *   GEN_LIST     move list type with int count, overflow and GEN_MOVE moves[]
 *   GEN_MAX_MOVES capacity of GEN_LIST
 * Layout (core/board10.h generalised): h = n/2 squares a row, bit of square s is
 * (s-1) + (s-1)/n, a ghost bit after every two rows; so 35 bits (8x8), 54 (10x10),
 * 77 (12x12). Stepping towards square 1 is >> h (NE) or >> h+1 (NW), towards the
 * last square << h (SW) or << h+1 (SE); masking with the real squares drops steps
 * off the board. */
#ifndef GEN_N
#error "define GEN_N and the other geometry macros before including gen_geom.h"
#endif

#include <stdint.h>

#include "core/gen.h"

#define GEN_CAT_(a, b) a##b
#define GEN_CAT(a, b) GEN_CAT_(a, b)
#define P(x) GEN_CAT(GEN_PREFIX, x)
#define GEN_ALWAYS static inline __attribute__((always_inline))

typedef GEN_BB P(bb);

#define GEN_H (GEN_N / 2)
#define GEN_BITS (GEN_N * GEN_N / 2 + GEN_H - 1)
#define GEN_ONE ((GEN_BB)1)
#define GEN_GHOST(g) ((g) <= GEN_H - 2 ? GEN_ONE << ((g) * (GEN_N + 1) + GEN_N) : (GEN_BB)0)
/* The n*n/2 real squares. */
#define GEN_ALL                                                                                    \
    ((((GEN_ONE << (GEN_BITS - 1)) << 1) - 1) &                                                    \
     ~(GEN_GHOST(0) | GEN_GHOST(1) | GEN_GHOST(2) | GEN_GHOST(3) | GEN_GHOST(4)))
/* White men's promotion row (squares 1..h) and Black men's (the last h squares). */
#define GEN_ROW_W ((GEN_ONE << GEN_H) - 1)
#define GEN_ROW_B (((GEN_ONE << GEN_H) - 1) << (GEN_BITS - GEN_H))

/* Directions: 0 NW, 1 NE go towards square 1 (White men's forward), 2 SW, 3 SE; the
 * orthogonal ones of Frisian captures (gen_rules.orthogonal) 4 N (two rows towards
 * square 1: the next playing square of the file), 5 E (the next playing square of
 * the row, to the right), 6 S, 7 W. The reverse of d is 3 - d on diagonals, d ^ 2 on
 * orthogonals (P(rev)). */
enum {
    P(NW) = 0,
    P(NE) = 1,
    P(SW) = 2,
    P(SE) = 3,
    P(N) = 4,
    P(E) = 5,
    P(S) = 6,
    P(W) = 7
};

/* Squares first / last in their row (a step W / E from them leaves the board). */
GEN_ALWAYS GEN_BB P(row_end)(int last)
{
    GEN_BB m = 0;
    for (int r = 0; r < GEN_N; r++) {
        m |= GEN_ONE << (r * GEN_H + r / 2 + (last ? GEN_H - 1 : 0));
    }
    return m;
}

GEN_ALWAYS int P(rev)(int d)
{
    return d < 4 ? 3 - d : d ^ 2;
}

/* Directions whose steps go towards square 1 (lower bits). */
GEN_ALWAYS int P(dir_up)(int d)
{
    return d < 2 || d == 4 || d == 7;
}

/* Bit offset of one step in direction d (negative towards square 1). */
GEN_ALWAYS int P(dir_off)(int d)
{
    switch (d) {
        case 0:
            return -(GEN_H + 1);
        case 1:
            return -GEN_H;
        case 2:
            return GEN_H;
        case 3:
            return GEN_H + 1;
        case 4:
            return -(GEN_N + 1);
        case 5:
            return 1;
        case 6:
            return GEN_N + 1;
        default:
            return -1;
    }
}

/* Every bit of b one step in diagonal direction d < 4 (a constant in hot code). */
GEN_ALWAYS GEN_BB P(dstep)(GEN_BB b, int d)
{
    switch (d & 3) {
        case 0:
            return (b >> (GEN_H + 1)) & GEN_ALL;
        case 1:
            return (b >> GEN_H) & GEN_ALL;
        case 2:
            return (b << GEN_H) & GEN_ALL;
        default:
            return (b << (GEN_H + 1)) & GEN_ALL;
    }
}

/* Every bit of b one step in direction d (a constant in hot code), on real squares. */
GEN_ALWAYS GEN_BB P(step)(GEN_BB b, int d)
{
    switch (d) {
        case 0:
            return (b >> (GEN_H + 1)) & GEN_ALL;
        case 1:
            return (b >> GEN_H) & GEN_ALL;
        case 2:
            return (b << GEN_H) & GEN_ALL;
        case 3:
            return (b << (GEN_H + 1)) & GEN_ALL;
        case 4:
            return (b >> (GEN_N + 1)) & GEN_ALL;
        case 5:
            return ((b & ~P(row_end)(1)) << 1) & GEN_ALL;
        case 6:
            return (b << (GEN_N + 1)) & GEN_ALL;
        default:
            return ((b & ~P(row_end)(0)) >> 1) & GEN_ALL;
    }
}

/* True when a man of colour side moves forward in direction d. */
GEN_ALWAYS int P(forward)(int d, int side)
{
    return (d < 2) == (side == DM_WHITE);
}

GEN_ALWAYS GEN_BB P(bit)(int i)
{
    return GEN_ONE << i;
}

#if GEN_N == 12
GEN_ALWAYS int P(lsb)(GEN_BB b)
{
    uint64_t lo = (uint64_t)b;
    return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll((uint64_t)(b >> 64));
}
GEN_ALWAYS int P(msb)(GEN_BB b)
{
    uint64_t hi = (uint64_t)(b >> 64);
    return hi ? 127 - __builtin_clzll(hi) : 63 - __builtin_clzll((uint64_t)b);
}
GEN_ALWAYS int P(count)(GEN_BB b)
{
    return __builtin_popcountll((uint64_t)b) + __builtin_popcountll((uint64_t)(b >> 64));
}
#else
GEN_ALWAYS int P(lsb)(GEN_BB b)
{
    return __builtin_ctzll(b);
}
GEN_ALWAYS int P(msb)(GEN_BB b)
{
    return 63 - __builtin_clzll(b);
}
GEN_ALWAYS int P(count)(GEN_BB b)
{
    return __builtin_popcountll(b);
}
#endif

/* Lowest set bit of *b, cleared from *b (*b != 0). */
GEN_ALWAYS int P(pop)(GEN_BB *b)
{
    int i = P(lsb)(*b);
    *b &= *b - 1;
    return i;
}

/* Square 1..n*n/2 <-> bit. */
GEN_ALWAYS int P(sq_to_bit)(int sq)
{
    return (sq - 1) + (sq - 1) / GEN_N;
}
GEN_ALWAYS int P(bit_to_sq)(int bit)
{
    return bit - bit / (GEN_N + 1) + 1;
}

/* Squares strictly beyond bit b in direction d: the ray tables on diagonals, steps
 * on orthogonals (Frisian only, so not tabulated). */
static __attribute__((noinline, unused)) GEN_BB P(oray)(int d, int b)
{
    GEN_BB r = 0;
    for (GEN_BB x = P(step)(P(bit)(b), d); x; x = P(step)(x, d)) {
        r |= x;
    }
    return r;
}

GEN_ALWAYS GEN_BB P(ray)(int d, int b)
{
    return d < 4 ? GEN_RAY(d, b) : P(oray)(d, b);
}

/* The same on the four diagonals only (d < 4): the table and no test of d beyond
 * d >= 2, for the generators without orthogonal captures. */
GEN_ALWAYS int P(dray_first)(int b, int d, GEN_BB occ)
{
    GEN_BB hit = GEN_RAY(d & 3, b) & occ;
    if (!hit) {
        return -1;
    }
    return d >= 2 ? P(lsb)(hit) : P(msb)(hit);
}

/* First occupied bit of occ beyond bit b in direction d, or -1. */
GEN_ALWAYS int P(ray_first)(int b, int d, GEN_BB occ)
{
    GEN_BB hit = P(ray)(d, b) & occ;
    if (!hit) {
        return -1;
    }
    return P(dir_up)(d) ? P(msb)(hit) : P(lsb)(hit);
}

/* Squares a flying king on bit at reaches in diagonal direction d < 4 over empty
 * squares (ordinary king moves are diagonal in every variant). */
GEN_ALWAYS GEN_BB P(reach)(int at, int d, GEN_BB occ)
{
    GEN_BB ray = GEN_RAY(d & 3, at);
    int v = P(dray_first)(at, d, occ);
    if (v >= 0) {
        ray &= ~(GEN_RAY(d & 3, v) | P(bit)(v));
    }
    return ray;
}

/* Make a move: XOR its deltas into pos and pass the turn. Its own inverse up to the
 * side: P(unmake) restores the position. No hash (dm_board10_apply adds it). */
GEN_ALWAYS void P(make)(GEN_POS *pos, const GEN_MOVE *m)
{
    int c = pos->side;
    pos->pieces[c] ^= m->own;
    pos->pieces[c ^ 1] ^= m->capt;
    pos->kings ^= m->kings;
    pos->side = c ^ 1;
}
GEN_ALWAYS void P(unmake)(GEN_POS *pos, const GEN_MOVE *m)
{
    int c = pos->side ^ 1;
    pos->side = c;
    pos->pieces[c] ^= m->own;
    pos->pieces[c ^ 1] ^= m->capt;
    pos->kings ^= m->kings;
}

/* A mailbox board of this size as bitboards. */
GEN_ALWAYS void P(from_vboard)(GEN_POS *pos, const dm_board *b)
{
    GEN_BB p[5] = {0, 0, 0, 0, 0};
    for (int sq = 1; sq <= GEN_N * GEN_N / 2; sq++) {
        p[b->sq[sq] < 5 ? b->sq[sq] : 0] |= P(bit)(P(sq_to_bit)(sq));
    }
    pos->pieces[DM_WHITE] = p[DM_WHITE_MAN] | p[DM_WHITE_KING];
    pos->pieces[DM_BLACK] = p[DM_BLACK_MAN] | p[DM_BLACK_KING];
    pos->kings = p[DM_WHITE_KING] | p[DM_BLACK_KING];
    pos->side = b->side;
}

/* ---- the geometry hooks of the search (engine/search_impl.h) -------------------
 * What the search needs to know of the board beyond bit sets, so that it is written
 * once for this diagonal geometry and the full board (core/gen_geom_full.h). */

#define GEN_SQUARES (GEN_N * GEN_N / 2)

/* Squares of row r (0 = squares 1..h, White's far side). */
GEN_ALWAYS GEN_BB P(row_mask)(int r)
{
    return ((GEN_ONE << GEN_H) - 1) << (r * GEN_H + r / 2);
}

/* Row (0 = White's far side) and column (0 = White's left) of square sq. */
GEN_ALWAYS void P(sq_rc)(int sq, int *r, int *c)
{
    *r = (sq - 1) / GEN_H;
    *c = 2 * ((sq - 1) % GEN_H) + ((*r & 1) ? 0 : 1);
}

/* The side to move has some ordinary move (asked when it has no capture). */
GEN_ALWAYS int P(has_quiet_move)(const GEN_POS *b)
{
    int c = b->side;
    GEN_BB own = b->pieces[c], empty = GEN_ALL & ~(b->pieces[0] | b->pieces[1]);
    GEN_BB men = own & ~b->kings, kings = own & b->kings;
    GEN_BB fwd = c == DM_WHITE ? P(dstep)(empty, P(SE)) | P(dstep)(empty, P(SW))
                               : P(dstep)(empty, P(NE)) | P(dstep)(empty, P(NW));
    if (men & fwd) {
        return 1;
    }
    if (kings) {
        GEN_BB around = P(dstep)(empty, P(SE)) | P(dstep)(empty, P(SW)) | P(dstep)(empty, P(NE)) |
                        P(dstep)(empty, P(NW));
        return (kings & around) != 0;
    }
    return 0;
}
