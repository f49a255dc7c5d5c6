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

#include <damier/board.h>

enum {
    EVAL_MEN = 0,      /* men */
    EVAL_KINGS,        /* kings (a king is worth about three men) */
    EVAL_TEMPO,        /* sum of rows advanced by the men (development) */
    EVAL_CENTRE,       /* men on the six centre squares 22-24, 27-29 */
    EVAL_GUARD,        /* men on the back-rank guard squares (White 47-49, Black 2-4) */
    EVAL_OUTPOST,      /* men in the opponent's half held by two men behind them */
    EVAL_RUNAWAY,      /* free men (nothing in their forward cone, no enemy king):
                          10 - rows to promotion, summed */
    EVAL_LOCKED,       /* men that cannot move forward (both squares ahead taken) */
    EVAL_KING_ACTIVE,  /* kings on the main (46-5) and double-corner (1-45, 6-50)
                          diagonals: the mobile kings */
    EVAL_FEATURE_NB
};

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
