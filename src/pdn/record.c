/* SPDX-License-Identifier: MIT
 * pdn/record.c: the PDN record of a played game and back (damier/pdn.h,
 * "records of played games"): a dm_game (or a variant game's start and moves) with
 * its tags becomes a dm_pdn_game, and a dm_pdn_game of international draughts is
 * replayed through the game layer's rules into a dm_game, result kept. Front ends
 * never build movetext nodes themselves. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <damier/game.h>

#include "pdn/pdn_int.h"

/* ---- writing: one builder for both kinds of game --------------------------------- */

/* What the builder needs to know about a game. */
typedef struct rec_src {
    const char *game_type;   /* GameType value */
    const char *fen;         /* FEN tag when the start is not the initial position, or NULL */
    const char *result;      /* PDN result token */
    const char *termination; /* Termination tag value, or NULL / "" for none */
    int count;               /* moves */
    int second_first;        /* 1: the first move is the second mover's ("1...") */
    /* Text of move i into buf (cap bytes). */
    void (*text)(char *buf, size_t cap, const void *ctx, int i);
    const void *ctx;
} rec_src;

static char *dup_str(const char *s)
{
    return pdn_strndup(s, strlen(s));
}

static dm_status set_tag_or(dm_pdn_game *g, const char *name, const char *value, const char *dflt)
{
    return dm_pdn_game_set_tag(g, name, value && *value ? value : dflt);
}

static dm_status build(dm_pdn_game **out, const rec_src *src, const dm_pdn_game_tags *tags)
{
    dm_pdn_game_tags none = DM_PDN_GAME_TAGS_INIT;
    if (!tags) {
        tags = &none;
    }
    if (tags->version != DM_PDN_GAME_TAGS_VERSION) {
        return DM_EINVAL;
    }
    dm_pdn_game *g;
    dm_status st = dm_pdn_game_new(&g);
    if (st != DM_OK) {
        return st;
    }
    st = set_tag_or(g, "Event", tags->event, "?");
    st = st ? st : set_tag_or(g, "Site", tags->site, "?");
    st = st ? st : set_tag_or(g, "Date", tags->date, "????.??.??");
    st = st ? st : set_tag_or(g, "Round", tags->round, "?");
    st = st ? st : set_tag_or(g, "White", tags->white, "?");
    st = st ? st : set_tag_or(g, "Black", tags->black, "?");
    st = st ? st : dm_pdn_game_set_tag(g, "Result", src->result);
    st = st ? st : dm_pdn_game_set_tag(g, "GameType", src->game_type);
    if (!st && src->fen) {
        st = dm_pdn_game_set_tag(g, "SetUp", "1");
        st = st ? st : dm_pdn_game_set_tag(g, "FEN", src->fen);
    }
    if (!st && tags->time_control) {
        char tc[256];
        dm_time_control_format(tc, sizeof tc, tags->time_control);
        st = dm_pdn_game_set_tag(g, "TimeControl", tc);
    }
    if (!st && src->termination && *src->termination) {
        st = dm_pdn_game_set_tag(g, "Termination", src->termination);
    }
    if (!st && src->count > 0) {
        g->main.nodes = calloc((size_t)src->count, sizeof *g->main.nodes);
        st = g->main.nodes ? DM_OK : DM_ENOMEM;
    }
    for (int i = 0; !st && i < src->count; i++) {
        char text[512];
        src->text(text, sizeof text, src->ctx, i);
        dm_pdn_node *nd = &g->main.nodes[i];
        nd->kind = DM_PDN_NODE_MOVE;
        nd->text = dup_str(text);
        if (!nd->text) {
            st = DM_ENOMEM;
            break;
        }
        g->main.nnodes = i + 1;
        /* "N." before each first mover's move, "1..." when the game opens with the
         * second mover's */
        int k = i + src->second_first;
        if (k % 2 == 0 || i == 0) {
            nd->number = k / 2 + 1;
            nd->number_black = k % 2;
        }
    }
    if (!st) {
        g->result = dup_str(src->result);
        st = g->result ? DM_OK : DM_ENOMEM;
    }
    if (st) {
        dm_pdn_game_free(g);
        return st;
    }
    *out = g;
    return DM_OK;
}

