/* SPDX-License-Identifier: MIT
 * tests/unit/test_hub.c: the Hub codec and the engine-side session, driven by a
 * scripted dialogue that includes bad lines (garbage, bad position, illegal move,
 * bad level): each gets an error line and the session keeps working. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <damier/egdb.h>
#include <damier/engine.h>
#include <damier/game.h>
#include <damier/hub.h>
#include "core/move10.h"
#include <damier/session.h>

#define START "Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww"

#include "../hub_test.h"

static void test_hub__parse_pairs_flags_and_quotes(void **state)
{
    (void)state;
    static dm_hub_cmd c;
    assert_int_equal(
        dm_hub_parse_line(&c, "  pos pos=" START " moves=\"32-28 19-23\" start \r\n", NULL), DM_OK);
    assert_string_equal(c.name, "pos");
    assert_int_equal(c.pair_count, 3);
    assert_string_equal(dm_hub_get(&c, "pos"), START);
    assert_string_equal(dm_hub_get(&c, "moves"), "32-28 19-23");
    assert_true(dm_hub_has(&c, "start"));
    assert_string_equal(dm_hub_get(&c, "start"), "");
    assert_int_equal(c.pair[2].has_value, 0);
    assert_null(dm_hub_get(&c, "missing"));

    assert_int_equal(dm_hub_parse_line(&c, "", NULL), DM_OK);
    assert_string_equal(c.name, "");
    assert_int_equal(dm_hub_parse_line(&c, "set-param name=x value=\"\"", NULL), DM_OK);
    assert_string_equal(dm_hub_get(&c, "value"), "");
}

static void test_hub__parse_rejects_garbage_with_column(void **state)
{
    (void)state;
    static dm_hub_cmd c;
    dm_error err;
    assert_int_equal(dm_hub_parse_line(&c, "pos moves=\"32-28", &err), DM_EPARSE);
    assert_int_equal(err.column, 11);
    assert_non_null(strstr(err.message, "unterminated"));
    assert_int_equal(dm_hub_parse_line(&c, "level =5", &err), DM_EPARSE);
    assert_int_equal(err.column, 7);
    assert_int_equal(dm_hub_parse_line(&c, "\"go\"", &err), DM_EPARSE);
    assert_int_equal(dm_hub_parse_line(&c, "go a=b=c", &err), DM_EPARSE);
    assert_int_equal(dm_hub_parse_line(&c, "go \x01", &err), DM_EPARSE);
}

static void test_hub__append_pair_quotes_when_needed(void **state)
{
    (void)state;
    char buf[128] = "id";
    dm_hub_append_pair(buf, sizeof buf, "name", "damier");
    dm_hub_append_pair(buf, sizeof buf, "author", "A \"B\" C");
    dm_hub_append_pair(buf, sizeof buf, "empty", "");
    assert_string_equal(buf, "id name=damier author=\"A 'B' C\" empty=\"\"");
    char small[8] = "x";
    size_t need = dm_hub_append_pair(small, sizeof small, "name", "long value");
    assert_true(need >= sizeof small);
    assert_string_equal(small, "x"); /* untouched when it does not fit */
}

static void test_hub__handshake(void **state)
{
    (void)state;
    dm_hub_session *s = new_session();
    assert_int_equal(feed(s, "hub"), DM_HUB_NONE);
    assert_non_null(strstr(reply, "id name=damier version=0.1 author=\"test author\""));
    assert_non_null(strstr(reply, "param name=threads value=1 type=int"));
    assert_non_null(strstr(reply, "param name=variant value=normal type=enum"));
    assert_non_null(strstr(reply, "\nwait\n"));
    assert_int_equal(feed(s, "set-param name=threads value=4"), DM_HUB_OPTIONS);
    dm_engine_options o;
    dm_hub_session_options(s, &o);
    assert_int_equal(o.threads, 4);
    assert_int_equal(feed(s, "set-param name=hash value=lots"), DM_HUB_NONE);
    assert_non_null(strstr(reply, "error message=\"set-param hash"));
    assert_int_equal(feed(s, "set-param name=variant value=armenian"), DM_HUB_NONE);
    assert_non_null(strstr(reply, "error message="));
    assert_int_equal(feed(s, "set-param name=unknown-thing value=1"), DM_HUB_NONE);
    assert_string_equal(reply, "");
    assert_int_equal(feed(s, "init"), DM_HUB_NONE);
    assert_string_equal(reply, "ready\n");
    assert_int_equal(feed(s, "ping"), DM_HUB_NONE);
    assert_string_equal(reply, "pong\n");
    assert_int_equal(feed(s, "quit"), DM_HUB_QUIT);
    dm_hub_session_free(s);
}

