/* SPDX-License-Identifier: MIT
 * engine/search_int.h: the engine object and per-thread search state, shared by
 * engine.c (life cycle), search.c (the entry points of every variant) and the search
 * itself, written once in search_impl.h and instantiated per board geometry and rule
 * set (search8.c, search10.c, search12.c). Everything a search touches is allocated
 * when the engine is created or its options change (the 12x12 threads, 3 MiB each,
 * on the first 12x12 search), never while searching. */
#ifndef DM_ENGINE_SEARCH_INT_H
#define DM_ENGINE_SEARCH_INT_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#include <damier/engine.h>
#include <damier/variant.h>

#include "core/drawrule.h"
#include "core/gen.h"
#include "engine/timeman.h"
#include "engine/tt.h"

#define MAX_PLY 160 /* search ply, quiescence included */
#define KEY_STACK (DM_ENGINE_MAX_HISTORY + MAX_PLY + 2)

struct dm_engine;

/* The per-thread state of one board geometry: POS, MOVE and LIST are its position,
 * move and move-list types (core/gen_geom.h), NMOVES the list capacity, NSQ its
 * squares. One definition, two types: search_thread (8x8, 10x10 and the full 8x8
 * board, 64-bit sets)
 * and search_thread12 (12x12, 128-bit sets). */
#define SEARCH_THREAD_FIELDS(POS, MOVE, LIST, NMOVES, NSQ)                                         \
    struct dm_engine *e;                                                                           \
    int id; /* 0 = main thread (time, info, result) */                                             \
    pthread_t handle;                                                                              \
    POS board;                         /* position at the current ply */                           \
    uint64_t nodes;                    /* nodes searched by this thread */                         \
    _Atomic uint64_t nodes_shared;     /* nodes, published every 1024 for the others */            \
    int seldepth;                      /* deepest ply reached this iteration */                    \
    int aborted;                       /* the current iteration was stopped */                     \
    int allow_stop;                    /* 0 during depth 1, which must complete */                 \
    int kbase;                         /* index of the root in keys[] */                           \
    uint64_t keys[KEY_STACK];          /* hashes: game history, then one per ply */                \
    dr_state ds[MAX_PLY + 1];          /* the draw rules' counters per ply (core/drawrule.h) */    \
    uint8_t ksq[MAX_PLY + 1][2];       /* FR 17 per ply and colour: the king that made the */      \
    uint8_t kmv[MAX_PLY + 1][2];       /* side's last quiet moves and how many in a row */         \
    MOVE killer[MAX_PLY + 1][2];       /* quiet moves that caused a cut-off at a ply */            \
    int history[2][NSQ + 1][NSQ + 1];  /* [side][from][to] quiet-move cut-off scores */            \
    int order[MAX_PLY + 1][NMOVES];    /* ordering scores, by position in idx */                   \
    uint16_t idx[MAX_PLY + 1][NMOVES]; /* search order: indices into lists[ply], which */          \
                                       /* stays in generator order */                              \
    LIST lists[MAX_PLY + 1];           /* generated moves per ply */                               \
    MOVE pv[MAX_PLY + 1][DM_ENGINE_MAX_PV]; /* triangular PV table */                              \
    int pv_len[MAX_PLY + 1];                                                                       \
    /* Multi-PV (main thread): the root moves of the lines found at this depth, which */           \
    /* the root skips, and the lines themselves. */                                                \
    int root_excl;                                                                                 \
    MOVE excl[DM_ENGINE_MAX_MULTIPV];                                                              \
    int mpv_count;                                                                                 \
    struct {                                                                                       \
        int score;                                                                                 \
        int pv_len;                                                                                \
        MOVE pv[DM_ENGINE_MAX_PV];                                                                 \
    } mpv[DM_ENGINE_MAX_MULTIPV];                                                                  \
    /* Iterative deepening results of this thread. */                                              \
    int best_score;                                                                                \
    int completed_depth;                                                                           \
    MOVE best_pv[DM_ENGINE_MAX_PV];                                                                \
    int best_pv_len;                                                                               \
    /* The root's best move of the iteration under way so far (search_line's first */              \
    /* window only): root_found 1 once a root move beat the moves before it. */                    \
    int root_first_try;                                                                            \
    int root_found;                                                                                \
    int root_score;

