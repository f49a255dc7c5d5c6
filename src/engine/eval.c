/* SPDX-License-Identifier: MIT
 * engine/eval.c: the evaluation (see eval.h): patterns and features, weighed by a
 * dm_eval. Every feature is a few bitboard operations; the only loops are over advanced
 * men for the runaway test and over the 28 pattern windows. The constant
 * tables (eval_tab: rows, forward cones, centre, guards, halves, long diagonals)
 * are generated at build time by tools/genevaltab.c.
 *
 * Geometry: square s (1..50) is on row r = (s-1)/5 (row 0 = squares 1-5, White's
 * promotion row) and column c = 2*((s-1)%5) + (r even ? 1 : 0). White men move to
 * lower rows, Black men to higher rows. The forward cone of a man is every square
 * it could ever reach moving forward: rows ahead, within as many columns as rows. */
#include "engine/eval.h"

#include "core/layout.h"
#include "util/bits.h"

#include <damier/engine.h>
#include <damier/eval.h>

const char *const eval_feature_names[EVAL_FEATURE_NB] = {
    "men", "kings", "tempo", "centre", "guard", "outpost", "runaway", "locked", "king-active",
};

int eval_features(const dm_board *b, int f[EVAL_FEATURE_NB])
{
    const uint64_t w = b->pieces[DM_WHITE], k = b->kings, bl = b->pieces[DM_BLACK];
    const uint64_t wm = w & ~k, bm = bl & ~k, wk = w & k, bk = bl & k;
    const uint64_t occ = w | bl, empty = BB_ALL & ~occ;

    f[EVAL_MEN] = bb_count(wm) - bb_count(bm);
    f[EVAL_KINGS] = bb_count(wk) - bb_count(bk);

    int tempo = 0;
    for (int r = 0; r < 10; r++) {
        tempo += (9 - r) * bb_count(wm & eval_tab.row[r]) - r * bb_count(bm & eval_tab.row[r]);
    }
    f[EVAL_TEMPO] = tempo;
    f[EVAL_CENTRE] = bb_count(wm & eval_tab.centre) - bb_count(bm & eval_tab.centre);
    f[EVAL_GUARD] =
        bb_count(wm & eval_tab.guard[DM_WHITE]) - bb_count(bm & eval_tab.guard[DM_BLACK]);

    /* Behind a White man are the squares towards 50 (SW, SE), seen from the man as
     * a step of its supporters towards 1 (NW, NE). */
    uint64_t w_out = wm & eval_tab.half[DM_WHITE] & bb_step(w, DIR_NW) & bb_step(w, DIR_NE);
    uint64_t b_out = bm & eval_tab.half[DM_BLACK] & bb_step(bl, DIR_SW) & bb_step(bl, DIR_SE);
    f[EVAL_OUTPOST] = bb_count(w_out) - bb_count(b_out);

    int run = 0;
    if (!bk) {
        for (uint64_t x =
                 wm & (eval_tab.row[1] | eval_tab.row[2] | eval_tab.row[3] | eval_tab.row[4]);
             x;) {
            int bit = bb_pop_lsb(&x);
            if (!(eval_tab.cone[DM_WHITE][bit] & occ)) {
                run += 10 - (bit_to_sq(bit) - 1) / 5;
            }
        }
    }
    if (!wk) {
        for (uint64_t x =
                 bm & (eval_tab.row[5] | eval_tab.row[6] | eval_tab.row[7] | eval_tab.row[8]);
             x;) {
            int bit = bb_pop_lsb(&x);
            if (!(eval_tab.cone[DM_BLACK][bit] & occ)) {
                run -= 10 - (9 - (bit_to_sq(bit) - 1) / 5);
            }
        }
    }
    f[EVAL_RUNAWAY] = run;

    uint64_t w_mobile = bb_step(empty, DIR_SE) | bb_step(empty, DIR_SW);
    uint64_t b_mobile = bb_step(empty, DIR_NE) | bb_step(empty, DIR_NW);
    f[EVAL_LOCKED] = bb_count(wm & ~w_mobile) - bb_count(bm & ~b_mobile);
    f[EVAL_KING_ACTIVE] = bb_count(wk & eval_tab.long_diag) - bb_count(bk & eval_tab.long_diag);
    return bb_count(wm | bm);
}

/* The 8 bits of window w in bitboard x: bit 2i + j = square j of the window's row i. */
static inline unsigned window_bits(uint64_t x, int w)
{
    const uint8_t *sh = eval_tab.win_shift[w];
    return (unsigned)(((x >> sh[0]) & 3) | (((x >> sh[1]) & 3) << 2) | (((x >> sh[2]) & 3) << 4) |
                      (((x >> sh[3]) & 3) << 6));
}

