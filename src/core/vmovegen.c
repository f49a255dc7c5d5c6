/* SPDX-License-Identifier: MIT
 * core/vmovegen.c: the generic move API of damier/variant.h on the one bitboard
 * generator: dm_movegen_legal and dm_perft read the variant's rules once
 * (gen_rules_of), convert the mailbox dm_board to the bitboards of its board size
 * and call the instantiation for that size (gen8.c, gen10.c, gen12.c; the full 8x8
 * board of Turkish: genfull.c); dm_perft
 * converts once and then runs natively on bitboards. The independent mailbox
 * generator this replaced is kept as the slow reference of the tests
 * (tests/reference/ref_vmovegen.c). */
#include "core/move10.h"
#include <damier/variant.h>

#include <string.h>

#include "core/gen.h"
#include "core/variant_int.h"

/* Legal moves (all_captures 0) or every capture ignoring the majority rule; the
 * PDN paths into paths when it is not NULL. */
static int vlegal(dm_movelist *list, vg_path *paths, const dm_board *b, int all_captures)
{
    const dm_variant *v = b->variant;
    gen_rules r = gen_rules_of(v);
    if (vg_full(v)) {
        return dm_genfull_vlegal(list, paths, b, r, all_captures);
    }
    switch (v->size) {
        case 8:
            return dm_gen8_vlegal(list, paths, b, r, all_captures);
        case 10:
            return dm_gen10_vlegal(list, paths, b, r, all_captures);
        case 12:
            return dm_gen12_vlegal(list, paths, b, r, all_captures);
        default:
            list->count = 0;
            list->overflow = 0;
            return 0;
    }
}

/* Frisian's king-move limit (FR 17): the square of the side to move's king that may
 * not make a non-capturing move now, or 0. Only while the side has men. */
int dm_gen_blocked_king(const dm_board *b)
{
    const dm_variant *v = b->variant;
    int c = b->side, ks = b->king_sq[c];
    if (!v->king_move_limit || b->king_moves[c] < v->king_move_limit || ks < 1 || ks > v->squares ||
        b->sq[ks] != (c == DM_WHITE ? DM_WHITE_KING : DM_BLACK_KING)) {
        return 0;
    }
    int man = c == DM_WHITE ? DM_WHITE_MAN : DM_BLACK_MAN;
    for (int sq = 1; sq <= v->squares; sq++) {
        if (b->sq[sq] == man) {
            return ks;
        }
    }
    return 0; /* only kings: not bound */
}

int vgen_legal_paths(dm_movelist *list, vg_path *paths, const dm_board *b)
{
    int n = vlegal(list, paths, b, 0);
    int ks = dm_gen_blocked_king(b);
    if (ks && n > 0 && list->moves[0].ncapt == 0) {
        /* only ordinary moves are dropped here: no path to move along */
        int k = 0;
        for (int i = 0; i < n; i++) {
            if (list->moves[i].from != ks) {
                list->moves[k++] = list->moves[i];
            }
        }
        list->count = n = k;
    }
    return n;
}

int dm_movegen_legal(dm_movelist *list, const dm_board *b)
{
    return vgen_legal_paths(list, NULL, b);
}

int vgen_all_captures(dm_movelist *list, vg_path *paths, const dm_board *b)
{
    return vlegal(list, paths, b, 1);
}

int dm_move_path(uint8_t *sq, int cap, const dm_board *b, const dm_move *m)
{
    if (!b || !b->variant || !m || cap < 0 || (!sq && cap > 0)) {
        return DM_EINVAL;
    }
    dm_movelist list;
    vg_path paths[DM_MAX_MOVES];
    int n = vgen_legal_paths(&list, paths, b);
    for (int i = 0; i < n; i++) {
        if (!dm_move_same(&list.moves[i], m)) {
            continue;
        }
        int len = list.moves[i].ncapt > 1 ? list.moves[i].ncapt - 1 : 0;
        if (len > cap) {
            return DM_EBUFS;
        }
        if (len > 0) {
            memcpy(sq, paths[i], (size_t)len);
        }
        return len;
    }
    return DM_EILLEGAL;
}

dm_status dm_move_from_move10(dm_move *out, const dm_board *b, const dm_move10 *m)
{
    if (!out || !b || !b->variant || !m || b->variant->size != 10) {
        return DM_EINVAL;
    }
    dm_movelist list;
    dm_movegen_legal(&list, b);
    int sq[64];
    int n = dm_move10_captured(m, sq, 64);
    for (int i = 0; i < list.count; i++) {
        const dm_move *x = &list.moves[i];
        int same = x->from == m->from && x->to == m->to && x->ncapt == n;
        for (int k = 0; k < n && same; k++) {
            same = vg_capt_has(x, sq[k]);
        }
        if (same) {
            *out = *x;
            return DM_OK;
        }
    }
    return DM_EILLEGAL;
}