static void game_text(char *buf, size_t cap, const void *ctx, int i)
{
    if (dm_game_move_text(buf, cap, ctx, i, DM_NOTATION_PDN) == 0) {
        buf[0] = 0;
    }
}

static dm_status from_variant_game(dm_pdn_game **out, const dm_game *game,
                                   const dm_pdn_game_tags *tags);

dm_status dm_pdn_from_game(dm_pdn_game **out, const dm_game *game, const dm_pdn_game_tags *tags)
{
    if (!out || !game) {
        return DM_EINVAL;
    }
    if (dm_game_variant(game)->id != DM_VARIANT_INTERNATIONAL) {
        return from_variant_game(out, game, tags);
    }
    dm_reason why;
    dm_outcome res = dm_game_result(game, &why);
    const dm_board *start = dm_game_position_at(game, 0);
    dm_board initial;
    dm_board_start(&initial, start->variant);
    char fen[256];
    int setup =
        memcmp(initial.sq, start->sq, sizeof initial.sq) != 0 || initial.side != start->side;
    if (setup) {
        dm_board_to_fen(fen, sizeof fen, start, 0);
    }
    rec_src src = {"20",
                   setup ? fen : NULL,
                   dm_outcome_str(res),
                   res != DM_OUTCOME_ONGOING ? dm_reason_str(why) : NULL,
                   dm_game_ply(game),
                   start->side == DM_BLACK,
                   game_text,
                   game};
    return build(out, &src, tags);
}

/* A variant game: its start and moves. */
typedef struct vgame {
    const dm_move *moves;
    dm_board *pos; /* pos[i] before move i, computed as the texts are asked for */
} vgame;

static void vgame_text(char *buf, size_t cap, const void *ctx, int i)
{
    const vgame *vg = ctx;
    dm_move_to_text(buf, cap, &vg->pos[i], &vg->moves[i], DM_NOTATION_PDN, DM_SQUARES_DEFAULT);
    vg->pos[i + 1] = vg->pos[i];
    dm_board_apply(&vg->pos[i + 1], &vg->moves[i]);
}

/* The record of a game of any variant kept as its start position and count moves
 * (moves[i] legal in the position before it; start->variant gives the rules, the
 * GameType, the notation and the FEN's square style): result is the PDN result
 * ("2-0", ...; NULL = "*"), termination the Termination tag (NULL or "" = none).
 * DM_EINVAL for NULLs or an invalid start, DM_EILLEGAL when a move is not legal,
 * DM_ENOMEM. */
static dm_status from_moves(dm_pdn_game **out, const dm_board *start, const dm_move *moves,
                            int count, const char *result, const char *termination,
                            const dm_pdn_game_tags *tags)
{
    if (!out || !start || !start->variant || count < 0 || (count > 0 && !moves)) {
        return DM_EINVAL;
    }
    if (dm_board_validate(start, NULL) != DM_OK) {
        return DM_EINVAL;
    }
    const dm_variant *v = start->variant;
    /* every move must be legal in its position: the record is replayed on reading */
    vgame vg = {moves, malloc(sizeof *vg.pos * ((size_t)count + 1))};
    if (!vg.pos) {
        return DM_ENOMEM;
    }
    vg.pos[0] = *start;
    dm_movelist *list = malloc(sizeof *list);
    dm_status st = list ? DM_OK : DM_ENOMEM;
    for (int i = 0; !st && i < count; i++) {
        int n = dm_movegen_legal(list, &vg.pos[i]), found = 0;
        for (int k = 0; k < n && !found; k++) {
            const dm_move *a = &list->moves[k], *b = &moves[i];
            found = dm_move_same(a, b);
        }
        if (!found) {
            st = DM_EILLEGAL;
            break;
        }
        vg.pos[i + 1] = vg.pos[i];
        dm_board_apply(&vg.pos[i + 1], &moves[i]);
    }
    free(list);
    if (st) {
        free(vg.pos);
        return st;
    }
    dm_board initial;
    dm_board_start(&initial, v);
    int setup =
        memcmp(initial.sq, start->sq, sizeof initial.sq) != 0 || initial.side != start->side;
    char fen[512], gt[16];
    if (setup) {
        dm_board_to_fen(fen, sizeof fen, start, v->algebraic);
    }
    snprintf(gt, sizeof gt, "%d", v->game_type);
    rec_src src = {gt,
                   setup ? fen : NULL,
                   result && *result ? result : "*",
                   termination,
                   count,
                   start->side != (int)v->first,
                   vgame_text,
                   &vg};
    st = build(out, &src, tags);
    free(vg.pos);
    return st;
}

