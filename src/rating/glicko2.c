/* SPDX-License-Identifier: MIT
 * Glicko-2 (damier/rating.h), step by step as in Glickman's "Example of the Glicko-2
 * system" (glicko2.pdf, 2013); the step numbers below are the paper's. */
#include <damier/rating.h>

#include <math.h>
#include <stddef.h>

#define GLICKO_SCALE 173.7178 /* step 2: mu = (r - 1500) / 173.7178 */
#define GLICKO_EPS 0.000001   /* step 5: convergence tolerance */
#define MAX_GAMES 100000
#define GLICKO_PI 3.14159265358979323846

static double g_of(double phi)
{
    return 1.0 / sqrt(1.0 + 3.0 * phi * phi / (GLICKO_PI * GLICKO_PI));
}

static double e_of(double mu, double mu_j, double phi_j)
{
    return 1.0 / (1.0 + exp(-g_of(phi_j) * (mu - mu_j)));
}

static int bad_rating(double r)
{
    return !isfinite(r) || r < 0.0 || r > 5000.0;
}

static int bad_rd(double rd)
{
    return !isfinite(rd) || rd <= 0.0 || rd > DM_GLICKO_RD_MAX;
}

static dm_status check(const dm_glicko *player, const dm_glicko_game *games, int n, double tau,
                       dm_error *err)
{
    if (bad_rating(player->rating)) {
        return dm_error_set(err, DM_EINVAL, 0, 0, "player rating %g is not in 0..5000",
                            player->rating);
    }
    if (bad_rd(player->rd)) {
        return dm_error_set(err, DM_EINVAL, 0, 0, "player RD %g is not in (0, %g]", player->rd,
                            DM_GLICKO_RD_MAX);
    }
    if (!isfinite(player->vol) || player->vol <= 0.0 || player->vol >= 1.0) {
        return dm_error_set(err, DM_EINVAL, 0, 0, "player volatility %g is not in (0, 1)",
                            player->vol);
    }
    if (!isfinite(tau) || tau <= 0.0 || tau > 10.0) {
        return dm_error_set(err, DM_EINVAL, 0, 0, "tau %g is not in (0, 10]", tau);
    }
    if (n < 0 || n > MAX_GAMES) {
        return dm_error_set(err, DM_EINVAL, 0, 0, "game count %d is not in 0..%d", n, MAX_GAMES);
    }
    if (n > 0 && !games) {
        return dm_error_set(err, DM_EINVAL, 0, 0, "%d games but no game array", n);
    }
    for (int j = 0; j < n; j++) {
        if (bad_rating(games[j].rating)) {
            return dm_error_set(err, DM_EINVAL, 0, 0,
                                "game %d: opponent rating %g is not in 0..5000", j + 1,
                                games[j].rating);
        }
        if (bad_rd(games[j].rd)) {
            return dm_error_set(err, DM_EINVAL, 0, 0, "game %d: opponent RD %g is not in (0, %g]",
                                j + 1, games[j].rd, DM_GLICKO_RD_MAX);
        }
        if (!isfinite(games[j].score) || games[j].score < 0.0 || games[j].score > 1.0) {
            return dm_error_set(err, DM_EINVAL, 0, 0, "game %d: score %g is not in 0..1", j + 1,
                                games[j].score);
        }
    }
    return DM_OK;
}

/* Step 5.1: f(x) of the paper. */
static double f_of(double x, double delta, double phi, double v, double a, double tau)
{
    double ex = exp(x);
    double d = phi * phi + v + ex;
    return ex * (delta * delta - phi * phi - v - ex) / (2.0 * d * d) - (x - a) / (tau * tau);
}

dm_status dm_glicko_update(dm_glicko *out, const dm_glicko *player, const dm_glicko_game *games,
                           int n, double tau, dm_error *err)
{
    if (!out || !player) {
        return dm_error_set(err, DM_EINVAL, 0, 0, "NULL rating");
    }
    dm_status st = check(player, games, n, tau, err);
    if (st != DM_OK) {
        return st;
    }
    /* Step 2: to the Glicko-2 scale. */
    double mu = (player->rating - 1500.0) / GLICKO_SCALE;
    double phi = player->rd / GLICKO_SCALE;
    double sigma = player->vol;
    double rd_max = DM_GLICKO_RD_MAX / GLICKO_SCALE;

    if (n == 0) {
        /* No game in the period: only the deviation grows (step 6 alone). */
        double phi_new = sqrt(phi * phi + sigma * sigma);
        out->rating = player->rating;
        out->rd = fmin(phi_new, rd_max) * GLICKO_SCALE;
        out->vol = sigma;
        return DM_OK;
    }

    /* Steps 3 and 4: the estimated variance v and the improvement delta. */
    double inv_v = 0.0, sum = 0.0;
    for (int j = 0; j < n; j++) {
        double mu_j = (games[j].rating - 1500.0) / GLICKO_SCALE;
        double phi_j = games[j].rd / GLICKO_SCALE;
        double g = g_of(phi_j);
        double e = e_of(mu, mu_j, phi_j);
        inv_v += g * g * e * (1.0 - e);
        sum += g * (games[j].score - e);
    }
    double v = 1.0 / inv_v;
    double delta = v * sum;

    /* Step 5: the new volatility, by the Illinois algorithm. */
    double a = log(sigma * sigma);
    double big_a = a, big_b;
    if (delta * delta > phi * phi + v) {
        big_b = log(delta * delta - phi * phi - v);
    } else {
        int k = 1;
        while (f_of(a - k * tau, delta, phi, v, a, tau) < 0.0 && k < 10000) {
            k++;
        }
        big_b = a - k * tau;
    }
    double f_a = f_of(big_a, delta, phi, v, a, tau);
    double f_b = f_of(big_b, delta, phi, v, a, tau);
    for (int it = 0; fabs(big_b - big_a) > GLICKO_EPS && it < 1000; it++) {
        double c = big_a + (big_a - big_b) * f_a / (f_b - f_a);
        double f_c = f_of(c, delta, phi, v, a, tau);
        if (f_c * f_b <= 0.0) {
            big_a = big_b;
            f_a = f_b;
        } else {
            f_a /= 2.0;
        }
        big_b = c;
        f_b = f_c;
    }
    double sigma_new = exp(big_a / 2.0);

    /* Steps 6 and 7: the new deviation and rating. */
    double phi_star = sqrt(phi * phi + sigma_new * sigma_new);
    double phi_new = 1.0 / sqrt(1.0 / (phi_star * phi_star) + 1.0 / v);
    double mu_new = mu + phi_new * phi_new * sum;

    /* Step 8: back to the Glicko scale. */
    out->rating = GLICKO_SCALE * mu_new + 1500.0;
    out->rd = fmin(phi_new, rd_max) * GLICKO_SCALE;
    out->vol = sigma_new;
    return DM_OK;
}

double dm_glicko_expected(double r, double opp_rating, double opp_rd)
{
    if (bad_rating(r) || bad_rating(opp_rating) || bad_rd(opp_rd)) {
        return 0.5;
    }
    return e_of((r - 1500.0) / GLICKO_SCALE, (opp_rating - 1500.0) / GLICKO_SCALE,
                opp_rd / GLICKO_SCALE);
}
