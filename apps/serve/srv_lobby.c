/* SPDX-License-Identifier: MIT
 * apps/serve/srv_lobby.c: the lobby of `damier serve` (issue 19): open seeks
 * (variant, time control, rated or casual, colour) that others see live on the
 * socket /ws/lobby (or by GET /api/lobby) and accept, which makes a game between
 * the two with a link for each. docs/WEB.md "Lobby".
 *
 * Seeks live in memory: a seek is gone when taken, cancelled, when the lobby socket
 * that holds it closes (its poster left), or, held by no socket, when its poster has
 * not asked about it for SEEK_IDLE_MS; a restart forgets them. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <civetweb.h>
#include <damier/clock.h>

#include "srv_community_int.h"

#define SEEK_IDLE_MS (60 * 1000)
#define TAKEN_KEEP_MS (10 * 60 * 1000)

void srv_lobby_init(srv_community *c)
{
    pthread_mutex_init(&c->lobby_mu, NULL);
}

void srv_lobby_free(srv_community *c)
{
    free(c->watchers);
    pthread_mutex_destroy(&c->lobby_mu);
}

static const char *color_name(int c)
{
    return c == 0 ? "white" : c == 1 ? "black" : "random";
}

static json_t *seek_json(const srv_seek *k)
{
    return json_pack("{s:s,s:s,s:i,s:b,s:s,s:s,s:b,s:s,s:I}", "id", k->id, "name", k->name,
                     "rating", k->rating, "account", k->account != 0, "variant", k->variant, "time",
                     k->time, "rated", k->rated, "color", color_name(k->color), "created",
                     (json_int_t)k->created);
}

static void drop_seek(srv_community *c, int i)
{
    c->seeks[i] = c->seeks[--c->nseeks];
}

/* Forget what has gone stale; under lobby_mu. */
static void expire(srv_community *c, int64_t now)
{
    for (int i = c->nseeks - 1; i >= 0; i--) {
        srv_seek *k = &c->seeks[i];
        if ((k->taken && now - k->seen > TAKEN_KEEP_MS) ||
            (!k->taken && !k->conn && now - k->seen > SEEK_IDLE_MS)) {
            drop_seek(c, i);
        }
    }
}

/* The open seeks; under lobby_mu. */
static json_t *seeks_json(srv_community *c)
{
    json_t *a = json_array();
    for (int i = 0; i < c->nseeks; i++) {
        if (!c->seeks[i].taken) {
            json_array_append_new(a, seek_json(&c->seeks[i]));
        }
    }
    return json_pack("{s:s,s:o}", "t", "seeks", "seeks", a);
}

/* Every lobby socket is sent the open seeks; under lobby_mu. */
static void lobby_changed(srv_community *c)
{
    if (!c->nwatchers) {
        return;
    }
    json_t *v = seeks_json(c);
    char *txt = json_dumps(v, JSON_COMPACT);
    json_decref(v);
    if (txt) {
        for (int i = 0; i < c->nwatchers; i++) {
            mg_websocket_write(c->watchers[i], MG_WEBSOCKET_OPCODE_TEXT, txt, strlen(txt));
        }
        free(txt);
    }
}

static srv_seek *find_seek(srv_community *c, const char *id)
{
    for (int i = 0; i < c->nseeks; i++) {
        if (!strcmp(c->seeks[i].id, id)) {
            return &c->seeks[i];
        }
    }
    return NULL;
}

