/* SPDX-License-Identifier: MIT
 * tests/unit/test_eval.c: evaluation weights as data (damier/eval.h): the file format
 * (round trip, every rejection), the colour symmetry of the pattern evaluation, the
 * hand-set weights against their features, self-play sample records, training
 * (reduces the loss, deterministic from its seed) and the engine using the weights. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include <damier/engine.h>
#include <damier/eval.h>
#include "core/move10.h"

#include "../engine_fast.h"
#define EVAL_TEST_SEED 12345
#include "../eval_test.h"

/* The fast board b as the generic international position. */
static dm_board gen(const dm_board10 *b)
{
    dm_board g;
    assert_int_equal(dm_board_from_board10(&g, dm_variant_get(DM_VARIANT_INTERNATIONAL), b), DM_OK);
    return g;
}

/* dm_eval_score of the fast board b (the tests build positions on it). */
static int score10(const dm_eval *ev, const dm_board10 *b)
{
    dm_board g = gen(b);
    return dm_eval_score(ev, &g);
}

/* A sample of the fast board b. */
static dm_sample sample_of(const dm_board10 *b, int result, int score, int ply)
{
    dm_sample s;
    memset(&s, 0, sizeof s);
    dm_board g = gen(b);
    assert_int_equal(dm_sample_set_position(&s, &g), DM_OK);
    s.result = result;
    s.score = score;
    s.ply = ply;
    return s;
}

/* Weights with every pattern weight random in [-400, 400] (1/8 hundredths), as a
 * file image with its checksum fixed. */
static unsigned char *random_weights_file(void)
{
    dm_eval *hand;
    assert_int_equal(dm_eval_new_hand(&hand), DM_OK);
    unsigned char *buf = malloc(DM_EVAL_FILE_SIZE);
    assert_non_null(buf);
    assert_int_equal(dm_eval_write(hand, buf, DM_EVAL_FILE_SIZE), DM_OK);
    dm_eval_free(hand);
    randomise_patterns(buf, DM_EVAL_FILE_SIZE, 14u * 6561u * 2u);
    return buf;
}

/* A position reached by random legal moves from the start (quiet or not). */
static dm_board10 random_position(int plies)
{
    dm_board10 b;
    dm_board10_start(&b);
    for (int i = 0; i < plies; i++) {
        dm_movelist10 list;
        int n = dm_movegen10_legal(&list, &b);
        if (n == 0) {
            break;
        }
        dm_board10_apply(&b, &list.moves[rnd() % (uint64_t)n]);
    }
    return b;
}

/* Square s <-> 51 - s, colours swapped, the other side to move. */
static dm_board10 turned(const dm_board10 *b)
{
    static const dm_piece swap[] = {DM_EMPTY, DM_BLACK_MAN, DM_WHITE_MAN, DM_BLACK_KING,
                                    DM_WHITE_KING};
    dm_board10 m;
    dm_board10_clear(&m);
    for (int sq = 1; sq <= 50; sq++) {
        dm_board10_put(&m, 51 - sq, swap[dm_board10_piece(b, sq)]);
    }
    dm_board10_set_side(&m, b->side == DM_WHITE ? DM_BLACK : DM_WHITE);
    return m;
}

static void test_eval__file_round_trip(void **state)
{
    (void)state;
    unsigned char *buf = random_weights_file();
    dm_eval *ev = NULL;
    dm_error err;
    assert_int_equal(dm_eval_read(&ev, buf, DM_EVAL_FILE_SIZE, &err), DM_OK);
    assert_string_equal(dm_eval_name(ev), "hand");
    unsigned char *again = malloc(DM_EVAL_FILE_SIZE);
    assert_int_equal(dm_eval_write(ev, again, DM_EVAL_FILE_SIZE - 1), DM_EBUFS);
    assert_int_equal(dm_eval_write(ev, again, DM_EVAL_FILE_SIZE), DM_OK);
    assert_memory_equal(buf, again, DM_EVAL_FILE_SIZE);

    char path[] = "/tmp/damier-test-eval-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(dm_eval_save(ev, path, &err), DM_OK);
    dm_eval *loaded = NULL;
    assert_int_equal(dm_eval_load(&loaded, path, &err), DM_OK);
    dm_board10 b = random_position(30);
    assert_int_equal(score10(loaded, &b), score10(ev, &b));
    remove(path);
    dm_eval_free(loaded);
    dm_eval_free(ev);
    free(again);
    free(buf);
}

