/* SPDX-License-Identifier: MIT
 * tests/rules/test_jump.c: the jumping games (damier/jump.h): move counts and perft
 * from the start and hand-made positions, cross-checked against the independent slow
 * generator of jump_slow.h; jump chains with loops, stopping anywhere, no duplicate
 * destinations; the foreign-corner option; Ge Wu's throws; square names, move texts
 * and position strings (round trips and clear errors). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include <damier/jump.h>

#include "jump/jump_int.h"
#include "rules/jump_slow.h"

static dm_jrules R; /* large: not on the stack */

static void rules(dm_jgame g, int players, int size, unsigned opt)
{
    dm_error err;
    assert_int_equal(dm_jrules_init(&R, g, players, size, opt, &err), DM_OK);
}

static int jset_count_pub(const dm_jset *s)
{
    int n = 0;
    for (int w = 0; w < 4; w++) {
        n += __builtin_popcountll(s->w[w]);
    }
    return n;
}

static void pos(dm_jpos *p, const char *text)
{
    dm_error err;
    dm_status st = dm_jpos_from_text(p, &R, text, &err);
    if (st != DM_OK) {
        fail_msg("%s: %s", text, err.message);
    }
}

/* The slow generator's position from the library's (the numbering is the documented
 * one both sides follow: bit i = square i+1). */
static void to_slow(slow_pos *s, const dm_jpos *p)
{
    for (int i = 0; i < SLOW_MAXSQ; i++) {
        s->owner[i] = -1;
        for (int k = 0; k < R.players; k++) {
            if ((p->pieces[k].w[i >> 6] >> (i & 63)) & 1) {
                s->owner[i] = k;
            }
        }
    }
    s->to_move = p->to_move;
    s->players = R.players;
}

/* Fast and slow generators give the same (from, to) list, in the same order. */
static void same_moves(const slow_board *b, const dm_jpos *p, const char *forbid)
{
    static dm_jmovelist list;
    static int slow[8192];
    slow_pos s;
    to_slow(&s, p);
    int n = dm_jmovegen(&list, &R, p);
    int m = slow_moves(b, &s, forbid, slow);
    assert_int_equal(n, m);
    for (int i = 0; i < n; i++) {
        assert_int_equal(list.moves[i].from * 512 + list.moves[i].to, slow[i]);
    }
}

/* The start of the star board with 2 players: seat A (bottom point, holes 112..121)
 * has 14 moves. Its front row (rows of 4 holes, 112..115) steps up to the five holes
 * 103..107 of the row above: 2 steps each, 8 (the row's ends have no hole beside
 * them). The row of 3 behind (116..118) jumps over the front row: 2 jumps each, 6,
 * and no chain goes on (the only piece beside a landing hole is the one just jumped,
 * and jumping it back would land on the start). Everything else is blocked. */
static void test_chinese_start(void **state)
{
    (void)state;
    rules(DM_JGAME_CHINESE, 2, 0, 0);
    dm_jpos p;
    dm_jpos_start(&p, &R);
    static dm_jmovelist list;
    assert_int_equal(R.squares, 121);
    assert_int_equal(dm_jmovegen(&list, &R, &p), 14);
    slow_board b;
    slow_star(&b);
    assert_int_equal(b.n, 121);
    same_moves(&b, &p, NULL);
    char text[64];
    assert_int_equal(dm_jmove_to_text(text, sizeof text, &R, &p, &list.moves[0]), DM_OK);
    assert_string_equal(text, "112-103");
}

/* Perft from the start for every player count, fast against slow. Every seat's start
 * moves are the 14 above (the star is symmetric), so depth 1 is 14; with 2 or 3
 * players the occupied points are not neighbours, no first move changes the next
 * seat's moves, and depth 2 is 14*14 = 196. With 4 and 6 players A's pegs stepping
 * out next to the bottom-left point give B extra jumps (the slow count decides). */
static void test_chinese_perft(void **state)
{
    (void)state;
    static const int players[4] = {2, 3, 4, 6};
    slow_board b;
    slow_star(&b);
    for (int k = 0; k < 4; k++) {
        rules(DM_JGAME_CHINESE, players[k], 0, 0);
        dm_jpos p;
        dm_jpos_start(&p, &R);
        slow_pos s;
        /* The slow start position from the standard corners, independently. */
        static const int seats[7][6] = {
            [2] = {3, 0}, [3] = {3, 5, 1}, [4] = {3, 4, 0, 1}, [6] = {3, 4, 5, 0, 1, 2}};
        for (int i = 0; i < b.n; i++) {
            s.owner[i] = -1;
            for (int q = 0; q < players[k]; q++) {
                if (b.corner_of[i] == seats[players[k]][q]) {
                    s.owner[i] = q;
                }
            }
        }
        s.to_move = 0;
        s.players = players[k];
        assert_int_equal(dm_jperft(&R, &p, 1), 14);
        if (players[k] <= 3) { /* 4 and 6: neighbouring points meet in the second ply */
            assert_int_equal(dm_jperft(&R, &p, 2), 196);
        }
        for (int d = 1; d <= 3; d++) {
            assert_int_equal(dm_jperft(&R, &p, d), slow_perft(&b, &s, d));
        }
    }
}

/* Hand-made star positions, fast against slow (moves and perft 2): A's peg on the
 * centre (61) inside a ring of six (51, 52, 60, 62, 70, 71) has the six jumps to
 * 40, 42, 59, 63, 80, 82 and no step; the others are lattices of pegs where chains
 * branch and meet again. */
