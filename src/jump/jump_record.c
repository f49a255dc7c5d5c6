/* SPDX-License-Identifier: MIT
 * src/jump/jump_record.c: game records of the jumping games in PDN's tag-and-movetext
 * form (damier/jump.h; the format is in docs/JUMPING.md): reading games from a
 * buffer with line/column errors, replaying them, building normalised records and
 * writing them. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <damier/jump.h>

#include "jump/jump_int.h"
#include "util/strbuf.h"

/* ---- small helpers -------------------------------------------------------------- */

static char *dup_n(const char *s, size_t n)
{
    char *d = malloc(n + 1);
    if (d) {
        memcpy(d, s, n);
        d[n] = 0;
    }
    return d;
}

/* Grow *arr (of elem bytes each) so that index n fits; 0 on failure. */
static int grow(void *arr, int n, size_t elem)
{
    void **a = arr;
    if ((n & (n - 1)) == 0 || n == 0) { /* capacities 1, 2, 4, 8, ... */
        size_t cap = n ? (size_t)n * 2 : 1;
        void *q = realloc(*a, cap * elem);
        if (!q) {
            return 0;
        }
        *a = q;
    }
    return 1;
}

void dm_jrecord_free(dm_jrecord *rec)
{
    if (!rec) {
        return;
    }
    for (int i = 0; i < rec->ntags; i++) {
        free(rec->tags[i].name);
        free(rec->tags[i].value);
    }
    free(rec->tags);
    for (int i = 0; i < rec->nitems; i++) {
        free(rec->items[i].text);
    }
    free(rec->items);
    free(rec->result);
    free(rec);
}

const char *dm_jrecord_tag_value(const dm_jrecord *rec, const char *name)
{
    for (int i = 0; i < rec->ntags; i++) {
        if (!strcasecmp(rec->tags[i].name, name)) {
            return rec->tags[i].value;
        }
    }
    return NULL;
}

static int add_tag(dm_jrecord *rec, const char *name, size_t nlen, const char *value, size_t vlen)
{
    if (!grow(&rec->tags, rec->ntags, sizeof *rec->tags)) {
        return 0;
    }
    dm_jrecord_tag *t = &rec->tags[rec->ntags];
    t->name = dup_n(name, nlen);
    t->value = dup_n(value, vlen);
    if (!t->name || !t->value) {
        free(t->name);
        free(t->value);
        return 0;
    }
    rec->ntags++;
    return 1;
}

static int add_item(dm_jrecord *rec, const char *text, size_t n, int number, int line, int col)
{
    if (!grow(&rec->items, rec->nitems, sizeof *rec->items)) {
        return 0;
    }
    dm_jrecord_item *it = &rec->items[rec->nitems];
    it->text = dup_n(text, n);
    if (!it->text) {
        return 0;
    }
    it->number = number;
    it->line = line;
    it->column = col;
    rec->nitems++;
    return 1;
}

/* ---- reading -------------------------------------------------------------------- */

void dm_jrecord_reader_init(dm_jrecord_reader *rd, const char *text, size_t len)
{
    memset(rd, 0, sizeof *rd);
    rd->text = text;
    rd->len = len;
    rd->line = 1;
    rd->col = 1;
    if (len >= 3 && !memcmp(text, "\xEF\xBB\xBF", 3)) {
        rd->pos = 3;
    }
}

static int peek(const dm_jrecord_reader *rd)
{
    return rd->pos < rd->len ? (unsigned char)rd->text[rd->pos] : -1;
}

static int peek_at(const dm_jrecord_reader *rd, size_t k)
{
    return rd->pos + k < rd->len ? (unsigned char)rd->text[rd->pos + k] : -1;
}

static void advance(dm_jrecord_reader *rd)
{
    if (rd->pos >= rd->len) {
        return;
    }
    if (rd->text[rd->pos] == '\n') {
        rd->line++;
        rd->col = 1;
    } else {
        rd->col++;
    }
    rd->pos++;
}

