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
 * or exits; dm_jsearch allocates (its move lists, freed before it returns), and the
 * last pegs' tables (dm_jpegdb, dm_jendgame) are malloc'd objects the caller owns. */
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

/* Option bits of dm_jrules.options (the house rules; docs/JUMPING.md gives the source
 * of each). Names for the command line and records: dm_jopt_name.
 * NO_FOREIGN_CORNER "no-foreign-corner": Chinese checkers, a peg may not END a move in
 *   a point that is neither its home nor its target (passing through is allowed).
 * GEWU_ONE_THROW "one-throw": Ge Wu, one throw per turn (default: a turn goes on
 *   throwing until 五).
 * FIFTEEN "fifteen": Chinese checkers, 2 players, 15 pegs each: the point and the row
 *   of 5 in front of it (the target likewise).
 * ANTI_SPOIL "anti-spoil": Chinese checkers and Halma, a seat also wins when every
 *   target square is taken, at least one by its own piece and the others by opponents'
 *   pieces standing on their own home squares.
 * SUPER_JUMP "super-jump": Chinese checkers, a jump goes over one peg at any distance
 *   along a line, the holes between empty, to the hole as far beyond it (空跳).
 * CAPTURE "capture": Chinese checkers, 1 to 6 players (食棋): pegs on the central
 *   hexagon but its centre, belonging to no seat (kept in pieces[0]; every seat moves
 *   any peg); a move is one jump that removes the peg jumped, a step only when no jump
 *   exists; one peg left wins: the puzzle for one player, else the seat whose capture
 *   left it.
 * LEAVE_CAMP "leave-camp": Halma 8x8 and 10x10, a seat that has made more than 30
 *   (8x8) or 50 (10x10) moves with a piece still in its own camp loses. */
#define DM_JOPT_NO_FOREIGN_CORNER 1u
#define DM_JOPT_GEWU_ONE_THROW 2u
#define DM_JOPT_FIFTEEN 4u
#define DM_JOPT_ANTI_SPOIL 8u
#define DM_JOPT_SUPER_JUMP 16u
#define DM_JOPT_CAPTURE 32u
#define DM_JOPT_LEAVE_CAMP 64u

/* The no-progress rule (all games): the game ends without a winner after this many
 * rounds (a move of each seat) in which no seat came nearer its goal than before
 * (dm_jprogress). */
#define DM_JNO_PROGRESS_ROUNDS 50

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
    uint8_t col[DM_JMAX_SQUARES]; /* where to draw square i: Chinese 0..24 (two columns a
                                    hole, rows shifted by one), Halma the file 0..size-1,
                                    Ge Wu the square 0..L-1 */
    uint8_t row[DM_JMAX_SQUARES]; /* Chinese 0..16 from the top; Halma 0..size-1 from the
                                    top (rank size first); Ge Wu 0 */
} dm_jrules;

/* A position. Ge Wu: seat 0 is White, seat 1 Black; throw is the face to play
 * (1 塞, 2 白, 3 黑), or 0 when the side to move must throw. */
