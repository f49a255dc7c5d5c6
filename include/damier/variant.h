/* SPDX-License-Identifier: MIT
 * damier/variant.h: the draughts variants (international, Brazilian, Russian, English
 * checkers, Canadian, antidraughts, Czech, Italian, killer, breakthrough, Spanish,
 * pool, Thai, Frisian, Frysk!, Portuguese, Turkish) from ONE table-driven rules core: a variant
 * description selects move generation, square notation, FEN and the game result.
 *
 * This is the one API for positions and moves (issue 9): dm_board, dm_move,
 * dm_movelist, dm_movegen_legal, dm_perft play every variant, international included,
 * on a mailbox board of up to 12x12 (72 playable squares), which the library converts
 * to the bitboards of the one move generator. The fast 10x10 bitboard (src/core/board10.h,
 * move10.h: dm_board10, dm_move10; not public) is the internal view the engine, the endgame
 * database, the evaluation and the book search on; the international perft of
 * dm_perft equals dm_perft10 (tests/unit/test_variants.c checks it).
 *
 * Square numbering for every size n (n even, 8..12): the n*n/2 dark squares are
 * numbered 1..n*n/2 row by row, left to right, from the top row as seen by White;
 * the bottom-left corner (a1) is a playing square, square 1 is b<n> (the top row's
 * second column). White men start on the last rows*n/2 squares and move towards
 * square 1; Black men start on 1..rows*n/2. Algebraic squares: file a.. from White's
 * left, rank 1 at White's side, except for English checkers where PDN puts the
 * side that moves first (Black) on ranks 1-3 (files and ranks turned round).
 * Turned boards (v->invert: Italian, Spanish; a1 is light) are played mirrored,
 * files a<->h, on the same geometry: the square numbers of dm_board.sq, dm_move
 * and dm_board_piece are those of the mirrored board, and the text functions
 * (dm_square_to_text/parse, FEN, move text) translate to and from the numbers of
 * the variant's records (dm_square_number). For every other variant the two are
 * the same. Turkish (geometry DM_GEOM_FULL) uses all 64 squares, numbered row by
 * row from a8: square = 8 * (8 - rank) + file (a = 1), 1 = a8, 64 = h1; White's men
 * start on 41-56 (ranks 2-3) and move towards square 1. */
#ifndef DM_VARIANT_H
#define DM_VARIANT_H

#include <stddef.h>
#include <stdint.h>

#include <damier/status.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum dm_color {
    DM_WHITE = 0,
    DM_BLACK = 1
} dm_color;

/* What stands on a square. */
typedef enum dm_piece {
    DM_EMPTY = 0,
    DM_WHITE_MAN = 1,
    DM_BLACK_MAN = 2,
    DM_WHITE_KING = 3,
    DM_BLACK_KING = 4
} dm_piece;

/* Notation styles for dm_move_to_text. */
typedef enum dm_notation {
    DM_NOTATION_PDN = 0,  /* short "32-28", "19x28"; full path "28x19x10" only when
                             another legal move shares from and to (PDN 3.0) */
    DM_NOTATION_FULL = 1, /* every capture with its full path "28x19x10" */
    DM_NOTATION_HUB = 2   /* Hub protocol: from, to, then every captured square,
                             ascending: "28x10x19x23"; identifies the move uniquely */
} dm_notation;

/* The variants, in the order of their command-line names. Values are appended. */
typedef enum dm_variant_id {
    DM_VARIANT_INTERNATIONAL = 0,
    DM_VARIANT_BRAZILIAN = 1,
    DM_VARIANT_RUSSIAN = 2,
    DM_VARIANT_ENGLISH = 3,
    DM_VARIANT_CANADIAN = 4,
    DM_VARIANT_ANTIDRAUGHTS = 5,
    DM_VARIANT_CZECH = 6,
    DM_VARIANT_ITALIAN = 7,
    DM_VARIANT_KILLER = 8,
    DM_VARIANT_BREAKTHROUGH = 9,
    DM_VARIANT_SPANISH = 10,
    DM_VARIANT_POOL = 11,
    DM_VARIANT_THAI = 12,
    DM_VARIANT_FRISIAN = 13,
    DM_VARIANT_FRYSK = 14,
    DM_VARIANT_PORTUGUESE = 15,
    DM_VARIANT_TURKISH = 16,
    DM_VARIANT_COUNT = 17
} dm_variant_id;

