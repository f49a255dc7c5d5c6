/* SPDX-License-Identifier: MIT
 * core/vboard.c: the generic board of every variant (a mailbox of up to 72 dark
 * squares), its square names (numeric per board size, algebraic) and its FEN.
 * Reading is liberal (ranges, algebraic or numeric squares, any section order,
 * spaces, trailing '.', lidraughts :H/:F counters), writing strict. */
#include "core/move10.h"
#include <damier/variant.h>

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "core/variant_int.h"

void dm_board_clear(dm_board *out, const dm_variant *v)
{
    memset(out, 0, sizeof *out);
    out->variant = v;
    out->side = v->first;
}

void dm_board_start(dm_board *out, const dm_variant *v)
{
    dm_board_clear(out, v);
    int per_row = v->squares / v->size; /* n/2, or n on the full board (Turkish) */
    int skip = v->men_skip_rows * per_row, n = v->men_rows * per_row;
    for (int sq = skip + 1; sq <= skip + n; sq++) {
        out->sq[sq] = DM_BLACK_MAN;
        out->sq[v->squares + 1 - sq] = DM_WHITE_MAN;
    }
}

dm_piece dm_board_piece(const dm_board *b, int sq)
{
    if (sq < 1 || sq > b->variant->squares) {
        return DM_EMPTY;
    }
    return (dm_piece)b->sq[sq];
}

dm_status dm_board_put(dm_board *b, int sq, dm_piece piece)
{
    if (sq < 1 || sq > b->variant->squares || (int)piece < 0 || piece > DM_BLACK_KING) {
        return DM_EINVAL;
    }
    b->sq[sq] = (uint8_t)piece;
    return DM_OK;
}

dm_status dm_board_validate(const dm_board *b, dm_error *err)
{
    const dm_variant *v = b->variant;
    if (b->side != DM_WHITE && b->side != DM_BLACK) {
        return dm_error_set(err, DM_EINVAL, 0, 0, "side to move is neither White nor Black");
    }
    for (int sq = 1; sq <= v->squares; sq++) {
        int p = b->sq[sq];
        if (p > DM_BLACK_KING) {
            return dm_error_set(err, DM_EINVAL, 0, 0, "square %d holds no valid piece",
                                dm_square_number(v, sq));
        }
        if (vg_is_man(p) && vg_row(v, sq) == vg_promo_row(v, vg_color(p))) {
            return dm_error_set(
                err, DM_EINVAL, 0, 0, "a %s man stands on square %d, its own promotion row",
                vg_color(p) == DM_WHITE ? "white" : "black", dm_square_number(v, sq));
        }
    }
    return DM_OK;
}

dm_status dm_board_to_board10(dm_board10 *out, const dm_board *b)
{
    if (b->variant->squares != DM_SQUARES10) {
        return DM_EINVAL;
    }
    dm_board10_clear(out);
    for (int sq = 1; sq <= DM_SQUARES10; sq++) {
        if (b->sq[sq]) {
            dm_board10_put(out, sq, (dm_piece)b->sq[sq]);
        }
    }
    dm_board10_set_side(out, (dm_color)b->side);
    return DM_OK;
}

dm_status dm_board_from_board10(dm_board *out, const dm_variant *v, const dm_board10 *b)
{
    if (v->squares != DM_SQUARES10) {
        return DM_EINVAL;
    }
    dm_board_clear(out, v);
    for (int sq = 1; sq <= DM_SQUARES10; sq++) {
        out->sq[sq] = (uint8_t)dm_board10_piece(b, sq);
    }
    out->side = b->side;
    return DM_OK;
}

/* ---- square names ----------------------------------------------------------- */

/* The same square with the files mirrored (a<->h): the order inside each row of
 * n/2 squares reversed. An involution. */
static int mirror_sq(const dm_variant *v, int sq)
{
    int h = v->size / 2;
    return h * ((sq - 1) / h) + h - (sq - 1) % h;
}

int dm_square_number(const dm_variant *v, int sq)
{
    if (!v || sq < 1 || sq > v->squares) {
        return 0;
    }
    int n = v->invert ? mirror_sq(v, sq) : sq;
    return v->numbering == DM_NUMBER_BOTTOM_RIGHT ? v->squares + 1 - n : n;
}

int dm_square_from_number(const dm_variant *v, int n)
{
    if (!v || n < 1 || n > v->squares) {
        return 0;
    }
    int sq = v->numbering == DM_NUMBER_BOTTOM_RIGHT ? v->squares + 1 - n : n;
    return v->invert ? mirror_sq(v, sq) : sq;
}

