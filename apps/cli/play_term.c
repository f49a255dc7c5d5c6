/* SPDX-License-Identifier: MIT
 * apps/cli/play_term.c: terminal and signals for `damier play`: which display mode,
 * and Ctrl-C (SIGINT), SIGTERM and SIGHUP turned into a flag so that the game is saved
 * before the program exits (the handler only stores the signal and asks the engine to
 * stop, both async-signal-safe). */
#define _POSIX_C_SOURCE 200809L
#include "play.h"

#include <langinfo.h>
#include <locale.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

/* The only mutable file-scope state of the program: what a signal handler may touch. */
static volatile sig_atomic_t got_signal;
static dm_engine *volatile signal_engine;

static void on_signal(int sig)
{
    got_signal = sig;
    dm_engine *e = signal_engine;
    if (e) {
        dm_engine_stop(e);
    }
}

void play_signals_install(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = 0; /* no SA_RESTART: a blocked poll/read returns EINTR */
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    /* A closed output pipe must not kill the game before it is saved. */
    signal(SIGPIPE, SIG_IGN);
}

int play_interrupted(void)
{
    return got_signal;
}

void play_signals_engine(dm_engine *e)
{
    signal_engine = e;
}

void play_ui_init(play_ui *ui, int force_plain, int no_color)
{
    memset(ui, 0, sizeof *ui);
    ui->numbers = 1;
    ui->review = -1;
    ui->tty = !force_plain && isatty(STDIN_FILENO) && isatty(STDOUT_FILENO);
    if (!ui->tty) {
        return; /* plain mode: ASCII, no escape codes whatever the environment */
    }
    const char *term = getenv("TERM");
    const char *nc = getenv("NO_COLOR"); /* no-color.org: set and not empty */
    ui->color = !no_color && !(nc && *nc) && !(term && !strcmp(term, "dumb"));
    ui->color256 = term && strstr(term, "256") != NULL;
    if (!setlocale(LC_CTYPE, "")) {
        /* a UTF-8 locale named but not installed (zh_CN.UTF-8 never generated): the
         * terminal still speaks UTF-8, and C.UTF-8 is always there */
        const char *v = getenv("LC_ALL");
        v = v && *v ? v : getenv("LC_CTYPE");
        v = v && *v ? v : getenv("LANG");
        if (v &&
            (strstr(v, "UTF-8") || strstr(v, "utf8") || strstr(v, "UTF8") || strstr(v, "utf-8"))) {
            setlocale(LC_CTYPE, "C.UTF-8");
        }
    }
    const char *cs = nl_langinfo(CODESET);
    ui->unicode = cs && (!strcasecmp(cs, "UTF-8") || !strcasecmp(cs, "utf8"));
}
