/* SPDX-License-Identifier: MIT
 * src/proto/dxp.c: the DXP codec (damier/dxp.h): layer 2 messages with their exact
 * fixed-width fields, the layer 1 NUL framing, and MOVE against the legal moves.
 * Pure functions over caller memory: no I/O, no global state. */
#include <damier/dxp.h>

#include <stdio.h>
#include <string.h>

/* DXP plays international draughts: squares 1..50 (FMJD 2.6). */
#define DXP_SQUARES 50

/* ---- helpers ----------------------------------------------------------------------- */

/* strlen bounded by max (strnlen is POSIX, not C17) */
static size_t bounded_len(const char *s, size_t max)
{
    size_t n = 0;
    while (n < max && s[n]) {
        n++;
    }
    return n;
}

/* A printable description of the character c for error messages. */
static const char *char_desc(char *buf, size_t cap, unsigned char c)
{
    if (c >= 33 && c <= 126) {
        snprintf(buf, cap, "'%c'", c);
    } else if (c == ' ') {
        snprintf(buf, cap, "a space");
    } else {
        snprintf(buf, cap, "byte 0x%02x", c);
    }
    return buf;
}

typedef struct cursor {
    const char *text;
    size_t len;
    const char *what; /* message type name, for errors */
    dm_error *err;
} cursor;

static dm_status bad(const cursor *c, size_t off, const char *fmt, const char *arg)
{
    char msg[200];
    snprintf(msg, sizeof msg, fmt, arg);
    return dm_error_set(c->err, DM_EPARSE, 0, (int)off + 1, "%s: %s (offset %zu)", c->what, msg,
                        off);
}

/* Exact length check: a known type with too few or too many characters. */
static dm_status want_len(const cursor *c, size_t want)
{
    char n[96];
    if (c->len < want) {
        snprintf(n, sizeof n, "%zu characters, %zu given", want, c->len);
        return bad(c, c->len, "truncated: the message has %s", n);
    }
    if (c->len > want) {
        snprintf(n, sizeof n, "%zu characters, %zu given", want, c->len);
        return bad(c, want, "too long: the message has %s", n);
    }
    return DM_OK;
}

/* Fixed-width decimal field of width w at off, in lo..hi. */
static dm_status field_int(const cursor *c, size_t off, int w, int lo, int hi, const char *name,
                           int *out)
{
    int v = 0;
    for (int i = 0; i < w; i++) {
        unsigned char ch = (unsigned char)c->text[off + (size_t)i];
        if (ch < '0' || ch > '9') {
            char d[24], m[96];
            snprintf(m, sizeof m, "%s: %d digits expected, found %%s", name, w);
            return bad(c, off + (size_t)i, m, char_desc(d, sizeof d, ch));
        }
        v = v * 10 + (ch - '0');
    }
    if (v < lo || v > hi) {
        char m[96];
        snprintf(m, sizeof m, "%s %.*s out of range %d..%d%%s", name, w, c->text + off, lo, hi);
        return bad(c, off, m, "");
    }
    *out = v;
    return DM_OK;
}

/* W or Z at off. */
static dm_status field_color(const cursor *c, size_t off, const char *name, int *out)
{
    char ch = c->text[off];
    if (ch == 'W' || ch == 'Z') {
        *out = ch == 'W' ? DM_WHITE : DM_BLACK;
        return DM_OK;
    }
    char d[24], m[96];
    snprintf(m, sizeof m, "%s: 'W' or 'Z' expected, found %%s", name);
    return bad(c, off, m, char_desc(d, sizeof d, (unsigned char)ch));
}

/* A 32-character name at off, right-padded with spaces. */
static dm_status field_name(const cursor *c, size_t off, char *out)
{
    if (c->text[off] == ' ') {
        return bad(c, off, "the name must not start with a space%s", "");
    }
    for (int i = 0; i < DM_DXP_NAME_LEN; i++) {
        unsigned char ch = (unsigned char)c->text[off + (size_t)i];
        if (ch < 32 || ch > 126) {
            char d[24];
            return bad(c, off + (size_t)i, "name: a printable character expected, found %s",
                       char_desc(d, sizeof d, ch));
        }
    }
    int n = DM_DXP_NAME_LEN;
    while (n > 0 && c->text[off + (size_t)n - 1] == ' ') {
        n--;
    }
    memcpy(out, c->text + off, (size_t)n);
    out[n] = 0;
    return DM_OK;
}

