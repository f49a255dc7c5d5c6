/* SPDX-License-Identifier: MIT
 * apps/cli/commands.h: the subcommands of the damier binary, one cmd_<name>.c each.
 * Each takes argc/argv with argv[0] = the subcommand name and returns the exit status. */
#ifndef DM_APPS_CLI_COMMANDS_H
#define DM_APPS_CLI_COMMANDS_H

#include <damier/board.h>

int cmd_perft(int argc, char **argv);
int cmd_moves(int argc, char **argv);
int cmd_analyse(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_hub(int argc, char **argv);
int cmd_pdn(int argc, char **argv);
int cmd_play(int argc, char **argv);

/* Shared helpers (cli_util.c). */

/* Read --fen text into b (start position when fen is NULL); prints an error to
 * stderr and returns nonzero on failure. */
int cli_board_from_arg(dm_board *b, const char *fen);

/* Monotonic wall-clock seconds. */
double cli_now(void);

#endif
