/* SPDX-License-Identifier: MIT
 * engine/le.h: little-endian 32- and 64-bit fields of the engine's file formats
 * (weights, evalfile.c; self-play samples, sample.c). */
#ifndef DM_ENGINE_LE_H
#define DM_ENGINE_LE_H

#include <stdint.h>

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

#endif /* DM_ENGINE_LE_H */
