/* SPDX-License-Identifier: MIT
 * engine/evalfile.c: international evaluation weights as data (damier/eval.h): the
 * hand-set weights and the file in the shared format of engine/evalcore.c, with the
 * international shape. Also compiled into tools/genweights.c, which turns a weights
 * file into the built-in weights at build time, so there is one reader. */
#include <stdio.h>
#include <stdlib.h>

#include <damier/eval.h>

#include "engine/eval.h"
#include "engine/evalcore.h"

/* The hand-set weights of evaluation v1 (hundredths of a man): opening (40 men) and
 * endgame (0 men), in the order of eval_feature_names. */
static const int eval_hand_open[EVAL_FEATURE_NB] = {100, 300, 1, 6, 8, 6, 8, -4, 10, 0, 0, 0, 0};
static const int eval_hand_end[EVAL_FEATURE_NB] = {100, 330, 4, 2, 0, 2, 30, -2, 20, 0, 0, 0, 0};

const eval_shape eval_shape10 = {EVAL_WINDOWS,    EVAL_CONFIGS, EVAL_WINDOWS_ALL,
                                 EVAL_FEATURE_NB, EVAL_UNIT,    "international"};

#define PATTERN_WEIGHTS ((size_t)EVAL_WINDOWS * EVAL_CONFIGS * 2)

dm_eval *eval_wrap(int16_t *w, const char *name)
{
    dm_eval *ev = calloc(1, sizeof *ev);
    if (!ev) {
        return NULL;
    }
    ev->pattern = w;
    ev->feature = w + PATTERN_WEIGHTS;
    ev->owned = w;
    snprintf(ev->name, sizeof ev->name, "%.31s", name);
    return ev;
}

dm_status dm_eval_new_hand(dm_eval **out)
{
    int16_t *w = calloc(eval_shape_weights(&eval_shape10), sizeof *w);
    dm_eval *ev = w ? eval_wrap(w, "hand") : NULL;
    if (!ev) {
        free(w);
        return DM_ENOMEM;
    }
    for (int i = 0; i < EVAL_FEATURE_NB; i++) {
        w[PATTERN_WEIGHTS + 2 * i] = (int16_t)(eval_hand_open[i] * EVAL_UNIT);
        w[PATTERN_WEIGHTS + 2 * i + 1] = (int16_t)(eval_hand_end[i] * EVAL_UNIT);
    }
    *out = ev;
    return DM_OK;
}

/* The weights read into *out (w and name from evalfile_read/_load, st its status). */
static dm_status eval_take(dm_eval **out, dm_status st, int16_t *w, const char *name, dm_error *err)
{
    if (st != DM_OK) {
        return st;
    }
    dm_eval *ev = eval_wrap(w, name);
    if (!ev) {
        free(w);
        return dm_error_set(err, DM_ENOMEM, 0, 0, "out of memory");
    }
    *out = ev;
    return DM_OK;
}

dm_status dm_eval_read(dm_eval **out, const void *data, size_t size, dm_error *err)
{
    if (!out) {
        return dm_error_set(err, DM_EINVAL, 0, 0, "no weights given");
    }
    char name[32];
    int16_t *w = NULL;
    dm_status st = evalfile_read(&eval_shape10, 0, data, size, name, &w, err);
    return eval_take(out, st, w, name, err);
}

dm_status dm_eval_load(dm_eval **out, const char *path, dm_error *err)
{
    if (!out) {
        return dm_error_set(err, DM_EINVAL, 0, 0, "no weights given");
    }
    char name[32];
    int16_t *w = NULL;
    dm_status st = evalfile_load(&eval_shape10, 0, path, name, &w, err);
    return eval_take(out, st, w, name, err);
}

dm_status dm_eval_write(const dm_eval *ev, void *buf, size_t cap)
{
    if (!ev || !buf) {
        return DM_EINVAL;
    }
    return evalfile_write(&eval_shape10, 0, ev->name, ev->pattern, ev->feature, buf, cap);
}

dm_status dm_eval_save(const dm_eval *ev, const char *path, dm_error *err)
{
    if (!ev || !path) {
        return dm_error_set(err, DM_EINVAL, 0, 0, "no weights or no path");
    }
    return evalfile_save(&eval_shape10, 0, ev->name, ev->pattern, ev->feature, path, err);
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
