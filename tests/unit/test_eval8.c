/* SPDX-License-Identifier: MIT
 * tests/unit/test_eval8.c: the 8x8 evaluation as data (damier/eval8.h) for Russian
 * draughts and every other 8x8 variant it is for (orientation, the men's direction,
 * kings' value, symmetry, the search reading it): the hand weights equal the search's
 * hand evaluation, the colour symmetry
 * of the pattern evaluation, the weights file (round trip, every rejection: another
 * variant, another shape, truncated, damaged), sample records and files, training
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
#include <damier/eval8.h>

#define EVAL_TEST_SEED 4242
#include "../eval_test.h"

static const dm_variant *russian(void)
{
    return dm_variant_get(DM_VARIANT_RUSSIAN);
}

/* A position of variant v reached by random legal moves from the start. */
static dm_board random_position_of(dm_variant_id v, int plies)
{
    dm_board b;
    dm_board_start(&b, dm_variant_get(v));
    for (int i = 0; i < plies; i++) {
        dm_movelist list;
        int n = dm_movegen_legal(&list, &b);
        if (n == 0) {
            break;
        }
        dm_board_apply(&b, &list.moves[rnd() % (uint64_t)n]);
    }
    return b;
}

/* A Russian position reached by random legal moves from the start. */
static dm_board random_position(int plies)
{
    return random_position_of(DM_VARIANT_RUSSIAN, plies);
}

static int capture_pending(const dm_board *b)
{
    dm_movelist list;
    return dm_movegen_legal(&list, b) > 0 && list.moves[0].ncapt > 0;
}

/* Square s <-> 33 - s, colours swapped, the other side to move. */
static dm_board turned(const dm_board *b)
{
    static const dm_piece swap[] = {DM_EMPTY, DM_BLACK_MAN, DM_WHITE_MAN, DM_BLACK_KING,
                                    DM_WHITE_KING};
    dm_board m;
    dm_board_clear(&m, b->variant);
    for (int sq = 1; sq <= 32; sq++) {
        dm_board_put(&m, 33 - sq, swap[dm_board_piece(b, sq)]);
    }
    m.side = b->side ^ 1;
    return m;
}

/* The hand weights of v as a file image with random pattern weights (checksum fixed). */
static unsigned char *random_weights_file_of(dm_variant_id v)
{
    dm_eval8 *hand;
    assert_int_equal(dm_eval8_new_hand(&hand, v), DM_OK);
    unsigned char *buf = malloc(DM_EVAL8_FILE_SIZE);
    assert_non_null(buf);
    assert_int_equal(dm_eval8_write(hand, buf, DM_EVAL8_FILE_SIZE), DM_OK);
    dm_eval8_free(hand);
    randomise_patterns(buf, DM_EVAL8_FILE_SIZE, 8u * 6561u * 2u);
    return buf;
}

/* The search's hand evaluation of an 8x8 variant with no built-in weights is what
 * dm_engine_evaluate gives; the hand weights of v score every position as it does. */
static void expect_hand_is_engine_evaluate(dm_variant_id v)
{
    assert_null(dm_eval8_builtin(v));
    dm_eval8 *hand;
    assert_int_equal(dm_eval8_new_hand(&hand, v), DM_OK);
    int kings = 0;
    for (int i = 0; i < 1000; i++) {
        dm_board b = random_position_of(v, (int)(rnd() % 80));
        for (int sq = 1; sq <= 32; sq++) {
            kings +=
                dm_board_piece(&b, sq) == DM_WHITE_KING || dm_board_piece(&b, sq) == DM_BLACK_KING;
        }
        assert_int_equal(dm_eval8_score(hand, &b), dm_engine_evaluate(&b));
    }
    assert_true(kings > 0); /* the king terms were compared too */
    dm_eval8_free(hand);
}

/* Search nodes and score of b to depth 7 with weights ev. */
static dm_result search_with(dm_engine *e, const dm_eval8 *ev, const dm_board *b)
{
    dm_search_input in;
    dm_search_input_init(&in, b);
    dm_limits lim = {0};
    lim.depth = 7;
    dm_result r;
    dm_engine_clear(e);
    assert_int_equal(dm_engine_set_eval8(e, b->variant->id, ev), DM_OK);
    assert_int_equal(dm_engine_search(&r, e, &in, &lim, NULL, NULL, NULL), DM_OK);
    return r;
}

