/* SPDX-License-Identifier: MIT
 * damier/eval8.h: a learnable evaluation of the 8x8 draughts variants (Russian,
 * Brazilian, ... : any variant on the 8x8 diagonal board), its weights file, 8x8
 * self-play samples and their trainer: the pipeline of damier/eval.h for 8x8.
 *
 * The score, in hundredths of a man from White's point of view, is the sum of
 *   - pattern weights: 4x4 windows of the 32-square board (window (r, k) holds
 *     squares k+1 and k+2, counted 1-4 within the row, of rows r..r+3; r = 0..4,
 *     k = 0..2: 15 windows), each window's men (empty or king / White man / Black
 *     man, base 3) indexing 3^8 = 6561 weights. Eight tables (windows (0..1, 0..2),
 *     (2, 0), (2, 1)) are read twice: on the position (added) and on its colour-
 *     flipped 180-degree turn (subtracted), which covers the 15 windows and makes
 *     the score antisymmetric whatever the weights;
 *   - feature weights: men, kings, tempo (rows advanced by the men), back-row men,
 *     centre men (squares 14, 15, 18, 19), king centralisation (7 - distance to the
 *     centre, summed), White's minus Black's;
 * each an (opening, endgame) pair interpolated by the number of men (24 .. 0). The
 * hand-set weights (patterns zero) give exactly the variant search's hand
 * evaluation, which is where training starts.
 *
 * File: the ".dmev" format of damier/eval.h, version 1, with variant = the 8x8
 * variant's dm_variant_id, 8 windows of 6561 configurations, 6 features, unit 8:
 * 210040 bytes. docs/EVAL.md. */
#ifndef DM_EVAL8_H
#define DM_EVAL8_H

#include <stddef.h>
#include <stdint.h>

#include <damier/engine.h>
#include <damier/eval.h>
#include <damier/status.h>
#include <damier/variant.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Weights of an 8x8 evaluation for one variant. Opaque; immutable once made. */
typedef struct dm_eval8 dm_eval8;

/* Bytes of an 8x8 weights file. */
#define DM_EVAL8_FILE_SIZE 210040u

/* 1 when variant v can have 8x8 weights (8x8 diagonal board, not antidraughts or
 * breakthrough, whose hand evaluations are of another kind). */
DM_API int dm_eval8_supports(dm_variant_id v);

/* The weights built into the library for v (trained, docs/EVAL.md), or NULL when
 * v has none (the engine then uses the hand evaluation). Static, never freed. */
DM_API const dm_eval8 *dm_eval8_builtin(dm_variant_id v);

/* The hand-set weights of v (the search's hand evaluation). DM_EINVAL when v is not
 * supported, DM_ENOMEM. *out belongs to the caller (dm_eval8_free). */
DM_API dm_status dm_eval8_new_hand(dm_eval8 **out, dm_variant_id v);

/* Read weights for variant v from size bytes at data. DM_EPARSE, with err saying
 * which, for a wrong magic, version, variant (another variant's weights, e.g.
 * international), shape, size (truncated) or checksum; *out is then untouched. */
DM_API dm_status dm_eval8_read(dm_eval8 **out, const void *data, size_t size, dm_variant_id v,
                               dm_error *err);

/* dm_eval8_read from a file; DM_EIO when it cannot be read (err names the path). */
DM_API dm_status dm_eval8_load(dm_eval8 **out, const char *path, dm_variant_id v, dm_error *err);

/* The variant a weights file at path is for (its header), or -1 with err set when it
 * is no weights file. Lets a command choose the reader. */
DM_API int dm_eval_file_variant(const char *path, dm_error *err);

/* Write ev into buf (DM_EVAL8_FILE_SIZE bytes); DM_EBUFS when cap is smaller. */
DM_API dm_status dm_eval8_write(const dm_eval8 *ev, void *buf, size_t cap);

