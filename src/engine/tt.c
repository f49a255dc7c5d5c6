/* SPDX-License-Identifier: MIT
 * engine/tt.c: the lock-free transposition table (design in tt.h). */
#define _DEFAULT_SOURCE
#include "engine/tt.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <damier/status.h>

#define BUCKET 4

static inline uint64_t pack(int score, int depth, int bound, int move, unsigned gen)
{
    return (uint64_t)(uint16_t)(int16_t)score | (uint64_t)(depth & 0xFF) << 16 |
           (uint64_t)(bound & 3) << 24 | (uint64_t)((move + 1) & 0x1FF) << 26 |
           (uint64_t)(gen & 0xFF) << 40;
}

static inline int data_depth(uint64_t d)
{
    return (int)((d >> 16) & 0xFF);
}

static inline unsigned data_gen(uint64_t d)
{
    return (unsigned)((d >> 40) & 0xFF);
}

static inline int data_move(uint64_t d)
{
    return (int)((d >> 26) & 0x1FF) - 1;
}

int tt_alloc(tt_table *t, size_t mib)
{
    size_t bytes = mib << 20, buckets = 1;
    while (buckets * 2 * 64 <= bytes) {
        buckets *= 2;
    }
    /* Tables of 2 MiB and more are aligned to 2 MiB and offered to the kernel as
     * huge pages: a probe is a random access, and fewer TLB misses make it faster. */
    size_t align = buckets * 64 >= ((size_t)2 << 20) ? (size_t)2 << 20 : 64;
    tt_entry *e = aligned_alloc(align, buckets * 64);
    if (!e) {
        return DM_ENOMEM;
    }
#ifdef MADV_HUGEPAGE
    if (align > 64) {
        madvise(e, buckets * 64, MADV_HUGEPAGE);
    }
#endif
    t->entries = e;
    t->bucket_mask = buckets - 1;
    t->bytes = buckets * 64;
    t->generation = 0;
    tt_clear(t);
    return 0;
}

void tt_release(tt_table *t)
{
    free(t->entries);
    t->entries = NULL;
}

void tt_clear(tt_table *t)
{
    /* All-zero words are a valid "empty" entry: check ^ data == 0 matches only key 0,
     * and data 0 has bound TT_NONE, which probe rejects. */
    memset((void *)t->entries, 0, t->bytes);
    t->generation = 0;
}

void tt_new_search(tt_table *t)
{
    t->generation = (t->generation + 1) & 0xFF;
}

int tt_probe(const tt_table *t, uint64_t key, tt_hit *out)
{
    tt_entry *b = &t->entries[(key & t->bucket_mask) * BUCKET];
    for (int i = 0; i < BUCKET; i++) {
        uint64_t d = atomic_load_explicit(&b[i].data, memory_order_relaxed);
        uint64_t c = atomic_load_explicit(&b[i].check, memory_order_relaxed);
        if ((c ^ d) == key && ((d >> 24) & 3) != TT_NONE) {
            out->score = (int16_t)(uint16_t)(d & 0xFFFF);
            out->depth = data_depth(d);
            out->bound = (int)((d >> 24) & 3);
            out->move = data_move(d);
            return 1;
        }
    }
    return 0;
}

void tt_store(tt_table *t, uint64_t key, int score, int depth, int bound, int move)
{
    tt_entry *b = &t->entries[(key & t->bucket_mask) * BUCKET];
    unsigned gen = t->generation;
    int victim = 0, worst = 1 << 30;
    for (int i = 0; i < BUCKET; i++) {
        uint64_t d = atomic_load_explicit(&b[i].data, memory_order_relaxed);
        uint64_t c = atomic_load_explicit(&b[i].check, memory_order_relaxed);
        if ((c ^ d) == key) {
            if (move < 0) {
                move = data_move(d);
            }
            /* Keep a deeper result of this search unless the new one is exact. */
            if (bound != TT_EXACT && data_gen(d) == gen && data_depth(d) > depth + 2) {
                return;
            }
            victim = i;
            break;
        }
        int age = (int)((gen - data_gen(d)) & 0xFF);
        int value = data_depth(d) - 8 * age;
        if (((d >> 24) & 3) == TT_NONE) {
            value = -(1 << 20);
        }
        if (value < worst) {
            worst = value;
            victim = i;
        }
    }
    if (depth < 0) {
        depth = 0;
    }
    uint64_t d = pack(score, depth > 255 ? 255 : depth, bound, move, gen);
    atomic_store_explicit(&b[victim].data, d, memory_order_relaxed);
    atomic_store_explicit(&b[victim].check, key ^ d, memory_order_relaxed);
}