typedef struct dm_jpos {
    dm_jset pieces[DM_JMAX_PLAYERS];
    int to_move;     /* seat 0..players-1 */
    int throw_steps; /* Ge Wu only: 0 (to throw) or 1..3 steps to play */
    int won;         /* Ge Wu only: the seat whose piece has left the lane
                                    at the enemy's end, or -1 */
    int moves;       /* actions played since the start or the position string (moves,
                        passes): the leave-camp rule counts them */
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

/* Fill r with the rules of game for players seats (Chinese 2, 3, 4 or 6, 1 to 6 with
 * the option capture; Halma 2 or 4; Ge Wu 2) and size (Halma 8, 10 or 16; Ge Wu lane length 12..64, 0 = the
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

/* The seat that has won, or -1: Chinese/Halma, all of a seat's target squares hold its
 * pieces (anti-spoil: or opponents' pieces on their home squares, one at least its own;
 * leave-camp: the other seat, once a seat has made more than 30/50 moves with a piece
 * in its camp, seat A checked first); the capture game, one peg left (one player:
 * seat 0; several: the seat before the side to move, whose capture left it); Ge Wu, a piece
 * has left the lane at the enemy's end. */
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

/* The command-line and record name of option bit opt ("no-foreign-corner",
 * "one-throw", ...), or NULL for a bit that is no option. */
DM_API const char *dm_jopt_name(unsigned opt);

/* Read options written as names joined by ',' (the record's Options tag; "" is
 * none) into *opts. Errors: DM_EPARSE naming the unknown option. */
DM_API dm_status dm_jopts_from_text(unsigned *opts, const char *text, dm_error *err);

/* Write the names of opts, ',' between, into buf ("" for none). DM_EBUFS. */
DM_API dm_status dm_jopts_to_text(char *buf, size_t size, unsigned opts);

/* ---- actions: what one token of a game record does ---------------------------
 * Chinese checkers and Halma: a move, or a pass (only when the side to move has no
 * legal move: the pass rule of docs/JUMPING.md). Ge Wu: a throw of the stick and what
 * it gives: a move, the loss of a throw that cannot be played ("lost"), or, for 五,
 * nothing. Texts: "111-89-67", "pass"; Ge Wu "bai:5-6-7" (塞 sai, 白 bai, 黑 hei),
 * "hei:lost", "wu", and without the face when the position already holds the throw
 * ("5-6-7", "lost"). */
typedef enum dm_jact_kind {
    DM_JACT_MOVE = 0, /* play move */
    DM_JACT_PASS = 1, /* Chinese/Halma: no legal move, the turn passes */
    DM_JACT_LOST = 2, /* Ge Wu: the throw has no legal move and is lost */
    DM_JACT_NONE = 3  /* Ge Wu: the throw was 五 (nothing to play) */
} dm_jact_kind;

typedef struct dm_jaction {
    int kind;      /* dm_jact_kind */
    int face;      /* Ge Wu: the face thrown first (dm_gewu_face), or -1 for none */
    dm_jmove move; /* DM_JACT_MOVE: the move */
} dm_jaction;

/* Pass the turn (Chinese checkers and Halma) to the next seat. */
DM_API void dm_jpos_pass(dm_jpos *p, const dm_jrules *r);

/* The no-progress rule: a caller-owned counter over a game. progress is each seat's
 * best (lowest) distance so far: the sum of its pieces' goal_dist (Ge Wu: the squares
 * its pieces still have to go; the capture puzzle: the pegs left). */
typedef struct dm_jprogress {
    int best[DM_JMAX_PLAYERS];
    int since; /* actions since a seat last reached a new best */
} dm_jprogress;

/* Start counting at p. */
DM_API void dm_jprogress_init(dm_jprogress *pr, const dm_jrules *r, const dm_jpos *p);

/* Count one action that led to p; returns 1 when the game is now ended by the rule
 * (DM_JNO_PROGRESS_ROUNDS rounds of r->players actions without a new best). */
DM_API int dm_jprogress_step(dm_jprogress *pr, const dm_jrules *r, const dm_jpos *p);

/* Read an action's text in p (formats above). The move part is read by
 * dm_jmove_from_text (its errors, columns counted in text); "pass" and "lost" are
 * refused (DM_EILLEGAL) when the side has a legal move; a face where the position
 * already holds a throw, or a move without one, is refused. */
DM_API dm_status dm_jaction_from_text(dm_jaction *a, const dm_jrules *r, const dm_jpos *p,
                                      const char *text, dm_error *err);

/* Write a's text in p (the move part as dm_jmove_to_text). DM_EBUFS. */
DM_API dm_status dm_jaction_to_text(char *buf, size_t size, const dm_jrules *r, const dm_jpos *p,
                                    const dm_jaction *a);

/* Play a (an action read or checked in p): the throw, then the move, pass or loss. */
DM_API void dm_jaction_apply(dm_jpos *p, const dm_jrules *r, const dm_jaction *a);

/* ---- game records: PDN's tag-and-movetext form ---------------------------------
 * A record is tag pairs ([Game "chinese-checkers"], [Players "3"], [Board "16"],
 * [Options "no-foreign-corner"], [FEN "A:..."] for a set-up start, any others kept),
 * then the actions in order (move numbers "N." before each turn of seat A, kept in
 * the items but not checked when read), then the result: one number per seat joined by '-', 1 for the
 * winner ("0-1-0": seat B won), all 0 for a game ended without a winner, '*' for an
 * unfinished game. Comments ({...}, ;...) are skipped; variations are refused. The
 * format is in docs/JUMPING.md. */
typedef struct dm_jrecord_tag {
    char *name;
    char *value;
} dm_jrecord_tag;

typedef struct dm_jrecord_item {
    char *text; /* an action as written */
    int number; /* the move number written before it ("12."), 0 for none */
    int line;   /* where it starts (1-based) */
    int column;
} dm_jrecord_item;

typedef struct dm_jrecord {
    dm_jrecord_tag *tags; /* in file order */
    int ntags;
    dm_jrecord_item *items; /* the movetext's actions */
    int nitems;
    char *result;                   /* the result token, or NULL when the movetext had none */
    int result_line, result_column; /* where the result token stands */
    int number;                     /* 1-based index of the game in its input */
    int line;                       /* line where the game starts */
} dm_jrecord;

/* Reading position over one buffer: a plain value; set text and len, zero the
 * rest (or use dm_jrecord_reader_init). The text must outlive the reader. */
typedef struct dm_jrecord_reader {
    const char *text;
    size_t len;
    size_t pos;
    int line;  /* line of pos, 1-based */
    int col;   /* column of pos, 1-based */
    int count; /* games returned or reported so far */
} dm_jrecord_reader;

DM_API void dm_jrecord_reader_init(dm_jrecord_reader *rd, const char *text, size_t len);

/* Nonzero when the first tag section of text holds a Game tag naming one of the
 * jumping games: the file is read with dm_jrecord_next, not as draughts PDN. */
DM_API int dm_jrecord_sniff(const char *text, size_t len);

/* Read the next game: DM_OK with *out a record (dm_jrecord_free), or DM_OK with
 * *out NULL at the end. A game that cannot be read: DM_EPARSE with err's line and
 * column and a message "game N, line L, column C: expected ..., found ..."; the reader
 * skips to the next tag section after a blank line. DM_ENOMEM. */
DM_API dm_status dm_jrecord_next(dm_jrecord **out, dm_jrecord_reader *rd, dm_error *err);

DM_API void dm_jrecord_free(dm_jrecord *rec);

/* The value of tag name (case-insensitive), or NULL. Borrowed. */
DM_API const char *dm_jrecord_tag_value(const dm_jrecord *rec, const char *name);

/* The rules a record names: Game (required), Players (default 2), Board, Options.
 * Errors: DM_EINVAL saying which tag and why. */
DM_API dm_status dm_jrecord_rules(dm_jrules *r, const dm_jrecord *rec, dm_error *err);

/* The replay of a record's actions. */
typedef struct dm_jreplay {
    dm_status status;    /* DM_OK: every action legal, result consistent */
    dm_error err;        /* otherwise: what (line/column of the bad item) */
    int bad;             /* index of the item refused, or -1 */
    dm_jpos start;       /* the start position (FEN tag or the rules' start) */
    int set_up;          /* 1 when a FEN tag gave the start */
    dm_jpos end;         /* the position after the last action read */
    int winner;          /* dm_jpos_winner of end, or -1 */
    dm_jaction *actions; /* the actions up to the first bad one (malloc'd) */
    int nactions;
    char pos_before[640]; /* position string before the bad action ("" when none) */
} dm_jreplay;

/* Replay rec under r (from dm_jrecord_rules): the FEN tag, each action, the result
 * token against the final position (a result naming a winner the position does not
 * have, or '*' for a won game, is an error at the result). Returns out->status;
 * DM_ENOMEM. out->actions belongs to the caller (dm_jreplay_free). */
DM_API dm_status dm_jreplay_record(dm_jreplay *out, const dm_jrules *r, const dm_jrecord *rec);
DM_API void dm_jreplay_free(dm_jreplay *rep);

/* The result token of a game in p: the winner's form ("1-0", "0-1-0"), all zeros
 * when ended is set without a winner, else "*". */
DM_API void dm_jresult_text(char *buf, size_t size, const dm_jrules *r, const dm_jpos *p,
                            int ended);

/* Build a normalised record: the tags Game, Players, Board (Halma, Ge Wu), Options
 * (when any), FEN (when start is not the rules' start position), then extra[0..nextra)
 * (tags of those names and Result skipped), then Result; each action's text written
 * from its position. result: the result token (NULL: from the final position).
 * *out belongs to the caller. DM_ENOMEM. */
DM_API dm_status dm_jrecord_build(dm_jrecord **out, const dm_jrules *r, const dm_jpos *start,
                                  const dm_jaction *actions, int nactions,
                                  const dm_jrecord_tag *extra, int nextra, const char *result);

/* Write rec as text (tag lines, a blank line, the movetext in lines of at most 79
 * columns, each item after its move number "N." when it has one, the result or '*', a
 * blank line) into a malloc'd NUL-terminated *out of *len bytes. Items are written as
 * they are. DM_ENOMEM. */
DM_API dm_status dm_jrecord_write(char **out, size_t *len, const dm_jrecord *rec);

/* ---- the engine ------------------------------------------------------------------
 * Two players (Chinese checkers, Halma): negamax alpha-beta to a fixed depth in
 * plies, evaluating by distance to goal: the sum of the opponent's pieces' goal_dist
 * minus one's own, in steps. Three or more players: best-reply search (the root
 * seat's moves alternate with the one opponent move, of any opponent, worst for it;
 * alpha-beta), or paranoid alpha-beta on request (every other seat minimises the
 * root's score); the score is the nearest opponent's distance minus its own. Ge Wu: expectimax over the stick's four faces (depth in
 * throws; score for the side to move in hundredths of a square of progress). A won
 * position scores DM_JWIN minus its ply. */
#define DM_JWIN 100000

typedef struct dm_jsearch_result {
    dm_jmove best;  /* the move chosen (from = to = 0 when there is none) */
    int score;      /* for the side to move, in steps (DM_JWIN - ply for a win) */
    uint64_t nodes; /* positions visited */
} dm_jsearch_result;

/* The search for three or more players (dm_jsearch_multi). */
typedef enum dm_jmulti {
    DM_JMULTI_BRS = 0,     /* best-reply search (Schadd and Winands 2011): the default */
    DM_JMULTI_PARANOID = 1 /* paranoid (Sturtevant and Korf 2000) */
} dm_jmulti;

/* Search p to depth plies (1..8; Ge Wu: throws, and p must hold its throw). The
 * move lists are malloc'd and freed before it returns. Errors: DM_EINVAL for a depth
 * out of range or a Ge Wu position without its throw; DM_ENOMEM. */
DM_API dm_status dm_jsearch(const dm_jrules *r, const dm_jpos *p, int depth, dm_jsearch_result *out,
                            dm_error *err);

/* dm_jsearch with the search for three or more players chosen (two players and Ge Wu
 * ignore method). */
DM_API dm_status dm_jsearch_multi(const dm_jrules *r, const dm_jpos *p, int depth, dm_jmulti method,
                                  dm_jsearch_result *out, dm_error *err);

/* The search depth of engine level 1..10 (docs/JUMPING.md): level 1 is the greedy
 * player (0 returned); then level / 2 plies (levels 2-3: 1, ..., 10: 5), at most 3 with
 * three or more players (best-reply: own move, one opponent's, own move), 3 on Halma's
 * 16x16 board, 4 throws in Ge Wu. */
DM_API int dm_jlevel_depth(const dm_jrules *r, int level);

/* The engine's move in p at level 1..10 (dm_jgreedy at level 1, else dm_jsearch at
 * dm_jlevel_depth). Ge Wu: p must hold its throw. Returns 1 with *m set, 0 when p has
 * no legal move (or the search failed: out of memory). */
DM_API int dm_jengine_move(const dm_jrules *r, const dm_jpos *p, int level, dm_jmove *m);

/* The distance evaluation of p for the side to move (see above). */
DM_API int dm_jevaluate(const dm_jrules *r, const dm_jpos *p);

/* The greedy player of the strength tests: the legal move of p that gains the most
 * distance to the mover's goal (goal_dist before minus after; Ge Wu: the squares
 * moved forward, a move off the lane first), the first in generator order among
 * equals. Returns 0 and leaves *m alone when p has no legal move. */
DM_API int dm_jgreedy(const dm_jrules *r, const dm_jpos *p, dm_jmove *m);

/* ---- the last pegs: solitaire distance tables ------------------------------------
 * "Pegs left to bring home": for k pegs of one seat alone on the board (nobody
 * else's pegs; optionally some of its own pegs held still on squares `fixed`, which
 * serve as stones and obstacles but never move), the exact minimum number of moves
 * (a move = a step or a chain of jumps, the rules' own) that brings all k pegs into
 * the seat's target squares not held by fixed pegs. Computed by breadth-first search
 * from the filled-target positions (moves are reversible when every peg is the
 * mover's, so the distance to the goal is the distance from it) over the
 * combinatorial index of k-sets of squares: sorted squares s1 < ... < sk have index
 * C(s1,1) + C(s2,2) + ... + C(sk,k), one byte per index. Sizes: Chinese checkers
 * (121 holes) k = 3: 287 980 bytes, k = 4: 8 495 410; Halma 8x8 k = 4: 635 376.
 * The minimum-move solitaire problem is George I. Bell's (docs/JUMPING.md). */
#define DM_JPEGDB_MAX_PEGS 4
#define DM_JPEGDB_MAX_ENTRIES 67108864u /* 64 Mi entries (bytes) at most */
#define DM_JPEGDB_UNREACHED 255

typedef struct dm_jpegdb {
    dm_jgame game; /* the rules it was built for: game, players, size, options */
    int players, size;
    unsigned options;
    int seat;         /* whose pegs */
    int k;            /* the moving pegs, 1..DM_JPEGDB_MAX_PEGS */
    int squares;      /* of the board */
    dm_jset fixed;    /* own pegs held still */
    dm_jset goal;     /* the target's squares not fixed: the k pegs end there */
    uint32_t entries; /* C(squares, k) */
    uint8_t *dist;    /* moves to the goal per index, DM_JPEGDB_UNREACHED when none
                       (a peg on a fixed square, no way home, or under
                       no-foreign-corner a peg on a point where the seat may not end
                       a move: no position of the game); malloc'd */
    int max;          /* the largest distance found */
    uint32_t binom[DM_JPEGDB_MAX_PEGS + 1][DM_JMAX_SQUARES + 1]; /* C(n, i) */
} dm_jpegdb;

/* Build db for k (1..DM_JPEGDB_MAX_PEGS) pegs of seat under r (Chinese checkers or
 * Halma without the capture option), fixed (NULL: none) held still. db is the
 * caller's (dm_jpegdb_free). Errors: DM_EINVAL (game, seat, k out of range, fewer
 * free target squares than k, more than DM_JPEGDB_MAX_ENTRIES entries), DM_ENOMEM. */
DM_API dm_status dm_jpegdb_build(dm_jpegdb *db, const dm_jrules *r, int seat, int k,
                                 const dm_jset *fixed, dm_error *err);

/* The minimum number of moves for pegs (exactly db->k squares, none fixed) to reach
 * the goal, or -1: another count, a peg on a fixed square, or no way home. */
DM_API int dm_jpegdb_distance(const dm_jpegdb *db, const dm_jset *pegs);

/* Free db's table (db itself is the caller's); a zeroed db is freed safely. */
DM_API void dm_jpegdb_free(dm_jpegdb *db);

/* Two players, Chinese checkers or Halma: nonzero when the armies are disengaged (a
 * race): seen along the axis from seat A's home to its target (the star's rows;
 * Halma's file + rank), every peg of each seat has passed every peg of the other, so
 * as long as neither goes back no peg can jump, block or be jumped by the other's. */
DM_API int dm_jrace(const dm_jrules *r, const dm_jpos *p);

/* The engine's endgame cache: the table of each seat for the pegs outside its
 * target, those inside held still, built on first need and kept while it fits the
 * position (fixed pegs in place, the same count outside). Owned by the caller, one
 * per game or match (no global state): dm_jendgame_init, dm_jendgame_free. */
typedef struct dm_jendgame {
    int max_pegs; /* K: the table is used with at most K pegs outside (0: never) */
    dm_jpegdb db[2];
    int builds; /* tables built so far */
} dm_jendgame;

/* max_pegs 0..DM_JPEGDB_MAX_PEGS (clamped). */
DM_API void dm_jendgame_init(dm_jendgame *eg, int max_pegs);
DM_API void dm_jendgame_free(dm_jendgame *eg);

/* The exact solitaire distance of seat's pegs outside its target in p (its pegs in
 * the target held still), from eg's table (built when needed), or -1: not two players
 * of Chinese checkers or Halma, none or more than eg->max_pegs pegs outside, an
 * opponent's peg in seat's target, no way home, out of memory. */
DM_API int dm_jendgame_distance(dm_jendgame *eg, const dm_jrules *r, const dm_jpos *p, int seat);

/* The database-optimal move of the side to move in p when p is a race (dm_jrace) and
 * dm_jendgame_distance applies: a legal move of p that brings the distance down by
 * one (the one gaining most goal_dist among them, the first in generator order among
 * equals). Returns 1 with *m set, else 0 (the search decides). */
DM_API int dm_jendgame_move(dm_jendgame *eg, const dm_jrules *r, const dm_jpos *p, dm_jmove *m);

/* dm_jengine_move with the endgame table: dm_jendgame_move first when eg is not NULL
 * (any level), else the search. */
DM_API int dm_jengine_move_eg(const dm_jrules *r, const dm_jpos *p, int level, dm_jendgame *eg,
                              dm_jmove *m);

#ifdef __cplusplus
}
#endif
#endif /* DM_JUMP_H */
