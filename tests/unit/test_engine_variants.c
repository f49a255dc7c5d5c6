/* SPDX-License-Identifier: MIT
 * tests/unit/test_engine_variants.c: the engine on every variant (dm_engine_search): per
 * variant a won ending found at small depth (the last pieces captured, the larger
 * of two captures chosen under free choice), antidraughts giving its last man away
 * where international keeps it, legal moves from random games and random
 * positions, determinism at fixed depth, node / time / stop limits, the info
 * callback and the hash. Positions are built from (row, column) coordinates so the
 * same shape serves every board size: rows from the top as White sees it, White
 * men move towards row 0. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include <damier/game.h>
#include <damier/variant.h>
#include <damier/engine.h>

/* An engine with a 1 MiB table (tt_mib out of range: DM_EINVAL). */
static dm_status create(dm_engine **out, int tt_mib)
{
    dm_engine_options o = DM_ENGINE_OPTIONS_INIT;
    o.tt_mib = tt_mib;
    return dm_engine_create(out, &o);
}

static const dm_variant *V(dm_variant_id id)
{
    return dm_variant_get(id);
}

/* Square at row r, column c (r + c odd) of v's board; every (r, c) on the full board. */
static int sq_at(const dm_variant *v, int r, int c)
{
    if (v->geometry == DM_GEOM_FULL) {
        assert_true(r >= 0 && c >= 0 && r < v->size && c < v->size);
        return r * v->size + c + 1;
    }
    assert_true(r >= 0 && c >= 0 && r < v->size && c < v->size && ((r + c) & 1));
    return r * (v->size / 2) + c / 2 + 1;
}

static void put(dm_board *b, int r, int c, dm_piece p)
{
    assert_int_equal(dm_board_put(b, sq_at(b->variant, r, c), p), DM_OK);
}

static int same_move(const dm_move *a, const dm_move *b)
{
    return a->from == b->from && a->to == b->to && a->ncapt == b->ncapt &&
           a->capt[0] == b->capt[0] && a->capt[1] == b->capt[1] && a->promote == b->promote;
}

static int is_legal(const dm_board *b, const dm_move *m)
{
    static dm_movelist list;
    dm_movegen_legal(&list, b);
    for (int i = 0; i < list.count; i++) {
        if (same_move(&list.moves[i], m)) {
            return 1;
        }
    }
    return 0;
}

static dm_result run(dm_engine *e, const dm_board *b, int depth)
{
    dm_search_input in;
    memset(&in, 0, sizeof in);
    in.root = *b;
    dm_limits lim = {.depth = depth, .nodes = 0, .move_time = 0};
    dm_result r;
    assert_int_equal(dm_engine_search(&r, e, &in, &lim, NULL, NULL, NULL), DM_OK);
    return r;
}

/* White man at (n-3,2) may take the black man at (n-4,3) and go on over (n-6,5),
 * or take the one at (n-4,1). Taking both of the first two leaves Black only the
 * man at (n-4,1); with free choice (Russian, English) the engine must prefer the
 * double capture; under the majority rule it is the only legal move. A lone black
 * man at (0,1)... is added so the game does not end. */
static void test_engine_variants__larger_capture_every_variant(void **state)
{
    (void)state;
    dm_engine *e = NULL;
    assert_int_equal(create(&e, 1), DM_OK);
    for (int id = 0; id < DM_VARIANT_COUNT; id++) {
        if (id == DM_VARIANT_ANTIDRAUGHTS || id == DM_VARIANT_TURKISH) {
            continue; /* Turkish: orthogonal, its own test below */
        }
        const dm_variant *v = V((dm_variant_id)id);
        int n = v->size;
        dm_board b;
        dm_board_clear(&b, v);
        b.side = DM_WHITE;
        put(&b, n - 3, 2, DM_WHITE_MAN);
        put(&b, n - 1, 0, DM_WHITE_MAN);
        put(&b, n - 4, 3, DM_BLACK_MAN);
        put(&b, n - 6, 5, DM_BLACK_MAN);
        put(&b, n - 4, 1, DM_BLACK_MAN);
        dm_engine_clear(e);
        dm_result r = run(e, &b, 4);
        assert_true(r.has_move);
        assert_true(is_legal(&b, &r.best));
        assert_int_equal(r.best.ncapt, 2);
        assert_int_equal(r.best.to, sq_at(v, n - 7, 6));
        assert_true(r.score > 0);
    }
    dm_engine_free(e);
}

