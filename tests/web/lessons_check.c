/* SPDX-License-Identifier: MIT
 * tests/web/lessons_check.c (ctest test_lessons): the course of the web board (the JSON files of web/lessons/, issue 19)
 * checked by the rules core and the engine: every lesson's position is a valid FEN;
 * every accepted move and the opponent's answer is legal there and written as the
 * page receives it (the PDN text of dm_move10_to_text, so that the page's comparison
 * holds); every "wrong" example is refused by the rules with the message the lesson
 * promises (the rule: "capture is compulsory (FMJD 4.1)", ...); every text is in
 * English, Simplified and Traditional Chinese; a lesson marked "check": "shot" is a
 * unique win found by the engine (dm_puzzle_examine at depth 10) whose line is the
 * lesson's. Usage: test_lessons FILE...; exit 1 with one line per problem. */
#include <damier/board10.h>
#include <damier/engine.h>
#include <damier/move10.h>
#include <damier/puzzle.h>
#include <damier/variant.h>
#include <jansson.h>
#include <stdio.h>
#include <string.h>

static int problems;

static void problem(const char *file, const char *lesson, const char *fmt, const char *what)
{
    fprintf(stderr, "%s: lesson \"%s\": ", file, lesson);
    fprintf(stderr, fmt, what);
    fputc('\n', stderr);
    problems++;
}

/* o has a non-empty text in each of the three languages */
static void texts(const char *file, const char *lesson, const json_t *o, const char *field)
{
    static const char *const langs[] = {"en", "zh-Hans", "zh-Hant"};
    for (int i = 0; i < 3; i++) {
        const char *s = json_string_value(json_object_get(o, langs[i]));
        if (!s || !*s) {
            char what[80];
            snprintf(what, sizeof what, "%s in %s", field, langs[i]);
            problem(file, lesson, "no %s", what);
        }
    }
}

/* A lesson's position: international on its own board (as the server's
 * /api/position reads it), another variant on the generic one. */
typedef struct pos {
    const dm_variant *v; /* NULL: international */
    dm_board10 b;
    dm_board vb;
} pos;

typedef struct pmove {
    dm_move10 m;
    dm_move vm;
} pmove;

static dm_status pos_parse(pmove *out, const pos *p, const char *text, dm_error *e)
{
    return p->v ? dm_move_parse(&out->vm, &p->vb, text, e)
                : dm_move10_parse(&out->m, &p->b, text, e);
}

static void pos_apply(pos *p, const pmove *m)
{
    if (p->v) {
        dm_board_apply(&p->vb, &m->vm);
    } else {
        dm_board10_apply(&p->b, &m->m);
    }
}

/* text as a legal move of b written as the page gets it; 0 and a problem otherwise */
static int legal(const char *file, const char *lesson, const pos *b, const char *text, pmove *out)
{
    dm_error e;
    memset(&e, 0, sizeof e);
    if (!text || pos_parse(out, b, text, &e) != DM_OK) {
        problem(file, lesson, "a lesson move is not legal: %s", text ? e.message : "(not a text)");
        return 0;
    }
    char canon[200];
    if (b->v) {
        dm_move_to_text(canon, sizeof canon, &b->vb, &out->vm, DM_NOTATION_PDN, DM_SQUARES_DEFAULT);
    } else {
        dm_move10_to_text(canon, sizeof canon, &b->b, &out->m, DM_NOTATION_PDN);
    }
    if (strcmp(canon, text) != 0) {
        problem(file, lesson, "move \"%s\" is not written as the page receives it", text);
        return 0;
    }
    return 1;
}

