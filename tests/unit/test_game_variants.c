/* SPDX-License-Identifier: MIT
 * tests/unit/test_game_variants.c: dm_game for every variant (issue 10): moves by
 * text and in the generic form, undo/redo, move text that reads back, the ends of
 * the variants (no legal move: a loss, in antidraughts a win; breakthrough's first
 * king) and their draw rules with the reason's text; an international game made
 * from a generic start is the fast-board game; random games in every variant agree
 * with the rules core's own judges (dm_variant_result, dm_variant_draw) at every ply. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "core/board10.h"
#include <damier/game.h>
#include "core/move10.h"
#include <damier/pdn.h>
#include <damier/variant.h>

#include <stdlib.h>

static dm_board vfen(dm_variant_id id, const char *fen)
{
    dm_board b;
    dm_error err;
    if (dm_board_from_fen(&b, dm_variant_get(id), fen, &err) != DM_OK) {
        fail_msg("bad test FEN %s: %s", fen, err.message);
    }
    return b;
}

static dm_game *vgame(dm_variant_id id, const char *fen)
{
    dm_board b;
    if (fen) {
        b = vfen(id, fen);
    } else {
        dm_board_start(&b, dm_variant_get(id));
    }
    dm_game *g = NULL;
    assert_int_equal(dm_game_new(&g, &b), DM_OK);
    return g;
}

static void play(dm_game *g, const char *moves)
{
    char buf[512];
    snprintf(buf, sizeof buf, "%s", moves);
    for (char *t = strtok(buf, " "); t; t = strtok(NULL, " ")) {
        dm_error err;
        if (dm_game_play_text(g, t, &err) != DM_OK) {
            fail_msg("%s: %s", t, err.message);
        }
    }
}

/* Russian from the start: moves by text, their text reads back, undo and redo. */
static void test_game_variants__russian_moves_undo_redo(void **state)
{
    (void)state;
    dm_game *g = vgame(DM_VARIANT_RUSSIAN, NULL);
    assert_ptr_equal(dm_game_variant(g), dm_variant_get(DM_VARIANT_RUSSIAN));
    assert_ptr_equal(dm_game_position(g)->variant, dm_variant_get(DM_VARIANT_RUSSIAN));
    /* the repetition keys of every variant: dm_board_hash of each position */
    assert_true(dm_game_hash_at(g, 0) == dm_board_hash(dm_game_position(g)));
    assert_int_equal(dm_game_repetitions(g), 1);
    play(g, "c3-d4 f6-e5 d4:f6 g7:e5");
    assert_int_equal(dm_game_ply(g), 4);
    char text[64];
    dm_game_move_text(text, sizeof text, g, 2, DM_NOTATION_PDN);
    assert_string_equal(text, "d4:f6");
    dm_game_move_text(text, sizeof text, g, 3, DM_NOTATION_PDN);
    assert_string_equal(text, "g7:e5");
    dm_board after = *dm_game_position(g);
    assert_int_equal(dm_game_undo(g), DM_OK);
    assert_int_equal(dm_game_undo(g), DM_OK);
    assert_int_equal(dm_game_ply(g), 2);
    assert_int_equal(dm_game_redo(g), DM_OK);
    assert_int_equal(dm_game_redo(g), DM_OK);
    assert_memory_equal(dm_game_position(g)->sq, after.sq, sizeof after.sq);
    assert_int_equal(dm_game_result(g, NULL), DM_OUTCOME_ONGOING);
    /* an illegal move changes nothing */
    dm_error err;
    assert_int_equal(dm_game_play_text(g, "h2-g3", &err), DM_EILLEGAL); /* g3 is taken */
    assert_int_equal(dm_game_ply(g), 4);
    dm_move bad;
    memset(&bad, 0, sizeof bad);
    bad.from = 1;
    bad.to = 2;
    assert_int_equal(dm_game_play(g, &bad), DM_EILLEGAL);
    assert_int_equal(dm_game_play(g, NULL), DM_EINVAL);
    dm_game_free(g);
}

