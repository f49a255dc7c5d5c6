/* SPDX-License-Identifier: MIT
 * game/draw.c: the FMJD end-of-game and draw rules as pure functions of a board and
 * its counters (damier/game.h), shared by dm_game and by engines.
 *
 * Counting conventions (FMJD 6; "N moves of each player" = 2N plies):
 *   kings_only_plies  plies since the last man move or capture; the 25-move rule
 *                     draws when it reaches 50 (not at 49);
 *   endgame_plies     plies since the current 16/5-move configuration appeared (the
 *                     position right after the capture or promotion that made it is
 *                     ply 0); drawn at 32 (16-move) or 10 (5-move).
 * Interaction of the 16/5 counts (debated, see the header): the count restarts
 * whenever the material changes into a qualifying configuration: after every capture
 * (so 16 -> 5 starts a fresh 5-move count) and, by default, after a promotion
 * (king + 2 men -> 2 kings + man restarts the 16-move count). */
#include <damier/game.h>

static const dm_game_rules fmjd_rules = DM_GAME_RULES_INIT;

/* The stronger side's pieces against a lone king: which rule applies. */
static dm_endgame against_lone_king(int men, int kings)
{
    int n = men + kings;
    if (kings < 1) {
        return DM_ENDGAME_NONE; /* one to three men alone: no rule */
    }
    if (n == 3) {
        return DM_ENDGAME_16;
    }
    if (n <= 2) {
        return DM_ENDGAME_5;
    }
    return DM_ENDGAME_NONE;
}

dm_endgame dm_draw_endgame(const dm_board *b)
{
    int wm = dm_board_count_men(b, DM_WHITE), wk = dm_board_count_kings(b, DM_WHITE);
    int bm = dm_board_count_men(b, DM_BLACK), bk = dm_board_count_kings(b, DM_BLACK);
    int w_lone = wm == 0 && wk == 1, b_lone = bm == 0 && bk == 1;
    if (b_lone) {
        dm_endgame e = against_lone_king(wm, wk);
        if (e != DM_ENDGAME_NONE) {
            return e;
        }
    }
    if (w_lone) {
        return against_lone_king(bm, bk);
    }
    return DM_ENDGAME_NONE;
}

void dm_draw_init(dm_draw_counters *out, const dm_board *start)
{
    dm_endgame e = dm_draw_endgame(start);
    out->kings_only_plies = 0;
    out->endgame_kind = (int)e;
    out->endgame_plies = e == DM_ENDGAME_NONE ? -1 : 0;
    out->repetitions = 1;
}

void dm_draw_step(dm_draw_counters *out, const dm_draw_counters *c, const dm_board *before,
                  const dm_move *m, const dm_game_rules *rules)
{
    if (!rules) {
        rules = &fmjd_rules;
    }
    dm_piece mover = dm_board_piece(before, m->from);
    int man = mover == DM_WHITE_MAN || mover == DM_BLACK_MAN;
    int capture = m->ncapt > 0;
    int promotion = dm_move_is_promotion(before, m);

    dm_board after = *before;
    dm_board_apply(&after, m);
    dm_endgame was = dm_draw_endgame(before);
    dm_endgame now = dm_draw_endgame(&after);

    dm_draw_counters n;
    n.kings_only_plies = (man || capture) ? 0 : c->kings_only_plies + 1;
    n.endgame_kind = (int)now;
    if (now == DM_ENDGAME_NONE) {
        n.endgame_plies = -1;
    } else if (capture || was != now || c->endgame_plies < 0 ||
               (promotion && rules->promotion_restarts)) {
        n.endgame_plies = 0; /* a new qualifying configuration appeared */
    } else {
        n.endgame_plies = c->endgame_plies + 1;
    }
    n.repetitions = 1;
    *out = n;
}

dm_outcome dm_draw_judge(dm_reason *reason, const dm_board *b, const dm_draw_counters *c,
                         const dm_game_rules *rules)
{
    dm_reason r = DM_REASON_NONE;
    dm_outcome o = DM_OUTCOME_ONGOING;
    if (!rules) {
        rules = &fmjd_rules;
    }
    int side = b->side;
    dm_outcome loss = side == DM_WHITE ? DM_OUTCOME_BLACK_WINS : DM_OUTCOME_WHITE_WINS;
    dm_endgame e = dm_draw_endgame(b);
    int eg_limit = e == DM_ENDGAME_16  ? rules->endgame16_moves
                   : e == DM_ENDGAME_5 ? rules->endgame5_moves
                                       : 0;

    /* FMJD 7.2 first: a player who cannot move loses, even when the move that
     * blocked them also completed a draw count. */
    if (b->pieces[side] == 0) {
        o = loss, r = DM_REASON_NO_PIECES;
    } else if (dm_movegen_count(b) == 0) {
        o = loss, r = DM_REASON_BLOCKED;
    } else if (rules->repetitions > 0 && c->repetitions >= rules->repetitions) {
        o = DM_OUTCOME_DRAW, r = DM_REASON_REPETITION;
    } else if (eg_limit > 0 && c->endgame_plies >= 2 * eg_limit) {
        o = DM_OUTCOME_DRAW, r = e == DM_ENDGAME_16 ? DM_REASON_16_MOVES : DM_REASON_5_MOVES;
    } else if (rules->kings_only_moves > 0 && c->kings_only_plies >= 2 * rules->kings_only_moves) {
        o = DM_OUTCOME_DRAW, r = DM_REASON_25_MOVES;
    }
    if (reason) {
        *reason = r;
    }
    return o;
}

const char *dm_outcome_str(dm_outcome r)
{
    switch (r) {
        case DM_OUTCOME_WHITE_WINS:
            return "2-0";
        case DM_OUTCOME_BLACK_WINS:
            return "0-2";
        case DM_OUTCOME_DRAW:
            return "1-1";
        case DM_OUTCOME_ONGOING:
            break;
    }
    return "*";
}

const char *dm_reason_str(dm_reason r)
{
    switch (r) {
        case DM_REASON_NONE:
            return "";
        case DM_REASON_NO_PIECES:
            return "no pieces left";
        case DM_REASON_BLOCKED:
            return "no legal move";
        case DM_REASON_RESIGNATION:
            return "resignation";
        case DM_REASON_AGREEMENT:
            return "draw by agreement";
        case DM_REASON_REPETITION:
            return "threefold repetition";
        case DM_REASON_25_MOVES:
            return "25-move rule";
        case DM_REASON_16_MOVES:
            return "16-move rule";
        case DM_REASON_5_MOVES:
            return "5-move rule";
        case DM_REASON_TIME:
            return "loss on time";
        case DM_REASON_FORFEIT:
            return "forfeit";
    }
    return "";
}
