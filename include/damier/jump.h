/* SPDX-License-Identifier: MIT
 * damier/jump.h: the jumping games, a game family of its own beside draughts:
 * Chinese checkers (the star board, 2/3/4/6 players), Halma (16x16, 8x8, 10x10;
 * 2 or 4 players) and the ancient Chinese lane game Ge Wu (格五). This header owns
 * their rules (dm_jrules: geometry, camps, options), positions (dm_jpos), moves
 * (dm_jmove), legal move generation, win detection, perft, square names, move text
 * and position strings. Nothing here shares a type with the draughts API.
 *
 * Every rule, with its source and the reading of every unclear point, is in
 * docs/JUMPING.md. Summary:
 *   - Chinese checkers: 121 holes numbered 1..121 row by row from the top point,
 *     left to right. Corners (points) 0..5 clockwise from the top. A move is a step
 *     to one of the 6 neighbours, or a chain of single jumps over any peg (the peg
 *     stays) to the empty hole straight beyond, stopping after any jump, never
 *     landing twice on the same hole (nor back on its start). Win: all 10 pegs in
 *     the opposite point.
 *   - Halma: squares a1..p16 (file a.. from the left, rank 1 at the bottom); steps
 *     and jump chains as above in 8 directions; win: all pieces in the camp in the
 *     diagonally opposite corner.
 *   - Ge Wu: a lane of squares 1..L; White moves towards L, Black towards 1; a turn
 *     is a series of throws of the four-faced stick; 塞/白/黑 give 1/2/3 single steps
 *     for one piece (each step onto the next empty square, or over one enemy piece
 *     straight ahead onto the empty square beyond), 五 ends the turn. A piece that
 *     goes beyond the lane's far end has reached the enemy's side and wins.
 *
 * All objects are plain values owned by the caller; no function keeps state, prints
 * or exits, and only dm_jsearch allocates (its move lists, freed before it returns). */
#ifndef DM_JUMP_H
#define DM_JUMP_H

#include <stddef.h>
#include <stdint.h>

#include <damier/status.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The games of the family. Values are appended, never renumbered. */
typedef enum dm_jgame {
    DM_JGAME_CHINESE = 0, /* Chinese checkers, "chinese-checkers" */
    DM_JGAME_HALMA = 1,   /* Halma, "halma" */
    DM_JGAME_GEWU = 2     /* Ge Wu, "gewu" */
} dm_jgame;

#define DM_JMAX_SQUARES 256 /* Halma 16x16; Chinese checkers uses 121, Ge Wu <= 64 */
#define DM_JMAX_PLAYERS 6
#define DM_JMAX_PATH 64 /* landing squares of one move (a jump chain) at most */
#define DM_JMAX_MOVES                                                                              \
    16384 /* legal moves of one position at most: k pieces reach at
                               most N-k squares each, k(N-k) <= 16384 for N = 256 */

/* Option bits of dm_jrules.options. */
#define DM_JOPT_NO_FOREIGN_CORNER                                                                  \
    1u /* Chinese checkers: a peg may not END a move in
                                        a point that is neither its home nor its
                                        target (passing through is allowed) */
#define DM_JOPT_GEWU_ONE_THROW                                                                     \
    2u /* Ge Wu: one throw per turn (default: a turn
                                        goes on throwing until 五) */

/* A set of squares, bit i = square i+1 (square numbers are 1-based). */
typedef struct dm_jset {
    uint64_t w[4];
} dm_jset;

/* The rules of one game: geometry, camps, options. Fill it with dm_jrules_init;
 * afterwards it is read-only data (several positions can share it). */
typedef struct dm_jrules {
    dm_jgame game;
    int players;                     /* 2..6 seats, in turn order */
    int size;                        /* Halma: board side 8, 10 or 16; Ge Wu: lane length */
    int squares;                     /* number of squares/holes */
    int dirs;                        /* directions: 6 (star), 8 (Halma), 1 (lane) */
    int pieces;                      /* pieces per player at the start */
    unsigned options;                /* DM_JOPT_* bits */
    int16_t nb[DM_JMAX_SQUARES][8];  /* neighbour of square i (0-based) in direction d,
                                       or -1; Ge Wu: unused */
    int corner[DM_JMAX_PLAYERS];     /* home corner of each seat (Chinese 0..5 clockwise
                                    from the top; Halma 0..3: a1, a16, p16, p1) */
    dm_jset home[DM_JMAX_PLAYERS];   /* start squares of each seat */
    dm_jset target[DM_JMAX_PLAYERS]; /* squares to fill to win */
    dm_jset corners;                 /* Chinese checkers: every square of the 6 points */
    uint8_t goal_dist[DM_JMAX_PLAYERS][DM_JMAX_SQUARES]; /* steps from a square to the
                                    far tip of the seat's target (Chinese/Halma) */
} dm_jrules;

