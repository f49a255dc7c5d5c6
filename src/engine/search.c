/* SPDX-License-Identifier: MIT
 * engine/search.c: iterative deepening, principal variation search, quiescence.
 *
 * Short names: t = this thread's state, b = t->board (the position at this ply),
 * ply = distance from the root, depth = remaining nominal depth.
 *
 * Steps of a node (numbered as in the code):
 *   1. draw rules (FMJD 6): repetition, 25-move rule, 16- and 5-move rules;
 *   2. mate-distance pruning: no score can beat a win at this ply;
 *   3. transposition table cut-off (not at PV nodes);
 *   4. move generation: no legal move = loss (FMJD: a blocked side loses);
 *   5. ordering: TT move, then (quiet positions) killers, promotions, history;
 *   6. PVS: full window for the first move, null window for the rest;
 *   7. late-move reductions for late quiet moves (measured: nodes to depth 15 from
 *      the start 12.4 M -> 0.96 M, bench at depth 10 9.3 M -> 1.5 M);
 *   8. killer/history update on a quiet cut-off, TT store;
 *   9. late-move pruning: at non-PV nodes of depth 1-3, quiet moves after the first
 *      2 + d + d^2 in order (not killers, not promotions) are not searched once one
 *      move has been (measured: +72 +- 37 Elo, 200 games at 20 k nodes a move, bench
 *      nodes 6.96 M -> 4.18 M; BENCHMARKS.md, strength ladder).
 * Not done: extending forced single replies (measured: depth 17 instead of 20 in
 * 10 s from the start; capture sequences make single replies very common). The
 * child's TT bucket is prefetched right after the move is made when the child will
 * probe it (bench -8% time).
 * Tried and left out: logarithmic reductions, 0.5 + ln(depth) ln(move) / 2 plies
 * (one less at PV nodes): -21 +- 33 Elo in 200 games at 20 k nodes a move, though
 * depth 20 from the start took 13.8 M nodes instead of 32.9 M. ProbCut (a null-window
 * search 4 plies shallower, 100 above beta, at non-PV nodes of depth >= 5): +34 +- 28
 * Elo over 400 games at 20 k nodes a move, but it blinds the search to shots
 * (test_engine: forced wins in 9 plies missed at depth 12; a 2-man shot found at
 * depth 11 in 19.8 k nodes instead of depth 6 in 1.8 k); kept to depth >= 7 and no
 * kings it passes them and scores -16 +- 39 (200 games). Searching the replies of a threatened side (the opponent
 * would capture next) at the first quiet quiescence node: +8% bench nodes, 31-29 in
 * a 60-game A/B match at 3 s + 0.05 s (scripts/selfplay --binary-b), not significant.
 * Quiescence: when the side to move must capture, every capture is searched (no
 * stand-pat, the capture is compulsory); otherwise the static evaluation is the
 * score, so a position with a capture pending is never evaluated statically. */
#include <stdlib.h>
#include <string.h>

#include <damier/egdb.h>
#include <damier/move.h>

#include "core/drawrule.h"
#include "core/layout.h"
#include "engine/eval.h"
#include "engine/search_int.h"
#include "util/bits.h"

#define INF 32000
#define ORDER_TT (1 << 30)
#define ORDER_KILLER (1 << 28)
#define ORDER_PROMO (1 << 27)
#define HISTORY_MAX (1 << 24)

/* ---- helpers ------------------------------------------------------------------ */

static inline int is_stopped(search_thread *t)
{
    dm_engine *e = t->e;
    if (!t->allow_stop) {
        return 0;
    }
    if (atomic_load_explicit(&e->stop, memory_order_relaxed)) {
        return 1;
    }
    return t->id != 0 && atomic_load_explicit(&e->helpers_stop, memory_order_relaxed);
}

static double elapsed(dm_engine *e)
{
    return tm_now() - atomic_load_explicit(&e->start, memory_order_relaxed);
}

static uint64_t total_nodes(const dm_engine *e)
{
    uint64_t n = 0;
    for (int i = 0; i < e->opts.threads; i++) {
        n += atomic_load_explicit(&e->threads[i]->nodes_shared, memory_order_relaxed);
    }
    return n;
}

