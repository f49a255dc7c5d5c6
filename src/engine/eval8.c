/* SPDX-License-Identifier: MIT
 * engine/eval8.c: the 8x8 evaluation (damier/eval8.h, engine/eval8.h): features,
 * patterns and the score, the hand weights and the built-in weights. */
#include "engine/eval8.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <damier/engine.h>

static const int eval8_centre_sq[4] = {14, 15, 18, 19};

static uint32_t rev32(uint32_t x)
{
    x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
    x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
    x = ((x >> 4) & 0x0F0F0F0Fu) | ((x & 0x0F0F0F0Fu) << 4);
    x = ((x >> 8) & 0x00FF00FFu) | ((x & 0x00FF00FFu) << 8);
    return (x >> 16) | (x << 16);
}

/* Row r (0..7) of a square set. */
#define ROW8(r) (UINT32_C(0xF) << (4 * (r)))

int eval8_features(const eval8_pos *p, int f[EVAL8_FEATURE_NB])
{
    f[EVAL8_MEN] = __builtin_popcount(p->wm) - __builtin_popcount(p->bm);
    f[EVAL8_KINGS] = __builtin_popcount(p->wk) - __builtin_popcount(p->bk);
    int tempo = 0;
    for (int r = 0; r < 8; r++) {
        tempo +=
            (7 - r) * __builtin_popcount(p->wm & ROW8(r)) - r * __builtin_popcount(p->bm & ROW8(r));
    }
    f[EVAL8_TEMPO] = tempo;
    f[EVAL8_BACK] = __builtin_popcount(p->wm & ROW8(7)) - __builtin_popcount(p->bm & ROW8(0));
    uint32_t centre = 0;
    for (int i = 0; i < 4; i++) {
        centre |= UINT32_C(1) << (eval8_centre_sq[i] - 1);
    }
    f[EVAL8_CENTRE] = __builtin_popcount(p->wm & centre) - __builtin_popcount(p->bm & centre);
    int kc = 0;
    for (int c = 0; c < 2; c++) {
        for (uint32_t x = c ? p->bk : p->wk; x; x &= x - 1) {
            int s = __builtin_ctz(x); /* square - 1 */
            int r = s / 4, col = 2 * (s % 4) + ((r & 1) ? 0 : 1);
            int dr = 2 * r - 7, dc = 2 * col - 7;
            int dist = ((dr < 0 ? -dr : dr) + (dc < 0 ? -dc : dc)) / 2;
            kc += (c ? -1 : 1) * (7 - dist);
        }
    }
    f[EVAL8_KCENTRE] = kc;
    int men = __builtin_popcount(p->wm | p->bm);
    return men > EVAL8_PHASE ? EVAL8_PHASE : men;
}

/* Window of table t: rows r..r+3, squares k+1, k+2 of each row. */
static const uint8_t win_r[EVAL8_TABLES] = {0, 0, 0, 1, 1, 1, 2, 2};
static const uint8_t win_k[EVAL8_TABLES] = {0, 1, 2, 0, 1, 2, 0, 1};

/* Configuration of window t over men w (White) and b (Black): base-3 digits (0 empty
 * or king, 1 White man, 2 Black man), the square of row i, column j weighing 3^(2i+j). */
static inline unsigned config(uint32_t w, uint32_t b, int t)
{
    unsigned c = 0, m = 1;
    int sh = 4 * win_r[t] + win_k[t];
    for (int i = 0; i < 4; i++, sh += 4) {
        unsigned x = (unsigned)((w >> sh) & 3), y = (unsigned)((b >> sh) & 3);
        c += m * ((x & 1) + 2 * (y & 1)) + 3 * m * ((x >> 1) + 2 * (y >> 1));
        m *= 9;
    }
    return c;
}

void eval8_patterns(const eval8_pos *p, uint32_t out[EVAL8_REFS])
{
    uint32_t tw = rev32(p->bm), tb = rev32(p->wm); /* the turned board, colours swapped */
    for (int t = 0; t < EVAL8_TABLES; t++) {
        out[2 * t] = (uint32_t)t * EVAL8_CONFIGS + config(p->wm, p->bm, t);
        out[2 * t + 1] = ((uint32_t)t * EVAL8_CONFIGS + config(tw, tb, t)) | (UINT32_C(1) << 31);
    }
}

