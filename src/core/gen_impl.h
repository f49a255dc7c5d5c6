/* SPDX-License-Identifier: MIT
 * core/gen_impl.h: the move generator, written once: legal captures and quiet
 * moves, bulk counting, has-capture and perft, over the geometry of gen_geom.h and
 * the rules of gen_rules. Include it (after gen_geom.h) once per instantiation with:
 *   GEN_RS           name suffix token (fmjd_, dyn_, ...): names are
 *                    GEN_PREFIX##GEN_RS##x, e.g. gen10_fmjd_legal
 *   GEN_RULES_CONST  (optional) a constant gen_rules expression: the compiler folds
 *                    every rule test; without it the rules are read from the
 *                    context (the variant's data, read once per call)
 *   GEN_RECORD       1: the list is a dm_movelist with promote flags (the generic
 *                    API), the PDN paths written to a parallel array only when
 *                    one is given (notation), and moves come in the generic core's
 *                    order (by square, directions NW NE SW SE, nearest landing
 *                    first); 0: the list is GEN_LIST of XOR deltas in the fast
 *                    order of today's international generator, plus count and
 *                    perft (bulk counting), which never pay for paths.
 *
 * Captures (FMJD 4): depth first. A jumped piece leaves the set that can still be
 * taken (opp_left) but stays in the occupied squares until the move ends, so it
 * blocks and cannot be jumped twice (FMJD 4.8, 4.11, Turkish strike); the start
 * square counts as empty. A started capture must be completed: a flying king lands
 * only on squares from which it goes on capturing when there are any. The majority
 * rule (FMJD 4.13, a king counts one) and the other precedences (Czech, Spanish,
 * Italian: F(prec_key)) live in add: worse sequences are dropped, a better one
 * clears the list. Killer: a king's capture ending after a king ends right behind
 * it; Thai: a king lands right behind each piece, which leaves the board at once. Equal from, to, captured set and promotion is one
 * move (first path kept); with promotion at the end of the move such duplicates
 * need 3 or more captures, otherwise 2, so only those are compared. */
#ifndef GEN_RS
#error "define GEN_RS (and GEN_RECORD, optionally GEN_RULES_CONST) first"
#endif

#define F(x) GEN_CAT(GEN_CAT(GEN_PREFIX, GEN_RS), x)
#ifdef GEN_RULES_CONST
#define GEN_R(rp) GEN_RULES_CONST
#else
#define GEN_R(rp) (*(rp))
#endif

#if GEN_RECORD
typedef dm_movelist F(list_t);
#define GEN_LIST_MAX DM_MAX_MOVES
#else
typedef GEN_LIST F(list_t);
#define GEN_LIST_MAX GEN_MAX_MOVES
#endif

/* State of one capture search. */
typedef struct F(ctx) {
    F(list_t) * list;
    gen_rules rules;  /* the rules (unused when GEN_RULES_CONST) */
    int best;         /* pieces taken by the listed captures (0: none yet) */
    uint32_t bestkey; /* precedence key of the listed captures (CZECH, SPANISH,
                           ITALIAN; F(prec_key)) */
    uint32_t kmask;   /* ITALIAN: bit 15 - i set when the i-th piece taken is a king */
    int side;         /* the mover */
    GEN_BB empty;     /* empty squares plus the capturing piece's start square */
    GEN_BB kings;     /* kings of both colours before the move */
    GEN_BB promo;     /* the mover's promotion row */
    int from;         /* bit of the capturing piece */
    int is_king;      /* it was a king when the move started */
    int crowned;      /* a man crowned during this capture (DM_PROMOTE_CONTINUE_KING) */
    int count_only;   /* bulk counting: short captures counted, not listed */
    int counted;      /* captures of `best` pieces counted but not listed */
#if GEN_RECORD
    int capt[DM_MAX_CAPT];         /* bit of each captured piece, in order */
    int cdir[DM_MAX_CAPT];         /* direction of each capture */
    int land[DM_MAX_CAPT];         /* bit landed on after each capture */
    uint8_t (*paths)[DM_MAX_CAPT]; /* PDN path of list->moves[i] in paths[i], or NULL */
#endif
} F(ctx);

