#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/match_clock.sh: `damier match` between two `damier hub` engines on a short
# Fischer clock (2 s + 0.05 s, Hub: the increment before every move, 50 ms of move
# overhead): two games cut at 40 plies, and nobody loses on time or forfeits. Label
# "timing" (tests/CMakeLists.txt): the verdict depends on wall-clock time. The long
# matches of BENCHMARKS.md are run by hand.
set -u
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rc=0
timeout 120 "$bin" match --engine "$bin hub" --engine "$bin hub" --tc 2+0.05 --games 2 \
    --max-plies 40 --openings start --fail-on-forfeit --pdn "$tmp/g.pdn" >"$tmp/out" 2>&1 || rc=$?
cat "$tmp/out"
[ $rc -eq 0 ] || { echo "FAIL: match exit status $rc"; exit 1; }
grep -q '^white wins .*; forfeits 0 (on time 0)$' "$tmp/out" || { echo "FAIL: summary"; exit 1; }
grep -q '^lowest clock left after a move: ' "$tmp/out" || { echo "FAIL: no clock line"; exit 1; }
[ "$(grep -c '%clk' "$tmp/g.pdn")" -gt 0 ] || { echo "FAIL: no clock in the PDN"; exit 1; }
echo "match_clock: ok"