static void test_chinese_handmade(void **state)
{
    (void)state;
    slow_board b;
    slow_star(&b);
    static const char *const positions[] = {
        "A:A61:B51,52,60,62,70,71",             /* a ring of six around the centre */
        "A:A61,39,83:B50,62,72,40,82,29,93",    /* chains through a lattice */
        "B:A112-121:B1-10,50,51,60,62,71,72",   /* B to move with extra pegs */
        "A:A61,50,72:B51,60,62,71,40,82,6,116", /* loops and pegs in the points */
    };
    for (size_t i = 0; i < sizeof positions / sizeof *positions; i++) {
        rules(DM_JGAME_CHINESE, 2, 0, 0);
        dm_jpos p;
        pos(&p, positions[i]);
        if (i == 0) {
            static dm_jmovelist list;
            assert_int_equal(dm_jmovegen(&list, &R, &p), 6);
        }
        same_moves(&b, &p, NULL);
        slow_pos s;
        to_slow(&s, &p);
        assert_int_equal(dm_jperft(&R, &p, 2), slow_perft(&b, &s, 2));
    }
}

/* The option "no ending in a foreign point", 3 players: seat A (home: the bottom
 * point, target: the top one) may not end a move in the four other points (1, 2, 4,
 * 5); the slow generator filters the same holes from its own geometry. In the second
 * position A's peg on 98 (the bottom-right point) can step to 97 only without the
 * option. */
static void test_chinese_foreign_corner(void **state)
{
    (void)state;
    slow_board b;
    slow_star(&b);
    static const char *const positions[] = {
        "A:A103-107,99:B11-20:C66-75",
        "A:A98,99,100,101,102:B:C",
        "A:A57,66,76,86,96:B65,75,85:C",
    };
    for (size_t i = 0; i < sizeof positions / sizeof *positions; i++) {
        rules(DM_JGAME_CHINESE, 3, 0, DM_JOPT_NO_FOREIGN_CORNER);
        dm_jpos p;
        pos(&p, positions[i]);
        char forbid[SLOW_MAXSQ] = {0};
        /* A: home 3, target 0; foreign: points 1, 2, 4, 5. */
        for (int k = 0; k < b.n; k++) {
            int c = b.corner_of[k];
            forbid[k] = c == 1 || c == 2 || c == 4 || c == 5;
        }
        same_moves(&b, &p, forbid);
        /* And without the option the moves into those points come back. */
        dm_jmovelist with, without;
        dm_jmovegen(&with, &R, &p);
        rules(DM_JGAME_CHINESE, 3, 0, 0);
        dm_jmovegen(&without, &R, &p);
        same_moves(&b, &p, NULL);
        assert_true(without.count >= with.count);
        if (i == 1) {
            /* 98..102 are the right part of row 8 ... at least one peg can step into
             * the top-right or bottom-right point. */
            assert_true(without.count > with.count);
        }
    }
}

/* A loop in Halma: A's piece on c3, B's on d3, e4, d5, c4. The chains c3-e3-e5-c5
 * and c3-c5-e5-e3 go round the ring and would come back to c3 (refused: visited);
 * the destinations e3, e5, c5 appear once each; the six steps b2 c2 d2 b3 b4 d4:
 * 9 moves, and the chain may stop after each jump. */
static void test_halma_loop(void **state)
{
    (void)state;
    rules(DM_JGAME_HALMA, 2, 16, 0);
    dm_jpos p;
    pos(&p, "A:Ac3:Bd3,e4,d5,c4");
    static dm_jmovelist list;
    assert_int_equal(dm_jmovegen(&list, &R, &p), 9);
    for (int i = 0; i < list.count; i++) {
        for (int j = 0; j < i; j++) {
            assert_false(list.moves[i].from == list.moves[j].from &&
                         list.moves[i].to == list.moves[j].to);
        }
    }
    slow_board b;
    slow_halma(&b, 16);
    same_moves(&b, &p, NULL);
    dm_jmove m;
    dm_error err;
    assert_int_equal(dm_jmove_from_text(&m, &R, &p, "c3-c5-e5-e3", &err), DM_OK);
    assert_int_equal(m.to, 2 * 16 + 4); /* e3 */
    assert_int_equal(dm_jmove_from_text(&m, &R, &p, "c3-e3", &err), DM_OK);
    assert_int_equal(dm_jmove_from_text(&m, &R, &p, "c3-e3-e5", &err), DM_OK);
    assert_int_equal(dm_jmove_from_text(&m, &R, &p, "c3-e3-e5-c5-c3", &err), DM_EILLEGAL);
    assert_non_null(strstr(err.message, "visited"));
    assert_int_equal(err.column, 13);
    assert_int_equal(dm_jmove_from_text(&m, &R, &p, "c3-e5", &err), DM_OK); /* from-to */
    assert_int_equal(dm_jmove_from_text(&m, &R, &p, "c3-c4", &err), DM_EILLEGAL);
}

/* Halma from the start on every board, fast against slow. 16x16, 2 players: the camp
 * is the staircase 5,5,4,3,2 (19 pieces); A's moves from it are 2 steps from the
 * corner row's ... counted by the slow generator, cross-checked here. */
