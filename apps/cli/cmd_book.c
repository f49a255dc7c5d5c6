/* SPDX-License-Identifier: MIT
 * apps/cli/cmd_book.c: `damier book build|show`: the opening book (damier/book.h,
 * docs/BOOK.md).
 *
 * build: a best-first expansion from the initial position with the engine's own
 * searches. Each expanded position is searched at a fixed node budget with multi-PV
 * (1 thread, so the book depends only on the options and the weights); the moves
 * scoring within --margin of the best become its book moves, weighted by how close
 * they are; the position after each of them is queued at a cost of its parent's cost
 * + the move's loss to the best + --ply-cost, and the cheapest queued position is
 * expanded next, until --positions positions are expanded.
 * show: the book moves of a position. */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <damier/book.h>
#include <damier/engine.h>
#include <damier/eval.h>
#include <damier/eval8.h>

#include "commands.h"

static void book_usage(FILE *f)
{
    fprintf(f, "usage: damier book build --out FILE [--positions N] [--nodes N] [--multipv N]\n"
               "                         [--margin CP] [--ply-cost CP] [--max-plies N]\n"
               "                         [--name NAME] [--eval FILE] [--hash MIB]\n"
               "       damier book show [--book FILE|builtin] [--fen FEN]\n"
               "  build: best-first expansion from the initial position with the engine's own\n"
               "  searches (1 thread, deterministic): each position is searched with --multipv\n"
               "  lines (default 4) at --nodes nodes (default 1000000); moves within --margin\n"
               "  (default 12 hundredths of a man) of the best are book moves; the cheapest\n"
               "  position (sum of the moves' losses + --ply-cost, default 6, per ply) is\n"
               "  expanded next, until --positions (default 300) positions, none deeper than\n"
               "  --max-plies (default 16). docs/BOOK.md.\n"
               "  show: the book's name and size and the book moves of the position (default\n"
               "  the initial position) with their weight, score and depth.\n");
}

static int parse_long(const char *s, long lo, long hi, long *out)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (!*s || *end || v < lo || v > hi) {
        return -1;
    }
    *out = v;
    return 0;
}

/* ---- build ------------------------------------------------------------------------ */

typedef struct qnode {
    dm_board b;
    uint64_t hash; /* dm_board_hash(&b): the book's key, and the queue's tie-break */
    int cost, ply;
} qnode;

typedef struct line {
    dm_move move;
    int score, depth;
} line;

typedef struct collect {
    line lines[DM_ENGINE_MAX_MULTIPV * 2];
    int n;
} collect;

/* Keep the last report of each root move. */
static void on_info(const dm_info *info, void *payload)
{
    collect *c = payload;
    if (info->pv_count < 1) {
        return;
    }
    const dm_move *m = &info->pv[0];
    for (int i = 0; i < c->n; i++) {
        if (dm_move_same(&c->lines[i].move, m)) {
            c->lines[i].score = info->score;
            c->lines[i].depth = info->depth;
            return;
        }
    }
    if (c->n < (int)(sizeof c->lines / sizeof c->lines[0])) {
        c->lines[c->n].move = *m;
        c->lines[c->n].score = info->score;
        c->lines[c->n].depth = info->depth;
        c->n++;
    }
}

/* A set of hashes (open addressing; 0 is stored as 1). */
typedef struct hset {
    uint64_t *k;
    size_t cap, n;
} hset;

static int hset_add(hset *h, uint64_t key)
{
    key = key ? key : 1;
    if (2 * (h->n + 1) > h->cap) {
        size_t ncap = h->cap ? h->cap * 2 : 1024;
        uint64_t *nk = calloc(ncap, sizeof *nk);
        if (!nk) {
            return -1;
        }
        for (size_t i = 0; i < h->cap; i++) {
            if (h->k[i]) {
                size_t j = (size_t)(h->k[i] % ncap);
                while (nk[j]) {
                    j = (j + 1) % ncap;
                }
                nk[j] = h->k[i];
            }
        }
        free(h->k);
        h->k = nk;
        h->cap = ncap;
    }
    size_t j = (size_t)(key % h->cap);
    while (h->k[j]) {
        if (h->k[j] == key) {
            return 0;
        }
        j = (j + 1) % h->cap;
    }
    h->k[j] = key;
    h->n++;
    return 1;
}

