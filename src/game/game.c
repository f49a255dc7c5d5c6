/* SPDX-License-Identifier: MIT
 * game/game.c: the game object (damier/game.h): start position, moves, undo/redo and
 * the result, for every variant.
 *
 * History is kept as arrays indexed by ply:
 *     boards[i], counters[i]   the position BEFORE ply i and its draw counters,
 *                              i = 0..length (boards[0] is the start position)
 *     moves[i]                 the move of ply i, i = 0..length-1
 * with `ply` the current position (0..length); entries past `ply` are the redo list.
 * Entry i depends only on entries < i, which never change while entry i exists
 * (a new move truncates the list first), so the counters cached per ply are always
 * those a recomputation from the history would give: undo and redo just move `ply`.
 * A declared result (resignation, agreement, time, forfeit) is tied to the ply where
 * it was declared.
 *     vboards[i], vmoves[i]    the same positions and moves in the generic form, kept
 *                              for every game; international games ("fast") keep the
 *                              fast board's forms above too and judge with FMJD's
 *                              dm_draw_judge, the others with dm_variant_result and
 *                              dm_variant_draw. */
#include <damier/game.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct declared {
    int active;
    int ply; /* ply it belongs to */
    dm_outcome outcome;
    dm_reason reason;
} declared;

struct dm_game {
    dm_game_rules rules;
    const dm_variant *variant; /* never NULL */
    int fast;                  /* 1: international, on the fast board as well */
    dm_draw_rules draw;        /* the other variants: their draw rules */
    int ply;                   /* current position index */
    int length;                /* plies stored (played + redoable) */
    int cap;                   /* room for cap moves and cap + 1 positions */
    dm_move10 *moves;
    dm_board10 *boards;
    dm_draw_counters *counters;
    dm_board *vboards;
    dm_move *vmoves;
    declared decl;
    int touch_move;   /* the touch-move rule is on */
    int touch_adjust; /* 1 + the ply at which "I adjust" was announced, or 0: the next
                         touch at that ply commits nothing */
    int touched;      /* square of the piece that must be played at touched_ply, or 0 */
    int touched_ply;
};

#define INITIAL_CAP 64

static dm_status reserve(dm_game *g, int plies)
{
    if (plies <= g->cap) {
        return DM_OK;
    }
    int cap = g->cap ? g->cap : INITIAL_CAP;
    while (cap < plies) {
        cap *= 2;
    }
    dm_move10 *mv = realloc(g->moves, (size_t)cap * sizeof *mv);
    if (!mv) {
        return DM_ENOMEM;
    }
    g->moves = mv;
    dm_board10 *bd = realloc(g->boards, (size_t)(cap + 1) * sizeof *bd);
    if (!bd) {
        return DM_ENOMEM;
    }
    g->boards = bd;
    dm_draw_counters *ct = realloc(g->counters, (size_t)(cap + 1) * sizeof *ct);
    if (!ct) {
        return DM_ENOMEM;
    }
    g->counters = ct;
    dm_move *vm = realloc(g->vmoves, (size_t)cap * sizeof *vm);
    if (!vm) {
        return DM_ENOMEM;
    }
    g->vmoves = vm;
    dm_board *vb = realloc(g->vboards, (size_t)(cap + 1) * sizeof *vb);
    if (!vb) {
        return DM_ENOMEM;
    }
    g->vboards = vb;
    g->cap = cap;
    return DM_OK;
}

/* Counters of position i (i >= 1) from position i - 1 and the move between. The
 * repetition count looks back only as far as the last man move or capture: no
 * earlier position can be equal (different men or material). */
static void compute_counters(dm_game *g, int i)
{
    dm_draw_counters *c = &g->counters[i];
    dm_draw_step(c, &g->counters[i - 1], &g->boards[i - 1], &g->moves[i - 1], &g->rules);
    const dm_board10 *b = &g->boards[i];
    int first = i - c->kings_only_plies;
    if (first < 0) {
        first = 0;
    }
    for (int j = i - 2; j >= first; j -= 2) {
        if (g->boards[j].hash == b->hash && dm_board10_equal(&g->boards[j], b)) {
            c->repetitions++;
        }
    }
}

