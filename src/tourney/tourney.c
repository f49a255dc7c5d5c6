/* SPDX-License-Identifier: MIT
 * src/tourney/tourney.c: entrants, the Berger tables, Monrad pairing and the
 * standings with their tie-breaks (damier/tourney.h; docs/TOURNEY.md). */
#include <stdlib.h>
#include <string.h>

#include <damier/tourney.h>

#include "tourney/tourney_int.h"

void dm_tourney_init(dm_tourney *t)
{
    memset(t, 0, sizeof *t);
    t->system = DM_TOURNEY_SWISS;
    t->cycles = 1;
    t->rounds = 7;
    t->win = 2;
    t->draw = 1;
    t->loss = 0;
    t->bye = 2;
    t->match_win = 2;
    t->match_draw = 1;
    t->match_loss = 0;
    t->ntiebreaks = -1;
}

void dm_tourney_free(dm_tourney *t)
{
    free(t->entrants);
    free(t->pairings);
    dm_tourney_init(t);
}

static const char *const tb_names[] = {
    NULL, "direct", "wins", "sonneborn-berger", "buchholz", "median-buchholz", "board-points"};

const char *dm_tourney_tiebreak_name(int tb)
{
    return tb >= DM_TB_DIRECT && tb <= DM_TB_BOARD_POINTS ? tb_names[tb] : NULL;
}

int dm_tourney_tiebreak_from_name(const char *name)
{
    for (int i = DM_TB_DIRECT; name && i <= DM_TB_BOARD_POINTS; i++) {
        if (!strcmp(name, tb_names[i])) {
            return i;
        }
    }
    return 0;
}

int dm_tourney_default_tiebreaks(const dm_tourney *t, int *out)
{
    int n = 0;
    if (t->boards > 0) {
        out[n++] = DM_TB_BOARD_POINTS;
    }
    if (t->system == DM_TOURNEY_ROUND_ROBIN) {
        out[n++] = DM_TB_DIRECT;
        out[n++] = DM_TB_WINS;
        out[n++] = DM_TB_SONNEBORN_BERGER;
    } else {
        out[n++] = DM_TB_BUCHHOLZ;
        out[n++] = DM_TB_MEDIAN_BUCHHOLZ;
        out[n++] = DM_TB_SONNEBORN_BERGER;
        out[n++] = DM_TB_WINS;
    }
    return n;
}

dm_status dm_tourney_add_entrant(dm_tourney *t, const dm_tourney_entrant *e, dm_error *err)
{
    if (!e || !e->name[0]) {
        return dm_error_set(err, DM_EINVAL, 0, 0, "an entrant needs a name");
    }
    if (!memchr(e->name, 0, sizeof e->name) || !memchr(e->section, 0, sizeof e->section) ||
        !memchr(e->categories, 0, sizeof e->categories)) {
        return dm_error_set(err, DM_EINVAL, 0, 0, "a name, section or category is too long");
    }
    if (t->npairings > 0) {
        return dm_error_set(err, DM_ESTATE, 0, 0,
                            "entrant \"%s\": no entrant can join once a round is paired", e->name);
    }
    if (t->nentrants >= DM_TOURNEY_MAX_ENTRANTS) {
        return dm_error_set(err, DM_EINVAL, 0, 0, "more than %d entrants", DM_TOURNEY_MAX_ENTRANTS);
    }
    for (int i = 0; i < t->nentrants; i++) {
        if (!strcmp(t->entrants[i].name, e->name)) {
            return dm_error_set(err, DM_EINVAL, 0, 0, "entrant \"%s\" is there already", e->name);
        }
    }
    if (t->nentrants == t->cap_entrants) {
        int cap = t->cap_entrants ? 2 * t->cap_entrants : 16;
        dm_tourney_entrant *n = realloc(t->entrants, (size_t)cap * sizeof *n);
        if (!n) {
            return dm_error_set(err, DM_ENOMEM, 0, 0, "out of memory");
        }
        t->entrants = n;
        t->cap_entrants = cap;
    }
    t->entrants[t->nentrants++] = *e;
    return DM_OK;
}