/* POST lobby/seeks */
static void op_seek(srv *s, const srv_account *a, const json_t *req, srv_reply *r)
{
    srv_community *c = srv_comm(s);
    srv_seek k;
    memset(&k, 0, sizeof k);
    const json_t *jv = json_object_get(req, "variant");
    const char *variant = json_is_string(jv) ? json_string_value(jv) : "international";
    if (jv && !json_is_string(jv)) {
        srv_reply_error(r, 400, "\"variant\" must be a variant's name");
        return;
    }
    const dm_variant *var;
    dm_error e;
    memset(&e, 0, sizeof e);
    if (dm_variant_from_name(&var, variant, &e) != DM_OK) {
        srv_reply_error(r, 400, "%s", e.message);
        return;
    }
    snprintf(k.variant, sizeof k.variant, "%s", var->name);
    const json_t *jt = json_object_get(req, "time");
    const char *tc = json_is_string(jt) ? json_string_value(jt) : "-";
    if ((jt && !json_is_string(jt)) || strlen(tc) >= sizeof k.time) {
        srv_reply_error(r, 400, "\"time\" must be a PDN TimeControl (\"300\", \"180+2\", \"-\")");
        return;
    }
    if (strcmp(tc, "-") != 0 && *tc) {
        dm_time_control t;
        if (dm_time_control_parse(&t, tc, &e) != DM_OK) {
            srv_reply_error(r, 400, "time control \"%s\": %s", tc, e.message);
            return;
        }
    }
    snprintf(k.time, sizeof k.time, "%s", *tc ? tc : "-");
    const json_t *jr = json_object_get(req, "rated");
    if (jr && !json_is_boolean(jr)) {
        srv_reply_error(r, 400, "\"rated\" must be true or false");
        return;
    }
    k.rated = json_is_true(jr);
    if (k.rated && !a->id) {
        srv_reply_error(r, 401, "sign in to post a rated seek");
        return;
    }
    const char *col = srv_json_str(req, "color");
    if (json_object_get(req, "color") && !col) {
        col = "?";
    }
    k.color = !col || !strcmp(col, "random") ? 2
              : !strcmp(col, "white")        ? 0
              : !strcmp(col, "black")        ? 1
                                             : -1;
    if (k.color < 0) {
        srv_reply_error(r, 400, "\"color\" must be \"white\", \"black\" or \"random\"");
        return;
    }
    if (a->id) {
        k.account = a->id;
        snprintf(k.name, sizeof k.name, "%s", a->name);
        k.rating = srv_rating_of(s, a->id, srv_rating_kind(k.variant));
    } else {
        const char *n = srv_json_str(req, "name");
        snprintf(k.name, sizeof k.name, "%s", n && *n ? n : "Anonymous");
        srv_utf8_fix(k.name);
    }
    srv_random_token(k.id, 8);
    srv_random_token(k.owner, 16);
    k.created = k.seen = srv_wall_ms();
    pthread_mutex_lock(&c->lobby_mu);
    expire(c, k.created);
    int dup = 0;
    for (int i = 0; k.account && i < c->nseeks; i++) {
        dup |= !c->seeks[i].taken && c->seeks[i].account == k.account;
    }
    if (dup) {
        pthread_mutex_unlock(&c->lobby_mu);
        srv_reply_error(r, 409, "you have an open seek already (cancel it first)");
        return;
    }
    if (c->nseeks >= SRV_MAX_SEEKS) {
        pthread_mutex_unlock(&c->lobby_mu);
        srv_reply_error(r, 503, "the lobby is full (%d seeks)", SRV_MAX_SEEKS);
        return;
    }
    c->seeks[c->nseeks++] = k;
    r->status = 201;
    r->body = json_pack("{s:o,s:s}", "seek", seek_json(&k), "owner", k.owner);
    lobby_changed(c);
    pthread_mutex_unlock(&c->lobby_mu);
}

/* GET lobby/seeks/ID?owner=TOKEN: the poster asks whether it was taken. */
static void op_seek_status(srv *s, const char *id, const char *owner, srv_reply *r)
{
    srv_community *c = srv_comm(s);
    pthread_mutex_lock(&c->lobby_mu);
    srv_seek *k = find_seek(c, id);
    if (!k) {
        srv_reply_error(r, 404, "no such seek (taken by another, cancelled or expired)");
    } else if (strcmp(k->owner, owner) != 0) {
        srv_reply_error(r, 403, "not your seek (\"owner\" is the token its posting gave)");
    } else {
        k->seen = srv_wall_ms();
        r->status = 200;
        if (k->taken) {
            r->body = json_pack("{s:s,s:o,s:{s:s,s:s,s:s}}", "status", "taken", "seek",
                                seek_json(k), "game", "id", k->game, "key", k->key, "you", k->you);
        } else {
            r->body = json_pack("{s:s,s:o}", "status", "open", "seek", seek_json(k));
        }
    }
    pthread_mutex_unlock(&c->lobby_mu);
}

