/* SPDX-License-Identifier: MIT
 * apps/cli/cmd_pdn.c: `damier pdn check [--variant NAME] FILE...` and `damier pdn convert
 * [--full] [--variant NAME] FILE... [-o OUT]`. Every game is replayed under its variant
 * (GameType tag, Variant tag, or the squares it uses; --variant for games without
 * a GameType tag).
 * [--nags] writes the marks that have a PDN NAG as that NAG (docs/PDN.md).
 * check output (stable), one line per bad game:
 *   FILE:LINE:COL: game N (WHITE - BLACK): move 12... 23-28: REASON; FEN before: FEN
 * (a game the reader cannot read: the reader's message; a legal game with an ambiguous
 * capture resolved by the moves that follow, or with a move annotated as an accepted
 * irregularity and replayed as written: "...: warning: ..."; what the reader
 * tolerated or skipped: "FILE:LINE: game N (WHITE - BLACK): note: ..."), then, when some are in
 * variants not supported yet, "S skipped (variant not supported yet)", when some legal
 * games are not international "legal by variant: N international, N russian, ...",
 * then always
 *   G games, L legal, I with illegal moves, U unreadable
 * Exit status: 0 when every game is legal, 1 otherwise, 2 for usage or file errors.
 * A file whose first tag section has a Game tag naming a jumping game (chinese-checkers,
 * halma, gewu) is read as records of those games (pdn_jump.c, docs/JUMPING.md).
 * convert writes the games and reports on stderr, in the same format, what check would
 * report; exit status 1 for an unreadable game or an illegal or ambiguous move. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <damier/jump.h>
#include <damier/pdn.h>
#include <damier/variant.h>

#include "commands.h"

/* Largest input file read (PDN collections are a few MiB; this stops /dev/zero). */
#define PDN_MAX_FILE ((size_t)256 << 20)

/* Read a whole file into a malloc'd buffer; prints the error and returns NULL. */
static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "damier pdn: cannot open %s: %s\n", path, strerror(errno));
        return NULL;
    }
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (n < cap) {
            break;
        }
        if (cap >= PDN_MAX_FILE) {
            fclose(f);
            free(buf);
            fprintf(stderr, "damier pdn: cannot read %s: larger than %zu MiB\n", path,
                    PDN_MAX_FILE >> 20);
            return NULL;
        }
        char *q = realloc(buf, cap * 2);
        if (!q) {
            free(buf);
            buf = NULL;
            break;
        }
        buf = q;
        cap *= 2;
    }
    int bad = ferror(f);
    int saved = errno;
    fclose(f);
    if (!buf || bad) {
        fprintf(stderr, "damier pdn: cannot read %s: %s\n", path,
                buf ? strerror(saved) : "out of memory");
        free(buf);
        return NULL;
    }
    *len = n;
    return buf;
}

static const char *tag_or(const dm_pdn_game *g, const char *name, const char *dflt)
{
    const char *v = dm_pdn_game_tag(g, name);
    return (v && *v) ? v : dflt;
}

typedef struct counts {
    int games, legal, illegal, unreadable, variant;
    int jump_legal;                 /* legal records of the jumping games (not draughts variants) */
    int legal_by[DM_VARIANT_COUNT]; /* legal games per variant */
} counts;

/* --game-type N / --variant NAME: the GameType of games that have none (without it the
 * library finds the variant from a Variant tag or the squares; PDN's default is 20). */
static const char *default_game_type;
static char variant_game_type[16];

static int apply_default_type(dm_pdn_game *g)
{
    if (default_game_type && dm_pdn_game_type(g) == -1 &&
        dm_pdn_game_set_tag(g, "GameType", default_game_type) != DM_OK) {
        fprintf(stderr, "damier pdn: out of memory\n");
        return 2;
    }
    return 0;
}

/* One pass over the games of a file. */
typedef struct game_pass {
    /* a game the reader cannot read (err says where and why): report it and return
     * the exit status it stands for */
    int (*unreadable)(const dm_error *err, void *ctx);
    /* each game read (freed after): its exit status; -1 stops the file with 2 */
    int (*game)(dm_pdn_game *g, const char *path, void *ctx);
    void *ctx;
    /* a file of jumping-game records (dm_jrecord_sniff): its exit status */
    int (*jump)(const char *path, const char *text, size_t len, void *ctx);
} game_pass;

