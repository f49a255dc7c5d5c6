/* SPDX-License-Identifier: MIT
 * engine/train8.c: 8x8 samples and the fitting of 8x8 weights (damier/eval8.h). The
 * model, loss and optimiser are those of engine/train.c (dm_eval_train): the
 * prediction sigmoid(s / scale) against lambda * result + (1 - lambda) *
 * sigmoid(search score / scale), mean squared error, Adam over mini-batches on the
 * weights a batch touches, phase = men / 24. Deterministic from opts->seed. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/eval8.h"
#include "engine/le.h"

/* ---- samples ---------------------------------------------------------------------- */

void dm_sample8_header(unsigned char buf[DM_SAMPLE_HEADER_SIZE], dm_variant_id v)
{
    memcpy(buf, "DMSP", 4);
    le_put32(buf + 4, 1);
    le_put32(buf + 8, DM_SAMPLE_RECORD_SIZE);
    le_put32(buf + 12, (uint32_t)v);
}

void dm_sample8_encode(unsigned char buf[DM_SAMPLE_RECORD_SIZE], const dm_sample8 *s)
{
    eval8_pos p;
    eval8_from_board(&p, &s->board);
    memset(buf, 0, DM_SAMPLE_RECORD_SIZE);
    le_put64(buf, p.wm | p.wk);
    le_put64(buf + 8, p.bm | p.bk);
    le_put64(buf + 16, p.wk | p.bk);
    buf[24] = (unsigned char)s->board.side;
    buf[25] = (unsigned char)(int8_t)s->result;
    le_put16(buf + 26, (uint16_t)(int16_t)s->score);
    le_put16(buf + 28, (uint16_t)s->ply);
}

dm_status dm_sample8_decode(dm_sample8 *out, const unsigned char buf[DM_SAMPLE_RECORD_SIZE],
                            dm_variant_id v, dm_error *err)
{
    uint64_t w = le_get64(buf), bl = le_get64(buf + 8), k = le_get64(buf + 16);
    if (!dm_eval8_supports(v)) {
        return dm_error_set(err, DM_EINVAL, 0, 0, "variant %d has no 8x8 samples", (int)v);
    }
    if ((w | bl | k) >> 32) {
        return dm_error_set(err, DM_EPARSE, 0, 0, "a piece beyond square 32");
    }
    if (w & bl) {
        return dm_error_set(err, DM_EPARSE, 0, 0, "a square holds both colours");
    }
    if (k & ~(w | bl)) {
        return dm_error_set(err, DM_EPARSE, 0, 0, "a king on an empty square");
    }
    int side = buf[24], result = (int8_t)buf[25];
    if (side > 1 || result < -1 || result > 1) {
        return dm_error_set(err, DM_EPARSE, 0, 0, "bad side to move (%d) or result (%d)", side,
                            result);
    }
    dm_board_clear(&out->board, dm_variant_get(v));
    for (int s = 1; s <= 32; s++) {
        uint64_t m = UINT64_C(1) << (s - 1);
        if ((w | bl) & m) {
            int king = (k & m) != 0;
            dm_board_put(&out->board, s,
                         (w & m) ? (king ? DM_WHITE_KING : DM_WHITE_MAN)
                                 : (king ? DM_BLACK_KING : DM_BLACK_MAN));
        }
    }
    out->board.side = side;
    out->result = result;
    out->score = (int16_t)le_get16(buf + 26);
    out->ply = le_get16(buf + 28);
    return DM_OK;
}

dm_status dm_sample8_read_file(dm_sample8 **samples, size_t *count, size_t *cap, int *variant,
                               const char *path, dm_error *err)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        return dm_error_set(err, DM_EIO, 0, 0, "%s: %s", path, strerror(errno));
    }
    unsigned char h[DM_SAMPLE_HEADER_SIZE];
    if (fread(h, 1, sizeof h, f) != sizeof h || memcmp(h, "DMSP", 4) != 0 || le_get32(h + 4) != 1 ||
        le_get32(h + 8) != DM_SAMPLE_RECORD_SIZE) {
        fclose(f);
        return dm_error_set(err, DM_EPARSE, 0, 0,
                            "%s: not a damier sample file (version 1, 32-byte records)", path);
    }
    uint32_t fv = le_get32(h + 12);
    if (*variant >= 0 && fv != (uint32_t)*variant) {
        fclose(f);
        return dm_error_set(err, DM_EPARSE, 0, 0, "%s: samples of variant %u, expected %d", path,
                            fv, *variant);
    }
    if (fv >= DM_VARIANT_COUNT || !dm_eval8_supports((dm_variant_id)fv)) {
        fclose(f);
        return dm_error_set(err, DM_EPARSE, 0, 0, "%s: samples of variant %u, not an 8x8 variant",
                            path, fv);
    }
    *variant = (int)fv;
    unsigned char rec[DM_SAMPLE_RECORD_SIZE];
    size_t n, index = 0;
    dm_status st = DM_OK;
    while ((n = fread(rec, 1, sizeof rec, f)) == sizeof rec) {
        if (*count == *cap) {
            size_t nc = *cap ? *cap * 2 : 4096;
            dm_sample8 *ns = realloc(*samples, nc * sizeof *ns);
            if (!ns) {
                st = dm_error_set(err, DM_ENOMEM, 0, 0, "out of memory");
                break;
            }
            *samples = ns;
            *cap = nc;
        }
        dm_error e2;
        if (dm_sample8_decode(&(*samples)[*count], rec, (dm_variant_id)fv, &e2) != DM_OK) {
            st = dm_error_set(err, DM_EPARSE, 0, 0, "%s: record %zu: %s", path, index + 1,
                              e2.message);
            break;
        }
        ++*count;
        index++;
    }
    if (st == DM_OK && n != 0) {
        st = dm_error_set(err, DM_EPARSE, 0, 0, "%s: ends inside record %zu (%zu of %u bytes)",
                          path, index + 1, n, DM_SAMPLE_RECORD_SIZE);
    }
    if (st == DM_OK && ferror(f)) {
        st = dm_error_set(err, DM_EIO, 0, 0, "%s: read error", path);
    }
    fclose(f);
    return st;
}

