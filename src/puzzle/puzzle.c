/* SPDX-License-Identifier: MIT
 * Puzzles (damier/puzzle.h): a two-line search decides whether one move is the unique
 * win; the winning line is cut where the material is won, and its moves are read for
 * the themes (sacrifice, majority rule, Turkish strike, promotion). */
#include <damier/puzzle.h>

#include <string.h>

static const char *const theme_names[DM_PUZZLE_THEME_COUNT] = {
    "shot", "majority-capture", "turkish-strike", "breakthrough", "endgame", "win",
};

const char *dm_puzzle_theme_name(int i)
{
    return i >= 0 && i < DM_PUZZLE_THEME_COUNT ? theme_names[i] : NULL;
}

size_t dm_puzzle_themes_text(char *buf, size_t cap, unsigned themes)
{
    size_t n = 0;
    for (int i = 0; i < DM_PUZZLE_THEME_COUNT; i++) {
        if (!(themes & (1u << i))) {
            continue;
        }
        const char *name = theme_names[i];
        for (size_t k = n ? 0 : 1; k == 0 || *name; k++) {
            char ch = k == 0 ? ' ' : *name++;
            if (buf && n + 1 < cap) {
                buf[n] = ch;
            }
            n++;
        }
    }
    if (buf && cap) {
        buf[n < cap ? n : cap - 1] = '\0';
    }
    return n;
}

dm_status dm_puzzle_themes_parse(unsigned *out, const char *text, dm_error *err)
{
    if (!out || !text) {
        return dm_error_set(err, DM_EINVAL, 0, 0, "NULL argument");
    }
    unsigned themes = 0;
    const char *p = text;
    for (;;) {
        while (*p == ' ' || *p == ',' || *p == '\t') {
            p++;
        }
        if (!*p) {
            break;
        }
        const char *start = p;
        while (*p && *p != ' ' && *p != ',' && *p != '\t') {
            p++;
        }
        size_t len = (size_t)(p - start);
        int found = -1;
        for (int i = 0; i < DM_PUZZLE_THEME_COUNT; i++) {
            if (strlen(theme_names[i]) == len && !strncmp(theme_names[i], start, len)) {
                found = i;
            }
        }
        if (found < 0) {
            return dm_error_set(err, DM_EPARSE, 1, (int)(start - text) + 1,
                                "unknown theme '%.*s' (known: shot, majority-capture, "
                                "turkish-strike, breakthrough, endgame, win)",
                                (int)(len > 40 ? 40 : len), start);
        }
        themes |= 1u << found;
    }
    *out = themes;
    return DM_OK;
}

const char *dm_puzzle_verdict_str(int verdict)
{
    switch (verdict) {
        case DM_PUZZLE_FOUND:
            return "unique win";
        case DM_PUZZLE_NO_CHOICE:
            return "fewer than two legal moves";
        case DM_PUZZLE_CAPTURE:
            return "a capture is compulsory";
        case DM_PUZZLE_NO_WIN:
            return "no move wins material or the game";
        case DM_PUZZLE_NOT_UNIQUE:
            return "the win is not unique (a second move wins or comes within the margin)";
        case DM_PUZZLE_UNSTABLE:
            return "the win is unique at the full depth only (not at the shallower depths)";
        case DM_PUZZLE_SHORT_LINE:
            return "the winning line shows no material won by its end";
        case DM_PUZZLE_NO_COMBINATION:
            return "the win is a slow manoeuvre, no combination";
    }
    return "unknown verdict";
}

int dm_puzzle_material(const dm_board *b)
{
    if (!b || !b->variant) {
        return 0;
    }
    int score = 0;
    for (int s = 1; s <= b->variant->squares; s++) {
        dm_piece p = dm_board_piece(b, s);
        int value = p == DM_WHITE_MAN || p == DM_BLACK_MAN     ? 100
                    : p == DM_WHITE_KING || p == DM_BLACK_KING ? 300
                                                               : 0;
        int white = p == DM_WHITE_MAN || p == DM_WHITE_KING;
        score += (white == (b->side == DM_WHITE)) ? value : -value;
    }
    return score;
}

