/* SPDX-License-Identifier: MIT
 * core/vnotation.c: move text of every variant, in and out (PDN 3.0 movetext with
 * numeric or algebraic squares, Hub form). Text becomes a move only by matching the
 * legal moves of the position, so a move that parses is always legal. */
#include "core/move10.h"
#include <damier/variant.h>

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "core/variant_int.h"

#define MAX_TEXT_SQ (DM_MAX_CAPT + 2)

static int use_algebraic(const dm_variant *v, dm_square_style squares)
{
    if (squares == DM_SQUARES_ALGEBRAIC) {
        return 1;
    }
    if (squares == DM_SQUARES_NUMERIC) {
        return 0;
    }
    return v->algebraic;
}

typedef struct tbuf {
    char *buf;
    size_t cap, len;
} tbuf;

static void put(tbuf *t, const char *s)
{
    size_t n = strlen(s);
    if (t->len < t->cap) {
        size_t room = t->cap - t->len - 1;
        size_t k = n < room ? n : room;
        memcpy(t->buf + t->len, s, k);
        t->buf[t->len + k] = 0;
    }
    t->len += n;
}

static void put_sq(tbuf *t, const dm_variant *v, int sq, int alg)
{
    char s[16];
    dm_square_to_text(s, sizeof s, v, sq, alg);
    put(t, s);
}

/* The legal moves of a position with their PDN paths (vgen_legal_paths): the
 * generator is asked for the paths once per list, never once per move. */
typedef struct pathlist {
    dm_movelist list;
    vg_path path[DM_MAX_MOVES];
} pathlist;

/* True when another move of list has the from and to squares of list->moves[k]. */
static int shares_ends(const dm_movelist *list, int k)
{
    const dm_move *m = &list->moves[k];
    int same = 0;
    for (int i = 0; i < list->count; i++) {
        same += list->moves[i].from == m->from && list->moves[i].to == m->to;
    }
    return same > 1;
}

/* dm_move_to_text of m with its PDN path (NULL: none known, from and to only) and
 * whether another legal move shares its from and to squares. */
static size_t move_text(char *buf, size_t cap, const dm_board *b, const dm_move *m,
                        const uint8_t *path, int shared, dm_notation style, dm_square_style squares)
{
    const dm_variant *v = b->variant;
    int alg = use_algebraic(v, squares);
    tbuf t = {buf, cap, 0};
    if (cap) {
        buf[0] = 0;
    }
    char sep[2] = {m->ncapt ? v->capture_sep : '-', 0};
    put_sq(&t, v, m->from, alg);
    if (m->ncapt && style == DM_NOTATION_HUB) {
        put(&t, "x");
        put_sq(&t, v, m->to, alg);
        for (int num = 1; num <= v->squares; num++) { /* ascending record numbers */
            int sq = dm_square_from_number(v, num);
            if (vg_capt_has(m, sq)) {
                put(&t, "x");
                put_sq(&t, v, sq, alg);
            }
        }
        return t.len;
    }
    if (m->ncapt > 1 && path && (style == DM_NOTATION_FULL || shared)) {
        for (int i = 0; i + 1 < m->ncapt; i++) {
            put(&t, sep);
            put_sq(&t, v, path[i], alg);
        }
    }
    put(&t, sep);
    put_sq(&t, v, m->to, alg);
    return t.len;
}

/* dm_move_to_text of list->moves[k], the list of b with its paths. */
static size_t list_text(char *buf, size_t cap, const dm_board *b, const pathlist *pl, int k,
                        dm_notation style)
{
    return move_text(buf, cap, b, &pl->list.moves[k], pl->path[k], shares_ends(&pl->list, k), style,
                     DM_SQUARES_DEFAULT);
}

size_t dm_move_to_text(char *buf, size_t cap, const dm_board *b, const dm_move *m,
                       dm_notation style, dm_square_style squares)
{
    if (m->ncapt < 2 || style == DM_NOTATION_HUB) {
        return move_text(buf, cap, b, m, NULL, 0, style, squares); /* no path written */
    }
    pathlist pl;
    int n = vgen_legal_paths(&pl.list, pl.path, b);
    for (int k = 0; k < n; k++) {
        if (dm_move_same(&pl.list.moves[k], m)) {
            return move_text(buf, cap, b, m, pl.path[k], shares_ends(&pl.list, k), style, squares);
        }
    }
    return move_text(buf, cap, b, m, NULL, 0, style, squares); /* not legal in b: no path */
}

