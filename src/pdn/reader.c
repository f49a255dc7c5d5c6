/* SPDX-License-Identifier: MIT
 * pdn/reader.c: PDN 3.0 reading grammar, liberal: games one at a time from a buffer.
 * Invariant: every game in the text is either returned or reported (DM_EPARSE), and
 * after an error the reader resynchronises at the next game.
 *
 * Lexing traps handled here (see shared docs/pdn-fen.md):
 * - a move is lexed as ONE token with its padding ("1- 6", "47x 9") and strength mark
 *   ("29-23(?)", "32-28!?"), so "(" of a mark is not a variation and "1-18" is not
 *   the result "1-1" followed by "8";
 * - a result token counts only when white space, a tag or the end follows it, so
 *   "0-1[Event" still ends a game; glued to other text ("0-1www", "1-0{") it is an
 *   error (not a move "0-1", which would run two games together);
 * - "*" is a result when it stands alone, a mark when glued to a move. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pdn/pdn_int.h"

struct dm_pdn_reader {
    const char *text; /* the whole input (not owned) */
    size_t len;
    size_t pos;        /* next byte to read */
    int line;          /* 1-based line of pos */
    size_t line_start; /* offset of the first byte of that line */
    char *name;        /* for messages */
    int count;         /* games returned or reported */
    int broken;        /* set after DM_ENOMEM */
    int glued_result;  /* the last error was a result glued to text: the game ended */
};

/* State of the game being read; an error longjmps nowhere: functions return status. */
typedef struct rd {
    dm_pdn_reader *r;
    dm_pdn_game *g;
    dm_error *err;
    int latin1_noted;
} rd;

#define MAX_DEPTH 64 /* variations nested deeper are refused (stack safety) */

/* ---- characters ----------------------------------------------------------------- */

static int at_end(const dm_pdn_reader *r)
{
    return r->pos >= r->len;
}

static int peek_at(const dm_pdn_reader *r, size_t k)
{
    return r->pos + k < r->len ? (unsigned char)r->text[r->pos + k] : -1;
}

static int peek(const dm_pdn_reader *r)
{
    return peek_at(r, 0);
}

static void advance(dm_pdn_reader *r)
{
    if (r->pos < r->len) {
        if (r->text[r->pos] == '\n') {
            r->line++;
            r->line_start = r->pos + 1;
        }
        r->pos++;
    }
}

static int column(const dm_pdn_reader *r)
{
    return (int)(r->pos - r->line_start) + 1;
}

static int is_space(int c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v';
}

static int is_digit(int c)
{
    return c >= '0' && c <= '9';
}

/* Characters that end a move or result token (a NUL byte too: it is then reported
 * where it stands instead of riding along silently in the token). */
static int is_delim(int c)
{
    return c <= 0 || is_space(c) || c == '{' || c == '}' || c == '(' || c == ')' || c == '[' ||
           c == ']' || c == ';' || c == '$' || c == '%';
}

/* Skip white space and `%` escape lines (a `%` in the first column hides the line). */
static void skip_space(dm_pdn_reader *r)
{
    while (!at_end(r)) {
        int c = peek(r);
        if (is_space(c)) {
            advance(r);
        } else if (c == '%' && r->pos == r->line_start) {
            while (!at_end(r) && peek(r) != '\n') {
                advance(r);
            }
        } else {
            break;
        }
    }
}

/* ---- text conversion -------------------------------------------------------------- */

static int valid_utf8(const unsigned char *s, size_t n)
{
    size_t i = 0;
    while (i < n) {
        unsigned c = s[i];
        size_t k;
        if (c < 0x80) {
            i++;
            continue;
        } else if (c >= 0xC2 && c <= 0xDF) {
            k = 1;
        } else if (c >= 0xE0 && c <= 0xEF) {
            k = 2;
        } else if (c >= 0xF0 && c <= 0xF4) {
            k = 3;
        } else {
            return 0;
        }
        for (size_t j = 1; j <= k; j++) {
            if (i + j >= n || (s[i + j] & 0xC0) != 0x80) {
                return 0;
            }
        }
        i += k + 1;
    }
    return 1;
}

static int add_note(rd *d, const char *msg)
{
    for (int i = 0; i < d->g->nnotes; i++) {
        if (!strcmp(d->g->notes[i], msg)) {
            return 1;
        }
    }
    return pdn_push_str(&d->g->notes, &d->g->nnotes, pdn_strndup(msg, strlen(msg)));
}

/* s[0..n) as a new UTF-8 string: kept as is when valid UTF-8, else read as Latin-1.
 * With collapse, runs of white space become one space and the ends are trimmed.
 * NUL bytes are dropped with a note (they used to cut the text short silently:
 * a comment {ab<NUL>cd} became {ab}). */
static char *make_text(rd *d, const char *s, size_t n, int collapse)
{
    const unsigned char *u = (const unsigned char *)s;
    int latin1 = !valid_utf8(u, n);
    char *out = malloc(2 * n + 1);
    if (!out) {
        return NULL;
    }
    size_t o = 0;
    int pending_space = 0, dropped_nul = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned c = u[i];
        if (c == 0) {
            dropped_nul = 1;
            continue;
        }
        if (collapse && is_space((int)c)) {
            pending_space = o > 0;
            continue;
        }
        if (pending_space) {
            out[o++] = ' ';
            pending_space = 0;
        }
        if (latin1 && c >= 0x80) {
            out[o++] = (char)(0xC0 | (c >> 6));
            out[o++] = (char)(0x80 | (c & 0x3F));
        } else {
            out[o++] = (char)c;
        }
    }
    out[o] = 0;
    if (dropped_nul && !add_note(d, "NUL bytes in a tag value or comment were dropped")) {
        free(out);
        return NULL;
    }
    if (latin1 && !d->latin1_noted) {
        d->latin1_noted = 1;
        if (!add_note(d, "text that is not UTF-8 was read as Latin-1")) {
            free(out);
            return NULL;
        }
    }
    return out;
}

