/* SPDX-License-Identifier: MIT
 * tests/egdb/test_egdb_deep.c (label slow): the database of 2-4 pieces generated
 * here (about 20 s of CPU with 2 threads), every position of 3 pieces and every
 * position of three kings against a king (and below) checked against the brute-force
 * solver of brute.h, verify over every slice of 3 pieces and the 4-piece king
 * slices, positions of the theory, the published positions of
 * tests/data/egdb/published.txt (also against DM_EGDB_DIR, a larger database, when
 * given), and the engine converting a won position with three kings against one
 * within the 16-move rule. */
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
#include <damier/engine.h>
#include "core/move10.h"

#include "../engine_fast.h"

#include "brute.h"
#include "egdb/egdb_int.h"

static char dir[64];

/* DM_EGDB_TEST_DIR: use a database generated before (kept), for quicker reruns. */
static int keep_dir;

static int setup(void **state)
{
    (void)state;
    const char *given = getenv("DM_EGDB_TEST_DIR");
    if (given && *given) {
        snprintf(dir, sizeof dir, "%s", given);
        keep_dir = 1;
        return 0;
    }
    snprintf(dir, sizeof dir, "/tmp/damier-egdb-deep-XXXXXX");
    if (!mkdtemp(dir)) {
        return -1;
    }
    dm_egdb_gen_options o = DM_EGDB_GEN_OPTIONS_INIT;
    o.pieces = 4;
    o.threads = 2;
    dm_error err;
    if (dm_egdb_generate(dir, &o, &err) != DM_OK) {
        fprintf(stderr, "%s\n", err.message);
        return -1;
    }
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    if (keep_dir) {
        return 0;
    }
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

static dm_egdb *open_db(void)
{
    dm_egdb *db = NULL;
    assert_int_equal(dm_egdb_open(&db, dir, NULL), DM_OK);
    assert_int_equal(dm_egdb_problem_count(db), 0);
    assert_int_equal(dm_egdb_max_pieces(db), 4);
    assert_int_equal(dm_egdb_slice_count(db), 4 + 12 + 25);
    return db;
}

static int all3(eg_mat m)
{
    (void)m;
    return 1;
}

/* Kings only, Black with one king: closed under captures (no men, no promotions). */
static int kings_v_king(eg_mat m)
{
    return m.wm == 0 && m.bm == 0 && m.bk == 1;
}

static void test_brute_3_pieces(void **state)
{
    (void)state;
    dm_egdb *db = open_db();
    br_check_db(db, 3, all3, 1000000);
    dm_egdb_close(db);
}

static void test_brute_3_kings_v_king(void **state)
{
    (void)state;
    dm_egdb *db = open_db();
    br_check_db(db, 4, kings_v_king, 1800000);
    dm_egdb_close(db);
}

static void test_verify(void **state)
{
    (void)state;
    dm_egdb *db = open_db();
    for (int s = 0; s < dm_egdb_slice_count(db); s++) {
        dm_egdb_slice_info in;
        dm_egdb_slice(db, s, &in);
        if (in.wm + in.wk + in.bm + in.bk == 4 && in.wm + in.bm > 0) {
            continue; /* the 4-piece slices with men: `damier egdb verify` (BENCHMARKS.md) */
        }
        dm_error err;
        if (dm_egdb_verify_slice(db, s, &err) != DM_OK) {
            fail_msg("verify: %s", err.message);
        }
    }
    dm_egdb_close(db);
}

/* Theory, derived with the rules: a lone king on the long diagonal 46-5
 * (../shared/docs/rules-international.md) against three kings that cannot take it at
 * once is a draw, whoever moves: the three kings never force it off the diagonal.
 * The brute-force test above checks every such position too; these are the
 * examples the issue names. */
static void test_theory(void **state)
{
    (void)state;
    dm_egdb *db = open_db();
    static const char *const draws[] = {"W:WK1,K2,K3:BK46", "B:WK1,K2,K3:BK46",
                                        "W:WK47,K48,K49:BK5"};
    for (size_t i = 0; i < sizeof draws / sizeof draws[0]; i++) {
        dm_board10 b;
        assert_int_equal(dm_board10_from_fen(&b, draws[i], NULL), DM_OK);
        assert_int_equal(egdb_probe10(db, &b, NULL), DM_EGDB_DRAW);
    }
    dm_egdb_close(db);
}

/* The engine, probing the database, converts the longest win of three kings against
 * a king (White to move, found in slice d0301) against itself: Black's king is taken
 * within the counting rules (FMJD 6: 16 moves with three kings against one, 5 with
 * two kings after Black has taken one), every position on the way still a database
 * win for White. */
static void test_engine_converts(void **state)
{
    (void)state;
    dm_egdb *db = open_db();
    const eg_slice *s = eg_db_find(db, (eg_mat){0, 3, 0, 1});
    assert_non_null(s);
    dm_board10 start;
    int found = 0;
    for (uint64_t i = 0; i < s->shape.size && !found; i++) {
        eg_pos p;
        if (!eg_unindex(&db->binom, &s->shape, s->mat, i, &p)) {
            continue;
        }
        dm_board10 b;
        eg_board_of_pos(&b, &p);
        b.hash = dm_board10_compute_hash(&b);
        int d;
        if (egdb_lookup10(db, &b, &d) == DM_EGDB_WIN && d == s->info.max_dtc) {
            start = b;
            found = 1;
        }
    }
    assert_true(found);
    assert_true(s->info.max_dtc > 4);
    char fen[200];
    dm_board10_to_fen(fen, sizeof fen, &start);
    dm_engine *e;
    assert_int_equal(dm_engine_create(&e, NULL), DM_OK);
    assert_int_equal(dm_engine_set_egdb(e, db), DM_OK);
    dm_board10 b = start;
    uint64_t hist[64];
    int plies = 0, since = 0; /* since: plies since the last capture (the rule's count) */
    while (b.pieces[DM_BLACK]) {
        /* Three kings v one: 16-move rule (32 plies); two kings v one: 5-move (10). */
        int rule = dm_board10_count_kings(&b, DM_WHITE) == 3 ? 32 : 10;
        if (since >= rule || plies >= 64) {
            fail_msg("not converted within the counting rule from %s", fen);
        }
        int d;
        dm_egdb_value v = egdb_probe10(db, &b, &d);
        char now[200];
        dm_board10_to_fen(now, sizeof now, &b);
        if (v != (b.side == DM_WHITE ? DM_EGDB_WIN : DM_EGDB_LOSS)) {
            fail_msg("from %s, ply %d: %s is a database %s", fen, plies, now,
                     dm_egdb_value_name(v));
        }
        fast_input in;
        fast_input_init(&in, &b);
        in.history = hist;
        in.history_count = since;
        in.reversible_plies = since;
        in.endgame_plies = since;
        dm_limits lim;
        memset(&lim, 0, sizeof lim);
        lim.depth = 4;
        fast_result r;
        assert_int_equal(fast_search(&r, e, &in, &lim, NULL, NULL), DM_OK);
        assert_true(r.has_move);
        hist[since++] = b.hash;
        if (r.best.ncapt) {
            since = 0; /* a capture: the history and the rule's count restart */
        }
        dm_board10_apply(&b, &r.best);
        plies++;
    }
    print_message("converted %s (win in %d plies) in %d plies\n", fen, s->info.max_dtc, plies);
    assert_true(plies <= 32);
    dm_engine_free(e);
    dm_egdb_close(db);
}

/* Check the entries of tests/data/egdb/published.txt that have at most
 * dm_egdb_max_pieces(db) pieces against db; returns how many were checked, and adds
 * the others to *skipped (by piece count, skipped[p]). */
static int check_published(const dm_egdb *db, const char *what, int skipped[DM_EGDB_MAX_PIECES + 2])
{
    const char *path = DM_SOURCE_DIR "/tests/data/egdb/published.txt";
    FILE *f = fopen(path, "r");
    if (!f) {
        fail_msg("cannot open %s", path);
    }
    char line[1024], sources[16][32];
    int nsources = 0, checked = 0, lineno = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        line[strcspn(line, "\r\n")] = 0;
        if (line[0] == '#' || line[0] == 0) {
            continue;
        }
        char fen[256], value[16], source[32];
        if (sscanf(line, "source %31s", source) == 1) {
            assert_true(nsources < 16);
            snprintf(sources[nsources++], sizeof sources[0], "%s", source);
            continue;
        }
        if (sscanf(line, "%255s %15s %31s", fen, value, source) != 3) {
            fail_msg("%s:%d: expected FEN VALUE SOURCE, got '%s'", path, lineno, line);
        }
        int known = 0;
        for (int i = 0; i < nsources; i++) {
            known |= !strcmp(sources[i], source);
        }
        if (!known) {
            fail_msg("%s:%d: source '%s' has no source line above", path, lineno, source);
        }
        dm_egdb_value want = !strcmp(value, "win")    ? DM_EGDB_WIN
                             : !strcmp(value, "loss") ? DM_EGDB_LOSS
                             : !strcmp(value, "draw") ? DM_EGDB_DRAW
                                                      : DM_EGDB_UNKNOWN;
        if (want == DM_EGDB_UNKNOWN) {
            fail_msg("%s:%d: value '%s' is not win, loss or draw", path, lineno, value);
        }
        dm_board10 b;
        dm_error err;
        if (dm_board10_from_fen(&b, fen, &err) != DM_OK) {
            fail_msg("%s:%d: bad FEN '%s': %s", path, lineno, fen, err.message);
        }
        int pieces = __builtin_popcountll(b.pieces[0] | b.pieces[1]);
        assert_true(pieces >= 2 && pieces <= DM_EGDB_MAX_PIECES + 1);
        if (pieces > dm_egdb_max_pieces(db)) {
            skipped[pieces]++;
            continue;
        }
        dm_egdb_value got = egdb_probe10(db, &b, NULL);
        if (got != want) {
            fail_msg("%s:%d: %s is a %s (%s), the database (%s) says %s", path, lineno, fen, value,
                     source, what, dm_egdb_value_name(got));
        }
        checked++;
    }
    fclose(f);
    return checked;
}