static void test_eval8__hand_is_the_search_evaluation(void **state)
{
    (void)state;
    /* Flying kings (300) and short kings (150). */
    expect_hand_is_engine_evaluate(DM_VARIANT_POOL);
    expect_hand_is_engine_evaluate(DM_VARIANT_ENGLISH);
    /* The other variants the evaluation is for: short kings (Italian, men that
     * cannot take kings), flying kings (Czech; Spanish and Portuguese on the turned
     * board; Thai, two rows of men, kings landing behind the piece taken). */
    expect_hand_is_engine_evaluate(DM_VARIANT_ITALIAN);
    expect_hand_is_engine_evaluate(DM_VARIANT_SPANISH);
    expect_hand_is_engine_evaluate(DM_VARIANT_PORTUGUESE);
    expect_hand_is_engine_evaluate(DM_VARIANT_THAI);
    expect_hand_is_engine_evaluate(DM_VARIANT_CZECH);
    /* Russian has built-in weights: its hand weights, read back from a file (plain
     * weights to the engine, evaluated by the pattern evaluation), search exactly as
     * the search's own hand evaluation. */
    dm_eval8 *hand, *plain;
    dm_error err;
    assert_int_equal(dm_eval8_new_hand(&hand, DM_VARIANT_RUSSIAN), DM_OK);
    assert_string_equal(dm_eval8_name(hand), "hand");
    assert_int_equal(dm_eval8_variant(hand), DM_VARIANT_RUSSIAN);
    unsigned char *buf = malloc(DM_EVAL8_FILE_SIZE);
    assert_int_equal(dm_eval8_write(hand, buf, DM_EVAL8_FILE_SIZE), DM_OK);
    assert_int_equal(dm_eval8_read(&plain, buf, DM_EVAL8_FILE_SIZE, DM_VARIANT_RUSSIAN, &err),
                     DM_OK);
    dm_engine *e;
    assert_int_equal(dm_engine_create(&e, NULL), DM_OK);
    for (int i = 0; i < 6; i++) {
        dm_board b = random_position(4 + 6 * i);
        dm_result r1 = search_with(e, hand, &b), r2 = search_with(e, plain, &b);
        assert_int_equal(r1.nodes, r2.nodes);
        assert_int_equal(r1.score, r2.score);
    }
    dm_engine_free(e);
    free(buf);
    dm_eval8_free(plain);
    dm_eval8_free(hand);
    dm_eval8 *x;
    assert_int_equal(dm_eval8_new_hand(&x, DM_VARIANT_INTERNATIONAL), DM_EINVAL);
    assert_int_equal(dm_eval8_new_hand(&x, DM_VARIANT_ANTIDRAUGHTS), DM_EINVAL);
    assert_true(dm_eval8_supports(DM_VARIANT_BRAZILIAN));
}

/* dm_engine_evaluate is the evaluation the search uses by default: for a variant
 * with built-in weights, those weights (issue 15), not the hand evaluation. */
static void test_eval8__engine_evaluate_uses_builtin(void **state)
{
    (void)state;
    static const dm_variant_id vs[] = {DM_VARIANT_RUSSIAN, DM_VARIANT_BRAZILIAN};
    for (size_t k = 0; k < sizeof vs / sizeof vs[0]; k++) {
        const dm_eval8 *bi = dm_eval8_builtin(vs[k]);
        assert_non_null(bi);
        dm_eval8 *hand;
        assert_int_equal(dm_eval8_new_hand(&hand, vs[k]), DM_OK);
        int differ = 0;
        for (int i = 0; i < 500; i++) {
            dm_board b = random_position_of(vs[k], (int)(rnd() % 60));
            assert_int_equal(dm_engine_evaluate(&b), dm_eval8_score(bi, &b));
            differ += dm_eval8_score(hand, &b) != dm_eval8_score(bi, &b);
        }
        assert_true(differ > 250); /* the trained weights are not the hand ones */
        dm_eval8_free(hand);
    }
}

