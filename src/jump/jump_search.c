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

/* Opponents' pieces standing in seat s's target with no legal move: s cannot fill its
 * target while they stay, and a piece walled in by s's own pieces may stay for ever
 * (the engine used to trap the greedy player's last peg on its home tip and so never
 * finish). Counted by seat s's evaluation as a penalty of JTRAPPED steps each. Under
 * anti-spoil a piece on its own home square is left out: it counts as filling s's
 * target (dm_jpos_winner), walled in or not. */
#define JTRAPPED 40

/* The opponents' pieces that fill seat s's target for the win: under anti-spoil,
 * those standing on their own home squares; without it, none. */
static dm_jset home_fillers(const dm_jrules *r, const dm_jpos *p, int s)
{
    dm_jset f = {{0, 0, 0, 0}};
    if (!(r->options & DM_JOPT_ANTI_SPOIL)) {
        return f;
    }
    for (int o = 0; o < r->players; o++) {
        if (o != s) {
            for (int w = 0; w < 4; w++) {
                f.w[w] |= p->pieces[o].w[w] & r->home[o].w[w];
            }
        }
    }
    return f;
}

static int trapped_in_target(const dm_jrules *r, const dm_jpos *p, int s)
{
    dm_jset occ = {{0, 0, 0, 0}};
    for (int o = 0; o < r->players; o++) {
        jset_or(&occ, &p->pieces[o]);
    }
    dm_jset fill = home_fillers(r, p, s);
    int n = 0;
    for (int o = 0; o < r->players; o++) {
        if (o == s) {
            continue;
        }
        dm_jset in = p->pieces[o];
        for (int w = 0; w < 4; w++) {
            in.w[w] &= r->target[s].w[w] & ~fill.w[w];
        }
        for (int x = jset_next(&in, 0); x >= 0; x = jset_next(&in, x + 1)) {
            int free = 0, by_s = 0;
            for (int d = 0; d < r->dirs && !free; d++) {
                int nb = r->nb[x][d];
                free = (nb >= 0 && !jset_has(&occ, nb)) || jump_land(r, &occ, x, d) >= 0;
                by_s |= nb >= 0 && jset_has(&p->pieces[s], nb);
            }
            n += !free && by_s; /* walled in, by s among others */
        }
    }
    return n;
}

/* Seat s's target squares still to take: neither its own pieces nor (anti-spoil)
 * opponents' pieces on their home squares stand there. Counted by s's evaluation as
 * JHOLE steps each. The distance alone does not see them: once opponents' pieces hold
 * the deep squares of the target (anti-spoil), a rim square of the target is as far
 * from the far tip as the squares in front of it (Halma 8x8: e8 and h5 are 3 steps
 * from h8, like e6 and g5), so a step into the last holes gained nothing and the
 * engine shuffled in front of them until the no-progress rule ended the game. */
#define JHOLE 2

static int target_holes(const dm_jrules *r, const dm_jpos *p, int s)
{
    dm_jset fill = home_fillers(r, p, s);
    int n = 0;
    for (int w = 0; w < 4; w++) {
        n += __builtin_popcountll(r->target[s].w[w] & ~(p->pieces[s].w[w] | fill.w[w]));
    }
    return n;
}

/* The distance of seat s's hindmost piece, counted by s's evaluation JLAST times on
 * top of the sum: with the sum alone every step is worth the same, so the engine made
 * its long jumps with the front pieces and left its last home peg behind until the
 * opponent's pieces, filling their target, walled it in there (Halma 8x8 anti-spoil:
 * the peg counts for the opponent, but the engine cannot fill its own target without
 * it, and the greedy player, its holes no nearer to its goal than the squares in
 * front of them, never fills the rest: no winner). */
#define JLAST 2

static int last_distance(const dm_jrules *r, const dm_jpos *p, int s)
{
    int far = 0;
    const dm_jset *a = &p->pieces[s];
    for (int i = jset_next(a, 0); i >= 0; i = jset_next(a, i + 1)) {
        far = r->goal_dist[s][i] > far ? r->goal_dist[s][i] : far;
    }
    return far;
}

