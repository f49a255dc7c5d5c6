/* SPDX-License-Identifier: MIT
 * engine/vsearch12.c: the variant engine's search (vsearch_impl.h) on the 12x12
 * bitboard generator (Canadian). Owns dm_vsearch12_run (vsearch_int.h). */
#include <damier/move.h>
#include <damier/variant.h>

#include "core/gen.h"

#include "engine/vsearch_int.h"

#define GEN_N 12
#define GEN_PREFIX gen12_
#define GEN_BB gen_u128
#define GEN_RAY(d, b) (dm_ray12[(d)][(b)])
#define GEN_POS gen12_pos
#define GEN_MOVE gen12_move
#define GEN_LIST gen12_list
#define GEN_MAX_MOVES DM_VMAX_MOVES
#include "core/gen_geom.h"

/* One search per rules set, on the generator with those rules folded at compile
 * time, and one on the run-time rules (its perft and counting are not used here). */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#define GEN_RS fmjd_
#define GEN_RULES_CONST GEN_RULES_FMJD
#define GEN_RECORD 0
#include "core/gen_impl.h"
#define VS_RS fmjd_
#define VS_RULES_CONST GEN_RULES_FMJD
#include "engine/vsearch_impl.h"
#define GEN_RS dyn_
#define GEN_RECORD 0
#include "core/gen_impl.h"
#define VS_RS dyn_
#include "engine/vsearch_impl.h"
#pragma GCC diagnostic pop

dm_status dm_vsearch12_run(dm_vsearch_result *out, dm_vengine *e, const dm_vsearch_input *in,
                           const dm_vlimits *lim, dm_vinfo_fn on_info, void *payload)
{
    gen_rules r = gen_rules_of(in->root.variant);
    if (gen_rules_eq(r, GEN_RULES_FMJD)) {
        return vs12fmjd_run(out, e, in, lim, on_info, payload);
    }
    return vs12dyn_run(out, e, in, lim, on_info, payload);
}

int dm_vsearch12_draw_walk(const dm_vsearch_input *in, const dm_vmove *moves, int n, int *verdict,
                           int *blocked)
{
    return vs12dyn_draw_walk(in, moves, n, verdict, blocked);
}
