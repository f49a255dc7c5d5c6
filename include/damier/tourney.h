/* SPDX-License-Identifier: MIT
 * damier/tourney.h: tournaments: entrants, rounds, pairings, results and standings,
 * for individuals and for teams, in sections; and the tournament file that holds
 * them (docs/TOURNEY.md). Game rules and clocks are elsewhere (game.h, clock.h): a
 * pairing here is who plays whom with which colour, and what came of it.
 *
 * Systems: round robin by the Berger tables (FIDE Handbook C.05, Annex 1: the same
 * tables FMJD events use; a double round robin plays them twice with the colours
 * reversed) and Swiss by the Monrad system (the standings order, top down: each
 * entrant meets the highest-placed entrant it has not met, with backtracking; no
 * rematch, no third game in a row with one colour, colours never more than two
 * apart; the bye to the lowest-placed entrant who has not had one).
 *
 * Points are FMJD's: a game won 2, drawn 1, lost 0 (the rules' 2-0 / 1-1 / 0-2),
 * configurable. A team event (boards > 0) pairs teams: a match is played on `boards`
 * boards, its board points are the sum of the boards' game points, and the match
 * points (2 / 1 / 0 by default) go to the team with more board points. Colours in a
 * team match: the team named first has White on the odd boards.
 *
 * Sections: each entrant's section is a group paired on its own (a women's, youth or
 * seniors' section of one event); categories are labels for standings only (the best
 * woman, junior, senior of an open section).
 *
 * Ownership: a dm_tourney is a caller-owned value; dm_tourney_free releases what the
 * library allocated in it. Nothing is kept between calls. */
#ifndef DM_TOURNEY_H
#define DM_TOURNEY_H

#include <stddef.h>

#include <damier/status.h>

