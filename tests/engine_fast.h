/* SPDX-License-Identifier: MIT
 * tests/engine_fast.h: the engine's one search (dm_engine_search, positions of any
 * variant) driven from positions and moves of the fast 10x10 board, for the tests
 * whose international positions, expected moves and legality checks are written on
 * dm_board10 / dm_move10 (shots, draw rules, multi-PV, timing, the endgame database). The
 * root is converted once, the result and every reported PV move back to the fast
 * board's moves (dm_move_to_move10); a move that does not convert fails the test. A
 * test-side adapter until the two position types are one (issue 9), not a second
 * engine API: the search is the library's. */
#ifndef DM_TESTS_ENGINE_FAST_H
#define DM_TESTS_ENGINE_FAST_H

#include <string.h>

#include "core/board10.h"
#include <damier/engine.h>
#include "core/move10.h"
#include <damier/variant.h>

/* An international root with its game context on the fast board. */
typedef struct fast_input {
    dm_board10 root;
    const uint64_t *history; /* Zobrist hashes before the root, oldest first */
    int history_count;
    int reversible_plies; /* plies since the last man move or capture (25-move rule) */
    int endgame_plies;    /* plies of the current 16/5-move configuration (0 if none) */
} fast_input;

/* A report / a result with the fast board's moves. */
typedef struct fast_info {
    int depth, seldepth, score;
    uint64_t nodes;
    double time, nps;
    int pv_count;
    dm_move10 pv[DM_ENGINE_MAX_PV];
    int multipv, multipv_count;
} fast_info;

typedef void (*fast_info_fn)(const fast_info *info, void *payload);

typedef struct fast_result {
    int has_move;
    dm_move10 best;
    int has_ponder;
    dm_move10 ponder;
    int score, depth;
    uint64_t nodes;
    double time;
} fast_result;

static inline void fast_input_init(fast_input *in, const dm_board10 *b)
{
    memset(in, 0, sizeof *in);
    in->root = *b;
}

/* The fast board's line from root equal to the generic line pv[0..n); its length
 * (shorter only at a move that does not convert). */
static inline int fast_line(dm_move10 *out, const dm_board10 *root, const dm_move *pv, int n)
{
    dm_board10 b = *root;
    int k = 0;
    while (k < n && dm_move_to_move10(&out[k], &b, &pv[k]) == DM_OK) {
        dm_board10_apply(&b, &out[k]);
        k++;
    }
    return k;
}

typedef struct fast_relay {
    const dm_board10 *root;
    fast_info_fn fn;
    void *payload;
} fast_relay;

static inline void fast_relay_info(const dm_info *info, void *payload)
{
    const fast_relay *r = payload;
    fast_info f;
    memset(&f, 0, sizeof f);
    f.depth = info->depth;
    f.seldepth = info->seldepth;
    f.score = info->score;
    f.nodes = info->nodes;
    f.time = info->time;
    f.nps = info->nps;
    f.pv_count = fast_line(f.pv, r->root, info->pv, info->pv_count);
    f.multipv = info->multipv;
    f.multipv_count = info->multipv_count;
    r->fn(&f, r->payload);
}

/* dm_engine_search of in's root as an international position. DM_EINVAL for a root
 * that fails dm_board10_validate; DM_EILLEGAL when a returned move does not convert. */
static inline dm_status fast_search(fast_result *out, dm_engine *e, const fast_input *in,
                                    const dm_limits *lim, fast_info_fn on_info, void *payload)
{
    memset(out, 0, sizeof *out);
    if (dm_board10_validate(&in->root, NULL) != DM_OK) {
        return DM_EINVAL;
    }
    dm_search_input vin;
    memset(&vin, 0, sizeof vin);
    dm_board_from_board10(&vin.root, dm_variant_get(DM_VARIANT_INTERNATIONAL), &in->root);
    vin.history = in->history;
    vin.history_count = in->history_count;
    vin.draw_count.reversible_plies = in->reversible_plies;
    vin.draw_count.material_plies = in->endgame_plies;
    fast_relay relay = {&in->root, on_info, payload};
    dm_result r;
    dm_status st =
        dm_engine_search(&r, e, &vin, lim, on_info ? fast_relay_info : NULL, &relay, NULL);
    if (st != DM_OK) {
        return st;
    }
    out->has_move = r.has_move;
    out->score = r.score;
    out->depth = r.depth;
    out->nodes = r.nodes;
    out->time = r.time;
    if (r.has_move && dm_move_to_move10(&out->best, &in->root, &r.best) != DM_OK) {
        return DM_EILLEGAL;
    }
    if (r.has_move && r.has_ponder) {
        dm_board10 after = in->root;
        dm_board10_apply(&after, &out->best);
        out->has_ponder = dm_move_to_move10(&out->ponder, &after, &r.ponder) == DM_OK;
        if (!out->has_ponder) {
            return DM_EILLEGAL;
        }
    }
    return DM_OK;
}

#endif /* DM_TESTS_ENGINE_FAST_H */
