/* SPDX-License-Identifier: MIT
 * pdn/vreplay.c: which rules a game is played under (GameType tag, Variant tag, or the
 * squares it uses), and replaying the mainline of a variant game with the generic
 * rules core (variant.h): the one replay of every variant, international included. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pdn/pdn_int.h"

/* Look-ahead replays allowed for resolving ambiguous short captures, per game. */
#define LOOKAHEAD_BUDGET 256

dm_status pdn_vstart_board(dm_board *out, const dm_variant *v, const dm_pdn_game *g, int *number,
                           dm_error *err)
{
    const char *fen = dm_pdn_game_fen(g);
    *number = 1;
    if (!fen) {
        dm_board_start(out, v);
        return DM_OK;
    }
    char buf[512];
    int fm = 0;
    pdn_strip_counters(buf, sizeof buf, fen, &fm);
    *number = fm > 0 ? fm : 1;
    return dm_board_from_fen(out, v, buf, err);
}

/* ---- replay ---------------------------------------------------------------------- */

typedef struct vrun_ctx {
    const dm_pdn_line *line;
    const dm_variant *v;
    pdn_vstep *steps; /* NULL or line->nnodes entries */
    int budget;
} vrun_ctx;

/* The last square written in text ("c3" of "e1xc3", "18" of "25x18"): its offset, or
 * -1 when text does not end with a square. */
static int last_square_at(const char *text)
{
    size_t n = strlen(text), i = n;
    while (i > 0 && text[i - 1] >= '0' && text[i - 1] <= '9') {
        i--;
    }
    if (i == n) {
        return -1;
    }
    if (i > 0 && text[i - 1] >= 'a' && text[i - 1] <= 'l' && text[i - 1] != 'x') {
        i--;
    }
    return (int)i;
}

static int is_sep(char c)
{
    return c == 'x' || c == 'X' || c == ':' || c == '-';
}

/* playstrategy.org writes a multi-capture as single-jump tokens, "e1xc3 c3xe5": when
 * node i is a capture that does not stand alone, join it with the following tokens by
 * the same piece (each starts on the square where the previous one ended). On success
 * *m is the joined move and the return value the number of nodes used (>= 2); 0 when no
 * join gives a legal move. */
static int join_split(dm_move *m, const dm_board *b, const dm_pdn_line *l, int i)
{
    char buf[400];
    const char *t0 = l->nodes[i].text;
    if (strlen(t0) >= sizeof buf || !(strchr(t0, 'x') || strchr(t0, ':'))) {
        return 0;
    }
    strcpy(buf, t0);
    for (int j = i + 1; j < l->nnodes && j < i + DM_MAX_CAPT; j++) {
        const dm_pdn_node *nd = &l->nodes[j];
        if (nd->kind != DM_PDN_NODE_MOVE || nd->nbefore > 0 || l->nodes[j - 1].nafter > 0 ||
            l->nodes[j - 1].nvariations > 0 || l->nodes[j - 1].mark) {
            return 0;
        }
        int at = last_square_at(buf);
        if (at < 0) {
            return 0;
        }
        size_t sl = strlen(buf + at);
        if (strncmp(nd->text, buf + at, sl) || !is_sep(nd->text[sl]) || nd->text[sl] == '-' ||
            strlen(buf) + strlen(nd->text + sl) >= sizeof buf) {
            return 0;
        }
        strcat(buf, nd->text + sl);
        dm_status st = dm_move_parse(m, b, buf, NULL);
        if (st == DM_OK) {
            return j - i + 1;
        }
        if (st != DM_EILLEGAL) {
            return 0;
        }
    }
    return 0;
}

