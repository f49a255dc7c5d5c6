/* SPDX-License-Identifier: MIT
 * apps/cli/cmd_puzzles.c: `damier puzzles gen|verify|find` (docs/PUZZLES.md):
 *   gen [--depth N] [--max N] [--gain N] [--margin N] [--stable N] -o FILE PDN...
 *       scans every position of the international games of the PDN files for a unique
 *       winning move (damier/puzzle.h) and writes each puzzle found as a PDN game:
 *       [Event "puzzle"], SetUp/FEN, the solution as the movetext, [Theme], [Rating],
 *       [Depth], [UniqueFrom], [Source]; the counts go to stderr;
 *   verify [--depth N] FILE...
 *       re-checks every game of the files as a puzzle: the first move of its movetext
 *       must be the unique win at depth N (default: its [Depth] tag minus 2, else 10),
 *       and the whole movetext legal; one line per failure, exit 1 if any;
 *   find [--depth N] --fen FEN
 *       examines one position and prints the verdict, the line, the themes. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <damier/engine.h>
#include <damier/game.h>
#include <damier/pdn.h>
#include <damier/puzzle.h>

#include "commands.h"

#define PUZZLES_MAX_FILE ((size_t)256 << 20)
#define PUZZLES_VERIFY_DEPTH 10

static char *slurp(const char *path, size_t *len)
{
    return cli_read_file("puzzles", path, PUZZLES_MAX_FILE, len);
}

static int number_arg(int *out, const char *opt, const char *text, int lo, int hi)
{
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (!*text || *end || errno || v < lo || v > hi) {
        fprintf(stderr, "damier puzzles: %s needs a number from %d to %d, not '%s'\n", opt, lo, hi,
                text);
        return 1;
    }
    *out = (int)v;
    return 0;
}

static int make_engine(dm_engine **e)
{
    dm_engine_options eo = DM_ENGINE_OPTIONS_INIT;
    eo.tt_mib = 16;
    eo.threads = 1; /* deterministic: the same file gives the same puzzles */
    if (dm_engine_create(e, &eo) != DM_OK) {
        fprintf(stderr, "damier puzzles: cannot create the engine (out of memory)\n");
        return 1;
    }
    return 0;
}

/* The line as PDN text, numbered from move 1 ("1. 27-22 18x27 2. 31x22"). */
static void line_text(char *buf, size_t cap, const dm_puzzle *p)
{
    dm_board b = p->position;
    size_t n = 0;
    buf[0] = '\0';
    for (int i = 0; i < p->line_count && n + 40 < cap; i++) {
        char mv[160];
        dm_move_to_text(mv, sizeof mv, &b, &p->line[i], DM_NOTATION_PDN, DM_SQUARES_DEFAULT);
        int num = 1 + (i + (p->position.side == DM_BLACK)) / 2;
        if (b.side == DM_WHITE) {
            n += (size_t)snprintf(buf + n, cap - n, "%s%d. %s", n ? " " : "", num, mv);
        } else if (i == 0) {
            n += (size_t)snprintf(buf + n, cap - n, "%d... %s", num, mv);
        } else {
            n += (size_t)snprintf(buf + n, cap - n, " %s", mv);
        }
        dm_board_apply(&b, &p->line[i]);
    }
}

/* ---- gen ------------------------------------------------------------------------- */

typedef struct gen_counts {
    long games, skipped_games, positions, repeated;
    long verdicts[DM_PUZZLE_NO_COMBINATION + 1];
    long themes[DM_PUZZLE_THEME_COUNT];
    uint64_t nodes;
} gen_counts;

/* A set of position hashes (open addressing), to examine each position once. */
typedef struct hash_set {
    uint64_t *slots;
    size_t cap, count;
} hash_set;