/* NSQ 64: the 8x8 and 10x10 diagonal boards (32, 50 squares) and Turkish's full 8x8
 * board (64 squares, engine/searchfull.c) share this type. */
typedef struct search_thread {
    SEARCH_THREAD_FIELDS(dm_board10, dm_move10, dm_movelist10, DM_MAX_MOVES10, 64)
} search_thread;

typedef struct search_thread12 {
    SEARCH_THREAD_FIELDS(gen12_pos, gen12_move, gen12_list, DM_MAX_MOVES, DM_MAX_SQUARES)
} search_thread12;

/* The rules of the search under way, read once at its start (search.c). */
typedef struct search_rules {
    gen_rules gen;                /* the move generator's rules (run-time instantiations) */
    const dm_variant *v;          /* the variant; international for dm_engine_search */
    const dm_draw_rules *draw;    /* the draw rules applied in the tree (FMJD 6 for
                                  dm_engine_search; the variant's or the caller's) */
    dr_limits limits;             /* their thresholds in plies */
    int counting;                 /* draw has a counting rule (moves, material) */
    int material;                 /* draw has a material rule (against a lone king) */
    int king_limit;               /* Frisian FR 17: variant->king_move_limit, or 0 */
    int king_value;               /* the variant evaluation's king, hundredths of a man */
    int reversed;                 /* antidraughts: no move wins, fewer pieces is better */
    int race;                     /* breakthrough: 2 x rows advanced squared per man */
    const struct dm_eval8 *eval8; /* 8x8 weights of the variant, or NULL: the hand
                                     evaluation (S(evaluate)) */
} search_rules;

struct dm_engine {
    dm_engine_options opts;
    tt_table tt;
    search_thread **threads;     /* opts.threads of them, each allocated apart */
    search_thread12 **threads12; /* the same for 12x12, allocated on first use, or NULL */
    _Atomic int stop;            /* dm_engine_stop: every thread returns */
    _Atomic int helpers_stop;    /* the main thread finished: helpers return */
    _Atomic int ponderhit;       /* dm_engine_ponderhit was called */
    _Atomic int searching;
    /* Per search (written before the threads start, read-only while they run). */
    dm_limits lim;
    tm_budget budget;
    _Atomic double start;       /* tm_now() at start (or at ponder-hit) */
    int root_count;             /* legal moves at the root */
    int multipv;                /* lines of this search (1..DM_ENGINE_MAX_MULTIPV) */
    search_rules sr;            /* the rules of the search */
    const struct dm_egdb *egdb; /* endgame database probed, or NULL */
    int egdb_pieces;            /* probe positions of at most this many pieces */
    int egdb_variant;           /* dm_egdb_variant(egdb): the 8x8 searches probe it
                                   only for their own variant */
    const struct dm_eval *eval; /* evaluation weights (borrowed; the built-in default) */
    /* 8x8 weights per variant (dm_engine_set_eval8; borrowed), NULL: the built-in. */
    const struct dm_eval8 *eval8[DM_VARIANT_COUNT];
};

/* Where a search reports to: dm_engine_search's callback, the moves converted to
 * dm_move against vroot. */
typedef struct search_report {
    dm_info_fn on_vinfo;
    void *payload;
    const dm_board *vroot;
} search_report;

/* The root of a search beyond its position: the repetition history (oldest first),
 * the draw counters and FR 17's counters. */
typedef struct search_root {
    const uint64_t *history;
    int history_count;
    dr_state ds; /* reversible, no_capture, material (0 for none known); the search
                    fills in kind */
    uint8_t ksq[2], kmv[2];
} search_root;

static inline double search_elapsed(struct dm_engine *e)
{
    return tm_now() - atomic_load_explicit(&e->start, memory_order_relaxed);
}

