/* SPDX-License-Identifier: MIT
 * core/variant.c: the variant descriptions (data), lookup by name and PDN GameType,
 * draw-rule sets, and the no-move result. Sources of each rule:
 * ../shared/docs/variants.md (rules table) and pdn-fen.md (GameType table). */
#include <damier/variant.h>

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "core/drawrule.h"

/* Draw-rule sets, thresholds in moves of each side; 0 = no such rule. Macros, so the
 * variant table can be initialised with them (C wants constant expressions there). */
#define DRAW_FMJD DR_FMJD_INIT /* core/drawrule.h: the engine's search uses it too */
static const dm_draw_rules draw_fmjd = DRAW_FMJD;
/* The project's source material for Russian draughts (variants.md): 3-fold, 30
 * moves without capture, three kings vs a lone king 18 moves. */
#define DRAW_RUSSIAN_SOURCE                                                                        \
    {                                                                                              \
        .name = "russian-source", .repetition = 3, .no_capture_moves = 30,                         \
        .three_vs_king_moves = 18, .three_kings_only = 1                                           \
    }
static const dm_draw_rules draw_russian_source = DRAW_RUSSIAN_SOURCE;
/* pydraughts' Russian set (variants.md table, not checked against the Russian code). */
#define DRAW_RUSSIAN_PYDRAUGHTS                                                                    \
    {                                                                                              \
        .name = "russian-pydraughts", .repetition = 3, .kings_only_moves = 15,                     \
        .three_vs_king_moves = 15, .three_kings_only = 1, .two_vs_king_moves = 5,                  \
        .long_diagonal_moves = 5, .equal_kings_4_5_moves = 30, .equal_kings_6_7_moves = 60         \
    }
static const dm_draw_rules draw_russian_pydraughts = DRAW_RUSSIAN_PYDRAUGHTS;
#define DRAW_ENGLISH                                                                               \
    {                                                                                              \
        .name = "english", .repetition = 3, .no_progress_moves = 40                                \
    }
static const dm_draw_rules draw_english = DRAW_ENGLISH;
#define DRAW_ANTI                                                                                  \
    {                                                                                              \
        .name = "antidraughts", .repetition = 3                                                    \
    }
static const dm_draw_rules draw_anti = DRAW_ANTI;

/* Italian: FID regolamento tecnico 9.3(b1) 4-fold repetition, 10.4 40 moves each
 * without a man move or a capture (as read by dctl italian.hpp: max_repetitions 4,
 * max_reversible_moves 80 ply). Conflict: pydraughts uses 3-fold (VARIANTS.md). */
#define DRAW_ITALIAN                                                                               \
    {                                                                                              \
        .name = "italian", .repetition = 4, .no_progress_moves = 40                                \
    }
static const dm_draw_rules draw_italian = DRAW_ITALIAN;
/* Pool: APCA tournament rules 26 as read by dctl pool.hpp: 3-fold repetition, 30
 * reversible ply (king moves without capture) = 15 moves each. */
#define DRAW_POOL                                                                                  \
    {                                                                                              \
        .name = "pool", .repetition = 3, .kings_only_moves = 15                                    \
    }
static const dm_draw_rules draw_pool = DRAW_POOL;
/* Breakthrough: no draw rule at all (lidraughts Breakthrough.scala, pydraughts). */
#define DRAW_NONE                                                                                  \
    {                                                                                              \
        .name = "none"                                                                             \
    }
static const dm_draw_rules draw_none = DRAW_NONE;
/* Czech, Spanish, Thai: no draw text was found (VARIANTS.md); 3-fold repetition only,
 * an assumption, every threshold selectable by name. */
#define DRAW_REPETITION                                                                            \
    {                                                                                              \
        .name = "repetition", .repetition = 3                                                      \
    }
static const dm_draw_rules draw_repetition = DRAW_REPETITION;
/* Frisian (variants.md; FR 18, 21.1): two kings against one king drawn after 7
 * moves each; king against king drawn (lidraughts and pydraughts: after 2 more moves
 * each, as here); 3-fold repetition (no text in FR; lidraughts applies it). */
