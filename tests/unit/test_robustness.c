/* SPDX-License-Identifier: MIT
 * tests/unit/test_robustness.c: library-level regressions for hostile input found
 * by fuzzing the damier command (see also tests/cli/robustness.sh). One test per
 * bug: the input that broke, and the clear error now expected. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "damier/board.h"
#include "damier/status.h"
#include "damier/variant.h"

/* A FEN with a side to move and no colour section ("W", "B.", "W:H0") was read by
 * the variant core as an empty board (0 moves, a silent guess), while the
 * international FEN reader rejects it. Every variant must reject it. */
static void test_robustness__variant_fen_without_pieces(void **state)
{
    (void)state;
    static const char *const fens[] = {"W", "B", "W.", " W ", "W:H0", "B:F12"};
    for (int id = 0; id < DM_VARIANT_COUNT; id++) {
        const dm_variant *v = dm_variant_get((dm_variant_id)id);
        assert_non_null(v);
        for (size_t i = 0; i < sizeof fens / sizeof fens[0]; i++) {
            dm_vboard b;
            dm_error err;
            memset(&err, 0, sizeof err);
            dm_status st = dm_vboard_from_fen(&b, v, fens[i], &err);
            if (st != DM_EPARSE) {
                fail_msg("%s: FEN \"%s\" gave status %d, expected a parse error", v->name,
                         fens[i], (int)st);
            }
            assert_non_null(strstr(err.message, "no piece section"));
        }
        /* One empty section is still a legal (lost) position. */
        dm_vboard b;
        assert_int_equal(dm_vboard_from_fen(&b, v, "W:W:B", NULL), DM_OK);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_robustness__variant_fen_without_pieces),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