/* Every 1024 nodes: publish the count; the main thread checks time and nodes. */
static void poll(search_thread *t)
{
    dm_engine *e = t->e;
    atomic_store_explicit(&t->nodes_shared, t->nodes, memory_order_relaxed);
    if (t->id != 0 || !t->allow_stop) {
        return;
    }
    if (e->lim.nodes && total_nodes(e) >= e->lim.nodes) {
        atomic_store(&e->stop, 1);
    }
    int pondering = e->lim.ponder && !atomic_load_explicit(&e->ponderhit, memory_order_relaxed);
    if (e->budget.timed && !pondering && elapsed(e) >= e->budget.hard) {
        atomic_store(&e->stop, 1);
    }
}

/* Game-end and database scores count plies from the root; the table keeps them
 * from the node (database scores sit below DM_SCORE_WIN_MIN, no evaluation reaches
 * DM_SCORE_EGDB_MIN). */
static inline int win_to_tt(int s, int ply)
{
    return s >= DM_SCORE_EGDB_MIN ? s + ply : s <= -DM_SCORE_EGDB_MIN ? s - ply : s;
}

static inline int win_from_tt(int s, int ply)
{
    return s >= DM_SCORE_EGDB_MIN ? s - ply : s <= -DM_SCORE_EGDB_MIN ? s + ply : s;
}

/* The draw rules the search applies: FMJD 6 (core/drawrule.h, the one
 * implementation of the counting rules, which dm_game applies too). */
static const dm_draw_rules fmjd_draw = DR_FMJD_INIT;

/* The material rule of FMJD 6 that applies to b (dr_kind: the 16-move rule against
 * a lone king with three pieces incl. a king, the 5-move rule with two or fewer),
 * DM_VDRAW_NONE when none; the counts are only taken when a side has one piece. */
static inline int material_kind(const dm_board *b)
{
    uint64_t w = b->pieces[DM_WHITE], bl = b->pieces[DM_BLACK];
    if (bb_has_many(w) && bb_has_many(bl)) {
        return DM_VDRAW_NONE;
    }
    int wk = bb_count(w & b->kings), bk = bb_count(bl & b->kings);
    return dr_kind(&fmjd_draw, bb_count(w) - wk, wk, bb_count(bl) - bk, bk);
}

/* The side to move has some ordinary move (used when it has no capture). */
static inline int has_quiet_move(const dm_board *b)
{
    int c = b->side;
    uint64_t own = b->pieces[c], empty = BB_ALL & ~(b->pieces[0] | b->pieces[1]);
    uint64_t men = own & ~b->kings, kings = own & b->kings;
    uint64_t fwd = c == DM_WHITE ? bb_step(empty, DIR_SE) | bb_step(empty, DIR_SW)
                                 : bb_step(empty, DIR_NE) | bb_step(empty, DIR_NW);
    if (men & fwd) {
        return 1;
    }
    if (kings) {
        uint64_t around = bb_step(empty, DIR_SE) | bb_step(empty, DIR_SW) | bb_step(empty, DIR_NE) |
                          bb_step(empty, DIR_NW);
        return (kings & around) != 0;
    }
    return 0;
}

static inline int same_move(const dm_move *a, const dm_move *b)
{
    return a->from == b->from && a->to == b->to && a->capt == b->capt;
}

/* Multi-PV: m is the root move of a line already found at this depth. */
static inline int excluded(const search_thread *t, const dm_move *m)
{
    for (int j = 0; j < t->root_excl; j++) {
        if (same_move(&t->excl[j], m)) {
            return 1;
        }
    }
    return 0;
}

/* Bring the best-scored of the unsearched entries [i, n) of the search order to
 * position i: a selection-sort step, cheap because cut-offs usually come early. */
static inline void pick(uint16_t *idx, int *score, int i, int n)
{
    int best = i;
    for (int j = i + 1; j < n; j++) {
        if (score[j] > score[best]) {
            best = j;
        }
    }
    if (best != i) {
        uint16_t m = idx[i];
        idx[i] = idx[best];
        idx[best] = m;
        int s = score[i];
        score[i] = score[best];
        score[best] = s;
    }
}

