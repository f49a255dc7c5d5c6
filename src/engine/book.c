/* SPDX-License-Identifier: MIT
 * engine/book.c: the opening book (damier/book.h): reading and checking the file
 * format, looking a position up (binary search over the sorted entries, in place),
 * choosing a move, writing a book. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/board10.h"
#include <damier/book.h>
#include "core/move10.h"

#include "engine/book_int.h"
#include "engine/le.h"
#include "util/filesave.h"

/* Entry i of bytes (a checked book). */
static void entry_get(dm_book_entry *e, const unsigned char *bytes, size_t i)
{
    const unsigned char *q = bytes + DM_BOOK_HEADER_SIZE + i * DM_BOOK_ENTRY_SIZE;
    e->key = le_get64(q);
    e->capt = le_get64(q + 8);
    e->from = q[16];
    e->to = q[17];
    e->weight = le_get16(q + 18);
    e->score = (int16_t)le_get16(q + 20);
    e->depth = le_get16(q + 22);
}

const dm_book *dm_book_builtin(void)
{
    return &book_builtin;
}

dm_status dm_book_read(dm_book **out, const void *data, size_t size, dm_error *err)
{
    const unsigned char *p = data;
    if (!out || (!data && size)) {
        return dm_error_set(err, DM_EINVAL, 0, 0, "no book given");
    }
    if (size < DM_BOOK_HEADER_SIZE || memcmp(p, "DMBK", 4) != 0) {
        return dm_error_set(err, DM_EPARSE, 0, 0, "not a damier book file (no DMBK header)");
    }
    uint32_t version = le_get32(p + 4), variant = le_get32(p + 8), count = le_get32(p + 12);
    if (version != DM_BOOK_FORMAT_VERSION) {
        return dm_error_set(err, DM_EPARSE, 0, 0,
                            "book file version %u, this library reads version %d", version,
                            DM_BOOK_FORMAT_VERSION);
    }
    if (variant != 0) {
        return dm_error_set(err, DM_EPARSE, 0, 0,
                            "book of variant %u, this library reads international (0) books",
                            variant);
    }
    uint64_t want = DM_BOOK_HEADER_SIZE + (uint64_t)count * DM_BOOK_ENTRY_SIZE + 4;
    if ((uint64_t)size != want) {
        return dm_error_set(
            err, DM_EPARSE, 0, 0, "book file of %zu bytes, %u entries need %llu (%s)", size, count,
            (unsigned long long)want, (uint64_t)size < want ? "truncated" : "trailing bytes");
    }
    if (fnv1a(p, size - 4) != le_get32(p + size - 4)) {
        return dm_error_set(err, DM_EPARSE, 0, 0, "book file checksum mismatch (damaged)");
    }
    if (p[47] != 0) {
        return dm_error_set(err, DM_EPARSE, 0, 0, "book name not NUL-terminated");
    }
    uint64_t prev = 0;
    for (uint32_t i = 0; i < count; i++) {
        dm_book_entry e;
        entry_get(&e, p, i);
        if (e.from < 1 || e.from > 50 || e.to < 1 || e.to > 50 || e.weight == 0 ||
            (e.capt >> 50) != 0) {
            return dm_error_set(err, DM_EPARSE, 0, 0,
                                "book entry %u: bad move (squares %d-%d) or weight %d", i, e.from,
                                e.to, e.weight);
        }
        if (i > 0 && e.key < prev) {
            return dm_error_set(err, DM_EPARSE, 0, 0, "book entry %u: keys out of order", i);
        }
        prev = e.key;
    }
    dm_book *bk = calloc(1, sizeof *bk);
    unsigned char *copy = malloc(size);
    if (!bk || !copy) {
        free(bk);
        free(copy);
        return dm_error_set(err, DM_ENOMEM, 0, 0, "out of memory");
    }
    memcpy(copy, p, size);
    bk->bytes = copy;
    bk->owned = copy;
    bk->count = count;
    *out = bk;
    return DM_OK;
}