/* ---- parsing ------------------------------------------------------------------- */

/* Read the squares of a move text into sq[]; returns their number or a negative
 * dm_status with err set. */
static int read_squares(int *sq, int *capture_sep, const dm_variant *v, const char *text,
                        dm_error *err)
{
    *capture_sep = 0;
    const unsigned char *s = (const unsigned char *)text;
    size_t i = 0;
    int n = 0;
    while (s[i] == ' ' || s[i] == '\t') {
        i++;
    }
    for (;;) {
        int len;
        int q = dm_square_parse(v, (const char *)s + i, &len);
        if (!q) {
            if (isalnum(s[i])) {
                size_t k = 0;
                while (isalnum(s[i + k])) {
                    k++;
                }
                return dm_error_set(err, DM_EPARSE, 1, (int)i + 1,
                                    "move \"%.40s\": '%.*s' at column %zu is not a square of %s",
                                    text, (int)(k > 8 ? 8 : k), s + i, i + 1, v->name);
            }
            return dm_error_set(err, DM_EPARSE, 1, (int)i + 1,
                                "move \"%.40s\": expected a square at column %zu", text, i + 1);
        }
        if (n >= MAX_TEXT_SQ) {
            return dm_error_set(err, DM_EPARSE, 1, (int)i + 1, "move \"%.40s\": too many squares",
                                text);
        }
        sq[n++] = q;
        int was_alpha = isalpha(s[i]);
        i += (size_t)len;
        /* separator: - x X : or UTF-8 multiplication sign, spaces around it allowed */
        size_t j = i;
        while (s[j] == ' ') {
            j++;
        }
        if (s[j] == '-') {
            j++;
        } else if (s[j] == 'x' || s[j] == 'X' || s[j] == ':') {
            *capture_sep = 1;
            j++;
        } else if (s[j] == 0xC3 && s[j + 1] == 0x97) {
            *capture_sep = 1;
            j += 2;
        } else if (was_alpha && j == i && isalpha(s[j]) && isdigit(s[j + 1])) {
            continue; /* "a3b4": algebraic squares need no separator */
        } else {
            break;
        }
        while (s[j] == ' ') {
            j++;
        }
        i = j;
    }
    /* trailing strength marks */
    while (s[i] == '!' || s[i] == '?') {
        i++;
    }
    while (s[i] == ' ' || s[i] == '\t' || s[i] == '\r' || s[i] == '\n') {
        i++;
    }
    if (s[i]) {
        return dm_error_set(err, DM_EPARSE, 1, (int)i + 1,
                            "move \"%.40s\": unexpected text at column %zu", text, i + 1);
    }
    if (n < 2) {
        return dm_error_set(err, DM_EPARSE, 1, 1, "move \"%.40s\": needs a from and a to square",
                            text);
    }
    return n;
}

/* True when the n squares sq are distinct squares captured by m. */
static int captures_all(const dm_move *m, const int *sq, int n)
{
    for (int i = 0; i < n; i++) {
        if (!vg_capt_has(m, sq[i])) {
            return 0;
        }
        for (int j = 0; j < i; j++) {
            if (sq[j] == sq[i]) {
                return 0;
            }
        }
    }
    return 1;
}

/* True when squares a and b are diagonal neighbours. */
static int one_step(const dm_variant *v, int a, int b)
{
    int dr = vg_row(v, a) - vg_row(v, b), dc = vg_col(v, a) - vg_col(v, b);
    return (dr == 1 || dr == -1) && (dc == 1 || dc == -1);
}

/* Does m, with its PDN path `path`, match the squares written? from-to; from, path..., to (the canonical
 * PDN 3.0 path, or any real landing squares when b is given; or some of the canonical
 * path's squares, in order); or Hub form.
 * *whole (may be NULL) is set when the text is all of m: its full path (every landing
 * square, none left out: "f8:b4" for a capture of one piece) or its Hub form; not when
 * it is only m's from and to. */