/* The GAMEREQ thinking time: three characters, minutes; digits with at most one '.'
 * (Scan and Moby Dam read the field as a real number). */
static dm_status field_time(const cursor *c, size_t off, int *ms)
{
    long whole = 0, frac = 0, scale = 1;
    int dot = -1, digits = 0;
    for (int i = 0; i < 3; i++) {
        unsigned char ch = (unsigned char)c->text[off + (size_t)i];
        if (ch == '.' && dot < 0) {
            dot = i;
        } else if (ch >= '0' && ch <= '9') {
            digits++;
            if (dot < 0) {
                whole = whole * 10 + (ch - '0');
            } else {
                frac = frac * 10 + (ch - '0');
                scale *= 10;
            }
        } else {
            char d[24];
            return bad(c, off + (size_t)i, "thinking time: 3 digits (minutes) expected, found %s",
                       char_desc(d, sizeof d, ch));
        }
    }
    if (digits == 0) {
        return bad(c, off, "thinking time: no digit in '...'%s", "");
    }
    /* frac/scale minutes with scale 1, 10 or 100: a whole number of 600 ms */
    *ms = (int)(whole * 60000 + frac * (60000 / scale));
    return DM_OK;
}

/* ---- parse --------------------------------------------------------------------------- */

static dm_status parse_gamereq(dm_dxp_msg *m, const cursor *c)
{
    if (c->len < 43) {
        return want_len(c, 43);
    }
    dm_status st = field_int(c, 1, 2, 0, 99, "protocol version", &m->version);
    st = st ? st : field_name(c, 3, m->name);
    st = st ? st : field_color(c, 35, "follower's colour", &m->follower_color);
    st = st ? st : field_time(c, 36, &m->time_ms);
    st = st ? st : field_int(c, 39, 3, 0, 999, "number of moves", &m->moves);
    if (st) {
        return st;
    }
    char sp = c->text[42];
    if (sp == 'A') {
        m->has_position = 0;
        dm_board_start(&m->position, dm_variant_get(DM_VARIANT_INTERNATIONAL));
        return want_len(c, 43);
    }
    if (sp != 'B') {
        char d[24];
        return bad(c, 42, "starting position: 'A' or 'B' expected, found %s",
                   char_desc(d, sizeof d, (unsigned char)sp));
    }
    m->has_position = 1;
    if ((st = want_len(c, 94)) != DM_OK) {
        return st;
    }
    int side;
    if ((st = field_color(c, 43, "side to move", &side)) != DM_OK) {
        return st;
    }
    dm_board_clear(&m->position, dm_variant_get(DM_VARIANT_INTERNATIONAL));
    for (int sq = 1; sq <= DXP_SQUARES; sq++) {
        size_t off = 43 + (size_t)sq;
        dm_piece p;
        switch (c->text[off]) {
            case 'e':
                p = DM_EMPTY;
                break;
            case 'w':
                p = DM_WHITE_MAN;
                break;
            case 'z':
                p = DM_BLACK_MAN;
                break;
            case 'W':
                p = DM_WHITE_KING;
                break;
            case 'Z':
                p = DM_BLACK_KING;
                break;
            default: {
                char d[24], msg[96];
                snprintf(msg, sizeof msg, "square %d: one of e w z W Z expected, found %%s", sq);
                return bad(c, off, msg, char_desc(d, sizeof d, (unsigned char)c->text[off]));
            }
        }
        if (p != DM_EMPTY) {
            dm_board_put(&m->position, sq, p);
        }
    }
    m->position.side = side;
    return DM_OK;
}

