/* SPDX-License-Identifier: MIT
 * egdb/file.c: the slice file (docs/EGDB.md): CRC-32, the run-length streams with
 * their index, atomic writing, loading with every check before the first probe.
 *
 * A stream is a sequence of runs (symbol, length >= 1):
 *   2-bit symbols (values): one byte sym << 6 | (len - 1) when len - 1 < 63, else
 *     sym << 6 | 63 followed by LEB128(len - 64);
 *   8-bit symbols (distances): the symbol byte, then LEB128(len - 1).
 * The index holds (first position of a run, byte offset of the run), one entry at
 * offset 0 and then at the first run starting EG_BLOCK_BYTES or more after the last
 * entry, so a probe decodes at most about EG_BLOCK_BYTES bytes. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "egdb/egdb_int.h"

uint32_t eg_crc32(uint32_t crc, const void *data, size_t n)
{
    uint32_t table[256];
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        for (int k = 0; k < 8; k++) {
            c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
        }
        table[i] = c;
    }
    const uint8_t *p = data;
    crc = ~crc;
    for (size_t i = 0; i < n; i++) {
        crc = table[(crc ^ p[i]) & 0xFF] ^ (crc >> 8);
    }
    return ~crc;
}

/* ---- encoder -------------------------------------------------------------------- */

void eg_enc_init(eg_enc *e, int bits)
{
    memset(e, 0, sizeof *e);
    e->bits = bits;
    e->run_sym = -1;
}

static void put_byte(eg_enc *e, uint8_t v)
{
    if (e->failed) {
        return;
    }
    if (e->len == e->cap) {
        size_t cap = e->cap ? e->cap * 2 : 4096;
        uint8_t *nb = realloc(e->buf, cap);
        if (!nb) {
            e->failed = 1;
            return;
        }
        e->buf = nb;
        e->cap = cap;
    }
    e->buf[e->len++] = v;
}

static void put_leb(eg_enc *e, uint64_t v)
{
    do {
        uint8_t b = v & 0x7F;
        v >>= 7;
        put_byte(e, b | (v ? 0x80 : 0));
    } while (v);
}

static void flush_run(eg_enc *e)
{
    if (e->run_sym < 0 || e->failed) {
        return;
    }
    if (e->nindex == 0 || e->len >= e->last_index_off + EG_BLOCK_BYTES) {
        if (e->nindex == e->capindex) {
            size_t cap = e->capindex ? e->capindex * 2 : 256;
            uint32_t *ni = realloc(e->index, cap * 2 * sizeof *ni);
            if (!ni) {
                e->failed = 1;
                return;
            }
            e->index = ni;
            e->capindex = cap;
        }
        e->index[2 * e->nindex] = (uint32_t)e->run_start;
        e->index[2 * e->nindex + 1] = (uint32_t)e->len;
        e->nindex++;
        e->last_index_off = e->len;
    }
    uint64_t l = e->run_len - 1;
    if (e->bits == 2) {
        if (l < 63) {
            put_byte(e, (uint8_t)(e->run_sym << 6 | (int)l));
        } else {
            put_byte(e, (uint8_t)(e->run_sym << 6 | 63));
            put_leb(e, l - 63);
        }
    } else {
        put_byte(e, (uint8_t)e->run_sym);
        put_leb(e, l);
    }
}

void eg_enc_put(eg_enc *e, unsigned sym)
{
    e->pos++;
    if (sym == EG_SYM_ANY) {
        if (e->run_sym < 0) {
            e->lead_any++;
        } else {
            e->run_len++;
        }
        return;
    }
    if (e->run_sym < 0) {
        e->run_sym = (int)sym;
        e->run_start = 0;
        e->run_len = e->lead_any + 1;
        return;
    }
    if ((int)sym == e->run_sym) {
        e->run_len++;
        return;
    }
    flush_run(e);
    e->run_sym = (int)sym;
    e->run_start = e->pos - 1;
    e->run_len = 1;
}