/* Push the position after m (already applied to t->board) at ply + 1. */
static inline void push_state(search_thread *t, const dm_move *m, int was_man, int ply)
{
    int irreversible = m->ncapt > 0 || was_man;
    t->rev[ply + 1] = irreversible ? 0 : t->rev[ply] + 1;
    int kind = material_kind(&t->board);
    t->egk[ply + 1] = kind;
    /* without a capture, a man's move changes kings only by its promotion */
    t->egc[ply + 1] = dr_material_next(&fmjd_draw, t->egk[ply], t->egc[ply], kind, m->ncapt > 0,
                                       was_man && m->kings != 0);
    t->keys[t->kbase + ply + 1] = t->board.hash;
}

/* The counting rule of FMJD 6 that draws the position at ply (dr_verdict: 25 moves
 * each of kings only; 16 or 5 moves against a lone king), DM_VDRAW_NONE if none. */
static inline int counting_draw(const search_thread *t, int ply)
{
    dr_state s = {.reversible = t->rev[ply], .kind = t->egk[ply], .material = t->egc[ply]};
    return dr_verdict(&fmjd_draw, &s);
}

/* Step 1: the position at ply is drawn by a rule of FMJD 6. */
static inline int is_rule_draw(const search_thread *t, int ply)
{
    int rev = t->rev[ply];
    if (counting_draw(t, ply) != DM_VDRAW_NONE) {
        return 1;
    }
    int cur = t->kbase + ply;
    uint64_t key = t->keys[cur];
    for (int i = cur - 4; i >= cur - rev && i >= 0; i -= 2) {
        if (t->keys[i] == key) {
            return 1; /* a repetition is scored as the draw it leads to */
        }
    }
    return 0;
}

/* Endgame database: the exact score of b at ply when the database decides it (no
 * capture pending, few enough pieces), with the 16- and 5-move rules on top: a win
 * that needs more plies than the rule leaves is a draw. Returns 0 when it does not. */
static inline int egdb_score(search_thread *t, const dm_board *b, int ply, int *score)
{
    const dm_engine *e = t->e;
    if (bb_count(b->pieces[0] | b->pieces[1]) > e->egdb_pieces) {
        return 0;
    }
    int d;
    dm_egdb_value v = dm_egdb_lookup(e->egdb, b, &d);
    if (v == DM_EGDB_UNKNOWN) {
        return 0;
    }
    int rule = dr_material_limit(&fmjd_draw, material_kind(b));
    if (v == DM_EGDB_DRAW || (rule && t->egc[ply] + d > rule)) {
        *score = 0;
    } else {
        /* counted from the root, as game ends are */
        *score = v == DM_EGDB_WIN ? DM_SCORE_EGDB - ply - d : -(DM_SCORE_EGDB - ply - d);
    }
    return 1;
}

/* ---- quiescence --------------------------------------------------------------- */

static int qsearch(search_thread *t, int alpha, int beta, int ply)
{
    dm_board *b = &t->board;
    if ((++t->nodes & 1023) == 0) {
        poll(t);
    }
    if (ply > t->seldepth) {
        t->seldepth = ply;
    }
    if (!dm_movegen_has_capture(b)) {
        if (!has_quiet_move(b)) {
            return -DM_SCORE_WIN + ply;
        }
        int s;
        if (t->e->egdb && egdb_score(t, b, ply, &s)) {
            return s;
        }
        return eval_board(t->e->eval, b);
    }
    if (ply >= MAX_PLY - 1) {
        return eval_board(t->e->eval, b);
    }
    dm_movelist *list = &t->lists[ply];
    int n = dm_movegen_legal(list, b);
    int best = -INF;
    t->egc[ply + 1] = 0; /* every move here captures: the 16/5-move count restarts */
    t->egk[ply + 1] = DM_VDRAW_NONE;
    for (int i = 0; i < n; i++) {
        const dm_move *m = &list->moves[i];
        dm_board_apply(b, m);
        int s = -qsearch(t, -beta, -alpha, ply + 1);
        dm_board_undo(b, m);
        if (t->aborted || is_stopped(t)) {
            t->aborted = 1;
            return 0;
        }
        if (s > best) {
            best = s;
            if (s > alpha) {
                alpha = s;
                if (s >= beta) {
                    break;
                }
            }
        }
    }
    return best;
}

/* ---- main search -------------------------------------------------------------- */

