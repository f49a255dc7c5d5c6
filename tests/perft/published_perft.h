/* SPDX-License-Identifier: MIT
 * tests/perft/published_perft.h: published perft counts (leaf counts of the legal
 * move tree) for the variants damier plays and for the ones it does not play yet,
 * as plain data, checked by tests/perft/test_published_perft*.c (published_check.h:
 * every DROP row of a variant damier plays); docs/VARIANT_PERFT.md explains every
 * table, the square numbering behind every FEN and how each source's position maps
 * to ours.
 *
 * Conventions
 * - counts[d - 1] = perft(d); perft(0) = 1 is not stored.
 * - dup = DM_PP_DROP: capture paths with the same from, to and captured set are one
 *   move (damier's rule, FMJD); DM_PP_KEEP: every path counted (dctl's
 *   keep_duplicates_gen). A test must count the same way as the row it checks.
 * - fen: damier's FEN grammar (dm_board_from_fen: side, then W and B lists, ranges
 *   and K for kings), numeric squares in the variant's PDN numbering
 *   (docs/VARIANT_PERFT.md, "Square numbering"). "" = the variant's start position.
 * - variant: the command-line name damier uses or is proposed to use
 *   (docs/VARIANT_MECHANICS.md).
 * - Sources: dctl = github.com/rhalbersma/dctl at commit
 *   21869018f9ae0c2551db4eb28c7733632faf4e97 (2024-06-19); kish = the Rust crate
 *   kish (crates.io/crates/kish, docs.rs/kish), its perft module's regression tests.
 *   Counts were transcribed, not recomputed here. */
#ifndef DM_TESTS_PUBLISHED_PERFT_H
#define DM_TESTS_PUBLISHED_PERFT_H

#include <stdint.h>

enum {
    DM_PP_DROP = 0,
    DM_PP_KEEP = 1
};

typedef struct dm_published_perft {
    const char *variant;    /* damier variant name (existing or proposed) */
    const char *name;       /* short name of the position */
    const char *fen;        /* "" = start position of the variant */
    int dup;                /* DM_PP_DROP or DM_PP_KEEP */
    int depths;             /* number of counts */
    const uint64_t *counts; /* counts[d - 1] = perft(d) */
    const char *source;     /* repository, path (commit above) or URL */
} dm_published_perft;

/* ---- variants damier plays ---------------------------------------------------- */

/* dctl test/src/algo/traversal/initial/board_10x10.cpp, case International
 * (drop_duplicates_gen row). Antidraughts and breakthrough share the move rules;
 * see docs/VARIANT_PERFT.md for when the same counts apply to them. */
static const uint64_t dm_pp_international_start_drop[] = {
    UINT64_C(9),        UINT64_C(81),        UINT64_C(658),        UINT64_C(4265),
    UINT64_C(27117),    UINT64_C(167140),    UINT64_C(1049442),    UINT64_C(6483961),
    UINT64_C(41022423), UINT64_C(258895763), UINT64_C(1665861398),
};
/* same file, keep_duplicates_gen row */
static const uint64_t dm_pp_international_start_keep[] = {
    UINT64_C(9),        UINT64_C(81),        UINT64_C(658),        UINT64_C(4265),
    UINT64_C(27117),    UINT64_C(167140),    UINT64_C(1049442),    UINT64_C(6483971),
    UINT64_C(41022614), UINT64_C(258935682), UINT64_C(1666207133), UINT64_C(10752899471),
};
/* dctl test/src/algo/traversal/international/fmjd.cpp, case Random178
 * ("B:BK17,K24:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46" in dctl) */