dm_status tourney_push_pairing(dm_tourney *t, const dm_tourney_pairing *p, dm_error *err)
{
    if (t->npairings == t->cap_pairings) {
        int cap = t->cap_pairings ? 2 * t->cap_pairings : 32;
        dm_tourney_pairing *n = realloc(t->pairings, (size_t)cap * sizeof *n);
        if (!n) {
            return dm_error_set(err, DM_ENOMEM, 0, 0, "out of memory");
        }
        t->pairings = n;
        t->cap_pairings = cap;
    }
    t->pairings[t->npairings++] = *p;
    return DM_OK;
}

int dm_tourney_current_round(const dm_tourney *t)
{
    return t->npairings ? t->pairings[t->npairings - 1].round : 0;
}

/* The members of section s (entrant indices in entry order) into out; their count. */
static int section_members(const dm_tourney *t, const char *s, int *out)
{
    int n = 0;
    for (int i = 0; i < t->nentrants; i++) {
        if (!strcmp(t->entrants[i].section, s)) {
            out[n++] = i;
        }
    }
    return n;
}

/* The distinct sections (pointers to the first entrant's section text), in order. */
static int sections(const dm_tourney *t, const char **out)
{
    int n = 0;
    for (int i = 0; i < t->nentrants; i++) {
        int seen = 0;
        for (int k = 0; k < n && !seen; k++) {
            seen = !strcmp(out[k], t->entrants[i].section);
        }
        if (!seen) {
            out[n++] = t->entrants[i].section;
        }
    }
    return n;
}

int dm_tourney_total_rounds(const dm_tourney *t)
{
    if (t->system == DM_TOURNEY_SWISS) {
        return t->rounds;
    }
    const char *sec[DM_TOURNEY_MAX_ENTRANTS];
    int ns = sections(t, sec), most = 0;
    for (int k = 0; k < ns; k++) {
        int n = 0;
        for (int i = 0; i < t->nentrants; i++) {
            n += !strcmp(t->entrants[i].section, sec[k]);
        }
        int rounds = (n + (n & 1) - 1) * (t->cycles > 1 ? t->cycles : 1);
        most = rounds > most ? rounds : most;
    }
    return most;
}

/* ---- round robin: the Berger tables ------------------------------------------------
 * N players (an odd field gets a dummy N: its opponent has the bye). Round 1:
 * 1-N, 2-(N-1), ..., N/2-(N/2+1), the first named White. Each next round maps every
 * number x < N to ((x - 1 + N/2) mod (N - 1)) + 1 and turns the colours of the game
 * of N round; the other games keep theirs. For N = 6 this gives FIDE's table:
 * 1-6 2-5 3-4 / 6-4 5-3 1-2 / 2-6 3-1 4-5 / 6-5 1-4 2-3 / 3-6 4-2 5-1. */
void tourney_berger_round(int n, int round, int (*pairs)[2])
{
    int half = n / 2;
    for (int i = 0; i < half; i++) {
        pairs[i][0] = i + 1;
        pairs[i][1] = n - i;
    }
    for (int r = 1; r < round; r++) {
        for (int i = 0; i < half; i++) {
            for (int s = 0; s < 2; s++) {
                if (pairs[i][s] != n) {
                    pairs[i][s] = (pairs[i][s] - 1 + half) % (n - 1) + 1;
                }
            }
            if (pairs[i][0] == n || pairs[i][1] == n) {
                int x = pairs[i][0];
                pairs[i][0] = pairs[i][1];
                pairs[i][1] = x;
            }
        }
    }
}

static dm_status pair_round_robin(dm_tourney *t, const int *m, int n, int round, dm_error *err)
{
    int N = n + (n & 1), per = N - 1;
    int cycles = t->cycles > 1 ? t->cycles : 1;
    if (round > per * cycles) {
        return DM_OK; /* this section has played all its rounds */
    }
    int(*pairs)[2] = malloc(sizeof *pairs * (size_t)(N > 0 ? N / 2 + 1 : 1));
    if (!pairs) {
        return dm_error_set(err, DM_ENOMEM, 0, 0, "out of memory");
    }
    tourney_berger_round(N, (round - 1) % per + 1, pairs);
    int reverse = ((round - 1) / per) & 1;
    dm_status st = DM_OK;
    for (int i = 0; i < N / 2 && st == DM_OK; i++) {
        int a = pairs[i][reverse], b = pairs[i][!reverse];
        dm_tourney_pairing p;
        memset(&p, 0, sizeof p);
        p.round = round;
        if (a > n || b > n) {
            p.white = m[(a > n ? b : a) - 1];
            p.black = -1;
            p.outcome = DM_TOUT_BYE;
        } else {
            p.white = m[a - 1];
            p.black = m[b - 1];
        }
        st = tourney_push_pairing(t, &p, err);
    }
    free(pairs);
    return st;
}