static dm_status parse_move(dm_dxp_msg *m, const cursor *c)
{
    if (c->len < 11) {
        return want_len(c, 11);
    }
    dm_status st = field_int(c, 1, 4, 0, 9999, "time", &m->seconds);
    st = st ? st : field_int(c, 5, 2, 1, DXP_SQUARES, "from square", &m->from);
    st = st ? st : field_int(c, 7, 2, 1, DXP_SQUARES, "to square", &m->to);
    st = st ? st : field_int(c, 9, 2, 0, DM_DXP_MAX_CAPTURED, "number captured", &m->ncaptured);
    st = st ? st : want_len(c, 11 + 2 * (size_t)m->ncaptured);
    if (st) {
        return st;
    }
    for (int i = 0; i < m->ncaptured; i++) {
        size_t off = 11 + 2 * (size_t)i;
        if ((st = field_int(c, off, 2, 1, DXP_SQUARES, "captured square", &m->captured[i])) !=
            DM_OK) {
            return st;
        }
        char sq[8];
        snprintf(sq, sizeof sq, "%d", m->captured[i]);
        if (m->captured[i] == m->from) {
            return bad(c, off, "captured square %s is the from square", sq);
        }
        for (int k = 0; k < i; k++) {
            if (m->captured[k] == m->captured[i]) {
                return bad(c, off, "captured square %s given twice", sq);
            }
        }
    }
    return DM_OK;
}

static dm_status parse_body(dm_dxp_msg *m, const cursor *c)
{
    dm_status st;
    switch (m->type) {
        case DM_DXP_CHAT:
            if (c->len < 2) {
                return bad(c, 1, "empty text (1..126 characters expected)%s", "");
            }
            memcpy(m->text, c->text + 1, c->len - 1);
            m->text[c->len - 1] = 0;
            return DM_OK;
        case DM_DXP_GAMEREQ:
            return parse_gamereq(m, c);
        case DM_DXP_GAMEACC:
            if ((st = want_len(c, 34)) != DM_OK) {
                return st;
            }
            st = field_name(c, 1, m->name);
            return st ? st : field_int(c, 33, 1, 0, 3, "acceptance code", &m->acceptance);
        case DM_DXP_MOVE:
            return parse_move(m, c);
        case DM_DXP_GAMEEND:
            if ((st = want_len(c, 3)) != DM_OK) {
                return st;
            }
            st = field_int(c, 1, 1, 0, 3, "reason", &m->reason);
            return st ? st : field_int(c, 2, 1, 0, 1, "stop code", &m->stop);
        case DM_DXP_BACKREQ:
            if ((st = want_len(c, 5)) != DM_OK) {
                return st;
            }
            st = field_int(c, 1, 3, 1, 999, "move number", &m->move_number);
            return st ? st : field_color(c, 4, "colour to move", &m->color);
        case DM_DXP_BACKACC:
            if ((st = want_len(c, 2)) != DM_OK) {
                return st;
            }
            return field_int(c, 1, 1, 0, 2, "acceptance code", &m->back_code);
        default:
            return DM_EINVAL; /* not reached: the caller checked the header */
    }
}

const char *dm_dxp_type_name(int type)
{
    switch (type) {
        case DM_DXP_CHAT:
            return "CHAT";
        case DM_DXP_GAMEREQ:
            return "GAMEREQ";
        case DM_DXP_GAMEACC:
            return "GAMEACC";
        case DM_DXP_MOVE:
            return "MOVE";
        case DM_DXP_GAMEEND:
            return "GAMEEND";
        case DM_DXP_BACKREQ:
            return "BACKREQ";
        case DM_DXP_BACKACC:
            return "BACKACC";
        default:
            return "unknown";
    }
}

void dm_dxp_msg_init(dm_dxp_msg *m, dm_dxp_type type)
{
    memset(m, 0, sizeof *m);
    m->type = (int)type;
}

