/* SPDX-License-Identifier: MIT
 * src/jump/jump_search.c: a simple two-player engine for Chinese checkers and Halma
 * (damier/jump.h): negamax alpha-beta to a fixed depth, distance-to-goal evaluation,
 * moves ordered by the distance they gain. */
#include <stdlib.h>
#include <string.h>

#include <damier/jump.h>

#include "jump/jump_int.h"

static int side_distance(const dm_jrules *r, const dm_jpos *p, int s)
{
    int sum = 0;
    const dm_jset *a = &p->pieces[s];
    for (int i = jset_next(a, 0); i >= 0; i = jset_next(a, i + 1)) {
        sum += r->goal_dist[s][i];
    }
    return sum;
}

int dm_jevaluate(const dm_jrules *r, const dm_jpos *p)
{
    int me = p->to_move;
    return side_distance(r, p, me ^ 1) - side_distance(r, p, me);
}

typedef struct search_ctx {
    const dm_jrules *r;
    uint64_t nodes;
} search_ctx;

/* Gain of a move for the side making it, in steps towards its goal. */
static int gain(const dm_jrules *r, int side, const dm_jmove *m)
{
    return (int)r->goal_dist[side][m->from] - (int)r->goal_dist[side][m->to];
}

static void order(const dm_jrules *r, int side, dm_jmovelist *list)
{
    /* Insertion sort by gain, largest first (stable, so equal gains keep their order). */
    for (int i = 1; i < list->count; i++) {
        dm_jmove m = list->moves[i];
        int g = gain(r, side, &m), j = i;
        while (j > 0 && gain(r, side, &list->moves[j - 1]) < g) {
            list->moves[j] = list->moves[j - 1];
            j--;
        }
        list->moves[j] = m;
    }
}

static int negamax(search_ctx *c, const dm_jpos *p, int depth, int ply, int alpha, int beta,
                   dm_jmove *best, dm_jmovelist *lists)
{
    c->nodes++;
    int w = dm_jpos_winner(p, c->r);
    if (w >= 0) {
        return w == p->to_move ? DM_JWIN - ply : -(DM_JWIN - ply);
    }
    if (depth == 0) {
        return dm_jevaluate(c->r, p);
    }
    dm_jmovelist *list = &lists[0];
    if (dm_jmovegen(list, c->r, p) == 0) {
        return dm_jevaluate(c->r, p); /* no move: counted as a pass, statically */
    }
    order(c->r, p->to_move, list);
    int bestv = -2 * DM_JWIN;
    for (int i = 0; i < list->count; i++) {
        dm_jpos q = *p;
        dm_jpos_apply(&q, c->r, &list->moves[i]);
        int v = -negamax(c, &q, depth - 1, ply + 1, -beta, -alpha, NULL, lists + 1);
        if (v > bestv) {
            bestv = v;
            if (best) {
                *best = list->moves[i];
            }
        }
        if (v > alpha) {
            alpha = v;
        }
        if (alpha >= beta) {
            break;
        }
    }
    return bestv;
}

dm_status dm_jsearch(const dm_jrules *r, const dm_jpos *p, int depth, dm_jsearch_result *out,
                     dm_error *err)
{
    if (r->game == DM_JGAME_GEWU || r->players != 2) {
        return dm_error_set(err, DM_EINVAL, 0, 0,
                            "the engine plays two-player chinese-checkers and halma only");
    }
    if (depth < 1 || depth > 8) {
        return dm_error_set(err, DM_EINVAL, 0, 0, "search depth must be 1..8, not %d", depth);
    }
    dm_jmovelist *lists = malloc(sizeof *lists * (size_t)(depth + 1));
    if (!lists) {
        return dm_error_set(err, DM_ENOMEM, 0, 0, "out of memory for the move lists");
    }
    search_ctx c = {r, 0};
    memset(out, 0, sizeof *out);
    out->score = negamax(&c, p, depth, 0, -2 * DM_JWIN, 2 * DM_JWIN, &out->best, lists);
    out->nodes = c.nodes;
    free(lists);
    return DM_OK;
}
