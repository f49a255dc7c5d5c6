/* SPDX-License-Identifier: MIT
 * srv_jump.c: GET /api/jump/position, the judge of the jumping games' lessons
 * (issue 19): a position of Chinese checkers (or Halma, Ge Wu) with its legal moves,
 * and a move played in it, judged by the rules core (include/damier/jump.h); an
 * illegal move is a 400 whose error is the rules core's text (docs/WEB.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <damier/jump.h>
#include "serve.h"

/* The holes where the page draws them ([col, row] each, in the rules' drawing grid). */
static json_t *jump_holes(const dm_jrules *r)
{
    json_t *a = json_array();
    for (int i = 0; i < r->squares; i++) {
        json_array_append_new(a, json_pack("[i,i]", r->col[i], r->row[i]));
    }
    return a;
}

/* The pegs as one character a hole: the seat letter 'A'..'F', or '.' when empty. */
static json_t *jump_pegs(const dm_jrules *r, const dm_jpos *p)
{
    char s[DM_JMAX_SQUARES + 1];
    for (int i = 0; i < r->squares; i++) {
        s[i] = '.';
        for (int k = 0; k < DM_JMAX_PLAYERS; k++) {
            if (p->pieces[k].w[i / 64] >> (i % 64) & 1u) {
                s[i] = (char)('A' + k);
            }
        }
    }
    s[r->squares] = '\0';
    return json_string(s);
}

/* A move as {text, from, to, path: [names of the landing holes]}. */
static json_t *jump_move_json(const dm_jrules *r, const dm_jpos *p, const dm_jmove *m)
{
    char text[DM_JMAX_PATH * 8], name[16];
    if (dm_jmove_to_text(text, sizeof text, r, p, m) != DM_OK) {
        text[0] = '\0';
    }
    int path[DM_JMAX_PATH];
    int n = dm_jmove_path(r, p, m, path, DM_JMAX_PATH);
    json_t *pa = json_array();
    for (int i = 0; i < n; i++) {
        json_array_append_new(pa, json_string(dm_jsquare_name(name, sizeof name, r, path[i])));
    }
    char from[16], to[16];
    dm_jsquare_name(from, sizeof from, r, m->from);
    dm_jsquare_name(to, sizeof to, r, m->to);
    return json_pack("{s:s,s:s,s:s,s:o}", "text", text, "from", from, "to", to, "path", pa);
}

void srv_op_jump_position(const char *game, const char *players, const char *pos, const char *move,
                          srv_reply *r)
{
    dm_error e;
    memset(&e, 0, sizeof e);
    dm_jgame g = DM_JGAME_CHINESE;
    if (game && *game && dm_jgame_from_name(&g, game, &e) != DM_OK) {
        srv_reply_error(r, 400, "%s", e.message);
        return;
    }
    if (g == DM_JGAME_GEWU) { /* its turns are throws of the stick: not a lesson's board */
        srv_reply_error(r, 400,
                        "game gewu: positions are judged only for chinese-checkers "
                        "and halma");
        return;
    }
    int n = 2;
    if (players && *players) {
        char *end = NULL;
        long v = strtol(players, &end, 10);
        if (*end || v < 1 || v > DM_JMAX_PLAYERS) {
            srv_reply_error(r, 400, "players: '%s' is not a number of players 1..%d", players,
                            DM_JMAX_PLAYERS);
            return;
        }
        n = (int)v;
    }
    dm_jrules *rules = malloc(sizeof *rules);
    dm_jmovelist *list = malloc(sizeof *list);
    if (!rules || !list) {
        free(rules);
        free(list);
        srv_reply_error(r, 500, "out of memory");
        return;
    }
    dm_jpos p;
    json_t *played = NULL;
    if (dm_jrules_init(rules, g, n, g == DM_JGAME_HALMA ? 16 : 0, 0, &e) != DM_OK) {
        srv_reply_error(r, 400, "%s", e.message);
        goto done;
    }
    if (!pos || !*pos) {
        dm_jpos_start(&p, rules);
    } else if (dm_jpos_from_text(&p, rules, pos, &e) != DM_OK) {
        srv_reply_error(r, 400, "position, column %d: %s", e.column, e.message);
        goto done;
    }
    if (move && *move) { /* the move judged by the rules core */
        dm_jmove m;
        if (dm_jpos_winner(&p, rules) >= 0) {
            srv_reply_error(r, 400, "the game is over: seat %c has won",
                            'A' + dm_jpos_winner(&p, rules));
            goto done;
        }
        if (dm_jmove_from_text(&m, rules, &p, move, &e) != DM_OK) {
            srv_reply_error(r, 400, "%s", e.message);
            goto done;
        }
        played = jump_move_json(rules, &p, &m);
        dm_jpos_apply(&p, rules, &m);
    }
    char text[2048];
    if (dm_jpos_to_text(text, sizeof text, rules, &p) != DM_OK) {
        srv_reply_error(r, 500, "position too long");
        goto done;
    }
    json_t *legal = json_array();
    int count = dm_jmovegen(list, rules, &p);
    for (int i = 0; i < count; i++) {
        json_array_append_new(legal, jump_move_json(rules, &p, &list->moves[i]));
    }
    int w = dm_jpos_winner(&p, rules);
    char turn[2] = {(char)('A' + p.to_move), '\0'}, winner[2] = {(char)('A' + w), '\0'};
    r->status = 200;
    r->body = json_pack("{s:s,s:i,s:s,s:s,s:o,s:o,s:o}", "game", dm_jgame_name(g), "players", n,
                        "pos", text, "turn", turn, "legal", legal, "holes", jump_holes(rules),
                        "pegs", jump_pegs(rules, &p));
    json_object_set_new(r->body, "winner", w >= 0 ? json_string(winner) : json_null());
    if (played) {
        json_object_set_new(r->body, "played", played);
        played = NULL;
    }
done:
    json_decref(played);
    free(rules);
    free(list);
}