/* Read path and hand every game to pass; returns the worst exit status (2 for a
 * file that cannot be read). */
static int each_game(const char *path, const game_pass *pass)
{
    size_t len = 0;
    char *text = slurp(path, &len);
    if (!text) {
        return 2;
    }
    if (dm_jrecord_sniff(text, len)) {
        int jrc = pass->jump(path, text, len, pass->ctx);
        free(text);
        return jrc;
    }
    dm_pdn_reader *r;
    if (dm_pdn_reader_new(&r, text, len, path) != DM_OK) {
        free(text);
        fprintf(stderr, "damier pdn: out of memory\n");
        return 2;
    }
    int rc = 0;
    for (;;) {
        dm_pdn_game *g = NULL;
        dm_error err;
        dm_status st = dm_pdn_reader_next(&g, r, &err);
        if (st == DM_EPARSE) {
            int u = pass->unreadable(&err, pass->ctx);
            rc = u > rc ? u : rc;
            continue;
        }
        if (st != DM_OK) {
            fprintf(stderr, "damier pdn: %s: %s\n", path, err.message);
            rc = 2;
            break;
        }
        if (!g) {
            break;
        }
        int one = pass->game(g, path, pass->ctx);
        dm_pdn_game_free(g);
        if (one < 0) {
            rc = 2;
            break;
        }
        rc = one > rc ? one : rc;
    }
    dm_pdn_reader_free(r);
    free(text);
    return rc;
}

/* ---- check ---------------------------------------------------------------------- */

typedef struct check_pass {
    counts *n;
    int verbose;
} check_pass;

static int check_unreadable(const dm_error *err, void *ctx)
{
    check_pass *p = ctx;
    p->n->games++;
    p->n->unreadable++;
    printf("%s\n", err->message);
    return 0;
}

/* The players of g as check prints them ("?" when unknown; playstrategy.org's P1 is
 * the side that moves first). */
static void players(const dm_pdn_game *g, int black_first, const char **white, const char **black)
{
    const char *p1 = tag_or(g, "P1", "?"), *p2 = tag_or(g, "P2", "?");
    *white = tag_or(g, "White", black_first ? p2 : p1);
    *black = tag_or(g, "Black", black_first ? p1 : p2);
}

/* Print to f what replaying g found, in check's stable format: the warning for an
 * ambiguous capture resolved by the moves that follow, the first illegal or unreadable
 * move (or the skipped variant, with verbose), then the reader's notes. Shared by check
 * (stdout) and convert (stderr) so that both say the same things in the same words. */