size_t dm_square_to_text(char *buf, size_t cap, const dm_variant *v, int sq, int algebraic)
{
    if (sq < 1 || sq > v->squares) {
        return (size_t)snprintf(buf, cap, "?");
    }
    if (!algebraic) {
        return (size_t)snprintf(buf, cap, "%d", dm_square_number(v, sq));
    }
    int r = vg_row(v, sq), c = vg_col(v, sq);
    int file = v->invert ? v->size - 1 - c : c, rank = v->size - r; /* a1 bottom-left */
    if (v->algebraic_flipped) { /* the first mover (Black) sits on rank 1 */
        file = v->size - 1 - c;
        rank = r + 1;
    }
    return (size_t)snprintf(buf, cap, "%c%d", 'a' + file, rank);
}

int dm_square_parse(const dm_variant *v, const char *text, int *len)
{
    const unsigned char *t = (const unsigned char *)text;
    int used = 0, sq = 0;
    if (t[0] >= 'a' && t[0] < 'a' + v->size && isdigit(t[1])) {
        int file = t[0] - 'a', rank = t[1] - '0';
        used = 2;
        if (isdigit(t[2]) && rank * 10 + (t[2] - '0') <= v->size) {
            rank = rank * 10 + (t[2] - '0');
            used = 3;
        }
        if (rank < 1 || rank > v->size) {
            return 0;
        }
        int r = v->size - rank, c = v->invert ? v->size - 1 - file : file;
        if (v->algebraic_flipped) {
            r = rank - 1;
            c = v->size - 1 - file;
        }
        sq = vg_square(v, r, c);
    } else if (isdigit(t[0])) {
        long n = 0;
        while (isdigit(t[used])) {
            if (n < 1000) {
                n = n * 10 + (t[used] - '0');
            }
            used++;
        }
        sq = (n >= 1 && n <= v->squares) ? dm_square_from_number(v, (int)n) : 0;
    }
    if (len) {
        *len = sq ? used : 0;
    }
    return sq;
}

/* ---- FEN ------------------------------------------------------------------------ */

typedef struct vfen {
    const dm_variant *v;
    const char *s; /* the whole text */
    size_t i;      /* current offset */
    dm_error *err;
    int quoted; /* the text opened with '"' (copied from a tag): '"' may close it */
} vfen;

/* Blanks, tabs and line ends are all space inside a FEN: a PDN writer turns a line
 * end in a tag value into a blank, and a FEN must read the same before and after
 * (fuzz finding corpus/pdn/finding-line-end-in-fen). */
static void skip_space(vfen *r)
{
    while (r->s[r->i] == ' ' || r->s[r->i] == '\t' || r->s[r->i] == '\r' || r->s[r->i] == '\n') {
        r->i++;
    }
}

static dm_status fail(vfen *r, const char *expected)
{
    unsigned char c = (unsigned char)r->s[r->i];
    char what[32];
    if (c == 0) {
        snprintf(what, sizeof what, "end of text");
    } else if (isprint(c)) {
        snprintf(what, sizeof what, "'%c'", c);
    } else {
        snprintf(what, sizeof what, "byte 0x%02X", c);
    }
    return dm_error_set(r->err, DM_EPARSE, 1, (int)r->i + 1,
                        "bad FEN at character %zu: expected %s, found %s", r->i + 1, expected,
                        what);
}

static dm_status read_square(vfen *r, int *sq)
{
    int len;
    int s = dm_square_parse(r->v, r->s + r->i, &len);
    if (!s) {
        if (isdigit((unsigned char)r->s[r->i]) || isalpha((unsigned char)r->s[r->i])) {
            size_t n = 0;
            while (isalnum((unsigned char)r->s[r->i + n])) {
                n++;
            }
            if (isdigit((unsigned char)r->s[r->i])) {
                return dm_error_set(r->err, DM_EPARSE, 1, (int)r->i + 1,
                                    "bad FEN at character %zu: square %.*s is not in 1-%d",
                                    r->i + 1, (int)(n > 8 ? 8 : n), r->s + r->i, r->v->squares);
            }
            return dm_error_set(r->err, DM_EPARSE, 1, (int)r->i + 1,
                                "bad FEN at character %zu: '%.*s' is not a square of %s "
                                "(1-%d or a1-%c%d)",
                                r->i + 1, (int)(n > 8 ? 8 : n), r->s + r->i, r->v->name,
                                r->v->squares, 'a' + r->v->size - 1, r->v->size);
        }
        return fail(r, "a square number");
    }
    r->i += (size_t)len;
    *sq = s;
    return DM_OK;
}

static int at_section_end(const vfen *r)
{
    char c = r->s[r->i];
    return c == ':' || c == '.' || c == 0 || (c == '"' && r->quoted);
}

