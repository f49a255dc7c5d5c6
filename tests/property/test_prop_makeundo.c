/* SPDX-License-Identifier: MIT
 * tests/property/test_prop_makeundo.c: property tests of making and unmaking moves
 * over random games and random positions (kings included) of every variant, seeded
 * (tests/property/prop.h: the seed is printed, DM_PROP_SEED replays one):
 * - international through core/board10.h + move10.h: for every legal move,
 *   dm_board10_apply keeps the incremental Zobrist hash equal to dm_board10_compute_hash
 *   and the board valid, dm_board10_undo restores the position and the hash bit for
 *   bit; dm_movegen10_count and dm_movegen10_has_capture agree with the list; the same
 *   position through the variant API has the same moves and the same successors;
 * - every variant (international included) through the variant API and the bitboard
 *   generator the variant engine searches with (internal: core/gen_impl.h, made and
 *   unmade by XOR as in engine/search_impl.h): the same legal moves as
 *   dm_movegen_legal, make equal to dm_board_apply, unmake restoring the position,
 *   and the search's incremental key equal to dm_board_hash from scratch after
 *   every move. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "core/board10.h"
#include "core/move10.h"
#include <damier/variant.h>
#include <damier/engine.h>

#include "property/prop.h"

#include "core/gen.h"
#include "core/layout.h"
#include "engine/search_int.h"

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"

/* ---- 8x8: Brazilian (FMJD rules), Russian, English; the engine's dispatch ---- */
#define GEN_N 8
#define GEN_PREFIX gen8_
#define GEN_BB uint64_t
#define GEN_RAY(d, b) (dm_ray8[(d)][(b)])
#define GEN_POS dm_board10
#define GEN_MOVE dm_move10
#define GEN_LIST dm_movelist10
#define GEN_MAX_MOVES DM_MAX_MOVES10
#include "core/gen_geom.h"
#define GEN_RS fmjd_
#define GEN_RULES_CONST GEN_RULES_FMJD
#define GEN_RECORD 0
#include "core/gen_impl.h"
#define GEN_RS rus_
#define GEN_RULES_CONST GEN_RULES_RUSSIAN
#define GEN_RECORD 0
#include "core/gen_impl.h"
#define GEN_RS eng_
#define GEN_RULES_CONST GEN_RULES_ENGLISH
#define GEN_RECORD 0
#include "core/gen_impl.h"
#define GEN_RS dyn_
#define GEN_RECORD 0
#include "core/gen_impl.h"
#define SI_RS dyn_
#define SI_INTL 0
#define SI_THREAD search_thread
#define SI_THREADS(e) ((e)->threads)
#include "engine/search_impl.h"

static int pg8_legal(dm_movelist10 *l, const dm_board10 *p, const dm_variant *v)
{
    gen_rules r = gen_rules_of(v);
    if (gen_rules_eq(r, GEN_RULES_FMJD)) {
        return gen8_fmjd_legal(l, p, GEN_RULES_FMJD);
    }
    if (gen_rules_eq(r, GEN_RULES_RUSSIAN)) {
        return gen8_rus_legal(l, p, GEN_RULES_RUSSIAN);
    }
    if (gen_rules_eq(r, GEN_RULES_ENGLISH)) {
        return gen8_eng_legal(l, p, GEN_RULES_ENGLISH);
    }
    return gen8_dyn_legal(l, p, r);
}
#define PG(x) GEN_CAT(pg8_, x)
#define PG_LEGAL pg8_legal
#define PG_CHILD_KEY srch8dyn_child_key
#include "property/prop_geom.inc"
#undef GEN_N
#undef GEN_PREFIX
#undef GEN_BB
#undef GEN_RAY
#undef GEN_POS
#undef GEN_MOVE
#undef GEN_LIST
#undef GEN_MAX_MOVES

/* ---- 10x10: international, antidraughts ---- */
#define GEN_N 10
#define GEN_PREFIX gen10_
#define GEN_BB uint64_t
#define GEN_RAY(d, b) (layout_tab.ray[(d)][(b)])
#define GEN_POS dm_board10
#define GEN_MOVE dm_move10
#define GEN_LIST dm_movelist10
#define GEN_MAX_MOVES DM_MAX_MOVES10
#include "core/gen_geom.h"
#define GEN_RS fmjd_
#define GEN_RULES_CONST GEN_RULES_FMJD
#define GEN_RECORD 0
#include "core/gen_impl.h"
#define GEN_RS dyn_
#define GEN_RECORD 0
#include "core/gen_impl.h"
#define SI_RS dyn_
#define SI_INTL 0
#include "engine/search_impl.h"

