/* SPDX-License-Identifier: MIT
 * apps/cli/match_variant.h: what `damier match` needs to referee a game of any variant,
 * international included, through Hub (docs/MATCH.md, "Variants"): the variant's Hub
 * name, a position in Hub form, an engine's move text read against the legal moves,
 * and which position can start the `pos` line of a variant other than international.
 * The game itself is a dm_game of the variant (game.h), on the generic board. */
#ifndef DM_APPS_CLI_MATCH_VARIANT_H
#define DM_APPS_CLI_MATCH_VARIANT_H

#include <stddef.h>

#include <damier/game.h>
#include <damier/variant.h>

/* How an engine's move text reads. */
enum {
    MATCH_MOVE_OK = 0,
    MATCH_MOVE_GARBLED, /* not a move text of the variant's squares */
    MATCH_MOVE_ILLEGAL,
    MATCH_MOVE_AMBIGUOUS
};

/* The name `set-param name=variant value=NAME` gives v in Hub: Scan's where it has
 * one ("normal", "losing" for antidraughts), damier's for the others (the values
 * `damier hub` announces). */
const char *match_variant_hub_name(const dm_variant *v);

/* b in Hub form: the side to move (W or B), then w b W B e for each square 1..squares
 * as the variant's records number them (33, 51 or 73 characters). cap >= 74. */
void match_vpos_to_hub(char *buf, size_t cap, const dm_board *b);

/* The legal move of b that text names: the Hub form (from, to, then the captured
 * squares in any order) first, matched by from, to and captured set; else what
 * dm_move_parse makes of it (PDN notation, paths, from and to alone when one legal
 * move fits). Returns a MATCH_MOVE_ code; why gets dm_move_parse's reason otherwise. */
int match_vmove_read(dm_move *out, const dm_board *b, const char *text, char *why, size_t cap);

/* True when the current position of game g (a variant game) says in Hub form all that
 * the game knows: its draw counters are those of a game started there (after a man
 * move or a capture; after a capture when the variant counts moves without capture,
 * as Russian does; not while a material rule's count runs) and no king-move count
 * runs (Frisian). The referee then sends it as `pos`, and the
 * moves since it as `moves=`, so that the engine sees the repetitions and counts the
 * draw rules as the referee does. */
int match_vgame_fresh(const dm_game *g);

#endif
