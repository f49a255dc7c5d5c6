/* SPDX-License-Identifier: MIT
 * tests/unit/test_dxp.c: the DXP codec (damier/dxp.h): every example of the protocol
 * summary (../shared/docs/dxp-protocol.md) parsed field by field and formatted back,
 * round trips of every message type, each kind of malformed message refused with
 * what and where (offset), the NUL stream splitter (partial reads, several messages
 * a read, overlong and empty messages), and MOVE matched against the legal moves. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include <damier/dxp.h>

/* parse text, expect DM_OK, format again and expect the same text */
/* An international position from a FEN the test knows to be good. */
static dm_board intl(const char *fen)
{
    dm_board b;
    dm_error err;
    if (dm_board_from_fen(&b, dm_variant_get(DM_VARIANT_INTERNATIONAL), fen, &err) != DM_OK) {
        fail_msg("bad test FEN %s: %s", fen, err.message);
    }
    return b;
}

static void roundtrip(const char *text, dm_dxp_msg *m)
{
    dm_error err;
    memset(&err, 0, sizeof err);
    dm_status st = dm_dxp_parse(m, text, strlen(text), &err);
    if (st != DM_OK) {
        fail_msg("'%s' refused: %s", text, err.message);
    }
    char buf[DM_DXP_MAX_MESSAGE + 1];
    size_t len = 0;
    assert_int_equal(dm_dxp_format(buf, sizeof buf, &len, m, &err), DM_OK);
    assert_string_equal(buf, text);
    assert_int_equal(len, strlen(text));
}

/* parse text, expect DM_EPARSE at column col whose message contains what */
static void refused(const char *text, size_t len, int col, const char *what)
{
    dm_dxp_msg m;
    dm_error err;
    memset(&err, 0, sizeof err);
    dm_status st = dm_dxp_parse(&m, text, len, &err);
    if (st != DM_EPARSE) {
        fail_msg("'%.*s' accepted (status %d)", (int)len, text, (int)st);
    }
    if (err.column != col || !strstr(err.message, what)) {
        fail_msg("'%.*s': column %d '%s', expected column %d and '%s'", (int)len, text, err.column,
                 err.message, col, what);
    }
    char off[32];
    snprintf(off, sizeof off, "offset %d", col - 1);
    if (!strstr(err.message, off)) {
        fail_msg("'%s' does not say '%s'", err.message, off);
    }
}

#define NAME32(s) s

static void test_dxp__spec_examples(void **state)
{
    (void)state;
    dm_dxp_msg m;
    /* GAMEACC from the spec */
    roundtrip("ATornado voor Windows 4.0        0", &m);
    assert_int_equal(m.type, DM_DXP_GAMEACC);
    assert_string_equal(m.name, "Tornado voor Windows 4.0");
    assert_int_equal(m.acceptance, DM_DXP_ACC_ACCEPTED);
    /* MOVE 6-11 after 12 s */
    roundtrip("M0012061100", &m);
    assert_int_equal(m.type, DM_DXP_MOVE);
    assert_int_equal(m.seconds, 12);
    assert_int_equal(m.from, 6);
    assert_int_equal(m.to, 11);
    assert_int_equal(m.ncaptured, 0);
    /* MOVE 5x25 capturing 22, 12, 23, 20 (order kept as sent) */
    roundtrip("M001205250422122320", &m);
    assert_int_equal(m.from, 5);
    assert_int_equal(m.to, 25);
    assert_int_equal(m.ncaptured, 4);
    assert_int_equal(m.captured[0], 22);
    assert_int_equal(m.captured[1], 12);
    assert_int_equal(m.captured[2], 23);
    assert_int_equal(m.captured[3], 20);
    /* BACKREQ: back to move 5, Black to move */
    roundtrip("B005Z", &m);
    assert_int_equal(m.type, DM_DXP_BACKREQ);
    assert_int_equal(m.move_number, 5);
    assert_int_equal(m.color, DM_BLACK);
}

