/* SPDX-License-Identifier: MIT
 * apps/cli/play_render.c: drawing the game for `damier play`.
 *
 * Board geometry (FMJD 2.6): row r = 0..9 from the top, column c = 0..9 from the left,
 * as seen by White. Dark squares are those with r + c odd; the square there is
 *         5 * r + c / 2 + 1          (row 0: squares 1-5 in columns 1,3,5,7,9)
 * Flipped (Black's view) shows row 9 - r, column 9 - c at screen row r, column c.
 *
 * Screen (tty mode), 1-based rows:
 *     1       title
 *     3..12   board rows (3 columns a square), status panel to the right
 *     14      message (error, hint, result), then the prompt
 * The panel's clock lines are rewritten in place while the player thinks, so their
 * rows are remembered in ui->panel_row / ui->panel_col. */
#define _POSIX_C_SOURCE 200809L
#include "cli_i18n.h"
#include "play.h"

#include <string.h>

#define BOARD_TOP 3
#define PANEL_COL 36
#define PANEL_WIDTH 46

static int square_at(int r, int c)
{
    return ((r + c) & 1) ? 5 * r + c / 2 + 1 : 0;
}

static dm_color ply_mover(const dm_game *g, int i)
{
    return (dm_color)((dm_game_start(g)->side + i) & 1);
}

int play_captured_by(const dm_game *g, dm_color c)
{
    int n = 0;
    for (int i = 0; i < dm_game_ply(g); i++) {
        if (ply_mover(g, i) == c) {
            n += dm_game_move_at(g, i)->ncapt;
        }
    }
    return n;
}

void play_ply_text(char *num, size_t ncap, char *mv, size_t mcap, const dm_game *g, int i)
{
    int j = i + (dm_game_start(g)->side == DM_BLACK ? 1 : 0);
    snprintf(num, ncap, "%d%s", j / 2 + 1, (j & 1) ? "..." : ".");
    if (dm_game_move_text(mv, mcap, g, i, DM_NOTATION_PDN) == 0 && mcap > 0) {
        mv[0] = 0;
    }
}

void play_pv_text(char *buf, size_t cap, const dm_board *b, const dm_move *pv, int n)
{
    dm_board pos = *b;
    size_t len = 0;
    if (cap > 0) {
        buf[0] = 0;
    }
    for (int i = 0; i < n; i++) {
        /* A PV from the table can in theory hold a move that is no longer legal:
         * stop there rather than print nonsense. */
        dm_movelist list;
        dm_movegen_legal(&list, &pos);
        int ok = 0;
        for (int k = 0; k < list.count && !ok; k++) {
            ok = dm_move_equal(&list.moves[k], &pv[i]);
        }
        if (!ok) {
            break;
        }
        char mv[160];
        dm_move_to_text(mv, sizeof mv, &pos, &pv[i], DM_NOTATION_PDN);
        int w = snprintf(buf + len, cap > len ? cap - len : 0, "%s%s", i ? " " : "", mv);
        if (w < 0 || len + (size_t)w >= cap) {
            break;
        }
        len += (size_t)w;
        dm_board_apply(&pos, &pv[i]);
    }
}

void play_score_text(char *buf, size_t cap, int score)
{
    int a = score < 0 ? -score : score;
    if (a >= DM_SCORE_WIN_MIN) {
        snprintf(buf, cap, "%s%d", score > 0 ? "win" : "loss", DM_SCORE_WIN - a);
    } else if (a >= DM_SCORE_EGDB_MIN) {
        /* endgame database: win/loss with N plies to the conversion */
        snprintf(buf, cap, "%s%d", score > 0 ? "dbwin" : "dbloss", DM_SCORE_EGDB - a);
    } else {
        snprintf(buf, cap, "%c%d.%02d", score < 0 ? '-' : '+', a / 100, a % 100);
    }
}

void play_clock_text(char *buf, size_t cap, play_session *s, dm_color side)
{
    dm_clock_side info;
    dm_clock_side_info(&info, play_clock(s), side);
    char t[32];
    if (s->has_tc) {
        dm_clock_format_ms(t, sizeof t, info.remaining_ms, 1);
        if (info.moves_to_go > 0) {
            snprintf(buf, cap, "%s (%d to go)", t, info.moves_to_go);
        } else {
            snprintf(buf, cap, "%s", t);
        }
    } else {
        dm_clock_format_ms(t, sizeof t, info.used_ms, 0);
        snprintf(buf, cap, "%s used", t);
    }
}

/* The clock as the board's panel shows it (FMJD 9): with a moves-in-time control, the
 * time left until the next control, the moves still due and the move the control
 * falls on ("1:05:12 (12 by move 40)": short enough for 80 columns); otherwise as
 * play_clock_text. */
