/* SPDX-License-Identifier: MIT
 * tests/unit/test_book.c: the opening book (damier/book.h): the file format (round
 * trip, every rejection), probing and choosing moves, the built-in book, a session
 * that plays from a book (and searches without one, or when analysing) and the Hub
 * `book` parameter (a bad file is refused, the book in use stays). */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

#include <cmocka.h>

#include <damier/book.h>
#include <damier/engine.h>
#include <damier/hub.h>
#include "core/move10.h"
#include <damier/session.h>

static uint32_t fnv1a(const unsigned char *p, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++) {
        h = (h ^ p[i]) * 16777619u;
    }
    return h;
}

static void put32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++) {
        p[i] = (unsigned char)(v >> (8 * i));
    }
}

/* The legal move from-to of b (an ordinary move). */
static dm_move10 find_move(const dm_board10 *b, int from, int to)
{
    dm_movelist10 l;
    dm_movegen10_legal(&l, b);
    for (int i = 0; i < l.count; i++) {
        if (l.moves[i].from == from && l.moves[i].to == to) {
            return l.moves[i];
        }
    }
    fail_msg("no move %d-%d", from, to);
    return l.moves[0];
}

/* A book of the initial position: 31-26 (weight 10), 34-30 (weight 30) and an entry
 * that is not legal there (46-41: a hash collision to skip); then one move of the
 * position after 34-30 (20-25, for Black). Written into a malloc'ed buffer. */
/* The session's move (of its generic position) is the fast board's move m: the same
 * from, to and captured squares. */
static int same_fast(const dm_move *v, const dm_move10 *m)
{
    int sq[DM_MAX_CAPT];
    int n = dm_move10_captured(m, sq, DM_MAX_CAPT);
    if (v->from != m->from || v->to != m->to || v->ncapt != n) {
        return 0;
    }
    for (int i = 0; i < n; i++) {
        if (!dm_move_captures(v, sq[i])) {
            return 0;
        }
    }
    return 1;
}

static unsigned char *small_book(size_t *size)
{
    dm_board10 b;
    dm_board10_start(&b);
    dm_board10 after = b;
    dm_move10 m = find_move(&b, 34, 30);
    dm_board10_apply(&after, &m);
    const dm_book_entry e[] = {
        {after.hash, 0, 20, 25, 5, 3, 9}, {b.hash, 0, 31, 26, 10, -4, 12},
        {b.hash, 0, 46, 41, 50, 0, 12},   {b.hash, 0, 34, 30, 30, 2, 12},
        {b.hash, 0, 34, 30, 7, 1, 12}, /* the same move again: dropped */
    };
    assert_int_equal(dm_book_write(e, 5, "small", NULL, 0, size), DM_EBUFS);
    assert_int_equal(*size, DM_BOOK_HEADER_SIZE + 4 * DM_BOOK_ENTRY_SIZE + 4);
    unsigned char *buf = malloc(*size);
    assert_non_null(buf);
    assert_int_equal(dm_book_write(e, 5, "small", buf, *size, size), DM_OK);
    return buf;
}

