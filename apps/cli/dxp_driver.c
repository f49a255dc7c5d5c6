/* SPDX-License-Identifier: MIT
 * apps/cli/dxp_driver.c: one DXP session as a state machine over dm_game, dm_clock,
 * the engine levels and the DXP codec; the policy is in dxp_driver.h. Log lines go
 * to stderr ("damier dxp: ..."), one `game:` line per finished game to stdout. */
#define _POSIX_C_SOURCE 200809L
#include "dxp_driver.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <damier/pdn.h>
#include <damier/version.h>

enum dxp_state {
    ST_IDLE = 0,     /* between games (the follower waits for GAMEREQ) */
    ST_WAIT_ACC,     /* initiator: GAMEREQ sent, waiting for GAMEACC */
    ST_PLAYING,      /* a game in progress */
    ST_WAIT_END,     /* our initial GAMEEND sent, waiting for its acknowledgement */
};

enum {
    ACK_TIMEOUT_MS = 30000, /* for GAMEACC and the GAMEEND acknowledgement */
    MAX_ERROR_CHATS = 50,   /* error CHATs sent a session (then only logged) */
    MAX_BAD = 1000,         /* bad messages a session before we hang up (a flood) */
    MAX_LOGGED = 100        /* bad messages logged a session */
};

struct dxp_driver {
    dxp_config cfg;
    dxp_send_fn send;
    void *payload;
    play_session ps;      /* game, clock, engine, level, seed: play_engine.c's view */
    int state;
    int my_color;
    char my_name[DM_DXP_NAME_LEN + 1];
    char peer_name[DM_DXP_NAME_LEN + 1];
    int time_ms, moves;   /* this game's thinking time and move limit */
    int game_no;          /* games started (1-based number of the current one) */
    int stop;             /* a stop code 1 was sent or received */
    int finished, failed;
    int bad, chats;       /* bad messages received, error CHATs sent */
    int64_t deadline;     /* monotonic ms: the state's time limit (0 none) */
    int64_t turn_start;   /* when the peer's turn began */
    int64_t peer_budget;  /* the peer's time left at the start of its turn, ms */
    int64_t peer_overshoot; /* ms the peer has used beyond its time so far */
    /* the result of the current game once decided */
    char result[8];
    char termination[160];
    int wins, losses, draws, unfinished;
    int game_open;        /* a game object exists that is not yet saved */
};

/* ---- small helpers -------------------------------------------------------------------- */

static int64_t now_ms(void)
{
    return dm_clock_monotonic_ms(NULL);
}

