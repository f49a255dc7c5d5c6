/* SPDX-License-Identifier: MIT
 * apps/serve/srv_puzzles.c: the puzzle trainer of `damier serve` (issue 19): the
 * puzzles of a PDN file (`--puzzles FILE`, what `damier puzzles gen` writes:
 * docs/PUZZLES.md) read at the start, each solver's move checked by the server
 * against the solution line, a puzzle rating (Glicko-2) per account and per puzzle,
 * a daily puzzle. docs/WEB.md "Puzzles".
 *
 * A move is right when it is the solution's or leads to the same position (another
 * capture path to the same result); the first move of a puzzle of the recipe is the
 * unique win, so no other first move wins. An account's first attempt at a puzzle,
 * solved or failed, is a game between the account and the puzzle: both ratings move
 * (one rating period each), once. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <civetweb.h>
#include <sodium.h>

#include <damier/game.h>
#include <damier/pdn.h>
#include <damier/puzzle.h>
#include <damier/rating.h>

#include "srv_community_int.h"

#define PUZZLE_RD0 200.0 /* the deviation of a puzzle's first rating (the generator's estimate) */
#define MAX_PUZZLES 100000
#define MAX_PUZZLE_FILE (64 << 20)

typedef struct srv_puzzle {
    char id[20]; /* hex of a hash of the FEN and the first move: the same puzzle keeps its
                    id (and rating) when the file is made again */
    char fen[128];
    dm_board start; /* an international position */
    int n;          /* moves in line */
    dm_move line[DM_PUZZLE_MAX_LINE];
    int rating0; /* [Rating], else 1500 */
    char themes[96];
    char source[160];
} srv_puzzle;

struct srv_puzzles {
    srv_puzzle *p;
    int n;
};

void srv_puzzles_free(srv_community *c)
{
    if (c->puzzles) {
        free(c->puzzles->p);
        free(c->puzzles);
        c->puzzles = NULL;
    }
}

static void puzzle_id(srv_puzzle *p)
{
    char first[200] = "";
    dm_move_to_text(first, sizeof first, &p->start, &p->line[0], DM_NOTATION_HUB,
                    DM_SQUARES_DEFAULT);
    unsigned char h[8];
    crypto_generichash_state st;
    crypto_generichash_init(&st, NULL, 0, sizeof h);
    crypto_generichash_update(&st, (const unsigned char *)p->fen, strlen(p->fen));
    crypto_generichash_update(&st, (const unsigned char *)" ", 1);
    crypto_generichash_update(&st, (const unsigned char *)first, strlen(first));
    crypto_generichash_final(&st, h, sizeof h);
    srv_hex(p->id, h, sizeof h);
}

