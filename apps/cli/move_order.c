/* SPDX-License-Identifier: MIT
 * apps/cli/move_order.c: the move order that keeps the random openings of a seed
 * (commands.h, cli_intl_move_order). The legal moves stay the library's
 * (dm_movegen_legal); this only puts them in the order in which the fast 10x10
 * generator listed them before issue 9 made it internal, so that `damier selfplay
 * --seed N` plays the openings it played before. */
#include "commands.h"

#include <stdint.h>

/* Squares of the 10x10 board: row 0..9 from the top (square 1's row), column 0..9
 * from White's left; square 1 is b10 (row 0, column 1). */
static void sq_rc(int sq, int *r, int *c)
{
    *r = (sq - 1) / 5;
    *c = 2 * ((sq - 1) % 5) + (*r % 2 == 0);
}

static int rc_sq(int r, int c)
{
    if (r < 0 || r > 9 || c < 0 || c > 9 || (r + c) % 2 == 0) {
        return 0;
    }
    return r * 5 + c / 2 + 1;
}

/* Directions as the generator numbers them: 0 NW, 1 NE (towards square 1), 2 SW, 3 SE. */
static const int DR[4] = {-1, -1, 1, 1};
static const int DC[4] = {-1, 1, -1, 1};

static int next_sq(int sq, int d)
{
    int r, c;
    sq_rc(sq, &r, &c);
    return rc_sq(r + DR[d], c + DC[d]);
}

/* The direction from a to b when they share a diagonal (a != b), else -1. */
static int dir_of(int a, int b)
{
    int ra, ca, rb, cb;
    sq_rc(a, &ra, &ca);
    sq_rc(b, &rb, &cb);
    int dr = rb - ra, dc = cb - ca;
    if (dr == 0 || (dr != dc && dr != -dc)) {
        return -1;
    }
    return (dr < 0 ? 0 : 2) + (dc > 0);
}

typedef struct order_ctx {
    const dm_board *b;
    dm_movelist *list;
    long *rank;
    long next;   /* rank of the next king capture found */
    int from;    /* the king capturing */
    dm_piece opp_man; /* the opponent's man and king */
    dm_piece opp_king;
} order_ctx;

static int occupied(const order_ctx *x, int sq)
{
    return sq != x->from && dm_board_piece(x->b, sq) != DM_EMPTY;
}

/* A capture of the king ending on `to` having taken the squares of `capt`: the first
 * time the search reaches a legal move, it takes the next rank. */
static void found(order_ctx *x, int to, uint64_t capt, int n)
{
    for (int i = 0; i < x->list->count; i++) {
        const dm_move *m = &x->list->moves[i];
        if (x->rank[i] < 0 && m->from == x->from && m->to == to && m->ncapt == n &&
            m->capt[0] == capt && m->capt[1] == 0) {
            x->rank[i] = x->next++;
            return;
        }
    }
}

/* The flying king on `at` capturing in direction d, in the fast generator's order
 * (FMJD 4.3, 4.8, 4.11: a piece taken stays on the board until the move ends and
 * cannot be taken twice): straight on first, then from each landing square
 * (ascending) the two perpendicular directions; with no further capture, each
 * landing square (ascending) ends a move. Returns 1 when a piece can be taken. */
static int king_capture(order_ctx *x, int at, int d, uint64_t capt, int n)
{
    int v = next_sq(at, d);
    while (v && !occupied(x, v)) {
        v = next_sq(v, d);
    }
    if (!v) {
        return 0;
    }
    dm_piece p = dm_board_piece(x->b, v);
    if ((p != x->opp_man && p != x->opp_king) || (capt >> (v - 1) & 1)) {
        return 0;
    }
    int land[10], nl = 0;
    for (int s = next_sq(v, d); s && !occupied(x, s); s = next_sq(s, d)) {
        land[nl++] = s;
    }
    if (nl == 0) {
        return 0;
    }
    capt |= (uint64_t)1 << (v - 1);
    n++;
    /* ascending squares: towards square 1 (NW, NE) the farthest first */
    int asc = d < 2;
    int any = king_capture(x, v, d, capt, n);
    int p1 = (d == 0 || d == 3) ? 1 : 0, p2 = 3 - p1;
    for (int k = 0; k < nl; k++) {
        int l = land[asc ? nl - 1 - k : k];
        any |= king_capture(x, l, p1, capt, n);
        any |= king_capture(x, l, p2, capt, n);
    }
    if (!any) {
        for (int k = 0; k < nl; k++) {
            found(x, land[asc ? nl - 1 - k : k], capt, n);
        }
    }
    return 1;
}

void cli_intl_move_order(dm_movelist *list, const dm_board *b)
{
    int n = list->count;
    if (n < 2) {
        return;
    }
    long rank[DM_MAX_MOVES];
    int white = b->side == DM_WHITE;
    order_ctx x = {b,
                   list,
                   rank,
                   1000,
                   0,
                   white ? DM_BLACK_MAN : DM_WHITE_MAN,
                   white ? DM_BLACK_KING : DM_WHITE_KING};
    int kings = 0;
    for (int i = 0; i < n; i++) {
        const dm_move *m = &list->moves[i];
        dm_piece p = dm_board_piece(b, m->from);
        int king = p == DM_WHITE_KING || p == DM_BLACK_KING;
        if (m->ncapt > 0) {
            /* a man's captures come in the same order from both generators; the
             * kings' after every man's */
            rank[i] = king ? -1 : i;
            kings += king;
        } else if (!king) {
            /* men: by direction (White NW then NE, Black SW then SE), then by the
             * square reached */
            int d = dir_of(m->from, m->to);
            rank[i] = (long)(d & 1) * 100 + m->to;
        } else {
            /* kings: by square, direction, then the square reached */
            rank[i] = 100000 + (long)m->from * 1000 + (long)dir_of(m->from, m->to) * 100 + m->to;
        }
    }
    if (kings) {
        for (int f = 1; f <= 50; f++) {
            dm_piece p = dm_board_piece(b, f);
            if (p != (white ? DM_WHITE_KING : DM_BLACK_KING)) {
                continue;
            }
            x.from = f;
            for (int d = 0; d < 4; d++) {
                king_capture(&x, f, d, 0, 0);
            }
        }
        for (int i = 0; i < n; i++) {
            if (rank[i] < 0) {
                rank[i] = x.next++; /* not reached (cannot happen): kept, last */
            }
        }
    }
    for (int i = 1; i < n; i++) { /* insertion sort, stable */
        dm_move m = list->moves[i];
        long r = rank[i];
        int j = i;
        while (j > 0 && rank[j - 1] > r) {
            list->moves[j] = list->moves[j - 1];
            rank[j] = rank[j - 1];
            j--;
        }
        list->moves[j] = m;
        rank[j] = r;
    }
}
