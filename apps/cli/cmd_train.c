/* SPDX-License-Identifier: MIT
 * apps/cli/cmd_train.c: `damier train`: fit evaluation weights (damier/eval.h) to the
 * samples of `damier selfplay --gen`, and `damier train --loss` to measure weights on
 * samples without training. Sample arguments are files or folders (every *.dmsp file
 * in a folder, in name order). */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <damier/engine.h>
#include <damier/eval.h>
#include <damier/eval8.h>

#include "commands.h"

int cli_engine_eval(dm_engine *e, const char *path, const char *cmd, dm_eval **out, dm_eval8 **out8)
{
    dm_error err;
    *out = NULL;
    *out8 = NULL;
    /* The file's header says which variant its weights are for: international weights
     * (damier/eval.h) or an 8x8 variant's (damier/eval8.h), used for that variant. */
    int v = dm_eval_file_variant(path, &err);
    if (v > 0 && dm_eval8_supports((dm_variant_id)v)) {
        if (dm_eval8_load(out8, path, (dm_variant_id)v, &err) != DM_OK) {
            fprintf(stderr, "%s: %s\n", cmd, err.message);
            return 1;
        }
        dm_engine_set_eval8(e, (dm_variant_id)v, *out8);
        return 0;
    }
    if (dm_eval_load(out, path, &err) != DM_OK) {
        fprintf(stderr, "%s: %s\n", cmd, err.message);
        return 1;
    }
    dm_engine_set_eval(e, *out);
    return 0;
}

int cli_engine_eval_for(dm_engine *e, const char *path, const char *cmd, dm_variant_id want,
                        dm_eval **out, dm_eval8 **out8)
{
    dm_error err;
    *out = NULL;
    *out8 = NULL;
    int v = dm_eval_file_variant(path, &err);
    if (v < 0) {
        fprintf(stderr, "%s: %s\n", cmd, err.message);
        return 1;
    }
    if (v != (int)want) {
        fprintf(stderr, "%s: %s: weights for %s, the position is %s (another variant's weights)\n",
                cmd, path, dm_variant_get((dm_variant_id)v)->name, dm_variant_get(want)->name);
        return 1;
    }
    return cli_engine_eval(e, path, cmd, out, out8);
}

/* Samples of one variant: international (dm_sample) or 8x8 (dm_sample8). */
typedef struct sample_set {
    int variant; /* -1 until the first file is read */
    dm_sample *s;
    dm_sample8 *s8;
    size_t n, cap;
} sample_set;

/* Read one sample file into set, by the variant its header names. */
static dm_status read_file(sample_set *set, const char *path, dm_error *err)
{
    unsigned char h[DM_SAMPLE_HEADER_SIZE];
    FILE *f = fopen(path, "rb");
    if (!f) {
        return dm_error_set(err, DM_EIO, 0, 0, "%s: %s", path, strerror(errno));
    }
    size_t got = fread(h, 1, sizeof h, f);
    fclose(f);
    int v = got == sizeof h ? (int)(h[12] | h[13] << 8 | h[14] << 16 | (unsigned)h[15] << 24) : 0;
    if (set->variant >= 0 && v != set->variant) {
        return dm_error_set(err, DM_EPARSE, 0, 0, "%s: samples of variant %d, the others of %d",
                            path, v, set->variant);
    }
    if (v == 0) {
        set->variant = 0;
        return dm_sample_read_file(&set->s, &set->n, &set->cap, path, err);
    }
    set->variant = v;
    return dm_sample8_read_file(&set->s8, &set->n, &set->cap, &set->variant, path, err);
}