/* The variants' draws with their reasons, and no move after them. */
static void test_game_variants__draws_with_reasons(void **state)
{
    (void)state;
    char why[128];
    /* Russian repetition with kings */
    dm_game *g = vgame(DM_VARIANT_RUSSIAN, "W:WKa1:BKh2");
    play(g, "a1-b2 h2-g1 b2-a1 g1-h2 a1-b2 h2-g1 b2-a1");
    assert_int_equal(dm_game_result(g, NULL), DM_OUTCOME_ONGOING);
    play(g, "g1-h2");
    dm_reason r;
    assert_int_equal(dm_game_result(g, &r), DM_OUTCOME_DRAW);
    assert_int_equal(r, DM_REASON_REPETITION);
    dm_game_reason_text(why, sizeof why, g);
    assert_string_equal(why, "threefold repetition");
    dm_error err;
    assert_int_equal(dm_game_play_text(g, "a1-b2", &err), DM_ESTATE);
    dm_game_free(g);
    /* Frisian: two kings against a king, 7 moves each (FR 18) */
    g = vgame(DM_VARIANT_FRISIAN, "W:WK47,K49:BK5");
    play(g, "47-42 5-10 49-44 10-5 42-47 5-10 44-49 10-5 47-42 5-10 49-44 10-5 42-47");
    assert_int_equal(dm_game_result(g, NULL), DM_OUTCOME_ONGOING);
    play(g, "5-10");
    assert_int_equal(dm_game_result(g, &r), DM_OUTCOME_DRAW);
    assert_int_equal(r, DM_REASON_MATERIAL);
    dm_game_reason_text(why, sizeof why, g);
    assert_string_equal(why, "7-move rule (two kings against a lone king)");
    dm_game_free(g);
    /* another draw set for the same game: 3 moves of kings only */
    dm_draw_rules d = {.name = "t", .kings_only_moves = 3};
    g = vgame(DM_VARIANT_RUSSIAN, "W:WKa1:BKh2");
    play(g, "a1-b2 h2-g1 b2-a1 g1-h2 a1-b2 h2-g1");
    assert_int_equal(dm_game_result(g, NULL), DM_OUTCOME_ONGOING); /* russian-source */
    assert_int_equal(dm_game_set_draw_rules(g, &d), DM_OK);
    assert_int_equal(dm_game_result(g, &r), DM_OUTCOME_DRAW);
    assert_int_equal(r, DM_REASON_NO_PROGRESS);
    /* play_after_end set after the moves: the draw stands, a move after it is taken */
    dm_game_rules ru = DM_GAME_RULES_INIT;
    ru.play_after_end = 1;
    assert_int_equal(dm_game_set_rules(g, &ru), DM_OK);
    assert_int_equal(dm_game_result(g, &r), DM_OUTCOME_DRAW);
    play(g, "b2-a1");
    assert_int_equal(dm_game_undo(g), DM_OK);
    ru.play_after_end = 0;
    assert_int_equal(dm_game_set_rules(g, &ru), DM_OK);
    dm_game_reason_text(why, sizeof why, g);
    assert_string_equal(why, "3-move rule");
    assert_int_equal(dm_game_undo(g), DM_OK);
    assert_int_equal(dm_game_result(g, NULL), DM_OUTCOME_ONGOING); /* not a ply before */
    dm_game_free(g);
    /* an international game takes a draw set like any other (one judge for every
     * game); the FMJD view of its thresholds (dm_game_rules_of) follows it */
    dm_game *ig = NULL;
    assert_int_equal(dm_game_new(&ig, NULL), DM_OK);
    assert_int_equal(dm_game_rules_of(ig)->kings_only_moves, 25);
    assert_int_equal(dm_game_draw_rules(ig)->kings_only_moves, 25);
    assert_int_equal(dm_game_set_draw_rules(ig, &d), DM_OK);
    assert_int_equal(dm_game_draw_rules(ig)->no_progress_moves, d.no_progress_moves);
    assert_int_equal(dm_game_rules_of(ig)->kings_only_moves, d.kings_only_moves);
    assert_int_equal(dm_game_set_draw_rules(ig, NULL), DM_EINVAL);
    dm_game_free(ig);
}

/* The ends: blocked (loss), antidraughts (the side that cannot move wins),
 * breakthrough (the first king wins). */