/* Window w (4r + k) reads table eval_table_of[w], turned (negated, colours swapped,
 * digits reversed) when w is in the lower half. */
static const int8_t eval_table_of[EVAL_WINDOWS_ALL] = {
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0,
};

void eval_patterns(const dm_board *b, uint32_t out[EVAL_WINDOWS_ALL])
{
    const uint64_t wm = b->pieces[DM_WHITE] & ~b->kings, bm = b->pieces[DM_BLACK] & ~b->kings;
    for (int w = 0; w < EVAL_WINDOWS_ALL; w++) {
        unsigned x = window_bits(wm, w), y = window_bits(bm, w);
        uint32_t t = (uint32_t)eval_table_of[w] * EVAL_CONFIGS;
        if (w < EVAL_WINDOWS) {
            out[w] = t + eval_tab.tern[x] + 2u * eval_tab.tern[y];
        } else {
            out[w] = (t + eval_tab.tern_rev[y] + 2u * eval_tab.tern_rev[x]) | (UINT32_C(1) << 31);
        }
    }
}

int eval_lone_king(const dm_board *b)
{
    int nw = bb_count(b->pieces[DM_WHITE]), nb = bb_count(b->pieces[DM_BLACK]);
    return (nb == 1 && (b->kings & b->pieces[DM_BLACK]) && nw <= 3) ||
           (nw == 1 && (b->kings & b->pieces[DM_WHITE]) && nb <= 3);
}

int eval_board(const struct dm_eval *ev, const dm_board *b)
{
    int f[EVAL_FEATURE_NB];
    int phase = eval_features(b, f);
    if (phase > 40) {
        phase = 40; /* compositions may hold more men than a game */
    }
    int open = 0, end = 0;
    for (int i = 0; i < EVAL_FEATURE_NB; i++) {
        open += ev->feature[2 * i] * f[i];
        end += ev->feature[2 * i + 1] * f[i];
    }
    /* Patterns: the men of each window index its table (kings read as empty). */
    const uint64_t wm = b->pieces[DM_WHITE] & ~b->kings, bm = b->pieces[DM_BLACK] & ~b->kings;
    const int16_t *pt = ev->pattern;
    for (int w = 0; w < EVAL_WINDOWS; w++) {
        unsigned c = eval_tab.tern[window_bits(wm, w)] + 2u * eval_tab.tern[window_bits(bm, w)];
        const int16_t *p = pt + ((size_t)w * EVAL_CONFIGS + c) * 2;
        open += p[0];
        end += p[1];
    }
    for (int w = EVAL_WINDOWS; w < EVAL_WINDOWS_ALL; w++) {
        unsigned c =
            eval_tab.tern_rev[window_bits(bm, w)] + 2u * eval_tab.tern_rev[window_bits(wm, w)];
        const int16_t *p = pt + ((size_t)(EVAL_WINDOWS_ALL - 1 - w) * EVAL_CONFIGS + c) * 2;
        open -= p[0];
        end -= p[1];
    }
    int s = (open * phase + end * (40 - phase)) / (40 * EVAL_UNIT);
    /* A lone king against at most three pieces with no man that can run is usually a
     * draw (FMJD 6 16-move rule): pull the score towards 0. */
    if (eval_lone_king(b)) {
        s /= 8;
    }
    const int lim = DM_SCORE_WIN_MIN - 100;
    s = s > lim ? lim : s < -lim ? -lim : s;
    return b->side == DM_WHITE ? s : -s;
}

int dm_engine_evaluate(const dm_board *b)
{
    return eval_board(&eval_builtin, b);
}

const dm_eval *dm_eval_builtin(void)
{
    return &eval_builtin;
}

int dm_eval_score(const dm_eval *ev, const dm_board *b)
{
    return eval_board(ev ? ev : &eval_builtin, b);
}

int dm_engine_features(int *out, int cap, int *phase, const dm_board *b)
{
    int f[EVAL_FEATURE_NB];
    int ph = eval_features(b, f);
    for (int i = 0; i < EVAL_FEATURE_NB && i < cap; i++) {
        out[i] = f[i];
    }
    if (phase) {
        *phase = ph;
    }
    return EVAL_FEATURE_NB;
}

const char *dm_engine_feature_name(int i)
{
    return i >= 0 && i < EVAL_FEATURE_NB ? eval_feature_names[i] : NULL;
}
