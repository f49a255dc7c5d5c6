/* SPDX-License-Identifier: MIT
 * pdn/writer.c: PDN 3.0 output (strict writing grammar): seven-tag roster, normalised
 * moves, move numbers, comments, NAGs and variations, lines of at most 80 columns.
 * Moves are replayed under the game's variant (pdn_select) so that they can be
 * rewritten in the variant's standard notation; a move that cannot be replayed
 * (variants the library does not play, illegal moves) is written as it was read. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pdn/pdn_int.h"

#define WRAP 80 /* maximum line length of the movetext */

typedef struct wbuf {
    char *s;
    size_t len, cap;
    int col;    /* characters on the current line */
    int failed; /* an allocation failed */
    int glue;   /* the next word follows "(" without a space */
    int nl;     /* the next word goes on a new line (see ends_with_sep) */
} wbuf;

static void put(wbuf *w, const char *s, size_t n)
{
    if (w->failed) {
        return;
    }
    if (w->len + n + 1 > w->cap) {
        size_t cap = w->cap ? w->cap : 1024;
        while (w->len + n + 1 > cap) {
            cap *= 2;
        }
        char *q = realloc(w->s, cap);
        if (!q) {
            w->failed = 1;
            return;
        }
        w->s = q;
        w->cap = cap;
    }
    memcpy(w->s + w->len, s, n);
    w->len += n;
    w->s[w->len] = 0;
    for (size_t i = 0; i < n; i++) {
        w->col = s[i] == '\n' ? 0 : w->col + 1;
    }
}

static void puts_(wbuf *w, const char *s)
{
    put(w, s, strlen(s));
}

/* Display width of UTF-8 text (code points). */
static int width(const char *s, size_t n)
{
    int c = 0;
    for (size_t i = 0; i < n; i++) {
        c += ((unsigned char)s[i] & 0xC0) != 0x80;
    }
    return c;
}

/* A movetext word: on this line after a space if it fits in WRAP columns, else on a
 * new line. glue: no space before it. */
static void word(wbuf *w, const char *s, size_t n, int glue)
{
    int wd = width(s, n);
    glue |= w->glue;
    w->glue = 0;
    int nl = w->nl;
    w->nl = 0;
    if (!glue && w->col > 0) {
        if (nl || w->col + 1 + wd > WRAP) {
            put(w, "\n", 1);
        } else {
            put(w, " ", 1);
        }
    } else if (glue && w->col > 0 && w->col + wd > WRAP) {
        put(w, "\n", 1);
    }
    if (w->col == 0 && n > 0 && s[0] == '%') {
        put(w, " ", 1); /* '%' in the first column would hide the line from readers */
    }
    put(w, s, n);
}

static void wordz(wbuf *w, const char *s)
{
    word(w, s, strlen(s), 0);
}

/* One word made of a, b and c (no length limit: move texts as read can be long). */
static void word3(wbuf *w, const char *a, const char *b, const char *c)
{
    size_t na = strlen(a), nb = strlen(b), nc = strlen(c);
    if (na > 0 && width(a, na) + width(b, nb) + width(c, nc) > WRAP) {
        /* too long for any line: the first part (a move number) goes on its own */
        while (na > 0 && a[na - 1] == ' ') {
            na--;
        }
        word(w, a, na, 0);
        word3(w, "", b, c);
        return;
    }
    char *tmp = malloc(na + nb + nc + 1);
    if (!tmp) {
        w->failed = 1;
        return;
    }
    memcpy(tmp, a, na);
    memcpy(tmp + na, b, nb);
    memcpy(tmp + na + nb, c, nc);
    word(w, tmp, na + nb + nc, 0);
    free(tmp);
}

/* A comment, wrapped between its words. A comment that holds '}' or '{' (a ';'
 * comment may) cannot be braced (comments do not nest): it is written as a ';'
 * comment, which runs to the end of its line. */