/* ---- errors ----------------------------------------------------------------------- */

/* Describe the character at the reader's position for "found ..." (buf >= 32 bytes). */
static const char *found_what(const dm_pdn_reader *r, char *buf, size_t cap)
{
    int c = peek(r);
    if (c < 0) {
        return "the end of the text";
    }
    if (c == '\n' || c == '\r') {
        return "the end of the line";
    }
    if (c >= 0x20 && c < 0x7F) {
        snprintf(buf, cap, "'%c'", c);
    } else {
        snprintf(buf, cap, "byte 0x%02X", (unsigned)c);
    }
    return buf;
}

/* Report an error at (line, col): "<name>: game N, line L, column C: <what>". */
static dm_status fail_at(rd *d, int line, int col, const char *fmt, const char *a, const char *b)
{
    char what[320];
    snprintf(what, sizeof what, fmt, a ? a : "", b ? b : "");
    return dm_error_set(d->err, DM_EPARSE, line, col, "%s: game %d, line %d, column %d: %s",
                        d->r->name, d->g->number, line, col, what);
}

/* "expected <what>, found <char at pos>" at the reader's position. */
static dm_status expected(rd *d, const char *what)
{
    char buf[32];
    return fail_at(d, d->r->line, column(d->r), "expected %s, found %s", what,
                   found_what(d->r, buf, sizeof buf));
}

static dm_status nomem(rd *d)
{
    d->r->broken = 1;
    return dm_error_set(d->err, DM_ENOMEM, 0, 0, "out of memory reading %s", d->r->name);
}

/* ---- tokens ----------------------------------------------------------------------- */

size_t pdn_result_len(const char *s, size_t avail)
{
    static const char *const results[] = {"1/2-1/2", "2-0", "0-2", "1-1", "1-0", "0-1", "0-0", "*"};
    for (size_t i = 0; i < sizeof results / sizeof results[0]; i++) {
        size_t n = strlen(results[i]);
        if (n <= avail && !memcmp(s, results[i], n) &&
            (n == avail || is_delim((unsigned char)s[n]))) {
            return n;
        }
    }
    /* U+00BD VULGAR FRACTION ONE HALF, as some programs write draws: "½-½" */
    static const char half[] = "\xC2\xBD-\xC2\xBD";
    size_t n = sizeof half - 1;
    if (n <= avail && !memcmp(s, half, n) && (n == avail || is_delim((unsigned char)s[n]))) {
        return n;
    }
    return 0;
}

static size_t result_here(const dm_pdn_reader *r)
{
    return pdn_result_len(r->text + r->pos, r->len - r->pos);
}

/* Length of a result token at the position that is glued to text ("0-1www", "1-0."),
 * or 0. A result counts only before white space, a tag or the end; before a digit it
 * is the start of a move ("1-18"); before anything else it is neither a result nor a
 * move, and reading it as a move "0-1" (it used to be) loses the game boundary. */
static size_t glued_result_here(const dm_pdn_reader *r)
{
    static const char *const results[] = {"1/2-1/2", "2-0", "0-2", "1-1",
                                          "1-0",     "0-1", "0-0", "\xC2\xBD-\xC2\xBD"};
    for (size_t i = 0; i < sizeof results / sizeof results[0]; i++) {
        size_t n = strlen(results[i]);
        if (n < r->len - r->pos && !memcmp(r->text + r->pos, results[i], n)) {
            int c = peek_at(r, n);
            if (!is_space(c) && c != '[' && !is_digit(c)) {
                return n;
            }
        }
    }
    return 0;
}

/* Length of a square at k bytes ahead: digits, or a letter a-h/A-H with digits. */
static size_t square_len(const dm_pdn_reader *r, size_t k)
{
    size_t i = k;
    int c = peek_at(r, i);
    if ((c >= 'a' && c <= 'h') || (c >= 'A' && c <= 'H')) {
        i++;
    }
    size_t d = i;
    while (is_digit(peek_at(r, i))) {
        i++;
    }
    return i > d ? i - k : 0;
}

/* Length of a capture or move separator at k, or 0. */
static size_t sep_len(const dm_pdn_reader *r, size_t k)
{
    int c = peek_at(r, k);
    if (c == '-' || c == 'x' || c == 'X' || c == ':') {
        return 1;
    }
    if (c == 0xC3 && peek_at(r, k + 1) == 0x97) {
        return 2; /* U+00D7 in UTF-8 */
    }
    if (c == 0xD7) {
        return 1; /* U+00D7 in Latin-1 */
    }
    return 0;
}

/* Length of one annotation mark at k, or 0 (the grammar is in docs/PDN.md):
 *   strength   [!?]+        "!" "!!" "?" "??" "!?" "?!" (longer runs read liberally)
 *              "(" [!?]+ ")"  the same in parentheses, kept as written: "(?)"
 *   forced     "*"
 *   outcome    "+" (a win) or "=" (a draw) at the end of the line
 *   material   ("+" | "-") digit [digit]: pieces won or lost at the end of the line;
 *              also in parentheses, "(-1)", stored without them
 *   ad libitum "a.l." (several capture routes with the same result)
 * A '-' followed by a digit directly after the move's last square continues the move
 * ("32-28-1" is a move through 28 to 1): lex_move never gets here with it, so "-N"
 * is a mark only after another mark or in parentheses. */
