/* SPDX-License-Identifier: MIT
 * engine/train.c: fitting the evaluation weights to self-play samples
 * (dm_eval_train, damier/eval.h).
 *
 * Model: the score s (hundredths of a man, White's point of view) is eval_board's
 * sum before rounding, in floating point: patterns and features, each weight an
 * (opening, endgame) pair interpolated by phase/40. The prediction is
 * p = sigmoid(s / scale); the target t = lambda * r + (1 - lambda) * sigmoid(q / scale),
 * r the game result (1, 1/2, 0 for White) and q the search score (White's point of
 * view). The loss is the mean of (p - t)^2 (as in Texel tuning); Adam minimises it
 * over mini-batches, every weight a parameter. Each sample is reduced once to its
 * 28 signed pattern references, 9 features and phase, so an epoch costs about 40
 * multiply-adds per sample. The weights are rounded to EVAL_UNIT steps at the end.
 * Deterministic: the sample order comes from a splitmix64 stream seeded by opts. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <damier/eval.h>
#include <damier/move10.h>

#include "engine/eval.h"

#define NPAT ((size_t)EVAL_WINDOWS * EVAL_CONFIGS * 2)
#define NPARAM (NPAT + EVAL_FEATURE_NB * 2)

typedef struct reduced {
    uint32_t ref[EVAL_WINDOWS_ALL]; /* eval_patterns */
    int16_t f[EVAL_FEATURE_NB];
    float phase;  /* phase / 40, 0..1 */
    float target; /* 0..1 */
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

/* Reduce sample s; 0 when it is not usable (capture pending, lone-king rule). */
static int reduce(reduced *out, const dm_sample *s, const dm_train_options *o)
{
    dm_board10 fast;
    const dm_board10 *b = &fast;
    if (!sample_board10(&fast, s) || dm_movegen10_has_capture(b) || eval_lone_king(b)) {
        return 0;
    }
    int f[EVAL_FEATURE_NB];
    int phase = eval_features(b, f);
    if (phase > 40) {
        phase = 40;
    }
    for (int i = 0; i < EVAL_FEATURE_NB; i++) {
        out->f[i] = (int16_t)f[i];
    }
    eval_patterns(b, out->ref);
    out->phase = (float)phase / 40.0f;
    double q = b->side == DM_WHITE ? s->score : -s->score;
    double r = s->result > 0 ? 1.0 : s->result < 0 ? 0.0 : 0.5;
    out->target = (float)(o->lambda * r + (1.0 - o->lambda) * sigmoid(q / o->scale));
    return 1;
}

/* s of the model (White's view, hundredths of a man) with parameters w (in hundredths:
 * patterns first, then features, each as (opening, endgame)). */
static double model(const float *w, const reduced *r)
{
    double open = 0, end = 0;
    for (int j = 0; j < EVAL_WINDOWS_ALL; j++) {
        uint32_t ref = r->ref[j];
        const float *p = w + (size_t)(ref & 0x7FFFFFFFu) * 2;
        if (ref >> 31) {
            open -= p[0];
            end -= p[1];
        } else {
            open += p[0];
            end += p[1];
        }
    }
    const float *fw = w + NPAT;
    for (int i = 0; i < EVAL_FEATURE_NB; i++) {
        open += fw[2 * i] * r->f[i];
        end += fw[2 * i + 1] * r->f[i];
    }
    return open * r->phase + end * (1.0 - r->phase);
}

static double mean_loss(const float *w, const reduced *rs, size_t n, double scale)
{
    double sum = 0;
    for (size_t i = 0; i < n; i++) {
        double d = sigmoid(model(w, &rs[i]) / scale) - rs[i].target;
        sum += d * d;
    }
    return n ? sum / (double)n : 0;
}

static int options_ok(const dm_train_options *o)
{
    return o && o->version == DM_TRAIN_OPTIONS_VERSION && o->epochs >= 1 && o->batch >= 1 &&
           o->rate > 0 && o->lambda >= 0 && o->lambda <= 1 && o->scale > 0 && o->l2 >= 0 &&
           o->holdout >= 0 && o->holdout <= 0.5;
}

/* Reduce every usable sample; returns the count (0 and *out NULL on no memory). */
static size_t reduce_all(reduced **out, const dm_sample *samples, size_t count,
                         const dm_train_options *o)
{
    reduced *rs = malloc((count ? count : 1) * sizeof *rs);
    *out = rs;
    if (!rs) {
        return 0;
    }
    size_t n = 0;
    for (size_t i = 0; i < count; i++) {
        n += (size_t)reduce(&rs[n], &samples[i], o);
    }
    return n;
}

static void load_params(float *w, const dm_eval *ev)
{
    for (size_t i = 0; i < NPAT; i++) {
        w[i] = (float)ev->pattern[i] / EVAL_UNIT;
    }
    for (size_t i = 0; i < EVAL_FEATURE_NB * 2; i++) {
        w[NPAT + i] = (float)ev->feature[i] / EVAL_UNIT;
    }
}

double dm_eval_loss(const dm_eval *ev, const dm_sample *samples, size_t count,
                    const dm_train_options *opts)
{
    if (!ev || !options_ok(opts)) {
        return -1;
    }
    reduced *rs;
    size_t n = reduce_all(&rs, samples, count, opts);
    float *w = malloc(NPARAM * sizeof *w);
    double loss = -1;
    if (rs && w) {
        load_params(w, ev);
        loss = mean_loss(w, rs, n, opts->scale);
    }
    free(rs);
    free(w);
    return loss;
}

