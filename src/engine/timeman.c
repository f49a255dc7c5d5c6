/* SPDX-License-Identifier: MIT
 * engine/timeman.c: time budget per move (see timeman.h).
 *
 * Clock modes (Hub `level`): the increment is added before every move, so `time`
 * already holds this move's increment and each later move brings one more.
 *   moves-in-time  budget = (time + inc * (n - 1)) / n over the n moves to go;
 *   sudden death / Fischer: the same with n = 30 expected moves;
 *   fixed move time: soft = hard = the time given, less 3 % (at most 5 ms), all
 *   of it used (no clock to save it for; a stopped iteration's better root move
 *   is kept).
 * The hard deadline is at most a few times the budget and always leaves a margin
 * on the clock (output, pipe and process latency), so the engine never loses on
 * time even with one move to go. */
#define _POSIX_C_SOURCE 200809L
#include "engine/timeman.h"

#include <time.h>

double tm_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double min2(double a, double b)
{
    return a < b ? a : b;
}

static double max2(double a, double b)
{
    return a > b ? a : b;
}

void tm_plan(tm_budget *out, const dm_limits *lim)
{
    out->timed = 0;
    out->fixed = 0;
    out->soft = out->hard = 1e30;
    if (lim->infinite) {
        return;
    }
    if (lim->move_time > 0) {
        /* The stop is polled every 1024 nodes (about 0.1 ms) and the reply is one
         * line, so 3 % (at most 5 ms) is enough: at 0.15 s a move the search gets
         * 0.1455 s instead of the 0.135 s of a 10 % margin (a match's move overhead
         * covers the pipe). */
        double margin = min2(0.005, lim->move_time * 0.03);
        out->timed = 1;
        out->fixed = 1;
        out->soft = out->hard = max2(0.001, lim->move_time - margin);
    }
    if (lim->time > 0) {
        double t = lim->time, inc = lim->inc > 0 ? lim->inc : 0;
        /* Latency margin (reply, pipe, scheduling on a loaded machine): 30 ms plus
         * 3% of the clock, at most 1 s, at most half of what is left. */
        double margin = min2(min2(0.03 + 0.03 * t, 1.0), t / 2);
        double usable = max2(t - margin, 0.001);
        int n = lim->moves_to_go > 0 ? lim->moves_to_go : 30;
        if (n > 50) {
            n = 50;
        }
        double budget = (usable + inc * (n - 1)) / n;
        double hard = min2(budget * 4, n == 1 ? usable : usable * 0.5);
        budget = min2(budget, hard);
        if (!out->timed || budget < out->soft) {
            out->soft = budget;
        }
        if (!out->timed || hard < out->hard) {
            out->hard = hard;
        }
        out->timed = 1;
        out->fixed = 0; /* a clock too: its budget governs */
    }
}

int tm_should_stop(const tm_budget *b, double elapsed, double instability)
{
    if (!b->timed || b->fixed) {
        return 0; /* fixed time a move: unused time is lost, the hard limit stops */
    }
    double factor = 1.0 + instability;
    if (factor > 3.0) {
        factor = 3.0;
    }
    double target = min2(b->soft * factor, b->hard);
    /* An iteration costs about as much as all the earlier ones together and more:
     * starting one after half the target would probably overrun it. */
    return elapsed >= target * 0.5;
}