static void panel_clock_text(char *buf, size_t cap, play_session *s, dm_color side)
{
    dm_clock_side info;
    dm_clock_side_info(&info, play_clock(s), side);
    char t[32]; /* as play_clock_text, in the player's language (that one is the plain output's) */
    if (s->has_tc && info.moves_to_go > 0 && info.control_move > 0) {
        dm_clock_format_ms(t, sizeof t, info.remaining_ms, 1);
        snprintf(buf, cap, _("%s (%d by move %d)"), t, info.moves_to_go, info.control_move);
    } else if (s->has_tc && info.moves_to_go > 0) {
        dm_clock_format_ms(t, sizeof t, info.remaining_ms, 1);
        snprintf(buf, cap, _("%s (%d to go)"), t, info.moves_to_go);
    } else if (s->has_tc) {
        dm_clock_format_ms(t, sizeof t, info.remaining_ms, 1);
        snprintf(buf, cap, "%s", t);
    } else {
        dm_clock_format_ms(t, sizeof t, info.used_ms, 0);
        snprintf(buf, cap, _("%s used"), t);
    }
}

void play_render_plain_board(FILE *f, const dm_board *b, int flipped, const char *prefix)
{
    static const char sym[] = {'.', 'w', 'b', 'W', 'B'};
    for (int r = 0; r < 10; r++) {
        fputs(prefix, f);
        int rr = flipped ? 9 - r : r;
        for (int c = 0; c < 10; c++) {
            int cc = flipped ? 9 - c : c;
            int sq = square_at(rr, cc);
            fputc(' ', f);
            fputc(sq ? sym[dm_board_piece(b, sq)] : ' ', f);
        }
        /* the square numbers of the row, for reading the picture */
        int lo = 5 * rr + 1;
        fprintf(f, "   %d-%d\n", flipped ? lo + 4 : lo, flipped ? lo : lo + 4);
    }
}

/* ---- tty screen ------------------------------------------------------------------ */

/* Escape sequences; empty strings when colours are off. */
typedef struct palette {
    const char *reset, *light, *dark, *high, *num, *white, *black, *capt, *bold, *dim;
} palette;

static void get_palette(palette *p, const play_ui *ui)
{
    if (!ui->color) {
        *p = (palette){"", "", "", "", "", "", "", "", "", ""};
        return;
    }
    if (ui->color256) {
        *p = (palette){"\033[0m",        "\033[48;5;180m", "\033[48;5;94m", "\033[48;5;136m",
                       "\033[38;5;180m", "\033[1;97m",     "\033[38;5;16m", "\033[1;38;5;160m",
                       "\033[1m",        "\033[2m"};
    } else {
        *p = (palette){"\033[0m",    "\033[47m", "\033[42m",   "\033[43m", "\033[37m",
                       "\033[1;97m", "\033[30m", "\033[1;31m", "\033[1m",  "\033[2m"};
    }
}

static const char *piece_glyph(const play_ui *ui, dm_piece pc)
{
    if (!ui->unicode) {
        static const char *ascii[] = {" ", "w", "b", "W", "B"};
        return ascii[pc];
    }
    if (ui->color) {
        /* colour tells the sides apart: solid shapes read best on a square */
        static const char *solid[] = {" ", "\u25cf", "\u25cf", "\u265a", "\u265a"};
        return solid[pc];
    }
    static const char *shape[] = {" ", "\u25cb", "\u25cf", "\u2654", "\u265a"};
    return shape[pc];
}

/* The status panel, one line per board row (may be empty). */
static void build_panel(char panel[10][256], play_session *s)
{
    const dm_game *g = play_game(s);
    const play_ui *ui = &s->ui;
    int reviewing = ui->review >= 0 && ui->review <= dm_game_ply(g);
    const dm_board *b = reviewing ? dm_game_board_at(g, ui->review) : dm_game_board(g);
    palette p;
    get_palette(&p, ui);
    for (int i = 0; i < 10; i++) {
        panel[i][0] = 0;
    }
    dm_color top = ui->flipped ? DM_WHITE : DM_BLACK;
    int over = dm_game_over(g);
    for (int k = 0; k < 2; k++) {
        dm_color c = k == 0 ? top : (dm_color)!top;
        int row = k == 0 ? 0 : 8;
        const char *mark = (!over && b->side == (int)c)
                               ? (ui->unicode ? _(" \u25c0 to move") : _(" <- to move"))
                               : "";
        snprintf(panel[row], sizeof panel[row], "%s%s%s  %s%s", p.bold,
                 c == DM_WHITE ? _("White") : _("Black"), p.reset, cli_tr_name(s->names[c]), mark);
        char clk[64];
        panel_clock_text(clk, sizeof clk, s, c);
        snprintf(panel[row + 1], sizeof panel[row + 1], _("  clock %-16s captured %d"), clk,
                 play_captured_by(g, c));
    }
    int ply = reviewing ? ui->review : dm_game_ply(g);
    int j = ply + (dm_game_start(g)->side == DM_BLACK ? 1 : 0);
    if (reviewing) {
        snprintf(panel[3], sizeof panel[3], _("%sReview: ply %d of %d%s"), p.bold, ply,
                 dm_game_ply(g), p.reset);
    } else if (over) {
        dm_reason why;
        dm_outcome res = dm_game_result(g, &why);
        snprintf(panel[3], sizeof panel[3], _("%sGame over: %s (%s)%s"), p.bold,
                 dm_outcome_str(res), cli_tr_reason(dm_reason_str(why)), p.reset);
    } else {
        snprintf(panel[3], sizeof panel[3], _("Move %d, %s to move"), j / 2 + 1,
                 b->side == DM_WHITE ? _("White") : _("Black"));
    }
    if (ply > 0) {
        char num[16], mv[160];
        play_ply_text(num, sizeof num, mv, sizeof mv, g, ply - 1);
        snprintf(panel[4], sizeof panel[4], "%s: %s %s", reviewing ? _("Move") : _("Last move"),
                 num, mv);
    }
    if (ui->engine_line[0] && !reviewing && !ui->hide_engine) {
        /* "Engine: +0.12 d7 | 19-23 28x19 ...", on two panel lines at most, broken
         * between moves */
        const char *t = ui->engine_line;
        for (int k = 0; k < 2 && *t; k++) {
            size_t take = strlen(t);
            if (take > PANEL_WIDTH) {
                take = PANEL_WIDTH;
                while (take > 0 && t[take] != ' ') {
                    take--;
                }
                if (take == 0) {
                    take = PANEL_WIDTH;
                }
            }
            snprintf(panel[6 + k], sizeof panel[6 + k], "%s%.*s", k ? "  " : "", (int)take, t);
            t += take;
            while (*t == ' ') {
                t++;
            }
        }
    }
}

