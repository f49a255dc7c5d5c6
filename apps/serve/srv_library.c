/* SPDX-License-Identifier: MIT
 * apps/serve/srv_library.c: the master-games library (issue 19): the international
 * games of the PDN files under `damier serve --library PATH` (a file or a folder,
 * read recursively), indexed at start in an in-memory SQLite database: the games'
 * tags (players, event, year, result) and opening, and every position of every game
 * (its hash and piece sets, the move played from it). Answers:
 *   GET  /api/library?player=&event=&year=&result=&opening=&fen=&pattern=&offset=
 *        the games matching every criterion given (50 a page, with the total);
 *   GET  /api/library/explorer?fen=   the moves played from a position, with results;
 *   GET  /api/library/ID              one game: its tags and PDN;
 *   POST /api/library/ID/review       the game opened on the review board (a review
 *        game, as an upload makes: {games: [{id, key, url, ...}]}).
 * The library is read-only after start; its database has its own lock. */
#define _POSIX_C_SOURCE 200809L
#include "serve.h"
#include "srv_community_int.h"

#include <civetweb.h>
#include <ctype.h>
#include <dirent.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <damier/game.h>
#include <damier/pdn.h>
#include <damier/variant.h>

#define LIB_PAGE 50
#define LIB_MAX_FILE (64 * 1024 * 1024) /* bytes of one PDN file */
#define LIB_MAX_GAMES 500000
#define LIB_OPENING_PLIES 6 /* the "opening" of a game: its first moves */

struct srv_library {
    sqlite3 *db;
    pthread_mutex_t mu;
    int games, skipped, files;
    int bad_files; /* unreadable or over LIB_MAX_FILE: skipped whole */
};

static const char SCHEMA[] =
    "CREATE TABLE games(id INTEGER PRIMARY KEY, file TEXT NOT NULL, number INTEGER NOT NULL,"
    " white TEXT NOT NULL, black TEXT NOT NULL, event TEXT NOT NULL, date TEXT NOT NULL,"
    " year INTEGER, result TEXT NOT NULL, opening TEXT NOT NULL, plies INTEGER NOT NULL,"
    " pdn TEXT NOT NULL);"
    "CREATE TABLE positions(game INTEGER NOT NULL, ply INTEGER NOT NULL, hash INTEGER NOT NULL,"
    " white INTEGER NOT NULL, black INTEGER NOT NULL, kings INTEGER NOT NULL,"
    " side INTEGER NOT NULL, move TEXT NOT NULL);";
static const char INDEXES[] = "CREATE INDEX positions_hash ON positions(hash);"
                              "CREATE INDEX games_year ON games(year);";

/* What the index keeps of a position: its hash (dm_board_hash: for international
 * draughts the fast board's Zobrist hash) and, to tell positions of one hash apart and
 * to match patterns, its pieces as sets of squares (bit sq - 1 holds square sq, 1..50). */
typedef struct lib_key {
    uint64_t hash;
    uint64_t white, black, kings;
    int side;
} lib_key;

static void key_of(lib_key *k, const dm_board *b)
{
    memset(k, 0, sizeof *k);
    k->hash = dm_board_hash(b);
    k->side = b->side;
    for (int sq = 1; sq <= b->variant->squares && sq <= 64; sq++) {
        dm_piece p = dm_board_piece(b, sq);
        uint64_t bit = 1ull << (sq - 1);
        k->white |= p == DM_WHITE_MAN || p == DM_WHITE_KING ? bit : 0;
        k->black |= p == DM_BLACK_MAN || p == DM_BLACK_KING ? bit : 0;
        k->kings |= p == DM_WHITE_KING || p == DM_BLACK_KING ? bit : 0;
    }
}

static const char *tag_or(const dm_pdn_game *rec, const char *name, const char *dflt)
{
    const char *v = dm_pdn_game_tag(rec, name);
    return v && *v && strcmp(v, "?") != 0 ? v : dflt;
}

