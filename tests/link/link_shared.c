/* SPDX-License-Identifier: MIT
 * tests/link/link_shared.c: a program built against libdamier.so through the umbrella
 * header alone, as a user's program is: the version it reports equals the header's,
 * and a few calls across the layers work (perft of the start position, a FEN round
 * trip). Exit status 0 when everything holds, 1 with a message otherwise. */
#include <damier.h>

#include <stdio.h>
#include <string.h>

int main(void)
{
    int major = -1, minor = -1, patch = -1;
    const char *v = dm_version(&major, &minor, &patch);
    if (strcmp(v, DM_VERSION) != 0 || major != DM_VERSION_MAJOR || minor != DM_VERSION_MINOR ||
        patch != DM_VERSION_PATCH) {
        fprintf(stderr, "link_shared: library says %s (%d.%d.%d), header says %s\n", v, major,
                minor, patch, DM_VERSION);
        return 1;
    }
    dm_board b;
    dm_board_start(&b, dm_variant_get(DM_VARIANT_INTERNATIONAL));
    /* FMJD start position, perft 3 = 658 (tests/perft/test_perft.c cites the source). */
    uint64_t n = dm_perft(&b, 3);
    if (n != 658) {
        fprintf(stderr, "link_shared: perft(3) = %llu, expected 658\n", (unsigned long long)n);
        return 1;
    }
    char fen[512];
    dm_board_to_fen(fen, sizeof fen, &b, 0);
    dm_board back;
    dm_error err;
    if (dm_board_from_fen(&back, b.variant, fen, &err) != DM_OK ||
        memcmp(back.sq, b.sq, sizeof b.sq) != 0 || back.side != b.side) {
        fprintf(stderr, "link_shared: FEN %s does not read back\n", fen);
        return 1;
    }
    printf("libdamier %s: ok\n", v);
    return 0;
}
