/* SPDX-License-Identifier: MIT
 * apps/cli/annotate.c: the engine's marks on a game's moves (annotate.h says how). */
#define _POSIX_C_SOURCE 200809L
#include "annotate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CAP 2000 /* forced ends counted as 20 men */

static int clip(int s)
{
    return s > CAP ? CAP : s < -CAP ? -CAP : s;
}

/* Score every legal move of w's current position (the mover's side): each move is
 * played in w, judged by the game's own end and draw rules (any variant), searched
 * from the position after it when the game goes on, and taken back. */
static dm_status score_moves(int *score, const dm_movelist *list, dm_engine *e, dm_game *w,
                             int depth)
{
    uint64_t hist[DM_ENGINE_MAX_HISTORY + 1];
    for (int i = 0; i < list->count; i++) {
        dm_status st = dm_game_play(w, &list->moves[i]);
        if (st != DM_OK) {
            return st;
        }
        dm_outcome o = dm_game_result(w, NULL);
        if (o == DM_OUTCOME_DRAW) {
            score[i] = 0;
        } else if (o != DM_OUTCOME_ONGOING) {
            score[i] = DM_SCORE_WIN - 1; /* the side to move after it lost */
        } else {
            dm_search_input in;
            dm_search_input_from_game(&in, hist, DM_ENGINE_MAX_HISTORY, w);
            dm_limits lim;
            memset(&lim, 0, sizeof lim);
            lim.depth = depth > 1 ? depth - 1 : 1;
            lim.analyse = 1;
            dm_result r;
            st = dm_engine_search(&r, e, &in, &lim, NULL, NULL, NULL);
            if (st != DM_OK) {
                dm_game_undo(w);
                return st;
            }
            score[i] = r.has_move ? -r.score : DM_SCORE_WIN - 1;
        }
        dm_game_undo(w);
    }
    return DM_OK;
}

