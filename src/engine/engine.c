/* SPDX-License-Identifier: MIT
 * engine/engine.c: engine life cycle: options, table and per-thread allocation.
 * All memory a search uses is allocated here; the search itself never allocates. */
#include <stdlib.h>
#include <string.h>

#include <damier/egdb.h>
#include <damier/game.h>

#include "engine/eval.h"
#include "engine/eval8.h"
#include "engine/search_int.h"

static int options_ok(const dm_engine_options *o)
{
    return o->version == DM_ENGINE_OPTIONS_VERSION && o->tt_mib >= 1 && o->tt_mib <= 65536 &&
           o->threads >= 1 && o->threads <= DM_ENGINE_MAX_THREADS;
}

static void free_threads(search_thread **th, int n)
{
    if (!th) {
        return;
    }
    for (int i = 0; i < n; i++) {
        free(th[i]);
    }
    free(th);
}

/* The 12x12 threads (search_alloc12 makes them on the first 12x12 search). */
static void free_threads12(dm_engine *e)
{
    if (e->threads12) {
        for (int i = 0; i < e->opts.threads; i++) {
            free(e->threads12[i]);
        }
        free(e->threads12);
        e->threads12 = NULL;
    }
}

static search_thread **alloc_threads(dm_engine *e, int n)
{
    search_thread **th = calloc((size_t)n, sizeof *th);
    if (!th) {
        return NULL;
    }
    for (int i = 0; i < n; i++) {
        th[i] = calloc(1, sizeof **th);
        if (!th[i]) {
            free_threads(th, i);
            return NULL;
        }
        th[i]->e = e;
        th[i]->id = i;
    }
    return th;
}

dm_status dm_engine_create(dm_engine **out, const dm_engine_options *opts)
{
    dm_engine_options def = DM_ENGINE_OPTIONS_INIT;
    if (!out) {
        return DM_EINVAL;
    }
    if (!opts) {
        opts = &def;
    }
    if (!options_ok(opts)) {
        return DM_EINVAL;
    }
    dm_engine *e = calloc(1, sizeof *e);
    if (!e) {
        return DM_ENOMEM;
    }
    e->opts = *opts;
    e->eval = &eval_builtin;
    if (tt_alloc(&e->tt, (size_t)opts->tt_mib) != 0) {
        free(e);
        return DM_ENOMEM;
    }
    e->threads = alloc_threads(e, opts->threads);
    if (!e->threads) {
        tt_release(&e->tt);
        free(e);
        return DM_ENOMEM;
    }
    *out = e;
    return DM_OK;
}

void dm_engine_free(dm_engine *e)
{
    if (!e) {
        return;
    }
    free_threads(e->threads, e->opts.threads);
    free_threads12(e);
    tt_release(&e->tt);
    free(e);
}

dm_status dm_engine_set_options(dm_engine *e, const dm_engine_options *opts)
{
    if (!e || !opts || !options_ok(opts)) {
        return DM_EINVAL;
    }
    if (atomic_load(&e->searching)) {
        return DM_ESTATE;
    }
    if (opts->tt_mib != e->opts.tt_mib) {
        tt_table fresh;
        if (tt_alloc(&fresh, (size_t)opts->tt_mib) != 0) {
            return DM_ENOMEM;
        }
        tt_release(&e->tt);
        e->tt = fresh;
    }
    if (opts->threads != e->opts.threads) {
        search_thread **th = alloc_threads(e, opts->threads);
        if (!th) {
            return DM_ENOMEM;
        }
        free_threads(e->threads, e->opts.threads);
        free_threads12(e); /* made again for the new count when needed */
        e->threads = th;
    }
    e->opts = *opts;
    return DM_OK;
}

void dm_engine_clear(dm_engine *e)
{
    if (!e) {
        return;
    }
    tt_clear(&e->tt);
    for (int i = 0; i < e->opts.threads; i++) {
        memset(e->threads[i]->history, 0, sizeof e->threads[i]->history);
        memset(e->threads[i]->killer, 0, sizeof e->threads[i]->killer);
        if (e->threads12) {
            memset(e->threads12[i]->history, 0, sizeof e->threads12[i]->history);
            memset(e->threads12[i]->killer, 0, sizeof e->threads12[i]->killer);
        }
    }
}

dm_status dm_engine_set_eval(dm_engine *e, const struct dm_eval *ev)
{
    if (!e) {
        return DM_EINVAL;
    }
    if (atomic_load(&e->searching)) {
        return DM_ESTATE;
    }
    e->eval = ev ? ev : &eval_builtin;
    return DM_OK;
}

dm_status dm_engine_set_eval8(dm_engine *e, dm_variant_id v, const dm_eval8 *ev)
{
    if (!e || !dm_eval8_supports(v) || (ev && ev->variant != v)) {
        return DM_EINVAL;
    }
    if (atomic_load(&e->searching)) {
        return DM_ESTATE;
    }
    e->eval8[v] = ev;
    return DM_OK;
}

dm_status dm_engine_set_egdb(dm_engine *e, const struct dm_egdb *db)
{
    if (!e) {
        return DM_EINVAL;
    }
    if (atomic_load(&e->searching)) {
        return DM_ESTATE;
    }
    e->egdb = db;
    e->egdb_pieces = dm_egdb_max_pieces(db);
    e->egdb_variant = (int)dm_egdb_variant(db);
    return DM_OK;
}
