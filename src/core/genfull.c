/* SPDX-License-Identifier: MIT
 * core/genfull.c: the move generator of the full 8x8 board (dm_variant.geometry ==
 * DM_GEOM_FULL: Turkish draughts). One bit per square, bit = square - 1 (bit 0 = a8,
 * bit 63 = h1); the four steps are orthogonal: north -8 (White's forward), south +8
 * (Black's forward), west -1 and east +1, masked at the a and h files.
 *
 * Why a file of its own and not an instantiation of gen_geom.h + gen_impl.h: that
 * template is built on diagonal rays over a layout with ghost bits (n*n/2 squares,
 * steps n/2 and n/2 + 1) and keeps captured pieces on the board until the move ends
 * (the Turkish strike); here every step, every ray and the capture rule differ (men
 * step sideways, pieces leave the board as they are jumped, a king may not turn back
 * between two jumps). A geometry hook in the template would have put run-time tests
 * or a second set of rules into the hot international, Russian and English code;
 * a separate generator leaves their generated code unchanged (bench signature
 * 4763437 and perft speed unchanged) and this one stays short. The rules are read
 * from the variant (gen_rules: precedence and promotion), the rest is Turkish.
 *
 * Rules (en.wikipedia.org "Turkish draughts", the kish crate, pydraughts; sources in
 * docs/VARIANTS.md): a man moves one square forward or sideways to an empty square
 * and captures forward or sideways by jumping an adjacent enemy piece to the empty
 * square right behind it; a king moves any distance along a rank or file and
 * captures a piece at any distance over empty squares, landing on any empty square
 * beyond; each captured piece is removed as it is jumped (its square may be crossed
 * again); a king may not reverse direction (180 degrees) between two jumps; the
 * capture of the most pieces is compulsory, a king counting one (precedence COUNT;
 * NONE also works); a man reaching the last rank during a capture goes on as a man
 * and is crowned if the move ends there (DM_PROMOTE_AT_END; CONTINUE_KING makes it
 * go on as a king, the conflicting reading). Captures with the same from, to and
 * captured set are one move (the first path found is kept). */
#include "core/move10.h"
#include <damier/variant.h>

#include <string.h>

#include "core/gen.h"
#include "core/variant_int.h"

#define FILE_A UINT64_C(0x0101010101010101)
#define FILE_H UINT64_C(0x8080808080808080)
#define RANK_8 UINT64_C(0x00000000000000FF) /* White's crowning rank: bits 0-7 */
#define RANK_1 UINT64_C(0xFF00000000000000) /* Black's: bits 56-63 */
#define BIT(b) (UINT64_C(1) << (b))

enum {
    DIR_N = 0,
    DIR_S = 1,
    DIR_W = 2,
    DIR_E = 3
}; /* the reverse of d is d ^ 1 */

typedef struct fpos {
    uint64_t pc[2]; /* pieces by colour (dm_color) */
    uint64_t kings;
    int side;
} fpos;

typedef struct fmove {
    uint64_t capt;
    uint8_t from, to, ncapt, promote;
} fmove;

/* The next square from bit b in direction d, or -1 off the board. */
static inline int step(int b, int d)
{
    switch (d) {
        case DIR_N:
            return b >= 8 ? b - 8 : -1;
        case DIR_S:
            return b < 56 ? b + 8 : -1;
        case DIR_W:
            return (b & 7) ? b - 1 : -1;
        default:
            return (b & 7) != 7 ? b + 1 : -1;
    }
}

static inline uint64_t promo_rank(int side)
{
    return side == DM_WHITE ? RANK_8 : RANK_1;
}

/* The capture search's state. */
typedef struct fgen {
    uint64_t opp;   /* enemy pieces still on the board */
    uint64_t empty; /* empty squares (the start square and the pieces taken so far) */
    int side, precedence, promotion;
    int all;  /* 1: every capture, ignoring the precedence (error messages) */
    int keep; /* 1: every capture path is a move of its own (kish's perft counting) */
    int best; /* most pieces taken by a listed capture */
    int count, overflow, cap;
    fmove *moves;
    /* record mode: PDN paths per listed move (NULL: none) */
    uint8_t (*paths)[DM_MAX_CAPT];
    /* the capture being built */
    int from, n;
    int man_start; /* the capturing piece is a man */
    uint64_t capt;
    uint8_t cdir[DM_MAX_CAPT]; /* direction of each jump */
    uint8_t csq[DM_MAX_CAPT];  /* bit of each captured piece */
    uint8_t land[DM_MAX_CAPT]; /* bit landed on after each jump */
} fgen;