typedef struct build_opts {
    const char *out, *name, *eval_path;
    long positions, nodes, multipv, margin, ply_cost, max_plies, hash;
} build_opts;

static int book_build(const build_opts *o)
{
    dm_engine_options eo = DM_ENGINE_OPTIONS_INIT;
    eo.threads = 1;
    eo.tt_mib = (int)o->hash;
    dm_engine *e;
    if (dm_engine_create(&e, &eo) != DM_OK) {
        fprintf(stderr, "damier book: cannot create the engine (%ld MiB table)\n", o->hash);
        return 1;
    }
    dm_eval *ev = NULL;
    dm_eval8 *ev8 = NULL;
    if (o->eval_path && cli_engine_eval(e, o->eval_path, "damier book", &ev, &ev8) != 0) {
        dm_engine_free(e);
        return 1;
    }
    size_t qcap = 1024, qn = 0, ecap = 1024, en = 0;
    qnode *q = malloc(qcap * sizeof *q);
    dm_book_entry *entries = malloc(ecap * sizeof *entries);
    hset done = {NULL, 0, 0};
    int rc = 0;
    if (!q || !entries) {
        fprintf(stderr, "damier book: out of memory\n");
        rc = 1;
        goto out;
    }
    dm_board_start(&q[0].b, dm_variant_get(DM_VARIANT_INTERNATIONAL));
    q[0].hash = dm_board_hash(&q[0].b);
    q[0].cost = 0;
    q[0].ply = 0;
    qn = 1;
    long expanded = 0;
    uint64_t total_nodes = 0;
    double t0 = cli_now();
    while (qn > 0 && expanded < o->positions) {
        size_t best = 0;
        for (size_t i = 1; i < qn; i++) {
            if (q[i].cost < q[best].cost ||
                (q[i].cost == q[best].cost && q[i].hash < q[best].hash)) {
                best = i;
            }
        }
        qnode nd = q[best];
        q[best] = q[--qn];
        int added = hset_add(&done, nd.hash);
        if (added < 0) {
            fprintf(stderr, "damier book: out of memory\n");
            rc = 1;
            goto out;
        }
        if (added == 0) {
            continue; /* a transposition, expanded already */
        }
        static dm_movelist list; /* one thread; the list is large for a stack */
        if (dm_movegen_legal(&list, &nd.b) == 0) {
            continue;
        }
        collect c;
        memset(&c, 0, sizeof c);
        dm_search_input in;
        memset(&in, 0, sizeof in);
        in.root = nd.b;
        dm_limits lim;
        memset(&lim, 0, sizeof lim);
        lim.nodes = (uint64_t)o->nodes;
        lim.analyse = 1;
        lim.multipv = (int)(o->multipv < list.count ? o->multipv : list.count);
        dm_result r;
        if (dm_engine_search(&r, e, &in, &lim, on_info, &c, NULL) != DM_OK || !r.has_move) {
            continue;
        }
        expanded++;
        total_nodes += r.nodes;
        /* the lines of the deepest iterations (a line last seen two iterations before
         * the deepest was pushed out of the multi-PV and is not trusted) */
        int maxd = 0, top = -DM_SCORE_WIN;
        for (int i = 0; i < c.n; i++) {
            maxd = c.lines[i].depth > maxd ? c.lines[i].depth : maxd;
        }
        for (int i = 0; i < c.n; i++) {
            if (c.lines[i].depth >= maxd - 1 && c.lines[i].score > top) {
                top = c.lines[i].score;
            }
        }
        for (int i = 0; i < c.n; i++) {
            const line *l = &c.lines[i];
            int loss = top - l->score;
            if (l->depth < maxd - 1 || loss > o->margin) {
                continue;
            }
            if (en == ecap) {
                dm_book_entry *ne = realloc(entries, 2 * ecap * sizeof *entries);
                if (!ne) {
                    fprintf(stderr, "damier book: out of memory\n");
                    rc = 1;
                    goto out;
                }
                entries = ne;
                ecap *= 2;
            }
            dm_book_entry *be = &entries[en++];
            be->key = nd.hash;
            be->capt = l->move.capt[0]; /* 50 squares: bit s-1 for square s, as the book's */
            be->from = l->move.from;
            be->to = l->move.to;
            be->weight = 1 + (int)((o->margin - loss) * 99 / (o->margin > 0 ? o->margin : 1));
            be->score = l->score < -32768 ? -32768 : l->score > 32767 ? 32767 : l->score;
            be->depth = l->depth;
            if (nd.ply + 1 < o->max_plies) {
                if (qn == qcap) {
                    qnode *nq = realloc(q, 2 * qcap * sizeof *q);
                    if (!nq) {
                        fprintf(stderr, "damier book: out of memory\n");
                        rc = 1;
                        goto out;
                    }
                    q = nq;
                    qcap *= 2;
                }
                q[qn].b = nd.b;
                dm_board_apply(&q[qn].b, &l->move);
                q[qn].hash = dm_board_hash(&q[qn].b);
                q[qn].cost = nd.cost + loss + (int)o->ply_cost;
                q[qn].ply = nd.ply + 1;
                qn++;
            }
        }
        if (expanded % 25 == 0) {
            fprintf(stderr, "book: %ld positions, %zu moves, %.0f s\n", expanded, en,
                    cli_now() - t0);
        }
    }
    dm_error err;
    if (dm_book_save(entries, en, o->name, o->out, &err) != DM_OK) {
        fprintf(stderr, "damier book: %s\n", err.message);
        rc = 1;
        goto out;
    }
    dm_book *check = NULL;
    if (dm_book_load(&check, o->out, &err) != DM_OK) {
        fprintf(stderr, "damier book: the book written does not read back: %s\n", err.message);
        rc = 1;
        goto out;
    }
    printf("book %s: %ld positions expanded, %zu moves, %" PRIu64 " nodes, %.1f s\n", o->out,
           expanded, dm_book_entries(check), total_nodes, cli_now() - t0);
    dm_book_free(check);
out:
    free(q);
    free(entries);
    free(done.k);
    dm_engine_free(e);
    dm_eval_free(ev);
    dm_eval8_free(ev8);
    return rc;
}

