#!/usr/bin/env bash
# tests/cli/bench.sh: `damier bench DEPTH` prints a line per position and the totals,
# and the node total is the same on every run (deterministic search). The default-
# depth signature is checked by tests/unit/test_bench_deep.c.
set -u
bin=$1
a=$(timeout 60 "$bin" bench 5) || { echo "FAIL: bench 5 failed"; exit 1; }
b=$(timeout 60 "$bin" bench 5) || { echo "FAIL: bench 5 failed"; exit 1; }
ta=$(grep '^total nodes ' <<<"$a")
tb=$(grep '^total nodes ' <<<"$b")
[ -n "$ta" ] && [ "$ta" = "$tb" ] || { echo "FAIL: totals differ: '$ta' vs '$tb'"; exit 1; }
[ "$(grep -cE '^[0-9]+ [0-9]+ [0-9.]+ [0-9x-]+$' <<<"$a")" -ge 30 ] ||
    { echo "FAIL: fewer than 30 position lines"; echo "$a"; exit 1; }
grep -qE '^nps [0-9]+$' <<<"$a" || { echo "FAIL: no nps line"; exit 1; }
"$bin" bench 0 >/dev/null 2>&1 && { echo "FAIL: depth 0 accepted"; exit 1; }
"$bin" bench x >/dev/null 2>&1 && { echo "FAIL: depth x accepted"; exit 1; }
echo ok