static int set_add(hash_set *s, uint64_t h)
{
    if (h == 0) {
        h = 1;
    }
    if ((s->count + 1) * 2 > s->cap) {
        size_t ncap = s->cap ? s->cap * 2 : 1024;
        uint64_t *ns = calloc(ncap, sizeof *ns);
        if (!ns) {
            return -1;
        }
        for (size_t i = 0; i < s->cap; i++) {
            if (s->slots[i]) {
                size_t j = s->slots[i] & (ncap - 1);
                while (ns[j]) {
                    j = (j + 1) & (ncap - 1);
                }
                ns[j] = s->slots[i];
            }
        }
        free(s->slots);
        s->slots = ns;
        s->cap = ncap;
    }
    size_t j = h & (s->cap - 1);
    while (s->slots[j]) {
        if (s->slots[j] == h) {
            return 0;
        }
        j = (j + 1) & (s->cap - 1);
    }
    s->slots[j] = h;
    s->count++;
    return 1;
}

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* Write puzzle p (from ply `ply` of game `number` of file path, record src) to out. */
static int write_puzzle(FILE *out, const dm_puzzle *p, const dm_pdn_game *src, const char *path,
                        int number, int ply, int depth, int serial)
{
    dm_game *g = NULL;
    if (dm_game_new(&g, &p->position) != DM_OK) {
        return 1;
    }
    for (int i = 0; i < p->line_count; i++) {
        if (dm_game_play(g, &p->line[i]) != DM_OK) {
            dm_game_free(g);
            fprintf(stderr, "damier puzzles: internal error: the solution line is not legal\n");
            return 1;
        }
    }
    char event[32], round[64], source[512], theme[96], num[32];
    snprintf(event, sizeof event, "puzzle");
    snprintf(round, sizeof round, "%d", serial);
    const char *w = dm_pdn_game_tag(src, "White"), *bl = dm_pdn_game_tag(src, "Black");
    const char *date = dm_pdn_game_tag(src, "Date");
    dm_pdn_game_tags tags = DM_PDN_GAME_TAGS_INIT;
    tags.event = event;
    tags.site = base_name(path);
    tags.date = date;
    tags.round = round;
    tags.white = w;
    tags.black = bl;
    dm_pdn_game *rec = NULL;
    dm_status st = dm_pdn_from_game(&rec, g, &tags);
    dm_game_free(g);
    if (st != DM_OK) {
        return 1;
    }
    dm_puzzle_themes_text(theme, sizeof theme, p->themes);
    snprintf(source, sizeof source, "%s, game %d, before ply %d (move %d%s)", base_name(path),
             number, ply + 1, ply / 2 + 1, ply % 2 ? ", Black" : "");
    st = dm_pdn_game_set_tag(rec, "Theme", theme);
    snprintf(num, sizeof num, "%d", p->rating);
    st = st ? st : dm_pdn_game_set_tag(rec, "Rating", num);
    snprintf(num, sizeof num, "%d", depth);
    st = st ? st : dm_pdn_game_set_tag(rec, "Depth", num);
    snprintf(num, sizeof num, "%d", p->unique_from);
    st = st ? st : dm_pdn_game_set_tag(rec, "UniqueFrom", num);
    snprintf(num, sizeof num, "%d,%d", p->best_score, p->second_score);
    st = st ? st : dm_pdn_game_set_tag(rec, "Scores", num);
    st = st ? st : dm_pdn_game_set_tag(rec, "Source", source);
    if (st == DM_OK && rec->main.nnodes > 0) {
        char *mark = malloc(2);
        if (mark) {
            memcpy(mark, "!", 2);
            free(rec->main.nodes[0].mark);
            rec->main.nodes[0].mark = mark;
        }
    }
    char *text = NULL;
    size_t len = 0;
    st = st ? st : dm_pdn_write(&text, &len, rec, DM_NOTATION_PDN);
    dm_pdn_game_free(rec);
    if (st != DM_OK) {
        return 1;
    }
    int bad = fwrite(text, 1, len, out) != len;
    free(text);
    return bad;
}

