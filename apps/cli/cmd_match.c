/* SPDX-License-Identifier: MIT
 * apps/cli/cmd_match.c: `damier match`: engine-against-engine matches through the Hub
 * protocol, the referee's way (docs/MATCH.md).
 *
 * Two engines, each a child process speaking Hub (version 2, or version 1 as Scan 2.0
 * does) on its stdin/stdout. Every opening of the ballot is played twice, colours
 * swapped; --concurrency N games run at once, each with its own pair of processes,
 * all driven by one poll() loop. The referee keeps the game with dm_game (every move
 * checked against the legal moves by from, to and captured set, whatever order the
 * engine lists its captured squares in; the FMJD end and draw rules; with --variant,
 * any variant's game on the generic board, through Hub 2: match_variant.h), a clock per side
 * (Hub: the increment is added before every move; the engine is told its time less the
 * move overhead), and forfeits an engine for an illegal move, a loss on time, no
 * answer, a garbled answer, or dying. Every game is written as PDN as it ends, with the
 * time of each move in its comment; one line per game and a running score with Elo
 * from game pairs (pentanomial) and, with --sprt, the log likelihood ratio. */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <damier/clock.h>
#include <damier/dxp.h>
#include <damier/egdb.h>
#include <damier/game.h>
#include <damier/hub.h>
#include <damier/pdn.h>
#include <damier/variant.h>

#include "commands.h"
#include "dxp_net.h"
#include "match_engine.h"
#include "match_stats.h"
#include "match_variant.h"

#define MAX_ENGINES 2
#define MAX_PARAMS 32
#define MAX_SLOTS 64
/* The SPRT is not judged on fewer pairs: its normal approximation means nothing on
 * two or three (one pair won would pass the bounds of a 0..10 test). */
#define SPRT_MIN_PAIRS 5

enum proto {
    PROTO_AUTO = 0,
    PROTO_HUB2 = 2,
    PROTO_HUB1 = 1,
    PROTO_DXP = 3 /* a DXP follower, connected to over TCP; the match is the initiator */
};

enum {
    DXP_STALL_S = 10,   /* half a DXP message then this much silence: dropped */
    DXP_MAX_BAD = 1000, /* bad DXP messages from one connection before it is dropped */
    DXP_MAX_CHATS = 20  /* error CHATs sent on one connection */
};

typedef struct engine_spec {
    const char *cmd;
    const char *dir;
    const char *name_opt;
    int proto;
    const char *params[MAX_PARAMS]; /* "name=value" for set-param */
    int nparams;
    char name[96]; /* shown in the output and the PDN */
    int ever_ready;
    /* DXP: the follower's address, given (--engine dxp:ADDR, --proto dxp:ADDR) or
     * read from the command's `listening: HOST:PORT` line (--proto dxp) */
    int no_cmd;       /* --engine dxp:ADDR: nothing is started */
    const char *addr; /* the address given, or NULL */
    int has_addr;     /* host and port given */
    char host[256], port[16];
} engine_spec;

enum eng_state {
    ES_OFF = 0,
    ES_HUB,
    ES_INIT,
    ES_IDLE,
    ES_SYNC,
    ES_THINK,
    ES_CONNECT, /* DXP: connecting (the follower may still be starting) */
    ES_ACC,     /* DXP: GAMEREQ sent, its GAMEACC awaited */
    ES_WAIT,    /* DXP: in the game, the other engine to move */
    ES_ENDING   /* DXP: our GAMEEND sent, its acknowledgement awaited */
};

typedef struct engine {
    engine_spec *spec;
    match_proc proc;
    int state;
    int proto;       /* PROTO_HUB2 or PROTO_HUB1 once known */
    double deadline; /* of the handshake step or the search */
    double go_at;    /* when `go` was sent */
    char idname[96]; /* the name the engine gave */
    char depth[16];  /* of its last info line */
    char score[16];
    /* DXP */
    dxp_conn conn; /* conn.fd < 0 when not connected */
    int have_addr; /* host and port known */
    char host[256], port[16];
    double next_try;     /* when to try connecting again */
    const char *why;     /* why the last try failed */
    int think_after_acc; /* the first mover: its search starts with its GAMEACC */
    double budget;       /* seconds it has for the move asked */
    int sent_stop;       /* our last GAMEEND said stop code 1 */
    int bad, chats;      /* bad messages received, error CHATs sent */
} engine;

typedef struct ply_log {
    double emt; /* seconds the move took */
    double clk; /* the mover's clock after it; < 0: no clock */
    char depth[16];
    char score[16];
} ply_log;

typedef struct slot {
    engine eng[MAX_ENGINES]; /* eng[i] runs spec i */
    int active;              /* a game is assigned */
    int started;             /* both engines ready, the game under way */
    int syncing;             /* engines still to answer the ping after new-game */
    int game_no;             /* 0-based */
    int white;               /* index of the engine playing White */
    dm_game *game;
    int base_ply; /* the position the `pos` line starts from (play_vanswer) */
    double clock[MAX_ENGINES];
    int made[MAX_ENGINES];
    ply_log *log;
    int nlog, caplog;
} slot;

typedef struct game_result {
    int done;    /* 1 when played to its end */
    int points0; /* engine 0's points on the FMJD scale: 2 win, 1 draw, 0 loss */
    int white;   /* engine playing White */
    int outcome; /* dm_outcome */
    int forfeit; /* 1 when it ended by a forfeit or a loss on time */
} game_result;

typedef struct match {
    engine_spec spec[MAX_ENGINES];
    int nspec;
    /* the variant played (international by default); every game is a dm_game of it,
     * on the generic board (dm_board, dm_move; match_variant.h) */
    const dm_variant *variant;
    int intl; /* 1 for international: Hub 1, DXP, the ballot, --adjudicate-egdb */
    dm_board *openings;
    int nopenings;
    const char *openings_name;
    int *order; /* opening of each pair */
    int games, concurrency;
    /* limits */
    int has_clock;
    double tc_time, tc_inc;
    int tc_moves;
    double movetime;
    int depth;
    long long nodes;
    double overhead;
    double margin; /* how far past its time an engine may go before it loses */
    double timeout;
    int max_plies;
    /* adjudication by the engines' scores: draw after adj_draw_ply plies when the
     * last adj_draw_count scores are within adj_draw_score men; a win when the last
     * adj_win_count scores all give one side adj_win_score men or more */
    int adj_draw_ply, adj_draw_count, adj_win_count;
    double adj_draw_score, adj_win_score;
    /* adjudication by the endgame database (--adjudicate-egdb DIR; international) */
    const char *egdb_dir;
    dm_egdb *egdb;
    /* output */
    FILE *pdn;
    const char *pdn_name;
    const char *event;
    char date[16];
    int debug;
    /* sprt */
    int sprt;
    double elo0, elo1, alpha, beta, lower, upper;
    int decided; /* 1: H1 accepted, -1: H0 accepted */
    /* state */
    slot *slots;
    int next_game;
    int finished;
    game_result *results;
    int forfeits, time_losses;
    double min_clock; /* the lowest clock left after a move */
    int wins_white, wins_black, draws;
    int fatal;
} match;

/* Set by SIGINT/SIGTERM: the match stops, drops the games under way and prints its
 * summary. */
static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
    (void)sig;
    interrupted = 1;
}

static double now(void)
{
    return cli_now();
}

/* ---- options -------------------------------------------------------------------- */

static void match_usage(FILE *f)
{
    fprintf(f, "usage: damier match --engine CMD --engine CMD [options]\n"
               "  engine-against-engine games through the Hub protocol or DXP "
               "(docs/MATCH.md)\n"
               "engines (the k-th --name/--dir/--proto goes to the k-th engine):\n"
               "  --engine CMD        command line of an engine (run by sh), e.g. \"damier hub\"\n"
               "  --name NAME         its name (default: the name it gives)\n"
               "  --dir DIR           folder to start it in\n"
               "  --proto P           hub (version 2), hub1 (version 1, Scan 2.0) or auto;\n"
               "                      dxp: the command is a DXP follower, connected to at the\n"
               "                      address it prints (`listening: HOST:PORT`), or\n"
               "                      dxp:[HOST:]PORT at that address\n"
               "  --engine dxp:[HOST:]PORT   a DXP follower already listening there\n"
               "  --param [K:]N=V     set-param name=N value=V, for engine K (1 or 2) or both\n"
               "games:\n"
               "  --games N | --rounds N   N games / N pairs of games (default 2 games)\n"
               "  --openings FILE     FEN positions, one a line, in the variant's FEN\n"
               "                      (default: the ballot in international, else the start\n"
               "                      position; \"start\" for the start position)\n"
               "  --seed N            play the openings in an order shuffled from N\n"
               "  --concurrency N     games at once (default 1)\n"
               "  --max-plies N       adjudicate a draw after N plies (default 0: never)\n"
               "  --adjudicate-draw PLY,COUNT,SCORE   a draw from ply PLY on when the last\n"
               "                      COUNT scores the engines gave are within SCORE men\n"
               "  --adjudicate-win COUNT,SCORE   a win when the last COUNT scores all give\n"
               "                      one side SCORE men or more\n"
               "  --adjudicate-egdb DIR   the endgame database there decides a position it\n"
               "                      holds: a draw at once, a win unless a lone king\n"
               "                      faces 3 pieces or fewer (the counting rules decide)\n"
               "  --variant NAME      the rules: international (default), russian, english,\n"
               "                      canadian, ... (`damier moves --variant` lists them);\n"
               "                      Hub engines (version 2) only\n"
               "limits (at least one):\n"
               "  --tc TC             clock, PDN TimeControl: \"40/60+0.5\", \"60+0.5\", \"60\"\n"
               "  --time S --inc S --moves N   the same clock by parts\n"
               "  --movetime S        seconds a move\n"
               "  --depth N  --nodes N   search limits sent to the engines\n"
               "  --move-overhead MS  time kept back from what the engines are told (50)\n"
               "  --time-margin MS    how far past its time an engine may go (0)\n"
               "  --timeout S         no answer after S seconds without a clock (60)\n"
               "output:\n"
               "  --pdn FILE (--pgn)  every game as PDN, written as it ends\n"
               "  --event NAME        the Event tag\n"
               "  --sprt ELO0 ELO1 [--alpha A --beta B]  stop when the SPRT decides\n"
               "  --fail-on-forfeit   exit status 1 when a game ended by a forfeit\n"
               "  --debug             the protocol traffic on stderr\n");
}

static int parse_double(const char *s, double *out, double lo, double hi)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end || errno || !(v >= lo && v <= hi)) {
        return -1;
    }
    *out = v;
    return 0;
}

static int parse_long(const char *s, long long *out, long long lo, long long hi)
{
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (end == s || *end || errno || v < lo || v > hi) {
        return -1;
    }
    *out = v;
    return 0;
}

static int bad_value(const char *opt, const char *v, const char *what)
{
    fprintf(stderr, "damier match: --%s '%s': %s\n", opt, v, what);
    return 2;
}

/* ---- openings ------------------------------------------------------------------- */

static int read_openings(match *m, const char *file)
{
    FILE *f = fopen(file, "r");
    if (!f) {
        fprintf(stderr, "damier match: cannot open '%s': %s\n", file, strerror(errno));
        return 2;
    }
    char line[1024];
    int lineno = 0, cap = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        char *s = line;
        while (*s == ' ' || *s == '\t') {
            s++;
        }
        char *e = s + strlen(s);
        while (e > s && (e[-1] == '\n' || e[-1] == '\r' || e[-1] == ' ' || e[-1] == '\t')) {
            *--e = '\0';
        }
        if (!*s || *s == '#') {
            continue;
        }
        dm_board vb;
        dm_error err;
        if (dm_board_from_fen(&vb, m->variant, s, &err) != DM_OK) {
            fprintf(stderr, "damier match: %s:%d: %s\n", file, lineno, err.message);
            fclose(f);
            return 2;
        }
        static dm_movelist vlist;
        if (dm_movegen_legal(&vlist, &vb) == 0) {
            fprintf(stderr, "damier match: %s:%d: the side to move has no legal move\n", file,
                    lineno);
            fclose(f);
            return 2;
        }
        if (m->nopenings == cap) {
            cap = cap ? 2 * cap : 64;
            dm_board *n = realloc(m->openings, (size_t)cap * sizeof *m->openings);
            if (!n) {
                fclose(f);
                fprintf(stderr, "damier match: out of memory\n");
                return 1;
            }
            m->openings = n;
        }
        m->openings[m->nopenings++] = vb;
    }
    fclose(f);
    if (m->nopenings == 0) {
        fprintf(stderr, "damier match: %s: no positions\n", file);
        return 2;
    }
    return 0;
}