/* Legal moves of b with the from and to squares written in text. */
static int vcandidates(dm_move *cand, int cap, const dm_board *b, const char *text)
{
    int len = 0;
    int from = dm_square_parse(b->variant, text, &len);
    int at = last_square_at(text);
    int to = at >= 0 ? dm_square_parse(b->variant, text + at, NULL) : 0;
    if (!from || !to) {
        return 0;
    }
    /* on the stack (no allocation the caller could not report): this frame is gone
     * before the look-ahead recursion goes deeper */
    dm_movelist list;
    dm_movelist *lp = &list;
    dm_movegen_legal(lp, b);
    int k = 0;
    for (int i = 0; i < lp->count && k < cap; i++) {
        if (lp->moves[i].from == from && lp->moves[i].to == to) {
            cand[k++] = lp->moves[i];
        }
    }
    return k;
}

static void fail_here(dm_pdn_replay *out, const dm_board *b, const dm_pdn_node *nd, dm_status st,
                      const char *msg)
{
    out->verdict = st == DM_EPARSE ? DM_PDN_UNREADABLE : DM_PDN_ILLEGAL;
    dm_board_to_fen(out->fen_before, sizeof out->fen_before, b, b->variant->algebraic);
    dm_error_set(&out->reason, st, nd->line, nd->column, "%s", msg);
}

