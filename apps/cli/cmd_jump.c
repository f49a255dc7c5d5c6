/* SPDX-License-Identifier: MIT
 * apps/cli/cmd_jump.c: the jumping games (damier/jump.h) on the command line:
 *   damier jump moves --game G [--players N] [--board 8|10|16] [--fen POS] [--no-foreign-corner]
 *   damier jump perft --game G [...] [--divide] DEPTH
 *   damier jump search --game G [...] DEPTH   (the engine's best move at DEPTH)
 *   damier jump match --game G [...] [--games N] [--level L] [--opponent greedy|L]
 *   (the strength tests: "games N level L ...: engine won W (P%), ...")
 *   damier jump pegdb --game G [...] [--fen POS] PEGS   (the last pegs' table)
 * also reached as `damier moves --game G ...` and `damier perft --game G ...`.
 * Output (stable): moves: one move text per line in generator order (from, then to),
 * then "N moves"; perft: "DEPTH NODES SECONDS" per depth, with --divide first
 * "MOVE NODES" per root move; search: "best MOVE score S nodes N seconds T nps X". */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <damier/jump.h>

#include "commands.h"

static void jump_usage(FILE *f, const char *cmd)
{
    fprintf(f,
            "usage: damier %s --game chinese-checkers|halma|gewu [--players N]\n"
            "         [--board 8|10|16 (halma) | --board L (gewu lane)] [--fen POS]\n"
            "         [--no-foreign-corner] [--one-throw] [--options LIST]%s\n"
            "  LIST: house rules, ',' between: no-foreign-corner, one-throw, fifteen,\n"
            "        anti-spoil, super-jump, capture (1-6 players), leave-camp\n",
            cmd, strcmp(cmd, "perft") ? "" : " [--divide] DEPTH");
}

int jump_rule_option(int opt, const char *arg, unsigned *options)
{
    if (opt == 'c') {
        *options |= DM_JOPT_NO_FOREIGN_CORNER;
        return 0;
    }
    if (opt == 't') {
        *options |= DM_JOPT_GEWU_ONE_THROW;
        return 0;
    }
    unsigned more;
    dm_error err;
    if (dm_jopts_from_text(&more, arg, &err) != DM_OK) {
        fprintf(stderr, "damier: --options: %s\n", err.message);
        return -1;
    }
    *options |= more;
    return 0;
}

/* Parse the shared options into rules and position; returns 0, or the exit status. */
static int jump_setup(int argc, char **argv, const char *cmd, dm_jrules *r, dm_jpos *p, int *divide)
{
    static const struct option opts[] = {{"game", required_argument, 0, 'g'},
                                         {"players", required_argument, 0, 'p'},
                                         {"board", required_argument, 0, 'b'},
                                         {"fen", required_argument, 0, 'f'},
                                         {"no-foreign-corner", no_argument, 0, 'c'},
                                         {"one-throw", no_argument, 0, 't'},
                                         {"options", required_argument, 0, 'o'},
                                         {"divide", no_argument, 0, 'd'},
                                         {"help", no_argument, 0, 'h'},
                                         {0, 0, 0, 0}};
    const char *game_name = NULL, *fen = NULL;
    int players = 2, size = 0, c;
    unsigned options = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, "g:p:b:f:cto:dh", opts, NULL)) != -1) {
        switch (c) {
            case 'g':
                game_name = optarg;
                break;
            case 'p':
                players = atoi(optarg);
                break;
            case 'b':
                size = atoi(optarg);
                break;
            case 'f':
                fen = optarg;
                break;
            case 'c':
            case 't':
            case 'o':
                if (jump_rule_option(c, optarg, &options) != 0) {
                    return 2;
                }
                break;
            case 'd':
                if (divide) {
                    *divide = 1;
                    break;
                }
                jump_usage(stderr, cmd);
                return 2;
            case 'h':
                jump_usage(stdout, cmd);
                return -1;
            default:
                jump_usage(stderr, cmd);
                return 2;
        }
    }
    dm_jgame game;
    dm_error err;
    if (!game_name) {
        fprintf(stderr, "damier %s: --game is missing\n", cmd);
        return 2;
    }
    if (dm_jgame_from_name(&game, game_name, &err) != DM_OK ||
        dm_jrules_init(r, game, players, size, options, &err) != DM_OK) {
        fprintf(stderr, "damier %s: %s\n", cmd, err.message);
        return 2;
    }
    dm_jpos_start(p, r);
    if (fen && dm_jpos_from_text(p, r, fen, &err) != DM_OK) {
        fprintf(stderr, "damier %s: %s\n  %s\n  %*s^\n", cmd, err.message, fen,
                err.column > 0 ? err.column - 1 : 0, "");
        return 2;
    }
    return 0;
}

