/* SPDX-License-Identifier: MIT
 * tests/unit/test_pdn_nomem.c: allocation failures in the PDN reader and writer. The
 * allocator fails on the Nth call, for N = 1, 2, ... until a whole read + write of a
 * rich text succeeds: every failure must come back as DM_ENOMEM (never swallowed),
 * never crash, and leave nothing allocated. malloc/calloc/realloc/free are replaced
 * in this test program (glibc's __libc_* do the work), so the sanitizer build, whose
 * runtime owns the allocator, skips the test. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <damier/pdn.h>

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__) || !defined(__GLIBC__)
#define NOMEM_SUPPORTED 0
#else
#define NOMEM_SUPPORTED 1

extern void *__libc_malloc(size_t n);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *p, size_t n);
extern void __libc_free(void *p);

static int active;      /* counting and failing only inside the window under test */
static long countdown;  /* the call that fails: 0 = this one */
static long live;       /* blocks allocated minus blocks freed inside the window */
static int failed_once; /* the injected failure happened */

static int fail_now(void)
{
    if (active && countdown-- == 0) {
        failed_once = 1;
        return 1;
    }
    return 0;
}

void *malloc(size_t n)
{
    if (fail_now()) {
        return NULL;
    }
    void *p = __libc_malloc(n);
    if (active && p) {
        live++;
    }
    return p;
}

void *calloc(size_t n, size_t size)
{
    if (fail_now()) {
        return NULL;
    }
    void *p = __libc_calloc(n, size);
    if (active && p) {
        live++;
    }
    return p;
}

void *realloc(void *old, size_t n)
{
    if (fail_now()) {
        return NULL;
    }
    void *p = __libc_realloc(old, n);
    if (active && p && !old) {
        live++;
    }
    return p;
}

void free(void *p)
{
    if (active && p) {
        live--;
    }
    __libc_free(p);
}
#endif

#if NOMEM_SUPPORTED
static const char text[] =
    "\xEF\xBB\xBF[Event \"m\\\"x\"]\r\n[White \"Ren\xE9\"]\r\n[Result \"4-6\"]\r\n\r\n"
    "{c} 1. 32-28! $3 (1. 33-28 {v} (1. 31-26) 1... 18-23) {a} 1... 19-23(?) 2. 28x19 ; x\n"
    "14x23 3. 37-32 . 4. 4-6\n\n[Event \"n\"]\n1. 32-28 2-0\n"
    "[Event \"bad\"]\n1. 32-28 {open { nested } *\n\n"
    "[FEN \"W:WK7:B12,21,22,39\"]\n1. 7x16 39-44 /FEN \"W:W45:B5\"/ 3. 45-40 *\n"
    "[Round 3]\n1. c3-d4 ... 1-0";

/* Read every game and write each one; returns how many DM_ENOMEM came back. */
static int read_and_write(int *games)
{
    int nomem = 0;
    *games = 0;
    dm_pdn_reader *r = NULL;
    dm_status st = dm_pdn_reader_new(&r, text, sizeof text - 1, "nomem.pdn");
    if (st != DM_OK) {
        assert_int_equal(st, DM_ENOMEM);
        assert_null(r);
        return 1;
    }
    for (;;) {
        dm_pdn_game *g = NULL;
        dm_error err;
        st = dm_pdn_reader_next(&g, r, &err);
        if (st == DM_EPARSE) {
            continue;
        }
        if (st == DM_ENOMEM) {
            assert_null(g);
            nomem++;
            /* the reader refuses to go on */
            assert_int_equal(dm_pdn_reader_next(&g, r, &err), DM_ESTATE);
            break;
        }
        assert_int_equal(st, DM_OK);
        if (!g) {
            break;
        }
        (*games)++;
        dm_pdn_replay rep;
        assert_int_equal(dm_pdn_replay_mainline(&rep, g), DM_OK);
        char *out = NULL;
        st = dm_pdn_write(&out, NULL, g, DM_NOTATION_PDN);
        if (st == DM_ENOMEM) {
            assert_null(out);
            nomem++;
        } else {
            assert_int_equal(st, DM_OK);
            free(out);
        }
        st = dm_pdn_game_set_tag(g, "Annotator", "x");
        if (st == DM_ENOMEM) {
            nomem++;
        } else {
            assert_int_equal(st, DM_OK);
        }
        dm_pdn_game_free(g);
    }
    dm_pdn_reader_free(r);
    return nomem;
}
#endif

static void test_pdn_nomem__every_allocation_failure_is_reported(void **state)
{
    (void)state;
#if !NOMEM_SUPPORTED
    print_message("skipped: the allocator cannot be replaced in this build\n");
    skip();
#else
    int games = 0;
    long n;
    for (n = 0; n < 100000; n++) {
        countdown = n;
        live = 0;
        failed_once = 0;
        active = 1;
        int nomem = read_and_write(&games);
        active = 0;
        if (live != 0) {
            fail_msg("allocation %ld failing leaves %ld blocks allocated", n, live);
        }
        if (!failed_once) {
            assert_int_equal(nomem, 0);
            break; /* every allocation succeeded: all failure points were visited */
        }
        if (nomem == 0) {
            fail_msg("allocation %ld failed but no DM_ENOMEM came back", n);
        }
    }
    assert_int_equal(games, 4); /* and one unreadable game */
    assert_true(n > 50);
    print_message("%ld allocation failure points checked\n", n);
#endif
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pdn_nomem__every_allocation_failure_is_reported),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
