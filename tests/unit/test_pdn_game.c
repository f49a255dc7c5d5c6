/* SPDX-License-Identifier: MIT
 * tests/unit/test_pdn_game.c: a dm_game to PDN and back in the library
 * (dm_pdn_from_game of every variant, dm_pdn_write_game, dm_pdn_to_game,
 * dm_pdn_read_game): random games (from the start and from set-up positions, ended
 * by the rules or by a declared result) come back with the same moves, hashes and
 * result; bad records are refused with what and where. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <damier/clock.h>
#include <damier/game.h>
#include <damier/pdn.h>
#include <damier/variant.h>

#include "../game_fast.h"

static uint64_t next_rand(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* A random game: from the start, or (one in three) from the position after a few
 * random plies; random legal moves until the game ends or max plies; an unfinished
 * game gets (one in two) a declared result. */
static dm_game *random_game(uint64_t *rng, int max)
{
    dm_board10 start;
    dm_board10_start(&start);
    if (next_rand(rng) % 3 == 0) {
        int k = 1 + (int)(next_rand(rng) % 15);
        for (int i = 0; i < k; i++) {
            dm_movelist10 l;
            if (dm_movegen10_legal(&l, &start) == 0) {
                break;
            }
            dm_board10_apply(&start, &l.moves[next_rand(rng) % (uint64_t)l.count]);
        }
    }
    dm_game *g;
    assert_int_equal(fast_game_new(&g, &start), DM_OK);
    for (int i = 0; i < max && !dm_game_over(g); i++) {
        dm_movelist10 l;
        dm_board10 now;
        dm_movegen10_legal(&l, fast_game_board(&now, g));
        assert_int_equal(fast_game_play(g, &l.moves[next_rand(rng) % (uint64_t)l.count]), DM_OK);
    }
    if (!dm_game_over(g) && next_rand(rng) % 2 == 0) {
        dm_color who = (dm_color)(next_rand(rng) % 2);
        switch (next_rand(rng) % 6) {
            case 0:
                assert_int_equal(dm_game_resign(g, who), DM_OK);
                break;
            case 1:
                assert_int_equal(dm_game_agree_draw(g), DM_OK);
                break;
            case 2:
                assert_int_equal(dm_game_flag(g, who), DM_OK);
                break;
            case 3:
                assert_int_equal(dm_game_declare_no_win(g), DM_OK);
                break;
            case 4: /* the arbiter's decision: White wins, Black wins or a draw */
                assert_int_equal(dm_game_declare_arbiter(g, (dm_outcome)(1 + next_rand(rng) % 3)),
                                 DM_OK);
                break;
            default:
                assert_int_equal(dm_game_forfeit(g, who), DM_OK);
                break;
        }
    }
    return g;
}

static void assert_same_game(const dm_game *a, const dm_game *b, int n)
{
    assert_int_equal(dm_game_ply(a), dm_game_ply(b));
    dm_board10 sa, sb;
    assert_true(dm_board10_equal(fast_game_board_at(&sa, a, 0), fast_game_board_at(&sb, b, 0)));
    for (int i = 0; i < dm_game_ply(a); i++) {
        dm_move10 ma, mb;
        if (!fast_game_move_at(&ma, a, i) || !fast_game_move_at(&mb, b, i) ||
            !dm_move10_equal(&ma, &mb)) {
            fail_msg("game %d: ply %d differs", n, i);
        }
        assert_true(dm_game_hash_at(a, i + 1) == dm_game_hash_at(b, i + 1));
    }
    dm_reason ra, rb;
    assert_int_equal(dm_game_result(a, &ra), dm_game_result(b, &rb));
    if (ra != rb) {
        fail_msg("game %d: reason %s read back as %s", n, dm_reason_str(ra), dm_reason_str(rb));
    }
}

