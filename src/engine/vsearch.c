/* SPDX-License-Identifier: MIT
 * engine/vsearch.c: the generic variant engine's search (vengine.h): iterative
 * deepening, principal variation search with a transposition table, quiescence
 * over compulsory captures, repetition draws, mate-distance scores. Moves come
 * from the generic rules core (dm_vmovegen_legal), so every move returned is one
 * of the root's legal moves. Single-threaded; deterministic for a given engine
 * state and a depth or node limit. */
#define _POSIX_C_SOURCE 200809L
#include <damier/vengine.h>

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { VT_EXACT = 1, VT_LOWER = 2, VT_UPPER = 3 };
#define VT_NO_MOVE 0xFFFFu
#define VS_INF 32000
#define VS_HIST_CAP (1 << 15)
#define VS_KEYS (DM_VENGINE_MAX_HISTORY + DM_VENGINE_MAX_PLY + 2)

typedef struct vt_entry {
    uint64_t key;
    int16_t score;
    int8_t depth;
    uint8_t flag;
    uint16_t move; /* index in the position's legal move list (deterministic) */
    uint16_t pad;
} vt_entry;

struct dm_vengine {
    atomic_int stop;
    vt_entry *tt;
    size_t tt_mask;
    int hist[DM_VMAX_SQUARES + 1][DM_VMAX_SQUARES + 1];
    /* Per search. */
    uint8_t killer[DM_VENGINE_MAX_PLY][2][2]; /* [ply][slot][from, to] */
    dm_vmovelist lists[DM_VENGINE_MAX_PLY + 1];
    uint64_t keys[VS_KEYS];
    int key_base;
    dm_vmove pv[DM_VENGINE_MAX_PLY + 1][DM_VENGINE_MAX_PV];
    int pv_len[DM_VENGINE_MAX_PLY + 1];
    uint64_t nodes;
    uint64_t node_limit;
    double start;
    double deadline;
    int seldepth;
    int can_abort;
    int aborted;
};

static double vs_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

dm_status dm_vengine_create(dm_vengine **out, int tt_mib)
{
    if (out == NULL || tt_mib < 0 || tt_mib > 4096) {
        return DM_EINVAL;
    }
    if (tt_mib == 0) {
        tt_mib = 16;
    }
    dm_vengine *e = calloc(1, sizeof *e);
    if (e == NULL) {
        return DM_ENOMEM;
    }
    size_t entries = 1;
    size_t want = (size_t)tt_mib * 1024u * 1024u / sizeof(vt_entry);
    while (entries * 2 <= want) {
        entries *= 2;
    }
    e->tt = calloc(entries, sizeof *e->tt);
    if (e->tt == NULL) {
        free(e);
        return DM_ENOMEM;
    }
    e->tt_mask = entries - 1;
    atomic_init(&e->stop, 0);
    *out = e;
    return DM_OK;
}

void dm_vengine_free(dm_vengine *e)
{
    if (e != NULL) {
        free(e->tt);
        free(e);
    }
}

void dm_vengine_clear(dm_vengine *e)
{
    memset(e->tt, 0, (e->tt_mask + 1) * sizeof *e->tt);
    memset(e->hist, 0, sizeof e->hist);
}

void dm_vengine_stop(dm_vengine *e)
{
    atomic_store(&e->stop, 1);
}

/* True when the search must return now (limits or stop request). */
static int vs_check(dm_vengine *e)
{
    if (e->aborted) {
        return 1;
    }
    if (!e->can_abort) {
        return 0;
    }
    if (atomic_load_explicit(&e->stop, memory_order_relaxed) ||
        (e->node_limit != 0 && e->nodes >= e->node_limit) ||
        ((e->nodes & 255u) == 0 && e->deadline > 0 && vs_now() >= e->deadline)) {
        e->aborted = 1;
    }
    return e->aborted;
}

/* Score of a position whose side to move has no legal move, by the variant's
 * result rule (dm_variant_result): normally a loss, in antidraughts a win. */
static int vs_terminal(const dm_vboard *b, int ply)
{
    dm_vresult r = dm_variant_result(b);
    int winner = r == DM_VRESULT_WHITE_WINS ? DM_WHITE : DM_BLACK;
    return winner == b->side ? DM_VSCORE_WIN - ply : -(DM_VSCORE_WIN - ply);
}

