/* SPDX-License-Identifier: MIT
 * Diagrams (damier/diagram.h): the SVG text of a position, with the geometry that
 * other renderers share. */
#include <damier/diagram.h>

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A diagram shows the 10x10 board: playable squares 1..50 (FMJD 2.6). */
#define DIAGRAM_SQUARES 50

int dm_diagram_size(const dm_diagram_options *o)
{
    if (!o || o->cell < 8 || o->cell > 200) {
        return 0;
    }
    return 10 * o->cell + 2 * (o->cell / 4);
}

/* Row 0..9 (square 1's row first) and column 0..9 of square s. */
static void sq_rc(int s, int *r, int *c)
{
    *r = (s - 1) / 5;
    int k = (s - 1) % 5;
    *c = *r % 2 == 0 ? 2 * k + 1 : 2 * k;
}

/* Top left corner of the cell at row r, column c of the board as drawn. */
static void cell_xy(double *x, double *y, int r, int c, const dm_diagram_options *o)
{
    if (o->flip) {
        r = 9 - r;
        c = 9 - c;
    }
    int frame = o->cell / 4;
    *x = frame + c * o->cell;
    *y = frame + r * o->cell;
}

dm_status dm_diagram_check(const dm_diagram_options *o, dm_error *err)
{
    if (!o) {
        return dm_error_set(err, DM_EINVAL, 0, 0, "NULL diagram options");
    }
    if (o->version != DM_DIAGRAM_OPTIONS_VERSION) {
        return dm_error_set(err, DM_EINVAL, 0, 0, "diagram options version %d, expected %d",
                            o->version, DM_DIAGRAM_OPTIONS_VERSION);
    }
    if (o->cell < 8 || o->cell > 200) {
        return dm_error_set(err, DM_EINVAL, 0, 0, "square size %d is not 8..200 pixels", o->cell);
    }
    if (o->narrows < 0 || o->narrows > DM_DIAGRAM_MAX_ARROWS) {
        return dm_error_set(err, DM_EINVAL, 0, 0, "%d arrows: at most %d", o->narrows,
                            DM_DIAGRAM_MAX_ARROWS);
    }
    if (o->nmarks < 0 || o->nmarks > DM_DIAGRAM_MAX_MARKS) {
        return dm_error_set(err, DM_EINVAL, 0, 0, "%d marked squares: at most %d", o->nmarks,
                            DM_DIAGRAM_MAX_MARKS);
    }
    for (int i = 0; i < o->narrows; i++) {
        int f = o->arrows[i].from, t = o->arrows[i].to;
        if (f < 1 || f > DIAGRAM_SQUARES || t < 1 || t > DIAGRAM_SQUARES || f == t) {
            return dm_error_set(err, DM_EINVAL, 0, 0,
                                "arrow %d: %d-%d needs two different squares 1..50", i + 1, f, t);
        }
    }
    for (int i = 0; i < o->nmarks; i++) {
        if (o->marks[i] < 1 || o->marks[i] > DIAGRAM_SQUARES) {
            return dm_error_set(err, DM_EINVAL, 0, 0, "marked square %d is not 1..50", o->marks[i]);
        }
    }
    return DM_OK;
}

dm_status dm_diagram_square_centre(double *x, double *y, int sq, const dm_diagram_options *o)
{
    if (!x || !y || sq < 1 || sq > DIAGRAM_SQUARES || !dm_diagram_size(o)) {
        return DM_EINVAL;
    }
    int r, c;
    sq_rc(sq, &r, &c);
    cell_xy(x, y, r, c, o);
    *x += o->cell / 2.0;
    *y += o->cell / 2.0;
    return DM_OK;
}

/* Read a square number at text[*pos]; DM_EPARSE naming the column. */
static dm_status read_square(int *sq, const char *text, size_t *pos, dm_error *err)
{
    size_t i = *pos;
    int v = 0, digits = 0;
    while (text[i] >= '0' && text[i] <= '9' && digits < 3) {
        v = v * 10 + (text[i] - '0');
        i++;
        digits++;
    }
    if (!digits) {
        return dm_error_set(err, DM_EPARSE, 1, (int)*pos + 1,
                            "expected a square number 1..50, found %s",
                            text[*pos] ? "another character" : "the end");
    }
    if (v < 1 || v > DIAGRAM_SQUARES || (text[i] >= '0' && text[i] <= '9')) {
        return dm_error_set(err, DM_EPARSE, 1, (int)*pos + 1, "square %.*s is not 1..50",
                            (int)(i - *pos + (text[i] >= '0' && text[i] <= '9')), text + *pos);
    }
    *sq = v;
    *pos = i;
    return DM_OK;
}