static void expect_rejected(const unsigned char *data, size_t size, const char *why)
{
    dm_eval *ev = (dm_eval *)(uintptr_t)1; /* must stay untouched */
    dm_error err;
    expect_parse_error(dm_eval_read(&ev, data, size, &err), &err, why);
    assert_ptr_equal(ev, (dm_eval *)(uintptr_t)1);
}

static void test_eval__file_rejections(void **state)
{
    (void)state;
    unsigned char *buf = random_weights_file();
    unsigned char *bad = malloc(DM_EVAL_FILE_SIZE + 1);
    expect_rejected(buf, DM_EVAL_FILE_SIZE - 1, "truncated");
    expect_rejected(buf, 10, "DMEV");
    memcpy(bad, buf, DM_EVAL_FILE_SIZE);
    bad[DM_EVAL_FILE_SIZE] = 0;
    expect_rejected(bad, DM_EVAL_FILE_SIZE + 1, "trailing");
    bad[0] = 'X';
    expect_rejected(bad, DM_EVAL_FILE_SIZE, "DMEV");
    memcpy(bad, buf, DM_EVAL_FILE_SIZE);
    put32(bad + 4, 2);
    expect_rejected(bad, DM_EVAL_FILE_SIZE, "version 2");
    memcpy(bad, buf, DM_EVAL_FILE_SIZE);
    put32(bad + 12, 13);
    expect_rejected(bad, DM_EVAL_FILE_SIZE, "shape");
    memcpy(bad, buf, DM_EVAL_FILE_SIZE);
    bad[1000] ^= 1;
    expect_rejected(bad, DM_EVAL_FILE_SIZE, "checksum");

    dm_eval *ev = NULL;
    dm_error err;
    assert_int_equal(dm_eval_load(&ev, "/nonexistent/weights.dmev", &err), DM_EIO);
    assert_null(ev);
    assert_non_null(strstr(err.message, "/nonexistent/weights.dmev"));
    /* An engine told to use no weights keeps the built-in ones. */
    dm_engine *e;
    assert_int_equal(dm_engine_create(&e, NULL), DM_OK);
    assert_int_equal(dm_engine_set_eval(e, NULL), DM_OK);
    dm_engine_free(e);
    free(bad);
    free(buf);
}

/* The turned window reads its table negated with the colours swapped: every position
 * and its colour-flipped turn score the same for the side to move, with any weights. */
static void test_eval__colour_symmetry(void **state)
{
    (void)state;
    unsigned char *buf = random_weights_file();
    dm_eval *ev;
    assert_int_equal(dm_eval_read(&ev, buf, DM_EVAL_FILE_SIZE, NULL), DM_OK);
    int differs = 0;
    dm_board10 start;
    dm_board10_start(&start);
    for (int i = 0; i < 400; i++) {
        dm_board10 b = random_position((int)(rnd() % 60));
        dm_board10 t = turned(&b);
        assert_int_equal(score10(ev, &t), score10(ev, &b));
        differs |= score10(ev, &b) != score10(NULL, &b);
    }
    /* The start position is its own turn: 0 for any weights. */
    assert_int_equal(score10(ev, &start), 0);
    assert_true(differs); /* the patterns are read */
    dm_eval_free(ev);
    free(buf);
}

/* The hand-set weights are evaluation v1: features weighed by (opening, endgame)
 * pairs interpolated by the number of men. */
