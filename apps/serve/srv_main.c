/* SPDX-License-Identifier: MIT
 * apps/serve/srv_main.c: `damier serve [--host H] [--port N] [--db FILE] [--static DIR]
 * [--threads N] [--engine-threads N] [--analyses N] [--sync normal|full] [--puzzles FILE]
 * [--egdb DIR] [--pg URL] [--quiet]`:
 * the web board until SIGINT or SIGTERM. */
#define _POSIX_C_SOURCE 200809L
#include "serve.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../cli/commands.h"
#include <damier/egdb.h>

static void usage(FILE *f)
{
    fprintf(f, "usage: damier serve [--host ADDR] [--port N] [--db FILE] [--static DIR]\n"
               "                    [--threads N] [--engine-threads N] [--analyses N]\n"
               "                    [--sync normal|full] [--puzzles FILE] [--egdb DIR]\n"
               "                    [--library PATH] [--webhooks] [--pg URL]\n"
               "                    [--quiet]\n"
               "The web board: play against the engine or a person (game links), analyse,\n"
               "review and upload PDN, in a browser at http://ADDR:N/ (default\n"
               "127.0.0.1:8080). Games are kept in an SQLite file (default\n"
               "$XDG_DATA_HOME/damier/web.sqlite, else ~/.local/share/damier/web.sqlite).\n"
               "--threads: connections served at once (each WebSocket holds one; default\n"
               "256); --sync full: every commit survives a power loss too (slower);\n"
               "--puzzles: the puzzle trainer's puzzles (a file of damier puzzles gen);\n"
               "--egdb DIR: the endgame database the analysis board probes, given once\n"
               "per variant that has them (international, brazilian, russian, english;\n"
               "default: the XDG folder when present; \"\": none);\n"
               "--library PATH: the master games (a PDN file, or a folder read recursively:\n"
               "searched and explored on the page's Library);\n"
               "--webhooks: players may give an http:// URL that the server calls after\n"
               "each move that leaves them to move (off by default);\n"
               "--pg URL: the games in PostgreSQL (\"postgresql://USER@HOST:PORT/DB\"),\n"
               "shared by every server given the same URL, each seeing the others' moves\n"
               "at once; accounts, ratings and puzzles stay in this server's --db file.\n"
               "The API: docs/WEB.md.\n");
}

/* mkdir -p of the folders above path. */
static int make_parents(const char *path)
{
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *p = buf + 1; *p; p++) {
        if (*p == '/') {
            *p = 0;
            if (mkdir(buf, 0700) != 0 && errno != EEXIST) {
                return -1;
            }
            *p = '/';
        }
    }
    return 0;
}

static int default_db(char *buf, size_t cap)
{
    const char *x = getenv("XDG_DATA_HOME");
    const char *home = getenv("HOME");
    if (x && *x) {
        snprintf(buf, cap, "%s/damier/web.sqlite", x);
    } else if (home && *home) {
        snprintf(buf, cap, "%s/.local/share/damier/web.sqlite", home);
    } else {
        return -1;
    }
    return make_parents(buf);
}

static int is_dir(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The page's folder: the source tree's web/, else PREFIX/share/damier/web. */
static void default_static(char *buf, size_t cap)
{
    buf[0] = 0;
#ifdef DM_WEB_DIR
    if (is_dir(DM_WEB_DIR)) {
        snprintf(buf, cap, "%s", DM_WEB_DIR);
        return;
    }
#endif
    char exe[900];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = 0;
        char *slash = strrchr(exe, '/');
        if (slash) {
            *slash = 0;
            snprintf(buf, cap, "%s/../share/damier/web", exe);
            if (!is_dir(buf)) {
                buf[0] = 0;
            }
        }
    }
}

static int int_arg(const char *name, const char *v, int lo, int hi, int *out)
{
    char *end;
    long x = v ? strtol(v, &end, 10) : 0;
    if (!v || !*v || *end || x < lo || x > hi) {
        fprintf(stderr, "damier serve: %s needs a number from %d to %d\n", name, lo, hi);
        return -1;
    }
    *out = (int)x;
    return 0;
}

static void close_egdbs(dm_egdb *db[SRV_EGDB_MAX])
{
    for (int i = 0; i < SRV_EGDB_MAX; i++) {
        dm_egdb_close(db[i]);
        db[i] = NULL;
    }
}

/* The analysis board's databases: the folders of --egdb (n of them; none given: the
 * XDG folder when present), at most one of each variant. Returns 0, or -1 after
 * saying why on stderr (a folder that cannot be opened, two of one variant). */
static int open_egdbs(dm_egdb *db[SRV_EGDB_MAX], const char *const *dirs, int n)
{
    char def[4096];
    const char *one = NULL;
    if (n == 0) {
        one = cli_egdb_engine_dir(NULL, def, sizeof def);
        dirs = &one;
        n = one ? 1 : 0;
    }
    int k = 0;
    for (int i = 0; i < n; i++) {
        const char *use = cli_egdb_engine_dir(dirs[i], def, sizeof def);
        if (!use) {
            continue; /* "" : none */
        }
        if (cli_egdb_open(&db[k], use, "serve") != 0) {
            close_egdbs(db);
            return -1;
        }
        for (int j = 0; j < k; j++) {
            if (dm_egdb_slice_count(db[k]) > 0 && dm_egdb_slice_count(db[j]) > 0 &&
                dm_egdb_variant(db[j]) == dm_egdb_variant(db[k])) {
                fprintf(stderr, "damier serve: --egdb %s: a second folder of %s\n", use,
                        dm_variant_get(dm_egdb_variant(db[k]))->name);
                close_egdbs(db);
                return -1;
            }
        }
        k++;
    }
    return 0;
}

