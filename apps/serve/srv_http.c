/* SPDX-License-Identifier: MIT
 * apps/serve/srv_http.c: the HTTP and WebSocket side of `damier serve` on civetweb:
 * the /api/ routes (JSON in and out, bodies bounded), the game and analysis sockets,
 * the static page (civetweb's document root), starting and stopping. */
#define _POSIX_C_SOURCE 200809L
#include "serve.h"
#include "srv_community.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <civetweb.h>

#include <damier/version.h>

enum {
    CONN_GAME = 1,
    CONN_ANALYSIS = 2
};

/* What a WebSocket connection is for. */
typedef struct conn_data {
    int kind;
    srv *s;
    srv_game *g;
    int side;
    char id[32];
    char key[64];
    srv_analysis *a;
} conn_data;

/* ---- sending -------------------------------------------------------------------- */

static void send_text(struct mg_connection *c, int status, const char *type, const char *body,
                      size_t len, int close, const char *cookie)
{
    char clen[32];
    snprintf(clen, sizeof clen, "%zu", len);
    mg_response_header_start(c, status);
    mg_response_header_add(c, "Content-Type", type, -1);
    mg_response_header_add(c, "Content-Length", clen, -1);
    mg_response_header_add(c, "Cache-Control", "no-store", -1);
    if (cookie && *cookie) {
        mg_response_header_add(c, "Set-Cookie", cookie, -1);
    }
    if (close) {
        mg_response_header_add(c, "Connection", "close", -1);
    }
    mg_response_header_send(c);
    mg_write(c, body, len);
}

static int send_reply(struct mg_connection *c, srv_reply *r, int close, const char *cookie)
{
    if (!r->body) {
        r->body = json_pack("{s:s}", "error", "internal error");
        r->status = 500;
    }
    char *txt = json_dumps(r->body, JSON_COMPACT);
    send_text(c, r->status, "application/json; charset=utf-8", txt ? txt : "{}",
              txt ? strlen(txt) : 2, close, cookie);
    free(txt);
    json_decref(r->body);
    r->body = NULL;
    return r->status;
}

void srv_ws_send(struct mg_connection *c, json_t *v)
{
    char *txt = json_dumps(v, JSON_COMPACT);
    json_decref(v);
    if (txt) {
        mg_websocket_write(c, MG_WEBSOCKET_OPCODE_TEXT, txt, strlen(txt));
        free(txt);
    }
}

/* ---- subscribers ---------------------------------------------------------------- */

void srv_subscribe(srv *s, srv_game *g, struct mg_connection *c, int side)
{
    (void)s;
    if (g->nsubs == g->capsubs) {
        int cap = g->capsubs ? 2 * g->capsubs : 4;
        srv_sub *a = realloc(g->subs, sizeof *a * (size_t)cap);
        if (!a) {
            return;
        }
        g->subs = a;
        g->capsubs = cap;
    }
    g->subs[g->nsubs].conn = c;
    g->subs[g->nsubs].side = side;
    g->nsubs++;
}

void srv_unsubscribe(srv *s, srv_game *g, const struct mg_connection *c)
{
    (void)s;
    pthread_mutex_lock(&g->mu);
    for (int i = 0; i < g->nsubs; i++) {
        if (g->subs[i].conn == c) {
            g->subs[i] = g->subs[--g->nsubs];
            break;
        }
    }
    pthread_mutex_unlock(&g->mu);
}

void srv_broadcast(srv *s, srv_game *g)
{
    (void)s;
    char *text[4] = {NULL, NULL, NULL, NULL}; /* per side: players, spectator, arbiter */
    for (int i = 0; i < g->nsubs; i++) {
        int side = g->subs[i].side;
        if (!text[side]) {
            json_t *st = srv_game_state(g, side);
            text[side] = json_dumps(st, JSON_COMPACT);
            json_decref(st);
        }
        if (text[side]) {
            mg_websocket_write(g->subs[i].conn, MG_WEBSOCKET_OPCODE_TEXT, text[side],
                               strlen(text[side]));
        }
    }
    for (int i = 0; i < 4; i++) {
        free(text[i]);
    }
}

/* ---- the API -------------------------------------------------------------------- */

/* The body of a connection's request, at most limit bytes (srv_request.read_body):
 * NULL with *status 413 (too large) or 503. */
