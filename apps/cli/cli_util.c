/* SPDX-License-Identifier: MIT
 * apps/cli/cli_util.c: helpers shared by the subcommands. */
#define _POSIX_C_SOURCE 200809L
#include "commands.h"

#include <stdio.h>
#include <time.h>

int cli_board_from_arg(dm_board *b, const char *fen)
{
    if (!fen) {
        dm_board_start(b);
        return 0;
    }
    dm_error err;
    if (dm_board_from_fen(b, fen, &err) != DM_OK) {
        fprintf(stderr, "damier: %s\n  FEN: %s\n", err.message, fen);
        if (err.column > 0) {
            fprintf(stderr, "       %*s^\n", err.column - 1, "");
        }
        return 1;
    }
    return 0;
}

double cli_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