static void test_halma_perft(void **state)
{
    (void)state;
    static const int boards[4][2] = {{16, 2}, {16, 4}, {10, 2}, {8, 2}};
    static const int pieces[4] = {19, 13, 15, 10};
    for (int k = 0; k < 4; k++) {
        rules(DM_JGAME_HALMA, boards[k][1], boards[k][0], 0);
        assert_int_equal(R.pieces, pieces[k]);
        dm_jpos p;
        dm_jpos_start(&p, &R);
        slow_board b;
        slow_halma(&b, boards[k][0]);
        slow_pos s;
        to_slow(&s, &p);
        int count = 0;
        for (int i = 0; i < b.n; i++) {
            count += s.owner[i] == 0;
        }
        assert_int_equal(count, pieces[k]);
        same_moves(&b, &p, NULL);
        for (int d = 1; d <= 3; d++) {
            assert_int_equal(dm_jperft(&R, &p, d), slow_perft(&b, &s, d));
        }
    }
}

/* Wins: a seat whose pieces fill its target camp. */
static void test_wins(void **state)
{
    (void)state;
    rules(DM_JGAME_CHINESE, 2, 0, 0);
    dm_jpos p;
    pos(&p, "B:A1-10:B20,30");
    assert_int_equal(dm_jpos_winner(&p, &R), 0);
    static dm_jmovelist list;
    assert_int_equal(dm_jmovegen(&list, &R, &p), 0);
    pos(&p, "B:A1-9,11:B20,30");
    assert_int_equal(dm_jpos_winner(&p, &R), -1);
    rules(DM_JGAME_HALMA, 2, 8, 0);
    pos(&p, "A:Ah8,g8,f8,e8,h7,g7,f7,h6,g6,h5:Ba1");
    assert_int_equal(dm_jpos_winner(&p, &R), 0);
}

/* Ge Wu on the default lane of 12: White on 1..5, Black on 8..12, White to throw.
 * 塞 (1): only the front piece (5) can step, onto 6: 1 move; 白 (2): 5 to 7; 黑 (3):
 * 5-6-7 then 8 is Black's with 9 taken behind it: no move, the throw is lost. So
 * perft 1 = 五 (1) + 1 + 1 + forfeit (1) = 4. */
static void test_gewu(void **state)
{
    (void)state;
    rules(DM_JGAME_GEWU, 2, 0, 0);
    dm_jpos p;
    dm_jpos_start(&p, &R);
    assert_int_equal(dm_jperft(&R, &p, 1), 4);
    static dm_jmovelist list;
    assert_int_equal(dm_jmovegen(&list, &R, &p), 0); /* nothing before the throw */
    dm_gewu_throw(&p, &R, DM_GEWU_BAI);
    assert_int_equal(dm_jmovegen(&list, &R, &p), 1);
    char text[64];
    dm_jmove_to_text(text, sizeof text, &R, &p, &list.moves[0]);
    assert_string_equal(text, "5-6-7");
    dm_jpos_apply(&p, &R, &list.moves[0]);
    assert_int_equal(p.to_move, 0); /* throws again */
    dm_gewu_throw(&p, &R, DM_GEWU_WU);
    assert_int_equal(p.to_move, 1);
    /* A jump: White on 6, Black on 7, 8 empty; 塞 jumps 6 over 7 to 8. */
    pos(&p, "W1:W6:B7");
    assert_int_equal(dm_jmovegen(&list, &R, &p), 1);
    assert_int_equal(list.moves[0].to, 7);
    /* Own piece in the way: no jump. */
    pos(&p, "W1:W6,7:B12");
    assert_int_equal(dm_jmovegen(&list, &R, &p), 1); /* only 7 steps to 8 */
    /* Leaving the lane at the enemy's end wins (a 黑 from 11 overshoots). */
    pos(&p, "W3:W11:B1");
    assert_int_equal(dm_jmovegen(&list, &R, &p), 1);
    dm_jmove_to_text(text, sizeof text, &R, &p, &list.moves[0]);
    assert_string_equal(text, "11-12-off");
    dm_jpos_apply(&p, &R, &list.moves[0]);
    assert_int_equal(dm_jpos_winner(&p, &R), 0);
    /* Black moves towards 1; jumping a White piece on 1 leaves the lane too. */
    pos(&p, "B1:W1:B2");
    assert_int_equal(dm_jmovegen(&list, &R, &p), 1);
    assert_int_equal(list.moves[0].to, DM_JOFF_BOARD);
    /* One throw per turn as an option: the move passes the turn. */
    rules(DM_JGAME_GEWU, 2, 0, DM_JOPT_GEWU_ONE_THROW);
    pos(&p, "W1:W1-5:B8-12");
    dm_jmovegen(&list, &R, &p);
    dm_jpos_apply(&p, &R, &list.moves[0]);
    assert_int_equal(p.to_move, 1);
}

