/* SPDX-License-Identifier: MIT
 * damier/vengine.h: a small generic engine for every variant of the generic rules
 * core (variant.h): iterative-deepening alpha-beta (PVS) with a transposition table,
 * quiescence over compulsory captures, move ordering (table move, captures,
 * promotions, killers, history), material + advancement evaluation, the variant's
 * draw rules (repetition, and the counting rules with dm_variant_draw's counters:
 * src/core/drawrule.h), Frisian's king-move limit at every node, mate-distance
 * scores. The objective follows dm_variant_result: the side
 * with no legal move loses, except in antidraughts where it WINS (the evaluation is
 * reversed there too: fewer pieces is better).
 *
 * It is not the fast international engine (engine.h) and does not try to be: it
 * exists so that every variant can be played and analysed. Single-threaded,
 * deterministic for a given engine state and a depth or node limit. The engine
 * never prints; progress goes through a callback. */
#ifndef DM_VENGINE_H
#define DM_VENGINE_H

#include <stddef.h>
#include <stdint.h>

#include <damier/status.h>
#include <damier/variant.h>

#ifdef __cplusplus
extern "C" {
#endif

/* An engine: transposition table, ordering tables, stop flag. Opaque. */
typedef struct dm_vengine dm_vengine;

/* Scores: hundredths of a man from the side to move's point of view; a won game
 * scores DM_VSCORE_WIN - plies to the end, a lost one the negation;
 * |score| >= DM_VSCORE_WIN_MIN means a forced game end was found. */
#define DM_VSCORE_WIN 10000
#define DM_VSCORE_WIN_MIN (DM_VSCORE_WIN - 1000)

#define DM_VENGINE_MAX_DEPTH 64    /* nominal depth of one iteration */
#define DM_VENGINE_MAX_PLY 128     /* search ply, quiescence included */
#define DM_VENGINE_MAX_PV 32       /* moves kept in a principal variation */
#define DM_VENGINE_MAX_HISTORY 256 /* earlier positions kept for repetition */

/* What to search. */
typedef struct dm_vsearch_input {
    dm_vboard root;            /* position to search (variant and side included) */
    const uint64_t *history;   /* dm_vboard_hash of the earlier positions since the
                                 last man move or capture, oldest first, root
                                 excluded; may be NULL. Only the last
                                 DM_VENGINE_MAX_HISTORY are used. A position that
                                 would repeat one of them (same side to move)
                                 scores as a draw. */
    int history_count;         /* entries in history */
    dm_vdraw_count draw_count; /* the draw rules' counters at the root (dm_variant_draw_count
                                  of the game; all 0: a position without a past) */
    const dm_draw_rules *draw; /* the draw rules applied in the tree; NULL: the variant's
                                  own (root.variant->draw). Borrowed for the search */
} dm_vsearch_input;

struct dm_game;

/* Initialise *in with game g's current position (any variant, dm_game_position) and
 * what the draw rules need: the hashes (dm_vboard_hash) of its positions since the
 * last man move or capture, oldest first (written into history, the latest cap at
 * most; in->history points there, so it must outlive *in's use), the game's draw
 * counters (dm_game_draw_count) and its draw rules are the variant's own (in->draw
 * NULL; a game with changed rules should set in->draw to them). */
DM_API void dm_vsearch_input_from_game(dm_vsearch_input *in, uint64_t *history, int cap,
                                       const struct dm_game *g);

/* When to stop; zero fields are no limit. With none at all the search runs until
 * dm_vengine_stop or DM_VENGINE_MAX_DEPTH. Depth 1 always completes. */
typedef struct dm_vlimits {
    int depth;        /* maximum nominal depth (plies), 0 = none */
    uint64_t nodes;   /* node budget, 0 = none */
    double move_time; /* seconds for this move, 0 = none */
} dm_vlimits;

/* Progress report, one per completed iteration. */
typedef struct dm_vinfo {
    int depth;                      /* completed nominal depth */
    int seldepth;                   /* deepest ply reached, quiescence included */
    int score;                      /* see DM_VSCORE_WIN */
    uint64_t nodes;                 /* nodes so far */
    double time;                    /* seconds since the search started */
    double nps;                     /* nodes per second */
    int pv_count;                   /* moves in pv */
    dm_vmove pv[DM_VENGINE_MAX_PV]; /* principal variation from the root */
} dm_vinfo;

typedef void (*dm_vinfo_fn)(const dm_vinfo *info, void *payload);

/* Result of a search. */
typedef struct dm_vsearch_result {
    int has_move;   /* 0 only when the root has no legal move (game over) */
    dm_vmove best;  /* a legal move of the root */
    int score;      /* score of best */
    int depth;      /* last completed nominal depth */
    uint64_t nodes; /* nodes searched */
    double time;    /* seconds */
} dm_vsearch_result;

/* Create an engine with a transposition table of about tt_mib MiB (0: 16 MiB;
 * 1..4096). *out belongs to the caller (dm_vengine_free). DM_EINVAL for a bad
 * size, DM_ENOMEM. */
DM_API dm_status dm_vengine_create(dm_vengine **out, int tt_mib);

/* Free an engine (NULL is fine); never during a search. */
DM_API void dm_vengine_free(dm_vengine *e);

/* Forget the table and ordering statistics: a new game. Not during a search. */
DM_API void dm_vengine_clear(dm_vengine *e);

/* Search in->root within lim; blocks until done; on_info (may be NULL) is called
 * from the calling thread after each completed iteration. Clears an earlier stop
 * request on entry. DM_EINVAL for a NULL argument or an invalid root (err says
 * why; err may be NULL); DM_OK otherwise (out->has_move = 0 with no legal move). */
DM_API dm_status dm_vengine_search(dm_vsearch_result *out, dm_vengine *e,
                                   const dm_vsearch_input *in, const dm_vlimits *lim,
                                   dm_vinfo_fn on_info, void *payload, dm_error *err);

/* Ask a running search to return soon (a few milliseconds). Any thread. */
DM_API void dm_vengine_stop(dm_vengine *e);

/* Static evaluation of b from the side to move's point of view (hundredths of a
 * man): material (man 100, flying king 300, short king 150) and advancement of
 * men; negated material for reversed-result variants (antidraughts). */
DM_API int dm_vengine_evaluate(const dm_vboard *b);

/* A 64-bit hash of b (pieces, side to move and variant) for repetition history.
 * Pure function: the same position always gives the same value. */
DM_API uint64_t dm_vboard_hash(const dm_vboard *b);

#ifdef __cplusplus
}
#endif
#endif /* DM_VENGINE_H */
