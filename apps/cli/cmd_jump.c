/* SPDX-License-Identifier: MIT
 * apps/cli/cmd_jump.c: the jumping games (damier/jump.h) on the command line:
 *   damier jump moves --game G [--players N] [--board 8|10|16] [--fen POS] [--no-foreign-corner]
 *   damier jump perft --game G [...] [--divide] DEPTH
 *   damier jump search --game G [...] DEPTH   (two players: best move by alpha-beta)
 * also reached as `damier moves --game G ...` and `damier perft --game G ...`.
 * Output (stable): moves: one move text per line in generator order (from, then to),
 * then "N moves"; perft: "DEPTH NODES SECONDS" per depth, with --divide first
 * "MOVE NODES" per root move; search: "best MOVE score S nodes N seconds T nps X". */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <damier/jump.h>

#include "commands.h"

static void jump_usage(FILE *f, const char *cmd)
{
    fprintf(f,
            "usage: damier %s --game chinese-checkers|halma|gewu [--players N]\n"
            "         [--board 8|10|16 (halma) | --board L (gewu lane)] [--fen POS]\n"
            "         [--no-foreign-corner] [--one-throw]%s\n",
            cmd, strcmp(cmd, "perft") ? "" : " [--divide] DEPTH");
}

/* Parse the shared options into rules and position; returns 0, or the exit status. */
static int jump_setup(int argc, char **argv, const char *cmd, dm_jrules *r, dm_jpos *p, int *divide)
{
    static const struct option opts[] = {{"game", required_argument, 0, 'g'},
                                         {"players", required_argument, 0, 'p'},
                                         {"board", required_argument, 0, 'b'},
                                         {"fen", required_argument, 0, 'f'},
                                         {"no-foreign-corner", no_argument, 0, 'c'},
                                         {"one-throw", no_argument, 0, 't'},
                                         {"divide", no_argument, 0, 'd'},
                                         {"help", no_argument, 0, 'h'},
                                         {0, 0, 0, 0}};
    const char *game_name = NULL, *fen = NULL;
    int players = 2, size = 0, c;
    unsigned options = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, "g:p:b:f:ctdh", opts, NULL)) != -1) {
        switch (c) {
            case 'g':
                game_name = optarg;
                break;
            case 'p':
                players = atoi(optarg);
                break;
            case 'b':
                size = atoi(optarg);
                break;
            case 'f':
                fen = optarg;
                break;
            case 'c':
                options |= DM_JOPT_NO_FOREIGN_CORNER;
                break;
            case 't':
                options |= DM_JOPT_GEWU_ONE_THROW;
                break;
            case 'd':
                if (divide) {
                    *divide = 1;
                    break;
                }
                jump_usage(stderr, cmd);
                return 2;
            case 'h':
                jump_usage(stdout, cmd);
                return -1;
            default:
                jump_usage(stderr, cmd);
                return 2;
        }
    }
    dm_jgame game;
    dm_error err;
    if (!game_name) {
        fprintf(stderr, "damier %s: --game is missing\n", cmd);
        return 2;
    }
    if (dm_jgame_from_name(&game, game_name, &err) != DM_OK ||
        dm_jrules_init(r, game, players, size, options, &err) != DM_OK) {
        fprintf(stderr, "damier %s: %s\n", cmd, err.message);
        return 2;
    }
    dm_jpos_start(p, r);
    if (fen && dm_jpos_from_text(p, r, fen, &err) != DM_OK) {
        fprintf(stderr, "damier %s: %s\n  %s\n  %*s^\n", cmd, err.message, fen,
                err.column > 0 ? err.column - 1 : 0, "");
        return 2;
    }
    return 0;
}

