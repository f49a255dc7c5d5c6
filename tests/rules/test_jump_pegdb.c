/* SPDX-License-Identifier: MIT
 * tests/rules/test_jump_pegdb.c: the last pegs' table (dm_jpegdb, damier/jump.h) against
 * an independent brute force kept here: a forward breadth-first search from the
 * position itself over the rules' own move generator (dm_jmovegen on a dm_jpos),
 * until every peg stands in the target; hand-made distances that can be stated;
 * the table's consistency (a set at distance d > 0 has a move to d - 1 and none
 * lower); pegs held still; the race test and the engine's use of the table. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <damier/jump.h>

static dm_jrules R; /* large: not on the stack */
static dm_jmovelist L;

static void rules(dm_jgame g, int size, unsigned opt)
{
    dm_error err;
    assert_int_equal(dm_jrules_init(&R, g, 2, size, opt, &err), DM_OK);
}

static int has(const dm_jset *s, int i)
{
    return (int)((s->w[i >> 6] >> (i & 63)) & 1u);
}

static void add(dm_jset *s, int i)
{
    s->w[i >> 6] |= (uint64_t)1 << (i & 63);
}

static void del(dm_jset *s, int i)
{
    s->w[i >> 6] &= ~((uint64_t)1 << (i & 63));
}

static void pos(dm_jpos *p, const char *text)
{
    dm_error err;
    if (dm_jpos_from_text(p, &R, text, &err) != DM_OK) {
        fail_msg("%s: %s", text, err.message);
    }
}

/* The brute force: pegs (1..3 squares of seat 0, `fixed` held still as seat 1's
 * pegs that never move) searched forward, move by move, with the rules' generator,
 * until all of seat 0's pegs stand in its target. The visited states are kept by the
 * squares themselves (sq[0] * n^2 + sq[1] * n + sq[2], unordered: one state may be
 * seen under several keys, which costs time, not correctness). Returns the moves,
 * or -1 when the goal is not reached. */
static int brute(const int *start, int k, const dm_jset *fixed)
{
    int n = R.squares;
    size_t states = (size_t)n * n * n;
    uint8_t *seen = calloc(states, 1);
    int(*queue)[3] = malloc(sizeof *queue * states);
    assert_non_null(seen);
    assert_non_null(queue);
    size_t head = 0, tail = 0;
    int depth_end = 1, depth = 0, found = -1;
    int first[3] = {start[0], k > 1 ? start[1] : 0, k > 2 ? start[2] : 0};
    memcpy(queue[tail++], first, sizeof first);
    seen[(size_t)first[0] * n * n + (size_t)first[1] * n + first[2]] = 1;
    size_t level_end = tail;
    (void)depth_end;
    while (head < tail && found < 0) {
        if (head == level_end) {
            depth++;
            level_end = tail;
        }
        int *c = queue[head++];
        dm_jpos p;
        memset(&p, 0, sizeof p);
        p.won = -1;
        int in = 0;
        for (int i = 0; i < k; i++) {
            add(&p.pieces[0], c[i]);
            in += has(&R.target[0], c[i]);
        }
        if (in == k) {
            found = depth;
            break;
        }
        if (fixed) {
            p.pieces[1] = *fixed;
        }
        int m = dm_jmovegen(&L, &R, &p);
        for (int j = 0; j < m; j++) {
            int d[3] = {c[0], c[1], c[2]};
            for (int i = 0; i < k; i++) {
                if (d[i] == L.moves[j].from) {
                    d[i] = L.moves[j].to;
                }
            }
            size_t key = (size_t)d[0] * n * n + (size_t)(k > 1 ? d[1] : 0) * n + (k > 2 ? d[2] : 0);
            if (!seen[key]) {
                seen[key] = 1;
                memcpy(queue[tail++], d, sizeof d);
            }
        }
    }
    free(seen);
    free(queue);
    return found;
}

static int table(const dm_jpegdb *db, const int *c, int k)
{
    dm_jset s = {{0, 0, 0, 0}};
    for (int i = 0; i < k; i++) {
        add(&s, c[i]);
    }
    return dm_jpegdb_distance(db, &s);
}

static uint64_t rng = 88172645463325252ull;
static int rnd(int n)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (int)(rng % (uint64_t)n);
}

