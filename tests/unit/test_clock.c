/* SPDX-License-Identifier: MIT
 * Tests of damier/clock.h: TimeControl strings (parse, errors, format, round trip) and
 * the two-sided clock against a fake time source that the test advances by hand
 * (never sleeps). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include <damier/clock.h>

#define SEC 1000LL
#define MIN (60 * SEC)

/* ---- fake time ---------------------------------------------------------------- */

typedef struct fake_time {
    int64_t ms;
    int calls;
} fake_time;

static int64_t fake_now(void *payload)
{
    fake_time *t = payload;
    t->calls++;
    return t->ms;
}

static dm_clock *clock_for(const char *tc_text, fake_time *t)
{
    dm_time_control tc;
    dm_error err = {0};
    if (dm_time_control_parse(&tc, tc_text, &err) != DM_OK) {
        fail_msg("bad test time control %s: %s", tc_text, err.message);
    }
    dm_clock *c = NULL;
    assert_int_equal(dm_clock_new(&c, &tc, NULL, fake_now, t, &err), DM_OK);
    return c;
}

/* Advance the fake time by ms, then press. */
static void move_after(dm_clock *c, fake_time *t, int64_t ms)
{
    t->ms += ms;
    assert_int_equal(dm_clock_press(c), DM_OK);
}

/* ---- time control strings ----------------------------------------------------- */

static void test_clock__parse_kinds(void **state)
{
    (void)state;
    dm_time_control tc;
    dm_error err = {0};

    assert_int_equal(dm_time_control_parse(&tc, "5400", &err), DM_OK);
    assert_int_equal(tc.kind, DM_TC_PERIODS);
    assert_int_equal(tc.count, 1);
    assert_int_equal(tc.periods[0].moves, 0);
    assert_int_equal(tc.periods[0].time_ms, 5400 * SEC);
    assert_int_equal(tc.periods[0].increment_ms, 0);

    assert_int_equal(dm_time_control_parse(&tc, "4800+60", &err), DM_OK);
    assert_int_equal(tc.count, 1);
    assert_int_equal(tc.periods[0].time_ms, 80 * MIN);
    assert_int_equal(tc.periods[0].increment_ms, 60 * SEC);

    assert_int_equal(dm_time_control_parse(&tc, "40/7200:3600", &err), DM_OK);
    assert_int_equal(tc.count, 2);
    assert_int_equal(tc.periods[0].moves, 40);
    assert_int_equal(tc.periods[0].time_ms, 7200 * SEC);
    assert_int_equal(tc.periods[1].moves, 0);
    assert_int_equal(tc.periods[1].time_ms, 3600 * SEC);

    assert_int_equal(dm_time_control_parse(&tc, "40/7200:20/2400:600+5", &err), DM_OK);
    assert_int_equal(tc.count, 3);
    assert_int_equal(tc.periods[1].moves, 20);
    assert_int_equal(tc.periods[1].time_ms, 2400 * SEC);
    assert_int_equal(tc.periods[2].time_ms, 600 * SEC);
    assert_int_equal(tc.periods[2].increment_ms, 5 * SEC);

    assert_int_equal(dm_time_control_parse(&tc, " 40/5400+30:1800+30 ", &err), DM_OK);
    assert_int_equal(tc.periods[0].increment_ms, 30 * SEC);
    assert_int_equal(tc.periods[1].increment_ms, 30 * SEC);

    assert_int_equal(dm_time_control_parse(&tc, "?", &err), DM_OK);
    assert_int_equal(tc.kind, DM_TC_UNKNOWN);
    assert_int_equal(dm_time_control_parse(&tc, "-", &err), DM_OK);
    assert_int_equal(tc.kind, DM_TC_NONE);
    assert_int_equal(dm_time_control_parse(&tc, "*180", &err), DM_OK);
    assert_int_equal(tc.kind, DM_TC_SANDCLOCK);
    assert_int_equal(tc.periods[0].time_ms, 180 * SEC);

    assert_int_equal(dm_time_control_parse(&tc, "60+0.5", &err), DM_OK);
    assert_int_equal(tc.periods[0].increment_ms, 500);
    assert_int_equal(dm_time_control_parse(&tc, "0.25", &err), DM_OK);
    assert_int_equal(tc.periods[0].time_ms, 250);
}

static void expect_parse_error(const char *text, int column, const char *needle)
{
    dm_time_control tc;
    memset(&tc, 0x5a, sizeof tc);
    dm_time_control before = tc;
    dm_error err = {0};
    dm_status st = dm_time_control_parse(&tc, text, &err);
    if (st != DM_EPARSE) {
        fail_msg("\"%s\": status %d, want a parse error", text, st);
    }
    if (err.column != column) {
        fail_msg("\"%s\": column %d, want %d (%s)", text, err.column, column, err.message);
    }
    if (!strstr(err.message, needle)) {
        fail_msg("\"%s\": message \"%s\" lacks \"%s\"", text, err.message, needle);
    }
    assert_memory_equal(&tc, &before, sizeof tc); /* untouched on error */
}

