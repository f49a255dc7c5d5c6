/* SPDX-License-Identifier: MIT
 * tests/web/http_client.h: the request tests' server (srv_requests.c,
 * srv_community.c) and one HTTP request to it on the loopback, with civetweb's client;
 * included after cmocka.h (it asserts). */
#ifndef DM_TESTS_WEB_HTTP_CLIENT_H
#define DM_TESTS_WEB_HTTP_CLIENT_H

#include <stdlib.h>

#include <stdio.h>

#include <civetweb.h>
#include <jansson.h>

#include "serve.h"

/* Start a server of o for a test: on a free port, quiet, one engine thread, 16
 * connections; the test fails when it does not start. */
static inline srv *test_server_start(srv_options *o)
{
    o->port = 0;
    o->quiet = 1;
    o->engine_workers = 1;
    o->threads = 16;
    char err[512];
    srv *s = srv_start(o, err, sizeof err);
    if (!s) {
        fprintf(stderr, "srv_start: %s\n", err);
    }
    assert_non_null(s);
    return s;
}

/* Called with each header of the response. */
typedef void (*http_header_fn)(void *ctx, const char *name, const char *value);

/* method path on port, with the extra header lines headers ("" none, each ending in
 * \r\n) and body[0..len) as JSON; returns the status (0: no response), *out the body
 * parsed (NULL if not JSON; out may be NULL); on_header (may be NULL) sees the
 * response's headers. */
static inline int http_request(int port, const char *method, const char *path, const char *headers,
                               const char *body, size_t len, json_t **out, http_header_fn on_header,
                               void *ctx)
{
    char ebuf[256];
    struct mg_connection *c = mg_connect_client("127.0.0.1", port, 0, ebuf, sizeof ebuf);
    assert_non_null(c);
    mg_printf(c,
              "%s %s HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n%s"
              "Content-Type: application/json\r\nContent-Length: %zu\r\n\r\n",
              method, path, headers ? headers : "", body ? len : 0);
    if (body && len) {
        mg_write(c, body, len);
    }
    int st = 0;
    if (mg_get_response(c, ebuf, sizeof ebuf, 10000) >= 0) {
        const struct mg_response_info *ri = mg_get_response_info(c);
        st = ri->status_code;
        for (int i = 0; on_header && i < ri->num_headers; i++) {
            on_header(ctx, ri->http_headers[i].name, ri->http_headers[i].value);
        }
    }
    size_t cap = 1 << 20, n = 0;
    char *buf = malloc(cap);
    int got;
    while (n + 1 < cap && (got = mg_read(c, buf + n, cap - 1 - n)) > 0) {
        n += (size_t)got;
    }
    buf[n] = 0;
    mg_close_connection(c);
    if (out) {
        *out = json_loadb(buf, n, 0, NULL);
    }
    free(buf);
    return st;
}

#endif