static const uint64_t dm_pp_international_random178[] = {
    UINT64_C(14),     UINT64_C(55),      UINT64_C(1168),     UINT64_C(5432),       UINT64_C(87195),
    UINT64_C(629010), UINT64_C(9041010), UINT64_C(86724219), UINT64_C(1216917193),
};
/* fmjd.cpp, case Woldouby */
static const uint64_t dm_pp_international_woldouby[] = {
    UINT64_C(6),      UINT64_C(12),      UINT64_C(30),      UINT64_C(73),       UINT64_C(215),
    UINT64_C(590),    UINT64_C(1944),    UINT64_C(6269),    UINT64_C(22369),    UINT64_C(88050),
    UINT64_C(377436), UINT64_C(1910989), UINT64_C(9872645), UINT64_C(58360286), UINT64_C(346184885),
};
/* fmjd.cpp, case AllKings */
static const uint64_t dm_pp_international_all_kings[] = {
    UINT64_C(17),      UINT64_C(79),       UINT64_C(352),       UINT64_C(1399),
    UINT64_C(7062),    UINT64_C(37589),    UINT64_C(217575),    UINT64_C(1333217),
    UINT64_C(8558321), UINT64_C(58381162), UINT64_C(417920283),
};
/* fmjd.cpp, case AlmostPromotion */
static const uint64_t dm_pp_international_almost_promotion[] = {
    UINT64_C(9),        UINT64_C(81),        UINT64_C(795),
    UINT64_C(7578),     UINT64_C(86351),     UINT64_C(936311),
    UINT64_C(11448262), UINT64_C(138362698), UINT64_C(1799526674),
};
/* dctl test/src/algo/traversal/international/shashki.cpp, case FrontRows
 * (keep_duplicates_gen) */
static const uint64_t dm_pp_international_front_rows_keep[] = {
    UINT64_C(9),         UINT64_C(81),        UINT64_C(534),        UINT64_C(2538),
    UINT64_C(9052),      UINT64_C(29999),     UINT64_C(98971),      UINT64_C(310315),
    UINT64_C(1008317),   UINT64_C(3174159),   UINT64_C(10369533),   UINT64_C(34907917),
    UINT64_C(123162301), UINT64_C(462333827), UINT64_C(1824763597),
};

/* dctl test/src/algo/traversal/initial/board_08x08.cpp, case Brazilian (from the
 * shashki.com thread "Standard validation generator moves", start-78) */
static const uint64_t dm_pp_brazilian_start_drop[] = {
    UINT64_C(7),          UINT64_C(49),       UINT64_C(302),       UINT64_C(1469),
    UINT64_C(7473),       UINT64_C(37628),    UINT64_C(187302),    UINT64_C(907830),
    UINT64_C(4431766),    UINT64_C(21560022), UINT64_C(105491257), UINT64_C(511882477),
    UINT64_C(2481546396),
};
static const uint64_t dm_pp_brazilian_start_keep[] = {
    UINT64_C(7),          UINT64_C(49),       UINT64_C(302),       UINT64_C(1469),
    UINT64_C(7473),       UINT64_C(37628),    UINT64_C(187302),    UINT64_C(907836),
    UINT64_C(4431847),    UINT64_C(21566606), UINT64_C(105534946), UINT64_C(512171742),
    UINT64_C(2483592238),
};
/* board_08x08.cpp, case Russian (shashki.com thread, start-126) */
static const uint64_t dm_pp_russian_start_drop[] = {
    UINT64_C(7),          UINT64_C(49),       UINT64_C(302),       UINT64_C(1469),
    UINT64_C(7482),       UINT64_C(37986),    UINT64_C(190146),    UINT64_C(929899),
    UINT64_C(4570586),    UINT64_C(22444032), UINT64_C(110917189), UINT64_C(544770444),
    UINT64_C(2673979569),
};
static const uint64_t dm_pp_russian_start_keep[] = {
    UINT64_C(7),          UINT64_C(49),          UINT64_C(302),       UINT64_C(1469),
    UINT64_C(7482),       UINT64_C(37986),       UINT64_C(190146),    UINT64_C(929905),
    UINT64_C(4570667),    UINT64_C(22450628),    UINT64_C(110961169), UINT64_C(545059387),
    UINT64_C(2675994747), UINT64_C(13138899366),
};
/* board_08x08.cpp, case Checkers (shashki.com thread, start-126) */
static const uint64_t dm_pp_english_start_drop[] = {
    UINT64_C(7),          UINT64_C(49),       UINT64_C(302),      UINT64_C(1469),
    UINT64_C(7361),       UINT64_C(36768),    UINT64_C(179740),   UINT64_C(845931),
    UINT64_C(3963680),    UINT64_C(18391564), UINT64_C(85242128), UINT64_C(388617999),
    UINT64_C(1766564893),
};
static const uint64_t dm_pp_english_start_keep[] = {
    UINT64_C(7),          UINT64_C(49),         UINT64_C(302),      UINT64_C(1469),
    UINT64_C(7361),       UINT64_C(36768),      UINT64_C(179740),   UINT64_C(845931),
    UINT64_C(3963680),    UINT64_C(18391564),   UINT64_C(85242128), UINT64_C(388623673),
    UINT64_C(1766623630), UINT64_C(7978439499),
};
/* dctl test/src/algo/traversal/initial/board_large.cpp, case Board12x12 (damforum.nl
 * "Perft on large boards", viewtopic.php?f=53&t=4563&start=3; drop_duplicates_gen) */