/* Steps between squares a and b on an empty board: the star's hexagonal distance
 * (axial coordinates from col/row: col = 2q + r + 12, row = r + 8), Halma's king
 * distance (8 directions). */
static int square_dist(const dm_jrules *r, int a, int b)
{
    int dr = (int)r->row[a] - (int)r->row[b], dc = (int)r->col[a] - (int)r->col[b];
    if (r->game == DM_JGAME_CHINESE) {
        int dq = (dc - dr) / 2;
        return (abs(dq) + abs(dr) + abs(dq + dr)) / 2;
    }
    dr = abs(dr);
    dc = abs(dc);
    return dr > dc ? dr : dc;
}

/* Seat s's stragglers: for each of its pieces outside its target, the steps to the
 * nearest target hole (target_holes' squares), summed; counted by s's evaluation
 * JSTRAGGLE times. The distance to the target's far tip has plateaus that this one
 * has not: on Halma 8x8 every square of file h and rank 8 is 7 king steps from a1, so
 * B's last home pegs h7 and g8, walled in on their diagonal by A's pegs on g6, g7, f7,
 * could only leave by steps that gained nothing (h7-h6-h5, g8-f8-e8), and the engine,
 * its holes d1 and a4 far away, shuffled in its target until the no-progress rule
 * ended the game (BENCHMARKS.md, game 82). Towards the nearest hole every such step
 * gains. */
#define JSTRAGGLE 1

static int straggle_distance(const dm_jrules *r, const dm_jpos *p, int s)
{
    dm_jset fill = home_fillers(r, p, s), holes, out;
    for (int w = 0; w < 4; w++) {
        holes.w[w] = r->target[s].w[w] & ~(p->pieces[s].w[w] | fill.w[w]);
        out.w[w] = p->pieces[s].w[w] & ~r->target[s].w[w];
    }
    int sum = 0;
    if (jset_next(&holes, 0) < 0) {
        return 0;
    }
    for (int i = jset_next(&out, 0); i >= 0; i = jset_next(&out, i + 1)) {
        int near = 1 << 30;
        for (int h = jset_next(&holes, 0); h >= 0; h = jset_next(&holes, h + 1)) {
            int d = square_dist(r, i, h);
            near = d < near ? d : near;
        }
        sum += near;
    }
    return sum;
}

/* Seat s's pieces still on its home while opponents' pieces arrive there: each costs
 * JHOME steps for every opponent's piece on s's home squares (their target), so the
 * longer a home peg stays the more its leaving is worth, and nothing at all before the
 * opponents come (the openings keep their play). With the hindmost peg's distance
 * alone the engine left its last home pegs on the far rank and file (Halma 10x10: j9,
 * g9, h9, all 8-9 king steps from a1 like the squares beside them, so no step out
 * gained) until the greedy player's pieces, filling their target, walled them in; the
 * greedy player, its rim holes f10 and j6 no nearer its goal than the squares in
 * front of them, never moved in either, and the no-progress rule ended the game
 * (BENCHMARKS.md, game 54). */
#define JHOME 1

static int home_pressure(const dm_jrules *r, const dm_jpos *p, int s)
{
    int own = 0, opp = 0;
    for (int w = 0; w < 4; w++) {
        own += __builtin_popcountll(p->pieces[s].w[w] & r->home[s].w[w] & ~r->target[s].w[w]);
        for (int o = 0; o < r->players; o++) {
            if (o != s) {
                opp += __builtin_popcountll(p->pieces[o].w[w] & r->home[s].w[w]);
            }
        }
    }
    return own * opp;
}

/* The evaluation for seat root (the seat the search plays for): the opponents'
 * distance (two players: the opponent's; more: the nearest opponent's) minus its own,
 * minus the target holes and the trapped-in-target penalty of root only: an
 * opponent's piece kept on the engine's target hurts the engine, but the engine must
 * not learn to wall its own pieces in at home to hurt the opponent. */
