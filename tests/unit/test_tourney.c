/* SPDX-License-Identifier: MIT
 * tests/unit/test_tourney.c: tournaments (damier/tourney.h): the Berger tables against
 * FIDE's published tables (FIDE Handbook C.05, Annex 1, for 4, 6 and 8 players) and
 * their properties up to 20 players; Monrad Swiss pairings over seeded random results
 * (no rematch, one bye each, the colour rules); standings and every tie-break on a
 * small event worked out by hand; a team event's match and board points; sections and
 * categories; the file read, written and read back, and its errors with line and
 * column. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <damier/tourney.h>

#include "tourney/tourney_int.h"

/* One round of a table as text, "1-6 2-5 3-4", pairs sorted by White. */
static void round_text(char *buf, size_t cap, int n, int round)
{
    int pairs[32][2];
    tourney_berger_round(n, round, pairs);
    for (int i = 1; i < n / 2; i++) {
        for (int j = i; j > 0 && pairs[j - 1][0] > pairs[j][0]; j--) {
            int a = pairs[j][0], b = pairs[j][1];
            pairs[j][0] = pairs[j - 1][0];
            pairs[j][1] = pairs[j - 1][1];
            pairs[j - 1][0] = a;
            pairs[j - 1][1] = b;
        }
    }
    size_t len = 0;
    for (int i = 0; i < n / 2; i++) {
        len += (size_t)snprintf(buf + len, cap - len, "%s%d-%d", i ? " " : "", pairs[i][0],
                                pairs[i][1]);
    }
}

static void test_berger_published(void **state)
{
    (void)state;
    /* FIDE Handbook C.05 Annex 1 (Berger tables), each round's games sorted by White */
    static const char *const t4[] = {"1-4 2-3", "1-2 4-3", "2-4 3-1"};
    static const char *const t6[] = {"1-6 2-5 3-4", "1-2 5-3 6-4", "2-6 3-1 4-5", "1-4 2-3 6-5",
                                     "3-6 4-2 5-1"};
    static const char *const t8[] = {"1-8 2-7 3-6 4-5", "1-2 6-4 7-3 8-5", "2-8 3-1 4-7 5-6",
                                     "1-4 2-3 7-5 8-6", "3-8 4-2 5-1 6-7", "1-6 2-5 3-4 8-7",
                                     "4-8 5-3 6-2 7-1"};
    char buf[256];
    for (int r = 0; r < 3; r++) {
        round_text(buf, sizeof buf, 4, r + 1);
        assert_string_equal(buf, t4[r]);
    }
    for (int r = 0; r < 5; r++) {
        round_text(buf, sizeof buf, 6, r + 1);
        assert_string_equal(buf, t6[r]);
    }
    for (int r = 0; r < 7; r++) {
        round_text(buf, sizeof buf, 8, r + 1);
        assert_string_equal(buf, t8[r]);
    }
}

static void test_berger_properties(void **state)
{
    (void)state;
    for (int n = 4; n <= 20; n += 2) {
        int met[21][21] = {{0}}, whites[21] = {0};
        for (int r = 1; r < n; r++) {
            int pairs[10][2], seen[21] = {0};
            tourney_berger_round(n, r, pairs);
            for (int i = 0; i < n / 2; i++) {
                int a = pairs[i][0], b = pairs[i][1];
                assert_true(a >= 1 && a <= n && b >= 1 && b <= n && a != b);
                assert_int_equal(seen[a]++, 0);
                assert_int_equal(seen[b]++, 0);
                met[a][b]++;
                met[b][a]++;
                whites[a]++;
            }
        }
        for (int a = 1; a <= n; a++) {
            for (int b = 1; b <= n; b++) {
                assert_int_equal(met[a][b], a != b);
            }
            /* n - 1 games: White n/2 or n/2 - 1 times */
            assert_true(whites[a] == n / 2 || whites[a] == n / 2 - 1);
        }
    }
}

static uint64_t rng = 88172645463325252ull;

static int next_rand(int n)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (int)(rng % (uint64_t)n);
}