static const uint64_t dm_pp_canadian_start_drop[] = {
    UINT64_C(11),        UINT64_C(121),        UINT64_C(1222),    UINT64_C(10053),
    UINT64_C(79049),     UINT64_C(584100),     UINT64_C(4369366), UINT64_C(31839056),
    UINT64_C(237209258), UINT64_C(1761652936),
};

/* board_10x10.cpp, case Frisian (the laatste.info perft thread, t=2822) */
static const uint64_t dm_pp_frisian_start_drop[] = {
    UINT64_C(9),        UINT64_C(81),       UINT64_C(658),       UINT64_C(3874),
    UINT64_C(21265),    UINT64_C(102431),   UINT64_C(540126),    UINT64_C(2825779),
    UINT64_C(15605069), UINT64_C(85817725), UINT64_C(491186430),
};
static const uint64_t dm_pp_frisian_start_keep[] = {
    UINT64_C(9),        UINT64_C(81),       UINT64_C(658),       UINT64_C(3880),
    UINT64_C(21345),    UINT64_C(103584),   UINT64_C(550314),    UINT64_C(2907905),
    UINT64_C(16204497), UINT64_C(90161025), UINT64_C(521287205),
};
/* ---- variants damier does not play yet ---------------------------------------- */

/* board_10x10.cpp, case Killer: identical to international from the start (no king
 * can be captured within these depths); the rows are the international arrays. */
/* dctl test/src/algo/traversal/killer/letouzey.cpp, case Random178 */
static const uint64_t dm_pp_killer_random178[] = {
    UINT64_C(14),         UINT64_C(55),          UINT64_C(1168),    UINT64_C(5165),
    UINT64_C(84326),      UINT64_C(573965),      UINT64_C(8476150), UINT64_C(78944517),
    UINT64_C(1133545351), UINT64_C(12070611997),
};
/* letouzey.cpp, case Woldouby */
static const uint64_t dm_pp_killer_woldouby[] = {
    UINT64_C(6),           UINT64_C(12),       UINT64_C(30),        UINT64_C(73),
    UINT64_C(215),         UINT64_C(590),      UINT64_C(1944),      UINT64_C(6269),
    UINT64_C(22369),       UINT64_C(88043),    UINT64_C(377339),    UINT64_C(1908829),
    UINT64_C(9850540),     UINT64_C(58116971), UINT64_C(343968214), UINT64_C(2251657424),
    UINT64_C(14783093851),
};
/* board_08x08.cpp, case Pool (shashki.com thread, start-57) */
static const uint64_t dm_pp_pool_start_drop[] = {
    UINT64_C(7),          UINT64_C(49),       UINT64_C(302),       UINT64_C(1469),
    UINT64_C(7482),       UINT64_C(37986),    UINT64_C(190146),    UINT64_C(929896),
    UINT64_C(4570534),    UINT64_C(22435955), UINT64_C(110833952), UINT64_C(544005148),
    UINT64_C(2668385616),
};
static const uint64_t dm_pp_pool_start_keep[] = {
    UINT64_C(7),          UINT64_C(49),       UINT64_C(302),       UINT64_C(1469),
    UINT64_C(7482),       UINT64_C(37986),    UINT64_C(190146),    UINT64_C(929902),
    UINT64_C(4570615),    UINT64_C(22442551), UINT64_C(110877932), UINT64_C(544300084),
    UINT64_C(2670481140),
};
/* board_08x08.cpp, case Czech (damforum.nl "Perft for all recognized draughts
 * variants", viewtopic.php?f=53&t=2822) */