static void test_pdn_game__random_games_round_trip(void **state)
{
    (void)state;
    uint64_t rng = 0x9e3779b97f4a7c15ull;
    dm_time_control tc;
    assert_int_equal(dm_time_control_parse(&tc, "40/7200:3600", NULL), DM_OK);
    int ended = 0, declared = 0;
    for (int n = 0; n < 300; n++) {
        dm_game *g = random_game(&rng, 40 + n % 7 * 40);
        dm_pdn_game_tags tags = DM_PDN_GAME_TAGS_INIT;
        tags.white = "Ann \"the\" Player";
        tags.black = "Bob";
        tags.date = "2024.05.06";
        tags.time_control = n % 2 ? &tc : NULL;
        char *text = NULL;
        size_t len = 0;
        assert_int_equal(
            dm_pdn_write_game(&text, &len, g, &tags, n % 3 ? DM_NOTATION_PDN : DM_NOTATION_FULL),
            DM_OK);
        assert_int_equal(strlen(text), len);
        dm_game *back = NULL;
        dm_pdn_game *rec = NULL;
        dm_error err;
        dm_status st = dm_pdn_read_game(&back, &rec, text, len, "t.pdn", 0, &err);
        if (st != DM_OK) {
            fail_msg("game %d: %s\n%s", n, err.message, text);
        }
        assert_same_game(g, back, n);
        assert_string_equal(dm_pdn_game_tag(rec, "White"), "Ann \"the\" Player");
        assert_string_equal(dm_pdn_game_tag(rec, "GameType"), "20");
        if (n % 2) {
            assert_string_equal(dm_pdn_game_tag(rec, "TimeControl"), "40/7200:3600");
        }
        dm_reason why;
        dm_outcome o = dm_game_result(g, &why);
        assert_string_equal(dm_pdn_game_tag(rec, "Result"), dm_outcome_str(o));
        ended += o != DM_OUTCOME_ONGOING;
        declared += why == DM_REASON_RESIGNATION || why == DM_REASON_AGREEMENT ||
                    why == DM_REASON_TIME || why == DM_REASON_FORFEIT || why == DM_REASON_NO_WIN ||
                    why == DM_REASON_ARBITER;
        /* the record itself too */
        dm_pdn_game *rec2;
        assert_int_equal(dm_pdn_from_game(&rec2, g, &tags), DM_OK);
        dm_game *back2;
        assert_int_equal(dm_pdn_to_game(&back2, rec2, 0, &err), DM_OK);
        assert_same_game(g, back2, n);
        dm_pdn_game_free(rec2);
        dm_game_free(back2);
        dm_pdn_game_free(rec);
        dm_game_free(back);
        dm_game_free(g);
        free(text);
    }
    /* the sample covers decided games of both kinds */
    assert_true(ended > 100);
    assert_true(declared > 30);
}

static dm_status read_text(dm_game **out, const char *text, int partial, dm_error *err)
{
    return dm_pdn_read_game(out, NULL, text, strlen(text), "x.pdn", partial, err);
}

static void test_pdn_game__errors_say_what_and_where(void **state)
{
    (void)state;
    dm_game *g = NULL;
    dm_error err;
    /* an illegal move: where (line, column), move number and text, the FEN before */
    const char *bad = "[Event \"e\"]\n\n1. 32-28 19-23 2. 28-22 *\n"; /* 28x19 is due */
    assert_int_equal(read_text(&g, bad, 0, &err), DM_EILLEGAL);
    assert_null(g);
    assert_non_null(strstr(err.message, "x.pdn: game 1: line 3, column 19: move 2. 28-22"));
    assert_non_null(strstr(err.message, "FEN before"));
    /* partial: the game up to the bad move, and why it stopped */
    assert_int_equal(read_text(&g, bad, 1, &err), DM_OK);
    assert_non_null(g);
    assert_int_equal(dm_game_ply(g), 2);
    assert_non_null(strstr(err.message, "28-22"));
    dm_game_free(g);
    g = NULL;
    /* a complete game in partial mode: nothing said */
    assert_int_equal(read_text(&g, "1. 32-28 19-23 *\n", 1, &err), DM_OK);
    assert_string_equal(err.message, "");
    dm_game_free(g);
    g = NULL;
    /* another variant: a game of that variant (dm_game_new), its errors as
     * international's */
    assert_int_equal(read_text(&g, "[GameType \"25\"]\n1. c3-d4 f6-g5 *\n", 0, &err), DM_OK);
    assert_ptr_equal(dm_game_variant(g), dm_variant_get(DM_VARIANT_RUSSIAN));
    assert_int_equal(dm_game_ply(g), 2);
    dm_game_free(g);
    g = NULL;
    assert_int_equal(read_text(&g, "[GameType \"25\"]\n1. c3-d4 f6-g5 2. e3-d4 *\n", 0, &err),
                     DM_EILLEGAL);
    assert_non_null(strstr(err.message, "e3-d4"));
    assert_null(g);
    /* a bad FEN */
    assert_int_equal(read_text(&g, "[GameType \"20\"]\n[FEN \"W:W31;B1\"]\n1. 31-26 *\n", 0, &err),
                     DM_EPARSE);
    if (!strstr(err.message, "FEN")) {
        fail_msg("%s", err.message);
    }
    /* a resignation where the position is undecided; a result the position contradicts */
    const char *blocked = "[FEN \"B:W46:BK5\"]\n2-0\n";
    assert_int_equal(read_text(&g, blocked, 0, &err), DM_OK); /* a resignation of Black */
    dm_reason why;
    assert_int_equal(dm_game_result(g, &why), DM_OUTCOME_WHITE_WINS);
    assert_int_equal(why, DM_REASON_RESIGNATION);
    dm_game_free(g);
    g = NULL;
    const char *nopieces = "[FEN \"B:W46:B\"]\n1-1\n";
    assert_int_equal(read_text(&g, nopieces, 0, &err), DM_EPARSE);
    assert_non_null(strstr(err.message, "contradicts"));
    assert_null(g);
    /* a move after the end of the game (threefold repetition) */
    const char *rep = "[FEN \"W:WK46:BK1\"]\n1. 46-41 1-6 2. 41-46 6-1 3. 46-41 1-6 "
                      "4. 41-46 6-1 5. 46-41 *\n";
    assert_int_equal(read_text(&g, rep, 0, &err), DM_ESTATE);
    assert_non_null(strstr(err.message, "after the end of the game"));
    /* a setup command in the movetext */
    assert_int_equal(read_text(&g, "1. 32-28 /FEN \"W:W31:B1\"/ *\n", 0, &err), DM_EPARSE);
    assert_non_null(strstr(err.message, "setup"));
    /* no game at all, NULLs */
    assert_int_equal(read_text(&g, "", 0, &err), DM_EPARSE);
    assert_int_equal(dm_pdn_to_game(NULL, NULL, 0, &err), DM_EINVAL);
    assert_int_equal(dm_pdn_from_game(NULL, NULL, NULL), DM_EINVAL);
    dm_pdn_game_tags t = DM_PDN_GAME_TAGS_INIT;
    t.version = 99;
    dm_game *x;
    assert_int_equal(dm_game_new(&x, NULL), DM_OK);
    dm_pdn_game *r;
    assert_int_equal(dm_pdn_from_game(&r, x, &t), DM_EINVAL);
    dm_game_free(x);
}

