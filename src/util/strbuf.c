/* SPDX-License-Identifier: MIT
 * src/util/strbuf.c: the growable text buffer (util/strbuf.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "util/strbuf.h"

void dm_strbuf_init(dm_strbuf *b, size_t cap)
{
    b->s = malloc(cap ? cap : 1);
    b->len = 0;
    b->cap = cap ? cap : 1;
    b->bad = b->s == NULL;
    if (b->s) {
        b->s[0] = 0;
    }
}

void dm_strbuf_put(dm_strbuf *b, const char *fmt, ...)
{
    if (b->bad) {
        return;
    }
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
    va_end(ap);
    if (n < 0) {
        b->bad = 1;
        return;
    }
    if ((size_t)n >= b->cap - b->len) {
        size_t cap = (b->cap + (size_t)n + 1) * 2;
        char *q = realloc(b->s, cap);
        if (!q) {
            b->bad = 1;
            return;
        }
        b->s = q;
        b->cap = cap;
        va_start(ap, fmt);
        vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
        va_end(ap);
    }
    b->len += (size_t)n;
}

int dm_strbuf_take(dm_strbuf *b, char **out, size_t *len)
{
    int ok = !b->bad;
    if (ok) {
        *out = b->s;
        if (len) {
            *len = b->len;
        }
    } else {
        free(b->s);
    }
    b->s = NULL;
    b->len = b->cap = 0;
    return ok;
}
