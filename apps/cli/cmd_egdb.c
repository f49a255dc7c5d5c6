/* SPDX-License-Identifier: MIT
 * apps/cli/cmd_egdb.c: `damier egdb gen|verify|probe|info|bench`: the endgame
 * databases of include/damier/egdb.h. Output (stable, one record a line):
 *   gen:    "slice NAME positions N wins W losses L draws D dontcare C max_dtc M
 *            bytes B seconds S" (or "... kept" for a valid file left as it was)
 *   verify: "slice NAME ok" or "slice NAME FAILED: why", then "verified N slices,
 *           F failed" (--threads T: slices verified T at a time, lines as they end;
 *           --pieces N: only the slices of N pieces)
 *   probe:  "value win|loss|draw dtc N" (dtc: plies to the conversion) or "value unknown"
 *   info:   "slice NAME positions N wins W losses L draws D dontcare C max_dtc M
 *            bytes B crc32 X", then "slices N, bytes B, complete up to P pieces",
 *            "variant NAME"
 * --variant brazilian|russian|english: gen makes that variant's 8x8 database, probe
 * reads --fen in that variant (a folder of another variant is refused, saying so);
 * verify and info take the variant from the files' headers.
 *   bench:  "variant NAME", "probe cached NS ns", "probe uncached NS ns", "pieces P
 *            probes N check C", "positions 4096 unknown U" (random quiet positions
 *            of the folder's variant, any of the four; U must be 0; BENCHMARKS.md)
 * Every command reads or writes --dir D, by default $XDG_DATA_HOME/damier/egdb
 * (~/.local/share/damier/egdb); the engines of analyse, play and hub probe that
 * default folder too when it exists and --egdb does not name another ("" : none). Files the library refused are reported on stderr as
 * "refused: path: reason"; verify and info then exit 1. */
#define _POSIX_C_SOURCE 200809L
#include <getopt.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <damier/egdb.h>
#include <damier/engine.h>

#include "commands.h"

static void egdb_usage(FILE *f)
{
    fprintf(f, "usage: damier egdb gen --pieces N [--variant V] [--dir D] [--threads T]\n"
               "       damier egdb verify [--dir D] [--threads T] [--pieces N]\n"
               "       damier egdb probe --fen FEN [--variant V] [--dir D]\n"
               "       damier egdb info [--dir D]\n"
               "       damier egdb bench [--dir D] [--probes N]\n"
               "  endgame databases (docs/EGDB.md) of international draughts (the default)\n"
               "  or, with --variant, of brazilian, russian or english on 8x8 (one variant\n"
               "  a folder); default folder $XDG_DATA_HOME/damier/egdb\n"
               "  (~/.local/share/damier/egdb)\n");
}

/* The default folder; creates its parents when make is set (gen). */
int cli_egdb_default_dir(char *buf, size_t cap, int make)
{
    const char *xdg = getenv("XDG_DATA_HOME");
    char base[3000];
    if (xdg && *xdg) {
        snprintf(base, sizeof base, "%s", xdg);
    } else {
        const char *home = getenv("HOME");
        if (!home || !*home) {
            return -1;
        }
        snprintf(base, sizeof base, "%s/.local/share", home);
        if (make) {
            char tmp[3000];
            snprintf(tmp, sizeof tmp, "%s/.local", home);
            mkdir(tmp, 0755);
            mkdir(base, 0755);
        }
    }
    if (make) {
        mkdir(base, 0755);
        char tmp[3100];
        snprintf(tmp, sizeof tmp, "%s/damier", base);
        mkdir(tmp, 0755);
    }
    snprintf(buf, cap, "%s/damier/egdb", base);
    return 0;
}

int cli_egdb_open(dm_egdb **out, const char *dir, const char *cmd)
{
    dm_error err;
    if (dm_egdb_open(out, dir, &err) != DM_OK) {
        fprintf(stderr, "damier %s: %s\n", cmd, err.message);
        return 1;
    }
    for (int i = 0; i < dm_egdb_problem_count(*out); i++) {
        fprintf(stderr, "damier %s: refused: %s\n", cmd, dm_egdb_problem(*out, i));
    }
    return 0;
}

const char *cli_egdb_engine_dir(const char *opt, char *buf, size_t cap)
{
    if (opt) {
        return *opt ? opt : NULL;
    }
    struct stat sb;
    if (cli_egdb_default_dir(buf, cap, 0) != 0 || stat(buf, &sb) != 0 || !S_ISDIR(sb.st_mode)) {
        return NULL;
    }
    return buf;
}

