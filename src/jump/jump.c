/* SPDX-License-Identifier: MIT
 * src/jump/jump.c: the jumping games' rules (damier/jump.h): geometry of the star
 * board, the Halma boards and the Ge Wu lane; legal moves (steps and jump chains over
 * bitsets), making moves, win detection, perft. Rules and sources: docs/JUMPING.md. */
#include <string.h>

#include <damier/jump.h>

#include "jump/jump_int.h"

/* ---- the star board ----------------------------------------------------------
 * Axial coordinates (q, r), s = -q-r, r = row (-8 top .. 8 bottom), q grows to the
 * right. The star is the union of two triangles of 91 holes: q, r, s >= -4 and
 * q, r, s <= 4; they share the central hexagon of 61, so 121 holes. The six points
 * (corners), clockwise from the top: r < -4, q > 4, s < -4, r > 4, q < -4, s > 4. */
static int star_has(int q, int r)
{
    int s = -q - r;
    return (q >= -4 && r >= -4 && s >= -4) || (q <= 4 && r <= 4 && s <= 4);
}

static int star_corner(int q, int r)
{
    int s = -q - r;
    if (r < -4)
        return 0;
    if (q > 4)
        return 1;
    if (s < -4)
        return 2;
    if (r > 4)
        return 3;
    if (q < -4)
        return 4;
    if (s > 4)
        return 5;
    return -1;
}

/* Standard seats, in turn order (clockwise from the bottom point), by player count. */
static const int star_seats[7][6] = {
    [2] = {3, 0}, [3] = {3, 5, 1}, [4] = {3, 4, 0, 1}, [6] = {3, 4, 5, 0, 1, 2}};

static void init_star(dm_jrules *r)
{
    static const int dq[6] = {1, 1, 0, -1, -1, 0}, dr[6] = {0, -1, -1, 0, 1, 1};
    int index[17][17];
    int qs[121], rs[121], n = 0;
    for (int rr = -8; rr <= 8; rr++) {
        for (int q = -8; q <= 8; q++) {
            index[rr + 8][q + 8] = -1;
            if (star_has(q, rr)) {
                index[rr + 8][q + 8] = n;
                qs[n] = q;
                rs[n] = rr;
                n++;
            }
        }
    }
    r->squares = n;
    r->dirs = 6;
    for (int i = 0; i < n; i++) {
        /* rows -8..8; a hole's column: q plus half the row, doubled, from the left
         * point (q + r/2 >= -6 on the star) */
        r->row[i] = (uint8_t)(rs[i] + 8);
        r->col[i] = (uint8_t)(2 * qs[i] + rs[i] + 12);
    }
    for (int i = 0; i < n; i++) {
        for (int d = 0; d < 8; d++) {
            int q = qs[i] + (d < 6 ? dq[d] : 99), rr = rs[i] + (d < 6 ? dr[d] : 99);
            r->nb[i][d] =
                (int16_t)(q >= -8 && q <= 8 && rr >= -8 && rr <= 8 ? index[rr + 8][q + 8] : -1);
        }
        int c = star_corner(qs[i], rs[i]), q = qs[i], rr = rs[i], ss = -q - rr;
        int hex = q >= -4 && q <= 4 && rr >= -4 && rr <= 4 && ss >= -4 && ss <= 4;
        if ((r->options & DM_JOPT_CAPTURE) && hex && (q || rr)) {
            jset_add(&r->home[0], i); /* the hexagon but its centre */
        }
        if ((r->options & DM_JOPT_FIFTEEN) && hex) {
            /* the row of 5 in front of point k: the hexagon's edge facing it (edges
             * r = -4, q = 4, s = -4, r = 4, q = -4, s = 4) */
            const int on[6] = {rr == -4, q == 4, ss == -4, rr == 4, q == -4, ss == 4};
            for (int s2 = 0; s2 < r->players; s2++) {
                if (on[r->corner[s2]]) {
                    jset_add(&r->home[s2], i);
                }
                if (on[(r->corner[s2] + 3) % 6]) {
                    jset_add(&r->target[s2], i);
                }
            }
        }
        if (c >= 0 && !(r->options & DM_JOPT_CAPTURE)) {
            jset_add(&r->corners, i);
            for (int s = 0; s < r->players; s++) {
                if (r->corner[s] == c) {
                    jset_add(&r->home[s], i);
                }
                if ((r->corner[s] + 3) % 6 == c) {
                    jset_add(&r->target[s], i);
                }
            }
        }
    }
}

