/* SPDX-License-Identifier: MIT
 * tests/fuzz/fuzz_pdn.c: the PDN reader and the round trip of `pdn convert`. Every
 * game the reader returns is replayed and written (short notation); that text must
 * read back as exactly one game without error, and writing that game again must give
 * the same text (pdn.h: "writing that again gives the same text"). Unreadable games
 * must be reported with a reason, and the reader must come to an end. */
#include <damier/pdn.h>

#include "fuzz.h"

static void round_trip(const dm_pdn_game *g)
{
    char *first = NULL, *second = NULL;
    size_t len1 = 0, len2 = 0;
    if (dm_pdn_write(&first, &len1, g, DM_NOTATION_PDN) != DM_OK) {
        return; /* out of memory */
    }
    dm_pdn_replay replay;
    (void)dm_pdn_replay_mainline(&replay, g); /* replaying must not crash either */
    dm_pdn_reader *r = NULL;
    if (dm_pdn_reader_new(&r, first, len1, "written") != DM_OK) {
        free(first);
        return;
    }
    dm_pdn_game *back = NULL, *extra = NULL;
    dm_error err;
    if (dm_pdn_reader_next(&back, r, &err) != DM_OK || back == NULL) {
        fuzz_fail("written game does not read back (%s):\n%s", back ? "" : err.message, first);
    }
    if (dm_pdn_reader_next(&extra, r, &err) != DM_OK || extra != NULL) {
        fuzz_fail("one written game reads back as more than one:\n%s", first);
    }
    if (dm_pdn_write(&second, &len2, back, DM_NOTATION_PDN) == DM_OK) {
        if (len1 != len2 || memcmp(first, second, len1) != 0) {
            fuzz_fail("writing the game read back changes it:\n--- first\n%s--- second\n%s", first,
                      second);
        }
    }
    free(second);
    dm_pdn_game_free(back);
    dm_pdn_reader_free(r);
    free(first);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    dm_pdn_reader *r = NULL;
    if (dm_pdn_reader_new(&r, (const char *)data, size, "fuzz") != DM_OK) {
        return 0;
    }
    for (int guard = 0;; guard++) {
        if (guard > (int)size + 2) {
            fuzz_fail("the reader does not come to an end (%d calls on %zu bytes)", guard, size);
        }
        dm_pdn_game *g = NULL;
        dm_error err;
        err.message[0] = 0;
        dm_status st = dm_pdn_reader_next(&g, r, &err);
        if (st == DM_ENOMEM) {
            break;
        }
        if (st != DM_OK) {
            if (!err.message[0]) {
                fuzz_fail("unreadable game reported without a reason");
            }
            continue;
        }
        if (g == NULL) {
            break;
        }
        round_trip(g);
        dm_pdn_game_free(g);
    }
    dm_pdn_reader_free(r);
    return 0;
}