/* ---- Swiss: Monrad -------------------------------------------------------------- */

/* What an entrant has had: colours of the games played (PLAYED pairings), in order. */
typedef struct history {
    int whites, blacks;
    int last[2]; /* the last two colours: 0 White, 1 Black, -1 none; last[0] the latest */
    int had_bye;
} history;

static void histories(const dm_tourney *t, history *h)
{
    for (int i = 0; i < t->nentrants; i++) {
        h[i] = (history){0, 0, {-1, -1}, 0};
    }
    for (int k = 0; k < t->npairings; k++) {
        const dm_tourney_pairing *p = &t->pairings[k];
        if (p->outcome == DM_TOUT_BYE) {
            h[p->white].had_bye = 1;
            continue;
        }
        if (p->outcome != DM_TOUT_PLAYED) {
            continue;
        }
        for (int s = 0; s < 2; s++) {
            history *x = &h[s ? p->black : p->white];
            if (s) {
                x->blacks++;
            } else {
                x->whites++;
            }
            x->last[1] = x->last[0];
            x->last[0] = s;
        }
    }
}

/* 1 when a and b met in a game played (a forfeit is no meeting). */
static int met(const dm_tourney *t, int a, int b)
{
    for (int k = 0; k < t->npairings; k++) {
        const dm_tourney_pairing *p = &t->pairings[k];
        if (p->outcome == DM_TOUT_PLAYED &&
            ((p->white == a && p->black == b) || (p->white == b && p->black == a))) {
            return 1;
        }
    }
    return 0;
}

/* May x take colour c (0 White, 1 Black) next: never a third in a row, never more
 * than two apart. */
static int colour_ok(const history *x, int c)
{
    if (x->last[0] == c && x->last[1] == c) {
        return 0;
    }
    int diff = x->whites - x->blacks + (c == 0 ? 1 : -1);
    return diff >= -2 && diff <= 2;
}

/* The colours of a game between a (placed higher) and b in round: 1 when a gets
 * White, 0 when b does; -1 when the rules allow neither (checked only when strict). */
static int colours(const history *a, const history *b, int round, int strict)
{
    int da = a->whites - a->blacks, db = b->whites - b->blacks;
    int a_white;
    if (da != db) {
        a_white = da < db;
    } else if (a->last[0] != b->last[0] && a->last[0] >= 0 && b->last[0] >= 0) {
        a_white = a->last[0] == 1;
    } else if (a->last[0] >= 0) {
        a_white = a->last[0] == 1;
    } else {
        a_white = round & 1;
    }
    if (!strict) {
        return a_white;
    }
    if (colour_ok(a, !a_white) && colour_ok(b, a_white)) {
        return a_white;
    }
    if (colour_ok(a, a_white) && colour_ok(b, !a_white)) {
        return !a_white;
    }
    return -1;
}

typedef struct swiss_ctx {
    const dm_tourney *t;
    const history *h;
    const int *order; /* the field in standings order */
    int n;
    int round;
    int level; /* 0: no rematch + colours; 1: no rematch; 2: anything */
    int *used;
    int *mate; /* mate[i]: the index (in order) paired with order[i] */
    long steps;
} swiss_ctx;

#define SWISS_MAX_STEPS 2000000L