#if !GEN_RECORD
GEN_ALWAYS void F(push)(F(list_t) * list, GEN_BB own, GEN_BB capt, GEN_BB kings, int from, int to,
                        int ncapt)
{
    if (list->count >= GEN_LIST_MAX) {
        list->overflow = 1;
        return;
    }
    GEN_MOVE *m = &list->moves[list->count++];
    m->own = own;
    m->capt = capt;
    m->kings = kings;
    m->from = (uint8_t)P(bit_to_sq)(from);
    m->to = (uint8_t)P(bit_to_sq)(to);
    m->ncapt = (uint8_t)ncapt;
    m->pad_ = 0;
}
#else
GEN_ALWAYS void F(push_quiet)(F(list_t) * list, int from, int to, int promote)
{
    if (list->count >= GEN_LIST_MAX) {
        list->overflow = 1;
        return;
    }
    dm_move *m = &list->moves[list->count++];
    m->capt[0] = m->capt[1] = 0;
    m->from = (uint8_t)P(bit_to_sq)(from);
    m->to = (uint8_t)P(bit_to_sq)(to);
    m->ncapt = 0;
    m->promote = (uint8_t)promote;
}
#endif

/* The precedence key of a capture (higher = preferred; the legal captures are those
 * with the highest key), compared as one number: CZECH a capture by a king [Czech
 * 4.14]; SPANISH (pieces, kings taken); ITALIAN (pieces [6.6], by a king [6.7],
 * kings taken [6.8], kings met earliest [6.9]: kmask, the earlier king the higher
 * bit, so comparing masks compares the kings' positions in order, as dctl's
 * piece_order). */
GEN_ALWAYS uint32_t F(prec_key)(const F(ctx) * g, GEN_BB captured, int n, const gen_rules r)
{
    if (r.precedence == DM_PREC_CZECH) {
        return (uint32_t)g->is_king;
    }
    uint32_t nk = (uint32_t)P(count)(captured & g->kings);
    if (r.precedence == DM_PREC_FRISIAN) {
        /* value: a man 64, a king 127 (just under two men), then by a king */
        return ((((uint32_t)n + nk) * 64 - nk) << 1) | (uint32_t)g->is_king;
    }
    if (r.precedence == DM_PREC_SPANISH) {
        return ((uint32_t)n << 8) | nk;
    }
    return ((uint32_t)n << 24) | ((uint32_t)g->is_king << 23) | (nk << 16) | g->kmask;
}

/* ITALIAN: record that the n-th piece taken (from 0) is a king. */
GEN_ALWAYS void F(mark_king)(F(ctx) * g, GEN_BB mid, int n, const gen_rules r)
{
    if (r.precedence == DM_PREC_ITALIAN && (mid & g->kings) && n < 16) {
        g->kmask |= UINT32_C(1) << (15 - n);
    }
}