static void test_book__round_trip_and_probe(void **state)
{
    (void)state;
    size_t size;
    unsigned char *buf = small_book(&size);
    dm_book *bk = NULL;
    dm_error err;
    assert_int_equal(dm_book_read(&bk, buf, size, &err), DM_OK);
    assert_string_equal(dm_book_name(bk), "small");
    assert_int_equal(dm_book_entries(bk), 4);
    const dm_variant *intl = dm_variant_get(DM_VARIANT_INTERNATIONAL);
    dm_board10 b;
    dm_board10_start(&b);
    dm_board gb;
    dm_board_start(&gb, intl);
    dm_book_move mv[DM_BOOK_MAX_MOVES];
    int n = dm_book_probe(bk, &gb, mv, DM_BOOK_MAX_MOVES);
    assert_int_equal(n, 2); /* 46-41 is not legal: skipped */
    assert_int_equal(mv[0].move.from, 34);
    assert_int_equal(mv[0].weight, 30);
    assert_int_equal(mv[0].score, 2);
    assert_int_equal(mv[1].move.from, 31);
    assert_int_equal(mv[1].score, -4);
    assert_int_equal(mv[1].depth, 12);
    dm_book_move pick;
    assert_int_equal(dm_book_pick(bk, &gb, 0, &pick), 1);
    assert_int_equal(pick.move.from, 34); /* seed 0: the highest weight */
    int seen31 = 0, seen34 = 0;
    for (uint64_t seed = 1; seed <= 200; seed++) {
        assert_int_equal(dm_book_pick(bk, &gb, seed, &pick), 1);
        seen31 += pick.move.from == 31;
        seen34 += pick.move.from == 34;
        dm_book_move again;
        dm_book_pick(bk, &gb, seed, &again);
        assert_int_equal(again.move.from, pick.move.from);
        assert_int_equal(again.move.to, pick.move.to);
    }
    assert_int_equal(seen31 + seen34, 200);
    assert_true(seen31 > 20 && seen34 > seen31); /* about 1 in 4 and 3 in 4 */
    /* Black's move after 34-30; nothing after 31-26 */
    dm_board gafter = gb;
    dm_board_apply(&gafter, &mv[0].move);
    assert_int_equal(dm_book_probe(bk, &gafter, mv, DM_BOOK_MAX_MOVES), 1);
    assert_int_equal(mv[0].move.from, 20);
    dm_board10 after = b;
    dm_move10 m = find_move(&b, 31, 26);
    dm_board10_apply(&after, &m);
    assert_int_equal(dm_board_from_board10(&gafter, intl, &after), DM_OK);
    assert_int_equal(dm_book_pick(bk, &gafter, 1, &pick), 0);
    assert_int_equal(dm_book_probe(NULL, &gb, mv, DM_BOOK_MAX_MOVES), 0);
    /* the book is international draughts': a Russian position is not in it */
    dm_board russian;
    dm_board_start(&russian, dm_variant_get(DM_VARIANT_RUSSIAN));
    assert_int_equal(dm_book_probe(bk, &russian, mv, DM_BOOK_MAX_MOVES), 0);
    assert_int_equal(dm_book_pick(bk, &russian, 0, &pick), 0);
    dm_book_free(bk);

    /* a file on disk */
    char path[] = "/tmp/test_book_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    dm_board10_start(&b);
    const dm_book_entry one = {b.hash, 0, 32, 28, 1, 0, 1};
    assert_int_equal(dm_book_save(&one, 1, "one", path, &err), DM_OK);
    assert_int_equal(dm_book_load(&bk, path, &err), DM_OK);
    assert_int_equal(dm_book_pick(bk, &gb, 0, &pick), 1);
    assert_int_equal(pick.move.from, 32);
    assert_int_equal(pick.move.to, 28);
    dm_book_free(bk);
    remove(path);
    free(buf);
}

static void expect_reject(const unsigned char *data, size_t size, const char *why)
{
    dm_book *bk = (dm_book *)0x1; /* untouched on error */
    dm_error err;
    assert_int_equal(dm_book_read(&bk, data, size, &err), DM_EPARSE);
    assert_ptr_equal(bk, (dm_book *)0x1);
    if (!strstr(err.message, why)) {
        fail_msg("'%s' does not say '%s'", err.message, why);
    }
}

