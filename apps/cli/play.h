/* SPDX-License-Identifier: MIT
 * apps/cli/play.h: `damier play`, the terminal game, shared by cmd_play.c and the
 * play_*.c helpers (rendering, command parsing, save/load, terminal, engine levels).
 * Two output modes: "tty" (stdin and stdout are terminals: the board is redrawn with
 * Unicode pieces and ANSI colours) and "plain" (anything else: one `key: value` line
 * per event, never an escape code; the format is documented in README.md). */
#ifndef DM_APPS_CLI_PLAY_H
#define DM_APPS_CLI_PLAY_H

#include <getopt.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <damier/clock.h>
#include <damier/engine.h>
#include <damier/game.h>
#include <damier/pdn.h>
#include <damier/session.h>
#include <damier/status.h>
#include <damier/variant.h>

#include "commands.h"

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif

enum {
    PLAY_HUMAN = 0,
    PLAY_ENGINE = 1
};

/* How the game is shown. */
typedef struct play_ui {
    int tty;               /* 1: interactive board redrawn on a terminal; 0: plain lines */
    int color;             /* ANSI colours (tty only; off with --no-color or NO_COLOR) */
    int color256;          /* the terminal advertises 256 colours (TERM contains "256") */
    int unicode;           /* Unicode pieces (UTF-8 locale); else ASCII letters */
    int numbers;           /* square numbers on the empty dark squares */
    int flipped;           /* 1: Black's view (White's men at the top) */
    int panel_row;         /* screen row (1-based) of the first status panel line, tty */
    int panel_col;         /* screen column (1-based) of the status panel, tty */
    char message[2048];    /* last message shown under the board (tty) */
    char engine_line[512]; /* the engine's expected line (tty) */
    int hide_engine;       /* 1: the engine's line is not shown (command `engine`) */
    int review;            /* after the game: the ply shown in review (0 = the start), or
                              -1 when not reviewing (the board shows the game's end) */
} play_ui;

/* Engine strength: what a level means (play_engine.c). */
typedef struct play_level {
    int level;        /* 1..10 */
    int depth;        /* nominal depth cap, 0 = none */
    double move_time; /* seconds per move cap, 0 = none */
    int margin;       /* 0: play the best move; > 0: pick at random (seeded) among the
                         moves scoring within margin hundredths of a man of the best */
} play_level;

/* One game session. */
typedef struct play_session {
    dm_session *session; /* the game, its clock and the engine (also the hint giver) */
    dm_time_control tc;  /* the time control both sides play under */
    int has_tc;          /* 0: "-" (clocks only count the time used) */
    int who[2];          /* PLAY_HUMAN or PLAY_ENGINE for [DM_WHITE], [DM_BLACK] */
    play_level level;
    uint64_t rng; /* xorshift state, from --seed */
    uint64_t seed;
    int handicap;             /* men removed from the engine's side */
    int draw_offer;           /* -1 none; else the dm_color that offered a draw (two humans) */
    dm_board start;           /* the position new games and rematches start from */
    char names[2][64];        /* player names for the display and the PDN tags */
    char save_dir[PATH_MAX];  /* where automatic saves go ("" = not known) */
    char save_path[PATH_MAX]; /* this game's automatic save file, once chosen */
    int autosave_failed;      /* the last automatic save failed (already reported) */
    long long started;        /* time(NULL) at the start, for the file name and Date tag */
    play_ui ui;
    FILE *out;
} play_session;

/* The game, the clock of the session (borrowed; valid until the game is replaced). */
static inline const dm_game *play_game(const play_session *s)
{
    return dm_session_game(s->session);
}

/* The current position of the game, any variant. */
static inline const dm_board *play_position(const play_session *s)
{
    return dm_game_position(play_game(s));
}

static inline dm_clock *play_clock(const play_session *s)
{
    return dm_session_clock(s->session);
}

/* ---- play_render.c ---------------------------------------------------------------- */

/* Redraw the whole screen (tty mode): board, status panel, last move, engine line,
 * message. */
void play_render_screen(play_session *s);

/* Update only the clock lines of the panel in place (tty mode, while waiting for
 * input); keeps the cursor where the user is typing. */
void play_render_clocks(play_session *s);

/* The board as ASCII rows, each line prefixed with `prefix` (plain mode `board`): one
 * line per row of the variant's board, w b W B for men and kings, . for an empty
 * playing square, then the row's square numbers as the variant's records number them
 * ("46-50"), or its rank, with a last line of files, where the variant's records are
 * algebraic. */
void play_render_plain_board(FILE *f, const dm_board *b, int flipped, const char *prefix);

/* "M:SS" of the time left (or used, without a time control) of one side. */
void play_clock_text(char *buf, size_t cap, play_session *s, dm_color side);

/* Pieces captured so far by side c (sum over its moves in the game). */
int play_captured_by(const dm_game *g, dm_color c);

/* Move number and text of ply i: "12." / "12..." in num (counted from the variant's
 * first mover: Black in English checkers), the move in the variant's notation. */
void play_ply_text(char *num, size_t ncap, char *mv, size_t mcap, const dm_game *g, int i);