/* A capture ending on bit `to`, having taken n pieces (`captured`). */
static void F(add)(F(ctx) * g, int to, GEN_BB captured, int n)
{
    const gen_rules r = GEN_R(&g->rules);
    F(list_t) *list = g->list;
    if (r.precedence == DM_PREC_COUNT) {
        if (n < g->best) {
            return;
        }
        if (n > g->best) {
            list->count = 0;
            list->overflow = 0;
            g->counted = 0;
            g->best = n;
        }
    } else if (r.precedence != DM_PREC_NONE) {
        uint32_t key = F(prec_key)(g, captured, n, r);
        if (g->best > 0 && key < g->bestkey) {
            return;
        }
        if (g->best == 0 || key > g->bestkey) {
            list->count = 0;
            list->overflow = 0;
            g->counted = 0;
            g->bestkey = key;
        }
        if (n > g->best) {
            g->best = n;
        }
    } else if (n > g->best) {
        g->best = n; /* free choice: every capture is legal; best > 0 says "captures" */
    }
    const int dup_min = r.promotion == DM_PROMOTE_AT_END ? 3 : 2;
    int promote = !g->is_king && (g->crowned || (P(bit)(to) & g->promo) != 0);
#if GEN_RECORD
    dm_move m;
    m.capt[0] = m.capt[1] = 0;
    for (GEN_BB x = captured; x;) {
        int s = P(bit_to_sq)(P(pop)(&x)) - 1;
        m.capt[s >> 6] |= UINT64_C(1) << (s & 63);
    }
    m.from = (uint8_t)P(bit_to_sq)(g->from);
    m.to = (uint8_t)P(bit_to_sq)(to);
    m.ncapt = (uint8_t)n;
    m.promote = (uint8_t)promote;
    if (n >= dup_min) {
        for (int i = 0; i < list->count; i++) {
            const dm_move *o = &list->moves[i];
            if (o->ncapt == m.ncapt && o->from == m.from && o->to == m.to &&
                o->capt[0] == m.capt[0] && o->capt[1] == m.capt[1] && o->promote == m.promote) {
                return;
            }
        }
    }
    if (list->count >= GEN_LIST_MAX) {
        list->overflow = 1;
        return;
    }
    if (g->paths) {
        /* PDN 3.0 path: the turning square, or right behind the piece going on straight */
        uint8_t *path = g->paths[list->count];
        for (int i = 0; i + 1 < n; i++) {
            int c = g->cdir[i + 1] == g->cdir[i] ? g->capt[i] + P(dir_off)(g->cdir[i]) : g->land[i];
            path[i] = (uint8_t)P(bit_to_sq)(c);
        }
    }
    list->moves[list->count++] = m;
#else
    if (n < dup_min && g->count_only) {
        g->counted++; /* cannot be a duplicate: nothing to compare */
        return;
    }
    GEN_BB own = P(bit)(g->from) ^ P(bit)(to);
    GEN_BB kings = captured & g->kings;
    if (g->is_king) {
        kings ^= own;
    } else if (promote) {
        kings ^= P(bit)(to); /* FMJD 4.15: crowned when the move ends on the far row */
    }
    if (n >= dup_min) {
        uint8_t fs = (uint8_t)P(bit_to_sq)(g->from), ts = (uint8_t)P(bit_to_sq)(to);
        for (int i = 0; i < list->count; i++) {
            const GEN_MOVE *m = &list->moves[i];
            if (m->capt == captured && m->to == ts && m->from == fs && m->kings == kings) {
                return;
            }
        }
    }
    F(push)(list, own, captured, kings, g->from, to, n);
#endif
}

/* One step in any of the 8 directions when the rules capture orthogonally, else on
 * the diagonals alone (the generated code of the diagonal-only rules sets as it was
 * before orthogonal captures). */
GEN_ALWAYS GEN_BB F(step)(const gen_rules r, GEN_BB b, int d)
{
    return r.orthogonal ? P(step)(b, d) : P(dstep)(b, d);
}

static int F(king_go_on)(F(ctx) * g, int at, GEN_BB captured, int n, GEN_BB opp_left);

/* A man (or a short king, king != 0) on bit at, having taken n pieces, looks for the
 * next jump: an adjacent opponent piece not taken yet with an empty square behind
 * (FMJD 4.2; English men forward only; the Italian rule keeps men off kings). A man
 * reaching the far row mid-capture goes on as a man (FMJD 4.15), is crowned and goes
 * on as a king (Russian) or stops there crowned (English). */
static void F(step_capture)(F(ctx) * g, int at, GEN_BB captured, int n, GEN_BB opp_left, int king)
{
    const gen_rules r = GEN_R(&g->rules);
    int any = 0;
    GEN_BB here = P(bit)(at);
    GEN_BB targets = (king || r.men_take_kings) ? opp_left : (opp_left & ~g->kings);
    const int ndir = r.orthogonal ? 8 : 4;
#pragma GCC unroll 4
    for (int d = 0; d < ndir; d++) {
        if (d < 4 && !king && !r.men_back && !P(forward)(d, g->side)) {
            continue;
        }
        GEN_BB mid = F(step)(r, here, d) & targets;
        if (!mid) {
            continue;
        }
        GEN_BB land = F(step)(r, mid, d) & g->empty;
        if (!land) {
            continue;
        }
        any = 1;
        int y = P(lsb)(land);
#if GEN_RECORD
        g->capt[n] = P(lsb)(mid);
        g->cdir[n] = d;
        g->land[n] = y;
#endif
        const uint32_t kmask = r.precedence == DM_PREC_ITALIAN ? g->kmask : 0;
        F(mark_king)(g, mid, n, r);
        if (!king && (land & g->promo) && r.promotion != DM_PROMOTE_AT_END) {
            if (r.promotion == DM_PROMOTE_STOPS) {
                F(add)(g, y, captured | mid, n + 1);
            } else {
                g->crowned = 1;
                if (!F(king_go_on)(g, y, captured | mid, n + 1, opp_left & ~mid)) {
                    F(add)(g, y, captured | mid, n + 1);
                }
                g->crowned = 0;
            }
        } else {
            F(step_capture)(g, y, captured | mid, n + 1, opp_left & ~mid, king);
        }
        if (r.precedence == DM_PREC_ITALIAN) {
            g->kmask = kmask;
        }
    }
    if (!any && n > 0) {
        F(add)(g, at, captured, n);
    }
}

