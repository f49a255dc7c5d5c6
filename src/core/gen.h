/* SPDX-License-Identifier: MIT
 * core/gen.h: the one bitboard move generator's internal interface. It owns the
 * rules-as-data struct (gen_rules), the constant ray tables of the 8x8 and 12x12
 * layouts (generated at build time by tools/gentables.c; the 10x10 tables are
 * layout_tab in layout.h), and the per-geometry entry points that the generic
 * API (vmovegen.c) calls. The generator itself is written once in gen_geom.h +
 * gen_impl.h and instantiated per board size in gen8.c, gen10.c and gen12.c. */
#ifndef DM_CORE_GEN_H
#define DM_CORE_GEN_H

#include <stdint.h>

#include "core/board10.h"
#include "core/move10.h"
#include <damier/variant.h>

/* 128-bit bitset of the 12x12 layout (GCC/clang extension, fine in -std=c17). */
__extension__ typedef unsigned __int128 gen_u128;
#define GEN_U128(hi, lo) ((((gen_u128)(hi)) << 64) | (gen_u128)(lo))

/* The 12x12 instance's types (gen12.c and the engine's 12x12 search, engine/search12.c). */
/* A 12x12 position and move: as dm_board10 / dm_move10 with 128-bit bitsets. */
typedef struct gen12_pos {
    gen_u128 pieces[2];
    gen_u128 kings;
    int side;
} gen12_pos;

typedef struct gen12_move {
    gen_u128 own, capt, kings; /* XOR deltas, as dm_move10 */
    uint8_t from, to, ncapt, pad_;
} gen12_move;

typedef struct gen12_list {
    int count, overflow;
    gen12_move moves[DM_MAX_MOVES];
} gen12_list;

/* Bits of each layout: n*n/2 squares plus a ghost bit after every two rows. */
#define GEN8_BITS 35
#define GEN12_BITS 77

/* Rays: squares strictly beyond bit b in direction d (0 NW, 1 NE, 2 SW, 3 SE). */
extern const uint64_t dm_ray8[4][GEN8_BITS];
extern const gen_u128 dm_ray12[4][GEN12_BITS];

/* The rules the move generator needs, copied from a dm_variant (gen_rules_of).
 * Passed by value and, for the hot variants, as compile-time constants, so the
 * compiler folds every test on them. Sources of each rule: dm_variant's fields
 * (damier/variant.h) and docs/VARIANT_MECHANICS.md. */
typedef struct gen_rules {
    int men_back;         /* men capture backwards too (FMJD 4.2; not English) */
    int flying;           /* kings move and capture along whole diagonals (FMJD 3.8, 4.3) */
    int precedence;       /* dm_precedence: which captures are legal among those found:
                           NONE free choice, COUNT the most pieces (FMJD 4.13), CZECH
                           a king's capture first, SPANISH (pieces, kings), ITALIAN
                           (pieces, by a king, kings, earliest kings) */
    int promotion;        /* dm_promotion: a man reaching the far row during a capture */
    int men_take_kings;   /* men may capture kings (0: the Italian rule) */
    int king_halt;        /* killer: a king's capture ending after a king stops right
                           behind it (DM_LAND_BEHIND_LAST_KING) */
    int land_behind;      /* Thai: a flying king lands only right behind each piece it
                           takes, which leaves the board at once (DM_LAND_BEHIND) */
    int win_on_promotion; /* breakthrough: a position with a king is over (no moves) */
    int orthogonal;       /* Frisian: captures along rows and files too (8 directions) */
} gen_rules;

/* International / Brazilian / Canadian / antidraughts: FMJD rules. */
#define GEN_RULES_FMJD                                                                             \
    ((const gen_rules){.men_back = 1,                                                              \
                       .flying = 1,                                                                \
                       .precedence = DM_PREC_COUNT,                                                \
                       .promotion = DM_PROMOTE_AT_END,                                             \
                       .men_take_kings = 1})
/* Russian: free choice, a man crowned mid-capture goes on as a flying king. */
#define GEN_RULES_RUSSIAN                                                                          \
    ((const gen_rules){.men_back = 1,                                                              \
                       .flying = 1,                                                                \
                       .precedence = DM_PREC_NONE,                                                 \
                       .promotion = DM_PROMOTE_CONTINUE_KING,                                      \
                       .men_take_kings = 1})
/* English checkers: men capture forward only, short kings, the move stops on crowning. */
#define GEN_RULES_ENGLISH                                                                          \
    ((const gen_rules){.men_back = 0,                                                              \
                       .flying = 0,                                                                \
                       .precedence = DM_PREC_NONE,                                                 \
                       .promotion = DM_PROMOTE_STOPS,                                              \
                       .men_take_kings = 1})

