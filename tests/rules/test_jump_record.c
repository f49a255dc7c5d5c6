/* SPDX-License-Identifier: MIT
 * tests/rules/test_jump_record.c: the game records of the jumping games (damier/jump.h):
 * actions (moves, passes, Ge Wu's throws) read and written; random games of every
 * game and player count built, written, read back and replayed to the same actions
 * and the same text (a fixed point); bad records answered with what and where
 * (line and column). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <damier/jump.h>

static dm_jrules R; /* large: not on the stack */
static dm_jmovelist L;

static void rules(dm_jgame g, int players, int size, unsigned opt)
{
    dm_error err;
    assert_int_equal(dm_jrules_init(&R, g, players, size, opt, &err), DM_OK);
}

static uint64_t rng = 88172645463325252ull;
static unsigned next_rand(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (unsigned)(rng >> 11);
}

/* A random legal action of p (the game must not be over). */
static dm_jaction random_action(const dm_jpos *p)
{
    dm_jaction a = {DM_JACT_MOVE, -1, {0, 0}};
    dm_jpos q = *p;
    if (R.game == DM_JGAME_GEWU && !p->throw_steps) {
        a.face = (int)(next_rand() % 4);
        if (a.face == DM_GEWU_WU) {
            a.kind = DM_JACT_NONE;
            return a;
        }
        dm_gewu_throw(&q, &R, (dm_gewu_face)a.face);
    }
    int n = dm_jmovegen(&L, &R, &q);
    if (n == 0) {
        a.kind = R.game == DM_JGAME_GEWU ? DM_JACT_LOST : DM_JACT_PASS;
        return a;
    }
    a.move = L.moves[next_rand() % (unsigned)n];
    return a;
}

/* Build, write, read, replay, build, write: the same actions and the same text. */
static void round_trip(const dm_jpos *start, int plies)
{
    static dm_jaction acts[400];
    dm_jpos p = *start;
    int n = 0;
    while (n < plies && dm_jpos_winner(&p, &R) < 0) {
        acts[n] = random_action(&p);
        dm_jaction_apply(&p, &R, &acts[n]);
        n++;
    }
    static char ev[] = "Event", evv[] = "test \"quoted\" \\ back", sa[] = "SeatA", sav[] = "engine";
    dm_jrecord_tag extra[] = {{ev, evv}, {sa, sav}};
    dm_jrecord *rec;
    assert_int_equal(dm_jrecord_build(&rec, &R, start, acts, n, extra, 2, NULL), DM_OK);
    char *text;
    size_t len;
    assert_int_equal(dm_jrecord_write(&text, &len, rec), DM_OK);
    assert_int_equal(strlen(text), len);
    assert_true(dm_jrecord_sniff(text, len));
    dm_jrecord_reader rd;
    dm_jrecord_reader_init(&rd, text, len);
    dm_jrecord *back;
    dm_error err;
    if (dm_jrecord_next(&back, &rd, &err) != DM_OK) {
        fail_msg("%s\n%s", err.message, text);
    }
    assert_non_null(back);
    static dm_jrules r2;
    assert_int_equal(dm_jrecord_rules(&r2, back, &err), DM_OK);
    assert_int_equal(r2.players, R.players);
    assert_int_equal(r2.options, R.options);
    dm_jreplay rep;
    if (dm_jreplay_record(&rep, &r2, back) != DM_OK) {
        fail_msg("replay: %s\n%s", rep.err.message, text);
    }
    assert_int_equal(rep.nactions, n);
    for (int i = 0; i < n; i++) {
        assert_int_equal(rep.actions[i].kind, acts[i].kind);
        assert_int_equal(rep.actions[i].face, acts[i].face);
        if (acts[i].kind == DM_JACT_MOVE) {
            assert_int_equal(rep.actions[i].move.from, acts[i].move.from);
            assert_int_equal(rep.actions[i].move.to, acts[i].move.to);
        }
    }
    assert_memory_equal(rep.end.pieces, p.pieces, sizeof p.pieces);
    assert_string_equal(dm_jrecord_tag_value(back, "Event"), "test \"quoted\" \\ back");
    dm_jrecord *again;
    assert_int_equal(dm_jrecord_build(&again, &r2, &rep.start, rep.actions, rep.nactions,
                                      back->tags, back->ntags, back->result),
                     DM_OK);
    char *text2;
    size_t len2;
    assert_int_equal(dm_jrecord_write(&text2, &len2, again), DM_OK);
    assert_string_equal(text, text2);
    dm_jrecord *none;
    assert_int_equal(dm_jrecord_next(&none, &rd, &err), DM_OK);
    assert_null(none);
    dm_jrecord_free(again);
    dm_jreplay_free(&rep);
    dm_jrecord_free(back);
    dm_jrecord_free(rec);
    free(text);
    free(text2);
}

