/* SPDX-License-Identifier: MIT
 * egdb/probe.c: the database object: opening a folder of slices, lookups, probes
 * with the capture search, and verification of a slice against the rules. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/move10.h"

#include "egdb/egdb_int.h"
#include "util/bits.h"

dm_egdb *eg_db_new(void)
{
    return eg_db_new_geom(eg_geom_of(DM_VARIANT_INTERNATIONAL));
}

dm_egdb *eg_db_new_geom(const eg_geom *g)
{
    dm_egdb *db = calloc(1, sizeof *db);
    if (!db) {
        return NULL;
    }
    eg_binom_init_geom(&db->binom, g);
    memset(db->slot, 0xFF, sizeof db->slot);
    return db;
}

int eg_db_add(dm_egdb *db, const eg_slice *s)
{
    if (db->nslices == db->capslices) {
        int cap = db->capslices ? db->capslices * 2 : 64;
        eg_slice *n = realloc(db->slices, (size_t)cap * sizeof *n);
        if (!n) {
            return -1;
        }
        db->slices = n;
        db->capslices = cap;
    }
    db->slices[db->nslices] = *s;
    db->slot[s->mat.wm][s->mat.wk][s->mat.bm][s->mat.bk] = (int16_t)db->nslices;
    db->nslices++;
    return 0;
}

void eg_db_add_problem(dm_egdb *db, const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    char **n = realloc(db->problems, (size_t)(db->nproblems + 1) * sizeof *n);
    if (!n) {
        return;
    }
    db->problems = n;
    size_t len = strlen(buf) + 1;
    char *c = malloc(len);
    if (!c) {
        return;
    }
    memcpy(c, buf, len);
    db->problems[db->nproblems++] = c;
}

const eg_slice *eg_db_find(const dm_egdb *db, eg_mat m)
{
    if (m.wm < 0 || m.wk < 0 || m.bm < 0 || m.bk < 0 || eg_mat_pieces(m) > DM_EGDB_MAX_PIECES) {
        return NULL;
    }
    int i = db->slot[m.wm][m.wk][m.bm][m.bk];
    return i < 0 ? NULL : &db->slices[i];
}

void eg_db_update_max(dm_egdb *db)
{
    db->max_pieces = 0;
    for (int n = 2; n <= DM_EGDB_MAX_PIECES; n++) {
        for (int w = 1; w < n; w++) {
            int bl = n - w;
            for (int wm = 0; wm <= w; wm++) {
                for (int bm = 0; bm <= bl; bm++) {
                    eg_mat m = {wm, w - wm, bm, bl - bm};
                    if (!eg_db_find(db, m)) {
                        return;
                    }
                }
            }
        }
        db->max_pieces = n;
    }
}

static int name_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int slice_name_ok(const char *n)
{
    if (strlen(n) != 10 || n[0] != 'd' || strcmp(n + 5, ".egdb") != 0) {
        return 0;
    }
    for (int i = 1; i < 5; i++) {
        if (n[i] < '0' || n[i] > '9') {
            return 0;
        }
    }
    return 1;
}

dm_status dm_egdb_open(dm_egdb **out, const char *dir, dm_error *err)
{
    if (!out || !dir) {
        return dm_error_set(err, DM_EINVAL, 0, 0, "egdb: no folder given");
    }
    dm_egdb *db = eg_db_new();
    if (!db) {
        return dm_error_set(err, DM_ENOMEM, 0, 0, "egdb: out of memory");
    }
    DIR *d = opendir(dir);
    if (d) {
        char **names = NULL;
        int n = 0;
        struct dirent *ent;
        while ((ent = readdir(d)) != NULL) {
            if (!slice_name_ok(ent->d_name)) {
                continue;
            }
            char **nn = realloc(names, (size_t)(n + 1) * sizeof *nn);
            if (nn) {
                names = nn;
            }
            char *c = nn ? malloc(strlen(ent->d_name) + 1) : NULL;
            if (!c) {
                for (int i = 0; i < n; i++) {
                    free(names[i]);
                }
                free(names);
                closedir(d);
                dm_egdb_close(db);
                return dm_error_set(err, DM_ENOMEM, 0, 0, "egdb: out of memory");
            }
            strcpy(c, ent->d_name);
            names[n++] = c;
        }
        closedir(d);
        if (n > 0) {
            qsort(names, (size_t)n, sizeof *names, name_cmp);
        }
        for (int i = 0; i < n; i++) {
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", dir, names[i]);
            eg_slice s;
            dm_error e;
            if (eg_load_slice(&s, path, &e) != DM_OK) {
                eg_db_add_problem(db, "%s", e.message);
            } else if (db->nslices > 0 && s.info.variant != (int)db->binom.geom->variant) {
                eg_db_add_problem(db,
                                  "%s: a slice of %s, the folder's other slices are of %s "
                                  "(one variant a folder)",
                                  path, eg_geom_of((dm_variant_id)s.info.variant)->name,
                                  db->binom.geom->name);
                eg_unload_slice(&s);
            } else if (strncmp(s.info.name, names[i], 5) != 0) {
                eg_db_add_problem(db, "%s: holds material %s, not what its name says", path,
                                  s.info.name);
                eg_unload_slice(&s);
            } else if (eg_db_add(db, &s) != 0) {
                eg_unload_slice(&s);
                eg_db_add_problem(db, "%s: out of memory", path);
            } else if (db->nslices == 1) {
                /* the first slice loaded sets the database's variant */
                db->binom.geom = eg_geom_of((dm_variant_id)s.info.variant);
            }
            free(names[i]);
        }
        free(names);
    }
    eg_db_update_max(db);
    *out = db;
    return DM_OK;
}