static void report_game(FILE *f, const dm_pdn_game *g, const dm_pdn_replay *rep, const char *path,
                        int verbose)
{
    /* "N..." for the second move of a pair: White's in English checkers */
    int black_first = rep->variant && rep->variant->first == DM_BLACK;
    const char *white, *black;
    players(g, black_first, &white, &black);
    if (rep->resolved > 0 && rep->ambiguous) {
        fprintf(f,
                "%s:%d:%d: game %d (%s - %s): move %d%s %s: warning: ambiguous capture "
                "written without its path; %s kept (the only path with which the rest of "
                "the game is legal)\n",
                path, rep->ambiguous->line, rep->ambiguous->column, g->number, white, black,
                rep->ambiguous_number, rep->ambiguous_black != black_first ? "..." : ".",
                rep->ambiguous->text, rep->ambiguous_as);
    }
    /* accepted irregularities (docs/PDN.md): the moves replayed as written */
    for (int i = 0; i < rep->nirregular && i < DM_PDN_MAX_IRREGULAR; i++) {
        const dm_pdn_irregularity *x = &rep->irregular[i];
        const char *num = x->black != black_first ? "..." : ".";
        fprintf(f,
                "%s:%d:%d: game %d (%s - %s): move %d%s %s: warning: accepted irregularity at "
                "move %d%s (%s); replayed as written\n",
                path, x->node->line, x->node->column, g->number, white, black, x->move_number, num,
                x->node->text, x->move_number, num, x->reason);
    }
    if (rep->nirregular > DM_PDN_MAX_IRREGULAR) {
        fprintf(f, "%s:%d: game %d (%s - %s): warning: %d more accepted irregularities\n", path,
                g->line, g->number, white, black, rep->nirregular - DM_PDN_MAX_IRREGULAR);
    }
    if (rep->verdict == DM_PDN_VARIANT && verbose) {
        fprintf(f, "%s:%d: game %d (%s - %s): skipped: %s\n", path, g->line, g->number, white,
                black, rep->reason.message);
    } else if (rep->verdict == DM_PDN_ILLEGAL || rep->verdict == DM_PDN_UNREADABLE) {
        if (rep->node) {
            fprintf(f, "%s:%d:%d: game %d (%s - %s): move %d%s %s: %s; FEN before: %s\n", path,
                    rep->node->line, rep->node->column, g->number, white, black, rep->move_number,
                    rep->black != black_first ? "..." : ".", rep->move_text, rep->reason.message,
                    rep->fen_before);
        } else {
            fprintf(f, "%s:%d: game %d (%s - %s): %s\n", path, g->line, g->number, white, black,
                    rep->reason.message);
        }
    }
    /* what the reader tolerated or left out is said, never silent */
    for (int i = 0; i < g->nnotes; i++) {
        fprintf(f, "%s:%d: game %d (%s - %s): note: %s\n", path, g->line, g->number, white, black,
                g->notes[i]);
    }
}

static int check_game(dm_pdn_game *g, const char *path, void *ctx)
{
    check_pass *p = ctx;
    p->n->games++;
    if (apply_default_type(g)) {
        return -1;
    }
    dm_pdn_replay rep;
    dm_pdn_replay_mainline(&rep, g);
    switch (rep.verdict) {
        case DM_PDN_LEGAL:
            p->n->legal++;
            if (rep.variant) {
                p->n->legal_by[rep.variant->id]++;
            }
            break;
        case DM_PDN_VARIANT:
            p->n->variant++;
            break;
        case DM_PDN_ILLEGAL:
            p->n->illegal++;
            break;
        case DM_PDN_UNREADABLE:
            p->n->unreadable++;
            break;
        default:
            break;
    }
    report_game(stdout, g, &rep, path, p->verbose);
    return 0;
}

static int check_jump(const char *path, const char *text, size_t len, void *ctx)
{
    check_pass *p = ctx;
    int illegal = 0, unreadable = 0, legal_before = p->n->legal;
    int rc =
        pdn_jump_file(path, text, len, NULL, &p->n->games, &p->n->legal, &illegal, &unreadable);
    p->n->illegal += illegal;
    p->n->unreadable += unreadable;
    p->n->jump_legal += p->n->legal - legal_before;
    return rc;
}

static int check_file(const char *path, counts *c, int verbose)
{
    check_pass p = {c, verbose};
    game_pass pass = {check_unreadable, check_game, &p, check_jump};
    return each_game(path, &pass);
}

/* ---- convert -------------------------------------------------------------------- */

typedef struct convert_pass {
    FILE *out;
    dm_pdn_write_options opt; /* notation style and capture separator */
} convert_pass;

static int convert_unreadable(const dm_error *err, void *ctx)
{
    (void)ctx;
    fprintf(stderr, "%s (not converted)\n", err->message);
    return 1;
}

static int convert_game(dm_pdn_game *g, const char *path, void *ctx)
{
    convert_pass *p = ctx;
    if (apply_default_type(g)) {
        return -1;
    }
    /* an illegal, ambiguous or unreadable move is reported as check reports it (the
     * game is still written: up to that move normalised, from it on as read) */
    dm_pdn_replay rep;
    dm_pdn_replay_mainline(&rep, g);
    report_game(stderr, g, &rep, path, 1);
    /* a variant not played is written as read (exit 0); a game without GameType that
     * is legal under none of the rules its squares suggest has a bad move (exit 1) */
    int bad = rep.verdict == DM_PDN_ILLEGAL || rep.verdict == DM_PDN_UNREADABLE ||
              (rep.verdict == DM_PDN_VARIANT && rep.guessed);
    char *pdn = NULL;
    size_t n = 0;
    if (dm_pdn_write_with(&pdn, &n, g, &p->opt) != DM_OK) {
        fprintf(stderr, "damier pdn: out of memory writing %s game %d\n", path, g->number);
        return 2;
    }
    fwrite(pdn, 1, n, p->out);
    free(pdn);
    return bad;
}

