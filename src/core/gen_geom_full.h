/* SPDX-License-Identifier: MIT
 * core/gen_geom_full.h: the full 8x8 board (Turkish, dm_variant.geometry
 * DM_GEOM_FULL) as a geometry of the one search (engine/search_impl.h): the same
 * names as core/gen_geom.h gives the diagonal boards (bit primitives, make/unmake,
 * the mailbox conversion, the search's geometry hooks GEN_SQUARES, row_mask, sq_rc,
 * has_quiet_move) and, under the instantiation's rules suffix, the generator entry
 * points the search calls (legal, has_capture), which are core/genfull.c's. One bit
 * per square, bit = square - 1 (bit 0 = a8); White moves towards bit 0.
 *
 * The includer defines GEN_N 8, GEN_PREFIX, GEN_BB uint64_t, GEN_RS (the suffix the
 * search's SI_RS names too; undefined at the end, as gen_impl.h does), GEN_POS
 * dm_board10, GEN_MOVE dm_move10, GEN_LIST dm_movelist10. */
#ifndef GEN_N
#error "define GEN_N and the other geometry macros before including gen_geom_full.h"
#endif

#include <stdint.h>

#include "core/gen.h"

#define GEN_CAT_(a, b) a##b
#define GEN_CAT(a, b) GEN_CAT_(a, b)
#define P(x) GEN_CAT(GEN_PREFIX, x)
#define GEN_ALWAYS static inline __attribute__((always_inline))

_Static_assert(GEN_N == 8 && sizeof(GEN_BB) == 8, "the full board is 8x8 (64 bits)");

#define GEN_SQUARES 64
#define GEN_ONE ((GEN_BB)1)
#define GEN_ALL (~(GEN_BB)0)
#define GEN_ROW_W ((GEN_BB)0xFF)                        /* White crowns on rank 8 */
#define GEN_ROW_B ((GEN_BB)0xFF << 56)                  /* Black on rank 1 */
#define GEN_FULL_FILE_A ((GEN_BB)0x0101010101010101ull) /* file a */
#define GEN_FULL_FILE_H ((GEN_BB)0x8080808080808080ull) /* file h */

GEN_ALWAYS GEN_BB P(bit)(int i)
{
    return GEN_ONE << i;
}

GEN_ALWAYS int P(count)(GEN_BB b)
{
    return __builtin_popcountll(b);
}

GEN_ALWAYS int P(pop)(GEN_BB *b)
{
    int i = __builtin_ctzll(*b);
    *b &= *b - 1;
    return i;
}

GEN_ALWAYS int P(sq_to_bit)(int sq)
{
    return sq - 1;
}

GEN_ALWAYS int P(bit_to_sq)(int bit)
{
    return bit + 1;
}

GEN_ALWAYS void P(make)(GEN_POS *pos, const GEN_MOVE *m)
{
    int c = pos->side;
    pos->pieces[c] ^= m->own;
    pos->pieces[c ^ 1] ^= m->capt;
    pos->kings ^= m->kings;
    pos->side = c ^ 1;
}

GEN_ALWAYS void P(unmake)(GEN_POS *pos, const GEN_MOVE *m)
{
    int c = pos->side ^ 1;
    pos->side = c;
    pos->pieces[c] ^= m->own;
    pos->pieces[c ^ 1] ^= m->capt;
    pos->kings ^= m->kings;
}

GEN_ALWAYS void P(from_vboard)(GEN_POS *pos, const dm_board *b)
{
    GEN_BB p[5] = {0, 0, 0, 0, 0};
    for (int sq = 1; sq <= GEN_SQUARES; sq++) {
        p[b->sq[sq] < 5 ? b->sq[sq] : 0] |= P(bit)(sq - 1);
    }
    pos->pieces[DM_WHITE] = p[DM_WHITE_MAN] | p[DM_WHITE_KING];
    pos->pieces[DM_BLACK] = p[DM_BLACK_MAN] | p[DM_BLACK_KING];
    pos->kings = p[DM_WHITE_KING] | p[DM_BLACK_KING];
    pos->side = b->side;
}

/* ---- the search's geometry hooks (as gen_geom.h) ---------------------------- */

GEN_ALWAYS GEN_BB P(row_mask)(int r)
{
    return (GEN_BB)0xFF << (8 * r);
}

GEN_ALWAYS void P(sq_rc)(int sq, int *r, int *c)
{
    *r = (sq - 1) / 8;
    *c = (sq - 1) % 8;
}

/* Men step forward or sideways, kings any way: some neighbour square is empty. */
GEN_ALWAYS int P(has_quiet_move)(const GEN_POS *b)
{
    int c = b->side;
    GEN_BB own = b->pieces[c], empty = ~(b->pieces[0] | b->pieces[1]);
    GEN_BB men = own & ~b->kings, kings = own & b->kings;
    GEN_BB side = (((empty & ~GEN_FULL_FILE_H) << 1) | ((empty & ~GEN_FULL_FILE_A) >> 1));
    GEN_BB fwd = c == DM_WHITE ? empty << 8 : empty >> 8; /* squares behind an empty one */
    if (men & (side | fwd)) {
        return 1;
    }
    return (kings & (side | (empty << 8) | (empty >> 8))) != 0;
}

/* ---- the generator (core/genfull.c) under the rules suffix ------------------- */

GEN_ALWAYS int GEN_CAT(GEN_CAT(GEN_PREFIX, GEN_RS), legal)(GEN_LIST *list, const GEN_POS *pos,
                                                           const gen_rules r)
{
    return dm_genfull_legal(list, pos, r);
}

GEN_ALWAYS int GEN_CAT(GEN_CAT(GEN_PREFIX, GEN_RS), has_capture)(const GEN_POS *pos,
                                                                 const gen_rules r)
{
    (void)r;
    return dm_genfull_has_capture(pos);
}

#undef GEN_RS
