/* SPDX-License-Identifier: MIT
 * tests/web/srv_crash.c (test_serve_crash): crash safety of `damier serve`'s store.
 * The server runs as its own process (`damier serve --port 0 --db FILE`, a fresh
 * database in a temporary folder); a client thread plays human-against-human games
 * through HTTP (civetweb's client, as in srv_requests.c: a legal move of the state
 * each time, sent with its ply) and now and then creates a game, while the main
 * thread kills the server with SIGKILL after a random delay. The server is started
 * again on the same file, many times, and after each restart:
 *   - it opens the database and listens;
 *   - every game whose creation was answered (201) is there;
 *   - every move answered 200 is there, at its ply (a move whose answer the kill cut
 *     off may be there too: the client then carries on from the server's state);
 *   - the game's PDN reads back as one legal game with the state's moves.
 * Seeded: DM_CRASH_SEED (default 1; the kills' moments also depend on the machine),
 * DM_CRASH_ROUNDS (default 20).
 * Usage: test_serve_crash <damier binary> */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <civetweb.h>
#include <jansson.h>

#include <damier/game.h>
#include <damier/pdn.h>

#define MAX_GAMES 64
#define MAX_PLIES 400

static const char *damier;
static char dir[256], dbpath[320], logpath[320];
static int failures, checks;
static uint64_t rng_state;

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        checks++;                                                                                  \
        if (!(cond)) {                                                                             \
            failures++;                                                                            \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                                   \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fprintf(stderr, "\n");                                                                 \
        }                                                                                          \
    } while (0)

static uint64_t rnd(void)
{
    uint64_t x = rng_state;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    rng_state = x;
    return x * 0x2545f4914f6cdd1dull;
}

/* What the client knows of a game: what the server acknowledged. */
typedef struct game {
    char id[32], white[64], black[64];
    int acked;                  /* plies whose move got a 200 (or seen after a restart) */
    char moves[MAX_PLIES][160]; /* their Hub text */
    int over;
} game;

static game games[MAX_GAMES];
static int ngames; /* creations answered 201 */
static int port;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static int stop_client;
static long acks_total;

/* ---- HTTP ------------------------------------------------------------------------ */

/* One request; the status (0: no answer: the server is gone), *out the JSON body. */
static int request(const char *method, const char *path, const char *body, json_t **out, char **raw)
{
    char ebuf[256];
    if (out) {
        *out = NULL;
    }
    if (raw) {
        *raw = NULL;
    }
    struct mg_connection *c = mg_connect_client("127.0.0.1", port, 0, ebuf, sizeof ebuf);
    if (!c) {
        return 0;
    }
    size_t len = body ? strlen(body) : 0;
    mg_printf(c,
              "%s %s HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
              "Content-Type: application/json\r\nContent-Length: %zu\r\n\r\n",
              method, path, len);
    if (len) {
        mg_write(c, body, len);
    }
    int st = 0;
    if (mg_get_response(c, ebuf, sizeof ebuf, 10000) >= 0) {
        st = mg_get_response_info(c)->status_code;
    }
    size_t cap = 1 << 20, n = 0;
    char *buf = malloc(cap);
    int got;
    while (buf && n + 1 < cap && (got = mg_read(c, buf + n, cap - 1 - n)) > 0) {
        n += (size_t)got;
    }
    mg_close_connection(c);
    if (!buf) {
        return 0;
    }
    buf[n] = 0;
    if (st != 0) {
        /* a cut answer is no answer */
        json_t *j = json_loadb(buf, n, 0, NULL);
        if (out) {
            *out = j;
        } else {
            json_decref(j);
        }
        if (!j && !raw) {
            st = 0;
        }
    }
    if (raw && st != 0) {
        *raw = buf;
    } else {
        free(buf);
    }
    return st;
}

static const char *str(const json_t *o, const char *k)
{
    const json_t *v = json_object_get(o, k);
    return json_is_string(v) ? json_string_value(v) : "";
}

/* ---- the server ------------------------------------------------------------------ */

static pid_t server_start(void)
{
    int fd[2];
    if (pipe(fd) != 0) {
        return -1;
    }
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fd[1], 1);
        close(fd[0]);
        close(fd[1]);
        FILE *log = fopen(logpath, "a");
        if (log) {
            dup2(fileno(log), 2);
        }
        execl(damier, damier, "serve", "--port", "0", "--db", dbpath, "--engine-threads", "1",
              "--threads", "8", (char *)NULL);
        _exit(127);
    }
    close(fd[1]);
    /* "damier serve: listening on http://127.0.0.1:PORT/ (database ...)" */
    char line[512];
    size_t n = 0;
    port = 0;
    struct pollfd p = {fd[0], POLLIN, 0};
    while (n + 1 < sizeof line && poll(&p, 1, 20000) > 0) {
        ssize_t got = read(fd[0], line + n, 1);
        if (got <= 0) {
            break;
        }
        n++;
        if (line[n - 1] == '\n') {
            break;
        }
    }
    line[n] = 0;
    close(fd[0]);
    const char *h = strstr(line, "127.0.0.1:");
    if (h) {
        port = atoi(h + strlen("127.0.0.1:"));
    }
    if (port <= 0) {
        kill(pid, SIGKILL);
        waitpid(pid, NULL, 0);
        return -1;
    }
    return pid;
}

