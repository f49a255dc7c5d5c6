#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/puzzles_problems_deep.sh: the composed problems of the shared corpus
# (<shared dir>/data/pdn/wiegerw-pdn: Cat.A1-D1, PWCP_2, PWCP_2a; 247 "White to play
# and win" records) through `damier puzzles verify --depth 16`: every record is read
# and judged, and at least 130 solutions verify (149 when this test was written,
# docs/PUZZLES.md; the rest win beyond the depth or not uniquely). Label slow (about
# 20 s). Without the shared data it exits 77 (skipped) and says where it looked.
# Usage: bash puzzles_problems_deep.sh <damier binary> <shared dir>
set -u
DAMIER=${1:?usage: puzzles_problems_deep.sh <damier binary> <shared dir>}
SHARED=${2:-}
W="$SHARED/data/pdn/wiegerw-pdn"
FILES="$W/succeed/Cat.B1.pdn $W/succeed/Cat.D1.pdn $W/fail/Cat.A1.pdn $W/fail/Cat.C1.pdn $W/succeed/PWCP_2.pdn $W/succeed/PWCP_2a.pdn"
for f in $FILES; do
    if [ ! -f "$f" ]; then
        echo "SKIP: no composed problems at '$f' (the shared data is not next to this checkout)"
        exit 77
    fi
done
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rc=0
# shellcheck disable=SC2086
"$DAMIER" puzzles verify --depth 16 $FILES > "$tmp/out" 2>&1 || rc=$?
[ "$rc" -eq 1 ] && ok || fail "verify: exit $rc (some problems fail at depth 16)"
last=$(tail -1 "$tmp/out")
if [[ "$last" =~ ^247\ puzzles,\ ([0-9]+)\ verified,\ ([0-9]+)\ failed\ \(depth\ 16, ]]; then
    ok
    [ "${BASH_REMATCH[1]}" -ge 130 ] && ok || fail "only ${BASH_REMATCH[1]} of 247 verified"
else
    fail "summary: '$last'"
fi
n=$(grep -c 'puzzle [0-9]* (' "$tmp/out")
[ "$n" -eq "$((247 - ${BASH_REMATCH[1]:-0}))" ] && ok || fail "$n failure lines"
finish
