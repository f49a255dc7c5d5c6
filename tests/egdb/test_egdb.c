/* SPDX-License-Identifier: MIT
 * tests/egdb/test_egdb.c (label fast: about 5 s of CPU under ASan, most of it the
 * generation and the brute force): endgame databases of 2 and 3 pieces generated
 * here; every position of 2 pieces and of 3 pieces without men checked against the
 * brute-force solver of brute.h (both sides to move, capture positions included,
 * through dm_egdb_probe), the counts per slice, verify of the 2-piece slices,
 * resuming, and files that must be refused (corrupt, truncated, wrong version) or
 * must fail verification (a flipped value). In test_egdb_deep (label slow, the
 * optimised build): every position of 3 pieces against the brute force, verify of
 * every 3-piece slice. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include <damier/egdb.h>
#include "core/move10.h"

#include "brute.h"
#include "egdb/egdb_int.h"

static char dir[64];

static void rm_dir(const char *d)
{
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", d);
    if (system(cmd) != 0) {
        fprintf(stderr, "cannot remove %s\n", d);
    }
}

static int skipped_count;
static int slice_count;
static void count_progress(const dm_egdb_slice_info *s, void *p)
{
    (void)p;
    slice_count++;
    skipped_count += s->skipped;
}

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/damier-egdb-test-XXXXXX");
    if (!mkdtemp(dir)) {
        return -1;
    }
    dm_egdb_gen_options o = DM_EGDB_GEN_OPTIONS_INIT;
    o.pieces = 3;
    o.threads = 2;
    dm_error err;
    return dm_egdb_generate(dir, &o, &err) == DM_OK ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    rm_dir(dir);
    return 0;
}

static dm_egdb *open_db(const char *d)
{
    dm_egdb *db = NULL;
    dm_error err;
    assert_int_equal(dm_egdb_open(&db, d, &err), DM_OK);
    return db;
}

/* Every position of 2 pieces, and of 3 pieces without men (a set closed under
 * captures and promotions, small enough for the ASan build; all of 3 pieces is in
 * test_egdb_deep): the probe equals the brute-force value, and so do the slices'
 * W/L/D counts. */
static int small_set(eg_mat m)
{
    return eg_mat_pieces(m) == 2 || m.wm + m.bm == 0;
}

static void test_against_brute_force(void **state)
{
    (void)state;
    dm_egdb *db = open_db(dir);
    assert_int_equal(dm_egdb_problem_count(db), 0);
    assert_int_equal(dm_egdb_max_pieces(db), 3);
    assert_int_equal(dm_egdb_slice_count(db), 4 + 12); /* 2 pieces: 4; 3 pieces: 12 */
    br_check_db(db, 3, small_set, 200000);
    dm_egdb_close(db);
}

/* verify over the slices of 2 pieces. The slices of 3 pieces (1-2 s of CPU each
 * under ASan, 20 s all together) are verified by test_egdb_deep and cli_egdb_deep in
 * the optimised build; here the probe's capture search into smaller slices runs
 * under ASan in test_against_brute_force, and verify of a 3-piece slice up to its
 * first wrong position in test_verify_catches_flipped_value. */
static void test_verify_all(void **state)
{
    (void)state;
    dm_egdb *db = open_db(dir);
    for (int s = 0; s < dm_egdb_slice_count(db); s++) {
        dm_error err;
        dm_egdb_slice_info in;
        dm_egdb_slice(db, s, &in);
        if (in.wm + in.wk + in.bm + in.bk > 2) {
            continue;
        }
        if (dm_egdb_verify_slice(db, s, &err) != DM_OK) {
            fail_msg("verify: %s", err.message);
        }
    }
    dm_egdb_close(db);
}

/* A second run finds every slice complete and recomputes none. */
static void test_resume(void **state)
{
    (void)state;
    dm_egdb_gen_options o = DM_EGDB_GEN_OPTIONS_INIT;
    o.pieces = 3;
    o.progress = count_progress;
    skipped_count = slice_count = 0;
    dm_error err;
    assert_int_equal(dm_egdb_generate(dir, &o, &err), DM_OK);
    assert_int_equal(slice_count, 16);
    assert_int_equal(skipped_count, 16);
}

/* Positions whose value follows from the rules by hand (FMJD rules as summarised in
 * ../shared/docs/rules-international.md), each with its derivation. */
