/* SPDX-License-Identifier: MIT
 * tests/eval_test.h: fixtures shared by the evaluation tests of both boards
 * (tests/unit/test_eval.c, international; tests/unit/test_eval8.c, 8x8): a seeded
 * random stream, weights file images with random patterns, the checks of a refused
 * file, a sample file cut inside a record and the training options and checks.
 * Include after <cmocka.h>; define EVAL_TEST_SEED (the stream's start) first. */
#ifndef DM_TESTS_EVAL_TEST_H
#define DM_TESTS_EVAL_TEST_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <damier/eval.h>

#ifndef EVAL_TEST_SEED
#error "define EVAL_TEST_SEED before including eval_test.h"
#endif

static uint64_t rng_state = EVAL_TEST_SEED;

/* splitmix64: the tests' random stream. */
static inline uint64_t rnd(void)
{
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* The weights file checksum (FNV-1a 32), written independently of the library. */
static inline uint32_t fnv1a(const unsigned char *p, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++) {
        h = (h ^ p[i]) * 16777619u;
    }
    return h;
}

static inline void put32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++) {
        p[i] = (unsigned char)(v >> (8 * i));
    }
}

/* Set the first patterns weights of the weights file image buf (size bytes) to random
 * values in [-400, 400] (1/8 hundredths) and fix its checksum. */
static inline void randomise_patterns(unsigned char *buf, size_t size, size_t patterns)
{
    for (size_t i = 0; i < patterns; i++) {
        int v = (int)(rnd() % 801) - 400;
        buf[60 + 2 * i] = (unsigned char)(uint16_t)v;
        buf[60 + 2 * i + 1] = (unsigned char)((uint16_t)v >> 8);
    }
    put32(buf + size - 4, fnv1a(buf, size - 4));
}

/* A read that must have been refused as unparsable, saying why. */
static inline void expect_parse_error(dm_status st, const dm_error *err, const char *why)
{
    assert_int_equal(st, DM_EPARSE);
    if (!strstr(err->message, why)) {
        fail_msg("message \"%s\" does not say \"%s\"", err->message, why);
    }
}

/* A sample file at path (a mkstemp template, filled in) of header hdr, two copies of
 * record rec and the first cut bytes of a third. */
static inline void write_cut_sample_file(char *path, const unsigned char hdr[DM_SAMPLE_HEADER_SIZE],
                                         const unsigned char rec[DM_SAMPLE_RECORD_SIZE], size_t cut)
{
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "wb");
    assert_non_null(f);
    fwrite(hdr, 1, DM_SAMPLE_HEADER_SIZE, f);
    fwrite(rec, 1, DM_SAMPLE_RECORD_SIZE, f);
    fwrite(rec, 1, DM_SAMPLE_RECORD_SIZE, f);
    fwrite(rec, 1, cut, f);
    fclose(f);
}

/* The result of a sample whose men count d (White's minus Black's) in a region
 * decides the game. */
static inline int region_result(int d)
{
    return d > 0 ? 1 : d < 0 ? -1 : 0;
}

/* The training options of the tests: 4 epochs of batch samples, the result alone as
 * target, 10% held out, seed. */
static inline dm_train_options train_test_options(int batch, uint64_t seed)
{
    dm_train_options o = DM_TRAIN_OPTIONS_INIT;
    o.epochs = 4;
    o.batch = batch;
    o.lambda = 1.0;
    o.holdout = 0.1;
    o.seed = seed;
    return o;
}

/* Training took the loss from before to after (and held-out loss held) well down. */
static inline void expect_learned(double before, double after, double held)
{
    if (!(after < before * 0.8)) {
        fail_msg("loss %f -> %f: training did not learn", before, after);
    }
    assert_true(held < before);
}

#endif /* DM_TESTS_EVAL_TEST_H */