static void add(dm_tourney *t, const char *name, int rating, const char *section, const char *cat)
{
    dm_tourney_entrant e;
    memset(&e, 0, sizeof e);
    snprintf(e.name, sizeof e.name, "%s", name);
    e.rating = rating;
    snprintf(e.section, sizeof e.section, "%s", section ? section : "");
    snprintf(e.categories, sizeof e.categories, "%s", cat ? cat : "");
    assert_int_equal(dm_tourney_add_entrant(t, &e, NULL), DM_OK);
}

/* Play the last round at random (a third each of wins, draws, losses). */
static void random_results(dm_tourney *t)
{
    int round = dm_tourney_current_round(t);
    for (int k = 0; k < t->npairings; k++) {
        if (t->pairings[k].round == round && t->pairings[k].outcome == DM_TOUT_PENDING) {
            int x = next_rand(3);
            assert_int_equal(dm_tourney_set_result(t, k, DM_TOUT_PLAYED, 2 - x, x, NULL), DM_OK);
        }
    }
}

static void test_swiss(void **state)
{
    (void)state;
    for (int field = 5; field <= 24; field += 3) {
        for (int rep = 0; rep < 4; rep++) {
            dm_tourney t;
            dm_tourney_init(&t);
            /* a Swiss has far fewer rounds than entrants; with n - 2 rounds the games
             * not yet played can leave no pairing without a rematch (then one is
             * allowed: test_swiss_rematch) */
            t.rounds = field / 2 < 7 ? field / 2 : 7;
            for (int i = 0; i < field; i++) {
                char name[16];
                snprintf(name, sizeof name, "P%d", i + 1);
                add(&t, name, 2000 - 10 * i, NULL, NULL);
            }
            for (int r = 1; r <= t.rounds; r++) {
                int got;
                assert_int_equal(dm_tourney_pair_next(&t, &got, NULL), DM_OK);
                assert_int_equal(got, r);
                random_results(&t);
            }
            dm_error err;
            assert_int_equal(dm_tourney_pair_next(&t, NULL, &err), DM_ESTATE);
            /* every entrant once a round, no rematch, at most one bye, colours */
            int byes[32] = {0}, w[32] = {0}, b[32] = {0}, last[32][2];
            memset(last, -1, sizeof last);
            for (int r = 1; r <= t.rounds; r++) {
                int seen[32] = {0};
                for (int k = 0; k < t.npairings; k++) {
                    const dm_tourney_pairing *p = &t.pairings[k];
                    if (p->round != r) {
                        continue;
                    }
                    assert_int_equal(seen[p->white]++, 0);
                    if (p->black < 0) {
                        assert_int_equal(p->outcome, DM_TOUT_BYE);
                        byes[p->white]++;
                        continue;
                    }
                    assert_int_equal(seen[p->black]++, 0);
                    for (int q = 0; q < k; q++) {
                        const dm_tourney_pairing *o = &t.pairings[q];
                        if ((o->white == p->white && o->black == p->black) ||
                            (o->white == p->black && o->black == p->white)) {
                            fail_msg("field %d rep %d round %d: %s - %s again", field, rep, r,
                                     t.entrants[p->white].name, t.entrants[p->black].name);
                        }
                        assert_false((o->white == p->white && o->black == p->black) ||
                                     (o->white == p->black && o->black == p->white));
                    }
                    int s[2] = {p->white, p->black};
                    for (int c = 0; c < 2; c++) {
                        int e = s[c];
                        assert_false(last[e][0] == c && last[e][1] == c); /* no third */
                        last[e][1] = last[e][0];
                        last[e][0] = c;
                        (c ? b : w)[e]++;
                        assert_true(w[e] - b[e] <= 2 && b[e] - w[e] <= 2);
                    }
                }
                for (int e = 0; e < field; e++) {
                    assert_int_equal(seen[e], 1);
                }
            }
            for (int e = 0; e < field; e++) {
                assert_true(byes[e] <= 1);
            }
            dm_tourney_free(&t);
        }
    }
}

/* Four entrants, four rounds: after three every pair has met; the fourth round is
 * still paired (rematches allowed only then). */
