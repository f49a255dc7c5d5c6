/* SPDX-License-Identifier: MIT
 * tests/unit/test_dxp_peer.c: `damier dxp --listen` (a follower process) against a
 * scripted initiator written here with the library's codec: every kind of bad input
 * of issue 11 gets its answer and the follower plays on.
 * - garbage: unknown header, non-ASCII, overlong, empty, truncated, malformed fields,
 *   MOVE/BACKREQ outside a game, GAMEREQ of another version, unreadable, with an
 *   invalid position, during a game; half a message then silence; a move out of
 *   turn; BACKREQ (accepted, then the game goes on from there); an illegal move
 *   (forfeit: GAMEEND 3); then a whole next game with legal moves, resigned with stop
 *   code 1, and the follower exits 0.
 * - disconnect: a silent initiator loses on time (a 0.6 s clock: ".01" minutes), the
 *   next game is cut off after a few moves: the follower keeps its PDN (legal, "*")
 *   and exits 1.
 * - flood: thousands of bad messages in one burst: the follower hangs up, never hangs. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <damier/dxp.h>
#include <damier/variant.h>

typedef struct follower {
    pid_t pid;
    int port;
    char dir[64];
    char pdn[96], err[96];
} follower;

/* Start `damier dxp --listen 127.0.0.1:0 ARGS...` and read the port it listens on. */
static void follower_start(follower *f, const char *const *args)
{
    snprintf(f->dir, sizeof f->dir, "/tmp/dxp_peer_XXXXXX");
    assert_non_null(mkdtemp(f->dir));
    snprintf(f->pdn, sizeof f->pdn, "%s/games.pdn", f->dir);
    snprintf(f->err, sizeof f->err, "%s/stderr", f->dir);
    int p[2];
    assert_int_equal(pipe(p), 0);
    f->pid = fork();
    assert_true(f->pid >= 0);
    if (f->pid == 0) {
        const char *argv[32] = {DM_BINARY, "dxp", "--listen", "127.0.0.1:0", "--pdn", f->pdn};
        int n = 6;
        for (int i = 0; args[i] && n < 30; i++) {
            argv[n++] = args[i];
        }
        argv[n] = NULL;
        dup2(p[1], 1);
        FILE *e = freopen(f->err, "w", stderr);
        (void)e;
        close(p[0]);
        close(p[1]);
        execv(DM_BINARY, (char *const *)argv);
        _exit(127);
    }
    close(p[1]);
    FILE *out = fdopen(p[0], "r");
    assert_non_null(out);
    char line[256];
    f->port = 0;
    while (fgets(line, sizeof line, out)) {
        const char *c = strrchr(line, ':');
        if (!strncmp(line, "listening: ", 11) && c) {
            f->port = atoi(c + 1);
            break;
        }
    }
    /* the rest of its stdout is not read: keep the pipe open and let it buffer */
    assert_true(f->port > 0);
}

