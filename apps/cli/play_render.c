/* SPDX-License-Identifier: MIT
 * apps/cli/play_render.c: drawing the game for `damier play`, every variant.
 *
 * Board geometry (variant.h): row r = 0..n-1 from the top, column c = 0..n-1 from the
 * left, as seen by White, on the core's board. On the diagonal boards the playing
 * squares are those with r + c odd, numbered n/2 to a row from the top left:
 *         (n / 2) * r + c / 2 + 1          (10x10 row 0: squares 1-5)
 * A turned board (Italian, Spanish: a1 light) is the core's board mirrored, so its
 * screen column c shows the core's column n-1-c; Turkish plays all n*n squares
 * (n * r + c + 1). Flipped (Black's view) shows row n-1-r, column n-1-c at screen row
 * r, column c. Labels are the variant's own: the square numbers of its records on
 * the empty squares (dm_square_number), or files and ranks around an algebraic
 * board (dm_square_to_text).
 *
 * Screen (tty mode), 1-based rows:
 *     1         title
 *     3..2+n    board rows (3 columns a square), status panel to the right
 *     3+n       files (algebraic boards)
 *     then      message (error, hint, result), then the prompt
 * The panel's clock lines are rewritten in place while the player thinks, so their
 * rows are remembered in ui->panel_row / ui->panel_col. */
#define _POSIX_C_SOURCE 200809L
#include "cli_i18n.h"
#include "play.h"

#include <string.h>

#define BOARD_TOP 3
#define PANEL_WIDTH 46
#define MAX_ROWS 12
#define SCREEN_COLS 80 /* the narrowest terminal the board is drawn for */

/* The core's square at screen row r, column c of variant v's board (flipped: Black's
 * view), or 0 for a square that is not played. */
static int square_at(const dm_variant *v, int r, int c, int flipped)
{
    int n = v->size;
    int rr = flipped ? n - 1 - r : r, cc = flipped ? n - 1 - c : c;
    if (v->invert) {
        cc = n - 1 - cc;
    }
    if (v->geometry == DM_GEOM_FULL) {
        return n * rr + cc + 1;
    }
    return ((rr + cc) & 1) ? (n / 2) * rr + cc / 2 + 1 : 0;
}

/* The algebraic label of screen row r (its rank, "10") or column c (its file, 'a'),
 * read from a playing square there: right whatever the turn of the board. */
static void rank_label(char *buf, size_t cap, const dm_variant *v, int r, int flipped)
{
    buf[0] = 0;
    for (int c = 0; c < v->size; c++) {
        int sq = square_at(v, r, c, flipped);
        if (sq) {
            char t[8];
            dm_square_to_text(t, sizeof t, v, sq, 1);
            snprintf(buf, cap, "%s", t + 1);
            return;
        }
    }
}

static char file_label(const dm_variant *v, int c, int flipped)
{
    for (int r = 0; r < v->size; r++) {
        int sq = square_at(v, r, c, flipped);
        if (sq) {
            char t[8];
            dm_square_to_text(t, sizeof t, v, sq, 1);
            return t[0];
        }
    }
    return ' ';
}

/* Files and ranks around the board where the variant's records are algebraic
 * (Russian, Brazilian, Turkish); square numbers otherwise. */
static int algebraic_board(const dm_variant *v)
{
    return v->algebraic || v->geometry == DM_GEOM_FULL;
}