static size_t mark_atom_len(const dm_pdn_reader *r, size_t k)
{
    int c = peek_at(r, k);
    size_t i = k;
    if (c == '!' || c == '?') {
        while (peek_at(r, i) == '!' || peek_at(r, i) == '?') {
            i++;
        }
        return i - k;
    }
    if (c == '*' || c == '=') {
        return 1;
    }
    if (c == '+' || c == '-') {
        i++;
        while (is_digit(peek_at(r, i)) && i - k <= 2) {
            i++;
        }
        /* "+" alone is the outcome; "-" alone is no mark */
        return i - k > 1 || c == '+' ? i - k : 0;
    }
    if (c == 'a' && peek_at(r, k + 1) == '.' && peek_at(r, k + 2) == 'l' &&
        peek_at(r, k + 3) == '.') {
        return 4;
    }
    if (c == '(') {
        i = k + 1;
        int d = peek_at(r, i);
        if (d == '!' || d == '?') {
            while (peek_at(r, i) == '!' || peek_at(r, i) == '?') {
                i++;
            }
        } else if ((d == '+' || d == '-') && is_digit(peek_at(r, i + 1))) {
            i += 2;
            if (is_digit(peek_at(r, i))) {
                i++;
            }
        } else {
            return 0;
        }
        return peek_at(r, i) == ')' ? i + 1 - k : 0;
    }
    return 0;
}

/* Length of the marks glued at k (any number of atoms, one after the other). */
static size_t mark_len(const dm_pdn_reader *r, size_t k)
{
    size_t i = k, a;
    while ((a = mark_atom_len(r, i)) > 0) {
        i += a;
    }
    return i - k;
}

/* Can a mark start at k? (a character a mark begins with, not a variation's '('). */
static int mark_starts(const dm_pdn_reader *r, size_t k)
{
    int c = peek_at(r, k);
    return c == '!' || c == '?' || c == '*' || c == '=' || c == '+' ||
           (c == 'a' && peek_at(r, k + 1) == '.');
}

static int is_letter(int c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}

/* Lex a move at the reader's position: squares joined by separators (padding spaces
 * after '-' allowed), then an optional mark. Sets *mlen to the move part, *klen to the
 * mark. Returns the token length, 0 when no move starts here. Words glued after a move
 * that ends in a digit ("8-11Redoversteppedthetimecontrol.", tinsley.pdn) are a comment
 * written without braces: *glen gets their length (they follow the mark). Other text
 * glued after it (up to a delimiter) is included in the move part so that it is
 * reported, not lost; but marks followed by anything but a delimiter ("32-28!x",
 * "32-28+123", "32-28a.l") are a malformed mark: *bad gets 1 + the offset of the first
 * byte that is not part of a mark (0 when the marks are well formed). */
static size_t lex_move(const dm_pdn_reader *r, size_t *mlen, size_t *klen, size_t *glen,
                       size_t *bad)
{
    *glen = 0;
    *bad = 0;
    size_t i = 0;
    int squares = 0;
    for (;;) {
        size_t s = square_len(r, i);
        if (!s) {
            break;
        }
        i += s;
        squares++;
        size_t sl = sep_len(r, i);
        if (sl) {
            size_t j = i + sl;
            /* padding after any separator: "1- 6", "47x 9" */
            while (peek_at(r, j) == ' ') {
                j++;
            }
            if (!square_len(r, j)) {
                break;
            }
            i = j;
        } else {
            int c = peek_at(r, i);
            /* algebraic squares written without a separator: "a3b4" */
            if (!((c >= 'a' && c <= 'h') && square_len(r, i))) {
                break;
            }
        }
    }
    if (squares < 2) {
        return 0;
    }
    *mlen = i;
    *klen = mark_len(r, i);
    size_t end = i + *klen;
    if (is_digit(peek_at(r, i - 1)) && is_letter(peek_at(r, end)) &&
        is_letter(peek_at(r, end + 1)) && is_letter(peek_at(r, end + 2))) {
        size_t g = end;
        while (!is_delim(peek_at(r, g))) {
            g++;
        }
        *glen = g - end;
        return g;
    }
    /* "(" glued to the move opens a variation, unless a mark follows it: then the mark
     * is not closed ("32-28(?", "32-28(-1 ") */
    int open_mark =
        peek_at(r, end) == '(' && (peek_at(r, end + 1) == '!' || peek_at(r, end + 1) == '?' ||
                                   ((peek_at(r, end + 1) == '+' || peek_at(r, end + 1) == '-') &&
                                    is_digit(peek_at(r, end + 2))));
    if (open_mark || (!is_delim(peek_at(r, end)) && (*klen > 0 || mark_starts(r, i)))) {
        *bad = end + 1;
        end += open_mark;
        while (!is_delim(peek_at(r, end))) {
            end++;
        }
        return end;
    }
    if (!is_delim(peek_at(r, end))) {
        while (!is_delim(peek_at(r, end))) {
            end++;
        }
        *mlen = end;
        *klen = 0;
    }
    return end;
}

/* ---- tags ------------------------------------------------------------------------- */

static int is_name_char(int c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || is_digit(c) || c == '_' || c == '-';
}

