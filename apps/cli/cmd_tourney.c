/* SPDX-License-Identifier: MIT
 * apps/cli/cmd_tourney.c: `damier tourney check|pair|result|standings|crosstable|play FILE`,
 * a tournament kept in a text file (docs/TOURNEY.md; the library's damier/tourney.h):
 * pair the next round into the file, record results, print the standings by section
 * and category, and the crosstable. The file is rewritten atomically (a temporary
 * file, fsync, rename), so an interrupted command leaves the old file or the new. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <getopt.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <damier/tourney.h>

#include "commands.h"
#include "play.h"

static void usage(FILE *f)
{
    fprintf(f, "usage: damier tourney COMMAND FILE [options]   (docs/TOURNEY.md)\n"
               "  check FILE                 read the file; report the first error and where\n"
               "  pair FILE                  pair the next round (round robin: Berger tables;\n"
               "                             Swiss: Monrad) and write it into FILE\n"
               "  result FILE N RESULT       the result of pairing N (1-based) of the last round:\n"
               "                             2-0 1-1 0-2 (or 1-0 0-1 1/2-1/2), +- -+ -- forfeits,\n"
               "                             * not played; team events: one result per board\n"
               "  standings FILE [--section S] [--category C]\n"
               "  crosstable FILE [--section S]\n"
               "  play FILE --engine NAME=CMD... [--all] [--pdn OUT] [-- MATCH OPTIONS]\n"
               "                             play the round's pending games between Hub engines\n"
               "                             (one `damier match` game each, from the start\n"
               "                             position; options after -- go to damier match,\n"
               "                             default --movetime 0.1); --all: every round\n");
}

static int load(dm_tourney *t, const char *path)
{
    size_t len;
    char *text = cli_read_file("tourney", path, (size_t)64 << 20, &len);
    if (!text) {
        return 2;
    }
    dm_error err;
    dm_status st = dm_tourney_read(t, text, len, &err);
    free(text);
    if (st != DM_OK) {
        fprintf(stderr, "damier tourney: %s: %s\n", path, err.message);
        return 1;
    }
    return 0;
}

static int save(const dm_tourney *t, const char *path)
{
    char *text;
    size_t len;
    if (dm_tourney_write(&text, &len, t) != DM_OK) {
        fprintf(stderr, "damier tourney: out of memory\n");
        return 1;
    }
    dm_error err;
    dm_status st = play_write_file(path, text, len, &err);
    free(text);
    if (st != DM_OK) {
        fprintf(stderr, "damier tourney: cannot write '%s': %s\n", path, err.message);
        return 1;
    }
    return 0;
}

static void print_round(const dm_tourney *t, int round)
{
    int n = 0;
    printf("round %d\n", round);
    for (int k = 0; k < t->npairings; k++) {
        const dm_tourney_pairing *p = &t->pairings[k];
        if (p->round != round) {
            continue;
        }
        n++;
        if (p->outcome == DM_TOUT_BYE) {
            printf("%d: %s bye (%d)\n", n, t->entrants[p->white].name, t->bye);
        } else {
            printf("%d: %s - %s\n", n, t->entrants[p->white].name, t->entrants[p->black].name);
        }
    }
}

static int cmd_pair(const char *path)
{
    dm_tourney t;
    int rc = load(&t, path);
    if (rc) {
        return rc;
    }
    dm_error err;
    int round;
    if (dm_tourney_pair_next(&t, &round, &err) != DM_OK) {
        fprintf(stderr, "damier tourney pair: %s\n", err.message);
        dm_tourney_free(&t);
        return 1;
    }
    rc = save(&t, path);
    if (!rc) {
        print_round(&t, round);
    }
    dm_tourney_free(&t);
    return rc;
}

/* Pairing index (into t->pairings) of the n-th (1-based) pairing of the last round,
 * or -1. */
static int nth_of_last_round(const dm_tourney *t, int n)
{
    int round = dm_tourney_current_round(t), seen = 0;
    for (int k = 0; k < t->npairings; k++) {
        if (t->pairings[k].round == round && ++seen == n) {
            return k;
        }
    }
    return -1;
}