/* Position strings and move texts read back as written; bad ones say what and where. */
static void test_text(void **state)
{
    (void)state;
    static const struct {
        dm_jgame g;
        int players, size;
    } games[] = {{DM_JGAME_CHINESE, 2, 0},
                 {DM_JGAME_CHINESE, 6, 0},
                 {DM_JGAME_HALMA, 4, 16},
                 {DM_JGAME_HALMA, 2, 8},
                 {DM_JGAME_GEWU, 2, 0}};
    for (size_t g = 0; g < sizeof games / sizeof *games; g++) {
        rules(games[g].g, games[g].players, games[g].size, 0);
        dm_jpos p, q;
        dm_jpos_start(&p, &R);
        if (games[g].g == DM_JGAME_GEWU) {
            dm_gewu_throw(&p, &R, DM_GEWU_SAI);
        }
        /* Play a few plies, checking every move's text and the position string. */
        for (int ply = 0; ply < 6; ply++) {
            char text[1024];
            dm_error err;
            assert_int_equal(dm_jpos_to_text(text, sizeof text, &R, &p), DM_OK);
            if (dm_jpos_from_text(&q, &R, text, &err) != DM_OK) {
                fail_msg("%s: %s", text, err.message);
            }
            assert_memory_equal(q.pieces, p.pieces, sizeof p.pieces);
            assert_int_equal(q.to_move, p.to_move);
            assert_int_equal(q.throw_steps, p.throw_steps);
            static dm_jmovelist list;
            dm_jmovegen(&list, &R, &p);
            for (int i = 0; i < list.count; i++) {
                dm_jmove m;
                assert_int_equal(dm_jmove_to_text(text, sizeof text, &R, &p, &list.moves[i]),
                                 DM_OK);
                if (dm_jmove_from_text(&m, &R, &p, text, &err) != DM_OK) {
                    fail_msg("%s: %s", text, err.message);
                }
                assert_int_equal(m.from, list.moves[i].from);
                assert_int_equal(m.to, list.moves[i].to);
            }
            if (!list.count) {
                break;
            }
            dm_jpos_apply(&p, &R, &list.moves[list.count / 2]);
            if (games[g].g == DM_JGAME_GEWU) {
                dm_gewu_throw(&p, &R, DM_GEWU_SAI);
            }
        }
    }
    char name[16];
    rules(DM_JGAME_HALMA, 2, 16, 0);
    assert_string_equal(dm_jsquare_name(name, sizeof name, &R, 255), "p16");
    assert_string_equal(dm_jsquare_name(name, sizeof name, &R, 0), "a1");
}

static void bad_pos(const char *text, int column, const char *what)
{
    dm_jpos p;
    dm_error err;
    assert_int_equal(dm_jpos_from_text(&p, &R, text, &err), DM_EPARSE);
    if (err.column != column || !strstr(err.message, what)) {
        fail_msg("\"%s\": column %d, \"%s\"; wanted column %d, \"%s\"", text, err.column,
                 err.message, column, what);
    }
}

static void bad_move(const dm_jpos *p, const char *text, dm_status st, int column, const char *what)
{
    dm_jmove m;
    dm_error err;
    assert_int_equal(dm_jmove_from_text(&m, &R, p, text, &err), st);
    if (err.column != column || !strstr(err.message, what)) {
        fail_msg("\"%s\": column %d, \"%s\"; wanted column %d, \"%s\"", text, err.column,
                 err.message, column, what);
    }
}

static void test_errors(void **state)
{
    (void)state;
    rules(DM_JGAME_CHINESE, 2, 0, 0);
    bad_pos("", 1, "side to move");
    bad_pos("C:A1:B2", 1, "side to move");
    bad_pos("A:A1-10", 8, "seat B");
    bad_pos("A:A1-10:B10", 10, "named twice");
    bad_pos("A:A1-10:A11", 9, "twice");
    bad_pos("A:A122:B1", 4, "no square");
    bad_pos("A:A1,,2:B3", 6, "no square");
    bad_pos("A:A1,:B3", 6, "after ','");
    bad_pos("A:A5-3:B9", 4, "bad range");
    bad_pos("A;A1:B2", 2, "expected ':'");
    bad_pos("A:A1 :B2", 5, "expected ','");
    rules(DM_JGAME_HALMA, 2, 8, 0);
    bad_pos("A:Ai1:Ba1", 4, "no square");
    bad_pos("A:Aa9:Ba1", 4, "no square");
    rules(DM_JGAME_CHINESE, 2, 0, 0);
    dm_jpos p;
    dm_jpos_start(&p, &R);
    bad_move(&p, "112", DM_EPARSE, 4, "landing");
    bad_move(&p, "112-", DM_EPARSE, 5, "no square");
    bad_move(&p, "112-200", DM_EPARSE, 5, "no square");
    bad_move(&p, "112+103", DM_EPARSE, 4, "expected '-'");
    bad_move(&p, "1-12", DM_EILLEGAL, 1, "no piece of the side to move");
    bad_move(&p, "112-90", DM_EILLEGAL, 5, "cannot reach");
    bad_move(&p, "116-103-90", DM_EILLEGAL, 9, "not a jump");
    bad_move(&p, "116-103-116", DM_EILLEGAL, 9, "visited");
    rules(DM_JGAME_GEWU, 2, 0, 0);
    dm_jpos_start(&p, &R);
    bad_move(&p, "5-6", DM_EILLEGAL, 3, "no throw");
    dm_error err;
    assert_int_equal(dm_jrules_init(&R, DM_JGAME_CHINESE, 5, 0, 0, &err), DM_EINVAL);
    assert_non_null(strstr(err.message, "2, 3, 4 or 6"));
    assert_int_equal(dm_jrules_init(&R, DM_JGAME_HALMA, 4, 8, 0, &err), DM_EINVAL);
    dm_jgame g;
    assert_int_equal(dm_jgame_from_name(&g, "sternhalma", &err), DM_EINVAL);
    assert_non_null(strstr(err.message, "chinese-checkers"));
}