static dm_status read_section(vfen *r, dm_board *b, int color, uint8_t *seen)
{
    skip_space(r);
    if (at_section_end(r)) {
        return DM_OK;
    }
    for (;;) {
        skip_space(r);
        int king = 0;
        /* 'K' marks a king; so does 'k', except on a board with a k file (12x12),
         * where "k1" is the square k1 (the writer puts kings as "Kk1"): read as a
         * king, a FEN with a man on k1 came back as a king on square 1. */
        char c = r->s[r->i];
        int k_file =
            b->variant->size >= 11 && c == 'k' && r->s[r->i + 1] >= '0' && r->s[r->i + 1] <= '9';
        if ((c == 'K' || c == 'k') && !k_file) {
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
        }
        /* a range runs over the record's numbers (Italian 21-32 is White's start) */
        lo = dm_square_number(b->variant, lo);
        hi = dm_square_number(b->variant, hi);
        if (hi < lo) {
            return dm_error_set(r->err, DM_EPARSE, 1, (int)item + 1,
                                "bad FEN at character %zu: range %d-%d runs backwards", item + 1,
                                lo, hi);
        }
        for (int num = lo; num <= hi; num++) {
            int sq = dm_square_from_number(b->variant, num);
            if (seen[sq]) {
                return dm_error_set(r->err, DM_EPARSE, 1, (int)item + 1,
                                    "bad FEN at character %zu: square %d is given twice", item + 1,
                                    num);
            }
            seen[sq] = 1;
            /* Checked here rather than only by dm_board_validate so that the error
             * points at the square in the text. */
            if (!king && vg_row(b->variant, sq) == vg_promo_row(b->variant, color)) {
                char name[16];
                dm_square_to_text(name, sizeof name, b->variant, sq, 0);
                return dm_error_set(r->err, DM_EINVAL, 1, (int)item + 1,
                                    "bad FEN at character %zu: %s man on square %s, %s's "
                                    "promotion row (it would be a king: write K%s)",
                                    item + 1, color == DM_WHITE ? "white" : "black", name,
                                    color == DM_WHITE ? "White" : "Black", name);
            }
            b->sq[sq] = (uint8_t)(color == DM_WHITE ? (king ? DM_WHITE_KING : DM_WHITE_MAN)
                                                    : (king ? DM_BLACK_KING : DM_BLACK_MAN));
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

dm_status dm_board_from_fen(dm_board *out, const dm_variant *v, const char *fen, dm_error *err)
{
    if (!out || !v || !fen) {
        return dm_error_set(err, DM_EINVAL, 0, 0, "no FEN given");
    }
    vfen r = {v, fen, 0, err, 0};
    dm_board b;
    dm_board_clear(&b, v);
    uint8_t seen[DM_MAX_SQUARES + 1] = {0};
    while (isspace((unsigned char)fen[r.i])) {
        r.i++;
    }
    if (fen[r.i] == '"') {
        r.i++; /* tolerate a quoted FEN as copied from a tag */
        r.quoted = 1;
    }
    char side = fen[r.i];
    if (side == 'W' || side == 'w' || side == '?') {
        b.side = DM_WHITE;
    } else if (side == 'B' || side == 'b') {
        b.side = DM_BLACK;
    } else {
        return fail(&r, "the side to move 'W' or 'B'");
    }
    r.i++;
    int done[2] = {0, 0};
    skip_space(&r);
    while (fen[r.i] == ':') {
        r.i++;
        skip_space(&r);
        char c = fen[r.i];
        if (c == 'H' || c == 'F') {
            r.i++;
            if (!isdigit((unsigned char)fen[r.i])) {
                return fail(&r, "a number");
            }
            while (isdigit((unsigned char)fen[r.i])) {
                r.i++;
            }
            skip_space(&r);
            continue;
        }
        int color;
        if (c == 'W' || c == 'w') {
            color = DM_WHITE;
        } else if (c == 'B' || c == 'b') {
            color = DM_BLACK;
        } else {
            return fail(&r, "a colour 'W' or 'B'");
        }
        if (done[color]) {
            return dm_error_set(err, DM_EPARSE, 1, (int)r.i + 1,
                                "bad FEN at character %zu: the %s section appears twice", r.i + 1,
                                color == DM_WHITE ? "White" : "Black");
        }
        done[color] = 1;
        r.i++;
        dm_status st = read_section(&r, &b, color, seen);
        if (st) {
            return st;
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
    if (fen[r.i]) {
        return fail(&r, "':' and a colour section, or the end");
    }
    if (!done[DM_WHITE] && !done[DM_BLACK]) {
        /* "W" alone is not an empty board: as dm_board10_from_fen says. */
        return dm_error_set(err, DM_EPARSE, 1, (int)r.i + 1,
                            "bad FEN: no piece section (expected e.g. \"W:W21-32:B1-12\")");
    }
    dm_status st = dm_board_validate(&b, err);
    if (st) {
        return st;
    }
    *out = b;
    return DM_OK;
}

/* Append to buf (snprintf-style bookkeeping: *len counts what the full text needs). */
static void put_text(char *buf, size_t cap, size_t *len, const char *text)
{
    size_t n = strlen(text);
    if (*len < cap) {
        size_t room = cap - *len - 1;
        memcpy(buf + *len, text, n < room ? n : room);
        buf[*len + (n < room ? n : room)] = 0;
    }
    *len += n;
}

size_t dm_board_to_fen(char *buf, size_t cap, const dm_board *b, int algebraic)
{
    const dm_variant *v = b->variant;
    size_t len = 0;
    if (cap) {
        buf[0] = 0;
    }
    put_text(buf, cap, &len, b->side == DM_WHITE ? "W" : "B");
    for (int color = DM_WHITE; color <= DM_BLACK; color++) {
        int man = color == DM_WHITE ? DM_WHITE_MAN : DM_BLACK_MAN;
        int king = color == DM_WHITE ? DM_WHITE_KING : DM_BLACK_KING;
        put_text(buf, cap, &len, color == DM_WHITE ? ":W" : ":B");
        int first = 1;
        /* in the order of the record's numbers (the same as the squares' except on
         * turned boards and numberings from the bottom) */
        for (int num = 1; num <= v->squares; num++) {
            int sq = dm_square_from_number(v, num);
            int p = b->sq[sq];
            if (p != man && p != king) {
                continue;
            }
            int end = num;
            if (!algebraic) { /* a run of 3+ equal pieces becomes a range */
                while (end < v->squares && b->sq[dm_square_from_number(v, end + 1)] == p) {
                    end++;
                }
                if (end - num < 2) {
                    end = num;
                }
            }
            char a[16], z[16], item[48];
            dm_square_to_text(a, sizeof a, v, sq, algebraic);
            dm_square_to_text(z, sizeof z, v, dm_square_from_number(v, end), algebraic);
            if (end > num) {
                snprintf(item, sizeof item, "%s%s%s-%s", first ? "" : ",", p == king ? "K" : "", a,
                         z);
            } else {
                snprintf(item, sizeof item, "%s%s%s", first ? "" : ",", p == king ? "K" : "", a);
            }
            put_text(buf, cap, &len, item);
            first = 0;
            num = end;
        }
    }
    return len;
}

static uint64_t splitmix64(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

uint64_t dm_board_hash(const dm_board *b)
{
    dm_board10 fast;
    if (b->variant->id == DM_VARIANT_INTERNATIONAL && dm_board_to_board10(&fast, b) == DM_OK) {
        return fast.hash;
    }
    /* The engine's variant search keeps the same keys move by move
     * (engine/search_impl.h, S(child_key)): change both together. */
    uint64_t h = splitmix64(0x5641524941ull + (uint64_t)b->variant->id * 977u);
    if (b->side == DM_BLACK) {
        h ^= 0xA5A5F00DCAFEBEEFull;
    }
    for (int sq = 1; sq <= b->variant->squares; sq++) {
        if (b->sq[sq]) {
            h ^= splitmix64(((uint64_t)b->sq[sq] << 8) | (uint64_t)sq);
        }
    }
    return h;
}

dm_status dm_board_handicap(dm_board *b, dm_color c, int n)
{
    if (!b || !b->variant || n < 1 || n > 15 || (c != DM_WHITE && c != DM_BLACK)) {
        return DM_EINVAL;
    }
    const dm_variant *v = b->variant;
    int width = v->geometry == DM_GEOM_FULL ? v->size : v->size / 2; /* squares a row */
    int rows = v->squares / width;
    dm_piece man = c == DM_WHITE ? DM_WHITE_MAN : DM_BLACK_MAN;
    dm_board out = *b;
    int removed = 0;
    for (int row = 0; row < rows && removed < n; row++) {
        for (int col = 0; col < width && removed < n; col++) {
            /* White's rows from the bottom (the last squares), Black's from the top */
            int sq =
                c == DM_WHITE ? v->squares - (row + 1) * width + col + 1 : (row + 1) * width - col;
            if (dm_board_piece(&out, sq) == man) {
                dm_board_put(&out, sq, DM_EMPTY);
                removed++;
            }
        }
    }
    if (removed < n) {
        return DM_EINVAL;
    }
    *b = out;
    return DM_OK;
}