/* Rays in any of the 8 directions when the rules capture orthogonally, else the
 * diagonal tables alone (folded at compile time for the constant rules sets). */
GEN_ALWAYS int F(ray_first)(const gen_rules r, int b, int d, GEN_BB occ)
{
    return r.orthogonal ? P(ray_first)(b, d, occ) : P(dray_first)(b, d, occ);
}
GEN_ALWAYS GEN_BB F(ray)(const gen_rules r, int d, int b)
{
    return r.orthogonal ? P(ray)(d, b) : GEN_RAY(d & 3, b);
}

/* The piece a flying king on bit at can take in direction d: its bit (and the
 * landing squares behind it in *landing), or -1. */
GEN_ALWAYS int F(king_target)(const F(ctx) * g, int at, int d, GEN_BB opp_left, GEN_BB *landing)
{
    const gen_rules r = GEN_R(&g->rules);
    GEN_BB occ = GEN_ALL & ~g->empty;
    int v = F(ray_first)(r, at, d, occ);
    if (v < 0 || !((opp_left >> v) & 1)) {
        return -1;
    }
    int w = F(ray_first)(r, v, d, occ);
    GEN_BB l = F(ray)(r, d, v);
    if (w >= 0) {
        l &= ~(F(ray)(r, d, w) | P(bit)(w));
    }
    *landing = l;
    return l ? v : -1;
}

#if !GEN_RECORD
/* A flying king on bit at tries to capture in direction d (FMJD 4.3); on success it
 * goes on from every landing square (straight on once: every landing square sees the
 * same next piece) and returns 1, else returns 0. */
static int F(king_capture)(F(ctx) * g, int at, int d, GEN_BB captured, int n, GEN_BB opp_left)
{
    const gen_rules r = GEN_R(&g->rules);
    GEN_BB landing;
    int v = F(king_target)(g, at, d, opp_left, &landing);
    if (v < 0) {
        return 0;
    }
    const uint32_t kmask = r.precedence == DM_PREC_ITALIAN ? g->kmask : 0;
    F(mark_king)(g, P(bit)(v), n, r);
    captured |= P(bit)(v);
    opp_left &= ~P(bit)(v);
    n++;
    int any;
    if (r.land_behind) {
        /* Thai: the piece leaves the board at once and the king lands right behind
         * it, going on from there in any direction, back over the emptied square
         * included (dctl thai.hpp; reverse jumps: type_traits is_reverse_king_jump) */
        int y = P(lsb)(P(step)(P(bit)(v), d));
        g->empty |= P(bit)(v);
        any = 0;
        for (int d2 = 0; d2 < 4; d2++) {
            any |= F(king_capture)(g, y, d2, captured, n, opp_left);
        }
        g->empty &= ~P(bit)(v);
        if (!any) {
            F(add)(g, y, captured, n);
        }
    } else {
        any = F(king_capture)(g, v, d, captured, n, opp_left);
        if (!r.orthogonal) {
            int p1 = (d == 0 || d == 3) ? 1 : 0;
            int p2 = 3 - p1;
            for (GEN_BB l = landing; l;) {
                int at2 = P(pop)(&l);
                any |= F(king_capture)(g, at2, p1, captured, n, opp_left);
                any |= F(king_capture)(g, at2, p2, captured, n, opp_left);
            }
        } else {
            /* Frisian: every other direction but back (straight on is the call from v) */
            for (GEN_BB l = landing; l;) {
                int at2 = P(pop)(&l);
                for (int d2 = 0; d2 < 8; d2++) {
                    if (d2 != d && d2 != P(rev)(d)) {
                        any |= F(king_capture)(g, at2, d2, captured, n, opp_left);
                    }
                }
            }
        }
        if (!any) {
            if (r.king_halt && ((g->kings >> v) & 1)) {
                /* killer: the capture ends after a king: right behind it */
                F(add)(g, P(lsb)(P(step)(P(bit)(v), d)), captured, n);
            } else {
                for (GEN_BB l = landing; l;) {
                    F(add)(g, P(pop)(&l), captured, n);
                }
            }
        }
    }
    if (r.precedence == DM_PREC_ITALIAN) {
        g->kmask = kmask;
    }
    return 1;
}
#else
/* True when a flying king on bit at can take a piece in direction d. */
GEN_ALWAYS int F(king_can)(const F(ctx) * g, int at, int d, GEN_BB opp_left)
{
    GEN_BB landing;
    return F(king_target)(g, at, d, opp_left, &landing) >= 0;
}

