/* SPDX-License-Identifier: MIT
 * apps/cli/dxp_net.h: DXP's layer 1 over TCP for the front ends (`damier dxp`,
 * `damier match`): addresses, connecting, and one connection's NUL framing (the
 * library's splitter) with a bounded queue of what is sent and a message log. The
 * protocol itself is the caller's (dxp_driver.c, cmd_match.c). */
#ifndef DM_APPS_CLI_DXP_NET_H
#define DM_APPS_CLI_DXP_NET_H

#include <stddef.h>
#include <stdio.h>

#include <damier/dxp.h>

/* Split "[HOST:]PORT" (HOST may be "[v6]") into host and port; host_default when
 * there is no HOST (NULL: a HOST is required). 0 on success, 1 when it is not an
 * address. */
int dxp_split_address(const char *arg, char *host, size_t hcap, char *port, size_t pcap,
                      const char *host_default);

/* One attempt to connect to host:port: the connected socket, or -1 with *why (a
 * static text) set. */
int dxp_connect_once(const char *host, const char *port, const char **why);

/* Connect, retrying for up to wait_s seconds while nobody listens (the follower may
 * still be starting); a failure is reported on stderr as "PREFIX: cannot connect ...".
 * The socket, or -1. */
int dxp_connect_wait(const char *host, const char *port, int wait_s, const char *prefix);

/* One connection: what is queued for the peer, the splitter, the message log. */
typedef struct dxp_conn {
    int fd;
    char *out; /* bytes queued for the peer */
    size_t out_len, out_cap;
    int overflow;     /* the peer does not read what we send (over 1 MiB queued) */
    FILE *log;        /* every message sent (>) and received (<), or NULL */
    const char *tag;  /* written before each log line when not NULL (whose line) */
    double t0;        /* the log's time origin */
    double last_byte; /* when the last byte came */
    dm_dxp_splitter sp;
} dxp_conn;

/* Take over the connected socket fd (made non-blocking, TCP_NODELAY). */
void dxp_conn_init(dxp_conn *c, int fd, FILE *log);

/* Queue one message (text[0..len), without its NUL) and send what can be sent; the
 * signature of dxp_send_fn (payload: the dxp_conn). */
void dxp_conn_send(void *payload, const char *text, size_t len);

/* Send what is queued, as far as the socket takes it without blocking. */
void dxp_conn_flush(dxp_conn *c);

/* What the peer sent, one message at a time: msg[0..len) without its NUL, or msg NULL
 * and frame_error saying what was wrong with the framing. Return nonzero to stop
 * reading (the rest of the bytes read are dropped). */
typedef int (*dxp_conn_fn)(void *payload, const char *msg, size_t len, const char *frame_error);

/* Read what is there (after poll said so) and hand each message to fn. Returns 0
 * while the connection is up, 1 when it has ended (*why says how). */
int dxp_conn_read(dxp_conn *c, dxp_conn_fn fn, void *payload, const char **why);

/* 1 when half a message has waited stall_s seconds for the rest: it is dropped and
 * what says so (for a CHAT and the log). */
int dxp_conn_stalled(dxp_conn *c, double stall_s, char *what, size_t cap);

/* Seconds until dxp_conn_stalled would say so (-1: no half message held). */
double dxp_conn_stall_left(const dxp_conn *c, double stall_s);

/* Send what is still queued (for up to wait_s seconds), shut the connection and free
 * the queue. */
void dxp_conn_close(dxp_conn *c, double wait_s);

#endif