static void test_eval__hand_weights(void **state)
{
    (void)state;
    /* the hand weights of the nine first features; the later ones weigh 0 */
    static const int open[64] = {100, 300, 1, 6, 8, 6, 8, -4, 10};
    static const int end[64] = {100, 330, 4, 2, 0, 2, 30, -2, 20};
    dm_eval *hand;
    assert_int_equal(dm_eval_new_hand(&hand), DM_OK);
    for (int i = 0; i < 300; i++) {
        dm_board10 b = random_position(20 + (int)(rnd() % 80));
        if (dm_movegen10_has_capture(&b)) {
            continue;
        }
        int f[64], phase;
        dm_board gb;
        assert_int_equal(dm_board_from_board10(&gb, dm_variant_get(DM_VARIANT_INTERNATIONAL), &b),
                         DM_OK);
        int n = dm_engine_features(f, 64, &phase, &gb);
        assert_int_equal(n, 63);
        int o = 0, e = 0;
        for (int k = 0; k < n; k++) {
            o += open[k] * f[k];
            e += end[k] * f[k];
        }
        int s = (o * phase + e * (40 - phase)) / 40;
        int nw = 0, nb = 0, kw = 0, kb = 0;
        for (int sq = 1; sq <= 50; sq++) {
            dm_piece p = dm_board10_piece(&b, sq);
            nw += p == DM_WHITE_MAN || p == DM_WHITE_KING;
            nb += p == DM_BLACK_MAN || p == DM_BLACK_KING;
            kw += p == DM_WHITE_KING;
            kb += p == DM_BLACK_KING;
        }
        if ((nb == 1 && kb && nw <= 3) || (nw == 1 && kw && nb <= 3)) {
            s /= 8;
        }
        assert_int_equal(score10(hand, &b), b.side == DM_WHITE ? s : -s);
    }
    dm_eval_free(hand);
}

/* The value of the feature named name in the position of fen (White minus Black). */
static int feature_of(const char *fen, const char *name)
{
    dm_board b;
    dm_error err;
    assert_int_equal(dm_board_from_fen(&b, dm_variant_get(DM_VARIANT_INTERNATIONAL), fen, &err),
                     DM_OK);
    int f[64], phase;
    int n = dm_engine_features(f, 64, &phase, &b);
    for (int i = 0; i < n; i++) {
        if (!strcmp(dm_engine_feature_name(i), name)) {
            return f[i];
        }
    }
    fail_msg("no feature %s", name);
    return 0;
}

/* King mobility, extra kings, king squares and balance on positions counted by hand
 * (docs/EVAL.md). */
static void test_eval__king_and_balance_features(void **state)
{
    (void)state;
    /* a king on 46 sees the long diagonal 41 .. 5: nine empty squares, none next to
     * an enemy man; the man on 2 (column 3) is a skew of -3 */
    assert_int_equal(feature_of("W:WK46:B2", "king-safe"), 9);
    assert_int_equal(feature_of("W:WK46:B2", "king-denied"), 0);
    assert_int_equal(feature_of("W:WK46:B2", "balance"), 3);
    assert_int_equal(feature_of("W:WK46:B2", "king-on-46"), 1);
    assert_int_equal(feature_of("W:WK46:B2", "king-excess"), 0);
    /* a man on 27 could jump a king landing on 32 (38 beyond is empty): denied */
    assert_int_equal(feature_of("W:WK46:B27", "king-safe"), 8);
    assert_int_equal(feature_of("W:WK46:B27", "king-denied"), 1);
    assert_int_equal(feature_of("W:WK46:B27", "balance"), 5);
    /* with 38 taken the man cannot jump there: safe again */
    assert_int_equal(feature_of("W:WK46,38:B27", "king-denied"), 0);
    /* Black's king on 5 is on "46" from Black's side: it cancels White's */
    assert_int_equal(feature_of("W:WK46,K50:BK5", "king-on-46"), 0);
    assert_int_equal(feature_of("W:WK46,K50:BK5", "king-on-50"), 1);
    assert_int_equal(feature_of("W:WK46,K50:BK5", "king-excess"), 1);
    assert_int_equal(feature_of("W:WK46,K50:BK5,K1", "king-excess"), 0);
    /* balance: White's men on 46 and 36 (column 0, skew -18) against Black's
     * centred 23 and 24 (columns 5 and 7: 1 + 5 = 6) */
    assert_int_equal(feature_of("W:W46,36:B23,24", "balance"), 6 - 18);
}

/* A file of the nine features written before the later ones were added: read, the
 * later features weigh 0, and it scores as the same weights written now. */