static int is_space(int c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

/* Characters that end an item ('%' too: written at the start of a line an item
 * starting with it would read back as an escape line). */
static int is_delim(int c)
{
    return c <= 0 || is_space(c) || c == '{' || c == '}' || c == '(' || c == ')' || c == '[' ||
           c == ']' || c == ';' || c == '"' || c == '%';
}

/* Skip white space, comments and '%' escape lines. Returns 0, or 1 for a comment
 * that does not end (then rd stands at its '{'). */
static int skip_blank(dm_jrecord_reader *rd)
{
    for (;;) {
        int c = peek(rd);
        if (is_space(c)) {
            advance(rd);
        } else if (c == '%' && rd->col == 1) {
            while (peek(rd) >= 0 && peek(rd) != '\n') {
                advance(rd);
            }
        } else if (c == ';') {
            while (peek(rd) >= 0 && peek(rd) != '\n') {
                advance(rd);
            }
        } else if (c == '{') {
            size_t k = 1;
            while (peek_at(rd, k) >= 0 && peek_at(rd, k) != '}') {
                k++;
            }
            if (peek_at(rd, k) < 0) {
                return 1;
            }
            for (size_t i = 0; i <= k; i++) {
                advance(rd);
            }
        } else {
            return 0;
        }
    }
}

/* What stands at rd, for "found ...". */
static const char *found_what(const dm_jrecord_reader *rd, char *buf, size_t size)
{
    int c = peek(rd);
    if (c < 0) {
        return "the end of the text";
    }
    if (c < 0x20 || c >= 0x7f) {
        snprintf(buf, size, "byte 0x%02X", (unsigned)c);
        return buf;
    }
    size_t n = 0;
    while (n < 20 && !is_delim(peek_at(rd, n))) {
        n++;
    }
    snprintf(buf, size, "'%.*s'", n ? (int)n : 1, rd->text + rd->pos);
    return buf;
}

static dm_status fail(dm_error *err, const dm_jrecord_reader *rd, int number, const char *what)
{
    char f[48];
    return dm_error_set(err, DM_EPARSE, rd->line, rd->col,
                        "game %d, line %d, column %d: expected %s, found %s", number, rd->line,
                        rd->col, what, found_what(rd, f, sizeof f));
}

/* After an error: go on at the next line starting with '[' after a blank line. */
static void skip_game(dm_jrecord_reader *rd)
{
    int blank = 0;
    while (peek(rd) >= 0) {
        if (rd->col == 1) {
            size_t k = 0;
            while (peek_at(rd, k) == ' ' || peek_at(rd, k) == '\t' || peek_at(rd, k) == '\r') {
                k++;
            }
            if (peek_at(rd, k) == '[' && blank) {
                return;
            }
            blank = peek_at(rd, k) == '\n' || peek_at(rd, k) < 0;
        }
        advance(rd);
    }
}

static int is_name_char(int c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '-';
}

static dm_status read_tag(dm_jrecord *rec, dm_jrecord_reader *rd, dm_error *err)
{
    advance(rd); /* '[' */
    while (peek(rd) == ' ' || peek(rd) == '\t') {
        advance(rd);
    }
    size_t n0 = rd->pos;
    while (is_name_char(peek(rd)) && rd->pos - n0 < 64) {
        advance(rd);
    }
    size_t nlen = rd->pos - n0;
    if (nlen == 0 || is_name_char(peek(rd))) {
        return fail(err, rd, rec->number, "a tag name (letters, digits, '_', '-'; 64 at most)");
    }
    while (peek(rd) == ' ' || peek(rd) == '\t') {
        advance(rd);
    }
    if (peek(rd) != '"') {
        return fail(err, rd, rec->number, "'\"' before the tag's value");
    }
    advance(rd);
    /* the value's length first (escapes \" and \\ count once) */
    size_t k = 0, vl = 0;
    for (;; k++, vl++) {
        int c = peek_at(rd, k);
        if (c == '\\' && (peek_at(rd, k + 1) == '"' || peek_at(rd, k + 1) == '\\')) {
            k++;
        } else if (c == '"' || c < 0 || c == '\n' || c == '\r' || c == 0) {
            break;
        }
    }
    char *val = malloc(vl + 1);
    if (!val) {
        return dm_error_set(err, DM_ENOMEM, 0, 0, "out of memory");
    }
    vl = 0;
    for (;;) {
        int c = peek(rd);
        if (c == '"') {
            break;
        }
        if (c < 0 || c == '\n' || c == '\r') {
            free(val);
            return fail(err, rd, rec->number, "'\"' to close the tag's value on its line");
        }
        if (c == '\\' && (peek_at(rd, 1) == '"' || peek_at(rd, 1) == '\\')) {
            advance(rd);
            c = peek(rd);
        }
        if (c == 0) {
            free(val);
            return fail(err, rd, rec->number, "a tag value without NUL bytes");
        }
        val[vl++] = (char)c;
        advance(rd);
    }
    advance(rd); /* '"' */
    while (peek(rd) == ' ' || peek(rd) == '\t') {
        advance(rd);
    }
    if (peek(rd) != ']') {
        free(val);
        return fail(err, rd, rec->number, "']' to end the tag");
    }
    advance(rd);
    int ok = add_tag(rec, rd->text + n0, nlen, val, vl);
    free(val);
    return ok ? DM_OK : dm_error_set(err, DM_ENOMEM, 0, 0, "out of memory");
}

/* A result token: '*', or single digits 0/1 joined by '-' (one per seat). */
static int is_result(const char *s, size_t n)
{
    if (n == 1 && (s[0] == '*' || s[0] == '0' || s[0] == '1')) {
        return 1; /* '1'/'0': the result of the one-player capture puzzle */
    }
    if (n < 3 || n % 2 == 0) {
        return 0;
    }
    for (size_t i = 0; i < n; i++) {
        if (i % 2 ? s[i] != '-' : (s[i] != '0' && s[i] != '1')) {
            return 0;
        }
    }
    return 1;
}

static dm_status read_game(dm_jrecord *rec, dm_jrecord_reader *rd, dm_error *err)
{
    for (;;) {
        if (skip_blank(rd)) {
            return fail(err, rd, rec->number, "'}' to close the comment");
        }
        if (peek(rd) != '[') {
            break;
        }
        dm_status st = read_tag(rec, rd, err);
        if (st != DM_OK) {
            return st;
        }
    }
    int number = 0;
    for (;;) {
        if (skip_blank(rd)) {
            return fail(err, rd, rec->number, "'}' to close the comment");
        }
        int c = peek(rd);
        if (c < 0 || c == '[') {
            return DM_OK; /* the end, or the next game's tags: no result token */
        }
        if (c == '(') {
            return fail(err, rd, rec->number,
                        "an action or a result (variations are not read in the records of "
                        "the jumping games)");
        }
        if (is_delim(c)) {
            return fail(err, rd, rec->number, "an action, a move number or a result");
        }
        int line = rd->line, col = rd->col;
        size_t n = 0;
        while (!is_delim(peek_at(rd, n))) {
            n++;
        }
        const char *t = rd->text + rd->pos;
        /* move numbers "12." (also glued: "12.95-84"); the number applies to the next
         * action */
        size_t d = 0;
        while (d < n && t[d] >= '0' && t[d] <= '9') {
            d++;
        }
        if (d > 0 && d < n && t[d] == '.') {
            if (d > 6) {
                return fail(err, rd, rec->number, "a move number of at most 6 digits");
            }
            number = atoi(t);
            size_t k = d;
            while (k < n && t[k] == '.') {
                k++;
            }
            for (size_t i = 0; i < k; i++) {
                advance(rd);
            }
            continue;
        }
        if (is_result(t, n)) {
            rec->result = dup_n(t, n);
            if (!rec->result) {
                return dm_error_set(err, DM_ENOMEM, 0, 0, "out of memory");
            }
            rec->result_line = line;
            rec->result_column = col;
            for (size_t i = 0; i < n; i++) {
                advance(rd);
            }
            return DM_OK;
        }
        if (n > 1000) {
            return fail(err, rd, rec->number, "an action of at most 1000 characters");
        }
        if (!add_item(rec, t, n, number, line, col)) {
            return dm_error_set(err, DM_ENOMEM, 0, 0, "out of memory");
        }
        number = 0;
        for (size_t i = 0; i < n; i++) {
            advance(rd);
        }
    }
}

dm_status dm_jrecord_next(dm_jrecord **out, dm_jrecord_reader *rd, dm_error *err)
{
    *out = NULL;
    if (skip_blank(rd)) {
        rd->count++;
        dm_status st = fail(err, rd, rd->count, "'}' to close the comment");
        rd->pos = rd->len;
        return st;
    }
    if (peek(rd) < 0) {
        return DM_OK;
    }
    dm_jrecord *rec = calloc(1, sizeof *rec);
    if (!rec) {
        return dm_error_set(err, DM_ENOMEM, 0, 0, "out of memory");
    }
    rec->number = ++rd->count;
    rec->line = rd->line;
    dm_status st = read_game(rec, rd, err);
    if (st != DM_OK) {
        dm_jrecord_free(rec);
        if (st == DM_EPARSE) {
            skip_game(rd);
        }
        return st;
    }
    *out = rec;
    return DM_OK;
}

int dm_jrecord_sniff(const char *text, size_t len)
{
    dm_jrecord_reader rd;
    dm_jrecord_reader_init(&rd, text, len);
    dm_jrecord rec;
    memset(&rec, 0, sizeof rec);
    dm_error err;
    int found = 0;
    for (;;) {
        if (skip_blank(&rd) || peek(&rd) != '[') {
            break;
        }
        size_t before = (size_t)rec.ntags;
        if (read_tag(&rec, &rd, &err) != DM_OK || (size_t)rec.ntags == before) {
            break;
        }
        const dm_jrecord_tag *t = &rec.tags[rec.ntags - 1];
        dm_jgame g;
        if (!strcasecmp(t->name, "Game") && dm_jgame_from_name(&g, t->value, NULL) == DM_OK) {
            found = 1;
        }
    }
    for (int i = 0; i < rec.ntags; i++) {
        free(rec.tags[i].name);
        free(rec.tags[i].value);
    }
    free(rec.tags);
    return found;
}

/* ---- rules and replay ----------------------------------------------------------- */

static int read_int(const char *s, int lo, int hi, int *v)
{
    char *end;
    long x = strtol(s, &end, 10);
    if (!*s || *end || x < lo || x > hi) {
        return 0;
    }
    *v = (int)x;
    return 1;
}

dm_status dm_jrecord_rules(dm_jrules *r, const dm_jrecord *rec, dm_error *err)
{
    const char *game = dm_jrecord_tag_value(rec, "Game");
    const char *players = dm_jrecord_tag_value(rec, "Players");
    const char *board = dm_jrecord_tag_value(rec, "Board");
    const char *opts = dm_jrecord_tag_value(rec, "Options");
    dm_jgame g;
    dm_error e;
    if (!game) {
        return dm_error_set(err, DM_EINVAL, rec->line, 0,
                            "no Game tag ([Game \"chinese-checkers\"], \"halma\" or \"gewu\")");
    }
    if (dm_jgame_from_name(&g, game, &e) != DM_OK) {
        return dm_error_set(err, DM_EINVAL, rec->line, 0, "Game tag: %s", e.message);
    }
    int np = 2, size = 0;
    if (players && !read_int(players, 1, DM_JMAX_PLAYERS, &np)) {
        return dm_error_set(err, DM_EINVAL, rec->line, 0,
                            "Players tag \"%.40s\": a number of players, 2 to 6", players);
    }
    if (board && !read_int(board, 1, 999, &size)) {
        return dm_error_set(err, DM_EINVAL, rec->line, 0, "Board tag \"%.40s\": not a board size",
                            board);
    }
    if (board && g == DM_JGAME_CHINESE && size == 121) {
        size = 0; /* the star's hole count, as a reader may write it */
    }
    unsigned o = 0;
    if (opts && dm_jopts_from_text(&o, opts, &e) != DM_OK) {
        return dm_error_set(err, DM_EINVAL, rec->line, 0, "Options tag: %s", e.message);
    }
    if (dm_jrules_init(r, g, np, size, o, &e) != DM_OK) {
        return dm_error_set(err, DM_EINVAL, rec->line, 0, "%s", e.message);
    }
    return DM_OK;
}

void dm_jresult_text(char *buf, size_t size, const dm_jrules *r, const dm_jpos *p, int ended)
{
    int w = dm_jpos_winner(p, r);
    if (w < 0 && !ended) {
        snprintf(buf, size, "*");
        return;
    }
    size_t len = 0;
    if (size) {
        buf[0] = 0;
    }
    for (int s = 0; s < r->players && len < size; s++) {
        len += (size_t)snprintf(buf + len, size - len, "%s%d", s ? "-" : "", s == w);
    }
}

void dm_jreplay_free(dm_jreplay *rep)
{
    if (rep) {
        free(rep->actions);
        rep->actions = NULL;
    }
}

static char seat_char(const dm_jrules *r, int s)
{
    return r->game == DM_JGAME_GEWU ? (s ? 'B' : 'W') : (char)('A' + s);
}

dm_status dm_jreplay_record(dm_jreplay *out, const dm_jrules *r, const dm_jrecord *rec)
{
    memset(out, 0, sizeof *out);
    out->bad = -1;
    out->winner = -1;
    dm_jpos_start(&out->start, r);
    const char *fen = dm_jrecord_tag_value(rec, "FEN");
    if (fen) {
        dm_error e;
        if (dm_jpos_from_text(&out->start, r, fen, &e) != DM_OK) {
            out->status =
                dm_error_set(&out->err, DM_EPARSE, rec->line, e.column, "FEN tag: %s", e.message);
            out->end = out->start;
            return out->status;
        }
        out->set_up = 1;
    }
    out->actions = malloc(sizeof *out->actions * (size_t)(rec->nitems ? rec->nitems : 1));
    if (!out->actions) {
        return out->status = dm_error_set(&out->err, DM_ENOMEM, 0, 0, "out of memory");
    }
    dm_jpos p = out->start;
    for (int i = 0; i < rec->nitems; i++) {
        const dm_jrecord_item *it = &rec->items[i];
        dm_error e;
        dm_status st;
        int w = dm_jpos_winner(&p, r);
        if (w >= 0) {
            st = dm_error_set(&e, DM_EILLEGAL, 1, 1, "the game is over: seat %c has won",
                              seat_char(r, w));
        } else {
            st = dm_jaction_from_text(&out->actions[i], r, &p, it->text, &e);
        }
        if (st != DM_OK) {
            out->bad = i;
            dm_jpos_to_text(out->pos_before, sizeof out->pos_before, r, &p);
            out->status =
                dm_error_set(&out->err, st, it->line,
                             it->column + (e.column > 0 ? e.column - 1 : 0), "%s", e.message);
            out->end = p;
            return out->status;
        }
        dm_jaction_apply(&p, r, &out->actions[i]);
        out->nactions++;
    }
    out->end = p;
    out->winner = dm_jpos_winner(&p, r);
    if (rec->result && strcmp(rec->result, "*")) {
        int n = ((int)strlen(rec->result) + 1) / 2, ones = 0, who = -1;
        for (int s = 0; s < n; s++) {
            if (rec->result[2 * s] == '1') {
                ones++;
                who = s;
            }
        }
        const char *why = NULL;
        char msg[128];
        if (n != r->players) {
            snprintf(msg, sizeof msg, "it has %d numbers and the game %d seats", n, r->players);
            why = msg;
        } else if (ones > 1) {
            why = "it names more than one winner";
        } else if (who != out->winner) {
            if (out->winner < 0) {
                snprintf(msg, sizeof msg, "seat %c has not won in the final position",
                         seat_char(r, who));
            } else {
                snprintf(msg, sizeof msg, "seat %c has won in the final position",
                         seat_char(r, out->winner));
            }
            why = msg;
        }
        if (why) {
            dm_jpos_to_text(out->pos_before, sizeof out->pos_before, r, &p);
            return out->status =
                       dm_error_set(&out->err, DM_EILLEGAL, rec->result_line, rec->result_column,
                                    "result %s: %s", rec->result, why);
        }
    } else if (rec->result && out->winner >= 0) {
        dm_jpos_to_text(out->pos_before, sizeof out->pos_before, r, &p);
        return out->status = dm_error_set(
                   &out->err, DM_EILLEGAL, rec->result_line, rec->result_column,
                   "result *: the game is over, seat %c has won", seat_char(r, out->winner));
    }
    return out->status = DM_OK;
}

/* ---- building and writing ------------------------------------------------------- */

static int same_pos(const dm_jpos *a, const dm_jpos *b)
{
    return !memcmp(a->pieces, b->pieces, sizeof a->pieces) && a->to_move == b->to_move &&
           a->throw_steps == b->throw_steps;
}

dm_status dm_jrecord_build(dm_jrecord **out, const dm_jrules *r, const dm_jpos *start,
                           const dm_jaction *actions, int nactions, const dm_jrecord_tag *extra,
                           int nextra, const char *result)
{
    *out = NULL;
    dm_jrecord *rec = calloc(1, sizeof *rec);
    if (!rec) {
        return DM_ENOMEM;
    }
    rec->number = 1;
    rec->line = 1;
    char buf[1024];
    int ok = 1;
    const char *gname = dm_jgame_name(r->game);
    ok &= add_tag(rec, "Game", 4, gname, strlen(gname));
    snprintf(buf, sizeof buf, "%d", r->players);
    ok &= add_tag(rec, "Players", 7, buf, strlen(buf));
    if (r->game != DM_JGAME_CHINESE) {
        snprintf(buf, sizeof buf, "%d", r->size);
        ok &= add_tag(rec, "Board", 5, buf, strlen(buf));
    }
    if (r->options) {
        dm_jopts_to_text(buf, sizeof buf, r->options);
        ok &= add_tag(rec, "Options", 7, buf, strlen(buf));
    }
    dm_jpos p0;
    dm_jpos_start(&p0, r);
    if (!same_pos(start, &p0)) {
        dm_jpos_to_text(buf, sizeof buf, r, start);
        ok &= add_tag(rec, "FEN", 3, buf, strlen(buf));
    }
    static const char *const own[] = {"Game", "Players", "Board", "Options", "FEN", "Result"};
    for (int i = 0; i < nextra && ok; i++) {
        int skip = 0;
        for (size_t k = 0; k < sizeof own / sizeof own[0]; k++) {
            skip |= !strcasecmp(extra[i].name, own[k]);
        }
        if (!skip) {
            ok &= add_tag(rec, extra[i].name, strlen(extra[i].name), extra[i].value,
                          strlen(extra[i].value));
        }
    }
    dm_jpos p = *start;
    int round = 0, prev = -1;
    for (int i = 0; i < nactions && ok; i++) {
        int mover = p.to_move, number = 0;
        if (i == 0 || (mover == 0 && prev != 0)) {
            number = ++round;
        }
        prev = mover;
        if (dm_jaction_to_text(buf, sizeof buf, r, &p, &actions[i]) != DM_OK) {
            ok = 0;
            break;
        }
        ok &= add_item(rec, buf, strlen(buf), number, 0, 0);
        dm_jaction_apply(&p, r, &actions[i]);
    }
    if (result) {
        snprintf(buf, sizeof buf, "%s", result);
    } else {
        dm_jresult_text(buf, sizeof buf, r, &p, 0);
    }
    ok &= add_tag(rec, "Result", 6, buf, strlen(buf));
    rec->result = ok ? dup_n(buf, strlen(buf)) : NULL;
    if (!ok || !rec->result) {
        dm_jrecord_free(rec);
        return DM_ENOMEM;
    }
    *out = rec;
    return DM_OK;
}

dm_status dm_jrecord_write(char **out, size_t *len, const dm_jrecord *rec)
{
    dm_strbuf b;
    dm_strbuf_init(&b, 256);
    for (int i = 0; i < rec->ntags; i++) {
        dm_strbuf_put(&b, "[%s \"", rec->tags[i].name);
        for (const char *v = rec->tags[i].value; *v; v++) {
            if (*v == '"' || *v == '\\') {
                dm_strbuf_put(&b, "\\%c", *v);
            } else {
                dm_strbuf_put(&b, "%c", (unsigned char)*v < 0x20 && *v != '\t' ? ' ' : *v);
            }
        }
        dm_strbuf_put(&b, "\"]\n");
    }
    dm_strbuf_put(&b, "\n");
    int col = 0;
    for (int i = 0; i <= rec->nitems; i++) {
        char num[16] = "";
        const char *text = i < rec->nitems ? rec->items[i].text : rec->result ? rec->result : "*";
        if (i < rec->nitems && rec->items[i].number > 0) {
            snprintf(num, sizeof num, "%d. ", rec->items[i].number);
        }
        int w = (int)(strlen(num) + strlen(text));
        if (col > 0 && col + 1 + w > 79) {
            dm_strbuf_put(&b, "\n");
            col = 0;
        }
        dm_strbuf_put(&b, "%s%s%s", col ? " " : "", num, text);
        col += (col ? 1 : 0) + w;
    }
    dm_strbuf_put(&b, "\n\n");
    return dm_strbuf_take(&b, out, len) ? DM_OK : DM_ENOMEM;
}