static void order_moves(search_thread *t, int ply, int tt_move, int capture)
{
    dm_movelist *list = &t->lists[ply];
    int *score = t->order[ply];
    uint16_t *idx = t->idx[ply];
    const dm_board *b = &t->board;
    int c = b->side;
    uint64_t promo = c == DM_WHITE ? (uint64_t)0x1F : (uint64_t)0x1F << 49;
    for (int i = 0; i < list->count; i++) {
        const dm_move *m = &list->moves[i];
        int s;
        if (capture) {
            /* Equal numbers of pieces (majority rule): prefer taking kings, then
             * promoting. */
            s = bb_count(m->capt & b->kings) * 64 + ((m->kings & promo) != 0) * 16;
        } else if (same_move(m, &t->killer[ply][0])) {
            s = ORDER_KILLER;
        } else if (same_move(m, &t->killer[ply][1])) {
            s = ORDER_KILLER - 1;
        } else if (!((b->kings >> sq_to_bit(m->from)) & 1) && (m->kings & promo)) {
            s = ORDER_PROMO;
        } else {
            s = t->history[c][m->from][m->to];
        }
        score[i] = s;
        idx[i] = (uint16_t)i;
    }
    if (tt_move >= 0 && tt_move < list->count) {
        score[tt_move] = ORDER_TT;
    }
}

static void update_quiet(search_thread *t, int ply, const dm_move *m, int depth, int tried)
{
    if (!same_move(m, &t->killer[ply][0])) {
        t->killer[ply][1] = t->killer[ply][0];
        t->killer[ply][0] = *m;
    }
    int c = t->board.side;
    int bonus = depth * depth;
    int *h = &t->history[c][m->from][m->to];
    *h += bonus;
    if (*h > HISTORY_MAX) {
        for (int f = 0; f < 51; f++) {
            for (int to = 0; to < 51; to++) {
                t->history[c][f][to] /= 2;
            }
        }
    }
    /* The quiet moves tried before it failed: a small malus. */
    const dm_movelist *list = &t->lists[ply];
    for (int i = 0; i < tried; i++) {
        const dm_move *q = &list->moves[t->idx[ply][i]];
        if (q->ncapt) {
            continue;
        }
        int *hq = &t->history[c][q->from][q->to];
        *hq -= bonus / 2;
        if (*hq < -HISTORY_MAX) {
            *hq = -HISTORY_MAX;
        }
    }
}

