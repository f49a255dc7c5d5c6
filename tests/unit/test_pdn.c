/* SPDX-License-Identifier: MIT
 * tests/unit/test_pdn.c: PDN 3.0 reading (every oddity real files have), error
 * recovery, mainline replay with the FMJD rules, and the writer (roster, notation,
 * numbering, wrapping at 80 columns, read -> write -> read round trips). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <damier/pdn.h>

/* ---- helpers --------------------------------------------------------------------- */

#define MAX_GAMES 16

typedef struct readout {
    dm_pdn_game *games[MAX_GAMES];
    int ngames;
    dm_error errors[MAX_GAMES];
    int nerrors;
    int order[2 * MAX_GAMES]; /* 1 game, -1 error, in input order */
    int norder;
} readout;

static void read_text(readout *ro, const char *text)
{
    memset(ro, 0, sizeof *ro);
    dm_pdn_reader *r = NULL;
    assert_int_equal(dm_pdn_reader_new(&r, text, strlen(text), "t.pdn"), DM_OK);
    for (int guard = 0; guard < 4 * MAX_GAMES; guard++) {
        dm_pdn_game *g = NULL;
        dm_error err = {{0}, 0, 0};
        dm_status st = dm_pdn_reader_next(&g, r, &err);
        if (st == DM_EPARSE) {
            assert_null(g);
            assert_true(ro->nerrors < MAX_GAMES);
            ro->errors[ro->nerrors++] = err;
            ro->order[ro->norder++] = -1;
            continue;
        }
        assert_int_equal(st, DM_OK);
        if (!g) {
            break;
        }
        assert_true(ro->ngames < MAX_GAMES);
        ro->games[ro->ngames++] = g;
        ro->order[ro->norder++] = 1;
    }
    assert_int_equal(dm_pdn_reader_count(r), ro->ngames + ro->nerrors);
    dm_pdn_reader_free(r);
}

static void free_readout(readout *ro)
{
    for (int i = 0; i < ro->ngames; i++) {
        dm_pdn_game_free(ro->games[i]);
    }
    memset(ro, 0, sizeof *ro);
}

/* Exactly one game, no error. */
static dm_pdn_game *read_one(const char *text)
{
    readout ro;
    read_text(&ro, text);
    if (ro.nerrors) {
        fail_msg("unexpected error: %s", ro.errors[0].message);
    }
    if (ro.ngames != 1) {
        fail_msg("expected one game, read %d", ro.ngames);
    }
    return ro.games[0];
}

static int has_note(const dm_pdn_game *g, const char *part)
{
    for (int i = 0; i < g->nnotes; i++) {
        if (strstr(g->notes[i], part)) {
            return 1;
        }
    }
    return 0;
}

static dm_pdn_replay replay(const dm_pdn_game *g)
{
    dm_pdn_replay rep;
    assert_int_equal(dm_pdn_replay_mainline(&rep, g), DM_OK);
    return rep;
}

static char *write_game(const dm_pdn_game *g, dm_notation style)
{
    char *out = NULL;
    size_t len = 0;
    assert_int_equal(dm_pdn_write(&out, &len, g, style), DM_OK);
    assert_non_null(out);
    assert_int_equal(len, strlen(out));
    return out;
}

static void assert_contains(const char *hay, const char *needle)
{
    if (!strstr(hay, needle)) {
        fail_msg("\"%s\" not found in:\n%s", needle, hay);
    }
}

/* needle in hay, line breaks in hay read as spaces (the writer wraps lines) */
static void assert_contains_flat(const char *hay, const char *needle)
{
    char *flat = malloc(strlen(hay) + 1);
    assert_non_null(flat);
    size_t i = 0;
    for (; hay[i]; i++) {
        flat[i] = hay[i] == '\n' ? ' ' : hay[i];
    }
    flat[i] = 0;
    if (!strstr(flat, needle)) {
        fail_msg("\"%s\" not found in:\n%s", needle, hay);
    }
    free(flat);
}

/* Movetext lines fit in width columns; only a tag line or a single word longer than
 * the width may stand alone on a longer line. */
static void assert_max_width(const char *text, int width)
{
    int line = 1;
    for (const char *p = text; *p; line++) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        int col = 0, spaces = 0;
        for (size_t i = 0; i < n; i++) {
            col += ((unsigned char)p[i] & 0xC0) != 0x80;
            spaces += p[i] == ' ';
        }
        if (col > width && p[0] != '[' && spaces > 0) {
            fail_msg("line %d is longer than %d columns:\n%s", line, width, text);
        }
        p += n + (nl != NULL);
    }
}

/* Same movetext structure (kinds, marks, NAGs, comments, variations; move numbers and
 * move spelling may differ since the writer normalises them). */
static void assert_same_line(const dm_pdn_line *a, const dm_pdn_line *b)
{
    assert_int_equal(a->nnodes, b->nnodes);
    assert_int_equal(a->nend, b->nend);
    for (int i = 0; i < a->nend; i++) {
        assert_string_equal(a->end[i], b->end[i]);
    }
    for (int i = 0; i < a->nnodes; i++) {
        const dm_pdn_node *x = &a->nodes[i], *y = &b->nodes[i];
        assert_int_equal(x->kind, y->kind);
        if ((x->mark == NULL) != (y->mark == NULL) || (x->mark && strcmp(x->mark, y->mark))) {
            fail_msg("node %d: mark %s vs %s", i, x->mark ? x->mark : "-", y->mark ? y->mark : "-");
        }
        assert_int_equal(x->nnags, y->nnags);
        for (int k = 0; k < x->nnags; k++) {
            assert_int_equal(x->nags[k], y->nags[k]);
        }
        assert_int_equal(x->nbefore, y->nbefore);
        for (int k = 0; k < x->nbefore; k++) {
            assert_string_equal(x->before[k], y->before[k]);
        }
        assert_int_equal(x->nafter, y->nafter);
        for (int k = 0; k < x->nafter; k++) {
            assert_string_equal(x->after[k], y->after[k]);
        }
        assert_int_equal(x->nvariations, y->nvariations);
        for (int v = 0; v < x->nvariations; v++) {
            assert_same_line(&x->variations[v], &y->variations[v]);
        }
    }
}

static int same_strs(char *const *a, int na, char *const *b, int nb)
{
    if (na != nb) {
        return 0;
    }
    for (int i = 0; i < na; i++) {
        if (strcmp(a[i], b[i])) {
            return 0;
        }
    }
    return 1;
}

/* What differs between two movetext trees, as assert_same_line compares them, or NULL. */
static const char *line_diff(const dm_pdn_line *a, const dm_pdn_line *b)
{
    if (a->nnodes != b->nnodes) {
        return "number of nodes";
    }
    if (!same_strs(a->end, a->nend, b->end, b->nend)) {
        return "comments at the end of a line";
    }
    for (int i = 0; i < a->nnodes; i++) {
        const dm_pdn_node *x = &a->nodes[i], *y = &b->nodes[i];
        if (x->kind != y->kind) {
            return "node kind";
        }
        if ((x->mark == NULL) != (y->mark == NULL) || (x->mark && strcmp(x->mark, y->mark))) {
            return "mark";
        }
        if (x->nnags != y->nnags ||
            (x->nnags && memcmp(x->nags, y->nags, sizeof *x->nags * (size_t)x->nnags))) {
            return "NAGs";
        }
        if (!same_strs(x->before, x->nbefore, y->before, y->nbefore)) {
            return "comments before a node";
        }
        if (!same_strs(x->after, x->nafter, y->after, y->nafter)) {
            return "comments after a node";
        }
        if (x->nvariations != y->nvariations) {
            return "number of variations";
        }
        for (int v = 0; v < x->nvariations; v++) {
            const char *d = line_diff(&x->variations[v], &y->variations[v]);
            if (d) {
                return d;
            }
        }
    }
    return NULL;
}

