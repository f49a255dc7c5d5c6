/* SPDX-License-Identifier: MIT
 * src/jump/jump_pegdb.c: the last pegs of Chinese checkers and Halma solved exactly
 * (damier/jump.h, dm_jpegdb): the solitaire distance of k pegs to their target by
 * breadth-first search over the combinatorial index of peg sets, and the engine's use
 * of it once the armies are disengaged (dm_jrace, dm_jendgame). */
#include <stdlib.h>
#include <string.h>

#include <damier/jump.h>

#include "jump/jump_int.h"

/* The squares where seat may not end a move: under no-foreign-corner, the points
 * that are neither its home nor its target (dm_jmovegen's rule). */
static dm_jset forbidden_for(const dm_jrules *r, int seat)
{
    dm_jset f = {{0, 0, 0, 0}};
    if (r->options & DM_JOPT_NO_FOREIGN_CORNER) {
        f = r->corners;
        for (int w = 0; w < 4; w++) {
            f.w[w] &= ~(r->home[seat].w[w] | r->target[seat].w[w]);
        }
    }
    return f;
}

/* The squares a peg on from reaches with occupancy occ (from not in it): steps to
 * an empty neighbour and jump chains (jump_land: the super jump too), as the rules'
 * generator, less the forbidden squares. */
static dm_jset reach(const dm_jrules *r, const dm_jset *occ, int from, const dm_jset *forbidden)
{
    dm_jset dest = {{0, 0, 0, 0}}, seen = {{0, 0, 0, 0}};
    int stack[DM_JMAX_SQUARES], top = 0;
    for (int d = 0; d < r->dirs; d++) {
        int n = r->nb[from][d];
        if (n >= 0 && !jset_has(occ, n)) {
            jset_add(&dest, n);
        }
    }
    jset_add(&seen, from);
    stack[top++] = from;
    while (top) {
        int s = stack[--top];
        for (int d = 0; d < r->dirs; d++) {
            int t = jump_land(r, occ, s, d);
            if (t < 0 || jset_has(&seen, t)) {
                continue;
            }
            jset_add(&seen, t);
            jset_add(&dest, t);
            stack[top++] = t;
        }
    }
    for (int w = 0; w < 4; w++) {
        dest.w[w] &= ~forbidden->w[w];
    }
    return dest;
}

/* Index of the sorted squares c[0] < ... < c[k-1]. */
static uint32_t rank_of(const dm_jpegdb *db, const int *c)
{
    uint32_t x = 0;
    for (int i = 0; i < db->k; i++) {
        x += db->binom[i + 1][c[i]];
    }
    return x;
}

/* The next k-set after c in index order (colex); 0 after the last. */
static int next_set(int *c, int k, int n)
{
    for (int i = 0; i < k; i++) {
        int lim = i + 1 < k ? c[i + 1] : n;
        if (c[i] + 1 < lim) {
            c[i]++;
            for (int j = 0; j < i; j++) {
                c[j] = j;
            }
            return 1;
        }
    }
    return 0;
}

static int supported(const dm_jrules *r)
{
    return (r->game == DM_JGAME_CHINESE || r->game == DM_JGAME_HALMA) &&
           !(r->options & DM_JOPT_CAPTURE);
}