void eg_enc_finish(eg_enc *e)
{
    if (e->run_sym < 0) {
        /* Nothing but don't-cares: one run of symbol 0. */
        e->run_sym = 0;
        e->run_start = 0;
        e->run_len = e->lead_any;
        if (e->run_len == 0) {
            return;
        }
    }
    flush_run(e);
    e->run_sym = -2;
}

void eg_enc_free(eg_enc *e)
{
    free(e->buf);
    free(e->index);
    memset(e, 0, sizeof *e);
}

/* ---- reading -------------------------------------------------------------------- */

static uint32_t rd32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t rd64(const uint8_t *p)
{
    return (uint64_t)rd32(p) | (uint64_t)rd32(p + 4) << 32;
}

static void wr32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++) {
        p[i] = (uint8_t)(v >> (8 * i));
    }
}

static void wr64(uint8_t *p, uint64_t v)
{
    wr32(p, (uint32_t)v);
    wr32(p + 4, (uint32_t)(v >> 32));
}

/* Decode one run at *off (bounds-checked); 0 on malformed data. */
static int read_run(const eg_stream *s, uint32_t *off, unsigned *sym, uint64_t *len)
{
    const uint8_t *d = s->data;
    uint32_t o = *off;
    if (o >= s->bytes) {
        return 0;
    }
    uint8_t b = d[o++];
    uint64_t l;
    int need_leb;
    if (s->bits == 2) {
        *sym = b >> 6;
        l = b & 63;
        need_leb = l == 63;
    } else {
        *sym = b;
        l = 0;
        need_leb = 1;
    }
    if (need_leb) {
        uint64_t v = 0;
        int shift = 0;
        for (;;) {
            if (o >= s->bytes || shift > 56) {
                return 0;
            }
            uint8_t c = d[o++];
            v |= (uint64_t)(c & 0x7F) << shift;
            shift += 7;
            if (!(c & 0x80)) {
                break;
            }
        }
        l += v;
    }
    *len = l + 1;
    *off = o;
    return 1;
}

int eg_stream_decode(const eg_stream *s, uint8_t *out, uint64_t n)
{
    uint32_t off = 0;
    unsigned sym = 0;
    uint64_t len, pos = 0;
    while (pos < n && read_run(s, &off, &sym, &len)) {
        uint64_t end = pos + len < n ? pos + len : n;
        memset(out + pos, (int)sym, (size_t)(end - pos));
        pos = end;
    }
    return pos == n ? 0 : -1;
}