int cmd_jump_moves(int argc, char **argv)
{
    static dm_jrules r;
    dm_jpos p;
    int rc = jump_setup(argc, argv, "moves", &r, &p, NULL);
    if (rc) {
        return rc < 0 ? 0 : rc;
    }
    if (optind != argc) {
        jump_usage(stderr, "moves");
        return 2;
    }
    static dm_jmovelist list;
    dm_jmovegen(&list, &r, &p);
    for (int i = 0; i < list.count; i++) {
        char text[DM_JMAX_PATH * 5];
        dm_jmove_to_text(text, sizeof text, &r, &p, &list.moves[i]);
        printf("%s\n", text);
    }
    printf("%d moves\n", list.count);
    return 0;
}

int cmd_jump_perft(int argc, char **argv)
{
    static dm_jrules r;
    dm_jpos p;
    int divide = 0;
    int rc = jump_setup(argc, argv, "perft", &r, &p, &divide);
    if (rc) {
        return rc < 0 ? 0 : rc;
    }
    char *end = NULL;
    long depth = optind == argc - 1 ? strtol(argv[optind], &end, 10) : 0;
    if (!end || *end || depth < 1 || depth > 12) {
        fprintf(stderr, "damier perft: DEPTH must be a number from 1 to 12\n");
        return 2;
    }
    if (divide && r.game != DM_JGAME_GEWU) {
        static dm_jmovelist list;
        dm_jmovegen(&list, &r, &p);
        for (int i = 0; i < list.count; i++) {
            char text[DM_JMAX_PATH * 5];
            dm_jmove_to_text(text, sizeof text, &r, &p, &list.moves[i]);
            dm_jpos q = p;
            dm_jpos_apply(&q, &r, &list.moves[i]);
            printf("%s %llu\n", text, (unsigned long long)dm_jperft(&r, &q, (int)depth - 1));
        }
    }
    for (int d = 1; d <= depth; d++) {
        double t0 = cli_now();
        uint64_t n = dm_jperft(&r, &p, d);
        printf("%d %llu %.3f\n", d, (unsigned long long)n, cli_now() - t0);
        fflush(stdout);
    }
    return 0;
}

static int cmd_jump_search(int argc, char **argv)
{
    static dm_jrules r;
    dm_jpos p;
    int rc = jump_setup(argc, argv, "search", &r, &p, NULL);
    if (rc) {
        return rc < 0 ? 0 : rc;
    }
    char *end = NULL;
    long depth = optind == argc - 1 ? strtol(argv[optind], &end, 10) : 0;
    if (!end || *end) {
        fprintf(stderr, "damier jump search: DEPTH (1..8) is missing or not a number\n");
        return 2;
    }
    dm_jsearch_result res;
    dm_error err;
    double t0 = cli_now();
    if (dm_jsearch(&r, &p, (int)depth, &res, &err) != DM_OK) {
        fprintf(stderr, "damier jump search: %s\n", err.message);
        return 2;
    }
    double t = cli_now() - t0;
    char text[DM_JMAX_PATH * 5] = "none";
    if (res.best.from != res.best.to) {
        dm_jmove_to_text(text, sizeof text, &r, &p, &res.best);
    }
    printf("best %s score %d nodes %llu seconds %.3f nps %.0f\n", text, res.score,
           (unsigned long long)res.nodes, t, t > 0 ? (double)res.nodes / t : 0.0);
    return 0;
}

/* ---- damier jump match: the strength tests of issue 14 -------------------------- */