dm_status dm_diagram_parse_square(int *sq, const char *text, dm_error *err)
{
    if (!sq || !text) {
        return dm_error_set(err, DM_EINVAL, 0, 0, "NULL argument");
    }
    size_t pos = 0;
    int v = 0;
    dm_status st = read_square(&v, text, &pos, err);
    if (st != DM_OK) {
        return st;
    }
    if (text[pos]) {
        return dm_error_set(err, DM_EPARSE, 1, (int)pos + 1,
                            "unexpected '%c' after the square number", text[pos]);
    }
    *sq = v;
    return DM_OK;
}

dm_status dm_diagram_parse_arrow(int *from, int *to, const char *text, dm_error *err)
{
    if (!from || !to || !text) {
        return dm_error_set(err, DM_EINVAL, 0, 0, "NULL argument");
    }
    size_t pos = 0;
    int f = 0, t = 0;
    dm_status st = read_square(&f, text, &pos, err);
    if (st != DM_OK) {
        return st;
    }
    if (text[pos] != '-' && text[pos] != 'x' && text[pos] != 'X') {
        return dm_error_set(err, DM_EPARSE, 1, (int)pos + 1,
                            "expected '-' or 'x' between the two squares, found %s",
                            text[pos] ? "another character" : "the end");
    }
    pos++;
    st = read_square(&t, text, &pos, err);
    if (st != DM_OK) {
        return st;
    }
    if (text[pos]) {
        return dm_error_set(err, DM_EPARSE, 1, (int)pos + 1, "unexpected '%c' after the arrow",
                            text[pos]);
    }
    if (f == t) {
        return dm_error_set(err, DM_EPARSE, 1, 1, "an arrow needs two different squares");
    }
    *from = f;
    *to = t;
    return DM_OK;
}

/* ---- SVG text -------------------------------------------------------------------- */

typedef struct sbuf {
    char *p;
    size_t len, cap;
    int oom;
} sbuf;

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static void
put(sbuf *s, const char *fmt, ...)
{
    if (s->oom) {
        return;
    }
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(s->p ? s->p + s->len : NULL, s->p ? s->cap - s->len : 0, fmt, ap);
        va_end(ap);
        if (n < 0) {
            s->oom = 1;
            return;
        }
        if (s->p && s->len + (size_t)n < s->cap) {
            s->len += (size_t)n;
            return;
        }
        size_t ncap = s->cap ? s->cap : 8192;
        while (ncap <= s->len + (size_t)n) {
            ncap *= 2;
        }
        char *np = realloc(s->p, ncap);
        if (!np) {
            s->oom = 1;
            return;
        }
        s->p = np;
        s->cap = ncap;
    }
}

static const char *hex(char buf[8], unsigned rgb)
{
    snprintf(buf, 8, "#%06x", rgb & 0xffffffu);
    return buf;
}