int srv_puzzles_load(srv *s, const char *path, char *err, size_t errcap)
{
    srv_community *c = srv_comm(s);
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errcap, "--puzzles %s: cannot be read", path);
        return -1;
    }
    char *text = malloc(MAX_PUZZLE_FILE + 1);
    size_t len = text ? fread(text, 1, MAX_PUZZLE_FILE + 1, f) : 0;
    fclose(f);
    if (!text || len > MAX_PUZZLE_FILE) {
        free(text);
        snprintf(err, errcap, "--puzzles %s: larger than %d MiB", path, MAX_PUZZLE_FILE >> 20);
        return -1;
    }
    struct srv_puzzles *pz = calloc(1, sizeof *pz);
    dm_pdn_reader *rd = NULL;
    if (!pz || dm_pdn_reader_new(&rd, text, len, path) != DM_OK) {
        free(pz);
        free(text);
        snprintf(err, errcap, "out of memory");
        return -1;
    }
    int cap = 0, skipped = 0;
    for (;;) {
        dm_pdn_game *rec = NULL;
        dm_error e;
        memset(&e, 0, sizeof e);
        dm_status st = dm_pdn_reader_next(&rec, rd, &e);
        if (st == DM_OK && !rec) {
            break;
        }
        dm_game *gm = NULL;
        if (st != DM_OK || !dm_pdn_game_fen(rec) || dm_pdn_to_game(&gm, rec, 0, &e) != DM_OK ||
            dm_game_variant(gm) != dm_variant_get(DM_VARIANT_INTERNATIONAL) ||
            dm_game_ply(gm) < 1 || pz->n >= MAX_PUZZLES) {
            skipped++; /* not a puzzle of international draughts that replays */
            dm_game_free(gm);
            dm_pdn_game_free(rec);
            continue;
        }
        if (pz->n == cap) {
            cap = cap ? 2 * cap : 64;
            srv_puzzle *a = realloc(pz->p, sizeof *a * (size_t)cap);
            if (!a) {
                dm_game_free(gm);
                dm_pdn_game_free(rec);
                break;
            }
            pz->p = a;
        }
        srv_puzzle *p = &pz->p[pz->n];
        memset(p, 0, sizeof *p);
        p->start = *dm_game_position_at(gm, 0);
        dm_board_to_fen(p->fen, sizeof p->fen, &p->start, 0);
        p->n = dm_game_ply(gm) < DM_PUZZLE_MAX_LINE ? dm_game_ply(gm) : DM_PUZZLE_MAX_LINE;
        if (!(p->n & 1)) {
            p->n--; /* the line ends with a move of the solver */
        }
        for (int i = 0; i < p->n; i++) {
            p->line[i] = *dm_game_move_at(gm, i);
        }
        const char *r = dm_pdn_game_tag(rec, "Rating");
        p->rating0 = r ? atoi(r) : 0;
        if (p->rating0 < 100 || p->rating0 > 4000) {
            p->rating0 = 1500;
        }
        const char *th = dm_pdn_game_tag(rec, "Theme");
        snprintf(p->themes, sizeof p->themes, "%s", th ? th : "");
        const char *src = dm_pdn_game_tag(rec, "Source");
        snprintf(p->source, sizeof p->source, "%s", src ? src : "");
        srv_utf8_fix(p->themes);
        srv_utf8_fix(p->source);
        puzzle_id(p);
        pz->n++;
        dm_game_free(gm);
        dm_pdn_game_free(rec);
    }
    dm_pdn_reader_free(rd);
    free(text);
    if (pz->n == 0) {
        free(pz->p);
        free(pz);
        snprintf(err, errcap, "--puzzles %s: no puzzle of international draughts (%d skipped)",
                 path, skipped);
        return -1;
    }
    c->puzzles = pz;
    if (!s->opt.quiet) {
        fprintf(stderr, "damier serve: %d puzzles from %s (%d records skipped)\n", pz->n, path,
                skipped);
    }
    return 0;
}

/* ---- ratings -------------------------------------------------------------------------- */

/* The puzzle's rating, its first one when none is stored; under the database's lock. */
static void puzzle_rating(sqlite3 *db, const srv_puzzle *p, dm_glicko *g, int *attempts,
                          int *solved)
{
    g->rating = p->rating0;
    g->rd = PUZZLE_RD0;
    g->vol = 0.06;
    *attempts = *solved = 0;
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(db,
                           "SELECT rating, rd, vol, attempts, solved FROM puzzle_ratings WHERE "
                           "puzzle=?",
                           -1, &st, NULL) == SQLITE_OK) {
        sqlite3_bind_text(st, 1, p->id, -1, SQLITE_TRANSIENT);
        if (sqlite3_step(st) == SQLITE_ROW) {
            g->rating = sqlite3_column_double(st, 0);
            g->rd = sqlite3_column_double(st, 1);
            g->vol = sqlite3_column_double(st, 2);
            *attempts = sqlite3_column_int(st, 3);
            *solved = sqlite3_column_int(st, 4);
        }
    }
    sqlite3_finalize(st);
}

/* One statement: ?s bound in order to account (if not 0), puzzle (if not NULL), g's
 * three values (if not NULL), a, then the wall clock. */
static int step_sql(sqlite3 *db, const char *sql, int64_t account, const char *puzzle,
                    const dm_glicko *g, int a)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
        return -1;
    }
    int k = 1;
    if (account) {
        sqlite3_bind_int64(st, k++, account);
    }
    if (puzzle) {
        sqlite3_bind_text(st, k++, puzzle, -1, SQLITE_TRANSIENT);
    }
    if (g) {
        sqlite3_bind_double(st, k++, g->rating);
        sqlite3_bind_double(st, k++, g->rd);
        sqlite3_bind_double(st, k++, g->vol);
    }
    sqlite3_bind_int(st, k++, a);
    sqlite3_bind_int64(st, k++, srv_wall_ms());
    int rc = sqlite3_step(st) == SQLITE_DONE ? 0 : -1;
    sqlite3_finalize(st);
    return rc;
}

/* The first attempt of account at p, solved or not: both ratings; *out the account's
 * before and after (0 when it was not the first attempt). 0 or -1. */