static const uint64_t dm_pp_czech_start_drop[] = {
    UINT64_C(7),          UINT64_C(49),       UINT64_C(302),      UINT64_C(1469),
    UINT64_C(7361),       UINT64_C(36768),    UINT64_C(179740),   UINT64_C(845931),
    UINT64_C(3963671),    UINT64_C(18368918), UINT64_C(84967210), UINT64_C(386262109),
    UINT64_C(1749707352),
};
static const uint64_t dm_pp_czech_start_keep[] = {
    UINT64_C(7),          UINT64_C(49),       UINT64_C(302),      UINT64_C(1469),
    UINT64_C(7361),       UINT64_C(36768),    UINT64_C(179740),   UINT64_C(845931),
    UINT64_C(3963671),    UINT64_C(18368918), UINT64_C(84967210), UINT64_C(386267783),
    UINT64_C(1749766090),
};
/* board_08x08.cpp, case Spanish (same damforum thread; inverted board) */
static const uint64_t dm_pp_spanish_start_drop[] = {
    UINT64_C(7),          UINT64_C(49),       UINT64_C(302),      UINT64_C(1469),
    UINT64_C(7361),       UINT64_C(36473),    UINT64_C(177532),   UINT64_C(828783),
    UINT64_C(3860866),    UINT64_C(17743464), UINT64_C(81383200), UINT64_C(365728331),
    UINT64_C(1637958247),
};
static const uint64_t dm_pp_spanish_start_keep[] = {
    UINT64_C(7),          UINT64_C(49),       UINT64_C(302),      UINT64_C(1469),
    UINT64_C(7361),       UINT64_C(36473),    UINT64_C(177532),   UINT64_C(828783),
    UINT64_C(3860866),    UINT64_C(17743464), UINT64_C(81383200), UINT64_C(365734003),
    UINT64_C(1638016958),
};
/* board_08x08.cpp, case Italian (same damforum thread; inverted board) */
static const uint64_t dm_pp_italian_start_drop[] = {
    UINT64_C(7),          UINT64_C(49),       UINT64_C(302),      UINT64_C(1469),
    UINT64_C(7361),       UINT64_C(36473),    UINT64_C(177532),   UINT64_C(828783),
    UINT64_C(3860875),    UINT64_C(17761384), UINT64_C(81647058), UINT64_C(367911475),
    UINT64_C(1655211086),
};
static const uint64_t dm_pp_italian_start_keep[] = {
    UINT64_C(7),          UINT64_C(49),       UINT64_C(302),      UINT64_C(1469),
    UINT64_C(7361),       UINT64_C(36473),    UINT64_C(177532),   UINT64_C(828783),
    UINT64_C(3860875),    UINT64_C(17761384), UINT64_C(81647058), UINT64_C(367917147),
    UINT64_C(1655269811),
};
/* dctl test/src/algo/traversal/italian/gilbert.cpp, Position1..3 (keep_duplicates_gen;
 * the name says the positions come from Gilbert, no further citation in the file) */
static const uint64_t dm_pp_italian_gilbert1_keep[] = {
    UINT64_C(5),        UINT64_C(13),       UINT64_C(42),        UINT64_C(107),
    UINT64_C(360),      UINT64_C(1099),     UINT64_C(3736),      UINT64_C(12495),
    UINT64_C(43686),    UINT64_C(164177),   UINT64_C(628686),    UINT64_C(2643623),
    UINT64_C(10833722), UINT64_C(49327264), UINT64_C(212130912), UINT64_C(1021757399),
};
static const uint64_t dm_pp_italian_gilbert2_keep[] = {
    UINT64_C(6),        UINT64_C(47),       UINT64_C(271),       UINT64_C(1916),
    UINT64_C(10810),    UINT64_C(73137),    UINT64_C(389809),    UINT64_C(2469050),
    UINT64_C(12803372), UINT64_C(77920042), UINT64_C(396940628), UINT64_C(2365222285),
};
static const uint64_t dm_pp_italian_gilbert3_keep[] = {
    UINT64_C(13),        UINT64_C(112),        UINT64_C(828),        UINT64_C(6756),
    UINT64_C(46241),     UINT64_C(368908),     UINT64_C(2468110),    UINT64_C(19914763),
    UINT64_C(130562037), UINT64_C(1056217651), UINT64_C(6894949061),
};
/* board_08x08.cpp, case Thai: Thai RULES from the 12-men checkers start position
 * (dctl calls initial(2), overriding Thai's own 4-row gap). NOT the Thai start
 * position (8 men each); see docs/VARIANT_PERFT.md. */