static void test_clock__parse_errors_say_what_and_where(void **state)
{
    (void)state;
    expect_parse_error("", 1, "empty");
    expect_parse_error("   ", 4, "empty");
    expect_parse_error("abc", 1, "expected a time");
    expect_parse_error("40/", 4, "expected a time");
    expect_parse_error("40/7200:", 9, "expected a time");
    expect_parse_error("0/7200", 1, "number of moves must be positive");
    expect_parse_error("40/7200:3600:60", 9, "only the last period");
    expect_parse_error("7200+", 6, "expected an increment");
    expect_parse_error("7200x", 5, "expected ':' or the end");
    expect_parse_error("7200+5+5", 7, "expected ':' or the end");
    expect_parse_error("1.2345", 6, "at most 3 decimals");
    expect_parse_error("1.", 3, "digits after the decimal point");
    expect_parse_error("0", 1, "positive time");
    expect_parse_error("?:60", 2, "stand alone");
    expect_parse_error("-5", 2, "expected the end");
    expect_parse_error("*", 2, "sand clock time");
    expect_parse_error("*0", 2, "sand clock time must be positive");
    expect_parse_error("40/99999999999", 4, "time too large");
    expect_parse_error("1000000000.1", 1, "time too large"); /* limit plus a fraction */
    expect_parse_error("40/7200:1000000000.001", 9, "time too large");
    expect_parse_error("1/1:1/1:1/1:1/1:1/1:1/1:1/1:1/1:60", 33, "too many periods");

    dm_error err = {0};
    dm_time_control tc;
    assert_int_equal(dm_time_control_parse(&tc, NULL, &err), DM_EINVAL);
    assert_int_equal(dm_time_control_parse(&tc, "40/", NULL), DM_EPARSE);
}

static void test_clock__format_round_trip(void **state)
{
    (void)state;
    static const char *const texts[] = {
        "5400",
        "4800+60",
        "40/7200:3600",
        "40/7200:20/2400:600+5",
        "?",
        "-",
        "*180",
        "60+0.5",
        "40/5400+30:1800+30",
        "0.25",
        "50/5400:1800",
        "40/7200",
        "1/1:1/1:1/1:1/1:1/1:1/1:1/1:60",
    };
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        dm_time_control tc, back;
        char buf[256];
        assert_int_equal(dm_time_control_parse(&tc, texts[i], NULL), DM_OK);
        size_t n = dm_time_control_format(buf, sizeof buf, &tc);
        assert_int_equal(n, strlen(buf));
        if (strcmp(buf, texts[i]) != 0) {
            fail_msg("format(parse(\"%s\")) = \"%s\"", texts[i], buf);
        }
        assert_int_equal(dm_time_control_parse(&back, buf, NULL), DM_OK);
        assert_int_equal(back.kind, tc.kind);
        assert_int_equal(back.count, tc.count);
        for (int k = 0; k < tc.count; k++) {
            assert_int_equal(back.periods[k].moves, tc.periods[k].moves);
            assert_int_equal(back.periods[k].time_ms, tc.periods[k].time_ms);
            assert_int_equal(back.periods[k].increment_ms, tc.periods[k].increment_ms);
        }
        assert_int_equal(dm_time_control_validate(&tc, NULL), DM_OK);
    }
    /* snprintf-style truncation */
    dm_time_control tc;
    char small[6];
    dm_time_control_parse(&tc, "40/7200:3600", NULL);
    assert_int_equal(dm_time_control_format(small, sizeof small, &tc), 12);
    assert_string_equal(small, "40/72");
}

static void test_clock__validate_hand_built(void **state)
{
    (void)state;
    dm_time_control tc;
    memset(&tc, 0, sizeof tc);
    dm_error err = {0};
    tc.kind = DM_TC_PERIODS;
    assert_int_equal(dm_time_control_validate(&tc, &err), DM_EINVAL); /* 0 periods */
    tc.count = 2;
    tc.periods[0].time_ms = 60 * SEC; /* no move count, yet not last */
    tc.periods[1].time_ms = 60 * SEC;
    assert_int_equal(dm_time_control_validate(&tc, &err), DM_EINVAL);
    assert_non_null(strstr(err.message, "period 1"));
    tc.periods[0].moves = 40;
    assert_int_equal(dm_time_control_validate(&tc, &err), DM_OK);
    tc.periods[1].increment_ms = -1;
    assert_int_equal(dm_time_control_validate(&tc, &err), DM_EINVAL);
    tc.kind = (dm_tc_kind)9;
    assert_int_equal(dm_time_control_validate(&tc, &err), DM_EINVAL);

    /* the clock refuses what it cannot run */
    fake_time t = {0, 0};
    dm_clock *c = NULL;
    assert_int_equal(dm_clock_new(&c, &tc, NULL, fake_now, &t, &err), DM_EINVAL);
    assert_null(c);
    dm_time_control_parse(&tc, "?", NULL);
    assert_int_equal(dm_clock_new(&c, &tc, NULL, fake_now, &t, &err), DM_EINVAL);
    assert_non_null(strstr(err.message, "unknown"));
    dm_time_control sand, plain;
    dm_time_control_parse(&sand, "*180", NULL);
    dm_time_control_parse(&plain, "180", NULL);
    assert_int_equal(dm_clock_new(&c, &sand, &plain, fake_now, &t, &err), DM_EINVAL);
    assert_non_null(strstr(err.message, "sand"));
    assert_null(c);
}

