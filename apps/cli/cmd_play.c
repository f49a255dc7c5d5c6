/* SPDX-License-Identifier: MIT
 * apps/cli/cmd_play.c: `damier play`: a game against the engine (or two people, or
 * the engine against itself) in the terminal, in any variant (--variant NAME).
 *
 * The game is a dm_session (a game of the variant, its clock, the engine), seen
 * through the generic types of every variant (dm_board, dm_move, dm_info): no
 * code here knows one variant from another but the --egdb option (databases exist of
 * international, Russian, Brazilian and English draughts; the folder must be of the
 * game's variant). The loop: while the game
 * is not over, the side to move is asked for a move: the engine searches on the
 * session's thread while its clock keeps ticking on screen, a human types a move or
 * a command. A move played presses the clock; undo gives the turn back. Every move
 * is saved at once to the automatic PDN file, so nothing is lost whatever happens;
 * Ctrl-C, SIGTERM, SIGHUP and end of input save and stop.
 *
 * Commands (play_input.c has the table):
 *     <move>   32-28, 19x28, 28x19x10, c3-d4, d4:f6: the variant's notation
 *     hint     the engine's best move for the side to move, with its line
 *     undo     back to the previous position where a human was to move
 *     moves    the legal moves       flip     turn the board   numbers  square numbers
 *     draw     offer a draw: the engine accepts when its score is level (within 0.20)
 *              and the position is dead (a 16/5-move ending, kings on both sides, or
 *              at most 8 pieces, equal numbers); between two humans the other answers
 *              `draw` to accept, a move declines
 *     resign   save FILE   load FILE   board   help   quit
 *
 * Plain mode output (stable; README.md "damier play"): one `key: value` line per
 * event: white:, black:, variant:, time:, seed:, fen:, turn:, move:, engine:, hint:, moves:,
 * undo:, draw:, error:, info:, loaded:, board:, help:, clock:, result:, saved:. */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <damier/egdb.h>

#include "commands.h"
#include "cli_i18n.h"
#include "play.h"

static void play_usage(FILE *f)
{
    fprintf(f, "usage: damier play [options]\n"
               "  --white / --black     your side (default white; the engine plays the other)\n"
               "  --level N             engine strength 1 (beginner) .. 10 (full), default 5\n"
               "  --depth N             fixed search depth instead of the level's (deterministic)\n"
               "  --seed N              seed of the low levels' random choices (reproducible)\n"
               "  --time CONTROL        PDN TimeControl: 300 (sudden death, seconds), 180+2\n"
               "                        (Fischer), 40/7200:3600 (moves in time); default none\n"
               "  --fen FEN             start from a position (the variant's PDN FEN,\n"
               "                        W:W31-50:B1-20, W:Wa1,c1:Bh8)\n"
               "  --handicap N          the engine (the stronger side) starts without N men,\n"
               "                        taken from its back rows, left to right as White sees\n"
               "                        them (46,47,...,50,41,... for White in international,\n"
               "                        5,4,...,1,10,... for Black), 1..15\n"
               "  --human-vs-human      two players at one keyboard\n"
               "  --auto                the engine plays both sides\n"
               "  --no-color            no colours (also when NO_COLOR is set)\n"
               "  --plain               plain line output even on a terminal\n"
               "  --variant NAME        international (default), brazilian, russian, english,\n"
               "                        canadian, antidraughts, czech, italian, killer,\n"
               "                        breakthrough, spanish, pool, thai, frisian, frysk,\n"
               "                        portuguese, turkish: the same game in its rules\n"
               "  --game G              the jumping games: chinese-checkers, halma, gewu (see\n"
               "                        damier play --game G --help)\n"
               "  --egdb DIR            the engine (and hint) probe the endgame database there\n"
               "                        (international, brazilian, russian, english: a\n"
               "                        folder of the game's variant); a database draw\n"
               "                        ends the game (neither side can win)\n"
               "  --save-dir DIR        where games are saved automatically\n"
               "                        (default $XDG_DATA_HOME/damier/games or\n"
               "                        ~/.local/share/damier/games)\n"
               "Type `help` during the game for the commands.\n");
}

/* ---- output helpers ------------------------------------------------------------ */

static const char *color_name(int c)
{
    return c == DM_WHITE ? "white" : "black";
}

/* The sides in the player's language: "White" (a title), "white" (in a sentence);
 * color_name is the plain output's word (a key's value, never translated). */
static const char *color_title(int c)
{
    return c == DM_WHITE ? _("White") : _("Black");
}

static const char *side_word(int c)
{
    return c == DM_WHITE ? _("white") : _("black");
}

