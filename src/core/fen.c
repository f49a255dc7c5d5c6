/* SPDX-License-Identifier: MIT
 * core/fen.c: draughts FEN (PDN 3.0 FEN tag) and Hub position strings, in and out.
 * Reading is liberal (ranges, any section order, spaces, trailing '.'), writing strict. */
#include <damier/board.h>

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "core/layout.h"

typedef struct fen_reader {
    const char *s; /* the whole text */
    size_t i;      /* current offset */
    dm_error *err;
    int quoted;    /* the text opened with '"' (copied from a tag): '"' may close it */
} fen_reader;

static void skip_space(fen_reader *r)
{
    while (r->s[r->i] == ' ' || r->s[r->i] == '\t') {
        r->i++;
    }
}

/* Describe the character at the current offset for error messages. */
static const char *describe(const fen_reader *r, char *buf, size_t cap)
{
    unsigned char c = (unsigned char)r->s[r->i];
    if (c == 0) {
        snprintf(buf, cap, "end of text");
    } else if (isprint(c)) {
        snprintf(buf, cap, "'%c'", c);
    } else {
        snprintf(buf, cap, "byte 0x%02X", c);
    }
    return buf;
}

static dm_status fail(fen_reader *r, const char *expected)
{
    char what[32];
    return dm_error_set(r->err, DM_EPARSE, 1, (int)r->i + 1, "bad FEN at character %zu: expected %s, found %s",
                        r->i + 1, expected, describe(r, what, sizeof what));
}

/* A square number 1..50 (leading zeros allowed). */
static dm_status read_square(fen_reader *r, int *sq)
{
    size_t start = r->i;
    int v = 0, digits = 0;
    while (isdigit((unsigned char)r->s[r->i])) {
        if (digits < 4) {
            v = v * 10 + (r->s[r->i] - '0');
        }
        digits++;
        r->i++;
    }
    if (digits == 0) {
        return fail(r, "a square number");
    }
    if (digits > 3 || v < 1 || v > DM_SQUARES) {
        r->i = start;
        return dm_error_set(r->err, DM_EPARSE, 1, (int)start + 1,
                            "bad FEN at character %zu: square %.*s is not in 1-50", start + 1,
                            digits > 8 ? 8 : digits, r->s + start);
    }
    *sq = v;
    return DM_OK;
}

static int at_section_end(const fen_reader *r)
{
    char c = r->s[r->i];
    return c == ':' || c == '.' || c == 0 || c == '\r' || c == '\n' ||
           (c == '"' && r->quoted);
}

/* One colour section after its 'W'/'B' letter: a comma-separated list of items
 * "[K]sq" or "[K]sq-sq". */
static dm_status read_section(fen_reader *r, dm_board *b, int color, uint64_t *seen)
{
    skip_space(r);
    if (at_section_end(r)) {
        return DM_OK; /* an empty side */
    }
    for (;;) {
        skip_space(r);
        int king = 0;
        if (r->s[r->i] == 'K' || r->s[r->i] == 'k') {
            king = 1;
            r->i++;
        }
        size_t item = r->i;
        int lo, hi;
        dm_status st = read_square(r, &lo);
        if (st) {
            return st;
        }
        hi = lo;
        skip_space(r);
        if (r->s[r->i] == '-') {
            r->i++;
            skip_space(r);
            st = read_square(r, &hi);
            if (st) {
                return st;
            }
            if (hi < lo) {
                return dm_error_set(r->err, DM_EPARSE, 1, (int)item + 1,
                                    "bad FEN at character %zu: range %d-%d runs backwards",
                                    item + 1, lo, hi);
            }
        }
        for (int sq = lo; sq <= hi; sq++) {
            uint64_t bit = bb_bit(sq_to_bit(sq));
            if (*seen & bit) {
                return dm_error_set(r->err, DM_EPARSE, 1, (int)item + 1,
                                    "bad FEN at character %zu: square %d is given twice",
                                    item + 1, sq);
            }
            *seen |= bit;
            /* Checked here rather than only by dm_board_validate so that the error
             * points at the square in the text. */
            if (!king && (color == DM_WHITE ? sq <= 5 : sq > DM_SQUARES - 5)) {
                return dm_error_set(r->err, DM_EINVAL, 1, (int)item + 1,
                                    "bad FEN at character %zu: %s man on square %d, %s's "
                                    "promotion row (it would be a king: write K%d)",
                                    item + 1, color == DM_WHITE ? "white" : "black", sq,
                                    color == DM_WHITE ? "White" : "Black", sq);
            }
            dm_piece p = color == DM_WHITE ? (king ? DM_WHITE_KING : DM_WHITE_MAN)
                                           : (king ? DM_BLACK_KING : DM_BLACK_MAN);
            dm_board_put(b, sq, p);
        }
        skip_space(r);
        if (r->s[r->i] == ',') {
            r->i++;
            continue;
        }
        if (at_section_end(r)) {
            return DM_OK;
        }
        return fail(r, "',' or ':' or the end");
    }
}