/* The ballot shipped with damier: data/ballot.fen beside the build folder (the source
 * tree), or share/damier/ballot.fen beside bin/ (installed). */
static int find_ballot(char *buf, size_t cap)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) {
        return 0;
    }
    exe[n] = '\0';
    char *slash = strrchr(exe, '/');
    if (!slash) {
        return 0;
    }
    *slash = '\0';
    const char *rel[] = {"/../data/ballot.fen", "/../share/damier/ballot.fen"};
    for (size_t i = 0; i < sizeof rel / sizeof rel[0]; i++) {
        char path[PATH_MAX + 64];
        int k = snprintf(path, sizeof path, "%s%s", exe, rel[i]);
        if (k > 0 && (size_t)k < sizeof path && access(path, R_OK) == 0 && cap >= PATH_MAX &&
            realpath(path, buf)) {
            return 1;
        }
    }
    return 0;
}

static uint64_t rng_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* ---- moves ---------------------------------------------------------------------- */

/* ---- engines -------------------------------------------------------------------- */

static void eng_send(match *m, engine *e, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void eng_send(match *m, engine *e, const char *fmt, ...)
{
    char line[MATCH_LINE_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (m->debug) {
        fprintf(stderr, "> %s: %s\n", e->spec->name, line);
    }
    match_proc_send(&e->proc, line); /* a dead engine shows as the end of its output */
}

static int is_dxp(const engine *e)
{
    return e->spec->proto == PROTO_DXP;
}

/* A DXP message to the engine (logged with --debug); one that cannot be formatted
 * is a bug of ours, said on stderr. */
static void dxp_send(engine *e, const dm_dxp_msg *msg)
{
    char buf[DM_DXP_MAX_MESSAGE + 1];
    size_t len;
    dm_error err;
    if (e->conn.fd < 0) {
        return;
    }
    if (dm_dxp_format(buf, sizeof buf, &len, msg, &err) != DM_OK) {
        fprintf(stderr, "damier match: internal error: cannot format a DXP %s: %s\n",
                dm_dxp_type_name(msg->type), err.message);
        return;
    }
    dxp_conn_send(&e->conn, buf, len);
}

static void dxp_send_gameend(engine *e, int reason, int stop)
{
    dm_dxp_msg msg;
    dm_dxp_msg_init(&msg, DM_DXP_GAMEEND);
    msg.reason = reason;
    msg.stop = stop;
    e->sent_stop = stop;
    dxp_send(e, &msg);
}

/* A DXP engine: its command started (unless it is only an address), then connected
 * to, in dxp_try_connect, as soon as it listens. */
static int dxp_start(match *m, engine *e, char *err, size_t cap)
{
    memset(&e->conn, 0, sizeof e->conn);
    e->conn.fd = -1;
    e->proc.pid = 0;
    e->proc.to_fd = e->proc.from_fd = -1;
    if (!e->spec->no_cmd && match_proc_start(&e->proc, e->spec->cmd, e->spec->dir, err, cap) != 0) {
        e->state = ES_OFF;
        return -1;
    }
    e->have_addr = e->spec->has_addr;
    snprintf(e->host, sizeof e->host, "%s", e->spec->host);
    snprintf(e->port, sizeof e->port, "%s", e->spec->port);
    e->why = e->have_addr ? "nobody listens" : "no `listening: HOST:PORT` line from it";
    e->next_try = now();
    e->bad = e->chats = 0;
    e->sent_stop = 0;
    e->state = ES_CONNECT;
    e->deadline = now() + m->timeout;
    return 0;
}

static int eng_start(match *m, engine *e, char *err, size_t cap)
{
    e->proto = e->spec->proto;
    e->idname[0] = '\0';
    if (is_dxp(e)) {
        return dxp_start(m, e, err, cap);
    }
    if (match_proc_start(&e->proc, e->spec->cmd, e->spec->dir, err, cap) != 0) {
        e->state = ES_OFF;
        return -1;
    }
    e->state = ES_HUB;
    e->deadline = now() + m->timeout;
    eng_send(m, e, "hub");
    return 0;
}

static void eng_stop(engine *e, int grace_ms)
{
    if (e->conn.fd >= 0 || e->conn.out) {
        dxp_conn_close(&e->conn, grace_ms / 1000.0);
    }
    if (e->proc.pid > 0 || e->proc.from_fd >= 0) {
        match_proc_stop(&e->proc, grace_ms);
    }
    e->state = ES_OFF;
}

static void eng_quit(match *m, engine *e)
{
    if (e->state == ES_OFF) {
        return;
    }
    if (!is_dxp(e)) {
        eng_send(m, e, "quit");
    } else if (e->state == ES_THINK || e->state == ES_WAIT) {
        dxp_send_gameend(e, DM_DXP_END_UNKNOWN, DM_DXP_STOP_SESSION); /* a dropped game */
    }
    eng_stop(e, 1000);
}

/* ---- the games ------------------------------------------------------------------ */

static const char *side_name(match *m, slot *s, int color)
{
    return m->spec[color == DM_WHITE ? s->white : 1 - s->white].name;
}

static void fmt_hms(char *buf, size_t cap, double secs)
{
    if (secs < 0) {
        secs = 0;
    }
    long long ms = (long long)llround(secs * 1000);
    snprintf(buf, cap, "%lld:%02lld:%02lld.%03lld", ms / 3600000, ms / 60000 % 60, ms / 1000 % 60,
             ms % 1000);
}

static char *xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d) {
        memcpy(d, s, n);
    }
    return d;
}

/* Append the comment text to a node's or line's comment list. */
static int add_comment(char ***list, int *n, const char *text)
{
    char **l = realloc(*list, (size_t)(*n + 1) * sizeof *l);
    if (!l) {
        return -1;
    }
    *list = l;
    if (!(l[*n] = xstrdup(text))) {
        return -1;
    }
    (*n)++;
    return 0;
}

static void write_pdn(match *m, slot *s, const char *detail, int adjudicated)
{
    if (!m->pdn) {
        return;
    }
    char round[16];
    snprintf(round, sizeof round, "%d", s->game_no + 1);
    dm_time_control tc;
    memset(&tc, 0, sizeof tc);
    if (m->has_clock) {
        tc.kind = DM_TC_PERIODS;
        tc.count = 1;
        tc.periods[0].moves = m->tc_moves;
        tc.periods[0].time_ms = (int64_t)llround(m->tc_time * 1000);
        tc.periods[0].increment_ms = (int64_t)llround(m->tc_inc * 1000);
    }
    dm_pdn_game_tags tags = DM_PDN_GAME_TAGS_INIT;
    tags.event = m->event;
    tags.date = m->date;
    tags.round = round;
    tags.white = side_name(m, s, DM_WHITE);
    tags.black = side_name(m, s, DM_BLACK);
    tags.time_control = m->has_clock ? &tc : NULL;
    dm_pdn_game *rec = NULL;
    char *text = NULL;
    size_t len = 0;
    int ok = dm_pdn_from_game(&rec, s->game, &tags) == DM_OK;
    if (ok && adjudicated) {
        ok = dm_pdn_game_set_tag(rec, "Termination", "adjudication") == DM_OK;
    }
    for (int i = 0; ok && i < rec->main.nnodes && i < s->nlog; i++) {
        const ply_log *l = &s->log[i];
        char c[160], t[32];
        fmt_hms(t, sizeof t, l->emt);
        int n = snprintf(c, sizeof c, "[%%emt %s]", t);
        if (l->clk >= 0) {
            fmt_hms(t, sizeof t, l->clk);
            n += snprintf(c + n, sizeof c - (size_t)n, " [%%clk %s]", t);
        }
        if (l->depth[0] || l->score[0]) {
            snprintf(c + n, sizeof c - (size_t)n, " %s/%s", l->score[0] ? l->score : "?",
                     l->depth[0] ? l->depth : "?");
        }
        ok = add_comment(&rec->main.nodes[i].after, &rec->main.nodes[i].nafter, c) == 0;
    }
    if (ok && detail && *detail) {
        ok = add_comment(&rec->main.end, &rec->main.nend, detail) == 0;
    }
    if (ok) {
        ok = dm_pdn_write(&text, &len, rec, DM_NOTATION_PDN) == DM_OK;
    }
    if (ok) {
        ok = fwrite(text, 1, len, m->pdn) == len && fputs("\n", m->pdn) >= 0 && fflush(m->pdn) == 0;
        if (!ok) {
            fprintf(stderr, "damier match: cannot write '%s': %s\n", m->pdn_name, strerror(errno));
            m->fatal = 1;
        }
    } else {
        fprintf(stderr, "damier match: game %d: cannot make its PDN record\n", s->game_no + 1);
    }
    free(text);
    dm_pdn_game_free(rec);
}

static void fmt_elo(char *buf, size_t cap, double e)
{
    if (isinf(e)) {
        snprintf(buf, cap, "%sinf", e > 0 ? "+" : "-");
    } else {
        snprintf(buf, cap, "%+.1f", e);
    }
}

/* The pentanomial counts of the finished pairs, and W/D/L of engine 0. */
static void tally(match *m, match_penta *p, int *w, int *d, int *l, double *pts)
{
    memset(p, 0, sizeof *p);
    *w = *d = *l = 0;
    *pts = 0;
    for (int g = 0; g < m->games; g++) {
        const game_result *r = &m->results[g];
        if (!r->done) {
            continue;
        }
        *w += r->points0 == 2;
        *d += r->points0 == 1;
        *l += r->points0 == 0;
        *pts += r->points0 / 2.0;
        if (g % 2 == 1 && m->results[g - 1].done) {
            p->penta[r->points0 + m->results[g - 1].points0]++;
        }
    }
}

static void print_score(match *m, int final)
{
    match_penta p;
    int w, d, l;
    double pts;
    tally(m, &p, &w, &d, &l, &pts);
    int n = w + d + l;
    double elo, lo, hi;
    char e[96] = "", a[32], b[32];
    if (match_elo_interval(&p, &elo, &lo, &hi) == 0) {
        char x[32];
        fmt_elo(x, sizeof x, elo);
        fmt_elo(a, sizeof a, lo);
        fmt_elo(b, sizeof b, hi);
        if (isinf(lo) || isinf(hi)) {
            snprintf(e, sizeof e, "%s", x);
        } else {
            snprintf(e, sizeof e, "%s +- %.1f", x, (hi - lo) / 2);
        }
    }
    if (!final) {
        printf("  score %s - %s: %.1f - %.1f [+%d =%d -%d] %d games", m->spec[0].name,
               m->spec[1].name, pts, n - pts, w, d, l, n);
        if (e[0]) {
            printf(", elo %s", e);
        }
        if (m->sprt) {
            printf(", llr %.2f (%.2f, %.2f)", match_sprt_llr(&p, m->elo0, m->elo1), m->lower,
                   m->upper);
        }
        printf("\n");
        fflush(stdout);
        return;
    }
    printf("games %d: %s - %s %.1f - %.1f [+%d =%d -%d] (%.1f%%)\n", n, m->spec[0].name,
           m->spec[1].name, pts, n - pts, w, d, l, n ? 100.0 * pts / n : 0.0);
    printf("white wins %d, draws %d, black wins %d; forfeits %d (on time %d)\n", m->wins_white,
           m->draws, m->wins_black, m->forfeits, m->time_losses);
    if (m->has_clock && m->min_clock < 1e300) {
        printf("lowest clock left after a move: %.3f s\n", m->min_clock);
    }
    printf("pairs %ld: penta %ld %ld %ld %ld %ld\n", match_penta_pairs(&p), p.penta[0], p.penta[1],
           p.penta[2], p.penta[3], p.penta[4]);
    if (e[0]) {
        printf("elo %s - %s: %s (95%%: %s .. %s)\n", m->spec[0].name, m->spec[1].name, e, a, b);
    } else {
        printf("elo %s - %s: needs 2 pairs\n", m->spec[0].name, m->spec[1].name);
    }
    if (m->sprt) {
        double llr = match_sprt_llr(&p, m->elo0, m->elo1);
        printf("sprt elo0 %g elo1 %g alpha %g beta %g: llr %.2f (%.2f, %.2f): %s\n", m->elo0,
               m->elo1, m->alpha, m->beta, llr, m->lower, m->upper,
               m->decided > 0   ? "H1 accepted"
               : m->decided < 0 ? "H0 accepted"
                                : "not decided");
    }
}