static dm_color ply_mover(const dm_game *g, int i)
{
    return (dm_color)((dm_game_position_at(g, 0)->side + i) & 1);
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

/* Plies before ply 0 in the numbering: 1 when the game starts with the second mover
 * to move ("1..."; White in English checkers, where Black moves first). */
static int ply_offset(const dm_game *g)
{
    return dm_game_position_at(g, 0)->side != (int)dm_game_variant(g)->first;
}

void play_ply_text(char *num, size_t ncap, char *mv, size_t mcap, const dm_game *g, int i)
{
    int j = i + ply_offset(g);
    snprintf(num, ncap, "%d%s", j / 2 + 1, (j & 1) ? "..." : ".");
    if (dm_game_move_text(mv, mcap, g, i, DM_NOTATION_PDN) == 0 && mcap > 0) {
        mv[0] = 0;
    }
}

/* The legal move of pos that is m (from, to and captured squares), or NULL. */
static const dm_move *legal_twin(const dm_movelist *list, const dm_move *m)
{
    for (int k = 0; k < list->count; k++) {
        const dm_move *x = &list->moves[k];
        if (x->from == m->from && x->to == m->to && x->capt[0] == m->capt[0] &&
            x->capt[1] == m->capt[1]) {
            return x;
        }
    }
    return NULL;
}

void play_pv_text(char *buf, size_t cap, const dm_board *b, const dm_move *pv, int n)
{
    dm_board pos = *b;
    dm_movelist list;
    size_t len = 0;
    if (cap > 0) {
        buf[0] = 0;
    }
    for (int i = 0; i < n; i++) {
        /* A PV from the table can in theory hold a move that is no longer legal:
         * stop there rather than print nonsense. */
        dm_movegen_legal(&list, &pos);
        if (!legal_twin(&list, &pv[i])) {
            break;
        }
        char mv[400];
        dm_move_to_text(mv, sizeof mv, &pos, &pv[i], DM_NOTATION_PDN, DM_SQUARES_DEFAULT);
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
    const dm_variant *v = b->variant;
    int n = v->size, alg = algebraic_board(v);
    for (int r = 0; r < n; r++) {
        fputs(prefix, f);
        int lo = 0, hi = 0;
        for (int c = 0; c < n; c++) {
            int sq = square_at(v, r, c, flipped);
            fputc(' ', f);
            fputc(sq ? sym[dm_board_piece(b, sq)] : ' ', f);
            if (sq) {
                hi = dm_square_number(v, sq);
                lo = lo ? lo : hi;
            }
        }
        if (alg) { /* the rank, for reading the picture */
            char rank[8];
            rank_label(rank, sizeof rank, v, r, flipped);
            fprintf(f, "   %s\n", rank);
        } else { /* the square numbers of the row as the records number them */
            fprintf(f, "   %d-%d\n", lo, hi);
        }
    }
    if (alg) {
        fputs(prefix, f);
        for (int c = 0; c < n; c++) {
            fprintf(f, " %c", file_label(v, c, flipped));
        }
        fputc('\n', f);
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

/* Screen rows (0-based, from the board's top) of the two players' lines in the panel:
 * the top one at 0, the bottom one two rows above the board's last. */
static int panel_player_row(int n, int k)
{
    return k == 0 ? 0 : n - 2;
}

/* Cut line (UTF-8, with colour escapes) to at most width columns on the screen, so
 * that a long line beside the 12x12 board does not wrap onto the next board row
 * (CJK characters take two columns; escapes none); the escapes after the cut are
 * kept, which ends a colour that was cut. */
static void fit_columns(char *line, int width)
{
    char *w = line;
    int cols = 0;
    for (const char *r = line; *r;) {
        unsigned char c = (unsigned char)*r;
        if (c == 0x1b) { /* ESC [ ... letter: copied, no width */
            const char *e = r + 1;
            while (*e && !((*e >= 'A' && *e <= 'Z') || (*e >= 'a' && *e <= 'z'))) {
                e++;
            }
            e += *e != 0;
            memmove(w, r, (size_t)(e - r));
            w += e - r;
            r = e;
            continue;
        }
        int len = c < 0x80 ? 1 : c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 1;
        unsigned cp = c;
        if (len == 3) {
            cp = ((c & 0x0fu) << 12) | (((unsigned char)r[1] & 0x3fu) << 6) |
                 ((unsigned char)r[2] & 0x3fu);
        }
        int cw = (len == 3 && cp >= 0x2e80 && cp <= 0xffdc) || len == 4 ? 2 : 1;
        for (int k = 1; k < len; k++) {
            if (!r[k]) {
                len = k;
                break;
            }
        }
        if (cols + cw <= width) {
            memmove(w, r, (size_t)len);
            w += len;
            cols += cw;
        }
        r += len;
    }
    *w = 0;
}

/* The status panel, one line per board row (may be empty), each at most width
 * columns. */
static void build_panel(char panel[MAX_ROWS][256], play_session *s, int width)
{
    const dm_game *g = play_game(s);
    const play_ui *ui = &s->ui;
    int n = dm_game_variant(g)->size;
    int reviewing = ui->review >= 0 && ui->review <= dm_game_ply(g);
    const dm_board *b = reviewing ? dm_game_position_at(g, ui->review) : dm_game_position(g);
    palette p;
    get_palette(&p, ui);
    for (int i = 0; i < MAX_ROWS; i++) {
        panel[i][0] = 0;
    }
    dm_color top = ui->flipped ? DM_WHITE : DM_BLACK;
    int over = dm_game_over(g);
    for (int k = 0; k < 2; k++) {
        dm_color c = k == 0 ? top : (dm_color)!top;
        int row = panel_player_row(n, k);
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
    int j = ply + ply_offset(g);
    if (reviewing) {
        snprintf(panel[3], sizeof panel[3], _("%sReview: ply %d of %d%s"), p.bold, ply,
                 dm_game_ply(g), p.reset);
    } else if (over) {
        char why[128];
        dm_outcome res = dm_game_result(g, NULL);
        dm_game_reason_text(why, sizeof why, g);
        snprintf(panel[3], sizeof panel[3], _("%sGame over: %s (%s)%s"), p.bold,
                 dm_outcome_str(res), cli_tr_reason(why), p.reset);
    } else {
        snprintf(panel[3], sizeof panel[3], _("Move %d, %s to move"), j / 2 + 1,
                 b->side == DM_WHITE ? _("White") : _("Black"));
    }
    if (ply > 0) {
        char num[16], mv[400];
        play_ply_text(num, sizeof num, mv, sizeof mv, g, ply - 1);
        /* a long capture's text is cut to the panel line (the move list has it whole) */
        if (snprintf(panel[4], sizeof panel[4], "%s: %s %s", reviewing ? _("Move") : _("Last move"),
                     num, mv) >= (int)sizeof panel[4]) {
            panel[4][sizeof panel[4] - 1] = '\0';
        }
    }
    if (ui->engine_line[0] && !reviewing && !ui->hide_engine) {
        /* "Engine: +0.12 d7 | 19-23 28x19 ...", on two panel lines at most (one on
         * 8x8), broken between moves */
        const char *t = ui->engine_line;
        int top_row = n > 8 ? 6 : 5;
        for (int k = 0; k < (n > 8 ? 2 : 1) && *t; k++) {
            size_t take = strlen(t), most = (size_t)(width < PANEL_WIDTH ? width : PANEL_WIDTH) - 2;
            if (take > most) {
                take = most;
                while (take > 0 && t[take] != ' ') {
                    take--;
                }
                if (take == 0) {
                    take = most;
                }
            }
            snprintf(panel[top_row + k], sizeof panel[top_row + k], "%s%.*s", k ? "  " : "",
                     (int)take, t);
            t += take;
            while (*t == ' ') {
                t++;
            }
        }
    }
    for (int i = 0; i < MAX_ROWS; i++) {
        fit_columns(panel[i], width);
    }
}

/* The title's name of the variant: in the player's language where translated. */
static const char *variant_title(const dm_variant *v)
{
    if (v->id == DM_VARIANT_INTERNATIONAL) {
        return _("international draughts");
    }
    /* the titles of src/core/variant.c, marked for the catalogs (Chinese names: the
     * web board's, docs/WEB.md) */
    static const char *const titles[] = {
        N_("Brazilian draughts"),
        N_("Russian draughts (shashki)"),
        N_("English draughts / American checkers"),
        N_("Canadian draughts (12x12)"),
        N_("Antidraughts (losing draughts)"),
        N_("Czech draughts (ceska dama)"),
        N_("Italian draughts (dama italiana)"),
        N_("Killer draughts"),
        N_("Breakthrough draughts"),
        N_("Spanish draughts (damas)"),
        N_("Pool checkers (American pool)"),
        N_("Thai draughts (Mak-hot)"),
        N_("Frisian draughts"),
        N_("Frysk! (Frisian draughts, 5 men each)"),
        N_("Portuguese draughts (damas)"),
        N_("Turkish draughts (Dama)"),
    };
    for (size_t i = 0; i < sizeof titles / sizeof titles[0]; i++) {
        if (!strcmp(v->title, titles[i])) {
            return _(titles[i]);
        }
    }
    return v->title;
}

void play_render_screen(play_session *s)
{
    play_ui *ui = &s->ui;
    FILE *f = s->out;
    palette p;
    get_palette(&p, ui);
    const dm_game *g = play_game(s);
    const dm_variant *v = dm_game_variant(g);
    int n = v->size, alg = algebraic_board(v);
    int ply = ui->review >= 0 && ui->review <= dm_game_ply(g) ? ui->review : dm_game_ply(g);
    const dm_board *b = dm_game_position_at(g, ply);
    const dm_move *last = ply > 0 ? dm_game_move_at(g, ply - 1) : NULL;
    char panel[MAX_ROWS][256];
    ui->panel_row = BOARD_TOP;
    /* the left margin (a rank, or two blanks), the squares, the right edge, two blanks */
    ui->panel_col = (alg ? 4 : 2) + 3 * n + 1 + 2 + 1;
    build_panel(panel, s, SCREEN_COLS - ui->panel_col);

    fputs("\033[H\033[2J", f);
    fprintf(f, "%sdamier play%s %s %s   %s%s%s\n\n", p.bold, p.reset, ui->unicode ? "\u2014" : "-",
            variant_title(v), p.dim, _("(type help)"), p.reset);
    for (int r = 0; r < n; r++) {
        if (alg) {
            char rank[8];
            rank_label(rank, sizeof rank, v, r, ui->flipped);
            fprintf(f, "%s%2s%s %s", p.dim, rank, p.reset, ui->color ? " " : "|");
        } else {
            fputs(ui->color ? "  " : " |", f);
        }
        for (int c = 0; c < n; c++) {
            int sq = square_at(v, r, c, ui->flipped);
            if (!sq) {
                fprintf(f, "%s   %s", p.light, p.reset);
                continue;
            }
            dm_piece pc = dm_board_piece(b, sq);
            int is_capt = last && dm_move_captures(last, sq);
            int high = last && (sq == last->from || sq == last->to);
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
            } else if (is_capt) {
                fprintf(f, "%s%s%s%s%s%s", l, p.capt, ui->unicode ? "\u00d7" : "x", p.reset, bg,
                        rgt);
            } else if (ui->numbers && !high && !alg) {
                fprintf(f, "%s%2d%s%s ", p.num, dm_square_number(v, sq), p.reset, bg);
            } else {
                fprintf(f, "%s%s%s", l, ui->color ? " " : (ui->unicode ? "\u00b7" : "."), rgt);
            }
            fputs(p.reset, f);
        }
        fprintf(f, "%s  %s\n", ui->color ? " " : "|", panel[r]);
    }
    if (alg) {
        fputs("    ", f);
        for (int c = 0; c < n; c++) {
            fprintf(f, "%s %c %s", p.dim, file_label(v, c, ui->flipped), p.reset);
        }
        fputc('\n', f);
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
    int n = dm_game_variant(play_game(s))->size;
    for (int k = 0; k < 2; k++) {
        dm_color c = k == 0 ? top : (dm_color)!top;
        int row = ui->panel_row + panel_player_row(n, k) + 1;
        char clk[64];
        panel_clock_text(clk, sizeof clk, s, c);
        /* save cursor, go to the clock line, rewrite it, restore the cursor */
        char line[256];
        snprintf(line, sizeof line, _("  clock %-16s captured %d"), clk,
                 play_captured_by(play_game(s), c));
        fit_columns(line, SCREEN_COLS - ui->panel_col);
        fprintf(s->out, "\0337\033[%d;%dH%s\033[K\0338", row, ui->panel_col, line);
    }
    fflush(s->out);
}
