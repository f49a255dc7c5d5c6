/* SPDX-License-Identifier: MIT
 * src/util/filesave.c: see filesave.h. */
#include "filesave.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

dm_status dm_file_save_atomic(const char *path, const void *buf, size_t n, dm_error *err)
{
    char tmp[4096];
    if ((size_t)snprintf(tmp, sizeof tmp, "%s.tmp", path) >= sizeof tmp) {
        return dm_error_set(err, DM_EINVAL, 0, 0, "path too long");
    }
    FILE *f = fopen(tmp, "wb");
    if (!f) {
        return dm_error_set(err, DM_EIO, 0, 0, "%s: %s", tmp, strerror(errno));
    }
    int bad = fwrite(buf, 1, n, f) != n;
    bad |= fclose(f) != 0;
    if (bad || rename(tmp, path) != 0) {
        remove(tmp);
        return dm_error_set(err, DM_EIO, 0, 0, "%s: write failed", path);
    }
    return DM_OK;
}
