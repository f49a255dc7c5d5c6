/* SPDX-License-Identifier: MIT
 * core/apply.c: small questions about a dm_move10 (promotion, equality, captured
 * squares). Making, unmaking and perft live with the generator in gen10.c. */
#include "core/move10.h"

#include "core/layout.h"

int dm_move10_is_promotion(const dm_board10 *before, const dm_move10 *m)
{
    int f = sq_to_bit(m->from), t = sq_to_bit(m->to);
    return !((before->kings >> f) & 1) && ((m->kings >> t) & 1);
}

int dm_move10_equal(const dm_move10 *a, const dm_move10 *b)
{
    return a->from == b->from && a->to == b->to && a->capt == b->capt && a->own == b->own &&
           a->kings == b->kings;
}

int dm_move10_captured(const dm_move10 *m, int *sq, int cap)
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
