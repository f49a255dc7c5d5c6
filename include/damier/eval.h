/* SPDX-License-Identifier: MIT
 * damier/eval.h: the evaluation of international draughts as data (weights), its
 * file format, self-play training samples and the trainer that fits the weights.
 *
 * The evaluation is linear: a score in hundredths of a man from White's point of
 * view is the sum of
 *   - pattern weights: the board is covered by 28 overlapping windows of 4 rows by
 *     4 columns (8 playable squares each: window (r, k) holds squares k+1 and k+2
 *     of rows r..r+3, counting squares 1-5 within a row, r = 0..6, k = 0..3); each
 *     window's men (empty or king / White man / Black man, base 3) index one of
 *     3^8 = 6561 weights. Colour symmetry is built in: the window turned by 180
 *     degrees, with the colours swapped, reads the same table negated, so 14 tables
 *     hold the 28 windows;
 *   - feature weights: material and the hand-made features of dm_engine_features;
 * each with an opening (40 men) and an endgame (0 men) weight, interpolated by the
 * number of men on the board. A lone king against at most three pieces, with no
 * man that can run, pulls the score towards a draw (FMJD 6, 16-move rule).
 *
 * File format (".dmev", version 1, little-endian): "DMEV", u32 version (1), u32
 * variant (0 = international), u32 windows (14), u32 configurations (6561), u32
 * features (63), u32 unit (8: weights are in 1/8 hundredth of a man), 32 bytes of
 * name (NUL-padded), i16 pattern[windows][configurations][2] (opening, endgame),
 * i16 feature[features][2], u32 FNV-1a hash of every byte before it. A file of
 * fewer features (9 before king mobility, king squares, extra kings and balance were
 * added) reads with the later features weighing 0. docs/EVAL.md. */
#ifndef DM_EVAL_H
#define DM_EVAL_H

#include <stddef.h>
#include <stdint.h>

#include <damier/status.h>
#include <damier/variant.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A set of evaluation weights. Opaque; immutable once made (engines share it). */
typedef struct dm_eval dm_eval;

#define DM_EVAL_FORMAT_VERSION 1
/* Bytes of a version-1 weights file as written now (63 features); one of 9 features,
 * written before, is 367516 bytes and still read. */
#define DM_EVAL_FILE_SIZE 367732u

/* The weights built into the library (trained, docs/EVAL.md gives the recipe). Static,
 * never freed; what engines use unless dm_engine_set_eval says otherwise. */
DM_API const dm_eval *dm_eval_builtin(void);

/* The hand-set weights of evaluation v1 (patterns all zero): the start of training.
 * *out belongs to the caller (dm_eval_free). DM_ENOMEM. */
DM_API dm_status dm_eval_new_hand(dm_eval **out);

/* Read weights from size bytes at data (the file format above). On error *out is
 * untouched and err says what is wrong: DM_EPARSE for a wrong magic, version,
 * shape, size (truncated) or checksum. *out belongs to the caller (dm_eval_free). */
DM_API dm_status dm_eval_read(dm_eval **out, const void *data, size_t size, dm_error *err);

/* dm_eval_read from a file; DM_EIO when it cannot be read. */
DM_API dm_status dm_eval_load(dm_eval **out, const char *path, dm_error *err);

/* Write ev in the file format into buf (DM_EVAL_FILE_SIZE bytes); DM_EBUFS when cap
 * is smaller. */
DM_API dm_status dm_eval_write(const dm_eval *ev, void *buf, size_t cap);

/* dm_eval_write to a file (written to PATH.tmp, then renamed); DM_EIO. */
DM_API dm_status dm_eval_save(const dm_eval *ev, const char *path, dm_error *err);

/* Free weights made by dm_eval_read/_load/_new_hand (NULL and the built-in are fine). */
DM_API void dm_eval_free(dm_eval *ev);

/* The name stored with the weights (at most 31 bytes; "hand" for dm_eval_new_hand). */
DM_API const char *dm_eval_name(const dm_eval *ev);

/* Static score of b (an international position, evaluated on the fast 10x10 board
 * inside) with weights ev (NULL: dm_eval_builtin), in hundredths of a man, from the
 * side to move's point of view (what the search uses at quiet positions); 0 for a
 * NULL board or a position of another variant. */
DM_API int dm_eval_score(const dm_eval *ev, const dm_board *b);

/* ---- self-play samples ------------------------------------------------------ */

/* One training position: a quiet international position (no capture pending) from a
 * game, the engine's score and the game's result. The position is kept as the record
 * keeps it, three square sets (bit s-1 for square s, 1..50), so that millions of
 * samples stay small; dm_sample_position / dm_sample_set_position convert to and from
 * the generic position. On disk 32 bytes, little-endian: u64 White pieces, u64 Black
 * pieces, u64 kings, u8 side to move (0 White), i8 result (1 White won, 0 draw, -1
 * Black won), i16 score (side to move's point of view, hundredths of a man, as
 * dm_engine_search reported), u16 ply of the game, u16 reserved (0). A sample file is
 * the 16-byte header "DMSP", u32 version 1, u32 record size 32, u32 variant 0, then
 * records. */
