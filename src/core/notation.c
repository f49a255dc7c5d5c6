/* SPDX-License-Identifier: MIT
 * core/notation.c: move text in and out (FMJD 8, PDN 3.0 movetext, Hub moves).
 * Text becomes a move only by matching the legal moves of the position, so a move
 * that parses is always legal; capture paths are rebuilt on demand by a search
 * restricted to the move's captured pieces. */
#include "core/move10.h"

#include <stdio.h>
#include <string.h>

#include "core/layout.h"

#define PATH_MAX_CAPT 24 /* more than the 20 pieces a side can have */

/* ---- capture paths ------------------------------------------------------------ */

typedef struct path_ctx {
    uint64_t empty;          /* empty squares plus the start square */
    uint64_t target;         /* the pieces the move captures */
    int to;                  /* bit where the move ends */
    int ncapt;               /* pieces the move captures */
    int path[PATH_MAX_CAPT]; /* bits: landing square after each capture */
    /* Called with the intermediate landing squares (bits) of one path; returns
     * nonzero to stop the search. */
    int (*visit)(void *payload, const int *path, int n);
    void *payload;
    int stop;
} path_ctx;

static void man_path(path_ctx *pc, int at, uint64_t captured, int n)
{
    if (pc->stop) {
        return;
    }
    if (n == pc->ncapt) {
        if (at == pc->to && captured == pc->target) {
            pc->stop = pc->visit(pc->payload, pc->path, n - 1);
        }
        return;
    }
    for (int d = 0; d < DIR_NB; d++) {
        uint64_t mid = bb_step(bb_bit(at), d) & pc->target & ~captured;
        if (!mid) {
            continue;
        }
        uint64_t land = bb_step(mid, d) & pc->empty;
        if (land) {
            pc->path[n] = bb_lsb(land);
            man_path(pc, bb_lsb(land), captured | mid, n + 1);
        }
    }
}

static void king_path(path_ctx *pc, int at, int d, uint64_t captured, int n)
{
    if (pc->stop) {
        return;
    }
    uint64_t occ = BB_ALL & ~pc->empty;
    int v = ray_first(at, d, occ);
    if (v < 0 || !((pc->target & ~captured) >> v & 1)) {
        return;
    }
    int w = ray_first(v, d, occ);
    uint64_t landing = layout_tab.ray[d][v];
    if (w >= 0) {
        landing &= ~(layout_tab.ray[d][w] | bb_bit(w));
    }
    if (!landing) {
        return;
    }
    captured |= bb_bit(v);
    n++;
    if (n == pc->ncapt) {
        if (((landing >> pc->to) & 1) && captured == pc->target) {
            pc->stop = pc->visit(pc->payload, pc->path, n - 1);
        }
        return;
    }
    /* PDN 3.0: going on straight, the path square is the one directly behind. */
    pc->path[n - 1] = bb_lsb(bb_step(bb_bit(v), d));
    king_path(pc, v, d, captured, n);
    int p1 = (d == DIR_NW || d == DIR_SE) ? DIR_NE : DIR_NW;
    int p2 = dir_reverse(p1);
    for (uint64_t l = landing; l;) {
        int at2 = bb_pop_lsb(&l);
        pc->path[n - 1] = at2;
        king_path(pc, at2, p1, captured, n);
        pc->path[n - 1] = at2;
        king_path(pc, at2, p2, captured, n);
    }
}

/* Visit every capture path of m (a capture of b). */
static void for_each_path(const dm_board10 *b, const dm_move10 *m,
                          int (*visit)(void *, const int *, int), void *payload)
{
    path_ctx pc;
    int f = sq_to_bit(m->from);
    if (m->ncapt == 0 || m->ncapt > PATH_MAX_CAPT) {
        return;
    }
    pc.empty = (BB_ALL & ~(b->pieces[0] | b->pieces[1])) | bb_bit(f);
    pc.target = m->capt;
    pc.to = sq_to_bit(m->to);
    pc.ncapt = m->ncapt;
    pc.visit = visit;
    pc.payload = payload;
    pc.stop = 0;
    if ((b->kings >> f) & 1) {
        for (int d = 0; d < DIR_NB && !pc.stop; d++) {
            king_path(&pc, f, d, 0, 0);
        }
    } else {
        man_path(&pc, f, 0, 0);
    }
}

typedef struct first_path {
    int found;
    int n;
    int sq[PATH_MAX_CAPT];
} first_path;

static int keep_first(void *payload, const int *path, int n)
{
    first_path *fp = payload;
    fp->found = 1;
    fp->n = n;
    for (int i = 0; i < n; i++) {
        fp->sq[i] = bit_to_sq(path[i]);
    }
    return 1;
}

