/* SPDX-License-Identifier: MIT
 * engine/tt.h: the transposition table shared by all search threads.
 *
 * Layout: a power-of-two array of 64-byte buckets (one cache line), each holding four
 * 16-byte entries { key ^ data, data }. A reader accepts an entry only when
 * (word0 ^ word1) == key: a torn write by another thread (one word old, one new)
 * fails that check, so entries need no lock (the "lockless hashing" XOR trick). The
 * bucket is chosen by the low bits of the Zobrist key; the full 64-bit key is the
 * verification.
 *
 * data (64 bits):  bits 0-15 score (int16)   16-23 depth (0..255)   24-25 bound
 *                  26-34 move index + 1 (0 = none)   40-47 generation
 * The move is stored as its index in the position's generated move list: the
 * generator's order is deterministic, so the index names the move exactly, even a
 * king capture that shares from and to with another one.
 *
 * Replacement: an entry with the same key is overwritten (keeping its move when the
 * new result has none); otherwise the entry with the lowest depth - 8 * age, where
 * age counts searches since it was written. */
#ifndef DM_ENGINE_TT_H
#define DM_ENGINE_TT_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

enum {
    TT_NONE = 0,
    TT_UPPER = 1,
    TT_LOWER = 2,
    TT_EXACT = 3
};

typedef struct tt_entry {
    _Atomic uint64_t check; /* key ^ data */
    _Atomic uint64_t data;
} tt_entry;

typedef struct tt_table {
    tt_entry *entries;    /* bucket_count * 4 entries, 64-byte aligned */
    uint64_t bucket_mask; /* buckets - 1 */
    size_t bytes;         /* allocated size */
    unsigned generation;  /* bumped by every search, 8 bits used */
} tt_table;

/* What a probe returns. */
typedef struct tt_hit {
    int score; /* as stored (the caller adjusts win scores by ply) */
    int depth;
    int bound; /* TT_UPPER, TT_LOWER, TT_EXACT */
    int move;  /* index in the move list, or -1 */
} tt_hit;

/* Allocate mib MiB (rounded down to a power of two of buckets); 0 or DM_ENOMEM. */
int tt_alloc(tt_table *t, size_t mib);
void tt_release(tt_table *t);
void tt_clear(tt_table *t);
void tt_new_search(tt_table *t);

/* Look key up; 1 and *out on a hit. */
int tt_probe(const tt_table *t, uint64_t key, tt_hit *out);

/* Store a result (move = index or -1). */
void tt_store(tt_table *t, uint64_t key, int score, int depth, int bound, int move);

/* Hint the CPU to fetch key's bucket. */
static inline void tt_prefetch(const tt_table *t, uint64_t key)
{
    __builtin_prefetch(&t->entries[(key & t->bucket_mask) * 4]);
}

#endif /* DM_ENGINE_TT_H */
