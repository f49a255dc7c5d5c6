/* SPDX-License-Identifier: MIT
 * Tests of damier/game.h: the game object (moves, undo/redo, declared results) and the
 * FMJD end-of-game and draw rules, each at its boundary: drawn at exactly the limit,
 * not one ply earlier. The FMJD rules are the draw set "fmjd" of the one judge of every
 * variant (dm_variant_draw_step, dm_variant_draw_judge; the game's counters through
 * dm_game_draw_count and dm_game_repetitions). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include <damier/game.h>

#include "../game_fast.h"

/* ---- helpers ------------------------------------------------------------------ */

static dm_game *game_from(const char *fen)
{
    dm_board10 b;
    dm_error err = {0};
    if (fen) {
        if (dm_board10_from_fen(&b, fen, &err) != DM_OK) {
            fail_msg("bad test FEN %s: %s", fen, err.message);
        }
    }
    dm_game *g = NULL;
    assert_int_equal(fast_game_new(&g, fen ? &b : NULL), DM_OK);
    assert_non_null(g);
    return g;
}

static void play(dm_game *g, const char *text)
{
    dm_error err = {0};
    dm_status st = dm_game_play_text(g, text, &err);
    if (st != DM_OK) {
        fail_msg("move %s at ply %d refused: %s", text, dm_game_ply(g), err.message);
    }
}

static void play_all(dm_game *g, const char *const *moves, int n)
{
    for (int i = 0; i < n; i++) {
        play(g, moves[i]);
    }
}

static dm_outcome result(const dm_game *g, dm_reason *r)
{
    return dm_game_result(g, r);
}

static void assert_ongoing(const dm_game *g)
{
    dm_reason r;
    dm_outcome o = result(g, &r);
    if (o != DM_OUTCOME_ONGOING) {
        fail_msg("ply %d: expected ongoing, got %s (%s)", dm_game_ply(g), dm_outcome_str(o),
                 dm_reason_str(r));
    }
}

static void assert_result(const dm_game *g, dm_outcome want, dm_reason why)
{
    dm_reason r;
    dm_outcome o = result(g, &r);
    if (o != want || r != why) {
        fail_msg("ply %d: expected %s (%s), got %s (%s)", dm_game_ply(g), dm_outcome_str(want),
                 dm_reason_str(why), dm_outcome_str(o), dm_reason_str(r));
    }
}

/* The FMJD draw-rule set (dm_variant_draw_rules "fmjd"), and the same with
 * promotion_continues: the other reading of a promotion in a configuration. */
static dm_draw_rules fmjd_set(int promotion_continues)
{
    dm_draw_rules d;
    assert_int_equal(dm_variant_draw_rules(&d, "fmjd", NULL), DM_OK);
    d.promotion_continues = promotion_continues;
    return d;
}

/* FMJD 6's material configurations against a lone king, as the judge classifies
 * them: the draw a material count far past every limit gives. */
enum {
    ENDGAME_NONE = 0,
    ENDGAME_16 = 1,
    ENDGAME_5 = 2
};

static int endgame_of(const dm_board *b)
{
    dm_draw_rules d = fmjd_set(0);
    dm_draw_count c = {0, 0, 1000};
    dm_draw_kind k = dm_variant_draw_judge(&d, b, &c, 1, NULL, 0);
    return k == DM_DRAW_THREE_VS_KING ? ENDGAME_16
           : k == DM_DRAW_TWO_VS_KING ? ENDGAME_5
                                      : ENDGAME_NONE;
}

/* The FMJD counters of a position: kings-only plies, the 16/5-move count (-1 outside a
 * configuration), the configuration, the occurrences. */
typedef struct counts {
    int kings_only_plies;
    int endgame_plies;
    int endgame_kind;
    int repetitions;
} counts;

static counts counters(const dm_game *g)
{
    dm_draw_count c;
    dm_game_draw_count(&c, g);
    counts out = {c.reversible_plies, c.material_plies, endgame_of(dm_game_position(g)),
                  dm_game_repetitions(g)};
    return out;
}

/* Counters at ply i of the game (undo to it, read, redo back). */
static counts counters_at(dm_game *g, int i)
{
    int now = dm_game_ply(g);
    assert_true(i >= 0 && i <= dm_game_length(g));
    while (dm_game_ply(g) > i) {
        assert_int_equal(dm_game_undo(g), DM_OK);
    }
    while (dm_game_ply(g) < i) {
        assert_int_equal(dm_game_redo(g), DM_OK);
    }
    counts c = counters(g);
    while (dm_game_ply(g) > now) {
        assert_int_equal(dm_game_undo(g), DM_OK);
    }
    while (dm_game_ply(g) < now) {
        assert_int_equal(dm_game_redo(g), DM_OK);
    }
    return c;
}

/* A position of international draughts on the generic board, and a move of it. */
static dm_board intl(const char *fen)
{
    dm_board b;
    dm_error err = {0};
    if (dm_board_from_fen(&b, dm_variant_get(DM_VARIANT_INTERNATIONAL), fen, &err) != DM_OK) {
        fail_msg("bad test FEN %s: %s", fen, err.message);
    }
    return b;
}

static dm_move move_of(const dm_board *b, const char *text)
{
    dm_move m;
    dm_error err = {0};
    if (dm_move_parse(&m, b, text, &err) != DM_OK) {
        fail_msg("move %s: %s", text, err.message);
    }
    return m;
}

/* The counters of a start position (no past) under d. */
static counts start_counts(const dm_board *b, const dm_draw_rules *d)
{
    dm_draw_count c;
    dm_variant_draw_count(&c, d, b, NULL, 0);
    counts out = {c.reversible_plies, c.material_plies, endgame_of(b), 1};
    return out;
}