dm_status dm_dxp_parse(dm_dxp_msg *out, const char *text, size_t len, dm_error *err)
{
    if (!out || (!text && len)) {
        return dm_error_set(err, DM_EINVAL, 0, 0, "NULL argument");
    }
    memset(out, 0, sizeof *out);
    if (len == 0) {
        return dm_error_set(err, DM_EPARSE, 0, 1, "empty message (offset 0)");
    }
    if (len > DM_DXP_MAX_MESSAGE) {
        return dm_error_set(err, DM_EPARSE, 0, DM_DXP_MAX_MESSAGE + 1,
                            "message of %zu characters, at most %d allowed (offset %d)", len,
                            DM_DXP_MAX_MESSAGE, DM_DXP_MAX_MESSAGE);
    }
    for (size_t i = 0; i < len; i++) {
        unsigned char ch = (unsigned char)text[i];
        if (ch == 0 || ch > 127) {
            char d[24];
            return dm_error_set(err, DM_EPARSE, 0, (int)i + 1,
                                "%s where 7-bit ASCII 1..127 is required (offset %zu)",
                                char_desc(d, sizeof d, ch), i);
        }
    }
    int type = (unsigned char)text[0];
    if (strcmp(dm_dxp_type_name(type), "unknown") == 0) {
        char d[24];
        return dm_error_set(err, DM_EPARSE, 0, 1,
                            "unknown message header %s (offset 0): C R A M E B K expected",
                            char_desc(d, sizeof d, (unsigned char)type));
    }
    out->type = type;
    cursor c = {text, len, dm_dxp_type_name(type), err};
    dm_status st = parse_body(out, &c);
    if (st != DM_OK) {
        memset(out, 0, sizeof *out);
        out->type = type;
    }
    return st;
}

/* ---- format -------------------------------------------------------------------------- */

static dm_status out_of_range(dm_error *err, const char *what, int v)
{
    return dm_error_set(err, DM_EINVAL, 0, 0, "%s %d out of range", what, v);
}

static int name_ok(const char *name)
{
    size_t n = bounded_len(name, DM_DXP_NAME_LEN + 1);
    if (n == 0 || n > DM_DXP_NAME_LEN || name[0] == ' ') {
        return 0;
    }
    for (size_t i = 0; i < n; i++) {
        if ((unsigned char)name[i] < 32 || (unsigned char)name[i] > 126) {
            return 0;
        }
    }
    return 1;
}

/* The three characters of a thinking time of ms milliseconds into t; 0 when it has no
 * exact three-character form. */
static int time_text(char t[4], int ms)
{
    if (ms < 0 || ms % 600 != 0) {
        return 0;
    }
    int h = ms / 600; /* hundredths of a minute */
    if (h % 100 == 0 && h / 100 <= 999) {
        snprintf(t, 4, "%03d", h / 100);
    } else if (h < 100) {
        snprintf(t, 4, ".%02d", h);
    } else if (h < 1000 && h % 10 == 0) {
        snprintf(t, 4, "%d.%d", h / 100, h / 10 % 10);
    } else {
        return 0;
    }
    return 1;
}

static int color_char(int c)
{
    return c == DM_WHITE ? 'W' : c == DM_BLACK ? 'Z' : 0;
}