/* What happens when a man reaches the far row in the middle of a capture. */
typedef enum dm_promotion {
    DM_PROMOTE_AT_END = 0,        /* FMJD 4.15: it goes on capturing as a man and is
                                    crowned only if the move ends on the far row */
    DM_PROMOTE_CONTINUE_KING = 1, /* Russian: crowned at once, goes on capturing as a
                                    (flying) king */
    DM_PROMOTE_STOPS = 2          /* English/Italian: the move ends there, crowned */
} dm_promotion;

/* Capture precedence: which of the captures found are legal. One total order over
 * capture sequences, compared criterion by criterion; the legal captures are the
 * maximal ones (docs/VARIANT_MECHANICS.md, after dctl's rules/ *.hpp). */
typedef enum dm_precedence {
    DM_PREC_NONE = 0,    /* free choice (Russian, English, pool [APCA 20], Thai) */
    DM_PREC_COUNT = 1,   /* the most pieces, a king counts one (FMJD 4.13) */
    DM_PREC_CZECH = 2,   /* a capture by a king if any king can capture, else free
                            choice; no quantity rule (Czech rules 4.14, dctl czech.hpp) */
    DM_PREC_SPANISH = 3, /* the most pieces, then the most kings (dctl spanish.hpp,
                            after the Portuguese federation's Damas Classicas rules) */
    DM_PREC_ITALIAN = 4, /* the most pieces; then by a king; then the most kings; then
                            the kings met earliest (FID rules 6.6-6.9, dctl italian.hpp) */
    DM_PREC_FRISIAN = 5  /* the highest value, a king worth 2N-1 men of N (just under
                            two men: a man counts N = 64, a king 127); on equal value a
                            capture by a king (Frisian rules, friesdammen.nl; dctl
                            frisian.hpp; ../shared/docs/variants.md) */
} dm_precedence;

/* Where a flying king may stop after a capture. */
typedef enum dm_king_landing {
    DM_LAND_ANY = 0,             /* any free square beyond (FMJD 4.3) */
    DM_LAND_BEHIND = 1,          /* Thai: only right behind each piece taken, which
                                     leaves the board at once; the king goes on from
                                     there in any direction, back included (dctl
                                     thai.hpp is_land_behind_piece, is_passing_capture) */
    DM_LAND_BEHIND_LAST_KING = 2 /* killer: any free square, except that a capture
                                     that ENDS after taking a king ends right behind
                                     it (mindsports killer rules; dctl killer.hpp) */
} dm_king_landing;

/* Which squares are played and how pieces step. */
typedef enum dm_geometry {
    DM_GEOM_DIAGONAL = 0, /* the n*n/2 dark squares, a1 dark; diagonal steps (every
                             variant but Turkish) */
    DM_GEOM_FULL = 1      /* all n*n squares (Turkish: 64); men step forward or
                             sideways, kings fly along ranks and files; square
                             s = 8 * (8 - rank) + file (a = 1): 1 = a8, 64 = h1 */
} dm_geometry;

/* How records number the squares (PDN GameType notation digit and invert flag). */
typedef enum dm_numbering {
    DM_NUMBER_TOP_LEFT = 0,    /* square 1 is the first playing square of White's far
                                   row from White's left, then row by row (PDN N2;
                                   English's N1 seen from Black is the same) */
    DM_NUMBER_BOTTOM_RIGHT = 1 /* square 1 is White's bottom-right playing square,
                                   counted right to left, row by row upwards (PDN N1
                                   from White: Spanish) */
} dm_numbering;

/* Draw-rule thresholds, all in moves of each side (a "move" = one ply of each
 * player); 0 means the rule does not exist in this set. Data only: the game layer
 * applies them. */