void dm_egdb_close(dm_egdb *db)
{
    if (!db) {
        return;
    }
    for (int i = 0; i < db->nslices; i++) {
        eg_unload_slice(&db->slices[i]);
    }
    free(db->slices);
    for (int i = 0; i < db->nproblems; i++) {
        free(db->problems[i]);
    }
    free(db->problems);
    free(db);
}

int dm_egdb_problem_count(const dm_egdb *db)
{
    return db ? db->nproblems : 0;
}

const char *dm_egdb_problem(const dm_egdb *db, int i)
{
    return db && i >= 0 && i < db->nproblems ? db->problems[i] : NULL;
}

dm_variant_id dm_egdb_variant(const dm_egdb *db)
{
    return db ? db->binom.geom->variant : DM_VARIANT_INTERNATIONAL;
}

int dm_egdb_max_pieces(const dm_egdb *db)
{
    return db ? db->max_pieces : 0;
}

int dm_egdb_slice_count(const dm_egdb *db)
{
    return db ? db->nslices : 0;
}

dm_status dm_egdb_slice(const dm_egdb *db, int i, dm_egdb_slice_info *out)
{
    if (!db || !out || i < 0 || i >= db->nslices) {
        return DM_EINVAL;
    }
    *out = db->slices[i].info;
    return DM_OK;
}

const char *dm_egdb_value_name(dm_egdb_value v)
{
    switch (v) {
        case DM_EGDB_WIN:
            return "win";
        case DM_EGDB_LOSS:
            return "loss";
        case DM_EGDB_DRAW:
            return "draw";
        default:
            return "unknown";
    }
}

/* The stored value of a board known to have no capture pending. */
static dm_egdb_value lookup_quiet(const dm_egdb *db, const dm_board10 *b, int *dtc)
{
    eg_pos p;
    eg_pos_of_board_g(db->binom.geom, &p, b);
    eg_mat m = eg_mat_of(&p);
    const eg_slice *s = eg_db_find(db, m);
    if (!s) {
        return DM_EGDB_UNKNOWN;
    }
    uint64_t idx = eg_index(&db->binom, &s->shape, &p);
    unsigned v = eg_stream_get(&s->values, idx);
    if (v > EG_LOSS) {
        return DM_EGDB_UNKNOWN;
    }
    if (dtc) {
        *dtc = v == EG_DRAW ? 0 : (int)eg_stream_get(&s->dtc, idx);
    }
    return (dm_egdb_value)v;
}

/* The position b, of the database's variant, on the fast board; 0 when it is of
 * another variant. */
static int fast_of(const dm_egdb *db, dm_board10 *out, const dm_board *b)
{
    const eg_geom *g = db ? db->binom.geom : NULL;
    return g && b && b->variant && b->variant->id == g->variant && g->fast_of(out, b);
}

dm_egdb_value dm_egdb_lookup(const dm_egdb *db, const dm_board *b, int *dtc)
{
    dm_board10 fast;
    if (!fast_of(db, &fast, b)) {
        return DM_EGDB_UNKNOWN;
    }
    return egdb_lookup10(db, &fast, dtc);
}

dm_egdb_value dm_egdb_probe(const dm_egdb *db, const dm_board *b, int *dtc)
{
    dm_board10 fast;
    if (!fast_of(db, &fast, b)) {
        if (dtc) {
            *dtc = 0;
        }
        return DM_EGDB_UNKNOWN;
    }
    return egdb_probe10(db, &fast, dtc);
}

dm_egdb_value egdb_lookup10(const dm_egdb *db, const dm_board10 *b, int *dtc)
{
    if (!db || !b || !b->pieces[0] || !b->pieces[1] ||
        bb_count(b->pieces[0] | b->pieces[1]) > DM_EGDB_MAX_PIECES) {
        return DM_EGDB_UNKNOWN;
    }
    if (db->binom.geom->has_capture(b)) {
        return DM_EGDB_UNKNOWN;
    }
    return lookup_quiet(db, b, dtc);
}

