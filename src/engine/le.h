/* SPDX-License-Identifier: MIT
 * engine/le.h: little-endian 16-, 32- and 64-bit fields of the engine's file formats
 * and their FNV-1a checksum (weights, evalfile.c; self-play samples, sample.c; the
 * opening book, book.c). */
#ifndef DM_ENGINE_LE_H
#define DM_ENGINE_LE_H

#include <stddef.h>
#include <stdint.h>

static inline uint16_t le_get16(const unsigned char *p)
{
    return (uint16_t)(p[0] | p[1] << 8);
}

static inline void le_put16(unsigned char *p, uint16_t v)
{
    p[0] = (unsigned char)v;
    p[1] = (unsigned char)(v >> 8);
}

static inline uint32_t le_get32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline void le_put32(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)v;
    p[1] = (unsigned char)(v >> 8);
    p[2] = (unsigned char)(v >> 16);
    p[3] = (unsigned char)(v >> 24);
}

static inline uint64_t le_get64(const unsigned char *p)
{
    return (uint64_t)le_get32(p) | (uint64_t)le_get32(p + 4) << 32;
}

static inline void le_put64(unsigned char *p, uint64_t v)
{
    le_put32(p, (uint32_t)v);
    le_put32(p + 4, (uint32_t)(v >> 32));
}

/* The 32-bit FNV-1a hash of n bytes: the files' trailing checksum. */
static inline uint32_t fnv1a(const unsigned char *p, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++) {
        h = (h ^ p[i]) * 16777619u;
    }
    return h;
}

#endif /* DM_ENGINE_LE_H */
