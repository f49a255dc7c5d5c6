/* SPDX-License-Identifier: MIT
 * damier/clock.h: time controls (the PDN TimeControl tag) and a two-sided chess clock
 * (FMJD 9): never both sides running, one press stops the mover and starts the
 * opponent, flag fall seen even when nobody moves. Time comes from an injected
 * monotonic millisecond source, so tests never sleep. */
#ifndef DM_CLOCK_H
#define DM_CLOCK_H

#include <stddef.h>
#include <stdint.h>

#include <damier/status.h>
#include <damier/variant.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- time controls ------------------------------------------------------------ */

/* Kind of a time control, after the PDN/PGN TimeControl grammar. */
typedef enum dm_tc_kind {
    DM_TC_NONE = 0,          /* "-": no time control; a clock only counts the time used */
    DM_TC_UNKNOWN = 1,       /* "?": not known; cannot drive a clock */
    DM_TC_PERIODS = 2,       /* one or more periods, "40/7200:20/2400:600+5" */
    DM_TC_SANDCLOCK = 3,     /* "*S": a sand glass of S seconds: the time one side uses
                                is what the other side has left when its turn comes */
    DM_TC_CORRESPONDENCE = 4 /* "3d" or "3d:60d": days per move, and optionally a total
                                reflection budget per side (a damier extension) */
} dm_tc_kind;

/* One period. Time is cumulative: what is left of a period carries over to the next. */
typedef struct dm_tc_period {
    int moves;            /* moves to make in the period (> 0); 0 = the rest of the game */
    int64_t time_ms;      /* time given at the start of the period, ms (> 0 except the
                             "0+I" increment-only form) */
    int64_t increment_ms; /* added after each move made in the period (Fischer), ms */
} dm_tc_period;

#define DM_TC_MAX_PERIODS 8

/* A parsed time control. For DM_TC_PERIODS, periods[0..count-1] are played in order;
 * when the last one has moves > 0 it repeats (every further N moves add its time).
 * For DM_TC_SANDCLOCK, count = 1 and periods[0].time_ms is the glass.
 * For DM_TC_CORRESPONDENCE, count = 1, periods[0].time_ms is the time per move (each
 * move must be made within it, counted from the opponent's move; unused time is not
 * carried over) and budget_ms the side's total reflection time (0 = none): the time
 * left for a move is the smaller of the two. Both are multiples of 0.001 day
 * (DM_TC_DAY_MS / 1000 = 86400 ms). */
typedef struct dm_time_control {
    dm_tc_kind kind;
    int count; /* periods used */
    dm_tc_period periods[DM_TC_MAX_PERIODS];
    int64_t budget_ms; /* DM_TC_CORRESPONDENCE: total reflection budget, 0 = none */
} dm_time_control;

/* One day in milliseconds (correspondence time controls). */
#define DM_TC_DAY_MS 86400000LL

/* Read a PDN TimeControl tag value. Grammar (elements separated by ':'):
 *     "N/S"   N moves in S seconds (cumulative period)
 *     "S+I"   S seconds for the rest of the game, I seconds added after each move
 *     "S"     S seconds for the rest of the game (sudden death)
 *     "*S"    sand clock of S seconds (alone)
 *     "?"     unknown (alone)      "-"  no time control (alone)
 *     "Dd"    correspondence: D days per move (alone), "3d"
 *     "Dd:Bd" correspondence with a total budget of B days per side, "3d:60d"
 * Extensions: "N/S+I" (a moves period with an increment, as in "40/5400+30:1800+30");
 * seconds and days may carry up to 3 decimals ("0.5", "0.25d"); surrounding spaces are
 * ignored.
 * Only the last element may lack a move count. Examples: "40/7200:3600",
 * "4800+60", "40/7200:20/2400:600+5", "5400".
 * DM_EPARSE with err->column (1-based) at the offending character and what was
 * expected there; *out is untouched on error. */
DM_API dm_status dm_time_control_parse(dm_time_control *out, const char *text, dm_error *err);

/* Write tc in the same grammar (seconds, decimals only when needed). snprintf-style:
 * at most cap bytes including the NUL, returns the length needed. parse(format(tc))
 * gives tc back. 256 bytes always suffice. */
DM_API size_t dm_time_control_format(char *buf, size_t cap, const dm_time_control *tc);

/* Check a time control built by hand (kinds, counts, ranges). DM_EINVAL with a reason. */
DM_API dm_status dm_time_control_validate(const dm_time_control *tc, dm_error *err);

/* Where one side stands against its time controls (FMJD 9: in a cumulative control
 * the clock shows the time left until the next control, and the player must know how
 * many moves are still due by then). */
typedef struct dm_tc_position {
    int period;           /* 0-based index of the period the side now plays in */
    int moves_due;        /* moves still to make before the next control; 0 when none
                             is ahead (sudden death, an increment-only period, no
                             periods) */
    int control_move;     /* the side's own move count at which that control falls
                             (moves + moves_due: 40 in a 40-move control); 0 when none */
    int64_t next_time_ms; /* time the control adds (the next period's, or the repeating
                             last period's again); 0 when none */
} dm_tc_position;

/* The position against tc of a side that has completed `moves` moves (>= 0), as
 * dm_clock_press counts them: a period of N moves is complete after its N-th move,
 * and the next period (or the last one again, when it has moves) starts then. So in
 * "40/7200:3600", after 39 moves 1 is due by move 40; after 40 and 41 none (the rest
 * of the game is sudden death); in "40/7200" (repeating) after 40 moves 40 are due by
 * move 80. A DM_TC_NONE, DM_TC_UNKNOWN or sand-clock control has no controls (all 0).
 * DM_EINVAL for NULLs or moves < 0 (*out zeroed when out is not NULL). */
