/* SPDX-License-Identifier: MIT
 * tests/unit/test_session_timing.c: a time-managed dm_session_go under a tiny real
 * clock answers in time: the move is played before the flag falls, move after move.
 * Its verdict depends on wall-clock time (label `timing`: optimised build only). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include <damier/session.h>

static void test_session_timing__tiny_clock_answers_in_time(void **state)
{
    (void)state;
    dm_session_options o = DM_SESSION_OPTIONS_INIT;
    o.engine.tt_mib = 4;
    dm_session *s;
    dm_error err;
    assert_int_equal(dm_session_create(&s, &o, &err), DM_OK);
    /* small clocks, with room for the scheduling delays of a loaded machine */
    const char *controls[] = {"5", "2+0.2", "10/1.5"};
    for (int k = 0; k < 3; k++) {
        dm_time_control tc;
        assert_int_equal(dm_time_control_parse(&tc, controls[k], &err), DM_OK);
        dm_session_setup g = DM_SESSION_SETUP_INIT;
        g.white_tc = &tc;
        assert_int_equal(dm_session_new_game(s, &g, &err), DM_OK);
        /* the engine plays both sides for 20 moves on the clock */
        for (int ply = 0; ply < 40 && dm_session_result(s, NULL) == DM_OUTCOME_ONGOING; ply++) {
            assert_int_equal(dm_session_go(s, NULL, &err), DM_OK);
            dm_result r;
            assert_int_equal(dm_session_wait(s, &r), DM_OK);
            assert_true(r.has_move);
            if (dm_session_play(s, &r.best, &err) != DM_OK) {
                fail_msg("%s, ply %d: %s", controls[k], ply, err.message);
            }
        }
        dm_reason why;
        dm_session_result(s, &why);
        if (why == DM_REASON_TIME) {
            fail_msg("%s: lost on time", controls[k]);
        }
        dm_color c;
        assert_false(dm_clock_flagged(dm_session_clock(s), &c));
    }
    dm_session_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_session_timing__tiny_clock_answers_in_time),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