dm_status dm_book_load(dm_book **out, const char *path, dm_error *err)
{
    if (!path) {
        return dm_error_set(err, DM_EINVAL, 0, 0, "no book file given");
    }
    FILE *f = fopen(path, "rb");
    if (!f) {
        return dm_error_set(err, DM_EIO, 0, 0, "%s: %s", path, strerror(errno));
    }
    size_t cap = 1 << 16, n = 0;
    unsigned char *buf = malloc(cap);
    dm_status st = DM_OK;
    while (buf) {
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap) {
            break;
        }
        if (cap >= ((size_t)1 << 31)) {
            st = dm_error_set(err, DM_EPARSE, 0, 0, "%s: larger than 2 GiB, not a book", path);
            break;
        }
        unsigned char *nb = realloc(buf, cap * 2);
        if (!nb) {
            free(buf);
            buf = NULL;
            break;
        }
        buf = nb;
        cap *= 2;
    }
    int bad = ferror(f);
    fclose(f);
    if (!buf) {
        return dm_error_set(err, DM_ENOMEM, 0, 0, "out of memory");
    }
    if (st == DM_OK && bad) {
        st = dm_error_set(err, DM_EIO, 0, 0, "%s: read error", path);
    } else if (st == DM_OK) {
        st = dm_book_read(out, buf, n, err);
        if (st != DM_OK && err) {
            char msg[sizeof err->message];
            snprintf(msg, sizeof msg, "%s", err->message);
            dm_error_set(err, st, 0, 0, "%s: %s", path, msg);
        }
    }
    free(buf);
    return st;
}

void dm_book_free(dm_book *bk)
{
    if (bk && bk != &book_builtin) {
        free(bk->owned);
        free(bk);
    }
}

const char *dm_book_name(const dm_book *bk)
{
    return bk && bk->bytes ? (const char *)bk->bytes + 16 : "";
}

size_t dm_book_entries(const dm_book *bk)
{
    return bk ? bk->count : 0;
}

static uint64_t capt_mask(const dm_move10 *m)
{
    int sq[64];
    int n = dm_move10_captured(m, sq, 64);
    uint64_t mask = 0;
    for (int i = 0; i < n; i++) {
        mask |= (uint64_t)1 << (sq[i] - 1);
    }
    return mask;
}

int dm_book_probe(const dm_book *bk, const dm_board *position, dm_book_move *out, int cap)
{
    dm_board10 fast;
    if (!bk || !position || !position->variant || bk->count == 0 || cap <= 0 ||
        position->variant->id != DM_VARIANT_INTERNATIONAL ||
        dm_board_to_board10(&fast, position) != DM_OK) {
        return 0;
    }
    const dm_board10 *b = &fast;
    /* the first entry with key >= b->hash */
    size_t lo = 0, hi = bk->count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (le_get64(bk->bytes + DM_BOOK_HEADER_SIZE + mid * DM_BOOK_ENTRY_SIZE) < b->hash) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    if (lo == bk->count ||
        le_get64(bk->bytes + DM_BOOK_HEADER_SIZE + lo * DM_BOOK_ENTRY_SIZE) != b->hash) {
        return 0;
    }
    dm_movelist10 list;
    dm_movegen10_legal(&list, b);
    int n = 0;
    for (size_t i = lo; i < bk->count && n < cap; i++) {
        dm_book_entry e;
        entry_get(&e, bk->bytes, i);
        if (e.key != b->hash) {
            break;
        }
        for (int k = 0; k < list.count; k++) {
            const dm_move10 *m = &list.moves[k];
            if (m->from == e.from && m->to == e.to && capt_mask(m) == e.capt) {
                if (dm_move_from_move10(&out[n].move, position, m) != DM_OK) {
                    break;
                }
                out[n].weight = e.weight;
                out[n].score = e.score;
                out[n].depth = e.depth;
                n++;
                break;
            }
        }
    }
    return n;
}

static uint64_t mix64(uint64_t x)
{
    x ^= x >> 30;
    x *= UINT64_C(0xbf58476d1ce4e5b9);
    x ^= x >> 27;
    x *= UINT64_C(0x94d049bb133111eb);
    x ^= x >> 31;
    return x;
}

int dm_book_pick(const dm_book *bk, const dm_board *b, uint64_t seed, dm_book_move *out)
{
    dm_book_move moves[DM_BOOK_MAX_MOVES];
    int n = dm_book_probe(bk, b, moves, DM_BOOK_MAX_MOVES);
    if (n == 0) {
        return 0;
    }
    int pick = 0;
    if (seed != 0) {
        uint64_t total = 0;
        for (int i = 0; i < n; i++) {
            total += (uint64_t)moves[i].weight;
        }
        dm_board10 fast; /* converts: dm_book_probe found moves */
        dm_board_to_board10(&fast, b);
        uint64_t r = mix64(seed ^ mix64(fast.hash)) % total;
        while (r >= (uint64_t)moves[pick].weight) {
            r -= (uint64_t)moves[pick].weight;
            pick++;
        }
    }
    *out = moves[pick];
    return 1;
}

