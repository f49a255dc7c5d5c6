/* SPDX-License-Identifier: MIT
 * tests/unit/test_pdn_corpus.c: every *.pdn under DM_SHARED_DIR/data/pdn (real files,
 * see its SOURCES.md): the games SOURCES.md lists as legal replay as legal under their
 * variant (international, Russian, Brazilian, English checkers, antidraughts), the known
 * bad ones are reported, the Czech and Italian games replay under their rules, the
 * variants the library does not play (Frysk!) are skipped and not called illegal, and
 * every game survives read -> write -> read.
 * Skips when the data is absent. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <damier/pdn.h>
#include <damier/variant.h>

#define PDN_DIR DM_SHARED_DIR "/data/pdn"

typedef struct file_list {
    char **paths;
    int n, cap;
} file_list;

static int ends_with(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && !strcmp(s + a - b, suffix);
}

static void collect(file_list *fl, const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) {
        return;
    }
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.') {
            continue;
        }
        size_t n = strlen(dir) + strlen(e->d_name) + 2;
        char *p = malloc(n);
        assert_non_null(p);
        snprintf(p, n, "%s/%s", dir, e->d_name);
        struct stat st;
        if (stat(p, &st) == 0 && S_ISDIR(st.st_mode)) {
            collect(fl, p);
            free(p);
        } else if (ends_with(p, ".pdn")) {
            if (fl->n == fl->cap) {
                fl->cap = fl->cap ? 2 * fl->cap : 64;
                fl->paths = realloc(fl->paths, sizeof *fl->paths * (size_t)fl->cap);
                assert_non_null(fl->paths);
            }
            fl->paths[fl->n++] = p;
        } else {
            free(p);
        }
    }
    closedir(d);
}

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    assert_non_null(buf);
    assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    buf[n] = 0;
    *len = (size_t)n;
    return buf;
}

/* Same movetext structure (kinds, marks, NAGs, comments, variations). */
static int same_line(const dm_pdn_line *a, const dm_pdn_line *b)
{
    if (a->nnodes != b->nnodes || a->nend != b->nend) {
        return 0;
    }
    for (int i = 0; i < a->nend; i++) {
        if (strcmp(a->end[i], b->end[i])) {
            return 0;
        }
    }
    for (int i = 0; i < a->nnodes; i++) {
        const dm_pdn_node *x = &a->nodes[i], *y = &b->nodes[i];
        if (x->kind != y->kind || (x->mark == NULL) != (y->mark == NULL) ||
            (x->mark && strcmp(x->mark, y->mark)) || x->nnags != y->nnags ||
            x->nbefore != y->nbefore || x->nafter != y->nafter ||
            x->nvariations != y->nvariations) {
            return 0;
        }
        if (x->kind == DM_PDN_NODE_SETUP && strcmp(x->text, y->text)) {
            return 0;
        }
        for (int k = 0; k < x->nnags; k++) {
            if (x->nags[k] != y->nags[k]) {
                return 0;
            }
        }
        for (int k = 0; k < x->nbefore; k++) {
            if (strcmp(x->before[k], y->before[k])) {
                return 0;
            }
        }
        for (int k = 0; k < x->nafter; k++) {
            if (strcmp(x->after[k], y->after[k])) {
                return 0;
            }
        }
        for (int v = 0; v < x->nvariations; v++) {
            if (!same_line(&x->variations[v], &y->variations[v])) {
                return 0;
            }
        }
    }
    return 1;
}

/* Movetext lines of the writer fit in 80 columns (a tag line or one long word aside). */
static int fits_80(const char *text)
{
    for (const char *p = text; *p;) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        int col = 0, spaces = 0;
        for (size_t i = 0; i < n; i++) {
            col += ((unsigned char)p[i] & 0xC0) != 0x80;
            spaces += p[i] == ' ';
        }
        if (col > 80 && p[0] != '[' && spaces > 0) {
            return 0;
        }
        p += n + (nl != NULL);
    }
    return 1;
}