static int swiss_fill(swiss_ctx *c, int from)
{
    while (from < c->n && c->used[from]) {
        from++;
    }
    if (from == c->n) {
        return 1;
    }
    if (++c->steps > SWISS_MAX_STEPS) {
        return 0;
    }
    int a = c->order[from];
    c->used[from] = 1;
    for (int j = from + 1; j < c->n; j++) {
        if (c->used[j]) {
            continue;
        }
        int b = c->order[j];
        if (c->level < 2 && met(c->t, a, b)) {
            continue;
        }
        if (c->level == 0 && colours(&c->h[a], &c->h[b], c->round, 1) < 0) {
            continue;
        }
        c->used[j] = 1;
        c->mate[from] = j;
        c->mate[j] = from;
        if (swiss_fill(c, from + 1)) {
            return 1;
        }
        c->used[j] = 0;
        if (c->steps > SWISS_MAX_STEPS) {
            break;
        }
    }
    c->used[from] = 0;
    return 0;
}

static dm_status pair_swiss(dm_tourney *t, const int *members, int n, int round, const int *points,
                            dm_error *err)
{
    if (round > t->rounds) {
        return DM_OK;
    }
    int *order = malloc(sizeof *order * (size_t)(4 * (n > 0 ? n : 0) + 1));
    history *h = malloc(sizeof *h * (size_t)(t->nentrants > 0 ? t->nentrants : 1));
    if (!order || !h) {
        free(order);
        free(h);
        return dm_error_set(err, DM_ENOMEM, 0, 0, "out of memory");
    }
    int *used = order + n, *mate = order + 2 * n;
    histories(t, h);
    int m = 0;
    for (int i = 0; i < n; i++) {
        if (!t->entrants[members[i]].withdrawn) {
            order[m++] = members[i];
        }
    }
    /* standings order: points, rating, entry order (insertion sort: stable) */
    for (int i = 1; i < m; i++) {
        int x = order[i], j = i;
        while (j > 0) {
            int y = order[j - 1];
            int better = points[x] != points[y] ? points[x] > points[y]
                                                : t->entrants[x].rating > t->entrants[y].rating;
            if (!better) {
                break;
            }
            order[j] = y;
            j--;
        }
        order[j] = x;
    }
    dm_status st = DM_OK;
    int done = 0;
    /* the bye: the lowest placed without one (a later candidate when the rest cannot
     * be paired) */
    for (int level = 0; level < 3 && !done; level++) {
        for (int bye = (m & 1) ? m - 1 : -1; !done && bye >= ((m & 1) ? 0 : -1); bye--) {
            if (bye >= 0 && h[order[bye]].had_bye && level < 2) {
                continue;
            }
            swiss_ctx c = {t, h, order, m, round, level, used, mate, 0};
            memset(used, 0, sizeof *used * (size_t)m);
            if (bye >= 0) {
                used[bye] = 1;
                mate[bye] = -1;
            }
            if (swiss_fill(&c, 0)) {
                done = 1;
                for (int i = 0; i < m && st == DM_OK; i++) {
                    dm_tourney_pairing p;
                    memset(&p, 0, sizeof p);
                    p.round = round;
                    if (i == bye) {
                        p.white = order[i];
                        p.black = -1;
                        p.outcome = DM_TOUT_BYE;
                    } else if (mate[i] > i) {
                        int a = order[i], b = order[mate[i]];
                        int a_white = colours(&h[a], &h[b], round, level == 0);
                        p.white = a_white ? a : b;
                        p.black = a_white ? b : a;
                    } else {
                        continue;
                    }
                    st = tourney_push_pairing(t, &p, err);
                }
            }
        }
    }
    free(order);
    free(h);
    if (!done && st == DM_OK) {
        st = dm_error_set(err, DM_EINVAL, 0, 0, "round %d: no pairing found", round);
    }
    return st;
}

/* ---- results and points ---------------------------------------------------------- */

/* The event's points of side s (0 white, 1 black) in pairing p, and the pairing's
 * game (board) points of that side; 0 for a pending pairing. */
static int event_points(const dm_tourney *t, const dm_tourney_pairing *p, int s, int *game)
{
    if (p->outcome == DM_TOUT_PENDING) {
        *game = 0;
        return 0;
    }
    if (p->outcome == DM_TOUT_BYE) {
        *game = t->boards > 0 ? t->boards * t->draw : t->bye;
        return t->bye;
    }
    *game = p->score[s];
    if (t->boards == 0) {
        return p->score[s];
    }
    int mine = p->score[s], theirs = p->score[!s];
    if (p->outcome == DM_TOUT_FORFEIT && mine == theirs) {
        return t->match_loss; /* both absent */
    }
    return mine > theirs ? t->match_win : mine == theirs ? t->match_draw : t->match_loss;
}