dm_egdb_value egdb_probe10(const dm_egdb *db, const dm_board10 *b, int *dtc)
{
    if (dtc) {
        *dtc = 0;
    }
    if (!db || !b) {
        return DM_EGDB_UNKNOWN;
    }
    if (!b->pieces[b->side]) {
        return DM_EGDB_LOSS;
    }
    if (!b->pieces[b->side ^ 1]) {
        return DM_EGDB_WIN; /* the opponent has lost already */
    }
    if (bb_count(b->pieces[0] | b->pieces[1]) > DM_EGDB_MAX_PIECES) {
        return DM_EGDB_UNKNOWN;
    }
    const eg_geom *g = db->binom.geom;
    if (!g->has_capture(b)) {
        return lookup_quiet(db, b, dtc);
    }
    dm_movelist10 list;
    int n = g->legal(&list, b);
    int best = DM_EGDB_LOSS, unknown = 0;
    for (int i = 0; i < n; i++) {
        dm_board10 c = *b;
        g->apply(&c, &list.moves[i]);
        dm_egdb_value v = egdb_probe10(db, &c, NULL);
        if (v == DM_EGDB_LOSS) {
            if (dtc) {
                *dtc = 1;
            }
            return DM_EGDB_WIN;
        }
        if (v == DM_EGDB_DRAW) {
            best = DM_EGDB_DRAW;
        } else if (v == DM_EGDB_UNKNOWN) {
            unknown = 1;
        }
    }
    if (unknown) {
        return DM_EGDB_UNKNOWN;
    }
    if (dtc) {
        *dtc = best == DM_EGDB_LOSS ? 1 : 0;
    }
    return (dm_egdb_value)best;
}

/* ---- verification --------------------------------------------------------------- */

/* Verification's cache: a slice's two streams decoded into one byte per index, so
 * that the look-ups of a whole pass (the slice's own positions in order, the quiet
 * successors in the unit's other slice at random) are array reads instead of index
 * searches and run decoding. Unused (v == NULL) when the memory is not there: the
 * streams are then read as dm_egdb_probe reads them. */
typedef struct eg_flat {
    const eg_slice *s;
    uint8_t *v, *d;
} eg_flat;

static void flat_init(eg_flat *f, const eg_slice *s)
{
    f->s = s;
    f->v = f->d = NULL;
    if (!s) {
        return;
    }
    size_t n = (size_t)s->shape.size;
    f->v = malloc(n ? n : 1);
    f->d = malloc(n ? n : 1);
    if (!f->v || !f->d || eg_stream_decode(&s->values, f->v, s->shape.size) != 0 ||
        eg_stream_decode(&s->dtc, f->d, s->shape.size) != 0) {
        free(f->v);
        free(f->d);
        f->v = f->d = NULL;
    }
}

static void flat_free(eg_flat *f)
{
    free(f->v);
    free(f->d);
    f->v = f->d = NULL;
}

/* egdb_probe10(db, c, dtc) with a quiet position of the cached slice read from the
 * cache: the same answer, sooner. */
static dm_egdb_value verify_probe(const dm_egdb *db, const eg_flat *f, const dm_board10 *c,
                                  int *dtc)
{
    if (f->v && c->pieces[0] && c->pieces[1] && !db->binom.geom->has_capture(c)) {
        eg_pos p;
        eg_pos_of_board_g(db->binom.geom, &p, c);
        eg_mat m = eg_mat_of(&p);
        if (m.wm == f->s->mat.wm && m.wk == f->s->mat.wk && m.bm == f->s->mat.bm &&
            m.bk == f->s->mat.bk) {
            uint64_t idx = eg_index(&db->binom, &f->s->shape, &p);
            unsigned v = f->v[idx];
            if (v > EG_LOSS) {
                *dtc = 0;
                return DM_EGDB_UNKNOWN;
            }
            *dtc = v == EG_DRAW ? 0 : f->d[idx];
            return (dm_egdb_value)v;
        }
    }
    return egdb_probe10(db, c, dtc);
}

static dm_status verify_pass(const dm_egdb *db, const eg_slice *s, const eg_flat *own,
                             const eg_flat *twin, dm_error *err);

dm_status dm_egdb_verify_slice(const dm_egdb *db, int si, dm_error *err)
{
    if (!db || si < 0 || si >= db->nslices) {
        return dm_error_set(err, DM_EINVAL, 0, 0, "egdb verify: no slice %d", si);
    }
    const eg_slice *s = &db->slices[si];
    const eg_slice *t = eg_db_find(db, eg_mat_flip(s->mat)); /* ordinary moves lead there */
    eg_flat own, twin;
    flat_init(&own, s);
    if (t == s) {
        twin = own;
    } else {
        flat_init(&twin, t);
    }
    dm_status st = verify_pass(db, s, &own, &twin, err);
    if (twin.v != own.v) {
        flat_free(&twin);
    }
    flat_free(&own);
    return st;
}