static void test_eval__old_file_of_fewer_features(void **state)
{
    (void)state;
    unsigned char *buf = random_weights_file();
    const size_t pat = 60 + 2u * 14u * 6561u * 2u, old_size = pat + 9 * 4 + 4;
    unsigned char *old = malloc(old_size);
    assert_non_null(old);
    memcpy(old, buf, pat + 9 * 4);
    put32(old + 20, 9);
    put32(old + old_size - 4, fnv1a(old, old_size - 4));
    dm_eval *now = NULL, *before = NULL;
    dm_error err;
    assert_int_equal(dm_eval_read(&now, buf, DM_EVAL_FILE_SIZE, &err), DM_OK);
    assert_int_equal(dm_eval_read(&before, old, old_size, &err), DM_OK);
    for (int i = 0; i < 300; i++) {
        dm_board10 b = random_position(20 + (int)(rnd() % 80));
        if (!dm_movegen10_has_capture(&b)) {
            assert_int_equal(score10(before, &b), score10(now, &b));
        }
    }
    /* written again, it has all the features */
    unsigned char *again = malloc(DM_EVAL_FILE_SIZE);
    assert_int_equal(dm_eval_write(before, again, DM_EVAL_FILE_SIZE), DM_OK);
    assert_int_equal(again[20], 63);
    /* a file of more features than the library knows is refused */
    put32(again + 20, 64);
    put32(again + DM_EVAL_FILE_SIZE - 4, fnv1a(again, DM_EVAL_FILE_SIZE - 4));
    dm_eval *more = NULL;
    expect_parse_error(dm_eval_read(&more, again, DM_EVAL_FILE_SIZE, &err), &err, "shape");
    assert_null(more);
    /* and a 9-feature file cut short is still truncated */
    expect_parse_error(dm_eval_read(&more, old, old_size - 1, &err), &err, "truncated");
    dm_eval_free(now);
    dm_eval_free(before);
    free(again);
    free(old);
    free(buf);
}

static void test_eval__sample_records(void **state)
{
    (void)state;
    unsigned char rec[DM_SAMPLE_RECORD_SIZE];
    for (int i = 0; i < 200; i++) {
        dm_board10 b = random_position((int)(rnd() % 90));
        int result = (int)(rnd() % 3) - 1, score = (int)(rnd() % 20001) - 10000;
        dm_sample s = sample_of(&b, result, score, (int)(rnd() % 300));
        dm_sample_encode(rec, &s);
        dm_sample back;
        assert_int_equal(dm_sample_decode(&back, rec, NULL), DM_OK);
        assert_int_equal(back.result, s.result);
        assert_int_equal(back.score, s.score);
        assert_int_equal(back.ply, s.ply);
        /* the position comes back as the generic board it was made from */
        dm_board want = gen(&b), got;
        assert_int_equal(dm_sample_position(&got, &back), DM_OK);
        assert_ptr_equal(got.variant, want.variant);
        assert_int_equal(got.side, want.side);
        assert_memory_equal(got.sq, want.sq, sizeof want.sq);
    }
    /* only international positions are samples; a sample's sets must be a position */
    dm_board russian;
    dm_board_start(&russian, dm_variant_get(DM_VARIANT_RUSSIAN));
    dm_sample rs;
    memset(&rs, 0, sizeof rs);
    assert_int_equal(dm_sample_set_position(&rs, &russian), DM_EINVAL);
    dm_board none;
    rs.white = rs.black = 1; /* square 1 of both colours */
    assert_int_equal(dm_sample_position(&none, &rs), DM_EINVAL);
    assert_int_equal(dm_eval_score(NULL, &russian), 0);
    /* Bad records: both colours on a square, a piece past 50, a king on nothing, a
     * bad result. */
    dm_error err;
    dm_sample out;
    unsigned char bad[DM_SAMPLE_RECORD_SIZE] = {0};
    bad[0] = 1;
    bad[8] = 1;
    assert_int_equal(dm_sample_decode(&out, bad, &err), DM_EPARSE);
    assert_non_null(strstr(err.message, "both colours"));
    memset(bad, 0, sizeof bad);
    bad[7] = 0x80;
    assert_int_equal(dm_sample_decode(&out, bad, &err), DM_EPARSE);
    memset(bad, 0, sizeof bad);
    bad[16] = 1;
    assert_int_equal(dm_sample_decode(&out, bad, &err), DM_EPARSE);
    memset(bad, 0, sizeof bad);
    bad[25] = 5;
    assert_int_equal(dm_sample_decode(&out, bad, &err), DM_EPARSE);

    /* A file cut inside its third record keeps the first two and says where. */
    char path[] = "/tmp/damier-test-samples-XXXXXX";
    unsigned char hdr[DM_SAMPLE_HEADER_SIZE];
    dm_sample_header(hdr);
    dm_board10 sb = random_position(10);
    dm_sample s = sample_of(&sb, 1, 50, 10);
    dm_sample_encode(rec, &s);
    write_cut_sample_file(path, hdr, rec, 7);
    dm_sample *all = NULL;
    size_t n = 0, cap = 0;
    assert_int_equal(dm_sample_read_file(&all, &n, &cap, path, &err), DM_EPARSE);
    assert_int_equal(n, 2);
    assert_non_null(strstr(err.message, "record 3"));
    remove(path);
    free(all);
    n = 0;
    all = NULL;
    cap = 0;
    assert_int_equal(dm_sample_read_file(&all, &n, &cap, "/nonexistent.dmsp", &err), DM_EIO);
    free(all);
}