static int gen_file(FILE *out, const char *path, dm_engine *e, const dm_puzzle_options *o, int max,
                    int *found, gen_counts *c, hash_set *seen)
{
    size_t len;
    char *text = slurp(path, &len);
    if (!text) {
        return 2;
    }
    dm_pdn_reader *r = NULL;
    if (dm_pdn_reader_new(&r, text, len, path) != DM_OK) {
        free(text);
        return 2;
    }
    int rc = 0;
    for (;;) {
        if (max && *found >= max) {
            break;
        }
        dm_pdn_game *rec = NULL;
        dm_error err = {0};
        dm_status st = dm_pdn_reader_next(&rec, r, &err);
        if (st == DM_ENOMEM) {
            rc = 2;
            break;
        }
        if (st != DM_OK) {
            c->skipped_games++;
            continue;
        }
        if (!rec) {
            break;
        }
        dm_game *g = NULL;
        if (dm_pdn_to_game(&g, rec, 1, &err) != DM_OK ||
            dm_game_variant(g)->id != DM_VARIANT_INTERNATIONAL) {
            c->skipped_games++; /* not international draughts, or unreadable */
            dm_game_free(g);
            dm_pdn_game_free(rec);
            continue;
        }
        c->games++;
        int plies = dm_game_length(g);
        for (int i = 0; i <= plies && !(max && *found >= max); i++) {
            int added = set_add(seen, dm_board_hash(dm_game_position_at(g, i)));
            if (added < 0) {
                rc = 2;
                break;
            }
            if (!added) {
                c->repeated++;
                continue;
            }
            dm_puzzle p;
            if (dm_puzzle_examine(&p, e, dm_game_position_at(g, i), o, &err) != DM_OK) {
                continue;
            }
            c->positions++;
            c->verdicts[p.verdict]++;
            c->nodes += p.nodes;
            if (p.verdict != DM_PUZZLE_FOUND) {
                continue;
            }
            for (int t = 0; t < DM_PUZZLE_THEME_COUNT; t++) {
                c->themes[t] += (p.themes >> t) & 1;
            }
            ++*found;
            if (write_puzzle(out, &p, rec, path, rec->number, i, o->depth, *found)) {
                fprintf(stderr, "damier puzzles: cannot write the puzzle\n");
                rc = 2;
                break;
            }
        }
        dm_game_free(g);
        dm_pdn_game_free(rec);
        if (rc) {
            break;
        }
    }
    dm_pdn_reader_free(r);
    free(text);
    return rc;
}