int cli_engine_egdb(dm_engine *e, const char *dir, const char *cmd, dm_egdb **out)
{
    *out = NULL;
    char def[4096];
    const char *use = cli_egdb_engine_dir(dir, def, sizeof def);
    if (!use) {
        return 0;
    }
    if (cli_egdb_open(out, use, cmd) != 0) {
        return 1;
    }
    if (dm_egdb_slice_count(*out) == 0 && dir) {
        fprintf(stderr, "damier %s: warning: no endgame database slices in %s\n", cmd, use);
    }
    dm_engine_set_egdb(e, *out);
    return 0;
}

static void print_slice(const dm_egdb_slice_info *s, int with_crc)
{
    printf("slice %s positions %llu wins %llu losses %llu draws %llu dontcare %llu "
           "max_dtc %d bytes %llu",
           s->name, (unsigned long long)s->positions, (unsigned long long)s->wins,
           (unsigned long long)s->losses, (unsigned long long)s->draws,
           (unsigned long long)s->dontcare, s->max_dtc, (unsigned long long)s->file_bytes);
    if (with_crc) {
        printf(" crc32 %08x\n", s->crc);
    }
}

static void on_slice(const dm_egdb_slice_info *s, void *payload)
{
    (void)payload;
    print_slice(s, 0);
    if (s->skipped) {
        printf(" kept\n");
    } else {
        printf(" seconds %.2f\n", s->seconds);
    }
    fflush(stdout);
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

static uint64_t rng_next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* Random quiet positions of variant v with 2 to `pieces` pieces (White and Black
 * at least one each; a man drawn on his own promotion row becomes a king), either
 * side to move, for the probe benchmark. `list` is scratch space. */
static void random_position(dm_board *b, const dm_variant *v, uint64_t *rng, int pieces,
                            dm_movelist *list)
{
    int row = v->size / 2; /* squares on a row */
    for (;;) {
        dm_board_clear(b, v);
        int n = 2 + (int)(rng_next(rng) % (uint64_t)(pieces - 1));
        int placed = 0;
        while (placed < n) {
            int sq = 1 + (int)(rng_next(rng) % (uint64_t)v->squares);
            if (dm_board_piece(b, sq) != DM_EMPTY) {
                continue;
            }
            int white = placed == 0 ? 1 : placed == 1 ? 0 : (int)(rng_next(rng) & 1);
            int king = (int)(rng_next(rng) & 1);
            if (!king && ((white && sq <= row) || (!white && sq > v->squares - row))) {
                king = 1;
            }
            dm_board_put(b, sq,
                         white ? (king ? DM_WHITE_KING : DM_WHITE_MAN)
                               : (king ? DM_BLACK_KING : DM_BLACK_MAN));
            placed++;
        }
        b->side = (rng_next(rng) & 1) ? DM_BLACK : DM_WHITE;
        int legal = dm_movegen_legal(list, b);
        if (legal == 0 || list->moves[0].ncapt == 0) {
            return;
        }
    }
}

/* Probe time of the folder's database over random quiet positions of its variant. */
static int egdb_bench(const dm_egdb *db, long probes)
{
    int maxp = dm_egdb_max_pieces(db);
    if (maxp < 2) {
        fprintf(stderr, "damier egdb bench: no complete database in the folder\n");
        return 1;
    }
    enum {
        NPOS = 4096
    };
    const dm_variant *v = dm_variant_get(dm_egdb_variant(db));
    dm_board *pos = malloc(NPOS * sizeof *pos);
    dm_movelist *list = malloc(sizeof *list);
    if (!pos || !list) {
        free(pos);
        free(list);
        return 1;
    }
    uint64_t rng = 0x9E3779B97F4A7C15ULL;
    for (int i = 0; i < NPOS; i++) {
        random_position(&pos[i], v, &rng, maxp, list);
    }
    free(list);
    /* Every position is of the database's variant and size: none may be unknown. */
    int unknown = 0;
    for (int i = 0; i < NPOS; i++) {
        unknown += dm_egdb_lookup(db, &pos[i], NULL) == DM_EGDB_UNKNOWN;
    }
    /* Cached: the same position again and again (its block stays in the CPU cache). */
    int dtc, sink = 0;
    double t0 = cli_now();
    for (long i = 0; i < probes; i++) {
        sink += dm_egdb_lookup(db, &pos[i & 7], &dtc) + dtc;
    }
    double cached = (cli_now() - t0) / (double)probes * 1e9;
    /* Uncached: random positions over every slice. */
    t0 = cli_now();
    for (long i = 0; i < probes; i++) {
        sink += dm_egdb_lookup(db, &pos[i % NPOS], &dtc) + dtc;
    }
    double uncached = (cli_now() - t0) / (double)probes * 1e9;
    printf("variant %s\nprobe cached %.0f ns\nprobe uncached %.0f ns\npieces %d probes %ld "
           "check %d\npositions %d unknown %d\n",
           v->name, cached, uncached, maxp, probes, sink & 1, NPOS, unknown);
    free(pos);
    return 0;
}

/* verify: slices taken in turn by `threads` workers (the database is immutable, so
 * they probe it at once); a line per slice as it ends (in slice order with one
 * thread), under a lock. */
typedef struct verify_job {
    const dm_egdb *db;
    int pieces; /* only slices of this many pieces; 0: all */
    pthread_mutex_t lock;
    int next, count, failed;
} verify_job;

static void *verify_worker(void *arg)
{
    verify_job *j = arg;
    for (;;) {
        pthread_mutex_lock(&j->lock);
        int i = j->next++;
        pthread_mutex_unlock(&j->lock);
        if (i >= dm_egdb_slice_count(j->db)) {
            return NULL;
        }
        dm_egdb_slice_info s;
        dm_egdb_slice(j->db, i, &s);
        if (j->pieces && s.wm + s.wk + s.bm + s.bk != j->pieces) {
            continue;
        }
        dm_error err;
        int ok = dm_egdb_verify_slice(j->db, i, &err) == DM_OK;
        pthread_mutex_lock(&j->lock);
        j->count++;
        if (ok) {
            printf("slice %s ok\n", s.name);
        } else {
            printf("slice %s FAILED: %s\n", s.name, err.message);
            j->failed++;
        }
        fflush(stdout);
        pthread_mutex_unlock(&j->lock);
    }
}

/* Returns 1 when a slice failed. */
static int egdb_verify(const dm_egdb *db, int pieces, int threads)
{
    verify_job j = {.db = db, .pieces = pieces};
    pthread_mutex_init(&j.lock, NULL);
    pthread_t th[64];
    int started = 0;
    for (; started < threads - 1; started++) {
        if (pthread_create(&th[started], NULL, verify_worker, &j) != 0) {
            break; /* fewer workers: the calling thread does the rest */
        }
    }
    verify_worker(&j);
    for (int i = 0; i < started; i++) {
        pthread_join(th[i], NULL);
    }
    pthread_mutex_destroy(&j.lock);
    printf("verified %d slices, %d failed\n", j.count, j.failed);
    return j.failed > 0;
}

int cmd_egdb(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        egdb_usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    const char *sub = argv[1];
    static const struct option opts[] = {
        {"pieces", required_argument, 0, 'p'},  {"dir", required_argument, 0, 'd'},
        {"threads", required_argument, 0, 't'}, {"fen", required_argument, 0, 'f'},
        {"probes", required_argument, 0, 'n'},  {"variant", required_argument, 0, 'v'},
        {"help", no_argument, 0, 'h'},          {0, 0, 0, 0}};
    const char *dir = NULL, *fen = NULL, *vname = NULL;
    long pieces = 0, threads = 1, probes = 2000000;
    int c;
    optind = 1;
    while ((c = getopt_long(argc - 1, argv + 1, "", opts, NULL)) != -1) {
        switch (c) {
            case 'p':
                if (parse_long(optarg, 2, DM_EGDB_MAX_PIECES, &pieces) != 0) {
                    fprintf(stderr, "damier egdb: --pieces must be 2..%d\n", DM_EGDB_MAX_PIECES);
                    return 2;
                }
                break;
            case 'd':
                dir = optarg;
                break;
            case 't':
                if (parse_long(optarg, 1, 64, &threads) != 0) {
                    fprintf(stderr, "damier egdb: --threads must be 1..64\n");
                    return 2;
                }
                break;
            case 'f':
                fen = optarg;
                break;
            case 'n':
                if (parse_long(optarg, 1, 1000000000L, &probes) != 0) {
                    fprintf(stderr, "damier egdb: --probes must be 1..1000000000\n");
                    return 2;
                }
                break;
            case 'v':
                vname = optarg;
                break;
            case 'h':
                egdb_usage(stdout);
                return 0;
            default:
                egdb_usage(stderr);
                return 2;
        }
    }
    if (optind < argc - 1) {
        fprintf(stderr, "damier egdb: unexpected argument '%s'\n", argv[optind + 1]);
        return 2;
    }
    char defdir[3200];
    if (!dir) {
        if (cli_egdb_default_dir(defdir, sizeof defdir, !strcmp(sub, "gen")) != 0) {
            fprintf(stderr, "damier egdb: no --dir and neither XDG_DATA_HOME nor HOME set\n");
            return 2;
        }
        dir = defdir;
    }

    const dm_variant *variant = dm_variant_get(DM_VARIANT_INTERNATIONAL);
    if (vname && cmd_variant_from_arg(&variant, "damier egdb", vname) != 0) {
        return 2;
    }
    if (variant->id != DM_VARIANT_INTERNATIONAL && variant->id != DM_VARIANT_BRAZILIAN &&
        variant->id != DM_VARIANT_RUSSIAN && variant->id != DM_VARIANT_ENGLISH) {
        fprintf(stderr,
                "damier egdb: no endgame databases of %s (international, brazilian, russian, "
                "english)\n",
                variant->name);
        return 2;
    }
    if (!strcmp(sub, "gen")) {
        if (!pieces) {
            fprintf(stderr, "damier egdb gen: --pieces N is required\n");
            return 2;
        }
        dm_egdb_gen_options o = DM_EGDB_GEN_OPTIONS_INIT;
        o.pieces = (int)pieces;
        o.threads = (int)threads;
        o.progress = on_slice;
        o.variant = variant->id;
        dm_error err;
        double t0 = cli_now();
        if (dm_egdb_generate(dir, &o, &err) != DM_OK) {
            fprintf(stderr, "damier egdb gen: %s\n", err.message);
            return 1;
        }
        printf("generated up to %ld pieces in %s, %.2f s\n", pieces, dir, cli_now() - t0);
        return 0;
    }

    dm_board position;
    if (!strcmp(sub, "probe")) {
        if (!fen) {
            fprintf(stderr, "damier egdb probe: --fen FEN is required\n");
            return 2;
        }
        if (cmd_vboard_from_arg(&position, variant, fen) != 0) {
            return 2;
        }
    } else if (strcmp(sub, "verify") && strcmp(sub, "info") && strcmp(sub, "bench")) {
        fprintf(stderr, "damier egdb: unknown subcommand '%s'\n", sub);
        egdb_usage(stderr);
        return 2;
    }
    dm_egdb *db;
    char cmd[32];
    snprintf(cmd, sizeof cmd, "egdb %s", sub);
    if (cli_egdb_open(&db, dir, cmd) != 0) {
        return 1;
    }
    int rc = 0;
    int refused = dm_egdb_problem_count(db) > 0;
    if (!strcmp(sub, "probe")) {
        int dtc;
        const dm_variant *dbv = dm_variant_get(dm_egdb_variant(db));
        if (dm_egdb_slice_count(db) > 0 && dbv->id != variant->id) {
            fprintf(stderr,
                    "damier egdb probe: the database in %s is of %s, the position of %s "
                    "(give --variant %s, or a folder of %s slices)\n",
                    dir, dbv->name, variant->name, dbv->name, variant->name);
            dm_egdb_close(db);
            return 1;
        }
        dm_egdb_value v = dm_egdb_probe(db, &position, &dtc);
        if (v == DM_EGDB_UNKNOWN) {
            printf("value unknown\n");
        } else if (v == DM_EGDB_DRAW) {
            printf("value draw\n");
        } else {
            printf("value %s dtc %d\n", dm_egdb_value_name(v), dtc);
        }
    } else if (!strcmp(sub, "info")) {
        uint64_t bytes = 0;
        for (int i = 0; i < dm_egdb_slice_count(db); i++) {
            dm_egdb_slice_info s;
            dm_egdb_slice(db, i, &s);
            print_slice(&s, 1);
            bytes += s.file_bytes;
        }
        printf("slices %d, bytes %llu, complete up to %d pieces\n", dm_egdb_slice_count(db),
               (unsigned long long)bytes, dm_egdb_max_pieces(db));
        printf("variant %s\n", dm_variant_get(dm_egdb_variant(db))->name);
        rc = refused;
    } else if (!strcmp(sub, "verify")) {
        rc = egdb_verify(db, (int)pieces, (int)threads) || refused;
    } else {
        rc = egdb_bench(db, probes);
    }
    dm_egdb_close(db);
    return rc;
}