/* A message: a plain line "key: text", or the line under the board in tty mode. */
static void say(play_session *s, const char *key, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static void say(play_session *s, const char *key, const char *fmt, ...)
{
    char text[sizeof s->ui.message];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    if (s->ui.tty) {
        memcpy(s->ui.message, text, sizeof text);
    } else {
        fprintf(s->out, "%s: %s\n", key, text);
        fflush(s->out);
    }
}

/* "score +0.12 depth 8 pv 32-28 19-23 ..." */
static void print_pv_line(char *buf, size_t cap, const dm_info *info, const dm_board *from)
{
    char sc[32], pv[400];
    play_score_text(sc, sizeof sc, info->score);
    play_pv_text(pv, sizeof pv, from, info->pv, info->pv_count);
    snprintf(buf, cap, "score %s depth %d pv %s", sc, info->depth, pv);
}

/* Report the last ply played. */
static void announce_last_move(play_session *s)
{
    int ply = dm_game_ply(play_game(s));
    if (ply == 0) {
        return;
    }
    char num[16], mv[400];
    play_ply_text(num, sizeof num, mv, sizeof mv, play_game(s), ply - 1);
    if (!s->ui.tty) {
        fprintf(s->out, "move: %s %s\n", num, mv);
        if (s->has_tc) {
            char w[64], b[64];
            play_clock_text(w, sizeof w, s, DM_WHITE);
            play_clock_text(b, sizeof b, s, DM_BLACK);
            fprintf(s->out, "clock: white %s black %s\n", w, b);
        }
        fflush(s->out);
    }
}

/* Save after every change; a failure is reported once, not after every move. */
static void autosave(play_session *s)
{
    dm_error err;
    if (play_autosave(s, &err) != DM_OK) {
        if (!s->autosave_failed) {
            say(s, "error", "automatic save failed: %s", err.message);
        }
        s->autosave_failed = 1;
    } else {
        s->autosave_failed = 0;
    }
}

/* ---- clock ------------------------------------------------------------------------ */

/* Has a flag fallen? Then the game is lost on time (FMJD 9). */
static int check_flag(play_session *s)
{
    if (dm_clock_flagged(play_clock(s), NULL)) {
        dm_session_result(s->session, NULL); /* declares the loss on time */
        return 1;
    }
    return 0;
}

static int tick(void *payload)
{
    play_session *s = payload;
    if (check_flag(s)) {
        return 1;
    }
    if (s->ui.tty) {
        play_render_clocks(s);
    }
    return 0;
}

/* A new game from start (its variant's) on the session, with a new clock (always one:
 * without a time control it counts the time used), running for the side to move. */
static dm_status new_game(play_session *s, const dm_board *start, dm_error *err)
{
    dm_session_setup g = DM_SESSION_SETUP_INIT;
    g.start = start;
    g.white_tc = &s->tc;
    return dm_session_new_game(s->session, &g, err);
}

/* ---- turns ------------------------------------------------------------------------ */

/* A move in the variant's notation. */
static void vmove_text(char *buf, size_t cap, const dm_board *b, const dm_move *m)
{
    dm_move_to_text(buf, cap, b, m, DM_NOTATION_PDN, DM_SQUARES_DEFAULT);
}

/* A move of the current position in the game's notation, as help's example: a
 * capture when one must be made, else a move from the middle of the sorted list. */
static void help_example(const play_session *s, char *buf, size_t cap)
{
    snprintf(buf, cap, "?");
    const dm_board *b = play_position(s);
    dm_movelist *l = malloc(sizeof *l);
    if (l && dm_movegen_legal(l, b) > 0) {
        cmd_sort_vmoves(b->variant, l->moves, l->count);
        vmove_text(buf, cap, b, &l->moves[l->moves[0].ncapt ? 0 : l->count / 2]);
    }
    free(l);
}

static void engine_turn(play_session *s)
{
    dm_color side = (dm_color)play_position(s)->side;
    if (s->ui.tty) {
        snprintf(s->ui.message, sizeof s->ui.message, _("%s (%s) is thinking..."),
                 cli_tr_name(s->names[side]), color_title(side));
        play_render_screen(s);
    }
    dm_board before = *play_position(s);
    dm_info info;
    dm_status st = play_engine_choose(&info, s, tick, s);
    if (play_interrupted()) {
        return;
    }
    if (check_flag(s)) {
        return;
    }
    if (st != DM_OK || info.pv_count == 0) {
        /* no legal move: dm_game_result already says so; anything else is a bug */
        if (!dm_game_over(play_game(s))) {
            say(s, "error", _("the engine found no move (%s)"), dm_status_str(st));
            dm_session_forfeit(s->session, side);
        }
        return;
    }
    char line[600];
    print_pv_line(line, sizeof line, &info, &before);
    dm_error err;
    if (dm_session_play(s->session, &info.pv[0], &err) != DM_OK) { /* presses the clock */
        say(s, "error", _("the engine's move was refused: %s"), err.message);
        dm_session_forfeit(s->session, side);
        return;
    }
    if (s->ui.tty) {
        char sc[32], pv[400], mv[400];
        play_score_text(sc, sizeof sc, info.score);
        play_pv_text(pv, sizeof pv, &before, info.pv, info.pv_count);
        vmove_text(mv, sizeof mv, &before, &info.pv[0]);
        /* the score is the engine's, from its side: said, as hint says its own */
        snprintf(s->ui.engine_line, sizeof s->ui.engine_line, _("Engine (for %s): %s d%d | %s"),
                 color_title(side), sc, info.depth, pv);
        snprintf(s->ui.message, sizeof s->ui.message, _("%s played %s"),
                 cli_tr_name(s->names[side]), mv);
    } else if (!s->ui.hide_engine) {
        fprintf(s->out, "engine: %s\n", line);
    }
    announce_last_move(s);
    s->draw_offer = -1;
    autosave(s);
}

/* Plies to take back so that a human is to move again with one of their moves undone;
 * 0 when there is none. */
static int plies_to_undo(play_session *s)
{
    const dm_game *g = play_game(s);
    int ply = dm_game_ply(g);
    int start_side = dm_game_position_at(g, 0)->side;
    for (int i = ply - 1; i >= 0; i--) {
        if (s->who[(start_side + i) & 1] == PLAY_HUMAN) {
            return ply - i;
        }
    }
    return 0;
}

static void list_moves(play_session *s)
{
    const dm_board *b = play_position(s);
    dm_movelist list;
    dm_movegen_legal(&list, b);
    cmd_sort_vmoves(b->variant, list.moves, list.count);
    char text[sizeof s->ui.message - 64];
    size_t len = 0;
    text[0] = 0;
    for (int i = 0; i < list.count && len + 410 < sizeof text; i++) {
        char mv[400];
        vmove_text(mv, sizeof mv, b, &list.moves[i]);
        len += (size_t)snprintf(text + len, sizeof text - len, "%s%s", i ? " " : "", mv);
    }
    if (s->ui.tty) {
        say(s, "moves", "%d legal moves: %s", list.count, text);
    } else {
        say(s, "moves", "%s", text);
    }
}

/* The game's moves so far, numbered as in PDN: "1. 32-28 19-23 2. 28x19 14x23". */
static void show_history(play_session *s)
{
    const dm_game *g = play_game(s);
    int n = dm_game_ply(g);
    if (n == 0) {
        say(s, "history", "%s", _("no move played yet"));
        return;
    }
    char text[1800];
    size_t len = 0;
    text[0] = 0;
    for (int i = 0; i < n && len + 420 < sizeof text; i++) {
        char num[16], mv[400];
        play_ply_text(num, sizeof num, mv, sizeof mv, g, i);
        int white = strstr(num, "...") == NULL;
        /* the number before White's move, and before the first move if it is Black's */
        if (white || i == 0) {
            len += (size_t)snprintf(text + len, sizeof text - len, "%s%s ", i ? " " : "", num);
        } else {
            len += (size_t)snprintf(text + len, sizeof text - len, " ");
        }
        len += (size_t)snprintf(text + len, sizeof text - len, "%s", mv);
    }
    if (len + 420 >= sizeof text) {
        snprintf(text + len, sizeof text - len, " ...");
    }
    say(s, "history", "%s", text);
}

/* level N: the engine's strength from the next move on. */
static void set_level(play_session *s, const char *arg)
{
    char *end;
    long v = strtol(arg, &end, 10);
    if (end == arg || *end || v < 1 || v > 10) {
        say(s, "error", _("level %s: the levels are 1 to 10"), arg);
        return;
    }
    play_level_get(&s->level, (int)v);
    for (int k = 0; k < 2; k++) {
        if (s->who[k] == PLAY_ENGINE) {
            snprintf(s->names[k], sizeof s->names[k], "damier level %d", s->level.level);
        }
    }
    say(s, "level", "%d", s->level.level);
}

static void do_load(play_session *s, const char *path)
{
    dm_game *g;
    dm_error err;
    char warn[400];
    if (play_load_file(&g, path, warn, sizeof warn, &err) != DM_OK) {
        say(s, "error", "%s", err.message);
        return;
    }
    /* The game being replaced keeps its own file; the loaded one gets a new one, and
     * a new clock. */
    autosave(s);
    if (new_game(s, dm_game_position_at(g, 0), &err) != DM_OK ||
        dm_session_set_game(s->session, g, &err) != DM_OK) {
        say(s, "error", "%s: %s", path, err.message);
        dm_game_free(g);
        return;
    }
    s->start = *dm_game_position_at(play_game(s), 0); /* new games go on in its variant */
    s->save_path[0] = 0;
    s->started = (long long)time(NULL);
    s->draw_offer = -1;
    say(s, "loaded", "%s, %d plies%s%s", path, dm_game_ply(play_game(s)), warn[0] ? "; " : "",
        warn);
}

/* Handle one line from a human. Returns 1 to stop the game loop (quit). */
static int human_line(play_session *s, const char *line)
{
    play_cmd cmd;
    play_parse_command(&cmd, line);
    dm_color side = (dm_color)play_position(s)->side;
    s->ui.message[0] = 0;
    switch (cmd.kind) {
        case PLAY_CMD_EMPTY:
            return 0;
        case PLAY_CMD_BAD:
            say(s, "error", "%s", cmd.error);
            return 0;
        case PLAY_CMD_MOVE: {
            if (check_flag(s)) {
                return 0;
            }
            dm_error err;
            if (dm_session_play_text(s->session, cmd.arg, &err) != DM_OK) { /* presses the clock */
                char tr[sizeof err.message + 256];
                say(s, "error", "%s", cli_tr_error(err.message, tr, sizeof tr));
                return 0;
            }
            announce_last_move(s);
            /* an offer stands through the offerer's move; the other side's move declines */
            if (s->draw_offer >= 0 && s->draw_offer != (int)side) {
                say(s, "draw", _("declined by %s (a move was played)"), side_word(side));
                s->draw_offer = -1;
            }
            autosave(s);
            return 0;
        }
        case PLAY_CMD_HINT: {
            dm_info info;
            dm_board before = *play_position(s);
            if (play_engine_hint(&info, s, tick, s) != DM_OK || info.pv_count == 0) {
                say(s, "error", "%s", _("no move to suggest"));
                return 0;
            }
            char mv[400], rest[600];
            vmove_text(mv, sizeof mv, &before, &info.pv[0]);
            print_pv_line(rest, sizeof rest, &info, &before);
            if (s->ui.tty) { /* the engine line's score is the other side's: say whose */
                say(s, "hint", _("Hint: %s %s (score for %s)"), mv, rest, color_title(side));
            } else {
                say(s, "hint", "%s %s", mv, rest);
            }
            return 0;
        }
        case PLAY_CMD_UNDO: {
            int n = plies_to_undo(s);
            if (n == 0) {
                say(s, "error", "%s", _("nothing to undo"));
                return 0;
            }
            for (int i = 0; i < n; i++) {
                dm_session_undo(s->session); /* the clock goes to the side to move */
            }
            s->draw_offer = -1;
            s->ui.engine_line[0] = 0; /* the engine's line was about a move now taken back */
            say(s, "undo", ngettext("%d ply taken back", "%d plies taken back", (unsigned long)n),
                n);
            autosave(s);
            return 0;
        }
        case PLAY_CMD_MOVES:
            list_moves(s);
            return 0;
        case PLAY_CMD_HISTORY:
            show_history(s);
            return 0;
        case PLAY_CMD_LEVEL:
            set_level(s, cmd.arg);
            return 0;
        case PLAY_CMD_FLIP:
            s->ui.flipped = !s->ui.flipped;
            say(s, "info", _("board flipped: %s at the bottom"),
                color_title(s->ui.flipped ? DM_BLACK : DM_WHITE));
            return 0;
        case PLAY_CMD_NUMBERS:
            s->ui.numbers = !s->ui.numbers;
            say(s, "info", "%s",
                s->ui.numbers ? _("square numbers shown") : _("square numbers hidden"));
            return 0;
        case PLAY_CMD_SIDE: {
            if (s->who[DM_WHITE] == s->who[DM_BLACK]) {
                say(s, "error", "%s", _("side: only in a game against the engine"));
                return 0;
            }
            int w = s->who[DM_WHITE];
            s->who[DM_WHITE] = s->who[DM_BLACK];
            s->who[DM_BLACK] = w;
            char nm[64];
            memcpy(nm, s->names[DM_WHITE], sizeof nm);
            memcpy(s->names[DM_WHITE], s->names[DM_BLACK], sizeof nm);
            memcpy(s->names[DM_BLACK], nm, sizeof nm);
            s->ui.flipped = s->who[DM_BLACK] == PLAY_HUMAN;
            s->draw_offer = -1;
            say(s, "side", _("you play %s now; the engine plays %s"),
                side_word(s->who[DM_WHITE] == PLAY_HUMAN ? DM_WHITE : DM_BLACK),
                side_word(s->who[DM_WHITE] == PLAY_HUMAN ? DM_BLACK : DM_WHITE));
            autosave(s);
            return 0;
        }
        case PLAY_CMD_ENGINE:
            s->ui.hide_engine = !s->ui.hide_engine;
            say(s, "info", "%s",
                s->ui.hide_engine ? _("the engine's line hidden") : _("the engine's line shown"));
            return 0;
        case PLAY_CMD_DRAW: {
            dm_color other = (dm_color)!side;
            if (s->who[other] == PLAY_ENGINE) {
                char why[200];
                if (play_engine_accepts_draw(s, why, sizeof why)) {
                    dm_session_agree_draw(s->session);
                    say(s, "draw", _("accepted: %s"), why);
                    autosave(s);
                } else {
                    say(s, "draw", _("declined: %s"), why);
                }
            } else if (s->draw_offer == (int)other) {
                dm_session_agree_draw(s->session);
                say(s, "draw", _("accepted by %s"), side_word(side));
                autosave(s);
            } else {
                /* FMJD practice: offer, then play your move; the opponent answers */
                s->draw_offer = side;
                say(s, "draw",
                    _("offered by %s; after %s's move %s accepts with draw or declines "
                      "with a move"),
                    side_word(side), side_word(side), side_word(other));
            }
            return 0;
        }
        case PLAY_CMD_RESIGN:
            dm_session_resign(s->session, side);
            autosave(s);
            return 0;
        case PLAY_CMD_SAVE: {
            dm_error err;
            if (play_save_file(s, cmd.arg, &err) != DM_OK) {
                say(s, "error", "%s", err.message);
            } else {
                say(s, "saved", "%s", cmd.arg);
            }
            return 0;
        }
        case PLAY_CMD_LOAD:
            do_load(s, cmd.arg);
            return 0;
        case PLAY_CMD_BOARD:
            if (!s->ui.tty) {
                play_render_plain_board(s->out, play_position(s), s->ui.flipped, "board: ");
                fflush(s->out);
            }
            return 0;
        case PLAY_CMD_HELP:
            if (s->ui.tty) {
                /* the help alone on the screen (board and help together do not fit in
                 * 80x24: the board scrolled away); the clock lines are not redrawn over
                 * it (panel_row 0) until the next command brings the board back */
                fputs("\033[H\033[2J", s->out);
                fprintf(s->out, "%s\n\n",
                        _("damier play: commands (the board comes back with your next "
                          "command or move)"));
                char example[400];
                help_example(s, example, sizeof example);
                play_print_help(s->out, "  ", example);
                fflush(s->out);
                s->ui.panel_row = 0;
                s->ui.message[0] = 1; /* keep the help on screen: no redraw before the prompt */
            } else {
                char example[400];
                help_example(s, example, sizeof example);
                play_print_help(s->out, "help: ", example);
                fflush(s->out);
            }
            return 0;
        case PLAY_CMD_QUIT:
            return 1;
    }
    return 0;
}

/* Returns 1 to stop (quit, end of input or a signal), 0 to go on. */
static int human_turn(play_session *s, play_reader *rd, int *eof)
{
    const dm_game *g = play_game(s);
    dm_color side = (dm_color)play_position(s)->side;
    int ply = dm_game_ply(g);
    /* numbered from the variant's first mover (Black in English checkers) */
    int j = ply + (dm_game_position_at(g, 0)->side != (int)dm_game_variant(g)->first);
    if (s->ui.tty) {
        if (s->ui.message[0] == 1) {
            s->ui.message[0] = 0; /* help is on screen below the board */
        } else {
            play_render_screen(s);
        }
    } else {
        fprintf(s->out, "turn: %d %s\n", j / 2 + 1, color_name(side));
        fflush(s->out);
    }
    char prompt[64];
    if (s->who[!side] == PLAY_HUMAN) {
        snprintf(prompt, sizeof prompt, _("%s to move> "), color_title(side));
    } else {
        snprintf(prompt, sizeof prompt, "%s", _("Your move> "));
    }
    char line[PATH_MAX + 64];
    int r = play_read_line(rd, s->out, s->ui.tty ? prompt : NULL, line, sizeof line, tick, s);
    if (r == 0) {
        *eof = 1;
        return 1;
    }
    if (r < 0) {
        return r == -1; /* -2: a flag fell, the loop sees the result */
    }
    return human_line(s, line);
}

/* ---- after the game: review, a new game, a rematch --------------------------------- */

typedef enum after_choice {
    AFTER_QUIT = 0,
    AFTER_NEW = 1,    /* the same sides again */
    AFTER_REMATCH = 2 /* sides swapped */
} after_choice;

static const char after_help[] =
    "review: step through the game (then next or Enter, prev, first, last, a ply number, "
    "done); new: a new game; rematch: a new game with the sides swapped; save FILE; history; "
    "flip; numbers; quit";

/* Show the ply under review: the board there (tty), or its move and the board (plain). */
static void review_show(play_session *s)
{
    const dm_game *g = play_game(s);
    int v = s->ui.review, n = dm_game_ply(g);
    char num[16] = "", mv[400] = "start";
    if (v > 0) {
        play_ply_text(num, sizeof num, mv, sizeof mv, g, v - 1);
    }
    if (s->ui.tty) {
        snprintf(s->ui.message, sizeof s->ui.message,
                 "Review: ply %d of %d%s%s%s%s. next (Enter), prev, first, last, a ply number, "
                 "or done.",
                 v, n, v > 0 ? " after " : "", num, v > 0 ? " " : "", v > 0 ? mv : "");
        play_render_screen(s);
    } else {
        fprintf(s->out, "review: ply %d of %d%s%s%s\n", v, n, v > 0 ? " " : "", num,
                v > 0 ? mv : " start");
        play_render_plain_board(s->out, dm_game_position_at(g, v), s->ui.flipped, "board: ");
        fflush(s->out);
    }
}

/* The game is over: a player at a terminal may review it, start a new game or a
 * rematch (the "the program exits when the game ends"). Returns what next;
 * AFTER_QUIT for quit, end of input or a signal. */
static after_choice after_game(play_session *s, play_reader *rd, int *eof)
{
    const dm_game *g = play_game(s);
    s->ui.review = -1;
    if (s->ui.tty) {
        size_t len = strlen(s->ui.message);
        snprintf(s->ui.message + len, sizeof s->ui.message - len, "%s%s", len ? "\n" : "",
                 _("Type review, new, rematch or quit (help lists the rest)."));
        play_render_screen(s);
    } else {
        fprintf(s->out, "over: review, new, rematch or quit\n");
        fflush(s->out);
    }
    while (!play_interrupted()) {
        char line[PATH_MAX + 64];
        int r = play_read_line(rd, s->out, s->ui.tty ? _("After the game> ") : NULL, line,
                               sizeof line, NULL, NULL);
        if (r == 0) {
            *eof = 1;
            return AFTER_QUIT;
        }
        if (r < 0) {
            continue;
        }
        char word[32] = "", arg[PATH_MAX + 64] = "";
        const char *p = line;
        while (*p == ' ' || *p == '\t') {
            p++;
        }
        size_t wl = 0;
        while (p[wl] && p[wl] != ' ' && p[wl] != '\t' && p[wl] != '\n' && wl + 1 < sizeof word) {
            word[wl] = (char)tolower((unsigned char)p[wl]);
            wl++;
        }
        word[wl] = 0;
        const char *a = p + wl;
        while (*a == ' ' || *a == '\t') {
            a++;
        }
        snprintf(arg, sizeof arg, "%s", a);
        size_t al = strlen(arg);
        while (al > 0 && (arg[al - 1] == '\n' || arg[al - 1] == ' ' || arg[al - 1] == '\r')) {
            arg[--al] = 0;
        }
        int n = dm_game_ply(g);
        s->ui.message[0] = 0;
        if (s->ui.review >= 0) {
            char *end;
            long k = strtol(word, &end, 10);
            if (!word[0] || !strcmp(word, "next") || !strcmp(word, "n")) {
                s->ui.review += s->ui.review < n;
            } else if (!strcmp(word, "prev") || !strcmp(word, "p") || !strcmp(word, "back")) {
                s->ui.review -= s->ui.review > 0;
            } else if (!strcmp(word, "first")) {
                s->ui.review = 0;
            } else if (!strcmp(word, "last")) {
                s->ui.review = n;
            } else if (word[0] && !*end) {
                if (k < 0 || k > n) {
                    say(s, "error", "ply %ld: the game has plies 0 to %d", k, n);
                    if (s->ui.tty) {
                        play_render_screen(s);
                    }
                    continue;
                }
                s->ui.review = (int)k;
            } else if (!strcmp(word, "done") || !strcmp(word, "exit")) {
                s->ui.review = -1;
                say(s, "over", "review, new, rematch or quit");
                if (s->ui.tty) {
                    play_render_screen(s);
                }
                continue;
            } else {
                goto command; /* the after-game commands work in review too */
            }
            review_show(s);
            continue;
        }
    command:
        if (!strcmp(word, "review")) {
            s->ui.review = 0;
            review_show(s);
        } else if (!strcmp(word, "new")) {
            return AFTER_NEW;
        } else if (!strcmp(word, "rematch")) {
            return AFTER_REMATCH;
        } else if (!strcmp(word, "quit") || !strcmp(word, "q")) {
            return AFTER_QUIT;
        } else if (!strcmp(word, "history")) {
            show_history(s);
        } else if (!strcmp(word, "flip")) {
            s->ui.flipped = !s->ui.flipped;
            say(s, "info", _("board flipped: %s at the bottom"),
                color_title(s->ui.flipped ? DM_BLACK : DM_WHITE));
        } else if (!strcmp(word, "numbers")) {
            s->ui.numbers = !s->ui.numbers;
            say(s, "info", "%s",
                s->ui.numbers ? _("square numbers shown") : _("square numbers hidden"));
        } else if (!strcmp(word, "save") && arg[0]) {
            dm_error err;
            if (play_save_file(s, arg, &err) != DM_OK) {
                say(s, "error", "%s", err.message);
            } else {
                say(s, "saved", "%s", arg);
            }
        } else if (!strcmp(word, "help")) {
            say(s, "help", "%s", after_help);
        } else if (word[0]) {
            say(s, "error",
                "the game is over: '%s' is not one of review, new, rematch, save FILE, "
                "history or quit",
                word);
        }
        if (s->ui.tty) {
            play_render_screen(s);
        }
    }
    return AFTER_QUIT;
}

/* ---- set-up ----------------------------------------------------------------------- */

static void print_result(play_session *s)
{
    dm_outcome res = dm_session_result(s->session, NULL);
    char why[128];
    dm_game_reason_text(why, sizeof why, play_game(s));
    const char *who = res == DM_OUTCOME_WHITE_WINS   ? _("White wins")
                      : res == DM_OUTCOME_BLACK_WINS ? _("Black wins")
                                                     : _("Draw");
    if (s->ui.tty) {
        snprintf(s->ui.message, sizeof s->ui.message, _("Game over: %s %s (%s)"), who,
                 dm_outcome_str(res), cli_tr_reason(why));
        play_render_screen(s);
    } else { /* the reason in the player's language; the result as PDN writes it */
        fprintf(s->out, "result: %s %s\n", dm_outcome_str(res), cli_tr_reason(why));
    }
}

/* FMJD 7.3, neither side can win: a position whose endgame database value is a draw
 * (no capture pending: the database proves that neither side can force a win, with or
 * without the counting rules) ends the game at once as a draw (docs/RULES.md): in an
 * international game, and in a Russian, Brazilian or English one with a database of
 * its variant. Without a database (or with one of another variant) nothing is
 * declared. */
static void declare_database_draw(play_session *s, const struct dm_egdb *egdb)
{
    const dm_game *g = play_game(s);
    if (!egdb || dm_game_over(g) || dm_game_variant(g)->id != dm_egdb_variant(egdb)) {
        return;
    }
    const dm_board *b = dm_game_position(g);
    int pieces = 0;
    for (int sq = 1; sq <= b->variant->squares; sq++) {
        pieces += b->sq[sq] != DM_EMPTY;
    }
    if (pieces > dm_egdb_max_pieces(egdb)) {
        return;
    }
    int dtc = -1;
    if (dm_egdb_probe(egdb, b, &dtc) == DM_EGDB_DRAW) {
        dm_session_declare_no_win(s->session);
    }
}

int cmd_play(int argc, char **argv)
{
    cli_i18n_init(); /* the messages' language (LANG, LANGUAGE, LC_ALL) */
    /* The jumping games (--game) have a game of their own (play_jump.c). */
    int jump_handled = 0;
    int jump_rc = play_jump_dispatch(argc, argv, &jump_handled);
    if (jump_handled) {
        return jump_rc;
    }
    play_options o = PLAY_OPTIONS_INIT;
    int handicap = 0, have_seed = 0;
    uint64_t seed = 0;
    const char *tc_text = NULL;
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
            case PLAY_O_SEED: {
                char *end;
                errno = 0;
                seed = strtoull(optarg, &end, 10);
                if (errno || end == optarg || *end || optarg[0] == '-') {
                    fprintf(stderr, "damier play: --seed wants a number, not '%s'\n", optarg);
                    return 2;
                }
                have_seed = 1;
                break;
            }
            case PLAY_O_TIME:
                tc_text = optarg;
                break;
            case PLAY_O_HANDICAP:
                if (!play_parse_int(optarg, 1, 15, &handicap)) {
                    fprintf(stderr, "damier play: --handicap wants 1..15 men, not '%s'\n", optarg);
                    return 2;
                }
                break;
            case PLAY_O_HELP:
            case 'h':
                play_usage(stdout);
                return 0;
            default:
                play_usage(stderr);
                return 2;
        }
    }
    int human_side = o.human_side, level = o.level, depth = o.depth;
    int hvh = o.hvh, autoplay = o.autoplay, no_color = o.no_color, plain = o.plain;
    const char *fen = o.fen, *save_dir = o.save_dir;
    if (optind < argc) {
        fprintf(stderr, "damier play: unexpected argument '%s'\n", argv[optind]);
        play_usage(stderr);
        return 2;
    }
    if (hvh && autoplay) {
        fprintf(stderr, "damier play: --human-vs-human and --auto exclude each other\n");
        return 2;
    }
    if ((hvh || autoplay) && human_side >= 0) {
        fprintf(stderr,
                "damier play: --white/--black choose your side against the engine; "
                "not with --%s\n",
                hvh ? "human-vs-human" : "auto");
        return 2;
    }
    if (handicap && (fen || hvh || autoplay)) {
        fprintf(stderr, "damier play: --handicap is for a game against the engine from the "
                        "start position (not with --fen, --human-vs-human or --auto)\n");
        return 2;
    }
    if (human_side < 0) {
        human_side = DM_WHITE;
    }
    const dm_variant *variant = dm_variant_get(DM_VARIANT_INTERNATIONAL);
    if (o.variant && cmd_variant_from_arg(&variant, "play", o.variant) != 0) {
        return 2;
    }
    if (o.egdb && variant->id != DM_VARIANT_INTERNATIONAL && variant->id != DM_VARIANT_RUSSIAN &&
        variant->id != DM_VARIANT_BRAZILIAN && variant->id != DM_VARIANT_ENGLISH) {
        fprintf(stderr,
                "damier play: --egdb: endgame databases are of international, brazilian, "
                "russian and english draughts; not of %s\n",
                variant->name);
        return 2;
    }

    play_session s;
    memset(&s, 0, sizeof s);
    s.out = stdout;
    s.draw_offer = -1;
    s.started = (long long)time(NULL);
    play_level_get(&s.level, level);
    if (depth) {
        s.level.depth = depth;
        s.level.move_time = 0;
    }
    if (!have_seed) {
        seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
    }
    s.seed = seed;
    s.rng = seed * 0x9e3779b97f4a7c15ull + 0x2545f4914f6cdd1dull;
    play_assign_sides(s.who, &o, human_side);

    dm_board start;
    if (cmd_vboard_from_arg(&start, variant, fen)) {
        return 2;
    }
    if (handicap) {
        dm_color strong = (dm_color)!human_side;
        if (dm_board_handicap(&start, strong, handicap) != DM_OK) {
            fprintf(stderr, "damier play: cannot remove %d men\n", handicap);
            return 2;
        }
        s.handicap = handicap;
    }
    dm_error err;
    if (tc_text) {
        if (dm_time_control_parse(&s.tc, tc_text, &err) != DM_OK) {
            fprintf(stderr, "damier play: --time: %s\n  %s\n", err.message, tc_text);
            if (err.column > 0) {
                fprintf(stderr, "  %*s^\n", err.column - 1, "");
            }
            return 2;
        }
        s.has_tc = s.tc.kind != DM_TC_NONE;
    } else {
        dm_time_control_parse(&s.tc, "-", NULL);
    }
    /* The engine is also the hint giver, so two humans get one too. */
    dm_session_options so = DM_SESSION_OPTIONS_INIT;
    /* the table is cleared at creation (about 8 ms a MiB here): size it to the level */
    so.engine.tt_mib = s.level.level <= 5 ? 4 : s.level.level <= 8 ? 32 : 128;
    if (dm_session_create(&s.session, &so, &err) != DM_OK) {
        fprintf(stderr, "damier play: cannot create the session: %s\n", err.message);
        return 1;
    }
    s.start = start;
    if (dm_board_validate(&start, NULL) != DM_OK) {
        fprintf(stderr, "damier play: cannot start a game from this position\n");
        dm_session_free(s.session);
        return 2;
    }
    if (new_game(&s, &start, &err) != DM_OK) { /* the position is good: the clock */
        fprintf(stderr, "damier play: --time %s: %s\n", tc_text ? tc_text : "-", err.message);
        dm_session_free(s.session);
        return 2;
    }
    /* made now, before the clock matters (not at the engine's first move) */
    if (dm_session_prepare_engine(s.session) != DM_OK) {
        fprintf(stderr, "damier play: cannot create the engine (out of memory)\n");
        dm_session_free(s.session);
        return 1;
    }
    struct dm_egdb *egdb;
    if (cli_engine_egdb(dm_session_engine(s.session), o.egdb, "play", &egdb) != 0) {
        dm_session_free(s.session);
        return 1;
    }
    /* A folder named by --egdb must be of the game's variant (the default folder of
     * another variant is left unused: the engine probes its own variant's only). */
    if (o.egdb && egdb && dm_egdb_slice_count(egdb) > 0 && dm_egdb_variant(egdb) != variant->id) {
        fprintf(stderr, "damier play: --egdb: the database in %s is of %s, the game of %s\n",
                o.egdb, dm_variant_get(dm_egdb_variant(egdb))->name, variant->name);
        dm_session_free(s.session);
        dm_egdb_close(egdb);
        return 2;
    }
    play_ui_init(&s.ui, plain, no_color);
    s.ui.flipped = !hvh && !autoplay && human_side == DM_BLACK;
    for (int k = 0; k < 2; k++) {
        if (s.who[k] == PLAY_ENGINE) {
            snprintf(s.names[k], sizeof s.names[k], "damier level %d", s.level.level);
        } else {
            snprintf(s.names[k], sizeof s.names[k], "%s", hvh ? "player" : "you");
        }
    }
    if (save_dir) {
        snprintf(s.save_dir, sizeof s.save_dir, "%s", save_dir);
    } else if (!play_default_save_dir(s.save_dir, sizeof s.save_dir, &err)) {
        s.save_dir[0] = 0;
        fprintf(stderr, "damier play: games will not be saved automatically: %s\n", err.message);
    }
    play_signals_install();
    play_signals_engine(dm_session_engine(s.session));

    char tcs[256] = "-", fens[256];
    if (s.has_tc) {
        dm_time_control_format(tcs, sizeof tcs, &s.tc);
    }
    dm_board_to_fen(fens, sizeof fens, &start, variant->algebraic);
    if (!s.ui.tty) {
        for (int k = 0; k < 2; k++) {
            if (s.who[k] == PLAY_ENGINE) {
                if (s.level.depth > 0) {
                    fprintf(s.out, "%s: engine level %d depth %d\n", color_name(k), s.level.level,
                            s.level.depth);
                } else { /* time-limited levels: a depth of 0 would read as none */
                    fprintf(s.out, "%s: engine level %d move-time %.1f\n", color_name(k),
                            s.level.level, s.level.move_time);
                }
            } else {
                fprintf(s.out, "%s: human\n", color_name(k));
            }
        }
        fprintf(s.out, "variant: %s\ntime: %s\nseed: %llu\nfen: %s\n", variant->name, tcs,
                (unsigned long long)s.seed, fens);
        fflush(s.out);
    } else {
        char example[400] = "";
        dm_movelist *first = malloc(sizeof *first);
        if (first && dm_movegen_legal(first, &start) > 0) {
            cmd_sort_vmoves(variant, first->moves, first->count);
            vmove_text(example, sizeof example, &start, &first->moves[first->count / 2]);
        }
        free(first);
        snprintf(s.ui.message, sizeof s.ui.message,
                 _("%s. Type a move such as %s, or help for the commands."),
                 hvh                      ? _("Two players")
                 : autoplay               ? _("The engine plays itself (Ctrl-C stops)")
                 : human_side == DM_WHITE ? _("You play White")
                                          : _("You play Black"),
                 example);
    }

    play_reader rd;
    memset(&rd, 0, sizeof rd);
    rd.fd = STDIN_FILENO;
    rd.edit = s.ui.tty && isatty(STDIN_FILENO);
    int eof = 0, quit = 0, sig = 0;
    dm_status st = DM_OK;
    /* A player at a terminal is offered review, a new game and a rematch when a game
     * ends; scripts reading the plain output (stdin not a terminal) see the program
     * end with the game, as before. */
    int offer_more = isatty(STDIN_FILENO) && !autoplay;
    for (;;) {
        while (!play_interrupted()) {
            check_flag(&s);
            declare_database_draw(&s, egdb);
            if (dm_game_over(play_game(&s))) {
                break;
            }
            dm_color side = (dm_color)play_position(&s)->side;
            if (s.who[side] == PLAY_ENGINE) {
                engine_turn(&s);
                if (autoplay && s.ui.tty && !play_interrupted()) {
                    struct timespec pause = {0, 400 * 1000 * 1000}; /* let people watch */
                    nanosleep(&pause, NULL);
                }
            } else if (human_turn(&s, &rd, &eof)) {
                quit = 1;
                break;
            }
        }
        dm_clock_stop(play_clock(&s));
        sig = play_interrupted();
        int over = dm_game_over(play_game(&s));
        if (over) {
            print_result(&s);
        } else if (s.ui.tty) {
            fputc('\n', s.out);
        }
        if (!s.ui.tty && (sig || eof)) {
            fprintf(s.out, "info: %s\n",
                    sig ? _("interrupted; the game is unfinished")
                        : _("end of input; the game is unfinished"));
        }
        st = play_autosave(&s, &err);
        char saved[PATH_MAX + 64] = "";
        if (st != DM_OK) {
            fprintf(s.ui.tty ? stderr : s.out, "%s: automatic save failed: %s\n",
                    s.ui.tty ? "damier play" : "error", err.message);
        } else if (s.save_path[0]) {
            snprintf(saved, sizeof saved, "%s%s",
                     s.ui.tty ? _("Game saved to ") : "saved: ", s.save_path);
        } else {
            snprintf(saved, sizeof saved, "%s",
                     s.ui.tty ? _("No move played; nothing saved.")
                              : "info: no move played; nothing saved");
        }
        if (!over || !offer_more || sig || eof || quit) {
            if (saved[0]) {
                fprintf(s.out, "%s\n", saved);
            }
            fflush(s.out);
            break;
        }
        if (saved[0] && s.ui.tty) {
            size_t len = strlen(s.ui.message);
            snprintf(s.ui.message + len, sizeof s.ui.message - len, "%s%s", len ? "\n" : "", saved);
        } else if (saved[0]) {
            fprintf(s.out, "%s\n", saved);
        }
        after_choice next = after_game(&s, &rd, &eof);
        s.ui.review = -1;
        sig = play_interrupted();
        if (next == AFTER_QUIT) {
            break;
        }
        if (next == AFTER_REMATCH) {
            int w = s.who[DM_WHITE];
            s.who[DM_WHITE] = s.who[DM_BLACK];
            s.who[DM_BLACK] = w;
            char nm[64];
            memcpy(nm, s.names[DM_WHITE], sizeof nm);
            memcpy(s.names[DM_WHITE], s.names[DM_BLACK], sizeof nm);
            memcpy(s.names[DM_BLACK], nm, sizeof nm);
            if (!hvh) {
                s.ui.flipped = s.who[DM_BLACK] == PLAY_HUMAN;
            }
        }
        if (new_game(&s, &s.start, &err) != DM_OK) {
            fprintf(stderr, "damier play: cannot start a new game: %s\n", err.message);
            break;
        }
        s.save_path[0] = 0;
        s.autosave_failed = 0;
        s.started = (long long)time(NULL);
        s.draw_offer = -1;
        s.ui.engine_line[0] = 0;
        say(&s, "new",
            next == AFTER_REMATCH ? _("a rematch game: White %s, Black %s")
                                  : _("a new game: White %s, Black %s"),
            cli_tr_name(s.names[DM_WHITE]), cli_tr_name(s.names[DM_BLACK]));
    }
    play_signals_engine(NULL);
    dm_session_free(s.session);
    dm_egdb_close(egdb); /* after the engine that probed it */
    if (sig) {
        return 128 + sig;
    }
    return st == DM_OK ? 0 : 1;
}
