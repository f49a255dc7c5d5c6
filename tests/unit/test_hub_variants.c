/* SPDX-License-Identifier: MIT
 * tests/unit/test_hub_variants.c: the Hub session with the variants (damier/hub.h,
 * "variants"): the variant param, set-param by Hub and damier names, positions of
 * each board size, moves in the variant's notation and their errors, the search
 * description (root, repetition history, limits from a clock), and the info / done
 * lines of a real search by the generic engine. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include <damier/hub.h>
#include <damier/variant.h>
#include <damier/engine.h>

#include "../hub_test.h"

static void test_hub_variants__param_and_names(void **state)
{
    (void)state;
    dm_hub_session *s = new_session();
    assert_int_equal(dm_hub_session_variant(s)->id, DM_VARIANT_INTERNATIONAL);
    feed(s, "hub");
    assert_non_null(strstr(
        reply, "param name=variant value=normal type=enum values=\"normal "
               "brazilian russian english canadian losing czech italian "
               "killer breakthrough spanish pool thai frisian frysk portuguese turkish\"\n"));
    const char *names[][2] = {{"russian", "russian"},
                              {"losing", "antidraughts"},
                              {"antidraughts", "antidraughts"},
                              {"English", "english"},
                              {"czech", "czech"},
                              {"italian", "italian"},
                              {"killer", "killer"},
                              {"breakthrough", "breakthrough"},
                              {"spanish", "spanish"},
                              {"pool", "pool"},
                              {"thai", "thai"},
                              {"canadian", "canadian"},
                              {"brazilian", "brazilian"}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char line[128];
        snprintf(line, sizeof line, "set-param name=variant value=%s", names[i][0]);
        assert_int_equal(feed(s, line), DM_HUB_NEW_GAME);
        assert_string_equal(reply, "");
        assert_non_null(dm_hub_session_variant(s));
        assert_string_equal(dm_hub_session_variant(s)->name, names[i][1]);
    }
    feed(s, "hub");
    assert_non_null(strstr(reply, "param name=variant value=brazilian type=enum"));
    assert_int_equal(feed(s, "set-param name=variant value=armenian"), DM_HUB_NONE);
    assert_non_null(strstr(reply, "error message=\"set-param variant: 'armenian'"));
    assert_string_equal(dm_hub_session_variant(s)->name, "brazilian"); /* kept */
    assert_int_equal(feed(s, "set-param name=variant value=normal"), DM_HUB_NEW_GAME);
    assert_int_equal(dm_hub_session_variant(s)->id, DM_VARIANT_INTERNATIONAL);
    assert_int_equal(feed(s, "set-param name=variant value=brazilian"), DM_HUB_NEW_GAME);
    assert_int_equal(feed(s, "set-param name=variant value=international"), DM_HUB_NEW_GAME);
    assert_int_equal(dm_hub_session_variant(s)->id, DM_VARIANT_INTERNATIONAL);
    dm_hub_session_free(s);
}

/* Positions: 33 characters on 8x8, 73 on 12x12; errors say what is wrong. */
static void test_hub_variants__positions_and_moves(void **state)
{
    (void)state;
    dm_hub_session *s = new_session();
    feed(s, "set-param name=variant value=english");
    feed(s, "pos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww moves=\"22-18 10-14\"");
    assert_string_equal(reply, "");
    assert_int_equal(feed(s, "go"), DM_HUB_SEARCH);
    dm_search_input in;
    dm_limits lim;
    dm_hub_session_search(s, &in, &lim);
    assert_int_equal(in.root.variant->id, DM_VARIANT_ENGLISH);
    assert_int_equal(in.root.side, DM_WHITE);
    assert_int_equal(in.root.sq[18], DM_WHITE_MAN);
    assert_int_equal(in.root.sq[14], DM_BLACK_MAN);
    assert_int_equal(in.root.sq[10], DM_EMPTY);
    assert_int_equal(in.history_count, 0); /* man moves: nothing can repeat */
    dm_result none;
    memset(&none, 0, sizeof none);
    char done[256];
    dm_hub_session_done(s, &none, done, sizeof done);
    assert_string_equal(done, "done\n");

    feed(s, "pos pos=Wbbbb");
    assert_non_null(strstr(reply, "english wants 33 characters (side, then 32 squares), not 5"));
    feed(s, "pos pos=Xbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww");
    assert_non_null(strstr(reply, "side to move 'X' is not W or B"));
    feed(s, "pos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwwx");
    assert_non_null(strstr(reply, "square 32: 'x' is not one of w b W B e"));
    feed(s, "pos pos=Wwbbbbbbbbbbbeeeeeeeewwwwwwwwwwww"); /* a white man on its crowning row */
    assert_non_null(strstr(reply, "error message=\"bad position"));
    feed(s, "pos start moves=\"9-13 22-18 13-17 18x9\"");
    assert_non_null(strstr(reply, "error message=\"illegal move 4 '18x9' in moves=:"));
    feed(s, "pos start moves=\"9-13 zz\"");
    assert_non_null(strstr(reply, "error message=\"bad move 2 'zz' in moves=:"));
    assert_int_equal(feed(s, "go"), DM_HUB_NONE); /* not the older position */
    assert_non_null(strstr(reply, "error message=\"go: the last pos was rejected"));

    /* Kings shuffling: the history holds the positions since the last man move. */
    feed(s, "set-param name=variant value=russian");
    char pos[64] = "W";
    for (int sq = 1; sq <= 32; sq++) {
        strcat(pos, sq == 1 ? "B" : sq == 29 ? "W" : "e"); /* Kb8 (1), Ka1 (29) */
    }
    char line[256];
    snprintf(line, sizeof line, "pos pos=%s moves=\"a1-b2 b8-a7 b2-a1 a7-b8\"", pos);
    feed(s, line);
    assert_string_equal(reply, "");
    assert_int_equal(feed(s, "go"), DM_HUB_SEARCH);
    dm_hub_session_search(s, &in, &lim);
    assert_int_equal(in.history_count, 4);
    assert_true(in.history[0] == dm_board_hash(&in.root)); /* the start, same side */
    dm_hub_session_done(s, &none, done, sizeof done);
    dm_hub_session_free(s);
}

