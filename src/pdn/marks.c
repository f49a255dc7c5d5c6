/* SPDX-License-Identifier: MIT
 * pdn/marks.c: the annotation marks of the FMJD notation (rulebook chapter 8, the list
 * of signs after article 8.2) and the PDN NAGs that stand for them (docs/PDN.md). */
#include <string.h>

#include "pdn/pdn_int.h"

/* One mark and its NAG: side -1 for either mover, 0 after a White move, 1 after a
 * Black move. */
static const struct {
    const char *mark;
    int nag;
    int side;
} nag_table[] = {
    {"!", 1, -1},  /* good move */
    {"?", 2, -1},  /* bad move */
    {"!!", 3, -1}, /* excellent move */
    {"??", 4, -1}, /* blunder */
    {"!?", 5, -1}, /* interesting move (looks good, may be bad) */
    {"?!", 6, -1}, /* dubious move (looks bad, may be good) */
    {"*", 7, -1},  /* forced move (every other move loses) */
    {"=", 10, -1}, /* drawn position */
    {"+", 18, 0},  /* winning position for White, who moved */
    {"+", 19, 1},  /* winning position for Black, who moved */
};

int dm_pdn_mark_nag(const char *mark, int black)
{
    if (!mark) {
        return 0;
    }
    char buf[8];
    size_t n = strlen(mark);
    /* "(?)" is "?" in parentheses */
    if (n >= 3 && n < sizeof buf + 2 && mark[0] == '(' && mark[n - 1] == ')') {
        memcpy(buf, mark + 1, n - 2);
        buf[n - 2] = 0;
        mark = buf;
    }
    for (size_t i = 0; i < sizeof nag_table / sizeof nag_table[0]; i++) {
        if (!strcmp(mark, nag_table[i].mark) &&
            (nag_table[i].side < 0 || nag_table[i].side == (black != 0))) {
            return nag_table[i].nag;
        }
    }
    return 0;
}

const char *dm_pdn_nag_mark(int nag, int black)
{
    for (size_t i = 0; i < sizeof nag_table / sizeof nag_table[0]; i++) {
        if (nag_table[i].nag == nag &&
            (nag_table[i].side < 0 || nag_table[i].side == (black != 0))) {
            return nag_table[i].mark;
        }
    }
    return NULL;
}

size_t pdn_mark_atom(const char *s)
{
    size_t i = 0;
    if (!*s) {
        return 0;
    }
    if (s[0] == '!' || s[0] == '?') {
        while (s[i] == '!' || s[i] == '?') {
            i++;
        }
        return i;
    }
    if (s[0] == '(') {
        const char *q = strchr(s, ')');
        return q ? (size_t)(q - s) + 1 : strlen(s);
    }
    if (s[0] == '+' || s[0] == '-') {
        i = 1;
        while (s[i] >= '0' && s[i] <= '9' && i < 3) {
            i++;
        }
        return i;
    }
    if (!strncmp(s, "a.l.", 4)) {
        return 4;
    }
    return 1; /* "*", "=" (and anything else, one byte at a time) */
}
