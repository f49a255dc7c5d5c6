/* SPDX-License-Identifier: MIT
 * pdn/pdn_int.h: helpers shared by the PDN reader, replayer and writer (not public). */
#ifndef DM_PDN_INT_H
#define DM_PDN_INT_H

#include <stddef.h>

#include <damier/pdn.h>

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

/* The start-position FEN of an international game as dm_board, for replay and the
 * writer: DM_OK with the initial position when g has no FEN tag. */
dm_status pdn_start_board(dm_board *out, const dm_pdn_game *g, dm_error *err);

/* Is g international draughts (replayable)? 1 yes, 0 no with why in reason
 * (cap bytes). */
int pdn_is_international(const dm_pdn_game *g, char *reason, size_t cap);

/* Replay g's mainline as international draughts (no variant check) into out (which
 * the caller zeroed); moves (NULL or g->main.nnodes entries) gets each node's move.
 * Returns out->verdict. */
int pdn_replay_run(dm_pdn_replay *out, const dm_pdn_game *g, dm_move *moves);

#endif
