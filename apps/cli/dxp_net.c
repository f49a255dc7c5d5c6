/* SPDX-License-Identifier: MIT
 * apps/cli/dxp_net.c: DXP's layer 1 over TCP for the front ends (dxp_net.h). */
#define _POSIX_C_SOURCE 200809L
#include "dxp_net.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "commands.h"
#include "play.h"

enum {
    OUT_LIMIT = 1 << 20 /* bytes queued for a peer that does not read */
};

/* ---- addresses ----------------------------------------------------------------------- */

int dxp_split_address(const char *arg, char *host, size_t hcap, char *port, size_t pcap,
                      const char *host_default)
{
    const char *colon = strrchr(arg, ':');
    const char *p = colon ? colon + 1 : arg;
    if (!*p || strspn(p, "0123456789") != strlen(p) || strlen(p) > 5 || atoi(p) > 65535) {
        return 1;
    }
    snprintf(port, pcap, "%s", p);
    if (!colon) {
        if (!host_default) {
            return 1;
        }
        snprintf(host, hcap, "%s", host_default);
        return 0;
    }
    size_t hl = (size_t)(colon - arg);
    if (hl >= 2 && arg[0] == '[' && arg[hl - 1] == ']') {
        arg++;
        hl -= 2;
    }
    if (hl == 0 || hl >= hcap) {
        return 1;
    }
    memcpy(host, arg, hl);
    host[hl] = 0;
    return 0;
}

int dxp_connect_once(const char *host, const char *port, const char **why)
{
    struct addrinfo hints, *res = NULL;
    memset(&hints, 0, sizeof hints);
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    int e = getaddrinfo(host, port, &hints, &res);
    if (e != 0) {
        *why = gai_strerror(e);
        return -1;
    }
    *why = "no address";
    for (struct addrinfo *a = res; a; a = a->ai_next) {
        int fd = socket(a->ai_family, a->ai_socktype, a->ai_protocol);
        if (fd < 0) {
            continue;
        }
        fcntl(fd, F_SETFD, FD_CLOEXEC); /* not inherited by the engines started */
        if (connect(fd, a->ai_addr, a->ai_addrlen) == 0) {
            freeaddrinfo(res);
            return fd;
        }
        *why = strerror(errno);
        close(fd);
    }
    freeaddrinfo(res);
    return -1;
}