/* ---- the clock ---------------------------------------------------------------- */

static void test_clock__sudden_death(void **state)
{
    (void)state;
    fake_time t = {1000000, 0};
    dm_clock *c = clock_for("300", &t);
    assert_int_equal(dm_clock_remaining(c, DM_WHITE), 300 * SEC);
    assert_int_equal(dm_clock_running(c, NULL), 0);
    t.ms += 50 * SEC; /* not started: nothing runs */
    assert_int_equal(dm_clock_remaining(c, DM_WHITE), 300 * SEC);
    assert_int_equal(dm_clock_press(c), DM_ESTATE);

    assert_int_equal(dm_clock_start(c, DM_WHITE), DM_OK);
    assert_int_equal(dm_clock_start(c, DM_BLACK), DM_ESTATE); /* never both */
    t.ms += 12345;
    assert_int_equal(dm_clock_remaining(c, DM_WHITE), 300 * SEC - 12345);
    assert_int_equal(dm_clock_remaining(c, DM_BLACK), 300 * SEC);
    assert_int_equal(dm_clock_press(c), DM_OK);
    dm_color who;
    assert_int_equal(dm_clock_running(c, &who), 1);
    assert_int_equal(who, DM_BLACK);
    t.ms += 1001;
    assert_int_equal(dm_clock_remaining(c, DM_WHITE), 300 * SEC - 12345); /* stopped */
    assert_int_equal(dm_clock_remaining(c, DM_BLACK), 300 * SEC - 1001);
    move_after(c, &t, 0);
    dm_clock_side info;
    dm_clock_side_info(&info, c, DM_BLACK);
    assert_int_equal(info.moves, 1);
    assert_int_equal(info.used_ms, 1001);
    assert_int_equal(info.moves_to_go, 0);
    assert_int_equal(info.increment_ms, 0);
    assert_int_equal(info.running, 0);
    dm_clock_side_info(&info, c, DM_WHITE);
    assert_int_equal(info.running, 1);
    assert_int_equal(info.used_ms, 12345);
    dm_clock_free(c);
}

static void test_clock__flag_falls_without_a_move(void **state)
{
    (void)state;
    fake_time t = {0, 0};
    dm_clock *c = clock_for("60", &t);
    assert_int_equal(dm_clock_start(c, DM_WHITE), DM_OK);
    move_after(c, &t, 10 * SEC); /* White used 10 s; Black runs now */
    dm_color who = DM_WHITE;
    t.ms += 60 * SEC - 1;
    assert_int_equal(dm_clock_flagged(c, &who), 0);
    assert_int_equal(dm_clock_remaining(c, DM_BLACK), 1);
    t.ms += 1; /* Black's 60 s are gone: flag, though nobody pressed */
    assert_int_equal(dm_clock_flagged(c, &who), 1);
    assert_int_equal(who, DM_BLACK);
    assert_int_equal(dm_clock_remaining(c, DM_BLACK), 0);
    assert_int_equal(dm_clock_remaining(c, DM_WHITE), 50 * SEC);
    assert_int_equal(dm_clock_running(c, NULL), 0);
    /* later polls and a late press change nothing */
    t.ms += 30 * SEC;
    assert_int_equal(dm_clock_press(c), DM_ESTATE);
    assert_int_equal(dm_clock_flagged(c, &who), 1);
    assert_int_equal(who, DM_BLACK);
    dm_clock_side info;
    dm_clock_side_info(&info, c, DM_BLACK);
    assert_int_equal(info.flagged, 1);
    assert_int_equal(info.used_ms, 60 * SEC); /* counted up to the fall only */
    dm_clock_side_info(&info, c, DM_WHITE);
    assert_int_equal(info.flagged, 0);
    assert_int_equal(dm_clock_start(c, DM_WHITE), DM_ESTATE);
    assert_int_equal(dm_clock_pause(c), DM_ESTATE);
    dm_clock_free(c);

    /* the poll long after the fall still names the side that ran out first: White here,
     * with Black's clock never running */
    t.ms = 0;
    c = clock_for("60", &t);
    assert_int_equal(dm_clock_start(c, DM_WHITE), DM_OK);
    t.ms += 10 * 60 * SEC;
    assert_int_equal(dm_clock_flagged(c, &who), 1);
    assert_int_equal(who, DM_WHITE);
    assert_int_equal(dm_clock_remaining(c, DM_BLACK), 60 * SEC);
    dm_clock_free(c);
}