static int convert_jump(const char *path, const char *text, size_t len, void *ctx)
{
    convert_pass *p = ctx;
    int games = 0, legal = 0, illegal = 0, unreadable = 0;
    return pdn_jump_file(path, text, len, p->out, &games, &legal, &illegal, &unreadable);
}

static int convert_file(const char *path, FILE *out, const dm_pdn_write_options *opt)
{
    convert_pass p = {out, *opt};
    game_pass pass = {convert_unreadable, convert_game, &p, convert_jump};
    return each_game(path, &pass);
}

static void pdn_usage(FILE *f)
{
    fprintf(f,
            "usage: damier pdn check [--verbose] [--variant NAME | --game-type N] FILE...\n"
            "       damier pdn convert [--full] [--capture-sep x|:] [--nags] [--variant NAME |\n"
            "                          --game-type N] [-o OUT] FILE...\n"
            "  check: replay every game under its variant's rules and report each illegal\n"
            "         or unreadable move; ends with\n"
            "         \"G games, L legal, I with illegal moves, U unreadable\";\n"
            "         exit status 0 only when every game is legal.\n"
            "  convert: rewrite the games as normalised PDN 3.0 in their variant's notation\n"
            "         (short notation; --full: every capture with its path) to OUT or\n"
            "         standard output. What check would report about a game goes to\n"
            "         stderr (an illegal or ambiguous move: exit status 1, the game is\n"
            "         still written).\n"
            "  --nags: write the marks PDN has a NAG for as that NAG (! $1, ? $2, !! $3,\n"
            "         ?? $4, !? $5, ?! $6, * $7, = $10, + $18/$19), for programs that read\n"
            "         only NAGs; +1, -1, a.l. stay marks (docs/PDN.md).\n"
            "  --capture-sep x|:: write the captures with x (or :) whatever the\n"
            "         variant's own separator (Russian ':'), for readers that take one.\n"
            "  The GameType tag selects the variant (20 international, 21 English, 22\n"
            "  Italian, 23 pool, 24 Spanish, 25 Russian, 26 Brazilian, 27 Canadian, 29\n"
            "  Czech, 31 Thai, 45 killer, 96 breakthrough, 98 antidraughts), else a\n"
            "  Variant tag, else the squares the game uses.\n"
            "  --variant NAME: the variant of games without a GameType tag: %s.\n"
            "  --game-type N: the same as a GameType number (e.g. 40 for a file of Frisian\n"
            "         games without tags: skipped).\n"
            "  --verbose: also list the games skipped as variants, with why.\n"
            "  A file whose first tags name a jumping game ([Game \"chinese-checkers\"],\n"
            "  \"halma\", \"gewu\") holds records of those games (docs/JUMPING.md).\n",
            dm_variant_names());
}