typedef struct dm_draw_rules {
    const char *name;          /* name of the set, e.g. "fmjd", "russian-source" */
    int repetition;            /* n-fold repetition, same side to move (3) */
    int kings_only_moves;      /* only king moves, no capture (FMJD 25) */
    int no_capture_moves;      /* no capture at all (Russian source material: 30) */
    int no_progress_moves;     /* no man move and no capture (English: 40) */
    int three_vs_king_moves;   /* 3 pieces incl. >= 1 king vs a lone king (FMJD 16) */
    int three_kings_only;      /* 1: the 3-vs-1 rule needs three KINGS (Russian: 18) */
    int two_vs_king_moves;     /* 2 or fewer pieces incl. a king vs a lone king (FMJD 5) */
    int long_diagonal_moves;   /* 3 pieces vs a king holding the long diagonal (5) */
    int equal_kings_4_5_moves; /* equal kings, 4-5 pieces each (pydraughts Russian 30) */
    int equal_kings_6_7_moves; /* equal kings, 6-7 pieces each (pydraughts Russian 60) */
    int two_kings_only;        /* 1: the 2-vs-1 rule needs two KINGS (Frisian FR 18: 7) */
    int king_vs_king_moves;    /* a lone king against a lone king (Frisian FR 21.1: drawn
                                  unless a capture is forced; lidraughts and pydraughts
                                  play 2 more moves each, as here) */
    int promotion_continues;   /* 1: a promotion inside a material configuration does not
                                  restart its count (dm_game_rules.promotion_restarts = 0);
                                  0 (every set here): it restarts, as a capture does */
} dm_draw_rules;

/* A variant description. Every field is read by the generic core; the set is
 * fixed (dm_variant_get), callers never build their own. */
typedef struct dm_variant {
    dm_variant_id id;
    const char *name;             /* command-line name: "international", "russian", ... */
    const char *title;            /* human name: "Russian draughts (shashki)" */
    int game_type;                /* PDN GameType number (20, 26, 25, 21, 27; lidraughts 98) */
    int size;                     /* the board is size x size; 8, 10 or 12 */
    int squares;                  /* playable squares = size * size / 2 (32, 50, 72) */
    int men_rows;                 /* rows of men per side at the start (3, 4, 5) */
    dm_color first;               /* side that moves first (Black in English checkers) */
    int men_capture_back;         /* 1: men capture backwards too (FMJD 4.2) */
    int flying_kings;             /* 1: kings move and capture along whole diagonals */
    int majority;                 /* 1: the capture taking most pieces is compulsory
                                (FMJD 4.13, a king counts one); 0: free choice */
    dm_promotion promotion;       /* a man reaching the far row during a capture */
    int men_capture_kings;        /* 1 here; 0 would be the Italian rule */
    int reversed_result;          /* 1: antidraughts: the side that cannot move WINS */
    dm_precedence precedence;     /* capture precedence; majority == (precedence == COUNT) */
    dm_king_landing king_landing; /* where a flying king stops (killer, Thai) */
    int win_on_promotion;         /* 1: breakthrough: the first side to crown a king wins; a
                                position with a king has no moves */
    int invert;                   /* 1: the board is turned, a1 is light (PDN invert flag:
                                Italian, Spanish). The core plays it mirrored (files
                                a<->h) on the usual geometry; only square names and
                                numbers translate (dm_square_number) */
    dm_numbering numbering;       /* how records number the squares */
    int orthogonal;               /* 1: men and kings capture orthogonally too, along rows and
                                files of the playing squares (Frisian: 8 directions; a man
                                jumps the next playing square of its row or file, two
                                files or rows away, a king flies); ordinary moves stay
                                diagonal */
    int king_move_limit;          /* Frisian: while a side has men, the same king may make at
                                most this many non-capturing moves in a row (3); 0: no
                                limit. Counted in dm_board (king_sq, king_moves) */
    int algebraic;                /* 1: records use algebraic squares (Russian, Brazilian) */
    int algebraic_flipped;        /* 1: algebraic with the first mover (Black) on rank 1 */
    char capture_sep;             /* separator written in captures: 'x' or ':' (Russian) */
    dm_draw_rules draw;           /* default draw rules (../shared/docs/variants.md) */
    dm_geometry geometry;         /* DM_GEOM_FULL: Turkish (squares = size * size, moves and
                                captures orthogonal, captured pieces leave the board as
                                they are jumped, a king never turns back 180 degrees
                                between two jumps); DIAGONAL elsewhere */
    int men_skip_rows;            /* empty rows behind the men at the start (Turkish 1:
                                men on ranks 2-3 and 6-7); 0 elsewhere */
} dm_variant;

