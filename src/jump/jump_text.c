/* SPDX-License-Identifier: MIT
 * src/jump/jump_text.c: square names, move text and position strings of the jumping
 * games (damier/jump.h; the formats are described in docs/JUMPING.md). */
#include <stdio.h>
#include <string.h>

#include <damier/jump.h>

#include "jump/jump_int.h"

char *dm_jsquare_name(char *buf, size_t size, const dm_jrules *r, int sq)
{
    if (sq == DM_JOFF_BOARD && r->game == DM_JGAME_GEWU) {
        snprintf(buf, size, "off");
    } else if (r->game == DM_JGAME_HALMA) {
        snprintf(buf, size, "%c%d", 'a' + sq % r->size, sq / r->size + 1);
    } else {
        snprintf(buf, size, "%d", sq + 1);
    }
    return buf;
}

/* Read a square name at *s; advances *s. Returns the 0-based square or -1. */
static int read_square(const dm_jrules *r, const char **s)
{
    const char *t = *s;
    int col = -1, n = 0, digits = 0;
    if (r->game == DM_JGAME_GEWU && !strncmp(t, "off", 3)) {
        *s = t + 3;
        return DM_JOFF_BOARD;
    }
    if (r->game == DM_JGAME_HALMA) {
        if (*t < 'a' || *t >= 'a' + r->size) {
            return -1;
        }
        col = *t++ - 'a';
    }
    while (*t >= '0' && *t <= '9' && digits < 4) {
        n = n * 10 + (*t++ - '0');
        digits++;
    }
    if (!digits || (*t >= '0' && *t <= '9')) {
        return -1;
    }
    *s = t;
    if (r->game == DM_JGAME_HALMA) {
        return n >= 1 && n <= r->size ? (n - 1) * r->size + col : -1;
    }
    return n >= 1 && n <= r->squares ? n - 1 : -1;
}

dm_status dm_jmove_to_text(char *buf, size_t size, const dm_jrules *r, const dm_jpos *p,
                           const dm_jmove *m)
{
    int path[DM_JMAX_PATH];
    int n = dm_jmove_path(r, p, m, path, DM_JMAX_PATH);
    char name[16];
    size_t len = (size_t)snprintf(buf, size, "%s", dm_jsquare_name(name, sizeof name, r, m->from));
    if (n == 0) { /* not legal here: write from and to */
        path[0] = m->to;
        n = 1;
    }
    for (int i = 0; i < n && len < size; i++) {
        len += (size_t)snprintf(buf + len, size - len, "-%s",
                                dm_jsquare_name(name, sizeof name, r, path[i]));
    }
    return len < size ? DM_OK : DM_EBUFS;
}

