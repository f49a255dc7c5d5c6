/* SPDX-License-Identifier: MIT
 * apps/cli/cmd_diagram.c: `damier diagram --fen FEN [-o FILE.svg|FILE.png] [--flip]
 * [--numbers] [--arrow A-B]... [--mark SQ]... [--size PX]`: the position as a picture;
 * `--pdn FILE [--ply N] [--last-move]` takes a moment of a game instead.
 * SVG is written by the library (damier/diagram.h); PNG is drawn with cairo
 * (libcairo2-dev) from the same geometry and colours when the program was built with
 * it (DM_HAVE_CAIRO), else -o FILE.png is refused with the reason. Without -o the SVG
 * goes to standard output. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <damier/diagram.h>
#include <damier/game.h>
#include <damier/pdn.h>

#include "commands.h"

#ifdef DM_HAVE_CAIRO
#include <cairo.h>

#define DIAGRAM_PI 3.14159265358979323846

static void rgb(cairo_t *cr, unsigned c, double alpha)
{
    cairo_set_source_rgba(cr, ((c >> 16) & 255) / 255.0, ((c >> 8) & 255) / 255.0,
                          (c & 255) / 255.0, alpha);
}

/* Square numbers as seven-segment digits drawn with lines: no font, so the picture is
 * the same on every machine and cairo's text path (fontconfig, whose caches live until
 * the process ends) is not used. Segments a..g: top, top right, bottom right, bottom,
 * bottom left, top left, middle. */
static void draw_number(cairo_t *cr, int n, double x, double y, double cell)
{
    static const unsigned char seg[10] = {0x3f, 0x06, 0x5b, 0x4f, 0x66,
                                          0x6d, 0x7d, 0x07, 0x7f, 0x6f};
    char t[12];
    snprintf(t, sizeof t, "%d", n);
    double w = cell * 0.11, h = cell * 0.18, gap = cell * 0.06;
    cairo_set_line_width(cr, cell * 0.025);
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
    for (int i = 0; t[i]; i++) {
        unsigned m = t[i] >= '0' && t[i] <= '9' ? seg[t[i] - '0'] : 0;
        double l = x + i * (w + gap), r = l + w, top = y, mid = y + h / 2, bot = y + h;
        const double lines[7][4] = {{l, top, r, top}, {r, top, r, mid}, {r, mid, r, bot},
                                    {l, bot, r, bot}, {l, mid, l, bot}, {l, top, l, mid},
                                    {l, mid, r, mid}};
        for (int k = 0; k < 7; k++) {
            if (m & (1u << k)) {
                cairo_move_to(cr, lines[k][0], lines[k][1]);
                cairo_line_to(cr, lines[k][2], lines[k][3]);
            }
        }
        cairo_stroke(cr);
    }
}

/* The picture dm_diagram_svg describes, drawn with cairo; 0 on success. */
static int write_png(const char *path, const dm_board *b, const dm_diagram_options *o)
{
    int size = dm_diagram_size(o), cell = o->cell, frame = o->cell / 4;
    cairo_surface_t *surf = cairo_image_surface_create(CAIRO_FORMAT_RGB24, size, size);
    cairo_t *cr = cairo_create(surf);
    rgb(cr, DM_DIAGRAM_FRAME, 1);
    cairo_paint(cr);
    for (int r = 0; r < 10; r++) {
        for (int c = 0; c < 10; c++) {
            int dr = o->flip ? 9 - r : r, dc = o->flip ? 9 - c : c;
            rgb(cr, (r + c) % 2 ? DM_DIAGRAM_DARK : DM_DIAGRAM_LIGHT, 1);
            cairo_rectangle(cr, frame + dc * cell, frame + dr * cell, cell, cell);
            cairo_fill(cr);
        }
    }
    double x, y;
    if (o->numbers) {
        rgb(cr, DM_DIAGRAM_NUMBER, 1);
        for (int sq = 1; sq <= b->variant->squares; sq++) {
            dm_diagram_square_centre(&x, &y, sq, o);
            draw_number(cr, sq, x - cell * 0.42, y - cell * 0.42, cell);
        }
    }
    for (int i = 0; i < o->nmarks; i++) {
        double w = cell * 0.08;
        dm_diagram_square_centre(&x, &y, o->marks[i], o);
        rgb(cr, DM_DIAGRAM_MARK, 1);
        cairo_set_line_width(cr, w);
        cairo_rectangle(cr, x - cell / 2.0 + w / 2, y - cell / 2.0 + w / 2, cell - w, cell - w);
        cairo_stroke(cr);
    }
    for (int sq = 1; sq <= b->variant->squares; sq++) {
        dm_piece p = dm_board_piece(b, sq);
        if (p == DM_EMPTY) {
            continue;
        }
        int white = p == DM_WHITE_MAN || p == DM_WHITE_KING;
        dm_diagram_square_centre(&x, &y, sq, o);
        cairo_arc(cr, x, y, cell * 0.4, 0, 2 * DIAGRAM_PI);
        rgb(cr, white ? DM_DIAGRAM_WHITE : DM_DIAGRAM_BLACK, 1);
        cairo_fill_preserve(cr);
        rgb(cr, DM_DIAGRAM_OUTLINE, 1);
        cairo_set_line_width(cr, cell * 0.04);
        cairo_stroke(cr);
        if (p == DM_WHITE_KING || p == DM_BLACK_KING) {
            cairo_arc(cr, x, y, cell * 0.2, 0, 2 * DIAGRAM_PI);
            rgb(cr, DM_DIAGRAM_CROWN, 1);
            cairo_fill_preserve(cr);
            rgb(cr, DM_DIAGRAM_OUTLINE, 1);
            cairo_set_line_width(cr, cell * 0.03);
            cairo_stroke(cr);
        }
    }
    for (int i = 0; i < o->narrows; i++) {
        double x1, y1, x2, y2, w = cell * 0.12;
        dm_diagram_square_centre(&x1, &y1, o->arrows[i].from, o);
        dm_diagram_square_centre(&x2, &y2, o->arrows[i].to, o);
        double dx = x2 - x1, dy = y2 - y1, d = sqrt(dx * dx + dy * dy);
        double ux = dx / d, uy = dy / d;
        double bx = x2 - ux * 4 * w, by = y2 - uy * 4 * w; /* base of the head */
        rgb(cr, DM_DIAGRAM_ARROW, 0.85);
        cairo_set_line_width(cr, w);
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
        cairo_move_to(cr, x1, y1);
        cairo_line_to(cr, bx, by);
        cairo_stroke(cr);
        cairo_move_to(cr, x2, y2);
        cairo_line_to(cr, bx - uy * 2 * w, by + ux * 2 * w);
        cairo_line_to(cr, bx + uy * 2 * w, by - ux * 2 * w);
        cairo_close_path(cr);
        cairo_fill(cr);
    }
    cairo_destroy(cr);
    cairo_status_t st = cairo_surface_write_to_png(surf, path);
    cairo_surface_destroy(surf);
    cairo_debug_reset_static_data(); /* cairo's caches, so that leak checkers see none */
    if (st != CAIRO_STATUS_SUCCESS) {
        fprintf(stderr, "damier diagram: cannot write %s: %s\n", path, cairo_status_to_string(st));
        return 1;
    }
    return 0;
}
#endif

