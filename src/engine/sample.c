/* SPDX-License-Identifier: MIT
 * engine/sample.c: self-play training samples (damier/eval.h): the 32-byte record
 * and the sample file. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <damier/eval.h>

#include "engine/le.h"

/* Square-numbered set (bit s-1) <-> the board: through dm_board10_put, so the layout
 * stays the core's business. */
static uint64_t square_set(const dm_board10 *b, int color, int kings_only)
{
    uint64_t s = 0;
    for (int sq = 1; sq <= 50; sq++) {
        dm_piece p = dm_board10_piece(b, sq);
        if (p == DM_EMPTY) {
            continue;
        }
        int c = (p == DM_WHITE_MAN || p == DM_WHITE_KING) ? DM_WHITE : DM_BLACK;
        int k = p == DM_WHITE_KING || p == DM_BLACK_KING;
        if ((color < 0 || c == color) && (!kings_only || k)) {
            s |= UINT64_C(1) << (sq - 1);
        }
    }
    return s;
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
    le_put64(buf, square_set(&s->board, DM_WHITE, 0));
    le_put64(buf + 8, square_set(&s->board, DM_BLACK, 0));
    le_put64(buf + 16, square_set(&s->board, -1, 1));
    buf[24] = (unsigned char)s->board.side;
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
    const uint64_t all = (UINT64_C(1) << 50) - 1;
    if ((w | bl | k) & ~all) {
        return dm_error_set(err, DM_EPARSE, 0, 0, "a piece beyond square 50");
    }
    if (w & bl) {
        return dm_error_set(err, DM_EPARSE, 0, 0, "a square holds both colours");
    }
    if (k & ~(w | bl)) {
        return dm_error_set(err, DM_EPARSE, 0, 0, "a king on an empty square");
    }
    int side = buf[24], result = (int8_t)buf[25];
    if (side > 1 || result < -1 || result > 1) {
        return dm_error_set(err, DM_EPARSE, 0, 0, "bad side to move (%d) or result (%d)", side,
                            result);
    }
    dm_sample s;
    dm_board10_clear(&s.board);
    for (int sq = 1; sq <= 50; sq++) {
        uint64_t m = UINT64_C(1) << (sq - 1);
        if ((w | bl) & m) {
            int king = (k & m) != 0;
            dm_piece p = (w & m) ? (king ? DM_WHITE_KING : DM_WHITE_MAN)
                                 : (king ? DM_BLACK_KING : DM_BLACK_MAN);
            dm_board10_put(&s.board, sq, p);
        }
    }
    dm_board10_set_side(&s.board, (dm_color)side);
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