/* The scripted game: bad lines in between good ones, and a real search. */
static void test_hub__dialogue_with_bad_lines(void **state)
{
    (void)state;
    dm_hub_session *s = new_session();
    feed(s, "hub");
    feed(s, "init");
    assert_int_equal(feed(s, "new-game"), DM_HUB_NEW_GAME);

    /* garbage */
    assert_int_equal(feed(s, "pos pos=\"unterminated"), DM_HUB_NONE);
    assert_non_null(strstr(reply, "error message=\"cannot read the line"));
    /* unknown command and unknown argument: ignored */
    assert_int_equal(feed(s, "frobnicate now=1"), DM_HUB_NONE);
    assert_string_equal(reply, "");
    /* bad position */
    feed(s, "pos pos=Wbbbb");
    assert_non_null(strstr(reply, "error message=\"bad position"));
    feed(s, "pos pos=Xbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww");
    assert_non_null(strstr(reply, "error message="));
    /* good position with moves, then an illegal move: the session keeps the good one */
    feed(s, "pos pos=" START " moves=\"32-28 19-23 28x19\" future-arg=1");
    assert_string_equal(reply, "");
    feed(s, "pos pos=" START " moves=\"32-28 19-23 34-29\"");
    assert_non_null(strstr(reply, "error message=\"illegal move 3 '34-29'"));
    feed(s, "pos pos=" START " moves=\"32-28 hello\"");
    assert_non_null(strstr(reply, "error message=\"bad move 2 'hello'"));
    /* bad levels */
    feed(s, "level depth=-3");
    assert_non_null(strstr(reply, "error message=\"bad level: depth="));
    feed(s, "level move-time=abc");
    assert_non_null(strstr(reply, "error message=\"bad level: move-time="));
    feed(s, "level inc=2");
    assert_non_null(strstr(reply, "error message=\"bad level"));
    /* A clock already past zero (time below 0) means play at once, not an error. */
    feed(s, "level time=-2.5");
    assert_string_equal(reply, "");
    feed(s, "level time=-2.5x");
    assert_non_null(strstr(reply, "error message=\"bad level: time="));
    feed(s, "level depth=3");
    assert_string_equal(reply, "");
    /* The last pos was rejected: go must neither search the older position nor
     * answer a bare done, but say why (README, hub). */
    assert_int_equal(feed(s, "go think"), DM_HUB_NONE);
    assert_non_null(strstr(reply, "error message=\"go: the last pos was rejected"));
    assert_false(dm_hub_session_searching(s));
    /* A rejected bare position too, then a good one: go works again. */
    feed(s, "pos pos=Wbbbb");
    assert_int_equal(feed(s, "go think"), DM_HUB_NONE);
    assert_non_null(strstr(reply, "go: the last pos was rejected"));
    feed(s, "pos pos=" START " moves=\"32-28 19-23 28x19\"");
    assert_string_equal(reply, "");

    assert_int_equal(feed(s, "go think"), DM_HUB_SEARCH);
    assert_true(dm_hub_session_searching(s));
    dm_search_input in;
    dm_limits lim;
    dm_hub_session_search(s, &in, &lim);
    assert_int_equal(lim.depth, 3);
    dm_board expect;
    assert_int_equal(dm_board_from_fen(&expect, in.root.variant, "B:W19,31,33-50:B1-18,20", NULL),
                     DM_OK);
    assert_int_equal(in.root.variant->id, DM_VARIANT_INTERNATIONAL);
    assert_memory_equal(in.root.sq, expect.sq, sizeof expect.sq); /* after 32-28 19-23 28x19 */
    assert_int_equal(in.root.side, expect.side);
    assert_int_equal(in.history_count, 0); /* the capture was irreversible */

    /* During the search: only ping/stop/ponder-hit/quit act. */
    assert_int_equal(feed(s, "pos pos=" START), DM_HUB_NONE);
    assert_non_null(strstr(reply, "error message=\"pos: a search is running"));
    assert_int_equal(feed(s, "ping"), DM_HUB_NONE);
    assert_string_equal(reply, "pong\n");
    assert_int_equal(feed(s, "ponder-hit"), DM_HUB_NONE); /* not pondering */
    assert_int_equal(feed(s, "stop"), DM_HUB_STOP);

    dm_engine *e;
    assert_int_equal(dm_engine_create(&e, NULL), DM_OK);
    dm_result r;
    assert_int_equal(dm_engine_search(&r, e, &in, &lim, NULL, NULL, NULL), DM_OK);
    char line[512];
    dm_hub_session_done(s, &r, line, sizeof line);
    assert_false(dm_hub_session_searching(s));
    /* done move=X ponder=Y, X legal at the root. */
    char mv[64];
    assert_int_equal(sscanf(line, "done move=%63s", mv), 1);
    dm_move m;
    assert_int_equal(dm_move_parse(&m, &in.root, mv, NULL), DM_OK);
    assert_non_null(strstr(line, " ponder="));

    /* Info lines: score in men, pv in Hub notation. */
    dm_info info;
    memset(&info, 0, sizeof info);
    info.depth = 7;
    info.score = -125;
    info.nodes = 1000;
    info.time = 0.5;
    info.nps = 2000;
    info.pv_count = 1;
    info.pv[0] = m;
    dm_hub_session_info(s, &info, line, sizeof line);
    char expect_info[256];
    snprintf(expect_info, sizeof expect_info,
             "info depth=7 seldepth=0 score=-1.25 nodes=1000 "
             "time=0.500 nps=0.00 pv=\"%s\"\n",
             mv);
    assert_string_equal(line, expect_info);

    /* Back to idle: new commands work again. */
    assert_int_equal(feed(s, "level move-time=0.5"), DM_HUB_NONE);
    assert_string_equal(reply, "");
    assert_int_equal(feed(s, "go analyze"), DM_HUB_SEARCH);
    dm_hub_session_search(s, &in, &lim);
    assert_true(lim.analyse);
    assert_true(lim.move_time > 0.49 && lim.move_time < 0.51);
    dm_hub_session_done(s, &r, line, sizeof line);
    dm_engine_free(e);
    dm_hub_session_free(s);
}

