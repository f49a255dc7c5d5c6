/* SPDX-License-Identifier: MIT
 * engine/book_int.h: the opening book's representation (damier/book.h), shared by
 * book.c and the generated built-in book (book_data.c, src/CMakeLists.txt). */
#ifndef DM_ENGINE_BOOK_INT_H
#define DM_ENGINE_BOOK_INT_H

#include <stddef.h>

#include <damier/book.h>

/* A book is a view of the file's bytes (validated): entries at bytes +
 * DM_BOOK_HEADER_SIZE, sorted by key, searched in place; the name is read there too
 * (bytes 16-47, NUL-terminated: byte 47 is always 0). */
struct dm_book {
    const unsigned char *bytes; /* the whole file */
    size_t count;               /* entries */
    unsigned char *owned;       /* bytes when read from data/a file (freed with the book) */
};

/* The built-in book (book_data.c, generated). */
extern const struct dm_book book_builtin;

#endif /* DM_ENGINE_BOOK_INT_H */
