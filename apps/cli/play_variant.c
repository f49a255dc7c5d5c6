/* SPDX-License-Identifier: MIT
 * apps/cli/play_variant.c: `damier play --variant NAME` for the variants other than
 * international (Brazilian, Russian, English checkers, Canadian, antidraughts, Czech,
 * Italian, killer, breakthrough, Spanish, pool, Thai): the generic rules core (variant.h)
 * and the engine (dm_engine_search_variant). International
 * keeps its own path (cmd_play.c); cmd_play calls play_variant_dispatch first and
 * continues only when the variant is international.
 *
 * A simpler game than the international one: no clocks, no handicap, no draw offers,
 * no load. Output: in plain mode (stdin or stdout not a terminal, or --plain) the
 * same `key: value` lines as the international game (white:, black:, variant:,
 * seed:, fen:, turn:, move:, engine:, hint:, moves:, undo:, error:, board:, help:,
 * result:, saved:); on a terminal the board is printed before each human move.
 * The game itself is a dm_game of the variant (dm_game_new_variant): moves, undo,
 * resignation, the result (no legal move: a loss, in antidraughts a win; the first
 * king in breakthrough) and the variant's draw rules with their reason; its PDN
 * record (dm_pdn_from_game, the variant's GameType) is saved after every move and at
 * the end. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <damier/game.h>
#include <damier/pdn.h>
#include <damier/variant.h>
#include <damier/engine.h>

#include "cli_i18n.h"
#include "play.h"

#define PV_MAX_PLIES 1024

typedef struct pv_game {
    const dm_variant *v;
    dm_game *game; /* the game: positions, moves, undo, the variant's ends and draws */
    int who[2];    /* PLAY_HUMAN / PLAY_ENGINE */
    int depth;
    double move_time;
    int tty;
    int too_long; /* stopped at PV_MAX_PLIES */
    char save_dir[PATH_MAX];
    char save_path[PATH_MAX];
    long long started;
    dm_engine *engine;
    FILE *out;
} pv_game;

static void pv_usage(FILE *f)
{
    fprintf(f,
            "usage: damier play --variant NAME [options]\n"
            "  NAME: %s (international has the full game, see damier play --help)\n"
            "  --white / --black     your side (default white; the engine plays the other)\n"
            "  --level N             engine strength 1..10 (depth 1+N, at most N/2 s a move)\n"
            "  --depth N             fixed search depth (deterministic)\n"
            "  --seed N              accepted for symmetry; the variant engine is deterministic\n"
            "  --fen FEN             start from a position in the variant's FEN\n"
            "  --human-vs-human      two players at one keyboard\n"
            "  --auto                the engine plays both sides\n"
            "  --plain               plain line output even on a terminal\n"
            "  --no-color            accepted (the variant board has no colours)\n"
            "  --save-dir DIR        where games are saved automatically\n"
            "Commands: a move, moves, hint, undo, board, resign, save FILE, help, quit.\n",
            dm_variant_names());
}

static const char *side_name(int c)
{
    return c == DM_WHITE ? "white" : "black";
}

static void move_text(char *buf, size_t cap, const dm_vboard *b, const dm_vmove *m)
{
    dm_vmove_to_text(buf, cap, b, m, DM_NOTATION_PDN, DM_VSQUARES_DEFAULT);
}

/* The current position. */
static const dm_vboard *cur(const pv_game *g)
{
    return dm_game_position(g->game);
}

static int over(const pv_game *g)
{
    return g->too_long || dm_game_over(g->game);
}

/* "3." or "3..." for ply i (counted from the first mover). */
static void ply_number(char *buf, size_t cap, const pv_game *g, int i)
{
    /* A position with the second mover to move starts at "1...". */
    int first = (int)g->v->first;
    int offset = dm_game_position_at(g->game, 0)->side == first ? 0 : 1;
    int k = i + offset;
    snprintf(buf, cap, "%d%s", k / 2 + 1, (k % 2 == 0) ? "." : "...");
}

/* The board as text lines, prefix before each (plain: "board: "). Dark squares
 * show the piece (w b W B) or, empty, their number (a '.' in the algebraic
 * variants, which get file letters and rank numbers instead). */
