/* SPDX-License-Identifier: MIT
 * tests/web/lessons_check.c (ctest test_lessons): the course of the web board (the JSON files of web/lessons/, issue 19)
 * checked by the rules core and the engine: every lesson's position is a valid FEN;
 * every accepted move and the opponent's answer is legal there and written as the
 * page receives it (the PDN text of dm_move_to_text, so that the page's comparison
 * holds); every "wrong" example is refused by the rules with the message the lesson
 * promises (the rule: "capture is compulsory (FMJD 4.1)", ...); every text is in
 * English, Simplified and Traditional Chinese; a lesson marked "check": "shot" is a
 * unique win found by the engine (dm_puzzle_examine at depth 12) whose line is the
 * lesson's. A lesson marked "check": "win" (any variant) is a forced win kept by every
 * move: after each accepted move, in the game played so far (the draw rules' counters
 * and repetitions carried, so a move that only wastes time toward the 16-move rule
 * fails), the engine searching WIN_DEPTH plies finds the opponent lost (or without a
 * move), and the opponent's "reply" is his longest defence (no quicker loss than the
 * engine's). A step's "weaker" examples ({"move", "why": TEXT}) are legal moves the
 * lesson refuses with a reason, proven by the engine: in a "win" lesson the move does
 * not keep the win; in any other lesson the engine (WEAK_DEPTH plies) scores it at
 * least a man (100) below the step's first accepted move.
 * Usage: test_lessons FILE...; exit 1 with one line per problem. */
#include <damier/engine.h>
#include <damier/game.h>
#include <damier/puzzle.h>
#include <damier/variant.h>
#include <jansson.h>
#include <stdio.h>
#include <string.h>

static int problems;

#define WIN_DEPTH 14    /* plies the engine searches to prove a "win" lesson's move */
#define WEAK_DEPTH 10   /* plies for a "weaker" example of another lesson */
#define WEAK_MARGIN 100 /* a man: how much worse a "weaker" move must score */
#define STR_(x) #x
#define DM_STR(x) STR_(x)

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

/* text as a legal move of b written as the page gets it; 0 and a problem otherwise */
static int legal(const char *file, const char *lesson, const dm_board *b, const char *text,
                 dm_move *out)
{
    dm_error e;
    memset(&e, 0, sizeof e);
    if (!text || dm_move_parse(out, b, text, &e) != DM_OK) {
        problem(file, lesson, "a lesson move is not legal: %s", text ? e.message : "(not a text)");
        return 0;
    }
    char canon[400];
    dm_move_to_text(canon, sizeof canon, b, out, DM_NOTATION_PDN, DM_SQUARES_DEFAULT);
    if (strcmp(canon, text) != 0) {
        problem(file, lesson, "move \"%s\" is not written as the page receives it", text);
        return 0;
    }
    return 1;
}

/* The engine's score of g's current position for the side to move, searched depth
 * plies with the game's draw counters and repetitions; a side without a move has lost
 * (-DM_SCORE_WIN). 0 and a problem when the engine fails. */
static int game_score(int *score, dm_engine *engine, const dm_game *g, int depth)
{
    uint64_t hist[DM_ENGINE_MAX_HISTORY];
    dm_search_input in;
    dm_search_input_from_game(&in, hist, DM_ENGINE_MAX_HISTORY, g);
    dm_limits lim;
    memset(&lim, 0, sizeof lim);
    lim.depth = depth;
    lim.analyse = 1;
    dm_result r;
    dm_error e;
    memset(&e, 0, sizeof e);
    dm_engine_clear(engine);
    if (dm_engine_search(&r, engine, &in, &lim, NULL, NULL, &e) != DM_OK) {
        return 0;
    }
    *score = r.has_move ? r.score : -DM_SCORE_WIN;
    return 1;
}

/* The score for the mover of text played in g (searched depth plies from the
 * opponent's side), g unchanged; 0 when text cannot be played or searched. */