/* read -> write -> read gives the same game; writing again gives the same text. */
static void assert_round_trip(const dm_pdn_game *g, dm_notation style)
{
    char *text1 = write_game(g, style);
    dm_pdn_game *g2 = read_one(text1);
    assert_same_line(&g->main, &g2->main);
    /* every tag kept with its value (FEN aside: it is written normalised) */
    for (int i = 0; i < g->ntags; i++) {
        if (!strcmp(g->tags[i].name, "FEN")) {
            continue;
        }
        const char *v = dm_pdn_game_tag(g2, g->tags[i].name);
        if (!v || strcmp(v, dm_pdn_game_tag(g, g->tags[i].name))) {
            fail_msg("tag %s lost or changed:\n%s", g->tags[i].name, text1);
        }
    }
    dm_pdn_replay r1 = replay(g), r2 = replay(g2);
    assert_int_equal(r1.verdict, r2.verdict);
    assert_int_equal(r1.plies, r2.plies);
    /* the same variant, and the same positions */
    assert_true(r1.variant == r2.variant);
    assert_int_equal(r1.end.side, r2.end.side);
    assert_memory_equal(r1.start.sq, r2.start.sq, sizeof r1.start.sq);
    assert_memory_equal(r1.end.sq, r2.end.sq, sizeof r1.end.sq);
    char *text2 = write_game(g2, style);
    assert_string_equal(text1, text2);
    assert_max_width(text1, 80);
    free(text1);
    free(text2);
    dm_pdn_game_free(g2);
}

/* ---- tags ------------------------------------------------------------------------ */

static void test_pdn__tags_in_order_unknown_kept_escapes(void **state)
{
    (void)state;
    dm_pdn_game *g = read_one("[Event \"NK 2009\"]\n"
                              "[Site   \"Dordrecht, NED\"]\n"
                              "[DamboTopLine \"x\"]\n"
                              "[White \"Sijbrands, T.\"]\n"
                              "[Black \"say \\\"hi\\\" \\\\ bye\"]\n"
                              "[Event       \"padded name\"]\n"
                              "[Round 3]\n"
                              "\n1. 32-28 *\n");
    assert_int_equal(g->ntags, 7);
    assert_string_equal(g->tags[0].name, "Event");
    assert_string_equal(g->tags[1].value, "Dordrecht, NED");
    assert_string_equal(g->tags[2].name, "DamboTopLine");
    assert_string_equal(dm_pdn_game_tag(g, "Black"), "say \"hi\" \\ bye");
    assert_string_equal(g->tags[5].value, "padded name");
    assert_string_equal(dm_pdn_game_tag(g, "round"), "3");
    assert_true(has_note(g, "without quotes"));
    assert_null(dm_pdn_game_tag(g, "Date"));
    assert_string_equal(g->result, "*");
    assert_int_equal(g->number, 1);
    assert_int_equal(g->line, 1);
    /* written back: escapes restored, unknown tags after the roster */
    char *out = write_game(g, DM_NOTATION_PDN);
    assert_contains(out, "[Black \"say \\\"hi\\\" \\\\ bye\"]");
    assert_contains(out, "[Result \"*\"]\n[DamboTopLine \"x\"]");
    free(out);
    assert_round_trip(g, DM_NOTATION_PDN);
    dm_pdn_game_free(g);
}

static void test_pdn__game_type_and_set_tag(void **state)
{
    (void)state;
    dm_pdn_game *g = NULL;
    assert_int_equal(dm_pdn_game_new(&g), DM_OK);
    assert_int_equal(dm_pdn_game_type(g), -1);
    assert_int_equal(dm_pdn_game_set_tag(g, "GameType", "20,W,10,10,N2,0"), DM_OK);
    assert_int_equal(dm_pdn_game_type(g), 20);
    assert_int_equal(dm_pdn_game_set_tag(g, "GameType", "draughts"), DM_OK);
    assert_int_equal(g->ntags, 1);
    assert_int_equal(dm_pdn_game_type(g), -2);
    assert_int_equal(dm_pdn_game_set_tag(g, "", "x"), DM_EINVAL);
    assert_int_equal(dm_pdn_game_set_tag(g, "Bad Name", "x"), DM_EINVAL);
    assert_int_equal(dm_pdn_game_set_tag(g, "Bad]", "x"), DM_EINVAL);
    assert_null(dm_pdn_game_fen(g));
    dm_pdn_game_free(g);
    dm_pdn_game_free(NULL);
}

/* ---- movetext -------------------------------------------------------------------- */

static void test_pdn__move_forms(void **state)
{
    (void)state;
    /* glued number, padding after '-' and 'x', leading zeros, ':' and U+00D7 */
    dm_pdn_game *g = read_one("1.32-28 19-23 2. 28x19 14x23 3.  33- 28 23\xC3\x97"
                              "32 4. 37: 28 09-14 5. 39-33 04-09 *");
    assert_int_equal(g->main.nnodes, 10);
    assert_string_equal(g->main.nodes[0].text, "32-28");
    assert_int_equal(g->main.nodes[0].number, 1);
    assert_int_equal(g->main.nodes[1].number, 0);
    assert_string_equal(g->main.nodes[4].text, "33- 28");
    assert_string_equal(g->main.nodes[5].text, "23\xC3\x97"
                                               "32");
    assert_string_equal(g->main.nodes[6].text, "37: 28");
    dm_pdn_replay rep = replay(g);
    assert_int_equal(rep.verdict, DM_PDN_LEGAL);
    assert_int_equal(rep.plies, 10);
    char *out = write_game(g, DM_NOTATION_PDN);
    assert_contains(out, "1. 32-28 19-23 2. 28x19 14x23 3. 33-28 23x32 4. 37x28 9-14 5. 39-33 "
                         "4-9 *");
    free(out);
    assert_round_trip(g, DM_NOTATION_PDN);
    dm_pdn_game_free(g);

    /* "47x 9" padding after 'x' (DUTCH96H.pdn), and "1. ... 7-12" with Black to move */
    g = read_one("[FEN \"B:W8,25,30:B7,15,18.\"]\n1. ... 7-12 2. 8x17 18-23 *");
    assert_int_equal(g->main.nnodes, 3);
    assert_int_equal(g->main.nodes[0].number, 1);
    assert_int_equal(g->main.nodes[0].number_black, 1);
    assert_int_equal(replay(g).verdict, DM_PDN_LEGAL);
    out = write_game(g, DM_NOTATION_PDN);
    assert_contains(out, "[FEN \"B:W8,25,30:B7,15,18\"]");
    assert_contains(out, "1... 7-12 2. 8x17 18-23 *");
    free(out);
    assert_round_trip(g, DM_NOTATION_PDN);
    dm_pdn_game_free(g);

    g = read_one("[FEN \"W:WK47:B9,38\"]\n1. 47x 3 *");
    assert_string_equal(g->main.nodes[0].text, "47x 3");
    assert_int_equal(replay(g).verdict, DM_PDN_LEGAL);
    dm_pdn_game_free(g);
}