static char *conn_read_body(void *ctx, size_t limit, size_t *len, int *status)
{
    struct mg_connection *c = ctx;
    const struct mg_request_info *ri = mg_get_request_info(c);
    if (ri->content_length > (long long)limit) {
        *status = 413;
        return NULL;
    }
    size_t cap = ri->content_length >= 0 ? (size_t)ri->content_length + 1 : 4096;
    char *buf = malloc(cap);
    size_t n = 0;
    if (!buf) {
        *status = 503;
        return NULL;
    }
    for (;;) {
        if (n + 1 >= cap) {
            if (cap > limit + 1) {
                free(buf);
                *status = 413;
                return NULL;
            }
            size_t nc = cap * 2;
            char *nb = realloc(buf, nc);
            if (!nb) {
                free(buf);
                *status = 503;
                return NULL;
            }
            buf = nb;
            cap = nc;
        }
        int got = mg_read(c, buf + n, cap - 1 - n);
        if (got <= 0) {
            break;
        }
        n += (size_t)got;
        if (n > limit) {
            free(buf);
            *status = 413;
            return NULL;
        }
    }
    buf[n] = 0;
    *len = n;
    return buf;
}

/* The JSON object of the body, or NULL with r filled. */
static json_t *read_json(const srv_request *q, srv_reply *r)
{
    size_t len = 0;
    int status = 400;
    char *body = q->read_body(q->ctx, SRV_MAX_JSON_BODY, &len, &status);
    if (!body) {
        if (status == 413) {
            srv_reply_error(r, 413, "the body is larger than %d bytes", SRV_MAX_JSON_BODY);
        } else {
            srv_reply_error(r, status, "the body could not be read");
        }
        return NULL;
    }
    json_error_t je;
    json_t *v = json_loadb(body, len, 0, &je);
    free(body);
    if (!v) {
        srv_reply_error(r, 400, "malformed JSON at line %d, column %d: %s", je.line, je.column,
                        je.text);
        return NULL;
    }
    if (!json_is_object(v)) {
        json_decref(v);
        srv_reply_error(r, 400, "the body must be a JSON object");
        return NULL;
    }
    return v;
}

json_t *srv_read_json(const srv_request *q, srv_reply *r)
{
    return read_json(q, r); /* for the community's routes (srv_community.h) */
}

void srv_query_var(const char *query, const char *name, char *buf, size_t cap)
{
    buf[0] = 0;
    if (query) {
        if (mg_get_var(query, strlen(query), name, buf, cap) < 0) {
            buf[0] = 0;
        }
    }
}

/* The key of a request: "key" in the body, else ?key= in the query. */
static const char *request_key(const json_t *body, const char *query, char *buf, size_t cap)
{
    const json_t *k = body ? json_object_get(body, "key") : NULL;
    if (json_is_string(k)) {
        snprintf(buf, cap, "%s", json_string_value(k));
        return buf;
    }
    srv_query_var(query, "key", buf, cap);
    return buf;
}