/* ---- the client ------------------------------------------------------------------ */

static int create_game(void)
{
    json_t *j;
    int st = request("POST", "/api/games", "{\"opponent\":\"human\"}", &j, NULL);
    if (st == 201) {
        pthread_mutex_lock(&mu);
        if (ngames < MAX_GAMES) {
            game *g = &games[ngames];
            memset(g, 0, sizeof *g);
            snprintf(g->id, sizeof g->id, "%s", str(j, "id"));
            snprintf(g->white, sizeof g->white, "%s", str(j, "key"));
            const char *l = str(json_object_get(j, "links"), "black");
            const char *k = strrchr(l, '/');
            snprintf(g->black, sizeof g->black, "%s", k ? k + 1 : "");
            ngames++;
        }
        pthread_mutex_unlock(&mu);
    } else if (st != 0) {
        CHECK(0, "creating a game: status %d", st);
    }
    json_decref(j);
    return st;
}

/* A move in game g, from its state: 1 played, 0 the server is gone, -1 over. */
static int play_one(game *g)
{
    char path[256];
    json_t *st;
    snprintf(path, sizeof path, "/api/games/%.31s?key=%.63s", g->id, g->white);
    int code = request("GET", path, NULL, &st, NULL);
    if (code != 200) {
        CHECK(code == 0, "state of %s: status %d", g->id, code);
        json_decref(st);
        return 0;
    }
    const json_t *legal = json_object_get(st, "legal");
    int ply = (int)json_integer_value(json_object_get(st, "ply"));
    size_t n = json_array_size(legal);
    if (n == 0 || ply >= MAX_PLIES - 1) {
        json_decref(st);
        g->over = 1;
        return -1;
    }
    const char *turn = str(st, "turn");
    char hub[160];
    snprintf(hub, sizeof hub, "%s", str(json_array_get(legal, rnd() % n), "hub"));
    char body[400];
    snprintf(body, sizeof body, "{\"move\":\"%s\",\"ply\":%d,\"key\":\"%s\"}", hub, ply,
             !strcmp(turn, "white") ? g->white : g->black);
    json_decref(st);
    snprintf(path, sizeof path, "/api/games/%.31s/move", g->id);
    json_t *r;
    code = request("POST", path, body, &r, NULL);
    json_decref(r);
    if (code == 200) {
        pthread_mutex_lock(&mu);
        if (ply >= g->acked) {
            snprintf(g->moves[ply], sizeof g->moves[ply], "%s", hub);
            g->acked = ply + 1;
        }
        acks_total++;
        pthread_mutex_unlock(&mu);
        return 1;
    }
    CHECK(code == 0, "move %s at ply %d of %s: status %d", hub, ply, g->id, code);
    return 0;
}

static void *client(void *arg)
{
    (void)arg;
    for (;;) {
        pthread_mutex_lock(&mu);
        int done = stop_client, n = ngames;
        pthread_mutex_unlock(&mu);
        if (done) {
            return NULL;
        }
        int k = n > 0 ? (int)(rnd() % (uint64_t)n) : 0;
        for (int i = 0; i < n && games[k].over; i++) {
            k = (k + 1) % n;
        }
        int rc;
        if (n < MAX_GAMES && (n == 0 || rnd() % 32 == 0 || games[k].over)) {
            rc = create_game() != 0;
        } else if (games[k].over) {
            return NULL; /* every game is over */
        } else {
            rc = play_one(&games[k]) != 0;
        }
        if (!rc) {
            return NULL; /* the server is gone */
        }
    }
}

/* ---- after a restart ------------------------------------------------------------- */