static void test_clock__press_after_flag_fell_is_refused(void **state)
{
    (void)state;
    fake_time t = {0, 0};
    dm_clock *c = clock_for("4800+60", &t);
    assert_int_equal(dm_clock_start(c, DM_WHITE), DM_OK);
    t.ms += 80 * MIN; /* exactly all the time: flag */
    assert_int_equal(dm_clock_press(c), DM_ESTATE);
    dm_color who;
    assert_int_equal(dm_clock_flagged(c, &who), 1);
    assert_int_equal(who, DM_WHITE);
    dm_clock_side info;
    dm_clock_side_info(&info, c, DM_WHITE);
    assert_int_equal(info.moves, 0);
    assert_int_equal(info.remaining_ms, 0);
    dm_clock_free(c);
}

static void test_clock__fischer_increment_after_each_move(void **state)
{
    (void)state;
    /* 80 min + 1 min per move (FMJD Fischer): added after the move, move 1 included,
     * never before the first move */
    fake_time t = {0, 0};
    dm_clock *c = clock_for("4800+60", &t);
    assert_int_equal(dm_clock_remaining(c, DM_WHITE), 80 * MIN);
    assert_int_equal(dm_clock_start(c, DM_WHITE), DM_OK);
    t.ms += 20 * SEC;
    assert_int_equal(dm_clock_remaining(c, DM_WHITE), 80 * MIN - 20 * SEC); /* no bonus yet */
    assert_int_equal(dm_clock_press(c), DM_OK);
    assert_int_equal(dm_clock_remaining(c, DM_WHITE), 80 * MIN + 40 * SEC);
    assert_int_equal(dm_clock_remaining(c, DM_BLACK), 80 * MIN); /* Black not moved yet */
    move_after(c, &t, 90 * SEC);
    assert_int_equal(dm_clock_remaining(c, DM_BLACK), 80 * MIN - 30 * SEC);
    dm_clock_side info;
    dm_clock_side_info(&info, c, DM_BLACK);
    assert_int_equal(info.increment_ms, 60 * SEC);
    /* a move can gain time: 10 s used, 60 s added */
    move_after(c, &t, 10 * SEC);
    assert_int_equal(dm_clock_remaining(c, DM_WHITE), 80 * MIN + 90 * SEC);
    dm_clock_free(c);
}

static void test_clock__cumulative_periods(void **state)
{
    (void)state;
    /* 50 moves in 90 min, then 30 min for the rest: unused time carries over */
    fake_time t = {0, 0};
    dm_clock *c = clock_for("50/5400:1800", &t);
    assert_int_equal(dm_clock_start(c, DM_WHITE), DM_OK);
    dm_clock_side info;
    for (int i = 1; i <= 49; i++) {
        move_after(c, &t, 60 * SEC); /* White */
        move_after(c, &t, 30 * SEC); /* Black */
    }
    dm_clock_side_info(&info, c, DM_WHITE);
    assert_int_equal(info.moves, 49);
    assert_int_equal(info.moves_to_go, 1);
    assert_int_equal(info.period, 0);
    assert_int_equal(info.remaining_ms, 90 * MIN - 49 * MIN);
    move_after(c, &t, 60 * SEC); /* White's 50th move: the next period's time arrives */
    dm_clock_side_info(&info, c, DM_WHITE);
    assert_int_equal(info.period, 1);
    assert_int_equal(info.moves_to_go, 0);
    assert_int_equal(info.remaining_ms, 40 * MIN + 30 * MIN);
    dm_clock_side_info(&info, c, DM_BLACK);
    assert_int_equal(info.period, 0);
    assert_int_equal(info.remaining_ms, 90 * MIN - 49 * 30 * SEC);
    move_after(c, &t, 30 * SEC); /* Black's 50th */
    assert_int_equal(dm_clock_remaining(c, DM_BLACK), 90 * MIN - 50 * 30 * SEC + 30 * MIN);
    /* in the last (sudden death) period no more time arrives */
    for (int i = 0; i < 20; i++) {
        move_after(c, &t, 1 * SEC);
        move_after(c, &t, 1 * SEC);
    }
    assert_int_equal(dm_clock_remaining(c, DM_WHITE), 70 * MIN - 20 * SEC);
    dm_clock_free(c);
}

static void test_clock__flag_at_the_control_move(void **state)
{
    (void)state;
    /* 2 moves in 10 s then 60 s: a player who needs more than the period's time for the
     * moves before the control loses, even though more time would come after it */
    fake_time t = {0, 0};
    dm_clock *c = clock_for("2/10:60", &t);
    assert_int_equal(dm_clock_start(c, DM_WHITE), DM_OK);
    move_after(c, &t, 4 * SEC);
    move_after(c, &t, 1 * SEC);
    t.ms += 6 * SEC; /* White's 2nd move would come at 10 s used: too late */
    assert_int_equal(dm_clock_press(c), DM_ESTATE);
    dm_color who;
    assert_int_equal(dm_clock_flagged(c, &who), 1);
    assert_int_equal(who, DM_WHITE);
    dm_clock_free(c);
}