/* The side to move captures the opponent's last piece: a win at once (score
 * WIN - 1) in every variant but antidraughts, where that capture is compulsory and
 * LOSES (the opponent, left without pieces, wins). */
static void test_engine_variants__last_piece(void **state)
{
    (void)state;
    dm_engine *e = NULL;
    assert_int_equal(create(&e, 1), DM_OK);
    for (int id = 0; id < DM_VARIANT_COUNT; id++) {
        const dm_variant *v = V((dm_variant_id)id);
        int n = v->size;
        dm_board b;
        dm_board_clear(&b, v);
        b.side = DM_WHITE;
        put(&b, n - 3, 2, DM_WHITE_MAN);
        /* diagonally ahead; on the full board (Turkish) straight ahead */
        put(&b, n - 4, v->geometry == DM_GEOM_FULL ? 2 : 3, DM_BLACK_MAN);
        dm_engine_clear(e);
        dm_result r = run(e, &b, 3);
        assert_true(r.has_move);
        assert_int_equal(r.best.ncapt, 1);
        if (v->reversed_result) {
            assert_int_equal(r.score, -(DM_SCORE_WIN - 1));
        } else {
            assert_int_equal(r.score, DM_SCORE_WIN - 1);
        }
    }
    dm_engine_free(e);
}

/* One white man, one black man ahead of it. Moving next to the black man gives
 * the white man away: in antidraughts White then has no piece and WINS (found at
 * depth 2), in international it loses, so the engine plays the other move. */
static void test_engine_variants__antidraughts_gives_away(void **state)
{
    (void)state;
    const dm_variant_id ids[2] = {DM_VARIANT_ANTIDRAUGHTS, DM_VARIANT_INTERNATIONAL};
    for (int k = 0; k < 2; k++) {
        const dm_variant *v = V(ids[k]);
        int n = v->size;
        dm_board b;
        dm_board_clear(&b, v);
        b.side = DM_WHITE;
        put(&b, n - 3, 2, DM_WHITE_MAN);
        put(&b, n - 5, 4, DM_BLACK_MAN);
        dm_engine *e = NULL;
        assert_int_equal(create(&e, 1), DM_OK);
        dm_result r = run(e, &b, 4);
        assert_true(r.has_move);
        if (k == 0) {
            assert_int_equal(r.best.to, sq_at(v, n - 4, 3));
            assert_int_equal(r.score, DM_SCORE_WIN - 2);
        } else {
            assert_int_equal(r.best.to, sq_at(v, n - 4, 1));
            assert_true(r.score < DM_SCORE_WIN_MIN);
        }
        dm_engine_free(e);
    }
}

/* Antidraughts from a middle-game shape: given the choice, the engine's
 * evaluation prefers fewer own pieces (the reversed objective in the
 * evaluation). */
static void test_engine_variants__antidraughts_evaluation(void **state)
{
    (void)state;
    const dm_variant *v = V(DM_VARIANT_ANTIDRAUGHTS);
    dm_board b;
    dm_board_start(&b, v);
    int even = dm_engine_evaluate(&b);
    assert_int_equal(even, 0);
    b.sq[v->squares] = DM_EMPTY; /* White gave a man away */
    assert_true(dm_engine_evaluate(&b) > 0);
    const dm_variant *iv = V(DM_VARIANT_INTERNATIONAL);
    dm_board c;
    dm_board_start(&c, iv);
    c.sq[iv->squares] = DM_EMPTY;
    assert_true(dm_engine_evaluate(&c) < 0);
}

static uint64_t lcg(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return *s >> 33;
}

