/* SPDX-License-Identifier: MIT
 * Tests of damier/rating.h: Glicko-2 against Glickman's worked example (glicko2.pdf,
 * 2013: a player rated 1500, RD 200, volatility 0.06 plays 1400/30 (win), 1550/100
 * (loss) and 1700/300 (loss) with tau 0.5 and ends 1464.06, RD 151.52, volatility
 * 0.05999), a period without games, and rejected input. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include <damier/rating.h>

static void near(double got, double want, double tol, const char *what)
{
    if (fabs(got - want) > tol) {
        fail_msg("%s: got %.6f, expected %.6f (+-%g)", what, got, want, tol);
    }
}

static void test_rating__glickman_example(void **state)
{
    (void)state;
    dm_glicko p = {1500.0, 200.0, 0.06};
    dm_glicko_game games[3] = {{1400.0, 30.0, 1.0}, {1550.0, 100.0, 0.0}, {1700.0, 300.0, 0.0}};
    dm_glicko out;
    dm_error err = {0};
    assert_int_equal(dm_glicko_update(&out, &p, games, 3, 0.5, &err), DM_OK);
    /* The paper prints mu' = -0.2069 and phi' = 0.8722, rounded to 4 places, and
     * converts those: 1464.06 and 151.52. Unrounded, the same steps give 1464.0507 and
     * 151.5165 (so do other implementations), within 0.01 of the paper's figures. */
    near(out.rating, 1464.06, 0.01, "rating (paper)");
    near(out.rd, 151.52, 0.01, "RD (paper)");
    near(out.vol, 0.05999, 0.00001, "volatility (paper)");
    near(out.vol, 0.059996, 0.000001, "volatility (unrounded)");
    near(out.rating, 1464.0507, 0.0001, "rating (unrounded)");
    near(out.rd, 151.5165, 0.0001, "RD (unrounded)");
    /* In place gives the same. */
    assert_int_equal(dm_glicko_update(&p, &p, games, 3, 0.5, &err), DM_OK);
    assert_true(p.rating == out.rating && p.rd == out.rd && p.vol == out.vol);
}

static void test_rating__expected(void **state)
{
    (void)state;
    /* The paper's E values for the example: 0.639, 0.432, 0.303. */
    near(dm_glicko_expected(1500, 1400, 30), 0.639, 0.0005, "E vs 1400/30");
    near(dm_glicko_expected(1500, 1550, 100), 0.432, 0.0005, "E vs 1550/100");
    near(dm_glicko_expected(1500, 1700, 300), 0.303, 0.0005, "E vs 1700/300");
    near(dm_glicko_expected(1500, 1500, 350), 0.5, 1e-12, "equal ratings");
}

static void test_rating__no_games_rd_grows(void **state)
{
    (void)state;
    dm_glicko p = {1500.0, 200.0, 0.06}, out;
    assert_int_equal(dm_glicko_update(&out, &p, NULL, 0, 0.5, NULL), DM_OK);
    /* phi' = sqrt(phi^2 + sigma^2) on the Glicko-2 scale. */
    double phi = 200.0 / 173.7178;
    near(out.rd, sqrt(phi * phi + 0.06 * 0.06) * 173.7178, 1e-9, "RD after an idle period");
    assert_true(out.rd > p.rd);
    assert_true(out.rating == p.rating && out.vol == p.vol);
    /* Many idle periods: the RD stops at a new player's 350. */
    for (int i = 0; i < 2000; i++) {
        assert_int_equal(dm_glicko_update(&out, &out, NULL, 0, 0.5, NULL), DM_OK);
    }
    near(out.rd, DM_GLICKO_RD_MAX, 1e-9, "RD cap");
}

static void test_rating__new_player_win_and_draw(void **state)
{
    (void)state;
    dm_glicko p = DM_GLICKO_INIT, won, drew;
    dm_glicko_game g = {1500.0, 350.0, 1.0};
    assert_int_equal(dm_glicko_update(&won, &p, &g, 1, DM_GLICKO_TAU, NULL), DM_OK);
    assert_true(won.rating > 1500.0 && won.rd < 350.0);
    g.score = 0.5;
    assert_int_equal(dm_glicko_update(&drew, &p, &g, 1, DM_GLICKO_TAU, NULL), DM_OK);
    near(drew.rating, 1500.0, 1e-9, "a draw between equals");
    assert_true(drew.rd < 350.0);
}

static void expect_reject(const dm_glicko *p, const dm_glicko_game *g, int n, double tau,
                          const char *words)
{
    dm_glicko out = {1.0, 2.0, 0.5};
    dm_error err = {0};
    assert_int_equal(dm_glicko_update(&out, p, g, n, tau, &err), DM_EINVAL);
    if (!strstr(err.message, words)) {
        fail_msg("message '%s' does not say '%s'", err.message, words);
    }
    assert_true(out.rating == 1.0 && out.rd == 2.0 && out.vol == 0.5); /* untouched */
}

static void test_rating__bad_input(void **state)
{
    (void)state;
    dm_glicko ok = {1500.0, 200.0, 0.06};
    dm_glicko_game g = {1400.0, 30.0, 1.0};
    dm_glicko p = ok;
    p.rd = 0.0;
    expect_reject(&p, &g, 1, 0.5, "player RD");
    p.rd = 400.0;
    expect_reject(&p, &g, 1, 0.5, "player RD");
    p = ok;
    p.rating = NAN;
    expect_reject(&p, &g, 1, 0.5, "player rating");
    p = ok;
    p.vol = 0.0;
    expect_reject(&p, &g, 1, 0.5, "volatility");
    expect_reject(&ok, &g, 1, 0.0, "tau");
    expect_reject(&ok, &g, 1, INFINITY, "tau");
    expect_reject(&ok, &g, -1, 0.5, "game count");
    expect_reject(&ok, NULL, 2, 0.5, "no game array");
    dm_glicko_game two[2] = {{1400.0, 30.0, 1.0}, {1550.0, 100.0, 1.5}};
    expect_reject(&ok, two, 2, 0.5, "game 2: score");
    two[1].score = 0.0;
    two[1].rd = -3.0;
    expect_reject(&ok, two, 2, 0.5, "game 2: opponent RD");
    two[1].rd = 100.0;
    two[1].rating = -1.0;
    expect_reject(&ok, two, 2, 0.5, "game 2: opponent rating");
    assert_int_equal(dm_glicko_update(NULL, &ok, &g, 1, 0.5, NULL), DM_EINVAL);
    dm_glicko out;
    assert_int_equal(dm_glicko_update(&out, NULL, &g, 1, 0.5, NULL), DM_EINVAL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rating__glickman_example),
        cmocka_unit_test(test_rating__expected),
        cmocka_unit_test(test_rating__no_games_rd_grows),
        cmocka_unit_test(test_rating__new_player_win_and_draw),
        cmocka_unit_test(test_rating__bad_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