/* A game of another variant: its start and generic moves through from_moves,
 * the result and the reason's text (dm_game_reason_text) as Termination. */
static dm_status from_variant_game(dm_pdn_game **out, const dm_game *game,
                                   const dm_pdn_game_tags *tags)
{
    int n = dm_game_ply(game);
    dm_move *mv = malloc((size_t)(n > 0 ? n : 1) * sizeof *mv);
    if (!mv) {
        return DM_ENOMEM;
    }
    for (int i = 0; i < n; i++) {
        mv[i] = *dm_game_move_at(game, i);
    }
    dm_outcome res = dm_game_result(game, NULL);
    char term[128];
    dm_game_reason_text(term, sizeof term, game);
    dm_status st = from_moves(out, dm_game_position_at(game, 0), mv, n, dm_outcome_str(res),
                              res != DM_OUTCOME_ONGOING ? term : NULL, tags);
    free(mv);
    return st;
}

dm_status dm_pdn_write_game(char **out, size_t *len, const dm_game *game,
                            const dm_pdn_game_tags *tags, dm_notation style)
{
    if (!out) {
        return DM_EINVAL;
    }
    dm_pdn_game *rec;
    dm_status st = dm_pdn_from_game(&rec, game, tags);
    if (st != DM_OK) {
        return st;
    }
    st = dm_pdn_write(out, len, rec, style);
    dm_pdn_game_free(rec);
    return st;
}

/* ---- reading ------------------------------------------------------------------- */

/* Where a node is, for messages: "line L, column C: " or "". */
static void where(char *buf, size_t cap, const dm_pdn_node *nd)
{
    if (nd && nd->line > 0) {
        snprintf(buf, cap, "line %d, column %d: ", nd->line, nd->column);
    } else {
        buf[0] = 0;
    }
}

/* The result the record states: the movetext's token, else the Result tag. */
static const char *stated_result(const dm_pdn_game *rec)
{
    const char *r = rec->result;
    if (!r || !*r) {
        r = dm_pdn_game_tag(rec, "Result");
    }
    return r && *r ? r : "*";
}

/* A PDN result as an outcome; -1 for "*" or an unknown value, -2 for 0-0. */
static int outcome_of(const char *r)
{
    if (!strcmp(r, "2-0") || !strcmp(r, "1-0")) {
        return DM_OUTCOME_WHITE_WINS;
    }
    if (!strcmp(r, "0-2") || !strcmp(r, "0-1")) {
        return DM_OUTCOME_BLACK_WINS;
    }
    if (!strcmp(r, "1-1") || !strcmp(r, "1/2-1/2")) {
        return DM_OUTCOME_DRAW;
    }
    return !strcmp(r, "0-0") ? -2 : -1;
}

/* Keep the stated result on g (the position after the last move). DM_OK, or an error
 * in err when the record contradicts the position. */
