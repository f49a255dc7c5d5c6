/* SPDX-License-Identifier: MIT
 * proto/hub_session.c: the engine side of a Hub dialogue as a state machine.
 *
 *   IDLE --go--> SEARCHING --done()--> IDLE
 * Every command is accepted in IDLE (a GUI that skips `hub`/`init` still works);
 * during a search only ping, stop, ponder-hit and quit act, other known commands
 * are refused with an error (the protocol forbids them there). An international
 * game lives in a dm_session (session.h): its game layer keeps the position, the
 * history and the draw-rule counters the search is given, and the front end runs
 * the search on it (dm_hub_session_go) or describes it (dm_hub_session_search).
 *
 * Variants (`set-param name=variant value=russian`): the game is then of that
 * variant; `pos` is read as the side letter and one letter per square of its board,
 * moves with dm_move_parse, for every variant ("normal", international draughts,
 * included). The search, its input and its lines are the same for every variant.
 *
 * Endgame database (`set-param name=egdb value=DIR`): the session opens the folder
 * (damier/egdb.h; the file reading is that layer's), owns the database and gives it
 * to the engine; a folder that does not exist, holds no valid slice, or holds the
 * slices of another variant than the session's (international, or the `variant`
 * param's: Russian, Brazilian and English have databases too) is an error and the
 * previous database (or none) stays; value="" turns it off. Order matters: set the
 * variant first. When `set-param name=variant` then names another variant than the
 * database's, the session drops the database (the `egdb` param reads "" again, as
 * `hub` lists it): a session never holds a folder its game cannot use, and the GUI
 * sets the folder of the new variant, if it has one.
 *
 * Opening book (`set-param name=book value=builtin|off|FILE`, damier/book.h): off by
 * default (the built-in book has not yet won a match against no book); a file that cannot be read or is not a valid book is an
 * error and the previous book stays. `book-random` (default true) draws among the
 * book moves by weight, with a seed that changes at each new-game; false always
 * plays the move of highest weight. */
#define _POSIX_C_SOURCE 200809L
#include <damier/book.h>
#include <damier/egdb.h>
#include <damier/game.h>
#include <damier/hub.h>
#include <damier/session.h>
#include <damier/variant.h>

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct dm_hub_session {
    char id_name[64], id_version[32], id_author[64], id_country[32];
    dm_engine_options opts; /* threads, table size (params) */
    int ponder_param;       /* the `ponder` param (announced, informative) */
    int searching;
    dm_session *game;        /* the game (and the engine searching it) */
    dm_limits level;         /* from the last `level` (kept until the next one) */
    dm_limits search_limits; /* of the running search */
    /* The variant other than international (NULL: international, read with the
     * international position codec). */
    const dm_variant *variant;
    /* The running search's input, from the game layer at `go` (history below): */
    dm_search_input search_input;
    uint64_t search_history[DM_ENGINE_MAX_HISTORY]; /* dm_board_hash before the root */
    dm_movelist vlist;                              /* scratch for `go` (no mutable global state) */
    int pos_rejected;    /* the last `pos` was rejected: `go` refuses until a
                                    valid pos or new-game */
    dm_egdb *egdb;       /* the `egdb` param's database (NULL: none); the engine probes it */
    char egdb_dir[1024]; /* its folder, as given ("" when none) */
    const dm_book *book; /* the `book` param's book (NULL: off); built in or book_owned */
    dm_book *book_owned; /* a book read from a file (NULL: none) */
    char book_value[1024];
    int book_random; /* the `book-random` param */
    uint64_t games;  /* new-game commands so far: the book's seed */
};

/* Give the session's book and seed to the game's session (not during a search). */
static void apply_book(dm_hub_session *s)
{
    dm_session_set_book(s->game, s->book, s->book_random ? s->games + 1 : 0);
}

/* The Hub names of the variants: Scan's where it has one ("normal", "losing" for
 * antidraughts), ours for the others. Indexed by dm_variant_id. */
static const char *const hub_variant_names[DM_VARIANT_COUNT] = {
    "normal", "brazilian", "russian", "english",      "canadian", "losing",
    "czech",  "italian",   "killer",  "breakthrough", "spanish",  "pool",
    "thai",   "frisian",   "frysk",   "portuguese",   "turkish"};