static void test_clock__combination_and_repeating_period(void **state)
{
    (void)state;
    /* 2/100:1/50:30+5: periods then sudden death with increment; times in seconds */
    fake_time t = {0, 0};
    dm_clock *c = clock_for("2/100:1/50:30+5", &t);
    assert_int_equal(dm_clock_start(c, DM_WHITE), DM_OK);
    dm_clock_side info;
    move_after(c, &t, 10 * SEC); /* W1 */
    move_after(c, &t, 0);
    move_after(c, &t, 10 * SEC); /* W2: completes period 1: +50 */
    move_after(c, &t, 0);
    dm_clock_side_info(&info, c, DM_WHITE);
    assert_int_equal(info.period, 1);
    assert_int_equal(info.moves_to_go, 1);
    assert_int_equal(info.remaining_ms, 80 * SEC + 50 * SEC);
    move_after(c, &t, 10 * SEC); /* W3: completes period 2: +30, no increment yet */
    move_after(c, &t, 0);
    dm_clock_side_info(&info, c, DM_WHITE);
    assert_int_equal(info.period, 2);
    assert_int_equal(info.increment_ms, 5 * SEC);
    assert_int_equal(info.remaining_ms, 120 * SEC + 30 * SEC);
    move_after(c, &t, 10 * SEC); /* W4: in the increment period: +5 after it */
    assert_int_equal(dm_clock_remaining(c, DM_WHITE), 145 * SEC);
    dm_clock_free(c);

    /* a last period with a move count repeats: 2 moves in 10 s, again and again */
    t.ms = 0;
    c = clock_for("2/10", &t);
    assert_int_equal(dm_clock_start(c, DM_WHITE), DM_OK);
    for (int i = 0; i < 3; i++) {
        move_after(c, &t, 2 * SEC);
        move_after(c, &t, 0);
        move_after(c, &t, 2 * SEC);
        move_after(c, &t, 0);
    }
    dm_clock_side_info(&info, c, DM_WHITE);
    assert_int_equal(info.remaining_ms, 10 * SEC - 12 * SEC + 30 * SEC);
    assert_int_equal(info.moves_to_go, 2);
    dm_clock_free(c);
}

static void test_clock__pause_resume(void **state)
{
    (void)state;
    fake_time t = {0, 0};
    dm_clock *c = clock_for("600", &t);
    assert_int_equal(dm_clock_pause(c), DM_ESTATE);
    assert_int_equal(dm_clock_resume(c), DM_ESTATE);
    assert_int_equal(dm_clock_start(c, DM_WHITE), DM_OK);
    move_after(c, &t, 5 * SEC);
    t.ms += 7 * SEC;
    assert_int_equal(dm_clock_pause(c), DM_OK);
    assert_true(dm_clock_paused(c));
    assert_int_equal(dm_clock_running(c, NULL), 0);
    assert_int_equal(dm_clock_press(c), DM_ESTATE);
    assert_int_equal(dm_clock_start(c, DM_WHITE), DM_ESTATE);
    t.ms += 3600 * SEC; /* a long adjournment costs nothing */
    assert_int_equal(dm_clock_flagged(c, NULL), 0);
    assert_int_equal(dm_clock_remaining(c, DM_BLACK), 593 * SEC);
    assert_int_equal(dm_clock_resume(c), DM_OK);
    dm_color who;
    assert_int_equal(dm_clock_running(c, &who), 1);
    assert_int_equal(who, DM_BLACK); /* the side that was running */
    t.ms += 3 * SEC;
    assert_int_equal(dm_clock_remaining(c, DM_BLACK), 590 * SEC);
    assert_int_equal(dm_clock_remaining(c, DM_WHITE), 595 * SEC);

    /* stop: frozen for good */
    dm_clock_stop(c);
    t.ms += 1000 * SEC;
    assert_int_equal(dm_clock_remaining(c, DM_BLACK), 590 * SEC);
    assert_int_equal(dm_clock_press(c), DM_ESTATE);
    assert_int_equal(dm_clock_resume(c), DM_ESTATE);
    assert_int_equal(dm_clock_start(c, DM_WHITE), DM_ESTATE);
    dm_clock_free(c);
}

static void test_clock__no_time_control_counts_only(void **state)
{
    (void)state;
    fake_time t = {0, 0};
    dm_clock *c = clock_for("-", &t);
    assert_int_equal(dm_clock_start(c, DM_WHITE), DM_OK);
    t.ms += 1000000 * SEC;
    assert_int_equal(dm_clock_flagged(c, NULL), 0);
    assert_true(dm_clock_remaining(c, DM_WHITE) == INT64_MAX);
    assert_int_equal(dm_clock_press(c), DM_OK);
    dm_clock_side info;
    dm_clock_side_info(&info, c, DM_WHITE);
    assert_int_equal(info.used_ms, 1000000 * SEC);
    assert_int_equal(dm_clock_set_remaining(c, DM_WHITE, 5), DM_EINVAL);
    dm_clock_free(c);
}

