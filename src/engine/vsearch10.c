/* SPDX-License-Identifier: MIT
 * engine/vsearch10.c: the variant engine's search (vsearch_impl.h) on the 10x10
 * bitboard generator (antidraughts and any other 10x10 variant). Owns
 * dm_vsearch10_run (vsearch_int.h). */
#include <damier/move.h>
#include <damier/variant.h>

#include "core/gen.h"
#include "core/layout.h"
#include "engine/vsearch_int.h"

#define GEN_N 10
#define GEN_PREFIX gen10_
#define GEN_BB uint64_t
#define GEN_RAY(d, b) (layout_tab.ray[(d)][(b)])
#define GEN_POS dm_board
#define GEN_MOVE dm_move
#define GEN_LIST dm_movelist
#define GEN_MAX_MOVES DM_MAX_MOVES
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

dm_status dm_vsearch10_run(dm_vsearch_result *out, dm_vengine *e, const dm_vsearch_input *in,
                           const dm_vlimits *lim, dm_vinfo_fn on_info, void *payload)
{
    gen_rules r = gen_rules_of(in->root.variant);
    if (gen_rules_eq(r, GEN_RULES_FMJD)) {
        return vs10fmjd_run(out, e, in, lim, on_info, payload);
    }
    return vs10dyn_run(out, e, in, lim, on_info, payload);
}

int dm_vsearch10_draw_walk(const dm_vsearch_input *in, const dm_vmove *moves, int n, int *verdict,
                           int *blocked)
{
    return vs10dyn_draw_walk(in, moves, n, verdict, blocked);
}
