/* SPDX-License-Identifier: MIT
 * game/timecontrol.c: the PDN TimeControl tag (damier/clock.h), read and written.
 * Grammar (PGN-derived, pdn-fen.md):  tc = "?" | "-" | "*" S | period (":" period)*
 *                                     period = [N "/"] S ["+" I]
 * S and I are seconds, with up to three decimals (an extension: ms resolution). */
#include <damier/clock.h>

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#define MAX_SECONDS 1000000000LL /* ~31 years: anything larger is a typo */
#define MAX_MOVES 10000

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
    if (*c->p == '.') {
        c->p++;
        int digits = 0;
        long long frac = 0;
        while (isdigit((unsigned char)*c->p)) {
            if (++digits > 3) {
                return fail(c, "at most 3 decimals (milliseconds)");
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
        ms = frac;
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
        if (tc.kind != DM_TC_PERIODS && *c.p == ':') {
            return fail(&c, "\"?\", \"-\" and a sand clock stand alone");
        }
        return fail(&c, tc.kind == DM_TC_PERIODS ? "expected ':' or the end" : "expected the end");
    }
    *out = tc;
    return DM_OK;
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