static dm_status read_tag(rd *d)
{
    dm_pdn_reader *r = d->r;
    advance(r); /* '[' */
    while (peek(r) == ' ' || peek(r) == '\t') {
        advance(r);
    }
    size_t n0 = r->pos;
    while (is_name_char(peek(r))) {
        advance(r);
    }
    if (r->pos == n0) {
        return expected(d, "a tag name after '['");
    }
    size_t n1 = r->pos;
    while (peek(r) == ' ' || peek(r) == '\t') {
        advance(r);
    }
    char *value = NULL;
    if (peek(r) == '"') {
        int qline = r->line, qcol = column(r);
        advance(r);
        /* unescape \" and \\ into a scratch copy */
        size_t v0 = r->pos;
        while (!at_end(r) && peek(r) != '"' && peek(r) != '\n') {
            if (peek(r) == '\\' && (peek_at(r, 1) == '"' || peek_at(r, 1) == '\\')) {
                advance(r);
            }
            advance(r);
        }
        if (peek(r) != '"') {
            char nm[64];
            snprintf(nm, sizeof nm, "%.*s", (int)(n1 - n0 > 40 ? 40 : n1 - n0), r->text + n0);
            return fail_at(d, qline, qcol, "expected '\"' to close the value of tag %s%s", nm,
                           " on the same line");
        }
        size_t v1 = r->pos;
        advance(r);
        char *raw = malloc(v1 - v0 + 1);
        if (!raw) {
            return nomem(d);
        }
        size_t o = 0;
        int cr = 0;
        for (size_t i = v0; i < v1; i++) {
            if (r->text[i] == '\\' && i + 1 < v1 &&
                (r->text[i + 1] == '"' || r->text[i + 1] == '\\')) {
                i++;
            }
            /* a carriage return is a space (as the writer, which cannot write one in
             * a value, writes it: read -> write -> read gives the same value) */
            cr |= r->text[i] == '\r';
            raw[o++] = r->text[i] == '\r' ? ' ' : r->text[i];
        }
        if (cr && !add_note(d, "a carriage return in a tag value was read as a space")) {
            free(raw);
            return nomem(d);
        }
        value = make_text(d, raw, o, 0);
        free(raw);
    } else {
        /* liberal: an unquoted value runs to ']' on the same line */
        size_t v0 = r->pos;
        while (!at_end(r) && peek(r) != ']' && peek(r) != '\n') {
            advance(r);
        }
        size_t v1 = r->pos;
        while (v1 > v0 && is_space((unsigned char)r->text[v1 - 1])) {
            v1--;
        }
        value = make_text(d, r->text + v0, v1 - v0, 0);
        if (value && !add_note(d, "a tag value without quotes was accepted")) {
            free(value);
            return nomem(d);
        }
    }
    if (!value) {
        return nomem(d);
    }
    while (peek(r) == ' ' || peek(r) == '\t') {
        advance(r);
    }
    if (peek(r) != ']') {
        free(value);
        return expected(d, "']' to close the tag");
    }
    advance(r);
    char *name = pdn_strndup(r->text + n0, n1 - n0);
    if (!name || !pdn_grow(&d->g->tags, d->g->ntags, sizeof *d->g->tags)) {
        free(name);
        free(value);
        return nomem(d);
    }
    d->g->tags[d->g->ntags].name = name;
    d->g->tags[d->g->ntags].value = value;
    d->g->ntags++;
    return DM_OK;
}

/* ---- movetext --------------------------------------------------------------------- */

/* What ended a line of movetext. */
enum {
    END_EOF,
    END_RESULT,
    END_TAG,
    END_PAREN
};

typedef struct line_state {
    dm_pdn_line *line;
    char **pending; /* comments waiting for the next node (after a variation) */
    int npending;
    int last;     /* index of the last node, -1 before the first */
    int var_seen; /* a variation followed the last node */
    int number;   /* move number waiting for the next node */
    int number_black;
} line_state;

static dm_status read_line(rd *d, dm_pdn_line *line, int depth, int *ended);

/* Note a move number that no move followed ("6." at the end of a game). */
static int note_lone_number(rd *d, const line_state *ls)
{
    char msg[96];
    snprintf(msg, sizeof msg, "move number %d%s without a move was ignored", ls->number,
             ls->number_black ? "..." : ".");
    return add_note(d, msg);
}

/* Read a comment at the position ('{' or ';') into a new string in *out. */
static dm_status read_comment(rd *d, char **out)
{
    dm_pdn_reader *r = d->r;
    int line = r->line, col = column(r);
    int brace = peek(r) == '{';
    advance(r);
    size_t c0 = r->pos;
    if (brace) {
        while (!at_end(r) && peek(r) != '}') {
            if (peek(r) == '{') {
                char at[48];
                snprintf(at, sizeof at, "line %d, column %d", line, col);
                return fail_at(d, r->line, column(r),
                               "expected '}' to close the comment opened at %s%s, found '{' "
                               "(comments do not nest)",
                               at, "");
            }
            advance(r);
        }
        if (at_end(r)) {
            char at[48];
            snprintf(at, sizeof at, "line %d, column %d", line, col);
            return fail_at(d, r->line, column(r),
                           "expected '}' to close the comment opened at %s%s", at, "");
        }
    } else {
        while (!at_end(r) && peek(r) != '\n') {
            advance(r);
        }
    }
    size_t c1 = r->pos;
    if (brace) {
        advance(r);
    }
    *out = make_text(d, r->text + c0, c1 - c0, 1);
    return *out ? DM_OK : nomem(d);
}

static dm_status add_comment(rd *d, line_state *ls, char *text)
{
    int ok;
    if (ls->last >= 0 && !ls->var_seen) {
        dm_pdn_node *nd = &ls->line->nodes[ls->last];
        ok = pdn_push_str(&nd->after, &nd->nafter, text);
    } else {
        ok = pdn_push_str(&ls->pending, &ls->npending, text);
    }
    return ok ? DM_OK : nomem(d);
}