static void test_eval8__colour_symmetry(void **state)
{
    (void)state;
    unsigned char *buf = random_weights_file_of(DM_VARIANT_RUSSIAN);
    dm_eval8 *ev;
    dm_error err;
    assert_int_equal(dm_eval8_read(&ev, buf, DM_EVAL8_FILE_SIZE, DM_VARIANT_RUSSIAN, &err), DM_OK);
    dm_eval8 *hand;
    assert_int_equal(dm_eval8_new_hand(&hand, DM_VARIANT_RUSSIAN), DM_OK);
    int differ = 0;
    for (int i = 0; i < 3000; i++) {
        dm_board b = random_position((int)(rnd() % 60));
        dm_board t = turned(&b);
        assert_int_equal(dm_eval8_score(ev, &b), dm_eval8_score(ev, &t));
        differ += dm_eval8_score(ev, &b) != dm_eval8_score(hand, &b);
    }
    assert_true(differ > 2000); /* the patterns were read */
    dm_eval8_free(ev);
    dm_eval8_free(hand);
    free(buf);
}

/* The 8x8 variants the evaluation is for (dm_eval8_supports): every variant of the 8x8
 * diagonal board whose game is won by taking or blocking the opponent's pieces. */
static const dm_variant_id supported8[] = {
    DM_VARIANT_BRAZILIAN, DM_VARIANT_RUSSIAN, DM_VARIANT_ENGLISH,
    DM_VARIANT_CZECH,     DM_VARIANT_ITALIAN, DM_VARIANT_SPANISH,
    DM_VARIANT_POOL,      DM_VARIANT_THAI,    DM_VARIANT_PORTUGUESE};
#define SUPPORTED8 (sizeof supported8 / sizeof supported8[0])

static int is_supported8(dm_variant_id v)
{
    for (size_t k = 0; k < SUPPORTED8; k++) {
        if (supported8[k] == v) {
            return 1;
        }
    }
    return 0;
}

/* The score of b for White (dm_eval8_score is the side to move's). */
static int white_score(const dm_eval8 *ev, const dm_board *b)
{
    int s = dm_eval8_score(ev, b);
    return b->side == DM_WHITE ? s : -s;
}

/* Exactly the listed variants are supported, and each of them is evaluated right:
 *  - orientation: in every variant White's men start on the high squares and step
 *    towards square 1 (turned boards, Italian, Spanish, Portuguese, are mirrored by
 *    the core; Thai's numbering from the bottom is translated in text only), which is
 *    the direction the evaluation's tempo and back row count: each first move of a
 *    White man scores +3 for White, less the 6 of the back row when it leaves it;
 *  - kings' value: a king on square 18 against a man there is worth 300 - 100 where
 *    kings fly (Russian, Brazilian, Czech, Spanish, Portuguese, pool, Thai) and
 *    150 - 100 where they step (English, Italian), plus 2 x 6 for the king's centre
 *    term and less the man's 3 x 3 rows advanced;
 *  - colour symmetry with random pattern weights of the variant;
 *  - the search: the hand weights given as plain weights (evaluated by the pattern
 *    evaluation on the variant's bitboards) search exactly as the search's own hand
 *    evaluation, and random weights change the search. */
