/* SPDX-License-Identifier: MIT
 * apps/serve/srv_engine_game.c: a game between two engine levels, played to its end
 * at once by the server (a tournament's engine-against-engine pairing, where no
 * person waits for a move), then stored as a review game so that it can be replayed
 * and is in the event's PDN. Each level searches by a fixed budget, so that a game
 * takes seconds and the same pairing always gives the same game: levels 1-5 the
 * depths of `damier play` (1, 2, 3, 4, 6 plies), levels 6-10 50 000, 100 000, 200 000,
 * 400 000 and 800 000 nodes a move (the play levels 6-10 are times per move). The
 * variant's draw rules end every game. */
#define _POSIX_C_SOURCE 200809L
#include "serve.h"
#include "srv_community_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <damier/engine.h>
#include <damier/game.h>
#include <damier/pdn.h>
#include <damier/variant.h>

#define ENGINE_GAME_MAX_PLIES 1500 /* beyond any game the draw rules allow: a fault */

static void limits_of(int level, int max_depth, dm_limits *lim)
{
    static const int depth[5] = {1, 2, 3, 4, 6};
    memset(lim, 0, sizeof *lim);
    if (level <= 5) {
        lim->depth = depth[level < 1 ? 0 : level - 1];
    } else {
        lim->nodes = 50000ull << (level > 10 ? 4 : level - 6);
    }
    if (max_depth > 0 && (lim->nodes || lim->depth > max_depth)) {
        lim->depth = max_depth;
        lim->nodes = 0;
    }
}

int srv_engine_game(srv *s, const char *variant, int level_white, int level_black, int max_depth,
                    const char *white, const char *black, const char *event, const char *round,
                    char *id, size_t idcap, char *key, size_t keycap, char *result, size_t rescap,
                    char *err, size_t errcap)
{
    const dm_variant *v = NULL;
    dm_error e;
    memset(&e, 0, sizeof e);
    if (dm_variant_from_name(&v, variant && *variant ? variant : "international", &e) != DM_OK) {
        snprintf(err, errcap, "%s", e.message);
        return -1;
    }
    dm_board start;
    dm_board_start(&start, v);
    dm_game *g = NULL;
    dm_engine *eng = NULL;
    dm_engine_options eo = DM_ENGINE_OPTIONS_INIT;
    eo.tt_mib = 16;
    if (dm_game_new(&g, &start) != DM_OK || dm_engine_create(&eng, &eo) != DM_OK) {
        dm_game_free(g);
        snprintf(err, errcap, "out of memory");
        return -1;
    }
    uint64_t *hist = malloc(sizeof *hist * (DM_ENGINE_MAX_HISTORY + 1));
    int rc = hist ? 0 : -1;
    snprintf(err, errcap, "%s", hist ? "" : "out of memory");
    while (rc == 0 && dm_game_result(g, NULL) == DM_OUTCOME_ONGOING) {
        if (dm_game_ply(g) >= ENGINE_GAME_MAX_PLIES) {
            snprintf(err, errcap, "the engines' game did not end in %d plies",
                     ENGINE_GAME_MAX_PLIES);
            rc = -1;
            break;
        }
        if (srv_stopping(s)) {
            snprintf(err, errcap, "the server is stopping");
            rc = -1;
            break;
        }
        dm_search_input in;
        dm_search_input_from_game(&in, hist, DM_ENGINE_MAX_HISTORY + 1, g);
        dm_limits lim;
        limits_of(dm_game_position(g)->side == 0 ? level_white : level_black, max_depth, &lim);
        dm_result res;
        memset(&res, 0, sizeof res);
        memset(&e, 0, sizeof e);
        if (dm_engine_search(&res, eng, &in, &lim, NULL, NULL, &e) != DM_OK || !res.has_move ||
            dm_game_play(g, &res.best) != DM_OK) {
            snprintf(err, errcap, "the engine's move: %s", e.message[0] ? e.message : "none");
            rc = -1;
        }
    }
    free(hist);
    dm_engine_free(eng);
    if (rc != 0) {
        dm_game_free(g);
        return -1;
    }
    snprintf(result, rescap, "%s", dm_outcome_str(dm_game_result(g, NULL)));
    dm_pdn_game_tags tags = DM_PDN_GAME_TAGS_INIT;
    tags.event = event;
    tags.round = round;
    tags.white = white;
    tags.black = black;
    char *text = NULL;
    size_t len = 0;
    dm_status st = dm_pdn_write_game(&text, &len, g, &tags, DM_NOTATION_PDN);
    dm_game_free(g);
    if (st != DM_OK) {
        snprintf(err, errcap, "the game's record could not be written");
        return -1;
    }
    srv_reply r = {0, NULL};
    srv_op_upload(s, text, len, &r); /* a review game, as an upload makes */
    free(text);
    const char *link =
        r.status == 200 ? srv_json_str(json_array_get(json_object_get(r.body, "games"), 0), "link")
                        : NULL;
    const char *k = link ? strrchr(link, '/') : NULL;
    const char *gid = link ? strstr(link, "#/game/") : NULL;
    if (!k || !gid || k <= gid + 7 || (size_t)(k - (gid + 7)) >= idcap) {
        snprintf(err, errcap, "the game was not stored");
        json_decref(r.body);
        return -1;
    }
    snprintf(id, idcap, "%.*s", (int)(k - (gid + 7)), gid + 7);
    snprintf(key, keycap, "%s", k + 1);
    json_decref(r.body);
    return 0;
}
