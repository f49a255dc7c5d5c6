/* SPDX-License-Identifier: MIT
 * tests/fake/fake_dxp.c: a fake DXP follower for the tests of `damier match` with DXP
 * engines (tests/cli/match_dxp.sh). It listens on a free loopback port, prints
 * `listening: 127.0.0.1:PORT` (as `damier dxp --listen 0` does), serves one
 * connection: accepts every GAMEREQ, plays the first legal move (the generator's
 * order) with the captured squares listed in descending order (still the same DXP
 * move), acknowledges GAMEEND, and exits after a stop code 1 or when the connection
 * ends. From its N-th move of a game on (--after N, default 1) it misbehaves as
 * --mode says:
 *   first     never (a correct engine)
 *   illegal   a quiet move from an empty square or with a wrong captured set
 *   garbage   a malformed MOVE ("M12")
 *   drop      closes the connection and exits (status 3)
 *   mute      never answers
 *   resign    GAMEEND 1 (it resigns)
 *   claim     GAMEEND 2 (a draw the rules do not give)
 *   refuse    refuses every game (GAMEACC 2)
 * --name NAME gives its name. */
#define _POSIX_C_SOURCE 200809L
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "core/board10.h"
#include <damier/dxp.h>
#include <damier/game.h>
#include "core/move10.h"

#include "../game_fast.h"

static int fd = -1;

static void send_msg(const dm_dxp_msg *m)
{
    char buf[DM_DXP_MAX_MESSAGE + 1];
    size_t len;
    dm_error err;
    if (dm_dxp_format(buf, sizeof buf, &len, m, &err) != DM_OK) {
        fprintf(stderr, "fake_dxp: cannot format a message\n");
        exit(2);
    }
    if (send(fd, buf, len + 1, MSG_NOSIGNAL) != (ssize_t)(len + 1)) {
        exit(0); /* the referee has gone */
    }
}

static void send_raw(const char *text)
{
    send(fd, text, strlen(text) + 1, MSG_NOSIGNAL);
}

static int ended; /* we sent the first GAMEEND of this game */

static void send_end(int reason, int stop)
{
    ended = 1;
    dm_dxp_msg m;
    dm_dxp_msg_init(&m, DM_DXP_GAMEEND);
    m.reason = reason;
    m.stop = stop;
    send_msg(&m);
}

int main(int argc, char **argv)
{
    const char *mode = "first", *name = "fake dxp";
    int after = 1;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--mode")) {
            mode = argv[i + 1];
        } else if (!strcmp(argv[i], "--after")) {
            after = atoi(argv[i + 1]);
        } else if (!strcmp(argv[i], "--name")) {
            name = argv[i + 1];
        }
    }
    int lfd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t al = sizeof a;
    if (lfd < 0 || bind(lfd, (struct sockaddr *)&a, sizeof a) != 0 || listen(lfd, 1) != 0 ||
        getsockname(lfd, (struct sockaddr *)&a, &al) != 0) {
        perror("fake_dxp: listen");
        return 2;
    }
    printf("listening: 127.0.0.1:%d\n", ntohs(a.sin_port));
    fflush(stdout);
    fd = accept(lfd, NULL, NULL);
    close(lfd);
    if (fd < 0) {
        perror("fake_dxp: accept");
        return 2;
    }
    dm_dxp_splitter sp;
    dm_dxp_splitter_init(&sp);
    dm_game *g = NULL;
    int mine = DM_WHITE, made = 0, in_game = 0;
    char buf[4096];
    dm_error err;
    for (;;) {
        /* our move when it is our turn */
        if (in_game && dm_game_position(g)->side == mine) {
            made++;
            const char *act = made >= after ? mode : "first";
            dm_board10 now;
            const dm_board10 *b = fast_game_board(&now, g);
            dm_movelist10 list;
            dm_movegen10_legal(&list, b);
            if (!strcmp(act, "mute")) {
                in_game = 0; /* reads on, says nothing */
            } else if (!strcmp(act, "drop")) {
                close(fd);
                return 3;
            } else if (!strcmp(act, "resign") || list.count == 0) {
                send_end(DM_DXP_END_I_LOSE, 0);
                in_game = 0;
            } else if (!strcmp(act, "claim")) {
                send_end(DM_DXP_END_DRAW, 0);
                in_game = 0;
            } else if (!strcmp(act, "garbage")) {
                send_raw("M12");
                in_game = 0;
            } else {
                dm_dxp_msg m;
                dm_move first;
                dm_move_from_move10(&first, dm_game_position(g), &list.moves[0]);
                dm_dxp_move_from(&m, dm_game_position(g), &first, 0);
                for (int i = 0; i < m.ncaptured / 2; i++) {
                    int t = m.captured[i];
                    m.captured[i] = m.captured[m.ncaptured - 1 - i];
                    m.captured[m.ncaptured - 1 - i] = t;
                }
                if (!strcmp(act, "illegal")) {
                    if (m.ncaptured > 1) {
                        m.ncaptured--; /* a wrong captured set */
                    } else {
                        m.ncaptured = 0;
                        for (int sq = 1; sq <= DM_SQUARES10; sq++) {
                            if (dm_board10_piece(b, sq) == DM_EMPTY) {
                                m.from = sq; /* from an empty square */
                                break;
                            }
                        }
                    }
                    send_msg(&m);
                    in_game = 0;
                } else {
                    send_msg(&m);
                    fast_game_play(g, &list.moves[0]);
                }
            }
            continue;
        }
        ssize_t n = recv(fd, buf, sizeof buf, 0);
        if (n <= 0) {
            return 0;
        }
        for (size_t off = 0; off < (size_t)n;) {
            size_t used, ml;
            const char *msg;
            dm_dxp_split_result r =
                dm_dxp_split(&sp, buf + off, (size_t)n - off, &used, &msg, &ml, &err);
            off += used;
            dm_dxp_msg m;
            if (r != DM_DXP_SPLIT_MESSAGE || dm_dxp_parse(&m, msg, ml, &err) != DM_OK) {
                continue;
            }
            if (m.type == DM_DXP_GAMEREQ && !strcmp(mode, "refuse")) {
                dm_dxp_msg acc;
                dm_dxp_msg_init(&acc, DM_DXP_GAMEACC);
                snprintf(acc.name, sizeof acc.name, "%s", name);
                acc.acceptance = DM_DXP_ACC_THIS_GAME;
                send_msg(&acc);
            } else if (m.type == DM_DXP_GAMEREQ) {
                dm_game_free(g);
                dm_game_new(&g, &m.position);
                mine = m.follower_color;
                made = 0;
                in_game = 1;
                ended = 0;
                dm_dxp_msg acc;
                dm_dxp_msg_init(&acc, DM_DXP_GAMEACC);
                snprintf(acc.name, sizeof acc.name, "%s", name);
                send_msg(&acc);
            } else if (m.type == DM_DXP_MOVE && in_game) {
                dm_move mv;
                if (dm_dxp_move_match(&mv, dm_game_position(g), &m, &err) == DM_OK) {
                    dm_game_play(g, &mv);
                }
            } else if (m.type == DM_DXP_GAMEEND) {
                if (!ended) {
                    send_end(DM_DXP_END_UNKNOWN, m.stop); /* acknowledge */
                }
                in_game = ended = 0;
                if (m.stop) {
                    dm_game_free(g);
                    close(fd);
                    return 0;
                }
            }
        }
    }
}
