/* SPDX-License-Identifier: MIT
 * core/variant_int.h: board geometry shared by the generic-core files (vboard.c,
 * vmovegen.c, vnotation.c). Rows r = 0..n-1 from the top as White sees it, columns
 * c = 0..n-1 from White's left; dark squares have r + c odd; square numbers run
 * row by row from the top: sq = r * n/2 + c/2 + 1. On the full board (Turkish,
 * DM_GEOM_FULL) every square plays: sq = r * n + c + 1. */
#ifndef DM_CORE_VARIANT_INT_H
#define DM_CORE_VARIANT_INT_H

#include <damier/variant.h>

static inline int vg_full(const dm_variant *v)
{
    return v->geometry == DM_GEOM_FULL;
}

static inline int vg_row(const dm_variant *v, int sq)
{
    return (sq - 1) / (vg_full(v) ? v->size : v->size / 2);
}

static inline int vg_col(const dm_variant *v, int sq)
{
    if (vg_full(v)) {
        return (sq - 1) % v->size;
    }
    int r = vg_row(v, sq);
    return 2 * ((sq - 1) % (v->size / 2)) + ((r & 1) ? 0 : 1);
}

/* Square at (r, c), or 0 when off the board or a light square. */
static inline int vg_square(const dm_variant *v, int r, int c)
{
    if (r < 0 || c < 0 || r >= v->size || c >= v->size) {
        return 0;
    }
    if (vg_full(v)) {
        return r * v->size + c + 1;
    }
    if (!((r + c) & 1)) {
        return 0;
    }
    return r * (v->size / 2) + c / 2 + 1;
}

/* Row where men of colour side are crowned. */
static inline int vg_promo_row(const dm_variant *v, int side)
{
    return side == DM_WHITE ? 0 : v->size - 1;
}

static inline int vg_is_man(int piece)
{
    return piece == DM_WHITE_MAN || piece == DM_BLACK_MAN;
}

static inline int vg_is_king(int piece)
{
    return piece == DM_WHITE_KING || piece == DM_BLACK_KING;
}

/* Colour of a non-empty piece. */
static inline int vg_color(int piece)
{
    return (piece == DM_BLACK_MAN || piece == DM_BLACK_KING) ? DM_BLACK : DM_WHITE;
}

static inline int vg_capt_has(const dm_move *m, int sq)
{
    return (int)((m->capt[(sq - 1) >> 6] >> ((sq - 1) & 63)) & 1);
}

/* PDN 3.0 paths of a move list, parallel to it: path[i] holds the ncapt - 1
 * intermediate squares of moves[i] (dm_move_path's squares). Only notation asks the
 * generator for them; perft and the search never do. */
typedef uint8_t vg_path[DM_MAX_CAPT];

/* dm_movegen_legal with the PDN path of each capture in paths[0..count-1] (paths may
 * be NULL: none written, what dm_movegen_legal does). vmovegen.c. */
int vgen_legal_paths(dm_movelist *list, vg_path *paths, const dm_board *b);

/* Every capture of b, ignoring the majority rule (vmovegen.c); explains why a
 * capture written in a record is illegal. Paths as vgen_legal_paths (NULL: none).
 * Returns list->count. */
int vgen_all_captures(dm_movelist *list, vg_path *paths, const dm_board *b);

/* True when one capture path of m (legal in b) lands, after each capture but the
 * last, on want[0..n-1] (any landing square of a flying king). vmovegen.c. */
int vgen_path_matches(const dm_board *b, const dm_move *m, const int *want, int n);

#endif
