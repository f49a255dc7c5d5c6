/* SPDX-License-Identifier: MIT
 * apps/cli/cli_util.c: helpers shared by the subcommands. */
#define _POSIX_C_SOURCE 200809L
#include "commands.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int cli_board_from_arg(dm_board *b, const char *fen)
{
    return cmd_vboard_from_arg(b, dm_variant_get(DM_VARIANT_INTERNATIONAL), fen);
}

double cli_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

char *cli_read_file(const char *cmd, const char *path, size_t max, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "damier %s: cannot open %s: %s\n", cmd, path, strerror(errno));
        return NULL;
    }
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap + 1);
    const char *why = NULL;
    while (buf) {
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap) {
            break;
        }
        if (cap >= max) {
            why = "too large";
            break;
        }
        char *nb = realloc(buf, cap * 2 + 1);
        if (!nb) {
            break;
        }
        buf = nb;
        cap *= 2;
    }
    if (!why && !buf) {
        why = "out of memory";
    }
    if (!why && ferror(f)) {
        why = "read error";
    }
    fclose(f);
    if (why) {
        fprintf(stderr, "damier %s: cannot read %s: %s\n", cmd, path, why);
        free(buf);
        return NULL;
    }
    buf[n] = '\0';
    *len = n;
    return buf;
}
