#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/pdn_corpus.sh: `damier pdn check` and `damier pdn convert` on the real
# corpus (<shared dir>/data/pdn: known counts, reported moves, converted files that
# check the same). Needs the shared data: without it the test exits 77, which CTest
# reports as skipped (SKIP_RETURN_CODE in tests/CMakeLists.txt), saying where it looked.
# Usage: bash pdn_corpus.sh <damier binary> <shared dir>
set -u
DAMIER=${1:?usage: pdn_corpus.sh <damier binary> <shared dir>}
SHARED=${2:-}
PDN="$SHARED/data/pdn"
if [ -z "$SHARED" ] || [ ! -d "$PDN/wiegerw-pdn" ]; then
    echo "SKIP: no PDN corpus at '$PDN/wiegerw-pdn' (the shared data is not next to this checkout)"
    exit 77
fi
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

expect_run "corpus wk2003" 0 "23 games, 23 legal, 0 with illegal moves, 0 unreadable" \
    -- pdn check "$PDN/wiegerw-pdn/succeed/wk2003.pdn"
rc=0
"$DAMIER" pdn check "$PDN/wiegerw-pdn/fail/Cat.C1.pdn" >"$tmp/out" 2>&1 || rc=$?
if [ "$rc" -eq 1 ] && grep -q 'Cat.C1.pdn:611:1: game 46 (? - ?): move 1. 36x27: illegal move' "$tmp/out" &&
    [ "$(tail -1 "$tmp/out")" = "46 games, 45 legal, 1 with illegal moves, 0 unreadable" ]; then
    passed=$((passed + 1))
else
    fail "corpus Cat.C1: exit $rc: $(cat "$tmp/out")"
fi
rc=0
"$DAMIER" pdn check "$PDN/wiegerw-pdn/succeed/schildpad.pdn" >"$tmp/out" 2>&1 || rc=$?
if [ "$rc" -eq 0 ] && [ "$(grep -c 'warning: ambiguous capture' "$tmp/out")" -eq 2 ] &&
    [ "$(tail -1 "$tmp/out")" = "34 games, 34 legal, 0 with illegal moves, 0 unreadable" ]; then
    passed=$((passed + 1))
else
    fail "corpus schildpad: exit $rc: $(cat "$tmp/out")"
fi
# variant games: Russian (no GameType: algebraic squares), English checkers
expect_run "corpus ussr1947" 0 "legal by variant: 153 russian
153 games, 153 legal, 0 with illegal moves, 0 unreadable" \
    -- pdn check "$PDN/wiegerw-pdn/succeed/ussr1947.pdn"
rc=0
"$DAMIER" pdn check "$PDN/checkerboard/tinsley.pdn" >"$tmp/out" 2>&1 || rc=$?
if [ "$rc" -eq 1 ] && grep -q 'tinsley.pdn:5588:5: game 541 (M Tinsley - AA Long): move 62. 32-28: illegal move "32-28": square 32 is empty' "$tmp/out" &&
    [ "$(grep -c 'note: words glued to a move' "$tmp/out")" -eq 2 ] &&
    [ "$(tail -1 "$tmp/out")" = "724 games, 723 legal, 1 with illegal moves, 0 unreadable" ]; then
    passed=$((passed + 1))
else
    fail "corpus tinsley: exit $rc: $(head -5 "$tmp/out")"
fi
# converted variant games check the same (American: split captures joined)
rc=0
"$DAMIER" pdn convert "$PDN/lidraughts-samples/derived/american.pdn" >"$tmp/am.pdn" 2>"$tmp/err" || rc=$?
if [ "$rc" -eq 0 ] && [ "$("$DAMIER" pdn check "$tmp/am.pdn" | tail -1)" = \
    "30 games, 30 legal, 0 with illegal moves, 0 unreadable" ] &&
    grep -q '^\[GameType "21"\]' "$tmp/am.pdn"; then
    passed=$((passed + 1))
else
    fail "corpus convert american: exit $rc: $(cat "$tmp/err")"
fi
# every file converts, and the converted international files check the same
rc=0
"$DAMIER" pdn convert "$PDN/wiegerw-pdn/succeed/nk_ronde_01.pdn" >"$tmp/nk.pdn" 2>"$tmp/err" || rc=$?
if [ "$rc" -eq 0 ] && [ "$("$DAMIER" pdn check "$tmp/nk.pdn" | tail -1)" = \
    "7 games, 7 legal, 0 with illegal moves, 0 unreadable" ] &&
    [ "$(awk 'length > 80' "$tmp/nk.pdn" | grep -vc '^\[')" -eq 0 ]; then
    passed=$((passed + 1))
else
    fail "corpus convert nk_ronde_01: exit $rc: $(cat "$tmp/err")"
fi

finish