/* The generator's rules of variant v (read once per call). */
static inline gen_rules gen_rules_of(const dm_variant *v)
{
    gen_rules r = {.men_back = v->men_capture_back != 0,
                   .flying = v->flying_kings != 0,
                   .precedence = (int)v->precedence,
                   .promotion = (int)v->promotion,
                   .men_take_kings = v->men_capture_kings != 0,
                   .king_halt = v->king_landing == DM_LAND_BEHIND_LAST_KING,
                   .land_behind = v->king_landing == DM_LAND_BEHIND,
                   .win_on_promotion = v->win_on_promotion != 0,
                   .orthogonal = v->orthogonal != 0};
    return r;
}

static inline int gen_rules_eq(gen_rules a, gen_rules b)
{
    return a.men_back == b.men_back && a.flying == b.flying && a.precedence == b.precedence &&
           a.promotion == b.promotion && a.men_take_kings == b.men_take_kings &&
           a.king_halt == b.king_halt && a.land_behind == b.land_behind &&
           a.win_on_promotion == b.win_on_promotion && a.orthogonal == b.orthogonal;
}

/* Per geometry (N = 8, 10, 12; b->variant->size == N): every legal move of b under
 * rules r (dm_movegen_legal's contract), with the PDN path of each capture in
 * paths[i] when paths is not NULL (dm_move_path's squares); all_captures != 0 lists
 * every capture ignoring the majority rule and no quiet move (for error messages). */
int dm_gen8_vlegal(dm_movelist *list, uint8_t (*paths)[DM_MAX_CAPT], const dm_board *b, gen_rules r,
                   int all_captures);
int dm_gen10_vlegal(dm_movelist *list, uint8_t (*paths)[DM_MAX_CAPT], const dm_board *b,
                    gen_rules r, int all_captures);
int dm_gen12_vlegal(dm_movelist *list, uint8_t (*paths)[DM_MAX_CAPT], const dm_board *b,
                    gen_rules r, int all_captures);

/* Frisian's king-move limit (FR 17; variant->king_move_limit): the square of the king
 * of the side to move that may not make a non-capturing move in b (b->king_sq after
 * king_move_limit simple moves in a row, while the side has men), or 0. The
 * generators above do not apply it; dm_movegen_legal and the engine's root do. */
int dm_gen_blocked_king(const dm_board *b);

/* Per geometry: perft of b (depth >= 1) under rules r, converted once to bitboards. */
uint64_t dm_gen8_vperft(const dm_board *b, int depth, gen_rules r);
uint64_t dm_gen10_vperft(const dm_board *b, int depth, gen_rules r);
uint64_t dm_gen12_vperft(const dm_board *b, int depth, gen_rules r);

/* The 8x8 fast board (35-bit layout, dm_board10 fields) for the endgame databases
 * (egdb/index.c): legal moves and "must capture" under the rules folded at compile
 * time of Brazilian (fmjd), Russian (rus) and English checkers (eng); and a generic
 * 8x8 position as that fast board (hash 0). */
int dm_gen8_legal_fmjd(dm_movelist10 *list, const dm_board10 *pos);
int dm_gen8_legal_rus(dm_movelist10 *list, const dm_board10 *pos);
int dm_gen8_legal_eng(dm_movelist10 *list, const dm_board10 *pos);
int dm_gen8_capture_fmjd(const dm_board10 *pos);
int dm_gen8_capture_rus(const dm_board10 *pos);
int dm_gen8_capture_eng(const dm_board10 *pos);
void dm_gen8_fast_of(dm_board10 *out, const dm_board *b);

/* The full 8x8 board (geometry DM_GEOM_FULL: Turkish), genfull.c: the same contracts
 * as dm_gen8_vlegal / dm_gen8_vperft, rules r's precedence (COUNT or NONE) and
 * promotion; and vgen_path_matches' question (variant_int.h) on that board. */
int dm_genfull_vlegal(dm_movelist *list, uint8_t (*paths)[DM_MAX_CAPT], const dm_board *b,
                      gen_rules r, int all_captures);
uint64_t dm_genfull_vperft(const dm_board *b, int depth, gen_rules r);
/* The same perft counting every capture path as a move of its own, as the kish crate
 * counts (its published Turkish perft); for the tests. */
uint64_t dm_genfull_vperft_keep(const dm_board *b, int depth, gen_rules r);
int dm_genfull_path_matches(const dm_board *b, const dm_move *m, const int *want, int n);
/* The engine's side of the full-board generator (core/gen_geom_full.h): the legal
 * moves of pos (64 bits, bit = square - 1) as dm_move10 XOR deltas with squares 1..64,
 * and whether the side to move must capture. */
int dm_genfull_legal(dm_movelist10 *list, const dm_board10 *pos, gen_rules r);
int dm_genfull_has_capture(const dm_board10 *pos);

#endif /* DM_CORE_GEN_H */