static void test_swiss_rematch(void **state)
{
    (void)state;
    dm_tourney t;
    dm_tourney_init(&t);
    t.rounds = 4;
    add(&t, "A", 4, NULL, NULL);
    add(&t, "B", 3, NULL, NULL);
    add(&t, "C", 2, NULL, NULL);
    add(&t, "D", 1, NULL, NULL);
    for (int r = 1; r <= 4; r++) {
        assert_int_equal(dm_tourney_pair_next(&t, NULL, NULL), DM_OK);
        assert_int_equal(t.npairings, 2 * r);
        random_results(&t);
    }
    dm_tourney_free(&t);
}

/* Monrad: round 1 pairs the field in rating order, 1-2, 3-4, ...; the bye goes to the
 * last; round 2 pairs the leaders. */
static void test_swiss_monrad_order(void **state)
{
    (void)state;
    dm_tourney t;
    dm_tourney_init(&t);
    t.rounds = 3;
    add(&t, "D", 1700, NULL, NULL);
    add(&t, "A", 2000, NULL, NULL);
    add(&t, "C", 1800, NULL, NULL);
    add(&t, "B", 1900, NULL, NULL);
    add(&t, "E", 1600, NULL, NULL);
    assert_int_equal(dm_tourney_pair_next(&t, NULL, NULL), DM_OK);
    assert_int_equal(t.npairings, 3);
    const char *names[3][2] = {{"A", "B"}, {"C", "D"}, {"E", NULL}};
    for (int i = 0; i < 3; i++) {
        assert_string_equal(t.entrants[t.pairings[i].white].name, names[i][0]);
        if (names[i][1]) {
            assert_string_equal(t.entrants[t.pairings[i].black].name, names[i][1]);
        } else {
            assert_int_equal(t.pairings[i].outcome, DM_TOUT_BYE);
        }
    }
    dm_error err;
    assert_int_equal(dm_tourney_pair_next(&t, NULL, &err), DM_ESTATE); /* results missing */
    assert_non_null(strstr(err.message, "a result is missing"));
    /* A and D win: A 2, D 2, E 2 (bye), B 0, C 0 */
    assert_int_equal(dm_tourney_set_result(&t, 0, DM_TOUT_PLAYED, 2, 0, NULL), DM_OK);
    assert_int_equal(dm_tourney_set_result(&t, 1, DM_TOUT_PLAYED, 0, 2, NULL), DM_OK);
    assert_int_equal(dm_tourney_set_result(&t, 1, DM_TOUT_PLAYED, 1, 0, &err), DM_EINVAL);
    assert_int_equal(dm_tourney_set_result(&t, 2, DM_TOUT_PLAYED, 2, 0, &err), DM_EINVAL); /* bye */
    assert_int_equal(dm_tourney_pair_next(&t, NULL, NULL), DM_OK);
    /* leaders A (2000), D (1700), E (1600); then B, C; the bye to C (the last without
     * one): A-D (A had White and D Black, so D White now), E-B (B had Black, E no
     * colour yet: B White) */
    assert_int_equal(t.npairings, 6);
    assert_string_equal(t.entrants[t.pairings[3].white].name, "D");
    assert_string_equal(t.entrants[t.pairings[3].black].name, "A");
    assert_string_equal(t.entrants[t.pairings[4].white].name, "B");
    assert_string_equal(t.entrants[t.pairings[4].black].name, "E");
    assert_string_equal(t.entrants[t.pairings[5].white].name, "C");
    assert_int_equal(t.pairings[5].outcome, DM_TOUT_BYE);
    dm_tourney_free(&t);
}

/* A round robin of four, worked out by hand. Results (FMJD points):
 *   R1 A-D 2-0, B-C 1-1;  R2 D-C 0-2, A-B 1-1;  R3 B-D 2-0, C-A 0-2.
 * Points: A 5, B 4, C 3, D 0. Buchholz: A: D0+B4+C3 = 7; B: C3+A5+D0 = 8;
 * C: B4+D0+A5 = 9; D: 5+3+4 = 12. Sonneborn-Berger (a win: the opponent's points, a
 * draw: half): A: D0 + B4/2 + C3 = 5; B: C3/2 + A5/2 + D0 = 4; C: B4/2 + D0 = 2; D 0. */
