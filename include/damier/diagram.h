/* SPDX-License-Identifier: MIT
 * damier/diagram.h: a position of international draughts as a picture for forums,
 * books and printing: SVG text written here (no library), with optional square
 * numbers, arrows and marked squares; the geometry and colours are public so that
 * another renderer (the damier program's PNG output, through cairo) draws the same
 * picture. Memory out: nothing here opens files or prints. */
#ifndef DM_DIAGRAM_H
#define DM_DIAGRAM_H

#include <stddef.h>

#include <damier/variant.h>
#include <damier/status.h>

#ifdef __cplusplus
extern "C" {
#endif

#define DM_DIAGRAM_MAX_ARROWS 16
#define DM_DIAGRAM_MAX_MARKS 50

/* Colours, 0xRRGGBB. */
#define DM_DIAGRAM_LIGHT 0xf3e3c3   /* the squares nobody plays on */
#define DM_DIAGRAM_DARK 0x9a6b43    /* the 50 playing squares */
#define DM_DIAGRAM_FRAME 0x4a3020   /* the border around the board */
#define DM_DIAGRAM_WHITE 0xfbfbf7   /* White's pieces */
#define DM_DIAGRAM_BLACK 0x1e1e1e   /* Black's pieces */
#define DM_DIAGRAM_OUTLINE 0x000000 /* the outline of every piece */
#define DM_DIAGRAM_CROWN 0xd4a017   /* the inner disc of a king */
#define DM_DIAGRAM_MARK 0x2e8b57    /* a marked square's ring */
#define DM_DIAGRAM_ARROW 0x1f5fbf   /* arrows */
#define DM_DIAGRAM_NUMBER 0xf3e3c3  /* square numbers on the dark squares */

/* What to draw besides the position. Initialise with DM_DIAGRAM_OPTIONS_INIT. */
typedef struct dm_diagram_options {
    int version; /* DM_DIAGRAM_OPTIONS_VERSION */
    int cell;    /* pixels per square, 8..200 (default 40); the picture is
                    dm_diagram_size pixels square */
    int flip;    /* 1: Black's side at the bottom (square 50 top left) */
    int numbers; /* 1: each playing square's number in its top left corner */
    int narrows; /* arrows, from the centre of one square to another's */
    struct {
        int from, to; /* squares 1..50, different */
    } arrows[DM_DIAGRAM_MAX_ARROWS];
    int nmarks;                      /* marked squares: a ring inside the square */
    int marks[DM_DIAGRAM_MAX_MARKS]; /* squares 1..50 */
} dm_diagram_options;

#define DM_DIAGRAM_OPTIONS_VERSION 1
#define DM_DIAGRAM_OPTIONS_INIT                                                                    \
    {                                                                                              \
        DM_DIAGRAM_OPTIONS_VERSION, 40, 0, 0, 0, {{0, 0}}, 0,                                      \
        {                                                                                          \
            0                                                                                      \
        }                                                                                          \
    }

/* Width (= height) of the picture in pixels: 10 squares and a frame of cell / 4 on
 * each side. 0 for invalid options. */
DM_API int dm_diagram_size(const dm_diagram_options *o);

/* Centre of square sq (1..50) in picture pixels (x right, y down, (0,0) the top left
 * corner of the frame); square 1 is on the top row unless flipped. DM_EINVAL for a
 * bad square or options. */
DM_API dm_status dm_diagram_square_centre(double *x, double *y, int sq,
                                          const dm_diagram_options *o);

/* Check o: version, cell, counts, squares. DM_EINVAL with err saying which. */
DM_API dm_status dm_diagram_check(const dm_diagram_options *o, dm_error *err);

/* Read an arrow "A-B" or "AxB" (squares 1..50, different) into *from, *to.
 * DM_EPARSE with err->column (1-based) where the text goes wrong. */
DM_API dm_status dm_diagram_parse_arrow(int *from, int *to, const char *text, dm_error *err);

/* Read a square number 1..50 ("32"). DM_EPARSE with err->column. */
DM_API dm_status dm_diagram_parse_square(int *sq, const char *text, dm_error *err);

/* The diagram of position (a 10x10 variant's: international, antidraughts, ...) as an
 * SVG 1.1 document (UTF-8, one element per line):
 *   <rect class="light|dark" data-square="N"...> for the squares (N on dark ones),
 *   <circle class="piece white man|white king|black man|black king"
 *           data-square="N" cx= cy= r=...> for each piece (a king has a second,
 *           smaller circle class="crown"), <text class="number"> for --numbers,
 *   <rect class="mark" data-square="N"> and <line class="arrow" data-from= data-to=>,
 * and a <title> with the FEN. *out is malloc'd (free()), *len (may be NULL) its
 * length. DM_EINVAL (err says which) for bad options, a board of another size or one
 * that does not validate, DM_ENOMEM. */
DM_API dm_status dm_diagram_svg(char **out, size_t *len, const dm_board *position,
                                const dm_diagram_options *o, dm_error *err);

#ifdef __cplusplus
}
#endif
#endif /* DM_DIAGRAM_H */