static void test_pdn__marks_nags_comments_variations(void **state)
{
    (void)state;
    const char *text = "[Event \"e\"]\n"
                       "{before all} 1. 32-28! {good} $1 $14 (1. 33-28?! {also} (1. 31-26 "
                       "{deeper}) 1... 18-23) {after var} 1... 19-23(?) 2. 28x19!? 14x23?? "
                       "3. 37-32* ; line comment\n"
                       "10-14!! 4. 35-30 5-10 $7 {end [%clk 0:01:00]} {}\n"
                       "% escaped line 1. 99-98\n"
                       "2-0\n";
    dm_pdn_game *g = read_one(text);
    const dm_pdn_line *m = &g->main;
    assert_int_equal(m->nnodes, 8);
    const dm_pdn_node *n0 = &m->nodes[0];
    assert_int_equal(n0->nbefore, 1);
    assert_string_equal(n0->before[0], "before all");
    assert_string_equal(n0->mark, "!");
    assert_int_equal(n0->nnags, 2);
    assert_int_equal(n0->nags[0], 1);
    assert_int_equal(n0->nags[1], 14);
    assert_int_equal(n0->nafter, 1);
    assert_string_equal(n0->after[0], "good");
    assert_int_equal(n0->nvariations, 1);
    const dm_pdn_line *v = &n0->variations[0];
    assert_int_equal(v->nnodes, 2);
    assert_string_equal(v->nodes[0].mark, "?!");
    assert_int_equal(v->nodes[0].nvariations, 1);
    assert_string_equal(v->nodes[0].variations[0].nodes[0].text, "31-26");
    assert_string_equal(v->nodes[0].variations[0].nodes[0].after[0], "deeper");
    /* a comment after a variation goes before the next move */
    assert_int_equal(m->nodes[1].nbefore, 1);
    assert_string_equal(m->nodes[1].before[0], "after var");
    assert_string_equal(m->nodes[1].mark, "(?)");
    assert_string_equal(m->nodes[2].mark, "!?");
    assert_string_equal(m->nodes[3].mark, "??");
    assert_string_equal(m->nodes[4].mark, "*");
    assert_string_equal(m->nodes[4].after[0], "line comment");
    assert_string_equal(m->nodes[5].mark, "!!");
    assert_int_equal(m->nodes[7].nnags, 1);
    assert_int_equal(m->nodes[7].nags[0], 7);
    assert_int_equal(m->nodes[7].nafter, 2);
    assert_string_equal(m->nodes[7].after[0], "end [%clk 0:01:00]");
    assert_string_equal(m->nodes[7].after[1], "");
    assert_string_equal(g->result, "2-0");
    dm_pdn_replay rep = replay(g);
    assert_int_equal(rep.verdict, DM_PDN_LEGAL);
    char *out = write_game(g, DM_NOTATION_PDN);
    assert_contains_flat(out, "{before all} 1. 32-28! $1 $14 {good} (1. 33-28?! {also} "
                              "(1. 31-26 {deeper}) 1... 18-23) {after var} 1... 19-23(?)");
    assert_contains_flat(out, "3. 37-32* {line comment} 3... 10-14!!");
    assert_contains_flat(out, "5-10 $7 {end [%clk 0:01:00]} {} 2-0 ");
    free(out);
    assert_round_trip(g, DM_NOTATION_PDN);
    dm_pdn_game_free(g);
}

static void test_pdn__stray_mark_is_an_error_then_recovery(void **state)
{
    (void)state;
    /* a mark separated from its move by a space is not a move: reported with where */
    readout ro;
    read_text(&ro, "[Event \"a\"]\n\n1. 32-28 ?! 19-23 *\n\n[Event \"b\"]\n\n1. 33-28 *\n");
    assert_int_equal(ro.nerrors, 1);
    assert_int_equal(ro.ngames, 1);
    assert_int_equal(ro.errors[0].line, 3);
    assert_int_equal(ro.errors[0].column, 10);
    assert_contains(ro.errors[0].message, "t.pdn: game 1, line 3, column 10: expected a move");
    assert_string_equal(dm_pdn_game_tag(ro.games[0], "Event"), "b");
    assert_int_equal(ro.games[0]->number, 2);
    free_readout(&ro);
}

static void test_pdn__result_tokens_separate_games(void **state)
{
    (void)state;
    static const char *const results[] = {"2-0", "1-1", "0-2", "1-0", "0-1", "1/2-1/2", "0-0", "*"};
    char text[1024] = "";
    for (int i = 0; i < 8; i++) {
        char one[64];
        snprintf(one, sizeof one, "1. 32-28 %s ", results[i]);
        strcat(text, one);
    }
    readout ro;
    read_text(&ro, text);
    assert_int_equal(ro.nerrors, 0);
    assert_int_equal(ro.ngames, 8);
    for (int i = 0; i < 8; i++) {
        assert_string_equal(ro.games[i]->result, results[i]);
        assert_int_equal(ro.games[i]->main.nnodes, 1);
    }
    free_readout(&ro);

    /* "1-18" is a move, "1-1" after it the result; "0-1" glued to the next tag */
    read_text(&ro, "[FEN \"B:W30:BK1\"]\n1... 1-18 1-1\n[Event \"x\"]\n1. 32-28 0-1[Event "
                   "\"y\"]\n1. 31-27 *");
    assert_int_equal(ro.nerrors, 0);
    assert_int_equal(ro.ngames, 3);
    assert_string_equal(ro.games[0]->main.nodes[0].text, "1-18");
    assert_string_equal(ro.games[0]->result, "1-1");
    assert_int_equal(replay(ro.games[0]).verdict, DM_PDN_LEGAL);
    assert_string_equal(ro.games[1]->result, "0-1");
    assert_true(has_note(ro.games[1], "glued"));
    assert_string_equal(dm_pdn_game_tag(ro.games[2], "Event"), "y");
    free_readout(&ro);

    /* a match score as result, when the Result tag says so (delfts.pdn) */
    dm_pdn_game *g = read_one("[Result \"4-6\"]\n01. 34-29 18-22 4-6\n");
    assert_string_equal(g->result, "4-6");
    assert_int_equal(g->main.nnodes, 2);
    assert_int_equal(replay(g).verdict, DM_PDN_LEGAL);
    assert_round_trip(g, DM_NOTATION_PDN);
    dm_pdn_game_free(g);
}

/* A result glued to text ("0-1www") is neither a result nor a move: it used to be read
 * as a move "0-1" with a comment {www}, running the game into the next one, and
 * written as "1. 32-28 0-1 {www} *", a different game. Now it is an error that says
 * where, and reading goes on with the next game (even right after it). */
static void test_pdn__result_glued_to_text_is_an_error(void **state)
{
    (void)state;
    readout ro;
    read_text(&ro, "[Event \"a\"]\n\n1. 32-28 0-1www\n\n[Event \"b\"]\n\n1. 32-28 *\n");
    assert_int_equal(ro.nerrors, 1);
    assert_int_equal(ro.ngames, 1);
    assert_int_equal(ro.errors[0].line, 3);
    assert_int_equal(ro.errors[0].column, 13);
    assert_contains(ro.errors[0].message, "game 1, line 3, column 13: expected white space, a "
                                          "tag or the end of the text after the result 0-1, "
                                          "found 'w'");
    assert_string_equal(dm_pdn_game_tag(ro.games[0], "Event"), "b");
    free_readout(&ro);

    /* every result, glued to a letter, a mark, a comment or a dot; the next game
     * (without a blank line, or without tags) is still read */
    static const char *const results[] = {"2-0", "1-1", "0-2", "1-0", "0-1", "1/2-1/2", "0-0"};
    static const char *const glue[] = {"x", "!", "{c}", ".", "(", ";x"};
    for (size_t i = 0; i < sizeof results / sizeof results[0]; i++) {
        for (size_t k = 0; k < sizeof glue / sizeof glue[0]; k++) {
            char text[160];
            snprintf(text, sizeof text, "1. 32-28 %s%s\n%s1. 31-27 *\n", results[i], glue[k],
                     k % 2 ? "[Event \"n\"]\n" : "");
            read_text(&ro, text);
            if (ro.nerrors != 1 || ro.ngames != 1) {
                fail_msg("%s: %d errors, %d games", text, ro.nerrors, ro.ngames);
            }
            assert_int_equal(ro.errors[0].column, 10 + (int)strlen(results[i]));
            assert_string_equal(ro.games[0]->main.nodes[0].text, "31-27");
            free_readout(&ro);
        }
    }

    /* a result before a digit is a move ("1-10"), before white space, a tag or the
     * end a result */
    read_text(&ro, "[FEN \"W:WK1:B7\"]\n1. 1-10 *\n1. 32-28 1-0[Event \"x\"] 1. 32-28 0-1");
    assert_int_equal(ro.nerrors, 0);
    assert_int_equal(ro.ngames, 3);
    assert_string_equal(ro.games[0]->main.nodes[0].text, "1-10");
    assert_string_equal(ro.games[1]->result, "1-0");
    assert_string_equal(ro.games[2]->result, "0-1");
    free_readout(&ro);
}

