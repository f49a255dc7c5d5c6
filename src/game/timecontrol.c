/* SPDX-License-Identifier: MIT
 * game/timecontrol.c: the PDN TimeControl tag (damier/clock.h), read and written.
 * Grammar (PGN-derived, pdn-fen.md):  tc = "?" | "-" | "*" S | period (":" period)*
 *                                     period = [N "/"] S ["+" I]
 * S and I are seconds, with up to three decimals (an extension: ms resolution).
 * Correspondence (a damier extension):  tc = D "d" [":" B "d"], days with up to three
 * decimals (per move, and the total budget). */
#include <damier/clock.h>

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#define MAX_SECONDS 1000000000LL /* ~31 years: anything larger is a typo */
#define MAX_MOVES 10000
#define MAX_DAYS 36500 /* a century per move or in all */
#define MILLIDAY_MS (DM_TC_DAY_MS / 1000)

typedef struct cursor {
    const char *text;
    const char *p;
    dm_error *err;
} cursor;

static int col(const cursor *c)
{
    return (int)(c->p - c->text) + 1;
}

static dm_status fail(const cursor *c, const char *what)
{
    if (*c->p == '\0') {
        return dm_error_set(c->err, DM_EPARSE, 1, col(c), "time control \"%s\": %s at the end",
                            c->text, what);
    }
    return dm_error_set(c->err, DM_EPARSE, 1, col(c),
                        "time control \"%s\": %s at column %d (found '%c')", c->text, what, col(c),
                        *c->p);
}

static void skip_spaces(cursor *c)
{
    while (*c->p == ' ' || *c->p == '\t') {
        c->p++;
    }
}

/* A positive integer count of moves. */
static dm_status read_count(cursor *c, int *out)
{
    if (!isdigit((unsigned char)*c->p)) {
        return fail(c, "expected a number of moves");
    }
    const char *start = c->p;
    long long v = 0;
    while (isdigit((unsigned char)*c->p)) {
        v = v * 10 + (*c->p - '0');
        if (v > MAX_MOVES) {
            c->p = start;
            return fail(c, "number of moves too large (at most 10000)");
        }
        c->p++;
    }
    if (v == 0) {
        c->p = start;
        return fail(c, "number of moves must be positive");
    }
    *out = (int)v;
    return DM_OK;
}

/* An optional fraction ".d", ".dd" or ".ddd" after a whole number, in thousandths
 * (".5" is 500) into *out (0 without one); too_many is the error for a fourth decimal. */
static dm_status read_thousandths(cursor *c, long long *out, const char *too_many)
{
    *out = 0;
    if (*c->p != '.') {
        return DM_OK;
    }
    c->p++;
    int digits = 0;
    long long frac = 0;
    while (isdigit((unsigned char)*c->p)) {
        if (++digits > 3) {
            return fail(c, too_many);
        }
        frac = frac * 10 + (*c->p - '0');
        c->p++;
    }
    if (digits == 0) {
        return fail(c, "expected digits after the decimal point");
    }
    while (digits++ < 3) {
        frac *= 10;
    }
    *out = frac;
    return DM_OK;
}

/* Seconds, with up to three decimals, into milliseconds. */
static dm_status read_seconds(cursor *c, int64_t *out_ms, const char *what)
{
    if (!isdigit((unsigned char)*c->p)) {
        char msg[80];
        snprintf(msg, sizeof msg, "expected %s in seconds", what);
        return fail(c, msg);
    }
    const char *start = c->p;
    long long s = 0;
    while (isdigit((unsigned char)*c->p)) {
        s = s * 10 + (*c->p - '0');
        if (s > MAX_SECONDS) {
            c->p = start;
            return fail(c, "time too large");
        }
        c->p++;
    }
    long long ms = 0;
    dm_status st = read_thousandths(c, &ms, "at most 3 decimals (milliseconds)");
    if (st != DM_OK) {
        return st;
    }
    if (s * 1000 + ms > MAX_SECONDS * 1000) {
        /* the whole seconds alone may be at the limit: "1000000000.1" was accepted
         * here and then refused by dm_time_control_validate (fuzz finding) */
        c->p = start;
        return fail(c, "time too large");
    }
    *out_ms = s * 1000 + ms;
    return DM_OK;
}

/* Days, with up to three decimals and the 'd' after them, into milliseconds (> 0). */
static dm_status read_days(cursor *c, int64_t *out_ms, const char *what)
{
    const char *start = c->p;
    if (!isdigit((unsigned char)*c->p)) {
        char msg[80];
        snprintf(msg, sizeof msg, "expected %s in days", what);
        return fail(c, msg);
    }
    long long thousandths = 0;
    while (isdigit((unsigned char)*c->p)) {
        thousandths = thousandths * 10 + (*c->p - '0');
        if (thousandths > MAX_DAYS) {
            c->p = start;
            return fail(c, "too many days (at most 36500)");
        }
        c->p++;
    }
    thousandths *= 1000;
    long long frac = 0;
    dm_status st = read_thousandths(c, &frac, "at most 3 decimals of a day");
    if (st != DM_OK) {
        return st;
    }
    thousandths += frac;
    if (*c->p != 'd') {
        return fail(c, "expected 'd' (days)");
    }
    if (thousandths == 0 || thousandths > MAX_DAYS * 1000LL) {
        c->p = start;
        return fail(c,
                    thousandths == 0 ? "days must be positive" : "too many days (at most 36500)");
    }
    c->p++;
    *out_ms = thousandths * MILLIDAY_MS;
    return DM_OK;
}