/* read -> write -> read: same structure, same tags, same replay; the text is stable. */
static void check_round_trip(const char *path, const dm_pdn_game *g, const dm_pdn_replay *r1)
{
    char *t1 = NULL;
    size_t n1 = 0;
    assert_int_equal(dm_pdn_write(&t1, &n1, g, DM_NOTATION_PDN), DM_OK);
    if (!fits_80(t1)) {
        fail_msg("%s game %d: a line longer than 80 columns:\n%s", path, g->number, t1);
    }
    dm_pdn_reader *rd = NULL;
    assert_int_equal(dm_pdn_reader_new(&rd, t1, n1, "rewritten"), DM_OK);
    dm_pdn_game *g2 = NULL;
    dm_error err;
    if (dm_pdn_reader_next(&g2, rd, &err) != DM_OK || !g2) {
        fail_msg("%s game %d: rewritten game unreadable: %s\n%s", path, g->number, err.message, t1);
    }
    dm_pdn_game *extra = NULL;
    assert_int_equal(dm_pdn_reader_next(&extra, rd, &err), DM_OK);
    assert_null(extra);
    if (r1->joined == 0 && !same_line(&g->main, &g2->main)) {
        fail_msg("%s game %d: movetext changed by the round trip:\n%s", path, g->number, t1);
    }
    for (int i = 0; i < g->ntags; i++) {
        const char *name = g->tags[i].name;
        if (!strcmp(name, "FEN")) {
            continue;
        }
        const char *v = dm_pdn_game_tag(g2, name);
        if (!v || strcmp(v, dm_pdn_game_tag(g, name))) {
            fail_msg("%s game %d: tag %s lost:\n%s", path, g->number, name, t1);
        }
    }
    dm_pdn_replay r2;
    dm_pdn_replay_mainline(&r2, g2);
    if (r2.verdict != r1->verdict || r2.plies != r1->plies || r2.variant != r1->variant ||
        r2.end.side != r1->end.side || memcmp(r2.end.sq, r1->end.sq, sizeof r2.end.sq)) {
        fail_msg("%s game %d: replay differs after the round trip (%d/%d plies)\n%s", path,
                 g->number, r1->plies, r2.plies, t1);
    }
    char *t2 = NULL;
    assert_int_equal(dm_pdn_write(&t2, NULL, g2, DM_NOTATION_PDN), DM_OK);
    if (strcmp(t1, t2)) {
        fail_msg("%s game %d: writing is not stable:\n%s\n---\n%s", path, g->number, t1, t2);
    }
    free(t1);
    free(t2);
    dm_pdn_game_free(g2);
    dm_pdn_reader_free(rd);
}

typedef struct file_result {
    int games, legal, illegal, unreadable, variant, errors;
    int legal_by[DM_VARIANT_COUNT]; /* legal games per variant */
    int joined;                     /* split captures joined */
    int bad_games[64];              /* numbers of illegal/unreadable games (and reader errors) */
    int nbad;
    int resolved_games[8];
    int nresolved;
    int noted_games[8]; /* games with a "stray '.'" note */
    int nnoted;
} file_result;

static void run_file(const char *path, file_result *fr)
{
    memset(fr, 0, sizeof *fr);
    size_t len;
    char *text = slurp(path, &len);
    dm_pdn_reader *r = NULL;
    assert_int_equal(dm_pdn_reader_new(&r, text, len, path), DM_OK);
    for (;;) {
        dm_pdn_game *g = NULL;
        dm_error err;
        dm_status st = dm_pdn_reader_next(&g, r, &err);
        if (st == DM_EPARSE) {
            fr->games++;
            fr->errors++;
            if (fr->nbad < 64) {
                fr->bad_games[fr->nbad++] = dm_pdn_reader_count(r);
            }
            assert_true(err.line > 0);
            continue;
        }
        assert_int_equal(st, DM_OK);
        if (!g) {
            break;
        }
        fr->games++;
        dm_pdn_replay rep;
        assert_int_equal(dm_pdn_replay_mainline(&rep, g), DM_OK);
        fr->joined += rep.joined;
        switch (rep.verdict) {
            case DM_PDN_LEGAL:
                fr->legal++;
                assert_non_null(rep.variant);
                fr->legal_by[rep.variant->id]++;
                break;
            case DM_PDN_VARIANT:
                fr->variant++;
                assert_null(rep.variant);
                break;
            default:
                if (rep.verdict == DM_PDN_ILLEGAL) {
                    fr->illegal++;
                } else {
                    fr->unreadable++;
                }
                if (fr->nbad < 64) {
                    fr->bad_games[fr->nbad++] = g->number;
                }
                break;
        }
        if (rep.resolved && fr->nresolved < 8) {
            fr->resolved_games[fr->nresolved++] = g->number;
        }
        for (int i = 0; i < g->nnotes; i++) {
            if (strstr(g->notes[i], "stray '.'") && fr->nnoted < 8) {
                fr->noted_games[fr->nnoted++] = g->number;
            }
        }
        check_round_trip(path, g, &rep);
        dm_pdn_game_free(g);
    }
    dm_pdn_reader_free(r);
    free(text);
}

