/* SPDX-License-Identifier: MIT
 * apps/cli/play_engine.c: the engine as an opponent in `damier play`, every variant:
 * levels, moves chosen on the engine's own clock, hints, and answering draw offers.
 * Moves and lines are generic (dm_move, dm_info); the searches are the session's
 * (dm_session_go) and dm_engine_search, which searches an international
 * position exactly as dm_engine_search does (trained evaluation, endgame database).
 *
 * Levels (depth = nominal search depth; margin in hundredths of a man):
 *
 *     level   depth  time/move  margin   idea
 *       1       1        -       200     beginner: anything not losing 2 men at once
 *       2       2        -       120
 *       3       3        -        70
 *       4       4        -        40
 *       5       6        -        20     club player who still slips
 *       6       -      0.5 s       0     best move from here on, on the time alone
 *       7       -      1 s         0     (a depth cap made levels 6-8 answer in
 *       8       -      2 s         0      0.1 s: depth 8-14 is reached long before
 *       9       -      4 s         0      the time is up)
 *      10       -      8 s         0     full strength (only the clock limits it)
 *
 * With a margin every legal root move is searched (depth - 1 after the move) and one
 * of the moves within margin of the best is drawn with the session's seeded
 * generator, so a game is reproducible with --seed. Levels 1-5 use no time limit at
 * all, which keeps them deterministic. A time control (--time) adds the clock's
 * budget (remaining time, increment, moves to go) to the searches of levels 6-10.
 *
 * Those searches run on the session's thread (dm_session_go): this thread meanwhile
 * keeps the clocks moving on screen, shows the engine's line as it deepens, and
 * stops the search when a flag falls or a signal comes. The searches of levels 1-5
 * (every root move at a small depth) and of a draw offer are short and run here, on
 * the session's engine. */
#define _POSIX_C_SOURCE 200809L
#include "cli_i18n.h"
#include "play.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const play_level levels[10] = {
    {1, 1, 0, 200}, {2, 2, 0, 120}, {3, 3, 0, 70},  {4, 4, 0, 40},  {5, 6, 0, 20},
    {6, 0, 0.5, 0}, {7, 0, 1.0, 0}, {8, 0, 2.0, 0}, {9, 0, 4.0, 0}, {10, 0, 8.0, 0},
};

void play_level_get(play_level *out, int level)
{
    if (level < 1) {
        level = 1;
    }
    if (level > 10) {
        level = 10;
    }
    *out = levels[level - 1];
}

uint64_t play_random(play_session *s)
{
    uint64_t x = s->rng ? s->rng : 0x9e3779b97f4a7c15ull;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    s->rng = x;
    return x * 0x2545f4914f6cdd1dull;
}

/* The legal moves of b in the order `damier moves` lists them (malloc'd; NULL when out
 * of memory): the seeded draw among them does not depend on the generator's order. */
static dm_movelist *sorted_moves(const dm_board *b)
{
    dm_movelist *list = malloc(sizeof *list);
    if (list) {
        dm_movegen_legal(list, b);
        cmd_sort_vmoves(b->variant, list->moves, list->count);
    }
    return list;
}

static int legal_count(const dm_board *b)
{
    dm_movelist *list = sorted_moves(b);
    int n = list ? list->count : 0;
    free(list);
    return n;
}