static void test_standings_by_hand(void **state)
{
    (void)state;
    dm_tourney t;
    dm_tourney_init(&t);
    t.system = DM_TOURNEY_ROUND_ROBIN;
    t.ntiebreaks = 4;
    t.tiebreaks[0] = DM_TB_BUCHHOLZ;
    t.tiebreaks[1] = DM_TB_SONNEBORN_BERGER;
    t.tiebreaks[2] = DM_TB_WINS;
    t.tiebreaks[3] = DM_TB_MEDIAN_BUCHHOLZ;
    add(&t, "A", 0, NULL, NULL);
    add(&t, "B", 0, NULL, NULL);
    add(&t, "C", 0, NULL, "women");
    add(&t, "D", 0, NULL, "youth,women");
    static const int res[3][2][2] = {{{2, 0}, {1, 1}}, {{0, 2}, {1, 1}}, {{2, 0}, {0, 2}}};
    for (int r = 0; r < 3; r++) {
        assert_int_equal(dm_tourney_pair_next(&t, NULL, NULL), DM_OK);
        for (int i = 0; i < 2; i++) {
            int k = 2 * r + i;
            assert_int_equal(
                dm_tourney_set_result(&t, k, DM_TOUT_PLAYED, res[r][i][0], res[r][i][1], NULL),
                DM_OK);
        }
    }
    /* the Berger table of 4: 1-4 2-3 / 4-3 1-2 / 2-4 3-1 */
    assert_int_equal(t.pairings[2].white, 3);
    assert_int_equal(t.pairings[5].white, 2);
    dm_tourney_standing s[4];
    assert_int_equal(dm_tourney_standings(&t, NULL, NULL, s, 4), 4);
    static const int points[4] = {5, 4, 3, 0}, buch[4] = {7, 8, 9, 12}, sb[4] = {5, 4, 2, 0},
                     wins[4] = {2, 1, 1, 0}, median[4] = {3, 3, 4, 4};
    for (int i = 0; i < 4; i++) {
        assert_int_equal(s[i].entrant, i);
        assert_int_equal(s[i].rank, i + 1);
        assert_int_equal(s[i].points, points[i]);
        assert_int_equal(s[i].games, 3);
        assert_true(s[i].tb[0] == buch[i]);
        assert_true(s[i].tb[1] == sb[i]);
        assert_true(s[i].tb[2] == wins[i]);
        assert_true(s[i].tb[3] == median[i]); /* three opponents: the best and the
                                                 worst dropped (A: 0, 4, 3 leave 3) */
    }
    assert_int_equal(dm_tourney_standings(&t, NULL, "women", s, 4), 2);
    assert_int_equal(s[0].entrant, 2);
    assert_int_equal(s[0].rank, 1);
    assert_int_equal(dm_tourney_standings(&t, NULL, "youth", s, 4), 1);
    assert_int_equal(dm_tourney_standings(&t, NULL, "wom", s, 4), 0);
    dm_tourney_free(&t);
}

/* Direct encounter: two tied on points, the one who won their game first. */
static void test_direct_encounter(void **state)
{
    (void)state;
    dm_tourney t;
    dm_error err;
    const char *text = "system roundrobin\n"
                       "tiebreaks direct\n"
                       "entrant \"A\"\nentrant \"B\"\nentrant \"C\"\n"
                       "round 1\n3 bye\n1 - 2 0-2\n"
                       "round 2\n2 bye\n3 - 1 0-2\n"
                       "round 3\n1 bye\n2 - 3 0-2\n";
    assert_int_equal(dm_tourney_read(&t, text, strlen(text), &err), DM_OK);
    dm_tourney_standing s[3];
    assert_int_equal(dm_tourney_standings(&t, NULL, NULL, s, 3), 3);
    /* everyone 4 points (a win and a bye), each beat one: a three-way tie stays */
    for (int i = 0; i < 3; i++) {
        assert_int_equal(s[i].points, 4);
        assert_int_equal(s[i].rank, 1);
    }
    dm_tourney_free(&t);
    text = "system roundrobin\ntiebreaks direct\n"
           "entrant \"A\"\nentrant \"B\"\nentrant \"C\"\nentrant \"D\"\n"
           "round 1\n1 - 4 1-1\n2 - 3 2-0\n"
           "round 2\n4 - 3 1-1\n1 - 2 2-0\n"
           "round 3\n2 - 4 1-1\n3 - 1 1-1\n";
    /* A 4, B 3, D 3, C 2: B and D drew each other: a tie; without the tie-break both
     * share a rank too */
    assert_int_equal(dm_tourney_read(&t, text, strlen(text), &err), DM_OK);
    assert_int_equal(dm_tourney_standings(&t, NULL, NULL, s, 3), 4);
    assert_int_equal(s[0].entrant, 0);
    assert_int_equal(s[1].rank, 2);
    assert_int_equal(s[2].rank, 2);
    dm_tourney_free(&t);
}

