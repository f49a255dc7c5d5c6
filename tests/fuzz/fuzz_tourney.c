/* SPDX-License-Identifier: MIT
 * tests/fuzz/fuzz_tourney.c: tournament files (damier/tourney.h, docs/TOURNEY.md).
 * Properties: a refusal carries a reason and a line; an accepted file written back
 * reads back, and writing is then a fixed point; the standings list every entrant
 * once with ranks in order; pairing the next round either refuses with a reason or
 * pairs every active entrant of every section once, and the result still writes and
 * reads back. */
#include <damier/tourney.h>

#include "fuzz.h"

static void check_standings(const dm_tourney *t)
{
    static dm_tourney_standing s[DM_TOURNEY_MAX_ENTRANTS];
    static int seen[DM_TOURNEY_MAX_ENTRANTS];
    int n = dm_tourney_standings(t, NULL, NULL, s, DM_TOURNEY_MAX_ENTRANTS);
    if (n != t->nentrants) {
        fuzz_fail("standings list %d of %d entrants", n, t->nentrants);
    }
    memset(seen, 0, sizeof seen);
    for (int i = 0; i < n; i++) {
        if (seen[s[i].entrant]++) {
            fuzz_fail("entrant %d twice in the standings", s[i].entrant);
        }
        if (i > 0 && (s[i].rank < s[i - 1].rank || s[i].points > s[i - 1].points)) {
            fuzz_fail("standings out of order at line %d", i + 1);
        }
    }
}

static void round_trip(const dm_tourney *t, const char *what)
{
    char *a, *b;
    size_t la, lb;
    dm_tourney u;
    dm_error err;
    if (dm_tourney_write(&a, &la, t) != DM_OK) {
        return; /* out of memory */
    }
    if (dm_tourney_read(&u, a, la, &err) != DM_OK) {
        fuzz_fail("%s: written as\n%s\nwhich does not read back: %s", what, a, err.message);
    }
    if (dm_tourney_write(&b, &lb, &u) == DM_OK) {
        if (strcmp(a, b)) {
            fuzz_fail("%s: writing is not a fixed point:\n%s\nthen\n%s", what, a, b);
        }
        free(b);
    }
    free(a);
    dm_tourney_free(&u);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 1 << 16) {
        return 0;
    }
    dm_tourney t;
    dm_error err;
    if (dm_tourney_read(&t, (const char *)data, size, &err) != DM_OK) {
        if (!err.message[0] || err.line < 1) {
            fuzz_fail("file refused without a reason and a line");
        }
        return 0;
    }
    round_trip(&t, "the file");
    check_standings(&t);
    int before = t.npairings, round = 0;
    if (t.nentrants <= 64 && dm_tourney_pair_next(&t, &round, &err) == DM_OK) {
        static int paired[DM_TOURNEY_MAX_ENTRANTS];
        memset(paired, 0, sizeof paired);
        for (int k = before; k < t.npairings; k++) {
            const dm_tourney_pairing *p = &t.pairings[k];
            if (p->round != round || p->white == p->black) {
                fuzz_fail("a bad pairing in round %d", round);
            }
            if (paired[p->white]++ || (p->black >= 0 && paired[p->black]++)) {
                fuzz_fail("an entrant paired twice in round %d", round);
            }
        }
        round_trip(&t, "the file with the next round");
    } else if (t.nentrants <= 64 && !err.message[0]) {
        fuzz_fail("pairing refused without a reason");
    }
    dm_tourney_free(&t);
    return 0;
}