/* A position. Ge Wu: seat 0 is White, seat 1 Black; throw is the face to play
 * (1 塞, 2 白, 3 黑), or 0 when the side to move must throw. */
typedef struct dm_jpos {
    dm_jset pieces[DM_JMAX_PLAYERS];
    int to_move;     /* seat 0..players-1 */
    int throw_steps; /* Ge Wu only: 0 (to throw) or 1..3 steps to play */
    int won;         /* Ge Wu only: the seat whose piece has left the lane
                                    at the enemy's end, or -1 */
} dm_jpos;

/* A move: from and to (0-based squares). The landing squares of a jump chain are
 * found again by dm_jmove_path (every legal move has a distinct (from, to)).
 * Ge Wu: to = DM_JOFF_BOARD when the piece leaves the lane (the winning move). */
typedef struct dm_jmove {
    uint8_t from;
    uint8_t to;
} dm_jmove;
#define DM_JOFF_BOARD 255

typedef struct dm_jmovelist {
    int count;
    dm_jmove moves[DM_JMAX_MOVES];
} dm_jmovelist;

/* The four faces of Ge Wu's throwing stick, with the steps each gives (0 = 五, the
 * turn ends). Each face has probability 1/4 (no source gives others). */
typedef enum dm_gewu_face {
    DM_GEWU_SAI = 1, /* 塞, one stroke: 1 step */
    DM_GEWU_BAI = 2, /* 白, two strokes: 2 steps */
    DM_GEWU_HEI = 3, /* 黑, three strokes: 3 steps */
    DM_GEWU_WU = 0   /* 五, blank: no move, the turn ends */
} dm_gewu_face;

/* Fill r with the rules of game for players seats (Chinese 2, 3, 4 or 6; Halma 2
 * or 4; Ge Wu 2) and size (Halma 8, 10 or 16; Ge Wu lane length 12..64, 0 = the
 * default 12; Chinese: 0). options: DM_JOPT_* bits. Errors: DM_EINVAL with a
 * message in err for a player count, size or option the game does not have. */
DM_API dm_status dm_jrules_init(dm_jrules *r, dm_jgame game, int players, int size,
                                unsigned options, dm_error *err);

/* The game's command-line name ("chinese-checkers", "halma", "gewu") and back:
 * dm_jgame_from_name returns DM_EINVAL (listing the names in err) when unknown. */
DM_API const char *dm_jgame_name(dm_jgame game);
DM_API dm_status dm_jgame_from_name(dm_jgame *game, const char *name, dm_error *err);

/* The start position: every seat on its home squares, seat 0 to move. */
DM_API void dm_jpos_start(dm_jpos *p, const dm_jrules *r);

/* Every legal move of p into list, sorted by from then to, no two alike. Chinese
 * checkers and Halma: the steps and jump chains of the seat to move. Ge Wu: the
 * moves of the current throw (p->throw_steps 1..3); none when it is 0. A game that
 * is over has no moves. Returns the count. */
DM_API int dm_jmovegen(dm_jmovelist *list, const dm_jrules *r, const dm_jpos *p);

/* Play m (a legal move of p) and pass the turn: Chinese/Halma to the next seat that
 * has not finished (here: the next seat); Ge Wu: after a move the same side throws
 * again (DM_JOPT_GEWU_ONE_THROW: the other side). */
DM_API void dm_jpos_apply(dm_jpos *p, const dm_jrules *r, const dm_jmove *m);

/* Ge Wu: the side to move throws face; 五 passes the turn, the others set
 * throw_steps. dm_jpos_forfeit_throw: the throw has no legal move and is lost (the
 * side throws again, or the turn passes under DM_JOPT_GEWU_ONE_THROW). */
