/* SPDX-License-Identifier: MIT
 * apps/cli/cmd_moves.c: `damier moves [--fen FEN] [--format pdn|hub]`.
 * Output (stable): one legal move per line, sorted by from square, to square, then
 * captured squares; then "N moves". */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <damier/move.h>

#include "commands.h"

static int compare_moves(const void *pa, const void *pb)
{
    const dm_move *a = pa, *b = pb;
    if (a->from != b->from) {
        return a->from - b->from;
    }
    if (a->to != b->to) {
        return a->to - b->to;
    }
    int sa[64], sb[64];
    int na = dm_move_captured(a, sa, 64), nb = dm_move_captured(b, sb, 64);
    for (int i = 0; i < na && i < nb; i++) {
        if (sa[i] != sb[i]) {
            return sa[i] - sb[i];
        }
    }
    return na - nb;
}

int cmd_sort_moves(dm_move *moves, int n);
int cmd_sort_moves(dm_move *moves, int n)
{
    qsort(moves, (size_t)n, sizeof *moves, compare_moves);
    return n;
}

static void moves_usage(FILE *f)
{
    fprintf(f, "usage: damier moves [--fen FEN] [--format pdn|hub]\n"
               "  pdn (default): 32-28, 19x28, full path 28x19x10 only where needed;\n"
               "  hub: from, to and every captured square: 28x10x19x23.\n");
}

int cmd_moves(int argc, char **argv)
{
    static const struct option opts[] = {{"fen", required_argument, 0, 'f'},
                                         {"format", required_argument, 0, 'F'},
                                         {"help", no_argument, 0, 'h'},
                                         {0, 0, 0, 0}};
    const char *fen = NULL;
    dm_notation style = DM_NOTATION_PDN;
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "f:F:h", opts, NULL)) != -1) {
        switch (c) {
        case 'f': fen = optarg; break;
        case 'F':
            if (!strcmp(optarg, "pdn")) {
                style = DM_NOTATION_PDN;
            } else if (!strcmp(optarg, "hub")) {
                style = DM_NOTATION_HUB;
            } else {
                fprintf(stderr, "damier moves: --format must be pdn or hub, not '%s'\n", optarg);
                return 2;
            }
            break;
        case 'h': moves_usage(stdout); return 0;
        default: moves_usage(stderr); return 2;
        }
    }
    if (optind != argc) {
        moves_usage(stderr);
        return 2;
    }
    dm_board b;
    if (cli_board_from_arg(&b, fen)) {
        return 2;
    }
    dm_movelist list;
    dm_movegen_legal(&list, &b);
    cmd_sort_moves(list.moves, list.count);
    for (int i = 0; i < list.count; i++) {
        char text[160];
        dm_move_to_text(text, sizeof text, &b, &list.moves[i], style);
        printf("%s\n", text);
    }
    printf("%d moves\n", list.count);
    return 0;
}
