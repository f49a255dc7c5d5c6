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

#include "commands.h"

int cli_engine_eval(dm_engine *e, const char *path, const char *cmd, dm_eval **out)
{
    dm_error err;
    *out = NULL;
    if (dm_eval_load(out, path, &err) != DM_OK) {
        fprintf(stderr, "%s: %s\n", cmd, err.message);
        return 1;
    }
    dm_engine_set_eval(e, *out);
    return 0;
}

static int usage(FILE *f, int status)
{
    fprintf(f, "usage: damier train SAMPLES... --out FILE [options]\n"
               "       damier train SAMPLES... --loss [--eval FILE]\n"
               "  SAMPLES: sample files or folders of chunk-*.dmsp (damier selfplay --gen)\n"
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
static int read_arg(dm_sample **s, size_t *n, size_t *cap, const char *arg)
{
    struct stat st;
    if (stat(arg, &st) != 0) {
        fprintf(stderr, "train: %s: %s\n", arg, strerror(errno));
        return -1;
    }
    dm_error err;
    if (!S_ISDIR(st.st_mode)) {
        if (dm_sample_read_file(s, n, cap, arg, &err) != DM_OK) {
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
        if (rc == 0 && dm_sample_read_file(s, n, cap, names[i], &err) != DM_OK) {
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

int cmd_train(int argc, char **argv)
{
    dm_train_options o = DM_TRAIN_OPTIONS_INIT;
    const char *out = NULL, *init = NULL, *eval_path = NULL;
    int loss_only = 0;
    dm_sample *samples = NULL;
    size_t n = 0, cap = 0;
    int rc = 0, nargs = 0;
    for (int i = 1; i < argc && rc == 0; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            free(samples);
            return usage(stdout, 0);
        }
        if (!strcmp(a, "--loss")) {
            loss_only = 1;
            continue;
        }
        if (strncmp(a, "--", 2) != 0) {
            rc = read_arg(&samples, &n, &cap, a);
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
        free(samples);
        return rc == 2 ? usage(stderr, 2) : 1;
    }
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