_Static_assert(sizeof hub_variant_names / sizeof hub_variant_names[0] == DM_VARIANT_COUNT,
               "a Hub name for every variant");

const char *dm_hub_variant_name(const dm_variant *v)
{
    return v && (int)v->id >= 0 && v->id < DM_VARIANT_COUNT ? hub_variant_names[v->id] : NULL;
}

/* Output buffer with truncation tracking. */
typedef struct outbuf {
    char *buf;
    size_t cap, len;
    int truncated;
} outbuf;

static void emit(outbuf *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void emit(outbuf *o, const char *fmt, ...)
{
    if (o->cap == 0) {
        o->truncated = 1;
        return;
    }
    va_list ap;
    va_start(ap, fmt);
    size_t room = o->len < o->cap ? o->cap - o->len : 0;
    int n = vsnprintf(o->buf + o->len, room, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= room) {
        o->truncated = 1;
        o->len = o->cap - 1;
        o->buf[o->len] = 0;
        return;
    }
    o->len += (size_t)n;
}

/* `error message="..."` (quotes in the text become apostrophes). */
static void emit_error(outbuf *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void emit_error(outbuf *o, const char *fmt, ...)
{
    char msg[512], line[600] = "error";
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    dm_hub_append_pair(line, sizeof line, "message", msg);
    emit(o, "%s\n", line);
}

static void copy_str(char *dst, size_t cap, const char *src, const char *def)
{
    snprintf(dst, cap, "%s", src ? src : def);
}

dm_status dm_hub_session_create(dm_hub_session **out, const dm_hub_identity *id,
                                const dm_engine_options *opts)
{
    if (!out) {
        return DM_EINVAL;
    }
    dm_hub_session *s = calloc(1, sizeof *s);
    if (!s) {
        return DM_ENOMEM;
    }
    copy_str(s->id_name, sizeof s->id_name, id ? id->name : NULL, "damier");
    copy_str(s->id_version, sizeof s->id_version, id ? id->version : NULL, "0");
    copy_str(s->id_author, sizeof s->id_author, id ? id->author : NULL, "");
    copy_str(s->id_country, sizeof s->id_country, id ? id->country : NULL, "");
    dm_engine_options def = DM_ENGINE_OPTIONS_INIT;
    s->opts = opts ? *opts : def;
    dm_session_options so = DM_SESSION_OPTIONS_INIT;
    so.engine = s->opts;
    /* the GUI keeps the score: positions after a draw by rule are still searched */
    so.rules.play_after_end = 1;
    dm_status st = dm_session_create(&s->game, &so, NULL);
    if (st != DM_OK) {
        free(s);
        return st;
    }
    s->level.move_time = 1.0; /* until the GUI sends a level */
    /* No book until the GUI asks for one: the built-in book lost 80 Elo against no book
     * in its first match (BENCHMARKS.md, "opening book"). */
    s->book = NULL;
    snprintf(s->book_value, sizeof s->book_value, "off");
    s->book_random = 1;
    apply_book(s);
    *out = s;
    return DM_OK;
}

void dm_hub_session_free(dm_hub_session *s)
{
    if (s) {
        dm_session_free(s->game);
        dm_egdb_close(s->egdb); /* after the engine that probed it */
        dm_book_free(s->book_owned);
    }
    free(s);
}

/* A variant game from b for the Hub: moves are accepted after a draw-rule result
 * (the GUI sends the whole game; the engine is asked about its last position). NULL
 * without memory. */
static dm_game *new_vgame(const dm_board *b)
{
    dm_game *g = NULL;
    if (dm_game_new(&g, b) != DM_OK) {
        return NULL;
    }
    dm_game_rules r = DM_GAME_RULES_INIT;
    r.play_after_end = 1;
    dm_game_set_rules(g, &r);
    return g;
}

/* The initial position of the session's rule set, with no history (new-game, and a
 * new variant). */
static void start_position(dm_hub_session *s)
{
    dm_session_new_game(s->game, NULL, NULL); /* clears the engine too */
    if (s->variant) {
        dm_board b;
        dm_board_start(&b, s->variant);
        dm_game *g = new_vgame(&b);
        if (g == NULL || dm_session_set_game(s->game, g, NULL) != DM_OK) {
            dm_game_free(g);
            dm_session_refuse_position(s->game); /* without memory: `go` says so */
        }
    }
    s->pos_rejected = 0;
}

/* ---- commands ----------------------------------------------------------------- */

static void cmd_hub(dm_hub_session *s, outbuf *o)
{
    char line[512] = "id";
    dm_hub_append_pair(line, sizeof line, "name", s->id_name);
    dm_hub_append_pair(line, sizeof line, "version", s->id_version);
    if (*s->id_author) {
        dm_hub_append_pair(line, sizeof line, "author", s->id_author);
    }
    if (*s->id_country) {
        dm_hub_append_pair(line, sizeof line, "country", s->id_country);
    }
    emit(o, "%s\n", line);
    emit(o, "param name=variant value=%s type=enum values=\"",
         hub_variant_names[s->variant ? s->variant->id : DM_VARIANT_INTERNATIONAL]);
    for (int i = 0; i < DM_VARIANT_COUNT; i++) {
        emit(o, "%s%s", i ? " " : "", hub_variant_names[i]);
    }
    emit(o, "\"\n");
    emit(o, "param name=threads value=%d type=int min=1 max=%d\n", s->opts.threads,
         DM_ENGINE_MAX_THREADS);
    emit(o, "param name=hash value=%d type=int min=1 max=65536\n", s->opts.tt_mib);
    emit(o, "param name=ponder value=%s type=bool\n", s->ponder_param ? "true" : "false");
    char eline[1200] = "param name=egdb";
    dm_hub_append_pair(eline, sizeof eline, "value", s->egdb_dir);
    emit(o, "%s type=string\n", eline);
    char bline[1200] = "param name=book";
    dm_hub_append_pair(bline, sizeof bline, "value", s->book_value);
    emit(o, "%s type=string\n", bline);
    emit(o, "param name=book-random value=%s type=bool\n", s->book_random ? "true" : "false");
    emit(o, "wait\n");
}

static int parse_long(const char *v, long lo, long hi, long *out)
{
    char *end;
    if (!v || !*v) {
        return -1;
    }
    long x = strtol(v, &end, 10);
    if (*end || x < lo || x > hi) {
        return -1;
    }
    *out = x;
    return 0;
}

static int parse_real(const char *v, double lo, double hi, double *out)
{
    char *end;
    if (!v || !*v) {
        return -1;
    }
    double x = strtod(v, &end);
    if (*end || !(x >= lo && x <= hi)) {
        return -1;
    }
    *out = x;
    return 0;
}

/* The variant of the session's game. */
static dm_variant_id session_variant(const dm_hub_session *s)
{
    return s->variant ? s->variant->id : DM_VARIANT_INTERNATIONAL;
}

/* Take the database from the engine and close it (none: nothing to do). Returns 0,
 * or -1 when the engine is searching (nothing changes). */
static int drop_egdb(dm_hub_session *s)
{
    dm_engine *e = dm_session_engine(s->game);
    if (!s->egdb) {
        return 0;
    }
    if (!e || dm_engine_set_egdb(e, NULL) != DM_OK) {
        return -1;
    }
    dm_engine_clear(e); /* its table holds database scores */
    dm_egdb_close(s->egdb);
    s->egdb = NULL;
    s->egdb_dir[0] = 0;
    return 0;
}

/* `set-param name=egdb value=DIR`: open the database of folder dir and give it to
 * the engine, replacing the previous one; "" drops it. A folder that is missing, not
 * a folder, without a valid slice, or of another variant than the session's is an
 * error and nothing changes; files refused in a folder that has valid slices are each
 * named in an error line, and the slices that loaded are used. */
static void set_egdb(dm_hub_session *s, const char *dir, outbuf *o)
{
    dm_engine *e = dm_session_engine(s->game);
    if (!e) {
        emit_error(o, "set-param egdb: the engine is not available (a search is running?)");
        return;
    }
    if (!*dir) {
        if (drop_egdb(s) != 0) {
            emit_error(o, "set-param egdb: the engine is searching; the database is not changed");
        }
        return;
    }
    if (strlen(dir) >= sizeof s->egdb_dir) {
        emit_error(o, "set-param egdb: the folder name is longer than %zu bytes",
                   sizeof s->egdb_dir - 1);
        return;
    }
    struct stat sb;
    if (stat(dir, &sb) != 0) {
        emit_error(o, "set-param egdb: cannot use '%s': %s; the engine plays on %s", dir,
                   strerror(errno), s->egdb ? "with the previous database" : "without one");
        return;
    }
    if (!S_ISDIR(sb.st_mode)) {
        emit_error(o, "set-param egdb: '%s' is not a folder; the engine plays on %s", dir,
                   s->egdb ? "with the previous database" : "without one");
        return;
    }
    dm_egdb *db = NULL;
    dm_error err;
    if (dm_egdb_open(&db, dir, &err) != DM_OK) {
        emit_error(o, "set-param egdb: %s", err.message);
        return;
    }
    for (int i = 0; i < dm_egdb_problem_count(db); i++) {
        emit_error(o, "set-param egdb: refused %s", dm_egdb_problem(db, i));
    }
    if (dm_egdb_slice_count(db) == 0) {
        emit_error(o,
                   "set-param egdb: no valid endgame database slice (d*.egdb) in '%s'; "
                   "the engine plays on %s",
                   dir, s->egdb ? "with the previous database" : "without one");
        dm_egdb_close(db);
        return;
    }
    if (dm_egdb_variant(db) != session_variant(s)) {
        const char *dbv = dm_variant_get(dm_egdb_variant(db))->name,
                   *gv = dm_variant_get(session_variant(s))->name;
        emit_error(o,
                   "set-param egdb: the database in '%s' is of %s, the game of %s (set-param "
                   "name=variant value=%s first, or give a folder of %s slices); the engine "
                   "plays on %s",
                   dir, dbv, gv, dm_hub_variant_name(dm_variant_get(dm_egdb_variant(db))), gv,
                   s->egdb ? "with the previous database" : "without one");
        dm_egdb_close(db);
        return;
    }
    if (dm_engine_set_egdb(e, db) != DM_OK) {
        emit_error(o, "set-param egdb: the engine is searching; the database is not changed");
        dm_egdb_close(db);
        return;
    }
    dm_engine_clear(e); /* scores stored with the previous database (or none) */
    dm_egdb_close(s->egdb);
    s->egdb = db;
    snprintf(s->egdb_dir, sizeof s->egdb_dir, "%s", dir);
}

/* `set-param name=book value=builtin|off|FILE`: "" is off too. A file that cannot be
 * read or is not a valid book is an error; the previous book stays. */
static void set_book(dm_hub_session *s, const char *value, outbuf *o)
{
    if (strlen(value) >= sizeof s->book_value) {
        emit_error(o, "set-param book: the file name is longer than %zu bytes",
                   sizeof s->book_value - 1);
        return;
    }
    dm_book *bk = NULL;
    if (!strcmp(value, "off") || !*value) {
        s->book = NULL;
    } else if (!strcmp(value, "builtin")) {
        s->book = dm_book_builtin();
    } else {
        dm_error err;
        if (dm_book_load(&bk, value, &err) != DM_OK) {
            emit_error(o, "set-param book: %s; the engine plays on %s", err.message,
                       s->book ? "with the previous book" : "without a book");
            return;
        }
        s->book = bk;
    }
    dm_book_free(s->book_owned);
    s->book_owned = bk;
    snprintf(s->book_value, sizeof s->book_value, "%s", *value ? value : "off");
    apply_book(s);
}

static dm_hub_action cmd_set_param(dm_hub_session *s, const dm_hub_cmd *c, outbuf *o)
{
    const char *name = dm_hub_get(c, "name"), *value = dm_hub_get(c, "value");
    if (!name) {
        emit_error(o, "set-param: missing name=");
        return DM_HUB_NONE;
    }
    if (!value) {
        emit_error(o, "set-param %s: missing value=", name);
        return DM_HUB_NONE;
    }
    long x;
    if (!strcmp(name, "threads")) {
        if (parse_long(value, 1, DM_ENGINE_MAX_THREADS, &x)) {
            emit_error(o, "set-param threads: '%s' is not a number from 1 to %d", value,
                       DM_ENGINE_MAX_THREADS);
            return DM_HUB_NONE;
        }
        s->opts.threads = (int)x;
        return DM_HUB_OPTIONS;
    }
    if (!strcmp(name, "hash")) {
        if (parse_long(value, 1, 65536, &x)) {
            emit_error(o, "set-param hash: '%s' is not a size from 1 to 65536 MiB", value);
            return DM_HUB_NONE;
        }
        s->opts.tt_mib = (int)x;
        return DM_HUB_OPTIONS;
    }
    if (!strcmp(name, "variant")) {
        const dm_variant *v = NULL;
        for (int i = 0; i < DM_VARIANT_COUNT; i++) {
            if (!strcmp(value, hub_variant_names[i])) {
                v = dm_variant_get((dm_variant_id)i);
            }
        }
        if (v == NULL && dm_variant_from_name(&v, value, NULL) != DM_OK) {
            emit_error(o,
                       "set-param variant: '%s' is not one of normal brazilian russian "
                       "english canadian losing (antidraughts) czech italian killer "
                       "breakthrough spanish pool thai frisian frysk portuguese turkish",
                       value);
            return DM_HUB_NONE;
        }
        s->variant = v->id == DM_VARIANT_INTERNATIONAL ? NULL : v;
        /* A database of another variant is of no use to this game: dropped (the engine
         * is idle here: commands that change the game are refused during a search). */
        if (s->egdb && dm_egdb_variant(s->egdb) != v->id) {
            drop_egdb(s);
        }
        /* A new rule set: start from its initial position. */
        start_position(s);
        return DM_HUB_NEW_GAME;
    }
    if (!strcmp(name, "ponder")) {
        if (strcmp(value, "true") && strcmp(value, "false")) {
            emit_error(o, "set-param ponder: '%s' is not true or false", value);
            return DM_HUB_NONE;
        }
        s->ponder_param = !strcmp(value, "true");
        return DM_HUB_NONE;
    }
    if (!strcmp(name, "book")) {
        set_book(s, value, o);
        return DM_HUB_NONE;
    }
    if (!strcmp(name, "book-random")) {
        if (strcmp(value, "true") && strcmp(value, "false")) {
            emit_error(o, "set-param book-random: '%s' is not true or false", value);
            return DM_HUB_NONE;
        }
        s->book_random = !strcmp(value, "true");
        apply_book(s);
        return DM_HUB_NONE;
    }
    if (!strcmp(name, "egdb")) {
        set_egdb(s, value, o);
        return DM_HUB_NONE;
    }
    return DM_HUB_NONE; /* unknown parameter: ignored (Hub rule) */
}

/* The next move of a `pos` command's moves= list at *p (moves are separated by
 * spaces or tabs; *index counts them from 1): 1 with the move in text, 0 at the end
 * of the list, -1 when it does not fit in cap (the error is emitted). */
static int next_move(const char **p, char *text, size_t cap, int *index, outbuf *o)
{
    const char *q = *p;
    while (*q == ' ' || *q == '\t') {
        q++;
    }
    *p = q;
    if (!*q) {
        return 0;
    }
    size_t n = strcspn(q, " \t");
    ++*index;
    if (n >= cap) {
        emit_error(o, "bad move %d in moves=: too long", *index);
        return -1;
    }
    memcpy(text, q, n);
    text[n] = 0;
    *p = q + n;
    return 1;
}

/* A move of moves= that dm_move_parse (or dm_game_play) refused with st. */
static void emit_move_error(outbuf *o, dm_status st, int index, const char *text, const char *why)
{
    emit_error(o, "%s move %d '%s' in moves=: %s",
               st == DM_EPARSE       ? "bad"
               : st == DM_EAMBIGUOUS ? "ambiguous"
                                     : "illegal",
               index, text, why);
}

/* A variant position in Hub form: side 'W'/'B', then one of w b W B e per square
 * 1..squares, numbered as the variant's records (dm_square_number: Italian and
 * Spanish number the turned board). */
static int vpos_parse(dm_board *out, const dm_variant *v, const char *pos, char *why, size_t cap)
{
    size_t n = strlen(pos);
    if (n != (size_t)v->squares + 1) {
        snprintf(why, cap, "%s wants %d characters (side, then %d squares), not %zu",
                 hub_variant_names[v->id], v->squares + 1, v->squares, n);
        return 0;
    }
    dm_board_clear(out, v);
    if (pos[0] == 'W' || pos[0] == 'w') {
        out->side = DM_WHITE;
    } else if (pos[0] == 'B' || pos[0] == 'b') {
        out->side = DM_BLACK;
    } else {
        snprintf(why, cap, "side to move '%c' is not W or B", pos[0]);
        return 0;
    }
    for (int sq = 1; sq <= v->squares; sq++) {
        static const char letters[] = "ewbWB";
        const char *k = strchr(letters, pos[sq]);
        if (pos[sq] == 0 || k == NULL) {
            snprintf(why, cap, "square %d: '%c' is not one of w b W B e", sq, pos[sq]);
            return 0;
        }
        out->sq[dm_square_from_number(v, sq)] = (uint8_t)(k - letters);
    }
    dm_error err;
    if (dm_board_validate(out, &err) != DM_OK) {
        snprintf(why, cap, "%s", err.message);
        return 0;
    }
    return 1;
}

/* `pos`: 1 when the position (and its moves=) was taken, 0 when it was rejected:
 * the session keeps its previous position and an error line says why. Every variant,
 * international included, through the same calls (variant.h). */
static int cmd_pos(dm_hub_session *s, const dm_hub_cmd *c, outbuf *o)
{
    const dm_variant *v = s->variant ? s->variant : dm_variant_get(DM_VARIANT_INTERNATIONAL);
    const char *pos = dm_hub_get(c, "pos");
    const char *moves = dm_hub_get(c, "moves");
    dm_error err;
    dm_board board;
    if (pos) {
        char why[256];
        if (!vpos_parse(&board, v, pos, why, sizeof why)) {
            emit_error(o, "bad position '%s': %s", pos, why);
            return 0;
        }
    } else if (dm_hub_has(c, "start")) {
        dm_board_start(&board, v);
    } else {
        emit_error(o, "pos: missing pos=<%d characters> (or start)", v->squares + 1);
        return 0;
    }
    /* The new game is built aside, with the session game's rules: a bad move leaves
     * the session's game as it was. */
    dm_game *g = NULL;
    if (dm_game_new(&g, &board) != DM_OK ||
        dm_game_set_rules(g, dm_game_rules_of(dm_session_game(s->game))) != DM_OK ||
        dm_game_set_draw_rules(g, dm_game_draw_rules(dm_session_game(s->game))) != DM_OK) {
        dm_game_free(g);
        emit_error(o, "pos: out of memory");
        return 0;
    }
    const char *p = moves ? moves : "";
    char text[256];
    int index = 0, r;
    while ((r = next_move(&p, text, sizeof text, &index, o)) > 0) {
        dm_move m;
        dm_status st = dm_move_parse(&m, dm_game_position(g), text, &err);
        if (st == DM_OK) {
            st = dm_game_play(g, &m);
            if (st != DM_OK) {
                snprintf(err.message, sizeof err.message, "%s",
                         st == DM_ESTATE ? "the game is over" : dm_status_str(st));
                st = DM_EILLEGAL;
            }
        }
        if (st != DM_OK) {
            emit_move_error(o, st, index, text, err.message);
            r = -1;
            break;
        }
    }
    if (r < 0 || dm_session_set_game(s->game, g, &err) != DM_OK) {
        if (r >= 0) {
            emit_error(o, "pos: %s", err.message);
        }
        dm_game_free(g);
        dm_session_refuse_position(s->game);
        return 0;
    }
    return 1;
}

static void cmd_level(dm_hub_session *s, const dm_hub_cmd *c, outbuf *o)
{
    dm_limits l;
    memset(&l, 0, sizeof l);
    long x;
    double r;
    const char *v;
    if ((v = dm_hub_get(c, "depth")) != NULL) {
        if (parse_long(v, 1, DM_ENGINE_MAX_DEPTH, &x)) {
            emit_error(o, "bad level: depth='%s' is not a number from 1 to %d", v,
                       DM_ENGINE_MAX_DEPTH);
            return;
        }
        l.depth = (int)x;
    }
    if ((v = dm_hub_get(c, "nodes")) != NULL) {
        if (parse_real(v, 1, 1e18, &r)) {
            emit_error(o, "bad level: nodes='%s' is not a positive number", v);
            return;
        }
        l.nodes = (uint64_t)r;
    }
    if ((v = dm_hub_get(c, "move-time")) != NULL) {
        if (parse_real(v, 1e-6, 1e7, &r)) {
            emit_error(o, "bad level: move-time='%s' is not a positive number of seconds", v);
            return;
        }
        l.move_time = r;
    }
    if ((v = dm_hub_get(c, "time")) != NULL) {
        if (parse_real(v, -1e7, 1e7, &r)) {
            emit_error(o, "bad level: time='%s' is not a number of seconds", v);
            return;
        }
        /* No time left, or less than none (a GUI's clock already past zero): play
         * at once rather than refuse. */
        l.time = r > 0 ? r : 1e-3;
    }
    if ((v = dm_hub_get(c, "inc")) != NULL) {
        if (parse_real(v, 0, 1e7, &r)) {
            emit_error(o, "bad level: inc='%s' is not a number of seconds >= 0", v);
            return;
        }
        l.inc = r;
    }
    if ((v = dm_hub_get(c, "moves")) != NULL) {
        if (parse_long(v, 1, 100000, &x)) {
            emit_error(o, "bad level: moves='%s' is not a positive number of moves", v);
            return;
        }
        l.moves_to_go = (int)x;
    }
    if ((l.inc > 0 || l.moves_to_go > 0) && l.time <= 0) {
        emit_error(o, "bad level: inc= and moves= need time=");
        return;
    }
    if (dm_hub_has(c, "infinite")) {
        l.infinite = 1;
    }
    if (!l.depth && !l.nodes && l.move_time <= 0 && l.time <= 0 && !l.infinite) {
        emit_error(o, "bad level: give depth=, nodes=, move-time=, time= or infinite");
        return;
    }
    s->level = l;
}

static dm_hub_action cmd_go(dm_hub_session *s, const dm_hub_cmd *c, outbuf *o)
{
    if (s->pos_rejected) {
        /* Searching the position from before the rejected `pos` would answer a
         * question the GUI did not ask; a bare `done` would look like a result. */
        emit_error(o, "go: the last pos was rejected; send a valid pos (or new-game) first");
        return DM_HUB_NONE;
    }
    const dm_game *game = dm_session_game(s->game);
    if (dm_game_variant(game) != dm_hub_session_variant(s)) {
        emit_error(o, "go: out of memory (no game)");
        return DM_HUB_NONE;
    }
    if (dm_movegen_legal(&s->vlist, dm_game_position(game)) == 0) {
        emit_error(o, "go: the side to move has no legal move (the game is over)");
        return DM_HUB_NONE;
    }
    dm_limits l = s->level;
    if (dm_hub_has(c, "ponder")) {
        l.ponder = 1;
    } else if (dm_hub_has(c, "analyze") || dm_hub_has(c, "analyse")) {
        l.analyse = 1;
    }
    s->search_limits = l;
    dm_session_search_input(&s->search_input, s->search_history, DM_ENGINE_MAX_HISTORY, s->game);
    s->searching = 1;
    return DM_HUB_SEARCH;
}

dm_status dm_hub_session_feed(dm_hub_session *s, const char *line, dm_hub_action *action, char *out,
                              size_t cap)
{
    outbuf o = {out, cap, 0, 0};
    if (cap) {
        out[0] = 0;
    }
    *action = DM_HUB_NONE;
    dm_hub_cmd *c = malloc(sizeof *c);
    if (!c) {
        emit_error(&o, "out of memory");
        return DM_ENOMEM;
    }
    dm_error err;
    if (dm_hub_parse_line(c, line, &err) != DM_OK) {
        emit_error(&o, "cannot read the line (column %d): %s", err.column, err.message);
        free(c);
        return o.truncated ? DM_EBUFS : DM_OK;
    }
    const char *name = c->name;
    if (!strcmp(name, "quit")) {
        *action = DM_HUB_QUIT;
    } else if (!strcmp(name, "ping")) {
        emit(&o, "pong\n");
    } else if (!strcmp(name, "stop")) {
        if (s->searching) {
            *action = DM_HUB_STOP;
        }
    } else if (!strcmp(name, "ponder-hit")) {
        if (s->searching && s->search_limits.ponder) {
            *action = DM_HUB_PONDERHIT;
        }
    } else if (s->searching &&
               (!strcmp(name, "hub") || !strcmp(name, "init") || !strcmp(name, "set-param") ||
                !strcmp(name, "new-game") || !strcmp(name, "pos") || !strcmp(name, "level") ||
                !strcmp(name, "go"))) {
        emit_error(&o,
                   "%s: a search is running (only ping, stop, ponder-hit and quit "
                   "are accepted until done)",
                   name);
    } else if (!strcmp(name, "hub")) {
        cmd_hub(s, &o);
    } else if (!strcmp(name, "init")) {
        emit(&o, "ready\n");
    } else if (!strcmp(name, "set-param")) {
        *action = cmd_set_param(s, c, &o);
    } else if (!strcmp(name, "new-game")) {
        start_position(s); /* joins the last search's thread */
        s->games++;
        apply_book(s);
        *action = DM_HUB_NEW_GAME;
    } else if (!strcmp(name, "pos")) {
        s->pos_rejected = !cmd_pos(s, c, &o);
    } else if (!strcmp(name, "level")) {
        cmd_level(s, c, &o);
    } else if (!strcmp(name, "go")) {
        *action = cmd_go(s, c, &o);
    }
    /* Anything else (including a blank line) is ignored: forward compatibility. */
    free(c);
    return o.truncated ? DM_EBUFS : DM_OK;
}

void dm_hub_session_search(const dm_hub_session *s, dm_search_input *in, dm_limits *lim)
{
    *in = s->search_input;
    *lim = s->search_limits;
}

dm_session *dm_hub_session_game(dm_hub_session *s)
{
    return s->game;
}

dm_status dm_hub_session_go(dm_hub_session *s, dm_info_fn on_info, dm_session_done_fn on_done,
                            void *payload, dm_error *err)
{
    if (!s->searching) {
        return dm_error_set(err, DM_ESTATE, 0, 0, "no search was asked for");
    }
    dm_session_go_options go = DM_SESSION_GO_INIT;
    go.limits = s->search_limits;
    go.use_clock = 0; /* the GUI's clock, given by `level` */
    go.on_info = on_info;
    go.on_done = on_done;
    go.payload = payload;
    return dm_session_go(s->game, &go, err);
}

void dm_hub_session_options(const dm_hub_session *s, dm_engine_options *opts)
{
    *opts = s->opts;
}

int dm_hub_session_searching(const dm_hub_session *s)
{
    return s->searching;
}

size_t dm_hub_session_done(dm_hub_session *s, const dm_result *r, char *out, size_t cap)
{
    char line[1024] = "done";
    s->searching = 0;
    const dm_board *root = &s->search_input.root;
    if (r && r->has_move) {
        char text[400];
        dm_move_to_text(text, sizeof text, root, &r->best, DM_NOTATION_HUB, DM_SQUARES_NUMERIC);
        dm_hub_append_pair(line, sizeof line, "move", text);
        if (r->has_ponder) {
            dm_board after = *root;
            dm_board_apply(&after, &r->best);
            dm_move_to_text(text, sizeof text, &after, &r->ponder, DM_NOTATION_HUB,
                            DM_SQUARES_NUMERIC);
            dm_hub_append_pair(line, sizeof line, "ponder", text);
        }
    }
    int n = snprintf(out, cap, "%s\n", line);
    return n < 0 ? 0 : (size_t)n;
}

size_t dm_hub_session_info(const dm_hub_session *s, const dm_info *info, char *out, size_t cap)
{
    return dm_hub_format_info(out, cap, &s->search_input.root, info);
}

/* ---- variants ------------------------------------------------------------------ */

const dm_variant *dm_hub_session_variant(const dm_hub_session *s)
{
    return s->variant ? s->variant : dm_variant_get(DM_VARIANT_INTERNATIONAL);
}