/* Replay nodes i.. of the line from b; fills out (plies, end, the first bad move). */
static int vrun(dm_pdn_replay *out, vrun_ctx *rc, dm_board b, int i, int number)
{
    const dm_pdn_line *l = rc->line;
    const dm_variant *v = rc->v;
    dm_error err;
    for (; i < l->nnodes; i++) {
        const dm_pdn_node *nd = &l->nodes[i];
        if (nd->number > 0 && !out->joined) {
            number = nd->number; /* after a joined split capture the written numbers are
                                    shifted: count instead */
        }
        out->node = nd;
        out->move_number = number;
        out->black = b.side == DM_BLACK;
        out->fen_before[0] = 0;
        if (nd->kind == DM_PDN_NODE_SETUP) {
            dm_board nb;
            if (dm_board_from_fen(&nb, v, nd->text, &err) != DM_OK) {
                snprintf(out->move_text, sizeof out->move_text, "/FEN \"%s\"/", nd->text);
                char msg[300];
                snprintf(msg, sizeof msg, "setup command FEN cannot be read: %s", err.message);
                fail_here(out, &b, nd, DM_EPARSE, msg);
                return out->verdict;
            }
            b = nb;
            out->end = b;
            continue;
        }
        snprintf(out->move_text, sizeof out->move_text, "%s", nd->text);
        if (nd->kind == DM_PDN_NODE_UNKNOWN) {
            char msg[200];
            snprintf(msg, sizeof msg, "unknown move \"%.60s\": the position after it is not known",
                     nd->text);
            fail_here(out, &b, nd, DM_EPARSE, msg);
            return out->verdict;
        }
        dm_move m;
        int used = 1;
        dm_status st = dm_move_parse(&m, &b, nd->text, &err);
        if (st == DM_EILLEGAL) {
            int n = join_split(&m, &b, l, i);
            if (n > 0) {
                st = DM_OK;
                used = n;
            }
        }
        if (st == DM_EAMBIGUOUS) {
            /* a short capture where the full path was needed: keep the candidate with
             * which the rest of the game is legal, if there is exactly one */
            dm_move cand[16];
            int nc = vcandidates(cand, 16, &b, nd->text);
            int fits = 0, kept = -1, kept_budget = 0;
            dm_pdn_replay best_r, tmp_r;
            dm_pdn_replay *best = &best_r, *tmp = &tmp_r;
            /* the candidates are tried without writing steps: a candidate that fails
             * later would otherwise leave its own moves in steps[] for the nodes after
             * this one */
            pdn_vstep *steps = rc->steps;
            rc->steps = NULL;
            for (int c = 0; c < nc && rc->budget > 0; c++) {
                rc->budget--;
                int budget = rc->budget;
                *tmp = *out;
                dm_board b2 = b;
                dm_board_apply(&b2, &cand[c]);
                tmp->plies++;
                tmp->end = b2;
                if (vrun(tmp, rc, b2, i + 1, b2.side == (int)v->first ? number + 1 : number) ==
                    DM_PDN_LEGAL) {
                    fits++;
                    if (kept < 0) {
                        kept = c;
                        kept_budget = budget;
                        *best = *tmp;
                    }
                }
            }
            rc->steps = steps;
            if (fits == 1 && steps) {
                /* the candidate kept once more, writing its steps: with the budget it had,
                 * the replay takes the same course (vrun depends only on its arguments
                 * and the budget) */
                int left = rc->budget;
                rc->budget = kept_budget;
                *tmp = *out;
                dm_board b2 = b;
                dm_board_apply(&b2, &cand[kept]);
                tmp->plies++;
                tmp->end = b2;
                vrun(tmp, rc, b2, i + 1, b2.side == (int)v->first ? number + 1 : number);
                rc->budget = left;
            }
            if (fits == 1) {
                int had = out->resolved;
                *out = *best;
                if (!had) {
                    out->ambiguous = nd;
                    out->ambiguous_number = number;
                    out->ambiguous_black = b.side == DM_BLACK;
                    dm_move_to_text(out->ambiguous_as, sizeof out->ambiguous_as, &b, &cand[kept],
                                    DM_NOTATION_FULL, DM_SQUARES_DEFAULT);
                }
                out->resolved++;
                if (rc->steps) {
                    rc->steps[i].m = cand[kept];
                    rc->steps[i].kind = PDN_STEP_MOVE;
                }
                return out->verdict;
            }
            out->node = nd;
            out->move_number = number;
            out->black = b.side == DM_BLACK;
            snprintf(out->move_text, sizeof out->move_text, "%s", nd->text);
        }
        if (st != DM_OK && pdn_irregular_mark(nd)) {
            /* an accepted irregularity (FMJD 5.7): applied as written */
            dm_board nb = b;
            dm_error aerr;
            dm_status ast = pdn_apply_written(&nb, nd->text, &aerr);
            if (ast == DM_OK) {
                pdn_irregular_note(out, nd, number, b.side == DM_BLACK, err.message);
                if (rc->steps) {
                    memset(&rc->steps[i], 0, sizeof rc->steps[i]);
                }
                b = nb;
                out->plies++;
                out->end = b;
                if (b.side == (int)v->first) {
                    number++;
                }
                continue;
            }
            char msg[320];
            snprintf(msg, sizeof msg,
                     "%.110s; marked as an accepted irregularity, but it cannot be played as "
                     "written: %.90s",
                     err.message, aerr.message);
            fail_here(out, &b, nd, ast, msg);
            return out->verdict;
        }
        if (st != DM_OK) {
            fail_here(out, &b, nd, st, err.message);
            return out->verdict;
        }
        if (rc->steps) {
            rc->steps[i].m = m;
            rc->steps[i].kind = PDN_STEP_MOVE;
            for (int k = 1; k < used; k++) {
                rc->steps[i + k].kind = PDN_STEP_JOINED;
            }
        }
        if (used > 1) {
            out->joined++;
        }
        i += used - 1;
        dm_board_apply(&b, &m);
        out->plies++;
        out->end = b;
        if (b.side == (int)v->first) {
            number++;
        }
    }
    out->node = NULL;
    out->move_text[0] = 0;
    out->fen_before[0] = 0;
    out->move_number = 0;
    out->black = 0;
    out->verdict = DM_PDN_LEGAL;
    return out->verdict;
}

int pdn_replay_variant(dm_pdn_replay *out, const dm_pdn_game *g, const dm_variant *v,
                       pdn_vstep *steps)
{
    out->variant = v;
    dm_error err;
    int number = 1;
    if (pdn_vstart_board(&out->start, v, g, &number, &err) != DM_OK) {
        dm_board_start(&out->start, v);
        out->end = out->start;
        out->verdict = DM_PDN_UNREADABLE;
        dm_error_set(&out->reason, DM_EPARSE, 0, err.column,
                     "FEN \"%.80s\" cannot be read as %s: %s", dm_pdn_game_fen(g), v->title,
                     err.message);
        return out->verdict;
    }
    out->end = out->start;
    vrun_ctx rc = {&g->main, v, steps, LOOKAHEAD_BUDGET};
    return vrun(out, &rc, out->start, 0, number);
}