static void test_hub__levels_and_history(void **state)
{
    (void)state;
    dm_hub_session *s = new_session();
    /* King moves are reversible: their positions are history for repetition. */
    feed(s,
         "pos pos=WeeeeeeeeeeeeeeeeeeeeeeeeeWeeeeeeeeeeeeeeeeeBeeeeee moves=\"26-21 44-50 21-26\"");
    assert_string_equal(reply, "");
    feed(s, "level moves=40 time=300 inc=1.5");
    assert_string_equal(reply, "");
    assert_int_equal(feed(s, "go ponder"), DM_HUB_SEARCH);
    dm_search_input in;
    dm_limits lim;
    dm_hub_session_search(s, &in, &lim);
    assert_int_equal(in.history_count, 3);
    assert_int_equal(in.draw_count.reversible_plies, 3);
    assert_int_equal(in.draw_count.material_plies, 3); /* king against king: 5-move rule */
    assert_int_equal(lim.moves_to_go, 40);
    assert_true(lim.time == 300.0 && lim.inc == 1.5 && lim.ponder);
    assert_int_equal(feed(s, "ponder-hit"), DM_HUB_PONDERHIT);
    dm_hub_session_done(s, NULL, reply, sizeof reply);
    assert_string_equal(reply, "done\n");

    feed(s, "level infinite");
    assert_string_equal(reply, "");
    /* A terminal position: go is refused with an error, no search starts. */
    feed(s, "pos pos=Weeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeebeeeee");
    assert_string_equal(reply, "");
    assert_int_equal(feed(s, "go think"), DM_HUB_NONE);
    assert_non_null(strstr(reply, "error message=\"go: the side to move has no legal move"));
    assert_false(dm_hub_session_searching(s));
    dm_hub_session_free(s);
}

/* The search run on the Hub session's dm_session (what `damier hub` does): the same
 * root and game-layer history as dm_hub_session_search describes; done from the
 * session's thread; a rejected pos leaves the dm_session refusing to search. */