/* Wait for the follower to exit (at most secs seconds); its exit status. */
static int follower_wait(follower *f, int secs)
{
    for (int i = 0; i < secs * 20; i++) {
        int st;
        pid_t r = waitpid(f->pid, &st, WNOHANG);
        if (r == f->pid) {
            return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
        }
        struct timespec ts = {0, 50 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    kill(f->pid, SIGKILL);
    waitpid(f->pid, NULL, 0);
    fail_msg("the follower did not exit within %d s", secs);
    return -1;
}

static void dump_stderr(const follower *f)
{
    FILE *e = fopen(f->err, "r");
    char line[512];
    while (e && fgets(line, sizeof line, e)) {
        fprintf(stderr, "  follower: %s", line);
    }
    if (e) {
        fclose(e);
    }
}

typedef struct peer {
    int fd;
    dm_dxp_splitter sp;
    char pending[8192]; /* bytes read but not yet split */
    size_t plen, poff;
} peer;

static void peer_connect(peer *p, int port)
{
    memset(p, 0, sizeof *p);
    dm_dxp_splitter_init(&p->sp);
    p->fd = socket(AF_INET, SOCK_STREAM, 0);
    assert_true(p->fd >= 0);
    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_port = htons((uint16_t)port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    assert_int_equal(connect(p->fd, (struct sockaddr *)&a, sizeof a), 0);
}

static void send_raw(peer *p, const char *data, size_t len)
{
    while (len > 0) {
        ssize_t n = send(p->fd, data, len, MSG_NOSIGNAL);
        assert_true(n > 0);
        data += n;
        len -= (size_t)n;
    }
}

/* one message and its NUL */
static void send_msg(peer *p, const char *text)
{
    send_raw(p, text, strlen(text) + 1);
}

/* The next message within ms milliseconds into buf: 1, 0 on time-out, -1 when the
 * connection is closed. */
static int recv_msg(peer *p, char *buf, size_t cap, int ms)
{
    for (;;) {
        while (p->poff < p->plen) {
            size_t used, ml;
            const char *msg;
            dm_error err;
            dm_dxp_split_result r = dm_dxp_split(&p->sp, p->pending + p->poff, p->plen - p->poff,
                                                 &used, &msg, &ml, &err);
            p->poff += used;
            if (r == DM_DXP_SPLIT_MESSAGE) {
                snprintf(buf, cap, "%s", msg);
                return 1;
            }
            assert_int_not_equal(r, DM_DXP_SPLIT_ERROR); /* damier sends good frames */
        }
        struct pollfd pf = {p->fd, POLLIN, 0};
        if (poll(&pf, 1, ms) <= 0) {
            return 0;
        }
        ssize_t n = recv(p->fd, p->pending, sizeof p->pending, 0);
        if (n <= 0) {
            return -1;
        }
        p->plen = (size_t)n;
        p->poff = 0;
    }
}

/* Read messages until one starts with prefix and contains what (NULL: anything);
 * the others are only printed. Fails after 15 s. */
static void expect(peer *p, const char *prefix, const char *what, char *got, size_t cap)
{
    char buf[256];
    for (;;) {
        int r = recv_msg(p, buf, sizeof buf, 15000);
        if (r <= 0) {
            fail_msg("waiting for '%s...%s': %s", prefix, what ? what : "",
                     r ? "connection closed" : "time-out");
        }
        if (!strncmp(buf, prefix, strlen(prefix)) && (!what || strstr(buf, what))) {
            if (got) {
                snprintf(got, cap, "%s", buf);
            }
            return;
        }
        fprintf(stderr, "  (skipped '%s' waiting for '%s')\n", buf, prefix);
    }
}

static void gamereq(char *buf, size_t cap, const char *version, char follower_color,
                    const char *time, const char *moves, const char *pos)
{
    snprintf(buf, cap, "R%s%-32s%c%s%s%s", version, "test initiator", follower_color, time, moves,
             pos ? pos : "A");
}

/* Our move (the first legal one in the generator's order) on b: its text (and NUL)
 * at out, applied to b; returns the length with the NUL. */
static size_t first_move(char *out, size_t cap, dm_board *b)
{
    dm_movelist list;
    dm_movegen_legal(&list, b);
    assert_true(list.count > 0);
    dm_dxp_msg m;
    assert_int_equal(dm_dxp_move_from(&m, b, &list.moves[0], 0), DM_OK);
    size_t len;
    assert_int_equal(dm_dxp_format(out, cap, &len, &m, NULL), DM_OK);
    dm_board_apply(b, &list.moves[0]);
    return len + 1;
}

/* Our move (the first legal one) on b: sent and applied. */
static void play_first(peer *p, dm_board *b)
{
    dm_movelist list;
    dm_movegen_legal(&list, b);
    assert_true(list.count > 0);
    dm_dxp_msg m;
    assert_int_equal(dm_dxp_move_from(&m, b, &list.moves[0], 0), DM_OK);
    char text[128];
    assert_int_equal(dm_dxp_format(text, sizeof text, NULL, &m, NULL), DM_OK);
    send_msg(p, text);
    dm_board_apply(b, &list.moves[0]);
}

/* The follower's move: read (CHATs skipped), checked legal and applied. */
static void their_move(peer *p, dm_board *b)
{
    char text[256];
    expect(p, "M", NULL, text, sizeof text);
    dm_dxp_msg m;
    dm_error err;
    assert_int_equal(dm_dxp_parse(&m, text, strlen(text), &err), DM_OK);
    dm_move mv;
    if (dm_dxp_move_match(&mv, b, &m, &err) != DM_OK) {
        fail_msg("the follower's move %s: %s", text, err.message);
    }
    dm_board_apply(b, &mv);
}

static void test_dxp_peer__garbage_then_a_whole_game(void **state)
{
    (void)state;
    follower f;
    const char *args[] = {"--depth", "1", "--stall", "1", "--seed", "3", NULL};
    follower_start(&f, args);
    peer p;
    peer_connect(&p, f.port);
    char buf[256], req[128];

    send_msg(&p, "X123");
    expect(&p, "Cerror: ", "unknown message header 'X' (offset 0)", NULL, 0);
    send_msg(&p, "C\x80\x81");
    expect(&p, "Cerror: ", "byte 0x80", NULL, 0);
    char big[300];
    memset(big, 'C', sizeof big - 1);
    big[sizeof big - 1] = 0;
    send_msg(&p, big);
    expect(&p, "Cerror: ", "longer than 127", NULL, 0);
    send_raw(&p, "", 1);
    expect(&p, "Cerror: ", "empty message", NULL, 0);
    send_msg(&p, "E0");
    expect(&p, "Cerror: ", "truncated", NULL, 0);
    send_msg(&p, "M00a2061100");
    expect(&p, "Cerror: ", "found 'a' (offset 3)", NULL, 0);
    send_msg(&p, "M0012061100");
    expect(&p, "Cerror: ", "outside a game", NULL, 0);
    send_msg(&p, "K0");
    expect(&p, "Cerror: ", "BACKACC without a BACKREQ", NULL, 0);
    send_msg(&p, "B005Z");
    expect(&p, "K2", NULL, NULL, 0);
    gamereq(req, sizeof req, "02", 'Z', "005", "075", NULL);
    send_msg(&p, req);
    expect(&p, "A", NULL, buf, sizeof buf);
    assert_int_equal(strlen(buf), 34);
    assert_int_equal(buf[33], '1');
    assert_non_null(strstr(buf, "damier"));
    send_msg(&p, "R01Scan");
    expect(&p, "Cerror: ", "truncated", NULL, 0);
    expect(&p, "A", NULL, buf, sizeof buf);
    assert_int_equal(buf[33], '2');
    /* a white man on square 1 */
    gamereq(req, sizeof req, "01", 'Z', "005", "075",
            "BWwzzzzzzzzzzzzzzzzzzzeeeeeeeeeewwwwwwwwwwwwwwwwwwwe");
    send_msg(&p, req);
    expect(&p, "Cerror: ", "position refused", NULL, 0);
    expect(&p, "A", NULL, buf, sizeof buf);
    assert_int_equal(buf[33], '2');

    /* game 1: the follower plays Black */
    dm_board b;
    dm_board_start(&b, dm_variant_get(DM_VARIANT_INTERNATIONAL));
    gamereq(req, sizeof req, "01", 'Z', "005", "000", NULL);
    send_msg(&p, req);
    expect(&p, "A", NULL, buf, sizeof buf);
    assert_int_equal(buf[33], '0');
    send_msg(&p, req);
    expect(&p, "Cerror: ", "during game 1", NULL, 0);
    expect(&p, "A", NULL, buf, sizeof buf);
    assert_int_equal(buf[33], '2');
    /* half a message, then silence: discarded after --stall 1 */
    send_raw(&p, "M00", 3);
    expect(&p, "Cerror: ", "incomplete message", NULL, 0);
    /* our move and a second one out of turn in the same packet */
    dm_board before = b;
    char two[64];
    size_t n = first_move(two, sizeof two, &b);
    memcpy(two + n, "M0001313600", 12);
    send_raw(&p, two, n + 12); /* one packet: read together, before the follower thinks */
    expect(&p, "Cerror: ", "out of turn", NULL, 0);
    their_move(&p, &b);
    /* back to the start: accepted, and we move again */
    send_msg(&p, "B001W");
    expect(&p, "K0", NULL, NULL, 0);
    b = before;
    play_first(&p, &b);
    their_move(&p, &b);
    /* an illegal move loses by forfeit */
    send_msg(&p, "M0001464100");
    expect(&p, "C", "forfeit: illegal move", NULL, 0);
    expect(&p, "E30", NULL, NULL, 0);
    send_msg(&p, "E00");

    /* game 2: the follower plays White, from a position (B), and still plays well */
    assert_int_equal(
        dm_board_from_fen(&b, dm_variant_get(DM_VARIANT_INTERNATIONAL), "W:W31-50:B1-20", NULL),
        DM_OK);
    char pos[52];
    dm_dxp_position_text(pos, sizeof pos, &b);
    char bpos[64];
    snprintf(bpos, sizeof bpos, "B%s", pos);
    gamereq(req, sizeof req, "01", 'W', "005", "000", bpos);
    send_msg(&p, req);
    expect(&p, "A", NULL, buf, sizeof buf);
    assert_int_equal(buf[33], '0');
    for (int i = 0; i < 8; i++) {
        their_move(&p, &b);
        play_first(&p, &b);
    }
    their_move(&p, &b);
    /* we resign in our turn and stop the session */
    send_msg(&p, "E11");
    expect(&p, "E0", NULL, buf, sizeof buf);
    assert_string_equal(buf, "E01");
    int rc = follower_wait(&f, 20);
    if (rc != 0) {
        dump_stderr(&f);
    }
    assert_int_equal(rc, 0);
    close(p.fd);
    /* both games are in the PDN, legal, with their results */
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "%s pdn check %s > %s/check 2>&1", DM_BINARY, f.pdn, f.dir);
    int crc = system(cmd);
    snprintf(cmd, sizeof cmd, "%s/check", f.dir);
    FILE *c = fopen(cmd, "r");
    char line[512] = "";
    while (c && fgets(line, sizeof line, c)) {
    }
    if (c) {
        fclose(c);
    }
    assert_int_equal(crc, 0);
    assert_non_null(strstr(line, "2 games, 2 legal"));
    snprintf(cmd, sizeof cmd,
             "grep -c '^\\[Result \"2-0\"\\]' %s | grep -qx 1 && "
             "grep -q '^\\[Termination \"forfeit: illegal move\"\\]' %s && "
             "grep -q '^\\[Termination \"resignation\"\\]' %s",
             f.pdn, f.pdn, f.pdn);
    if (system(cmd) != 0) {
        dump_stderr(&f);
        fail_msg("the PDN lacks the results");
    }
}

static void test_dxp_peer__silence_and_disconnect(void **state)
{
    (void)state;
    follower f;
    const char *args[] = {"--depth", "1", "--grace", "1", NULL};
    follower_start(&f, args);
    peer p;
    peer_connect(&p, f.port);
    char buf[256], req[128];
    /* game 1: 0.6 s each; we never move and lose on time */
    gamereq(req, sizeof req, "01", 'Z', ".01", "000", NULL);
    send_msg(&p, req);
    expect(&p, "A", NULL, buf, sizeof buf);
    assert_int_equal(buf[33], '0');
    expect(&p, "C", "loss on time", NULL, 0);
    expect(&p, "E30", NULL, NULL, 0);
    send_msg(&p, "E00");
    /* game 2: a few moves, then the connection is cut */
    dm_board b;
    dm_board_start(&b, dm_variant_get(DM_VARIANT_INTERNATIONAL));
    gamereq(req, sizeof req, "01", 'Z', "005", "000", NULL);
    send_msg(&p, req);
    expect(&p, "A", NULL, buf, sizeof buf);
    assert_int_equal(buf[33], '0');
    for (int i = 0; i < 3; i++) {
        play_first(&p, &b);
        their_move(&p, &b);
    }
    close(p.fd);
    int rc = follower_wait(&f, 20);
    assert_int_equal(rc, 1);
    char cmd[1024];
    snprintf(cmd, sizeof cmd,
             "%s pdn check %s | tail -1 | grep -qx '2 games, 2 legal, 0 with illegal moves, "
             "0 unreadable' && grep -q '^\\[Result \"\\*\"\\]' %s && "
             "grep -q '^\\[Termination \"connection lost' %s && "
             "grep -q '^\\[Termination \"loss on time\"\\]' %s && grep -q '3\\. ' %s",
             DM_BINARY, f.pdn, f.pdn, f.pdn, f.pdn, f.pdn);
    if (system(cmd) != 0) {
        dump_stderr(&f);
        fail_msg("the PDN of the lost connection is not kept");
    }
}

static void test_dxp_peer__flood(void **state)
{
    (void)state;
    follower f;
    const char *args[] = {"--depth", "1", NULL};
    follower_start(&f, args);
    peer p;
    peer_connect(&p, f.port);
    /* 3000 unknown messages in one burst, then a flood with no NUL at all */
    static char burst[3000 * 4];
    for (int i = 0; i < 3000; i++) {
        memcpy(burst + 4 * i, "Zzz", 4);
    }
    send_raw(&p, burst, sizeof burst);
    /* the follower answers some, then hangs up: reading ends with a close */
    char buf[256];
    int chats = 0, r;
    while ((r = recv_msg(&p, buf, sizeof buf, 15000)) == 1) {
        chats += buf[0] == 'C';
    }
    assert_int_equal(r, -1);
    assert_true(chats >= 1 && chats <= 100);
    close(p.fd);
    assert_int_equal(follower_wait(&f, 20), 1);
}

int main(void)
{
    signal(SIGPIPE, SIG_IGN);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dxp_peer__garbage_then_a_whole_game),
        cmocka_unit_test(test_dxp_peer__silence_and_disconnect),
        cmocka_unit_test(test_dxp_peer__flood),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