/* A game of every variant written with dm_pdn_from_game reads back under its rules. */
static void test_pdn_game__variant_record(void **state)
{
    (void)state;
    uint64_t rng = 12345;
    for (int v = 0; v < DM_VARIANT_COUNT; v++) {
        const dm_variant *var = dm_variant_get((dm_variant_id)v);
        dm_board start;
        dm_board_start(&start, var);
        dm_game *g;
        assert_int_equal(dm_game_new(&g, &start), DM_OK);
        dm_game_rules rules = DM_GAME_RULES_INIT;
        rules.play_after_end = 1; /* random play goes on after a draw by rule */
        assert_int_equal(dm_game_set_rules(g, &rules), DM_OK);
        int n = 0;
        static dm_movelist l;
        while (n < 60 && dm_movegen_legal(&l, dm_game_position(g)) > 0) {
            const dm_move *m = &l.moves[next_rand(&rng) % (uint64_t)l.count];
            if (dm_game_play(g, m) != DM_OK) {
                break; /* decided (breakthrough's first king) */
            }
            n++;
        }
        dm_pdn_game *rec;
        assert_int_equal(dm_pdn_from_game(&rec, g, NULL), DM_OK);
        char *text;
        assert_int_equal(dm_pdn_write(&text, NULL, rec, DM_NOTATION_PDN), DM_OK);
        dm_pdn_reader *rd;
        assert_int_equal(dm_pdn_reader_new(&rd, text, strlen(text), NULL), DM_OK);
        dm_pdn_game *back;
        assert_int_equal(dm_pdn_reader_next(&back, rd, NULL), DM_OK);
        dm_pdn_replay rp;
        assert_int_equal(dm_pdn_replay_mainline(&rp, back), DM_OK);
        if (rp.verdict != DM_PDN_LEGAL || rp.plies != n) {
            fail_msg("%s: verdict %d after %d of %d plies: %s\n%s", var->name, rp.verdict, rp.plies,
                     n, rp.reason.message, text);
        }
        assert_int_equal(rp.variant->id, var->id);
        const dm_board *end = dm_game_position(g);
        assert_true(memcmp(rp.end.sq, end->sq, sizeof end->sq) == 0);
        dm_pdn_game_free(back);
        dm_pdn_reader_free(rd);
        free(text);
        dm_pdn_game_free(rec);
        dm_game_free(g);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pdn_game__random_games_round_trip),
        cmocka_unit_test(test_pdn_game__errors_say_what_and_where),
        cmocka_unit_test(test_pdn_game__variant_record),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