/* Found by the mutation test once it compared the games read back: a comment after
 * a setup command was dropped, a ';' comment holding '{' was written braced
 * ({x{...}), a move text ending with ':' swallowed the next move, a CR in a tag value
 * became a space, and leaving out a FEN of the initial position changed the rules
 * guessed. */
static void test_pdn__writer_round_trip_odd_input(void **state)
{
    (void)state;
    dm_pdn_game *g = read_one("1. 32-28 /FEN \"W:WK47:B9\"/ {after setup} 1. 47-42 *");
    assert_int_equal(g->main.nodes[1].kind, DM_PDN_NODE_SETUP);
    assert_int_equal(g->main.nodes[1].nafter, 1);
    assert_round_trip(g, DM_NOTATION_PDN);
    dm_pdn_game_free(g);
    g = read_one("1. 32-28 ; a { b\n19-23 ; c } d { e\n*");
    assert_string_equal(g->main.nodes[0].after[0], "a { b");
    assert_round_trip(g, DM_NOTATION_PDN);
    dm_pdn_game_free(g);
    /* a move text as read that ends with a separator: "f8:h6: 4:d6:b4" read back as
     * one move (padding after ':'); the next word now goes on a new line */
    g = read_one("[GameType \"25\"]\n1. f8:h6:\t4:d6:b4 *");
    assert_int_equal(g->main.nnodes, 2);
    assert_string_equal(g->main.nodes[0].text, "f8:h6:");
    assert_round_trip(g, DM_NOTATION_PDN);
    dm_pdn_game_free(g);
    /* a carriage return in a tag value: written as a space, so read as one */
    g = read_one("[Event \"a\rb\"]\n1. 32-28 *");
    assert_string_equal(dm_pdn_game_tag(g, "Event"), "a b");
    assert_true(has_note(g, "carriage return"));
    assert_round_trip(g, DM_NOTATION_PDN);
    dm_pdn_game_free(g);
    /* the FEN of the initial position, no GameType: kept, since the rules are found
     * from the squares (without it this game read back as a variant not played) */
    g = read_one("[FEN \"W:W31-50:B1-20\"]\n1. 1: 32-28 *");
    assert_int_equal(replay(g).verdict, DM_PDN_ILLEGAL);
    char *out = write_game(g, DM_NOTATION_PDN);
    assert_contains(out, "[FEN \"W:W31-50:B1-20\"]");
    free(out);
    assert_round_trip(g, DM_NOTATION_PDN);
    dm_pdn_game_free(g);
}

static void test_pdn__missing_results_and_tags(void **state)
{
    (void)state;
    readout ro;
    read_text(&ro, "[Event \"a\"]\n1. 32-28 19-23\n\n[Event \"b\"]\n1. 33-28\n");
    assert_int_equal(ro.nerrors, 0);
    assert_int_equal(ro.ngames, 2);
    assert_null(ro.games[0]->result);
    assert_null(ro.games[1]->result);
    assert_int_equal(ro.games[0]->main.nnodes, 2);
    assert_int_equal(ro.games[1]->line, 4);
    /* the writer ends with the Result tag or "*" and fills the roster */
    char *out = write_game(ro.games[0], DM_NOTATION_PDN);
    assert_string_equal(out, "[Event \"a\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n"
                             "[Round \"?\"]\n[White \"?\"]\n[Black \"?\"]\n[Result \"*\"]\n"
                             "\n1. 32-28 19-23 *\n\n");
    free(out);
    free_readout(&ro);

    /* what is left out is noted: a lone move number, a stray '.' */
    dm_pdn_game *g = read_one("1. 32-28 19-23 . 2. *");
    assert_int_equal(g->main.nnodes, 2);
    assert_true(has_note(g, "move number 2. without a move was ignored"));
    assert_true(has_note(g, "stray '.'"));
    dm_pdn_game_free(g);

    /* movetext only, no tags at all; only tags, no movetext */
    read_text(&ro, "1.32-28 1/2-1/2\n\n[Event \"only tags\"]\n");
    assert_int_equal(ro.nerrors, 0);
    assert_int_equal(ro.ngames, 2);
    assert_int_equal(ro.games[0]->ntags, 0);
    assert_int_equal(ro.games[1]->main.nnodes, 0);
    free_readout(&ro);
}

static void test_pdn__encodings_bom_crlf_latin1(void **state)
{
    (void)state;
    dm_pdn_game *g = read_one("\xEF\xBB\xBF[White \"\xD0\x90\xD0\xB1\"]\r\n[Black \"Ren\xC3\xA9\"]"
                              "\r\n\r\n1. 32-28 {caf\xC3\xA9}\r\n19-23 *\r\n");
    assert_string_equal(dm_pdn_game_tag(g, "White"), "\xD0\x90\xD0\xB1");
    assert_string_equal(dm_pdn_game_tag(g, "Black"), "Ren\xC3\xA9");
    assert_string_equal(g->main.nodes[0].after[0], "caf\xC3\xA9");
    assert_int_equal(g->nnotes, 0);
    assert_int_equal(g->main.nodes[1].line, 5);
    assert_int_equal(g->main.nodes[1].column, 1);
    dm_pdn_game_free(g);

    /* Latin-1: converted to UTF-8, with a note */
    g = read_one("[White \"Ren\xE9 M\xFCller\"]\n1. 32-28 {\xE9t\xE9} *");
    assert_string_equal(dm_pdn_game_tag(g, "White"), "Ren\xC3\xA9 M\xC3\xBCller");
    assert_string_equal(g->main.nodes[0].after[0], "\xC3\xA9t\xC3\xA9");
    assert_true(has_note(g, "Latin-1"));
    assert_round_trip(g, DM_NOTATION_PDN);
    dm_pdn_game_free(g);
}

static void test_pdn__errors_then_next_game(void **state)
{
    (void)state;
    readout ro;
    /* bad tag (no closing quote), then a good game */
    read_text(&ro, "[Event \"broken]\n[White \"x\"]\n1. 32-28 *\n\n[Event \"good\"]\n"
                   "1. 32-28 19-23 2-0\n");
    assert_int_equal(ro.nerrors, 1);
    assert_int_equal(ro.ngames, 1);
    assert_int_equal(ro.order[0], -1);
    assert_int_equal(ro.errors[0].line, 1);
    assert_int_equal(ro.errors[0].column, 8);
    assert_contains(ro.errors[0].message, "game 1, line 1, column 8: expected '\"' to close "
                                          "the value of tag Event");
    assert_string_equal(dm_pdn_game_tag(ro.games[0], "Event"), "good");
    assert_int_equal(ro.games[0]->number, 2);
    free_readout(&ro);

    /* nested comment (fails by design), unclosed variation, stray ')' */
    read_text(&ro, "1. 32-28 { nested { comment } } *\n\n[Event \"a\"]\n1. 32-28 (1. 33-28 "
                   "*\n\n[Event \"b\"]\n1. 32-28 ) *\n\n[Event \"c\"]\n1. 31-26 *\n");
    assert_int_equal(ro.nerrors, 3);
    assert_int_equal(ro.ngames, 1);
    assert_contains(ro.errors[0].message, "comments do not nest");
    assert_contains(ro.errors[1].message, "game 2, line 4");
    assert_contains(ro.errors[1].message, "expected ')'");
    assert_contains(ro.errors[2].message, "game 3, line 7, column 10");
    assert_string_equal(dm_pdn_game_tag(ro.games[0], "Event"), "c");
    assert_int_equal(ro.games[0]->number, 4);
    free_readout(&ro);

    /* unterminated comment at the end; a NAG without a move; garbage */
    read_text(&ro, "1. 32-28 $ 19-23 *\n\n[Event \"z\"]\n@@@ *\n\n[Event \"y\"]\n1. 32-28 {open");
    assert_int_equal(ro.nerrors, 3);
    assert_int_equal(ro.ngames, 0);
    assert_contains(ro.errors[0].message, "a number after '$'");
    assert_contains(ro.errors[1].message, "found '@'");
    assert_contains(ro.errors[2].message, "expected '}' to close the comment opened at line 7");
    free_readout(&ro);
}