typedef struct hub_done {
    dm_hub_session *s;
    char line[512];
} hub_done;

static void hub_on_done(const dm_result *r, void *payload)
{
    hub_done *d = payload;
    dm_hub_session_done(d->s, r, d->line, sizeof d->line);
}

static void test_hub__search_on_the_session(void **state)
{
    (void)state;
    dm_hub_session *s = new_session();
    dm_session *game = dm_hub_session_game(s);
    assert_non_null(game);
    feed(s,
         "pos pos=WeeeeeeeeeeeeeeeeeeeeeeeeeWeeeeeeeeeeeeeeeeeBeeeeee moves=\"26-21 44-50 21-26\"");
    assert_string_equal(reply, "");
    /* the position and its history live in the game layer */
    assert_int_equal(dm_game_ply(dm_session_game(game)), 3);
    dm_draw_count c;
    dm_game_draw_count(&c, dm_session_game(game));
    assert_int_equal(c.reversible_plies, 3);
    assert_int_equal(c.material_plies, 3);
    feed(s, "level depth=4");
    dm_error err;
    assert_int_equal(dm_hub_session_go(s, NULL, NULL, NULL, &err), DM_ESTATE); /* no go yet */
    assert_int_equal(feed(s, "go think"), DM_HUB_SEARCH);
    hub_done d = {s, ""};
    assert_int_equal(dm_hub_session_go(s, NULL, hub_on_done, &d, &err), DM_OK);
    dm_result r;
    assert_int_equal(dm_session_wait(game, &r), DM_OK);
    assert_false(dm_hub_session_searching(s));
    char mv[64];
    assert_int_equal(sscanf(d.line, "done move=%63s", mv), 1);
    dm_move m;
    assert_int_equal(dm_move_parse(&m, dm_session_position(game), mv, NULL), DM_OK);
    assert_int_equal(m.from, r.best.from);
    assert_int_equal(m.to, r.best.to);
    assert_memory_equal(m.capt, r.best.capt, sizeof m.capt);
    /* a rejected pos: the session refuses to search the older position too */
    feed(s, "pos pos=" START " moves=\"32-28 28-23\"");
    assert_non_null(strstr(reply, "error message=\"illegal move 2"));
    dm_session_go_options go = DM_SESSION_GO_INIT;
    go.limits.depth = 1;
    assert_int_equal(dm_session_go(game, &go, &err), DM_ESTATE);
    assert_non_null(strstr(err.message, "refused"));
    assert_int_equal(dm_game_ply(dm_session_game(game)), 3); /* the old game is kept */
    feed(s, "new-game");
    assert_int_equal(dm_game_ply(dm_session_game(game)), 0);
    assert_int_equal(dm_session_go(game, &go, &err), DM_OK);
    assert_int_equal(dm_session_wait(game, &r), DM_OK);
    dm_hub_session_free(s);
}

/* ---- transcripts: tests/data/transcripts/hub_*.txt --------------------------- */

/* Expected line `want` against `got`: each '*' matches any run of characters (a
 * trailing one any rest of the line). */
static int line_matches(const char *want, const char *got)
{
    if (*want == 0) {
        return *got == 0;
    }
    if (*want == '*') {
        for (const char *g = got;; g++) {
            if (line_matches(want + 1, g)) {
                return 1;
            }
            if (*g == 0) {
                return 0;
            }
        }
    }
    return *want == *got && line_matches(want + 1, got + 1);
}

/* Split the reply text into lines appended to lines[] (at most cap). */
static int split_lines(char lines[][1024], int count, int cap, const char *text)
{
    while (*text && count < cap) {
        size_t n = strcspn(text, "\n");
        snprintf(lines[count++], 1024, "%.*s", (int)n, text);
        text += n + (text[n] == '\n');
    }
    return count;
}

static void on_info_collect(const dm_info *info, void *payload)
{
    void **p = payload;
    dm_hub_session *s = p[0];
    char *buf = p[1];
    size_t len = strlen(buf);
    dm_hub_session_info(s, info, buf + len, 16384 - len);
}

