/* SPDX-License-Identifier: MIT
 * game/game.c: the game object (damier/game.h): start position, moves, undo/redo and
 * the result, for every variant alike, on the generic positions and moves.
 *
 * History is kept as arrays indexed by ply:
 *     pos[i], counts[i], hashes[i], reps[i]
 *                              the position BEFORE ply i, its draw counters
 *                              (dm_variant_draw_step over the game's draw set), its
 *                              dm_board_hash and its occurrences so far (1 = first),
 *                              i = 0..length (pos[0] is the start position)
 *     moves[i]                 the move of ply i, i = 0..length-1
 * with `ply` the current position (0..length); entries past `ply` are the redo list.
 * Entry i depends only on entries < i, which never change while entry i exists
 * (a new move truncates the list first), so the counters cached per ply are always
 * those a recomputation from the history would give (dm_variant_draw_count): undo and
 * redo just move `ply`. A game is judged by dm_variant_result and then
 * dm_variant_draw_judge with its draw set (an international game: the FMJD set).
 * A declared result (resignation, agreement, time, forfeit) is tied to the ply where
 * it was declared. */
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
    dm_game_rules rules;       /* play_after_end; the FMJD thresholds' view of draw in an
                                  international game (dm_game_rules_of) */
    const dm_variant *variant; /* never NULL */
    dm_draw_rules draw;        /* the draw rules judged (initially variant->draw) */
    int ply;                   /* current position index */
    int length;                /* plies stored (played + redoable) */
    int cap;                   /* room for cap moves and cap + 1 positions */
    dm_board *pos;
    dm_move *moves;
    dm_draw_count *counts;
    uint64_t *hashes;
    int *reps;
    declared decl;
    int touch_move;   /* the touch-move rule is on */
    int touch_adjust; /* 1 + the ply at which "I adjust" was announced, or 0: the next
                         touch at that ply commits nothing */
    int touched;      /* square of the piece that must be played at touched_ply, or 0 */
    int touched_ply;
};

#define INITIAL_CAP 64

static dm_status grow(void **p, size_t n, size_t size)
{
    void *q = realloc(*p, n * size);
    if (!q) {
        return DM_ENOMEM;
    }
    *p = q;
    return DM_OK;
}

static dm_status reserve(dm_game *g, int plies)
{
    if (plies <= g->cap) {
        return DM_OK;
    }
    int cap = g->cap ? g->cap : INITIAL_CAP;
    while (cap < plies) {
        cap *= 2;
    }
    size_t n = (size_t)cap + 1;
    if (grow((void **)&g->moves, (size_t)cap, sizeof *g->moves) != DM_OK ||
        grow((void **)&g->pos, n, sizeof *g->pos) != DM_OK ||
        grow((void **)&g->counts, n, sizeof *g->counts) != DM_OK ||
        grow((void **)&g->hashes, n, sizeof *g->hashes) != DM_OK ||
        grow((void **)&g->reps, n, sizeof *g->reps) != DM_OK) {
        return DM_ENOMEM;
    }
    g->cap = cap;
    return DM_OK;
}

/* The counters, hash and occurrences of position i from the entries before it. The
 * repetition count looks back only as far as the last man move or capture: no earlier
 * position can be equal (different men or material). */
static void compute_at(dm_game *g, int i)
{
    const dm_board *b = &g->pos[i];
    if (i == 0) {
        dm_variant_draw_count(&g->counts[0], &g->draw, g->pos, g->moves, 0);
    } else {
        dm_variant_draw_step(&g->counts[i], &g->counts[i - 1], &g->draw, &g->pos[i - 1],
                             &g->moves[i - 1]);
    }
    g->hashes[i] = dm_board_hash(b);
    int reps = 1;
    for (int j = i - 2; j >= i - g->counts[i].reversible_plies && j >= 0; j -= 2) {
        reps += g->hashes[j] == g->hashes[i] && g->pos[j].side == b->side &&
                memcmp(g->pos[j].sq, b->sq, sizeof b->sq) == 0;
    }
    g->reps[i] = reps;
}