/* A principal variation as text ("19-23 28x19 14x23") from position b, in b's
 * variant's notation; stops at a move that is not legal. */
void play_pv_text(char *buf, size_t cap, const dm_board *b, const dm_move *pv, int n);

/* Score in men with two decimals and a sign: "+0.25", "-1.00", "+win 12", "-loss 7". */
void play_score_text(char *buf, size_t cap, int score);

/* ---- play_input.c ----------------------------------------------------------------- */

typedef enum play_cmd_kind {
    PLAY_CMD_EMPTY = 0, /* blank line */
    PLAY_CMD_MOVE,      /* anything else: a move (dm_game_play_text, any variant) */
    PLAY_CMD_HINT,
    PLAY_CMD_UNDO,
    PLAY_CMD_MOVES,
    PLAY_CMD_FLIP,
    PLAY_CMD_NUMBERS,
    PLAY_CMD_DRAW,
    PLAY_CMD_RESIGN,
    PLAY_CMD_SAVE,
    PLAY_CMD_LOAD,
    PLAY_CMD_HELP,
    PLAY_CMD_QUIT,
    PLAY_CMD_BOARD,
    PLAY_CMD_HISTORY, /* the moves of the game so far */
    PLAY_CMD_LEVEL,   /* change the engine's level: level N */
    PLAY_CMD_ENGINE,  /* show or hide the engine's line */
    PLAY_CMD_SIDE,    /* swap sides with the engine */
    PLAY_CMD_BAD      /* a command word with a missing or extra argument */
} play_cmd_kind;

typedef struct play_cmd {
    play_cmd_kind kind;
    char arg[PATH_MAX]; /* the move text, or the file of save/load */
    char error[128];    /* why, for PLAY_CMD_BAD */
} play_cmd;

/* True when the first len characters of word are a word of two or more letters and
 * so cannot be a move (every move has a digit: "32-28", "c3-d4"); the game then
 * answers "unknown command" instead of a move error. */
int play_word_is_not_move(const char *word, size_t len);

/* Classify one input line (trailing newline and surrounding blanks ignored; command
 * words case-insensitive). */
void play_parse_command(play_cmd *out, const char *line);

/* The command summary printed by `help`, each line prefixed with prefix. */
void play_print_help(FILE *f, const char *prefix, const char *example);

/* Buffered line reader over a file descriptor (stdin), usable with poll(2), so that a
 * clock can be watched while the player thinks. */
typedef struct play_reader {
    int fd;
    int edit; /* 1: a terminal, read through libedit (arrow keys, history) when the
                     build has it (DM_HAVE_LIBEDIT); 0: the plain reader below */
    int eof;
    size_t len;
    int skipping; /* the line handed out was cut: drop input up to its newline */
    char buf[8192];
} play_reader;

/* Called about twice a second while waiting; nonzero stops the wait. */
typedef int (*play_tick_fn)(void *payload);

/* Read one line (without its newline) into line, after showing prompt (may be NULL)
 * on out. Returns 1 for a line, 0 at end of input, -1 when interrupted by a signal
 * (see play_interrupted), -2 when tick asked to stop. A line longer than cap is
 * truncated (the rest is dropped). With r->edit the line is edited with libedit
 * (cursor keys, history of the lines entered) while tick keeps the clock going. */
int play_read_line(play_reader *r, FILE *out, const char *prompt, char *line, size_t cap,
                   play_tick_fn tick, void *payload);

/* 1 when this build edits terminal lines with libedit. */
int play_line_editing(void);

/* ---- play_term.c ------------------------------------------------------------------ */

/* Install SIGINT/SIGTERM/SIGHUP handlers that set a flag (and stop the engine's
 * search) instead of killing the program, so the game can be saved. */
void play_signals_install(void);

/* The signal that arrived, or 0. */
int play_interrupted(void);

/* The engine a signal must stop (NULL = none). */
void play_signals_engine(dm_engine *e);

/* Decide the display mode from the options, the environment (NO_COLOR, TERM, locale)
 * and whether stdin/stdout are terminals. */
void play_ui_init(play_ui *ui, int force_plain, int no_color);

/* ---- play_save.c ------------------------------------------------------------------ */

/* The games directory: $XDG_DATA_HOME/damier/games, else
 * $HOME/.local/share/damier/games. 0 and a reason in err when neither is set. */
int play_default_save_dir(char *buf, size_t cap, dm_error *err);

/* The tags of a saved game (also the jumping games'): Event
 * "Casual game", Site "damier play", Date of `started` (time(NULL), local time,
 * written into date, cap bytes, which must outlive *out), Round "-", the players. */
void play_record_tags(dm_pdn_game_tags *out, char *date, size_t cap, long long started,
                      const char *white, const char *black);

/* Write text to path so that, whenever the program is killed, path holds either its
 * old content or all of text: a unique temporary file beside it ("<path>.XXXXXX",
 * the target's mode), fsync, rename over path, fsync of the directory. A symbolic
 * link or a special file is written in place (a rename would replace it). Only an
 * interrupted save can leave its temporary file behind. */
dm_status play_write_file(const char *path, const char *text, size_t len, dm_error *err);