/* Replace every token of subst (pairs: token, value; NULL-terminated) in line. */
static void substitute(char *line, size_t cap, const char *const *subst)
{
    for (int i = 0; subst && subst[i]; i += 2) {
        char *at;
        while ((at = strstr(line, subst[i])) != NULL) {
            static char rest[DM_HUB_MAX_LINE + 2];
            snprintf(rest, sizeof rest, "%s", at + strlen(subst[i]));
            snprintf(at, cap - (size_t)(at - line), "%s%s", subst[i + 1], rest);
        }
    }
}

/* Play the transcript at path on a new session, searching with the session's own
 * engine (as damier hub does: set-param egdb gives it the database); tokens of subst
 * (may be NULL) are replaced in every line first. */
static void run_transcript(const char *path, const char *const *subst)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fail_msg("cannot open %s", path);
    }
    dm_hub_session *s = new_session();
    dm_session *game = dm_hub_session_game(s);
    static char got[256][1024];
    int ngot = 0, used = 0, lineno = 0;
    static char line[DM_HUB_MAX_LINE + 2];
    while (fgets(line, sizeof line, f)) {
        lineno++;
        line[strcspn(line, "\n")] = 0;
        substitute(line, sizeof line, subst);
        if (line[0] == '>' && line[1] == ' ') {
            if (used < ngot) {
                fail_msg("%s:%d: unexpected reply line '%s'", path, lineno, got[used]);
            }
            ngot = used = 0;
            dm_hub_action act;
            assert_int_equal(dm_hub_session_feed(s, line + 2, &act, reply, sizeof reply), DM_OK);
            ngot = split_lines(got, ngot, 256, reply);
            if (act == DM_HUB_OPTIONS) {
                dm_engine_options o;
                dm_hub_session_options(s, &o);
                assert_int_equal(dm_session_set_engine_options(game, &o), DM_OK);
            } else if (act == DM_HUB_SEARCH) {
                static char infos[16384];
                infos[0] = 0;
                void *payload[2] = {s, infos};
                dm_search_input in;
                dm_limits lim;
                dm_hub_session_search(s, &in, &lim);
                dm_engine *e = dm_session_engine(game);
                assert_non_null(e);
                dm_result r;
                assert_int_equal(dm_engine_search(&r, e, &in, &lim, on_info_collect, payload, NULL),
                                 DM_OK);
                ngot = split_lines(got, ngot, 256, infos);
                char done[512];
                dm_hub_session_done(s, &r, done, sizeof done);
                ngot = split_lines(got, ngot, 256, done);
            }
            /* DM_HUB_NEW_GAME: the session's new game has cleared its engine. */
        } else if (line[0] == '<' && line[1] == ' ') {
            if (used >= ngot) {
                fail_msg("%s:%d: expected '%s', got nothing", path, lineno, line + 2);
            }
            if (!line_matches(line + 2, got[used])) {
                fail_msg("%s:%d: expected '%s', got '%s'", path, lineno, line + 2, got[used]);
            }
            used++;
        }
    }
    if (used < ngot) {
        fail_msg("%s: unexpected reply line '%s' at the end", path, got[used]);
    }
    fclose(f);
    dm_hub_session_free(s);
}

static void test_hub__transcripts(void **state)
{
    (void)state;
    run_transcript(DM_SOURCE_DIR "/tests/data/transcripts/hub_session.txt", NULL);
}

/* Copy file from to to; 0 on success. */
static int copy_file(const char *from, const char *to)
{
    FILE *in = fopen(from, "rb"), *out = fopen(to, "wb");
    int ok = in && out;
    char buf[4096];
    size_t n;
    while (ok && (n = fread(buf, 1, sizeof buf, in)) > 0) {
        ok = fwrite(buf, 1, n, out) == n;
    }
    if (in) {
        fclose(in);
    }
    if (out && fclose(out) != 0) {
        ok = 0;
    }
    return ok ? 0 : -1;
}

/* `go think` on session s, searched with its own engine as damier hub does; returns
 * the score. */
static int go_search(dm_hub_session *s)
{
    dm_session *game = dm_hub_session_game(s);
    dm_search_input in;
    dm_limits lim;
    dm_result r;
    assert_int_equal(feed(s, "go think"), DM_HUB_SEARCH);
    dm_hub_session_search(s, &in, &lim);
    assert_int_equal(dm_engine_search(&r, dm_session_engine(game), &in, &lim, NULL, NULL, NULL),
                     DM_OK);
    char done[512];
    dm_hub_session_done(s, &r, done, sizeof done);
    return r.score;
}

