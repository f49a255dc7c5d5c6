/* SPDX-License-Identifier: MIT
 * core/vmovegen.c: the generic move API of damier/variant.h on the one bitboard
 * generator: dm_vmovegen_legal and dm_vperft read the variant's rules once
 * (gen_rules_of), convert the mailbox dm_vboard to the bitboards of its board size
 * and call the instantiation for that size (gen8.c, gen10.c, gen12.c); dm_vperft
 * converts once and then runs natively on bitboards. The independent mailbox
 * generator this replaced is kept as the slow reference of the tests
 * (tests/reference/ref_vmovegen.c). */
#include <damier/variant.h>

#include "core/gen.h"
#include "core/variant_int.h"

/* Legal moves (all_captures 0) or every capture ignoring the majority rule. */
static int vlegal(dm_vmovelist *list, const dm_vboard *b, int all_captures)
{
    const dm_variant *v = b->variant;
    gen_rules r = gen_rules_of(v);
    switch (v->size) {
        case 8:
            return dm_gen8_vlegal(list, b, r, all_captures);
        case 10:
            return dm_gen10_vlegal(list, b, r, all_captures);
        case 12:
            return dm_gen12_vlegal(list, b, r, all_captures);
        default:
            list->count = 0;
            list->overflow = 0;
            return 0;
    }
}

int dm_vmovegen_legal(dm_vmovelist *list, const dm_vboard *b)
{
    return vlegal(list, b, 0);
}

int vgen_all_captures(dm_vmovelist *list, const dm_vboard *b)
{
    return vlegal(list, b, 1);
}

int dm_vmove_captures(const dm_vmove *m, int sq)
{
    if (sq < 1 || sq > DM_VMAX_SQUARES) {
        return 0;
    }
    return vg_capt_has(m, sq);
}

/* Mailbox update: cheaper than a round trip through bitboards for one move. */
void dm_vboard_apply(dm_vboard *b, const dm_vmove *m)
{
    int p = b->sq[m->from];
    b->sq[m->from] = DM_EMPTY;
    for (int w = 0; w < 2; w++) {
        for (uint64_t bits = m->capt[w]; bits; bits &= bits - 1) {
            b->sq[w * 64 + __builtin_ctzll(bits) + 1] = DM_EMPTY;
        }
    }
    if (m->promote) {
        p = p == DM_WHITE_MAN ? DM_WHITE_KING : DM_BLACK_KING;
    }
    b->sq[m->to] = (uint8_t)p;
    b->side = !b->side;
}

uint64_t dm_vperft(const dm_vboard *b, int depth)
{
    if (depth <= 0) {
        return 1;
    }
    const dm_variant *v = b->variant;
    gen_rules r = gen_rules_of(v);
    switch (v->size) {
        case 8:
            return dm_gen8_vperft(b, depth, r);
        case 10:
            return dm_gen10_vperft(b, depth, r);
        case 12:
            return dm_gen12_vperft(b, depth, r);
        default:
            return 0;
    }
}