static void test_dxp__gamereq(void **state)
{
    (void)state;
    dm_dxp_msg m;
    /* initial position: length 43 */
    const char *a = "R01Scan 3.1                        Z005075A";
    assert_int_equal(strlen(a), 43);
    roundtrip(a, &m);
    assert_int_equal(m.type, DM_DXP_GAMEREQ);
    assert_int_equal(m.version, 1);
    assert_string_equal(m.name, "Scan 3.1");
    assert_int_equal(m.follower_color, DM_BLACK);
    assert_int_equal(m.time_ms, 5 * 60000);
    assert_int_equal(m.moves, 75);
    assert_int_equal(m.has_position, 0);
    dm_board start;
    dm_board_start(&start, dm_variant_get(DM_VARIANT_INTERNATIONAL));
    assert_ptr_equal(m.position.variant, start.variant);
    assert_int_equal(m.position.side, start.side);
    assert_memory_equal(m.position.sq, start.sq, sizeof start.sq);

    /* a position: length 94, side to move then 50 squares */
    char b[128];
    snprintf(b, sizeof b, "R01%-32sW010000BZ%s", "damier",
             "zzzzzzzzzzzzzzzzzzzzeeeeeeeeeewwwwwwwwwwwwwwwwwwww");
    assert_int_equal(strlen(b), 94);
    roundtrip(b, &m);
    assert_int_equal(m.has_position, 1);
    assert_int_equal(m.follower_color, DM_WHITE);
    assert_int_equal(m.time_ms, 10 * 60000);
    assert_int_equal(m.moves, 0);
    assert_int_equal(m.position.side, DM_BLACK);
    assert_int_equal(dm_board_piece(&m.position, 1), DM_BLACK_MAN);
    assert_int_equal(dm_board_piece(&m.position, 50), DM_WHITE_MAN);
    assert_int_equal(dm_board_piece(&m.position, 25), DM_EMPTY);

    /* kings */
    char pos[52];
    dm_board k = intl("W:WK1,46:BK50,5");
    assert_int_equal(dm_dxp_position_text(pos, sizeof pos, &k), 51);
    assert_int_equal(pos[0], 'W');
    assert_int_equal(pos[1], 'W');
    assert_int_equal(pos[5], 'z');
    assert_int_equal(pos[46], 'w');
    assert_int_equal(pos[50], 'Z');

    /* another version parses, so that the follower can answer GAMEACC 1 */
    roundtrip("R02Scan 3.1                        Z005075A", &m);
    assert_int_equal(m.version, 2);

    /* fractional minutes, read as Scan and Moby Dam read them */
    assert_int_equal(dm_dxp_parse(&m, "R01x                               W1.5000A", 43, NULL),
                     DM_OK);
    assert_int_equal(m.time_ms, 90000);
    roundtrip("R01x                               W.25000A", &m);
    assert_int_equal(m.time_ms, 15000);
    assert_int_equal(dm_dxp_parse(&m, "R01x                               W0.5000A", 43, NULL),
                     DM_OK);
    assert_int_equal(m.time_ms, 30000);
    char out[128];
    assert_int_equal(dm_dxp_format(out, sizeof out, NULL, &m, NULL), DM_OK);
    assert_string_equal(out, "R01x                               W.50000A");
}

static void test_dxp__other_messages(void **state)
{
    (void)state;
    dm_dxp_msg m;
    roundtrip("E00", &m);
    assert_int_equal(m.type, DM_DXP_GAMEEND);
    assert_int_equal(m.reason, DM_DXP_END_UNKNOWN);
    assert_int_equal(m.stop, DM_DXP_STOP_CONTINUE);
    roundtrip("E21", &m);
    assert_int_equal(m.reason, DM_DXP_END_DRAW);
    assert_int_equal(m.stop, DM_DXP_STOP_SESSION);
    roundtrip("E30", &m);
    roundtrip("E10", &m);
    roundtrip("K0", &m);
    assert_int_equal(m.type, DM_DXP_BACKACC);
    assert_int_equal(m.back_code, DM_DXP_BACK_ACCEPTED);
    roundtrip("K2", &m);
    assert_int_equal(m.back_code, DM_DXP_BACK_REFUSED);
    roundtrip("B001W", &m);
    assert_int_equal(m.color, DM_WHITE);
    roundtrip("Chello, world", &m);
    assert_int_equal(m.type, DM_DXP_CHAT);
    assert_string_equal(m.text, "hello, world");
    roundtrip("C ", &m);
    char chat[128] = "C";
    memset(chat + 1, 'x', 126);
    chat[127] = 0;
    roundtrip(chat, &m);
    assert_int_equal(strlen(m.text), 126);
    for (int code = 0; code <= 3; code++) {
        char acc[40];
        snprintf(acc, sizeof acc, "A%-32s%d", "Moby Dam", code);
        roundtrip(acc, &m);
        assert_int_equal(m.acceptance, code);
    }
    /* the longest MOVE: 20 captures, length 51 */
    char mv[64] = "M9999504920";
    for (int i = 0; i < 20; i++) {
        snprintf(mv + 11 + 2 * i, 3, "%02d", i + 1);
    }
    roundtrip(mv, &m);
    assert_int_equal(m.ncaptured, 20);
    assert_int_equal(m.seconds, 9999);
}

