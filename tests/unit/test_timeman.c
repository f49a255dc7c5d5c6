/* SPDX-License-Identifier: MIT
 * tests/unit/test_timeman.c: the time budget per move for every clock mode: the
 * hard deadline always leaves a margin on the clock (never lose on time), the soft
 * budget spreads the clock over the moves to come, instability stretches it. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "engine/timeman.h"

static tm_budget plan(double time, double inc, int mtg, double move_time)
{
    dm_limits l;
    memset(&l, 0, sizeof l);
    l.time = time;
    l.inc = inc;
    l.moves_to_go = mtg;
    l.move_time = move_time;
    tm_budget b;
    tm_plan(&b, &l);
    return b;
}

static void test_timeman__no_clock_is_untimed(void **state)
{
    (void)state;
    tm_budget b = plan(0, 0, 0, 0);
    assert_false(b.timed);
    assert_false(tm_should_stop(&b, 1e6, 0));
    dm_limits l;
    memset(&l, 0, sizeof l);
    l.infinite = 1;
    l.time = 10;
    tm_plan(&b, &l);
    assert_false(b.timed);
}

static void test_timeman__sudden_death_spreads_the_clock(void **state)
{
    (void)state;
    tm_budget b = plan(60, 0, 0, 0);
    assert_true(b.timed);
    assert_true(b.soft > 1.0 && b.soft < 3.0); /* about 1/30 of the clock */
    assert_true(b.hard >= b.soft && b.hard < 30.0);
    /* Nearly flagged: answers inside what is left, with a margin. */
    for (double t = 0.001; t < 5; t *= 1.7) {
        b = plan(t, 0, 0, 0);
        assert_true(b.hard < t * 0.6);
        assert_true(b.soft <= b.hard);
    }
}

static void test_timeman__moves_in_time_and_fischer(void **state)
{
    (void)state;
    /* Last move before the control: may use most, never all, of the clock. */
    tm_budget b = plan(10, 0, 1, 0);
    assert_true(b.hard < 10 - 0.1 && b.hard > 5);
    b = plan(100, 0, 40, 0);
    assert_true(b.soft > 2.0 && b.soft < 3.0);
    /* Fischer: the increment counts for the moves to come, not beyond the clock. */
    b = plan(0.2, 1.0, 0, 0);
    assert_true(b.hard < 0.2);
    b = plan(30, 1.0, 0, 0);
    assert_true(b.soft > plan(30, 0, 0, 0).soft);
}

static void test_timeman__move_time_and_instability(void **state)
{
    (void)state;
    tm_budget b = plan(0, 0, 0, 2.0);
    assert_true(b.hard <= 2.0 && b.hard > 1.9);
    /* Move time and a clock: the tighter wins. */
    b = plan(1.0, 0, 0, 5.0);
    assert_true(b.hard < 1.0);
    b = plan(60, 0, 0, 0);
    double at = b.soft * 0.6; /* past half the budget: stop when stable ... */
    assert_true(tm_should_stop(&b, at, 0));
    assert_false(tm_should_stop(&b, at, 1.0)); /* ... but go on when the PV changes */
}

/* A fixed time a move and no clock: nothing is saved by stopping early, so every
 * iteration is started until the hard deadline stops one (whose better root move the
 * search keeps); with a clock too, the clock's budget stops early as before. */
static void test_timeman__fixed_move_time_uses_it_all(void **state)
{
    (void)state;
    tm_budget b = plan(0, 0, 0, 0.2);
    assert_true(b.timed);
    assert_false(tm_should_stop(&b, 0.15, 0));
    assert_false(tm_should_stop(&b, b.hard * 0.99, 0));
    /* ... nearly all of it: at most 5 ms or 3 % kept back, never more than given */
    assert_true(b.hard < 0.2 && b.hard >= 0.195);
    b = plan(0, 0, 0, 0.05);
    assert_true(b.hard < 0.05 && b.hard >= 0.0485);
    b = plan(60, 0, 0, 0.2);
    assert_true(tm_should_stop(&b, b.hard * 0.99, 0));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_timeman__no_clock_is_untimed),
        cmocka_unit_test(test_timeman__sudden_death_spreads_the_clock),
        cmocka_unit_test(test_timeman__moves_in_time_and_fischer),
        cmocka_unit_test(test_timeman__move_time_and_instability),
        cmocka_unit_test(test_timeman__fixed_move_time_uses_it_all),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