/* ---- Halma -----------------------------------------------------------------
 * Square (x, y), file x from the left, rank y from the bottom, index y*n + x. The
 * camp of the a1 corner is {x + y <= k, x <= m, y <= m}; the other corners mirror
 * it. Corners 0..3: a1, a16, p16, p1 (clockwise); a seat's target is the diagonally
 * opposite corner. */
static void init_halma(dm_jrules *r)
{
    static const int dx[8] = {1, 1, 0, -1, -1, -1, 0, 1}, dy[8] = {0, 1, 1, 1, 0, -1, -1, -1};
    int n = r->size, k, m;
    if (n == 16) {
        k = r->players == 2 ? 5 : 4;
        m = r->players == 2 ? 4 : 3;
    } else {
        k = n == 10 ? 4 : 3;
        m = k;
    }
    r->squares = n * n;
    r->dirs = 8;
    for (int i = 0; i < n * n; i++) {
        int x = i % n, y = i / n;
        r->col[i] = (uint8_t)x;
        r->row[i] = (uint8_t)(n - 1 - y);
        for (int d = 0; d < 8; d++) {
            int a = x + dx[d], b = y + dy[d];
            r->nb[i][d] = (int16_t)(a >= 0 && a < n && b >= 0 && b < n ? b * n + a : -1);
        }
        for (int c = 0; c < 4; c++) {
            int cx = (c == 2 || c == 3) ? n - 1 - x : x;
            int cy = (c == 1 || c == 2) ? n - 1 - y : y;
            if (cx + cy > k || cx > m || cy > m) {
                continue;
            }
            for (int s = 0; s < r->players; s++) {
                if (r->corner[s] == c) {
                    jset_add(&r->home[s], i);
                }
                if ((r->corner[s] + 2) % 4 == c) {
                    jset_add(&r->target[s], i);
                }
            }
        }
    }
}

/* goal_dist: breadth first over steps from the target's tip, the target square with
 * the fewest neighbours (the star's point tip: 2; Halma's corner: 3). */
static void init_goal_dist(dm_jrules *r)
{
    for (int s = 0; s < r->players; s++) {
        int tip = -1, fewest = 99;
        for (int i = 0; i < r->squares; i++) {
            if (!jset_has(&r->target[s], i)) {
                continue;
            }
            int k = 0;
            for (int d = 0; d < r->dirs; d++) {
                k += r->nb[i][d] >= 0;
            }
            if (k < fewest) {
                fewest = k;
                tip = i;
            }
        }
        memset(r->goal_dist[s], 255, sizeof r->goal_dist[s]);
        if (tip < 0) {
            continue;
        }
        int queue[DM_JMAX_SQUARES], head = 0, tail = 0;
        r->goal_dist[s][tip] = 0;
        queue[tail++] = tip;
        while (head < tail) {
            int i = queue[head++];
            for (int d = 0; d < r->dirs; d++) {
                int n = r->nb[i][d];
                if (n >= 0 && r->goal_dist[s][n] == 255) {
                    r->goal_dist[s][n] = (uint8_t)(r->goal_dist[s][i] + 1);
                    queue[tail++] = n;
                }
            }
        }
    }
}

