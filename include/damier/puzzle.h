/* SPDX-License-Identifier: MIT
 * damier/puzzle.h: tactics puzzles of international draughts: a position in which one
 * move, and only that one, wins material or the game, as the engine (damier/engine.h)
 * finds it with a two-line (multi-PV) search, with the solution line, its themes in
 * the terms of the rules and a rating estimate. The recipe and the measured counts are
 * in docs/PUZZLES.md. Nothing here reads files or prints. */
#ifndef DM_PUZZLE_H
#define DM_PUZZLE_H

#include <stddef.h>

#include <damier/engine.h>
#include <damier/variant.h>
#include <damier/status.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Themes, as bits of dm_puzzle.themes; the names (dm_puzzle_theme_name) are what
 * the [Theme] tag of a puzzle file holds, separated by spaces. */
typedef enum dm_puzzle_theme {
    /* "shot": a combination (FMJD: a shot, "slag"): the first move is a sacrifice, a
     * quiet move after which the opponent must capture, and the line wins back more */
    DM_THEME_SHOT = 1 << 0,
    /* "majority-capture": in the line the majority rule (FMJD 4.13) decides one of
     * the opponent's captures: another of their pieces could take, but fewer pieces */
    DM_THEME_MAJORITY = 1 << 1,
    /* "turkish-strike": in the line a capture stops because a piece it has already
     * jumped stays on the board until the capture ends and may not be jumped twice
     * (FMJD 4.11, the Turkish strike) */
    DM_THEME_TURKISH = 1 << 2,
    /* "breakthrough": a man of the side to move breaks through to promotion in the
     * line (FMJD 3.5) */
    DM_THEME_BREAKTHROUGH = 1 << 3,
    /* "endgame": at most 12 pieces on the board, or a king of either side */
    DM_THEME_ENDGAME = 1 << 4,
    /* "win": a forced win: the opponent is left without a move within the search */
    DM_THEME_WIN = 1 << 5
} dm_puzzle_theme;

#define DM_PUZZLE_THEME_COUNT 6

/* Name of theme bit i (0..DM_PUZZLE_THEME_COUNT-1): "shot", "majority-capture",
 * "turkish-strike", "breakthrough", "endgame", "win"; NULL out of range. */
DM_API const char *dm_puzzle_theme_name(int i);

/* The theme names of the bits set in themes, separated by one space, in bit order
 * ("shot majority-capture"); snprintf-style: at most cap bytes with the NUL, returns
 * the length needed. 80 bytes suffice. */
DM_API size_t dm_puzzle_themes_text(char *buf, size_t cap, unsigned themes);

/* Read a [Theme] value (names separated by spaces or commas, any order) into *out.
 * DM_EPARSE for an unknown name, with err->column where it starts. */
DM_API dm_status dm_puzzle_themes_parse(unsigned *out, const char *text, dm_error *err);

/* What counts as a unique win. Initialise with DM_PUZZLE_OPTIONS_INIT. Scores are
 * hundredths of a man from the side to move's point of view (damier/engine.h);
 * material is counted men 100, kings 300. */
typedef struct dm_puzzle_options {
    int version; /* DM_PUZZLE_OPTIONS_VERSION */
    int depth;   /* nominal search depth (plies), 1..DM_ENGINE_MAX_DEPTH; default 12 */
    int gain;    /* a move "wins" when its score is at least the position's material
                    balance plus gain, or a forced win (|score| >= DM_SCORE_WIN_MIN);
                    default 150 (a man and a half); 1..5000 */
    int margin;  /* and it is the unique win when it scores at least margin more than
                    the second best, and the second best does not win: no forced win
                    when the best is one, else no win of material; default 150;
                    1..20000 */
    int stable;  /* the first move must be the unique win at every depth from
                    depth - stable to depth (so that a search `stable` plies shallower
                    confirms it); default 2; 0..depth-1 */
} dm_puzzle_options;

#define DM_PUZZLE_OPTIONS_VERSION 1
#define DM_PUZZLE_OPTIONS_INIT                                                                     \
    {                                                                                              \
        DM_PUZZLE_OPTIONS_VERSION, 12, 150, 150, 2                                                 \
    }