/* set-param name=egdb (tests/data/transcripts/hub_egdb.txt): a 2-piece database made
 * here (@DB@), an empty folder (@EMPTY@), a folder whose only slice is corrupt
 * (@BAD@), a plain file (@FILE@) and a missing folder (@TMP@/missing). */
static void test_hub__egdb_param(void **state)
{
    (void)state;
    char tmp[] = "/tmp/dm_hub_egdbXXXXXX";
    assert_non_null(mkdtemp(tmp));
    char db[256], empty[256], bad[256], file[256], path[512];
    snprintf(db, sizeof db, "%s/db", tmp);
    snprintf(empty, sizeof empty, "%s/empty", tmp);
    snprintf(bad, sizeof bad, "%s/bad", tmp);
    snprintf(file, sizeof file, "%s/db/d0101.egdb", tmp);
    dm_egdb_gen_options go = DM_EGDB_GEN_OPTIONS_INIT;
    go.pieces = 2;
    dm_error err;
    assert_int_equal(dm_egdb_generate(db, &go, &err), DM_OK);
    assert_int_equal(mkdir(empty, 0755), 0);
    assert_int_equal(mkdir(bad, 0755), 0);
    snprintf(path, sizeof path, "%s/d0110.egdb", bad);
    char from[512];
    snprintf(from, sizeof from, "%s/d0110.egdb", db);
    assert_int_equal(copy_file(from, path), 0);
    FILE *f = fopen(path, "r+b");
    assert_non_null(f);
    assert_int_equal(fseek(f, 200, SEEK_SET), 0);
    int c = fgetc(f);
    assert_int_equal(fseek(f, 200, SEEK_SET), 0);
    fputc(c ^ 0xFF, f);
    assert_int_equal(fclose(f), 0);
    const char *const subst[] = {"@DB@",   db,   "@EMPTY@", empty, "@BAD@", bad,
                                 "@FILE@", file, "@TMP@",   tmp,   NULL};
    run_transcript(DM_SOURCE_DIR "/tests/data/transcripts/hub_egdb.txt", subst);

    /* value="" turns the database off: the K v K win is no longer a database score
     * (the search may find the capture itself: a real win, DM_SCORE_WIN_MIN or more). */
    dm_hub_session *s = new_session();
    char line[600];
    snprintf(line, sizeof line, "set-param name=egdb value=%s", db);
    feed(s, line);
    assert_string_equal(reply, "");
    feed(s, "pos pos=WeeeeeeeeeWeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeBeeee");
    assert_string_equal(reply, "");
    feed(s, "level depth=2");
    int score = go_search(s);
    assert_true(score >= DM_SCORE_EGDB_MIN && score < DM_SCORE_WIN_MIN);
    feed(s, "set-param name=egdb value=\"\"");
    assert_string_equal(reply, "");
    feed(s, "hub");
    assert_non_null(strstr(reply, "\nparam name=egdb value=\"\" type=string\n"));
    score = go_search(s);
    assert_false(score >= DM_SCORE_EGDB_MIN && score < DM_SCORE_WIN_MIN);
    dm_hub_session_free(s);

    const char *names[] = {"d0101", "d0110", "d1001", "d1010"};
    for (int i = 0; i < 4; i++) {
        snprintf(path, sizeof path, "%s/%s.egdb", db, names[i]);
        remove(path);
    }
    snprintf(path, sizeof path, "%s/d0110.egdb", bad);
    remove(path);
    rmdir(db);
    rmdir(empty);
    rmdir(bad);
    rmdir(tmp);
}

/* Remove folder dir and the files in it (the databases the tests made). */
static void remove_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (d) {
        struct dirent *e;
        char path[600];
        while ((e = readdir(d)) != NULL) {
            if (e->d_name[0] != '.') {
                snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
                remove(path);
            }
        }
        closedir(d);
    }
    rmdir(dir);
}

