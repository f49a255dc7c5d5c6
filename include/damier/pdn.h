/* SPDX-License-Identifier: MIT
 * damier/pdn.h: PDN 3.0 game records (Portable Draughts Notation): reading many games
 * from a buffer, replaying them under their variant's rules (international draughts with
 * the fast FMJD core, the other variants of variant.h with the generic core), writing
 * normalised PDN.
 * The record of a played game: a dm_game to PDN and back (dm_pdn_from_game,
 * dm_pdn_to_game), so that no front end builds movetext nodes itself.
 * Memory in, memory out: nothing here opens files or prints. */
#ifndef DM_PDN_H
#define DM_PDN_H

#include <stddef.h>

#include <damier/clock.h>
#include <damier/game.h>
#include <damier/status.h>
#include <damier/variant.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- the game record ---------------------------------------------------------
 *
 * A game is its tag pairs (in file order, unknown tags kept) and a movetext tree:
 *
 *   dm_pdn_game.main : dm_pdn_line      the mainline
 *     .nodes[i]      : dm_pdn_node      a move (or an unknown move, or a setup command)
 *        .variations[j] : dm_pdn_line   alternatives to nodes[i], played from the
 *                                       position before nodes[i]; nested freely
 *
 * Comments are attached where they stand: `before` a node (first thing in a line, or
 * after a variation), `after` a node (directly after it, before its variations), or
 * at the `end` of a line. Comment text is stored with its runs of white space
 * (newlines included) collapsed to one space and trimmed; `;` comments are stored like
 * `{}` comments. All strings are UTF-8 (Latin-1 input is converted) and NUL-terminated;
 * every string and array is a separate malloc'd block that belongs to the game and is
 * freed by dm_pdn_game_free (a program building a game allocates them the same way). */

/* One tag pair, e.g. name "White", value "Sijbrands, T." (escapes \" and \\ removed). */
typedef struct dm_pdn_tag {
    char *name;
    char *value;
} dm_pdn_tag;

typedef enum dm_pdn_node_kind {
    DM_PDN_NODE_MOVE = 0,    /* a move, text as written ("32-28", "1- 6", "06x17", "c3-d4") */
    DM_PDN_NODE_UNKNOWN = 1, /* "..." or "-"/"--" written in place of a move */
    DM_PDN_NODE_SETUP = 2    /* setup command /FEN "..."/: text holds the FEN */
} dm_pdn_node_kind;

typedef struct dm_pdn_line dm_pdn_line;

/* A node of the movetext. */
typedef struct dm_pdn_node {
    int kind;         /* dm_pdn_node_kind */
    char *text;       /* move as written without its strength mark; never NULL */
    char *mark;       /* strength mark as written ("!", "?!", "(?)", "*"), or NULL */
    int number;       /* move number written before this node ("12." or "12..."), 0 = none */
    int number_black; /* 1 when the number was written "N..." (or "N. ...") */
    int *nags;        /* NAG values ($n), nnags of them */
    int nnags;
    char **before; /* comments before the node, nbefore of them */
    int nbefore;
    char **after; /* comments after the node (before its variations) */
    int nafter;
    dm_pdn_line *variations; /* alternatives to this node, nvariations of them */
    int nvariations;
    int line;   /* where the node's text starts in the input (1-based) */
    int column; /* 1-based byte column */
} dm_pdn_node;

/* A sequence of nodes: the mainline or one variation. */
struct dm_pdn_line {
    dm_pdn_node *nodes;
    int nnodes;
    char **end; /* comments after the last node (or in an empty line) */
    int nend;
};

/* A game as read (or as built by a program before writing). */
typedef struct dm_pdn_game {
    dm_pdn_tag *tags; /* in input order, ntags of them */
    int ntags;
    dm_pdn_line main; /* the movetext */
    char *result;     /* the result token that ended the movetext ("2-0", "*", ...),
                             or NULL when the game had none */
    char **notes;     /* things the reader tolerated or skipped, for the user
                             ("tag values read as Latin-1", ...), nnotes of them */
    int nnotes;
    int number; /* 1-based index of the game in its input (unreadable ones count) */
    int line;   /* line where the game starts in the input */
} dm_pdn_game;

/* A new, empty game (no tags, no nodes) for programs that build records.
 * *out belongs to the caller (dm_pdn_game_free). DM_ENOMEM, DM_EINVAL. */
DM_API dm_status dm_pdn_game_new(dm_pdn_game **out);

/* Free a game and everything it holds; NULL is fine. */
DM_API void dm_pdn_game_free(dm_pdn_game *g);