dm_status dm_jmove_from_text(dm_jmove *m, const dm_jrules *r, const dm_jpos *p, const char *text,
                             dm_error *err)
{
    const char *s = text;
    int sq[DM_JMAX_PATH + 1], cols[DM_JMAX_PATH + 1], n = 0;
    if (!text) {
        return dm_error_set(err, DM_EINVAL, 0, 0, "no move text");
    }
    for (;;) {
        cols[n] = (int)(s - text) + 1;
        int v = read_square(r, &s);
        if (v < 0) {
            return dm_error_set(err, DM_EPARSE, 1, cols[n],
                                "move \"%s\": no square of this board at column %d", text, cols[n]);
        }
        sq[n++] = v;
        if (*s == '\0') {
            break;
        }
        if ((*s != '-' && *s != 'x') || n > DM_JMAX_PATH) {
            return dm_error_set(err, DM_EPARSE, 1, (int)(s - text) + 1,
                                "move \"%s\": expected '-' between squares at column %d", text,
                                (int)(s - text) + 1);
        }
        s++;
    }
    if (n < 2) {
        return dm_error_set(err, DM_EPARSE, 1, (int)(s - text) + 1,
                            "move \"%s\": a move is a from square and at least one landing "
                            "square",
                            text);
    }
    char a[16], b[16];
    if (dm_jpos_winner(p, r) >= 0) {
        return dm_error_set(err, DM_EILLEGAL, 1, 1, "move \"%s\": the game is over", text);
    }
    if (!jset_has(&p->pieces[jpos_mover_seat(r, p)], sq[0])) {
        return dm_error_set(err, DM_EILLEGAL, 1, 1,
                            (r->options & DM_JOPT_CAPTURE)
                                ? "move \"%s\": no peg on %s"
                                : "move \"%s\": no piece of the side to move on %s",
                            text, dm_jsquare_name(a, sizeof a, r, sq[0]));
    }
    dm_jmovelist list;
    dm_jmovegen(&list, r, p);
    const dm_jmove *found = NULL;
    for (int i = 0; i < list.count; i++) {
        if (list.moves[i].from == sq[0] && list.moves[i].to == sq[n - 1]) {
            found = &list.moves[i];
        }
    }
    if (n > 2 || (r->game == DM_JGAME_GEWU && found)) {
        /* Check the path leg by leg (Ge Wu: it must be the path of the throw). */
        int path[DM_JMAX_PATH];
        if (found) {
            int k = dm_jmove_path(r, p, found, path, DM_JMAX_PATH);
            if (r->game == DM_JGAME_GEWU) {
                if (n == 2 || (k == n - 1 && !memcmp(path, sq + 1, (size_t)k * sizeof *path))) {
                    *m = *found;
                    return DM_OK;
                }
                return dm_error_set(err, DM_EILLEGAL, 1, cols[1],
                                    "move \"%s\": the steps of this throw go another way", text);
            }
        }
        dm_jset occ = {{0, 0, 0, 0}}, seen = {{0, 0, 0, 0}};
        for (int s2 = 0; s2 < r->players; s2++) {
            jset_or(&occ, &p->pieces[s2]);
        }
        jset_del(&occ, sq[0]);
        jset_add(&seen, sq[0]);
        for (int i = 1; i < n; i++) {
            int ok = 0;
            for (int d = 0; d < r->dirs && !ok; d++) {
                ok = jump_land(r, &occ, sq[i - 1], d) == sq[i];
            }
            if (!ok || jset_has(&occ, sq[i]) || jset_has(&seen, sq[i])) {
                return dm_error_set(
                    err, DM_EILLEGAL, 1, cols[i], "move \"%s\": %s to %s is not a jump %s", text,
                    dm_jsquare_name(a, sizeof a, r, sq[i - 1]),
                    dm_jsquare_name(b, sizeof b, r, sq[i]),
                    jset_has(&seen, sq[i])  ? "(that square was visited before in this chain)"
                    : jset_has(&occ, sq[i]) ? "(the landing square is taken)"
                                            : "over one adjacent piece onto the square beyond");
            }
            jset_add(&seen, sq[i]);
        }
    }
    if (!found) {
        return dm_error_set(
            err, DM_EILLEGAL, 1, cols[n - 1], "move \"%s\": %s cannot reach %s%s", text,
            dm_jsquare_name(a, sizeof a, r, sq[0]), dm_jsquare_name(b, sizeof b, r, sq[n - 1]),
            r->game == DM_JGAME_GEWU && !p->throw_steps ? " (no throw to play)" : "");
    }
    *m = *found;
    return DM_OK;
}

static char seat_letter(const dm_jrules *r, int s)
{
    return r->game == DM_JGAME_GEWU ? (s ? 'B' : 'W') : (char)('A' + s);
}

static int seat_of(const dm_jrules *r, char c)
{
    for (int s = 0; s < r->players; s++) {
        if (seat_letter(r, s) == c) {
            return s;
        }
    }
    return -1;
}

