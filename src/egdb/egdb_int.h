/* SPDX-License-Identifier: MIT
 * egdb/egdb_int.h: the egdb layer's internals, shared by index.c (material and
 * binomial indexing), file.c (slice file format, CRC, run-length codec), probe.c
 * (loading, probing, verification) and gen.c (generation). Tests use it too.
 *
 * Squares here are "compact": bit s-1 for square s (50 bits), converted from the
 * board layout of core/layout.h (this layer needs that internal interface). */
#ifndef DM_EGDB_INT_H
#define DM_EGDB_INT_H

#include <stddef.h>
#include <stdint.h>

#include "core/board10.h"
#include <damier/egdb.h>
#include "core/move10.h"

#include "egdb/egdb_fast.h"

#define EG_MAGIC "DMEGDB\r\n" /* 8 bytes; \r\n catches text-mode damage */
#define EG_VERSION 1          /* every variant: the header's flags name it (docs/EGDB.md) */
#define EG_HEADER_BYTES 128
#define EG_BLOCK_BYTES 256 /* a stream index entry every this many bytes (at least) */

/* Stored symbols of the value stream (2 bits). */
enum {
    EG_DRAW = 0,
    EG_WIN = 1,
    EG_LOSS = 2,
    EG_DONTCARE = 3
};

typedef struct eg_mat {
    int wm, wk, bm, bk;
} eg_mat;

/* A geometry and its rules: everything the one generator, prober and verifier need
 * of a variant (index.c defines one per supported variant). Squares are "compact"
 * (bit s-1 = square s, nsq squares); boards are the fast bitboards of core's
 * generator (dm_board10 fields with the layout of that board size: 54 bits on
 * 10x10, 35 on 8x8, core/gen_geom.h). Every function is pure. */
typedef struct eg_geom {
    dm_variant_id variant; /* written into each file's header */
    const char *name;      /* "international", "russian", ... */
    int nsq;               /* playing squares: 50 or 32 */
    int row;               /* squares a row: 5 or 4 (a man never stands on his far row) */
    int flying;            /* kings move along whole diagonals (0: one step, English) */
    uint64_t (*to_compact)(uint64_t layout_bits);
    uint64_t (*from_compact)(uint64_t compact);
    uint64_t (*flip)(uint64_t compact); /* square s -> nsq + 1 - s */
    /* One diagonal step of the layout bits x in direction d (0 NW, 1 NE: towards
     * square 1; 2 SW, 3 SE), squares off the board dropped. */
    uint64_t (*step)(uint64_t x, int d);
    int (*legal)(dm_movelist10 *list, const dm_board10 *b);
    int (*has_capture)(const dm_board10 *b);
    void (*apply)(dm_board10 *b, const dm_move10 *m);
    /* 1 when the quiet move m crowns a man. */
    int (*is_promotion)(const dm_board10 *before, const dm_move10 *m);
    /* The generic position b (of this variant) as a fast board; 0 when it is not. */
    int (*fast_of)(dm_board10 *out, const dm_board *b);
} eg_geom;

/* The geometry of variant v: international, Brazilian, Russian, English; NULL for
 * the others (no database). */
const eg_geom *eg_geom_of(dm_variant_id v);

/* Binomial coefficients C(n, k) for n <= 50, k <= DM_EGDB_MAX_PIECES, and the
 * geometry the index functions below work on. */
typedef struct eg_binom {
    uint64_t c[51][DM_EGDB_MAX_PIECES + 1];
    const eg_geom *geom;
} eg_binom;

/* International geometry (the tests' default). */
void eg_binom_init(eg_binom *t);
/* The geometry g. */
void eg_binom_init_geom(eg_binom *t, const eg_geom *g);

/* Sizes of the four index groups of a material and their product. */
typedef struct eg_shape {
    uint64_t n_wm, n_bm, n_wk, n_bk, size;
} eg_shape;

void eg_shape_of(eg_shape *out, const eg_binom *t, eg_mat m);

/* Compact (bit s-1 = square s) masks of a board's four piece groups. */
typedef struct eg_pos {
    uint64_t wm, wk, bm, bk;
} eg_pos;

/* International (10x10) conversions. */
uint64_t eg_to_compact(uint64_t layout_bits);
uint64_t eg_from_compact(uint64_t compact);
uint64_t eg_flip_compact(uint64_t compact); /* square s -> 51 - s */

/* The board's groups with White to move: a Black-to-move board is colour-flipped
 * (squares s -> 51 - s, colours swapped), which keeps its value. */
void eg_pos_of_board(eg_pos *out, const dm_board10 *b);
eg_mat eg_mat_of(const eg_pos *p);
/* A board (White to move) from groups; its hash is left 0 (egdb never uses it). */
void eg_board_of_pos(dm_board10 *out, const eg_pos *p);
/* The same two for geometry g. */
void eg_pos_of_board_g(const eg_geom *g, eg_pos *out, const dm_board10 *b);
void eg_board_of_pos_g(const eg_geom *g, dm_board10 *out, const eg_pos *p);

