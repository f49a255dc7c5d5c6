/* SPDX-License-Identifier: MIT
 * apps/cli/cmd_dxp.c: `damier dxp`: engine matches over DXP, the DamExchange
 * Protocol (TCP). The sockets, the poll(2) loop, the NUL framing (dm_dxp_split) and
 * the message log live here; the session itself (games, clocks, engine, answers to
 * every message) is dxp_driver.c.
 *
 *   damier dxp --listen [HOST:]PORT    follower: wait for an initiator's GAMEREQ
 *   damier dxp --connect HOST:PORT     initiator: --games N --time MIN --moves N
 *                                      --color white|black
 * Both take the engine options of `damier play` (--level, --depth, --seed) and
 * --log FILE (every message sent and received), --pdn FILE (every game appended).
 * One poll loop: a half message followed by silence (--stall), a silent peer (its
 * clock plus --grace, or --idle), a dropped connection, a peer that floods or does
 * not read: each is logged on stderr and ends in an answer or a clean close, never
 * a hang. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <damier/dxp.h>

#include "dxp_driver.h"

enum {
    O_LISTEN = 2000,
    O_CONNECT,
    O_GAMES,
    O_TIME,
    O_MOVES,
    O_COLOR,
    O_LOG,
    O_PDN,
    O_GRACE,
    O_IDLE,
    O_STALL,
    O_KEEP,
    O_SEED,
    O_WAIT,
    O_HELP
};

enum {
    OUT_LIMIT = 1 << 20
}; /* bytes queued for a peer that does not read */
enum {
    DXP_MAXHOST = 1025,
    DXP_MAXSERV = 32
}; /* NI_MAXHOST, NI_MAXSERV are not POSIX */

static const struct option dxp_options[] = {{"listen", required_argument, 0, O_LISTEN},
                                            {"connect", required_argument, 0, O_CONNECT},
                                            {"games", required_argument, 0, O_GAMES},
                                            {"time", required_argument, 0, O_TIME},
                                            {"moves", required_argument, 0, O_MOVES},
                                            {"color", required_argument, 0, O_COLOR},
                                            {"log", required_argument, 0, O_LOG},
                                            {"pdn", required_argument, 0, O_PDN},
                                            {"grace", required_argument, 0, O_GRACE},
                                            {"idle", required_argument, 0, O_IDLE},
                                            {"stall", required_argument, 0, O_STALL},
                                            {"keep-listening", no_argument, 0, O_KEEP},
                                            {"wait", required_argument, 0, O_WAIT},
                                            {"seed", required_argument, 0, O_SEED},
                                            {"level", required_argument, 0, PLAY_O_LEVEL},
                                            {"depth", required_argument, 0, PLAY_O_DEPTH},
                                            {"fen", required_argument, 0, PLAY_O_FEN},
                                            {"help", no_argument, 0, O_HELP},
                                            {0, 0, 0, 0}};

static void usage(FILE *f)
{
    fprintf(f,
            "usage: damier dxp --listen [HOST:]PORT [options]\n"
            "       damier dxp --connect HOST:PORT [--games N] [--time MIN] [--moves N]\n"
            "                  [--color white|black] [--fen FEN] [options]\n"
            "  plays engine matches over DXP, the DamExchange Protocol (TCP, default port "
            "%d)\n"
            "  --listen [HOST:]PORT  follower: wait for GAMEREQ (loopback unless HOST is "
            "given;\n"
            "                        port 0: any free port, printed as `listening: HOST:PORT`)\n"
            "  --keep-listening      serve the next connection when a session ends\n"
            "  --connect HOST:PORT   initiator: start the games\n"
            "  --wait SEC            retry connecting for SEC while nobody listens (10)\n"
            "  --games N             games to play (default 2), colours alternating\n"
            "  --time MIN            thinking time per player and game, minutes (default 5;\n"
            "                        0 = no clock)\n"
            "  --moves N             moves the time covers and the game lasts (default 75;\n"
            "                        0 = no limit); at the limit the game is adjudicated\n"
            "  --color white|black   our colour in the first game (default white)\n"
            "  --fen FEN             start position (sent with GAMEREQ)\n"
            "  --level N             engine level 1..10 (default 10), as `damier play`\n"
            "  --depth N             fixed search depth instead\n"
            "  --seed N              seed of the low levels' random choices\n"
            "  --log FILE            log every message sent (>) and received (<)\n"
            "  --pdn FILE            append every game as PDN\n"
            "  --grace SEC           a peer may overstep its time by SEC in a game (10)\n"
            "  --idle SEC            silence tolerated without a clock (600)\n"
            "  --stall SEC           half a message then SEC of silence: discarded (10)\n",
            DM_DXP_PORT);
}

