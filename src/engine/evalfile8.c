/* SPDX-License-Identifier: MIT
 * engine/evalfile8.c: the 8x8 weights file (damier/eval8.h): the shared format of
 * engine/evalcore.c with the 8x8 shape and the variant's id. Also compiled into
 * tools/genweights8.c, which turns weights files into the built-in weights, so
 * there is one reader. */
#include <stdio.h>
#include <stdlib.h>

#include "engine/eval8.h"
#include "engine/evalcore.h"

const eval_shape eval_shape8 = {EVAL8_TABLES,     EVAL8_CONFIGS, EVAL8_REFS,
                                EVAL8_FEATURE_NB, EVAL8_UNIT,    "8x8"};

dm_eval8 *eval8_wrap(int16_t *w, dm_variant_id v, const char *name)
{
    dm_eval8 *ev = calloc(1, sizeof *ev);
    if (!ev) {
        return NULL;
    }
    ev->pattern = w;
    ev->feature = w + EVAL8_PATTERN_WEIGHTS;
    ev->owned = w;
    ev->variant = v;
    snprintf(ev->name, sizeof ev->name, "%.31s", name);
    return ev;
}

void dm_eval8_free(dm_eval8 *ev)
{
    if (ev && ev->owned) {
        free(ev->owned);
        free(ev);
    }
}

/* The weights read into *out (w and name from evalfile_read/_load, st its status). */
static dm_status eval8_take(dm_eval8 **out, dm_status st, int16_t *w, dm_variant_id v,
                            const char *name, dm_error *err)
{
    if (st != DM_OK) {
        return st;
    }
    dm_eval8 *ev = eval8_wrap(w, v, name);
    if (!ev) {
        free(w);
        return dm_error_set(err, DM_ENOMEM, 0, 0, "out of memory");
    }
    *out = ev;
    return DM_OK;
}

dm_status dm_eval8_read(dm_eval8 **out, const void *data, size_t size, dm_variant_id v,
                        dm_error *err)
{
    if (!out) {
        return dm_error_set(err, DM_EINVAL, 0, 0, "no weights given");
    }
    char name[32];
    int16_t *w = NULL;
    dm_status st = evalfile_read(&eval_shape8, (uint32_t)v, data, size, name, &w, err);
    return eval8_take(out, st, w, v, name, err);
}

dm_status dm_eval8_load(dm_eval8 **out, const char *path, dm_variant_id v, dm_error *err)
{
    if (!out) {
        return dm_error_set(err, DM_EINVAL, 0, 0, "no weights given");
    }
    char name[32];
    int16_t *w = NULL;
    dm_status st = evalfile_load(&eval_shape8, (uint32_t)v, path, name, &w, err);
    return eval8_take(out, st, w, v, name, err);
}

dm_status dm_eval8_write(const dm_eval8 *ev, void *buf, size_t cap)
{
    if (!ev || !buf) {
        return DM_EINVAL;
    }
    return evalfile_write(&eval_shape8, (uint32_t)ev->variant, ev->name, ev->pattern, ev->feature,
                          buf, cap);
}

dm_status dm_eval8_save(const dm_eval8 *ev, const char *path, dm_error *err)
{
    if (!ev || !path) {
        return dm_error_set(err, DM_EINVAL, 0, 0, "no weights or no path");
    }
    return evalfile_save(&eval_shape8, (uint32_t)ev->variant, ev->name, ev->pattern, ev->feature,
                         path, err);
}