dm_status dm_dxp_format(char *buf, size_t cap, size_t *len, const dm_dxp_msg *m, dm_error *err)
{
    if (!buf || !m) {
        return dm_error_set(err, DM_EINVAL, 0, 0, "NULL argument");
    }
    char s[DM_DXP_MAX_MESSAGE + 2];
    int n = 0;
    switch (m->type) {
        case DM_DXP_CHAT: {
            size_t tl = bounded_len(m->text, sizeof m->text);
            if (tl == 0 || tl > DM_DXP_MAX_CHAT) {
                return dm_error_set(err, DM_EINVAL, 0, 0, "CHAT text of 1..126 characters needed");
            }
            for (size_t i = 0; i < tl; i++) {
                if ((unsigned char)m->text[i] > 127) {
                    return dm_error_set(err, DM_EINVAL, 0, 0, "CHAT text not 7-bit ASCII");
                }
            }
            n = snprintf(s, sizeof s, "C%s", m->text);
            break;
        }
        case DM_DXP_GAMEREQ: {
            char t[4];
            if (m->version < 0 || m->version > 99) {
                return out_of_range(err, "GAMEREQ protocol version", m->version);
            }
            if (!name_ok(m->name)) {
                return dm_error_set(err, DM_EINVAL, 0, 0,
                                    "GAMEREQ name: 1..32 printable characters, no leading space");
            }
            if (!color_char(m->follower_color)) {
                return out_of_range(err, "GAMEREQ follower's colour", m->follower_color);
            }
            if (!time_text(t, m->time_ms)) {
                return dm_error_set(err, DM_EINVAL, 0, 0,
                                    "GAMEREQ thinking time %d ms has no 3-character form",
                                    m->time_ms);
            }
            if (m->moves < 0 || m->moves > 999) {
                return out_of_range(err, "GAMEREQ number of moves", m->moves);
            }
            n = snprintf(s, sizeof s, "R%02d%-32s%c%s%03d%c", m->version, m->name,
                         color_char(m->follower_color), t, m->moves, m->has_position ? 'B' : 'A');
            if (m->has_position) {
                char pos[52];
                dm_dxp_position_text(pos, sizeof pos, &m->position);
                n += snprintf(s + n, sizeof s - (size_t)n, "%s", pos);
            }
            break;
        }
        case DM_DXP_GAMEACC:
            if (!name_ok(m->name)) {
                return dm_error_set(err, DM_EINVAL, 0, 0,
                                    "GAMEACC name: 1..32 printable characters, no leading space");
            }
            if (m->acceptance < 0 || m->acceptance > 3) {
                return out_of_range(err, "GAMEACC acceptance code", m->acceptance);
            }
            n = snprintf(s, sizeof s, "A%-32s%d", m->name, m->acceptance);
            break;
        case DM_DXP_MOVE:
            if (m->seconds < 0 || m->seconds > 9999) {
                return out_of_range(err, "MOVE time", m->seconds);
            }
            if (m->from < 1 || m->from > DXP_SQUARES || m->to < 1 || m->to > DXP_SQUARES) {
                return out_of_range(err, "MOVE square",
                                    m->from < 1 || m->from > 50 ? m->from : m->to);
            }
            if (m->ncaptured < 0 || m->ncaptured > DM_DXP_MAX_CAPTURED) {
                return out_of_range(err, "MOVE number captured", m->ncaptured);
            }
            n = snprintf(s, sizeof s, "M%04d%02d%02d%02d", m->seconds, m->from, m->to,
                         m->ncaptured);
            for (int i = 0; i < m->ncaptured; i++) {
                int q = m->captured[i];
                if (q < 1 || q > DXP_SQUARES || q == m->from) {
                    return out_of_range(err, "MOVE captured square", q);
                }
                for (int k = 0; k < i; k++) {
                    if (m->captured[k] == q) {
                        return out_of_range(err, "MOVE captured square given twice:", q);
                    }
                }
                n += snprintf(s + n, sizeof s - (size_t)n, "%02d", q);
            }
            break;
        case DM_DXP_GAMEEND:
            if (m->reason < 0 || m->reason > 3) {
                return out_of_range(err, "GAMEEND reason", m->reason);
            }
            if (m->stop < 0 || m->stop > 1) {
                return out_of_range(err, "GAMEEND stop code", m->stop);
            }
            n = snprintf(s, sizeof s, "E%d%d", m->reason, m->stop);
            break;
        case DM_DXP_BACKREQ:
            if (m->move_number < 1 || m->move_number > 999) {
                return out_of_range(err, "BACKREQ move number", m->move_number);
            }
            if (!color_char(m->color)) {
                return out_of_range(err, "BACKREQ colour", m->color);
            }
            n = snprintf(s, sizeof s, "B%03d%c", m->move_number, color_char(m->color));
            break;
        case DM_DXP_BACKACC:
            if (m->back_code < 0 || m->back_code > 2) {
                return out_of_range(err, "BACKACC code", m->back_code);
            }
            n = snprintf(s, sizeof s, "K%d", m->back_code);
            break;
        default:
            return dm_error_set(err, DM_EINVAL, 0, 0, "unknown message type %d", m->type);
    }
    if (n < 0 || (size_t)n >= cap) {
        return dm_error_set(err, DM_EBUFS, 0, 0, "buffer of %zu bytes too small for %d", cap, n);
    }
    memcpy(buf, s, (size_t)n + 1);
    if (len) {
        *len = (size_t)n;
    }
    return DM_OK;
}

/* ---- splitter ------------------------------------------------------------------------ */

void dm_dxp_splitter_init(dm_dxp_splitter *s)
{
    memset(s, 0, sizeof *s);
}

size_t dm_dxp_splitter_pending(const dm_dxp_splitter *s)
{
    return s->skipping ? s->skipped : s->len;
}

void dm_dxp_splitter_reset(dm_dxp_splitter *s)
{
    dm_dxp_splitter_init(s);
}

