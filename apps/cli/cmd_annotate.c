/* SPDX-License-Identifier: MIT
 * apps/cli/cmd_annotate.c: `damier annotate [--depth N] [--egdb DIR] FILE...`: every game of the
 * PDN files with the engine's marks (!, !!, ?, ??, !?, ?!, * forced, + winning) and an
 * evaluation after each move as comments, written as PDN on standard output (annotate.h: how). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <damier/egdb.h>
#include <damier/engine.h>
#include <damier/game.h>
#include <damier/pdn.h>

#include "annotate.h"
#include "commands.h"

int cmd_annotate(int argc, char **argv)
{
    int depth = CLI_ANNOTATE_DEFAULT_DEPTH;
    const char *egdb_dir = NULL;
    int first = 1;
    for (; first < argc && argv[first][0] == '-'; first++) {
        if (!strcmp(argv[first], "--depth") && first + 1 < argc) {
            char *end;
            long d = strtol(argv[++first], &end, 10);
            if (*end || d < 1 || d > 30) {
                fprintf(stderr, "damier annotate: --depth needs a number from 1 to 30\n");
                return 2;
            }
            depth = (int)d;
        } else if (!strcmp(argv[first], "--egdb") && first + 1 < argc) {
            egdb_dir = argv[++first];
        } else if (!strcmp(argv[first], "--help")) {
            printf("usage: damier annotate [--depth N] [--egdb DIR] FILE...\n"
                   "Every game of the PDN files with the engine's marks (!, !!, ?, ??, !?, ?!,\n"
                   "* forced, + winning) and the evaluation after each move (White's side) as\n"
                   "comments, as PDN on standard output. Depth: %d by default. --egdb DIR\n"
                   "(default: the XDG folder when present; \"\" none): the engine probes the\n"
                   "endgame database, so a move that changes its value is marked ??.\n",
                   CLI_ANNOTATE_DEFAULT_DEPTH);
            return 0;
        } else {
            fprintf(stderr, "damier annotate: unknown option '%s'\n", argv[first]);
            return 2;
        }
    }
    if (first >= argc) {
        fprintf(stderr, "usage: damier annotate [--depth N] [--egdb DIR] FILE...\n");
        return 2;
    }
    dm_engine_options eo = DM_ENGINE_OPTIONS_INIT;
    eo.tt_mib = 16;
    dm_engine *e = NULL;
    if (dm_engine_create(&e, &eo) != DM_OK) {
        fprintf(stderr, "damier annotate: out of memory\n");
        return 1;
    }
    struct dm_egdb *db = NULL;
    if (cli_engine_egdb(e, egdb_dir, "annotate", &db) != 0) {
        dm_engine_free(e);
        return 1;
    }
    int rc = 0;
    for (int f = first; f < argc; f++) {
        size_t len = 0;
        char *text = cli_read_file("annotate", argv[f], (size_t)256 << 20, &len);
        if (!text) {
            rc = 2;
            continue;
        }
        dm_pdn_reader *rd = NULL;
        if (dm_pdn_reader_new(&rd, text, len, argv[f]) != DM_OK) {
            free(text);
            rc = 1;
            break;
        }
        for (;;) {
            dm_pdn_game *rec = NULL;
            dm_error err;
            memset(&err, 0, sizeof err);
            dm_status st = dm_pdn_reader_next(&rec, rd, &err);
            if (st == DM_OK && !rec) {
                break;
            }
            if (st != DM_OK) {
                fprintf(stderr, "%s\n", err.message);
                rc = rc ? rc : 1;
                if (st == DM_ENOMEM) {
                    break;
                }
                continue;
            }
            dm_game *g = NULL;
            st = dm_pdn_to_game(&g, rec, 0, &err); /* any variant, by its GameType */
            if (st != DM_OK) {
                fprintf(stderr, "%s:%d:%d: %s\n", argv[f], err.line, err.column, err.message);
                rc = rc ? rc : 1;
                dm_pdn_game_free(rec);
                continue;
            }
            int n = dm_game_ply(g);
            cli_annotation *a = malloc(sizeof *a * (size_t)(n > 0 ? n : 1));
            dm_pdn_game_tags tags = DM_PDN_GAME_TAGS_INIT;
            tags.event = dm_pdn_game_tag(rec, "Event");
            tags.site = dm_pdn_game_tag(rec, "Site");
            tags.date = dm_pdn_game_tag(rec, "Date");
            tags.round = dm_pdn_game_tag(rec, "Round");
            tags.white = dm_pdn_game_tag(rec, "White");
            tags.black = dm_pdn_game_tag(rec, "Black");
            dm_pdn_game *out = NULL;
            char *pdn = NULL;
            if (!a || cli_annotate_game(a, e, g, depth, NULL) != DM_OK ||
                cli_annotate_record(&out, g, a, &tags) != DM_OK ||
                dm_pdn_write(&pdn, NULL, out, DM_NOTATION_PDN) != DM_OK) {
                fprintf(stderr, "damier annotate: %s: game %d: out of memory\n", argv[f],
                        rec->number);
                rc = 1;
            } else {
                fputs(pdn, stdout);
            }
            free(pdn);
            dm_pdn_game_free(out);
            free(a);
            dm_game_free(g);
            dm_pdn_game_free(rec);
        }
        dm_pdn_reader_free(rd);
        free(text);
    }
    dm_engine_free(e);
    dm_egdb_close(db); /* after the engine that probed it */
    return rc;
}