#define DRAW_FRISIAN                                                                               \
    {                                                                                              \
        .name = "frisian", .repetition = 3, .two_vs_king_moves = 7, .two_kings_only = 1,           \
        .king_vs_king_moves = 2                                                                    \
    }
static const dm_draw_rules draw_frisian = DRAW_FRISIAN;
/* Turkish (variants.md; pydraughts): 3-fold repetition; a lone king against a lone
 * king drawn after 2 more moves each (pydraughts' reading; the rules say drawn at once
 * unless a win is forced). Unverified against a federation text; kish's 50-move rule
 * is not applied. */
#define DRAW_TURKISH                                                                               \
    {                                                                                              \
        .name = "turkish", .repetition = 3, .king_vs_king_moves = 2                                \
    }
static const dm_draw_rules draw_turkish = DRAW_TURKISH;

/* The variants, one rule per field, the source beside each rule that differs from
 * FMJD (source keys: docs/VARIANTS.md, "Variants not played yet"). */
static const dm_variant variants[DM_VARIANT_COUNT] = {
    [DM_VARIANT_INTERNATIONAL] = {.id = DM_VARIANT_INTERNATIONAL,
                                  .name = "international",
                                  .title = "International draughts (FMJD)",
                                  .game_type = 20,
                                  .size = 10,
                                  .squares = 50,
                                  .men_rows = 4,
                                  .first = DM_WHITE,
                                  .men_capture_back = 1,
                                  .flying_kings = 1,
                                  .majority = 1,
                                  .precedence = DM_PREC_COUNT,
                                  .promotion = DM_PROMOTE_AT_END,
                                  .men_capture_kings = 1,
                                  .capture_sep = 'x',
                                  .draw = DRAW_FMJD},
    /* Brazilian: international rules on 8x8; official CBJD draw text not found, the
     * FMJD thresholds are the default (variants.md: unverified). */
    [DM_VARIANT_BRAZILIAN] = {.id = DM_VARIANT_BRAZILIAN,
                              .name = "brazilian",
                              .title = "Brazilian draughts",
                              .game_type = 26,
                              .size = 8,
                              .squares = 32,
                              .men_rows = 3,
                              .first = DM_WHITE,
                              .men_capture_back = 1,
                              .flying_kings = 1,
                              .majority = 1,
                              .precedence = DM_PREC_COUNT,
                              .promotion = DM_PROMOTE_AT_END,
                              .men_capture_kings = 1,
                              .algebraic = 1,
                              .capture_sep = 'x',
                              .draw = DRAW_FMJD},
    [DM_VARIANT_RUSSIAN] = {.id = DM_VARIANT_RUSSIAN,
                            .name = "russian",
                            .title = "Russian draughts (shashki)",
                            .game_type = 25,
                            .size = 8,
                            .squares = 32,
                            .men_rows = 3,
                            .first = DM_WHITE,
                            .men_capture_back = 1,
                            .flying_kings = 1,
                            .majority = 0,
                            .precedence = DM_PREC_NONE,
                            .promotion = DM_PROMOTE_CONTINUE_KING,
                            .men_capture_kings = 1,
                            .algebraic = 1,
                            .capture_sep = ':',
                            .draw = DRAW_RUSSIAN_SOURCE},
    [DM_VARIANT_ENGLISH] = {.id = DM_VARIANT_ENGLISH,
                            .name = "english",
                            .title = "English draughts / American checkers",
                            .game_type = 21,
                            .size = 8,
                            .squares = 32,
                            .men_rows = 3,
                            .first = DM_BLACK,
                            .men_capture_back = 0,
                            .flying_kings = 0,
                            .majority = 0,
                            .precedence = DM_PREC_NONE,
                            .promotion = DM_PROMOTE_STOPS,
                            .men_capture_kings = 1,
                            .algebraic_flipped = 1,
                            .capture_sep = 'x',
                            .draw = DRAW_ENGLISH},
    /* Canadian: international rules on 12x12; draw rules assumed as FMJD. */
    [DM_VARIANT_CANADIAN] = {.id = DM_VARIANT_CANADIAN,
                             .name = "canadian",
                             .title = "Canadian draughts (12x12)",
                             .game_type = 27,
                             .size = 12,
                             .squares = 72,
                             .men_rows = 5,
                             .first = DM_WHITE,
                             .men_capture_back = 1,
                             .flying_kings = 1,
                             .majority = 1,
                             .precedence = DM_PREC_COUNT,
                             .promotion = DM_PROMOTE_AT_END,
                             .men_capture_kings = 1,
                             .capture_sep = 'x',
                             .draw = DRAW_FMJD},
    [DM_VARIANT_ANTIDRAUGHTS] = {.id = DM_VARIANT_ANTIDRAUGHTS,
                                 .name = "antidraughts",
                                 .title = "Antidraughts (losing draughts)",
                                 .game_type = 98,
                                 .size = 10,
                                 .squares = 50,
                                 .men_rows = 4,
                                 .first = DM_WHITE,
                                 .men_capture_back = 1,
                                 .flying_kings = 1,
                                 .majority = 1,
                                 .precedence = DM_PREC_COUNT,
                                 .promotion = DM_PROMOTE_AT_END,
                                 .men_capture_kings = 1,
                                 .reversed_result = 1,
                                 .capture_sep = 'x',
                                 .draw = DRAW_ANTI},
    /* Czech (PDN 29,W,8,8,A0,0): Czech rules (damweb.cz/pravidla/cdfull.html, articles as
     * cited by dctl czech.hpp): men capture forward only [4.1], flying kings [3.9], no
     * quantity rule but a king's capture first [4.14]; records algebraic [2.6]. A man
     * reaching the far row ends there (it cannot capture back). Capture separator:
     * PDN 'x' (dctl writes ':'; both are read). */
    [DM_VARIANT_CZECH] = {.id = DM_VARIANT_CZECH,
                          .name = "czech",
                          .title = "Czech draughts (ceska dama)",
                          .game_type = 29,
                          .size = 8,
                          .squares = 32,
                          .men_rows = 3,
                          .first = DM_WHITE,
                          .men_capture_back = 0,
                          .flying_kings = 1,
                          .majority = 0,
                          .precedence = DM_PREC_CZECH,
                          .promotion = DM_PROMOTE_STOPS,
                          .men_capture_kings = 1,
                          .algebraic = 1,
                          .capture_sep = 'x',
                          .draw = DRAW_REPETITION},
    /* Italian (PDN 22,W,8,8,N2,1): FID regolamento tecnico (fid.it, articles as cited
     * by dctl italian.hpp): the board turned, a1 light [2.3]; kings step one square
     * [4.7]; men capture forward only [5.3a] and never kings [5.3b]; precedence
     * [6.6-6.9]; a man crowned ends the move. Square 1 = a8 (N2). */
    [DM_VARIANT_ITALIAN] = {.id = DM_VARIANT_ITALIAN,
                            .name = "italian",
                            .title = "Italian draughts (dama italiana)",
                            .game_type = 22,
                            .size = 8,
                            .squares = 32,
                            .men_rows = 3,
                            .first = DM_WHITE,
                            .men_capture_back = 0,
                            .flying_kings = 0,
                            .majority = 0,
                            .precedence = DM_PREC_ITALIAN,
                            .promotion = DM_PROMOTE_STOPS,
                            .men_capture_kings = 0,
                            .invert = 1,
                            .numbering = DM_NUMBER_TOP_LEFT,
                            .capture_sep = 'x',
                            .draw = DRAW_ITALIAN},
    /* Killer: international rules plus the killer rule (mindsports.nl killer rules;
     * Scan's killer captures; dctl killer.hpp is_halt_behind_king). No PDN GameType:
     * hcheckers' private 45. Draw rules as FMJD (Scan: repetition only). */
    [DM_VARIANT_KILLER] = {.id = DM_VARIANT_KILLER,
                           .name = "killer",
                           .title = "Killer draughts",
                           .game_type = 45,
                           .size = 10,
                           .squares = 50,
                           .men_rows = 4,
                           .first = DM_WHITE,
                           .men_capture_back = 1,
                           .flying_kings = 1,
                           .majority = 1,
                           .precedence = DM_PREC_COUNT,
                           .promotion = DM_PROMOTE_AT_END,
                           .men_capture_kings = 1,
                           .king_landing = DM_LAND_BEHIND_LAST_KING,
                           .capture_sep = 'x',
                           .draw = DRAW_FMJD},
    /* Breakthrough (lidraughts' GameType 96): international moves; the first side to
     * crown a king wins (lidraughts Breakthrough.scala specialEnd, winner); no draw
     * rules. */
    [DM_VARIANT_BREAKTHROUGH] = {.id = DM_VARIANT_BREAKTHROUGH,
                                 .name = "breakthrough",
                                 .title = "Breakthrough draughts",
                                 .game_type = 96,
                                 .size = 10,
                                 .squares = 50,
                                 .men_rows = 4,
                                 .first = DM_WHITE,
                                 .men_capture_back = 1,
                                 .flying_kings = 1,
                                 .majority = 1,
                                 .precedence = DM_PREC_COUNT,
                                 .promotion = DM_PROMOTE_AT_END,
                                 .men_capture_kings = 1,
                                 .win_on_promotion = 1,
                                 .capture_sep = 'x',
                                 .draw = DRAW_NONE},
    /* Spanish (PDN 24,W,8,8,N1,1): dctl spanish.hpp (after the Portuguese federation's
     * Damas Classicas rules, fpdamas.pt): the board turned, flying kings, men capture
     * forward only, the most pieces then the most kings. Square 1 = h1 (N1). Draw
     * rules not found. */
    [DM_VARIANT_SPANISH] = {.id = DM_VARIANT_SPANISH,
                            .name = "spanish",
                            .title = "Spanish draughts (damas)",
                            .game_type = 24,
                            .size = 8,
                            .squares = 32,
                            .men_rows = 3,
                            .first = DM_WHITE,
                            .men_capture_back = 0,
                            .flying_kings = 1,
                            .majority = 0,
                            .precedence = DM_PREC_SPANISH,
                            .promotion = DM_PROMOTE_STOPS,
                            .men_capture_kings = 1,
                            .invert = 1,
                            .numbering = DM_NUMBER_BOTTOM_RIGHT,
                            .capture_sep = 'x',
                            .draw = DRAW_REPETITION},
    /* Pool / American pool checkers (PDN 23,B,8,8,N1,0): APCA tournament rules
     * (americanpoolcheckers.us; articles as cited by dctl pool.hpp): Black first, men
     * capture backwards [14], flying kings [15], crowned only when the move ends on the
     * far row [16], free choice of capture [20]; numbered as English checkers. */
    [DM_VARIANT_POOL] = {.id = DM_VARIANT_POOL,
                         .name = "pool",
                         .title = "Pool checkers (American pool)",
                         .game_type = 23,
                         .size = 8,
                         .squares = 32,
                         .men_rows = 3,
                         .first = DM_BLACK,
                         .men_capture_back = 1,
                         .flying_kings = 1,
                         .majority = 0,
                         .precedence = DM_PREC_NONE,
                         .promotion = DM_PROMOTE_AT_END,
                         .men_capture_kings = 1,
                         .algebraic_flipped = 1,
                         .capture_sep = 'x',
                         .draw = DRAW_POOL},
    /* Thai (Mak-hot, PDN 31,B,8,8,N2,0): 8 men each on the first two rows
     * (coldmoon.io, checkers.fandom.com; dctl thai.hpp initial_position_gap 4); men
     * forward only; flying kings that land right behind each piece taken, which
     * leaves the board at once, and may go on in any direction (dctl thai.hpp
     * is_land_behind_piece, is_passing_capture); free choice; a man reaching the far
     * row ends the move (mindsports.nl). Conflicts (docs/VARIANTS.md): who moves first
     * (PDN Black, mindsports White) and the numbering, read from PDN: square 1 is the
     * starting player's top left, so White's g1, counted right to left from White's
     * side. Captures written with '-' (PDN). Draw rules not found. */
    [DM_VARIANT_THAI] = {.id = DM_VARIANT_THAI,
                         .name = "thai",
                         .title = "Thai draughts (Mak-hot)",
                         .game_type = 31,
                         .size = 8,
                         .squares = 32,
                         .men_rows = 2,
                         .first = DM_BLACK,
                         .men_capture_back = 0,
                         .flying_kings = 1,
                         .majority = 0,
                         .precedence = DM_PREC_NONE,
                         .promotion = DM_PROMOTE_STOPS,
                         .men_capture_kings = 1,
                         .king_landing = DM_LAND_BEHIND,
                         .numbering = DM_NUMBER_BOTTOM_RIGHT,
                         .capture_sep = '-',
                         .draw = DRAW_REPETITION},
    /* Frisian (PDN GameType 40): the rules of the Frisian federation (friesdammen.nl,
     * as read by dctl frisian.hpp and ../shared/docs/variants.md): 10x10, 20 men each,
     * White first; men and kings capture diagonally AND orthogonally (8 directions;
     * men backwards too); flying kings that move diagonally only; the capture of the
     * highest value is compulsory, a king worth just under two men, and on equal
     * value a capture by a king (DM_PREC_FRISIAN); a man is crowned only when the
     * move ends on the far row; while a side has men the same king may make at most
     * 3 non-capturing moves in a row (king_move_limit, counted in dm_board). */
    [DM_VARIANT_FRISIAN] = {.id = DM_VARIANT_FRISIAN,
                            .name = "frisian",
                            .title = "Frisian draughts",
                            .game_type = 40,
                            .size = 10,
                            .squares = 50,
                            .men_rows = 4,
                            .first = DM_WHITE,
                            .men_capture_back = 1,
                            .flying_kings = 1,
                            .majority = 0,
                            .precedence = DM_PREC_FRISIAN,
                            .promotion = DM_PROMOTE_AT_END,
                            .men_capture_kings = 1,
                            .orthogonal = 1,
                            .king_move_limit = 3,
                            .capture_sep = 'x',
                            .draw = DRAW_FRISIAN},
    /* Frysk! (lidraughts' GameType 97): Frisian rules with 5 men each on the back row
     * (variants.md; the lidraughts exports start from W:W46-50:B1-5). */
    [DM_VARIANT_FRYSK] = {.id = DM_VARIANT_FRYSK,
                          .name = "frysk",
                          .title = "Frysk! (Frisian draughts, 5 men each)",
                          .game_type = 97,
                          .size = 10,
                          .squares = 50,
                          .men_rows = 1,
                          .first = DM_WHITE,
                          .men_capture_back = 1,
                          .flying_kings = 1,
                          .majority = 0,
                          .precedence = DM_PREC_FRISIAN,
                          .promotion = DM_PROMOTE_AT_END,
                          .men_capture_kings = 1,
                          .orthogonal = 1,
                          .king_move_limit = 3,
                          .capture_sep = 'x',
                          .draw = DRAW_FRISIAN},
    /* Portuguese (PDN 28,W,8,8,N1,1): Spanish rules on the dark squares of a board
     * turned so that the bottom-left corner is light, which is the geometry of
     * Spanish in PDN (24,W,8,8,N1,1: the same size, notation and invert flag), so the
     * entry is Spanish's with its own name and number (variants.md: "Spanish rules
     * played on the dark squares"; the Portuguese federation's Damas Classicas rules
     * are the source dctl's spanish.hpp cites). Draw rules not found. */
    [DM_VARIANT_PORTUGUESE] = {.id = DM_VARIANT_PORTUGUESE,
                               .name = "portuguese",
                               .title = "Portuguese draughts (damas)",
                               .game_type = 28,
                               .size = 8,
                               .squares = 32,
                               .men_rows = 3,
                               .first = DM_WHITE,
                               .men_capture_back = 0,
                               .flying_kings = 1,
                               .majority = 0,
                               .precedence = DM_PREC_SPANISH,
                               .promotion = DM_PROMOTE_STOPS,
                               .men_capture_kings = 1,
                               .invert = 1,
                               .numbering = DM_NUMBER_BOTTOM_RIGHT,
                               .capture_sep = 'x',
                               .draw = DRAW_REPETITION},
    /* Turkish draughts (Dama, PDN 30,W,8,8,A0,0): all 64 squares, 16 men each on
     * ranks 2-3 / 6-7 (men_skip_rows 1), White first (en.wikipedia.org Turkish
     * draughts, kish crate docs); men move and capture one square forward or
     * sideways, never back; kings fly along ranks and files; every captured piece
     * leaves the board as it is jumped and a king may not turn back 180 degrees
     * between two jumps (geometry DM_GEOM_FULL: core/genfull.c); the capture of the
     * most pieces is compulsory, a king counting one; a man reaching the last rank
     * in a capture goes on capturing as a man and is crowned when the move ends
     * there (Wikipedia, kish, pydraughts; draughts.github.io says it goes on as a
     * king: conflict, docs/VARIANTS.md). Records algebraic, captures 'x' (PDN). */
    [DM_VARIANT_TURKISH] = {.id = DM_VARIANT_TURKISH,
                            .name = "turkish",
                            .title = "Turkish draughts (Dama)",
                            .game_type = 30,
                            .size = 8,
                            .squares = 64,
                            .men_rows = 2,
                            .first = DM_WHITE,
                            .men_capture_back = 0,
                            .flying_kings = 1,
                            .majority = 1,
                            .precedence = DM_PREC_COUNT,
                            .promotion = DM_PROMOTE_AT_END,
                            .men_capture_kings = 1,
                            .algebraic = 1,
                            .capture_sep = 'x',
                            .draw = DRAW_TURKISH,
                            .geometry = DM_GEOM_FULL,
                            .men_skip_rows = 1},
};

