/* SPDX-License-Identifier: MIT
 * apps/cli/play_input.c: what the player types during `damier play`: command words,
 * moves, and a line reader over stdin that lets the clock be watched meanwhile
 * (poll(2) on the descriptor; stdio would hide buffered lines from poll). */
#define _POSIX_C_SOURCE 200809L
#include "cli_i18n.h"
#include "play.h"

#include <ctype.h>
#include <errno.h>
#include <poll.h>
#include <string.h>
#include <strings.h>
#include <stdlib.h>
#include <unistd.h>

#ifdef DM_HAVE_LIBEDIT
#include <editline/readline.h>
#endif

/* Command words. A word taking a file needs exactly one argument; the others none.
 * Everything that is not a command is a move for dm_game_play_text (dm_move_parse). */
static const struct word {
    const char *name;
    play_cmd_kind kind;
    const char *arg; /* what follows ("FILE", "N"), NULL: nothing */
    const char *help;
} words[] = {
    {"hint", PLAY_CMD_HINT, NULL, N_("suggest a move (the engine's best, with its line)")},
    {"undo", PLAY_CMD_UNDO, NULL, N_("take back your last move (and the engine's reply)")},
    {"moves", PLAY_CMD_MOVES, NULL, N_("list the legal moves")},
    {"flip", PLAY_CMD_FLIP, NULL, N_("turn the board around")},
    {"numbers", PLAY_CMD_NUMBERS, NULL, N_("show or hide the square numbers")},
    {"draw", PLAY_CMD_DRAW, NULL, N_("offer a draw (or accept the other player's offer)")},
    {"resign", PLAY_CMD_RESIGN, NULL, N_("resign the game")},
    {"save", PLAY_CMD_SAVE, "FILE", N_("save the game as PDN: save FILE")},
    {"load", PLAY_CMD_LOAD, "FILE", N_("load a PDN game and play on from its end: load FILE")},
    {"board", PLAY_CMD_BOARD, NULL, N_("show the board (plain mode) or redraw it")},
    {"history", PLAY_CMD_HISTORY, NULL, N_("the moves of the game so far")},
    {"level", PLAY_CMD_LEVEL, "N", N_("change the engine's level (1-10): level N")},
    {"engine", PLAY_CMD_ENGINE, NULL, N_("show or hide the engine's line (its score and PV)")},
    {"side", PLAY_CMD_SIDE, NULL, N_("swap sides with the engine (it plays on with yours)")},
    {"help", PLAY_CMD_HELP, NULL, N_("this list")},
    {"quit", PLAY_CMD_QUIT, NULL, N_("stop (the game is saved)")},
};

int play_word_is_not_move(const char *word, size_t len)
{
    if (len < 2) {
        return 0;
    }
    for (size_t i = 0; i < len; i++) {
        if (!isalpha((unsigned char)word[i])) {
            return 0;
        }
    }
    return 1;
}

void play_parse_command(play_cmd *out, const char *line)
{
    memset(out, 0, sizeof *out);
    while (*line && isspace((unsigned char)*line)) {
        line++;
    }
    size_t n = strlen(line);
    while (n > 0 && isspace((unsigned char)line[n - 1])) {
        n--;
    }
    if (n == 0) {
        out->kind = PLAY_CMD_EMPTY;
        return;
    }
    size_t wlen = 0;
    while (wlen < n && !isspace((unsigned char)line[wlen])) {
        wlen++;
    }
    const char *rest = line + wlen;
    while (rest < line + n && isspace((unsigned char)*rest)) {
        rest++;
    }
    size_t rlen = (size_t)(line + n - rest);
    if (wlen == 1 && line[0] == '?') {
        out->kind = PLAY_CMD_HELP;
        return;
    }
    if (wlen == 4 && !strncasecmp(line, "exit", 4) && rlen == 0) {
        out->kind = PLAY_CMD_QUIT;
        return;
    }
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
        if (strlen(words[i].name) != wlen || strncasecmp(line, words[i].name, wlen)) {
            continue;
        }
        if (words[i].arg && rlen == 0) {
            out->kind = PLAY_CMD_BAD;
            snprintf(out->error, sizeof out->error,
                     !strcmp(words[i].arg, "FILE") ? _("%s needs a file name: %s %s")
                                                   : _("%s needs a number: %s %s"),
                     words[i].name, words[i].name, words[i].arg);
            return;
        }
        if (!words[i].arg && rlen > 0) {
            out->kind = PLAY_CMD_BAD;
            snprintf(out->error, sizeof out->error, _("%s takes no argument"), words[i].name);
            return;
        }
        if (rlen >= sizeof out->arg) {
            out->kind = PLAY_CMD_BAD;
            snprintf(out->error, sizeof out->error, "%s", _("file name too long"));
            return;
        }
        out->kind = words[i].kind;
        memcpy(out->arg, rest, rlen);
        out->arg[rlen] = 0;
        return;
    }
    if (play_word_is_not_move(line, wlen)) {
        out->kind = PLAY_CMD_BAD;
        snprintf(out->error, sizeof out->error,
                 _("unknown command '%.*s' (type help for the commands)"),
                 (int)(wlen > 40 ? 40 : wlen), line);
        return;
    }
    out->kind = PLAY_CMD_MOVE;
    if (n >= sizeof out->arg) {
        n = sizeof out->arg - 1;
    }
    memcpy(out->arg, line, n);
    out->arg[n] = 0;
}

