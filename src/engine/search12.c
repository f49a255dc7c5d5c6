/* SPDX-License-Identifier: MIT
 * engine/search12.c: the search (search_impl.h) on the 12x12 board (Canadian: FMJD
 * rules folded at compile time; other 12x12 rules at run time), with 128-bit sets and
 * the engine's 12x12 threads (search_thread12). Owns search12_variant and
 * dm_search12_vdraw_walk (search_int.h). */
#include "core/move10.h"
#include <damier/variant.h>

#include "core/gen.h"
#include "engine/search_int.h"

#define GEN_N 12
#define GEN_PREFIX gen12_
#define GEN_BB gen_u128
#define GEN_RAY(d, b) (dm_ray12[(d)][(b)])
#define GEN_POS gen12_pos
#define GEN_MOVE gen12_move
#define GEN_LIST gen12_list
#define GEN_MAX_MOVES DM_MAX_MOVES
#include "core/gen_geom.h"

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#define SI_THREAD search_thread12
#define SI_THREADS(e) ((e)->threads12)
#define GEN_RS fmjd_
#define GEN_RULES_CONST GEN_RULES_FMJD
#define GEN_RECORD 0
#include "core/gen_impl.h"
#define SI_RS fmjd_
#define SI_RULES_CONST GEN_RULES_FMJD
#define SI_INTL 0
#include "engine/search_impl.h"
#define GEN_RS dyn_
#define GEN_RECORD 0
#include "core/gen_impl.h"
#define SI_RS dyn_
#define SI_INTL 0
#include "engine/search_impl.h"
#pragma GCC diagnostic pop

dm_status search12_variant(dm_result *out, dm_engine *e, const dm_search_input *in,
                           const search_root *r, const search_report *rep)
{
    if (search_alloc12(e) != 0) {
        return DM_ENOMEM;
    }
    if (gen_rules_eq(gen_rules_of(in->root.variant), GEN_RULES_FMJD)) {
        return srch12fmjd_vrun(out, e, in, r, rep);
    }
    return srch12dyn_vrun(out, e, in, r, rep);
}

int dm_search12_vdraw_walk(const dm_search_input *in, const dm_move *moves, int n, int *verdict,
                           int *blocked)
{
    return srch12dyn_vdraw_walk(in, moves, n, verdict, blocked);
}

int search12_evaluate(const search_rules *sr, const dm_board *b)
{
    gen12_pos pos;
    memset(&pos, 0, sizeof pos);
    gen12_from_vboard(&pos, b);
    return srch12dyn_evaluate(sr, &pos);
}
