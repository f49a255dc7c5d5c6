/* SPDX-License-Identifier: MIT
 * engine/evalfile8.c: the 8x8 weights file (damier/eval8.h): the .dmev format of
 * damier/eval.h with an 8x8 variant and shape. Also compiled into
 * tools/genweights8.c, which turns weights files into the built-in weights, so
 * there is one reader. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/eval8.h"
#include "engine/le.h"
#include "util/filesave.h"

#define HEADER_SIZE 60u

struct dm_eval8 *eval8_alloc(int16_t **w)
{
    dm_eval8 *ev = calloc(1, sizeof *ev);
    int16_t *mem = calloc(EVAL8_WEIGHTS, sizeof *mem);
    if (!ev || !mem) {
        free(ev);
        free(mem);
        return NULL;
    }
    ev->pattern = mem;
    ev->feature = mem + EVAL8_PATTERN_WEIGHTS;
    ev->owned = mem;
    *w = mem;
    return ev;
}

void dm_eval8_free(dm_eval8 *ev)
{
    if (ev && ev->owned) {
        free(ev->owned);
        free(ev);
    }
}

static int header_check(const unsigned char *p, size_t size, dm_error *err)
{
    if (size < HEADER_SIZE || memcmp(p, "DMEV", 4) != 0) {
        dm_error_set(err, DM_EPARSE, 0, 0, "not a damier weights file (no DMEV header)");
        return -1;
    }
    if (le_get32(p + 4) != DM_EVAL_FORMAT_VERSION) {
        dm_error_set(err, DM_EPARSE, 0, 0, "weights file version %u, this library reads version %d",
                     le_get32(p + 4), DM_EVAL_FORMAT_VERSION);
        return -1;
    }
    return 0;
}

dm_status dm_eval8_read(dm_eval8 **out, const void *data, size_t size, dm_variant_id v,
                        dm_error *err)
{
    const unsigned char *p = data;
    if (!out || (!data && size)) {
        return dm_error_set(err, DM_EINVAL, 0, 0, "no weights given");
    }
    if (header_check(p, size, err) != 0) {
        return DM_EPARSE;
    }
    uint32_t variant = le_get32(p + 8), windows = le_get32(p + 12), configs = le_get32(p + 16);
    uint32_t features = le_get32(p + 20), unit = le_get32(p + 24);
    if (variant != (uint32_t)v) {
        return dm_error_set(err, DM_EPARSE, 0, 0,
                            "weights for variant %u, expected variant %d (another variant's "
                            "weights)",
                            variant, (int)v);
    }
    if (windows != EVAL8_TABLES || configs != EVAL8_CONFIGS || features != EVAL8_FEATURE_NB ||
        unit != EVAL8_UNIT) {
        return dm_error_set(err, DM_EPARSE, 0, 0,
                            "weights of another shape (%u windows of %u, %u features, unit %u; "
                            "expected the 8x8 shape %d of %d, %d, %d)",
                            windows, configs, features, unit, EVAL8_TABLES, EVAL8_CONFIGS,
                            EVAL8_FEATURE_NB, EVAL8_UNIT);
    }
    if (size != DM_EVAL8_FILE_SIZE) {
        return dm_error_set(err, DM_EPARSE, 0, 0, "weights file of %zu bytes, expected %u (%s)",
                            size, DM_EVAL8_FILE_SIZE,
                            size < DM_EVAL8_FILE_SIZE ? "truncated" : "trailing bytes");
    }
    if (fnv1a(p, size - 4) != le_get32(p + size - 4)) {
        return dm_error_set(err, DM_EPARSE, 0, 0, "weights file checksum mismatch (damaged)");
    }
    int16_t *w;
    dm_eval8 *ev = eval8_alloc(&w);
    if (!ev) {
        return dm_error_set(err, DM_ENOMEM, 0, 0, "out of memory");
    }
    ev->variant = v;
    memcpy(ev->name, p + 28, 31);
    ev->name[31] = 0;
    const unsigned char *q = p + HEADER_SIZE;
    for (size_t i = 0; i < EVAL8_WEIGHTS; i++, q += 2) {
        w[i] = (int16_t)le_get16(q);
    }
    *out = ev;
    return DM_OK;
}

dm_status dm_eval8_write(const dm_eval8 *ev, void *buf, size_t cap)
{
    if (!ev || !buf) {
        return DM_EINVAL;
    }
    if (cap < DM_EVAL8_FILE_SIZE) {
        return DM_EBUFS;
    }
    unsigned char *p = buf;
    memset(p, 0, HEADER_SIZE);
    memcpy(p, "DMEV", 4);
    le_put32(p + 4, DM_EVAL_FORMAT_VERSION);
    le_put32(p + 8, (uint32_t)ev->variant);
    le_put32(p + 12, EVAL8_TABLES);
    le_put32(p + 16, EVAL8_CONFIGS);
    le_put32(p + 20, EVAL8_FEATURE_NB);
    le_put32(p + 24, EVAL8_UNIT);
    for (int i = 0; i < 31 && ev->name[i]; i++) {
        p[28 + i] = (unsigned char)ev->name[i];
    }
    unsigned char *q = p + HEADER_SIZE;
    for (size_t i = 0; i < EVAL8_PATTERN_WEIGHTS; i++, q += 2) {
        le_put16(q, (uint16_t)ev->pattern[i]);
    }
    for (size_t i = 0; i < EVAL8_FEATURE_NB * 2; i++, q += 2) {
        le_put16(q, (uint16_t)ev->feature[i]);
    }
    le_put32(q, fnv1a(p, DM_EVAL8_FILE_SIZE - 4));
    return DM_OK;
}

/* The whole file at path (one byte more than an 8x8 or international file holds, so
 * trailing bytes show) into a malloc'd buffer. */
