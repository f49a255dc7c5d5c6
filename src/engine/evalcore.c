/* SPDX-License-Identifier: MIT
 * engine/evalcore.c: the weights file of every linear pattern evaluation
 * (engine/evalcore.h), over its shape: header, weights, checksum. Also compiled into
 * tools/genweights.c and tools/genweights8.c, so there is one reader. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <damier/eval8.h>

#include "engine/evalcore.h"
#include "engine/le.h"
#include "util/filesave.h"

/* ---- the weights file ------------------------------------------------------------ */

/* Magic and version; -1 with err set when they are not ours. */
static int header_check(const unsigned char *p, size_t size, dm_error *err)
{
    if (size < EVALFILE_HEADER_SIZE || memcmp(p, "DMEV", 4) != 0) {
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

dm_status evalfile_read(const eval_shape *sh, uint32_t variant, const void *data, size_t size,
                        char name[32], int16_t **w, dm_error *err)
{
    const unsigned char *p = data;
    if (!data && size) {
        return dm_error_set(err, DM_EINVAL, 0, 0, "no weights given");
    }
    if (header_check(p, size, err) != 0) {
        return DM_EPARSE;
    }
    uint32_t fv = le_get32(p + 8), tables = le_get32(p + 12), configs = le_get32(p + 16);
    uint32_t features = le_get32(p + 20), unit = le_get32(p + 24);
    if (fv != variant) {
        return dm_error_set(err, DM_EPARSE, 0, 0,
                            "weights for variant %u, expected variant %u (another variant's "
                            "weights)",
                            fv, variant);
    }
    /* a file of fewer features is one written before the later features existed:
     * they weigh 0 in it (the features only ever grow at the end of the list) */
    if (tables != (uint32_t)sh->tables || configs != (uint32_t)sh->configs || features < 1 ||
        features > (uint32_t)sh->features || unit != (uint32_t)sh->unit) {
        return dm_error_set(err, DM_EPARSE, 0, 0,
                            "weights of another shape (%u windows of %u, %u features, unit %u; "
                            "expected the %s shape %d of %d, %d, %d)",
                            tables, configs, features, unit, sh->board, sh->tables, sh->configs,
                            sh->features, sh->unit);
    }
    eval_shape file_sh = *sh;
    file_sh.features = (int)features;
    size_t want = eval_shape_file_size(&file_sh);
    if (size != want) {
        return dm_error_set(err, DM_EPARSE, 0, 0, "weights file of %zu bytes, expected %zu (%s)",
                            size, want, size < want ? "truncated" : "trailing bytes");
    }
    if (fnv1a(p, size - 4) != le_get32(p + size - 4)) {
        return dm_error_set(err, DM_EPARSE, 0, 0, "weights file checksum mismatch (damaged)");
    }
    size_t nw = eval_shape_weights(&file_sh);
    int16_t *mem = calloc(eval_shape_weights(sh), sizeof *mem);
    if (!mem) {
        return dm_error_set(err, DM_ENOMEM, 0, 0, "out of memory");
    }
    const unsigned char *q = p + EVALFILE_HEADER_SIZE;
    for (size_t i = 0; i < nw; i++, q += 2) {
        mem[i] = (int16_t)le_get16(q);
    }
    memcpy(name, p + 28, 31);
    name[31] = 0;
    *w = mem;
    return DM_OK;
}

/* The file at path, at most max bytes, into a malloc'd buffer. */
static dm_status read_all(unsigned char **buf, size_t *n, const char *path, size_t max,
                          dm_error *err)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        return dm_error_set(err, DM_EIO, 0, 0, "%s: %s", path, strerror(errno));
    }
    *buf = malloc(max);
    if (!*buf) {
        fclose(f);
        return dm_error_set(err, DM_ENOMEM, 0, 0, "out of memory");
    }
    *n = fread(*buf, 1, max, f);
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        free(*buf);
        return dm_error_set(err, DM_EIO, 0, 0, "%s: read error", path);
    }
    return DM_OK;
}

/* Put "path: " before err's message. */
static void name_path(dm_error *err, dm_status st, const char *path)
{
    if (err) {
        char msg[sizeof err->message];
        snprintf(msg, sizeof msg, "%s", err->message);
        dm_error_set(err, st, 0, 0, "%s: %s", path, msg);
    }
}

dm_status evalfile_load(const eval_shape *sh, uint32_t variant, const char *path, char name[32],
                        int16_t **w, dm_error *err)
{
    if (!path) {
        return dm_error_set(err, DM_EINVAL, 0, 0, "no weights file given");
    }
    unsigned char *buf = NULL;
    size_t n = 0;
    /* One byte more than a file can hold, so that trailing bytes are seen. */
    dm_status st = read_all(&buf, &n, path, eval_shape_file_size(sh) + 1, err);
    if (st != DM_OK) {
        return st;
    }
    st = evalfile_read(sh, variant, buf, n, name, w, err);
    if (st != DM_OK) {
        name_path(err, st, path);
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
    if (read_all(&buf, &n, path, EVALFILE_HEADER_SIZE, err) != DM_OK) {
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
    } else {
        name_path(err, DM_EPARSE, path);
    }
    free(buf);
    return v;
}

dm_status evalfile_write(const eval_shape *sh, uint32_t variant, const char *name,
                         const int16_t *pattern, const int16_t *feature, void *buf, size_t cap)
{
    size_t size = eval_shape_file_size(sh);
    if (cap < size) {
        return DM_EBUFS;
    }
    unsigned char *p = buf;
    memset(p, 0, EVALFILE_HEADER_SIZE);
    memcpy(p, "DMEV", 4);
    le_put32(p + 4, DM_EVAL_FORMAT_VERSION);
    le_put32(p + 8, variant);
    le_put32(p + 12, (uint32_t)sh->tables);
    le_put32(p + 16, (uint32_t)sh->configs);
    le_put32(p + 20, (uint32_t)sh->features);
    le_put32(p + 24, (uint32_t)sh->unit);
    for (int i = 0; i < 31 && name[i]; i++) {
        p[28 + i] = (unsigned char)name[i];
    }
    unsigned char *q = p + EVALFILE_HEADER_SIZE;
    for (size_t i = 0; i < eval_shape_patterns(sh); i++, q += 2) {
        le_put16(q, (uint16_t)pattern[i]);
    }
    for (size_t i = 0; i < (size_t)sh->features * 2; i++, q += 2) {
        le_put16(q, (uint16_t)feature[i]);
    }
    le_put32(q, fnv1a(p, size - 4));
    return DM_OK;
}

dm_status evalfile_save(const eval_shape *sh, uint32_t variant, const char *name,
                        const int16_t *pattern, const int16_t *feature, const char *path,
                        dm_error *err)
{
    size_t size = eval_shape_file_size(sh);
    unsigned char *buf = malloc(size);
    if (!buf) {
        return dm_error_set(err, DM_ENOMEM, 0, 0, "out of memory");
    }
    evalfile_write(sh, variant, name, pattern, feature, buf, size);
    dm_status st = dm_file_save_atomic(path, buf, size, err);
    free(buf);
    return st;
}