/* The counters after m played in b from counters c (one step, dm_variant_draw_step). */
static counts step_counts(const counts *c, const dm_board *b, const dm_move *m,
                          const dm_draw_rules *d)
{
    dm_draw_count in = {c->kings_only_plies, 0, c->endgame_plies}, out;
    dm_variant_draw_step(&out, &in, d, b, m);
    dm_board after = *b;
    dm_board_apply(&after, m);
    counts r = {out.reversible_plies, out.material_plies, endgame_of(&after), 1};
    return r;
}

/* Walk `plies` quiet plies: king moves without capture, each
 * reaching a position not seen before, with the game still going on and the side to
 * move having no capture. Depth-first with backtracking, first legal move first, so
 * the walk is deterministic. Lets a test bring a draw count to its limit without a
 * repetition or a capture getting in the way. Returns 1 when done. */
static int walk_dfs(dm_game *g, int plies, long *budget)
{
    if (plies == 0) {
        return 1;
    }
    if (--*budget < 0) {
        return 0; /* give up: a broken rule must fail the test, not hang it */
    }
    dm_movelist10 list;
    dm_board10 now;
    fast_game_board(&now, g);
    dm_movegen10_legal(&list, &now);
    for (int i = 0; i < list.count; i++) {
        const dm_move10 *m = &list.moves[i];
        dm_piece p = dm_board10_piece(&now, m->from);
        int king = p == DM_WHITE_KING || p == DM_BLACK_KING;
        if (m->ncapt > 0 || !king) {
            continue;
        }
        assert_int_equal(fast_game_play(g, m), DM_OK);
        dm_board10 after;
        const dm_board10 *b = fast_game_board(&after, g);
        if (counters(g).repetitions == 1 && !dm_movegen10_has_capture(b) &&
            (plies == 1 || !dm_game_over(g)) && walk_dfs(g, plies - 1, budget)) {
            return 1;
        }
        assert_int_equal(dm_game_undo(g), DM_OK);
    }
    return 0;
}

static void walk(dm_game *g, int plies)
{
    long budget = 100000;
    if (!walk_dfs(g, plies, &budget)) {
        char fen[200];
        dm_board10 now;
        dm_board10_to_fen(fen, sizeof fen, fast_game_board(&now, g));
        fail_msg("no quiet king walk of %d plies from ply %d in %s", plies, dm_game_ply(g), fen);
    }
}

/* Walk from the current ply to ply `limit`; check that every position on the way was
 * still undecided (one ply before the limit included) and that the last one is drawn
 * for `why`. */
static void walk_to_draw(dm_game *g, int limit, dm_reason why)
{
    int from = dm_game_ply(g);
    walk(g, limit - from);
    assert_int_equal(dm_game_ply(g), limit);
    assert_result(g, DM_OUTCOME_DRAW, why);
    for (int i = from; i < limit; i++) {
        assert_int_equal(dm_game_undo(g), DM_OK);
        assert_ongoing(g);
    }
    for (int i = from; i < limit; i++) {
        assert_int_equal(dm_game_redo(g), DM_OK);
    }
    assert_result(g, DM_OUTCOME_DRAW, why);
}

/* Play the first legal quiet man move that leaves the opponent no capture. */
static void play_man_move(dm_game *g)
{
    dm_movelist10 list;
    dm_board10 now, after;
    fast_game_board(&now, g);
    dm_movegen10_legal(&list, &now);
    for (int i = 0; i < list.count; i++) {
        dm_piece p = dm_board10_piece(&now, list.moves[i].from);
        if (list.moves[i].ncapt == 0 && (p == DM_WHITE_MAN || p == DM_BLACK_MAN)) {
            assert_int_equal(fast_game_play(g, &list.moves[i]), DM_OK);
            if (!dm_movegen10_has_capture(fast_game_board(&after, g))) {
                return;
            }
            assert_int_equal(dm_game_undo(g), DM_OK);
        }
    }
    fail_msg("no man move at ply %d", dm_game_ply(g));
}

/* ---- game object ------------------------------------------------------------- */

static void test_game__new_start_and_bad_board(void **state)
{
    (void)state;
    dm_game *g = game_from(NULL);
    dm_board10 start;
    dm_board10_start(&start);
    dm_board10 b;
    assert_true(dm_board10_equal(fast_game_board_at(&b, g, 0), &start));
    assert_true(dm_board10_equal(fast_game_board(&b, g), &start));
    assert_true(dm_game_position(g) == dm_game_position_at(g, 0));
    assert_int_equal(dm_game_position(g)->variant->id, DM_VARIANT_INTERNATIONAL);
    assert_int_equal(dm_game_ply(g), 0);
    assert_int_equal(dm_game_length(g), 0);
    assert_ongoing(g);
    dm_game_free(g);

    dm_board10 bad;
    dm_board10_clear(&bad);
    dm_board10_put(&bad, 3, DM_WHITE_MAN); /* a White man on its promotion row */
    g = (dm_game *)&bad;
    assert_int_equal(fast_game_new(&g, &bad), DM_EINVAL);
    assert_null(g);
    assert_int_equal(dm_game_new(NULL, NULL), DM_EINVAL);
    dm_game_free(NULL);
}

