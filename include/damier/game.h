/* SPDX-License-Identifier: MIT
 * damier/game.h: a game of any draughts variant: start position, moves, undo/redo,
 * and the result with its reason, for every variant alike on the generic positions
 * and moves of damier/variant.h: the end by dm_variant_result (FMJD 7.2 for
 * international draughts), the draws by dm_variant_draw_judge with the game's draw
 * set (FMJD 6 for international: DR_FMJD, dm_variant_draw_rules "fmjd"). An engine
 * applies the same rules in its search from the game's counters
 * (dm_search_input_from_game). */
#ifndef DM_GAME_H
#define DM_GAME_H

#include <stddef.h>
#include <stdint.h>

#include <damier/status.h>
#include <damier/variant.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- results ------------------------------------------------------------------ */

/* Outcome of a game (not dm_result: that is the engine's search result).
 * Values are appended, never renumbered. */
typedef enum dm_outcome {
    DM_OUTCOME_ONGOING = 0,
    DM_OUTCOME_WHITE_WINS = 1,
    DM_OUTCOME_BLACK_WINS = 2,
    DM_OUTCOME_DRAW = 3
} dm_outcome;

/* Why the game ended. DM_REASON_NONE goes with DM_OUTCOME_ONGOING only. */
typedef enum dm_reason {
    DM_REASON_NONE = 0,
    DM_REASON_NO_PIECES = 1,   /* FMJD 7.2: the side to move has no pieces left (loses) */
    DM_REASON_BLOCKED = 2,     /* FMJD 7.2: the side to move has no legal move (loses) */
    DM_REASON_RESIGNATION = 3, /* a player resigned (loses) */
    DM_REASON_AGREEMENT = 4,   /* draw by agreement (FMJD 7.3) */
    DM_REASON_REPETITION = 5,  /* FMJD 6: the same position, same side to move, 3rd time */
    DM_REASON_25_MOVES = 6,    /* FMJD 6: 25 moves of each side, only kings, no capture */
    DM_REASON_16_MOVES = 7,    /* FMJD 6: 3 pieces incl. a king vs a lone king, 16 moves each */
    DM_REASON_5_MOVES = 8,     /* FMJD 6: <= 2 pieces incl. a king vs a lone king, 5 each */
    DM_REASON_TIME = 9,        /* FMJD 9: flag fall (the player out of time loses) */
    DM_REASON_FORFEIT = 10,    /* refusal to play by the rules, e.g. an engine's illegal move */
    /* The variants' draw rules and ends (dm_game_reason_text says which rule): */
    DM_REASON_NO_PROGRESS = 11, /* moves without a man move or capture (English 40, pool 15) */
    DM_REASON_NO_CAPTURE = 12,  /* moves without a capture (Russian source material: 30) */
    DM_REASON_MATERIAL = 13,    /* a material rule against a lone king (Russian three kings
                                   18 moves, Frisian two kings 7, king against king) */
    DM_REASON_PROMOTION = 14,   /* breakthrough: the first side to crown a king wins */
    DM_REASON_NO_WIN = 15,      /* FMJD 7.3: a draw because neither side can win, declared
                                   (dm_game_declare_no_win: an arbiter, or an endgame
                                   database's draw value: docs/RULES.md) */
    DM_REASON_ARBITER = 16      /* a win, draw or loss by the arbiter's decision (FMJD
                                   arbiters' decisions; dm_game_declare_arbiter) */
} dm_reason;

/* The result in PDN, FMJD points scale of GameType 20: "2-0", "0-2", "1-1", "*". */
DM_API const char *dm_outcome_str(dm_outcome r);

/* A short English phrase for a reason: "no pieces left", "no legal move",
 * "resignation", "draw by agreement", "threefold repetition", "25-move rule",
 * "16-move rule", "5-move rule", "loss on time", "forfeit", "no progress rule",
 * "no capture rule", "material rule", "first king (breakthrough)", "neither side can
 * win", "arbiter's decision", "" for NONE. */
DM_API const char *dm_reason_str(dm_reason r);

/* ---- draw-rule settings ------------------------------------------------------- */