/* Record mode: as the fast king_capture, in the generic core's order: from each
 * landing square (nearest first) the four directions in turn; straight on is tried
 * from the nearest landing square only (the others give the same moves). */
static int F(king_capture)(F(ctx) * g, int at, int d, GEN_BB captured, int n, GEN_BB opp_left)
{
    const gen_rules r = GEN_R(&g->rules);
    GEN_BB landing;
    int v = F(king_target)(g, at, d, opp_left, &landing);
    if (v < 0) {
        return 0;
    }
    g->capt[n] = v;
    g->cdir[n] = d;
    const uint32_t kmask = r.precedence == DM_PREC_ITALIAN ? g->kmask : 0;
    F(mark_king)(g, P(bit)(v), n, r);
    captured |= P(bit)(v);
    opp_left &= ~P(bit)(v);
    if (r.land_behind) {
        /* Thai: removed at once, lands right behind, goes on in any direction */
        int y = P(lsb)(P(step)(P(bit)(v), d));
        g->land[n] = y;
        g->empty |= P(bit)(v);
        int go_on = 0;
        for (int d2 = 0; d2 < 4; d2++) {
            go_on |= F(king_can)(g, y, d2, opp_left);
        }
        if (go_on) {
            for (int d2 = 0; d2 < 4; d2++) {
                F(king_capture)(g, y, d2, captured, n + 1, opp_left);
            }
        }
        g->empty &= ~P(bit)(v);
        if (!go_on) {
            F(add)(g, y, captured, n + 1);
        }
        if (r.precedence == DM_PREC_ITALIAN) {
            g->kmask = kmask;
        }
        return 1;
    }
    const int ndir = r.orthogonal ? 8 : 4;
    int go_on = F(king_can)(g, v, d, opp_left);
    for (GEN_BB l = landing; l && !go_on;) {
        int y = P(pop)(&l);
        for (int d2 = 0; d2 < ndir && !go_on; d2++) {
            go_on = d2 != d && d2 != P(rev)(d) && F(king_can)(g, y, d2, opp_left);
        }
    }
    /* killer: a capture ending after a king ends right behind it */
    int halt = !go_on && r.king_halt && ((g->kings >> v) & 1);
    int first = 1;
    while (landing) {
        int y = (r.orthogonal ? P(dir_up)(d) : d < 2) ? P(msb)(landing) : P(lsb)(landing);
        landing &= ~P(bit)(y);
        g->land[n] = y;
        if (go_on) {
            for (int d2 = 0; d2 < ndir; d2++) {
                if (d2 != P(rev)(d) && (d2 != d || first)) {
                    F(king_capture)(g, y, d2, captured, n + 1, opp_left);
                }
            }
        } else {
            F(add)(g, y, captured, n + 1);
            if (halt) {
                break;
            }
        }
        first = 0;
    }
    if (r.precedence == DM_PREC_ITALIAN) {
        g->kmask = kmask;
    }
    return 1;
}
#endif

/* A king on bit at (a crowned man included) goes on capturing, having taken n > 0
 * pieces; returns 1 when it could (else the caller ends the move there). */