static void test_game__moves_positions_and_text(void **state)
{
    (void)state;
    dm_game *g = game_from(NULL);
    play(g, "32-28");
    play(g, "19-23");
    play(g, "28x19");
    assert_int_equal(dm_game_ply(g), 3);
    assert_int_equal(dm_game_length(g), 3);

    char buf[64];
    dm_game_move_text(buf, sizeof buf, g, 2, DM_NOTATION_PDN);
    assert_string_equal(buf, "28x19");
    dm_game_move_text(buf, sizeof buf, g, 0, DM_NOTATION_PDN);
    assert_string_equal(buf, "32-28");
    assert_int_equal(dm_game_move_text(buf, sizeof buf, g, 3, DM_NOTATION_PDN), 0);
    assert_string_equal(buf, "");

    /* board_at(i) is the position before ply i; applying move i gives board_at(i+1) */
    for (int i = 0; i < 3; i++) {
        dm_board10 b, next;
        dm_move10 m;
        assert_non_null(fast_game_board_at(&b, g, i));
        assert_int_equal(b.side, i % 2);
        assert_non_null(fast_game_move_at(&m, g, i));
        dm_board10_apply(&b, &m);
        assert_true(dm_board10_equal(&b, fast_game_board_at(&next, g, i + 1)));
        assert_int_equal(dm_game_hash_at(g, i + 1), next.hash);
        /* the generic position and move: applying move i gives position i + 1 too */
        dm_board vb = *dm_game_position_at(g, i);
        dm_board_apply(&vb, dm_game_move_at(g, i));
        assert_true(dm_board_hash(&vb) == dm_board_hash(dm_game_position_at(g, i + 1)));
    }
    assert_true(dm_game_position_at(g, 3) == dm_game_position(g));
    assert_null(dm_game_position_at(g, 4));
    assert_null(dm_game_position_at(g, -1));
    assert_null(dm_game_move_at(g, 3));
    assert_null(dm_game_move_at(g, -1));
    dm_board10 now;
    fast_game_board(&now, g);
    assert_int_equal(now.pieces[DM_BLACK] != 0, 1);
    assert_int_equal(dm_board10_count_men(&now, DM_BLACK), 19);
    dm_game_free(g);
}

static void test_game__illegal_moves_change_nothing(void **state)
{
    (void)state;
    dm_game *g = game_from(NULL);
    play(g, "32-28");
    play(g, "19-23");
    assert_int_equal(dm_game_undo(g), DM_OK); /* keep a redo list to check it survives */
    dm_board10 before, now;
    fast_game_board(&before, g);
    counts cb = counters(g);

    dm_error err = {0};
    assert_int_equal(dm_game_play_text(g, "50-45", &err), DM_EILLEGAL); /* occupied */
    assert_true(strlen(err.message) > 0);
    assert_int_equal(dm_game_play_text(g, "19-2x", &err), DM_EPARSE);
    assert_int_equal(dm_game_play_text(g, "28-23", &err), DM_EILLEGAL); /* not Black's */
    assert_int_equal(dm_game_play_text(g, "", &err), DM_EPARSE);

    dm_move10 junk = {0};
    junk.from = 19;
    junk.to = 30; /* no such move */
    assert_int_equal(fast_game_play(g, &junk), DM_EILLEGAL);
    dm_move vjunk = {0};
    vjunk.from = 19;
    vjunk.to = 24;
    vjunk.ncapt = 1; /* 19-24 is a move, but it captures nothing */
    assert_int_equal(dm_game_play(g, &vjunk), DM_EILLEGAL);
    assert_int_equal(dm_game_play(g, NULL), DM_EINVAL);

    assert_true(dm_board10_equal(fast_game_board(&now, g), &before));
    assert_int_equal(now.hash, before.hash);
    assert_int_equal(dm_game_ply(g), 1);
    assert_int_equal(dm_game_length(g), 2);
    assert_int_equal(counters(g).kings_only_plies, cb.kings_only_plies);
    assert_int_equal(dm_game_redo(g), DM_OK);
    assert_int_equal(dm_game_ply(g), 2);

    /* Capture is compulsory: the quiet move is refused and the reason names the rule */
    play(g, "28x19");
    play(g, "14x23");
    play(g, "37-32");
    play(g, "23-28");
    assert_int_equal(dm_game_play_text(g, "31-26", &err), DM_EILLEGAL);
    assert_int_equal(dm_game_ply(g), 6);
    play(g, "32x23");
    dm_game_free(g);
}

static void test_game__undo_redo(void **state)
{
    (void)state;
    dm_game *g = game_from(NULL);
    assert_int_equal(dm_game_undo(g), DM_ESTATE);
    assert_int_equal(dm_game_redo(g), DM_ESTATE);
    static const char *const mv[] = {"32-28", "19-23", "28x19", "14x23"};
    play_all(g, mv, 4);
    dm_board10 end, now, at2;
    fast_game_board(&end, g);

    assert_int_equal(dm_game_undo(g), DM_OK);
    assert_int_equal(dm_game_undo(g), DM_OK);
    assert_int_equal(dm_game_ply(g), 2);
    assert_int_equal(dm_game_length(g), 4);
    assert_true(dm_board10_equal(fast_game_board(&now, g), fast_game_board_at(&at2, g, 2)));
    assert_int_equal(dm_board10_count_men(&now, DM_BLACK), 20);
    assert_non_null(dm_game_move_at(g, 3)); /* redo moves stay readable */

    assert_int_equal(dm_game_redo(g), DM_OK);
    assert_int_equal(dm_game_redo(g), DM_OK);
    assert_int_equal(dm_game_redo(g), DM_ESTATE);
    assert_true(dm_board10_equal(fast_game_board(&now, g), &end));

    /* a new move clears the redo list */
    for (int i = 0; i < 3; i++) {
        assert_int_equal(dm_game_undo(g), DM_OK);
    }
    play(g, "17-21");
    assert_int_equal(dm_game_ply(g), 2);
    assert_int_equal(dm_game_length(g), 2);
    assert_int_equal(dm_game_redo(g), DM_ESTATE);
    assert_null(dm_game_move_at(g, 2));
    dm_game_free(g);
}

/* ---- losses: no pieces, blocked ---------------------------------------------- */

