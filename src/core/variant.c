/* SPDX-License-Identifier: MIT
 * core/variant.c: the variant descriptions (data), lookup by name and PDN GameType,
 * draw-rule sets, and the no-move result. Sources of each rule:
 * ../shared/docs/variants.md (rules table) and pdn-fen.md (GameType table). */
#include <damier/variant.h>

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* Draw-rule sets, thresholds in moves of each side; 0 = no such rule. Macros, so the
 * variant table can be initialised with them (C wants constant expressions there). */
#define DRAW_FMJD {\
    .name = "fmjd", .repetition = 3, .kings_only_moves = 25, .three_vs_king_moves = 16,\
    .two_vs_king_moves = 5}
static const dm_draw_rules draw_fmjd = DRAW_FMJD;
/* The project's source material for Russian draughts (variants.md): 3-fold, 30
 * moves without capture, three kings vs a lone king 18 moves. */
#define DRAW_RUSSIAN_SOURCE {\
    .name = "russian-source", .repetition = 3, .no_capture_moves = 30,\
    .three_vs_king_moves = 18, .three_kings_only = 1}
static const dm_draw_rules draw_russian_source = DRAW_RUSSIAN_SOURCE;
/* pydraughts' Russian set (variants.md table, not checked against the Russian code). */
#define DRAW_RUSSIAN_PYDRAUGHTS {\
    .name = "russian-pydraughts", .repetition = 3, .kings_only_moves = 15,\
    .three_vs_king_moves = 15, .three_kings_only = 1, .two_vs_king_moves = 5,\
    .long_diagonal_moves = 5, .equal_kings_4_5_moves = 30, .equal_kings_6_7_moves = 60}
static const dm_draw_rules draw_russian_pydraughts = DRAW_RUSSIAN_PYDRAUGHTS;
#define DRAW_ENGLISH {\
    .name = "english", .repetition = 3, .no_progress_moves = 40}
static const dm_draw_rules draw_english = DRAW_ENGLISH;
#define DRAW_ANTI {.name = "antidraughts", .repetition = 3}
static const dm_draw_rules draw_anti = DRAW_ANTI;

static const dm_variant variants[DM_VARIANT_COUNT] = {
    [DM_VARIANT_INTERNATIONAL] = {
        .id = DM_VARIANT_INTERNATIONAL, .name = "international",
        .title = "International draughts (FMJD)", .game_type = 20, .size = 10, .squares = 50,
        .men_rows = 4, .first = DM_WHITE, .men_capture_back = 1, .flying_kings = 1,
        .majority = 1, .promotion = DM_PROMOTE_AT_END, .men_capture_kings = 1,
        .capture_sep = 'x', .draw = DRAW_FMJD},
    /* Brazilian: international rules on 8x8; official CBJD draw text not found, the
     * FMJD thresholds are the default (variants.md: unverified). */
    [DM_VARIANT_BRAZILIAN] = {
        .id = DM_VARIANT_BRAZILIAN, .name = "brazilian", .title = "Brazilian draughts",
        .game_type = 26, .size = 8, .squares = 32, .men_rows = 3, .first = DM_WHITE,
        .men_capture_back = 1, .flying_kings = 1, .majority = 1,
        .promotion = DM_PROMOTE_AT_END, .men_capture_kings = 1, .algebraic = 1,
        .capture_sep = 'x', .draw = DRAW_FMJD},
    [DM_VARIANT_RUSSIAN] = {
        .id = DM_VARIANT_RUSSIAN, .name = "russian", .title = "Russian draughts (shashki)",
        .game_type = 25, .size = 8, .squares = 32, .men_rows = 3, .first = DM_WHITE,
        .men_capture_back = 1, .flying_kings = 1, .majority = 0,
        .promotion = DM_PROMOTE_CONTINUE_KING, .men_capture_kings = 1, .algebraic = 1,
        .capture_sep = ':', .draw = DRAW_RUSSIAN_SOURCE},
    [DM_VARIANT_ENGLISH] = {
        .id = DM_VARIANT_ENGLISH, .name = "english",
        .title = "English draughts / American checkers", .game_type = 21, .size = 8,
        .squares = 32, .men_rows = 3, .first = DM_BLACK, .men_capture_back = 0,
        .flying_kings = 0, .majority = 0, .promotion = DM_PROMOTE_STOPS,
        .men_capture_kings = 1, .algebraic_flipped = 1, .capture_sep = 'x',
        .draw = DRAW_ENGLISH},
    /* Canadian: international rules on 12x12; draw rules assumed as FMJD. */
    [DM_VARIANT_CANADIAN] = {
        .id = DM_VARIANT_CANADIAN, .name = "canadian", .title = "Canadian draughts (12x12)",
        .game_type = 27, .size = 12, .squares = 72, .men_rows = 5, .first = DM_WHITE,
        .men_capture_back = 1, .flying_kings = 1, .majority = 1,
        .promotion = DM_PROMOTE_AT_END, .men_capture_kings = 1, .capture_sep = 'x',
        .draw = DRAW_FMJD},
    [DM_VARIANT_ANTIDRAUGHTS] = {
        .id = DM_VARIANT_ANTIDRAUGHTS, .name = "antidraughts",
        .title = "Antidraughts (losing draughts)", .game_type = 98, .size = 10,
        .squares = 50, .men_rows = 4, .first = DM_WHITE, .men_capture_back = 1,
        .flying_kings = 1, .majority = 1, .promotion = DM_PROMOTE_AT_END,
        .men_capture_kings = 1, .reversed_result = 1, .capture_sep = 'x',
        .draw = DRAW_ANTI},
};

static const char names_text[] =
    "international, brazilian, russian, english, canadian, antidraughts";

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
                        "25 Russian, 26 Brazilian, 27 Canadian, 98 antidraughts)",
                        type);
}

dm_status dm_variant_draw_rules(dm_draw_rules *out, const char *set_name, dm_error *err)
{
    static const dm_draw_rules *const sets[] = {&draw_fmjd, &draw_russian_source,
                                                &draw_russian_pydraughts, &draw_english,
                                                &draw_anti};
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
                        "russian-pydraughts, english, antidraughts)",
                        set_name ? set_name : "");
}

dm_vresult dm_variant_result(const dm_vboard *b)
{
    dm_vmovelist list;
    if (dm_vmovegen_legal(&list, b) > 0) {
        return DM_VRESULT_NONE;
    }
    /* The side to move cannot move: it loses, or in antidraughts it wins. */
    int winner = b->variant->reversed_result ? b->side : !b->side;
    return winner == DM_WHITE ? DM_VRESULT_WHITE_WINS : DM_VRESULT_BLACK_WINS;
}
