/* SPDX-License-Identifier: MIT
 * core/vdraw.c: the draw rules of every variant (dm_variant_draw, damier/variant.h)
 * over a game's positions and moves: n-fold repetition, the move counters without a
 * man move or a capture, without a capture, and the material rules against a lone
 * king. The thresholds are the variant's data (dm_draw_rules, src/core/variant.c,
 * each with its source); the counting is core/drawrule.h's, which the game layer and
 * the engines use too. The terminal game, the Hub session and the records call this. */
#include <damier/variant.h>

#include <stdio.h>
#include <string.h>

#include "core/drawrule.h"

/* dr_kind of b (men and kings counted on the mailbox). */
static int material_kind(const dm_draw_rules *d, const dm_board *b)
{
    int n[5] = {0, 0, 0, 0, 0};
    for (int sq = 1; sq <= b->variant->squares; sq++) {
        if (b->sq[sq] <= DM_BLACK_KING) {
            n[b->sq[sq]]++;
        }
    }
    return dr_kind(d, n[DM_WHITE_MAN], n[DM_WHITE_KING], n[DM_BLACK_MAN], n[DM_BLACK_KING]);
}

/* s stepped over m, played in before and leading to after (dr_step with what the
 * move was: a man's, a capture, a promotion). */
static void step(dr_state *s, const dm_draw_rules *d, const dm_board *before, const dm_move *m,
                 const dm_board *after)
{
    int p = before->sq[m->from];
    dr_step(s, s, d, p == DM_WHITE_MAN || p == DM_BLACK_MAN, m->ncapt > 0, m->promote != 0,
            material_kind(d, after));
}

/* The counters at pos[n]: stepped from pos[0] (no past) through every move. */
static void walk(dr_state *s, const dm_draw_rules *d, const dm_board *pos, const dm_move *moves,
                 int n)
{
    dr_start(s, material_kind(d, &pos[0]));
    for (int i = 0; i < n; i++) {
        step(s, d, &pos[i], &moves[i], &pos[i + 1]);
    }
}

void dm_variant_draw_count(dm_draw_count *out, const dm_draw_rules *d, const dm_board *pos,
                           const dm_move *moves, int n)
{
    if (!out) {
        return;
    }
    out->reversible_plies = 0;
    out->no_capture_plies = 0;
    out->material_plies = -1;
    if (!d || !pos || !pos[0].variant || n < 0 || (n > 0 && !moves)) {
        return;
    }
    dr_state s;
    walk(&s, d, pos, moves, n);
    out->reversible_plies = s.reversible;
    out->no_capture_plies = s.no_capture;
    out->material_plies = s.material;
}

void dm_variant_draw_step(dm_draw_count *out, const dm_draw_count *c, const dm_draw_rules *d,
                          const dm_board *before, const dm_move *m)
{
    if (!out || !c || !d || !before || !before->variant || !m) {
        return;
    }
    dm_board after = *before;
    dm_board_apply(&after, m);
    int kind = material_kind(d, before);
    dr_state s = {.reversible = c->reversible_plies,
                  .no_capture = c->no_capture_plies,
                  .kind = kind,
                  .material = kind == DM_DRAW_NONE ? -1 : c->material_plies};
    step(&s, d, before, m, &after);
    out->reversible_plies = s.reversible;
    out->no_capture_plies = s.no_capture;
    out->material_plies = s.material;
}

static dm_draw_kind say(dm_draw_kind r, char *why, size_t cap, const char *text)
{
    if (why && cap) {
        snprintf(why, cap, "%s", text);
    }
    return r;
}

dm_draw_kind dm_variant_draw_judge(const dm_draw_rules *d, const dm_board *b,
                                   const dm_draw_count *c, int repetitions, char *why, size_t cap)
{
    if (why && cap) {
        why[0] = 0;
    }
    if (!d || !b || !b->variant || !c) {
        return DM_DRAW_NONE;
    }
    if (d->repetition > 1 && repetitions >= d->repetition) {
        char t[40];
        snprintf(t, sizeof t, "%d-fold repetition", d->repetition);
        return say(DM_DRAW_REPETITION, why, cap, d->repetition == 3 ? "threefold repetition" : t);
    }
    int mk = material_kind(d, b);
    dr_state s = {.reversible = c->reversible_plies,
                  .no_capture = c->no_capture_plies,
                  .kind = mk,
                  .material = mk == DM_DRAW_NONE ? -1 : c->material_plies};
    dm_draw_kind kind = (dm_draw_kind)dr_verdict(d, &s);
    char t[80];
    switch (kind) {
        case DM_DRAW_NO_PROGRESS:
            snprintf(t, sizeof t, "%d-move rule", dr_reversible_limit(d) / 2);
            return say(kind, why, cap, t);
        case DM_DRAW_NO_CAPTURE:
            snprintf(t, sizeof t, "%d moves without capture", d->no_capture_moves);
            return say(kind, why, cap, t);
        case DM_DRAW_THREE_VS_KING:
        case DM_DRAW_TWO_VS_KING:
        case DM_DRAW_KING_VS_KING: {
            const char *what = kind == DM_DRAW_THREE_VS_KING ? "three pieces against a lone king"
                               : kind == DM_DRAW_TWO_VS_KING
                                   ? "two pieces or fewer against a lone king"
                                   : "king against king";
            if (kind == DM_DRAW_TWO_VS_KING && d->two_kings_only) {
                what = "two kings against a lone king";
            }
            if (kind == DM_DRAW_THREE_VS_KING && d->three_kings_only) {
                what = "three kings against a lone king";
            }
            snprintf(t, sizeof t, "%d-move rule (%s)", dr_material_limit(d, kind) / 2, what);
            return say(kind, why, cap, t);
        }
        default:
            break;
    }
    return DM_DRAW_NONE;
}

dm_draw_kind dm_variant_draw(const dm_draw_rules *d, const dm_board *pos, const dm_move *moves,
                             int n, char *why, size_t cap)
{
    if (why && cap) {
        why[0] = 0;
    }
    if (!d || !pos || n < 0 || (n > 0 && !moves)) {
        return DM_DRAW_NONE;
    }
    const dm_board *b = &pos[n];
    dr_state s;
    walk(&s, d, pos, moves, n);
    int seen = 1;
    for (int i = n - 2; i >= n - s.reversible && i >= 0; i -= 2) {
        if (memcmp(pos[i].sq, b->sq, sizeof b->sq) == 0 && pos[i].side == b->side) {
            seen++;
        }
    }
    dm_draw_count c = {s.reversible, s.no_capture, s.material};
    return dm_variant_draw_judge(d, b, &c, seen, why, cap);
}
