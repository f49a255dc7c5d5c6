/* SPDX-License-Identifier: MIT
 * pdn/irregular.c: accepted irregularities (FMJD 5.4 and 5.7: an illegal move the
 * opponent did not object to before playing on stands). A record marks such a move
 * with a comment directly after it that starts with "accepted irregularity"; the
 * replay and the writer then apply the move as written (docs/PDN.md). */
#include <stdio.h>
#include <string.h>

#include "pdn/pdn_int.h"

#define IRREGULAR_WORDS "accepted irregularity"

/* ASCII case-insensitive comparison of the first n bytes. */
static int casecmp_n(const char *a, const char *b, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        int x = (unsigned char)a[i], y = (unsigned char)b[i];
        x = x >= 'A' && x <= 'Z' ? x + 32 : x;
        y = y >= 'A' && y <= 'Z' ? y + 32 : y;
        if (x != y || !x) {
            return x - y;
        }
    }
    return 0;
}

int pdn_irregular_mark(const dm_pdn_node *nd)
{
    size_t n = strlen(IRREGULAR_WORDS);
    for (int i = 0; nd && i < nd->nafter; i++) {
        const char *c = nd->after[i];
        if (strlen(c) >= n && !casecmp_n(c, IRREGULAR_WORDS, n)) {
            return 1;
        }
    }
    return 0;
}

/* Row (0 = the top, Black's side) and column of square sq on v's usual geometry (the
 * generic core's: square 1 is the first playing square of the top row, which starts
 * on column 1). */
static void coords(const dm_variant *v, int sq, int *r, int *c)
{
    int half = v->size / 2;
    *r = (sq - 1) / half;
    *c = 2 * ((sq - 1) % half) + (*r % 2 == 0 ? 1 : 0);
}

static int square_at(const dm_variant *v, int r, int c)
{
    if (r < 0 || c < 0 || r >= v->size || c >= v->size || (r + c) % 2 == 0) {
        return 0;
    }
    return r * (v->size / 2) + (c - (r % 2 == 0 ? 1 : 0)) / 2 + 1;
}

/* Length of a separator at s ('-', 'x', 'X', ':', U+00D7 in UTF-8), 0 when none. */
static size_t sep_at(const char *s, int *capture)
{
    if (*s == '-') {
        return 1;
    }
    if (*s == 'x' || *s == 'X' || *s == ':') {
        *capture = 1;
        return 1;
    }
    if ((unsigned char)s[0] == 0xC3 && (unsigned char)s[1] == 0x97) {
        *capture = 1;
        return 2;
    }
    return 0;
}

dm_status pdn_apply_written(dm_board *b, const char *text, dm_error *err)
{
    const dm_variant *v = b->variant;
    int sq[DM_MAX_SQUARES + 2], n = 0, capture = 0;
    const char *p = text;
    for (;;) {
        int len = 0;
        int s = dm_square_parse(v, p, &len);
        if (!s || n >= DM_MAX_SQUARES + 1) {
            return dm_error_set(err, DM_EPARSE, 0, (int)(p - text) + 1,
                                "\"%.60s\" cannot be read as squares of %s", text, v->title);
        }
        sq[n++] = s;
        p += len;
        if (!*p) {
            break;
        }
        size_t sl = sep_at(p, &capture);
        if (!sl) {
            return dm_error_set(err, DM_EPARSE, 0, (int)(p - text) + 1,
                                "\"%.60s\" cannot be read as squares of %s", text, v->title);
        }
        p += sl;
        while (*p == ' ') {
            p++;
        }
    }
    if (n < 2) {
        return dm_error_set(err, DM_EPARSE, 0, 1, "\"%.60s\" names no destination", text);
    }
    char a[8], z[8];
    dm_piece pc = (dm_piece)b->sq[sq[0]];
    dm_square_to_text(a, sizeof a, v, sq[0], v->algebraic);
    dm_square_to_text(z, sizeof z, v, sq[n - 1], v->algebraic);
    if (pc == DM_EMPTY) {
        return dm_error_set(err, DM_EILLEGAL, 0, 1, "square %s is empty: nothing to move", a);
    }
    if (sq[n - 1] != sq[0] && b->sq[sq[n - 1]] != DM_EMPTY) {
        return dm_error_set(err, DM_EILLEGAL, 0, 1, "square %s is taken: the piece cannot go there",
                            z);
    }
    int white = pc == DM_WHITE_MAN || pc == DM_WHITE_KING;
    dm_board nb = *b;
    nb.sq[sq[0]] = DM_EMPTY;
    if (capture) {
        /* the pieces the written path jumps: those of the other colour between each
         * two squares of the path, which must be on one diagonal */
        for (int i = 0; i + 1 < n; i++) {
            int r0, c0, r1, c1;
            coords(v, sq[i], &r0, &c0);
            coords(v, sq[i + 1], &r1, &c1);
            int dr = r1 - r0, dc = c1 - c0;
            if (dr == 0 || (dr < 0 ? -dr : dr) != (dc < 0 ? -dc : dc)) {
                char s0[8], s1[8];
                dm_square_to_text(s0, sizeof s0, v, sq[i], v->algebraic);
                dm_square_to_text(s1, sizeof s1, v, sq[i + 1], v->algebraic);
                return dm_error_set(err, DM_EILLEGAL, 0, 1,
                                    "%s and %s are not on one diagonal: write the capture's "
                                    "path (every square where the piece turned)",
                                    s0, s1);
            }
            int sr = dr > 0 ? 1 : -1, scol = dc > 0 ? 1 : -1;
            for (int r = r0 + sr, c = c0 + scol; r != r1; r += sr, c += scol) {
                int t = square_at(v, r, c);
                dm_piece q = (dm_piece)nb.sq[t];
                int qwhite = q == DM_WHITE_MAN || q == DM_WHITE_KING;
                if (q != DM_EMPTY && qwhite != white) {
                    nb.sq[t] = DM_EMPTY;
                }
            }
        }
    }
    int r, c;
    coords(v, sq[n - 1], &r, &c);
    if (pc == DM_WHITE_MAN && r == 0) {
        pc = DM_WHITE_KING;
    } else if (pc == DM_BLACK_MAN && r == v->size - 1) {
        pc = DM_BLACK_KING;
    }
    nb.sq[sq[n - 1]] = (uint8_t)pc;
    nb.side = nb.side == DM_WHITE ? DM_BLACK : DM_WHITE;
    memset(nb.king_sq, 0, sizeof nb.king_sq);
    memset(nb.king_moves, 0, sizeof nb.king_moves);
    *b = nb;
    return DM_OK;
}

void pdn_irregular_note(dm_pdn_replay *out, const dm_pdn_node *nd, int number, int black,
                        const char *why)
{
    if (out->nirregular < DM_PDN_MAX_IRREGULAR) {
        dm_pdn_irregularity *x = &out->irregular[out->nirregular];
        x->node = nd;
        x->move_number = number;
        x->black = black;
        snprintf(x->reason, sizeof x->reason, "%s", why);
    }
    out->nirregular++;
}