static uint64_t match_rand(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* One action of seat s in p: the engine at level (greedy at level 1), or, in the
 * first `random` actions of the game, a random legal one (the openings differ). */
static int match_action(const dm_jrules *r, const dm_jpos *p, int level, int random, uint64_t *rng,
                        dm_jmulti method, dm_jendgame *eg, dm_jaction *a)
{
    static dm_jmovelist list;
    dm_jpos q = *p;
    *a = (dm_jaction){DM_JACT_MOVE, -1, {0, 0}};
    if (r->game == DM_JGAME_GEWU && !q.throw_steps) {
        a->face = (int)(match_rand(rng) % 4);
        if (a->face == DM_GEWU_WU) {
            a->kind = DM_JACT_NONE;
            return 1;
        }
        dm_gewu_throw(&q, r, (dm_gewu_face)a->face);
    }
    int n = dm_jmovegen(&list, r, &q);
    if (n == 0) {
        a->kind = r->game == DM_JGAME_GEWU ? DM_JACT_LOST : DM_JACT_PASS;
        return 1;
    }
    if (random) {
        a->move = list.moves[match_rand(rng) % (uint64_t)n];
        return 1;
    }
    if (method == DM_JMULTI_BRS || r->players == 2 || level <= 1) {
        return dm_jengine_move_eg(r, &q, level, eg, &a->move);
    }
    dm_jsearch_result res;
    if (dm_jsearch_multi(r, &q, dm_jlevel_depth(r, level), method, &res, NULL) != DM_OK) {
        return 0;
    }
    a->move = res.best;
    return 1;
}

static int two_players_race(const dm_jrules *r)
{
    return r->players == 2 && r->game != DM_JGAME_GEWU && !(r->options & DM_JOPT_CAPTURE);
}

static int cmd_jump_match(int argc, char **argv)
{
    /* the match options first, then the game options for jump_setup */
    int games = 200, level = 10, opponent = 1, random = -1, verbose = 0, first = 1, endgame = 0,
        measure_k = -1;
    dm_jmulti method = DM_JMULTI_BRS;
    unsigned long long seed = 1;
    char **rest = calloc((size_t)argc + 1, sizeof *rest);
    if (!rest) {
        return 2;
    }
    int nrest = 0;
    rest[nrest++] = argv[0];
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        char *end = NULL;
        if (!strcmp(o, "--games") && v) {
            games = (int)strtol(v, &end, 10);
        } else if (!strcmp(o, "--level") && v) {
            level = (int)strtol(v, &end, 10);
        } else if (!strcmp(o, "--opponent") && v) {
            opponent = !strcmp(v, "greedy") ? 1 : (int)strtol(v, &end, 10);
            if (!strcmp(v, "greedy")) {
                end = (char *)v + 6;
            }
        } else if (!strcmp(o, "--random-plies") && v) {
            random = (int)strtol(v, &end, 10);
        } else if (!strcmp(o, "--endgame") && v) {
            endgame = (int)strtol(v, &end, 10);
        } else if (!strcmp(o, "--measure") && v) {
            measure_k = (int)strtol(v, &end, 10);
        } else if (!strcmp(o, "--first") && v) {
            first = (int)strtol(v, &end, 10);
        } else if (!strcmp(o, "--seed") && v) {
            seed = strtoull(v, &end, 10);
        } else if (!strcmp(o, "--verbose")) {
            verbose = 1;
            continue;
        } else if (!strcmp(o, "--search") && v && (!strcmp(v, "brs") || !strcmp(v, "paranoid"))) {
            method = !strcmp(v, "brs") ? DM_JMULTI_BRS : DM_JMULTI_PARANOID;
            i++;
            continue;
        } else if (!strcmp(o, "--trace")) {
            verbose = 2; /* every action with the position before it */
            continue;
        } else {
            rest[nrest++] = argv[i];
            continue;
        }
        if (!end || *end || games < 1 || level < 1 || level > 10 || opponent < 1 || opponent > 10 ||
            random < -1 || first < 1 || endgame < 0 || endgame > DM_JPEGDB_MAX_PEGS ||
            measure_k < -1 || measure_k > DM_JPEGDB_MAX_PEGS) {
            fprintf(stderr, "damier jump match: bad value '%s' for %s\n", v, o);
            free(rest);
            return 2;
        }
        i++;
    }
    static dm_jrules r;
    dm_jpos start;
    int rc = jump_setup(nrest, rest, "match", &r, &start, NULL);
    free(rest);
    if (rc) {
        return rc < 0 ? 0 : rc;
    }
    if (random < 0) {
        random = r.players; /* one random action per seat */
    }
    int wins = 0, lost = 0, none = 0;
    long long plies = 0, won_plies = 0;
    /* The engine's table (--endgame K) and the measuring one (--measure M, default K,
     * or 3 without --endgame; the same object when M = K): in every game the engine
     * won, from its first move in a race with at most M pegs outside its target, its
     * moves to the finish against the table's minimum. */
    static dm_jendgame eg, measure_own;
    dm_jendgame_init(&eg, endgame);
    if (measure_k < 0) {
        measure_k = endgame ? endgame : 3;
    }
    dm_jendgame_init(&measure_own, measure_k);
    dm_jendgame *measure = measure_k == endgame ? &eg : &measure_own;
    int races = 0;
    long long race_moves = 0, race_optimum = 0;
    double t0 = cli_now();
    for (int g = first - 1; g < first - 1 + games; g++) {
        int seat = g % r.players;
        uint64_t rng = (seed + 1) * 0x9E3779B97F4A7C15ull + (uint64_t)g * 0xD1B54A32D192ED03ull;
        rng = rng ? rng : 1;
        dm_jpos p = start;
        dm_jprogress pr;
        dm_jprogress_init(&pr, &r, &p);
        int n = 0, ended = 0, winner = -1, optimum = -1, own_moves = 0;
        while ((winner = dm_jpos_winner(&p, &r)) < 0 && !ended && n < 20000) {
            dm_jaction a;
            int lv = p.to_move == seat ? level : opponent;
            if (p.to_move == seat && optimum < 0 && n >= random && dm_jrace(&r, &p)) {
                optimum = dm_jendgame_distance(measure, &r, &p, seat);
            }
            if (!match_action(&r, &p, lv, n < random, &rng, p.to_move == seat ? method : 0,
                              p.to_move == seat && endgame ? &eg : NULL, &a)) {
                break;
            }
            own_moves += p.to_move == seat && optimum >= 0;
            if (verbose > 1) {
                char fen[640], at[DM_JMAX_PATH * 5 + 16];
                dm_jpos_to_text(fen, sizeof fen, &r, &p);
                dm_jaction_to_text(at, sizeof at, &r, &p, &a);
                printf("  %d %s %s\n", n + 1, fen, at);
            }
            dm_jaction_apply(&p, &r, &a);
            n++;
            ended = dm_jprogress_step(&pr, &r, &p);
        }
        plies += n;
        if (winner == seat) {
            wins++;
            won_plies += n;
            if (optimum >= 0) {
                races++;
                race_moves += own_moves;
                race_optimum += optimum;
            }
        } else if (winner >= 0) {
            lost++;
        } else {
            none++;
        }
        if (verbose) {
            char fen[640];
            dm_jpos_to_text(fen, sizeof fen, &r, &p);
            printf("game %d seat %c winner %c actions %d final %s\n", g + 1, 'A' + seat,
                   winner >= 0 ? 'A' + winner : '-', n, fen);
            fflush(stdout);
        }
    }
    double t = cli_now() - t0;
    printf("games %d level %d opponent %s%d players %d: engine won %d (%.1f%%), others won %d, "
           "no winner %d; fair share %.1f%%, engine %.2fx fair share; average actions %.1f "
           "(engine's wins %.1f); seconds %.1f\n",
           games, level, opponent == 1 ? "greedy/" : "level ", opponent, r.players, wins,
           100.0 * wins / games, lost, none, 100.0 / r.players, (double)wins * r.players / games,
           (double)plies / games, wins ? (double)won_plies / wins : 0.0, t);
    if (two_players_race(&r)) {
        printf("endgame table %d: races won %d, from at most %d pegs out: engine's moves %lld, "
               "table minimum %lld (%.2f more a race); tables built %d\n",
               endgame, races, measure->max_pegs, race_moves, race_optimum,
               races ? (double)(race_moves - race_optimum) / races : 0.0, eg.builds);
    }
    dm_jendgame_free(&eg);
    dm_jendgame_free(&measure_own);
    return 0;
}