dm_status dm_jpos_from_text(dm_jpos *p, const dm_jrules *r, const char *text, dm_error *err)
{
    dm_jpos q;
    memset(&q, 0, sizeof q);
    q.won = -1;
    if (!text) {
        return dm_error_set(err, DM_EINVAL, 0, 0, "no position string");
    }
    const char *s = text;
#define COL ((int)(s - text) + 1)
    int side = seat_of(r, *s);
    if (side < 0) {
        return dm_error_set(err, DM_EPARSE, 1, COL,
                            "position: column %d: expected the side to move (%c..%c)", COL,
                            seat_letter(r, 0), seat_letter(r, r->players - 1));
    }
    s++;
    q.to_move = side;
    if (r->game == DM_JGAME_GEWU && *s >= '0' && *s <= '3') {
        q.throw_steps = *s++ - '0';
    }
    int seen_seat[DM_JMAX_PLAYERS] = {0};
    dm_jset all = {{0, 0, 0, 0}};
    while (*s) {
        if (*s != ':') {
            return dm_error_set(err, DM_EPARSE, 1, COL,
                                "position: column %d: expected ':' before a seat's squares", COL);
        }
        s++;
        int seat = seat_of(r, *s);
        if (seat < 0 || seen_seat[seat]) {
            return dm_error_set(err, DM_EPARSE, 1, COL,
                                seat < 0 ? "position: column %d: expected a seat letter"
                                         : "position: column %d: this seat appears twice",
                                COL);
        }
        seen_seat[seat] = 1;
        s++;
        while (*s && *s != ':') {
            int col = COL;
            int a = read_square(r, &s), b = a;
            if (a < 0 || (r->game == DM_JGAME_GEWU && a == DM_JOFF_BOARD)) {
                return dm_error_set(err, DM_EPARSE, 1, col,
                                    "position: column %d: no square of this board", col);
            }
            if (*s == '-' && r->game != DM_JGAME_HALMA) {
                s++;
                b = read_square(r, &s);
                if (b < 0 || b < a || (r->game == DM_JGAME_GEWU && b == DM_JOFF_BOARD)) {
                    return dm_error_set(err, DM_EPARSE, 1, col, "position: column %d: bad range",
                                        col);
                }
            }
            for (int i = a; i <= b; i++) {
                if (jset_has(&all, i)) {
                    char nm[16];
                    return dm_error_set(err, DM_EPARSE, 1, col,
                                        "position: column %d: square %s is named twice", col,
                                        dm_jsquare_name(nm, sizeof nm, r, i));
                }
                if ((r->options & DM_JOPT_CAPTURE) && seat != 0) {
                    return dm_error_set(err, DM_EPARSE, 1, col,
                                        "position: column %d: in the capture game the pegs "
                                        "belong to no seat; write them all after ':A'",
                                        col);
                }
                jset_add(&all, i);
                jset_add(&q.pieces[seat], i);
            }
            if (*s == ',') {
                s++;
                if (!*s || *s == ':') {
                    return dm_error_set(err, DM_EPARSE, 1, COL,
                                        "position: column %d: expected a square after ','", COL);
                }
            } else if (*s && *s != ':') {
                return dm_error_set(err, DM_EPARSE, 1, COL,
                                    "position: column %d: expected ',' or ':'", COL);
            }
        }
    }
    for (int seat = 0; seat < ((r->options & DM_JOPT_CAPTURE) ? 1 : r->players); seat++) {
        if (!seen_seat[seat]) {
            return dm_error_set(err, DM_EPARSE, 1, COL,
                                "position: seat %c has no section (':%c...')", seat_letter(r, seat),
                                seat_letter(r, seat));
        }
    }
#undef COL
    *p = q;
    return DM_OK;
}

dm_status dm_jpos_to_text(char *buf, size_t size, const dm_jrules *r, const dm_jpos *p)
{
    size_t len = (size_t)snprintf(buf, size, "%c", seat_letter(r, p->to_move));
    if (r->game == DM_JGAME_GEWU && p->throw_steps) {
        len += (size_t)snprintf(buf + len, len < size ? size - len : 0, "%d", p->throw_steps);
    }
    /* the capture game: the pegs are nobody's, one section (A) holds them all */
    int sections = (r->options & DM_JOPT_CAPTURE) ? 1 : r->players;
    for (int s = 0; s < sections && len < size; s++) {
        len += (size_t)snprintf(buf + len, size - len, ":%c", seat_letter(r, s));
        const dm_jset *set = &p->pieces[s];
        int first = 1;
        for (int i = jset_next(set, 0); i >= 0 && len < size;) {
            int j = i;
            if (r->game != DM_JGAME_HALMA) {
                while (j + 1 < r->squares && jset_has(set, j + 1)) {
                    j++;
                }
            }
            char a[16], b[16];
            if (j > i) {
                len += (size_t)snprintf(buf + len, size - len, "%s%s-%s", first ? "" : ",",
                                        dm_jsquare_name(a, sizeof a, r, i),
                                        dm_jsquare_name(b, sizeof b, r, j));
            } else {
                len += (size_t)snprintf(buf + len, size - len, "%s%s", first ? "" : ",",
                                        dm_jsquare_name(a, sizeof a, r, i));
            }
            first = 0;
            i = jset_next(set, j + 1);
        }
    }
    return len < size ? DM_OK : DM_EBUFS;
}
