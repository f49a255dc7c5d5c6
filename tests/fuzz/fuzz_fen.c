/* SPDX-License-Identifier: MIT
 * tests/fuzz/fuzz_fen.c: FEN of every variant. The first byte picks the variant
 * (international on the fast board, the others on the generic one), the rest is the
 * FEN. Properties: the reader never crashes and says why it refuses; an accepted
 * position written back (numeric, and algebraic where the variant has it) reads back
 * as the same position, and that text is a fixed point. */
#include "core/board10.h"
#include <damier/variant.h>

#include "fuzz.h"

static int vboard_same(const dm_board *a, const dm_board *b)
{
    return a->variant == b->variant && a->side == b->side &&
           memcmp(a->sq, b->sq, sizeof a->sq) == 0;
}

static void check_international(const char *fen)
{
    dm_board10 b, back;
    dm_error err;
    if (dm_board10_from_fen(&b, fen, &err) != DM_OK) {
        if (!err.message[0]) {
            fuzz_fail("FEN refused without a reason");
        }
        return;
    }
    char out[256], again[256];
    dm_board10_to_fen(out, sizeof out, &b);
    if (dm_board10_from_fen(&back, out, &err) != DM_OK) {
        fuzz_fail("written FEN '%s' does not read back: %s", out, err.message);
    }
    if (!dm_board10_equal(&b, &back) || b.hash != back.hash) {
        fuzz_fail("FEN '%s' reads back as another position", out);
    }
    dm_board10_to_fen(again, sizeof again, &back);
    if (strcmp(out, again) != 0) {
        fuzz_fail("FEN writing is not a fixed point: '%s' then '%s'", out, again);
    }
}

static void check_variant(const dm_variant *v, const char *fen)
{
    dm_board b;
    dm_error err;
    if (dm_board_from_fen(&b, v, fen, &err) != DM_OK) {
        if (!err.message[0]) {
            fuzz_fail("%s FEN refused without a reason", v->name);
        }
        return;
    }
    for (int algebraic = 0; algebraic <= 1; algebraic++) {
        char out[600];
        dm_board back;
        dm_board_to_fen(out, sizeof out, &b, algebraic);
        if (dm_board_from_fen(&back, v, out, &err) != DM_OK) {
            fuzz_fail("%s: written FEN '%s' does not read back: %s", v->name, out, err.message);
        }
        if (!vboard_same(&b, &back)) {
            fuzz_fail("%s: FEN '%s' reads back as another position", v->name, out);
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) {
        return 0;
    }
    char *fen = fuzz_cstr(data + 1, size - 1);
    if (!fen) {
        return 0;
    }
    int id = data[0] % DM_VARIANT_COUNT;
    const dm_variant *v = dm_variant_get((dm_variant_id)id);
    if (id == DM_VARIANT_INTERNATIONAL) {
        check_international(fen);
    }
    check_variant(v, fen);
    free(fen);
    return 0;
}
