/* SPDX-License-Identifier: MIT
 * engine/search_int.h: the engine object and per-thread search state, shared by
 * engine.c (life cycle) and search.c (the search). Everything a search touches is
 * allocated when the engine is created or its options change, never while searching. */
#ifndef DM_ENGINE_SEARCH_INT_H
#define DM_ENGINE_SEARCH_INT_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#include <damier/engine.h>

#include "engine/timeman.h"
#include "engine/tt.h"

#define MAX_PLY 160 /* search ply, quiescence included */
#define KEY_STACK (DM_ENGINE_MAX_HISTORY + MAX_PLY + 2)

typedef struct search_thread {
    struct dm_engine *e;
    int id; /* 0 = main thread (time, info, result) */
    pthread_t handle;
    dm_board board;                            /* position at the current ply */
    uint64_t nodes;                            /* nodes searched by this thread */
    _Atomic uint64_t nodes_shared;             /* nodes, published every 1024 for the others */
    int seldepth;                              /* deepest ply reached this iteration */
    int aborted;                               /* the current iteration was stopped */
    int allow_stop;                            /* 0 during depth 1, which must complete */
    int kbase;                                 /* index of the root in keys[] */
    uint64_t keys[KEY_STACK];                  /* hashes: game history, then one per ply */
    int rev[MAX_PLY + 1];                      /* plies since a man move or capture, per ply */
    int egc[MAX_PLY + 1];                      /* plies in the 16/5-move configuration, per ply
                                                  (-1: none; core/drawrule.h) */
    int egk[MAX_PLY + 1];                      /* its kind (dr_kind), per ply */
    dm_move killer[MAX_PLY + 1][2];            /* quiet moves that caused a cut-off at a ply */
    int history[2][51][51];                    /* [side][from][to] quiet-move cut-off scores */
    int order[MAX_PLY + 1][DM_MAX_MOVES];      /* ordering scores, by position in idx */
    uint16_t idx[MAX_PLY + 1][DM_MAX_MOVES];   /* search order: indices into lists[ply],
                                                which stays in generator order */
    dm_movelist lists[MAX_PLY + 1];            /* generated moves per ply */
    dm_move pv[MAX_PLY + 1][DM_ENGINE_MAX_PV]; /* triangular PV table */
    int pv_len[MAX_PLY + 1];
    /* Multi-PV (main thread): the root moves of the lines found at this depth, which
     * the root skips, and the lines themselves. */
    int root_excl;
    dm_move excl[DM_ENGINE_MAX_MULTIPV];
    int mpv_count;
    struct {
        int score;
        int pv_len;
        dm_move pv[DM_ENGINE_MAX_PV];
    } mpv[DM_ENGINE_MAX_MULTIPV];
    /* Iterative deepening results of this thread. */
    int best_score;
    int completed_depth;
    dm_move best_pv[DM_ENGINE_MAX_PV];
    int best_pv_len;
} search_thread;

struct dm_engine {
    dm_engine_options opts;
    tt_table tt;
    search_thread **threads;  /* opts.threads of them, each allocated apart */
    _Atomic int stop;         /* dm_engine_stop: every thread returns */
    _Atomic int helpers_stop; /* the main thread finished: helpers return */
    _Atomic int ponderhit;    /* dm_engine_ponderhit was called */
    _Atomic int searching;
    /* Per search (written before the threads start, read-only while they run). */
    dm_limits lim;
    tm_budget budget;
    _Atomic double start;       /* tm_now() at start (or at ponder-hit) */
    int root_count;             /* legal moves at the root */
    int multipv;                /* lines of this search (1..DM_ENGINE_MAX_MULTIPV) */
    const struct dm_egdb *egdb; /* endgame database probed, or NULL */
    int egdb_pieces;            /* probe positions of at most this many pieces */
    const struct dm_eval *eval; /* evaluation weights (borrowed; the built-in default) */
};

/* Run the search of thread t (search.c). */
void *search_thread_main(void *arg);

/* For the tests: the search's own draw code (the counters it keeps per ply and the
 * counting rules it applies, Step 1) along moves[0..n-1] (legal moves) from in->root
 * with in's counters: verdict[i] = the dm_vdraw counting rule that draws after i
 * moves (NONE, NO_PROGRESS, THREE_VS_KING, TWO_VS_KING), repetition aside, for
 * i = 0..n (n + 1 entries). Returns the moves walked (at most MAX_PLY - 1), -1
 * without memory. */
int dm_search_draw_walk(const dm_search_input *in, const dm_move *moves, int n, int *verdict);

#endif /* DM_ENGINE_SEARCH_INT_H */
