/* SPDX-License-Identifier: MIT
 * apps/cli/cmd_moves.c: `damier moves [--variant NAME] [--fen FEN] [--format pdn|hub]
 * [--squares numeric|algebraic]`.
 * Output (stable): one legal move per line, sorted by from square, to square, then
 * captured squares; then "N moves". Every variant through the same calls
 * (damier/variant.h). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <damier/variant.h>

#include "commands.h"

/* Moves by from square, to square, then captured squares (the lowest captured
 * square that only one of them takes first), by the squares' numbers in the
 * variant's records (dm_square_number: on the turned Italian and Spanish boards they
 * are not the core's). */
static int compare_vmoves(const dm_variant *v, const dm_move *a, const dm_move *b)
{
    if (a->from != b->from) {
        return dm_square_number(v, a->from) - dm_square_number(v, b->from);
    }
    if (a->to != b->to) {
        return dm_square_number(v, a->to) - dm_square_number(v, b->to);
    }
    for (int num = 1; num <= v->squares; num++) {
        int sq = dm_square_from_number(v, num);
        int ca = dm_move_captures(a, sq), cb = dm_move_captures(b, sq);
        if (ca != cb) {
            return cb - ca; /* the lower captured square first */
        }
    }
    return 0;
}

/* Sort generic moves of variant v (insertion sort: the comparison needs v, and
 * lists are short). */
int cmd_sort_vmoves(const dm_variant *v, dm_move *moves, int n)
{
    for (int i = 1; i < n; i++) {
        dm_move m = moves[i];
        int j = i;
        while (j > 0 && compare_vmoves(v, &moves[j - 1], &m) > 0) {
            moves[j] = moves[j - 1];
            j--;
        }
        moves[j] = m;
    }
    return n;
}

/* --variant NAME: *out = the variant, or an error naming the valid ones (returns 2). */
int cmd_variant_from_arg(const dm_variant **out, const char *cmd, const char *name)
{
    dm_error err;
    if (dm_variant_from_name(out, name, &err) != DM_OK) {
        fprintf(stderr, "damier %s: %s\n", cmd, err.message);
        return 2;
    }
    return 0;
}

/* --fen for a generic variant (its start position when fen is NULL). */
int cmd_vboard_from_arg(dm_board *b, const dm_variant *v, const char *fen)
{
    if (!fen) {
        dm_board_start(b, v);
        return 0;
    }
    dm_error err;
    if (dm_board_from_fen(b, v, fen, &err) != DM_OK) {
        fprintf(stderr, "damier: %s\n  FEN: %s\n", err.message, fen);
        if (err.column > 0) {
            fprintf(stderr, "       %*s^\n", err.column - 1, "");
        }
        return 1;
    }
    return 0;
}

static void moves_usage(FILE *f)
{
    fprintf(f,
            "usage: damier moves [--variant NAME] [--fen FEN] [--format pdn|hub]\n"
            "                    [--squares numeric|algebraic]\n"
            "  pdn (default): 32-28, 19x28, full path 28x19x10 only where needed;\n"
            "  hub: from, to and every captured square: 28x10x19x23.\n"
            "  --variant: %s (default international);\n"
            "  --squares: 8x8 square names (default: algebraic for russian and\n"
            "  brazilian, numeric otherwise).\n",
            dm_variant_names());
}

static int moves_generic(const dm_variant *v, const char *fen, dm_notation style,
                         dm_square_style squares)
{
    dm_board b;
    if (cmd_vboard_from_arg(&b, v, fen)) {
        return 2;
    }
    static dm_movelist list;
    dm_movegen_legal(&list, &b);
    cmd_sort_vmoves(v, list.moves, list.count);
    for (int i = 0; i < list.count; i++) {
        char text[400];
        dm_move_to_text(text, sizeof text, &b, &list.moves[i], style, squares);
        printf("%s\n", text);
    }
    printf("%d moves\n", list.count);
    return 0;
}

int cmd_moves(int argc, char **argv)
{
    if (cmd_has_game_option(argc, argv)) { /* a jumping game: cmd_jump.c */
        return cmd_jump_moves(argc, argv);
    }
    static const struct option opts[] = {
        {"fen", required_argument, 0, 'f'},     {"format", required_argument, 0, 'F'},
        {"variant", required_argument, 0, 'V'}, {"squares", required_argument, 0, 'S'},
        {"help", no_argument, 0, 'h'},          {0, 0, 0, 0}};
    const char *fen = NULL;
    dm_notation style = DM_NOTATION_PDN;
    const dm_variant *variant = dm_variant_get(DM_VARIANT_INTERNATIONAL);
    dm_square_style squares = DM_SQUARES_DEFAULT;
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "f:F:V:S:h", opts, NULL)) != -1) {
        switch (c) {
            case 'f':
                fen = optarg;
                break;
            case 'V':
                if (cmd_variant_from_arg(&variant, "moves", optarg)) {
                    return 2;
                }
                break;
            case 'S':
                if (!strcmp(optarg, "numeric")) {
                    squares = DM_SQUARES_NUMERIC;
                } else if (!strcmp(optarg, "algebraic")) {
                    squares = DM_SQUARES_ALGEBRAIC;
                } else {
                    fprintf(stderr,
                            "damier moves: --squares must be numeric or algebraic, not '%s'\n",
                            optarg);
                    return 2;
                }
                break;
            case 'F':
                if (!strcmp(optarg, "pdn")) {
                    style = DM_NOTATION_PDN;
                } else if (!strcmp(optarg, "hub")) {
                    style = DM_NOTATION_HUB;
                } else {
                    fprintf(stderr, "damier moves: --format must be pdn or hub, not '%s'\n",
                            optarg);
                    return 2;
                }
                break;
            case 'h':
                moves_usage(stdout);
                return 0;
            default:
                moves_usage(stderr);
                return 2;
        }
    }
    if (optind != argc) {
        moves_usage(stderr);
        return 2;
    }
    return moves_generic(variant, fen, style, squares);
}