/* k distinct random squares, none in fixed. */
static void random_set(int *c, int k, const dm_jset *fixed)
{
    for (int i = 0; i < k; i++) {
        int again;
        do {
            c[i] = rnd(R.squares);
            again = fixed && has(fixed, c[i]);
            for (int j = 0; j < i; j++) {
                again |= c[j] == c[i];
            }
        } while (again);
    }
}

static void test_hand_made(void **state)
{
    (void)state;
    rules(DM_JGAME_CHINESE, 0, 0);
    dm_jpegdb db;
    dm_error err;
    assert_int_equal(dm_jpegdb_build(&db, &R, 0, 1, NULL, &err), DM_OK);
    /* seat A goes from the bottom point (112-121) to the top one (1-10); a peg alone
     * can only step: from its home tip 121 (row 16) to the target's row 3 (7-10),
     * one row a step, 13 moves; from 15 (row 4) one step up to 7, 1 move; from 11
     * (row 4, its left end, no neighbour in the target) the star's distance to the
     * nearest target hole 7 is 5 moves; already home, 0 */
    assert_int_equal(table(&db, (int[]){120}, 1), 13);
    assert_int_equal(table(&db, (int[]){14}, 1), 1);
    assert_int_equal(table(&db, (int[]){10}, 1), 5);
    assert_int_equal(table(&db, (int[]){0}, 1), 0);
    assert_int_equal(db.max, 13);
    dm_jpegdb_free(&db);
    /* two pegs one behind the other on a line into the target: 30 (row 5) behind 17
     * (row 4), which stands in front of the target hole 8: each needs a move, and two
     * do it: 30 jumps over 17 to 8, then 17 steps to 9 */
    assert_int_equal(dm_jpegdb_build(&db, &R, 0, 2, NULL, &err), DM_OK);
    int pair[2] = {16, 29}; /* holes 17 and 30 */
    assert_int_equal(brute(pair, 2, NULL), 2);
    assert_int_equal(table(&db, pair, 2), 2);
    assert_int_equal(table(&db, (int[]){0, 1}, 2), 0);
    assert_int_equal(table(&db, (int[]){0, 0}, 2), -1); /* one square: not two pegs */
    dm_jpegdb_free(&db);
}

static void test_against_brute_force(void **state)
{
    (void)state;
    dm_error err;
    dm_jpegdb db;
    rules(DM_JGAME_CHINESE, 0, 0);
    assert_int_equal(dm_jpegdb_build(&db, &R, 0, 1, NULL, &err), DM_OK);
    for (int s = 0; s < R.squares; s++) {
        assert_int_equal(table(&db, &s, 1), brute(&s, 1, NULL));
    }
    dm_jpegdb_free(&db);
    assert_int_equal(dm_jpegdb_build(&db, &R, 0, 2, NULL, &err), DM_OK);
    for (int t = 0; t < 40; t++) {
        int c[2];
        random_set(c, 2, NULL);
        assert_int_equal(table(&db, c, 2), brute(c, 2, NULL));
    }
    dm_jpegdb_free(&db);
    /* Halma 8x8, three pegs of seat A (a1 to h8) */
    rules(DM_JGAME_HALMA, 8, 0);
    assert_int_equal(dm_jpegdb_build(&db, &R, 0, 3, NULL, &err), DM_OK);
    for (int t = 0; t < 30; t++) {
        int c[3];
        random_set(c, 3, NULL);
        assert_int_equal(table(&db, c, 3), brute(c, 3, NULL));
    }
    dm_jpegdb_free(&db);
    /* held pegs: 8 of seat A's target pegs still, two to bring in (and the super jump) */
    rules(DM_JGAME_CHINESE, 0, DM_JOPT_SUPER_JUMP);
    dm_jset fixed = R.target[0];
    del(&fixed, 6);
    del(&fixed, 3);
    assert_int_equal(dm_jpegdb_build(&db, &R, 0, 2, &fixed, &err), DM_OK);
    for (int t = 0; t < 30; t++) {
        int c[2];
        random_set(c, 2, &fixed);
        assert_int_equal(table(&db, c, 2), brute(c, 2, &fixed));
    }
    assert_int_equal(table(&db, (int[]){3, 6}, 2), 0);
    assert_int_equal(table(&db, (int[]){0, 6}, 2), -1); /* 1 is held */
    dm_jpegdb_free(&db);
}

