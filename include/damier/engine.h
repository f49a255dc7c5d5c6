/* SPDX-License-Identifier: MIT
 * damier/engine.h: the playing and analysing engine, one for every draughts variant:
 * iterative-deepening PVS search with a shared transposition table, quiescence over
 * compulsory captures, the draw rules in search, time management, lazy SMP, multi-PV.
 * One call (dm_engine_search) searches a position of any variant of damier/variant.h
 * on the bitboard generator of its board size, with the variant's rules and draw
 * rules; international draughts has the trained evaluation and the endgame databases
 * (and under the FMJD draw rules the compile-time FMJD instantiation, the fast path
 * of `damier bench`), the other variants a material and advancement evaluation. The
 * engine never prints: progress is reported through a callback. */
#ifndef DM_ENGINE_H
#define DM_ENGINE_H

#include <stddef.h>
#include <stdint.h>

#include <damier/status.h>
#include <damier/variant.h>

#ifdef __cplusplus
extern "C" {
#endif

/* An engine: transposition table, per-thread search state, stop flag. Opaque; one
 * engine runs one search at a time, two engines never share anything. */
typedef struct dm_engine dm_engine;

/* Scores are in hundredths of a man from the side to move's point of view.
 * A won game scores DM_SCORE_WIN - plies to the end (so the fastest win scores
 * highest), a lost one -(DM_SCORE_WIN - plies); |score| >= DM_SCORE_WIN_MIN means a
 * forced game end was found. Under FMJD rules a side with no legal move loses. */
#define DM_SCORE_WIN 10000
#define DM_SCORE_WIN_MIN (DM_SCORE_WIN - 1000)

/* With an endgame database (dm_engine_set_egdb) a position it decides scores
 * DM_SCORE_EGDB - d for the side that wins with d plies from the root to the
 * conversion (a capture or promotion that keeps the win), -(DM_SCORE_EGDB - d) for
 * the side that loses, 0 for a draw; DM_SCORE_EGDB_MIN <= |score| < DM_SCORE_WIN_MIN
 * means "database win/loss". */
#define DM_SCORE_EGDB 8000
#define DM_SCORE_EGDB_MIN (DM_SCORE_EGDB - 300)

/* Upper bounds. */
#define DM_ENGINE_MAX_DEPTH 120 /* nominal depth of one iteration */
#define DM_ENGINE_MAX_THREADS 64
#define DM_ENGINE_MAX_PV 64       /* moves kept in a principal variation */
#define DM_ENGINE_MAX_MULTIPV 32  /* lines of a multi-PV search (dm_limits.multipv) */
#define DM_ENGINE_MAX_HISTORY 512 /* earlier positions kept for repetition */

/* Creation options. Initialise with DM_ENGINE_OPTIONS_INIT, then change fields. */
typedef struct dm_engine_options {
    int version; /* DM_ENGINE_OPTIONS_VERSION */
    int tt_mib;  /* transposition table size in MiB, 1..65536 (rounded down to a
                     power of two number of 64-byte buckets) */
    int threads; /* search threads, 1..DM_ENGINE_MAX_THREADS (lazy SMP) */
} dm_engine_options;

#define DM_ENGINE_OPTIONS_VERSION 1
#define DM_ENGINE_OPTIONS_INIT                                                                     \
    {                                                                                              \
        DM_ENGINE_OPTIONS_VERSION, 64, 1                                                           \
    }

struct dm_game;

/* When to stop. Zero fields are "no limit"; with no limit at all the search runs
 * until dm_engine_stop (or DM_ENGINE_MAX_DEPTH). Several limits combine: the first
 * reached stops the search. Times are seconds. */
typedef struct dm_limits {
    int depth;        /* maximum nominal depth (plies), 0 = none */
    uint64_t nodes;   /* node budget (all threads), 0 = none */
    double move_time; /* fixed time for this move, 0 = none */
    double time;      /* time left on the mover's clock, 0 = no clock */
    double inc;       /* Fischer increment added before every move */
    int moves_to_go;  /* moves until the next time control (moves-in-time);
                           0 = sudden death or Fischer */
    int infinite;     /* nonzero: ignore clock budgets, run until stopped */
    int ponder;       /* nonzero: pondering; the clock budget starts at
                           dm_engine_ponderhit, until then behave as infinite */
    int analyse;      /* nonzero: search even a single legal move fully */
    int multipv;      /* lines to search and report (multi-PV): the best root move, then
                         the best of the others, ... at every depth, each with its score
                         and PV (dm_info.multipv). 0 or 1: one line (the fastest); at most
                         DM_ENGINE_MAX_MULTIPV, and no more than the legal root moves.
                         With more than one line the main thread's result is taken */
} dm_limits;

/* Create an engine; *out belongs to the caller (dm_engine_free). opts may be NULL
 * for the defaults. DM_EINVAL for out-of-range options (*out untouched),
 * DM_ENOMEM when the table cannot be allocated. */
DM_API dm_status dm_engine_create(dm_engine **out, const dm_engine_options *opts);

/* Free an engine (NULL is fine). Must not be called during a search. */
DM_API void dm_engine_free(dm_engine *e);

/* Change table size and thread count. Reallocates the table only when its size
 * changes (its contents are then lost). DM_ESTATE during a search, DM_EINVAL for bad
 * options, DM_ENOMEM (the engine keeps its old table). */
DM_API dm_status dm_engine_set_options(dm_engine *e, const dm_engine_options *opts);

struct dm_egdb;

/* Probe the endgame database db (damier/egdb.h; NULL: none, the default) in later
 * searches: at interior and quiescence nodes with no capture pending and no more
 * pieces than db holds completely (dm_egdb_max_pieces), the database value is the
 * node's exact score (see DM_SCORE_EGDB), with the counting rules applied on top: a
 * win whose distance does not fit in what is left of the 16- or 5-move rule scores
 * a draw. A database of an 8x8 variant (dm_egdb_variant: Brazilian, Russian,
 * English) is probed the same way by the searches of that variant only, under its
 * counting rules. The engine does not own db, which must outlive its use; not during a
 * search (DM_ESTATE). Without a database the search is unchanged. */
DM_API dm_status dm_engine_set_egdb(dm_engine *e, const struct dm_egdb *db);

struct dm_eval;

/* Evaluate with the weights ev (damier/eval.h; NULL: the built-in weights, the
 * default) in later searches. The engine does not own ev, which must outlive its
 * use; not during a search (DM_ESTATE). */
DM_API dm_status dm_engine_set_eval(dm_engine *e, const struct dm_eval *ev);

/* Forget everything learnt (table, history heuristics): a new game. Not during a
 * search. */
DM_API void dm_engine_clear(dm_engine *e);

/* Ask the running search to return as soon as possible (within a few milliseconds).
 * Safe from any thread and from a signal handler. */
DM_API void dm_engine_stop(dm_engine *e);

/* The pondered move was played: start the clock budget now (safe from any thread). */
DM_API void dm_engine_ponderhit(dm_engine *e);

/* The evaluation's feature vector of b (an international position: the trained
 * evaluation is international draughts'; converted to the fast 10x10 board inside),
 * for training and tools: out[i] = White's
 * count minus Black's for feature i (names from dm_engine_feature_name), written for
 * i < cap; *phase (if not NULL) gets the number of men on the board (the evaluation
 * interpolates between opening and endgame weights by it). Returns the number of
 * features, whatever cap is; -1 (nothing written) for a NULL board, a NULL out with
 * cap > 0, or a position of another variant. */
DM_API int dm_engine_features(int *out, int cap, int *phase, const dm_board *b);

/* Name of feature i ("men", "kings", "tempo", ...), or NULL when out of range. */
DM_API const char *dm_engine_feature_name(int i);

/* ---- searching ----------------------------------------------------------------
 * Scores as above; the objective follows dm_variant_result: the side with no legal
 * move loses, except in antidraughts where it wins (the evaluation is reversed there
 * too: fewer pieces is better). International draughts is evaluated by the trained
 * weights (dm_engine_set_eval) and probes the endgame database; the other variants
 * are evaluated by material (man 100, flying king 300, short king 150) and the
 * advancement of men. Every variant applies its own draw rules in the tree
 * (repetition, moves without progress or capture, material against a lone king;
 * src/core/drawrule.h, the code dm_game uses) and Frisian's king-move limit (FR 17). */

/* What to search. The engine copies everything it needs; nothing is kept. */
typedef struct dm_search_input {
    dm_board root;             /* position to search (variant and side included) */
    const uint64_t *history;   /* dm_board_hash of the earlier positions since the
                                 last man move or capture, oldest first, root
                                 excluded; may be NULL. Only the last
                                 DM_ENGINE_MAX_HISTORY are used. A position that
                                 would repeat one of them (same side to move)
                                 scores as a draw. */
    int history_count;         /* entries in history */
    dm_draw_count draw_count;  /* the draw rules' counters at the root (dm_variant_draw_count
                                  of the game; all 0: a position without a past) */
    const dm_draw_rules *draw; /* the draw rules applied in the tree; NULL: the variant's
                                  own (root.variant->draw). Borrowed for the search */
} dm_search_input;

/* Initialise *in with the position b (copied), no history, the counters of a
 * position without a past and the variant's own draw rules. */
DM_API void dm_search_input_init(dm_search_input *in, const dm_board *b);

/* Initialise *in with game g's current position (any variant, dm_game_position) and
 * what the draw rules need: the hashes (dm_board_hash) of its positions since the
 * last man move or capture, oldest first (written into history, the latest cap at
 * most; in->history points there, so it must outlive *in's use), the game's draw
 * counters (dm_game_draw_count); the draw rules are the variant's own (in->draw
 * NULL; a game with changed rules should set in->draw to them). */
DM_API void dm_search_input_from_game(dm_search_input *in, uint64_t *history, int cap,
                                      const struct dm_game *g);

/* Progress report, one per completed iteration and line (and at the end). */
typedef struct dm_info {
    int depth;                    /* completed nominal depth */
    int seldepth;                 /* deepest ply reached, quiescence included */
    int score;                    /* see DM_SCORE_WIN */
    uint64_t nodes;               /* nodes so far, all threads */
    double time;                  /* seconds since the search started */
    double nps;                   /* nodes per second */
    int pv_count;                 /* moves in pv */
    dm_move pv[DM_ENGINE_MAX_PV]; /* principal variation from the root (a capture's
                                      PDN path: dm_move_path) */
    int multipv;                  /* which line this is, 1 = the best (multi-PV: one report
                                      per line and depth, lines in order of score) */
    int multipv_count;            /* lines reported for this depth (1 without multi-PV) */
} dm_info;

typedef void (*dm_info_fn)(const dm_info *info, void *payload);

/* Result of a search. */
typedef struct dm_result {
    int has_move;   /* 0 only when the root has no legal move (game over) */
    dm_move best;   /* a legal move of the root, to play */
    int has_ponder; /* 1 when ponder holds the expected reply */
    dm_move ponder; /* expected reply (legal after best) */
    int score;      /* score of best (see DM_SCORE_WIN) */
    int depth;      /* last completed nominal depth */
    uint64_t nodes; /* nodes searched, all threads */
    double time;    /* seconds */
} dm_result;

/* Search in->root within lim and fill *out. Blocks until done; on_info (may be NULL)
 * is called from the calling thread after each iteration. Deterministic with one
 * thread and a depth or node limit: the same input gives the same nodes and move.
 * Clears any earlier stop request on entry; always completes depth 1 so that a move
 * is returned even when stopped at once. DM_EINVAL for a NULL argument or an invalid
 * root (err says why; err may be NULL), DM_ENOMEM when the 12x12 search state cannot
 * be allocated; DM_OK otherwise (out->has_move = 0 when there is no legal move). */
DM_API dm_status dm_engine_search(dm_result *out,            /* [out] best move, score */
                                  dm_engine *e,              /* engine, not searching */
                                  const dm_search_input *in, /* root and game context */
                                  const dm_limits *lim,      /* stop conditions */
                                  dm_info_fn on_info,        /* progress, or NULL */
                                  void *payload,             /* passed to on_info */
                                  dm_error *err);            /* why, or NULL */

/* The static evaluation of b as the search of an engine with its default weights sees
 * it, from the side to move's point of view (hundredths of a man): an international
 * position with the built-in trained weights (dm_eval_score takes others), an 8x8
 * position with its variant's built-in trained weights where it has some
 * (dm_eval8_builtin; dm_eval8_score takes others); otherwise material (man 100, flying
 * king 300, short king 150) and the advancement of men, negated material in
 * antidraughts. */
DM_API int dm_engine_evaluate(const dm_board *b);

#ifdef __cplusplus
}
#endif
#endif /* DM_ENGINE_H */