static int matches(const dm_board *b, const dm_move *m, const uint8_t *path, const int *sq, int n,
                   int *whole)
{
    if (whole) {
        *whole = 1;
    }
    if (m->from != sq[0]) {
        return 0;
    }
    if (n == 2) {
        if (whole) {
            *whole = m->ncapt <= 1;
        }
        return m->to == sq[1];
    }
    if (m->to == sq[n - 1] && n - 2 == m->ncapt - 1) {
        int ok = 1;
        for (int i = 1; i < n - 1; i++) {
            ok &= path[i - 1] == sq[i];
        }
        if (ok || (b && vgen_path_matches(b, m, sq + 1, n - 2))) {
            return 1;
        }
    }
    if (m->to == sq[n - 1] && n - 2 < m->ncapt - 1) {
        /* some of the landing squares of the PDN path, in order ("f8:f4:b4"): from and
         * to with intermediate squares, as dm_move10_parse takes them */
        int k = 1;
        for (int i = 0; i + 1 < m->ncapt && k < n - 1; i++) {
            k += path[i] == sq[k];
        }
        if (k == n - 1) {
            if (whole) {
                *whole = 0;
            }
            return 1;
        }
    }
    if (m->ncapt > 0 && m->to == sq[1] && n - 2 == m->ncapt && captures_all(m, sq + 2, n - 2)) {
        /* Hub: from, to, every captured square in any order (only all of them: some
         * of them would read records of the variants as moves they are not) */
        return 1;
    }
    return 0;
}

/* The legal moves of list (those from square `from` only, unless from is 0) in PDN
 * form into buf, at most limit of them, then how many there are in all; returns that
 * number. */
static int list_moves(char *buf, size_t cap, const dm_board *b, const pathlist *pl, int from,
                      int limit)
{
    const dm_movelist *list = &pl->list;
    tbuf t = {buf, cap, 0};
    int shown = 0, total = 0;
    if (cap) {
        buf[0] = 0;
    }
    for (int i = 0; i < list->count; i++) {
        if (from && list->moves[i].from != from) {
            continue;
        }
        if (total++ >= limit) {
            continue;
        }
        char m[400];
        list_text(m, sizeof m, b, pl, i, DM_NOTATION_PDN);
        put(&t, shown++ ? ", " : "");
        put(&t, m);
    }
    if (total > shown) {
        char more[32];
        snprintf(more, sizeof more, ", ... (%d in all)", total);
        put(&t, more);
    }
    return total;
}

