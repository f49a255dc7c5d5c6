/* SPDX-License-Identifier: MIT
 * apps/cli/cmd_serve_stub.c: `damier serve` in a build without the web packages
 * (apps/serve/CMakeLists.txt): it says what to install. */
#include <stdio.h>

#include "commands.h"

#ifndef DM_HAVE_SERVE
int cmd_serve(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(
        stderr,
        "damier serve: this damier was built without the web board: install "
        "libcivetweb-dev, libjansson-dev, libsqlite3-dev and libsodium-dev (scripts/install-deps), "
        "then build again\n");
    return 2;
}
#else
typedef int cmd_serve_stub_unused;
#endif