static int F(king_go_on)(F(ctx) * g, int at, GEN_BB captured, int n, GEN_BB opp_left)
{
    const gen_rules r = GEN_R(&g->rules);
    const int ndir = r.orthogonal ? 8 : 4;
    if (!r.flying) {
        GEN_BB here = P(bit)(at);
        for (int d = 0; d < ndir; d++) {
            GEN_BB mid = P(step)(here, d) & opp_left;
            if (mid && (P(step)(mid, d) & g->empty)) {
                F(step_capture)(g, at, captured, n, opp_left, 1);
                return 1;
            }
        }
        return 0;
    }
    int any = 0;
    for (int d = 0; d < ndir; d++) {
        any |= F(king_capture)(g, at, d, captured, n, opp_left);
    }
    return any;
}

/* Men of `men` that can start a capture. */
GEN_ALWAYS GEN_BB F(men_that_capture)(GEN_BB men, GEN_BB targets, GEN_BB empty, int side,
                                      const gen_rules r)
{
    GEN_BB c = 0;
#pragma GCC unroll 4
    for (int d = 0; d < 4; d++) {
        if (!r.men_back && !P(forward)(d, side)) {
            continue;
        }
        int rd = 3 - d;
        c |= P(dstep)(P(dstep)(empty, rd) & targets, rd) & men;
    }
    if (r.orthogonal) { /* Frisian: along rows and files, backwards too */
        for (int d = 4; d < 8; d++) {
            int rd = P(rev)(d);
            c |= P(step)(P(step)(empty, rd) & targets, rd) & men;
        }
    }
    return c;
}

/* Start the capture search of the piece on bit f. */
GEN_ALWAYS void F(capture_from)(F(ctx) * g, int f, GEN_BB empty, GEN_BB opp, int king,
                                const gen_rules r)
{
    g->from = f;
    g->empty = empty | P(bit)(f);
    g->is_king = king;
    g->crowned = 0;
    if (!king) {
        F(step_capture)(g, f, 0, 0, opp, 0);
    } else if (!r.flying) {
        F(step_capture)(g, f, 0, 0, opp, 1);
    } else {
        const int ndir = r.orthogonal ? 8 : 4;
#pragma GCC unroll 4
        for (int d = 0; d < ndir; d++) {
            F(king_capture)(g, f, d, 0, 0, opp);
        }
    }
}

/* Every capture of pos into g->list (FMJD 4.1: the caller adds quiet moves only
 * when there is none). */
GEN_ALWAYS void F(captures)(F(ctx) * g, const GEN_POS *pos, const gen_rules r)
{
    int c = pos->side;
    GEN_BB own = pos->pieces[c], opp = pos->pieces[c ^ 1];
    GEN_BB empty = GEN_ALL & ~(own | opp);
    GEN_BB targets = r.men_take_kings ? opp : (opp & ~pos->kings);
    g->side = c;
    g->kings = pos->kings;
    g->promo = c == DM_WHITE ? GEN_ROW_W : GEN_ROW_B;
    GEN_BB men = F(men_that_capture)(own & ~pos->kings, targets, empty, c, r);
#if GEN_RECORD
    for (GEN_BB p = men | (own & pos->kings); p;) { /* by square, as the generic core */
        int f = P(pop)(&p);
        F(capture_from)(g, f, empty, opp, (int)((pos->kings >> f) & 1), r);
    }
#else
    for (GEN_BB m = men; m;) {
        F(capture_from)(g, P(pop)(&m), empty, opp, 0, r);
    }
    for (GEN_BB k = own & pos->kings; k;) {
        F(capture_from)(g, P(pop)(&k), empty, opp, 1, r);
    }
#endif
}

/* Ordinary moves (FMJD 3.4-3.8): men one step forward, kings any distance along a
 * free diagonal (one step when not flying). Colour c is a constant after inlining. */
