/* SPDX-License-Identifier: MIT
 * tests/property/test_prop_records.c: property tests of the records over random
 * positions and random games of every variant, seeded (tests/property/prop.h):
 * - FEN: writing a position (numeric and algebraic squares) and reading it back
 *   gives the same position, and writing that again gives the same text; for
 *   international also through dm_board10_to_fen / dm_board10_from_fen (hash included);
 * - PDN: a random game written by the library's writer (short notation, full
 *   paths, the other capture separator) reads back as one game with the same
 *   moves (each move text names the move played), replays legal to the same end
 *   position, and writing the game read back gives the same text. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "core/board10.h"
#include "core/move10.h"
#include <damier/pdn.h>
#include <damier/variant.h>

#include "property/prop.h"

static int vboard_equal(const dm_board *a, const dm_board *b)
{
    return a->variant == b->variant && a->side == b->side &&
           memcmp(a->sq, b->sq, sizeof a->sq) == 0;
}

/* ---- FEN -------------------------------------------------------------------- */

static void fen_roundtrip(const dm_board *b, int game, int ply)
{
    prop_where("FEN round trip", b, game, ply);
    for (int alg = 0; alg <= 1; alg++) {
        char text[600], again[600];
        size_t n = dm_board_to_fen(text, sizeof text, b, alg);
        PROP_CHECK(n < sizeof text, "FEN of %zu characters", n);
        dm_board r;
        dm_error err;
        dm_status st = dm_board_from_fen(&r, b->variant, text, &err);
        PROP_CHECK(st == DM_OK, "%s FEN \"%s\" refused: %s", alg ? "algebraic" : "numeric", text,
                   err.message);
        PROP_CHECK(vboard_equal(&r, b), "%s FEN \"%s\" reads back as another position",
                   alg ? "algebraic" : "numeric", text);
        dm_board_to_fen(again, sizeof again, &r, alg);
        PROP_CHECK(strcmp(text, again) == 0, "FEN \"%s\" written again as \"%s\"", text, again);
    }
    if (b->variant->id == DM_VARIANT_INTERNATIONAL) {
        dm_board10 fb, rb;
        assert_int_equal(dm_board_to_board10(&fb, b), DM_OK);
        char text[200], again[200];
        size_t n = dm_board10_to_fen(text, sizeof text, &fb);
        PROP_CHECK(n < sizeof text, "dm_board10 FEN of %zu characters", n);
        dm_error err;
        PROP_CHECK(dm_board10_from_fen(&rb, text, &err) == DM_OK,
                   "dm_board10 FEN \"%s\" refused: %s", text, err.message);
        PROP_CHECK(dm_board10_equal(&rb, &fb) && rb.hash == fb.hash,
                   "dm_board10 FEN \"%s\" reads back as another position", text);
        dm_board10_to_fen(again, sizeof again, &rb);
        PROP_CHECK(strcmp(text, again) == 0, "dm_board10 FEN \"%s\" written again as \"%s\"", text,
                   again);
    }
}

static void test_prop__fen_roundtrip_every_variant(void **state)
{
    (void)state;
    prop_case_seed(11);
    static dm_movelist list;
    for (int id = 0; id < DM_VARIANT_COUNT; id++) {
        const dm_variant *v = prop_variant(id);
        int checked = 0;
        for (int k = 0; k < 400; k++) {
            dm_board b;
            if (k % 4 == 0) {
                prop_random_kings(&b, v, prop_below(v->squares + 1), 0);
            } else {
                prop_random_position(&b, v, prop_below(v->squares + 1), prop_below(101));
            }
            fen_roundtrip(&b, k, -1);
            checked++;
        }
        for (int game = 0; game < 10; game++) {
            dm_board b;
            dm_board_start(&b, v);
            for (int ply = 0; ply < 150; ply++) {
                fen_roundtrip(&b, game, ply);
                checked++;
                int n = dm_movegen_legal(&list, &b);
                if (n == 0) {
                    break;
                }
                dm_board_apply(&b, &list.moves[prop_below(n)]);
            }
        }
        print_message("  %-13s %5d positions written and read (numeric and algebraic)\n", v->name,
                      checked);
    }
    /* the empty board and the full board too */
    for (int id = 0; id < DM_VARIANT_COUNT; id++) {
        dm_board b;
        dm_board_clear(&b, prop_variant(id));
        fen_roundtrip(&b, -1, -1);
        prop_random_kings(&b, prop_variant(id), 200, 0);
        fen_roundtrip(&b, -1, -1);
    }
}