/* Index of p in its material's slice; p must be a valid position of that material. */
uint64_t eg_index(const eg_binom *t, const eg_shape *s, const eg_pos *p);
/* Position of index i; returns 0 when i is not a position (men of both sides on one
 * square), 1 otherwise. */
int eg_unindex(const eg_binom *t, const eg_shape *s, eg_mat m, uint64_t i, eg_pos *p);

void eg_mat_name(char name[16], eg_mat m);
int eg_mat_pieces(eg_mat m);
eg_mat eg_mat_flip(eg_mat m);

/* CRC-32 (ISO-HDLC, polynomial 0xEDB88320 reflected, as zlib's crc32). */
uint32_t eg_crc32(uint32_t crc, const void *data, size_t n);

/* ---- run-length streams (file.c) ---------------------------------------------- */

/* An encoder of one symbol stream (values: 2-bit symbols; distances: 8-bit),
 * growing a heap buffer, with an index entry (position, offset) every
 * EG_BLOCK_BYTES. Don't-care positions (EG_SYM_ANY) extend the current run. */
#define EG_SYM_ANY 0xFFFF
typedef struct eg_enc {
    int bits; /* 2 or 8 */
    uint8_t *buf;
    size_t len, cap;
    uint32_t *index; /* pairs: first position of a run, byte offset */
    size_t nindex, capindex;
    uint64_t pos; /* positions encoded so far */
    int run_sym;  /* -1 before the first defined symbol */
    uint64_t run_len, run_start;
    uint64_t lead_any; /* don't-cares before the first defined symbol */
    size_t last_index_off;
    int failed; /* allocation failure */
} eg_enc;

void eg_enc_init(eg_enc *e, int bits);
void eg_enc_put(eg_enc *e, unsigned sym);
void eg_enc_finish(eg_enc *e);
void eg_enc_free(eg_enc *e);

/* ---- a loaded slice (probe.c) --------------------------------------------------- */

typedef struct eg_stream {
    const uint32_t *index; /* nindex pairs (little-endian in the file) */
    uint32_t nindex;
    const uint8_t *data;
    uint32_t bytes;
    int bits;
} eg_stream;

typedef struct eg_slice {
    dm_egdb_slice_info info; /* info.variant: the header's variant */
    eg_mat mat;
    eg_shape shape;
    void *map; /* mmap of the whole file */
    size_t map_bytes;
    eg_stream values, dtc;
} eg_slice;

/* Symbol at position i of a stream (i < positions). */
unsigned eg_stream_get(const eg_stream *s, uint64_t i);
/* Every symbol of positions 0..n-1 into out[0..n-1], in one pass (verification's
 * cache); -1 when the runs end before n positions. */
int eg_stream_decode(const eg_stream *s, uint8_t *out, uint64_t n);

/* Write a slice file atomically (dir/name.egdb.tmp, fsync, rename, fsync dir):
 * values and distances already encoded. DM_EIO with the reason. */
dm_status eg_write_slice(const char *dir, eg_mat m, const dm_egdb_slice_info *counts,
                         const eg_enc *values, const eg_enc *dtc, dm_error *err);
/* The same for a slice of variant v (written in the header's flags, bits 8-15). */
dm_status eg_write_slice_v(const char *dir, dm_variant_id v, eg_mat m,
                           const dm_egdb_slice_info *counts, const eg_enc *values,
                           const eg_enc *dtc, dm_error *err);

/* Read and check a slice file (size, magic, version, header and body CRCs, stream
 * bounds); on success *out holds the mapping. DM_EIO/DM_EPARSE with the reason. */
dm_status eg_load_slice(eg_slice *out, const char *path, dm_error *err);
void eg_unload_slice(eg_slice *s);

/* The database object. */
#define EG_MAT_DIM (DM_EGDB_MAX_PIECES + 1)
struct dm_egdb {
    eg_binom binom; /* binom.geom: the variant of every slice loaded */
    eg_slice *slices;
    int nslices, capslices;
    int16_t slot[EG_MAT_DIM][EG_MAT_DIM][EG_MAT_DIM][EG_MAT_DIM]; /* -1 or slice */
    char **problems;
    int nproblems;
    int max_pieces;
};

dm_egdb *eg_db_new(void); /* international */
dm_egdb *eg_db_new_geom(const eg_geom *g);
/* Add a loaded slice (takes ownership of its mapping); -1 on allocation failure. */
int eg_db_add(dm_egdb *db, const eg_slice *s);
void eg_db_add_problem(dm_egdb *db, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
void eg_db_update_max(dm_egdb *db);
const eg_slice *eg_db_find(const dm_egdb *db, eg_mat m);

/* Raw stored value and distance of a valid position p of slice s (no capture check). */
static inline unsigned eg_slice_value(const eg_slice *s, uint64_t idx)
{
    return eg_stream_get(&s->values, idx);
}

#endif /* DM_EGDB_INT_H */