static int puzzles_gen(int argc, char **argv)
{
    dm_puzzle_options o = DM_PUZZLE_OPTIONS_INIT;
    int max = 0;
    const char *outpath = NULL;
    int first = 1;
    for (; first < argc && argv[first][0] == '-'; first++) {
        const char *a = argv[first];
        int has = first + 1 < argc;
        if (!strcmp(a, "--depth") && has) {
            if (number_arg(&o.depth, a, argv[++first], 2, 30)) {
                return 2;
            }
        } else if (!strcmp(a, "--max") && has) {
            if (number_arg(&max, a, argv[++first], 0, 1000000)) {
                return 2;
            }
        } else if (!strcmp(a, "--gain") && has) {
            if (number_arg(&o.gain, a, argv[++first], 1, 5000)) {
                return 2;
            }
        } else if (!strcmp(a, "--margin") && has) {
            if (number_arg(&o.margin, a, argv[++first], 1, 20000)) {
                return 2;
            }
        } else if (!strcmp(a, "--stable") && has) {
            if (number_arg(&o.stable, a, argv[++first], 0, 29)) {
                return 2;
            }
        } else if (!strcmp(a, "-o") && has) {
            outpath = argv[++first];
        } else {
            fprintf(stderr, "damier puzzles gen: unknown option '%s'\n", a);
            return 2;
        }
    }
    if (first >= argc || !outpath) {
        fprintf(stderr, "usage: damier puzzles gen [--depth N] [--max N] [--gain N] [--margin N]"
                        " [--stable N] -o FILE PDN...\n");
        return 2;
    }
    if (o.stable >= o.depth) {
        fprintf(stderr, "damier puzzles gen: --stable %d must be below --depth %d\n", o.stable,
                o.depth);
        return 2;
    }
    FILE *out = strcmp(outpath, "-") ? fopen(outpath, "w") : stdout;
    if (!out) {
        fprintf(stderr, "damier puzzles gen: cannot write %s: %s\n", outpath, strerror(errno));
        return 2;
    }
    dm_engine *e = NULL;
    if (make_engine(&e)) {
        if (out != stdout) {
            fclose(out);
        }
        return 2;
    }
    gen_counts c;
    memset(&c, 0, sizeof c);
    hash_set seen = {0};
    int found = 0, rc = 0;
    double t0 = cli_now();
    for (int i = first; i < argc && rc == 0; i++) {
        rc = gen_file(out, argv[i], e, &o, max, &found, &c, &seen);
    }
    double secs = cli_now() - t0;
    dm_engine_free(e);
    free(seen.slots);
    if (out != stdout && fclose(out) != 0) {
        fprintf(stderr, "damier puzzles gen: cannot write %s: %s\n", outpath, strerror(errno));
        rc = 2;
    }
    long wins = c.verdicts[DM_PUZZLE_FOUND] + c.verdicts[DM_PUZZLE_NOT_UNIQUE] +
                c.verdicts[DM_PUZZLE_UNSTABLE] + c.verdicts[DM_PUZZLE_SHORT_LINE] +
                c.verdicts[DM_PUZZLE_NO_COMBINATION];
    long searched = wins + c.verdicts[DM_PUZZLE_NO_WIN];
    fprintf(stderr,
            "games %ld (skipped %ld: not international or unreadable)\n"
            "positions %ld (repeated %ld left out), searched %ld (no choice %ld, capture %ld)\n"
            "winning %ld: puzzles %ld, not unique %ld (%.1f%% of the winning), unstable %ld,"
            " line too short %ld, no combination %ld\n"
            "no win %ld\n",
            c.games, c.skipped_games, c.positions, c.repeated, searched,
            c.verdicts[DM_PUZZLE_NO_CHOICE], c.verdicts[DM_PUZZLE_CAPTURE], wins,
            c.verdicts[DM_PUZZLE_FOUND], c.verdicts[DM_PUZZLE_NOT_UNIQUE],
            wins ? 100.0 * (double)c.verdicts[DM_PUZZLE_NOT_UNIQUE] / (double)wins : 0.0,
            c.verdicts[DM_PUZZLE_UNSTABLE], c.verdicts[DM_PUZZLE_SHORT_LINE],
            c.verdicts[DM_PUZZLE_NO_COMBINATION], c.verdicts[DM_PUZZLE_NO_WIN]);
    fprintf(stderr, "themes:");
    for (int t = 0; t < DM_PUZZLE_THEME_COUNT; t++) {
        fprintf(stderr, " %s %ld", dm_puzzle_theme_name(t), c.themes[t]);
    }
    fprintf(stderr, "\ndepth %d, gain %d, margin %d, stable %d: %.1f s, %llu nodes\n", o.depth,
            o.gain, o.margin, o.stable, secs, (unsigned long long)c.nodes);
    return rc;
}

/* ---- verify ---------------------------------------------------------------------- */

static void game_where(char *buf, size_t cap, const char *path, const dm_pdn_game *rec)
{
    const char *ev = dm_pdn_game_tag(rec, "Event"), *round = dm_pdn_game_tag(rec, "Round");
    snprintf(buf, cap, "%s:%d: puzzle %d (%s%s%s)", path, rec->line, rec->number, ev ? ev : "?",
             round && *round ? " " : "", round && *round ? round : "");
}