/* ---- the connection ------------------------------------------------------------------- */

typedef struct conn {
    int fd;
    char *out; /* bytes queued for the peer */
    size_t out_len, out_cap;
    int overflow; /* the peer does not read */
    FILE *log;
    double t0;
} conn;

static void log_line(conn *c, const char *dir, const char *text, size_t len)
{
    if (!c->log) {
        return;
    }
    fprintf(c->log, "%9.3f %s ", cli_now() - c->t0, dir);
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

static void flush_out(conn *c)
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

static void conn_send(void *payload, const char *text, size_t len)
{
    conn *c = payload;
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
    flush_out(c);
}

/* Read what is there and feed it to the driver. Returns 0 while the connection is
 * up, else 1 with why. */
static int read_input(conn *c, dm_dxp_splitter *sp, dxp_driver *d, double *last_byte,
                      const char **why)
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
    *last_byte = cli_now();
    size_t off = 0;
    while (off < (size_t)n && !dxp_driver_finished(d)) {
        size_t used;
        const char *msg;
        size_t ml;
        dm_error err;
        dm_dxp_split_result r =
            dm_dxp_split(sp, buf + off, (size_t)n - off, &used, &msg, &ml, &err);
        off += used;
        if (r == DM_DXP_SPLIT_MESSAGE) {
            log_line(c, "<", msg, ml);
            dxp_driver_message(d, msg, ml);
        } else if (r == DM_DXP_SPLIT_ERROR) {
            log_line(c, "!", err.message, strlen(err.message));
            dxp_driver_frame_error(d, err.message);
        }
    }
    return 0;
}

/* One DXP session over fd. Returns the driver's exit status. */
static int run_session(int fd, const dxp_config *cfg, FILE *logf, int stall_s)
{
    conn c;
    memset(&c, 0, sizeof c);
    c.fd = fd;
    c.log = logf;
    c.t0 = cli_now();
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    dxp_driver *d;
    if (dxp_driver_new(&d, cfg, conn_send, &c) != 0) {
        return 1;
    }
    dm_dxp_splitter sp;
    dm_dxp_splitter_init(&sp);
    double last_byte = cli_now();
    const char *why = NULL;
    int reads = 0; /* reads in a row without a pause */
    dxp_driver_connected(d);
    while (!dxp_driver_finished(d)) {
        if (c.overflow) {
            why = "the peer does not read what we send";
            break;
        }
        if (play_interrupted()) {
            why = "interrupted";
            break;
        }
        int timeout = dxp_driver_timeout_ms(d);
        if (dxp_driver_our_turn(d)) {
            timeout = 0; /* read what is already there, then think */
        }
        if (dm_dxp_splitter_pending(&sp) > 0) {
            int left = (int)((last_byte + stall_s - cli_now()) * 1000);
            left = left < 0 ? 0 : left;
            if (timeout < 0 || left < timeout) {
                timeout = left;
            }
        }
        struct pollfd p = {fd, POLLIN | (c.out_len ? POLLOUT : 0), 0};
        int r = poll(&p, 1, timeout);
        if (r < 0 && errno != EINTR) {
            why = strerror(errno);
            break;
        }
        if (r > 0 && (p.revents & POLLOUT)) {
            flush_out(&c);
        }
        if (r > 0 && (p.revents & (POLLIN | POLLHUP | POLLERR))) {
            if (read_input(&c, &sp, d, &last_byte, &why)) {
                break;
            }
            if (++reads < 64) {
                continue; /* more may be waiting before we think (a flood waits) */
            }
        }
        reads = 0;
        size_t pend = dm_dxp_splitter_pending(&sp);
        if (pend > 0 && cli_now() - last_byte >= stall_s) {
            char what[160];
            snprintf(what, sizeof what,
                     "incomplete message: %zu bytes without NUL terminator and %d s of "
                     "silence: discarded",
                     pend, stall_s);
            log_line(&c, "!", what, strlen(what));
            dm_dxp_splitter_reset(&sp);
            dxp_driver_frame_error(d, what);
        }
        if (dxp_driver_our_turn(d)) {
            dxp_driver_think(d);
            flush_out(&c);
        }
        dxp_driver_tick(d);
    }
    if (why) {
        fprintf(stderr, "damier dxp: connection ends: %s\n", why);
        dxp_driver_disconnected(d, why);
    }
    /* what is still queued (the last GAMEEND) goes out before the close */
    double until = cli_now() + 5;
    while (c.out_len > 0 && !c.overflow && cli_now() < until) {
        struct pollfd p = {fd, POLLOUT, 0};
        if (poll(&p, 1, 200) > 0 && (p.revents & (POLLERR | POLLHUP))) {
            break;
        }
        size_t before = c.out_len;
        flush_out(&c);
        if (c.out_len == before && (p.revents & POLLOUT)) {
            break;
        }
    }
    dxp_driver_summary(d, stdout);
    fflush(stdout);
    int status = dxp_driver_status(d);
    dxp_driver_free(d);
    free(c.out);
    shutdown(fd, SHUT_WR);
    close(fd);
    return status;
}

