/* SPDX-License-Identifier: MIT
 * tests/game_fast.h: the game's one constructor, accessors and dm_game_play (generic
 * positions and moves, every variant) driven from the fast 10x10 board, for the tests
 * and fakes whose international positions and moves are written on dm_board10 / dm_move10
 * (FMJD draw rules, DXP, the PDN round trips). Positions convert with
 * dm_board_to_board10 / dm_board_from_board10, moves with dm_move_to_move10 /
 * dm_move_from_move10. A test-side adapter until the two position types are one
 * (issue 9), not a second game API: the game is the library's. */
#ifndef DM_TESTS_GAME_FAST_H
#define DM_TESTS_GAME_FAST_H

#include <string.h>

#include "core/board10.h"
#include <damier/game.h>
#include "core/move10.h"
#include <damier/variant.h>

/* dm_game_new from a fast board (NULL: the initial position). */
static inline dm_status fast_game_new(dm_game **out, const dm_board10 *start)
{
    if (!start) {
        return dm_game_new(out, NULL);
    }
    dm_board vb;
    dm_board_from_board10(&vb, dm_variant_get(DM_VARIANT_INTERNATIONAL), start);
    return dm_game_new(out, &vb);
}

/* The position before ply i on the fast board in *out; out, or NULL when i is out of
 * range. */
static inline const dm_board10 *fast_game_board_at(dm_board10 *out, const dm_game *g, int i)
{
    const dm_board *vb = dm_game_position_at(g, i);
    return vb && dm_board_to_board10(out, vb) == DM_OK ? out : NULL;
}

/* The current position on the fast board. */
static inline const dm_board10 *fast_game_board(dm_board10 *out, const dm_game *g)
{
    return fast_game_board_at(out, g, dm_game_ply(g));
}

/* The move of ply i on the fast board in *out; out, or NULL when i is out of range. */
static inline const dm_move10 *fast_game_move_at(dm_move10 *out, const dm_game *g, int i)
{
    dm_board10 b;
    const dm_move *m = dm_game_move_at(g, i);
    return m && fast_game_board_at(&b, g, i) && dm_move_to_move10(out, &b, m) == DM_OK ? out : NULL;
}

/* dm_game_play with a move of the fast board. A move the current position does not
 * have goes on as a move that is never legal (from square 0), so that dm_game_play
 * answers as for any illegal move (DM_EILLEGAL, or DM_ESTATE when the game is over). */
static inline dm_status fast_game_play(dm_game *g, const dm_move10 *m)
{
    dm_move vm;
    if (!m) {
        return dm_game_play(g, NULL);
    }
    if (dm_move_from_move10(&vm, dm_game_position(g), m) != DM_OK) {
        memset(&vm, 0, sizeof vm);
    }
    return dm_game_play(g, &vm);
}

#endif /* DM_TESTS_GAME_FAST_H */
