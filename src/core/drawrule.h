/* SPDX-License-Identifier: MIT
 * core/drawrule.h: the draw rules' counting, written once for every variant and
 * every caller: the judge of every game (core/vdraw.c: dm_variant_draw,
 * dm_variant_draw_judge, dm_variant_draw_count, dm_variant_draw_step, which the game
 * layer calls for every variant, international included) and both
 * search (engine/search_impl.h, every variant), which inlines it at every node.
 * The thresholds are data (dm_draw_rules, damier/variant.h; each set with its source
 * in core/variant.c). Repetition is not here: it needs the history, which each
 * caller keeps in its own form (positions, or hash keys); the threshold is
 * d->repetition.
 *
 * Counting (FMJD 6; "N moves of each player" = 2N plies):
 * - reversible: plies since the last man move or capture (FMJD 25-move rule with
 *   d->kings_only_moves; English 40, pool 15 with d->no_progress_moves); drawn when
 *   it reaches 2N, not a ply before;
 * - no_capture: plies since the last capture (Russian source material: 30);
 * - material: plies since the current material configuration (three pieces with a
 *   king against a lone king, two or fewer, king against king) arose. The count
 *   starts at 0 in the position right after the move that made it: a capture, a
 *   move into a configuration of another kind, and a promotion (unless
 *   d->promotion_continues). This is the game layer's reading since the first
 *   wave (FMJD 6 says "after at most 16 further moves"; the restart on promotion
 *   is debated, damforum; d->promotion_continues selects it). */
#ifndef DM_CORE_DRAWRULE_H
#define DM_CORE_DRAWRULE_H

#include <limits.h>

#include <damier/variant.h>

/* The FMJD set (FMJD 6: 3-fold repetition, 25 moves of kings only, 16 and 5 moves
 * against a lone king), as an initialiser. */
#define DR_FMJD_INIT                                                                               \
    {                                                                                              \
        .name = "fmjd", .repetition = 3, .kings_only_moves = 25, .three_vs_king_moves = 16,        \
        .two_vs_king_moves = 5                                                                     \
    }

/* The counters of one position. */
typedef struct dr_state {
    int reversible; /* plies since the last man move or capture */
    int no_capture; /* plies since the last capture (counted under a set with
                       no_capture_moves only; 0 otherwise) */
    int kind;       /* dm_draw_kind of the material rule that applies (NONE, THREE_VS_KING,
                       TWO_VS_KING, KING_VS_KING) */
    int material;   /* plies since that configuration arose; -1 when kind is NONE */
} dr_state;

/* 1 when a and b hold the same thresholds (the names aside). */
static inline int dr_same(const dm_draw_rules *a, const dm_draw_rules *b)
{
    return a->repetition == b->repetition && a->kings_only_moves == b->kings_only_moves &&
           a->no_capture_moves == b->no_capture_moves &&
           a->no_progress_moves == b->no_progress_moves &&
           a->three_vs_king_moves == b->three_vs_king_moves &&
           a->three_kings_only == b->three_kings_only &&
           a->two_vs_king_moves == b->two_vs_king_moves &&
           a->long_diagonal_moves == b->long_diagonal_moves &&
           a->equal_kings_4_5_moves == b->equal_kings_4_5_moves &&
           a->equal_kings_6_7_moves == b->equal_kings_6_7_moves &&
           a->two_kings_only == b->two_kings_only &&
           a->king_vs_king_moves == b->king_vs_king_moves &&
           a->promotion_continues == b->promotion_continues;
}

/* The material rule of d that applies to a position with these men and kings per
 * colour: one side a lone king, the other three pieces with a king (three kings
 * where d->three_kings_only: FMJD 16, Russian 18), two or fewer with a king (two
 * kings where d->two_kings_only: FMJD 5, Frisian 7), or a lone king (Frisian, where
 * d->king_vs_king_moves; else the two-or-fewer rule counts it). DM_DRAW_NONE when
 * none does. */
static inline int dr_kind(const dm_draw_rules *d, int wm, int wk, int bm, int bk)
{
    int men[2] = {wm, bm}, kings[2] = {wk, bk};
    for (int strong = 0; strong < 2; strong++) {
        int weak = strong ^ 1;
        int n = men[strong] + kings[strong];
        if (men[weak] != 0 || kings[weak] != 1 || kings[strong] == 0) {
            continue;
        }
        if (n == 1 && d->king_vs_king_moves > 0) {
            return DM_DRAW_KING_VS_KING;
        }
        if (n == 3 && d->three_vs_king_moves > 0 && (!d->three_kings_only || kings[strong] == 3)) {
            return DM_DRAW_THREE_VS_KING;
        }
        if (n <= 2 && d->two_vs_king_moves > 0 && (!d->two_kings_only || kings[strong] == 2)) {
            return DM_DRAW_TWO_VS_KING;
        }
    }
    return DM_DRAW_NONE;
}

