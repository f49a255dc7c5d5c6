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
    "men",        "kings",      "tempo",       "centre",      "guard",      "outpost",
    "runaway",    "locked",     "king-active", "king-excess", "king-safe",  "king-denied",
    "balance",    "king-on-1",  "king-on-2",   "king-on-3",   "king-on-4",  "king-on-5",
    "king-on-6",  "king-on-7",  "king-on-8",   "king-on-9",   "king-on-10", "king-on-11",
    "king-on-12", "king-on-13", "king-on-14",  "king-on-15",  "king-on-16", "king-on-17",
    "king-on-18", "king-on-19", "king-on-20",  "king-on-21",  "king-on-22", "king-on-23",
    "king-on-24", "king-on-25", "king-on-26",  "king-on-27",  "king-on-28", "king-on-29",
    "king-on-30", "king-on-31", "king-on-32",  "king-on-33",  "king-on-34", "king-on-35",
    "king-on-36", "king-on-37", "king-on-38",  "king-on-39",  "king-on-40", "king-on-41",
    "king-on-42", "king-on-43", "king-on-44",  "king-on-45",  "king-on-46", "king-on-47",
    "king-on-48", "king-on-49", "king-on-50",
};

/* The features before the king squares (f[0 .. EVAL_KING_SQ - 1]); the phase. */
static inline int features_base(const dm_board10 *b, int f[EVAL_KING_SQ])
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

    int nwk = bb_count(wk), nbk = bb_count(bk);
    f[EVAL_KING_EXCESS] = (nwk > 1 ? nwk - 1 : 0) - (nbk > 1 ? nbk - 1 : 0);
    f[EVAL_KING_SAFE] = 0;
    f[EVAL_KING_DENIED] = 0;
    if (k) {
        /* king mobility: the empty squares on the kings' free diagonals, split by
         * whether an enemy man next to the square could jump a king landing there
         * (the square beyond it, seen from the man, empty) */
        uint64_t w_reach = 0, b_reach = 0, w_unsafe = 0, b_unsafe = 0;
        for (int d = 0; d < DIR_NB; d++) {
            for (uint64_t x = bb_step(wk, d) & empty; x; x = bb_step(x, d) & empty) {
                w_reach |= x;
            }
            for (uint64_t x = bb_step(bk, d) & empty; x; x = bb_step(x, d) & empty) {
                b_reach |= x;
            }
            uint64_t beyond = bb_step(empty, d);
            w_unsafe |= bb_step(bm, dir_reverse(d)) & beyond;
            b_unsafe |= bb_step(wm, dir_reverse(d)) & beyond;
        }
        f[EVAL_KING_SAFE] = bb_count(w_reach & ~w_unsafe) - bb_count(b_reach & ~b_unsafe);
        f[EVAL_KING_DENIED] = bb_count(w_reach & w_unsafe) - bb_count(b_reach & b_unsafe);
    }
    int wskew = 0, bskew = 0;
    for (int c = 0; c < 10; c++) {
        wskew += (2 * c - 9) * bb_count(wm & eval_tab.column[c]);
        bskew += (2 * c - 9) * bb_count(bm & eval_tab.column[c]);
    }
    f[EVAL_BALANCE] = (bskew < 0 ? -bskew : bskew) - (wskew < 0 ? -wskew : wskew);
    return bb_count(wm | bm);
}

/* The king-square feature of a king on bit `bit` of colour c (its own side's view). */
static inline int king_sq_feature(int c, int bit)
{
    return EVAL_KING_SQ + (c == DM_WHITE ? bit_to_sq(bit) - 1 : 50 - bit_to_sq(bit));
}

int eval_features(const dm_board10 *b, int f[EVAL_FEATURE_NB])
{
    int phase = features_base(b, f);
    for (int i = EVAL_KING_SQ; i < EVAL_FEATURE_NB; i++) {
        f[i] = 0;
    }
    for (uint64_t x = b->pieces[DM_WHITE] & b->kings; x;) {
        f[king_sq_feature(DM_WHITE, bb_pop_lsb(&x))]++;
    }
    for (uint64_t x = b->pieces[DM_BLACK] & b->kings; x;) {
        f[king_sq_feature(DM_BLACK, bb_pop_lsb(&x))]--;
    }
    return phase;
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
    int f[EVAL_KING_SQ];
    int phase = features_base(b, f);
    if (phase > 40) {
        phase = 40; /* compositions may hold more men than a game */
    }
    int open = 0, end = 0;
    for (int i = 0; i < EVAL_KING_SQ; i++) {
        open += ev->feature[2 * i] * f[i];
        end += ev->feature[2 * i + 1] * f[i];
    }
    /* the king squares: sparse, one weight per king */
    for (uint64_t x = b->pieces[DM_WHITE] & b->kings; x;) {
        const int16_t *kw = ev->feature + 2 * king_sq_feature(DM_WHITE, bb_pop_lsb(&x));
        open += kw[0];
        end += kw[1];
    }
    for (uint64_t x = b->pieces[DM_BLACK] & b->kings; x;) {
        const int16_t *kw = ev->feature + 2 * king_sq_feature(DM_BLACK, bb_pop_lsb(&x));
        open -= kw[0];
        end -= kw[1];
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
