/* SPDX-License-Identifier: MIT
 * apps/cli/dxp_driver.c: one DXP session as a state machine over a dm_session (the
 * game, its clock and the engine), the engine levels of play_engine.c and the DXP
 * codec; the policy is in dxp_driver.h. Every change of the game (a new game, a
 * move of either side, a back-take, a result) is a dm_session call, so the session's
 * clock is pressed and stopped by the game itself; the driver only adds what DXP
 * needs beyond it: the peer's grace beyond its flag and its deadlines. Log lines go
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
    ST_IDLE = 0, /* between games (the follower waits for GAMEREQ) */
    ST_WAIT_ACC, /* initiator: GAMEREQ sent, waiting for GAMEACC */
    ST_PLAYING,  /* a game in progress */
    ST_WAIT_END, /* our initial GAMEEND sent, waiting for its acknowledgement */
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
    play_session ps; /* the dm_session, time control, level, seed: play_engine.c's
                             view of it */
    int state;
    int my_color;
    char my_name[DM_DXP_NAME_LEN + 1];
    char peer_name[DM_DXP_NAME_LEN + 1];
    int time_ms, moves; /* this game's thinking time and move limit */
    int game_no;        /* games started (1-based number of the current one) */
    int stop;           /* a stop code 1 was sent or received */
    int finished, failed;
    int bad, chats;         /* bad messages received, error CHATs sent */
    int64_t deadline;       /* monotonic ms: the state's time limit (0 none) */
    int64_t turn_start;     /* when the peer's turn began */
    int64_t peer_budget;    /* the peer's time left at the start of its turn, ms */
    int64_t peer_overshoot; /* ms the peer has used beyond its time so far */
    /* the result of the current game once decided */
    char result[8];
    char termination[160];
    int wins, losses, draws, unfinished;
    int game_open; /* a game object exists that is not yet saved */
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

static const dm_game *game_of(const dxp_driver *d)
{
    return play_game(&d->ps);
}

static dm_clock *clock_of(const dxp_driver *d)
{
    return play_clock(&d->ps);
}

static int side_to_move(const dxp_driver *d)
{
    return dm_session_position(d->ps.session)->side;
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
    dm_session_options so = DM_SESSION_OPTIONS_INIT;
    so.engine.tt_mib = d->ps.level.level <= 5 ? 4 : d->ps.level.level <= 8 ? 32 : 128;
    dm_error err;
    memset(&err, 0, sizeof err);
    if (dm_session_create(&d->ps.session, &so, &err) != DM_OK) {
        fprintf(stderr, "damier dxp: cannot create the session: %s\n", err.message);
        free(d);
        return 1;
    }
    /* the table now, so that the first answer of a game does not pay for it */
    if (dm_session_prepare_engine(d->ps.session) != DM_OK) {
        fprintf(stderr, "damier dxp: cannot create the engine\n");
        dm_session_free(d->ps.session);
        free(d);
        return 1;
    }
    snprintf(d->my_name, sizeof d->my_name, "damier %s", DM_VERSION);
    snprintf(d->peer_name, sizeof d->peer_name, "?");
    *out = d;
    return 0;
}

void dxp_driver_free(dxp_driver *d)
{
    if (!d) {
        return;
    }
    dm_session_free(d->ps.session);
    free(d);
}

/* ---- the game record ---------------------------------------------------------------------- */

/* Append the game to the PDN file: the library's record of the session's game (tags,
 * FEN set-up, moves, its result), with the driver's own Termination (a forfeit's
 * reason, a claim, an adjudication's score, a lost connection). */