static void add_capture(fgen *g, int to, int promote)
{
    if (!g->all && g->precedence == DM_PREC_COUNT) {
        if (g->n < g->best) {
            return;
        }
        if (g->n > g->best) {
            g->best = g->n;
            g->count = 0;
            g->overflow = 0;
        }
    }
    for (int i = 0; i < g->count && !g->keep; i++) {
        const fmove *x = &g->moves[i];
        if (x->capt == g->capt && x->to == to && x->from == g->from) {
            return; /* the same move by another path */
        }
    }
    if (g->count >= g->cap) {
        g->overflow = 1;
        return;
    }
    fmove *m = &g->moves[g->count];
    m->capt = g->capt;
    m->from = (uint8_t)g->from;
    m->to = (uint8_t)to;
    m->ncapt = (uint8_t)g->n;
    m->promote = (uint8_t)promote;
    if (g->paths) {
        /* PDN 3.0: after each capture but the last, the square turned on, or, going
         * on straight, the square right behind the piece taken */
        for (int k = 0; k + 1 < g->n; k++) {
            int sq = g->cdir[k + 1] == g->cdir[k] ? step(g->csq[k], g->cdir[k]) : g->land[k];
            g->paths[g->count][k] = (uint8_t)(sq + 1);
        }
    }
    g->count++;
}

static void king_dfs(fgen *g, int at, int last);

/* Push jump k (over x in direction d, landing on y); pop restores the piece. */
static inline void push(fgen *g, int x, int y, int d)
{
    g->opp &= ~BIT(x);
    g->empty |= BIT(x);
    g->capt |= BIT(x);
    g->cdir[g->n] = (uint8_t)d;
    g->csq[g->n] = (uint8_t)x;
    g->land[g->n] = (uint8_t)y;
    g->n++;
}

static inline void pop(fgen *g, int x)
{
    g->n--;
    g->opp |= BIT(x);
    g->empty &= ~BIT(x);
    g->capt &= ~BIT(x);
}

static void man_dfs(fgen *g, int at)
{
    static const int dirs[2][3] = {{DIR_N, DIR_W, DIR_E}, {DIR_S, DIR_W, DIR_E}};
    int found = 0;
    for (int i = 0; i < 3; i++) {
        int d = dirs[g->side][i];
        int x = step(at, d);
        if (x < 0 || !(g->opp & BIT(x))) {
            continue;
        }
        int y = step(x, d);
        if (y < 0 || !(g->empty & BIT(y))) {
            continue;
        }
        if (g->n >= DM_MAX_CAPT) {
            continue;
        }
        found = 1;
        push(g, x, y, d);
        if (g->promotion == DM_PROMOTE_CONTINUE_KING && (promo_rank(g->side) & BIT(y))) {
            king_dfs(g, y, d);
        } else {
            man_dfs(g, y);
        }
        pop(g, x);
    }
    if (!found && g->n > 0) {
        add_capture(g, at, (promo_rank(g->side) & BIT(at)) != 0);
    }
}

/* last: the direction of the jump that brought the king here, -1 at the start. */
static void king_dfs(fgen *g, int at, int last)
{
    int found = 0;
    for (int d = 0; d < 4; d++) {
        if (last >= 0 && d == (last ^ 1)) {
            continue; /* no 180-degree turn between two jumps */
        }
        int x = step(at, d);
        while (x >= 0 && (g->empty & BIT(x))) {
            x = step(x, d);
        }
        if (x < 0 || !(g->opp & BIT(x))) {
            continue;
        }
        int y = step(x, d);
        if (y < 0 || !(g->empty & BIT(y)) || g->n >= DM_MAX_CAPT) {
            continue;
        }
        found = 1;
        push(g, x, y, d);
        for (; y >= 0 && (g->empty & BIT(y)); y = step(y, d)) {
            g->land[g->n - 1] = (uint8_t)y;
            king_dfs(g, y, d);
        }
        pop(g, x);
    }
    if (!found && g->n > 0) {
        /* a man crowned on the way (CONTINUE_KING) ends as a king */
        add_capture(g, at, g->man_start);
    }
}