int dm_move10_path(int *sq, int cap, const dm_board10 *b, const dm_move10 *m)
{
    first_path fp = {0, 0, {0}};
    if (m->ncapt == 0) {
        fp.found = 1;
    } else {
        for_each_path(b, m, keep_first, &fp);
    }
    if (!fp.found) {
        return 0;
    }
    int n = 0;
    if (n < cap) {
        sq[n] = m->from;
    }
    n++;
    for (int i = 0; i < fp.n; i++, n++) {
        if (n < cap) {
            sq[n] = fp.sq[i];
        }
    }
    if (n < cap) {
        sq[n] = m->to;
    }
    return n + 1;
}

/* ---- move to text ------------------------------------------------------------- */

typedef struct text_out {
    char *buf;
    size_t cap;
    size_t len;
} text_out;

static void out_str(text_out *o, const char *s)
{
    for (; *s; s++, o->len++) {
        if (o->len + 1 < o->cap) {
            o->buf[o->len] = *s;
        }
    }
    if (o->cap) {
        o->buf[o->len + 1 < o->cap ? o->len : o->cap - 1] = 0;
    }
}

static void out_sq(text_out *o, const char *sep, int sq)
{
    char tmp[16];
    snprintf(tmp, sizeof tmp, "%s%d", sep, sq);
    out_str(o, tmp);
}

static int shares_from_to(const dm_board10 *b, const dm_move10 *m)
{
    dm_movelist10 list;
    dm_movegen10_legal(&list, b);
    for (int i = 0; i < list.count; i++) {
        const dm_move10 *o = &list.moves[i];
        if (o->from == m->from && o->to == m->to && o->capt != m->capt) {
            return 1;
        }
    }
    return 0;
}

size_t dm_move10_to_text(char *buf, size_t cap, const dm_board10 *b, const dm_move10 *m,
                         dm_notation style)
{
    text_out o = {buf, cap, 0};
    if (cap) {
        buf[0] = 0;
    }
    out_sq(&o, "", m->from);
    if (m->ncapt == 0) {
        out_sq(&o, "-", m->to);
        return o.len;
    }
    if (style == DM_NOTATION_HUB) {
        out_sq(&o, "x", m->to);
        for (uint64_t x = m->capt; x;) {
            out_sq(&o, "x", bit_to_sq(bb_pop_lsb(&x)));
        }
        return o.len;
    }
    if (style == DM_NOTATION_FULL || shares_from_to(b, m)) {
        int sq[PATH_MAX_CAPT + 2];
        int n = dm_move10_path(sq, PATH_MAX_CAPT + 2, b, m);
        for (int i = 1; i < n - 1; i++) {
            out_sq(&o, "x", sq[i]);
        }
    }
    out_sq(&o, "x", m->to);
    return o.len;
}

/* ---- text to move ------------------------------------------------------------- */

#define PARSE_MAX_SQ 32

typedef struct parsed_move {
    int sq[PARSE_MAX_SQ]; /* squares as written */
    int n;                /* how many */
    int capture_sep;      /* an 'x', ':' or U+00D7 separator was used */
} parsed_move;

static int is_mark(char c)
{
    return c == '!' || c == '?' || c == '(' || c == ')' || c == '+' || c == '*' || c == '#';
}

/* A copy of text fit for an error message: printable ASCII and U+00D7 kept, any other
 * byte (control characters, escape sequences, invalid UTF-8) shown as '?', at most 40
 * characters then "...". */
static void printable_copy(char *out, size_t cap, const char *text)
{
    size_t o = 0;
    for (size_t i = 0; text[i] && o + 4 < cap; i++) {
        unsigned char c = (unsigned char)text[i];
        if (o >= 40) {
            memcpy(out + o, "...", 3);
            o += 3;
            break;
        }
        if (c == 0xC3 && (unsigned char)text[i + 1] == 0x97) {
            out[o++] = (char)c;
            out[o++] = text[++i];
        } else {
            out[o++] = (c >= 0x20 && c < 0x7F) ? (char)c : '?';
        }
    }
    out[o] = 0;
}