static void op_cancel(srv *s, const char *id, const json_t *req, srv_reply *r)
{
    srv_community *c = srv_comm(s);
    const char *owner = srv_json_str(req, "owner");
    pthread_mutex_lock(&c->lobby_mu);
    srv_seek *k = find_seek(c, id);
    if (!k || k->taken) {
        srv_reply_error(r, 404, "no such open seek");
    } else if (!owner || strcmp(k->owner, owner) != 0) {
        srv_reply_error(r, 403, "not your seek (\"owner\" is the token its posting gave)");
    } else {
        drop_seek(c, (int)(k - c->seeks));
        r->status = 200;
        r->body = json_pack("{s:b}", "ok", 1);
        lobby_changed(c);
    }
    pthread_mutex_unlock(&c->lobby_mu);
}

/* POST lobby/seeks/ID/accept: the game made, the poster told. */
static void op_accept(srv *s, const srv_account *a, const char *id, const json_t *req, srv_reply *r)
{
    srv_community *c = srv_comm(s);
    pthread_mutex_lock(&c->lobby_mu);
    srv_seek *kp = find_seek(c, id);
    if (!kp || kp->taken) {
        pthread_mutex_unlock(&c->lobby_mu);
        srv_reply_error(r, 404, "no such open seek (taken by another, cancelled or expired)");
        return;
    }
    if (kp->rated && !a->id) {
        pthread_mutex_unlock(&c->lobby_mu);
        srv_reply_error(r, 401, "sign in to accept a rated seek");
        return;
    }
    if (kp->account && kp->account == a->id) {
        pthread_mutex_unlock(&c->lobby_mu);
        srv_reply_error(r, 409, "this is your own seek");
        return;
    }
    const char *owner = srv_json_str(req, "owner");
    if (owner && !strcmp(owner, kp->owner)) {
        pthread_mutex_unlock(&c->lobby_mu);
        srv_reply_error(r, 409, "this is your own seek");
        return;
    }
    srv_seek k = *kp;
    kp->taken = 1; /* nobody else takes it while the game is made */
    kp->seen = srv_wall_ms();
    lobby_changed(c);
    pthread_mutex_unlock(&c->lobby_mu);

    int poster = k.color;
    if (poster == 2) {
        char b[4];
        srv_random_token(b, 1);
        poster = (b[1] & 1) ? SRV_SIDE_BLACK : SRV_SIDE_WHITE;
    }
    char aname[32];
    const char *n = srv_json_str(req, "name");
    snprintf(aname, sizeof aname, "%s", a->id ? a->name : n && *n ? n : "Anonymous");
    srv_utf8_fix(aname);
    json_t *creq = json_pack("{s:s,s:s,s:s,s:s,s:s,s:s}", "opponent", "human", "side",
                             poster == 0 ? "black" : "white", "variant", k.variant, "time", k.time,
                             "white_name", poster == 0 ? k.name : aname, "black_name",
                             poster == 0 ? aname : k.name);
    srv_reply cr = {0, NULL};
    srv_op_create(s, creq, &cr);
    json_decref(creq);
    const char *gid = cr.status == 201 ? srv_json_str(cr.body, "id") : NULL;
    if (!gid) {
        pthread_mutex_lock(&c->lobby_mu);
        srv_seek *back = find_seek(c, id);
        if (back) {
            back->taken = 0;
            lobby_changed(c);
        }
        pthread_mutex_unlock(&c->lobby_mu);
        *r = cr;
        return;
    }
    const json_t *links = json_object_get(cr.body, "links");
    /* the keys: the links are /#/game/ID/KEY */
    const char *wl = srv_json_str(links, "white"), *bl = srv_json_str(links, "black");
    const char *pkey = strrchr(poster == 0 ? wl : bl, '/') + 1;
    const char *akey = strrchr(poster == 0 ? bl : wl, '/') + 1;
    int side;
    srv_reply e = {0, NULL};
    srv_game *g = srv_game_open(s, gid, akey, &side, &e);
    json_decref(e.body);
    json_t *state = NULL;
    if (g) {
        int rated = k.rated && k.account && a->id;
        if (k.account) {
            srv_game_link(s, g, poster, k.account, rated);
        }
        if (a->id) {
            srv_game_link(s, g, 1 - poster, a->id, rated);
        }
        state = srv_game_state(g, side);
        srv_game_unlock(g);
    }
    r->status = 201;
    r->body = json_pack("{s:s,s:s,s:s,s:o*}", "id", gid, "you", poster == 0 ? "black" : "white",
                        "key", akey, "state", state);
    /* the poster's side of it */
    pthread_mutex_lock(&c->lobby_mu);
    srv_seek *kk = find_seek(c, id);
    if (kk) {
        snprintf(kk->game, sizeof kk->game, "%s", gid);
        snprintf(kk->key, sizeof kk->key, "%s", pkey);
        snprintf(kk->you, sizeof kk->you, "%s", poster == 0 ? "white" : "black");
        kk->seen = srv_wall_ms();
        if (kk->conn) {
            json_t *m = json_pack("{s:s,s:s,s:{s:s,s:s,s:s}}", "t", "paired", "seek", kk->id,
                                  "game", "id", gid, "key", pkey, "you", kk->you);
            srv_ws_send(kk->conn, m);
        }
    }
    pthread_mutex_unlock(&c->lobby_mu);
    json_decref(cr.body);
}