/* Skip a lidraughts counter section ":H12" / ":F7" (digits only). */
static dm_status read_counter(fen_reader *r)
{
    r->i++;
    if (!isdigit((unsigned char)r->s[r->i])) {
        return fail(r, "a number");
    }
    while (isdigit((unsigned char)r->s[r->i])) {
        r->i++;
    }
    skip_space(r);
    return DM_OK;
}

dm_status dm_board_from_fen(dm_board *out, const char *fen, dm_error *err)
{
    if (!out || !fen) {
        return dm_error_set(err, DM_EINVAL, 0, 0, "no FEN given");
    }
    fen_reader r = {fen, 0, err, 0};
    dm_board b;
    dm_board_clear(&b);
    uint64_t seen = 0;
    int have[2] = {0, 0};

    while (isspace((unsigned char)fen[r.i])) {
        r.i++;
    }
    if (fen[r.i] == '"') {
        r.i++; /* tolerate a quoted FEN as copied from a tag */
        r.quoted = 1;
    }
    char side = fen[r.i];
    if (side == 'W' || side == 'w' || side == '?') {
        dm_board_set_side(&b, DM_WHITE);
    } else if (side == 'B' || side == 'b') {
        dm_board_set_side(&b, DM_BLACK);
    } else {
        return fail(&r, "the side to move 'W' or 'B'");
    }
    r.i++;
    skip_space(&r);
    while (fen[r.i] == ':') {
        r.i++;
        skip_space(&r);
        char c = fen[r.i];
        if (c == 'W' || c == 'w' || c == 'B' || c == 'b') {
            int color = (c == 'W' || c == 'w') ? DM_WHITE : DM_BLACK;
            if (have[color]) {
                return fail(&r, "each colour once");
            }
            have[color] = 1;
            r.i++;
            dm_status st = read_section(&r, &b, color, &seen);
            if (st) {
                return st;
            }
        } else if (c == 'H' || c == 'F') {
            dm_status st = read_counter(&r);
            if (st) {
                return st;
            }
        } else {
            return fail(&r, "a colour 'W' or 'B'");
        }
    }
    if (fen[r.i] == '.') {
        r.i++;
    }
    int closed = 0;
    if (fen[r.i] == '"' && r.quoted) {
        r.i++;
        closed = 1;
    }
    while (isspace((unsigned char)fen[r.i])) {
        r.i++;
    }
    if (r.quoted && !closed && !fen[r.i]) {
        /* "\"W:W31-50:B1-20" (a tag value cut short) used to pass silently */
        return fail(&r, "'\"' to close the quoted FEN");
    }
    if (fen[r.i] != 0) {
        return fail(&r, "':' and a colour section, or the end");
    }
    if (!have[0] && !have[1]) {
        return dm_error_set(err, DM_EPARSE, 1, (int)r.i + 1,
                            "bad FEN: no piece section (expected e.g. \"W:W31-50:B1-20\")");
    }
    dm_status st = dm_board_validate(&b, err);
    if (st) {
        return st;
    }
    *out = b;
    return DM_OK;
}

/* Append to buf snprintf-style, tracking the length needed. */
static void put(char *buf, size_t cap, size_t *len, const char *fmt, int a, int c)
{
    char tmp[32];
    int n = snprintf(tmp, sizeof tmp, fmt, a, c);
    for (int k = 0; k < n; k++, (*len)++) {
        if (*len + 1 < cap) {
            buf[*len] = tmp[k];
        }
    }
    if (cap) {
        buf[*len + 1 < cap ? *len : cap - 1] = 0;
    }
}