/* ---- which variant ---------------------------------------------------------------- */

/* Names of the GameType numbers of PDN 3.0 and lidraughts, for messages. */
static const char *game_type_name(int t)
{
    switch (t) {
        case 20:
            return "International draughts";
        case 21:
            return "English draughts";
        case 22:
            return "Italian draughts";
        case 23:
            return "American pool checkers";
        case 24:
            return "Spanish draughts";
        case 25:
            return "Russian draughts";
        case 26:
            return "Brazilian draughts";
        case 27:
            return "Canadian draughts";
        case 28:
            return "Portuguese draughts";
        case 29:
            return "Czech draughts";
        case 30:
            return "Turkish draughts";
        case 31:
            return "Thai draughts";
        case 40:
            return "Frisian draughts";
        case 41:
            return "Spantsiretti";
        case 45:
            return "Killer draughts (hcheckers)";
        case 96:
            return "Breakthrough (lidraughts)";
        case 97:
            return "Frysk! (lidraughts)";
        case 98:
            return "Antidraughts (lidraughts)";
        default:
            return t < 20 ? "chess or another game" : "unknown game";
    }
}

/* Case-insensitive substring test. */
static int has_word(const char *s, const char *w)
{
    size_t n = strlen(w);
    for (; *s; s++) {
        size_t k = 0;
        while (k < n && s[k] && (s[k] | 0x20) == (w[k] | 0x20)) {
            k++;
        }
        if (k == n) {
            return 1;
        }
    }
    return 0;
}

/* The variant named by a Variant tag (lidraughts, playstrategy.org); NULL when the
 * name is not one of ours. */
static const dm_variant *variant_from_tag(const char *s)
{
    static const struct {
        const char *word;
        dm_variant_id id;
    } words[] = {{"international", DM_VARIANT_INTERNATIONAL},
                 {"standard", DM_VARIANT_INTERNATIONAL},
                 {"breakthrough", DM_VARIANT_BREAKTHROUGH},
                 {"pool", DM_VARIANT_POOL},
                 {"killer", DM_VARIANT_KILLER},
                 {"czech", DM_VARIANT_CZECH},
                 {"italian", DM_VARIANT_ITALIAN},
                 {"spanish", DM_VARIANT_SPANISH},
                 {"thai", DM_VARIANT_THAI},
                 {"antidraughts", DM_VARIANT_ANTIDRAUGHTS},
                 {"brazil", DM_VARIANT_BRAZILIAN},
                 {"russian", DM_VARIANT_RUSSIAN},
                 {"english", DM_VARIANT_ENGLISH},
                 {"american", DM_VARIANT_ENGLISH},
                 {"checkers", DM_VARIANT_ENGLISH},
                 {"canadian", DM_VARIANT_CANADIAN},
                 {"portuguese", DM_VARIANT_PORTUGUESE},
                 {"turkish", DM_VARIANT_TURKISH},
                 {"dama", DM_VARIANT_TURKISH}};
    if (has_word(s, "frysk")) {
        return dm_variant_get(DM_VARIANT_FRYSK); /* before "frisian": "Frysk! (Frisian)" */
    }
    if (has_word(s, "frisian")) {
        return dm_variant_get(DM_VARIANT_FRISIAN);
    }
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
        if (has_word(s, words[i].word)) {
            return dm_variant_get(words[i].id);
        }
    }
    return NULL;
}

/* Does s hold a lowercase a-h letter next to a digit (an algebraic square)? */
static int has_algebraic(const char *s)
{
    for (; *s; s++) {
        if (*s >= 'a' && *s <= 'h' && s[1] >= '1' && s[1] <= '9') {
            return 1;
        }
    }
    return 0;
}