static void test_round_trips(void **state)
{
    (void)state;
    static const struct {
        dm_jgame g;
        int players, size;
        unsigned opt;
    } cfg[] = {
        {DM_JGAME_CHINESE, 2, 0, 0},
        {DM_JGAME_CHINESE, 3, 0, 0},
        {DM_JGAME_CHINESE, 4, 0, DM_JOPT_NO_FOREIGN_CORNER},
        {DM_JGAME_CHINESE, 6, 0, 0},
        {DM_JGAME_HALMA, 2, 16, 0},
        {DM_JGAME_HALMA, 4, 16, 0},
        {DM_JGAME_HALMA, 2, 8, 0},
        {DM_JGAME_HALMA, 2, 10, 0},
        {DM_JGAME_GEWU, 2, 12, 0},
        {DM_JGAME_GEWU, 2, 20, DM_JOPT_GEWU_ONE_THROW},
        {DM_JGAME_CHINESE, 1, 0, DM_JOPT_CAPTURE},
        {DM_JGAME_CHINESE, 3, 0, DM_JOPT_CAPTURE},
        {DM_JGAME_CHINESE, 2, 0, DM_JOPT_FIFTEEN | DM_JOPT_SUPER_JUMP | DM_JOPT_ANTI_SPOIL},
        {DM_JGAME_HALMA, 2, 8, DM_JOPT_LEAVE_CAMP},
    };
    for (size_t c = 0; c < sizeof cfg / sizeof cfg[0]; c++) {
        rules(cfg[c].g, cfg[c].players, cfg[c].size, cfg[c].opt);
        dm_jpos p;
        dm_jpos_start(&p, &R);
        for (int k = 0; k < 5; k++) {
            round_trip(&p, 50 + 70 * k);
        }
    }
    /* a set-up start: written as a FEN tag */
    rules(DM_JGAME_CHINESE, 2, 0, 0);
    dm_jpos p;
    dm_error err;
    assert_int_equal(dm_jpos_from_text(&p, &R, "B:A61,70:B1-9,20", &err), DM_OK);
    round_trip(&p, 30);
}

/* A whole game to its end: the result names the winner and reads back. */
static void test_result(void **state)
{
    (void)state;
    rules(DM_JGAME_CHINESE, 3, 0, 0);
    dm_jpos p;
    dm_error err;
    /* seat B's pegs all on its target (the bottom right point) */
    dm_jpos full;
    dm_jpos_start(&full, &R);
    char fen[640];
    full.pieces[1] = R.target[1];
    full.to_move = 1;
    dm_jpos_to_text(fen, sizeof fen, &R, &full);
    assert_int_equal(dm_jpos_from_text(&p, &R, fen, &err), DM_OK);
    assert_int_equal(dm_jpos_winner(&p, &R), 1);
    char res[32];
    dm_jresult_text(res, sizeof res, &R, &p, 0);
    assert_string_equal(res, "0-1-0");
    dm_jpos_start(&p, &R);
    dm_jresult_text(res, sizeof res, &R, &p, 0);
    assert_string_equal(res, "*");
    dm_jresult_text(res, sizeof res, &R, &p, 1);
    assert_string_equal(res, "0-0-0");
}