static void test_game__no_pieces_left_loses(void **state)
{
    (void)state;
    dm_game *g = game_from("W:W28:B23");
    assert_ongoing(g);
    play(g, "28x19");
    assert_result(g, DM_OUTCOME_WHITE_WINS, DM_REASON_NO_PIECES);
    assert_true(dm_game_over(g));
    dm_error err = {0};
    assert_int_equal(dm_game_play_text(g, "19-13", &err), DM_ESTATE);
    assert_non_null(strstr(err.message, "over"));
    /* undo takes the result back, redo restores it */
    assert_int_equal(dm_game_undo(g), DM_OK);
    assert_ongoing(g);
    assert_int_equal(dm_game_redo(g), DM_OK);
    assert_result(g, DM_OUTCOME_WHITE_WINS, DM_REASON_NO_PIECES);
    dm_game_free(g);

    /* Black captures White's last piece */
    g = game_from("B:W28:B23");
    play(g, "23x32");
    assert_result(g, DM_OUTCOME_BLACK_WINS, DM_REASON_NO_PIECES);
    dm_game_free(g);
}

static void test_game__blocked_loses(void **state)
{
    (void)state;
    /* Black man 36 can only go to 41; once White stands on 41 with 47 behind it,
     * Black has no legal move (FMJD 7.2) */
    dm_game *g = game_from("W:W46,47:B36");
    assert_ongoing(g);
    play(g, "46-41");
    assert_result(g, DM_OUTCOME_WHITE_WINS, DM_REASON_BLOCKED);
    dm_game_free(g);

    /* a blocked start position is decided at once; White blocked here */
    g = game_from("W:W46:B41,37");
    assert_result(g, DM_OUTCOME_BLACK_WINS, DM_REASON_BLOCKED);
    dm_game_free(g);
}

/* ---- threefold repetition --------------------------------------------------- */

/* Two kings and a man each side: no 16/5-move configuration, no captures on the
 * paths used. White king shuttles 47-42, Black king 4-10. */
#define REP_FEN "W:WK47,45:BK4,6"

static void test_game__threefold_on_third_occurrence(void **state)
{
    (void)state;
    dm_game *g = game_from(REP_FEN);
    static const char *const cycle[] = {"47-42", "4-10", "42-47", "10-4"};
    play_all(g, cycle, 4);
    assert_int_equal(counters(g).repetitions, 2);
    assert_ongoing(g); /* second occurrence: not yet */
    play_all(g, cycle, 3);
    assert_ongoing(g);
    assert_int_equal(counters(g).repetitions, 2); /* ply 7 = ply 3 (47/10, Black to move) */
    play(g, cycle[3]);
    assert_int_equal(dm_game_ply(g), 8);
    assert_int_equal(counters(g).repetitions, 3);
    assert_result(g, DM_OUTCOME_DRAW, DM_REASON_REPETITION);

    /* no further move by default */
    dm_error err = {0};
    assert_int_equal(dm_game_play_text(g, "47-42", &err), DM_ESTATE);
    assert_int_equal(dm_game_resign(g, DM_WHITE), DM_ESTATE);

    /* undo/redo restore the result */
    assert_int_equal(dm_game_undo(g), DM_OK);
    assert_ongoing(g);
    assert_int_equal(dm_game_redo(g), DM_OK);
    assert_result(g, DM_OUTCOME_DRAW, DM_REASON_REPETITION);

    /* history_hashes: positions since the last man move, oldest first */
    uint64_t h[16];
    assert_int_equal(dm_game_history_hashes(h, 16, g), 8);
    assert_int_equal(h[0], dm_game_hash_at(g, 0));
    assert_int_equal(h[7], dm_game_hash_at(g, 7));
    assert_int_equal(dm_game_history_hashes(h, 3, g), 8); /* only the 3 most recent */
    assert_int_equal(h[0], dm_game_hash_at(g, 5));
    assert_int_equal(h[2], dm_game_hash_at(g, 7));

    /* play_after_end: analysis may go on; the result is that of the new position */
    dm_game_rules rules = DM_GAME_RULES_INIT;
    rules.play_after_end = 1;
    assert_int_equal(dm_game_set_rules(g, &rules), DM_OK);
    play(g, "45-40");
    assert_ongoing(g);
    assert_int_equal(counters(g).repetitions, 1);
    assert_int_equal(counters(g).kings_only_plies, 0);
    assert_int_equal(dm_game_history_hashes(h, 16, g), 0);
    dm_game_free(g);
}

static void test_game__threefold_needs_same_side_to_move(void **state)
{
    (void)state;
    /* A king returns along one diagonal in three moves (47-42-38-47) while the other
     * shuttles in two, so the same pieces come back with the OTHER side to move. */
    dm_game *g = game_from(REP_FEN);
    static const char *const w_tri[] = {"47-42", "4-10", "42-38", "10-4", "38-47"};
    play_all(g, w_tri, 5);
    dm_board10 at0, at5;
    const dm_board10 *b0 = fast_game_board_at(&at0, g, 0), *b5 = fast_game_board(&at5, g);
    assert_int_equal(b0->pieces[0], b5->pieces[0]);
    assert_int_equal(b0->pieces[1], b5->pieces[1]);
    assert_int_equal(b5->side, DM_BLACK);
    assert_int_equal(counters(g).repetitions, 1); /* same pieces, other side: new */

    static const char *const b_tri[] = {"4-10", "47-42", "10-15", "42-47", "15-4"};
    play_all(g, b_tri, 5); /* pieces as at ply 0 and 5, White to move: 2nd time */
    assert_int_equal(dm_game_ply(g), 10);
    assert_int_equal(counters(g).repetitions, 2);
    assert_ongoing(g); /* the pieces stand so for the 3rd time, but not same side */

    static const char *const cycle[] = {"47-42", "4-10", "42-47", "10-4"};
    play_all(g, cycle, 3);
    assert_ongoing(g);
    play(g, cycle[3]);
    assert_result(g, DM_OUTCOME_DRAW, DM_REASON_REPETITION);
    dm_game_free(g);
}

