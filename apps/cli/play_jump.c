/* SPDX-License-Identifier: MIT
 * apps/cli/play_jump.c: `damier play --game chinese-checkers|halma|gewu`, the terminal
 * game of the jumping games (damier/jump.h). cmd_play.c calls play_jump_dispatch
 * first; it takes over when argv has --game.
 *
 *   damier play --game G [--players N] [--board 8|10|16|L] [--seats human,engine,...]
 *               [--level N] [--seed N] [--fen POS] [--no-foreign-corner] [--one-throw]
 *               [--plain] [--no-color] [--save-dir DIR]
 *
 * Seats are lettered A..F in turn order (Ge Wu: W, B); each is a human (moves typed
 * as the move text, "111-89-67") or the engine (dm_jsearch at the level's depth; the
 * greedy player at level 1). Ge Wu's throws are drawn by the program (each face 1/4,
 * from --seed) for humans and engine alike; a throw without a legal move is lost, a
 * Chinese checkers or Halma seat without one passes, both said and recorded.
 * Output: on a terminal (both ends, no --plain) the board is drawn before each human
 * move, the star with one colour per seat (ANSI; none with --no-color or NO_COLOR);
 * else one `key: value` line per event: game:, seats:, fen:, turn:, throw:, move:,
 * engine:, pass:, lost:, moves:, undo:, error:, board:, help:, result:, saved:.
 * The game is saved as a record (docs/JUMPING.md) after every action and at the end,
 * in the save folder (as the draughts game: $XDG_DATA_HOME/damier/games), and with
 * `save FILE`. A game reaches its end when a seat has won or after the no-progress
 * limit (PJ_MAX_ACTIONS actions: ended without a winner). */
#define _POSIX_C_SOURCE 200809L
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <damier/jump.h>

#include "cli_i18n.h"
#include "play.h"

#define PJ_MAX_ACTIONS 3000

typedef struct pj_game {
    dm_jrules r;
    dm_jpos start;
    dm_jpos pos[PJ_MAX_ACTIONS + 1]; /* pos[i]: before action i */
    dm_jaction acts[PJ_MAX_ACTIONS];
    int n;
    int who[DM_JMAX_PLAYERS]; /* PLAY_HUMAN / PLAY_ENGINE */
    int level;
    uint64_t rng;
    int tty, color;
    int over;
    char save_dir[PATH_MAX];
    char save_path[PATH_MAX];
    long long started;
    play_reader rd;
    FILE *out;
    dm_jendgame eg; /* the last pegs' tables of the engine (levels 2..7) */
} pj_game;

static pj_game G; /* large: not on the stack; one game per process */