/* Append a node of kind with text[0..n) and mark[0..k); takes the pending comments
 * and move number. */
static dm_status add_node(rd *d, line_state *ls, int kind, const char *text, size_t n,
                          const char *mark, size_t k, int line, int col)
{
    dm_pdn_line *l = ls->line;
    if (!pdn_grow(&l->nodes, l->nnodes, sizeof *l->nodes)) {
        return nomem(d);
    }
    dm_pdn_node *nd = &l->nodes[l->nnodes];
    memset(nd, 0, sizeof *nd);
    nd->kind = kind;
    /* A move's capture sign U+00D7 may come as UTF-8 (C3 97) next to bytes that are
     * not UTF-8 (a Latin-1 sign D7, or stray bytes glued to the move): converted as
     * Latin-1 as a whole, the UTF-8 sign became "\xC3\x83\xC2\x97", which is no
     * separator, and the move written back did not read (fuzz findings
     * corpus/pdn/finding-mixed-times-signs, -times-sign-and-latin1). Such a token is
     * converted here, as Latin-1 but for the UTF-8 sign, which stays. */
    char *norm = NULL;
    if (kind == DM_PDN_NODE_MOVE && !valid_utf8((const unsigned char *)text, n)) {
        norm = malloc(2 * n + 1);
        if (!norm) {
            return nomem(d);
        }
        size_t o = 0;
        for (size_t i = 0; i < n; i++) {
            unsigned char c = (unsigned char)text[i];
            if (c == 0xC3 && i + 1 < n && (unsigned char)text[i + 1] == 0x97) {
                norm[o++] = (char)c;
                norm[o++] = text[++i];
            } else if (c >= 0x80) {
                norm[o++] = (char)(0xC0 | (c >> 6));
                norm[o++] = (char)(0x80 | (c & 0x3F));
            } else {
                norm[o++] = (char)c;
            }
        }
        text = norm;
        n = o;
        if (!d->latin1_noted) {
            d->latin1_noted = 1;
            if (!add_note(d, "text that is not UTF-8 was read as Latin-1")) {
                free(norm);
                return nomem(d);
            }
        }
    }
    nd->text = make_text(d, text, n, 0);
    free(norm);
    if (!nd->text) {
        return nomem(d);
    }
    if (k) {
        nd->mark = pdn_strndup(mark, k);
        if (nd->mark) {
            /* "(-1)" and "(+1)" are stored as "-1" and "+1" (the writer puts a "-N" that
             * follows the move's last square back in parentheses); "(?)" stays */
            char *o = nd->mark;
            for (const char *p = nd->mark; *p; p++) {
                if (*p == '(' && (p[1] == '+' || p[1] == '-')) {
                    const char *q = strchr(p, ')');
                    size_t len = (size_t)(q - p - 1);
                    memmove(o, p + 1, len);
                    o += len;
                    p = q;
                } else {
                    *o++ = *p;
                }
            }
            *o = 0;
        }
        if (!nd->mark) {
            free(nd->text);
            return nomem(d);
        }
    }
    l->nnodes++;
    nd->number = ls->number;
    nd->number_black = ls->number_black;
    nd->before = ls->pending;
    nd->nbefore = ls->npending;
    nd->line = line;
    nd->column = col;
    ls->pending = NULL;
    ls->npending = 0;
    ls->number = 0;
    ls->number_black = 0;
    ls->last = l->nnodes - 1;
    ls->var_seen = 0;
    return DM_OK;
}

/* "/FEN "..."/" setup command. */
static dm_status read_setup(rd *d, line_state *ls)
{
    dm_pdn_reader *r = d->r;
    int line = r->line, col = column(r);
    advance(r); /* '/' */
    while (peek(r) == ' ') {
        advance(r);
    }
    if (!(peek(r) == 'F' && peek_at(r, 1) == 'E' && peek_at(r, 2) == 'N')) {
        return expected(d, "FEN after '/' (setup command /FEN \"...\"/)");
    }
    advance(r), advance(r), advance(r);
    while (peek(r) == ' ') {
        advance(r);
    }
    if (peek(r) != '"') {
        return expected(d, "'\"' before the FEN of the setup command");
    }
    advance(r);
    size_t f0 = r->pos;
    while (!at_end(r) && peek(r) != '"' && peek(r) != '\n') {
        advance(r);
    }
    if (peek(r) != '"') {
        return expected(d, "'\"' after the FEN of the setup command");
    }
    size_t f1 = r->pos;
    advance(r);
    while (peek(r) == ' ') {
        advance(r);
    }
    if (peek(r) != '/') {
        return expected(d, "'/' to end the setup command");
    }
    advance(r);
    return add_node(d, ls, DM_PDN_NODE_SETUP, r->text + f0, f1 - f0, NULL, 0, line, col);
}

static dm_status read_nag(rd *d, line_state *ls)
{
    dm_pdn_reader *r = d->r;
    int line = r->line, col = column(r);
    advance(r); /* '$' */
    if (!is_digit(peek(r))) {
        return expected(d, "a number after '$' (NAG)");
    }
    int v = 0;
    for (int digits = 1; is_digit(peek(r)); digits++) {
        if (digits > 6) { /* used to be clamped silently */
            return expected(d, "a NAG of at most 6 digits");
        }
        v = v * 10 + (peek(r) - '0');
        advance(r);
    }
    if (ls->last < 0 || ls->var_seen) {
        return fail_at(d, line, col, "expected a move before the NAG $%s%s", "", "");
    }
    dm_pdn_node *nd = &ls->line->nodes[ls->last];
    if (!pdn_grow(&nd->nags, nd->nnags, sizeof *nd->nags)) {
        return nomem(d);
    }
    nd->nags[nd->nnags++] = v;
    return DM_OK;
}

