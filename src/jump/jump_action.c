/* SPDX-License-Identifier: MIT
 * src/jump/jump_action.c: option names, passing, and the actions of a game record
 * (damier/jump.h): a move, a pass, and Ge Wu's throws with what they give. */
#include <stdio.h>
#include <string.h>

#include <damier/jump.h>

#include "jump/jump_int.h"

static const struct {
    unsigned bit;
    const char *name;
} opt_names[] = {
    {DM_JOPT_NO_FOREIGN_CORNER, "no-foreign-corner"},
    {DM_JOPT_GEWU_ONE_THROW, "one-throw"},
    {DM_JOPT_FIFTEEN, "fifteen"},
    {DM_JOPT_ANTI_SPOIL, "anti-spoil"},
    {DM_JOPT_SUPER_JUMP, "super-jump"},
    {DM_JOPT_CAPTURE, "capture"},
    {DM_JOPT_LEAVE_CAMP, "leave-camp"},
};
#define NOPT (sizeof opt_names / sizeof opt_names[0])

const char *dm_jopt_name(unsigned opt)
{
    for (size_t i = 0; i < NOPT; i++) {
        if (opt_names[i].bit == opt) {
            return opt_names[i].name;
        }
    }
    return NULL;
}

dm_status dm_jopts_from_text(unsigned *opts, const char *text, dm_error *err)
{
    unsigned o = 0;
    const char *s = text ? text : "";
    while (*s) {
        size_t n = strcspn(s, ",");
        size_t i = 0;
        for (; i < NOPT; i++) {
            if (strlen(opt_names[i].name) == n && !strncmp(s, opt_names[i].name, n)) {
                o |= opt_names[i].bit;
                break;
            }
        }
        if (i == NOPT) {
            return dm_error_set(err, DM_EPARSE, 0, (int)(s - text) + 1,
                                "unknown option '%.*s' (options: no-foreign-corner, one-throw, "
                                "fifteen, anti-spoil, super-jump, capture, leave-camp)",
                                (int)(n > 40 ? 40 : n), s);
        }
        s += n;
        if (*s == ',') {
            s++;
        }
    }
    *opts = o;
    return DM_OK;
}

dm_status dm_jopts_to_text(char *buf, size_t size, unsigned opts)
{
    size_t len = 0;
    if (size) {
        buf[0] = 0;
    }
    for (size_t i = 0; i < NOPT; i++) {
        if (opts & opt_names[i].bit) {
            int n = snprintf(buf + (len < size ? len : size), len < size ? size - len : 0, "%s%s",
                             len ? "," : "", opt_names[i].name);
            len += (size_t)n;
        }
    }
    return len < size ? DM_OK : DM_EBUFS;
}

void dm_jpos_pass(dm_jpos *p, const dm_jrules *r)
{
    p->moves++;
    p->to_move = (p->to_move + 1) % r->players;
}

/* A seat's distance for the no-progress rule (see dm_jprogress). */
static int progress_distance(const dm_jrules *r, const dm_jpos *p, int s)
{
    const dm_jset *a = &p->pieces[s];
    int sum = 0;
    if (r->options & DM_JOPT_CAPTURE) {
        return jset_count(&p->pieces[0]); /* every seat's progress: the pegs left */
    }
    for (int i = jset_next(a, 0); i >= 0; i = jset_next(a, i + 1)) {
        sum += r->game == DM_JGAME_GEWU ? (s == 0 ? r->squares - i : i + 1) : r->goal_dist[s][i];
    }
    return sum;
}

void dm_jprogress_init(dm_jprogress *pr, const dm_jrules *r, const dm_jpos *p)
{
    memset(pr, 0, sizeof *pr);
    for (int s = 0; s < r->players; s++) {
        pr->best[s] = progress_distance(r, p, s);
    }
}

int dm_jprogress_step(dm_jprogress *pr, const dm_jrules *r, const dm_jpos *p)
{
    int better = 0;
    for (int s = 0; s < r->players; s++) {
        int d = progress_distance(r, p, s);
        if (d < pr->best[s]) {
            pr->best[s] = d;
            better = 1;
        }
    }
    pr->since = better ? 0 : pr->since + 1;
    return pr->since >= DM_JNO_PROGRESS_ROUNDS * r->players;
}

static const char *const face_names[4] = {"wu", "sai", "bai", "hei"};