static int eval_for(const dm_jrules *r, const dm_jpos *p, int root)
{
    if ((r->options & DM_JOPT_CAPTURE) && r->players > 1) {
        /* the capture game for several players: the pegs are nobody's and the goal is
         * the last capture, so there is no distance to count; the search sees the
         * wins within its depth and nothing else */
        return 0;
    }
    int best = 1 << 30;
    for (int s = 0; s < r->players; s++) {
        if (s != root) {
            int d = side_distance(r, p, s);
            best = d < best ? d : best;
        }
    }
    return best - side_distance(r, p, root) - JHOLE * target_holes(r, p, root) -
           JLAST * last_distance(r, p, root) - JSTRAGGLE * straggle_distance(r, p, root) -
           JTRAPPED * trapped_in_target(r, p, root) - JHOME * home_pressure(r, p, root);
}

int dm_jevaluate(const dm_jrules *r, const dm_jpos *p)
{
    return eval_for(r, p, p->to_move);
}

/* A transposition table entry of the two-player search: the position's key, its
 * value for the side to move at `depth` plies (bound: TT_EXACT, TT_LOWER, TT_UPPER),
 * the best move found. */
typedef struct tt_entry {
    uint64_t key;
    int32_t score;
    uint8_t depth, bound, from, to;
} tt_entry;

enum {
    TT_EXACT = 1,
    TT_LOWER = 2,
    TT_UPPER = 3,
    TT_BITS = 18 /* 2^18 entries of 16 bytes: 4 MiB a search */
};

typedef struct search_ctx {
    const dm_jrules *r;
    uint64_t nodes;
    int root;     /* the seat the search plays for */
    tt_entry *tt; /* NULL: no table */
} search_ctx;

/* The key of (seat, square) (seat 7: the side to move's keys), a splitmix64 of its
 * index: computed, not stored, so the library keeps no table of its own. */
