/* SPDX-License-Identifier: MIT
 * damier/rating.h: player ratings by the Glicko-2 system of Mark E. Glickman,
 * "Example of the Glicko-2 system" (http://www.glicko.net/glicko/glicko2.pdf,
 * November 30, 2013): a rating, its deviation (RD) and a volatility, updated once
 * per rating period from the games of that period.
 *
 * Units: ratings and RDs are on the Glicko scale (a new player 1500, RD 350; the
 * internal Glicko-2 scale is (r - 1500) / 173.7178, as in the paper, steps 2 and 8);
 * the volatility is on the Glicko-2 scale (a new player 0.06); game scores are 1 for
 * a win, 0.5 for a draw, 0 for a loss. The system constant tau bounds the change of
 * volatility: Glickman suggests 0.3 to 1.2; DM_GLICKO_TAU (0.5) is the paper's
 * example value. Pure computation: nothing is kept between calls. */
#ifndef DM_RATING_H
#define DM_RATING_H

#include <damier/status.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A player's rating. */
typedef struct dm_glicko {
    double rating; /* Glicko scale, 1500 for a new player; finite, 0..5000 accepted */
    double rd;     /* rating deviation, Glicko scale: 350 for a new player; accepted
                      (0, DM_GLICKO_RD_MAX] */
    double vol;    /* volatility sigma, Glicko-2 scale: 0.06 for a new player; accepted
                      (0, 1) */
} dm_glicko;

/* A new player (the paper's step 1). */
#define DM_GLICKO_INIT                                                                             \
    {                                                                                              \
        1500.0, 350.0, 0.06                                                                        \
    }

/* The largest RD: a player who has not played for a long time is back to a new
 * player's uncertainty, never more (Glickman's Glicko-1 note; Glicko-2's step 6 alone
 * would let the RD grow without bound). dm_glicko_update caps the RD it writes here. */
#define DM_GLICKO_RD_MAX 350.0

/* The paper's example system constant. */
#define DM_GLICKO_TAU 0.5

/* One game of the rating period, against an opponent rated before the period. */
typedef struct dm_glicko_game {
    double rating; /* the opponent's rating (Glicko scale, as dm_glicko.rating) */
    double rd;     /* the opponent's RD (as dm_glicko.rd) */
    double score;  /* the player's result: 1 win, 0.5 draw, 0 loss (any value in 0..1) */
} dm_glicko_game;

/* The player's rating after a rating period in which they played the n games of
 * games[] (n = 0: no game, then only the RD grows, by the paper's "if a player does
 * not compete" rule: phi' = sqrt(phi^2 + sigma^2), capped at DM_GLICKO_RD_MAX).
 * Steps 2-8 of the paper; the new volatility by its Illinois iteration (step 5,
 * convergence tolerance 1e-6). tau: the system constant (DM_GLICKO_TAU; accepted
 * (0, 10]). *out may be player. Errors (err says which value and game): DM_EINVAL
 * for NULL out/player, games NULL with n > 0, n < 0 or above 100000, a value out of
 * the ranges above or not a finite number; *out is then untouched. */
DM_API dm_status dm_glicko_update(dm_glicko *out, const dm_glicko *player,
                                  const dm_glicko_game *games, int n, double tau, dm_error *err);

/* The expected score (0..1) of a player rated r against an opponent rated
 * opp_rating with deviation opp_rd (the paper's E function, Glicko scale in);
 * 0.5 for values out of range. */
DM_API double dm_glicko_expected(double r, double opp_rating, double opp_rd);

#ifdef __cplusplus
}
#endif
#endif /* DM_RATING_H */