/* 1 when the element at p is a number of days ("3d", "0.5d"). */
static int days_ahead(const char *p)
{
    while (isdigit((unsigned char)*p) || *p == '.') {
        p++;
    }
    return *p == 'd';
}

dm_status dm_time_control_parse(dm_time_control *out, const char *text, dm_error *err)
{
    if (!out || !text) {
        return dm_error_set(err, DM_EINVAL, 0, 0, "no time control text");
    }
    cursor c = {text, text, err};
    dm_time_control tc;
    memset(&tc, 0, sizeof tc);
    dm_status st;
    skip_spaces(&c);
    if (*c.p == '\0') {
        return fail(&c, "empty time control (use \"-\" for none, \"?\" for unknown)");
    }
    if (*c.p == '?' || *c.p == '-') {
        tc.kind = *c.p == '?' ? DM_TC_UNKNOWN : DM_TC_NONE;
        c.p++;
    } else if (*c.p == '*') {
        c.p++;
        tc.kind = DM_TC_SANDCLOCK;
        tc.count = 1;
        if ((st = read_seconds(&c, &tc.periods[0].time_ms, "the sand clock time")) != DM_OK) {
            return st;
        }
        if (tc.periods[0].time_ms <= 0) {
            c.p--;
            return fail(&c, "sand clock time must be positive");
        }
    } else if (days_ahead(c.p)) {
        tc.kind = DM_TC_CORRESPONDENCE;
        tc.count = 1;
        if ((st = read_days(&c, &tc.periods[0].time_ms, "the time per move")) != DM_OK) {
            return st;
        }
        skip_spaces(&c);
        if (*c.p == ':') {
            c.p++;
            skip_spaces(&c);
            if ((st = read_days(&c, &tc.budget_ms, "the total budget")) != DM_OK) {
                return st;
            }
        }
    } else {
        tc.kind = DM_TC_PERIODS;
        for (;;) {
            if (tc.count == DM_TC_MAX_PERIODS) {
                return fail(&c, "too many periods (at most 8)");
            }
            dm_tc_period *p = &tc.periods[tc.count];
            const char *elem = c.p;
            /* N/S or S: read a number, then see whether '/' follows */
            const char *q = c.p;
            while (isdigit((unsigned char)*q)) {
                q++;
            }
            if (*q == '/') {
                if ((st = read_count(&c, &p->moves)) != DM_OK) {
                    return st;
                }
                c.p++; /* '/' */
            }
            if ((st = read_seconds(&c, &p->time_ms, "a time")) != DM_OK) {
                return st;
            }
            if (*c.p == '+') {
                c.p++;
                if ((st = read_seconds(&c, &p->increment_ms, "an increment")) != DM_OK) {
                    return st;
                }
            }
            if (p->time_ms == 0 && (tc.count == 0 || p->increment_ms == 0)) {
                c.p = elem;
                return fail(&c, tc.count == 0 ? "the first period needs a positive time"
                                              : "a period needs a time or an increment");
            }
            tc.count++;
            skip_spaces(&c);
            if (*c.p != ':') {
                break;
            }
            if (p->moves == 0) {
                c.p = elem;
                return fail(&c, "only the last period may be without a number of moves "
                                "(sudden death ends the game)");
            }
            c.p++;
            skip_spaces(&c);
        }
    }
    skip_spaces(&c);
    if (*c.p != '\0') {
        if (tc.kind != DM_TC_PERIODS && tc.kind != DM_TC_CORRESPONDENCE && *c.p == ':') {
            return fail(&c, "\"?\", \"-\" and a sand clock stand alone");
        }
        return fail(&c, tc.kind == DM_TC_PERIODS ? "expected ':' or the end" : "expected the end");
    }
    *out = tc;
    return DM_OK;
}

/* ms (a multiple of 0.001 day) as days: "3d", "0.25d". */
static size_t put_days(char *buf, size_t cap, int64_t ms)
{
    int64_t th = ms / MILLIDAY_MS;
    if (th % 1000 == 0) {
        return (size_t)snprintf(buf, cap, "%" PRId64 "d", th / 1000);
    }
    char frac[8];
    snprintf(frac, sizeof frac, "%03d", (int)(th % 1000));
    for (int i = 2; i > 0 && frac[i] == '0'; i--) {
        frac[i] = '\0';
    }
    return (size_t)snprintf(buf, cap, "%" PRId64 ".%sd", th / 1000, frac);
}