static int move_score(int *score, dm_engine *engine, dm_game *g, const char *text, int depth)
{
    dm_error e;
    memset(&e, 0, sizeof e);
    if (dm_game_play_text(g, text, &e) != DM_OK) {
        return 0;
    }
    int s = 0;
    int ok = game_score(&s, engine, g, depth);
    dm_game_undo(g);
    *score = -s;
    return ok;
}

/* Whether move line[j] of the lesson, played after line[0..j) from start, scores for
 * its mover (WEAK_DEPTH plies) at least as well as the engine's choice other, less a
 * tenth of a man. */
static int as_good(dm_engine *engine, const dm_board *start, const dm_move *line, int j,
                   const dm_move *other)
{
    dm_game *g = NULL;
    if (dm_game_new(&g, start) != DM_OK) {
        return 0;
    }
    int ok = 1;
    for (int k = 0; k < j && ok; k++) {
        ok = dm_game_play(g, &line[k]) == DM_OK;
    }
    int mine = 0, theirs = 0;
    if (ok && dm_game_play(g, &line[j]) == DM_OK) {
        ok = game_score(&mine, engine, g, WEAK_DEPTH);
        dm_game_undo(g);
    } else {
        ok = 0;
    }
    if (ok && dm_game_play(g, other) == DM_OK) {
        ok = game_score(&theirs, engine, g, WEAK_DEPTH);
        dm_game_undo(g);
    } else {
        ok = 0;
    }
    dm_game_free(g);
    return ok && -mine >= -theirs - 10;
}

/* "check": "win" and the "weaker" examples, on a game from the lesson's start
 * (steps already checked legal by check_lesson) */
