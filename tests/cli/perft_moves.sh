#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/perft_moves.sh: the stable output of `damier perft` and `damier moves`
# (scripts parse it) and their exit codes on bad input.
# Usage: bash perft_moves.sh <damier binary> [<shared dir>]
set -u
DAMIER=${1:?usage: perft_moves.sh <damier binary> [<shared dir>]}
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# expect_out NAME EXPECTED_STDOUT -- ARGS...: exit 0, stdout exactly as given, no stderr.
expect_out() {
    local name=$1 want=$2
    shift 3
    local rc=0
    "$DAMIER" "$@" >"$tmp/out" 2>"$tmp/err" || rc=$?
    if [ "$rc" -ne 0 ]; then
        fail "$name: exit $rc: $(cat "$tmp/err")"
    elif [ "$(cat "$tmp/out")" != "$want" ]; then
        fail "$name: output differs:"
        diff <(printf '%s\n' "$want") "$tmp/out" >&2
    elif [ -s "$tmp/err" ]; then
        fail "$name: unexpected stderr: $(cat "$tmp/err")"
    else
        passed=$((passed + 1))
    fi
}

# expect_fail NAME RC STDERR_PATTERN -- ARGS...: exit RC, stdout empty, stderr matching
# the extended regular expression.
expect_fail() {
    local name=$1 want_rc=$2 pattern=$3
    shift 4
    local rc=0
    "$DAMIER" "$@" >"$tmp/out" 2>"$tmp/err" || rc=$?
    if [ "$rc" -ne "$want_rc" ]; then
        fail "$name: exit $rc, expected $want_rc"
    elif [ -s "$tmp/out" ]; then
        fail "$name: unexpected stdout: $(cat "$tmp/out")"
    elif ! grep -Eq -- "$pattern" "$tmp/err"; then
        fail "$name: stderr does not match /$pattern/: $(cat "$tmp/err")"
    else
        passed=$((passed + 1))
    fi
}

# perft lines are "DEPTH NODES SECONDS"; the seconds vary, so mask them.
mask_seconds() {
    sed -E 's/^([0-9]+ [0-9]+) [0-9]+\.[0-9]{3}$/\1 T/'
}

expect_perft() {
    local name=$1 want=$2
    shift 3
    local rc=0
    "$DAMIER" "$@" >"$tmp/out" 2>"$tmp/err" || rc=$?
    if [ "$rc" -ne 0 ]; then
        fail "$name: exit $rc: $(cat "$tmp/err")"
    elif [ "$(mask_seconds <"$tmp/out")" != "$want" ]; then
        fail "$name: output differs:"
        diff <(printf '%s\n' "$want") <(mask_seconds <"$tmp/out") >&2
    else
        passed=$((passed + 1))
    fi
}

KINGS="B:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46:BK17,K24"

expect_perft "perft 3" "1 9 T
2 81 T
3 658 T" -- perft 3

expect_perft "perft --divide 2" "31-26 9
31-27 9
32-27 9
32-28 9
33-28 9
33-29 9
34-29 9
34-30 9
35-30 9
1 9 T
2 81 T" -- perft --divide 2

expect_perft "perft --fen kings 4" "1 14 T
2 55 T
3 1168 T
4 5432 T" -- perft --fen "$KINGS" 4

# --divide lists root moves in Hub notation, sorted like `damier moves`
expect_perft "perft --divide on two 43x1 captures" "43x1x7x17x32 1
43x1x7x22x32 1
1 2 T" -- perft --fen "W:WK43:B7,17,22,32" --divide 1

expect_out "moves" "31-26
31-27
32-27
32-28
33-28
33-29
34-29
34-30
35-30
9 moves" -- moves

expect_out "moves --format hub" "43x1x7x17x32
43x1x7x22x32
2 moves" -- moves --format hub --fen "W:WK43:B7,17,22,32"

# PDN: the full path only where two moves share from and to
expect_out "moves --format pdn" "43x21x12x1
43x27x18x1
2 moves" -- moves --format pdn --fen "W:WK43:B7,17,22,32"

expect_out "moves: short PDN for a unique multi-capture" "46x39
46x44
46x50
3 moves" -- moves --fen "W:WK46:B12,13,23,33"

expect_out "moves --format hub: captured squares" "46x39x12x13x23x33
46x44x12x13x23x33
46x50x12x13x23x33
3 moves" -- moves --format hub --fen "W:WK46:B12,13,23,33"

# the README example
expect_out "moves README example" "28x17
1 moves" -- moves --fen "W:W28:B19,K22"

expect_out "moves: blocked side" "0 moves" -- moves --fen "W:W36,45:B27,31,34,40"

# bad FEN: nonzero exit, the error on stderr names the character
expect_fail "moves bad FEN" 2 "character 6.*';'" -- moves --fen "W:W31;B1"
expect_fail "perft bad FEN" 2 "character 4.*square 51" -- perft --fen "W:W51:B1" 2
expect_fail "moves bad side" 2 "character 1.*'X'" -- moves --fen "X:W31:B1"

# bad depth and options: exit 2 with a message
expect_fail "perft depth 0" 2 "DEPTH" -- perft 0
expect_fail "perft depth abc" 2 "DEPTH" -- perft abc
expect_fail "perft depth 21" 2 "DEPTH" -- perft 21
expect_fail "perft depth 3x" 2 "DEPTH" -- perft 3x
expect_fail "perft no depth" 2 "usage" -- perft
expect_fail "moves bad format" 2 "format" -- moves --format xml
expect_fail "moves extra argument" 2 "usage" -- moves 3

finish