/* Does nothing but white space follow the k bytes at the position, up to the end, a
 * blank line or a line that starts with '['? */
static int game_ends_after(const dm_pdn_reader *r, size_t k)
{
    size_t i = r->pos + k;
    int newlines = 0;
    for (; i < r->len; i++) {
        char c = r->text[i];
        if (c == '\n') {
            if (++newlines == 2) {
                return 1;
            }
        } else if (c == '[' && newlines > 0) {
            return 1;
        } else if (!is_space((unsigned char)c)) {
            return 0;
        }
    }
    return 1;
}

/* A token starting with a digit or letter: result, move number, or move. */
static dm_status read_word(rd *d, line_state *ls, int depth, int *ended)
{
    dm_pdn_reader *r = d->r;
    int line = r->line, col = column(r);
    size_t gl = glued_result_here(r);
    if (gl) {
        char res[16], buf[32];
        snprintf(res, sizeof res, "%.*s", (int)gl, r->text + r->pos);
        for (size_t i = 0; i < gl; i++) {
            advance(r);
        }
        r->glued_result = depth == 0;
        return fail_at(d, r->line, column(r),
                       "expected white space, a tag or the end of the text after the result "
                       "%s, found %s",
                       res, found_what(r, buf, sizeof buf));
    }
    size_t rl = result_here(r);
    if (rl) {
        if (depth > 0) {
            return fail_at(d, line, col,
                           "expected ')' to close the variation before the result %s%s", "", "");
        }
        d->g->result = make_text(d, r->text + r->pos, rl, 0);
        if (!d->g->result) {
            return nomem(d);
        }
        for (size_t i = 0; i < rl; i++) {
            advance(r);
        }
        *ended = END_RESULT;
        return DM_OK;
    }
    /* a non-standard result, as the Result tag has it ("4-6" match scores), where the
     * game ends */
    const char *rt = dm_pdn_game_tag(d->g, "Result");
    size_t rtl = rt ? strlen(rt) : 0;
    if (depth == 0 && rtl > 0 && rtl <= r->len - r->pos && !memcmp(r->text + r->pos, rt, rtl) &&
        is_delim(peek_at(r, rtl)) && game_ends_after(r, rtl)) {
        d->g->result = make_text(d, rt, rtl, 0);
        if (!d->g->result || !add_note(d, "a result token that is not a PDN result, as in the "
                                          "Result tag, ended the movetext")) {
            return nomem(d);
        }
        for (size_t i = 0; i < rtl; i++) {
            advance(r);
        }
        *ended = END_RESULT;
        return DM_OK;
    }
    /* move number: digits then '.' (then maybe "..", or " ..." for Black) */
    size_t i = 0;
    while (is_digit(peek_at(r, i))) {
        i++;
    }
    if (i > 0 && peek_at(r, i) == '.') {
        if (i > 6) { /* 99999999999. used to become 999999. silently */
            return expected(d, "a move number of at most 6 digits");
        }
        int v = 0;
        for (size_t k = 0; k < i; k++) {
            v = v * 10 + (peek(r) - '0');
            advance(r);
        }
        int dots = 0;
        while (peek(r) == '.') {
            dots++;
            advance(r);
        }
        size_t k = 0;
        while (peek_at(r, k) == ' ' || peek_at(r, k) == '\t') {
            k++;
        }
        int black = dots >= 2;
        if (!black && peek_at(r, k) == '.' && peek_at(r, k + 1) == '.' &&
            peek_at(r, k + 2) == '.' && is_delim(peek_at(r, k + 3))) {
            /* "1. ... 7-12": the dots stand for White's move we do not show */
            for (size_t j = 0; j < k + 3; j++) {
                advance(r);
            }
            black = 1;
        }
        if (ls->number && !note_lone_number(d, ls)) {
            return nomem(d);
        }
        ls->number = v;
        ls->number_black = black;
        return DM_OK;
    }
    size_t mlen, klen, glen, bad;
    size_t n = lex_move(r, &mlen, &klen, &glen, &bad);
    if (!n) {
        return expected(d, "a move, a move number, a comment, a variation or a result");
    }
    if (bad) {
        /* a move token never spans lines: the column is the token's plus the offset */
        char mv[48], mk[40], buf[32];
        snprintf(mv, sizeof mv, "%.*s", (int)(mlen > 40 ? 40 : mlen), r->text + r->pos);
        size_t kl = n - mlen;
        snprintf(mk, sizeof mk, "\"%.*s\"", (int)(kl > 30 ? 30 : kl), r->text + r->pos + mlen);
        for (size_t k = 0; k + 1 < bad; k++) {
            advance(r);
        }
        char what[300];
        snprintf(what, sizeof what,
                 "malformed mark %s after the move %s: expected one of ! ? !! ?? !? ?! * + = "
                 "+N -N a.l. (docs/PDN.md) or a delimiter, found %s",
                 mk, mv, found_what(r, buf, sizeof buf));
        return fail_at(d, r->line, column(r), "%s%s", what, "");
    }
    dm_status st = add_node(d, ls, DM_PDN_NODE_MOVE, r->text + r->pos, mlen,
                            r->text + r->pos + mlen, klen, line, col);
    if (st == DM_OK && glen > 0) {
        char *c = make_text(d, r->text + r->pos + n - glen, glen, 1);
        if (!c) {
            return nomem(d);
        }
        st = add_comment(d, ls, c);
        if (st == DM_OK && !add_note(d, "words glued to a move were read as a comment after it")) {
            return nomem(d);
        }
    }
    for (size_t k = 0; k < n; k++) {
        advance(r);
    }
    return st;
}

