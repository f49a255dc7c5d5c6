/* SPDX-License-Identifier: MIT
 * tests/property/test_prop_engine.c: the engine never returns an illegal move,
 * seeded (tests/property/prop.h). From random legal positions of every variant
 * (dm_engine_search; international positions made on the fast board): positions of random games, random placements with kings, 30 or more
 * kings, exactly one legal move, long multi-captures (3 or more pieces), and no
 * legal move at all (has_move must be 0). Each search is tiny (depth 1-4 or a node
 * budget), so the verdict never depends on time. Checked: has_move says whether a
 * legal move exists, the best move is one of the position's legal moves, the
 * ponder move is legal after it, and every principal variation the info
 * callback reports is a legal line. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "core/board10.h"
#include <damier/engine.h>
#include "core/move10.h"
#include <damier/variant.h>

#include "property/prop.h"

/* Largest tree (nodes) of a search of a 30+ kings position (tree_size). */
#define KINGS_BUDGET 1000L

/* The kinds of positions, counted per variant. */
enum {
    K_GAME,
    K_RANDOM,
    K_KINGS30,
    K_ONE_MOVE,
    K_LONG_CAPTURE,
    K_NO_MOVE,
    K_COUNT
};
static const char *const kind_name[K_COUNT] = {"game",     "random",     "30+ kings",
                                               "one move", "3+ capture", "no move"};

/* The largest number of pieces a legal move of b takes. */
static int max_capture(const dm_movelist *list)
{
    int best = 0;
    for (int i = 0; i < list->count; i++) {
        if (list->moves[i].ncapt > best) {
            best = list->moves[i].ncapt;
        }
    }
    return best;
}

/* Nodes of the tree an alpha-beta search to depth plies plus a quiescence over
 * every capture could visit at most from b (all moves to depth, then captures until
 * a quiet position), counted up to budget + 1. The engines finish depth 1 whatever
 * their limits; with 30 and more kings that can cost minutes (RELIABILITY.md, open
 * finding), so those positions are kept only when their depth-1 tree is small, and
 * searched to depth 1. */
static long tree_size(const dm_board *b, int depth, long budget)
{
    dm_movelist *list = malloc(sizeof *list);
    assert_non_null(list);
    int n = dm_movegen_legal(list, b);
    long count = 1;
    if (depth > 0 || (n > 0 && list->moves[0].ncapt > 0)) {
        for (int i = 0; i < n && count <= budget; i++) {
            dm_board c = *b;
            dm_board_apply(&c, &list->moves[i]);
            count += tree_size(&c, depth > 0 ? depth - 1 : 0, budget - count);
        }
    }
    free(list);
    return count;
}

/* A random position of v of the given kind (rejection sampling); 0 when none was
 * found within the attempts. */
static int make_position(dm_board *b, const dm_variant *v, int kind)
{
    static dm_movelist list;
    for (int attempt = 0; attempt < 4000; attempt++) {
        switch (kind) {
            case K_GAME: {
                dm_board_start(b, v);
                int plies = prop_below(120);
                for (int p = 0; p < plies; p++) {
                    int n = dm_movegen_legal(&list, b);
                    if (n == 0) {
                        break;
                    }
                    dm_board_apply(b, &list.moves[prop_below(n)]);
                }
                return 1;
            }
            case K_RANDOM:
                prop_random_position(b, v, 2 + prop_below(v->squares / 2), prop_below(101));
                return 1;
            case K_KINGS30:
                /* 30 to 40 kings (22-30 on the 32 squares of 8x8: 30+ leaves no room to move) */
                prop_random_kings(b, v, v->squares >= 50 ? 30 + prop_below(11) : 22 + prop_below(9),
                                  prop_below(4));
                /* Mostly White's kings in White's half and Black's in Black's: kings mixed
             * at random capture each other for dozens of plies (the tree below). */
                for (int sq = 1; sq <= v->squares; sq++) {
                    dm_piece p = dm_board_piece(b, sq);
                    if (p == DM_WHITE_KING || p == DM_BLACK_KING) {
                        int white_half = prop_row(v, sq) >= v->size / 2;
                        int white = prop_below(100) < 90 ? white_half : !white_half;
                        b->sq[sq] = (uint8_t)(white ? DM_WHITE_KING : DM_BLACK_KING);
                    }
                }
                if (tree_size(b, 1, KINGS_BUDGET) <= KINGS_BUDGET) {
                    return 1;
                }
                break;
            case K_ONE_MOVE:
                prop_random_position(b, v, 2 + prop_below(v->squares / 3), prop_below(60));
                if (dm_movegen_legal(&list, b) == 1) {
                    return 1;
                }
                break;
            case K_LONG_CAPTURE: {
                /* a few pieces of the mover among scattered opponents */
                dm_board_clear(b, v);
                int own = 1 + prop_below(3), opp = 6 + prop_below(v->squares / 4);
                b->side = prop_below(2);
                for (int placed = 0; placed < own + opp;) {
                    int sq = 1 + prop_below(v->squares);
                    if (b->sq[sq]) {
                        continue;
                    }
                    dm_piece p = prop_piece(v, sq, placed < own ? 50 : 20);
                    int white = p == DM_WHITE_MAN || p == DM_WHITE_KING;
                    if (white != ((placed < own) == (b->side == DM_WHITE))) {
                        continue;
                    }
                    assert_int_equal(dm_board_put(b, sq, p), DM_OK);
                    placed++;
                }
                dm_movegen_legal(&list, b);
                if (max_capture(&list) >= 3) {
                    return 1;
                }
                break;
            }
            case K_NO_MOVE:
                if (attempt % 8 == 0) {
                    /* no piece at all for the side to move */
                    prop_random_position(b, v, 1 + prop_below(8), prop_below(50));
                    for (int sq = 1; sq <= v->squares; sq++) {
                        dm_piece p = dm_board_piece(b, sq);
                        int white = p == DM_WHITE_MAN || p == DM_WHITE_KING;
                        if (p != DM_EMPTY && white == (b->side == DM_WHITE)) {
                            dm_board_put(b, sq, DM_EMPTY);
                        }
                    }
                } else {
                    /* men blocked in a crowd */
                    prop_random_position(b, v, v->squares / 2 + prop_below(v->squares / 2),
                                         prop_below(3));
                }
                if (dm_movegen_legal(&list, b) == 0) {
                    return 1;
                }
                break;
            default:
                fail();
        }
    }
    return 0;
}