int cmd_jump_moves(int argc, char **argv)
{
    static dm_jrules r;
    dm_jpos p;
    int rc = jump_setup(argc, argv, "moves", &r, &p, NULL);
    if (rc) {
        return rc < 0 ? 0 : rc;
    }
    if (optind != argc) {
        jump_usage(stderr, "moves");
        return 2;
    }
    static dm_jmovelist list;
    dm_jmovegen(&list, &r, &p);
    for (int i = 0; i < list.count; i++) {
        char text[DM_JMAX_PATH * 5];
        dm_jmove_to_text(text, sizeof text, &r, &p, &list.moves[i]);
        printf("%s\n", text);
    }
    printf("%d moves\n", list.count);
    return 0;
}

int cmd_jump_perft(int argc, char **argv)
{
    static dm_jrules r;
    dm_jpos p;
    int divide = 0;
    int rc = jump_setup(argc, argv, "perft", &r, &p, &divide);
    if (rc) {
        return rc < 0 ? 0 : rc;
    }
    char *end = NULL;
    long depth = optind == argc - 1 ? strtol(argv[optind], &end, 10) : 0;
    if (!end || *end || depth < 1 || depth > 12) {
        fprintf(stderr, "damier perft: DEPTH must be a number from 1 to 12\n");
        return 2;
    }
    if (divide && r.game != DM_JGAME_GEWU) {
        static dm_jmovelist list;
        dm_jmovegen(&list, &r, &p);
        for (int i = 0; i < list.count; i++) {
            char text[DM_JMAX_PATH * 5];
            dm_jmove_to_text(text, sizeof text, &r, &p, &list.moves[i]);
            dm_jpos q = p;
            dm_jpos_apply(&q, &r, &list.moves[i]);
            printf("%s %llu\n", text, (unsigned long long)dm_jperft(&r, &q, (int)depth - 1));
        }
    }
    for (int d = 1; d <= depth; d++) {
        double t0 = cli_now();
        uint64_t n = dm_jperft(&r, &p, d);
        printf("%d %llu %.3f\n", d, (unsigned long long)n, cli_now() - t0);
        fflush(stdout);
    }
    return 0;
}

static int cmd_jump_search(int argc, char **argv)
{
    static dm_jrules r;
    dm_jpos p;
    int rc = jump_setup(argc, argv, "search", &r, &p, NULL);
    if (rc) {
        return rc < 0 ? 0 : rc;
    }
    char *end = NULL;
    long depth = optind == argc - 1 ? strtol(argv[optind], &end, 10) : 0;
    if (!end || *end) {
        fprintf(stderr, "damier jump search: DEPTH (1..8) is missing or not a number\n");
        return 2;
    }
    dm_jsearch_result res;
    dm_error err;
    double t0 = cli_now();
    if (dm_jsearch(&r, &p, (int)depth, &res, &err) != DM_OK) {
        fprintf(stderr, "damier jump search: %s\n", err.message);
        return 2;
    }
    double t = cli_now() - t0;
    char text[DM_JMAX_PATH * 5] = "none";
    if (res.best.from != res.best.to) {
        dm_jmove_to_text(text, sizeof text, &r, &p, &res.best);
    }
    printf("best %s score %d nodes %llu seconds %.3f nps %.0f\n", text, res.score,
           (unsigned long long)res.nodes, t, t > 0 ? (double)res.nodes / t : 0.0);
    return 0;
}

int cmd_jump(int argc, char **argv)
{
    if (argc >= 2 && !strcmp(argv[1], "search")) {
        return cmd_jump_search(argc - 1, argv + 1);
    }
    if (argc >= 2 && !strcmp(argv[1], "moves")) {
        return cmd_jump_moves(argc - 1, argv + 1);
    }
    if (argc >= 2 && !strcmp(argv[1], "perft")) {
        return cmd_jump_perft(argc - 1, argv + 1);
    }
    fprintf(argc >= 2 && !strcmp(argv[1], "--help") ? stdout : stderr,
            "usage: damier jump moves|perft|search --game chinese-checkers|halma|gewu ...\n");
    return argc >= 2 && !strcmp(argv[1], "--help") ? 0 : 2;
}

int cmd_has_game_option(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--game") || !strncmp(argv[i], "--game=", 7)) {
            return 1;
        }
    }
    return 0;
}