/* Value of the first tag called name (compared case-insensitively, so "SetUp" finds
 * "Setup"), or NULL. Borrowed from g. */
DM_API const char *dm_pdn_game_tag(const dm_pdn_game *g, const char *name);

/* Set tag name to value (replacing the first tag of that name, else appending).
 * Copies both strings. DM_EINVAL for a name that is empty or has characters other than
 * letters, digits, '_' and '-' (the writer could not write it); DM_ENOMEM. */
DM_API dm_status dm_pdn_game_set_tag(dm_pdn_game *g, const char *name, const char *value);

/* The FEN of the start position (the FEN tag's value), or NULL for the initial position. */
DM_API const char *dm_pdn_game_fen(const dm_pdn_game *g);

/* The GameType number (first field of the GameType tag, "20" in "20,W,10,10,N2,0");
 * -1 when the tag is absent, -2 when it cannot be read. */
DM_API int dm_pdn_game_type(const dm_pdn_game *g);

/* ---- annotation marks ------------------------------------------------------------ *
 *
 * A move's mark (dm_pdn_node.mark) is the text glued to it, one or more of the signs of
 * the FMJD notation (rulebook chapter 8, the signs listed after article 8.2):
 *   "!" good, "!!" excellent, "?" bad, "??" blunder, "!?" interesting, "?!" dubious
 *   (also in parentheses: "(?)", kept so), "*" forced, "+" winning position, "=" drawn,
 *   "+1", "+2", ... / "-1", "-2", ... material won / lost at the end of the line
 *   (1 or 2 digits), "a.l." ad libitum (several capture routes with the same result);
 * several in a row ("!*", "*+1"). The grammar, and why "-N" right after the last
 * square is written "(-N)", is in docs/PDN.md. */

/* The PDN NAG ($n; PDN 3.0 takes PGN's table) that stands for one mark made by White
 * (black = 0) or Black (black = 1): "!" 1, "?" 2, "!!" 3, "??" 4, "!?" 5, "?!" 6 (and
 * those in parentheses), "*" 7 (forced move), "=" 10 (drawish position), "+" 18 after
 * a White move and 19 after a Black move (decisive advantage of the side that moved).
 * 0 for a mark PDN has no NAG for ("+1", "-2", "a.l.", several marks) and for NULL. */
DM_API int dm_pdn_mark_nag(const char *mark, int black);

/* The mark NAG nag stands for after a move by White (black = 0) or Black (1): the
 * inverse of dm_pdn_mark_nag ($18 after a Black move is no mark of the mover: NULL).
 * A static string, or NULL when no mark has that NAG. */
DM_API const char *dm_pdn_nag_mark(int nag, int black);

/* ---- reading -------------------------------------------------------------------- */

/* A reader over one buffer of PDN text. Opaque. */
typedef struct dm_pdn_reader dm_pdn_reader;

/* Make a reader over text[0..len). The text is NOT copied: it must outlive the reader.
 * name (copied; may be NULL) is the file name used in error messages.
 * A UTF-8 byte order mark is skipped. DM_ENOMEM, DM_EINVAL. */
DM_API dm_status dm_pdn_reader_new(dm_pdn_reader **out, const char *text, size_t len,
                                   const char *name);

/* Free a reader; NULL is fine. Games already returned stay valid. */
DM_API void dm_pdn_reader_free(dm_pdn_reader *r);

/* Read the next game.
 * Returns DM_OK with *out a game (caller frees it), or DM_OK with *out == NULL at the
 * end of the text. A game that cannot be read returns DM_EPARSE with *out == NULL and
 * err filled: err->line/column say where, err->message says
 * "<name>: game <n>, line <l>, column <c>: expected <what>, found <what>". The reader
 * then skips to the next game (the next tag section that follows a blank line or a
 * result token, or a line starting with a digit after a line ending with a result
 * token: a game without tags) so the next call goes on; every game is either
 * returned or reported.
 * Games are separated by result tokens (2-0 1-1 0-2 1-0 0-1 1/2-1/2 0-0 *) or by the
 * start of a new tag section. A result token counts only when white space, a tag or
 * the end of the text follows it; glued to other text ("0-1www", "1-0{") it is
 * reported (DM_EPARSE, where the glued text starts) and reading goes on after it
 * (before a digit it is the start of a move: "1-10"). DM_ENOMEM leaves the reader
 * unusable. */
DM_API dm_status dm_pdn_reader_next(dm_pdn_game **out, dm_pdn_reader *r, dm_error *err);

/* Number of games returned or reported so far. */
DM_API int dm_pdn_reader_count(const dm_pdn_reader *r);

