/* SPDX-License-Identifier: MIT
 * core/vpath.c: does a written capture path (landing squares, as records give them)
 * belong to a legal move? Used by the generic notation (vnotation.c) to resolve
 * paths that name any landing square of a flying king; generation itself is the
 * bitboard core's (vmovegen.c). Invariant: captured pieces stay on the board
 * (blocking) until the move ends and are never jumped twice.
 *
 * Design: the position is copied into a padded grid of (n+4) x (n+4) cells, so
 * that the four diagonal steps are fixed offsets (-w-1, -w+1, +w-1, +w+1 with
 * w = n+4), Frisian's orthogonal steps too (-2w, +2, +2w, -2: the next playing
 * square of the file or row), and every step off the board lands on an OFF border
 * cell (two of them on each side):
 *
 *      OFF OFF OFF OFF ...          cell(r, c) = (r + 2) * w + (c + 2)
 *      OFF  .   b   .  ...          directions 0 NW, 1 NE (towards square 1,
 *      OFF  b   .   b  ...          White's forward), 2 SW, 3 SE (Black's forward),
 *                                   4 N, 5 E, 6 S, 7 W (Frisian captures)
 *
 * Captures are a depth-first search over (cell, piece is king, taken[]), which
 * is the general form of FMJD 4.2-4.11: a man jumps an adjacent piece to the
 * square directly behind; a flying king jumps a piece at any distance along a
 * free line and lands on any free square behind it. */
#include <damier/variant.h>

#include <string.h>

#include "core/gen.h"
#include "core/variant_int.h"

#define GRID_MAX 256 /* (12 + 4)^2 */
#define OFF 0xFF

typedef struct vgen {
    const dm_variant *v;
    dm_movelist *list;
    int n, w;                /* board size, padded width n + 4 */
    int dir[8];              /* cell offsets of NW, NE, SW, SE, then N, E, S, W */
    int ndir;                /* 4, or 8 with orthogonal captures (Frisian) */
    int me;                  /* side to move */
    int all_captures;        /* 1: ignore the majority rule (for error messages) */
    int best;                /* most pieces taken by a listed capture */
    uint8_t cell[GRID_MAX];  /* dm_piece, or OFF */
    uint8_t taken[GRID_MAX]; /* 1: captured earlier in the current sequence */
    /* the capture being built */
    int from;      /* start cell */
    int orig_king; /* the moving piece was a king at the start */
    int ncapt;
    int capt[DM_MAX_CAPT]; /* cell of each captured piece, in order */
    int land[DM_MAX_CAPT]; /* cell landed on after each capture */
    int cdir[DM_MAX_CAPT]; /* direction of each capture */
} vgen;

static inline int cell_of(const vgen *g, int sq)
{
    const dm_variant *v = g->v;
    return (vg_row(v, sq) + 2) * g->w + vg_col(v, sq) + 2;
}

static inline int sq_of(const vgen *g, int cell)
{
    int r = cell / g->w - 2, c = cell % g->w - 2;
    return r * (g->n / 2) + c / 2 + 1;
}

static inline int cell_row(const vgen *g, int cell)
{
    return cell / g->w - 2;
}

static void gen_init(vgen *g, dm_movelist *list, const dm_board *b)
{
    const dm_variant *v = b->variant;
    g->v = v;
    g->list = list;
    g->n = v->size;
    g->w = v->size + 4;
    g->dir[0] = -g->w - 1;
    g->dir[1] = -g->w + 1;
    g->dir[2] = g->w - 1;
    g->dir[3] = g->w + 1;
    /* Frisian: the next playing square of the file (two rows) or of the row (two
     * columns); the second border row and column catch the steps off the board */
    g->dir[4] = -2 * g->w;
    g->dir[5] = 2;
    g->dir[6] = 2 * g->w;
    g->dir[7] = -2;
    g->ndir = v->orthogonal ? 8 : 4;
    g->me = b->side;
    g->all_captures = 0;
    g->best = 0;
    memset(g->cell, OFF, (size_t)(g->w * g->w));
    memset(g->taken, 0, (size_t)(g->w * g->w));
    for (int r = 0; r < g->n; r++) {
        for (int c = 0; c < g->n; c++) {
            int sq = vg_square(v, r, c);
            g->cell[(r + 2) * g->w + c + 2] = sq ? b->sq[sq] : DM_EMPTY;
        }
    }
    list->count = 0;
    list->overflow = 0;
}

