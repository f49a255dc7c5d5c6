/* SPDX-License-Identifier: MIT
 * game/clock.c: the two-sided clock (damier/clock.h, FMJD 9).
 *
 * State is kept at "checkpoints": each side's remaining and used time are exact as of
 * `since`, the moment the running side last started (or the last poll). Every call
 * that looks at the time first brings the running side up to date (checkpoint), so a
 * flag is noticed at the first poll after it fell, and its side and exact fall time
 * are known (since + what was left), whoever polls. At most one side runs: `running`
 * is -1 or the side's colour. */
#define _POSIX_C_SOURCE 200809L
#include <damier/clock.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct side_state {
    dm_time_control tc;
    int64_t remaining; /* ms left at the checkpoint (INT64_MAX when untimed) */
    int64_t used;      /* ms of thinking time used in all */
    int moves;         /* moves completed (presses) */
    int period;        /* current period (index into tc.periods) */
    int period_moves;  /* moves made in the current period */
    int flagged;       /* 1 once its time ran out */
} side_state;

struct dm_clock {
    side_state s[2];
    dm_time_fn now;
    void *payload;
    int running;     /* -1, DM_WHITE or DM_BLACK */
    int paused_side; /* -1, or the side that was running when paused */
    int stopped;     /* 1 after dm_clock_stop */
    int started;     /* 1 once dm_clock_start succeeded */
    int64_t since;   /* time (of the source) of the checkpoint */
};