/* The engine: A has nine pegs on the top point (all but 5) and the tenth on 16, a
 * jump over 8 away from 5: depth 1 finds the winning jump; B's pegs are in the middle
 * row (57-65). With depth 3 it still plays it (a win at ply 1 beats everything). */
static void test_search(void **state)
{
    (void)state;
    rules(DM_JGAME_CHINESE, 2, 0, 0);
    dm_jpos p;
    pos(&p, "A:A1-4,6-10,16:B57-65");
    dm_jsearch_result res;
    dm_error err;
    for (int d = 1; d <= 3; d += 2) {
        assert_int_equal(dm_jsearch(&R, &p, d, &res, &err), DM_OK);
        assert_int_equal(res.score, DM_JWIN - 1);
        dm_jpos q = p;
        dm_jpos_apply(&q, &R, &res.best);
        assert_int_equal(dm_jpos_winner(&q, &R), 0);
    }
    /* From the start, any depth plays a move that gains distance. */
    dm_jpos_start(&p, &R);
    assert_int_equal(dm_jsearch(&R, &p, 2, &res, &err), DM_OK);
    assert_true(R.goal_dist[0][res.best.from] > R.goal_dist[0][res.best.to]);
    assert_int_equal(R.goal_dist[0][0], 0);    /* hole 1, the top tip, is A's goal */
    assert_int_equal(R.goal_dist[0][120], 16); /* the bottom tip is 16 steps away */
    /* Three players: best-reply and paranoid search play a move that gains distance
     * too, and both find a win in one */
    rules(DM_JGAME_CHINESE, 3, 0, 0);
    dm_jpos_start(&p, &R);
    for (int m = DM_JMULTI_BRS; m <= DM_JMULTI_PARANOID; m++) {
        assert_int_equal(dm_jsearch_multi(&R, &p, 4, (dm_jmulti)m, &res, &err), DM_OK);
        assert_true(R.goal_dist[0][res.best.from] > R.goal_dist[0][res.best.to]);
    }
    dm_jpos w3;
    pos(&w3, "A:A1-4,6-10,16:B11:C23");
    for (int m = DM_JMULTI_BRS; m <= DM_JMULTI_PARANOID; m++) {
        assert_int_equal(dm_jsearch_multi(&R, &w3, 3, (dm_jmulti)m, &res, &err), DM_OK);
        assert_int_equal(res.score, DM_JWIN - 1);
    }
    /* Ge Wu: expectimax needs the throw made; with 白 from the start the search moves */
    rules(DM_JGAME_GEWU, 2, 0, 0);
    dm_jpos_start(&p, &R);
    assert_int_equal(dm_jsearch(&R, &p, 2, &res, &err), DM_EINVAL);
    assert_non_null(strstr(err.message, "throw first"));
    dm_gewu_throw(&p, &R, DM_GEWU_BAI);
    assert_int_equal(dm_jsearch(&R, &p, 3, &res, &err), DM_OK);
    assert_int_equal(res.best.from, 4);
    assert_int_equal(res.best.to, 6);
    /* the greedy player: the largest gain (Ge Wu: a move off the lane first) */
    dm_jmove g;
    assert_int_equal(dm_jpos_from_text(&p, &R, "W2:W1,11:B3", &err), DM_OK);
    assert_int_equal(dm_jgreedy(&R, &p, &g), 1);
    assert_int_equal(g.from, 10);
    assert_int_equal(g.to, DM_JOFF_BOARD);
}

/* A Halma 8x8 anti-spoil endgame the engine at level 10 did not win against the greedy
 * player (`damier jump match --game halma --board 8 --options anti-spoil --first 15`,
 * BENCHMARKS.md 2026-12-03), the engine A to move: B's pegs g6 and g8 hold two deep
 * squares of A's target (they count for A under anti-spoil); A's holes are e8, h6 and
 * h5 before this move, each as far from h8 as the squares in front of them (e6, g5),
 * and the engine stepped g5-h6, h6-g5 ... until the no-progress rule ended the game.
 * Now it must not step back out of h6, and must win within 12 of its own moves.
 * Game 14 (`--first 14`, ply 42), the engine B to move: its last home peg g8 is still
 * in A's target among A's pegs while B shuffles in front of its own; the engine kept
 * it there (c1-c3, c3-c1 ...) until A's pegs walled it in, and neither side could
 * finish. Now it must bring it out and win within 12 of its own moves.
 * Game 82 (`--first 82`, ply 50), the engine B to move: its last home pegs h7 and g8
 * are walled in on their diagonal by A's g6, g7, f7 and h8, its holes d1 and a4 far
 * away; every way out (h7-h6-h5, g8-f8-e8) runs along file h or rank 8, all 7 king
 * steps from a1, so no step gained distance and the engine shuffled c1-c3, c3-c1 until
 * the no-progress rule ended the game. Now (the stragglers' distance to the nearest
 * hole) it must bring them out and win within 20 of its own moves. */
static int engine_wins_against_greedy(const char *text, int seat, int own_moves)
{
    dm_jpos p;
    pos(&p, text);
    for (int n = 0; n < 2 * own_moves && dm_jpos_winner(&p, &R) < 0; n++) {
        dm_jmove m;
        int ok = p.to_move == seat ? dm_jengine_move(&R, &p, 10, &m) : dm_jgreedy(&R, &p, &m);
        if (!ok) {
            dm_jpos_pass(&p, &R);
            continue;
        }
        dm_jpos_apply(&p, &R, &m);
    }
    return dm_jpos_winner(&p, &R) == seat;
}

