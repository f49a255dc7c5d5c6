/* SPDX-License-Identifier: MIT
 * engine/search.c: the engine's entry point (dm_engine_search, every variant): input
 * checks, the rules of the search (search_rules), the limits and the root's draw
 * state; the search
 * itself is written once in search_impl.h and instantiated per board geometry and
 * rule set (search8.c, search10.c, search12.c). */
#include <stdlib.h>
#include <string.h>

#include <damier/engine.h>
#include <damier/game.h>
#include "core/move10.h"

#include "engine/eval.h"
#include "engine/eval8.h"
#include "engine/search_int.h"

/* The draw rules of international draughts: FMJD 6 (core/drawrule.h, the one
 * implementation of the counting rules, which dm_game applies too). */
static const dm_draw_rules fmjd_draw = DR_FMJD_INIT;

/* What the counting rules of d need computed at every node. */
static void rules_draw(search_rules *sr, const dm_draw_rules *d)
{
    sr->draw = d;
    sr->material = dr_material_limit(d, DM_DRAW_THREE_VS_KING) > 0 ||
                   dr_material_limit(d, DM_DRAW_TWO_VS_KING) > 0 ||
                   dr_material_limit(d, DM_DRAW_KING_VS_KING) > 0;
    sr->counting = sr->material || dr_reversible_limit(d) > 0 || d->no_capture_moves > 0;
    dr_limits_of(&sr->limits, d);
}

static void rules_variant(search_rules *sr, const dm_variant *v, const dm_draw_rules *d)
{
    memset(sr, 0, sizeof *sr);
    sr->v = v;
    sr->gen = gen_rules_of(v);
    sr->king_limit = v->king_move_limit;
    sr->king_value = v->flying_kings ? 300 : 150;
    sr->reversed = v->reversed_result != 0;
    sr->race = v->win_on_promotion ? 2 : 0;
    rules_draw(sr, d);
}

void search_rules_international(search_rules *sr)
{
    rules_variant(sr, dm_variant_get(DM_VARIANT_INTERNATIONAL), &fmjd_draw);
}

void search_rules_of_variant(search_rules *sr, const dm_search_input *in)
{
    const dm_variant *v = in->root.variant;
    rules_variant(sr, v, in->draw != NULL ? in->draw : &v->draw);
}

int search_alloc12(dm_engine *e)
{
    if (e->threads12 != NULL) {
        return 0;
    }
    search_thread12 **th = calloc((size_t)e->opts.threads, sizeof *th);
    if (th == NULL) {
        return -1;
    }
    for (int i = 0; i < e->opts.threads; i++) {
        th[i] = calloc(1, sizeof **th);
        if (th[i] == NULL) {
            for (int j = 0; j < i; j++) {
                free(th[j]);
            }
            free(th);
            return -1;
        }
        th[i]->e = e;
        th[i]->id = i;
    }
    e->threads12 = th;
    return 0;
}

/* The engine's state at the start of a search within lim. */
static void prepare(dm_engine *e, const dm_limits *lim)
{
    atomic_store(&e->stop, 0);
    atomic_store(&e->helpers_stop, 0);
    atomic_store(&e->ponderhit, 0);
    atomic_store(&e->searching, 1);
    atomic_store(&e->start, tm_now());
    e->lim = *lim;
    tm_plan(&e->budget, lim);
    tt_new_search(&e->tt);
    e->multipv = lim->multipv > 1 ? lim->multipv : 1;
    if (e->multipv > DM_ENGINE_MAX_MULTIPV) {
        e->multipv = DM_ENGINE_MAX_MULTIPV;
    }
}