/* a result as PDN writes it for draughts ("2-0", "1-1", "0-2", "*"), from the spellings
 * of the files (chess-style "1-0", "0-1", "1/2-1/2") */
static const char *result_of(const char *t)
{
    if (!strcmp(t, "2-0") || !strcmp(t, "1-0")) {
        return "2-0";
    }
    if (!strcmp(t, "0-2") || !strcmp(t, "0-1")) {
        return "0-2";
    }
    if (!strcmp(t, "1-1") || !strcmp(t, "1/2-1/2") || !strcmp(t, "½-½")) {
        return "1-1";
    }
    return "*";
}

/* one game of file (its number-th) into the library; 0 stored, 1 skipped */
static int add_game(srv_library *lib, sqlite3_stmt *ins_g, sqlite3_stmt *ins_p, const char *file,
                    int number, const dm_pdn_game *rec)
{
    const char *gt = dm_pdn_game_tag(rec, "GameType");
    if (gt && strncmp(gt, "20", 2) != 0) {
        return 1; /* another variant: the library is international draughts */
    }
    dm_game *g = NULL;
    dm_error e;
    memset(&e, 0, sizeof e);
    if (dm_pdn_to_game(&g, rec, 0, &e) != DM_OK) {
        return 1;
    }
    if (dm_game_variant(g)->id != DM_VARIANT_INTERNATIONAL) { /* another variant (its tags) */
        dm_game_free(g);
        return 1;
    }
    char *pdn = NULL;
    if (dm_pdn_write(&pdn, NULL, rec, DM_NOTATION_PDN) != DM_OK) {
        dm_game_free(g);
        return 1;
    }
    int plies = dm_game_ply(g);
    char opening[256] = "";
    size_t olen = 0;
    for (int i = 0; i < plies && i < LIB_OPENING_PLIES; i++) {
        char t[200];
        dm_game_move_text(t, sizeof t, g, i, DM_NOTATION_PDN);
        olen += (size_t)snprintf(opening + olen, sizeof opening - olen, "%s%s", i ? " " : "", t);
        if (olen >= sizeof opening) {
            break;
        }
    }
    char w[128], bl[128], ev[160], date[32];
    snprintf(w, sizeof w, "%s", tag_or(rec, "White", ""));
    snprintf(bl, sizeof bl, "%s", tag_or(rec, "Black", ""));
    snprintf(ev, sizeof ev, "%s", tag_or(rec, "Event", ""));
    snprintf(date, sizeof date, "%s", tag_or(rec, "Date", ""));
    srv_utf8_fix(w);
    srv_utf8_fix(bl);
    srv_utf8_fix(ev);
    srv_utf8_fix(date);
    srv_utf8_fix(pdn);
    int year = 0;
    if (isdigit((unsigned char)date[0]) && isdigit((unsigned char)date[1]) &&
        isdigit((unsigned char)date[2]) && isdigit((unsigned char)date[3])) {
        year = atoi(date);
    }
    const char *res =
        result_of(rec->result && *rec->result ? rec->result : tag_or(rec, "Result", "*"));
    sqlite3_reset(ins_g);
    sqlite3_bind_text(ins_g, 1, file, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(ins_g, 2, number);
    sqlite3_bind_text(ins_g, 3, w, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(ins_g, 4, bl, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(ins_g, 5, ev, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(ins_g, 6, date, -1, SQLITE_TRANSIENT);
    if (year > 0) {
        sqlite3_bind_int(ins_g, 7, year);
    } else {
        sqlite3_bind_null(ins_g, 7);
    }
    sqlite3_bind_text(ins_g, 8, res, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(ins_g, 9, opening, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(ins_g, 10, plies);
    sqlite3_bind_text(ins_g, 11, pdn, -1, SQLITE_TRANSIENT);
    free(pdn);
    if (sqlite3_step(ins_g) != SQLITE_DONE) {
        dm_game_free(g);
        return 1;
    }
    sqlite3_int64 id = sqlite3_last_insert_rowid(lib->db);
    for (int i = 0; i <= plies; i++) {
        lib_key k;
        key_of(&k, dm_game_position_at(g, i));
        char t[200] = "";
        if (i < plies) {
            dm_game_move_text(t, sizeof t, g, i, DM_NOTATION_PDN);
        }
        sqlite3_reset(ins_p);
        sqlite3_bind_int64(ins_p, 1, id);
        sqlite3_bind_int(ins_p, 2, i);
        sqlite3_bind_int64(ins_p, 3, (sqlite3_int64)k.hash);
        sqlite3_bind_int64(ins_p, 4, (sqlite3_int64)k.white);
        sqlite3_bind_int64(ins_p, 5, (sqlite3_int64)k.black);
        sqlite3_bind_int64(ins_p, 6, (sqlite3_int64)k.kings);
        sqlite3_bind_int(ins_p, 7, k.side);
        sqlite3_bind_text(ins_p, 8, t, -1, SQLITE_TRANSIENT);
        sqlite3_step(ins_p);
    }
    dm_game_free(g);
    return 0;
}

static int is_pdn(const char *name)
{
    size_t n = strlen(name);
    return n > 4 && (!strcmp(name + n - 4, ".pdn") || !strcmp(name + n - 4, ".PDN"));
}

/* The PDN file at path read into the library; a file that cannot be read whole (or
 * is over LIB_MAX_FILE bytes) is skipped and counted, never read in part. */
static void add_file(srv_library *lib, sqlite3_stmt *ins_g, sqlite3_stmt *ins_p, const char *path,
                     const char *shown)
{
    struct stat fs;
    FILE *f = fopen(path, "rb");
    if (!f || stat(path, &fs) != 0 || fs.st_size > LIB_MAX_FILE) {
        if (f) {
            fclose(f);
        }
        lib->bad_files++;
        return;
    }
    size_t want = (size_t)fs.st_size;
    char *text = malloc(want + 1);
    size_t len = text ? fread(text, 1, want, f) : 0;
    fclose(f);
    if (text && len != want) {
        free(text);
        lib->bad_files++;
        return;
    }
    dm_pdn_reader *rd = NULL;
    if (!text || dm_pdn_reader_new(&rd, text, len, shown) != DM_OK) {
        free(text);
        return;
    }
    lib->files++;
    for (;;) {
        dm_pdn_game *rec = NULL;
        dm_error e;
        memset(&e, 0, sizeof e);
        dm_status st = dm_pdn_reader_next(&rec, rd, &e);
        if (st == DM_OK && !rec) {
            break;
        }
        if (st == DM_ENOMEM || lib->games >= LIB_MAX_GAMES) {
            dm_pdn_game_free(rec);
            break;
        }
        if (st != DM_OK) {
            lib->skipped++;
            continue;
        }
        if (add_game(lib, ins_g, ins_p, shown, dm_pdn_reader_count(rd), rec) == 0) {
            lib->games++;
        } else {
            lib->skipped++;
        }
        dm_pdn_game_free(rec);
    }
    dm_pdn_reader_free(rd);
    free(text);
}

/* path, a file or a folder read recursively (depth <= 8), in name order */
static void add_path(srv_library *lib, sqlite3_stmt *ins_g, sqlite3_stmt *ins_p, const char *path,
                     const char *shown, int depth)
{
    struct stat st;
    if (stat(path, &st) != 0 || depth > 8) {
        return;
    }
    if (S_ISREG(st.st_mode)) {
        add_file(lib, ins_g, ins_p, path, shown);
        return;
    }
    if (!S_ISDIR(st.st_mode)) {
        return;
    }
    struct dirent **names = NULL;
    int n = scandir(path, &names, NULL, alphasort);
    for (int i = 0; i < n; i++) {
        const char *nm = names[i]->d_name;
        if (nm[0] != '.') {
            char sub[4096], subshown[4096];
            snprintf(sub, sizeof sub, "%s/%s", path, nm);
            snprintf(subshown, sizeof subshown, "%s%s%s", shown, shown[0] ? "/" : "", nm);
            struct stat s2;
            if (stat(sub, &s2) == 0 && (S_ISDIR(s2.st_mode) || is_pdn(nm))) {
                add_path(lib, ins_g, ins_p, sub, subshown, depth + 1);
            }
        }
        free(names[i]);
    }
    free(names);
}

int srv_library_load(srv *s, const char *path, char *err, size_t errcap)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        snprintf(err, errcap, "--library %s: no such file or folder", path);
        return -1;
    }
    srv_library *lib = calloc(1, sizeof *lib);
    if (!lib || sqlite3_open(":memory:", &lib->db) != SQLITE_OK ||
        sqlite3_exec(lib->db, SCHEMA, NULL, NULL, NULL) != SQLITE_OK) {
        snprintf(err, errcap, "--library: out of memory");
        if (lib) {
            sqlite3_close(lib->db);
        }
        free(lib);
        return -1;
    }
    pthread_mutex_init(&lib->mu, NULL);
    sqlite3_stmt *ins_g = NULL, *ins_p = NULL;
    sqlite3_prepare_v2(lib->db,
                       "INSERT INTO games(file,number,white,black,event,date,year,result,opening,"
                       "plies,pdn) VALUES(?,?,?,?,?,?,?,?,?,?,?)",
                       -1, &ins_g, NULL);
    sqlite3_prepare_v2(lib->db, "INSERT INTO positions VALUES(?,?,?,?,?,?,?,?)", -1, &ins_p, NULL);
    sqlite3_exec(lib->db, "BEGIN", NULL, NULL, NULL);
    const char *base = strrchr(path, '/');
    add_path(lib, ins_g, ins_p, path, S_ISDIR(st.st_mode) ? "" : (base ? base + 1 : path), 0);
    sqlite3_exec(lib->db, "COMMIT", NULL, NULL, NULL);
    sqlite3_exec(lib->db, INDEXES, NULL, NULL, NULL);
    sqlite3_finalize(ins_g);
    sqlite3_finalize(ins_p);
    s->library = lib;
    if (!s->opt.quiet) {
        fprintf(stderr,
                "damier serve: library %s: %d games from %d files (%d skipped; %d files not "
                "read: unreadable or over %d MiB)\n",
                path, lib->games, lib->files, lib->skipped, lib->bad_files,
                LIB_MAX_FILE / (1024 * 1024));
    }
    return 0;
}

void srv_library_free(srv *s)
{
    if (!s || !s->library) {
        return;
    }
    sqlite3_close(s->library->db);
    pthread_mutex_destroy(&s->library->mu);
    free(s->library);
    s->library = NULL;
}

/* ---- queries ------------------------------------------------------------------------- */

/* a FEN of international draughts read for a search (validated: the position
 * itself, or a pattern: the pieces that must be there, any other square free) */
static int read_fen(const char *fen, dm_board *b, srv_reply *r, const char *what)
{
    dm_error e;
    memset(&e, 0, sizeof e);
    if (dm_board_from_fen(b, dm_variant_get(DM_VARIANT_INTERNATIONAL), fen, &e) != DM_OK) {
        srv_reply_error(r, 400, "%s: FEN, column %d: %s", what, e.column, e.message);
        return -1;
    }
    return 0;
}

static json_t *game_row(sqlite3_stmt *q)
{
    json_t *o = json_pack(
        "{s:I,s:s,s:s,s:s,s:s,s:s,s:s,s:i}", "id", (json_int_t)sqlite3_column_int64(q, 0), "white",
        (const char *)sqlite3_column_text(q, 1), "black", (const char *)sqlite3_column_text(q, 2),
        "event", (const char *)sqlite3_column_text(q, 3), "date",
        (const char *)sqlite3_column_text(q, 4), "result", (const char *)sqlite3_column_text(q, 5),
        "opening", (const char *)sqlite3_column_text(q, 6), "plies", sqlite3_column_int(q, 7));
    if (o && sqlite3_column_type(q, 8) != SQLITE_NULL) {
        json_object_set_new(o, "ply", json_integer(sqlite3_column_int(q, 8)));
    }
    return o;
}

/* GET /api/library?...: every criterion given must hold */
static void op_search(srv_library *lib, const char *query, srv_reply *r)
{
    char player[128], event[128], year[32], result[8], opening[256], fen[512], pattern[512],
        offs[16];
    srv_query_var(query, "player", player, sizeof player);
    srv_query_var(query, "event", event, sizeof event);
    srv_query_var(query, "year", year, sizeof year);
    srv_query_var(query, "result", result, sizeof result);
    srv_query_var(query, "opening", opening, sizeof opening);
    srv_query_var(query, "fen", fen, sizeof fen);
    srv_query_var(query, "pattern", pattern, sizeof pattern);
    srv_query_var(query, "offset", offs, sizeof offs);
    int y0 = 0, y1 = 0;
    if (year[0]) {
        char dash;
        int n = sscanf(year, "%d%c%d", &y0, &dash, &y1);
        if (n == 1) {
            y1 = y0;
        } else if (n != 3 || dash != '-' || y1 < y0) {
            srv_reply_error(r, 400, "\"year\" must be a year (1996) or a range (1990-1999)");
            return;
        }
    }
    if (result[0] && strcmp(result, "2-0") && strcmp(result, "1-1") && strcmp(result, "0-2")) {
        srv_reply_error(r, 400, "\"result\" must be 2-0, 1-1 or 0-2");
        return;
    }
    int offset = offs[0] ? atoi(offs) : 0;
    if (offset < 0 || offset > 1000000) {
        srv_reply_error(r, 400, "\"offset\" must be a whole number from 0");
        return;
    }
    dm_board eb, pb;
    lib_key exact, pat;
    if (fen[0] && read_fen(fen, &eb, r, "fen") != 0) {
        return;
    }
    if (pattern[0] && read_fen(pattern, &pb, r, "pattern") != 0) {
        return;
    }
    if (fen[0]) {
        key_of(&exact, &eb);
    }
    if (pattern[0]) {
        key_of(&pat, &pb);
    }
    /* the position criteria: the first ply of each game where it holds */
    char where[1024] = "1";
    if (player[0]) {
        strcat(where, " AND (white LIKE '%'||?1||'%' OR black LIKE '%'||?1||'%')");
    }
    if (event[0]) {
        strcat(where, " AND event LIKE '%'||?2||'%'");
    }
    if (year[0]) {
        strcat(where, " AND year BETWEEN ?3 AND ?4");
    }
    if (result[0]) {
        strcat(where, " AND result = ?5");
    }
    if (opening[0]) {
        strcat(where, " AND (opening = ?6 OR opening LIKE ?6||' %')");
    }
    char pos[512] = "";
    if (fen[0] || pattern[0]) {
        snprintf(pos, sizeof pos, "(SELECT MIN(p.ply) FROM positions p WHERE p.game = g.id%s%s)",
                 fen[0] ? " AND p.hash = ?7 AND p.white = ?8 AND p.black = ?9 AND p.kings = ?10"
                          " AND p.side = ?11"
                        : "",
                 pattern[0] ? " AND (p.white & ?12) = ?12 AND (p.black & ?13) = ?13"
                              " AND (p.kings & ?14) = ?14"
                            : "");
        strcat(where, " AND ");
        strcat(where, pos);
        strcat(where, " IS NOT NULL");
    }
    char sql[4096];
    snprintf(sql, sizeof sql,
             "SELECT g.id, white, black, event, date, result, opening, plies, %s, "
             "COUNT(*) OVER () FROM games g WHERE %s ORDER BY year IS NULL, year, g.id "
             "LIMIT %d OFFSET %d",
             pos[0] ? pos : "NULL", where, LIB_PAGE, offset);
    pthread_mutex_lock(&lib->mu);
    sqlite3_stmt *q = NULL;
    if (sqlite3_prepare_v2(lib->db, sql, -1, &q, NULL) != SQLITE_OK) {
        pthread_mutex_unlock(&lib->mu);
        srv_reply_error(r, 500, "library query: %s", sqlite3_errmsg(lib->db));
        return;
    }
    if (player[0]) {
        sqlite3_bind_text(q, 1, player, -1, SQLITE_TRANSIENT);
    }
    if (event[0]) {
        sqlite3_bind_text(q, 2, event, -1, SQLITE_TRANSIENT);
    }
    if (year[0]) {
        sqlite3_bind_int(q, 3, y0);
        sqlite3_bind_int(q, 4, y1);
    }
    if (result[0]) {
        sqlite3_bind_text(q, 5, result, -1, SQLITE_TRANSIENT);
    }
    if (opening[0]) {
        sqlite3_bind_text(q, 6, opening, -1, SQLITE_TRANSIENT);
    }
    if (fen[0]) {
        sqlite3_bind_int64(q, 7, (sqlite3_int64)exact.hash);
        sqlite3_bind_int64(q, 8, (sqlite3_int64)exact.white);
        sqlite3_bind_int64(q, 9, (sqlite3_int64)exact.black);
        sqlite3_bind_int64(q, 10, (sqlite3_int64)exact.kings);
        sqlite3_bind_int(q, 11, exact.side);
    }
    if (pattern[0]) {
        sqlite3_bind_int64(q, 12, (sqlite3_int64)pat.white);
        sqlite3_bind_int64(q, 13, (sqlite3_int64)pat.black);
        sqlite3_bind_int64(q, 14, (sqlite3_int64)pat.kings);
    }
    json_t *games = json_array();
    json_int_t total = 0;
    while (sqlite3_step(q) == SQLITE_ROW) {
        json_array_append_new(games, game_row(q));
        total = sqlite3_column_int64(q, 9);
    }
    sqlite3_finalize(q);
    pthread_mutex_unlock(&lib->mu);
    r->status = 200;
    r->body = json_pack("{s:I,s:i,s:i,s:o}", "total", total, "offset", offset, "page", LIB_PAGE,
                        "games", games);
}

/* GET /api/library/explorer?fen=: the moves played from the position, most played first */
static void op_explorer(srv_library *lib, const char *query, srv_reply *r)
{
    char fen[512];
    srv_query_var(query, "fen", fen, sizeof fen);
    dm_board b;
    if (!fen[0]) {
        dm_board_start(&b, dm_variant_get(DM_VARIANT_INTERNATIONAL));
    } else if (read_fen(fen, &b, r, "fen") != 0) {
        return;
    }
    lib_key k;
    key_of(&k, &b);
    pthread_mutex_lock(&lib->mu);
    sqlite3_stmt *q = NULL;
    sqlite3_prepare_v2(lib->db,
                       "SELECT p.move, COUNT(*), SUM(g.result='2-0'), SUM(g.result='1-1'),"
                       " SUM(g.result='0-2') FROM positions p JOIN games g ON g.id = p.game"
                       " WHERE p.hash = ?1 AND p.white = ?2 AND p.black = ?3 AND p.kings = ?4"
                       " AND p.side = ?5 GROUP BY p.move ORDER BY COUNT(*) DESC, p.move",
                       -1, &q, NULL);
    sqlite3_bind_int64(q, 1, (sqlite3_int64)k.hash);
    sqlite3_bind_int64(q, 2, (sqlite3_int64)k.white);
    sqlite3_bind_int64(q, 3, (sqlite3_int64)k.black);
    sqlite3_bind_int64(q, 4, (sqlite3_int64)k.kings);
    sqlite3_bind_int(q, 5, k.side);
    json_t *moves = json_array();
    int games = 0, ended = 0;
    while (sqlite3_step(q) == SQLITE_ROW) {
        const char *mv = (const char *)sqlite3_column_text(q, 0);
        int n = sqlite3_column_int(q, 1);
        games += n;
        if (!mv || !*mv) {
            ended += n; /* games that ended (or were cut) in this position */
            continue;
        }
        json_array_append_new(moves,
                              json_pack("{s:s,s:i,s:i,s:i,s:i}", "move", mv, "games", n, "white",
                                        sqlite3_column_int(q, 2), "draws", sqlite3_column_int(q, 3),
                                        "black", sqlite3_column_int(q, 4)));
    }
    sqlite3_finalize(q);
    pthread_mutex_unlock(&lib->mu);
    char out[512];
    dm_board_to_fen(out, sizeof out, &b, 0);
    r->status = 200;
    r->body =
        json_pack("{s:s,s:i,s:i,s:o}", "fen", out, "games", games, "ended", ended, "moves", moves);
}

/* the PDN text of game id (malloc'd), or NULL */
static char *game_pdn(srv_library *lib, sqlite3_int64 id, json_t **row)
{
    char *pdn = NULL;
    pthread_mutex_lock(&lib->mu);
    sqlite3_stmt *q = NULL;
    sqlite3_prepare_v2(lib->db,
                       "SELECT id, white, black, event, date, result, opening, plies, NULL, pdn, "
                       "file, number FROM games WHERE id = ?",
                       -1, &q, NULL);
    sqlite3_bind_int64(q, 1, id);
    if (sqlite3_step(q) == SQLITE_ROW) {
        pdn = strdup((const char *)sqlite3_column_text(q, 9));
        if (row) {
            *row = game_row(q);
            json_object_set_new(*row, "file",
                                json_string((const char *)sqlite3_column_text(q, 10)));
            json_object_set_new(*row, "number", json_integer(sqlite3_column_int(q, 11)));
        }
    }
    sqlite3_finalize(q);
    pthread_mutex_unlock(&lib->mu);
    return pdn;
}

void srv_library_route(srv *s, const srv_request *q, const char *what, srv_reply *r)
{
    srv_library *lib = s->library;
    int get = !strcmp(q->method, "GET");
    if (!lib) {
        srv_reply_error(r, 404, "no library: the server was started without --library PATH");
        return;
    }
    if (!*what || !strcmp(what, "explorer")) {
        if (!get) {
            srv_reply_error(r, 405, "use GET");
        } else if (!*what) {
            op_search(lib, q->query, r);
        } else {
            op_explorer(lib, q->query, r);
        }
        return;
    }
    char id[24];
    const char *action = "";
    char *end = NULL;
    long long n = -1;
    if (srv_path_split(what, id, sizeof id, &action) == 0) {
        n = strtoll(id, &end, 10);
    }
    if (n <= 0 || !end || *end) {
        srv_reply_error(r, 404, "no such library game");
        return;
    }
    json_t *row = NULL;
    char *pdn = game_pdn(lib, n, &row);
    if (!pdn) {
        srv_reply_error(r, 404, "no such library game");
        return;
    }
    if (!*action && get) {
        r->status = 200;
        r->body = row;
        json_object_set_new(r->body, "pdn", json_string(pdn));
        row = NULL;
    } else if (!*action) {
        srv_reply_error(r, 405, "use GET");
    } else if (strcmp(action, "review") != 0) {
        srv_reply_error(r, 404, "no such library action \"%s\" (review)", action);
    } else if (strcmp(q->method, "POST") != 0) {
        srv_reply_error(r, 405, "use POST");
    } else {
        srv_account a;
        srv_account_of(s, q, &a);
        json_t *req = srv_post_json(q, &a, r); /* a JSON body; the CSRF token when signed in */
        if (req) {
            srv_op_upload(s, pdn, strlen(pdn), r); /* a review game, as an upload makes */
            json_decref(req);
        }
    }
    json_decref(row);
    free(pdn);
}