/* The result of a game of another variant at its current position (no declared
 * result): the variant's end first (dm_variant_result: no legal move, breakthrough's
 * king), then its draw rules; why gets the draw rule's text. */
static dm_outcome variant_judge(const dm_game *g, dm_reason *reason, char *why, size_t cap)
{
    const dm_board *b = &g->vboards[g->ply];
    dm_reason r = DM_REASON_NONE;
    dm_outcome o = DM_OUTCOME_ONGOING;
    dm_board_result v = dm_variant_result(b);
    if (v != DM_BOARD_RESULT_NONE) {
        o = v == DM_BOARD_RESULT_WHITE_WINS ? DM_OUTCOME_WHITE_WINS : DM_OUTCOME_BLACK_WINS;
        int pieces = 0, king = 0;
        for (int sq = 1; sq <= b->variant->squares; sq++) {
            int p = b->sq[sq];
            pieces += p != DM_EMPTY &&
                      ((p == DM_WHITE_MAN || p == DM_WHITE_KING) == (b->side == DM_WHITE));
            king |= p == DM_WHITE_KING || p == DM_BLACK_KING;
        }
        r = b->variant->win_on_promotion && king ? DM_REASON_PROMOTION
            : pieces == 0                        ? DM_REASON_NO_PIECES
                                                 : DM_REASON_BLOCKED;
    } else {
        switch (dm_variant_draw(&g->draw, g->vboards, g->vmoves, g->ply, why, cap)) {
            case DM_DRAW_NONE:
                break;
            case DM_DRAW_REPETITION:
                o = DM_OUTCOME_DRAW, r = DM_REASON_REPETITION;
                break;
            case DM_DRAW_NO_PROGRESS:
                o = DM_OUTCOME_DRAW, r = DM_REASON_NO_PROGRESS;
                break;
            case DM_DRAW_NO_CAPTURE:
                o = DM_OUTCOME_DRAW, r = DM_REASON_NO_CAPTURE;
                break;
            default:
                o = DM_OUTCOME_DRAW, r = DM_REASON_MATERIAL;
                break;
        }
    }
    if (reason) {
        *reason = r;
    }
    return o;
}

dm_status dm_game_new(dm_game **out, const dm_board *start)
{
    if (!out) {
        return DM_EINVAL;
    }
    *out = NULL;
    if (start && (!start->variant || dm_board_validate(start, NULL) != DM_OK)) {
        return DM_EINVAL;
    }
    const dm_variant *v = start ? start->variant : dm_variant_get(DM_VARIANT_INTERNATIONAL);
    int fast = v->id == DM_VARIANT_INTERNATIONAL;
    dm_board10 s;
    if (!fast) {
        dm_board10_clear(&s); /* unused: the generic positions serve the other variants */
    } else if (start) {
        if (dm_board_to_board10(&s, start) != DM_OK || dm_board10_validate(&s, NULL) != DM_OK) {
            return DM_EINVAL;
        }
        s.hash = dm_board10_compute_hash(&s);
    } else {
        dm_board10_start(&s);
    }
    dm_game *g = calloc(1, sizeof *g);
    if (!g) {
        return DM_ENOMEM;
    }
    g->rules = (dm_game_rules)DM_GAME_RULES_INIT;
    g->variant = v;
    g->fast = fast;
    g->draw = v->draw;
    if (reserve(g, INITIAL_CAP) != DM_OK) {
        dm_game_free(g);
        return DM_ENOMEM;
    }
    if (!fast) {
        g->vboards[0] = *start;
    } else if (dm_board_from_board10(&g->vboards[0], v, &s) != DM_OK) {
        dm_game_free(g); /* cannot happen: international is 10x10 */
        return DM_EINVAL;
    }
    g->boards[0] = s;
    dm_draw_init(&g->counters[0], &s);
    *out = g;
    return DM_OK;
}

