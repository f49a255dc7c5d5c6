/* SPDX-License-Identifier: MIT
 * src/tourney/tourney_file.c: the tournament file, read and written
 * (docs/TOURNEY.md). One statement a line; '#' starts a comment; names in double
 * quotes with \" and \\ escapes. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <damier/tourney.h>

#include "tourney/tourney_int.h"
#include "util/strbuf.h"

typedef struct reader {
    const char *text;
    size_t len, pos;
    int line;
    size_t line_start;
    dm_error *err;
} reader;

static int col(const reader *r, size_t at)
{
    return (int)(at - r->line_start) + 1;
}

static dm_status fail(reader *r, dm_status st, size_t at, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static dm_status fail(reader *r, dm_status st, size_t at, const char *fmt, ...)
{
    char msg[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return dm_error_set(r->err, st, r->line, col(r, at), "line %d, column %d: %s", r->line,
                        col(r, at), msg);
}

static int at_eol(const reader *r)
{
    return r->pos >= r->len || r->text[r->pos] == '\n' || r->text[r->pos] == '#';
}

static void skip_blanks(reader *r)
{
    while (r->pos < r->len &&
           (r->text[r->pos] == ' ' || r->text[r->pos] == '\t' || r->text[r->pos] == '\r')) {
        r->pos++;
    }
}

/* The next bare word (up to a blank, '#' or the line's end) into buf; 0 at the end
 * of the line. A word longer than cap is an error reported by the caller (*start). */
static int word(reader *r, char *buf, size_t cap, size_t *start, int *too_long)
{
    skip_blanks(r);
    *start = r->pos;
    *too_long = 0;
    if (at_eol(r)) {
        return 0;
    }
    size_t n = 0;
    while (r->pos < r->len && !strchr(" \t\r\n#", r->text[r->pos])) {
        if (r->text[r->pos] == 0) {
            *too_long = 1; /* a NUL byte: refused like an overlong word */
        }
        if (n + 1 < cap) {
            buf[n++] = r->text[r->pos];
        } else {
            *too_long = 1;
        }
        r->pos++;
    }
    buf[n] = 0;
    return 1;
}

/* A quoted name into buf (cap bytes). */
static dm_status quoted(reader *r, char *buf, size_t cap, const char *what)
{
    skip_blanks(r);
    size_t start = r->pos;
    if (at_eol(r) || r->text[r->pos] != '"') {
        return fail(r, DM_EPARSE, start, "expected %s in double quotes", what);
    }
    r->pos++;
    size_t n = 0;
    for (;;) {
        if (r->pos >= r->len || r->text[r->pos] == '\n') {
            return fail(r, DM_EPARSE, start, "%s: no closing '\"' on this line", what);
        }
        char c = r->text[r->pos++];
        if (c == '"') {
            break;
        }
        if (c == '\\') {
            if (r->pos >= r->len || (r->text[r->pos] != '"' && r->text[r->pos] != '\\')) {
                return fail(r, DM_EPARSE, r->pos - 1, "%s: '\\' escapes only '\"' and '\\'", what);
            }
            c = r->text[r->pos++];
        }
        if (c == 0 || c == '\r') {
            return fail(r, DM_EPARSE, r->pos - 1, "%s: a control character in the name", what);
        }
        if (n + 1 >= cap) {
            return fail(r, DM_EPARSE, start, "%s: longer than %zu bytes", what, cap - 1);
        }
        buf[n++] = c;
    }
    buf[n] = 0;
    if (!n) {
        return fail(r, DM_EPARSE, start, "%s is empty", what);
    }
    return DM_OK;
}

static int parse_int(const char *s, int lo, int hi, int *out)
{
    if (!*s || strlen(s) > 9) {
        return 0;
    }
    int v = 0, neg = 0;
    if (*s == '-') {
        neg = 1;
        s++;
        if (!*s) {
            return 0;
        }
    }
    for (; *s; s++) {
        if (*s < '0' || *s > '9') {
            return 0;
        }
        v = v * 10 + (*s - '0');
    }
    v = neg ? -v : v;
    if (v < lo || v > hi) {
        return 0;
    }
    *out = v;
    return 1;
}

