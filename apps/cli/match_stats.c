/* SPDX-License-Identifier: MIT
 * apps/cli/match_stats.c: Elo, pentanomial error and SPRT of `damier match`
 * (match_stats.h). */
#include "match_stats.h"

#include <math.h>

long match_penta_pairs(const match_penta *p)
{
    long n = 0;
    for (int k = 0; k < 5; k++) {
        n += p->penta[k];
    }
    return n;
}

double match_penta_mean(const match_penta *p)
{
    long n = match_penta_pairs(p);
    if (n <= 0) {
        return 0;
    }
    double sum = 0;
    for (int k = 0; k < 5; k++) {
        sum += p->penta[k] * (k / 4.0);
    }
    return sum / (double)n;
}

double match_penta_var(const match_penta *p)
{
    long n = match_penta_pairs(p);
    if (n <= 0) {
        return 0;
    }
    double mu = match_penta_mean(p), sum = 0;
    for (int k = 0; k < 5; k++) {
        double d = k / 4.0 - mu;
        sum += p->penta[k] * d * d;
    }
    return sum / (double)n;
}

double match_elo_of_score(double s)
{
    if (s >= 1) {
        return INFINITY;
    }
    if (s <= 0) {
        return -INFINITY;
    }
    return -400.0 * log10(1.0 / s - 1.0) + 0.0; /* + 0.0: no "-0.0" */
}

double match_score_of_elo(double elo)
{
    return 1.0 / (1.0 + pow(10.0, -elo / 400.0));
}

int match_elo_interval(const match_penta *p, double *elo, double *lo, double *hi)
{
    long n = match_penta_pairs(p);
    if (n < 2) {
        return -1;
    }
    double mu = match_penta_mean(p);
    double se = sqrt(match_penta_var(p) / (double)n);
    double a = mu - 1.959963984540054 * se, b = mu + 1.959963984540054 * se;
    *elo = match_elo_of_score(mu);
    *lo = match_elo_of_score(a < 0 ? 0 : a);
    *hi = match_elo_of_score(b > 1 ? 1 : b);
    return 0;
}

double match_sprt_llr(const match_penta *p, double elo0, double elo1)
{
    if (match_penta_pairs(p) <= 0) {
        return 0;
    }
    /* an empty count becomes 0.001 (as fastchess does), so that a one-sided match has a
     * spread and decides */
    double c[5], n = 0, x = 0, v = 0;
    for (int k = 0; k < 5; k++) {
        c[k] = p->penta[k] > 0 ? (double)p->penta[k] : 1e-3;
        n += c[k];
        x += c[k] * (k / 4.0);
    }
    x /= n;
    for (int k = 0; k < 5; k++) {
        v += c[k] * (k / 4.0 - x) * (k / 4.0 - x);
    }
    v /= n;
    double s0 = match_score_of_elo(elo0), s1 = match_score_of_elo(elo1);
    return n * (s1 - s0) * (2 * x - s0 - s1) / (2 * v);
}

void match_sprt_bounds(double alpha, double beta, double *lower, double *upper)
{
    *lower = log(beta / (1 - alpha));
    *upper = log((1 - beta) / alpha);
}