dm_status cli_annotate_game(cli_annotation *out, dm_engine *e, const dm_game *g, int depth,
                            const volatile int *stop)
{
    if (!out || !e || !g || depth < 1 || depth > 30) {
        return DM_EINVAL;
    }
    int n = dm_game_ply(g);
    memset(out, 0, sizeof *out * (size_t)(n > 0 ? n : 1));
    dm_game *w = NULL;
    dm_status st = dm_game_new(&w, dm_game_position_at(g, 0));
    if (st != DM_OK) {
        return st;
    }
    dm_game_set_rules(w, dm_game_rules_of(g));
    dm_game_set_draw_rules(w, dm_game_draw_rules(g)); /* the same draw set, every variant */
    int *score = malloc(sizeof *score * DM_MAX_MOVES);
    dm_movelist *list = malloc(sizeof *list);
    if (!score || !list) {
        free(score);
        free(list);
        dm_game_free(w);
        return DM_ENOMEM;
    }
    int won[2] = {0, 0}; /* White, Black: a forced win found after its last move */
    for (int i = 0; i < n && st == DM_OK; i++) {
        const dm_move *played = dm_game_move_at(g, i);
        const dm_board b = *dm_game_position(w);
        int white = b.side == DM_WHITE;
        cli_annotation *a = &out[i];
        dm_movegen_legal(list, &b);
        int pi = -1;
        for (int k = 0; k < list->count; k++) {
            if (dm_move_same(&list->moves[k], played)) {
                pi = k;
            }
        }
        if (pi < 0 || (stop && *stop)) {
            break;
        }
        st = score_moves(score, list, e, w, depth);
        if (st != DM_OK) {
            break;
        }
        int bi = 0;
        for (int k = 1; k < list->count; k++) {
            if (score[k] > score[bi]) {
                bi = k;
            }
        }
        int best = clip(score[bi]), mine = clip(score[pi]);
        int second = -3 * CAP;
        for (int k = 0; k < list->count; k++) {
            if (k != bi && clip(score[k]) > second) {
                second = clip(score[k]);
            }
        }
        int loss = best - mine;
        if (score[pi] >= DM_SCORE_EGDB_MIN) {
            loss = 0; /* a forced (or database) win kept */
        }
        a->loss = loss;
        a->eval_white = white ? mine : -mine;
        if (list->count > 1) {
            dm_move_to_text(a->best, sizeof a->best, &b, &list->moves[bi], DM_NOTATION_PDN,
                            DM_SQUARES_DEFAULT);
            /* forced (FMJD notation "*"): the move played does not lose and every other
             * one does (a forced loss found by the search) */
            int forced = score[pi] > -DM_SCORE_EGDB_MIN;
            for (int k = 0; k < list->count && forced; k++) {
                forced = k == pi || score[k] <= -DM_SCORE_EGDB_MIN;
            }
            const char *mark = "";
            if (forced) {
                mark = "*";
            } else if (loss >= 200) {
                mark = "??";
            } else if (loss >= 90) {
                mark = "?";
            } else if (loss >= 40) {
                mark = "?!";
            } else if (pi == bi && best - second >= 250) {
                mark = "!!";
            } else if (pi == bi && best - second >= 100) {
                mark = "!";
            } else if (pi != bi && loss <= 15 && played->ncapt == 0) {
                /* a sacrifice: the opponent must capture after it */
                dm_board after = b;
                dm_board_apply(&after, played);
                if (dm_movegen_legal(list, &after) > 0 && list->moves[0].ncapt > 0) {
                    mark = "!?";
                }
            }
            snprintf(a->mark, sizeof a->mark, "%s", mark);
        }
        /* winning position (FMJD notation "+"): the first move after which the search
         * finds a forced win for the mover (again after a win was let go) */
        int side = white ? 0 : 1;
        if (score[pi] >= DM_SCORE_EGDB_MIN) {
            if (!won[side]) {
                size_t len = strlen(a->mark);
                snprintf(a->mark + len, sizeof a->mark - len, "+");
            }
            won[side] = 1;
        } else {
            won[side] = 0;
        }
        st = dm_game_play(w, played);
    }
    free(score);
    free(list);
    dm_game_free(w);
    return st;
}

static char *dup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d) {
        memcpy(d, s, n);
    }
    return d;
}

dm_status cli_annotate_record(dm_pdn_game **out, const dm_game *g, const cli_annotation *a,
                              const dm_pdn_game_tags *tags)
{
    dm_pdn_game *rec = NULL;
    dm_status st = dm_pdn_from_game(&rec, g, tags);
    if (st != DM_OK) {
        return st;
    }
    int n = dm_game_ply(g);
    int ply = 0;
    for (int i = 0; i < rec->main.nnodes && ply < n; i++) {
        dm_pdn_node *node = &rec->main.nodes[i];
        if (node->kind != DM_PDN_NODE_MOVE) {
            continue;
        }
        const cli_annotation *x = &a[ply++];
        char text[200];
        int v = x->eval_white;
        if (v >= CAP || v <= -CAP) {
            snprintf(text, sizeof text, "%s", v > 0 ? "White wins" : "Black wins");
        } else {
            snprintf(text, sizeof text, "%+.2f", v / 100.0);
        }
        if (x->mark[0] == '?' && x->best[0]) {
            size_t len = strlen(text);
            snprintf(text + len, sizeof text - len, ", best %s", x->best);
        }
        if (x->mark[0]) {
            char *mk = dup(x->mark);
            if (!mk) {
                dm_pdn_game_free(rec);
                return DM_ENOMEM;
            }
            free(node->mark);
            node->mark = mk;
        }
        char *c = dup(text);
        char **after = c ? realloc(node->after, sizeof *after * (size_t)(node->nafter + 1)) : NULL;
        if (!after) {
            free(c);
            dm_pdn_game_free(rec);
            return DM_ENOMEM;
        }
        node->after = after;
        node->after[node->nafter++] = c;
    }
    *out = rec;
    return DM_OK;
}
