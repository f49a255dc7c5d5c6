/* SPDX-License-Identifier: MIT
 * proto/hub.c: the Hub protocol line codec (pure text in, structs out, and back).
 *
 * Grammar of a line (Hub 2, as Scan 3.1 reads it):
 *   line  = blank* word (blank+ pair)* blank*
 *   pair  = word [ "=" value ]            a pair without "=" is a flag
 *   value = word | '"' (any char but '"')* '"'
 *   word  = 1*(any printable char but blank, '=' and '"')
 * Blanks are spaces and tabs; a trailing "\r\n" is dropped. */
#define _POSIX_C_SOURCE 200809L
#include <damier/hub.h>

#include <stdio.h>
#include <string.h>

static int is_blank(char c)
{
    return c == ' ' || c == '\t';
}

static int is_word_char(char c)
{
    return (unsigned char)c > ' ' && c != '=' && c != '"' && c != 0x7F;
}

dm_status dm_hub_parse_line(dm_hub_cmd *out, const char *line, dm_error *err)
{
    memset(out, 0, offsetof(dm_hub_cmd, storage));
    out->name = "";
    size_t len = strlen(line);
    while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r')) {
        len--;
    }
    if (len > DM_HUB_MAX_LINE) {
        return dm_error_set(err, DM_EPARSE, 1, DM_HUB_MAX_LINE + 1,
                            "line too long (%zu bytes, at most %d)", len, DM_HUB_MAX_LINE);
    }
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)line[i];
        if ((c < ' ' && c != '\t') || c == 0x7F) {
            return dm_error_set(err, DM_EPARSE, 1, (int)i + 1, "control character 0x%02X in line",
                                c);
        }
    }
    char *st = out->storage;
    size_t i = 0, o = 0;
    int first = 1;
    for (;;) {
        while (i < len && is_blank(line[i])) {
            i++;
        }
        if (i >= len) {
            break;
        }
        if (!is_word_char(line[i])) {
            return dm_error_set(err, DM_EPARSE, 1, (int)i + 1, "expected a name, found '%c'",
                                line[i]);
        }
        size_t start = o;
        while (i < len && is_word_char(line[i])) {
            st[o++] = line[i++];
        }
        st[o++] = 0;
        if (first) {
            out->name = &st[start];
            first = 0;
            if (i < len && !is_blank(line[i])) {
                return dm_error_set(err, DM_EPARSE, 1, (int)i + 1,
                                    "unexpected '%c' after the command name", line[i]);
            }
            continue;
        }
        const char *name = &st[start];
        const char *value = "";
        int has_value = 0;
        if (i < len && line[i] == '=') {
            i++;
            has_value = 1;
            size_t vstart = o;
            if (i < len && line[i] == '"') {
                size_t q = i++;
                while (i < len && line[i] != '"') {
                    st[o++] = line[i++];
                }
                if (i >= len) {
                    return dm_error_set(err, DM_EPARSE, 1, (int)q + 1,
                                        "unterminated quoted value of '%s'", name);
                }
                i++; /* closing quote */
            } else {
                while (i < len && is_word_char(line[i])) {
                    st[o++] = line[i++];
                }
            }
            st[o++] = 0;
            value = &st[vstart];
            if (i < len && !is_blank(line[i])) {
                return dm_error_set(err, DM_EPARSE, 1, (int)i + 1,
                                    "unexpected '%c' after the value of '%s'", line[i], name);
            }
        } else if (i < len && !is_blank(line[i])) {
            return dm_error_set(err, DM_EPARSE, 1, (int)i + 1, "unexpected '%c' after '%s'",
                                line[i], name);
        }
        if (out->pair_count < DM_HUB_MAX_PAIRS) {
            out->pair[out->pair_count].name = name;
            out->pair[out->pair_count].value = value;
            out->pair[out->pair_count].has_value = has_value;
            out->pair_count++;
        }
    }
    return DM_OK;
}

const char *dm_hub_get(const dm_hub_cmd *cmd, const char *name)
{
    for (int i = 0; i < cmd->pair_count; i++) {
        if (!strcmp(cmd->pair[i].name, name)) {
            return cmd->pair[i].value;
        }
    }
    return NULL;
}

int dm_hub_has(const dm_hub_cmd *cmd, const char *name)
{
    return dm_hub_get(cmd, name) != NULL;
}

size_t dm_hub_append_pair(char *buf, size_t cap, const char *name, const char *value)
{
    size_t len = cap ? strnlen(buf, cap) : 0;
    int quote = !*value || strpbrk(value, " \t=\"") != NULL;
    size_t need = len + 1 + strlen(name) + 1 + strlen(value) + (quote ? 2 : 0);
    if (need + 1 > cap) {
        return need;
    }
    char *p = buf + len;
    p += sprintf(p, " %s=%s", name, quote ? "\"" : "");
    for (const char *v = value; *v; v++) {
        *p++ = *v == '"' ? '\'' : *v;
    }
    if (quote) {
        *p++ = '"';
    }
    *p = 0;
    return need;
}

size_t dm_hub_format_info(char *buf, size_t cap, const dm_board *root, const dm_info *info)
{
    char pv[DM_ENGINE_MAX_PV * 48] = "";
    size_t pl = 0;
    dm_board b = *root;
    for (int i = 0; i < info->pv_count && pl + 410 < sizeof pv; i++) {
        if (i > 0) {
            pv[pl++] = ' ';
        }
        pl += dm_move_to_text(pv + pl, sizeof pv - pl, &b, &info->pv[i], DM_NOTATION_HUB,
                              DM_SQUARES_NUMERIC);
        dm_board_apply(&b, &info->pv[i]);
    }
    pv[pl < sizeof pv ? pl : sizeof pv - 1] = 0;
    /* A database win or loss (DM_SCORE_EGDB - d) is shown in Scan's band, +/-89.xx
     * ("bitbase win/loss soon"; hub-protocol.md), with egdb=win|loss and dtc=d (plies to
     * the conversion) beside it; a forced game end stays +/-99.xx. */
    int sc = info->score, a = sc < 0 ? -sc : sc;
    char extra[48] = "";
    double shown = sc / 100.0;
    if (a >= DM_SCORE_EGDB_MIN && a < DM_SCORE_WIN_MIN) {
        shown = (sc > 0 ? sc + 1000 : sc - 1000) / 100.0;
        snprintf(extra, sizeof extra, " egdb=%s dtc=%d", sc > 0 ? "win" : "loss",
                 DM_SCORE_EGDB - a);
    }
    int n = snprintf(buf, cap,
                     "info depth=%d seldepth=%d score=%.2f%s nodes=%llu time=%.3f "
                     "nps=%.2f pv=\"%s\"\n",
                     info->depth, info->seldepth, shown, extra, (unsigned long long)info->nodes,
                     info->time, info->nps / 1e6, pv);
    return n < 0 ? 0 : (size_t)n;
}