static void test_book__file_rejections(void **state)
{
    (void)state;
    size_t size;
    unsigned char *buf = small_book(&size);
    unsigned char *bad = malloc(size + 8);
    assert_non_null(bad);
    expect_reject(buf, size - 1, "truncated");
    expect_reject(buf, 20, "not a damier book");
    memcpy(bad, buf, size);
    bad[size] = 0;
    expect_reject(bad, size + 1, "trailing bytes");
    memcpy(bad, buf, size);
    bad[0] = 'X';
    expect_reject(bad, size, "not a damier book");
    memcpy(bad, buf, size);
    put32(bad + 4, 2);
    put32(bad + size - 4, fnv1a(bad, size - 4));
    expect_reject(bad, size, "version 2");
    memcpy(bad, buf, size);
    put32(bad + 8, 3);
    put32(bad + size - 4, fnv1a(bad, size - 4));
    expect_reject(bad, size, "variant 3");
    memcpy(bad, buf, size);
    bad[DM_BOOK_HEADER_SIZE + 17] ^= 1; /* a move's square, checksum not fixed */
    expect_reject(bad, size, "checksum");
    memcpy(bad, buf, size);
    bad[DM_BOOK_HEADER_SIZE + 16] = 51; /* from square 51 */
    put32(bad + size - 4, fnv1a(bad, size - 4));
    expect_reject(bad, size, "bad move");
    memcpy(bad, buf, size);
    memset(bad + DM_BOOK_HEADER_SIZE, 0xff, 8); /* the first key: larger than the next */
    put32(bad + size - 4, fnv1a(bad, size - 4));
    expect_reject(bad, size, "out of order");
    dm_book *bk;
    dm_error err;
    assert_int_equal(dm_book_load(&bk, "/nonexistent/book.dmbk", &err), DM_EIO);
    assert_non_null(strstr(err.message, "/nonexistent/book.dmbk"));
    /* a bad entry is not written */
    const dm_book_entry e = {1, 0, 0, 28, 1, 0, 1};
    size_t need;
    assert_int_equal(dm_book_write(&e, 1, "x", NULL, 0, &need), DM_EINVAL);
    free(bad);
    free(buf);
}

static void test_book__builtin(void **state)
{
    (void)state;
    const dm_book *bk = dm_book_builtin();
    assert_non_null(bk);
    assert_true(dm_book_entries(bk) > 0);
    assert_true(strlen(dm_book_name(bk)) > 0);
    dm_board b;
    dm_board_start(&b, dm_variant_get(DM_VARIANT_INTERNATIONAL));
    dm_book_move mv[DM_BOOK_MAX_MOVES];
    int n = dm_book_probe(bk, &b, mv, DM_BOOK_MAX_MOVES);
    assert_true(n >= 1);
    /* every book move of the initial position is legal, and so is the reply */
    for (int i = 0; i < n; i++) {
        dm_movelist l;
        dm_movegen_legal(&l, &b);
        int legal = 0;
        for (int k = 0; k < l.count; k++) {
            legal |= l.moves[k].from == mv[i].move.from && l.moves[k].to == mv[i].move.to &&
                     l.moves[k].capt[0] == mv[i].move.capt[0];
        }
        assert_true(legal);
        assert_true(mv[i].weight > 0);
    }
    dm_board after = b;
    dm_board_apply(&after, &mv[0].move);
    dm_book_move reply;
    assert_int_equal(dm_book_pick(bk, &after, 0, &reply), 1);
    dm_book_free((dm_book *)bk); /* the built-in book is never freed */
    assert_true(dm_book_entries(dm_book_builtin()) > 0);
}

/* A session's search from the initial position at depth 2: with a book holding one
 * move that the search does not choose, that move; without the book and when
 * analysing, the engine's move. */
