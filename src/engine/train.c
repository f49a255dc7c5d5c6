/* SPDX-License-Identifier: MIT
 * engine/train.c: fitting evaluation weights to self-play samples: the training loop
 * of every linear pattern evaluation (train_fit, engine/evalcore.h) and the
 * international one (dm_eval_train, damier/eval.h).
 *
 * Training model: the score s (hundredths of a man, White's point of view) is the
 * evaluation's sum before rounding, in floating point: patterns and features, each
 * weight an (opening, endgame) pair interpolated by the phase. The prediction is
 * p = sigmoid(s / scale); the target t = lambda * r + (1 - lambda) * sigmoid(q / scale),
 * r the game result (1, 1/2, 0 for White) and q the search score (White's point of
 * view). The loss is the mean of (p - t)^2 (as in Texel tuning); Adam minimises it
 * over mini-batches, every weight a parameter. Each sample is reduced once to its
 * signed pattern references, features and phase. The weights are rounded to 1/unit
 * steps at the end. Deterministic: the sample order comes from a splitmix64 stream
 * seeded by opts.
 * International: phase = men / 40 (at most 40); a lone king position is not used. */

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <damier/eval.h>
#include "core/move10.h"

#include "engine/eval.h"
#include "engine/evalcore.h"

/* ---- training ------------------------------------------------------------------------ */

/* The reduced samples: n of them, sh->refs references and sh->features values each. */
typedef struct reduced {
    size_t n;
    int nref, nfeat;
    uint32_t *ref;
    int16_t *f;
    float *phase;  /* 0..1 */
    float *target; /* 0..1 */
} reduced;