/* Turkish (the full board, orthogonal): the man on d4 must take d5 and d7 (the most
 * pieces) and is crowned on d8; free to choose (the conflicting reading aside), the
 * engine takes the lone piece left for the win; a king flies along the rank. */
static void test_engine_variants__turkish(void **state)
{
    (void)state;
    dm_engine *e = NULL;
    assert_int_equal(create(&e, 1), DM_OK);
    const dm_variant *v = V(DM_VARIANT_TURKISH);
    dm_board b;
    dm_error err;
    assert_int_equal(dm_board_from_fen(&b, v, "W:Wd4,h2:Bd5,d7,c4,a6", &err), DM_OK);
    dm_result r = run(e, &b, 4);
    assert_true(r.has_move);
    assert_true(is_legal(&b, &r.best));
    assert_int_equal(r.best.ncapt, 2);
    assert_int_equal(r.best.to, dm_square_parse(v, "d8", NULL));
    assert_true(r.best.promote);
    /* a king on a1 takes the last black piece far up the file: a win at once */
    assert_int_equal(dm_board_from_fen(&b, v, "W:WKa1,h2:Ba6", &err), DM_OK);
    dm_engine_clear(e);
    r = run(e, &b, 3);
    assert_true(r.has_move);
    assert_int_equal(r.best.ncapt, 1);
    assert_int_equal(r.score, DM_SCORE_WIN - 1);
    /* no legal move for White (a man on a2 blocked by a3 and b2, a4 and c2 behind them) */
    assert_int_equal(dm_board_from_fen(&b, v, "W:Wa2:Ba3,a4,b2,c2", &err), DM_OK);
    r = run(e, &b, 3);
    assert_false(r.has_move);
    dm_engine_free(e);
}

/* Random games from the start of every variant: every move the engine returns
 * (depth 2, or a small node budget) is legal; the game is then continued with a
 * random legal move. */
static void test_engine_variants__legal_in_random_games(void **state)
{
    (void)state;
    static dm_movelist list;
    dm_engine *e = NULL;
    assert_int_equal(create(&e, 1), DM_OK);
    uint64_t seed = 12345;
    for (int id = 0; id < DM_VARIANT_COUNT; id++) {
        const dm_variant *v = V((dm_variant_id)id);
        for (int game = 0; game < 2; game++) {
            dm_board b;
            dm_board_start(&b, v);
            for (int ply = 0; ply < 40; ply++) {
                if (dm_movegen_legal(&list, &b) == 0) {
                    dm_result r = run(e, &b, 2);
                    assert_false(r.has_move);
                    break;
                }
                dm_search_input in;
                memset(&in, 0, sizeof in);
                in.root = b;
                dm_limits lim = {
                    .depth = (ply & 1) ? 2 : 0, .nodes = (ply & 1) ? 0 : 1000, .move_time = 0};
                dm_result r;
                assert_int_equal(dm_engine_search(&r, e, &in, &lim, NULL, NULL, NULL), DM_OK);
                assert_true(r.has_move);
                assert_true(is_legal(&b, &r.best));
                dm_board_apply(&b, &list.moves[lcg(&seed) % (uint64_t)list.count]);
            }
        }
    }
    dm_engine_free(e);
}

/* Random legal placements (no man on its own promotion row), both sides to move:
 * depth 3 returns a legal move whenever one exists. */
static void test_engine_variants__legal_in_random_positions(void **state)
{
    (void)state;
    static dm_movelist list;
    dm_engine *e = NULL;
    assert_int_equal(create(&e, 1), DM_OK);
    uint64_t seed = 777;
    for (int id = 0; id < DM_VARIANT_COUNT; id++) {
        const dm_variant *v = V((dm_variant_id)id);
        for (int t = 0; t < 10; t++) {
            dm_board b;
            dm_board_clear(&b, v);
            b.side = (int)(lcg(&seed) & 1);
            int pieces = 2 + (int)(lcg(&seed) % 12);
            for (int k = 0; k < pieces; k++) {
                int sq = 1 + (int)(lcg(&seed) % (uint64_t)v->squares);
                int row = (sq - 1) / (v->squares / v->size);
                int p = 1 + (int)(lcg(&seed) % 4);
                if ((p == DM_WHITE_MAN && row == 0) || (p == DM_BLACK_MAN && row == v->size - 1)) {
                    p += 2;
                }
                b.sq[sq] = (uint8_t)p;
            }
            dm_result r = run(e, &b, 3);
            int n = dm_movegen_legal(&list, &b);
            assert_int_equal(r.has_move, n > 0);
            if (n > 0) {
                assert_true(is_legal(&b, &r.best));
            }
        }
    }
    dm_engine_free(e);
}