/* The description of a variant; NULL for an id out of range. Borrowed, static. */
DM_API const dm_variant *dm_variant_get(dm_variant_id id);

/* Look a variant up by its command-line name (case-insensitive). On failure
 * DM_EINVAL and err lists the valid names. */
DM_API dm_status dm_variant_from_name(const dm_variant **out, const char *name, dm_error *err);

/* Look a variant up by a PDN GameType tag value: "25" or the full form
 * "25,W,8,8,A0,0" (only the number selects; a full form whose size contradicts the
 * variant is an error). 20 international, 21 English, 22 Italian, 23 pool, 24
 * Spanish, 25 Russian, 26 Brazilian, 27 Canadian, 29 Czech, 31 Thai, 45 killer
 * (hcheckers' number), 28 Portuguese, 30 Turkish, 40 Frisian, 96 breakthrough, 97 Frysk!, 98 antidraughts
 * (lidraughts' private numbers). Others: DM_EINVAL
 * ("unsupported GameType"), malformed text: DM_EPARSE. */
DM_API dm_status dm_variant_from_gametype(const dm_variant **out, const char *tag, dm_error *err);

/* The valid variant names separated by ", " (static text). */
DM_API const char *dm_variant_names(void);

/* A named draw-rule set: "fmjd", "russian-source" (the project's source material:
 * 3-fold, 30 moves without capture, 3 kings vs king 18 moves), "russian-pydraughts"
 * (the pydraughts set), "english" (3-fold, 40 moves), "antidraughts" (3-fold only).
 * DM_EINVAL for an unknown name. */
DM_API dm_status dm_variant_draw_rules(dm_draw_rules *out, const char *set_name, dm_error *err);

/* ---- generic board ------------------------------------------------------------ */

/* Most playable squares of any supported board (12x12; Turkish has 64). */
#define DM_MAX_SQUARES 72

/* A position of any variant: a mailbox of dm_piece values indexed by square
 * number 1..variant->squares (index 0 unused). Transparent value type. */
typedef struct dm_board {
    const dm_variant *variant;      /* borrowed, static */
    uint8_t sq[DM_MAX_SQUARES + 1]; /* dm_piece per square; [0] unused, always 0 */
    int side;                       /* dm_color to move */
    /* Variants with a king-move limit (Frisian, variant->king_move_limit): per colour,
     * the square of the king that made that side's last moves and how many
     * non-capturing moves in a row it made (0 after a man move or a capture);
     * dm_board_apply keeps them, dm_movegen_legal reads them. A FEN does not carry
     * them (read as 0). Always 0 in the other variants. */
    uint8_t king_sq[2];
    uint8_t king_moves[2];
} dm_board;

/* An empty board of variant v, v->first to move. */
DM_API void dm_board_clear(dm_board *out, const dm_variant *v);

/* The start position of variant v (men on their men_rows, v->first to move). */
DM_API void dm_board_start(dm_board *out, const dm_variant *v);

/* Piece on square sq; DM_EMPTY out of range. */
DM_API dm_piece dm_board_piece(const dm_board *b, int sq);

/* Put a piece (DM_EMPTY clears). DM_EINVAL for a bad square or piece. */
DM_API dm_status dm_board_put(dm_board *b, int sq, dm_piece piece);

/* A handicap game (the rules' game forms: the stronger side gives men): remove n men
 * (1..15) of side c, row by row from c's own edge, each row left to right as White sees
 * it (international: 46..50, 41..45, ... for White; 5..1, 10..6, ... for Black). The
 * rules fix no squares; this is damier's convention (`damier play --handicap`, the web
 * board). DM_EINVAL, b unchanged, for a bad n or colour or when c has fewer than n men. */
