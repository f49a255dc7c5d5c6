/* SPDX-License-Identifier: MIT
 * src/tourney/tourney_int.h: what the tournament layer's files share (layer tourney
 * only). */
#ifndef DM_TOURNEY_INT_H
#define DM_TOURNEY_INT_H

#include <damier/tourney.h>

/* Append a pairing (copied). DM_ENOMEM. */
dm_status tourney_push_pairing(dm_tourney *t, const dm_tourney_pairing *p, dm_error *err);

/* The Berger table of n players (n even) for round 1..n-1: pairs[i] = {White, Black},
 * players numbered 1..n, n/2 pairs. */
void tourney_berger_round(int n, int round, int (*pairs)[2]);

/* The event's points of every entrant over the pairings of rounds before `before`
 * (0: every pairing); points has t->nentrants slots. */
void tourney_points(const dm_tourney *t, int before, int *points);

/* 1 when (a, b) is a game's points under t's scale: win-loss, draw-draw, loss-win. */
int tourney_is_game(const dm_tourney *t, int a, int b);

#endif