unsigned eg_stream_get(const eg_stream *s, uint64_t i)
{
    /* The last index entry whose position is <= i. */
    uint32_t lo = 0, hi = s->nindex;
    const uint8_t *ix = (const uint8_t *)s->index;
    while (hi - lo > 1) {
        uint32_t mid = (lo + hi) / 2;
        if (rd32(ix + 8 * mid) <= i) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    uint64_t pos = rd32(ix + 8 * lo);
    uint32_t off = rd32(ix + 8 * lo + 4);
    unsigned sym = 0;
    uint64_t len;
    /* The streams were checked whole at load: runs cover every position. */
    while (read_run(s, &off, &sym, &len)) {
        if (i < pos + len) {
            return sym;
        }
        pos += len;
    }
    return EG_DONTCARE;
}

/* Header fields (offsets; docs/EGDB.md). */
enum {
    H_MAGIC = 0,
    H_VERSION = 8,
    H_HEADER_BYTES = 12,
    H_MAT = 16,
    H_FLAGS = 20,
    H_POSITIONS = 24,
    H_WINS = 32,
    H_LOSSES = 40,
    H_DRAWS = 48,
    H_DONTCARE = 56,
    H_MAX_DTC = 64,
    H_BLOCK = 68,
    H_VINDEX = 72,
    H_VBYTES = 76,
    H_DINDEX = 80,
    H_DBYTES = 84,
    H_BODY_CRC = 88,
    H_HEADER_CRC = 92
};

static size_t align4(size_t n)
{
    return (n + 3) & ~(size_t)3;
}

/* Byte offsets of the four sections after the header and the total size. */
typedef struct layout {
    size_t vindex, vdata, dindex, ddata, total;
} layout;

static layout layout_of(uint32_t vindex, uint32_t vbytes, uint32_t dindex, uint32_t dbytes)
{
    layout l;
    l.vindex = EG_HEADER_BYTES;
    l.vdata = l.vindex + (size_t)vindex * 8;
    l.dindex = align4(l.vdata + vbytes);
    l.ddata = l.dindex + (size_t)dindex * 8;
    l.total = l.ddata + dbytes;
    return l;
}

static dm_status write_all(int fd, const void *p, size_t n)
{
    const uint8_t *c = p;
    while (n > 0) {
        ssize_t w = write(fd, c, n);
        if (w < 0) {
            if (errno == EINTR) {
                continue;
            }
            return DM_EIO;
        }
        c += w;
        n -= (size_t)w;
    }
    return DM_OK;
}

dm_status eg_write_slice(const char *dir, eg_mat m, const dm_egdb_slice_info *counts,
                         const eg_enc *values, const eg_enc *dtc, dm_error *err)
{
    return eg_write_slice_v(dir, DM_VARIANT_INTERNATIONAL, m, counts, values, dtc, err);
}

dm_status eg_write_slice_v(const char *dir, dm_variant_id variant, eg_mat m,
                           const dm_egdb_slice_info *counts, const eg_enc *values,
                           const eg_enc *dtc, dm_error *err)
{
    if (values->failed || dtc->failed) {
        return dm_error_set(err, DM_ENOMEM, 0, 0, "egdb: out of memory encoding a slice");
    }
    layout l = layout_of((uint32_t)values->nindex, (uint32_t)values->len, (uint32_t)dtc->nindex,
                         (uint32_t)dtc->len);
    uint8_t *buf = calloc(1, l.total);
    if (!buf) {
        return dm_error_set(err, DM_ENOMEM, 0, 0, "egdb: out of memory writing a slice");
    }
    for (size_t i = 0; i < values->nindex * 2; i++) {
        wr32(buf + l.vindex + 4 * i, values->index[i]);
    }
    if (values->len) {
        memcpy(buf + l.vdata, values->buf, values->len);
    }
    for (size_t i = 0; i < dtc->nindex * 2; i++) {
        wr32(buf + l.dindex + 4 * i, dtc->index[i]);
    }
    if (dtc->len) {
        memcpy(buf + l.ddata, dtc->buf, dtc->len);
    }
    uint8_t *h = buf;
    memcpy(h + H_MAGIC, EG_MAGIC, 8);
    wr32(h + H_VERSION, EG_VERSION);
    wr32(h + H_HEADER_BYTES, EG_HEADER_BYTES);
    h[H_MAT] = (uint8_t)m.wm;
    h[H_MAT + 1] = (uint8_t)m.wk;
    h[H_MAT + 2] = (uint8_t)m.bm;
    h[H_MAT + 3] = (uint8_t)m.bk;
    /* bit 0: distance stream present; bits 8-15: the variant (dm_variant_id) */
    wr32(h + H_FLAGS, 1u | (uint32_t)variant << 8);
    wr64(h + H_POSITIONS, counts->positions);
    wr64(h + H_WINS, counts->wins);
    wr64(h + H_LOSSES, counts->losses);
    wr64(h + H_DRAWS, counts->draws);
    wr64(h + H_DONTCARE, counts->dontcare);
    wr32(h + H_MAX_DTC, (uint32_t)counts->max_dtc);
    wr32(h + H_BLOCK, EG_BLOCK_BYTES);
    wr32(h + H_VINDEX, (uint32_t)values->nindex);
    wr32(h + H_VBYTES, (uint32_t)values->len);
    wr32(h + H_DINDEX, (uint32_t)dtc->nindex);
    wr32(h + H_DBYTES, (uint32_t)dtc->len);
    wr32(h + H_BODY_CRC, eg_crc32(0, buf + EG_HEADER_BYTES, l.total - EG_HEADER_BYTES));
    wr32(h + H_HEADER_CRC, eg_crc32(0, h, H_HEADER_CRC));

    char name[16], path[4096], tmp[4200];
    eg_mat_name(name, m);
    snprintf(path, sizeof path, "%s/%s.egdb", dir, name);
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) {
        int e = errno;
        free(buf);
        return dm_error_set(err, DM_EIO, 0, 0, "egdb: cannot create %s: %s", tmp, strerror(e));
    }
    dm_status st = write_all(fd, buf, l.total);
    int e = errno;
    free(buf);
    if (st == DM_OK && fsync(fd) != 0) {
        st = DM_EIO;
        e = errno;
    }
    if (close(fd) != 0 && st == DM_OK) {
        st = DM_EIO;
        e = errno;
    }
    if (st == DM_OK && rename(tmp, path) != 0) {
        st = DM_EIO;
        e = errno;
    }
    if (st != DM_OK) {
        unlink(tmp);
        return dm_error_set(err, DM_EIO, 0, 0, "egdb: cannot write %s: %s", path, strerror(e));
    }
    /* The rename itself must reach the disk. */
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) {
        (void)fsync(dfd);
        close(dfd);
    }
    return DM_OK;
}