/* Points of every entrant over the pairings before round `before` (0: all). */
void tourney_points(const dm_tourney *t, int before, int *points)
{
    memset(points, 0, sizeof *points * (size_t)t->nentrants);
    for (int k = 0; k < t->npairings; k++) {
        const dm_tourney_pairing *p = &t->pairings[k];
        if (before && p->round >= before) {
            continue;
        }
        int g;
        points[p->white] += event_points(t, p, 0, &g);
        if (p->black >= 0) {
            points[p->black] += event_points(t, p, 1, &g);
        }
    }
}

dm_status dm_tourney_pair_next(dm_tourney *t, int *round_out, dm_error *err)
{
    int round = dm_tourney_current_round(t) + 1;
    for (int k = 0; k < t->npairings; k++) {
        if (t->pairings[k].outcome == DM_TOUT_PENDING) {
            return dm_error_set(err, DM_ESTATE, 0, 0, "round %d: a result is missing (%s - %s)",
                                t->pairings[k].round, t->entrants[t->pairings[k].white].name,
                                t->entrants[t->pairings[k].black].name);
        }
    }
    if (round > dm_tourney_total_rounds(t)) {
        return dm_error_set(err, DM_ESTATE, 0, 0, "every round (%d) is paired",
                            dm_tourney_total_rounds(t));
    }
    const char *sec[DM_TOURNEY_MAX_ENTRANTS];
    int ns = sections(t, sec);
    int *m = malloc(sizeof *m * (size_t)(2 * (t->nentrants > 0 ? t->nentrants : 0) + 1));
    if (!m) {
        return dm_error_set(err, DM_ENOMEM, 0, 0, "out of memory");
    }
    int *points = m + t->nentrants;
    tourney_points(t, 0, points);
    int before = t->npairings;
    dm_status st = DM_OK;
    for (int k = 0; k < ns && st == DM_OK; k++) {
        int n = section_members(t, sec[k], m);
        if (n < 2) {
            st = dm_error_set(err, DM_EINVAL, 0, 0, "section \"%s\" has fewer than two entrants",
                              sec[k]);
        } else if (t->system == DM_TOURNEY_ROUND_ROBIN) {
            st = pair_round_robin(t, m, n, round, err);
        } else {
            st = pair_swiss(t, m, n, round, points, err);
        }
    }
    free(m);
    if (st != DM_OK) {
        t->npairings = before;
        return st;
    }
    if (round_out) {
        *round_out = round;
    }
    return DM_OK;
}

int tourney_is_game(const dm_tourney *t, int a, int b)
{
    return (a == t->win && b == t->loss) || (a == t->draw && b == t->draw) ||
           (a == t->loss && b == t->win);
}

dm_status dm_tourney_set_board(dm_tourney *t, int i, int board, int home_points, int away_points,
                               dm_error *err)
{
    if (i < 0 || i >= t->npairings || t->boards == 0 || board < 1 || board > t->boards) {
        return dm_error_set(err, DM_EINVAL, 0, 0, "no board %d in pairing %d of a team event",
                            board, i + 1);
    }
    dm_tourney_pairing *p = &t->pairings[i];
    if (p->outcome == DM_TOUT_BYE) {
        return dm_error_set(err, DM_EINVAL, 0, 0, "pairing %d is a bye", i + 1);
    }
    if (!tourney_is_game(t, home_points, away_points)) {
        return dm_error_set(err, DM_EINVAL, 0, 0, "board %d: %d-%d is no game's result", board,
                            home_points, away_points);
    }
    p->board[board - 1][0] = home_points;
    p->board[board - 1][1] = away_points;
    p->board_done[board - 1] = 1;
    int all = 1, sum[2] = {0, 0};
    for (int b = 0; b < t->boards; b++) {
        all &= p->board_done[b];
        sum[0] += p->board[b][0];
        sum[1] += p->board[b][1];
    }
    if (all) {
        p->outcome = DM_TOUT_PLAYED;
        p->score[0] = sum[0];
        p->score[1] = sum[1];
    }
    return DM_OK;
}

