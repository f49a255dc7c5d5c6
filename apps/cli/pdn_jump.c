/* SPDX-License-Identifier: MIT
 * apps/cli/pdn_jump.c: `damier pdn check|convert` for files of jumping-game records
 * (damier/jump.h: a Game tag naming chinese-checkers, halma or gewu). The output has
 * the form of the draughts records' (cmd_pdn.c):
 *   FILE:LINE:COL: game N (A - B - C): move 12 TEXT: REASON; position before: POS
 *   FILE:LINE:COL: game N: REASON           (a game that cannot be read)
 * convert writes each game normalised (every action rewritten from its position, the
 * tags Game, Players, Board, Options, FEN first, the others kept, Result last). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <damier/jump.h>

#include "commands.h"

/* The seat names of rec: its SeatA.. tags, "?" when absent, " - " between. */
static void seat_names(char *buf, size_t size, const dm_jrecord *rec, int players)
{
    size_t len = 0;
    buf[0] = 0;
    for (int s = 0; s < players && len < size; s++) {
        char tag[8];
        snprintf(tag, sizeof tag, "Seat%c", 'A' + s);
        const char *v = dm_jrecord_tag_value(rec, tag);
        len +=
            (size_t)snprintf(buf + len, size - len, "%s%.40s", s ? " - " : "", v && *v ? v : "?");
    }
}

/* Report what replaying rec found on f; returns 0 (legal), 1 (illegal), 2 (rules or
 * position unreadable). */
static int report(FILE *f, const char *path, const dm_jrecord *rec, dm_jrules *r, dm_jreplay *rep)
{
    dm_error err;
    if (dm_jrecord_rules(r, rec, &err) != DM_OK) {
        fprintf(f, "%s:%d: game %d: %s\n", path, rec->line, rec->number, err.message);
        return 2;
    }
    char names[300];
    seat_names(names, sizeof names, rec, r->players);
    dm_status st = dm_jreplay_record(rep, r, rec);
    if (st == DM_ENOMEM) {
        fprintf(stderr, "damier pdn: out of memory\n");
        return -1;
    }
    if (st == DM_OK) {
        return 0;
    }
    if (rep->bad >= 0) {
        const dm_jrecord_item *it = &rec->items[rep->bad];
        fprintf(f, "%s:%d:%d: game %d (%s): move %d %s: %s; position before: %s\n", path,
                rep->err.line, rep->err.column, rec->number, names, rep->bad + 1, it->text,
                rep->err.message, rep->pos_before);
        return 1;
    }
    if (rep->pos_before[0]) { /* the result */
        fprintf(f, "%s:%d:%d: game %d (%s): %s; final position: %s\n", path, rep->err.line,
                rep->err.column, rec->number, names, rep->err.message, rep->pos_before);
        return 1;
    }
    fprintf(f, "%s:%d: game %d (%s): %s\n", path, rec->line, rec->number, names, rep->err.message);
    return 2;
}

int pdn_jump_file(const char *path, const char *text, size_t len, FILE *out, int *games, int *legal,
                  int *illegal, int *unreadable)
{
    dm_jrecord_reader rd;
    dm_jrecord_reader_init(&rd, text, len);
    static dm_jrules r;
    int rc = 0;
    for (;;) {
        dm_jrecord *rec;
        dm_error err;
        dm_status st = dm_jrecord_next(&rec, &rd, &err);
        if (st == DM_EPARSE) {
            ++*games;
            ++*unreadable;
            fprintf(out ? stderr : stdout, "%s:%d:%d: %s%s\n", path, err.line, err.column,
                    err.message, out ? " (not converted)" : "");
            rc = out ? 1 : rc;
            continue;
        }
        if (st != DM_OK) {
            fprintf(stderr, "damier pdn: %s: %s\n", path, err.message);
            return 2;
        }
        if (!rec) {
            break;
        }
        ++*games;
        dm_jreplay rep;
        memset(&rep, 0, sizeof rep);
        int v = report(out ? stderr : stdout, path, rec, &r, &rep);
        if (v < 0) {
            dm_jreplay_free(&rep);
            dm_jrecord_free(rec);
            return 2;
        }
        *legal += v == 0;
        *illegal += v == 1;
        *unreadable += v == 2;
        if (out) {
            rc = v ? 1 : rc;
            char *pdn = NULL;
            size_t n = 0;
            dm_jrecord *norm = NULL;
            if (v == 2) {
                /* the rules or start cannot be read: written as read */
                st = dm_jrecord_write(&pdn, &n, rec);
            } else {
                /* legal up to the bad action: the legal part normalised, then the rest
                 * as read */
                st = dm_jrecord_build(&norm, &r, &rep.start, rep.actions, rep.nactions, rec->tags,
                                      rec->ntags, rec->result);
                for (int i = rep.nactions; st == DM_OK && i < rec->nitems; i++) {
                    dm_jrecord_item *items =
                        realloc(norm->items, sizeof *items * (size_t)(norm->nitems + 1));
                    char *t = strdup(rec->items[i].text);
                    if (!items || !t) {
                        free(t);
                        if (items) {
                            norm->items = items;
                        }
                        st = DM_ENOMEM;
                        break;
                    }
                    norm->items = items;
                    items[norm->nitems++] = (dm_jrecord_item){t, 0, 0, 0};
                }
                if (st == DM_OK) {
                    st = dm_jrecord_write(&pdn, &n, norm);
                }
                dm_jrecord_free(norm);
            }
            if (st != DM_OK) {
                fprintf(stderr, "damier pdn: out of memory writing %s game %d\n", path,
                        rec->number);
                dm_jreplay_free(&rep);
                dm_jrecord_free(rec);
                return 2;
            }
            fwrite(pdn, 1, n, out);
            free(pdn);
        }
        dm_jreplay_free(&rep);
        dm_jrecord_free(rec);
    }
    return rc;
}
