/* SPDX-License-Identifier: MIT
 * apps/cli/cmd_hub.c: `damier hub`: the Hub protocol (version 2) on stdin/stdout.
 *
 * The main thread reads lines and feeds them to the session state machine
 * (libdamier proto layer), which answers with lines to print and an action. A search
 * runs asynchronously on the Hub session's dm_session (dm_hub_session_go: the
 * library's search thread) so that `stop`,
 * `ping` and `ponder-hit` are read while it thinks; its callbacks print `info` lines
 * and finally `done`. One mutex guards the Hub session and stdout. End of input means
 * quit.
 *
 * Dispatch (the session implements the commands; this file implements actions):
 *   hub / init / set-param / new-game / pos / level / go / ping / stop / ponder-hit
 *   / quit, as described in damier/hub.h and ../shared/docs/hub-protocol.md.
 * Variants (`--variant NAME`, or `set-param name=variant`): the same session and engine
 * search the variant game (the same calls: clock, ponder, threads and hash as for
 * international). */
#define _POSIX_C_SOURCE 200809L
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <damier/egdb.h>
#include <damier/eval.h>
#include <damier/eval8.h>
#include <damier/engine.h>
#include <damier/hub.h>
#include <damier/session.h>
#include <damier/variant.h>

#include "commands.h"

enum {
    HUB_QUEUE = 64
};

typedef struct hub_app {
    dm_hub_session *session;
    dm_session *game;       /* the Hub session's game, whose engine searches */
    pthread_mutex_t lock;   /* session and stdout */
    int game_search;        /* a search was started on game and not waited for */
    atomic_int stop_wanted; /* `stop` was read during this search */
    atomic_int ponderhit_wanted;
    dm_search_input in;
    dm_limits lim;
    atomic_int finished; /* the search thread has printed done */
    /* Lines read ahead while a command waited for the search (see wait_if_busy),
     * to be handled next, in order; malloc'd. */
    char *queue[HUB_QUEUE];
    int qhead, qlen;
    int input_eof; /* end of input was met while reading ahead */
} hub_app;

static void write_locked(hub_app *a, const char *text)
{
    if (*text) {
        fputs(text, stdout);
        fflush(stdout);
    }
    (void)a;
}

/* On the session's search thread (dm_session repeats a stop or ponder-hit that came
 * before the search began). */
static void on_info(const dm_info *info, void *payload)
{
    hub_app *a = payload;
    char line[8192];
    pthread_mutex_lock(&a->lock);
    dm_hub_session_info(a->session, info, line, sizeof line);
    write_locked(a, line);
    pthread_mutex_unlock(&a->lock);
}

static void on_done(const dm_result *r, void *payload)
{
    hub_app *a = payload;
    char line[1024];
    pthread_mutex_lock(&a->lock);
    dm_hub_session_done(a->session, r, line, sizeof line);
    write_locked(a, line);
    pthread_mutex_unlock(&a->lock);
    atomic_store(&a->finished, 1);
}

static void join_search(hub_app *a)
{
    if (a->game_search) {
        dm_session_wait(a->game, NULL);
        a->game_search = 0;
    }
}

static void stop_search(hub_app *a)
{
    atomic_store(&a->stop_wanted, 1);
    dm_session_stop(a->game);
}

/* The protocol allows only ping, stop, ponder-hit and quit during a search. A
 * client that sends its next commands early (or right after `stop`, before `done`)
 * is served anyway: when the search is sure to end (stopped, or limited and not
 * waiting for a ponder-hit), wait for it. While waiting, keep reading: the lines
 * are queued for later, and a `stop` among them stops the search at once, even
 * one sent after a later `go` (that search cannot start before this one ends, so
 * waiting could last for ever: a `level depth=30` search followed by `level` then
 * `stop` used to hang, `stop` unread). stdin is unbuffered, so poll(2) sees every
 * unread line. */
static void wait_if_busy(hub_app *a, const char *line)
{
    int ends = atomic_load(&a->stop_wanted) ||
               (!a->lim.infinite && (!a->lim.ponder || atomic_load(&a->ponderhit_wanted)));
    if (!a->game_search || !ends) {
        return;
    }
    static dm_hub_cmd c;
    if (dm_hub_parse_line(&c, line, NULL) != DM_OK || !*c.name || !strcmp(c.name, "ping") ||
        !strcmp(c.name, "stop") || !strcmp(c.name, "ponder-hit") || !strcmp(c.name, "quit")) {
        return;
    }
    while (!atomic_load(&a->finished) && !a->input_eof && a->qlen < HUB_QUEUE) {
        struct pollfd p = {.fd = STDIN_FILENO, .events = POLLIN};
        if (poll(&p, 1, 20) <= 0) {
            continue; /* timeout or signal: look at the search again */
        }
        char *ahead = NULL;
        size_t cap = 0;
        if (getline(&ahead, &cap, stdin) < 0) {
            free(ahead);
            a->input_eof = 1;
            break;
        }
        a->queue[(a->qhead + a->qlen++) % HUB_QUEUE] = ahead;
        if (dm_hub_parse_line(&c, ahead, NULL) != DM_OK) {
            continue;
        }
        if (!strcmp(c.name, "stop")) {
            stop_search(a);
        }
    }
    join_search(a);
}