/* Plies after which the material rule kind of d draws (2 x its moves), 0 for none. */
static inline int dr_material_limit(const dm_draw_rules *d, int kind)
{
    switch (kind) {
        case DM_DRAW_THREE_VS_KING:
            return 2 * d->three_vs_king_moves;
        case DM_DRAW_TWO_VS_KING:
            return 2 * d->two_vs_king_moves;
        case DM_DRAW_KING_VS_KING:
            return 2 * d->king_vs_king_moves;
        default:
            return 0;
    }
}

/* Plies of reversible moves after which d draws (the larger of kings_only_moves and
 * no_progress_moves, which count the same plies), 0 for none. */
static inline int dr_reversible_limit(const dm_draw_rules *d)
{
    int m = d->kings_only_moves > d->no_progress_moves ? d->kings_only_moves : d->no_progress_moves;
    return 2 * m;
}

/* The counters of a position with no known past (a game's start, a FEN). */
static inline void dr_start(dr_state *out, int kind)
{
    out->reversible = 0;
    out->no_capture = 0;
    out->kind = kind;
    out->material = kind == DM_DRAW_NONE ? -1 : 0;
}

/* The material count after a move (see the header): kind_before and material of the
 * position before, kind_after of the one after. */
static inline int dr_material_next(const dm_draw_rules *d, int kind_before, int material,
                                   int kind_after, int capture, int promotion)
{
    if (kind_after == DM_DRAW_NONE) {
        return -1;
    }
    if (capture || kind_after != kind_before || material < 0 ||
        (promotion && !d->promotion_continues)) {
        return 0;
    }
    return material + 1;
}

/* The counters after a move from a position with counters s: man_moved (the piece
 * moved was a man), capture (it took at least one piece), promotion (a man was
 * crowned), kind_after (dr_kind of the position after), into out (not s: the
 * search's per-ply stack). */
static inline void dr_step_into(dr_state *restrict out, const dr_state *restrict s,
                                const dm_draw_rules *d, int man_moved, int capture, int promotion,
                                int kind_after)
{
    out->reversible = (man_moved || capture) ? 0 : s->reversible + 1;
    out->no_capture = d->no_capture_moves > 0 && !capture ? s->no_capture + 1 : 0;
    out->material = dr_material_next(d, s->kind, s->material, kind_after, capture, promotion);
    out->kind = kind_after;
}

/* dr_step_into where out may equal s. */
static inline void dr_step(dr_state *out, const dr_state *s, const dm_draw_rules *d, int man_moved,
                           int capture, int promotion, int kind_after)
{
    dr_state n;
    dr_step_into(&n, s, d, man_moved, capture, promotion, kind_after);
    *out = n;
}

/* The thresholds of d in plies, read once (a search reads them at every node). */
typedef struct dr_limits {
    int reversible;                         /* dr_reversible_limit, or INT_MAX for none */
    int no_capture;                         /* 2 x no_capture_moves, or INT_MAX for none */
    int material[DM_DRAW_KING_VS_KING + 1]; /* per dm_draw_kind kind: dr_material_limit, or
                                                 INT_MAX for none (and for the other kinds) */
} dr_limits;

static inline void dr_limits_of(dr_limits *out, const dm_draw_rules *d)
{
    int rl = dr_reversible_limit(d);
    out->reversible = rl > 0 ? rl : INT_MAX;
    out->no_capture = d->no_capture_moves > 0 ? 2 * d->no_capture_moves : INT_MAX;
    for (int k = 0; k <= DM_DRAW_KING_VS_KING; k++) {
        int ml = dr_material_limit(d, k);
        out->material[k] = ml > 0 ? ml : INT_MAX;
    }
}

/* The counting rule that draws a position with counters s under thresholds l, in
 * this order: the material rule, moves without progress, moves without a capture;
 * DM_DRAW_NONE when none (repetition is the caller's). */
static inline int dr_verdict_limits(const dr_limits *l, const dr_state *s)
{
    if (s->material >= l->material[s->kind]) {
        return s->kind;
    }
    if (s->reversible >= l->reversible) {
        return DM_DRAW_NO_PROGRESS;
    }
    if (s->no_capture >= l->no_capture) {
        return DM_DRAW_NO_CAPTURE;
    }
    return DM_DRAW_NONE;
}

/* dr_verdict_limits under d's thresholds. */
static inline int dr_verdict(const dm_draw_rules *d, const dr_state *s)
{
    dr_limits l;
    dr_limits_of(&l, d);
    return dr_verdict_limits(&l, s);
}

#endif /* DM_CORE_DRAWRULE_H */