/* Check one record; prints a failure line and returns 1 when it is not a puzzle. */
static int verify_one(const char *path, const dm_pdn_game *rec, dm_engine *e, int depth_opt,
                      int *depth_used)
{
    char where[400];
    game_where(where, sizeof where, path, rec);
    const char *fen = dm_pdn_game_fen(rec);
    if (!fen) {
        printf("%s: no FEN tag: a puzzle needs its position\n", where);
        return 1;
    }
    dm_board gb;
    dm_error err = {0};
    if (dm_board_from_fen(&gb, dm_variant_get(DM_VARIANT_INTERNATIONAL), fen, &err) != DM_OK) {
        printf("%s: FEN \"%s\", column %d: %s\n", where, fen, err.column, err.message);
        return 1;
    }
    dm_pdn_replay rp;
    if (dm_pdn_replay_mainline(&rp, rec) != DM_OK || rp.verdict != DM_PDN_LEGAL) {
        if (rp.verdict == DM_PDN_VARIANT) {
            printf("%s: not international draughts: %s\n", where, rp.reason.message);
        } else {
            printf("%s: solution move %d%s %s: %s\n", where, rp.move_number, rp.black ? "..." : ".",
                   rp.move_text, rp.reason.message);
        }
        return 1;
    }
    const dm_pdn_node *first = NULL;
    for (int i = 0; i < rec->main.nnodes && !first; i++) {
        if (rec->main.nodes[i].kind == DM_PDN_NODE_MOVE) {
            first = &rec->main.nodes[i];
        }
    }
    if (!first) {
        printf("%s: no solution: the movetext has no move\n", where);
        return 1;
    }
    dm_move want;
    if (dm_move_parse(&want, &gb, first->text, &err) != DM_OK) {
        printf("%s: first move %s: %s\n", where, first->text, err.message);
        return 1;
    }
    const char *theme = dm_pdn_game_tag(rec, "Theme");
    unsigned themes;
    if (theme && dm_puzzle_themes_parse(&themes, theme, &err) != DM_OK) {
        printf("%s: Theme \"%s\", column %d: %s\n", where, theme, err.column, err.message);
        return 1;
    }
    int depth = depth_opt;
    if (!depth) {
        const char *dt = dm_pdn_game_tag(rec, "Depth");
        char *end = NULL;
        long d = dt ? strtol(dt, &end, 10) : 0;
        if (dt && (*end || d < 3 || d > 30)) {
            printf("%s: Depth \"%s\" is not a depth from 3 to 30\n", where, dt);
            return 1;
        }
        depth = dt ? (int)d - 2 : PUZZLES_VERIFY_DEPTH;
    }
    *depth_used = depth;
    dm_puzzle_options o = DM_PUZZLE_OPTIONS_INIT;
    o.depth = depth;
    o.stable = 0;
    dm_puzzle p;
    if (dm_puzzle_examine(&p, e, &gb, &o, &err) != DM_OK) {
        printf("%s: %s\n", where, err.message);
        return 1;
    }
    char mv[160], best[160];
    dm_move_to_text(mv, sizeof mv, &gb, &want, DM_NOTATION_PDN, DM_SQUARES_DEFAULT);
    /* The shallower search proves the unique win by its scores; its own line may stop
     * before the material is won or read differently (the file's line is checked
     * below). */
    if (p.verdict == DM_PUZZLE_SHORT_LINE || p.verdict == DM_PUZZLE_NO_COMBINATION) {
        p.verdict = DM_PUZZLE_FOUND;
    }
    if (p.verdict != DM_PUZZLE_FOUND) {
        if (p.verdict == DM_PUZZLE_NO_CHOICE || p.verdict == DM_PUZZLE_CAPTURE) {
            printf("%s: %s\n", where, dm_puzzle_verdict_str(p.verdict));
        } else {
            dm_move_to_text(best, sizeof best, &gb, &p.best, DM_NOTATION_PDN, DM_SQUARES_DEFAULT);
            printf("%s: at depth %d %s: best %s scores %d, the second best %d (solution %s)\n",
                   where, p.depth, dm_puzzle_verdict_str(p.verdict), best, p.best_score,
                   p.second_score, mv);
        }
        return 1;
    }
    if (p.best.from != want.from || p.best.to != want.to || p.best.capt[0] != want.capt[0] ||
        p.best.capt[1] != want.capt[1]) {
        dm_move_to_text(best, sizeof best, &gb, &p.best, DM_NOTATION_PDN, DM_SQUARES_DEFAULT);
        printf("%s: at depth %d the unique win is %s (score %d), not the solution's %s\n", where,
               p.depth, best, p.best_score, mv);
        return 1;
    }
    if (theme) {
        /* A puzzle of this recipe (it has a Theme): its line ends with a man or more won,
         * the opponent to move with no capture pending, or the opponent without a move. */
        const dm_board *end = &rp.end;
        static dm_movelist list;
        int n = dm_movegen_legal(&list, end);
        int capture = n > 0 && list.moves[0].ncapt > 0; /* compulsory: all or none */
        int solver_to_move = end->side == gb.side;
        int gain = (solver_to_move ? 1 : -1) * dm_puzzle_material(end) - dm_puzzle_material(&gb);
        int won = !solver_to_move && n == 0;
        if (!won && (solver_to_move || gain < 100 || capture)) {
            printf("%s: the solution line ends without a man won (gain %d, %s to move%s)\n", where,
                   gain, end->side == DM_WHITE ? "White" : "Black",
                   capture ? ", a capture pending" : "");
            return 1;
        }
    }
    return 0;
}