/* Captures of the side to move into g (count 0 when none). */
static void gen_captures(fgen *g, const fpos *p)
{
    uint64_t own = p->pc[p->side];
    g->side = p->side;
    g->best = 0;
    g->count = 0;
    g->overflow = 0;
    for (uint64_t bits = own; bits; bits &= bits - 1) {
        int from = __builtin_ctzll(bits);
        g->opp = p->pc[!p->side];
        g->empty = ~(p->pc[0] | p->pc[1]) | BIT(from);
        g->from = from;
        g->n = 0;
        g->capt = 0;
        g->man_start = !(p->kings & BIT(from));
        if (p->kings & BIT(from)) {
            king_dfs(g, from, -1);
        } else {
            man_dfs(g, from);
        }
    }
}

/* Add a quiet move (no capture). */
static inline void add_quiet(fgen *g, int from, int to, int promote)
{
    if (g->count >= g->cap) {
        g->overflow = 1;
        return;
    }
    g->moves[g->count++] =
        (fmove){.from = (uint8_t)from, .to = (uint8_t)to, .promote = (uint8_t)promote};
}

static void gen_quiet(fgen *g, const fpos *p)
{
    uint64_t own = p->pc[p->side], empty = ~(p->pc[0] | p->pc[1]);
    uint64_t men = own & ~p->kings, crown = promo_rank(p->side);
    int fwd = p->side == DM_WHITE ? -8 : 8;
    uint64_t t = (p->side == DM_WHITE ? men >> 8 : men << 8) & empty;
    for (; t; t &= t - 1) {
        int to = __builtin_ctzll(t);
        add_quiet(g, to - fwd, to, (crown & BIT(to)) != 0);
    }
    for (t = ((men & ~FILE_A) >> 1) & empty; t; t &= t - 1) {
        int to = __builtin_ctzll(t);
        add_quiet(g, to + 1, to, 0);
    }
    for (t = ((men & ~FILE_H) << 1) & empty; t; t &= t - 1) {
        int to = __builtin_ctzll(t);
        add_quiet(g, to - 1, to, 0);
    }
    for (uint64_t k = own & p->kings; k; k &= k - 1) {
        int from = __builtin_ctzll(k);
        for (int d = 0; d < 4; d++) {
            for (int y = step(from, d); y >= 0 && (empty & BIT(y)); y = step(y, d)) {
                add_quiet(g, from, y, 0);
            }
        }
    }
}

/* Legal moves of p into g->moves (captures first: compulsory). */
static int gen_legal(fgen *g, const fpos *p)
{
    gen_captures(g, p);
    if (g->count == 0 && !g->all) {
        gen_quiet(g, p);
    }
    return g->count;
}

/* Can the side to move capture? Men by bit sets, kings by their rays. */
static int any_capture(const fpos *p)
{
    uint64_t own = p->pc[p->side], opp = p->pc[!p->side], empty = ~(own | opp);
    uint64_t men = own & ~p->kings;
    uint64_t fwd = p->side == DM_WHITE ? (((men >> 8) & opp) >> 8) : (((men << 8) & opp) << 8);
    uint64_t w = ((((men & ~FILE_A) >> 1) & opp & ~FILE_A) >> 1);
    uint64_t e = ((((men & ~FILE_H) << 1) & opp & ~FILE_H) << 1);
    if ((fwd | w | e) & empty) {
        return 1;
    }
    for (uint64_t k = own & p->kings; k; k &= k - 1) {
        int from = __builtin_ctzll(k);
        for (int d = 0; d < 4; d++) {
            int x = step(from, d);
            while (x >= 0 && (empty & BIT(x))) {
                x = step(x, d);
            }
            if (x >= 0 && (opp & BIT(x))) {
                int y = step(x, d);
                if (y >= 0 && (empty & BIT(y))) {
                    return 1;
                }
            }
        }
    }
    return 0;
}

