/* SPDX-License-Identifier: MIT
 * engine/evalfile.c: evaluation weights as data (damier/eval.h): the hand-set
 * weights and the file format (read, write, checksum). Also compiled into tools/genweights.c, which turns a weights file into the built-in
 * weights at build time, so there is one reader. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <damier/eval.h>

#include "engine/le.h"

#include "engine/eval.h"
#include "util/filesave.h"

/* The hand-set weights of evaluation v1 (hundredths of a man): opening (40 men) and
 * endgame (0 men), in the order of eval_feature_names. */
static const int eval_hand_open[EVAL_FEATURE_NB] = {100, 300, 1, 6, 8, 6, 8, -4, 10};
static const int eval_hand_end[EVAL_FEATURE_NB] = {100, 330, 4, 2, 0, 2, 30, -2, 20};

#define PATTERN_WEIGHTS ((size_t)EVAL_WINDOWS * EVAL_CONFIGS * 2)
#define HEADER_SIZE 60u

/* A dm_eval with its weights in one allocation (writable until handed out). */
static dm_eval *eval_alloc(int16_t **pattern, int16_t **feature)
{
    dm_eval *ev = calloc(1, sizeof *ev);
    int16_t *w = calloc(PATTERN_WEIGHTS + EVAL_FEATURE_NB * 2, sizeof *w);
    if (!ev || !w) {
        free(ev);
        free(w);
        return NULL;
    }
    ev->pattern = w;
    ev->feature = w + PATTERN_WEIGHTS;
    ev->owned = w;
    *pattern = w;
    *feature = w + PATTERN_WEIGHTS;
    return ev;
}

dm_status dm_eval_new_hand(dm_eval **out)
{
    int16_t *pattern, *feature;
    dm_eval *ev = eval_alloc(&pattern, &feature);
    if (!ev) {
        return DM_ENOMEM;
    }
    for (int i = 0; i < EVAL_FEATURE_NB; i++) {
        feature[2 * i] = (int16_t)(eval_hand_open[i] * EVAL_UNIT);
        feature[2 * i + 1] = (int16_t)(eval_hand_end[i] * EVAL_UNIT);
    }
    snprintf(ev->name, sizeof ev->name, "hand");
    *out = ev;
    return DM_OK;
}

dm_status dm_eval_read(dm_eval **out, const void *data, size_t size, dm_error *err)
{
    const unsigned char *p = data;
    if (!out || (!data && size)) {
        return dm_error_set(err, DM_EINVAL, 0, 0, "no weights given");
    }
    if (size < HEADER_SIZE || memcmp(p, "DMEV", 4) != 0) {
        return dm_error_set(err, DM_EPARSE, 0, 0, "not a damier weights file (no DMEV header)");
    }
    uint32_t version = le_get32(p + 4), variant = le_get32(p + 8), windows = le_get32(p + 12);
    uint32_t configs = le_get32(p + 16), features = le_get32(p + 20), unit = le_get32(p + 24);
    if (version != DM_EVAL_FORMAT_VERSION) {
        return dm_error_set(err, DM_EPARSE, 0, 0,
                            "weights file version %u, this library reads version %d", version,
                            DM_EVAL_FORMAT_VERSION);
    }
    if (variant != 0 || windows != EVAL_WINDOWS || configs != EVAL_CONFIGS ||
        features != EVAL_FEATURE_NB || unit != EVAL_UNIT) {
        return dm_error_set(err, DM_EPARSE, 0, 0,
                            "weights of another shape (variant %u, %u windows of %u, %u "
                            "features, unit %u; expected 0, %d of %d, %d, %d)",
                            variant, windows, configs, features, unit, EVAL_WINDOWS, EVAL_CONFIGS,
                            EVAL_FEATURE_NB, EVAL_UNIT);
    }
    if (size != DM_EVAL_FILE_SIZE) {
        return dm_error_set(err, DM_EPARSE, 0, 0, "weights file of %zu bytes, expected %u (%s)",
                            size, DM_EVAL_FILE_SIZE,
                            size < DM_EVAL_FILE_SIZE ? "truncated" : "trailing bytes");
    }
    if (fnv1a(p, size - 4) != le_get32(p + size - 4)) {
        return dm_error_set(err, DM_EPARSE, 0, 0, "weights file checksum mismatch (damaged)");
    }
    int16_t *pattern, *feature;
    dm_eval *ev = eval_alloc(&pattern, &feature);
    if (!ev) {
        return dm_error_set(err, DM_ENOMEM, 0, 0, "out of memory");
    }
    memcpy(ev->name, p + 28, 31);
    ev->name[31] = 0;
    const unsigned char *q = p + HEADER_SIZE;
    for (size_t i = 0; i < PATTERN_WEIGHTS + EVAL_FEATURE_NB * 2; i++, q += 2) {
        pattern[i] = (int16_t)(uint16_t)(q[0] | q[1] << 8);
    }
    (void)feature;
    *out = ev;
    return DM_OK;
}