dm_status dm_jpegdb_build(dm_jpegdb *db, const dm_jrules *r, int seat, int k, const dm_jset *fixed,
                          dm_error *err)
{
    memset(db, 0, sizeof *db);
    if (!supported(r)) {
        return dm_error_set(err, DM_EINVAL, 0, 0,
                            "the last pegs' table is for chinese-checkers and halma "
                            "(not the capture game)");
    }
    if (seat < 0 || seat >= r->players) {
        return dm_error_set(err, DM_EINVAL, 0, 0, "seat %d: the game has seats 0..%d", seat,
                            r->players - 1);
    }
    if (k < 1 || k > DM_JPEGDB_MAX_PEGS) {
        return dm_error_set(err, DM_EINVAL, 0, 0, "pegs must be 1..%d, not %d", DM_JPEGDB_MAX_PEGS,
                            k);
    }
    db->game = r->game;
    db->players = r->players;
    db->size = r->size;
    db->options = r->options;
    db->seat = seat;
    db->k = k;
    db->squares = r->squares;
    if (fixed) {
        db->fixed = *fixed;
    }
    for (int w = 0; w < 4; w++) {
        db->goal.w[w] = r->target[seat].w[w] & ~db->fixed.w[w];
    }
    if (jset_count(&db->goal) < k) {
        return dm_error_set(err, DM_EINVAL, 0, 0,
                            "%d pegs cannot all end in the %d free target squares", k,
                            jset_count(&db->goal));
    }
    uint64_t b[DM_JPEGDB_MAX_PEGS + 1][DM_JMAX_SQUARES + 1];
    memset(b, 0, sizeof b);
    for (int n = 0; n <= r->squares; n++) {
        b[0][n] = 1;
        for (int i = 1; i <= k; i++) {
            b[i][n] = n == 0 ? 0 : b[i][n - 1] + b[i - 1][n - 1];
        }
    }
    if (b[k][r->squares] > DM_JPEGDB_MAX_ENTRIES) {
        return dm_error_set(
            err, DM_EINVAL, 0, 0, "%d pegs on %d squares: %llu entries, more than the %u allowed",
            k, r->squares, (unsigned long long)b[k][r->squares], DM_JPEGDB_MAX_ENTRIES);
    }
    for (int i = 0; i <= k; i++) {
        for (int n = 0; n <= r->squares; n++) {
            db->binom[i][n] = (uint32_t)b[i][n];
        }
    }
    db->entries = (uint32_t)b[k][r->squares];
    db->dist = malloc(db->entries);
    if (!db->dist) {
        return dm_error_set(err, DM_ENOMEM, 0, 0, "out of memory for %u entries", db->entries);
    }
    memset(db->dist, DM_JPEGDB_UNREACHED, db->entries);

    /* level 0: every k-set inside the goal */
    int c[DM_JPEGDB_MAX_PEGS];
    uint32_t found = 0;
    for (int i = 0; i < k; i++) {
        c[i] = i;
    }
    uint32_t x = 0;
    do {
        int in = 1;
        for (int i = 0; i < k && in; i++) {
            in = jset_has(&db->goal, c[i]);
        }
        if (in) {
            db->dist[x] = 0;
            found++;
        }
        x++;
    } while (next_set(c, k, r->squares));

    /* level d + 1: the unreached sets one move from a set of level d */
    dm_jset forbidden = forbidden_for(r, seat);
    for (int d = 0; found && d < DM_JPEGDB_UNREACHED - 1; d++) {
        found = 0;
        for (int i = 0; i < k; i++) {
            c[i] = i;
        }
        x = 0;
        do {
            if (db->dist[x] != d) {
                continue;
            }
            dm_jset occ = db->fixed;
            for (int i = 0; i < k; i++) {
                jset_add(&occ, c[i]);
            }
            for (int i = 0; i < k; i++) {
                jset_del(&occ, c[i]);
                dm_jset dest = reach(r, &occ, c[i], &forbidden);
                jset_add(&occ, c[i]);
                for (int t = jset_next(&dest, 0); t >= 0; t = jset_next(&dest, t + 1)) {
                    /* c with c[i] replaced by t, sorted */
                    int e[DM_JPEGDB_MAX_PEGS], n = 0, put = 0;
                    for (int j = 0; j < k; j++) {
                        if (j == i) {
                            continue;
                        }
                        if (!put && t < c[j]) {
                            e[n++] = t;
                            put = 1;
                        }
                        e[n++] = c[j];
                    }
                    if (!put) {
                        e[n++] = t;
                    }
                    uint32_t y = rank_of(db, e);
                    if (db->dist[y] == DM_JPEGDB_UNREACHED) {
                        db->dist[y] = (uint8_t)(d + 1);
                        found++;
                    }
                }
            }
        } while (x++, next_set(c, k, r->squares));
        if (found) {
            db->max = d + 1;
        }
    }
    return DM_OK;
}

int dm_jpegdb_distance(const dm_jpegdb *db, const dm_jset *pegs)
{
    if (!db->dist || jset_count(pegs) != db->k) {
        return -1;
    }
    int c[DM_JPEGDB_MAX_PEGS], n = 0;
    for (int i = jset_next(pegs, 0); i >= 0; i = jset_next(pegs, i + 1)) {
        if (i >= db->squares || jset_has(&db->fixed, i)) {
            return -1;
        }
        c[n++] = i;
    }
    int v = db->dist[rank_of(db, c)];
    return v == DM_JPEGDB_UNREACHED ? -1 : v;
}

void dm_jpegdb_free(dm_jpegdb *db)
{
    free(db->dist);
    db->dist = NULL;
}

/* ---- the race ------------------------------------------------------------------- */

/* How far square sq is along seat A's way from its home to its target: the star's
 * rows counted from A's home point, Halma's file + rank counted from A's corner. */
static int advance(const dm_jrules *r, int sq)
{
    int home_corner = r->corner[0];
    if (r->game == DM_JGAME_CHINESE) {
        return home_corner == 3 ? 16 - r->row[sq] : r->row[sq];
    }
    int x = r->col[sq], y = r->size - 1 - r->row[sq];
    return home_corner == 0 ? x + y : 2 * (r->size - 1) - (x + y);
}

static int two_player_race_game(const dm_jrules *r)
{
    if (!supported(r) || r->players != 2) {
        return 0;
    }
    /* the axis: seat A's home and target at the two ends (the standard seats) */
    return r->game == DM_JGAME_CHINESE ? (r->corner[0] == 3 || r->corner[0] == 0)
                                       : (r->corner[0] == 0 || r->corner[0] == 2);
}

