/* SPDX-License-Identifier: MIT
 * engine/evalcore.h: what the international (engine/eval.h) and the 8x8
 * (engine/eval8.h) evaluations share, over a small descriptor of their shape: the
 * ".dmev" weights file (header, weights, checksum), the training loop (model, loss,
 * Adam) and the sample file (header, 32-byte records of square sets). Only the
 * pattern indexing, the features and the evaluation itself are board-specific.
 *
 * Weights are one array: patterns first (pattern[(t * configs + c) * 2 + p]), then
 * features (feature[i * 2 + p]); p = 0 opening, 1 endgame; in 1/unit hundredths of a
 * man. */
#ifndef DM_ENGINE_EVALCORE_H
#define DM_ENGINE_EVALCORE_H

#include <stddef.h>
#include <stdint.h>

#include <damier/eval.h>
#include <damier/status.h>

/* The shape of a linear pattern evaluation. */
typedef struct eval_shape {
    int tables;        /* pattern weight tables (the file's "windows") */
    int configs;       /* configurations per table (3^8 for 8 squares) */
    int refs;          /* signed pattern references one position reads */
    int features;      /* features, each an (opening, endgame) pair */
    int unit;          /* weights per hundredth of a man */
    const char *board; /* for messages: "international", "8x8" */
} eval_shape;

/* Weights of the patterns (both phases), of everything, and bytes of a file. */
static inline size_t eval_shape_patterns(const eval_shape *sh)
{
    return (size_t)sh->tables * (size_t)sh->configs * 2;
}

static inline size_t eval_shape_weights(const eval_shape *sh)
{
    return eval_shape_patterns(sh) + (size_t)sh->features * 2;
}

#define EVALFILE_HEADER_SIZE 60u

static inline size_t eval_shape_file_size(const eval_shape *sh)
{
    return EVALFILE_HEADER_SIZE + 2 * eval_shape_weights(sh) + 4;
}

/* ---- the weights file (engine/evalcore.c) ---------------------------------------- */

/* Check the file image (size bytes at data) against shape sh and variant; on success
 * *w gets a malloc'd copy of its weights (the caller's) and name its name (NUL-ended).
 * A file of fewer features than sh (written before the later ones were added) reads
 * with those weighing 0.
 * DM_EPARSE with err saying what is wrong (magic, version, variant, shape, size,
 * checksum), DM_EINVAL for no data, DM_ENOMEM. */
dm_status evalfile_read(const eval_shape *sh, uint32_t variant, const void *data, size_t size,
                        char name[32], int16_t **w, dm_error *err);

/* evalfile_read of the file at path (err names it). DM_EIO when it cannot be read. */
dm_status evalfile_load(const eval_shape *sh, uint32_t variant, const char *path, char name[32],
                        int16_t **w, dm_error *err);

/* The file image of the weights into buf (eval_shape_file_size bytes); DM_EBUFS when
 * cap is smaller. */
dm_status evalfile_write(const eval_shape *sh, uint32_t variant, const char *name,
                         const int16_t *pattern, const int16_t *feature, void *buf, size_t cap);

/* evalfile_write to a file (PATH.tmp, then renamed); DM_EIO, DM_ENOMEM. */
dm_status evalfile_save(const eval_shape *sh, uint32_t variant, const char *name,
                        const int16_t *pattern, const int16_t *feature, const char *path,
                        dm_error *err);

/* ---- training (engine/evalcore.c) -------------------------------------------------- */

/* One sample reduced to what the model reads. */
typedef struct train_pos {
    uint32_t *ref;      /* sh->refs signed references: index, bit 31 for negated */
    int16_t *f;         /* sh->features feature values */
    float phase;        /* 1 at the opening end, 0 at the endgame end */
    double white_score; /* the search's score, White's point of view */
    int result;         /* 1, 0, -1: White won, draw, Black won */
} train_pos;

/* The board-specific reduction of one sample; 0 when it is not usable (a capture
 * pending, a position the evaluation does not score linearly). */
typedef int (*train_reduce_fn)(train_pos *out, const void *sample);

/* An array of count samples of size bytes each and its reduction. */
typedef struct train_set {
    const void *samples;
    size_t size, count;
    train_reduce_fn reduce;
} train_set;

/* 1 when opts are valid training options. */
int train_options_ok(const dm_train_options *opts);

/* Fit the weights (start: pattern, feature) to the set as dm_eval_train says and
 * write them, rounded to 1/unit, into out (eval_shape_weights(sh) entries). DM_EINVAL
 * for no usable sample, DM_ENOMEM. */
dm_status train_fit(const eval_shape *sh, const int16_t *pattern, const int16_t *feature,
                    const train_set *set, const dm_train_options *opts,
                    dm_train_progress_fn on_epoch, void *payload, int16_t *out, double *loss_out);

/* Mean loss of the weights over the set (-1 on no memory). */
double train_loss(const eval_shape *sh, const int16_t *pattern, const int16_t *feature,
                  const train_set *set, const dm_train_options *opts);

/* ---- samples (engine/sample.c) ----------------------------------------------------- */

/* The sample file header for variant v. */
void sample_header(unsigned char buf[DM_SAMPLE_HEADER_SIZE], uint32_t v);

/* Check s's square sets for a board of squares squares (DM_EPARSE, err says why). */
dm_status sample_check(const dm_sample *s, int squares, dm_error *err);

/* Decode a record of a board of squares squares (dm_sample_decode's checks). */
dm_status sample_decode_sets(dm_sample *out, const unsigned char buf[DM_SAMPLE_RECORD_SIZE],
                             int squares, dm_error *err);

/* s's pieces and side on a cleared board of variant var (squares 1..squares); s must
 * have passed sample_check. */
void sample_to_board(dm_board *out, const dm_sample *s, const dm_variant *var, int squares);

/* The square sets and side of b (squares 1..squares) into s. */
void sample_from_board(dm_sample *s, const dm_board *b, int squares);

/* Decode one record of variant v into out (an element of the caller's array). */
typedef dm_status (*sample_decode_fn)(void *out, const unsigned char *rec, uint32_t v,
                                      dm_error *err);

/* Append every record of the sample file at path to *samples, elements of size bytes
 * (realloc'd, *count and *cap updated, the caller frees). *variant: -1 to take the
 * file's (set on return), else the variant the file must hold. accepts (NULL: any)
 * says whether the reader takes a variant, kind names those it takes ("an 8x8
 * variant"). DM_EIO, DM_EPARSE (with the record number), DM_ENOMEM; a file ending
 * inside a record gives DM_EPARSE and keeps the whole records before it. */
dm_status sample_read_file(void **samples, size_t size, size_t *count, size_t *cap, int *variant,
                           int (*accepts)(uint32_t v), const char *kind, sample_decode_fn decode,
                           const char *path, dm_error *err);

#endif /* DM_ENGINE_EVALCORE_H */
