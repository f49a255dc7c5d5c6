/* SPDX-License-Identifier: MIT
 * apps/cli/annotate.h: the engine's marks on the moves of a game (`damier annotate`,
 * and the web board's "Annotate", which links this file too).
 *
 * Every legal move of each position is scored by a search of the position after it
 * (depth - 1), from the mover's side in hundredths of a man. With loss = best - the
 * move played (forced wins and losses counted as +-20 men, and so are the endgame
 * database's when the engine probes one: a move that turns a database win into a draw
 * or a draw into a loss is a decisive error, ??; a win kept is no loss):
 *     ??  loss >= 2.00        ?  loss >= 0.90        ?!  loss >= 0.40
 *     !!  the best move, every other one at least 2.50 worse
 *     !   the best move, every other one at least 1.00 worse
 *     *   forced (FMJD notation): the move played does not lose and every other legal
 *         one loses by force (the search finds the loss); instead of ! or !!
 *     !?  a quiet move after which the opponent must capture (a sacrifice), within
 *         0.15 of the best though not the engine's choice
 *     +   winning position (FMJD notation), after the other marks: the first move after
 *         which the search finds a forced win for the mover (again when a win was let
 *         go and found anew)
 * The only legal move gets no mark but "+". */
#ifndef DM_APPS_CLI_ANNOTATE_H
#define DM_APPS_CLI_ANNOTATE_H

#include <damier/engine.h>
#include <damier/game.h>
#include <damier/pdn.h>

/* What the engine says about one ply. */
typedef struct cli_annotation {
    char mark[4];   /* "", "!", "!!", "?", "??", "!?", "?!", "*", then maybe "+" */
    int eval_white; /* the position after the move, White's side (hundredths) */
    int loss;       /* best - played, the mover's side (hundredths) */
    char best[160]; /* the engine's move (PDN), "" when forced */
} cli_annotation;

#define CLI_ANNOTATE_DEFAULT_DEPTH 6

/* Annotate the plies 0 .. dm_game_ply(g) - 1 of g into out[] (that many entries)
 * with engine e at depth (1..30). *stop (may be NULL) set to nonzero ends it early
 * (the rest left unmarked). DM_OK, DM_ENOMEM, DM_EINVAL. */
dm_status cli_annotate_game(cli_annotation *out, dm_engine *e, const dm_game *g, int depth,
                            const volatile int *stop);

/* The record of g (dm_pdn_from_game with tags) with each move's mark and a comment
 * after it: the evaluation ("+0.25", White's side) and, for a mistake, the engine's
 * move ("+0.25, best 33-28"). *out belongs to the caller (dm_pdn_game_free). */
dm_status cli_annotate_record(dm_pdn_game **out, const dm_game *g, const cli_annotation *a,
                              const dm_pdn_game_tags *tags);

#endif