static dm_status keep_result(dm_game *g, const dm_pdn_game *rec, dm_error *err)
{
    const char *r = stated_result(rec);
    int want = outcome_of(r);
    dm_reason why;
    dm_outcome have = dm_game_result(g, &why);
    if (want == -1) {
        return DM_OK; /* "*": not known or not finished; the position says what it says */
    }
    if (want == -2) {
        return dm_error_set(err, DM_EPARSE, 0, 0,
                            "result 0-0 (both lose) cannot be kept in a game");
    }
    if (have != DM_OUTCOME_ONGOING) {
        if ((int)have == want) {
            return DM_OK;
        }
        return dm_error_set(err, DM_EPARSE, 0, 0,
                            "result %s contradicts the position after ply %d: %s (%s)", r,
                            dm_game_ply(g), dm_outcome_str(have), dm_reason_str(why));
    }
    const char *term = dm_pdn_game_tag(rec, "Termination");
    if (term && !pdn_casecmp(term, dm_reason_str(DM_REASON_ARBITER))) {
        return dm_game_declare_arbiter(g, (dm_outcome)want);
    }
    if (want == DM_OUTCOME_DRAW) {
        if (term && !pdn_casecmp(term, dm_reason_str(DM_REASON_NO_WIN))) {
            return dm_game_declare_no_win(g);
        }
        return dm_game_agree_draw(g);
    }
    dm_color loser = want == DM_OUTCOME_WHITE_WINS ? DM_BLACK : DM_WHITE;
    if (term && !pdn_casecmp(term, dm_reason_str(DM_REASON_TIME))) {
        return dm_game_flag(g, loser);
    }
    if (term && !pdn_casecmp(term, dm_reason_str(DM_REASON_FORFEIT))) {
        return dm_game_forfeit(g, loser);
    }
    return dm_game_resign(g, loser);
}

/* The checks every node of the mainline passes before its move is played: no setup
 * command inside the movetext, and not the move the replay found bad (rp). */
static dm_status node_check(dm_error *err, const dm_pdn_game *rec, const dm_pdn_replay *rp,
                            const dm_pdn_node *nd, const char *at)
{
    if (nd->kind == DM_PDN_NODE_SETUP) {
        return dm_error_set(err, DM_EPARSE, nd->line, nd->column,
                            "game %d: %ssetup command /FEN/ in the movetext: a game has "
                            "one start position",
                            rec->number, at);
    }
    if (rp->verdict != DM_PDN_LEGAL && nd == rp->node) {
        return dm_error_set(err, rp->verdict == DM_PDN_UNREADABLE ? DM_EPARSE : DM_EILLEGAL,
                            nd->line, nd->column, "game %d: %smove %d%s %s: %s; FEN before: %s",
                            rec->number, at, rp->move_number, rp->black ? "..." : ".",
                            rp->move_text, rp->reason.message, rp->fen_before);
    }
    return DM_OK;
}

/* What dm_game_play answered for node nd, as the error to report. */
static dm_status played(dm_error *err, dm_status st, const dm_game *g, const dm_pdn_game *rec,
                        const dm_pdn_node *nd, const char *at)
{
    if (st == DM_ESTATE) {
        char why[128];
        dm_game_reason_text(why, sizeof why, g);
        return dm_error_set(err, DM_ESTATE, nd->line, nd->column,
                            "game %d: %smove \"%s\" comes after the end of the game: %s (%s)",
                            rec->number, at, nd->text, dm_outcome_str(dm_game_result(g, NULL)),
                            why);
    }
    if (st != DM_OK) {
        return dm_error_set(err, st, nd->line, nd->column, "game %d: %smove \"%s\": %s",
                            rec->number, at, nd->text, dm_status_str(st));
    }
    return DM_OK;
}

/* The end of a replay into g: the stated result kept when every move went in, then
 * *out = g, or g freed on an error (partial: only a bad move or result stops, the game
 * up to it is kept). */
static dm_status finish(dm_game **out, dm_game *g, const dm_pdn_game *rec, dm_status bad,
                        int partial, dm_error *err)
{
    if (bad == DM_OK) {
        dm_error e2;
        bad = keep_result(g, rec, &e2);
        if (bad != DM_OK) {
            dm_error_set(err, bad, rec->line, 0, "game %d: %s", rec->number, e2.message);
        }
    }
    if (bad == DM_ENOMEM || (bad != DM_OK && !partial)) {
        dm_game_free(g);
        return bad;
    }
    *out = g;
    return DM_OK;
}

/* dm_pdn_to_game for a record whose replay rp chose the rules (rp->variant set): the
 * mainline replayed again for its moves (ambiguous short captures resolved as the
 * replay did) into dm_game_new through dm_game_play. */
