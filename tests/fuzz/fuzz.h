/* SPDX-License-Identifier: MIT
 * tests/fuzz/fuzz.h: what the fuzz harnesses share. Each fuzz_<name>.c defines
 * LLVMFuzzerTestOneInput; built with clang -fsanitize=fuzzer it is a libFuzzer
 * target (make fuzz), built with replay_main.c it replays a corpus (every test run).
 * A property that fails calls fuzz_fail, which aborts: libFuzzer saves the input,
 * the replay names the file. */
#ifndef DM_TESTS_FUZZ_H
#define DM_TESTS_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Report a broken property and abort. */
#define fuzz_fail(...)                                                                             \
    do {                                                                                           \
        fprintf(stderr, "fuzz property failed at %s:%d: ", __FILE__, __LINE__);                    \
        fprintf(stderr, __VA_ARGS__);                                                              \
        fprintf(stderr, "\n");                                                                     \
        abort();                                                                                   \
    } while (0)

/* The input as a NUL-terminated string (malloc'd; NUL bytes inside stay, so C-string
 * readers see a prefix, which is also an input they must handle). NULL when out of
 * memory. */
static inline char *fuzz_cstr(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1);
    if (s) {
        memcpy(s, data, size);
        s[size] = 0;
    }
    return s;
}

#endif
