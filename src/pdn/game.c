/* SPDX-License-Identifier: MIT
 * pdn/game.c: the dm_pdn_game record: creation, freeing, tag access. A game owns all
 * its strings and arrays (plain malloc); freeing walks the movetext tree. */
#include <stdlib.h>
#include <string.h>

#include "pdn/pdn_int.h"

int pdn_grow(void *arr, int n, size_t elem)
{
    void **p = arr;
    if (n != 0 && (n < 4 || (n & (n - 1)) != 0)) {
        return 1; /* still room: capacity is max(4, next power of two) */
    }
    size_t cap = n < 4 ? 4 : (size_t)n * 2;
    void *q = realloc(*p, cap * elem);
    if (!q) {
        return 0;
    }
    *p = q;
    return 1;
}

char *pdn_strndup(const char *s, size_t n)
{
    char *d = malloc(n + 1);
    if (d) {
        memcpy(d, s, n);
        d[n] = 0;
    }
    return d;
}

int pdn_push_str(char ***arr, int *n, char *s)
{
    if (!s || !pdn_grow(arr, *n, sizeof **arr)) {
        free(s);
        return 0;
    }
    (*arr)[(*n)++] = s;
    return 1;
}

static void free_strs(char **a, int n)
{
    for (int i = 0; i < n; i++) {
        free(a[i]);
    }
    free(a);
}

void pdn_line_clear(dm_pdn_line *l)
{
    for (int i = 0; i < l->nnodes; i++) {
        dm_pdn_node *nd = &l->nodes[i];
        free(nd->text);
        free(nd->mark);
        free(nd->nags);
        free_strs(nd->before, nd->nbefore);
        free_strs(nd->after, nd->nafter);
        for (int v = 0; v < nd->nvariations; v++) {
            pdn_line_clear(&nd->variations[v]);
        }
        free(nd->variations);
    }
    free(l->nodes);
    free_strs(l->end, l->nend);
    memset(l, 0, sizeof *l);
}

int pdn_casecmp(const char *a, const char *b)
{
    for (;; a++, b++) {
        int ca = (*a >= 'A' && *a <= 'Z') ? *a + 32 : *a;
        int cb = (*b >= 'A' && *b <= 'Z') ? *b + 32 : *b;
        if (ca != cb || !ca) {
            return ca - cb;
        }
    }
}

dm_status dm_pdn_game_new(dm_pdn_game **out)
{
    if (!out) {
        return DM_EINVAL;
    }
    *out = calloc(1, sizeof **out);
    return *out ? DM_OK : DM_ENOMEM;
}

void dm_pdn_game_free(dm_pdn_game *g)
{
    if (!g) {
        return;
    }
    for (int i = 0; i < g->ntags; i++) {
        free(g->tags[i].name);
        free(g->tags[i].value);
    }
    free(g->tags);
    pdn_line_clear(&g->main);
    free(g->result);
    free_strs(g->notes, g->nnotes);
    free(g);
}

const char *dm_pdn_game_tag(const dm_pdn_game *g, const char *name)
{
    if (!g || !name) {
        return NULL;
    }
    for (int i = 0; i < g->ntags; i++) {
        if (!pdn_casecmp(g->tags[i].name, name)) {
            return g->tags[i].value;
        }
    }
    return NULL;
}

dm_status dm_pdn_game_set_tag(dm_pdn_game *g, const char *name, const char *value)
{
    if (!g || !name || !value || !*name) {
        return DM_EINVAL;
    }
    for (const char *c = name; *c; c++) {
        /* tag names are what the reader accepts: letters, digits, '_' and '-' */
        if (!((*c >= 'A' && *c <= 'Z') || (*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') ||
              *c == '_' || *c == '-')) {
            return DM_EINVAL;
        }
    }
    char *v = pdn_strndup(value, strlen(value));
    if (!v) {
        return DM_ENOMEM;
    }
    for (int i = 0; i < g->ntags; i++) {
        if (!pdn_casecmp(g->tags[i].name, name)) {
            free(g->tags[i].value);
            g->tags[i].value = v;
            return DM_OK;
        }
    }
    char *n = pdn_strndup(name, strlen(name));
    /* exact realloc, not pdn_grow: a program may have built g->tags itself */
    dm_pdn_tag *t = n ? realloc(g->tags, sizeof *t * (size_t)(g->ntags + 1)) : NULL;
    if (!t) {
        free(n);
        free(v);
        return DM_ENOMEM;
    }
    g->tags = t;
    g->tags[g->ntags].name = n;
    g->tags[g->ntags].value = v;
    g->ntags++;
    return DM_OK;
}

const char *dm_pdn_game_fen(const dm_pdn_game *g)
{
    const char *fen = dm_pdn_game_tag(g, "FEN");
    return (fen && *fen) ? fen : NULL;
}

int dm_pdn_game_type(const dm_pdn_game *g)
{
    const char *t = dm_pdn_game_tag(g, "GameType");
    if (!t) {
        return -1;
    }
    while (*t == ' ') {
        t++;
    }
    if (*t < '0' || *t > '9') {
        return -2;
    }
    int v = 0;
    for (; *t >= '0' && *t <= '9'; t++) {
        if (v > 100000) {
            return -2;
        }
        v = v * 10 + (*t - '0');
    }
    while (*t == ' ') {
        t++;
    }
    return (*t == 0 || *t == ',') ? v : -2;
}