static dm_status lex_move(parsed_move *pm, const char *raw, const char *text, dm_error *err)
{
    size_t i = 0;
    pm->n = 0;
    pm->capture_sep = 0;
    while (raw[i] == ' ' || raw[i] == '\t') {
        i++;
    }
    for (;;) {
        if (raw[i] < '0' || raw[i] > '9') {
            return dm_error_set(err, DM_EPARSE, 1, (int)i + 1,
                                "bad move \"%s\": expected a square number at character %zu", text,
                                i + 1);
        }
        int v = 0, digits = 0;
        size_t start = i;
        while (raw[i] >= '0' && raw[i] <= '9') {
            v = digits < 4 ? v * 10 + (raw[i] - '0') : v;
            digits++;
            i++;
        }
        if (digits > 2 || v < 1 || v > DM_SQUARES10) {
            return dm_error_set(err, DM_EPARSE, 1, (int)start + 1,
                                "bad move \"%s\": square %.*s at character %zu is not in 1-50",
                                text, digits > 8 ? 8 : digits, raw + start, start + 1);
        }
        if (pm->n >= PARSE_MAX_SQ) {
            return dm_error_set(err, DM_EPARSE, 1, (int)start + 1,
                                "bad move \"%s\": more than %d squares", text, PARSE_MAX_SQ);
        }
        pm->sq[pm->n++] = v;
        /* a separator, possibly followed by padding spaces ("1- 6") */
        if (raw[i] == '-') {
            i++;
        } else if (raw[i] == 'x' || raw[i] == 'X' || raw[i] == ':') {
            pm->capture_sep = 1;
            i++;
        } else if ((unsigned char)raw[i] == 0xC3 && (unsigned char)raw[i + 1] == 0x97) {
            pm->capture_sep = 1; /* U+00D7 MULTIPLICATION SIGN, as the rulebook prints */
            i += 2;
        } else {
            break;
        }
        while (raw[i] == ' ') {
            i++;
        }
    }
    while (is_mark(raw[i])) {
        i++;
    }
    while (raw[i] == ' ' || raw[i] == '\t' || raw[i] == '\r' || raw[i] == '\n') {
        i++;
    }
    if (raw[i] != 0) {
        return dm_error_set(err, DM_EPARSE, 1, (int)i + 1,
                            "bad move \"%s\": unexpected character at %zu", text, i + 1);
    }
    if (pm->n < 2) {
        return dm_error_set(err, DM_EPARSE, 1, (int)i + 1,
                            "bad move \"%s\": a move needs a from and a to square, e.g. 32-28",
                            text);
    }
    return DM_OK;
}

typedef struct subseq_match {
    const int *want; /* squares (1..50) that must appear in order */
    int nwant;
    int matched;
} subseq_match;

static int check_subsequence(void *payload, const int *path, int n)
{
    subseq_match *sm = payload;
    int k = 0;
    for (int i = 0; i < n && k < sm->nwant; i++) {
        if (bit_to_sq(path[i]) == sm->want[k]) {
            k++;
        }
    }
    if (k == sm->nwant) {
        sm->matched = 1;
        return 1;
    }
    return 0;
}

static int captures_all(const dm_move10 *m, const int *sq, int n)
{
    for (int i = 0; i < n; i++) {
        if (!((m->capt >> sq_to_bit(sq[i])) & 1)) {
            return 0;
        }
    }
    return 1;
}

/* Does the written move pm denote the legal move m of b? */
static int matches(const dm_board10 *b, const dm_move10 *m, const parsed_move *pm)
{
    int n = pm->n;
    if (m->from != pm->sq[0]) {
        return 0;
    }
    if (m->to == pm->sq[n - 1]) {
        if (n == 2) {
            return 1;
        }
        if (m->ncapt == 0) {
            return 0;
        }
        /* PDN: the squares between are captured pieces (allowed by PDN) ... */
        if (captures_all(m, pm->sq + 1, n - 2)) {
            return 1;
        }
        /* ... or landing squares of the path, in order. */
        subseq_match sm = {pm->sq + 1, n - 2, 0};
        for_each_path(b, m, check_subsequence, &sm);
        if (sm.matched) {
            return 1;
        }
    }
    /* Hub: from, to, then captured squares in any order. */
    if (n >= 3 && m->ncapt > 0 && m->to == pm->sq[1] && captures_all(m, pm->sq + 2, n - 2)) {
        return 1;
    }
    return 0;
}

/* Append up to `limit` moves of list (those with mask[i] set, or all) in full notation. */
static void list_moves(char *buf, size_t cap, const dm_board10 *b, const dm_movelist10 *list,
                       const int *mask, int limit)
{
    text_out o = {buf, cap, 0};
    int shown = 0, total = 0;
    if (cap) {
        buf[0] = 0;
    }
    for (int i = 0; i < list->count; i++) {
        if (mask && !mask[i]) {
            continue;
        }
        total++;
        if (shown >= limit) {
            continue;
        }
        char t[160];
        dm_move10_to_text(t, sizeof t, b, &list->moves[i], DM_NOTATION_PDN);
        if (shown++) {
            out_str(&o, ", ");
        }
        out_str(&o, t);
    }
    if (total > shown) {
        char more[32];
        snprintf(more, sizeof more, ", ... (%d in all)", total);
        out_str(&o, more);
    }
}