/* Expectations per file (name relative to data/pdn), from SOURCES.md. */
typedef struct expect {
    const char *file;
    int games;             /* -1: not checked */
    int all_legal;         /* every game replays legal, but for the bad ones listed */
    int bad[5];            /* game numbers reported illegal or unreadable (0-terminated) */
    int no_illegal;        /* variant file not played: nothing called illegal, most skipped */
    dm_variant_id variant; /* all_legal: the legal games are of this variant */
} expect;

#define INTL DM_VARIANT_INTERNATIONAL
#define ENGL DM_VARIANT_ENGLISH
#define RUSS DM_VARIANT_RUSSIAN
#define MIXED DM_VARIANT_COUNT /* legal games of several variants */

static const expect expects[] = {
    {"wiegerw-pdn/succeed/090417ronde12.pdn", 7, 1, {0}, 0, INTL},
    {"wiegerw-pdn/succeed/Cat.B1.pdn", 37, 1, {0}, 0, INTL},
    {"wiegerw-pdn/succeed/Cat.D1.pdn", 19, 1, {0}, 0, INTL},
    {"wiegerw-pdn/succeed/DUTCH96H.pdn", 13, 1, {0}, 0, INTL},
    {"wiegerw-pdn/succeed/PROF2.pdn", 16, 1, {0}, 0, INTL},
    {"wiegerw-pdn/succeed/PWCP_2a.pdn", 59, 1, {0}, 0, INTL},
    {"wiegerw-pdn/succeed/PWCP_2.pdn", 51, 1, {0}, 0, INTL},
    {"wiegerw-pdn/succeed/candidate95.pdn", 8, 1, {0}, 0, INTL},
    /* fen.pdn: checked below (two of its FEN-only positions fit English checkers) */
    {"wiegerw-pdn/succeed/fen.pdn", 3, 0, {0}, 0, INTL},
    {"wiegerw-pdn/succeed/gameterminator.pdn", 1, 1, {0}, 0, INTL},
    {"wiegerw-pdn/succeed/kurnik.pdn", 4, 1, {0}, 0, INTL},
    {"wiegerw-pdn/succeed/linecomment.pdn", 1, 1, {0}, 0, INTL},
    {"wiegerw-pdn/succeed/movestrength.pdn", 1, 1, {0}, 0, INTL},
    {"wiegerw-pdn/succeed/nk_ronde_01.pdn", 7, 1, {0}, 0, INTL},
    {"wiegerw-pdn/succeed/nk_ronde_02.pdn", 7, 1, {0}, 0, INTL},
    {"wiegerw-pdn/succeed/nk2003-amsterdam.pdn", 33, 1, {0}, 0, INTL},
    {"wiegerw-pdn/succeed/rk_ronde_12.pdn", 7, 1, {0}, 0, INTL},
    {"wiegerw-pdn/succeed/schildpad.pdn", 34, 1, {0}, 0, INTL},
    {"wiegerw-pdn/succeed/string.pdn", 1, 1, {0}, 0, INTL},
    {"wiegerw-pdn/succeed/unicode.pdn", 1, 1, {0}, 0, INTL},
    {"wiegerw-pdn/succeed/variation.pdn", 1, 1, {0}, 0, INTL},
    {"wiegerw-pdn/succeed/windragon.pdn", 1, 1, {0}, 0, INTL},
    {"wiegerw-pdn/succeed/wk2003.pdn", 23, 1, {0}, 0, INTL},
    {"wiegerw-pdn/fail/40Camp.DamaInternazionaleAssoluto.pdn", 45, 1, {0}, 0, INTL},
    {"wiegerw-pdn/fail/Cat.A1.pdn", 35, 1, {0}, 0, INTL},
    /* 45 problems and the dangling fragment "36x27 1-0" after the last one */
    {"wiegerw-pdn/fail/Cat.C1.pdn", 46, 1, {46, 0}, 0, INTL},
    {"wiegerw-pdn/fail/delfts.pdn", 2, 1, {0}, 0, INTL},
    {"wiegerw-pdn/fail/nested_comment.pdn", 1, 0, {1, 0}, 0, INTL},
    {"lidraughts-samples/derived/standard.pdn", 13, 1, {0}, 0, INTL},
    {"lidraughts-samples/derived/antidraughts.pdn", 25, 1, {0}, 0, DM_VARIANT_ANTIDRAUGHTS},
    {"lidraughts-samples/derived/breakthrough.pdn", 25, 1, {0}, 0, DM_VARIANT_BREAKTHROUGH},
    /* Russian: ussr1947 (':' captures, numeric FEN of the start), abatsiev (game 36
     * is written with unknown moves "1. - -"), lidraughts (no tags at all) */
    {"wiegerw-pdn/succeed/ussr1947.pdn", 153, 1, {0}, 0, RUSS},
    {"wiegerw-pdn/fail/abatsiev.pdn", 56, 1, {36, 0}, 0, RUSS},
    {"lidraughts-samples/derived/russian.pdn", 9, 1, {0}, 0, RUSS},
    {"wiegerw-pdn/succeed/alphanumeric.pdn", 1, 1, {0}, 0, RUSS},
    {"lidraughts-samples/derived/brazilian.pdn", 25, 1, {0}, 0, DM_VARIANT_BRAZILIAN},
    /* English checkers: tinsley game 541 moves from an empty square (62. 32-28) */
    {"checkerboard/tinsley.pdn", 724, 1, {541, 0}, 0, ENGL},
    {"wiegerw-pdn/succeed/OCA_2.0.pdn", 43, 1, {0}, 0, ENGL},
    {"wiegerw-pdn/succeed/Tricks_traps_and_shots.pdn", 91, 1, {0}, 0, ENGL},
    {"wiegerw-pdn/succeed/Principles_of_Strategy.pdn", 16, 1, {0}, 0, ENGL},
    {"wiegerw-pdn/succeed/inferno.pdn", 68, 1, {0}, 0, ENGL},
    /* playstrategy.org: algebraic, Black on ranks 1-3, split multi-captures */
    {"lidraughts-samples/derived/american.pdn", 30, 1, {0}, 0, ENGL},
    /* checkers problems, FEN only; the FENs listed put a man on its own crowning row
     * (bridges 14 is "W::.") */
    {"wiegerw-pdn/succeed/beginner.pdn", 58, 1, {10, 0}, 0, ENGL},
    {"wiegerw-pdn/succeed/borderclassics.pdn", 183, 1, {0}, 0, ENGL},
    {"wiegerw-pdn/succeed/bridges.pdn", 267, 1, {14, 0}, 0, ENGL},
    {"wiegerw-pdn/succeed/gem.pdn", 162, 1, {0}, 0, ENGL},
    {"wiegerw-pdn/succeed/goulds.pdn", 262, 1, {93, 0}, 0, ENGL},
    {"wiegerw-pdn/succeed/lpc.pdn", 100, 1, {36, 63, 65, 73}, 0, ENGL},
    /* Italian (no GameType; numeric, White first from 21-32): game 46 ends with
     * "13... 3x26", which two legal captures of three men fit (3x10x19x26 and
     * 3x10x17x26) and no later move tells apart: ambiguous (docs/VARIANTS.md) */
    {"wiegerw-pdn/succeed/Campionato_Assoluto_2005.pdn", 53, 1, {46, 0}, 0, DM_VARIANT_ITALIAN},
    /* Czech (no GameType, algebraic): every game legal; those legal under Russian or
     * Brazilian rules too are counted so (the squares cannot tell), the empty ones
     * as international: MIXED, totals checked below */
    {"wiegerw-pdn/succeed/mrcd2000kval.pdn", 40, 1, {0}, 0, MIXED},
    {"wiegerw-pdn/succeed/mrcd2006.pdn", 44, 1, {0}, 0, MIXED},
    {"wiegerw-pdn/succeed/mrcd2007.pdn", 102, 1, {0}, 0, MIXED},
    {"wiegerw-pdn/fail/mrdrcd07.pdn", 72, 1, {0}, 0, MIXED},
    {"wiegerw-pdn/fail/mrdrcd08.pdn", 40, 1, {0}, 0, MIXED},
    /* Frysk! (GameType 97, FEN W:W46,47,48,49,50:B1,2,3,4,5): orthogonal captures */
    {"lidraughts-samples/derived/frysk.pdn", 25, 1, {0}, 0, DM_VARIANT_FRYSK},
};