static void test_eval8__every_supported_variant(void **state)
{
    (void)state;
    for (int v = 0; v < DM_VARIANT_COUNT; v++) {
        assert_int_equal(dm_eval8_supports((dm_variant_id)v), is_supported8((dm_variant_id)v));
    }
    assert_false(dm_eval8_supports((dm_variant_id)-1));
    assert_false(dm_eval8_supports(DM_VARIANT_COUNT));
    dm_engine *e;
    assert_int_equal(dm_engine_create(&e, NULL), DM_OK);
    for (size_t k = 0; k < SUPPORTED8; k++) {
        dm_variant_id v = supported8[k];
        const dm_variant *var = dm_variant_get(v);
        dm_eval8 *hand, *plain, *rand8;
        dm_error err;
        assert_int_equal(dm_eval8_new_hand(&hand, v), DM_OK);
        unsigned char *buf = malloc(DM_EVAL8_FILE_SIZE);
        assert_int_equal(dm_eval8_write(hand, buf, DM_EVAL8_FILE_SIZE), DM_OK);
        assert_int_equal(dm_eval8_read(&plain, buf, DM_EVAL8_FILE_SIZE, v, &err), DM_OK);
        unsigned char *rbuf = random_weights_file_of(v);
        assert_int_equal(dm_eval8_read(&rand8, rbuf, DM_EVAL8_FILE_SIZE, v, &err), DM_OK);

        /* Orientation and the men's forward direction. */
        dm_board start;
        dm_board_start(&start, var);
        int low_white = 33, high_black = 0, men = 0;
        for (int sq = 1; sq <= 32; sq++) {
            dm_piece p = dm_board_piece(&start, sq);
            men += p != DM_EMPTY;
            if (p == DM_WHITE_MAN && sq < low_white) {
                low_white = sq;
            }
            if (p == DM_BLACK_MAN && sq > high_black) {
                high_black = sq;
            }
        }
        assert_int_equal(men, 8 * var->men_rows);
        assert_true(high_black < low_white);
        start.side = DM_WHITE;
        dm_movelist list;
        int n = dm_movegen_legal(&list, &start);
        assert_true(n > 0);
        for (int i = 0; i < n; i++) {
            const dm_move *m = &list.moves[i];
            assert_int_equal(m->ncapt, 0);
            assert_int_equal((m->to - 1) / 4, (m->from - 1) / 4 - 1); /* one row up */
            dm_board after = start;
            dm_board_apply(&after, m);
            int gain = 3 - ((m->from - 1) / 4 == 7 ? 6 : 0);
            assert_int_equal(white_score(hand, &after) - white_score(hand, &start), gain);
            assert_int_equal(white_score(plain, &after) - white_score(plain, &start), gain);
        }

        /* Kings' value. */
        dm_board km, kk;
        dm_board_clear(&km, var);
        assert_int_equal(dm_board_put(&km, 2, DM_BLACK_MAN), DM_OK);
        kk = km;
        assert_int_equal(dm_board_put(&km, 18, DM_WHITE_MAN), DM_OK);
        assert_int_equal(dm_board_put(&kk, 18, DM_WHITE_KING), DM_OK);
        km.side = kk.side = DM_WHITE;
        int king = var->flying_kings ? 300 : 150;
        int expect = (king + 2 * 6) - (100 + 3 * 3);
        assert_int_equal(dm_eval8_score(hand, &kk) - dm_eval8_score(hand, &km), expect);
        assert_int_equal(dm_eval8_score(plain, &kk) - dm_eval8_score(plain, &km), expect);
        if (dm_eval8_builtin(v) == NULL) { /* what the engine evaluates by default */
            assert_int_equal(dm_engine_evaluate(&kk) - dm_engine_evaluate(&km), expect);
        }

        /* Colour symmetry. */
        int differ = 0;
        for (int i = 0; i < 300; i++) {
            dm_board b = random_position_of(v, (int)(rnd() % 60));
            dm_board t = turned(&b);
            assert_int_equal(dm_eval8_score(rand8, &b), dm_eval8_score(rand8, &t));
            assert_int_equal(dm_eval8_score(hand, &b), dm_eval8_score(hand, &t));
            differ += dm_eval8_score(rand8, &b) != dm_eval8_score(hand, &b);
        }
        assert_true(differ > 200);

        /* The search reads the weights it is given, on this variant's bitboards. */
        int changed = 0;
        for (int i = 0; i < 4; i++) {
            dm_board b = random_position_of(v, 4 + 8 * i);
            dm_result r1 = search_with(e, hand, &b), r2 = search_with(e, plain, &b);
            assert_int_equal(r1.nodes, r2.nodes);
            assert_int_equal(r1.score, r2.score);
            dm_result r3 = search_with(e, rand8, &b);
            changed += r3.nodes != r1.nodes || r3.score != r1.score;
        }
        assert_true(changed > 0);

        dm_eval8_free(rand8);
        dm_eval8_free(plain);
        dm_eval8_free(hand);
        free(rbuf);
        free(buf);
    }
    dm_engine_free(e);
}