/* ---- PDN -------------------------------------------------------------------- */

static char *xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    assert_non_null(d);
    memcpy(d, s, n);
    return d;
}

#define MAX_PLIES 160

typedef struct rgame {
    dm_board start;
    int from_fen; /* 1: the start is a random position */
    int plies;
    dm_move moves[MAX_PLIES];
} rgame;

/* A random game of v: from the start (or a random position with kings, where long
 * multi-captures and ambiguous captures come up), up to MAX_PLIES plies or the end. */
static void random_game(rgame *g, const dm_variant *v, int from_fen)
{
    static dm_movelist list;
    g->from_fen = from_fen;
    if (from_fen) {
        prop_random_position(&g->start, v, 4 + prop_below(v->squares / 2), prop_below(60));
    } else {
        dm_board_start(&g->start, v);
    }
    dm_board b = g->start;
    int want = 1 + prop_below(MAX_PLIES);
    for (g->plies = 0; g->plies < want; g->plies++) {
        int n = dm_movegen_legal(&list, &b);
        if (n == 0) {
            break;
        }
        g->moves[g->plies] = list.moves[prop_below(n)];
        dm_board_apply(&b, &g->moves[g->plies]);
    }
}

/* The game as a PDN record: GameType, FEN when not the start, moves written by the
 * library (international through move.h, the others through variant.h). */
static dm_pdn_game *record_of(const rgame *g)
{
    const dm_variant *v = g->start.variant;
    dm_pdn_game *rec = NULL;
    assert_int_equal(dm_pdn_game_new(&rec), DM_OK);
    char buf[600];
    assert_int_equal(dm_pdn_game_set_tag(rec, "Event", "property test"), DM_OK);
    snprintf(buf, sizeof buf, "%d", v->game_type);
    assert_int_equal(dm_pdn_game_set_tag(rec, "GameType", buf), DM_OK);
    if (g->from_fen) {
        dm_board_to_fen(buf, sizeof buf, &g->start, v->algebraic);
        assert_int_equal(dm_pdn_game_set_tag(rec, "SetUp", "1"), DM_OK);
        assert_int_equal(dm_pdn_game_set_tag(rec, "FEN", buf), DM_OK);
    }
    if (g->plies > 0) {
        rec->main.nodes = calloc((size_t)g->plies, sizeof *rec->main.nodes);
        assert_non_null(rec->main.nodes);
    }
    dm_board b = g->start;
    for (int i = 0; i < g->plies; i++) {
        if (v->id == DM_VARIANT_INTERNATIONAL && (i & 1)) {
            /* every other move through the fast core's writer */
            dm_board10 fb;
            assert_int_equal(dm_board_to_board10(&fb, &b), DM_OK);
            dm_movelist10 fl;
            int n = dm_movegen10_legal(&fl, &fb);
            dm_board after = b;
            dm_board_apply(&after, &g->moves[i]);
            int k = 0;
            for (; k < n; k++) {
                dm_board10 c = fb;
                dm_board10_apply(&c, &fl.moves[k]);
                dm_board vc;
                dm_board_from_board10(&vc, v, &c);
                if (vboard_equal(&vc, &after)) {
                    break;
                }
            }
            assert_true(k < n);
            dm_move10_to_text(buf, sizeof buf, &fb, &fl.moves[k], DM_NOTATION_PDN);
        } else {
            dm_move_to_text(buf, sizeof buf, &b, &g->moves[i], DM_NOTATION_PDN, DM_SQUARES_DEFAULT);
        }
        rec->main.nodes[i].kind = DM_PDN_NODE_MOVE;
        rec->main.nodes[i].text = xstrdup(buf);
        rec->main.nnodes = i + 1;
        dm_board_apply(&b, &g->moves[i]);
    }
    rec->result = xstrdup("*");
    return rec;
}

/* Read text: exactly one game. */
static dm_pdn_game *read_one(const char *text, size_t len)
{
    dm_pdn_reader *r = NULL;
    assert_int_equal(dm_pdn_reader_new(&r, text, len, "prop"), DM_OK);
    dm_pdn_game *g = NULL, *extra = NULL;
    dm_error err;
    dm_status st = dm_pdn_reader_next(&g, r, &err);
    PROP_CHECK(st == DM_OK && g, "the written game does not read back: %s\n%s",
               st ? err.message : "no game", text);
    st = dm_pdn_reader_next(&extra, r, &err);
    PROP_CHECK(st == DM_OK && !extra, "the written game reads back as more than one\n%s", text);
    dm_pdn_reader_free(r);
    return g;
}