dm_status dm_jrules_init(dm_jrules *r, dm_jgame game, int players, int size, unsigned options,
                         dm_error *err)
{
    if (!r) {
        return dm_error_set(err, DM_EINVAL, 0, 0, "no rules object");
    }
    memset(r, 0, sizeof *r);
    for (int i = 0; i < DM_JMAX_SQUARES; i++) {
        for (int d = 0; d < 8; d++) {
            r->nb[i][d] = -1;
        }
    }
    r->game = game;
    r->players = players;
    r->options = options;
    switch (game) {
        case DM_JGAME_CHINESE:
            if ((options & DM_JOPT_CAPTURE) && (players < 1 || players > DM_JMAX_PLAYERS)) {
                return dm_error_set(err, DM_EINVAL, 0, 0,
                                    "the capture game is played by 1 to %d players, not %d",
                                    DM_JMAX_PLAYERS, players);
            }
            if (players != 2 && players != 3 && players != 4 && players != 6 &&
                !(options & DM_JOPT_CAPTURE)) {
                return dm_error_set(err, DM_EINVAL, 0, 0,
                                    "chinese-checkers is played by 2, 3, 4 or 6 players, not %d "
                                    "(1: the capture puzzle, option capture)",
                                    players);
            }
            if ((options & DM_JOPT_FIFTEEN) && players != 2) {
                return dm_error_set(err, DM_EINVAL, 0, 0,
                                    "15 pegs (option fifteen) is a two-player game, not %d",
                                    players);
            }
            if (size != 0) {
                return dm_error_set(err, DM_EINVAL, 0, 0,
                                    "chinese-checkers has one board (121 holes); no --board");
            }
            if (options & ~(DM_JOPT_NO_FOREIGN_CORNER | DM_JOPT_FIFTEEN | DM_JOPT_ANTI_SPOIL |
                            DM_JOPT_SUPER_JUMP | DM_JOPT_CAPTURE)) {
                return dm_error_set(err, DM_EINVAL, 0, 0,
                                    "option not available in chinese-checkers");
            }
            r->pieces = options & DM_JOPT_CAPTURE ? 60 : options & DM_JOPT_FIFTEEN ? 15 : 10;
            for (int s = 0; s < players; s++) {
                /* the capture game's seats own no point: any peg, any seat */
                r->corner[s] = (options & DM_JOPT_CAPTURE) ? 3 : star_seats[players][s];
            }
            init_star(r);
            init_goal_dist(r);
            return DM_OK;
        case DM_JGAME_HALMA:
            if (size == 0) {
                size = 16;
            }
            if (size != 8 && size != 10 && size != 16) {
                return dm_error_set(err, DM_EINVAL, 0, 0, "halma boards are 8, 10 or 16, not %d",
                                    size);
            }
            if (players != 2 && !(players == 4 && size == 16)) {
                return dm_error_set(err, DM_EINVAL, 0, 0,
                                    "halma is played by 2 players (and by 4 on 16x16), not %d",
                                    players);
            }
            if (options & ~(DM_JOPT_ANTI_SPOIL | DM_JOPT_LEAVE_CAMP)) {
                return dm_error_set(err, DM_EINVAL, 0, 0, "option not available in halma");
            }
            if ((options & DM_JOPT_LEAVE_CAMP) && size == 16) {
                return dm_error_set(err, DM_EINVAL, 0, 0,
                                    "leave-camp has a move limit for 8x8 (30) and 10x10 (50) "
                                    "only");
            }
            r->size = size;
            r->pieces = size == 16 ? (players == 2 ? 19 : 13) : (size == 10 ? 15 : 10);
            for (int s = 0; s < players; s++) {
                r->corner[s] = players == 2 ? 2 * s : s;
            }
            init_halma(r);
            init_goal_dist(r);
            return DM_OK;
        case DM_JGAME_GEWU:
            if (size == 0) {
                size = 12;
            }
            if (players != 2) {
                return dm_error_set(err, DM_EINVAL, 0, 0, "gewu is played by 2 players, not %d",
                                    players);
            }
            if (size < 12 || size > 64) {
                return dm_error_set(err, DM_EINVAL, 0, 0,
                                    "the gewu lane is 12 to 64 squares long, not %d", size);
            }
            if (options & ~DM_JOPT_GEWU_ONE_THROW) {
                return dm_error_set(err, DM_EINVAL, 0, 0, "option not available in gewu");
            }
            r->size = size;
            r->squares = size;
            r->dirs = 1;
            r->pieces = 5;
            for (int i = 0; i < size; i++) {
                r->col[i] = (uint8_t)i;
            }
            for (int i = 0; i < 5; i++) {
                jset_add(&r->home[0], i);
                jset_add(&r->home[1], size - 1 - i);
            }
            r->corner[1] = 1;
            return DM_OK;
    }
    return dm_error_set(err, DM_EINVAL, 0, 0, "unknown game %d", (int)game);
}