void play_print_help(FILE *f, const char *prefix, const char *example)
{
    fputs(prefix, f);
    fprintf(f, _("Type a move in this game's notation, e.g. %s; a capture from and to, with"),
            example);
    fputc('\n', f);
    fprintf(f, "%s%s\n", prefix,
            _("its landing squares in order where two paths differ. Commands:"));
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
        char w[32];
        snprintf(w, sizeof w, "%s%s%s", words[i].name, words[i].arg ? " " : "",
                 words[i].arg ? words[i].arg : "");
        fprintf(f, "%s  %-12s %s\n", prefix, w, _(words[i].help));
    }
}

/* Hand out the first complete line of the buffer, if any. */
static int take_line(play_reader *r, char *line, size_t cap)
{
    char *nl = memchr(r->buf, '\n', r->len);
    if (r->skipping) {
        /* The rest of a line longer than the buffer: never a line of its own. */
        size_t drop = nl ? (size_t)(nl - r->buf) + 1 : r->len;
        memmove(r->buf, r->buf + drop, r->len - drop);
        r->len -= drop;
        if (!nl) {
            return 0;
        }
        r->skipping = 0;
        nl = memchr(r->buf, '\n', r->len);
    }
    size_t n;
    if (nl) {
        n = (size_t)(nl - r->buf);
    } else if (r->eof && r->len > 0) {
        n = r->len; /* last line without a newline */
    } else if (r->len == sizeof r->buf) {
        n = r->len; /* a line longer than the buffer: cut it, drop the rest */
        r->skipping = 1;
    } else {
        return 0;
    }
    size_t copy = n < cap - 1 ? n : cap - 1;
    memcpy(line, r->buf, copy);
    line[copy] = 0;
    if (copy > 0 && line[copy - 1] == '\r') {
        line[copy - 1] = 0;
    }
    size_t used = nl ? n + 1 : n;
    memmove(r->buf, r->buf + used, r->len - used);
    r->len -= used;
    return 1;
}

#ifdef DM_HAVE_LIBEDIT
/* libedit's callback interface hands the finished line to a function without a
 * payload: it lands here (the terminal game reads one line at a time). */
static struct {
    int done;   /* the handler was called */
    char *line; /* its line (malloc'd by libedit), NULL at end of input */
} edited;

static void on_line(char *line)
{
    edited.done = 1;
    edited.line = line;
    rl_callback_handler_remove(); /* no second prompt after this line */
}

/* Read a line through libedit, polling the terminal so that tick runs meanwhile. */
static int read_edited(play_reader *r, FILE *out, const char *prompt, char *line, size_t cap,
                       play_tick_fn tick, void *payload)
{
    static int initialised;
    if (!initialised) {
        rl_catch_signals = 0; /* play_term.c's handlers stay in charge */
        rl_instream = stdin;
        rl_outstream = out;
        initialised = 1;
    }
    edited.done = 0;
    edited.line = NULL;
    /* libedit reads the prompt in the locale's character set and crashes on UTF-8 (a
     * translated prompt) in a one-byte locale: then an ASCII prompt */
    if (prompt && MB_CUR_MAX == 1) {
        for (const char *c = prompt; *c; c++) {
            if ((unsigned char)*c >= 0x80) {
                prompt = "> ";
                break;
            }
        }
    }
    rl_callback_handler_install(prompt ? prompt : "", on_line);
    int result = 0;
    for (;;) {
        if (edited.done) {
            if (!edited.line) {
                r->eof = 1;
                result = 0;
                break;
            }
            snprintf(line, cap, "%s", edited.line);
            if (edited.line[strspn(edited.line, " \t")]) {
                add_history(edited.line);
            }
            free(edited.line);
            result = 1;
            break;
        }
        if (play_interrupted()) {
            result = -1;
            break;
        }
        if (tick && tick(payload)) {
            result = -2;
            break;
        }
        struct pollfd p = {.fd = r->fd, .events = POLLIN};
        int k = poll(&p, 1, tick ? 500 : -1);
        if (k < 0 && errno != EINTR) {
            r->eof = 1;
            result = 0;
            break;
        }
        if (k > 0) {
            rl_callback_read_char();
        }
    }
    if (!edited.done) {
        rl_callback_handler_remove(); /* the terminal back to normal mode */
        fputc('\n', out);
    }
    fflush(out);
    return result;
}

int play_line_editing(void)
{
    return 1;
}
#else
int play_line_editing(void)
{
    return 0;
}
#endif

int play_read_line(play_reader *r, FILE *out, const char *prompt, char *line, size_t cap,
                   play_tick_fn tick, void *payload)
{
#ifdef DM_HAVE_LIBEDIT
    if (r->edit) {
        return read_edited(r, out, prompt, line, cap, tick, payload);
    }
#endif
    if (prompt) {
        fputs(prompt, out);
        fflush(out);
    }
    for (;;) {
        if (take_line(r, line, cap)) {
            return 1;
        }
        if (r->eof) {
            return 0;
        }
        if (play_interrupted()) {
            return -1;
        }
        if (tick && tick(payload)) {
            return -2;
        }
        struct pollfd p = {.fd = r->fd, .events = POLLIN};
        int k = poll(&p, 1, tick ? 500 : -1);
        if (k < 0) {
            if (errno == EINTR) {
                continue;
            }
            r->eof = 1;
            continue;
        }
        if (k == 0) {
            continue;
        }
        ssize_t got = read(r->fd, r->buf + r->len, sizeof r->buf - r->len);
        if (got < 0) {
            if (errno == EINTR || errno == EAGAIN) {
                continue;
            }
            r->eof = 1;
        } else if (got == 0) {
            r->eof = 1;
        } else {
            r->len += (size_t)got;
        }
    }
}
