/* SPDX-License-Identifier: MIT
 * engine/search10.c: the search (search_impl.h) on the 10x10 board: international
 * draughts (dm_engine_search, and the international variant: the public generator,
 * Zobrist keys, the trained evaluation, the endgame database), antidraughts (FMJD
 * rules folded at compile time) and any other 10x10 rules (killer, breakthrough:
 * run-time rules). Owns search10_intl_run, search10_variant, dm_search_draw_walk and
 * dm_search10_vdraw_walk (search_int.h). */
#include <damier/egdb.h>
#include "core/move10.h"
#include <damier/variant.h>

#include "core/gen.h"
#include "core/layout.h"
#include "egdb/egdb_fast.h"
#include "engine/eval.h"
#include "engine/search_int.h"

#define GEN_N 10
#define GEN_PREFIX gen10_
#define GEN_BB uint64_t
#define GEN_RAY(d, b) (layout_tab.ray[(d)][(b)])
#define GEN_POS dm_board10
#define GEN_MOVE dm_move10
#define GEN_LIST dm_movelist10
#define GEN_MAX_MOVES DM_MAX_MOVES10
#include "core/gen_geom.h"

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
/* dm_engine_search: FMJD 6 folded at compile time. */
static const dm_draw_rules si_fmjd_draw = DR_FMJD_INIT;
#define SI_RS intl_
#define SI_INTL 1
#define SI_DRAW_CONST (&si_fmjd_draw)
#define SI_THREAD search_thread
#define SI_THREADS(e) ((e)->threads)
#include "engine/search_impl.h"
/* An international dm_board (dm_engine_search): the game's draw rules. */
#define SI_RS intlr_
#define SI_INTL 1
#include "engine/search_impl.h"

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

dm_status search10_variant(dm_result *out, dm_engine *e, const dm_search_input *in,
                           const search_root *r, const search_report *rep)
{
    const dm_variant *v = in->root.variant;
    gen_rules g = gen_rules_of(v);
    if (v->id == DM_VARIANT_INTERNATIONAL) {
        /* the FMJD draw rules folded at compile time (the fast path), else the game's */
        return in->draw == NULL || dr_same(in->draw, &si_fmjd_draw)
                   ? srch10intl_vrun(out, e, in, r, rep)
                   : srch10intlr_vrun(out, e, in, r, rep);
    }
    if (gen_rules_eq(g, GEN_RULES_FMJD)) {
        return srch10fmjd_vrun(out, e, in, r, rep);
    }
    return srch10dyn_vrun(out, e, in, r, rep);
}

int dm_search_draw_walk(const dm_board10 *root, int reversible, int endgame, const dm_move10 *moves,
                        int n, int *verdict)
{
    dm_engine *e = calloc(1, sizeof *e);
    search_thread *t = calloc(1, sizeof *t);
    if (e == NULL || t == NULL) {
        free(e);
        free(t);
        return -1;
    }
    if (n > MAX_PLY - 1) {
        n = MAX_PLY - 1;
    }
    search_rules_international(&e->sr);
    t->e = e;
    search_root r = {.ds = {.reversible = reversible > 0 ? reversible : 0, .material = endgame}};
    srch10intl_thread_setup(t, root, root->hash, &r);
    verdict[0] = srch10intl_counting_draw(t, 0);
    for (int i = 0; i < n; i++) {
        const dm_move10 *m = &moves[i];
        int was_man = !((t->board.kings >> sq_to_bit(m->from)) & 1);
        srch10intl_play(t, m, was_man, i);
        verdict[i + 1] = srch10intl_counting_draw(t, i + 1);
    }
    free(t);
    free(e);
    return n;
}

int dm_search10_vdraw_walk(const dm_search_input *in, const dm_move *moves, int n, int *verdict,
                           int *blocked)
{
    return srch10dyn_vdraw_walk(in, moves, n, verdict, blocked);
}

int search10_evaluate(const search_rules *sr, const dm_board *b)
{
    dm_board10 pos;
    memset(&pos, 0, sizeof pos);
    gen10_from_vboard(&pos, b);
    return srch10dyn_evaluate(sr, &pos);
}