/* Samples whose result follows the men of one region: White wins when it has more men
 * than Black on squares 21-30, loses when fewer. The patterns can learn it, the hand
 * features only partly. */
static size_t make_samples(dm_sample *s, size_t cap)
{
    size_t n = 0;
    while (n < cap) {
        dm_board10 b = random_position(10 + (int)(rnd() % 40));
        if (dm_movegen10_has_capture(&b)) {
            continue;
        }
        int d = 0;
        for (int sq = 21; sq <= 30; sq++) {
            dm_piece p = dm_board10_piece(&b, sq);
            d += (p == DM_WHITE_MAN) - (p == DM_BLACK_MAN);
        }
        s[n] = sample_of(&b, region_result(d), 0, 0);
        n++;
    }
    return n;
}

static void test_eval__training(void **state)
{
    (void)state;
    enum {
        N = 6000
    };
    dm_sample *s = malloc(N * sizeof *s);
    assert_non_null(s);
    rng_state = 99;
    size_t n = make_samples(s, N);
    dm_train_options o = train_test_options(256, 7);
    dm_eval *a = NULL, *b = NULL;
    double la, lb;
    double before = dm_eval_loss(dm_eval_builtin(), s, n, &o);
    assert_int_equal(dm_eval_train(&a, &la, NULL, s, n, &o, NULL, NULL), DM_OK);
    assert_int_equal(dm_eval_train(&b, &lb, NULL, s, n, &o, NULL, NULL), DM_OK);
    expect_learned(before, dm_eval_loss(a, s, n, &o), la);
    /* Deterministic from the seed: the same bytes twice. */
    unsigned char *ba = malloc(DM_EVAL_FILE_SIZE), *bb = malloc(DM_EVAL_FILE_SIZE);
    dm_eval_write(a, ba, DM_EVAL_FILE_SIZE);
    dm_eval_write(b, bb, DM_EVAL_FILE_SIZE);
    assert_memory_equal(ba, bb, DM_EVAL_FILE_SIZE);
    assert_string_equal(dm_eval_name(a), "trained");

    /* The engine searches with the weights it is given. */
    dm_engine *e;
    assert_int_equal(dm_engine_create(&e, NULL), DM_OK);
    fast_input in;
    dm_board10 start;
    dm_board10_start(&start);
    fast_input_init(&in, &start);
    dm_limits lim = {0};
    lim.depth = 7;
    fast_result r1, r2;
    assert_int_equal(fast_search(&r1, e, &in, &lim, NULL, NULL), DM_OK);
    dm_engine_clear(e);
    assert_int_equal(dm_engine_set_eval(e, a), DM_OK);
    assert_int_equal(fast_search(&r2, e, &in, &lim, NULL, NULL), DM_OK);
    assert_true(r1.nodes != r2.nodes || r1.score != r2.score);
    dm_engine_free(e);

    o.epochs = 0;
    assert_int_equal(dm_eval_train(&b, NULL, NULL, s, n, &o, NULL, NULL), DM_EINVAL);
    o.epochs = 1;
    assert_int_equal(dm_eval_train(&b, NULL, NULL, s, 0, &o, NULL, NULL), DM_EINVAL);
    free(ba);
    free(bb);
    dm_eval_free(a);
    dm_eval_free(b);
    free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_eval__file_round_trip),
        cmocka_unit_test(test_eval__file_rejections),
        cmocka_unit_test(test_eval__colour_symmetry),
        cmocka_unit_test(test_eval__hand_weights),
        cmocka_unit_test(test_eval__sample_records),
        cmocka_unit_test(test_eval__training),
        cmocka_unit_test(test_eval__king_and_balance_features),
        cmocka_unit_test(test_eval__old_file_of_fewer_features),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
