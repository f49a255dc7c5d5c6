/* SPDX-License-Identifier: MIT
 * engine/vsearch_impl.h: the variant engine's search (vengine.h), written once over
 * the bitboard geometry of core/gen_geom.h and the generator of core/gen_impl.h
 * (fast move order). Include it per rules instantiation after gen_geom.h and a
 * GEN_RECORD 0 instantiation of gen_impl.h, with VS_RS the generator's suffix
 * (fmjd_, rus_, eng_, dyn_): its GEN_RULES_CONST rules are folded into the
 * search's generator calls too when VS_RULES_CONST repeats them. Defines V(run), V = vs<N><VS_RS>.
 *
 * Iterative deepening; principal variation search (PVS) with a transposition table
 * (TT); quiescence over compulsory captures (no stand pat while a capture is
 * pending); ordering by TT move, captures, promotions, two killers, history; a
 * one-legal-move extension; mate-distance pruning; repetition draws within the
 * reversible plies (same keys as dm_vboard_hash, so the caller's history counts);
 * the variant's counting draw rules (moves without progress or capture, material
 * against a lone king) with core/drawrule.h's counters, the code dm_variant_draw
 * uses; Frisian's king-move limit (FR 17) at every node.
 * The static evaluation is the variant evaluation of veval.c (the same numbers),
 * computed on bitboards. Moves are XOR deltas; only the root's best move and the
 * PVs are converted to dm_vmove (with PDN paths), by matching against the generic
 * core's legal moves, so every move returned is one of the root's legal moves. */
#ifndef GEN_N
#error "include gen_geom.h and gen_impl.h first"
#endif

#include <stdlib.h>
#include <string.h>

#define V(x) GEN_CAT(GEN_CAT(GEN_CAT(vs, GEN_N), VS_RS), x)
#ifdef VS_RULES_CONST
#define VS_R(w) VS_RULES_CONST
#else
#define VS_R(w) ((w)->rules)
#endif
#define VS_GEN(x) GEN_CAT(GEN_CAT(GEN_PREFIX, VS_RS), x)

/* Per-search work area (heap: 12x12 lists are large). */
typedef struct V(work) {
    GEN_LIST lists[DM_VENGINE_MAX_PLY + 1];
    GEN_MOVE pv[DM_VENGINE_MAX_PLY + 1][DM_VENGINE_MAX_PV];
    int pv_len[DM_VENGINE_MAX_PLY + 1];
    gen_rules rules;
    const dm_variant *v;
    int king_value;            /* hundredths of a man */
    int reversed;              /* antidraughts: fewer pieces is better */
    int race;                  /* breakthrough: 2 * rows advanced squared per man (veval.c) */
    const dm_draw_rules *draw; /* the draw rules applied in the tree (core/drawrule.h) */
    dr_limits limits;          /* their thresholds in plies */
    int counting;              /* draw has a counting rule (moves, material) */
    int material;              /* draw has a material rule (against a lone king) */
    int king_limit;            /* Frisian FR 17: variant->king_move_limit, or 0 */
} V(work);

/* What the draw rules and FR 17 need to know of the path to a node. */
typedef struct V(dstate) {
    dr_state c;            /* the counting rules' counters */
    uint8_t king_sq[2];    /* FR 17, as dm_vboard.king_sq: the king that made a */
    uint8_t king_moves[2]; /* side's last quiet moves and how many in a row */
} V(dstate);

