/* SPDX-License-Identifier: MIT
 * engine/eval.h: the evaluation, a linear function of board-region patterns and
 * hand-made features whose weights are data (dm_eval, damier/eval.h).
 *
 *   eval_features()  board -> feature vector (White minus Black counts) and phase;
 *   eval_patterns()  board -> the 28 pattern weights it reads (training);
 *   eval_board()     the score from the side to move's point of view (what search
 *                    calls).
 * Scores are hundredths of a man. Phase is the number of men on the board (0..40):
 * each weight is interpolated between its opening value (40 men) and its endgame
 * value (0 men). */
#ifndef DM_ENGINE_EVAL_H
#define DM_ENGINE_EVAL_H

#include <stdint.h>

#include "core/board10.h"
#include <damier/eval.h>

#include "engine/evalcore.h"

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
    EVAL_KING_EXCESS, /* kings beyond the first (the first king is worth most) */
    EVAL_KING_SAFE,   /* empty squares the kings reach where no man can take them */
    EVAL_KING_DENIED, /* empty squares the kings reach where a man could take them */
    EVAL_BALANCE,     /* |skew| of Black's men minus White's: skew = sum over men
                          of 2 * column - 9 (columns 0..9), a lopsided side is weaker */
    EVAL_KING_SQ,     /* 50 features: a king on square s, counted from its own side
                          (White's s, Black's 51 - s) */
    EVAL_FEATURE_NB = EVAL_KING_SQ + 50
};

/* Pattern windows (damier/eval.h): 28 on the board, 14 weight tables. Window w =
 * 4r + k with r < 3, or r == 3 and k < 2, owns table EVAL_TABLE(w); the others read
 * the table of their 180-degree turn (6-r, 3-k) with the colours swapped, negated. */
#define EVAL_WINDOWS_ALL 28
#define EVAL_WINDOWS 14
#define EVAL_CONFIGS 6561 /* 3^8 */
#define EVAL_UNIT 8       /* weights are in 1/EVAL_UNIT hundredths of a man */

/* The weights (damier/eval.h). pattern[(t * EVAL_CONFIGS + c) * 2 + p], feature[i * 2
 * + p], p = 0 opening, 1 endgame. */
struct dm_eval {
    char name[32];
    const int16_t *pattern; /* EVAL_WINDOWS * EVAL_CONFIGS * 2 */
    const int16_t *feature; /* EVAL_FEATURE_NB * 2 */
    void *owned;            /* the allocation holding both, or NULL (built-in) */
};

/* The international shape (engine/evalcore.h; evalfile.c). */
extern const eval_shape eval_shape10;

/* A dm_eval owning w (eval_shape_weights(&eval_shape10) weights, malloc'd) named
 * name; NULL on no memory (w is then still the caller's). evalfile.c. */
struct dm_eval *eval_wrap(int16_t *w, const char *name);

/* The built-in weights (generated into eval_weights.c at build time). */
extern const struct dm_eval eval_builtin;

/* Signed pattern references of b: out[j] = table * EVAL_CONFIGS + configuration,
 * with bit 31 set when the weight counts negated (a turned window). 28 entries. */
void eval_patterns(const dm_board10 *b, uint32_t out[EVAL_WINDOWS_ALL]);

/* Constant bitboard tables of the features (10x10 layout bits, layout.h), generated
 * at build time by tools/genevaltab.c (eval_tab.c in the build folder). */
typedef struct eval_tables {
    uint64_t row[10];             /* squares of each row (row 0 = squares 1-5) */
    uint64_t cone[2][64];         /* forward cone of a man of colour c on bit b */
    uint64_t centre;              /* 22, 23, 24, 27, 28, 29 */
    uint64_t guard[2];            /* White 47, 48, 49; Black 2, 3, 4 */
    uint64_t half[2];             /* the opponent's half: White rows 0-4, Black rows 5-9 */
    uint64_t long_diag;           /* 46-5, 1-45 and 6-50 */
    uint64_t column[10];          /* squares of each column (column 0 = 6, 16 .. 46) */
    uint8_t pair[4][1024];        /* [k][row's White | Black << 5 men]: squares k, k+1
                                     of the row in base 3 (0..8), White's side */
    uint8_t pair_turned[4][1024]; /* the same turned: colours swapped, k+1 first */
} eval_tables;

extern const eval_tables eval_tab;

/* Feature vector of b: f[i] = White's count - Black's count. Returns the phase
 * (number of men on the board, 0..40). */
int eval_features(const dm_board10 *b, int f[EVAL_FEATURE_NB]);

/* Static score of b for the side to move with weights ev (quiet positions only:
 * search never calls it with a capture pending). Bounded well inside the win
 * scores. */
int eval_board(const struct dm_eval *ev, const dm_board10 *b);

/* The lone-king rule of eval_board: 1 when b is a lone king against at most three
 * pieces (the score is divided by 8). */
int eval_lone_king(const dm_board10 *b);

/* The position of sample s on the fast board (engine/sample.c); 0 when its square
 * sets are not a position (dm_sample_position's checks). */
int sample_board10(dm_board10 *out, const dm_sample *s);

/* Feature names (for tools and training dumps). */
extern const char *const eval_feature_names[EVAL_FEATURE_NB];

#endif /* DM_ENGINE_EVAL_H */
