/* SPDX-License-Identifier: MIT
 * Status names and error filling (damier/status.h). */
#include <damier/status.h>

#include <stdarg.h>
#include <stdio.h>

const char *dm_status_str(dm_status status)
{
    switch (status) {
        case DM_OK:
            return "ok";
        case DM_EINVAL:
            return "invalid argument";
        case DM_EPARSE:
            return "parse error";
        case DM_EILLEGAL:
            return "illegal move";
        case DM_ENOMEM:
            return "out of memory";
        case DM_EBUFS:
            return "buffer too small";
        case DM_EIO:
            return "input/output error";
        case DM_ESTATE:
            return "invalid state";
        case DM_EAMBIGUOUS:
            return "ambiguous move";
    }
    return "unknown status";
}

dm_status dm_error_set(dm_error *err, dm_status status, int line, int column, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->message, sizeof err->message, fmt, ap);
        va_end(ap);
        err->line = line;
        err->column = column;
    }
    return status;
}