static const uint64_t dm_pp_thai_rules_12men_drop[] = {
    UINT64_C(7),          UINT64_C(49),       UINT64_C(302),      UINT64_C(1469),
    UINT64_C(7361),       UINT64_C(36768),    UINT64_C(179740),   UINT64_C(845931),
    UINT64_C(3963648),    UINT64_C(18363523), UINT64_C(84892793), UINT64_C(385713660),
    UINT64_C(1745666630),
};
static const uint64_t dm_pp_thai_rules_12men_keep[] = {
    UINT64_C(7),          UINT64_C(49),       UINT64_C(302),      UINT64_C(1469),
    UINT64_C(7361),       UINT64_C(36768),    UINT64_C(179740),   UINT64_C(845931),
    UINT64_C(3963648),    UINT64_C(18363523), UINT64_C(84892793), UINT64_C(385719334),
    UINT64_C(1745725339),
};
/* kish (Turkish draughts crate, version 1.1.7): the perft module's tests
 * perft_depth_1..8 and examples/perft.rs PERFT_VALUES (depths 1..12) for
 * Board::new_default. kish counts a position without moves as 1 leaf at depth >= 1
 * (standard perft: 0; no such node occurs from the start at these depths) and
 * counts every capture path as a move of its own: KEEP. Checked here: damier's
 * keep-duplicates perft (dm_genfull_vperft_keep) gives these counts exactly, depths
 * 1-8 (10 782 382 and 123 290 300 at 7 and 8); with duplicates dropped, damier's rule,
 * 10 782 308 and 123 285 642 (equal to depth 6). */
static const uint64_t dm_pp_turkish_start[] = {
    UINT64_C(8),          UINT64_C(64),          UINT64_C(708),          UINT64_C(7538),
    UINT64_C(85090),      UINT64_C(931312),      UINT64_C(10782382),     UINT64_C(123290300),
    UINT64_C(1454144462), UINT64_C(16991457316), UINT64_C(204403464784), UINT64_C(2455651059292),
};

#define DM_PP_N(a) ((int)(sizeof(a) / sizeof((a)[0])))
#define DM_PP_DCTL "github.com/rhalbersma/dctl "