static void expect_rejected(const unsigned char *data, size_t size, dm_variant_id v,
                            const char *why)
{
    dm_eval8 *ev = NULL;
    dm_error err;
    expect_parse_error(dm_eval8_read(&ev, data, size, v, &err), &err, why);
    assert_null(ev);
}

static void test_eval8__file(void **state)
{
    (void)state;
    unsigned char *buf = random_weights_file_of(DM_VARIANT_RUSSIAN);
    dm_eval8 *ev;
    dm_error err;
    char path[] = "/tmp/dm_eval8_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    /* Round trip through a file, and the variant read back from its header. */
    assert_int_equal(dm_eval8_read(&ev, buf, DM_EVAL8_FILE_SIZE, DM_VARIANT_RUSSIAN, &err), DM_OK);
    assert_int_equal(dm_eval8_save(ev, path, &err), DM_OK);
    assert_int_equal(dm_eval_file_variant(path, &err), DM_VARIANT_RUSSIAN);
    dm_eval8 *back;
    assert_int_equal(dm_eval8_load(&back, path, DM_VARIANT_RUSSIAN, &err), DM_OK);
    unsigned char *again = malloc(DM_EVAL8_FILE_SIZE);
    assert_int_equal(dm_eval8_write(back, again, DM_EVAL8_FILE_SIZE), DM_OK);
    assert_memory_equal(buf, again, DM_EVAL8_FILE_SIZE);
    assert_int_equal(dm_eval8_write(back, again, 100), DM_EBUFS);
    /* The Russian file is refused by the international reader and as Brazilian. */
    dm_eval *intl = NULL;
    assert_int_equal(dm_eval_load(&intl, path, &err), DM_EPARSE);
    assert_null(intl);
    assert_non_null(strstr(err.message, "variant 2"));
    assert_int_equal(dm_eval8_load(&ev, path, DM_VARIANT_BRAZILIAN, &err), DM_EPARSE);
    assert_non_null(strstr(err.message, "another variant"));
    assert_non_null(strstr(err.message, path));
    dm_eval8_free(ev);
    dm_eval8_free(back);
    /* International weights are refused by the 8x8 reader. */
    unsigned char *ib = malloc(DM_EVAL_FILE_SIZE);
    assert_int_equal(dm_eval_write(dm_eval_builtin(), ib, DM_EVAL_FILE_SIZE), DM_OK);
    expect_rejected(ib, DM_EVAL_FILE_SIZE, DM_VARIANT_RUSSIAN, "variant 0, expected variant 2");
    free(ib);
    /* Truncated, trailing bytes, damaged, another version, another shape, no header. */
    expect_rejected(buf, DM_EVAL8_FILE_SIZE - 1, DM_VARIANT_RUSSIAN, "truncated");
    expect_rejected(buf, 1000, DM_VARIANT_RUSSIAN, "truncated");
    expect_rejected(buf, 10, DM_VARIANT_RUSSIAN, "no DMEV header");
    unsigned char *big = calloc(DM_EVAL8_FILE_SIZE + 1, 1);
    memcpy(big, buf, DM_EVAL8_FILE_SIZE);
    expect_rejected(big, DM_EVAL8_FILE_SIZE + 1, DM_VARIANT_RUSSIAN, "trailing bytes");
    free(big);
    buf[1000] ^= 1;
    expect_rejected(buf, DM_EVAL8_FILE_SIZE, DM_VARIANT_RUSSIAN, "checksum");
    buf[1000] ^= 1;
    put32(buf + 4, 2);
    expect_rejected(buf, DM_EVAL8_FILE_SIZE, DM_VARIANT_RUSSIAN, "version 2");
    put32(buf + 4, 1);
    put32(buf + 20, 7);
    expect_rejected(buf, DM_EVAL8_FILE_SIZE, DM_VARIANT_RUSSIAN, "another shape");
    /* A truncated file on disk: refused, with its path. */
    FILE *f = fopen(path, "wb");
    put32(buf + 20, 6);
    fwrite(buf, 1, 5000, f);
    fclose(f);
    ev = NULL;
    assert_int_equal(dm_eval8_load(&ev, path, DM_VARIANT_RUSSIAN, &err), DM_EPARSE);
    assert_null(ev);
    assert_non_null(strstr(err.message, "truncated"));
    assert_int_equal(dm_eval8_load(&ev, "/nonexistent.dmev", DM_VARIANT_RUSSIAN, &err), DM_EIO);
    assert_int_equal(dm_eval_file_variant("/nonexistent.dmev", &err), -1);
    remove(path);
    free(again);
    free(buf);
}