static void test_dxp__malformed(void **state)
{
    (void)state;
    refused("", 0, 1, "empty message");
    refused("X123", 4, 1, "unknown message header 'X'");
    refused("m0012061100", 11, 1, "unknown message header");
    refused("M00120611\x80", 10, 10, "byte 0x80");
    refused("M0012\0"
            "061100",
            11, 6, "byte 0x00");
    char big[200];
    memset(big, 'C', sizeof big);
    refused(big, 128, 128, "at most 127");
    /* truncated and overlong */
    refused("M001206110", 10, 11, "truncated");
    refused("M00120611000", 12, 12, "too long");
    refused("M0012061101", 11, 12, "truncated");    /* one capture announced, none given */
    refused("M00120611011213", 15, 14, "too long"); /* one announced, two given */
    refused("E0", 2, 3, "truncated");
    refused("E000", 4, 4, "too long");
    refused("K", 1, 2, "truncated");
    refused("B05Z", 4, 5, "truncated");
    refused("C", 1, 2, "empty text");
    refused("ATornado voor Windows 4.0        ", 33, 34, "truncated");
    refused("R01Scan", 7, 8, "truncated");
    refused("R01Scan 3.1                        Z005075", 42, 43, "truncated");
    refused("R01Scan 3.1                        Z005075AX", 44, 44, "too long");
    refused("R01Scan 3.1                        Z005075BW", 44, 45, "truncated");
    /* bad fields, with their offsets */
    refused("M00a2061100", 11, 4, "time: 4 digits expected, found 'a'");
    refused("M0012001100", 11, 6, "from square 00 out of range 1..50");
    refused("M0012065100", 11, 8, "to square 51 out of range");
    refused("M0012061121", 11, 10, "number captured 21 out of range");
    refused("M00120611 1", 11, 10, "found a space");
    refused("M001206110199", 13, 12, "captured square 99 out of range");
    refused("M00120611020707", 15, 14, "captured square 7 given twice");
    refused("M001206110106", 13, 12, "is the from square");
    refused("E40", 3, 2, "reason 4 out of range");
    refused("E02", 3, 3, "stop code 2 out of range");
    refused("K3", 2, 2, "acceptance code 3 out of range");
    refused("B000W", 5, 2, "move number 000 out of range");
    refused("B005B", 5, 5, "'W' or 'Z' expected, found 'B'");
    refused("ATornado voor Windows 4.0        4", 34, 34, "acceptance code 4");
    refused("A Tornado                        0", 34, 2, "must not start with a space");
    refused("ATor\tnado                        0", 34, 5, "printable");
    refused("RX1Scan 3.1                        Z005075A", 43, 2, "protocol version");
    refused("R01Scan 3.1                        X005075A", 43, 36, "follower's colour");
    refused("R01Scan 3.1                        Z0a5075A", 43, 38, "thinking time");
    refused("R01Scan 3.1                        Z..5075A", 43, 38, "thinking time");
    refused("R01Scan 3.1                        Z005-75A", 43, 40, "number of moves");
    refused("R01Scan 3.1                        Z005075C", 43, 43, "'A' or 'B' expected");
    char b[128];
    snprintf(b, sizeof b, "R01%-32sW010000BX%s", "damier",
             "zzzzzzzzzzzzzzzzzzzzeeeeeeeeeewwwwwwwwwwwwwwwwwwww");
    refused(b, 94, 44, "side to move");
    snprintf(b, sizeof b, "R01%-32sW010000BW%s", "damier",
             "zzzzzzzzzzzzzzzzzzzzeeeeeeeeeewwwwwwwwwwwwwwwwwwwb");
    refused(b, 94, 95 - 1, "square 50: one of e w z W Z expected, found 'b'");
}