static void check_game(game *g)
{
    char path[256];
    json_t *st;
    snprintf(path, sizeof path, "/api/games/%.31s?key=%.63s", g->id, g->white);
    int code = request("GET", path, NULL, &st, NULL);
    CHECK(code == 200, "game %s (created, answered 201) after a restart: status %d", g->id, code);
    if (code != 200) {
        json_decref(st);
        return;
    }
    const json_t *moves = json_object_get(st, "moves");
    int ply = (int)json_array_size(moves);
    CHECK(ply >= g->acked, "game %s: %d moves acknowledged, %d after the restart", g->id, g->acked,
          ply);
    for (int i = 0; i < g->acked && i < ply; i++) {
        const char *h = str(json_array_get(moves, (size_t)i), "hub");
        CHECK(!strcmp(h, g->moves[i]), "game %s ply %d: acknowledged %s, restored %s", g->id, i + 1,
              g->moves[i], h);
    }
    /* the moves stored but not acknowledged (the answer was cut) are now known */
    for (int i = g->acked; i < ply && i < MAX_PLIES; i++) {
        snprintf(g->moves[i], sizeof g->moves[i], "%s",
                 str(json_array_get(moves, (size_t)i), "hub"));
    }
    g->acked = ply < MAX_PLIES ? ply : MAX_PLIES;
    /* the PDN reads back as the same game */
    char *pdn = NULL;
    snprintf(path, sizeof path, "/api/games/%.31s/pdn?key=%.63s", g->id, g->white);
    code = request("GET", path, NULL, NULL, &pdn);
    CHECK(code == 200 && pdn, "PDN of %s: status %d", g->id, code);
    if (pdn) {
        dm_pdn_reader *rd = NULL;
        dm_pdn_game *rec = NULL;
        dm_game *gm = NULL;
        dm_error e;
        memset(&e, 0, sizeof e);
        int ok = dm_pdn_reader_new(&rd, pdn, strlen(pdn), "pdn") == DM_OK &&
                 dm_pdn_reader_next(&rec, rd, &e) == DM_OK && rec &&
                 dm_pdn_to_game(&gm, rec, 0, &e) == DM_OK;
        CHECK(ok, "PDN of %s does not read back: %s\n%s", g->id, e.message, pdn);
        if (ok) {
            CHECK(dm_game_ply(gm) == ply, "PDN of %s: %d plies, the state %d", g->id,
                  dm_game_ply(gm), ply);
            for (int i = 0; i < ply && i < dm_game_ply(gm); i++) {
                char t[160];
                dm_game_move_text(t, sizeof t, gm, i, DM_NOTATION_HUB);
                CHECK(!strcmp(t, str(json_array_get(moves, (size_t)i), "hub")),
                      "PDN of %s ply %d: %s", g->id, i + 1, t);
            }
        }
        dm_game_free(gm);
        dm_pdn_game_free(rec);
        dm_pdn_reader_free(rd);
        free(pdn);
    }
    json_decref(st);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_serve_crash <damier binary>\n");
        return 2;
    }
    damier = argv[1];
    const char *e = getenv("DM_CRASH_SEED");
    uint64_t seed = e ? strtoull(e, NULL, 10) : 1;
    e = getenv("DM_CRASH_ROUNDS");
    int rounds = e ? atoi(e) : 20;
    rng_state = seed * 0x9e3779b97f4a7c15ull + 1;
    const char *t = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/damier-serve-crash-XXXXXX", t && *t ? t : "/tmp");
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    snprintf(dbpath, sizeof dbpath, "%s/web.sqlite", dir);
    snprintf(logpath, sizeof logpath, "%s/server.log", dir);
    signal(SIGPIPE, SIG_IGN);
    mg_init_library(0);
    printf("test_serve_crash: seed %llu, %d rounds (DM_CRASH_SEED, DM_CRASH_ROUNDS)\n",
           (unsigned long long)seed, rounds);
    int kills = 0;
    for (int round = 0; round <= rounds && failures == 0; round++) {
        pid_t pid = server_start();
        CHECK(pid > 0, "round %d: the server did not start on %s (see %s)", round, dbpath, logpath);
        if (pid <= 0) {
            break;
        }
        int before = ngames;
        for (int i = 0; i < ngames; i++) {
            check_game(&games[i]);
        }
        if (round == rounds) {
            kill(pid, SIGTERM); /* the last: a clean stop */
            int status;
            waitpid(pid, &status, 0);
            CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the server's clean stop: %d",
                  status);
            break;
        }
        long acks0 = acks_total;
        stop_client = 0;
        pthread_t th;
        pthread_create(&th, NULL, client, NULL);
        /* half the kills soon (in the first moves), half later */
        unsigned ms = rnd() % 2 ? (unsigned)(rnd() % 60) : (unsigned)(50 + rnd() % 700);
        struct timespec ts = {(time_t)(ms / 1000), (long)(ms % 1000) * 1000000L};
        nanosleep(&ts, NULL);
        kill(pid, SIGKILL);
        waitpid(pid, NULL, 0);
        pthread_mutex_lock(&mu);
        stop_client = 1;
        pthread_mutex_unlock(&mu);
        pthread_join(th, NULL);
        kills++;
        printf("round %d: killed after %u ms: %ld moves acknowledged, %d games created\n", round,
               ms, acks_total - acks0, ngames - before);
    }
    long plies = 0;
    for (int i = 0; i < ngames; i++) {
        plies += games[i].acked;
    }
    printf("test_serve_crash: %d kills, %d games, %ld plies stored, %ld moves acknowledged; "
           "%d checks, %d failed\n",
           kills, ngames, plies, acks_total, checks, failures);
    if (failures) {
        fprintf(stderr, "test_serve_crash: the server's log: %s (kept)\n", logpath);
        return 1;
    }
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) {
        fprintf(stderr, "test_serve_crash: could not remove %s\n", dir);
    }
    return 0;
}