int srv_route(srv *s, const srv_request *q, srv_reply *r, char **pdn)
{
    const char *method = q->method;
    const char *path = q->path;
    int post = !strcmp(method, "POST"), get = !strcmp(method, "GET");
    char key[64];
    r->status = 500;
    r->body = NULL;
    *pdn = NULL;

    if (!strcmp(path, "simuls") || !strncmp(path, "simuls/", 7)) { /* srv_simul.c */
        srv_simul_route(s, q, path[6] ? path + 7 : "", r);
        return r->status == 413;
    }
    if (!strcmp(path, "tournaments") || !strncmp(path, "tournaments/", 12)) { /* srv_tourney.c */
        srv_tourney_route(s, q, path[11] ? path + 12 : "", r, pdn);
        return r->status == 413;
    }
    if (!strcmp(path, "library") || !strncmp(path, "library/", 8)) { /* srv_library.c */
        srv_library_route(s, q, path[7] ? path + 8 : "", r);
        return 0;
    }
    if (srv_community_route(s, q, r)) { /* accounts, lobby, ratings (srv_account.c) */
        return r->status == 413;
    }
    if (!strcmp(path, "health")) {
        if (!get) {
            srv_reply_error(r, 405, "use GET");
        } else {
            r->status = 200;
            r->body = json_pack("{s:b,s:s}", "ok", 1, "version", dm_version(NULL, NULL, NULL));
        }
        return 0;
    }
    if (!strcmp(path, "position")) {
        char fen[512], variant[64], move[256];
        srv_query_var(q->query, "fen", fen, sizeof fen);
        srv_query_var(q->query, "variant", variant, sizeof variant);
        srv_query_var(q->query, "move", move, sizeof move);
        if (!get) {
            srv_reply_error(r, 405, "use GET");
        } else {
            srv_op_position(variant[0] ? variant : "international", fen, move, r);
        }
        return 0;
    }
    if (!strcmp(path, "jump/position")) { /* srv_jump.c */
        char game[64], players[16], pos[1024], move[512];
        srv_query_var(q->query, "game", game, sizeof game);
        srv_query_var(q->query, "players", players, sizeof players);
        srv_query_var(q->query, "pos", pos, sizeof pos);
        srv_query_var(q->query, "move", move, sizeof move);
        if (!get) {
            srv_reply_error(r, 405, "use GET");
        } else {
            srv_op_jump_position(game, players, pos, move, r);
        }
        return 0;
    }
    if (!strcmp(path, "games")) {
        if (!post) {
            srv_reply_error(r, 405, "use POST to create a game");
            return 0;
        }
        if (srv_csrf_refused(s, q, r)) { /* signed in: the game would join the account */
            return 0;
        }
        json_t *req = read_json(q, r);
        if (req) {
            srv_op_create(s, req, r);
            srv_account_link_created(s, q, r);
            json_decref(req);
        }
        return r->status == 413;
    }
    if (!strcmp(path, "pdn")) {
        if (!post) {
            srv_reply_error(r, 405, "use POST with the PDN text as the body");
            return 0;
        }
        size_t len = 0;
        int status = 400;
        char *body = q->read_body(q->ctx, SRV_MAX_PDN_BODY, &len, &status);
        if (!body) {
            srv_reply_error(r, status,
                            status == 413 ? "the file is larger than %d bytes"
                                          : "the body could not be read (%d)",
                            SRV_MAX_PDN_BODY);
            return 1;
        }
        srv_op_upload(s, body, len, r);
        free(body);
        return 0;
    }
    if (!strcmp(path, "games/your-turn")) {
        if (!get) {
            srv_reply_error(r, 405, "use GET");
            return 0;
        }
        char keys[SRV_MAX_TURN_QUERY];
        srv_query_var(q->query, "keys", keys, sizeof keys);
        srv_account a;
        srv_account_of(s, q, &a); /* a signed-in player's games too */
        srv_op_your_turn(s, keys, a.id, r);
        return 0;
    }
    if (!strncmp(path, "games/", 6)) {
        char id[32] = "";
        const char *rest = path + 6;
        const char *slash = strchr(rest, '/');
        size_t idlen = slash ? (size_t)(slash - rest) : strlen(rest);
        if (idlen == 0 || idlen >= sizeof id) {
            srv_reply_error(r, 404, "unknown game");
            return 0;
        }
        memcpy(id, rest, idlen);
        id[idlen] = 0;
        const char *action = slash ? slash + 1 : "";
        if (!*action) {
            if (!get) {
                srv_reply_error(r, 405, "use GET");
            } else {
                srv_op_state(s, id, request_key(NULL, q->query, key, sizeof key), r);
            }
            return 0;
        }
        if (!strcmp(action, "pdn")) {
            if (!get) {
                srv_reply_error(r, 405, "use GET");
                return 0;
            }
            char *text = NULL;
            srv_op_pdn(s, id, request_key(NULL, q->query, key, sizeof key), &text, r);
            if (r->status == 200 && text) {
                *pdn = text;
            } else {
                free(text);
            }
            return 0;
        }
        if (!strcmp(action, "move") || !strcmp(action, "resign") || !strcmp(action, "draw") ||
            !strcmp(action, "takeback") || !strcmp(action, "annotate") ||
            !strcmp(action, "touch") || !strcmp(action, "adjust") || !strcmp(action, "arbiter") ||
            !strcmp(action, "seal") || !strcmp(action, "conditional") ||
            !strcmp(action, "webhook")) {
            if (!post) {
                srv_reply_error(r, 405, "use POST");
                return 0;
            }
            json_t *req = read_json(q, r);
            if (req) {
                const char *k = request_key(req, q->query, key, sizeof key);
                if (!strcmp(action, "conditional")) {
                    srv_op_conditional(s, id, k, req, r);
                } else if (!strcmp(action, "webhook")) {
                    srv_op_webhook(s, id, k, req, r);
                } else if (!strcmp(action, "touch")) {
                    srv_op_touch(s, id, k, req, r);
                } else if (!strcmp(action, "arbiter")) {
                    srv_op_arbiter(s, id, k, req, r);
                } else if (!strcmp(action, "seal")) {
                    srv_op_seal(s, id, k, req, r);
                } else if (!strcmp(action, "adjust")) {
                    srv_op_adjust(s, id, k, r);
                } else if (action[0] == 'm') {
                    srv_op_move(s, id, k, req, r);
                } else if (action[0] == 'r') {
                    srv_op_resign(s, id, k, r);
                } else if (action[0] == 'a') {
                    srv_op_annotate(s, id, k, req, r);
                } else if (action[0] == 't') {
                    srv_op_takeback(s, id, k, req, r);
                } else {
                    srv_op_draw(s, id, k, req, r);
                }
                json_decref(req);
            }
            return r->status == 413;
        }
        srv_reply_error(
            r, 404,
            "no such action \"%s\" (move, resign, draw, takeback, annotate, touch, adjust, "
            "arbiter, seal, conditional, webhook, pdn)",
            action);
        return 0;
    }
    srv_reply_error(r, 404, "no such endpoint: %s /api/%s (docs/WEB.md lists them)", method, path);
    return 0;
}