static void test_dxp__format_refuses_bad_fields(void **state)
{
    (void)state;
    char buf[DM_DXP_MAX_MESSAGE + 1];
    dm_dxp_msg m;
    dm_error err;
    dm_dxp_msg_init(&m, DM_DXP_MOVE);
    m.from = 0;
    m.to = 5;
    assert_int_equal(dm_dxp_format(buf, sizeof buf, NULL, &m, &err), DM_EINVAL);
    m.from = 1;
    m.ncaptured = 1;
    m.captured[0] = 1;
    assert_int_equal(dm_dxp_format(buf, sizeof buf, NULL, &m, &err), DM_EINVAL);
    m.captured[0] = 7;
    assert_int_equal(dm_dxp_format(buf, 5, NULL, &m, &err), DM_EBUFS);
    assert_int_equal(dm_dxp_format(buf, sizeof buf, NULL, &m, &err), DM_OK);
    assert_string_equal(buf, "M0000010501"
                             "07");
    dm_dxp_msg_init(&m, DM_DXP_GAMEREQ);
    m.version = 1;
    strcpy(m.name, " lead");
    assert_int_equal(dm_dxp_format(buf, sizeof buf, NULL, &m, &err), DM_EINVAL);
    strcpy(m.name, "damier");
    m.time_ms = 61000; /* not a hundredth of a minute */
    assert_int_equal(dm_dxp_format(buf, sizeof buf, NULL, &m, &err), DM_EINVAL);
    m.time_ms = 10 * 60000 + 30000; /* 10.5 minutes: no 3-character form */
    assert_int_equal(dm_dxp_format(buf, sizeof buf, NULL, &m, &err), DM_EINVAL);
    m.time_ms = 60000;
    assert_int_equal(dm_dxp_format(buf, sizeof buf, NULL, &m, &err), DM_OK);
    assert_string_equal(buf, "R01damier                          W001000A");
    dm_dxp_msg_init(&m, DM_DXP_CHAT);
    assert_int_equal(dm_dxp_format(buf, sizeof buf, NULL, &m, &err), DM_EINVAL);
    m.type = 'X';
    assert_int_equal(dm_dxp_format(buf, sizeof buf, NULL, &m, &err), DM_EINVAL);
}

/* feed bytes one read at a time; collect messages and errors as "msg|!err|" text */
static void split_all(dm_dxp_splitter *s, const char *data, size_t len, size_t step, char *out,
                      size_t cap)
{
    out[0] = 0;
    for (size_t off = 0; off < len;) {
        size_t n = len - off < step ? len - off : step;
        size_t pos = 0;
        while (pos < n) {
            size_t used;
            const char *msg;
            size_t ml;
            dm_error err;
            dm_dxp_split_result r =
                dm_dxp_split(s, data + off + pos, n - pos, &used, &msg, &ml, &err);
            assert_true(used > 0);
            pos += used;
            size_t l = strlen(out);
            if (r == DM_DXP_SPLIT_MESSAGE) {
                assert_int_equal(strlen(msg), ml);
                snprintf(out + l, cap - l, "%s|", msg);
            } else if (r == DM_DXP_SPLIT_ERROR) {
                snprintf(out + l, cap - l, "!%.8s|", err.message);
            }
        }
        off += n;
    }
}

static void test_dxp__splitter(void **state)
{
    (void)state;
    static const char stream[] = "R01x                               W005075A\0"
                                 "ATornado voor Windows 4.0        0\0M0012061100\0E00\0";
    char out[512];
    dm_dxp_splitter s;
    for (size_t step = 1; step <= sizeof stream; step++) {
        dm_dxp_splitter_init(&s);
        split_all(&s, stream, sizeof stream - 1, step, out, sizeof out);
        assert_string_equal(out, "R01x                               W005075A|"
                                 "ATornado voor Windows 4.0        0|M0012061100|E00|");
        assert_int_equal(dm_dxp_splitter_pending(&s), 0);
    }
    /* a half message is held, then completed */
    dm_dxp_splitter_init(&s);
    split_all(&s, "M0012", 5, 64, out, sizeof out);
    assert_string_equal(out, "");
    assert_int_equal(dm_dxp_splitter_pending(&s), 5);
    split_all(&s, "061100\0", 7, 64, out, sizeof out);
    assert_string_equal(out, "M0012061100|");
    /* dropped after a time-out */
    split_all(&s, "M00", 3, 64, out, sizeof out);
    dm_dxp_splitter_reset(&s);
    assert_int_equal(dm_dxp_splitter_pending(&s), 0);
    split_all(&s, "E00\0", 4, 64, out, sizeof out);
    assert_string_equal(out, "E00|");
    /* an empty message, then an overlong one: reported once, skipped to its NUL, then
     * the stream goes on; nothing beyond 127 bytes is held */
    static char flood[4000];
    memset(flood, 'C', sizeof flood);
    flood[0] = 0;
    memcpy(flood + sizeof flood - 5, "\0K1\0", 4);
    dm_dxp_splitter_init(&s);
    split_all(&s, flood, sizeof flood - 1, 700, out, sizeof out);
    assert_string_equal(out, "!empty me|!message |K1|");
    /* a flood without any NUL: one error, bounded */
    dm_dxp_splitter_init(&s);
    memset(flood, 'M', sizeof flood);
    split_all(&s, flood, sizeof flood, 333, out, sizeof out);
    assert_string_equal(out, "!message |");
    assert_true(dm_dxp_splitter_pending(&s) >= sizeof flood - 1);
    assert_true(sizeof s < 256);
}

