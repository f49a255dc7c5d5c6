/* SPDX-License-Identifier: MIT
 * engine/train8.c: 8x8 samples and the fitting of 8x8 weights (damier/eval8.h): the
 * shared sample file and training loop (engine/evalcore.h) with the 8x8 board: the
 * sample's square sets on 32 squares, the 8x8 pattern references and features,
 * phase = men / 24. Deterministic from opts->seed. */
#include <stdlib.h>
#include <string.h>

#include "engine/eval8.h"
#include "engine/evalcore.h"

/* ---- samples ---------------------------------------------------------------------- */

void dm_sample8_header(unsigned char buf[DM_SAMPLE_HEADER_SIZE], dm_variant_id v)
{
    sample_header(buf, (uint32_t)v);
}

void dm_sample8_encode(unsigned char buf[DM_SAMPLE_RECORD_SIZE], const dm_sample8 *s)
{
    dm_sample r;
    sample_from_board(&r, &s->board, 32);
    r.result = s->result;
    r.score = s->score;
    r.ply = s->ply;
    dm_sample_encode(buf, &r);
}

dm_status dm_sample8_decode(dm_sample8 *out, const unsigned char buf[DM_SAMPLE_RECORD_SIZE],
                            dm_variant_id v, dm_error *err)
{
    if (!dm_eval8_supports(v)) {
        return dm_error_set(err, DM_EINVAL, 0, 0, "variant %d has no 8x8 samples", (int)v);
    }
    dm_sample r;
    dm_status st = sample_decode_sets(&r, buf, 32, err);
    if (st != DM_OK) {
        return st;
    }
    sample_to_board(&out->board, &r, dm_variant_get(v), 32);
    out->result = r.result;
    out->score = r.score;
    out->ply = r.ply;
    return DM_OK;
}

static dm_status decode8(void *out, const unsigned char *rec, uint32_t v, dm_error *err)
{
    return dm_sample8_decode(out, rec, (dm_variant_id)v, err);
}

static int accepts8(uint32_t v)
{
    return dm_eval8_supports((dm_variant_id)v);
}

dm_status dm_sample8_read_file(dm_sample8 **samples, size_t *count, size_t *cap, int *variant,
                               const char *path, dm_error *err)
{
    void *mem = *samples;
    dm_status st = sample_read_file(&mem, sizeof **samples, count, cap, variant, accepts8,
                                    "an 8x8 variant", decode8, path, err);
    *samples = mem;
    return st;
}

/* ---- training ----------------------------------------------------------------------- */

/* 1 when the side to move of b must capture. */
static int capture_pending(const dm_board *b)
{
    dm_movelist list;
    return dm_movegen_legal(&list, b) > 0 && list.moves[0].ncapt > 0;
}

/* Reduce the 8x8 sample (a dm_sample8); 0 with a capture pending. */
static int reduce8(train_pos *out, const void *sample)
{
    const dm_sample8 *s = sample;
    if (capture_pending(&s->board)) {
        return 0;
    }
    eval8_pos p;
    eval8_from_board(&p, &s->board);
    int f[EVAL8_FEATURE_NB];
    int phase = eval8_features(&p, f);
    for (int i = 0; i < EVAL8_FEATURE_NB; i++) {
        out->f[i] = (int16_t)f[i];
    }
    eval8_patterns(&p, out->ref);
    out->phase = (float)phase / EVAL8_PHASE;
    out->white_score = s->board.side == DM_WHITE ? s->score : -s->score;
    out->result = s->result;
    return 1;
}

double dm_eval8_loss(const dm_eval8 *ev, const dm_sample8 *samples, size_t count,
                     const dm_train_options *opts)
{
    if (!ev || (!samples && count) || !train_options_ok(opts)) {
        return -1;
    }
    train_set set = {samples, sizeof *samples, count, reduce8};
    return train_loss(&eval_shape8, ev->pattern, ev->feature, &set, opts);
}

dm_status dm_eval8_train(dm_eval8 **out, double *loss_out, const dm_eval8 *start, dm_variant_id v,
                         const dm_sample8 *samples, size_t count, const dm_train_options *opts,
                         dm_train_progress_fn on_epoch, void *payload)
{
    if (!out || (!samples && count) || !train_options_ok(opts) || !dm_eval8_supports(v) ||
        (start && start->variant != v)) {
        return DM_EINVAL;
    }
    for (size_t i = 0; i < count; i++) {
        if (samples[i].board.variant != dm_variant_get(v)) {
            return DM_EINVAL;
        }
    }
    dm_eval8 *hand = NULL, *ev = NULL;
    if (!start) {
        dm_status hs = dm_eval8_new_hand(&hand, v);
        if (hs != DM_OK) {
            return hs;
        }
        start = hand;
    }
    int16_t *w = calloc(EVAL8_WEIGHTS, sizeof *w);
    train_set set = {samples, sizeof *samples, count, reduce8};
    dm_status st = w ? train_fit(&eval_shape8, start->pattern, start->feature, &set, opts, on_epoch,
                                 payload, w, loss_out)
                     : DM_ENOMEM;
    if (st == DM_OK && !(ev = eval8_wrap(w, v, opts->name))) {
        st = DM_ENOMEM;
    }
    if (st == DM_OK) {
        *out = ev;
    } else {
        free(w);
    }
    dm_eval8_free(hand);
    return st;
}