static dm_status read_item(rd *d, line_state *ls, int depth, int *ended)
{
    dm_pdn_reader *r = d->r;
    int c = peek(r);
    int line = r->line, col = column(r);
    dm_status st;
    if (c == '{' || c == ';') {
        char *text;
        st = read_comment(d, &text);
        return st ? st : add_comment(d, ls, text);
    }
    if (c == '(') {
        if (ls->last < 0) {
            return expected(d, "a move before the variation '('");
        }
        if (depth + 1 >= MAX_DEPTH) {
            return fail_at(d, line, col, "variations nested too deeply%s%s", "", "");
        }
        advance(r);
        dm_pdn_node *nd = &ls->line->nodes[ls->last];
        if (!pdn_grow(&nd->variations, nd->nvariations, sizeof *nd->variations)) {
            return nomem(d);
        }
        dm_pdn_line *v = &nd->variations[nd->nvariations++];
        memset(v, 0, sizeof *v);
        int vend = END_EOF;
        st = read_line(d, v, depth + 1, &vend);
        if (st) {
            return st;
        }
        if (vend != END_PAREN) {
            char at[48];
            snprintf(at, sizeof at, "line %d, column %d", line, col);
            return fail_at(d, r->line, column(r),
                           "expected ')' to close the variation opened at %s%s", at, "");
        }
        ls->var_seen = 1;
        return DM_OK;
    }
    if (c == ')') {
        if (depth == 0) {
            return expected(d, "a move or a result (no variation is open)");
        }
        advance(r);
        *ended = END_PAREN;
        return DM_OK;
    }
    if (c == '[') {
        if (depth > 0) {
            return expected(d, "')' to close the variation before the next tag");
        }
        *ended = END_TAG;
        return DM_OK;
    }
    if (c == '}') {
        return expected(d, "a move (a '}' without '{'; comments do not nest)");
    }
    if (c == '$') {
        return read_nag(d, ls);
    }
    if (c == '/') {
        return read_setup(d, ls);
    }
    if (c == '*' && is_delim(peek_at(r, 1))) {
        return read_word(d, ls, depth, ended);
    }
    if (c == '.' || c == '-') {
        size_t k = 0;
        while (peek_at(r, k) == c) {
            k++;
        }
        if (is_delim(peek_at(r, k))) {
            if (c == '.' && k != 3) {
                /* a stray '.' (seen as "8-3 . 1-0"): harmless, noted */
                for (size_t j = 0; j < k; j++) {
                    advance(r);
                }
                return add_note(d, "a stray '.' in the movetext was ignored") ? DM_OK : nomem(d);
            }
            for (size_t j = 0; j < k; j++) {
                advance(r);
            }
            return add_node(d, ls, DM_PDN_NODE_UNKNOWN, r->text + r->pos - k, k, NULL, 0, line,
                            col);
        }
    }
    if (is_digit(c) || (c >= 'a' && c <= 'h') || (c >= 'A' && c <= 'H') || c == 0xC2) {
        return read_word(d, ls, depth, ended);
    }
    return expected(d, "a move, a move number, a comment, a variation or a result");
}

static dm_status read_line(rd *d, dm_pdn_line *line, int depth, int *ended)
{
    line_state ls = {line, NULL, 0, -1, 0, 0, 0};
    dm_status st = DM_OK;
    *ended = END_EOF;
    for (;;) {
        skip_space(d->r);
        if (at_end(d->r)) {
            *ended = END_EOF;
            break;
        }
        int e = -1;
        st = read_item(d, &ls, depth, &e);
        if (st) {
            break;
        }
        if (e >= 0) {
            *ended = e;
            break;
        }
    }
    if (st == DM_OK && ls.number && !note_lone_number(d, &ls)) {
        st = nomem(d);
    }
    /* comments not yet attached end the line */
    for (int i = 0; i < ls.npending; i++) {
        if (st == DM_OK) {
            if (!pdn_push_str(&line->end, &line->nend, ls.pending[i])) {
                st = nomem(d);
            }
        } else {
            free(ls.pending[i]);
        }
    }
    free(ls.pending);
    return st;
}

/* ---- games ------------------------------------------------------------------------ */

/* After an error: skip to the next line that opens a tag section and follows a blank
 * line or a line ending with a result token, or that starts with a digit (a game
 * without tags: "1. 32-28 ...") after a line ending with a result token and maybe
 * blank lines (or to the end). Tagless games after an unreadable one used to be
 * skipped without a word, all of them. */