static dm_status int_arg(reader *r, const char *what, int lo, int hi, int *out)
{
    char w[32];
    size_t at;
    int too_long;
    if (!word(r, w, sizeof w, &at, &too_long)) {
        return fail(r, DM_EPARSE, at, "expected %s (%d..%d)", what, lo, hi);
    }
    if (too_long || !parse_int(w, lo, hi, out)) {
        return fail(r, DM_EPARSE, at, "%s: expected a number %d..%d", what, lo, hi);
    }
    return DM_OK;
}

static dm_status end_of_line(reader *r)
{
    skip_blanks(r);
    if (!at_eol(r)) {
        return fail(r, DM_EPARSE, r->pos, "unexpected text at the end of the line");
    }
    return DM_OK;
}

int dm_tourney_result_from_text(const dm_tourney *t, const char *w, int *outcome, int *a, int *b)
{
    int full = t->boards > 0 ? t->boards : 1;
    if (!strcmp(w, "*")) {
        *outcome = DM_TOUT_PENDING;
        *a = *b = 0;
        return 1;
    }
    if (!strcmp(w, "+-") || !strcmp(w, "-+") || !strcmp(w, "--")) {
        *outcome = DM_TOUT_FORFEIT;
        *a = (w[0] == '+' ? t->win : t->loss) * full;
        *b = (w[1] == '+' ? t->win : t->loss) * full;
        return 1;
    }
    int x, y;
    if (!strcmp(w, "1/2-1/2")) {
        x = y = t->draw;
    } else {
        const char *dash = strchr(w, '-');
        char l[16], r[16];
        size_t nl = dash ? (size_t)(dash - w) : 0, nr = dash ? strlen(dash + 1) : 0;
        if (!dash || nl == 0 || nl >= sizeof l || nr >= sizeof r) {
            return 0;
        }
        memcpy(l, w, nl);
        l[nl] = 0;
        memcpy(r, dash + 1, nr + 1);
        if (!parse_int(l, 0, 100000, &x) || !parse_int(r, 0, 100000, &y)) {
            return 0;
        }
        if (t->win != 1 && ((x == 1 && y == 0) || (x == 0 && y == 1))) {
            /* PDN's 1-0 / 0-1 in an event that counts more for a win */
            x = x ? t->win : t->loss;
            y = y ? t->win : t->loss;
        }
    }
    *outcome = DM_TOUT_PLAYED;
    *a = x;
    *b = y;
    return 1;
}

static dm_status read_entrant(reader *r, dm_tourney *t)
{
    dm_tourney_entrant e;
    memset(&e, 0, sizeof e);
    dm_status st = quoted(r, e.name, sizeof e.name, "the entrant's name");
    while (st == DM_OK) {
        char w[32];
        size_t at;
        int too_long;
        if (!word(r, w, sizeof w, &at, &too_long)) {
            break;
        }
        if (!strcmp(w, "rating")) {
            st = int_arg(r, "the rating", 0, 4000, &e.rating);
        } else if (!strcmp(w, "section")) {
            st = quoted(r, e.section, sizeof e.section, "the section");
        } else if (!strcmp(w, "category")) {
            st = quoted(r, e.categories, sizeof e.categories, "the categories");
        } else if (!strcmp(w, "withdrawn")) {
            e.withdrawn = 1;
        } else {
            st = fail(r, DM_EPARSE, at, "expected rating, section, category or withdrawn");
        }
    }
    if (st != DM_OK) {
        return st;
    }
    size_t at = r->pos;
    dm_error sub;
    st = dm_tourney_add_entrant(t, &e, &sub);
    return st == DM_OK ? DM_OK : fail(r, st, at, "%s", sub.message);
}