int eval8_white(const struct dm_eval8 *ev, const eval8_pos *p)
{
    int f[EVAL8_FEATURE_NB];
    int phase = eval8_features(p, f);
    int open = 0, end = 0;
    for (int i = 0; i < EVAL8_FEATURE_NB; i++) {
        open += ev->feature[2 * i] * f[i];
        end += ev->feature[2 * i + 1] * f[i];
    }
    uint32_t tw = rev32(p->bm), tb = rev32(p->wm);
    for (int t = 0; t < EVAL8_TABLES; t++) {
        const int16_t *a = ev->pattern + ((size_t)t * EVAL8_CONFIGS + config(p->wm, p->bm, t)) * 2;
        const int16_t *z = ev->pattern + ((size_t)t * EVAL8_CONFIGS + config(tw, tb, t)) * 2;
        open += a[0] - z[0];
        end += a[1] - z[1];
    }
    int s = (open * phase + end * (EVAL8_PHASE - phase)) / (EVAL8_PHASE * EVAL8_UNIT);
    const int lim = DM_SCORE_WIN_MIN - 100;
    return s > lim ? lim : s < -lim ? -lim : s;
}

int dm_eval8_supports(dm_variant_id v)
{
    const dm_variant *var = (unsigned)v < DM_VARIANT_COUNT ? dm_variant_get(v) : NULL;
    return var && var->size == 8 && var->geometry != DM_GEOM_FULL && !var->reversed_result &&
           !var->win_on_promotion;
}

int eval8_hand_weights(dm_variant_id v, int w[EVAL8_FEATURE_NB])
{
    if (!dm_eval8_supports(v)) {
        return -1;
    }
    /* The variant search's hand evaluation (engine/search_impl.h, S(evaluate)):
     * 100 a man, 300 a flying king (150 else), 3 per row advanced, 6 on the back row,
     * 2 per step nearer the centre for a king. */
    w[EVAL8_MEN] = 100;
    w[EVAL8_KINGS] = dm_variant_get(v)->flying_kings ? 300 : 150;
    w[EVAL8_TEMPO] = 3;
    w[EVAL8_BACK] = 6;
    w[EVAL8_CENTRE] = 0;
    w[EVAL8_KCENTRE] = 2;
    return 0;
}

void eval8_from_board(eval8_pos *out, const dm_board *b)
{
    memset(out, 0, sizeof *out);
    for (int s = 1; s <= 32; s++) {
        uint32_t m = UINT32_C(1) << (s - 1);
        switch (b->sq[s]) {
            case DM_WHITE_MAN:
                out->wm |= m;
                break;
            case DM_BLACK_MAN:
                out->bm |= m;
                break;
            case DM_WHITE_KING:
                out->wk |= m;
                break;
            case DM_BLACK_KING:
                out->bk |= m;
                break;
            default:
                break;
        }
    }
    out->side = b->side;
}

const dm_eval8 *dm_eval8_builtin(dm_variant_id v)
{
    return (unsigned)v < DM_VARIANT_COUNT ? eval8_builtin[v] : NULL;
}

dm_status dm_eval8_new_hand(dm_eval8 **out, dm_variant_id v)
{
    int hw[EVAL8_FEATURE_NB];
    if (!out || eval8_hand_weights(v, hw) != 0) {
        return DM_EINVAL;
    }
    int16_t *w = calloc(EVAL8_WEIGHTS, sizeof *w);
    dm_eval8 *ev = w ? eval8_wrap(w, v, "hand") : NULL;
    if (!ev) {
        free(w);
        return DM_ENOMEM;
    }
    for (int i = 0; i < EVAL8_FEATURE_NB; i++) {
        w[EVAL8_PATTERN_WEIGHTS + 2 * i] = (int16_t)(hw[i] * EVAL8_UNIT);
        w[EVAL8_PATTERN_WEIGHTS + 2 * i + 1] = (int16_t)(hw[i] * EVAL8_UNIT);
    }
    ev->hand = 1;
    *out = ev;
    return DM_OK;
}

const char *dm_eval8_name(const dm_eval8 *ev)
{
    return ev ? ev->name : "";
}

dm_variant_id dm_eval8_variant(const dm_eval8 *ev)
{
    return ev ? ev->variant : DM_VARIANT_INTERNATIONAL;
}

int dm_eval8_score(const dm_eval8 *ev, const dm_board *b)
{
    if (!ev || !b) {
        return 0;
    }
    eval8_pos p;
    eval8_from_board(&p, b);
    int s = eval8_white(ev, &p);
    return b->side == DM_WHITE ? s : -s;
}