static void say(pj_game *g, const char *key, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static void say(pj_game *g, const char *key, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    /* on a terminal the events are sentences ("B plays 10-21"); the rest keep
     * their key there too */
    static const char *const sentences[] = {"move", "engine", "pass", "lost", "throw"};
    int sentence = 0;
    for (size_t i = 0; i < sizeof sentences / sizeof sentences[0]; i++) {
        sentence |= !strcmp(key, sentences[i]);
    }
    if (!g->tty || !sentence) {
        fprintf(g->out, "%s: ", key);
    }
    vfprintf(g->out, fmt, ap);
    fputc('\n', g->out);
    va_end(ap);
    fflush(g->out);
}

static char seat_letter(const pj_game *g, int s)
{
    return g->r.game == DM_JGAME_GEWU ? (s ? 'B' : 'W') : (char)('A' + s);
}

static const char *const colour_names[DM_JMAX_PLAYERS] = {N_("red"),    N_("blue"),    N_("green"),
                                                          N_("yellow"), N_("magenta"), N_("cyan")};
static const int colour_codes[DM_JMAX_PLAYERS] = {31, 34, 32, 33, 35, 36};
static const char *const face_names[4] = {N_("wu (五, the turn passes)"), N_("sai (塞, 1 step)"),
                                          N_("bai (白, 2 steps)"), N_("hei (黑, 3 steps)")};

/* The game's name on the screen (the plain output and the records keep
 * dm_jgame_name's). */
static const char *game_title(dm_jgame game)
{
    return game == DM_JGAME_CHINESE ? _("Chinese checkers")
           : game == DM_JGAME_HALMA ? _("Halma")
                                    : _("Ge Wu");
}

static void usage(FILE *f)
{
    fprintf(f, "usage: damier play --game chinese-checkers|halma|gewu [options]\n"
               "  --players N           chinese-checkers 2, 3, 4, 6; halma 2 or 4 (16x16)\n"
               "  --board N             halma 8, 10 or 16 (default); gewu lane length 12..64\n"
               "  --seats S,S,...       human or engine per seat in turn order (A, B, ...;\n"
               "                        gewu W, B); default: human, then engines\n"
               "  --level N             engine strength 1..10 (1 greedy; then search depth N/2,\n"
               "                        at most 3 plies with 3+ players, 4 throws in gewu)\n"
               "  --seed N              the throws of gewu (default: from the clock)\n"
               "  --fen POS             start from a position string\n"
               "  --no-foreign-corner   chinese-checkers house rule (docs/JUMPING.md)\n"
               "  --one-throw           gewu: one throw per turn\n"
               "  --options LIST        house rules, ',' between: no-foreign-corner, one-throw,\n"
               "                        fifteen, anti-spoil, super-jump, capture, leave-camp\n"
               "  --plain               plain line output even on a terminal\n"
               "  --no-color            no ANSI colours\n"
               "  --save-dir DIR        where games are saved automatically\n"
               "Commands: a move (112-103, 111-89-67), moves, hint, undo, board, save FILE,\n"
               "help, quit.\n");
}

/* ---- drawing ------------------------------------------------------------------ */

static int owner(const pj_game *g, const dm_jpos *p, int sq)
{
    for (int s = 0; s < g->r.players; s++) {
        if ((p->pieces[s].w[sq >> 6] >> (sq & 63)) & 1) {
            return s;
        }
    }
    return -1;
}

/* The board as text lines with prefix before each. The star: 17 rows of holes, the
 * number of each row's first and last hole at its ends; Halma: ranks and files; Ge
 * Wu: the lane with its numbers below. Pegs are seat letters, coloured with colour. */
static void draw(pj_game *g, const char *prefix, int colour)
{
    const dm_jrules *r = &g->r;
    const dm_jpos *p = &g->pos[g->n];
    int rows = r->game == DM_JGAME_CHINESE ? 17 : r->game == DM_JGAME_HALMA ? r->size : 1;
    for (int row = 0; row < rows; row++) {
        char line[1024];
        size_t len = 0;
        int first = -1, last = -1, cols = r->game == DM_JGAME_CHINESE ? 25 : r->size;
        int cell[64];
        for (int c = 0; c < cols; c++) {
            cell[c] = -1;
        }
        for (int sq = 0; sq < r->squares; sq++) {
            if (r->row[sq] == row) {
                cell[r->col[sq]] = sq;
                first = first < 0 ? sq : first;
                last = sq;
            }
        }
        if (r->game == DM_JGAME_CHINESE) {
            len += (size_t)snprintf(line + len, sizeof line - len, "%4d ", first + 1);
        } else if (r->game == DM_JGAME_HALMA) {
            len += (size_t)snprintf(line + len, sizeof line - len, "%3d ", r->size - row);
        }
        for (int c = 0; c < cols; c++) {
            int sq = cell[c];
            const char *pad = r->game == DM_JGAME_CHINESE ? "" : " ";
            if (sq < 0) {
                len += (size_t)snprintf(line + len, sizeof line - len, "%s ", pad);
                continue;
            }
            int s = owner(g, p, sq);
            if (s < 0) {
                len += (size_t)snprintf(line + len, sizeof line - len, "%s.", pad);
            } else if (colour) {
                len += (size_t)snprintf(line + len, sizeof line - len, "%s\033[1;%dm%c\033[0m", pad,
                                        colour_codes[s], seat_letter(g, s));
            } else {
                len +=
                    (size_t)snprintf(line + len, sizeof line - len, "%s%c", pad, seat_letter(g, s));
            }
        }
        if (r->game == DM_JGAME_CHINESE) {
            len += (size_t)snprintf(line + len, sizeof line - len, "  %d", last + 1);
        }
        fprintf(g->out, "%s%s\n", prefix, line);
    }
    if (r->game == DM_JGAME_HALMA) {
        char line[256];
        size_t len = (size_t)snprintf(line, sizeof line, "    ");
        for (int c = 0; c < r->size; c++) {
            len += (size_t)snprintf(line + len, sizeof line - len, " %c", 'a' + c);
        }
        fprintf(g->out, "%s%s\n", prefix, line);
    } else if (r->game == DM_JGAME_GEWU) {
        char line[512];
        size_t len = 0;
        for (int c = 0; c < r->size; c++) {
            len += (size_t)snprintf(line + len, sizeof line - len, "%2d", (c + 1) % 100);
        }
        fprintf(g->out, "%s%s\n", prefix, line);
    }
}

/* ---- saving ------------------------------------------------------------------- */

static int record_text(pj_game *g, char **text, size_t *len)
{
    char date[32], seat_tags[DM_JMAX_PLAYERS][8], seat_vals[DM_JMAX_PLAYERS][32];
    time_t t0 = (time_t)g->started;
    struct tm tm;
    localtime_r(&t0, &tm);
    strftime(date, sizeof date, "%Y.%m.%d", &tm);
    static char event[] = "Event", casual[] = "Casual game", site[] = "Site",
                site_v[] = "damier play", date_tag[] = "Date";
    dm_jrecord_tag tags[3 + DM_JMAX_PLAYERS] = {{event, casual}, {site, site_v}, {date_tag, date}};
    int nt = 3;
    for (int s = 0; s < g->r.players; s++) {
        snprintf(seat_tags[s], sizeof seat_tags[s], "Seat%c", 'A' + s);
        if (g->who[s] == PLAY_ENGINE) {
            snprintf(seat_vals[s], sizeof seat_vals[s], "damier level %d", g->level);
        } else {
            snprintf(seat_vals[s], sizeof seat_vals[s], "Human");
        }
        tags[nt++] = (dm_jrecord_tag){seat_tags[s], seat_vals[s]};
    }
    char res[32];
    dm_jresult_text(res, sizeof res, &g->r, &g->pos[g->n], g->over);
    dm_jrecord *rec;
    if (dm_jrecord_build(&rec, &g->r, &g->start, g->acts, g->n, tags, nt, res) != DM_OK) {
        say(g, "error", "cannot build the game record (out of memory)");
        return 0;
    }
    dm_status st = dm_jrecord_write(text, len, rec);
    dm_jrecord_free(rec);
    if (st != DM_OK) {
        say(g, "error", "cannot write the game record: %s", dm_status_str(st));
        return 0;
    }
    return 1;
}

static int save_file(pj_game *g, const char *path)
{
    char *text = NULL;
    size_t len = 0;
    if (!record_text(g, &text, &len)) {
        return 0;
    }
    dm_error err;
    dm_status st = play_write_file(path, text, len, &err);
    free(text);
    if (st != DM_OK) {
        say(g, "error", "cannot save %s: %s", path, err.message);
        return 0;
    }
    return 1;
}

static void autosave(pj_game *g)
{
    if ((g->n == 0 && !g->over) || !g->save_dir[0]) {
        return;
    }
    if (g->save_path[0]) {
        save_file(g, g->save_path);
        return;
    }
    dm_error err;
    play_make_dirs(g->save_dir, &err);
    time_t t0 = (time_t)g->started;
    struct tm tm;
    localtime_r(&t0, &tm);
    char stamp[32], base[80];
    strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
    snprintf(base, sizeof base, "%s-%s", stamp, dm_jgame_name(g->r.game));
    char *text = NULL;
    size_t len = 0;
    if (!record_text(g, &text, &len)) {
        return;
    }
    if (play_create_file(g->save_path, sizeof g->save_path, g->save_dir, base, text, len, &err) !=
        DM_OK) {
        g->save_path[0] = 0;
        say(g, "error", "automatic save failed: %s", err.message);
    }
    free(text);
}

/* ---- playing ------------------------------------------------------------------ */

static unsigned next_rand(pj_game *g)
{
    g->rng ^= g->rng << 13;
    g->rng ^= g->rng >> 7;
    g->rng ^= g->rng << 17;
    return (unsigned)(g->rng >> 17);
}

/* The round (move number of the records: seat A's turns) of action i. */
static int round_of(const pj_game *g, int i)
{
    int round = 1;
    for (int k = 1; k <= i; k++) {
        round += g->pos[k].to_move == 0 && g->pos[k - 1].to_move != 0;
    }
    return round;
}

/* Play a (legal in the current position) and say what it was. */
static void play_action(pj_game *g, const dm_jaction *a, const char *key)
{
    char text[DM_JMAX_PATH * 5 + 16];
    const dm_jpos *p = &g->pos[g->n];
    dm_jaction_to_text(text, sizeof text, &g->r, p, a);
    char who = seat_letter(g, p->to_move);
    if (a->kind == DM_JACT_PASS) {
        say(g, "pass", g->tty ? _("%c has no legal move and passes") : "%c", who);
    } else if (a->kind == DM_JACT_LOST) {
        say(g, "lost", g->tty ? _("%c cannot play the throw: it is lost") : "%c", who);
    } else if (a->kind == DM_JACT_MOVE) {
        say(g, key, g->tty ? _("%c plays %s") : "%c %s", who, text);
    }
    g->pos[g->n + 1] = *p;
    dm_jaction_apply(&g->pos[g->n + 1], &g->r, a);
    g->acts[g->n] = *a;
    g->n++;
}

/* Ge Wu: draw the throw for the side to move into a->face and say it. */
static void gewu_throw(pj_game *g, dm_jaction *a)
{
    static const char *const short_names[4] = {"wu", "sai", "bai", "hei"};
    a->face = (int)(next_rand(g) % 4);
    char who = seat_letter(g, g->pos[g->n].to_move);
    if (g->tty) {
        say(g, "throw", _("%c throws %s"), who, _(face_names[a->face]));
    } else {
        say(g, "throw", "%c %s", who, short_names[a->face]);
    }
}

/* The engine's move (or the greedy one at level 1) in q; 0 when q has none. At levels
 * 2 to 7 (1 to 3 plies), a race with at most 3 pegs outside the engine's target is
 * played from the last pegs' table (dm_jendgame_move): measured better there, not at
 * level 10, whose search beats the table's held target pegs (BENCHMARKS.md). */
static int engine_move(pj_game *g, const dm_jpos *q, dm_jmove *m)
{
    int table = g->level >= 2 && g->level <= 7;
    return dm_jengine_move_eg(&g->r, q, g->level, table ? &g->eg : NULL, m);
}

static void list_moves(pj_game *g, const dm_jpos *q, const char *key)
{
    static dm_jmovelist list;
    dm_jmovegen(&list, &g->r, q);
    static char buf[1 << 16];
    size_t len = 0;
    buf[0] = 0;
    for (int i = 0; i < list.count && len + 400 < sizeof buf; i++) {
        char mv[DM_JMAX_PATH * 5];
        dm_jmove_to_text(mv, sizeof mv, &g->r, q, &list.moves[i]);
        len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%s", i ? " " : "", mv);
    }
    say(g, key, "%s", list.count ? buf : "(none)");
}

static void trim(char *s)
{
    size_t n = strlen(s);
    while (n > 0 && (s[n - 1] == '\r' || s[n - 1] == ' ' || s[n - 1] == '\t')) {
        s[--n] = 0;
    }
    size_t k = 0;
    while (s[k] == ' ' || s[k] == '\t') {
        k++;
    }
    memmove(s, s + k, n - k + 1);
}

/* One human action in q (the throw already made for Ge Wu, in face). Returns 1 when
 * an action was played, 0 to stop (quit, end of input), 2 after undo. */
static int human(pj_game *g, int face)
{
    char line[1024];
    for (;;) {
        dm_jpos q = g->pos[g->n];
        if (face > 0) {
            dm_gewu_throw(&q, &g->r, (dm_gewu_face)face);
        }
        char prompt[64];
        int s = q.to_move;
        if (g->tty) {
            draw(g, "", g->color);
            snprintf(prompt, sizeof prompt, _("%c (%s) to move> "), seat_letter(g, s),
                     g->color ? _(colour_names[s]) : _("human"));
        } else {
            say(g, "turn", "%d %c", round_of(g, g->n), seat_letter(g, s));
            prompt[0] = 0;
        }
        int got = play_read_line(&g->rd, g->out, prompt[0] ? prompt : NULL, line, sizeof line, NULL,
                                 NULL);
        if (got <= 0) {
            return 0;
        }
        trim(line);
        if (!line[0]) {
            continue;
        }
        if (!strcmp(line, "quit") || !strcmp(line, "exit")) {
            return 0;
        }
        if (!strcmp(line, "help")) {
            say(g, "help", _("a move (%s), moves, hint, undo, board, save FILE, quit"),
                g->r.game == DM_JGAME_HALMA  ? "a1-b2, c3-e3-e5"
                : g->r.game == DM_JGAME_GEWU ? "5-6-7"
                                             : "112-103, 111-89-67");
            continue;
        }
        if (!strcmp(line, "moves")) {
            list_moves(g, &q, "moves");
            continue;
        }
        if (!strcmp(line, "board")) {
            draw(g, g->tty ? "" : "board: ", g->tty && g->color);
            continue;
        }
        if (!strcmp(line, "hint")) {
            dm_jmove m;
            char text[DM_JMAX_PATH * 5];
            if (engine_move(g, &q, &m)) {
                dm_jmove_to_text(text, sizeof text, &g->r, &q, &m);
                say(g, "hint", "%s", text);
            } else {
                say(g, "hint", "(no move)");
            }
            continue;
        }
        if (!strcmp(line, "undo")) {
            int target = g->n - 1;
            while (target >= 0 && g->who[g->pos[target].to_move] != PLAY_HUMAN) {
                target--;
            }
            if (target < 0) {
                say(g, "error", "%s", _("nothing to undo"));
                continue;
            }
            g->n = target;
            say(g, "undo", _("back to move %d, %c to move"), round_of(g, g->n),
                seat_letter(g, g->pos[g->n].to_move));
            return 2;
        }
        if (!strncmp(line, "save", 4) && (line[4] == ' ' || line[4] == 0)) {
            const char *path = line + 4;
            while (*path == ' ') {
                path++;
            }
            if (!*path) {
                say(g, "error", "%s", _("save needs a file name: save FILE"));
            } else if (save_file(g, path)) {
                say(g, "saved", "%s", path);
            }
            continue;
        }
        dm_jaction a;
        dm_error err;
        if (dm_jaction_from_text(&a, &g->r, &q, line, &err) != DM_OK) {
            say(g, "error", "%s", err.message);
            continue;
        }
        a.face = face;
        play_action(g, &a, "move");
        return 1;
    }
}

/* One action of the seat to move. Returns 0 to stop. */
static int turn(pj_game *g)
{
    const dm_jpos *p = &g->pos[g->n];
    dm_jaction a = {DM_JACT_MOVE, -1, {0, 0}};
    dm_jpos q = *p;
    if (g->r.game == DM_JGAME_GEWU) {
        if (!p->throw_steps) {
            gewu_throw(g, &a);
            if (a.face == DM_GEWU_WU) {
                a.kind = DM_JACT_NONE;
                play_action(g, &a, "move");
                return 1;
            }
            dm_gewu_throw(&q, &g->r, (dm_gewu_face)a.face);
        }
    }
    static dm_jmovelist list;
    if (dm_jmovegen(&list, &g->r, &q) == 0) {
        a.kind = g->r.game == DM_JGAME_GEWU ? DM_JACT_LOST : DM_JACT_PASS;
        play_action(g, &a, "move");
        return 1;
    }
    if (g->who[p->to_move] == PLAY_HUMAN) {
        return human(g, a.face);
    }
    if (!engine_move(g, &q, &a.move)) {
        return 0;
    }
    play_action(g, &a, "engine");
    return 1;
}

static int parse_seats(pj_game *g, const char *text)
{
    int n = 0;
    const char *s = text;
    while (*s) {
        size_t k = strcspn(s, ",");
        if (n >= g->r.players) {
            fprintf(stderr, "damier play: --seats: more seats than the %d players\n", g->r.players);
            return 0;
        }
        if (k == 5 && !strncmp(s, "human", 5)) {
            g->who[n++] = PLAY_HUMAN;
        } else if (k == 6 && !strncmp(s, "engine", 6)) {
            g->who[n++] = PLAY_ENGINE;
        } else {
            fprintf(stderr, "damier play: --seats: '%.*s' is neither human nor engine\n", (int)k,
                    s);
            return 0;
        }
        s += k + (s[k] == ',');
    }
    if (n != g->r.players) {
        fprintf(stderr, "damier play: --seats: %d seats given for %d players\n", n, g->r.players);
        return 0;
    }
    return 1;
}

static int run(int argc, char **argv)
{
    static const struct option opts[] = {{"game", required_argument, 0, 'g'},
                                         {"players", required_argument, 0, 'p'},
                                         {"board", required_argument, 0, 'b'},
                                         {"seats", required_argument, 0, 's'},
                                         {"level", required_argument, 0, 'l'},
                                         {"seed", required_argument, 0, 'S'},
                                         {"fen", required_argument, 0, 'f'},
                                         {"no-foreign-corner", no_argument, 0, 'c'},
                                         {"one-throw", no_argument, 0, 't'},
                                         {"options", required_argument, 0, 'o'},
                                         {"plain", no_argument, 0, 'P'},
                                         {"no-color", no_argument, 0, 'C'},
                                         {"save-dir", required_argument, 0, 'd'},
                                         {"help", no_argument, 0, 'h'},
                                         {0, 0, 0, 0}};
    pj_game *g = &G;
    memset(g, 0, sizeof *g);
    const char *game_name = NULL, *seats = NULL, *fen = NULL, *save_dir = NULL;
    int players = 2, size = 0, plain = 0, no_color = 0, have_seed = 0, c;
    unsigned options = 0;
    unsigned long long seed = 0;
    g->level = 5;
    optind = 1;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        char *end;
        switch (c) {
            case 'g':
                game_name = optarg;
                break;
            case 'p':
                players = (int)strtol(optarg, &end, 10);
                if (*end || !*optarg) {
                    fprintf(stderr, "damier play: --players wants a number\n");
                    return 2;
                }
                break;
            case 'b':
                size = (int)strtol(optarg, &end, 10);
                if (*end || !*optarg) {
                    fprintf(stderr, "damier play: --board wants a number\n");
                    return 2;
                }
                break;
            case 's':
                seats = optarg;
                break;
            case 'l':
                g->level = (int)strtol(optarg, &end, 10);
                if (*end || g->level < 1 || g->level > 10) {
                    fprintf(stderr, "damier play: --level wants 1..10\n");
                    return 2;
                }
                break;
            case 'S':
                seed = strtoull(optarg, &end, 10);
                if (*end || !*optarg) {
                    fprintf(stderr, "damier play: --seed wants a number\n");
                    return 2;
                }
                have_seed = 1;
                break;
            case 'f':
                fen = optarg;
                break;
            case 'c':
            case 't':
            case 'o':
                if (jump_rule_option(c, optarg, &options) != 0) {
                    return 2;
                }
                break;
            case 'P':
                plain = 1;
                break;
            case 'C':
                no_color = 1;
                break;
            case 'd':
                save_dir = optarg;
                break;
            case 'h':
                usage(stdout);
                return 0;
            default:
                usage(stderr);
                return 2;
        }
    }
    if (optind != argc) {
        usage(stderr);
        return 2;
    }
    dm_jgame game;
    dm_error err;
    if (dm_jgame_from_name(&game, game_name, &err) != DM_OK ||
        dm_jrules_init(&g->r, game, players, size, options, &err) != DM_OK) {
        fprintf(stderr, "damier play: %s\n", err.message);
        return 2;
    }
    dm_jpos_start(&g->start, &g->r);
    if (fen && dm_jpos_from_text(&g->start, &g->r, fen, &err) != DM_OK) {
        fprintf(stderr, "damier play: --fen: %s\n  %s\n  %*s^\n", err.message, fen,
                err.column > 0 ? err.column - 1 : 0, "");
        return 2;
    }
    for (int s = 0; s < g->r.players; s++) {
        g->who[s] = s == 0 ? PLAY_HUMAN : PLAY_ENGINE;
    }
    if (seats && !parse_seats(g, seats)) {
        return 2;
    }
    g->pos[0] = g->start;
    g->out = stdout;
    g->tty = !plain && isatty(0) && isatty(1);
    const char *nc = getenv("NO_COLOR");
    g->color = g->tty && !no_color && !(nc && *nc);
    g->started = (long long)time(NULL);
    g->rng = have_seed ? seed : (uint64_t)g->started;
    g->rng = g->rng * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull;
    if (!g->rng) {
        g->rng = 1;
    }
    if (save_dir) {
        snprintf(g->save_dir, sizeof g->save_dir, "%s", save_dir);
    } else if (!play_default_save_dir(g->save_dir, sizeof g->save_dir, &err)) {
        g->save_dir[0] = 0;
    }
    play_signals_install();
    g->rd.fd = 0;
    g->rd.edit = g->tty && isatty(STDIN_FILENO);
    char fenbuf[640];
    dm_jpos_to_text(fenbuf, sizeof fenbuf, &g->r, &g->start);
    if (g->tty) {
        fprintf(g->out, _("damier: %s, %d players%s (help for the commands)\n"), game_title(game),
                g->r.players, g->color ? "" : _(" (no colours)"));
        for (int s = 0; s < g->r.players; s++) {
            fprintf(g->out, "  %c  %-8s %s\n", seat_letter(g, s),
                    g->color ? _(colour_names[s]) : "",
                    g->who[s] == PLAY_ENGINE ? _("engine") : _("human"));
        }
    } else {
        say(g, "game", "%s players %d", dm_jgame_name(game), g->r.players);
        char buf[128];
        size_t len = 0;
        for (int s = 0; s < g->r.players; s++) {
            len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%s", s ? " " : "",
                                    g->who[s] == PLAY_ENGINE ? "engine" : "human");
        }
        say(g, "seats", "%s", buf);
        say(g, "fen", "%s", fenbuf);
    }
    int rc = 0;
    dm_jendgame_init(&g->eg, 3);
    for (;;) {
        int w = dm_jpos_winner(&g->pos[g->n], &g->r);
        /* the library's no-progress rule over the game so far (walked again each turn,
         * so that undo needs no counter of its own) */
        dm_jprogress pr;
        int stalled = 0;
        dm_jprogress_init(&pr, &g->r, &g->pos[0]);
        for (int i = 1; i <= g->n && !stalled; i++) {
            stalled = dm_jprogress_step(&pr, &g->r, &g->pos[i]);
        }
        if (w >= 0 || stalled || g->n >= PJ_MAX_ACTIONS) {
            g->over = 1;
            char res[32];
            dm_jresult_text(res, sizeof res, &g->r, &g->pos[g->n], 1);
            if (g->tty) {
                draw(g, "", g->color);
            }
            if (w >= 0) {
                say(g, "result", _("%s %c wins"), res, seat_letter(g, w));
            } else if (stalled) {
                say(g, "result", _("%s no winner: %d rounds without progress (no-progress rule)"),
                    res, DM_JNO_PROGRESS_ROUNDS);
            } else {
                say(g, "result", _("%s no winner after %d actions (no-progress limit)"), res, g->n);
            }
            break;
        }
        int k = turn(g);
        if (k == 0) {
            break;
        }
        autosave(g);
        if (play_interrupted()) {
            break;
        }
    }
    autosave(g);
    if (g->save_path[0]) {
        say(g, "saved", "%s", g->save_path);
    }
    dm_jendgame_free(&g->eg);
    return rc;
}

int play_jump_dispatch(int argc, char **argv, int *handled)
{
    *handled = cmd_has_game_option(argc, argv);
    return *handled ? run(argc, argv) : 0;
}