const dm_variant *dm_game_variant(const dm_game *game)
{
    return game ? game->variant : NULL;
}

dm_status dm_game_set_draw_rules(dm_game *game, const dm_draw_rules *rules)
{
    if (!game || !rules || game->fast) {
        return DM_EINVAL;
    }
    game->draw = *rules;
    return DM_OK;
}

const dm_board *dm_game_position(const dm_game *game)
{
    return &game->vboards[game->ply];
}

const dm_board *dm_game_position_at(const dm_game *game, int i)
{
    return i >= 0 && i <= game->length ? &game->vboards[i] : NULL;
}

const dm_move *dm_game_move_at(const dm_game *game, int i)
{
    return i >= 0 && i < game->length ? &game->vmoves[i] : NULL;
}

void dm_game_free(dm_game *game)
{
    if (!game) {
        return;
    }
    free(game->moves);
    free(game->boards);
    free(game->counters);
    free(game->vmoves);
    free(game->vboards);
    free(game);
}

dm_status dm_game_set_rules(dm_game *game, const dm_game_rules *rules)
{
    if (!game || !rules || rules->version != DM_GAME_RULES_VERSION || rules->repetitions < 0 ||
        rules->kings_only_moves < 0 || rules->endgame16_moves < 0 || rules->endgame5_moves < 0 ||
        rules->repetitions == 1) {
        return DM_EINVAL;
    }
    game->rules = *rules;
    for (int i = 1; game->fast && i <= game->length; i++) {
        compute_counters(game, i); /* the fast board's FMJD counters (the other variants
                                      count with dm_variant_draw as they are judged) */
    }
    return DM_OK;
}

const dm_game_rules *dm_game_rules_of(const dm_game *game)
{
    return &game->rules;
}

/* The game is over in a way that forbids further moves. */
static int refuses_moves(const dm_game *g)
{
    dm_reason r;
    if (dm_game_result(g, &r) == DM_OUTCOME_ONGOING) {
        return 0;
    }
    if (g->decl.active && g->decl.ply == g->ply) {
        return 1;
    }
    /* A loss by FMJD 7.2 leaves no legal move anyway; draws by rule may be played
     * through on request. */
    return !g->rules.play_after_end || r == DM_REASON_NO_PIECES || r == DM_REASON_BLOCKED;
}

/* The square that must be played under touch-move at the current ply, or 0. */
static int touched_now(const dm_game *g)
{
    return g->touch_move && g->touched && g->touched_ply == g->ply ? g->touched : 0;
}

void dm_game_set_touch_move(dm_game *game, int on)
{
    game->touch_move = on != 0;
    game->touched = 0;
    game->touch_adjust = 0;
}

int dm_game_touch_move(const dm_game *game)
{
    return game->touch_move;
}

int dm_game_touched(const dm_game *game)
{
    return touched_now(game);
}

dm_status dm_game_adjust(dm_game *game, dm_error *err)
{
    if (touched_now(game)) {
        return dm_error_set(err, DM_ESTATE, 0, 0,
                            "touch-move: the piece on %d is touched already; \"I adjust\" is "
                            "announced before touching",
                            game->touched);
    }
    game->touch_adjust = game->ply + 1;
    return DM_OK;
}