/* civetweb's workers run on small stacks (about 100 KiB), too small for the generic
 * board's move lists (a 12x12 game's PDN, parse and play); a request is answered on
 * a thread of its own with a full stack, the worker waiting for it. */
#define SRV_HANDLER_STACK (8u << 20)

typedef struct big_call {
    void (*fn)(void *);
    void *arg;
} big_call;

static void *big_run(void *p)
{
    big_call *b = p;
    b->fn(b->arg);
    return NULL;
}

static void on_big_stack(void (*fn)(void *), void *arg)
{
    pthread_attr_t at;
    pthread_t th;
    big_call b = {fn, arg};
    int ok = pthread_attr_init(&at) == 0;
    if (ok && pthread_attr_setstacksize(&at, SRV_HANDLER_STACK) == 0 &&
        pthread_create(&th, &at, big_run, &b) == 0) {
        pthread_join(th, NULL);
    } else {
        fn(arg); /* no thread: on the worker's stack */
    }
    if (ok) {
        pthread_attr_destroy(&at);
    }
}

typedef struct route_call {
    srv *s;
    const srv_request *q;
    srv_reply *r;
    char **pdn;
    int close;
} route_call;

static void route_run(void *p)
{
    route_call *rc = p;
    rc->close = srv_route(rc->s, rc->q, rc->r, rc->pdn);
}

static int api_handler(struct mg_connection *c, void *cbdata)
{
    srv *s = cbdata;
    const struct mg_request_info *ri = mg_get_request_info(c);
    srv_request q = {ri->request_method,
                     ri->local_uri + strlen("/api/"),
                     ri->query_string,
                     conn_read_body,
                     c,
                     mg_get_header(c, "Cookie"),
                     mg_get_header(c, "X-CSRF-Token"),
                     ri->remote_addr,
                     NULL};
    char cookie[SRV_COOKIE_CAP] = "";
    q.set_cookie = cookie;
    srv_reply r = {500, NULL};
    char *pdn = NULL;
    route_call rc = {s, &q, &r, &pdn, 0};
    on_big_stack(route_run, &rc);
    int close = rc.close;
    if (pdn) {
        json_decref(r.body);
        char disp[96];
        /* the id: between "games/" (or "tournaments/") and "/pdn" */
        const char *idp = strchr(q.path, '/');
        idp = idp ? idp + 1 : q.path;
        int idlen = (int)(strlen(idp) - strlen("/pdn"));
        snprintf(disp, sizeof disp, "attachment; filename=\"damier-%.*s.pdn\"",
                 idlen > 0 ? idlen : 0, idp);
        size_t n = strlen(pdn);
        char clen[32];
        snprintf(clen, sizeof clen, "%zu", n);
        mg_response_header_start(c, 200);
        mg_response_header_add(c, "Content-Type", "application/x-pdn; charset=utf-8", -1);
        mg_response_header_add(c, "Content-Disposition", disp, -1);
        mg_response_header_add(c, "Content-Length", clen, -1);
        mg_response_header_send(c);
        mg_write(c, pdn, n);
        free(pdn);
        return 200;
    }
    return send_reply(c, &r, close, cookie);
}

