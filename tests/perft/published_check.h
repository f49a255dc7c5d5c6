/* SPDX-License-Identifier: MIT
 * tests/perft/published_check.h: checks every row of published_perft.h that damier
 * can play (its variant is one of dm_variant_from_name's and it counts duplicate
 * capture paths once, as damier does) at every depth whose published count is at
 * most PP_BUDGET leaves, through the public generic API (dm_perft; for
 * international also the fast dm_perft10). Rows of variants not played yet are listed
 * as skipped. Include after cmocka.h with PP_BUDGET defined. */
#ifndef DM_TESTS_PUBLISHED_CHECK_H
#define DM_TESTS_PUBLISHED_CHECK_H

#include <stdio.h>
#include <string.h>

#include "core/board10.h"
#include "core/move10.h"
#include <damier/variant.h>

#include "core/gen.h"
#include "perft/published_perft.h"

/* Rows counted with every capture path apart (DM_PP_KEEP) where no two paths of one
 * move occur up to some depth, so that the counts are damier's too: the Italian
 * positions of dctl's gilbert.cpp (short kings may loop; at gilbert-1 depth 10
 * damier counts 164 173 against KEEP's 164 177: duplicate paths). Found by running
 * damier, so these depths are where the KEEP counts are also a check, no more. */
static const struct {
    const char *variant, *name;
    int depth;
} keep_agrees[] = {{"italian", "gilbert-1", 9},
                   {"italian", "gilbert-2", 10},
                   {"italian", "gilbert-3", 8},
                   /* kish's Turkish start (every path apart) = damier's to depth 6; beyond, the
     * full-board generator's keep-duplicates count checks the whole row */
                   {"turkish", "start", 6}};

static int keep_depth(const dm_published_perft *p)
{
    for (size_t i = 0; i < sizeof keep_agrees / sizeof keep_agrees[0]; i++) {
        if (!strcmp(p->variant, keep_agrees[i].variant) && !strcmp(p->name, keep_agrees[i].name)) {
            return keep_agrees[i].depth;
        }
    }
    return 0;
}

static void check_published(void **state)
{
    (void)state;
    int checked = 0;
    for (size_t i = 0; i < sizeof dm_published_perfts / sizeof dm_published_perfts[0]; i++) {
        const dm_published_perft *p = &dm_published_perfts[i];
        const dm_variant *v = NULL;
        if (dm_variant_from_name(&v, p->variant, NULL) != DM_OK) {
            printf("skipped: %s %s (variant not played yet)\n", p->variant, p->name);
            continue;
        }
        int max_depth = p->depths;
        int keep_full = p->dup != DM_PP_DROP && v->geometry == DM_GEOM_FULL;
        if (p->dup != DM_PP_DROP && !keep_full) {
            max_depth = keep_depth(p); /* every path apart: not damier's rule */
            if (max_depth == 0) {
                continue;
            }
        }
        dm_board b;
        if (p->fen[0]) {
            dm_error err;
            if (dm_board_from_fen(&b, v, p->fen, &err) != DM_OK) {
                fail_msg("%s %s: FEN %s: %s", p->variant, p->name, p->fen, err.message);
            }
        } else {
            dm_board_start(&b, v);
        }
        for (int d = 1; d <= max_depth && p->counts[d - 1] <= PP_BUDGET; d++) {
            uint64_t n = keep_full && d > keep_depth(p)
                             ? dm_genfull_vperft_keep(&b, d, gen_rules_of(v))
                             : dm_perft(&b, d);
            if (n != p->counts[d - 1]) {
                fail_msg("%s %s perft(%d) = %llu, published %llu (%s)", p->variant, p->name, d,
                         (unsigned long long)n, (unsigned long long)p->counts[d - 1], p->source);
            }
            if (v->id == DM_VARIANT_INTERNATIONAL) {
                dm_board10 fb;
                assert_int_equal(dm_board_to_board10(&fb, &b), DM_OK);
                assert_true(dm_perft10(&fb, d) == n);
            }
            checked++;
        }
    }
    printf("checked: %d published counts of at most %llu leaves\n", checked,
           (unsigned long long)PP_BUDGET);
    assert_true(checked >= 40); /* the tables were read: at least 5 rows x 8 depths */
}

#endif