static int vs_to_tt(int s, int ply)
{
    return s >= DM_VSCORE_WIN_MIN ? s + ply : s <= -DM_VSCORE_WIN_MIN ? s - ply : s;
}

static int vs_from_tt(int s, int ply)
{
    return s >= DM_VSCORE_WIN_MIN ? s - ply : s <= -DM_VSCORE_WIN_MIN ? s + ply : s;
}

/* Move-ordering scores for list, best first by selection in the loops. */
static void vs_score_moves(const dm_vengine *e, const dm_vmovelist *list, int ply,
                           unsigned tt_move, int *sc)
{
    for (int i = 0; i < list->count; i++) {
        const dm_vmove *m = &list->moves[i];
        int s;
        if ((unsigned)i == tt_move) {
            s = 1 << 30;
        } else if (m->ncapt > 0) {
            s = (1 << 20) + m->ncapt * 1000 + (m->promote ? 500 : 0);
        } else if (m->promote) {
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

/* Index of the best-scored move not yet tried (ties: lowest index), marking it. */
static int vs_pick(int *sc, int count)
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

static void vs_pv_set(dm_vengine *e, int ply, const dm_vmove *m)
{
    e->pv[ply][0] = *m;
    int n = e->pv_len[ply + 1];
    if (n > DM_VENGINE_MAX_PV - 1) {
        n = DM_VENGINE_MAX_PV - 1;
    }
    memcpy(&e->pv[ply][1], e->pv[ply + 1], (size_t)n * sizeof(dm_vmove));
    e->pv_len[ply] = n + 1;
}

static int vs_qsearch(dm_vengine *e, const dm_vboard *b, int alpha, int beta, int ply)
{
    e->pv_len[ply] = 0;
    e->nodes++;
    if (ply > e->seldepth) {
        e->seldepth = ply;
    }
    if (vs_check(e)) {
        return 0;
    }
    dm_vmovelist *list = &e->lists[ply];
    if (dm_vmovegen_legal(list, b) == 0) {
        return vs_terminal(b, ply);
    }
    if (list->moves[0].ncapt == 0 || ply >= DM_VENGINE_MAX_PLY - 1) {
        return dm_vengine_evaluate(b); /* quiet: stand pat */
    }
    /* A capture is compulsory: no stand pat, every capture is searched. */
    int sc[DM_VMAX_MOVES];
    vs_score_moves(e, list, ply, VT_NO_MOVE, sc);
    int best = -VS_INF;
    for (int k = 0; k < list->count; k++) {
        int i = vs_pick(sc, list->count);
        dm_vboard child = *b;
        dm_vboard_apply(&child, &list->moves[i]);
        int s = -vs_qsearch(e, &child, -beta, -alpha, ply + 1);
        if (e->aborted) {
            return 0;
        }
        if (s > best) {
            best = s;
            if (s > alpha) {
                alpha = s;
                vs_pv_set(e, ply, &list->moves[i]);
                if (s >= beta) {
                    break;
                }
            }
        }
    }
    return best;
}

/* True when key (this node, at keys[n]) repeats a position within the last rev
 * reversible plies with the same side to move. */
static int vs_repeats(const dm_vengine *e, int n, int rev)
{
    for (int i = n - 2; i >= 0 && i >= n - rev; i -= 2) {
        if (e->keys[i] == e->keys[n]) {
            return 1;
        }
    }
    return 0;
}

static int vs_search(dm_vengine *e, const dm_vboard *b, int depth, int alpha, int beta,
                     int ply, int rev)
{
    int n = e->key_base + ply;
    e->pv_len[ply] = 0;
    if (ply > 0 && vs_repeats(e, n, rev)) {
        return 0;
    }
    if (depth <= 0 || ply >= DM_VENGINE_MAX_PLY - 1) {
        return vs_qsearch(e, b, alpha, beta, ply);
    }
    e->nodes++;
    if (vs_check(e)) {
        return 0;
    }
    dm_vmovelist *list = &e->lists[ply];
    if (dm_vmovegen_legal(list, b) == 0) {
        return vs_terminal(b, ply);
    }
    /* Mate-distance pruning. */
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
        int ts = vs_from_tt(te->score, ply);
        if (ply > 0 && !pv_node && te->depth >= depth &&
            (te->flag == VT_EXACT || (te->flag == VT_LOWER && ts >= beta) ||
             (te->flag == VT_UPPER && ts <= alpha))) {
            return ts;
        }
    }
    int sc[DM_VMAX_MOVES];
    vs_score_moves(e, list, ply, tt_move, sc);
    /* One legal move: no choice, look one ply deeper at no cost in breadth. */
    int ext = (list->count == 1 && ply < 2 * DM_VENGINE_MAX_DEPTH / 3) ? 1 : 0;
    int alpha0 = alpha;
    int best = -VS_INF;
    int best_i = -1;
    for (int k = 0; k < list->count; k++) {
        int i = vs_pick(sc, list->count);
        const dm_vmove *m = &list->moves[i];
        int irreversible = m->ncapt > 0 || b->sq[m->from] == DM_WHITE_MAN ||
                           b->sq[m->from] == DM_BLACK_MAN;
        dm_vboard child = *b;
        dm_vboard_apply(&child, m);
        e->keys[n + 1] = dm_vboard_hash(&child);
        int crev = irreversible ? 0 : rev + 1;
        int d = depth - 1 + ext;
        int s;
        if (k == 0) {
            s = -vs_search(e, &child, d, -beta, -alpha, ply + 1, crev);
        } else {
            s = -vs_search(e, &child, d, -alpha - 1, -alpha, ply + 1, crev);
            if (!e->aborted && s > alpha && s < beta) {
                s = -vs_search(e, &child, d, -beta, -alpha, ply + 1, crev);
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
                vs_pv_set(e, ply, m);
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
    te->score = (int16_t)vs_to_tt(best, ply);
    te->depth = (int8_t)depth;
    te->flag = best >= beta ? VT_LOWER : best > alpha0 ? VT_EXACT : VT_UPPER;
    te->move = (uint16_t)best_i;
    return best;
}

dm_status dm_vengine_search(dm_vsearch_result *out, dm_vengine *e,
                            const dm_vsearch_input *in, const dm_vlimits *lim,
                            dm_vinfo_fn on_info, void *payload, dm_error *err)
{
    if (out == NULL || e == NULL || in == NULL || lim == NULL || in->root.variant == NULL) {
        return dm_error_set(err, DM_EINVAL, 0, 0, "vengine: NULL argument");
    }
    dm_status st = dm_vboard_validate(&in->root, err);
    if (st != DM_OK) {
        return st;
    }
    memset(out, 0, sizeof *out);
    atomic_store(&e->stop, 0);
    memset(e->killer, 0, sizeof e->killer);
    e->nodes = 0;
    e->seldepth = 0;
    e->aborted = 0;
    e->can_abort = 0;
    e->node_limit = lim->nodes;
    e->start = vs_now();
    e->deadline = lim->move_time > 0 ? e->start + lim->move_time : 0;

    int hc = in->history != NULL && in->history_count > 0 ? in->history_count : 0;
    const uint64_t *hist = in->history;
    if (hc > DM_VENGINE_MAX_HISTORY) {
        hist += hc - DM_VENGINE_MAX_HISTORY;
        hc = DM_VENGINE_MAX_HISTORY;
    }
    if (hc > 0) {
        memcpy(e->keys, hist, (size_t)hc * sizeof(uint64_t));
    }
    e->key_base = hc;
    e->keys[hc] = dm_vboard_hash(&in->root);

    dm_vmovelist *root_list = &e->lists[0];
    int root_count = dm_vmovegen_legal(root_list, &in->root);
    if (root_count == 0) {
        out->score = vs_terminal(&in->root, 0);
        out->time = vs_now() - e->start;
        return DM_OK;
    }
    out->has_move = 1;
    out->best = root_list->moves[0];

    int max_depth = lim->depth > 0 && lim->depth < DM_VENGINE_MAX_DEPTH ? lim->depth
                                                                       : DM_VENGINE_MAX_DEPTH;
    dm_vinfo info;
    for (int depth = 1; depth <= max_depth; depth++) {
        e->can_abort = depth > 1;
        int score = vs_search(e, &in->root, depth, -VS_INF, VS_INF, 0, hc);
        if (e->aborted) {
            break;
        }
        if (e->pv_len[0] > 0) {
            out->best = e->pv[0][0];
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
            info.pv_count = e->pv_len[0];
            memcpy(info.pv, e->pv[0], (size_t)info.pv_count * sizeof(dm_vmove));
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
    return DM_OK;
}
