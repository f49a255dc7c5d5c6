/* SPDX-License-Identifier: MIT
 * engine/eval.h: evaluation v1, a linear function of hand-made features.
 *
 * The interface is split in two so that a trained evaluation can replace the
 * insides later and training code can reuse the extraction:
 *   eval_features()  board -> feature vector (White minus Black counts) and phase;
 *   eval_weigh()     feature vector + phase -> score (White's point of view);
 *   eval_board()     both, from the side to move's point of view (what search calls).
 * Scores are hundredths of a man. Phase is the number of men on the board (0..40):
 * each weight is interpolated between its opening value (40 men) and its endgame
 * value (0 men). */
#ifndef DM_ENGINE_EVAL_H
#define DM_ENGINE_EVAL_H

#include <stdint.h>

#include <damier/board.h>

enum {
    EVAL_MEN = 0,     /* men */
    EVAL_KINGS,       /* kings (a king is worth about three men) */
    EVAL_TEMPO,       /* sum of rows advanced by the men (development) */
    EVAL_CENTRE,      /* men on the six centre squares 22-24, 27-29 */
    EVAL_GUARD,       /* men on the back-rank guard squares (White 47-49, Black 2-4) */
    EVAL_OUTPOST,     /* men in the opponent's half held by two men behind them */
    EVAL_RUNAWAY,     /* free men (nothing in their forward cone, no enemy king):
                          10 - rows to promotion, summed */
    EVAL_LOCKED,      /* men that cannot move forward (both squares ahead taken) */
    EVAL_KING_ACTIVE, /* kings on the main (46-5) and double-corner (1-45, 6-50)
                          diagonals: the mobile kings */
    EVAL_FEATURE_NB
};

/* Constant bitboard tables of the features (10x10 layout bits, layout.h), generated
 * at build time by tools/genevaltab.c (eval_tab.c in the build folder). */
typedef struct eval_tables {
    uint64_t row[10];     /* squares of each row (row 0 = squares 1-5) */
    uint64_t cone[2][64]; /* forward cone of a man of colour c on bit b */
    uint64_t centre;      /* 22, 23, 24, 27, 28, 29 */
    uint64_t guard[2];    /* White 47, 48, 49; Black 2, 3, 4 */
    uint64_t half[2];     /* the opponent's half: White rows 0-4, Black rows 5-9 */
    uint64_t long_diag;   /* 46-5, 1-45 and 6-50 */
} eval_tables;

extern const eval_tables eval_tab;

/* Feature vector of b: f[i] = White's count - Black's count. Returns the phase
 * (number of men on the board, 0..40). */
int eval_features(const dm_board *b, int f[EVAL_FEATURE_NB]);

/* Weighted sum of a feature vector at a phase, from White's point of view. */
int eval_weigh(const int f[EVAL_FEATURE_NB], int phase);

/* Static score of b for the side to move (quiet positions only: search never calls
 * it with a capture pending). Bounded well inside the win scores. */
int eval_board(const dm_board *b);

/* Feature names (for tools and training dumps). */
extern const char *const eval_feature_names[EVAL_FEATURE_NB];

#endif /* DM_ENGINE_EVAL_H */