static int rate_attempt(srv *s, int64_t account, const srv_puzzle *p, int solved, int out[2])
{
    out[0] = out[1] = 0;
    sqlite3 *db = srv_db_sqlite(s->db);
    srv_db_lock(s->db);
    int rc = sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL) == SQLITE_OK ? 0 : -1;
    int first = 0;
    if (rc == 0) {
        rc = step_sql(db, "INSERT OR IGNORE INTO puzzle_attempts VALUES(?,?,?,?)", account, p->id,
                      NULL, solved);
        first = rc == 0 && sqlite3_changes(db) == 1;
    }
    if (rc == 0 && first) {
        dm_glicko u, pr, u2, pr2;
        int games, attempts, nsolved;
        srv_rating_get(db, account, "puzzle", &u, &games);
        puzzle_rating(db, p, &pr, &attempts, &nsolved);
        dm_glicko_game gu = {pr.rating, pr.rd, solved ? 1.0 : 0.0};
        dm_glicko_game gp = {u.rating, u.rd, solved ? 0.0 : 1.0};
        if (dm_glicko_update(&u2, &u, &gu, 1, DM_GLICKO_TAU, NULL) != DM_OK ||
            dm_glicko_update(&pr2, &pr, &gp, 1, DM_GLICKO_TAU, NULL) != DM_OK) {
            rc = -1;
        }
        if (rc == 0) {
            rc = step_sql(db,
                          "INSERT INTO ratings(account_id, kind, rating, rd, vol, games, updated) "
                          "VALUES(?,'puzzle',?,?,?,?,?) ON CONFLICT(account_id, kind) DO UPDATE "
                          "SET rating=excluded.rating, rd=excluded.rd, vol=excluded.vol, "
                          "games=excluded.games, updated=excluded.updated",
                          account, NULL, &u2, games + 1);
        }
        sqlite3_stmt *st = NULL;
        if (rc == 0 &&
            sqlite3_prepare_v2(db, "INSERT OR REPLACE INTO puzzle_ratings VALUES(?,?,?,?,?,?,?)",
                               -1, &st, NULL) == SQLITE_OK) {
            sqlite3_bind_text(st, 1, p->id, -1, SQLITE_TRANSIENT);
            sqlite3_bind_double(st, 2, pr2.rating);
            sqlite3_bind_double(st, 3, pr2.rd);
            sqlite3_bind_double(st, 4, pr2.vol);
            sqlite3_bind_int(st, 5, attempts + 1);
            sqlite3_bind_int(st, 6, nsolved + solved);
            sqlite3_bind_int64(st, 7, srv_wall_ms());
            rc = sqlite3_step(st) == SQLITE_DONE ? 0 : -1;
        } else {
            rc = -1;
        }
        sqlite3_finalize(st);
        out[0] = (int)(u.rating + 0.5);
        out[1] = (int)(u2.rating + 0.5);
    }
    if (rc == 0) {
        rc = sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) == SQLITE_OK ? 0 : -1;
    }
    if (rc != 0) {
        sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
        out[0] = out[1] = 0;
    }
    srv_db_unlock(s->db);
    return rc;
}

/* ---- the answers ------------------------------------------------------------------------ */

/* The legal moves of b as the analysis board has them (srv_op_position's MOVEs). */
static json_t *legal_of(const dm_board *b)
{
    char fen[512];
    dm_board_to_fen(fen, sizeof fen, b, b->variant->algebraic);
    srv_reply r = {0, NULL};
    srv_op_position(b->variant->name, fen, NULL, &r);
    json_t *legal = json_incref(json_object_get(r.body, "legal"));
    json_decref(r.body);
    return legal ? legal : json_array();
}

/* m on b as a MOVE ({text, hub, path, captured}). */
static json_t *move_of(const dm_board *b, const dm_move *m)
{
    char hub[200];
    dm_move_to_text(hub, sizeof hub, b, m, DM_NOTATION_HUB, DM_SQUARES_DEFAULT);
    json_t *legal = legal_of(b);
    size_t i;
    json_t *v, *out = NULL;
    json_array_foreach(legal, i, v)
    {
        const char *h = srv_json_str(v, "hub");
        if (h && !strcmp(h, hub)) {
            out = json_incref(v);
        }
    }
    json_decref(legal);
    return out ? out : json_pack("{s:s}", "hub", hub);
}