static const char names_text[] =
    "international, brazilian, russian, english, canadian, antidraughts, czech, italian, "
    "killer, breakthrough, spanish, pool, thai, frisian, frysk, portuguese, turkish";

const dm_variant *dm_variant_get(dm_variant_id id)
{
    if ((int)id < 0 || id >= DM_VARIANT_COUNT) {
        return NULL;
    }
    return &variants[id];
}

const char *dm_variant_names(void)
{
    return names_text;
}

static int same_name(const char *a, const char *b)
{
    for (; *a && *b; a++, b++) {
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b)) {
            return 0;
        }
    }
    return *a == *b;
}

dm_status dm_variant_from_name(const dm_variant **out, const char *name, dm_error *err)
{
    if (!out || !name) {
        return dm_error_set(err, DM_EINVAL, 0, 0, "no variant name given");
    }
    for (int i = 0; i < DM_VARIANT_COUNT; i++) {
        if (same_name(name, variants[i].name)) {
            *out = &variants[i];
            return DM_OK;
        }
    }
    return dm_error_set(err, DM_EINVAL, 0, 0, "unknown variant '%.60s' (valid: %s)", name,
                        names_text);
}

dm_status dm_variant_from_gametype(const dm_variant **out, const char *tag, dm_error *err)
{
    if (!out || !tag) {
        return dm_error_set(err, DM_EINVAL, 0, 0, "no GameType given");
    }
    const char *p = tag;
    while (*p == ' ') {
        p++;
    }
    if (!isdigit((unsigned char)*p)) {
        return dm_error_set(err, DM_EPARSE, 1, (int)(p - tag) + 1,
                            "GameType '%.40s' does not start with a number", tag);
    }
    char *end;
    long type = strtol(p, &end, 10);
    long w = 0, h = 0;
    if (*end == ',') {
        /* type,colour,width,height,notation[,invert] */
        const char *q = end + 1;
        if ((*q != 'W' && *q != 'B') || q[1] != ',') {
            return dm_error_set(err, DM_EPARSE, 1, (int)(q - tag) + 1,
                                "GameType '%.40s': expected W or B as start colour", tag);
        }
        w = strtol(q + 2, &end, 10);
        if (*end != ',') {
            return dm_error_set(err, DM_EPARSE, 1, (int)(end - tag) + 1,
                                "GameType '%.40s': expected ',height'", tag);
        }
        h = strtol(end + 1, &end, 10);
        if (*end != ',' || !strchr("ANS", end[1]) || !end[1] || !isdigit((unsigned char)end[2])) {
            return dm_error_set(err, DM_EPARSE, 1, (int)(end - tag) + 1,
                                "GameType '%.40s': expected ',notation' such as N2 or A0", tag);
        }
        end += 3;
        if (*end == ',') {
            end++;
            if (*end != '0' && *end != '1') {
                return dm_error_set(err, DM_EPARSE, 1, (int)(end - tag) + 1,
                                    "GameType '%.40s': invert flag must be 0 or 1", tag);
            }
            end++;
        }
    }
    while (*end == ' ') {
        end++;
    }
    if (*end) {
        return dm_error_set(err, DM_EPARSE, 1, (int)(end - tag) + 1,
                            "GameType '%.40s': unexpected text", tag);
    }
    for (int i = 0; i < DM_VARIANT_COUNT; i++) {
        if (variants[i].game_type == type) {
            if (w && (w != variants[i].size || h != variants[i].size)) {
                return dm_error_set(err, DM_EINVAL, 0, 0,
                                    "GameType '%.40s': %s is played on %dx%d, not %ldx%ld", tag,
                                    variants[i].name, variants[i].size, variants[i].size, w, h);
            }
            *out = &variants[i];
            return DM_OK;
        }
    }
    return dm_error_set(err, DM_EINVAL, 0, 0,
                        "unsupported GameType %ld (supported: 20 international, 21 English, "
                        "22 Italian, 23 pool, 24 Spanish, 25 Russian, 26 Brazilian, "
                        "27 Canadian, 28 Portuguese, 29 Czech, 30 Turkish, 31 Thai, 40 Frisian, "
                        "45 killer, "
                        "96 breakthrough, 97 Frysk!, 98 antidraughts)",
                        type);
}