static void test_pdn__setup_fen_and_setup_command(void **state)
{
    (void)state;
    dm_pdn_game *g = read_one("[Setup \"1\"]\n[FEN \"W:W10,16,19,28,31,33,46:B7,8,12,17,26,"
                              "37,42.\"]\n1. 46-41 37x46 2. 19-13 46x5 /FEN \"W:W45:B5\"/ 3. "
                              "45-40 *");
    assert_string_equal(dm_pdn_game_tag(g, "SetUp"), "1");
    assert_non_null(dm_pdn_game_fen(g));
    assert_int_equal(g->main.nnodes, 6);
    assert_int_equal(g->main.nodes[4].kind, DM_PDN_NODE_SETUP);
    assert_string_equal(g->main.nodes[4].text, "W:W45:B5");
    dm_pdn_replay rep = replay(g);
    assert_int_equal(rep.verdict, DM_PDN_LEGAL);
    assert_int_equal(rep.plies, 5);
    assert_int_equal(dm_board_piece(&rep.end, 40), DM_WHITE_MAN);
    char *out = write_game(g, DM_NOTATION_PDN);
    assert_contains(out, "[Result \"*\"]\n[FEN \"W:W10,16,19,28,31,33,46:B7,8,12,17,26,37,42\"]"
                         "\n[SetUp \"1\"]\n");
    assert_contains(out, "/FEN \"W:W45:B5\"/ 3. 45-40 *");
    free(out);
    assert_round_trip(g, DM_NOTATION_PDN);
    dm_pdn_game_free(g);

    /* lidraughts counters :H0:F12 give the first move number; the FEN of the initial
     * position is not written back */
    g = read_one("[GameType \"20\"]\n[FEN \"W:W31-50:B1-20:H0:F12\"]\n32-28 *");
    rep = replay(g);
    assert_int_equal(rep.verdict, DM_PDN_LEGAL);
    out = write_game(g, DM_NOTATION_PDN);
    assert_contains(out, "[GameType \"20\"]\n\n");
    assert_true(strstr(out, "FEN") == NULL);
    free(out);
    dm_pdn_game_free(g);
}

/* ---- replay ---------------------------------------------------------------------- */

static void expect_bad(const char *text, int verdict, int number, int black, const char *move,
                       const char *reason_part, const char *fen_before)
{
    dm_pdn_game *g = read_one(text);
    dm_pdn_replay rep = replay(g);
    if (rep.verdict != verdict) {
        fail_msg("%s: verdict %d, expected %d (%s)", text, rep.verdict, verdict,
                 rep.reason.message);
    }
    assert_int_equal(rep.move_number, number);
    assert_int_equal(rep.black, black);
    assert_string_equal(rep.move_text, move);
    assert_contains(rep.reason.message, reason_part);
    if (fen_before) {
        assert_string_equal(rep.fen_before, fen_before);
    }
    assert_non_null(rep.node);
    assert_true(rep.reason.line > 0);
    dm_pdn_game_free(g);
}

static void test_pdn__replay_reports_first_bad_move(void **state)
{
    (void)state;
    expect_bad("[FEN \"W:W37,38:B31,21,33\"]\n1. 37-32 *", DM_PDN_ILLEGAL, 1, 0, "37-32",
               "capture is compulsory", "W:W37,38:B21,31,33");
    expect_bad("[FEN \"W:W37,38:B31,21,33\"]\n1. 38x29 *", DM_PDN_ILLEGAL, 1, 0, "38x29",
               "majority rule", NULL);
    expect_bad("1. 32-28 19-23 2. 28x19 14x23 3. 27-22 *", DM_PDN_ILLEGAL, 3, 0, "27-22",
               "is empty", NULL);
    expect_bad("1. 32-28 18-23 2. 33-29 17-21 3. 37x28 *", DM_PDN_ILLEGAL, 2, 1, "17-21",
               "capture is compulsory", "B:W28,29,31,34-50:B1-17,19,20,23");
    expect_bad("1. 32-28 19-23 2. 28-99 *", DM_PDN_UNREADABLE, 2, 0, "28-99",
               "is not a square of international", NULL);
    expect_bad("1. 32-28 ... 2. 28-22 *", DM_PDN_UNREADABLE, 1, 1, "...", "unknown move", NULL);
    expect_bad("[FEN \"W:WK7:B12,21,22,39\"]\n1. 7x16 *", DM_PDN_ILLEGAL, 1, 0, "7x16", "ambiguous",
               NULL);

    /* a bad FEN: unreadable, no node */
    dm_pdn_game *g = read_one("[FEN \"W:W51:B1\"]\n1. 32-28 *");
    dm_pdn_replay rep = replay(g);
    assert_int_equal(rep.verdict, DM_PDN_UNREADABLE);
    assert_null(rep.node);
    assert_contains(rep.reason.message, "FEN");
    dm_pdn_game_free(g);
}

static void test_pdn__ambiguous_capture_resolved_by_what_follows(void **state)
{
    (void)state;
    /* 7x16 takes 12+21 (path 7x18x27x16... no: via 18 and 27) or 22+39; only one
     * leaves Black a piece on 39 to move 39-44 */
    dm_pdn_game *g = read_one("[FEN \"W:WK7:B12,21,22,39\"]\n1. 7x16 39-44 *");
    dm_pdn_replay rep = replay(g);
    dm_pdn_game *g2 = read_one("[FEN \"W:WK7:B12,21,22,39\"]\n1. 7x16 12-17 *");
    dm_pdn_replay rep2 = replay(g2);
    /* whichever the geometry, exactly one of the two continuations works */
    int legal1 = rep.verdict == DM_PDN_LEGAL, legal2 = rep2.verdict == DM_PDN_LEGAL;
    assert_true(legal1 || legal2);
    const dm_pdn_replay *ok = legal1 ? &rep : &rep2;
    assert_int_equal(ok->resolved, 1);
    assert_string_equal(ok->ambiguous->text, "7x16");
    assert_int_equal(ok->ambiguous_number, 1);
    assert_true(strlen(ok->ambiguous_as) > strlen("7x16"));
    /* the end is the position after the candidate kept and the reply, not after the
     * look-ahead of the candidate dropped */
    assert_int_equal(ok->plies, 2);
    assert_int_equal(ok->end.side, DM_WHITE);
    assert_int_equal(dm_board_piece(&ok->end, 16), DM_WHITE_KING);
    assert_int_equal(dm_board_piece(&ok->end, 7), DM_EMPTY);
    assert_int_equal(dm_board_piece(&ok->end, legal1 ? 44 : 17), DM_BLACK_MAN);
    assert_int_equal(dm_board_piece(&ok->end, legal1 ? 39 : 12), DM_EMPTY);
    /* the writer writes the path of the move kept */
    char *out = write_game(legal1 ? g : g2, DM_NOTATION_PDN);
    char want[200];
    snprintf(want, sizeof want, "1. %s ", ok->ambiguous_as);
    assert_contains(out, want);
    free(out);
    assert_round_trip(legal1 ? g : g2, DM_NOTATION_PDN);
    dm_pdn_game_free(g);
    dm_pdn_game_free(g2);
}