void srv_lobby_route(srv *s, const srv_request *q, const char *what, srv_reply *r)
{
    srv_community *c = srv_comm(s);
    int post = !strcmp(q->method, "POST"), get = !strcmp(q->method, "GET");
    if (!*what) {
        if (!get) {
            srv_reply_error(r, 405, "use GET");
            return;
        }
        pthread_mutex_lock(&c->lobby_mu);
        expire(c, srv_wall_ms());
        r->status = 200;
        r->body = seeks_json(c);
        json_object_del(r->body, "t");
        pthread_mutex_unlock(&c->lobby_mu);
        return;
    }
    if (strncmp(what, "seeks", 5) != 0 || (what[5] && what[5] != '/')) {
        srv_reply_error(r, 404, "no such lobby path (lobby, lobby/seeks, lobby/seeks/ID)");
        return;
    }
    const char *rest = what[5] ? what + 6 : "";
    srv_account a;
    srv_account_of(s, q, &a);
    if (!*rest) {
        if (!post) {
            srv_reply_error(r, 405, "use POST to post a seek");
            return;
        }
        json_t *req = srv_post_json(q, &a, r);
        if (req) {
            op_seek(s, &a, req, r);
            json_decref(req);
        }
        return;
    }
    char id[24];
    const char *action;
    if (srv_path_split(rest, id, sizeof id, &action) != 0) {
        srv_reply_error(r, 404, "no such seek");
        return;
    }
    if (!*action) {
        if (!get) {
            srv_reply_error(r, 405, "use GET");
            return;
        }
        char owner[64];
        srv_query_var(q->query, "owner", owner, sizeof owner);
        op_seek_status(s, id, owner, r);
        return;
    }
    if (strcmp(action, "accept") != 0 && strcmp(action, "cancel") != 0) {
        srv_reply_error(r, 404, "no such seek action \"%s\" (accept, cancel)", action);
        return;
    }
    json_t *req = srv_post_json(q, &a, r);
    if (!req) {
        return;
    }
    if (action[0] == 'a') {
        op_accept(s, &a, id, req, r);
    } else {
        op_cancel(s, id, req, r);
    }
    json_decref(req);
}

/* ---- the socket /ws/lobby ------------------------------------------------------------- */

static int lobby_connect(const struct mg_connection *conn, void *cbdata)
{
    (void)conn;
    srv *s = cbdata;
    return s->comm ? 0 : 1;
}

