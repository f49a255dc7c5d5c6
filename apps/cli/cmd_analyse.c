/* SPDX-License-Identifier: MIT
 * apps/cli/cmd_analyse.c: `damier analyse [--variant NAME] [--fen FEN] [--depth N |
 * --movetime MS] [--multipv N] [--threads N] [--hash MIB] [--egdb DIR]`.
 * Output (stable): one line per completed iteration
 *   "depth D seldepth S score X nodes N time T nps R pv M1 M2 ..."
 * and with --multipv N (N > 1) one line per line of each iteration, best first:
 *   "depth D multipv K seldepth S score X ..."
 * (score in hundredths of a man for the side to move, "win N"/"loss N" for a forced
 * game end in N plies, "dbwin N"/"dbloss N" for a database win/loss with N plies
 * to the conversion; time in seconds; moves in PDN notation, the variant's: "c3-d4",
 * "d4:b6" in Russian), then "bestmove M [ponder M]". Without a limit it searches to
 * depth 12. Every variant runs on the one engine (dm_engine_search); --eval takes
 * weights of the position's variant (international or 8x8, damier/eval8.h) and
 * refuses another variant's; the endgame database and --book are international
 * draughts'. Before
 * the search the book moves of the position (damier/book.h; --book FILE, builtin by
 * default, off) are listed: "book M weight W score S depth D". */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <damier/book.h>
#include <damier/egdb.h>
#include <damier/engine.h>
#include <damier/eval.h>
#include <damier/eval8.h>
#include <damier/variant.h>

#include "commands.h"

static void analyse_usage(FILE *f)
{
    fprintf(f,
            "usage: damier analyse [--variant NAME] [--fen FEN] [--depth N | --movetime MS]\n"
            "                      [--multipv N] [--threads N] [--hash MIB] [--egdb DIR]\n"
            "                      [--eval FILE] [--book FILE|builtin|off]\n"
            "  prints \"depth D seldepth S score X nodes N time T nps R pv ...\" per "
            "iteration,\n  then \"bestmove M\"; default limit: depth 12. --multipv N: the N "
            "best root moves,\n"
            "  each with its score and line (\"depth D multipv K ...\", K = 1..N, best first; "
            "1..%d).\n"
            "  The book moves of the position come first: \"book M weight W score S depth D\"\n"
            "  (--book: the built-in book by default; off: none).\n"
            "  --egdb DIR: probe the endgame database there (score dbwin N / dbloss N:\n"
            "  database win or loss, N plies to the conversion).\n"
            "  --variant NAME: %s (default international;\n"
            "  the FEN and the moves are the variant's; --egdb: international, or a\n"
            "  database of brazilian, russian or english).\n"
            "  --eval FILE: evaluation weights of the position's variant (damier train).\n",
            DM_ENGINE_MAX_MULTIPV, dm_variant_names());
}

/* Score as text: hundredths of a man, or "win N" / "loss N" plies. */
static void score_text(char *buf, size_t cap, int score)
{
    if (score >= DM_SCORE_WIN_MIN) {
        snprintf(buf, cap, "win %d", DM_SCORE_WIN - score);
    } else if (score <= -DM_SCORE_WIN_MIN) {
        snprintf(buf, cap, "loss %d", DM_SCORE_WIN + score);
    } else if (score >= DM_SCORE_EGDB_MIN) {
        snprintf(buf, cap, "dbwin %d", DM_SCORE_EGDB - score);
    } else if (score <= -DM_SCORE_EGDB_MIN) {
        snprintf(buf, cap, "dbloss %d", DM_SCORE_EGDB + score);
    } else {
        snprintf(buf, cap, "%d", score);
    }
}

/* The start of an iteration's line, up to "pv" (both move forms). */
#define PRINT_HEAD(info)                                                                           \
    do {                                                                                           \
        char sc_[32];                                                                              \
        score_text(sc_, sizeof sc_, (info)->score);                                                \
        printf("depth %d", (info)->depth);                                                         \
        if ((info)->multipv_count > 1) {                                                           \
            printf(" multipv %d", (info)->multipv);                                                \
        }                                                                                          \
        printf(" seldepth %d score %s nodes %llu time %.3f nps %.0f pv", (info)->seldepth, sc_,    \
               (unsigned long long)(info)->nodes, (info)->time, (info)->nps);                      \
    } while (0)

/* A line of the search: its head, then the PV in the variant's notation. */
static void on_info(const dm_info *info, void *payload)
{
    const dm_board *root = payload;
    PRINT_HEAD(info);
    dm_board b = *root;
    for (int i = 0; i < info->pv_count; i++) {
        char text[400];
        dm_move_to_text(text, sizeof text, &b, &info->pv[i], DM_NOTATION_PDN, DM_SQUARES_DEFAULT);
        printf(" %s", text);
        dm_board_apply(&b, &info->pv[i]);
    }
    printf("\n");
    fflush(stdout);
}

