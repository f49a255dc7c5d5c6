/* SPDX-License-Identifier: MIT
 * srv_lessons.c: the course progress of a signed-in account (issue 19):
 * GET /api/account/lessons and POST /api/account/lessons {"done": [ID]} (with the
 * session's CSRF token), kept in the table lessons_done of the server's store; the
 * page merges the browser's list into the account's on sign-in (docs/WEB.md). */
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>
#include "srv_community_int.h"

#define LESSON_ID_MAX 64     /* bytes of a lesson id */
#define LESSONS_PER_POST 256 /* ids in one POST */
#define LESSONS_PER_ACCOUNT 2000

/* A lesson id: 1..64 of a-z, 0-9, '-', '_' (the "id" of web/lessons/ files). */
static int valid_lesson_id(const char *id)
{
    size_t n = id ? strlen(id) : 0;
    if (n == 0 || n > LESSON_ID_MAX) {
        return 0;
    }
    for (size_t i = 0; i < n; i++) {
        char c = id[i];
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_')) {
            return 0;
        }
    }
    return 1;
}

/* {"done": [ID, ...]} of account, sorted; the database locked by the caller. */
static json_t *done_json(sqlite3 *db, int64_t account)
{
    json_t *a = json_array();
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(db, "SELECT lesson FROM lessons_done WHERE account_id=? ORDER BY lesson",
                           -1, &st, NULL) == SQLITE_OK) {
        sqlite3_bind_int64(st, 1, account);
        while (sqlite3_step(st) == SQLITE_ROW) {
            json_array_append_new(a, json_string((const char *)sqlite3_column_text(st, 0)));
        }
    }
    sqlite3_finalize(st);
    return json_pack("{s:o}", "done", a);
}

/* The ids of req's "done" checked and added; 0, or -1 with r set (400). */
static int add_done(sqlite3 *db, int64_t account, const json_t *req, srv_reply *r)
{
    const json_t *done = json_object_get(req, "done");
    if (!json_is_array(done) || json_array_size(done) > LESSONS_PER_POST) {
        srv_reply_error(r, 400, "\"done\" must be an array of at most %d lesson ids",
                        LESSONS_PER_POST);
        return -1;
    }
    size_t i;
    const json_t *v;
    json_array_foreach(done, i, v)
    {
        if (!valid_lesson_id(json_string_value(v))) {
            srv_reply_error(r, 400, "\"done\"[%zu] is not a lesson id (1 to %d of a-z 0-9 - _)", i,
                            LESSON_ID_MAX);
            return -1;
        }
    }
    sqlite3_stmt *st = NULL;
    int64_t have = 0;
    if (sqlite3_prepare_v2(db, "SELECT count(*) FROM lessons_done WHERE account_id=?", -1, &st,
                           NULL) == SQLITE_OK) {
        sqlite3_bind_int64(st, 1, account);
        if (sqlite3_step(st) == SQLITE_ROW) {
            have = sqlite3_column_int64(st, 0);
        }
    }
    sqlite3_finalize(st);
    if (have + (int64_t)json_array_size(done) > LESSONS_PER_ACCOUNT) {
        srv_reply_error(r, 400, "too many lessons (at most %d an account)", LESSONS_PER_ACCOUNT);
        return -1;
    }
    st = NULL;
    if (sqlite3_prepare_v2(db, "INSERT OR IGNORE INTO lessons_done VALUES(?,?,?)", -1, &st, NULL) !=
        SQLITE_OK) {
        srv_reply_error(r, 500, "database: %s", sqlite3_errmsg(db));
        return -1;
    }
    sqlite3_exec(db, "BEGIN", NULL, NULL, NULL);
    json_array_foreach(done, i, v)
    {
        sqlite3_bind_int64(st, 1, account);
        sqlite3_bind_text(st, 2, json_string_value(v), -1, SQLITE_TRANSIENT);
        sqlite3_bind_int64(st, 3, srv_wall_ms() / 1000);
        sqlite3_step(st);
        sqlite3_reset(st);
    }
    sqlite3_finalize(st);
    if (sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
        sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
        srv_reply_error(r, 500, "database: %s", sqlite3_errmsg(db));
        return -1;
    }
    return 0;
}

void srv_lessons_route(srv *s, const srv_request *q, const srv_account *a, srv_reply *r)
{
    int get = !strcmp(q->method, "GET"), post = !strcmp(q->method, "POST");
    if (!get && !post) {
        srv_reply_error(r, 405, "use GET or POST");
        return;
    }
    if (!a->id) {
        srv_reply_error(r, 401, "sign in first (no session, or it has expired)");
        return;
    }
    json_t *req = NULL;
    if (post && (!srv_need_account(a, r) || !(req = srv_read_json(q, r)))) {
        return;
    }
    sqlite3 *db = srv_db_sqlite(s->db);
    srv_db_lock(s->db);
    if (!req || add_done(db, a->id, req, r) == 0) {
        r->status = 200;
        r->body = done_json(db, a->id);
    }
    srv_db_unlock(s->db);
    json_decref(req);
}
