/* SPDX-License-Identifier: MIT
 * apps/serve/srv_analysis.c: the analysis board's engine: one search at a time per
 * WebSocket connection, on a thread of its own, each iteration sent as "info"
 * messages (depth, score, nodes, the principal variation in text and squares; with
 * "multipv": N in the request, one per line, "multipv" 1..N best first); at
 * most --analyses searches run at once, each for at most SRV_ANALYSIS_SECONDS. */
#define _POSIX_C_SOURCE 200809L
#include "serve.h"

#include <stdlib.h>
#include <string.h>

#include <damier/egdb.h>
#include <damier/engine.h>

#define SRV_ANALYSIS_SECONDS 120.0
#define SRV_ANALYSIS_MAX_LINES 10 /* multi-PV lines a page may ask for */

struct srv_analysis {
    srv *s;
    struct mg_connection *c;
    dm_engine *engine;
    pthread_t th;
    int running; /* a thread to join */
    int counted; /* holds one of the server's analysis slots */
    int gen;     /* number of the search, echoed in its messages */
    dm_limits lim;
    dm_search_input in; /* the position of any variant and its search */
};

/* A database score (DM_SCORE_EGDB - d) is "db_win"/"db_loss" with the plies to the
 * conversion. */
static json_t *score_json(int score)
{
    if (score >= DM_SCORE_EGDB_MIN && score < DM_SCORE_WIN_MIN) {
        return json_pack("{s:s,s:i}", "kind", "db_win", "plies", DM_SCORE_EGDB - score);
    }
    if (score <= -DM_SCORE_EGDB_MIN && score > -DM_SCORE_WIN_MIN) {
        return json_pack("{s:s,s:i}", "kind", "db_loss", "plies", DM_SCORE_EGDB + score);
    }
    if (score >= DM_SCORE_WIN_MIN) {
        return json_pack("{s:s,s:i}", "kind", "win", "plies", DM_SCORE_WIN - score);
    }
    if (score <= -DM_SCORE_WIN_MIN) {
        return json_pack("{s:s,s:i}", "kind", "loss", "plies", DM_SCORE_WIN + score);
    }
    return json_pack("{s:s,s:i}", "kind", "cp", "value", score);
}

/* The database of variant v among the server's (NULL: none). */
static const struct dm_egdb *egdb_of(const srv_options *o, const dm_variant *v)
{
    for (int i = 0; i < SRV_EGDB_MAX; i++) {
        if (o->egdb[i] && dm_egdb_variant(o->egdb[i]) == v->id) {
            return o->egdb[i];
        }
    }
    return NULL;
}

/* The principal variation: texts in the variant's notation, paths in the board's
 * squares. */
static void on_info(const dm_info *info, void *payload)
{
    srv_analysis *a = payload;
    json_t *pv = json_array(), *paths = json_array();
    dm_board b = a->in.root;
    for (int i = 0; i < info->pv_count; i++) {
        json_t *m = srv_vmove_json(&b, &info->pv[i]);
        json_array_append(pv, json_object_get(m, "text"));
        json_array_append(paths, json_object_get(m, "path"));
        json_decref(m);
        dm_board_apply(&b, &info->pv[i]);
    }
    json_t *score = score_json(info->score);
    /* a root its variant's database draws: a database draw (the search's score of a
     * drawn root is 0, not "draw") */
    int dtc = 0;
    const struct dm_egdb *db = egdb_of(&a->s->opt, a->in.root.variant);
    if (db && info->multipv <= 1 && dm_egdb_probe(db, &a->in.root, &dtc) == DM_EGDB_DRAW) {
        json_decref(score);
        score = json_pack("{s:s,s:i}", "kind", "db_draw", "plies", 0);
    }
    srv_ws_send(a->c, json_pack("{s:s,s:i,s:i,s:i,s:o,s:I,s:f,s:f,s:o,s:o,s:i,s:i}", "t", "info",
                                "search", a->gen, "depth", info->depth, "seldepth", info->seldepth,
                                "score", score, "nodes", (json_int_t)info->nodes, "nps", info->nps,
                                "time", info->time, "pv", pv, "pv_paths", paths, "multipv",
                                info->multipv, "lines", info->multipv_count));
}

static void release_slot(srv_analysis *a);

static void *run(void *arg)
{
    srv_analysis *a = arg;
    dm_result r;
    memset(&r, 0, sizeof r);
    dm_engine_search(&r, a->engine, &a->in, &a->lim, on_info, a, NULL);
    json_t *done = json_pack("{s:s,s:i,s:i}", "t", "done", "search", a->gen, "depth", r.depth);
    if (r.has_move) {
        char text[400];
        dm_move_to_text(text, sizeof text, &a->in.root, &r.best, DM_NOTATION_PDN,
                        DM_SQUARES_DEFAULT);
        json_object_set_new(done, "best", json_string(text));
    }
    release_slot(a);
    srv_ws_send(a->c, done);
    return NULL;
}

srv_analysis *srv_analysis_new(srv *s, struct mg_connection *c)
{
    srv_analysis *a = calloc(1, sizeof *a);
    if (a) {
        a->s = s;
        a->c = c;
    }
    return a;
}