dm_status dm_game_touch(dm_game *game, int sq, int *committed, dm_error *err)
{
    if (committed) {
        *committed = 0;
    }
    if (refuses_moves(game)) {
        return dm_error_set(err, DM_ESTATE, 0, 0, "the game is over");
    }
    const dm_board *b = &game->vboards[game->ply];
    dm_piece pc = dm_board_piece(b, sq);
    int own = b->side == DM_WHITE ? (pc == DM_WHITE_MAN || pc == DM_WHITE_KING)
                                  : (pc == DM_BLACK_MAN || pc == DM_BLACK_KING);
    if (!own) {
        return dm_error_set(err, DM_EINVAL, 0, 0, "square %d holds no piece of the side to move",
                            sq);
    }
    if (!game->touch_move) {
        return DM_OK;
    }
    int first = touched_now(game);
    if (first && first != sq) {
        return dm_error_set(err, DM_EILLEGAL, 0, 0,
                            "touch-move: the piece on %d was touched and must be played", first);
    }
    if (game->touch_adjust == game->ply + 1) {
        game->touch_adjust = 0;
        return DM_OK;
    }
    dm_movelist list;
    dm_movegen_legal(&list, b);
    for (int i = 0; i < list.count; i++) {
        if (list.moves[i].from == sq) {
            game->touched = sq;
            game->touched_ply = game->ply;
            if (committed) {
                *committed = 1;
            }
            break;
        }
    }
    return DM_OK;
}

/* Play m, a move of the fast board, in an international game (dm_game_play's checks). */
static dm_status play_fast(dm_game *game, const dm_move10 *m)
{
    if (refuses_moves(game)) {
        return DM_ESTATE;
    }
    if (touched_now(game) && m->from != touched_now(game)) {
        return DM_EILLEGAL;
    }
    const dm_board10 *b = &game->boards[game->ply];
    dm_movelist10 list;
    dm_movegen10_legal(&list, b);
    int found = -1;
    for (int i = 0; i < list.count; i++) {
        if (dm_move10_equal(&list.moves[i], m)) {
            found = i;
            break;
        }
    }
    if (found < 0) {
        return DM_EILLEGAL;
    }
    if (reserve(game, game->ply + 1) != DM_OK) {
        return DM_ENOMEM;
    }
    int i = game->ply;
    if (dm_move_from_move10(&game->vmoves[i], &game->vboards[i], &list.moves[found]) != DM_OK) {
        return DM_EILLEGAL; /* cannot happen: the two generators agree (tests) */
    }
    game->moves[i] = list.moves[found];
    game->boards[i + 1] = game->boards[i];
    dm_board10_apply(&game->boards[i + 1], &game->moves[i]);
    game->vboards[i + 1] = game->vboards[i];
    dm_board_apply(&game->vboards[i + 1], &game->vmoves[i]);
    compute_counters(game, i + 1);
    game->ply = game->length = i + 1;
    game->decl.active = 0; /* any declaration was on a ply now cut off */
    return DM_OK;
}

dm_status dm_game_play(dm_game *game, const dm_move *m)
{
    if (!game || !m) {
        return DM_EINVAL;
    }
    if (game->fast) {
        dm_move10 fm;
        if (dm_move_to_move10(&fm, &game->boards[game->ply], m) != DM_OK) {
            return refuses_moves(game) ? DM_ESTATE : DM_EILLEGAL;
        }
        return play_fast(game, &fm);
    }
    if (refuses_moves(game)) {
        return DM_ESTATE;
    }
    if (touched_now(game) && m->from != touched_now(game)) {
        return DM_EILLEGAL;
    }
    const dm_board *b = &game->vboards[game->ply];
    dm_movelist list;
    dm_movegen_legal(&list, b);
    int found = -1;
    for (int i = 0; i < list.count && found < 0; i++) {
        const dm_move *x = &list.moves[i];
        if (x->from == m->from && x->to == m->to && x->ncapt == m->ncapt &&
            x->capt[0] == m->capt[0] && x->capt[1] == m->capt[1]) {
            found = i;
        }
    }
    if (found < 0) {
        return DM_EILLEGAL;
    }
    if (reserve(game, game->ply + 1) != DM_OK) {
        return DM_ENOMEM;
    }
    int i = game->ply;
    game->vmoves[i] = list.moves[found];
    game->vboards[i + 1] = game->vboards[i];
    dm_board_apply(&game->vboards[i + 1], &game->vmoves[i]);
    game->boards[i + 1] = game->boards[i];
    game->counters[i + 1] = game->counters[i];
    game->ply = game->length = i + 1;
    game->decl.active = 0;
    return DM_OK;
}