/* "W - B [RESULT | BOARD...]" or "W bye". */
static dm_status read_pairing(reader *r, dm_tourney *t, int round, const char *first, size_t at)
{
    dm_tourney_pairing p;
    memset(&p, 0, sizeof p);
    p.round = round;
    int w;
    if (!parse_int(first, 1, t->nentrants, &w)) {
        return fail(r, DM_EPARSE, at, "expected an entrant's number 1..%d or a statement",
                    t->nentrants);
    }
    p.white = w - 1;
    char tok[32];
    int too_long;
    if (!word(r, tok, sizeof tok, &at, &too_long)) {
        return fail(r, DM_EPARSE, at, "expected '-' and the opponent's number, or 'bye'");
    }
    if (!strcmp(tok, "bye")) {
        p.black = -1;
        p.outcome = DM_TOUT_BYE;
    } else if (!strcmp(tok, "-")) {
        int b;
        dm_status st = int_arg(r, "the opponent's number", 1, t->nentrants, &b);
        if (st != DM_OK) {
            return st;
        }
        p.black = b - 1;
        if (p.black == p.white) {
            return fail(r, DM_EINVAL, at, "an entrant cannot meet itself");
        }
        int nb = 0, results = 0;
        while (word(r, tok, sizeof tok, &at, &too_long)) {
            int outcome, a, c;
            if (too_long || !dm_tourney_result_from_text(t, tok, &outcome, &a, &c)) {
                return fail(r, DM_EPARSE, at,
                            "expected a result (2-0, 1-1, 0-2, 1-0, 0-1, "
                            "1/2-1/2, +-, -+, --, *)");
            }
            if (t->boards > 0 && outcome == DM_TOUT_PLAYED) {
                if (nb >= t->boards) {
                    return fail(r, DM_EINVAL, at, "more than %d boards", t->boards);
                }
                if (!tourney_is_game(t, a, c)) {
                    return fail(r, DM_EINVAL, at, "board %d: %d-%d is no game's result", nb + 1, a,
                                c);
                }
                p.board[nb][0] = a;
                p.board[nb][1] = c;
                p.board_done[nb] = 1;
                nb++;
                continue;
            }
            if (nb > 0 || results++ > 0) {
                return fail(r, DM_EINVAL, at, "a pairing has one result");
            }
            if (outcome == DM_TOUT_PLAYED && !tourney_is_game(t, a, c)) {
                return fail(r, DM_EINVAL, at, "%d-%d is no game's result (%d-%d, %d-%d, %d-%d)", a,
                            c, t->win, t->loss, t->draw, t->draw, t->loss, t->win);
            }
            p.outcome = outcome;
            p.score[0] = a;
            p.score[1] = c;
        }
        if (nb > 0) {
            if (nb != t->boards) {
                return fail(r, DM_EINVAL, at, "%d of %d boards have a result", nb, t->boards);
            }
            p.outcome = DM_TOUT_PLAYED;
            for (int i = 0; i < nb; i++) {
                p.score[0] += p.board[i][0];
                p.score[1] += p.board[i][1];
            }
        }
    } else {
        return fail(r, DM_EPARSE, at, "expected '-' and the opponent's number, or 'bye'");
    }
    dm_status st = end_of_line(r);
    if (st != DM_OK) {
        return st;
    }
    for (int k = t->npairings - 1; k >= 0 && t->pairings[k].round == round; k--) {
        const dm_tourney_pairing *q = &t->pairings[k];
        int seen[4] = {q->white, q->black, p.white, p.black};
        if (seen[0] == seen[2] || seen[0] == seen[3] || (seen[1] >= 0 && seen[1] == seen[2]) ||
            (seen[1] >= 0 && seen[1] == seen[3])) {
            return fail(r, DM_EINVAL, r->line_start, "an entrant is paired twice in round %d",
                        round);
        }
    }
    dm_error sub;
    st = tourney_push_pairing(t, &p, &sub);
    return st == DM_OK ? DM_OK : fail(r, st, at, "%s", sub.message);
}