#ifdef __cplusplus
extern "C" {
#endif

#define DM_TOURNEY_NAME_MAX 96 /* bytes of a name, a section or categories, NUL included */
#define DM_TOURNEY_MAX_ENTRANTS 1024
#define DM_TOURNEY_MAX_BOARDS 32
#define DM_TOURNEY_MAX_TIEBREAKS 8

typedef enum dm_tourney_system {
    DM_TOURNEY_ROUND_ROBIN = 0, /* every entrant of a section meets every other (cycles) */
    DM_TOURNEY_SWISS = 1        /* a fixed number of rounds, paired by score (Monrad) */
} dm_tourney_system;

/* Tie-breaks, applied in the order given after the points (names in the file:
 * dm_tourney_tiebreak_name). */
typedef enum dm_tourney_tiebreak {
    DM_TB_DIRECT = 1,           /* "direct": points in the games among the tied entrants */
    DM_TB_WINS = 2,             /* "wins": games (team events: matches) won */
    DM_TB_SONNEBORN_BERGER = 3, /* "sonneborn-berger": each opponent's points times the
                                  fraction of the pairing's points scored against it */
    DM_TB_BUCHHOLZ = 4,         /* "buchholz": the sum of the opponents' points (Solkoff) */
    DM_TB_MEDIAN_BUCHHOLZ = 5,  /* "median-buchholz": without the best and the worst
                                  opponent (with three opponents or more) */
    DM_TB_BOARD_POINTS = 6      /* "board-points": team events, the board points */
} dm_tourney_tiebreak;

/* What came of a pairing. */
typedef enum dm_tourney_outcome {
    DM_TOUT_PENDING = 0, /* not played yet */
    DM_TOUT_PLAYED = 1,  /* played: score[] holds the game (or board) points */
    DM_TOUT_FORFEIT = 2, /* not played, awarded: score[] holds the points given (a win
                            for the side present; 0-0 when both were absent); a forfeit
                            counts as a win or loss but not as a game met for the
                            pairings (the two may still be paired) */
    DM_TOUT_BYE = 3      /* the entrant had no opponent this round (black = -1) */
} dm_tourney_outcome;

/* One entrant: a player, or a team in a team event. */
typedef struct dm_tourney_entrant {
    char name[DM_TOURNEY_NAME_MAX];
    int rating;                           /* 0 = unrated; orders the first round */
    char section[DM_TOURNEY_NAME_MAX];    /* "" = the main group */
    char categories[DM_TOURNEY_NAME_MAX]; /* labels separated by ',' ("women,youth"), or "" */
    int withdrawn;                        /* 1: not paired in later rounds */
} dm_tourney_entrant;

/* One pairing of a round. white/black: entrant indices (team events: white = the
 * team named first, the "home" team); black = -1 for a bye. */
typedef struct dm_tourney_pairing {
    int round; /* 1-based */
    int white, black;
    int outcome;  /* dm_tourney_outcome */
    int score[2]; /* [0] white's, [1] black's: game points (team events: board points) */
    int board[DM_TOURNEY_MAX_BOARDS][2];             /* team events: each board's points, home
                                            player first (board 1 is [0]) ... */
    unsigned char board_done[DM_TOURNEY_MAX_BOARDS]; /* ... where board_done[b] is 1 */
} dm_tourney_pairing;

/* A tournament. Fill it with dm_tourney_init, then set the fields (or read a file);
 * entrants and pairings are appended with the functions below. */
typedef struct dm_tourney {
    char event[DM_TOURNEY_NAME_MAX];
    int system; /* dm_tourney_system */
    int cycles; /* round robin: 1, or 2 for a double round robin */
    int rounds; /* Swiss: the number of rounds (1..100) */
    int boards; /* 0: individuals; 1..DM_TOURNEY_MAX_BOARDS: a team event on so many boards */
    int win, draw, loss;                     /* game points (default 2 1 0, FMJD) */
    int bye;                                 /* points for a bye (default: a win) */
    int match_win, match_draw, match_loss;   /* team events: match points (2 1 0) */
    int tiebreaks[DM_TOURNEY_MAX_TIEBREAKS]; /* dm_tourney_tiebreak, in order */
    int ntiebreaks; /* -1: the system's default (dm_tourney_default_tiebreaks) */
    dm_tourney_entrant *entrants;
    int nentrants;
    dm_tourney_pairing *pairings; /* in round order */
    int npairings;
    int cap_entrants, cap_pairings; /* allocated (library's) */
} dm_tourney;

/* An entrant's line of the standings. Points are in the scale of the event (FMJD
 * game points; team events: match points); tie-break values in the same scale
 * (Sonneborn-Berger and Buchholz as fractions: value / 2 when win is 2). */
typedef struct dm_tourney_standing {
    int entrant;
    int rank;   /* 1-based; entrants equal on points and every tie-break share a rank */
    int points; /* the event's points */
    int games;  /* pairings counted (byes and forfeits included) */
    double tb[DM_TOURNEY_MAX_TIEBREAKS]; /* the tie-breaks, in the event's order */
} dm_tourney_standing;

/* An empty Swiss event of 7 rounds with FMJD points (2 1 0, bye 2), individuals, the
 * default tie-breaks. */
DM_API void dm_tourney_init(dm_tourney *t);

/* Release the entrants and pairings (t is then as after dm_tourney_init). */
DM_API void dm_tourney_free(dm_tourney *t);

/* The tie-breaks used when ntiebreaks is -1: round robin direct, wins,
 * sonneborn-berger; Swiss buchholz, median-buchholz, sonneborn-berger, wins; team
 * events board-points first, then as the system. Writes at most
 * DM_TOURNEY_MAX_TIEBREAKS values into out; returns how many. */
DM_API int dm_tourney_default_tiebreaks(const dm_tourney *t, int *out);

/* "direct", "wins", ... (NULL for an unknown value); and back (0 for an unknown name). */
DM_API const char *dm_tourney_tiebreak_name(int tb);
DM_API int dm_tourney_tiebreak_from_name(const char *name);

/* Append an entrant (copied; name required, at most DM_TOURNEY_MAX_ENTRANTS).
 * Errors: DM_EINVAL (empty or duplicate name, too many, a name too long),
 * DM_ENOMEM. Entrants cannot be added once a round has been paired. */
DM_API dm_status dm_tourney_add_entrant(dm_tourney *t, const dm_tourney_entrant *e, dm_error *err);

/* The last round paired (0 before the first). */
DM_API int dm_tourney_current_round(const dm_tourney *t);

/* The number of rounds the event has (round robin: from the largest section). */
DM_API int dm_tourney_total_rounds(const dm_tourney *t);

/* Pair the next round of every section and append its pairings (byes recorded as
 * such, with their points). Errors (nothing is changed): DM_ESTATE when a pairing of
 * the last round has no result yet or every round is paired; DM_EINVAL when a
 * section has fewer than two entrants; DM_ENOMEM. A Swiss round whose constraints
 * cannot all be met is paired again without the colour rules, and then with
 * rematches allowed (never without a pairing). *round_out (may be NULL) gets the
 * round's number. */
DM_API dm_status dm_tourney_pair_next(dm_tourney *t, int *round_out, dm_error *err);

/* Record a result of pairing i: outcome DM_TOUT_PLAYED or DM_TOUT_FORFEIT with the
 * two sides' points (individuals: win/draw/loss points that make a game, e.g. 2-0,
 * 1-1, 0-2; a forfeit win-loss or 0-0; team events: set the boards with
 * dm_tourney_set_board first, score is then their sum). Errors: DM_EINVAL for an
 * index out of range, a bye, or points that are no game result. */
DM_API dm_status dm_tourney_set_result(dm_tourney *t, int i, int outcome, int white_points,
                                       int black_points, dm_error *err);

/* Team events: the result of board b (1-based) of pairing i, home player first
 * (a game's points: win-loss, draw-draw, loss-win); the pairing becomes played when
 * every board has a result. DM_EINVAL otherwise. */
DM_API dm_status dm_tourney_set_board(dm_tourney *t, int i, int board, int home_points,
                                      int away_points, dm_error *err);

/* The standings of section (NULL: every entrant, each section ranked apart is the
 * caller's choice) restricted to entrants carrying category (NULL: all), best
 * first. Writes at most cap lines into out and returns the number of entrants that
 * qualify (which may exceed cap). Pending pairings count nothing. */
DM_API int dm_tourney_standings(const dm_tourney *t, const char *section, const char *category,
                                dm_tourney_standing *out, int cap);

/* Read a result as the tournament file writes it (docs/TOURNEY.md): a game's points
 * "2-0" "1-1" "0-2" in the event's scale (PDN's "1-0", "0-1", "1/2-1/2" also read),
 * "+-" "-+" "--" for forfeits (team events: of the whole match), "*" for not played.
 * Sets *outcome (dm_tourney_outcome) and the two sides' points. Returns 1, or 0 when
 * text is none of these (nothing set). The points are not checked against the scale:
 * dm_tourney_set_result and dm_tourney_set_board do that. */
DM_API int dm_tourney_result_from_text(const dm_tourney *t, const char *text, int *outcome,
                                       int *white_points, int *black_points);

/* Read a tournament file (docs/TOURNEY.md) into *t (initialised here; on error *t is
 * freed and empty). Errors: DM_EPARSE with the line and column and what was expected;
 * DM_EINVAL for a consistent-looking file that breaks a rule (a pairing naming an
 * unknown entrant, two pairings of one entrant in a round, ...), with its line;
 * DM_ENOMEM. */
DM_API dm_status dm_tourney_read(dm_tourney *t, const char *text, size_t len, dm_error *err);

/* Write *t as a tournament file into a malloc'd NUL-terminated *out (*len bytes,
 * may be NULL): what dm_tourney_read reads back as the same tournament. DM_ENOMEM. */
DM_API dm_status dm_tourney_write(char **out, size_t *len, const dm_tourney *t);

#ifdef __cplusplus
}
#endif
#endif /* DM_TOURNEY_H */