static void test_search_fills_target(void **state)
{
    (void)state;
    rules(DM_JGAME_HALMA, 2, 8, DM_JOPT_ANTI_SPOIL);
    const char *g15 = "A:Ae4,f5,e6,f6,h6,f7,g7,h7,f8,h8:Ba1,b1,a2,b2,c2,a3,b3,c3,g6,g8";
    dm_jpos p;
    pos(&p, g15);
    dm_jsearch_result res;
    dm_error err;
    assert_int_equal(dm_jsearch(&R, &p, 5, &res, &err), DM_OK);
    char mv[64];
    dm_jmove_to_text(mv, sizeof mv, &R, &p, &res.best);
    assert_string_not_equal(mv, "h6-g5"); /* the old engine's shuffle out of the hole */
    assert_true(engine_wins_against_greedy(g15, 0, 12));
    assert_true(engine_wins_against_greedy(
        "B:Ae4,e5,f5,e6,f6,g6,f7,g7,h7,h8:Ba1,b1,c1,a2,b2,a3,b3,b5,c6,g8", 1, 12));
    assert_true(engine_wins_against_greedy(
        "B:Ae4,d5,e5,f5,e6,f6,g6,f7,g7,h8:Ba1,b1,c1,a2,b2,c2,a3,b3,h7,g8", 1, 20));
}

/* The house rules (docs/JUMPING.md), one position each. */
/* The two-player search's transposition table changes the nodes, never the value:
 * from positions of random games (Chinese checkers, Halma 8x8 with anti-spoil) the
 * table's search gives the plain alpha-beta search's score at depths 1-4. */
static void test_search_table(void **state)
{
    (void)state;
    static const struct {
        dm_jgame g;
        int size;
        unsigned opt;
    } cfg[] = {{DM_JGAME_CHINESE, 0, 0}, {DM_JGAME_HALMA, 8, DM_JOPT_ANTI_SPOIL}};
    uint64_t seed = 7, with = 0, without = 0;
    for (int c = 0; c < 2; c++) {
        rules(cfg[c].g, 2, cfg[c].size, cfg[c].opt);
        for (int game = 0; game < 3; game++) {
            dm_jpos p;
            dm_jpos_start(&p, &R);
            for (int ply = 0; ply < 40 && dm_jpos_winner(&p, &R) < 0; ply++) {
                static dm_jmovelist list;
                if (dm_jmovegen(&list, &R, &p) == 0) {
                    break;
                }
                seed = seed * 6364136223846793005ull + 1442695040888963407ull;
                dm_jpos_apply(&p, &R, &list.moves[(seed >> 33) % (uint64_t)list.count]);
                if (ply % 16 != 15) {
                    continue;
                }
                for (int d = 1; d <= 4; d++) {
                    dm_jsearch_result a, b;
                    assert_int_equal(jsearch_run(&R, &p, d, DM_JMULTI_BRS, 1, &a, NULL), DM_OK);
                    assert_int_equal(jsearch_run(&R, &p, d, DM_JMULTI_BRS, 0, &b, NULL), DM_OK);
                    if (a.score != b.score) {
                        char buf[640];
                        dm_jpos_to_text(buf, sizeof buf, &R, &p);
                        fail_msg("%s depth %d: %d with the table, %d without", buf, d, a.score,
                                 b.score);
                    }
                    if (d == 4) {
                        with += a.nodes;
                        without += b.nodes;
                    }
                }
            }
        }
    }
    /* the nodes are a benchmark, not a property (iterations 1-3 are counted too) */
    print_message("depth 4: %llu nodes with the table, %llu without\n", (unsigned long long)with,
                  (unsigned long long)without);
}