/* A FEN of the fast board b of geometry g (for error messages). */
static void fast_fen(const eg_geom *g, char *buf, size_t cap, const dm_board10 *b)
{
    if (g->variant == DM_VARIANT_INTERNATIONAL) {
        dm_board10_to_fen(buf, cap, b);
        return;
    }
    dm_board v;
    dm_board_clear(&v, dm_variant_get(g->variant));
    uint64_t w = g->to_compact(b->pieces[DM_WHITE]), bl = g->to_compact(b->pieces[DM_BLACK]);
    uint64_t k = g->to_compact(b->kings);
    for (int sq = 1; sq <= g->nsq; sq++) {
        uint64_t bit = UINT64_C(1) << (sq - 1);
        if (w & bit) {
            dm_board_put(&v, sq, (k & bit) ? DM_WHITE_KING : DM_WHITE_MAN);
        } else if (bl & bit) {
            dm_board_put(&v, sq, (k & bit) ? DM_BLACK_KING : DM_BLACK_MAN);
        }
    }
    v.side = (dm_color)b->side;
    dm_board_to_fen(buf, cap, &v, 0);
}

static dm_status verify_pass(const dm_egdb *db, const eg_slice *s, const eg_flat *own,
                             const eg_flat *twin, dm_error *err)
{
    uint64_t count[4] = {0, 0, 0, 0};
    dm_movelist10 list;
    const eg_geom *g = db->binom.geom;
    static const char *const vname[4] = {"draw", "win", "loss", "don't care"};
    for (uint64_t idx = 0; idx < s->shape.size; idx++) {
        eg_pos p;
        if (!eg_unindex(&db->binom, &s->shape, s->mat, idx, &p)) {
            count[EG_DONTCARE]++;
            continue;
        }
        dm_board10 b;
        eg_board_of_pos_g(g, &b, &p);
        if (g->has_capture(&b)) {
            count[EG_DONTCARE]++;
            continue;
        }
        unsigned v = own->v ? own->v[idx] : eg_stream_get(&s->values, idx);
        int d = v == EG_DRAW ? 0 : own->v ? own->d[idx] : (int)eg_stream_get(&s->dtc, idx);
        count[v]++;
        int n = g->legal(&list, &b);
        int any_loss = 0, any_draw = 0, win_d = 1 << 30, loss_d = 0;
        for (int i = 0; i < n; i++) {
            const dm_move10 *m = &list.moves[i];
            int conv = m->ncapt > 0 || g->is_promotion(&b, m);
            dm_board10 c = b;
            g->apply(&c, m);
            int cd;
            dm_egdb_value cv = verify_probe(db, twin, &c, &cd);
            int contrib = conv ? 1 : cd + 1;
            if (cv == DM_EGDB_UNKNOWN) {
                char fen[200];
                fast_fen(g, fen, sizeof fen, &c);
                return dm_error_set(err, DM_ESTATE, 0, 0,
                                    "%s: successor %s of index %llu is not in the database",
                                    s->info.name, fen, (unsigned long long)idx);
            }
            if (cv == DM_EGDB_LOSS) {
                any_loss = 1;
                win_d = contrib < win_d ? contrib : win_d;
            } else if (cv == DM_EGDB_DRAW) {
                any_draw = 1;
            } else {
                loss_d = contrib > loss_d ? contrib : loss_d;
            }
        }
        unsigned want = any_loss ? EG_WIN : any_draw ? EG_DRAW : EG_LOSS;
        int want_d = want == EG_WIN ? win_d : want == EG_LOSS ? loss_d : 0;
        if (want_d > 255) {
            want_d = 255;
        }
        if (v != want || d != want_d) {
            char fen[200];
            fast_fen(g, fen, sizeof fen, &b);
            return dm_error_set(err, DM_ESTATE, 0, 0,
                                "%s: index %llu (%s) stored %s in %d, the successors give %s "
                                "in %d",
                                s->info.name, (unsigned long long)idx, fen, vname[v], d,
                                vname[want], want_d);
        }
    }
    const dm_egdb_slice_info *in = &s->info;
    if (count[EG_WIN] != in->wins || count[EG_LOSS] != in->losses || count[EG_DRAW] != in->draws ||
        count[EG_DONTCARE] != in->dontcare) {
        return dm_error_set(err, DM_ESTATE, 0, 0,
                            "%s: counts %llu/%llu/%llu/%llu (win/loss/draw/don't care) differ "
                            "from the header",
                            in->name, (unsigned long long)count[EG_WIN],
                            (unsigned long long)count[EG_LOSS], (unsigned long long)count[EG_DRAW],
                            (unsigned long long)count[EG_DONTCARE]);
    }
    return DM_OK;
}