static int search(search_thread *t, int alpha, int beta, int depth, int ply)
{
    dm_board *b = &t->board;
    const int pv_node = beta - alpha > 1;
    t->pv_len[ply] = 0;

    if (depth <= 0 || ply >= MAX_PLY - 1) {
        return qsearch(t, alpha, beta, ply);
    }
    if ((++t->nodes & 1023) == 0) {
        poll(t);
    }
    if (is_stopped(t)) {
        t->aborted = 1;
        return 0;
    }
    if (ply > t->seldepth) {
        t->seldepth = ply;
    }

    if (ply > 0) {
        /* Step 1 */
        if (is_rule_draw(t, ply)) {
            return 0;
        }
        /* Step 2 */
        int lo = -DM_SCORE_WIN + ply, hi = DM_SCORE_WIN - ply - 1;
        if (alpha < lo) {
            alpha = lo;
        }
        if (beta > hi) {
            beta = hi;
        }
        if (alpha >= beta) {
            return alpha;
        }
        /* Endgame database: an exact score, no search below. */
        int s;
        if (t->e->egdb && egdb_score(t, b, ply, &s)) {
            return s;
        }
    }

    /* Step 3. Depth-1 nodes, the most numerous, neither probe nor store: a probe is
     * a cache miss that costs more than the search it could save (measured: bench
     * nodes +8.5%, CPU time -34%; start position depth 20 in 4.1 s of CPU instead of
     * 6.3 s). */
    uint64_t key = b->hash;
    tt_hit hit;
    int tt_move = -1;
    if (depth >= 2 && tt_probe(&t->e->tt, key, &hit)) {
        tt_move = hit.move;
        int s = win_from_tt(hit.score, ply);
        if (!pv_node && ply > 0 && hit.depth >= depth &&
            (hit.bound == TT_EXACT || (hit.bound == TT_LOWER && s >= beta) ||
             (hit.bound == TT_UPPER && s <= alpha))) {
            return s;
        }
    }

    /* Step 4 */
    dm_movelist *list = &t->lists[ply];
    int n = dm_movegen_legal(list, b);
    if (n == 0) {
        return -DM_SCORE_WIN + ply;
    }
    int capture = list->moves[0].ncapt > 0;

    /* Step 5 */
    order_moves(t, ply, tt_move, capture);
    int *score = t->order[ply];
    uint16_t *idx = t->idx[ply];

    int best = -INF, best_index = -1, old_alpha = alpha;
    for (int i = 0; i < n; i++) {
        pick(idx, score, i, n);
        const dm_move *m = &list->moves[idx[i]];
        if (ply == 0 && t->root_excl > 0 && excluded(t, m)) {
            continue; /* multi-PV: the root move of a line found already */
        }
        int was_man = !((b->kings >> sq_to_bit(m->from)) & 1);
        int is_quiet = m->ncapt == 0 && !(was_man && m->kings);
        /* Step 9. Late-move pruning: at shallow non-PV nodes the late quiet moves (below the
         * killers) are not searched once a move has been. */
        if (!pv_node && depth <= 3 && is_quiet && i >= 2 + depth * depth + depth &&
            score[i] < ORDER_PROMO && best > -DM_SCORE_WIN_MIN) {
            continue;
        }
        dm_board_apply(b, m);
        push_state(t, m, was_man, ply);
        if (depth >= 3) {
            tt_prefetch(&t->e->tt, b->hash);
        }
        int s;
        if (best_index < 0) {
            s = -search(t, -beta, -alpha, depth - 1, ply + 1);
        } else {
            /* Step 7 (LMR): quiet, late, not a killer, with depth to spare. */
            int r = 0;
            if (depth >= 3 && is_quiet && i >= 3 && score[i] < ORDER_PROMO) {
                r = 1 + (i >= 8 && depth >= 6) + (!pv_node && i >= 16 && depth >= 8);
            }
            /* Step 6 */
            s = -search(t, -alpha - 1, -alpha, depth - 1 - r, ply + 1);
            if (s > alpha && r > 0) {
                s = -search(t, -alpha - 1, -alpha, depth - 1, ply + 1);
            }
            if (s > alpha && s < beta) {
                s = -search(t, -beta, -alpha, depth - 1, ply + 1);
            }
        }
        dm_board_undo(b, m);
        if (t->aborted) {
            return 0;
        }
        if (s > best) {
            best = s;
            best_index = idx[i];
            if (s > alpha) {
                alpha = s;
                /* PV: this move followed by the child's PV. */
                t->pv[ply][0] = *m;
                int len = t->pv_len[ply + 1];
                if (len > DM_ENGINE_MAX_PV - 1) {
                    len = DM_ENGINE_MAX_PV - 1;
                }
                memcpy(&t->pv[ply][1], t->pv[ply + 1], (size_t)len * sizeof(dm_move));
                t->pv_len[ply] = len + 1;
                if (s >= beta) {
                    /* Step 8 */
                    if (is_quiet) {
                        update_quiet(t, ply, m, depth, i);
                    }
                    break;
                }
            }
        }
    }

    int bound = best >= beta ? TT_LOWER : best > old_alpha ? TT_EXACT : TT_UPPER;
    /* The move is stored as its index in generator order (what a later probe of this
     * position sees); a fail-low node has no trustworthy best move. */
    if (depth >= 2) {
        tt_store(&t->e->tt, key, win_to_tt(best, ply), depth, bound,
                 bound == TT_UPPER ? -1 : best_index);
    }
    return best;
}

/* ---- iterative deepening ------------------------------------------------------ */

/* One report: line (1-based) of count, with its score and PV. */
static void report_line(search_thread *t, dm_info_fn on_info, void *payload, int line, int count,
                        int score, const dm_move *pv, int pv_len)
{
    dm_engine *e = t->e;
    dm_info info;
    memset(&info, 0, sizeof info);
    info.depth = t->completed_depth;
    info.seldepth = t->seldepth;
    info.score = score;
    atomic_store_explicit(&t->nodes_shared, t->nodes, memory_order_relaxed);
    info.nodes = total_nodes(e);
    info.time = elapsed(e);
    info.nps = info.time > 0 ? (double)info.nodes / info.time : 0;
    info.pv_count = pv_len;
    memcpy(info.pv, pv, (size_t)pv_len * sizeof(dm_move));
    info.multipv = line;
    info.multipv_count = count;
    on_info(&info, payload);
}