/* Feeds "set-param name=NAME value=VALUE" to the session as if the GUI had sent it and
 * copies its answer lines to stderr. Returns nonzero when the answer is an error. */
static int hub_set_param(dm_hub_session *session, const char *name, const char *value)
{
    static char cmd[8192], answer[16384];
    snprintf(cmd, sizeof cmd, "set-param name=%s", name);
    dm_hub_append_pair(cmd, sizeof cmd, "value", value);
    dm_hub_action act;
    dm_hub_session_feed(session, cmd, &act, answer, sizeof answer);
    int error = 0;
    for (char *p = answer, *nl; *p; p = nl + 1) {
        nl = strchr(p, '\n');
        if (!nl) {
            break;
        }
        error |= !strncmp(p, "error", 5);
        fprintf(stderr, "damier hub: %.*s\n", (int)(nl - p), p);
    }
    return error;
}

int cmd_hub(int argc, char **argv)
{
    const char *variant = NULL, *egdb_dir = NULL, *eval_path = NULL, *book = NULL;
    int bad = 0, help = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--variant") && i + 1 < argc) {
            variant = argv[++i];
        } else if (!strncmp(argv[i], "--variant=", 10)) {
            variant = argv[i] + 10;
        } else if (!strcmp(argv[i], "--egdb") && i + 1 < argc) {
            egdb_dir = argv[++i];
        } else if (!strncmp(argv[i], "--egdb=", 7)) {
            egdb_dir = argv[i] + 7;
        } else if (!strcmp(argv[i], "--eval") && i + 1 < argc) {
            eval_path = argv[++i];
        } else if (!strcmp(argv[i], "--book") && i + 1 < argc) {
            book = argv[++i];
        } else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            help = 1;
        } else {
            bad = 1;
        }
    }
    if (bad || help) {
        FILE *f = help && !bad ? stdout : stderr;
        fprintf(
            f,
            "usage: damier hub [--variant NAME] [--egdb DIR] [--eval FILE] [--book FILE]\n  speaks "
            "the Hub "
            "protocol "
            "(version 2) on "
            "stdin/stdout; see ../shared/docs/hub-protocol.md\n"
            "  --variant NAME  start with these rules (%s; or the Hub names\n"
            "                  normal and losing), as set-param name=variant does\n"
            "  --egdb DIR      the engine probes the endgame database there, a folder of\n"
            "                  the session's variant (international, brazilian, russian,\n"
            "                  english), as set-param name=egdb value=DIR does after\n"
            "                  --variant (default: $XDG_DATA_HOME/damier/egdb when present,\n"
            "                  international sessions only; \"\": none)\n"
            "  --eval FILE     evaluation weights (damier train; default: built in)\n"
            "  --book FILE     the opening book: a .dmbk file, builtin or off (the default),\n"
            "                  as set-param name=book value=FILE does\n",
            dm_variant_names());
        return f == stdout ? 0 : 2;
    }
    hub_app a;
    memset(&a, 0, sizeof a);
    dm_engine_options eo = DM_ENGINE_OPTIONS_INIT;
    dm_hub_identity id = {"damier", "0.1", "damier authors", ""};
    if (dm_hub_session_create(&a.session, &id, &eo) != DM_OK) {
        fprintf(stderr, "damier hub: cannot create the session\n");
        return 1;
    }
    a.game = dm_hub_session_game(a.session);
    if (dm_session_prepare_engine(a.game) != DM_OK) { /* not at the first go, on the clock */
        fprintf(stderr, "damier hub: cannot create the engine\n");
        dm_hub_session_free(a.session);
        return 1;
    }
    /* --book FILE|builtin|off, as set-param name=book: a book that cannot be read is a
     * usage error here (the command line asked for it), not a warning. */
    if (book && hub_set_param(a.session, "book", book) != 0) {
        fprintf(stderr, "damier hub: --book %s: not used, stopping\n", book);
        dm_hub_session_free(a.session);
        return 2;
    }
    dm_eval *ev = NULL;
    dm_eval8 *ev8 = NULL;
    if (eval_path && cli_engine_eval(dm_session_engine(a.game), eval_path, "hub", &ev, &ev8) != 0) {
        dm_hub_session_free(a.session);
        return 1;
    }
    if (variant) {
        /* As if the GUI had sent set-param first. */
        char cmd[256];
        static char answer[1024];
        dm_hub_action act;
        snprintf(cmd, sizeof cmd, "set-param name=variant value=\"%.200s\"", variant);
        dm_hub_session_feed(a.session, cmd, &act, answer, sizeof answer);
        if (act != DM_HUB_NEW_GAME) {
            fprintf(stderr, "damier hub: unknown variant '%s' (%s)\n", variant, dm_variant_names());
            dm_hub_session_free(a.session);
            return 2;
        }
    }
    /* The endgame database (--egdb DIR, else the default folder when it exists), as
     * if the GUI had sent set-param name=egdb after the variant: the session owns it,
     * `hub` announces it, a later set-param replaces it. A folder must be of the
     * session's variant (international, brazilian, russian, english); the default
     * folder is the international one, used by international sessions only. Its
     * errors go to stderr; the engine plays on. */
    char egdb_def[4096];
    const char *egdb_use = cli_egdb_engine_dir(egdb_dir, egdb_def, sizeof egdb_def);
    const dm_variant *hv = NULL;
    if (variant && dm_variant_from_name(&hv, variant, NULL) != DM_OK) {
        hv = NULL; /* a Hub name ("normal", "losing"): set-param variant knew it */
    }
    int intl = !variant || !strcmp(variant, "normal") || (hv && hv->id == DM_VARIANT_INTERNATIONAL);
    if (egdb_use && (egdb_dir || intl)) {
        hub_set_param(a.session, "egdb", egdb_use);
    }
    pthread_mutex_init(&a.lock, NULL);
    atomic_init(&a.stop_wanted, 0);
    atomic_init(&a.ponderhit_wanted, 0);
    atomic_init(&a.finished, 1);

    char *line = NULL;
    size_t line_cap = 0;
    static char reply[16384];
    setvbuf(stdin, NULL, _IONBF, 0); /* for wait_if_busy's poll */
    for (;;) {
        char *queued = NULL;
        if (a.qlen > 0) {
            queued = a.queue[a.qhead];
            a.qhead = (a.qhead + 1) % HUB_QUEUE;
            a.qlen--;
            size_t len = strlen(queued);
            if (len >= line_cap) {
                char *grown = realloc(line, len + 1);
                if (!grown) {
                    free(queued);
                    break;
                }
                line = grown;
                line_cap = len + 1;
            }
            memcpy(line, queued, len + 1);
            free(queued);
        } else if (a.input_eof || getline(&line, &line_cap, stdin) < 0) {
            break; /* EOF: the GUI is gone, quit */
        }
        wait_if_busy(&a, line);
        dm_hub_action act;
        pthread_mutex_lock(&a.lock);
        dm_hub_session_feed(a.session, line, &act, reply, sizeof reply);
        write_locked(&a, reply);
        if (act == DM_HUB_SEARCH) {
            join_search(&a); /* the previous search has printed done: it is ending */
            dm_hub_session_search(a.session, &a.in, &a.lim);
            atomic_store(&a.stop_wanted, 0);
            atomic_store(&a.ponderhit_wanted, 0);
            atomic_store(&a.finished, 0);
            dm_error gerr;
            dm_status gst = dm_hub_session_go(a.session, on_info, on_done, &a, &gerr);
            if (gst == DM_OK) {
                a.game_search = 1;
            } else {
                char eline[600] = "error";
                dm_hub_append_pair(eline, sizeof eline, "message", gerr.message);
                fprintf(stdout, "%s\n", eline);
                dm_result none;
                memset(&none, 0, sizeof none);
                dm_hub_session_done(a.session, &none, reply, sizeof reply);
                write_locked(&a, reply); /* never leave the GUI waiting for done */
                atomic_store(&a.finished, 1);
            }
        }
        pthread_mutex_unlock(&a.lock);
        if (act == DM_HUB_QUIT) {
            break;
        } else if (act == DM_HUB_STOP) {
            stop_search(&a);
        } else if (act == DM_HUB_PONDERHIT) {
            atomic_store(&a.ponderhit_wanted, 1);
            dm_session_ponderhit(a.game);
        } else if (act == DM_HUB_NEW_GAME) {
            join_search(&a); /* the session's new game has cleared its engine */
        } else if (act == DM_HUB_OPTIONS) {
            join_search(&a);
            dm_engine_options o;
            dm_hub_session_options(a.session, &o);
            if (dm_session_set_engine_options(a.game, &o) != DM_OK) {
                pthread_mutex_lock(&a.lock);
                write_locked(&a, "error message=\"cannot apply the parameters (out of "
                                 "memory?)\"\n");
                pthread_mutex_unlock(&a.lock);
            }
        }
    }
    free(line);
    while (a.qlen > 0) {
        free(a.queue[a.qhead]);
        a.qhead = (a.qhead + 1) % HUB_QUEUE;
        a.qlen--;
    }
    if (a.game_search) {
        stop_search(&a);
        join_search(&a);
    }
    pthread_mutex_destroy(&a.lock);
    dm_hub_session_free(a.session); /* with the endgame database, after its engine */
    dm_eval_free(ev);
    dm_eval8_free(ev8);
    return 0;
}