/* ---- moves ---------------------------------------------------------------------- */

/* The legal move of b that is m (same from, to and captured set), with its path, into
 * *out; 0 when m is not legal in b. */
static int legal_move(dm_move *out, const dm_board *b, const dm_move *m)
{
    dm_movelist list;
    dm_movegen_legal(&list, b);
    for (int k = 0; k < list.count; k++) {
        if (dm_move_same(&list.moves[k], m)) {
            *out = list.moves[k];
            return 1;
        }
    }
    return 0;
}

/* ---- board geometry by square numbers (rows 0..9 from square 1's side) ---------- */

/* The 10x10 board's playable squares 1..50 (puzzles are international positions). */
#define PUZZLE_SQUARES 50

static int sq_row(int s)
{
    return (s - 1) / 5;
}

static int sq_col(int s)
{
    int r = (s - 1) / 5, k = (s - 1) % 5;
    return r % 2 == 0 ? 2 * k + 1 : 2 * k;
}

/* The square at row r, column c, or 0 off the board. */
static int sq_at(int r, int c)
{
    if (r < 0 || r > 9 || c < 0 || c > 9 || (r + c) % 2 == 0) {
        return 0;
    }
    return r * 5 + c / 2 + 1;
}

static const int dirs[4][2] = {{-1, -1}, {-1, 1}, {1, -1}, {1, 1}};

static int is_king(dm_piece p)
{
    return p == DM_WHITE_KING || p == DM_BLACK_KING;
}

static int colour_of(dm_piece p)
{
    return p == DM_WHITE_MAN || p == DM_WHITE_KING ? DM_WHITE : DM_BLACK;
}

/* True when the piece on s (of the side to move) could make at least a one-piece
 * capture, ignoring the majority rule. */
static int can_jump(const dm_board *b, int s)
{
    dm_piece p = dm_board_piece(b, s);
    int king = is_king(p);
    for (int d = 0; d < 4; d++) {
        int r = sq_row(s) + dirs[d][0], c = sq_col(s) + dirs[d][1];
        int t = sq_at(r, c);
        while (king && t && dm_board_piece(b, t) == DM_EMPTY) {
            r += dirs[d][0];
            c += dirs[d][1];
            t = sq_at(r, c);
        }
        if (!t || dm_board_piece(b, t) == DM_EMPTY || colour_of(dm_board_piece(b, t)) == b->side) {
            continue;
        }
        int beyond = sq_at(r + dirs[d][0], c + dirs[d][1]);
        if (beyond && dm_board_piece(b, beyond) == DM_EMPTY) {
            return 1;
        }
    }
    return 0;
}

/* The capture m of b is decided by the majority rule: a piece that is not the
 * capturing one (no legal move starts on it) could take too. */
static int majority_decides(const dm_board *b, const dm_move *m)
{
    if (m->ncapt == 0) {
        return 0;
    }
    dm_movelist list;
    dm_movegen_legal(&list, b);
    int from_ok[PUZZLE_SQUARES + 1] = {0};
    for (int i = 0; i < list.count; i++) {
        from_ok[list.moves[i].from] = 1;
    }
    for (int s = 1; s <= PUZZLE_SQUARES; s++) {
        dm_piece p = dm_board_piece(b, s);
        if (p != DM_EMPTY && colour_of(p) == b->side && !from_ok[s] && can_jump(b, s)) {
            return 1;
        }
    }
    return 0;
}

/* The capture m of b stops because of the Turkish strike rule: from its last square,
 * in a direction other than the one it came from, the next piece is one it has
 * already jumped (still on the board until the move ends, FMJD 4.11) with an empty
 * square beyond, so that it would take on if that piece had been removed. */
