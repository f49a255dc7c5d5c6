/* SPDX-License-Identifier: MIT
 * core/layout.h: the 10x10 bit layout (see core/board10.h for the diagram),
 * square <-> bit conversion, direction shifts, rays and Zobrist keys.
 * The tables are constant, generated at build time by tools/gentables.c. */
#ifndef DM_CORE_LAYOUT_H
#define DM_CORE_LAYOUT_H

#include <stdint.h>

#include "util/bits.h"

/* The 50 real squares: bits 0-53 minus the ghosts 10, 21, 32, 43. */
#define BB_ALL UINT64_C(0x003FF7FEFFDFFBFF)

/* Rows 1 (squares 1-5) and 10 (46-50): promotion rows of White and Black men. */
#define BB_ROW1 UINT64_C(0x000000000000001F)
#define BB_ROW10 (UINT64_C(0x1F) << 49)

/* Directions, by bit offset. N* go towards square 1 (White men's forward),
 * S* towards square 50 (Black men's forward). */
enum {
    DIR_NW = 0,
    DIR_NE = 1,
    DIR_SW = 2,
    DIR_SE = 3,
    DIR_NB = 4
};

/* Shift every bit of b one step in direction d (a compile-time constant in hot code);
 * the result is masked to real squares. */
static inline uint64_t bb_step(uint64_t b, int d)
{
    switch (d) {
        case DIR_NW:
            return (b >> 6) & BB_ALL;
        case DIR_NE:
            return (b >> 5) & BB_ALL;
        case DIR_SW:
            return (b << 5) & BB_ALL;
        default:
            return (b << 6) & BB_ALL;
    }
}

/* The direction opposite to d. */
static inline int dir_reverse(int d)
{
    return 3 - d;
}

/* True when d moves towards higher bit indices (first blocker is the lowest bit). */
static inline int dir_is_up(int d)
{
    return d >= DIR_SW;
}

typedef struct layout_tables {
    uint64_t ray[DIR_NB][64]; /* squares strictly beyond bit b in direction d */
    uint64_t zobrist[4][64];  /* [white man, black man, white king, black king][bit] */
    uint64_t zobrist_side;    /* XOR when Black is to move */
} layout_tables;

/* The tables (constant data generated at build time, dm_tables.c in the build
 * folder). Accessed as an object (not through a pointer) so hot code addresses it
 * directly. */
extern const layout_tables layout_tab;

/* Square 1..50 -> bit 0..53. */
static inline int sq_to_bit(int sq)
{
    return (sq - 1) + (sq - 1) / 10;
}

/* Bit of a real square -> square 1..50 (undefined for ghost bits). */
static inline int bit_to_sq(int bit)
{
    return bit - bit / 11 + 1;
}

/* The first occupied bit of occ along the ray from bit b in direction d, or -1. */
static inline int ray_first(int b, int d, uint64_t occ)
{
    uint64_t hit = layout_tab.ray[d][b] & occ;
    if (!hit) {
        return -1;
    }
    return dir_is_up(d) ? bb_lsb(hit) : bb_msb(hit);
}

/* Zobrist key of a piece: colour 0/1, king 0/1, at bit b. */
static inline uint64_t zobrist_key(int color, int king, int b)
{
    return layout_tab.zobrist[color + 2 * king][b];
}

#endif /* DM_CORE_LAYOUT_H */