/* ---- 25-move rule ----------------------------------------------------------- */

/* Two kings and a man each: quiet king walks without captures. */
#define KINGS_FEN "W:WK47,K49,45,36:BK2,K4,6,15"

static void test_game__25_moves_at_exactly_50_plies(void **state)
{
    (void)state;
    dm_game *g = game_from(KINGS_FEN);
    walk_to_draw(g, 50, DM_REASON_25_MOVES);
    assert_int_equal(counters(g).kings_only_plies, 50);
    /* undo / redo restore it */
    assert_int_equal(dm_game_undo(g), DM_OK);
    assert_ongoing(g);
    assert_int_equal(counters(g).kings_only_plies, 49);
    assert_int_equal(dm_game_redo(g), DM_OK);
    assert_result(g, DM_OUTCOME_DRAW, DM_REASON_25_MOVES);
    dm_game_free(g);
}

static void test_game__25_moves_reset_by_man_move(void **state)
{
    (void)state;
    dm_game *g = game_from(KINGS_FEN);
    walk(g, 30);
    assert_int_equal(counters(g).kings_only_plies, 30);
    play_man_move(g);
    assert_int_equal(counters(g).kings_only_plies, 0);
    int start = dm_game_ply(g);
    walk_to_draw(g, start + 50, DM_REASON_25_MOVES);
    assert_int_equal(counters(g).kings_only_plies, 50);
    dm_game_free(g);
}

static void test_game__25_moves_reset_by_capture(void **state)
{
    (void)state;
    /* pure step: a king capture resets the count, a king move adds one */
    dm_draw_rules fmjd = fmjd_set(0);
    dm_board b = intl("W:WK28,K50:BK5,K1,23,6");
    counts c = {45, -1, ENDGAME_NONE, 1};
    dm_move m = move_of(&b, "28x19");
    c = step_counts(&c, &b, &m, &fmjd);
    assert_int_equal(c.kings_only_plies, 0);

    b = intl("W:WK47,K50:BK5,K1,6");
    c.kings_only_plies = 45;
    m = move_of(&b, "50-44");
    c = step_counts(&c, &b, &m, &fmjd);
    assert_int_equal(c.kings_only_plies, 46);

    /* in a game (repetitions off so kings can shuttle): 42 king plies, then a king
     * capture at ply 43 resets the count */
    dm_game *g = game_from(REP_FEN);
    dm_game_rules rules = DM_GAME_RULES_INIT;
    rules.repetitions = 0;
    assert_int_equal(dm_game_set_rules(g, &rules), DM_OK);
    static const char *const cycle[] = {"47-42", "4-10", "42-47", "10-4"};
    for (int i = 0; i < 10; i++) {
        play_all(g, cycle, 4);
    }
    play(g, "47-42");
    play(g, "4-31");
    assert_int_equal(counters(g).kings_only_plies, 42);
    dm_error err = {0};
    assert_int_equal(dm_game_play_text(g, "42-47", &err), DM_EILLEGAL); /* must capture */
    play(g, "42x26");
    assert_int_equal(counters(g).kings_only_plies, 0);
    assert_ongoing(g);
    dm_game_free(g);
}

/* ---- 16- and 5-move rules --------------------------------------------------- */

static void test_game__endgame_classes(void **state)
{
    (void)state;
    static const struct {
        const char *fen;
        int want;
    } cases[] = {
        {"W:WK46,K47,K48:BK5", ENDGAME_16},       /* 3 kings */
        {"W:WK46,K47,35:BK5", ENDGAME_16},        /* 2 kings + man */
        {"W:WK46,35,36:BK5", ENDGAME_16},         /* king + 2 men */
        {"B:WK1:BK46,K47,20", ENDGAME_16},        /* colours swapped */
        {"W:W33,34,35:BK5", ENDGAME_NONE},        /* 3 men: no king */
        {"W:WK46,K47,K48,K49:BK5", ENDGAME_NONE}, /* 4 pieces */
        {"W:WK46,K47:BK5", ENDGAME_5},            /* 2 kings */
        {"W:WK46,35:BK5", ENDGAME_5},             /* king + man */
        {"W:WK46:BK5", ENDGAME_5},                /* king vs king */
        {"W:W35,36:BK5", ENDGAME_NONE},           /* 2 men */
        {"W:W35:BK5", ENDGAME_NONE},              /* man vs king */
        {"W:WK46,K47,K48:B5", ENDGAME_NONE},      /* lone MAN */
        {"W:WK46,K47,K48:BK5,K4", ENDGAME_NONE},  /* 2 kings */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        dm_board b = intl(cases[i].fen);
        if (endgame_of(&b) != cases[i].want) {
            fail_msg("%s: class %d, want %d", cases[i].fen, endgame_of(&b), cases[i].want);
        }
    }
}

static void test_game__16_moves_at_exactly_32_plies(void **state)
{
    (void)state;
    dm_game *g = game_from("W:WK46,K47,K48:BK3");
    assert_int_equal(counters(g).endgame_plies, 0);
    assert_int_equal(counters(g).endgame_kind, ENDGAME_16);
    walk_to_draw(g, 32, DM_REASON_16_MOVES);
    assert_int_equal(counters(g).endgame_plies, 32);
    dm_game_free(g);
}