static int turkish_stop(const dm_board *b, const dm_move *m)
{
    if (m->ncapt < 2) {
        return 0;
    }
    int captured[PUZZLE_SQUARES + 1] = {0};
    for (int s = 1; s <= PUZZLE_SQUARES; s++) {
        captured[s] = dm_move_captures(m, s);
    }
    int king = is_king(dm_board_piece(b, m->from));
    /* the square the last capture started from: the path's last landing square */
    uint8_t path[DM_MAX_CAPT];
    if (dm_move_path(path, DM_MAX_CAPT, b, m) != m->ncapt - 1) {
        return 0; /* not a legal move of b */
    }
    int to = m->to, prev = path[m->ncapt - 2];
    int back_r = sq_row(prev) > sq_row(to) ? 1 : -1;
    int back_c = sq_col(prev) > sq_col(to) ? 1 : -1;
    for (int d = 0; d < 4; d++) {
        if (dirs[d][0] == back_r && dirs[d][1] == back_c) {
            continue; /* back over the piece it jumped last */
        }
        int r = sq_row(to) + dirs[d][0], c = sq_col(to) + dirs[d][1];
        int t = sq_at(r, c);
        while (king && t && (dm_board_piece(b, t) == DM_EMPTY || t == m->from)) {
            r += dirs[d][0];
            c += dirs[d][1];
            t = sq_at(r, c);
        }
        if (!t || !captured[t]) {
            continue;
        }
        int beyond = sq_at(r + dirs[d][0], c + dirs[d][1]);
        if (beyond && (dm_board_piece(b, beyond) == DM_EMPTY || beyond == m->from)) {
            return 1;
        }
    }
    return 0;
}

/* ---- the search ------------------------------------------------------------------ */

typedef struct depth_lines {
    int have1, have2;
    int s1, s2;
    dm_move m1;
} depth_lines;

typedef struct collect {
    depth_lines d[DM_ENGINE_MAX_DEPTH + 1];
    int last;     /* the deepest depth with a first line */
    int pv_count; /* that line */
    dm_move pv[DM_ENGINE_MAX_PV];
    dm_board root; /* the position searched */
} collect;

static void on_info(const dm_info *info, void *payload)
{
    collect *c = payload;
    if (info->depth < 1 || info->depth > DM_ENGINE_MAX_DEPTH || info->pv_count < 1) {
        return;
    }
    /* the line as far as its moves are legal, each the legal move with its path */
    dm_move pv[DM_ENGINE_MAX_PV];
    int n = 0;
    dm_board b = c->root;
    while (n < info->pv_count && n < DM_ENGINE_MAX_PV && legal_move(&pv[n], &b, &info->pv[n])) {
        dm_board_apply(&b, &pv[n++]);
    }
    if (n == 0) {
        return;
    }
    depth_lines *dl = &c->d[info->depth];
    if (info->multipv <= 1) {
        dl->have1 = 1;
        dl->s1 = info->score;
        dl->m1 = pv[0];
        if (info->depth >= c->last) {
            c->last = info->depth;
            c->pv_count = n;
            memcpy(c->pv, pv, sizeof(dm_move) * (size_t)n);
        }
    } else if (info->multipv == 2) {
        dl->have2 = 1;
        dl->s2 = info->score;
    }
}

static int wins(int score, int material, const dm_puzzle_options *o)
{
    return score >= DM_SCORE_WIN_MIN || score >= material + o->gain;
}

/* The best move is the unique win at depth d (with the move of the final depth). */
static int unique_at(const depth_lines *dl, const dm_move *best, int material,
                     const dm_puzzle_options *o)
{
    if (!dl->have1 || !dm_move_same(&dl->m1, best) || !wins(dl->s1, material, o)) {
        return 0;
    }
    if (!dl->have2) {
        return 1;
    }
    if (dl->s1 - dl->s2 < o->margin) {
        return 0;
    }
    /* A forced win is unique when no other move wins the game (one that wins material
     * only is a worse move); a win of material when no other move wins material. */
    return dl->s1 >= DM_SCORE_WIN_MIN ? dl->s2 < DM_SCORE_WIN_MIN : !wins(dl->s2, material, o);
}