size_t dm_board_to_fen(char *buf, size_t cap, const dm_board *b)
{
    size_t len = 0;
    if (cap) {
        buf[0] = 0;
    }
    put(buf, cap, &len, "%c", b->side == DM_BLACK ? 'B' : 'W', 0);
    for (int c = 0; c < 2; c++) {
        put(buf, cap, &len, ":%c", c == DM_WHITE ? 'W' : 'B', 0);
        int first = 1;
        for (int sq = 1; sq <= DM_SQUARES;) {
            dm_piece p = dm_board_piece(b, sq);
            int mine = c == DM_WHITE ? (p == DM_WHITE_MAN || p == DM_WHITE_KING)
                                     : (p == DM_BLACK_MAN || p == DM_BLACK_KING);
            if (!mine) {
                sq++;
                continue;
            }
            int end = sq;
            while (end + 1 <= DM_SQUARES && dm_board_piece(b, end + 1) == p) {
                end++;
            }
            const char *k = (p == DM_WHITE_KING || p == DM_BLACK_KING) ? "K" : "";
            if (!first) {
                put(buf, cap, &len, ",", 0, 0);
            }
            first = 0;
            if (end - sq >= 2) {
                put(buf, cap, &len, *k ? "K%d-%d" : "%d-%d", sq, end);
                sq = end + 1;
            } else {
                put(buf, cap, &len, *k ? "K%d" : "%d", sq, 0);
                sq++;
            }
        }
    }
    return len;
}

dm_status dm_board_from_hub(dm_board *out, const char *pos, dm_error *err)
{
    if (!out || !pos) {
        return dm_error_set(err, DM_EINVAL, 0, 0, "no position given");
    }
    dm_board b;
    dm_board_clear(&b);
    if (pos[0] == 'W') {
        dm_board_set_side(&b, DM_WHITE);
    } else if (pos[0] == 'B') {
        dm_board_set_side(&b, DM_BLACK);
    } else {
        return dm_error_set(err, DM_EPARSE, 1, 1,
                            "bad position: character 1 must be the side to move 'W' or 'B'");
    }
    for (int sq = 1; sq <= DM_SQUARES; sq++) {
        dm_piece p;
        switch (pos[sq]) {
        case 'e': p = DM_EMPTY; break;
        case 'w': p = DM_WHITE_MAN; break;
        case 'b': p = DM_BLACK_MAN; break;
        case 'W': p = DM_WHITE_KING; break;
        case 'B': p = DM_BLACK_KING; break;
        case 0:
            return dm_error_set(err, DM_EPARSE, 1, sq + 1,
                                "bad position: %d characters, expected 51", sq);
        default:
            return dm_error_set(err, DM_EPARSE, 1, sq + 1,
                                "bad position: character %d (square %d) must be one of w b W B e",
                                sq + 1, sq);
        }
        if ((p == DM_WHITE_MAN && sq <= 5) || (p == DM_BLACK_MAN && sq > DM_SQUARES - 5)) {
            return dm_error_set(err, DM_EINVAL, 1, sq + 1,
                                "bad position: character %d: %s man on square %d, its "
                                "promotion row (it would be a king)",
                                sq + 1, p == DM_WHITE_MAN ? "white" : "black", sq);
        }
        dm_board_put(&b, sq, p);
    }
    if (pos[51] != 0) {
        return dm_error_set(err, DM_EPARSE, 1, 52, "bad position: longer than 51 characters");
    }
    dm_status st = dm_board_validate(&b, err);
    if (st) {
        return st;
    }
    *out = b;
    return DM_OK;
}

size_t dm_board_to_hub(char *buf, size_t cap, const dm_board *b)
{
    static const char code[] = "ewbWB";
    if (cap >= 52) {
        buf[0] = b->side == DM_BLACK ? 'B' : 'W';
        for (int sq = 1; sq <= DM_SQUARES; sq++) {
            buf[sq] = code[dm_board_piece(b, sq)];
        }
        buf[51] = 0;
    } else if (cap) {
        buf[0] = 0;
    }
    return 51;
}
