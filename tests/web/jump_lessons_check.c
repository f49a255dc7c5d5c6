/* SPDX-License-Identifier: MIT
 * tests/web/jump_lessons_check.c (ctest test_jump_lessons): the jumping games' courses
 * of the web board (web/lessons/chinese-checkers.json, issue 19) checked by the rules
 * core (include/damier/jump.h), as GET /api/jump/position judges them: the course's
 * game and player count exist; every lesson's position string is valid; every
 * accepted move and the opponent's reply is legal, leg by leg, where it is played, and
 * written as the server answers it (dm_jmove_to_text, the page compares the ends);
 * every "wrong" example is refused by the rules with the text it promises; every
 * text is in English, Simplified and Traditional Chinese. Usage: test_jump_lessons
 * FILE...; exit 1 with one line per problem. */
#include <damier/jump.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int problems;

static void problem(const char *file, const char *lesson, const char *what, const char *detail)
{
    fprintf(stderr, "%s: lesson \"%s\": %s%s\n", file, lesson, what, detail ? detail : "");
    problems++;
}

/* o has a non-empty text in each of the three languages */
static void texts(const char *file, const char *lesson, const json_t *o, const char *field)
{
    static const char *const langs[] = {"en", "zh-Hans", "zh-Hant"};
    for (int i = 0; i < 3; i++) {
        const char *s = json_string_value(json_object_get(o, langs[i]));
        if (!s || !*s) {
            char what[96];
            snprintf(what, sizeof what, "no %s in %s", field, langs[i]);
            problem(file, lesson, what, NULL);
        }
    }
}

/* Play text in p (checked as the server checks it); 0 when legal and canonical. */
static int play(const char *file, const char *id, const dm_jrules *r, dm_jpos *p, const char *text,
                const char *role)
{
    dm_error e;
    memset(&e, 0, sizeof e);
    dm_jmove m;
    char what[128];
    if (!text || dm_jmove_from_text(&m, r, p, text, &e) != DM_OK) {
        snprintf(what, sizeof what, "%s \"%s\" is not legal: ", role, text ? text : "(none)");
        problem(file, id, what, e.message);
        return -1;
    }
    char out[DM_JMAX_PATH * 8];
    if (dm_jmove_to_text(out, sizeof out, r, p, &m) != DM_OK || strcmp(out, text) != 0) {
        snprintf(what, sizeof what, "%s \"%s\" is written by the rules core as ", role, text);
        problem(file, id, what, out);
        return -1;
    }
    dm_jpos_apply(p, r, &m);
    return 0;
}

static void check_lesson(const char *file, const json_t *l, const dm_jrules *r)
{
    const char *id = json_string_value(json_object_get(l, "id"));
    if (!id || !*id) {
        problem(file, "?", "no id", NULL);
        return;
    }
    texts(file, id, json_object_get(l, "title"), "title");
    texts(file, id, json_object_get(l, "text"), "text");
    dm_jpos p;
    dm_error e;
    memset(&e, 0, sizeof e);
    const char *pos = json_string_value(json_object_get(l, "pos"));
    if (!pos || dm_jpos_from_text(&p, r, pos, &e) != DM_OK) {
        problem(file, id, "bad position: ", pos ? e.message : "none");
        return;
    }
    if (dm_jpos_winner(&p, r) >= 0) {
        problem(file, id, "the game is over in the position", NULL);
    }
    size_t i, j;
    const json_t *w, *s, *a;
    json_array_foreach(json_object_get(l, "wrong"), i, w)
    { /* a move the lesson shows refused, with the rule's words */
        const char *mv = json_string_value(json_object_get(w, "move"));
        const char *says = json_string_value(json_object_get(w, "says"));
        dm_jmove m;
        if (!mv || !says || dm_jmove_from_text(&m, r, &p, mv, &e) == DM_OK) {
            problem(file, id, "a wrong example is accepted by the rules: ", mv);
        } else if (!strstr(e.message, says)) {
            problem(file, id, "a wrong example is refused for another reason: ", e.message);
        }
    }
    const json_t *steps = json_object_get(l, "steps");
    if (!json_array_size(steps)) {
        problem(file, id, "no steps", NULL);
    }
    json_array_foreach(steps, i, s)
    {
        texts(file, id, json_object_get(s, "task"), "task");
        const json_t *acc = json_object_get(s, "accept");
        if (!json_array_size(acc)) {
            problem(file, id, "a step accepts no move", NULL);
            return;
        }
        json_array_foreach(acc, j, a)
        { /* each accepted move legal here; the first one goes on */
            dm_jpos q = p;
            if (play(file, id, r, &q, json_string_value(a), "accepted move") != 0) {
                return;
            }
            if (j == 0) {
                p = q;
            }
        }
        const char *reply = json_string_value(json_object_get(s, "reply"));
        if (reply && play(file, id, r, &p, reply, "reply") != 0) {
            return;
        }
        if (!reply && i + 1 < json_array_size(steps)) {
            problem(file, id, "a step before the last has no reply (the turn must come back)",
                    NULL);
            return;
        }
    }
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_jump_lessons FILE...\n");
        return 2;
    }
    int lessons = 0;
    dm_jrules *r = malloc(sizeof *r);
    if (!r) {
        return 1;
    }
    for (int f = 1; f < argc; f++) {
        json_error_t je;
        json_t *c = json_load_file(argv[f], 0, &je);
        if (!c) {
            fprintf(stderr, "%s:%d:%d: %s\n", argv[f], je.line, je.column, je.text);
            problems++;
            continue;
        }
        texts(argv[f], "(course)", json_object_get(c, "title"), "the course's title");
        dm_jgame g;
        dm_error e;
        memset(&e, 0, sizeof e);
        const char *game = json_string_value(json_object_get(c, "game"));
        int players = (int)json_integer_value(json_object_get(c, "players"));
        if (!game || dm_jgame_from_name(&g, game, &e) != DM_OK ||
            dm_jrules_init(r, g, players, 0, 0, &e) != DM_OK) {
            problem(argv[f], "(course)",
                    "\"game\" and \"players\" must name a game: ", game ? e.message : "none");
            json_decref(c);
            continue;
        }
        size_t i, k;
        const json_t *l, *l2;
        json_array_foreach(json_object_get(c, "lessons"), i, l)
        {
            check_lesson(argv[f], l, r);
            lessons++;
            json_array_foreach(json_object_get(c, "lessons"), k, l2)
            {
                if (k < i && json_equal(json_object_get(l, "id"), json_object_get(l2, "id"))) {
                    problem(argv[f], json_string_value(json_object_get(l, "id")), "id used twice",
                            NULL);
                }
            }
        }
        json_decref(c);
    }
    free(r);
    if (!lessons) {
        fprintf(stderr, "test_jump_lessons: no lesson read\n");
        return 1;
    }
    printf("test_jump_lessons: %d lessons, %d problems\n", lessons, problems);
    return problems ? 1 : 0;
}