dm_status dm_move_parse(dm_move *out, const dm_board *b, const char *text, dm_error *err)
{
    if (!out || !b || !text) {
        return dm_error_set(err, DM_EINVAL, 0, 0, "no move given");
    }
    const dm_variant *v = b->variant;
    int sq[MAX_TEXT_SQ];
    int capture_sep;
    int n = read_squares(sq, &capture_sep, v, text, err);
    if (n < 0) {
        return (dm_status)n;
    }
    pathlist pl;
    const dm_movelist *const lp = &pl.list;
    int count = vgen_legal_paths(&pl.list, pl.path, b);
    int found = -1, nfound = 0, whole_found = -1, nwhole = 0;
    char cands[200] = "";
    size_t clen = 0;
    for (int i = 0; i < count; i++) {
        int whole;
        if (matches(b, &lp->moves[i], pl.path[i], sq, n, &whole)) {
            if (nfound++ == 0) {
                found = i;
            }
            if (whole && nwhole++ == 0) {
                whole_found = i;
            }
            char t[400];
            list_text(t, sizeof t, b, &pl, i, DM_NOTATION_FULL);
            if (clen < sizeof cands - 1) {
                clen += (size_t)snprintf(cands + clen, sizeof cands - clen, "%s%s",
                                         nfound > 1 ? ", " : "", t);
            }
        }
    }
    if (nfound == 1) {
        *out = lp->moves[found];
        return DM_OK;
    }
    if (nfound > 1 && nwhole == 1) {
        /* without the majority rule (Russian) "f8:b4" is the whole path of a capture of
         * one piece and the from and to of a longer one: it names the first, since PDN
         * 3.0 writes the longer one with its path (dm_move_to_text does), and what
         * damier writes must read back as the same move */
        *out = lp->moves[whole_found];
        return DM_OK;
    }
    if (nfound > 1) {
        return dm_error_set(err, DM_EAMBIGUOUS, 1, 1,
                            "ambiguous move \"%.40s\": %d legal moves match (%s); give the full "
                            "capture path",
                            text, nfound, cands);
    }
    /* Not legal: say why, most specific reason first, with the moves that are legal. */
    char from[16], ex[400] = "";
    const char *who = b->side == DM_WHITE ? "White" : "Black";
    dm_square_to_text(from, sizeof from, v, sq[0], v->algebraic);
    int p = b->sq[sq[0]];
    if (count == 0) {
        return dm_error_set(err, DM_EILLEGAL, 1, 1, "illegal move \"%.40s\": %s has no legal move",
                            text, who);
    }
    if (p == DM_EMPTY) {
        return dm_error_set(err, DM_EILLEGAL, 1, 1, "illegal move \"%.40s\": square %s is empty",
                            text, from);
    }
    if (vg_color(p) != b->side) {
        return dm_error_set(err, DM_EILLEGAL, 1, 1,
                            "illegal move \"%.40s\": square %s holds a piece of the opponent (%s "
                            "to move)",
                            text, from, who);
    }
    const char *piece = p == DM_WHITE_KING || p == DM_BLACK_KING ? "king" : "man";
    /* the variants with FMJD's capture rules (the majority rule) cite its articles */
    int fmjd = v->precedence == DM_PREC_COUNT;
    int best = lp->moves[0].ncapt;
    if (best) {
        list_moves(ex, sizeof ex, b, &pl, 0, 6);
        if (v->precedence != DM_PREC_NONE) {
            pathlist apl;
            const dm_movelist *const all = &apl.list;
            int na = vgen_all_captures(&apl.list, apl.path, b);
            for (int i = 0; i < na; i++) {
                if (!matches(b, &all->moves[i], apl.path[i], sq, n, NULL)) {
                    continue;
                }
                if (v->precedence == DM_PREC_COUNT) {
                    /* one wording of the rule, the one the front ends translate
                     * (web/i18n.js, apps/cli/cli_i18n.c) */
                    return dm_error_set(err, DM_EILLEGAL, 1, 1,
                                        "illegal move \"%.40s\": the majority rule (FMJD 4.13) "
                                        "requires capturing %d piece%s: %s",
                                        text, best, best > 1 ? "s" : "", ex);
                }
                static const char *const why[] = {
                    [DM_PREC_CZECH] = "a king that can capture must (Czech rules 4.14)",
                    [DM_PREC_SPANISH] = "the most pieces, then the most kings",
                    [DM_PREC_ITALIAN] = "the most pieces, then with a king, then the most "
                                        "kings, then the king met first (FID 6.6-6.9)",
                    [DM_PREC_FRISIAN] = "the highest value, a king worth just under two "
                                        "men, then with a king (Frisian rules)"};
                return dm_error_set(err, DM_EILLEGAL, 1, 1,
                                    "illegal move \"%.40s\": capture precedence, %s: %s (this "
                                    "one takes %d)",
                                    text, why[v->precedence], ex, all->moves[i].ncapt);
            }
        }
        /* a capture written where more pieces must be taken (a part of the longest
         * capture, say): the majority rule is the reason, not when the most one can
         * take is one piece, nor for a one-step move or a plain "from-to" */
        if (v->precedence == DM_PREC_COUNT && best > 1 && (n > 2 || capture_sep) &&
            !one_step(v, sq[0], sq[n - 1])) {
            return dm_error_set(err, DM_EILLEGAL, 1, 1,
                                "illegal move \"%.40s\": the majority rule (FMJD 4.13) requires "
                                "capturing %d pieces: %s",
                                text, best, ex);
        }
        return dm_error_set(err, DM_EILLEGAL, 1, 1,
                            "illegal move \"%.40s\": capture is compulsory%s: %d piece%s can "
                            "be captured with %s",
                            text, fmjd ? " (FMJD 4.1)" : "", best, best > 1 ? "s" : "", ex);
    }
    if (list_moves(ex, sizeof ex, b, &pl, sq[0], 8) == 0) {
        return dm_error_set(err, DM_EILLEGAL, 1, 1,
                            "illegal move \"%.40s\": the %s on %s cannot move", text, piece, from);
    }
    return dm_error_set(err, DM_EILLEGAL, 1, 1, "illegal move \"%.40s\": the %s on %s can play %s",
                        text, piece, from, ex);
}
