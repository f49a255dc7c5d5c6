/* SPDX-License-Identifier: MIT
 * damier/version.h: the library's version, at compile time (macros) and at run time
 * (dm_version, for a program linked against a libdamier.so it was not built with).
 * The build reads DM_VERSION_* from this file: it is the one place the number lives. */
#ifndef DM_VERSION_H
#define DM_VERSION_H

#include <damier/status.h>

#ifdef __cplusplus
extern "C" {
#endif

#define DM_VERSION_MAJOR 0
#define DM_VERSION_MINOR 2
#define DM_VERSION_PATCH 0
#define DM_VERSION "0.2.0"

/* The version of the library actually linked, as "MAJOR.MINOR.PATCH" (static text,
 * never NULL). When major, minor or patch is not NULL, the numbers are stored there. */
DM_API const char *dm_version(int *major, int *minor, int *patch);

#ifdef __cplusplus
}
#endif
#endif /* DM_VERSION_H */
