/* SPDX-License-Identifier: MIT
 * tests/fuzz/fuzz_jpdn.c: game records of the jumping games (damier/jump.h,
 * dm_jrecord_*). The input is record text. Properties: the reader never crashes,
 * gives every game or an error with a message and a line, and always ends; a record
 * read, written and read again is written the same (a fixed point); a record whose
 * rules and actions replay is rebuilt normalised, and that text reads and replays to
 * the same actions and the same final position, and is itself a fixed point. */
#include <damier/jump.h>

#include "fuzz.h"

static void same_text(const dm_jrecord *rec, char **first, size_t *flen)
{
    if (dm_jrecord_write(first, flen, rec) != DM_OK) {
        fuzz_fail("write failed");
    }
    dm_jrecord_reader rd;
    dm_jrecord_reader_init(&rd, *first, *flen);
    dm_jrecord *back = NULL;
    dm_error err;
    if (dm_jrecord_next(&back, &rd, &err) != DM_OK || !back) {
        fuzz_fail("written record does not read back: %s\n%s", err.message, *first);
    }
    char *again;
    size_t alen;
    if (dm_jrecord_write(&again, &alen, back) != DM_OK) {
        fuzz_fail("write failed");
    }
    if (alen != *flen || memcmp(again, *first, alen)) {
        fuzz_fail("record writing is not a fixed point:\n%s\n---\n%s", *first, again);
    }
    dm_jrecord *none = NULL;
    if (dm_jrecord_next(&none, &rd, &err) != DM_OK || none) {
        fuzz_fail("one written record reads as more than one game:\n%s", *first);
    }
    free(again);
    dm_jrecord_free(back);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static dm_jrules r, r2;
    dm_jrecord_reader rd;
    dm_jrecord_reader_init(&rd, (const char *)data, size);
    (void)dm_jrecord_sniff((const char *)data, size);
    for (int guard = 0;; guard++) {
        if (guard > (int)size + 2) {
            fuzz_fail("the reader does not end");
        }
        dm_jrecord *rec = NULL;
        dm_error err;
        dm_status st = dm_jrecord_next(&rec, &rd, &err);
        if (st == DM_EPARSE) {
            if (!err.message[0] || err.line < 1) {
                fuzz_fail("game refused without a reason or a line");
            }
            continue;
        }
        if (st != DM_OK) {
            fuzz_fail("reader: %s", err.message);
        }
        if (!rec) {
            break;
        }
        char *text;
        size_t len;
        same_text(rec, &text, &len);
        free(text);
        if (dm_jrecord_rules(&r, rec, &err) == DM_OK) {
            dm_jreplay rep;
            if (dm_jreplay_record(&rep, &r, rec) == DM_ENOMEM) {
                fuzz_fail("out of memory");
            }
            if (rep.status != DM_OK && !rep.err.message[0]) {
                fuzz_fail("replay refused without a reason");
            }
            if (rep.status == DM_OK) {
                dm_jrecord *norm;
                if (dm_jrecord_build(&norm, &r, &rep.start, rep.actions, rep.nactions, rec->tags,
                                     rec->ntags, rec->result) != DM_OK) {
                    fuzz_fail("build failed");
                }
                same_text(norm, &text, &len);
                dm_jrecord_reader rd2;
                dm_jrecord_reader_init(&rd2, text, len);
                dm_jrecord *back = NULL;
                dm_jreplay rep2;
                if (dm_jrecord_next(&back, &rd2, &err) != DM_OK || !back ||
                    dm_jrecord_rules(&r2, back, &err) != DM_OK ||
                    dm_jreplay_record(&rep2, &r2, back) != DM_OK) {
                    fuzz_fail("normalised record does not replay: %s\n%s",
                              back ? rep2.err.message : err.message, text);
                }
                if (rep2.nactions != rep.nactions ||
                    memcmp(rep2.end.pieces, rep.end.pieces, sizeof rep.end.pieces) ||
                    rep2.end.to_move != rep.end.to_move) {
                    fuzz_fail("normalised record replays to another game:\n%s", text);
                }
                dm_jreplay_free(&rep2);
                dm_jrecord_free(back);
                dm_jrecord_free(norm);
                free(text);
            }
            dm_jreplay_free(&rep);
        }
        dm_jrecord_free(rec);
    }
    return 0;
}
