/* SPDX-License-Identifier: MIT
 * damier/hub.h: the Hub protocol, version 2 (Scan 3.1, Hub GUI): a pure line codec
 * and an engine-side session state machine. Nothing here reads or writes a stream:
 * the caller feeds lines in and writes the returned lines out. */
#ifndef DM_HUB_H
#define DM_HUB_H

#include <stddef.h>
#include <stdint.h>

#include <damier/engine.h>
#include <damier/session.h>
#include <damier/status.h>
#include <damier/variant.h>

#ifdef __cplusplus
extern "C" {
#endif

#define DM_HUB_MAX_LINE 8192 /* longest line accepted, bytes */
#define DM_HUB_MAX_PAIRS 64  /* name=value pairs kept per line (more are dropped) */

/* One parsed line: `command name=value name "quoted value" ...`. The strings point
 * into the struct's own storage (valid while the struct lives and is not reused).
 * A bare flag has value "" and has_value 0. */
typedef struct dm_hub_cmd {
    const char *name; /* the command word; "" for a blank line */
    int pair_count;   /* pairs in pair[] */
    struct {
        const char *name;
        const char *value;
        int has_value; /* 1 when written name=value */
    } pair[DM_HUB_MAX_PAIRS];
    char storage[DM_HUB_MAX_LINE + DM_HUB_MAX_PAIRS]; /* NUL-separated copies */
} dm_hub_cmd;

/* Parse one line (without or with its trailing newline). Syntax errors (an
 * unterminated quote, '=' without a name, a line longer than DM_HUB_MAX_LINE,
 * control characters) give DM_EPARSE with the column in err. */
DM_API dm_status dm_hub_parse_line(dm_hub_cmd *out, const char *line, dm_error *err);

/* The value of argument `name`, or NULL when absent. */
DM_API const char *dm_hub_get(const dm_hub_cmd *cmd, const char *name);

/* True when argument `name` is present (as a flag or with a value). */
DM_API int dm_hub_has(const dm_hub_cmd *cmd, const char *name);

/* Append ` name=value` to buf (quoted when the value is empty or holds a space, '='
 * or '"'; a '"' inside is replaced by '\''). buf holds a NUL-terminated string of
 * capacity cap; returns the length the full text needs, snprintf-style. */
DM_API size_t dm_hub_append_pair(char *buf, size_t cap, const char *name, const char *value);

/* `info depth=.. seldepth=.. score=.. nodes=.. time=.. nps=.. pv="..."`: score in
 * men with two decimals (a forced game end +/-99.xx; an endgame-database win or loss
 * +/-89.xx as Scan shows it, followed by `egdb=win|loss dtc=N`, N plies to the
 * conversion), time in seconds, nps in millions per second, pv in Hub move notation
 * (numeric squares) played out from root, a position of any variant. Returns the
 * length needed (snprintf-style). */
DM_API size_t dm_hub_format_info(char *buf, size_t cap, const dm_board *root, const dm_info *info);

/* ---- engine-side session ------------------------------------------------------ */

/* What the caller must do after feeding a line. Reply lines (if any) are always to be
 * written first. */
typedef enum dm_hub_action {
    DM_HUB_NONE = 0,      /* nothing more */
    DM_HUB_SEARCH = 1,    /* start a search: dm_hub_session_search() describes it */
    DM_HUB_STOP = 2,      /* stop the running search (dm_engine_stop) */
    DM_HUB_PONDERHIT = 3, /* dm_engine_ponderhit */
    DM_HUB_QUIT = 4,      /* stop any search, then exit */
    DM_HUB_NEW_GAME = 5,  /* dm_engine_clear */
    DM_HUB_OPTIONS = 6    /* apply dm_hub_session_options() (before a search) */
} dm_hub_action;

typedef struct dm_hub_session dm_hub_session;

/* Engine identity and defaults announced in the handshake. */
typedef struct dm_hub_identity {
    const char *name;    /* e.g. "damier" */
    const char *version; /* e.g. "0.1" */
    const char *author;
    const char *country;
} dm_hub_identity;

/* Create a session; *out belongs to the caller (dm_hub_session_free). id is copied;
 * opts are the engine's current options (threads, table size), announced as params. */
DM_API dm_status dm_hub_session_create(dm_hub_session **out, const dm_hub_identity *id,
                                       const dm_engine_options *opts);
DM_API void dm_hub_session_free(dm_hub_session *s);

/* Feed one input line. Lines to send back (each ending in '\n', possibly none) are
 * written to out (capacity cap, NUL-terminated; 16 KiB is plenty); *action says what
 * else to do. Commands and arguments that are not understood are ignored (Hub rule);
 * a known command with bad content gives an `error message="..."` line and the
 * session keeps its previous state. Returns DM_OK, or DM_EBUFS if out was too small
 * (the reply is truncated). */
DM_API dm_status dm_hub_session_feed(dm_hub_session *s, const char *line, dm_hub_action *action,
                                     char *out, size_t cap);

/* The search requested by the last DM_HUB_SEARCH, of any variant: input (valid until
 * the next feed; root, history and draw counters from the game layer), limits. For a
 * caller that runs dm_engine_search itself; dm_hub_session_go runs it on the
 * session. */
DM_API void dm_hub_session_search(const dm_hub_session *s, dm_search_input *in, dm_limits *lim);

/* The dm_session that holds the game (of the selected variant: position, history,
 * counters) and the engine that searches it; owned by s. Front ends stop, ponder-hit
 * and wait for the search through it (dm_session_stop, _ponderhit, _wait,
 * _set_engine_options). */
DM_API dm_session *dm_hub_session_game(dm_hub_session *s);

/* Start the search of the last DM_HUB_SEARCH (any variant) on the session's
 * dm_session, asynchronously: on_info after each iteration and on_done at the end, on
 * the search thread (see dm_session_go); on_info is where the front end formats
 * dm_hub_session_info, on_done dm_hub_session_done. DM_ESTATE when no search was asked
 * for (or dm_session_go refused; err says why), DM_ENOMEM. */
DM_API dm_status dm_hub_session_go(dm_hub_session *s, dm_info_fn on_info,
                                   dm_session_done_fn on_done, void *payload, dm_error *err);

/* The engine options after a DM_HUB_OPTIONS action. */
DM_API void dm_hub_session_options(const dm_hub_session *s, dm_engine_options *opts);

/* True from a DM_HUB_SEARCH until dm_hub_session_done. */
DM_API int dm_hub_session_searching(const dm_hub_session *s);

/* The search ended with r: writes the `done move=.. [ponder=..]` line (Hub notation,
 * numeric squares) to out and returns to the idle state. Returns the length needed
 * (snprintf-style). */
DM_API size_t dm_hub_session_done(dm_hub_session *s, const dm_result *r, char *out, size_t cap);

/* Format an info line for the current search's root (see dm_hub_format_info). */
DM_API size_t dm_hub_session_info(const dm_hub_session *s, const dm_info *info, char *out,
                                  size_t cap);

/* ---- variants ------------------------------------------------------------------
 * `set-param name=variant value=V` selects the rules: V is a Hub name announced by
 * `hub` ("normal" = international, "brazilian", "russian", "english", "canadian",
 * "losing" = antidraughts, Scan's name) or a damier name (dm_variant_from_name). It
 * resets the position to the variant's start and answers DM_HUB_NEW_GAME. `pos pos=`
 * takes the side letter (W or B) and one of w b W B e per square of the variant's
 * board (33, 51, 65 or 73 characters), moves= the variant's moves (Hub or PDN
 * notation, numeric squares). The search, its limits (the level's: the engine manages
 * the clock, pondering and infinite analysis) and its lines are the same calls for
 * every variant. */

/* The Hub name of variant v, as `hub` announces it and set-param name=variant takes it:
 * Scan's where it has one ("normal", "losing" for antidraughts), damier's for the
 * others ("russian", "frisian", "turkish", ...); static. NULL for NULL. */
DM_API const char *dm_hub_variant_name(const dm_variant *v);

/* The selected variant (international until set-param name=variant); borrowed, static. */
DM_API const dm_variant *dm_hub_session_variant(const dm_hub_session *s);

#ifdef __cplusplus
}
#endif
#endif /* DM_HUB_H */
