/* SPDX-License-Identifier: MIT
 * engine/sample.c: self-play training samples (damier/eval.h): the 32-byte record of
 * square sets and the sample file, for every board (engine/evalcore.h: the 8x8
 * samples of damier/eval8.h use them with 32 squares), and the international
 * sample. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/board10.h"
#include <damier/eval.h>

#include "engine/eval.h"
#include "engine/evalcore.h"
#include "engine/le.h"

dm_status sample_check(const dm_sample *s, int squares, dm_error *err)
{
    const uint64_t all = (UINT64_C(1) << squares) - 1;
    if ((s->white | s->black | s->kings) & ~all) {
        return dm_error_set(err, DM_EPARSE, 0, 0, "a piece beyond square %d", squares);
    }
    if (s->white & s->black) {
        return dm_error_set(err, DM_EPARSE, 0, 0, "a square holds both colours");
    }
    if (s->kings & ~(s->white | s->black)) {
        return dm_error_set(err, DM_EPARSE, 0, 0, "a king on an empty square");
    }
    if (s->side != DM_WHITE && s->side != DM_BLACK) {
        return dm_error_set(err, DM_EPARSE, 0, 0, "bad side to move");
    }
    return DM_OK;
}

/* The piece of square sq (1..64) in the sets of s. */
static dm_piece set_piece(const dm_sample *s, int sq)
{
    uint64_t m = UINT64_C(1) << (sq - 1);
    if (!((s->white | s->black) & m)) {
        return DM_EMPTY;
    }
    int king = (s->kings & m) != 0;
    return (s->white & m) ? (king ? DM_WHITE_KING : DM_WHITE_MAN)
                          : (king ? DM_BLACK_KING : DM_BLACK_MAN);
}

int sample_board10(dm_board10 *out, const dm_sample *s)
{
    if (sample_check(s, 50, NULL) != DM_OK) {
        return 0;
    }
    dm_board10_clear(out);
    for (int sq = 1; sq <= 50; sq++) {
        dm_piece p = set_piece(s, sq);
        if (p != DM_EMPTY) {
            dm_board10_put(out, sq, p);
        }
    }
    dm_board10_set_side(out, (dm_color)s->side);
    return 1;
}

void sample_to_board(dm_board *out, const dm_sample *s, const dm_variant *var, int squares)
{
    dm_board_clear(out, var);
    for (int sq = 1; sq <= squares; sq++) {
        dm_board_put(out, sq, set_piece(s, sq));
    }
    out->side = s->side;
}

void sample_from_board(dm_sample *s, const dm_board *b, int squares)
{
    uint64_t w = 0, bl = 0, k = 0;
    for (int sq = 1; sq <= squares; sq++) {
        dm_piece p = dm_board_piece(b, sq);
        uint64_t m = UINT64_C(1) << (sq - 1);
        w |= (p == DM_WHITE_MAN || p == DM_WHITE_KING) ? m : 0;
        bl |= (p == DM_BLACK_MAN || p == DM_BLACK_KING) ? m : 0;
        k |= (p == DM_WHITE_KING || p == DM_BLACK_KING) ? m : 0;
    }
    s->white = w;
    s->black = bl;
    s->kings = k;
    s->side = b->side;
}

dm_status dm_sample_position(dm_board *out, const dm_sample *s)
{
    if (!out || !s || sample_check(s, 50, NULL) != DM_OK) {
        return DM_EINVAL;
    }
    sample_to_board(out, s, dm_variant_get(DM_VARIANT_INTERNATIONAL), 50);
    return DM_OK;
}

dm_status dm_sample_set_position(dm_sample *s, const dm_board *b)
{
    if (!s || !b || !b->variant || b->variant->id != DM_VARIANT_INTERNATIONAL) {
        return DM_EINVAL;
    }
    sample_from_board(s, b, 50);
    return DM_OK;
}

void sample_header(unsigned char buf[DM_SAMPLE_HEADER_SIZE], uint32_t v)
{
    memcpy(buf, "DMSP", 4);
    le_put32(buf + 4, 1);
    le_put32(buf + 8, DM_SAMPLE_RECORD_SIZE);
    le_put32(buf + 12, v);
}

void dm_sample_header(unsigned char buf[DM_SAMPLE_HEADER_SIZE])
{
    sample_header(buf, 0);
}

void dm_sample_encode(unsigned char buf[DM_SAMPLE_RECORD_SIZE], const dm_sample *s)
{
    memset(buf, 0, DM_SAMPLE_RECORD_SIZE);
    le_put64(buf, s->white);
    le_put64(buf + 8, s->black);
    le_put64(buf + 16, s->kings);
    buf[24] = (unsigned char)s->side;
    buf[25] = (unsigned char)(int8_t)s->result;
    le_put16(buf + 26, (uint16_t)(int16_t)s->score);
    le_put16(buf + 28, (uint16_t)s->ply);
}