static void test_team_event(void **state)
{
    (void)state;
    dm_tourney t;
    dm_error err;
    const char *text = "event \"Teams\"\nsystem roundrobin\nboards 4\n"
                       "entrant \"Amsterdam\"\nentrant \"Beijing\"\nentrant \"Cairo\"\n"
                       "entrant \"Dakar\"\n";
    assert_int_equal(dm_tourney_read(&t, text, strlen(text), &err), DM_OK);
    assert_int_equal(dm_tourney_pair_next(&t, NULL, NULL), DM_OK);
    /* Amsterdam - Dakar on four boards: 2-0 1-1 1-1 0-2 (4-4: a drawn match) */
    static const int boards[4][2] = {{2, 0}, {1, 1}, {1, 1}, {0, 2}};
    for (int b = 0; b < 4; b++) {
        assert_int_equal(t.pairings[0].outcome, DM_TOUT_PENDING);
        assert_int_equal(dm_tourney_set_board(&t, 0, b + 1, boards[b][0], boards[b][1], NULL),
                         DM_OK);
    }
    assert_int_equal(t.pairings[0].outcome, DM_TOUT_PLAYED);
    assert_int_equal(t.pairings[0].score[0], 4);
    assert_int_equal(dm_tourney_set_board(&t, 1, 5, 2, 0, &err), DM_EINVAL);
    assert_int_equal(dm_tourney_set_board(&t, 1, 1, 2, 2, &err), DM_EINVAL);
    assert_int_equal(dm_tourney_set_result(&t, 1, DM_TOUT_PLAYED, 5, 3, &err), DM_EINVAL);
    /* Beijing - Cairo: Cairo absent, 8-0 by forfeit */
    assert_int_equal(dm_tourney_set_result(&t, 1, DM_TOUT_FORFEIT, 8, 0, NULL), DM_OK);
    dm_tourney_standing s[4];
    assert_int_equal(dm_tourney_standings(&t, NULL, NULL, s, 4), 4);
    /* Beijing 2 match points (8 board points), Amsterdam and Dakar 1 (4), Cairo 0 */
    assert_string_equal(t.entrants[s[0].entrant].name, "Beijing");
    assert_int_equal(s[0].points, 2);
    assert_true(s[0].tb[0] == 8); /* board points first */
    assert_int_equal(s[1].points, 1);
    assert_int_equal(s[2].points, 1);
    assert_int_equal(s[1].rank, 2);
    assert_int_equal(s[2].rank, 2);
    assert_string_equal(t.entrants[s[3].entrant].name, "Cairo");
    /* written and read back */
    char *out;
    size_t len;
    assert_int_equal(dm_tourney_write(&out, &len, &t), DM_OK);
    assert_non_null(strstr(out, "1 - 4 2-0 1-1 1-1 0-2\n"));
    assert_non_null(strstr(out, "2 - 3 +-\n"));
    dm_tourney u;
    assert_int_equal(dm_tourney_read(&u, out, len, &err), DM_OK);
    assert_int_equal(u.pairings[1].outcome, DM_TOUT_FORFEIT);
    assert_int_equal(u.pairings[1].score[0], 8);
    assert_int_equal(u.pairings[0].score[1], 4);
    free(out);
    dm_tourney_free(&u);
    dm_tourney_free(&t);
}

