/* SPDX-License-Identifier: MIT
 * apps/cli/cmd_selfplay.c: `damier selfplay --gen DIR`: self-play games that write
 * training samples (damier/eval.h) for `damier train`.
 *
 * Games start from the initial position with a few random plies (a random number in
 * --random-plies MIN-MAX), kept only when a short search finds them roughly level
 * (|score| <= --balance); then the engine plays both sides at a fixed node budget
 * (--nodes), with its draw rules, until the game ends by the rules of dm_game (no
 * legal move, repetition, 25-, 16- and 5-move rules) or reaches --max-plies (a draw).
 * Every quiet position after the random plies (no capture pending) becomes a sample
 * with the search score and, once known, the game's result.
 *
 * Resumable in chunks: chunk k holds --chunk-games games from seed --seed + k and is
 * written to DIR/chunk-KKKKK.tmp, then renamed to DIR/chunk-KKKKK.dmsp when complete;
 * a chunk whose file exists is skipped, so a stopped run restarted with the same
 * arguments goes on where it stopped. --jobs threads play chunks in parallel, each
 * with its own engine; the samples of a chunk do not depend on the thread.
 * --rank R --ranks N: this process plays only the chunks k with (k - first) % N == R,
 * its shard of the run; N processes with R = 0 .. N-1 (damier-selfplay-mpi under
 * mpirun, apps/selfplay_mpi) write together the files one process would. */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <damier/engine.h>
#include <damier/eval.h>
#include <damier/eval8.h>
#include <damier/game.h>

#include "commands.h"

typedef struct gen_options {
    const char *dir;
    int chunks, first_chunk, chunk_games, jobs, max_plies, rand_min, rand_max, balance;
    int rank, ranks; /* this process plays the chunks k with (k - first) % ranks == rank */
    uint64_t nodes, seed;
    const dm_eval *eval;
    const dm_variant *variant; /* NULL: international; else an 8x8 variant (dm_eval8) */
    const dm_eval8 *eval8;     /* its weights (NULL: built in) */
} gen_options;

/* Where play_out puts its samples: international or 8x8 records. */
typedef struct sample_sink {
    dm_sample *s10;
    dm_sample8 *s8;
    int n, cap;
} sample_sink;

typedef struct gen_shared {
    const gen_options *o;
    atomic_int next;    /* next chunk index to take */
    atomic_int failed;  /* a chunk could not be written */
    atomic_llong games; /* played by this run */
    atomic_llong samples;
    pthread_mutex_t print;
} gen_shared;

