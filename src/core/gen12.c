/* SPDX-License-Identifier: MIT
 * core/gen12.c: the move generator instantiated for the 12x12 board (77-bit layout
 * in a 128-bit bitset): Canadian draughts (FMJD rules folded at compile time), any
 * other 12x12 rules through the run-time instantiation. Owns the 12x12 entry points
 * of the generic API (core/gen.h); its position, move and list types are in gen.h. */
#include <damier/variant.h>

#include "core/gen.h"

#define GEN_N 12
#define GEN_PREFIX gen12_
#define GEN_BB gen_u128
#define GEN_RAY(d, b) (dm_ray12[(d)][(b)])
#define GEN_POS gen12_pos
#define GEN_MOVE gen12_move
#define GEN_LIST gen12_list
#define GEN_MAX_MOVES DM_MAX_MOVES
#include "core/gen_geom.h"

_Static_assert(GEN_BITS == GEN12_BITS, "12x12 layout: 77 bits");

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

int dm_gen12_vlegal(dm_movelist *list, uint8_t (*paths)[DM_MAX_CAPT], const dm_board *b,
                    gen_rules r, int all_captures)
{
    gen12_pos pos;
    gen12_from_vboard(&pos, b);
    if (!all_captures && gen_rules_eq(r, GEN_RULES_FMJD)) {
        return gen12_fmjdr_legal_x(list, &pos, GEN_RULES_FMJD, 0, paths);
    }
    return gen12_dynr_legal_x(list, &pos, r, all_captures, paths);
}

uint64_t dm_gen12_vperft(const dm_board *b, int depth, gen_rules r)
{
    gen12_pos pos;
    gen12_from_vboard(&pos, b);
    if (gen_rules_eq(r, GEN_RULES_FMJD)) {
        return gen12_fmjd_perft(&pos, depth, &r);
    }
    return gen12_dyn_perft(&pos, depth, &r);
}
