/* SPDX-License-Identifier: MIT
 * damier/dxp.h: DXP, the DamExchange Protocol (engine against engine over one TCP
 * connection, international draughts): a pure codec. Layer 2 messages are parsed into
 * and formatted from a struct with their exact fixed-width fields; a stream splitter
 * cuts layer 1's NUL-terminated framing out of arbitrary reads; a MOVE is matched
 * against the legal moves of an international dm_board (matched on the fast 10x10
 * board inside). Nothing here opens a socket, prints or keeps
 * state between calls: the caller owns every buffer.
 *
 * Offsets in error messages (err->column = offset + 1) are 0-based character
 * positions in the message, as in the protocol's layout tables:
 *     GAMEREQ  R vv name(32) c ttt mmm A|B [s pos(50)]   length 43 or 94
 *     GAMEACC  A name(32) code                           length 34
 *     MOVE     M tttt ff tt nn (cc){nn}                  length 11 + 2 nn
 *     GAMEEND  E reason stop                             length 3
 *     CHAT     C text(1..126)
 *     BACKREQ  B nnn c                                   length 5
 *     BACKACC  K code                                    length 2 */
#ifndef DM_DXP_H
#define DM_DXP_H

#include <stddef.h>

#include <damier/status.h>
#include <damier/variant.h>