/* Every set at distance d > 0 has a move (the rules' generator) to a set at d - 1
 * and none to a set below it; the sets at 0 are the goal; all: no set is unreached,
 * else some are, and no move leads from them to a reached set. */
static void consistent(const dm_jpegdb *db, const dm_jset *fixed, int all)
{
    long unreached = 0;
    int k = db->k, n = R.squares, c[3] = {0, 0, 0};
    long checked = 0;
    for (c[0] = 0; c[0] < n; c[0]++) {
        for (c[1] = k > 1 ? c[0] + 1 : n - 1; c[1] < n; c[1]++) {
            int d = table(db, c, k);
            if (has(fixed, c[0]) || (k > 1 && has(fixed, c[1]))) {
                assert_int_equal(d, -1);
                continue;
            }
            if (d < 0 && all) {
                fail_msg("unreached: %d %d (k %d)", c[0] + 1, c[1] + 1, k);
            }
            int in = 0;
            dm_jpos p;
            memset(&p, 0, sizeof p);
            p.won = -1;
            p.pieces[1] = *fixed;
            for (int i = 0; i < k; i++) {
                add(&p.pieces[0], c[i]);
                in += has(&R.target[0], c[i]);
            }
            assert_int_equal(d == 0, in == k && d >= 0);
            int m = dm_jmovegen(&L, &R, &p), down = 0;
            for (int j = 0; j < m; j++) {
                dm_jset s = p.pieces[0];
                del(&s, L.moves[j].from);
                add(&s, L.moves[j].to);
                int e = dm_jpegdb_distance(db, &s);
                /* unreached: so is every set one move away (moves are reversible) */
                assert_true(d < 0 ? e == -1 : e >= d - 1);
                down |= e == d - 1;
            }
            assert_true(d <= 0 || down);
            unreached += d < 0;
            checked++;
        }
    }
    assert_true(checked > 0);
    if (!all) {
        assert_true(unreached > 0);
    }
}

static void test_consistency(void **state)
{
    (void)state;
    dm_error err;
    dm_jpegdb db;
    dm_jset none = {{0, 0, 0, 0}};
    rules(DM_JGAME_CHINESE, 0, 0);
    assert_int_equal(dm_jpegdb_build(&db, &R, 0, 2, NULL, &err), DM_OK);
    consistent(&db, &none, 1);
    dm_jpegdb_free(&db);
    /* the tip 1 and the hole 9 of row 3 to fill, 2-8 and 10 held: the tip cannot be
     * reached (its neighbours 2 and 3 are held, and so are 4 and 6 beyond them) */
    dm_jset fixed = R.target[0];
    del(&fixed, 0);
    del(&fixed, 8);
    assert_int_equal(dm_jpegdb_build(&db, &R, 0, 2, &fixed, &err), DM_OK);
    consistent(&db, &fixed, 0);
    assert_int_equal(table(&db, (int[]){8, 10}, 2), -1);
    dm_jpegdb_free(&db);
    fixed = R.target[0];
    del(&fixed, 6); /* 7 and 9 of row 3 to fill: reachable from everywhere */
    del(&fixed, 8);
    assert_int_equal(dm_jpegdb_build(&db, &R, 0, 2, &fixed, &err), DM_OK);
    consistent(&db, &fixed, 1);
    dm_jpegdb_free(&db);
    rules(DM_JGAME_HALMA, 8, 0);
    assert_int_equal(dm_jpegdb_build(&db, &R, 0, 2, NULL, &err), DM_OK);
    consistent(&db, &none, 1);
    dm_jpegdb_free(&db);
    /* no-foreign-corner: a seat never ends a move in the side points, so a peg there
     * is no position of the game: unreached; elsewhere the brute force agrees */
    rules(DM_JGAME_CHINESE, 0, DM_JOPT_NO_FOREIGN_CORNER);
    assert_int_equal(dm_jpegdb_build(&db, &R, 0, 1, NULL, &err), DM_OK);
    int side = 0;
    for (int s = 0; s < R.squares; s++) {
        int foreign = has(&R.corners, s) && !has(&R.home[0], s) && !has(&R.target[0], s);
        side += foreign;
        assert_int_equal(table(&db, &s, 1), foreign ? -1 : brute(&s, 1, NULL));
    }
    assert_int_equal(side, 40);
    dm_jpegdb_free(&db);
}

