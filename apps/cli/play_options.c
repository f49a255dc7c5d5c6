/* SPDX-License-Identifier: MIT
 * apps/cli/play_options.c: the command-line pieces of `damier play` (cmd_play.c, every
 * variant) and the jumping games (play_jump.c): the option table, the options both
 * read the same way (side, level, depth, FEN, variant, modes, save directory), integer
 * arguments, and who plays which side. Messages and exit codes are those of
 * `damier play` (README.md); each game keeps its own checks and messages where they
 * differ. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "play.h"

const struct option play_long_options[] = {{"white", no_argument, 0, PLAY_O_WHITE},
                                           {"black", no_argument, 0, PLAY_O_BLACK},
                                           {"level", required_argument, 0, PLAY_O_LEVEL},
                                           {"depth", required_argument, 0, PLAY_O_DEPTH},
                                           {"seed", required_argument, 0, PLAY_O_SEED},
                                           {"time", required_argument, 0, PLAY_O_TIME},
                                           {"fen", required_argument, 0, PLAY_O_FEN},
                                           {"handicap", required_argument, 0, PLAY_O_HANDICAP},
                                           {"human-vs-human", no_argument, 0, PLAY_O_HVH},
                                           {"auto", no_argument, 0, PLAY_O_AUTO},
                                           {"no-color", no_argument, 0, PLAY_O_NOCOLOR},
                                           {"plain", no_argument, 0, PLAY_O_PLAIN},
                                           {"save-dir", required_argument, 0, PLAY_O_SAVEDIR},
                                           {"help", no_argument, 0, PLAY_O_HELP},
                                           {"variant", required_argument, 0, PLAY_O_VARIANT},
                                           {"egdb", required_argument, 0, PLAY_O_EGDB},
                                           {0, 0, 0, 0}};

int play_parse_int(const char *text, int lo, int hi, int *out)
{
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (errno || end == text || *end || v < lo || v > hi) {
        return 0;
    }
    *out = (int)v;
    return 1;
}

int play_common_option(play_options *o, int c, const char *arg, int max_depth)
{
    switch (c) {
        case PLAY_O_WHITE:
        case PLAY_O_BLACK:
            if (o->human_side >= 0 && o->human_side != (c == PLAY_O_BLACK)) {
                fprintf(stderr, "damier play: --white and --black exclude each other\n");
                return -1;
            }
            o->human_side = c == PLAY_O_BLACK;
            return 1;
        case PLAY_O_LEVEL:
            if (!play_parse_int(arg, 1, 10, &o->level)) {
                fprintf(stderr, "damier play: --level wants 1..10, not '%s'\n", arg);
                return -1;
            }
            return 1;
        case PLAY_O_DEPTH:
            if (!play_parse_int(arg, 1, max_depth, &o->depth)) {
                fprintf(stderr, "damier play: --depth wants 1..%d, not '%s'\n", max_depth, arg);
                return -1;
            }
            return 1;
        case PLAY_O_FEN:
            o->fen = arg;
            return 1;
        case PLAY_O_HVH:
            o->hvh = 1;
            return 1;
        case PLAY_O_AUTO:
            o->autoplay = 1;
            return 1;
        case PLAY_O_NOCOLOR:
            o->no_color = 1;
            return 1;
        case PLAY_O_PLAIN:
            o->plain = 1;
            return 1;
        case PLAY_O_SAVEDIR:
            o->save_dir = arg;
            return 1;
        case PLAY_O_EGDB:
            o->egdb = arg;
            return 1;
        case PLAY_O_VARIANT:
            o->variant = arg;
            return 1;
        default:
            return 0;
    }
}

void play_assign_sides(int who[2], const play_options *o, int human_side)
{
    for (int k = 0; k < 2; k++) {
        who[k] = o->hvh        ? PLAY_HUMAN
                 : o->autoplay ? PLAY_ENGINE
                               : (k == human_side ? PLAY_HUMAN : PLAY_ENGINE);
    }
}