static int contains(const int *a, int n, int v)
{
    for (int i = 0; i < n; i++) {
        if (a[i] == v) {
            return 1;
        }
    }
    return 0;
}

static void test_pdn_corpus__every_file(void **state)
{
    (void)state;
    struct stat st;
    if (stat(PDN_DIR, &st) != 0) {
        print_message("skipped: no PDN corpus at %s\n", PDN_DIR);
        skip();
    }
    file_list fl = {NULL, 0, 0};
    collect(&fl, PDN_DIR);
    assert_true(fl.n > 0);
    int seen[sizeof expects / sizeof expects[0]] = {0};
    int mobydam_files = 0, mobydam_games = 0;
    int czech_files_by[DM_VARIANT_COUNT] = {0}; /* legal games of the Czech files */
    int total = 0;
    for (int i = 0; i < fl.n; i++) {
        const char *rel = fl.paths[i] + strlen(PDN_DIR) + 1;
        file_result fr;
        run_file(fl.paths[i], &fr);
        total += fr.games;
        if (!strncmp(rel, "mobydam-book/", 13)) {
            /* computer and human international games: all legal */
            if (fr.legal != fr.games) {
                fail_msg("%s: %d of %d games legal (first bad: game %d)", rel, fr.legal, fr.games,
                         fr.nbad ? fr.bad_games[0] : 0);
            }
            mobydam_files++;
            mobydam_games += fr.games;
        }
        for (size_t k = 0; k < sizeof expects / sizeof expects[0]; k++) {
            const expect *ex = &expects[k];
            if (strcmp(rel, ex->file)) {
                continue;
            }
            seen[k] = 1;
            if (ex->games >= 0 && fr.games != ex->games) {
                fail_msg("%s: %d games read, expected %d", rel, fr.games, ex->games);
            }
            int nexp = 0;
            while (ex->bad[nexp]) {
                nexp++;
            }
            if (ex->all_legal || nexp > 0) {
                if (fr.nbad != nexp) {
                    fail_msg("%s: %d games reported bad (first: game %d), expected %d", rel,
                             fr.nbad, fr.nbad ? fr.bad_games[0] : 0, nexp);
                }
                for (int b = 0; b < nexp; b++) {
                    if (!contains(fr.bad_games, fr.nbad, ex->bad[b])) {
                        fail_msg("%s: game %d not reported", rel, ex->bad[b]);
                    }
                }
            }
            if (ex->all_legal && fr.legal != fr.games - nexp) {
                fail_msg("%s: %d legal of %d", rel, fr.legal, fr.games);
            }
            if (ex->variant == MIXED) {
                for (int v = 0; v < DM_VARIANT_COUNT; v++) {
                    czech_files_by[v] += fr.legal_by[v];
                }
            } else if (ex->all_legal && fr.legal_by[ex->variant] != fr.legal) {
                fail_msg("%s: %d of %d legal games replayed as %s", rel, fr.legal_by[ex->variant],
                         fr.legal, dm_variant_get(ex->variant)->name);
            }
            if (ex->no_illegal && fr.illegal != 0) {
                fail_msg("%s: %d variant games called illegal", rel, fr.illegal);
            }
            if (ex->no_illegal && fr.variant < fr.games / 2) {
                fail_msg("%s: only %d of %d games recognised as a variant", rel, fr.variant,
                         fr.games);
            }
        }
        /* SOURCES.md's "2 illegal" schildpad games write an ambiguous capture without
         * its path; with the one path that keeps the game legal they are legal, and
         * they are reported as resolved */
        if (!strcmp(rel, "wiegerw-pdn/succeed/schildpad.pdn")) {
            assert_int_equal(fr.nresolved, 2);
            assert_true(contains(fr.resolved_games, fr.nresolved, 3));
            assert_true(contains(fr.resolved_games, fr.nresolved, 7));
        }
        /* Tricks: two captures written short where two paths exist (SOURCES.md) */
        if (!strcmp(rel, "wiegerw-pdn/succeed/Tricks_traps_and_shots.pdn")) {
            assert_int_equal(fr.nresolved, 2);
            assert_true(contains(fr.resolved_games, fr.nresolved, 57));
            assert_true(contains(fr.resolved_games, fr.nresolved, 90));
        }
        /* SOURCES.md: 35 multi-captures written as single jumps */
        if (!strcmp(rel, "lidraughts-samples/derived/american.pdn")) {
            assert_int_equal(fr.joined, 35);
        }
        /* one international position, two that fit English checkers (squares <= 32) */
        if (!strcmp(rel, "wiegerw-pdn/succeed/fen.pdn")) {
            assert_int_equal(fr.legal_by[INTL], 1);
            assert_int_equal(fr.legal_by[ENGL], 2);
        }
        /* Cat.A1's odd game: "8-3 . 1-0", a stray '.', noted */
        if (!strcmp(rel, "wiegerw-pdn/fail/Cat.A1.pdn")) {
            assert_int_equal(fr.nnoted, 1);
            assert_int_equal(fr.noted_games[0], 30);
        }
        free(fl.paths[i]);
    }
    free(fl.paths);
    for (size_t k = 0; k < sizeof expects / sizeof expects[0]; k++) {
        if (!seen[k]) {
            fail_msg("corpus file %s missing", expects[k].file);
        }
    }
    assert_int_equal(mobydam_files, 26);
    assert_true(mobydam_games > 800);
    /* the 298 Czech games (SOURCES.md): 250 legal only under Czech rules (skipped
     * before Czech was played), 35 also Russian, 1 Brazilian, 12 without moves */
    assert_int_equal(czech_files_by[DM_VARIANT_CZECH], 250);
    assert_int_equal(czech_files_by[RUSS], 35);
    assert_int_equal(czech_files_by[DM_VARIANT_BRAZILIAN], 1);
    assert_int_equal(czech_files_by[INTL], 12);
    print_message("%d games in %d files\n", total, fl.n);
}