static json_t *solution_json(const srv_puzzle *p)
{
    json_t *a = json_array();
    dm_board b = p->start;
    for (int i = 0; i < p->n; i++) {
        char t[200];
        dm_move_to_text(t, sizeof t, &b, &p->line[i], DM_NOTATION_PDN, DM_SQUARES_DEFAULT);
        json_array_append_new(a, json_string(t));
        dm_board_apply(&b, &p->line[i]);
    }
    return a;
}

static json_t *puzzle_json(srv *s, const srv_puzzle *p)
{
    dm_glicko g;
    int attempts, solved;
    srv_db_lock(s->db);
    puzzle_rating(srv_db_sqlite(s->db), p, &g, &attempts, &solved);
    srv_db_unlock(s->db);
    return json_pack("{s:s,s:s,s:s,s:i,s:s,s:i,s:s,s:i,s:i,s:o}", "id", p->id, "fen", p->fen,
                     "turn", p->start.side == DM_WHITE ? "white" : "black", "rating",
                     (int)(g.rating + 0.5), "themes", p->themes, "moves", (p->n + 1) / 2, "source",
                     p->source, "attempts", attempts, "solved", solved, "legal",
                     legal_of(&p->start));
}

static const srv_puzzle *find_puzzle(const struct srv_puzzles *pz, const char *id)
{
    for (int i = 0; i < pz->n; i++) {
        if (!strcmp(pz->p[i].id, id)) {
            return &pz->p[i];
        }
    }
    return NULL;
}

static int daily_index(const struct srv_puzzles *pz)
{
    return (int)((srv_wall_ms() / (24 * 3600 * 1000LL)) % pz->n);
}

/* The next puzzle for the account: one not tried yet, the closest to its puzzle rating;
 * for a visitor the one after `after` in the file. */
static const srv_puzzle *next_puzzle(srv *s, const struct srv_puzzles *pz, const srv_account *a,
                                     const char *after)
{
    if (!a->id) {
        const srv_puzzle *prev = after[0] ? find_puzzle(pz, after) : NULL;
        return prev ? &pz->p[(prev - pz->p + 1) % pz->n] : &pz->p[0];
    }
    sqlite3 *db = srv_db_sqlite(s->db);
    dm_glicko u;
    int games;
    srv_db_lock(s->db);
    srv_rating_get(db, a->id, "puzzle", &u, &games);
    sqlite3_stmt *st = NULL;
    sqlite3_prepare_v2(db, "SELECT 1 FROM puzzle_attempts WHERE account_id=? AND puzzle=?", -1, &st,
                       NULL);
    const srv_puzzle *best = NULL;
    double bestd = 1e18;
    for (int i = 0; st && i < pz->n; i++) {
        const srv_puzzle *p = &pz->p[i];
        double d = p->rating0 - u.rating;
        d = d < 0 ? -d : d;
        if (d >= bestd || !strcmp(p->id, after)) {
            continue;
        }
        sqlite3_bind_int64(st, 1, a->id);
        sqlite3_bind_text(st, 2, p->id, -1, SQLITE_TRANSIENT);
        int tried = sqlite3_step(st) == SQLITE_ROW;
        sqlite3_reset(st);
        if (!tried) {
            best = p;
            bestd = d;
        }
    }
    sqlite3_finalize(st);
    srv_db_unlock(s->db);
    return best ? best : &pz->p[(daily_index(pz) + 1) % pz->n];
}

