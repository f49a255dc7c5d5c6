/* SPDX-License-Identifier: MIT
 * core/gen10.c: the move generator instantiated for the 10x10 board (54-bit layout of
 * core/board10.h). Owns the fast international API of core/move10.h
 * (dm_movegen10_legal, dm_movegen10_count, dm_movegen10_has_capture, dm_board10_apply/undo,
 * dm_perft10), which runs the FMJD instantiation with the rules folded at compile time,
 * and the 10x10 entry points of the generic API (international, antidraughts, or any
 * 10x10 rules through the run-time instantiation). */
#include "core/move10.h"

#include "core/layout.h"

#define GEN_N 10
#define GEN_PREFIX gen10_
#define GEN_BB uint64_t
#define GEN_RAY(d, b) (layout_tab.ray[(d)][(b)])
#define GEN_POS dm_board10
#define GEN_MOVE dm_move10
#define GEN_LIST dm_movelist10
#define GEN_MAX_MOVES DM_MAX_MOVES10
#include "core/gen_geom.h"

_Static_assert(GEN_ALL == BB_ALL, "10x10 geometry = core/board10.h layout");
_Static_assert(GEN_ROW_W == BB_ROW1 && GEN_ROW_B == BB_ROW10, "10x10 promotion rows");

#define GEN_RS fmjd_
#define GEN_RULES_CONST GEN_RULES_FMJD
#define GEN_RECORD 0
#include "core/gen_impl.h"

#define GEN_RS fmjdr_
#define GEN_RULES_CONST GEN_RULES_FMJD
#define GEN_RECORD 1
#include "core/gen_impl.h"

#define GEN_RS dyn_
#define GEN_RECORD 0
#include "core/gen_impl.h"

#define GEN_RS dynr_
#define GEN_RECORD 1
#include "core/gen_impl.h"

int dm_movegen10_legal(dm_movelist10 *list, const dm_board10 *b)
{
    return gen10_fmjd_legal(list, b, GEN_RULES_FMJD);
}

int dm_movegen10_count(const dm_board10 *b)
{
    return gen10_fmjd_count(b, GEN_RULES_FMJD);
}

int dm_movegen10_has_capture(const dm_board10 *b)
{
    return gen10_fmjd_has_capture(b, GEN_RULES_FMJD);
}

uint64_t dm_perft10(const dm_board10 *b, int depth)
{
    if (depth <= 0) {
        return 1;
    }
    const gen_rules r = GEN_RULES_FMJD;
    return gen10_fmjd_perft(b, depth, &r);
}

/* Hash change of m on the position `before` (the side to move is the mover). */
static uint64_t hash_delta(const dm_board10 *before, const dm_move10 *m)
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

void dm_board10_apply(dm_board10 *b, const dm_move10 *m)
{
    b->hash ^= hash_delta(b, m);
    gen10_make(b, m);
}

void dm_board10_undo(dm_board10 *b, const dm_move10 *m)
{
    gen10_unmake(b, m);
    b->hash ^= hash_delta(b, m);
}

int dm_gen10_vlegal(dm_movelist *list, uint8_t (*paths)[DM_MAX_CAPT], const dm_board *b,
                    gen_rules r, int all_captures)
{
    dm_board10 pos;
    gen10_from_vboard(&pos, b);
    if (!all_captures && gen_rules_eq(r, GEN_RULES_FMJD)) {
        return gen10_fmjdr_legal_x(list, &pos, GEN_RULES_FMJD, 0, paths);
    }
    return gen10_dynr_legal_x(list, &pos, r, all_captures, paths);
}

uint64_t dm_gen10_vperft(const dm_board *b, int depth, gen_rules r)
{
    dm_board10 pos;
    gen10_from_vboard(&pos, b);
    if (gen_rules_eq(r, GEN_RULES_FMJD)) {
        return gen10_fmjd_perft(&pos, depth, &r);
    }
    return gen10_dyn_perft(&pos, depth, &r);
}
