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
#include <getopt.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <damier/dxp.h>

#include "dxp_driver.h"
#include "dxp_net.h"

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

/* dxp_conn's messages to the driver; stop reading once the session is over. */
static int feed_driver(void *payload, const char *msg, size_t len, const char *frame_error)
{
    dxp_driver *d = payload;
    if (msg) {
        dxp_driver_message(d, msg, len);
    } else {
        dxp_driver_frame_error(d, frame_error);
    }
    return dxp_driver_finished(d);
}

/* One DXP session over fd. Returns the driver's exit status. */
static int run_session(int fd, const dxp_config *cfg, FILE *logf, int stall_s)
{
    dxp_conn c;
    dxp_conn_init(&c, fd, logf);
    dxp_driver *d;
    if (dxp_driver_new(&d, cfg, dxp_conn_send, &c) != 0) {
        dxp_conn_close(&c, 0);
        return 1;
    }
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
        double stall = dxp_conn_stall_left(&c, stall_s);
        if (stall >= 0) {
            int left = (int)(stall * 1000);
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
            dxp_conn_flush(&c);
        }
        if (r > 0 && (p.revents & (POLLIN | POLLHUP | POLLERR))) {
            if (dxp_conn_read(&c, feed_driver, d, &why)) {
                break;
            }
            if (++reads < 64) {
                continue; /* more may be waiting before we think (a flood waits) */
            }
        }
        reads = 0;
        char what[160];
        if (dxp_conn_stalled(&c, stall_s, what, sizeof what)) {
            dxp_driver_frame_error(d, what);
        }
        if (dxp_driver_our_turn(d)) {
            dxp_driver_think(d);
            dxp_conn_flush(&c);
        }
        dxp_driver_tick(d);
    }
    if (why) {
        fprintf(stderr, "damier dxp: connection ends: %s\n", why);
        dxp_driver_disconnected(d, why);
    }
    /* what is still queued (the last GAMEEND) goes out before the close */
    dxp_conn_close(&c, 5);
    dxp_driver_summary(d, stdout);
    fflush(stdout);
    int status = dxp_driver_status(d);
    dxp_driver_free(d);
    return status;
}

/* ---- addresses ---------------------------------------------------------------------------- */

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
        static dm_movelist list;
        if (dm_movegen_legal(&list, &b) == 0) {
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
    if (dxp_split_address(listen_arg ? listen_arg : connect_arg, host, sizeof host, port,
                          sizeof port, listen_arg ? "127.0.0.1" : NULL)) {
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
        int fd = dxp_connect_wait(host, port, wait_s, "damier dxp");
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