static const char *const game_names[] = {"chinese-checkers", "halma", "gewu"};

const char *dm_jgame_name(dm_jgame game)
{
    return (unsigned)game < 3 ? game_names[game] : "?";
}

dm_status dm_jgame_from_name(dm_jgame *game, const char *name, dm_error *err)
{
    for (int g = 0; g < 3; g++) {
        if (name && !strcmp(name, game_names[g])) {
            *game = (dm_jgame)g;
            return DM_OK;
        }
    }
    return dm_error_set(err, DM_EINVAL, 0, 0,
                        "unknown game '%s' (games: chinese-checkers, halma, gewu)",
                        name ? name : "");
}

void dm_jpos_start(dm_jpos *p, const dm_jrules *r)
{
    memset(p, 0, sizeof *p);
    for (int s = 0; s < r->players; s++) {
        p->pieces[s] = r->home[s];
    }
    p->won = -1;
}

static dm_jset occupied(const dm_jrules *r, const dm_jpos *p)
{
    dm_jset o = {{0, 0, 0, 0}};
    for (int s = 0; s < r->players; s++) {
        jset_or(&o, &p->pieces[s]);
    }
    return o;
}

/* Halma's leave-camp rule: the move count after which a piece in one's own camp
 * loses (more than 30 moves on 8x8, 50 on 10x10). */
static int leave_camp_limit(const dm_jrules *r)
{
    return r->size == 8 ? 30 : 50;
}

/* The winner under the house rules that change it (capture, leave-camp, anti-spoil):
 * kept out of the plain test, which the generator runs on every call. */
static int winner_options(const dm_jpos *p, const dm_jrules *r)
{
    if (r->options & DM_JOPT_CAPTURE) {
        /* one peg left: the puzzle is solved; with several players the seat whose
         * capture left it (the seat that moved last) reached the goal */
        if (jset_count(&p->pieces[0]) != 1) {
            return -1;
        }
        return (p->to_move + r->players - 1) % r->players;
    }
    if ((r->options & DM_JOPT_LEAVE_CAMP) && r->players == 2) {
        /* seat s has made (moves + 1 - s) / 2 moves when seat A moved first */
        for (int s = 0; s < 2; s++) {
            dm_jset in = p->pieces[s];
            for (int w = 0; w < 4; w++) {
                in.w[w] &= r->home[s].w[w];
            }
            if ((p->moves + 1 - s) / 2 > leave_camp_limit(r) && jset_count(&in) > 0) {
                return 1 - s;
            }
        }
    }
    for (int s = 0; s < r->players; s++) {
        const dm_jset *a = &p->pieces[s], *t = &r->target[s];
        int full = 1, own = 0;
        for (int w = 0; w < 4; w++) {
            full &= (t->w[w] & ~a->w[w]) == 0;
            own |= (t->w[w] & a->w[w]) != 0;
        }
        if (full) {
            return s;
        }
        if ((r->options & DM_JOPT_ANTI_SPOIL) && own) {
            /* every target square is taken: by s, or by an opponent on its own home */
            full = 1;
            for (int w = 0; w < 4; w++) {
                uint64_t ok = a->w[w];
                for (int o = 0; o < r->players; o++) {
                    if (o != s) {
                        ok |= p->pieces[o].w[w] & r->home[o].w[w];
                    }
                }
                full &= (t->w[w] & ~ok) == 0;
            }
            if (full) {
                return s;
            }
        }
    }
    return -1;
}

int dm_jpos_winner(const dm_jpos *p, const dm_jrules *r)
{
    if (r->game == DM_JGAME_GEWU) {
        return p->won;
    }
    if (r->options & (DM_JOPT_CAPTURE | DM_JOPT_LEAVE_CAMP | DM_JOPT_ANTI_SPOIL)) {
        return winner_options(p, r);
    }
    for (int s = 0; s < r->players; s++) {
        const dm_jset *a = &p->pieces[s], *t = &r->target[s];
        int full = 1;
        for (int w = 0; w < 4; w++) {
            full &= (t->w[w] & ~a->w[w]) == 0;
        }
        if (full) {
            return s;
        }
    }
    return -1;
}

