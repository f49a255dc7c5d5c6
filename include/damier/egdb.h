/* SPDX-License-Identifier: MIT
 * damier/egdb.h: endgame databases of international draughts (10x10, FMJD rules)
 * and of Brazilian, Russian and English draughts on 8x8 (one folder, one variant):
 * generation by retrograde analysis, the slice files (docs/EGDB.md), loading,
 * probing, verification. This header owns the egdb layer (src/egdb/).
 *
 * A database is a folder of slice files, one per material (men and kings of each
 * side, White to move; a position with Black to move is probed as its colour-flipped
 * twin). Each stored position has a value for the side to move under the rules of
 * play WITHOUT the counting rules (FMJD 6: repetition, 25-, 16- and 5-move rules are
 * the caller's business, as in the published databases) and its distance to
 * conversion: the plies until a capture or a promotion that keeps the value (the
 * winner converts as fast as it can, the loser delays as long as it can).
 * Positions where the side to move must capture are stored as "don't care" and
 * resolved at probe time by a capture search over the smaller slices (as Scan and
 * Kingsrow do); dm_egdb_probe does it, dm_egdb_lookup does not.
 *
 * A loaded database (dm_egdb) is an object the caller owns; it is immutable once
 * opened, so any number of threads may probe it at once. The library never prints:
 * files it refused are listed by dm_egdb_problem. */
#ifndef DM_EGDB_H
#define DM_EGDB_H

#include <stddef.h>
#include <stdint.h>

#include <damier/variant.h>
#include <damier/status.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Largest piece count the format and the generator accept (indices stay below 2^63;
 * what fits on disk and in time is another matter: BENCHMARKS.md). */
#define DM_EGDB_MAX_PIECES 6

/* Value of a position for the side to move. */
typedef enum dm_egdb_value {
    DM_EGDB_UNKNOWN = -1, /* not in the database (material not loaded, too many pieces) */
    DM_EGDB_DRAW = 0,
    DM_EGDB_WIN = 1,
    DM_EGDB_LOSS = 2
} dm_egdb_value;

/* A loaded database (opaque; dm_egdb_open, dm_egdb_close). */
typedef struct dm_egdb dm_egdb;

/* One slice as loaded (dm_egdb_slice) or as generated (dm_egdb_gen_options.progress). */
typedef struct dm_egdb_slice_info {
    char name[16];                /* file stem: "d" then White men, White kings, Black men,
                             Black kings, one digit each: "d0301" = 3 kings v 1 king */
    int wm, wk, bm, bk;           /* the material, White to move */
    uint64_t positions;           /* indices in the slice (don't-care positions included) */
    uint64_t wins, losses, draws; /* stored positions by value, side to move's view */
    uint64_t dontcare;            /* capture pending, or not a position (men on one square) */
    int max_dtc;                  /* longest distance to conversion in plies (0..255) */
    uint64_t file_bytes;          /* size of the slice file */
    uint32_t crc;                 /* CRC-32 (ISO-HDLC, as zlib) of the file body */
    int skipped;                  /* generation only: 1 when a valid file was kept as it was */
    double seconds;               /* generation only: wall time of this slice */
    int variant;                  /* dm_variant_id of the file's header: international, Brazilian,
                    Russian or English */
} dm_egdb_slice_info;

/* Open every slice file "d*.egdb" of folder dir. Files that are truncated, corrupt
 * (checksum), of another version or otherwise unreadable are not loaded; each is
 * listed by dm_egdb_problem with the reason, and the database works without them.
 * A missing folder gives an empty database (DM_OK). *out belongs to the caller.
 * Errors: DM_EINVAL (NULL argument), DM_ENOMEM. */
DM_API dm_status dm_egdb_open(dm_egdb **out, const char *dir, dm_error *err);

/* Release a database (NULL is fine); no probe may be running. */
DM_API void dm_egdb_close(dm_egdb *db);

/* The variant of the database's slices (each file's header names it; the first
 * slice loaded sets it, a file of another variant in the folder is refused):
 * DM_VARIANT_INTERNATIONAL, _BRAZILIAN, _RUSSIAN or _ENGLISH; international for an
 * empty database or NULL. Lookups and probes of a position of another variant answer
 * DM_EGDB_UNKNOWN: callers that want to say why compare it with the position's. */
DM_API dm_variant_id dm_egdb_variant(const dm_egdb *db);

/* Number of files refused by dm_egdb_open, and the i-th message ("path: reason"),
 * valid as long as db; NULL when i is out of range. */
DM_API int dm_egdb_problem_count(const dm_egdb *db);
DM_API const char *dm_egdb_problem(const dm_egdb *db, int i);

/* The largest piece count n such that every slice of n pieces or fewer is loaded
 * (0 when none is): positions up to this many pieces always have a value. */