/* No game follows on this slot's engines: our GAMEENDs say stop code 1. */
static int last_game_of_slot(const match *m)
{
    return m->next_game >= m->games || m->decided || interrupted;
}

/* The game of slot s is over with outcome o: each DXP engine still in it gets our
 * GAMEEND, as the side to move from its point of view (it has not seen the move that
 * ended the game, or the game ended with its own move), the reason from our side:
 * 1 we (its opponent) lose, 2 a draw, 3 we win. Its acknowledgement is awaited
 * before its next game. One still to accept the game is disconnected. */
static void dxp_end_game(match *m, slot *s, dm_outcome o)
{
    for (int i = 0; i < MAX_ENGINES; i++) {
        engine *e = &s->eng[i];
        if (!is_dxp(e)) {
            continue;
        }
        if (e->state == ES_ACC) {
            eng_stop(e, 0);
        } else if (e->state == ES_THINK || e->state == ES_WAIT) {
            dm_color c = i == s->white ? DM_WHITE : DM_BLACK;
            dm_outcome its_win = c == DM_WHITE ? DM_OUTCOME_WHITE_WINS : DM_OUTCOME_BLACK_WINS;
            int reason = o == DM_OUTCOME_ONGOING ? DM_DXP_END_UNKNOWN
                         : o == DM_OUTCOME_DRAW  ? DM_DXP_END_DRAW
                         : o == its_win          ? DM_DXP_END_I_LOSE
                                                 : DM_DXP_END_I_WIN;
            dxp_send_gameend(e, reason,
                             last_game_of_slot(m) ? DM_DXP_STOP_SESSION : DM_DXP_STOP_CONTINUE);
            e->state = ES_ENDING;
            e->deadline = now() + (m->timeout < 10 ? m->timeout : 10);
        }
    }
}

/* The game of slot s is over (dm_game_result says how, or a forfeit was declared);
 * detail says more (a forfeit's why). */
static void finish_game(match *m, slot *s, const char *detail, int adjudicated)
{
    dm_reason reason;
    dm_outcome o = dm_game_result(s->game, &reason);
    dxp_end_game(m, s, o);
    int plies = dm_game_ply(s->game);
    game_result *r = &m->results[s->game_no];
    r->done = 1;
    r->white = s->white;
    r->outcome = (int)o;
    r->forfeit = reason == DM_REASON_FORFEIT || reason == DM_REASON_TIME;
    int white_pts = o == DM_OUTCOME_WHITE_WINS ? 2 : o == DM_OUTCOME_DRAW ? 1 : 0;
    r->points0 = s->white == 0 ? white_pts : 2 - white_pts;
    m->wins_white += o == DM_OUTCOME_WHITE_WINS;
    m->wins_black += o == DM_OUTCOME_BLACK_WINS;
    m->draws += o == DM_OUTCOME_DRAW;
    m->forfeits += r->forfeit;
    m->time_losses += reason == DM_REASON_TIME;
    m->finished++;
    write_pdn(m, s, detail, adjudicated);
    char rule[128];
    dm_game_reason_text(rule, sizeof rule, s->game); /* with the rule's numbers */
    printf("game %d/%d: %s - %s %s %s%s%s (%d plies, opening %d)\n", s->game_no + 1, m->games,
           side_name(m, s, DM_WHITE), side_name(m, s, DM_BLACK), dm_outcome_str(o),
           adjudicated ? "adjudicated" : rule, detail && *detail ? ": " : "",
           detail && *detail ? detail : "", plies, m->order[s->game_no / 2] + 1);
    print_score(m, 0);
    if (m->sprt && !m->decided) {
        match_penta p;
        int w, d, l;
        double pts;
        tally(m, &p, &w, &d, &l, &pts);
        double llr = match_sprt_llr(&p, m->elo0, m->elo1);
        if (match_penta_pairs(&p) >= SPRT_MIN_PAIRS) {
            m->decided = llr >= m->upper ? 1 : llr <= m->lower ? -1 : 0;
        }
    }
    dm_game_free(s->game);
    s->game = NULL;
    s->active = s->started = 0;
    for (int i = 0; i < MAX_ENGINES; i++) {
        if (s->eng[i].state == ES_THINK && !is_dxp(&s->eng[i])) {
            eng_stop(&s->eng[i], 0); /* its answer would come to no game */
        }
    }
}

/* The engine of index idx in slot s forfeits: the reason (DM_REASON_TIME or
 * FORFEIT) and why; it is stopped (it will be started again for the next game). */