int dm_jrace(const dm_jrules *r, const dm_jpos *p)
{
    if (!two_player_race_game(r)) {
        return 0;
    }
    int a_min = 1 << 20, b_max = -1;
    for (int i = jset_next(&p->pieces[0], 0); i >= 0; i = jset_next(&p->pieces[0], i + 1)) {
        int v = advance(r, i);
        a_min = v < a_min ? v : a_min;
    }
    for (int i = jset_next(&p->pieces[1], 0); i >= 0; i = jset_next(&p->pieces[1], i + 1)) {
        int v = advance(r, i);
        b_max = v > b_max ? v : b_max;
    }
    return a_min > b_max;
}

/* ---- the engine's cache --------------------------------------------------------- */

void dm_jendgame_init(dm_jendgame *eg, int max_pegs)
{
    memset(eg, 0, sizeof *eg);
    eg->max_pegs = max_pegs < 0 ? 0 : max_pegs > DM_JPEGDB_MAX_PEGS ? DM_JPEGDB_MAX_PEGS : max_pegs;
}

void dm_jendgame_free(dm_jendgame *eg)
{
    for (int s = 0; s < 2; s++) {
        dm_jpegdb_free(&eg->db[s]);
    }
}

/* The table of seat that fits own (its pegs): built for the same rules and seat, its
 * fixed pegs all in own, and the others db->k pegs. */
static int table_fits(const dm_jpegdb *db, const dm_jrules *r, int seat, const dm_jset *own)
{
    if (!db->dist || db->game != r->game || db->players != r->players || db->size != r->size ||
        db->options != r->options || db->seat != seat) {
        return 0;
    }
    for (int w = 0; w < 4; w++) {
        if (db->fixed.w[w] & ~own->w[w]) {
            return 0;
        }
    }
    return jset_count(own) - jset_count(&db->fixed) == db->k;
}

/* seat's table for p, built when the one kept does not fit; NULL when none applies. */
static const dm_jpegdb *table_for(dm_jendgame *eg, const dm_jrules *r, const dm_jpos *p, int seat)
{
    if (!eg || eg->max_pegs < 1 || !two_player_race_game(r) || seat < 0 || seat > 1) {
        return NULL;
    }
    const dm_jset *own = &p->pieces[seat];
    dm_jset in = *own, out = *own;
    for (int w = 0; w < 4; w++) {
        in.w[w] &= r->target[seat].w[w];
        out.w[w] &= ~r->target[seat].w[w];
        if (p->pieces[1 - seat].w[w] & r->target[seat].w[w]) {
            return NULL; /* an opponent's peg on the target: not a solitaire */
        }
    }
    int k = jset_count(&out);
    if (k < 1 || k > eg->max_pegs) {
        return NULL;
    }
    dm_jpegdb *db = &eg->db[seat];
    if (table_fits(db, r, seat, own)) {
        return db;
    }
    dm_jpegdb_free(db);
    if (dm_jpegdb_build(db, r, seat, k, &in, NULL) != DM_OK) {
        dm_jpegdb_free(db);
        return NULL;
    }
    eg->builds++;
    return db;
}

static int distance_in(const dm_jpegdb *db, const dm_jset *own)
{
    dm_jset moving = *own;
    for (int w = 0; w < 4; w++) {
        moving.w[w] &= ~db->fixed.w[w];
    }
    return dm_jpegdb_distance(db, &moving);
}

int dm_jendgame_distance(dm_jendgame *eg, const dm_jrules *r, const dm_jpos *p, int seat)
{
    const dm_jpegdb *db = table_for(eg, r, p, seat);
    return db ? distance_in(db, &p->pieces[seat]) : -1;
}

int dm_jendgame_move(dm_jendgame *eg, const dm_jrules *r, const dm_jpos *p, dm_jmove *m)
{
    int seat = p->to_move;
    if (!dm_jrace(r, p) || dm_jpos_winner(p, r) >= 0) {
        return 0;
    }
    const dm_jpegdb *db = table_for(eg, r, p, seat);
    int d = db ? distance_in(db, &p->pieces[seat]) : -1;
    if (d < 1) {
        return 0;
    }
    dm_jmovelist *list = malloc(sizeof *list);
    if (!list) {
        return 0;
    }
    int n = dm_jmovegen(list, r, p), best = -1, bestg = -(1 << 20);
    for (int i = 0; i < n; i++) {
        const dm_jmove *mv = &list->moves[i];
        if (jset_has(&db->fixed, mv->from)) {
            continue;
        }
        dm_jset own = p->pieces[seat];
        jset_del(&own, mv->from);
        jset_add(&own, mv->to);
        int g = (int)r->goal_dist[seat][mv->from] - (int)r->goal_dist[seat][mv->to];
        if (distance_in(db, &own) == d - 1 && g > bestg) {
            best = i;
            bestg = g;
        }
    }
    if (best >= 0) {
        *m = list->moves[best];
    }
    free(list);
    return best >= 0;
}

int dm_jengine_move_eg(const dm_jrules *r, const dm_jpos *p, int level, dm_jendgame *eg,
                       dm_jmove *m)
{
    if (eg && dm_jendgame_move(eg, r, p, m)) {
        return 1;
    }
    return dm_jengine_move(r, p, level, m);
}