static void test_game_variants__ends(void **state)
{
    (void)state;
    dm_reason r;
    /* English: Black (to move first) has one man, blocked */
    dm_game *g = vgame(DM_VARIANT_ENGLISH, "B:W9,14:B5");
    assert_int_equal(dm_game_result(g, &r),
                     dm_variant_result(dm_game_position(g)) == DM_BOARD_RESULT_WHITE_WINS
                         ? DM_OUTCOME_WHITE_WINS
                         : DM_OUTCOME_BLACK_WINS);
    assert_int_equal(r, DM_REASON_BLOCKED);
    dm_game_free(g);
    /* antidraughts: White gives its last man away and wins */
    g = vgame(DM_VARIANT_ANTIDRAUGHTS, "W:W28:B19,K5");
    play(g, "28-23 19x28");
    assert_int_equal(dm_game_result(g, &r), DM_OUTCOME_WHITE_WINS);
    assert_int_equal(r, DM_REASON_NO_PIECES);
    dm_game_free(g);
    /* breakthrough: the first man to crown wins at once */
    g = vgame(DM_VARIANT_BREAKTHROUGH, "W:W7:B45");
    play(g, "7-2");
    assert_int_equal(dm_game_result(g, &r), DM_OUTCOME_WHITE_WINS);
    assert_int_equal(r, DM_REASON_PROMOTION);
    char why[64];
    dm_game_reason_text(why, sizeof why, g);
    assert_string_equal(why, "first king (breakthrough)");
    dm_game_free(g);
    /* a declared result works as in international */
    g = vgame(DM_VARIANT_RUSSIAN, NULL);
    assert_int_equal(dm_game_resign(g, DM_WHITE), DM_OK);
    assert_int_equal(dm_game_result(g, &r), DM_OUTCOME_BLACK_WINS);
    assert_int_equal(r, DM_REASON_RESIGNATION);
    dm_game_free(g);
    /* the bridge between the two move types: a fast-board move found in the generic
     * list, or refused */
    dm_board10 fb;
    dm_board10_start(&fb);
    dm_movelist10 fl;
    dm_movegen10_legal(&fl, &fb);
    dm_board vb;
    assert_int_equal(dm_board_from_board10(&vb, dm_variant_get(DM_VARIANT_INTERNATIONAL), &fb),
                     DM_OK);
    dm_move vm;
    for (int i = 0; i < fl.count; i++) {
        assert_int_equal(dm_move_from_move10(&vm, &vb, &fl.moves[i]), DM_OK);
        assert_true(vm.from == fl.moves[i].from && vm.to == fl.moves[i].to);
    }
    dm_move10 odd = fl.moves[0];
    odd.to = 1; /* not a move of the start position */
    assert_int_equal(dm_move_from_move10(&vm, &vb, &odd), DM_EILLEGAL);
    dm_board rb;
    dm_board_start(&rb, dm_variant_get(DM_VARIANT_RUSSIAN));
    assert_int_equal(dm_move_from_move10(&vm, &rb, &fl.moves[0]), DM_EINVAL);
    assert_int_equal(dm_move_from_move10(NULL, &vb, &fl.moves[0]), DM_EINVAL);
    /* bad input */
    dm_game *none = (dm_game *)1;
    assert_int_equal(dm_game_new(NULL, NULL), DM_EINVAL);
    dm_board nov = vfen(DM_VARIANT_RUSSIAN, "W:Wa1:Bh8");
    nov.variant = NULL; /* a position of no variant */
    assert_int_equal(dm_game_new(&none, &nov), DM_EINVAL);
    assert_null(none);
    dm_board bad = vfen(DM_VARIANT_RUSSIAN, "W:Wa1:Bh8");
    bad.sq[1] = DM_WHITE_MAN; /* a white man on its own promotion row */
    assert_int_equal(dm_game_new(&none, &bad), DM_EINVAL);
}

/* xorshift64* */
static uint64_t rnd(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 0x2545F4914F6CDD1Dull;
}

/* Random games in every variant: at every ply the game's result is the rules
 * core's (dm_variant_result, then dm_variant_draw), the move text reads back as the
 * same move, and undoing everything then redoing it gives the same positions.
 * International through dm_game_new is the fast-board game (its FMJD hashes agree). */
