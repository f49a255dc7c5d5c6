/* SPDX-License-Identifier: MIT
 * tests/unit/test_hub.c: the Hub codec and the engine-side session, driven by a
 * scripted dialogue that includes bad lines (garbage, bad position, illegal move,
 * bad level): each gets an error line and the session keeps working. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include <damier/engine.h>
#include <damier/game.h>
#include <damier/hub.h>
#include <damier/move.h>
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
    assert_int_equal(feed(s, "set-param name=variant value=turkish"), DM_HUB_NONE);
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
    assert_int_equal(dm_board_from_fen(&expect, "B:W19,31,33-50:B1-18,20", NULL), DM_OK);
    assert_true(dm_board_equal(&in.root, &expect)); /* after 32-28 19-23 28x19 */
    assert_int_equal(in.history_count, 0);          /* the capture was irreversible */

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
    assert_int_equal(dm_engine_search(&r, e, &in, &lim, NULL, NULL), DM_OK);
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
    assert_int_equal(in.reversible_plies, 3);
    assert_int_equal(in.endgame_plies, 3); /* king against king: 5-move rule running */
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
    dm_draw_counters c;
    dm_game_counters(&c, dm_session_game(game));
    assert_int_equal(c.kings_only_plies, 3);
    assert_int_equal(c.endgame_plies, 3);
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
    assert_int_equal(dm_move_parse(&m, dm_session_board(game), mv, NULL), DM_OK);
    assert_true(dm_move_equal(&m, &r.best));
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

/* Expected line `want` (a trailing '*' matches any rest) against `got`. */
static int line_matches(const char *want, const char *got)
{
    size_t n = strlen(want);
    if (n > 0 && want[n - 1] == '*') {
        return strncmp(want, got, n - 1) == 0;
    }
    return strcmp(want, got) == 0;
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

static void run_transcript(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fail_msg("cannot open %s", path);
    }
    dm_hub_session *s = new_session();
    dm_engine *e;
    assert_int_equal(dm_engine_create(&e, NULL), DM_OK);
    static char got[256][1024];
    int ngot = 0, used = 0, lineno = 0;
    char line[DM_HUB_MAX_LINE + 2];
    while (fgets(line, sizeof line, f)) {
        lineno++;
        line[strcspn(line, "\n")] = 0;
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
                assert_int_equal(dm_engine_set_options(e, &o), DM_OK);
            } else if (act == DM_HUB_NEW_GAME) {
                dm_engine_clear(e);
            } else if (act == DM_HUB_SEARCH) {
                static char infos[16384];
                infos[0] = 0;
                void *payload[2] = {s, infos};
                dm_search_input in;
                dm_limits lim;
                dm_hub_session_search(s, &in, &lim);
                dm_result r;
                assert_int_equal(dm_engine_search(&r, e, &in, &lim, on_info_collect, payload),
                                 DM_OK);
                ngot = split_lines(got, ngot, 256, infos);
                char done[512];
                dm_hub_session_done(s, &r, done, sizeof done);
                ngot = split_lines(got, ngot, 256, done);
            }
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
    dm_engine_free(e);
    dm_hub_session_free(s);
}

static void test_hub__transcripts(void **state)
{
    (void)state;
    run_transcript(DM_SOURCE_DIR "/tests/data/transcripts/hub_session.txt");
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
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