/* Two fresh engines, the same position and depth: the same move, score, nodes. */
static void test_engine_variants__deterministic(void **state)
{
    (void)state;
    for (int id = 0; id < DM_VARIANT_COUNT; id++) {
        const dm_variant *v = V((dm_variant_id)id);
        dm_board b;
        dm_board_start(&b, v);
        dm_engine *e1 = NULL;
        dm_engine *e2 = NULL;
        assert_int_equal(create(&e1, 1), DM_OK);
        assert_int_equal(create(&e2, 1), DM_OK);
        dm_result a = run(e1, &b, 4);
        dm_result c = run(e2, &b, 4);
        assert_true(same_move(&a.best, &c.best));
        assert_int_equal(a.score, c.score);
        assert_int_equal(a.nodes, c.nodes);
        assert_int_equal(a.depth, 4);
        dm_engine_free(e1);
        dm_engine_free(e2);
    }
}

static int info_calls;
static int info_last_depth;

static void on_info(const dm_info *info, void *payload)
{
    (void)payload;
    info_calls++;
    assert_int_equal(info->depth, info_last_depth + 1);
    info_last_depth = info->depth;
    assert_true(info->pv_count >= 1);
}

/* Node and time limits stop the search; depth 1 always completes; the info
 * callback reports each iteration with a PV starting with a legal move. */
static void test_engine_variants__limits_and_info(void **state)
{
    (void)state;
    dm_engine *e = NULL;
    assert_int_equal(create(&e, 1), DM_OK);
    dm_board b;
    dm_board_start(&b, V(DM_VARIANT_CANADIAN));
    dm_search_input in;
    memset(&in, 0, sizeof in);
    in.root = b;
    dm_result r;
    dm_limits nodes = {.depth = 0, .nodes = 2000, .move_time = 0};
    assert_int_equal(dm_engine_search(&r, e, &in, &nodes, NULL, NULL, NULL), DM_OK);
    assert_true(r.has_move && is_legal(&b, &r.best));
    assert_true(r.depth >= 1);
    assert_true(r.nodes <= 2100 || r.depth == 1);
    dm_limits time = {.depth = 0, .nodes = 0, .move_time = 0.05};
    assert_int_equal(dm_engine_search(&r, e, &in, &time, NULL, NULL, NULL), DM_OK);
    assert_true(r.has_move && is_legal(&b, &r.best));
    assert_true(r.time < 1.0);
    info_calls = 0;
    info_last_depth = 0;
    dm_limits depth = {.depth = 4, .nodes = 0, .move_time = 0};
    assert_int_equal(dm_engine_search(&r, e, &in, &depth, on_info, NULL, NULL), DM_OK);
    assert_int_equal(info_calls, 4);
    /* An invalid root: a white man on its promotion row. */
    in.root.sq[1] = DM_WHITE_MAN;
    dm_error err;
    assert_int_equal(dm_engine_search(&r, e, &in, &depth, NULL, NULL, &err), DM_EINVAL);
    assert_int_equal(create(&e, -1), DM_EINVAL);
    dm_engine_free(e);
}

/* The hash is a pure function of pieces, side and variant. */
/* Frisian FR 17 at the root: after three simple moves in a row with the same king
 * (its side still has a man), the engine moves the man, whatever the depth; with only
 * that king able to move it is a lost position (no legal move). */