/* ---- replaying ------------------------------------------------------------------ */

typedef enum dm_pdn_verdict {
    DM_PDN_LEGAL = 0,      /* every mainline move is legal */
    DM_PDN_ILLEGAL = 1,    /* a move is not legal (or is ambiguous) in its position */
    DM_PDN_UNREADABLE = 2, /* a move or the FEN cannot be read, or an unknown move "..."
                              hides the position */
    DM_PDN_VARIANT = 3     /* a variant the library does not play (Italian, Czech,
                              Frisian, ...): not replayed, why in reason.message */
} dm_pdn_verdict;

/* An accepted irregularity (FMJD 5.4, 5.7: an illegal move the opponent played on
 * after, so accepted): a mainline move that is not legal, annotated with a comment
 * directly after it that starts with "accepted irregularity" (docs/PDN.md). The replay
 * applies it as written and goes on; this says which and why it is not legal. */
typedef struct dm_pdn_irregularity {
    const dm_pdn_node *node; /* the move (borrowed from the game) */
    int move_number;         /* its move number */
    int black;               /* 1 when it was Black's move */
    char reason[160];        /* the rule it breaks (the replay's message, truncated) */
} dm_pdn_irregularity;

/* Irregularities described in a dm_pdn_replay (more are counted). */
#define DM_PDN_MAX_IRREGULAR 4

/* What replaying a game's mainline found. */
typedef struct dm_pdn_replay {
    int verdict;  /* dm_pdn_verdict */
    int plies;    /* moves replayed successfully */
    int resolved; /* ambiguous short moves resolved by the moves that follow
                             (the only candidate with which the game stays legal) */
    /* The first such move, when resolved > 0: */
    const dm_pdn_node *ambiguous; /* the node (borrowed from the game) */
    int ambiguous_number;         /* its move number */
    int ambiguous_black;          /* 1 when it was Black's move */
    char ambiguous_as[160];       /* the candidate kept, full path ("36x18x7x16") */
    /* The first bad move, when verdict is ILLEGAL or UNREADABLE: */
    int move_number;         /* its move number (1-based, counted from the start number) */
    int black;               /* 1 when it was Black's move */
    char move_text[64];      /* as written (truncated), or "" for a bad FEN */
    char fen_before[200];    /* position before it */
    const dm_pdn_node *node; /* the node (borrowed from the game), NULL for a bad FEN */
    dm_error reason;         /* why (the rule); line/column in the input */
    /* The rules: */
    const dm_variant *variant; /* the variant replayed (static), NULL for DM_PDN_VARIANT */
    int guessed;               /* 1: chosen from the squares, the game having no GameType or
                             Variant tag; with DM_PDN_VARIANT: the game has no such tag
                             and is legal under none of the rules its squares suggest */
    int joined;                /* captures written as consecutive single-jump tokens
                             ("e1xc3 c3xe5", playstrategy.org) that were joined */
    dm_board start;            /* start position (the variant's initial position when the
                                  FEN was unreadable or no variant was chosen) */
    dm_board end;              /* position after the last good move */
    /* Accepted irregularities, the warnings of a legal game (the library never prints:
     * the caller reports them): */
    int nirregular; /* how many moves were replayed as written */
    dm_pdn_irregularity irregular[DM_PDN_MAX_IRREGULAR]; /* the first ones */
} dm_pdn_replay;

