/* SPDX-License-Identifier: MIT
 * tests/fuzz/replay_main.c: runs a fuzz harness over files without libFuzzer, so the
 * seed corpus and every saved finding replay in the normal test run (gcc, ASan).
 * usage: replay_<name> FILE|DIR...   Exit 0 when every input passed; a failing
 * property aborts after naming the file. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "replay: cannot open %s\n", path);
        return 1;
    }
    size_t cap = 1 << 16, len = 0;
    uint8_t *buf = malloc(cap);
    size_t n;
    while (buf && (n = fread(buf + len, 1, cap - len, f)) > 0) {
        len += n;
        if (len == cap) {
            uint8_t *b = realloc(buf, cap *= 2);
            if (!b) {
                free(buf);
                buf = NULL;
            }
            buf = b;
        }
    }
    fclose(f);
    if (!buf) {
        fprintf(stderr, "replay: out of memory reading %s\n", path);
        return 1;
    }
    fprintf(stderr, "replay: %s (%zu bytes)\n", path, len);
    LLVMFuzzerTestOneInput(buf, len);
    free(buf);
    return 0;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int run_path(const char *path, int *count)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        fprintf(stderr, "replay: no such file or directory: %s\n", path);
        return 1;
    }
    if (!S_ISDIR(st.st_mode)) {
        ++*count;
        return run_file(path);
    }
    DIR *d = opendir(path);
    if (!d) {
        fprintf(stderr, "replay: cannot read directory %s\n", path);
        return 1;
    }
    char **names = NULL;
    size_t nn = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.') {
            continue;
        }
        char **b = realloc(names, (nn + 1) * sizeof *names);
        if (!b) {
            break;
        }
        names = b;
        size_t l = strlen(path) + strlen(e->d_name) + 2;
        names[nn] = malloc(l);
        if (!names[nn]) {
            break;
        }
        snprintf(names[nn++], l, "%s/%s", path, e->d_name);
    }
    closedir(d);
    qsort(names, nn, sizeof *names, cmp_str); /* the same order every run */
    int rc = 0;
    for (size_t i = 0; i < nn; i++) {
        rc |= run_path(names[i], count);
        free(names[i]);
    }
    free(names);
    return rc;
}

int main(int argc, char **argv)
{
    int rc = 0, count = 0;
    for (int i = 1; i < argc; i++) {
        rc |= run_path(argv[i], &count);
    }
    if (count == 0) {
        fprintf(stderr, "replay: no input files\n");
        return 1;
    }
    fprintf(stderr, "replay: %d inputs, %s\n", count, rc ? "some unreadable" : "all passed");
    return rc;
}
