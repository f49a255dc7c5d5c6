/* SPDX-License-Identifier: MIT
 * tests/fuzz/fuzz_book.c: opening book files (damier/book.h, docs/BOOK.md).
 * The input is read twice: as it is, and with its trailing checksum made right (so
 * that the fuzzer reaches the header and entry checks behind it). Properties: a
 * refusal carries a message; an accepted book probes the initial position and the
 * positions after each of its legal moves without fault, every move it gives is legal
 * there with a positive weight, and picking by any seed gives one of the probed moves
 * or nothing when there are none. */
#include <damier/book.h>
#include "core/board10.h"
#include "core/move10.h"
#include <damier/status.h>

#include "fuzz.h"

static void probe_all(const dm_book *bk, const dm_board10 *b, uint64_t seed)
{
    dm_board position;
    if (dm_board_from_board10(&position, dm_variant_get(DM_VARIANT_INTERNATIONAL), b) != DM_OK) {
        fuzz_fail("%s", "test position does not convert");
    }
    dm_book_move got[DM_BOOK_MAX_MOVES];
    int n = dm_book_probe(bk, &position, got, DM_BOOK_MAX_MOVES);
    if (n < 0 || n > DM_BOOK_MAX_MOVES) {
        fuzz_fail("probe returned %d", n);
    }
    for (int i = 0; i < n; i++) {
        dm_move10 m; /* the bridge finds only a legal move of the fast board */
        int found = dm_move_to_move10(&m, b, &got[i].move) == DM_OK;
        if (!found || got[i].weight <= 0) {
            fuzz_fail("book move %d of %d is not legal or has weight %d", i, n, got[i].weight);
        }
    }
    dm_book_move pick;
    int p = dm_book_pick(bk, &position, seed, &pick);
    if (p != (n > 0)) {
        fuzz_fail("pick says %d with %d probed moves", p, n);
    }
}

static void read_one(const uint8_t *data, size_t size)
{
    dm_book *bk = NULL;
    dm_error err;
    memset(&err, 0, sizeof err);
    dm_status st = dm_book_read(&bk, data, size, &err);
    if (st != DM_OK) {
        if (st != DM_ENOMEM && !err.message[0]) {
            fuzz_fail("a refused book without a message (status %d)", (int)st);
        }
        return;
    }
    if (strlen(dm_book_name(bk)) > 31) {
        fuzz_fail("name longer than 31 bytes");
    }
    dm_board10 b;
    dm_board10_start(&b);
    probe_all(bk, &b, 0);
    dm_movelist10 l;
    dm_movegen10_legal(&l, &b);
    for (int i = 0; i < l.count; i++) {
        dm_board10 c = b;
        dm_board10_apply(&c, &l.moves[i]);
        probe_all(bk, &c, (uint64_t)i + 1);
    }
    dm_book_free(bk);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    read_one(data, size);
    if (size >= DM_BOOK_HEADER_SIZE + 4 && size < (1u << 20)) {
        uint8_t *fixed = malloc(size);
        if (!fixed) {
            return 0;
        }
        memcpy(fixed, data, size);
        uint32_t h = 2166136261u; /* FNV-1a over every byte before the checksum */
        for (size_t i = 0; i + 4 < size; i++) {
            h = (h ^ fixed[i]) * 16777619u;
        }
        for (int k = 0; k < 4; k++) {
            fixed[size - 4 + (size_t)k] = (uint8_t)(h >> (8 * k));
        }
        read_one(fixed, size);
        free(fixed);
    }
    return 0;
}