static dm_status read_all(reader *r, dm_tourney *t)
{
    int round = 0;
    dm_status st = DM_OK;
    while (st == DM_OK && r->pos < r->len) {
        r->line_start = r->pos;
        char w[32];
        size_t at;
        int too_long;
        if (word(r, w, sizeof w, &at, &too_long)) {
            if (too_long) {
                st = fail(r, DM_EPARSE, at, "a word longer than %zu bytes", sizeof w - 1);
            } else if (!strcmp(w, "event")) {
                st = quoted(r, t->event, sizeof t->event, "the event's name");
                if (st == DM_OK) {
                    st = end_of_line(r);
                }
            } else if (round > 0 && strcmp(w, "round")) {
                st = read_pairing(r, t, round, w, at);
            } else if (!strcmp(w, "system")) {
                if (!word(r, w, sizeof w, &at, &too_long)) {
                    st = fail(r, DM_EPARSE, at, "expected swiss ROUNDS or roundrobin [double]");
                } else if (!strcmp(w, "swiss")) {
                    t->system = DM_TOURNEY_SWISS;
                    st = int_arg(r, "the number of rounds", 1, 100, &t->rounds);
                } else if (!strcmp(w, "roundrobin")) {
                    t->system = DM_TOURNEY_ROUND_ROBIN;
                    t->cycles = 1;
                    if (word(r, w, sizeof w, &at, &too_long)) {
                        if (strcmp(w, "double")) {
                            st = fail(r, DM_EPARSE, at, "expected 'double' or the line's end");
                        }
                        t->cycles = 2;
                    }
                } else {
                    st = fail(r, DM_EPARSE, at, "expected swiss or roundrobin");
                }
                if (st == DM_OK) {
                    st = end_of_line(r);
                }
            } else if (!strcmp(w, "points") || !strcmp(w, "match-points")) {
                int m = w[0] == 'm', v[3];
                for (int i = 0; i < 3 && st == DM_OK; i++) {
                    st = int_arg(r,
                                 i == 0   ? "a win's points"
                                 : i == 1 ? "a draw's"
                                          : "a loss's",
                                 0, 100, &v[i]);
                }
                if (st == DM_OK && !(v[0] > v[1] && v[1] >= v[2])) {
                    st = fail(r, DM_EINVAL, at, "points must be win > draw >= loss");
                }
                if (st == DM_OK && !m && 2 * v[1] != v[0] + v[2]) {
                    st = fail(r, DM_EINVAL, at, "a draw must be worth half a win and a loss");
                }
                if (st == DM_OK) {
                    int *d = m ? &t->match_win : &t->win;
                    d[0] = v[0];
                    d[1] = v[1];
                    d[2] = v[2];
                    st = end_of_line(r);
                }
            } else if (!strcmp(w, "bye")) {
                st = int_arg(r, "a bye's points", 0, 100, &t->bye);
                if (st == DM_OK) {
                    st = end_of_line(r);
                }
            } else if (!strcmp(w, "boards")) {
                st = int_arg(r, "the boards of a match", 1, DM_TOURNEY_MAX_BOARDS, &t->boards);
                if (st == DM_OK) {
                    st = end_of_line(r);
                }
            } else if (!strcmp(w, "tiebreaks")) {
                t->ntiebreaks = 0;
                while (st == DM_OK && word(r, w, sizeof w, &at, &too_long)) {
                    int tb = dm_tourney_tiebreak_from_name(w);
                    if (!tb) {
                        st = fail(r, DM_EPARSE, at,
                                  "expected a tie-break: direct, wins, sonneborn-berger, "
                                  "buchholz, median-buchholz, board-points");
                    } else if (t->ntiebreaks >= DM_TOURNEY_MAX_TIEBREAKS) {
                        st = fail(r, DM_EINVAL, at, "more than %d tie-breaks",
                                  DM_TOURNEY_MAX_TIEBREAKS);
                    } else {
                        t->tiebreaks[t->ntiebreaks++] = tb;
                    }
                }
            } else if (!strcmp(w, "entrant")) {
                st = read_entrant(r, t);
            } else if (!strcmp(w, "round")) {
                int n;
                st = int_arg(r, "the round's number", 1, 10000, &n);
                if (st == DM_OK && n != round + 1) {
                    st = fail(r, DM_EINVAL, at, "round %d follows round %d", n, round);
                }
                if (st == DM_OK && round > 0 && dm_tourney_current_round(t) != round) {
                    st = fail(r, DM_EINVAL, at, "round %d has no pairing", round);
                }
                if (st == DM_OK && t->nentrants < 2) {
                    st = fail(r, DM_EINVAL, at, "a round before two entrants");
                }
                round = n;
                if (st == DM_OK) {
                    st = end_of_line(r);
                }
            } else {
                st = fail(r, DM_EPARSE, at,
                          "expected a statement: event, system, points, match-points, bye, "
                          "boards, tiebreaks, entrant, round");
            }
        }
        if (st != DM_OK) {
            break;
        }
        while (r->pos < r->len && r->text[r->pos] != '\n') {
            r->pos++; /* the comment */
        }
        if (r->pos < r->len) {
            r->pos++;
            r->line++;
        }
    }
    if (st == DM_OK && round > 0 && dm_tourney_current_round(t) != round) {
        st = fail(r, DM_EINVAL, r->pos, "round %d has no pairing", round);
    }
    return st;
}