static void report(search_thread *t, dm_info_fn on_info, void *payload)
{
    if (!on_info) {
        return;
    }
    if (t->mpv_count <= 1) {
        report_line(t, on_info, payload, 1, 1, t->best_score, t->best_pv, t->best_pv_len);
        return;
    }
    for (int k = 0; k < t->mpv_count; k++) {
        report_line(t, on_info, payload, k + 1, t->mpv_count, t->mpv[k].score, t->mpv[k].pv,
                    t->mpv[k].pv_len);
    }
}

typedef struct id_args {
    dm_info_fn on_info;
    void *payload;
} id_args;

/* The root searched to d plies with an aspiration window around prev_score from
 * depth 5 on (widened on a fail); t->board is the root again afterwards. */
static int search_line(search_thread *t, const dm_board *root, int d, int depth, int prev_score)
{
    int s;
    int delta = 40;
    int alpha = -INF, beta = INF;
    if (depth >= 5 && prev_score > -DM_SCORE_WIN_MIN && prev_score < DM_SCORE_WIN_MIN) {
        alpha = prev_score - delta;
        beta = prev_score + delta;
    }
    for (;;) {
        t->board = *root;
        s = search(t, alpha, beta, d, 0);
        if (t->aborted) {
            break;
        }
        if (s <= alpha && alpha > -INF) {
            alpha = alpha - delta < -INF ? -INF : alpha - delta;
            delta *= 2;
        } else if (s >= beta && beta < INF) {
            beta = beta + delta > INF ? INF : beta + delta;
            delta *= 2;
        } else {
            break;
        }
        if (delta > 1000) {
            alpha = -INF;
            beta = INF;
        }
    }
    t->board = *root;
    return s;
}