dm_status dm_move_to_move10(dm_move10 *out, const dm_board10 *b, const dm_move *m)
{
    if (!out || !b || !m) {
        return DM_EINVAL;
    }
    dm_movelist10 list;
    dm_movegen10_legal(&list, b);
    for (int i = 0; i < list.count; i++) {
        const dm_move10 *x = &list.moves[i];
        if (x->from != m->from || x->to != m->to || x->ncapt != m->ncapt) {
            continue;
        }
        int sq[64];
        int n = dm_move10_captured(x, sq, 64);
        int same = 1;
        for (int k = 0; k < n && same; k++) {
            same = vg_capt_has(m, sq[k]);
        }
        if (same) {
            *out = *x;
            return DM_OK;
        }
    }
    return DM_EILLEGAL;
}

int dm_move_captures(const dm_move *m, int sq)
{
    if (sq < 1 || sq > DM_MAX_SQUARES) {
        return 0;
    }
    return vg_capt_has(m, sq);
}

int dm_move_same(const dm_move *a, const dm_move *b)
{
    return a->from == b->from && a->to == b->to && a->capt[0] == b->capt[0] &&
           a->capt[1] == b->capt[1];
}

/* Mailbox update: cheaper than a round trip through bitboards for one move. */
void dm_board_apply(dm_board *b, const dm_move *m)
{
    int p = b->sq[m->from];
    b->sq[m->from] = DM_EMPTY;
    for (int w = 0; w < 2; w++) {
        for (uint64_t bits = m->capt[w]; bits; bits &= bits - 1) {
            b->sq[w * 64 + __builtin_ctzll(bits) + 1] = DM_EMPTY;
        }
    }
    if (m->promote) {
        p = p == DM_WHITE_MAN ? DM_WHITE_KING : DM_BLACK_KING;
    }
    b->sq[m->to] = (uint8_t)p;
    if (b->variant->king_move_limit) {
        int c = b->side;
        if (m->ncapt == 0 && !m->promote && (p == DM_WHITE_KING || p == DM_BLACK_KING)) {
            b->king_moves[c] = b->king_sq[c] == m->from && b->king_moves[c] < 255
                                   ? (uint8_t)(b->king_moves[c] + 1)
                                   : 1;
            b->king_sq[c] = m->to;
        } else {
            b->king_moves[c] = 0; /* a man move or a capture lifts the ban (FR 17) */
            b->king_sq[c] = 0;
        }
    }
    b->side = !b->side;
}

/* Can the king-move limit bind within depth plies of b? Conservative: a side with a
 * king and counter c is filtered first when it generates after limit - c more moves
 * of it; a side without a king must crown one first (its first move at the earliest)
 * and then make limit moves with it. */
static int limit_can_bind(const dm_board *b, int depth)
{
    const dm_variant *v = b->variant;
    int limit = v->king_move_limit;
    if (!limit) {
        return 0;
    }
    int has_king[2] = {0, 0};
    for (int sq = 1; sq <= v->squares; sq++) {
        if (b->sq[sq] == DM_WHITE_KING) {
            has_king[DM_WHITE] = 1;
        } else if (b->sq[sq] == DM_BLACK_KING) {
            has_king[DM_BLACK] = 1;
        }
    }
    for (int c = 0; c < 2; c++) {
        int s = c == b->side ? 0 : 1; /* ply offset of this side's first move */
        int need = has_king[c] ? s + 2 * (limit - b->king_moves[c]) : s + 2 * limit + 2;
        if (need <= depth - 1) {
            return 1;
        }
    }
    return 0;
}

static uint64_t vperft_fast(const dm_board *b, int depth)
{
    const dm_variant *v = b->variant;
    gen_rules r = gen_rules_of(v);
    if (vg_full(v)) {
        return dm_genfull_vperft(b, depth, r);
    }
    switch (v->size) {
        case 8:
            return dm_gen8_vperft(b, depth, r);
        case 10:
            return dm_gen10_vperft(b, depth, r);
        case 12:
            return dm_gen12_vperft(b, depth, r);
        default:
            return 0;
    }
}

/* perft (depth >= 1) that applies the king-move limit where it can bind. */
static uint64_t vperft_limited(const dm_board *b, int depth)
{
    if (!limit_can_bind(b, depth)) {
        return vperft_fast(b, depth);
    }
    dm_movelist list;
    int n = dm_movegen_legal(&list, b);
    if (depth == 1) {
        return (uint64_t)n;
    }
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        dm_board next = *b;
        dm_board_apply(&next, &list.moves[i]);
        total += vperft_limited(&next, depth - 1);
    }
    return total;
}

uint64_t dm_perft(const dm_board *b, int depth)
{
    if (depth <= 0) {
        return 1;
    }
    return b->variant->king_move_limit ? vperft_limited(b, depth) : vperft_fast(b, depth);
}