static int puzzles_verify(int argc, char **argv)
{
    int depth = 0;
    int first = 1;
    for (; first < argc && argv[first][0] == '-'; first++) {
        if (!strcmp(argv[first], "--depth") && first + 1 < argc) {
            if (number_arg(&depth, "--depth", argv[++first], 1, 30)) {
                return 2;
            }
        } else {
            fprintf(stderr, "damier puzzles verify: unknown option '%s'\n", argv[first]);
            return 2;
        }
    }
    if (first >= argc) {
        fprintf(stderr, "usage: damier puzzles verify [--depth N] FILE...\n");
        return 2;
    }
    dm_engine *e = NULL;
    if (make_engine(&e)) {
        return 2;
    }
    int total = 0, failed = 0, rc = 0, dmin = 0, dmax = 0;
    double t0 = cli_now();
    for (int i = first; i < argc && rc != 2; i++) {
        size_t len;
        char *text = slurp(argv[i], &len);
        if (!text) {
            rc = 2;
            break;
        }
        dm_pdn_reader *r = NULL;
        if (dm_pdn_reader_new(&r, text, len, argv[i]) != DM_OK) {
            free(text);
            rc = 2;
            break;
        }
        for (;;) {
            dm_pdn_game *rec = NULL;
            dm_error err = {0};
            dm_status st = dm_pdn_reader_next(&rec, r, &err);
            if (st == DM_ENOMEM) {
                rc = 2;
                break;
            }
            if (st != DM_OK) {
                total++;
                failed++;
                printf("%s:%d:%d: unreadable: %s\n", argv[i], err.line, err.column, err.message);
                continue;
            }
            if (!rec) {
                break;
            }
            total++;
            int used = 0;
            failed += verify_one(argv[i], rec, e, depth, &used);
            if (used) {
                dmin = dmin && dmin < used ? dmin : used;
                dmax = dmax > used ? dmax : used;
            }
            dm_pdn_game_free(rec);
        }
        dm_pdn_reader_free(r);
        free(text);
    }
    dm_engine_free(e);
    if (rc == 2) {
        return 2;
    }
    printf("%d puzzles, %d verified, %d failed (depth %d", total, total - failed, failed, dmin);
    if (dmax != dmin) {
        printf("-%d", dmax);
    }
    printf(", %.1f s)\n", cli_now() - t0);
    return failed ? 1 : 0;
}