/* Quiet moves of p, counted. */
static uint64_t count_quiet(const fpos *p)
{
    uint64_t own = p->pc[p->side], empty = ~(p->pc[0] | p->pc[1]);
    uint64_t men = own & ~p->kings;
    uint64_t n =
        (uint64_t)__builtin_popcountll((p->side == DM_WHITE ? men >> 8 : men << 8) & empty);
    n += (uint64_t)__builtin_popcountll(((men & ~FILE_A) >> 1) & empty);
    n += (uint64_t)__builtin_popcountll(((men & ~FILE_H) << 1) & empty);
    for (uint64_t k = own & p->kings; k; k &= k - 1) {
        int from = __builtin_ctzll(k);
        for (int d = 0; d < 4; d++) {
            for (int y = step(from, d); y >= 0 && (empty & BIT(y)); y = step(y, d)) {
                n++;
            }
        }
    }
    return n;
}

static inline void make(fpos *p, const fmove *m)
{
    int s = p->side;
    uint64_t fb = BIT(m->from), tb = BIT(m->to);
    uint64_t mv = m->from == m->to ? 0 : fb | tb; /* a king's round trip ends at home */
    p->pc[s] ^= mv;
    p->pc[!s] &= ~m->capt;
    uint64_t k = p->kings & ~m->capt;
    if (k & fb) {
        k ^= mv;
    } else if (m->promote) {
        k |= tb;
    }
    p->kings = k;
    p->side = !s;
}

static void fgen_init(fgen *g, const gen_rules *r, fmove *moves, int cap)
{
    memset(g, 0, sizeof *g);
    g->precedence = r->precedence;
    g->promotion = r->promotion;
    g->moves = moves;
    g->cap = cap;
}

static uint64_t perft(const fpos *p, int depth, const gen_rules *r, int keep)
{
    if (depth == 1 && !any_capture(p)) {
        return count_quiet(p);
    }
    fmove moves[DM_MAX_MOVES];
    fgen g;
    fgen_init(&g, r, moves, DM_MAX_MOVES);
    g.keep = keep;
    int n = gen_legal(&g, p);
    if (depth == 1) {
        return (uint64_t)n;
    }
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        fpos next = *p;
        make(&next, &moves[i]);
        total += perft(&next, depth - 1, r, keep);
    }
    return total;
}

static void from_vboard(fpos *p, const dm_board *b)
{
    memset(p, 0, sizeof *p);
    for (int sq = 1; sq <= 64; sq++) {
        int piece = b->sq[sq];
        if (piece != DM_EMPTY) {
            p->pc[vg_color(piece)] |= BIT(sq - 1);
            if (vg_is_king(piece)) {
                p->kings |= BIT(sq - 1);
            }
        }
    }
    p->side = b->side;
}

uint64_t dm_genfull_vperft(const dm_board *b, int depth, gen_rules r)
{
    fpos p;
    from_vboard(&p, b);
    return perft(&p, depth, &r, 0);
}

uint64_t dm_genfull_vperft_keep(const dm_board *b, int depth, gen_rules r)
{
    fpos p;
    from_vboard(&p, b);
    return perft(&p, depth, &r, 1);
}

int dm_genfull_vlegal(dm_movelist *list, uint8_t (*paths)[DM_MAX_CAPT], const dm_board *b,
                      gen_rules r, int all_captures)
{
    fpos p;
    from_vboard(&p, b);
    fmove moves[DM_MAX_MOVES];
    fgen g;
    fgen_init(&g, &r, moves, DM_MAX_MOVES);
    g.paths = paths;
    g.all = all_captures != 0;
    int n = gen_legal(&g, &p);
    list->count = n;
    list->overflow = g.overflow;
    for (int i = 0; i < n; i++) {
        dm_move *m = &list->moves[i];
        memset(m, 0, sizeof *m);
        m->from = (uint8_t)(moves[i].from + 1);
        m->to = (uint8_t)(moves[i].to + 1);
        m->ncapt = moves[i].ncapt;
        m->promote = moves[i].promote;
        m->capt[0] = moves[i].capt;
    }
    return n;
}