/* Sort order of the file: key ascending, then weight descending, then the move. */
static int entry_cmp(const void *a, const void *b)
{
    const dm_book_entry *x = a, *y = b;
    if (x->key != y->key) {
        return x->key < y->key ? -1 : 1;
    }
    if (x->weight != y->weight) {
        return x->weight > y->weight ? -1 : 1;
    }
    if (x->from != y->from) {
        return x->from - y->from;
    }
    if (x->to != y->to) {
        return x->to - y->to;
    }
    return x->capt < y->capt ? -1 : x->capt > y->capt;
}

static int same_move(const dm_book_entry *x, const dm_book_entry *y)
{
    return x->key == y->key && x->from == y->from && x->to == y->to && x->capt == y->capt;
}

dm_status dm_book_write(const dm_book_entry *entries, size_t n, const char *name, void *buf,
                        size_t cap, size_t *size)
{
    if ((!entries && n) || !size || n > UINT32_MAX) {
        return DM_EINVAL;
    }
    for (size_t i = 0; i < n; i++) {
        const dm_book_entry *e = &entries[i];
        if (e->from < 1 || e->from > 50 || e->to < 1 || e->to > 50 || e->weight < 1 ||
            e->weight > 65535 || e->score < -32768 || e->score > 32767 || e->depth < 0 ||
            e->depth > 65535 || (e->capt >> 50) != 0) {
            return DM_EINVAL;
        }
    }
    dm_book_entry *sorted = malloc((n ? n : 1) * sizeof *sorted);
    if (!sorted) {
        return DM_ENOMEM;
    }
    if (n) {
        memcpy(sorted, entries, n * sizeof *sorted);
    }
    qsort(sorted, n, sizeof *sorted, entry_cmp);
    size_t kept = 0;
    for (size_t i = 0; i < n; i++) {
        int dup = 0;
        for (size_t j = kept; j > 0 && sorted[j - 1].key == sorted[i].key; j--) {
            if (same_move(&sorted[j - 1], &sorted[i])) {
                dup = 1;
                break;
            }
        }
        if (!dup) {
            sorted[kept++] = sorted[i];
        }
    }
    *size = DM_BOOK_HEADER_SIZE + kept * DM_BOOK_ENTRY_SIZE + 4;
    if (!buf || cap < *size) {
        free(sorted);
        return DM_EBUFS;
    }
    unsigned char *p = buf;
    memset(p, 0, DM_BOOK_HEADER_SIZE);
    memcpy(p, "DMBK", 4);
    le_put32(p + 4, DM_BOOK_FORMAT_VERSION);
    le_put32(p + 8, 0);
    le_put32(p + 12, (uint32_t)kept);
    for (int i = 0; name && i < 31 && name[i]; i++) {
        p[16 + i] = (unsigned char)name[i];
    }
    unsigned char *q = p + DM_BOOK_HEADER_SIZE;
    for (size_t i = 0; i < kept; i++, q += DM_BOOK_ENTRY_SIZE) {
        const dm_book_entry *e = &sorted[i];
        le_put64(q, e->key);
        le_put64(q + 8, e->capt);
        q[16] = (unsigned char)e->from;
        q[17] = (unsigned char)e->to;
        le_put16(q + 18, (uint16_t)e->weight);
        le_put16(q + 20, (uint16_t)(int16_t)e->score);
        le_put16(q + 22, (uint16_t)e->depth);
    }
    le_put32(q, fnv1a(p, *size - 4));
    free(sorted);
    return DM_OK;
}

dm_status dm_book_save(const dm_book_entry *entries, size_t n, const char *name, const char *path,
                       dm_error *err)
{
    if (!path) {
        return dm_error_set(err, DM_EINVAL, 0, 0, "no path");
    }
    size_t size = 0;
    dm_status st = dm_book_write(entries, n, name, NULL, 0, &size);
    if (st != DM_EBUFS) {
        return dm_error_set(err, st, 0, 0, "bad book entries (%s)", dm_status_str(st));
    }
    unsigned char *buf = malloc(size);
    if (!buf) {
        return dm_error_set(err, DM_ENOMEM, 0, 0, "out of memory");
    }
    dm_book_write(entries, n, name, buf, size, &size);
    st = dm_file_save_atomic(path, buf, size, err);
    free(buf);
    return st;
}