static dm_status to_game(dm_game **out, const dm_pdn_game *rec, const dm_pdn_replay *rp,
                         int partial, dm_error *err)
{
    const dm_variant *v = rp->variant;
    if (rp->verdict == DM_PDN_UNREADABLE && rp->node == NULL) {
        return dm_error_set(err, DM_EPARSE, rec->line, rp->reason.column, "game %d: bad FEN: %s",
                            rec->number, rp->reason.message);
    }
    int n = rec->main.nnodes;
    pdn_vstep *steps = calloc((size_t)(n > 0 ? n : 1), sizeof *steps);
    if (!steps) {
        return dm_error_set(err, DM_ENOMEM, 0, 0, "out of memory");
    }
    dm_pdn_replay run;
    memset(&run, 0, sizeof run);
    pdn_replay_variant(&run, rec, v, steps);
    dm_game *g = NULL;
    dm_status st = dm_game_new(&g, &run.start);
    if (st != DM_OK) {
        free(steps);
        return dm_error_set(err, st, rec->line, 0, "game %d: cannot start from its position",
                            rec->number);
    }
    dm_status bad = DM_OK; /* the first problem, said in err */
    char at[64];
    for (int i = 0; i < n && bad == DM_OK; i++) {
        const dm_pdn_node *nd = &rec->main.nodes[i];
        where(at, sizeof at, nd);
        bad = node_check(err, rec, rp, nd, at);
        if (bad != DM_OK) {
            break;
        }
        if (steps[i].kind == PDN_STEP_JOINED) {
            continue; /* a single-jump token joined to the capture before it */
        }
        dm_move vm;
        if (steps[i].kind == PDN_STEP_MOVE) {
            vm = steps[i].m;
        } else {
            memset(&vm, 0, sizeof vm); /* no move (an accepted irregularity): never legal,
                                          dm_game_play says whether the game is over
                                          (DM_ESTATE) or the move illegal */
        }
        bad = played(err, dm_game_play(g, &vm), g, rec, nd, at);
    }
    free(steps);
    return finish(out, g, rec, bad, partial, err);
}

dm_status dm_pdn_to_game(dm_game **out, const dm_pdn_game *rec, int partial, dm_error *err)
{
    if (!out || !rec) {
        return dm_error_set(err, DM_EINVAL, 0, 0, "no game or no record");
    }
    dm_error_set(err, DM_OK, 0, 0, "%s", "");
    dm_pdn_replay rp;
    dm_pdn_replay_mainline(&rp, rec);
    if (rp.verdict == DM_PDN_VARIANT) {
        return dm_error_set(err, DM_EPARSE, rec->line, 0, "game %d: not a variant played here: %s",
                            rec->number, rp.reason.message);
    }
    return to_game(out, rec, &rp, partial, err);
}

dm_status dm_pdn_read_game(dm_game **out, dm_pdn_game **record, const char *text, size_t len,
                           const char *name, int partial, dm_error *err)
{
    if (!out || !text) {
        return dm_error_set(err, DM_EINVAL, 0, 0, "no game or no text");
    }
    dm_pdn_reader *r = NULL;
    dm_pdn_game *rec = NULL;
    dm_status st = dm_pdn_reader_new(&r, text, len, name);
    if (st != DM_OK) {
        return dm_error_set(err, st, 0, 0, "cannot read %s: %s", name ? name : "the text",
                            dm_status_str(st));
    }
    st = dm_pdn_reader_next(&rec, r, err);
    dm_pdn_reader_free(r);
    if (st == DM_OK && !rec) {
        st = dm_error_set(err, DM_EPARSE, 0, 0, "%s: no game in the text", name ? name : "PDN");
    }
    if (st == DM_OK) {
        st = dm_pdn_to_game(out, rec, partial, err);
        if (st != DM_OK && name) {
            dm_error e2 = *err;
            dm_error_set(err, st, e2.line, e2.column, "%s: %s", name, e2.message);
        }
    }
    if (st == DM_OK && record) {
        *record = rec;
    } else {
        dm_pdn_game_free(rec);
    }
    return st;
}