/* Replay g's mainline from its start position (FEN tag, else the variant's initial
 * position) under the rules of its variant:
 * - the GameType tag selects it (dm_variant_from_gametype: 20 international, 21 English,
 *   25 Russian, 26 Brazilian, 27 Canadian, 98 antidraughts; lidraughts' 96 Breakthrough
 *   plays international moves); other GameTypes (22 Italian, 29 Czech, 40 Frisian,
 *   97 Frysk!, ...) give DM_PDN_VARIANT with the variant named in out->reason.message;
 * - without GameType, a Variant tag (lidraughts, playstrategy.org: "Russian",
 *   "American/English", "Brazilian", "Antidraughts", ...) selects it, unknown names
 *   give DM_PDN_VARIANT;
 * - without either (out->guessed = 1), the squares: algebraic squares are Russian,
 *   else Brazilian (the first under which the game is legal); numeric squares never
 *   above 32, with no international first move (31-35 from the initial position), are
 *   English checkers, else international when that is legal; anything else is
 *   international (PDN's default). A guessed game legal under no candidate is taken as
 *   the candidate it replays longest under when that is 20 plies or more (a game of
 *   that variant with a bad move), else DM_PDN_VARIANT with the first failure named.
 * Every variant's moves are read by dm_move_parse (numeric or algebraic squares, '-',
 * 'x' or ':'; the variant's compulsory capture and precedence rules, e.g. FMJD 4.1 and
 * 4.13 for international), and a multi-capture written as consecutive
 * single-jump tokens by the same piece is joined into one move (out->joined).
 * Setup commands /FEN/ reset the position; an unknown move "..." makes the rest
 * unreadable. A move that is not legal but is annotated as an accepted irregularity
 * (a comment directly after it starting with "accepted irregularity", FMJD 5.7) is
 * applied as written, from its first square to its last, removing the opponent's
 * pieces its capture path jumps (docs/PDN.md), counted in out->nirregular and
 * described in out->irregular[], and the replay goes on (the verdict stays LEGAL if
 * the rest is); when it cannot be applied (an empty first square, a taken last one, a
 * capture step off the diagonal) it is ILLEGAL with both reasons. A short capture that matches several legal moves (the
 * writer should have given the full path) is resolved by looking ahead: the game is
 * legal if the rest of the mainline is legal after exactly one of the candidates (it is
 * kept; counted in out->resolved); otherwise the ambiguity is reported as illegal.
 * fen_before is written in the variant's square style. out->start/end are the
 * positions (dm_board) of the game's variant.
 * Returns DM_OK whatever the verdict (the verdict is the answer); DM_EINVAL for NULLs. */
DM_API dm_status dm_pdn_replay_mainline(dm_pdn_replay *out, const dm_pdn_game *g);

/* ---- writing -------------------------------------------------------------------- */

/* Write g as PDN 3.0, under the rules dm_pdn_replay_mainline picks for it:
 * - the seven-tag roster first (Event Site Date Round White Black Result; missing ones
 *   as "?", Date "????.??.??", Result the movetext's result or "*"), then GameType when
 *   the game has one (for a variant game whose rules came from a Variant tag or the
 *   squares, the variant's number, e.g. "25"), then FEN (+ SetUp) unless the start is
 *   the variant's initial position and the rules are not read from the squares (an
 *   international game without GameType or Variant tag keeps it; written normalised: numeric squares with ranges, or
 *   algebraic squares for Russian and Brazilian; no trailing '.'), then the other tags
 *   in their original order (values escaped: \" and \\);
 * - movetext with moves replayed and rewritten in `style` in the variant's notation
 *   (DM_NOTATION_PDN: short form, full path only where ambiguous; DM_NOTATION_FULL:
 *   every capture with its path; Russian "d4:b6", Brazilian "d4xb6", English numeric);
 *   a capture written as single-jump tokens is written as one move; moves that cannot
 *   be replayed (variants not played, illegal moves) are written as read, an unknown
 *   move as "--";
 * - move numbers "N." before the first mover's moves (White; Black in English
 *   checkers) and "N..." before the other's move when it opens a line or follows a
 *   comment or variation; an English game numbered in White-first pairs, as in chess
 *   ("1... 9-13 2. 22-18 13-17"), is renumbered so ("1. 9-13 22-18 2. 13-17"); marks, NAGs, comments and variations kept (a comment holding
 *   '}' is written as a ';' comment; a mark that starts with '-' as "(-1)");
 *   an accepted irregularity is written as read and the moves after it from the
 *   position as played;
 * - movetext lines of at most 80 columns (a single longer word stands alone), ending
 *   with the result token (the game's, else the Result tag when it is a PDN result,
 *   else "*") and a blank line.
 * Reading the output gives the same game (tags, movetext tree but for joined split
 * captures, replay), and writing that again gives the same text.
 * *out is a NUL-terminated malloc'd string the caller frees with free(); *len (may be
 * NULL) gets its length. DM_ENOMEM, DM_EINVAL. */
DM_API dm_status dm_pdn_write(char **out, size_t *len, const dm_pdn_game *g, dm_notation style);

/* Options of dm_pdn_write_with. */
typedef struct dm_pdn_write_options {
    dm_notation style; /* as for dm_pdn_write */
    char capture_sep;  /* separator of the captures the writer rewrites: 0 the variant's
                           own (':' Russian, 'x' the others), or 'x' or ':' (for readers
                           that take only one); moves written as read keep theirs */
    int nags;          /* 1: write each mark PDN has a NAG for as that NAG instead
                          (dm_pdn_mark_nag: "32-28!" as "32-28 $1"; "+" only where the
                          side that moved is known), for programs that read only NAGs;
                          the other marks stay glued ("32-28+1"). 0: marks as read */
} dm_pdn_write_options;