/* POST puzzles/ID/move {"moves": [the solver's moves so far, the last one new]} */
static void op_move(srv *s, const srv_account *a, const srv_puzzle *p, const json_t *req,
                    srv_reply *r)
{
    const json_t *moves = json_object_get(req, "moves");
    size_t nm = json_array_size(moves);
    if (!json_is_array(moves) || nm == 0) {
        srv_reply_error(r, 400, "\"moves\" must be the list of your moves so far (notation)");
        return;
    }
    dm_board b = p->start;
    for (size_t i = 0; i < nm; i++) {
        const json_t *mv = json_array_get(moves, i);
        int k = (int)(2 * i);
        if (!json_is_string(mv)) {
            srv_reply_error(r, 400, "move %zu is not a text", i + 1);
            return;
        }
        if (k >= p->n) {
            srv_reply_error(r, 409, "the puzzle is solved after %d moves", (p->n + 1) / 2);
            return;
        }
        dm_move m;
        dm_error e;
        memset(&e, 0, sizeof e);
        if (dm_move_parse(&m, &b, json_string_value(mv), &e) != DM_OK) {
            srv_reply_error(r, 400, "%s", e.message);
            return;
        }
        dm_board mine = b, want = b;
        dm_board_apply(&mine, &m);
        dm_board_apply(&want, &p->line[k]);
        /* right when it reaches the solution's position (another path of the same
         * capture, or a transposition, is as good) */
        int right = mine.side == want.side && !memcmp(mine.sq, want.sq, sizeof mine.sq);
        int last = i + 1 == nm;
        if (!right && !last) {
            srv_reply_error(r, 409, "move %zu is not the solution's: the attempt ended there",
                            i + 1);
            return;
        }
        if (right && k + 1 >= p->n && !last) {
            srv_reply_error(r, 409, "the puzzle is solved after %d moves", (p->n + 1) / 2);
            return;
        }
        if (!right || k + 1 >= p->n) {
            /* failed, or solved: the first attempt of an account is rated */
            int rt[2] = {0, 0};
            if (a->id && rate_attempt(s, a->id, p, right, rt) != 0) {
                srv_reply_error(r, 503, "the attempt was not stored");
                return;
            }
            r->status = 200;
            r->body = json_pack("{s:b,s:b,s:n,s:o}", "correct", right, "solved", right, "reply",
                                "solution", solution_json(p));
            if (rt[1]) {
                json_object_set_new(r->body, "rating",
                                    json_pack("{s:i,s:i,s:i}", "before", rt[0], "after", rt[1],
                                              "change", rt[1] - rt[0]));
            }
            return;
        }
        b = want;
        if (last) {
            json_t *reply = move_of(&b, &p->line[k + 1]);
            dm_board_apply(&b, &p->line[k + 1]);
            char fen[256];
            dm_board_to_fen(fen, sizeof fen, &b, 0);
            r->status = 200;
            r->body = json_pack("{s:b,s:b,s:o,s:s,s:o}", "correct", 1, "solved", 0, "reply", reply,
                                "fen", fen, "legal", legal_of(&b));
            return;
        }
        dm_board_apply(&b, &p->line[k + 1]);
    }
}

void srv_puzzles_route(srv *s, const srv_request *q, const char *what, srv_reply *r)
{
    srv_community *c = srv_comm(s);
    const struct srv_puzzles *pz = c->puzzles;
    int get = !strcmp(q->method, "GET");
    if (!pz) {
        srv_reply_error(r, 404, "no puzzles: the server was started without --puzzles FILE");
        return;
    }
    srv_account a;
    srv_account_of(s, q, &a);
    if (!*what || !strcmp(what, "next") || !strcmp(what, "daily")) {
        if (!get) {
            srv_reply_error(r, 405, "use GET");
            return;
        }
        if (!*what) {
            json_t *rating = json_null();
            if (a.id) {
                dm_glicko u;
                int games;
                srv_db_lock(s->db);
                srv_rating_get(srv_db_sqlite(s->db), a.id, "puzzle", &u, &games);
                srv_db_unlock(s->db);
                rating = json_pack("{s:i,s:i,s:i}", "rating", (int)(u.rating + 0.5), "rd",
                                   (int)(u.rd + 0.5), "games", games);
            }
            r->status = 200;
            r->body = json_pack("{s:i,s:s,s:o}", "count", pz->n, "daily", pz->p[daily_index(pz)].id,
                                "rating", rating);
            return;
        }
        char after[32];
        srv_query_var(q->query, "after", after, sizeof after);
        const srv_puzzle *p =
            what[0] == 'd' ? &pz->p[daily_index(pz)] : next_puzzle(s, pz, &a, after);
        r->status = 200;
        r->body = puzzle_json(s, p);
        return;
    }
    char id[24];
    const char *action = "";
    const srv_puzzle *p =
        srv_path_split(what, id, sizeof id, &action) == 0 ? find_puzzle(pz, id) : NULL;
    if (!p) {
        srv_reply_error(r, 404, "no such puzzle");
        return;
    }
    if (!*action) {
        if (!get) {
            srv_reply_error(r, 405, "use GET");
        } else {
            r->status = 200;
            r->body = puzzle_json(s, p);
        }
        return;
    }
    if (strcmp(action, "move") != 0) {
        srv_reply_error(r, 404, "no such puzzle action \"%s\" (move)", action);
        return;
    }
    json_t *req = srv_post_json(q, &a, r);
    if (req) {
        op_move(s, &a, p, req, r);
        json_decref(req);
    }
}