static void comment(wbuf *w, const char *text)
{
    if (strchr(text, '}') || strchr(text, '{')) {
        if (w->col > 0) {
            put(w, "\n", 1);
        }
        put(w, ";", 1);
        puts_(w, text);
        put(w, "\n", 1);
        return;
    }
    size_t n = strlen(text);
    if (n == 0) {
        wordz(w, "{}");
        return;
    }
    size_t i = 0;
    int first = 1;
    while (i < n) {
        size_t j = i;
        while (j < n && text[j] != ' ') {
            j++;
        }
        int last = j >= n;
        size_t len = j - i + (first ? 1 : 0) + (last ? 1 : 0);
        char *tmp = malloc(len + 1);
        if (!tmp) {
            w->failed = 1;
            return;
        }
        size_t o = 0;
        if (first) {
            tmp[o++] = '{';
        }
        memcpy(tmp + o, text + i, j - i);
        o += j - i;
        if (last) {
            tmp[o++] = '}';
        }
        word(w, tmp, o, 0);
        free(tmp);
        first = 0;
        i = j;
        while (i < n && text[i] == ' ') {
            i++;
        }
    }
}

static void comments(wbuf *w, char *const *c, int n)
{
    for (int i = 0; i < n; i++) {
        comment(w, c[i]);
    }
}

/* Move numbering: half 0 = the side that moves first in a move pair ("N."), half 1 =
 * the other ("N..."); known = the board vb is known (replay on track). */
typedef struct wpos {
    dm_board vb;
    const dm_variant *v; /* the rules the game is played under, NULL for none */
    int known;
    int number;
    int half;
    int renumber; /* split captures were joined: written numbers are shifted, count */
    char sep;     /* capture separator to write instead of the notation's, or 0 */
    int wfirst;   /* a Black-first game (English) numbered in pairs that start with
                     White, as in chess: "1... 9-13 2. 22-18 13-17"; see written_number */
    int nags;     /* marks that have a NAG are written as the NAG (write options) */
} wpos;

/* Write the captures of a move text with p->sep instead of own (the notation's
 * separator: the variant's). */
static void use_sep(char *text, const wpos *p, char own)
{
    if (p->sep && p->sep != own) {
        for (char *c = text; *c; c++) {
            if (*c == own) {
                *c = p->sep;
            }
        }
    }
}

/* Does a move text as read end with a separator ("f8:h6:", glued text the reader kept
 * in the move)? A space after it would read as padding ("1- 6") and glue the next move
 * to it, so the next word goes on a new line. */
static int ends_with_sep(const char *t)
{
    size_t n = strlen(t);
    return n > 0 && (strchr("-xX:", t[n - 1]) || (unsigned char)t[n - 1] == 0xD7 ||
                     (n > 1 && (unsigned char)t[n - 2] == 0xC3 && (unsigned char)t[n - 1] == 0x97));
}

/* The number and half of node nd as written in the input, in the writer's numbering
 * (pairs start with the side that moves first: "1. 9-13 22-18 2. 13-17" in English).
 * Input numbered in White-first pairs (p->wfirst) has Black's "N..." as our "N." and
 * White's "N." as our "(N-1)..."; taking those numbers as they were shifted every
 * later number (it came out "1. 9-13 22-18 3. 13-17"). */
static void written_number(const wpos *p, const dm_pdn_node *nd, int *number, int *half)
{
    *number = nd->number;
    *half = nd->number_black;
    if (p->wfirst) {
        *half = !nd->number_black;
        *number = nd->number_black ? nd->number : nd->number - 1;
    }
}

/* What the mainline replay made of node i (NULL: parse it here). */
typedef struct wsteps {
    const pdn_vstep *vsteps;
    int n;
} wsteps;

static void write_line(wbuf *w, const dm_pdn_line *l, wpos p, dm_notation style, const wsteps *ws);

/* known_vstep: the move of this node from the mainline replay (NULL:
 * parse it here); mark: the strength mark to write (the last joined token's). */