static dm_status check_options(const dm_puzzle_options *o, dm_error *err)
{
    if (o->version != DM_PUZZLE_OPTIONS_VERSION) {
        return dm_error_set(err, DM_EINVAL, 0, 0, "puzzle options version %d, expected %d",
                            o->version, DM_PUZZLE_OPTIONS_VERSION);
    }
    if (o->depth < 1 || o->depth > DM_ENGINE_MAX_DEPTH) {
        return dm_error_set(err, DM_EINVAL, 0, 0, "depth %d is not in 1..%d", o->depth,
                            DM_ENGINE_MAX_DEPTH);
    }
    if (o->gain < 1 || o->gain > 5000) {
        return dm_error_set(err, DM_EINVAL, 0, 0, "gain %d is not in 1..5000", o->gain);
    }
    if (o->margin < 1 || o->margin > 20000) {
        return dm_error_set(err, DM_EINVAL, 0, 0, "margin %d is not in 1..20000", o->margin);
    }
    if (o->stable < 0 || o->stable >= o->depth) {
        return dm_error_set(err, DM_EINVAL, 0, 0, "stable %d is not in 0..%d", o->stable,
                            o->depth - 1);
    }
    return DM_OK;
}

/* Cut the line where the material or the game is won; the themes it shows. Returns
 * the moves kept, 0 when the line never wins a man back by its end. */
static int cut_line(dm_puzzle *out, const dm_move *pv, int n, int forced_win)
{
    dm_board cur = out->position;
    int root_side = cur.side;
    int keep = 0;
    unsigned themes = 0;
    for (int i = 0; i < n && i < DM_PUZZLE_MAX_LINE; i++) {
        dm_move m;
        if (!legal_move(&m, &cur, &pv[i])) {
            break;
        }
        int solver = cur.side == root_side;
        if (!solver && pv[i].ncapt > 0) {
            if (i == 1 && pv[0].ncapt == 0) {
                themes |= DM_THEME_SHOT;
            }
            if (majority_decides(&cur, &pv[i])) {
                themes |= DM_THEME_MAJORITY;
            }
        }
        if (pv[i].ncapt > 1 && turkish_stop(&cur, &pv[i])) {
            themes |= DM_THEME_TURKISH;
        }
        if (solver && m.promote) {
            themes |= DM_THEME_BREAKTHROUGH;
        }
        dm_board_apply(&cur, &m);
        out->line[i] = m;
        if (!solver) {
            continue;
        }
        int gain = -dm_puzzle_material(&cur) - out->material;
        dm_movelist after;
        dm_movegen_legal(&after, &cur);
        if (after.count == 0) {
            out->gain = gain;
            keep = i + 1;
            themes |= DM_THEME_WIN;
            break;
        }
        if (forced_win) {
            out->gain = gain; /* a forced win: the line to the end, or as far as it goes */
            keep = i + 1;
        } else if (after.moves[0].ncapt == 0 && gain >= 100) {
            out->gain = gain;
            keep = i + 1;
            break;
        }
    }
    if (forced_win) {
        themes |= DM_THEME_WIN;
    }
    /* the moves looked at past the cut are not part of the solution */
    memset(&out->line[keep], 0, sizeof out->line[0] * (size_t)(DM_PUZZLE_MAX_LINE - keep));
    out->line_count = keep;
    out->themes |= themes;
    return keep;
}