static inline int is_opp(const vgen *g, int piece)
{
    return piece != DM_EMPTY && piece != OFF && vg_color(piece) != g->me;
}

/* The cell of the piece that a piece on `at` (a king or not) can capture in
 * direction d, or 0: an opponent piece not taken yet, reached over empty cells
 * (adjacent for a man or a short king), with an empty cell right behind it. */
static int capturable(const vgen *g, int at, int king, int d)
{
    const dm_variant *v = g->v;
    if (d < 4 && !king && !v->men_capture_back && (d < 2) != (g->me == DM_WHITE)) {
        return 0; /* men capture forward only (English) */
    }
    int step = g->dir[d];
    int x = at + step;
    if (king && v->flying_kings) {
        while (g->cell[x] == DM_EMPTY) {
            x += step;
        }
    }
    if (!is_opp(g, g->cell[x]) || g->taken[x]) {
        return 0; /* Turkish strike: a taken piece blocks and cannot be jumped again */
    }
    if (!king && !v->men_capture_kings && vg_is_king(g->cell[x])) {
        return 0;
    }
    return g->cell[x + step] == DM_EMPTY ? x : 0;
}

/* ---- written capture paths -------------------------------------------------------
 * A record may name any landing square of a flying king, not only the PDN 3.0
 * canonical one; search the paths of m (restricted to its captured pieces) for one
 * whose landing squares after each capture but the last are want[0..n-1]. */

typedef struct pathq {
    vgen g;
    const dm_move *m;
    const int *want; /* written intermediate squares */
    int found;
} pathq;

static void path_dfs(pathq *q, int at, int king, int k)
{
    vgen *g = &q->g;
    const dm_variant *v = g->v;
    int last = k == q->m->ncapt - 1;
    for (int d = 0; d < g->ndir && !q->found; d++) {
        int x = capturable(g, at, king, d);
        if (!x || !vg_capt_has(q->m, sq_of(g, x))) {
            continue;
        }
        g->taken[x] = 1;
        /* Thai: the piece leaves the board at once and the king lands right behind */
        int thai = king && v->flying_kings && v->king_landing == DM_LAND_BEHIND;
        uint8_t piece = g->cell[x];
        if (thai) {
            g->cell[x] = DM_EMPTY;
        }
        for (int y = x + g->dir[d]; g->cell[y] == DM_EMPTY && !q->found; y += g->dir[d]) {
            int king_next = king;
            if (!king && cell_row(g, y) == vg_promo_row(v, g->me) &&
                v->promotion == DM_PROMOTE_CONTINUE_KING) {
                king_next = 1;
            }
            if (last) {
                q->found = sq_of(g, y) == q->m->to;
            } else if (sq_of(g, y) == q->want[k]) {
                path_dfs(q, y, king_next, k + 1);
            }
            if (!(king && v->flying_kings) || thai) {
                break;
            }
        }
        g->cell[x] = piece;
        g->taken[x] = 0;
    }
}

int vgen_path_matches(const dm_board *b, const dm_move *m, const int *want, int n)
{
    if (vg_full(b->variant)) {
        return dm_genfull_path_matches(b, m, want, n); /* Turkish: orthogonal, removed at once */
    }
    if (m->ncapt < 2 || n != m->ncapt - 1) {
        return 0;
    }
    pathq q;
    dm_movelist scratch; /* gen_init resets its count; never filled */
    gen_init(&q.g, &scratch, b);
    q.m = m;
    q.want = want;
    q.found = 0;
    int from = cell_of(&q.g, m->from);
    int p = q.g.cell[from];
    q.g.cell[from] = DM_EMPTY;
    path_dfs(&q, from, vg_is_king(p), 0);
    return q.found;
}