/* Game options, and FMJD's draw thresholds as a compatibility view of the game's draw
 * set (dm_draw_rules: dm_game_set_draw_rules, dm_game_draw_rules, which serve every
 * variant and are the one source of the thresholds). In an international game
 * dm_game_set_rules maps the thresholds onto its draw set (repetitions ->
 * repetition, kings_only_moves -> kings_only_moves, endgame16_moves ->
 * three_vs_king_moves, endgame5_moves -> two_vs_king_moves, promotion_restarts ->
 * !promotion_continues) and dm_game_rules_of shows them back; in a game of another
 * variant only play_after_end applies (its thresholds are its own draw set's).
 * FMJD values by default (DM_GAME_RULES_INIT); a value of 0 switches the rule off.
 * Moves are counted per player, so N moves = 2N plies. */
typedef struct dm_game_rules {
    int version;            /* DM_GAME_RULES_VERSION */
    int repetitions;        /* 3: drawn when a position occurs for the 3rd time
                               (1 is refused: every position would be drawn) */
    int kings_only_moves;   /* 25: drawn after 25 moves of EACH side with only king moves
                               and no capture, i.e. 50 successive such plies */
    int endgame16_moves;    /* 16: further moves of each side in a 16-move configuration */
    int endgame5_moves;     /* 5: further moves of each side in a 5-move configuration */
    int promotion_restarts; /* 1: a promotion that changes the material configuration
                               restarts the 16/5-move count (core/drawrule.h);
                               0: only a change of rule (16 <-> 5, or none -> 16/5) does */
    int play_after_end;     /* 0: dm_game_play refuses moves once the result is decided;
                               1: moves are accepted after a draw-rule result (analysis,
                               replaying records where the players played on); the result
                               is then that of the current position */
} dm_game_rules;

#define DM_GAME_RULES_VERSION 1
#define DM_GAME_RULES_INIT                                                                         \
    {                                                                                              \
        DM_GAME_RULES_VERSION, 3, 25, 16, 5, 1, 0                                                  \
    }

/* ---- the game object ---------------------------------------------------------- */

/* A game: the start position, the moves played, the moves undone (redo list), the
 * positions before each ply with their draw counters, and a declared result
 * (resignation, agreement, time, forfeit). Opaque; not thread-safe. */
typedef struct dm_game dm_game;

/* Create a game of start->variant from start (copied), or of international draughts
 * from its initial position (FMJD 2.8) when start is NULL; for another variant's initial
 * position pass dm_board_start's board. start must pass dm_board_validate: DM_EINVAL
 * otherwise. Every variant is played by its own rules, international by FMJD's: legal
 * moves dm_movegen_legal, the end dm_variant_result (no legal move or no piece: a loss,
 * in antidraughts a win; breakthrough: the first king wins), draws
 * dm_variant_draw_judge with the variant's draw set v->draw (dm_game_set_draw_rules
 * changes it). Every function of this header serves every game. *out belongs to the
 * caller: release it with dm_game_free. DM_ENOMEM possible. */
DM_API dm_status dm_game_new(dm_game **out, const dm_board *start);

/* The game's variant (international for dm_game_new); borrowed, static. */
DM_API const dm_variant *dm_game_variant(const dm_game *game);

/* The draw rules of the game (copied; initially the variant's own set, v->draw; e.g.
 * dm_variant_draw_rules(..., "russian-pydraughts")); the counters of the moves already
 * played are recomputed. In an international game dm_game_rules_of then shows the
 * set's FMJD thresholds. DM_EINVAL for NULL. */
DM_API dm_status dm_game_set_draw_rules(dm_game *game, const dm_draw_rules *rules);

/* The game's draw rules (borrowed; valid until the game changes or is freed). */
DM_API const dm_draw_rules *dm_game_draw_rules(const dm_game *game);

/* The position BEFORE ply i (0 <= i <= dm_game_length, redo positions included; the
 * start at 0, i = dm_game_ply the current one) and the move of ply i (0 <= i <
 * dm_game_length, redo moves included); NULL out of range. dm_game_position is the
 * current position. Borrowed pointers stay valid until the game changes. */
DM_API const dm_board *dm_game_position(const dm_game *game);
DM_API const dm_board *dm_game_position_at(const dm_game *game, int i);
DM_API const dm_move *dm_game_move_at(const dm_game *game, int i);