/* ---- the game socket ------------------------------------------------------------ */

static int game_connect(const struct mg_connection *c, void *cbdata)
{
    srv *s = cbdata;
    const struct mg_request_info *ri = mg_get_request_info(c);
    char id[32], key[64];
    srv_query_var(ri->query_string, "id", id, sizeof id);
    srv_query_var(ri->query_string, "key", key, sizeof key);
    srv_reply r = {0, NULL};
    int side;
    srv_game *g = srv_game_open(s, id, key, &side, &r);
    if (r.body) {
        json_decref(r.body);
    }
    if (!g) {
        return 1; /* refused: the page learns why from GET /api/games/ID */
    }
    srv_game_unlock(g);
    conn_data *cd = calloc(1, sizeof *cd);
    if (!cd) {
        return 1;
    }
    cd->kind = CONN_GAME;
    cd->s = s;
    cd->g = g;
    cd->side = side;
    snprintf(cd->id, sizeof cd->id, "%s", id);
    snprintf(cd->key, sizeof cd->key, "%s", key);
    mg_set_user_connection_data(c, cd);
    return 0;
}

static void game_ready_run(void *p)
{
    struct mg_connection *c = p;
    conn_data *cd = mg_get_user_connection_data(c);
    pthread_mutex_lock(&cd->g->mu);
    srv_subscribe(cd->s, cd->g, c, cd->side);
    srv_ws_send(c, srv_game_state(cd->g, cd->side));
    pthread_mutex_unlock(&cd->g->mu);
}

static void game_ready(struct mg_connection *c, void *cbdata)
{
    (void)cbdata;
    if (mg_get_user_connection_data(c)) {
        on_big_stack(game_ready_run, c);
    }
}

/* The answer to a message: {"t":"ack"} or {"t":"error"} with the status (and the
 * message's id); consumes r's body. */
static json_t *ws_answer(const json_t *msgid, srv_reply *r)
{
    json_t *out;
    if (r->status >= 200 && r->status < 300) {
        out = json_pack("{s:s,s:i}", "t", "ack", "status", r->status);
    } else {
        const json_t *e = r->body ? json_object_get(r->body, "error") : NULL;
        out = json_pack("{s:s,s:i,s:s}", "t", "error", "status", r->status, "error",
                        json_is_string(e) ? json_string_value(e) : "error");
    }
    if (msgid) {
        json_object_set(out, "id", (json_t *)msgid);
    }
    if (r->body) {
        json_decref(r->body);
        r->body = NULL;
    }
    return out;
}

/* A text message parsed: the JSON object, or NULL with *answer the error to send. */
static json_t *ws_parse(const char *data, size_t len, json_t **answer)
{
    srv_reply r = {0, NULL};
    *answer = NULL;
    if (len > SRV_MAX_JSON_BODY) {
        srv_reply_error(&r, 413, "message larger than %d bytes", SRV_MAX_JSON_BODY);
        *answer = ws_answer(NULL, &r);
        return NULL;
    }
    json_error_t je;
    json_t *msg = json_loadb(data, len, 0, &je);
    if (!msg || !json_is_object(msg)) {
        if (msg) {
            srv_reply_error(&r, 400, "a message must be a JSON object");
        } else {
            srv_reply_error(&r, 400, "malformed JSON at column %d: %s", je.column, je.text);
        }
        json_decref(msg);
        *answer = ws_answer(NULL, &r);
        return NULL;
    }
    return msg;
}

/* A WebSocket frame: 0 to close the connection; *text set for a text message. */
static int ws_frame(int bits, int *text)
{
    int op = bits & 0x0f;
    *text = op == MG_WEBSOCKET_OPCODE_TEXT;
    return op != MG_WEBSOCKET_OPCODE_CONNECTION_CLOSE;
}

