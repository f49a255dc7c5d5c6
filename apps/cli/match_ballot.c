/* SPDX-License-Identifier: MIT
 * apps/cli/match_ballot.c: `damier ballot`: the opening positions of `damier match`
 * from real games. Every international game of the PDN files that starts from the
 * initial position and lasts long enough gives its position after --plies plies;
 * repeated positions are kept once (in the order first seen); each is searched to
 * --depth by damier's engine (one thread, table cleared, so the run is deterministic)
 * and kept when the side to move's score is within --max-score men: a ballot of
 * balanced, real openings. With --pieces MIN-MAX it takes instead, from every
 * international game (from the initial position or a FEN), the first position with
 * MIN to MAX pieces on the board and no capture for the side to move: real endgame
 * starts (the endgame database's match, BENCHMARKS.md). Prints one FEN a line after a
 * '#' header (the recipes: scripts/make-ballot, docs/MATCH.md). */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <damier/engine.h>
#include <damier/game.h>
#include <damier/pdn.h>

#include "commands.h"

static void ballot_usage(FILE *f)
{
    fprintf(f, "usage: damier ballot [--plies N | --pieces MIN-MAX] [--depth D] [--max-score S] "
               "FILE...\n"
               "  the position after N plies (default 8) of every international game of\n"
               "  the PDN files that starts from the initial position, each position once,\n"
               "  kept when a depth-D search (default 8) scores it within S men (default\n"
               "  0.25) for the side to move; one FEN a line (docs/MATCH.md)\n"
               "  --pieces MIN-MAX: instead, the first position of every international game\n"
               "  (from any start) with MIN to MAX pieces and no capture to make\n");
}

static char *read_file(const char *name, size_t *len)
{
    FILE *f = fopen(name, "rb");
    if (!f) {
        return NULL;
    }
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        size_t r = fread(buf + n, 1, cap - n, f);
        n += r;
        if (n < cap) {
            break;
        }
        char *b = realloc(buf, cap *= 2);
        if (!b) {
            free(buf);
            buf = NULL;
        }
        buf = b;
    }
    if (buf && ferror(f)) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    *len = n;
    return buf;
}

typedef struct ballot {
    dm_board *pos;
    uint64_t *hash; /* dm_board_hash of pos[i] */
    int n, cap;
    long games, used;
    int min_pieces, max_pieces; /* --pieces MIN-MAX; 0 0: the position after --plies */
} ballot;

/* The same position (pieces and side to move). */
static int same_position(const dm_board *a, const dm_board *b)
{
    return a->side == b->side && !memcmp(a->sq, b->sq, sizeof a->sq);
}

static int piece_count(const dm_board *p)
{
    int n = 0;
    for (int sq = 1; sq <= p->variant->squares; sq++) {
        n += p->sq[sq] != DM_EMPTY;
    }
    return n;
}

/* The ply of g's first position with b's MIN to MAX pieces and no capture for the side
 * to move (and a move to make); -1 when the game has none. list: scratch. */
static int endgame_ply(const ballot *b, const dm_game *g, dm_movelist *list)
{
    for (int i = 0; i <= dm_game_ply(g); i++) {
        const dm_board *at = dm_game_position_at(g, i);
        int n = piece_count(at);
        if (n < b->min_pieces) {
            return -1;
        }
        if (n <= b->max_pieces && dm_movegen_legal(list, at) > 0 && list->moves[0].ncapt == 0) {
            return i;
        }
    }
    return -1;
}

static int seen(const ballot *b, const dm_board *p, uint64_t hash)
{
    for (int i = 0; i < b->n; i++) {
        if (b->hash[i] == hash && same_position(&b->pos[i], p)) {
            return 1;
        }
    }
    return 0;
}

static int add_file(ballot *b, const char *name, int plies)
{
    size_t len;
    char *text = read_file(name, &len);
    if (!text) {
        fprintf(stderr, "damier ballot: cannot read '%s': %s\n", name, strerror(errno));
        return 1;
    }
    dm_pdn_reader *r;
    if (dm_pdn_reader_new(&r, text, len, name) != DM_OK) {
        free(text);
        return 1;
    }
    dm_board start;
    dm_board_start(&start, dm_variant_get(DM_VARIANT_INTERNATIONAL));
    dm_movelist *list = malloc(sizeof *list);
    if (!list) {
        dm_pdn_reader_free(r);
        free(text);
        return 1;
    }
    for (;;) {
        dm_pdn_game *rec = NULL;
        dm_error err;
        dm_status st = dm_pdn_reader_next(&rec, r, &err);
        if (st == DM_OK && !rec) {
            break;
        }
        if (st != DM_OK) {
            if (st == DM_ENOMEM) {
                break;
            }
            continue;
        }
        b->games++;
        dm_game *g = NULL;
        int ply = -1;
        if (b->max_pieces > 0) {
            if (dm_pdn_to_game(&g, rec, 1, &err) == DM_OK &&
                dm_game_variant(g)->id == DM_VARIANT_INTERNATIONAL) {
                ply = endgame_ply(b, g, list);
            }
        } else if (!dm_pdn_game_fen(rec) && dm_pdn_to_game(&g, rec, 1, &err) == DM_OK &&
                   dm_game_variant(g)->id == DM_VARIANT_INTERNATIONAL && dm_game_ply(g) > plies &&
                   same_position(dm_game_position_at(g, 0), &start)) {
            ply = plies;
        }
        if (ply >= 0) {
            const dm_board *p = dm_game_position_at(g, ply);
            uint64_t hash = dm_board_hash(p);
            if (dm_movegen_legal(list, p) > 0 && !seen(b, p, hash)) {
                if (b->n == b->cap) {
                    int cap = b->cap ? 2 * b->cap : 256;
                    dm_board *np = realloc(b->pos, (size_t)cap * sizeof *np);
                    if (np) {
                        b->pos = np;
                    }
                    uint64_t *nh = np ? realloc(b->hash, (size_t)cap * sizeof *nh) : NULL;
                    if (nh) {
                        b->hash = nh;
                        b->cap = cap;
                    }
                }
                if (b->n < b->cap) {
                    b->hash[b->n] = hash;
                    b->pos[b->n++] = *p;
                }
            }
            b->used++;
        }
        dm_game_free(g);
        dm_pdn_game_free(rec);
    }
    free(list);
    dm_pdn_reader_free(r);
    free(text);
    return 0;
}