static void test_eval8__samples(void **state)
{
    (void)state;
    unsigned char rec[DM_SAMPLE_RECORD_SIZE];
    dm_error err;
    for (int i = 0; i < 200; i++) {
        dm_sample8 s = {random_position((int)(rnd() % 70)), (int)(rnd() % 3) - 1,
                        (int)(rnd() % 2001) - 1000, (int)(rnd() % 300)};
        dm_sample8_encode(rec, &s);
        dm_sample8 d;
        assert_int_equal(dm_sample8_decode(&d, rec, DM_VARIANT_RUSSIAN, &err), DM_OK);
        assert_memory_equal(d.board.sq, s.board.sq, 33);
        assert_int_equal(d.board.side, s.board.side);
        assert_ptr_equal(d.board.variant, russian());
        assert_int_equal(d.result, s.result);
        assert_int_equal(d.score, s.score);
        assert_int_equal(d.ply, s.ply);
    }
    dm_sample8 d;
    memset(rec, 0, sizeof rec);
    rec[4] = 1; /* a White piece on square 33 */
    assert_int_equal(dm_sample8_decode(&d, rec, DM_VARIANT_RUSSIAN, &err), DM_EPARSE);
    assert_non_null(strstr(err.message, "beyond square 32"));

    /* A file of Russian samples: read with its variant; refused as Brazilian; a
     * record cut short keeps the whole ones before it. */
    char path[] = "/tmp/dm_sample8_XXXXXX";
    unsigned char hdr[DM_SAMPLE_HEADER_SIZE];
    dm_sample8_header(hdr, DM_VARIANT_RUSSIAN);
    dm_sample8 s = {random_position(12), 1, 50, 12};
    dm_sample8_encode(rec, &s);
    write_cut_sample_file(path, hdr, rec, 9);
    dm_sample8 *all = NULL;
    size_t n = 0, cap = 0;
    int v = -1;
    assert_int_equal(dm_sample8_read_file(&all, &n, &cap, &v, path, &err), DM_EPARSE);
    assert_int_equal(v, DM_VARIANT_RUSSIAN);
    assert_int_equal(n, 2);
    assert_non_null(strstr(err.message, "record 3"));
    v = DM_VARIANT_BRAZILIAN;
    assert_int_equal(dm_sample8_read_file(&all, &n, &cap, &v, path, &err), DM_EPARSE);
    assert_non_null(strstr(err.message, "variant 2, expected 1"));
    assert_int_equal(n, 2);
    remove(path);
    free(all);
}

/* Samples whose result follows the men of one region: White wins when it has more men
 * than Black on squares 13-20, loses when fewer. */
static size_t make_samples(dm_sample8 *s, size_t cap)
{
    size_t n = 0;
    while (n < cap) {
        dm_board b = random_position(6 + (int)(rnd() % 30));
        if (capture_pending(&b)) {
            continue;
        }
        int d = 0;
        for (int sq = 13; sq <= 20; sq++) {
            dm_piece p = dm_board_piece(&b, sq);
            d += (p == DM_WHITE_MAN) - (p == DM_BLACK_MAN);
        }
        s[n].board = b;
        s[n].result = region_result(d);
        s[n].score = 0;
        s[n].ply = 0;
        n++;
    }
    return n;
}

