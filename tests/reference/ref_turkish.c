/* SPDX-License-Identifier: MIT
 * tests/reference/ref_turkish.c: the slow reference for Turkish draughts (the full
 * 8x8 board, dm_variant.geometry DM_GEOM_FULL), written from the rules text of
 * docs/VARIANTS.md and not from core/genfull.c: a mailbox of 10 x 10 cells with a
 * border of OFF cells, the four orthogonal steps fixed offsets (north -10, south +10,
 * west -1, east +1). Included by ref_vmovegen.c, which hands it the full-board
 * variants.
 *
 * Rules as written: a man steps one square forward or sideways onto an empty square;
 * it captures an enemy piece next to it forward or sideways by jumping to the empty
 * square right behind it. A king steps any distance along its rank or file over empty
 * squares; it captures the first enemy piece on a line when the square behind it is
 * empty, landing on any empty square behind it (up to the next piece or the edge).
 * A captured piece leaves the board as soon as it is jumped; the capturing piece's
 * start square is empty during the capture. Between two jumps a king may not go back
 * the way it came (180 degrees). Capturing is compulsory and the sequence must go on
 * while it can; the sequences taking the most pieces are the legal ones (a king counts
 * one). A man ending its move on the far rank is crowned; under CONTINUE_KING a man
 * landing there mid-capture goes on as a king. Same from, to and captured set: one
 * move, the first path kept. */

#define RT_OFF 0xFF

typedef struct rturk {
    const dm_variant *v;
    dm_movelist *list;
    uint8_t (*paths)[DM_MAX_CAPT]; /* PDN path of list->moves[i], or NULL */
    uint8_t cell[100];
    int me, best, from, man;
    int n;
    int capt[DM_MAX_CAPT], dir[DM_MAX_CAPT], land[DM_MAX_CAPT];
} rturk;

static const int rt_off[4] = {-10, 10, -1, 1}; /* north, south, west, east */

static int rt_cell(int sq)
{
    return ((sq - 1) / 8 + 1) * 10 + (sq - 1) % 8 + 1;
}

static int rt_sq(int cell)
{
    return (cell / 10 - 1) * 8 + cell % 10;
}

static int rt_promo_row(const rturk *g, int cell)
{
    int row = cell / 10 - 1; /* 0 = rank 8 */
    return g->me == DM_WHITE ? row == 0 : row == 7;
}

static int rt_enemy(const rturk *g, int piece)
{
    return piece != DM_EMPTY && piece != RT_OFF && vg_color(piece) != g->me;
}

static void rt_add(rturk *g, int to_cell)
{
    dm_movelist *l = g->list;
    if (g->v->precedence == DM_PREC_COUNT) {
        if (g->n < g->best) {
            return;
        }
        if (g->n > g->best) {
            g->best = g->n;
            l->count = 0;
            l->overflow = 0;
        }
    }
    dm_move m;
    memset(&m, 0, sizeof m);
    m.from = (uint8_t)rt_sq(g->from);
    m.to = (uint8_t)rt_sq(to_cell);
    m.ncapt = (uint8_t)g->n;
    m.promote = (uint8_t)(g->man && rt_promo_row(g, to_cell));
    for (int k = 0; k < g->n; k++) {
        int s = rt_sq(g->capt[k]) - 1;
        m.capt[s >> 6] |= UINT64_C(1) << (s & 63);
    }
    for (int i = 0; i < l->count; i++) {
        const dm_move *x = &l->moves[i];
        if (x->from == m.from && x->to == m.to && x->capt[0] == m.capt[0] &&
            x->capt[1] == m.capt[1]) {
            return;
        }
    }
    if (l->count >= DM_MAX_MOVES) {
        l->overflow = 1;
        return;
    }
    for (int k = 0; k + 1 < g->n && g->paths; k++) {
        /* turning: the square landed on; straight on: right behind the piece taken */
        g->paths[l->count][k] = (uint8_t)rt_sq(
            g->dir[k + 1] == g->dir[k] ? g->capt[k] + rt_off[g->dir[k]] : g->land[k]);
    }
    l->moves[l->count++] = m;
}

