/* SPDX-License-Identifier: MIT
 * core/vdraw.c: the draw rules of every variant (dm_variant_draw, damier/variant.h)
 * over a game's positions and moves: n-fold repetition, the move counters without a
 * man move or a capture, without a capture, and the material rules against a lone
 * king. The thresholds are the variant's data (dm_draw_rules, src/core/variant.c,
 * each with its source); the terminal game, the Hub session and the records call
 * this one implementation. */
#include <damier/variant.h>

#include <stdio.h>
#include <string.h>

/* Which material rule of d applies to b: THREE_VS_KING (three pieces with a king, or
 * three kings where d->three_kings_only, against a lone king: FMJD 16, Russian 18),
 * TWO_VS_KING (two pieces or fewer with a king, or two kings where d->two_kings_only:
 * FMJD 5, Frisian 7), KING_VS_KING (Frisian), NONE. */
static dm_vdraw material_kind(const dm_draw_rules *d, const dm_vboard *b)
{
    int men[2] = {0, 0}, kings[2] = {0, 0};
    for (int sq = 1; sq <= b->variant->squares; sq++) {
        switch (b->sq[sq]) {
            case DM_WHITE_MAN:
                men[DM_WHITE]++;
                break;
            case DM_BLACK_MAN:
                men[DM_BLACK]++;
                break;
            case DM_WHITE_KING:
                kings[DM_WHITE]++;
                break;
            case DM_BLACK_KING:
                kings[DM_BLACK]++;
                break;
            default:
                break;
        }
    }
    for (int strong = 0; strong < 2; strong++) {
        int weak = strong ^ 1;
        int n = men[strong] + kings[strong];
        if (men[weak] != 0 || kings[weak] != 1 || kings[strong] == 0) {
            continue;
        }
        if (n == 1 && d->king_vs_king_moves > 0) {
            return DM_VDRAW_KING_VS_KING;
        }
        if (n == 3 && d->three_vs_king_moves > 0 && (!d->three_kings_only || kings[strong] == 3)) {
            return DM_VDRAW_THREE_VS_KING;
        }
        if (n <= 2 && d->two_vs_king_moves > 0 && (!d->two_kings_only || kings[strong] == 2)) {
            return DM_VDRAW_TWO_VS_KING;
        }
    }
    return DM_VDRAW_NONE;
}

static dm_vdraw say(dm_vdraw r, char *why, size_t cap, const char *text)
{
    if (why && cap) {
        snprintf(why, cap, "%s", text);
    }
    return r;
}

dm_vdraw dm_variant_draw(const dm_draw_rules *d, const dm_vboard *pos, const dm_vmove *moves, int n,
                         char *why, size_t cap)
{
    if (why && cap) {
        why[0] = 0;
    }
    if (!d || !pos || n < 0 || (n > 0 && !moves)) {
        return DM_VDRAW_NONE;
    }
    const dm_vboard *b = &pos[n];
    /* Counters back from the last position. */
    int reversible = 0, no_capture = 0;
    for (int i = n - 1; i >= 0 && moves[i].ncapt == 0; i--) {
        no_capture++;
    }
    for (int i = n - 1; i >= 0; i--) {
        int p = pos[i].sq[moves[i].from];
        if (moves[i].ncapt > 0 || p == DM_WHITE_MAN || p == DM_BLACK_MAN) {
            break;
        }
        reversible++;
    }
    if (d->repetition > 1) {
        int seen = 1;
        for (int i = n - 2; i >= n - reversible && i >= 0; i -= 2) {
            if (memcmp(pos[i].sq, b->sq, sizeof b->sq) == 0 && pos[i].side == b->side) {
                seen++;
            }
        }
        if (seen >= d->repetition) {
            char t[40];
            snprintf(t, sizeof t, "%d-fold repetition", d->repetition);
            return say(DM_VDRAW_REPETITION, why, cap,
                       d->repetition == 3 ? "threefold repetition" : t);
        }
    }
    int limit =
        d->kings_only_moves > d->no_progress_moves ? d->kings_only_moves : d->no_progress_moves;
    char t[80];
    if (limit > 0 && reversible >= 2 * limit) {
        snprintf(t, sizeof t, "%d-move rule", limit);
        return say(DM_VDRAW_NO_PROGRESS, why, cap, t);
    }
    if (d->no_capture_moves > 0 && no_capture >= 2 * d->no_capture_moves) {
        snprintf(t, sizeof t, "%d moves without capture", d->no_capture_moves);
        return say(DM_VDRAW_NO_CAPTURE, why, cap, t);
    }
    /* Material rules: the count starts when the configuration first appears (plies
     * since then = earlier positions of the same kind in a row). */
    dm_vdraw kind = material_kind(d, b);
    if (kind != DM_VDRAW_NONE) {
        int since = 0;
        for (int i = n - 1; i >= 0 && material_kind(d, &pos[i]) == kind; i--) {
            since++;
        }
        int moves_each = kind == DM_VDRAW_THREE_VS_KING ? d->three_vs_king_moves
                         : kind == DM_VDRAW_TWO_VS_KING ? d->two_vs_king_moves
                                                        : d->king_vs_king_moves;
        const char *what = kind == DM_VDRAW_THREE_VS_KING ? "three pieces against a lone king"
                           : kind == DM_VDRAW_TWO_VS_KING
                               ? "two pieces or fewer against a lone king"
                               : "king against king";
        if (kind == DM_VDRAW_TWO_VS_KING && d->two_kings_only) {
            what = "two kings against a lone king";
        }
        if (kind == DM_VDRAW_THREE_VS_KING && d->three_kings_only) {
            what = "three kings against a lone king";
        }
        if (since >= 2 * moves_each) {
            snprintf(t, sizeof t, "%d-move rule (%s)", moves_each, what);
            return say(kind, why, cap, t);
        }
    }
    return DM_VDRAW_NONE;
}
