/* SPDX-License-Identifier: MIT
 * engine/vsearch.c: the variant engine (vengine.h): engine life cycle, stop and
 * limits, and dm_vengine_search's input checks and repetition keys; the search
 * itself is written once in vsearch_impl.h and runs on the bitboard generator of
 * the root's board size (vsearch8.c, vsearch10.c, vsearch12.c). Single-threaded;
 * deterministic for a given engine state and a depth or node limit. */
#define _POSIX_C_SOURCE 200809L
#include "engine/vsearch_int.h"

#include <damier/game.h>

#include <stdlib.h>
#include <string.h>
#include <time.h>

double vs_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

dm_status dm_vengine_create(dm_vengine **out, int tt_mib)
{
    if (out == NULL || tt_mib < 0 || tt_mib > 4096) {
        return DM_EINVAL;
    }
    if (tt_mib == 0) {
        tt_mib = 16;
    }
    dm_vengine *e = calloc(1, sizeof *e);
    if (e == NULL) {
        return DM_ENOMEM;
    }
    size_t entries = 1;
    size_t want = (size_t)tt_mib * 1024u * 1024u / sizeof(vt_entry);
    while (entries * 2 <= want) {
        entries *= 2;
    }
    e->tt = calloc(entries, sizeof *e->tt);
    if (e->tt == NULL) {
        free(e);
        return DM_ENOMEM;
    }
    e->tt_mask = entries - 1;
    atomic_init(&e->stop, 0);
    *out = e;
    return DM_OK;
}

void dm_vengine_free(dm_vengine *e)
{
    if (e != NULL) {
        free(e->tt);
        free(e);
    }
}

void dm_vengine_clear(dm_vengine *e)
{
    memset(e->tt, 0, (e->tt_mask + 1) * sizeof *e->tt);
    memset(e->hist, 0, sizeof e->hist);
}

void dm_vengine_stop(dm_vengine *e)
{
    atomic_store(&e->stop, 1);
}

int vs_check(dm_vengine *e)
{
    if (e->aborted) {
        return 1;
    }
    if (!e->can_abort) {
        return 0;
    }
    if (atomic_load_explicit(&e->stop, memory_order_relaxed) ||
        (e->node_limit != 0 && e->nodes >= e->node_limit) ||
        ((e->nodes & 255u) == 0 && e->deadline > 0 && vs_now() >= e->deadline)) {
        e->aborted = 1;
    }
    return e->aborted;
}

dm_status dm_vengine_search(dm_vsearch_result *out, dm_vengine *e, const dm_vsearch_input *in,
                            const dm_vlimits *lim, dm_vinfo_fn on_info, void *payload,
                            dm_error *err)
{
    if (out == NULL || e == NULL || in == NULL || lim == NULL || in->root.variant == NULL) {
        return dm_error_set(err, DM_EINVAL, 0, 0, "vengine: NULL argument");
    }
    dm_status st = dm_vboard_validate(&in->root, err);
    if (st != DM_OK) {
        return st;
    }
    memset(out, 0, sizeof *out);
    atomic_store(&e->stop, 0);
    memset(e->killer, 0, sizeof e->killer);
    e->nodes = 0;
    e->seldepth = 0;
    e->aborted = 0;
    e->can_abort = 0;
    e->node_limit = lim->nodes;
    e->start = vs_now();
    e->deadline = lim->move_time > 0 ? e->start + lim->move_time : 0;

    int hc = in->history != NULL && in->history_count > 0 ? in->history_count : 0;
    const uint64_t *hist = in->history;
    if (hc > DM_VENGINE_MAX_HISTORY) {
        hist += hc - DM_VENGINE_MAX_HISTORY;
        hc = DM_VENGINE_MAX_HISTORY;
    }
    if (hc > 0) {
        memcpy(e->keys, hist, (size_t)hc * sizeof(uint64_t));
    }
    e->key_base = hc;
    e->keys[hc] = dm_vboard_hash(&in->root);

    switch (in->root.variant->size) {
        case 8:
            st = dm_vsearch8_run(out, e, in, lim, on_info, payload);
            break;
        case 10:
            st = dm_vsearch10_run(out, e, in, lim, on_info, payload);
            break;
        case 12:
            st = dm_vsearch12_run(out, e, in, lim, on_info, payload);
            break;
        default:
            return dm_error_set(err, DM_EINVAL, 0, 0, "vengine: unsupported board size");
    }
    if (st != DM_OK) {
        return dm_error_set(err, st, 0, 0, "vengine: out of memory");
    }
    return DM_OK;
}

void dm_vsearch_input_from_game(dm_vsearch_input *in, uint64_t *history, int cap, const dm_game *g)
{
    memset(in, 0, sizeof *in);
    in->root = *dm_game_position(g);
    int n = 0;
    for (int i = dm_game_ply(g) - 1; i >= 0 && n < cap; i--) {
        const dm_vboard *b = dm_game_position_at(g, i);
        const dm_vmove *m = dm_game_vmove_at(g, i);
        int p = b->sq[m->from];
        if (m->ncapt > 0 || p == DM_WHITE_MAN || p == DM_BLACK_MAN) {
            break; /* no earlier position can come back */
        }
        history[n++] = dm_vboard_hash(b);
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
