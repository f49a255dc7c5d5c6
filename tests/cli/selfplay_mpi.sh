#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/selfplay_mpi.sh (label fast): self-play in shards. `damier selfplay --gen
# --rank R --ranks N` plays only its share of the chunks, and `mpirun -np 2
# damier-selfplay-mpi` (apps/selfplay_mpi, built when Open MPI is found) writes the
# same chunk files as one `damier selfplay --gen`, byte for byte, each rank its share;
# a second run skips every chunk (resumable); bad arguments exit 2. The MPI part is
# skipped (exit 77 at the end) when the program was not built or mpirun is missing:
# scripts/install-deps installs Open MPI, so CI runs it.
# Usage: bash selfplay_mpi.sh <damier binary> [<shared dir>]
set -u
DAMIER=${1:?usage: selfplay_mpi.sh <damier binary> [<shared dir>]}
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
MPI=$(dirname "$DAMIER")/damier-selfplay-mpi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
GEN=(--chunks 5 --first-chunk 10 --chunk-games 2 --nodes 300 --seed 7)

"$DAMIER" selfplay --gen "$tmp/one" "${GEN[@]}" >"$tmp/gen1" 2>&1 || fail "selfplay: $(cat "$tmp/gen1")"
n1=$(ls "$tmp/one" | wc -l)
[ "$n1" -eq 5 ] && ok || fail "one process wrote $n1 chunks: $(ls "$tmp/one")"

# --rank 1 --ranks 2: chunks 11 and 13 only (k - first odd), the same bytes
"$DAMIER" selfplay --gen "$tmp/r1" "${GEN[@]}" --rank 1 --ranks 2 >"$tmp/r1.out" 2>&1 ||
    fail "selfplay --rank 1: $(cat "$tmp/r1.out")"
[ "$(ls "$tmp/r1" | tr '\n' ' ')" = "chunk-00011.dmsp chunk-00013.dmsp " ] && ok ||
    fail "rank 1 of 2 wrote: $(ls "$tmp/r1")"
matches "rank line" "$tmp/r1.out" '^selfplay: rank 1 of 2: 4 games, [0-9]+ samples'
for f in "$tmp"/r1/*; do
    cmp -s "$f" "$tmp/one/$(basename "$f")" && ok || fail "$(basename "$f") differs from one process's"
done
for bad in "--rank 2 --ranks 2" "--rank -1" "--ranks 0"; do
    rc=0
    # shellcheck disable=SC2086
    "$DAMIER" selfplay --gen "$tmp/bad" "${GEN[@]}" $bad >"$tmp/out" 2>"$tmp/err" || rc=$?
    [ "$rc" -eq 2 ] && [ -s "$tmp/err" ] && ok || fail "'$bad': exit $rc, stderr '$(cat "$tmp/err")'"
done

if [ ! -x "$MPI" ] || ! command -v mpirun >/dev/null 2>&1; then
    echo "SKIP: damier-selfplay-mpi not built or mpirun missing (apt-get install libopenmpi-dev openmpi-bin)"
    finish
    [ "$failed" -eq 0 ] && exit 77
    exit 1
fi
# Open MPI as root needs the flags; its own start-up allocations are not ours to
# check under LeakSanitizer
run_mpi() {
    ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 OMPI_MCA_rmaps_base_oversubscribe=1 \
        mpirun --allow-run-as-root --oversubscribe -np "$@"
}
rc=0
run_mpi 2 "$MPI" --gen "$tmp/two" "${GEN[@]}" >"$tmp/gen2" 2>"$tmp/err2" || rc=$?
[ "$rc" -eq 0 ] && ok || fail "mpirun -np 2: exit $rc: $(cat "$tmp/err2")"
matches "the end" "$tmp/gen2" '^selfplay-mpi: 2 processes, every shard written'
matches "rank 0" "$tmp/gen2" '^selfplay: rank 0 of 2: 6 games'
matches "rank 1" "$tmp/gen2" '^selfplay: rank 1 of 2: 4 games'
[ "$(ls "$tmp/two" | wc -l)" -eq "$n1" ] && ok || fail "chunk files: $n1 by one process, $(ls "$tmp/two" | wc -l) by two"
same=0
for f in "$tmp"/one/*; do
    cmp -s "$f" "$tmp/two/$(basename "$f")" && same=$((same + 1)) || fail "$(basename "$f") differs"
done
[ "$same" -eq "$n1" ] && ok || fail "$same of $n1 files identical"
# resumed: nothing played again
run_mpi 2 "$MPI" --gen "$tmp/two" "${GEN[@]}" >"$tmp/gen3" 2>&1 || fail "second run: $(cat "$tmp/gen3")"
matches "resumed rank 0" "$tmp/gen3" '^selfplay: rank 0 of 2: 0 games, 0 samples'
matches "resumed rank 1" "$tmp/gen3" '^selfplay: rank 1 of 2: 0 games, 0 samples'
# bad arguments: exit 2 before MPI starts, or from every rank
for bad in "--rank 1" "--match a b" "--gen $tmp/x --chunks 0"; do
    rc=0
    # shellcheck disable=SC2086
    run_mpi 1 "$MPI" $bad >"$tmp/out" 2>"$tmp/err" || rc=$?
    [ "$rc" -eq 2 ] && [ -s "$tmp/err" ] && ok || fail "'$bad': exit $rc, stderr '$(cat "$tmp/err")'"
done
finish