/* ---- training ----------------------------------------------------------------------- */

typedef struct reduced {
    uint32_t ref[EVAL8_REFS];
    int16_t f[EVAL8_FEATURE_NB];
    float phase;  /* men / 24 */
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

/* 1 when the side to move of b must capture. */
static int capture_pending(const dm_board *b)
{
    dm_movelist list;
    return dm_movegen_legal(&list, b) > 0 && list.moves[0].ncapt > 0;
}

static int reduce(reduced *out, const dm_sample8 *s, const dm_train_options *o)
{
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
    double q = s->board.side == DM_WHITE ? s->score : -s->score;
    double r = s->result > 0 ? 1.0 : s->result < 0 ? 0.0 : 0.5;
    out->target = (float)(o->lambda * r + (1.0 - o->lambda) * sigmoid(q / o->scale));
    return 1;
}

static double model(const float *w, const reduced *r)
{
    double open = 0, end = 0;
    for (int j = 0; j < EVAL8_REFS; j++) {
        uint32_t ref = r->ref[j];
        const float *p = w + (size_t)(ref & 0x7FFFFFFFu) * 2;
        double sg = (ref >> 31) ? -1 : 1;
        open += sg * p[0];
        end += sg * p[1];
    }
    const float *fw = w + EVAL8_PATTERN_WEIGHTS;
    for (int i = 0; i < EVAL8_FEATURE_NB; i++) {
        open += fw[2 * i] * r->f[i];
        end += fw[2 * i + 1] * r->f[i];
    }
    return open * r->phase + end * (1.0 - r->phase);
}

static int options_ok(const dm_train_options *o)
{
    return o && o->version == DM_TRAIN_OPTIONS_VERSION && o->epochs >= 1 && o->batch >= 1 &&
           o->rate > 0 && o->lambda >= 0 && o->lambda <= 1 && o->scale > 0 && o->l2 >= 0 &&
           o->holdout >= 0 && o->holdout <= 0.5;
}

static size_t reduce_all(reduced **out, const dm_sample8 *samples, size_t count,
                         const dm_train_options *o)
{
    reduced *rs = malloc((count ? count : 1) * sizeof *rs);
    *out = rs;
    size_t n = 0;
    for (size_t i = 0; rs && i < count; i++) {
        n += (size_t)reduce(&rs[n], &samples[i], o);
    }
    return n;
}

static void load_params(float *w, const dm_eval8 *ev)
{
    for (size_t i = 0; i < EVAL8_PATTERN_WEIGHTS; i++) {
        w[i] = (float)ev->pattern[i] / EVAL8_UNIT;
    }
    for (size_t i = 0; i < EVAL8_FEATURE_NB * 2; i++) {
        w[EVAL8_PATTERN_WEIGHTS + i] = (float)ev->feature[i] / EVAL8_UNIT;
    }
}

double dm_eval8_loss(const dm_eval8 *ev, const dm_sample8 *samples, size_t count,
                     const dm_train_options *opts)
{
    if (!ev || (!samples && count) || !options_ok(opts)) {
        return -1;
    }
    reduced *rs;
    size_t n = reduce_all(&rs, samples, count, opts);
    float *w = malloc(EVAL8_WEIGHTS * sizeof *w);
    double loss = -1;
    if (rs && w) {
        load_params(w, ev);
        double sum = 0;
        for (size_t i = 0; i < n; i++) {
            double d = sigmoid(model(w, &rs[i]) / opts->scale) - rs[i].target;
            sum += d * d;
        }
        loss = n ? sum / (double)n : 0;
    }
    free(rs);
    free(w);
    return loss;
}

static int16_t quantise(float v)
{
    double q = nearbyint((double)v * EVAL8_UNIT);
    return (int16_t)(q > 32767 ? 32767 : q < -32767 ? -32767 : q);
}

static void shuffle(size_t *order, size_t n, uint64_t *rng)
{
    for (size_t i = n; i > 1; i--) {
        size_t j = (size_t)(splitmix(rng) % i);
        size_t t = order[i - 1];
        order[i - 1] = order[j];
        order[j] = t;
    }
}

dm_status dm_eval8_train(dm_eval8 **out, double *loss_out, const dm_eval8 *start, dm_variant_id v,
                         const dm_sample8 *samples, size_t count, const dm_train_options *opts,
                         dm_train_progress_fn on_epoch, void *payload)
{
    if (!out || (!samples && count) || !options_ok(opts) || !dm_eval8_supports(v) ||
        (start && start->variant != v)) {
        return DM_EINVAL;
    }
    for (size_t i = 0; i < count; i++) {
        if (samples[i].board.variant != dm_variant_get(v)) {
            return DM_EINVAL;
        }
    }
    dm_eval8 *hand = NULL;
    if (!start) {
        dm_status hs = dm_eval8_new_hand(&hand, v);
        if (hs != DM_OK) {
            return hs;
        }
        start = hand;
    }
    dm_status st = DM_OK;
    reduced *rs;
    size_t n = reduce_all(&rs, samples, count, opts);
    float *w = malloc(EVAL8_WEIGHTS * sizeof *w), *grad = calloc(EVAL8_WEIGHTS, sizeof *grad);
    float *m1 = calloc(EVAL8_WEIGHTS, sizeof *m1), *m2 = calloc(EVAL8_WEIGHTS, sizeof *m2);
    uint32_t *touched = malloc(EVAL8_WEIGHTS * sizeof *touched);
    uint8_t *mark = calloc(EVAL8_WEIGHTS, 1);
    size_t *order = malloc((n ? n : 1) * sizeof *order);
    size_t nhold = 0, ntrain = 0;
    double last_hold = 0;
    if (!rs || !w || !grad || !m1 || !m2 || !touched || !mark || !order) {
        st = DM_ENOMEM;
        goto done;
    }
    nhold = (size_t)((double)n * opts->holdout);
    ntrain = n - nhold;
    if (n == 0 || ntrain == 0) {
        st = DM_EINVAL;
        goto done;
    }
    load_params(w, start);
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
                const reduced *r = &rs[order[k]];
                double p = sigmoid(model(w, r) / opts->scale);
                double d = p - r->target;
                sum += d * d;
                double g = 2 * d * p * (1 - p) / opts->scale / (double)(end - at);
                double go = g * r->phase, ge = g * (1 - r->phase);
                for (int j = 0; j < EVAL8_REFS + EVAL8_FEATURE_NB; j++) {
                    size_t idx;
                    double sg;
                    if (j < EVAL8_REFS) {
                        idx = (size_t)(r->ref[j] & 0x7FFFFFFFu) * 2;
                        sg = (r->ref[j] >> 31) ? -1 : 1;
                    } else {
                        idx = EVAL8_PATTERN_WEIGHTS + 2 * (size_t)(j - EVAL8_REFS);
                        sg = r->f[j - EVAL8_REFS];
                    }
                    grad[idx] += (float)(sg * go);
                    grad[idx + 1] += (float)(sg * ge);
                    if (!mark[idx]) {
                        mark[idx] = 1;
                        touched[nt++] = (uint32_t)idx;
                    }
                }
            }
            b1t *= b1;
            b2t *= b2;
            double lr = opts->rate * sqrt(1 - b2t) / (1 - b1t);
            for (size_t k = 0; k < nt; k++) {
                size_t idx = touched[k];
                for (size_t q = idx; q < idx + 2; q++) {
                    double gq = grad[q] + (q < EVAL8_PATTERN_WEIGHTS ? opts->l2 * w[q] : 0);
                    m1[q] = (float)(b1 * m1[q] + (1 - b1) * gq);
                    m2[q] = (float)(b2 * m2[q] + (1 - b2) * gq * gq);
                    w[q] -= (float)(lr * m1[q] / (sqrt(m2[q]) + eps));
                    grad[q] = 0;
                }
                mark[idx] = 0;
            }
        }
        double train_loss = sum / (double)ntrain, hs = 0;
        for (size_t k = ntrain; k < n; k++) {
            double d = sigmoid(model(w, &rs[order[k]]) / opts->scale) - rs[order[k]].target;
            hs += d * d;
        }
        last_hold = nhold ? hs / (double)nhold : train_loss;
        if (on_epoch) {
            on_epoch(epoch, train_loss, last_hold, payload);
        }
    }
    int16_t *mem;
    dm_eval8 *ev = eval8_alloc(&mem);
    if (!ev) {
        st = DM_ENOMEM;
        goto done;
    }
    for (size_t i = 0; i < EVAL8_WEIGHTS; i++) {
        mem[i] = quantise(w[i]);
    }
    ev->variant = v;
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
    dm_eval8_free(hand);
    return st;
}