/* The search of in->root with e (made by the caller, freed here) and its best move. */
static int search_and_print(dm_engine *e, const dm_search_input *in, const dm_limits *lim)
{
    const dm_variant *v = in->root.variant;
    dm_result r;
    dm_error err;
    dm_status st = dm_engine_search(&r, e, in, lim, on_info, (void *)&in->root, &err);
    dm_engine_free(e);
    if (st != DM_OK) {
        fprintf(stderr, "damier analyse: %s\n", err.message);
        return 1;
    }
    if (!r.has_move) {
        printf("bestmove none (no legal move: the side to move has %s)\n",
               dm_variant_result(&in->root) == DM_BOARD_RESULT_NONE ? "no move"
               : v->reversed_result                                 ? "won"
                                                                    : "lost");
        return 0;
    }
    char text[400], ptext[400];
    dm_move_to_text(text, sizeof text, &in->root, &r.best, DM_NOTATION_PDN, DM_SQUARES_DEFAULT);
    if (r.has_ponder) {
        dm_board after = in->root;
        dm_board_apply(&after, &r.best);
        dm_move_to_text(ptext, sizeof ptext, &after, &r.ponder, DM_NOTATION_PDN,
                        DM_SQUARES_DEFAULT);
        printf("bestmove %s ponder %s\n", text, ptext);
    } else {
        printf("bestmove %s\n", text);
    }
    return 0;
}

/* The analysis of a position of another variant than international. */
static int analyse_variant(const dm_variant *v, const char *fen, const char *eval_path,
                           const dm_engine_options *eo, const dm_limits *lim, const char *egdb_dir)
{
    dm_search_input in;
    memset(&in, 0, sizeof in);
    dm_error err;
    if (fen) {
        if (dm_board_from_fen(&in.root, v, fen, &err) != DM_OK) {
            fprintf(stderr, "damier analyse: bad %s FEN '%s': %s\n", v->name, fen, err.message);
            return 2;
        }
    } else {
        dm_board_start(&in.root, v);
    }
    if (dm_board_validate(&in.root, &err) != DM_OK) {
        fprintf(stderr, "damier analyse: bad %s position: %s\n", v->name, err.message);
        return 2;
    }
    dm_engine *e;
    if (dm_engine_create(&e, eo) != DM_OK) {
        fprintf(stderr, "damier analyse: cannot create the engine (%d MiB table)\n", eo->tt_mib);
        return 1;
    }
    dm_eval *ev = NULL;
    dm_eval8 *ev8 = NULL;
    if (eval_path && cli_engine_eval_for(e, eval_path, "damier analyse", v->id, &ev, &ev8) != 0) {
        dm_engine_free(e);
        return 1;
    }
    /* an 8x8 database of this variant (docs/EGDB.md), only when --egdb names it */
    struct dm_egdb *db = NULL;
    if (egdb_dir && cli_engine_egdb(e, egdb_dir, "analyse", &db) != 0) {
        dm_engine_free(e);
        dm_eval_free(ev);
        dm_eval8_free(ev8);
        return 1;
    }
    if (db && dm_egdb_slice_count(db) > 0 && dm_egdb_variant(db) != v->id) {
        fprintf(stderr, "damier analyse: the database in %s is of %s, the position of %s\n",
                egdb_dir, dm_variant_get(dm_egdb_variant(db))->name, v->name);
        dm_engine_free(e);
        dm_egdb_close(db);
        dm_eval_free(ev);
        dm_eval8_free(ev8);
        return 2;
    }
    int rc = search_and_print(e, &in, lim);
    dm_egdb_close(db);
    dm_eval_free(ev);
    dm_eval8_free(ev8);
    return rc;
}

static int parse_int(const char *s, long lo, long hi, long *out)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (!*s || *end || v < lo || v > hi) {
        return -1;
    }
    *out = v;
    return 0;
}

