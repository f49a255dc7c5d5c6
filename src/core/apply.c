/* SPDX-License-Identifier: MIT
 * core/apply.c: making and unmaking moves (XOR deltas) with the Zobrist hash. */
#include <damier/move.h>

#include "core/layout.h"

/* Hash change of m on the position `before` (the side to move is the mover). */
static uint64_t hash_delta(const dm_board *before, const dm_move *m)
{
    int c = before->side;
    int f = sq_to_bit(m->from), t = sq_to_bit(m->to);
    int was_king = (before->kings >> f) & 1;
    int is_king = was_king || ((m->kings >> t) & 1);
    uint64_t h = layout_tab.zobrist_side;
    h ^= zobrist_key(c, was_king, f) ^ zobrist_key(c, is_king, t);
    for (uint64_t x = m->capt; x;) {
        int v = bb_pop_lsb(&x);
        h ^= zobrist_key(c ^ 1, (before->kings >> v) & 1, v);
    }
    return h;
}

void dm_board_apply(dm_board *b, const dm_move *m)
{
    int c = b->side;
    b->hash ^= hash_delta(b, m);
    b->pieces[c] ^= m->own;
    b->pieces[c ^ 1] ^= m->capt;
    b->kings ^= m->kings;
    b->side = c ^ 1;
}

void dm_board_undo(dm_board *b, const dm_move *m)
{
    int c = b->side ^ 1;
    b->side = c;
    b->pieces[c] ^= m->own;
    b->pieces[c ^ 1] ^= m->capt;
    b->kings ^= m->kings;
    b->hash ^= hash_delta(b, m);
}

int dm_move_is_promotion(const dm_board *before, const dm_move *m)
{
    int f = sq_to_bit(m->from), t = sq_to_bit(m->to);
    return !((before->kings >> f) & 1) && ((m->kings >> t) & 1);
}

int dm_move_equal(const dm_move *a, const dm_move *b)
{
    return a->from == b->from && a->to == b->to && a->capt == b->capt && a->own == b->own &&
           a->kings == b->kings;
}

int dm_move_captured(const dm_move *m, int *sq, int cap)
{
    int n = 0;
    for (uint64_t x = m->capt; x;) {
        int s = bit_to_sq(bb_pop_lsb(&x));
        if (n < cap) {
            sq[n] = s;
        }
        n++;
    }
    return n;
}

/* perft copies the board and skips the hash, which it does not need. */
static uint64_t perft_rec(const dm_board *b, int depth)
{
    if (depth == 1) {
        return (uint64_t)dm_movegen_count(b);
    }
    dm_movelist list;
    dm_movegen_legal(&list, b);
    uint64_t n = 0;
    for (int i = 0; i < list.count; i++) {
        const dm_move *m = &list.moves[i];
        dm_board next;
        next.pieces[b->side] = b->pieces[b->side] ^ m->own;
        next.pieces[b->side ^ 1] = b->pieces[b->side ^ 1] ^ m->capt;
        next.kings = b->kings ^ m->kings;
        next.side = b->side ^ 1;
        next.hash = 0;
        n += perft_rec(&next, depth - 1);
    }
    return n;
}

uint64_t dm_perft(const dm_board *b, int depth)
{
    if (depth <= 0) {
        return 1;
    }
    return perft_rec(b, depth);
}