DM_API int dm_egdb_max_pieces(const dm_egdb *db);

/* Slices loaded, and the information of slice i (0 <= i < count; DM_EINVAL else). */
DM_API int dm_egdb_slice_count(const dm_egdb *db);
DM_API dm_status dm_egdb_slice(const dm_egdb *db, int i, dm_egdb_slice_info *out);

/* Value of b (a position of the database's variant, either side to move; read on the
 * fast board inside) from its slice, without capture search: returns DM_EGDB_UNKNOWN
 * when b is of another variant than the database (dm_egdb_variant), when the slice is not loaded, when b has more pieces than
 * any slice, when a side has no piece, or when the side to move must capture (don't
 * care). *dtc (may be NULL) gets the distance to conversion in plies (0 for draws).
 * Thread-safe; allocates nothing. */
DM_API dm_egdb_value dm_egdb_lookup(const dm_egdb *db, const dm_board *b, int *dtc);

/* Value of b with pending captures resolved by a capture search over the smaller
 * slices (every capture takes material off the board, so it ends). A side with no
 * piece has lost. *dtc (may be NULL): distance to conversion in plies; 1 when a
 * capture is pending (the capture converts), 0 for a draw or a side without pieces.
 * DM_EGDB_UNKNOWN when a slice needed is missing or b is not of the database's variant.
 * Thread-safe. */
DM_API dm_egdb_value dm_egdb_probe(const dm_egdb *db, const dm_board *b, int *dtc);

/* "win", "loss", "draw", "unknown". */
DM_API const char *dm_egdb_value_name(dm_egdb_value v);

/* Check slice i against the rules: every stored value and distance must follow from
 * the successors' values (a win has a successor lost for the opponent and the
 * distance is the shortest such plus one, a loss has only won successors, ...;
 * successors in smaller slices through dm_egdb_probe), every don't-care position is
 * a capture or not a position, and the counts match the header. Returns DM_OK, or
 * DM_ESTATE with err naming the first wrong position (its index and FEN) and what is
 * wrong; DM_EINVAL for a bad i. Single-threaded, time linear in the slice. */
DM_API dm_status dm_egdb_verify_slice(const dm_egdb *db, int i, dm_error *err);

/* Generation options. Initialise with DM_EGDB_GEN_OPTIONS_INIT. */
typedef struct dm_egdb_gen_options {
    int version; /* DM_EGDB_GEN_OPTIONS_VERSION */
    int pieces;  /* generate every slice of 2..pieces pieces, 2..DM_EGDB_MAX_PIECES */
    int threads; /* worker threads, 1..64 */
    /* Called from the calling thread after each slice (may be NULL). */
    void (*progress)(const dm_egdb_slice_info *slice, void *payload);
    void *payload;
    /* Version 2: generation shared by `ranks` processes (e.g. MPI ranks, 1..4096) over
     * one folder that all of them see. The units of one level (the same number of
     * pieces and of men: none depends on another of its level, only on earlier levels)
     * are dealt out in order, unit i to the process whose rank (0..ranks-1) is
     * i % ranks; after each level every process calls barrier(payload) (it returns
     * when all have reached it: MPI_Barrier; nonzero aborts with DM_EIO) and then loads
     * the level's other slices from the folder (a missing or invalid one is an error,
     * not recomputed). ranks 1 (the default): everything here, barrier unused. */
    int rank, ranks;
    int (*barrier)(void *payload);
    /* Version 3: the variant (international, the default with versions 1 and 2;
     * Brazilian, Russian, English: 8x8 under their rules, docs/EGDB.md). Generation
     * into a folder holding slices of another variant fails (DM_EINVAL). */
    dm_variant_id variant;
} dm_egdb_gen_options;

#define DM_EGDB_GEN_OPTIONS_VERSION 3
#define DM_EGDB_GEN_OPTIONS_INIT                                                                   \
    {                                                                                              \
        DM_EGDB_GEN_OPTIONS_VERSION, 2, 1, NULL, NULL, 0, 1, NULL, DM_VARIANT_INTERNATIONAL        \
    }

/* Generate the database into folder dir (created if missing, parents must exist):
 * slices by piece count, then by number of men (a capture leads to fewer pieces, a
 * promotion to fewer men, so every successor outside a slice is solved first).
 * Resumable: a slice whose file is present and valid is loaded, not recomputed; a
 * new slice is written to a temporary file, fsynced and renamed into place, so a
 * stopped run leaves only complete files. Errors: DM_EINVAL (options), DM_EIO (with
 * the path and the system's reason), DM_ENOMEM. */
DM_API dm_status dm_egdb_generate(const char *dir, const dm_egdb_gen_options *opts, dm_error *err);

#ifdef __cplusplus
}
#endif
#endif /* DM_EGDB_H */