int dxp_connect_wait(const char *host, const char *port, int wait_s, const char *prefix)
{
    double until = cli_now() + wait_s;
    for (;;) {
        const char *why;
        int fd = dxp_connect_once(host, port, &why);
        if (fd >= 0) {
            return fd;
        }
        if (cli_now() >= until || play_interrupted()) {
            fprintf(stderr, "%s: cannot connect to %s:%s: %s\n", prefix, host, port, why);
            return -1;
        }
        struct timespec ts = {0, 200 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
}

/* ---- the connection ------------------------------------------------------------------- */

void dxp_conn_init(dxp_conn *c, int fd, FILE *log)
{
    memset(c, 0, sizeof *c);
    c->fd = fd;
    c->log = log;
    c->t0 = c->last_byte = cli_now();
    dm_dxp_splitter_init(&c->sp);
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

static void log_line(dxp_conn *c, const char *dir, const char *text, size_t len)
{
    if (!c->log) {
        return;
    }
    fprintf(c->log, "%9.3f %s%s%s ", cli_now() - c->t0, c->tag ? c->tag : "", c->tag ? " " : "",
            dir);
    for (size_t i = 0; i < len; i++) {
        unsigned char ch = (unsigned char)text[i];
        if (ch >= 32 && ch < 127 && ch != '\\') {
            fputc(ch, c->log);
        } else {
            fprintf(c->log, "\\x%02x", ch);
        }
    }
    fputc('\n', c->log);
    fflush(c->log);
}

void dxp_conn_flush(dxp_conn *c)
{
    while (c->out_len > 0 && c->fd >= 0) {
        ssize_t n = send(c->fd, c->out, c->out_len, MSG_NOSIGNAL);
        if (n <= 0) {
            return; /* EAGAIN: poll for POLLOUT; errors show up on the next read */
        }
        memmove(c->out, c->out + n, c->out_len - (size_t)n);
        c->out_len -= (size_t)n;
    }
}

void dxp_conn_send(void *payload, const char *text, size_t len)
{
    dxp_conn *c = payload;
    log_line(c, ">", text, len);
    if (c->out_len + len + 1 > OUT_LIMIT) {
        c->overflow = 1;
        return;
    }
    if (c->out_len + len + 1 > c->out_cap) {
        size_t cap = c->out_cap ? c->out_cap : 4096;
        while (cap < c->out_len + len + 1) {
            cap *= 2;
        }
        char *b = realloc(c->out, cap);
        if (!b) {
            c->overflow = 1;
            return;
        }
        c->out = b;
        c->out_cap = cap;
    }
    memcpy(c->out + c->out_len, text, len);
    c->out[c->out_len + len] = 0; /* the layer 1 terminator */
    c->out_len += len + 1;
    dxp_conn_flush(c);
}

int dxp_conn_read(dxp_conn *c, dxp_conn_fn fn, void *payload, const char **why)
{
    char buf[4096];
    ssize_t n = recv(c->fd, buf, sizeof buf, 0);
    if (n == 0) {
        *why = "closed by the peer";
        return 1;
    }
    if (n < 0) {
        if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) {
            return 0;
        }
        *why = strerror(errno);
        return 1;
    }
    c->last_byte = cli_now();
    size_t off = 0;
    int stop = 0;
    while (off < (size_t)n && !stop) {
        size_t used;
        const char *msg;
        size_t ml;
        dm_error err;
        dm_dxp_split_result r =
            dm_dxp_split(&c->sp, buf + off, (size_t)n - off, &used, &msg, &ml, &err);
        off += used;
        if (r == DM_DXP_SPLIT_MESSAGE) {
            log_line(c, "<", msg, ml);
            stop = fn(payload, msg, ml, NULL);
        } else if (r == DM_DXP_SPLIT_ERROR) {
            log_line(c, "!", err.message, strlen(err.message));
            stop = fn(payload, NULL, 0, err.message);
        }
    }
    return 0;
}

double dxp_conn_stall_left(const dxp_conn *c, double stall_s)
{
    if (dm_dxp_splitter_pending(&c->sp) == 0) {
        return -1;
    }
    double left = c->last_byte + stall_s - cli_now();
    return left < 0 ? 0 : left;
}

int dxp_conn_stalled(dxp_conn *c, double stall_s, char *what, size_t cap)
{
    size_t pend = dm_dxp_splitter_pending(&c->sp);
    if (pend == 0 || cli_now() - c->last_byte < stall_s) {
        return 0;
    }
    snprintf(what, cap,
             "incomplete message: %zu bytes without NUL terminator and %g s of silence: "
             "discarded",
             pend, stall_s);
    log_line(c, "!", what, strlen(what));
    dm_dxp_splitter_reset(&c->sp);
    return 1;
}

void dxp_conn_close(dxp_conn *c, double wait_s)
{
    double until = cli_now() + wait_s;
    while (c->fd >= 0 && c->out_len > 0 && !c->overflow && cli_now() < until) {
        struct pollfd p = {c->fd, POLLOUT, 0};
        if (poll(&p, 1, 200) > 0 && (p.revents & (POLLERR | POLLHUP))) {
            break;
        }
        size_t before = c->out_len;
        dxp_conn_flush(c);
        if (c->out_len == before && (p.revents & POLLOUT)) {
            break;
        }
    }
    free(c->out);
    c->out = NULL;
    c->out_len = c->out_cap = 0;
    if (c->fd >= 0) {
        shutdown(c->fd, SHUT_WR);
        close(c->fd);
        c->fd = -1;
    }
}