int cmd_analyse(int argc, char **argv)
{
    static const struct option opts[] = {
        {"fen", required_argument, 0, 'f'},      {"depth", required_argument, 0, 'd'},
        {"movetime", required_argument, 0, 'm'}, {"multipv", required_argument, 0, 'M'},
        {"threads", required_argument, 0, 't'},  {"hash", required_argument, 0, 'H'},
        {"egdb", required_argument, 0, 'E'},     {"eval", required_argument, 0, 'W'},
        {"book", required_argument, 0, 'B'},     {"variant", required_argument, 0, 'V'},
        {"help", no_argument, 0, 'h'},           {0, 0, 0, 0}};
    const char *fen = NULL, *egdb_dir = NULL, *eval_path = NULL, *variant = NULL;
    const char *book = NULL;
    long depth = 0, movetime = 0, threads = 1, hash = 64, multipv = 1;
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "f:d:m:M:t:H:E:W:V:h", opts, NULL)) != -1) {
        switch (c) {
            case 'V':
                variant = optarg;
                break;
            case 'f':
                fen = optarg;
                break;
            case 'd':
                if (parse_int(optarg, 1, DM_ENGINE_MAX_DEPTH, &depth)) {
                    fprintf(stderr, "damier analyse: --depth must be 1..%d, not '%s'\n",
                            DM_ENGINE_MAX_DEPTH, optarg);
                    return 2;
                }
                break;
            case 'm':
                if (parse_int(optarg, 1, 86400000L, &movetime)) {
                    fprintf(stderr,
                            "damier analyse: --movetime must be a positive number of "
                            "milliseconds, not '%s'\n",
                            optarg);
                    return 2;
                }
                break;
            case 'M':
                if (parse_int(optarg, 1, DM_ENGINE_MAX_MULTIPV, &multipv)) {
                    fprintf(stderr, "damier analyse: --multipv must be 1..%d, not '%s'\n",
                            DM_ENGINE_MAX_MULTIPV, optarg);
                    return 2;
                }
                break;
            case 't':
                if (parse_int(optarg, 1, DM_ENGINE_MAX_THREADS, &threads)) {
                    fprintf(stderr, "damier analyse: --threads must be 1..%d, not '%s'\n",
                            DM_ENGINE_MAX_THREADS, optarg);
                    return 2;
                }
                break;
            case 'H':
                if (parse_int(optarg, 1, 65536, &hash)) {
                    fprintf(stderr, "damier analyse: --hash must be 1..65536 MiB, not '%s'\n",
                            optarg);
                    return 2;
                }
                break;
            case 'E':
                egdb_dir = optarg;
                break;
            case 'W':
                eval_path = optarg;
                break;
            case 'B':
                book = optarg;
                break;
            case 'h':
                analyse_usage(stdout);
                return 0;
            default:
                analyse_usage(stderr);
                return 2;
        }
    }
    if (depth && movetime) {
        fprintf(stderr, "damier analyse: --depth and --movetime exclude each other\n");
        return 2;
    }
    if (optind != argc) {
        fprintf(stderr, "damier analyse: unexpected argument '%s'\n", argv[optind]);
        analyse_usage(stderr);
        return 2;
    }
    const dm_variant *v = dm_variant_get(DM_VARIANT_INTERNATIONAL);
    if (variant) {
        dm_error verr;
        if (dm_variant_from_name(&v, variant, &verr) != DM_OK) {
            fprintf(stderr, "damier analyse: %s\n", verr.message);
            return 2;
        }
    }
    dm_engine_options eo = DM_ENGINE_OPTIONS_INIT;
    eo.threads = (int)threads;
    eo.tt_mib = (int)hash;
    dm_limits lim;
    memset(&lim, 0, sizeof lim);
    lim.analyse = 1;
    lim.multipv = (int)multipv;
    if (movetime) {
        lim.move_time = (double)movetime / 1000.0;
    } else {
        lim.depth = depth ? (int)depth : 12;
    }
    if (v->id != DM_VARIANT_INTERNATIONAL) {
        int egdb8 = v->id == DM_VARIANT_BRAZILIAN || v->id == DM_VARIANT_RUSSIAN ||
                    v->id == DM_VARIANT_ENGLISH;
        if (egdb_dir && !egdb8) {
            fprintf(stderr,
                    "damier analyse: --egdb is international, brazilian, russian and "
                    "english (not %s)\n",
                    v->name);
            return 2;
        }
        return analyse_variant(v, fen, eval_path, &eo, &lim, egdb_dir);
    }
    dm_board b;
    if (cli_board_from_arg(&b, fen)) {
        return 2;
    }
    dm_engine *e;
    if (dm_engine_create(&e, &eo) != DM_OK) {
        fprintf(stderr, "damier analyse: cannot create the engine (%ld MiB table)\n", hash);
        return 1;
    }
    struct dm_egdb *db;
    dm_eval *ev = NULL;
    dm_eval8 *ev8 = NULL;
    if (eval_path && cli_engine_eval_for(e, eval_path, "damier analyse", DM_VARIANT_INTERNATIONAL,
                                         &ev, &ev8) != 0) {
        dm_engine_free(e);
        return 1;
    }
    if (cli_engine_egdb(e, egdb_dir, "analyse", &db) != 0) {
        dm_eval_free(ev);
        dm_eval8_free(ev8);
        dm_engine_free(e);
        return 1;
    }
    const dm_book *bk;
    dm_book *bk_owned;
    if (cli_book_from_arg(&bk, &bk_owned, book, "damier analyse")) {
        dm_eval_free(ev);
        dm_eval8_free(ev8);
        dm_egdb_close(db);
        dm_engine_free(e);
        return 1;
    }
    cli_book_print(bk, &b); /* the book's moves first, then the search */
    dm_book_free(bk_owned);
    dm_search_input in;
    memset(&in, 0, sizeof in);
    in.root = b;
    int rc = search_and_print(e, &in, &lim);
    dm_eval_free(ev);
    dm_eval8_free(ev8);
    dm_egdb_close(db);
    return rc;
}