static int cmd_book_build(int argc, char **argv)
{
    build_opts o = {NULL, "damier-book", NULL, 300, 1000000, 4, 12, 6, 16, 64};
    static const struct option opts[] = {{"out", required_argument, 0, 'o'},
                                         {"positions", required_argument, 0, 'p'},
                                         {"nodes", required_argument, 0, 'n'},
                                         {"multipv", required_argument, 0, 'M'},
                                         {"margin", required_argument, 0, 'm'},
                                         {"ply-cost", required_argument, 0, 'c'},
                                         {"max-plies", required_argument, 0, 'P'},
                                         {"name", required_argument, 0, 'N'},
                                         {"eval", required_argument, 0, 'W'},
                                         {"hash", required_argument, 0, 'H'},
                                         {"help", no_argument, 0, 'h'},
                                         {0, 0, 0, 0}};
    int ch;
    optind = 1;
    while ((ch = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        long *target = NULL, lo = 0, hi = 0;
        switch (ch) {
            case 'o':
                o.out = optarg;
                continue;
            case 'N':
                if (strlen(optarg) > 31) {
                    fprintf(stderr, "damier book: --name holds at most 31 bytes\n");
                    return 2;
                }
                o.name = optarg;
                continue;
            case 'W':
                o.eval_path = optarg;
                continue;
            case 'p':
                target = &o.positions, lo = 1, hi = 10000000;
                break;
            case 'n':
                target = &o.nodes, lo = 1, hi = 2000000000L;
                break;
            case 'M':
                target = &o.multipv, lo = 1, hi = DM_ENGINE_MAX_MULTIPV;
                break;
            case 'm':
                target = &o.margin, lo = 0, hi = 1000;
                break;
            case 'c':
                target = &o.ply_cost, lo = 0, hi = 1000;
                break;
            case 'P':
                target = &o.max_plies, lo = 1, hi = 200;
                break;
            case 'H':
                target = &o.hash, lo = 1, hi = 65536;
                break;
            case 'h':
                book_usage(stdout);
                return 0;
            default:
                book_usage(stderr);
                return 2;
        }
        if (parse_long(optarg, lo, hi, target)) {
            fprintf(stderr, "damier book: '%s' is not a number from %ld to %ld\n", optarg, lo, hi);
            return 2;
        }
    }
    if (optind != argc) {
        fprintf(stderr, "damier book: unexpected argument '%s'\n", argv[optind]);
        return 2;
    }
    if (!o.out) {
        fprintf(stderr, "damier book build: --out FILE is required\n");
        return 2;
    }
    return book_build(&o);
}

/* ---- show ------------------------------------------------------------------------- */

/* The book of a --book value: "builtin" (or NULL), "off" (NULL book), or a file
 * (*owned, the caller frees). Prints an error and returns nonzero when it cannot be
 * read. */
int cli_book_from_arg(const dm_book **out, dm_book **owned, const char *value, const char *cmd)
{
    *owned = NULL;
    if (!value || !strcmp(value, "builtin")) {
        *out = dm_book_builtin();
        return 0;
    }
    if (!strcmp(value, "off") || !*value) {
        *out = NULL;
        return 0;
    }
    dm_error err;
    if (dm_book_load(owned, value, &err) != DM_OK) {
        fprintf(stderr, "%s: %s\n", cmd, err.message);
        return 1;
    }
    *out = *owned;
    return 0;
}

void cli_book_print(const dm_book *bk, const dm_board *b)
{
    dm_book_move moves[DM_BOOK_MAX_MOVES];
    int n = dm_book_probe(bk, b, moves, DM_BOOK_MAX_MOVES);
    for (int i = 0; i < n; i++) {
        char text[160];
        dm_move_to_text(text, sizeof text, b, &moves[i].move, DM_NOTATION_PDN, DM_SQUARES_DEFAULT);
        printf("book %s weight %d score %d depth %d\n", text, moves[i].weight, moves[i].score,
               moves[i].depth);
    }
}

static int cmd_book_show(int argc, char **argv)
{
    const char *book = NULL, *fen = NULL;
    static const struct option opts[] = {{"book", required_argument, 0, 'b'},
                                         {"fen", required_argument, 0, 'f'},
                                         {"help", no_argument, 0, 'h'},
                                         {0, 0, 0, 0}};
    int ch;
    optind = 1;
    while ((ch = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        switch (ch) {
            case 'b':
                book = optarg;
                break;
            case 'f':
                fen = optarg;
                break;
            case 'h':
                book_usage(stdout);
                return 0;
            default:
                book_usage(stderr);
                return 2;
        }
    }
    if (optind != argc) {
        fprintf(stderr, "damier book: unexpected argument '%s'\n", argv[optind]);
        return 2;
    }
    dm_board b;
    if (cli_board_from_arg(&b, fen)) {
        return 2;
    }
    const dm_book *bk;
    dm_book *owned;
    if (cli_book_from_arg(&bk, &owned, book, "damier book")) {
        return 1;
    }
    if (!bk) {
        printf("book off\n");
        return 0;
    }
    printf("book name %s entries %zu\n", dm_book_name(bk), dm_book_entries(bk));
    cli_book_print(bk, &b);
    dm_book_free(owned);
    return 0;
}

int cmd_book(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        book_usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    if (!strcmp(argv[1], "build")) {
        return cmd_book_build(argc - 1, argv + 1);
    }
    if (!strcmp(argv[1], "show")) {
        return cmd_book_show(argc - 1, argv + 1);
    }
    fprintf(stderr, "damier book: unknown subcommand '%s' (build or show)\n", argv[1]);
    return 2;
}