dm_status dm_tourney_set_result(dm_tourney *t, int i, int outcome, int white_points,
                                int black_points, dm_error *err)
{
    if (i < 0 || i >= t->npairings) {
        return dm_error_set(err, DM_EINVAL, 0, 0, "no pairing %d", i + 1);
    }
    dm_tourney_pairing *p = &t->pairings[i];
    if (p->outcome == DM_TOUT_BYE) {
        return dm_error_set(err, DM_EINVAL, 0, 0, "pairing %d is a bye", i + 1);
    }
    if (outcome == DM_TOUT_PENDING) {
        p->outcome = DM_TOUT_PENDING;
        memset(p->board, 0, sizeof p->board);
        memset(p->board_done, 0, sizeof p->board_done);
        p->score[0] = p->score[1] = 0;
        return DM_OK;
    }
    int full = t->boards > 0 ? t->boards : 1;
    if (outcome == DM_TOUT_FORFEIT) {
        int w = t->win * full, l = t->loss * full;
        if (!((white_points == w && black_points == l) ||
              (white_points == l && black_points == w) ||
              (white_points == l && black_points == l))) {
            return dm_error_set(err, DM_EINVAL, 0, 0,
                                "a forfeit gives %d-%d, %d-%d or %d-%d, not %d-%d", w, l, l, w, l,
                                l, white_points, black_points);
        }
    } else if (outcome == DM_TOUT_PLAYED) {
        if (t->boards > 0) {
            return dm_error_set(err, DM_EINVAL, 0, 0,
                                "a team match's result is its boards' (dm_tourney_set_board)");
        }
        if (!tourney_is_game(t, white_points, black_points)) {
            return dm_error_set(err, DM_EINVAL, 0, 0,
                                "%d-%d is no game's result (%d-%d, %d-%d, %d-%d)", white_points,
                                black_points, t->win, t->loss, t->draw, t->draw, t->loss, t->win);
        }
    } else {
        return dm_error_set(err, DM_EINVAL, 0, 0, "outcome %d is not a result", outcome);
    }
    p->outcome = outcome;
    p->score[0] = white_points;
    p->score[1] = black_points;
    memset(p->board, 0, sizeof p->board);
    memset(p->board_done, 0, sizeof p->board_done);
    return DM_OK;
}

/* ---- standings ------------------------------------------------------------------ */

typedef struct line {
    int e;
    int points, games, wins, board;
    double key[DM_TOURNEY_MAX_TIEBREAKS];
} line;

static int has_category(const char *cats, const char *c)
{
    size_t n = strlen(c);
    for (const char *s = cats; *s;) {
        const char *e = strchr(s, ',');
        size_t len = e ? (size_t)(e - s) : strlen(s);
        if (len == n && !strncmp(s, c, n)) {
            return 1;
        }
        s += len + (e != NULL);
    }
    return 0;
}

/* Tie-break tb of entrant e; group: the entrants tied with e so far (direct). */
static double tiebreak(const dm_tourney *t, int tb, int e, const int *points, const int *group,
                       int ng)
{
    double v = 0, best = -1e300, worst = 1e300;
    int opps = 0;
    double unit = t->boards > 0 ? t->match_win : t->win;
    for (int k = 0; k < t->npairings; k++) {
        const dm_tourney_pairing *p = &t->pairings[k];
        if (p->outcome == DM_TOUT_PENDING || (p->white != e && p->black != e)) {
            continue;
        }
        int s = p->black == e, g;
        int own = event_points(t, p, s, &g);
        int opp = s ? p->white : p->black;
        switch (tb) {
            case DM_TB_WINS:
                if (p->outcome != DM_TOUT_BYE) {
                    int og;
                    int theirs = event_points(t, p, !s, &og);
                    v += own > theirs;
                }
                break;
            case DM_TB_BOARD_POINTS:
                v += g;
                break;
            case DM_TB_DIRECT:
                for (int i = 0; opp >= 0 && i < ng; i++) {
                    if (group[i] == opp) {
                        v += own;
                    }
                }
                break;
            case DM_TB_SONNEBORN_BERGER:
                if (opp >= 0) {
                    v += points[opp] * (own / unit);
                }
                break;
            case DM_TB_BUCHHOLZ:
            case DM_TB_MEDIAN_BUCHHOLZ:
                if (opp >= 0) {
                    v += points[opp];
                    opps++;
                    best = points[opp] > best ? points[opp] : best;
                    worst = points[opp] < worst ? points[opp] : worst;
                }
                break;
            default:
                break;
        }
    }
    if (tb == DM_TB_MEDIAN_BUCHHOLZ && opps >= 3) {
        v -= best + worst;
    }
    return v;
}