/* The look-ahead that resolves a short capture must leave the moves of the candidate it
 * kept for the nodes after it, whatever order it tries the candidates in. The king on 38
 * takes five pieces to 41 by two routes: one leaves Black's 21, the other 22. Black's
 * king then writes 46x25: over 20 and 41 where 21 is left (the kept line: 12-7 follows),
 * over 12, 20, 31 and 41 where 22 is left (after which 12-7 cannot be played). The
 * dropped candidate's look-ahead once wrote its own 46x25 over the kept one's, so
 * dm_pdn_to_game played a move that is illegal in the game it was building. */
static void test_pdn__game_of_a_resolved_capture_plays_the_kept_line(void **state)
{
    (void)state;
    dm_pdn_game *g =
        read_one("[FEN \"W:W12,20,K31,35,K38:B7,K19,21,22,29,K37,K46\"]\n1. 38x41 46x25 2. 12-7 *");
    dm_pdn_replay rep = replay(g);
    assert_int_equal(rep.verdict, DM_PDN_LEGAL);
    assert_int_equal(rep.resolved, 1);
    assert_string_equal(rep.ambiguous_as, "38x24x2x11x28x41");
    dm_game *game = NULL;
    dm_error err;
    assert_int_equal(dm_pdn_to_game(&game, g, 0, &err), DM_OK);
    assert_int_equal(dm_game_ply(game), 3);
    char fen[128], want[128];
    dm_board_to_fen(fen, sizeof fen, dm_game_position(game), 0);
    dm_board_to_fen(want, sizeof want, &rep.end, 0);
    assert_string_equal(fen, want);
    assert_string_equal(fen, "B:W7,K31,35:B21,K25");
    dm_game_free(game);
    dm_pdn_game_free(g);
}