static void test_sections(void **state)
{
    (void)state;
    dm_tourney t;
    dm_tourney_init(&t);
    t.rounds = 3;
    for (int i = 0; i < 6; i++) {
        char name[8];
        snprintf(name, sizeof name, "%c", 'A' + i);
        add(&t, name, 2000 - i, i % 2 ? "women" : "open", NULL);
    }
    for (int r = 0; r < 3; r++) {
        assert_int_equal(dm_tourney_pair_next(&t, NULL, NULL), DM_OK);
        random_results(&t);
    }
    for (int k = 0; k < t.npairings; k++) {
        const dm_tourney_pairing *p = &t.pairings[k];
        if (p->black >= 0) {
            assert_string_equal(t.entrants[p->white].section, t.entrants[p->black].section);
        }
    }
    dm_tourney_standing s[6];
    assert_int_equal(dm_tourney_standings(&t, "women", NULL, s, 6), 3);
    for (int i = 0; i < 3; i++) {
        assert_string_equal(t.entrants[s[i].entrant].section, "women");
    }
    dm_tourney_free(&t);
    /* a section of one is refused, nothing paired */
    dm_tourney_init(&t);
    add(&t, "A", 0, "open", NULL);
    add(&t, "B", 0, "open", NULL);
    add(&t, "C", 0, "seniors", NULL);
    dm_error err;
    assert_int_equal(dm_tourney_pair_next(&t, NULL, &err), DM_EINVAL);
    assert_non_null(strstr(err.message, "seniors"));
    assert_int_equal(t.npairings, 0);
    dm_tourney_free(&t);
}

static void test_file_round_trip(void **state)
{
    (void)state;
    dm_tourney t;
    dm_tourney_init(&t);
    snprintf(t.event, sizeof t.event, "Club \"open\" # 1 \\ 2026");
    t.rounds = 4;
    t.ntiebreaks = 2;
    t.tiebreaks[0] = DM_TB_SONNEBORN_BERGER;
    t.tiebreaks[1] = DM_TB_WINS;
    for (int i = 0; i < 7; i++) {
        char name[32];
        snprintf(name, sizeof name, "Player \"%d\"", i + 1);
        add(&t, name, i ? 1500 + i : 0, i > 3 ? "B" : NULL, i == 2 ? "women,youth" : NULL);
    }
    t.entrants[6].withdrawn = 1;
    for (int r = 0; r < 3; r++) {
        assert_int_equal(dm_tourney_pair_next(&t, NULL, NULL), DM_OK);
        random_results(&t);
    }
    assert_int_equal(dm_tourney_set_result(&t, 0, DM_TOUT_FORFEIT, 0, 2, NULL), DM_OK);
    assert_int_equal(dm_tourney_set_result(&t, 1, DM_TOUT_PENDING, 0, 0, NULL), DM_OK);
    char *a, *b;
    size_t la, lb;
    assert_int_equal(dm_tourney_write(&a, &la, &t), DM_OK);
    dm_tourney u;
    dm_error err;
    assert_int_equal(dm_tourney_read(&u, a, la, &err), DM_OK);
    assert_int_equal(dm_tourney_write(&b, &lb, &u), DM_OK);
    assert_string_equal(a, b);
    assert_string_equal(u.event, t.event);
    assert_int_equal(u.nentrants, 7);
    assert_int_equal(u.entrants[6].withdrawn, 1);
    assert_string_equal(u.entrants[2].categories, "women,youth");
    assert_int_equal(u.npairings, t.npairings);
    assert_int_equal(u.pairings[0].outcome, DM_TOUT_FORFEIT);
    assert_int_equal(u.pairings[1].outcome, DM_TOUT_PENDING);
    assert_int_equal(u.ntiebreaks, 2);
    free(a);
    free(b);
    dm_tourney_free(&u);
    dm_tourney_free(&t);
}

static void bad(const char *text, dm_status st, int line, int column, const char *what)
{
    dm_tourney t;
    dm_error err;
    assert_int_equal(dm_tourney_read(&t, text, strlen(text), &err), st);
    if (err.line != line || err.column != column || !strstr(err.message, what)) {
        fail_msg("\"%s\": line %d column %d \"%s\"; wanted line %d column %d \"%s\"", text,
                 err.line, err.column, err.message, line, column, what);
    }
    assert_int_equal(t.nentrants, 0); /* freed and empty */
}