static void test_engine_variants__frisian_king_move_limit(void **state)
{
    (void)state;
    dm_engine *e = NULL;
    assert_int_equal(create(&e, 1), DM_OK);
    dm_board b;
    assert_int_equal(dm_board_from_fen(&b, V(DM_VARIANT_FRISIAN), "W:WK46,31:B4", NULL), DM_OK);
    static const char *const line[] = {"46-41", "4-9", "41-46", "9-13", "46-41", "13-18"};
    for (size_t i = 0; i < sizeof line / sizeof line[0]; i++) {
        dm_move m;
        assert_int_equal(dm_move_parse(&m, &b, line[i], NULL), DM_OK);
        dm_board_apply(&b, &m);
    }
    for (int depth = 1; depth <= 6; depth++) {
        dm_result r = run(e, &b, depth);
        assert_true(r.has_move);
        assert_int_equal(r.best.from, 31);
        assert_true(is_legal(&b, &r.best));
    }
    /* the man on 46 is blocked (41 and 37 behind it taken, 36 with 26 behind it);
     * the king on 50 has made its three moves: no legal move, a lost position */
    dm_board c;
    assert_int_equal(dm_board_from_fen(&c, V(DM_VARIANT_FRISIAN), "W:WK50,46:B41,37,36,26", NULL),
                     DM_OK);
    dm_movelist l;
    assert_true(dm_movegen_legal(&l, &c) > 0);
    c.king_sq[DM_WHITE] = 50;
    c.king_moves[DM_WHITE] = 3;
    assert_int_equal(dm_movegen_legal(&l, &c), 0);
    dm_result r = run(e, &c, 4);
    assert_false(r.has_move);
    assert_true(r.score <= -DM_SCORE_WIN_MIN);
    dm_engine_free(e);
}

static void test_engine_variants__hash(void **state)
{
    (void)state;
    dm_board a;
    dm_board b;
    dm_board_start(&a, V(DM_VARIANT_RUSSIAN));
    dm_board_start(&b, V(DM_VARIANT_RUSSIAN));
    assert_true(dm_board_hash(&a) == dm_board_hash(&b));
    b.side = 1 - b.side;
    assert_true(dm_board_hash(&a) != dm_board_hash(&b));
    dm_board c;
    dm_board_start(&c, V(DM_VARIANT_BRAZILIAN));
    assert_true(dm_board_hash(&a) != dm_board_hash(&c));
}

/* Repetition: English, a White king in the corner (7,0) has a single move, to
 * (6,1); Black has one man far away. White is ahead (a king against a man), but
 * when the history says the position after that move already occurred, the only
 * move repeats and the root scores exactly 0. */
static void test_engine_variants__repetition_history(void **state)
{
    (void)state;
    const dm_variant *v = V(DM_VARIANT_ENGLISH);
    dm_board b;
    dm_board_clear(&b, v);
    b.side = DM_WHITE;
    put(&b, 7, 0, DM_WHITE_KING);
    put(&b, 0, 1, DM_BLACK_MAN);
    dm_engine *e = NULL;
    assert_int_equal(create(&e, 1), DM_OK);
    dm_result r = run(e, &b, 3);
    assert_true(r.score > 0);
    dm_board after = b;
    dm_board_apply(&after, &r.best);
    assert_int_equal(r.best.to, sq_at(v, 6, 1));
    /* A position recurs 4 plies later at the earliest (after 2 each side has moved
     * once): the one after the best move stands 3 entries before the root. */
    uint64_t hist[3] = {dm_board_hash(&after), 1, 2};
    dm_search_input in;
    memset(&in, 0, sizeof in);
    in.root = b;
    in.history = hist;
    in.history_count = 3;
    /* analyse: the king's only move is searched to the depth asked for (a single
     * legal move is otherwise played after depth 1, whose leaves are evaluated) */
    dm_limits lim = {.depth = 3, .analyse = 1};
    dm_engine_clear(e);
    assert_int_equal(dm_engine_search(&r, e, &in, &lim, NULL, NULL, NULL), DM_OK);
    assert_true(r.has_move && is_legal(&b, &r.best));
    assert_int_equal(r.score, 0);
    dm_engine_free(e);
}

