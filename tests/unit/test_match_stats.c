/* SPDX-License-Identifier: MIT
 * Tests of apps/cli/match_stats.c, the statistics of `damier match`, against values
 * computed by hand (the arithmetic is written out beside each case). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>

#include "match_stats.h"

#define NEAR(a, b, eps) assert_true(fabs((a) - (b)) < (eps))

/* Logistic Elo: 0.5 -> 0; 0.75 -> -400 log10(1/3) = 190.85; 0.25 -> -190.85; and
 * back: 100 Elo -> 1 / (1 + 10^-0.25) = 0.64006. */
static void test_match_stats__elo_of_score(void **state)
{
    (void)state;
    NEAR(match_elo_of_score(0.5), 0, 1e-9);
    NEAR(match_elo_of_score(0.75), 190.848501887865, 1e-6);
    NEAR(match_elo_of_score(0.25), -190.848501887865, 1e-6);
    NEAR(match_score_of_elo(100), 0.640064999803, 1e-5);
    assert_true(isinf(match_elo_of_score(1)) && match_elo_of_score(1) > 0);
    assert_true(isinf(match_elo_of_score(0)) && match_elo_of_score(0) < 0);
    for (double e = -600; e <= 600; e += 50) {
        NEAR(match_elo_of_score(match_score_of_elo(e)), e, 1e-6);
    }
}

/* penta (1, 2, 4, 2, 1): 10 pairs, scores k/4; mean (0 + 2*.25 + 4*.5 + 2*.75 + 1)/10
 * = 0.5; variance (.25 + 2*.0625 + 0 + 2*.0625 + .25)/10 = 0.075; standard error
 * sqrt(0.075/10) = 0.0866; 0.5 +- 1.96*0.0866 = 0.3303 .. 0.6697, Elo -122.82 ..
 * +122.82. */
static void test_match_stats__symmetric_pairs(void **state)
{
    (void)state;
    match_penta p = {{1, 2, 4, 2, 1}};
    double elo, lo, hi;
    assert_int_equal(match_penta_pairs(&p), 10);
    NEAR(match_penta_mean(&p), 0.5, 1e-12);
    NEAR(match_penta_var(&p), 0.075, 1e-12);
    assert_int_equal(match_elo_interval(&p, &elo, &lo, &hi), 0);
    NEAR(elo, 0, 1e-9);
    NEAR(lo, -122.818424, 1e-4);
    NEAR(hi, 122.818424, 1e-4);
}

/* penta (0, 1, 2, 4, 3): mean (.25 + 1 + 3 + 3)/10 = 0.725, Elo -400 log10(1/0.725 - 1)
 * = 168.40; variance (1*.475^2 + 2*.225^2 + 4*.025^2 + 3*.275^2)/10 = 0.055625;
 * interval 0.725 -+ 1.96 sqrt(0.0055625): Elo 55.23 .. 332.05. */
static void test_match_stats__lopsided_pairs(void **state)
{
    (void)state;
    match_penta p = {{0, 1, 2, 4, 3}};
    double elo, lo, hi;
    NEAR(match_penta_mean(&p), 0.725, 1e-12);
    NEAR(match_penta_var(&p), 0.055625, 1e-12);
    assert_int_equal(match_elo_interval(&p, &elo, &lo, &hi), 0);
    NEAR(elo, 168.402125, 1e-4);
    NEAR(lo, 55.231480, 1e-4);
    NEAR(hi, 332.047311, 1e-4);
}

/* Under 2 pairs there is no interval; an all-win match has an infinite Elo and a
 * degenerate interval. */
static void test_match_stats__few_pairs(void **state)
{
    (void)state;
    match_penta none = {{0, 0, 0, 0, 0}}, one = {{0, 0, 0, 0, 1}}, wins = {{0, 0, 0, 0, 5}};
    double elo = 7, lo = 7, hi = 7;
    assert_int_equal(match_elo_interval(&none, &elo, &lo, &hi), -1);
    assert_int_equal(match_elo_interval(&one, &elo, &lo, &hi), -1);
    assert_true(elo == 7 && lo == 7 && hi == 7);
    assert_int_equal(match_elo_interval(&wins, &elo, &lo, &hi), 0);
    assert_true(isinf(elo) && elo > 0);
    NEAR(match_penta_var(&wins), 0, 1e-12);
    NEAR(match_sprt_llr(&none, 0, 5), 0, 1e-12);
}

/* SPRT bounds for alpha = beta = 0.05: ln(0.05/0.95) = -2.944, ln(0.95/0.05) = 2.944;
 * alpha 0.05 beta 0.1: ln(0.1/0.95) = -2.2513, ln(0.9/0.05) = 2.8904. */
static void test_match_stats__sprt_bounds(void **state)
{
    (void)state;
    double lo, hi;
    match_sprt_bounds(0.05, 0.05, &lo, &hi);
    NEAR(lo, -2.944438979, 1e-8);
    NEAR(hi, 2.944438979, 1e-8);
    match_sprt_bounds(0.05, 0.1, &lo, &hi);
    NEAR(lo, -2.251291799, 1e-8);
    NEAR(hi, 2.890371758, 1e-8);
}

/* LLR = N (s1 - s0) (2x - s0 - s1) / (2v), elo0 0 (s0 = 0.5), elo1 10
 * (s1 = 0.514390), an empty count taken as 0.001: penta (1, 2, 4, 2, 1), no empty
 * count: 10 * 0.014390 * (1 - 1.014390) / 0.15 = -0.0137994; penta (0, 1, 2, 4, 3):
 * N = 10.001, x = 0.724972, v = 0.0556400: 0.562741; penta (2, 3, 10, 3, 0), 18 pairs:
 * -0.356681; the same rates ten times over: about ten times the LLR; five pairs won
 * (0, 0, 0, 0, 5): 94.653 (without the 0.001 the spread would be 0 and the test
 * could never decide), five lost: -97.419. */
static void test_match_stats__sprt_llr(void **state)
{
    (void)state;
    match_penta a = {{0, 1, 2, 4, 3}}, b = {{1, 2, 4, 2, 1}}, c = {{2, 3, 10, 3, 0}};
    match_penta a10 = {{0, 10, 20, 40, 30}}, won = {{0, 0, 0, 0, 5}}, lost = {{5, 0, 0, 0, 0}};
    NEAR(match_sprt_llr(&b, 0, 10), -0.01379940454842427, 1e-9);
    NEAR(match_sprt_llr(&a, 0, 10), 0.562741010681894, 1e-9);
    NEAR(match_sprt_llr(&c, 0, 10), -0.3566811766565602, 1e-9);
    NEAR(match_sprt_llr(&a10, 0, 10), 5.632868661827217, 1e-8);
    NEAR(match_sprt_llr(&won, 0, 10), 94.65299681088887, 1e-6);
    NEAR(match_sprt_llr(&lost, 0, 10), -97.41913791632734, 1e-6);
    NEAR(match_sprt_llr(&a, 0, 50), 2.4288487489490147, 1e-9);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_match_stats__elo_of_score),
        cmocka_unit_test(test_match_stats__symmetric_pairs),
        cmocka_unit_test(test_match_stats__lopsided_pairs),
        cmocka_unit_test(test_match_stats__few_pairs),
        cmocka_unit_test(test_match_stats__sprt_bounds),
        cmocka_unit_test(test_match_stats__sprt_llr),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