/* Recompute every cached entry (the draw rules changed). */
static void recompute(dm_game *g)
{
    for (int i = 0; i <= g->length; i++) {
        compute_at(g, i);
    }
}

/* The reason of a draw rule. FMJD 6's own reasons (25-, 16- and 5-move rules) name the
 * rules of international draughts, whose records and front ends know them by these
 * names; every other variant reports the rule's kind (its text says the numbers). */
static dm_reason draw_reason(const dm_game *g, dm_draw_kind k)
{
    int fmjd = g->variant->id == DM_VARIANT_INTERNATIONAL;
    switch (k) {
        case DM_DRAW_NONE:
            return DM_REASON_NONE;
        case DM_DRAW_REPETITION:
            return DM_REASON_REPETITION;
        case DM_DRAW_NO_PROGRESS:
            return fmjd ? DM_REASON_25_MOVES : DM_REASON_NO_PROGRESS;
        case DM_DRAW_NO_CAPTURE:
            return DM_REASON_NO_CAPTURE;
        case DM_DRAW_THREE_VS_KING:
            return fmjd ? DM_REASON_16_MOVES : DM_REASON_MATERIAL;
        case DM_DRAW_TWO_VS_KING:
            return fmjd ? DM_REASON_5_MOVES : DM_REASON_MATERIAL;
        case DM_DRAW_KING_VS_KING:
            break;
    }
    return DM_REASON_MATERIAL;
}

/* The result of the current position (no declared result): the variant's end first
 * (dm_variant_result: no legal move, breakthrough's king; FMJD 7.2: a loss takes
 * precedence over a draw rule completed by the same move), then its draw rules; why
 * gets the draw rule's text. */
static dm_outcome judge(const dm_game *g, dm_reason *reason, char *why, size_t cap)
{
    const dm_board *b = &g->pos[g->ply];
    dm_reason r = DM_REASON_NONE;
    dm_outcome o = DM_OUTCOME_ONGOING;
    if (why && cap) {
        why[0] = 0;
    }
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
        dm_draw_kind k =
            dm_variant_draw_judge(&g->draw, b, &g->counts[g->ply], g->reps[g->ply], why, cap);
        if (k != DM_DRAW_NONE) {
            o = DM_OUTCOME_DRAW;
            r = draw_reason(g, k);
            if ((r == DM_REASON_25_MOVES || r == DM_REASON_16_MOVES || r == DM_REASON_5_MOVES) &&
                why && cap) {
                snprintf(why, cap, "%s", dm_reason_str(r));
            }
        }
    }
    if (reason) {
        *reason = r;
    }
    return o;
}

/* The FMJD thresholds of draw rules d, as dm_game_rules_of shows them. */
static void rules_from_draw(dm_game_rules *r, const dm_draw_rules *d)
{
    r->repetitions = d->repetition;
    r->kings_only_moves = d->kings_only_moves;
    r->endgame16_moves = d->three_vs_king_moves;
    r->endgame5_moves = d->two_vs_king_moves;
    r->promotion_restarts = !d->promotion_continues;
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
    dm_game *g = calloc(1, sizeof *g);
    if (!g) {
        return DM_ENOMEM;
    }
    g->rules = (dm_game_rules)DM_GAME_RULES_INIT;
    g->variant = v;
    g->draw = v->draw;
    if (v->id == DM_VARIANT_INTERNATIONAL) {
        rules_from_draw(&g->rules, &g->draw);
    }
    if (reserve(g, INITIAL_CAP) != DM_OK) {
        dm_game_free(g);
        return DM_ENOMEM;
    }
    if (start) {
        g->pos[0] = *start;
    } else {
        dm_board_start(&g->pos[0], v);
    }
    compute_at(g, 0);
    *out = g;
    return DM_OK;
}