static void test_house_rules(void **state)
{
    (void)state;
    dm_jpos p, q;
    dm_jmovelist list;
    dm_error err;
    char buf[640];
    /* fifteen: the point and the row of 5 in front of it */
    rules(DM_JGAME_CHINESE, 2, 0, DM_JOPT_FIFTEEN);
    dm_jpos_start(&p, &R);
    dm_jpos_to_text(buf, sizeof buf, &R, &p);
    assert_string_equal(buf, "A:A103-107,112-121:B1-10,15-19");
    assert_int_equal(R.pieces, 15);
    pos(&p, "B:A1-10,15-19:B57-61,112-121");
    assert_int_equal(dm_jpos_winner(&p, &R), 0);
    pos(&p, "B:A1-10,15-18:B57-61,112-121");
    assert_int_equal(dm_jpos_winner(&p, &R), -1);
    assert_int_equal(dm_jrules_init(&R, DM_JGAME_CHINESE, 3, 0, DM_JOPT_FIFTEEN, &err), DM_EINVAL);
    /* anti-spoil: A's target full, B's peg still on its own home counts */
    rules(DM_JGAME_CHINESE, 2, 0, 0);
    pos(&p, "B:A1-9:B10,112-120");
    assert_int_equal(dm_jpos_winner(&p, &R), -1);
    rules(DM_JGAME_CHINESE, 2, 0, DM_JOPT_ANTI_SPOIL);
    assert_int_equal(dm_jpos_winner(&p, &R), 0);
    dm_jpos_start(&p, &R); /* all B's: not a win for A (none of them A's) */
    assert_int_equal(dm_jpos_winner(&p, &R), -1);
    /* three players: the top point is nobody's home, so a C peg there spoils */
    rules(DM_JGAME_CHINESE, 3, 0, DM_JOPT_ANTI_SPOIL);
    pos(&p, "B:A1-9:B11:C10");
    assert_int_equal(dm_jpos_winner(&p, &R), -1);
    /* super jump: over 116, two holes away, to 103, two holes beyond */
    rules(DM_JGAME_CHINESE, 2, 0, 0);
    pos(&p, "A:A121:B116");
    assert_int_equal(dm_jmovegen(&list, &R, &p), 2);
    rules(DM_JGAME_CHINESE, 2, 0, DM_JOPT_SUPER_JUMP);
    assert_int_equal(dm_jmovegen(&list, &R, &p), 3);
    assert_int_equal(list.moves[0].from, 120);
    assert_int_equal(list.moves[0].to, 102);
    dm_jmove m;
    assert_int_equal(dm_jmove_from_text(&m, &R, &p, "121-103", &err), DM_OK);
    /* ... and not when a hole between is taken, or the landing hole */
    pos(&p, "A:A121:B116,112");
    assert_int_equal(dm_jmovegen(&list, &R, &p), 2);
    /* the adjacent jump is the super jump at distance 1; chains of both */
    pos(&p, "A:A121:B119,112");
    assert_int_equal(dm_jmovegen(&list, &R, &p), 3); /* 121-116, 121-116-103, 121-120 */
    assert_int_equal(dm_jmove_from_text(&m, &R, &p, "121-116-103", &err), DM_OK);
    assert_int_equal(dm_jmove_to_text(buf, sizeof buf, &R, &p, &m), DM_OK);
    assert_string_equal(buf, "121-116-103");
    /* the capture puzzle: 60 pegs, each move a jump that removes the peg jumped */
    rules(DM_JGAME_CHINESE, 1, 0, DM_JOPT_CAPTURE);
    dm_jpos_start(&p, &R);
    assert_int_equal(jset_count_pub(&p.pieces[0]), 60);
    assert_int_equal(dm_jmovegen(&list, &R, &p), 54);
    pos(&p, "A:A61,62");
    assert_int_equal(dm_jmovegen(&list, &R, &p), 2);
    q = p;
    dm_jpos_apply(&q, &R, &list.moves[0]); /* 61-63 over 62 */
    dm_jpos_to_text(buf, sizeof buf, &R, &q);
    assert_string_equal(buf, "A:A63");
    assert_int_equal(dm_jpos_winner(&q, &R), 0);
    pos(&p, "A:A1,61"); /* no jump: the steps */
    assert_int_equal(dm_jmovegen(&list, &R, &p), 8);
    /* the capture game for several players (食棋, `002`: every player may move any peg;
     * docs/JUMPING.md): the pegs are nobody's (all in seat A's section), every seat
     * moves any of them, and the seat whose capture leaves one peg wins */
    rules(DM_JGAME_CHINESE, 3, 0, DM_JOPT_CAPTURE);
    dm_jpos_start(&p, &R);
    assert_int_equal(jset_count_pub(&p.pieces[0]), 60);
    assert_int_equal(dm_jmovegen(&list, &R, &p), 54);
    dm_jpos_apply(&p, &R, &list.moves[0]);
    assert_int_equal(p.to_move, 1);
    assert_int_equal(jset_count_pub(&p.pieces[0]), 59);
    assert_true(dm_jmovegen(&list, &R, &p) > 0); /* B moves the same pegs */
    assert_int_equal(dm_jmove_to_text(buf, sizeof buf, &R, &p, &list.moves[0]), DM_OK);
    assert_int_equal(dm_jmove_from_text(&m, &R, &p, buf, &err), DM_OK);
    pos(&p, "C:A61,62");
    assert_int_equal(dm_jpos_winner(&p, &R), -1);
    assert_int_equal(dm_jmovegen(&list, &R, &p), 2);
    q = p;
    dm_jpos_apply(&q, &R, &list.moves[0]);
    assert_int_equal(dm_jpos_winner(&q, &R), 2); /* C made the last capture */
    dm_jresult_text(buf, sizeof buf, &R, &q, 1);
    assert_string_equal(buf, "0-0-1");
    pos(&p, "A:A63");
    assert_int_equal(dm_jpos_winner(&p, &R), 2); /* set up: the seat before the mover */
    bad_pos("A:A61:B62:C", 8, "the pegs belong to no seat");
    /* the no-progress rule: 50 rounds of steps only, then no winner */
    rules(DM_JGAME_CHINESE, 2, 0, DM_JOPT_CAPTURE);
    pos(&p, "A:A1,121");
    dm_jprogress cpr;
    dm_jprogress_init(&cpr, &R, &p);
    int stalled = 0, actions = 0;
    while (!stalled && actions < 1000) {
        dm_jmovegen(&list, &R, &p);
        dm_jpos_apply(&p, &R, &list.moves[0]); /* peg 1 steps to and fro */
        actions++;
        stalled = dm_jprogress_step(&cpr, &R, &p);
    }
    assert_int_equal(actions, DM_JNO_PROGRESS_ROUNDS * 2);
    /* the engine never steps next to the last other peg (the opponent would make the
     * last capture), though the step comes first in its move order */
    pos(&p, "A:A61,63");
    dm_jsearch_result res;
    assert_int_equal(dm_jsearch(&R, &p, 2, &res, &err), DM_OK);
    q = p;
    dm_jpos_apply(&q, &R, &res.best);
    dm_jmovegen(&list, &R, &q);
    for (int i = 0; i < list.count; i++) {
        dm_jpos o = q;
        dm_jpos_apply(&o, &R, &list.moves[i]);
        assert_int_equal(dm_jpos_winner(&o, &R), -1);
    }
    /* ... and makes it when it can */
    pos(&p, "B:A61,62");
    assert_int_equal(dm_jsearch(&R, &p, 2, &res, &err), DM_OK);
    assert_int_equal(res.score, DM_JWIN - 1);
    assert_int_equal(dm_jrules_init(&R, DM_JGAME_CHINESE, 7, 0, DM_JOPT_CAPTURE, &err), DM_EINVAL);
    /* leave-camp (Halma 8x8: more than 30 moves with a piece in one's camp loses) */
    rules(DM_JGAME_HALMA, 2, 8, DM_JOPT_LEAVE_CAMP);
    pos(&p, "A:Aa1,h8:Bh1");
    p.moves = 60; /* 30 moves each */
    assert_int_equal(dm_jpos_winner(&p, &R), -1);
    p.moves = 61; /* A's 31st */
    assert_int_equal(dm_jpos_winner(&p, &R), 1);
    pos(&p, "A:Ae5:Bh8");
    p.moves = 61;
    assert_int_equal(dm_jpos_winner(&p, &R), -1);
    p.moves = 62; /* B's 31st, a piece still on h8 */
    assert_int_equal(dm_jpos_winner(&p, &R), 0);
    rules(DM_JGAME_HALMA, 2, 10, DM_JOPT_LEAVE_CAMP);
    pos(&p, "A:Aa1:Bj10");
    p.moves = 101;
    assert_int_equal(dm_jpos_winner(&p, &R), 1);
    p.moves = 100;
    assert_int_equal(dm_jpos_winner(&p, &R), -1);
    assert_int_equal(dm_jrules_init(&R, DM_JGAME_HALMA, 2, 16, DM_JOPT_LEAVE_CAMP, &err),
                     DM_EINVAL);
    /* a move counts for the rule: apply and pass both count */
    rules(DM_JGAME_HALMA, 2, 8, 0);
    dm_jpos_start(&p, &R);
    dm_jmovegen(&list, &R, &p);
    dm_jpos_apply(&p, &R, &list.moves[0]);
    dm_jpos_pass(&p, &R);
    assert_int_equal(p.moves, 2);
    /* anti-spoil in Halma */
    rules(DM_JGAME_HALMA, 2, 8, DM_JOPT_ANTI_SPOIL);
    pos(&p, "B:Ah5,g6,h6,f7,g7,h7,e8,f8,g8:Bh8");
    assert_int_equal(dm_jpos_winner(&p, &R), 0);
    /* the no-progress rule: 50 rounds without a seat coming nearer its goal */
    rules(DM_JGAME_CHINESE, 2, 0, 0);
    pos(&p, "A:A61:B60");
    dm_jprogress pr;
    dm_jprogress_init(&pr, &R, &p);
    dm_jmove up, down, bup, bdown;
    assert_int_equal(dm_jmove_from_text(&up, &R, &p, "61-52", &err), DM_OK);
    q = p;
    dm_jpos_apply(&q, &R, &up);
    assert_int_equal(dm_jprogress_step(&pr, &R, &q), 0); /* A nearer: a new best */
    assert_int_equal(dm_jmove_from_text(&bdown, &R, &q, "60-69", &err), DM_OK);
    dm_jpos_apply(&q, &R, &bdown);
    assert_int_equal(dm_jprogress_step(&pr, &R, &q), 0); /* B nearer */
    assert_int_equal(dm_jmove_from_text(&down, &R, &q, "52-61", &err), DM_OK);
    dm_jpos a0 = q;
    dm_jpos_apply(&q, &R, &down);
    assert_int_equal(dm_jmove_from_text(&bup, &R, &q, "69-60", &err), DM_OK);
    q = a0;
    int ended = 0, steps = 0;
    for (; steps < 200 && !ended; steps++) {
        const dm_jmove *mv = steps % 4 == 0   ? &down
                             : steps % 4 == 1 ? &bup
                             : steps % 4 == 2 ? &up
                                              : &bdown;
        dm_jpos_apply(&q, &R, mv);
        ended = dm_jprogress_step(&pr, &R, &q);
    }
    assert_int_equal(steps, DM_JNO_PROGRESS_ROUNDS * 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_chinese_start),
        cmocka_unit_test(test_chinese_perft),
        cmocka_unit_test(test_chinese_handmade),
        cmocka_unit_test(test_chinese_foreign_corner),
        cmocka_unit_test(test_halma_loop),
        cmocka_unit_test(test_halma_perft),
        cmocka_unit_test(test_wins),
        cmocka_unit_test(test_gewu),
        cmocka_unit_test(test_text),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_search),
        cmocka_unit_test(test_search_fills_target),
        cmocka_unit_test(test_house_rules),
        cmocka_unit_test(test_search_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