static void describe_end(const dm_game *g, dm_error *err)
{
    dm_reason r;
    dm_outcome o = dm_game_result(g, &r);
    dm_error_set(err, DM_ESTATE, 0, 0, "the game is over: %s (%s)",
                 o == DM_OUTCOME_WHITE_WINS   ? "White wins"
                 : o == DM_OUTCOME_BLACK_WINS ? "Black wins"
                                              : "draw",
                 dm_reason_str(r));
}

dm_status dm_game_play_text(dm_game *game, const char *text, dm_error *err)
{
    if (!game || !text) {
        return dm_error_set(err, DM_EINVAL, 0, 0, "no game or no move text");
    }
    if (refuses_moves(game)) {
        describe_end(game, err);
        return DM_ESTATE;
    }
    dm_status st;
    if (game->fast) {
        dm_move10 m;
        st = dm_move10_parse(&m, &game->boards[game->ply], text, err);
        if (st != DM_OK) {
            return st;
        }
        st = play_fast(game, &m);
    } else {
        dm_move m;
        st = dm_move_parse(&m, &game->vboards[game->ply], text, err);
        if (st != DM_OK) {
            return st;
        }
        st = dm_game_play(game, &m);
    }
    if (st == DM_ENOMEM) {
        dm_error_set(err, st, 0, 0, "out of memory storing the move");
    } else if (st == DM_EILLEGAL && touched_now(game)) {
        dm_error_set(err, st, 0, 0,
                     "move \"%s\": touch-move: the piece on %d was touched and must be played",
                     text, touched_now(game));
    } else if (st != DM_OK) {
        dm_error_set(err, st, 0, 0, "move \"%s\" could not be played", text);
    }
    return st;
}

dm_status dm_game_undo(dm_game *game)
{
    if (!game || game->ply == 0) {
        return DM_ESTATE;
    }
    game->ply--;
    game->touched = 0;
    game->touch_adjust = 0;
    return DM_OK;
}

dm_status dm_game_redo(dm_game *game)
{
    if (!game || game->ply >= game->length) {
        return DM_ESTATE;
    }
    game->ply++;
    game->touched = 0;
    game->touch_adjust = 0;
    return DM_OK;
}

int dm_game_ply(const dm_game *game)
{
    return game->ply;
}

int dm_game_length(const dm_game *game)
{
    return game->length;
}

uint64_t dm_game_hash_at(const dm_game *game, int i)
{
    return game->fast && i >= 0 && i <= game->length ? game->boards[i].hash : 0;
}

dm_status dm_game_counters_at(dm_draw_counters *out, const dm_game *game, int i)
{
    if (!game->fast || i < 0 || i > game->length) {
        return DM_EINVAL;
    }
    *out = game->counters[i];
    return DM_OK;
}

void dm_game_counters(dm_draw_counters *out, const dm_game *game)
{
    *out = game->counters[game->ply];
}

int dm_game_history_hashes(uint64_t *out, int cap, const dm_game *game)
{
    if (!game->fast) {
        return 0;
    }
    int n = game->counters[game->ply].kings_only_plies;
    if (n > game->ply) {
        n = game->ply;
    }
    int skip = cap < n ? n - cap : 0;
    for (int k = skip; k < n; k++) {
        out[k - skip] = game->boards[game->ply - n + k].hash;
    }
    return n;
}

size_t dm_game_move_text(char *buf, size_t cap, const dm_game *game, int i, dm_notation style)
{
    if (i < 0 || i >= game->length) {
        if (cap > 0) {
            buf[0] = '\0';
        }
        return 0;
    }
    if (!game->fast) {
        return dm_move_to_text(buf, cap, &game->vboards[i], &game->vmoves[i], style,
                               DM_SQUARES_DEFAULT);
    }
    return dm_move10_to_text(buf, cap, &game->boards[i], &game->moves[i], style);
}