static void test_hand_derived(void **state)
{
    (void)state;
    dm_egdb *db = open_db(dir);
    static const struct {
        const char *fen;
        dm_egdb_value v;
        int dtc;
        const char *why;
    } cases[] = {
        /* White's man on 46 can only go to 41 (occupied) and cannot take 41 because 37
         * behind it is occupied: no legal move, and a player who cannot move loses. */
        {"W:W46:B41,37", DM_EGDB_LOSS, 0, "blocked"},
        /* A king captures at a distance (flying king): 46x23 over 28 along the long
         * diagonal 46-41-37-32-28-23, the capture is compulsory and ends the game. */
        {"B:WK28:BK46", DM_EGDB_WIN, 1, "flying capture"},
        /* White's only move is 6-1 (promotion, the king on 1 sees 45 but there is no
         * square behind it), Black's only reply 45-50 (promotion); a king against a
         * king on the diagonals 1-45 and 6-50 then has no forced capture: a draw. */
        {"W:W6:B45", DM_EGDB_DRAW, 0, "race to two kings"},
        /* The same with Black to move: 45-50 promotes; the king on 50 sees the man
         * on 6 along 50-44-39-33-28-22-17-11-6 but no square lies behind 6, so
         * White's 6-1 follows: king against king, a draw. */
        {"B:W6:B45", DM_EGDB_DRAW, 0, "race, Black first"},
        /* One king each, far apart and not on one diagonal: a draw (no capture can be
         * forced with one king; the 5-move rule is not applied by the database). */
        {"W:WK1:BK50", DM_EGDB_DRAW, 0, "king against king"},
        /* White's man on 33 takes Black's last piece on 28, landing on 22 (capture
         * is compulsory, FMJD 4.1): the conversion is the first ply. */
        {"W:W33:B28", DM_EGDB_WIN, 1, "capture of the last piece"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        dm_board10 b;
        dm_error err;
        assert_int_equal(dm_board10_from_fen(&b, cases[i].fen, &err), DM_OK);
        int dtc = -1;
        dm_egdb_value v = egdb_probe10(db, &b, &dtc);
        if (v != cases[i].v || dtc != cases[i].dtc) {
            fail_msg("%s (%s): got %s in %d, want %s in %d", cases[i].fen, cases[i].why,
                     dm_egdb_value_name(v), dtc, dm_egdb_value_name(cases[i].v), cases[i].dtc);
        }
        /* the public calls take the generic position and answer the same */
        dm_board g;
        assert_int_equal(
            dm_board_from_fen(&g, dm_variant_get(DM_VARIANT_INTERNATIONAL), cases[i].fen, &err),
            DM_OK);
        int gdtc = -1;
        assert_int_equal(dm_egdb_probe(db, &g, &gdtc), v);
        assert_int_equal(gdtc, dtc);
        int ldtc = -1, fdtc = -1;
        assert_int_equal(dm_egdb_lookup(db, &g, &ldtc), egdb_lookup10(db, &b, &fdtc));
        assert_int_equal(ldtc, fdtc);
    }
    /* a position of another variant is not in an international database */
    dm_board russian;
    assert_int_equal(
        dm_board_from_fen(&russian, dm_variant_get(DM_VARIANT_RUSSIAN), "W:WKa1:BKh8", NULL),
        DM_OK);
    int rdtc = -1;
    assert_int_equal(dm_egdb_probe(db, &russian, &rdtc), DM_EGDB_UNKNOWN);
    assert_int_equal(rdtc, 0);
    assert_int_equal(dm_egdb_lookup(db, &russian, NULL), DM_EGDB_UNKNOWN);
    dm_egdb_close(db);
}

/* A copy of the database in a fresh folder. */
static void copy_db(char *out, size_t cap)
{
    snprintf(out, cap, "/tmp/damier-egdb-copy-XXXXXX");
    assert_non_null(mkdtemp(out));
    char cmd[256];
    snprintf(cmd, sizeof cmd, "cp '%s'/*.egdb '%s'/", dir, out);
    assert_int_equal(system(cmd), 0);
}

static void patch_byte(const char *path, long off, int xor_with)
{
    FILE *f = fopen(path, "r+b");
    assert_non_null(f);
    assert_int_equal(fseek(f, off, SEEK_SET), 0);
    int c = fgetc(f);
    assert_true(c != EOF);
    assert_int_equal(fseek(f, off, SEEK_SET), 0);
    fputc(c ^ xor_with, f);
    fclose(f);
}

static int has_problem(const dm_egdb *db, const char *file, const char *what)
{
    for (int i = 0; i < dm_egdb_problem_count(db); i++) {
        const char *p = dm_egdb_problem(db, i);
        if (strstr(p, file) && strstr(p, what)) {
            return 1;
        }
    }
    return 0;
}

static void test_bad_files_refused(void **state)
{
    (void)state;
    char d[64], path[128];
    copy_db(d, sizeof d);
    /* Corrupt: one byte of the value stream of d0201 (2 kings v 1). */
    snprintf(path, sizeof path, "%s/d0201.egdb", d);
    patch_byte(path, EG_HEADER_BYTES + 40, 0x10);
    /* Truncated: d1002 loses its last 10 bytes. */
    snprintf(path, sizeof path, "%s/d1002.egdb", d);
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fclose(f);
    assert_int_equal(truncate(path, size - 10), 0);
    /* Wrong version: d1020's version field says 2. */
    snprintf(path, sizeof path, "%s/d1020.egdb", d);
    patch_byte(path, 8, 3);
    dm_egdb *db = open_db(d);
    assert_int_equal(dm_egdb_problem_count(db), 3);
    assert_true(has_problem(db, "d0201.egdb", "corrupt"));
    assert_true(has_problem(db, "d1002.egdb", "truncated"));
    assert_true(has_problem(db, "d1020.egdb", "version 2"));
    assert_int_equal(dm_egdb_slice_count(db), 13);
    assert_int_equal(dm_egdb_max_pieces(db), 2); /* 3 pieces incomplete now */
    /* The slice is gone, the others still answer. */
    dm_board10 b;
    assert_int_equal(dm_board10_from_fen(&b, "W:WK1,K2:BK50", NULL), DM_OK);
    assert_int_equal(egdb_probe10(db, &b, NULL), DM_EGDB_UNKNOWN);
    assert_int_equal(dm_board10_from_fen(&b, "W:WK1:BK50", NULL), DM_OK);
    assert_int_equal(egdb_probe10(db, &b, NULL), DM_EGDB_DRAW);
    dm_egdb_close(db);
    rm_dir(d);
}

/* A value flipped in a file rewritten with a valid checksum: loaded, but verify
 * names the position. */
static void test_verify_catches_flipped_value(void **state)
{
    (void)state;
    char d[64], path[128];
    copy_db(d, sizeof d);
    snprintf(path, sizeof path, "%s/d0201.egdb", d);
    eg_slice s;
    dm_error err;
    assert_int_equal(eg_load_slice(&s, path, &err), DM_OK);
    eg_enc ev, ed;
    eg_enc_init(&ev, 2);
    eg_enc_init(&ed, 8);
    int flipped = 0;
    eg_binom bt;
    eg_binom_init(&bt);
    for (uint64_t i = 0; i < s.shape.size; i++) {
        unsigned v = eg_stream_get(&s.values, i);
        unsigned dd = eg_stream_get(&s.dtc, i);
        eg_pos p;
        int valid = eg_unindex(&bt, &s.shape, s.mat, i, &p);
        if (!flipped && valid && v == EG_WIN) {
            dm_board10 b;
            eg_board_of_pos(&b, &p);
            if (!dm_movegen10_has_capture(&b)) {
                v = EG_LOSS; /* the flip (its distance kept) */
                flipped = 1;
            }
        }
        eg_enc_put(&ev, v);
        eg_enc_put(&ed, dd);
    }
    eg_enc_finish(&ev);
    eg_enc_finish(&ed);
    assert_true(flipped);
    dm_egdb_slice_info counts = s.info;
    counts.wins--;
    counts.losses++;
    eg_mat m = s.mat;
    eg_unload_slice(&s);
    assert_int_equal(eg_write_slice(d, m, &counts, &ev, &ed, &err), DM_OK);
    eg_enc_free(&ev);
    eg_enc_free(&ed);
    dm_egdb *db = open_db(d);
    assert_int_equal(dm_egdb_problem_count(db), 0);
    /* Only d0201 and its twin d0102 are verified: the other slices are the generated ones, which
     * test_verify_all (the small set) and test_egdb_deep (every slice) verify; all 16
     * here cost over 20 s of CPU under ASan. */
    int found = 0;
    for (int i = 0; i < dm_egdb_slice_count(db); i++) {
        dm_egdb_slice_info in;
        dm_egdb_slice(db, i, &in);
        if (!strcmp(in.name, "d0201")) {
            dm_status st = dm_egdb_verify_slice(db, i, &err);
            assert_int_equal(st, DM_ESTATE);
            assert_non_null(strstr(err.message, "stored loss"));
            found |= 1;
        }
        /* Its twin: the flipped position is a successor there (read from verify's
         * decoded copy of d0201), and a position that moves to it now wins. */
        if (!strcmp(in.name, "d0102")) {
            dm_status st = dm_egdb_verify_slice(db, i, &err);
            assert_int_equal(st, DM_ESTATE);
            assert_non_null(strstr(err.message, "d0102: index"));
            found |= 2;
        }
    }
    assert_int_equal(found, 3);
    dm_egdb_close(db);
    rm_dir(d);
}

/* The index is a bijection between the valid indices and the positions. */
static void test_index_roundtrip(void **state)
{
    (void)state;
    eg_binom bt;
    eg_binom_init(&bt);
    eg_mat mats[] = {{1, 1, 1, 0}, {2, 0, 1, 0}, {0, 2, 0, 1}, {1, 0, 0, 2}};
    for (size_t k = 0; k < sizeof mats / sizeof mats[0]; k++) {
        eg_shape sh;
        eg_shape_of(&sh, &bt, mats[k]);
        for (uint64_t i = 0; i < sh.size; i++) {
            eg_pos p;
            if (!eg_unindex(&bt, &sh, mats[k], i, &p)) {
                continue;
            }
            assert_int_equal(eg_index(&bt, &sh, &p), i);
            uint64_t all = p.wm | p.wk | p.bm | p.bk;
            assert_int_equal(__builtin_popcountll(all), eg_mat_pieces(mats[k]));
            assert_int_equal(eg_flip_compact(eg_flip_compact(all)), all);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_index_roundtrip),
        cmocka_unit_test(test_against_brute_force),
        cmocka_unit_test(test_verify_all),
        cmocka_unit_test(test_resume),
        cmocka_unit_test(test_hand_derived),
        cmocka_unit_test(test_bad_files_refused),
        cmocka_unit_test(test_verify_catches_flipped_value),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