/* The counters of the game's draw rules at its current position (dm_variant_draw_count
 * over its positions and moves with its draw set; an international game with the FMJD
 * set), what an engine's search wants (dm_search_input.draw_count). */
DM_API void dm_game_draw_count(dm_draw_count *out, const dm_game *game);

/* The result's reason as text for people, with the rule's numbers: "30 moves without
 * capture", "7-move rule (two kings against a lone king)", "threefold repetition",
 * "resignation", ...; "" while the game goes on. snprintf-style. */
DM_API size_t dm_game_reason_text(char *buf, size_t cap, const dm_game *game);

/* Release a game; NULL is accepted. */
DM_API void dm_game_free(dm_game *game);

/* Replace the options and, in an international game, the draw thresholds (the
 * compatibility mapping of dm_game_rules onto the draw set; counters are recomputed from
 * the history, so a changed promotion_restarts applies to the moves already played).
 * DM_EINVAL for a bad version, a negative threshold or repetitions == 1. */
DM_API dm_status dm_game_set_rules(dm_game *game, const dm_game_rules *rules);
DM_API const dm_game_rules *dm_game_rules_of(const dm_game *game);

/* Play m, a legal move of the current position (compared by from, to and captured
 * squares with dm_movegen_legal's list; the stored move is the list's, with its path).
 * The redo list is cleared. DM_EINVAL: NULL; DM_EILLEGAL: not legal (or, under
 * touch-move, not the touched piece); DM_ESTATE: the result is already decided (see
 * play_after_end); DM_ENOMEM. On error nothing changes. */
DM_API dm_status dm_game_play(dm_game *game, const dm_move *m);

/* Parse text with dm_move_parse in the current position and play it. DM_EPARSE / DM_EILLEGAL / DM_EAMBIGUOUS as the parser
 * (err says why and where), DM_ESTATE when the game is over. On error nothing
 * changes. */
DM_API dm_status dm_game_play_text(dm_game *game, const char *text, dm_error *err);

/* Take back the last move (it goes to the redo list) / replay the next move of the redo
 * list. DM_ESTATE when there is nothing to undo / redo. A declared result belongs to
 * the ply where it was declared: undo leaves it behind, redo back to that ply
 * restores it. */
DM_API dm_status dm_game_undo(dm_game *game);
DM_API dm_status dm_game_redo(dm_game *game);

/* Plies played (index of the current position; 0 at the start). */
DM_API int dm_game_ply(const dm_game *game);
/* Plies stored: played plus redoable (dm_game_ply + number of redo moves). */
DM_API int dm_game_length(const dm_game *game);

/* The hash of the position BEFORE ply i (0 <= i <= dm_game_length): dm_board_hash of
 * dm_game_position_at (an international position: its Zobrist hash, as the engine's
 * search keys it); 0 when i is out of range. */
DM_API uint64_t dm_game_hash_at(const dm_game *game, int i);

/* Occurrences of the current position (same pieces, same side to move) in the game so
 * far, this one included: 1 the first time; the repetition rule draws at the draw
 * set's repetition. */
DM_API int dm_game_repetitions(const dm_game *game);

/* Hashes of the earlier positions that a repetition of the current one can match:
 * those since the last man move or capture, oldest first, the current position
 * excluded (what dm_search_input.history wants). Writes at most cap hashes into out
 * (the most recent ones when cap is smaller) and returns how many there are in all. */
DM_API int dm_game_history_hashes(uint64_t *out, int cap, const dm_game *game);

/* Text of the move of ply i in the given notation (dm_move_to_text in the position
 * before it, with the variant's own squares).
 * snprintf-style: returns the length needed, 0 when i is out of range. */
DM_API size_t dm_game_move_text(char *buf, size_t cap, const dm_game *game, int i,
                                dm_notation style);

/* The result of the current position: a declared result at this ply if any, else the
 * variant's end (dm_variant_result: no pieces or no legal move, breakthrough's first
 * king; FMJD 7.2: a loss takes precedence over a draw rule reached by the same move),
 * then its draw rules (dm_variant_draw_judge: repetition, the material rules, no
 * progress, no capture). An international game names FMJD 6's rules
 * (DM_REASON_25_MOVES, _16_MOVES, _5_MOVES), another variant the kind
 * (DM_REASON_NO_PROGRESS, _NO_CAPTURE, _MATERIAL). *reason (if not NULL) gets why. */