static void test_game__16_moves_count_starts_when_configuration_appears(void **state)
{
    (void)state;
    /* 3 kings against king + man: no rule yet (ply 0 does not count); the capture
     * of the man makes 3 kings vs a lone king: count 0 there, draw 32 plies later. */
    dm_game *g = game_from("W:WK46,K50,K33:BK1,29");
    assert_int_equal(counters(g).endgame_plies, -1);
    dm_error err = {0};
    /* White must take 29 at once (33x24): check, then play it */
    assert_int_equal(dm_game_play_text(g, "46-41", &err), DM_EILLEGAL);
    play(g, "33x24");
    assert_int_equal(counters(g).endgame_kind, ENDGAME_16);
    assert_int_equal(counters(g).endgame_plies, 0);
    assert_int_equal(counters(g).kings_only_plies, 0);
    walk_to_draw(g, 1 + 32, DM_REASON_16_MOVES);
    dm_game_free(g);
}

static void test_game__5_moves_at_exactly_10_plies(void **state)
{
    (void)state;
    dm_game *g = game_from("W:WK48:BK3");
    walk_to_draw(g, 10, DM_REASON_5_MOVES);
    dm_game_free(g);

    g = game_from("W:WK46,K50:BK3");
    walk_to_draw(g, 10, DM_REASON_5_MOVES);
    dm_game_free(g);
}

static void test_game__capture_16_to_5_restarts_count(void **state)
{
    (void)state;
    /* 3 kings vs lone king (16-move count 0 at the start). White gives a king away:
     * Black must capture, leaving 2 kings vs king: a fresh 5-move count starts at the
     * capture (ply 2), so the draw comes at ply 12, not at ply 10. */
    dm_game *g = game_from("W:WK29,K45,K50:BK19");
    assert_int_equal(counters(g).endgame_kind, ENDGAME_16);
    play(g, "29-23");
    assert_int_equal(counters(g).endgame_plies, 1);
    play(g, "19x46"); /* to the corner, out of reach */
    assert_int_equal(counters(g).endgame_kind, ENDGAME_5);
    assert_int_equal(counters(g).endgame_plies, 0);
    walk_to_draw(g, 12, DM_REASON_5_MOVES);
    dm_game_free(g);
}

static void test_game__promotion_restarts_count_by_default(void **state)
{
    (void)state;
    /* king + 2 men (on the edge, uncapturable) vs lone king: 16-move count from ply 0.
     * The man promotes at ply 5: a new configuration (2 kings + man) restarts the
     * count, so the draw is at ply 5 + 32 = 37; with promotion_restarts = 0 it stays at
     * ply 32. */
    dm_game *g = game_from("W:WK46,6,36:BK24");
    walk(g, 4);
    assert_int_equal(counters(g).endgame_plies, 4);
    play(g, "6-1");
    assert_int_equal(counters(g).endgame_kind, ENDGAME_16);
    assert_int_equal(counters(g).endgame_plies, 0);
    assert_int_equal(counters(g).kings_only_plies, 0);
    walk_to_draw(g, 37, DM_REASON_16_MOVES);

    /* the other reading, applied to the same history by set_rules */
    dm_game_rules rules = DM_GAME_RULES_INIT;
    rules.promotion_restarts = 0;
    assert_int_equal(dm_game_set_rules(g, &rules), DM_OK);
    assert_int_equal(counters_at(g, 5).endgame_plies, 5);
    assert_int_equal(counters_at(g, 31).endgame_plies, 31);
    assert_int_equal(counters_at(g, 32).endgame_plies, 32);
    assert_int_equal(dm_game_length(g), 37);
    assert_null(dm_game_position_at(g, 38));
    assert_int_equal(dm_game_hash_at(g, 38), 0);
    assert_int_equal(dm_game_draw_rules(g)->promotion_continues, 1);
    while (dm_game_ply(g) > 31) {
        assert_int_equal(dm_game_undo(g), DM_OK);
    }
    assert_ongoing(g);
    assert_int_equal(dm_game_redo(g), DM_OK);
    assert_result(g, DM_OUTCOME_DRAW, DM_REASON_16_MOVES);
    dm_game_free(g);
}

static void test_game__promotion_into_and_within_configurations(void **state)
{
    (void)state;
    dm_draw_rules fmjd = fmjd_set(0), keep = fmjd_set(1);
    dm_board b;
    dm_move m;
    counts c, out;

    /* king + man vs king (5-move, 3 plies counted); the man promotes: 2 kings vs king,
     * still the 5-move rule: restart by default, go on with promotion_restarts = 0 */
    b = intl("W:WK46,7:BK24");
    c = start_counts(&b, &fmjd);
    assert_int_equal(c.endgame_kind, ENDGAME_5);
    c.endgame_plies = 3;
    c.kings_only_plies = 3;
    m = move_of(&b, "7-1");
    out = step_counts(&c, &b, &m, &fmjd);
    assert_int_equal(out.endgame_kind, ENDGAME_5);
    assert_int_equal(out.endgame_plies, 0);
    assert_int_equal(out.kings_only_plies, 0);
    out = step_counts(&c, &b, &m, &keep);
    assert_int_equal(out.endgame_plies, 4);

    /* 2 kings vs king (5-move, 6 plies counted); the lone king takes one: king vs
     * king, the same rule, but a capture always starts a fresh count */
    b = intl("B:WK23,K45:BK19");
    c = start_counts(&b, &fmjd);
    c.endgame_plies = 6;
    m = move_of(&b, "19x46");
    out = step_counts(&c, &b, &m, &keep);
    assert_int_equal(out.endgame_kind, ENDGAME_5);
    assert_int_equal(out.endgame_plies, 0);

    /* a king move in the configuration counts one more ply */
    b = intl("W:WK46,7:BK24");
    c = start_counts(&b, &fmjd);
    c.endgame_plies = 3;
    c.kings_only_plies = 3;
    m = move_of(&b, "46-41");
    out = step_counts(&c, &b, &m, &fmjd);
    assert_int_equal(out.endgame_plies, 4);
    assert_int_equal(out.kings_only_plies, 4);

    /* 3 men vs king (no rule); a promotion makes king + 2 men: the count starts at 0
     * whatever the setting */
    b = intl("W:W7,35,36:BK24");
    c = start_counts(&b, &fmjd);
    assert_int_equal(c.endgame_plies, -1);
    m = move_of(&b, "7-1");
    out = step_counts(&c, &b, &m, &keep);
    assert_int_equal(out.endgame_kind, ENDGAME_16);
    assert_int_equal(out.endgame_plies, 0);

    /* a man move outside any configuration stays outside */
    m = move_of(&b, "35-30");
    out = step_counts(&c, &b, &m, &fmjd);
    assert_int_equal(out.endgame_plies, -1);
    assert_int_equal(out.endgame_kind, ENDGAME_NONE);
    assert_int_equal(out.repetitions, 1);
}