json_t *srv_ws_game_message(srv *s, const char *id, const char *key, const char *data, size_t len)
{
    json_t *answer;
    json_t *msg = ws_parse(data, len, &answer);
    if (!msg) {
        return answer;
    }
    const json_t *t = json_object_get(msg, "t");
    const char *type = json_is_string(t) ? json_string_value(t) : "";
    const json_t *msgid = json_object_get(msg, "id");
    srv_reply r = {0, NULL};
    if (!strcmp(type, "move")) {
        srv_op_move(s, id, key, msg, &r);
    } else if (!strcmp(type, "resign")) {
        srv_op_resign(s, id, key, &r);
    } else if (!strcmp(type, "draw")) {
        srv_op_draw(s, id, key, msg, &r);
    } else if (!strcmp(type, "takeback")) {
        srv_op_takeback(s, id, key, msg, &r);
    } else if (!strcmp(type, "state")) {
        srv_op_state(s, id, key, &r);
        if (r.status == 200) {
            json_decref(msg);
            return r.body;
        }
    } else if (!strcmp(type, "ping")) {
        r.status = 200;
    } else {
        srv_reply_error(&r, 400,
                        "unknown message type \"%s\" (move, resign, draw, takeback, state, ping)",
                        type);
    }
    answer = ws_answer(msgid, &r);
    json_decref(msg);
    return answer;
}

typedef struct ws_call {
    struct mg_connection *c;
    conn_data *cd;
    const char *data;
    size_t len;
} ws_call;

static void ws_run(void *p)
{
    ws_call *w = p;
    srv_ws_send(w->c, srv_ws_game_message(w->cd->s, w->cd->id, w->cd->key, w->data, w->len));
}

static int game_data(struct mg_connection *c, int bits, char *data, size_t len, void *cbdata)
{
    (void)cbdata;
    conn_data *cd = mg_get_user_connection_data(c);
    int text;
    if (!ws_frame(bits, &text)) {
        return 0;
    }
    if (text && cd) {
        ws_call w = {c, cd, data, len};
        on_big_stack(ws_run, &w);
    }
    return 1;
}

static void ws_close(const struct mg_connection *c, void *cbdata)
{
    (void)cbdata;
    conn_data *cd = mg_get_user_connection_data(c);
    if (!cd) {
        return;
    }
    if (cd->kind == CONN_GAME) {
        srv_unsubscribe(cd->s, cd->g, c);
    } else {
        srv_analysis_free(cd->a);
    }
    mg_set_user_connection_data(c, NULL);
    free(cd);
}

/* ---- the analysis socket -------------------------------------------------------- */

static int analysis_connect(const struct mg_connection *c, void *cbdata)
{
    conn_data *cd = calloc(1, sizeof *cd);
    if (!cd) {
        return 1;
    }
    cd->kind = CONN_ANALYSIS;
    cd->s = cbdata;
    mg_set_user_connection_data(c, cd);
    return 0;
}

static void analysis_ready(struct mg_connection *c, void *cbdata)
{
    (void)cbdata;
    conn_data *cd = mg_get_user_connection_data(c);
    if (cd) {
        cd->a = srv_analysis_new(cd->s, c);
        srv_ws_send(c, json_pack("{s:s}", "t", "ready"));
    }
}

typedef struct an_call {
    srv_analysis *a;
    const json_t *msg;
} an_call;

static void an_run(void *p)
{
    an_call *ac = p;
    srv_analysis_message(ac->a, ac->msg);
}

static int analysis_data(struct mg_connection *c, int bits, char *data, size_t len, void *cbdata)
{
    (void)cbdata;
    conn_data *cd = mg_get_user_connection_data(c);
    int text;
    if (!ws_frame(bits, &text)) {
        return 0;
    }
    if (!text) {
        return 1;
    }
    json_t *answer;
    json_t *msg = ws_parse(data, len, &answer);
    if (!msg) {
        srv_ws_send(c, answer);
    } else if (cd && cd->a) {
        an_call ac = {cd->a, msg};
        on_big_stack(an_run, &ac); /* a variant's position needs more than the worker's stack */
    }
    json_decref(msg);
    return 1;
}

/* ---- starting and stopping ------------------------------------------------------ */

static int log_message(const struct mg_connection *c, const char *message)
{
    const struct mg_context *ctx = mg_get_context(c);
    const srv *s = ctx ? mg_get_user_data(ctx) : NULL;
    if (!s || !s->opt.quiet) {
        fprintf(stderr, "damier serve: %s\n", message);
    }
    return 1;
}