dm_status dm_jaction_from_text(dm_jaction *a, const dm_jrules *r, const dm_jpos *p,
                               const char *text, dm_error *err)
{
    if (!text) {
        return dm_error_set(err, DM_EINVAL, 0, 0, "no action text");
    }
    dm_jaction act = {DM_JACT_MOVE, -1, {0, 0}};
    dm_jpos q = *p;
    const char *rest = text;
    dm_jmovelist list;
    if (r->game == DM_JGAME_GEWU) {
        for (int f = 0; f < 4; f++) {
            size_t n = strlen(face_names[f]);
            if (!strncmp(text, face_names[f], n) && (text[n] == 0 || (f && text[n] == ':'))) {
                act.face = f;
                rest = text + n + (text[n] == ':');
            }
        }
        if (act.face >= 0 && q.throw_steps) {
            return dm_error_set(err, DM_EILLEGAL, 1, 1,
                                "\"%s\": the throw is already made (%d steps to play): write the "
                                "move alone",
                                text, q.throw_steps);
        }
        if (dm_jpos_winner(&q, r) >= 0) {
            return dm_error_set(err, DM_EILLEGAL, 1, 1, "\"%s\": the game is over", text);
        }
        if (act.face == DM_GEWU_WU) {
            act.kind = DM_JACT_NONE;
            *a = act;
            return DM_OK;
        }
        if (act.face > 0) {
            dm_gewu_throw(&q, r, (dm_gewu_face)act.face);
            if (!*rest) {
                return dm_error_set(err, DM_EPARSE, 1, (int)(rest - text) + 1,
                                    "\"%s\": after the face, the move or 'lost' (e.g. %s:5-6)",
                                    text, face_names[act.face]);
            }
        } else if (!q.throw_steps) {
            return dm_error_set(err, DM_EILLEGAL, 1, 1,
                                "\"%s\": no throw to play: write the face first (wu, sai:..., "
                                "bai:..., hei:...)",
                                text);
        }
        if (!strcmp(rest, "lost")) {
            if (dm_jmovegen(&list, r, &q) > 0) {
                return dm_error_set(err, DM_EILLEGAL, 1, (int)(rest - text) + 1,
                                    "\"%s\": the throw is not lost, it has %d legal moves", text,
                                    list.count);
            }
            act.kind = DM_JACT_LOST;
            *a = act;
            return DM_OK;
        }
    } else if (!strcmp(text, "pass")) {
        if (dm_jpos_winner(&q, r) >= 0) {
            return dm_error_set(err, DM_EILLEGAL, 1, 1, "\"%s\": the game is over", text);
        }
        if (dm_jmovegen(&list, r, &q) > 0) {
            return dm_error_set(err, DM_EILLEGAL, 1, 1,
                                "\"pass\": only a side without a legal move passes (%d legal "
                                "moves)",
                                list.count);
        }
        act.kind = DM_JACT_PASS;
        *a = act;
        return DM_OK;
    }
    dm_status st = dm_jmove_from_text(&act.move, r, &q, rest, err);
    if (st != DM_OK) {
        if (rest != text && err) {
            /* the column within the whole text, and the whole text named */
            int col = err->column + (int)(rest - text);
            char msg[sizeof err->message];
            snprintf(msg, sizeof msg, "%.180s (in \"%.60s\")", err->message, text);
            dm_error_set(err, st, 1, col, "%s", msg);
        }
        return st;
    }
    *a = act;
    return DM_OK;
}

dm_status dm_jaction_to_text(char *buf, size_t size, const dm_jrules *r, const dm_jpos *p,
                             const dm_jaction *a)
{
    dm_jpos q = *p;
    size_t len = 0;
    if (size == 0) {
        return DM_EBUFS;
    }
    buf[0] = 0;
    if (r->game == DM_JGAME_GEWU && a->face >= 0) {
        len = (size_t)snprintf(buf, size, "%s%s", face_names[a->face & 3],
                               a->face == DM_GEWU_WU ? "" : ":");
        if (a->face != DM_GEWU_WU) {
            dm_gewu_throw(&q, r, (dm_gewu_face)a->face);
        }
    }
    if (len >= size) {
        return DM_EBUFS;
    }
    switch (a->kind) {
        case DM_JACT_PASS:
            len += (size_t)snprintf(buf + len, size - len, "pass");
            break;
        case DM_JACT_LOST:
            len += (size_t)snprintf(buf + len, size - len, "lost");
            break;
        case DM_JACT_NONE:
            break;
        default:
            return dm_jmove_to_text(buf + len, size - len, r, &q, &a->move);
    }
    return len < size ? DM_OK : DM_EBUFS;
}

void dm_jaction_apply(dm_jpos *p, const dm_jrules *r, const dm_jaction *a)
{
    if (r->game == DM_JGAME_GEWU && a->face >= 0) {
        dm_gewu_throw(p, r, (dm_gewu_face)a->face);
    }
    switch (a->kind) {
        case DM_JACT_PASS:
            dm_jpos_pass(p, r);
            break;
        case DM_JACT_LOST:
            dm_gewu_forfeit(p, r);
            break;
        case DM_JACT_NONE:
            break;
        default:
            dm_jpos_apply(p, r, &a->move);
            break;
    }
}