/* Why a position is, or is not, a puzzle. */
typedef enum dm_puzzle_verdict {
    DM_PUZZLE_FOUND = 0,         /* one move is the unique win */
    DM_PUZZLE_NO_CHOICE = 1,     /* fewer than two legal moves */
    DM_PUZZLE_CAPTURE = 2,       /* the side to move must capture (the position is no
                                 quiet starting point for a combination) */
    DM_PUZZLE_NO_WIN = 3,        /* the best move wins neither the game nor material: its
                                 score is below the threshold */
    DM_PUZZLE_NOT_UNIQUE = 4,    /* a second move wins too, or scores within margin */
    DM_PUZZLE_UNSTABLE = 5,      /* the unique win at the full depth, but not at every depth
                                 of the `stable` plies before it */
    DM_PUZZLE_SHORT_LINE = 6,    /* the unique win by score, but its line does not show
                                 a man won (the opponent to move, no capture pending)
                                 by its end: the gain lies beyond the search */
    DM_PUZZLE_NO_COMBINATION = 7 /* the unique win, but no combination: the line has no
                                    sacrifice, Turkish strike, promotion or forced win,
                                    and takes the solver more than
                                    DM_PUZZLE_QUIET_MOVES moves to win the man */
} dm_puzzle_verdict;

/* The most moves of the solver in a line without a combination theme (a short
 * tactic that wins a man); a longer one is a slow manoeuvre, not a puzzle. */
#define DM_PUZZLE_QUIET_MOVES 3

/* A short English description of a verdict ("not unique", ...); never NULL. */
DM_API const char *dm_puzzle_verdict_str(int verdict);

/* Moves kept in a solution line. */
#define DM_PUZZLE_MAX_LINE 40

/* What dm_puzzle_examine found. */
typedef struct dm_puzzle {
    int verdict;                      /* dm_puzzle_verdict */
    dm_board position;                /* the position examined */
    int line_count;                   /* moves in line (0 unless FOUND) */
    dm_move line[DM_PUZZLE_MAX_LINE]; /* the solution: the winning move, the opponent's
                                        best reply, ..., ending with a move of the side
                                        to move: the first point where the material is
                                        won (a man or more, the opponent to move and no
                                        capture pending) or the game (no reply left) */
    int best_score;                   /* score of the best move at the full depth */
    int second_score;                 /* score of the second best */
    dm_move best;                     /* the best move (also when not FOUND; all zero
                                           when there is none) */
    int material;                     /* material balance of the side to move at the root */
    int gain;                         /* material won by the end of line (hundredths) */
    int unique_from;                  /* the smallest depth from which the best move is
                                        the unique win at every depth up to depth */
    int depth;                        /* the last depth the search completed */
    unsigned themes;                  /* dm_puzzle_theme bits */
    int rating;                       /* estimated difficulty on the Glicko scale
                                        (damier/rating.h), 600..3000: 800 + 150 per move of
                                        the solver in line + 60 per ply of unique_from */
    uint64_t nodes;                   /* nodes searched */
} dm_puzzle;

/* Examine position b (international draughts; converted to the fast 10x10 board
 * inside, the result's position and moves are the generic ones) with engine e (cleared first, so that the result depends only
 * on b and opt: with one thread it is deterministic): a multi-PV search of two lines
 * to opt->depth with no game history; then the verdict, and for FOUND the line, the
 * themes and the rating. opt NULL: DM_PUZZLE_OPTIONS_INIT. DM_EINVAL (err says
 * which) for NULLs, options out of range, a position of another variant or one that
 * does not validate; DM_OK otherwise, whatever the verdict. */
DM_API dm_status dm_puzzle_examine(dm_puzzle *out, dm_engine *e, const dm_board *b,
                                   const dm_puzzle_options *opt, dm_error *err);

/* Material balance of b (any variant) for the side to move: 100 per man, 300 per
 * king, its pieces minus the opponent's; 0 for NULL. */
DM_API int dm_puzzle_material(const dm_board *b);

#ifdef __cplusplus
}
#endif
#endif /* DM_PUZZLE_H */