/* ---- find ------------------------------------------------------------------------ */

static int puzzles_find(int argc, char **argv)
{
    dm_puzzle_options o = DM_PUZZLE_OPTIONS_INIT;
    const char *fen = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int has = i + 1 < argc;
        if (!strcmp(a, "--depth") && has) {
            if (number_arg(&o.depth, a, argv[++i], 2, 30)) {
                return 2;
            }
        } else if (!strcmp(a, "--fen") && has) {
            fen = argv[++i];
        } else {
            fprintf(stderr, "damier puzzles find: unknown option '%s'\n", a);
            return 2;
        }
    }
    if (!fen) {
        fprintf(stderr, "usage: damier puzzles find [--depth N] --fen FEN\n");
        return 2;
    }
    dm_board gb;
    if (cli_board_from_arg(&gb, fen)) {
        return 2;
    }
    dm_engine *e = NULL;
    if (make_engine(&e)) {
        return 2;
    }
    dm_puzzle p;
    dm_error err = {0};
    dm_status st = dm_puzzle_examine(&p, e, &gb, &o, &err);
    dm_engine_free(e);
    if (st != DM_OK) {
        fprintf(stderr, "damier puzzles find: %s\n", err.message);
        return 2;
    }
    printf("verdict %s\n",
           p.verdict == DM_PUZZLE_FOUND ? "puzzle" : dm_puzzle_verdict_str(p.verdict));
    if (p.verdict == DM_PUZZLE_NO_CHOICE || p.verdict == DM_PUZZLE_CAPTURE) {
        return 1;
    }
    char best[160];
    dm_move_to_text(best, sizeof best, &gb, &p.best, DM_NOTATION_PDN, DM_SQUARES_DEFAULT);
    printf("best %s score %d second %d depth %d\n", best, p.best_score, p.second_score, p.depth);
    if (p.verdict != DM_PUZZLE_FOUND) {
        return 1;
    }
    char line[2048], theme[96];
    line_text(line, sizeof line, &p);
    dm_puzzle_themes_text(theme, sizeof theme, p.themes);
    printf("line %s\n", line);
    printf("themes %s\n", theme);
    printf("gain %d unique-from %d rating %d\n", p.gain, p.unique_from, p.rating);
    return 0;
}

int cmd_puzzles(int argc, char **argv)
{
    if (argc >= 2 && !strcmp(argv[1], "gen")) {
        return puzzles_gen(argc - 1, argv + 1);
    }
    if (argc >= 2 && !strcmp(argv[1], "verify")) {
        return puzzles_verify(argc - 1, argv + 1);
    }
    if (argc >= 2 && !strcmp(argv[1], "find")) {
        return puzzles_find(argc - 1, argv + 1);
    }
    FILE *f = argc >= 2 && !strcmp(argv[1], "--help") ? stdout : stderr;
    fprintf(f, "usage: damier puzzles gen [--depth N] [--max N] [--gain N] [--margin N]"
               " [--stable N] -o FILE PDN...\n"
               "       damier puzzles verify [--depth N] FILE...\n"
               "       damier puzzles find [--depth N] --fen FEN\n"
               "gen: the positions of the international games in the PDN files where one move\n"
               "is the unique win (material or the game) by the engine at --depth (default 12;\n"
               "also at the --stable (2) depths before it): the best move wins --gain (150,\n"
               "hundredths of a man) over the material balance and beats the second best by\n"
               "--margin (150), which does not win. Written as PDN games with the solution as\n"
               "movetext and [Theme], [Rating], [Depth] tags; counts on stderr. verify: each\n"
               "game's first move must be the unique win at --depth (default [Depth] - 2).\n");
    return f == stdout ? 0 : 2;
}
