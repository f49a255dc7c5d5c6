/* SPDX-License-Identifier: MIT
 * tests/perft/test_published_perft.c: published perft counts (dctl's tables, see
 * published_perft.h) up to 2 M leaves per count: fast, also under ASan. The deep
 * version (test_published_perft_deep.c) goes to 300 M. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#define PP_BUDGET UINT64_C(2000000)
#include "perft/published_check.h"

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(check_published),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