DM_API void dm_gewu_throw(dm_jpos *p, const dm_jrules *r, dm_gewu_face face);
DM_API void dm_gewu_forfeit(dm_jpos *p, const dm_jrules *r);

/* The seat that has won, or -1: Chinese/Halma, all of a seat's pieces on its target
 * squares; Ge Wu, a piece has left the lane at the enemy's end. */
DM_API int dm_jpos_winner(const dm_jpos *p, const dm_jrules *r);

/* Leaves of the legal move tree at depth (0: 1). Chinese/Halma: plies of moves.
 * Ge Wu: each ply is one throw (4 faces) and, for 塞/白/黑, each legal move of it
 * (or the forfeit when it has none); 五 is one child. Won positions are leaves that
 * count only at depth 0. */
DM_API uint64_t dm_jperft(const dm_jrules *r, const dm_jpos *p, int depth);

/* The landing squares of m in p (0-based) into path[0..]: the one step, or the
 * jumps of a shortest chain (Ge Wu: each square the piece stands on after each
 * step). Returns their count (>= 1), or 0 when m is not legal in p. */
DM_API int dm_jmove_path(const dm_jrules *r, const dm_jpos *p, const dm_jmove *m, int *path,
                         int max);

/* The name of square sq (0-based) into buf: Chinese "1".."121", Halma "a1".."p16",
 * Ge Wu "1".."L" ("off" for DM_JOFF_BOARD). Returns buf. */
DM_API char *dm_jsquare_name(char *buf, size_t size, const dm_jrules *r, int sq);

/* Move text: the from square, then each landing square, joined by '-'
 * ("95-84", "111-89-67"). Errors: DM_EBUFS. */
DM_API dm_status dm_jmove_to_text(char *buf, size_t size, const dm_jrules *r, const dm_jpos *p,
                                  const dm_jmove *m);

/* Read a move text: from then one or more landing squares ('-' or 'x' between);
 * every leg is checked (a step as the only leg, or a jump over a piece onto an
 * empty square not yet visited), and "from-to" alone names the legal move with those
 * squares. Errors (err says what and the 1-based column): DM_EPARSE for an unknown
 * square or bad syntax, DM_EILLEGAL for a leg or move the rules do not allow. */
DM_API dm_status dm_jmove_from_text(dm_jmove *m, const dm_jrules *r, const dm_jpos *p,
                                    const char *text, dm_error *err);

/* Position string: the seat to move, then one section per seat, ':' between:
 * "A:A1-10:B112-121" (seat letters A..F in turn order; squares by name, comma
 * separated; numeric ranges "1-10" on the numbered boards). Ge Wu uses W and B and
 * may put the throw after the side: "W2:W1-5:B8-12". Every seat appears once.
 * Errors (DM_EPARSE, err with the 1-based column): unknown letter or square, a square
 * named twice, a seat missing or repeated, a wrong piece count is allowed (hand-made
 * positions) but more than the board's squares is not. */
DM_API dm_status dm_jpos_from_text(dm_jpos *p, const dm_jrules *r, const char *text, dm_error *err);
DM_API dm_status dm_jpos_to_text(char *buf, size_t size, const dm_jrules *r, const dm_jpos *p);

/* ---- a simple engine (two players, Chinese checkers and Halma) ---------------
 * Alpha-beta (negamax, no table yet) to a fixed depth in plies, evaluating by
 * distance to goal: the sum of the opponent's pieces' goal_dist minus one's own, in
 * steps; a won position scores DM_JWIN minus its ply. */
#define DM_JWIN 100000

typedef struct dm_jsearch_result {
    dm_jmove best;  /* the move chosen (from = to = 0 when there is none) */
    int score;      /* for the side to move, in steps (DM_JWIN - ply for a win) */
    uint64_t nodes; /* positions visited */
} dm_jsearch_result;

/* Search p (Chinese checkers or Halma with 2 players) to depth plies (1..8).
 * Errors: DM_EINVAL for another game, player count or depth. */
DM_API dm_status dm_jsearch(const dm_jrules *r, const dm_jpos *p, int depth, dm_jsearch_result *out,
                            dm_error *err);

/* The distance evaluation of p for the side to move (see above). */
DM_API int dm_jevaluate(const dm_jrules *r, const dm_jpos *p);

#ifdef __cplusplus
}
#endif
#endif /* DM_JUMP_H */