GEN_ALWAYS void F(quiet_c)(F(list_t) * list, const GEN_POS *pos, int c, const gen_rules r)
{
    GEN_BB own = pos->pieces[c], occ = pos->pieces[0] | pos->pieces[1];
    GEN_BB empty = GEN_ALL & ~occ;
    GEN_BB promo = c == DM_WHITE ? GEN_ROW_W : GEN_ROW_B;
    int d0 = c == DM_WHITE ? 0 : 2;
#if GEN_RECORD
    for (GEN_BB p = own; p;) {
        int f = P(pop)(&p);
        if (!((pos->kings >> f) & 1)) {
            for (int d = d0; d < d0 + 2; d++) {
                GEN_BB to = P(step)(P(bit)(f), d) & empty;
                if (to) {
                    F(push_quiet)(list, f, P(lsb)(to), (to & promo) != 0);
                }
            }
            continue;
        }
        for (int d = 0; d < 4; d++) {
            GEN_BB to = r.flying ? P(reach)(f, d, occ) : (P(step)(P(bit)(f), d) & empty);
            while (to) { /* nearest first */
                int t = d >= 2 ? P(lsb)(to) : P(msb)(to);
                to &= ~P(bit)(t);
                F(push_quiet)(list, f, t, 0);
            }
        }
    }
#else
    GEN_BB men = own & ~pos->kings;
#pragma GCC unroll 2
    for (int d = d0; d < d0 + 2; d++) {
        int rd = 3 - d;
        for (GEN_BB to = P(step)(men, d) & empty; to;) {
            int t = P(pop)(&to);
            int f = P(lsb)(P(step)(P(bit)(t), rd));
            GEN_BB own_delta = P(bit)(f) | P(bit)(t);
            F(push)(list, own_delta, 0, P(bit)(t) & promo, f, t, 0);
        }
    }
    for (GEN_BB k = own & pos->kings; k;) {
        int f = P(pop)(&k);
#pragma GCC unroll 4
        for (int d = 0; d < 4; d++) {
            GEN_BB reach = r.flying ? P(reach)(f, d, occ) : (P(step)(P(bit)(f), d) & empty);
            for (GEN_BB to = reach; to;) {
                int t = P(pop)(&to);
                GEN_BB own_delta = P(bit)(f) | P(bit)(t);
                F(push)(list, own_delta, 0, own_delta, f, t, 0);
            }
        }
    }
#endif
}

/* Every legal move of pos under rules r into list (FMJD 3-4); returns list->count.
 * all_captures: ignore the capture precedence and list captures only. GEN_RECORD:
 * paths (may be NULL) receives the PDN path of each capture, parallel to the list. */
#if GEN_RECORD
GEN_ALWAYS int F(legal_x)(F(list_t) * list, const GEN_POS *pos, const gen_rules r, int all_captures,
                          uint8_t (*paths)[DM_MAX_CAPT])
#else
GEN_ALWAYS int F(legal_x)(F(list_t) * list, const GEN_POS *pos, const gen_rules r, int all_captures)
#endif
{
    F(ctx) g;
    list->count = 0;
    list->overflow = 0;
    g.list = list;
#if GEN_RECORD
    g.paths = paths;
#endif
    g.rules = r;
    if (all_captures) {
        g.rules.precedence = DM_PREC_NONE;
    }
    g.best = 0;
    if (r.precedence >= DM_PREC_CZECH) { /* only the key precedences read them */
        g.bestkey = 0;
        g.kmask = 0;
    }
    g.count_only = 0;
    g.counted = 0;
    if (r.win_on_promotion && pos->kings) {
        return 0; /* breakthrough: a side has crowned a king, the game is over */
    }
    F(captures)(&g, pos, r);
    if (list->count == 0 && !all_captures) {
        if (pos->side == DM_WHITE) { /* FMJD 4.1: only when no capture exists */
            F(quiet_c)(list, pos, DM_WHITE, r);
        } else {
            F(quiet_c)(list, pos, DM_BLACK, r);
        }
    }
    return list->count;
}

#if !GEN_RECORD
GEN_ALWAYS int F(legal)(F(list_t) * list, const GEN_POS *pos, const gen_rules r)
{
    return F(legal_x)(list, pos, r, 0);
}
#endif

