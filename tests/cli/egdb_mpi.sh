#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/egdb_mpi.sh (label fast): `mpirun -np 2 damier-egdb-mpi` (apps/egdb_mpi,
# built when Open MPI is found) writes the same 2-3 piece database as `damier egdb
# gen`, file for file and byte for byte, each rank its share of every level; a second
# run keeps every slice (resumable); the files verify; bad arguments exit 2. Skipped
# (exit 77) when the program was not built or mpirun is missing: scripts/install-deps
# installs Open MPI, so CI runs it.
# Usage: bash egdb_mpi.sh <damier binary> [<shared dir>]
set -u
DAMIER=${1:?usage: egdb_mpi.sh <damier binary> [<shared dir>]}
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
MPI=$(dirname "$DAMIER")/damier-egdb-mpi
if [ ! -x "$MPI" ] || ! command -v mpirun >/dev/null 2>&1; then
    echo "SKIP: damier-egdb-mpi not built or mpirun missing (apt-get install libopenmpi-dev openmpi-bin)"
    exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Open MPI as root needs the flags; its own start-up allocations are not ours to
# check under LeakSanitizer
run_mpi() {
    ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 OMPI_MCA_rmaps_base_oversubscribe=1 \
        mpirun --allow-run-as-root --oversubscribe -np "$@"
}

"$DAMIER" egdb gen --pieces 3 --dir "$tmp/one" >"$tmp/gen1" 2>&1 || fail "egdb gen: $(cat "$tmp/gen1")"
rc=0
run_mpi 2 "$MPI" --pieces 3 --dir "$tmp/two" >"$tmp/gen2" 2>"$tmp/err2" || rc=$?
[ "$rc" -eq 0 ] && ok || fail "mpirun -np 2: exit $rc: $(cat "$tmp/err2")"
matches "the end" "$tmp/gen2" '^generated up to 3 pieces in .* by 2 processes'
# both ranks did a share
[ "$(grep -c '^rank 0 slice' "$tmp/gen2")" -gt 0 ] && [ "$(grep -c '^rank 1 slice' "$tmp/gen2")" -gt 0 ] &&
    ok || fail "a rank did nothing: $(cat "$tmp/gen2")"
# every slice once, by one rank
n1=$(ls "$tmp/one" | wc -l)
[ "$n1" -eq 16 ] && [ "$(ls "$tmp/two" | wc -l)" -eq "$n1" ] && ok ||
    fail "slice files: $n1 by one process, $(ls "$tmp/two" | wc -l) by two"
[ "$(grep -c '^rank [01] slice' "$tmp/gen2")" -eq "$n1" ] && ok || fail "slices reported: $(grep -c '^rank' "$tmp/gen2") of $n1"
same=0
for f in "$tmp"/one/*.egdb; do
    cmp -s "$f" "$tmp/two/$(basename "$f")" && same=$((same + 1)) || fail "$(basename "$f") differs"
done
[ "$same" -eq "$n1" ] && ok || fail "$same of $n1 files identical"
# resumed: every slice kept
run_mpi 2 "$MPI" --pieces 3 --dir "$tmp/two" >"$tmp/gen3" 2>&1 || fail "second run: $(cat "$tmp/gen3")"
[ "$(grep -c ' kept$' "$tmp/gen3")" -eq "$n1" ] && ok || fail "the second run recomputed: $(cat "$tmp/gen3")"
"$DAMIER" egdb verify --pieces 3 --dir "$tmp/two" >"$tmp/ver" 2>&1 && ok || fail "verify: $(cat "$tmp/ver")"
matches "verify" "$tmp/ver" '^verified [0-9]+ slices, 0 failed'
# bad arguments: exit 2 before MPI starts
for bad in "--pieces 1 --dir $tmp/x" "--pieces 3" "--pieces 3 --dir $tmp/x --threads 0" "--what"; do
    rc=0
    # shellcheck disable=SC2086
    "$MPI" $bad >"$tmp/out" 2>"$tmp/err" || rc=$?
    [ "$rc" -eq 2 ] && [ -s "$tmp/err" ] && ok || fail "'$bad': exit $rc, stderr '$(cat "$tmp/err")'"
done
finish
