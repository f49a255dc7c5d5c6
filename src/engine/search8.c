/* SPDX-License-Identifier: MIT
 * engine/search8.c: the search (search_impl.h) on the 8x8 board: Brazilian (FMJD
 * rules), Russian and English checkers with their rules folded at compile time, any
 * other 8x8 rules (Czech, Italian, Spanish, pool, Thai) at run time. Owns
 * search8_variant and dm_search8_vdraw_walk (search_int.h). */
#include "core/move10.h"
#include <damier/variant.h>

#include <damier/egdb.h>

#include "core/gen.h"
#include "egdb/egdb_fast.h"
#include "engine/eval8.h"
#include "engine/search_int.h"

/* The 8x8 variants read trained weights when the engine has them (S(eval)). */
#define SI_EVAL8 1

#define GEN_N 8
#define GEN_PREFIX gen8_
#define GEN_BB uint64_t
#define GEN_RAY(d, b) (dm_ray8[(d)][(b)])
#define GEN_POS dm_board10
#define GEN_MOVE dm_move10
#define GEN_LIST dm_movelist10
#define GEN_MAX_MOVES DM_MAX_MOVES10
#include "core/gen_geom.h"

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#define SI_THREAD search_thread
#define SI_THREADS(e) ((e)->threads)
#define GEN_RS fmjd_
#define GEN_RULES_CONST GEN_RULES_FMJD
#define GEN_RECORD 0
#include "core/gen_impl.h"
#define SI_EGDB8 1
#define SI_RS fmjd_
#define SI_RULES_CONST GEN_RULES_FMJD
#define SI_INTL 0
#include "engine/search_impl.h"
#define GEN_RS rus_
#define GEN_RULES_CONST GEN_RULES_RUSSIAN
#define GEN_RECORD 0
#include "core/gen_impl.h"
#define SI_EGDB8 1
#define SI_RS rus_
#define SI_RULES_CONST GEN_RULES_RUSSIAN
#define SI_INTL 0
#include "engine/search_impl.h"
#define GEN_RS eng_
#define GEN_RULES_CONST GEN_RULES_ENGLISH
#define GEN_RECORD 0
#include "core/gen_impl.h"
#define SI_EGDB8 1
#define SI_RS eng_
#define SI_RULES_CONST GEN_RULES_ENGLISH
#define SI_INTL 0
#include "engine/search_impl.h"
#define GEN_RS dyn_
#define GEN_RECORD 0
#include "core/gen_impl.h"
#define SI_RS dyn_
#define SI_INTL 0
#include "engine/search_impl.h"
#pragma GCC diagnostic pop

dm_status search8_variant(dm_result *out, dm_engine *e, const dm_search_input *in,
                          const search_root *r, const search_report *rep)
{
    gen_rules g = gen_rules_of(in->root.variant);
    if (gen_rules_eq(g, GEN_RULES_FMJD)) {
        return srch8fmjd_vrun(out, e, in, r, rep);
    }
    if (gen_rules_eq(g, GEN_RULES_RUSSIAN)) {
        return srch8rus_vrun(out, e, in, r, rep);
    }
    if (gen_rules_eq(g, GEN_RULES_ENGLISH)) {
        return srch8eng_vrun(out, e, in, r, rep);
    }
    return srch8dyn_vrun(out, e, in, r, rep);
}

int dm_search8_vdraw_walk(const dm_search_input *in, const dm_move *moves, int n, int *verdict,
                          int *blocked)
{
    return srch8dyn_vdraw_walk(in, moves, n, verdict, blocked);
}

int search8_evaluate(const search_rules *sr, const dm_board *b)
{
    dm_board10 pos;
    memset(&pos, 0, sizeof pos);
    gen8_from_vboard(&pos, b);
    return srch8dyn_evaluate(sr, &pos);
}
