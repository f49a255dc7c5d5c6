/* SPDX-License-Identifier: MIT
 * Bit primitives for 64-bit bitboards (inline wrappers over the GCC builtins). */
#ifndef DM_UTIL_BITS_H
#define DM_UTIL_BITS_H

#include <assert.h>
#include <stdint.h>

/* Number of set bits. */
static inline int bb_count(uint64_t b)
{
    return __builtin_popcountll(b);
}

/* Index of the least significant set bit; b must not be 0. */
static inline int bb_lsb(uint64_t b)
{
    assert(b != 0);
    return __builtin_ctzll(b);
}

/* Index of the most significant set bit; b must not be 0. */
static inline int bb_msb(uint64_t b)
{
    assert(b != 0);
    return 63 - __builtin_clzll(b);
}

/* Index of the least significant set bit, which is cleared from *b; *b != 0. */
static inline int bb_pop_lsb(uint64_t *b)
{
    int i = bb_lsb(*b);
    *b &= *b - 1;
    return i;
}

/* True when b has two or more bits set. */
static inline int bb_has_many(uint64_t b)
{
    return (b & (b - 1)) != 0;
}

/* The single bit at index i (0..63). */
static inline uint64_t bb_bit(int i)
{
    assert(i >= 0 && i < 64);
    return (uint64_t)1 << i;
}

#endif /* DM_UTIL_BITS_H */