const dm_variant *dm_game_variant(const dm_game *game)
{
    return game ? game->variant : NULL;
}

dm_status dm_game_set_draw_rules(dm_game *game, const dm_draw_rules *rules)
{
    if (!game || !rules) {
        return DM_EINVAL;
    }
    game->draw = *rules;
    if (game->variant->id == DM_VARIANT_INTERNATIONAL) {
        rules_from_draw(&game->rules, &game->draw);
    }
    recompute(game);
    return DM_OK;
}

const dm_draw_rules *dm_game_draw_rules(const dm_game *game)
{
    return &game->draw;
}

const dm_board *dm_game_position(const dm_game *game)
{
    return &game->pos[game->ply];
}

const dm_board *dm_game_position_at(const dm_game *game, int i)
{
    return i >= 0 && i <= game->length ? &game->pos[i] : NULL;
}

const dm_move *dm_game_move_at(const dm_game *game, int i)
{
    return i >= 0 && i < game->length ? &game->moves[i] : NULL;
}

void dm_game_free(dm_game *game)
{
    if (!game) {
        return;
    }
    free(game->moves);
    free(game->pos);
    free(game->counts);
    free(game->hashes);
    free(game->reps);
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
    if (game->variant->id == DM_VARIANT_INTERNATIONAL) {
        /* the compatibility mapping: FMJD's thresholds onto the game's draw set */
        game->draw.repetition = rules->repetitions;
        game->draw.kings_only_moves = rules->kings_only_moves;
        game->draw.three_vs_king_moves = rules->endgame16_moves;
        game->draw.two_vs_king_moves = rules->endgame5_moves;
        game->draw.promotion_continues = !rules->promotion_restarts;
        recompute(game);
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
    const dm_board *b = &game->pos[game->ply];
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

dm_status dm_game_play(dm_game *game, const dm_move *m)
{
    if (!game || !m) {
        return DM_EINVAL;
    }
    if (refuses_moves(game)) {
        return DM_ESTATE;
    }
    if (touched_now(game) && m->from != touched_now(game)) {
        return DM_EILLEGAL;
    }
    const dm_board *b = &game->pos[game->ply];
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
    game->moves[i] = list.moves[found];
    game->pos[i + 1] = game->pos[i];
    dm_board_apply(&game->pos[i + 1], &game->moves[i]);
    compute_at(game, i + 1);
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
    dm_move m;
    dm_status st = dm_move_parse(&m, &game->pos[game->ply], text, err);
    if (st != DM_OK) {
        return st;
    }
    st = dm_game_play(game, &m);
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
    return i >= 0 && i <= game->length ? game->hashes[i] : 0;
}

int dm_game_repetitions(const dm_game *game)
{
    return game->reps[game->ply];
}

int dm_game_history_hashes(uint64_t *out, int cap, const dm_game *game)
{
    int n = game->counts[game->ply].reversible_plies;
    if (n > game->ply) {
        n = game->ply;
    }
    int skip = cap < n ? n - cap : 0;
    for (int k = skip; k < n; k++) {
        out[k - skip] = game->hashes[game->ply - n + k];
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
    return dm_move_to_text(buf, cap, &game->pos[i], &game->moves[i], style, DM_SQUARES_DEFAULT);
}

dm_outcome dm_game_result(const dm_game *game, dm_reason *reason)
{
    if (game->decl.active && game->decl.ply == game->ply) {
        if (reason) {
            *reason = game->decl.reason;
        }
        return game->decl.outcome;
    }
    return judge(game, reason, NULL, 0);
}

void dm_game_draw_count(dm_draw_count *out, const dm_game *game)
{
    *out = game->counts[game->ply];
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
    if (!(game->decl.active && game->decl.ply == game->ply)) {
        judge(game, &r, why, sizeof why);
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
