/* SPDX-License-Identifier: MIT
 * apps/cli/cmd_bench.c: `damier bench [DEPTH]`: the search signature and speed.
 * Searches the fixed positions of bench_positions[] (openings, middlegames, endgames
 * with kings) to DEPTH (default BENCH_DEPTH) with one thread and a 16 MiB table
 * cleared before each position. Output (stable):
 *   "N NODES SECONDS BESTMOVE" per position (N from 1), then
 *   "total nodes N", "time S", "nps R".
 * The node total is deterministic: bench/expected_nodes holds it for the default
 * depth, and a change means the search behaves differently. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <damier/engine.h>

#include "commands.h"

#define BENCH_DEPTH 12

static const char *const bench_positions[] = {
#include "bench_positions.inc"
};

int cmd_bench(int argc, char **argv)
{
    int depth = BENCH_DEPTH;
    if (argc > 2 || (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")))) {
        FILE *f = argc == 2 ? stdout : stderr;
        fprintf(f,
                "usage: damier bench [DEPTH]\n"
                "  searches %d fixed positions to DEPTH (1-30, default %d); prints the\n"
                "  nodes per position, then total nodes, time and nodes per second.\n",
                (int)(sizeof bench_positions / sizeof bench_positions[0]), BENCH_DEPTH);
        return argc == 2 ? 0 : 2;
    }
    if (argc == 2) {
        char *end;
        long d = strtol(argv[1], &end, 10);
        if (!*argv[1] || *end || d < 1 || d > 30) {
            fprintf(stderr, "damier bench: DEPTH must be a number from 1 to 30, not '%s'\n",
                    argv[1]);
            return 2;
        }
        depth = (int)d;
    }
    dm_engine_options eo = DM_ENGINE_OPTIONS_INIT;
    eo.tt_mib = 16;
    eo.threads = 1;
    dm_engine *e;
    if (dm_engine_create(&e, &eo) != DM_OK) {
        fprintf(stderr, "damier bench: cannot create the engine\n");
        return 1;
    }
    dm_limits lim;
    memset(&lim, 0, sizeof lim);
    lim.depth = depth;
    lim.analyse = 1; /* search forced moves too: every position contributes */
    uint64_t total = 0;
    double t0 = cli_now();
    int n = (int)(sizeof bench_positions / sizeof bench_positions[0]);
    for (int i = 0; i < n; i++) {
        dm_search_input in;
        memset(&in, 0, sizeof in);
        if (cli_board_from_arg(&in.root, bench_positions[i])) {
            dm_engine_free(e);
            return 1;
        }
        dm_engine_clear(e);
        dm_result r;
        double t1 = cli_now();
        dm_engine_search(&r, e, &in, &lim, NULL, NULL, NULL);
        char text[400] = "none";
        if (r.has_move) {
            dm_move_to_text(text, sizeof text, &in.root, &r.best, DM_NOTATION_PDN,
                            DM_SQUARES_DEFAULT);
        }
        printf("%d %llu %.3f %s\n", i + 1, (unsigned long long)r.nodes, cli_now() - t1, text);
        fflush(stdout);
        total += r.nodes;
    }
    double secs = cli_now() - t0;
    printf("total nodes %llu\n", (unsigned long long)total);
    printf("time %.3f\n", secs);
    printf("nps %.0f\n", secs > 0 ? (double)total / secs : 0.0);
    dm_engine_free(e);
    return 0;
}