/* The squares a piece on from reaches (steps and jump chains) with occupancy occ
 * (from itself not in it). SUPER: the jumps of DM_JOPT_SUPER_JUMP (jump_land); the
 * plain jump is written out for the hot path of perft and search (a test of the
 * option inside the loop cost about 10% of perft's instructions). */
#define REACH_BODY(JUMP)                                                                           \
    dm_jset dest = {{0, 0, 0, 0}}, seen = {{0, 0, 0, 0}};                                          \
    int stack[DM_JMAX_SQUARES], top = 0;                                                           \
    for (int d = 0; d < r->dirs; d++) {                                                            \
        int n = r->nb[from][d];                                                                    \
        if (n >= 0 && !jset_has(occ, n)) {                                                         \
            jset_add(&dest, n);                                                                    \
        }                                                                                          \
    }                                                                                              \
    jset_add(&seen, from);                                                                         \
    stack[top++] = from;                                                                           \
    while (top) {                                                                                  \
        int s = stack[--top];                                                                      \
        for (int d = 0; d < r->dirs; d++) {                                                        \
            int t = JUMP;                                                                          \
            if (t < 0 || jset_has(&seen, t)) {                                                     \
                continue;                                                                          \
            }                                                                                      \
            jset_add(&seen, t);                                                                    \
            jset_add(&dest, t);                                                                    \
            stack[top++] = t;                                                                      \
        }                                                                                          \
    }                                                                                              \
    return dest

static inline int plain_land(const dm_jrules *r, const dm_jset *occ, int s, int d)
{
    int o = r->nb[s][d];
    if (o < 0 || !jset_has(occ, o)) {
        return -1;
    }
    int t = r->nb[o][d];
    return t >= 0 && !jset_has(occ, t) ? t : -1;
}

static dm_jset reach(const dm_jrules *r, const dm_jset *occ, int from)
{
    REACH_BODY(plain_land(r, occ, s, d));
}

static dm_jset reach_super(const dm_jrules *r, const dm_jset *occ, int from)
{
    REACH_BODY(jump_land(r, occ, s, d));
}

/* Ge Wu: where a piece of side on sq ends after steps single steps, DM_JOFF_BOARD
 * when it leaves the lane at the enemy's end, -1 when it cannot play them. */
static int gewu_walk(const dm_jrules *r, const dm_jpos *p, int side, int sq, int steps)
{
    int dir = side == 0 ? 1 : -1, L = r->squares;
    const dm_jset *enemy = &p->pieces[side ^ 1];
    dm_jset occ = occupied(r, p);
    jset_del(&occ, sq);
    int pos = sq;
    for (int i = 0; i < steps; i++) {
        int nxt = pos + dir;
        if (nxt < 0 || nxt >= L) {
            return DM_JOFF_BOARD;
        }
        if (!jset_has(&occ, nxt)) {
            pos = nxt;
            continue;
        }
        if (!jset_has(enemy, nxt)) {
            return -1; /* an own piece in the way */
        }
        int j = nxt + dir;
        if (j < 0 || j >= L) {
            return DM_JOFF_BOARD;
        }
        if (jset_has(&occ, j)) {
            return -1;
        }
        pos = j;
    }
    return pos;
}