static size_t put_seconds(char *buf, size_t cap, int64_t ms)
{
    if (ms % 1000 == 0) {
        return (size_t)snprintf(buf, cap, "%" PRId64, ms / 1000);
    }
    char frac[8];
    snprintf(frac, sizeof frac, "%03d", (int)(ms % 1000));
    for (int i = 2; i > 0 && frac[i] == '0'; i--) {
        frac[i] = '\0';
    }
    return (size_t)snprintf(buf, cap, "%" PRId64 ".%s", ms / 1000, frac);
}

size_t dm_time_control_format(char *buf, size_t cap, const dm_time_control *tc)
{
    char tmp[512];
    size_t n = 0;
    tmp[0] = '\0';
    switch (tc->kind) {
        case DM_TC_NONE:
            n = (size_t)snprintf(tmp, sizeof tmp, "-");
            break;
        case DM_TC_UNKNOWN:
            n = (size_t)snprintf(tmp, sizeof tmp, "?");
            break;
        case DM_TC_SANDCLOCK:
            tmp[n++] = '*';
            n += put_seconds(tmp + n, sizeof tmp - n, tc->periods[0].time_ms);
            break;
        case DM_TC_CORRESPONDENCE:
            n += put_days(tmp + n, sizeof tmp - n, tc->periods[0].time_ms);
            if (tc->budget_ms > 0) {
                tmp[n++] = ':';
                n += put_days(tmp + n, sizeof tmp - n, tc->budget_ms);
            }
            break;
        case DM_TC_PERIODS:
            for (int i = 0; i < tc->count && i < DM_TC_MAX_PERIODS; i++) {
                const dm_tc_period *p = &tc->periods[i];
                if (i > 0) {
                    tmp[n++] = ':';
                }
                if (p->moves > 0) {
                    n += (size_t)snprintf(tmp + n, sizeof tmp - n, "%d/", p->moves);
                }
                n += put_seconds(tmp + n, sizeof tmp - n, p->time_ms);
                if (p->increment_ms > 0) {
                    tmp[n++] = '+';
                    n += put_seconds(tmp + n, sizeof tmp - n, p->increment_ms);
                }
            }
            tmp[n] = '\0';
            break;
        default:
            n = (size_t)snprintf(tmp, sizeof tmp, "?");
            break;
    }
    if (cap > 0) {
        snprintf(buf, cap, "%s", tmp);
    }
    return n;
}

dm_status dm_time_control_validate(const dm_time_control *tc, dm_error *err)
{
    if (!tc) {
        return dm_error_set(err, DM_EINVAL, 0, 0, "no time control");
    }
    switch (tc->kind) {
        case DM_TC_NONE:
        case DM_TC_UNKNOWN:
            return DM_OK;
        case DM_TC_SANDCLOCK:
            if (tc->count != 1 || tc->periods[0].time_ms <= 0 ||
                tc->periods[0].time_ms > MAX_SECONDS * 1000) {
                return dm_error_set(err, DM_EINVAL, 0, 0,
                                    "a sand clock has one period with a positive time");
            }
            return DM_OK;
        case DM_TC_CORRESPONDENCE: {
            int64_t per = tc->periods[0].time_ms, budget = tc->budget_ms;
            if (tc->count != 1 || per <= 0 || per > MAX_DAYS * DM_TC_DAY_MS ||
                per % MILLIDAY_MS != 0 || budget < 0 || budget > MAX_DAYS * DM_TC_DAY_MS ||
                budget % MILLIDAY_MS != 0) {
                return dm_error_set(err, DM_EINVAL, 0, 0,
                                    "a correspondence control has a positive time per move and "
                                    "a budget (or 0), in thousandths of a day up to 36500 days");
            }
            return DM_OK;
        }
        case DM_TC_PERIODS:
            break;
        default:
            return dm_error_set(err, DM_EINVAL, 0, 0, "unknown time control kind %d",
                                (int)tc->kind);
    }
    if (tc->count < 1 || tc->count > DM_TC_MAX_PERIODS) {
        return dm_error_set(err, DM_EINVAL, 0, 0, "%d periods (1 to %d allowed)", tc->count,
                            DM_TC_MAX_PERIODS);
    }
    for (int i = 0; i < tc->count; i++) {
        const dm_tc_period *p = &tc->periods[i];
        if (p->moves < 0 || p->moves > MAX_MOVES || p->time_ms < 0 || p->increment_ms < 0 ||
            p->time_ms > MAX_SECONDS * 1000 || p->increment_ms > MAX_SECONDS * 1000) {
            return dm_error_set(err, DM_EINVAL, 0, 0, "period %d: value out of range", i + 1);
        }
        if (p->time_ms == 0 && (i == 0 || p->increment_ms == 0)) {
            return dm_error_set(err, DM_EINVAL, 0, 0, "period %d: no time", i + 1);
        }
        if (p->moves == 0 && i != tc->count - 1) {
            return dm_error_set(err, DM_EINVAL, 0, 0,
                                "period %d: only the last period may be without a move count",
                                i + 1);
        }
    }
    return DM_OK;
}