dm_status dm_eval_write(const dm_eval *ev, void *buf, size_t cap)
{
    if (!ev || !buf) {
        return DM_EINVAL;
    }
    if (cap < DM_EVAL_FILE_SIZE) {
        return DM_EBUFS;
    }
    unsigned char *p = buf;
    memset(p, 0, HEADER_SIZE);
    memcpy(p, "DMEV", 4);
    le_put32(p + 4, DM_EVAL_FORMAT_VERSION);
    le_put32(p + 8, 0);
    le_put32(p + 12, EVAL_WINDOWS);
    le_put32(p + 16, EVAL_CONFIGS);
    le_put32(p + 20, EVAL_FEATURE_NB);
    le_put32(p + 24, EVAL_UNIT);
    for (int i = 0; i < 31 && ev->name[i]; i++) {
        p[28 + i] = (unsigned char)ev->name[i];
    }
    unsigned char *q = p + HEADER_SIZE;
    for (size_t i = 0; i < PATTERN_WEIGHTS; i++, q += 2) {
        uint16_t v = (uint16_t)ev->pattern[i];
        q[0] = (unsigned char)v;
        q[1] = (unsigned char)(v >> 8);
    }
    for (size_t i = 0; i < EVAL_FEATURE_NB * 2; i++, q += 2) {
        uint16_t v = (uint16_t)ev->feature[i];
        q[0] = (unsigned char)v;
        q[1] = (unsigned char)(v >> 8);
    }
    le_put32(q, fnv1a(p, DM_EVAL_FILE_SIZE - 4));
    return DM_OK;
}

dm_status dm_eval_load(dm_eval **out, const char *path, dm_error *err)
{
    if (!path) {
        return dm_error_set(err, DM_EINVAL, 0, 0, "no weights file given");
    }
    FILE *f = fopen(path, "rb");
    if (!f) {
        return dm_error_set(err, DM_EIO, 0, 0, "%s: %s", path, strerror(errno));
    }
    /* One byte more than a file can hold, so that trailing bytes are seen. */
    unsigned char *buf = malloc(DM_EVAL_FILE_SIZE + 1);
    if (!buf) {
        fclose(f);
        return dm_error_set(err, DM_ENOMEM, 0, 0, "out of memory");
    }
    size_t n = fread(buf, 1, DM_EVAL_FILE_SIZE + 1, f);
    int bad = ferror(f);
    fclose(f);
    dm_status st;
    if (bad) {
        st = dm_error_set(err, DM_EIO, 0, 0, "%s: read error", path);
    } else {
        st = dm_eval_read(out, buf, n, err);
        if (st != DM_OK && err) {
            char msg[sizeof err->message];
            snprintf(msg, sizeof msg, "%s", err->message);
            dm_error_set(err, st, 0, 0, "%s: %s", path, msg);
        }
    }
    free(buf);
    return st;
}

dm_status dm_eval_save(const dm_eval *ev, const char *path, dm_error *err)
{
    if (!ev || !path) {
        return dm_error_set(err, DM_EINVAL, 0, 0, "no weights or no path");
    }
    unsigned char *buf = malloc(DM_EVAL_FILE_SIZE);
    if (!buf) {
        return dm_error_set(err, DM_ENOMEM, 0, 0, "out of memory");
    }
    dm_eval_write(ev, buf, DM_EVAL_FILE_SIZE);
    dm_status st = dm_file_save_atomic(path, buf, DM_EVAL_FILE_SIZE, err);
    free(buf);
    return st;
}

void dm_eval_free(dm_eval *ev)
{
    if (ev && ev->owned) {
        free(ev->owned);
        free(ev);
    }
}

const char *dm_eval_name(const dm_eval *ev)
{
    return ev ? ev->name : "";
}