DM_API dm_status dm_board_handicap(dm_board *b, dm_color c, int n);

/* Invariants: no man on its own promotion row. DM_EINVAL with a reason. */
DM_API dm_status dm_board_validate(const dm_board *b, dm_error *err);

/* A 64-bit hash of b (pieces, side to move and variant) for repetition history (the
 * engine's dm_search_input.history). Pure: the same position always gives the same
 * value; an international position gives the Zobrist hash of the library's internal
 * 10x10 bitboard, so the engine searches it on the international board. */
DM_API uint64_t dm_board_hash(const dm_board *b);

/* Square sq of variant v as text: numeric "17" or algebraic "c3" (algebraic != 0).
 * snprintf-style; 4 bytes suffice. */
DM_API size_t dm_square_to_text(char *buf, size_t cap, const dm_variant *v, int sq, int algebraic);

/* The number records give square sq of variant v (1..squares): sq itself except on
 * turned boards or numberings from the bottom (Italian square 1 = a8 is the
 * mirrored board's square 4; Spanish square 1 = h1 is its 29). And back: the
 * square of record number n; 0 when out of range for either. */
DM_API int dm_square_number(const dm_variant *v, int sq);
DM_API int dm_square_from_number(const dm_variant *v, int n);

/* Read one square at text (numeric with optional leading zeros, or algebraic
 * "a1".."l12" where the letter selects algebraic). Returns the square 1..squares and
 * sets *len to the characters used; 0 when the text is no square of v. */
DM_API int dm_square_parse(const dm_variant *v, const char *text, int *len);

/* FEN for variant v: the PDN FEN grammar (PDN 3.0; docs/PDN.md) with numeric squares,
 * ranges "a-b", or algebraic squares ("W:Wa1,c1,Kd4:Bb8"); lidraughts' ":H<n>" and
 * ":F<n>" counters are accepted and ignored. Validated; on error *out is untouched
 * and err->column points at the bad character. */
DM_API dm_status dm_board_from_fen(dm_board *out, const dm_variant *v, const char *fen,
                                   dm_error *err);

/* Write b as FEN, numeric (with ranges) or algebraic squares. snprintf-style;
 * 512 bytes always suffice. */
DM_API size_t dm_board_to_fen(char *buf, size_t cap, const dm_board *b, int algebraic);

/* ---- generic moves ------------------------------------------------------------ */

/* Most pieces one capture can take (the interior squares of 12x12). */
#define DM_MAX_CAPT 50
/* Size of a generic move list; more legal moves than this sets overflow. */
#define DM_MAX_MOVES 320

/* A move of any variant: from, to, captured set, promotion (24 bytes). Two capture
 * paths with the same from, to, captured set and promotion are ONE move (the first
 * path found is kept); the path itself is not stored: dm_move_path gives it. */
typedef struct dm_move {
    uint64_t capt[2]; /* captured squares: bit (sq-1) of capt[(sq-1)/64]... */
    uint8_t from;     /* square the piece starts on */
    uint8_t to;       /* square it ends on (== from for a king's round trip) */
    uint8_t ncapt;    /* pieces captured, 0 for an ordinary move */
    uint8_t promote;  /* 1: a man becomes a king with this move */
} dm_move;

typedef struct dm_movelist {
    int count;    /* moves in moves[] */
    int overflow; /* 1 when more legal moves existed than fit */
    dm_move moves[DM_MAX_MOVES];
} dm_movelist;

/* Every legal move of b under b->variant's rules: capture compulsory (all
 * variants), majority rule or free choice, men backwards or not, flying kings or
 * not, promotion during a capture per v->promotion; captured pieces stay on the
 * board until the move ends and cannot be jumped twice (Turkish strike), except on
 * the full board (Turkish: orthogonal moves, each piece removed as it is jumped, no
 * 180-degree turn of a king between two jumps); the start
 * square counts as empty during the capture; Frisian's king-move limit (FR 17: while
 * the side has men, the king on b->king_sq may not make another non-capturing move
 * after king_move_limit of them in a row). Returns list->count. */