/* True when squares a and b (1..50) are diagonal neighbours (FMJD 2.6 numbering). */
static int one_step(int a, int b)
{
    int ra = (a - 1) / 5, rb = (b - 1) / 5;
    int ca = 2 * ((a - 1) % 5) + (ra % 2 == 0), cb = 2 * ((b - 1) % 5) + (rb % 2 == 0);
    return (ra - rb == 1 || rb - ra == 1) && (ca - cb == 1 || cb - ca == 1);
}

dm_status dm_move10_parse(dm_move10 *out, const dm_board10 *b, const char *text, dm_error *err)
{
    if (!out || !b || !text) {
        return dm_error_set(err, DM_EINVAL, 0, 0, "no move given");
    }
    parsed_move pm;
    char shown[64];
    printable_copy(shown, sizeof shown, text);
    dm_status st = lex_move(&pm, text, shown, err);
    text = shown; /* messages below quote the input */
    if (st) {
        return st;
    }
    dm_movelist10 list;
    dm_movegen10_legal(&list, b);
    int hit[DM_MAX_MOVES10];
    int nhit = 0, first = -1;
    for (int i = 0; i < list.count; i++) {
        hit[i] = matches(b, &list.moves[i], &pm);
        if (hit[i]) {
            nhit++;
            if (first < 0) {
                first = i;
            }
        }
    }
    if (nhit == 1) {
        *out = list.moves[first];
        return DM_OK;
    }
    char cands[512];
    if (nhit > 1) {
        list_moves(cands, sizeof cands, b, &list, hit, 8);
        return dm_error_set(err, DM_EAMBIGUOUS, 1, 1,
                            "ambiguous move \"%s\": %d legal moves match (%s); give the full "
                            "capture path",
                            text, nhit, cands);
    }
    /* Not legal: say why, most specific reason first. */
    if (list.count == 0) {
        return dm_error_set(err, DM_EILLEGAL, 1, 1, "illegal move \"%s\": %s has no legal move",
                            text, b->side == DM_WHITE ? "White" : "Black");
    }
    int from = pm.sq[0];
    dm_piece p = dm_board10_piece(b, from);
    int mine = b->side == DM_WHITE ? (p == DM_WHITE_MAN || p == DM_WHITE_KING)
                                   : (p == DM_BLACK_MAN || p == DM_BLACK_KING);
    const char *who = b->side == DM_WHITE ? "White" : "Black";
    if (p == DM_EMPTY) {
        return dm_error_set(err, DM_EILLEGAL, 1, 1, "illegal move \"%s\": square %d is empty", text,
                            from);
    }
    if (!mine) {
        return dm_error_set(err, DM_EILLEGAL, 1, 1,
                            "illegal move \"%s\": square %d holds a piece of the opponent (%s "
                            "to move)",
                            text, from, who);
    }
    int best = list.moves[0].ncapt;
    if (best > 0) {
        list_moves(cands, sizeof cands, b, &list, NULL, 6);
        /* The majority rule is the reason only when the text could be a shorter
         * capture: not when the most one can take is one piece, nor for a one-step
         * move, nor for a plain "from-to". */
        if ((pm.n == 2 && !pm.capture_sep) || best == 1 || one_step(from, pm.sq[pm.n - 1])) {
            return dm_error_set(err, DM_EILLEGAL, 1, 1,
                                "illegal move \"%s\": capture is compulsory (FMJD 4.1): %d "
                                "piece%s can be captured with %s",
                                text, best, best > 1 ? "s" : "", cands);
        }
        return dm_error_set(err, DM_EILLEGAL, 1, 1,
                            "illegal move \"%s\": the majority rule (FMJD 4.13) requires "
                            "capturing %d piece%s: %s",
                            text, best, best > 1 ? "s" : "", cands);
    }
    int mask[DM_MAX_MOVES10];
    int own = 0;
    for (int i = 0; i < list.count; i++) {
        mask[i] = list.moves[i].from == from;
        own += mask[i];
    }
    if (own == 0) {
        return dm_error_set(err, DM_EILLEGAL, 1, 1, "illegal move \"%s\": the %s on %d cannot move",
                            text, (p == DM_WHITE_KING || p == DM_BLACK_KING) ? "king" : "man",
                            from);
    }
    list_moves(cands, sizeof cands, b, &list, mask, 8);
    return dm_error_set(err, DM_EILLEGAL, 1, 1, "illegal move \"%s\": the %s on %d can play %s",
                        text, (p == DM_WHITE_KING || p == DM_BLACK_KING) ? "king" : "man", from,
                        cands);
}