#if !GEN_RECORD
/* True when the side to move has a capture (so every legal move is one). */
GEN_ALWAYS int F(has_capture)(const GEN_POS *pos, const gen_rules r)
{
    int c = pos->side;
    GEN_BB own = pos->pieces[c], opp = pos->pieces[c ^ 1];
    GEN_BB occ = own | opp, empty = GEN_ALL & ~occ;
    GEN_BB targets = r.men_take_kings ? opp : (opp & ~pos->kings);
    if (r.win_on_promotion && pos->kings) {
        return 0; /* breakthrough: game over */
    }
    if (F(men_that_capture)(own & ~pos->kings, targets, empty, c, r)) {
        return 1;
    }
    GEN_BB kings = own & pos->kings;
    if (!kings) {
        return 0;
    }
    const int ndir = r.orthogonal ? 8 : 4;
    if (!r.flying) {
        GEN_BB k = 0;
        for (int d = 0; d < ndir; d++) {
            k |= P(step)(P(step)(empty, P(rev)(d)) & opp, P(rev)(d)) & kings;
        }
        return k != 0;
    }
    for (GEN_BB k = kings; k;) {
        int at = P(pop)(&k);
#pragma GCC unroll 4
        for (int d = 0; d < ndir; d++) {
            int v = F(ray_first)(r, at, d, occ);
            if (v >= 0 && ((opp >> v) & 1) && (P(step)(P(bit)(v), d) & empty)) {
                return 1;
            }
        }
    }
    return 0;
}

/* Number of legal moves (perft's last ply): quiet moves by popcount, captures by the
 * capture search in counting mode. */
GEN_ALWAYS int F(count)(const GEN_POS *pos, const gen_rules r)
{
    F(list_t) list;
    F(ctx) g;
    list.count = 0;
    list.overflow = 0;
    g.list = &list;
    g.rules = r;
    g.best = 0;
    if (r.precedence >= DM_PREC_CZECH) {
        g.bestkey = 0;
        g.kmask = 0;
    }
    g.count_only = 1;
    g.counted = 0;
    if (r.win_on_promotion && pos->kings) {
        return 0; /* breakthrough: game over */
    }
    F(captures)(&g, pos, r);
    if (g.best > 0) {
        return g.counted + list.count;
    }
    int c = pos->side;
    GEN_BB own = pos->pieces[c], occ = pos->pieces[0] | pos->pieces[1];
    GEN_BB empty = GEN_ALL & ~occ;
    GEN_BB men = own & ~pos->kings;
    int n;
    if (c == DM_WHITE) {
        n = P(count)(P(step)(men, 0) & empty) + P(count)(P(step)(men, 1) & empty);
    } else {
        n = P(count)(P(step)(men, 2) & empty) + P(count)(P(step)(men, 3) & empty);
    }
    GEN_BB kings = own & pos->kings;
    if (!r.flying) {
        for (int d = 0; d < 4; d++) {
            n += P(count)(P(step)(kings, d) & empty);
        }
        return n;
    }
    for (GEN_BB k = kings; k;) {
        int f = P(pop)(&k);
#pragma GCC unroll 4
        for (int d = 0; d < 4; d++) {
            n += P(count)(P(reach)(f, d, occ));
        }
    }
    return n;
}

/* perft's two generator calls, kept out of line: inlining both into the recursion
 * made perft slower (a large frame and register pressure at every node). */
static __attribute__((noinline)) int F(count_nl)(const GEN_POS *pos, const gen_rules *rp)
{
    (void)rp;
    return F(count)(pos, GEN_R(rp));
}
static __attribute__((noinline)) int F(legal_nl)(F(list_t) * list, const GEN_POS *pos,
                                                 const gen_rules *rp)
{
    (void)rp;
    return F(legal)(list, pos, GEN_R(rp));
}

/* perft (depth >= 1) by copy-make, bulk counting at the last ply. */
static uint64_t F(perft)(const GEN_POS *pos, int depth, const gen_rules *rp)
{
    if (depth == 1) {
        return (uint64_t)F(count_nl)(pos, rp);
    }
    F(list_t) list;
    F(legal_nl)(&list, pos, rp);
    uint64_t n = 0;
    for (int i = 0; i < list.count; i++) {
        const GEN_MOVE *m = &list.moves[i];
        GEN_POS next;
        next.pieces[pos->side] = pos->pieces[pos->side] ^ m->own;
        next.pieces[pos->side ^ 1] = pos->pieces[pos->side ^ 1] ^ m->capt;
        next.kings = pos->kings ^ m->kings;
        next.side = pos->side ^ 1;
        n += F(perft)(&next, depth - 1, rp);
    }
    return n;
}
#endif

#undef F
#undef GEN_R
#undef GEN_LIST_MAX
#undef GEN_RS
#undef GEN_RECORD
#ifdef GEN_RULES_CONST
#undef GEN_RULES_CONST
#endif