static void test_game__pure_judge_boundaries(void **state)
{
    (void)state;
    /* the one judge of every variant, with the FMJD set */
    dm_draw_rules fmjd = fmjd_set(0);
    dm_board b = intl(KINGS_FEN);
    dm_draw_count c = {49, 0, -1};
    char why[80];
    assert_int_equal(dm_variant_draw_judge(&fmjd, &b, &c, 1, why, sizeof why), DM_DRAW_NONE);
    assert_string_equal(why, "");
    c.reversible_plies = 50;
    assert_int_equal(dm_variant_draw_judge(&fmjd, &b, &c, 1, why, sizeof why), DM_DRAW_NO_PROGRESS);
    assert_string_equal(why, "25-move rule");
    c.reversible_plies = 0;
    assert_int_equal(dm_variant_draw_judge(&fmjd, &b, &c, 2, NULL, 0), DM_DRAW_NONE);
    assert_int_equal(dm_variant_draw_judge(&fmjd, &b, &c, 3, why, sizeof why), DM_DRAW_REPETITION);
    assert_string_equal(why, "threefold repetition");

    /* thresholds are settings; 0 switches a rule off */
    dm_draw_rules off = fmjd;
    off.repetition = 0;
    assert_int_equal(dm_variant_draw_judge(&off, &b, &c, 3, NULL, 0), DM_DRAW_NONE);

    b = intl("W:WK46:BK5");
    c.material_plies = 9;
    assert_int_equal(dm_variant_draw_judge(&fmjd, &b, &c, 1, NULL, 0), DM_DRAW_NONE);
    c.material_plies = 10;
    assert_int_equal(dm_variant_draw_judge(&fmjd, &b, &c, 1, NULL, 0), DM_DRAW_TWO_VS_KING);
    off = fmjd;
    off.two_vs_king_moves = 6;
    assert_int_equal(dm_variant_draw_judge(&off, &b, &c, 1, NULL, 0), DM_DRAW_NONE);

    /* in a game: a loss takes precedence over a draw count completed by the same move.
     * With the kings-only rule at 1 move (2 plies), White's king goes to the corner
     * 10-5 and Black's king closes it in 4-10 (14 behind it): White cannot move at ply
     * 2, when the count reaches 2 plies as well. */
    dm_game *g = game_from("W:WK10:BK4,14,19");
    dm_game_rules rules = DM_GAME_RULES_INIT;
    rules.kings_only_moves = 1;
    assert_int_equal(dm_game_set_rules(g, &rules), DM_OK);
    assert_int_equal(dm_game_draw_rules(g)->kings_only_moves, 1);
    play(g, "10-5");
    assert_ongoing(g);
    play(g, "4-10");
    assert_int_equal(counters(g).kings_only_plies, 2);
    assert_result(g, DM_OUTCOME_BLACK_WINS, DM_REASON_BLOCKED);
    /* the same count without the block: the draw */
    assert_int_equal(dm_game_undo(g), DM_OK);
    assert_int_equal(dm_game_undo(g), DM_OK);
    play(g, "10-15");
    play(g, "4-10");
    assert_result(g, DM_OUTCOME_DRAW, DM_REASON_25_MOVES);
    char text[80];
    dm_game_reason_text(text, sizeof text, g);
    assert_string_equal(text, "25-move rule");
    dm_game_free(g);

    assert_string_equal(dm_outcome_str(DM_OUTCOME_WHITE_WINS), "2-0");
    assert_string_equal(dm_outcome_str(DM_OUTCOME_BLACK_WINS), "0-2");
    assert_string_equal(dm_outcome_str(DM_OUTCOME_DRAW), "1-1");
    assert_string_equal(dm_outcome_str(DM_OUTCOME_ONGOING), "*");
    assert_string_equal(dm_reason_str(DM_REASON_16_MOVES), "16-move rule");
}

/* ---- declared results ------------------------------------------------------- */