/* The game read back has the moves of g: each node names the move played. */
static void same_moves(const rgame *g, const dm_pdn_game *back, const char *text)
{
    PROP_CHECK(back->main.nnodes == g->plies, "%d plies written, %d read back\n%s", g->plies,
               back->main.nnodes, text);
    dm_board b = g->start;
    for (int i = 0; i < g->plies; i++) {
        const dm_pdn_node *nd = &back->main.nodes[i];
        prop_where("PDN round trip", &b, -1, i);
        PROP_CHECK(nd->kind == DM_PDN_NODE_MOVE, "node %d is not a move\n%s", i, text);
        dm_move m;
        dm_error err;
        dm_status st = dm_move_parse(&m, &b, nd->text, &err);
        PROP_CHECK(st == DM_OK, "move \"%s\" read back does not parse: %s\n%s", nd->text,
                   err.message, text);
        PROP_CHECK(prop_same_vmove(&m, &g->moves[i]), "move \"%s\" read back is another move\n%s",
                   nd->text, text);
        dm_board_apply(&b, &m);
    }
    dm_pdn_replay rp;
    assert_int_equal(dm_pdn_replay_mainline(&rp, back), DM_OK);
    PROP_CHECK(rp.verdict == DM_PDN_LEGAL && rp.plies == g->plies && rp.variant == g->start.variant,
               "replay: verdict %d after %d plies (%s), variant %s\n%s", rp.verdict, rp.plies,
               rp.reason.message, rp.variant ? rp.variant->name : "-", text);
    PROP_CHECK(vboard_equal(&rp.end, &b), "replay ends elsewhere\n%s", text);
}

static void pdn_roundtrip(const rgame *g, int game)
{
    prop_where("PDN round trip", &g->start, game, -1);
    dm_pdn_game *rec = record_of(g);
    const dm_pdn_write_options opts[] = {
        {DM_NOTATION_PDN, 0, 0},
        {DM_NOTATION_FULL, 0, 0},
        {DM_NOTATION_PDN, g->start.variant->capture_sep == 'x' ? ':' : 'x', 0},
    };
    for (size_t o = 0; o < sizeof opts / sizeof opts[0]; o++) {
        char *text = NULL, *again = NULL;
        size_t len = 0, len2 = 0;
        prop_where("PDN round trip", &g->start, game, -1);
        PROP_CHECK(dm_pdn_write_with(&text, &len, rec, &opts[o]) == DM_OK, "write failed");
        dm_pdn_game *back = read_one(text, len);
        same_moves(g, back, text);
        prop_where("PDN round trip", &g->start, game, -1);
        PROP_CHECK(dm_pdn_write_with(&again, &len2, back, &opts[o]) == DM_OK, "write 2 failed");
        PROP_CHECK(len == len2 && strcmp(text, again) == 0,
                   "writing the game read back changes the text:\n%s\n----\n%s", text, again);
        dm_pdn_game_free(back);
        free(text);
        free(again);
    }
    dm_pdn_game_free(rec);
}

static void test_prop__pdn_roundtrip_every_variant(void **state)
{
    (void)state;
    prop_case_seed(12);
    static rgame g;
    for (int id = 0; id < DM_VARIANT_COUNT; id++) {
        const dm_variant *v = prop_variant(id);
        long plies = 0, captures = 0;
        int games = 0;
        for (int k = 0; k < 40; k++, games++) {
            random_game(&g, v, k % 2);
            pdn_roundtrip(&g, k);
            plies += g.plies;
            for (int i = 0; i < g.plies; i++) {
                captures += g.moves[i].ncapt > 1;
            }
        }
        print_message("  %-13s %3d games, %5ld plies (%ld multi-captures) written 3 ways and "
                      "read back\n",
                      v->name, games, plies, captures);
        assert_true(plies > 500);
    }
}

int main(void)
{
    prop_seed_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_prop__fen_roundtrip_every_variant),
        cmocka_unit_test(test_prop__pdn_roundtrip_every_variant),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
