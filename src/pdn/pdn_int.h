/* SPDX-License-Identifier: MIT
 * pdn/pdn_int.h: helpers shared by the PDN reader, replayer and writer (not public). */
#ifndef DM_PDN_INT_H
#define DM_PDN_INT_H

#include <stddef.h>

#include <damier/pdn.h>
#include <damier/variant.h>

/* Make room for element n (0-based) of an array of elem-sized items that holds n
 * items: capacity is implicitly the next power of two >= n (at least 4), so it grows
 * only when n is 0 or a power of two. Returns 0 on allocation failure (*arr kept). */
int pdn_grow(void *arr, int n, size_t elem);

/* Copy s[0..n) into a new NUL-terminated string; NULL on allocation failure. */
char *pdn_strndup(const char *s, size_t n);

/* Append s (taken over; freed on failure) to *arr; 0 on failure. */
int pdn_push_str(char ***arr, int *n, char *s);

/* Free a line's contents (not the line struct itself). */
void pdn_line_clear(dm_pdn_line *l);

/* Case-insensitive ASCII comparison of two NUL-terminated strings (0 when equal). */
int pdn_casecmp(const char *a, const char *b);

/* Length of the result token at s (PDN reading grammar: 2-0 0-2 1-1 1-0 0-1 0-0
 * 1/2-1/2 and *), or 0 when s does not start with one followed by a delimiter. */
size_t pdn_result_len(const char *s, size_t avail);

/* The FEN without lidraughts' ":H<n>" / ":F<n>" counters into buf (cap bytes);
 * *fullmove gets the F counter (0 when absent). */
void pdn_strip_counters(char *buf, size_t cap, const char *fen, int *fullmove);

/* A game whose variant is guessed from its squares (no GameType or Variant tag) and
 * that is legal under none of the candidate rules is still taken as the candidate
 * that replays longest when at least this many plies are legal under it and the move
 * that fails starts from a square without a piece of the side to move (a bad record,
 * not a rules difference: Czech games fail under Russian rules on a capture); else it
 * is skipped as another variant. */
#define PDN_GUESS_MIN_PLIES 10

/* The rules g is played under. 1 with *v (and *guessed = 1 when chosen from the
 * squares, the game having no GameType or Variant tag); 0 when g is a variant the
 * library does not play, with why in reason (cap bytes, 256 suffice). */
int pdn_select(const dm_pdn_game *g, const dm_variant **v, int *guessed, char *reason, size_t cap);

/* Start position of g under v (FEN tag, else v's initial position); *number gets the
 * first move number (the FEN's F counter, else 1). */
dm_status pdn_vstart_board(dm_board *out, const dm_variant *v, const dm_pdn_game *g, int *number,
                           dm_error *err);

/* What the replay made of each mainline node, for the writer. */
enum {
    PDN_STEP_NONE = 0,
    PDN_STEP_MOVE = 1,
    PDN_STEP_JOINED = 2
};
typedef struct pdn_vstep {
    dm_move m; /* the move (kind PDN_STEP_MOVE) */
    int kind;  /* PDN_STEP_JOINED: a single-jump token joined to the capture before */
} pdn_vstep;

/* Replay g's mainline under v into out (zeroed by the caller), every variant through
 * the same calls of variant.h; steps: NULL or one pdn_vstep per node, zeroed. Sets
 * out->variant, start, end. Returns out->verdict. */
int pdn_replay_variant(dm_pdn_replay *out, const dm_pdn_game *g, const dm_variant *v,
                       pdn_vstep *steps);

/* Length of the first annotation mark of a stored mark string s ("!?" of "!?+1"; the
 * grammar of reader.c, marks stored without the parentheses of "(-1)"); 0 at its end. */
size_t pdn_mark_atom(const char *s);

/* Accepted irregularities (irregular.c, docs/PDN.md). 1 when a comment directly
 * after nd starts with "accepted irregularity" (ASCII case-insensitive). */
int pdn_irregular_mark(const dm_pdn_node *nd);

/* Apply the move written in text to b as written, whatever the rules: the piece on
 * the first square goes to the last (promoted on the far row), and for a capture
 * (separator x, : or U+00D7) the pieces of the other colour between each two squares
 * of the path, which must be on one diagonal, are removed; the other side is to move.
 * DM_OK; DM_EPARSE when text is no squares; DM_EILLEGAL (b untouched) when the first
 * square is empty, the last is taken, or a step of a capture is not diagonal. */
dm_status pdn_apply_written(dm_board *b, const char *text, dm_error *err);

/* Record an accepted irregularity in out (the first DM_PDN_MAX_IRREGULAR kept, all
 * counted). */
void pdn_irregular_note(dm_pdn_replay *out, const dm_pdn_node *nd, int number, int black,
                        const char *why);

#endif