int dm_jmovegen(dm_jmovelist *list, const dm_jrules *r, const dm_jpos *p)
{
    list->count = 0;
    if (dm_jpos_winner(p, r) >= 0) {
        return 0;
    }
    int side = p->to_move;
    dm_jset mine = p->pieces[jpos_mover_seat(r, p)];
    if (r->game == DM_JGAME_GEWU) {
        if (p->throw_steps < 1 || p->throw_steps > 3) {
            return 0;
        }
        for (int sq = jset_next(&mine, 0); sq >= 0; sq = jset_next(&mine, sq + 1)) {
            int to = gewu_walk(r, p, side, sq, p->throw_steps);
            if (to >= 0) {
                list->moves[list->count++] = (dm_jmove){(uint8_t)sq, (uint8_t)to};
            }
        }
        return list->count;
    }
    dm_jset occ = occupied(r, p);
    if (r->options & DM_JOPT_CAPTURE) {
        /* one capturing jump; steps only when there is none */
        for (int pass = 0; pass < 2 && list->count == 0; pass++) {
            for (int sq = jset_next(&mine, 0); sq >= 0; sq = jset_next(&mine, sq + 1)) {
                for (int d = 0; d < r->dirs; d++) {
                    int o = r->nb[sq][d];
                    int t = pass == 0 ? (o >= 0 && jset_has(&occ, o) ? r->nb[o][d] : -1) : o;
                    if (t >= 0 && !jset_has(&occ, t)) {
                        list->moves[list->count++] = (dm_jmove){(uint8_t)sq, (uint8_t)t};
                    }
                }
            }
        }
        /* sorted by from then to, as documented */
        for (int i = 1; i < list->count; i++) {
            dm_jmove m = list->moves[i];
            int j = i;
            while (j > 0 && (list->moves[j - 1].from > m.from ||
                             (list->moves[j - 1].from == m.from && list->moves[j - 1].to > m.to))) {
                list->moves[j] = list->moves[j - 1];
                j--;
            }
            list->moves[j] = m;
        }
        return list->count;
    }
    dm_jset forbidden = {{0, 0, 0, 0}};
    if (r->options & DM_JOPT_NO_FOREIGN_CORNER) {
        forbidden = r->corners;
        for (int w = 0; w < 4; w++) {
            forbidden.w[w] &= ~(r->home[side].w[w] | r->target[side].w[w]);
        }
    }
    for (int sq = jset_next(&mine, 0); sq >= 0; sq = jset_next(&mine, sq + 1)) {
        jset_del(&occ, sq);
        dm_jset dest =
            (r->options & DM_JOPT_SUPER_JUMP) ? reach_super(r, &occ, sq) : reach(r, &occ, sq);
        jset_add(&occ, sq);
        for (int w = 0; w < 4; w++) {
            dest.w[w] &= ~forbidden.w[w];
        }
        for (int t = jset_next(&dest, 0); t >= 0; t = jset_next(&dest, t + 1)) {
            list->moves[list->count++] = (dm_jmove){(uint8_t)sq, (uint8_t)t};
        }
    }
    return list->count;
}

void dm_jpos_apply(dm_jpos *p, const dm_jrules *r, const dm_jmove *m)
{
    dm_jset *a = &p->pieces[jpos_mover_seat(r, p)];
    jset_del(a, m->from);
    if (r->game == DM_JGAME_GEWU) {
        if (m->to == DM_JOFF_BOARD) {
            p->won = p->to_move;
        } else {
            jset_add(a, m->to);
        }
        p->throw_steps = 0;
        if (r->options & DM_JOPT_GEWU_ONE_THROW) {
            p->to_move ^= 1;
        }
        return;
    }
    jset_add(a, m->to);
    if (r->options & DM_JOPT_CAPTURE) {
        for (int d = 0; d < r->dirs; d++) {
            int o = r->nb[m->from][d];
            if (o >= 0 && r->nb[o][d] == m->to) {
                jset_del(a, o); /* the peg jumped is removed */
            }
        }
    }
    p->moves++;
    p->to_move = (p->to_move + 1) % r->players;
}

void dm_gewu_throw(dm_jpos *p, const dm_jrules *r, dm_gewu_face face)
{
    (void)r;
    if (face == DM_GEWU_WU) {
        p->throw_steps = 0;
        p->to_move ^= 1;
    } else {
        p->throw_steps = (int)face;
    }
}

void dm_gewu_forfeit(dm_jpos *p, const dm_jrules *r)
{
    p->throw_steps = 0;
    if (r->options & DM_JOPT_GEWU_ONE_THROW) {
        p->to_move ^= 1;
    }
}

static uint64_t gewu_perft(const dm_jrules *r, const dm_jpos *p, int depth);