int cmd_serve(int argc, char **argv)
{
    srv_options opt = SRV_OPTIONS_INIT;
    char db[1024] = "", stat_dir[1024] = "";
    const char *egdb_dirs[SRV_EGDB_MAX];
    int negdb = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(a, "--port")) {
            if (int_arg(a, v, 0, 65535, &opt.port)) {
                return 2;
            }
            i++;
        } else if (!strcmp(a, "--host") && v) {
            opt.host = v;
            i++;
        } else if (!strcmp(a, "--db") && v) {
            snprintf(db, sizeof db, "%s", v);
            i++;
        } else if (!strcmp(a, "--static") && v) {
            snprintf(stat_dir, sizeof stat_dir, "%s", v);
            i++;
        } else if (!strcmp(a, "--threads")) {
            if (int_arg(a, v, 4, 8192, &opt.threads)) {
                return 2;
            }
            i++;
        } else if (!strcmp(a, "--engine-threads")) {
            if (int_arg(a, v, 1, 8, &opt.engine_workers)) {
                return 2;
            }
            i++;
        } else if (!strcmp(a, "--analyses")) {
            if (int_arg(a, v, 1, 64, &opt.max_analyses)) {
                return 2;
            }
            i++;
        } else if (!strcmp(a, "--sync") && v && (!strcmp(v, "full") || !strcmp(v, "normal"))) {
            opt.sync_full = !strcmp(v, "full");
            i++;
        } else if (!strcmp(a, "--puzzles") && v) {
            opt.puzzles = v; /* the puzzle trainer's file (srv_puzzles.c) */
            i++;
        } else if (!strcmp(a, "--library") && v) {
            opt.library = v; /* the master games (srv_library.c) */
            i++;
        } else if (!strcmp(a, "--egdb") && v) {
            /* once per variant; "" : none; default: the XDG folder when present */
            if (negdb == SRV_EGDB_MAX) {
                fprintf(stderr, "damier serve: --egdb: at most %d folders (one a variant)\n",
                        SRV_EGDB_MAX);
                return 2;
            }
            egdb_dirs[negdb++] = v;
            i++;
        } else if (!strcmp(a, "--pg") && v) {
            opt.pg_url = v; /* the games shared in PostgreSQL (srv_db_pg.c) */
            i++;
        } else if (!strcmp(a, "--webhooks")) {
            opt.webhooks = 1; /* players' webhook URLs called (srv_webhook.c) */
        } else if (!strcmp(a, "--quiet")) {
            opt.quiet = 1;
        } else {
            fprintf(stderr, "damier serve: unknown or incomplete option '%s'\n", a);
            usage(stderr);
            return 2;
        }
    }
    if (!db[0] && default_db(db, sizeof db) != 0) {
        fprintf(stderr, "damier serve: no database folder (set --db FILE, XDG_DATA_HOME or "
                        "HOME)\n");
        return 2;
    }
    if (!stat_dir[0]) {
        default_static(stat_dir, sizeof stat_dir);
    } else if (!is_dir(stat_dir)) {
        fprintf(stderr, "damier serve: --static %s: not a folder\n", stat_dir);
        return 2;
    }
    if (!stat_dir[0]) {
        fprintf(stderr, "damier serve: the page's files (web/) were not found: give --static "
                        "DIR; the API works without them\n");
    }
    opt.db_path = db;
    opt.static_dir = stat_dir;
    dm_egdb *egdb[SRV_EGDB_MAX] = {NULL};
    if (open_egdbs(egdb, egdb_dirs, negdb) != 0) {
        return 2;
    }
    for (int i = 0; i < SRV_EGDB_MAX; i++) {
        opt.egdb[i] = egdb[i];
    }
    /* A test hook (docs/WEB.md): correspondence games' clock moved on by this many ms,
     * as if that time had passed (a deadline that passes, in the page's tests). */
    const char *off = getenv("DAMIER_SERVE_TEST_CLOCK_OFFSET_MS");
    if (off && *off) {
        opt.clock_offset_ms = strtoll(off, NULL, 10);
    }
    /* A test hook (tests/web/pg_two.mjs): the other servers' moves not listened to. */
    const char *deaf = getenv("DAMIER_SERVE_TEST_DEAF");
    opt.deaf = deaf && !strcmp(deaf, "1");

    /* Signals are taken by this thread only (sigwait): every thread started from here
     * inherits the blocked set. */
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &set, NULL);
    signal(SIGPIPE, SIG_IGN);

    char err[512];
    srv *s = srv_start(&opt, err, sizeof err);
    if (!s) {
        fprintf(stderr, "damier serve: %s\n", err);
        close_egdbs(egdb);
        return 1;
    }
    /* the URL is not printed: it may hold a password */
    printf("damier serve: listening on http://%s:%d/ (database %s%s)\n", opt.host, srv_port(s), db,
           opt.pg_url ? ", games in PostgreSQL" : "");
    fflush(stdout);
    int sig = 0;
    sigwait(&set, &sig);
    if (!opt.quiet) {
        fprintf(stderr, "damier serve: stopping (signal %d)\n", sig);
    }
    srv_stop(s);
    close_egdbs(egdb);
    return 0;
}