/* Score every root move at depth - 1 and draw one within the margin. */
static dm_status choose_imperfect(dm_info *info, play_session *s)
{
    const dm_game *g = play_game(s);
    const dm_board *root = dm_game_position(g);
    const dm_variant *v = root->variant;
    dm_engine *engine = dm_session_engine(s->session);
    if (!engine) {
        return DM_ENOMEM;
    }
    int ply = dm_game_ply(g);
    dm_movelist *list = sorted_moves(root);
    /* the game's positions and moves with room for one more of each: the draw rules
     * judge each child as the game would after that move */
    dm_board *pos = malloc((size_t)(ply + 2) * sizeof *pos);
    dm_move *moves = malloc((size_t)(ply + 1) * sizeof *moves);
    struct scored {
        int score;
        int depth;
        int npv; /* the move, the reply, the move after */
        dm_move pv[3];
        uint64_t nodes;
    } *sc = list ? malloc((size_t)(list->count ? list->count : 1) * sizeof *sc) : NULL;
    if (!list || !pos || !moves || !sc) {
        free(list);
        free(pos);
        free(moves);
        free(sc);
        return DM_ENOMEM;
    }
    for (int i = 0; i <= ply; i++) {
        pos[i] = *dm_game_position_at(g, i);
        if (i < ply) {
            moves[i] = *dm_game_move_at(g, i);
        }
    }
    uint64_t hist[DM_ENGINE_MAX_HISTORY + 1];
    dm_search_input in;
    dm_search_input_from_game(&in, hist, DM_ENGINE_MAX_HISTORY, g);
    int base = in.history_count < DM_ENGINE_MAX_HISTORY ? in.history_count : DM_ENGINE_MAX_HISTORY;
    dm_status st = DM_OK;
    int best = -2 * DM_SCORE_WIN;
    for (int i = 0; i < list->count; i++) {
        const dm_move *m = &list->moves[i];
        struct scored *x = &sc[i];
        memset(x, 0, sizeof *x);
        x->pv[0] = *m;
        x->npv = 1;
        x->depth = 1;
        dm_board child = *root;
        dm_board_apply(&child, m);
        pos[ply + 1] = child;
        moves[ply] = *m;
        dm_draw_count c;
        dm_variant_draw_step(&c, &in.draw_count, &v->draw, root, m);
        dm_board_result over = dm_variant_result(&child);
        if (over != DM_BOARD_RESULT_NONE) { /* the reply has no move: the rules decide */
            int mover_wins = (over == DM_BOARD_RESULT_WHITE_WINS) == (root->side == DM_WHITE);
            x->score = mover_wins ? DM_SCORE_WIN - 1 : -(DM_SCORE_WIN - 1);
        } else if (dm_variant_draw(&v->draw, pos, moves, ply + 1, NULL, 0) != DM_DRAW_NONE) {
            x->score = 0;
        } else {
            /* earlier positions the child can repeat: none after a man move or capture,
             * else the game's plus the root */
            int n = 0;
            if (c.reversible_plies > 0) {
                n = base;
                hist[n++] = dm_board_hash(root);
            }
            dm_search_input cin;
            memset(&cin, 0, sizeof cin);
            cin.root = child;
            cin.history = hist;
            cin.history_count = n;
            cin.draw_count = c;
            dm_limits lim;
            memset(&lim, 0, sizeof lim);
            lim.depth = s->level.depth > 1 ? s->level.depth - 1 : 1;
            lim.analyse = 1; /* a forced reply (one capture) must be searched too */
            dm_result r;
            st = dm_engine_search(&r, engine, &cin, &lim, NULL, NULL, NULL);
            if (st != DM_OK) {
                break;
            }
            if (!r.has_move) {
                x->score = DM_SCORE_WIN - 1;
            } else {
                x->score = -r.score;
                x->pv[x->npv++] = r.best;
                if (r.has_ponder) {
                    x->pv[x->npv++] = r.ponder;
                }
                x->depth = r.depth + 1;
                x->nodes = r.nodes;
            }
        }
        if (x->score > best) {
            best = x->score;
        }
        if (play_interrupted()) {
            break; /* the caller saves and stops; any move will do */
        }
    }
    int count = st == DM_OK ? list->count : 0;
    /* The candidates: within the margin of the best; but a forced win is never thrown
     * away and a forced loss never chosen when something else exists. */
    int margin = best >= DM_SCORE_WIN_MIN ? 0 : s->level.margin;
    int nc = 0;
    int *cand = malloc((size_t)(count ? count : 1) * sizeof *cand);
    for (int i = 0; cand && i < count; i++) {
        if (sc[i].score < best - margin) {
            continue;
        }
        if (sc[i].score <= -DM_SCORE_WIN_MIN && best > -DM_SCORE_WIN_MIN) {
            continue;
        }
        cand[nc++] = i;
    }
    if (st == DM_OK && nc == 0) {
        st = cand ? DM_ESTATE : DM_ENOMEM;
    }
    if (st == DM_OK) {
        const struct scored *x = &sc[cand[play_random(s) % (uint64_t)nc]];
        memset(info, 0, sizeof *info);
        info->score = x->score;
        info->depth = x->depth;
        info->nodes = x->nodes;
        info->pv_count = x->npv;
        memcpy(info->pv, x->pv, (size_t)x->npv * sizeof x->pv[0]);
    }
    free(cand);
    free(sc);
    free(moves);
    free(pos);
    free(list);
    return st;
}

