/* SPDX-License-Identifier: MIT
 * core/gen8.c: the move generator instantiated for the 8x8 board (35-bit layout):
 * Brazilian (FMJD rules), Russian and English checkers with their rules folded at
 * compile time, any other 8x8 rules through the run-time instantiation. Owns the
 * 8x8 entry points of the generic API (core/gen.h). */
#include "core/move10.h"

#include "core/gen.h"

#define GEN_N 8
#define GEN_PREFIX gen8_
#define GEN_BB uint64_t
#define GEN_RAY(d, b) (dm_ray8[(d)][(b)])
#define GEN_POS dm_board10
#define GEN_MOVE dm_move10
#define GEN_LIST dm_movelist10
#define GEN_MAX_MOVES DM_MAX_MOVES10
#include "core/gen_geom.h"

_Static_assert(GEN_BITS == GEN8_BITS, "8x8 layout: 35 bits");

#define GEN_RS fmjd_
#define GEN_RULES_CONST GEN_RULES_FMJD
#define GEN_RECORD 0
#include "core/gen_impl.h"
#define GEN_RS fmjdr_
#define GEN_RULES_CONST GEN_RULES_FMJD
#define GEN_RECORD 1
#include "core/gen_impl.h"

#define GEN_RS rus_
#define GEN_RULES_CONST GEN_RULES_RUSSIAN
#define GEN_RECORD 0
#include "core/gen_impl.h"
#define GEN_RS rusr_
#define GEN_RULES_CONST GEN_RULES_RUSSIAN
#define GEN_RECORD 1
#include "core/gen_impl.h"

#define GEN_RS eng_
#define GEN_RULES_CONST GEN_RULES_ENGLISH
#define GEN_RECORD 0
#include "core/gen_impl.h"
#define GEN_RS engr_
#define GEN_RULES_CONST GEN_RULES_ENGLISH
#define GEN_RECORD 1
#include "core/gen_impl.h"

#define GEN_RS dyn_
#define GEN_RECORD 0
#include "core/gen_impl.h"
#define GEN_RS dynr_
#define GEN_RECORD 1
#include "core/gen_impl.h"

int dm_gen8_vlegal(dm_movelist *list, uint8_t (*paths)[DM_MAX_CAPT], const dm_board *b, gen_rules r,
                   int all_captures)
{
    dm_board10 pos;
    gen8_from_vboard(&pos, b);
    if (!all_captures) {
        if (gen_rules_eq(r, GEN_RULES_FMJD)) {
            return gen8_fmjdr_legal_x(list, &pos, GEN_RULES_FMJD, 0, paths);
        }
        if (gen_rules_eq(r, GEN_RULES_RUSSIAN)) {
            return gen8_rusr_legal_x(list, &pos, GEN_RULES_RUSSIAN, 0, paths);
        }
        if (gen_rules_eq(r, GEN_RULES_ENGLISH)) {
            return gen8_engr_legal_x(list, &pos, GEN_RULES_ENGLISH, 0, paths);
        }
    }
    return gen8_dynr_legal_x(list, &pos, r, all_captures, paths);
}

uint64_t dm_gen8_vperft(const dm_board *b, int depth, gen_rules r)
{
    dm_board10 pos;
    gen8_from_vboard(&pos, b);
    if (gen_rules_eq(r, GEN_RULES_FMJD)) {
        return gen8_fmjd_perft(&pos, depth, &r);
    }
    if (gen_rules_eq(r, GEN_RULES_RUSSIAN)) {
        return gen8_rus_perft(&pos, depth, &r);
    }
    if (gen_rules_eq(r, GEN_RULES_ENGLISH)) {
        return gen8_eng_perft(&pos, depth, &r);
    }
    return gen8_dyn_perft(&pos, depth, &r);
}

int dm_gen8_legal_fmjd(dm_movelist10 *list, const dm_board10 *pos)
{
    return gen8_fmjd_legal(list, pos, GEN_RULES_FMJD);
}

int dm_gen8_legal_rus(dm_movelist10 *list, const dm_board10 *pos)
{
    return gen8_rus_legal(list, pos, GEN_RULES_RUSSIAN);
}

int dm_gen8_legal_eng(dm_movelist10 *list, const dm_board10 *pos)
{
    return gen8_eng_legal(list, pos, GEN_RULES_ENGLISH);
}

int dm_gen8_capture_fmjd(const dm_board10 *pos)
{
    return gen8_fmjd_has_capture(pos, GEN_RULES_FMJD);
}

int dm_gen8_capture_rus(const dm_board10 *pos)
{
    return gen8_rus_has_capture(pos, GEN_RULES_RUSSIAN);
}

int dm_gen8_capture_eng(const dm_board10 *pos)
{
    return gen8_eng_has_capture(pos, GEN_RULES_ENGLISH);
}

void dm_gen8_fast_of(dm_board10 *out, const dm_board *b)
{
    gen8_from_vboard(out, b);
    out->hash = 0;
}