static int cmd_result(const char *path, int argc, char **argv)
{
    dm_tourney t;
    int rc = load(&t, path);
    if (rc) {
        return rc;
    }
    int n = 0;
    if (argc < 2 || !play_parse_int(argv[0], 1, 10000, &n)) {
        fprintf(stderr, "damier tourney result: give the pairing's number and its result\n");
        dm_tourney_free(&t);
        return 2;
    }
    int k = nth_of_last_round(&t, n);
    if (k < 0) {
        fprintf(stderr, "damier tourney result: round %d has no pairing %d\n",
                dm_tourney_current_round(&t), n);
        dm_tourney_free(&t);
        return 2;
    }
    dm_error err;
    dm_status st = DM_OK;
    int outcome, a, b;
    if (t.boards > 0 && argc - 1 == t.boards) {
        for (int i = 0; i < t.boards && st == DM_OK; i++) {
            if (!dm_tourney_result_from_text(&t, argv[1 + i], &outcome, &a, &b) ||
                outcome != DM_TOUT_PLAYED) {
                st = dm_error_set(&err, DM_EINVAL, 0, 0, "board %d: '%s' is no game's result",
                                  i + 1, argv[1 + i]);
            } else {
                st = dm_tourney_set_board(&t, k, i + 1, a, b, &err);
            }
        }
    } else if (argc != 2) {
        st = dm_error_set(&err, DM_EINVAL, 0, 0, "give one result%s",
                          t.boards > 0 ? " (a forfeit or *) or one per board" : "");
    } else if (!dm_tourney_result_from_text(&t, argv[1], &outcome, &a, &b)) {
        st = dm_error_set(&err, DM_EINVAL, 0, 0, "'%s' is no result", argv[1]);
    } else {
        st = dm_tourney_set_result(&t, k, outcome, a, b, &err);
    }
    if (st != DM_OK) {
        fprintf(stderr, "damier tourney result: %s\n", err.message);
        dm_tourney_free(&t);
        return 2;
    }
    rc = save(&t, path);
    dm_tourney_free(&t);
    return rc;
}

/* Points in the event's scale as text: "7", or "3.5" (values counted in halves). */
static void points_text(char *buf, size_t cap, double v)
{
    if (v == (long long)v) {
        snprintf(buf, cap, "%lld", (long long)v);
    } else {
        snprintf(buf, cap, "%.1f", v);
    }
}

static int cmd_standings(const char *path, const char *section, const char *category)
{
    dm_tourney t;
    int rc = load(&t, path);
    if (rc) {
        return rc;
    }
    int tbs[DM_TOURNEY_MAX_TIEBREAKS], ntb = t.ntiebreaks;
    if (ntb < 0) {
        ntb = dm_tourney_default_tiebreaks(&t, tbs);
    } else {
        memcpy(tbs, t.tiebreaks, sizeof tbs);
    }
    dm_tourney_standing *s = malloc(sizeof *s * (size_t)(t.nentrants > 0 ? t.nentrants : 1));
    if (!s) {
        dm_tourney_free(&t);
        return 1;
    }
    int n = dm_tourney_standings(&t, section, category, s, t.nentrants);
    printf("standings after round %d%s%s%s%s\n", dm_tourney_current_round(&t),
           section ? ", section " : "", section ? section : "", category ? ", category " : "",
           category ? category : "");
    printf("rank name points games");
    for (int k = 0; k < ntb; k++) {
        printf(" %s", dm_tourney_tiebreak_name(tbs[k]));
    }
    printf("\n");
    for (int i = 0; i < n; i++) {
        char v[32];
        printf("%d \"%s\" %d %d", s[i].rank, t.entrants[s[i].entrant].name, s[i].points,
               s[i].games);
        for (int k = 0; k < ntb; k++) {
            points_text(v, sizeof v, s[i].tb[k]);
            printf(" %s", v);
        }
        printf("\n");
    }
    free(s);
    dm_tourney_free(&t);
    return 0;
}

/* Each entrant's rounds: "<opponent's rank><w|b><points>", "bye", "-" (not paired),
 * "+"/"-" marks for forfeits, "?" pending. */
