/* SPDX-License-Identifier: MIT
 * apps/cli/match_variant.c: the variants in `damier match` (match_variant.h). */
#include "match_variant.h"

#include <damier/hub.h>

#include <stdio.h>
#include <string.h>

/* The Hub names are the Hub session's (dm_hub_variant_name: one table). */
const char *match_variant_hub_name(const dm_variant *v)
{
    const char *name = dm_hub_variant_name(v);
    return name ? name : "normal";
}

void match_vpos_to_hub(char *buf, size_t cap, const dm_board *b)
{
    static const char letters[] = "ewbWB";
    const dm_variant *v = b->variant;
    if (cap < (size_t)v->squares + 2) {
        if (cap) {
            buf[0] = '\0';
        }
        return;
    }
    buf[0] = b->side == DM_WHITE ? 'W' : 'B';
    for (int n = 1; n <= v->squares; n++) {
        int p = b->sq[dm_square_from_number(v, n)];
        buf[n] = p >= 0 && p <= 4 ? letters[p] : 'e';
    }
    buf[v->squares + 1] = '\0';
}

/* Hub form only: numeric squares (as the records number them) separated by '-' or
 * 'x'; from, to, then the captured squares. Returns the squares read, 0 when text is
 * not of that form. */
static int hub_squares(int *sq, int max, const dm_variant *v, const char *text)
{
    int n = 0;
    const char *p = text;
    while (*p) {
        if (*p < '0' || *p > '9' || n == max) {
            return 0;
        }
        int k = 0;
        while (*p >= '0' && *p <= '9') {
            k = k * 10 + (*p++ - '0');
            if (k > v->squares) {
                return 0;
            }
        }
        int s = dm_square_from_number(v, k);
        if (!s) {
            return 0;
        }
        sq[n++] = s;
        if (*p == '-' || *p == 'x' || *p == 'X' || *p == ':') {
            if (!*++p) {
                return 0;
            }
        } else if (*p) {
            return 0;
        }
    }
    return n >= 2 ? n : 0;
}

/* The legal moves of b with from sq[0], to sq[1] and exactly the captured squares
 * sq[2..n-1] (n > 2), in any order: how many, the first in *out. */
static int hub_matches(dm_move *out, const dm_movelist *list, const int *sq, int n)
{
    int found = 0;
    for (int i = 0; i < list->count; i++) {
        const dm_move *m = &list->moves[i];
        if (m->from != sq[0] || m->to != sq[1] || m->ncapt != n - 2) {
            continue;
        }
        int all = 1;
        for (int k = 2; k < n && all; k++) {
            all = dm_move_captures(m, sq[k]);
            for (int j = 2; j < k && all; j++) {
                all = sq[j] != sq[k]; /* a piece taken twice */
            }
        }
        if (all && found++ == 0) {
            *out = *m;
        }
    }
    return found;
}

int match_vmove_read(dm_move *out, const dm_board *b, const char *text, char *why, size_t cap)
{
    if (cap) {
        why[0] = '\0';
    }
    int sq[DM_MAX_CAPT + 2];
    int n = hub_squares(sq, DM_MAX_CAPT + 2, b->variant, text);
    static dm_movelist list; /* one referee thread: the list is too large for a stack */
    if (n > 2) {
        dm_movegen_legal(&list, b);
        if (hub_matches(out, &list, sq, n) == 1) {
            return MATCH_MOVE_OK;
        }
    }
    dm_error err;
    dm_status st = dm_move_parse(out, b, text, &err);
    if (st == DM_OK) {
        return MATCH_MOVE_OK;
    }
    snprintf(why, cap, "%s", err.message);
    return st == DM_EPARSE       ? MATCH_MOVE_GARBLED
           : st == DM_EAMBIGUOUS ? MATCH_MOVE_AMBIGUOUS
                                 : MATCH_MOVE_ILLEGAL;
}

int match_vgame_fresh(const dm_game *g)
{
    const dm_board *p = dm_game_position(g);
    if (!p || p->king_moves[0] || p->king_moves[1]) {
        return 0;
    }
    dm_draw_count now, fresh;
    dm_game_draw_count(&now, g);
    dm_variant_draw_count(&fresh, &p->variant->draw, p, NULL, 0);
    /* the plies without a capture are counted whether or not the variant has that
     * rule: only a rule that exists holds the position back */
    return now.reversible_plies == fresh.reversible_plies &&
           (!p->variant->draw.no_capture_moves || now.no_capture_plies == fresh.no_capture_plies) &&
           now.material_plies == fresh.material_plies;
}
