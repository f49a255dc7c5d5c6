/* SPDX-License-Identifier: MIT
 * apps/serve/srv_game.c: the games of `damier serve`: creating, moving, resigning,
 * draw offers, the server-kept clocks (flag falls declared by the ticker), the
 * engine's moves (worker threads), restoring every game from the database.
 *
 * Each game is a dm_session (game + clock) whose clock reads a virtual time of the
 * game's own: monotonic ms + offset while live, the stored times of the moves while
 * a game is replayed from the database. So a restored game's clock has counted
 * exactly the presses, increments and periods it had; the side to move is charged
 * up to the server's last heartbeat (written every second) and not for the time the
 * server was down. A correspondence game (days per move) is the exception: its virtual
 * time is the wall clock's (t0_wall + v), so a deadline passes while the server is
 * down too, and the game is lost on time as soon as it is loaded again. */
#define _GNU_SOURCE
#include "serve.h"
#include "srv_community.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include <damier/clock.h>
#include <damier/engine.h>
#include <damier/game.h>
#include <damier/pdn.h>

#include "../cli/annotate.h"

static int64_t mono_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* The clock's time source: the game's virtual time. */
static int64_t game_now(void *payload)
{
    const srv_game *g = payload;
    return g->replaying || g->frozen ? g->vfixed : mono_ms() + g->offset;
}

/* Time stands still for one request: the clock's press and the time stored with the
 * move are the same millisecond, so a restored game's clock reads what the live one
 * read (they could differ by 1 ms when the clock read the time again). */
static int64_t freeze(srv_game *g)
{
    g->vfixed = mono_ms() + g->offset;
    g->frozen = 1;
    return g->vfixed;
}

static void thaw(srv_game *g)
{
    g->frozen = 0;
}

static int64_t vnow(const srv_game *g)
{
    return game_now((void *)g);
}

/* The length of the valid UTF-8 sequence at s (as jansson checks it: no overlong
 * form, no surrogate, at most U+10FFFF), 0 if there is none. */