static void test_eval8__training(void **state)
{
    (void)state;
    enum {
        N = 5000
    };
    dm_sample8 *s = malloc(N * sizeof *s);
    assert_non_null(s);
    rng_state = 77;
    size_t n = make_samples(s, N);
    dm_train_options o = train_test_options(128, 5);
    dm_eval8 *hand, *a = NULL, *b = NULL;
    assert_int_equal(dm_eval8_new_hand(&hand, DM_VARIANT_RUSSIAN), DM_OK);
    double la, lb;
    double before = dm_eval8_loss(hand, s, n, &o);
    assert_int_equal(dm_eval8_train(&a, &la, NULL, DM_VARIANT_RUSSIAN, s, n, &o, NULL, NULL),
                     DM_OK);
    assert_int_equal(dm_eval8_train(&b, &lb, NULL, DM_VARIANT_RUSSIAN, s, n, &o, NULL, NULL),
                     DM_OK);
    expect_learned(before, dm_eval8_loss(a, s, n, &o), la);
    unsigned char *ba = malloc(DM_EVAL8_FILE_SIZE), *bb = malloc(DM_EVAL8_FILE_SIZE);
    dm_eval8_write(a, ba, DM_EVAL8_FILE_SIZE);
    dm_eval8_write(b, bb, DM_EVAL8_FILE_SIZE);
    assert_memory_equal(ba, bb, DM_EVAL8_FILE_SIZE);
    assert_int_equal(dm_eval8_variant(a), DM_VARIANT_RUSSIAN);
    /* Another seed: other weights. */
    dm_eval8_free(b);
    o.seed = 6;
    assert_int_equal(dm_eval8_train(&b, &lb, NULL, DM_VARIANT_RUSSIAN, s, n, &o, NULL, NULL),
                     DM_OK);
    dm_eval8_write(b, bb, DM_EVAL8_FILE_SIZE);
    assert_true(memcmp(ba, bb, DM_EVAL8_FILE_SIZE) != 0);
    /* Russian samples are not Brazilian samples; a start of another variant. */
    dm_eval8 *x = NULL;
    assert_int_equal(dm_eval8_train(&x, NULL, NULL, DM_VARIANT_BRAZILIAN, s, n, &o, NULL, NULL),
                     DM_EINVAL);
    assert_int_equal(dm_eval8_train(&x, NULL, a, DM_VARIANT_BRAZILIAN, NULL, 0, &o, NULL, NULL),
                     DM_EINVAL);
    assert_int_equal(dm_eval8_train(&x, NULL, NULL, DM_VARIANT_RUSSIAN, s, 0, &o, NULL, NULL),
                     DM_EINVAL);
    assert_null(x);

    /* The engine searches Russian with the weights it is given; the hand weights
     * select the hand evaluation; weights of another variant are refused. */
    dm_engine *e;
    assert_int_equal(dm_engine_create(&e, NULL), DM_OK);
    dm_board start;
    dm_board_start(&start, russian());
    dm_search_input in;
    dm_search_input_init(&in, &start);
    dm_limits lim = {0};
    lim.depth = 9;
    dm_result r1, r2, r3;
    assert_int_equal(dm_engine_set_eval8(e, DM_VARIANT_RUSSIAN, hand), DM_OK);
    assert_int_equal(dm_engine_search(&r1, e, &in, &lim, NULL, NULL, NULL), DM_OK);
    dm_engine_clear(e);
    assert_int_equal(dm_engine_set_eval8(e, DM_VARIANT_RUSSIAN, a), DM_OK);
    assert_int_equal(dm_engine_search(&r2, e, &in, &lim, NULL, NULL, NULL), DM_OK);
    assert_true(r1.nodes != r2.nodes || r1.score != r2.score);
    dm_engine_clear(e);
    assert_int_equal(dm_engine_set_eval8(e, DM_VARIANT_RUSSIAN, hand), DM_OK);
    assert_int_equal(dm_engine_search(&r3, e, &in, &lim, NULL, NULL, NULL), DM_OK);
    assert_int_equal(r1.nodes, r3.nodes);
    assert_int_equal(r1.score, r3.score);
    assert_int_equal(dm_engine_set_eval8(e, DM_VARIANT_BRAZILIAN, a), DM_EINVAL);
    assert_int_equal(dm_engine_set_eval8(e, DM_VARIANT_INTERNATIONAL, NULL), DM_EINVAL);
    dm_engine_free(e);

    free(ba);
    free(bb);
    dm_eval8_free(a);
    dm_eval8_free(b);
    dm_eval8_free(hand);
    free(s);
}

