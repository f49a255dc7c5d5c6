/* SPDX-License-Identifier: MIT
 * game/draw.c: the names of results and reasons (damier/game.h). The draw rules
 * themselves are judged once for every game: dm_variant_draw_judge over the counting
 * of core/drawrule.h (game/game.c). */
#include <damier/game.h>

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
