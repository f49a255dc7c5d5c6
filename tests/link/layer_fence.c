/* SPDX-License-Identifier: MIT
 * tests/link/layer_fence.c: compiled with the include path of the core layer
 * (src/CMakeLists.txt, dm_layer), it must NOT compile: the core may not see the
 * engine's internals. The test `layer_fence` builds it and expects the compiler to
 * say that the engine header is not found; the same file with the permitted header
 * (LAYER_FENCE_ALLOWED) must compile, so that the failure is the fence and nothing else. */
#ifdef LAYER_FENCE_ALLOWED
#include "core/layout.h"
#else
#include "engine/tt.h"
#endif

int layer_fence_unused(void);
int layer_fence_unused(void)
{
    return 0;
}
