/* SPDX-License-Identifier: MIT
 * damier/status.h: status codes and error details shared by every module. */
#ifndef DM_STATUS_H
#define DM_STATUS_H

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define DM_API __attribute__((visibility("default")))
#else
#define DM_API
#endif

/* Result of every fallible public function. 0 is success, errors are negative.
 * Values are appended, never renumbered. */
typedef enum dm_status {
    DM_OK = 0,
    DM_EINVAL = -1,    /* an argument is out of range or NULL */
    DM_EPARSE = -2,    /* text could not be read (FEN, PDN, move, protocol line) */
    DM_EILLEGAL = -3,  /* a move is not legal in the position */
    DM_ENOMEM = -4,    /* an allocation failed */
    DM_EBUFS = -5,     /* a caller buffer is too small */
    DM_EIO = -6,       /* reading or writing a file failed */
    DM_ESTATE = -7,    /* the object is not in a state that allows the call */
    DM_EAMBIGUOUS = -8 /* a move text matches several legal moves */
} dm_status;

/* Details of an error: a message and, for text input, where it was found.
 * line and column are 1-based; 0 means "not applicable". Callers may pass NULL
 * wherever a dm_error * is accepted. */
typedef struct dm_error {
    char message[256]; /* NUL-terminated, human-readable, no trailing newline */
    int line;          /* 1-based line of the offending input, or 0 */
    int column;        /* 1-based column (character offset in a single-line input), or 0 */
} dm_error;

/* A short English name for a status ("ok", "parse error", ...); never NULL. */
DM_API const char *dm_status_str(dm_status status);

/* Fill err (if not NULL) with a printf-style message and a position; returns status.
 * Convenience for the library and for front ends that report through dm_error. */
DM_API dm_status dm_error_set(dm_error *err, dm_status status, int line, int column,
                              const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

#ifdef __cplusplus
}
#endif
#endif /* DM_STATUS_H */