/* dm_puzzle_examine of the international position b (validated) into out (zeroed). */
static dm_status examine(dm_puzzle *out, dm_engine *e, const dm_board *b,
                         const dm_puzzle_options *o, dm_error *err)
{
    dm_status st;
    out->position = *b;
    out->material = dm_puzzle_material(b);

    dm_movelist list;
    dm_movegen_legal(&list, b);
    if (list.count < 2) {
        out->verdict = DM_PUZZLE_NO_CHOICE;
        if (list.count == 1) {
            out->best = list.moves[0];
        }
        return DM_OK;
    }
    if (list.moves[0].ncapt > 0) { /* capture compulsory: every legal move captures */
        out->verdict = DM_PUZZLE_CAPTURE;
        return DM_OK;
    }

    collect local;
    collect *c = &local;
    memset(c, 0, sizeof *c);
    c->root = *b;
    dm_search_input in;
    memset(&in, 0, sizeof in);
    in.root = *b;
    dm_limits lim;
    memset(&lim, 0, sizeof lim);
    lim.depth = o->depth;
    lim.analyse = 1;
    lim.multipv = 2;
    dm_result res;
    dm_engine_clear(e);
    st = dm_engine_search(&res, e, &in, &lim, on_info, c, NULL);
    if (st != DM_OK) {
        return dm_error_set(err, st, 0, 0, "search failed: %s", dm_status_str(st));
    }
    out->nodes = res.nodes;
    int last = c->last;
    if (last < 1) {
        out->verdict = DM_PUZZLE_NO_WIN;
        return DM_OK;
    }
    const depth_lines *fin = &c->d[last];
    out->depth = last;
    out->best = fin->m1;
    out->best_score = fin->s1;
    out->second_score = fin->have2 ? fin->s2 : -DM_SCORE_WIN;
    if (!wins(fin->s1, out->material, o)) {
        out->verdict = DM_PUZZLE_NO_WIN;
        return DM_OK;
    }
    if (!unique_at(fin, &fin->m1, out->material, o)) {
        out->verdict = DM_PUZZLE_NOT_UNIQUE;
        return DM_OK;
    }
    int d = last;
    while (d >= 1 && unique_at(&c->d[d], &fin->m1, out->material, o)) {
        d--;
    }
    out->unique_from = d + 1;
    if (out->unique_from > o->depth - o->stable) {
        out->verdict = DM_PUZZLE_UNSTABLE;
        return DM_OK;
    }
    int forced = fin->s1 >= DM_SCORE_WIN_MIN;
    if (!cut_line(out, c->pv, c->pv_count, forced)) {
        out->verdict = DM_PUZZLE_SHORT_LINE;
        out->line_count = 0;
        out->themes = 0;
        return DM_OK;
    }
    unsigned tactic = DM_THEME_SHOT | DM_THEME_TURKISH | DM_THEME_BREAKTHROUGH | DM_THEME_WIN;
    if (!(out->themes & tactic) && (out->line_count + 1) / 2 > DM_PUZZLE_QUIET_MOVES) {
        out->verdict = DM_PUZZLE_NO_COMBINATION;
        return DM_OK;
    }
    int pieces = 0, kings = 0;
    for (int s = 1; s <= PUZZLE_SQUARES; s++) {
        pieces += dm_board_piece(b, s) != DM_EMPTY;
        kings += is_king(dm_board_piece(b, s));
    }
    if (pieces <= 12 || kings) {
        out->themes |= DM_THEME_ENDGAME;
    }
    int solver_moves = (out->line_count + 1) / 2;
    int rating = 800 + 150 * solver_moves + 60 * out->unique_from;
    out->rating = rating < 600 ? 600 : rating > 3000 ? 3000 : rating;
    out->verdict = DM_PUZZLE_FOUND;
    return DM_OK;
}

dm_status dm_puzzle_examine(dm_puzzle *out, dm_engine *e, const dm_board *b,
                            const dm_puzzle_options *opt, dm_error *err)
{
    static const dm_puzzle_options defaults = DM_PUZZLE_OPTIONS_INIT;
    if (!out || !e || !b || !b->variant) {
        return dm_error_set(err, DM_EINVAL, 0, 0, "NULL argument");
    }
    const dm_puzzle_options *o = opt ? opt : &defaults;
    dm_status st = check_options(o, err);
    if (st != DM_OK) {
        return st;
    }
    if (b->variant->id != DM_VARIANT_INTERNATIONAL) {
        return dm_error_set(err, DM_EINVAL, 0, 0,
                            "puzzles are international draughts positions, not %s",
                            b->variant->title);
    }
    st = dm_board_validate(b, err);
    if (st != DM_OK) {
        return st;
    }
    memset(out, 0, sizeof *out);
    return examine(out, e, b, o, err);
}
