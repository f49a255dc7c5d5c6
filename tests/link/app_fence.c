/* SPDX-License-Identifier: MIT
 * tests/link/app_fence.c: compiled with the include path of the damier program
 * (apps/cli), it must NOT compile: the fast 10x10 board (src/core/board10.h) is the
 * library's internal view, and an app reaches positions through damier/variant.h only
 * (issue 9). The test `app_fence` builds it and expects the compiler to say that the
 * header is not found; with the public header (APP_FENCE_ALLOWED) it must compile, so
 * that the failure is the fence and nothing else. */
#ifdef APP_FENCE_ALLOWED
#include <damier/variant.h>
#else
#include "core/board10.h"
#endif

int app_fence_unused(void);
int app_fence_unused(void)
{
    return 0;
}