static uint64_t rng_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* A random opening from rng: the initial position and a random number of random
 * plies, kept when a depth-8 search with e finds it within o->balance. Returns the
 * game (the caller's) or NULL when rejected (or out of memory). */
static dm_game *random_opening(dm_engine *e, uint64_t *rng, const gen_options *o)
{
    dm_game *g;
    dm_board start;
    if (o->variant) {
        dm_board_start(&start, o->variant);
    }
    if (dm_game_new(&g, o->variant ? &start : NULL) != DM_OK) {
        return NULL;
    }
    int nrand = o->rand_min + (int)(rng_next(rng) % (uint64_t)(o->rand_max - o->rand_min + 1));
    for (int i = 0; i < nrand && !dm_game_over(g); i++) {
        dm_movelist list;
        const dm_board *b = dm_game_position(g);
        int k = dm_movegen_legal(&list, b);
        if (k == 0 || dm_game_play(g, &list.moves[rng_next(rng) % (uint64_t)k]) != DM_OK) {
            break;
        }
    }
    uint64_t h[DM_ENGINE_MAX_HISTORY];
    dm_search_input in;
    dm_result res;
    dm_limits lim = {0};
    lim.depth = 8;
    dm_search_input_from_game(&in, h, DM_ENGINE_MAX_HISTORY, g);
    dm_engine_clear(e);
    if (dm_game_over(g) || dm_engine_search(&res, e, &in, &lim, NULL, NULL, NULL) != DM_OK ||
        abs(res.score) > o->balance) {
        dm_game_free(g);
        return NULL;
    }
    return g;
}

/* Play g to its end with engine side[c] moving for colour c, at o->nodes a move;
 * with a sink, every quiet position is appended to it. Returns the result for White
 * (1, 0, -1) or -2 on error. */
static int play_out(dm_game *g, dm_engine *const side[2], sample_sink *sink, const gen_options *o)
{
    uint64_t h[DM_ENGINE_MAX_HISTORY];
    dm_search_input in;
    dm_result res;
    dm_limits lim = {0};
    lim.nodes = o->nodes;
    int first = sink ? sink->n : 0;
    while (!dm_game_over(g) && dm_game_ply(g) < o->max_plies) {
        dm_search_input_from_game(&in, h, DM_ENGINE_MAX_HISTORY, g);
        dm_engine *e = side[dm_game_position(g)->side];
        if (dm_engine_search(&res, e, &in, &lim, NULL, NULL, NULL) != DM_OK || !res.has_move) {
            break;
        }
        int score = res.score > 32000 ? 32000 : res.score < -32000 ? -32000 : res.score;
        if (sink && sink->s8 && sink->n < sink->cap) {
            dm_movelist list;
            const dm_board *vb = dm_game_position(g);
            if (!(dm_movegen_legal(&list, vb) > 0 && list.moves[0].ncapt > 0)) {
                dm_sample8 *s = &sink->s8[sink->n++];
                s->board = *vb;
                s->score = score;
                s->ply = dm_game_ply(g);
                s->result = 0;
            }
        } else if (sink && sink->n < sink->cap) {
            dm_movelist list; /* quiet positions only */
            const dm_board *vb = dm_game_position(g);
            if (!(dm_movegen_legal(&list, vb) > 0 && list.moves[0].ncapt > 0)) {
                dm_sample *s = &sink->s10[sink->n++];
                dm_sample_set_position(s, dm_game_position(g));
                s->score = score;
                s->ply = dm_game_ply(g);
                s->result = 0;
            }
        }
        if (dm_game_play(g, &res.best) != DM_OK) {
            return -2;
        }
    }
    dm_reason why;
    dm_outcome out = dm_game_result(g, &why);
    int r = out == DM_OUTCOME_WHITE_WINS ? 1 : out == DM_OUTCOME_BLACK_WINS ? -1 : 0;
    for (int i = first; sink && i < sink->n; i++) {
        if (sink->s8) {
            sink->s8[i].result = r;
        } else {
            sink->s10[i].result = r;
        }
    }
    return r;
}

/* One game from rng into samples (appended from *n, capacity cap). Returns the number
 * of games played (1), 0 when the opening was rejected, -1 on error. */
static int play_game(sample_sink *sink, dm_engine *e, uint64_t *rng, const gen_options *o)
{
    dm_game *g = random_opening(e, rng, o);
    if (!g) {
        return 0;
    }
    dm_engine *const side[2] = {e, e};
    int r = play_out(g, side, sink, o);
    dm_game_free(g);
    return r == -2 ? -1 : 1;
}

/* Play chunk k and write it; 0 on success. */
static int run_chunk(int k, dm_engine *e, gen_shared *sh)
{
    const gen_options *o = sh->o;
    char path[4096], tmp[4096];
    snprintf(path, sizeof path, "%s/chunk-%05d.dmsp", o->dir, k);
    snprintf(tmp, sizeof tmp, "%s/chunk-%05d.tmp", o->dir, k);
    struct stat st;
    if (stat(path, &st) == 0) {
        return 0; /* done by an earlier run */
    }
    sample_sink sink = {NULL, NULL, 0, o->chunk_games * (o->max_plies + 1)};
    if (o->variant) {
        sink.s8 = malloc((size_t)sink.cap * sizeof *sink.s8);
    } else {
        sink.s10 = malloc((size_t)sink.cap * sizeof *sink.s10);
    }
    if (!sink.s8 && !sink.s10) {
        return -1;
    }
    uint64_t rng = o->seed + (uint64_t)k * 0x100000001B3ull;
    int games = 0, tries = 0;
    while (games < o->chunk_games && tries < o->chunk_games * 20) {
        tries++;
        int r = play_game(&sink, e, &rng, o);
        if (r < 0) {
            free(sink.s8);
            free(sink.s10);
            return -1;
        }
        games += r;
    }
    int n = sink.n;
    FILE *f = fopen(tmp, "wb");
    int bad = !f;
    if (f) {
        unsigned char hdr[DM_SAMPLE_HEADER_SIZE], rec[DM_SAMPLE_RECORD_SIZE];
        if (o->variant) {
            dm_sample8_header(hdr, o->variant->id);
        } else {
            dm_sample_header(hdr);
        }
        bad |= fwrite(hdr, 1, sizeof hdr, f) != sizeof hdr;
        for (int i = 0; i < n && !bad; i++) {
            if (o->variant) {
                dm_sample8_encode(rec, &sink.s8[i]);
            } else {
                dm_sample_encode(rec, &sink.s10[i]);
            }
            bad |= fwrite(rec, 1, sizeof rec, f) != sizeof rec;
        }
        bad |= fclose(f) != 0;
    }
    free(sink.s8);
    free(sink.s10);
    if (bad || rename(tmp, path) != 0) {
        pthread_mutex_lock(&sh->print);
        fprintf(stderr, "selfplay: cannot write %s: %s\n", path, strerror(errno));
        pthread_mutex_unlock(&sh->print);
        remove(tmp);
        return -1;
    }
    atomic_fetch_add(&sh->games, games);
    atomic_fetch_add(&sh->samples, n);
    pthread_mutex_lock(&sh->print);
    printf("chunk %d: %d games, %d samples\n", k, games, n);
    fflush(stdout);
    pthread_mutex_unlock(&sh->print);
    return 0;
}

static void *worker(void *arg)
{
    gen_shared *sh = arg;
    dm_engine_options eo = DM_ENGINE_OPTIONS_INIT;
    eo.tt_mib = 16;
    dm_engine *e;
    if (dm_engine_create(&e, &eo) != DM_OK) {
        atomic_store(&sh->failed, 1);
        return NULL;
    }
    dm_engine_set_eval(e, sh->o->eval);
    if (sh->o->variant) {
        dm_engine_set_eval8(e, sh->o->variant->id, sh->o->eval8);
    }
    for (;;) {
        int k = atomic_fetch_add(&sh->next, 1);
        if (k >= sh->o->first_chunk + sh->o->chunks || atomic_load(&sh->failed)) {
            break;
        }
        if ((k - sh->o->first_chunk) % sh->o->ranks != sh->o->rank) {
            continue; /* another process's shard */
        }
        if (run_chunk(k, e, sh) != 0) {
            atomic_store(&sh->failed, 1);
        }
    }
    dm_engine_free(e);
    return NULL;
}

/* ---- --match: two sets of weights at fixed nodes ------------------------------ */

typedef struct match_shared {
    const gen_options *o;
    const dm_eval *ev[2];   /* A, B */
    const dm_eval8 *ev8[2]; /* A, B in an 8x8 variant (NULL: built in) */
    int pairs;
    atomic_int next;
    atomic_int failed;
    pthread_mutex_t lock;
    int penta[5]; /* pairs by A's points x2: 0, 1, 2, 3, 4 half-points */
    int wdl[3];   /* A's wins, draws, losses */
} match_shared;

static void *match_worker(void *arg)
{
    match_shared *ms = arg;
    dm_engine_options eo = DM_ENGINE_OPTIONS_INIT;
    eo.tt_mib = 16;
    dm_engine *e[2] = {NULL, NULL};
    if (dm_engine_create(&e[0], &eo) != DM_OK || dm_engine_create(&e[1], &eo) != DM_OK) {
        atomic_store(&ms->failed, 1);
        dm_engine_free(e[0]);
        return NULL;
    }
    dm_engine_set_eval(e[0], ms->ev[0]);
    dm_engine_set_eval(e[1], ms->ev[1]);
    if (ms->o->variant) {
        dm_engine_set_eval8(e[0], ms->o->variant->id, ms->ev8[0]);
        dm_engine_set_eval8(e[1], ms->o->variant->id, ms->ev8[1]);
    }
    for (;;) {
        int k = atomic_fetch_add(&ms->next, 1);
        if (k >= ms->pairs || atomic_load(&ms->failed)) {
            break;
        }
        uint64_t rng = ms->o->seed + (uint64_t)k * 0x100000001B3ull;
        dm_game *g = NULL;
        for (int tries = 0; !g && tries < 100; tries++) {
            g = random_opening(e[0], &rng, ms->o);
        }
        if (!g) {
            atomic_store(&ms->failed, 1);
            break;
        }
        int half = 0, res[2];
        for (int game = 0; game < 2; game++) {
            dm_game *h = g;
            if (game == 0) {
                /* replay the opening into a second game for the colours swapped */
                if (dm_game_new(&h, dm_game_position_at(g, 0)) != DM_OK) {
                    atomic_store(&ms->failed, 1);
                    break;
                }
                for (int i = 0; i < dm_game_ply(g); i++) {
                    dm_game_play(h, dm_game_move_at(g, i));
                }
            }
            /* game 0: A plays White; game 1: B plays White */
            dm_engine *const side[2] = {game == 0 ? e[0] : e[1], game == 0 ? e[1] : e[0]};
            dm_engine_clear(e[0]);
            dm_engine_clear(e[1]);
            int r = play_out(h, side, NULL, ms->o);
            if (h != g) {
                dm_game_free(h);
            }
            if (r == -2) {
                atomic_store(&ms->failed, 1);
                break;
            }
            res[game] = game == 0 ? r : -r; /* for A */
            half += res[game] + 1;
        }
        dm_game_free(g);
        if (atomic_load(&ms->failed)) {
            break;
        }
        pthread_mutex_lock(&ms->lock);
        ms->penta[half]++;
        for (int i = 0; i < 2; i++) {
            ms->wdl[res[i] > 0 ? 0 : res[i] == 0 ? 1 : 2]++;
        }
        int np = 0;
        for (int i = 0; i < 5; i++) {
            np += ms->penta[i];
        }
        if (np % 10 == 0) {
            printf("pairs %d: A +%d =%d -%d\n", np, ms->wdl[0], ms->wdl[1], ms->wdl[2]);
            fflush(stdout);
        }
        pthread_mutex_unlock(&ms->lock);
    }
    dm_engine_free(e[0]);
    dm_engine_free(e[1]);
    return NULL;
}

/* Elo of a mean score s (0..1). */
static double elo_of(double s)
{
    if (s <= 0) {
        return -999;
    }
    if (s >= 1) {
        return 999;
    }
    return -400.0 * log10(1.0 / s - 1.0);
}

static int load_weights(const char *name, dm_eval **own, const dm_eval **use)
{
    *own = NULL;
    if (!strcmp(name, "builtin")) {
        *use = dm_eval_builtin();
        return 0;
    }
    if (!strcmp(name, "hand")) {
        if (dm_eval_new_hand(own) != DM_OK) {
            return -1;
        }
        *use = *own;
        return 0;
    }
    dm_error err;
    if (dm_eval_load(own, name, &err) != DM_OK) {
        fprintf(stderr, "selfplay: %s\n", err.message);
        return -1;
    }
    *use = *own;
    return 0;
}

/* load_weights for an 8x8 variant v: builtin (NULL: the engine's default), hand or a
 * file of v's weights. */
static int load_weights8(const char *name, dm_variant_id v, dm_eval8 **own, const dm_eval8 **use)
{
    *own = NULL;
    *use = NULL;
    if (!strcmp(name, "builtin")) {
        return 0;
    }
    dm_error err;
    dm_status st =
        !strcmp(name, "hand") ? dm_eval8_new_hand(own, v) : dm_eval8_load(own, name, v, &err);
    if (st != DM_OK) {
        fprintf(stderr, "selfplay: %s\n", strcmp(name, "hand") ? err.message : "no hand weights");
        return -1;
    }
    *use = *own;
    return 0;
}

static int run_match(const gen_options *o, const char *a, const char *b, int pairs)
{
    match_shared ms;
    memset(&ms, 0, sizeof ms);
    dm_eval *own[2] = {NULL, NULL};
    dm_eval8 *own8[2] = {NULL, NULL};
    if (o->variant) {
        if (load_weights8(a, o->variant->id, &own8[0], &ms.ev8[0]) != 0 ||
            load_weights8(b, o->variant->id, &own8[1], &ms.ev8[1]) != 0) {
            dm_eval8_free(own8[0]);
            return 1;
        }
        ms.ev[0] = ms.ev[1] = dm_eval_builtin();
    } else if (load_weights(a, &own[0], &ms.ev[0]) != 0 ||
               load_weights(b, &own[1], &ms.ev[1]) != 0) {
        dm_eval_free(own[0]);
        return 1;
    }
    ms.o = o;
    ms.pairs = pairs;
    atomic_init(&ms.next, 0);
    atomic_init(&ms.failed, 0);
    pthread_mutex_init(&ms.lock, NULL);
    pthread_t th[256];
    int started = 0;
    for (int i = 0; i < o->jobs; i++) {
        if (pthread_create(&th[i], NULL, match_worker, &ms) != 0) {
            break;
        }
        started++;
    }
    for (int i = 0; i < started; i++) {
        pthread_join(th[i], NULL);
    }
    int np = 0;
    double sum = 0, sum2 = 0;
    for (int i = 0; i < 5; i++) {
        np += ms.penta[i];
        double x = i / 4.0; /* the pair's mean score */
        sum += ms.penta[i] * x;
        sum2 += ms.penta[i] * x * x;
    }
    if (np > 0) {
        double mean = sum / np, var = sum2 / np - mean * mean;
        double se = np > 1 ? sqrt(var / (np - 1)) : 0;
        double lo = elo_of(mean - 1.96 * se), hi = elo_of(mean + 1.96 * se);
        printf("match: A=%s B=%s, %s, %d pairs (%d games) at %llu nodes a move\n", a, b,
               o->variant ? o->variant->name : "international", np, 2 * np,
               (unsigned long long)o->nodes);
        printf("A: +%d =%d -%d, score %.1f%%, pairs (0..2 points) %d %d %d %d %d\n", ms.wdl[0],
               ms.wdl[1], ms.wdl[2], 100 * mean, ms.penta[0], ms.penta[1], ms.penta[2], ms.penta[3],
               ms.penta[4]);
        printf("Elo of A - B: %.1f (95%%: %.1f .. %.1f)\n", elo_of(mean), lo, hi);
    }
    pthread_mutex_destroy(&ms.lock);
    dm_eval_free(own[0]);
    dm_eval_free(own[1]);
    dm_eval8_free(own8[0]);
    dm_eval8_free(own8[1]);
    return atomic_load(&ms.failed) || started == 0 ? 1 : 0;
}

static int usage(FILE *f, int status)
{
    fprintf(f,
            "usage: damier selfplay --gen DIR [options]\n"
            "       damier selfplay --match A B [--pairs N] [options]\n"
            "  --match: weights A against weights B (files, builtin or hand), pairs of games\n"
            "  from one random opening with colours swapped, at --nodes a move; prints the\n"
            "  score and Elo of A with its 95%% interval from the pairs (pentanomial).\n"
            "  plays self-play games and writes training samples (docs/EVAL.md) in chunk\n"
            "  files DIR/chunk-KKKKK.dmsp; a restarted run skips the chunks already written.\n"
            "  --chunks N          chunks to play (default 10)\n"
            "  --first-chunk K     index of the first chunk (default 0)\n"
            "  --chunk-games N     games per chunk (default 100)\n"
            "  --nodes N           node budget per move (default 5000)\n"
            "  --random-plies A-B  random plies at the start (default 4-10)\n"
            "  --balance S         keep openings scoring within S at depth 8 (default 80)\n"
            "  --max-plies N       a longer game is a draw (default 300)\n"
            "  --jobs N            games in parallel (default 1)\n"
            "  --seed N            seed of chunk 0 (default 1)\n"
            "  --eval FILE|builtin|hand  the engine's weights (default: built in)\n"
            "  --rank R --ranks N  play only the chunks k with (k - first) %% N == R: one\n"
            "                      process's shard (damier-selfplay-mpi sets them)\n"
            "  --variant NAME      international (default) or an 8x8 variant (russian,\n"
            "                      brazilian, ...): 8x8 samples, 8x8 weights (damier/eval8.h)\n");
    return status;
}

static int parse_int(const char *s, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (!*s || *end || errno || v < lo || v > hi) {
        return -1;
    }
    *out = v;
    return 0;
}

int cmd_selfplay(int argc, char **argv)
{
    gen_options o = {NULL, 10, 0, 100, 1, 300, 4, 10, 80, 0, 1, 5000, 1, NULL, NULL, NULL};
    const char *eval_path = NULL, *match_a = NULL, *match_b = NULL;
    int pairs = 100;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        long v = 0;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            return usage(stdout, 0);
        }
        if (i + 1 >= argc) {
            fprintf(stderr, "selfplay: %s needs a value\n", a);
            return usage(stderr, 2);
        }
        const char *val = argv[++i];
        int bad = 0;
        if (!strcmp(a, "--gen")) {
            o.dir = val;
        } else if (!strcmp(a, "--match")) {
            if (i + 1 >= argc) {
                fprintf(stderr, "selfplay: --match needs two weights\n");
                return 2;
            }
            match_a = val;
            match_b = argv[++i];
        } else if (!strcmp(a, "--pairs")) {
            bad = parse_int(val, 1, 1000000, &v);
            pairs = (int)v;
        } else if (!strcmp(a, "--chunks")) {
            bad = parse_int(val, 1, 1000000, &v);
            o.chunks = (int)v;
        } else if (!strcmp(a, "--first-chunk")) {
            bad = parse_int(val, 0, 99999, &v);
            o.first_chunk = (int)v;
        } else if (!strcmp(a, "--chunk-games")) {
            bad = parse_int(val, 1, 100000, &v);
            o.chunk_games = (int)v;
        } else if (!strcmp(a, "--nodes")) {
            bad = parse_int(val, 1, 1000000000, &v);
            o.nodes = (uint64_t)v;
        } else if (!strcmp(a, "--random-plies")) {
            int lo, hi, len = 0;
            bad = sscanf(val, "%d-%d%n", &lo, &hi, &len) != 2 || val[len] || lo < 0 || hi < lo ||
                  hi > 40;
            if (!bad) {
                o.rand_min = lo;
                o.rand_max = hi;
            }
        } else if (!strcmp(a, "--balance")) {
            bad = parse_int(val, 0, 10000, &v);
            o.balance = (int)v;
        } else if (!strcmp(a, "--max-plies")) {
            bad = parse_int(val, 10, 10000, &v);
            o.max_plies = (int)v;
        } else if (!strcmp(a, "--jobs")) {
            bad = parse_int(val, 1, 256, &v);
            o.jobs = (int)v;
        } else if (!strcmp(a, "--seed")) {
            bad = parse_int(val, 0, 0x7FFFFFFF, &v);
            o.seed = (uint64_t)v;
        } else if (!strcmp(a, "--rank")) {
            bad = parse_int(val, 0, 1000000, &v);
            o.rank = (int)v;
        } else if (!strcmp(a, "--ranks")) {
            bad = parse_int(val, 1, 1000000, &v);
            o.ranks = (int)v;
        } else if (!strcmp(a, "--eval")) {
            eval_path = val;
        } else if (!strcmp(a, "--variant")) {
            dm_error verr;
            const dm_variant *var;
            if (dm_variant_from_name(&var, val, &verr) != DM_OK) {
                fprintf(stderr, "selfplay: %s\n", verr.message);
                return 2;
            }
            if (var->id != DM_VARIANT_INTERNATIONAL && !dm_eval8_supports(var->id)) {
                fprintf(stderr,
                        "selfplay: %s has no trainable evaluation (international or "
                        "an 8x8 variant)\n",
                        var->name);
                return 2;
            }
            o.variant = var->id == DM_VARIANT_INTERNATIONAL ? NULL : var;
        } else {
            fprintf(stderr, "selfplay: unknown option %s\n", a);
            return usage(stderr, 2);
        }
        if (bad) {
            fprintf(stderr, "selfplay: bad value for %s: %s\n", a, val);
            return 2;
        }
    }
    if (match_a) {
        return run_match(&o, match_a, match_b, pairs);
    }
    if (!o.dir) {
        fprintf(stderr, "selfplay: --gen DIR or --match A B is required\n");
        return usage(stderr, 2);
    }
    if (o.rank >= o.ranks) {
        fprintf(stderr, "selfplay: --rank %d is not below --ranks %d\n", o.rank, o.ranks);
        return 2;
    }
    if (o.first_chunk + o.chunks > 100000) {
        fprintf(stderr, "selfplay: chunk indices stop at 99999\n");
        return 2;
    }
    if (mkdir(o.dir, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "selfplay: cannot create %s: %s\n", o.dir, strerror(errno));
        return 1;
    }
    /* The weights that play the games: a file, builtin or hand (the readers of
     * --match), so a generation played with the hand evaluation can be made again. */
    dm_eval *ev = NULL;
    dm_eval8 *ev8 = NULL;
    if (eval_path && o.variant) {
        if (load_weights8(eval_path, o.variant->id, &ev8, &o.eval8) != 0) {
            return 1;
        }
    } else if (eval_path) {
        if (load_weights(eval_path, &ev, &o.eval) != 0) {
            return 1;
        }
    }
    gen_shared sh;
    sh.o = &o;
    atomic_init(&sh.next, o.first_chunk);
    atomic_init(&sh.failed, 0);
    atomic_init(&sh.games, 0);
    atomic_init(&sh.samples, 0);
    pthread_mutex_init(&sh.print, NULL);
    double t0 = cli_now();
    pthread_t th[256];
    int started = 0;
    for (int i = 0; i < o.jobs; i++) {
        if (pthread_create(&th[i], NULL, worker, &sh) != 0) {
            break;
        }
        started++;
    }
    for (int i = 0; i < started; i++) {
        pthread_join(th[i], NULL);
    }
    double dt = cli_now() - t0;
    long long games = atomic_load(&sh.games), samples = atomic_load(&sh.samples);
    if (o.ranks > 1) {
        printf("selfplay: rank %d of %d: ", o.rank, o.ranks);
    } else {
        printf("selfplay: ");
    }
    printf("%lld games, %lld samples in %.1f s (%.0f samples/s)\n", games, samples, dt,
           dt > 0 ? (double)samples / dt : 0.0);
    pthread_mutex_destroy(&sh.print);
    dm_eval_free(ev);
    dm_eval8_free(ev8);
    return atomic_load(&sh.failed) || started == 0 ? 1 : 0;
}