dm_outcome dm_game_result(const dm_game *game, dm_reason *reason)
{
    if (game->decl.active && game->decl.ply == game->ply) {
        if (reason) {
            *reason = game->decl.reason;
        }
        return game->decl.outcome;
    }
    if (game->fast) {
        return dm_draw_judge(reason, &game->boards[game->ply], &game->counters[game->ply],
                             &game->rules);
    }
    return variant_judge(game, reason, NULL, 0);
}

void dm_game_draw_count(dm_draw_count *out, const dm_game *game)
{
    dm_variant_draw_count(out, &game->draw, game->vboards, game->vmoves, game->ply);
}

size_t dm_game_reason_text(char *buf, size_t cap, const dm_game *game)
{
    if (cap > 0) {
        buf[0] = 0;
    }
    if (!game) {
        return 0;
    }
    dm_reason r;
    char why[128] = "";
    if (!game->fast && !(game->decl.active && game->decl.ply == game->ply)) {
        variant_judge(game, &r, why, sizeof why);
    } else {
        dm_game_result(game, &r);
    }
    return (size_t)snprintf(buf, cap, "%s", why[0] ? why : dm_reason_str(r));
}

int dm_game_over(const dm_game *game)
{
    return dm_game_result(game, NULL) != DM_OUTCOME_ONGOING;
}

static dm_status declare(dm_game *g, dm_outcome o, dm_reason r)
{
    if (dm_game_over(g)) {
        return DM_ESTATE;
    }
    g->decl.active = 1;
    g->decl.ply = g->ply;
    g->decl.outcome = o;
    g->decl.reason = r;
    g->length = g->ply; /* the game ends here: the redo list goes */
    return DM_OK;
}

static dm_outcome loss_of(dm_color who)
{
    return who == DM_WHITE ? DM_OUTCOME_BLACK_WINS : DM_OUTCOME_WHITE_WINS;
}

dm_status dm_game_resign(dm_game *game, dm_color who)
{
    if (!game || (who != DM_WHITE && who != DM_BLACK)) {
        return DM_EINVAL;
    }
    return declare(game, loss_of(who), DM_REASON_RESIGNATION);
}

dm_status dm_game_agree_draw(dm_game *game)
{
    if (!game) {
        return DM_EINVAL;
    }
    return declare(game, DM_OUTCOME_DRAW, DM_REASON_AGREEMENT);
}

dm_status dm_game_declare_no_win(dm_game *game)
{
    if (!game) {
        return DM_EINVAL;
    }
    return declare(game, DM_OUTCOME_DRAW, DM_REASON_NO_WIN);
}

dm_status dm_game_declare_arbiter(dm_game *game, dm_outcome outcome)
{
    if (!game || (outcome != DM_OUTCOME_WHITE_WINS && outcome != DM_OUTCOME_BLACK_WINS &&
                  outcome != DM_OUTCOME_DRAW)) {
        return DM_EINVAL;
    }
    return declare(game, outcome, DM_REASON_ARBITER);
}

dm_status dm_game_flag(dm_game *game, dm_color who)
{
    if (!game || (who != DM_WHITE && who != DM_BLACK)) {
        return DM_EINVAL;
    }
    return declare(game, loss_of(who), DM_REASON_TIME);
}

dm_status dm_game_forfeit(dm_game *game, dm_color who)
{
    if (!game || (who != DM_WHITE && who != DM_BLACK)) {
        return DM_EINVAL;
    }
    return declare(game, loss_of(who), DM_REASON_FORFEIT);
}

dm_status dm_game_clear_result(dm_game *game)
{
    if (!game || !game->decl.active || game->decl.ply != game->ply) {
        return DM_ESTATE;
    }
    game->decl.active = 0;
    return DM_OK;
}