dm_status dm_variant_draw_rules(dm_draw_rules *out, const char *set_name, dm_error *err)
{
    static const dm_draw_rules *const sets[] = {
        &draw_fmjd,    &draw_russian_source, &draw_russian_pydraughts,
        &draw_english, &draw_anti,           &draw_italian,
        &draw_pool,    &draw_none,           &draw_repetition,
        &draw_frisian, &draw_turkish};
    if (out && set_name) {
        for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++) {
            if (same_name(set_name, sets[i]->name)) {
                *out = *sets[i];
                return DM_OK;
            }
        }
    }
    return dm_error_set(err, DM_EINVAL, 0, 0,
                        "unknown draw-rule set '%.40s' (valid: fmjd, russian-source, "
                        "russian-pydraughts, english, antidraughts, italian, pool, none, "
                        "repetition, frisian, turkish)",
                        set_name ? set_name : "");
}

dm_board_result dm_variant_result(const dm_board *b)
{
    if (b->variant->win_on_promotion) {
        /* Breakthrough: a side with a king has won (lidraughts Breakthrough.scala);
         * with kings on both sides (only a set-up position) the side that moved last. */
        int has[2] = {0, 0};
        for (int sq = 1; sq <= b->variant->squares; sq++) {
            if (b->sq[sq] == DM_WHITE_KING) {
                has[DM_WHITE] = 1;
            } else if (b->sq[sq] == DM_BLACK_KING) {
                has[DM_BLACK] = 1;
            }
        }
        if (has[DM_WHITE] || has[DM_BLACK]) {
            int winner = has[!b->side] ? !b->side : b->side;
            return winner == DM_WHITE ? DM_BOARD_RESULT_WHITE_WINS : DM_BOARD_RESULT_BLACK_WINS;
        }
    }
    dm_movelist list;
    if (dm_movegen_legal(&list, b) > 0) {
        return DM_BOARD_RESULT_NONE;
    }
    /* The side to move cannot move: it loses, or in antidraughts it wins. */
    int winner = b->variant->reversed_result ? b->side : !b->side;
    return winner == DM_WHITE ? DM_BOARD_RESULT_WHITE_WINS : DM_BOARD_RESULT_BLACK_WINS;
}
