/* SPDX-License-Identifier: MIT
 * tests/fuzz/fuzz_timecontrol.c: time-control strings (the PDN TimeControl tag and
 * its extensions, damier/clock.h). Properties: a refusal carries a reason; an
 * accepted control validates, and format then parse gives it back as the same text. */
#include <damier/clock.h>

#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_cstr(data, size);
    if (!text) {
        return 0;
    }
    dm_time_control tc, back;
    dm_error err;
    if (dm_time_control_parse(&tc, text, &err) != DM_OK) {
        if (!err.message[0]) {
            fuzz_fail("time control refused without a reason");
        }
        free(text);
        return 0;
    }
    if (dm_time_control_validate(&tc, &err) != DM_OK) {
        fuzz_fail("'%s' was accepted but does not validate: %s", text, err.message);
    }
    char out[256], again[256];
    dm_time_control_format(out, sizeof out, &tc);
    if (dm_time_control_parse(&back, out, &err) != DM_OK) {
        fuzz_fail("'%s' written as '%s', which does not read back: %s", text, out, err.message);
    }
    dm_time_control_format(again, sizeof again, &back);
    if (strcmp(out, again) != 0) {
        fuzz_fail("format is not a fixed point: '%s' then '%s'", out, again);
    }
    free(text);
    return 0;
}