/* The search's key of the child: international draughts is searched on dm_board10
 * with the Zobrist hash dm_board10_apply keeps (dm_board_hash gives it too), the
 * other 10x10 variants with the variant keys. */
static uint64_t pg10_child_key(const dm_variant *v, uint64_t pk, const dm_board10 *parent,
                               const dm_board10 *child, const dm_move10 *m)
{
    if (v->id == DM_VARIANT_INTERNATIONAL) {
        dm_board10 x = *parent;
        x.hash = pk;
        dm_board10_apply(&x, m);
        return x.hash;
    }
    return srch10dyn_child_key(pk, parent, child, m);
}

static int pg10_legal(dm_movelist10 *l, const dm_board10 *p, const dm_variant *v)
{
    gen_rules r = gen_rules_of(v);
    if (gen_rules_eq(r, GEN_RULES_FMJD)) {
        return gen10_fmjd_legal(l, p, GEN_RULES_FMJD);
    }
    return gen10_dyn_legal(l, p, r);
}
#define PG(x) GEN_CAT(pg10_, x)
#define PG_LEGAL pg10_legal
#define PG_CHILD_KEY(k, p, c, m) pg10_child_key(b->variant, (k), (p), (c), (m))
#include "property/prop_geom.inc"
#undef GEN_N
#undef GEN_PREFIX
#undef GEN_BB
#undef GEN_RAY
#undef GEN_POS
#undef GEN_MOVE
#undef GEN_LIST
#undef GEN_MAX_MOVES

/* ---- 12x12: Canadian ---- */
#define GEN_N 12
#define GEN_PREFIX gen12_
#define GEN_BB gen_u128
#define GEN_RAY(d, b) (dm_ray12[(d)][(b)])
#define GEN_POS gen12_pos
#define GEN_MOVE gen12_move
#define GEN_LIST gen12_list
#define GEN_MAX_MOVES DM_MAX_MOVES
#include "core/gen_geom.h"
#define GEN_RS fmjd_
#define GEN_RULES_CONST GEN_RULES_FMJD
#define GEN_RECORD 0
#include "core/gen_impl.h"
#define GEN_RS dyn_
#define GEN_RECORD 0
#include "core/gen_impl.h"
#undef SI_THREAD
#undef SI_THREADS
#define SI_THREAD search_thread12
#define SI_THREADS(e) ((e)->threads12)
#define SI_RS dyn_
#define SI_INTL 0
#include "engine/search_impl.h"

static int pg12_legal(gen12_list *l, const gen12_pos *p, const dm_variant *v)
{
    gen_rules r = gen_rules_of(v);
    if (gen_rules_eq(r, GEN_RULES_FMJD)) {
        return gen12_fmjd_legal(l, p, GEN_RULES_FMJD);
    }
    return gen12_dyn_legal(l, p, r);
}
#define PG(x) GEN_CAT(pg12_, x)
#define PG_LEGAL pg12_legal
#define PG_CHILD_KEY srch12dyn_child_key
#include "property/prop_geom.inc"

/* ---- the full 8x8 board: Turkish (core/gen_geom_full.h, core/genfull.c) ---- */
#undef GEN_N
#undef GEN_PREFIX
#undef GEN_BB
#undef GEN_RAY
#undef GEN_POS
#undef GEN_MOVE
#undef GEN_LIST
#undef GEN_MAX_MOVES
#undef GEN_ONE
#undef GEN_ALL
#undef GEN_ROW_W
#undef GEN_ROW_B
#undef GEN_SQUARES
#define GEN_N 8
#define GEN_PREFIX genf_
#define GEN_BB uint64_t
#define GEN_POS dm_board10
#define GEN_MOVE dm_move10
#define GEN_LIST dm_movelist10
#define GEN_RS full_
#include "core/gen_geom_full.h"
#undef SI_THREAD
#undef SI_THREADS
#define SI_THREAD search_thread
#define SI_THREADS(e) ((e)->threads)
#define SI_RS full_
#define SI_INTL 0
#include "engine/search_impl.h"

