/* SPDX-License-Identifier: MIT
 * tests/reference/ref_vmovegen.c: the SLOW REFERENCE move generator of the tests
 * (not in the library): the mailbox generator that served every variant before the
 * bitboard core (src/core/gen_impl.h), kept as an independent implementation of the
 * same rules. tests/reference/test_reference.c checks the library against it.
 * Legal move generation, move application and perft for every variant, driven by
 * the dm_variant flags. Invariant: captured pieces stay
 * on the board (blocking) until the move ends and are never jumped twice.
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
 * free line and lands on any free square behind it.
 *
 * The rules added with Czech, Italian, Spanish, killer, breakthrough and Thai are
 * written here again from their texts (docs/VARIANTS.md), not taken from the
 * library: capture precedence as a tuple compared criterion by criterion
 * (prec_cmp), the killer halt, Thai's landing right behind with the piece removed
 * at once, and breakthrough's end at the first king. */
#include <damier/variant.h>

#include <string.h>

#include "core/variant_int.h"
#include "reference/ref_vmovegen.h"

#define GRID_MAX 256 /* (12 + 4)^2 */
#define OFF 0xFF

typedef struct vgen {
    const dm_variant *v;
    dm_movelist *list;
    uint8_t (*paths)[DM_MAX_CAPT]; /* PDN path of list->moves[i], or NULL */
    int n, w;                      /* board size, padded width n + 4 */
    int dir[8];                    /* cell offsets of NW, NE, SW, SE, then N, E, S, W */
    int ndir;                      /* 4, or 8 with orthogonal captures (Frisian) */
    int me;                        /* side to move */
    int best;                      /* most pieces taken by a listed capture */
    int have_best;                 /* a capture is listed: best_* describe it */
    int best_king;                 /* it was made by a king */
    int best_kings;                /* kings it takes */
    int best_order[DM_MAX_CAPT];   /* 1 where its i-th piece taken is a king */
    uint8_t cell[GRID_MAX];        /* dm_piece, or OFF */
    uint8_t taken[GRID_MAX];       /* 1: captured earlier in the current sequence */
    /* the capture being built */
    int from;      /* start cell */
    int orig_king; /* the moving piece was a king at the start */
    int ncapt;
    int capt[DM_MAX_CAPT];      /* cell of each captured piece, in order */
    int land[DM_MAX_CAPT];      /* cell landed on after each capture */
    int cdir[DM_MAX_CAPT];      /* direction of each capture */
    int capt_king[DM_MAX_CAPT]; /* 1: that piece was a king (Thai: it left the board) */
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

static void gen_init(vgen *g, dm_movelist *list, uint8_t (*paths)[DM_MAX_CAPT], const dm_board *b)
{
    const dm_variant *v = b->variant;
    g->v = v;
    g->list = list;
    g->paths = paths;
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
    g->best = 0;
    g->have_best = 0;
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

static void add_quiet(vgen *g, int from, int to, int promote)
{
    dm_movelist *l = g->list;
    if (l->count >= DM_MAX_MOVES) {
        l->overflow = 1;
        return;
    }
    dm_move *m = &l->moves[l->count++];
    m->capt[0] = m->capt[1] = 0;
    m->from = (uint8_t)sq_of(g, from);
    m->to = (uint8_t)sq_of(g, to);
    m->ncapt = 0;
    m->promote = (uint8_t)promote;
}

/* Capture precedence of the capture being built against the best listed one:
 * > 0 better, 0 equal, < 0 worse. Criteria in order (docs/VARIANTS.md, "Capture
 * precedence, exactly"): COUNT pieces; CZECH by a king; SPANISH pieces, kings;
 * ITALIAN pieces, by a king, kings, then the first position where one takes a
 * king and the other does not (the earlier king wins); FRISIAN value (a king just
 * under two men), then by a king. */
static int prec_cmp(const vgen *g, int by_king, int kings, const int *order)
{
    int n = g->ncapt;
    switch (g->v->precedence) {
        case DM_PREC_CZECH:
            return by_king - g->best_king;
        case DM_PREC_SPANISH:
            if (n != g->best) {
                return n - g->best;
            }
            return kings - g->best_kings;
        case DM_PREC_FRISIAN:
            /* a king worth just under two men: first men + 2 kings, then (the same
             * count) fewer kings, then a capture by a king */
            if (n + kings != g->best + g->best_kings) {
                return (n + kings) - (g->best + g->best_kings);
            }
            if (kings != g->best_kings) {
                return g->best_kings - kings;
            }
            return by_king - g->best_king;
        case DM_PREC_ITALIAN:
            if (n != g->best) {
                return n - g->best;
            }
            if (by_king != g->best_king) {
                return by_king - g->best_king;
            }
            if (kings != g->best_kings) {
                return kings - g->best_kings;
            }
            for (int i = 0; i < n; i++) {
                if (order[i] != g->best_order[i]) {
                    return order[i] - g->best_order[i];
                }
            }
            return 0;
        default:
            return 0;
    }
}

/* The capture in g ends on cell `to`; `king_now`: the piece is a king there. */
static void add_capture(vgen *g, int to, int king_now)
{
    dm_movelist *l = g->list;
    int n = g->ncapt;
    dm_precedence prec = g->v->precedence;
    if (prec == DM_PREC_CZECH || prec == DM_PREC_SPANISH || prec == DM_PREC_ITALIAN ||
        prec == DM_PREC_FRISIAN) {
        int order[DM_MAX_CAPT], kings = 0;
        for (int i = 0; i < n; i++) {
            order[i] = vg_is_king(g->cell[g->capt[i]]) || g->capt_king[i];
            kings += order[i];
        }
        int c = g->have_best ? prec_cmp(g, g->orig_king, kings, order) : 1;
        if (c < 0) {
            return;
        }
        if (c > 0) {
            l->count = 0;
            l->overflow = 0;
            g->have_best = 1;
            g->best = n;
            g->best_king = g->orig_king;
            g->best_kings = kings;
            memcpy(g->best_order, order, sizeof order);
        }
    }
    if (prec == DM_PREC_COUNT) {
        /* FMJD 4.13: only the sequences taking the most pieces are legal. */
        if (n < g->best) {
            return;
        }
        if (n > g->best) {
            l->count = 0;
            l->overflow = 0;
            g->best = n;
        }
    }
    dm_move m;
    m.capt[0] = m.capt[1] = 0;
    for (int i = 0; i < n; i++) {
        int s = sq_of(g, g->capt[i]) - 1;
        m.capt[s >> 6] |= UINT64_C(1) << (s & 63);
    }
    m.from = (uint8_t)sq_of(g, g->from);
    m.to = (uint8_t)sq_of(g, to);
    m.ncapt = (uint8_t)n;
    m.promote =
        (uint8_t)(!g->orig_king && (king_now || cell_row(g, to) == vg_promo_row(g->v, g->me)));
    /* Equal from, to, captured set and promotion: the same move (first path kept). */
    for (int i = 0; i < l->count; i++) {
        const dm_move *o = &l->moves[i];
        if (o->ncapt == m.ncapt && o->from == m.from && o->to == m.to && o->capt[0] == m.capt[0] &&
            o->capt[1] == m.capt[1] && o->promote == m.promote) {
            return;
        }
    }
    if (l->count >= DM_MAX_MOVES) {
        l->overflow = 1;
        return;
    }
    /* PDN 3.0 path: turning square, or the square right behind when going on straight. */
    for (int i = 0; i + 1 < n && g->paths; i++) {
        int c = g->cdir[i + 1] == g->cdir[i] ? g->capt[i] + g->dir[g->cdir[i]] : g->land[i];
        g->paths[l->count][i] = (uint8_t)sq_of(g, c);
    }
    l->moves[l->count++] = m;
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

static int can_capture(const vgen *g, int at, int king)
{
    for (int d = 0; d < g->ndir; d++) {
        if (capturable(g, at, king, d)) {
            return 1;
        }
    }
    return 0;
}

/* Extend the capture from cell `at`; returns 1 when at least one capture was found
 * (so the sequence may not stop here: a started capture must be completed). */
static int capture_from(vgen *g, int at, int king)
{
    const dm_variant *v = g->v;
    int found = 0;
    int flying = king && v->flying_kings;
    if (g->ncapt >= DM_MAX_CAPT) {
        return 0;
    }
    for (int d = 0; d < g->ndir; d++) {
        int x = capturable(g, at, king, d);
        if (!x) {
            continue;
        }
        int step = g->dir[d];
        found = 1;
        g->taken[x] = 1;
        int k = g->ncapt++;
        g->capt[k] = x;
        g->cdir[k] = d;
        g->capt_king[k] = vg_is_king(g->cell[x]);
        /* killer: a flying king's capture that ends after a king ends right behind it */
        int halt = flying && v->king_landing == DM_LAND_BEHIND_LAST_KING && g->capt_king[k];
        if (flying && v->king_landing == DM_LAND_BEHIND) {
            /* Thai: the piece leaves the board now; land right behind it only, then
             * any direction (also back over its square) */
            uint8_t piece = g->cell[x];
            int y = x + step;
            g->cell[x] = DM_EMPTY;
            g->land[k] = y;
            if (!capture_from(g, y, 1)) {
                add_capture(g, y, 1);
            }
            g->cell[x] = piece;
            g->ncapt--;
            g->taken[x] = 0;
            continue;
        }
        /* A flying king that can go on capturing from some landing square must land
         * on one of those (the capture must be completed); this matters under free
         * choice (Russian), the majority rule implies it. */
        int must_go_on = 0;
        if (flying) {
            for (int y = x + step; g->cell[y] == DM_EMPTY && !must_go_on; y += step) {
                must_go_on = can_capture(g, y, 1);
            }
        }
        for (int y = x + step; g->cell[y] == DM_EMPTY; y += step) {
            g->land[k] = y;
            int king_next = king, stop = 0;
            if (!king && cell_row(g, y) == vg_promo_row(v, g->me)) {
                if (v->promotion == DM_PROMOTE_CONTINUE_KING) {
                    king_next = 1; /* Russian: crowned at once, goes on as a king */
                } else if (v->promotion == DM_PROMOTE_STOPS) {
                    stop = 1;
                }
            }
            if (stop || !capture_from(g, y, king_next)) {
                if (!must_go_on && (!halt || y == x + step)) {
                    add_capture(g, y, king_next);
                }
            }
            if (!flying) {
                break;
            }
        }
        g->ncapt--;
        g->taken[x] = 0;
    }
    return found;
}

static void gen_captures(vgen *g)
{
    for (int sq = 1; sq <= g->v->squares; sq++) {
        int c = cell_of(g, sq);
        int p = g->cell[c];
        if (p == DM_EMPTY || vg_color(p) != g->me) {
            continue;
        }
        g->from = c;
        g->orig_king = vg_is_king(p);
        g->ncapt = 0;
        g->cell[c] = DM_EMPTY; /* the start square is free during the capture */
        capture_from(g, c, g->orig_king);
        g->cell[c] = (uint8_t)p;
    }
}

static void gen_quiet(vgen *g)
{
    const dm_variant *v = g->v;
    int promo = vg_promo_row(v, g->me);
    for (int sq = 1; sq <= v->squares; sq++) {
        int c = cell_of(g, sq);
        int p = g->cell[c];
        if (p == DM_EMPTY || vg_color(p) != g->me) {
            continue;
        }
        if (vg_is_man(p)) {
            int d0 = g->me == DM_WHITE ? 0 : 2;
            for (int d = d0; d < d0 + 2; d++) {
                int y = c + g->dir[d];
                if (g->cell[y] == DM_EMPTY) {
                    add_quiet(g, c, y, cell_row(g, y) == promo);
                }
            }
        } else {
            for (int d = 0; d < 4; d++) {
                for (int y = c + g->dir[d]; g->cell[y] == DM_EMPTY; y += g->dir[d]) {
                    add_quiet(g, c, y, 0);
                    if (!v->flying_kings) {
                        break;
                    }
                }
            }
        }
    }
}

/* Turkish (the full 8x8 board): a reference of its own, same contracts. */
#include "reference/ref_turkish.c"

int ref_vmovegen_legal(dm_movelist *list, uint8_t (*paths)[DM_MAX_CAPT], const dm_board *b)
{
    if (b->variant->geometry == DM_GEOM_FULL) {
        return ref_turkish_legal(list, paths, b);
    }
    vgen g;
    gen_init(&g, list, paths, b);
    if (b->variant->win_on_promotion) {
        for (int sq = 1; sq <= b->variant->squares; sq++) {
            if (vg_is_king(b->sq[sq])) {
                return 0; /* breakthrough: someone has crowned, the game is over */
            }
        }
    }
    gen_captures(&g);
    if (list->count == 0) { /* capture is compulsory in every variant here */
        gen_quiet(&g);
        /* Frisian FR 17: a player with men left may not make more than three simple
         * moves in a row with the same king */
        const dm_variant *v = b->variant;
        int me = b->side, ks = b->king_sq[me], men = 0;
        for (int sq = 1; sq <= v->squares; sq++) {
            men += b->sq[sq] == (me == DM_WHITE ? DM_WHITE_MAN : DM_BLACK_MAN);
        }
        if (v->king_move_limit && men > 0 && b->king_moves[me] >= v->king_move_limit && ks &&
            vg_is_king(b->sq[ks]) && vg_color(b->sq[ks]) == me) {
            int k = 0;
            for (int i = 0; i < list->count; i++) {
                if (list->moves[i].from != ks) {
                    list->moves[k++] = list->moves[i];
                }
            }
            list->count = k;
        }
    }
    return list->count;
}

void ref_vboard_apply(dm_board *b, const dm_move *m)
{
    int p = b->sq[m->from];
    b->sq[m->from] = DM_EMPTY;
    for (int w = 0; w < 2; w++) {
        for (uint64_t bits = m->capt[w]; bits; bits &= bits - 1) {
            b->sq[w * 64 + __builtin_ctzll(bits) + 1] = DM_EMPTY;
        }
    }
    int king_move = !m->promote && m->ncapt == 0 && vg_is_king(p);
    if (m->promote) {
        p = p == DM_WHITE_MAN ? DM_WHITE_KING : DM_BLACK_KING;
    }
    b->sq[m->to] = (uint8_t)p;
    if (b->variant->king_move_limit) {
        /* the count of simple moves in a row with the same king (FR 17) */
        int me = b->side;
        int same = king_move && b->king_sq[me] == m->from;
        b->king_moves[me] = (uint8_t)(king_move ? (same ? b->king_moves[me] + 1 : 1) : 0);
        b->king_sq[me] = (uint8_t)(king_move ? m->to : 0);
    }
    b->side = !b->side;
}

static uint64_t perft_rec(const dm_board *b, int depth)
{
    dm_movelist list;
    int n = ref_vmovegen_legal(&list, NULL, b);
    if (depth == 1) {
        return (uint64_t)n;
    }
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        dm_board next = *b;
        ref_vboard_apply(&next, &list.moves[i]);
        total += perft_rec(&next, depth - 1);
    }
    return total;
}

uint64_t ref_vperft(const dm_board *b, int depth)
{
    if (depth <= 0) {
        return 1;
    }
    return perft_rec(b, depth);
}