static void test_clock__sand_clock(void **state)
{
    (void)state;
    fake_time t = {0, 0};
    dm_clock *c = clock_for("*60", &t);
    assert_int_equal(dm_clock_start(c, DM_BLACK), DM_OK);
    t.ms += 20 * SEC;
    assert_int_equal(dm_clock_remaining(c, DM_BLACK), 40 * SEC);
    assert_int_equal(dm_clock_remaining(c, DM_WHITE), 20 * SEC); /* the sand fell to White */
    assert_int_equal(dm_clock_press(c), DM_OK);
    t.ms += 5 * SEC;
    assert_int_equal(dm_clock_remaining(c, DM_WHITE), 15 * SEC);
    assert_int_equal(dm_clock_remaining(c, DM_BLACK), 45 * SEC);
    t.ms += 15 * SEC;
    dm_color who;
    assert_int_equal(dm_clock_flagged(c, &who), 1);
    assert_int_equal(who, DM_WHITE);
    assert_int_equal(dm_clock_remaining(c, DM_BLACK), 60 * SEC);
    dm_clock_free(c);
}

static void test_clock__separate_controls_and_arbiter(void **state)
{
    (void)state;
    /* TimeControlWhite / TimeControlBlack: e.g. 6 min against 5 min */
    fake_time t = {0, 0};
    dm_time_control w, b;
    dm_time_control_parse(&w, "360", NULL);
    dm_time_control_parse(&b, "300+2", NULL);
    dm_clock *c = NULL;
    assert_int_equal(dm_clock_new(&c, &w, &b, fake_now, &t, NULL), DM_OK);
    assert_int_equal(dm_clock_remaining(c, DM_WHITE), 360 * SEC);
    assert_int_equal(dm_clock_remaining(c, DM_BLACK), 300 * SEC);
    assert_int_equal(dm_clock_start(c, DM_WHITE), DM_OK);
    move_after(c, &t, 1 * SEC);
    move_after(c, &t, 1 * SEC);
    assert_int_equal(dm_clock_remaining(c, DM_WHITE), 359 * SEC);
    assert_int_equal(dm_clock_remaining(c, DM_BLACK), 301 * SEC);

    /* arbiter: set a time, clear a flag and restart */
    t.ms += 359 * SEC;
    dm_color who;
    assert_int_equal(dm_clock_flagged(c, &who), 1);
    assert_int_equal(who, DM_WHITE);
    assert_int_equal(dm_clock_set_remaining(c, DM_WHITE, 30 * SEC), DM_OK);
    assert_int_equal(dm_clock_flagged(c, NULL), 0);
    assert_int_equal(dm_clock_start(c, DM_WHITE), DM_OK);
    t.ms += 10 * SEC;
    assert_int_equal(dm_clock_remaining(c, DM_WHITE), 20 * SEC);
    assert_int_equal(dm_clock_set_remaining(c, DM_WHITE, -1), DM_EINVAL);
    dm_clock_free(c);
}

static void test_clock__monotonic_default_and_format(void **state)
{
    (void)state;
    dm_time_control tc;
    dm_time_control_parse(&tc, "60", NULL);
    dm_clock *c = NULL;
    assert_int_equal(dm_clock_new(&c, &tc, NULL, NULL, NULL, NULL), DM_OK);
    assert_int_equal(dm_clock_start(c, DM_WHITE), DM_OK);
    int64_t r = dm_clock_remaining(c, DM_WHITE);
    assert_true(r <= 60 * SEC && r > 50 * SEC);
    int64_t a = dm_clock_monotonic_ms(NULL), b = dm_clock_monotonic_ms(NULL);
    assert_true(b >= a);
    dm_clock_free(c);
    dm_clock_free(NULL);

    char buf[32];
    dm_clock_format_ms(buf, sizeof buf, 90 * MIN + 5 * SEC, 0);
    assert_string_equal(buf, "1:30:05");
    dm_clock_format_ms(buf, sizeof buf, 9 * MIN + 7 * SEC + 999, 1);
    assert_string_equal(buf, "9:07");
    dm_clock_format_ms(buf, sizeof buf, 9 * SEC + 450, 1);
    assert_string_equal(buf, "0:09.4");
    dm_clock_format_ms(buf, sizeof buf, 9 * SEC + 450, 0);
    assert_string_equal(buf, "0:09");
    dm_clock_format_ms(buf, sizeof buf, -5, 0);
    assert_string_equal(buf, "0:00");
    assert_int_equal(dm_clock_format_ms(buf, 3, 90 * MIN, 0), 7);
    assert_string_equal(buf, "1:");
}

/* ---- time to the next control (FMJD 9) ------------------------------------------ */

static dm_tc_position at(const char *tc_text, int moves)
{
    dm_time_control tc;
    dm_error err = {0};
    if (dm_time_control_parse(&tc, tc_text, &err) != DM_OK) {
        fail_msg("bad test time control %s: %s", tc_text, err.message);
    }
    dm_tc_position pos;
    assert_int_equal(dm_time_control_at(&pos, &tc, moves), DM_OK);
    return pos;
}