/* The position after `ply` plies (-1: the end) of the first game of the PDN file path,
 * with the move that led there as an arrow when arrow is set; 0 on success, else the
 * error is printed. */
static int board_from_pdn(dm_board *b, dm_diagram_options *o, const char *path, int ply, int arrow)
{
    size_t n;
    char *text = cli_read_file("diagram", path, (size_t)64 << 20, &n);
    if (!text) {
        return 1;
    }
    dm_game *g = NULL;
    dm_error err = {0};
    dm_status st = dm_pdn_read_game(&g, NULL, text, n, path, 0, &err);
    free(text);
    if (st != DM_OK) {
        fprintf(stderr, "damier diagram: %s\n", err.message);
        return 1;
    }
    int len = dm_game_length(g);
    if (ply > len) {
        fprintf(stderr, "damier diagram: --ply %d: the game of %s has %d plies\n", ply, path, len);
        dm_game_free(g);
        return 1;
    }
    if (ply < 0) {
        ply = len;
    }
    if (dm_game_variant(g)->id != DM_VARIANT_INTERNATIONAL) {
        fprintf(stderr, "damier diagram: %s: a game of %s; diagrams draw international draughts\n",
                path, dm_game_variant(g)->name);
        dm_game_free(g);
        return 1;
    }
    *b = *dm_game_position_at(g, ply);
    if (arrow && ply > 0 && o->narrows < DM_DIAGRAM_MAX_ARROWS) {
        const dm_move *m = dm_game_move_at(g, ply - 1);
        if (m->from != m->to) {
            o->arrows[o->narrows].from = m->from;
            o->arrows[o->narrows].to = m->to;
            o->narrows++;
        }
    }
    dm_game_free(g);
    return 0;
}

static int ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), t = strlen(tail);
    if (n < t) {
        return 0;
    }
    for (size_t i = 0; i < t; i++) {
        char c = s[n - t + i];
        if (c >= 'A' && c <= 'Z') {
            c = (char)(c - 'A' + 'a');
        }
        if (c != tail[i]) {
            return 0;
        }
    }
    return 1;
}

static void usage(FILE *f)
{
    fprintf(f,
            "usage: damier diagram --fen FEN [-o FILE.svg|FILE.png] [--flip] [--numbers]\n"
            "                      [--arrow A-B]... [--mark SQ]... [--size PX]\n"
            "The position as a picture: SVG (standard output without -o), or PNG%s.\n"
            "--flip: Black's side at the bottom; --numbers: square numbers; --arrow 32-28\n"
            "(or 28x17) an arrow between two squares, --mark 23 a ring on a square (each\n"
            "may be repeated); --size: pixels per square, 8..200 (default 40).\n",
#ifdef DM_HAVE_CAIRO
            " (drawn with cairo)"
#else
            " (not in this build: it was made without cairo, libcairo2-dev)"
#endif
    );
}

