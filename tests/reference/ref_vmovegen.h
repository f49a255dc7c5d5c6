/* SPDX-License-Identifier: MIT
 * tests/reference/ref_vmovegen.h: the slow reference move generator of the tests
 * (ref_vmovegen.c, the former mailbox core), same contracts as dm_movegen_legal,
 * dm_board_apply and dm_perft of damier/variant.h. */
#ifndef DM_TESTS_REF_VMOVEGEN_H
#define DM_TESTS_REF_VMOVEGEN_H

#include <damier/variant.h>

/* Every legal move of b, in the mailbox generator's order, first path kept; the
 * reference's own PDN 3.0 path of moves[i] (ncapt - 1 squares) in paths[i] when
 * paths is not NULL, what dm_move_path must give. */
int ref_vmovegen_legal(dm_movelist *list, uint8_t (*paths)[DM_MAX_CAPT], const dm_board *b);
/* Play m on b (mailbox). */
void ref_vboard_apply(dm_board *b, const dm_move *m);
/* Leaf count of the legal move tree (perft(0) = 1), by the reference generator. */
uint64_t ref_vperft(const dm_board *b, int depth);

#endif