dm_status sample_decode_sets(dm_sample *out, const unsigned char buf[DM_SAMPLE_RECORD_SIZE],
                             int squares, dm_error *err)
{
    dm_sample s;
    s.white = le_get64(buf);
    s.black = le_get64(buf + 8);
    s.kings = le_get64(buf + 16);
    s.side = DM_WHITE;
    dm_status st = sample_check(&s, squares, err);
    if (st != DM_OK) {
        return st;
    }
    int side = buf[24], result = (int8_t)buf[25];
    if (side > 1 || result < -1 || result > 1) {
        return dm_error_set(err, DM_EPARSE, 0, 0, "bad side to move (%d) or result (%d)", side,
                            result);
    }
    s.side = side;
    s.result = result;
    s.score = (int16_t)le_get16(buf + 26);
    s.ply = le_get16(buf + 28);
    *out = s;
    return DM_OK;
}

dm_status dm_sample_decode(dm_sample *out, const unsigned char buf[DM_SAMPLE_RECORD_SIZE],
                           dm_error *err)
{
    return sample_decode_sets(out, buf, 50, err);
}

dm_status sample_read_file(void **samples, size_t size, size_t *count, size_t *cap, int *variant,
                           int (*accepts)(uint32_t v), const char *kind, sample_decode_fn decode,
                           const char *path, dm_error *err)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        return dm_error_set(err, DM_EIO, 0, 0, "%s: %s", path, strerror(errno));
    }
    unsigned char h[DM_SAMPLE_HEADER_SIZE];
    if (fread(h, 1, sizeof h, f) != sizeof h || memcmp(h, "DMSP", 4) != 0 || le_get32(h + 4) != 1 ||
        le_get32(h + 8) != DM_SAMPLE_RECORD_SIZE) {
        fclose(f);
        return dm_error_set(err, DM_EPARSE, 0, 0,
                            "%s: not a damier sample file (version 1, 32-byte records)", path);
    }
    uint32_t fv = le_get32(h + 12);
    if (*variant >= 0 && fv != (uint32_t)*variant) {
        fclose(f);
        return dm_error_set(err, DM_EPARSE, 0, 0, "%s: samples of variant %u, expected %d", path,
                            fv, *variant);
    }
    if (fv >= DM_VARIANT_COUNT || (accepts && !accepts(fv))) {
        fclose(f);
        return dm_error_set(err, DM_EPARSE, 0, 0, "%s: samples of variant %u, not %s", path, fv,
                            kind);
    }
    *variant = (int)fv;
    unsigned char rec[DM_SAMPLE_RECORD_SIZE];
    size_t n, index = 0;
    dm_status st = DM_OK;
    while ((n = fread(rec, 1, sizeof rec, f)) == sizeof rec) {
        if (*count == *cap) {
            size_t nc = *cap ? *cap * 2 : 4096;
            void *ns = realloc(*samples, nc * size);
            if (!ns) {
                st = dm_error_set(err, DM_ENOMEM, 0, 0, "out of memory");
                break;
            }
            *samples = ns;
            *cap = nc;
        }
        dm_error e2;
        if (decode((unsigned char *)*samples + *count * size, rec, fv, &e2) != DM_OK) {
            st = dm_error_set(err, DM_EPARSE, 0, 0, "%s: record %zu: %s", path, index + 1,
                              e2.message);
            break;
        }
        ++*count;
        index++;
    }
    if (st == DM_OK && n != 0) {
        st = dm_error_set(err, DM_EPARSE, 0, 0, "%s: ends inside record %zu (%zu of %u bytes)",
                          path, index + 1, n, DM_SAMPLE_RECORD_SIZE);
    }
    if (st == DM_OK && ferror(f)) {
        st = dm_error_set(err, DM_EIO, 0, 0, "%s: read error", path);
    }
    fclose(f);
    return st;
}

static dm_status decode10(void *out, const unsigned char *rec, uint32_t v, dm_error *err)
{
    (void)v;
    return dm_sample_decode(out, rec, err);
}

dm_status dm_sample_read_file(dm_sample **samples, size_t *count, size_t *cap, const char *path,
                              dm_error *err)
{
    void *mem = *samples;
    int variant = DM_VARIANT_INTERNATIONAL;
    dm_status st = sample_read_file(&mem, sizeof **samples, count, cap, &variant, NULL,
                                    "international", decode10, path, err);
    *samples = mem;
    return st;
}
