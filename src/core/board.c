/* SPDX-License-Identifier: MIT
 * core/board.c: the position value type (core/board10.h): pieces, side, hash. */
#include "core/board10.h"

#include "core/layout.h"

void dm_board10_clear(dm_board10 *out)
{
    out->pieces[DM_WHITE] = 0;
    out->pieces[DM_BLACK] = 0;
    out->kings = 0;
    out->side = DM_WHITE;
    out->hash = 0;
}

void dm_board10_start(dm_board10 *out)
{
    dm_board10_clear(out);
    for (int sq = 1; sq <= 20; sq++) {
        dm_board10_put(out, sq, DM_BLACK_MAN);
    }
    for (int sq = 31; sq <= 50; sq++) {
        dm_board10_put(out, sq, DM_WHITE_MAN);
    }
}

dm_piece dm_board10_piece(const dm_board10 *b, int sq)
{
    if (sq < 1 || sq > DM_SQUARES10) {
        return DM_EMPTY;
    }
    uint64_t bit = bb_bit(sq_to_bit(sq));
    int king = (b->kings & bit) != 0;
    if (b->pieces[DM_WHITE] & bit) {
        return king ? DM_WHITE_KING : DM_WHITE_MAN;
    }
    if (b->pieces[DM_BLACK] & bit) {
        return king ? DM_BLACK_KING : DM_BLACK_MAN;
    }
    return DM_EMPTY;
}

dm_status dm_board10_put(dm_board10 *b, int sq, dm_piece piece)
{
    if (sq < 1 || sq > DM_SQUARES10 || piece < DM_EMPTY || piece > DM_BLACK_KING) {
        return DM_EINVAL;
    }
    int bi = sq_to_bit(sq);
    uint64_t bit = bb_bit(bi);
    for (int c = 0; c < 2; c++) {
        if (b->pieces[c] & bit) {
            b->hash ^= zobrist_key(c, (b->kings & bit) != 0, bi);
        }
    }
    b->pieces[DM_WHITE] &= ~bit;
    b->pieces[DM_BLACK] &= ~bit;
    b->kings &= ~bit;
    if (piece == DM_EMPTY) {
        return DM_OK;
    }
    int color = (piece == DM_WHITE_MAN || piece == DM_WHITE_KING) ? DM_WHITE : DM_BLACK;
    int king = piece == DM_WHITE_KING || piece == DM_BLACK_KING;
    b->pieces[color] |= bit;
    if (king) {
        b->kings |= bit;
    }
    b->hash ^= zobrist_key(color, king, bi);
    return DM_OK;
}

void dm_board10_set_side(dm_board10 *b, dm_color side)
{
    if ((int)side != b->side) {
        b->side = side;
        b->hash ^= layout_tab.zobrist_side;
    }
}

int dm_board10_count_men(const dm_board10 *b, dm_color c)
{
    return bb_count(b->pieces[c] & ~b->kings);
}

int dm_board10_count_kings(const dm_board10 *b, dm_color c)
{
    return bb_count(b->pieces[c] & b->kings);
}

dm_status dm_board10_validate(const dm_board10 *b, dm_error *err)
{
    if (b->side != DM_WHITE && b->side != DM_BLACK) {
        return dm_error_set(err, DM_EINVAL, 0, 0, "side to move is neither White nor Black");
    }
    if ((b->pieces[0] | b->pieces[1] | b->kings) & ~BB_ALL) {
        return dm_error_set(err, DM_EINVAL, 0, 0, "pieces outside the 50 squares");
    }
    if (b->pieces[0] & b->pieces[1]) {
        int sq = bit_to_sq(bb_lsb(b->pieces[0] & b->pieces[1]));
        return dm_error_set(err, DM_EINVAL, 0, 0, "square %d holds both a white and a black piece",
                            sq);
    }
    if (b->kings & ~(b->pieces[0] | b->pieces[1])) {
        return dm_error_set(err, DM_EINVAL, 0, 0, "a king without a colour");
    }
    uint64_t wm = b->pieces[DM_WHITE] & ~b->kings & BB_ROW1;
    if (wm) {
        return dm_error_set(err, DM_EINVAL, 0, 0,
                            "white man on square %d, White's promotion row (it would be a king)",
                            bit_to_sq(bb_lsb(wm)));
    }
    uint64_t bm = b->pieces[DM_BLACK] & ~b->kings & BB_ROW10;
    if (bm) {
        return dm_error_set(err, DM_EINVAL, 0, 0,
                            "black man on square %d, Black's promotion row (it would be a king)",
                            bit_to_sq(bb_lsb(bm)));
    }
    return DM_OK;
}

uint64_t dm_board10_compute_hash(const dm_board10 *b)
{
    uint64_t h = b->side == DM_BLACK ? layout_tab.zobrist_side : 0;
    for (int c = 0; c < 2; c++) {
        uint64_t p = b->pieces[c];
        while (p) {
            int bi = bb_pop_lsb(&p);
            h ^= zobrist_key(c, (b->kings >> bi) & 1, bi);
        }
    }
    return h;
}

int dm_board10_equal(const dm_board10 *a, const dm_board10 *b)
{
    return a->pieces[0] == b->pieces[0] && a->pieces[1] == b->pieces[1] && a->kings == b->kings &&
           a->side == b->side;
}