/* What follows a move: its NAGs, comments and variations (each variation starts from
 * p, the position before the move). Also used for a token joined into the capture
 * before it (the replay joins only tokens with nothing before them). */
static void write_trailer(wbuf *w, const dm_pdn_node *nd, wpos p, dm_notation style)
{
    for (int i = 0; i < nd->nnags; i++) {
        char tmp[24];
        snprintf(tmp, sizeof tmp, "$%d", nd->nags[i]);
        wordz(w, tmp);
    }
    comments(w, nd->after, nd->nafter);
    for (int v = 0; v < nd->nvariations; v++) {
        word(w, "(", 1, 0);
        w->glue = 1;
        write_line(w, &nd->variations[v], p, style, NULL);
        /* ")" glued to the last word of the variation */
        word(w, ")", 1, 1);
        w->glue = 0;
    }
}

static void write_node(wbuf *w, const dm_pdn_node *nd, wpos *p, int first, int need_number,
                       dm_notation style, const pdn_vstep *known_vstep, const char *mark,
                       int joined)
{
    comments(w, nd->before, nd->nbefore);
    if (nd->kind == DM_PDN_NODE_SETUP) {
        /* one word, never split: the reader wants the FEN on the line of "/FEN"
         * (word3 put a FEN too long for a line after a line break; fuzz finding
         * corpus/pdn/finding-long-setup-command) */
        size_t nt = strlen(nd->text);
        char *cmd = malloc(nt + 9);
        if (!cmd) {
            w->failed = 1;
            return;
        }
        memcpy(cmd, "/FEN \"", 6);
        memcpy(cmd + 6, nd->text, nt);
        memcpy(cmd + 6 + nt, "\"/", 3);
        word(w, cmd, nt + 8, 0);
        free(cmd);
        wpos at_setup = *p;
        dm_board nvb;
        if (p->v && dm_board_from_fen(&nvb, p->v, nd->text, NULL) == DM_OK) {
            p->vb = nvb;
            p->known = 1;
            p->half = nvb.side != (int)p->v->first;
        }
        /* what follows it is kept too (a comment after a setup command was lost) */
        write_trailer(w, nd, at_setup, style);
        return;
    }
    if (nd->number > 0 && !(p->known && p->renumber)) {
        int half, was_number = p->number, was_half = p->half;
        written_number(p, nd, &p->number, &half);
        if (!p->known) {
            p->half = half;
        }
        /* A number that is not the one counting would give (after moves kept as
         * read the board is unknown and the file's numbers rule) must be written,
         * or the text read back counts on from the moves before: "37-3 3... 23x32"
         * came back as "37-3 4. 23x32" (found by tests/fuzz/fuzz_pdn.c). */
        if (p->number != was_number || p->half != was_half) {
            need_number = 1;
        }
    }
    /* the move number travels with its move: never "11." at the end of a line */
    char num[32] = "";
    if (p->half == 0) {
        snprintf(num, sizeof num, "%d. ", p->number);
    } else if (first || need_number || nd->nbefore > 0) {
        snprintf(num, sizeof num, "%d... ", p->number);
    }
    wpos before = *p;
    char text[400];
    const char *t = nd->text;
    dm_move vm;
    int vplayed = 0;
    /* an accepted irregularity (docs/PDN.md): an illegal move annotated so is written
     * as read and the position after it is the move applied as written, as the replay
     * has it */
    int irregular = 0;
    dm_board after_irregular;
    if (nd->kind == DM_PDN_NODE_MOVE && p->known && p->v && pdn_irregular_mark(nd) &&
        !known_vstep) {
        after_irregular = p->vb;
        irregular = dm_move_parse(&vm, &p->vb, nd->text, NULL) != DM_OK &&
                    pdn_apply_written(&after_irregular, nd->text, NULL) == DM_OK;
    }
    if (irregular) {
        /* t stays the text as read */
    } else if (nd->kind == DM_PDN_NODE_UNKNOWN) {
        t = "--";
        p->known = 0;
    } else if (p->known && p->v) {
        if (known_vstep) {
            vm = known_vstep->m;
        }
        if (known_vstep || dm_move_parse(&vm, &p->vb, nd->text, NULL) == DM_OK) {
            dm_move_to_text(text, sizeof text, &p->vb, &vm, style, DM_SQUARES_DEFAULT);
            if (vm.ncapt) {
                use_sep(text, p, p->v->capture_sep);
            }
            t = text;
            vplayed = 1;
            p->renumber |= joined;
        } else {
            p->known = 0;
        }
    }
    /* with the nags option, the marks that have a NAG become NAGs after the move: the
     * side that moves decides "+" ($18 White, $19 Black), so it needs the position */
    char rest[64];
    int extra[16], nextra = 0;
    if (mark && p->nags && strlen(mark) < sizeof rest) {
        int mover = !p->known || !p->v ? -1 : p->vb.side;
        size_t o = 0;
        for (const char *a = mark; *a;) {
            size_t n = pdn_mark_atom(a);
            char atom[16];
            snprintf(atom, sizeof atom, "%.*s", (int)n, a);
            int nag =
                !strcmp(atom, "+") && mover < 0 ? 0 : dm_pdn_mark_nag(atom, mover == DM_BLACK);
            if (nag && nextra < 16) {
                extra[nextra++] = nag;
            } else {
                memcpy(rest + o, a, n);
                o += n;
            }
            a += n;
        }
        rest[o] = 0;
        mark = o ? rest : NULL;
    }
    if (mark) {
        /* "-1" glued to the last square would read as part of the move ("32-28-1"): a
         * mark that starts with '-' is written in parentheses, "32-28(-1)", which the
         * reader stores as "-1" again (docs/PDN.md) */
        int paren = mark[0] == '-';
        char *tm = malloc(strlen(t) + strlen(mark) + 3);
        if (!tm) {
            w->failed = 1;
            return;
        }
        strcpy(tm, t);
        if (paren) {
            size_t n = strspn(mark + 1, "0123456789") + 1;
            size_t tl = strlen(tm);
            tm[tl] = '(';
            memcpy(tm + tl + 1, mark, n);
            tm[tl + 1 + n] = ')';
            strcpy(tm + tl + 2 + n, mark + n);
        } else {
            strcat(tm, mark);
        }
        word3(w, num, tm, "");
        free(tm);
    } else {
        word3(w, num, t, "");
        w->nl = ends_with_sep(t);
    }
    for (int i = 0; i < nextra; i++) {
        char tmp[24];
        snprintf(tmp, sizeof tmp, "$%d", extra[i]);
        wordz(w, tmp);
    }
    write_trailer(w, nd, before, style);
    if (irregular) {
        p->vb = after_irregular;
    }
    if (vplayed) {
        dm_board_apply(&p->vb, &vm);
    }
    if (p->half == 1) {
        p->number++;
    }
    p->half ^= 1;
}

