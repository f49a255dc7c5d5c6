/* SPDX-License-Identifier: MIT
 * pdn/replay.c: replaying a game's mainline with the FMJD rules (dm_move10_parse) on the
 * fast 10x10 core, for international draughts and antidraughts; the entry point
 * dm_pdn_replay_mainline, which picks the rules (vreplay.c). A move is legal only if
 * it matches exactly one legal move of its position (FMJD 3, 4.1 compulsory capture,
 * 4.13 majority rule); the first bad move stops the replay and is described. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pdn/pdn_int.h"

/* The FEN without lidraughts' ":H<n>" / ":F<n>" counters, into buf. Sets *fullmove to
 * the F counter (0 when absent). */
void pdn_strip_counters(char *buf, size_t cap, const char *fen, int *fullmove)
{
    size_t o = 0;
    *fullmove = 0;
    for (const char *p = fen; *p && o + 1 < cap;) {
        if (*p == ':' && (p[1] == 'H' || p[1] == 'F') && p[2] >= '0' && p[2] <= '9') {
            const char *q = p + 2;
            int v = 0;
            for (; *q >= '0' && *q <= '9'; q++) {
                v = v < 100000 ? v * 10 + (*q - '0') : v;
            }
            if (*q == 0 || *q == ':') {
                if (p[1] == 'F') {
                    *fullmove = v;
                }
                p = q;
                continue;
            }
        }
        buf[o++] = *p++;
    }
    buf[o] = 0;
}

dm_status pdn_start_board(dm_board10 *out, const dm_pdn_game *g, dm_error *err)
{
    const char *fen = dm_pdn_game_fen(g);
    if (!fen) {
        dm_board10_start(out);
        return DM_OK;
    }
    char buf[512];
    int fm;
    pdn_strip_counters(buf, sizeof buf, fen, &fm);
    return dm_board10_from_fen(out, buf, err);
}

/* Mainline replay state shared by the recursion that resolves ambiguous moves. */
typedef struct run_ctx {
    const dm_pdn_line *line;
    dm_move10 *moves; /* moves[i] = the move of node i (may be NULL) */
    int budget;       /* look-ahead replays left, against blow-up */
    dm_board10 end;   /* position after the last good move (the public dm_pdn_replay
                         holds the generic one, converted once by the caller) */
} run_ctx;

/* Return from run: the position reached is the replay's end. */
static int finish(dm_pdn_replay *out, run_ctx *rc, const dm_board10 *b)
{
    rc->end = *b;
    return out->verdict;
}

/* Candidates for an ambiguous move: legal moves with the written from and to squares. */
static int candidates(dm_move10 *cand, int cap, const dm_board10 *b, const char *text)
{
    int sq[64], n = 0;
    for (const char *p = text; *p && n < 64;) {
        if (*p >= '0' && *p <= '9') {
            int v = 0;
            for (; *p >= '0' && *p <= '9'; p++) {
                v = v < 1000 ? v * 10 + (*p - '0') : v;
            }
            sq[n++] = v;
        } else {
            p++;
        }
    }
    if (n < 2) {
        return 0;
    }
    dm_movelist10 list;
    dm_movegen10_legal(&list, b);
    int k = 0;
    for (int i = 0; i < list.count && k < cap; i++) {
        if (list.moves[i].from == sq[0] && list.moves[i].to == sq[n - 1]) {
            cand[k++] = list.moves[i];
        }
    }
    return k;
}

