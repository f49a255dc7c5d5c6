/* SPDX-License-Identifier: MIT
 * engine/vsearch8.c: the variant engine's search (vsearch_impl.h) on the 8x8
 * bitboard generator (Brazilian, Russian, English). Owns dm_vsearch8_run (vsearch_int.h). */
#include <damier/move.h>
#include <damier/variant.h>

#include "core/gen.h"

#include "engine/vsearch_int.h"

#define GEN_N 8
#define GEN_PREFIX gen8_
#define GEN_BB uint64_t
#define GEN_RAY(d, b) (dm_ray8[(d)][(b)])
#define GEN_POS dm_board
#define GEN_MOVE dm_move
#define GEN_LIST dm_movelist
#define GEN_MAX_MOVES DM_MAX_MOVES
#include "core/gen_geom.h"

/* The run-time-rules generator (its perft and counting are not used here). */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#define GEN_RS dyn_
#define GEN_RECORD 0
#include "core/gen_impl.h"
#pragma GCC diagnostic pop

#include "engine/vsearch_impl.h"
