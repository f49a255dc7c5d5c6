/* SPDX-License-Identifier: MIT
 * apps/cli/main.c: `damier <command> [options]`, dispatching to cmd_<command>. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <damier/version.h>

#include "commands.h"

/* Command table. Keep the summaries short: they make `damier help`. */
static const struct command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
} commands[] = {
    {"perft", cmd_perft, "count leaf nodes of the legal move tree (move generator check)"},
    {"moves", cmd_moves, "list the legal moves of a position"},
    {"analyse", cmd_analyse, "search a position and print the progress (depth, score, PV)"},
    {"bench", cmd_bench, "search fixed positions to a fixed depth: node signature and speed"},
    {"hub", cmd_hub, "play and analyse through the Hub protocol on stdin/stdout"},
    {"dxp", cmd_dxp, "play engine matches over DXP, the DamExchange Protocol (TCP)"},
    {"pdn", cmd_pdn, "check (replay) or convert PDN game files"},
    {"egdb", cmd_egdb, "endgame databases: generate, verify, probe, info, bench"},
    {"jump", cmd_jump, "moves, perft, search of the jumping games (chinese-checkers, halma, gewu)"},
    {"match", cmd_match, "engine-against-engine matches through the Hub protocol (Elo, SPRT)"},
    {"ballot", cmd_ballot, "opening positions for matches, from the games of PDN files"},
    {"selfplay", cmd_selfplay, "self-play games that write training samples (--gen DIR)"},
    {"train", cmd_train, "fit the evaluation weights to self-play samples"},
    {"book", cmd_book, "the opening book: build it from the engine's searches, show moves"},
    {"play", cmd_play, "play a game in the terminal (against the engine, two people, or auto)"},
    {"annotate", cmd_annotate,
     "mark the moves of PDN games (!, ?, ...) with the engine's evaluation"},
    {"puzzles", cmd_puzzles,
     "tactics puzzles from PDN games: generate, verify, examine a position"},
    {"diagram", cmd_diagram, "a position as a picture (SVG or PNG) with arrows and marks"},
    {"tourney", cmd_tourney, "a tournament file: pair rounds, results, standings, crosstable"},
    {"serve", cmd_serve, "the web board: play, analyse and review games in a browser"},
};

static void usage(FILE *f)
{
    fprintf(f, "usage: damier <command> [options]\n\ncommands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
        fprintf(f, "  %-8s %s\n", commands[i].name, commands[i].summary);
    }
    fprintf(f, "\n`damier <command> --help` describes a command's options;"
               " `damier --version` prints the version.\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (!strcmp(argv[1], "help") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        usage(stdout);
        return 0;
    }
    if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) {
        printf("damier %s\n", dm_version(NULL, NULL, NULL));
        return fflush(stdout) != 0 || ferror(stdout) ? 1 : 0;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
        if (!strcmp(argv[1], commands[i].name)) {
            int rc = commands[i].run(argc - 1, argv + 1);
            /* Output that could not be written (a full disk, a closed descriptor)
             * used to be lost with exit status 0. A command that failed already
             * said why. */
            errno = 0;
            if ((fflush(stdout) != 0 || ferror(stdout)) && rc == 0) {
                fprintf(stderr, "damier %s: cannot write the output%s%s\n", argv[1],
                        errno ? ": " : "", errno ? strerror(errno) : "");
                return 1;
            }
            return rc;
        }
    }
    fprintf(stderr, "damier: unknown command '%s'\n\n", argv[1]);
    usage(stderr);
    return 2;
}
