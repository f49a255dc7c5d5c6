/* SPDX-License-Identifier: MIT
 * apps/cli/match_stats.h: the statistics of `damier match`: the score of a match as
 * game pairs (the same opening played twice, colours swapped), the Elo difference
 * with its 95% interval from the pentanomial model, and the sequential probability
 * ratio test (SPRT) with the generalised (GSPRT) normal approximation of the log
 * likelihood ratio, as fishtest and fastchess compute it. Pure functions, no I/O. */
#ifndef DM_APPS_CLI_MATCH_STATS_H
#define DM_APPS_CLI_MATCH_STATS_H

/* The pentanomial counts: penta[k] = number of pairs in which the first engine scored
 * k half points of the 4 of the pair (k = 0: two losses ... k = 4: two wins). */
typedef struct match_penta {
    long penta[5];
} match_penta;

/* The score of the pairs per pair and game: mean of k/4 over the pairs, and the
 * variance of that per-pair score (population variance, divided by the number of
 * pairs). Both 0 when there are no pairs. */
double match_penta_mean(const match_penta *p);
double match_penta_var(const match_penta *p);
long match_penta_pairs(const match_penta *p);

/* The logistic Elo difference of a score s in (0, 1): -400 log10(1/s - 1); +-INFINITY
 * for s >= 1 or s <= 0. And back: the expected score of an Elo difference. */
double match_elo_of_score(double s);
double match_score_of_elo(double elo);

/* Elo with its 95% interval from the pairs: *elo from the mean score, *lo and *hi the
 * Elo of mean -+ 1.96 standard errors (clamped into [0, 1], so they may be infinite).
 * Returns 0, or -1 when there are fewer than 2 pairs (nothing is written then). */
int match_elo_interval(const match_penta *p, double *elo, double *lo, double *hi);

/* The log likelihood ratio of H1 (Elo elo1) against H0 (Elo elo0), logistic Elo, in
 * the GSPRT approximation over the pairs: with the mean x and variance v of the
 * per-pair score, s0/s1 the scores of elo0/elo1 and N pairs,
 *     LLR = N (s1 - s0) (2x - s0 - s1) / (2 v),
 * where an empty pentanomial count is taken as 0.001 (fastchess's regularisation: a
 * match won every time has a spread and decides). 0 when there are no pairs. */
double match_sprt_llr(const match_penta *p, double elo0, double elo1);

/* The SPRT bounds for error rates alpha (false positive) and beta (false negative):
 * lower = ln(beta / (1 - alpha)), upper = ln((1 - beta) / alpha). */
void match_sprt_bounds(double alpha, double beta, double *lower, double *upper);

#endif