static void iterate(search_thread *t, const id_args *args)
{
    dm_engine *e = t->e;
    const dm_board root = t->board;
    int max_depth = e->lim.depth > 0 ? e->lim.depth : DM_ENGINE_MAX_DEPTH;
    if (max_depth > DM_ENGINE_MAX_DEPTH) {
        max_depth = DM_ENGINE_MAX_DEPTH;
    }
    double instability = 0;
    int prev_score = 0;
    for (int depth = 1; depth <= max_depth; depth++) {
        /* Lazy SMP: odd helpers search one ply deeper, so threads spread out. */
        int d = depth + (t->id & 1);
        if (d > DM_ENGINE_MAX_DEPTH) {
            d = DM_ENGINE_MAX_DEPTH;
        }
        t->allow_stop = depth > 1 || t->id != 0;
        t->aborted = 0;
        t->seldepth = 0;
        t->root_excl = 0;
        int s = search_line(t, &root, d, depth, prev_score);
        if (t->aborted) {
            break;
        }
        if (t->pv_len[0] > 0) {
            if (t->best_pv_len > 0 && !same_move(&t->pv[0][0], &t->best_pv[0])) {
                instability += 1.0;
            }
            t->best_pv_len = t->pv_len[0];
            memcpy(t->best_pv, t->pv[0], (size_t)t->pv_len[0] * sizeof(dm_move));
        }
        t->best_score = s;
        prev_score = s;
        t->completed_depth = d;
        if (t->id != 0) {
            continue;
        }
        /* Multi-PV: the other lines, each the best of the root moves not yet in a line
         * (aspiration around that line's score at the last depth). */
        int lines = e->multipv;
        if (lines > 1) {
            int prev[DM_ENGINE_MAX_MULTIPV];
            for (int k = 0; k < lines; k++) {
                prev[k] = k < t->mpv_count ? t->mpv[k].score : -INF;
            }
            t->mpv[0].score = s;
            t->mpv[0].pv_len = t->best_pv_len;
            memcpy(t->mpv[0].pv, t->best_pv, (size_t)t->best_pv_len * sizeof(dm_move));
            int got = 1;
            for (int k = 1; k < lines && t->best_pv_len > 0; k++) {
                t->excl[k - 1] = t->mpv[k - 1].pv[0];
                t->root_excl = k;
                int sk = search_line(t, &root, d, depth, prev[k] > -INF ? prev[k] : s);
                if (t->aborted || t->pv_len[0] == 0) {
                    break;
                }
                t->mpv[k].score = sk;
                t->mpv[k].pv_len = t->pv_len[0];
                memcpy(t->mpv[k].pv, t->pv[0], (size_t)t->pv_len[0] * sizeof(dm_move));
                got++;
            }
            t->root_excl = 0;
            /* lines in order of score (stable: a tie keeps the order found) */
            for (int k = 1; k < got; k++) {
                for (int j = k; j > 0 && t->mpv[j].score > t->mpv[j - 1].score; j--) {
                    __typeof__(t->mpv[0]) tmp = t->mpv[j];
                    t->mpv[j] = t->mpv[j - 1];
                    t->mpv[j - 1] = tmp;
                }
            }
            t->mpv_count = got;
            t->best_score = s = t->mpv[0].score;
            t->best_pv_len = t->mpv[0].pv_len;
            memcpy(t->best_pv, t->mpv[0].pv, (size_t)t->best_pv_len * sizeof(dm_move));
            prev_score = s;
            report(t, args->on_info, args->payload);
            if (t->aborted) {
                break; /* stopped during a later line: this depth's lines so far stand */
            }
        } else {
            report(t, args->on_info, args->payload);
        }
        instability *= 0.5;
        /* Stop conditions checked between iterations (main thread). */
        if (e->root_count == 1 && !e->lim.analyse && !e->lim.infinite && !e->lim.ponder) {
            break;
        }
        /* A forced win or loss shorter than the depth searched is settled: deeper
         * iterations only repeat it (analysis went on to depth 120 after finding
         * one). Infinite and ponder searches wait for their stop; an analysis to
         * a depth asked for goes to that depth (bench signature unchanged). */
        if (((s >= DM_SCORE_WIN_MIN && DM_SCORE_WIN - s <= depth) ||
             (s <= -DM_SCORE_WIN_MIN && DM_SCORE_WIN + s <= depth)) &&
            !e->lim.infinite && !e->lim.ponder && !(e->lim.analyse && e->lim.depth > 0)) {
            break;
        }
        int pondering = e->lim.ponder && !atomic_load_explicit(&e->ponderhit, memory_order_relaxed);
        /* Analysis uses its whole time (the hard limit stops it); play stops early
         * when the next iteration would likely not finish. */
        if (!pondering && !e->lim.analyse && tm_should_stop(&e->budget, elapsed(e), instability)) {
            break;
        }
        if (atomic_load(&e->stop)) {
            break;
        }
    }
}

void *search_thread_main(void *arg)
{
    search_thread *t = arg;
    static const id_args none = {NULL, NULL};
    iterate(t, &none);
    return NULL;
}

/* Prepare thread t for a search of in. */
static void thread_setup(search_thread *t, const dm_search_input *in)
{
    t->board = in->root;
    t->nodes = 0;
    atomic_store_explicit(&t->nodes_shared, 0, memory_order_relaxed);
    t->seldepth = 0;
    t->aborted = 0;
    t->completed_depth = 0;
    t->best_pv_len = 0;
    t->best_score = 0;
    t->root_excl = 0;
    t->mpv_count = 0;
    int h = in->history && in->history_count > 0 ? in->history_count : 0;
    if (h > DM_ENGINE_MAX_HISTORY) {
        h = DM_ENGINE_MAX_HISTORY;
    }
    if (h > 0) {
        memcpy(t->keys, in->history + (in->history_count - h), (size_t)h * sizeof(uint64_t));
    }
    t->kbase = h;
    t->keys[h] = in->root.hash;
    t->rev[0] = in->reversible_plies > 0 ? in->reversible_plies : 0;
    t->egk[0] = material_kind(&in->root);
    t->egc[0] = t->egk[0] == DM_VDRAW_NONE ? -1 : in->endgame_plies > 0 ? in->endgame_plies : 0;
    memset(t->killer, 0, sizeof t->killer);
    memset(t->history, 0, sizeof t->history);
}