/* lidraughts' Frisian games (derived/frisian.pdn: movetext only, no tags, SOURCES.md):
 * with GameType 40 (what `pdn check --game-type 40` does) all 14 replay legal under
 * Frisian rules; read as international (PDN's default) most are illegal, since they
 * contain orthogonal captures. */
static void test_pdn_corpus__frisian(void **state)
{
    (void)state;
    char path[512];
    snprintf(path, sizeof path, "%s/lidraughts-samples/derived/frisian.pdn", PDN_DIR);
    struct stat st;
    if (stat(path, &st) != 0) {
        print_message("skipped: no Frisian games at %s\n", path);
        skip();
    }
    size_t len;
    char *text = slurp(path, &len);
    dm_pdn_reader *r = NULL;
    assert_int_equal(dm_pdn_reader_new(&r, text, len, path), DM_OK);
    int games = 0, legal = 0, intl_legal = 0;
    for (;;) {
        dm_pdn_game *g = NULL;
        dm_error err;
        assert_int_equal(dm_pdn_reader_next(&g, r, &err), DM_OK);
        if (!g) {
            break;
        }
        games++;
        dm_pdn_replay rep;
        assert_int_equal(dm_pdn_replay_mainline(&rep, g), DM_OK);
        intl_legal += rep.verdict == DM_PDN_LEGAL;
        assert_int_equal(dm_pdn_game_set_tag(g, "GameType", "40"), DM_OK);
        assert_int_equal(dm_pdn_replay_mainline(&rep, g), DM_OK);
        if (rep.verdict != DM_PDN_LEGAL) {
            fail_msg("frisian.pdn game %d: not legal under Frisian rules (ply %d)", g->number,
                     rep.plies);
        }
        assert_int_equal(rep.variant->id, DM_VARIANT_FRISIAN);
        assert_true(rep.plies > 20);
        legal++;
        check_round_trip(path, g, &rep);
        dm_pdn_game_free(g);
    }
    dm_pdn_reader_free(r);
    free(text);
    assert_int_equal(games, 14);
    assert_int_equal(legal, 14);
    assert_true(intl_legal < 7);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pdn_corpus__every_file),
        cmocka_unit_test(test_pdn_corpus__frisian),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
