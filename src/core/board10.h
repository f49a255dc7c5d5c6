/* SPDX-License-Identifier: MIT
 * core/board10.h: the 10x10 bitboard view of an international draughts position
 * (FMJD rules) as a small value type: pieces, side to move and Zobrist hash. Squares
 * are 1..50. The one position type of every variant is dm_board (damier/variant.h);
 * dm_board10 is the fast board of the layers that are international by nature (the
 * engine's search, the endgame database, the trained evaluation, the opening book,
 * puzzles, DXP), reached from dm_board with dm_board_to_board10 (issue 9). */
#ifndef DM_BOARD10_H
#define DM_BOARD10_H

#include <stddef.h>
#include <stdint.h>

#include <damier/status.h>
#include <damier/variant.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Number of playable squares; squares are numbered 1..DM_SQUARES10 (FMJD 2.6). */
#define DM_SQUARES10 50

/* A position. Transparent so it can live on the stack and be copied freely.
 *
 * Bit layout (54 bits of a uint64_t; "ghost" bits 10, 21, 32, 43 are never set):
 *
 *        bit of square s = (s - 1) + (s - 1) / 10
 *
 *     row 1:    .  0  .  1  .  2  .  3  .  4      squares  1- 5
 *     row 2:    5  .  6  .  7  .  8  .  9  .      squares  6-10   ghost 10
 *     row 3:    . 11  . 12  . 13  . 14  . 15      squares 11-15
 *     row 4:   16  . 17  . 18  . 19  . 20  .      squares 16-20   ghost 21
 *     ...
 *     row 10:  49  . 50  . 51  . 52  . 53  .      squares 46-50
 *
 * so the four diagonal steps are shifts by 5 and 6 (towards square 1: >>,
 * towards square 50: <<); a step off the left or right edge lands on a ghost
 * bit or past bit 53, and masking with the 50 real squares discards it.
 * Use the functions below rather than the bits: the layout is the library's
 * business and may change. */
typedef struct dm_board10 {
    uint64_t pieces[2]; /* [DM_WHITE], [DM_BLACK]: every piece of that colour */
    uint64_t kings;     /* the kings of both colours (subset of pieces[0] | pieces[1]) */
    uint64_t hash;      /* Zobrist hash of pieces and side to move, kept incrementally */
    int side;           /* dm_color to move */
} dm_board10;

/* An empty board, White to move. */
void dm_board10_clear(dm_board10 *out);

/* The initial position (FMJD 2.8): Black men on 1-20, White men on 31-50, White to move. */
void dm_board10_start(dm_board10 *out);

/* What stands on square sq (1..50); DM_EMPTY for an out-of-range square. */
dm_piece dm_board10_piece(const dm_board10 *b, int sq);

/* Put piece on square sq (1..50), replacing what was there; DM_EMPTY clears it.
 * Keeps the hash up to date. DM_EINVAL for a bad square or piece. */
dm_status dm_board10_put(dm_board10 *b, int sq, dm_piece piece);

/* Set the side to move (updates the hash). */
void dm_board10_set_side(dm_board10 *b, dm_color side);

/* Number of men and kings of one colour. */
int dm_board10_count_men(const dm_board10 *b, dm_color c);
int dm_board10_count_kings(const dm_board10 *b, dm_color c);

/* Check the invariants: colours disjoint, kings a subset of the pieces, no man on its
 * own promotion row (White men on 1-5, Black men on 46-50), at most 20 pieces a side
 * would be a legal-game limit but compositions may exceed it, so it is not checked.
 * Returns DM_OK or DM_EINVAL with a reason in err. */
dm_status dm_board10_validate(const dm_board10 *b, dm_error *err);

/* The Zobrist hash computed from scratch (equals b->hash for a consistent board). */
uint64_t dm_board10_compute_hash(const dm_board10 *b);

/* True when both boards hold the same pieces and side to move. */
int dm_board10_equal(const dm_board10 *a, const dm_board10 *b);

/* Read a draughts FEN (PDN 3.0 FEN tag grammar), e.g. "W:W31-50:B1-20" or
 * "B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29". Accepted: side W, B (or '?',
 * read as White), colour sections in either order, either may be missing or empty,
 * 'K' before a king, ranges "a-b" of men or kings ("K1-3"), optional spaces, a
 * trailing '.' and whitespace. The result is validated with dm_board10_validate.
 * On error *out is untouched and err says what is wrong and at which character
 * (err->column, 1-based). */
dm_status dm_board10_from_fen(dm_board10 *out, const char *fen, dm_error *err);

/* Write b as FEN: "W:W31,32,K45:B1-20" style (side, White section then Black;
 * runs of three or more consecutive squares of the same kind written as ranges).
 * Writes at most cap bytes including the NUL; returns the length the full text
 * needs (excluding the NUL), snprintf-style. 200 bytes always suffice. */
size_t dm_board10_to_fen(char *buf, size_t cap, const dm_board10 *b);

/* Read/write the Hub protocol position string: 51 characters, side 'W'/'B' then one of
 * 'w' 'b' 'W' 'B' 'e' per square 1..50. to_hub needs cap >= 52. */
dm_status dm_board10_from_hub(dm_board10 *out, const char *pos, dm_error *err);
size_t dm_board10_to_hub(char *buf, size_t cap, const dm_board10 *b);

/* The same position on the fast 10x10 board (only for 10x10 variants); DM_EINVAL
 * otherwise. And back: a dm_board10 as a generic board of variant v (10x10). */
dm_status dm_board_to_board10(dm_board10 *out, const dm_board *b);
dm_status dm_board_from_board10(dm_board *out, const dm_variant *v, const dm_board10 *b);

#ifdef __cplusplus
}
#endif
#endif /* DM_BOARD10_H */
