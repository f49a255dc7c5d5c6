/* SPDX-License-Identifier: MIT
 * engine/eval.c: evaluation v1 (see eval.h). Every feature is a few bitboard
 * operations; the only loop is over advanced men for the runaway test. The constant
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

const char *const eval_feature_names[EVAL_FEATURE_NB] = {
    "men", "kings", "tempo", "centre", "guard", "outpost", "runaway", "locked", "king-active",
};

/* Weights: opening (40 men) and endgame (0 men) values, hundredths of a man. */
static const int weight_open[EVAL_FEATURE_NB] = {100, 300, 1, 6, 8, 6, 8, -4, 10};
static const int weight_end[EVAL_FEATURE_NB] = {100, 330, 4, 2, 0, 2, 30, -2, 20};

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

int eval_weigh(const int f[EVAL_FEATURE_NB], int phase)
{
    int open = 0, end = 0;
    for (int i = 0; i < EVAL_FEATURE_NB; i++) {
        open += weight_open[i] * f[i];
        end += weight_end[i] * f[i];
    }
    return (open * phase + end * (40 - phase)) / 40;
}

int eval_board(const dm_board *b)
{
    int f[EVAL_FEATURE_NB];
    int phase = eval_features(b, f);
    if (phase > 40) {
        phase = 40; /* compositions may hold more men than a game */
    }
    int s = eval_weigh(f, phase);
    /* A lone king against at most three pieces with no man that can run is usually a
     * draw (FMJD 6 16-move rule): pull the score towards 0. */
    int nw = bb_count(b->pieces[DM_WHITE]), nb = bb_count(b->pieces[DM_BLACK]);
    if ((nb == 1 && (b->kings & b->pieces[DM_BLACK]) && nw <= 3) ||
        (nw == 1 && (b->kings & b->pieces[DM_WHITE]) && nb <= 3)) {
        s /= 8;
    }
    const int lim = DM_SCORE_WIN_MIN - 100;
    s = s > lim ? lim : s < -lim ? -lim : s;
    return b->side == DM_WHITE ? s : -s;
}

int dm_engine_evaluate(const dm_board *b)
{
    return eval_board(b);
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