static int cmd_crosstable(const char *path, const char *section)
{
    dm_tourney t;
    int rc = load(&t, path);
    if (rc) {
        return rc;
    }
    dm_tourney_standing *s = malloc(sizeof *s * (size_t)(t.nentrants > 0 ? t.nentrants : 1));
    int *place = malloc(sizeof *place * (size_t)(t.nentrants > 0 ? t.nentrants : 1));
    if (!s || !place) {
        free(s);
        free(place);
        dm_tourney_free(&t);
        return 1;
    }
    int n = dm_tourney_standings(&t, section, NULL, s, t.nentrants);
    for (int i = 0; i < t.nentrants; i++) {
        place[i] = 0;
    }
    for (int i = 0; i < n; i++) {
        place[s[i].entrant] = i + 1;
    }
    int rounds = dm_tourney_current_round(&t);
    printf("crosstable after round %d%s%s\n", rounds, section ? ", section " : "",
           section ? section : "");
    for (int i = 0; i < n; i++) {
        int e = s[i].entrant;
        printf("%d \"%s\"", i + 1, t.entrants[e].name);
        for (int r = 1; r <= rounds; r++) {
            const dm_tourney_pairing *p = NULL;
            for (int k = 0; k < t.npairings && !p; k++) {
                const dm_tourney_pairing *q = &t.pairings[k];
                if (q->round == r && (q->white == e || q->black == e)) {
                    p = q;
                }
            }
            if (!p) {
                printf(" -");
            } else if (p->outcome == DM_TOUT_BYE) {
                printf(" bye");
            } else {
                int side = p->black == e, opp = side ? p->white : p->black;
                printf(" %d%c", place[opp], side ? 'b' : 'w');
                if (p->outcome == DM_TOUT_PENDING) {
                    printf("?");
                } else {
                    printf("%s%d", p->outcome == DM_TOUT_FORFEIT ? "f" : "", p->score[side]);
                }
            }
        }
        printf(" %d\n", s[i].points);
    }
    free(s);
    free(place);
    dm_tourney_free(&t);
    return 0;
}

/* ---- play: the pending games between engines --------------------------------- */

enum {
    MAX_PLAY_ENGINES = 64,
    MAX_MATCH_ARGS = 64
};

/* Append the file at from to the file at to (created if missing), then remove from. */
static int append_file(const char *to, const char *from)
{
    size_t len;
    char *text = cli_read_file("tourney play", from, (size_t)64 << 20, &len);
    if (!text) {
        return 1;
    }
    FILE *f = fopen(to, "ab");
    int ok = f && fwrite(text, 1, len, f) == len;
    if (f && fclose(f) != 0) {
        ok = 0;
    }
    free(text);
    remove(from);
    if (!ok) {
        fprintf(stderr, "damier tourney play: cannot write %s: %s\n", to, strerror(errno));
        return 1;
    }
    return 0;
}

/* One game between the commands of white and black through `damier match` (self: this
 * program): its result (outcome and points, in FMJD 2-1-0 as damier match prints
 * it) and the game appended to pdn (NULL: none). Returns 0, or 1 after a message. */
