#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/match_clock.sh: `damier match` between two `damier hub` engines on a short
# Fischer clock (5 s + 0.1 s, Hub: the increment before every move, 100 ms of move
# overhead): two games cut at 30 plies, and nobody loses on time or forfeits. Label
# "timing" (tests/CMakeLists.txt): the verdict depends on wall-clock time (at 2 s +
# 0.05 s, with the shared 2-core machine at load 10, damier once overran its clock by
# 0.87 s). The long matches of BENCHMARKS.md are run by hand.
set -u
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rc=0
timeout 120 "$bin" match --engine "$bin hub" --engine "$bin hub" --tc 5+0.1 --games 2 \
    --max-plies 30 --move-overhead 100 --openings start --fail-on-forfeit --pdn "$tmp/g.pdn" \
    >"$tmp/out" 2>&1 || rc=$?
cat "$tmp/out"
[ $rc -eq 0 ] || { echo "FAIL: match exit status $rc"; exit 1; }
grep -q '^white wins .*; forfeits 0 (on time 0)$' "$tmp/out" || { echo "FAIL: summary"; exit 1; }
grep -q '^lowest clock left after a move: ' "$tmp/out" || { echo "FAIL: no clock line"; exit 1; }
[ "$(grep -c '%clk' "$tmp/g.pdn")" -gt 0 ] || { echo "FAIL: no clock in the PDN"; exit 1; }
echo "match_clock: ok"

# A repeating period of N moves: the fake engine's $DM_FAKE_HUB "sleep" mode takes
# 0.3 s a move. With 2 moves in 1 s each period gives the time again: 0.7, 0.4 + 1 =
# 1.4 after White's 2nd move, no loss; with 3 in 0.75 s the third move is too late.
if [ -n "${DM_FAKE_HUB:-}" ]; then
    slow="$DM_FAKE_HUB --name slow --mode sleep --sleep 0.3"
    "$bin" match --engine "$slow" --engine "$DM_FAKE_HUB" --tc 2/1 --games 1 --max-plies 12 \
        --openings start --pdn "$tmp/p.pdn" >"$tmp/p.out" 2>&1
    grep -q "^game 1/1: slow - fake 1-1 adjudicated: 12 plies " "$tmp/p.out" ||
        { cat "$tmp/p.out"; echo "FAIL: 2/1"; exit 1; }
    tr '\n' ' ' <"$tmp/p.pdn" | grep -Eq '2\. 26x17 \{\[%emt 0:00:00\.3[0-9]{2}\] \[%clk 0:00:01\.(3[0-9]{2}|400)\]' ||
        { cat "$tmp/p.pdn"; echo "FAIL: the clock after a period"; exit 1; }
    "$bin" match --engine "$slow" --engine "$DM_FAKE_HUB" --tc 3/0.75 --games 1 \
        --max-plies 12 --openings start >"$tmp/q.out" 2>&1
    grep -q "^game 1/1: slow - fake 0-2 loss on time: slow lost on time .* (4 plies, " \
        "$tmp/q.out" || { cat "$tmp/q.out"; echo "FAIL: 3/0.75"; exit 1; }
    echo "match_clock: periods ok"
fi