/* ---- dm_engine_search, every variant ------------------------------------ */

typedef struct vpv_check {
    const dm_board *root;
    int reports;
} vpv_check;

/* Every principal variation reported is a legal line from the root. */
static void on_vinfo(const dm_info *info, void *payload)
{
    static dm_movelist list;
    vpv_check *c = payload;
    dm_board b = *c->root;
    c->reports++;
    PROP_CHECK(info->pv_count >= 0 && info->pv_count <= DM_ENGINE_MAX_PV, "pv_count %d",
               info->pv_count);
    for (int i = 0; i < info->pv_count; i++) {
        dm_movegen_legal(&list, &b);
        PROP_CHECK(prop_find_vmove(&list, &info->pv[i]) >= 0,
                   "depth %d: PV move %d (%d-%d) is not legal", info->depth, i + 1,
                   info->pv[i].from, info->pv[i].to);
        dm_board_apply(&b, &info->pv[i]);
    }
}

static void vsearch_check(dm_engine *e, const dm_board *b, int kind, int game)
{
    static dm_movelist list;
    prop_where("dm_engine_search move", b, game, -1);
    int n = dm_movegen_legal(&list, b);
    dm_search_input in;
    memset(&in, 0, sizeof in);
    in.root = *b;
    dm_limits lim;
    memset(&lim, 0, sizeof lim);
    if (kind == K_KINGS30) {
        lim.depth = 1; /* make_position kept it small at depth 1 */
    } else if (prop_below(3) == 0) {
        lim.nodes = 200 + (uint64_t)prop_below(3000);
    } else {
        lim.depth = 1 + prop_below(4);
    }
    if (prop_below(4) == 0) {
        dm_engine_clear(e);
    }
    vpv_check pc = {b, 0};
    dm_result r;
    dm_error err;
    dm_status st = dm_engine_search(&r, e, &in, &lim, on_vinfo, &pc, &err);
    PROP_CHECK(st == DM_OK, "search failed: %s", err.message);
    PROP_CHECK(r.has_move == (n > 0), "has_move %d with %d legal moves (%s position)", r.has_move,
               n, kind_name[kind]);
    if (n > 0) {
        PROP_CHECK(prop_find_vmove(&list, &r.best) >= 0,
                   "best move %d-%d (%d captured) is not legal (%s position, depth %d, nodes %llu)",
                   r.best.from, r.best.to, r.best.ncapt, kind_name[kind], lim.depth,
                   (unsigned long long)lim.nodes);
        PROP_CHECK(pc.reports >= 1, "no info report");
    }
}

static void test_prop__variant_search_legal_every_variant(void **state)
{
    (void)state;
    prop_case_seed(21);
    dm_engine *e = NULL;
    dm_engine_options eo = DM_ENGINE_OPTIONS_INIT;
    eo.tt_mib = 1;
    assert_int_equal(dm_engine_create(&e, &eo), DM_OK);
    static const int per_kind[K_COUNT] = {25, 25, 4, 15, 15, 10};
    for (int id = 0; id < DM_VARIANT_COUNT; id++) {
        const dm_variant *v = prop_variant(id);
        int found[K_COUNT] = {0};
        for (int kind = 0; kind < K_COUNT; kind++) {
            for (int k = 0; k < per_kind[kind]; k++) {
                dm_board b;
                if (!make_position(&b, v, kind)) {
                    continue;
                }
                found[kind]++;
                vsearch_check(e, &b, kind, kind * 1000 + k);
            }
        }
        print_message("  %-13s searched: %d game, %d random, %d 30+ kings, %d one-move, "
                      "%d 3+ capture, %d no-move positions\n",
                      v->name, found[0], found[1], found[2], found[3], found[4], found[5]);
        for (int kind = 0; kind < K_COUNT; kind++) {
            /* each kind of position was really tried */
            assert_true(found[kind] >= per_kind[kind] / 2);
        }
    }
    dm_engine_free(e);
}