static void forfeit(match *m, slot *s, int idx, dm_reason reason, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

static void forfeit(match *m, slot *s, int idx, dm_reason reason, const char *fmt, ...)
{
    char why[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    dm_color who = idx == s->white ? DM_WHITE : DM_BLACK;
    if (reason == DM_REASON_TIME) {
        dm_game_flag(s->game, who);
    } else {
        dm_game_forfeit(s->game, who);
    }
    if (!is_dxp(&s->eng[idx])) {
        eng_stop(&s->eng[idx], 0);
    }
    finish_game(m, s, why, 0);
}

static void ask_move(match *m, slot *s);
static void maybe_begin(match *m, slot *s);

static void fix_names(match *m);

/* GAMEREQ for the game of slot s to its DXP engine idx: its colour, the opening,
 * the match's clock as DXP gives it (minutes for the game, to the hundredth; the
 * moves it covers), no clock (time 0) without one; our name is its opponent's. */
static void dxp_gamereq(match *m, slot *s, int idx)
{
    engine *e = &s->eng[idx];
    dm_dxp_msg msg;
    dm_dxp_msg_init(&msg, DM_DXP_GAMEREQ);
    msg.version = DM_DXP_VERSION;
    const char *opp = m->spec[1 - idx].name;
    size_t k = 0;
    for (const char *p = opp; *p && k < DM_DXP_NAME_LEN; p++) {
        if ((*p > ' ' || (*p == ' ' && k > 0)) && *p < 127) {
            msg.name[k++] = *p;
        }
    }
    msg.name[k] = '\0';
    if (!k) {
        snprintf(msg.name, sizeof msg.name, "damier match");
    }
    msg.follower_color = idx == s->white ? DM_WHITE : DM_BLACK;
    if (m->has_clock) {
        /* as the field can say it: hundredths of a minute below one minute (".17"),
         * tenths below ten ("2.5"), else whole minutes ("030") */
        long long h = llround(m->tc_time * 100 / 60);
        h = h < 1 ? 1 : h < 100 ? h : h < 1000 ? (h + 5) / 10 * 10 : (h + 50) / 100 * 100;
        msg.time_ms = (int)((h > 99900 ? 99900 : h) * 600);
        msg.moves = m->tc_moves > 999 ? 999 : m->tc_moves;
    }
    const dm_board *start = dm_game_position_at(s->game, 0);
    dm_board initial;
    dm_board_start(&initial, start->variant);
    msg.has_position =
        start->side != initial.side || memcmp(start->sq, initial.sq, sizeof initial.sq) != 0;
    msg.position = *start;
    dxp_send(e, &msg);
    e->state = ES_ACC;
    e->deadline = now() + m->timeout;
}

static void begin_game(match *m, slot *s)
{
    /* new-game, then ping: the first move's clock starts once the engine has done
     * what new-game asks (Scan clears a large table then); a DXP engine gets its
     * GAMEREQ then, or, when it moves first, in place of its first `go` (it starts
     * thinking as it accepts) */
    s->started = 1;
    s->syncing = 0;
    int first = dm_game_position_at(s->game, 0)->side == DM_WHITE ? s->white : 1 - s->white;
    for (int i = 0; i < MAX_ENGINES; i++) {
        engine *e = &s->eng[i];
        s->clock[i] = m->tc_time;
        s->made[i] = 0;
        if (is_dxp(e)) {
            e->think_after_acc = 0;
            if (i != first) {
                dxp_gamereq(m, s, i);
                s->syncing++;
            }
            continue;
        }
        s->syncing++;
        eng_send(m, e, e->proto == PROTO_HUB1 ? "new" : "new-game");
        eng_send(m, e, "ping");
        e->state = ES_SYNC;
        e->deadline = now() + m->timeout;
    }
    if (s->syncing == 0) {
        ask_move(m, s);
    }
}

static int score_of(const ply_log *l, double *v)
{
    char *end;
    *v = strtod(l->score, &end);
    return l->score[0] && end != l->score && !*end;
}

/* Adjudication by the scores the engines gave with their last moves (each from its
 * mover's side): 0 none, 1 a draw, 2 White wins, 3 Black wins; why says why. */
static int adjudicate(match *m, slot *s, char *why, size_t cap)
{
    int n = s->nlog;
    double v;
    if (m->egdb) {
        /* The database's values are those of play without the counting rules (EGDB.md).
         * A draw stays a draw under them (they only turn wins into draws); a win is
         * taken as one unless the defender has a lone king against 3 pieces or fewer,
         * where the 16- and 5-move rules (FMJD 6.3, 6.4) may draw it: then the game
         * goes on and its own rules decide. */
        const dm_board *b = dm_game_position(s->game);
        int side = b->side;
        int men[2] = {0, 0}, kings[2] = {0, 0};
        for (int q = 1; q <= b->variant->squares; q++) {
            dm_piece p = dm_board_piece(b, q);
            if (p != DM_EMPTY) {
                int c = p == DM_WHITE_MAN || p == DM_WHITE_KING ? DM_WHITE : DM_BLACK;
                men[c] += p == DM_WHITE_MAN || p == DM_BLACK_MAN;
                kings[c] += p == DM_WHITE_KING || p == DM_BLACK_KING;
            }
        }
        if (men[0] + kings[0] + men[1] + kings[1] <= dm_egdb_max_pieces(m->egdb)) {
            int dtc = -1;
            dm_egdb_value ev = dm_egdb_probe(m->egdb, dm_game_position(s->game), &dtc);
            if (ev == DM_EGDB_DRAW) {
                snprintf(why, cap, "endgame database: draw");
                return 1;
            }
            if (ev == DM_EGDB_WIN || ev == DM_EGDB_LOSS) {
                int winner = ev == DM_EGDB_WIN ? side : side ^ 1;
                int loser = winner ^ 1;
                int counted =
                    men[loser] == 0 && kings[loser] == 1 && men[winner] + kings[winner] <= 3;
                if (!counted) {
                    snprintf(why, cap, "endgame database: %s wins",
                             winner == DM_WHITE ? "White" : "Black");
                    return winner == DM_WHITE ? 2 : 3;
                }
            }
        }
    }
    if (m->adj_draw_count > 0 && n >= m->adj_draw_ply && n >= m->adj_draw_count) {
        int all = 1;
        for (int i = n - m->adj_draw_count; i < n && all; i++) {
            all = score_of(&s->log[i], &v) && fabs(v) <= m->adj_draw_score;
        }
        if (all) {
            snprintf(why, cap, "every score within %g for %d plies", m->adj_draw_score,
                     m->adj_draw_count);
            return 1;
        }
    }
    if (m->adj_win_count > 0 && n >= m->adj_win_count) {
        int first = dm_game_position_at(s->game, 0)->side;
        for (int c = DM_WHITE; c <= DM_BLACK; c++) {
            int all = 1;
            for (int i = n - m->adj_win_count; i < n && all; i++) {
                int mover = (first + i) & 1;
                all = score_of(&s->log[i], &v) && (mover == c ? v : -v) >= m->adj_win_score;
            }
            if (all) {
                snprintf(why, cap, "%s ahead by %g or more for %d plies",
                         c == DM_WHITE ? "White" : "Black", m->adj_win_score, m->adj_win_count);
                return c == DM_WHITE ? 2 : 3;
            }
        }
    }
    return 0;
}

/* The Hub text of the move of ply i of slot s's game (numeric squares). */
static void hub_move_text(char *buf, size_t cap, const slot *s, int i)
{
    dm_move_to_text(buf, cap, dm_game_position_at(s->game, i), dm_game_move_at(s->game, i),
                    DM_NOTATION_HUB, DM_SQUARES_NUMERIC);
}

/* A game's moves since its base (play_vanswer: the last position that starts `pos`)
 * must fit the `pos` line: in a long run of king moves without a draw rule to end
 * it (antidraughts has only the repetition), the base moves on until they do; the
 * engine then knows less of the past than the referee. */
static void vbase_fit(slot *s, int ply)
{
    enum {
        MOVES_ROOM = MATCH_LINE_MAX - 512
    };
    char mv[400];
    size_t total = 0;
    for (int i = s->base_ply; i < ply; i++) {
        total += dm_move_to_text(mv, sizeof mv, dm_game_position_at(s->game, i),
                                 dm_game_move_at(s->game, i), DM_NOTATION_HUB, DM_SQUARES_NUMERIC) +
                 1;
    }
    while (total > MOVES_ROOM && s->base_ply < ply) {
        total -= dm_move_to_text(mv, sizeof mv, dm_game_position_at(s->game, s->base_ply),
                                 dm_game_move_at(s->game, s->base_ply), DM_NOTATION_HUB,
                                 DM_SQUARES_NUMERIC) +
                 1;
        s->base_ply++;
    }
}

static void ask_move(match *m, slot *s)
{
    if (dm_game_over(s->game)) {
        finish_game(m, s, "", 0);
        return;
    }
    if (m->max_plies > 0 && dm_game_ply(s->game) >= m->max_plies) {
        dm_game_agree_draw(s->game);
        char why[64];
        snprintf(why, sizeof why, "%d plies", m->max_plies);
        finish_game(m, s, why, 1);
        return;
    }
    char why[128];
    int adj = adjudicate(m, s, why, sizeof why);
    if (adj) {
        if (adj == 1) {
            dm_game_agree_draw(s->game);
        } else {
            dm_game_resign(s->game, adj == 2 ? DM_BLACK : DM_WHITE);
        }
        finish_game(m, s, why, 1);
        return;
    }
    int idx = dm_game_position(s->game)->side == DM_WHITE ? s->white : 1 - s->white;
    engine *e = &s->eng[idx];
    char pos[DM_MAX_SQUARES + 8], mv[400], line[MATCH_LINE_MAX] = "", lvl[256] = "";
    int ply = dm_game_ply(s->game);
    vbase_fit(s, ply);
    match_vpos_to_hub(pos, sizeof pos, dm_game_position_at(s->game, s->base_ply));
    double told = 0;
    int togo = 0;
    if (m->has_clock) {
        s->clock[idx] += m->tc_inc; /* Hub: added before every move */
        told = s->clock[idx] - m->overhead;
        if (told < 0.001) {
            told = 0.001;
        }
        togo = m->tc_moves ? m->tc_moves - s->made[idx] % m->tc_moves : 0;
    }
    if (m->has_clock) {
        e->budget = s->clock[idx] + m->margin;
    } else if (m->movetime > 0) {
        e->budget = m->movetime + m->margin;
    } else {
        e->budget = m->timeout;
    }
    e->depth[0] = e->score[0] = '\0';
    if (is_dxp(e)) {
        if (e->state == ES_IDLE) {
            /* the first move of the game: it thinks once it has accepted */
            dxp_gamereq(m, s, idx);
            e->think_after_acc = 1;
            return;
        }
        if (ply > 0) {
            /* the other engine's move, relayed (from, to, captured ascending) */
            dm_dxp_msg msg;
            double emt = ply - 1 < s->nlog ? s->log[ply - 1].emt : 0;
            if (dm_dxp_move_from(&msg, dm_game_position_at(s->game, ply - 1),
                                 dm_game_move_at(s->game, ply - 1), (int)emt) == DM_OK) {
                dxp_send(e, &msg);
            }
        }
        e->state = ES_THINK;
        e->go_at = now();
        e->deadline = e->go_at + e->budget;
        return;
    }
    if (e->proto == PROTO_HUB1) {
        pos[0] = pos[0] == 'W' ? 'w' : 'b'; /* Hub 1 writes the side in lower case */
        eng_send(m, e, "pos %s", pos);
        for (int i = s->base_ply; i < ply; i++) {
            dm_game_move_text(mv, sizeof mv, s->game, i, DM_NOTATION_HUB);
            eng_send(m, e, "move %s", mv);
        }
        if (m->has_clock) {
            eng_send(m, e, "level %d %lld %lld", togo, (long long)llround(told * 1000),
                     (long long)llround(m->tc_inc * 1000));
        } else if (m->movetime > 0) {
            double t = m->movetime - m->overhead;
            eng_send(m, e, "time %lld", (long long)llround((t < 0.001 ? 0.001 : t) * 1000));
        }
        if (m->depth > 0) {
            eng_send(m, e, "depth %d", m->depth);
        }
        eng_send(m, e, "go");
    } else {
        size_t n = (size_t)snprintf(line, sizeof line, "pos pos=%s", pos);
        if (ply > s->base_ply) {
            char moves[MATCH_LINE_MAX] = "";
            size_t k = 0;
            for (int i = s->base_ply; i < ply && k + 170 < sizeof moves; i++) {
                hub_move_text(mv, sizeof mv, s, i);
                k += (size_t)snprintf(moves + k, sizeof moves - k, "%s%s", k ? " " : "", mv);
            }
            dm_hub_append_pair(line + n, sizeof line - n, "moves", moves);
        }
        eng_send(m, e, "%s", line);
        n = (size_t)snprintf(lvl, sizeof lvl, "level");
        if (m->has_clock) {
            n += (size_t)snprintf(lvl + n, sizeof lvl - n, " time=%.3f", told);
            if (m->tc_inc > 0) {
                n += (size_t)snprintf(lvl + n, sizeof lvl - n, " inc=%.3f", m->tc_inc);
            }
            if (togo) {
                n += (size_t)snprintf(lvl + n, sizeof lvl - n, " moves=%d", togo);
            }
        } else if (m->movetime > 0) {
            double t = m->movetime - m->overhead;
            n +=
                (size_t)snprintf(lvl + n, sizeof lvl - n, " move-time=%.3f", t < 0.001 ? 0.001 : t);
        }
        if (m->depth > 0) {
            n += (size_t)snprintf(lvl + n, sizeof lvl - n, " depth=%d", m->depth);
        }
        if (m->nodes > 0) {
            snprintf(lvl + n, sizeof lvl - n, " nodes=%lld", m->nodes);
        }
        eng_send(m, e, "%s", lvl);
        eng_send(m, e, "go think");
    }
    e->state = ES_THINK;
    e->go_at = now();
    e->deadline = e->go_at + e->budget;
}

static int log_ply(slot *s, const ply_log *l)
{
    if (s->nlog == s->caplog) {
        int cap = s->caplog ? 2 * s->caplog : 256;
        ply_log *n = realloc(s->log, (size_t)cap * sizeof *n);
        if (!n) {
            return -1;
        }
        s->log = n;
        s->caplog = cap;
    }
    s->log[s->nlog++] = *l;
    return 0;
}

/* The mover's answer came at time t: 1 when it came too late (the engine lost on
 * time); else 0, and the engine waits (Hub: idle; DXP: for the other's move). */
static int answer_late(match *m, slot *s, int idx, double t)
{
    engine *e = &s->eng[idx];
    double used = t - e->go_at;
    e->state = is_dxp(e) ? ES_WAIT : ES_IDLE;
    e->deadline = 1e300;
    if (m->has_clock && used > s->clock[idx] + m->margin) {
        forfeit(m, s, idx, DM_REASON_TIME, "%s lost on time (%.3f s used, %.3f s left)",
                e->spec->name, used, s->clock[idx]);
        return 1;
    }
    if (!m->has_clock && m->movetime > 0 && used > m->movetime + m->margin) {
        forfeit(m, s, idx, DM_REASON_TIME, "%s lost on time (%.3f s used, %.3f s a move)",
                e->spec->name, used, m->movetime);
        return 1;
    }
    return 0;
}

static void play_vanswer(match *m, slot *s, int idx, const dm_move *mv, const char *text, double t);
static void log_answer(match *m, slot *s, int idx, double t);

/* The mover's answer `text` (Hub) came at time t. */
static void on_move(match *m, slot *s, int idx, const char *text, double t)
{
    engine *e = &s->eng[idx];
    if (answer_late(m, s, idx, t)) {
        return;
    }
    const dm_board *vb = dm_game_position(s->game);
    dm_move vm;
    char why[300];
    int r = match_vmove_read(&vm, vb, text, why, sizeof why);
    if (r != MATCH_MOVE_OK) {
        char fen[512];
        dm_board_to_fen(fen, sizeof fen, vb, m->variant->algebraic);
        if (r == MATCH_MOVE_GARBLED) {
            forfeit(m, s, idx, DM_REASON_FORFEIT, "%s sent a garbled move '%.60s' (%s) in %s",
                    e->spec->name, text, why, fen);
        } else {
            forfeit(m, s, idx, DM_REASON_FORFEIT, "%s played %s move %s in %s (%s)", e->spec->name,
                    r == MATCH_MOVE_ILLEGAL ? "an illegal" : "an ambiguous", text, fen, why);
        }
        return;
    }
    play_vanswer(m, s, idx, &vm, text, t);
}

/* The legal move mv of the game (the engine's answer text): played; the base of
 * the next `pos` moves on to its position when that says all the game knows. */
static void play_vanswer(match *m, slot *s, int idx, const dm_move *mv, const char *text, double t)
{
    engine *e = &s->eng[idx];
    dm_piece p = dm_board_piece(dm_game_position(s->game), mv->from);
    int irreversible = mv->ncapt > 0 || p == DM_WHITE_MAN || p == DM_BLACK_MAN;
    if (dm_game_play(s->game, mv) != DM_OK) {
        forfeit(m, s, idx, DM_REASON_FORFEIT, "%s: move %s refused", e->spec->name, text);
        return;
    }
    /* international: after every capture or man move, as the referee always did (the
     * engine is not told that a 16- or 5-move count runs); the other variants: when
     * the position says all the game knows */
    if (m->intl ? irreversible : match_vgame_fresh(s->game)) {
        s->base_ply = dm_game_ply(s->game);
    }
    log_answer(m, s, idx, t);
}

/* The move of engine idx, answered at time t, is played: its clock charged, the ply
 * logged; then the next move is asked for. */
static void log_answer(match *m, slot *s, int idx, double t)
{
    engine *e = &s->eng[idx];
    double used = t - e->go_at;
    ply_log l;
    memset(&l, 0, sizeof l);
    l.emt = used;
    l.clk = -1;
    if (m->has_clock) {
        s->clock[idx] -= used;
        s->made[idx]++;
        if (m->tc_moves && s->made[idx] % m->tc_moves == 0) {
            s->clock[idx] += m->tc_time;
        }
        l.clk = s->clock[idx];
        if (l.clk < m->min_clock) {
            m->min_clock = l.clk;
        }
    }
    snprintf(l.depth, sizeof l.depth, "%s", e->depth);
    snprintf(l.score, sizeof l.score, "%s", e->score);
    if (log_ply(s, &l) != 0) {
        fprintf(stderr, "damier match: out of memory\n");
        m->fatal = 1;
        return;
    }
    ask_move(m, s);
}

/* Copy the value of name= in a Hub info line into out (cut to cap). */
static void info_value(const dm_hub_cmd *c, const char *name, char *out, size_t cap)
{
    const char *v = dm_hub_get(c, name);
    if (v) {
        snprintf(out, cap, "%s", v);
    }
}

static void engine_fails_to_start(match *m, slot *s, int idx, const char *why)
{
    engine *e = &s->eng[idx];
    eng_stop(e, 0);
    if (!e->spec->ever_ready) {
        fprintf(stderr, "damier match: engine %d (%s) did not start: %s\n", idx + 1, e->spec->cmd,
                why);
        m->fatal = 1;
        return;
    }
    if (s->active) {
        forfeit(m, s, idx, DM_REASON_FORFEIT, "%s did not start: %s", e->spec->name, why);
    }
}

/* The game assigned to slot s begins once both engines are idle; an engine that went
 * away meanwhile (a DXP follower that ended its session) is started again. */
static void maybe_begin(match *m, slot *s)
{
    if (!s->active || s->started || m->fatal) {
        return;
    }
    for (int i = 0; i < MAX_ENGINES; i++) {
        if (s->eng[i].state == ES_OFF) {
            char err[256];
            if (eng_start(m, &s->eng[i], err, sizeof err) != 0) {
                fprintf(stderr, "damier match: engine %d (%s): %s\n", i + 1, m->spec[i].cmd, err);
                m->fatal = 1;
                return;
            }
        }
    }
    if (s->eng[0].state == ES_IDLE && s->eng[1].state == ES_IDLE) {
        begin_game(m, s);
    }
}

static void on_line(match *m, slot *s, int idx, const char *line, double t)
{
    engine *e = &s->eng[idx];
    static dm_hub_cmd c;
    if (m->debug) {
        fprintf(stderr, "< %s: %s\n", e->spec->name, line);
    }
    if (dm_hub_parse_line(&c, line, NULL) != DM_OK) {
        if (e->state == ES_THINK && (!strncmp(line, "done", 4) || !strncmp(line, "move", 4))) {
            forfeit(m, s, idx, DM_REASON_FORFEIT, "%s sent a garbled line '%.60s'", e->spec->name,
                    line);
        }
        return; /* other noise is ignored, as Hub asks */
    }
    const char *cmd = c.name;
    if (!strcmp(cmd, "error")) {
        const char *msg = dm_hub_get(&c, "message");
        fprintf(stderr, "damier match: game %d: %s says: %s\n", s->game_no + 1, e->spec->name,
                msg ? msg : line);
        return;
    }
    switch (e->state) {
        case ES_HUB:
            if (e->proto == PROTO_AUTO && !strcmp(cmd, "id")) {
                e->proto = PROTO_HUB2;
            }
            if (!strcmp(cmd, "id")) {
                info_value(&c, "name", e->idname, sizeof e->idname);
            } else if (!strcmp(cmd, "name") && c.pair_count > 0) {
                /* Hub 1 (Scan 2.0): `name Scan 2.0` */
                if (e->proto == PROTO_AUTO) {
                    e->proto = PROTO_HUB1;
                }
                snprintf(e->idname, sizeof e->idname, "%s", line + strspn(line, " ") + 5);
            } else if (!strcmp(cmd, "wait")) {
                if (e->proto == PROTO_AUTO) {
                    e->proto = PROTO_HUB2;
                }
                if (e->proto == PROTO_HUB1 && m->nodes > 0) {
                    engine_fails_to_start(m, s, idx, "it speaks Hub 1, which has no nodes limit");
                    return;
                }
                if (e->proto == PROTO_HUB1 && !m->intl) {
                    engine_fails_to_start(m, s, idx,
                                          "it speaks Hub 1; a match of another variant than "
                                          "international needs Hub 2");
                    return;
                }
                if (!m->intl) {
                    /* first, so that the engine's other params apply to the variant */
                    char pl[200] = "set-param";
                    dm_hub_append_pair(pl, sizeof pl, "name", "variant");
                    dm_hub_append_pair(pl, sizeof pl, "value", match_variant_hub_name(m->variant));
                    eng_send(m, e, "%s", pl);
                }
                for (int i = 0; i < e->spec->nparams; i++) {
                    const char *p = e->spec->params[i];
                    const char *eq = strchr(p, '=');
                    if (e->proto == PROTO_HUB1) {
                        eng_send(m, e, "set %.*s %s", (int)(eq - p), p, eq + 1);
                    } else {
                        char pl[600] = "set-param";
                        char nm[256];
                        snprintf(nm, sizeof nm, "%.*s", (int)(eq - p), p);
                        dm_hub_append_pair(pl, sizeof pl, "name", nm);
                        dm_hub_append_pair(pl, sizeof pl, "value", eq + 1);
                        eng_send(m, e, "%s", pl);
                    }
                }
                eng_send(m, e, "init");
                e->state = ES_INIT;
                e->deadline = t + m->timeout;
            }
            break;
        case ES_INIT:
            if (!strcmp(cmd, "ready")) {
                e->state = ES_IDLE;
                e->spec->ever_ready = 1;
                maybe_begin(m, s);
            }
            break;
        case ES_SYNC:
            if (!strcmp(cmd, "pong")) {
                e->state = ES_IDLE;
                if (!s->active || !s->started) {
                    maybe_begin(m, s); /* the game it was told of ended before it began */
                } else if (--s->syncing == 0) {
                    ask_move(m, s);
                }
            }
            break;
        case ES_THINK:
            if (!s->active) {
                break;
            }
            if (!strcmp(cmd, "info")) {
                info_value(&c, "depth", e->depth, sizeof e->depth);
                info_value(&c, "score", e->score, sizeof e->score);
            } else if (e->proto == PROTO_HUB2 && !strcmp(cmd, "done")) {
                const char *mv = dm_hub_get(&c, "move");
                if (!mv || !*mv) {
                    forfeit(m, s, idx, DM_REASON_FORFEIT, "%s sent a garbled line '%.60s'",
                            e->spec->name, line);
                    return;
                }
                on_move(m, s, idx, mv, t);
            } else if (e->proto == PROTO_HUB1 && !strcmp(cmd, "move")) {
                if (c.pair_count < 1 || c.pair[0].has_value) {
                    forfeit(m, s, idx, DM_REASON_FORFEIT, "%s sent a garbled line '%.60s'",
                            e->spec->name, line);
                    return;
                }
                on_move(m, s, idx, c.pair[0].name, t);
            }
            break;
        default:
            break;
    }
}

/* ---- DXP engines ---------------------------------------------------------------- */

/* The DXP engine idx of slot s is gone (its connection ended, it floods, it does not
 * read): a game it was in is lost by forfeit, its PDN written as far as it went; it is
 * started (connected to) again for its next game. */
static void dxp_lost(match *m, slot *s, int idx, const char *why)
{
    engine *e = &s->eng[idx];
    int st = e->state;
    eng_stop(e, 0);
    if ((st == ES_THINK || st == ES_WAIT || st == ES_ACC) && s->active && s->started) {
        forfeit(m, s, idx, DM_REASON_FORFEIT, "%s: connection lost (%s)", e->spec->name, why);
    } else {
        if (m->debug) {
            fprintf(stderr, "damier match: %s: connection ends (%s)\n", e->spec->name, why);
        }
        maybe_begin(m, s);
    }
}

/* A message from the DXP engine that is not what the protocol allows now: said on
 * stderr and in a CHAT (the first few), then ignored; a flood ends the connection. */
static void dxp_complain(match *m, slot *s, int idx, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void dxp_complain(match *m, slot *s, int idx, const char *fmt, ...)
{
    engine *e = &s->eng[idx];
    char why[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    if (++e->bad >= DXP_MAX_BAD) {
        dxp_lost(m, s, idx, "it floods: too many bad messages");
        return;
    }
    if (e->chats < DXP_MAX_CHATS) {
        e->chats++;
        fprintf(stderr, "damier match: %s: %s\n", e->spec->name, why);
        dm_dxp_msg chat;
        dm_dxp_msg_init(&chat, DM_DXP_CHAT);
        snprintf(chat.text, sizeof chat.text, "error: %.118s", why);
        for (char *p = chat.text; *p; p++) {
            if (*p < 32 || *p > 126) {
                *p = '?';
            }
        }
        dxp_send(e, &chat);
    }
}

static void dxp_on_gameacc(match *m, slot *s, int idx, const dm_dxp_msg *msg, double t)
{
    engine *e = &s->eng[idx];
    if (e->state != ES_ACC) {
        dxp_complain(m, s, idx, "GAMEACC without a GAMEREQ: ignored");
        return;
    }
    if (msg->name[0] && !e->spec->name_opt && strcmp(m->slots[0].eng[idx].idname, msg->name)) {
        snprintf(m->slots[0].eng[idx].idname, sizeof m->slots[0].eng[idx].idname, "%s", msg->name);
        fix_names(m); /* the name it gives, from its first game on */
    }
    snprintf(e->idname, sizeof e->idname, "%s", msg->name);
    if (msg->acceptance == DM_DXP_ACC_THIS_GAME) {
        e->state = ES_IDLE;
        e->deadline = 1e300;
        forfeit(m, s, idx, DM_REASON_FORFEIT, "%s refused the game (GAMEACC 2)", e->spec->name);
        return;
    }
    if (msg->acceptance != DM_DXP_ACC_ACCEPTED) {
        fprintf(stderr, "damier match: engine %d (%s) refuses to play: GAMEACC %d (%s)\n", idx + 1,
                e->spec->cmd, msg->acceptance,
                msg->acceptance == DM_DXP_ACC_VERSION ? "protocol version" : "no games");
        eng_stop(e, 0);
        m->fatal = 1;
        return;
    }
    if (e->think_after_acc) {
        e->state = ES_THINK; /* the first mover: its clock runs from its acceptance */
        e->go_at = t;
        e->deadline = t + e->budget;
        return;
    }
    e->state = ES_WAIT;
    e->deadline = 1e300;
    if (--s->syncing == 0) {
        ask_move(m, s);
    }
}

/* GAMEEND from the engine: in a game, it ends the game (the protocol leaves no
 * choice): acknowledged, and judged by the referee: a resignation loses; at the move
 * limit of the time control its claim (a win, else a draw) is its adjudication; before
 * it, a claim the rules do not give (the rules end every game they decide before the
 * engine is asked to move) loses by forfeit. Our acknowledgement of ours. */
static void dxp_on_gameend(match *m, slot *s, int idx, const dm_dxp_msg *msg)
{
    engine *e = &s->eng[idx];
    int st = e->state;
    if (st == ES_ENDING || st == ES_IDLE) {
        if (msg->stop == DM_DXP_STOP_SESSION || (st == ES_ENDING && e->sent_stop)) {
            eng_stop(e, 200);
        } else {
            e->state = ES_IDLE;
            e->deadline = 1e300;
        }
        maybe_begin(m, s);
        return;
    }
    if (st != ES_THINK && st != ES_WAIT && st != ES_ACC) {
        return;
    }
    int stop = msg->stop == DM_DXP_STOP_SESSION || last_game_of_slot(m);
    dxp_send_gameend(e, DM_DXP_END_UNKNOWN, stop ? DM_DXP_STOP_SESSION : DM_DXP_STOP_CONTINUE);
    e->state = ES_IDLE;
    e->deadline = 1e300;
    dm_color c = idx == s->white ? DM_WHITE : DM_BLACK;
    const char *nm = e->spec->name;
    int at_limit = m->tc_moves > 0 && dm_game_ply(s->game) >= 2 * m->tc_moves;
    char why[160];
    if (st == ES_ACC) {
        forfeit(m, s, idx, DM_REASON_FORFEIT, "%s ended the game before accepting it", nm);
    } else if (msg->reason == DM_DXP_END_I_LOSE) {
        dm_game_resign(s->game, c);
        snprintf(why, sizeof why, "%s resigned", nm);
        finish_game(m, s, why, 0);
    } else if (at_limit) {
        if (msg->reason == DM_DXP_END_I_WIN) {
            dm_game_resign(s->game, (dm_color)(1 - c));
            snprintf(why, sizeof why, "%s claimed a win at the move limit (%d moves)", nm,
                     m->tc_moves);
        } else {
            dm_game_agree_draw(s->game);
            snprintf(why, sizeof why, "%s ended the game at the move limit (%d moves): a draw", nm,
                     m->tc_moves);
        }
        finish_game(m, s, why, 1);
    } else if (msg->reason == DM_DXP_END_DRAW || msg->reason == DM_DXP_END_I_WIN) {
        forfeit(m, s, idx, DM_REASON_FORFEIT, "%s claimed a %s that the rules do not give", nm,
                msg->reason == DM_DXP_END_DRAW ? "draw" : "win");
    } else {
        forfeit(m, s, idx, DM_REASON_FORFEIT, "%s ended the game without a result", nm);
    }
    if (stop && e->state != ES_OFF) {
        eng_stop(e, 200);
    }
}

static void dxp_on_move(match *m, slot *s, int idx, const dm_dxp_msg *msg, const char *text,
                        double t)
{
    engine *e = &s->eng[idx];
    if (e->state == ES_ENDING) {
        return; /* sent before it read our GAMEEND */
    }
    if (e->state != ES_THINK) {
        dxp_complain(m, s, idx, "MOVE %s out of turn: ignored", text);
        return;
    }
    if (answer_late(m, s, idx, t)) {
        return;
    }
    const dm_board *before = dm_game_position(s->game);
    dm_move gm;
    dm_error err;
    memset(&err, 0, sizeof err);
    dm_status st = dm_dxp_move_match(&gm, before, msg, &err);
    if (st != DM_OK) {
        char fen[512];
        dm_board_to_fen(fen, sizeof fen, before, 0);
        forfeit(m, s, idx, DM_REASON_FORFEIT, "%s played %s in %s: %s", e->spec->name, text, fen,
                err.message);
        return;
    }
    play_vanswer(m, s, idx, &gm, text, t);
}

typedef struct dxp_ctx {
    match *m;
    slot *s;
    int idx;
} dxp_ctx;

/* One message (or framing error) from a DXP engine; nonzero once its connection is
 * gone (the rest of what was read is dropped). */
static int dxp_on_message(void *payload, const char *text, size_t len, const char *frame_error)
{
    dxp_ctx *x = payload;
    match *m = x->m;
    slot *s = x->s;
    int idx = x->idx;
    engine *e = &s->eng[idx];
    double t = now();
    if (!text) {
        dxp_complain(m, s, idx, "%s", frame_error);
        return e->conn.fd < 0 || m->fatal;
    }
    dm_dxp_msg msg;
    dm_error err;
    memset(&err, 0, sizeof err);
    if (dm_dxp_parse(&msg, text, len, &err) != DM_OK) {
        if (msg.type == DM_DXP_MOVE && e->state == ES_THINK) {
            forfeit(m, s, idx, DM_REASON_FORFEIT, "%s sent a malformed move '%.60s': %s",
                    e->spec->name, text, err.message);
        } else {
            dxp_complain(m, s, idx, "%s: ignored", err.message);
        }
        return e->conn.fd < 0 || m->fatal;
    }
    switch (msg.type) {
        case DM_DXP_CHAT:
            fprintf(stderr, "damier match: %s says: %s\n", e->spec->name, msg.text);
            break;
        case DM_DXP_GAMEACC:
            dxp_on_gameacc(m, s, idx, &msg, t);
            break;
        case DM_DXP_MOVE:
            dxp_on_move(m, s, idx, &msg, text, t);
            break;
        case DM_DXP_GAMEEND:
            dxp_on_gameend(m, s, idx, &msg);
            break;
        case DM_DXP_BACKREQ: {
            dm_dxp_msg k;
            dm_dxp_msg_init(&k, DM_DXP_BACKACC);
            k.back_code = DM_DXP_BACK_UNSUPPORTED; /* a referee takes nothing back */
            dxp_send(e, &k);
            break;
        }
        case DM_DXP_GAMEREQ:
            dxp_complain(m, s, idx,
                         "GAMEREQ from a follower: ignored (the match starts the games)");
            break;
        default:
            dxp_complain(m, s, idx, "%s not asked for: ignored", dm_dxp_type_name(msg.type));
            break;
    }
    return e->conn.fd < 0 || m->fatal;
}

/* Try to connect to the DXP engine (when its address is known and it is time to). */
static void dxp_try_connect(match *m, slot *s, int idx)
{
    engine *e = &s->eng[idx];
    if (e->state != ES_CONNECT || !e->have_addr || now() < e->next_try) {
        return;
    }
    int fd = dxp_connect_once(e->host, e->port, &e->why);
    if (fd < 0) {
        e->next_try = now() + 0.1;
        return;
    }
    dxp_conn_init(&e->conn, fd, m->debug ? stderr : NULL);
    e->conn.tag = e->spec->name;
    e->state = ES_IDLE;
    e->deadline = 1e300;
    e->spec->ever_ready = 1;
    maybe_begin(m, s);
}

/* The started DXP engine's output: its `listening: HOST:PORT` line gives its address
 * (as `damier dxp --listen 0` prints it); the rest is read and dropped. */
static void dxp_drain_proc(match *m, slot *s, int idx)
{
    engine *e = &s->eng[idx];
    match_proc_read(&e->proc);
    char line[MATCH_LINE_MAX + 1];
    while (match_proc_line(&e->proc, line, sizeof line)) {
        if (m->debug) {
            fprintf(stderr, "< %s (output): %s\n", e->spec->name, line);
        }
        if (!e->have_addr && !strncmp(line, "listening: ", 11) &&
            dxp_split_address(line + 11, e->host, sizeof e->host, e->port, sizeof e->port, NULL) ==
                0) {
            e->have_addr = 1;
            e->next_try = now();
            dxp_try_connect(m, s, idx);
        }
    }
    if (e->proc.eof && e->state == ES_CONNECT) {
        char st[64], why[128];
        match_proc_status_str(st, sizeof st, match_proc_stop(&e->proc, 200));
        snprintf(why, sizeof why, "it ended (%s) before it could be connected to", st);
        engine_fails_to_start(m, s, idx, why);
    }
}

/* The DXP engine's connection is ready for reading (revents) or writing. */
static void dxp_drain_conn(match *m, slot *s, int idx, short revents)
{
    engine *e = &s->eng[idx];
    if (revents & POLLOUT) {
        dxp_conn_flush(&e->conn);
    }
    if (revents & (POLLIN | POLLHUP | POLLERR)) {
        dxp_ctx x = {m, s, idx};
        const char *why = NULL;
        if (dxp_conn_read(&e->conn, dxp_on_message, &x, &why)) {
            dxp_lost(m, s, idx, why);
        }
    }
}

/* The DXP engine's time-outs that are not a move's: connecting, a half message, a
 * peer that does not read. */
static void dxp_check(match *m, slot *s, int idx)
{
    engine *e = &s->eng[idx];
    if (e->state == ES_CONNECT) {
        dxp_try_connect(m, s, idx);
        return;
    }
    if (e->conn.fd < 0) {
        return;
    }
    if (e->conn.overflow) {
        dxp_lost(m, s, idx, "it does not read what is sent");
        return;
    }
    char what[200];
    if (dxp_conn_stalled(&e->conn, DXP_STALL_S, what, sizeof what)) {
        dxp_complain(m, s, idx, "%s", what);
    }
}

/* Everything the engine idx of slot s has sent; its death. */
static void drain(match *m, slot *s, int idx)
{
    engine *e = &s->eng[idx];
    if (is_dxp(e)) {
        dxp_drain_proc(m, s, idx);
        return;
    }
    match_proc_read(&e->proc);
    char line[MATCH_LINE_MAX + 1];
    while (e->state != ES_OFF) {
        if (e->proc.too_long) {
            e->proc.too_long = 0;
            if (e->state == ES_THINK) {
                forfeit(m, s, idx, DM_REASON_FORFEIT, "%s sent a line over %d bytes", e->spec->name,
                        MATCH_LINE_MAX);
                return;
            }
        }
        if (!match_proc_line(&e->proc, line, sizeof line)) {
            break;
        }
        on_line(m, s, idx, line, now());
        if (m->fatal) {
            return;
        }
    }
    if (e->state != ES_OFF && e->proc.eof) {
        char st[64];
        match_proc_status_str(st, sizeof st, match_proc_stop(&e->proc, 200));
        if (e->state == ES_HUB || e->state == ES_INIT) {
            e->state = ES_OFF;
            engine_fails_to_start(m, s, idx, st);
        } else if (s->active && s->started) {
            e->state = ES_OFF;
            forfeit(m, s, idx, DM_REASON_FORFEIT, "%s died (%s)", e->spec->name, st);
        } else {
            e->state = ES_OFF;
        }
    }
}

static void check_deadlines(match *m, slot *s, double t)
{
    for (int i = 0; i < MAX_ENGINES && !m->fatal; i++) {
        engine *e = &s->eng[i];
        if (is_dxp(e) && e->state != ES_OFF) {
            dxp_check(m, s, i);
        }
        if (e->state == ES_OFF || e->state == ES_IDLE || e->state == ES_WAIT || t < e->deadline) {
            continue;
        }
        if (e->state == ES_THINK) {
            if (m->has_clock || m->movetime > 0) {
                forfeit(m, s, i, DM_REASON_TIME, "%s lost on time (no move in %.3f s)",
                        e->spec->name, t - e->go_at);
            } else {
                forfeit(m, s, i, DM_REASON_FORFEIT, "%s gave no answer in %.0f s", e->spec->name,
                        m->timeout);
            }
        } else if (e->state == ES_SYNC) {
            forfeit(m, s, i, DM_REASON_FORFEIT, "%s gave no pong in %.0f s", e->spec->name,
                    m->timeout);
        } else if (e->state == ES_ACC) {
            forfeit(m, s, i, DM_REASON_FORFEIT, "%s gave no GAMEACC in %.0f s", e->spec->name,
                    m->timeout);
        } else if (e->state == ES_ENDING) {
            /* no acknowledgement of our GAMEEND: it starts afresh for its next game */
            fprintf(stderr, "damier match: %s did not acknowledge the end of the game\n",
                    e->spec->name);
            eng_stop(e, 0);
            maybe_begin(m, s);
        } else if (e->state == ES_CONNECT) {
            char why[400];
            if (e->have_addr) {
                snprintf(why, sizeof why, "no connection to %s:%s in %.0f s: %s", e->host, e->port,
                         m->timeout, e->why);
            } else {
                snprintf(why, sizeof why, "%s in %.0f s", e->why, m->timeout);
            }
            engine_fails_to_start(m, s, i, why);
        } else {
            char why[64];
            snprintf(why, sizeof why, "no %s in %.0f s", e->state == ES_HUB ? "wait" : "ready",
                     m->timeout);
            engine_fails_to_start(m, s, i, why);
        }
    }
}

static void assign_game(match *m, slot *s)
{
    int g = m->next_game++;
    s->active = 1;
    s->started = 0;
    s->game_no = g;
    s->white = g % 2;
    s->base_ply = 0;
    s->nlog = 0;
    if (dm_game_new(&s->game, &m->openings[m->order[g / 2]]) != DM_OK) {
        fprintf(stderr, "damier match: out of memory\n");
        m->fatal = 1;
        return;
    }
    maybe_begin(m, s);
}

static int run_match(match *m)
{
    /* each engine's output (Hub: its protocol), and a DXP engine's connection */
    struct pollfd pfd[MAX_SLOTS * MAX_ENGINES * 2];
    int who[MAX_SLOTS * MAX_ENGINES * 2]; /* (slot * MAX_ENGINES + engine) * 2 + socket */
    for (;;) {
        if (m->fatal) {
            return 1;
        }
        int busy = 0;
        for (int i = 0; i < m->concurrency; i++) {
            slot *s = &m->slots[i];
            if (!s->active && !m->decided && !interrupted && m->next_game < m->games) {
                assign_game(m, s);
                if (m->fatal) {
                    return 1;
                }
            }
            busy += s->active;
        }
        if (!busy) {
            return 0;
        }
        /* SPRT decided, or interrupted: the games still running are dropped */
        if (m->decided || interrupted) {
            for (int i = 0; i < m->concurrency; i++) {
                slot *s = &m->slots[i];
                if (s->active) {
                    for (int k = 0; k < MAX_ENGINES; k++) {
                        if (is_dxp(&s->eng[k])) {
                            eng_quit(m, &s->eng[k]); /* a GAMEEND with stop code 1 */
                        } else if (s->eng[k].state == ES_THINK) {
                            eng_stop(&s->eng[k], 0);
                        }
                    }
                    dm_game_free(s->game);
                    s->game = NULL;
                    s->active = s->started = 0;
                }
            }
            return 0;
        }
        int n = 0;
        double t = now(), next = t + 1.0;
        for (int i = 0; i < m->concurrency; i++) {
            for (int k = 0; k < MAX_ENGINES; k++) {
                engine *e = &m->slots[i].eng[k];
                if (e->state == ES_OFF) {
                    continue;
                }
                if (e->proc.from_fd >= 0) {
                    pfd[n].fd = e->proc.from_fd;
                    pfd[n].events = POLLIN;
                    pfd[n].revents = 0;
                    who[n++] = (i * MAX_ENGINES + k) * 2;
                }
                if (e->conn.fd >= 0) {
                    pfd[n].fd = e->conn.fd;
                    pfd[n].events = (short)(POLLIN | (e->conn.out_len ? POLLOUT : 0));
                    pfd[n].revents = 0;
                    who[n++] = (i * MAX_ENGINES + k) * 2 + 1;
                    double stall = dxp_conn_stall_left(&e->conn, DXP_STALL_S);
                    if (stall >= 0 && t + stall < next) {
                        next = t + stall;
                    }
                }
                if (e->state != ES_IDLE && e->deadline < next) {
                    next = e->deadline;
                }
                if (e->state == ES_CONNECT && e->next_try < next) {
                    next = e->next_try;
                }
            }
        }
        int ms = (int)ceil((next - t) * 1000);
        if (ms < 0) {
            ms = 0;
        }
        int r = poll(pfd, (nfds_t)n, ms);
        if (r < 0 && errno != EINTR) {
            fprintf(stderr, "damier match: poll: %s\n", strerror(errno));
            return 1;
        }
        for (int j = 0; r > 0 && j < n; j++) {
            if (pfd[j].revents) {
                int id = who[j] / 2;
                slot *s = &m->slots[id / MAX_ENGINES];
                engine *e = &s->eng[id % MAX_ENGINES];
                /* an fd closed (and maybe reused) by what was read before is skipped */
                if (who[j] % 2 == 0 && e->proc.from_fd == pfd[j].fd) {
                    drain(m, s, id % MAX_ENGINES);
                } else if (who[j] % 2 == 1 && e->conn.fd == pfd[j].fd) {
                    dxp_drain_conn(m, s, id % MAX_ENGINES, pfd[j].revents);
                }
                if (m->fatal) {
                    return 1;
                }
            }
        }
        t = now();
        for (int i = 0; i < m->concurrency && !m->fatal; i++) {
            check_deadlines(m, &m->slots[i], t);
        }
    }
}

/* ---- the command ---------------------------------------------------------------- */

static int set_tc(match *m, const char *text)
{
    dm_time_control tc;
    dm_error err;
    if (dm_time_control_parse(&tc, text, &err) != DM_OK) {
        fprintf(stderr, "damier match: --tc '%s': %s\n", text, err.message);
        return 2;
    }
    if (tc.kind != DM_TC_PERIODS || tc.count != 1 || tc.periods[0].time_ms <= 0) {
        fprintf(stderr, "damier match: --tc '%s': give one period: \"S\", \"S+I\" or \"N/S[+I]\"\n",
                text);
        return 2;
    }
    m->has_clock = 1;
    m->tc_moves = tc.periods[0].moves;
    m->tc_time = tc.periods[0].time_ms / 1000.0;
    m->tc_inc = tc.periods[0].increment_ms / 1000.0;
    return 0;
}

/* The name of each engine: --name, else the name it gave, else its command's first
 * word; the same name twice gets "-1" and "-2". Taken once both engines are ready. */
static void fix_names(match *m)
{
    for (int i = 0; i < MAX_ENGINES; i++) {
        engine_spec *sp = &m->spec[i];
        if (sp->name_opt && *sp->name_opt) {
            snprintf(sp->name, sizeof sp->name, "%s", sp->name_opt);
            continue;
        }
        const char *id = m->slots[0].eng[i].idname;
        if (*id) {
            snprintf(sp->name, sizeof sp->name, "%s", id);
        } else {
            const char *c = sp->cmd, *slash = NULL, *end = c + strcspn(c, " \t");
            for (const char *p = c; p < end; p++) {
                if (*p == '/') {
                    slash = p;
                }
            }
            c = slash ? slash + 1 : c;
            snprintf(sp->name, sizeof sp->name, "%.*s", (int)(end - c), c);
        }
    }
    if (!strcmp(m->spec[0].name, m->spec[1].name)) {
        for (int i = 0; i < MAX_ENGINES; i++) {
            size_t l = strlen(m->spec[i].name);
            if (l > sizeof m->spec[i].name - 4) {
                l = sizeof m->spec[i].name - 4;
            }
            snprintf(m->spec[i].name + l, 4, "-%d", i + 1);
        }
    }
}

/* Start the engines of the first slot and wait for both to be ready, so that their
 * names are known before the first game line (and a bad command is found at once). */
static int warm_up(match *m)
{
    slot *s = &m->slots[0];
    for (int i = 0; i < MAX_ENGINES; i++) {
        char err[256];
        snprintf(m->spec[i].name, sizeof m->spec[i].name, "engine %d", i + 1);
        if (eng_start(m, &s->eng[i], err, sizeof err) != 0) {
            fprintf(stderr, "damier match: engine %d (%s): %s\n", i + 1, m->spec[i].cmd, err);
            return 1;
        }
    }
    while (!m->fatal && !(s->eng[0].state == ES_IDLE && s->eng[1].state == ES_IDLE)) {
        struct pollfd pfd[MAX_ENGINES];
        int n = 0, who[MAX_ENGINES];
        for (int i = 0; i < MAX_ENGINES; i++) {
            if (s->eng[i].state != ES_IDLE && s->eng[i].proc.from_fd >= 0) {
                pfd[n].fd = s->eng[i].proc.from_fd;
                pfd[n].events = POLLIN;
                who[n++] = i;
            }
        }
        poll(pfd, (nfds_t)n, 100);
        for (int j = 0; j < n; j++) {
            if (pfd[j].revents) {
                drain(m, s, who[j]);
            }
        }
        if (!m->fatal) {
            check_deadlines(m, s, now());
        }
    }
    if (m->fatal) {
        return 1;
    }
    fix_names(m);
    return 0;
}

int cmd_match(int argc, char **argv)
{
    static const struct option opts[] = {{"engine", required_argument, 0, 'e'},
                                         {"name", required_argument, 0, 'n'},
                                         {"dir", required_argument, 0, 'd'},
                                         {"proto", required_argument, 0, 'P'},
                                         {"param", required_argument, 0, 'p'},
                                         {"games", required_argument, 0, 'g'},
                                         {"rounds", required_argument, 0, 'r'},
                                         {"openings", required_argument, 0, 'o'},
                                         {"seed", required_argument, 0, 's'},
                                         {"concurrency", required_argument, 0, 'c'},
                                         {"max-plies", required_argument, 0, 'L'},
                                         {"variant", required_argument, 0, 'V'},
                                         {"adjudicate-draw", required_argument, 0, 'A'},
                                         {"adjudicate-win", required_argument, 0, 'W'},
                                         {"adjudicate-egdb", required_argument, 0, 'B'},
                                         {"tc", required_argument, 0, 't'},
                                         {"time", required_argument, 0, 'T'},
                                         {"inc", required_argument, 0, 'I'},
                                         {"moves", required_argument, 0, 'M'},
                                         {"movetime", required_argument, 0, 'm'},
                                         {"depth", required_argument, 0, 'D'},
                                         {"nodes", required_argument, 0, 'N'},
                                         {"move-overhead", required_argument, 0, 'O'},
                                         {"time-margin", required_argument, 0, 'R'},
                                         {"timeout", required_argument, 0, 'X'},
                                         {"pdn", required_argument, 0, 'w'},
                                         {"pgn", required_argument, 0, 'w'},
                                         {"event", required_argument, 0, 'E'},
                                         {"sprt", required_argument, 0, 'S'},
                                         {"alpha", required_argument, 0, 'a'},
                                         {"beta", required_argument, 0, 'b'},
                                         {"fail-on-forfeit", no_argument, 0, 'F'},
                                         {"debug", no_argument, 0, 'G'},
                                         {"help", no_argument, 0, 'h'},
                                         {0, 0, 0, 0}};
    static match mm;
    match *m = &mm;
    memset(m, 0, sizeof *m);
    m->games = 2;
    m->concurrency = 1;
    m->overhead = 0.05;
    m->timeout = 60;
    m->alpha = m->beta = 0.05;
    m->event = "damier match";
    m->min_clock = 1e308;
    const char *openings = NULL;
    long long seed = -1;
    int nname = 0, ndir = 0, nproto = 0, fail_on_forfeit = 0, c;
    int has_time = 0, has_inc = 0, has_moves = 0;
    double tm = 0, inc = 0;
    long long v;
    optind = 1;
    while ((c = getopt_long(argc, argv, "+h", opts, NULL)) != -1) {
        const char *o = optarg;
        switch (c) {
            case 'e':
                if (m->nspec == MAX_ENGINES) {
                    fprintf(stderr, "damier match: give exactly two --engine\n");
                    return 2;
                }
                if (!*o) {
                    return bad_value("engine", o, "an empty command");
                }
                if (!strncmp(o, "dxp:", 4)) {
                    m->spec[m->nspec].no_cmd = 1; /* a DXP follower already listening */
                    m->spec[m->nspec].addr = o + 4;
                }
                m->spec[m->nspec++].cmd = o;
                break;
            case 'n':
            case 'd':
            case 'P': {
                int *cnt = c == 'n' ? &nname : c == 'd' ? &ndir : &nproto;
                const char *nm = c == 'n' ? "name" : c == 'd' ? "dir" : "proto";
                if (*cnt == MAX_ENGINES) {
                    return bad_value(nm, o, "given more than twice");
                }
                engine_spec *sp = &m->spec[(*cnt)++];
                if (c == 'n') {
                    sp->name_opt = o;
                } else if (c == 'd') {
                    sp->dir = o;
                } else if (!strcmp(o, "hub") || !strcmp(o, "hub2")) {
                    sp->proto = PROTO_HUB2;
                } else if (!strcmp(o, "hub1")) {
                    sp->proto = PROTO_HUB1;
                } else if (!strcmp(o, "auto")) {
                    sp->proto = PROTO_AUTO;
                } else if (!strcmp(o, "dxp") || !strncmp(o, "dxp:", 4)) {
                    if (o[3] && sp->addr) {
                        return bad_value("proto", o, "the engine's address is given twice");
                    }
                    sp->proto = PROTO_DXP;
                    if (o[3]) {
                        sp->addr = o + 4;
                    }
                } else {
                    return bad_value("proto", o, "give hub, hub1, auto, dxp or dxp:[HOST:]PORT");
                }
                break;
            }
            case 'p': {
                int k = 0;
                const char *p = o;
                if ((p[0] == '1' || p[0] == '2') && p[1] == ':') {
                    k = p[0] - '0';
                    p += 2;
                }
                const char *eq = strchr(p, '=');
                if (!eq || eq == p || strchr(p, '"')) {
                    return bad_value("param", o, "give NAME=VALUE or K:NAME=VALUE (K 1 or 2)");
                }
                for (int i = 0; i < MAX_ENGINES; i++) {
                    if (k && k != i + 1) {
                        continue;
                    }
                    if (m->spec[i].nparams == MAX_PARAMS) {
                        return bad_value("param", o, "too many");
                    }
                    m->spec[i].params[m->spec[i].nparams++] = p;
                }
                break;
            }
            case 'g':
            case 'r':
                if (parse_long(o, &v, 1, 1000000)) {
                    return bad_value(c == 'g' ? "games" : "rounds", o, "give 1 to 1000000");
                }
                m->games = (int)(c == 'g' ? v : 2 * v);
                break;
            case 'o':
                openings = o;
                break;
            case 's':
                if (parse_long(o, &seed, 0, LLONG_MAX)) {
                    return bad_value("seed", o, "give a number >= 0");
                }
                break;
            case 'c':
                if (parse_long(o, &v, 1, MAX_SLOTS)) {
                    return bad_value("concurrency", o, "give 1 to 64");
                }
                m->concurrency = (int)v;
                break;
            case 'L':
                if (parse_long(o, &v, 0, 100000)) {
                    return bad_value("max-plies", o, "give 0 to 100000");
                }
                m->max_plies = (int)v;
                break;
            case 'A': {
                int ply, cnt, k = 0;
                double sc;
                if (sscanf(o, "%d,%d,%lf%n", &ply, &cnt, &sc, &k) != 3 || o[k] || ply < 0 ||
                    cnt < 1 || cnt > 1000 || !(sc >= 0)) {
                    return bad_value("adjudicate-draw", o,
                                     "give PLY,COUNT,SCORE (e.g. 80,10,0.05)");
                }
                m->adj_draw_ply = ply;
                m->adj_draw_count = cnt;
                m->adj_draw_score = sc;
                break;
            }
            case 'W': {
                int cnt, k = 0;
                double sc;
                if (sscanf(o, "%d,%lf%n", &cnt, &sc, &k) != 2 || o[k] || cnt < 1 || cnt > 1000 ||
                    !(sc > 0)) {
                    return bad_value("adjudicate-win", o, "give COUNT,SCORE (e.g. 6,5)");
                }
                m->adj_win_count = cnt;
                m->adj_win_score = sc;
                break;
            }
            case 'B':
                m->egdb_dir = o;
                break;
            case 'V': {
                const dm_variant *var;
                if (cmd_variant_from_arg(&var, "match", o)) {
                    return 2;
                }
                m->variant = var;
                break;
            }
            case 't':
                if (set_tc(m, o)) {
                    return 2;
                }
                break;
            case 'T':
            case 'I':
                if (parse_double(o, c == 'T' ? &tm : &inc, c == 'T' ? 0.001 : 0, 1e7)) {
                    return bad_value(c == 'T' ? "time" : "inc", o, "give seconds");
                }
                *(c == 'T' ? &has_time : &has_inc) = 1;
                break;
            case 'M':
                if (parse_long(o, &v, 1, 1000)) {
                    return bad_value("moves", o, "give 1 to 1000");
                }
                m->tc_moves = (int)v;
                has_moves = 1;
                break;
            case 'm':
                if (parse_double(o, &m->movetime, 0.001, 1e6)) {
                    return bad_value("movetime", o, "give seconds > 0");
                }
                break;
            case 'D':
                if (parse_long(o, &v, 1, 200)) {
                    return bad_value("depth", o, "give 1 to 200");
                }
                m->depth = (int)v;
                break;
            case 'N':
                if (parse_long(o, &m->nodes, 1, LLONG_MAX)) {
                    return bad_value("nodes", o, "give a number > 0");
                }
                break;
            case 'O': {
                double ms;
                if (parse_double(o, &ms, 0, 1e6)) {
                    return bad_value("move-overhead", o, "give milliseconds >= 0");
                }
                m->overhead = ms / 1000;
                break;
            }
            case 'R': {
                double ms;
                if (parse_double(o, &ms, 0, 1e6)) {
                    return bad_value("time-margin", o, "give milliseconds >= 0");
                }
                m->margin = ms / 1000;
                break;
            }
            case 'X':
                if (parse_double(o, &m->timeout, 0.01, 1e7)) {
                    return bad_value("timeout", o, "give seconds > 0");
                }
                break;
            case 'w':
                m->pdn_name = o;
                break;
            case 'E':
                m->event = o;
                break;
            case 'S': {
                const char *b = strchr(o, ',');
                char a[64];
                if (b) {
                    snprintf(a, sizeof a, "%.*s", (int)(b - o), o);
                    b++;
                } else {
                    snprintf(a, sizeof a, "%s", o);
                    if (optind >= argc) {
                        return bad_value("sprt", o, "give ELO0 ELO1");
                    }
                    b = argv[optind++];
                }
                if (parse_double(a, &m->elo0, -2000, 2000) ||
                    parse_double(b, &m->elo1, -2000, 2000) || m->elo1 <= m->elo0) {
                    return bad_value("sprt", o, "give ELO0 ELO1 with ELO0 < ELO1");
                }
                m->sprt = 1;
                break;
            }
            case 'a':
            case 'b':
                if (parse_double(o, c == 'a' ? &m->alpha : &m->beta, 1e-6, 0.5)) {
                    return bad_value(c == 'a' ? "alpha" : "beta", o, "give 0 < x <= 0.5");
                }
                break;
            case 'F':
                fail_on_forfeit = 1;
                break;
            case 'G':
                m->debug = 1;
                break;
            case 'h':
                match_usage(stdout);
                return 0;
            default:
                match_usage(stderr);
                return 2;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "damier match: unexpected argument '%s'\n", argv[optind]);
        return 2;
    }
    if (!m->variant) {
        m->variant = dm_variant_get(DM_VARIANT_INTERNATIONAL);
    }
    m->intl = m->variant->id == DM_VARIANT_INTERNATIONAL;
    if (m->nspec != MAX_ENGINES) {
        fprintf(stderr, "damier match: give two engines (--engine CMD --engine CMD)\n");
        return 2;
    }
    for (int i = 0; i < MAX_ENGINES; i++) {
        engine_spec *sp = &m->spec[i];
        if (sp->no_cmd && sp->proto != PROTO_AUTO && sp->proto != PROTO_DXP) {
            return bad_value("engine", sp->cmd, "a DXP engine (dxp:ADDRESS) speaks no Hub");
        }
        if (sp->no_cmd) {
            sp->proto = PROTO_DXP;
        }
        if (!m->intl && (sp->proto == PROTO_DXP || sp->proto == PROTO_HUB1)) {
            fprintf(stderr,
                    "damier match: --variant %s: engine %d speaks %s, which plays international "
                    "draughts only; other variants are played through Hub 2 (--proto hub)\n",
                    m->variant->name, i + 1, sp->proto == PROTO_DXP ? "DXP" : "Hub 1");
            return 2;
        }
        for (int k = 0; !m->intl && k < sp->nparams; k++) {
            if (!strncmp(sp->params[k], "variant=", 8)) {
                fprintf(stderr,
                        "damier match: --param %s: the variant is --variant's (it sends "
                        "set-param name=variant itself)\n",
                        sp->params[k]);
                return 2;
            }
        }
        if (sp->proto != PROTO_DXP) {
            continue;
        }
        if (sp->addr) {
            if (dxp_split_address(sp->addr, sp->host, sizeof sp->host, sp->port, sizeof sp->port,
                                  "127.0.0.1") ||
                !strcmp(sp->port, "0")) {
                return bad_value(sp->no_cmd ? "engine" : "proto", sp->addr,
                                 "give the DXP engine's address as [HOST:]PORT");
            }
            sp->has_addr = 1;
            if (m->concurrency > 1) {
                fprintf(stderr, "damier match: a DXP engine at one address plays one game at a "
                                "time: --concurrency 1 (or let each game start its own: --proto "
                                "dxp and a command that prints `listening: HOST:PORT`)\n");
                return 2;
            }
        }
        if (m->movetime > 0) {
            fprintf(stderr, "damier match: DXP has no time a move: give a DXP engine a clock "
                            "(--tc) or its own limits\n");
            return 2;
        }
    }
    if (has_time) {
        if (m->has_clock) {
            fprintf(stderr, "damier match: give --tc or --time, not both\n");
            return 2;
        }
        m->has_clock = 1;
        m->tc_time = tm;
        m->tc_inc = inc;
    } else if (has_inc || has_moves) {
        if (!m->has_clock) {
            fprintf(stderr, "damier match: --inc and --moves need --time\n");
            return 2;
        }
    }
    if (m->has_clock && m->movetime > 0) {
        fprintf(stderr, "damier match: give a clock or --movetime, not both\n");
        return 2;
    }
    if (!m->has_clock && m->movetime <= 0 && !m->depth && !m->nodes) {
        fprintf(stderr, "damier match: give a limit: --tc, --time, --movetime, --depth or "
                        "--nodes\n");
        return 2;
    }
    char ballot[PATH_MAX];
    if (openings && !strcmp(openings, "start")) {
        openings = NULL;
    } else if (!openings && m->intl && find_ballot(ballot, sizeof ballot)) {
        openings = ballot; /* the ballot's positions are international */
    }
    int rc;
    if (openings) {
        if ((rc = read_openings(m, openings))) {
            return rc;
        }
        m->openings_name = openings;
    } else {
        m->openings = malloc(sizeof *m->openings);
        if (!m->openings) {
            return 1;
        }
        dm_board_start(&m->openings[0], m->variant);
        m->nopenings = 1;
        m->openings_name = "the start position";
    }
    if (m->egdb_dir) {
        if (!m->intl) {
            fprintf(stderr,
                    "damier match: --adjudicate-egdb: the endgame databases are "
                    "international draughts only, not %s\n",
                    m->variant->name);
            return 2;
        }
        dm_error eerr;
        if (dm_egdb_open(&m->egdb, m->egdb_dir, &eerr) != DM_OK) {
            fprintf(stderr, "damier match: --adjudicate-egdb %s: %s\n", m->egdb_dir, eerr.message);
            return 2;
        }
        if (dm_egdb_max_pieces(m->egdb) < 2) {
            fprintf(stderr,
                    "damier match: --adjudicate-egdb %s: no complete database there "
                    "(damier egdb gen --pieces N --dir %s)\n",
                    m->egdb_dir, m->egdb_dir);
            dm_egdb_close(m->egdb);
            return 2;
        }
    }
    int pairs = (m->games + 1) / 2;
    m->order = malloc((size_t)pairs * sizeof *m->order);
    m->results = calloc((size_t)m->games, sizeof *m->results);
    m->slots = calloc((size_t)m->concurrency, sizeof *m->slots);
    if (!m->order || !m->results || !m->slots) {
        fprintf(stderr, "damier match: out of memory\n");
        return 1;
    }
    {
        /* every opening once before any twice; shuffled with --seed */
        int *perm = malloc((size_t)m->nopenings * sizeof *perm);
        if (!perm) {
            return 1;
        }
        uint64_t st = (uint64_t)seed;
        for (int i = 0; i < pairs; i++) {
            if (i % m->nopenings == 0) {
                for (int k = 0; k < m->nopenings; k++) {
                    perm[k] = k;
                }
                for (int k = m->nopenings - 1; seed >= 0 && k > 0; k--) {
                    int j = (int)(rng_next(&st) % (uint64_t)(k + 1));
                    int x = perm[k];
                    perm[k] = perm[j];
                    perm[j] = x;
                }
            }
            m->order[i] = perm[i % m->nopenings];
        }
        free(perm);
    }
    for (int i = 0; i < m->concurrency; i++) {
        for (int k = 0; k < MAX_ENGINES; k++) {
            m->slots[i].eng[k].spec = &m->spec[k];
            m->slots[i].eng[k].proc.to_fd = m->slots[i].eng[k].proc.from_fd = -1;
            m->slots[i].eng[k].conn.fd = -1;
        }
    }
    if (m->sprt) {
        match_sprt_bounds(m->alpha, m->beta, &m->lower, &m->upper);
    }
    time_t tt = time(NULL);
    struct tm lt;
    localtime_r(&tt, &lt);
    strftime(m->date, sizeof m->date, "%Y.%m.%d", &lt);
    if (m->pdn_name && !(m->pdn = fopen(m->pdn_name, "w"))) {
        fprintf(stderr, "damier match: cannot write '%s': %s\n", m->pdn_name, strerror(errno));
        return 2;
    }
    signal(SIGPIPE, SIG_IGN);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    rc = warm_up(m);
    if (rc == 0) {
        char lim[128] = "";
        size_t n = 0;
        if (m->has_clock) {
            if (m->tc_moves) {
                n = (size_t)snprintf(lim, sizeof lim, "clock %d/%g+%g", m->tc_moves, m->tc_time,
                                     m->tc_inc);
            } else {
                n = (size_t)snprintf(lim, sizeof lim, "clock %g+%g", m->tc_time, m->tc_inc);
            }
        } else if (m->movetime > 0) {
            n += (size_t)snprintf(lim, sizeof lim, "%g s a move", m->movetime);
        }
        if (m->depth) {
            n += (size_t)snprintf(lim + n, sizeof lim - n, "%sdepth %d", n ? ", " : "", m->depth);
        }
        if (m->nodes) {
            snprintf(lim + n, sizeof lim - n, "%snodes %lld", n ? ", " : "", m->nodes);
        }
        printf("match %s - %s: %s%s%d games, %s, openings %s (%d), concurrency %d\n",
               m->spec[0].name, m->spec[1].name, m->intl ? "" : m->variant->name,
               m->intl ? "" : ", ", m->games, lim, m->openings_name, m->nopenings, m->concurrency);
        fflush(stdout);
        rc = run_match(m);
    }
    for (int i = 0; i < m->concurrency; i++) {
        for (int k = 0; k < MAX_ENGINES; k++) {
            eng_quit(m, &m->slots[i].eng[k]);
        }
        dm_game_free(m->slots[i].game);
        free(m->slots[i].log);
    }
    if (rc == 0) {
        if (interrupted) {
            printf("interrupted after %d of %d games\n", m->finished, m->games);
        } else if (m->finished < m->games) {
            printf("stopped after %d of %d games: the SPRT decided\n", m->finished, m->games);
        }
        print_score(m, 1);
    }
    if (m->pdn && fclose(m->pdn) != 0 && rc == 0) {
        fprintf(stderr, "damier match: cannot write '%s': %s\n", m->pdn_name, strerror(errno));
        rc = 1;
    }
    free(m->openings);
    free(m->order);
    free(m->results);
    free(m->slots);
    dm_egdb_close(m->egdb);
    if (rc == 0 && fail_on_forfeit && m->forfeits > 0) {
        return 1;
    }
    return rc == 0 && interrupted ? 130 : rc;
}