static uint64_t zkey(int seat, int sq)
{
    uint64_t x = ((uint64_t)seat * 256 + (uint64_t)sq + 1) * 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

static uint64_t pos_key(const dm_jrules *r, const dm_jpos *p)
{
    uint64_t h = zkey(7, p->to_move);
    for (int s = 0; s < r->players; s++) {
        for (int i = jset_next(&p->pieces[s], 0); i >= 0; i = jset_next(&p->pieces[s], i + 1)) {
            h ^= zkey(s, i);
        }
    }
    return h;
}

/* A win's score is stored as a distance from the node, not from the root. */
static int tt_in(int v, int ply)
{
    return v > DM_JWIN - 1000 ? v + ply : v < -(DM_JWIN - 1000) ? v - ply : v;
}

static int tt_out(int v, int ply)
{
    return v > DM_JWIN - 1000 ? v - ply : v < -(DM_JWIN - 1000) ? v + ply : v;
}

/* Steps between holes a and b of the star (hex distance: row = r + 8, col = 2q + r + 12
 * in the axial coordinates q, r of jump.c). */
static int star_dist(const dm_jrules *r, int a, int b)
{
    int ra = r->row[a] - 8, rb = r->row[b] - 8;
    int qa = (r->col[a] - ra - 12) / 2, qb = (r->col[b] - rb - 12) / 2;
    int dq = qa - qb, dr = ra - rb, ds = -dq - dr;
    return ((dq < 0 ? -dq : dq) + (dr < 0 ? -dr : dr) + (ds < 0 ? -ds : ds)) / 2;
}

/* The capture game's step: how much nearer the nearest other peg the peg comes (the
 * pegs must meet for the game to go on; a capture gains most). */
static int approach_gain(const dm_jrules *r, const dm_jpos *p, const dm_jmove *m)
{
    int before = 1 << 20, after = 1 << 20;
    const dm_jset *a = &p->pieces[0];
    for (int i = jset_next(a, 0); i >= 0; i = jset_next(a, i + 1)) {
        if (i != m->from) {
            int db = star_dist(r, m->from, i), da = star_dist(r, m->to, i);
            before = db < before ? db : before;
            after = da < after ? da : after;
        }
    }
    return before - after;
}

/* Gain of a move for the side making it in p, in steps towards its goal (the capture
 * game for several players: approach_gain). */
static int gain(const dm_jrules *r, const dm_jpos *p, int side, const dm_jmove *m)
{
    if ((r->options & DM_JOPT_CAPTURE) && r->players > 1) {
        return approach_gain(r, p, m);
    }
    return (int)r->goal_dist[side][m->from] - (int)r->goal_dist[side][m->to];
}

static void order(const dm_jrules *r, const dm_jpos *p, int side, dm_jmovelist *list)
{
    /* Insertion sort by gain, largest first (stable, so equal gains keep their order);
     * the gains computed once when the list is not longer than g. */
    int g[512], cached = list->count <= 512;
    for (int i = 0; cached && i < list->count; i++) {
        g[i] = gain(r, p, side, &list->moves[i]);
    }
    for (int i = 1; i < list->count; i++) {
        dm_jmove m = list->moves[i];
        int gi = cached ? g[i] : gain(r, p, side, &m), j = i;
        while (j > 0 && (cached ? g[j - 1] : gain(r, p, side, &list->moves[j - 1])) < gi) {
            list->moves[j] = list->moves[j - 1];
            if (cached) {
                g[j] = g[j - 1];
            }
            j--;
        }
        list->moves[j] = m;
        if (cached) {
            g[j] = gi;
        }
    }
}

/* Two players. With a table (c->tt), the key h of p: a stored result is used only
 * when it was searched to the same depth, so the value is exactly the plain search's
 * (the levels keep their meaning); the stored move is tried first at any depth. */
static int negamax(search_ctx *c, const dm_jpos *p, uint64_t h, int depth, int ply, int alpha,
                   int beta, dm_jmove *best, dm_jmovelist *lists)
{
    c->nodes++;
    int w = dm_jpos_winner(p, c->r);
    if (w >= 0) {
        return w == p->to_move ? DM_JWIN - ply : -(DM_JWIN - ply);
    }
    if (depth == 0) {
        int v = eval_for(c->r, p, c->root);
        return p->to_move == c->root ? v : -v;
    }
    tt_entry *e = c->tt ? &c->tt[h & ((1u << TT_BITS) - 1)] : NULL;
    int tt_from = -1, tt_to = -1;
    if (e && e->key == h) {
        tt_from = e->from;
        tt_to = e->to;
        if (e->depth == depth && !best) {
            int v = tt_out(e->score, ply);
            if (e->bound == TT_EXACT || (e->bound == TT_LOWER && v >= beta) ||
                (e->bound == TT_UPPER && v <= alpha)) {
                return v;
            }
        }
    }
    dm_jmovelist *list = &lists[0];
    if (dm_jmovegen(list, c->r, p) == 0) {
        int v = eval_for(c->r, p, c->root); /* no move: counted as a pass, statically */
        return p->to_move == c->root ? v : -v;
    }
    order(c->r, p, p->to_move, list);
    for (int i = 1; i < list->count && tt_from >= 0; i++) {
        if (list->moves[i].from == tt_from && list->moves[i].to == tt_to) {
            dm_jmove m = list->moves[i];
            memmove(&list->moves[1], &list->moves[0], sizeof m * (size_t)i);
            list->moves[0] = m;
            break;
        }
    }
    int alpha0 = alpha, side = p->to_move;
    int bestv = -2 * DM_JWIN, besti = 0;
    uint64_t turn = zkey(7, side) ^ zkey(7, (side + 1) % c->r->players);
    for (int i = 0; i < list->count; i++) {
        const dm_jmove *m = &list->moves[i];
        dm_jpos q = *p;
        dm_jpos_apply(&q, c->r, m);
        uint64_t hq = c->tt ? h ^ turn ^ zkey(side, m->from) ^ zkey(side, m->to) : 0;
        int v = -negamax(c, &q, hq, depth - 1, ply + 1, -beta, -alpha, NULL, lists + 1);
        if (v > bestv) {
            bestv = v;
            besti = i;
            if (best) {
                *best = *m;
            }
        }
        if (v > alpha) {
            alpha = v;
        }
        if (alpha >= beta) {
            break;
        }
    }
    if (e && (e->key != h || e->depth <= depth)) {
        e->key = h;
        e->score = tt_in(bestv, ply);
        e->depth = (uint8_t)depth;
        e->bound = bestv <= alpha0 ? TT_UPPER : bestv >= beta ? TT_LOWER : TT_EXACT;
        e->from = list->moves[besti].from;
        e->to = list->moves[besti].to;
    }
    return bestv;
}

/* ---- three or more players: paranoid search -------------------------------------
 * The root seat maximises, every other seat is taken to play against it (minimises
 * the root's score), so alpha-beta applies (Sturtevant and Korf 2000, "On pruning
 * techniques for multi-player games"). Evaluation for the root: the distance of the
 * opponent nearest to its goal minus the root's own. */
static int paranoid(search_ctx *c, const dm_jpos *p, int depth, int ply, int alpha, int beta,
                    int root, dm_jmove *best, dm_jmovelist *lists)
{
    c->nodes++;
    int w = dm_jpos_winner(p, c->r);
    if (w >= 0) {
        return w == root ? DM_JWIN - ply : -(DM_JWIN - ply);
    }
    if (depth == 0) {
        return eval_for(c->r, p, root);
    }
    dm_jmovelist *list = &lists[0];
    int max = p->to_move == root;
    if (dm_jmovegen(list, c->r, p) == 0) {
        dm_jpos q = *p;
        dm_jpos_pass(&q, c->r);
        return paranoid(c, &q, depth - 1, ply + 1, alpha, beta, root, NULL, lists + 1);
    }
    order(c->r, p, p->to_move, list);
    int bestv = max ? -2 * DM_JWIN : 2 * DM_JWIN;
    for (int i = 0; i < list->count; i++) {
        dm_jpos q = *p;
        dm_jpos_apply(&q, c->r, &list->moves[i]);
        int v = paranoid(c, &q, depth - 1, ply + 1, alpha, beta, root, NULL, lists + 1);
        if (max ? v > bestv : v < bestv) {
            bestv = v;
            if (best) {
                *best = list->moves[i];
            }
        }
        if (max) {
            alpha = v > alpha ? v : alpha;
        } else {
            beta = v < beta ? v : beta;
        }
        if (alpha >= beta) {
            break;
        }
    }
    return bestv;
}

/* ---- three or more players: best-reply search -----------------------------------
 * Schadd and Winands 2011 ("Best reply search for multiplayer games"): the root seat's
 * moves (MAX) alternate with ONE move of any single opponent, the one that hurts the
 * root most (MIN: all opponents' moves together); the other opponents stand still. At
 * the same depth the root plans more of its own moves than paranoid search does
 * (depth 3: two own moves, paranoid with 3 players: one). Chosen by measurement
 * (BENCHMARKS.md): paranoid at depth 3 won 37% of 200 three-player games against
 * greedy players. */
static int brs(search_ctx *c, const dm_jpos *p, int depth, int ply, int alpha, int beta, int max,
               dm_jmove *best, dm_jmovelist *lists)
{
    c->nodes++;
    int root = c->root;
    int w = dm_jpos_winner(p, c->r);
    if (w >= 0) {
        return w == root ? DM_JWIN - ply : -(DM_JWIN - ply);
    }
    if (depth == 0) {
        return eval_for(c->r, p, root);
    }
    dm_jmovelist *list = &lists[0];
    int any = 0;
    int bestv = max ? -2 * DM_JWIN : 2 * DM_JWIN;
    for (int o = 0; o < c->r->players && alpha < beta; o++) {
        if (max ? o != root : o == root) {
            continue;
        }
        dm_jpos from = *p;
        from.to_move = o;
        if (dm_jmovegen(list, c->r, &from) == 0) {
            continue;
        }
        any = 1;
        order(c->r, &from, o, list);
        for (int i = 0; i < list->count; i++) {
            dm_jpos q = from;
            dm_jpos_apply(&q, c->r, &list->moves[i]);
            q.to_move = root; /* MAX again after a MIN move; MIN ignores to_move */
            int v = brs(c, &q, depth - 1, ply + 1, alpha, beta, !max, NULL, lists + 1);
            if (max ? v > bestv : v < bestv) {
                bestv = v;
                if (best) {
                    *best = list->moves[i];
                }
            }
            if (max) {
                alpha = v > alpha ? v : alpha;
            } else {
                beta = v < beta ? v : beta;
            }
            if (alpha >= beta) {
                break;
            }
        }
    }
    if (!any) { /* nobody on this side can move: the other side goes on */
        return brs(c, p, depth - 1, ply + 1, alpha, beta, !max, NULL, lists + 1);
    }
    return bestv;
}

/* ---- Ge Wu: expectimax over the throwing stick ---------------------------------
 * A position whose throw is not made is a chance node: the mean over the four faces
 * (1/4 each, docs/JUMPING.md). With a throw to play, the side to move picks the best
 * move (a throw without a move is lost). Scores are for White (seat 0), in hundredths
 * of a square: White's pieces' progress (square index) minus Black's (L-1-index);
 * a win DM_JWIN - ply. Depth counts throws. */
static int gewu_eval(const dm_jrules *r, const dm_jpos *p)
{
    int v = 0;
    for (int s = 0; s < 2; s++) {
        const dm_jset *a = &p->pieces[s];
        for (int i = jset_next(a, 0); i >= 0; i = jset_next(a, i + 1)) {
            v += s == 0 ? i : -(r->squares - 1 - i);
        }
    }
    return v * 100;
}

static int gewu_value(search_ctx *c, const dm_jpos *p, int depth, int ply, dm_jmove *best,
                      dm_jmovelist *lists)
{
    c->nodes++;
    if (p->won >= 0) {
        return p->won == 0 ? DM_JWIN - ply : -(DM_JWIN - ply);
    }
    if (depth == 0) {
        return gewu_eval(c->r, p);
    }
    if (!p->throw_steps) {
        long sum = 0;
        for (int f = 0; f < 4; f++) {
            dm_jpos q = *p;
            dm_gewu_throw(&q, c->r, (dm_gewu_face)f);
            sum += f == DM_GEWU_WU ? gewu_value(c, &q, depth - 1, ply + 1, NULL, lists)
                                   : gewu_value(c, &q, depth, ply, NULL, lists);
        }
        return (int)(sum / 4);
    }
    dm_jmovelist *list = &lists[0];
    if (dm_jmovegen(list, c->r, p) == 0) {
        dm_jpos q = *p;
        dm_gewu_forfeit(&q, c->r);
        return gewu_value(c, &q, depth - 1, ply + 1, NULL, lists + 1);
    }
    int white = p->to_move == 0, bestv = white ? -2 * DM_JWIN : 2 * DM_JWIN;
    for (int i = 0; i < list->count; i++) {
        dm_jpos q = *p;
        dm_jpos_apply(&q, c->r, &list->moves[i]);
        int v = gewu_value(c, &q, depth - 1, ply + 1, NULL, lists + 1);
        if (white ? v > bestv : v < bestv) {
            bestv = v;
            if (best) {
                *best = list->moves[i];
            }
        }
    }
    return bestv;
}

int dm_jgreedy(const dm_jrules *r, const dm_jpos *p, dm_jmove *m)
{
    dm_jmovelist list;
    if (dm_jmovegen(&list, r, p) == 0) {
        return 0;
    }
    int best = -1, bestg = -(1 << 30);
    for (int i = 0; i < list.count; i++) {
        const dm_jmove *mv = &list.moves[i];
        int g;
        if (r->game == DM_JGAME_GEWU) {
            g = mv->to == DM_JOFF_BOARD
                    ? 1000
                    : (p->to_move == 0 ? (int)mv->to - mv->from : (int)mv->from - mv->to);
        } else {
            g = gain(r, p, p->to_move, mv);
        }
        if (g > bestg) {
            bestg = g;
            best = i;
        }
    }
    *m = list.moves[best];
    return 1;
}

dm_status dm_jsearch(const dm_jrules *r, const dm_jpos *p, int depth, dm_jsearch_result *out,
                     dm_error *err)
{
    return dm_jsearch_multi(r, p, depth, DM_JMULTI_BRS, out, err);
}

dm_status dm_jsearch_multi(const dm_jrules *r, const dm_jpos *p, int depth, dm_jmulti method,
                           dm_jsearch_result *out, dm_error *err)
{
    return jsearch_run(r, p, depth, method, 1, out, err);
}

dm_status jsearch_run(const dm_jrules *r, const dm_jpos *p, int depth, dm_jmulti method, int use_tt,
                      dm_jsearch_result *out, dm_error *err)
{
    if (depth < 1 || depth > 8) {
        return dm_error_set(err, DM_EINVAL, 0, 0, "search depth must be 1..8, not %d", depth);
    }
    if (r->game == DM_JGAME_GEWU && !p->throw_steps) {
        return dm_error_set(err, DM_EINVAL, 0, 0,
                            "gewu: the side to move must throw first (a position with its throw)");
    }
    dm_jmovelist *lists = malloc(sizeof *lists * (size_t)(depth + 1));
    if (!lists) {
        return dm_error_set(err, DM_ENOMEM, 0, 0, "out of memory for the move lists");
    }
    search_ctx c = {r, 0, p->to_move, NULL};
    memset(out, 0, sizeof *out);
    if (r->game == DM_JGAME_GEWU) {
        int v = gewu_value(&c, p, depth, 0, &out->best, lists);
        out->score = p->to_move == 0 ? v : -v;
    } else if (r->players == 2) {
        /* the table: not for the capture game (a move removes a peg the key would have
         * to follow) nor leave-camp (its winner depends on the move count) */
        if (use_tt && !(r->options & (DM_JOPT_CAPTURE | DM_JOPT_LEAVE_CAMP))) {
            c.tt = calloc((size_t)1 << TT_BITS, sizeof *c.tt);
        }
        uint64_t h = c.tt ? pos_key(r, p) : 0;
        /* iterative deepening: each depth's best move (kept in the table) is searched
         * first by the next */
        for (int d = c.tt ? 1 : depth; d <= depth; d++) {
            out->score = negamax(&c, p, h, d, 0, -2 * DM_JWIN, 2 * DM_JWIN, &out->best, lists);
        }
        free(c.tt);
    } else if (method == DM_JMULTI_PARANOID || (r->options & DM_JOPT_CAPTURE)) {
        /* the capture game: who makes the last capture depends on the turn order,
         * which best-reply search (one opponent's move, any opponent) does not keep */
        out->score =
            paranoid(&c, p, depth, 0, -2 * DM_JWIN, 2 * DM_JWIN, p->to_move, &out->best, lists);
    } else {
        out->score = brs(&c, p, depth, 0, -2 * DM_JWIN, 2 * DM_JWIN, 1, &out->best, lists);
    }
    out->nodes = c.nodes;
    free(lists);
    return DM_OK;
}

int dm_jlevel_depth(const dm_jrules *r, int level)
{
    if (level <= 1) {
        return 0;
    }
    int cap = r->game == DM_JGAME_GEWU                     ? 4
              : r->players > 2                             ? 3
              : r->game == DM_JGAME_HALMA && r->size == 16 ? 3
                                                           : 5;
    int d = level / 2;
    return d > cap ? cap : d;
}

int dm_jengine_move(const dm_jrules *r, const dm_jpos *p, int level, dm_jmove *m)
{
    int depth = dm_jlevel_depth(r, level);
    dm_jmovelist *list = malloc(sizeof *list);
    if (!list) {
        return 0;
    }
    int n = dm_jmovegen(list, r, p);
    free(list);
    if (n == 0) {
        return 0;
    }
    if (depth == 0) {
        return dm_jgreedy(r, p, m);
    }
    dm_jsearch_result res;
    if (dm_jsearch(r, p, depth, &res, NULL) != DM_OK) {
        return 0;
    }
    *m = res.best;
    return 1;
}