static void test_game__declared_results(void **state)
{
    (void)state;
    dm_game *g = game_from(NULL);
    play(g, "32-28");
    assert_int_equal(dm_game_resign(g, DM_BLACK), DM_OK);
    assert_result(g, DM_OUTCOME_WHITE_WINS, DM_REASON_RESIGNATION);
    dm_error err = {0};
    assert_int_equal(dm_game_play_text(g, "19-23", &err), DM_ESTATE);
    assert_int_equal(dm_game_agree_draw(g), DM_ESTATE);
    /* the result belongs to ply 1: undo leaves it, redo brings it back */
    assert_int_equal(dm_game_undo(g), DM_OK);
    assert_ongoing(g);
    assert_int_equal(dm_game_redo(g), DM_OK);
    assert_result(g, DM_OUTCOME_WHITE_WINS, DM_REASON_RESIGNATION);
    /* a new move after undo drops it */
    assert_int_equal(dm_game_undo(g), DM_OK);
    play(g, "33-28");
    assert_ongoing(g);
    assert_int_equal(dm_game_redo(g), DM_ESTATE);

    assert_int_equal(dm_game_flag(g, DM_BLACK), DM_OK);
    assert_result(g, DM_OUTCOME_WHITE_WINS, DM_REASON_TIME);
    assert_int_equal(dm_game_clear_result(g), DM_OK);
    assert_int_equal(dm_game_clear_result(g), DM_ESTATE);
    assert_ongoing(g);
    assert_int_equal(dm_game_forfeit(g, DM_WHITE), DM_OK);
    assert_result(g, DM_OUTCOME_BLACK_WINS, DM_REASON_FORFEIT);
    assert_int_equal(dm_game_clear_result(g), DM_OK);
    assert_int_equal(dm_game_agree_draw(g), DM_OK);
    assert_result(g, DM_OUTCOME_DRAW, DM_REASON_AGREEMENT);
    assert_int_equal(dm_game_clear_result(g), DM_OK);
    /* FMJD 7.3: neither side can win, declared (by an arbiter or a database) */
    assert_int_equal(dm_game_declare_no_win(g), DM_OK);
    assert_result(g, DM_OUTCOME_DRAW, DM_REASON_NO_WIN);
    assert_string_equal(dm_reason_str(DM_REASON_NO_WIN), "neither side can win");
    assert_int_equal(dm_game_declare_no_win(g), DM_ESTATE);
    assert_int_equal(dm_game_declare_no_win(NULL), DM_EINVAL);
    assert_int_equal(dm_game_clear_result(g), DM_OK);
    /* the arbiter's decision: any result, never "ongoing" */
    assert_int_equal(dm_game_declare_arbiter(g, DM_OUTCOME_ONGOING), DM_EINVAL);
    assert_int_equal(dm_game_declare_arbiter(g, (dm_outcome)9), DM_EINVAL);
    assert_int_equal(dm_game_declare_arbiter(NULL, DM_OUTCOME_DRAW), DM_EINVAL);
    assert_int_equal(dm_game_declare_arbiter(g, DM_OUTCOME_BLACK_WINS), DM_OK);
    assert_result(g, DM_OUTCOME_BLACK_WINS, DM_REASON_ARBITER);
    assert_string_equal(dm_reason_str(DM_REASON_ARBITER), "arbiter's decision");
    assert_int_equal(dm_game_declare_arbiter(g, DM_OUTCOME_DRAW), DM_ESTATE);
    assert_int_equal(dm_game_clear_result(g), DM_OK);
    assert_int_equal(dm_game_resign(g, (dm_color)7), DM_EINVAL);

    /* declaring at an earlier ply ends the game there: the redo list goes */
    play(g, "19-23");
    assert_int_equal(dm_game_undo(g), DM_OK);
    assert_int_equal(dm_game_resign(g, DM_BLACK), DM_OK);
    assert_int_equal(dm_game_length(g), dm_game_ply(g));
    assert_int_equal(dm_game_redo(g), DM_ESTATE);

    /* resign at the start: undo cannot reach it, clear_result can */
    dm_game_free(g);
    g = game_from(NULL);
    assert_int_equal(dm_game_resign(g, DM_WHITE), DM_OK);
    assert_result(g, DM_OUTCOME_BLACK_WINS, DM_REASON_RESIGNATION);
    assert_int_equal(dm_game_undo(g), DM_ESTATE);
    assert_int_equal(dm_game_clear_result(g), DM_OK);
    play(g, "32-28");
    dm_game_free(g);
}

static void test_game__set_rules_rejects_bad_values(void **state)
{
    (void)state;
    dm_game *g = game_from(NULL);
    dm_game_rules r = DM_GAME_RULES_INIT;
    r.version = 99;
    assert_int_equal(dm_game_set_rules(g, &r), DM_EINVAL);
    r = (dm_game_rules)DM_GAME_RULES_INIT;
    r.kings_only_moves = -1;
    assert_int_equal(dm_game_set_rules(g, &r), DM_EINVAL);
    assert_int_equal(dm_game_set_rules(g, NULL), DM_EINVAL);
    assert_int_equal(dm_game_rules_of(g)->kings_only_moves, 25);
    dm_game_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_game__new_start_and_bad_board),
        cmocka_unit_test(test_game__moves_positions_and_text),
        cmocka_unit_test(test_game__illegal_moves_change_nothing),
        cmocka_unit_test(test_game__undo_redo),
        cmocka_unit_test(test_game__no_pieces_left_loses),
        cmocka_unit_test(test_game__blocked_loses),
        cmocka_unit_test(test_game__threefold_on_third_occurrence),
        cmocka_unit_test(test_game__threefold_needs_same_side_to_move),
        cmocka_unit_test(test_game__25_moves_at_exactly_50_plies),
        cmocka_unit_test(test_game__25_moves_reset_by_man_move),
        cmocka_unit_test(test_game__25_moves_reset_by_capture),
        cmocka_unit_test(test_game__endgame_classes),
        cmocka_unit_test(test_game__16_moves_at_exactly_32_plies),
        cmocka_unit_test(test_game__16_moves_count_starts_when_configuration_appears),
        cmocka_unit_test(test_game__5_moves_at_exactly_10_plies),
        cmocka_unit_test(test_game__capture_16_to_5_restarts_count),
        cmocka_unit_test(test_game__promotion_restarts_count_by_default),
        cmocka_unit_test(test_game__promotion_into_and_within_configurations),
        cmocka_unit_test(test_game__pure_judge_boundaries),
        cmocka_unit_test(test_game__declared_results),
        cmocka_unit_test(test_game__set_rules_rejects_bad_values),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