DM_API dm_outcome dm_game_result(const dm_game *game, dm_reason *reason);

/* True when the result is not DM_OUTCOME_ONGOING. */
DM_API int dm_game_over(const dm_game *game);

/* Declare a result at the current ply (clears the redo list):
 * - resign: `who` resigns, the other side wins;
 * - agree_draw: draw by agreement;
 * - flag: `who` ran out of time and loses (called by the front end when
 *   dm_clock_flagged reports it);
 * - forfeit: `who` loses by refusing to play by the rules (e.g. an illegal move).
 * DM_ESTATE when the result is already decided; DM_EINVAL for a bad colour. */
DM_API dm_status dm_game_resign(dm_game *game, dm_color who);
DM_API dm_status dm_game_agree_draw(dm_game *game);
DM_API dm_status dm_game_flag(dm_game *game, dm_color who);
DM_API dm_status dm_game_forfeit(dm_game *game, dm_color who);

/* A draw because neither side can win (FMJD 7.3; the source material's "谁也无法战胜
 * 对方"), declared at the current position with DM_REASON_NO_WIN. The game layer does
 * not decide it: no material is drawn in every position (a king against a king wins
 * for the side to move in 16 of the 2 042 positions without a capture), so the caller
 * declares it for a position its proof covers: an arbiter's decision, or a draw value
 * of the endgame database (`damier play --egdb`; docs/RULES.md). Undo removes it.
 * DM_ESTATE when the result is already decided; DM_EINVAL for NULL. */
DM_API dm_status dm_game_declare_no_win(dm_game *game);

/* A result decided by the arbiter (a win, a draw or a loss by decision: e.g. a player
 * who does not turn up, misconduct, a game the arbiter ends), declared at the current
 * position with DM_REASON_ARBITER; the PDN Termination "arbiter's decision" reads it
 * back. Undo removes it. DM_EINVAL for NULL or an outcome that is not a result
 * (DM_OUTCOME_ONGOING), DM_ESTATE when the result is already decided. */
DM_API dm_status dm_game_declare_arbiter(dm_game *game, dm_outcome outcome);

/* Remove a declared result (e.g. a resignation at the start position, which undo
 * cannot reach). DM_ESTATE when there is none at the current ply. */
DM_API dm_status dm_game_clear_result(dm_game *game);

/* ---- touch-move (the rules, section 3: a player who touches one of his pieces that
 * can move must move it; one who first announces "I adjust" may touch without
 * committing; `../shared/docs/sources/000_*`, moves, items 11 and 13). An option of
 * the game, off by default (on for official events); every variant alike. ---- */

/* Turn the rule on (1) or off (0); turning it off forgets a touch. */
DM_API void dm_game_set_touch_move(dm_game *game, int on);
DM_API int dm_game_touch_move(const dm_game *game);

/* The side to move touches its piece on square sq (the variant's numbering). With the
 * rule on and no announcement, a piece that has a legal move is then the one to play:
 * dm_game_play refuses a move of any other piece (DM_EILLEGAL)
 * until a move is played or taken back. A piece with no legal move commits nothing
 * (*committed 0). After dm_game_adjust the touch commits nothing either, and the
 * announcement is used up. *committed (may be NULL): 1 when the piece must now be
 * played. Errors (err says which): DM_ESTATE when the game is over; DM_EINVAL when sq
 * holds no piece of the side to move; DM_EILLEGAL when another piece was touched
 * first and must be played. With the rule off the call only checks sq. */
DM_API dm_status dm_game_touch(dm_game *game, int sq, int *committed, dm_error *err);

/* Announce "I adjust" before touching: the next dm_game_touch commits nothing.
 * DM_ESTATE when a piece is already committed (the announcement comes first). */
DM_API dm_status dm_game_adjust(dm_game *game, dm_error *err);

/* The square of the piece that must be played, or 0. */
DM_API int dm_game_touched(const dm_game *game);

#ifdef __cplusplus
}
#endif
#endif /* DM_GAME_H */
