/* SPDX-License-Identifier: MIT
 * core/fen.c: draughts FEN (PDN 3.0 FEN tag) and Hub position strings, in and out.
 * Reading is liberal (ranges, any section order, spaces, trailing '.'), writing strict. */
#include "core/board10.h"
#include <damier/variant.h>

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "core/layout.h"

/* One FEN reader for every variant (core/vboard.c); international is its 10x10 FMJD
 * instance. A second reader here once accepted a quoted FEN that the variant reader
 * refused, so that a PDN game's rules were guessed differently on the second reading
 * (fuzz finding tests/fuzz/corpus/pdn/finding-guessed-gametype-added). */
dm_status dm_board10_from_fen(dm_board10 *out, const char *fen, dm_error *err)
{
    if (!out || !fen) {
        return dm_error_set(err, DM_EINVAL, 0, 0, "no FEN given");
    }
    dm_board vb;
    dm_status st = dm_board_from_fen(&vb, dm_variant_get(DM_VARIANT_INTERNATIONAL), fen, err);
    if (st) {
        return st;
    }
    dm_board10 b;
    st = dm_board_to_board10(&b, &vb);
    if (st == DM_OK) {
        st = dm_board10_validate(&b, err);
    }
    if (st == DM_OK) {
        *out = b;
    }
    return st;
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

size_t dm_board10_to_fen(char *buf, size_t cap, const dm_board10 *b)
{
    size_t len = 0;
    if (cap) {
        buf[0] = 0;
    }
    put(buf, cap, &len, "%c", b->side == DM_BLACK ? 'B' : 'W', 0);
    for (int c = 0; c < 2; c++) {
        put(buf, cap, &len, ":%c", c == DM_WHITE ? 'W' : 'B', 0);
        int first = 1;
        for (int sq = 1; sq <= DM_SQUARES10;) {
            dm_piece p = dm_board10_piece(b, sq);
            int mine = c == DM_WHITE ? (p == DM_WHITE_MAN || p == DM_WHITE_KING)
                                     : (p == DM_BLACK_MAN || p == DM_BLACK_KING);
            if (!mine) {
                sq++;
                continue;
            }
            int end = sq;
            while (end + 1 <= DM_SQUARES10 && dm_board10_piece(b, end + 1) == p) {
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

dm_status dm_board10_from_hub(dm_board10 *out, const char *pos, dm_error *err)
{
    if (!out || !pos) {
        return dm_error_set(err, DM_EINVAL, 0, 0, "no position given");
    }
    dm_board10 b;
    dm_board10_clear(&b);
    if (pos[0] == 'W') {
        dm_board10_set_side(&b, DM_WHITE);
    } else if (pos[0] == 'B') {
        dm_board10_set_side(&b, DM_BLACK);
    } else {
        return dm_error_set(err, DM_EPARSE, 1, 1,
                            "bad position: character 1 must be the side to move 'W' or 'B'");
    }
    for (int sq = 1; sq <= DM_SQUARES10; sq++) {
        dm_piece p;
        switch (pos[sq]) {
            case 'e':
                p = DM_EMPTY;
                break;
            case 'w':
                p = DM_WHITE_MAN;
                break;
            case 'b':
                p = DM_BLACK_MAN;
                break;
            case 'W':
                p = DM_WHITE_KING;
                break;
            case 'B':
                p = DM_BLACK_KING;
                break;
            case 0:
                return dm_error_set(err, DM_EPARSE, 1, sq + 1,
                                    "bad position: %d characters, expected 51", sq);
            default:
                return dm_error_set(
                    err, DM_EPARSE, 1, sq + 1,
                    "bad position: character %d (square %d) must be one of w b W B e", sq + 1, sq);
        }
        if ((p == DM_WHITE_MAN && sq <= 5) || (p == DM_BLACK_MAN && sq > DM_SQUARES10 - 5)) {
            return dm_error_set(err, DM_EINVAL, 1, sq + 1,
                                "bad position: character %d: %s man on square %d, its "
                                "promotion row (it would be a king)",
                                sq + 1, p == DM_WHITE_MAN ? "white" : "black", sq);
        }
        dm_board10_put(&b, sq, p);
    }
    if (pos[51] != 0) {
        return dm_error_set(err, DM_EPARSE, 1, 52, "bad position: longer than 51 characters");
    }
    dm_status st = dm_board10_validate(&b, err);
    if (st) {
        return st;
    }
    *out = b;
    return DM_OK;
}

size_t dm_board10_to_hub(char *buf, size_t cap, const dm_board10 *b)
{
    static const char code[] = "ewbWB";
    if (cap >= 52) {
        buf[0] = b->side == DM_BLACK ? 'B' : 'W';
        for (int sq = 1; sq <= DM_SQUARES10; sq++) {
            buf[sq] = code[dm_board10_piece(b, sq)];
        }
        buf[51] = 0;
    } else if (cap) {
        buf[0] = 0;
    }
    return 51;
}