static int utf8_len(const unsigned char *s)
{
    unsigned c = s[0];
    int n;
    unsigned cp, min;
    if (c < 0x80) {
        return 1;
    } else if (c >= 0xc2 && c <= 0xdf) {
        n = 2, cp = c & 0x1f, min = 0x80;
    } else if (c >= 0xe0 && c <= 0xef) {
        n = 3, cp = c & 0x0f, min = 0x800;
    } else if (c >= 0xf0 && c <= 0xf4) {
        n = 4, cp = c & 0x07, min = 0x10000;
    } else {
        return 0;
    }
    for (int i = 1; i < n; i++) {
        if ((s[i] & 0xc0) != 0x80) {
            return 0; /* also the end of the string: a cut sequence */
        }
        cp = (cp << 6) | (s[i] & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) {
        return 0;
    }
    return n;
}

void srv_utf8_fix(char *s)
{
    unsigned char *p = (unsigned char *)s;
    while (*p) {
        int n = utf8_len(p);
        if (n == 0) {
            *p++ = '?';
        } else {
            p += n;
        }
    }
}

void srv_reply_error(srv_reply *r, int status, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    srv_utf8_fix(msg); /* it may quote a request's bytes, or cut a character */
    r->status = status;
    if (r->body) {
        json_decref(r->body);
    }
    r->body = json_pack("{s:s}", "error", msg);
}

static void random_hex(char *out, size_t nbytes)
{
    unsigned char buf[32];
    if (nbytes > sizeof buf) {
        nbytes = sizeof buf;
    }
    size_t got = 0;
    while (got < nbytes) {
        ssize_t n = getrandom(buf + got, nbytes - got, 0);
        if (n <= 0) {
            /* never seen on Linux; still a unique value */
            uint64_t x = (uint64_t)mono_ms() * 0x9e3779b97f4a7c15ull ^ (uint64_t)srv_wall_ms();
            for (; got < nbytes; got++, x = x * 6364136223846793005ull + 1) {
                buf[got] = (unsigned char)(x >> 56);
            }
            break;
        }
        got += (size_t)n;
    }
    for (size_t i = 0; i < nbytes; i++) {
        snprintf(out + 2 * i, 3, "%02x", buf[i]);
    }
}

static const char *side_name(int side)
{
    return side == SRV_SIDE_WHITE     ? "white"
           : side == SRV_SIDE_BLACK   ? "black"
           : side == SRV_SIDE_ARBITER ? "arbiter"
                                      : "spectator";
}

static const char *mode_str(int mode)
{
    return mode == SRV_MODE_ENGINE ? "engine" : mode == SRV_MODE_HUMAN ? "human" : "review";
}

/* ---- registry ------------------------------------------------------------------- */

static unsigned bucket_of(const char *id)
{
    uint32_t h = 2166136261u;
    for (; *id; id++) {
        h = (h ^ (unsigned char)*id) * 16777619u;
    }
    return h % SRV_BUCKETS;
}

static srv_game *find_game(srv *s, const char *id)
{
    pthread_mutex_lock(&s->games_mu);
    srv_game *g = s->buckets[bucket_of(id)];
    while (g && strcmp(g->row.id, id)) {
        g = g->next;
    }
    pthread_mutex_unlock(&s->games_mu);
    return g;
}

/* 0 added, 1 a game with that id is there already (g not added), -1 out of memory. */
static int add_game(srv *s, srv_game *g)
{
    pthread_mutex_lock(&s->games_mu);
    for (srv_game *o = s->buckets[bucket_of(g->row.id)]; o; o = o->next) {
        if (!strcmp(o->row.id, g->row.id)) {
            pthread_mutex_unlock(&s->games_mu);
            return 1;
        }
    }
    if (s->ngames == s->capgames) {
        int cap = s->capgames ? 2 * s->capgames : 256;
        srv_game **a = realloc(s->all, sizeof *a * (size_t)cap);
        if (!a) {
            pthread_mutex_unlock(&s->games_mu);
            return -1;
        }
        s->all = a;
        s->capgames = cap;
    }
    s->all[s->ngames++] = g;
    unsigned b = bucket_of(g->row.id);
    g->next = s->buckets[b];
    s->buckets[b] = g;
    pthread_mutex_unlock(&s->games_mu);
    return 0;
}

static void game_free(srv_game *g)
{
    if (!g) {
        return;
    }
    dm_session_free(g->session);
    json_decref(g->players);
    pthread_mutex_destroy(&g->mu);
    free(g->subs);
    free(g);
}

/* Set the game g up for row: a new session at the start position, its clock at
 * virtual time 0 (standing still: thaw starts it). On failure, -1 with err and g's
 * session, variant and row as they were (its clock fields reset). */
static int game_setup(srv_game *g, const srv_game_row *row, int replaying, char *err, size_t errcap)
{
    g->replaying = replaying;
    /* The clock starts at virtual time 0 exactly, live as in a replay: time stands still
     * until the game is set up (reading the time again started a live clock at 1 ms
     * now and then, and a restored game's White then had 1 ms less: CI's
     * test_persistence, 309998 against 309999 ms). */
    g->vfixed = 0;
    g->frozen = 1;
    g->offset = -mono_ms();
    dm_session_options so = DM_SESSION_OPTIONS_INIT;
    so.engine.tt_mib = 1; /* the engine workers search; the session's engine is unused */
    so.now = game_now;
    so.now_payload = g;
    dm_error e;
    memset(&e, 0, sizeof e);
    dm_session *ss = NULL;
    if (dm_session_create(&ss, &so, &e) != DM_OK) {
        snprintf(err, errcap, "session: %s", e.message);
        return -1;
    }
    dm_time_control tc;
    int timed = strcmp(row->time_control, "-") != 0;
    if (timed && dm_time_control_parse(&tc, row->time_control, &e) != DM_OK) {
        snprintf(err, errcap, "time control \"%.60s\": %.180s", row->time_control, e.message);
        dm_session_free(ss);
        return -1;
    }
    if (timed && tc.kind != DM_TC_PERIODS && tc.kind != DM_TC_CORRESPONDENCE) {
        snprintf(err, errcap,
                 "time control \"%s\": only sudden death (300), Fischer (180+2), moves in "
                 "time (40/7200:3600) and correspondence (3d, 3d:60d) are played",
                 row->time_control);
        dm_session_free(ss);
        return -1;
    }
    /* every variant, international included (a row without one), on the generic board */
    const dm_variant *var = NULL;
    if (dm_variant_from_name(&var, row->variant[0] ? row->variant : "international", &e) != DM_OK) {
        snprintf(err, errcap, "%s", e.message);
        dm_session_free(ss);
        return -1;
    }
    dm_session_setup su = DM_SESSION_SETUP_INIT;
    su.fen = row->start_fen[0] ? row->start_fen : NULL;
    su.white_tc = timed ? &tc : NULL;
    su.variant = var;
    if (dm_session_new_game(ss, &su, &e) != DM_OK) {
        snprintf(err, errcap, "%s%s", su.fen ? "FEN: " : "", e.message);
        dm_session_free(ss);
        return -1;
    }
    dm_session_free(g->session);
    g->session = ss;
    g->var = var;
    g->row = *row;
    g->corr = timed && tc.kind == DM_TC_CORRESPONDENCE;
    return 0;
}

static void store_refused(srv *s, srv_game *g, int rc, const char *what, const char *err,
                          srv_reply *r);

/* A game object for row, its clock starting now (virtual time 0 while replaying).
 * NULL with err on a bad FEN or time control. */
static srv_game *game_new(const srv_game_row *row, int replaying, char *err, size_t errcap)
{
    srv_game *g = calloc(1, sizeof *g);
    if (!g) {
        snprintf(err, errcap, "out of memory");
        return NULL;
    }
    pthread_mutex_init(&g->mu, NULL);
    g->rng = (uint64_t)srv_wall_ms() * 0x9e3779b97f4a7c15ull ^ (uint64_t)(uintptr_t)g;
    if (game_setup(g, row, replaying, err, errcap) != 0) {
        game_free(g);
        return NULL;
    }
    thaw(g);
    return g;
}

/* ---- state ---------------------------------------------------------------------- */

static const char *outcome_text(dm_outcome o)
{
    return dm_outcome_str(o);
}

static int reason_from_text(const char *text)
{
    for (int r = 1; r <= DM_REASON_ARBITER; r++) {
        if (!strcmp(dm_reason_str((dm_reason)r), text)) {
            return r;
        }
    }
    return DM_REASON_NONE;
}

/* The wall-clock ms (as the server's clock reads it, its test offset included) when
 * the running side's time runs out; 0 when no clock runs. */
static int64_t game_deadline(srv_game *g)
{
    dm_clock *c = dm_session_clock(g->session);
    dm_color run;
    if (!c || !dm_clock_running(c, &run)) {
        return 0;
    }
    int64_t left = dm_clock_remaining(c, run);
    if (left == INT64_MAX) {
        return 0;
    }
    return g->corr ? g->row.t0_wall + vnow(g) + left : srv_wall_ms() + left;
}

static json_t *clock_json(srv_game *g)
{
    dm_clock *c = dm_session_clock(g->session);
    if (!c) {
        return json_null();
    }
    dm_clock_side w, b;
    dm_clock_side_info(&w, c, DM_WHITE);
    dm_clock_side_info(&b, c, DM_BLACK);
    dm_color run;
    int running = dm_clock_running(c, &run);
    /* paused: by the arbiter (a game over holds its clock paused too: not shown) */
    int paused = dm_clock_paused(c) && g->row.result[0] == '*';
    int64_t deadline = game_deadline(g);
    return json_pack(
        "{s:s,s:I,s:I,s:I,s:I,s:i,s:i,s:s?,s:b,s:b,s:o}", "control", g->row.time_control, "white",
        (json_int_t)w.remaining_ms, "black", (json_int_t)b.remaining_ms, "white_increment",
        (json_int_t)w.increment_ms, "black_increment", (json_int_t)b.increment_ms,
        "white_moves_to_go", w.moves_to_go, "black_moves_to_go", b.moves_to_go, "running",
        running ? (run == DM_WHITE ? "white" : "black") : NULL, "paused", paused, "correspondence",
        g->corr, "deadline", deadline > 0 ? json_integer((json_int_t)deadline) : json_null());
}

/* The side to move of g's current position (any variant). */
static int side_to_move(srv_game *g)
{
    return dm_session_position(g->session)->side;
}

/* {text, hub, path, captured, promote} of generic move m in position b: the squares
 * are the board's (the page's geometry), the texts in the variant's notation. */
json_t *srv_vmove_json(const dm_board *b, const dm_move *m)
{
    char text[400], hub[400];
    dm_move_to_text(text, sizeof text, b, m, DM_NOTATION_PDN, DM_SQUARES_DEFAULT);
    dm_move_to_text(hub, sizeof hub, b, m, DM_NOTATION_HUB, DM_SQUARES_DEFAULT);
    json_t *path = json_array(), *capt = json_array();
    json_array_append_new(path, json_integer(m->from));
    uint8_t turn[DM_MAX_CAPT];
    for (int i = 0, n = dm_move_path(turn, DM_MAX_CAPT, b, m); i < n; i++) {
        json_array_append_new(path, json_integer(turn[i]));
    }
    json_array_append_new(path, json_integer(m->to));
    for (int sq = 1; sq <= b->variant->squares; sq++) {
        if (dm_move_captures(m, sq)) {
            json_array_append_new(capt, json_integer(sq));
        }
    }
    return json_pack("{s:s,s:s,s:o,s:o,s:b}", "text", text, "hub", hub, "path", path, "captured",
                     capt, "promote", m->promote);
}

/* A move of a game's state or of the analysis board (srv_op_position): srv_vmove_json,
 * without "promote" in international draughts, whose replies keep the page's first
 * protocol (the 10x10 board drawn from the FENs). */
static json_t *state_move_json(const dm_board *b, const dm_move *m)
{
    json_t *j = srv_vmove_json(b, m);
    if (j && b->variant->id == DM_VARIANT_INTERNATIONAL) {
        json_object_del(j, "promote");
    }
    return j;
}

/* The pieces of b as a string, one character per square 1..squares: w, W (king), b,
 * B or '.'. */
json_t *srv_vboard_json(const dm_board *b)
{
    char buf[DM_MAX_SQUARES + 1];
    int n = b->variant->squares;
    for (int sq = 1; sq <= n; sq++) {
        dm_piece p = dm_board_piece(b, sq);
        buf[sq - 1] = p == DM_WHITE_MAN    ? 'w'
                      : p == DM_WHITE_KING ? 'W'
                      : p == DM_BLACK_MAN  ? 'b'
                      : p == DM_BLACK_KING ? 'B'
                                           : '.';
    }
    buf[n] = 0;
    return json_string(buf);
}

/* What the page needs to draw a variant's board: its size, the squares' names in the
 * variant's records (numbers or algebraic), files and ranks around the board where
 * its notation is algebraic, the turned board (a1 light: Italian, Spanish). */
json_t *srv_vboard_desc(const dm_variant *v)
{
    json_t *labels = json_array();
    for (int sq = 1; sq <= v->squares; sq++) {
        char t[8];
        dm_square_to_text(t, sizeof t, v, sq, v->algebraic);
        json_array_append_new(labels, json_string(t));
    }
    /* full: every square of the board is played (Turkish), numbered from a8 along the
     * rank, then down; otherwise the dark squares only */
    return json_pack("{s:s,s:s,s:i,s:i,s:o,s:b,s:b,s:b,s:i,s:s}", "name", v->name, "title",
                     v->title, "size", v->size, "squares", v->squares, "labels", labels, "coords",
                     v->algebraic, "invert", v->invert, "full", v->geometry == DM_GEOM_FULL,
                     "game_type", v->game_type, "first", v->first == DM_WHITE ? "white" : "black");
}

static json_t *game_state(srv_game *g, int side);
static int cond_token(const srv_game *g, int n, char *out, size_t cap);

json_t *srv_game_state(srv_game *g, int side)
{
    json_t *st = game_state(g, side);
    if (st) { /* touch-move: the option, and the square of the piece that must be played */
        const dm_game *gm = dm_session_game(g->session);
        json_object_set_new(st, "touch_move", json_boolean(dm_game_touch_move(gm)));
        json_object_set_new(st, "touched", json_integer(dm_game_touched(gm)));
    }
    if (st) { /* the arbiter: whether the game has one, and the note of a decision */
        json_object_set_new(st, "arbiter", json_boolean(g->row.keys[SRV_SIDE_ARBITER][0] != 0));
        if (g->arbiter_note[0]) {
            json_object_set_new(st, "arbiter_note", json_string(g->arbiter_note));
        }
        /* adjourned: who sealed a move (the move itself is secret) */
        json_object_set_new(st, "sealed",
                            g->sealed[0] && g->row.result[0] == '*'
                                ? json_string(side_name(g->sealed_side))
                                : json_null());
    }
    if (st && g->cond[0] && side == g->cond_side) { /* the player's conditional moves */
        json_t *c = json_array();
        char t[64];
        for (int i = 0; cond_token(g, i, t, sizeof t); i++) {
            json_array_append_new(c, json_string(t));
        }
        json_object_set_new(st, "conditional", c);
    }
    if (st && g->players) { /* the accounts and their ratings (srv_rating.c) */
        json_object_set(st, "players", g->players);
    }
    return st;
}

/* The state of g for side (srv_game_state), every variant from the game's dm_board
 * positions and dm_move moves. International games keep the page's first protocol: no
 * "reason_text", no board description and pieces (the page draws the 10x10 board from
 * the FENs) and moves without "promote"; the other variants have them all. */
static json_t *game_state(srv_game *g, int side)
{
    const dm_game *gm = dm_session_game(g->session);
    const dm_board *cur = dm_session_position(g->session);
    const dm_variant *v = g->var;
    int intl = v->id == DM_VARIANT_INTERNATIONAL;
    char fen[512], start[512], why[160];
    dm_board_to_fen(fen, sizeof fen, cur, v->algebraic);
    dm_board_to_fen(start, sizeof start, dm_game_position_at(gm, 0), v->algebraic);
    json_t *moves = json_array();
    int ply = dm_game_ply(gm);
    for (int i = 0; i < ply; i++) {
        json_array_append_new(moves,
                              state_move_json(dm_game_position_at(gm, i), dm_game_move_at(gm, i)));
    }
    dm_reason reason;
    dm_outcome o = dm_game_result(gm, &reason);
    dm_game_reason_text(why, sizeof why, gm);
    json_t *legal = json_array();
    if (o == DM_OUTCOME_ONGOING && g->row.mode != SRV_MODE_REVIEW) {
        dm_movelist *list = malloc(sizeof *list);
        if (list) {
            dm_movegen_legal(list, cur);
            for (int i = 0; i < list->count; i++) {
                json_array_append_new(legal, state_move_json(cur, &list->moves[i]));
            }
            free(list);
        }
    }
    json_t *engine = json_null();
    if (g->row.mode == SRV_MODE_ENGINE) {
        engine = json_pack("{s:s,s:i,s:b}", "side", side_name(g->row.engine_side), "level",
                           g->row.level, "thinking", g->engine_queued);
    }
    json_t *st = json_pack(
        "{s:s,s:s,s:i,s:s,s:s,s:s,s:s,s:s,s:s,s:i,s:o,s:o,s:s,s:s,s:s?,s:s?,s:o,s:o,s:{s:s,s:s},s:"
        "I}",
        "t", "state", "id", g->row.id, "version", g->gen, "mode", mode_str(g->row.mode), "variant",
        g->row.variant, "you", side_name(side), "start_fen", start, "fen", fen, "turn",
        cur->side == DM_WHITE ? "white" : "black", "ply", ply, "moves", moves, "legal", legal,
        "result", outcome_text(o), "reason", dm_reason_str(reason), "draw_offer",
        g->row.draw_offer < 0 ? NULL : side_name(g->row.draw_offer), "takeback_offer",
        g->row.takeback_offer < 0 ? NULL : side_name(g->row.takeback_offer), "engine", engine,
        "clock", clock_json(g), "names", "white", g->row.white_name, "black", g->row.black_name,
        "server_time", (json_int_t)srv_wall_ms());
    if (st && !intl) {
        json_object_set_new(st, "reason_text", json_string(why));
        json_object_set_new(st, "board", srv_vboard_desc(v));
        json_object_set_new(st, "position", srv_vboard_json(cur));
        json_object_set_new(st, "start_position", srv_vboard_json(dm_game_position_at(gm, 0)));
    }
    return st;
}

/* ---- changes -------------------------------------------------------------------- */

/* 1 while the arbiter holds the clocks of a game in play (no move is accepted). */
static int clock_paused(srv_game *g)
{
    dm_clock *c = dm_session_clock(g->session);
    return c && g->row.result[0] == '*' && dm_clock_paused(c);
}

static int engine_to_move(srv_game *g)
{
    if (g->row.mode != SRV_MODE_ENGINE) {
        return 0;
    }
    if (dm_session_result(g->session, NULL) != DM_OUTCOME_ONGOING) {
        return 0;
    }
    if (clock_paused(g)) {
        return 0; /* the arbiter stopped the clocks: the engine waits too */
    }
    return side_to_move(g) == g->row.engine_side;
}

static void enqueue_engine(srv *s, srv_game *g)
{
    if (g->engine_queued || !engine_to_move(g)) {
        return;
    }
    pthread_mutex_lock(&s->q_mu);
    if (s->qcount < SRV_QUEUE) {
        s->queue[(s->qhead + s->qcount) % SRV_QUEUE] = g;
        s->qcount++;
        g->engine_queued = 1;
        pthread_cond_signal(&s->q_cv);
    }
    pthread_mutex_unlock(&s->q_mu);
}

/* After every change of a locked game. */
static void game_changed(srv *s, srv_game *g)
{
    if (g->rated && g->row.result[0] != '*') {
        srv_rating_game_over(s, g); /* both players' ratings, once (srv_rating.c) */
    }
    g->gen++;
    enqueue_engine(s, g);
    srv_broadcast(s, g);
}

/* Copy the session's result into the row; 1 when the row changed. */
static int sync_result(srv_game *g)
{
    dm_reason reason;
    dm_outcome o = dm_session_result(g->session, &reason);
    const char *res = outcome_text(o);
    if (!strcmp(res, g->row.result)) {
        return 0;
    }
    snprintf(g->row.result, sizeof g->row.result, "%s", res);
    snprintf(g->row.reason, sizeof g->row.reason, "%s", dm_reason_str(reason));
    g->row.end_t = vnow(g);
    if (o != DM_OUTCOME_ONGOING) {
        g->row.draw_offer = -1;
    }
    return 1;
}

/* A result found by polling (a flag fall) written and sent. */
static void poll_result(srv *s, srv_game *g)
{
    if (g->replaying || g->row.mode == SRV_MODE_REVIEW) {
        return;
    }
    if (sync_result(g)) {
        char err[256];
        if (srv_db_update_game(s->db, &g->row, err, sizeof err) != 0 && !s->opt.quiet) {
            fprintf(stderr, "damier serve: game %s: %s\n", g->row.id, err);
        }
        game_changed(s, g);
    }
}

/* ---- conditional moves ------------------------------------------------------------ */

/* Parse text as a move of g's current position (international: its own move reader,
 * as a move request reads it); its Hub text in hub (may be NULL). e may be NULL. */
static dm_status parse_here(srv_game *g, const char *text, dm_move *vm, char *hub, size_t cap,
                            dm_error *e)
{
    dm_error local;
    if (!e) {
        e = &local;
    }
    memset(e, 0, sizeof *e);
    const dm_board *pos = dm_session_position(g->session);
    dm_status st = dm_move_parse(vm, pos, text, e); /* every variant, international too */
    if (st == DM_OK && hub) {
        dm_move_to_text(hub, cap, pos, vm, DM_NOTATION_HUB, DM_SQUARES_DEFAULT);
    }
    return st;
}

/* The n-th text (0-based) of g's conditional moves into out; 0 when there is none. */
static int cond_token(const srv_game *g, int n, char *out, size_t cap)
{
    const char *p = g->cond;
    for (;;) {
        p += strspn(p, " ");
        size_t len = strcspn(p, " ");
        if (len == 0) {
            return 0;
        }
        if (n-- == 0) {
            snprintf(out, cap, "%.*s", (int)len, p);
            return 1;
        }
        p += len;
    }
}

/* Before mover's move (Hub text hub) is played in g, live or replayed: does it answer
 * the conditional moves' expectation? A move of their side changes nothing; any other
 * move than the expected one drops them. */
static void cond_before(srv_game *g, int mover, const char *hub)
{
    g->cond_matched = 0;
    if (!g->cond[0] || mover == g->cond_side) {
        return;
    }
    char t[64], h[200];
    dm_move vm;
    if (cond_token(g, 0, t, sizeof t) && parse_here(g, t, &vm, h, sizeof h, NULL) == DM_OK &&
        !strcmp(h, hub)) {
        g->cond_matched = 1;
    } else {
        g->cond[0] = 0;
    }
}

/* After that move: the reply, when it is legal now, in vm and the two texts consumed:
 * 1; else the conditional moves dropped: 0. */
static int cond_after(srv_game *g, dm_move *vm)
{
    if (!g->cond_matched) {
        return 0;
    }
    g->cond_matched = 0;
    char t[64];
    if (!cond_token(g, 1, t, sizeof t) || parse_here(g, t, vm, NULL, 0, NULL) != DM_OK) {
        g->cond[0] = 0;
        return 0;
    }
    const char *p = g->cond;
    for (int k = 0; k < 2; k++) {
        p += strspn(p, " ");
        p += strcspn(p, " ");
    }
    p += strspn(p, " ");
    memmove(g->cond, p, strlen(p) + 1);
    return 1;
}

/* Play vm in the locked game g, commit it, then tell everyone. 0 or -1 with r. */
static int game_play(srv *s, srv_game *g, const dm_move *vm, srv_reply *r)
{
    int mover = side_to_move(g);
    srv_move_row mr;
    dm_move_to_text(mr.hub, sizeof mr.hub, dm_session_position(g->session), vm, DM_NOTATION_HUB,
                    DM_SQUARES_DEFAULT);
    char text[200]; /* the move as the game's record writes it (the webhooks' notice) */
    dm_move_to_text(text, sizeof text, dm_session_position(g->session), vm, DM_NOTATION_PDN,
                    DM_SQUARES_DEFAULT);
    int ply = dm_game_ply(dm_session_game(g->session));
    if (ply >= SRV_MAX_PLIES || g->nevents >= SRV_MAX_EVENTS) {
        srv_reply_error(r, 409, "the game is too long (%d plies)", SRV_MAX_PLIES);
        return -1;
    }
    dm_error e;
    memset(&e, 0, sizeof e);
    char cond_saved[sizeof g->cond];
    snprintf(cond_saved, sizeof cond_saved, "%s", g->cond);
    cond_before(g, mover, mr.hub);
    int64_t t = freeze(g);
    dm_status st = dm_session_play(g->session, vm, &e);
    if (st != DM_OK) {
        thaw(g);
        snprintf(g->cond, sizeof g->cond, "%s", cond_saved);
        g->cond_matched = 0;
        /* a fallen flag is declared now */
        poll_result(s, g);
        srv_reply_error(r, st == DM_ESTATE ? 409 : 400, "%s", e.message[0] ? e.message : "refused");
        return -1;
    }
    mr.t = t;
    srv_game_row saved = g->row;
    /* The other side's offer is declined by the move; the mover's own stands. */
    if (g->row.draw_offer >= 0 && g->row.draw_offer != mover) {
        g->row.draw_offer = -1;
    }
    g->row.takeback_offer = -1; /* it asked about another position */
    sync_result(g);
    int64_t wms = -1, bms = -1;
    dm_clock *c = dm_session_clock(g->session);
    if (c) {
        wms = dm_clock_remaining(c, DM_WHITE);
        bms = dm_clock_remaining(c, DM_BLACK);
    }
    thaw(g);
    char err[256];
    int drc = srv_db_add_move(s->db, &g->row, g->nevents, &mr, 1, wms, bms, err, sizeof err);
    if (drc != 0) {
        dm_session_undo(g->session);
        g->row = saved;
        snprintf(g->cond, sizeof g->cond, "%s", cond_saved);
        g->cond_matched = 0;
        store_refused(s, g, drc, "the move", err, r);
        return -1;
    }
    g->nevents++;
    game_changed(s, g);
    srv_webhook_moved(s, &g->row, ply + 1, text, side_to_move(g));
    /* the opponent played the expected move: the conditional reply is played now (a
     * move of the conditional side, which looks at nothing) */
    dm_move cvm;
    if (cond_after(g, &cvm)) {
        srv_reply cr = {500, NULL};
        game_play(s, g, &cvm, &cr);
        json_decref(cr.body);
    }
    return 0;
}

/* ---- the engine ----------------------------------------------------------------- */

/* The levels of `damier play` (apps/cli/play_engine.c): depth or time per move and
 * the margin (hundredths of a man) within which a move is drawn at random. */
static const struct {
    int depth;
    double move_time;
    int margin;
} levels[10] = {{1, 0, 200}, {2, 0, 120}, {3, 0, 70},  {4, 0, 40},  {6, 0, 20},
                {0, 0.5, 0}, {0, 1.0, 0}, {0, 2.0, 0}, {0, 4.0, 0}, {0, 8.0, 0}};

static uint64_t rnd(uint64_t *state)
{
    uint64_t x = *state ? *state : 0x9e3779b97f4a7c15ull;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *state = x;
    return x * 0x2545f4914f6cdd1dull;
}

/* What a search needs, copied from the game under its lock: the job never reads the
 * game, which may change (a takeback, new rules) while it searches unlocked. */
typedef struct engine_job {
    dm_search_input in; /* its draw_count: the game's counters at the root; its draw:
                           &draw */
    uint64_t hist[DM_ENGINE_MAX_HISTORY + 1];
    dm_draw_rules draw; /* the game's draw rules (dm_game_draw_rules), copied */
    int level;
    int depth_cap; /* > 0: no search deeper (srv_engine_step) */
    dm_limits lim;
    uint64_t rng;
    dm_movelist list;        /* choose_imperfect's root moves */
    int score[DM_MAX_MOVES]; /* and their scores */
} engine_job;

/* Levels 1-5 (as `damier play`): every root move scored at depth - 1 under the game's
 * draw rules, one drawn within the level's margin of the best. */
static int choose_imperfect(dm_move *out, dm_engine *e, engine_job *j)
{
    const dm_board *root = &j->in.root;
    dm_movegen_legal(&j->list, root);
    if (j->list.count == 0) {
        return -1;
    }
    int *score = j->score;
    int best = -2 * DM_SCORE_WIN;
    uint64_t root_hash = dm_board_hash(root);
    for (int i = 0; i < j->list.count; i++) {
        /* the game's one judge of every position: the variant's end, then its draw
         * rules from the counters and the repetitions the move leads to */
        const dm_move *vm = &j->list.moves[i];
        dm_board child = *root;
        dm_board_apply(&child, vm);
        dm_draw_count c;
        dm_variant_draw_step(&c, &j->in.draw_count, &j->draw, root, vm);
        int n = 0;
        if (c.reversible_plies > 0) {
            n = j->in.history_count;
            j->hist[n++] = root_hash;
        }
        uint64_t child_hash = dm_board_hash(&child);
        int reps = 1;
        for (int k = 0; k < n; k++) {
            reps += j->hist[k] == child_hash;
        }
        dm_board_result end = dm_variant_result(&child);
        if (end != DM_BOARD_RESULT_NONE) {
            int mover_wins = (end == DM_BOARD_RESULT_WHITE_WINS) == (root->side == DM_WHITE);
            score[i] = mover_wins ? DM_SCORE_WIN - 1 : -(DM_SCORE_WIN - 1);
        } else if (dm_variant_draw_judge(&j->draw, &child, &c, reps, NULL, 0) != DM_DRAW_NONE) {
            score[i] = 0;
        } else {
            dm_search_input cin;
            memset(&cin, 0, sizeof cin);
            cin.root = child;
            cin.history = j->hist;
            cin.history_count = n;
            cin.draw_count = c;
            cin.draw = j->in.draw;
            dm_limits lim;
            memset(&lim, 0, sizeof lim);
            int d = levels[j->level - 1].depth;
            lim.depth = d > 1 ? d - 1 : 1;
            if (j->depth_cap > 0 && lim.depth > j->depth_cap) {
                lim.depth = j->depth_cap;
            }
            lim.analyse = 1;
            dm_result r;
            if (dm_engine_search(&r, e, &cin, &lim, NULL, NULL, NULL) != DM_OK) {
                return -1;
            }
            score[i] = r.has_move ? -r.score : DM_SCORE_WIN - 1;
        }
        if (score[i] > best) {
            best = score[i];
        }
    }
    int margin = best >= DM_SCORE_WIN_MIN ? 0 : levels[j->level - 1].margin;
    int cand[DM_MAX_MOVES], nc = 0;
    for (int i = 0; i < j->list.count; i++) {
        if (score[i] < best - margin) {
            continue;
        }
        if (score[i] <= -DM_SCORE_WIN_MIN && best > -DM_SCORE_WIN_MIN) {
            continue;
        }
        cand[nc++] = i;
    }
    if (nc == 0) {
        return -1;
    }
    *out = j->list.moves[cand[rnd(&j->rng) % (uint64_t)nc]];
    return 0;
}

typedef struct srv_worker worker_arg;

/* Plays the engine's move m in g, searched (ok nonzero) while g was unlocked at
 * generation gen; when g changed meanwhile, or the search failed, the engine is queued
 * again if it is (still) to move: a change meanwhile (e.g. the arbiter's pause) could
 * not queue it while it was being searched. Takes g's lock. */
static void engine_deliver(srv *s, srv_game *g, int gen, int ok, const dm_move *m)
{
    pthread_mutex_lock(&g->mu);
    g->engine_queued = 0;
    if (ok && g->gen == gen && engine_to_move(g)) {
        srv_reply r = {200, NULL};
        game_play(s, g, m, &r);
        if (r.body) {
            json_decref(r.body);
        }
    } else {
        enqueue_engine(s, g);
    }
    pthread_mutex_unlock(&g->mu);
}

/* The engine's move in g (every variant), searched with g unlocked on a copy of what
 * the search needs (engine_job); depth_cap > 0: no deeper, and no time limit
 * (srv_engine_step). */
static void engine_move(srv *s, dm_engine *e, srv_game *g, int depth_cap)
{
    engine_job *j = calloc(1, sizeof *j);
    if (!j) {
        return;
    }
    pthread_mutex_lock(&g->mu);
    if (!engine_to_move(g)) {
        g->engine_queued = 0;
        pthread_mutex_unlock(&g->mu);
        free(j);
        return;
    }
    int gen = g->gen;
    const dm_game *gm = dm_session_game(g->session);
    dm_search_input_from_game(&j->in, j->hist, DM_ENGINE_MAX_HISTORY, gm);
    /* the game's draw rules, copied: in.draw must not point into the game */
    j->draw = *dm_game_draw_rules(gm);
    j->in.draw = &j->draw;
    j->level = g->row.level < 1 ? 1 : g->row.level > 10 ? 10 : g->row.level;
    j->rng = rnd(&g->rng);
    j->lim.depth = levels[j->level - 1].depth;
    j->lim.move_time = levels[j->level - 1].move_time;
    dm_clock *c = dm_session_clock(g->session);
    /* a correspondence clock's days are not the engine's: it keeps its level's time */
    if (c && j->level > 5 && !g->corr) {
        dm_clock_side cs;
        dm_clock_side_info(&cs, c, (dm_color)g->row.engine_side);
        j->lim.time = (double)cs.remaining_ms / 1000.0;
        j->lim.inc = (double)cs.increment_ms / 1000.0;
        j->lim.moves_to_go = cs.moves_to_go;
    }
    j->depth_cap = depth_cap;
    if (depth_cap > 0) {
        j->lim.depth = j->lim.depth > 0 && j->lim.depth < depth_cap ? j->lim.depth : depth_cap;
        j->lim.move_time = 0;
        j->lim.time = 0;
        j->lim.inc = 0;
        j->lim.moves_to_go = 0;
    }
    pthread_mutex_unlock(&g->mu);

    dm_move vm;
    memset(&vm, 0, sizeof vm);
    int ok;
    if (levels[j->level - 1].margin > 0) {
        ok = choose_imperfect(&vm, e, j) == 0;
    } else {
        dm_result r;
        ok = dm_engine_search(&r, e, &j->in, &j->lim, NULL, NULL, NULL) == DM_OK && r.has_move;
        vm = r.best;
    }
    free(j);
    engine_deliver(s, g, gen, ok, &vm);
}

static void *engine_worker(void *arg)
{
    worker_arg *w = arg;
    srv *s = w->s;
    for (;;) {
        pthread_mutex_lock(&s->q_mu);
        while (!s->stopping && s->qcount == 0) {
            pthread_cond_wait(&s->q_cv, &s->q_mu);
        }
        if (s->stopping) {
            pthread_mutex_unlock(&s->q_mu);
            return NULL;
        }
        srv_game *g = s->queue[s->qhead];
        s->qhead = (s->qhead + 1) % SRV_QUEUE;
        s->qcount--;
        pthread_mutex_unlock(&s->q_mu);
        engine_move(s, w->engine, g, 0);
    }
}

int srv_engine_step(srv *s, int max_depth)
{
    int played = srv_tourney_step(s, max_depth);
    pthread_mutex_lock(&s->q_mu);
    int n = s->qcount; /* a game queued again (a failed search) waits for the next call */
    pthread_mutex_unlock(&s->q_mu);
    for (int k = 0; k < n; k++) {
        pthread_mutex_lock(&s->q_mu);
        if (s->qcount == 0 || s->nworkers > 0) {
            pthread_mutex_unlock(&s->q_mu);
            return played;
        }
        srv_game *g = s->queue[s->qhead];
        s->qhead = (s->qhead + 1) % SRV_QUEUE;
        s->qcount--;
        pthread_mutex_unlock(&s->q_mu);
        if (!s->step_engine) {
            dm_engine_options eo = DM_ENGINE_OPTIONS_INIT;
            eo.tt_mib = 1;
            if (dm_engine_create(&s->step_engine, &eo) != DM_OK) {
                s->step_engine = NULL;
                pthread_mutex_lock(&g->mu);
                g->engine_queued = 0;
                pthread_mutex_unlock(&g->mu);
                return played;
            }
        }
        pthread_mutex_lock(&g->mu);
        int before = g->nevents;
        pthread_mutex_unlock(&g->mu);
        engine_move(s, s->step_engine, g, max_depth);
        pthread_mutex_lock(&g->mu);
        played += g->nevents > before;
        pthread_mutex_unlock(&g->mu);
    }
    return played;
}

/* ---- the ticker: flag falls and the heartbeat ----------------------------------- */

static void *ticker(void *arg)
{
    srv *s = arg;
    int64_t last_beat = 0;
    pthread_mutex_lock(&s->stop_mu);
    while (!s->stopping) {
        pthread_mutex_unlock(&s->stop_mu);
        pthread_mutex_lock(&s->games_mu);
        int n = s->ngames;
        pthread_mutex_unlock(&s->games_mu);
        for (int i = 0; i < n; i++) {
            /* games are appended, never removed, while the server runs; the array
             * may be reallocated, so read it under the lock */
            pthread_mutex_lock(&s->games_mu);
            srv_game *g = s->all[i];
            pthread_mutex_unlock(&s->games_mu);
            if (g->row.result[0] != '*' || !dm_session_clock(g->session)) {
                continue;
            }
            /* a game busy (e.g. writing to a slow socket) is polled next time: one
             * stuck connection must not stop the other games' clocks */
            if (pthread_mutex_trylock(&g->mu) != 0) {
                continue;
            }
            poll_result(s, g);
            pthread_mutex_unlock(&g->mu);
        }
        int64_t now = srv_wall_ms();
        if (now - last_beat >= 1000) {
            srv_db_heartbeat(s->db, now);
            last_beat = now;
        }
        pthread_mutex_lock(&s->stop_mu);
        if (s->stopping) {
            break;
        }
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_nsec += 100 * 1000000L;
        if (ts.tv_nsec >= 1000000000L) {
            ts.tv_sec++;
            ts.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&s->stop_cv, &s->stop_mu, &ts);
    }
    pthread_mutex_unlock(&s->stop_mu);
    srv_db_heartbeat(s->db, srv_wall_ms());
    return NULL;
}

/* ---- restoring ------------------------------------------------------------------ */

/* The touch-move events of a game's log (docs/WEB.md): "touch-move" (the rule is on,
 * the game's first event), "touch SQ" (the side to move touched its piece on SQ, which
 * must now be played), "adjust" ("I adjust" announced); and "cond ..." (conditional
 * moves set, or cleared by "cond" alone). *is set to 1 when ev is one of
 * them, and the event is applied to the session. */
static dm_status touch_event(srv_game *g, const char *ev, int *is, dm_error *e)
{
    *is = 1;
    if (!strcmp(ev, "touch-move")) {
        return dm_session_set_touch_move(g->session, 1);
    }
    if (!strcmp(ev, "adjust")) {
        return dm_session_adjust(g->session, e);
    }
    if (!strncmp(ev, "touch ", 6)) {
        return dm_session_touch(g->session, atoi(ev + 6), NULL, e);
    }
    if (!strncmp(ev, "cond", 4) && (ev[4] == ' ' || !ev[4])) {
        /* conditional moves set ("cond" alone: cleared), for the side not to move */
        snprintf(g->cond, sizeof g->cond, "%s", ev[4] ? ev + 5 : "");
        g->cond_side = 1 - side_to_move(g);
        return DM_OK;
    }
    *is = 0;
    return DM_OK;
}

/* The outcome of a result's PDN text ("2-0", "0-2", "1-1"), DM_OUTCOME_ONGOING for
 * anything else. */
static dm_outcome outcome_of_text(const char *t)
{
    return !strcmp(t, "2-0")   ? DM_OUTCOME_WHITE_WINS
           : !strcmp(t, "0-2") ? DM_OUTCOME_BLACK_WINS
           : !strcmp(t, "1-1") ? DM_OUTCOME_DRAW
                               : DM_OUTCOME_ONGOING;
}

/* The arbiter's events of a game's log (docs/WEB.md): "pause", "resume" (the clocks),
 * "add-time white|black MS" (time given to a side), "declare RESULT[ NOTE]" (a result
 * by the arbiter's decision). *is set to 1 when ev is one of them, and the event is
 * applied to the session (the clock reads the event's time). */
static dm_status arbiter_event(srv_game *g, const char *ev, int *is, dm_error *e)
{
    *is = 1;
    dm_clock *c = dm_session_clock(g->session);
    if (!strcmp(ev, "pause") || !strcmp(ev, "resume")) {
        if (!c) {
            return dm_error_set(e, DM_ESTATE, 0, 0, "the game has no clock");
        }
        dm_status st = ev[0] == 'p' ? dm_clock_pause(c) : dm_clock_resume(c);
        if (ev[0] == 'r') {
            g->sealed[0] = 0; /* its sealed move is the next event */
        }
        return st == DM_OK ? DM_OK : dm_error_set(e, st, 0, 0, "the clock cannot %s", ev);
    }
    if (!strncmp(ev, "seal ", 5)) {
        if (!c || dm_clock_pause(c) != DM_OK) {
            return dm_error_set(e, DM_ESTATE, 0, 0, "the clock cannot stop for a sealed move");
        }
        snprintf(g->sealed, sizeof g->sealed, "%s", ev + 5);
        g->sealed_side = side_to_move(g);
        return DM_OK;
    }
    if (!strncmp(ev, "add-time ", 9)) {
        const char *p = ev + 9;
        dm_color side = !strncmp(p, "white ", 6) ? DM_WHITE : DM_BLACK;
        const char *num = strchr(p, ' ');
        long long ms = num ? atoll(num + 1) : 0;
        if (!c || ms <= 0) {
            return dm_error_set(e, DM_EINVAL, 0, 0, "bad event");
        }
        return dm_clock_set_remaining(c, side, dm_clock_remaining(c, side) + ms);
    }
    if (!strncmp(ev, "declare ", 8)) {
        char res[8];
        snprintf(res, sizeof res, "%.3s", ev + 8);
        const char *note = strlen(ev) > 12 ? ev + 12 : "";
        dm_status st = dm_session_declare_arbiter(g->session, outcome_of_text(res));
        if (st == DM_OK) {
            snprintf(g->arbiter_note, sizeof g->arbiter_note, "%s", note);
            g->sealed[0] = 0;
        }
        return st == DM_OK ? DM_OK : dm_error_set(e, st, 0, 0, "cannot declare %s", res);
    }
    *is = 0;
    return DM_OK;
}

typedef struct restore_ctx {
    srv *s;
    int64_t heartbeat;
    int restored, failed;
} restore_ctx;

/* Replay the stored events of g (set up for row, not replaying yet) and start its
 * clock: a game not correspondence's lives on from the virtual time of heartbeat
 * (the downtime is not charged). */
static void replay_events(srv *s, srv_game *g, const srv_game_row *row, const srv_move_row *moves,
                          int n, int64_t heartbeat)
{
    g->replaying = 1;
    for (int i = 0; i < n; i++) {
        g->vfixed = moves[i].t;
        dm_error e;
        memset(&e, 0, sizeof e);
        int undo = !strcmp(moves[i].hub, "undo");
        int touch = 0;
        dm_status ts = touch_event(g, moves[i].hub, &touch, &e);
        if (undo) {
            g->cond[0] = 0;
        } else if (!touch) {
            ts = arbiter_event(g, moves[i].hub, &touch, &e);
            if (!touch) { /* the conditional moves follow the moves as they did live */
                cond_before(g, side_to_move(g), moves[i].hub);
            }
        }
        if (touch  ? ts != DM_OK
            : undo ? dm_session_undo(g->session) != DM_OK
                   : dm_session_play_text(g->session, moves[i].hub, &e) != DM_OK) {
            if (!s->opt.quiet) {
                fprintf(stderr, "damier serve: game %s: move %d \"%s\" not replayed: %s\n", row->id,
                        i + 1, moves[i].hub, e.message);
            }
            break;
        }
        if (!touch && !undo) {
            dm_move cvm;
            cond_after(g, &cvm); /* the reply is the next event */
        }
        g->nevents = i + 1;
    }
    int64_t last = n > 0 ? moves[n - 1].t : 0;
    if (strcmp(row->result, "*") != 0) {
        /* a declared end at its time; the others follow from the moves */
        g->vfixed = row->end_t > last ? row->end_t : last;
        int reason = reason_from_text(row->reason);
        dm_color loser = !strcmp(row->result, "2-0") ? DM_BLACK : DM_WHITE;
        if (reason == DM_REASON_RESIGNATION) {
            dm_session_resign(g->session, loser);
        } else if (reason == DM_REASON_AGREEMENT) {
            dm_session_agree_draw(g->session);
        } else if (reason == DM_REASON_NO_WIN) {
            dm_session_declare_no_win(g->session);
        } else if (reason == DM_REASON_FORFEIT) {
            dm_session_forfeit(g->session, loser);
        } else if (reason == DM_REASON_ARBITER) { /* its event declared it: kept */
            dm_session_declare_arbiter(g->session, outcome_of_text(row->result));
        }
        dm_session_result(g->session, NULL);
        last = g->vfixed;
    }
    /* live from the virtual time of the last heartbeat: the downtime is not charged;
     * a correspondence game's clock is the wall clock's, downtime included */
    int64_t vcrash =
        g->corr ? srv_wall_ms() + s->opt.clock_offset_ms - row->t0_wall : heartbeat - row->t0_wall;
    if (vcrash < last) {
        vcrash = last;
    }
    g->offset = vcrash - mono_ms();
    if (!g->corr) {
        g->row.t0_wall = srv_wall_ms() - vcrash;
    }
    g->replaying = 0;
}

static void restore_one(void *payload, const srv_game_row *row, const srv_move_row *moves, int n)
{
    restore_ctx *rc = payload;
    char err[256];
    srv_game *g = game_new(row, 1, err, sizeof err);
    if (g) {
        /* names stored before they were checked: the state must be JSON */
        srv_utf8_fix(g->row.white_name);
        srv_utf8_fix(g->row.black_name);
    }
    if (!g) {
        if (!rc->s->opt.quiet) {
            fprintf(stderr, "damier serve: game %s not restored: %s\n", row->id, err);
        }
        rc->failed++;
        return;
    }
    replay_events(rc->s, g, row, moves, n, rc->heartbeat);
    int added = add_game(rc->s, g);
    if (added != 0) {
        game_free(g); /* 1: another thread read it first (load on a miss) */
        rc->failed += added < 0;
        return;
    }
    rc->restored++;
}

/* ---- the games shared with other servers (srv_db_open_pg) ------------------------- */

typedef struct reload_ctx {
    srv *s;
    srv_game *g;
    int ok;
} reload_ctx;

static void reload_one(void *payload, const srv_game_row *row, const srv_move_row *moves, int n)
{
    reload_ctx *c = payload;
    srv_game *g = c->g;
    int replaying = g->replaying, frozen = g->frozen;
    int64_t vfixed = g->vfixed, offset = g->offset;
    char err[256];
    if (game_setup(g, row, 0, err, sizeof err) != 0) {
        g->replaying = replaying;
        g->frozen = frozen;
        g->vfixed = vfixed;
        g->offset = offset;
        if (!c->s->opt.quiet) {
            fprintf(stderr, "damier serve: game %s not read again: %s\n", row->id, err);
        }
        return;
    }
    srv_utf8_fix(g->row.white_name);
    srv_utf8_fix(g->row.black_name);
    g->cond[0] = 0;
    g->cond_matched = 0;
    g->nevents = 0;
    g->arbiter_note[0] = 0;
    g->sealed[0] = 0;
    thaw(g);
    /* the game's time now, as every server reads it: the wall clock from t0_wall */
    replay_events(c->s, g, row, moves, n, srv_wall_ms());
    c->ok = 1;
}

/* Read the locked game g again from the store (another server changed it) and send
 * its new state to its WebSockets. 0, or -1 (g as it was). */
static int reload_game(srv *s, srv_game *g)
{
    reload_ctx c = {s, g, 0};
    char err[256];
    if (srv_db_load_game(s->db, g->row.id, reload_one, &c, err, sizeof err) != 1 || !c.ok) {
        return -1;
    }
    g->gen++;
    srv_broadcast(s, g);
    return 0;
}

/* The listener's call (srv_db_listen): another server stored events (events: their
 * number; -1 a change of the game's row) of game id. A game not in memory is read on
 * its first request. The engine's reply is not queued here: the server that stored
 * the move plays it (see srv_games_init and docs/WEB.md). */
static void remote_changed(void *payload, const char *id, int events)
{
    srv *s = payload;
    srv_game *g = find_game(s, id);
    if (!g) {
        return;
    }
    pthread_mutex_lock(&g->mu);
    if (events < 0 || events != g->nevents) {
        reload_game(s, g);
    }
    pthread_mutex_unlock(&g->mu);
}

/* Game id read from the shared store (made by another server), or NULL. */
static srv_game *load_missing(srv *s, const char *id)
{
    restore_ctx rc = {s, srv_wall_ms(), 0, 0};
    char err[256];
    if (srv_db_load_game(s->db, id, restore_one, &rc, err, sizeof err) < 0 && !s->opt.quiet) {
        fprintf(stderr, "damier serve: game %s: %s\n", id, err);
    }
    return find_game(s, id);
}

/* After srv_db_add_move refused the locked game g's events (rc): when another server
 * stored an event at that index first, g is read again and r is a 409; else a 503. */
static void store_refused(srv *s, srv_game *g, int rc, const char *what, const char *err,
                          srv_reply *r)
{
    if (rc == SRV_DB_CONFLICT) {
        reload_game(s, g);
        srv_reply_error(r, 409,
                        "another server stored a move of game %s first: %s not played; the "
                        "game is now at ply %d",
                        g->row.id, what, dm_game_ply(dm_session_game(g->session)));
        return;
    }
    srv_reply_error(r, 503, "%s was not stored: %s", what, err);
}

int srv_games_init(srv *s, char *err, size_t errcap)
{
    /* shared games: listening before they are read, so no change after is missed */
    if (!s->opt.deaf && srv_db_listen(s->db, remote_changed, s, err, errcap) != 0) {
        return -1;
    }
    restore_ctx rc = {s, srv_db_last_heartbeat(s->db), 0, 0};
    if (srv_db_load(s->db, restore_one, &rc, err, errcap) != 0) {
        return -1;
    }
    /* the new time origins, then the engine's pending moves and any flag fallen */
    for (int i = 0; i < s->ngames; i++) {
        srv_game *g = s->all[i];
        pthread_mutex_lock(&g->mu);
        if (g->row.result[0] == '*') {
            srv_db_update_game(s->db, &g->row, err, errcap);
        }
        pthread_mutex_unlock(&g->mu);
    }
    if (!s->opt.quiet) {
        fprintf(stderr, "damier serve: %d games restored%s\n", rc.restored,
                rc.failed ? " (some not: see above)" : "");
    }
    int nw = s->opt.engine_workers < 1 ? 1 : s->opt.engine_workers > 8 ? 8 : s->opt.engine_workers;
    if (s->opt.no_threads) {
        nw = 0;
    }
    for (int i = 0; i < nw; i++) {
        dm_engine_options eo = DM_ENGINE_OPTIONS_INIT;
        eo.tt_mib = 32;
        s->wargs[i].s = s;
        if (dm_engine_create(&s->wargs[i].engine, &eo) != DM_OK) {
            snprintf(err, errcap, "cannot make the engine (out of memory)");
            return -1;
        }
        if (pthread_create(&s->workers[i], NULL, engine_worker, &s->wargs[i]) != 0) {
            dm_engine_free(s->wargs[i].engine);
            s->wargs[i].engine = NULL;
            snprintf(err, errcap, "cannot start the engine threads");
            return -1;
        }
        s->nworkers++;
    }
    if (!s->opt.no_threads) {
        if (pthread_create(&s->ticker, NULL, ticker, s) != 0) {
            snprintf(err, errcap, "cannot start the clock thread");
            return -1;
        }
        s->ticker_started = 1;
    }
    for (int i = 0; i < s->ngames; i++) {
        srv_game *g = s->all[i];
        pthread_mutex_lock(&g->mu);
        poll_result(s, g);
        enqueue_engine(s, g);
        pthread_mutex_unlock(&g->mu);
    }
    return 0;
}

int srv_stopping(srv *s)
{
    pthread_mutex_lock(&s->stop_mu);
    int st = s->stopping;
    pthread_mutex_unlock(&s->stop_mu);
    return st;
}

void srv_games_stop(srv *s)
{
    srv_db_unlisten(s->db); /* no other server's change is read after this */
    pthread_mutex_lock(&s->stop_mu);
    s->stopping = 1;
    pthread_cond_broadcast(&s->stop_cv);
    pthread_mutex_unlock(&s->stop_mu);
    pthread_mutex_lock(&s->q_mu);
    pthread_cond_broadcast(&s->q_cv);
    pthread_mutex_unlock(&s->q_mu);
    for (int i = 0; i < s->nworkers; i++) {
        dm_engine_stop(s->wargs[i].engine);
    }
    srv_tourney_stop(s);
    for (int i = 0; i < s->nworkers; i++) {
        pthread_join(s->workers[i], NULL);
        dm_engine_free(s->wargs[i].engine);
        s->wargs[i].engine = NULL;
    }
    s->nworkers = 0;
    if (s->ticker_started) {
        pthread_join(s->ticker, NULL);
        s->ticker_started = 0;
    }
    dm_engine_free(s->step_engine);
    s->step_engine = NULL;
}

void srv_games_free(srv *s)
{
    for (int i = 0; i < s->ngames; i++) {
        game_free(s->all[i]);
    }
    free(s->all);
    s->all = NULL;
    s->ngames = 0;
}

/* ---- the operations ------------------------------------------------------------- */

srv_game *srv_game_open(srv *s, const char *id, const char *key, int *side, srv_reply *r)
{
    if (!id || !*id || strlen(id) >= sizeof((srv_game_row *)0)->id) {
        srv_reply_error(r, 404, "unknown game \"%s\"", id ? id : "");
        return NULL;
    }
    srv_game *g = find_game(s, id);
    if (!g && srv_db_shared(s->db)) {
        g = load_missing(s, id); /* made by another server */
    }
    if (!g) {
        srv_reply_error(r, 404, "unknown game \"%s\"", id);
        return NULL;
    }
    if (!key || !*key) {
        srv_reply_error(r, 403, "this game's link needs its key (?key=...)");
        return NULL;
    }
    int found = SRV_SIDE_NONE;
    for (int i = 0; i < 4; i++) {
        /* compare every byte, so the time says nothing about the key */
        const char *k = g->row.keys[i];
        size_t n = strlen(k), m = strlen(key);
        unsigned diff = (unsigned)(n ^ m);
        for (size_t c = 0; c < n; c++) {
            diff |= (unsigned)(k[c] ^ (c < m ? key[c] : 0));
        }
        if (diff == 0 && n > 0 && found == SRV_SIDE_NONE) { /* "": no arbiter */
            found = i;
        }
    }
    if (found == SRV_SIDE_NONE) {
        srv_reply_error(r, 403, "wrong key for game %s", id);
        return NULL;
    }
    *side = found;
    pthread_mutex_lock(&g->mu);
    return g;
}

void srv_game_unlock(srv_game *g)
{
    pthread_mutex_unlock(&g->mu);
}

static const char *get_str(const json_t *req, const char *name)
{
    const json_t *v = json_object_get(req, name);
    return json_is_string(v) ? json_string_value(v) : NULL;
}

static json_t *link_json(const srv_game *g, int side)
{
    char url[128];
    snprintf(url, sizeof url, "/#/game/%s/%s", g->row.id, g->row.keys[side]);
    return json_string(url);
}

/* Days of a correspondence request (a number > 0, in thousandths of a day at most)
 * into ms; -1 with r when bad. */
static int corr_days(const json_t *v, const char *name, int64_t *ms, srv_reply *r)
{
    double d = json_is_number(v) ? json_number_value(v) : -1;
    long long th = (long long)(d * 1000 + 0.5);
    if (d <= 0 || d > 36500 || th <= 0 || d * 1000 - (double)th > 1e-6 ||
        (double)th - d * 1000 > 1e-6) {
        srv_reply_error(r, 400,
                        "\"%s\" must be a number of days above 0, at most 36500, in "
                        "thousandths of a day at most",
                        name);
        return -1;
    }
    *ms = th * (DM_TC_DAY_MS / 1000);
    return 0;
}

/* The time control text ("3d", "3d:60d") of a request's "correspondence":
 * {"days_per_move": D, "budget_days": B (optional)}. 0, or -1 with r. */
static int corr_control(char *out, size_t cap, const json_t *jc, srv_reply *r)
{
    if (!json_is_object(jc)) {
        srv_reply_error(r, 400, "\"correspondence\" must be an object {\"days_per_move\": 3}");
        return -1;
    }
    dm_time_control tc;
    memset(&tc, 0, sizeof tc);
    tc.kind = DM_TC_CORRESPONDENCE;
    tc.count = 1;
    if (corr_days(json_object_get(jc, "days_per_move"), "days_per_move", &tc.periods[0].time_ms,
                  r) != 0) {
        return -1;
    }
    const json_t *b = json_object_get(jc, "budget_days");
    if (b && !json_is_null(b) && corr_days(b, "budget_days", &tc.budget_ms, r) != 0) {
        return -1;
    }
    dm_time_control_format(out, cap, &tc);
    return 0;
}

void srv_op_create(srv *s, const json_t *req, srv_reply *r)
{
    if (!json_is_object(req)) {
        srv_reply_error(r, 400, "the body must be a JSON object");
        return;
    }
    srv_game_row row;
    memset(&row, 0, sizeof row);
    const json_t *tm = json_object_get(req, "touch_move");
    if (tm && !json_is_boolean(tm)) {
        srv_reply_error(r, 400, "\"touch_move\" must be true or false");
        return;
    }
    int touch_move = tm && json_is_true(tm);
    const char *opp = get_str(req, "opponent");
    if (!opp || !strcmp(opp, "engine")) {
        row.mode = SRV_MODE_ENGINE;
    } else if (!strcmp(opp, "human")) {
        row.mode = SRV_MODE_HUMAN;
    } else {
        srv_reply_error(r, 400, "opponent must be \"engine\" or \"human\", not \"%s\"", opp);
        return;
    }
    const char *side = get_str(req, "side");
    int you = SRV_SIDE_WHITE;
    if (!side || !strcmp(side, "white")) {
        you = SRV_SIDE_WHITE;
    } else if (!strcmp(side, "black")) {
        you = SRV_SIDE_BLACK;
    } else if (!strcmp(side, "random")) {
        char b[4];
        random_hex(b, 1);
        you = (b[1] & 1) ? SRV_SIDE_BLACK : SRV_SIDE_WHITE;
    } else {
        srv_reply_error(r, 400, "side must be \"white\", \"black\" or \"random\", not \"%s\"",
                        side);
        return;
    }
    row.level = 5;
    const json_t *lv = json_object_get(req, "level");
    if (lv) {
        if (!json_is_integer(lv) || json_integer_value(lv) < 1 || json_integer_value(lv) > 10) {
            srv_reply_error(r, 400, "level must be a whole number from 1 to 10");
            return;
        }
        row.level = (int)json_integer_value(lv);
    }
    row.engine_side = row.mode == SRV_MODE_ENGINE ? 1 - you : -1;
    const json_t *jv = json_object_get(req, "variant");
    if (jv && !json_is_string(jv)) {
        srv_reply_error(r, 400, "\"variant\" must be a variant's name (\"russian\", ...)");
        return;
    }
    const char *variant = get_str(req, "variant");
    const dm_variant *var = dm_variant_get(DM_VARIANT_INTERNATIONAL);
    if (variant && *variant) {
        dm_error ve;
        memset(&ve, 0, sizeof ve);
        if (dm_variant_from_name(&var, variant, &ve) != DM_OK) {
            srv_reply_error(r, 400, "%s", ve.message);
            return;
        }
    }
    snprintf(row.variant, sizeof row.variant, "%s", var->name);
    const char *tc = get_str(req, "time");
    if (tc && strlen(tc) >= sizeof row.time_control) {
        srv_reply_error(r, 400, "time control too long");
        return;
    }
    snprintf(row.time_control, sizeof row.time_control, "%s", tc && *tc ? tc : "-");
    const json_t *jc = json_object_get(req, "correspondence");
    if (jc && !json_is_null(jc)) {
        if (tc && *tc) {
            srv_reply_error(r, 400, "\"time\" and \"correspondence\" exclude each other");
            return;
        }
        if (corr_control(row.time_control, sizeof row.time_control, jc, r) != 0) {
            return;
        }
    }
    const char *fen = get_str(req, "fen");
    if (fen && strlen(fen) >= sizeof row.start_fen) {
        srv_reply_error(r, 400, "FEN too long");
        return;
    }
    snprintf(row.start_fen, sizeof row.start_fen, "%s", fen ? fen : "");
    /* A handicap game: the giver (the engine's side, or "handicap_side") starts without
     * N men (dm_board_handicap's squares); the start is then a FEN like any other, so
     * the record, a restart and the PDN's FEN tag keep it. */
    const json_t *jh = json_object_get(req, "handicap");
    if (jh) {
        const char *hs = get_str(req, "handicap_side");
        int giver = hs && !strcmp(hs, "white")    ? DM_WHITE
                    : hs && !strcmp(hs, "black")  ? DM_BLACK
                    : row.mode == SRV_MODE_ENGINE ? row.engine_side
                                                  : -1;
        if (!json_is_integer(jh) || json_integer_value(jh) < 1 || json_integer_value(jh) > 15) {
            srv_reply_error(r, 400, "\"handicap\" must be a number of men from 1 to 15");
            return;
        }
        if (giver < 0 || (hs && strcmp(hs, "white") && strcmp(hs, "black"))) {
            srv_reply_error(r, 400,
                            "\"handicap_side\" must be \"white\" or \"black\" (the side "
                            "that gives the men)");
            return;
        }
        dm_board hb;
        dm_error he;
        memset(&he, 0, sizeof he);
        if (fen && *fen ? dm_board_from_fen(&hb, var, fen, &he) != DM_OK
                        : (dm_board_start(&hb, var), 0)) {
            srv_reply_error(r, 400, "FEN, column %d: %s", he.column, he.message);
            return;
        }
        int n = (int)json_integer_value(jh);
        if (dm_board_handicap(&hb, (dm_color)giver, n) != DM_OK) {
            srv_reply_error(r, 400, "%s has fewer than %d men to give", side_name(giver), n);
            return;
        }
        dm_board_to_fen(row.start_fen, sizeof row.start_fen, &hb, var->algebraic);
    }
    const char *wn = get_str(req, "white_name"), *bn = get_str(req, "black_name");
    char engine_name[64];
    snprintf(engine_name, sizeof engine_name, "damier level %d", row.level);
    snprintf(row.white_name, sizeof row.white_name, "%s",
             row.engine_side == 0 ? engine_name
             : wn                 ? wn
                                  : "White");
    snprintf(row.black_name, sizeof row.black_name, "%s",
             row.engine_side == 1 ? engine_name
             : bn                 ? bn
                                  : "Black");
    srv_utf8_fix(row.white_name); /* a long name may have been cut inside a character */
    srv_utf8_fix(row.black_name);
    random_hex(row.id, 8);
    for (int i = 0; i < 4; i++) { /* the arbiter's too: the creator's to keep or give */
        random_hex(row.keys[i], 16);
    }
    snprintf(row.result, sizeof row.result, "*");
    row.draw_offer = -1;
    row.takeback_offer = -1;
    row.created = srv_wall_ms();
    row.t0_wall = row.created;
    char err[300];
    srv_game *g = game_new(&row, 0, err, sizeof err);
    if (!g) {
        srv_reply_error(r, 400, "%s", err);
        return;
    }
    if (g->corr) {
        g->row.t0_wall += s->opt.clock_offset_ms; /* the deadlines' clock (a test hook) */
    }
    /* a start position that is already decided is refused */
    if (dm_session_result(g->session, NULL) != DM_OUTCOME_ONGOING) {
        game_free(g);
        srv_reply_error(r, 400, "the start position is already decided (no legal move)");
        return;
    }
    /* touch-move: the game's first event, so that a restart keeps the rule */
    srv_move_row first = {"touch-move", 0};
    if (touch_move) {
        dm_session_set_touch_move(g->session, 1);
    }
    if (srv_db_insert_game(s->db, &g->row, touch_move ? &first : NULL, touch_move, err,
                           sizeof err) != 0) {
        game_free(g);
        srv_reply_error(r, 503, "the game was not stored: %s", err);
        return;
    }
    g->nevents = touch_move;
    if (add_game(s, g) != 0) {
        game_free(g);
        srv_reply_error(r, 503, "out of memory");
        return;
    }
    pthread_mutex_lock(&g->mu);
    json_t *links = json_pack("{s:o,s:o,s:o}", "white", link_json(g, 0), "black", link_json(g, 1),
                              "spectator", link_json(g, 2));
    if (row.mode == SRV_MODE_ENGINE) {
        json_object_del(links, side_name(row.engine_side));
    }
    json_object_set_new(links, "arbiter", link_json(g, SRV_SIDE_ARBITER));
    r->status = 201;
    r->body = json_pack("{s:s,s:s,s:s,s:s,s:o,s:o}", "id", g->row.id, "you", side_name(you), "key",
                        g->row.keys[you], "arbiter_key", g->row.keys[SRV_SIDE_ARBITER], "links",
                        links, "state", srv_game_state(g, you));
    enqueue_engine(s, g);
    pthread_mutex_unlock(&g->mu);
}

#define SRV_MAX_TURN_KEYS 200

/* 1 when side of g is played by the holder of one of keys[0..n-1] or by account. */
static int holds_side(const srv_game *g, int side, char keys[][40], int n, int64_t account)
{
    if (account && g->account[side] == account) {
        return 1;
    }
    for (int i = 0; i < n; i++) {
        if (!strcmp(keys[i], g->row.keys[side])) {
            return 1;
        }
    }
    return 0;
}

void srv_op_your_turn(srv *s, const char *keys, int64_t account, srv_reply *r)
{
    char(*k)[40] = calloc(SRV_MAX_TURN_KEYS, sizeof *k);
    if (!k) {
        srv_reply_error(r, 503, "out of memory");
        return;
    }
    int n = 0;
    for (const char *p = keys ? keys : ""; *p;) {
        size_t len = strcspn(p, ",");
        if (len > 0 && len < sizeof k[0]) {
            if (n == SRV_MAX_TURN_KEYS) {
                free(k);
                srv_reply_error(r, 400, "at most %d keys", SRV_MAX_TURN_KEYS);
                return;
            }
            memcpy(k[n], p, len);
            k[n++][len] = 0;
        }
        p += len;
        p += *p == ',';
    }
    json_t *games = json_array();
    pthread_mutex_lock(&s->games_mu);
    int count = s->ngames;
    pthread_mutex_unlock(&s->games_mu);
    for (int i = 0; i < count && (n > 0 || account); i++) {
        pthread_mutex_lock(&s->games_mu);
        srv_game *g = s->all[i];
        pthread_mutex_unlock(&s->games_mu);
        if (g->row.result[0] != '*' || g->row.mode == SRV_MODE_REVIEW) {
            continue;
        }
        pthread_mutex_lock(&g->mu);
        poll_result(s, g);          /* a deadline passed: not the player's turn any more */
        int side = side_to_move(g); /* both keys may be held (one browser, two sides) */
        if (g->row.result[0] == '*' && holds_side(g, side, k, n, account) &&
            !(g->row.mode == SRV_MODE_ENGINE && g->row.engine_side == side)) {
            int64_t deadline = game_deadline(g);
            dm_clock *c = dm_session_clock(g->session);
            int64_t left = c ? dm_clock_remaining(c, (dm_color)side) : INT64_MAX;
            json_array_append_new(
                games, json_pack("{s:s,s:s,s:s,s:s,s:s,s:s,s:i,s:s,s:b,s:o,s:o}", "id", g->row.id,
                                 "key", g->row.keys[side], "you", side_name(side), "opponent",
                                 side ? g->row.white_name : g->row.black_name, "variant",
                                 g->row.variant, "mode", mode_str(g->row.mode), "ply",
                                 dm_game_ply(dm_session_game(g->session)), "control",
                                 g->row.time_control, "correspondence", g->corr, "deadline",
                                 deadline > 0 ? json_integer((json_int_t)deadline) : json_null(),
                                 "remaining_ms",
                                 left == INT64_MAX ? json_null() : json_integer((json_int_t)left)));
        }
        pthread_mutex_unlock(&g->mu);
    }
    free(k);
    r->status = 200;
    r->body = json_pack("{s:o,s:I}", "games", games, "server_time", (json_int_t)srv_wall_ms());
}

void srv_op_state(srv *s, const char *id, const char *key, srv_reply *r)
{
    int side;
    srv_game *g = srv_game_open(s, id, key, &side, r);
    if (!g) {
        return;
    }
    poll_result(s, g);
    r->status = 200;
    r->body = srv_game_state(g, side);
    srv_game_unlock(g);
}

/* The player's game, open for a change: 409 when over, 403 for a spectator. */
static srv_game *open_to_play(srv *s, const char *id, const char *key, int *side, srv_reply *r)
{
    srv_game *g = srv_game_open(s, id, key, side, r);
    if (!g) {
        return NULL;
    }
    poll_result(s, g);
    if (g->row.mode == SRV_MODE_REVIEW) {
        srv_reply_error(r, 409, "game %s is a record for review, not a game in play", id);
    } else if (*side == SRV_SIDE_SPECTATOR) {
        srv_reply_error(r, 403, "a spectator's link cannot play");
    } else if (*side == SRV_SIDE_ARBITER) {
        srv_reply_error(r, 403, "the arbiter's link cannot play (its controls: POST .../arbiter)");
    } else if (g->row.mode == SRV_MODE_ENGINE && *side == g->row.engine_side) {
        srv_reply_error(r, 403, "that side is the engine's");
    } else if (dm_session_result(g->session, NULL) != DM_OUTCOME_ONGOING) {
        dm_reason why;
        dm_outcome o = dm_session_result(g->session, &why);
        srv_reply_error(r, 409, "the game is over: %s %s", dm_outcome_str(o), dm_reason_str(why));
    } else {
        return g;
    }
    srv_game_unlock(g);
    return NULL;
}

void srv_op_move(srv *s, const char *id, const char *key, const json_t *req, srv_reply *r)
{
    const char *text = get_str(req, "move");
    if (!text) {
        srv_reply_error(r, 400, "the body needs \"move\": the move's text (\"32-28\")");
        return;
    }
    int side;
    srv_game *g = open_to_play(s, id, key, &side, r);
    if (!g) {
        return;
    }
    int to_move = side_to_move(g);
    if (clock_paused(g)) {
        srv_reply_error(r, 409, "the arbiter has paused the clocks: no move until they resume");
        srv_game_unlock(g);
        return;
    }
    if (to_move != side) {
        srv_reply_error(r, 409, "it is %s's move, not yours",
                        to_move == DM_WHITE ? "White" : "Black");
        srv_game_unlock(g);
        return;
    }
    /* a ply number, when given, must be the current one (a move sent twice) */
    const json_t *ply = json_object_get(req, "ply");
    if (ply && (!json_is_integer(ply) ||
                json_integer_value(ply) != dm_game_ply(dm_session_game(g->session)))) {
        srv_reply_error(r, 409, "the move is for ply %s, the game is at ply %d",
                        json_is_integer(ply) ? "another" : "(not a number)",
                        dm_game_ply(dm_session_game(g->session)));
        srv_game_unlock(g);
        return;
    }
    dm_move vm;
    dm_error e;
    memset(&e, 0, sizeof e);
    const dm_board *pos = dm_session_position(g->session);
    dm_status st = dm_move_parse(&vm, pos, text, &e); /* every variant, international too */
    if (st != DM_OK) {
        srv_reply_error(r, 400, "%s", e.message);
        srv_game_unlock(g);
        return;
    }
    if (game_play(s, g, &vm, r) == 0) {
        r->status = 200;
        r->body = srv_game_state(g, side);
    }
    srv_game_unlock(g);
}

/* Store the touch-move event ev of the locked game g (its log, one transaction) and
 * tell everyone. 0 or -1 with r. */
static int touch_commit(srv *s, srv_game *g, const char *ev, srv_reply *r)
{
    if (g->nevents >= SRV_MAX_EVENTS) {
        srv_reply_error(r, 409, "the game is too long (%d events)", SRV_MAX_EVENTS);
        return -1;
    }
    srv_move_row mr;
    snprintf(mr.hub, sizeof mr.hub, "%s", ev);
    mr.t = vnow(g);
    int64_t wms = -1, bms = -1;
    dm_clock *c = dm_session_clock(g->session);
    if (c) {
        wms = dm_clock_remaining(c, DM_WHITE);
        bms = dm_clock_remaining(c, DM_BLACK);
    }
    char err[256];
    int drc = srv_db_add_move(s->db, &g->row, g->nevents, &mr, 1, wms, bms, err, sizeof err);
    if (drc != 0) {
        store_refused(s, g, drc, "the touch-move event", err, r);
        return -1;
    }
    g->nevents++;
    game_changed(s, g);
    return 0;
}

/* Touch-move requests come from the player to move of a touch-move game while the
 * clocks run: 1, or 0 with r set. */
static int touch_allowed(srv_game *g, int side, srv_reply *r)
{
    if (!dm_game_touch_move(dm_session_game(g->session))) {
        srv_reply_error(r, 409, "this game is not played with touch-move");
        return 0;
    }
    if (side != side_to_move(g)) {
        srv_reply_error(r, 409, "it is not your move");
        return 0;
    }
    if (clock_paused(g)) {
        srv_reply_error(r, 409, "the arbiter has paused the clocks: no move until they resume");
        return 0;
    }
    return 1;
}

/* Conditional moves (docs/WEB.md): the player who waits gives the opponent's expected
 * move and the reply to play at once, and so on; stored as the event "cond TEXT ...". */
void srv_op_conditional(srv *s, const char *id, const char *key, const json_t *req, srv_reply *r)
{
    const json_t *a = json_object_get(req, "moves");
    size_t n = json_array_size(a);
    if (!json_is_array(a) || n % 2 != 0 || n > 16) {
        srv_reply_error(r, 400,
                        "\"moves\" must be a list of moves in pairs: the opponent's move, your "
                        "reply, ... (at most 8 pairs; [] clears them)");
        return;
    }
    char ev[sizeof((srv_move_row *)0)->hub] = "cond"; /* one stored event */
    for (size_t i = 0; i < n; i++) {
        const json_t *v = json_array_get(a, i);
        const char *t = json_is_string(v) ? json_string_value(v) : "";
        size_t len = strlen(ev);
        if (!*t || strlen(t) > 60 || strpbrk(t, " \t\r\n") || len + 1 + strlen(t) >= sizeof ev) {
            srv_reply_error(r, 400,
                            "move %d: a move's text without spaces is needed (the line "
                            "is at most 190 characters)",
                            (int)i + 1);
            return;
        }
        snprintf(ev + len, sizeof ev - len, " %s", t);
    }
    int side;
    srv_game *g = open_to_play(s, id, key, &side, r);
    if (!g) {
        return;
    }
    if (side_to_move(g) == side) {
        srv_reply_error(r, 409,
                        "it is your move: conditional moves are made while the "
                        "opponent is to move");
        srv_game_unlock(g);
        return;
    }
    dm_move vm;
    dm_error e;
    memset(&e, 0, sizeof e);
    if (n > 0) {
        const char *first = json_string_value(json_array_get(a, 0));
        dm_status st = parse_here(g, first, &vm, NULL, 0, &e);
        if (st != DM_OK) {
            srv_reply_error(r, 400, "the opponent's move \"%s\": %s", first, e.message);
            srv_game_unlock(g);
            return;
        }
    }
    char saved[sizeof g->cond];
    int saved_side = g->cond_side;
    snprintf(saved, sizeof saved, "%s", g->cond);
    snprintf(g->cond, sizeof g->cond, "%s", ev[4] ? ev + 5 : "");
    g->cond_side = side;
    if (touch_commit(s, g, ev, r) != 0) {
        snprintf(g->cond, sizeof g->cond, "%s", saved);
        g->cond_side = saved_side;
    } else {
        r->status = 200;
        r->body = srv_game_state(g, side);
    }
    srv_game_unlock(g);
}

/* The player to move announces a touch (touch-move games): the server keeps the rule,
 * so that a move of another piece is refused (docs/WEB.md). */
void srv_op_touch(srv *s, const char *id, const char *key, const json_t *req, srv_reply *r)
{
    const json_t *jsq = json_object_get(req, "square");
    if (!json_is_integer(jsq)) {
        srv_reply_error(r, 400, "the body needs \"square\": the square's number");
        return;
    }
    int side;
    srv_game *g = open_to_play(s, id, key, &side, r);
    if (!g) {
        return;
    }
    if (touch_allowed(g, side, r)) {
        json_int_t sq = json_integer_value(jsq);
        dm_error e;
        memset(&e, 0, sizeof e);
        int committed = 0;
        dm_status st = sq < 1 || sq > 256 ? dm_error_set(&e, DM_EINVAL, 0, 0, "no such square")
                                          : dm_session_touch(g->session, (int)sq, &committed, &e);
        char ev[32];
        snprintf(ev, sizeof ev, "touch %d", (int)sq);
        if (st != DM_OK) {
            srv_reply_error(r, st == DM_ESTATE ? 409 : 400, "%s", e.message);
        } else if (!committed || touch_commit(s, g, ev, r) == 0) {
            r->status = 200;
            r->body = srv_game_state(g, side);
        }
    }
    srv_game_unlock(g);
}

/* "I adjust": the player to move's next touch commits nothing. */
void srv_op_adjust(srv *s, const char *id, const char *key, srv_reply *r)
{
    int side;
    srv_game *g = open_to_play(s, id, key, &side, r);
    if (!g) {
        return;
    }
    dm_error e;
    memset(&e, 0, sizeof e);
    if (!touch_allowed(g, side, r)) {
        /* refused */
    } else if (dm_session_adjust(g->session, &e) != DM_OK) {
        srv_reply_error(r, 409, "%s", e.message);
    } else if (touch_commit(s, g, "adjust", r) == 0) {
        r->status = 200;
        r->body = srv_game_state(g, side);
    }
    srv_game_unlock(g);
}

/* ---- the arbiter ------------------------------------------------------------------ */

enum {
    ARB_PAUSE,
    ARB_RESUME,
    ARB_ADD_TIME,
    ARB_DECLARE
};

/* Store the arbiter's event ev, applied to the locked game g frozen at virtual time t,
 * with the game's row, then let time run again. 0, or -1 with r (the change is the
 * caller's to undo). */
static int arbiter_commit(srv *s, srv_game *g, const char *ev, int64_t t, srv_reply *r)
{
    srv_move_row mr;
    snprintf(mr.hub, sizeof mr.hub, "%s", ev);
    mr.t = t;
    int64_t wms = -1, bms = -1;
    dm_clock *c = dm_session_clock(g->session);
    if (c) {
        wms = dm_clock_remaining(c, DM_WHITE);
        bms = dm_clock_remaining(c, DM_BLACK);
    }
    thaw(g);
    char err[256];
    int drc = srv_db_add_move(s->db, &g->row, g->nevents, &mr, 1, wms, bms, err, sizeof err);
    if (drc != 0) {
        store_refused(s, g, drc, "the arbiter's decision", err, r);
        return -1;
    }
    g->nevents++;
    return 0;
}

/* The arbiter resumes an adjourned game (locked, frozen at t): the clocks start and
 * the sealed move is played, both stored in one transaction ("resume", the move).
 * 0, or -1 with r and nothing changed (a move the position refuses: 409). */
static int resume_sealed(srv *s, srv_game *g, int64_t t, srv_reply *r)
{
    dm_clock *c = dm_session_clock(g->session);
    dm_error e;
    memset(&e, 0, sizeof e);
    if (g->nevents + 2 > SRV_MAX_EVENTS) {
        thaw(g);
        srv_reply_error(r, 409, "the game is too long (%d events)", SRV_MAX_EVENTS);
        return -1;
    }
    dm_clock_resume(c);
    if (dm_session_play_text(g->session, g->sealed, &e) != DM_OK) {
        dm_clock_pause(c);
        thaw(g);
        srv_reply_error(r, 409, "the sealed move %s cannot be played: %s", g->sealed, e.message);
        return -1;
    }
    srv_game_row saved = g->row;
    g->row.draw_offer = -1;
    g->row.takeback_offer = -1;
    sync_result(g);
    srv_move_row mr[2];
    snprintf(mr[0].hub, sizeof mr[0].hub, "resume");
    snprintf(mr[1].hub, sizeof mr[1].hub, "%s", g->sealed);
    mr[0].t = mr[1].t = t;
    int64_t wms = dm_clock_remaining(c, DM_WHITE), bms = dm_clock_remaining(c, DM_BLACK);
    thaw(g);
    char err[256];
    int drc = srv_db_add_move(s->db, &g->row, g->nevents, mr, 2, wms, bms, err, sizeof err);
    if (drc != 0) {
        dm_session_undo(g->session);
        dm_clock_pause(c);
        g->row = saved;
        store_refused(s, g, drc, "the resumption", err, r);
        return -1;
    }
    g->nevents += 2;
    g->sealed[0] = 0;
    return 0;
}

/* The request's arbiter action and its arguments, checked before the game is opened:
 * the action's index, or -1 with r (400). */
static int arbiter_request(const json_t *req, dm_color *who, int64_t *add_ms, dm_outcome *decided,
                           const char **note, srv_reply *r)
{
    static const char *const names[] = {"pause", "resume", "add_time", "declare"};
    const char *action = get_str(req, "action");
    int act = -1;
    for (int i = 0; action && i < 4; i++) {
        if (!strcmp(action, names[i])) {
            act = i;
        }
    }
    if (act < 0) {
        srv_reply_error(r, 400,
                        "\"action\" must be \"pause\", \"resume\", \"add_time\" or \"declare\"");
        return -1;
    }
    if (act == ARB_ADD_TIME) {
        const char *sd = get_str(req, "side");
        const json_t *sec = json_object_get(req, "seconds");
        if (!sd || (strcmp(sd, "white") && strcmp(sd, "black"))) {
            srv_reply_error(r, 400, "add_time needs \"side\": \"white\" or \"black\"");
            return -1;
        }
        if (!json_is_integer(sec) || json_integer_value(sec) < 1 ||
            json_integer_value(sec) > 36000) {
            srv_reply_error(r, 400, "add_time needs \"seconds\": a whole number from 1 to 36000");
            return -1;
        }
        *who = sd[0] == 'w' ? DM_WHITE : DM_BLACK;
        *add_ms = (int64_t)json_integer_value(sec) * 1000;
    }
    if (act == ARB_DECLARE) {
        const char *res = get_str(req, "result");
        *decided = outcome_of_text(res ? res : "");
        if (*decided == DM_OUTCOME_ONGOING) {
            srv_reply_error(r, 400,
                            "declare needs \"result\": \"2-0\" (White wins), \"0-2\" (Black "
                            "wins) or \"1-1\" (a draw)");
            return -1;
        }
        const json_t *jn = json_object_get(req, "note");
        if (jn && !json_is_string(jn)) {
            srv_reply_error(r, 400, "\"note\" must be a string");
            return -1;
        }
        *note = jn ? json_string_value(jn) : "";
        if (strlen(*note) >= sizeof((srv_game *)0)->arbiter_note) {
            srv_reply_error(r, 400, "the note is too long (at most %d bytes)",
                            (int)sizeof((srv_game *)0)->arbiter_note - 1);
            return -1;
        }
        for (const unsigned char *p = (const unsigned char *)*note; *p; p++) {
            if (*p < 0x20) {
                srv_reply_error(r, 400, "the note must be one line of text");
                return -1;
            }
        }
    }
    return act;
}

/* The arbiter's controls (docs/WEB.md): pause and resume the clocks, add time to a
 * side, declare a result by the arbiter's decision; each an event of the game's log,
 * so that a restart keeps it. */
void srv_op_arbiter(srv *s, const char *id, const char *key, const json_t *req, srv_reply *r)
{
    if (!json_is_object(req)) {
        srv_reply_error(r, 400, "the body must be a JSON object");
        return;
    }
    dm_color who = DM_WHITE;
    int64_t add_ms = 0;
    dm_outcome decided = DM_OUTCOME_ONGOING;
    const char *note = "";
    int act = arbiter_request(req, &who, &add_ms, &decided, &note, r);
    if (act < 0) {
        return;
    }
    int side;
    srv_game *g = srv_game_open(s, id, key, &side, r);
    if (!g) {
        return;
    }
    poll_result(s, g);
    dm_clock *c = dm_session_clock(g->session);
    dm_reason why;
    dm_outcome now = dm_session_result(g->session, &why);
    if (side != SRV_SIDE_ARBITER) {
        srv_reply_error(r, 403,
                        "this is the %s's link, not the arbiter's: only the arbiter's key "
                        "controls the game",
                        side_name(side));
    } else if (g->row.mode == SRV_MODE_REVIEW) {
        srv_reply_error(r, 409, "game %s is a record for review, not a game in play", id);
    } else if (now != DM_OUTCOME_ONGOING) {
        srv_reply_error(r, 409, "the game is over: %s %s", dm_outcome_str(now), dm_reason_str(why));
    } else if (act != ARB_DECLARE && !c) {
        srv_reply_error(r, 409, "this game has no clock");
    } else if (act == ARB_PAUSE && clock_paused(g)) {
        srv_reply_error(r, 409, "the clocks are already paused");
    } else if (act == ARB_RESUME && !clock_paused(g)) {
        srv_reply_error(r, 409, "the clocks are not paused");
    } else if (g->nevents >= SRV_MAX_EVENTS) {
        srv_reply_error(r, 409, "the game is too long (%d events)", SRV_MAX_EVENTS);
    } else {
        char ev[200];
        int64_t t = freeze(g), before = 0;
        srv_game_row saved = g->row;
        dm_status st;
        if (act == ARB_RESUME && g->sealed[0]) {
            st = DM_OK; /* the sealed move is played: resume_sealed */
        } else if (act == ARB_PAUSE || act == ARB_RESUME) {
            st = act == ARB_PAUSE ? dm_clock_pause(c) : dm_clock_resume(c);
            snprintf(ev, sizeof ev, "%s", act == ARB_PAUSE ? "pause" : "resume");
        } else if (act == ARB_ADD_TIME) {
            before = dm_clock_remaining(c, who);
            st = dm_clock_set_remaining(c, who, before + add_ms);
            snprintf(ev, sizeof ev, "add-time %s %lld", who == DM_WHITE ? "white" : "black",
                     (long long)add_ms);
        } else {
            st = dm_session_declare_arbiter(g->session, decided);
            snprintf(ev, sizeof ev, "declare %s%s%s", dm_outcome_str(decided), note[0] ? " " : "",
                     note);
            if (st == DM_OK) {
                sync_result(g);
                g->row.end_t = t;
            }
        }
        if (act == ARB_RESUME && g->sealed[0]) {
            if (resume_sealed(s, g, t, r) == 0) {
                game_changed(s, g);
                r->status = 200;
                r->body = srv_game_state(g, side);
            }
        } else if (st != DM_OK) {
            thaw(g);
            srv_reply_error(r, 409, "the %s was refused (%s)", ev, dm_status_str(st));
        } else if (arbiter_commit(s, g, ev, t, r) != 0) {
            /* undone, but for a declared result: the session keeps it (as a resignation
             * not stored), the row says the game goes on */
            if (act == ARB_PAUSE) {
                dm_clock_resume(c);
            } else if (act == ARB_RESUME) {
                dm_clock_pause(c);
            } else if (act == ARB_ADD_TIME) {
                dm_clock_set_remaining(c, who,
                                       dm_clock_remaining(c, who) - add_ms > 0
                                           ? dm_clock_remaining(c, who) - add_ms
                                           : 1);
            }
            g->row = saved;
        } else {
            if (act == ARB_DECLARE) {
                snprintf(g->arbiter_note, sizeof g->arbiter_note, "%s", note);
                g->sealed[0] = 0;
            }
            game_changed(s, g);
            r->status = 200;
            r->body = srv_game_state(g, side);
        }
    }
    srv_game_unlock(g);
}

/* Adjournment (FMJD): the player to move seals a move instead of playing it; the
 * clocks stop with the mover's time counted up to the sealing, the move is stored
 * ("seal HUB") but shown to no one, and the arbiter's resume plays it. */
void srv_op_seal(srv *s, const char *id, const char *key, const json_t *req, srv_reply *r)
{
    const char *text = get_str(req, "move");
    if (!text) {
        srv_reply_error(r, 400, "the body needs \"move\": the sealed move's text (\"32-28\")");
        return;
    }
    int side;
    srv_game *g = open_to_play(s, id, key, &side, r);
    if (!g) {
        return;
    }
    dm_clock *c = dm_session_clock(g->session);
    dm_move vm;
    dm_error e;
    memset(&e, 0, sizeof e);
    char hub[190];
    if (!g->row.keys[SRV_SIDE_ARBITER][0]) {
        srv_reply_error(r, 409, "this game has no arbiter to adjourn it");
    } else if (!c) {
        srv_reply_error(r, 409, "this game has no clock");
    } else if (clock_paused(g)) {
        srv_reply_error(r, 409, "the arbiter has paused the clocks: no move until they resume");
    } else if (side != side_to_move(g)) {
        srv_reply_error(r, 409, "only the player to move seals a move");
    } else if (parse_here(g, text, &vm, hub, sizeof hub, &e) != DM_OK) {
        srv_reply_error(r, 400, "%s", e.message);
    } else if (g->nevents >= SRV_MAX_EVENTS) {
        srv_reply_error(r, 409, "the game is too long (%d events)", SRV_MAX_EVENTS);
    } else {
        char ev[200];
        snprintf(ev, sizeof ev, "seal %s", hub);
        int64_t t = freeze(g);
        if (dm_clock_pause(c) != DM_OK) {
            thaw(g);
            poll_result(s, g); /* the flag fell before the sealing */
            srv_reply_error(r, 409, "too late: the clock has stopped");
        } else if (arbiter_commit(s, g, ev, t, r) != 0) {
            dm_clock_resume(c);
        } else {
            snprintf(g->sealed, sizeof g->sealed, "%s", hub);
            g->sealed_side = side;
            game_changed(s, g);
            r->status = 200;
            r->body = srv_game_state(g, side);
        }
    }
    srv_game_unlock(g);
}

void srv_op_resign(srv *s, const char *id, const char *key, srv_reply *r)
{
    int side;
    srv_game *g = open_to_play(s, id, key, &side, r);
    if (!g) {
        return;
    }
    srv_game_row saved = g->row;
    int64_t t = freeze(g);
    dm_status rs = dm_session_resign(g->session, (dm_color)side);
    thaw(g);
    if (rs != DM_OK) {
        srv_reply_error(r, 409, "cannot resign now");
        srv_game_unlock(g);
        return;
    }
    sync_result(g);
    g->row.end_t = t;
    char err[256];
    if (srv_db_update_game(s->db, &g->row, err, sizeof err) != 0) {
        g->row = saved; /* the session keeps the resignation: report it */
        srv_reply_error(r, 503, "the resignation was not stored: %s", err);
        srv_game_unlock(g);
        return;
    }
    game_changed(s, g);
    r->status = 200;
    r->body = srv_game_state(g, side);
    srv_game_unlock(g);
}

void srv_op_draw(srv *s, const char *id, const char *key, const json_t *req, srv_reply *r)
{
    const char *action = get_str(req, "action");
    if (!action ||
        (strcmp(action, "offer") && strcmp(action, "accept") && strcmp(action, "decline"))) {
        srv_reply_error(r, 400, "\"action\" must be \"offer\", \"accept\" or \"decline\"");
        return;
    }
    int side;
    srv_game *g = open_to_play(s, id, key, &side, r);
    if (!g) {
        return;
    }
    int other = 1 - side;
    if (!strcmp(action, "offer")) {
        if (g->row.mode == SRV_MODE_ENGINE) {
            /* the engine accepts a draw in a position with nothing left to play for:
             * a 16- or 5-move ending, or kings on both sides */
            const dm_board *vb = dm_session_position(g->session);
            int kings[2] = {0, 0};
            for (int sq = 1; sq <= vb->variant->squares; sq++) {
                dm_piece p = dm_board_piece(vb, sq);
                kings[0] += p == DM_WHITE_KING;
                kings[1] += p == DM_BLACK_KING;
            }
            int dead = kings[0] > 0 && kings[1] > 0; /* kings on both sides */
            const dm_game *gm = dm_session_game(g->session);
            dm_draw_count c; /* a material rule's count running (international: the 16-
                              * or 5-move ending) */
            dm_game_draw_count(&c, gm);
            dead = dead || c.material_plies >= 0;
            if (!dead) {
                srv_reply_error(r, 409, "the engine declines: there is still play in the position");
                srv_game_unlock(g);
                return;
            }
            action = "accept";
        } else if (g->row.draw_offer == other) {
            action = "accept";
        } else {
            g->row.draw_offer = side;
        }
    }
    if (!strcmp(action, "accept")) {
        if (g->row.mode != SRV_MODE_ENGINE && g->row.draw_offer != other) {
            srv_reply_error(r, 409, "there is no draw offer to accept");
            srv_game_unlock(g);
            return;
        }
        dm_session_agree_draw(g->session);
        sync_result(g);
    } else if (!strcmp(action, "decline")) {
        if (g->row.draw_offer != other) {
            srv_reply_error(r, 409, "there is no draw offer to decline");
            srv_game_unlock(g);
            return;
        }
        g->row.draw_offer = -1;
    }
    char err[256];
    srv_db_update_game(s->db, &g->row, err, sizeof err);
    game_changed(s, g);
    r->status = 200;
    r->body = srv_game_state(g, side);
    srv_game_unlock(g);
}

/* Plies to take back so that side is to move again without its last move. */
static int takeback_plies(srv_game *g, int side)
{
    return side_to_move(g) == side ? 2 : 1;
}

/* Take back n plies of the locked game, committed as "undo" events. 0 or -1 with r. */
static int take_back(srv *s, srv_game *g, int n, srv_reply *r)
{
    if (dm_game_ply(dm_session_game(g->session)) < n) {
        srv_reply_error(r, 409, "there is no move of that side to take back");
        return -1;
    }
    if (g->nevents + n > SRV_MAX_EVENTS) {
        srv_reply_error(r, 409, "too many takebacks in this game");
        return -1;
    }
    srv_move_row ev[2];
    int done = 0;
    int64_t t = freeze(g);
    for (; done < n; done++) {
        ev[done].t = t;
        snprintf(ev[done].hub, sizeof ev[done].hub, "undo");
        if (dm_session_undo(g->session) != DM_OK) {
            break;
        }
    }
    thaw(g);
    if (done < n) {
        for (int i = 0; i < done; i++) {
            dm_session_redo(g->session);
        }
        srv_reply_error(r, 409, "the move cannot be taken back");
        return -1;
    }
    srv_game_row saved = g->row;
    g->row.takeback_offer = -1;
    g->row.draw_offer = -1;
    char cond_saved[sizeof g->cond];
    snprintf(cond_saved, sizeof cond_saved, "%s", g->cond);
    g->cond[0] = 0; /* the conditional moves were for another position */
    sync_result(g);
    int64_t wms = -1, bms = -1;
    dm_clock *c = dm_session_clock(g->session);
    if (c) {
        wms = dm_clock_remaining(c, DM_WHITE);
        bms = dm_clock_remaining(c, DM_BLACK);
    }
    char err[256];
    int drc = srv_db_add_move(s->db, &g->row, g->nevents, ev, n, wms, bms, err, sizeof err);
    if (drc != 0) {
        for (int i = 0; i < n; i++) {
            dm_session_redo(g->session);
        }
        g->row = saved;
        snprintf(g->cond, sizeof g->cond, "%s", cond_saved);
        store_refused(s, g, drc, "the takeback", err, r);
        return -1;
    }
    g->nevents += n;
    game_changed(s, g);
    return 0;
}

/* A takeback asked for, granted or refused: both players must agree (the engine
 * always does); it takes back the asker's last move (and the reply to it). */
void srv_op_takeback(srv *s, const char *id, const char *key, const json_t *req, srv_reply *r)
{
    const char *action = get_str(req, "action");
    if (!action ||
        (strcmp(action, "offer") && strcmp(action, "accept") && strcmp(action, "decline"))) {
        srv_reply_error(r, 400, "\"action\" must be \"offer\", \"accept\" or \"decline\"");
        return;
    }
    int side;
    srv_game *g = open_to_play(s, id, key, &side, r);
    if (!g) {
        return;
    }
    if (g->sealed[0]) {
        srv_reply_error(r, 409, "the game is adjourned: a sealed move waits for the arbiter");
        srv_game_unlock(g);
        return;
    }
    int other = 1 - side;
    int rc = 0;
    char err[256];
    if (!strcmp(action, "offer")) {
        if (g->row.mode == SRV_MODE_ENGINE) {
            rc = take_back(s, g, takeback_plies(g, side), r); /* the engine agrees */
        } else if (g->row.takeback_offer == other) {
            rc = take_back(s, g, takeback_plies(g, other), r);
        } else if (dm_game_ply(dm_session_game(g->session)) < takeback_plies(g, side)) {
            srv_reply_error(r, 409, "there is no move of yours to take back");
            rc = -1;
        } else {
            g->row.takeback_offer = side;
            srv_db_update_game(s->db, &g->row, err, sizeof err);
            game_changed(s, g);
        }
    } else if (g->row.takeback_offer != other) {
        srv_reply_error(r, 409, "there is no takeback request to %s", action);
        rc = -1;
    } else if (!strcmp(action, "accept")) {
        rc = take_back(s, g, takeback_plies(g, other), r);
    } else {
        g->row.takeback_offer = -1;
        srv_db_update_game(s->db, &g->row, err, sizeof err);
        game_changed(s, g);
    }
    if (rc == 0) {
        r->status = 200;
        r->body = srv_game_state(g, side);
    }
    srv_game_unlock(g);
}

void srv_op_pdn(srv *s, const char *id, const char *key, char **text, srv_reply *r)
{
    int side;
    srv_game *g = srv_game_open(s, id, key, &side, r);
    if (!g) {
        return;
    }
    poll_result(s, g);
    dm_time_control tc;
    dm_error e;
    dm_pdn_game_tags tags = DM_PDN_GAME_TAGS_INIT;
    char date[16];
    time_t now = (time_t)(g->row.created / 1000);
    struct tm tmv;
    gmtime_r(&now, &tmv);
    strftime(date, sizeof date, "%Y.%m.%d", &tmv);
    tags.event = "damier serve";
    tags.site = "damier web board";
    tags.date = date;
    tags.white = g->row.white_name;
    tags.black = g->row.black_name;
    if (strcmp(g->row.time_control, "-") &&
        dm_time_control_parse(&tc, g->row.time_control, &e) == DM_OK) {
        tags.time_control = &tc;
    }
    size_t len;
    if (dm_pdn_write_game(text, &len, dm_session_game(g->session), &tags, DM_NOTATION_PDN) !=
        DM_OK) {
        srv_reply_error(r, 500, "cannot write the PDN");
    } else {
        r->status = 200;
    }
    srv_game_unlock(g);
}

/* A record read from PDN stored as a game to review. */
static json_t *store_review(srv *s, const dm_game *gm, const dm_pdn_game *rec, char *err,
                            size_t errcap)
{
    srv_game_row row;
    memset(&row, 0, sizeof row);
    row.mode = SRV_MODE_REVIEW;
    row.engine_side = -1;
    row.level = 5;
    const dm_variant *var = dm_game_variant(gm);
    snprintf(row.variant, sizeof row.variant, "%s", var->name);
    snprintf(row.time_control, sizeof row.time_control, "-");
    char start[512], ini_fen[512];
    dm_board ini; /* a start FEN only when the game does not start from the variant's start */
    dm_board_start(&ini, var);
    dm_board_to_fen(start, sizeof start, dm_game_position_at(gm, 0), var->algebraic);
    dm_board_to_fen(ini_fen, sizeof ini_fen, &ini, var->algebraic);
    if (strcmp(start, ini_fen) != 0) {
        size_t n = strlen(start);
        if (n >= sizeof row.start_fen) {
            snprintf(err, errcap, "the start position's FEN is too long");
            return NULL;
        }
        memcpy(row.start_fen, start, n + 1);
    }
    dm_reason why;
    dm_outcome o = dm_game_result(gm, &why);
    snprintf(row.result, sizeof row.result, "%s", dm_outcome_str(o));
    snprintf(row.reason, sizeof row.reason, "%s", dm_reason_str(why));
    row.draw_offer = -1;
    row.takeback_offer = -1;
    const char *w = dm_pdn_game_tag(rec, "White"), *b = dm_pdn_game_tag(rec, "Black");
    snprintf(row.white_name, sizeof row.white_name, "%s", w ? w : "?");
    snprintf(row.black_name, sizeof row.black_name, "%s", b ? b : "?");
    srv_utf8_fix(row.white_name); /* a PDN's tags may be in any encoding */
    srv_utf8_fix(row.black_name);
    random_hex(row.id, 8);
    for (int i = 0; i < 3; i++) {
        random_hex(row.keys[i], 16);
    }
    row.created = srv_wall_ms();
    row.t0_wall = row.created;
    int n = dm_game_ply(gm);
    if (n > SRV_MAX_PLIES) {
        snprintf(err, errcap, "the game is too long (%d plies, at most %d)", n, SRV_MAX_PLIES);
        return NULL;
    }
    srv_move_row *mv = calloc((size_t)(n ? n : 1), sizeof *mv);
    if (!mv) {
        snprintf(err, errcap, "out of memory");
        return NULL;
    }
    for (int i = 0; i < n; i++) {
        dm_move_to_text(mv[i].hub, sizeof mv[i].hub, dm_game_position_at(gm, i),
                        dm_game_move_at(gm, i), DM_NOTATION_HUB, DM_SQUARES_DEFAULT);
    }
    char e2[256];
    srv_game *g = game_new(&row, 1, e2, sizeof e2);
    int ok = g != NULL;
    for (int i = 0; ok && i < n; i++) {
        ok = dm_session_play_text(g->session, mv[i].hub, NULL) == DM_OK;
    }
    if (ok) {
        int reason = reason_from_text(row.reason);
        dm_color loser = !strcmp(row.result, "2-0") ? DM_BLACK : DM_WHITE;
        if (reason == DM_REASON_RESIGNATION) {
            dm_session_resign(g->session, loser);
        } else if (reason == DM_REASON_AGREEMENT) {
            dm_session_agree_draw(g->session);
        } else if (reason == DM_REASON_FORFEIT) {
            dm_session_forfeit(g->session, loser);
        } else if (reason == DM_REASON_ARBITER) {
            dm_session_declare_arbiter(g->session, outcome_of_text(row.result));
        }
        g->replaying = 0;
        g->nevents = n;
        ok = srv_db_insert_game(s->db, &row, mv, n, e2, sizeof e2) == 0 && add_game(s, g) == 0;
    }
    free(mv);
    if (!ok) {
        game_free(g);
        snprintf(err, errcap, "not stored: %s", e2);
        return NULL;
    }
    return json_pack("{s:s,s:s,s:s,s:s,s:i,s:o}", "id", row.id, "white", row.white_name, "black",
                     row.black_name, "result", row.result, "plies", n, "link", link_json(g, 2));
}

void srv_op_upload(srv *s, const char *text, size_t len, srv_reply *r)
{
    dm_pdn_reader *rd = NULL;
    if (dm_pdn_reader_new(&rd, text, len, "upload") != DM_OK) {
        srv_reply_error(r, 500, "out of memory");
        return;
    }
    json_t *games = json_array(), *errors = json_array();
    for (int count = 0; count < SRV_MAX_GAMES_PER_UPLOAD; count++) {
        dm_pdn_game *rec = NULL;
        dm_error e;
        memset(&e, 0, sizeof e);
        dm_status st = dm_pdn_reader_next(&rec, rd, &e);
        if (st == DM_OK && !rec) {
            break;
        }
        int number = dm_pdn_reader_count(rd);
        srv_utf8_fix(e.message); /* it may quote the file's bytes */
        if (st != DM_OK) {
            json_array_append_new(errors,
                                  json_pack("{s:i,s:i,s:i,s:s}", "game", number, "line", e.line,
                                            "column", e.column, "message", e.message));
            if (st == DM_ENOMEM) {
                break;
            }
            continue;
        }
        dm_game *gm = NULL;
        st = dm_pdn_to_game(&gm, rec, 0, &e);
        srv_utf8_fix(e.message);
        if (st != DM_OK) {
            json_array_append_new(errors,
                                  json_pack("{s:i,s:i,s:i,s:s}", "game", number, "line", e.line,
                                            "column", e.column, "message", e.message));
        } else {
            char err[300] = "";
            json_t *one = store_review(s, gm, rec, err, sizeof err);
            srv_utf8_fix(err);
            if (one) {
                json_array_append_new(games, one);
            } else {
                json_array_append_new(errors, json_pack("{s:i,s:i,s:i,s:s}", "game", number, "line",
                                                        rec->line, "column", 1, "message", err));
            }
            dm_game_free(gm);
        }
        dm_pdn_game_free(rec);
    }
    dm_pdn_reader_free(rd);
    r->status = json_array_size(games) > 0 ? 200 : 400;
    r->body = json_pack("{s:o,s:o}", "games", games, "errors", errors);
    if (r->status == 400) {
        json_object_set_new(r->body, "error",
                            json_string(json_array_size(errors) ? "no game could be read"
                                                                : "the file holds no game"));
    }
}

void srv_op_position(const char *variant, const char *fen, const char *move, srv_reply *r)
{
    const dm_variant *v;
    dm_error e;
    memset(&e, 0, sizeof e);
    if (dm_variant_from_name(&v, variant, &e) != DM_OK) {
        srv_reply_error(r, 400, "%s", e.message);
        return;
    }
    dm_board b;
    if (!fen || !*fen) {
        dm_board_start(&b, v);
    } else if (dm_board_from_fen(&b, v, fen, &e) != DM_OK) {
        srv_reply_error(r, 400, "FEN, column %d: %s", e.column, e.message);
        return;
    }
    dm_game *g = NULL;
    if (dm_game_new(&g, &b) != DM_OK) {
        srv_reply_error(r, 400, "not a position of %s", v->title);
        return;
    }
    /* international: the page's first protocol (game_state): no variant, reason text,
     * board description or pieces, moves without "promote" */
    int intl = v->id == DM_VARIANT_INTERNATIONAL;
    json_t *played = NULL;
    if (move && *move) { /* the move judged by the variant's rules */
        dm_move m;
        if (dm_move_parse(&m, &b, move, &e) != DM_OK) {
            dm_game_free(g);
            srv_reply_error(r, 400, "%s", e.message);
            return;
        }
        played = state_move_json(&b, &m);
        dm_board_apply(&b, &m);
        dm_game_free(g);
        g = NULL;
        if (dm_game_new(&g, &b) != DM_OK) {
            json_decref(played);
            srv_reply_error(r, 400, "not a position of %s", v->title);
            return;
        }
    }
    dm_reason why;
    dm_outcome o = dm_game_result(g, &why);
    char why_text[160];
    dm_game_reason_text(why_text, sizeof why_text, g);
    dm_game_free(g);
    json_t *legal = json_array();
    dm_movelist *list = malloc(sizeof *list);
    if (list) {
        dm_movegen_legal(list, &b);
        for (int i = 0; i < list->count; i++) {
            json_array_append_new(legal, state_move_json(&b, &list->moves[i]));
        }
        free(list);
    }
    char out[512];
    dm_board_to_fen(out, sizeof out, &b, v->algebraic);
    r->status = 200;
    if (intl) {
        r->body = json_pack("{s:s,s:s,s:o,s:s,s:s}", "fen", out, "turn",
                            b.side == DM_WHITE ? "white" : "black", "legal", legal, "result",
                            dm_outcome_str(o), "reason", dm_reason_str(why));
    } else {
        r->body =
            json_pack("{s:s,s:s,s:s,s:o,s:s,s:s,s:s,s:o,s:o}", "variant", v->name, "fen", out,
                      "turn", b.side == DM_WHITE ? "white" : "black", "legal", legal, "result",
                      dm_outcome_str(o), "reason", dm_reason_str(why), "reason_text", why_text,
                      "board", srv_vboard_desc(v), "position", srv_vboard_json(&b));
    }
    if (played) {
        json_object_set_new(r->body, "played", played);
    }
}

void srv_op_annotate(srv *s, const char *id, const char *key, const json_t *req, srv_reply *r)
{
    int depth = CLI_ANNOTATE_DEFAULT_DEPTH;
    const json_t *d = json_object_get(req, "depth");
    if (d) {
        if (!json_is_integer(d) || json_integer_value(d) < 1 || json_integer_value(d) > 12) {
            srv_reply_error(r, 400, "\"depth\" must be a whole number from 1 to 12");
            return;
        }
        depth = (int)json_integer_value(d);
    }
    int side;
    srv_game *g = srv_game_open(s, id, key, &side, r);
    if (!g) {
        return;
    }
    /* a copy of the game (any variant), so that the search runs with the game unlocked */
    const dm_game *gm = dm_session_game(g->session);
    dm_game *copy = NULL;
    int n = dm_game_ply(gm);
    int ok = dm_game_new(&copy, dm_game_position_at(gm, 0)) == DM_OK;
    for (int i = 0; ok && i < n; i++) {
        ok = dm_game_play(copy, dm_game_move_at(gm, i)) == DM_OK;
    }
    if (ok) {
        int reason = reason_from_text(g->row.reason);
        dm_color loser = !strcmp(g->row.result, "2-0") ? DM_BLACK : DM_WHITE;
        if (reason == DM_REASON_RESIGNATION) {
            dm_game_resign(copy, loser);
        } else if (reason == DM_REASON_AGREEMENT) {
            dm_game_agree_draw(copy);
        } else if (reason == DM_REASON_TIME) {
            dm_game_flag(copy, loser);
        } else if (reason == DM_REASON_FORFEIT) {
            dm_game_forfeit(copy, loser);
        } else if (reason == DM_REASON_ARBITER) {
            dm_game_declare_arbiter(copy, outcome_of_text(g->row.result));
        }
    }
    srv_game_row row = g->row;
    srv_game_unlock(g);
    if (!ok) {
        dm_game_free(copy);
        srv_reply_error(r, 503, "out of memory");
        return;
    }
    pthread_mutex_lock(&s->an_mu);
    int busy = s->analyses >= (s->opt.max_analyses > 0 ? s->opt.max_analyses : 1);
    if (!busy) {
        s->analyses++;
    }
    pthread_mutex_unlock(&s->an_mu);
    if (busy) {
        dm_game_free(copy);
        srv_reply_error(r, 503, "the engine is busy with other analyses; try again in a moment");
        return;
    }
    dm_engine_options eo = DM_ENGINE_OPTIONS_INIT;
    eo.tt_mib = 16;
    dm_engine *e = NULL;
    cli_annotation *a = malloc(sizeof *a * (size_t)(n > 0 ? n : 1));
    dm_pdn_game *rec = NULL;
    char *pdn = NULL;
    dm_pdn_game_tags tags = DM_PDN_GAME_TAGS_INIT;
    tags.event = "damier serve";
    tags.site = "damier web board";
    tags.white = row.white_name;
    tags.black = row.black_name;
    int fine = a && dm_engine_create(&e, &eo) == DM_OK &&
               cli_annotate_game(a, e, copy, depth, &s->stopping) == DM_OK &&
               cli_annotate_record(&rec, copy, a, &tags) == DM_OK &&
               dm_pdn_write(&pdn, NULL, rec, DM_NOTATION_PDN) == DM_OK;
    pthread_mutex_lock(&s->an_mu);
    s->analyses--;
    pthread_mutex_unlock(&s->an_mu);
    if (fine) {
        json_t *marks = json_array(), *evals = json_array(), *best = json_array();
        json_t *loss = json_array();
        for (int i = 0; i < n; i++) {
            json_array_append_new(marks, json_string(a[i].mark));
            json_array_append_new(evals, json_integer(a[i].eval_white));
            json_array_append_new(best, json_string(a[i].best));
            json_array_append_new(loss, json_integer(a[i].loss));
        }
        r->status = 200;
        r->body = json_pack("{s:i,s:o,s:o,s:o,s:o,s:s}", "depth", depth, "marks", marks, "evals",
                            evals, "best", best, "loss", loss, "pdn", pdn);
    } else {
        srv_reply_error(r, 503, "the annotation failed (out of memory)");
    }
    free(pdn);
    dm_pdn_game_free(rec);
    dm_engine_free(e);
    free(a);
    dm_game_free(copy);
}