static int pgf_legal(dm_movelist10 *l, const dm_board10 *p, const dm_variant *v)
{
    return dm_genfull_legal(l, p, gen_rules_of(v));
}
#define PG(x) GEN_CAT(pgf_, x)
#define PG_LEGAL pgf_legal
#define PG_CHILD_KEY srch8full_child_key
#include "property/prop_geom.inc"

#pragma GCC diagnostic pop

/* ---- the variant API, every variant ------------------------------------------ */

/* The properties of prop_geom.inc for b's board size; returns the legal moves. */
static int check_vposition(dm_movelist *list, const dm_board *b)
{
    if (b->variant->geometry == DM_GEOM_FULL) {
        return pgf_check_position(list, b);
    }
    switch (b->variant->size) {
        case 8:
            return pg8_check_position(list, b);
        case 10:
            return pg10_check_position(list, b);
        default:
            return pg12_check_position(list, b);
    }
}

/* A random game from b (at most plies plies), every position checked; returns the
 * plies played. */
static int vgame(dm_board *b, int game, int plies, long *moves_checked)
{
    static dm_movelist list;
    int ply = 0;
    for (; ply < plies; ply++) {
        prop_where("make/undo (variant API)", b, game, ply);
        int n = check_vposition(&list, b);
        *moves_checked += n;
        if (n == 0) {
            break;
        }
        dm_board_apply(b, &list.moves[prop_below(n)]);
    }
    return ply;
}

static void test_prop__make_undo_every_variant(void **state)
{
    (void)state;
    prop_case_seed(1);
    for (int id = 0; id < DM_VARIANT_COUNT; id++) {
        const dm_variant *v = prop_variant(id);
        long moves = 0, plies = 0;
        int game = 0;
        /* Games from the start position, played to their end or 200 plies. */
        for (int k = 0; k < 12; k++, game++) {
            dm_board b;
            dm_board_start(&b, v);
            plies += vgame(&b, game, 200, &moves);
        }
        /* Games from random positions: few to many pieces, few to all kings. */
        for (int k = 0; k < 40; k++, game++) {
            dm_board b;
            prop_random_position(&b, v, 2 + prop_below(v->squares / 2), prop_below(101));
            plies += vgame(&b, game, 40, &moves);
        }
        /* 30+ kings (most of the 8x8 board). */
        for (int k = 0; k < 6; k++, game++) {
            dm_board b;
            int kings = v->squares >= 50 ? 30 + prop_below(11) : 22 + prop_below(9);
            prop_random_kings(&b, v, kings, prop_below(6));
            plies += vgame(&b, game, 6, &moves);
        }
        print_message("  %-13s %4d games, %6ld plies, %8ld moves made and unmade\n", v->name, game,
                      plies, moves);
        assert_true(moves > 1000);
    }
}

/* ---- international through board.h / move.h ----------------------------------- */

/* The position b (international) also through the variant API: the same number of
 * moves, and the successor of each fast move equals that of a generic move. */
static void same_as_variant_api(const dm_board10 *b, const dm_movelist10 *list)
{
    static dm_movelist vl;
    dm_board vb;
    assert_int_equal(dm_board_from_board10(&vb, prop_variant(DM_VARIANT_INTERNATIONAL), b), DM_OK);
    int n = dm_movegen_legal(&vl, &vb);
    PROP_CHECK(n == list->count, "dm_movegen10_legal %d moves, dm_movegen_legal %d", list->count,
               n);
    for (int i = 0; i < n; i++) {
        dm_board vc = vb;
        dm_board_apply(&vc, &vl.moves[i]);
        dm_board10 want;
        assert_int_equal(dm_board_to_board10(&want, &vc), DM_OK);
        int found = 0;
        for (int j = 0; j < list->count && !found; j++) {
            dm_board10 c = *b;
            dm_board10_apply(&c, &list->moves[j]);
            found = dm_board10_equal(&c, &want) && c.hash == want.hash;
        }
        PROP_CHECK(found, "generic move %d-%d has no equal fast move", vl.moves[i].from,
                   vl.moves[i].to);
    }
}