/* ---- dm_engine, international ------------------------------------------------- */

/* Every PV move legal in turn from the root (the generic board of the payload). */
static void on_info(const dm_info *info, void *payload)
{
    static dm_movelist list;
    dm_board b = *(const dm_board *)payload;
    PROP_CHECK(info->pv_count >= 0 && info->pv_count <= DM_ENGINE_MAX_PV, "pv_count %d",
               info->pv_count);
    for (int i = 0; i < info->pv_count; i++) {
        dm_movegen_legal(&list, &b);
        PROP_CHECK(prop_find_vmove(&list, &info->pv[i]) >= 0,
                   "depth %d: PV move %d (%d-%d) is not legal", info->depth, i + 1,
                   info->pv[i].from, info->pv[i].to);
        dm_board_apply(&b, &info->pv[i]);
    }
}

static void search_check(dm_engine *e, const dm_board10 *b, int kind, int game)
{
    static dm_movelist list;
    prop_where_board("dm_engine move", b, game, -1);
    dm_search_input in;
    memset(&in, 0, sizeof in);
    dm_board_from_board10(&in.root, dm_variant_get(DM_VARIANT_INTERNATIONAL), b);
    int n = dm_movegen_legal(&list, &in.root);
    PROP_CHECK(n == dm_movegen10_count(b), "%d generic legal moves, %d on the fast board", n,
               dm_movegen10_count(b));
    in.draw_count.reversible_plies = prop_below(4) == 0 ? prop_below(50) : 0;
    dm_limits lim;
    memset(&lim, 0, sizeof lim);
    if (kind == K_KINGS30) {
        lim.depth = 1; /* make_position kept it small at depth 1 */
    } else if (prop_below(3) == 0) {
        lim.nodes = 200 + (uint64_t)prop_below(3000);
    } else {
        lim.depth = 1 + prop_below(4);
    }
    lim.analyse = prop_below(2);
    if (prop_below(4) == 0) {
        dm_engine_clear(e);
    }
    dm_result r;
    PROP_CHECK(dm_engine_search(&r, e, &in, &lim, on_info, &in.root, NULL) == DM_OK,
               "search failed");
    PROP_CHECK(r.has_move == (n > 0), "has_move %d with %d legal moves (%s position)", r.has_move,
               n, kind_name[kind]);
    if (n == 0) {
        return;
    }
    PROP_CHECK(prop_find_vmove(&list, &r.best) >= 0,
               "best move %d-%d is not legal (%s position, depth %d)", r.best.from, r.best.to,
               kind_name[kind], lim.depth);
    if (r.has_ponder) {
        dm_board after = in.root;
        dm_board_apply(&after, &r.best);
        dm_movegen_legal(&list, &after);
        PROP_CHECK(prop_find_vmove(&list, &r.ponder) >= 0,
                   "ponder move %d-%d is not legal after the best", r.ponder.from, r.ponder.to);
    }
}

static void test_prop__engine_legal_international(void **state)
{
    (void)state;
    prop_case_seed(22);
    dm_engine_options o = DM_ENGINE_OPTIONS_INIT;
    o.tt_mib = 2;
    dm_engine *e = NULL;
    assert_int_equal(dm_engine_create(&e, &o), DM_OK);
    const dm_variant *v = prop_variant(DM_VARIANT_INTERNATIONAL);
    static const int per_kind[K_COUNT] = {40, 40, 6, 20, 20, 10};
    int found[K_COUNT] = {0};
    for (int kind = 0; kind < K_COUNT; kind++) {
        for (int k = 0; k < per_kind[kind]; k++) {
            dm_board vb;
            if (!make_position(&vb, v, kind)) {
                continue;
            }
            found[kind]++;
            dm_board10 b;
            assert_int_equal(dm_board_to_board10(&b, &vb), DM_OK);
            search_check(e, &b, kind, kind * 1000 + k);
        }
    }
    print_message("  international (dm_engine) searched: %d game, %d random, %d 30+ kings, "
                  "%d one-move, %d 3+ capture, %d no-move positions\n",
                  found[0], found[1], found[2], found[3], found[4], found[5]);
    for (int kind = 0; kind < K_COUNT; kind++) {
        assert_true(found[kind] >= per_kind[kind] / 2);
    }
    dm_engine_free(e);
}

int main(void)
{
    prop_seed_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_prop__variant_search_legal_every_variant),
        cmocka_unit_test(test_prop__engine_legal_international),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