DM_API int dm_movegen_legal(dm_movelist *list, const dm_board *b);

/* The PDN 3.0 intermediate squares of m, a legal move of b (PDN 3.0 movetext, a
 * capture's full path "28x19x10"): after each capture but the last, the square where
 * the piece turned, or, going on straight, the square directly behind the piece
 * captured; the path of the first capture sequence the generator finds for m's from,
 * to and captured set (dm_move_same), the one dm_movegen_legal keeps. Writes the
 * squares (1..b->variant->squares, in order) to sq[0..] and returns how many:
 * m->ncapt - 1 for a capture, 0 for an ordinary move or a capture of one piece.
 * Errors: DM_EINVAL for a NULL argument (sq may be NULL when cap is 0), DM_EILLEGAL
 * when m is no legal move of b, DM_EBUFS when cap is smaller than the count
 * (DM_MAX_CAPT always suffices; nothing is written then). Generates b's legal moves:
 * call it for notation, not in a search. */
DM_API int dm_move_path(uint8_t *sq, int cap, const dm_board *b, const dm_move *m);

/* True when square sq is captured by m. */
DM_API int dm_move_captures(const dm_move *m, int sq);

/* True when a and b are the same move of one position: the same from and to squares
 * and the same captured set (the generator keeps one move per such triple; the path
 * of a capture is not compared). */
DM_API int dm_move_same(const dm_move *a, const dm_move *b);

/* Play m (a legal move of b) on b and pass the turn; keeps the king-move counters
 * (b->king_sq, b->king_moves) of variants with a king-move limit. Undo by keeping a
 * copy. */
DM_API void dm_board_apply(dm_board *b, const dm_move *m);

/* Leaf count of the legal move tree (perft(0) = 1), bulk counting at the last ply.
 * With a king-move limit, the plies where the limit can bind are walked move by move
 * (the rest on bitboards). */
DM_API uint64_t dm_perft(const dm_board *b, int depth);

/* Outcome when the game ends because the side to move has no legal move (no
 * pieces, or all blocked). */
typedef enum dm_board_result {
    DM_BOARD_RESULT_NONE = 0, /* the side to move has a legal move: not decided here */
    DM_BOARD_RESULT_WHITE_WINS = 1,
    DM_BOARD_RESULT_BLACK_WINS = 2
} dm_board_result;

/* The result of b by the no-move rule: normally the side that cannot move loses;
 * with v->reversed_result (antidraughts) it wins. */
DM_API dm_board_result dm_variant_result(const dm_board *b);

/* Which draw rule of d ends a game of any variant at its last position. */
typedef enum dm_draw_kind {
    DM_DRAW_NONE = 0,
    DM_DRAW_REPETITION = 1,    /* d->repetition-fold, same side to move */
    DM_DRAW_NO_PROGRESS = 2,   /* kings_only_moves / no_progress_moves: no man move and
                                   no capture (FMJD 25, English 40, pool 15) */
    DM_DRAW_NO_CAPTURE = 3,    /* no_capture_moves (Russian source material: 30) */
    DM_DRAW_THREE_VS_KING = 4, /* three pieces with a king (three kings) vs a lone king */
    DM_DRAW_TWO_VS_KING = 5,   /* two pieces or fewer with a king (two kings) vs a lone king */
    DM_DRAW_KING_VS_KING = 6   /* a lone king against a lone king (Frisian) */
} dm_draw_kind;

/* The draw rule of d (normally &variant->draw) that ends the game whose positions
 * are pos[0..n] (the start, then the position after each move) and moves
 * moves[0..n-1] (moves[i] played in pos[i]) at its last position pos[n], or
 * DM_DRAW_NONE; why (may be NULL, snprintf-style) gets the reason as text, e.g.
 * "threefold repetition", "25-move rule", "30 moves without capture", "16-move rule
 * (three pieces against a lone king)". Checked in this order: repetition, the
 * material rule, no progress, no capture. Counting (moves of each side = 2 plies;
 * pos[0] has no past): the counters of src/core/drawrule.h, the one implementation
 * of the counting rules, which the game layer (dm_game_result) and both engines' searches
 * apply too: a material rule's count restarts after the capture, promotion (unless
 * d->promotion_continues) or change of kind that made its configuration. */