static int tourney_game(const char *self, const char *event, const char *wname, const char *wcmd,
                        const char *bname, const char *bcmd, char **extra, int nextra,
                        const char *pdn, int *wp, int *bp)
{
    char game_pdn[4096];
    if (pdn) {
        snprintf(game_pdn, sizeof game_pdn, "%s.game", pdn);
    }
    const char *args[MAX_MATCH_ARGS + 24];
    int n = 0;
    args[n++] = self;
    args[n++] = "match";
    args[n++] = "--engine";
    args[n++] = wcmd;
    args[n++] = "--engine";
    args[n++] = bcmd;
    args[n++] = "--name";
    args[n++] = wname;
    args[n++] = "--name";
    args[n++] = bname;
    args[n++] = "--games";
    args[n++] = "1";
    args[n++] = "--openings";
    args[n++] = "start";
    if (pdn) {
        args[n++] = "--pdn";
        args[n++] = game_pdn;
    }
    if (event[0]) {
        args[n++] = "--event";
        args[n++] = event;
    }
    for (int i = 0; i < nextra; i++) {
        args[n++] = extra[i];
    }
    if (nextra == 0) {
        args[n++] = "--movetime";
        args[n++] = "0.1";
    }
    args[n] = NULL;
    int fd[2];
    if (pipe(fd) != 0) {
        fprintf(stderr, "damier tourney play: pipe: %s\n", strerror(errno));
        return 1;
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fd[1], 1);
    posix_spawn_file_actions_addclose(&fa, fd[0]);
    pid_t pid;
    int rc = posix_spawn(&pid, self, &fa, NULL, (char *const *)args, NULL);
    posix_spawn_file_actions_destroy(&fa);
    close(fd[1]);
    if (rc != 0) {
        close(fd[0]);
        fprintf(stderr, "damier tourney play: cannot start %s: %s\n", self, strerror(rc));
        return 1;
    }
    FILE *out = fdopen(fd[0], "r");
    char line[1024], want[512];
    snprintf(want, sizeof want, "game 1/1: %s - %s ", wname, bname);
    int found = 0;
    while (out && fgets(line, sizeof line, out)) {
        if (!found && !strncmp(line, want, strlen(want))) {
            found = sscanf(line + strlen(want), "%d-%d", wp, bp) == 2;
            printf("%s", line + strlen("game 1/1: "));
            fflush(stdout);
        }
    }
    if (out) {
        fclose(out);
    } else {
        close(fd[0]);
    }
    int status;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || !found) {
        fprintf(stderr, "damier tourney play: the game %s - %s did not finish (damier match %s)\n",
                wname, bname,
                WIFEXITED(status) ? (WEXITSTATUS(status) ? "failed" : "printed no result")
                                  : "was killed");
        return 1;
    }
    return pdn ? append_file(pdn, game_pdn) : 0;
}

static int cmd_play_games(const char *path, int argc, char **argv)
{
    const char *names[MAX_PLAY_ENGINES], *cmds[MAX_PLAY_ENGINES], *pdn = NULL;
    char *spec_copy[MAX_PLAY_ENGINES];
    int neng = 0, all = 0, nextra = 0, rc = 0;
    char **extra = NULL;
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--")) {
            extra = argv + i + 1;
            nextra = argc - i - 1;
            break;
        }
        if (!strcmp(argv[i], "--all")) {
            all = 1;
        } else if (!strcmp(argv[i], "--pdn") && i + 1 < argc) {
            pdn = argv[++i];
        } else if (!strcmp(argv[i], "--engine") && i + 1 < argc && neng < MAX_PLAY_ENGINES) {
            const char *eq = strchr(argv[++i], '=');
            if (!eq || eq == argv[i] || !eq[1]) {
                fprintf(stderr, "damier tourney play: --engine NAME=CMD, not '%s'\n", argv[i]);
                rc = 2;
                break;
            }
            spec_copy[neng] = strdup(argv[i]);
            if (!spec_copy[neng]) {
                rc = 1;
                break;
            }
            spec_copy[neng][eq - argv[i]] = 0;
            names[neng] = spec_copy[neng];
            cmds[neng] = spec_copy[neng] + (eq - argv[i]) + 1;
            neng++;
        } else {
            fprintf(stderr, "damier tourney play: unexpected '%s'\n", argv[i]);
            rc = 2;
            break;
        }
    }
    if (nextra > MAX_MATCH_ARGS) {
        fprintf(stderr, "damier tourney play: more than %d options for damier match\n",
                MAX_MATCH_ARGS);
        rc = 2;
    }
    dm_tourney t;
    int loaded = 0;
    if (!rc) {
        rc = load(&t, path);
        loaded = !rc;
    }
    if (!rc && t.boards > 0) {
        fprintf(stderr, "damier tourney play: a team event's boards are played by people\n");
        rc = 2;
    }
    /* every entrant needs an engine */
    int *eng = NULL;
    if (!rc) {
        eng = malloc(sizeof *eng * (size_t)(t.nentrants > 0 ? t.nentrants : 1));
        for (int e = 0; eng && e < t.nentrants && !rc; e++) {
            eng[e] = -1;
            for (int k = 0; k < neng; k++) {
                if (!strcmp(names[k], t.entrants[e].name)) {
                    eng[e] = k;
                }
            }
            if (eng[e] < 0) {
                fprintf(stderr, "damier tourney play: no --engine for entrant \"%s\"\n",
                        t.entrants[e].name);
                rc = 2;
            }
        }
        rc = eng ? rc : 1;
    }
    char self[4096];
    ssize_t sl = readlink("/proc/self/exe", self, sizeof self - 1);
    if (!rc && sl <= 0) {
        fprintf(stderr, "damier tourney play: cannot find this program (/proc/self/exe)\n");
        rc = 1;
    }
    if (!rc) {
        self[sl] = 0;
    }
    while (!rc) {
        int pending = 0;
        for (int k = 0; k < t.npairings; k++) {
            pending += t.pairings[k].outcome == DM_TOUT_PENDING;
        }
        if (!pending) {
            if (dm_tourney_current_round(&t) > 0 && !all) {
                break;
            }
            if (dm_tourney_current_round(&t) >= dm_tourney_total_rounds(&t)) {
                break;
            }
            dm_error err;
            int round;
            if (dm_tourney_pair_next(&t, &round, &err) != DM_OK) {
                fprintf(stderr, "damier tourney play: %s\n", err.message);
                rc = 1;
                break;
            }
            if ((rc = save(&t, path))) {
                break;
            }
            print_round(&t, round);
            continue;
        }
        for (int k = 0; k < t.npairings && !rc; k++) {
            dm_tourney_pairing *p = &t.pairings[k];
            if (p->outcome != DM_TOUT_PENDING) {
                continue;
            }
            int wp, bp;
            const dm_tourney_entrant *w = &t.entrants[p->white], *b = &t.entrants[p->black];
            rc = tourney_game(self, t.event, w->name, cmds[eng[p->white]], b->name,
                              cmds[eng[p->black]], extra, nextra, pdn, &wp, &bp);
            if (!rc) {
                /* damier match prints FMJD points (2-0, 1-1, 0-2): in the event's scale */
                int sw = wp == 2 ? t.win : wp == 1 ? t.draw : t.loss;
                int sb = bp == 2 ? t.win : bp == 1 ? t.draw : t.loss;
                dm_error err;
                if (dm_tourney_set_result(&t, k, DM_TOUT_PLAYED, sw, sb, &err) != DM_OK) {
                    fprintf(stderr, "damier tourney play: %s\n", err.message);
                    rc = 1;
                } else {
                    rc = save(&t, path);
                }
            }
        }
        if (!all) {
            break;
        }
    }
    free(eng);
    for (int k = 0; k < neng; k++) {
        free(spec_copy[k]);
    }
    if (loaded) {
        dm_tourney_free(&t);
    }
    return rc;
}