static void print_board(FILE *f, const dm_vboard *b, const char *prefix)
{
    const dm_variant *v = b->variant;
    int n = v->size;
    static const char glyph[5] = {'.', 'w', 'b', 'W', 'B'};
    for (int r = 0; r < n; r++) {
        char line[256];
        size_t len = 0;
        if (v->algebraic) {
            len += (size_t)snprintf(line + len, sizeof line - len, "%2d ", n - r);
        }
        for (int c = 0; c < n; c++) {
            /* a turned board (Italian, Spanish) is the core's board mirrored */
            int cc = v->invert ? n - 1 - c : c;
            int full = v->geometry == DM_GEOM_FULL; /* Turkish: every square plays */
            if (!full && !((r + cc) & 1)) {
                len += (size_t)snprintf(line + len, sizeof line - len, "   ");
                continue;
            }
            int sq = full ? r * n + cc + 1 : r * (n / 2) + cc / 2 + 1;
            int p = b->sq[sq];
            if (p || v->algebraic) {
                len += (size_t)snprintf(line + len, sizeof line - len, "  %c", glyph[p]);
            } else {
                len += (size_t)snprintf(line + len, sizeof line - len, " %2d",
                                        dm_vsquare_number(v, sq));
            }
        }
        fprintf(f, "%s%s\n", prefix, line);
    }
    if (v->algebraic) {
        char line[256];
        size_t len = (size_t)snprintf(line, sizeof line, "   ");
        for (int c = 0; c < n; c++) {
            len += (size_t)snprintf(line + len, sizeof line - len, "  %c", 'a' + c);
        }
        fprintf(f, "%s%s\n", prefix, line);
    }
}