int cmd_diagram(int argc, char **argv)
{
    dm_diagram_options o = DM_DIAGRAM_OPTIONS_INIT;
    const char *fen = NULL, *outpath = NULL, *pdn = NULL;
    int ply = -1, last_move = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int has = i + 1 < argc;
        dm_error err = {0};
        if (!strcmp(a, "--help")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(a, "--fen") && has) {
            fen = argv[++i];
        } else if (!strcmp(a, "--pdn") && has) {
            pdn = argv[++i];
        } else if (!strcmp(a, "--ply") && has) {
            char *end;
            errno = 0;
            long v = strtol(argv[++i], &end, 10);
            if (!*argv[i] || *end || errno || v < 0 || v > 100000) {
                fprintf(stderr, "damier diagram: --ply needs a number of plies from 0, not '%s'\n",
                        argv[i]);
                return 2;
            }
            ply = (int)v;
        } else if (!strcmp(a, "--last-move")) {
            last_move = 1;
        } else if (!strcmp(a, "-o") && has) {
            outpath = argv[++i];
        } else if (!strcmp(a, "--flip")) {
            o.flip = 1;
        } else if (!strcmp(a, "--numbers")) {
            o.numbers = 1;
        } else if (!strcmp(a, "--size") && has) {
            char *end;
            errno = 0;
            long v = strtol(argv[++i], &end, 10);
            if (!*argv[i] || *end || errno || v < 8 || v > 200) {
                fprintf(stderr,
                        "damier diagram: --size needs a number of pixels from 8 to 200, "
                        "not '%s'\n",
                        argv[i]);
                return 2;
            }
            o.cell = (int)v;
        } else if (!strcmp(a, "--arrow") && has) {
            const char *t = argv[++i];
            if (o.narrows >= DM_DIAGRAM_MAX_ARROWS) {
                fprintf(stderr, "damier diagram: at most %d arrows\n", DM_DIAGRAM_MAX_ARROWS);
                return 2;
            }
            if (dm_diagram_parse_arrow(&o.arrows[o.narrows].from, &o.arrows[o.narrows].to, t,
                                       &err) != DM_OK) {
                fprintf(stderr, "damier diagram: --arrow '%s', character %d: %s\n", t, err.column,
                        err.message);
                return 2;
            }
            o.narrows++;
        } else if (!strcmp(a, "--mark") && has) {
            const char *t = argv[++i];
            if (o.nmarks >= DM_DIAGRAM_MAX_MARKS) {
                fprintf(stderr, "damier diagram: at most %d marked squares\n",
                        DM_DIAGRAM_MAX_MARKS);
                return 2;
            }
            if (dm_diagram_parse_square(&o.marks[o.nmarks], t, &err) != DM_OK) {
                fprintf(stderr, "damier diagram: --mark '%s', character %d: %s\n", t, err.column,
                        err.message);
                return 2;
            }
            o.nmarks++;
        } else {
            fprintf(stderr, "damier diagram: unknown option '%s'%s\n", a,
                    has || a[0] != '-' ? "" : " (or its value is missing)");
            return 2;
        }
    }
    if (!fen == !pdn) {
        if (fen) {
            fprintf(stderr, "damier diagram: --fen and --pdn name the position twice: give one\n");
        } else {
            usage(stderr);
        }
        return 2;
    }
    if (fen && (ply >= 0 || last_move)) {
        fprintf(stderr, "damier diagram: --ply and --last-move go with --pdn\n");
        return 2;
    }
    dm_board b;
    if (fen ? cli_board_from_arg(&b, fen) : board_from_pdn(&b, &o, pdn, ply, last_move)) {
        return 2;
    }
    int png = outpath && ends_with(outpath, ".png");
    if (outpath && !png && !ends_with(outpath, ".svg")) {
        fprintf(stderr, "damier diagram: -o %s: the file name must end in .svg or .png\n", outpath);
        return 2;
    }
    if (png) {
#ifdef DM_HAVE_CAIRO
        return write_png(outpath, &b, &o);
#else
        fprintf(stderr, "damier diagram: PNG output is not in this build (it was made without "
                        "cairo: apt-get install libcairo2-dev, then build again); write .svg\n");
        return 2;
#endif
    }
    char *svg = NULL;
    size_t len = 0;
    dm_error err = {0};
    if (dm_diagram_svg(&svg, &len, &b, &o, &err) != DM_OK) {
        fprintf(stderr, "damier diagram: %s\n", err.message);
        return 2;
    }
    FILE *f = outpath ? fopen(outpath, "w") : stdout;
    if (!f) {
        fprintf(stderr, "damier diagram: cannot write %s: %s\n", outpath, strerror(errno));
        free(svg);
        return 1;
    }
    int bad = fwrite(svg, 1, len, f) != len;
    free(svg);
    if (f != stdout) {
        bad |= fclose(f) != 0;
    }
    if (bad) {
        fprintf(stderr, "damier diagram: cannot write %s\n", outpath ? outpath : "the output");
        return 1;
    }
    return 0;
}