/* Every table above, with its position in damier FEN. */
static const dm_published_perft dm_published_perfts[] = {
    {"international", "start", "", DM_PP_DROP, DM_PP_N(dm_pp_international_start_drop),
     dm_pp_international_start_drop, DM_PP_DCTL "test/src/algo/traversal/initial/board_10x10.cpp"},
    {"international", "start", "", DM_PP_KEEP, DM_PP_N(dm_pp_international_start_keep),
     dm_pp_international_start_keep, DM_PP_DCTL "test/src/algo/traversal/initial/board_10x10.cpp"},
    {"international", "random178", "B:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46:BK17,K24",
     DM_PP_DROP, DM_PP_N(dm_pp_international_random178), dm_pp_international_random178,
     DM_PP_DCTL "test/src/algo/traversal/international/fmjd.cpp"},
    {"international", "woldouby", "W:W25,27,28,30,32,33,34,35,37,38:B12,13,14,16,18,19,21,23,24,26",
     DM_PP_DROP, DM_PP_N(dm_pp_international_woldouby), dm_pp_international_woldouby,
     DM_PP_DCTL "test/src/algo/traversal/international/fmjd.cpp"},
    {"international", "all-kings", "W:WK31-50:BK1-20", DM_PP_DROP,
     DM_PP_N(dm_pp_international_all_kings), dm_pp_international_all_kings,
     DM_PP_DCTL "test/src/algo/traversal/international/fmjd.cpp"},
    {"international", "almost-promotion", "W:W6-10:B41-45", DM_PP_DROP,
     DM_PP_N(dm_pp_international_almost_promotion), dm_pp_international_almost_promotion,
     DM_PP_DCTL "test/src/algo/traversal/international/fmjd.cpp"},
    {"international", "front-rows", "W:W31-35:B16-20", DM_PP_KEEP,
     DM_PP_N(dm_pp_international_front_rows_keep), dm_pp_international_front_rows_keep,
     DM_PP_DCTL "test/src/algo/traversal/international/shashki.cpp"},
    {"brazilian", "start", "", DM_PP_DROP, DM_PP_N(dm_pp_brazilian_start_drop),
     dm_pp_brazilian_start_drop, DM_PP_DCTL "test/src/algo/traversal/initial/board_08x08.cpp"},
    {"brazilian", "start", "", DM_PP_KEEP, DM_PP_N(dm_pp_brazilian_start_keep),
     dm_pp_brazilian_start_keep, DM_PP_DCTL "test/src/algo/traversal/initial/board_08x08.cpp"},
    {"russian", "start", "", DM_PP_DROP, DM_PP_N(dm_pp_russian_start_drop),
     dm_pp_russian_start_drop, DM_PP_DCTL "test/src/algo/traversal/initial/board_08x08.cpp"},
    {"russian", "start", "", DM_PP_KEEP, DM_PP_N(dm_pp_russian_start_keep),
     dm_pp_russian_start_keep, DM_PP_DCTL "test/src/algo/traversal/initial/board_08x08.cpp"},
    {"english", "start", "", DM_PP_DROP, DM_PP_N(dm_pp_english_start_drop),
     dm_pp_english_start_drop, DM_PP_DCTL "test/src/algo/traversal/initial/board_08x08.cpp"},
    {"english", "start", "", DM_PP_KEEP, DM_PP_N(dm_pp_english_start_keep),
     dm_pp_english_start_keep, DM_PP_DCTL "test/src/algo/traversal/initial/board_08x08.cpp"},
    {"canadian", "start", "", DM_PP_DROP, DM_PP_N(dm_pp_canadian_start_drop),
     dm_pp_canadian_start_drop, DM_PP_DCTL "test/src/algo/traversal/initial/board_large.cpp"},
    {"frisian", "start", "", DM_PP_DROP, DM_PP_N(dm_pp_frisian_start_drop),
     dm_pp_frisian_start_drop, DM_PP_DCTL "test/src/algo/traversal/initial/board_10x10.cpp"},
    {"frisian", "start", "", DM_PP_KEEP, DM_PP_N(dm_pp_frisian_start_keep),
     dm_pp_frisian_start_keep, DM_PP_DCTL "test/src/algo/traversal/initial/board_10x10.cpp"},
    {"killer", "start", "", DM_PP_DROP, DM_PP_N(dm_pp_international_start_drop),
     dm_pp_international_start_drop, DM_PP_DCTL "test/src/algo/traversal/initial/board_10x10.cpp"},
    {"killer", "start", "", DM_PP_KEEP, DM_PP_N(dm_pp_international_start_keep),
     dm_pp_international_start_keep, DM_PP_DCTL "test/src/algo/traversal/initial/board_10x10.cpp"},
    {"killer", "random178", "B:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46:BK17,K24",
     DM_PP_DROP, DM_PP_N(dm_pp_killer_random178), dm_pp_killer_random178,
     DM_PP_DCTL "test/src/algo/traversal/killer/letouzey.cpp"},
    {"killer", "woldouby", "W:W25,27,28,30,32,33,34,35,37,38:B12,13,14,16,18,19,21,23,24,26",
     DM_PP_DROP, DM_PP_N(dm_pp_killer_woldouby), dm_pp_killer_woldouby,
     DM_PP_DCTL "test/src/algo/traversal/killer/letouzey.cpp"},
    {"pool", "start", "", DM_PP_DROP, DM_PP_N(dm_pp_pool_start_drop), dm_pp_pool_start_drop,
     DM_PP_DCTL "test/src/algo/traversal/initial/board_08x08.cpp"},
    {"pool", "start", "", DM_PP_KEEP, DM_PP_N(dm_pp_pool_start_keep), dm_pp_pool_start_keep,
     DM_PP_DCTL "test/src/algo/traversal/initial/board_08x08.cpp"},
    {"czech", "start", "", DM_PP_DROP, DM_PP_N(dm_pp_czech_start_drop), dm_pp_czech_start_drop,
     DM_PP_DCTL "test/src/algo/traversal/initial/board_08x08.cpp"},
    {"czech", "start", "", DM_PP_KEEP, DM_PP_N(dm_pp_czech_start_keep), dm_pp_czech_start_keep,
     DM_PP_DCTL "test/src/algo/traversal/initial/board_08x08.cpp"},
    {"spanish", "start", "", DM_PP_DROP, DM_PP_N(dm_pp_spanish_start_drop),
     dm_pp_spanish_start_drop, DM_PP_DCTL "test/src/algo/traversal/initial/board_08x08.cpp"},
    {"spanish", "start", "", DM_PP_KEEP, DM_PP_N(dm_pp_spanish_start_keep),
     dm_pp_spanish_start_keep, DM_PP_DCTL "test/src/algo/traversal/initial/board_08x08.cpp"},
    {"italian", "start", "", DM_PP_DROP, DM_PP_N(dm_pp_italian_start_drop),
     dm_pp_italian_start_drop, DM_PP_DCTL "test/src/algo/traversal/initial/board_08x08.cpp"},
    {"italian", "start", "", DM_PP_KEEP, DM_PP_N(dm_pp_italian_start_keep),
     dm_pp_italian_start_keep, DM_PP_DCTL "test/src/algo/traversal/initial/board_08x08.cpp"},
    /* Italian PDN numbering (GameType 22, N2, invert 1): 1 = a8 ... 32 = h1 */
    {"italian", "gilbert-1", "W:W17,18,20,22,23,24,26,27,30:B1,3,5,6,9,11,14,15,16", DM_PP_KEEP,
     DM_PP_N(dm_pp_italian_gilbert1_keep), dm_pp_italian_gilbert1_keep,
     DM_PP_DCTL "test/src/algo/traversal/italian/gilbert.cpp"},
    {"italian", "gilbert-2", "B:W17,20,21,22,30,K6:B1,3,5,9,25,28", DM_PP_KEEP,
     DM_PP_N(dm_pp_italian_gilbert2_keep), dm_pp_italian_gilbert2_keep,
     DM_PP_DCTL "test/src/algo/traversal/italian/gilbert.cpp"},
    {"italian", "gilbert-3", "W:W8,9,17,20,K12,K27,K28:B4,14,21,24,K11,K13,K19", DM_PP_KEEP,
     DM_PP_N(dm_pp_italian_gilbert3_keep), dm_pp_italian_gilbert3_keep,
     DM_PP_DCTL "test/src/algo/traversal/italian/gilbert.cpp"},
    /* Thai rules, 12 men each on the checkers start squares, White to move; in Thai
     * numbering (PDN 31: 1 = White's g1) dctl's W21-32:B1-12 is W1-12:B21-32 */
    {"thai", "12-men-start", "W:W1-12:B21-32", DM_PP_DROP, DM_PP_N(dm_pp_thai_rules_12men_drop),
     dm_pp_thai_rules_12men_drop, DM_PP_DCTL "test/src/algo/traversal/initial/board_08x08.cpp"},
    {"thai", "12-men-start", "W:W1-12:B21-32", DM_PP_KEEP, DM_PP_N(dm_pp_thai_rules_12men_keep),
     dm_pp_thai_rules_12men_keep, DM_PP_DCTL "test/src/algo/traversal/initial/board_08x08.cpp"},
    /* Turkish 64-square numbering: 1 = a8 ... 8 = h8, 9 = a7 ... 64 = h1 */
    {"turkish", "start", "", DM_PP_KEEP, DM_PP_N(dm_pp_turkish_start), dm_pp_turkish_start,
     "crates.io/crates/kish 1.1.7 (src/perft.rs tests perft_depth_1..8, examples/perft.rs)"},
};

#define DM_PUBLISHED_PERFT_COUNT DM_PP_N(dm_published_perfts)

#endif /* DM_TESTS_PUBLISHED_PERFT_H */