/* Replay nodes i.. of the line from b; fills out (plies, end, the first bad move). */
static int run(dm_pdn_replay *out, run_ctx *rc, dm_board10 b, int i, int number)
{
    const dm_pdn_line *l = rc->line;
    dm_error err;
    for (; i < l->nnodes; i++) {
        const dm_pdn_node *nd = &l->nodes[i];
        if (nd->number > 0) {
            number = nd->number;
        }
        out->node = nd;
        out->move_number = number;
        out->black = b.side == DM_BLACK;
        out->fen_before[0] = 0; /* written only when this move fails (it is costly) */
        if (nd->kind == DM_PDN_NODE_SETUP) {
            dm_board10 nb;
            if (dm_board10_from_fen(&nb, nd->text, &err) != DM_OK) {
                out->verdict = DM_PDN_UNREADABLE;
                dm_board10_to_fen(out->fen_before, sizeof out->fen_before, &b);
                snprintf(out->move_text, sizeof out->move_text, "/FEN \"%s\"/", nd->text);
                dm_error_set(&out->reason, DM_EPARSE, nd->line, nd->column,
                             "setup command FEN cannot be read: %s", err.message);
                return finish(out, rc, &b);
            }
            b = nb;
            continue;
        }
        snprintf(out->move_text, sizeof out->move_text, "%s", nd->text);
        if (nd->kind == DM_PDN_NODE_UNKNOWN) {
            out->verdict = DM_PDN_UNREADABLE;
            dm_board10_to_fen(out->fen_before, sizeof out->fen_before, &b);
            dm_error_set(&out->reason, DM_EPARSE, nd->line, nd->column,
                         "unknown move \"%s\": the position after it is not known", nd->text);
            return finish(out, rc, &b);
        }
        dm_move10 m;
        dm_status st = dm_move10_parse(&m, &b, nd->text, &err);
        if (st == DM_EAMBIGUOUS) {
            /* Short notation where the full path was needed: keep the candidate with
             * which the rest of the game is legal, if there is exactly one. */
            dm_move10 cand[16];
            int nc = candidates(cand, 16, &b, nd->text);
            int fits = 0, kept = -1;
            dm_pdn_replay best;
            dm_board10 best_end = b;
            for (int c = 0; c < nc && rc->budget > 0; c++) {
                rc->budget--;
                dm_pdn_replay tmp = *out;
                dm_board10 b2 = b;
                dm_board10_apply(&b2, &cand[c]);
                tmp.plies++;
                if (run(&tmp, rc, b2, i + 1, b2.side == DM_WHITE ? number + 1 : number) ==
                    DM_PDN_LEGAL) {
                    fits++;
                    if (kept < 0) {
                        kept = c;
                        best = tmp;
                        best_end = rc->end;
                    }
                }
            }
            if (fits == 1) {
                int had = out->resolved;
                *out = best;
                if (!had) {
                    out->ambiguous = nd;
                    out->ambiguous_number = number;
                    out->ambiguous_black = b.side == DM_BLACK;
                    dm_move10_to_text(out->ambiguous_as, sizeof out->ambiguous_as, &b, &cand[kept],
                                      DM_NOTATION_FULL);
                }
                out->resolved++;
                if (rc->moves) {
                    rc->moves[i] = cand[kept];
                }
                rc->end = best_end;
                return out->verdict;
            }
            /* none or several work: report the ambiguity itself (restore this move's fields) */
            out->node = nd;
            out->move_number = number;
            out->black = b.side == DM_BLACK;
            snprintf(out->move_text, sizeof out->move_text, "%s", nd->text);
        }
        if (st != DM_OK && pdn_irregular_mark(nd)) {
            /* an accepted irregularity (FMJD 5.7): applied as written */
            const dm_variant *v =
                out->variant ? out->variant : dm_variant_get(DM_VARIANT_INTERNATIONAL);
            dm_board vb;
            dm_error aerr;
            dm_status ast = dm_board_from_board10(&vb, v, &b);
            if (ast == DM_OK) {
                ast = pdn_apply_written(&vb, nd->text, &aerr);
            } else {
                dm_error_set(&aerr, ast, 0, 0, "the position is not a %s one", v->title);
            }
            dm_board10 nb;
            if (ast == DM_OK && dm_board_to_board10(&nb, &vb) == DM_OK) {
                pdn_irregular_note(out, nd, number, b.side == DM_BLACK, err.message);
                if (rc->moves) {
                    memset(&rc->moves[i], 0, sizeof rc->moves[i]);
                }
                b = nb;
                out->plies++;
                if (b.side == DM_WHITE) {
                    number++;
                }
                continue;
            }
            out->verdict = ast == DM_EPARSE ? DM_PDN_UNREADABLE : DM_PDN_ILLEGAL;
            dm_board10_to_fen(out->fen_before, sizeof out->fen_before, &b);
            dm_error_set(&out->reason, st, nd->line, nd->column,
                         "%.110s; marked as an accepted irregularity, but it cannot be played "
                         "as written: %.90s",
                         err.message, aerr.message);
            return finish(out, rc, &b);
        }
        if (st != DM_OK) {
            out->verdict = st == DM_EPARSE ? DM_PDN_UNREADABLE : DM_PDN_ILLEGAL;
            dm_board10_to_fen(out->fen_before, sizeof out->fen_before, &b);
            dm_error_set(&out->reason, st, nd->line, nd->column, "%s", err.message);
            return finish(out, rc, &b);
        }
        if (rc->moves) {
            rc->moves[i] = m;
        }
        dm_board10_apply(&b, &m);
        out->plies++;
        if (b.side == DM_WHITE) {
            number++;
        }
    }
    out->node = NULL;
    out->move_text[0] = 0;
    out->fen_before[0] = 0;
    out->move_number = 0;
    out->black = 0;
    out->verdict = DM_PDN_LEGAL;
    return finish(out, rc, &b);
}

int pdn_replay_run(dm_pdn_replay *out, const dm_pdn_game *g, dm_move10 *moves, dm_board10 *start,
                   dm_board10 *end)
{
    dm_error err;
    const char *fen = dm_pdn_game_fen(g);
    if (pdn_start_board(start, g, &err) != DM_OK) {
        dm_board10_start(start);
        *end = *start;
        out->verdict = DM_PDN_UNREADABLE;
        dm_error_set(&out->reason, DM_EPARSE, 0, err.column, "FEN \"%s\" cannot be read: %s", fen,
                     err.message);
        return out->verdict;
    }
    char buf[512];
    int number = 1;
    if (fen) {
        pdn_strip_counters(buf, sizeof buf, fen, &number);
        number = number > 0 ? number : 1;
    }
    run_ctx rc = {&g->main, moves, 256, *start};
    int verdict = run(out, &rc, *start, 0, number);
    *end = rc.end;
    return verdict;
}

dm_status dm_pdn_replay_mainline(dm_pdn_replay *out, const dm_pdn_game *g)
{
    if (!out || !g) {
        return DM_EINVAL;
    }
    memset(out, 0, sizeof *out);
    dm_board_start(&out->start, dm_variant_get(DM_VARIANT_INTERNATIONAL));
    out->end = out->start;
    char why[256];
    const dm_variant *v;
    int guessed;
    if (!pdn_select(g, &v, &guessed, why, sizeof why)) {
        out->verdict = DM_PDN_VARIANT;
        out->guessed = guessed; /* 1: no guessed rules fit the moves */
        dm_error_set(&out->reason, DM_OK, 0, 0, "%s", why);
        return DM_OK;
    }
    out->guessed = guessed;
    pdn_replay_variant(out, g, v, NULL, NULL);
    return DM_OK;
}
