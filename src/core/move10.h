/* SPDX-License-Identifier: MIT
 * core/move10.h: moves on the 10x10 bitboard (dm_board10): legal move generation
 * (FMJD 3-4), making and unmaking moves, perft, and move notation (FMJD 8, PDN 3.0,
 * Hub). The one move type of every variant is dm_move (damier/variant.h); dm_move10
 * is the fast board's, converted with dm_move_to_move10 / dm_move_from_move10. */
#ifndef DM_MOVE10_H
#define DM_MOVE10_H

#include <stddef.h>
#include <stdint.h>

#include "board10.h" /* same folder: also reached through a layer's forwarding header */
#include <damier/status.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A move as three XOR deltas over the board's bitboards, so that applying and
 * undoing are the same operation. from/to are kept explicitly because a king can
 * end a capture on the square it started from (then own == 0).
 * Two capture paths with the same from, to and captured set are ONE move. */
typedef struct dm_move10 {
    uint64_t own;   /* XOR into the mover's pieces: from and to bits (0 when from == to) */
    uint64_t capt;  /* XOR into the opponent's pieces: the captured pieces */
    uint64_t kings; /* XOR into kings: king moved, man promoted, kings captured */
    uint8_t from;   /* square 1..50 the piece starts on */
    uint8_t to;     /* square 1..50 the piece ends on */
    uint8_t ncapt;  /* number of pieces captured (0 for an ordinary move) */
    uint8_t pad_;   /* reserved, always 0 */
} dm_move10;

/* Upper bound of legal moves in any position (quiet moves are below 200 by the
 * four-rays-per-square argument; captures beyond are truncated and flagged). */
#define DM_MAX_MOVES10 256

/* A list of moves, filled by dm_movegen10_legal. */
typedef struct dm_movelist10 {
    int count;    /* number of moves in moves[] */
    int overflow; /* 1 if more than DM_MAX_MOVES10 moves existed (never seen in practice) */
    dm_move10 moves[DM_MAX_MOVES10];
} dm_movelist10;

/* Generate every legal move of b into list (FMJD 3 and 4):
 * - capture is compulsory (4.1) and only sequences taking the most pieces are legal
 *   (4.13, majority rule; a king counts as one piece);
 * - captured pieces stay on the board until the move ends and cannot be jumped twice
 *   (4.8, 4.11, Turkish strike); an empty square may be crossed again;
 * - a man is promoted only when the move ENDS on the far row (4.15);
 * - paths with equal from, to and captured set are listed once.
 * Returns list->count. Order is the generator's (deterministic, unspecified). */
int dm_movegen10_legal(dm_movelist10 *list, const dm_board10 *b);

/* Number of legal moves (faster than generating them when there is no capture). */
int dm_movegen10_count(const dm_board10 *b);

/* True when the side to move has a capture (so every legal move is a capture). */
int dm_movegen10_has_capture(const dm_board10 *b);

/* Play m (a legal move of b) on b: pieces, kings, hash and side to move. */
void dm_board10_apply(dm_board10 *b, const dm_move10 *m);

/* Take back m, which was the last move applied to b. */
void dm_board10_undo(dm_board10 *b, const dm_move10 *m);

/* True when the move promotes a man (it is a man that ends on the far row). */
int dm_move10_is_promotion(const dm_board10 *before, const dm_move10 *m);

/* True when a and b are the same move. */
int dm_move10_equal(const dm_move10 *a, const dm_move10 *b);

/* Squares captured by m, ascending, into sq[] (cap >= m->ncapt); returns m->ncapt. */
int dm_move10_captured(const dm_move10 *m, int *sq, int cap);

/* Leaf count of the legal move tree to depth plies (depth >= 0; perft(0) = 1).
 * Uses bulk counting at the last ply. */
uint64_t dm_perft10(const dm_board10 *b, int depth);

/* The path of a move: from, each landing square where the piece turned or stopped
 * between captures (one per captured piece except the last, as PDN 3.0 requires),
 * then to. Writes up to cap squares into sq[]; returns the number of squares
 * (2 for an ordinary move or a single capture). When several paths give the same
 * move, the first found is written. Returns 0 if m is not a legal move of b. */
int dm_move10_path(int *sq, int cap, const dm_board10 *b, const dm_move10 *m);

/* Write m (a legal move of b) in the given notation. snprintf-style: writes at most
 * cap bytes including the NUL and returns the length needed. 160 bytes suffice. */
size_t dm_move10_to_text(char *buf, size_t cap, const dm_board10 *b, const dm_move10 *m,
                         dm_notation style);

/* Read a move in any common notation and resolve it to exactly one legal move of b.
 * Accepted: "32-28", "19x28", "19:28", "19×28" (UTF-8), full PDN paths "28x19x10"
 * (landing squares), Hub form "28x10x19x23" (captured squares, any order), leading
 * zeros "06-11", "1- 6" padding, a bare from-to "3228" is NOT accepted. Trailing
 * strength marks (!, ?, !!, ?!, !?, ??) are ignored. A quiet move written with 'x' or a
 * capture written with '-' is matched by from and to ("x" is not trusted, as real
 * files misuse it).
 * Errors (err->message says which): DM_EPARSE malformed text (with column);
 * DM_EILLEGAL no legal move matches (the reason: capture compulsory with an example
 * of a legal capture, or the majority rule, or simply not legal);
 * DM_EAMBIGUOUS several legal moves match (the candidates are listed). */
dm_status dm_move10_parse(dm_move10 *out, const dm_board10 *b, const char *text, dm_error *err);

/* The generic move of b (a 10x10 variant with the fast board's squares) that is m, a
 * move of the same position on the fast board (dm_move10: same from, to and captured
 * squares). DM_EILLEGAL when b has no such move (m was not legal
 * there), DM_EINVAL for NULL or a board that is not 10x10. A bridge between the two
 * move types until they are one (issue 9). */
dm_status dm_move_from_move10(dm_move *out, const dm_board *b, const dm_move10 *m);

/* And back: the move of the fast board b equal to m (same from, to and captured
 * squares), for the layers still on the fast board (the endgame database, the book,
 * the trained evaluation's tools, DXP, puzzles) with a move the engine or the session
 * gave. DM_EILLEGAL when b has no such move, DM_EINVAL for NULL. A bridge until the
 * two move types are one (issue 9). */
dm_status dm_move_to_move10(dm_move10 *out, const dm_board10 *b, const dm_move *m);

#ifdef __cplusplus
}
#endif
#endif /* DM_MOVE10_H */