static int16_t quantise(float v)
{
    double q = nearbyint((double)v * EVAL_UNIT);
    return (int16_t)(q > 32767 ? 32767 : q < -32767 ? -32767 : q);
}

dm_status dm_eval_train(dm_eval **out, double *loss_out, const dm_eval *start,
                        const dm_sample *samples, size_t count, const dm_train_options *opts,
                        dm_train_progress_fn on_epoch, void *payload)
{
    if (!out || (!samples && count) || !options_ok(opts)) {
        return DM_EINVAL;
    }
    dm_eval *hand = NULL;
    if (!start) {
        if (dm_eval_new_hand(&hand) != DM_OK) {
            return DM_ENOMEM;
        }
        start = hand;
    }
    dm_status st = DM_OK;
    reduced *rs;
    size_t n = reduce_all(&rs, samples, count, opts);
    float *w = malloc(NPARAM * sizeof *w), *grad = calloc(NPARAM, sizeof *grad);
    float *m1 = calloc(NPARAM, sizeof *m1), *m2 = calloc(NPARAM, sizeof *m2);
    uint32_t *touched = malloc(NPARAM * sizeof *touched);
    uint8_t *mark = calloc(NPARAM, 1);
    size_t *order = malloc((n ? n : 1) * sizeof *order);
    if (!rs || !w || !grad || !m1 || !m2 || !touched || !mark || !order) {
        st = DM_ENOMEM;
        goto done;
    }
    if (n == 0) {
        st = DM_EINVAL;
        goto done;
    }
    load_params(w, start);

    /* The held-out samples: the last ones after one seeded shuffle. */
    uint64_t rng = opts->seed;
    for (size_t i = 0; i < n; i++) {
        order[i] = i;
    }
    for (size_t i = n - 1; i > 0; i--) {
        size_t j = (size_t)(splitmix(&rng) % (i + 1));
        size_t t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    size_t nhold = (size_t)((double)n * opts->holdout);
    size_t ntrain = n - nhold;
    if (ntrain == 0) {
        st = DM_EINVAL;
        goto done;
    }
    /* Hold-out loss from a contiguous copy would double memory: index through order. */
    const double b1 = 0.9, b2 = 0.999, eps = 1e-8;
    double b1t = 1, b2t = 1;
    double last_train = 0, last_hold = 0;
    for (int epoch = 1; epoch <= opts->epochs; epoch++) {
        for (size_t i = ntrain - 1; i > 0; i--) {
            size_t j = (size_t)(splitmix(&rng) % (i + 1));
            size_t t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
        double sum = 0;
        for (size_t at = 0; at < ntrain; at += (size_t)opts->batch) {
            size_t end = at + (size_t)opts->batch < ntrain ? at + (size_t)opts->batch : ntrain;
            size_t nt = 0;
            for (size_t k = at; k < end; k++) {
                const reduced *r = &rs[order[k]];
                double p = sigmoid(model(w, r) / opts->scale);
                double d = p - r->target;
                sum += d * d;
                double g = 2 * d * p * (1 - p) / opts->scale / (double)(end - at);
                double go = g * r->phase, ge = g * (1 - r->phase);
                for (int j = 0; j < EVAL_WINDOWS_ALL; j++) {
                    uint32_t ref = r->ref[j];
                    size_t idx = (size_t)(ref & 0x7FFFFFFFu) * 2;
                    double sg = (ref >> 31) ? -1 : 1;
                    grad[idx] += (float)(sg * go);
                    grad[idx + 1] += (float)(sg * ge);
                    if (!mark[idx]) {
                        mark[idx] = 1;
                        touched[nt++] = (uint32_t)idx;
                    }
                }
                for (int i = 0; i < EVAL_FEATURE_NB; i++) {
                    size_t idx = NPAT + 2 * (size_t)i;
                    grad[idx] += (float)(go * r->f[i]);
                    grad[idx + 1] += (float)(ge * r->f[i]);
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
                    if (q < NPAT) {
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
        last_train = sum / (double)ntrain;
        double hs = 0;
        for (size_t k = ntrain; k < n; k++) {
            double d = sigmoid(model(w, &rs[order[k]]) / opts->scale) - rs[order[k]].target;
            hs += d * d;
        }
        last_hold = nhold ? hs / (double)nhold : last_train;
        if (on_epoch) {
            on_epoch(epoch, last_train, last_hold, payload);
        }
    }
    (void)last_train;

    int16_t *pattern, *feature;
    dm_eval *ev = calloc(1, sizeof *ev);
    int16_t *mem = malloc(NPARAM * sizeof *mem);
    if (!ev || !mem) {
        free(ev);
        free(mem);
        st = DM_ENOMEM;
        goto done;
    }
    pattern = mem;
    feature = mem + NPAT;
    for (size_t i = 0; i < NPAT; i++) {
        pattern[i] = quantise(w[i]);
    }
    for (size_t i = 0; i < EVAL_FEATURE_NB * 2; i++) {
        feature[i] = quantise(w[NPAT + i]);
    }
    ev->pattern = pattern;
    ev->feature = feature;
    ev->owned = mem;
    memcpy(ev->name, opts->name, sizeof ev->name - 1);
    ev->name[sizeof ev->name - 1] = 0;
    *out = ev;
    if (loss_out) {
        *loss_out = last_hold;
    }
done:
    free(rs);
    free(w);
    free(grad);
    free(m1);
    free(m2);
    free(touched);
    free(mark);
    free(order);
    dm_eval_free(hand);
    return st;
}