/* From the search thread at its end or from the connection's: under an_mu. */
static void release_slot(srv_analysis *a)
{
    pthread_mutex_lock(&a->s->an_mu);
    if (a->counted) {
        a->s->analyses--;
        a->counted = 0;
    }
    pthread_mutex_unlock(&a->s->an_mu);
}

static void stop(srv_analysis *a)
{
    if (a->running) {
        dm_engine_stop(a->engine);
        pthread_join(a->th, NULL);
        a->running = 0;
    }
    release_slot(a);
}

static void error(srv_analysis *a, int status, const char *msg)
{
    srv_ws_send(a->c, json_pack("{s:s,s:i,s:s}", "t", "error", "status", status, "error", msg));
}

void srv_analysis_message(srv_analysis *a, const json_t *msg)
{
    const json_t *t = json_object_get(msg, "t");
    const char *type = json_is_string(t) ? json_string_value(t) : "";
    if (!strcmp(type, "stop")) {
        stop(a);
        return;
    }
    if (strcmp(type, "analyse") != 0) {
        error(a, 400, "unknown message type (analyse, stop)");
        return;
    }
    const json_t *fen = json_object_get(msg, "fen");
    dm_error e;
    memset(&e, 0, sizeof e);
    if (fen && !json_is_string(fen)) {
        error(a, 400, "\"fen\" must be a string");
        return;
    }
    /* the variant (international when none is named) and its FEN, every variant
     * through the same calls */
    const json_t *variant = json_object_get(msg, "variant");
    const dm_variant *var = dm_variant_get(DM_VARIANT_INTERNATIONAL);
    dm_board vb;
    if (variant && !json_is_string(variant)) {
        error(a, 400, "\"variant\" must be a variant's name");
        return;
    }
    if (variant && dm_variant_from_name(&var, json_string_value(variant), &e) != DM_OK) {
        error(a, 400, e.message);
        return;
    }
    if (!fen) {
        dm_board_start(&vb, var);
    } else if (dm_board_from_fen(&vb, var, json_string_value(fen), &e) != DM_OK) {
        char m[300];
        snprintf(m, sizeof m, "FEN, column %d: %s", e.column, e.message);
        error(a, 400, m);
        return;
    }
    dm_movelist *list = malloc(sizeof *list);
    int n = list ? dm_movegen_legal(list, &vb) : 0;
    free(list);
    if (n == 0) {
        error(a, 400, "the side to move has no legal move: nothing to analyse");
        return;
    }
    const json_t *depth = json_object_get(msg, "depth");
    if (depth && (!json_is_integer(depth) || json_integer_value(depth) < 1 ||
                  json_integer_value(depth) > DM_ENGINE_MAX_DEPTH)) {
        error(a, 400, "\"depth\" must be a whole number from 1 to 120");
        return;
    }
    const json_t *multipv = json_object_get(msg, "multipv");
    if (multipv && (!json_is_integer(multipv) || json_integer_value(multipv) < 1 ||
                    json_integer_value(multipv) > SRV_ANALYSIS_MAX_LINES)) {
        char m[80];
        snprintf(m, sizeof m, "\"multipv\" must be a whole number from 1 to %d",
                 SRV_ANALYSIS_MAX_LINES);
        error(a, 400, m);
        return;
    }
    stop(a);
    pthread_mutex_lock(&a->s->an_mu);
    int busy = a->s->analyses >= (a->s->opt.max_analyses > 0 ? a->s->opt.max_analyses : 1);
    if (!busy) {
        a->s->analyses++;
        a->counted = 1;
    }
    pthread_mutex_unlock(&a->s->an_mu);
    if (busy) {
        error(a, 503, "the engine is busy with other analyses; try again in a moment");
        return;
    }
    if (!a->engine) {
        dm_engine_options eo = DM_ENGINE_OPTIONS_INIT;
        eo.tt_mib = 16;
        if (dm_engine_create(&a->engine, &eo) != DM_OK) {
            release_slot(a);
            error(a, 503, "out of memory");
            return;
        }
    }
    dm_search_input_init(&a->in, &vb);
    /* the database of the position's variant (the engine is idle: no search runs) */
    dm_engine_set_egdb(a->engine, egdb_of(&a->s->opt, a->in.root.variant));
    memset(&a->lim, 0, sizeof a->lim);
    a->lim.analyse = 1;
    a->lim.move_time = SRV_ANALYSIS_SECONDS;
    a->lim.depth = depth ? (int)json_integer_value(depth) : 0;
    a->lim.multipv = multipv ? (int)json_integer_value(multipv) : 1;
    a->gen++;
    /* "started" before the thread exists: its first "info" (a database root's only
     * one, sent at once) must not reach the page before the number it carries */
    srv_ws_send(a->c, json_pack("{s:s,s:i}", "t", "started", "search", a->gen));
    if (pthread_create(&a->th, NULL, run, a) != 0) {
        release_slot(a);
        error(a, 503, "cannot start the search");
        return;
    }
    a->running = 1;
}

void srv_analysis_free(srv_analysis *a)
{
    if (!a) {
        return;
    }
    stop(a);
    dm_engine_free(a->engine);
    free(a);
}