/* The `egdb` param of a session whose `variant` param is Russian, Brazilian or
 * English: 2-piece databases of English and Russian made here. A folder of another
 * variant than the session's is refused, naming both, and the previous database (or
 * none) stays; the English database scores the English king on 32 against the king
 * on 26 a database win (tests/cli/egdb8.sh probes it: win in 9 plies); the same
 * variant set again keeps the database; another variant drops it (docs/EGDB.md). */
static void test_hub__egdb_param_8x8(void **state)
{
    (void)state;
    char tmp[] = "/tmp/dm_hub_egdb8XXXXXX";
    assert_non_null(mkdtemp(tmp));
    char en[256], ru[256], line[1200], want[1200];
    snprintf(en, sizeof en, "%s/en", tmp);
    snprintf(ru, sizeof ru, "%s/ru", tmp);
    dm_egdb_gen_options go = DM_EGDB_GEN_OPTIONS_INIT;
    go.pieces = 2;
    dm_error err;
    go.variant = DM_VARIANT_ENGLISH;
    assert_int_equal(dm_egdb_generate(en, &go, &err), DM_OK);
    go.variant = DM_VARIANT_RUSSIAN;
    assert_int_equal(dm_egdb_generate(ru, &go, &err), DM_OK);

    dm_hub_session *s = new_session();
    /* an international session: the English folder is refused */
    snprintf(line, sizeof line, "set-param name=egdb value=%s", en);
    feed(s, line);
    snprintf(want, sizeof want,
             "error message=\"set-param egdb: the database in '%s' is of english, the game of "
             "international (set-param name=variant value=english first, or give a folder of "
             "international slices); the engine plays on without one\"\n",
             en);
    assert_string_equal(reply, want);
    feed(s, "hub");
    assert_non_null(strstr(reply, "\nparam name=egdb value=\"\" type=string\n"));

    /* an English session takes it and scores with it */
    feed(s, "set-param name=variant value=english");
    feed(s, line);
    assert_string_equal(reply, "");
    snprintf(want, sizeof want, "\nparam name=egdb value=%s type=string\n", en);
    feed(s, "hub");
    assert_non_null(strstr(reply, want));
    /* White king on 32, Black king on 26, White to move */
    feed(s, "pos pos=WeeeeeeeeeeeeeeeeeeeeeeeeeBeeeeeW");
    assert_string_equal(reply, "");
    feed(s, "level depth=2");
    assert_int_equal(go_search(s), DM_SCORE_EGDB - 9);

    /* a Russian folder in the English session: refused, the English one stays */
    snprintf(line, sizeof line, "set-param name=egdb value=%s", ru);
    feed(s, line);
    snprintf(want, sizeof want,
             "error message=\"set-param egdb: the database in '%s' is of russian, the game of "
             "english (set-param name=variant value=russian first, or give a folder of english "
             "slices); the engine plays on with the previous database\"\n",
             ru);
    assert_string_equal(reply, want);
    feed(s, "set-param name=variant value=english"); /* the same variant: kept */
    feed(s, "hub");
    snprintf(want, sizeof want, "\nparam name=egdb value=%s type=string\n", en);
    assert_non_null(strstr(reply, want));

    /* another variant drops it; that variant's folder is then taken */
    feed(s, "set-param name=variant value=russian");
    assert_string_equal(reply, "");
    feed(s, "hub");
    assert_non_null(strstr(reply, "\nparam name=egdb value=\"\" type=string\n"));
    feed(s, line);
    assert_string_equal(reply, "");
    feed(s, "set-param name=variant value=normal");
    feed(s, "hub");
    assert_non_null(strstr(reply, "\nparam name=egdb value=\"\" type=string\n"));
    dm_hub_session_free(s);
    remove_dir(en);
    remove_dir(ru);
    rmdir(tmp);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hub__parse_pairs_flags_and_quotes),
        cmocka_unit_test(test_hub__parse_rejects_garbage_with_column),
        cmocka_unit_test(test_hub__append_pair_quotes_when_needed),
        cmocka_unit_test(test_hub__handshake),
        cmocka_unit_test(test_hub__dialogue_with_bad_lines),
        cmocka_unit_test(test_hub__levels_and_history),
        cmocka_unit_test(test_hub__search_on_the_session),
        cmocka_unit_test(test_hub__transcripts),
        cmocka_unit_test(test_hub__egdb_param),
        cmocka_unit_test(test_hub__egdb_param_8x8),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