/* Every property of one international position; returns the number of moves. */
static int check_board(dm_movelist10 *list, const dm_board10 *b, int cross)
{
    int n = dm_movegen10_legal(list, b);
    PROP_CHECK(!list->overflow, "move list overflow");
    PROP_CHECK(b->hash == dm_board10_compute_hash(b), "hash %016llx, from scratch %016llx",
               (unsigned long long)b->hash, (unsigned long long)dm_board10_compute_hash(b));
    PROP_CHECK(dm_movegen10_count(b) == n, "dm_movegen10_count %d, list %d", dm_movegen10_count(b),
               n);
    PROP_CHECK(dm_movegen10_has_capture(b) == (n > 0 && list->moves[0].ncapt > 0),
               "dm_movegen10_has_capture %d with %d moves", dm_movegen10_has_capture(b), n);
    for (int i = 0; i < n; i++) {
        const dm_move10 *m = &list->moves[i];
        dm_board10 c = *b;
        dm_board10_apply(&c, m);
        PROP_CHECK(c.hash == dm_board10_compute_hash(&c),
                   "after %d-%d: incremental hash %016llx, from scratch %016llx", m->from, m->to,
                   (unsigned long long)c.hash, (unsigned long long)dm_board10_compute_hash(&c));
        PROP_CHECK(dm_board10_validate(&c, NULL) == DM_OK, "after %d-%d: invalid board", m->from,
                   m->to);
        PROP_CHECK(c.side == (b->side ^ 1), "after %d-%d: side not passed", m->from, m->to);
        dm_board10_undo(&c, m);
        PROP_CHECK(memcmp(&c, b, sizeof c) == 0, "undo %d-%d does not restore the board", m->from,
                   m->to);
    }
    if (cross) {
        same_as_variant_api(b, list);
    }
    return n;
}

static int bgame(dm_board10 *b, int game, int plies, long *moves_checked)
{
    static dm_movelist10 list;
    int ply = 0;
    for (; ply < plies; ply++) {
        prop_where_board("make/undo (dm_board10)", b, game, ply);
        int n = check_board(&list, b, ply % 3 == 0);
        *moves_checked += n;
        if (n == 0) {
            break;
        }
        dm_board10_apply(b, &list.moves[prop_below(n)]);
    }
    return ply;
}

static void test_prop__make_undo_international_board(void **state)
{
    (void)state;
    prop_case_seed(2);
    const dm_variant *v = prop_variant(DM_VARIANT_INTERNATIONAL);
    long moves = 0, plies = 0;
    int game = 0;
    for (int k = 0; k < 20; k++, game++) {
        dm_board10 b;
        dm_board10_start(&b);
        plies += bgame(&b, game, 250, &moves);
    }
    for (int k = 0; k < 60; k++, game++) {
        dm_board vb;
        if (k < 10) {
            prop_random_kings(&vb, v, 30 + prop_below(11), prop_below(5));
        } else {
            prop_random_position(&vb, v, 2 + prop_below(30), prop_below(101));
        }
        dm_board10 b;
        assert_int_equal(dm_board_to_board10(&b, &vb), DM_OK);
        /* dm_board10_put keeps the hash: build it square by square as well. */
        dm_board10 p;
        dm_board10_clear(&p);
        for (int sq = 1; sq <= 50; sq++) {
            assert_int_equal(dm_board10_put(&p, sq, dm_board_piece(&vb, sq)), DM_OK);
        }
        dm_board10_set_side(&p, (dm_color)vb.side);
        prop_where_board("dm_board10_put", &b, game, -1);
        PROP_CHECK(dm_board10_equal(&p, &b) && p.hash == b.hash &&
                       p.hash == dm_board10_compute_hash(&p),
                   "dm_board10_put / dm_board_to_board10 disagree");
        plies += bgame(&b, game, k < 10 ? 8 : 60, &moves);
    }
    print_message("  international %d games, %ld plies, %ld moves made and unmade\n", game, plies,
                  moves);
    assert_true(moves > 10000);
}

/* The checks themselves catch a broken hash or a broken undo (a test of the test). */
static void test_prop__checks_catch_a_wrong_hash(void **state)
{
    (void)state;
    dm_board10 b;
    dm_board10_start(&b);
    dm_movelist10 list;
    dm_movegen10_legal(&list, &b);
    dm_board10 c = b;
    dm_board10_apply(&c, &list.moves[0]);
    c.hash ^= 1;
    assert_true(c.hash != dm_board10_compute_hash(&c));
    dm_board10_undo(&c, &list.moves[0]);
    assert_true(memcmp(&c, &b, sizeof c) != 0);
}

int main(void)
{
    prop_seed_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_prop__make_undo_every_variant),
        cmocka_unit_test(test_prop__make_undo_international_board),
        cmocka_unit_test(test_prop__checks_catch_a_wrong_hash),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