static void logf_(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
static void logf_(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("damier dxp: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

static void send_msg(dxp_driver *d, const dm_dxp_msg *m)
{
    char buf[DM_DXP_MAX_MESSAGE + 1];
    size_t len;
    dm_error err;
    if (dm_dxp_format(buf, sizeof buf, &len, m, &err) != DM_OK) {
        logf_("internal error: cannot format a %s: %s", dm_dxp_type_name(m->type), err.message);
        return;
    }
    d->send(d->payload, buf, len);
}

/* A CHAT, cut to the 126 characters a CHAT holds, 7-bit ASCII only. */
static void send_chat(dxp_driver *d, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static void send_chat(dxp_driver *d, const char *fmt, ...)
{
    dm_dxp_msg m;
    dm_dxp_msg_init(&m, DM_DXP_CHAT);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(m.text, sizeof m.text, fmt, ap);
    va_end(ap);
    for (char *p = m.text; *p; p++) {
        if ((unsigned char)*p > 126 || (unsigned char)*p < 32) {
            *p = '?';
        }
    }
    if (m.text[0]) {
        send_msg(d, &m);
    }
}

/* A bad message: logged (the first MAX_LOGGED), answered with a CHAT (the first
 * MAX_ERROR_CHATS), and counted: a flood ends the session. */
static void complain(dxp_driver *d, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static void complain(dxp_driver *d, const char *fmt, ...)
{
    char why[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    d->bad++;
    if (d->bad <= MAX_LOGGED) {
        logf_("%s", why);
    } else if (d->bad == MAX_LOGGED + 1) {
        logf_("more bad messages: no longer logged");
    }
    if (d->chats < MAX_ERROR_CHATS) {
        d->chats++;
        send_chat(d, "error: %s", why);
    }
    if (d->bad >= MAX_BAD && !d->finished) {
        logf_("%d bad messages: the peer floods, hanging up", d->bad);
        d->failed = 1;
        dxp_driver_disconnected(d, "too many bad messages");
    }
}

static dm_color peer_color(const dxp_driver *d)
{
    return (dm_color)(1 - d->my_color);
}

static int side_to_move(const dxp_driver *d)
{
    return dm_game_board(d->ps.game)->side;
}

/* ---- set-up ------------------------------------------------------------------------------ */

int dxp_driver_new(dxp_driver **out, const dxp_config *cfg, dxp_send_fn send, void *payload)
{
    dxp_driver *d = calloc(1, sizeof *d);
    if (!d) {
        fprintf(stderr, "damier dxp: out of memory\n");
        return 1;
    }
    d->cfg = *cfg;
    d->send = send;
    d->payload = payload;
    d->ps.out = stdout;
    d->ps.draw_offer = -1;
    play_level_get(&d->ps.level, cfg->level);
    if (cfg->depth) {
        d->ps.level.depth = cfg->depth;
        d->ps.level.move_time = 0;
    }
    d->ps.seed = cfg->seed;
    d->ps.rng = cfg->seed * 0x9e3779b97f4a7c15ull + 0x2545f4914f6cdd1dull;
    dm_engine_options eo = DM_ENGINE_OPTIONS_INIT;
    eo.tt_mib = d->ps.level.level <= 5 ? 4 : d->ps.level.level <= 8 ? 32 : 128;
    if (dm_engine_create(&d->ps.engine, &eo) != DM_OK) {
        fprintf(stderr, "damier dxp: cannot create the engine\n");
        free(d);
        return 1;
    }
    snprintf(d->my_name, sizeof d->my_name, "damier %s", DM_VERSION);
    snprintf(d->peer_name, sizeof d->peer_name, "?");
    *out = d;
    return 0;
}

static void close_game(dxp_driver *d)
{
    dm_game_free(d->ps.game);
    d->ps.game = NULL;
    dm_clock_free(d->ps.clock);
    d->ps.clock = NULL;
    d->game_open = 0;
}

void dxp_driver_free(dxp_driver *d)
{
    if (!d) {
        return;
    }
    close_game(d);
    dm_engine_free(d->ps.engine);
    free(d);
}

/* ---- the game record ---------------------------------------------------------------------- */

static dm_status build_record(dm_pdn_game **out, dxp_driver *d)
{
    const dm_game *g = d->ps.game;
    dm_pdn_game *rec;
    dm_status st = dm_pdn_game_new(&rec);
    if (st != DM_OK) {
        return st;
    }
    const char *names[2];
    names[d->my_color] = d->my_name;
    names[1 - d->my_color] = d->peer_name;
    char round[16], tc[64], fen[256];
    snprintf(round, sizeof round, "%d", d->game_no);
    st = play_record_tags(rec, d->ps.started, names[DM_WHITE], names[DM_BLACK], d->result, "20");
    st = st ? st : dm_pdn_game_set_tag(rec, "Event", "DXP match");
    st = st ? st : dm_pdn_game_set_tag(rec, "Site", d->cfg.site ? d->cfg.site : "damier dxp");
    st = st ? st : dm_pdn_game_set_tag(rec, "Round", round);
    dm_board initial;
    dm_board_start(&initial);
    if (!st && !dm_board_equal(dm_game_start(g), &initial)) {
        dm_board_to_fen(fen, sizeof fen, dm_game_start(g));
        st = dm_pdn_game_set_tag(rec, "SetUp", "1");
        st = st ? st : dm_pdn_game_set_tag(rec, "FEN", fen);
    }
    if (!st && d->ps.has_tc) {
        dm_time_control_format(tc, sizeof tc, &d->ps.tc);
        st = dm_pdn_game_set_tag(rec, "TimeControl", tc);
    }
    if (!st && d->termination[0]) {
        st = dm_pdn_game_set_tag(rec, "Termination", d->termination);
    }
    int n = dm_game_ply(g);
    st = st ? st : play_record_alloc(rec, n);
    for (int i = 0; !st && i < n; i++) {
        char num[16], mv[160];
        play_ply_text(num, sizeof num, mv, sizeof mv, g, i);
        st = play_record_move(rec, i, num, mv);
    }
    return play_record_finish(out, rec, st, d->result);
}

static void save_pdn(dxp_driver *d)
{
    if (!d->cfg.pdn_path || !d->ps.game) {
        return;
    }
    dm_pdn_game *rec = NULL;
    char *text = NULL;
    size_t len = 0;
    dm_status st = build_record(&rec, d);
    if (st == DM_OK) {
        st = dm_pdn_write(&text, &len, rec, DM_NOTATION_PDN);
    }
    dm_pdn_game_free(rec);
    if (st != DM_OK) {
        logf_("cannot make the PDN of game %d: %s", d->game_no, dm_status_str(st));
        return;
    }
    FILE *f = fopen(d->cfg.pdn_path, "a");
    int ok = f && fwrite(text, 1, len, f) == len;
    if (f && fclose(f) != 0) {
        ok = 0;
    }
    if (!ok) {
        logf_("cannot append game %d to %s", d->game_no, d->cfg.pdn_path);
        d->failed = 1;
    }
    free(text);
}

/* ---- results -------------------------------------------------------------------------- */

/* Record the result from White's point of view. */
static void set_result(dxp_driver *d, dm_outcome o, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static void set_result(dxp_driver *d, dm_outcome o, const char *fmt, ...)
{
    snprintf(d->result, sizeof d->result, "%s", dm_outcome_str(o));
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(d->termination, sizeof d->termination, fmt, ap);
    va_end(ap);
}

static dm_outcome win_for(dm_color c)
{
    return c == DM_WHITE ? DM_OUTCOME_WHITE_WINS : DM_OUTCOME_BLACK_WINS;
}

/* The game is over for us: save it, report it, go on with the session. */
static void finish_game(dxp_driver *d)
{
    if (!d->game_open) {
        return;
    }
    if (d->ps.clock) {
        dm_clock_stop(d->ps.clock);
    }
    save_pdn(d);
    const char *names[2];
    names[d->my_color] = d->my_name;
    names[1 - d->my_color] = d->peer_name;
    printf("game: %d white \"%s\" black \"%s\" result %s plies %d termination \"%s\"\n",
           d->game_no, names[DM_WHITE], names[DM_BLACK], d->result, dm_game_ply(d->ps.game),
           d->termination);
    fflush(stdout);
    logf_("game %d over: %s (%s)", d->game_no, d->result, d->termination);
    if (!strcmp(d->result, "1-1")) {
        d->draws++;
    } else if (!strcmp(d->result, "*")) {
        d->unfinished++;
    } else if (!strcmp(d->result, d->my_color == DM_WHITE ? "2-0" : "0-2")) {
        d->wins++;
    } else {
        d->losses++;
    }
    close_game(d);
    d->state = ST_IDLE;
    d->deadline = d->cfg.idle_s > 0 ? now_ms() + 1000LL * d->cfg.idle_s : 0;
}

/* The peer's turn begins now: its deadline counts from here. */
static void begin_turn(dxp_driver *d)
{
    d->turn_start = now_ms();
    d->peer_budget = 0;
    if (d->ps.has_tc && d->ps.game && side_to_move(d) != d->my_color) {
        d->peer_budget = dm_clock_remaining(d->ps.clock, peer_color(d));
    }
}

/* ---- starting games -------------------------------------------------------------------- */

static int start_game(dxp_driver *d, const dm_board *start)
{
    close_game(d);
    if (dm_game_new(&d->ps.game, start) != DM_OK) {
        logf_("cannot start a game (out of memory?)");
        return 0;
    }
    d->ps.has_tc = d->time_ms > 0;
    memset(&d->ps.tc, 0, sizeof d->ps.tc);
    if (d->ps.has_tc) {
        d->ps.tc.kind = DM_TC_PERIODS;
        d->ps.tc.count = 1;
        d->ps.tc.periods[0].moves = d->moves;
        d->ps.tc.periods[0].time_ms = d->time_ms;
    } else {
        d->ps.tc.kind = DM_TC_NONE;
    }
    dm_error err;
    if (dm_clock_new(&d->ps.clock, &d->ps.tc, NULL, NULL, NULL, &err) != DM_OK) {
        logf_("cannot make the clock: %s", err.message);
        dm_game_free(d->ps.game);
        d->ps.game = NULL;
        return 0;
    }
    dm_engine_clear(d->ps.engine);
    d->ps.started = (long long)time(NULL);
    d->ps.who[d->my_color] = PLAY_ENGINE;
    d->ps.who[1 - d->my_color] = PLAY_HUMAN;
    d->game_open = 1;
    d->result[0] = 0;
    snprintf(d->result, sizeof d->result, "*");
    d->termination[0] = 0;
    d->peer_overshoot = 0;
    d->state = ST_PLAYING;
    dm_clock_start(d->ps.clock, (dm_color)start->side);
    begin_turn(d);
    char fen[200];
    dm_board_to_fen(fen, sizeof fen, start);
    logf_("game %d: %s plays %s against \"%s\", %d min for %d moves, start %s", d->game_no,
          d->my_name, d->my_color == DM_WHITE ? "White" : "Black", d->peer_name, d->time_ms / 60000,
          d->moves, fen);
    return 1;
}

static void send_gamereq(dxp_driver *d)
{
    d->game_no++;
    d->my_color = (d->game_no % 2 == 1) ? d->cfg.color : 1 - d->cfg.color;
    dm_dxp_msg m;
    dm_dxp_msg_init(&m, DM_DXP_GAMEREQ);
    m.version = DM_DXP_VERSION;
    snprintf(m.name, sizeof m.name, "%s", d->my_name);
    m.follower_color = 1 - d->my_color;
    m.time_ms = d->cfg.time_min * 60000;
    m.moves = d->cfg.moves;
    dm_board_start(&m.position);
    if (d->cfg.fen) {
        dm_board b;
        if (dm_board_from_fen(&b, d->cfg.fen, NULL) == DM_OK) {
            dm_board initial;
            dm_board_start(&initial);
            m.has_position = !dm_board_equal(&b, &initial);
            m.position = b;
        }
    }
    d->time_ms = m.time_ms;
    d->moves = m.moves;
    send_msg(d, &m);
    d->state = ST_WAIT_ACC;
    d->deadline = now_ms() + ACK_TIMEOUT_MS;
}

void dxp_driver_connected(dxp_driver *d)
{
    d->deadline = d->cfg.idle_s > 0 ? now_ms() + 1000LL * d->cfg.idle_s : 0;
    if (d->cfg.initiator) {
        send_gamereq(d);
    }
}

/* After a game: the initiator asks for the next one or ends the session. */
static void next_step(dxp_driver *d)
{
    if (d->stop) {
        d->finished = 1;
    } else if (d->cfg.initiator) {
        if (d->game_no < d->cfg.games) {
            send_gamereq(d);
        } else {
            d->finished = 1;
        }
    }
}

/* Our stop code: the initiator stops after its last game. */
static int my_stop_code(const dxp_driver *d)
{
    return d->cfg.initiator && d->game_no >= d->cfg.games ? DM_DXP_STOP_SESSION
                                                          : DM_DXP_STOP_CONTINUE;
}

/* Send our initial GAMEEND (the result is already set). */
static void send_gameend(dxp_driver *d, int reason)
{
    dm_dxp_msg m;
    dm_dxp_msg_init(&m, DM_DXP_GAMEEND);
    m.reason = reason;
    m.stop = my_stop_code(d);
    if (m.stop) {
        d->stop = 1;
    }
    send_msg(d, &m);
    d->state = ST_WAIT_END;
    d->deadline = now_ms() + ACK_TIMEOUT_MS;
}

/* The reason code from our point of view for outcome o. */
static int reason_for(const dxp_driver *d, dm_outcome o)
{
    if (o == DM_OUTCOME_DRAW) {
        return DM_DXP_END_DRAW;
    }
    if (o == win_for((dm_color)d->my_color)) {
        return DM_DXP_END_I_WIN;
    }
    return DM_DXP_END_I_LOSE;
}

/* The peer loses by forfeit or on time: CHAT, GAMEEND 3. */
static void peer_loses(dxp_driver *d, const char *termination, const char *why)
{
    set_result(d, win_for((dm_color)d->my_color), "%s", termination);
    if (d->chats < MAX_ERROR_CHATS) {
        d->chats++;
        send_chat(d, "%s: %s", termination, why);
    }
    logf_("game %d: %s: %s", d->game_no, termination, why);
    send_gameend(d, DM_DXP_END_I_WIN);
}

/* The move limit of the GAMEREQ is reached (moves of each side from the start). */
static int at_move_limit(const dxp_driver *d)
{
    return d->moves > 0 && dm_game_ply(d->ps.game) >= 2 * d->moves;
}

/* The result at the move limit: a short search (play_engine_hint) from our side;
 * +-3.00 men or more is a win, else a draw. Sets the result and returns it. */
static dm_outcome adjudicate(dxp_driver *d)
{
    dm_info info;
    int score = 0;
    if (play_engine_hint(&info, &d->ps) == DM_OK) {
        score = side_to_move(d) == d->my_color ? info.score : -info.score;
    }
    char sc[32];
    play_score_text(sc, sizeof sc, score);
    dm_outcome a = score >= 300    ? win_for((dm_color)d->my_color)
                   : score <= -300 ? win_for(peer_color(d))
                                   : DM_OUTCOME_DRAW;
    set_result(d, a, "adjudication after %d moves (score %s for %s)", d->moves, sc, d->my_name);
    return a;
}

/* ---- handling messages ----------------------------------------------------------------- */

static void on_gamereq(dxp_driver *d, const dm_dxp_msg *m)
{
    dm_dxp_msg acc;
    dm_dxp_msg_init(&acc, DM_DXP_GAMEACC);
    snprintf(acc.name, sizeof acc.name, "%s", d->my_name);
    if (m->version != DM_DXP_VERSION) {
        logf_("GAMEREQ of protocol version %02d refused (GAMEACC 1)", m->version);
        acc.acceptance = DM_DXP_ACC_VERSION;
        send_msg(d, &acc);
        return;
    }
    const char *why = NULL;
    char buf[300];
    dm_error err;
    if (d->cfg.initiator) {
        why = "I am the initiator of this session: only I start games";
    } else if (d->state != ST_IDLE) {
        snprintf(buf, sizeof buf, "GAMEREQ during game %d: refused, the game goes on",
                 d->game_no);
        why = buf;
    } else if (dm_board_validate(&m->position, &err) != DM_OK) {
        snprintf(buf, sizeof buf, "GAMEREQ position refused: %s", err.message);
        why = buf;
    } else if (dm_movegen_count(&m->position) == 0) {
        why = "GAMEREQ position refused: the side to move has no legal move";
    }
    if (why) {
        acc.acceptance = DM_DXP_ACC_THIS_GAME;
        d->bad++;
        logf_("%s (GAMEACC 2)", why);
        send_chat(d, "error: %s", why);
        send_msg(d, &acc);
        return;
    }
    acc.acceptance = DM_DXP_ACC_ACCEPTED;
    send_msg(d, &acc);
    d->game_no++;
    snprintf(d->peer_name, sizeof d->peer_name, "%s", m->name);
    d->my_color = m->follower_color;
    d->time_ms = m->time_ms;
    d->moves = m->moves;
    start_game(d, &m->position);
}

static void on_gameacc(dxp_driver *d, const dm_dxp_msg *m)
{
    if (d->state != ST_WAIT_ACC) {
        complain(d, "GAMEACC without a GAMEREQ: ignored");
        return;
    }
    if (m->acceptance != DM_DXP_ACC_ACCEPTED) {
        static const char *why[] = {"", "unexpected protocol version", "this game refused",
                                    "no games at all"};
        logf_("\"%s\" refuses game %d (GAMEACC %d: %s)", m->name, d->game_no, m->acceptance,
              why[m->acceptance]);
        d->failed = 1;
        d->finished = 1;
        d->state = ST_IDLE;
        return;
    }
    snprintf(d->peer_name, sizeof d->peer_name, "%s", m->name);
    dm_board start;
    dm_board_start(&start);
    if (d->cfg.fen) {
        dm_board_from_fen(&start, d->cfg.fen, NULL);
    }
    if (!start_game(d, &start)) {
        d->failed = 1;
        d->finished = 1;
    }
}

/* Our clock after the peer's move: the move counts even when its flag has fallen
 * within the grace; the time beyond its flag is added to its overshoot. */
static void press_after_peer(dxp_driver *d)
{
    if (dm_clock_press(d->ps.clock) == DM_OK) {
        return;
    }
    dm_color who;
    if (dm_clock_flagged(d->ps.clock, &who) && who == peer_color(d)) {
        int64_t over = now_ms() - d->turn_start - d->peer_budget;
        d->peer_overshoot += over > 0 ? over : 0;
        dm_clock_set_remaining(d->ps.clock, peer_color(d), 1);
        dm_clock_start(d->ps.clock, (dm_color)d->my_color);
    }
}

static void on_move(dxp_driver *d, const dm_dxp_msg *m, const char *text)
{
    if (d->state != ST_PLAYING) {
        if (d->state == ST_WAIT_END) {
            logf_("MOVE %s after our GAMEEND: ignored", text);
            return;
        }
        complain(d, "MOVE %s outside a game: ignored", text);
        return;
    }
    if (side_to_move(d) == d->my_color) {
        complain(d, "MOVE %s out of turn (it is my move): ignored", text);
        return;
    }
    if (dm_game_over(d->ps.game)) {
        /* the peer plays on after the rules ended the game: now it is our turn */
        dm_reason r;
        dm_outcome o = dm_game_result(d->ps.game, &r);
        set_result(d, o, "%s", dm_reason_str(r));
        send_chat(d, "the game is over (%s): MOVE %s not played", dm_reason_str(r), text);
        logf_("game %d: MOVE %s after the end by the rules (%s)", d->game_no, text,
              dm_reason_str(r));
        send_gameend(d, reason_for(d, o));
        return;
    }
    dm_move mv;
    dm_error err;
    memset(&err, 0, sizeof err);
    dm_status st = dm_dxp_move_match(&mv, dm_game_board(d->ps.game), m, &err);
    if (st != DM_OK) {
        dm_game_forfeit(d->ps.game, peer_color(d));
        char t[200];
        snprintf(t, sizeof t, "forfeit: %s move", st == DM_EAMBIGUOUS ? "ambiguous" : "illegal");
        peer_loses(d, t, err.message);
        return;
    }
    if (dm_game_play(d->ps.game, &mv) != DM_OK) {
        complain(d, "MOVE %s: cannot be played", text);
        return;
    }
    press_after_peer(d);
}

static void on_gameend(dxp_driver *d, const dm_dxp_msg *m)
{
    if (m->stop == DM_DXP_STOP_SESSION) {
        d->stop = 1;
    }
    if (d->state == ST_WAIT_END) {
        /* the acknowledgement of ours */
        finish_game(d);
        next_step(d);
        return;
    }
    if (d->state != ST_PLAYING) {
        logf_("GAMEEND %d%d outside a game%s", m->reason, m->stop,
              d->stop ? ": the peer stops" : ": ignored");
        if (d->stop) {
            d->finished = 1;
        }
        return;
    }
    /* the peer ends the game: the rules' result when they decide it, else its reason */
    dm_reason r;
    dm_outcome o = dm_game_result(d->ps.game, &r);
    if (o != DM_OUTCOME_ONGOING) {
        set_result(d, o, "%s", dm_reason_str(r));
    } else if (m->reason == DM_DXP_END_I_LOSE) {
        dm_game_resign(d->ps.game, peer_color(d));
        set_result(d, win_for((dm_color)d->my_color), "resignation");
    } else if (m->reason == DM_DXP_END_DRAW) {
        dm_game_agree_draw(d->ps.game);
        set_result(d, DM_OUTCOME_DRAW, "draw claimed by the peer");
    } else if (m->reason == DM_DXP_END_I_WIN) {
        set_result(d, win_for(peer_color(d)), "win claimed by the peer");
    } else if (at_move_limit(d)) {
        adjudicate(d); /* Scan ends so when it cannot judge the position */
    } else {
        set_result(d, DM_OUTCOME_ONGOING, "ended by the peer without a result");
    }
    if (side_to_move(d) == d->my_color) {
        logf_("GAMEEND %d%d out of turn (it was my move): accepted", m->reason, m->stop);
    }
    dm_dxp_msg ack;
    dm_dxp_msg_init(&ack, DM_DXP_GAMEEND);
    ack.reason = DM_DXP_END_UNKNOWN;
    ack.stop = d->stop ? DM_DXP_STOP_SESSION : my_stop_code(d);
    if (ack.stop) {
        d->stop = 1;
    }
    send_msg(d, &ack);
    finish_game(d);
    next_step(d);
}

static void on_backreq(dxp_driver *d, const dm_dxp_msg *m)
{
    dm_dxp_msg k;
    dm_dxp_msg_init(&k, DM_DXP_BACKACC);
    k.back_code = DM_DXP_BACK_REFUSED;
    if (d->state != ST_PLAYING || dm_game_over(d->ps.game)) {
        logf_("BACKREQ %03d%c outside a game in progress: refused (BACKACC 2)", m->move_number,
              m->color == DM_WHITE ? 'W' : 'Z');
        send_msg(d, &k);
        return;
    }
    int start_black = dm_game_start(d->ps.game)->side == DM_BLACK;
    int ply = 2 * (m->move_number - 1) + (m->color == DM_BLACK) - start_black;
    int cur = dm_game_ply(d->ps.game);
    if (ply < 0 || ply > cur) {
        logf_("BACKREQ %03d%c points %s the game: refused (BACKACC 2)", m->move_number,
              m->color == DM_WHITE ? 'W' : 'Z', ply < 0 ? "before the start of" : "beyond");
        send_msg(d, &k);
        return;
    }
    while (dm_game_ply(d->ps.game) > ply) {
        dm_game_undo(d->ps.game);
    }
    /* each side keeps the time it has left; the clock runs for the side to move */
    dm_clock *c = NULL;
    if (dm_clock_new(&c, &d->ps.tc, NULL, NULL, NULL, NULL) == DM_OK) {
        if (d->ps.has_tc) {
            for (int s = 0; s < 2; s++) {
                int64_t left = dm_clock_remaining(d->ps.clock, (dm_color)s);
                dm_clock_set_remaining(c, (dm_color)s, left > 0 ? left : 1);
            }
        }
        dm_clock_free(d->ps.clock);
        d->ps.clock = c;
        dm_clock_start(c, (dm_color)side_to_move(d));
    }
    begin_turn(d);
    k.back_code = DM_DXP_BACK_ACCEPTED;
    logf_("BACKREQ %03d%c accepted: back to ply %d", m->move_number,
          m->color == DM_WHITE ? 'W' : 'Z', ply);
    send_msg(d, &k);
}

void dxp_driver_message(dxp_driver *d, const char *text, size_t len)
{
    if (d->finished) {
        return;
    }
    dm_dxp_msg m;
    dm_error err;
    memset(&err, 0, sizeof err);
    dm_status st = dm_dxp_parse(&m, text, len, &err);
    /* anything the peer sends shows it is alive */
    if (d->state == ST_IDLE) {
        d->deadline = d->cfg.idle_s > 0 ? now_ms() + 1000LL * d->cfg.idle_s : 0;
    }
    if (st != DM_OK) {
        if (m.type == DM_DXP_MOVE && d->state == ST_PLAYING && side_to_move(d) != d->my_color &&
            !dm_game_over(d->ps.game)) {
            dm_game_forfeit(d->ps.game, peer_color(d));
            peer_loses(d, "forfeit: malformed move", err.message);
            return;
        }
        if (m.type == DM_DXP_GAMEREQ && !d->cfg.initiator) {
            /* a GAMEREQ we cannot read: refused as this game (Moby Dam does so too) */
            complain(d, "%s", err.message);
            dm_dxp_msg acc;
            dm_dxp_msg_init(&acc, DM_DXP_GAMEACC);
            snprintf(acc.name, sizeof acc.name, "%s", d->my_name);
            acc.acceptance = DM_DXP_ACC_THIS_GAME;
            send_msg(d, &acc);
            return;
        }
        complain(d, "%s: ignored", err.message);
        return;
    }
    switch (m.type) {
    case DM_DXP_CHAT: logf_("chat from \"%s\": %s", d->peer_name, m.text); break;
    case DM_DXP_GAMEREQ: on_gamereq(d, &m); break;
    case DM_DXP_GAMEACC: on_gameacc(d, &m); break;
    case DM_DXP_MOVE: on_move(d, &m, text); break;
    case DM_DXP_GAMEEND: on_gameend(d, &m); break;
    case DM_DXP_BACKREQ: on_backreq(d, &m); break;
    case DM_DXP_BACKACC: complain(d, "BACKACC without a BACKREQ: ignored"); break;
    default: break;
    }
}

void dxp_driver_frame_error(dxp_driver *d, const char *what)
{
    if (!d->finished) {
        complain(d, "%s", what);
    }
}

/* ---- our turn -------------------------------------------------------------------------- */

int dxp_driver_our_turn(const dxp_driver *d)
{
    return !d->finished && d->state == ST_PLAYING && side_to_move(d) == d->my_color;
}

void dxp_driver_think(dxp_driver *d)
{
    if (!dxp_driver_our_turn(d)) {
        return;
    }
    dm_game *g = d->ps.game;
    dm_reason r;
    dm_outcome o = dm_game_result(g, &r);
    if (o != DM_OUTCOME_ONGOING) {
        set_result(d, o, "%s", dm_reason_str(r));
        send_gameend(d, reason_for(d, o));
        return;
    }
    dm_color who;
    if (d->ps.has_tc && dm_clock_flagged(d->ps.clock, &who) && (int)who == d->my_color) {
        dm_game_flag(g, (dm_color)d->my_color);
        set_result(d, win_for(peer_color(d)), "loss on time");
        send_gameend(d, DM_DXP_END_I_LOSE);
        return;
    }
    if (at_move_limit(d)) {
        send_gameend(d, reason_for(d, adjudicate(d)));
        return;
    }
    double t0 = cli_now();
    dm_info info;
    if (play_engine_choose(&info, &d->ps) != DM_OK || info.pv_count < 1) {
        logf_("game %d: the engine found no move", d->game_no);
        set_result(d, win_for(peer_color(d)), "no legal move");
        send_gameend(d, DM_DXP_END_I_LOSE);
        return;
    }
    int secs = (int)(cli_now() - t0 + 0.5);
    if (d->ps.has_tc && dm_clock_flagged(d->ps.clock, &who) && (int)who == d->my_color) {
        dm_game_flag(g, (dm_color)d->my_color);
        set_result(d, win_for(peer_color(d)), "loss on time");
        send_gameend(d, DM_DXP_END_I_LOSE);
        return;
    }
    dm_dxp_msg m;
    if (dm_dxp_move_from(&m, dm_game_board(g), &info.pv[0], secs) != DM_OK ||
        dm_game_play(g, &info.pv[0]) != DM_OK) {
        logf_("game %d: internal error: the engine's move is not legal", d->game_no);
        set_result(d, win_for(peer_color(d)), "forfeit");
        send_gameend(d, DM_DXP_END_I_LOSE);
        return;
    }
    send_msg(d, &m);
    if (dm_clock_press(d->ps.clock) != DM_OK) {
        dm_clock_set_remaining(d->ps.clock, (dm_color)d->my_color, 1);
        dm_clock_start(d->ps.clock, peer_color(d));
    }
    begin_turn(d);
}

/* ---- time ------------------------------------------------------------------------------ */

/* When the peer's turn runs out: its time left at the start of the turn, the grace
 * not used yet, or the idle limit without a clock. */
static int64_t peer_deadline(dxp_driver *d)
{
    if (!d->ps.has_tc) {
        return d->cfg.idle_s > 0 ? d->turn_start + 1000LL * d->cfg.idle_s : 0;
    }
    int64_t grace = 1000LL * d->cfg.grace_s - d->peer_overshoot;
    if (grace < 0) {
        grace = 0;
    }
    return d->turn_start + d->peer_budget + grace;
}

int dxp_driver_timeout_ms(dxp_driver *d)
{
    if (d->finished) {
        return -1;
    }
    int64_t dl = d->deadline;
    if (d->state == ST_PLAYING) {
        if (side_to_move(d) == d->my_color) {
            return 0;
        }
        dl = peer_deadline(d);
    }
    if (dl == 0) {
        return -1;
    }
    int64_t left = dl - now_ms();
    return left < 0 ? 0 : left > 1000000 ? 1000000 : (int)left;
}

void dxp_driver_tick(dxp_driver *d)
{
    if (d->finished) {
        return;
    }
    int64_t t = now_ms();
    switch (d->state) {
    case ST_PLAYING:
        if (side_to_move(d) != d->my_color) {
            int64_t dl = peer_deadline(d);
            dm_reason r;
            dm_outcome o = dm_game_result(d->ps.game, &r);
            if (dl && t >= dl && o != DM_OUTCOME_ONGOING) {
                /* the rules ended the game with our move and the peer says nothing */
                set_result(d, o, "%s", dm_reason_str(r));
                logf_("game %d: no GAMEEND from the peer after the end by the rules (%s)",
                      d->game_no, dm_reason_str(r));
                send_gameend(d, reason_for(d, o));
            } else if (dl && t >= dl) {
                char why[128];
                snprintf(why, sizeof why, "no move from \"%s\" within its time%s",
                         d->peer_name, d->ps.has_tc ? " and the grace" : " (idle limit)");
                dm_game_flag(d->ps.game, peer_color(d));
                peer_loses(d, "loss on time", why);
            }
        }
        break;
    case ST_WAIT_ACC:
        if (t >= d->deadline) {
            logf_("no GAMEACC within %d s: giving up", ACK_TIMEOUT_MS / 1000);
            d->failed = 1;
            d->finished = 1;
        }
        break;
    case ST_WAIT_END:
        if (t >= d->deadline) {
            logf_("no GAMEEND acknowledgement within %d s: the game is over anyway",
                  ACK_TIMEOUT_MS / 1000);
            finish_game(d);
            d->failed = 1;
            d->finished = 1;
        }
        break;
    default:
        if (d->deadline && t >= d->deadline) {
            logf_("nothing from the peer for %d s: closing", d->cfg.idle_s);
            d->finished = 1;
        }
        break;
    }
}

void dxp_driver_disconnected(dxp_driver *d, const char *why)
{
    if (d->state == ST_PLAYING) {
        set_result(d, DM_OUTCOME_ONGOING, "connection lost: %s", why);
        d->failed = 1;
    }
    if (d->state == ST_WAIT_ACC || (d->cfg.initiator && d->game_no < d->cfg.games && !d->stop)) {
        d->failed = 1;
    }
    if (d->game_open) {
        logf_("connection lost (%s) in game %d after %d plies: saving it", why, d->game_no,
              dm_game_ply(d->ps.game));
        finish_game(d);
    }
    d->finished = 1;
}

int dxp_driver_finished(const dxp_driver *d)
{
    return d->finished;
}

int dxp_driver_status(const dxp_driver *d)
{
    return d->failed || d->unfinished ? 1 : 0;
}

void dxp_driver_summary(const dxp_driver *d, FILE *f)
{
    fprintf(f, "match: games %d wins %d draws %d losses %d unfinished %d\n",
            d->wins + d->draws + d->losses + d->unfinished, d->wins, d->draws, d->losses,
            d->unfinished);
}