/* Ge Wu: the children of a position whose throw is known. */
static uint64_t gewu_play(const dm_jrules *r, const dm_jpos *p, int depth)
{
    dm_jmovelist list;
    dm_jmovegen(&list, r, p);
    if (list.count == 0) {
        dm_jpos q = *p;
        dm_gewu_forfeit(&q, r);
        return gewu_perft(r, &q, depth - 1);
    }
    uint64_t n = 0;
    for (int i = 0; i < list.count; i++) {
        dm_jpos q = *p;
        dm_jpos_apply(&q, r, &list.moves[i]);
        n += gewu_perft(r, &q, depth - 1);
    }
    return n;
}

static uint64_t gewu_perft(const dm_jrules *r, const dm_jpos *p, int depth)
{
    if (depth == 0) {
        return 1;
    }
    if (p->won >= 0) {
        return 0;
    }
    if (p->throw_steps) {
        return gewu_play(r, p, depth);
    }
    dm_jpos q = *p;
    dm_gewu_throw(&q, r, DM_GEWU_WU);
    uint64_t n = gewu_perft(r, &q, depth - 1);
    for (int f = 1; f <= 3; f++) {
        q = *p;
        dm_gewu_throw(&q, r, (dm_gewu_face)f);
        n += gewu_play(r, &q, depth);
    }
    return n;
}

static uint64_t perft_rec(const dm_jrules *r, const dm_jpos *p, int depth, dm_jmovelist *lists)
{
    int n = dm_jmovegen(&lists[0], r, p);
    if (depth == 1) {
        return (uint64_t)n;
    }
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        dm_jpos q = *p;
        dm_jpos_apply(&q, r, &lists[0].moves[i]);
        total += perft_rec(r, &q, depth - 1, lists + 1);
    }
    return total;
}

uint64_t dm_jperft(const dm_jrules *r, const dm_jpos *p, int depth)
{
    if (depth <= 0) {
        return 1;
    }
    if (r->game == DM_JGAME_GEWU) {
        return gewu_perft(r, p, depth);
    }
    dm_jmovelist lists[12]; /* perft deeper than 12 plies is out of reach anyway */
    if (depth > 12) {
        depth = 12;
    }
    return perft_rec(r, p, depth, lists);
}

int dm_jmove_path(const dm_jrules *r, const dm_jpos *p, const dm_jmove *m, int *path, int max)
{
    dm_jmovelist list;
    dm_jmovegen(&list, r, p);
    int legal = 0;
    for (int i = 0; i < list.count; i++) {
        legal |= list.moves[i].from == m->from && list.moves[i].to == m->to;
    }
    if (!legal || max < 1) {
        return 0;
    }
    if (r->game == DM_JGAME_GEWU) {
        /* Replay the steps one by one. */
        int n = 0;
        for (int k = 1; k <= p->throw_steps && n < max; k++) {
            int to = gewu_walk(r, p, p->to_move, m->from, k);
            path[n++] = to;
            if (to == DM_JOFF_BOARD) {
                break;
            }
        }
        return n;
    }
    for (int d = 0; d < r->dirs; d++) {
        if (r->nb[m->from][d] == m->to || (r->options & DM_JOPT_CAPTURE)) {
            path[0] = m->to; /* a step (or the capture puzzle's one jump) */
            return 1;
        }
    }
    /* A shortest jump chain: breadth first from the start, then back via parents. */
    dm_jset occ = occupied(r, p);
    jset_del(&occ, m->from);
    int parent[DM_JMAX_SQUARES], queue[DM_JMAX_SQUARES], head = 0, tail = 0;
    for (int i = 0; i < DM_JMAX_SQUARES; i++) {
        parent[i] = -2;
    }
    parent[m->from] = -1;
    queue[tail++] = m->from;
    while (head < tail && parent[m->to] == -2) {
        int s = queue[head++];
        for (int d = 0; d < r->dirs; d++) {
            int t = jump_land(r, &occ, s, d);
            if (t < 0 || parent[t] != -2) {
                continue;
            }
            parent[t] = s;
            queue[tail++] = t;
        }
    }
    int rev[DM_JMAX_SQUARES], n = 0;
    for (int s = m->to; s != m->from && s >= 0; s = parent[s]) {
        rev[n++] = s;
    }
    if (n > max) {
        return 0;
    }
    for (int i = 0; i < n; i++) {
        path[i] = rev[n - 1 - i];
    }
    return n;
}