/* Largest number in s (0 when none). */
static int max_number(const char *s)
{
    int best = 0;
    while (*s) {
        if (*s >= '0' && *s <= '9') {
            int v = 0;
            for (; *s >= '0' && *s <= '9'; s++) {
                v = v < 100000 ? v * 10 + (*s - '0') : v;
            }
            best = v > best ? v : best;
        } else {
            s++;
        }
    }
    return best;
}

/* Replay g under v (scratch result). */
static int try_variant(dm_pdn_replay *tmp, const dm_pdn_game *g, const dm_variant *v)
{
    memset(tmp, 0, sizeof *tmp);
    dm_board_start(&tmp->start, v);
    tmp->end = tmp->start;
    return pdn_replay_variant(tmp, g, v, NULL);
}

/* The highest square number of a FEN's piece sections: lidraughts' counter sections
 * (":H12", ":F7") are no squares. Counted as squares, "W:WK1:F9310" looked like a
 * 10x10 position and its own output "W:WK1:B" (the counter dropped) like English
 * checkers, so the rule guess changed between a game and its output (fuzz finding
 * corpus/pdn/finding-fen-counter-as-square). */
static int fen_top_square(const char *fen)
{
    int best = 0;
    const char *s = fen;
    while (*s) {
        const char *end = strchr(s, ':');
        size_t n = end ? (size_t)(end - s) : strlen(s);
        const char *t = s;
        while (t < s + n && (*t == ' ' || *t == '\t' || *t == '"')) {
            t++;
        }
        for (const char *c = t; t < s + n && *t != 'H' && *t != 'F' && c < s + n;) {
            if (*c >= '0' && *c <= '9') {
                int v = 0;
                for (; c < s + n && *c >= '0' && *c <= '9'; c++) {
                    v = v < 100000 ? v * 10 + (*c - '0') : v;
                }
                best = v > best ? v : best;
            } else {
                c++;
            }
        }
        s += n;
        if (*s == ':') {
            s++;
        }
    }
    return best;
}