/* dm_pdn_write with options (opt NULL: DM_NOTATION_PDN, the variant's separator).
 * DM_EINVAL also for a capture_sep other than 0, 'x' and ':'. With a separator other
 * than the variant's, the output reads back as the same game (the reader takes both). */
DM_API dm_status dm_pdn_write_with(char **out, size_t *len, const dm_pdn_game *g,
                                   const dm_pdn_write_options *opt);

/* ---- records of played games ---------------------------------------------------- */

/* The tags a front end knows about a game it writes. Strings are copied; NULL (or "")
 * ones are written as "?" (Date "????.??.??"). Initialise with DM_PDN_GAME_TAGS_INIT. */
typedef struct dm_pdn_game_tags {
    int version;                         /* DM_PDN_GAME_TAGS_VERSION */
    const char *event;                   /* Event */
    const char *site;                    /* Site */
    const char *date;                    /* Date, "YYYY.MM.DD" */
    const char *round;                   /* Round */
    const char *white;                   /* White (player's name) */
    const char *black;                   /* Black */
    const dm_time_control *time_control; /* TimeControl tag, or NULL for none */
} dm_pdn_game_tags;

#define DM_PDN_GAME_TAGS_VERSION 1
#define DM_PDN_GAME_TAGS_INIT                                                                      \
    {                                                                                              \
        DM_PDN_GAME_TAGS_VERSION, NULL, NULL, NULL, NULL, NULL, NULL, NULL                         \
    }

/* The record of game's mainline up to its current ply (the redo list is left out):
 * the seven-tag roster from tags (tags may be NULL: all "?"), Result and the result
 * token from dm_game_result ("2-0", "0-2", "1-1", "*"), GameType "20", SetUp "1" and
 * FEN when the start is not the initial position, TimeControl when tags has one,
 * Termination (dm_reason_str) when the game is over; the moves in PDN notation. A game
 * of another variant: its GameType, its FEN's square style and move notation, and the
 * reason's text (dm_game_reason_text) as Termination. *out belongs to the caller
 * (dm_pdn_game_free). DM_EINVAL for NULLs or a bad tags->version, DM_ENOMEM. */
DM_API dm_status dm_pdn_from_game(dm_pdn_game **out, const dm_game *game,
                                  const dm_pdn_game_tags *tags);

/* dm_pdn_from_game then dm_pdn_write: the game as PDN text, *out malloc'd (free()),
 * *len (may be NULL) its length. */
DM_API dm_status dm_pdn_write_game(char **out, size_t *len, const dm_game *game,
                                   const dm_pdn_game_tags *tags, dm_notation style);

/* Replay rec (an international draughts game: GameType 20, or guessed so) into a new
 * game: the start from its FEN, every mainline move played through dm_game_play (the
 * FMJD rules, draw rules included; an ambiguous short capture resolved as
 * dm_pdn_replay_mainline does), then the stated result kept (the result token, else
 * the Result tag): when the final position is not decided, "2-0"/"0-2" become a
 * resignation of the loser (a loss on time or a forfeit when the Termination tag says
 * "loss on time" or "forfeit") and "1-1" a draw by agreement; "*" keeps the position's
 * own result. Errors, with err saying what and where (game number, line and column
 * of the move, move number and text, the rule, the FEN before it):
 *   DM_EPARSE    not international draughts, unreadable FEN or move, a setup command
 *                inside the movetext, result 0-0, or a result that contradicts the
 *                final position (a win stated for a drawn or lost position);
 *   DM_EILLEGAL  an illegal or ambiguous move;
 *   DM_ESTATE    a move after the end of the game (e.g. after a threefold repetition);
 *   DM_ENOMEM.
 * partial = 0: on any error *out is untouched. partial = 1: a bad move or result only
 * stops the replay there: DM_OK, *out is the game up to that move and err says why it
 * stopped (err->message is "" when everything was read); the other errors remain
 * errors. *out belongs to the caller (dm_game_free). */
DM_API dm_status dm_pdn_to_game(dm_game **out, const dm_pdn_game *rec, int partial, dm_error *err);

/* Read the first game of text[0..len) (as dm_pdn_reader_next) and replay it with
 * dm_pdn_to_game. name (may be NULL) is used in messages. *record (record may be NULL)
 * gets the record read, for its tags (caller frees; set only on DM_OK). */
DM_API dm_status dm_pdn_read_game(dm_game **out, dm_pdn_game **record, const char *text, size_t len,
                                  const char *name, int partial, dm_error *err);

#ifdef __cplusplus
}
#endif
#endif /* DM_PDN_H */