#ifdef __cplusplus
extern "C" {
#endif

#define DM_DXP_PORT 27531      /* the default TCP port (layer 1, SOCKET) */
#define DM_DXP_MAX_MESSAGE 127 /* longest message, characters, without the NUL */
#define DM_DXP_NAME_LEN 32     /* width of the name fields */
#define DM_DXP_VERSION 1       /* the protocol version of GAMEREQ ("01") */
#define DM_DXP_MAX_CAPTURED 20 /* most pieces one MOVE may capture */
#define DM_DXP_MAX_CHAT 126    /* longest CHAT text */

/* Message types: the header character. */
typedef enum dm_dxp_type {
    DM_DXP_CHAT = 'C',
    DM_DXP_GAMEREQ = 'R',
    DM_DXP_GAMEACC = 'A',
    DM_DXP_MOVE = 'M',
    DM_DXP_GAMEEND = 'E',
    DM_DXP_BACKREQ = 'B',
    DM_DXP_BACKACC = 'K'
} dm_dxp_type;

/* GAMEACC acceptance codes. */
typedef enum dm_dxp_acceptance {
    DM_DXP_ACC_ACCEPTED = 0,  /* the game starts */
    DM_DXP_ACC_VERSION = 1,   /* refused: unexpected protocol version */
    DM_DXP_ACC_THIS_GAME = 2, /* refused this game, willing to play another */
    DM_DXP_ACC_NO_GAMES = 3   /* refuses to play any game */
} dm_dxp_acceptance;

/* GAMEEND reasons (informational except 0; only in the initial GAMEEND). */
typedef enum dm_dxp_end_reason {
    DM_DXP_END_UNKNOWN = 0, /* no reason given (always allowed; the acknowledgement) */
    DM_DXP_END_I_LOSE = 1,  /* the sender loses or resigns */
    DM_DXP_END_DRAW = 2,    /* draw (e.g. third repetition) */
    DM_DXP_END_I_WIN = 3    /* the sender wins */
} dm_dxp_end_reason;

/* GAMEEND stop codes. */
typedef enum dm_dxp_stop {
    DM_DXP_STOP_CONTINUE = 0, /* end this game, willing to play another */
    DM_DXP_STOP_SESSION = 1   /* stop altogether */
} dm_dxp_stop;

/* BACKACC codes. */
typedef enum dm_dxp_back_code {
    DM_DXP_BACK_ACCEPTED = 0,    /* both sides restore the position */
    DM_DXP_BACK_UNSUPPORTED = 1, /* take-back not supported */
    DM_DXP_BACK_REFUSED = 2      /* refused, the program wants to continue */
} dm_dxp_back_code;

/* One message. Only the fields of its type are meaningful (the others are zero after
 * dm_dxp_parse). Colours are dm_color (W = DM_WHITE, Z = DM_BLACK). */
typedef struct dm_dxp_msg {
    int type; /* dm_dxp_type */
    /* CHAT: the text, 1..126 characters of 7-bit ASCII, NUL-terminated */
    char text[DM_DXP_MAX_CHAT + 1];
    /* GAMEREQ (initiator) and GAMEACC (follower): the name without its right padding;
     * 1..32 printable ASCII characters (32..126), not starting with a space */
    char name[DM_DXP_NAME_LEN + 1];
    /* GAMEREQ */
    int version;        /* protocol version 0..99 (DM_DXP_VERSION) */
    int follower_color; /* dm_color the receiver of the GAMEREQ is to play */
    int time_ms;        /* thinking time per player for the game: the 3-character
                                 minutes field, 0..999 minutes; a decimal form ("1.5",
                                 ".25", as Scan and Moby Dam read it) is accepted, so a
                                 multiple of 600 ms (a hundredth of a minute) */
    int moves;          /* moves the time covers, 0..999; 0 = no move limit */
    int has_position;   /* 0: 'A', the initial position; 1: 'B', position follows */
    dm_board position;  /* international; 'B': the position and side to move, as
                                 sent (not validated: see dm_board_validate); 'A': the
                                 initial position */
    /* GAMEACC */
    int acceptance; /* dm_dxp_acceptance */
    /* MOVE */
    int seconds;                       /* time spent on the move, 0..9999 (informational) */
    int from, to;                      /* squares 1..50 */
    int ncaptured;                     /* 0..20 */
    int captured[DM_DXP_MAX_CAPTURED]; /* captured squares 1..50, as sent (any order,
                                 distinct, none equal to from) */
    /* GAMEEND */
    int reason; /* dm_dxp_end_reason */
    int stop;   /* dm_dxp_stop */
    /* BACKREQ */
    int move_number; /* 1..999: the move to go back to */
    int color;       /* dm_color to move at that move */
    /* BACKACC */
    int back_code; /* dm_dxp_back_code */
} dm_dxp_msg;

/* A message with every field zero but type (then fill in the fields). */
DM_API void dm_dxp_msg_init(dm_dxp_msg *m, dm_dxp_type type);

/* Parse one layer 2 message: text[0..len) without its NUL terminator (what the
 * splitter hands out). Every field is checked for its exact width and range: digits
 * only in numeric fields, squares 01..50, colours W/Z, exact lengths (43 or 94 for
 * GAMEREQ, 11 + 2n for MOVE), 7-bit ASCII 1..127 only, at most 127 characters.
 * DM_EPARSE with err->message saying what was expected and found and err->column the
 * 1-based position (offset + 1) where it goes wrong: an empty message, a character
 * that is not 7-bit ASCII or a NUL, a message over 127 characters, an unknown
 * header (column 1), a truncated or overlong message of a known type, a bad field.
 * A GAMEREQ of another protocol version parses (version says which) when its fields
 * are well formed, so that the follower can answer GAMEACC 1. *out is fully written
 * on success, zeroed but for type on error (type is the header, or 0). */
DM_API dm_status dm_dxp_parse(dm_dxp_msg *out, const char *text, size_t len, dm_error *err);

/* Write m as a message (without the NUL terminator) into buf of capacity cap
 * (DM_DXP_MAX_MESSAGE + 1 always suffices), NUL-terminated; *len (may be NULL) gets
 * its length. Names are padded to 32 with spaces; numeric fields are written with
 * leading zeroes; the time in minutes as three digits, or a decimal form for a time
 * that is not whole minutes ("1.5", ".25"). DM_EINVAL when a field is out of the
 * ranges dm_dxp_parse accepts (err says which) or the type is unknown, DM_EBUFS when
 * cap is too small. parse(format(m)) gives m back; format(parse(x)) is x for every
 * message whose time field is in the canonical form. */
DM_API dm_status dm_dxp_format(char *buf, size_t cap, size_t *len, const dm_dxp_msg *m,
                               dm_error *err);

/* The protocol name of a message type ("GAMEREQ", "MOVE", ...), "unknown" otherwise. */
DM_API const char *dm_dxp_type_name(int type);

/* ---- layer 1: the stream splitter --------------------------------------------- */

/* Cuts NUL-terminated messages out of a byte stream read in arbitrary pieces (a read
 * may hold part of a message or several). Holds at most one message (127 bytes):
 * bytes beyond that without a NUL are reported once and then skipped up to the next
 * NUL, so a peer that never sends a NUL cannot make it buffer without bound.
 * Initialise with dm_dxp_splitter_init; a plain value, copied freely. */
typedef struct dm_dxp_splitter {
    size_t len;                       /* bytes of the current message held */
    int skipping;                     /* an overlong message is being skipped */
    size_t skipped;                   /* bytes of it skipped so far */
    char buf[DM_DXP_MAX_MESSAGE + 1]; /* the message so far (NUL-terminated on output) */
} dm_dxp_splitter;

typedef enum dm_dxp_split_result {
    DM_DXP_SPLIT_MORE = 0,    /* every byte given was consumed; no complete message */
    DM_DXP_SPLIT_MESSAGE = 1, /* *msg (len *msg_len, NUL-terminated) is one message,
                                 valid until the next call */
    DM_DXP_SPLIT_ERROR = 2    /* a framing error, err says which: a message over 127
                                 bytes (the rest up to its NUL is then skipped), or an
                                 empty message (a NUL with nothing before it) */
} dm_dxp_split_result;

DM_API void dm_dxp_splitter_init(dm_dxp_splitter *s);

/* Consume bytes of data[0..len) up to the end of the first message (or error) in
 * them; *used gets how many were consumed (call again with the rest). Returns what
 * was found. The bytes of a message are handed out as received: dm_dxp_parse checks
 * them. */
DM_API dm_dxp_split_result dm_dxp_split(dm_dxp_splitter *s, const char *data, size_t len,
                                        size_t *used, const char **msg, size_t *msg_len,
                                        dm_error *err);

/* Bytes of an incomplete message held (0 when the stream is between messages): what
 * a caller times out on when the peer goes silent in the middle of a message. */
DM_API size_t dm_dxp_splitter_pending(const dm_dxp_splitter *s);

/* Drop the incomplete message held (after a time-out). */
DM_API void dm_dxp_splitter_reset(dm_dxp_splitter *s);

/* ---- moves ----------------------------------------------------------------------- */

/* The MOVE message of move, a legal move of position (international draughts; the
 * captured squares ascending); seconds (clamped to 0..9999) is the time spent.
 * DM_EINVAL for NULLs, a position of another variant or a move that is not legal in
 * it. */
DM_API dm_status dm_dxp_move_from(dm_dxp_msg *out, const dm_board *position, const dm_move *move,
                                  int seconds);

/* Find the legal move of position (international draughts) that a MOVE message names: equal from and to squares and
 * the same set of captured squares (any order). A message that lists no captured
 * squares is matched by from and to alone when they name exactly one legal move.
 * DM_EILLEGAL when no legal move matches (err says why: empty square, capture
 * compulsory, wrong captured set, ...), DM_EAMBIGUOUS when several do (the
 * candidates listed), DM_EINVAL when msg is not a MOVE or position is not international. */
DM_API dm_status dm_dxp_move_match(dm_move *out, const dm_board *position, const dm_dxp_msg *msg,
                                   dm_error *err);

/* ---- positions -------------------------------------------------------------------- */

/* The 51 characters of a GAMEREQ position field of b (a 10x10 board): side W/Z then
 * e w z W Z per square 1..50 (buf: cap >= 52, NUL-terminated). Returns 51, or 0
 * (buf "" when cap > 0) when cap is too small or b is NULL or not 10x10. */
DM_API size_t dm_dxp_position_text(char *buf, size_t cap, const dm_board *b);

#ifdef __cplusplus
}
#endif
#endif /* DM_DXP_H */