int cmd_tourney(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    const char *sub = argv[1];
    if (argc < 3) {
        fprintf(stderr, "damier tourney %s: give the tournament file\n", sub);
        return 2;
    }
    const char *path = argv[2];
    if (!strcmp(sub, "check")) {
        dm_tourney t;
        int rc = load(&t, path);
        if (!rc) {
            printf("ok: %d entrants, %d of %d rounds paired, %d pairings\n", t.nentrants,
                   dm_tourney_current_round(&t), dm_tourney_total_rounds(&t), t.npairings);
            dm_tourney_free(&t);
        }
        return rc;
    }
    if (!strcmp(sub, "pair")) {
        return argc == 3 ? cmd_pair(path) : (usage(stderr), 2);
    }
    if (!strcmp(sub, "result")) {
        return cmd_result(path, argc - 3, argv + 3);
    }
    if (!strcmp(sub, "play")) {
        return cmd_play_games(path, argc - 3, argv + 3);
    }
    if (!strcmp(sub, "standings") || !strcmp(sub, "crosstable")) {
        const char *section = NULL, *category = NULL;
        for (int i = 3; i < argc; i++) {
            if (!strcmp(argv[i], "--section") && i + 1 < argc) {
                section = argv[++i];
            } else if (!strcmp(argv[i], "--category") && i + 1 < argc && sub[0] == 's') {
                category = argv[++i];
            } else {
                fprintf(stderr, "damier tourney %s: unexpected '%s'\n", sub, argv[i]);
                return 2;
            }
        }
        return sub[0] == 's' ? cmd_standings(path, section, category)
                             : cmd_crosstable(path, section);
    }
    fprintf(stderr,
            "damier tourney: unknown command '%s' (check, pair, result, standings, "
            "crosstable)\n",
            sub);
    return 2;
}
