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

int eval_features(const dm_board10 *b, int f[EVAL_FEATURE_NB])
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

/* The configuration (0..6560) of each of the 28 windows. Window w = 4r + k reads
 * rows r..r+3, two squares each: the row's pair value times 9^i for its i-th row, so
 * the index is sum over its 8 squares of digit * 3^(2i + j). The turned windows (w >=
 * 14, reading table 27 - w) read the turned pair values in the opposite row order:
 * the same configuration their 180-degree turn would have with the colours swapped. */
static inline void window_configs(uint64_t wm, uint64_t bm, unsigned out[EVAL_WINDOWS_ALL])
{
    unsigned p[10][4], q[10][4];
    for (int row = 0; row < 10; row++) {
        int base = 5 * row + row / 2; /* the bit of the row's first square */
        unsigned x = (unsigned)(((wm >> base) & 31) | (((bm >> base) & 31) << 5));
        for (int k = 0; k < 4; k++) {
            p[row][k] = eval_tab.pair[k][x];
            q[row][k] = eval_tab.pair_turned[k][x];
        }
    }
    for (int w = 0; w < EVAL_WINDOWS; w++) {
        int r = w / 4, k = w % 4;
        out[w] = p[r][k] + 9 * p[r + 1][k] + 81 * p[r + 2][k] + 729 * p[r + 3][k];
    }
    for (int w = EVAL_WINDOWS; w < EVAL_WINDOWS_ALL; w++) {
        int r = w / 4, k = w % 4;
        out[w] = q[r + 3][k] + 9 * q[r + 2][k] + 81 * q[r + 1][k] + 729 * q[r][k];
    }
}

void eval_patterns(const dm_board10 *b, uint32_t out[EVAL_WINDOWS_ALL])
{
    unsigned c[EVAL_WINDOWS_ALL];
    window_configs(b->pieces[DM_WHITE] & ~b->kings, b->pieces[DM_BLACK] & ~b->kings, c);
    for (int w = 0; w < EVAL_WINDOWS_ALL; w++) {
        if (w < EVAL_WINDOWS) {
            out[w] = (uint32_t)w * EVAL_CONFIGS + c[w];
        } else {
            out[w] =
                ((uint32_t)(EVAL_WINDOWS_ALL - 1 - w) * EVAL_CONFIGS + c[w]) | (UINT32_C(1) << 31);
        }
    }
}

int eval_lone_king(const dm_board10 *b)
{
    int nw = bb_count(b->pieces[DM_WHITE]), nb = bb_count(b->pieces[DM_BLACK]);
    return (nb == 1 && (b->kings & b->pieces[DM_BLACK]) && nw <= 3) ||
           (nw == 1 && (b->kings & b->pieces[DM_WHITE]) && nb <= 3);
}

int eval_board(const struct dm_eval *ev, const dm_board10 *b)
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
    unsigned c[EVAL_WINDOWS_ALL];
    window_configs(b->pieces[DM_WHITE] & ~b->kings, b->pieces[DM_BLACK] & ~b->kings, c);
    const int16_t *pt = ev->pattern;
    for (int w = 0; w < EVAL_WINDOWS; w++) {
        const int16_t *p = pt + ((size_t)w * EVAL_CONFIGS + c[w]) * 2;
        open += p[0];
        end += p[1];
    }
    for (int w = EVAL_WINDOWS; w < EVAL_WINDOWS_ALL; w++) {
        const int16_t *p = pt + ((size_t)(EVAL_WINDOWS_ALL - 1 - w) * EVAL_CONFIGS + c[w]) * 2;
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

const dm_eval *dm_eval_builtin(void)
{
    return &eval_builtin;
}

int dm_eval_score(const dm_eval *ev, const dm_board *b)
{
    dm_board10 fast;
    if (!b || !b->variant || b->variant->id != DM_VARIANT_INTERNATIONAL ||
        dm_board_to_board10(&fast, b) != DM_OK) {
        return 0;
    }
    return eval_board(ev ? ev : &eval_builtin, &fast);
}

int dm_engine_features(int *out, int cap, int *phase, const dm_board *b)
{
    dm_board10 fast;
    if ((!out && cap > 0) || !b || !b->variant || b->variant->id != DM_VARIANT_INTERNATIONAL ||
        dm_board_to_board10(&fast, b) != DM_OK) {
        return -1;
    }
    int f[EVAL_FEATURE_NB];
    int ph = eval_features(&fast, f);
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