static void test_file_errors(void **state)
{
    (void)state;
    const char *two = "entrant \"A\"\nentrant \"B\"\n";
    char buf[256];
    bad("sytem swiss 5\n", DM_EPARSE, 1, 1, "expected a statement");
    bad("system swiss\n", DM_EPARSE, 1, 13, "number of rounds");
    bad("system swiss 0\n", DM_EPARSE, 1, 14, "1..100");
    bad("system roundrobin triple\n", DM_EPARSE, 1, 19, "double");
    bad("points 2 1\n", DM_EPARSE, 1, 11, "a loss's");
    bad("points 3 1 0\n", DM_EINVAL, 1, 1, "half a win");
    bad("entrant A\n", DM_EPARSE, 1, 9, "double quotes");
    bad("entrant \"A\n", DM_EPARSE, 1, 9, "no closing");
    bad("entrant \"A\" rating x\n", DM_EPARSE, 1, 20, "rating");
    bad("entrant \"A\" colour \"w\"\n", DM_EPARSE, 1, 13, "expected rating");
    bad("entrant \"A\"\nentrant \"A\"\n", DM_EINVAL, 2, 12, "there already");
    bad("entrant \"A\"\nround 1\n", DM_EINVAL, 2, 1, "before two entrants");
    snprintf(buf, sizeof buf, "%sround 2\n", two);
    bad(buf, DM_EINVAL, 3, 1, "round 2 follows round 0");
    snprintf(buf, sizeof buf, "%sround 1\n1 - 3\n", two);
    bad(buf, DM_EPARSE, 4, 5, "opponent's number");
    snprintf(buf, sizeof buf, "%sround 1\n1 - 1\n", two);
    bad(buf, DM_EINVAL, 4, 3, "itself");
    snprintf(buf, sizeof buf, "%sround 1\n1 - 2 3-0\n", two);
    bad(buf, DM_EINVAL, 4, 7, "no game's result");
    snprintf(buf, sizeof buf, "%sround 1\n1 - 2 2-0 0-2\n", two);
    bad(buf, DM_EINVAL, 4, 11, "one result");
    snprintf(buf, sizeof buf, "%sround 1\n1 - 2 won\n", two);
    bad(buf, DM_EPARSE, 4, 7, "expected a result");
    snprintf(buf, sizeof buf, "%sround 1\n1 - 2\n2 bye\n", two);
    bad(buf, DM_EINVAL, 5, 1, "paired twice");
    snprintf(buf, sizeof buf, "%sround 1\n1 - 2\nround 2\nround 3\n", two);
    bad(buf, DM_EINVAL, 6, 1, "round 2 has no pairing");
    snprintf(buf, sizeof buf, "boards 2\n%sround 1\n1 - 2 2-0\n", two);
    bad(buf, DM_EINVAL, 5, 10, "1 of 2 boards");
    bad("tiebreaks buchholz luck\n", DM_EPARSE, 1, 20, "expected a tie-break");
    /* comments, blank lines, CRLF and PDN results are fine */
    const char *ok = "# a club's event\r\n\r\nsystem roundrobin   # one cycle\r\nentrant \"A\"\r\n"
                     "entrant \"B\"\r\nround 1\r\n1 - 2 1/2-1/2\r\n";
    dm_tourney t;
    dm_error err;
    assert_int_equal(dm_tourney_read(&t, ok, strlen(ok), &err), DM_OK);
    assert_int_equal(t.pairings[0].score[0], 1);
    assert_int_equal(dm_tourney_total_rounds(&t), 1);
    dm_tourney_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_berger_published),
        cmocka_unit_test(test_berger_properties),
        cmocka_unit_test(test_swiss),
        cmocka_unit_test(test_swiss_monrad_order),
        cmocka_unit_test(test_swiss_rematch),
        cmocka_unit_test(test_standings_by_hand),
        cmocka_unit_test(test_direct_encounter),
        cmocka_unit_test(test_team_event),
        cmocka_unit_test(test_sections),
        cmocka_unit_test(test_file_round_trip),
        cmocka_unit_test(test_file_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
