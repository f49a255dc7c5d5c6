/* SPDX-License-Identifier: MIT
 * The library version (damier/version.h). */
#include <damier/version.h>

#include <stddef.h>

const char *dm_version(int *major, int *minor, int *patch)
{
    if (major != NULL) {
        *major = DM_VERSION_MAJOR;
    }
    if (minor != NULL) {
        *minor = DM_VERSION_MINOR;
    }
    if (patch != NULL) {
        *patch = DM_VERSION_PATCH;
    }
    return DM_VERSION;
}