static int parse_int(const char *s, long *out, long lo, long hi)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (end == s || *end || errno || v < lo || v > hi) {
        return -1;
    }
    *out = v;
    return 0;
}

int cmd_ballot(int argc, char **argv)
{
    static const struct option opts[] = {{"plies", required_argument, 0, 'p'},
                                         {"depth", required_argument, 0, 'd'},
                                         {"max-score", required_argument, 0, 's'},
                                         {"pieces", required_argument, 0, 'n'},
                                         {"help", no_argument, 0, 'h'},
                                         {0, 0, 0, 0}};
    long plies = 8, depth = 8;
    double max_score = 0.25;
    int min_pieces = 0, max_pieces = 0;
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        switch (c) {
            case 'p':
                if (parse_int(optarg, &plies, 0, 200)) {
                    fprintf(stderr, "damier ballot: --plies '%s': give 0 to 200\n", optarg);
                    return 2;
                }
                break;
            case 'd':
                if (parse_int(optarg, &depth, 0, 30)) {
                    fprintf(stderr, "damier ballot: --depth '%s': give 0 (no search) to 30\n",
                            optarg);
                    return 2;
                }
                break;
            case 's': {
                char *end;
                max_score = strtod(optarg, &end);
                if (end == optarg || *end || !(max_score >= 0 && max_score < 100)) {
                    fprintf(stderr, "damier ballot: --max-score '%s': give men >= 0\n", optarg);
                    return 2;
                }
                break;
            }
            case 'n': {
                char tail;
                if (sscanf(optarg, "%d-%d%c", &min_pieces, &max_pieces, &tail) != 2 ||
                    min_pieces < 2 || max_pieces < min_pieces || max_pieces > 40) {
                    fprintf(stderr,
                            "damier ballot: --pieces '%s': give MIN-MAX, 2 <= MIN <= MAX <= 40\n",
                            optarg);
                    return 2;
                }
                break;
            }
            case 'h':
                ballot_usage(stdout);
                return 0;
            default:
                ballot_usage(stderr);
                return 2;
        }
    }
    if (optind >= argc) {
        ballot_usage(stderr);
        return 2;
    }
    ballot b;
    memset(&b, 0, sizeof b);
    b.min_pieces = min_pieces;
    b.max_pieces = max_pieces;
    for (int i = optind; i < argc; i++) {
        if (add_file(&b, argv[i], (int)plies)) {
            free(b.pos);
            free(b.hash);
            return 1;
        }
    }
    dm_engine *e = NULL;
    if (depth > 0) {
        dm_engine_options eo = DM_ENGINE_OPTIONS_INIT;
        eo.threads = 1;
        if (dm_engine_create(&e, &eo) != DM_OK) {
            fprintf(stderr, "damier ballot: cannot create the engine\n");
            free(b.pos);
            free(b.hash);
            return 1;
        }
    }
    if (max_pieces > 0) {
        printf(
            "# damier ballot --pieces %d-%d --depth %ld --max-score %g: the first quiet position "
            "with %d-%d pieces\n# of real games, each once, scored within %g men at depth %ld\n",
            min_pieces, max_pieces, depth, max_score, min_pieces, max_pieces, max_score, depth);
    } else {
        printf("# damier ballot --plies %ld --depth %ld --max-score %g: positions after %ld plies "
               "of real games,\n# each once, scored within %g men at depth %ld\n",
               plies, depth, max_score, plies, max_score, depth);
    }
    int kept = 0;
    for (int i = 0; i < b.n; i++) {
        if (e) {
            dm_limits lim;
            memset(&lim, 0, sizeof lim);
            lim.depth = (int)depth;
            dm_search_input in;
            memset(&in, 0, sizeof in);
            in.root = b.pos[i];
            dm_result r;
            dm_engine_clear(e);
            dm_engine_search(&r, e, &in, &lim, NULL, NULL, NULL);
            if (!r.has_move || abs(r.score) > (int)(max_score * 100 + 0.5)) {
                continue;
            }
        }
        char fen[256];
        dm_board_to_fen(fen, sizeof fen, &b.pos[i], 0);
        printf("%s\n", fen);
        kept++;
    }
    fprintf(stderr, "damier ballot: %ld games read, %ld used, %d positions, %d kept\n", b.games,
            b.used, b.n, kept);
    dm_engine_free(e);
    free(b.pos);
    free(b.hash);
    return 0;
}
