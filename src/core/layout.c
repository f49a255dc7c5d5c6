/* SPDX-License-Identifier: MIT
 * core/layout.c: builds the layout tables once, before main() runs. */
#include "core/layout.h"

layout_tables layout_tab;
#define tables layout_tab

/* splitmix64: a fixed, well-mixed sequence so hashes are the same on every run. */
static uint64_t splitmix64(uint64_t *state)
{
    uint64_t z = (*state += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

__attribute__((constructor)) static void layout_init(void)
{
    for (int d = 0; d < DIR_NB; d++) {
        for (int b = 0; b < 64; b++) {
            uint64_t ray = 0;
            if ((BB_ALL >> b) & 1) {
                uint64_t cur = bb_step(bb_bit(b), d);
                while (cur) {
                    ray |= cur;
                    cur = bb_step(cur, d);
                }
            }
            tables.ray[d][b] = ray;
        }
    }
    uint64_t seed = UINT64_C(0x0D0A11E5D0A11E50);
    for (int k = 0; k < 4; k++) {
        for (int b = 0; b < 64; b++) {
            tables.zobrist[k][b] = splitmix64(&seed);
        }
    }
    tables.zobrist_side = splitmix64(&seed);
}