static void test_actions(void **state)
{
    (void)state;
    dm_jaction a;
    dm_jpos p;
    dm_error err;
    char buf[64];
    rules(DM_JGAME_GEWU, 2, 12, 0);
    dm_jpos_start(&p, &R);
    assert_int_equal(dm_jaction_from_text(&a, &R, &p, "wu", &err), DM_OK);
    assert_int_equal(a.kind, DM_JACT_NONE);
    assert_int_equal(dm_jaction_from_text(&a, &R, &p, "bai:5-6-7", &err), DM_OK);
    assert_int_equal(a.face, DM_GEWU_BAI);
    assert_int_equal(a.move.from, 4);
    assert_int_equal(a.move.to, 6);
    assert_int_equal(dm_jaction_to_text(buf, sizeof buf, &R, &p, &a), DM_OK);
    assert_string_equal(buf, "bai:5-6-7");
    /* 黑 from the start: 5-6-7 then 8 is Black's and 9 too: lost */
    assert_int_equal(dm_jaction_from_text(&a, &R, &p, "hei:lost", &err), DM_OK);
    assert_int_equal(a.kind, DM_JACT_LOST);
    assert_int_equal(dm_jaction_from_text(&a, &R, &p, "sai:lost", &err), DM_EILLEGAL);
    assert_non_null(strstr(err.message, "not lost"));
    assert_int_equal(dm_jaction_from_text(&a, &R, &p, "5-6", &err), DM_EILLEGAL);
    assert_non_null(strstr(err.message, "face first"));
    assert_int_equal(dm_jaction_from_text(&a, &R, &p, "sai:5-9", &err), DM_EILLEGAL);
    assert_int_equal(err.column, 7); /* the column of 9 in the whole text */
    assert_int_equal(dm_jpos_from_text(&p, &R, "W1:W1-5:B8-12", &err), DM_OK);
    assert_int_equal(dm_jaction_from_text(&a, &R, &p, "sai:5-6", &err), DM_EILLEGAL);
    assert_non_null(strstr(err.message, "already made"));
    assert_int_equal(dm_jaction_from_text(&a, &R, &p, "5-6", &err), DM_OK);
    /* Chinese checkers: pass only without a legal move */
    rules(DM_JGAME_CHINESE, 2, 0, 0);
    dm_jpos_start(&p, &R);
    assert_int_equal(dm_jaction_from_text(&a, &R, &p, "pass", &err), DM_EILLEGAL);
    assert_non_null(strstr(err.message, "only a side without a legal move"));
    /* A's only peg on the bottom tip, boxed in by B's pegs and their jump squares */
    assert_int_equal(dm_jpos_from_text(&p, &R, "A:A121:B119,120,117,118,114,116", &err), DM_OK);
    assert_int_equal(dm_jmovegen(&L, &R, &p), 0);
    assert_int_equal(dm_jaction_from_text(&a, &R, &p, "pass", &err), DM_OK);
    dm_jaction_apply(&p, &R, &a);
    assert_int_equal(p.to_move, 1);
    assert_int_equal(dm_jaction_to_text(buf, sizeof buf, &R, &p, &a), DM_OK);
    assert_string_equal(buf, "pass");
    unsigned o;
    assert_int_equal(dm_jopts_from_text(&o, "no-foreign-corner,one-throw", &err), DM_OK);
    assert_int_equal(o, DM_JOPT_NO_FOREIGN_CORNER | DM_JOPT_GEWU_ONE_THROW);
    assert_int_equal(dm_jopts_from_text(&o, "no-foreign-corner,bogus", &err), DM_EPARSE);
    assert_int_equal(err.column, 19);
    assert_int_equal(dm_jopts_to_text(buf, sizeof buf, o), DM_OK);
    assert_string_equal(buf, "no-foreign-corner,one-throw");
}

/* Read text's first game and replay it; returns the replay status, err set. */
static dm_status replay_text(const char *text, dm_jreplay *rep, dm_error *err)
{
    dm_jrecord_reader rd;
    dm_jrecord_reader_init(&rd, text, strlen(text));
    dm_jrecord *rec;
    dm_status st = dm_jrecord_next(&rec, &rd, err);
    if (st != DM_OK) {
        return st;
    }
    assert_non_null(rec);
    st = dm_jrecord_rules(&R, rec, err);
    if (st == DM_OK) {
        st = dm_jreplay_record(rep, &R, rec);
        *err = rep->err;
        dm_jreplay_free(rep);
    }
    dm_jrecord_free(rec);
    return st;
}

static void bad(const char *text, dm_status want, int line, int col, const char *what)
{
    dm_jreplay rep;
    dm_error err;
    memset(&err, 0, sizeof err);
    dm_status st = replay_text(text, &rep, &err);
    if (st != want || (want != DM_EINVAL && (err.line != line || err.column != col)) ||
        !strstr(err.message, what)) {
        fail_msg("'%s': status %d line %d column %d: %s (wanted %d at %d:%d, '%s')", text, st,
                 err.line, err.column, err.message, want, line, col, what);
    }
}

