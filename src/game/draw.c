/* SPDX-License-Identifier: MIT
 * game/draw.c: the FMJD end-of-game and draw rules as pure functions of a board and
 * its counters (damier/game.h), for dm_game; the counting itself is core/drawrule.h,
 * the one implementation that the variants' judge and both engines' searches use.
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

#include "core/drawrule.h"

static const dm_game_rules fmjd_rules = DM_GAME_RULES_INIT;
/* The FMJD set: it classifies the material (dm_draw_endgame) whatever the game's
 * thresholds, which only decide when a count draws. */
static const dm_draw_rules fmjd_draw = DR_FMJD_INIT;

/* The draw-rule set of game rules r for the counting code (core/drawrule.h). */
static dm_draw_rules draw_of(const dm_game_rules *r)
{
    dm_draw_rules d = {.name = "game",
                       .repetition = r->repetitions,
                       .kings_only_moves = r->kings_only_moves,
                       .three_vs_king_moves = r->endgame16_moves,
                       .two_vs_king_moves = r->endgame5_moves,
                       .promotion_continues = !r->promotion_restarts};
    return d;
}

static int kind_of(dm_endgame e)
{
    return e == DM_ENDGAME_16  ? DM_DRAW_THREE_VS_KING
           : e == DM_ENDGAME_5 ? DM_DRAW_TWO_VS_KING
                               : DM_DRAW_NONE;
}

dm_endgame dm_draw_endgame(const dm_board10 *b)
{
    int k =
        dr_kind(&fmjd_draw, dm_board10_count_men(b, DM_WHITE), dm_board10_count_kings(b, DM_WHITE),
                dm_board10_count_men(b, DM_BLACK), dm_board10_count_kings(b, DM_BLACK));
    return k == DM_DRAW_THREE_VS_KING ? DM_ENDGAME_16
           : k == DM_DRAW_TWO_VS_KING ? DM_ENDGAME_5
                                      : DM_ENDGAME_NONE;
}

void dm_draw_init(dm_draw_counters *out, const dm_board10 *start)
{
    dm_endgame e = dm_draw_endgame(start);
    out->kings_only_plies = 0;
    out->endgame_kind = (int)e;
    out->endgame_plies = e == DM_ENDGAME_NONE ? -1 : 0;
    out->repetitions = 1;
}

void dm_draw_step(dm_draw_counters *out, const dm_draw_counters *c, const dm_board10 *before,
                  const dm_move10 *m, const dm_game_rules *rules)
{
    if (!rules) {
        rules = &fmjd_rules;
    }
    dm_piece mover = dm_board10_piece(before, m->from);
    int man = mover == DM_WHITE_MAN || mover == DM_BLACK_MAN;

    dm_board10 after = *before;
    dm_board10_apply(&after, m);
    dm_endgame now = dm_draw_endgame(&after);

    dm_draw_rules d = fmjd_draw;
    d.promotion_continues = !rules->promotion_restarts;
    dr_state s = {.reversible = c->kings_only_plies,
                  .no_capture = 0,
                  .kind = kind_of((dm_endgame)c->endgame_kind),
                  .material = c->endgame_plies};
    dr_step(&s, &s, &d, man, m->ncapt > 0, dm_move10_is_promotion(before, m), kind_of(now));

    out->kings_only_plies = s.reversible;
    out->endgame_kind = (int)now;
    out->endgame_plies = s.material;
    out->repetitions = 1;
}

dm_outcome dm_draw_judge(dm_reason *reason, const dm_board10 *b, const dm_draw_counters *c,
                         const dm_game_rules *rules)
{
    dm_reason r = DM_REASON_NONE;
    dm_outcome o = DM_OUTCOME_ONGOING;
    if (!rules) {
        rules = &fmjd_rules;
    }
    int side = b->side;
    dm_outcome loss = side == DM_WHITE ? DM_OUTCOME_BLACK_WINS : DM_OUTCOME_WHITE_WINS;
    dm_draw_rules d = draw_of(rules);
    dr_state s = {.reversible = c->kings_only_plies,
                  .no_capture = 0,
                  .kind = kind_of(dm_draw_endgame(b)),
                  .material = c->endgame_plies};

    /* FMJD 7.2 first: a player who cannot move loses, even when the move that
     * blocked them also completed a draw count. */
    if (b->pieces[side] == 0) {
        o = loss, r = DM_REASON_NO_PIECES;
    } else if (dm_movegen10_count(b) == 0) {
        o = loss, r = DM_REASON_BLOCKED;
    } else if (rules->repetitions > 0 && c->repetitions >= rules->repetitions) {
        o = DM_OUTCOME_DRAW, r = DM_REASON_REPETITION;
    } else {
        switch (dr_verdict(&d, &s)) {
            case DM_DRAW_THREE_VS_KING:
                o = DM_OUTCOME_DRAW, r = DM_REASON_16_MOVES;
                break;
            case DM_DRAW_TWO_VS_KING:
                o = DM_OUTCOME_DRAW, r = DM_REASON_5_MOVES;
                break;
            case DM_DRAW_NO_PROGRESS:
                o = DM_OUTCOME_DRAW, r = DM_REASON_25_MOVES;
                break;
            default:
                break;
        }
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
        case DM_REASON_NO_PROGRESS:
            return "no progress rule";
        case DM_REASON_NO_CAPTURE:
            return "no capture rule";
        case DM_REASON_MATERIAL:
            return "material rule";
        case DM_REASON_PROMOTION:
            return "first king (breakthrough)";
        case DM_REASON_NO_WIN:
            return "neither side can win";
        case DM_REASON_ARBITER:
            return "arbiter's decision";
    }
    return "";
}