static dm_status refuse(dm_error *err, dm_status st, const char *path, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

static dm_status refuse(dm_error *err, dm_status st, const char *path, const char *fmt, ...)
{
    char why[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    return dm_error_set(err, st, 0, 0, "%s: %s", path, why);
}

/* Decode a whole stream: runs must cover exactly n positions, symbols in range,
 * index entries at run starts in increasing order. */
static int stream_ok(const eg_stream *s, uint64_t n, unsigned max_sym)
{
    const uint8_t *ix = (const uint8_t *)s->index;
    if (n > 0 && (s->nindex == 0 || rd32(ix) != 0 || rd32(ix + 4) != 0)) {
        return 0;
    }
    uint32_t next = 0, off = 0;
    uint64_t pos = 0;
    while (pos < n) {
        if (next < s->nindex && rd32(ix + 8 * next + 4) == off) {
            if (rd32(ix + 8 * next) != pos) {
                return 0;
            }
            next++;
        }
        unsigned sym;
        uint64_t len;
        if (!read_run(s, &off, &sym, &len) || sym > max_sym || len > n - pos) {
            return 0;
        }
        pos += len;
    }
    return next == s->nindex && off == s->bytes;
}

dm_status eg_load_slice(eg_slice *out, const char *path, dm_error *err)
{
    memset(out, 0, sizeof *out);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        return refuse(err, DM_EIO, path, "cannot open: %s", strerror(errno));
    }
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int e = errno;
        close(fd);
        return refuse(err, DM_EIO, path, "cannot stat: %s", strerror(e));
    }
    size_t size = (size_t)st.st_size;
    if (size < EG_HEADER_BYTES) {
        close(fd);
        return refuse(err, DM_EPARSE, path, "truncated: %zu bytes, shorter than the %d-byte header",
                      size, EG_HEADER_BYTES);
    }
    void *map = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
    int e = errno;
    close(fd);
    if (map == MAP_FAILED) {
        return refuse(err, DM_EIO, path, "cannot map: %s", strerror(e));
    }
    const uint8_t *h = map;
    dm_status rc = DM_EPARSE;
    if (memcmp(h + H_MAGIC, EG_MAGIC, 8) != 0) {
        refuse(err, rc, path, "not a damier endgame slice (bad magic)");
        goto fail;
    }
    if (rd32(h + H_VERSION) != EG_VERSION) {
        refuse(err, rc, path, "format version %u, this build reads version %d", rd32(h + H_VERSION),
               EG_VERSION);
        goto fail;
    }
    if (rd32(h + H_HEADER_CRC) != eg_crc32(0, h, H_HEADER_CRC) ||
        rd32(h + H_HEADER_BYTES) != EG_HEADER_BYTES) {
        refuse(err, rc, path, "corrupt header (header checksum mismatch)");
        goto fail;
    }
    unsigned variant = (rd32(h + H_FLAGS) >> 8) & 0xFF;
    const eg_geom *geom = variant < DM_VARIANT_COUNT ? eg_geom_of((dm_variant_id)variant) : NULL;
    if (!geom || (rd32(h + H_FLAGS) & ~UINT32_C(0xFF01)) != 0) {
        refuse(err, rc, path, "variant %u or flags %08x: not a database this build reads", variant,
               rd32(h + H_FLAGS));
        goto fail;
    }
    eg_mat m = {h[H_MAT], h[H_MAT + 1], h[H_MAT + 2], h[H_MAT + 3]};
    if (eg_mat_pieces(m) > DM_EGDB_MAX_PIECES || m.wm + m.wk == 0 || m.bm + m.bk == 0) {
        refuse(err, rc, path, "material %d%d%d%d out of range", m.wm, m.wk, m.bm, m.bk);
        goto fail;
    }
    uint32_t vindex = rd32(h + H_VINDEX), vbytes = rd32(h + H_VBYTES);
    uint32_t dindex = rd32(h + H_DINDEX), dbytes = rd32(h + H_DBYTES);
    layout l = layout_of(vindex, vbytes, dindex, dbytes);
    if (size < l.total) {
        refuse(err, rc, path, "truncated: %zu bytes, the header says %zu", size, l.total);
        goto fail;
    }
    if (size > l.total) {
        refuse(err, rc, path, "%zu bytes after the end the header gives (%zu)", size - l.total,
               l.total);
        goto fail;
    }
    uint32_t crc = eg_crc32(0, h + EG_HEADER_BYTES, size - EG_HEADER_BYTES);
    if (crc != rd32(h + H_BODY_CRC)) {
        refuse(err, rc, path, "corrupt: body CRC-32 %08x, the header says %08x", crc,
               rd32(h + H_BODY_CRC));
        goto fail;
    }
    eg_binom bt;
    eg_binom_init_geom(&bt, geom);
    eg_shape_of(&out->shape, &bt, m);
    dm_egdb_slice_info *in = &out->info;
    in->variant = (int)variant;
    in->wm = m.wm;
    in->wk = m.wk;
    in->bm = m.bm;
    in->bk = m.bk;
    eg_mat_name(in->name, m);
    in->positions = rd64(h + H_POSITIONS);
    in->wins = rd64(h + H_WINS);
    in->losses = rd64(h + H_LOSSES);
    in->draws = rd64(h + H_DRAWS);
    in->dontcare = rd64(h + H_DONTCARE);
    in->max_dtc = (int)rd32(h + H_MAX_DTC);
    in->file_bytes = size;
    in->crc = crc;
    if (in->positions != out->shape.size ||
        in->wins + in->losses + in->draws + in->dontcare != in->positions) {
        refuse(err, rc, path, "position counts do not match material %s", in->name);
        goto fail;
    }
    out->mat = m;
    out->values = (eg_stream){(const uint32_t *)(h + l.vindex), vindex, h + l.vdata, vbytes, 2};
    out->dtc = (eg_stream){(const uint32_t *)(h + l.dindex), dindex, h + l.ddata, dbytes, 8};
    if (!stream_ok(&out->values, in->positions, 2) || !stream_ok(&out->dtc, in->positions, 255)) {
        refuse(err, rc, path, "malformed value or distance stream");
        goto fail;
    }
    out->map = map;
    out->map_bytes = size;
    return DM_OK;
fail:
    munmap(map, size);
    memset(out, 0, sizeof *out);
    return rc;
}

void eg_unload_slice(eg_slice *s)
{
    if (s->map) {
        munmap(s->map, s->map_bytes);
    }
    memset(s, 0, sizeof *s);
}