/* ---- addresses ---------------------------------------------------------------------------- */

/* Split "[HOST:]PORT" (HOST may be "[v6]"); host_default when there is none.
 * 0 on success. */
static int split_address(const char *arg, char *host, size_t hcap, char *port, size_t pcap,
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

static int listen_on(const char *host, const char *port, char *bound, size_t bcap)
{
    struct addrinfo hints, *res = NULL;
    memset(&hints, 0, sizeof hints);
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE;
    int e = getaddrinfo(host, port, &hints, &res);
    if (e != 0) {
        fprintf(stderr, "damier dxp: cannot resolve %s: %s\n", host, gai_strerror(e));
        return -1;
    }
    int fd = -1;
    for (struct addrinfo *a = res; a && fd < 0; a = a->ai_next) {
        fd = socket(a->ai_family, a->ai_socktype, a->ai_protocol);
        if (fd < 0) {
            continue;
        }
        int one = 1;
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        if (bind(fd, a->ai_addr, a->ai_addrlen) != 0 || listen(fd, 4) != 0) {
            fprintf(stderr, "damier dxp: cannot listen on %s:%s: %s\n", host, port,
                    strerror(errno));
            close(fd);
            fd = -1;
        }
    }
    freeaddrinfo(res);
    if (fd >= 0) {
        struct sockaddr_storage ss;
        socklen_t sl = sizeof ss;
        char h[DXP_MAXHOST], s[DXP_MAXSERV];
        if (getsockname(fd, (struct sockaddr *)&ss, &sl) == 0 &&
            getnameinfo((struct sockaddr *)&ss, sl, h, sizeof h, s, sizeof s,
                        NI_NUMERICHOST | NI_NUMERICSERV) == 0) {
            snprintf(bound, bcap, strchr(h, ':') ? "[%s]:%s" : "%s:%s", h, s);
        } else {
            snprintf(bound, bcap, "%s:%s", host, port);
        }
    }
    return fd;
}

/* Connect, retrying for up to wait_s seconds (the follower may still be starting). */
static int connect_to(const char *host, const char *port, int wait_s)
{
    double until = cli_now() + wait_s;
    const char *last = "no address";
    for (;;) {
        struct addrinfo hints, *res = NULL;
        memset(&hints, 0, sizeof hints);
        hints.ai_family = AF_UNSPEC;
        hints.ai_socktype = SOCK_STREAM;
        int e = getaddrinfo(host, port, &hints, &res);
        if (e != 0) {
            fprintf(stderr, "damier dxp: cannot resolve %s: %s\n", host, gai_strerror(e));
            return -1;
        }
        for (struct addrinfo *a = res; a; a = a->ai_next) {
            int fd = socket(a->ai_family, a->ai_socktype, a->ai_protocol);
            if (fd < 0) {
                continue;
            }
            if (connect(fd, a->ai_addr, a->ai_addrlen) == 0) {
                freeaddrinfo(res);
                return fd;
            }
            last = strerror(errno);
            close(fd);
        }
        freeaddrinfo(res);
        if (cli_now() >= until || play_interrupted()) {
            fprintf(stderr, "damier dxp: cannot connect to %s:%s: %s\n", host, port, last);
            return -1;
        }
        struct timespec ts = {0, 200 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
}

/* ---- the command -------------------------------------------------------------------------- */

static int int_option(const char *name, const char *arg, int lo, int hi, int *out)
{
    if (!play_parse_int(arg, lo, hi, out)) {
        fprintf(stderr, "damier dxp: --%s wants %d..%d, not '%s'\n", name, lo, hi, arg);
        return 0;
    }
    return 1;
}

int cmd_dxp(int argc, char **argv)
{
    dxp_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.games = 2;
    cfg.time_min = 5;
    cfg.moves = 75;
    cfg.color = DM_WHITE;
    cfg.grace_s = 10;
    cfg.idle_s = 600;
    const char *listen_arg = NULL, *connect_arg = NULL, *log_path = NULL;
    int stall_s = 10, keep = 0, have_seed = 0, wait_s = 10;
    uint64_t seed = 0;
    play_options po = PLAY_OPTIONS_INIT;
    po.level = 10;
    optind = 1;
    opterr = 0;
    int ch;
    while ((ch = getopt_long(argc, argv, "", dxp_options, NULL)) != -1) {
        int ok = 1;
        switch (ch) {
            case O_LISTEN:
                listen_arg = optarg;
                break;
            case O_CONNECT:
                connect_arg = optarg;
                break;
            case O_GAMES:
                ok = int_option("games", optarg, 1, 100000, &cfg.games);
                break;
            case O_TIME:
                ok = int_option("time", optarg, 0, 999, &cfg.time_min);
                break;
            case O_MOVES:
                ok = int_option("moves", optarg, 0, 999, &cfg.moves);
                break;
            case O_GRACE:
                ok = int_option("grace", optarg, 0, 3600, &cfg.grace_s);
                break;
            case O_IDLE:
                ok = int_option("idle", optarg, 1, 86400, &cfg.idle_s);
                break;
            case O_STALL:
                ok = int_option("stall", optarg, 1, 3600, &stall_s);
                break;
            case O_KEEP:
                keep = 1;
                break;
            case O_WAIT:
                ok = int_option("wait", optarg, 0, 3600, &wait_s);
                break;
            case O_LOG:
                log_path = optarg;
                break;
            case O_PDN:
                cfg.pdn_path = optarg;
                break;
            case O_COLOR:
                if (!strcmp(optarg, "white")) {
                    cfg.color = DM_WHITE;
                } else if (!strcmp(optarg, "black")) {
                    cfg.color = DM_BLACK;
                } else {
                    fprintf(stderr, "damier dxp: --color wants white or black, not '%s'\n", optarg);
                    ok = 0;
                }
                break;
            case O_SEED: {
                char *end;
                errno = 0;
                seed = strtoull(optarg, &end, 10);
                if (errno || end == optarg || *end) {
                    fprintf(stderr, "damier dxp: --seed wants a number, not '%s'\n", optarg);
                    ok = 0;
                }
                have_seed = 1;
                break;
            }
            case O_HELP:
                usage(stdout);
                return 0;
            default: {
                int r = ch == '?' || ch == ':'
                            ? 0
                            : play_common_option(&po, ch, optarg, DM_ENGINE_MAX_DEPTH);
                if (r == 0) {
                    fprintf(stderr, "damier dxp: unknown option or missing value: %s\n",
                            argv[optind - 1]);
                    usage(stderr);
                    return 2;
                }
                ok = r > 0;
            }
        }
        if (!ok) {
            return 2;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "damier dxp: unexpected argument '%s'\n", argv[optind]);
        return 2;
    }
    if (!listen_arg == !connect_arg) {
        fprintf(stderr, "damier dxp: give exactly one of --listen and --connect\n");
        usage(stderr);
        return 2;
    }
    if (po.fen) {
        dm_board b;
        if (cli_board_from_arg(&b, po.fen)) {
            return 2;
        }
        if (dm_movegen_count(&b) == 0) {
            fprintf(stderr, "damier dxp: --fen: the side to move has no legal move\n");
            return 2;
        }
        if (listen_arg) {
            fprintf(stderr, "damier dxp: --fen is for the initiator (--connect)\n");
            return 2;
        }
    }
    cfg.initiator = connect_arg != NULL;
    cfg.fen = po.fen;
    cfg.level = po.level;
    cfg.depth = po.depth;
    cfg.seed = have_seed ? seed : ((uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32));
    char host[256], port[16];
    if (split_address(listen_arg ? listen_arg : connect_arg, host, sizeof host, port, sizeof port,
                      listen_arg ? "127.0.0.1" : NULL)) {
        fprintf(stderr, "damier dxp: %s wants %sPORT, not '%s'\n",
                listen_arg ? "--listen" : "--connect",
                listen_arg ? "[HOST:]" : "HOST:", listen_arg ? listen_arg : connect_arg);
        return 2;
    }
    FILE *logf = NULL;
    if (log_path && !(logf = fopen(log_path, "w"))) {
        fprintf(stderr, "damier dxp: cannot write %s: %s\n", log_path, strerror(errno));
        return 2;
    }
    play_signals_install();
    char site[1400];
    int status = 0;
    fprintf(stderr, "damier dxp: level %d%s, seed %llu\n", cfg.level,
            cfg.depth ? " (fixed depth)" : "", (unsigned long long)cfg.seed);
    if (connect_arg) {
        int fd = connect_to(host, port, wait_s);
        if (fd < 0) {
            status = 1;
        } else {
            snprintf(site, sizeof site, "damier dxp to %s:%s", host, port);
            cfg.site = site;
            fprintf(stderr, "damier dxp: connected to %s:%s\n", host, port);
            status = run_session(fd, &cfg, logf, stall_s);
        }
    } else {
        char bound[300];
        int lfd = listen_on(host, port, bound, sizeof bound);
        if (lfd < 0) {
            status = 1;
        } else {
            printf("listening: %s\n", bound);
            fflush(stdout);
            fprintf(stderr, "damier dxp: listening on %s\n", bound);
            do {
                struct sockaddr_storage ss;
                socklen_t sl = sizeof ss;
                int fd = accept(lfd, (struct sockaddr *)&ss, &sl);
                if (fd < 0) {
                    if (errno == EINTR && !play_interrupted()) {
                        continue;
                    }
                    if (!play_interrupted()) {
                        fprintf(stderr, "damier dxp: accept: %s\n", strerror(errno));
                    }
                    status = 1;
                    break;
                }
                char h[DXP_MAXHOST] = "?", s[DXP_MAXSERV] = "?";
                getnameinfo((struct sockaddr *)&ss, sl, h, sizeof h, s, sizeof s,
                            NI_NUMERICHOST | NI_NUMERICSERV);
                snprintf(site, sizeof site, "damier dxp on %s, peer %s:%s", bound, h, s);
                cfg.site = site;
                fprintf(stderr, "damier dxp: connection from %s:%s\n", h, s);
                status = run_session(fd, &cfg, logf, stall_s);
            } while (keep && !play_interrupted());
            close(lfd);
        }
    }
    if (logf) {
        fclose(logf);
    }
    if (play_interrupted()) {
        return 130;
    }
    return status;
}
