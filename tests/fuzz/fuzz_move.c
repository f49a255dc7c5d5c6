/* SPDX-License-Identifier: MIT
 * tests/fuzz/fuzz_move.c: move text against a position of every variant. Byte 0 picks
 * the variant, byte 1 how many plies (0..127) of a seeded random game lead to the
 * position, byte 2 the seed; the rest is the move text. Properties: the parser never
 * crashes and says why it refuses; an accepted move, written in every notation
 * (short PDN, full path, Hub; numeric and algebraic squares for the generic board),
 * reads back as exactly that move. */
#include "core/move10.h"
#include <damier/variant.h>

#include "fuzz.h"

static uint32_t next_random(uint32_t *s)
{
    *s = *s * 1103515245u + 12345u;
    return *s >> 8;
}

static int vmove_same(const dm_move *a, const dm_move *b)
{
    return a->from == b->from && a->to == b->to && a->ncapt == b->ncapt &&
           a->promote == b->promote && a->capt[0] == b->capt[0] && a->capt[1] == b->capt[1];
}

static void check_international(int plies, uint32_t seed, const char *text)
{
    dm_board10 b;
    dm_board10_start(&b);
    dm_movelist10 list;
    for (int i = 0; i < plies && dm_movegen10_legal(&list, &b) > 0; i++) {
        dm_board10_apply(&b, &list.moves[next_random(&seed) % (uint32_t)list.count]);
    }
    dm_move10 m, back;
    dm_error err;
    if (dm_move10_parse(&m, &b, text, &err) != DM_OK) {
        if (!err.message[0]) {
            fuzz_fail("move refused without a reason");
        }
        return;
    }
    static const dm_notation styles[] = {DM_NOTATION_PDN, DM_NOTATION_FULL, DM_NOTATION_HUB};
    for (size_t k = 0; k < sizeof styles / sizeof styles[0]; k++) {
        char out[200];
        dm_move10_to_text(out, sizeof out, &b, &m, styles[k]);
        if (dm_move10_parse(&back, &b, out, &err) != DM_OK || !dm_move10_equal(&m, &back)) {
            fuzz_fail("'%s' accepted, written as '%s' (style %d), which does not read back "
                      "as the same move",
                      text, out, (int)styles[k]);
        }
    }
}

static void check_variant(const dm_variant *v, int plies, uint32_t seed, const char *text)
{
    dm_board b;
    dm_board_start(&b, v);
    static dm_movelist list; /* large: not on the stack (harness-only state) */
    for (int i = 0; i < plies && dm_movegen_legal(&list, &b) > 0; i++) {
        dm_board_apply(&b, &list.moves[next_random(&seed) % (uint32_t)list.count]);
    }
    dm_move m, back;
    dm_error err;
    if (dm_move_parse(&m, &b, text, &err) != DM_OK) {
        if (!err.message[0]) {
            fuzz_fail("%s: move refused without a reason", v->name);
        }
        return;
    }
    static const dm_notation styles[] = {DM_NOTATION_PDN, DM_NOTATION_FULL, DM_NOTATION_HUB};
    static const dm_square_style squares[] = {DM_SQUARES_DEFAULT, DM_SQUARES_NUMERIC,
                                              DM_SQUARES_ALGEBRAIC};
    for (size_t k = 0; k < sizeof styles / sizeof styles[0]; k++) {
        for (size_t q = 0; q < sizeof squares / sizeof squares[0]; q++) {
            char out[400];
            dm_move_to_text(out, sizeof out, &b, &m, styles[k], squares[q]);
            if (dm_move_parse(&back, &b, out, &err) != DM_OK || !vmove_same(&m, &back)) {
                fuzz_fail("%s: '%s' accepted, written as '%s' (style %d, squares %d), which "
                          "does not read back as the same move",
                          v->name, text, out, (int)styles[k], (int)squares[q]);
            }
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 3) {
        return 0;
    }
    char *text = fuzz_cstr(data + 3, size - 3);
    if (!text) {
        return 0;
    }
    int id = data[0] % DM_VARIANT_COUNT;
    int plies = data[1] % 128;
    uint32_t seed = data[2];
    if (id == DM_VARIANT_INTERNATIONAL) {
        check_international(plies, seed, text);
    }
    check_variant(dm_variant_get((dm_variant_id)id), plies, seed, text);
    free(text);
    return 0;
}
