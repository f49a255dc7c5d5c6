/* SPDX-License-Identifier: MIT
 * pdn/replay.c: the entry point dm_pdn_replay_mainline, which picks the rules
 * (pdn_select) and replays the mainline under them (pdn_replay_variant, vreplay.c: one
 * replay for every variant, international included). A move is legal only if it
 * matches exactly one legal move of its position (FMJD 3, 4.1 compulsory capture, 4.13
 * majority rule, or the variant's own); the first bad move stops the replay and is
 * described. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pdn/pdn_int.h"

/* The FEN without lidraughts' ":H<n>" / ":F<n>" counters, into buf. Sets *fullmove to
 * the F counter (0 when absent). */
void pdn_strip_counters(char *buf, size_t cap, const char *fen, int *fullmove)
{
    size_t o = 0;
    *fullmove = 0;
    for (const char *p = fen; *p && o + 1 < cap;) {
        if (*p == ':' && (p[1] == 'H' || p[1] == 'F') && p[2] >= '0' && p[2] <= '9') {
            const char *q = p + 2;
            int v = 0;
            for (; *q >= '0' && *q <= '9'; q++) {
                v = v < 100000 ? v * 10 + (*q - '0') : v;
            }
            if (*q == 0 || *q == ':') {
                if (p[1] == 'F') {
                    *fullmove = v;
                }
                p = q;
                continue;
            }
        }
        buf[o++] = *p++;
    }
    buf[o] = 0;
}

dm_status dm_pdn_replay_mainline(dm_pdn_replay *out, const dm_pdn_game *g)
{
    if (!out || !g) {
        return DM_EINVAL;
    }
    memset(out, 0, sizeof *out);
    dm_board_start(&out->start, dm_variant_get(DM_VARIANT_INTERNATIONAL));
    out->end = out->start;
    char why[256];
    const dm_variant *v;
    int guessed;
    if (!pdn_select(g, &v, &guessed, why, sizeof why)) {
        out->verdict = DM_PDN_VARIANT;
        out->guessed = guessed; /* 1: no guessed rules fit the moves */
        dm_error_set(&out->reason, DM_OK, 0, 0, "%s", why);
        return DM_OK;
    }
    out->guessed = guessed;
    pdn_replay_variant(out, g, v, NULL);
    return DM_OK;
}
