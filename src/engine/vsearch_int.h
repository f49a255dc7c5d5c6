/* SPDX-License-Identifier: MIT
 * engine/vsearch_int.h: internals of the variant engine (vengine.h) shared by the
 * geometry-independent part (vsearch.c: engine life cycle, limits, input checks)
 * and the search written once in vsearch_impl.h, instantiated per board size on
 * the bitboard move generator (vsearch8.c, vsearch10.c, vsearch12.c). */
#ifndef DM_ENGINE_VSEARCH_INT_H
#define DM_ENGINE_VSEARCH_INT_H

#include <damier/vengine.h>

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "core/drawrule.h"

enum {
    VT_EXACT = 1,
    VT_LOWER = 2,
    VT_UPPER = 3
};
#define VT_NO_MOVE 0xFFFFu
#define VS_INF 32000
#define VS_HIST_CAP (1 << 15)
#define VS_KEYS (DM_VENGINE_MAX_HISTORY + DM_VENGINE_MAX_PLY + 2)

/* One transposition-table (TT) entry. */
typedef struct vt_entry {
    uint64_t key;
    int16_t score;
    int8_t depth;
    uint8_t flag;
    uint16_t move; /* index in the position's legal move list (deterministic) */
    uint16_t pad;
} vt_entry;

struct dm_vengine {
    atomic_int stop;
    vt_entry *tt;
    size_t tt_mask;
    int hist[DM_VMAX_SQUARES + 1][DM_VMAX_SQUARES + 1]; /* history [from][to] */
    /* Per search. */
    uint8_t killer[DM_VENGINE_MAX_PLY][2][2]; /* [ply][slot][from, to] */
    uint64_t keys[VS_KEYS];                   /* dm_vboard_hash of history + the search path */
    int key_base;                             /* index of the root's key */
    uint64_t nodes;
    uint64_t node_limit;
    double start;
    double deadline;
    int seldepth;
    int can_abort;
    int aborted;
};

/* Seconds on a monotonic clock. */
double vs_now(void);

/* True when the search must return now (limits or stop request); latches. */
int vs_check(dm_vengine *e);

/* Per geometry: the iterative-deepening search of in->root (validated; size 8, 10
 * or 12), with e's keys, limits and counters set up by dm_vengine_search. Fills
 * out (zeroed by the caller) and calls on_info after each iteration. DM_ENOMEM
 * when the per-search work area cannot be allocated. */
dm_status dm_vsearch8_run(dm_vsearch_result *out, dm_vengine *e, const dm_vsearch_input *in,
                          const dm_vlimits *lim, dm_vinfo_fn on_info, void *payload);
dm_status dm_vsearch10_run(dm_vsearch_result *out, dm_vengine *e, const dm_vsearch_input *in,
                           const dm_vlimits *lim, dm_vinfo_fn on_info, void *payload);
dm_status dm_vsearch12_run(dm_vsearch_result *out, dm_vengine *e, const dm_vsearch_input *in,
                           const dm_vlimits *lim, dm_vinfo_fn on_info, void *payload);

/* Per geometry, for the tests: the search's own draw code along a game. From
 * in->root (with in->draw_count, in->draw) through moves[0..n-1] (legal moves), the
 * counting rule that draws after i moves (verdict[i], a dm_vdraw, repetition aside)
 * and FR 17's blocked king square (blocked[i], 0 for none), for i = 0..n; both arrays
 * hold n + 1. Returns the number of moves walked (< n at a move that is not legal),
 * -1 without memory. */
int dm_vsearch8_draw_walk(const dm_vsearch_input *in, const dm_vmove *moves, int n, int *verdict,
                          int *blocked);
int dm_vsearch10_draw_walk(const dm_vsearch_input *in, const dm_vmove *moves, int n, int *verdict,
                           int *blocked);
int dm_vsearch12_draw_walk(const dm_vsearch_input *in, const dm_vmove *moves, int n, int *verdict,
                           int *blocked);

#endif /* DM_ENGINE_VSEARCH_INT_H */
