/* SPDX-License-Identifier: MIT
 * tests/hub_test.h: what the Hub session tests (tests/unit/test_hub.c,
 * test_hub_variants.c) share: a session with a fixed identity and default engine
 * options, and feeding it one line with the reply kept in `reply`. Include after
 * cmocka.h. */
#ifndef DM_TESTS_HUB_TEST_H
#define DM_TESTS_HUB_TEST_H

#include <damier/engine.h>
#include <damier/hub.h>

/* The reply to the last feed(). */
static char reply[16384];

/* Feed one line; the session must accept it (DM_OK); returns its action. */
static inline dm_hub_action feed(dm_hub_session *s, const char *line)
{
    dm_hub_action act;
    assert_int_equal(dm_hub_session_feed(s, line, &act, reply, sizeof reply), DM_OK);
    return act;
}

/* A session "damier" 0.1 by "test author" (NL), default engine options. */
static inline dm_hub_session *new_session(void)
{
    dm_hub_identity id = {"damier", "0.1", "test author", "NL"};
    dm_engine_options eo = DM_ENGINE_OPTIONS_INIT;
    dm_hub_session *s = NULL;
    assert_int_equal(dm_hub_session_create(&s, &id, &eo), DM_OK);
    return s;
}

#endif
