/* SPDX-License-Identifier: MIT
 * engine/search_impl.h: the search, written once for every variant: iterative
 * deepening, principal variation search, quiescence, lazy SMP, multi-PV. Included
 * once per board geometry and rule set (search8.c, search10.c, search12.c) after
 * core/gen_geom.h and, for the variant searches, a GEN_RECORD 0 instantiation of
 * core/gen_impl.h, with:
 *   SI_RS          the instantiation's suffix (intl_, fmjd_, rus_, eng_, dyn_): names
 *                  are srch<N><SI_RS>x; for a variant search also the generator's
 *                  GEN_RS, whose functions the search calls
 *   SI_RULES_CONST the generator rules as a compile-time constant (else e->sr.gen)
 *   SI_INTL        1: international draughts on dm_board10 (10x10 only): Zobrist keys
 *                  kept by dm_board10_apply, the public generator, the trained
 *                  evaluation (eval.c) and the endgame database; 0: a variant, with
 *                  dm_board_hash's keys and the variant evaluation
 *   SI_THREAD      the thread type (search_thread, search_thread12) and
 *   SI_THREADS(e)  the engine's array of them.
 *
 * Short names: t = this thread's state, b = t->board (the position at this ply),
 * ply = distance from the root, depth = remaining nominal depth.
 *
 * Steps of a node (numbered as in the code):
 *   1. draw rules: repetition and the variant's counting rules (FMJD 6: 25-move rule,
 *      16- and 5-move rules; core/drawrule.h, the code dm_game uses);
 *   2. mate-distance pruning: no score can beat a win at this ply;
 *   3. transposition table cut-off (not at PV nodes);
 *   4. move generation: no legal move = loss (FMJD: a blocked side loses; antidraughts:
 *      a win); Frisian's king-move limit (FR 17) drops the bound king's quiet moves;
 *   5. ordering: TT move, then (quiet positions) killers, promotions, history;
 *   6. PVS: full window for the first move, null window for the rest;
 *   7. late-move reductions for late quiet moves (measured: nodes to depth 15 from
 *      the start 12.4 M -> 0.96 M, bench at depth 10 9.3 M -> 1.5 M); since
 *      2026-12-06 Scan's schedule: one ply from the 2nd move at non-PV nodes (the 4th
 *      at PV nodes), two from the 7th at non-PV nodes (+31 +- 35 at 20 k nodes,
 *      +47 +- 34 at 50 k nodes; BENCHMARKS.md, strength ladder);
 *   8. killer/history update on a quiet cut-off, TT store;
 *   9. late-move pruning: at non-PV nodes of depth 1-3, quiet moves after the first
 *      2 + d + d^2 in order (not killers, not promotions) are not searched once one
 *      move has been (measured: +72 +- 37 Elo, 200 games at 20 k nodes a move, bench
 *      nodes 6.96 M -> 4.18 M; BENCHMARKS.md, strength ladder).
 * Steps of the root (iterate, search_line):
 *  10. aspiration window around the last score from depth 5 (40, doubled on a fail);
 *  11. a stopped iteration's new best root move is kept when it beat the last
 *      iteration's best in the first window (BENCHMARKS.md, strength ladder);
 *  12. a search with a fixed time a move uses all of it; a clock's budget stops
 *      before an iteration that would likely not finish (engine/timeman.c).
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
 * kings it passes them and scores -16 +- 39 (200 games). Searching the replies of a
 * threatened side (the opponent would capture next) at the first quiet quiescence
 * node: +8% bench nodes, 31-29 in a 60-game A/B match at 3 s + 0.05 s
 * (scripts/selfplay --binary-b), not significant.
 * Quiescence: when the side to move must capture, every capture is searched (no
 * stand-pat, the capture is compulsory); otherwise the static evaluation is the
 * score, so a position with a capture pending is never evaluated statically. */
#ifndef GEN_N
#error "include gen_geom.h (and gen_impl.h for a variant search) first"
#endif

#include <stdlib.h>
#include <string.h>

#define S(x) GEN_CAT(GEN_CAT(GEN_CAT(srch, GEN_N), SI_RS), x)
#ifdef SI_RULES_CONST
#define SI_R(e) SI_RULES_CONST
#else
#define SI_R(e) ((e)->sr.gen)
#endif

#if SI_INTL
#define SI_LEGAL(list, b) dm_movegen10_legal((list), (b))
#define SI_HAS_CAPTURE(b) dm_movegen10_has_capture(b)
#else
#define SI_GEN(x) GEN_CAT(GEN_CAT(GEN_PREFIX, SI_RS), x)
#define SI_LEGAL(list, b) SI_GEN(legal)((list), (b), SI_R(t->e))
#define SI_HAS_CAPTURE(b) SI_GEN(has_capture)((b), SI_R(t->e))
#endif

/* The draw rules: SI_DRAW_CONST (a pointer to a constant dm_draw_rules) folds them at
 * compile time, as dm_engine_search's FMJD 6; else the search's e->sr. */
