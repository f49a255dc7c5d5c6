/* SPDX-License-Identifier: MIT
 * tests/fuzz/fuzz_jump.c: position strings and move texts of the jumping games
 * (damier/jump.h). The first byte picks the game, player count and house rules, the rest up to the
 * first newline is a position string, what follows a move text. Properties: the
 * readers never crash and say why they refuse; an accepted position written back
 * reads back as the same position and that text is a fixed point; an accepted move
 * is one of the generator's, and its text reads back as the same move. */
#include <damier/jump.h>

#include "fuzz.h"

static const struct {
    dm_jgame game;
    int players, size;
    unsigned options;
} configs[11] = {
    {DM_JGAME_CHINESE, 2, 0, 0},
    {DM_JGAME_CHINESE, 3, 0, DM_JOPT_NO_FOREIGN_CORNER},
    {DM_JGAME_CHINESE, 4, 0, 0},
    {DM_JGAME_CHINESE, 6, 0, 0},
    {DM_JGAME_HALMA, 2, 16, 0},
    {DM_JGAME_HALMA, 4, 16, 0},
    {DM_JGAME_HALMA, 2, 8, 0},
    {DM_JGAME_GEWU, 2, 0, 0},
    /* the house rules (configs 8-10) */
    {DM_JGAME_CHINESE, 2, 0, DM_JOPT_FIFTEEN | DM_JOPT_SUPER_JUMP | DM_JOPT_ANTI_SPOIL},
    {DM_JGAME_CHINESE, 1, 0, DM_JOPT_CAPTURE},
    {DM_JGAME_CHINESE, 3, 0, DM_JOPT_CAPTURE},
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static dm_jrules r;
    static dm_jmovelist list;
    if (size < 1) {
        return 0;
    }
    int c = data[0] % 11;
    dm_error err;
    if (dm_jrules_init(&r, configs[c].game, configs[c].players, configs[c].size, configs[c].options,
                       &err) != DM_OK) {
        fuzz_fail("rules %d refused: %s", c, err.message);
    }
    char *text = fuzz_cstr(data + 1, size - 1);
    if (!text) {
        return 0;
    }
    char *move = strchr(text, '\n');
    if (move) {
        *move++ = 0;
    }
    dm_jpos p, back;
    if (dm_jpos_from_text(&p, &r, text, &err) != DM_OK) {
        if (!err.message[0]) {
            fuzz_fail("position refused without a reason");
        }
        dm_jpos_start(&p, &r);
    } else {
        static char out[4096], again[4096];
        if (dm_jpos_to_text(out, sizeof out, &r, &p) != DM_OK) {
            fuzz_fail("position does not fit 4096 bytes");
        }
        if (dm_jpos_from_text(&back, &r, out, &err) != DM_OK) {
            fuzz_fail("written position '%s' does not read back: %s", out, err.message);
        }
        if (memcmp(back.pieces, p.pieces, sizeof p.pieces) || back.to_move != p.to_move ||
            back.throw_steps != p.throw_steps) {
            fuzz_fail("position '%s' reads back as another", out);
        }
        dm_jpos_to_text(again, sizeof again, &r, &back);
        if (strcmp(out, again)) {
            fuzz_fail("position writing is not a fixed point: '%s' then '%s'", out, again);
        }
    }
    if (move) {
        dm_jmove m, m2;
        if (dm_jmove_from_text(&m, &r, &p, move, &err) != DM_OK) {
            if (!err.message[0]) {
                fuzz_fail("move refused without a reason");
            }
        } else {
            int n = dm_jmovegen(&list, &r, &p), found = 0;
            for (int i = 0; i < n; i++) {
                found |= list.moves[i].from == m.from && list.moves[i].to == m.to;
            }
            if (!found) {
                fuzz_fail("move '%s' accepted but not generated", move);
            }
            char mt[DM_JMAX_PATH * 5];
            dm_jmove_to_text(mt, sizeof mt, &r, &p, &m);
            if (dm_jmove_from_text(&m2, &r, &p, mt, &err) != DM_OK || m2.from != m.from ||
                m2.to != m.to) {
                fuzz_fail("move text '%s' does not read back", mt);
            }
        }
    }
    free(text);
    return 0;
}