/* ---- damier jump pegdb: the last pegs' table ------------------------------------
 * Without --fen: build the table of PEGS pegs of seat A alone (no other peg) and
 * print its size, time and distances ("pegs K squares N entries E seconds T max M",
 * then "distance D sets C" per distance, "unreached C"). With --fen: the side to
 * move's pegs outside its target (at most PEGS), those inside held still: "race
 * yes|no distance D" and "move M" (the table's move in a race), or "distance -"
 * when the table does not apply. */
static int cmd_jump_pegdb(int argc, char **argv)
{
    static dm_jrules r;
    dm_jpos p;
    int has_fen = 0;
    for (int i = 1; i < argc; i++) {
        has_fen |= !strcmp(argv[i], "--fen") || !strncmp(argv[i], "--fen=", 6);
    }
    int rc = jump_setup(argc, argv, "pegdb", &r, &p, NULL);
    if (rc) {
        return rc < 0 ? 0 : rc;
    }
    char *end = NULL;
    long k = optind == argc - 1 ? strtol(argv[optind], &end, 10) : 0;
    if (!end || *end || k < 1 || k > DM_JPEGDB_MAX_PEGS) {
        fprintf(stderr, "damier jump pegdb: PEGS (1..%d) is missing or not a number\n",
                DM_JPEGDB_MAX_PEGS);
        return 2;
    }
    dm_error err;
    if (has_fen) {
        static dm_jendgame eg;
        dm_jendgame_init(&eg, (int)k);
        int d = dm_jendgame_distance(&eg, &r, &p, p.to_move);
        int race = dm_jrace(&r, &p);
        dm_jmove m;
        char text[DM_JMAX_PATH * 5] = "";
        if (d >= 0) {
            printf("race %s distance %d\n", race ? "yes" : "no", d);
            if (race && dm_jendgame_move(&eg, &r, &p, &m)) {
                dm_jmove_to_text(text, sizeof text, &r, &p, &m);
                printf("move %s\n", text);
            }
        } else {
            printf("race %s distance -\n", race ? "yes" : "no");
        }
        dm_jendgame_free(&eg);
        return 0;
    }
    static dm_jpegdb db;
    double t0 = cli_now();
    if (dm_jpegdb_build(&db, &r, 0, (int)k, NULL, &err) != DM_OK) {
        fprintf(stderr, "damier jump pegdb: %s\n", err.message);
        return 2;
    }
    double t = cli_now() - t0;
    printf("pegs %ld squares %d entries %u seconds %.2f max %d\n", k, db.squares, db.entries, t,
           db.max);
    uint32_t count[DM_JPEGDB_UNREACHED + 1] = {0};
    for (uint32_t i = 0; i < db.entries; i++) {
        count[db.dist[i]]++;
    }
    for (int d = 0; d <= db.max; d++) {
        printf("distance %d sets %u\n", d, count[d]);
    }
    printf("unreached %u\n", count[DM_JPEGDB_UNREACHED]);
    dm_jpegdb_free(&db);
    return 0;
}