dm_status dm_tourney_read(dm_tourney *t, const char *text, size_t len, dm_error *err)
{
    dm_tourney_init(t);
    if (!text) {
        return dm_error_set(err, DM_EINVAL, 0, 0, "no text");
    }
    reader r = {text, len, 0, 1, 0, err};
    dm_status st = read_all(&r, t);
    if (st != DM_OK) {
        dm_tourney_free(t);
    }
    return st;
}

/* ---- writing ------------------------------------------------------------------- */

static void put_quoted(dm_strbuf *b, const char *s)
{
    dm_strbuf_put(b, "\"");
    for (; *s; s++) {
        dm_strbuf_put(b, *s == '"' || *s == '\\' ? "\\%c" : "%c", *s);
    }
    dm_strbuf_put(b, "\"");
}

dm_status dm_tourney_write(char **out, size_t *len, const dm_tourney *t)
{
    dm_strbuf b;
    dm_strbuf_init(&b, 256);
    dm_strbuf_put(&b, "# damier tournament file (docs/TOURNEY.md)\n");
    if (t->event[0]) {
        dm_strbuf_put(&b, "event ");
        put_quoted(&b, t->event);
        dm_strbuf_put(&b, "\n");
    }
    if (t->system == DM_TOURNEY_SWISS) {
        dm_strbuf_put(&b, "system swiss %d\n", t->rounds);
    } else {
        dm_strbuf_put(&b, "system roundrobin%s\n", t->cycles > 1 ? " double" : "");
    }
    dm_strbuf_put(&b, "points %d %d %d\n", t->win, t->draw, t->loss);
    dm_strbuf_put(&b, "bye %d\n", t->bye);
    if (t->boards > 0) {
        dm_strbuf_put(&b, "boards %d\n", t->boards);
        dm_strbuf_put(&b, "match-points %d %d %d\n", t->match_win, t->match_draw, t->match_loss);
    }
    if (t->ntiebreaks >= 0) {
        dm_strbuf_put(&b, "tiebreaks");
        for (int i = 0; i < t->ntiebreaks; i++) {
            const char *n = dm_tourney_tiebreak_name(t->tiebreaks[i]);
            dm_strbuf_put(&b, " %s", n ? n : "?");
        }
        dm_strbuf_put(&b, "\n");
    }
    for (int i = 0; i < t->nentrants; i++) {
        const dm_tourney_entrant *e = &t->entrants[i];
        dm_strbuf_put(&b, "entrant ");
        put_quoted(&b, e->name);
        if (e->rating) {
            dm_strbuf_put(&b, " rating %d", e->rating);
        }
        if (e->section[0]) {
            dm_strbuf_put(&b, " section ");
            put_quoted(&b, e->section);
        }
        if (e->categories[0]) {
            dm_strbuf_put(&b, " category ");
            put_quoted(&b, e->categories);
        }
        if (e->withdrawn) {
            dm_strbuf_put(&b, " withdrawn");
        }
        dm_strbuf_put(&b, "   # %d\n", i + 1);
    }
    int round = 0;
    for (int k = 0; k < t->npairings; k++) {
        const dm_tourney_pairing *p = &t->pairings[k];
        if (p->round != round) {
            round = p->round;
            dm_strbuf_put(&b, "round %d\n", round);
        }
        if (p->outcome == DM_TOUT_BYE) {
            dm_strbuf_put(&b, "%d bye\n", p->white + 1);
            continue;
        }
        dm_strbuf_put(&b, "%d - %d", p->white + 1, p->black + 1);
        if (p->outcome == DM_TOUT_PENDING) {
            dm_strbuf_put(&b, " *");
        } else if (p->outcome == DM_TOUT_FORFEIT) {
            int full = t->boards > 0 ? t->boards : 1;
            dm_strbuf_put(&b, " %c%c", p->score[0] == t->win * full ? '+' : '-',
                          p->score[1] == t->win * full ? '+' : '-');
        } else if (t->boards > 0) {
            for (int i = 0; i < t->boards; i++) {
                dm_strbuf_put(&b, " %d-%d", p->board[i][0], p->board[i][1]);
            }
        } else {
            dm_strbuf_put(&b, " %d-%d", p->score[0], p->score[1]);
        }
        dm_strbuf_put(&b, "\n");
    }
    return dm_strbuf_take(&b, out, len) ? DM_OK : DM_ENOMEM;
}
