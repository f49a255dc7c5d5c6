/* SPDX-License-Identifier: MIT
 * tests/unit/test_bench_deep.c: the search signature: `damier bench` at its default
 * depth must search exactly the node total recorded in bench/expected_nodes. A change
 * means the search behaves differently: update the file in the same commit, saying
 * why. Labelled slow (the optimised build runs it; sanitizers skip it). */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

static void test_bench__total_nodes_match_signature(void **state)
{
    (void)state;
    FILE *f = fopen(DM_SOURCE_DIR "/bench/expected_nodes", "r");
    assert_non_null(f);
    unsigned long long expected = 0;
    assert_int_equal(fscanf(f, "%llu", &expected), 1);
    fclose(f);

    FILE *p = popen(DM_BINARY " bench", "r");
    assert_non_null(p);
    char line[256];
    unsigned long long total = 0;
    int positions = 0;
    while (fgets(line, sizeof line, p)) {
        if (sscanf(line, "total nodes %llu", &total) == 1) {
            continue;
        }
        int n;
        unsigned long long nodes;
        if (sscanf(line, "%d %llu", &n, &nodes) == 2) {
            positions++;
        }
    }
    assert_int_equal(pclose(p), 0);
    assert_true(positions >= 30);
    if (total != expected) {
        fail_msg("bench total nodes %llu, bench/expected_nodes says %llu", total, expected);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bench__total_nodes_match_signature),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