/* The counting draw rules in the tree, from the game's counters at the root
 * (dm_search_input.draw_count): Brazilian (FMJD set) two kings against a king with
 * one ply of the 5-move rule left: every quiet move draws, so the root scores 0; the
 * same position without a past scores the material. Russian (source set: 30 moves
 * without capture) likewise with the no-capture count. */
static void test_engine_variants__counting_draws(void **state)
{
    (void)state;
    dm_engine *e = NULL;
    assert_int_equal(create(&e, 1), DM_OK);
    for (int which = 0; which < 2; which++) {
        const dm_variant *v = V(which == 0 ? DM_VARIANT_BRAZILIAN : DM_VARIANT_RUSSIAN);
        dm_board b;
        dm_board_clear(&b, v);
        b.side = DM_WHITE;
        put(&b, 7, 0, DM_WHITE_KING); /* a1 */
        put(&b, 7, 2, DM_WHITE_KING); /* c1 */
        put(&b, 0, 5, DM_BLACK_KING); /* f8 */
        dm_movelist list;
        assert_true(dm_movegen_legal(&list, &b) > 0 && list.moves[0].ncapt == 0);
        dm_search_input in;
        memset(&in, 0, sizeof in);
        in.root = b;
        /* depth 2: the draw rules judge interior nodes (a leaf is evaluated) */
        dm_limits lim = {.depth = 2, .nodes = 0, .move_time = 0};
        dm_result r;
        dm_engine_clear(e);
        assert_int_equal(dm_engine_search(&r, e, &in, &lim, NULL, NULL, NULL), DM_OK);
        assert_true(r.score > 100);
        if (which == 0) {
            in.draw_count.material_plies = 2 * v->draw.two_vs_king_moves - 1;
        } else {
            in.draw_count.no_capture_plies = 2 * v->draw.no_capture_moves - 1;
        }
        dm_engine_clear(e);
        assert_int_equal(dm_engine_search(&r, e, &in, &lim, NULL, NULL, NULL), DM_OK);
        assert_true(r.has_move && is_legal(&b, &r.best));
        assert_int_equal(r.score, 0);
    }
    dm_engine_free(e);
}

/* The search input of a game: its position, the hashes since the last man move or
 * capture (oldest first), its draw counters. */
static void test_engine_variants__input_from_game(void **state)
{
    (void)state;
    dm_board b;
    dm_error err;
    assert_int_equal(dm_board_from_fen(&b, V(DM_VARIANT_RUSSIAN), "W:WKc1,g1:BKh8", &err), DM_OK);
    dm_game *g = NULL;
    assert_int_equal(dm_game_new(&g, &b), DM_OK);
    const char *moves[] = {"g1-f2", "h8-g7", "c1-d2", "g7-h8", "d2-c1"};
    for (int i = 0; i < 5; i++) {
        assert_int_equal(dm_game_play_text(g, moves[i], &err), DM_OK);
    }
    uint64_t hist[8];
    dm_search_input in;
    dm_search_input_from_game(&in, hist, 8, g);
    assert_memory_equal(in.root.sq, dm_game_position(g)->sq, sizeof in.root.sq);
    /* after the man move g1-f2: the positions after plies 1..4 */
    assert_int_equal(in.history_count, 4);
    assert_ptr_equal(in.history, hist);
    for (int i = 0; i < 4; i++) {
        assert_true(hist[i] == dm_board_hash(dm_game_position_at(g, i + 1)));
    }
    dm_draw_count c;
    dm_game_draw_count(&c, g);
    assert_memory_equal(&c, &in.draw_count, sizeof c);
    assert_int_equal(in.draw_count.reversible_plies, 4);
    assert_int_equal(in.draw_count.no_capture_plies, 5);
    /* a smaller buffer keeps the latest */
    dm_search_input_from_game(&in, hist, 2, g);
    assert_int_equal(in.history_count, 2);
    assert_true(hist[0] == dm_board_hash(dm_game_position_at(g, 3)));
    assert_true(hist[1] == dm_board_hash(dm_game_position_at(g, 4)));
    dm_game_free(g);
}