/* A short search of the current position here, on the session's engine. */
static dm_status search_best(dm_info *info, play_session *s, const dm_limits *lim)
{
    dm_engine *engine = dm_session_engine(s->session);
    if (!engine) {
        return DM_ENOMEM;
    }
    uint64_t hist[DM_ENGINE_MAX_HISTORY];
    dm_search_input in;
    dm_search_input_from_game(&in, hist, DM_ENGINE_MAX_HISTORY, play_game(s));
    dm_result r;
    dm_status st = dm_engine_search(&r, engine, &in, lim, NULL, NULL, NULL);
    if (st != DM_OK) {
        return st;
    }
    if (!r.has_move) {
        return DM_ESTATE;
    }
    memset(info, 0, sizeof *info);
    info->depth = r.depth;
    info->score = r.score;
    info->nodes = r.nodes;
    info->time = r.time;
    info->pv[0] = r.best;
    info->pv_count = 1;
    if (r.has_ponder) {
        info->pv[1] = r.ponder;
        info->pv_count = 2;
    }
    return DM_OK;
}

/* The last iteration of the session's search, written on its thread, read here. */
typedef struct pv_keeper {
    pthread_mutex_t lock;
    dm_board root;
    dm_info last;
    int seq; /* iterations seen */
} pv_keeper;

static void keep_pv(const dm_info *info, void *payload)
{
    pv_keeper *k = payload;
    pthread_mutex_lock(&k->lock);
    k->last = *info;
    k->seq++;
    pthread_mutex_unlock(&k->lock);
}

static int same_vmove(const dm_move *a, const dm_move *b)
{
    return a->from == b->from && a->to == b->to && a->capt[0] == b->capt[0] &&
           a->capt[1] == b->capt[1];
}

/* Search the current position on the session's thread within lim (and the clock's
 * budget when use_clock); meanwhile tick every 100 ms (after 1, 2, 4, ... ms at first,
 * so that a search of a few milliseconds is not held for 100: the DXP follower
 * answered every move in exactly 0.1 s) and show the line as it deepens (tty). The
 * last iteration's PV is longer than best + ponder: it is kept when it starts with
 * the move chosen. */
static dm_status search_with_pv(dm_info *info, play_session *s, const dm_limits *lim, int use_clock,
                                play_tick_fn tick, void *payload)
{
    pv_keeper k;
    memset(&k, 0, sizeof k);
    pthread_mutex_init(&k.lock, NULL);
    k.root = *dm_game_position(play_game(s));
    dm_session_go_options go = DM_SESSION_GO_INIT;
    go.limits = *lim;
    go.use_clock = use_clock;
    go.on_info = keep_pv;
    go.payload = &k;
    dm_error err;
    dm_status st = dm_session_go(s->session, &go, &err);
    if (st != DM_OK) {
        pthread_mutex_destroy(&k.lock);
        return st;
    }
    int shown = 0, stopped = 0;
    long pause_ms = 1;
    while (dm_session_searching(s->session)) {
        struct timespec pause = {0, pause_ms * 1000 * 1000};
        nanosleep(&pause, NULL);
        pause_ms = pause_ms < 64 ? pause_ms * 2 : 100;
        if (!stopped && (play_interrupted() || (tick && tick(payload)))) {
            dm_session_stop(s->session);
            stopped = 1;
        }
        pthread_mutex_lock(&k.lock);
        int seq = k.seq;
        pthread_mutex_unlock(&k.lock);
        if (s->ui.tty && seq != shown && !stopped) {
            dm_info now;
            pthread_mutex_lock(&k.lock);
            now = k.last;
            pthread_mutex_unlock(&k.lock);
            /* progress on the line under the board while the engine thinks */
            char sc[32], pv[160];
            play_score_text(sc, sizeof sc, now.score);
            play_pv_text(pv, sizeof pv, &k.root, now.pv, now.pv_count < 8 ? now.pv_count : 8);
            fprintf(s->out, "\r\033[2Kthinking: depth %d  score %s  %s", now.depth, sc, pv);
            fflush(s->out);
            shown = seq;
        }
    }
    dm_result r;
    st = dm_session_wait(s->session, &r);
    pthread_mutex_destroy(&k.lock);
    if (st != DM_OK) {
        return st;
    }
    if (!r.has_move) {
        return DM_ESTATE;
    }
    if (k.seq > 0 && k.last.pv_count > 0 && same_vmove(&k.last.pv[0], &r.best)) {
        *info = k.last;
    } else {
        memset(info, 0, sizeof *info);
        info->pv[0] = r.best;
        info->pv_count = 1;
        if (r.has_ponder) {
            info->pv[1] = r.ponder;
            info->pv_count = 2;
        }
    }
    info->depth = r.depth;
    info->score = r.score;
    info->nodes = r.nodes;
    info->time = r.time;
    return DM_OK;
}

