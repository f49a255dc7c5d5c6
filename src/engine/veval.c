/* SPDX-License-Identifier: MIT
 * engine/veval.c: evaluation and position hash of the generic variant engine
 * (vengine.h): material, advancement of men, a little king centralisation, a
 * back-row guard; reversed material for antidraughts. */
#include <damier/vengine.h>

#include "core/variant_int.h"

enum {
    VE_MAN = 100,
    VE_FLYING_KING = 300,
    VE_SHORT_KING = 150, /* English checkers: a king moves one square */
    VE_ADVANCE = 3,      /* per row a man has advanced */
    VE_BACK_GUARD = 6,   /* a man still on its own back row (keeps kings out) */
    VE_KING_CENTRE = 2,  /* per step nearer the centre */
    VE_RACE = 2          /* breakthrough: times the square of the rows advanced (the
                            first king wins: a man near the far row outweighs one) */
};

int dm_vengine_evaluate(const dm_vboard *b)
{
    const dm_variant *v = b->variant;
    int n = v->size;
    int king_value = v->flying_kings ? VE_FLYING_KING : VE_SHORT_KING;
    int material[2] = {0, 0};
    int positional[2] = {0, 0};
    int pieces[2] = {0, 0};
    for (int sq = 1; sq <= v->squares; sq++) {
        int p = b->sq[sq];
        if (p == DM_EMPTY) {
            continue;
        }
        int c = vg_color(p);
        int r = vg_row(v, sq);
        pieces[c]++;
        if (vg_is_man(p)) {
            material[c] += VE_MAN;
            int adv = c == DM_WHITE ? n - 1 - r : r; /* rows from its own back row */
            positional[c] += VE_ADVANCE * adv;
            if (adv == 0) {
                positional[c] += VE_BACK_GUARD;
            }
            if (v->win_on_promotion) {
                positional[c] += VE_RACE * adv * adv;
            }
        } else {
            material[c] += king_value;
            int col = vg_col(v, sq);
            int dr = 2 * r - (n - 1);
            int dc = 2 * col - (n - 1);
            int dist = ((dr < 0 ? -dr : dr) + (dc < 0 ? -dc : dc)) / 2;
            positional[c] += VE_KING_CENTRE * (n - 1 - dist);
        }
    }
    int us = b->side;
    int them = 1 - us;
    if (v->reversed_result) {
        /* Antidraughts: every piece given away is progress; advanced men still
         * matter a little less than in the normal game, so drop them. */
        return (material[them] - material[us]) + 2 * (pieces[them] - pieces[us]);
    }
    return (material[us] - material[them]) + (positional[us] - positional[them]);
}

static uint64_t splitmix64(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

uint64_t dm_vboard_hash(const dm_vboard *b)
{
    uint64_t h = splitmix64(0x5641524941ull + (uint64_t)b->variant->id * 977u);
    if (b->side == DM_BLACK) {
        h ^= 0xA5A5F00DCAFEBEEFull;
    }
    for (int sq = 1; sq <= b->variant->squares; sq++) {
        if (b->sq[sq]) {
            h ^= splitmix64(((uint64_t)b->sq[sq] << 8) | (uint64_t)sq);
        }
    }
    return h;
}
