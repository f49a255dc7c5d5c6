/* SPDX-License-Identifier: MIT
 * tests/fuzz/fuzz_dxp.c: a DXP byte stream (damier/dxp.h) cut by the splitter, the
 * input's first byte choosing the read sizes. Each message is parsed; properties:
 * - the splitter never holds more than one message and consumes every byte;
 * - a refused message or framing error always says why, with a position (column);
 * - an accepted message formats, and format(parse(x)) is a fixed point: parsing it
 *   gives the same message and formatting that gives the same text;
 * - a MOVE either matches a legal move of a few positions, whose own MOVE message
 *   names the same from, to and captured set, or is refused with a reason. */
#include <damier/dxp.h>

#include "fuzz.h"

static const char *const fens[] = {"W:W31-50:B1-20", "B:W31-50:B1-20", "B:W12,20,22,23:BK5",
                                   "W:WK46,K1:B37,28,38,17,27,12,13,8,9"};

static void check_message(const char *text, size_t len)
{
    dm_dxp_msg m;
    dm_error err;
    memset(&err, 0, sizeof err);
    dm_status st = dm_dxp_parse(&m, text, len, &err);
    if (st != DM_OK) {
        if (st != DM_EPARSE || !err.message[0] || err.column < 1 ||
            err.column > DM_DXP_MAX_MESSAGE + 1) {
            fuzz_fail("refusal without a reason or position: status %d column %d '%s'", (int)st,
                      err.column, err.message);
        }
        return;
    }
    char y[DM_DXP_MAX_MESSAGE + 1], z[DM_DXP_MAX_MESSAGE + 1];
    size_t ylen, zlen;
    if (dm_dxp_format(y, sizeof y, &ylen, &m, &err) != DM_OK) {
        fuzz_fail("accepted '%.*s' does not format: %s", (int)len, text, err.message);
    }
    dm_dxp_msg m2;
    if (dm_dxp_parse(&m2, y, ylen, &err) != DM_OK) {
        fuzz_fail("formatted '%s' does not parse: %s", y, err.message);
    }
    if (memcmp(&m, &m2, sizeof m) != 0) {
        fuzz_fail("'%.*s' -> '%s' parses as another message", (int)len, text, y);
    }
    if (dm_dxp_format(z, sizeof z, &zlen, &m2, &err) != DM_OK || zlen != ylen ||
        memcmp(y, z, ylen) != 0) {
        fuzz_fail("format(parse(x)) is not a fixed point: '%s' then '%s'", y, z);
    }
    if (m.type != DM_DXP_MOVE) {
        return;
    }
    for (size_t i = 0; i < sizeof fens / sizeof fens[0]; i++) {
        dm_board b;
        if (dm_board_from_fen(&b, dm_variant_get(DM_VARIANT_INTERNATIONAL), fens[i], NULL) !=
            DM_OK) {
            fuzz_fail("bad test position %s", fens[i]);
        }
        dm_move mv;
        memset(&err, 0, sizeof err);
        st = dm_dxp_move_match(&mv, &b, &m, &err);
        if (st != DM_OK) {
            if ((st != DM_EILLEGAL && st != DM_EAMBIGUOUS) || !err.message[0]) {
                fuzz_fail("move refusal without a reason: status %d", (int)st);
            }
            continue;
        }
        dm_dxp_msg back;
        if (dm_dxp_move_from(&back, &b, &mv, m.seconds) != DM_OK) {
            fuzz_fail("matched move of '%s' is not legal in %s", y, fens[i]);
        }
        if (back.from != m.from || back.to != m.to ||
            (m.ncaptured && back.ncaptured != m.ncaptured)) {
            fuzz_fail("'%s' matched another move in %s", y, fens[i]);
        }
        for (int k = 0; k < m.ncaptured; k++) {
            int found = 0;
            for (int j = 0; j < back.ncaptured; j++) {
                found |= back.captured[j] == m.captured[k];
            }
            if (!found) {
                fuzz_fail("'%s' matched a move without captured square %d", y, m.captured[k]);
            }
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0) {
        return 0;
    }
    size_t step = (size_t)(data[0] % 64) + 1; /* the size of each read */
    const char *in = (const char *)data + 1;
    size_t len = size - 1;
    dm_dxp_splitter s;
    dm_dxp_splitter_init(&s);
    for (size_t off = 0; off < len;) {
        size_t n = len - off < step ? len - off : step;
        size_t pos = 0;
        while (pos < n) {
            size_t used = 0, ml = 0;
            const char *msg = NULL;
            dm_error err;
            memset(&err, 0, sizeof err);
            dm_dxp_split_result r =
                dm_dxp_split(&s, in + off + pos, n - pos, &used, &msg, &ml, &err);
            if (used == 0 || used > n - pos) {
                fuzz_fail("the splitter consumed %zu of %zu bytes", used, n - pos);
            }
            pos += used;
            if (s.len > DM_DXP_MAX_MESSAGE) {
                fuzz_fail("the splitter holds %zu bytes", s.len);
            }
            if (r == DM_DXP_SPLIT_MESSAGE) {
                if (!msg || ml == 0 || ml > DM_DXP_MAX_MESSAGE || memchr(msg, 0, ml)) {
                    fuzz_fail("the splitter handed out a bad message of %zu bytes", ml);
                }
                check_message(msg, ml);
            } else if (r == DM_DXP_SPLIT_ERROR) {
                if (!err.message[0]) {
                    fuzz_fail("a framing error without a reason");
                }
            } else if (pos != n) {
                fuzz_fail("MORE before the end of the bytes given");
            }
        }
        off += n;
    }
    return 0;
}
