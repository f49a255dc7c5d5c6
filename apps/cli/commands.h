/* SPDX-License-Identifier: MIT
 * apps/cli/commands.h: the subcommands of the damier binary, one cmd_<name>.c each.
 * Each takes argc/argv with argv[0] = the subcommand name and returns the exit status. */
#ifndef DM_APPS_CLI_COMMANDS_H
#define DM_APPS_CLI_COMMANDS_H

#include <stdio.h>

#include <damier/variant.h>

int cmd_perft(int argc, char **argv);
int cmd_moves(int argc, char **argv);
int cmd_analyse(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_hub(int argc, char **argv);
int cmd_dxp(int argc, char **argv);
int cmd_pdn(int argc, char **argv);
int cmd_play(int argc, char **argv);
int cmd_egdb(int argc, char **argv);
int cmd_jump(int argc, char **argv);
int cmd_serve(int argc, char **argv); /* apps/serve (the web board) */
int cmd_annotate(int argc, char **argv);
int cmd_match(int argc, char **argv);
int cmd_ballot(int argc, char **argv);
int cmd_selfplay(int argc, char **argv);
int cmd_train(int argc, char **argv);
int cmd_puzzles(int argc, char **argv); /* cmd_puzzles.c */
int cmd_diagram(int argc, char **argv); /* cmd_diagram.c */
int cmd_tourney(int argc, char **argv); /* cmd_tourney.c */
int cmd_book(int argc, char **argv);    /* cmd_book.c */

/* The jumping games (cmd_jump.c): `moves`/`perft` with --game go to these. */
int cmd_jump_moves(int argc, char **argv);
int cmd_jump_perft(int argc, char **argv);
/* The rule options shared by the jump commands and `play --game`: opt is getopt's
 * 'c' (--no-foreign-corner), 't' (--one-throw) or 'o' (--options LIST, arg the list);
 * ORs the rule bits into *options. Returns 0, or -1 after saying on stderr what in
 * the list is wrong. */
int jump_rule_option(int opt, const char *arg, unsigned *options);
/* Nonzero when argv has a --game option (a jumping game, not a draughts variant). */
int cmd_has_game_option(int argc, char **argv);
/* `damier pdn check|convert` of a file of jumping-game records (pdn_jump.c): text is
 * the whole file; out NULL checks (reports on stdout), else converts to out (reports
 * on stderr). Adds to the counts; returns the exit status (0, 1, 2). */
int pdn_jump_file(const char *path, const char *text, size_t len, FILE *out, int *games, int *legal,
                  int *illegal, int *unreadable);

/* Shared helpers (cli_util.c). */

/* Read --fen text into b, an international position (the start position when fen is
 * NULL); prints an error to stderr and returns nonzero on failure. */
int cli_board_from_arg(dm_board *b, const char *fen);

/* The whole file at path, NUL-terminated (malloc'd, *len bytes before the NUL), or
 * NULL after a message on stderr naming `damier cmd`, the file and why (cannot open,
 * larger than max bytes, out of memory, a read error). */
char *cli_read_file(const char *cmd, const char *path, size_t max, size_t *len);

/* Monotonic wall-clock seconds. */
double cli_now(void);

/* Variant helpers (cmd_moves.c): sort moves of variant v by from square, to square,
 * then captured squares (the order of `damier moves` and `perft --divide`; returns n);
 * read --variant NAME and --fen for a variant, printing an error (naming cmd) and
 * returning nonzero on failure. */
int cmd_sort_vmoves(const dm_variant *v, dm_move *moves, int n);
int cmd_variant_from_arg(const dm_variant **out, const char *cmd, const char *name);
int cmd_vboard_from_arg(dm_board *b, const dm_variant *v, const char *fen);

/* Endgame databases (cmd_egdb.c): the default folder ($XDG_DATA_HOME/damier/egdb,
 * else ~/.local/share/damier/egdb; its parents created when make is set), and
 * opening a folder with the refused files reported on stderr (naming cmd). Both
 * return nonzero on failure. */
struct dm_egdb;
int cli_egdb_default_dir(char *buf, size_t cap, int make);
int cli_egdb_open(struct dm_egdb **out, const char *dir, const char *cmd);
/* The folder an engine probes: opt (--egdb DIR) when given, none for "" (NULL), else
 * the default folder when it exists (written to buf), else none (NULL). */
const char *cli_egdb_engine_dir(const char *opt, char *buf, size_t cap);
/* --egdb DIR for an engine: open the folder of cli_egdb_engine_dir(dir) (none: *out =
 * NULL) and let e probe it; the caller closes *out after freeing e. An empty folder
 * named by --egdb is a warning, the default folder is used silently. */
struct dm_engine;
/* Load the weights file path and make engine e use them (`--eval FILE`): international
 * weights (*out) or, when the file's header names an 8x8 variant, that variant's
 * (*out8, used for that variant only); prints the error as "CMD: ..." and returns
 * nonzero on failure. Free both after the engine. */
struct dm_eval;
struct dm_eval8;
int cli_engine_eval(struct dm_engine *e, const char *path, const char *cmd, struct dm_eval **out,
                    struct dm_eval8 **out8);

/* cli_engine_eval for a position of variant want: weights of another variant are
 * refused ("CMD: FILE: weights for russian, the position is brazilian ..."); returns
 * nonzero on failure. */
int cli_engine_eval_for(struct dm_engine *e, const char *path, const char *cmd, dm_variant_id want,
                        struct dm_eval **out, struct dm_eval8 **out8);
int cli_engine_egdb(struct dm_engine *e, const char *dir, const char *cmd, struct dm_egdb **out);

struct dm_book;
/* The book of a --book value (cmd_book.c): "builtin" or NULL the built-in book, "off"
 * or "" none (*out NULL), else a book file read into *owned (the caller frees it with
 * dm_book_free). Prints an error naming cmd and returns nonzero when it cannot be read. */
int cli_book_from_arg(const struct dm_book **out, struct dm_book **owned, const char *value,
                      const char *cmd);
/* Print the book moves of b ("book MOVE weight W score S depth D", PDN notation). */
void cli_book_print(const struct dm_book *bk, const dm_board *b);

#endif