DM_API dm_draw_kind dm_variant_draw(const dm_draw_rules *d, const dm_board *pos,
                                    const dm_move *moves, int n, char *why, size_t cap);

/* The counters of the draw rules at the end of a game (what an engine needs to apply
 * them in its search: dm_search_input.draw_count). */
typedef struct dm_draw_count {
    int reversible_plies; /* plies since the last man move or capture */
    int no_capture_plies; /* plies since the last capture */
    int material_plies;   /* plies since the current material configuration of d arose
                             (its count), -1 when the position is in none */
} dm_draw_count;

/* The counters of d at pos[n] of the game pos[0..n], moves[0..n-1] (as
 * dm_variant_draw). Bad arguments (NULL, n < 0) give the counters of a start: 0, 0
 * and 0 or -1. */
DM_API void dm_variant_draw_count(dm_draw_count *out, const dm_draw_rules *d, const dm_board *pos,
                                  const dm_move *moves, int n);

/* The counters of d after m (a legal move of before) from c, those of before (one
 * step of dm_variant_draw_count, for a caller that keeps no game). out may equal c;
 * NULL arguments leave out untouched. */
DM_API void dm_variant_draw_step(dm_draw_count *out, const dm_draw_count *c, const dm_draw_rules *d,
                                 const dm_board *before, const dm_move *m);

/* The draw rule of d that ends the game at b, a position with the draw counters c
 * (dm_variant_draw_count, dm_variant_draw_step) that has occurred `repetitions` times
 * in the game (this one included, same side to move: 1 = first), or DM_DRAW_NONE:
 * dm_variant_draw's verdict and text (why, may be NULL) for a caller that keeps its own
 * history (a game, an engine's root moves). The material count c->material_plies is
 * read only when b is in one of d's material configurations. */
DM_API dm_draw_kind dm_variant_draw_judge(const dm_draw_rules *d, const dm_board *b,
                                          const dm_draw_count *c, int repetitions, char *why,
                                          size_t cap);

/* Square style for text: the variant's own (algebraic for Russian and Brazilian,
 * numeric for the others), or forced. */
typedef enum dm_square_style {
    DM_SQUARES_DEFAULT = 0,
    DM_SQUARES_NUMERIC = 1,
    DM_SQUARES_ALGEBRAIC = 2
} dm_square_style;

/* Write m (a legal move of b) as text: DM_NOTATION_PDN short "c3-d4", "d4:b6"
 * (full path only when another legal move shares from and to), DM_NOTATION_FULL
 * (every capture with its path), DM_NOTATION_HUB (from, to, captured squares in
 * ascending order, 'x'). Captures use v->capture_sep except in Hub form.
 * snprintf-style; 400 bytes suffice. */
DM_API size_t dm_move_to_text(char *buf, size_t cap, const dm_board *b, const dm_move *m,
                              dm_notation style, dm_square_style squares);

/* Read a move (numeric or algebraic squares, separators '-', 'x', ':', UTF-8 '×'
 * or none between algebraic squares "a3b4", full paths (or from and to with some of
 * the path's landing squares, in order: "f8:f4:b4"), Hub captured squares,
 * leading zeros, strength marks) and resolve it to one legal move of b:
 * DM_EPARSE malformed (with column), DM_EILLEGAL (capture
 * compulsory / majority rule / not legal, said in the message), DM_EAMBIGUOUS
 * (candidates listed). Text that is the whole path of exactly one legal move names it
 * even when it is also the from and to of others: without the majority rule (Russian)
 * "f8:b4" is a capture of one piece, a longer capture from f8 to b4 being written with
 * its path, as dm_move_to_text writes it. */
DM_API dm_status dm_move_parse(dm_move *out, const dm_board *b, const char *text, dm_error *err);

#ifdef __cplusplus
}
#endif
#endif /* DM_VARIANT_H */