static void test_pdn__variants(void **state)
{
    (void)state;
    /* which rules: GameType, else Variant tag, else the squares (guessed) */
    static const struct {
        const char *text;
        int verdict;
        const char *variant; /* variant name replayed, or words of the skip reason */
        int guessed;
    } cases[] = {
        {"[GameType \"25\"]\n1. c3-d4 f6-g5 *", DM_PDN_LEGAL, "russian", 0},
        {"[GameType \"21\"]\n1. 11-15 23-19 *", DM_PDN_LEGAL, "english", 0},
        {"[GameType \"26\"]\n1. c3-d4 *", DM_PDN_LEGAL, "brazilian", 0},
        {"[GameType \"27\"]\n1. 43-37 *", DM_PDN_LEGAL, "canadian", 0},
        {"[GameType \"25,W,8,8,A0,0\"]\n1. c3-d4 *", DM_PDN_LEGAL, "russian", 0},
        {"[GameType \"22\"]\n1. 21-17 *", DM_PDN_LEGAL, "italian", 0},
        {"[GameType \"29\"]\n1. c3-d4 *", DM_PDN_LEGAL, "czech", 0},
        {"[GameType \"28\"]\n1. 10-14 *", DM_PDN_LEGAL, "portuguese", 0},
        {"[GameType \"31\"]\n1. 28-24 *", DM_PDN_LEGAL, "thai", 0},
        {"[GameType \"40\"]\n1. 32-28 *", DM_PDN_LEGAL, "frisian", 0},
        {"[GameType \"97\"]\n1. 48-43 *", DM_PDN_LEGAL, "frysk", 0},
        {"[GameType \"30\"]\n1. d3-d4 *", DM_PDN_LEGAL, "turkish", 0},
        {"[GameType \"41\"]\n1. 32-28 *", DM_PDN_VARIANT, "GameType 41 (Spantsiretti)", 0},
        {"[GameType \"x\"]\n1. 32-28 *", DM_PDN_VARIANT, "GameType \"x\" cannot be read", 0},
        {"[Variant \"American/English\"]\n1. c3-d4 *", DM_PDN_LEGAL, "english", 0},
        {"[Variant \"Russian\"]\n1. c3-d4 *", DM_PDN_LEGAL, "russian", 0},
        {"[Variant \"Frisian\"]\n1. 32-28 *", DM_PDN_LEGAL, "frisian", 0},
        {"[Variant \"Frysk!\"]\n[FEN \"W:W46-50:B1-5\"]\n1. 48-43 *", DM_PDN_LEGAL, "frysk", 0},
        {"[Variant \"Turkish\"]\n1. d3-d4 *", DM_PDN_LEGAL, "turkish", 0},
        {"[Variant \"Armenian\"]\n1. 32-28 *", DM_PDN_VARIANT, "Variant \"Armenian\"", 0},
        {"1. c3-d4 f6-g5 *", DM_PDN_LEGAL, "russian", 1},               /* algebraic */
        {"1. 11-15 24-20 2. 8-11 28-24 *", DM_PDN_LEGAL, "english", 1}, /* checkers */
        /* Italian numbering (White first from 21-32): neither English nor international */
        {"1. 21-17 12-15 2. 23-19 *", DM_PDN_LEGAL, "italian", 1},
        {"1. 21-17 12-15 2. 23-18 *", DM_PDN_VARIANT,
         "not legal as english, international or italian", 1},
        {"[GameType \"98\"]\n1. 32-28 *", DM_PDN_LEGAL, "antidraughts", 0},
        {"[GameType \"96\"]\n1. 32-28 *", DM_PDN_LEGAL, "breakthrough", 0},
        {"[Variant \"Breakthrough\"]\n1. 32-28 *", DM_PDN_LEGAL, "breakthrough", 0},
        {"[GameType \"23\"]\n1. 9-13 *", DM_PDN_LEGAL, "pool", 0},
        {"[GameType \"24\"]\n1. 10-14 *", DM_PDN_LEGAL, "spanish", 0},
        {"[GameType \"45\"]\n1. 32-28 *", DM_PDN_LEGAL, "killer", 0},
        {"[GameType \"20,W,10,10,N2,0\"]\n1. 32-28 *", DM_PDN_LEGAL, "international", 0},
        {"1. 32-28 *", DM_PDN_LEGAL, "international", 0}, /* an international first move */
        {"[GameType \"20\"]\n1. 11-15 *", DM_PDN_ILLEGAL, "international", 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        dm_pdn_game *g = read_one(cases[i].text);
        dm_pdn_replay rep = replay(g);
        if (rep.verdict != cases[i].verdict) {
            fail_msg("%s: verdict %d, expected %d (%s)", cases[i].text, rep.verdict,
                     cases[i].verdict, rep.reason.message);
        }
        if (rep.verdict != DM_PDN_VARIANT) {
            assert_non_null(rep.variant);
            assert_string_equal(rep.variant->name, cases[i].variant);
            assert_int_equal(rep.guessed, cases[i].guessed);
            assert_round_trip(g, DM_NOTATION_PDN);
        }
        if (rep.verdict == DM_PDN_VARIANT) {
            assert_null(rep.variant);
            assert_contains(rep.reason.message, "not supported yet");
            assert_contains(rep.reason.message, cases[i].variant);
            /* variants are written as read, and round-trip */
            assert_round_trip(g, DM_NOTATION_PDN);
        }
        dm_pdn_game_free(g);
    }
}

/* ---- writer ---------------------------------------------------------------------- */

static void test_pdn__writer_notation_short_and_full(void **state)
{
    (void)state;
    dm_pdn_game *g = read_one("[FEN \"W:WK7:B12,21,22,39\"]\n1. 7x34x43x16 *");
    assert_int_equal(replay(g).verdict, DM_PDN_LEGAL);
    char *pdn = write_game(g, DM_NOTATION_PDN);
    /* ambiguous: keeps the full path even in short notation */
    assert_contains(pdn, "1. 7x34x43x16 *");
    free(pdn);
    dm_pdn_game_free(g);

    /* 4. 28x26 takes two men: short unless --full */
    g = read_one("1. 34-29 16-21 2. 32-28 11-16 3. 35-30 17-22 4. 28x26 16-21 *");
    assert_int_equal(replay(g).verdict, DM_PDN_LEGAL);
    pdn = write_game(g, DM_NOTATION_PDN);
    assert_contains(pdn, "4. 28x26 16-21 *");
    free(pdn);
    pdn = write_game(g, DM_NOTATION_FULL);
    assert_contains(pdn, "4. 28x17x26 16-21 *");
    free(pdn);
    dm_pdn_game_free(g);

    /* a two-piece capture written short comes out with its path with --full */
    g = read_one("[FEN \"W:W37,38:B31,21,33\"]\n1. 37x17 *");
    pdn = write_game(g, DM_NOTATION_FULL);
    assert_contains(pdn, "1. 37x26x17 *");
    free(pdn);
    pdn = write_game(g, DM_NOTATION_PDN);
    assert_contains(pdn, "1. 37x17 *");
    free(pdn);
    assert_round_trip(g, DM_NOTATION_FULL);
    dm_pdn_game_free(g);
}

static void test_pdn__writer_wraps_at_80_columns(void **state)
{
    (void)state;
    /* a long opening with long comments and a long word */
    const char *text =
        "[Event \"wrap\"]\n1. 34-29 16-21 2. 32-28 11-16 3. 35-30 {this is a long comment "
        "that goes on and on and on so that the writer has to break it over several lines "
        "of at most eighty columns each} 17-22 4. 28x26 16-21 5. 26x17 12x21 6. 39-34 "
        "{averyveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryverylongword"
        "thatcannotbebroken} 20-24 7. 29x20 15x35 8. 34-29 18-23 9. 29x18 13x22 10. 44-39 "
        "35x44 11. 49x40 6-11 12. 39-34 11-16 13. 31-27 22x31 14. 37x17 8-12 15. 17x8 2x13 "
        "16. 33-29 19-23 17. 29x18 13x22 18. 38-33 7-12 19. 36-31 9-13 20. 34-29 12-17 *";
    dm_pdn_game *g = read_one(text);
    assert_int_equal(replay(g).verdict, DM_PDN_LEGAL);
    char *out = write_game(g, DM_NOTATION_PDN);
    /* the long word stands alone; every other line fits */
    int lines = 0;
    for (char *p = out; *p; p++) {
        lines += *p == '\n';
    }
    assert_true(lines > 10);
    for (const char *line = out; *line;) {
        const char *nl = strchr(line, '\n');
        size_t n = nl ? (size_t)(nl - line) : strlen(line);
        if (n > 80 && !(strstr(line, "averyvery") && strstr(line, "averyvery") < line + n)) {
            fail_msg("line longer than 80 columns: %.*s", (int)n, line);
        }
        line += n + (nl != NULL);
    }
    assert_contains(out, "{this is a long comment");
    assert_contains_flat(out, "thatcannotbebroken} 6... 20-24");
    free(out);
    dm_pdn_game_free(g);
}

static void test_pdn__writer_builds_a_game_from_scratch(void **state)
{
    (void)state;
    dm_pdn_game *g = NULL;
    assert_int_equal(dm_pdn_game_new(&g), DM_OK);
    assert_int_equal(dm_pdn_game_set_tag(g, "White", "A"), DM_OK);
    assert_int_equal(dm_pdn_game_set_tag(g, "Result", "2-0"), DM_OK);
    char *out = write_game(g, DM_NOTATION_PDN);
    assert_string_equal(out, "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n"
                             "[Round \"?\"]\n[White \"A\"]\n[Black \"?\"]\n[Result \"2-0\"]\n"
                             "\n2-0\n\n");
    free(out);
    dm_pdn_game_free(g);
}

static void test_pdn__reader_api_misuse(void **state)
{
    (void)state;
    dm_pdn_reader *r = NULL;
    assert_int_equal(dm_pdn_reader_new(NULL, "", 0, NULL), DM_EINVAL);
    assert_int_equal(dm_pdn_reader_new(&r, NULL, 5, NULL), DM_EINVAL);
    assert_int_equal(dm_pdn_reader_new(&r, "", 0, NULL), DM_OK);
    dm_pdn_game *g = (dm_pdn_game *)1;
    assert_int_equal(dm_pdn_reader_next(&g, r, NULL), DM_OK);
    assert_null(g);
    assert_int_equal(dm_pdn_reader_next(NULL, r, NULL), DM_EINVAL);
    dm_pdn_reader_free(r);
    dm_pdn_reader_free(NULL);
    /* whitespace and % lines only: no game */
    readout ro;
    read_text(&ro, "  \r\n% nothing here\n\n");
    assert_int_equal(ro.ngames + ro.nerrors, 0);
    /* deep nesting is refused, not a crash */
    char deep[1024] = "1. 32-28 ";
    for (int i = 0; i < 100; i++) {
        strcat(deep, "(32-28 ");
    }
    read_text(&ro, deep);
    assert_int_equal(ro.nerrors, 1);
    assert_contains(ro.errors[0].message, "nested too deeply");
    assert_int_equal(dm_pdn_write(NULL, NULL, NULL, DM_NOTATION_PDN), DM_EINVAL);
    dm_pdn_replay rep;
    assert_int_equal(dm_pdn_replay_mainline(&rep, NULL), DM_EINVAL);
}

/* Words glued to a move (tinsley.pdn: "8-11Redoverstepped...") are a comment after
 * it, noted; other glued text is kept as the move's text, reported by the replay, and
 * written back whole however long it is. */
static void test_pdn__glued_text_kept_whole(void **state)
{
    (void)state;
    char text[1200] = "1. 32-28 19-23 2. 28x19Black";
    for (int i = 0; i < 100; i++) {
        strcat(text, "oversteps");
    }
    strcat(text, ". 2... 14x23 *");
    dm_pdn_game *g = read_one(text);
    assert_int_equal(g->main.nnodes, 4);
    assert_string_equal(g->main.nodes[2].text, "28x19");
    assert_int_equal(g->main.nodes[2].nafter, 1);
    assert_int_equal(strlen(g->main.nodes[2].after[0]), strlen("Black") + 900 + 1);
    assert_true(has_note(g, "glued to a move"));
    dm_pdn_replay rep = replay(g);
    assert_int_equal(rep.verdict, DM_PDN_LEGAL);
    assert_int_equal(rep.plies, 4);
    assert_round_trip(g, DM_NOTATION_PDN);
    dm_pdn_game_free(g);

    /* not words: text glued after a move is kept as the move's text (reported by the
     * replay), but after a mark it is a malformed mark (docs/PDN.md): a parse error
     * that says where */
    char text2[1200] = "1. 32-28 19-23 2. 31-26";
    for (int i = 0; i < 100; i++) {
        strcat(text2, "!x!x!x!x!");
    }
    strcat(text2, " 3. 28x19 *");
    readout ro;
    read_text(&ro, text2);
    assert_int_equal(ro.ngames, 0);
    assert_int_equal(ro.nerrors, 1);
    assert_int_equal(ro.errors[0].line, 1);
    assert_int_equal(ro.errors[0].column, 25);
    assert_contains(ro.errors[0].message, "malformed mark \"!x!x");
    free_readout(&ro);
    char text3[1200] = "1. 32-28 19-23 2. 31-26";
    for (int i = 0; i < 100; i++) {
        strcat(text3, "x.x.x.x.x");
    }
    strcat(text3, " 3. 28x19 *");
    g = read_one(text3);
    assert_int_equal(g->main.nnodes, 4);
    assert_int_equal(strlen(g->main.nodes[2].text), strlen("31-26") + 900);
    rep = replay(g);
    assert_int_equal(rep.verdict, DM_PDN_UNREADABLE);
    assert_int_equal(rep.move_number, 2);
    assert_int_equal(rep.black, 0);
    char *out = write_game(g, DM_NOTATION_PDN);
    assert_non_null(strstr(out, g->main.nodes[2].text));
    assert_non_null(strstr(out, " 2.\n31-26x.x."));
    free(out);
    assert_round_trip(g, DM_NOTATION_PDN);
    dm_pdn_game_free(g);
}

/* Random mutations of a rich PDN text: every game is read or reported, nothing
 * crashes (run under ASan too), and whatever is read is written as PDN that reads
 * back as exactly one game. */
static void test_pdn__mutated_input_never_crashes(void **state)
{
    (void)state;
    static const char base[] =
        "\xEF\xBB\xBF[Event \"m\\\"x\"]\r\n[FEN \"W:W31-50:B1-20\"]\r\n[Result \"4-6\"]\r\n\r\n"
        "{c} 1. 32-28! $3 (1. 33-28 {v} (1. 31-26) 1... 18-23) {a} 1... 19-23(?) 2. 28x19 ; x\n"
        "14x23 3. 37-32 ... /FEN \"W:WK47:B9\"/ 4. 47x 3 4-6\n\n[Event \"n\"]\n1. 32-28 2-0\n"
        "% line\n1.32-28 1/2-1/2 0-1[Event \"k\"] 1. c3-d4 *";
    /* variant games: Russian (':' captures, a king's captures), English numbered both
     * ways, a split capture */
    static const char vbase[] =
        "[GameType \"25\"]\n[FEN \"W:We3,g3,h4,a5,b2,h2,a3,Kf8:Bc5,e5,g5,g7,h8\"]\n\n1. f8:b4 "
        "{k} (1. f8:h6:f4:d6:b4) 1... h8-g7 *\n[GameType \"21\"]\n1... 9-13 2. 22-18 13-17 "
        "3. 21x14 10x17 0-1\n[Variant \"American/English\"]\n[FEN \"B:W18,26:B14\"]\n1. "
        "14x23 23x30 *\n1. 11-15 23-19 2. 8-11 22-17 *";
    static const char alphabet[] = "{}()[]\";\"\\$%*./-x:!?0123456789 \n\r\tabcWBK\x80\xC3\xFF";
    size_t nb = sizeof base - 1, nv = sizeof vbase - 1;
    char *buf = malloc((nb > nv ? nb : nv) + 1);
    assert_non_null(buf);
    unsigned seed = 12345;
    int games = 0, errors = 0;
    for (int iter = 0; iter < 10000; iter++) {
        const char *src = iter % 3 == 2 ? vbase : base;
        size_t n = iter % 3 == 2 ? nv : nb;
        memcpy(buf, src, n + 1);
        int muts = 1 + iter % 4;
        for (int k = 0; k < muts; k++) {
            seed = seed * 1103515245u + 12345u;
            size_t at = (seed >> 8) % n;
            seed = seed * 1103515245u + 12345u;
            buf[at] = alphabet[(seed >> 8) % (sizeof alphabet - 1)];
        }
        size_t len = n;
        if (iter % 7 == 0) {
            len = (seed >> 4) % n; /* truncated */
        }
        dm_pdn_reader *r = NULL;
        assert_int_equal(dm_pdn_reader_new(&r, buf, len, "fuzz"), DM_OK);
        for (int guard = 0; guard < 100; guard++) {
            dm_pdn_game *g = NULL;
            dm_error err = {{0}, 0, 0};
            dm_status st = dm_pdn_reader_next(&g, r, &err);
            if (st == DM_EPARSE) {
                assert_true(err.line > 0 && err.column > 0);
                assert_non_null(strstr(err.message, "fuzz: game "));
                errors++;
                continue;
            }
            assert_int_equal(st, DM_OK);
            if (!g) {
                break;
            }
            games++;
            dm_pdn_replay rep;
            assert_int_equal(dm_pdn_replay_mainline(&rep, g), DM_OK);
            char *out = NULL;
            size_t olen = 0;
            assert_int_equal(dm_pdn_write(&out, &olen, g, DM_NOTATION_PDN), DM_OK);
            dm_pdn_reader *r2 = NULL;
            assert_int_equal(dm_pdn_reader_new(&r2, out, olen, "again"), DM_OK);
            dm_pdn_game *g2 = NULL, *g3 = NULL;
            if (dm_pdn_reader_next(&g2, r2, &err) != DM_OK || !g2 ||
                dm_pdn_reader_next(&g3, r2, &err) != DM_OK || g3) {
                fail_msg("iteration %d: written game does not read back as one game (%s):\n"
                         "%.*s\n---\n%s",
                         iter, err.message, (int)len, buf, out);
            }
            /* ... and as the same game: movetext tree, result, verdict and plies */
            /* (split captures are written joined: one node for several) */
            const char *diff = rep.joined ? NULL : line_diff(&g->main, &g2->main);
            if (diff) {
                fail_msg("iteration %d: %s differ after writing:\n%.*s\n---\n%s", iter, diff,
                         (int)len, buf, out);
            }
            dm_pdn_replay rep2;
            assert_int_equal(dm_pdn_replay_mainline(&rep2, g2), DM_OK);
            if (rep.verdict != rep2.verdict || rep.plies != rep2.plies) {
                fail_msg("iteration %d: verdict %d/%d plies %d/%d after writing:\n%.*s\n---\n%s",
                         iter, rep.verdict, rep2.verdict, rep.plies, rep2.plies, (int)len, buf,
                         out);
            }
            dm_pdn_game_free(g2);
            dm_pdn_reader_free(r2);
            free(out);
            dm_pdn_game_free(g);
        }
        dm_pdn_reader_free(r);
    }
    free(buf);
    print_message("%d games read, %d reported\n", games, errors);
    assert_true(games > 3000);
    assert_true(errors > 100);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pdn__tags_in_order_unknown_kept_escapes),
        cmocka_unit_test(test_pdn__game_type_and_set_tag),
        cmocka_unit_test(test_pdn__move_forms),
        cmocka_unit_test(test_pdn__marks_nags_comments_variations),
        cmocka_unit_test(test_pdn__stray_mark_is_an_error_then_recovery),
        cmocka_unit_test(test_pdn__result_tokens_separate_games),
        cmocka_unit_test(test_pdn__result_glued_to_text_is_an_error),
        cmocka_unit_test(test_pdn__writer_round_trip_odd_input),
        cmocka_unit_test(test_pdn__missing_results_and_tags),
        cmocka_unit_test(test_pdn__encodings_bom_crlf_latin1),
        cmocka_unit_test(test_pdn__errors_then_next_game),
        cmocka_unit_test(test_pdn__setup_fen_and_setup_command),
        cmocka_unit_test(test_pdn__replay_reports_first_bad_move),
        cmocka_unit_test(test_pdn__ambiguous_capture_resolved_by_what_follows),
        cmocka_unit_test(test_pdn__game_of_a_resolved_capture_plays_the_kept_line),
        cmocka_unit_test(test_pdn__variants),
        cmocka_unit_test(test_pdn__writer_notation_short_and_full),
        cmocka_unit_test(test_pdn__writer_wraps_at_80_columns),
        cmocka_unit_test(test_pdn__writer_builds_a_game_from_scratch),
        cmocka_unit_test(test_pdn__reader_api_misuse),
        cmocka_unit_test(test_pdn__glued_text_kept_whole),
        cmocka_unit_test(test_pdn__mutated_input_never_crashes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
