/* SPDX-License-Identifier: MIT
 * Puzzles (damier/puzzle.h): a two-line search decides whether one move is the unique
 * win; the winning line is cut where the material is won, and its moves are read for
 * the themes (sacrifice, majority rule, Turkish strike, promotion). */
#include <damier/board10.h>
#include <damier/move10.h>
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

/* dm_puzzle_material on the fast board the search works on. */
static int material10(const dm_board10 *b)
{
    int us = b->side, them = 1 - b->side;
    return 100 * (dm_board10_count_men(b, (dm_color)us) - dm_board10_count_men(b, (dm_color)them)) +
           300 * (dm_board10_count_kings(b, (dm_color)us) -
                  dm_board10_count_kings(b, (dm_color)them));
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

/* ---- board geometry by square numbers (rows 0..9 from square 1's side) ---------- */

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
static int can_jump(const dm_board10 *b, int s)
{
    dm_piece p = dm_board10_piece(b, s);
    int king = is_king(p);
    for (int d = 0; d < 4; d++) {
        int r = sq_row(s) + dirs[d][0], c = sq_col(s) + dirs[d][1];
        int t = sq_at(r, c);
        while (king && t && dm_board10_piece(b, t) == DM_EMPTY) {
            r += dirs[d][0];
            c += dirs[d][1];
            t = sq_at(r, c);
        }
        if (!t || dm_board10_piece(b, t) == DM_EMPTY ||
            colour_of(dm_board10_piece(b, t)) == b->side) {
            continue;
        }
        int beyond = sq_at(r + dirs[d][0], c + dirs[d][1]);
        if (beyond && dm_board10_piece(b, beyond) == DM_EMPTY) {
            return 1;
        }
    }
    return 0;
}

/* The capture m of b is decided by the majority rule: a piece that is not the
 * capturing one (no legal move starts on it) could take too. */
static int majority_decides(const dm_board10 *b, const dm_move10 *m)
{
    if (m->ncapt == 0) {
        return 0;
    }
    dm_movelist10 list;
    dm_movegen10_legal(&list, b);
    int from_ok[DM_SQUARES10 + 1] = {0};
    for (int i = 0; i < list.count; i++) {
        from_ok[list.moves[i].from] = 1;
    }
    for (int s = 1; s <= DM_SQUARES10; s++) {
        dm_piece p = dm_board10_piece(b, s);
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
static int turkish_stop(const dm_board10 *b, const dm_move10 *m)
{
    if (m->ncapt < 2) {
        return 0;
    }
    int path[DM_PUZZLE_MAX_LINE + 24];
    int np = dm_move10_path(path, (int)(sizeof path / sizeof path[0]), b, m);
    if (np < 2) {
        return 0;
    }
    int captured[DM_SQUARES10 + 1] = {0};
    int sq[DM_SQUARES10];
    int nc = dm_move10_captured(m, sq, DM_SQUARES10);
    for (int i = 0; i < nc; i++) {
        captured[sq[i]] = 1;
    }
    int king = is_king(dm_board10_piece(b, m->from));
    int to = m->to, prev = path[np - 2];
    int back_r = sq_row(prev) > sq_row(to) ? 1 : -1;
    int back_c = sq_col(prev) > sq_col(to) ? 1 : -1;
    for (int d = 0; d < 4; d++) {
        if (dirs[d][0] == back_r && dirs[d][1] == back_c) {
            continue; /* back over the piece it jumped last */
        }
        int r = sq_row(to) + dirs[d][0], c = sq_col(to) + dirs[d][1];
        int t = sq_at(r, c);
        while (king && t && (dm_board10_piece(b, t) == DM_EMPTY || t == m->from)) {
            r += dirs[d][0];
            c += dirs[d][1];
            t = sq_at(r, c);
        }
        if (!t || !captured[t]) {
            continue;
        }
        int beyond = sq_at(r + dirs[d][0], c + dirs[d][1]);
        if (beyond && (dm_board10_piece(b, beyond) == DM_EMPTY || beyond == m->from)) {
            return 1;
        }
    }
    return 0;
}

/* ---- the search ------------------------------------------------------------------ */

typedef struct depth_lines {
    int have1, have2;
    int s1, s2;
    dm_move10 m1;
} depth_lines;

typedef struct collect {
    depth_lines d[DM_ENGINE_MAX_DEPTH + 1];
    int last;     /* the deepest depth with a first line */
    int pv_count; /* that line */
    dm_move10 pv[DM_ENGINE_MAX_PV];
    dm_board10 root; /* the position searched */
} collect;

static void on_info(const dm_info *info, void *payload)
{
    collect *c = payload;
    if (info->depth < 1 || info->depth > DM_ENGINE_MAX_DEPTH || info->pv_count < 1) {
        return;
    }
    /* the engine's moves are of the generic board: the puzzle's are of the fast one */
    dm_move10 pv[DM_ENGINE_MAX_PV];
    int n = 0;
    dm_board10 b = c->root;
    while (n < info->pv_count && n < DM_ENGINE_MAX_PV &&
           dm_move_to_move10(&pv[n], &b, &info->pv[n]) == DM_OK) {
        dm_board10_apply(&b, &pv[n++]);
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
            memcpy(c->pv, pv, sizeof(dm_move10) * (size_t)n);
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
static int unique_at(const depth_lines *dl, const dm_move10 *best, int material,
                     const dm_puzzle_options *o)
{
    if (!dl->have1 || !dm_move10_equal(&dl->m1, best) || !wins(dl->s1, material, o)) {
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

/* The result's position and moves on the fast board while the search examines it;
 * converted to the public dm_puzzle's generic ones at the end (puzzle_publish). */
typedef struct puzzle10 {
    dm_board10 position;
    dm_move10 line[DM_PUZZLE_MAX_LINE];
    dm_move10 best;
} puzzle10;

/* Cut the line where the material or the game is won; the themes it shows. Returns
 * the moves kept, 0 when the line never wins a man back by its end. */
static int cut_line(dm_puzzle *out, puzzle10 *fast, const dm_move10 *pv, int n, int forced_win)
{
    dm_board10 cur = fast->position;
    int root_side = cur.side;
    int keep = 0;
    unsigned themes = 0;
    for (int i = 0; i < n && i < DM_PUZZLE_MAX_LINE; i++) {
        dm_movelist10 list;
        dm_movegen10_legal(&list, &cur);
        int legal = 0;
        for (int k = 0; k < list.count; k++) {
            legal |= dm_move10_equal(&list.moves[k], &pv[i]);
        }
        if (!legal) {
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
        if (solver && dm_move10_is_promotion(&cur, &pv[i])) {
            themes |= DM_THEME_BREAKTHROUGH;
        }
        dm_board10_apply(&cur, &pv[i]);
        fast->line[i] = pv[i];
        if (!solver) {
            continue;
        }
        int gain = -material10(&cur) - out->material;
        if (dm_movegen10_count(&cur) == 0) {
            out->gain = gain;
            keep = i + 1;
            themes |= DM_THEME_WIN;
            break;
        }
        if (forced_win) {
            out->gain = gain; /* a forced win: the line to the end, or as far as it goes */
            keep = i + 1;
        } else if (!dm_movegen10_has_capture(&cur) && gain >= 100) {
            out->gain = gain;
            keep = i + 1;
            break;
        }
    }
    if (forced_win) {
        themes |= DM_THEME_WIN;
    }
    out->line_count = keep;
    out->themes |= themes;
    return keep;
}

/* dm_puzzle_examine on the fast board b (validated); the position and moves go to
 * fast, the rest to out. */
static dm_status examine10(dm_puzzle *out, puzzle10 *fast, dm_engine *e, const dm_board10 *b,
                           const dm_puzzle_options *o, dm_error *err)
{
    dm_status st;
    fast->position = *b;
    out->material = material10(b);

    dm_movelist10 list;
    dm_movegen10_legal(&list, b);
    if (list.count < 2) {
        out->verdict = DM_PUZZLE_NO_CHOICE;
        if (list.count == 1) {
            fast->best = list.moves[0];
        }
        return DM_OK;
    }
    if (dm_movegen10_has_capture(b)) {
        out->verdict = DM_PUZZLE_CAPTURE;
        return DM_OK;
    }

    collect local;
    collect *c = &local;
    memset(c, 0, sizeof *c);
    c->root = *b;
    dm_search_input in;
    memset(&in, 0, sizeof in);
    dm_board_from_board10(&in.root, dm_variant_get(DM_VARIANT_INTERNATIONAL), b);
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
    fast->best = fin->m1;
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
    if (!cut_line(out, fast, c->pv, c->pv_count, forced)) {
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
    int pieces = 0;
    for (int s = 1; s <= DM_SQUARES10; s++) {
        pieces += dm_board10_piece(b, s) != DM_EMPTY;
    }
    if (pieces <= 12 || b->kings) {
        out->themes |= DM_THEME_ENDGAME;
    }
    int solver_moves = (out->line_count + 1) / 2;
    int rating = 800 + 150 * solver_moves + 60 * out->unique_from;
    out->rating = rating < 600 ? 600 : rating > 3000 ? 3000 : rating;
    out->verdict = DM_PUZZLE_FOUND;
    return DM_OK;
}

/* The fast board's position and moves as the public generic ones of the same
 * international position. */
static dm_status puzzle_publish(dm_puzzle *out, const puzzle10 *fast, const dm_board *root)
{
    out->position = *root;
    if (fast->best.from) {
        dm_status st = dm_move_from_move10(&out->best, root, &fast->best);
        if (st != DM_OK) {
            return st;
        }
    }
    dm_board cur = *root;
    for (int i = 0; i < out->line_count; i++) {
        dm_status st = dm_move_from_move10(&out->line[i], &cur, &fast->line[i]);
        if (st != DM_OK) {
            return st;
        }
        dm_board_apply(&cur, &out->line[i]);
    }
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
    dm_board10 root;
    if (b->variant->id != DM_VARIANT_INTERNATIONAL || dm_board_to_board10(&root, b) != DM_OK) {
        return dm_error_set(err, DM_EINVAL, 0, 0,
                            "puzzles are international draughts positions, not %s",
                            b->variant->title);
    }
    st = dm_board10_validate(&root, err);
    if (st != DM_OK) {
        return st;
    }
    memset(out, 0, sizeof *out);
    puzzle10 fast;
    memset(&fast, 0, sizeof fast);
    st = examine10(out, &fast, e, &root, o, err);
    if (st != DM_OK) {
        return st;
    }
    st = puzzle_publish(out, &fast, b);
    if (st != DM_OK) {
        return dm_error_set(err, st, 0, 0, "the solution's moves are not legal: %s",
                            dm_status_str(st));
    }
    return DM_OK;
}
