/* SPDX-License-Identifier: MIT
 * apps/cli/cmd_perft.c: `damier perft [--variant NAME] [--fen FEN] [--divide] DEPTH`.
 * Every variant, international included, through the same calls (damier/variant.h:
 * dm_perft runs on the bitboards of the one move generator).
 * Output (stable, scripts parse it): with --divide, first one line per root move
 * "MOVE NODES" (Hub notation, sorted as `damier moves`), then one line per depth
 * "DEPTH NODES SECONDS" for depths 1..DEPTH. Bulk counting at the last ply. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include <damier/variant.h>

#include "commands.h"

static void perft_usage(FILE *f)
{
    fprintf(f,
            "usage: damier perft [--variant NAME] [--fen FEN] [--divide] DEPTH\n"
            "  prints \"DEPTH NODES SECONDS\" for each depth 1..DEPTH (DEPTH 1-20);\n"
            "  --divide first prints \"MOVE NODES\" for each root move at DEPTH;\n"
            "  --variant: %s (default international).\n",
            dm_variant_names());
}

static int perft_run(const dm_variant *v, const char *fen, int divide, int depth)
{
    dm_board b;
    if (cmd_vboard_from_arg(&b, v, fen)) {
        return 2;
    }
    if (divide) {
        static dm_movelist list;
        dm_movegen_legal(&list, &b);
        cmd_sort_vmoves(v, list.moves, list.count);
        for (int i = 0; i < list.count; i++) {
            char text[400];
            dm_move_to_text(text, sizeof text, &b, &list.moves[i], DM_NOTATION_HUB,
                            DM_SQUARES_NUMERIC);
            dm_board next = b;
            dm_board_apply(&next, &list.moves[i]);
            printf("%s %llu\n", text, (unsigned long long)dm_perft(&next, depth - 1));
        }
    }
    for (int d = 1; d <= depth; d++) {
        double t0 = cli_now();
        uint64_t n = dm_perft(&b, d);
        printf("%d %llu %.3f\n", d, (unsigned long long)n, cli_now() - t0);
        fflush(stdout);
    }
    return 0;
}

int cmd_perft(int argc, char **argv)
{
    if (cmd_has_game_option(argc, argv)) { /* a jumping game: cmd_jump.c */
        return cmd_jump_perft(argc, argv);
    }
    static const struct option opts[] = {{"fen", required_argument, 0, 'f'},
                                         {"variant", required_argument, 0, 'V'},
                                         {"divide", no_argument, 0, 'd'},
                                         {"help", no_argument, 0, 'h'},
                                         {0, 0, 0, 0}};
    const char *fen = NULL;
    int divide = 0, c;
    const dm_variant *variant = dm_variant_get(DM_VARIANT_INTERNATIONAL);
    optind = 1;
    while ((c = getopt_long(argc, argv, "f:V:dh", opts, NULL)) != -1) {
        switch (c) {
            case 'f':
                fen = optarg;
                break;
            case 'V':
                if (cmd_variant_from_arg(&variant, "perft", optarg)) {
                    return 2;
                }
                break;
            case 'd':
                divide = 1;
                break;
            case 'h':
                perft_usage(stdout);
                return 0;
            default:
                perft_usage(stderr);
                return 2;
        }
    }
    if (optind != argc - 1) {
        perft_usage(stderr);
        return 2;
    }
    char *end;
    long depth = strtol(argv[optind], &end, 10);
    if (*end || depth < 1 || depth > 20) {
        fprintf(stderr, "damier perft: DEPTH must be a number from 1 to 20, not '%s'\n",
                argv[optind]);
        return 2;
    }
    return perft_run(variant, fen, divide, (int)depth);
}