static int usage(FILE *f, int status)
{
    fprintf(f, "usage: damier train SAMPLES... --out FILE [options]\n"
               "       damier train SAMPLES... --loss [--eval FILE]\n"
               "  SAMPLES: sample files or folders of chunk-*.dmsp (damier selfplay --gen);\n"
               "  their header names the variant: international or 8x8 (russian, ...) weights\n"
               "  --init FILE|hand   start from these weights (default: hand)\n"
               "  --eval FILE        weights to measure with --loss (default: built in)\n"
               "  --epochs N         passes over the samples (default 10)\n"
               "  --batch N          samples per step (default 4096)\n"
               "  --rate R           Adam step size, hundredths of a man (default 1)\n"
               "  --lambda L         weight of the game result in the target (default 0.5)\n"
               "  --scale S          sigmoid scale, hundredths of a man (default 250)\n"
               "  --l2 X             weight decay of the patterns (default 0)\n"
               "  --holdout F        fraction kept for validation (default 0.05)\n"
               "  --seed N           sample order (default 1)\n"
               "  --name TEXT        name stored in the weights (default trained)\n");
    return status;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Read one argument (file or folder) into the sample array. */
static int read_arg(sample_set *set, const char *arg)
{
    struct stat st;
    if (stat(arg, &st) != 0) {
        fprintf(stderr, "train: %s: %s\n", arg, strerror(errno));
        return -1;
    }
    dm_error err;
    if (!S_ISDIR(st.st_mode)) {
        if (read_file(set, arg, &err) != DM_OK) {
            fprintf(stderr, "train: %s\n", err.message);
            return -1;
        }
        return 0;
    }
    DIR *d = opendir(arg);
    if (!d) {
        fprintf(stderr, "train: %s: %s\n", arg, strerror(errno));
        return -1;
    }
    char **names = NULL;
    size_t nn = 0, nc = 0;
    struct dirent *de;
    int rc = 0;
    while ((de = readdir(d))) {
        size_t len = strlen(de->d_name);
        if (len < 6 || strcmp(de->d_name + len - 5, ".dmsp") != 0) {
            continue;
        }
        if (nn == nc) {
            nc = nc ? nc * 2 : 64;
            char **nw = realloc(names, nc * sizeof *nw);
            if (!nw) {
                rc = -1;
                break;
            }
            names = nw;
        }
        size_t plen = strlen(arg) + len + 2;
        names[nn] = malloc(plen);
        if (!names[nn]) {
            rc = -1;
            break;
        }
        snprintf(names[nn], plen, "%s/%s", arg, de->d_name);
        nn++;
    }
    closedir(d);
    if (names) {
        qsort(names, nn, sizeof *names, cmp_str);
    }
    for (size_t i = 0; i < nn; i++) {
        if (rc == 0 && read_file(set, names[i], &err) != DM_OK) {
            fprintf(stderr, "train: %s\n", err.message);
            rc = -1;
        }
        free(names[i]);
    }
    free(names);
    if (rc == 0 && nn == 0) {
        fprintf(stderr, "train: %s: no .dmsp sample files\n", arg);
        rc = -1;
    }
    return rc;
}

static void on_epoch(int epoch, double train, double hold, void *payload)
{
    (void)payload;
    printf("epoch %d: loss %.6f, held-out %.6f\n", epoch, train, hold);
    fflush(stdout);
}

/* Training or --loss on 8x8 samples (the variant of their files): the same steps as
 * for international with damier/eval8.h. from: --init (training) or --eval (--loss):
 * a file of the variant's weights or "hand"; none: hand (training), built in (loss). */
static int train8(const sample_set *set, const dm_train_options *o, const char *out,
                  const char *from, int loss_only)
{
    dm_variant_id v = (dm_variant_id)set->variant;
    printf("train: %zu samples (%s)\n", set->n, dm_variant_get(v)->name);
    dm_error err;
    dm_eval8 *start = NULL, *ev = NULL;
    if (from && strcmp(from, "hand") != 0) {
        if (dm_eval8_load(&start, from, v, &err) != DM_OK) {
            fprintf(stderr, "train: %s\n", err.message);
            return 1;
        }
    } else if ((from || !loss_only || !dm_eval8_builtin(v)) &&
               dm_eval8_new_hand(&start, v) != DM_OK) {
        fprintf(stderr, "train: no hand weights for %s\n", dm_variant_get(v)->name);
        return 1;
    }
    const dm_eval8 *m = start ? start : dm_eval8_builtin(v);
    int rc = 0;
    if (loss_only) {
        double l = dm_eval8_loss(m, set->s8, set->n, o);
        if (l < 0) {
            fprintf(stderr, "train: bad options\n");
            rc = 1;
        } else {
            printf("loss %.6f (%s, lambda %.2f, scale %.0f)\n", l, dm_eval8_name(m), o->lambda,
                   o->scale);
        }
    } else {
        double loss;
        printf("start loss %.6f (%s)\n", dm_eval8_loss(m, set->s8, set->n, o), dm_eval8_name(m));
        dm_status st = dm_eval8_train(&ev, &loss, m, v, set->s8, set->n, o, on_epoch, NULL);
        if (st != DM_OK) {
            fprintf(stderr, "train: %s\n",
                    st == DM_EINVAL ? "bad options or no usable sample" : dm_status_str(st));
            rc = 1;
        } else if (dm_eval8_save(ev, out, &err) != DM_OK) {
            fprintf(stderr, "train: %s\n", err.message);
            rc = 1;
        } else {
            printf("wrote %s (%s weights, held-out loss %.6f)\n", out, dm_variant_get(v)->name,
                   loss);
        }
    }
    dm_eval8_free(ev);
    dm_eval8_free(start);
    return rc;
}

int cmd_train(int argc, char **argv)
{
    dm_train_options o = DM_TRAIN_OPTIONS_INIT;
    const char *out = NULL, *init = NULL, *eval_path = NULL;
    int loss_only = 0;
    sample_set set = {-1, NULL, NULL, 0, 0};
    int rc = 0, nargs = 0;
    for (int i = 1; i < argc && rc == 0; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            free(set.s);
            free(set.s8);
            return usage(stdout, 0);
        }
        if (!strcmp(a, "--loss")) {
            loss_only = 1;
            continue;
        }
        if (strncmp(a, "--", 2) != 0) {
            rc = read_arg(&set, a);
            nargs++;
            continue;
        }
        if (i + 1 >= argc) {
            fprintf(stderr, "train: %s needs a value\n", a);
            rc = 2;
            break;
        }
        const char *v = argv[++i];
        char *end = NULL;
        errno = 0;
        if (!strcmp(a, "--out")) {
            out = v;
        } else if (!strcmp(a, "--init")) {
            init = v;
        } else if (!strcmp(a, "--eval")) {
            eval_path = v;
        } else if (!strcmp(a, "--name")) {
            snprintf(o.name, sizeof o.name, "%s", v);
        } else if (!strcmp(a, "--epochs")) {
            o.epochs = (int)strtol(v, &end, 10);
        } else if (!strcmp(a, "--batch")) {
            o.batch = (int)strtol(v, &end, 10);
        } else if (!strcmp(a, "--seed")) {
            o.seed = strtoull(v, &end, 10);
        } else if (!strcmp(a, "--rate")) {
            o.rate = strtod(v, &end);
        } else if (!strcmp(a, "--lambda")) {
            o.lambda = strtod(v, &end);
        } else if (!strcmp(a, "--scale")) {
            o.scale = strtod(v, &end);
        } else if (!strcmp(a, "--l2")) {
            o.l2 = strtod(v, &end);
        } else if (!strcmp(a, "--holdout")) {
            o.holdout = strtod(v, &end);
        } else {
            fprintf(stderr, "train: unknown option %s\n", a);
            rc = 2;
            break;
        }
        if (end && (!*v || *end || errno)) {
            fprintf(stderr, "train: bad value for %s: %s\n", a, v);
            rc = 2;
        }
    }
    if (rc == 0 && nargs == 0) {
        fprintf(stderr, "train: no sample files given\n");
        rc = 2;
    }
    if (rc == 0 && !loss_only && !out) {
        fprintf(stderr, "train: --out FILE is required (or --loss)\n");
        rc = 2;
    }
    if (rc != 0) {
        free(set.s);
        free(set.s8);
        return rc == 2 ? usage(stderr, 2) : 1;
    }
    if (set.variant > 0) {
        rc = train8(&set, &o, out, loss_only ? eval_path : init, loss_only);
        free(set.s8);
        return rc;
    }
    dm_sample *samples = set.s;
    size_t n = set.n;
    printf("train: %zu samples\n", n);
    dm_error err;
    dm_eval *start = NULL, *ev = NULL;
    const char *from = loss_only ? eval_path : init;
    if (from && strcmp(from, "hand") != 0) {
        if (dm_eval_load(&start, from, &err) != DM_OK) {
            fprintf(stderr, "train: %s\n", err.message);
            free(samples);
            return 1;
        }
    } else if (from || !loss_only) {
        dm_eval_new_hand(&start);
    }
    if (loss_only) {
        const dm_eval *m = start ? start : dm_eval_builtin();
        double l = dm_eval_loss(m, samples, n, &o);
        if (l < 0) {
            fprintf(stderr, "train: bad options\n");
            rc = 1;
        } else {
            printf("loss %.6f (%s, lambda %.2f, scale %.0f)\n", l, dm_eval_name(m), o.lambda,
                   o.scale);
        }
    } else {
        double before = dm_eval_loss(start, samples, n, &o), loss;
        printf("start loss %.6f (%s)\n", before, dm_eval_name(start));
        dm_status st = dm_eval_train(&ev, &loss, start, samples, n, &o, on_epoch, NULL);
        if (st != DM_OK) {
            fprintf(stderr, "train: %s\n",
                    st == DM_EINVAL ? "bad options or no usable sample" : dm_status_str(st));
            rc = 1;
        } else if (dm_eval_save(ev, out, &err) != DM_OK) {
            fprintf(stderr, "train: %s\n", err.message);
            rc = 1;
        } else {
            printf("wrote %s (held-out loss %.6f)\n", out, loss);
        }
    }
    dm_eval_free(ev);
    dm_eval_free(start);
    free(samples);
    return rc;
}