int dm_search_draw_walk(const dm_search_input *in, const dm_move *moves, int n, int *verdict)
{
    search_thread *t = calloc(1, sizeof *t);
    if (t == NULL) {
        return -1;
    }
    if (n > MAX_PLY - 1) {
        n = MAX_PLY - 1;
    }
    t->board = in->root;
    t->kbase = 0;
    t->keys[0] = in->root.hash;
    t->rev[0] = in->reversible_plies > 0 ? in->reversible_plies : 0;
    t->egk[0] = material_kind(&in->root);
    t->egc[0] = t->egk[0] == DM_VDRAW_NONE ? -1 : in->endgame_plies > 0 ? in->endgame_plies : 0;
    verdict[0] = counting_draw(t, 0);
    for (int i = 0; i < n; i++) {
        const dm_move *m = &moves[i];
        int was_man = !((t->board.kings >> sq_to_bit(m->from)) & 1);
        dm_board_apply(&t->board, m);
        push_state(t, m, was_man, i);
        verdict[i + 1] = counting_draw(t, i + 1);
    }
    free(t);
    return n;
}

dm_status dm_engine_search(dm_result *out, dm_engine *e, const dm_search_input *in,
                           const dm_limits *lim, dm_info_fn on_info, void *payload)
{
    if (!out || !e || !in || !lim) {
        return DM_EINVAL;
    }
    memset(out, 0, sizeof *out);
    if (dm_board_validate(&in->root, NULL) != DM_OK) {
        return DM_EINVAL;
    }
    atomic_store(&e->stop, 0);
    atomic_store(&e->helpers_stop, 0);
    atomic_store(&e->ponderhit, 0);
    atomic_store(&e->searching, 1);
    atomic_store(&e->start, tm_now());
    e->lim = *lim;
    tm_plan(&e->budget, lim);
    tt_new_search(&e->tt);

    dm_movelist root_moves;
    e->root_count = dm_movegen_legal(&root_moves, &in->root);
    e->multipv = lim->multipv > 1 ? lim->multipv : 1;
    if (e->multipv > DM_ENGINE_MAX_MULTIPV) {
        e->multipv = DM_ENGINE_MAX_MULTIPV;
    }
    if (e->multipv > e->root_count) {
        e->multipv = e->root_count;
    }
    if (e->root_count == 0) {
        atomic_store(&e->searching, 0);
        out->score = -DM_SCORE_WIN;
        return DM_OK;
    }

    int nthreads = e->opts.threads;
    for (int i = 0; i < nthreads; i++) {
        thread_setup(e->threads[i], in);
    }
    /* Helpers run only when there is something to share; a failed thread start
     * just means fewer helpers. */
    int started[DM_ENGINE_MAX_THREADS] = {0};
    for (int i = 1; i < nthreads; i++) {
        started[i] =
            pthread_create(&e->threads[i]->handle, NULL, search_thread_main, e->threads[i]) == 0;
    }
    search_thread *t = e->threads[0];
    id_args args = {on_info, payload};
    iterate(t, &args);
    atomic_store(&e->helpers_stop, 1);
    for (int i = 1; i < nthreads; i++) {
        if (started[i]) {
            pthread_join(e->threads[i]->handle, NULL);
        }
    }

    /* A deeper completed helper result is taken when its depth beats the main one. */
    search_thread *best = t;
    for (int i = 1; i < nthreads; i++) {
        search_thread *h = e->threads[i];
        if (e->multipv == 1 && h->completed_depth > best->completed_depth && h->best_pv_len > 0 &&
            h->best_score >= best->best_score - 20) {
            best = h;
        }
    }
    atomic_store_explicit(&t->nodes_shared, t->nodes, memory_order_relaxed);
    out->nodes = total_nodes(e);
    out->time = elapsed(e);
    out->depth = best->completed_depth;
    out->score = best->best_score;
    if (best->best_pv_len > 0) {
        out->has_move = 1;
        out->best = best->best_pv[0];
        if (best->best_pv_len > 1) {
            out->has_ponder = 1;
            out->ponder = best->best_pv[1];
        }
    } else {
        out->has_move = 1; /* cannot happen (depth 1 always completes); be safe */
        out->best = root_moves.moves[0];
    }
    atomic_store(&e->searching, 0);
    return DM_OK;
}

void dm_engine_stop(dm_engine *e)
{
    if (e) {
        atomic_store(&e->stop, 1);
    }
}

void dm_engine_ponderhit(dm_engine *e)
{
    if (e) {
        atomic_store(&e->start, tm_now());
        atomic_store(&e->ponderhit, 1);
    }
}