#ifdef SI_DRAW_CONST
#define SI_DRAW(t) (SI_DRAW_CONST)
#define SI_COUNTING(t) 1
#define SI_MATERIAL(t) 1
#define SI_VERDICT(t, s) dr_verdict(SI_DRAW_CONST, (s))
#else
#define SI_DRAW(t) ((t)->e->sr.draw)
#define SI_COUNTING(t) ((t)->e->sr.counting)
#define SI_MATERIAL(t) ((t)->e->sr.material)
#define SI_VERDICT(t, s) dr_verdict_limits(&(t)->e->sr.limits, (s))
#endif

#ifndef SI_ONCE_
#define SI_ONCE_
#define INF 32000
#define ORDER_TT (1 << 30)
#define ORDER_KILLER (1 << 28)
#define ORDER_PROMO (1 << 27)
#define HISTORY_MAX (1 << 24)
#endif

typedef SI_THREAD S(thr);

/* ---- helpers ------------------------------------------------------------------ */

GEN_ALWAYS int S(is_stopped)(S(thr) * t)
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

static uint64_t S(total_nodes)(const dm_engine *e)
{
    uint64_t n = 0;
    for (int i = 0; i < e->opts.threads; i++) {
        n += atomic_load_explicit(&SI_THREADS(e)[i]->nodes_shared, memory_order_relaxed);
    }
    return n;
}

/* Every 1024 nodes: publish the count; the main thread checks time and nodes. */
static void S(poll)(S(thr) * t)
{
    dm_engine *e = t->e;
    atomic_store_explicit(&t->nodes_shared, t->nodes, memory_order_relaxed);
    if (t->id != 0 || !t->allow_stop) {
        return;
    }
    if (e->lim.nodes && S(total_nodes)(e) >= e->lim.nodes) {
        atomic_store(&e->stop, 1);
    }
    int pondering = e->lim.ponder && !atomic_load_explicit(&e->ponderhit, memory_order_relaxed);
    if (e->budget.timed && !pondering && search_elapsed(e) >= e->budget.hard) {
        atomic_store(&e->stop, 1);
    }
}

/* The material rule of the draw rules that applies to b (dr_kind: FMJD 6's 16-move
 * rule against a lone king with three pieces incl. a king, the 5-move rule with two
 * or fewer, ...), DM_DRAW_NONE when none; the counts are only taken when a side has
 * one piece. */
GEN_ALWAYS int S(material_kind)(const dm_draw_rules *d, const GEN_POS *b)
{
    GEN_BB w = b->pieces[DM_WHITE], bl = b->pieces[DM_BLACK];
    if ((w & (w - 1)) && (bl & (bl - 1))) {
        return DM_DRAW_NONE;
    }
    int wk = P(count)(w & b->kings), bk = P(count)(bl & b->kings);
    return dr_kind(d, P(count)(w) - wk, wk, P(count)(bl) - bk, bk);
}

/* The side to move has some ordinary move (used when it has no capture): the
 * geometry's (gen_geom.h, gen_geom_full.h). */
GEN_ALWAYS int S(has_quiet_move)(const GEN_POS *b)
{
    return P(has_quiet_move)(b);
}

GEN_ALWAYS int S(same_move)(const GEN_MOVE *a, const GEN_MOVE *b)
{
    return a->from == b->from && a->to == b->to && a->capt == b->capt;
}

/* Multi-PV: m is the root move of a line already found at this depth. */
GEN_ALWAYS int S(excluded)(const S(thr) * t, const GEN_MOVE *m)
{
    for (int j = 0; j < t->root_excl; j++) {
        if (S(same_move)(&t->excl[j], m)) {
            return 1;
        }
    }
    return 0;
}

/* Bring the best-scored of the unsearched entries [i, n) of the search order to
 * position i: a selection-sort step, cheap because cut-offs usually come early. */
GEN_ALWAYS void S(pick)(uint16_t *idx, int *score, int i, int n)
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

/* Score of a position whose side to move has no legal move (dm_variant_result): a
 * loss, in antidraughts a win. */
GEN_ALWAYS int S(terminal)(const S(thr) * t, int ply)
{
#if SI_INTL
    (void)t;
    return -DM_SCORE_WIN + ply;
#else
    return t->e->sr.reversed ? DM_SCORE_WIN - ply : -DM_SCORE_WIN + ply;
#endif
}

#if !SI_INTL
/* dm_piece on bit b of pos (DM_EMPTY when none). */
GEN_ALWAYS int S(piece_at)(const GEN_POS *pos, int b)
{
    GEN_BB m = P(bit)(b);
    int k = (pos->kings & m) != 0;
    if (pos->pieces[DM_WHITE] & m) {
        return k ? DM_WHITE_KING : DM_WHITE_MAN;
    }
    if (pos->pieces[DM_BLACK] & m) {
        return k ? DM_BLACK_KING : DM_BLACK_MAN;
    }
    return DM_EMPTY;
}