/* Touch-move (the rules' section 3; source 000, moves, items 11 and 13): a touched
 * piece that can move must be played, in international draughts (the fast board) and
 * in Russian (the generic one); "I adjust" first frees the next touch; a piece with no
 * move commits nothing; undo forgets the touch; off, nothing is enforced. */
static void test_game_variants__touch_move(void **state)
{
    (void)state;
    dm_error err;
    int committed;
    dm_game *g = vgame(DM_VARIANT_INTERNATIONAL, NULL);
    assert_int_equal(dm_game_touch_move(g), 0);
    assert_int_equal(dm_game_touch(g, 32, &committed, &err), DM_OK); /* off: free */
    assert_int_equal(committed, 0);
    assert_int_equal(dm_game_play_text(g, "33-28", &err), DM_OK);
    assert_int_equal(dm_game_undo(g), DM_OK);
    dm_game_set_touch_move(g, 1);
    assert_int_equal(dm_game_touch(g, 19, &committed, &err), DM_EINVAL); /* Black's */
    assert_non_null(strstr(err.message, "no piece of the side to move"));
    assert_int_equal(dm_game_touch(g, 25, &committed, &err), DM_EINVAL); /* empty */
    assert_int_equal(dm_game_touch(g, 46, &committed, &err), DM_OK);     /* cannot move */
    assert_int_equal(committed, 0);
    assert_int_equal(dm_game_touched(g), 0);
    assert_int_equal(dm_game_adjust(g, &err), DM_OK);
    assert_int_equal(dm_game_touch(g, 31, &committed, &err), DM_OK); /* adjusted */
    assert_int_equal(committed, 0);
    assert_int_equal(dm_game_touch(g, 32, &committed, &err), DM_OK); /* this one counts */
    assert_int_equal(committed, 1);
    assert_int_equal(dm_game_touched(g), 32);
    assert_int_equal(dm_game_adjust(g, &err), DM_ESTATE);
    assert_int_equal(dm_game_touch(g, 33, &committed, &err), DM_EILLEGAL);
    assert_non_null(strstr(err.message, "piece on 32 was touched"));
    assert_int_equal(dm_game_play_text(g, "33-28", &err), DM_EILLEGAL);
    assert_non_null(strstr(err.message, "touch-move"));
    assert_int_equal(dm_game_ply(g), 0);
    assert_int_equal(dm_game_play_text(g, "32-28", &err), DM_OK);
    assert_int_equal(dm_game_touched(g), 0); /* Black is free */
    assert_int_equal(dm_game_touch(g, 18, &committed, &err), DM_OK);
    assert_int_equal(committed, 1);
    assert_int_equal(dm_game_undo(g), DM_OK); /* taken back: forgotten */
    assert_int_equal(dm_game_touched(g), 0);
    assert_int_equal(dm_game_touch(g, 34, &committed, &err), DM_OK);
    dm_game_set_touch_move(g, 0); /* off: forgotten too */
    assert_int_equal(dm_game_play_text(g, "33-28", &err), DM_OK);
    dm_game_free(g);
    /* Russian (algebraic squares, numbered 1-32 inside: c3 is 22) */
    g = vgame(DM_VARIANT_RUSSIAN, NULL);
    dm_game_set_touch_move(g, 1);
    assert_int_equal(dm_game_touch(g, 22, &committed, &err), DM_OK);
    assert_int_equal(committed, 1);
    assert_int_equal(dm_game_play_text(g, "e3-d4", &err), DM_EILLEGAL);
    assert_int_equal(dm_game_play_text(g, "c3-d4", &err), DM_OK);
    dm_game_free(g);
}