void play_render_screen(play_session *s)
{
    play_ui *ui = &s->ui;
    FILE *f = s->out;
    palette p;
    get_palette(&p, ui);
    const dm_game *g = play_game(s);
    int ply = ui->review >= 0 && ui->review <= dm_game_ply(g) ? ui->review : dm_game_ply(g);
    const dm_board *b = dm_game_board_at(g, ply);
    int from = 0, to = 0, capt[64], ncapt = 0;
    if (ply > 0) {
        const dm_move *m = dm_game_move_at(g, ply - 1);
        from = m->from;
        to = m->to;
        ncapt = dm_move_captured(m, capt, 64);
    }
    char panel[10][256];
    build_panel(panel, s);
    ui->panel_row = BOARD_TOP;
    ui->panel_col = PANEL_COL;

    fputs("\033[H\033[2J", f);
    fprintf(f, "%sdamier play%s %s %s   %s%s%s\n\n", p.bold, p.reset, ui->unicode ? "\u2014" : "-",
            _("international draughts"), p.dim, _("(type help)"), p.reset);
    for (int r = 0; r < 10; r++) {
        int rr = ui->flipped ? 9 - r : r;
        fputs(ui->color ? "  " : " |", f);
        for (int c = 0; c < 10; c++) {
            int cc = ui->flipped ? 9 - c : c;
            int sq = square_at(rr, cc);
            if (!sq) {
                fprintf(f, "%s   %s", p.light, p.reset);
                continue;
            }
            dm_piece pc = dm_board_piece(b, sq);
            int is_capt = 0;
            for (int k = 0; k < ncapt; k++) {
                is_capt |= capt[k] == sq;
            }
            int high = sq == from || sq == to;
            const char *bg = high && ui->color ? p.high : p.dark;
            const char *l = " ", *rgt = " ";
            if (high && !ui->color) {
                l = "[";
                rgt = "]";
            }
            fputs(bg, f);
            if (pc != DM_EMPTY) {
                const char *fg = (pc == DM_WHITE_MAN || pc == DM_WHITE_KING) ? p.white : p.black;
                fprintf(f, "%s%s%s%s%s%s", l, fg, piece_glyph(ui, pc), p.reset, bg, rgt);
            } else if (is_capt && pc == DM_EMPTY) {
                fprintf(f, "%s%s%s%s%s%s", l, p.capt, ui->unicode ? "\u00d7" : "x", p.reset, bg,
                        rgt);
            } else if (ui->numbers && !high) {
                fprintf(f, "%s%2d%s%s ", p.num, sq, p.reset, bg);
            } else {
                fprintf(f, "%s%s%s", l, ui->color ? " " : (ui->unicode ? "\u00b7" : "."), rgt);
            }
            fputs(p.reset, f);
        }
        fprintf(f, "%s  %s\n", ui->color ? " " : "|", panel[r]);
    }
    fputc('\n', f);
    if (ui->message[0]) {
        fprintf(f, "%s\n", ui->message);
    }
    fflush(f);
}

void play_render_clocks(play_session *s)
{
    play_ui *ui = &s->ui;
    if (!ui->tty || ui->panel_row == 0) {
        return;
    }
    dm_color top = ui->flipped ? DM_WHITE : DM_BLACK;
    for (int k = 0; k < 2; k++) {
        dm_color c = k == 0 ? top : (dm_color)!top;
        int row = ui->panel_row + (k == 0 ? 1 : 9);
        char clk[64];
        panel_clock_text(clk, sizeof clk, s, c);
        /* save cursor, go to the clock line, rewrite it, restore the cursor */
        char line[256];
        snprintf(line, sizeof line, _("  clock %-16s captured %d"), clk,
                 play_captured_by(play_game(s), c));
        fprintf(s->out, "\0337\033[%d;%dH%s\033[K\0338", row, ui->panel_col, line);
    }
    fflush(s->out);
}