static void check_engine(const char *file, const char *id, const json_t *l, const dm_board *start,
                         int win, dm_engine *engine)
{
    dm_error e;
    memset(&e, 0, sizeof e);
    dm_game *g = NULL;
    if (dm_game_new(&g, start) != DM_OK) {
        problem(file, id, "%s", "no game from the position");
        return;
    }
    const int depth = win ? WIN_DEPTH : WEAK_DEPTH;
    size_t i;
    const json_t *st;
    json_array_foreach(json_object_get(l, "steps"), i, st)
    {
        const json_t *accept = json_object_get(st, "accept");
        const char *first = json_string_value(json_array_get(accept, 0));
        int best = 0;
        size_t k;
        const json_t *a;
        json_array_foreach(accept, k, a)
        {
            int s = 0;
            if (!move_score(&s, engine, g, json_string_value(a), depth)) {
                problem(file, id, "the engine could not search after %s", json_string_value(a));
            } else if (win && s < DM_SCORE_WIN_MIN) {
                problem(file, id,
                        "the engine (" DM_STR(
                            WIN_DEPTH) " plies) finds no forced win after the accepted move %s",
                        json_string_value(a));
            }
            if (k == 0) {
                best = s;
            }
        }
        const json_t *w;
        json_array_foreach(json_object_get(st, "weaker"), k, w)
        {
            const char *mv = json_string_value(json_object_get(w, "move"));
            texts(file, id, json_object_get(w, "why"), "why");
            int s = 0;
            int accepted = 0;
            size_t j;
            json_array_foreach(accept, j, a)
            {
                accepted |= mv && !strcmp(mv, json_string_value(a));
            }
            if (!mv || accepted) {
                problem(file, id, "a weaker example needs a move the step does not accept: %s",
                        mv ? mv : "none");
            } else if (!move_score(&s, engine, g, mv, depth)) {
                problem(file, id, "the weaker example %s is not a legal move", mv);
            } else if (s > best - WEAK_MARGIN) {
                problem(file, id, "the engine does not find %s a man worse", mv);
            }
        }
        if (dm_game_play_text(g, first, &e) != DM_OK) {
            break;
        }
        const char *reply = json_string_value(json_object_get(st, "reply"));
        if (reply) {
            /* the reply is the longest defence: the win after it is no shorter than the
             * engine's (scores count plies to the end: WIN - d) */
            int after;
            if (dm_game_play_text(g, reply, &e) != DM_OK || !game_score(&after, engine, g, depth)) {
                problem(file, id, "the engine could not search after the reply %s", reply);
                break;
            }
            if (win && after > best + 1) {
                problem(file, id, "the reply %s is not the longest defence", reply);
            }
        }
    }
    dm_game_free(g);
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
    dm_board b;
    dm_error e;
    memset(&e, 0, sizeof e);
    const char *fen = json_string_value(json_object_get(l, "fen"));
    if (!fen || dm_board_from_fen(&b, variant, fen, &e) != DM_OK) {
        problem(file, id, "a bad FEN: %s", fen ? e.message : "none");
        return;
    }
    const dm_board start = b;
    const json_t *steps = json_object_get(l, "steps");
    if (json_array_size(steps) == 0) {
        problem(file, id, "%s", "no steps");
        return;
    }
    dm_move line[8];
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
            dm_move m;
            memset(&e, 0, sizeof e);
            if (!mv || !says) {
                problem(file, id, "%s", "a wrong example needs \"move\" and \"says\"");
            } else if (dm_move_parse(&m, &b, mv, &e) == DM_OK) {
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
        dm_move m, first;
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
        dm_board_apply(&b, &first);
        line[nline++ % 8] = first;
        const char *reply = json_string_value(json_object_get(st, "reply"));
        if (reply) {
            if (!legal(file, id, &b, reply, &m)) {
                return;
            }
            dm_board_apply(&b, &m);
            line[nline++ % 8] = m;
        }
    }
    const char *check = json_string_value(json_object_get(l, "check"));
    if (check && !strcmp(check, "shot") && variant->id != DM_VARIANT_INTERNATIONAL) {
        problem(file, id, "%s", "\"check\": \"shot\" is for international lessons");
    } else if (check && !strcmp(check, "shot")) {
        dm_puzzle p;
        dm_puzzle_options o = DM_PUZZLE_OPTIONS_INIT;
        o.depth = 12; /* the puzzles' default (damier-w7 finds shot-double from depth 9 on) */
        memset(&e, 0, sizeof e);
        if (dm_puzzle_examine(&p, engine, &start, &o, &e) != DM_OK) {
            problem(file, id, "the engine could not examine it: %s", e.message);
        } else if (p.verdict != DM_PUZZLE_FOUND) {
            problem(file, id, "the engine finds no unique win: %s",
                    dm_puzzle_verdict_str(p.verdict));
        } else {
            for (int j = 0; j < nline && j < p.line_count && j < 8; j++) {
                if (!dm_move_same(&p.line[j], &line[j])) {
                    /* after the unique first move, a shot can go on by two moves that
                     * win as much (27-21 or 27-22 giving the man on 27): the lesson's
                     * move of the shooting side is right when it scores as well as the
                     * engine's own; a reply of the other side must be the engine's */
                    if (j % 2 == 0 && j > 0 && as_good(engine, &start, line, j, &p.line[j])) {
                        break;
                    }
                    char t[64];
                    snprintf(t, sizeof t, "%d", j + 1);
                    problem(file, id, "the engine's line differs at ply %s", t);
                    break;
                }
            }
        }
    } else if (check && strcmp(check, "win") != 0) {
        problem(file, id, "unknown check \"%s\"", check);
    }
    int weaker = 0;
    json_array_foreach(steps, i, st)
    {
        weaker |= json_array_size(json_object_get(st, "weaker")) > 0;
    }
    if ((check && !strcmp(check, "win")) || weaker) {
        check_engine(file, id, l, &start, check && !strcmp(check, "win"), engine);
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
        /* the course's variant: "course" names it */
        const char *course = json_string_value(json_object_get(c, "course"));
        const dm_variant *variant = NULL;
        dm_error ve;
        memset(&ve, 0, sizeof ve);
        if (!course || dm_variant_from_name(&variant, course, &ve) != DM_OK) {
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