/* Game-end and database scores count plies from the root; the table keeps them
 * from the node (database scores sit below DM_SCORE_WIN_MIN, no evaluation reaches
 * DM_SCORE_EGDB_MIN). */
static inline int win_to_tt(int s, int ply)
{
    return s >= DM_SCORE_EGDB_MIN ? s + ply : s <= -DM_SCORE_EGDB_MIN ? s - ply : s;
}

static inline int win_from_tt(int s, int ply)
{
    return s >= DM_SCORE_EGDB_MIN ? s - ply : s <= -DM_SCORE_EGDB_MIN ? s + ply : s;
}

/* Allocate e->threads12 when absent (search.c). 0, or -1 without memory. */
int search_alloc12(struct dm_engine *e);

/* The instantiations (search_impl.h), one per geometry and rule set (international
 * draughts: 10x10 FMJD rules, Zobrist keys, the trained evaluation, the endgame
 * database; the FMJD draw rules folded at compile time when they are the search's):
 * each searches e's prepared root (e->sr, e->lim set, threads of its geometry set up
 * by it) with its result as dm_move in *out. */
dm_status search8_variant(dm_result *out, struct dm_engine *e, const dm_search_input *in,
                          const search_root *r, const search_report *rep);
dm_status search10_variant(dm_result *out, struct dm_engine *e, const dm_search_input *in,
                           const search_root *r, const search_report *rep);
dm_status search12_variant(dm_result *out, struct dm_engine *e, const dm_search_input *in,
                           const search_root *r, const search_report *rep);
/* The full 8x8 board (Turkish, geometry DM_GEOM_FULL): engine/searchfull.c. */
dm_status searchfull_variant(dm_result *out, struct dm_engine *e, const dm_search_input *in,
                             const search_root *r, const search_report *rep);

/* For the tests: the international search's own draw code on the fast board (the
 * counters it keeps per ply and the counting rules it applies, Step 1) along
 * moves[0..n-1] (legal moves) from root with the counters reversible (plies since
 * the last man move or capture) and endgame (plies of the current 16/5-move
 * configuration): verdict[i] = the dm_draw_kind counting rule that draws after i
 * moves (NONE, NO_PROGRESS, THREE_VS_KING, TWO_VS_KING), repetition aside, for
 * i = 0..n (n + 1 entries). Returns the moves walked (at most MAX_PLY - 1), -1
 * without memory. */
int dm_search_draw_walk(const dm_board10 *root, int reversible, int endgame, const dm_move10 *moves,
                        int n, int *verdict);

/* The same for a variant root (in->draw_count, in->draw), per geometry, with FR 17's
 * blocked king square (blocked[i], 0 for none); both arrays hold n + 1. Returns the
 * number of moves walked (< n at a move that is not legal), -1 without memory. */
int dm_search8_vdraw_walk(const dm_search_input *in, const dm_move *moves, int n, int *verdict,
                          int *blocked);
int dm_search10_vdraw_walk(const dm_search_input *in, const dm_move *moves, int n, int *verdict,
                           int *blocked);
int dm_search12_vdraw_walk(const dm_search_input *in, const dm_move *moves, int n, int *verdict,
                           int *blocked);
int dm_searchfull_vdraw_walk(const dm_search_input *in, const dm_move *moves, int n, int *verdict,
                             int *blocked);

/* The rules of a search (search.c): dm_engine_search's (international, FMJD 6), and a
 * variant search's (the variant of in->root, with in->draw or its own draw rules). */
void search_rules_international(search_rules *sr);
void search_rules_of_variant(search_rules *sr, const dm_search_input *in);

/* Per geometry: the variant evaluation of b (dm_engine_evaluate) under sr. */
int search8_evaluate(const search_rules *sr, const dm_board *b);
int searchfull_evaluate(const search_rules *sr, const dm_board *b);
int search10_evaluate(const search_rules *sr, const dm_board *b);
int search12_evaluate(const search_rules *sr, const dm_board *b);

#endif /* DM_ENGINE_SEARCH_INT_H */