static void write_line(wbuf *w, const dm_pdn_line *l, wpos p, dm_notation style, const wsteps *ws)
{
    wpos before_joined = p;
    for (int i = 0; i < l->nnodes; i++) {
        const dm_pdn_node *nd = &l->nodes[i];
        int need = i > 0 && (l->nodes[i - 1].nafter > 0 || l->nodes[i - 1].nvariations > 0);
        const pdn_vstep *ks = NULL;
        const char *mark = nd->mark;
        int joined = 0;
        if (ws && i < ws->n && nd->kind == DM_PDN_NODE_MOVE) {
            if (ws->vsteps[i].kind == PDN_STEP_JOINED) {
                if (p.known) {
                    write_trailer(w, nd, before_joined, style);
                    continue;
                }
            } else if (ws->vsteps[i].kind == PDN_STEP_MOVE) {
                ks = &ws->vsteps[i];
                /* the joined tokens' last one carries the mark of the whole capture */
                for (int j = i + 1; j < ws->n && ws->vsteps[j].kind == PDN_STEP_JOINED; j++) {
                    mark = l->nodes[j].mark;
                    joined = 1;
                }
            }
        }
        before_joined = p;
        write_node(w, nd, &p, i == 0, need, style, ks, mark, joined);
    }
    comments(w, l->end, l->nend);
}