static void test_errors(void **state)
{
    (void)state;
    dm_jreplay rep;
    dm_error err;
    const char *good = "[Game \"chinese-checkers\"]\n[Players \"3\"]\n\n"
                       "1. 112-103 {a comment} 14-15 ; to the end\n 20-19 2. 103-91 *\n";
    assert_int_equal(replay_text(good, &rep, &err), DM_OK);
    bad("[Game \"chinese-checkers\"]\n\n1. 112-103 10-0\n", DM_EPARSE, 3, 15, "no square");
    bad("[Game \"chinese-checkers\"]\n\n1. 112-103 10-1 *\n", DM_EILLEGAL, 3, 15, "cannot reach");
    bad("[Game \"chinese-checkers\"]\n\n1. 112-103\n4-15 104-94\n", DM_EILLEGAL, 4, 6,
        "no piece of the side to move");
    bad("[Game \"chinese-checkers\"]\n\n1. 112-103 (112-104) *\n", DM_EPARSE, 3, 12,
        "variations are not read");
    bad("[Game \"chinese-checkers\"\n\n1. 112-103 *\n", DM_EPARSE, 1, 25, "']' to end the tag");
    bad("[Game \"chinese\n", DM_EPARSE, 1, 15, "close the tag's value");
    bad("[Game \"chinese-checkers\"]\n\n1. 112-103 {open\n", DM_EPARSE, 3, 12, "'}'");
    bad("[Game \"go\"]\n\n1. 112-103 *\n", DM_EINVAL, 1, 0, "unknown game 'go'");
    bad("[Game \"halma\"][Players \"3\"]\n\n*\n", DM_EINVAL, 1, 0, "not 3");
    bad("[Game \"halma\"][Board \"12\"]\n\n*\n", DM_EINVAL, 1, 0, "8, 10 or 16");
    bad("[Game \"halma\"][Options \"super\"]\n\n*\n", DM_EINVAL, 1, 0, "unknown option 'super'");
    bad("[Game \"chinese-checkers\"][FEN \"A:A1:C2\"]\n\n*\n", DM_EPARSE, 1, 6, "FEN tag");
    bad("[Game \"chinese-checkers\"]\n\n1. 112-103 1-0-0\n", DM_EILLEGAL, 3, 12,
        "result 1-0-0: it has 3 numbers and the game 2 seats");
    bad("[Game \"chinese-checkers\"]\n\n1. 112-103 1-0\n", DM_EILLEGAL, 3, 12,
        "seat A has not won");
    bad("[Game \"gewu\"]\n\n1. bai:5-6-7 bai:7-8\n", DM_EILLEGAL, 3, 20, "7 cannot reach 8");
    bad("[Game \"chinese-checkers\"]\n\n1. 112-103 12345678. 10-21\n", DM_EPARSE, 3, 12,
        "at most 6 digits");
    /* the win ends the game: another move is refused, '*' too */
    const char *won = "[Game \"chinese-checkers\"][FEN \"B:A1-10:B112-121\"]\n\n10-21 *\n";
    bad(won, DM_EILLEGAL, 3, 1, "the game is over: seat A has won");
    bad("[Game \"chinese-checkers\"][FEN \"B:A1-10:B112-121\"]\n\n*\n", DM_EILLEGAL, 3, 1,
        "result *: the game is over, seat A has won");
    assert_int_equal(
        replay_text("[Game \"chinese-checkers\"][FEN \"B:A1-10:B112-121\"]\n\n1-0\n", &rep, &err),
        DM_OK);
    /* after an unreadable game the reader goes on with the next */
    const char *two = "[Game \"halma\"\n\n1. a1-b2\n\n[Game \"halma\"]\n\n1. e1-f2 *\n";
    dm_jrecord_reader rd;
    dm_jrecord_reader_init(&rd, two, strlen(two));
    dm_jrecord *rec;
    assert_int_equal(dm_jrecord_next(&rec, &rd, &err), DM_EPARSE);
    assert_non_null(strstr(err.message, "game 1, line 1, column 14"));
    assert_int_equal(dm_jrecord_next(&rec, &rd, &err), DM_OK);
    assert_non_null(rec);
    assert_int_equal(rec->number, 2);
    assert_int_equal(rec->nitems, 1);
    assert_string_equal(rec->items[0].text, "e1-f2");
    dm_jrecord_free(rec);
    assert_int_equal(dm_jrecord_next(&rec, &rd, &err), DM_OK);
    assert_null(rec);
    /* draughts PDN is not taken for a jumping game */
    const char *d = "[Event \"x\"]\n[GameType \"20\"]\n\n1. 32-28 *\n";
    assert_false(dm_jrecord_sniff(d, strlen(d)));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trips),
        cmocka_unit_test(test_result),
        cmocka_unit_test(test_actions),
        cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