static void test_dxp__move_match(void **state)
{
    (void)state;
    dm_board b;
    dm_dxp_msg m;
    dm_move mv;
    dm_error err;
    char hub[160];
    /* 6-11 with 11 free */
    b = intl("B:W31-50:B1-10,12-20");
    assert_int_equal(dm_dxp_parse(&m, "M0012061100", 11, NULL), DM_OK);
    assert_int_equal(dm_dxp_move_match(&mv, &b, &m, &err), DM_OK);
    assert_int_equal(mv.from, 6);
    assert_int_equal(mv.to, 11);
    /* 5x25 capturing 22 12 23 20, the captured squares in any order */
    b = intl("B:W12,20,22,23:BK5");
    const char *orders[] = {"M001205250422122320", "M001205250412202223", "M001205250423222012"};
    for (int i = 0; i < 3; i++) {
        assert_int_equal(dm_dxp_parse(&m, orders[i], strlen(orders[i]), NULL), DM_OK);
        if (dm_dxp_move_match(&mv, &b, &m, &err) != DM_OK) {
            fail_msg("%s: %s", orders[i], err.message);
        }
        dm_move_to_text(hub, sizeof hub, &b, &mv, DM_NOTATION_HUB, DM_SQUARES_DEFAULT);
        assert_string_equal(hub, "5x25x12x20x22x23");
    }
    /* and back: our MOVE lists the captured squares ascending */
    assert_int_equal(dm_dxp_move_from(&m, &b, &mv, 12), DM_OK);
    char buf[128];
    assert_int_equal(dm_dxp_format(buf, sizeof buf, NULL, &m, NULL), DM_OK);
    assert_string_equal(buf, "M001205250412202223");
    /* a wrong captured set */
    assert_int_equal(dm_dxp_parse(&m, "M0012052503122223", 17, NULL), DM_OK);
    assert_int_equal(dm_dxp_move_match(&mv, &b, &m, &err), DM_EILLEGAL);
    assert_non_null(strstr(err.message, "captured squares do not match"));
    /* a quiet move where a capture is compulsory */
    assert_int_equal(dm_dxp_parse(&m, "M0001050400", 11, NULL), DM_OK);
    assert_int_equal(dm_dxp_move_match(&mv, &b, &m, &err), DM_EILLEGAL);
    assert_non_null(strstr(err.message, "illegal move 5-4"));
    assert_non_null(strstr(err.message, "compulsory"));
    /* an empty square */
    b = intl("W:W31-50:B1-20");
    assert_int_equal(dm_dxp_parse(&m, "M0001272200", 11, NULL), DM_OK);
    assert_int_equal(dm_dxp_move_match(&mv, &b, &m, &err), DM_EILLEGAL);
    assert_non_null(strstr(err.message, "empty"));
    /* out of turn: Black's move in White's turn */
    assert_int_equal(dm_dxp_parse(&m, "M0001192400", 11, NULL), DM_OK);
    assert_int_equal(dm_dxp_move_match(&mv, &b, &m, &err), DM_EILLEGAL);
    /* no captured squares given: from and to decide when they name one move */
    b = intl("W:W28:B23");
    assert_int_equal(dm_dxp_parse(&m, "M0001281900", 11, NULL), DM_OK);
    assert_int_equal(dm_dxp_move_match(&mv, &b, &m, &err), DM_OK);
    assert_int_equal(mv.ncapt, 1);
    /* ... and are ambiguous when they name several: 45x35 takes 34 43 44 and 17 or 22 */
    b = intl("W:WK45:B22,43,34,17,44");
    assert_int_equal(dm_dxp_parse(&m, "M0001453500", 11, NULL), DM_OK);
    assert_int_equal(dm_dxp_move_match(&mv, &b, &m, &err), DM_EAMBIGUOUS);
    assert_non_null(strstr(err.message, "ambiguous move 45-35"));
    assert_non_null(strstr(err.message, "45x35x17x34x43x44"));
    assert_non_null(strstr(err.message, "45x35x22x34x43x44"));
    /* with the captured squares it is one move */
    assert_int_equal(dm_dxp_parse(&m, "M000145350444342243", 19, NULL), DM_OK);
    assert_int_equal(dm_dxp_move_match(&mv, &b, &m, &err), DM_OK);
    dm_move_to_text(hub, sizeof hub, &b, &mv, DM_NOTATION_HUB, DM_SQUARES_DEFAULT);
    assert_string_equal(hub, "45x35x22x34x43x44");
    /* a captured count that does not fit the move */
    assert_int_equal(dm_dxp_parse(&m, "M00014535023443", 15, NULL), DM_OK);
    assert_int_equal(dm_dxp_move_match(&mv, &b, &m, &err), DM_EILLEGAL);
    /* not a MOVE */
    dm_dxp_msg_init(&m, DM_DXP_CHAT);
    assert_int_equal(dm_dxp_move_match(&mv, &b, &m, &err), DM_EINVAL);
    /* DXP is international draughts: a Russian position is refused by name */
    dm_board russian;
    dm_board_start(&russian, dm_variant_get(DM_VARIANT_RUSSIAN));
    assert_int_equal(dm_dxp_parse(&m, "M0001272200", 11, NULL), DM_OK);
    assert_int_equal(dm_dxp_move_match(&mv, &russian, &m, &err), DM_EINVAL);
    assert_non_null(strstr(err.message, "Russian"));
    char pos[52];
    assert_int_equal(dm_dxp_position_text(pos, sizeof pos, &russian), 0);
    assert_string_equal(pos, "");
}