static void test_errors(void **state)
{
    (void)state;
    dm_error err;
    dm_jpegdb db;
    rules(DM_JGAME_CHINESE, 0, 0);
    assert_int_equal(dm_jpegdb_build(&db, &R, 0, 5, NULL, &err), DM_EINVAL);
    assert_non_null(strstr(err.message, "1..4"));
    assert_int_equal(dm_jpegdb_build(&db, &R, 2, 1, NULL, &err), DM_EINVAL);
    dm_jset fixed = R.target[0];
    del(&fixed, 0);
    assert_int_equal(dm_jpegdb_build(&db, &R, 0, 2, &fixed, &err), DM_EINVAL);
    assert_non_null(strstr(err.message, "1 free target"));
    rules(DM_JGAME_HALMA, 16, 0);
    assert_int_equal(dm_jpegdb_build(&db, &R, 0, 4, NULL, &err), DM_EINVAL);
    assert_non_null(strstr(err.message, "more than"));
    assert_int_equal(dm_jrules_init(&R, DM_JGAME_CHINESE, 2, 0, DM_JOPT_CAPTURE, &err), DM_OK);
    assert_int_equal(dm_jpegdb_build(&db, &R, 0, 1, NULL, &err), DM_EINVAL);
    assert_int_equal(dm_jrules_init(&R, DM_JGAME_GEWU, 2, 0, 0, &err), DM_OK);
    assert_int_equal(dm_jpegdb_build(&db, &R, 0, 1, NULL, &err), DM_EINVAL);
    dm_jpegdb_free(&db); /* zeroed by the failed build: safe */
}

/* The race and the engine: seat A's last three pegs outside its target, seat B's
 * pegs all behind them; playing the table's moves A finishes in exactly the
 * distance the table gave, whatever B (greedy) does meanwhile. */
static void test_engine_race(void **state)
{
    (void)state;
    rules(DM_JGAME_CHINESE, 0, 0);
    dm_jpos p;
    dm_jpos_start(&p, &R);
    assert_int_equal(dm_jrace(&R, &p), 0);
    pos(&p, "A:A1-7,15,30,52:B100-109");
    assert_int_equal(dm_jrace(&R, &p), 1);
    pos(&p, "A:A1-7,15,30,99:B100-109"); /* 99 and 100 side by side on row 12 */
    assert_int_equal(dm_jrace(&R, &p), 0);
    pos(&p, "A:A1-7,15,30,52:B100-109");
    static dm_jendgame eg;
    dm_jendgame_init(&eg, 3);
    int d = dm_jendgame_distance(&eg, &R, &p, 0);
    assert_true(d >= 3);
    /* the same count from the brute force with the seven home pegs held still */
    dm_jset fixed = {{0, 0, 0, 0}};
    for (int i = 0; i < 7; i++) {
        add(&fixed, i);
    }
    assert_int_equal(brute((int[]){14, 29, 51}, 3, &fixed), d);
    int own = 0;
    while (dm_jpos_winner(&p, &R) < 0) {
        dm_jmove m;
        if (p.to_move == 0) {
            assert_int_equal(dm_jengine_move_eg(&R, &p, 10, &eg, &m), 1);
            int before = dm_jendgame_distance(&eg, &R, &p, 0);
            dm_jpos q = p;
            dm_jpos_apply(&q, &R, &m);
            int after = dm_jpos_winner(&q, &R) == 0 ? 0 : dm_jendgame_distance(&eg, &R, &q, 0);
            assert_int_equal(after, before - 1);
            own++;
        } else {
            assert_int_equal(dm_jgreedy(&R, &p, &m), 1);
        }
        dm_jpos_apply(&p, &R, &m);
        assert_true(own <= d);
    }
    assert_int_equal(dm_jpos_winner(&p, &R), 0);
    assert_int_equal(own, d);
    assert_true(eg.builds >= 1);
    /* the table is not used outside a race, nor with more pegs out than K */
    dm_jmove m;
    dm_jpos_start(&p, &R);
    assert_int_equal(dm_jendgame_move(&eg, &R, &p, &m), 0);
    assert_int_equal(dm_jendgame_distance(&eg, &R, &p, 0), -1);
    dm_jendgame_free(&eg);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hand_made),   cmocka_unit_test(test_against_brute_force),
        cmocka_unit_test(test_consistency), cmocka_unit_test(test_errors),
        cmocka_unit_test(test_engine_race),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