int cmd_jump(int argc, char **argv)
{
    if (argc >= 2 && !strcmp(argv[1], "pegdb")) {
        return cmd_jump_pegdb(argc - 1, argv + 1);
    }
    if (argc >= 2 && !strcmp(argv[1], "search")) {
        return cmd_jump_search(argc - 1, argv + 1);
    }
    if (argc >= 2 && !strcmp(argv[1], "match")) {
        return cmd_jump_match(argc - 1, argv + 1);
    }
    if (argc >= 2 && !strcmp(argv[1], "moves")) {
        return cmd_jump_moves(argc - 1, argv + 1);
    }
    if (argc >= 2 && !strcmp(argv[1], "perft")) {
        return cmd_jump_perft(argc - 1, argv + 1);
    }
    fprintf(
        argc >= 2 && !strcmp(argv[1], "--help") ? stdout : stderr,
        "usage: damier jump moves|perft|search|match|pegdb --game chinese-checkers|halma|gewu "
        "...\n"
        "  match [--games N] [--level L] [--opponent greedy|L] [--random-plies K]\n"
        "        [--seed S] [--first G] [--search brs|paranoid] [--verbose|--trace]: the engine "
        "at\n"
        "        level L (default 10; 3+ players: best-reply or paranoid search) in each seat in\n"
        "        turn against opponents (default greedy), the first K actions random\n"
        "        (default one per seat); the no-progress rule ends drawn-out games; --first G\n"
        "        starts at game G (default 1: game G replays the same game in any run);\n"
        "        --endgame K: the engine plays the last pegs' table in a race with at most\n"
        "        K (1..4) pegs outside its target; --measure M: count the engine's moves\n"
        "        in won races from M pegs out against the table's minimum (default K or 3)\n"
        "  pegdb [--fen POS] PEGS: the last pegs' table (minimum moves home) of PEGS pegs\n"
        "        alone, or the side to move's distance and move in POS\n");
    return argc >= 2 && !strcmp(argv[1], "--help") ? 0 : 2;
}

int cmd_has_game_option(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--game") || !strncmp(argv[i], "--game=", 7)) {
            return 1;
        }
    }
    return 0;
}