/* dm_eval8_write to a file (PATH.tmp, then renamed); DM_EIO. */
DM_API dm_status dm_eval8_save(const dm_eval8 *ev, const char *path, dm_error *err);

/* Free weights made by this header's functions (NULL and built-in ones are fine). */
DM_API void dm_eval8_free(dm_eval8 *ev);

/* Name stored with the weights ("hand" for dm_eval8_new_hand), and their variant. */
DM_API const char *dm_eval8_name(const dm_eval8 *ev);
DM_API dm_variant_id dm_eval8_variant(const dm_eval8 *ev);

/* Static score of b (a position of ev's variant) for the side to move, hundredths of
 * a man. */
DM_API int dm_eval8_score(const dm_eval8 *ev, const dm_board *b);

/* The weights e uses for variant v: ev (borrowed, must outlive the engine's use; its
 * variant must be v), or NULL for the built-in default (dm_eval8_builtin, else the
 * hand evaluation). Weights from dm_eval8_new_hand select the hand evaluation itself.
 * DM_EINVAL for a variant mismatch or unsupported v, DM_ESTATE while searching. */
DM_API dm_status dm_engine_set_eval8(dm_engine *e, dm_variant_id v, const dm_eval8 *ev);

/* ---- 8x8 samples ---------------------------------------------------------------- */

/* One training position of an 8x8 variant. On disk the 32-byte record of
 * damier/eval.h (bit s-1 for square s, s = 1..32); the file header carries the
 * variant id. */
typedef struct dm_sample8 {
    dm_board board;
    int result; /* 1, 0, -1: White won, draw, Black won */
    int score;  /* side to move's point of view, hundredths of a man */
    int ply;
} dm_sample8;

/* The 16-byte file header for variant v into buf. */
DM_API void dm_sample8_header(unsigned char buf[DM_SAMPLE_HEADER_SIZE], dm_variant_id v);

/* Encode s into buf (DM_SAMPLE_RECORD_SIZE bytes). */
DM_API void dm_sample8_encode(unsigned char buf[DM_SAMPLE_RECORD_SIZE], const dm_sample8 *s);

/* Decode a record of variant v; DM_EPARSE (err says why) for pieces beyond square
 * 32, overlapping colours, kings that are no piece, a bad side or result. */
DM_API dm_status dm_sample8_decode(dm_sample8 *out, const unsigned char buf[DM_SAMPLE_RECORD_SIZE],
                                   dm_variant_id v, dm_error *err);

/* Append every sample of the file at path to *samples (realloc'd; the caller frees).
 * *variant: -1 to take the file's variant (set on return), else the variant the file
 * must hold (DM_EPARSE naming both otherwise). A file that ends inside a record
 * gives DM_EPARSE and keeps the whole records before it. DM_EIO, DM_ENOMEM. */
DM_API dm_status dm_sample8_read_file(dm_sample8 **samples, size_t *count, size_t *cap,
                                      int *variant, const char *path, dm_error *err);

/* Fit 8x8 weights for variant v to the samples, as dm_eval_train (same options,
 * model and loss), starting from start (NULL: the hand weights of v). Samples with a
 * capture pending are skipped. Deterministic for the same samples and options.
 * DM_EINVAL for bad options, an unsupported v or a start of another variant, or no
 * usable sample; DM_ENOMEM. */
DM_API dm_status dm_eval8_train(dm_eval8 **out, double *loss_out, const dm_eval8 *start,
                                dm_variant_id v, const dm_sample8 *samples, size_t count,
                                const dm_train_options *opts, dm_train_progress_fn on_epoch,
                                void *payload);

/* Mean loss of ev over samples under opts' lambda and scale; -1 on bad arguments. */
DM_API double dm_eval8_loss(const dm_eval8 *ev, const dm_sample8 *samples, size_t count,
                            const dm_train_options *opts);

#ifdef __cplusplus
}
#endif
#endif /* DM_EVAL8_H */
