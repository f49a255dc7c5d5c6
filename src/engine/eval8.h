/* SPDX-License-Identifier: MIT
 * engine/eval8.h: the 8x8 evaluation (damier/eval8.h) on square sets: bit s-1 for
 * square s (1..32), row r = (s-1)/4 (row 0 = squares 1-4, White's promotion row),
 * so the 180-degree turn of the board is the bit reversal of a 32-bit set.
 *
 *   eval8_features()  position -> feature vector (White minus Black) and phase;
 *   eval8_patterns()  position -> the 16 signed pattern references (training);
 *   eval8_white()     the score from White's point of view (search, tests). */
#ifndef DM_ENGINE_EVAL8_H
#define DM_ENGINE_EVAL8_H

#include <stdint.h>

#include <damier/eval8.h>

#include "engine/evalcore.h"

enum {
    EVAL8_MEN = 0, /* men */
    EVAL8_KINGS,   /* kings */
    EVAL8_TEMPO,   /* rows advanced by the men, summed */
    EVAL8_BACK,    /* men on their own back row */
    EVAL8_CENTRE,  /* men on 14, 15, 18, 19 */
    EVAL8_KCENTRE, /* kings: 7 - distance to the centre, summed */
    EVAL8_FEATURE_NB
};

#define EVAL8_TABLES 8
#define EVAL8_REFS 16 /* each table read on the position and on its turn */
#define EVAL8_CONFIGS 6561
#define EVAL8_UNIT 8
#define EVAL8_PHASE 24 /* men at the start: the opening end of the phase */
#define EVAL8_PATTERN_WEIGHTS ((size_t)EVAL8_TABLES * EVAL8_CONFIGS * 2)
#define EVAL8_WEIGHTS (EVAL8_PATTERN_WEIGHTS + EVAL8_FEATURE_NB * 2)

/* pattern[(t * EVAL8_CONFIGS + c) * 2 + p], feature[i * 2 + p]; p = 0 opening. */
struct dm_eval8 {
    char name[32];
    dm_variant_id variant;
    int hand;               /* made by dm_eval8_new_hand: the search's own evaluation */
    const int16_t *pattern; /* EVAL8_PATTERN_WEIGHTS */
    const int16_t *feature; /* EVAL8_FEATURE_NB * 2 */
    void *owned;            /* the allocation of both, or NULL (built-in) */
};

/* The 8x8 shape (engine/evalcore.h; evalfile8.c). */
extern const eval_shape eval_shape8;

/* A dm_eval8 of variant v owning w (EVAL8_WEIGHTS weights, malloc'd) named name;
 * NULL on no memory (w is then still the caller's). evalfile8.c. */
struct dm_eval8 *eval8_wrap(int16_t *w, dm_variant_id v, const char *name);

/* A position as square sets (men and kings apart), side 0 White. */
typedef struct eval8_pos {
    uint32_t wm, bm, wk, bk;
    int side;
} eval8_pos;

/* The 8x8 search layout (core/gen_geom.h, GEN_N 8: bit = (s-1) + (s-1)/8) to a square
 * set. */
static inline uint32_t eval8_squares(uint64_t b)
{
    return (uint32_t)((b & 0xFF) | ((b >> 9) & 0xFF) << 8 | ((b >> 18) & 0xFF) << 16 |
                      ((b >> 27) & 0xFF) << 24);
}

/* Features of p into f; returns the phase (men on the board, at most EVAL8_PHASE). */
int eval8_features(const eval8_pos *p, int f[EVAL8_FEATURE_NB]);

/* Signed references: out[j] = table * EVAL8_CONFIGS + configuration, bit 31 set when
 * the weight counts negated (the reading on the turned board). */
void eval8_patterns(const eval8_pos *p, uint32_t out[EVAL8_REFS]);

/* Score of p from White's point of view, hundredths of a man (bounded). */
int eval8_white(const struct dm_eval8 *ev, const eval8_pos *p);

/* The hand feature weights of variant v (hundredths, opening = endgame) into w;
 * -1 when v is not supported. */
int eval8_hand_weights(dm_variant_id v, int w[EVAL8_FEATURE_NB]);

/* dm_board of an 8x8 variant -> eval8_pos. */
void eval8_from_board(eval8_pos *out, const dm_board *b);

/* The built-in weights per variant (generated into eval8_weights.c at build time
 * from data/eval/<variant>.dmev files; NULL where there is none). */
extern const struct dm_eval8 *const eval8_builtin[DM_VARIANT_COUNT];

#endif /* DM_ENGINE_EVAL8_H */