static void save_pdn(dxp_driver *d)
{
    if (!d->cfg.pdn_path) {
        return;
    }
    const char *names[2];
    names[d->my_color] = d->my_name;
    names[1 - d->my_color] = d->peer_name;
    char date[32], round[16];
    snprintf(round, sizeof round, "%d", d->game_no);
    dm_pdn_game_tags tags;
    play_record_tags(&tags, date, sizeof date, d->ps.started, names[DM_WHITE], names[DM_BLACK]);
    tags.event = "DXP match";
    tags.site = d->cfg.site ? d->cfg.site : "damier dxp";
    tags.round = round;
    tags.time_control = d->ps.has_tc ? &d->ps.tc : NULL;
    dm_pdn_game *rec = NULL;
    char *text = NULL;
    size_t len = 0;
    dm_status st = dm_pdn_from_game(&rec, game_of(d), &tags);
    if (st == DM_OK && d->termination[0]) {
        st = dm_pdn_game_set_tag(rec, "Termination", d->termination);
    }
    if (st == DM_OK) {
        const char *r = dm_pdn_game_tag(rec, "Result");
        if (r && strcmp(r, d->result) != 0) {
            logf_("internal error: game %d is %s in the record but %s here", d->game_no, r,
                  d->result);
        }
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
    dm_clock *c = clock_of(d);
    if (dm_clock_running(c, NULL)) {
        dm_clock_pause(c); /* a game left unfinished ("*"): its time stops here */
    }
    save_pdn(d);
    const char *names[2];
    names[d->my_color] = d->my_name;
    names[1 - d->my_color] = d->peer_name;
    printf("game: %d white \"%s\" black \"%s\" result %s plies %d termination \"%s\"\n", d->game_no,
           names[DM_WHITE], names[DM_BLACK], d->result, dm_game_ply(game_of(d)), d->termination);
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
    d->game_open = 0;
    d->state = ST_IDLE;
    d->deadline = d->cfg.idle_s > 0 ? now_ms() + 1000LL * d->cfg.idle_s : 0;
}

/* The peer's turn begins now: its deadline counts from here. */
static void begin_turn(dxp_driver *d)
{
    d->turn_start = now_ms();
    d->peer_budget = 0;
    if (d->ps.has_tc && d->game_open && side_to_move(d) != d->my_color) {
        d->peer_budget = dm_clock_remaining(clock_of(d), peer_color(d));
    }
}

/* ---- starting games -------------------------------------------------------------------- */

/* The side to move in b has no legal move. */
static int no_move(const dm_board *b)
{
    dm_movelist list;
    dm_movegen_legal(&list, b);
    return list.count == 0;
}

static int start_game(dxp_driver *d, const dm_board *start)
{
    d->game_open = 0;
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
    /* always a clock (without a time control it counts the time used), started by
     * the session for the side to move; the engine forgets the last game */
    dm_session_setup g = DM_SESSION_SETUP_INIT;
    g.start = start;
    g.white_tc = &d->ps.tc;
    dm_error err;
    memset(&err, 0, sizeof err);
    if (dm_session_new_game(d->ps.session, &g, &err) != DM_OK) {
        logf_("cannot start a game: %s", err.message);
        return 0;
    }
    d->ps.started = (long long)time(NULL);
    d->ps.who[d->my_color] = PLAY_ENGINE;
    d->ps.who[1 - d->my_color] = PLAY_HUMAN;
    d->game_open = 1;
    d->result[0] = 0;
    snprintf(d->result, sizeof d->result, "*");
    d->termination[0] = 0;
    d->peer_overshoot = 0;
    d->state = ST_PLAYING;
    begin_turn(d);
    char fen[512];
    dm_board_to_fen(fen, sizeof fen, start, 0);
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
    const dm_variant *intl = dm_variant_get(DM_VARIANT_INTERNATIONAL);
    dm_board_start(&m.position, intl);
    if (d->cfg.fen) {
        dm_board b;
        if (dm_board_from_fen(&b, intl, d->cfg.fen, NULL) == DM_OK) {
            dm_board initial;
            dm_board_start(&initial, intl);
            m.has_position = b.side != initial.side || memcmp(b.sq, initial.sq, sizeof b.sq) != 0;
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
    return d->moves > 0 && dm_game_ply(game_of(d)) >= 2 * d->moves;
}

/* The result at the move limit: a short search (play_engine_hint) from our side;
 * +-3.00 men or more is a win, else a draw. Sets the result, declares it to the
 * session (the loser resigns, or a draw is agreed) and returns it. */
static dm_outcome adjudicate(dxp_driver *d)
{
    dm_info info;
    int score = 0;
    if (play_engine_hint(&info, &d->ps, NULL, NULL) == DM_OK) {
        score = side_to_move(d) == d->my_color ? info.score : -info.score;
    }
    char sc[32];
    play_score_text(sc, sizeof sc, score);
    dm_outcome a = score >= 300    ? win_for((dm_color)d->my_color)
                   : score <= -300 ? win_for(peer_color(d))
                                   : DM_OUTCOME_DRAW;
    set_result(d, a, "adjudication after %d moves (score %s for %s)", d->moves, sc, d->my_name);
    if (a == DM_OUTCOME_DRAW) {
        dm_session_agree_draw(d->ps.session);
    } else {
        dm_session_resign(d->ps.session, a == win_for((dm_color)d->my_color)
                                             ? peer_color(d)
                                             : (dm_color)d->my_color);
    }
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
        snprintf(buf, sizeof buf, "GAMEREQ during game %d: refused, the game goes on", d->game_no);
        why = buf;
    } else if (dm_board_validate(&m->position, &err) != DM_OK) {
        snprintf(buf, sizeof buf, "GAMEREQ position refused: %s", err.message);
        why = buf;
    } else if (no_move(&m->position)) {
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
    const dm_variant *intl = dm_variant_get(DM_VARIANT_INTERNATIONAL);
    dm_board start;
    dm_board_start(&start, intl);
    if (d->cfg.fen) {
        dm_board_from_fen(&start, intl, d->cfg.fen, NULL);
    }
    if (!start_game(d, &start)) {
        d->failed = 1;
        d->finished = 1;
    }
}

/* The peer may overstep its time by the grace: a flag of the peer that has fallen in
 * its turn is lifted (1 ms left, the clock stopped) before the session sees its move
 * or its message, so that the session does not declare a loss on time the grace
 * forgives; the time beyond the flag is added to the peer's overshoot. The caller
 * starts our time after the peer's move (resume_after_peer). */
static void forgive_peer_flag(dxp_driver *d)
{
    dm_clock *c = clock_of(d);
    dm_color who;
    if (!d->ps.has_tc || !dm_clock_flagged(c, &who) || who != peer_color(d)) {
        return;
    }
    int64_t over = now_ms() - d->turn_start - d->peer_budget;
    d->peer_overshoot += over > 0 ? over : 0;
    dm_clock_set_remaining(c, peer_color(d), 1);
}

/* After the peer's move: the session pressed the clock, unless the peer's flag had
 * been lifted (the clock then stood): our time starts now. */
static void resume_after_peer(dxp_driver *d)
{
    dm_clock *c = clock_of(d);
    if (!dm_clock_running(c, NULL) && !dm_clock_paused(c) && !dm_game_over(game_of(d))) {
        dm_clock_start(c, (dm_color)side_to_move(d));
    }
}

/* The peer's time (with the grace) or the idle limit is over: it loses on time. With
 * a time control its clock is set to 0 so that the session declares the loss on time
 * (dm_session_result); without one (nothing can flag) it is a forfeit. */
static void peer_out_of_time(dxp_driver *d)
{
    if (d->ps.has_tc) {
        dm_clock_set_remaining(clock_of(d), peer_color(d), 0);
    }
    if (dm_session_result(d->ps.session, NULL) == DM_OUTCOME_ONGOING) {
        dm_session_forfeit(d->ps.session, peer_color(d));
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
    if (dm_game_over(game_of(d))) {
        /* the peer plays on after the rules ended the game: now it is our turn */
        dm_reason r;
        dm_outcome o = dm_game_result(game_of(d), &r);
        set_result(d, o, "%s", dm_reason_str(r));
        send_chat(d, "the game is over (%s): MOVE %s not played", dm_reason_str(r), text);
        logf_("game %d: MOVE %s after the end by the rules (%s)", d->game_no, text,
              dm_reason_str(r));
        send_gameend(d, reason_for(d, o));
        return;
    }
    dm_error err;
    memset(&err, 0, sizeof err);
    forgive_peer_flag(d);
    dm_move vmv;
    dm_status st = dm_dxp_move_match(&vmv, dm_session_position(d->ps.session), m, &err);
    if (st != DM_OK) {
        dm_session_forfeit(d->ps.session, peer_color(d));
        char t[200];
        snprintf(t, sizeof t, "forfeit: %s move", st == DM_EAMBIGUOUS ? "ambiguous" : "illegal");
        peer_loses(d, t, err.message);
        return;
    }
    if (dm_session_play(d->ps.session, &vmv, &err) != DM_OK) {
        complain(d, "MOVE %s: cannot be played: %s", text, err.message);
        return;
    }
    resume_after_peer(d);
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
    /* the peer ends the game: the rules' result when they decide it, else its reason
     * (declared to the session; a flag within the grace does not count) */
    if (side_to_move(d) != d->my_color) {
        forgive_peer_flag(d);
    }
    dm_reason r;
    dm_outcome o = dm_game_result(game_of(d), &r);
    if (o != DM_OUTCOME_ONGOING) {
        set_result(d, o, "%s", dm_reason_str(r));
    } else if (m->reason == DM_DXP_END_I_LOSE) {
        dm_session_resign(d->ps.session, peer_color(d));
        set_result(d, win_for((dm_color)d->my_color), "resignation");
    } else if (m->reason == DM_DXP_END_DRAW) {
        dm_session_agree_draw(d->ps.session);
        set_result(d, DM_OUTCOME_DRAW, "draw claimed by the peer");
    } else if (m->reason == DM_DXP_END_I_WIN) {
        dm_session_resign(d->ps.session, (dm_color)d->my_color); /* granted */
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
    if (d->state != ST_PLAYING || dm_game_over(game_of(d))) {
        logf_("BACKREQ %03d%c outside a game in progress: refused (BACKACC 2)", m->move_number,
              m->color == DM_WHITE ? 'W' : 'Z');
        send_msg(d, &k);
        return;
    }
    int start_black = dm_game_position_at(game_of(d), 0)->side == DM_BLACK;
    int ply = 2 * (m->move_number - 1) + (m->color == DM_BLACK) - start_black;
    int cur = dm_game_ply(game_of(d));
    if (ply < 0 || ply > cur) {
        logf_("BACKREQ %03d%c points %s the game: refused (BACKACC 2)", m->move_number,
              m->color == DM_WHITE ? 'W' : 'Z', ply < 0 ? "before the start of" : "beyond");
        send_msg(d, &k);
        return;
    }
    /* each side keeps the time it has left (a fallen flag is lifted: 1 ms); the
     * session's undo gives the clock to the side to move */
    dm_clock *c = clock_of(d);
    if (side_to_move(d) != d->my_color) {
        forgive_peer_flag(d);
    }
    if (d->ps.has_tc && dm_clock_remaining(c, (dm_color)d->my_color) <= 0) {
        dm_clock_set_remaining(c, (dm_color)d->my_color, 1);
    }
    while (dm_game_ply(game_of(d)) > ply && dm_session_undo(d->ps.session) == DM_OK) {
    }
    if (!dm_clock_running(c, NULL) && !dm_clock_paused(c)) {
        dm_clock_start(c, (dm_color)side_to_move(d)); /* it stood after a lifted flag */
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
            !dm_game_over(game_of(d))) {
            forgive_peer_flag(d);
            dm_session_forfeit(d->ps.session, peer_color(d));
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
        case DM_DXP_CHAT:
            logf_("chat from \"%s\": %s", d->peer_name, m.text);
            break;
        case DM_DXP_GAMEREQ:
            on_gamereq(d, &m);
            break;
        case DM_DXP_GAMEACC:
            on_gameacc(d, &m);
            break;
        case DM_DXP_MOVE:
            on_move(d, &m, text);
            break;
        case DM_DXP_GAMEEND:
            on_gameend(d, &m);
            break;
        case DM_DXP_BACKREQ:
            on_backreq(d, &m);
            break;
        case DM_DXP_BACKACC:
            complain(d, "BACKACC without a BACKREQ: ignored");
            break;
        default:
            break;
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

/* While the engine thinks (play_engine_choose's tick): stop when our flag falls. */
static int own_flag_fell(void *payload)
{
    dxp_driver *d = payload;
    dm_color who;
    return d->ps.has_tc && dm_clock_flagged(clock_of(d), &who) && (int)who == d->my_color;
}

/* The game is over in our turn (the rules, or our flag: dm_session_result declares a
 * fallen flag): 1 and our GAMEEND sent. */
static int over_in_our_turn(dxp_driver *d)
{
    dm_reason r;
    dm_outcome o = dm_session_result(d->ps.session, &r);
    if (o == DM_OUTCOME_ONGOING) {
        return 0;
    }
    set_result(d, o, "%s", dm_reason_str(r));
    send_gameend(d, reason_for(d, o));
    return 1;
}

/* We cannot play on (no move found, or an illegal one: a bug): we forfeit. */
static void we_forfeit(dxp_driver *d, const char *termination)
{
    dm_session_forfeit(d->ps.session, (dm_color)d->my_color);
    set_result(d, win_for(peer_color(d)), "%s", termination);
    send_gameend(d, DM_DXP_END_I_LOSE);
}

void dxp_driver_think(dxp_driver *d)
{
    if (!dxp_driver_our_turn(d)) {
        return;
    }
    if (over_in_our_turn(d)) {
        return;
    }
    if (at_move_limit(d)) {
        send_gameend(d, reason_for(d, adjudicate(d)));
        return;
    }
    /* the search runs on the session (its clock's budget, or the level's limits) */
    double t0 = cli_now();
    dm_info info;
    dm_status st = play_engine_choose(&info, &d->ps, own_flag_fell, d);
    int secs = (int)(cli_now() - t0 + 0.5);
    if (over_in_our_turn(d)) {
        return; /* our flag fell while the engine thought */
    }
    if (st != DM_OK || info.pv_count < 1) {
        logf_("game %d: the engine found no move", d->game_no);
        we_forfeit(d, "no legal move");
        return;
    }
    dm_dxp_msg m;
    dm_error err;
    memset(&err, 0, sizeof err);
    if (dm_dxp_move_from(&m, dm_session_position(d->ps.session), &info.pv[0], secs) != DM_OK ||
        dm_session_play(d->ps.session, &info.pv[0], &err) != DM_OK) {
        if (over_in_our_turn(d)) {
            return; /* the flag fell at the last moment */
        }
        logf_("game %d: internal error: the engine's move is not legal: %s", d->game_no,
              err.message);
        we_forfeit(d, "forfeit");
        return;
    }
    send_msg(d, &m);
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
                dm_outcome o = dm_game_result(game_of(d), &r);
                if (dl && t >= dl && o != DM_OUTCOME_ONGOING) {
                    /* the rules ended the game with our move and the peer says nothing */
                    set_result(d, o, "%s", dm_reason_str(r));
                    logf_("game %d: no GAMEEND from the peer after the end by the rules (%s)",
                          d->game_no, dm_reason_str(r));
                    send_gameend(d, reason_for(d, o));
                } else if (dl && t >= dl) {
                    char why[128];
                    snprintf(why, sizeof why, "no move from \"%s\" within its time%s", d->peer_name,
                             d->ps.has_tc ? " and the grace" : " (idle limit)");
                    peer_out_of_time(d);
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
              dm_game_ply(game_of(d)));
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