/* A new file with text in dir under the first free name "<base>.pdn", "<base>-2.pdn",
 * ... (out, cap bytes, gets it): never replaces a file, and the name appears with the
 * complete text (written to "<dir>/<base>.pdn.XXXXXX", synced, then hard-linked). */
dm_status play_create_file(char *out, size_t cap, const char *dir, const char *base,
                           const char *text, size_t len, dm_error *err);

/* Write the game as PDN to path (play_write_file: a crash never leaves half a file). */
dm_status play_save_file(play_session *s, const char *path, dm_error *err);

/* Save to this game's automatic file under s->save_dir (created if missing, the file
 * named after the start date and time, never overwriting another game). Does nothing
 * (returns DM_OK) before the first move. */
dm_status play_autosave(play_session *s, dm_error *err);

/* Read the first game of a PDN file and replay it into a new game (*out, caller
 * frees) of the variant its GameType names (international without one). A move that
 * cannot be replayed stops the replay with a note in warn ("" when all moves were
 * replayed). */
dm_status play_load_file(dm_game **out, const char *path, char *warn, size_t wcap, dm_error *err);

/* ---- play_engine.c ---------------------------------------------------------------- */

/* The settings of a level (1..10). */
void play_level_get(play_level *out, int level);

/* Choose the engine's move in the current position (any variant): a search within
 * the level's limits and the clock (if any), run on the session's thread while tick
 * (called about ten times a second on this thread; nonzero stops the search: a flag
 * fell, a signal) keeps the clocks moving on screen; for imperfect levels every root
 * move is scored and one within the margin is drawn from s->rng. out gets the move,
 * its score and the expected line (info->pv). DM_ESTATE when the side to move has no
 * move. */
dm_status play_engine_choose(dm_info *info, play_session *s, play_tick_fn tick, void *payload);

/* The best move for the side to move at full strength within a small budget (for
 * `hint`), with tick as for play_engine_choose. */
dm_status play_engine_hint(dm_info *info, play_session *s, play_tick_fn tick, void *payload);

/* Does the engine accept a draw offer in the current position? (its search score is
 * level and the position is dead; see cmd_play.c's help). why gets the reason. */
int play_engine_accepts_draw(play_session *s, char *why, size_t cap);

/* xorshift64*: the next pseudo-random number of the session. */
uint64_t play_random(play_session *s);

/* Defined in cmd_moves.c: sort moves as `damier moves` lists them. */

/* ---- play_options.c ---------------------------------------------------------------- */

/* getopt_long values of play_long_options (both games accept the same options). */
enum {
    PLAY_O_WHITE = 1000,
    PLAY_O_BLACK,
    PLAY_O_LEVEL,
    PLAY_O_DEPTH,
    PLAY_O_SEED,
    PLAY_O_TIME,
    PLAY_O_FEN,
    PLAY_O_HANDICAP,
    PLAY_O_HVH,
    PLAY_O_AUTO,
    PLAY_O_NOCOLOR,
    PLAY_O_PLAIN,
    PLAY_O_SAVEDIR,
    PLAY_O_HELP,
    PLAY_O_VARIANT,
    PLAY_O_EGDB
};

extern const struct option play_long_options[];

/* The options both games read the same way. Initialise with PLAY_OPTIONS_INIT. */
typedef struct play_options {
    int human_side; /* -1 until --white / --black, then DM_WHITE / DM_BLACK */
    int level;      /* 1..10, default 5 */
    int depth;      /* 0: the level's */
    int hvh, autoplay, no_color, plain;
    const char *fen;      /* NULL: the start position (else in the variant's FEN) */
    const char *save_dir; /* NULL: play_default_save_dir */
    const char *egdb;     /* --egdb DIR (international, brazilian, russian, english), NULL: none */
    const char *variant;  /* --variant NAME, NULL: international */
} play_options;
#define PLAY_OPTIONS_INIT                                                                          \
    {                                                                                              \
        -1, 5, 0, 0, 0, 0, 0, NULL, NULL, NULL, NULL                                               \
    }

/* Parse a decimal integer in lo..hi: 1 and *out set, or 0 (out untouched). */
int play_parse_int(const char *text, int lo, int hi, int *out);

/* Apply getopt_long's value c (argument arg) when it is a shared option: 1 handled,
 * 0 not a shared option (the caller's own switch decides), -1 a bad value (the
 * message is on stderr; exit status 2). --depth takes 1..max_depth. */
int play_common_option(play_options *o, int c, const char *arg, int max_depth);

/* who[DM_WHITE], who[DM_BLACK]: PLAY_HUMAN / PLAY_ENGINE from --human-vs-human,
 * --auto, else human_side for the human. */
void play_assign_sides(int who[2], const play_options *o, int human_side);

/* mkdir -p (play_save.c); an existing directory is fine. */
dm_status play_make_dirs(const char *dir, dm_error *err);

/* ---- play_jump.c ------------------------------------------------------------------- */

/* `damier play --game ...`, the jumping games (play_jump.c): *handled is set when argv
 * has --game, and the return value is then the exit status. */
int play_jump_dispatch(int argc, char **argv, int *handled);

#endif