/* What the multi-PV test keeps of the reports: the lines of the last depth. */
typedef struct mpv_seen {
    int depth, count, got;
    int score[8];
    dm_move first[8];
} mpv_seen;

static void on_mpv(const dm_info *info, void *payload)
{
    mpv_seen *m = payload;
    if (info->depth != m->depth) {
        m->depth = info->depth;
        m->got = 0;
    }
    m->count = info->multipv_count;
    assert_true(info->multipv == m->got + 1 && m->got < 8 && info->pv_count > 0);
    m->score[m->got] = info->score;
    m->first[m->got] = info->pv[0];
    m->got++;
}

/* The international engine's features in every geometry: lazy SMP (two threads, the
 * 12x12 ones made on the first Canadian search) and multi-PV (three lines per depth, in
 * order of score, three different legal root moves, the best move the first line's),
 * and a ponder move legal after the best. */
static void test_engine_variants__threads_and_multipv(void **state)
{
    (void)state;
    static const dm_variant_id ids[] = {DM_VARIANT_RUSSIAN, DM_VARIANT_CANADIAN,
                                        DM_VARIANT_FRISIAN};
    dm_engine_options o = DM_ENGINE_OPTIONS_INIT;
    o.tt_mib = 4;
    o.threads = 2;
    dm_engine *e = NULL;
    assert_int_equal(dm_engine_create(&e, &o), DM_OK);
    for (size_t k = 0; k < sizeof ids / sizeof ids[0]; k++) {
        dm_search_input in;
        memset(&in, 0, sizeof in);
        dm_board_start(&in.root, V(ids[k]));
        dm_limits lim = {.depth = 5, .multipv = 3};
        mpv_seen seen;
        memset(&seen, 0, sizeof seen);
        dm_result r;
        dm_error err;
        assert_int_equal(dm_engine_search(&r, e, &in, &lim, on_mpv, &seen, &err), DM_OK);
        assert_true(r.has_move && is_legal(&in.root, &r.best));
        assert_int_equal(seen.count, 3);
        assert_int_equal(seen.got, 3);
        assert_true(seen.score[0] >= seen.score[1] && seen.score[1] >= seen.score[2]);
        for (int a = 0; a < 3; a++) {
            assert_true(is_legal(&in.root, &seen.first[a]));
            for (int b = a + 1; b < 3; b++) {
                assert_false(same_move(&seen.first[a], &seen.first[b]));
            }
        }
        assert_true(same_move(&r.best, &seen.first[0]));
        /* one line, two threads: a ponder move that is legal after the best */
        lim.multipv = 0;
        lim.depth = 6;
        assert_int_equal(dm_engine_search(&r, e, &in, &lim, NULL, NULL, &err), DM_OK);
        assert_true(r.has_move && r.has_ponder);
        dm_board after = in.root;
        dm_board_apply(&after, &r.best);
        assert_true(is_legal(&after, &r.ponder));
    }
    dm_engine_free(e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_engine_variants__larger_capture_every_variant),
        cmocka_unit_test(test_engine_variants__last_piece),
        cmocka_unit_test(test_engine_variants__antidraughts_gives_away),
        cmocka_unit_test(test_engine_variants__antidraughts_evaluation),
        cmocka_unit_test(test_engine_variants__turkish),
        cmocka_unit_test(test_engine_variants__legal_in_random_games),
        cmocka_unit_test(test_engine_variants__legal_in_random_positions),
        cmocka_unit_test(test_engine_variants__deterministic),
        cmocka_unit_test(test_engine_variants__limits_and_info),
        cmocka_unit_test(test_engine_variants__hash),
        cmocka_unit_test(test_engine_variants__frisian_king_move_limit),
        cmocka_unit_test(test_engine_variants__repetition_history),
        cmocka_unit_test(test_engine_variants__counting_draws),
        cmocka_unit_test(test_engine_variants__input_from_game),
        cmocka_unit_test(test_engine_variants__threads_and_multipv),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