static void check_lesson(const char *file, const json_t *l, const dm_variant *variant,
                         dm_engine *engine)
{
    const char *id = json_string_value(json_object_get(l, "id"));
    if (!id) {
        problem(file, "?", "%s", "a lesson without an id");
        return;
    }
    texts(file, id, json_object_get(l, "title"), "title");
    texts(file, id, json_object_get(l, "text"), "text");
    pos b;
    memset(&b, 0, sizeof b);
    b.v = variant;
    dm_error e;
    memset(&e, 0, sizeof e);
    const char *fen = json_string_value(json_object_get(l, "fen"));
    if (!fen || (variant ? dm_board_from_fen(&b.vb, variant, fen, &e)
                         : (dm_board10_from_fen(&b.b, fen, &e) != DM_OK
                                ? DM_EPARSE
                                : dm_board10_validate(&b.b, &e))) != DM_OK) {
        problem(file, id, "a bad FEN: %s", fen ? e.message : "none");
        return;
    }
    const pos start = b;
    const json_t *steps = json_object_get(l, "steps");
    if (json_array_size(steps) == 0) {
        problem(file, id, "%s", "no steps");
        return;
    }
    dm_move10 line[8];
    int nline = 0;
    size_t i;
    const json_t *st;
    json_array_foreach(steps, i, st)
    {
        texts(file, id, json_object_get(st, "task"), "task");
        size_t k;
        const json_t *w;
        json_array_foreach(json_object_get(st, "wrong"), k, w)
        {
            const char *mv = json_string_value(json_object_get(w, "move"));
            const char *says = json_string_value(json_object_get(w, "says"));
            pmove m;
            memset(&e, 0, sizeof e);
            if (!mv || !says) {
                problem(file, id, "%s", "a wrong example needs \"move\" and \"says\"");
            } else if (pos_parse(&m, &b, mv, &e) == DM_OK) {
                problem(file, id, "the wrong example \"%s\" is legal", mv);
            } else if (!strstr(e.message, says)) {
                problem(file, id, "the rules' refusal does not say it: %s", e.message);
            }
        }
        const json_t *accept = json_object_get(st, "accept");
        if (json_array_size(accept) == 0) {
            problem(file, id, "%s", "a step accepts no move");
            return;
        }
        pmove m, first;
        const json_t *a;
        json_array_foreach(accept, k, a)
        {
            if (!legal(file, id, &b, json_string_value(a), &m)) {
                return;
            }
            if (k == 0) {
                first = m;
            }
        }
        pos_apply(&b, &first);
        line[nline++ % 8] = first.m;
        const char *reply = json_string_value(json_object_get(st, "reply"));
        if (reply) {
            if (!legal(file, id, &b, reply, &m)) {
                return;
            }
            pos_apply(&b, &m);
            line[nline++ % 8] = m.m;
        }
    }
    const char *check = json_string_value(json_object_get(l, "check"));
    if (check && !strcmp(check, "shot") && variant) {
        problem(file, id, "%s", "\"check\": \"shot\" is for international lessons");
    } else if (check && !strcmp(check, "shot")) {
        dm_puzzle p;
        dm_puzzle_options o = DM_PUZZLE_OPTIONS_INIT;
        o.depth = 10;
        memset(&e, 0, sizeof e);
        if (dm_puzzle_examine(&p, engine, &start.b, &o, &e) != DM_OK) {
            problem(file, id, "the engine could not examine it: %s", e.message);
        } else if (p.verdict != DM_PUZZLE_FOUND) {
            problem(file, id, "the engine finds no unique win: %s",
                    dm_puzzle_verdict_str(p.verdict));
        } else {
            for (int j = 0; j < nline && j < p.line_count && j < 8; j++) {
                if (!dm_move10_equal(&p.line[j], &line[j])) {
                    char t[64];
                    snprintf(t, sizeof t, "%d", j + 1);
                    problem(file, id, "the engine's line differs at ply %s", t);
                    break;
                }
            }
        }
    } else if (check) {
        problem(file, id, "unknown check \"%s\"", check);
    }
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_lessons FILE...\n");
        return 2;
    }
    dm_engine *engine = NULL;
    dm_engine_options eo = DM_ENGINE_OPTIONS_INIT;
    eo.tt_mib = 16;
    if (dm_engine_create(&engine, &eo) != DM_OK) {
        fprintf(stderr, "test_lessons: no engine\n");
        return 1;
    }
    int lessons = 0;
    for (int f = 1; f < argc; f++) {
        json_error_t je;
        json_t *c = json_load_file(argv[f], 0, &je);
        if (!c) {
            fprintf(stderr, "%s:%d:%d: %s\n", argv[f], je.line, je.column, je.text);
            problems++;
            continue;
        }
        texts(argv[f], "(course)", json_object_get(c, "title"), "the course's title");
        /* the course's variant: "course" names it (international: its own board) */
        const char *course = json_string_value(json_object_get(c, "course"));
        const dm_variant *variant = NULL;
        dm_error ve;
        memset(&ve, 0, sizeof ve);
        if (!course || (strcmp(course, "international") != 0 &&
                        dm_variant_from_name(&variant, course, &ve) != DM_OK)) {
            problem(argv[f], "(course)", "\"course\" must name a variant: %s",
                    course ? ve.message : "none");
            json_decref(c);
            continue;
        }
        size_t i, j;
        const json_t *l, *l2;
        json_array_foreach(json_object_get(c, "lessons"), i, l)
        {
            check_lesson(argv[f], l, variant, engine);
            lessons++;
            json_array_foreach(json_object_get(c, "lessons"), j, l2)
            {
                if (j < i && json_equal(json_object_get(l, "id"), json_object_get(l2, "id"))) {
                    problem(argv[f], json_string_value(json_object_get(l, "id")), "%s",
                            "two lessons with this id");
                }
            }
        }
        json_decref(c);
    }
    dm_engine_free(engine);
    printf("%d lessons, %d problems\n", lessons, problems);
    return problems || lessons == 0 ? 1 : 0;
}