int dm_tourney_standings(const dm_tourney *t, const char *section, const char *category,
                         dm_tourney_standing *out, int cap)
{
    int tbs[DM_TOURNEY_MAX_TIEBREAKS], ntb;
    if (t->ntiebreaks < 0) {
        ntb = dm_tourney_default_tiebreaks(t, tbs);
    } else {
        ntb = t->ntiebreaks > DM_TOURNEY_MAX_TIEBREAKS ? DM_TOURNEY_MAX_TIEBREAKS : t->ntiebreaks;
        memcpy(tbs, t->tiebreaks, sizeof *tbs * (size_t)ntb);
    }
    int n = t->nentrants;
    line *l = malloc(sizeof *l * (size_t)(n > 0 ? n : 1));
    int *points = malloc(sizeof *points * (size_t)(2 * (n > 0 ? n : 0) + 1));
    if (!l || !points) {
        free(l);
        free(points);
        return 0;
    }
    int *group = points + n;
    tourney_points(t, 0, points);
    int m = 0;
    for (int e = 0; e < n; e++) {
        const dm_tourney_entrant *x = &t->entrants[e];
        if ((section && strcmp(x->section, section)) ||
            (category && !has_category(x->categories, category))) {
            continue;
        }
        l[m] = (line){0};
        l[m].e = e;
        l[m].points = points[e];
        for (int k = 0; k < t->npairings; k++) {
            const dm_tourney_pairing *p = &t->pairings[k];
            l[m].games += p->outcome != DM_TOUT_PENDING && (p->white == e || p->black == e);
        }
        m++;
    }
    /* sort by points, then refine each run of equals by the next tie-break */
    for (int i = 1; i < m; i++) {
        line x = l[i];
        int j = i;
        while (j > 0 && l[j - 1].points < x.points) {
            l[j] = l[j - 1];
            j--;
        }
        l[j] = x;
    }
    for (int k = 0; k < ntb; k++) {
        for (int a = 0; a < m;) {
            int b = a + 1;
            while (b < m && l[b].points == l[a].points &&
                   !memcmp(l[b].key, l[a].key, sizeof(double) * (size_t)k)) {
                b++;
            }
            int ng = 0;
            for (int i = a; i < b; i++) {
                group[ng++] = l[i].e;
            }
            for (int i = a; i < b; i++) {
                l[i].key[k] = tiebreak(t, tbs[k], l[i].e, points, group, ng);
            }
            for (int i = a + 1; i < b; i++) {
                line x = l[i];
                int j = i;
                while (j > a && l[j - 1].key[k] < x.key[k]) {
                    l[j] = l[j - 1];
                    j--;
                }
                l[j] = x;
            }
            a = b;
        }
    }
    for (int i = 0; i < m && i < cap; i++) {
        out[i].entrant = l[i].e;
        out[i].points = l[i].points;
        out[i].games = l[i].games;
        int same = i > 0 && l[i].points == l[i - 1].points &&
                   !memcmp(l[i].key, l[i - 1].key, sizeof(double) * (size_t)ntb);
        out[i].rank = same ? out[i - 1].rank : i + 1;
        for (int k = 0; k < DM_TOURNEY_MAX_TIEBREAKS; k++) {
            out[i].tb[k] = k < ntb ? l[i].key[k] : 0;
        }
    }
    free(l);
    free(points);
    return m;
}