static void resync(dm_pdn_reader *r)
{
    /* move to the start of the next line */
    while (!at_end(r) && peek(r) != '\n') {
        advance(r);
    }
    /* a result glued to text ended the game: the next line may start the next one */
    int prev_ok = r->glued_result, after_result = r->glued_result;
    r->glued_result = 0;
    /* the error line itself may end with a result */
    {
        size_t e = r->pos;
        while (e > r->line_start && is_space((unsigned char)r->text[e - 1])) {
            e--;
        }
        for (size_t s = r->line_start; s < e; s++) {
            if ((s == r->line_start || is_space((unsigned char)r->text[s - 1])) &&
                pdn_result_len(r->text + s, e - s) == e - s) {
                prev_ok = after_result = 1;
                break;
            }
        }
    }
    advance(r);
    while (!at_end(r)) {
        size_t s = r->pos;
        size_t e = s;
        while (e < r->len && r->text[e] != '\n') {
            e++;
        }
        size_t a = s;
        while (a < e && is_space((unsigned char)r->text[a])) {
            a++;
        }
        size_t z = e;
        while (z > a && is_space((unsigned char)r->text[z - 1])) {
            z--;
        }
        if (a < z && ((r->text[a] == '[' && prev_ok) || (is_digit(r->text[a]) && after_result))) {
            while (r->pos < a) {
                advance(r);
            }
            return;
        }
        int blank = a == z;
        int result_end = 0;
        for (size_t t = a; t < z && !blank; t++) {
            if ((t == a || is_space((unsigned char)r->text[t - 1])) &&
                pdn_result_len(r->text + t, z - t) == z - t) {
                result_end = 1;
                break;
            }
        }
        prev_ok = blank || result_end;
        after_result = blank ? after_result : result_end;
        while (r->pos < e) {
            advance(r);
        }
        advance(r);
    }
}

static int game_is_empty(const dm_pdn_game *g)
{
    return g->ntags == 0 && g->main.nnodes == 0 && g->main.nend == 0;
}

dm_status dm_pdn_reader_next(dm_pdn_game **out, dm_pdn_reader *r, dm_error *err)
{
    if (!out || !r) {
        return dm_error_set(err, DM_EINVAL, 0, 0, "no reader given");
    }
    *out = NULL;
    if (r->broken) {
        return dm_error_set(err, DM_ESTATE, 0, 0, "the reader failed earlier (out of memory)");
    }
    skip_space(r);
    if (at_end(r)) {
        return DM_OK;
    }
    rd d = {r, NULL, err, 0};
    if (dm_pdn_game_new(&d.g) != DM_OK) {
        r->broken = 1;
        return dm_error_set(err, DM_ENOMEM, 0, 0, "out of memory reading %s", r->name);
    }
    d.g->number = ++r->count;
    d.g->line = r->line;
    dm_status st = DM_OK;
    /* tag section (comments between tags wait for the first move) */
    dm_pdn_line pre = {0};
    for (;;) {
        skip_space(r);
        if (peek(r) == '[') {
            st = read_tag(&d);
        } else if (peek(r) == '{' || (peek(r) == ';')) {
            char *text = NULL;
            st = read_comment(&d, &text);
            if (st == DM_OK && !pdn_push_str(&pre.end, &pre.nend, text)) {
                st = nomem(&d);
            }
        } else {
            break;
        }
        if (st) {
            break;
        }
    }
    int ended = END_EOF;
    if (st == DM_OK) {
        if (d.g->ntags > 0 || pre.nend > 0 || !at_end(r)) {
            st = read_line(&d, &d.g->main, 0, &ended);
        }
    }
    if (st == DM_OK && pre.nend > 0) {
        /* comments before the movetext go before its first node (or to its end) */
        dm_pdn_line *m = &d.g->main;
        char ***dst = m->nnodes ? &m->nodes[0].before : &m->end;
        int *dn = m->nnodes ? &m->nodes[0].nbefore : &m->nend;
        /* capacity as pdn_grow expects it: a power of two, at least 4 */
        size_t cap = 4;
        while (cap < (size_t)(pre.nend + *dn)) {
            cap *= 2;
        }
        char **merged = malloc(sizeof *merged * cap);
        if (!merged) {
            st = nomem(&d);
        } else {
            memcpy(merged, pre.end, sizeof *merged * (size_t)pre.nend);
            if (*dn) {
                memcpy(merged + pre.nend, *dst, sizeof *merged * (size_t)*dn);
            }
            free(*dst);
            *dst = merged;
            *dn += pre.nend;
            free(pre.end);
            pre.end = NULL;
            pre.nend = 0;
        }
    }
    pdn_line_clear(&pre);
    if (st == DM_OK && game_is_empty(d.g) && ended == END_RESULT) {
        st = fail_at(&d, d.g->line, 1, "expected tags or moves before the result %s%s", d.g->result,
                     "");
    }
    if (st == DM_OK && ended == END_RESULT && peek(r) == '[') {
        if (!add_note(&d, "the result was glued to the next tag")) {
            st = nomem(&d);
        }
    }
    if (st != DM_OK) {
        dm_pdn_game_free(d.g);
        if (st == DM_EPARSE) {
            resync(r);
        }
        return st;
    }
    *out = d.g;
    return DM_OK;
}

dm_status dm_pdn_reader_new(dm_pdn_reader **out, const char *text, size_t len, const char *name)
{
    if (!out || (!text && len)) {
        return DM_EINVAL;
    }
    *out = NULL;
    dm_pdn_reader *r = calloc(1, sizeof *r);
    if (!r) {
        return DM_ENOMEM;
    }
    const char *nm = name ? name : "(pdn)";
    r->name = pdn_strndup(nm, strlen(nm));
    if (!r->name) {
        free(r);
        return DM_ENOMEM;
    }
    r->text = text ? text : "";
    r->len = len;
    r->line = 1;
    if (len >= 3 && !memcmp(text, "\xEF\xBB\xBF", 3)) {
        r->pos = 3; /* UTF-8 byte order mark; columns count from after it */
        r->line_start = 3;
    }
    *out = r;
    return DM_OK;
}

void dm_pdn_reader_free(dm_pdn_reader *r)
{
    if (r) {
        free(r->name);
        free(r);
    }
}

int dm_pdn_reader_count(const dm_pdn_reader *r)
{
    return r ? r->count : 0;
}
