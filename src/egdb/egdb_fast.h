/* SPDX-License-Identifier: MIT
 * egdb/egdb_fast.h: the endgame database read on the fast 10x10 board, for the
 * layers that hold one per node (the engine's search, src/CMakeLists.txt: SEES) and
 * for the egdb layer itself (the generator, verification) and its tests. The public
 * dm_egdb_lookup / dm_egdb_probe (damier/egdb.h) take the generic position and call
 * these after one conversion. Not public API. */
#ifndef DM_EGDB_FAST_H
#define DM_EGDB_FAST_H

#include "core/board10.h"
#include <damier/egdb.h>

/* dm_egdb_lookup of the fast board b (same contract). */
dm_egdb_value egdb_lookup10(const dm_egdb *db, const dm_board10 *b, int *dtc);

/* dm_egdb_probe of the fast board b (same contract). */
dm_egdb_value egdb_probe10(const dm_egdb *db, const dm_board10 *b, int *dtc);

#endif /* DM_EGDB_FAST_H */