/* A 40-move control then sudden death: 1 due after 39 moves, none after 40 and 41. */
static void test_clock__control_boundaries_then_sudden_death(void **state)
{
    (void)state;
    dm_tc_position p = at("40/7200:3600", 0);
    assert_int_equal(p.period, 0);
    assert_int_equal(p.moves_due, 40);
    assert_int_equal(p.control_move, 40);
    assert_int_equal(p.next_time_ms, 3600 * SEC);
    p = at("40/7200:3600", 39);
    assert_int_equal(p.period, 0);
    assert_int_equal(p.moves_due, 1);
    assert_int_equal(p.control_move, 40);
    p = at("40/7200:3600", 40);
    assert_int_equal(p.period, 1);
    assert_int_equal(p.moves_due, 0);
    assert_int_equal(p.control_move, 0);
    assert_int_equal(p.next_time_ms, 0);
    p = at("40/7200:3600", 41);
    assert_int_equal(p.period, 1);
    assert_int_equal(p.moves_due, 0);
}

/* A repeating 40-move control: the next control is at move 80 once 40 are made. */
static void test_clock__control_boundaries_repeating(void **state)
{
    (void)state;
    static const struct {
        int moves, due, control;
    } t[] = {{39, 1, 40}, {40, 40, 80}, {41, 39, 80}, {79, 1, 80}, {80, 40, 120}};
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        dm_tc_position p = at("40/7200", t[i].moves);
        assert_int_equal(p.period, 0);
        assert_int_equal(p.moves_due, t[i].due);
        assert_int_equal(p.control_move, t[i].control);
        assert_int_equal(p.next_time_ms, 7200 * SEC);
    }
    /* 40 moves, then 20, then the rest */
    dm_tc_position p = at("40/7200:20/3600:1800+30", 40);
    assert_int_equal(p.period, 1);
    assert_int_equal(p.moves_due, 20);
    assert_int_equal(p.control_move, 60);
    assert_int_equal(p.next_time_ms, 1800 * SEC);
    p = at("40/7200:20/3600:1800+30", 60);
    assert_int_equal(p.period, 2);
    assert_int_equal(p.moves_due, 0);
    /* no controls at all */
    assert_int_equal(at("5400", 10).moves_due, 0);
    assert_int_equal(at("-", 10).moves_due, 0);
    assert_int_equal(at("*60", 10).moves_due, 0);
    dm_time_control tc;
    assert_int_equal(dm_time_control_parse(&tc, "40/7200", NULL), DM_OK);
    dm_tc_position q;
    assert_int_equal(dm_time_control_at(&q, &tc, -1), DM_EINVAL);
    assert_int_equal(dm_time_control_at(NULL, &tc, 0), DM_EINVAL);
    assert_int_equal(dm_time_control_at(&q, NULL, 0), DM_EINVAL);
}

/* The running clock agrees with dm_time_control_at at every move, and its time left
 * at the control is what remains for the moves due (the next period's time is added
 * only when the 40th move is pressed). */
static void test_clock__clock_agrees_with_time_control_at(void **state)
{
    (void)state;
    const char *tcs[] = {"40/7200:3600", "40/7200", "40/5400+30:20/1800+30:900+30"};
    for (size_t k = 0; k < sizeof tcs / sizeof tcs[0]; k++) {
        fake_time t = {0, 0};
        dm_clock *c = clock_for(tcs[k], &t);
        dm_time_control tc;
        assert_int_equal(dm_time_control_parse(&tc, tcs[k], NULL), DM_OK);
        assert_int_equal(dm_clock_start(c, DM_WHITE), DM_OK);
        for (int m = 0; m < 130; m++) {
            dm_clock_side info;
            dm_clock_side_info(&info, c, DM_WHITE);
            dm_tc_position p;
            assert_int_equal(dm_time_control_at(&p, &tc, info.moves), DM_OK);
            assert_int_equal(info.moves, m);
            assert_int_equal(info.moves_to_go, p.moves_due);
            assert_int_equal(info.control_move, p.control_move);
            assert_int_equal(info.period, p.period);
            int64_t before = info.remaining_ms;
            move_after(c, &t, 10 * SEC); /* White */
            dm_clock_side_info(&info, c, DM_WHITE);
            int64_t want = before - 10 * SEC + tc.periods[p.period].increment_ms +
                           (p.moves_due == 1 ? p.next_time_ms : 0);
            assert_int_equal(info.remaining_ms, want);
            move_after(c, &t, 1 * SEC); /* Black */
        }
        dm_clock_free(c);
    }
}

/* Correspondence: "3 days per move", read and written back; each move within its
 * days, unused time not carried over; a total budget shortens the last moves. */