/* Limits: the level's, as for international: depth / nodes / move-time, the clock
 * (the engine plans the move from it), infinite. */
static void test_hub_variants__limits(void **state)
{
    (void)state;
    dm_hub_session *s = new_session();
    feed(s, "set-param name=variant value=canadian");
    feed(s, "pos start");
    dm_search_input in;
    dm_limits lim;
    dm_result none;
    memset(&none, 0, sizeof none);
    char done[64];
    feed(s, "level depth=7");
    feed(s, "go");
    dm_hub_session_search(s, &in, &lim);
    assert_int_equal(lim.depth, 7);
    assert_true(lim.move_time == 0);
    dm_hub_session_done(s, &none, done, sizeof done);
    feed(s, "level time=60 inc=1");
    feed(s, "go");
    dm_hub_session_search(s, &in, &lim);
    /* the clock itself: the engine's time management plans the move (as international) */
    assert_true(lim.time == 60 && lim.inc == 1 && lim.move_time == 0);
    dm_hub_session_done(s, &none, done, sizeof done);
    feed(s, "level time=1 moves=1");
    feed(s, "go");
    dm_hub_session_search(s, &in, &lim);
    assert_true(lim.time == 1 && lim.moves_to_go == 1);
    dm_hub_session_done(s, &none, done, sizeof done);
    feed(s, "level infinite");
    feed(s, "go");
    dm_hub_session_search(s, &in, &lim);
    assert_true(lim.infinite && lim.depth == 0 && lim.nodes == 0 && lim.move_time == 0);
    dm_hub_session_done(s, &none, done, sizeof done);
    dm_hub_session_free(s);
}

static void on_info(const dm_info *info, void *payload)
{
    void **p = payload;
    char *buf = p[1];
    size_t len = strlen(buf);
    dm_hub_session_info(p[0], info, buf + len, 8192 - len);
}

/* A real search: Russian, White to move takes two (Hub notation: from, to, every
 * captured square); info lines in Hub notation; no legal move: error, no search. */
static void test_hub_variants__search_lines(void **state)
{
    (void)state;
    dm_hub_session *s = new_session();
    feed(s, "set-param name=variant value=russian");
    /* White man c3 (22); black men d4 (18) and f6 (11), e5 empty... d4 taken from
     * c3 lands on e5 (15), then f6 taken lands on g7 (8). */
    char pos[64] = "W";
    for (int sq = 1; sq <= 32; sq++) {
        strcat(pos, sq == 22 ? "w" : (sq == 18 || sq == 11 || sq == 4) ? "b" : "e");
    }
    char line[128];
    snprintf(line, sizeof line, "pos pos=%s", pos);
    feed(s, line);
    assert_string_equal(reply, "");
    feed(s, "level depth=3");
    assert_int_equal(feed(s, "go"), DM_HUB_SEARCH);
    dm_search_input in;
    dm_limits lim;
    dm_hub_session_search(s, &in, &lim);
    dm_engine *e;
    dm_engine_options eo = DM_ENGINE_OPTIONS_INIT;
    eo.tt_mib = 1;
    assert_int_equal(dm_engine_create(&e, &eo), DM_OK);
    static char infos[8192];
    infos[0] = 0;
    void *payload[2] = {s, infos};
    dm_result r;
    assert_int_equal(dm_engine_search(&r, e, &in, &lim, on_info, payload, NULL), DM_OK);
    assert_non_null(strstr(infos, "info depth=1 "));
    assert_non_null(strstr(infos, "pv=\"22x8x11x18"));
    char done[256];
    dm_hub_session_done(s, &r, done, sizeof done);
    assert_string_equal(done, "done move=22x8x11x18\n");
    dm_engine_free(e);
    /* Black to move with nothing: the game is over. */
    char over[64] = "B";
    for (int sq = 1; sq <= 32; sq++) {
        strcat(over, sq == 22 ? "w" : "e");
    }
    snprintf(line, sizeof line, "pos pos=%s", over);
    feed(s, line);
    assert_int_equal(feed(s, "go"), DM_HUB_NONE);
    assert_non_null(strstr(reply, "error message=\"go: the side to move has no legal move"));
    dm_hub_session_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hub_variants__param_and_names),
        cmocka_unit_test(test_hub_variants__positions_and_moves),
        cmocka_unit_test(test_hub_variants__limits),
        cmocka_unit_test(test_hub_variants__search_lines),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