dm_status play_engine_choose(dm_info *info, play_session *s, play_tick_fn tick, void *payload)
{
    if (legal_count(dm_game_position(play_game(s))) == 0) {
        return DM_ESTATE;
    }
    if (s->level.margin > 0) {
        return choose_imperfect(info, s);
    }
    dm_limits lim;
    memset(&lim, 0, sizeof lim);
    lim.depth = s->level.depth;
    lim.move_time = s->level.move_time;
    return search_with_pv(info, s, &lim, s->has_tc, tick, payload);
}

dm_status play_engine_hint(dm_info *info, play_session *s, play_tick_fn tick, void *payload)
{
    if (legal_count(dm_game_position(play_game(s))) == 0) {
        return DM_ESTATE;
    }
    /* A hint is worth a good search, but nobody should wait for it: depth 8 at least
     * (deterministic), at most a second beyond that. */
    dm_limits lim;
    memset(&lim, 0, sizeof lim);
    lim.depth = s->level.depth > 8 ? s->level.depth : 8;
    lim.analyse = 1;
    if (s->level.move_time > 0 || s->level.depth == 0) {
        lim.move_time = 1.0;
    }
    return search_with_pv(info, s, &lim, 0, tick, payload);
}

/* "Dead": nothing much can still happen. An ending of one of the variant's material
 * draw rules (the FMJD 16- and 5-move endings), kings on both sides, or at most 8
 * pieces left with equal numbers. */
static int position_dead(const dm_game *g)
{
    dm_draw_count dc;
    dm_game_draw_count(&dc, g);
    if (dc.material_plies >= 0) {
        return 1;
    }
    const dm_board *b = dm_game_position(g);
    int men[2] = {0, 0}, kings[2] = {0, 0};
    for (int sq = 1; sq <= b->variant->squares; sq++) {
        dm_piece p = dm_board_piece(b, sq);
        if (p == DM_WHITE_MAN || p == DM_BLACK_MAN) {
            men[p == DM_BLACK_MAN]++;
        } else if (p == DM_WHITE_KING || p == DM_BLACK_KING) {
            kings[p == DM_BLACK_KING]++;
        }
    }
    if (kings[0] > 0 && kings[1] > 0) {
        return 1;
    }
    int w = men[0] + kings[0], bl = men[1] + kings[1];
    return w + bl <= 8 && w == bl;
}

int play_engine_accepts_draw(play_session *s, char *why, size_t cap)
{
    if (!position_dead(play_game(s))) {
        snprintf(why, cap, "%s", _("the position is still alive"));
        return 0;
    }
    dm_limits lim;
    memset(&lim, 0, sizeof lim);
    lim.depth = 8;
    lim.move_time = 1.0;
    lim.analyse = 1;
    dm_info info;
    if (search_best(&info, s, &lim) != DM_OK) {
        snprintf(why, cap, "%s", _("no move to search"));
        return 0;
    }
    int a = info.score < 0 ? -info.score : info.score;
    char sc[32];
    play_score_text(sc, sizeof sc, info.score);
    if (a > 20) {
        snprintf(why, cap, _("the engine's evaluation is %s"), sc);
        return 0;
    }
    snprintf(why, cap, _("level position (%s) and nothing left to play for"), sc);
    return 1;
}
