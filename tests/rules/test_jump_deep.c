/* SPDX-License-Identifier: MIT
 * tests/rules/test_jump_deep.c: the jumping games' engine on the larger boards, whole
 * endgames played at level 10 against the greedy player (labelled slow: 10-30 s of CPU
 * in an optimised build; left out of the sanitizer run).
 *
 * Halma 10x10 anti-spoil, game 54 of `damier jump match --game halma --board 10
 * --options anti-spoil --level 10` (BENCHMARKS.md 2026-12-05), the engine B: at
 * action 28 its last home pegs g9, h9, j9 stand on the far rank and file (8-9 king steps
 * from a1, like the squares beside them) while the greedy player's pieces fill in
 * around them (h8, i8, j8, i10). The engine without the home-pressure term of
 * src/jump/jump_search.c filled its target's holes first; from action 45 A's pieces
 * on j10, i10, i9, i8, j8, h9 walled j9 in, the greedy player's rim holes f10, j6 were
 * no nearer its goal than the squares in front of them, and the no-progress rule ended
 * the game after 177 actions without a winner. Now the engine must bring its home pegs
 * out and win within 30 of its own moves (it takes 25). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <damier/jump.h>

static dm_jrules R;

/* Plays from text, the engine at level 10 for seat, the greedy player for the other
 * (a side without a move passes), at most own_moves moves of each; 1 when seat won. */
static int engine_wins_against_greedy(const char *text, int seat, int own_moves)
{
    dm_jpos p;
    dm_error err;
    if (dm_jpos_from_text(&p, &R, text, &err) != DM_OK) {
        fail_msg("%s: %s", text, err.message);
    }
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

static void test_halma10_home_pegs_leave(void **state)
{
    (void)state;
    dm_error err;
    assert_int_equal(dm_jrules_init(&R, DM_JGAME_HALMA, 2, 10, DM_JOPT_ANTI_SPOIL, &err), DM_OK);
    assert_true(engine_wins_against_greedy("B:Aa2,a3,c3,d3,e3,a4,a5,e5,f7,g7,h7,h8,i8,j8,i10:"
                                           "Bb2,c2,d2,e2,d4,d5,g5,d6,f6,j6,i7,j7,g9,h9,j9",
                                           1, 30));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_halma10_home_pegs_leave),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