int pdn_select(const dm_pdn_game *g, const dm_variant **out, int *guessed, char *reason, size_t cap)
{
    *guessed = 0;
    *out = dm_variant_get(DM_VARIANT_INTERNATIONAL);
    int t = dm_pdn_game_type(g);
    const char *gt = dm_pdn_game_tag(g, "GameType");
    if (t >= 0) {
        const dm_variant *v;
        if (dm_variant_from_gametype(&v, gt, NULL) == DM_OK) {
            *out = v;
            return 1;
        }
        snprintf(reason, cap, "GameType %d (%s): variant not supported yet", t, game_type_name(t));
        return 0;
    }
    if (t == -2) {
        snprintf(reason, cap, "GameType \"%.60s\" cannot be read: variant not supported yet", gt);
        return 0;
    }
    const char *vt = dm_pdn_game_tag(g, "Variant");
    if (vt && *vt) {
        const dm_variant *v = variant_from_tag(vt);
        if (!v) {
            snprintf(reason, cap, "Variant \"%.60s\": variant not supported yet", vt);
            return 0;
        }
        *out = v;
        return 1;
    }
    /* No GameType: the squares tell the board. */
    const char *fen = dm_pdn_game_fen(g);
    int algebraic = fen && has_algebraic(fen);
    int top = fen ? fen_top_square(fen) : 0;
    const dm_pdn_line *l = &g->main;
    int moves = 0;
    for (int i = 0; i < l->nnodes; i++) {
        if (l->nodes[i].kind == DM_PDN_NODE_MOVE) {
            moves++;
            algebraic |= has_algebraic(l->nodes[i].text);
            int m = max_number(l->nodes[i].text);
            top = m > top ? m : top;
        }
    }
    const dm_variant *cand[3];
    int ncand = 0;
    const char *board = "";
    if (algebraic) {
        /* Russian, Brazilian and Czech records use algebraic squares (Czech last: a
         * game legal as Russian stays Russian, as before Czech was played) */
        cand[ncand++] = dm_variant_get(DM_VARIANT_RUSSIAN);
        cand[ncand++] = dm_variant_get(DM_VARIANT_BRAZILIAN);
        cand[ncand++] = dm_variant_get(DM_VARIANT_CZECH);
        board = "algebraic squares";
    } else {
        if (!fen) {
            /* from the initial position White's first move starts on 31-35: an
             * international game, however short */
            for (int i = 0; i < l->nnodes; i++) {
                if (l->nodes[i].kind == DM_PDN_NODE_MOVE) {
                    int from = 0;
                    for (const char *c = l->nodes[i].text; *c >= '0' && *c <= '9'; c++) {
                        from = from < 1000 ? from * 10 + (*c - '0') : from;
                    }
                    if (from >= 31 && from <= 35) {
                        return 1;
                    }
                    break;
                }
            }
        }
        if (top <= 0 || top > 32) {
            return 1; /* international, PDN's default */
        }
        /* nothing above square 32: English checkers, or an international composition
         * in one corner of the board (only if it has moves and they are legal so) */
        cand[ncand++] = dm_variant_get(DM_VARIANT_ENGLISH);
        if (moves > 0) {
            cand[ncand++] = dm_variant_get(DM_VARIANT_INTERNATIONAL);
        }
        /* Italian records are numeric 1-32 too (White on 21-32 moves first) */
        cand[ncand++] = dm_variant_get(DM_VARIANT_ITALIAN);
        board = "no square above 32";
    }
    *guessed = 1;
    dm_pdn_replay tmp_r;
    dm_pdn_replay *tmp = &tmp_r;
    int best = -1, best_plies = -1, best_defect = 0, fen_fails = 0;
    char first_fail[160] = "";
    for (int c = 0; c < ncand; c++) {
        if (try_variant(tmp, g, cand[c]) == DM_PDN_LEGAL) {
            *out = cand[c];
            return 1;
        }
        if (c == 0) {
            if (tmp->node) {
                snprintf(first_fail, sizeof first_fail, "move %d%s %.20s: %.100s", tmp->move_number,
                         tmp->black ? "..." : ".", tmp->move_text, tmp->reason.message);
            } else {
                snprintf(first_fail, sizeof first_fail, "%.150s", tmp->reason.message);
            }
        }
        fen_fails += !tmp->node && tmp->plies == 0;
        if (tmp->plies > best_plies) {
            best = c;
            best_plies = tmp->plies;
            /* a move from a square without a piece of the side to move: a defect of the
             * record that no rules explain (a rules difference fails otherwise) */
            best_defect = 0;
            if (tmp->node && tmp->node->kind == DM_PDN_NODE_MOVE) {
                int from = dm_square_parse(cand[c], tmp->node->text, NULL);
                dm_piece pc = dm_board_piece(&tmp->end, from);
                int white = pc == DM_WHITE_MAN || pc == DM_WHITE_KING;
                best_defect = from > 0 && (pc == DM_EMPTY || white != (tmp->end.side == DM_WHITE));
                /* or a short capture the record leaves ambiguous (two legal paths,
                 * and the rest of the game does not tell them apart) */
                best_defect |= strstr(tmp->reason.message, "ambiguous move \"") != NULL;
            }
        }
    }
    if (fen_fails == ncand) {
        /* the FEN fits none of them: the first guess, whose FEN error is the answer */
        *out = cand[0];
        return 1;
    }
    if (best >= 0 && best_defect && best_plies >= PDN_GUESS_MIN_PLIES) {
        /* long enough under these rules to be this variant, with a bad record */
        *out = cand[best];
        return 1;
    }
    char names[80] = "";
    for (int c = 0; c < ncand; c++) {
        size_t len = strlen(names);
        snprintf(names + len, sizeof names - len, "%s%s",
                 c == 0           ? ""
                 : c + 1 == ncand ? " or "
                                  : ", ",
                 cand[c]->name);
    }
    snprintf(reason, cap,
             "no GameType tag, %s, not legal as %s (%s): variant not "
             "supported yet (--variant NAME checks it as one)",
             board, names, first_fail);
    return 0;
}
