/* SPDX-License-Identifier: MIT
 * engine/vsearch8.c: the variant engine's search (vsearch_impl.h) on the 8x8
 * bitboard generator (Brazilian, Russian, English). Owns dm_vsearch8_run (vsearch_int.h). */
#include <damier/move.h>
#include <damier/variant.h>

#include "core/gen.h"

#include "engine/vsearch_int.h"

#define GEN_N 8
#define GEN_PREFIX gen8_
#define GEN_BB uint64_t
#define GEN_RAY(d, b) (dm_ray8[(d)][(b)])
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
#define GEN_RS rus_
#define GEN_RULES_CONST GEN_RULES_RUSSIAN
#define GEN_RECORD 0
#include "core/gen_impl.h"
#define VS_RS rus_
#define VS_RULES_CONST GEN_RULES_RUSSIAN
#include "engine/vsearch_impl.h"
#define GEN_RS eng_
#define GEN_RULES_CONST GEN_RULES_ENGLISH
#define GEN_RECORD 0
#include "core/gen_impl.h"
#define VS_RS eng_
#define VS_RULES_CONST GEN_RULES_ENGLISH
#include "engine/vsearch_impl.h"
#define GEN_RS dyn_
#define GEN_RECORD 0
#include "core/gen_impl.h"
#define VS_RS dyn_
#include "engine/vsearch_impl.h"
#pragma GCC diagnostic pop

dm_status dm_vsearch8_run(dm_vsearch_result *out, dm_vengine *e, const dm_vsearch_input *in,
                          const dm_vlimits *lim, dm_vinfo_fn on_info, void *payload)
{
    gen_rules r = gen_rules_of(in->root.variant);
    if (gen_rules_eq(r, GEN_RULES_FMJD)) {
        return vs8fmjd_run(out, e, in, lim, on_info, payload);
    }
    if (gen_rules_eq(r, GEN_RULES_RUSSIAN)) {
        return vs8rus_run(out, e, in, lim, on_info, payload);
    }
    if (gen_rules_eq(r, GEN_RULES_ENGLISH)) {
        return vs8eng_run(out, e, in, lim, on_info, payload);
    }
    return vs8dyn_run(out, e, in, lim, on_info, payload);
}

int dm_vsearch8_draw_walk(const dm_vsearch_input *in, const dm_vmove *moves, int n, int *verdict,
                          int *blocked)
{
    return vs8dyn_draw_walk(in, moves, n, verdict, blocked);
}