/* The committed weights of variant v (path) load, are the built-in ones byte for
 * byte, are refused as another variant's (other) or as international weights, and
 * the engine searches v with them by default (not with the hand evaluation). */
static void check_builtin(dm_variant_id v, dm_variant_id other, const char *path)
{
    const dm_eval8 *bi = dm_eval8_builtin(v);
    assert_non_null(bi);
    assert_int_equal(dm_eval8_variant(bi), v);
    assert_null(dm_eval8_builtin(DM_VARIANT_INTERNATIONAL));
    dm_eval8 *file;
    dm_error err;
    assert_int_equal(dm_eval_file_variant(path, &err), v);
    assert_int_equal(dm_eval8_load(&file, path, v, &err), DM_OK);
    assert_string_equal(dm_eval8_name(file), dm_eval8_name(bi));
    unsigned char *a = malloc(DM_EVAL8_FILE_SIZE), *b = malloc(DM_EVAL8_FILE_SIZE);
    assert_int_equal(dm_eval8_write(file, a, DM_EVAL8_FILE_SIZE), DM_OK);
    assert_int_equal(dm_eval8_write(bi, b, DM_EVAL8_FILE_SIZE), DM_OK);
    assert_memory_equal(a, b, DM_EVAL8_FILE_SIZE);
    dm_eval8 *x = NULL;
    assert_int_equal(dm_eval8_load(&x, path, other, &err), DM_EPARSE);
    dm_eval *ix = NULL;
    assert_int_equal(dm_eval_load(&ix, path, &err), DM_EPARSE);
    assert_null(x);
    assert_null(ix);

    dm_engine *e;
    assert_int_equal(dm_engine_create(&e, NULL), DM_OK);
    dm_board start;
    dm_board_start(&start, dm_variant_get(v));
    dm_search_input in;
    dm_search_input_init(&in, &start);
    dm_limits lim = {0};
    lim.depth = 9;
    dm_result r0, r1, r2;
    assert_int_equal(dm_engine_search(&r0, e, &in, &lim, NULL, NULL, NULL), DM_OK);
    dm_engine_clear(e);
    assert_int_equal(dm_engine_set_eval8(e, v, file), DM_OK);
    assert_int_equal(dm_engine_search(&r1, e, &in, &lim, NULL, NULL, NULL), DM_OK);
    assert_int_equal(r0.nodes, r1.nodes);
    assert_int_equal(r0.score, r1.score);
    dm_eval8 *hand;
    assert_int_equal(dm_eval8_new_hand(&hand, v), DM_OK);
    dm_engine_clear(e);
    assert_int_equal(dm_engine_set_eval8(e, v, hand), DM_OK);
    assert_int_equal(dm_engine_search(&r2, e, &in, &lim, NULL, NULL, NULL), DM_OK);
    assert_true(r0.nodes != r2.nodes || r0.score != r2.score);
    dm_engine_free(e);
    dm_eval8_free(hand);
    dm_eval8_free(file);
    free(a);
    free(b);
}

static void test_eval8__builtin_russian(void **state)
{
    (void)state;
    check_builtin(DM_VARIANT_RUSSIAN, DM_VARIANT_BRAZILIAN,
                  DM_SOURCE_DIR "/data/eval/russian.dmev");
}

static void test_eval8__builtin_brazilian(void **state)
{
    (void)state;
    check_builtin(DM_VARIANT_BRAZILIAN, DM_VARIANT_RUSSIAN,
                  DM_SOURCE_DIR "/data/eval/brazilian.dmev");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_eval8__hand_is_the_search_evaluation),
        cmocka_unit_test(test_eval8__engine_evaluate_uses_builtin),
        cmocka_unit_test(test_eval8__colour_symmetry),
        cmocka_unit_test(test_eval8__every_supported_variant),
        cmocka_unit_test(test_eval8__file),
        cmocka_unit_test(test_eval8__samples),
        cmocka_unit_test(test_eval8__training),
        cmocka_unit_test(test_eval8__builtin_russian),
        cmocka_unit_test(test_eval8__builtin_brazilian),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