/* The splitmix64 finaliser of dm_board_hash (core/vboard.c). */
GEN_ALWAYS uint64_t S(mix)(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

/* dm_board_hash's term of piece p on bit b (0 for an empty square). */
GEN_ALWAYS uint64_t S(term)(int p, int b)
{
    return p ? S(mix)(((uint64_t)p << 8) | (uint64_t)P(bit_to_sq)(b)) : 0;
}

/* The key of child = parent after m (parent's key pk): the terms of the squares m
 * changes, and the side. Equal to dm_board_hash of the child. */
GEN_ALWAYS uint64_t S(child_key)(uint64_t pk, const GEN_POS *parent, const GEN_POS *child,
                                 const GEN_MOVE *m)
{
    uint64_t h = pk ^ 0xA5A5F00DCAFEBEEFull;
    for (GEN_BB x = m->own | m->capt | m->kings; x;) {
        int b = P(pop)(&x);
        h ^= S(term)(S(piece_at)(parent, b), b) ^ S(term)(S(piece_at)(child, b), b);
    }
    return h;
}

/* Squares of row r (0 = squares 1..h, White's far side). */
GEN_ALWAYS GEN_BB S(row)(int r)
{
    return P(row_mask)(r);
}

/* The variant evaluation (dm_engine_evaluate), hundredths of a man for the
 * side to move: material; men: 3 per row advanced, 6 on their own back row; kings: 2
 * per step nearer the centre; breakthrough: 2 per man times its rows advanced
 * squared; antidraughts: reversed material and piece count. */
static int S(evaluate)(const search_rules *sr, const GEN_POS *pos)
{
    int material[2], positional[2] = {0, 0}, pieces[2];
    for (int c = 0; c < 2; c++) {
        GEN_BB men = pos->pieces[c] & ~pos->kings, kings = pos->pieces[c] & pos->kings;
        int nm = P(count)(men), nk = P(count)(kings);
        pieces[c] = nm + nk;
        material[c] = 100 * nm + sr->king_value * nk;
        if (sr->reversed) {
            continue;
        }
        for (int r = 0; r < GEN_N; r++) {
            int adv = c == DM_WHITE ? GEN_N - 1 - r : r;
            int k = P(count)(men & S(row)(r));
            positional[c] += 3 * adv * k + (adv == 0 ? 6 * k : 0) + sr->race * adv * adv * k;
        }
        for (GEN_BB x = kings; x;) {
            int sq = P(bit_to_sq)(P(pop)(&x));
            int r, col;
            P(sq_rc)(sq, &r, &col);
            int dr = 2 * r - (GEN_N - 1), dc = 2 * col - (GEN_N - 1);
            int dist = ((dr < 0 ? -dr : dr) + (dc < 0 ? -dc : dc)) / 2;
            positional[c] += 2 * (GEN_N - 1 - dist);
        }
    }
    int us = pos->side, them = us ^ 1;
    if (sr->reversed) {
        return (material[them] - material[us]) + 2 * (pieces[them] - pieces[us]);
    }
    return (material[us] - material[them]) + (positional[us] - positional[them]);
}

/* FR 17 at ply (dm_gen_blocked_king on bitboards): the square of the king of the
 * side to move that may not make another quiet move, or 0. */
GEN_ALWAYS int S(blocked)(const S(thr) * t, const GEN_POS *pos, int ply)
{
    int limit = t->e->sr.king_limit;
    int c = pos->side, ks = t->ksq[ply][c];
    if (!limit || t->kmv[ply][c] < limit || ks < 1 || ks > GEN_SQUARES) {
        return 0;
    }
    GEN_BB own = pos->pieces[c];
    if (!(own & pos->kings & P(bit)(P(sq_to_bit)(ks))) || !(own & ~pos->kings)) {
        return 0; /* no longer that king, or only kings left: not bound */
    }
    return ks;
}

/* FR 17: the bound king's ordinary moves leave the list. */
static void S(drop_blocked)(GEN_LIST *list, int sq)
{
    if (list->count == 0 || list->moves[0].ncapt > 0) {
        return;
    }
    int k = 0;
    for (int i = 0; i < list->count; i++) {
        if (list->moves[i].from != sq) {
            list->moves[k++] = list->moves[i];
        }
    }
    list->count = k;
}
#endif

/* The static evaluation of b. */
GEN_ALWAYS int S(eval)(const S(thr) * t, const GEN_POS *b)
{
#if SI_INTL
    return eval_board(t->e->eval, b);
#else
#ifdef SI_EVAL8
    if (t->e->sr.eval8) {
        eval8_pos p;
        p.wm = eval8_squares(b->pieces[DM_WHITE] & ~b->kings);
        p.bm = eval8_squares(b->pieces[DM_BLACK] & ~b->kings);
        p.wk = eval8_squares(b->pieces[DM_WHITE] & b->kings);
        p.bk = eval8_squares(b->pieces[DM_BLACK] & b->kings);
        int s = eval8_white(t->e->sr.eval8, &p);
        return b->side == DM_WHITE ? s : -s;
    }
#endif
    return S(evaluate)(&t->e->sr, b);
#endif
}

/* Make m on t->board and push the state of the position after it at ply + 1 (keys,
 * the draw rules' counters, FR 17's counters). */
static inline void S(play)(S(thr) * t, const GEN_MOVE *m, int was_man, int ply)
{
    GEN_POS *b = &t->board;
#if SI_INTL
    dm_board10_apply(b, m);
    t->keys[t->kbase + ply + 1] = b->hash;
#else
    GEN_POS before = *b;
    P(make)(b, m);
    t->keys[t->kbase + ply + 1] = S(child_key)(t->keys[t->kbase + ply], &before, b, m);
#endif
    int capture = m->ncapt > 0;
    int kind = SI_MATERIAL(t) ? S(material_kind)(SI_DRAW(t), b) : DM_DRAW_NONE;
    /* without a capture, a man's move changes kings only by its promotion */
    dr_step_into(&t->ds[ply + 1], &t->ds[ply], SI_DRAW(t), was_man, capture,
                 was_man && m->kings != 0, kind);
#if !SI_INTL
    if (t->e->sr.king_limit) {
        int c = b->side ^ 1;
        memcpy(t->ksq[ply + 1], t->ksq[ply], 2);
        memcpy(t->kmv[ply + 1], t->kmv[ply], 2);
        if (!capture && !was_man) {
            t->kmv[ply + 1][c] = t->ksq[ply][c] == m->from && t->kmv[ply][c] < 255
                                     ? (uint8_t)(t->kmv[ply][c] + 1)
                                     : 1;
            t->ksq[ply + 1][c] = m->to;
        } else {
            t->kmv[ply + 1][c] = 0;
            t->ksq[ply + 1][c] = 0;
        }
    }
#endif
}

GEN_ALWAYS void S(unplay)(S(thr) * t, const GEN_MOVE *m)
{
#if SI_INTL
    dm_board10_undo(&t->board, m);
#else
    P(unmake)(&t->board, m);
#endif
}

/* The counting rule that draws the position at ply (dr_verdict: FMJD 25 moves each of
 * kings only; 16 or 5 moves against a lone king; the variants' sets), DM_DRAW_NONE if
 * none. */
GEN_ALWAYS int S(counting_draw)(const S(thr) * t, int ply)
{
    if (!SI_COUNTING(t)) {
        return DM_DRAW_NONE;
    }
    return SI_VERDICT(t, &t->ds[ply]);
}

/* Step 1: the position at ply is drawn by a draw rule. */
GEN_ALWAYS int S(is_rule_draw)(const S(thr) * t, int ply)
{
    int rev = t->ds[ply].reversible;
    if (S(counting_draw)(t, ply) != DM_DRAW_NONE) {
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

#if SI_INTL || defined(SI_EGDB8)
/* Endgame database: the exact score of b at ply when the database decides it (no
 * capture pending, few enough pieces), with the 16- and 5-move rules on top: a win
 * that needs more plies than the rule leaves is a draw. Returns 0 when it does not.
 * The 8x8 searches (SI_EGDB8: Brazilian, Russian, English on the same fast board
 * type) probe it the same way when the database is of the searched variant, their
 * own counting rules on top (core/drawrule.h: Russian's 15 moves of three kings
 * against one, ...). */
static inline int S(egdb_score)(S(thr) * t, const dm_board10 *b, int ply, int *score)
{
    const dm_engine *e = t->e;
    if (P(count)(b->pieces[0] | b->pieces[1]) > e->egdb_pieces) {
        return 0;
    }
#if !SI_INTL
    if (e->egdb_variant != (int)e->sr.v->id) {
        return 0;
    }
#endif
    int d;
    dm_egdb_value v = egdb_lookup10(e->egdb, b, &d);
    if (v == DM_EGDB_UNKNOWN) {
        return 0;
    }
    int rule = dr_material_limit(SI_DRAW(t), S(material_kind)(SI_DRAW(t), b));
    if (v == DM_EGDB_DRAW || (rule && t->ds[ply].material + d > rule)) {
        *score = 0;
    } else {
        /* counted from the root, as game ends are */
        *score = v == DM_EGDB_WIN ? DM_SCORE_EGDB - ply - d : -(DM_SCORE_EGDB - ply - d);
    }
    return 1;
}
#define SI_EGDB(t, b, ply, s) ((t)->e->egdb && S(egdb_score)((t), (b), (ply), (s)))
#else
#define SI_EGDB(t, b, ply, s) 0
#endif

/* ---- quiescence --------------------------------------------------------------- */

static int S(qsearch)(S(thr) * t, int alpha, int beta, int ply)
{
    GEN_POS *b = &t->board;
    if ((++t->nodes & 1023) == 0) {
        S(poll)(t);
    }
    if (ply > t->seldepth) {
        t->seldepth = ply;
    }
#if !SI_INTL
    if (SI_R(t->e).win_on_promotion && b->kings) {
        return S(terminal)(t, ply); /* breakthrough: the opponent crowned, game over */
    }
#endif
    if (!SI_HAS_CAPTURE(b)) {
        if (!S(has_quiet_move)(b)) {
            return S(terminal)(t, ply);
        }
        int s;
        if (SI_EGDB(t, b, ply, &s)) {
            return s;
        }
        return S(eval)(t, b);
    }
    if (ply >= MAX_PLY - 1) {
        return S(eval)(t, b);
    }
    GEN_LIST *list = &t->lists[ply];
    int n = SI_LEGAL(list, b);
    int best = -INF;
    /* every move here captures: the 16/5-move count restarts */
    t->ds[ply + 1].material = 0;
    t->ds[ply + 1].kind = DM_DRAW_NONE;
    for (int i = 0; i < n; i++) {
        const GEN_MOVE *m = &list->moves[i];
#if SI_INTL
        dm_board10_apply(b, m);
#else
        P(make)(b, m);
#endif
        int s = -S(qsearch)(t, -beta, -alpha, ply + 1);
        S(unplay)(t, m);
        if (t->aborted || S(is_stopped)(t)) {
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

static void S(order_moves)(S(thr) * t, int ply, int tt_move, int capture)
{
    GEN_LIST *list = &t->lists[ply];
    int *score = t->order[ply];
    uint16_t *idx = t->idx[ply];
    const GEN_POS *b = &t->board;
    int c = b->side;
    GEN_BB promo = c == DM_WHITE ? GEN_ROW_W : GEN_ROW_B;
    for (int i = 0; i < list->count; i++) {
        const GEN_MOVE *m = &list->moves[i];
        int s;
        if (capture) {
            /* More pieces first (free choice of capture); equal numbers (majority
             * rule): prefer taking kings, then promoting. */
            s = P(count)(m->capt & b->kings) * 64 + ((m->kings & promo) != 0) * 16;
#if !SI_INTL
            if (SI_R(t->e).precedence == DM_PREC_NONE) {
                s += m->ncapt * 1024;
            }
#endif
        } else if (S(same_move)(m, &t->killer[ply][0])) {
            s = ORDER_KILLER;
        } else if (S(same_move)(m, &t->killer[ply][1])) {
            s = ORDER_KILLER - 1;
        } else if (!(b->kings & P(bit)(P(sq_to_bit)(m->from))) && (m->kings & promo)) {
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

static void S(update_quiet)(S(thr) * t, int ply, const GEN_MOVE *m, int depth, int tried)
{
    if (!S(same_move)(m, &t->killer[ply][0])) {
        t->killer[ply][1] = t->killer[ply][0];
        t->killer[ply][0] = *m;
    }
    int c = t->board.side;
    int bonus = depth * depth;
    int *h = &t->history[c][m->from][m->to];
    *h += bonus;
    if (*h > HISTORY_MAX) {
        int nsq = (int)(sizeof t->history[c] / sizeof t->history[c][0]);
        for (int f = 0; f < nsq; f++) {
            for (int to = 0; to < nsq; to++) {
                t->history[c][f][to] /= 2;
            }
        }
    }
    /* The quiet moves tried before it failed: a small malus. */
    const GEN_LIST *list = &t->lists[ply];
    for (int i = 0; i < tried; i++) {
        const GEN_MOVE *q = &list->moves[t->idx[ply][i]];
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

static int S(search)(S(thr) * t, int alpha, int beta, int depth, int ply)
{
    GEN_POS *b = &t->board;
    const int pv_node = beta - alpha > 1;
    t->pv_len[ply] = 0;

    if (depth <= 0 || ply >= MAX_PLY - 1) {
        return S(qsearch)(t, alpha, beta, ply);
    }
    if ((++t->nodes & 1023) == 0) {
        S(poll)(t);
    }
    if (S(is_stopped)(t)) {
        t->aborted = 1;
        return 0;
    }
    if (ply > t->seldepth) {
        t->seldepth = ply;
    }

    if (ply > 0) {
        /* Step 1 */
        if (S(is_rule_draw)(t, ply)) {
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
        if (SI_EGDB(t, b, ply, &s)) {
            return s;
        }
    }

    /* Step 3. Depth-1 nodes, the most numerous, neither probe nor store: a probe is
     * a cache miss that costs more than the search it could save (measured: bench
     * nodes +8.5%, CPU time -34%; start position depth 20 in 4.1 s of CPU instead of
     * 6.3 s). */
#if SI_INTL
    uint64_t key = b->hash;
#else
    uint64_t key = t->keys[t->kbase + ply];
#endif
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
    GEN_LIST *list = &t->lists[ply];
    int n = SI_LEGAL(list, b);
    if (n == 0) {
        return S(terminal)(t, ply);
    }
#if !SI_INTL
    int block = S(blocked)(t, b, ply);
    if (block) {
        S(drop_blocked)(list, block);
        n = list->count;
        if (n == 0) {
            return S(terminal)(t, ply); /* only the bound king could move */
        }
    }
#endif
    int capture = list->moves[0].ncapt > 0;

    /* Step 5 */
    S(order_moves)(t, ply, tt_move, capture);
    int *score = t->order[ply];
    uint16_t *idx = t->idx[ply];

    int best = -INF, best_index = -1, old_alpha = alpha;
    const int excl = ply == 0 && t->root_excl > 0;
    for (int i = 0; i < n; i++) {
        S(pick)(idx, score, i, n);
        const GEN_MOVE *m = &list->moves[idx[i]];
        if (excl && S(excluded)(t, m)) {
            continue; /* multi-PV: the root move of a line found already */
        }
        int was_man = !(b->kings & P(bit)(P(sq_to_bit)(m->from)));
        int is_quiet = m->ncapt == 0 && !(was_man && m->kings);
        /* Step 9. Late-move pruning: at shallow non-PV nodes the late quiet moves (below the
         * killers) are not searched once a move has been. */
        if (!pv_node && depth <= 3 && is_quiet && i >= 2 + depth * depth + depth &&
            score[i] < ORDER_PROMO && best > -DM_SCORE_WIN_MIN) {
            continue;
        }
        S(play)(t, m, was_man, ply);
        if (depth >= 3) {
            tt_prefetch(&t->e->tt, t->keys[t->kbase + ply + 1]);
        }
        int s;
        if (best_index < 0) {
            s = -S(search)(t, -beta, -alpha, depth - 1, ply + 1);
        } else {
            /* Step 7 (LMR): quiet, late, not a killer, with depth to spare. */
            int r = 0;
            if (depth >= 3 && is_quiet && i >= (pv_node ? 3 : 1) && score[i] < ORDER_PROMO) {
                r = 1 + (!pv_node && i >= 6);
            }
            /* Step 6 */
            s = -S(search)(t, -alpha - 1, -alpha, depth - 1 - r, ply + 1);
            if (s > alpha && r > 0) {
                s = -S(search)(t, -alpha - 1, -alpha, depth - 1, ply + 1);
            }
            if (s > alpha && s < beta) {
                s = -S(search)(t, -beta, -alpha, depth - 1, ply + 1);
            }
        }
        S(unplay)(t, m);
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
                memcpy(&t->pv[ply][1], t->pv[ply + 1], (size_t)len * sizeof(GEN_MOVE));
                t->pv_len[ply] = len + 1;
                if (ply == 0) {
                    t->root_found = t->root_first_try;
                    t->root_score = s;
                }
                if (s >= beta) {
                    /* Step 8 */
                    if (is_quiet) {
                        S(update_quiet)(t, ply, m, depth, i);
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

/* The generic core's move of b equal to m (same from, to and captured set), or -1. */
static int S(to_vmove)(dm_move *out, const dm_board *b, const GEN_MOVE *m)
{
    dm_movelist list;
    dm_movegen_legal(&list, b);
    for (int i = 0; i < list.count; i++) {
        const dm_move *x = &list.moves[i];
        if (x->from != m->from || x->to != m->to || x->ncapt != m->ncapt) {
            continue;
        }
        GEN_BB capt = 0;
        for (int sq = 1; sq <= GEN_SQUARES; sq++) {
            if (dm_move_captures(x, sq)) {
                capt |= P(bit)(P(sq_to_bit)(sq));
            }
        }
        if (capt == m->capt) {
            *out = *x;
            return 0;
        }
    }
    return -1;
}

/* A line from vroot as dm_moves (stops at a move that does not convert). */
static int S(line_out)(dm_move *out, const dm_board *vroot, const GEN_MOVE *pv, int len)
{
    dm_board b = *vroot;
    int n = 0;
    for (; n < len; n++) {
        if (S(to_vmove)(&out[n], &b, &pv[n]) != 0) {
            break;
        }
        dm_board_apply(&b, &out[n]);
    }
    return n;
}

/* One report: line (1-based) of count, with its score and PV. */
static void S(report_line)(S(thr) * t, const search_report *rep, int line, int count, int score,
                           const GEN_MOVE *pv, int pv_len)
{
    dm_engine *e = t->e;
    atomic_store_explicit(&t->nodes_shared, t->nodes, memory_order_relaxed);
    uint64_t nodes = S(total_nodes)(e);
    double time = search_elapsed(e);
    double nps = time > 0 ? (double)nodes / time : 0;
    dm_info vi;
    memset(&vi, 0, sizeof vi);
    vi.depth = t->completed_depth;
    vi.seldepth = t->seldepth;
    vi.score = score;
    vi.nodes = nodes;
    vi.time = time;
    vi.nps = nps;
    vi.pv_count = S(line_out)(vi.pv, rep->vroot, pv, pv_len);
    vi.multipv = line;
    vi.multipv_count = count;
    rep->on_vinfo(&vi, rep->payload);
}

static void S(report)(S(thr) * t, const search_report *rep)
{
    if (!rep || !rep->on_vinfo || !rep->vroot) {
        return;
    }
    if (t->mpv_count <= 1) {
        S(report_line)(t, rep, 1, 1, t->best_score, t->best_pv, t->best_pv_len);
        return;
    }
    for (int k = 0; k < t->mpv_count; k++) {
        S(report_line)
        (t, rep, k + 1, t->mpv_count, t->mpv[k].score, t->mpv[k].pv, t->mpv[k].pv_len);
    }
}

/* The root searched to d plies with an aspiration window around prev_score from
 * depth 5 on (widened on a fail); t->board is the root again afterwards. */
static int S(search_line)(S(thr) * t, const GEN_POS *root, int d, int depth, int prev_score)
{
    int s;
    int delta = 40;
    int alpha = -INF, beta = INF;
    if (depth >= 5 && prev_score > -DM_SCORE_WIN_MIN && prev_score < DM_SCORE_WIN_MIN) {
        alpha = prev_score - delta;
        beta = prev_score + delta;
    }
    t->root_first_try = 1;
    t->root_found = 0;
    for (;;) {
        t->board = *root;
        s = S(search)(t, alpha, beta, d, 0);
        if (t->aborted) {
            break;
        }
        t->root_first_try = 0;
        t->root_found = 0;
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

static void S(iterate)(S(thr) * t, const search_report *rep)
{
    dm_engine *e = t->e;
    const GEN_POS root = t->board;
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
        int s = S(search_line)(t, &root, d, depth, prev_score);
        if (t->aborted) {
            /* Step 11. A stopped iteration's root move stands when it beat, in the
             * first window, the moves searched before it, the last iteration's best
             * among them (searched first): it is the better move at this depth. A
             * stop during a re-search after a failed window proves nothing. */
            if (t->root_found && t->pv_len[0] > 0 && t->best_pv_len > 0 && e->multipv == 1 &&
                !S(same_move)(&t->pv[0][0], &t->best_pv[0])) {
                t->best_pv_len = t->pv_len[0];
                memcpy(t->best_pv, t->pv[0], (size_t)t->pv_len[0] * sizeof(GEN_MOVE));
                t->best_score = t->root_score;
            }
            break;
        }
        if (t->pv_len[0] > 0) {
            if (t->best_pv_len > 0 && !S(same_move)(&t->pv[0][0], &t->best_pv[0])) {
                instability += 1.0;
            }
            t->best_pv_len = t->pv_len[0];
            memcpy(t->best_pv, t->pv[0], (size_t)t->pv_len[0] * sizeof(GEN_MOVE));
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
            memcpy(t->mpv[0].pv, t->best_pv, (size_t)t->best_pv_len * sizeof(GEN_MOVE));
            int got = 1;
            for (int k = 1; k < lines && t->best_pv_len > 0; k++) {
                t->excl[k - 1] = t->mpv[k - 1].pv[0];
                t->root_excl = k;
                int sk = S(search_line)(t, &root, d, depth, prev[k] > -INF ? prev[k] : s);
                if (t->aborted || t->pv_len[0] == 0) {
                    break;
                }
                t->mpv[k].score = sk;
                t->mpv[k].pv_len = t->pv_len[0];
                memcpy(t->mpv[k].pv, t->pv[0], (size_t)t->pv_len[0] * sizeof(GEN_MOVE));
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
            memcpy(t->best_pv, t->mpv[0].pv, (size_t)t->best_pv_len * sizeof(GEN_MOVE));
            prev_score = s;
            S(report)(t, rep);
            if (t->aborted) {
                break; /* stopped during a later line: this depth's lines so far stand */
            }
        } else {
            S(report)(t, rep);
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
        if (!pondering && !e->lim.analyse &&
            tm_should_stop(&e->budget, search_elapsed(e), instability)) {
            break;
        }
        if (atomic_load(&e->stop)) {
            break;
        }
    }
}

static void *S(thread_main)(void *arg)
{
    S(thr) *t = arg;
    S(iterate)(t, NULL);
    return NULL;
}

/* Prepare thread t for a search of root. */
static void S(thread_setup)(S(thr) * t, const GEN_POS *root, uint64_t root_key,
                            const search_root *r)
{
    t->board = *root;
    t->nodes = 0;
    atomic_store_explicit(&t->nodes_shared, 0, memory_order_relaxed);
    t->seldepth = 0;
    t->aborted = 0;
    t->completed_depth = 0;
    t->best_pv_len = 0;
    t->best_score = 0;
    t->root_excl = 0;
    t->mpv_count = 0;
    int h = r->history && r->history_count > 0 ? r->history_count : 0;
    if (h > DM_ENGINE_MAX_HISTORY) {
        h = DM_ENGINE_MAX_HISTORY;
    }
    if (h > 0) {
        memcpy(t->keys, r->history + (r->history_count - h), (size_t)h * sizeof(uint64_t));
    }
    t->kbase = h;
    t->keys[h] = root_key;
    t->ds[0] = r->ds;
    t->ds[0].kind = SI_MATERIAL(t) ? S(material_kind)(SI_DRAW(t), root) : DM_DRAW_NONE;
    t->ds[0].material = t->ds[0].kind == DM_DRAW_NONE ? -1
                        : r->ds.material > 0          ? r->ds.material
                                                      : 0;
    memcpy(t->ksq[0], r->ksq, 2);
    memcpy(t->kmv[0], r->kmv, 2);
    memset(t->killer, 0, sizeof t->killer);
    memset(t->history, 0, sizeof t->history);
}

/* The search of root (e->sr, e->lim, e->budget set by the caller, e->multipv
 * requested): the threads of this geometry set up and run; returns the thread whose
 * line is the result, NULL when the root has no legal move. root_list gets the
 * root's legal moves (FR 17 applied). */
static S(thr) * S(run)(dm_engine *e, const GEN_POS *root, uint64_t root_key, const search_root *r,
                       const search_report *rep, GEN_LIST *root_list)
{
    S(thr) *t = SI_THREADS(e)[0];
    S(thread_setup)(t, root, root_key, r);
    e->root_count = SI_LEGAL(root_list, root);
#if !SI_INTL
    int block = S(blocked)(t, root, 0);
    if (block) {
        S(drop_blocked)(root_list, block);
        e->root_count = root_list->count;
    }
#endif
    if (e->multipv > e->root_count) {
        e->multipv = e->root_count;
    }
    if (e->root_count == 0) {
        return NULL;
    }
    int nthreads = e->opts.threads;
    for (int i = 1; i < nthreads; i++) {
        S(thread_setup)(SI_THREADS(e)[i], root, root_key, r);
    }
    /* Helpers run only when there is something to share; a failed thread start
     * just means fewer helpers. */
    int started[DM_ENGINE_MAX_THREADS] = {0};
    for (int i = 1; i < nthreads; i++) {
        started[i] =
            pthread_create(&SI_THREADS(e)[i]->handle, NULL, S(thread_main), SI_THREADS(e)[i]) == 0;
    }
    S(iterate)(t, rep);
    atomic_store(&e->helpers_stop, 1);
    for (int i = 1; i < nthreads; i++) {
        if (started[i]) {
            pthread_join(SI_THREADS(e)[i]->handle, NULL);
        }
    }
    /* A deeper completed helper result is taken when its depth beats the main one. */
    S(thr) *best = t;
    for (int i = 1; i < nthreads; i++) {
        S(thr) *h = SI_THREADS(e)[i];
        if (e->multipv == 1 && h->completed_depth > best->completed_depth && h->best_pv_len > 0 &&
            h->best_score >= best->best_score - 20) {
            best = h;
        }
    }
    atomic_store_explicit(&t->nodes_shared, t->nodes, memory_order_relaxed);
    return best;
}

/* dm_engine_search's result from the thread best of S(run) (NULL: no legal
 * move), the root as dm_board. */
static void S(vresult)(dm_result *out, dm_engine *e, const S(thr) * best, const dm_board *vroot,
                       const GEN_LIST *root_list)
{
    out->nodes = S(total_nodes)(e);
    out->time = search_elapsed(e);
    if (best == NULL) {
        out->score = S(terminal)(SI_THREADS(e)[0], 0);
        return;
    }
    out->depth = best->completed_depth;
    out->score = best->best_score;
    out->has_move = 1;
    dm_move line[2];
    int n = S(line_out)(line, vroot, best->best_pv, best->best_pv_len > 2 ? 2 : best->best_pv_len);
    if (n == 0) {
        /* cannot happen (depth 1 always completes); be safe */
        S(to_vmove)(&out->best, vroot, &root_list->moves[0]);
        return;
    }
    out->best = line[0];
    if (n > 1) {
        out->has_ponder = 1;
        out->ponder = line[1];
    }
}

/* The variant search of in (e prepared by dm_engine_search). */
static dm_status S(vrun)(dm_result *out, dm_engine *e, const dm_search_input *in,
                         const search_root *r, const search_report *rep)
{
    GEN_POS root;
    memset(&root, 0, sizeof root);
#if SI_INTL
    dm_board_to_board10(&root, &in->root);
#else
    P(from_vboard)(&root, &in->root);
#endif
    GEN_LIST *root_list = &SI_THREADS(e)[0]->lists[MAX_PLY];
    const S(thr) *best = S(run)(e, &root, dm_board_hash(&in->root), r, rep, root_list);
    S(vresult)(out, e, best, &in->root, root_list);
    return DM_OK;
}

#if !SI_INTL
/* dm_search<N>_vdraw_walk (search_int.h): the search's own per-node code (S(play),
 * the counting verdict, S(blocked)) along moves[0..n-1] from in->root. */
static int S(vdraw_walk)(const dm_search_input *in, const dm_move *moves, int n, int *verdict,
                         int *blocked)
{
    dm_engine *e = calloc(1, sizeof *e);
    S(thr) *t = calloc(1, sizeof *t);
    if (e == NULL || t == NULL) {
        free(e);
        free(t);
        return -1;
    }
    if (n > MAX_PLY - 1) {
        n = MAX_PLY - 1;
    }
    search_rules_of_variant(&e->sr, in);
    t->e = e;
    GEN_POS pos;
    memset(&pos, 0, sizeof pos);
    P(from_vboard)(&pos, &in->root);
    search_root r = {.ds = {.reversible = in->draw_count.reversible_plies,
                            .no_capture = in->draw_count.no_capture_plies,
                            .material = in->draw_count.material_plies}};
    memcpy(r.ksq, in->root.king_sq, 2);
    memcpy(r.kmv, in->root.king_moves, 2);
    S(thread_setup)(t, &pos, dm_board_hash(&in->root), &r);
    int i = 0;
    for (;; i++) {
        verdict[i] = S(counting_draw)(t, i);
        blocked[i] = S(blocked)(t, &t->board, i);
        if (i == n) {
            break;
        }
        GEN_LIST *list = &t->lists[0];
        SI_LEGAL(list, &t->board);
        GEN_BB capt = 0;
        for (int sq = 1; sq <= GEN_SQUARES; sq++) {
            if (dm_move_captures(&moves[i], sq)) {
                capt |= P(bit)(P(sq_to_bit)(sq));
            }
        }
        const GEN_MOVE *m = NULL;
        for (int k = 0; k < list->count && !m; k++) {
            const GEN_MOVE *x = &list->moves[k];
            if (x->from == moves[i].from && x->to == moves[i].to && x->capt == capt) {
                m = x;
            }
        }
        if (m == NULL) {
            break; /* not a legal move of the position */
        }
        GEN_MOVE mv = *m;
        S(play)(t, &mv, !(t->board.kings & P(bit)(P(sq_to_bit)(mv.from))), i);
    }
    free(t);
    free(e);
    return i;
}
#endif

#undef S
#undef SI_R
#undef SI_LEGAL
#undef SI_HAS_CAPTURE
#undef SI_EGDB
#ifdef SI_GEN
#undef SI_GEN
#endif
#undef SI_DRAW
#undef SI_COUNTING
#undef SI_MATERIAL
#undef SI_VERDICT
#ifdef SI_DRAW_CONST
#undef SI_DRAW_CONST
#endif
#undef SI_RS
#undef SI_INTL
#undef SI_EGDB8
#ifdef SI_RULES_CONST
#undef SI_RULES_CONST
#endif
