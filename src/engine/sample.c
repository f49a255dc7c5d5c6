/* SPDX-License-Identifier: MIT
 * engine/sample.c: self-play training samples (damier/eval.h): the 32-byte record
 * and the sample file. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <damier/board10.h>
#include <damier/eval.h>

#include "engine/eval.h"
#include "engine/le.h"

/* The square sets' checks of a record (dm_sample_decode); NULL when they hold. */
static const char *sets_problem(uint64_t w, uint64_t bl, uint64_t k, int side)
{
    const uint64_t all = (UINT64_C(1) << 50) - 1;
    if ((w | bl | k) & ~all) {
        return "a piece beyond square 50";
    }
    if (w & bl) {
        return "a square holds both colours";
    }
    if (k & ~(w | bl)) {
        return "a king on an empty square";
    }
    if (side != DM_WHITE && side != DM_BLACK) {
        return "bad side to move";
    }
    return NULL;
}

/* The piece of square sq (1..50) in the sets. */
static dm_piece set_piece(uint64_t w, uint64_t bl, uint64_t k, int sq)
{
    uint64_t m = UINT64_C(1) << (sq - 1);
    if (!((w | bl) & m)) {
        return DM_EMPTY;
    }
    int king = (k & m) != 0;
    return (w & m) ? (king ? DM_WHITE_KING : DM_WHITE_MAN) : (king ? DM_BLACK_KING : DM_BLACK_MAN);
}

int sample_board10(dm_board10 *out, const dm_sample *s)
{
    if (sets_problem(s->white, s->black, s->kings, s->side)) {
        return 0;
    }
    dm_board10_clear(out);
    for (int sq = 1; sq <= 50; sq++) {
        dm_piece p = set_piece(s->white, s->black, s->kings, sq);
        if (p != DM_EMPTY) {
            dm_board10_put(out, sq, p);
        }
    }
    dm_board10_set_side(out, (dm_color)s->side);
    return 1;
}

dm_status dm_sample_position(dm_board *out, const dm_sample *s)
{
    if (!out || !s || sets_problem(s->white, s->black, s->kings, s->side)) {
        return DM_EINVAL;
    }
    dm_board_clear(out, dm_variant_get(DM_VARIANT_INTERNATIONAL));
    for (int sq = 1; sq <= 50; sq++) {
        dm_board_put(out, sq, set_piece(s->white, s->black, s->kings, sq));
    }
    out->side = s->side;
    return DM_OK;
}

dm_status dm_sample_set_position(dm_sample *s, const dm_board *b)
{
    if (!s || !b || !b->variant || b->variant->id != DM_VARIANT_INTERNATIONAL) {
        return DM_EINVAL;
    }
    uint64_t w = 0, bl = 0, k = 0;
    for (int sq = 1; sq <= 50; sq++) {
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
    return DM_OK;
}

void dm_sample_header(unsigned char buf[DM_SAMPLE_HEADER_SIZE])
{
    memcpy(buf, "DMSP", 4);
    le_put32(buf + 4, 1);
    le_put32(buf + 8, DM_SAMPLE_RECORD_SIZE);
    le_put32(buf + 12, 0);
}

void dm_sample_encode(unsigned char buf[DM_SAMPLE_RECORD_SIZE], const dm_sample *s)
{
    memset(buf, 0, DM_SAMPLE_RECORD_SIZE);
    le_put64(buf, s->white);
    le_put64(buf + 8, s->black);
    le_put64(buf + 16, s->kings);
    buf[24] = (unsigned char)s->side;
    buf[25] = (unsigned char)(int8_t)s->result;
    uint16_t sc = (uint16_t)(int16_t)s->score, ply = (uint16_t)s->ply;
    buf[26] = (unsigned char)sc;
    buf[27] = (unsigned char)(sc >> 8);
    buf[28] = (unsigned char)ply;
    buf[29] = (unsigned char)(ply >> 8);
}

dm_status dm_sample_decode(dm_sample *out, const unsigned char buf[DM_SAMPLE_RECORD_SIZE],
                           dm_error *err)
{
    uint64_t w = le_get64(buf), bl = le_get64(buf + 8), k = le_get64(buf + 16);
    int side = buf[24], result = (int8_t)buf[25];
    const char *why = sets_problem(w, bl, k, DM_WHITE);
    if (why) {
        return dm_error_set(err, DM_EPARSE, 0, 0, "%s", why);
    }
    if (side > 1 || result < -1 || result > 1) {
        return dm_error_set(err, DM_EPARSE, 0, 0, "bad side to move (%d) or result (%d)", side,
                            result);
    }
    dm_sample s;
    s.white = w;
    s.black = bl;
    s.kings = k;
    s.side = side;
    s.result = result;
    s.score = (int16_t)(uint16_t)(buf[26] | buf[27] << 8);
    s.ply = buf[28] | buf[29] << 8;
    *out = s;
    return DM_OK;
}

dm_status dm_sample_read_file(dm_sample **samples, size_t *count, size_t *cap, const char *path,
                              dm_error *err)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        return dm_error_set(err, DM_EIO, 0, 0, "%s: %s", path, strerror(errno));
    }
    unsigned char h[DM_SAMPLE_HEADER_SIZE], ref[DM_SAMPLE_HEADER_SIZE];
    dm_sample_header(ref);
    if (fread(h, 1, sizeof h, f) != sizeof h || memcmp(h, ref, sizeof h) != 0) {
        fclose(f);
        return dm_error_set(err, DM_EPARSE, 0, 0,
                            "%s: not a damier sample file (version 1, 32-byte records)", path);
    }
    unsigned char rec[DM_SAMPLE_RECORD_SIZE];
    size_t n, index = 0;
    dm_status st = DM_OK;
    while ((n = fread(rec, 1, sizeof rec, f)) == sizeof rec) {
        if (*count == *cap) {
            size_t nc = *cap ? *cap * 2 : 4096;
            dm_sample *ns = realloc(*samples, nc * sizeof *ns);
            if (!ns) {
                st = dm_error_set(err, DM_ENOMEM, 0, 0, "out of memory");
                break;
            }
            *samples = ns;
            *cap = nc;
        }
        dm_error e2;
        if (dm_sample_decode(&(*samples)[*count], rec, &e2) != DM_OK) {
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
