/* SPDX-License-Identifier: MIT
 * src/util/filesave.h: writing a whole file atomically (a temporary file beside it,
 * then rename), for the library's binary formats (evaluation weights, opening book).
 * Internal: layers that use it name it in their SEES list (src/CMakeLists.txt). */
#ifndef DM_UTIL_FILESAVE_H
#define DM_UTIL_FILESAVE_H

#include <stddef.h>

#include "damier/status.h"

/* Writes the n bytes of buf to path through path.tmp and a rename, so that path holds
 * either its old content or all of buf, never a part. Errors: DM_EINVAL (path too
 * long), DM_EIO (the temporary file cannot be made, written or renamed; it is then
 * removed), each with the path in err's message. */
dm_status dm_file_save_atomic(const char *path, const void *buf, size_t n, dm_error *err);

#endif