dm_status dm_diagram_svg(char **out, size_t *len, const dm_board *position,
                         const dm_diagram_options *o, dm_error *err)
{
    if (!out || !position || !position->variant) {
        return dm_error_set(err, DM_EINVAL, 0, 0, "NULL argument");
    }
    dm_status st = dm_diagram_check(o, err);
    if (st != DM_OK) {
        return st;
    }
    const dm_board *b = position;
    if (b->variant->squares != DIAGRAM_SQUARES) {
        return dm_error_set(err, DM_EINVAL, 0, 0,
                            "a diagram shows a 10x10 board; %s is played on %dx%d",
                            b->variant->title, b->variant->size, b->variant->size);
    }
    st = dm_board_validate(b, err);
    if (st != DM_OK) {
        return st;
    }
    int size = dm_diagram_size(o), cell = o->cell;
    char fen[256], c1[8], c2[8];
    dm_board_to_fen(fen, sizeof fen, b, 0);
    sbuf s = {0};
    put(&s, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    put(&s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%d\" height=\"%d\" "
        "viewBox=\"0 0 %d %d\">\n",
        size, size, size, size);
    put(&s, "<title>%s</title>\n", fen);
    put(&s,
        "<defs><marker id=\"arrowhead\" markerWidth=\"4\" markerHeight=\"4\" refX=\"2\" "
        "refY=\"2\" orient=\"auto\" markerUnits=\"strokeWidth\"><path d=\"M0,0 L4,2 L0,4 z\" "
        "fill=\"%s\"/></marker></defs>\n",
        hex(c1, DM_DIAGRAM_ARROW));
    put(&s, "<rect class=\"frame\" x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"%s\"/>\n",
        size, size, hex(c1, DM_DIAGRAM_FRAME));
    for (int r = 0; r < 10; r++) {
        for (int c = 0; c < 10; c++) {
            double x, y;
            cell_xy(&x, &y, r, c, o);
            if ((r + c) % 2 == 0) {
                put(&s,
                    "<rect class=\"light\" x=\"%g\" y=\"%g\" width=\"%d\" height=\"%d\" "
                    "fill=\"%s\"/>\n",
                    x, y, cell, cell, hex(c1, DM_DIAGRAM_LIGHT));
            } else {
                put(&s,
                    "<rect class=\"dark\" data-square=\"%d\" x=\"%g\" y=\"%g\" width=\"%d\" "
                    "height=\"%d\" fill=\"%s\"/>\n",
                    r * 5 + c / 2 + 1, x, y, cell, cell, hex(c1, DM_DIAGRAM_DARK));
            }
        }
    }
    if (o->numbers) {
        double fs = cell * 0.26;
        for (int sq = 1; sq <= DIAGRAM_SQUARES; sq++) {
            double x, y;
            dm_diagram_square_centre(&x, &y, sq, o);
            put(&s,
                "<text class=\"number\" data-square=\"%d\" x=\"%g\" y=\"%g\" font-size=\"%g\" "
                "font-family=\"sans-serif\" fill=\"%s\">%d</text>\n",
                sq, x - cell * 0.46, y - cell * 0.46 + fs, fs, hex(c1, DM_DIAGRAM_NUMBER), sq);
        }
    }
    for (int i = 0; i < o->nmarks; i++) {
        double x, y;
        dm_diagram_square_centre(&x, &y, o->marks[i], o);
        double w = cell * 0.08;
        put(&s,
            "<rect class=\"mark\" data-square=\"%d\" x=\"%g\" y=\"%g\" width=\"%g\" "
            "height=\"%g\" fill=\"none\" stroke=\"%s\" stroke-width=\"%g\"/>\n",
            o->marks[i], x - cell / 2.0 + w / 2, y - cell / 2.0 + w / 2, cell - w, cell - w,
            hex(c1, DM_DIAGRAM_MARK), w);
    }
    for (int sq = 1; sq <= DIAGRAM_SQUARES; sq++) {
        dm_piece p = dm_board_piece(b, sq);
        if (p == DM_EMPTY) {
            continue;
        }
        int white = p == DM_WHITE_MAN || p == DM_WHITE_KING;
        int king = p == DM_WHITE_KING || p == DM_BLACK_KING;
        double x, y;
        dm_diagram_square_centre(&x, &y, sq, o);
        put(&s,
            "<circle class=\"piece %s %s\" data-square=\"%d\" cx=\"%g\" cy=\"%g\" r=\"%g\" "
            "fill=\"%s\" stroke=\"%s\" stroke-width=\"%g\"/>\n",
            white ? "white" : "black", king ? "king" : "man", sq, x, y, cell * 0.4,
            hex(c1, white ? DM_DIAGRAM_WHITE : DM_DIAGRAM_BLACK), hex(c2, DM_DIAGRAM_OUTLINE),
            cell * 0.04);
        if (king) {
            put(&s,
                "<circle class=\"crown\" data-square=\"%d\" cx=\"%g\" cy=\"%g\" r=\"%g\" "
                "fill=\"%s\" stroke=\"%s\" stroke-width=\"%g\"/>\n",
                sq, x, y, cell * 0.2, hex(c1, DM_DIAGRAM_CROWN), hex(c2, DM_DIAGRAM_OUTLINE),
                cell * 0.03);
        }
    }
    for (int i = 0; i < o->narrows; i++) {
        double x1, y1, x2, y2;
        dm_diagram_square_centre(&x1, &y1, o->arrows[i].from, o);
        dm_diagram_square_centre(&x2, &y2, o->arrows[i].to, o);
        /* The head (marker) reaches 2 stroke widths past the line's end: stop the line
         * short by that, so that the tip is on the centre of the target square. */
        double dx = x2 - x1, dy = y2 - y1, d = sqrt(dx * dx + dy * dy);
        x2 -= dx / d * cell * 0.24;
        y2 -= dy / d * cell * 0.24;
        put(&s,
            "<line class=\"arrow\" data-from=\"%d\" data-to=\"%d\" x1=\"%.2f\" y1=\"%.2f\" "
            "x2=\"%.2f\" y2=\"%.2f\" stroke=\"%s\" stroke-width=\"%g\" stroke-linecap=\"round\" "
            "opacity=\"0.85\" marker-end=\"url(#arrowhead)\"/>\n",
            o->arrows[i].from, o->arrows[i].to, x1, y1, x2, y2, hex(c1, DM_DIAGRAM_ARROW),
            cell * 0.12);
    }
    put(&s, "</svg>\n");
    if (s.oom) {
        free(s.p);
        return dm_error_set(err, DM_ENOMEM, 0, 0, "out of memory");
    }
    *out = s.p;
    if (len) {
        *len = s.len;
    }
    return DM_OK;
}