static void say(pv_game *g, const char *key, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static void say(pv_game *g, const char *key, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(g->out, "%s: ", key);
    vfprintf(g->out, fmt, ap);
    fputc('\n', g->out);
    va_end(ap);
    fflush(g->out);
}

/* ---- saving ------------------------------------------------------------------- */

static dm_status pv_record(dm_pdn_game **out, const pv_game *g)
{
    char date[32];
    dm_pdn_game_tags tags;
    play_record_tags(&tags, date, sizeof date, g->started,
                     g->who[DM_WHITE] == PLAY_ENGINE ? "damier" : "Human",
                     g->who[DM_BLACK] == PLAY_ENGINE ? "damier" : "Human");
    return dm_pdn_from_game(out, g->game, &tags);
}

/* The game as PDN text (*text malloc'd); 0 after reporting why not. */
static int pv_text(char **text, size_t *len, pv_game *g)
{
    dm_pdn_game *rec;
    if (pv_record(&rec, g) != DM_OK) {
        say(g, "error", "cannot build the game record");
        return 0;
    }
    dm_status st = dm_pdn_write(text, len, rec, DM_NOTATION_PDN);
    dm_pdn_game_free(rec);
    if (st != DM_OK) {
        say(g, "error", "cannot write the game record: %s", dm_status_str(st));
        return 0;
    }
    return 1;
}

/* Save to path. Through play_write_file (temporary file, fsync, rename): this wrote
 * the file in place with fopen("w"), so a kill during a save left a truncated game,
 * and `save FILE` over a user's game destroyed it when the write failed half way
 * (tests/cli/crash_save.sh). */
static int pv_save_file(pv_game *g, const char *path)
{
    char *text = NULL;
    size_t len = 0;
    if (!pv_text(&text, &len, g)) {
        return 0;
    }
    dm_error err;
    dm_status st = play_write_file(path, text, len, &err);
    free(text);
    if (st != DM_OK) {
        say(g, "error", "%s", err.message);
        return 0;
    }
    return 1;
}

static void pv_autosave(pv_game *g)
{
    if ((dm_game_ply(g->game) == 0 && !over(g)) || !g->save_dir[0]) {
        return;
    }
    if (g->save_path[0]) {
        pv_save_file(g, g->save_path);
        return;
    }
    dm_error err;
    play_make_dirs(g->save_dir, &err); /* a failure shows when the save fails */
    time_t t0 = (time_t)g->started;
    struct tm tm;
    localtime_r(&t0, &tm);
    char stamp[32], base[64];
    strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
    snprintf(base, sizeof base, "%s-%s", stamp, g->v->name);
    char *text = NULL;
    size_t len = 0;
    if (!pv_text(&text, &len, g)) {
        return;
    }
    /* A new file that appears complete, under a name no other game has (the name was
     * chosen with access(2) and then opened with fopen("w"): two games started in the
     * same second could pick the same file). */
    if (play_create_file(g->save_path, sizeof g->save_path, g->save_dir, base, text, len, &err) !=
        DM_OK) {
        g->save_path[0] = 0;
        say(g, "error", "automatic save failed: %s", err.message);
    }
    free(text);
}

/* ---- rules -------------------------------------------------------------------- */

static void pv_play(pv_game *g, const dm_vmove *m)
{
    char num[16], mv[400];
    ply_number(num, sizeof num, g, dm_game_ply(g->game));
    move_text(mv, sizeof mv, cur(g), m);
    dm_status st = dm_game_play_vmove(g->game, m);
    if (st != DM_OK) {
        say(g, "error", "move %s: %s", mv, dm_status_str(st));
        return;
    }
    say(g, "move", "%s %s", num, mv);
    pv_autosave(g);
}

/* ---- engine ------------------------------------------------------------------- */

static void pv_line(char *buf, size_t cap, const dm_vboard *root, const dm_vmove *pv, int n,
                    int score, int depth)
{
    char sc[32];
    play_score_text(sc, sizeof sc, score);
    size_t len = (size_t)snprintf(buf, cap, "score %s depth %d pv", sc, depth);
    dm_vboard b = *root;
    for (int i = 0; i < n && len + 1 < cap; i++) {
        char mv[400];
        move_text(mv, sizeof mv, &b, &pv[i]);
        len += (size_t)snprintf(buf + len, cap - len, " %s", mv);
        if (len >= cap) {
            break;
        }
        dm_vboard_apply(&b, &pv[i]);
    }
}

typedef struct pv_last {
    dm_vinfo info;
    int have;
} pv_last;

static void pv_on_info(const dm_vinfo *info, void *payload)
{
    pv_last *l = payload;
    l->info = *info;
    l->have = 1;
}

/* Search the current position; returns 0 when the engine found no move. */
static int pv_think(pv_game *g, dm_vmove *best, char *line, size_t cap)
{
    static uint64_t hist[DM_ENGINE_MAX_HISTORY];
    dm_vsearch_input in;
    dm_vsearch_input_from_game(&in, hist, DM_ENGINE_MAX_HISTORY, g->game);
    dm_limits lim = {.depth = g->depth, .move_time = g->move_time};
    pv_last last;
    memset(&last, 0, sizeof last);
    dm_vsearch_result r;
    dm_error err;
    if (dm_engine_search_variant(&r, g->engine, &in, &lim, pv_on_info, &last, &err) != DM_OK ||
        !r.has_move) {
        return 0;
    }
    *best = r.best;
    if (last.have) {
        pv_line(line, cap, &in.root, last.info.pv, last.info.pv_count, last.info.score,
                last.info.depth);
    } else {
        pv_line(line, cap, &in.root, &r.best, 1, r.score, r.depth);
    }
    return 1;
}

/* ---- human ------------------------------------------------------------------- */

static void pv_list_moves(pv_game *g, const char *key)
{
    static dm_vmovelist list;
    const dm_vboard *b = cur(g);
    dm_vmovegen_legal(&list, b);
    char buf[8192];
    size_t len = 0;
    buf[0] = 0;
    for (int i = 0; i < list.count && len + 410 < sizeof buf; i++) {
        char mv[400];
        move_text(mv, sizeof mv, b, &list.moves[i]);
        len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%s", i ? " " : "", mv);
    }
    say(g, key, "%s", buf);
}

static void trim(char *s)
{
    size_t n = strlen(s);
    while (n > 0 && (s[n - 1] == '\n' || s[n - 1] == '\r' || s[n - 1] == ' ' || s[n - 1] == '\t')) {
        s[--n] = 0;
    }
    size_t k = 0;
    while (s[k] == ' ' || s[k] == '\t') {
        k++;
    }
    memmove(s, s + k, n - k + 1);
}

/* One human turn. Returns 0 to stop the game (quit, end of input). */
static int pv_human(pv_game *g)
{
    char line[1024];
    for (;;) {
        if (g->tty) {
            print_board(g->out, cur(g), "");
            fprintf(g->out, _("%s to move> "), cur(g)->side == DM_WHITE ? _("white") : _("black"));
            fflush(g->out);
        } else {
            char num[16];
            ply_number(num, sizeof num, g, dm_game_ply(g->game));
            say(g, "turn", "%d %s", atoi(num), side_name(cur(g)->side));
        }
        if (!fgets(line, sizeof line, stdin)) {
            return 0;
        }
        if (!strchr(line, '\n')) {
            /* a line longer than the buffer: drop its rest, as the international game
             * does, so the tail is not read as further moves */
            int ch;
            while ((ch = getchar()) != EOF && ch != '\n') {
            }
        }
        trim(line);
        if (!line[0]) {
            continue;
        }
        if (!strcmp(line, "quit") || !strcmp(line, "exit")) {
            return 0;
        }
        if (!strcmp(line, "help")) {
            say(g, "help", _("a move (%s), moves, hint, undo, board, resign, save FILE, quit"),
                g->v->algebraic ? "c3-d4, d4:b6" : "11-15, 15x24");
            continue;
        }
        if (!strcmp(line, "moves")) {
            pv_list_moves(g, "moves");
            continue;
        }
        if (!strcmp(line, "board")) {
            print_board(g->out, cur(g), g->tty ? "" : "board: ");
            continue;
        }
        if (!strcmp(line, "hint")) {
            dm_vmove m;
            char text[2048];
            if (g->engine && pv_think(g, &m, text, sizeof text)) {
                say(g, "hint", "%s", text);
            } else {
                say(g, "error", "%s", _("no engine to ask"));
            }
            continue;
        }
        if (!strcmp(line, "undo")) {
            /* Back to the previous position where a human was to move. */
            int target = dm_game_ply(g->game) - 1;
            while (target >= 0 &&
                   g->who[dm_game_position_at(g->game, target)->side] != PLAY_HUMAN) {
                target--;
            }
            if (target < 0) {
                say(g, "error", "%s", _("nothing to undo"));
                continue;
            }
            while (dm_game_ply(g->game) > target) {
                dm_game_undo(g->game);
            }
            char num[16];
            ply_number(num, sizeof num, g, dm_game_ply(g->game));
            say(g, "undo", _("back to move %d, %s to move"), atoi(num),
                cur(g)->side == DM_WHITE ? _("white") : _("black"));
            pv_autosave(g);
            return 1;
        }
        if (!strcmp(line, "resign")) {
            dm_game_resign(g->game, (dm_color)cur(g)->side);
            pv_autosave(g);
            return 1;
        }
        if (!strncmp(line, "save ", 5)) {
            const char *path = line + 5;
            while (*path == ' ') {
                path++;
            }
            if (pv_save_file(g, path)) {
                say(g, "saved", "%s", path);
            }
            continue;
        }
        size_t wlen = strcspn(line, " \t");
        if (play_word_is_not_move(line, wlen)) {
            say(g, "error",
                play_word_is_command(line, wlen)
                    ? _("not available in the variant game: '%.*s' (commands: moves, hint, undo, "
                        "board, resign, save FILE, help, quit)")
                    : _("unknown command '%.*s' (commands: moves, hint, undo, board, resign, save "
                        "FILE, help, quit)"),
                (int)(wlen > 40 ? 40 : wlen), line);
            continue;
        }
        dm_vmove m;
        dm_error err;
        memset(&err, 0, sizeof err);
        dm_status st = dm_vmove_parse(&m, cur(g), line, &err);
        if (st != DM_OK) {
            say(g, "error", "%s", err.message[0] ? err.message : dm_status_str(st));
            continue;
        }
        pv_play(g, &m);
        return 1;
    }
}

/* ---- entry ------------------------------------------------------------------- */

static int pv_main(int argc, char **argv, const dm_variant *v)
{
    play_options o = PLAY_OPTIONS_INIT;
    const char *seed = NULL;
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "h", play_long_options, NULL)) != -1) {
        int common = play_common_option(&o, c, optarg, DM_ENGINE_MAX_DEPTH);
        if (common < 0) {
            return 2;
        }
        if (common > 0) {
            continue;
        }
        switch (c) {
            case PLAY_O_SEED:
                seed = optarg;
                break;
            case PLAY_O_TIME:
            case PLAY_O_HANDICAP:
                fprintf(stderr, "damier play: --time and --handicap are for international "
                                "draughts only\n");
                return 2;
            case PLAY_O_HELP:
            case 'h':
                pv_usage(stdout);
                return 0;
            default:
                pv_usage(stderr);
                return 2;
        }
    }
    int human = o.human_side, level = o.level, depth = o.depth;
    int hvh = o.hvh, autoplay = o.autoplay, plain = o.plain;
    const char *fen = o.fen, *save_dir = o.save_dir;
    if (optind < argc) {
        fprintf(stderr, "damier play: unexpected argument '%s'\n", argv[optind]);
        return 2;
    }
    if (hvh && autoplay) {
        fprintf(stderr, "damier play: --auto and --human-vs-human exclude each other\n");
        return 2;
    }
    pv_game game;
    pv_game *g = &game;
    memset(g, 0, sizeof *g);
    g->v = v;
    g->out = stdout;
    g->tty = !plain && isatty(0) && isatty(1);
    g->started = (long long)time(NULL);
    dm_vboard start;
    if (fen) {
        dm_error err;
        memset(&err, 0, sizeof err);
        if (dm_vboard_from_fen(&start, v, fen, &err) != DM_OK) {
            fprintf(stderr, "damier play: bad FEN for %s (column %d): %s\n", v->name, err.column,
                    err.message);
            return 2;
        }
    } else {
        dm_vboard_start(&start, v);
    }
    if (dm_game_new_variant(&g->game, &start) != DM_OK) {
        fprintf(stderr, "damier play: cannot start a %s game from this position\n", v->name);
        return 2;
    }
    if (human < 0) {
        human = DM_WHITE;
    }
    play_assign_sides(g->who, &o, human);
    if (depth > 0) {
        g->depth = depth;
    } else {
        g->depth = 1 + level;
        g->move_time = 0.5 * level;
    }
    if (save_dir) {
        snprintf(g->save_dir, sizeof g->save_dir, "%s", save_dir);
    } else {
        dm_error err;
        if (!play_default_save_dir(g->save_dir, sizeof g->save_dir, &err)) {
            g->save_dir[0] = 0;
        }
    }
    if (g->who[0] == PLAY_ENGINE || g->who[1] == PLAY_ENGINE) {
        dm_engine_options eo = DM_ENGINE_OPTIONS_INIT;
        eo.tt_mib = 16;
        if (dm_engine_create(&g->engine, &eo) != DM_OK) {
            fprintf(stderr, "damier play: cannot create the engine\n");
            dm_game_free(g->game);
            return 1;
        }
    }
    char fenbuf[512];
    dm_vboard_to_fen(fenbuf, sizeof fenbuf, &start, v->algebraic);
    for (int s = 0; s < 2; s++) {
        if (g->who[s] == PLAY_ENGINE) {
            say(g, side_name(s), "engine depth %d", g->depth);
        } else {
            say(g, side_name(s), "human");
        }
    }
    say(g, "variant", "%s", v->name);
    if (seed) {
        say(g, "seed", "%s", seed);
    }
    say(g, "fen", "%s", fenbuf);
    int rc = 0;
    while (!over(g)) {
        const dm_vboard *b = cur(g);
        if (dm_game_ply(g->game) >= PV_MAX_PLIES) {
            g->too_long = 1;
            break;
        }
        if (g->who[b->side] == PLAY_ENGINE) {
            dm_vmove m;
            char line[2048];
            if (!pv_think(g, &m, line, sizeof line)) {
                say(g, "error", "the engine found no move");
                rc = 1;
                break;
            }
            say(g, "engine", "%s", line);
            pv_play(g, &m);
        } else {
            if (!pv_human(g)) {
                break;
            }
        }
    }
    if (g->too_long) {
        say(g, "result", "1-1 game too long (%d plies, adjudicated)", PV_MAX_PLIES);
    } else if (over(g)) {
        char why[128];
        dm_game_reason_text(why, sizeof why, g->game);
        say(g, "result", "%s %s", dm_outcome_str(dm_game_result(g->game, NULL)),
            cli_tr_reason(why));
    }
    pv_autosave(g);
    if (g->save_path[0]) {
        say(g, "saved", "%s", g->save_path);
    }
    dm_engine_free(g->engine);
    dm_game_free(g->game);
    return rc;
}

int play_variant_dispatch(int argc, char **argv, int *handled)
{
    *handled = 0;
    const char *name = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--")) {
            break;
        }
        if (!strcmp(argv[i], "--variant") && i + 1 < argc) {
            name = argv[i + 1];
        } else if (!strncmp(argv[i], "--variant=", 10)) {
            name = argv[i] + 10;
        }
    }
    if (name == NULL) {
        return 0;
    }
    const dm_variant *v;
    dm_error err;
    memset(&err, 0, sizeof err);
    if (dm_variant_from_name(&v, name, &err) != DM_OK) {
        *handled = 1;
        fprintf(stderr, "damier play: %s\n", err.message);
        return 2;
    }
    if (v->id == DM_VARIANT_INTERNATIONAL) {
        return 0;
    }
    *handled = 1;
    return pv_main(argc, argv, v);
}