dm_dxp_split_result dm_dxp_split(dm_dxp_splitter *s, const char *data, size_t len, size_t *used,
                                 const char **msg, size_t *msg_len, dm_error *err)
{
    size_t i = 0;
    *msg = NULL;
    *msg_len = 0;
    while (i < len) {
        char ch = data[i++];
        if (s->skipping) {
            if (ch == 0) {
                s->skipping = 0;
                s->skipped = 0;
                s->len = 0;
            } else {
                s->skipped++;
            }
            continue;
        }
        if (ch == 0) {
            if (s->len == 0) {
                *used = i;
                dm_error_set(err, DM_EPARSE, 0, 1, "empty message (a NUL with nothing before it)");
                return DM_DXP_SPLIT_ERROR;
            }
            s->buf[s->len] = 0;
            *msg = s->buf;
            *msg_len = s->len;
            s->len = 0;
            *used = i;
            return DM_DXP_SPLIT_MESSAGE;
        }
        if (s->len == DM_DXP_MAX_MESSAGE) {
            /* the 128th character without a NUL: report once, skip to the next NUL */
            s->skipping = 1;
            s->skipped = s->len + 1;
            s->len = 0;
            *used = i;
            dm_error_set(err, DM_EPARSE, 0, DM_DXP_MAX_MESSAGE + 1,
                         "message longer than %d characters without its NUL terminator "
                         "(starts '%.16s'): skipped up to the next NUL",
                         DM_DXP_MAX_MESSAGE, s->buf);
            return DM_DXP_SPLIT_ERROR;
        }
        s->buf[s->len++] = ch;
    }
    *used = i;
    return DM_DXP_SPLIT_MORE;
}

/* ---- moves --------------------------------------------------------------------------- */

/* DXP plays international draughts: 1 when b is an international position. */
static int international(const dm_board *b)
{
    return b && b->variant && b->variant->id == DM_VARIANT_INTERNATIONAL;
}

/* The squares m captures, ascending, into sq[] (at most cap); returns how many. */
static int captured_squares(const dm_board *b, const dm_move *m, int *sq, int cap)
{
    int n = 0;
    for (int s = 1; s <= b->variant->squares && n < cap; s++) {
        if (dm_move_captures(m, s)) {
            sq[n++] = s;
        }
    }
    return n;
}

dm_status dm_dxp_move_from(dm_dxp_msg *out, const dm_board *position, const dm_move *move,
                           int seconds)
{
    if (!out || !move || !international(position)) {
        return DM_EINVAL;
    }
    dm_movelist list;
    dm_movegen_legal(&list, position);
    int legal = 0;
    for (int i = 0; i < list.count && !legal; i++) {
        legal = dm_move_same(&list.moves[i], move);
    }
    if (!legal) {
        return DM_EINVAL;
    }
    dm_dxp_msg_init(out, DM_DXP_MOVE);
    out->seconds = seconds < 0 ? 0 : seconds > 9999 ? 9999 : seconds;
    out->from = move->from;
    out->to = move->to;
    out->ncaptured = captured_squares(position, move, out->captured, DM_DXP_MAX_CAPTURED);
    return DM_OK;
}

/* The set of squares of a capture list as a bit mask over 1..50. */
static unsigned long long square_set(const int *sq, int n)
{
    unsigned long long set = 0;
    for (int i = 0; i < n; i++) {
        set |= 1ull << sq[i];
    }
    return set;
}

static void move_hub(char *buf, size_t cap, const dm_board *b, const dm_move *m)
{
    dm_move_to_text(buf, cap, b, m, DM_NOTATION_HUB, DM_SQUARES_NUMERIC);
}