static dm_status read_all(unsigned char **buf, size_t *n, const char *path, size_t max,
                          dm_error *err)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        return dm_error_set(err, DM_EIO, 0, 0, "%s: %s", path, strerror(errno));
    }
    *buf = malloc(max + 1);
    if (!*buf) {
        fclose(f);
        return dm_error_set(err, DM_ENOMEM, 0, 0, "out of memory");
    }
    *n = fread(*buf, 1, max + 1, f);
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        free(*buf);
        return dm_error_set(err, DM_EIO, 0, 0, "%s: read error", path);
    }
    return DM_OK;
}

dm_status dm_eval8_load(dm_eval8 **out, const char *path, dm_variant_id v, dm_error *err)
{
    if (!path) {
        return dm_error_set(err, DM_EINVAL, 0, 0, "no weights file given");
    }
    unsigned char *buf = NULL;
    size_t n = 0;
    dm_status st = read_all(&buf, &n, path, DM_EVAL8_FILE_SIZE, err);
    if (st != DM_OK) {
        return st;
    }
    st = dm_eval8_read(out, buf, n, v, err);
    if (st != DM_OK && err) {
        char msg[sizeof err->message];
        snprintf(msg, sizeof msg, "%s", err->message);
        dm_error_set(err, st, 0, 0, "%s: %s", path, msg);
    }
    free(buf);
    return st;
}

int dm_eval_file_variant(const char *path, dm_error *err)
{
    if (!path) {
        dm_error_set(err, DM_EINVAL, 0, 0, "no weights file given");
        return -1;
    }
    unsigned char *buf = NULL;
    size_t n = 0;
    if (read_all(&buf, &n, path, HEADER_SIZE - 1, err) != DM_OK) {
        return -1;
    }
    int v = -1;
    if (header_check(buf, n, err) == 0) {
        uint32_t x = le_get32(buf + 8);
        if (x < DM_VARIANT_COUNT) {
            v = (int)x;
        } else {
            dm_error_set(err, DM_EPARSE, 0, 0, "%s: weights for unknown variant %u", path, x);
        }
    } else if (err) {
        char msg[sizeof err->message];
        snprintf(msg, sizeof msg, "%s", err->message);
        dm_error_set(err, DM_EPARSE, 0, 0, "%s: %s", path, msg);
    }
    free(buf);
    return v;
}

dm_status dm_eval8_save(const dm_eval8 *ev, const char *path, dm_error *err)
{
    if (!ev || !path) {
        return dm_error_set(err, DM_EINVAL, 0, 0, "no weights or no path");
    }
    unsigned char *buf = malloc(DM_EVAL8_FILE_SIZE);
    if (!buf) {
        return dm_error_set(err, DM_ENOMEM, 0, 0, "out of memory");
    }
    dm_eval8_write(ev, buf, DM_EVAL8_FILE_SIZE);
    dm_status st = dm_file_save_atomic(path, buf, DM_EVAL8_FILE_SIZE, err);
    free(buf);
    return st;
}