dm_status dm_engine_search(dm_result *out, dm_engine *e, const dm_search_input *in,
                           const dm_limits *lim, dm_info_fn on_info, void *payload, dm_error *err)
{
    if (out == NULL || e == NULL || in == NULL || lim == NULL || in->root.variant == NULL) {
        return dm_error_set(err, DM_EINVAL, 0, 0, "engine: NULL argument");
    }
    memset(out, 0, sizeof *out);
    dm_status st = dm_board_validate(&in->root, err);
    if (st != DM_OK) {
        return st;
    }
    int size = in->root.variant->size;
    if (size != 8 && size != 10 && size != 12) {
        return dm_error_set(err, DM_EINVAL, 0, 0, "engine: unsupported board size %d", size);
    }
    prepare(e, lim);
    search_rules_of_variant(&e->sr, in);
    {
        dm_variant_id id = in->root.variant->id;
        const dm_eval8 *ev8 = e->eval8[id] ? e->eval8[id] : dm_eval8_builtin(id);
        e->sr.eval8 = ev8 && !ev8->hand && dm_eval8_supports(id) ? ev8 : NULL;
    }
    const dm_draw_count *dc = &in->draw_count;
    /* The history holds positions since the last man move or capture: at least that
     * many reversible plies (the repetition window). */
    int hc = in->history && in->history_count > 0 ? in->history_count : 0;
    search_root r = {.history = in->history,
                     .history_count = hc,
                     .ds = {.reversible = dc->reversible_plies > hc ? dc->reversible_plies : hc,
                            .no_capture = dc->no_capture_plies > 0 ? dc->no_capture_plies : 0,
                            .material = dc->material_plies}};
    memcpy(r.ksq, in->root.king_sq, 2);
    memcpy(r.kmv, in->root.king_moves, 2);
    search_report rep = {.on_vinfo = on_info, .payload = payload, .vroot = &in->root};
    st = in->root.variant->geometry == DM_GEOM_FULL ? searchfull_variant(out, e, in, &r, &rep)
         : size == 8                                ? search8_variant(out, e, in, &r, &rep)
         : size == 10                               ? search10_variant(out, e, in, &r, &rep)
                                                    : search12_variant(out, e, in, &r, &rep);
    atomic_store(&e->searching, 0);
    if (st != DM_OK) {
        return dm_error_set(err, st, 0, 0, "engine: out of memory for the %dx%d search", size,
                            size);
    }
    return DM_OK;
}

int dm_engine_evaluate(const dm_board *b)
{
    dm_board10 fast;
    if (b->variant->id == DM_VARIANT_INTERNATIONAL && dm_board_to_board10(&fast, b) == DM_OK) {
        return eval_board(&eval_builtin, &fast);
    }
    /* What the search of an engine left to its defaults reads (dm_engine_set_eval8):
     * the variant's built-in 8x8 weights where it has some. */
    const dm_eval8 *ev8 =
        dm_eval8_supports(b->variant->id) ? dm_eval8_builtin(b->variant->id) : NULL;
    if (ev8 && !ev8->hand) {
        return dm_eval8_score(ev8, b);
    }
    search_rules sr;
    rules_variant(&sr, b->variant, &b->variant->draw);
    if (b->variant->geometry == DM_GEOM_FULL) {
        return searchfull_evaluate(&sr, b);
    }
    switch (b->variant->size) {
        case 8:
            return search8_evaluate(&sr, b);
        case 10:
            return search10_evaluate(&sr, b);
        default:
            return search12_evaluate(&sr, b);
    }
}

void dm_search_input_init(dm_search_input *in, const dm_board *b)
{
    memset(in, 0, sizeof *in);
    in->root = *b;
}

void dm_search_input_from_game(dm_search_input *in, uint64_t *history, int cap, const dm_game *g)
{
    memset(in, 0, sizeof *in);
    in->root = *dm_game_position(g);
    int n = 0;
    for (int i = dm_game_ply(g) - 1; i >= 0 && n < cap; i--) {
        const dm_board *b = dm_game_position_at(g, i);
        const dm_move *m = dm_game_move_at(g, i);
        int p = b->sq[m->from];
        if (m->ncapt > 0 || p == DM_WHITE_MAN || p == DM_BLACK_MAN) {
            break; /* no earlier position can come back */
        }
        history[n++] = dm_board_hash(b);
    }
    for (int i = 0; i < n / 2; i++) { /* oldest first */
        uint64_t t = history[i];
        history[i] = history[n - 1 - i];
        history[n - 1 - i] = t;
    }
    in->history = history;
    in->history_count = n;
    dm_game_draw_count(&in->draw_count, g);
}

void dm_engine_stop(dm_engine *e)
{
    if (e) {
        atomic_store(&e->stop, 1);
    }
}

void dm_engine_ponderhit(dm_engine *e)
{
    if (e) {
        atomic_store(&e->start, tm_now());
        atomic_store(&e->ponderhit, 1);
    }
}