static void test_clock__correspondence(void **state)
{
    (void)state;
    const int64_t day = DM_TC_DAY_MS;
    dm_time_control tc;
    dm_error err = {0};
    char buf[64];

    assert_int_equal(dm_time_control_parse(&tc, "3d", &err), DM_OK);
    assert_int_equal(tc.kind, DM_TC_CORRESPONDENCE);
    assert_int_equal(tc.count, 1);
    assert_int_equal(tc.periods[0].time_ms, 3 * day);
    assert_int_equal(tc.budget_ms, 0);
    dm_time_control_format(buf, sizeof buf, &tc);
    assert_string_equal(buf, "3d");
    assert_int_equal(dm_time_control_parse(&tc, " 0.25d : 30d ", &err), DM_OK);
    assert_int_equal(tc.periods[0].time_ms, day / 4);
    assert_int_equal(tc.budget_ms, 30 * day);
    dm_time_control_format(buf, sizeof buf, &tc);
    assert_string_equal(buf, "0.25d:30d");
    assert_int_equal(dm_time_control_validate(&tc, &err), DM_OK);
    assert_int_equal(dm_time_control_parse(&tc, "0d", &err), DM_EPARSE);
    assert_int_equal(dm_time_control_parse(&tc, "1.0001d", &err), DM_EPARSE);
    assert_int_equal(dm_time_control_parse(&tc, "3d:", &err), DM_EPARSE);
    assert_int_equal(dm_time_control_parse(&tc, "3d:40/7200", &err), DM_EPARSE);
    assert_int_equal(dm_time_control_parse(&tc, "3d+1d", &err), DM_EPARSE);
    assert_int_equal(dm_time_control_parse(&tc, "40000d", &err), DM_EPARSE);
    tc.periods[0].time_ms = day + 1; /* not a thousandth of a day */
    assert_int_equal(dm_time_control_validate(&tc, &err), DM_EINVAL);

    /* 3 days per move: each move has 3 days again; a fourth day loses */
    fake_time t = {0, 0};
    dm_clock *c = clock_for("3d", &t);
    assert_int_equal(dm_clock_start(c, DM_WHITE), DM_OK);
    move_after(c, &t, 2 * day); /* White: 2 days */
    assert_int_equal(dm_clock_remaining(c, DM_WHITE), 3 * day);
    move_after(c, &t, 3 * day - 1); /* Black: just in time */
    assert_int_equal(dm_clock_remaining(c, DM_BLACK), 3 * day);
    t.ms += 3 * day - 10;
    assert_int_equal(dm_clock_remaining(c, DM_WHITE), 10);
    assert_int_equal(dm_clock_flagged(c, NULL), 0);
    t.ms += 4 * day; /* nobody looked while White's deadline passed */
    dm_color who = DM_BLACK;
    assert_int_equal(dm_clock_flagged(c, &who), 1);
    assert_int_equal(who, DM_WHITE);
    assert_int_equal(dm_clock_press(c), DM_ESTATE);
    dm_clock_side info;
    dm_clock_side_info(&info, c, DM_WHITE);
    assert_int_equal(info.used_ms, 2 * day + 3 * day); /* counted up to the deadline */
    dm_clock_free(c);

    /* 2 days per move within 3 days in all: the budget shortens the second move */
    t.ms = 0;
    c = clock_for("2d:3d", &t);
    assert_int_equal(dm_clock_start(c, DM_WHITE), DM_OK);
    assert_int_equal(dm_clock_remaining(c, DM_WHITE), 2 * day);
    move_after(c, &t, 2 * day - 1000);
    assert_int_equal(dm_clock_remaining(c, DM_WHITE), day + 1000);
    move_after(c, &t, 10);
    t.ms += day + 999;
    assert_int_equal(dm_clock_flagged(c, NULL), 0);
    t.ms += 1;
    assert_int_equal(dm_clock_flagged(c, &who), 1);
    assert_int_equal(who, DM_WHITE);
    dm_clock_free(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_clock__parse_kinds),
        cmocka_unit_test(test_clock__control_boundaries_then_sudden_death),
        cmocka_unit_test(test_clock__control_boundaries_repeating),
        cmocka_unit_test(test_clock__clock_agrees_with_time_control_at),
        cmocka_unit_test(test_clock__parse_errors_say_what_and_where),
        cmocka_unit_test(test_clock__format_round_trip),
        cmocka_unit_test(test_clock__validate_hand_built),
        cmocka_unit_test(test_clock__sudden_death),
        cmocka_unit_test(test_clock__flag_falls_without_a_move),
        cmocka_unit_test(test_clock__press_after_flag_fell_is_refused),
        cmocka_unit_test(test_clock__fischer_increment_after_each_move),
        cmocka_unit_test(test_clock__cumulative_periods),
        cmocka_unit_test(test_clock__flag_at_the_control_move),
        cmocka_unit_test(test_clock__combination_and_repeating_period),
        cmocka_unit_test(test_clock__pause_resume),
        cmocka_unit_test(test_clock__no_time_control_counts_only),
        cmocka_unit_test(test_clock__sand_clock),
        cmocka_unit_test(test_clock__correspondence),
        cmocka_unit_test(test_clock__separate_controls_and_arbiter),
        cmocka_unit_test(test_clock__monotonic_default_and_format),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