int64_t dm_clock_monotonic_ms(void *payload)
{
    (void)payload;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int untimed(const side_state *s)
{
    return s->tc.kind == DM_TC_NONE;
}

static int sand(const dm_clock *c)
{
    return c->s[0].tc.kind == DM_TC_SANDCLOCK;
}

/* Bring the running side up to now; detect its flag fall. */
static void checkpoint(dm_clock *c)
{
    int64_t t = c->now(c->payload);
    int r = c->running;
    int64_t e = t - c->since;
    if (e < 0) {
        e = 0; /* a source that steps back must not give time back */
    } else {
        c->since = t;
    }
    if (r < 0) {
        return;
    }
    side_state *s = &c->s[r];
    s->used += e;
    if (untimed(s)) {
        return;
    }
    if (sand(c)) {
        c->s[1 - r].remaining += e; /* the sand falls to the other side */
    }
    s->remaining -= e;
    if (s->remaining <= 0) {
        /* The flag fell `overshoot` ms ago: count time only up to the fall. */
        int64_t overshoot = -s->remaining;
        s->used -= overshoot;
        if (sand(c)) {
            c->s[1 - r].remaining -= overshoot;
        }
        s->remaining = 0;
        s->flagged = 1;
        c->running = -1;
    }
}

static int any_flag(const dm_clock *c)
{
    return c->s[0].flagged || c->s[1].flagged;
}

/* A correspondence side's time for its next move: the time per move, or what is left
 * of its budget when that is less. Nothing for other controls. */
static void corr_refill(side_state *s)
{
    if (s->tc.kind != DM_TC_CORRESPONDENCE) {
        return;
    }
    s->remaining = s->tc.periods[0].time_ms;
    if (s->tc.budget_ms > 0 && s->tc.budget_ms - s->used < s->remaining) {
        s->remaining = s->tc.budget_ms - s->used;
    }
}

static void init_side(side_state *s, const dm_time_control *tc)
{
    memset(s, 0, sizeof *s);
    s->tc = *tc;
    if (tc->kind == DM_TC_NONE) {
        s->remaining = INT64_MAX;
    } else {
        s->remaining = tc->periods[0].time_ms;
    }
    corr_refill(s);
}

dm_status dm_clock_new(dm_clock **out, const dm_time_control *white, const dm_time_control *black,
                       dm_time_fn now, void *payload, dm_error *err)
{
    if (!out || !white) {
        return dm_error_set(err, DM_EINVAL, 0, 0, "no clock or no time control");
    }
    *out = NULL;
    if (!black) {
        black = white;
    }
    const dm_time_control *tcs[2] = {white, black};
    for (int i = 0; i < 2; i++) {
        dm_status st = dm_time_control_validate(tcs[i], err);
        if (st != DM_OK) {
            return st;
        }
        if (tcs[i]->kind == DM_TC_UNKNOWN) {
            return dm_error_set(err, DM_EINVAL, 0, 0,
                                "%s's time control is unknown (\"?\"): it cannot run a clock",
                                i == 0 ? "White" : "Black");
        }
    }
    if ((white->kind == DM_TC_SANDCLOCK || black->kind == DM_TC_SANDCLOCK) &&
        (white->kind != black->kind || white->periods[0].time_ms != black->periods[0].time_ms)) {
        return dm_error_set(err, DM_EINVAL, 0, 0, "a sand clock is one glass: both sides need it");
    }
    dm_clock *c = calloc(1, sizeof *c);
    if (!c) {
        return dm_error_set(err, DM_ENOMEM, 0, 0, "out of memory");
    }
    init_side(&c->s[0], white);
    init_side(&c->s[1], black);
    c->now = now ? now : dm_clock_monotonic_ms;
    c->payload = payload;
    c->running = -1;
    c->paused_side = -1;
    c->since = c->now(c->payload);
    *out = c;
    return DM_OK;
}

void dm_clock_free(dm_clock *clock)
{
    free(clock);
}

dm_status dm_clock_start(dm_clock *c, dm_color side)
{
    if (!c || (side != DM_WHITE && side != DM_BLACK)) {
        return DM_EINVAL;
    }
    checkpoint(c);
    if (c->running >= 0 || c->paused_side >= 0 || c->stopped || any_flag(c)) {
        return DM_ESTATE;
    }
    if (sand(c) && !c->started) {
        /* the glass is turned for the first player: all the sand is theirs */
        c->s[side].remaining = c->s[side].tc.periods[0].time_ms;
        c->s[1 - side].remaining = 0;
    }
    c->started = 1;
    c->running = side;
    c->since = c->now(c->payload);
    return DM_OK;
}

/* Count a move of side s: increment of the period it was made in, then the next
 * period's time when it completes the period (FMJD 9: cumulative control). */
static void count_move(side_state *s)
{
    s->moves++;
    corr_refill(s);
    if (s->tc.kind != DM_TC_PERIODS) {
        return;
    }
    const dm_tc_period *p = &s->tc.periods[s->period];
    s->remaining += p->increment_ms;
    if (p->moves > 0 && ++s->period_moves == p->moves) {
        s->period_moves = 0;
        if (s->period + 1 < s->tc.count) {
            s->period++;
        } /* else the last period repeats */
        s->remaining += s->tc.periods[s->period].time_ms;
    }
}

dm_status dm_clock_press(dm_clock *c)
{
    if (!c) {
        return DM_EINVAL;
    }
    checkpoint(c);
    int r = c->running;
    if (r < 0 || any_flag(c) || c->stopped) {
        return DM_ESTATE;
    }
    count_move(&c->s[r]);
    c->running = 1 - r;
    /* checkpoint set `since` to now: the other side starts from this same instant */
    return DM_OK;
}

dm_status dm_clock_pause(dm_clock *c)
{
    if (!c) {
        return DM_EINVAL;
    }
    checkpoint(c);
    if (c->running < 0) {
        return DM_ESTATE;
    }
    c->paused_side = c->running;
    c->running = -1;
    return DM_OK;
}

dm_status dm_clock_resume(dm_clock *c)
{
    if (!c) {
        return DM_EINVAL;
    }
    if (c->paused_side < 0 || c->stopped || any_flag(c)) {
        return DM_ESTATE;
    }
    c->running = c->paused_side;
    c->paused_side = -1;
    c->since = c->now(c->payload);
    return DM_OK;
}

dm_status dm_clock_switch(dm_clock *c, dm_color side)
{
    if (!c || (side != DM_WHITE && side != DM_BLACK)) {
        return DM_EINVAL;
    }
    checkpoint(c);
    if (c->paused_side >= 0) {
        c->paused_side = side;
        return DM_OK;
    }
    if (c->running < 0) {
        return DM_ESTATE;
    }
    c->running = side; /* checkpoint set `since` to now */
    return DM_OK;
}

void dm_clock_stop(dm_clock *c)
{
    if (!c) {
        return;
    }
    checkpoint(c);
    c->running = -1;
    c->paused_side = -1;
    c->stopped = 1;
}

int dm_clock_flagged(dm_clock *c, dm_color *who)
{
    checkpoint(c);
    for (int i = 0; i < 2; i++) {
        if (c->s[i].flagged) {
            if (who) {
                *who = (dm_color)i;
            }
            return 1;
        }
    }
    return 0;
}

int64_t dm_clock_remaining(dm_clock *c, dm_color side)
{
    checkpoint(c);
    int64_t r = c->s[side == DM_BLACK].remaining;
    return r < 0 ? 0 : r;
}

dm_status dm_time_control_at(dm_tc_position *out, const dm_time_control *tc, int moves)
{
    if (out) {
        memset(out, 0, sizeof *out);
    }
    if (!out || !tc || moves < 0) {
        return DM_EINVAL;
    }
    if (tc->kind != DM_TC_PERIODS || tc->count < 1 || tc->count > DM_TC_MAX_PERIODS) {
        return DM_OK;
    }
    /* walk the periods as count_move does: a complete period passes to the next, the
     * last one repeats when it has moves */
    int period = 0, left = moves;
    for (;;) {
        const dm_tc_period *p = &tc->periods[period];
        if (p->moves <= 0) {
            break; /* the rest of the game */
        }
        if (left < p->moves) {
            out->moves_due = p->moves - left;
            break;
        }
        left -= p->moves;
        if (period + 1 < tc->count) {
            period++;
        } else {
            /* the last period repeats: whole repetitions at once */
            left %= p->moves;
            out->moves_due = p->moves - left;
            break;
        }
    }
    out->period = period;
    if (out->moves_due > 0) {
        out->control_move = moves + out->moves_due;
        int next = period + 1 < tc->count ? period + 1 : period;
        out->next_time_ms = tc->periods[next].time_ms;
    }
    return DM_OK;
}

void dm_clock_side_info(dm_clock_side *out, dm_clock *c, dm_color side)
{
    checkpoint(c);
    const side_state *s = &c->s[side == DM_BLACK];
    memset(out, 0, sizeof *out);
    out->remaining_ms = s->remaining < 0 ? 0 : s->remaining;
    out->used_ms = s->used;
    out->moves = s->moves;
    out->period = s->period;
    if (s->tc.kind == DM_TC_PERIODS) {
        const dm_tc_period *p = &s->tc.periods[s->period];
        out->increment_ms = p->increment_ms;
        out->moves_to_go = p->moves > 0 ? p->moves - s->period_moves : 0;
        out->control_move = out->moves_to_go > 0 ? s->moves + out->moves_to_go : 0;
    }
    out->running = c->running == (int)(side == DM_BLACK);
    out->flagged = s->flagged;
}

int dm_clock_running(const dm_clock *c, dm_color *side)
{
    if (c->running < 0) {
        return 0;
    }
    if (side) {
        *side = (dm_color)c->running;
    }
    return 1;
}

int dm_clock_paused(const dm_clock *c)
{
    return c->paused_side >= 0;
}

dm_status dm_clock_set_remaining(dm_clock *c, dm_color side, int64_t ms)
{
    if (!c || ms < 0 || (side != DM_WHITE && side != DM_BLACK)) {
        return DM_EINVAL;
    }
    checkpoint(c);
    side_state *s = &c->s[side];
    if (untimed(s)) {
        return DM_EINVAL;
    }
    s->remaining = ms;
    if (ms > 0) {
        s->flagged = 0;
    } else if (c->running == (int)side) {
        s->flagged = 1;
        c->running = -1;
    }
    return DM_OK;
}

size_t dm_clock_format_ms(char *buf, size_t cap, int64_t ms, int tenths)
{
    char tmp[48];
    if (ms == INT64_MAX) {
        snprintf(tmp, sizeof tmp, "-:--");
    } else {
        if (ms < 0) {
            ms = 0;
        }
        int64_t s = ms / 1000;
        int64_t h = s / 3600, m = s / 60 % 60, sec = s % 60;
        if (h > 0) {
            snprintf(tmp, sizeof tmp, "%lld:%02d:%02d", (long long)h, (int)m, (int)sec);
        } else if (tenths && ms < 10000) {
            snprintf(tmp, sizeof tmp, "%d:%02d.%d", (int)m, (int)sec, (int)(ms % 1000 / 100));
        } else {
            snprintf(tmp, sizeof tmp, "%d:%02d", (int)m, (int)sec);
        }
    }
    if (cap > 0) {
        snprintf(buf, cap, "%s", tmp);
    }
    return strlen(tmp);
}
