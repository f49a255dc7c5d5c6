/* SPDX-License-Identifier: MIT
 * tests/fake/fake_hub.c: a fake Hub engine for the tests of `damier match`
 * (tests/cli/match.sh). It plays the first legal move (the generator's order) and,
 * from its N-th search on (--after N, default 1), misbehaves as --mode says:
 *   first     never (a correct engine)
 *   reverse   lists the captured squares of a capture in descending order (still a
 *             correct Hub move: the referee must take it)
 *   sleep     answers after --sleep S seconds (default 5)
 *   mute      never answers
 *   illegal   a capture with a wrong captured set, or a quiet move to its own square
 *   die       exits (status 3) instead of answering
 *   garbage   answers `done move=zz!!`
 *   garbled   answers a line that is not Hub syntax: `done move="12-17`
 * --proto hub1 speaks Hub version 1 as Scan 2.0 does (`name ...`, `pos <51 chars>`,
 * `move M`, `level`, `go`, answer `move M`). --name NAME gives its name.
 * `set-param name=variant value=V` (a Hub name: normal, russian, english, canadian,
 * losing, ...) plays that variant on the generic board (variant.h): `pos pos=` with
 * one letter per square of its board, moves in its Hub notation; the modes first,
 * reverse, illegal (a quiet move to its own square, or a capture with a square it
 * does not take), garbage and garbled work there too. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/board10.h"
#include <damier/hub.h>
#include "core/move10.h"
#include <damier/variant.h>

static void say(const char *fmt, const char *arg)
{
    printf(fmt, arg);
    fflush(stdout);
}

/* The variant of a Hub name (NULL: international on the fast board). */
static const dm_variant *hub_variant(const char *name)
{
    static const char *const hub[DM_VARIANT_COUNT] = {
        "normal", "brazilian",    "russian", "english", "canadian", "losing",  "czech", "italian",
        "killer", "breakthrough", "spanish", "pool",    "thai",     "frisian", "frysk"};
    for (int i = 1; i < DM_VARIANT_COUNT; i++) {
        if (!strcmp(name, hub[i])) {
            return dm_variant_get((dm_variant_id)i);
        }
    }
    return NULL;
}

/* A variant position in Hub form (side, then w b W B e per record square). */
static int vpos_read(dm_board *b, const dm_variant *v, const char *pos)
{
    if (strlen(pos) != (size_t)v->squares + 1 || (pos[0] != 'W' && pos[0] != 'B')) {
        return -1;
    }
    dm_board_clear(b, v);
    b->side = pos[0] == 'W' ? DM_WHITE : DM_BLACK;
    static const char letters[] = "ewbWB";
    for (int n = 1; n <= v->squares; n++) {
        const char *k = strchr(letters, pos[n]);
        if (!k) {
            return -1;
        }
        b->sq[dm_square_from_number(v, n)] = (uint8_t)(k - letters);
    }
    return 0;
}

/* The answer of a variant search: the first legal move, or as mode says. */
static void vgo(dm_board *b, const char *mode, int bad)
{
    static dm_movelist list;
    const dm_variant *v = b->variant;
    if (dm_movegen_legal(&list, b) == 0) {
        say("error message=\"no move\"\n%s", "");
        return;
    }
    dm_move m = list.moves[0];
    char text[400];
    dm_move_to_text(text, sizeof text, b, &m, DM_NOTATION_HUB, DM_SQUARES_NUMERIC);
    int from = dm_square_number(v, m.from), to = dm_square_number(v, m.to);
    if (bad && !strcmp(mode, "reverse") && m.ncapt > 1) {
        int k = snprintf(text, sizeof text, "%dx%d", from, to);
        for (int n = v->squares; n >= 1; n--) {
            if (dm_move_captures(&m, dm_square_from_number(v, n))) {
                k += snprintf(text + k, sizeof text - (size_t)k, "x%d", n);
            }
        }
    } else if (bad && !strcmp(mode, "illegal")) {
        if (m.ncapt > 0) {
            int other = 1;
            while (dm_move_captures(&m, dm_square_from_number(v, other))) {
                other++;
            }
            snprintf(text, sizeof text, "%dx%dx%d", from, to, other);
        } else {
            snprintf(text, sizeof text, "%d-%d", from, from);
        }
    } else if (bad && !strcmp(mode, "garbage")) {
        snprintf(text, sizeof text, "zz!!");
    } else if (bad && !strcmp(mode, "garbled")) {
        say("done move=\"%s\n", text);
        return;
    }
    say("info depth=1 score=0.00\ndone move=%s\n", text);
    dm_board_apply(b, &m);
}