DM_API dm_status dm_time_control_at(dm_tc_position *out, const dm_time_control *tc, int moves);

/* ---- the clock ---------------------------------------------------------------- */

/* Monotonic time in milliseconds; only differences matter. payload is the caller's. */
typedef int64_t (*dm_time_fn)(void *payload);

/* The default time source: CLOCK_MONOTONIC in ms (payload ignored). */
DM_API int64_t dm_clock_monotonic_ms(void *payload);

/* A two-sided clock. Opaque; not thread-safe (poll it from the thread that presses). */
typedef struct dm_clock dm_clock;

/* Create a stopped clock. white/black: each side's time control (black NULL = same as
 * white, as with the TimeControl tag; different ones as with TimeControlWhite/Black).
 * now: the time source (NULL = dm_clock_monotonic_ms) and its payload.
 * Each side starts with the time of its first period. A sand clock needs the same
 * control for both sides; DM_TC_UNKNOWN is refused. DM_EINVAL with err saying why;
 * DM_ENOMEM. *out belongs to the caller: dm_clock_free. */
DM_API dm_status dm_clock_new(dm_clock **out, const dm_time_control *white,
                              const dm_time_control *black, dm_time_fn now, void *payload,
                              dm_error *err);

/* Release a clock; NULL is accepted. */
DM_API void dm_clock_free(dm_clock *clock);

/* Start the clock of `side` (the side to move) when neither runs. With a sand clock
 * the first start turns the glass for `side`: it has all the sand, the other none.
 * DM_ESTATE if a side already runs, the clock is paused or stopped, or a flag has
 * fallen. */
DM_API dm_status dm_clock_start(dm_clock *clock, dm_color side);

/* The running side has completed a move: in one step stop its clock, count the move,
 * add its increment (Fischer, FMJD: added AFTER each move, move 1 included, never
 * before the first move), and when the move completes a period add the next period's
 * time; then start the other side. With a correspondence control the mover's time is
 * set afresh for its next move: the time per move, or what is left of its budget when
 * that is less. DM_ESTATE when no side is running (not started, paused) or a flag has fallen (the move came too late: the clock stays as it was). */
DM_API dm_status dm_clock_press(dm_clock *clock);

/* Stop the running side without counting a move / start it again from where it was.
 * DM_ESTATE when not running / not paused. */
DM_API dm_status dm_clock_pause(dm_clock *clock);
DM_API dm_status dm_clock_resume(dm_clock *clock);

/* Give the turn to `side` without counting a move (a move taken back): when the other
 * side runs, its time stops and side's starts now; when the clock is paused, side is
 * the one resume starts. Nothing when side already has the turn. DM_ESTATE when the
 * clock neither runs nor is paused, DM_EINVAL for a bad side. */
DM_API dm_status dm_clock_switch(dm_clock *clock, dm_color side);

/* Stop for good (the game is over): the times are frozen. Always succeeds. */
DM_API void dm_clock_stop(dm_clock *clock);

/* Poll the time source: 1 when a flag has fallen, with the side whose time ran out in
 * *who (may be NULL), else 0. The flag falls when the running side's remaining time
 * reaches 0 (a press at that very millisecond is too late). Detected even if nobody
 * presses, and attributed to the side that ran out however late the poll comes; the
 * time used is counted up to the fall. Once fallen the clock stops and stays flagged
 * (see dm_clock_set_remaining). A DM_TC_NONE side never flags. */
DM_API int dm_clock_flagged(dm_clock *clock, dm_color *who);

/* Remaining time of `side` in ms, polled now (never negative; 0 after its flag fell).
 * For a DM_TC_NONE side: INT64_MAX. */
DM_API int64_t dm_clock_remaining(dm_clock *clock, dm_color side);

/* Snapshot of one side, polled now. */
typedef struct dm_clock_side {
    int64_t remaining_ms; /* as dm_clock_remaining */
    int64_t used_ms;      /* total thinking time used since the start */
    int64_t increment_ms; /* increment of the current period (0 = none) */
    int moves;            /* moves completed (presses) */
    int period;           /* 0-based index of the current period */
    int moves_to_go;      /* moves left before the next time control; 0 = none */
    int running;          /* 1 when this side's clock runs */
    int flagged;          /* 1 when this side's flag has fallen */
    int control_move;     /* the side's move count at which its next control falls
                             (moves + moves_to_go); 0 = none (dm_time_control_at) */
} dm_clock_side;

DM_API void dm_clock_side_info(dm_clock_side *out, dm_clock *clock, dm_color side);

/* 1 when a side's clock runs, with the side in *side (may be NULL). */
DM_API int dm_clock_running(const dm_clock *clock, dm_color *side);

/* 1 when paused by dm_clock_pause. */
DM_API int dm_clock_paused(const dm_clock *clock);

/* Arbiter correction: set the remaining time of `side` (ms >= 0), e.g. to resume an
 * adjourned game. Clears that side's flag if ms > 0 (the clock stays stopped: call
 * dm_clock_start). DM_EINVAL for ms < 0 or an untimed (DM_TC_NONE) side. */
DM_API dm_status dm_clock_set_remaining(dm_clock *clock, dm_color side, int64_t ms);

/* Write a time as "H:MM:SS" (or "M:SS" under an hour; tenths "M:SS.t" under 10 s when
 * tenths is nonzero) for displays and the PDN WhiteTime/BlackTime tags. snprintf-style. */
DM_API size_t dm_clock_format_ms(char *buf, size_t cap, int64_t ms, int tenths);

#ifdef __cplusplus
}
#endif
#endif /* DM_CLOCK_H */
