/* SPDX-License-Identifier: MIT
 * damier/book.h: the opening book of international draughts: positions keyed by their
 * Zobrist hash (dm_board_hash), each with moves, weights and search scores, built by
 * the project from its own searches (`damier book build`, docs/BOOK.md). A small book
 * is built into the library (dm_book_builtin); others are read from files.
 *
 * File format (".dmbk", version 1, little-endian): "DMBK", u32 version (1), u32
 * variant (0 = international), u32 entries N, 32 bytes of name (NUL-padded), then N
 * entries of 24 bytes sorted by key (then by weight, highest first): u64 key (the
 * position's dm_board_hash), u64 captured squares (bit s-1 for square s; 0 for an
 * ordinary move), u8 from, u8 to, u16 weight (> 0), i16 score (side to move's point
 * of view, hundredths of a man), u16 depth (the searched depth behind the score);
 * then u32 FNV-1a hash of every byte before it. docs/BOOK.md. */
#ifndef DM_BOOK_H
#define DM_BOOK_H

#include <stddef.h>
#include <stdint.h>

#include <damier/status.h>
#include <damier/variant.h>

#ifdef __cplusplus
extern "C" {
#endif

/* An opening book. Opaque; immutable once made (sessions share it). */
typedef struct dm_book dm_book;

#define DM_BOOK_FORMAT_VERSION 1
#define DM_BOOK_HEADER_SIZE 48u /* bytes before the first entry */
#define DM_BOOK_ENTRY_SIZE 24u  /* bytes of one entry */
#define DM_BOOK_MAX_MOVES 32    /* book moves of one position that are looked at */

/* One move of a book position, as stored. */
typedef struct dm_book_entry {
    uint64_t key;  /* the position's Zobrist hash (dm_board_hash) */
    uint64_t capt; /* captured squares, bit s-1 for square s (0: an ordinary move) */
    int from, to;  /* squares 1..50 */
    int weight;    /* 1..65535: how often the move is chosen, relative to the others */
    int score;     /* search score of the move, hundredths of a man, mover's view */
    int depth;     /* nominal depth of the search that scored it */
} dm_book_entry;

/* A legal book move of a position (dm_book_probe). */
typedef struct dm_book_move {
    dm_move move; /* legal in the probed position */
    int weight, score, depth;
} dm_book_move;

/* The book built into the library (data/book/international.dmbk when the library was
 * built, docs/BOOK.md gives its recipe; empty when there was none). Static, never
 * freed. */
DM_API const dm_book *dm_book_builtin(void);

/* Read a book from size bytes at data (the format above); the bytes are copied. On
 * error *out is untouched and err says what is wrong: DM_EPARSE for a wrong magic,
 * version or variant, a size that does not match the entry count (truncated), entries
 * out of order, a bad square or weight, or a wrong checksum. *out belongs to the
 * caller (dm_book_free). DM_ENOMEM. */
DM_API dm_status dm_book_read(dm_book **out, const void *data, size_t size, dm_error *err);

/* dm_book_read from a file; DM_EIO when it cannot be read (err names the file). */
DM_API dm_status dm_book_load(dm_book **out, const char *path, dm_error *err);

/* Free a book made by dm_book_read/_load (NULL and the built-in book are fine). */
DM_API void dm_book_free(dm_book *bk);

/* The book's name (at most 31 bytes) and its number of entries (moves). */
DM_API const char *dm_book_name(const dm_book *bk);
DM_API size_t dm_book_entries(const dm_book *bk);

/* The book moves of position (international draughts; looked up on the fast 10x10
 * board inside) that are legal there (an entry whose move is not legal, a hash
 * collision, is skipped), weight highest first, at most cap into out; returns how
 * many. 0 for a NULL book, a position of another variant or one not in the book. */
DM_API int dm_book_probe(const dm_book *bk, const dm_board *position, dm_book_move *out, int cap);

/* Choose a book move of b: seed 0 takes the one of highest weight; another seed draws
 * one with probability proportional to its weight, from a hash of the seed and the
 * position (the same seed and position give the same move). 1 with *out set, 0 when
 * b has no legal book move. */
DM_API int dm_book_pick(const dm_book *bk, const dm_board *b, uint64_t seed, dm_book_move *out);

/* The bytes of a book of n entries (any order; they are sorted, and an entry with the
 * same key, from, to and captures as an earlier one is dropped) named name: written
 * into buf (cap bytes); *size gets the bytes needed. DM_EBUFS when cap is too small
 * (*size still set), DM_EINVAL for a bad entry (square, weight 1..65535, score and
 * depth within 16 bits) or more than 2^32-1 entries. */
DM_API dm_status dm_book_write(const dm_book_entry *entries, size_t n, const char *name, void *buf,
                               size_t cap, size_t *size);

/* dm_book_write to a file (PATH.tmp, then renamed). DM_EIO, DM_EINVAL, DM_ENOMEM. */
DM_API dm_status dm_book_save(const dm_book_entry *entries, size_t n, const char *name,
                              const char *path, dm_error *err);

#ifdef __cplusplus
}
#endif
#endif /* DM_BOOK_H */