int main(int argc, char **argv)
{
    const char *mode = "first", *name = "fake";
    int after = 1, hub1 = 0;
    double sleep_s = 5;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--mode")) {
            mode = argv[i + 1];
        } else if (!strcmp(argv[i], "--after")) {
            after = atoi(argv[i + 1]);
        } else if (!strcmp(argv[i], "--sleep")) {
            sleep_s = atof(argv[i + 1]);
        } else if (!strcmp(argv[i], "--name")) {
            name = argv[i + 1];
        } else if (!strcmp(argv[i], "--proto")) {
            hub1 = !strcmp(argv[i + 1], "hub1");
        }
    }
    static dm_hub_cmd c;
    char line[10000];
    dm_board10 b;
    dm_board10_start(&b);
    const dm_variant *var = NULL; /* set-param name=variant: the generic board vb */
    dm_board vb;
    int searches = 0;
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\r\n")] = '\0';
        if (dm_hub_parse_line(&c, line, NULL) != DM_OK) {
            continue;
        }
        if (!strcmp(c.name, "hub")) {
            if (hub1) {
                say("name %s\n", name);
            } else {
                say("id name=%s version=1\n", name);
            }
            say("%swait\n", "");
        } else if (!strcmp(c.name, "init")) {
            say("%sready\n", "");
        } else if (!strcmp(c.name, "ping")) {
            say("%spong\n", "");
        } else if (!strcmp(c.name, "quit")) {
            return 0;
        } else if (!strcmp(c.name, "set-param") && dm_hub_get(&c, "name") &&
                   !strcmp(dm_hub_get(&c, "name"), "variant") && dm_hub_get(&c, "value")) {
            var = hub_variant(dm_hub_get(&c, "value"));
        } else if (var && !strcmp(c.name, "pos")) {
            const char *p = dm_hub_get(&c, "pos");
            if (!p || vpos_read(&vb, var, p) != 0) {
                say("error message=\"bad position\"\n%s", "");
                continue;
            }
            const char *mv = dm_hub_get(&c, "moves");
            char buf[10000];
            snprintf(buf, sizeof buf, "%s", mv ? mv : "");
            for (char *t = strtok(buf, " "); t; t = strtok(NULL, " ")) {
                dm_move m;
                if (dm_move_parse(&m, &vb, t, NULL) != DM_OK) {
                    say("error message=\"bad move\"\n%s", "");
                    break;
                }
                dm_board_apply(&vb, &m);
            }
        } else if (var && !strcmp(c.name, "go")) {
            searches++;
            vgo(&vb, mode, searches >= after && strcmp(mode, "first"));
        } else if (!strcmp(c.name, "pos")) {
            const char *p = hub1 ? (c.pair_count ? c.pair[0].name : "") : dm_hub_get(&c, "pos");
            char pos[64];
            snprintf(pos, sizeof pos, "%s", p ? p : "");
            if (hub1 && (pos[0] == 'w' || pos[0] == 'b')) {
                pos[0] = pos[0] == 'w' ? 'W' : 'B'; /* Hub 1: the side in lower case */
            } else if (hub1) {
                pos[0] = '?';
            }
            if (dm_board10_from_hub(&b, pos, NULL) != DM_OK) {
                say("error message=\"bad position\"\n%s", "");
                continue;
            }
            const char *mv = hub1 ? NULL : dm_hub_get(&c, "moves");
            char buf[10000];
            snprintf(buf, sizeof buf, "%s", mv ? mv : "");
            for (char *t = strtok(buf, " "); t; t = strtok(NULL, " ")) {
                dm_move10 m;
                if (dm_move10_parse(&m, &b, t, NULL) != DM_OK) {
                    say("error message=\"bad move\"\n%s", "");
                    break;
                }
                dm_board10_apply(&b, &m);
            }
        } else if (hub1 && !strcmp(c.name, "move") && c.pair_count) {
            dm_move10 m;
            if (dm_move10_parse(&m, &b, c.pair[0].name, NULL) == DM_OK) {
                dm_board10_apply(&b, &m);
            }
        } else if (!strcmp(c.name, "go")) {
            searches++;
            int bad = searches >= after && strcmp(mode, "first");
            dm_movelist10 list;
            if (dm_movegen10_legal(&list, &b) == 0) {
                say("error message=\"no move\"\n%s", "");
                continue;
            }
            dm_move10 m = list.moves[0];
            char text[200];
            dm_move10_to_text(text, sizeof text, &b, &m, DM_NOTATION_HUB);
            if (bad && !strcmp(mode, "reverse") && m.ncapt > 1) {
                int sq[64], n = dm_move10_captured(&m, sq, 64);
                int k = snprintf(text, sizeof text, "%dx%d", m.from, m.to);
                for (int i = n - 1; i >= 0; i--) {
                    k += snprintf(text + k, sizeof text - (size_t)k, "x%d", sq[i]);
                }
            } else if (bad && !strcmp(mode, "illegal")) {
                if (m.ncapt > 1) {
                    int sq[64];
                    dm_move10_captured(&m, sq, 64);
                    snprintf(text, sizeof text, "%dx%dx%d", m.from, m.to, sq[0]);
                } else if (m.ncapt == 1) {
                    snprintf(text, sizeof text, "%dx%dx%d", m.from, m.to, m.to == 1 ? 2 : 1);
                } else {
                    snprintf(text, sizeof text, "%d-%d", m.from, m.from);
                }
            } else if (bad && !strcmp(mode, "sleep")) {
                struct timespec ts = {(time_t)sleep_s,
                                      (long)((sleep_s - (double)(time_t)sleep_s) * 1e9)};
                nanosleep(&ts, NULL);
            } else if (bad && !strcmp(mode, "mute")) {
                continue;
            } else if (bad && !strcmp(mode, "die")) {
                return 3;
            } else if (bad && !strcmp(mode, "garbage")) {
                snprintf(text, sizeof text, "zz!!");
            } else if (bad && !strcmp(mode, "garbled")) {
                say("done move=\"%s\n", text);
                continue;
            }
            if (hub1) {
                say("move %s\n", text);
            } else {
                say("info depth=1 score=0.00\ndone move=%s\n", text);
            }
            dm_board10_apply(&b, &m);
        }
    }
    return 0;
}