/* Every legal move of a few positions goes out and comes back as itself. */
static void test_dxp__every_move_round_trips(void **state)
{
    (void)state;
    const char *fens[] = {"W:W31-50:B1-20", "B:W12,20,22,23:BK5",
                          "W:WK46,K1:B37,28,38,17,27,12,13,8,9", "B:W6,7,8,17,18,27,28:BK50",
                          "W:WK45:B22,43,34,17,44"};
    for (size_t f = 0; f < sizeof fens / sizeof fens[0]; f++) {
        dm_board b = intl(fens[f]);
        dm_movelist list;
        dm_movegen_legal(&list, &b);
        assert_true(list.count > 0);
        for (int i = 0; i < list.count; i++) {
            dm_dxp_msg m, back;
            assert_int_equal(dm_dxp_move_from(&m, &b, &list.moves[i], 3), DM_OK);
            char buf[128];
            size_t len;
            assert_int_equal(dm_dxp_format(buf, sizeof buf, &len, &m, NULL), DM_OK);
            assert_int_equal(len, 11 + 2 * (size_t)list.moves[i].ncapt);
            assert_int_equal(dm_dxp_parse(&back, buf, len, NULL), DM_OK);
            dm_move mv;
            dm_error err;
            if (dm_dxp_move_match(&mv, &b, &back, &err) != DM_OK) {
                fail_msg("%s in %s: %s", buf, fens[f], err.message);
            }
            assert_int_equal(mv.from, list.moves[i].from);
            assert_int_equal(mv.to, list.moves[i].to);
            assert_memory_equal(mv.capt, list.moves[i].capt, sizeof mv.capt);
        }
    }
    /* a move that is not legal is not written */
    dm_board b = intl("W:W31-50:B1-20");
    dm_move none;
    memset(&none, 0, sizeof none);
    dm_dxp_msg m;
    assert_int_equal(dm_dxp_move_from(&m, &b, &none, 0), DM_EINVAL);
    /* nor a move of another variant's position */
    dm_board russian;
    dm_board_start(&russian, dm_variant_get(DM_VARIANT_RUSSIAN));
    dm_movelist rl;
    dm_movegen_legal(&rl, &russian);
    assert_true(rl.count > 0);
    assert_int_equal(dm_dxp_move_from(&m, &russian, &rl.moves[0], 0), DM_EINVAL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dxp__spec_examples),
        cmocka_unit_test(test_dxp__gamereq),
        cmocka_unit_test(test_dxp__other_messages),
        cmocka_unit_test(test_dxp__malformed),
        cmocka_unit_test(test_dxp__format_refuses_bad_fields),
        cmocka_unit_test(test_dxp__splitter),
        cmocka_unit_test(test_dxp__move_match),
        cmocka_unit_test(test_dxp__every_move_round_trips),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