static void test_published(void **state)
{
    (void)state;
    dm_egdb *db = open_db();
    int skipped[DM_EGDB_MAX_PIECES + 2] = {0};
    int checked = check_published(db, "2-4 pieces, generated here", skipped);
    assert_true(checked > 0);
    print_message("published positions: %d checked against 2-4 pieces\n", checked);
    dm_egdb_close(db);
    const char *big = getenv("DM_EGDB_DIR");
    if (big && *big) {
        dm_egdb *bdb = NULL;
        assert_int_equal(dm_egdb_open(&bdb, big, NULL), DM_OK);
        int bskipped[DM_EGDB_MAX_PIECES + 2] = {0};
        char what[300];
        snprintf(what, sizeof what, "DM_EGDB_DIR %s, complete to %d pieces", big,
                 dm_egdb_max_pieces(bdb));
        int n = check_published(bdb, what, bskipped);
        print_message("published positions: %d checked against %s\n", n, what);
        memcpy(skipped, bskipped, sizeof skipped);
        dm_egdb_close(bdb);
    }
    for (int p = 5; p <= DM_EGDB_MAX_PIECES + 1; p++) {
        if (skipped[p]) {
            print_message("published positions: %d of %d pieces skipped: no database of %d "
                          "pieces (DM_EGDB_DIR=FOLDER, made by damier egdb gen --pieces %d, "
                          "checks them)\n",
                          skipped[p], p, p, p);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_brute_3_pieces),  cmocka_unit_test(test_brute_3_kings_v_king),
        cmocka_unit_test(test_verify),          cmocka_unit_test(test_theory),
        cmocka_unit_test(test_engine_converts), cmocka_unit_test(test_published),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
