/* SPDX-License-Identifier: MIT
 * engine/timeman.h: how long to think, from the limits (separate from search).
 *
 * Two numbers per move: a soft budget, checked between iterations (stretched when
 * the best move keeps changing), and a hard deadline, checked inside the search,
 * that is never later than the clock minus a safety margin. */
#ifndef DM_ENGINE_TIMEMAN_H
#define DM_ENGINE_TIMEMAN_H

#include <damier/engine.h>

typedef struct tm_budget {
    int timed;   /* 0: no time limit (depth/nodes/infinite) */
    int fixed;   /* 1: a fixed time a move and no clock: every iteration is started
                    until the hard deadline stops one */
    double soft; /* seconds: do not start an iteration after about half of this */
    double hard; /* seconds: abort the search at this time */
} tm_budget;

/* Plan the budget of one move (clock modes: sudden death, moves-in-time, Fischer,
 * fixed move time). */
void tm_plan(tm_budget *out, const dm_limits *lim);

/* After an iteration that took the search to `elapsed` seconds: 1 when another
 * iteration should not be started. instability >= 0 grows with best-move changes. */
int tm_should_stop(const tm_budget *b, double elapsed, double instability);

/* Monotonic seconds. */
double tm_now(void);

#endif /* DM_ENGINE_TIMEMAN_H */