/* The splitmix64 finaliser of dm_vboard_hash. */
GEN_ALWAYS uint64_t V(mix)(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

/* dm_piece on bit b of pos (DM_EMPTY when none). */
GEN_ALWAYS int V(piece_at)(const GEN_POS *pos, int b)
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

/* dm_vboard_hash's term of piece p on bit b (0 for an empty square). */
GEN_ALWAYS uint64_t V(term)(int p, int b)
{
    return p ? V(mix)(((uint64_t)p << 8) | (uint64_t)P(bit_to_sq)(b)) : 0;
}

/* The key of child = parent after m (parent's key pk): the terms of the squares m
 * changes, and the side. Equal to dm_vboard_hash of the child. */
GEN_ALWAYS uint64_t V(child_key)(uint64_t pk, const GEN_POS *parent, const GEN_POS *child,
                                 const GEN_MOVE *m)
{
    uint64_t h = pk ^ 0xA5A5F00DCAFEBEEFull;
    for (GEN_BB x = m->own | m->capt | m->kings; x;) {
        int b = P(pop)(&x);
        h ^= V(term)(V(piece_at)(parent, b), b) ^ V(term)(V(piece_at)(child, b), b);
    }
    return h;
}

/* Squares of row r (0 = squares 1..h, White's far side). */
GEN_ALWAYS GEN_BB V(row)(int r)
{
    return ((GEN_ONE << GEN_H) - 1) << (r * GEN_H + r / 2);
}

/* Static score for the side to move, hundredths of a man: dm_vengine_evaluate's
 * terms (material; men: 3 per row advanced, 6 on their own back row; kings: 2 per
 * step nearer the centre; breakthrough: 2 per man times its rows advanced squared;
 * antidraughts: reversed material and piece count). */
static int V(evaluate)(const V(work) * w, const GEN_POS *pos)
{
    int material[2], positional[2] = {0, 0}, pieces[2];
    for (int c = 0; c < 2; c++) {
        GEN_BB men = pos->pieces[c] & ~pos->kings, kings = pos->pieces[c] & pos->kings;
        int nm = P(count)(men), nk = P(count)(kings);
        pieces[c] = nm + nk;
        material[c] = 100 * nm + w->king_value * nk;
        if (w->reversed) {
            continue;
        }
        for (int r = 0; r < GEN_N; r++) {
            int adv = c == DM_WHITE ? GEN_N - 1 - r : r;
            int k = P(count)(men & V(row)(r));
            positional[c] += 3 * adv * k + (adv == 0 ? 6 * k : 0) + w->race * adv * adv * k;
        }
        for (GEN_BB x = kings; x;) {
            int sq = P(bit_to_sq)(P(pop)(&x));
            int r = (sq - 1) / GEN_H, col = 2 * ((sq - 1) % GEN_H) + ((r & 1) ? 0 : 1);
            int dr = 2 * r - (GEN_N - 1), dc = 2 * col - (GEN_N - 1);
            int dist = ((dr < 0 ? -dr : dr) + (dc < 0 ? -dc : dc)) / 2;
            positional[c] += 2 * (GEN_N - 1 - dist);
        }
    }
    int us = pos->side, them = us ^ 1;
    if (w->reversed) {
        return (material[them] - material[us]) + 2 * (pieces[them] - pieces[us]);
    }
    return (material[us] - material[them]) + (positional[us] - positional[them]);
}

/* Score of a position whose side to move has no legal move (dm_variant_result):
 * a loss, in antidraughts a win. */
GEN_ALWAYS int V(terminal)(const V(work) * w, int ply)
{
    return w->reversed ? DM_VSCORE_WIN - ply : -(DM_VSCORE_WIN - ply);
}

static int V(to_tt)(int s, int ply)
{
    return s >= DM_VSCORE_WIN_MIN ? s + ply : s <= -DM_VSCORE_WIN_MIN ? s - ply : s;
}

static int V(from_tt)(int s, int ply)
{
    return s >= DM_VSCORE_WIN_MIN ? s - ply : s <= -DM_VSCORE_WIN_MIN ? s + ply : s;
}

/* Move-ordering scores of list (picked best first, ties lowest index). */
static void V(score_moves)(const dm_vengine *e, const GEN_POS *pos, const GEN_LIST *list, int ply,
                           unsigned tt_move, int *sc)
{
    for (int i = 0; i < list->count; i++) {
        const GEN_MOVE *m = &list->moves[i];
        int promote = (m->kings & P(bit)(P(sq_to_bit)(m->to))) &&
                      !(pos->kings & P(bit)(P(sq_to_bit)(m->from)));
        int s;
        if ((unsigned)i == tt_move) {
            s = 1 << 30;
        } else if (m->ncapt > 0) {
            s = (1 << 20) + m->ncapt * 1000 + (promote ? 500 : 0);
        } else if (promote) {
            s = 1 << 19;
        } else if (ply < DM_VENGINE_MAX_PLY && e->killer[ply][0][0] == m->from &&
                   e->killer[ply][0][1] == m->to) {
            s = 1 << 18;
        } else if (ply < DM_VENGINE_MAX_PLY && e->killer[ply][1][0] == m->from &&
                   e->killer[ply][1][1] == m->to) {
            s = 1 << 17;
        } else {
            s = e->hist[m->from][m->to];
        }
        sc[i] = s;
    }
}

static int V(pick)(int *sc, int count)
{
    int best = -1;
    for (int i = 0; i < count; i++) {
        if (sc[i] != INT32_MIN && (best < 0 || sc[i] > sc[best])) {
            best = i;
        }
    }
    if (best >= 0) {
        sc[best] = INT32_MIN;
    }
    return best;
}

static void V(pv_set)(V(work) * w, int ply, const GEN_MOVE *m)
{
    w->pv[ply][0] = *m;
    int n = w->pv_len[ply + 1];
    if (n > DM_VENGINE_MAX_PV - 1) {
        n = DM_VENGINE_MAX_PV - 1;
    }
    memcpy(&w->pv[ply][1], w->pv[ply + 1], (size_t)n * sizeof(GEN_MOVE));
    w->pv_len[ply] = n + 1;
}

/* Frisian's king-move limit (FR 17): the blocked king's ordinary moves leave the
 * list, at every node of the tree (V(blocked) gives the square). */
static void V(drop_blocked)(GEN_LIST *list, int sq)
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

/* dr_kind of pos under w's draw rules. */
GEN_ALWAYS int V(material_kind)(const V(work) * w, const GEN_POS *pos)
{
    GEN_BB wp = pos->pieces[DM_WHITE], bp = pos->pieces[DM_BLACK];
    if ((wp & (wp - 1)) && (bp & (bp - 1))) {
        return DM_VDRAW_NONE; /* no lone piece: no material rule */
    }
    int wn = P(count)(wp), bn = P(count)(bp);
    int wk = P(count)(wp & pos->kings), bk = P(count)(bp & pos->kings);
    return dr_kind(w->draw, wn - wk, wk, bn - bk, bk);
}

/* FR 17 at pos (dm_vgen_blocked_king on bitboards): the square of the king of the
 * side to move that may not make another quiet move, or 0. */
GEN_ALWAYS int V(blocked)(const V(work) * w, const GEN_POS *pos, const V(dstate) * ds)
{
    int c = pos->side, ks = ds->king_sq[c];
    if (!w->king_limit || ds->king_moves[c] < w->king_limit || ks < 1 || ks > GEN_N * GEN_N / 2) {
        return 0;
    }
    GEN_BB own = pos->pieces[c];
    if (!(own & pos->kings & P(bit)(P(sq_to_bit)(ks))) || !(own & ~pos->kings)) {
        return 0; /* no longer that king, or only kings left: not bound */
    }
    return ks;
}

/* The state of child = pos after m: the counters stepped by dr_step (as
 * dm_variant_draw steps them from the game's moves) and FR 17's counters as
 * dm_vboard_apply keeps them. */
GEN_ALWAYS void V(child_state)(const V(work) * w, V(dstate) * out, const V(dstate) * ds,
                               const GEN_POS *pos, const GEN_POS *child, const GEN_MOVE *m)
{
    int man = !(pos->kings & P(bit)(P(sq_to_bit)(m->from)));
    int capture = m->ncapt > 0;
    /* without a capture, a man's move changes kings only by its promotion */
    int promotion = man && m->kings != 0;
    int kind = w->material ? V(material_kind)(w, child) : DM_VDRAW_NONE;
    dr_step(&out->c, &ds->c, w->draw, man, capture, promotion, kind);
    if (w->king_limit) {
        memcpy(out->king_sq, ds->king_sq, sizeof out->king_sq);
        memcpy(out->king_moves, ds->king_moves, sizeof out->king_moves);
        int c = pos->side;
        if (!capture && !man) {
            out->king_moves[c] = ds->king_sq[c] == m->from && ds->king_moves[c] < 255
                                     ? (uint8_t)(ds->king_moves[c] + 1)
                                     : 1;
            out->king_sq[c] = m->to;
        } else {
            out->king_moves[c] = 0;
            out->king_sq[c] = 0;
        }
    }
}

/* The state of the root from the caller's counters (dm_vsearch_input.draw_count). */
static void V(root_state)(const V(work) * w, V(dstate) * ds, const GEN_POS *root,
                          const dm_vsearch_input *in)
{
    int kind = w->material ? V(material_kind)(w, root) : DM_VDRAW_NONE;
    dr_start(&ds->c, kind);
    const dm_vdraw_count *dc = &in->draw_count;
    ds->c.reversible = dc->reversible_plies > 0 ? dc->reversible_plies : 0;
    ds->c.no_capture = dc->no_capture_plies > 0 ? dc->no_capture_plies : 0;
    if (kind != DM_VDRAW_NONE && dc->material_plies > 0) {
        ds->c.material = dc->material_plies;
    }
    for (int c = 0; c < 2; c++) {
        ds->king_sq[c] = in->root.king_sq[c];
        ds->king_moves[c] = in->root.king_moves[c];
    }
}

/* Quiescence: stand pat on a quiet position, every capture otherwise. */
static int V(qsearch)(dm_vengine *e, V(work) * w, const GEN_POS *pos, int alpha, int beta, int ply)
{
    w->pv_len[ply] = 0;
    e->nodes++;
    if (ply > e->seldepth) {
        e->seldepth = ply;
    }
    if (vs_check(e)) {
        return 0;
    }
    GEN_LIST *list = &w->lists[ply];
    if (VS_GEN(legal)(list, pos, VS_R(w)) == 0) {
        return V(terminal)(w, ply);
    }
    if (list->moves[0].ncapt == 0 || ply >= DM_VENGINE_MAX_PLY - 1) {
        return V(evaluate)(w, pos);
    }
    int sc[GEN_MAX_MOVES];
    V(score_moves)(e, pos, list, ply, VT_NO_MOVE, sc);
    int best = -VS_INF;
    for (int k = 0; k < list->count; k++) {
        int i = V(pick)(sc, list->count);
        GEN_POS child = *pos;
        P(make)(&child, &list->moves[i]);
        int s = -V(qsearch)(e, w, &child, -beta, -alpha, ply + 1);
        if (e->aborted) {
            return 0;
        }
        if (s > best) {
            best = s;
            if (s > alpha) {
                alpha = s;
                V(pv_set)(w, ply, &list->moves[i]);
                if (s >= beta) {
                    break;
                }
            }
        }
    }
    return best;
}

/* True when keys[n] repeats a position within the last rev reversible plies with
 * the same side to move. */
static int V(repeats)(const dm_vengine *e, int n, int rev)
{
    for (int i = n - 2; i >= 0 && i >= n - rev; i -= 2) {
        if (e->keys[i] == e->keys[n]) {
            return 1;
        }
    }
    return 0;
}

/* PVS to depth plies (then quiescence); rev: reversible plies before this node
 * (the repetition window), ds: the draw rules' counters and FR 17's. */
static int V(search)(dm_vengine *e, V(work) * w, const GEN_POS *pos, int depth, int alpha, int beta,
                     int ply, int rev, const V(dstate) * ds)
{
    int n = e->key_base + ply;
    w->pv_len[ply] = 0;
    if (ply > 0 && V(repeats)(e, n, rev)) {
        return 0;
    }
    if (ply > 0 && w->counting && dr_verdict_limits(&w->limits, &ds->c) != DM_VDRAW_NONE) {
        return 0; /* drawn by a counting rule of the variant (dm_variant_draw) */
    }
    if (depth <= 0 || ply >= DM_VENGINE_MAX_PLY - 1) {
        return V(qsearch)(e, w, pos, alpha, beta, ply);
    }
    e->nodes++;
    if (vs_check(e)) {
        return 0;
    }
    GEN_LIST *list = &w->lists[ply];
    if (VS_GEN(legal)(list, pos, VS_R(w)) == 0) {
        return V(terminal)(w, ply);
    }
    int block = V(blocked)(w, pos, ds);
    if (block) {
        V(drop_blocked)(list, block);
        if (list->count == 0) {
            return V(terminal)(w, ply); /* only the blocked king could move */
        }
    }
    int mate_hi = DM_VSCORE_WIN - ply - 1;
    if (ply > 0 && alpha >= mate_hi) {
        return alpha;
    }
    uint64_t key = e->keys[n];
    vt_entry *te = &e->tt[key & e->tt_mask];
    unsigned tt_move = VT_NO_MOVE;
    int pv_node = beta - alpha > 1;
    if (te->key == key) {
        if (te->move < (unsigned)list->count) {
            tt_move = te->move;
        }
        int ts = V(from_tt)(te->score, ply);
        if (ply > 0 && !pv_node && te->depth >= depth &&
            (te->flag == VT_EXACT || (te->flag == VT_LOWER && ts >= beta) ||
             (te->flag == VT_UPPER && ts <= alpha))) {
            return ts;
        }
    }
    int sc[GEN_MAX_MOVES];
    V(score_moves)(e, pos, list, ply, tt_move, sc);
    int ext = (list->count == 1 && ply < 2 * DM_VENGINE_MAX_DEPTH / 3) ? 1 : 0;
    int alpha0 = alpha;
    int best = -VS_INF;
    int best_i = -1;
    for (int k = 0; k < list->count; k++) {
        int i = V(pick)(sc, list->count);
        const GEN_MOVE *m = &list->moves[i];
        int irreversible = m->ncapt > 0 || !(pos->kings & P(bit)(P(sq_to_bit)(m->from)));
        GEN_POS child = *pos;
        P(make)(&child, m);
        e->keys[n + 1] = V(child_key)(key, pos, &child, m);
        int crev = irreversible ? 0 : rev + 1;
        V(dstate) cds;
        V(child_state)(w, &cds, ds, pos, &child, m);
        int d = depth - 1 + ext;
        int s;
        if (k == 0) {
            s = -V(search)(e, w, &child, d, -beta, -alpha, ply + 1, crev, &cds);
        } else {
            s = -V(search)(e, w, &child, d, -alpha - 1, -alpha, ply + 1, crev, &cds);
            if (!e->aborted && s > alpha && s < beta) {
                s = -V(search)(e, w, &child, d, -beta, -alpha, ply + 1, crev, &cds);
            }
        }
        if (e->aborted) {
            return 0;
        }
        if (s > best) {
            best = s;
            best_i = i;
            if (s > alpha) {
                alpha = s;
                V(pv_set)(w, ply, m);
                if (s >= beta) {
                    if (m->ncapt == 0 && ply < DM_VENGINE_MAX_PLY) {
                        if (e->killer[ply][0][0] != m->from || e->killer[ply][0][1] != m->to) {
                            e->killer[ply][1][0] = e->killer[ply][0][0];
                            e->killer[ply][1][1] = e->killer[ply][0][1];
                            e->killer[ply][0][0] = m->from;
                            e->killer[ply][0][1] = m->to;
                        }
                        int *h = &e->hist[m->from][m->to];
                        *h += depth * depth;
                        if (*h >= VS_HIST_CAP) {
                            for (int x = 0; x <= DM_VMAX_SQUARES; x++) {
                                for (int y = 0; y <= DM_VMAX_SQUARES; y++) {
                                    e->hist[x][y] /= 2;
                                }
                            }
                        }
                    }
                    break;
                }
            }
        }
    }
    te->key = key;
    te->score = (int16_t)V(to_tt)(best, ply);
    te->depth = (int8_t)depth;
    te->flag = best >= beta ? VT_LOWER : best > alpha0 ? VT_EXACT : VT_UPPER;
    te->move = (uint16_t)best_i;
    return best;
}

/* The captured squares of a generic move as a bitset of this geometry. */
static GEN_BB V(capt_bits)(const dm_vmove *x)
{
    GEN_BB capt = 0;
    for (int sq = 1; sq <= GEN_N * GEN_N / 2; sq++) {
        if ((x->capt[(sq - 1) / 64] >> ((sq - 1) % 64)) & 1) {
            capt |= P(bit)(P(sq_to_bit)(sq));
        }
    }
    return capt;
}

/* The generic core's move of b equal to m (same from, to and captured set), or -1. */
static int V(to_vmove)(dm_vmove *out, const dm_vboard *b, const GEN_MOVE *m)
{
    dm_vmovelist list;
    dm_vmovegen_legal(&list, b);
    for (int i = 0; i < list.count; i++) {
        const dm_vmove *x = &list.moves[i];
        if (x->from != m->from || x->to != m->to || x->ncapt != m->ncapt) {
            continue;
        }
        if (V(capt_bits)(x) == m->capt) {
            *out = *x;
            return 0;
        }
    }
    return -1;
}

/* The PV from the root as dm_vmoves (stops at a move that does not convert). */
static int V(pv_out)(dm_vmove *out, const V(work) * w, const dm_vboard *root)
{
    dm_vboard b = *root;
    int n = 0;
    for (; n < w->pv_len[0]; n++) {
        if (V(to_vmove)(&out[n], &b, &w->pv[0][n]) != 0) {
            break;
        }
        dm_vboard_apply(&b, &out[n]);
    }
    return n;
}

/* The rules, evaluation weights and draw rules of the search of in. */
static void V(setup)(V(work) * w, const dm_vsearch_input *in)
{
    w->v = in->root.variant;
    w->rules = gen_rules_of(w->v);
    w->king_value = w->v->flying_kings ? 300 : 150;
    w->reversed = w->v->reversed_result != 0;
    w->race = w->v->win_on_promotion ? 2 : 0;
    w->draw = in->draw != NULL ? in->draw : &w->v->draw;
    w->material = dr_material_limit(w->draw, DM_VDRAW_THREE_VS_KING) > 0 ||
                  dr_material_limit(w->draw, DM_VDRAW_TWO_VS_KING) > 0 ||
                  dr_material_limit(w->draw, DM_VDRAW_KING_VS_KING) > 0;
    w->counting = w->material || dr_reversible_limit(w->draw) > 0 || w->draw->no_capture_moves > 0;
    w->king_limit = w->v->king_move_limit;
    dr_limits_of(&w->limits, w->draw);
}

/* dm_vsearch<N>_draw_walk (vsearch_int.h): the search's own per-node code
 * (V(child_state), dr_verdict, V(blocked)) along moves[0..n-1] from in->root. */
static int V(draw_walk)(const dm_vsearch_input *in, const dm_vmove *moves, int n, int *verdict,
                        int *blocked)
{
    V(work) *w = malloc(sizeof *w);
    if (w == NULL) {
        return -1;
    }
    V(setup)(w, in);
    GEN_POS pos;
    memset(&pos, 0, sizeof pos);
    P(from_vboard)(&pos, &in->root);
    V(dstate) ds;
    V(root_state)(w, &ds, &pos, in);
    int i = 0;
    for (;; i++) {
        verdict[i] = w->counting ? dr_verdict_limits(&w->limits, &ds.c) : DM_VDRAW_NONE;
        blocked[i] = V(blocked)(w, &pos, &ds);
        if (i == n) {
            break;
        }
        GEN_LIST *list = &w->lists[0];
        VS_GEN(legal)(list, &pos, VS_R(w));
        const GEN_MOVE *m = NULL;
        GEN_BB capt = V(capt_bits)(&moves[i]);
        for (int k = 0; k < list->count && !m; k++) {
            const GEN_MOVE *x = &list->moves[k];
            if (x->from == moves[i].from && x->to == moves[i].to && x->capt == capt) {
                m = x;
            }
        }
        if (m == NULL) {
            break; /* not a legal move of the position */
        }
        GEN_POS child = pos;
        P(make)(&child, m);
        V(dstate) cds;
        V(child_state)(w, &cds, &ds, &pos, &child, m);
        pos = child;
        ds = cds;
    }
    free(w);
    return i;
}

/* dm_vsearch<N>_run (vsearch_int.h) for this rules instantiation. */
static dm_status V(run)(dm_vsearch_result *out, dm_vengine *e, const dm_vsearch_input *in,
                        const dm_vlimits *lim, dm_vinfo_fn on_info, void *payload)
{
    V(work) *w = malloc(sizeof *w);
    if (w == NULL) {
        return DM_ENOMEM;
    }
    V(setup)(w, in);
    GEN_POS root;
    memset(&root, 0, sizeof root);
    P(from_vboard)(&root, &in->root);
    V(dstate) ds;
    V(root_state)(w, &ds, &root, in);

    GEN_LIST *root_list = &w->lists[0];
    int root_count = VS_GEN(legal)(root_list, &root, VS_R(w));
    int block = V(blocked)(w, &root, &ds);
    if (block) {
        V(drop_blocked)(root_list, block);
        root_count = root_list->count;
    }
    if (root_count == 0) {
        out->score = V(terminal)(w, 0);
        out->time = vs_now() - e->start;
        free(w);
        return DM_OK;
    }
    out->has_move = 1;
    V(to_vmove)(&out->best, &in->root, &root_list->moves[0]);

    int max_depth =
        lim->depth > 0 && lim->depth < DM_VENGINE_MAX_DEPTH ? lim->depth : DM_VENGINE_MAX_DEPTH;
    dm_vinfo info;
    for (int depth = 1; depth <= max_depth; depth++) {
        e->can_abort = depth > 1;
        int score = V(search)(e, w, &root, depth, -VS_INF, VS_INF, 0, e->key_base, &ds);
        if (e->aborted) {
            break;
        }
        if (w->pv_len[0] > 0) {
            V(to_vmove)(&out->best, &in->root, &w->pv[0][0]);
        }
        out->score = score;
        out->depth = depth;
        double t = vs_now() - e->start;
        if (on_info != NULL) {
            memset(&info, 0, sizeof info);
            info.depth = depth;
            info.seldepth = e->seldepth;
            info.score = score;
            info.nodes = e->nodes;
            info.time = t;
            info.nps = t > 0 ? (double)e->nodes / t : 0;
            info.pv_count = V(pv_out)(info.pv, w, &in->root);
            on_info(&info, payload);
        }
        /* A forced end found within this depth will not change. */
        int abs_score = score < 0 ? -score : score;
        if (abs_score >= DM_VSCORE_WIN_MIN && DM_VSCORE_WIN - abs_score <= depth) {
            break;
        }
        if (e->deadline > 0) {
            if (root_count == 1) {
                break;
            }
            /* The next iteration would most likely not finish in time. */
            if (t > 0.5 * lim->move_time) {
                break;
            }
        }
        if (atomic_load(&e->stop)) {
            break;
        }
    }
    out->nodes = e->nodes;
    out->time = vs_now() - e->start;
    free(w);
    return DM_OK;
}

#undef V
#undef VS_GEN
#undef VS_RS
#undef VS_R
#ifdef VS_RULES_CONST
#undef VS_RULES_CONST
#endif