dm_status dm_dxp_move_match(dm_move *out, const dm_board *position, const dm_dxp_msg *msg,
                            dm_error *err)
{
    if (!out || !position || !msg || msg->type != DM_DXP_MOVE || msg->ncaptured < 0 ||
        msg->ncaptured > DM_DXP_MAX_CAPTURED) {
        return dm_error_set(err, DM_EINVAL, 0, 0, "not a MOVE message");
    }
    if (!international(position)) {
        return dm_error_set(err, DM_EINVAL, 0, 0, "DXP plays international draughts, not %s",
                            position->variant ? position->variant->title : "(no variant)");
    }
    const dm_board *b = position;
    dm_movelist list;
    dm_movegen_legal(&list, b);
    unsigned long long want = square_set(msg->captured, msg->ncaptured);
    int found = -1, nfrom_to = 0, first_ft = -1;
    for (int i = 0; i < list.count; i++) {
        const dm_move *m = &list.moves[i];
        if (m->from != msg->from || m->to != msg->to) {
            continue;
        }
        nfrom_to++;
        if (first_ft < 0) {
            first_ft = i;
        }
        int sq[DM_DXP_MAX_CAPTURED + 12];
        int n = captured_squares(b, m, sq, (int)(sizeof sq / sizeof sq[0]));
        if (n == msg->ncaptured && square_set(sq, n) == want) {
            found = i; /* sets are unique per from/to among legal moves */
        }
    }
    if (found >= 0) {
        *out = list.moves[found];
        return DM_OK;
    }
    if (msg->ncaptured == 0 && nfrom_to == 1) {
        *out = list.moves[first_ft];
        return DM_OK;
    }
    char text[64];
    int k = snprintf(text, sizeof text, "%d%c%d", msg->from, msg->ncaptured ? 'x' : '-', msg->to);
    for (int i = 0; i < msg->ncaptured && k > 0 && (size_t)k < sizeof text; i++) {
        k += snprintf(text + k, sizeof text - (size_t)k, "x%d", msg->captured[i]);
    }
    if (msg->ncaptured == 0 && nfrom_to > 1) {
        char cands[160] = "";
        size_t used = 0;
        for (int i = 0; i < list.count && used + 40 < sizeof cands; i++) {
            const dm_move *m = &list.moves[i];
            if (m->from == msg->from && m->to == msg->to) {
                char t[160];
                move_hub(t, sizeof t, b, m);
                used += (size_t)snprintf(cands + used, sizeof cands - used, "%s%s",
                                         used ? ", " : "", t);
            }
        }
        return dm_error_set(err, DM_EAMBIGUOUS, 0, 0,
                            "ambiguous move %s: no captured squares given and %d legal "
                            "captures go from %d to %d (%s)",
                            text, nfrom_to, msg->from, msg->to, cands);
    }
    if (list.count == 0) {
        return dm_error_set(err, DM_EILLEGAL, 0, 0,
                            "illegal move %s: the side to move has "
                            "no legal move",
                            text);
    }
    if (nfrom_to > 0) {
        char t[160];
        move_hub(t, sizeof t, b, &list.moves[first_ft]);
        return dm_error_set(err, DM_EILLEGAL, 0, 0,
                            "illegal move %s: the captured squares do not match a legal "
                            "move from %d to %d (e.g. %s)",
                            text, msg->from, msg->to, t);
    }
    /* No move from/to: let the notation parser say why (empty square, compulsory
     * capture, majority rule, ...). */
    dm_move dummy;
    dm_error why;
    memset(&why, 0, sizeof why);
    char pdn[24];
    snprintf(pdn, sizeof pdn, "%d%c%d", msg->from, msg->ncaptured ? 'x' : '-', msg->to);
    if (dm_move_parse(&dummy, b, pdn, &why) == DM_OK) {
        /* from and to match only with the 'x'/'-' read loosely: still no such move */
        snprintf(why.message, sizeof why.message, "no legal move goes from %d to %d", msg->from,
                 msg->to);
    }
    return dm_error_set(err, DM_EILLEGAL, 0, 0, "illegal move %s: %s", text, why.message);
}

size_t dm_dxp_position_text(char *buf, size_t cap, const dm_board *b)
{
    if (cap < 52 || !b || !b->variant || b->variant->squares != DXP_SQUARES) {
        if (cap) {
            buf[0] = 0;
        }
        return 0;
    }
    buf[0] = b->side == DM_WHITE ? 'W' : 'Z';
    for (int sq = 1; sq <= DXP_SQUARES; sq++) {
        static const char map[] = {'e', 'w', 'z', 'W', 'Z'};
        dm_piece p = dm_board_piece(b, sq);
        buf[sq] = map[p];
    }
    buf[51] = 0;
    return 51;
}