static void test_game_variants__random_games_every_variant(void **state)
{
    (void)state;
    uint64_t seed = 7;
    static dm_board pos[161];
    static dm_move mv[160];
    for (int id = 0; id < DM_VARIANT_COUNT; id++) {
        const dm_variant *v = dm_variant_get((dm_variant_id)id);
        for (int game = 0; game < 12; game++) {
            dm_game *g = vgame((dm_variant_id)id, NULL);
            dm_game_rules rules = DM_GAME_RULES_INIT;
            rules.play_after_end = 1; /* walk on through draws */
            assert_int_equal(dm_game_set_rules(g, &rules), DM_OK);
            int n = 0;
            pos[0] = *dm_game_position(g);
            for (; n < 160; n++) {
                dm_movelist list;
                if (dm_movegen_legal(&list, &pos[n]) == 0 ||
                    dm_variant_result(&pos[n]) != DM_BOARD_RESULT_NONE) {
                    break;
                }
                const dm_move *m = &list.moves[rnd(&seed) % (uint64_t)list.count];
                char text[400];
                dm_move_to_text(text, sizeof text, &pos[n], m, DM_NOTATION_PDN, DM_SQUARES_DEFAULT);
                dm_error err;
                if (dm_game_play_text(g, text, &err) != DM_OK) {
                    fail_msg("%s game %d ply %d: %s: %s", v->name, game, n, text, err.message);
                }
                mv[n] = *m;
                pos[n + 1] = pos[n];
                dm_board_apply(&pos[n + 1], m);
                const dm_move *got = dm_game_move_at(g, n);
                assert_true(got->from == m->from && got->to == m->to &&
                            got->capt[0] == m->capt[0] && got->capt[1] == m->capt[1]);
                assert_memory_equal(dm_game_position(g)->sq, pos[n + 1].sq, sizeof pos[0].sq);
                { /* one judge for every variant, international included */
                    dm_board_result vr = dm_variant_result(&pos[n + 1]);
                    dm_draw_kind vd = dm_variant_draw(&v->draw, pos, mv, n + 1, NULL, 0);
                    dm_outcome want = vr == DM_BOARD_RESULT_WHITE_WINS   ? DM_OUTCOME_WHITE_WINS
                                      : vr == DM_BOARD_RESULT_BLACK_WINS ? DM_OUTCOME_BLACK_WINS
                                      : vd != DM_DRAW_NONE               ? DM_OUTCOME_DRAW
                                                                         : DM_OUTCOME_ONGOING;
                    assert_int_equal(dm_game_result(g, NULL), want);
                    assert_true(dm_game_hash_at(g, n + 1) == dm_board_hash(&pos[n + 1]));
                }
            }
            /* the record in PDN reads back as the same game (dm_game to PDN and back
             * in the library, every variant) */
            char *text = NULL;
            size_t len = 0;
            assert_int_equal(dm_pdn_write_game(&text, &len, g, NULL, DM_NOTATION_PDN), DM_OK);
            dm_game *back = NULL;
            dm_error err;
            if (dm_pdn_read_game(&back, NULL, text, len, "test", 0, &err) != DM_OK) {
                fail_msg("%s game %d: %s\n%s", v->name, game, err.message, text);
            }
            assert_ptr_equal(dm_game_variant(back), v);
            assert_int_equal(dm_game_ply(back), n);
            assert_memory_equal(dm_game_position(back)->sq, pos[n].sq, sizeof pos[0].sq);
            dm_reason r1, r2;
            dm_outcome o1 = dm_game_result(g, &r1), o2 = dm_game_result(back, &r2);
            assert_int_equal(o1, o2);
            if (o1 != DM_OUTCOME_ONGOING && n > 0) {
                /* a draw played through (play_after_end) reads back as stated */
                assert_true(r1 == r2 || o1 == DM_OUTCOME_DRAW);
            }
            free(text);
            dm_game_free(back);
            while (dm_game_undo(g) == DM_OK) {
            }
            assert_memory_equal(dm_game_position(g)->sq, pos[0].sq, sizeof pos[0].sq);
            for (int i = 0; i < n; i++) {
                assert_int_equal(dm_game_redo(g), DM_OK);
                assert_memory_equal(dm_game_position_at(g, i + 1)->sq, pos[i + 1].sq,
                                    sizeof pos[0].sq);
            }
            assert_null(dm_game_position_at(g, n + 1));
            assert_null(dm_game_move_at(g, n));
            dm_game_free(g);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_game_variants__russian_moves_undo_redo),
        cmocka_unit_test(test_game_variants__draws_with_reasons),
        cmocka_unit_test(test_game_variants__ends),
        cmocka_unit_test(test_game_variants__random_games_every_variant),
        cmocka_unit_test(test_game_variants__touch_move),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