/* ---- written capture paths (vpath.c's question on the full board) ---------------
 * Does one path of m (legal in b), restricted to its captured pieces, land after
 * each capture but the last on want[0..n-1] (any landing square of a king)? */

typedef struct fpath {
    uint64_t opp, empty;
    const dm_move *m;
    const int *want;
    int side, promotion, found;
} fpath;

static void path_dfs(fpath *q, int at, int king, int last, int k)
{
    static const int man_dirs[2][3] = {{DIR_N, DIR_W, DIR_E}, {DIR_S, DIR_W, DIR_E}};
    int ndir = king ? 4 : 3;
    for (int i = 0; i < ndir && !q->found; i++) {
        int d = king ? i : man_dirs[q->side][i];
        if (king && last >= 0 && d == (last ^ 1)) {
            continue;
        }
        int x = step(at, d);
        while (king && x >= 0 && (q->empty & BIT(x))) {
            x = step(x, d);
        }
        if (x < 0 || !(q->opp & BIT(x)) || !((q->m->capt[0] >> x) & 1)) {
            continue;
        }
        q->opp &= ~BIT(x);
        q->empty |= BIT(x);
        for (int y = step(x, d); y >= 0 && (q->empty & BIT(y)) && !q->found; y = step(y, d)) {
            int king_next = king || (q->promotion == DM_PROMOTE_CONTINUE_KING &&
                                     (promo_rank(q->side) & BIT(y)));
            if (k == q->m->ncapt - 1) {
                q->found = y + 1 == q->m->to;
            } else if (y + 1 == q->want[k]) {
                path_dfs(q, y, king_next, d, k + 1);
            }
            if (!king) {
                break;
            }
        }
        q->opp |= BIT(x);
        q->empty &= ~BIT(x);
    }
}

int dm_genfull_path_matches(const dm_board *b, const dm_move *m, const int *want, int n)
{
    if (m->ncapt < 2 || n != m->ncapt - 1 || m->from < 1 || m->from > 64) {
        return 0;
    }
    fpos p;
    from_vboard(&p, b);
    fpath q = {.opp = p.pc[!p.side],
               .empty = ~(p.pc[0] | p.pc[1]) | BIT(m->from - 1),
               .m = m,
               .want = want,
               .side = p.side,
               .promotion = b->variant->promotion};
    path_dfs(&q, m->from - 1, (p.kings & BIT(m->from - 1)) != 0, -1, 0);
    return q.found;
}

/* ---- the engine's entry points (core/gen_geom_full.h) ---------------------------- */

static void from_board(fpos *p, const dm_board10 *b)
{
    p->pc[0] = b->pieces[0];
    p->pc[1] = b->pieces[1];
    p->kings = b->kings;
    p->side = b->side;
}

int dm_genfull_legal(dm_movelist10 *list, const dm_board10 *pos, gen_rules r)
{
    fpos p;
    from_board(&p, pos);
    fmove moves[DM_MAX_MOVES10];
    fgen g;
    fgen_init(&g, &r, moves, DM_MAX_MOVES10);
    int n = gen_legal(&g, &p);
    list->count = n;
    list->overflow = g.overflow;
    for (int i = 0; i < n; i++) {
        const fmove *f = &moves[i];
        dm_move10 *m = &list->moves[i];
        uint64_t fb = BIT(f->from), tb = BIT(f->to);
        m->own = f->from == f->to ? 0 : fb | tb;
        m->capt = f->capt;
        m->kings = f->capt & p.kings;
        if (p.kings & fb) {
            m->kings ^= f->from == f->to ? 0 : fb | tb;
        } else if (f->promote) {
            m->kings |= tb;
        }
        m->from = (uint8_t)(f->from + 1);
        m->to = (uint8_t)(f->to + 1);
        m->ncapt = f->ncapt;
        m->pad_ = 0;
    }
    return n;
}

int dm_genfull_has_capture(const dm_board10 *pos)
{
    fpos p;
    from_board(&p, pos);
    return any_capture(&p);
}
