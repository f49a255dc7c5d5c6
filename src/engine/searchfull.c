/* SPDX-License-Identifier: MIT
 * engine/searchfull.c: the search (search_impl.h) on the full 8x8 board of Turkish
 * draughts (dm_variant.geometry DM_GEOM_FULL): the geometry of core/gen_geom_full.h
 * (64 bits, bit = square - 1, orthogonal steps) and the generator of core/genfull.c,
 * with the rules read at run time (precedence, promotion). The same search as every
 * other variant's, with the positions in dm_board10 and the moves in dm_move10 (64-bit
 * sets), so the 8x8 / 10x10 threads (search_thread) serve it. Owns
 * searchfull_variant, searchfull_evaluate and dm_searchfull_vdraw_walk
 * (search_int.h). */
#include "core/move10.h"
#include <damier/variant.h>

#include "core/gen.h"
#include "engine/search_int.h"

#define GEN_N 8
#define GEN_PREFIX genf_
#define GEN_BB uint64_t
#define GEN_RS full_
#define GEN_POS dm_board10
#define GEN_MOVE dm_move10
#define GEN_LIST dm_movelist10
#include "core/gen_geom_full.h"

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#define SI_THREAD search_thread
#define SI_THREADS(e) ((e)->threads)
#define SI_RS full_
#define SI_INTL 0
#include "engine/search_impl.h"
#pragma GCC diagnostic pop

dm_status searchfull_variant(dm_result *out, dm_engine *e, const dm_search_input *in,
                             const search_root *r, const search_report *rep)
{
    return srch8full_vrun(out, e, in, r, rep);
}

int dm_searchfull_vdraw_walk(const dm_search_input *in, const dm_move *moves, int n, int *verdict,
                             int *blocked)
{
    return srch8full_vdraw_walk(in, moves, n, verdict, blocked);
}

int searchfull_evaluate(const search_rules *sr, const dm_board *b)
{
    dm_board10 pos;
    memset(&pos, 0, sizeof pos);
    genf_from_vboard(&pos, b);
    return srch8full_evaluate(sr, &pos);
}