static void escape_value(wbuf *w, const char *v)
{
    for (; *v; v++) {
        if (*v == '"' || *v == '\\') {
            put(w, "\\", 1);
        }
        if (*v == '\n' || *v == '\r') {
            put(w, " ", 1);
            continue;
        }
        put(w, v, 1);
    }
}

static void tag(wbuf *w, const char *name, const char *value)
{
    put(w, "[", 1);
    puts_(w, name);
    put(w, " \"", 2);
    escape_value(w, value);
    put(w, "\"]\n", 3);
}

static const char *const roster[] = {"Event", "Site", "Date", "Round", "White", "Black", "Result"};

static int is_special_tag(const char *name)
{
    for (size_t i = 0; i < sizeof roster / sizeof roster[0]; i++) {
        if (!pdn_casecmp(name, roster[i])) {
            return 1;
        }
    }
    return !pdn_casecmp(name, "GameType") || !pdn_casecmp(name, "FEN") ||
           !pdn_casecmp(name, "SetUp");
}

dm_status dm_pdn_write(char **out, size_t *len, const dm_pdn_game *g, dm_notation style)
{
    dm_pdn_write_options opt = {style, 0, 0};
    return dm_pdn_write_with(out, len, g, &opt);
}

dm_status dm_pdn_write_with(char **out, size_t *len, const dm_pdn_game *g,
                            const dm_pdn_write_options *opt)
{
    dm_pdn_write_options dflt = {DM_NOTATION_PDN, 0, 0};
    if (!opt) {
        opt = &dflt;
    }
    if (!out || !g || (opt->capture_sep && opt->capture_sep != 'x' && opt->capture_sep != ':')) {
        if (out) {
            *out = NULL;
        }
        return DM_EINVAL;
    }
    dm_notation style = opt->style;
    *out = NULL;
    if (len) {
        *len = 0;
    }
    wbuf w = {NULL, 0, 0, 0, 0, 0, 0};
    char why[256];
    const dm_variant *variant = NULL;
    int guessed = 0;
    int playable = pdn_select(g, &variant, &guessed, why, sizeof why);
    wpos p;
    memset(&p, 0, sizeof p);
    p.number = 1;
    p.sep = opt->capture_sep;
    p.nags = opt->nags != 0;
    int fen_start = 0; /* the FEN is the initial position */
    const char *fen = dm_pdn_game_fen(g);
    char fenbuf[512];
    if (playable) {
        int number;
        p.v = variant;
        if (pdn_vstart_board(&p.vb, variant, g, &number, NULL) == DM_OK) {
            p.known = 1;
            p.half = p.vb.side != (int)variant->first;
            dm_board init;
            dm_board_start(&init, variant);
            fen_start = init.side == p.vb.side && !memcmp(init.sq, p.vb.sq, sizeof init.sq);
            dm_board_to_fen(fenbuf, sizeof fenbuf, &p.vb, variant->algebraic);
            fen = fen ? fenbuf : NULL;
        } else if (g->main.nnodes > 0) {
            p.half = g->main.nodes[0].number_black;
        }
    } else if (g->main.nnodes > 0) {
        p.half = g->main.nodes[0].number_black;
    }
    if (g->main.nnodes > 0 && g->main.nodes[0].number > 0) {
        p.number = g->main.nodes[0].number;
        /* a Black-first game whose first move, Black's, is written "N...": the input
         * numbers its pairs from White's move (chess style) */
        p.wfirst = p.known && p.v && p.v->first == DM_BLACK && p.half == 0 &&
                   g->main.nodes[0].number_black;
    }
    /* the movetext ends with the game's result token, else the Result tag when it is a
     * PDN result, else "*" */
    const char *result = g->result;
    if (!result || !*result) {
        result = dm_pdn_game_tag(g, "Result");
        if (!result || !*result || pdn_result_len(result, strlen(result)) != strlen(result)) {
            result = "*";
        }
    }
    for (size_t i = 0; i < sizeof roster / sizeof roster[0]; i++) {
        const char *v = dm_pdn_game_tag(g, roster[i]);
        if (!v) {
            v = i == 2 ? "????.??.??" : i == 6 ? result : "?";
        }
        tag(&w, roster[i], v);
    }
    const char *gt = dm_pdn_game_tag(g, "GameType");
    if (gt) {
        tag(&w, "GameType", gt);
    } else if (playable &&
               ((guessed && p.known) || (!guessed && variant->id != DM_VARIANT_INTERNATIONAL))) {
        /* the variant found from a Variant tag or the squares, said for every reader;
         * rules guessed by trying the moves are always said, international too: the
         * guess depends on the text, and a move is written in another form than it
         * was read ("1-05x12" comes out "1x5", which English checkers reads as a king
         * step), so without the tag the output could be guessed otherwise (fuzz
         * finding corpus/pdn/finding-guess-depends-on-move-text); but not a guess
         * made without a position (a FEN that fits no candidate): that one is only
         * the first candidate, and said once it was read back as a choice (fuzz
         * finding corpus/pdn/finding-guess-without-position) */
        char num[16];
        snprintf(num, sizeof num, "%d", variant->game_type);
        tag(&w, "GameType", num);
    }
    /* a FEN of the initial position is left out, unless the output has neither a
     * GameType nor a Variant tag: its rules are then found from the squares, which
     * the FEN is part of (without it, a game read as international could be read back
     * as a variant not played) */
    const char *vtag = dm_pdn_game_tag(g, "Variant");
    int by_squares =
        !gt && !(vtag && *vtag) && !(playable && variant->id != DM_VARIANT_INTERNATIONAL);
    if (fen && (!fen_start || by_squares)) {
        tag(&w, "FEN", fen);
        const char *setup = dm_pdn_game_tag(g, "SetUp");
        if (setup) {
            tag(&w, "SetUp", setup);
        }
    }
    for (int i = 0; i < g->ntags; i++) {
        if (!is_special_tag(g->tags[i].name)) {
            tag(&w, g->tags[i].name, g->tags[i].value);
        }
    }
    put(&w, "\n", 1);
    /* the mainline's moves as the replay resolved them (ambiguous ones included) */
    pdn_vstep *vsteps = NULL;
    wsteps ws = {NULL, 0};
    if (p.known && g->main.nnodes > 0) {
        vsteps = calloc((size_t)g->main.nnodes, sizeof *vsteps);
        if (!vsteps) {
            free(w.s);
            return DM_ENOMEM;
        }
        dm_pdn_replay rep;
        memset(&rep, 0, sizeof rep);
        pdn_replay_variant(&rep, g, variant, vsteps);
        ws.vsteps = vsteps;
        ws.n = g->main.nnodes;
        if (rep.verdict != DM_PDN_LEGAL && rep.node) {
            /* from the bad move on, steps may hold a look-ahead's tries: not used */
            ws.n = (int)(rep.node - g->main.nodes);
        }
    }
    write_line(&w, &g->main, p, style, ws.n > 0 ? &ws : NULL);
    free(vsteps);
    wordz(&w, result);
    put(&w, "\n\n", 2);
    if (w.failed) {
        free(w.s);
        return DM_ENOMEM;
    }
    *out = w.s;
    if (len) {
        *len = w.len;
    }
    return DM_OK;
}