static uint64_t splitmix(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static double sigmoid(double x)
{
    return 1.0 / (1.0 + exp(-x));
}

int train_options_ok(const dm_train_options *o)
{
    return o && o->version == DM_TRAIN_OPTIONS_VERSION && o->epochs >= 1 && o->batch >= 1 &&
           o->rate > 0 && o->lambda >= 0 && o->lambda <= 1 && o->scale > 0 && o->l2 >= 0 &&
           o->holdout >= 0 && o->holdout <= 0.5;
}

static void reduced_free(reduced *r)
{
    free(r->ref);
    free(r->f);
    free(r->phase);
    free(r->target);
}

/* Reduce every usable sample of set; DM_ENOMEM. */
static dm_status reduce_all(reduced *r, const eval_shape *sh, const train_set *set,
                            const dm_train_options *o)
{
    size_t cap = set->count ? set->count : 1;
    r->n = 0;
    r->nref = sh->refs;
    r->nfeat = sh->features;
    r->ref = malloc(cap * (size_t)sh->refs * sizeof *r->ref);
    r->f = malloc(cap * (size_t)sh->features * sizeof *r->f);
    r->phase = malloc(cap * sizeof *r->phase);
    r->target = malloc(cap * sizeof *r->target);
    if (!r->ref || !r->f || !r->phase || !r->target) {
        return DM_ENOMEM;
    }
    const unsigned char *s = set->samples;
    for (size_t i = 0; i < set->count; i++, s += set->size) {
        train_pos tp = {r->ref + r->n * (size_t)r->nref, r->f + r->n * (size_t)r->nfeat, 0, 0, 0};
        if (!set->reduce(&tp, s)) {
            continue;
        }
        double q = tp.white_score;
        double res = tp.result > 0 ? 1.0 : tp.result < 0 ? 0.0 : 0.5;
        r->phase[r->n] = tp.phase;
        r->target[r->n] = (float)(o->lambda * res + (1.0 - o->lambda) * sigmoid(q / o->scale));
        r->n++;
    }
    return DM_OK;
}

/* s of the model (White's view, hundredths of a man) for reduced sample i with
 * parameters w (in hundredths: patterns first, then features). */
static double model(const float *w, size_t npat, const reduced *r, size_t i)
{
    double open = 0, end = 0;
    const uint32_t *refs = r->ref + i * (size_t)r->nref;
    for (int j = 0; j < r->nref; j++) {
        uint32_t ref = refs[j];
        const float *p = w + (size_t)(ref & 0x7FFFFFFFu) * 2;
        if (ref >> 31) {
            open -= p[0];
            end -= p[1];
        } else {
            open += p[0];
            end += p[1];
        }
    }
    const float *fw = w + npat;
    const int16_t *f = r->f + i * (size_t)r->nfeat;
    for (int k = 0; k < r->nfeat; k++) {
        open += fw[2 * k] * f[k];
        end += fw[2 * k + 1] * f[k];
    }
    return open * r->phase[i] + end * (1.0 - r->phase[i]);
}

static void load_params(float *w, const eval_shape *sh, const int16_t *pattern,
                        const int16_t *feature)
{
    size_t npat = eval_shape_patterns(sh);
    for (size_t i = 0; i < npat; i++) {
        w[i] = (float)pattern[i] / sh->unit;
    }
    for (size_t i = 0; i < (size_t)sh->features * 2; i++) {
        w[npat + i] = (float)feature[i] / sh->unit;
    }
}

double train_loss(const eval_shape *sh, const int16_t *pattern, const int16_t *feature,
                  const train_set *set, const dm_train_options *opts)
{
    reduced rs;
    dm_status st = reduce_all(&rs, sh, set, opts);
    float *w = malloc(eval_shape_weights(sh) * sizeof *w);
    double loss = -1;
    if (st == DM_OK && w) {
        load_params(w, sh, pattern, feature);
        double sum = 0;
        for (size_t i = 0; i < rs.n; i++) {
            double d =
                sigmoid(model(w, eval_shape_patterns(sh), &rs, i) / opts->scale) - rs.target[i];
            sum += d * d;
        }
        loss = rs.n ? sum / (double)rs.n : 0;
    }
    reduced_free(&rs);
    free(w);
    return loss;
}

static int16_t quantise(float v, int unit)
{
    double q = nearbyint((double)v * unit);
    return (int16_t)(q > 32767 ? 32767 : q < -32767 ? -32767 : q);
}

/* Fisher-Yates over order[0..n) from the stream rng. */
static void shuffle(size_t *order, size_t n, uint64_t *rng)
{
    for (size_t i = n; i > 1; i--) {
        size_t j = (size_t)(splitmix(rng) % i);
        size_t t = order[i - 1];
        order[i - 1] = order[j];
        order[j] = t;
    }
}

dm_status train_fit(const eval_shape *sh, const int16_t *pattern, const int16_t *feature,
                    const train_set *set, const dm_train_options *opts,
                    dm_train_progress_fn on_epoch, void *payload, int16_t *out, double *loss_out)
{
    const size_t npat = eval_shape_patterns(sh), nparam = eval_shape_weights(sh);
    reduced rs;
    dm_status st = reduce_all(&rs, sh, set, opts);
    size_t n = rs.n;
    float *w = malloc(nparam * sizeof *w), *grad = calloc(nparam, sizeof *grad);
    float *m1 = calloc(nparam, sizeof *m1), *m2 = calloc(nparam, sizeof *m2);
    uint32_t *touched = malloc(nparam * sizeof *touched);
    uint8_t *mark = calloc(nparam, 1);
    size_t *order = malloc((n ? n : 1) * sizeof *order);
    size_t nhold = (size_t)((double)n * opts->holdout), ntrain = n - nhold;
    double last_hold = 0;
    if (st != DM_OK || !w || !grad || !m1 || !m2 || !touched || !mark || !order) {
        st = DM_ENOMEM;
        goto done;
    }
    if (n == 0 || ntrain == 0) {
        st = DM_EINVAL;
        goto done;
    }
    load_params(w, sh, pattern, feature);
    uint64_t rng = opts->seed;
    for (size_t i = 0; i < n; i++) {
        order[i] = i;
    }
    shuffle(order, n, &rng); /* the held-out samples: the last ones */
    const double b1 = 0.9, b2 = 0.999, eps = 1e-8;
    double b1t = 1, b2t = 1;
    for (int epoch = 1; epoch <= opts->epochs; epoch++) {
        shuffle(order, ntrain, &rng);
        double sum = 0;
        for (size_t at = 0; at < ntrain; at += (size_t)opts->batch) {
            size_t end = at + (size_t)opts->batch < ntrain ? at + (size_t)opts->batch : ntrain;
            size_t nt = 0;
            for (size_t k = at; k < end; k++) {
                size_t i = order[k];
                double p = sigmoid(model(w, npat, &rs, i) / opts->scale);
                double d = p - rs.target[i];
                sum += d * d;
                double g = 2 * d * p * (1 - p) / opts->scale / (double)(end - at);
                double go = g * rs.phase[i], ge = g * (1 - rs.phase[i]);
                const uint32_t *refs = rs.ref + i * (size_t)rs.nref;
                const int16_t *f = rs.f + i * (size_t)rs.nfeat;
                for (int j = 0; j < rs.nref + rs.nfeat; j++) {
                    size_t idx;
                    double sg;
                    if (j < rs.nref) {
                        idx = (size_t)(refs[j] & 0x7FFFFFFFu) * 2;
                        sg = (refs[j] >> 31) ? -1 : 1;
                    } else {
                        idx = npat + 2 * (size_t)(j - rs.nref);
                        sg = f[j - rs.nref];
                    }
                    grad[idx] += (float)(sg * go);
                    grad[idx + 1] += (float)(sg * ge);
                    if (!mark[idx]) {
                        mark[idx] = 1;
                        touched[nt++] = (uint32_t)idx;
                    }
                }
            }
            /* Adam on the parameters this batch touched (lazy: the moments of the
             * others stand still), pairs (opening, endgame) together. */
            b1t *= b1;
            b2t *= b2;
            double lr = opts->rate * sqrt(1 - b2t) / (1 - b1t);
            for (size_t k = 0; k < nt; k++) {
                size_t idx = touched[k];
                for (size_t q = idx; q < idx + 2; q++) {
                    double gq = grad[q];
                    if (q < npat) {
                        gq += opts->l2 * w[q];
                    }
                    m1[q] = (float)(b1 * m1[q] + (1 - b1) * gq);
                    m2[q] = (float)(b2 * m2[q] + (1 - b2) * gq * gq);
                    w[q] -= (float)(lr * m1[q] / (sqrt(m2[q]) + eps));
                    grad[q] = 0;
                }
                mark[idx] = 0;
            }
        }
        double train = sum / (double)ntrain, hs = 0;
        for (size_t k = ntrain; k < n; k++) {
            double d = sigmoid(model(w, npat, &rs, order[k]) / opts->scale) - rs.target[order[k]];
            hs += d * d;
        }
        last_hold = nhold ? hs / (double)nhold : train;
        if (on_epoch) {
            on_epoch(epoch, train, last_hold, payload);
        }
    }
    for (size_t i = 0; i < nparam; i++) {
        out[i] = quantise(w[i], sh->unit);
    }
    if (loss_out) {
        *loss_out = last_hold;
    }
done:
    reduced_free(&rs);
    free(w);
    free(grad);
    free(m1);
    free(m2);
    free(touched);
    free(mark);
    free(order);
    return st;
}

/* ---- international -------------------------------------------------------------------- */

/* Reduce the international sample s (a dm_sample); 0 when it is not usable (capture
 * pending, lone-king rule). */
static int reduce10(train_pos *out, const void *sample)
{
    const dm_sample *s = sample;
    dm_board10 b;
    if (!sample_board10(&b, s) || dm_movegen10_has_capture(&b) || eval_lone_king(&b)) {
        return 0;
    }
    int f[EVAL_FEATURE_NB];
    int phase = eval_features(&b, f);
    if (phase > 40) {
        phase = 40;
    }
    for (int i = 0; i < EVAL_FEATURE_NB; i++) {
        out->f[i] = (int16_t)f[i];
    }
    eval_patterns(&b, out->ref);
    out->phase = (float)phase / 40.0f;
    out->white_score = b.side == DM_WHITE ? s->score : -s->score;
    out->result = s->result;
    return 1;
}

double dm_eval_loss(const dm_eval *ev, const dm_sample *samples, size_t count,
                    const dm_train_options *opts)
{
    if (!ev || !train_options_ok(opts)) {
        return -1;
    }
    train_set set = {samples, sizeof *samples, count, reduce10};
    return train_loss(&eval_shape10, ev->pattern, ev->feature, &set, opts);
}

dm_status dm_eval_train(dm_eval **out, double *loss_out, const dm_eval *start,
                        const dm_sample *samples, size_t count, const dm_train_options *opts,
                        dm_train_progress_fn on_epoch, void *payload)
{
    if (!out || (!samples && count) || !train_options_ok(opts)) {
        return DM_EINVAL;
    }
    dm_eval *hand = NULL, *ev = NULL;
    if (!start) {
        if (dm_eval_new_hand(&hand) != DM_OK) {
            return DM_ENOMEM;
        }
        start = hand;
    }
    int16_t *w = calloc(eval_shape_weights(&eval_shape10), sizeof *w);
    train_set set = {samples, sizeof *samples, count, reduce10};
    dm_status st = w ? train_fit(&eval_shape10, start->pattern, start->feature, &set, opts,
                                 on_epoch, payload, w, loss_out)
                     : DM_ENOMEM;
    if (st == DM_OK && !(ev = eval_wrap(w, opts->name))) {
        st = DM_ENOMEM;
    }
    if (st == DM_OK) {
        *out = ev;
    } else {
        free(w);
    }
    dm_eval_free(hand);
    return st;
}
