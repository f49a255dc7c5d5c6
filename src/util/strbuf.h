/* SPDX-License-Identifier: MIT
 * src/util/strbuf.h: a growable NUL-terminated text buffer for the writers of the
 * library's text formats (jumping-game records, tournament files). Internal: layers
 * that use it name it in their SEES list (src/CMakeLists.txt). */
#ifndef DM_UTIL_STRBUF_H
#define DM_UTIL_STRBUF_H

#include <stddef.h>

typedef struct dm_strbuf {
    char *s;    /* the text, NUL-terminated while bad is 0 (malloc'd) */
    size_t len; /* bytes before the NUL */
    size_t cap; /* bytes allocated */
    int bad;    /* an allocation or format failed: later appends do nothing */
} dm_strbuf;

/* An empty buffer with room for cap bytes; bad is set when that fails. */
void dm_strbuf_init(dm_strbuf *b, size_t cap);

/* Append printf-style text, growing the buffer. */
void dm_strbuf_put(dm_strbuf *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Hand the text over (*out, *len when len is not NULL) and return 1; or, after a
 * failure, free it and return 0. The buffer is empty afterwards. */
int dm_strbuf_take(dm_strbuf *b, char **out, size_t *len);

#endif
