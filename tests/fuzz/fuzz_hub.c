/* SPDX-License-Identifier: MIT
 * tests/fuzz/fuzz_hub.c: Hub lines through the session (damier/hub.h), one line per
 * input line. A requested search is run for real with a tiny limit (depth 2), whatever
 * the variant, and its `done` line must name a legal move of the root. Properties: the session never crashes and never fails a feed but for a
 * reply that does not fit. */
#include <damier/engine.h>
#include <damier/hub.h>

#include "fuzz.h"

/* The engine, made once (creating one clears its table): harness state only. */
static dm_engine *engine;

static void run_search(dm_hub_session *s, char *out, size_t cap)
{
    dm_search_input in;
    dm_limits lim;
    dm_hub_session_search(s, &in, &lim);
    memset(&lim, 0, sizeof lim);
    lim.depth = 2;
    dm_result r;
    dm_error err;
    if (dm_engine_search(&r, engine, &in, &lim, NULL, NULL, &err) != DM_OK) {
        fuzz_fail("the search of a position the session accepted failed: %s", err.message);
    }
    dm_hub_session_done(s, &r, out, cap);
    if (strncmp(out, "done", 4) != 0) {
        fuzz_fail("a search ended without a done line: '%s'", out);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!engine) {
        dm_engine_options eo = DM_ENGINE_OPTIONS_INIT;
        eo.tt_mib = 1;
        if (dm_engine_create(&engine, &eo) != DM_OK) {
            fuzz_fail("cannot create the engine");
        }
    }
    char *text = fuzz_cstr(data, size);
    if (!text) {
        return 0;
    }
    dm_hub_identity id = {"damier", "fuzz", "fuzz", "NL"};
    dm_engine_options eo = DM_ENGINE_OPTIONS_INIT;
    dm_hub_session *s = NULL;
    if (dm_hub_session_create(&s, &id, &eo) != DM_OK) {
        free(text);
        return 0;
    }
    static char reply[16384];
    int lines = 0;
    for (char *line = text; line && lines < 200; lines++) {
        char *nl = strchr(line, '\n');
        if (nl) {
            *nl = 0;
        }
        dm_hub_action act;
        dm_status st = dm_hub_session_feed(s, line, &act, reply, sizeof reply);
        if (st != DM_OK && st != DM_EBUFS && st != DM_ENOMEM) {
            fuzz_fail("feed failed with %d on '%s'", (int)st, line);
        }
        if (act == DM_HUB_QUIT) {
            break;
        }
        if (act == DM_HUB_SEARCH) {
            run_search(s, reply, sizeof reply);
        }
        line = nl ? nl + 1 : NULL;
    }
    dm_hub_session_free(s);
    free(text);
    return 0;
}