static void test_book__session_plays_book_move(void **state)
{
    (void)state;
    dm_board10 b;
    dm_board10_start(&b);
    dm_move10 engine_move;
    {
        dm_engine *e;
        assert_int_equal(dm_engine_create(&e, NULL), DM_OK);
        dm_search_input in;
        memset(&in, 0, sizeof in);
        dm_board_from_board10(&in.root, dm_variant_get(DM_VARIANT_INTERNATIONAL), &b);
        dm_limits lim = {0};
        lim.depth = 2;
        dm_result r;
        assert_int_equal(dm_engine_search(&r, e, &in, &lim, NULL, NULL, NULL), DM_OK);
        assert_int_equal(dm_move_to_move10(&engine_move, &b, &r.best), DM_OK);
        dm_engine_free(e);
    }
    /* a book move that is not the engine's */
    dm_movelist10 l;
    dm_movegen10_legal(&l, &b);
    dm_move10 other = l.moves[0];
    for (int i = 0; i < l.count; i++) {
        if (!dm_move10_equal(&l.moves[i], &engine_move)) {
            other = l.moves[i];
            break;
        }
    }
    assert_false(dm_move10_equal(&other, &engine_move));
    const dm_book_entry one = {b.hash, 0, other.from, other.to, 1, 7, 3};
    size_t size;
    assert_int_equal(dm_book_write(&one, 1, "one", NULL, 0, &size), DM_EBUFS);
    unsigned char *buf = malloc(size);
    assert_non_null(buf);
    assert_int_equal(dm_book_write(&one, 1, "one", buf, size, &size), DM_OK);
    dm_book *bk;
    assert_int_equal(dm_book_read(&bk, buf, size, NULL), DM_OK);

    dm_session *s;
    assert_int_equal(dm_session_create(&s, NULL, NULL), DM_OK);
    dm_session_go_options go = DM_SESSION_GO_INIT;
    go.limits.depth = 2;
    dm_result r;
    /* no book: the search */
    assert_int_equal(dm_session_go(s, &go, NULL), DM_OK);
    assert_int_equal(dm_session_wait(s, &r), DM_OK);
    assert_true(same_fast(&r.best, &engine_move));
    /* the book */
    assert_int_equal(dm_session_set_book(s, bk, 5), DM_OK);
    assert_int_equal(dm_session_go(s, &go, NULL), DM_OK);
    assert_int_equal(dm_session_wait(s, &r), DM_OK);
    assert_true(r.has_move);
    assert_true(same_fast(&r.best, &other));
    assert_int_equal(r.score, 7);
    assert_int_equal(r.depth, 3);
    assert_int_equal(r.nodes, 0);
    /* analysing searches */
    go.limits.analyse = 1;
    assert_int_equal(dm_session_go(s, &go, NULL), DM_OK);
    assert_int_equal(dm_session_wait(s, &r), DM_OK);
    assert_true(same_fast(&r.best, &engine_move));
    /* the book off again */
    go.limits.analyse = 0;
    assert_int_equal(dm_session_set_book(s, NULL, 0), DM_OK);
    assert_int_equal(dm_session_go(s, &go, NULL), DM_OK);
    assert_int_equal(dm_session_wait(s, &r), DM_OK);
    assert_true(same_fast(&r.best, &engine_move));
    dm_session_free(s);
    dm_book_free(bk);
    free(buf);
}

static char reply[8192];

static void feed(dm_hub_session *s, const char *line)
{
    dm_hub_action a;
    assert_int_equal(dm_hub_session_feed(s, line, &a, reply, sizeof reply), DM_OK);
}

static void test_book__hub_param(void **state)
{
    (void)state;
    dm_hub_session *s;
    assert_int_equal(dm_hub_session_create(&s, NULL, NULL), DM_OK);
    feed(s, "hub");
    assert_non_null(strstr(reply, "\nparam name=book value=off type=string\n"));
    assert_non_null(strstr(reply, "\nparam name=book-random value=true type=bool\n"));
    feed(s, "set-param name=book value=builtin");
    assert_string_equal(reply, "");
    /* a truncated book file: refused, the built-in book stays */
    size_t size;
    unsigned char *buf = small_book(&size);
    char path[] = "/tmp/test_book_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, buf, size - 3), (long)(size - 3));
    close(fd);
    char line[256];
    snprintf(line, sizeof line, "set-param name=book value=%s", path);
    feed(s, line);
    assert_non_null(strstr(reply, "error message=\"set-param book: "));
    assert_non_null(strstr(reply, "truncated"));
    assert_non_null(strstr(reply, "with the previous book"));
    feed(s, "hub");
    assert_non_null(strstr(reply, "\nparam name=book value=builtin type=string\n"));
    /* the whole file is taken */
    fd = open(path, O_WRONLY | O_TRUNC);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, buf, size), (long)size);
    close(fd);
    feed(s, line);
    assert_string_equal(reply, "");
    feed(s, "set-param name=book value=off");
    assert_string_equal(reply, "");
    feed(s, "hub");
    assert_non_null(strstr(reply, "\nparam name=book value=off type=string\n"));
    feed(s, "set-param name=book-random value=maybe");
    assert_non_null(strstr(reply, "error message=\"set-param book-random"));
    dm_hub_session_free(s);
    remove(path);
    free(buf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_book__round_trip_and_probe),
        cmocka_unit_test(test_book__file_rejections),
        cmocka_unit_test(test_book__builtin),
        cmocka_unit_test(test_book__session_plays_book_move),
        cmocka_unit_test(test_book__hub_param),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