static void lobby_ready(struct mg_connection *conn, void *cbdata)
{
    srv *s = cbdata;
    srv_community *c = s->comm;
    pthread_mutex_lock(&c->lobby_mu);
    if (c->nwatchers == c->capwatchers) {
        int cap = c->capwatchers ? 2 * c->capwatchers : 16;
        struct mg_connection **w = realloc(c->watchers, sizeof *w * (size_t)cap);
        if (!w) {
            pthread_mutex_unlock(&c->lobby_mu);
            return;
        }
        c->watchers = w;
        c->capwatchers = cap;
    }
    c->watchers[c->nwatchers++] = conn;
    expire(c, srv_wall_ms());
    srv_ws_send(conn, seeks_json(c));
    pthread_mutex_unlock(&c->lobby_mu);
}

static void lobby_send_error(struct mg_connection *conn, int status, const char *msg)
{
    srv_ws_send(conn, json_pack("{s:s,s:i,s:s}", "t", "error", "status", status, "error", msg));
}

/* {"t": "hold", "seek": ID, "owner": TOKEN}: the seek goes when this socket closes. */
static int lobby_data(struct mg_connection *conn, int bits, char *data, size_t len, void *cbdata)
{
    srv *s = cbdata;
    srv_community *c = s->comm;
    int op = bits & 0x0f;
    if (op == MG_WEBSOCKET_OPCODE_CONNECTION_CLOSE) {
        return 0;
    }
    if (op != MG_WEBSOCKET_OPCODE_TEXT) {
        return 1;
    }
    if (len > SRV_MAX_JSON_BODY) {
        lobby_send_error(conn, 413, "message too large");
        return 1;
    }
    json_t *msg = json_loadb(data, len, 0, NULL);
    const char *t = json_is_object(msg) ? srv_json_str(msg, "t") : NULL;
    if (!t) {
        lobby_send_error(conn, 400, "a message is a JSON object with \"t\"");
    } else if (!strcmp(t, "hold")) {
        const char *id = srv_json_str(msg, "seek"), *owner = srv_json_str(msg, "owner");
        pthread_mutex_lock(&c->lobby_mu);
        srv_seek *k = id ? find_seek(c, id) : NULL;
        if (!k || !owner || strcmp(k->owner, owner) != 0) {
            lobby_send_error(conn, 404, "no such seek of yours");
        } else {
            k->conn = conn;
            k->seen = srv_wall_ms();
            if (k->taken && k->game[0]) {
                srv_ws_send(conn,
                            json_pack("{s:s,s:s,s:{s:s,s:s,s:s}}", "t", "paired", "seek", k->id,
                                      "game", "id", k->game, "key", k->key, "you", k->you));
            } else {
                srv_ws_send(conn, json_pack("{s:s,s:s}", "t", "held", "seek", k->id));
            }
        }
        pthread_mutex_unlock(&c->lobby_mu);
    } else if (!strcmp(t, "seeks")) {
        pthread_mutex_lock(&c->lobby_mu);
        srv_ws_send(conn, seeks_json(c));
        pthread_mutex_unlock(&c->lobby_mu);
    } else {
        lobby_send_error(conn, 400, "unknown message type (hold, seeks)");
    }
    json_decref(msg);
    return 1;
}

static void lobby_close(const struct mg_connection *conn, void *cbdata)
{
    srv *s = cbdata;
    srv_community *c = s->comm;
    if (!c) {
        return;
    }
    pthread_mutex_lock(&c->lobby_mu);
    for (int i = 0; i < c->nwatchers; i++) {
        if (c->watchers[i] == conn) {
            c->watchers[i] = c->watchers[--c->nwatchers];
            break;
        }
    }
    int changed = 0;
    for (int i = c->nseeks - 1; i >= 0; i--) {
        if (c->seeks[i].conn == conn) {
            if (c->seeks[i].taken) {
                c->seeks[i].conn = NULL; /* the game is kept for GET lobby/seeks/ID */
            } else {
                drop_seek(c, i); /* its poster left */
                changed = 1;
            }
        }
    }
    if (changed) {
        lobby_changed(c);
    }
    pthread_mutex_unlock(&c->lobby_mu);
}

void srv_lobby_register(srv *s, struct mg_context *ctx)
{
    mg_set_websocket_handler(ctx, "/ws/lobby", lobby_connect, lobby_ready, lobby_data, lobby_close,
                             s);
}