typedef struct dm_sample {
    uint64_t white; /* White's men and kings */
    uint64_t black; /* Black's men and kings */
    uint64_t kings; /* the kings of both colours */
    int side;       /* dm_color to move */
    int result;     /* 1, 0, -1: White won, draw, Black won */
    int score;      /* side to move's point of view */
    int ply;
} dm_sample;

/* The position of s as an international dm_board. DM_EINVAL (out untouched) for
 * pieces beyond square 50, overlapping colours, kings that are no piece or a bad side
 * (what dm_sample_decode refuses). */
DM_API dm_status dm_sample_position(dm_board *out, const dm_sample *s);

/* Set the pieces and side to move of s from b (international; result, score and ply
 * are left as they are). DM_EINVAL for NULLs or a position of another variant. */
DM_API dm_status dm_sample_set_position(dm_sample *s, const dm_board *b);

#define DM_SAMPLE_HEADER_SIZE 16u
#define DM_SAMPLE_RECORD_SIZE 32u

/* The file header into buf (DM_SAMPLE_HEADER_SIZE bytes). */
DM_API void dm_sample_header(unsigned char buf[DM_SAMPLE_HEADER_SIZE]);

/* Encode s into buf (DM_SAMPLE_RECORD_SIZE bytes). */
DM_API void dm_sample_encode(unsigned char buf[DM_SAMPLE_RECORD_SIZE], const dm_sample *s);

/* Decode a record; DM_EPARSE (err says why) for pieces off the board, overlapping
 * colours, kings that are no piece, a bad side or result. */
DM_API dm_status dm_sample_decode(dm_sample *out, const unsigned char buf[DM_SAMPLE_RECORD_SIZE],
                                  dm_error *err);

/* Read every sample of a file and append it to *samples (realloc'd; *count and *cap
 * are updated; the caller frees *samples). DM_EIO, DM_EPARSE with the record number
 * in err for a wrong header or record, DM_ENOMEM. A file that ends inside a record
 * (a stop while writing) gives DM_EPARSE and keeps the whole records before it. */
DM_API dm_status dm_sample_read_file(dm_sample **samples, size_t *count, size_t *cap,
                                     const char *path, dm_error *err);

/* ---- training ----------------------------------------------------------------- */

/* Options of dm_eval_train. Initialise with DM_TRAIN_OPTIONS_INIT. */
typedef struct dm_train_options {
    int version;    /* DM_TRAIN_OPTIONS_VERSION */
    int epochs;     /* passes over the samples, >= 1 */
    int batch;      /* samples per step, >= 1 */
    double rate;    /* Adam step size, hundredths of a man */
    double lambda;  /* target = lambda * result + (1 - lambda) * sigmoid(score / scale) */
    double scale;   /* hundredths of a man for a factor e in win odds (sigmoid(s/scale)) */
    double l2;      /* weight decay of the pattern weights per step */
    uint64_t seed;  /* order of the samples (the result depends on it only) */
    double holdout; /* fraction 0..0.5 of samples kept out of training for validation */
    char name[32];  /* name stored with the weights */
} dm_train_options;

#define DM_TRAIN_OPTIONS_VERSION 1
#define DM_TRAIN_OPTIONS_INIT                                                                      \
    {                                                                                              \
        DM_TRAIN_OPTIONS_VERSION, 10, 4096, 1.0, 0.5, 250.0, 0.0, 1, 0.05, "trained"               \
    }

/* Progress after each epoch: mean loss over the training and held-out samples. */
typedef void (*dm_train_progress_fn)(int epoch, double train_loss, double holdout_loss,
                                     void *payload);

/* Fit the weights to the samples (logistic regression, mean squared error of
 * sigmoid(eval/scale) against the target, Adam), starting from start (NULL: the hand
 * weights), and return them in *out (the caller's, dm_eval_free). Samples with a
 * capture pending are skipped. Deterministic for the same samples and options.
 * *loss_out (may be NULL) gets the final held-out loss (the training loss when
 * holdout is 0). DM_EINVAL for bad options or no usable sample, DM_ENOMEM. */
DM_API dm_status dm_eval_train(dm_eval **out, double *loss_out, const dm_eval *start,
                               const dm_sample *samples, size_t count, const dm_train_options *opts,
                               dm_train_progress_fn on_epoch, void *payload);

/* Mean loss of ev over samples under opts' lambda and scale (no training). */
DM_API double dm_eval_loss(const dm_eval *ev, const dm_sample *samples, size_t count,
                           const dm_train_options *opts);

#ifdef __cplusplus
}
#endif
#endif /* DM_EVAL_H */