int cmd_pdn(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        pdn_usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    const char *sub = argv[1];
    int check = !strcmp(sub, "check");
    if (!check && strcmp(sub, "convert")) {
        fprintf(stderr, "damier pdn: unknown subcommand '%s'\n", sub);
        pdn_usage(stderr);
        return 2;
    }
    static const struct option opts[] = {{"full", no_argument, 0, 'f'},
                                         {"output", required_argument, 0, 'o'},
                                         {"verbose", no_argument, 0, 'v'},
                                         {"game-type", required_argument, 0, 't'},
                                         {"variant", required_argument, 0, 'V'},
                                         {"capture-sep", required_argument, 0, 's'},
                                         {"nags", no_argument, 0, 'n'},
                                         {"help", no_argument, 0, 'h'},
                                         {0, 0, 0, 0}};
    int full = 0, verbose = 0, nags = 0;
    char capture_sep = 0;
    const char *outpath = NULL;
    int c;
    optind = 1;
    default_game_type = NULL;
    while ((c = getopt_long(argc - 1, argv + 1, check ? "vt:V:h" : "fo:t:V:s:nh", opts, NULL)) !=
           -1) {
        switch (c) {
            case 'f':
                full = 1;
                break;
            case 'n':
                nags = 1;
                break;
            case 'o':
                outpath = optarg;
                break;
            case 'v':
                verbose = 1;
                break;
            case 's':
                if (strcmp(optarg, "x") && strcmp(optarg, ":")) {
                    fprintf(stderr, "damier pdn: --capture-sep wants x or :, not '%s'\n", optarg);
                    return 2;
                }
                capture_sep = optarg[0];
                break;
            case 't':
                if (strspn(optarg, "0123456789") != strlen(optarg) || !*optarg ||
                    strlen(optarg) > 5) {
                    fprintf(stderr, "damier pdn: --game-type wants a number, e.g. 20\n");
                    return 2;
                }
                default_game_type = optarg;
                break;
            case 'V': {
                const dm_variant *v;
                dm_error err;
                if (dm_variant_from_name(&v, optarg, &err) != DM_OK) {
                    fprintf(stderr, "damier pdn: --variant: %s\n", err.message);
                    return 2;
                }
                snprintf(variant_game_type, sizeof variant_game_type, "%d", v->game_type);
                default_game_type = variant_game_type;
                break;
            }
            case 'h':
                pdn_usage(stdout);
                return 0;
            default:
                pdn_usage(stderr);
                return 2;
        }
    }
    if ((check && (full || outpath || capture_sep || nags)) || (!check && verbose)) {
        pdn_usage(stderr);
        return 2;
    }
    int first = optind + 1;
    if (first >= argc) {
        fprintf(stderr, "damier pdn %s: no FILE given\n", sub);
        pdn_usage(stderr);
        return 2;
    }
    int rc = 0;
    if (check) {
        counts n;
        memset(&n, 0, sizeof n);
        for (int i = first; i < argc; i++) {
            int r = check_file(argv[i], &n, verbose);
            rc = r > rc ? r : rc;
        }
        if (n.variant) {
            printf("%d skipped (variant not supported yet)\n", n.variant);
        }
        if (n.legal - n.jump_legal > n.legal_by[DM_VARIANT_INTERNATIONAL]) {
            printf("legal by variant:");
            const char *sep = " ";
            for (int v = 0; v < DM_VARIANT_COUNT; v++) {
                if (n.legal_by[v]) {
                    printf("%s%d %s", sep, n.legal_by[v], dm_variant_get(v)->name);
                    sep = ", ";
                }
            }
            printf("\n");
        }
        printf("%d games, %d legal, %d with illegal moves, %d unreadable\n", n.games, n.legal,
               n.illegal, n.unreadable);
        if (rc == 0 && n.legal != n.games) {
            rc = 1;
        }
        return rc;
    }
    FILE *out = stdout;
    if (outpath) {
        /* Opening the output truncates it: never let it be one of the inputs. */
        struct stat os;
        if (stat(outpath, &os) == 0) {
            for (int i = first; i < argc; i++) {
                struct stat is;
                if (stat(argv[i], &is) == 0 && is.st_dev == os.st_dev && is.st_ino == os.st_ino) {
                    fprintf(stderr,
                            "damier pdn: -o %s is also an input file; write to another file\n",
                            outpath);
                    return 2;
                }
            }
        }
        out = fopen(outpath, "wb");
        if (!out) {
            fprintf(stderr, "damier pdn: cannot write %s: %s\n", outpath, strerror(errno));
            return 2;
        }
    }
    dm_pdn_write_options opt = {full ? DM_NOTATION_FULL : DM_NOTATION_PDN, capture_sep, nags};
    for (int i = first; i < argc; i++) {
        int r = convert_file(argv[i], out, &opt);
        rc = r > rc ? r : rc;
    }
    if (fflush(out) != 0 || (out != stdout && fclose(out) != 0)) {
        fprintf(stderr, "damier pdn: cannot write %s: %s\n", outpath ? outpath : "output",
                strerror(errno));
        return 2;
    }
    return rc;
}