srv *srv_open(const srv_options *opt, char *err, size_t errcap)
{
    srv *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, errcap, "out of memory");
        return NULL;
    }
    s->opt = *opt;
    snprintf(s->db_path, sizeof s->db_path, "%s", opt->db_path);
    snprintf(s->static_dir, sizeof s->static_dir, "%s", opt->static_dir ? opt->static_dir : "");
    s->opt.db_path = s->db_path;
    s->opt.static_dir = s->static_dir;
    pthread_mutex_init(&s->games_mu, NULL);
    pthread_mutex_init(&s->q_mu, NULL);
    pthread_cond_init(&s->q_cv, NULL);
    pthread_mutex_init(&s->stop_mu, NULL);
    pthread_cond_init(&s->stop_cv, NULL);
    pthread_mutex_init(&s->an_mu, NULL);
    s->db = opt->pg_url && opt->pg_url[0]
                ? srv_db_open_pg(s->db_path, opt->pg_url, opt->sync_full, err, errcap)
                : srv_db_open(s->db_path, opt->sync_full, err, errcap);
    if (!s->db || srv_games_init(s, err, errcap) != 0) {
        srv_stop(s);
        return NULL;
    }
    if (srv_community_restore(s, err, errcap) != 0) { /* accounts, ratings, puzzles */
        srv_stop(s);
        return NULL;
    }
    if (opt->library && opt->library[0] && srv_library_load(s, opt->library, err, errcap) != 0) {
        srv_stop(s);
        return NULL;
    }
    return s;
}

srv *srv_start(const srv_options *opt, char *err, size_t errcap)
{
    srv *s = srv_open(opt, err, errcap);
    if (!s) {
        return NULL;
    }
    char ports[128], threads[16];
    snprintf(ports, sizeof ports, "%s:%d", opt->host, opt->port);
    snprintf(threads, sizeof threads, "%d", opt->threads > 4 ? opt->threads : 4);
    const char *options[32];
    int k = 0;
    options[k++] = "listening_ports";
    options[k++] = ports;
    options[k++] = "num_threads";
    options[k++] = threads;
    options[k++] = "request_timeout_ms";
    options[k++] = "30000";
    options[k++] = "websocket_timeout_ms";
    options[k++] = "3600000";
    options[k++] = "enable_keep_alive";
    options[k++] = "yes";
    options[k++] = "tcp_nodelay"; /* a move's frame goes out at once (no Nagle delay) */
    options[k++] = "1";
    options[k++] = "static_file_max_age";
    options[k++] = "0";
    options[k++] = "listen_backlog";
    options[k++] = "1024";
    if (s->static_dir[0]) {
        options[k++] = "document_root";
        options[k++] = s->static_dir;
        options[k++] = "index_files";
        options[k++] = "index.html";
        options[k++] = "enable_directory_listing";
        options[k++] = "no";
    }
    options[k] = NULL;
    struct mg_callbacks cb;
    memset(&cb, 0, sizeof cb);
    cb.log_message = log_message;
    mg_init_library(MG_FEATURES_WEBSOCKET);
    s->ctx = mg_start(&cb, s, options);
    if (!s->ctx) {
        snprintf(err, errcap, "cannot listen on %s (in use, or not an address of this machine)",
                 ports);
        srv_stop(s);
        return NULL;
    }
    mg_set_request_handler(s->ctx, "/api/", api_handler, s);
    mg_set_websocket_handler(s->ctx, "/ws/game", game_connect, game_ready, game_data, ws_close, s);
    mg_set_websocket_handler(s->ctx, "/ws/analysis", analysis_connect, analysis_ready,
                             analysis_data, ws_close, s);
    srv_lobby_register(s, s->ctx);
    struct mg_server_port sp[4];
    int n = mg_get_server_ports(s->ctx, 4, sp);
    s->port = n > 0 ? sp[0].port : opt->port;
    return s;
}

int srv_port(const srv *s)
{
    return s->port;
}

void srv_stop(srv *s)
{
    if (!s) {
        return;
    }
    srv_db_unlisten(s->db); /* no other server's move is sent to a socket from here on */
    if (s->ctx) {
        mg_stop(s->ctx); /* closes every socket: the close handlers run */
        s->ctx = NULL;
    }
    srv_games_stop(s);
    srv_games_free(s);
    srv_community_free(s);
    srv_library_free(s);
    srv_db_close(s->db);
    pthread_mutex_destroy(&s->games_mu);
    pthread_mutex_destroy(&s->q_mu);
    pthread_cond_destroy(&s->q_cv);
    pthread_mutex_destroy(&s->stop_mu);
    pthread_cond_destroy(&s->stop_cv);
    pthread_mutex_destroy(&s->an_mu);
    free(s);
}