static void rt_jumps(rturk *g, int at, int king, int last)
{
    int any = 0;
    int back = g->me == DM_WHITE ? 1 : 0; /* a man's backward direction */
    for (int d = 0; d < 4; d++) {
        if (!king && d == back) {
            continue;
        }
        if (king && last >= 0 && rt_off[d] == -rt_off[last]) {
            continue;
        }
        int x = at + rt_off[d];
        while (king && g->cell[x] == DM_EMPTY) {
            x += rt_off[d];
        }
        if (!rt_enemy(g, g->cell[x]) || g->cell[x + rt_off[d]] != DM_EMPTY) {
            continue;
        }
        any = 1;
        uint8_t piece = g->cell[x];
        g->cell[x] = DM_EMPTY; /* removed as it is jumped */
        g->capt[g->n] = x;
        g->dir[g->n] = d;
        g->n++;
        for (int y = x + rt_off[d]; g->cell[y] == DM_EMPTY; y += rt_off[d]) {
            g->land[g->n - 1] = y;
            int crowned =
                !king && g->v->promotion == DM_PROMOTE_CONTINUE_KING && rt_promo_row(g, y);
            rt_jumps(g, y, king || crowned, d);
            if (!king) {
                break;
            }
        }
        g->n--;
        g->cell[x] = piece;
    }
    if (!any && g->n > 0) {
        rt_add(g, at);
    }
}

static void rt_quiet_add(rturk *g, int from, int to, int promote)
{
    dm_movelist *l = g->list;
    if (l->count >= DM_MAX_MOVES) {
        l->overflow = 1;
        return;
    }
    dm_move *m = &l->moves[l->count++];
    memset(m, 0, sizeof *m);
    m->from = (uint8_t)rt_sq(from);
    m->to = (uint8_t)rt_sq(to);
    m->promote = (uint8_t)promote;
}

static int ref_turkish_legal(dm_movelist *list, uint8_t (*paths)[DM_MAX_CAPT], const dm_board *b)
{
    rturk g;
    memset(&g, 0, sizeof g);
    g.v = b->variant;
    g.list = list;
    g.paths = paths;
    g.me = b->side;
    list->count = 0;
    list->overflow = 0;
    memset(g.cell, RT_OFF, sizeof g.cell);
    for (int sq = 1; sq <= 64; sq++) {
        g.cell[rt_cell(sq)] = b->sq[sq];
    }
    for (int sq = 1; sq <= 64; sq++) {
        int p = b->sq[sq];
        if (p == DM_EMPTY || vg_color(p) != g.me) {
            continue;
        }
        g.from = rt_cell(sq);
        g.man = vg_is_man(p);
        g.n = 0;
        g.cell[g.from] = DM_EMPTY;
        rt_jumps(&g, g.from, !g.man, -1);
        g.cell[g.from] = (uint8_t)p;
    }
    if (list->count > 0) {
        return list->count;
    }
    int back = g.me == DM_WHITE ? 1 : 0;
    for (int sq = 1; sq <= 64; sq++) {
        int p = b->sq[sq];
        if (p == DM_EMPTY || vg_color(p) != g.me) {
            continue;
        }
        int c = rt_cell(sq);
        for (int d = 0; d < 4; d++) {
            if (vg_is_man(p)) {
                if (d != back && g.cell[c + rt_off[d]] == DM_EMPTY) {
                    rt_quiet_add(&g, c, c + rt_off[d], rt_promo_row(&g, c + rt_off[d]));
                }
                continue;
            }
            for (int y = c + rt_off[d]; g.cell[y] == DM_EMPTY; y += rt_off[d]) {
                rt_quiet_add(&g, c, y, 0);
            }
        }
    }
    return list->count;
}
