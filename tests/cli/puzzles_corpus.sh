#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/puzzles_corpus.sh: damier puzzles gen on two real files of the shared corpus
# (<shared dir>/data/pdn, never copied into the repository: the puzzles are written to a
# temporary folder), with a small --max and depth, then `pdn check` and `puzzles
# verify` on the result (the shallower depth, [Depth] - 2). Without the shared data the
# test exits 77 (reported as skipped) and says where it looked.
# Usage: bash puzzles_corpus.sh <damier binary> <shared dir>
set -u
DAMIER=${1:?usage: puzzles_corpus.sh <damier binary> <shared dir>}
SHARED=${2:-}
DIR="$SHARED/data/pdn/wiegerw-pdn/succeed"
GAMES="$DIR/nk_ronde_01.pdn $DIR/090417ronde12.pdn"
if [ -z "$SHARED" ] || [ ! -f "$DIR/nk_ronde_01.pdn" ] || [ ! -f "$DIR/090417ronde12.pdn" ]; then
    echo "SKIP: no PDN corpus files nk_ronde_01.pdn, 090417ronde12.pdn in '$DIR' (the shared data is not next to this checkout)"
    exit 77
fi
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

rc=0
# shellcheck disable=SC2086
"$DAMIER" puzzles gen --depth 8 --max 2 -o "$tmp/p.pdn" $GAMES 2> "$tmp/gen.err" || rc=$?
[ "$rc" -eq 0 ] && ok || fail "gen: exit $rc: $(cat "$tmp/gen.err")"
matches "gen: two puzzles kept" "$tmp/gen.err" '^winning [0-9]+: puzzles 2, not unique [0-9]+ '
matches "gen: counts of positions" "$tmp/gen.err" '^positions [0-9]+ \(repeated [0-9]+ left out\), searched [0-9]+'
n=$(grep -c '^\[Event "puzzle"\]$' "$tmp/p.pdn")
[ "$n" -eq 2 ] && ok || fail "gen: $n puzzles in the file, expected 2"
n=$(grep -c '^\[Source "\(nk_ronde_01\|090417ronde12\).pdn, game [0-9]*, before ply [0-9]* (move [0-9]*\(, Black\)\?)"\]$' "$tmp/p.pdn")
[ "$n" -eq 2 ] && ok || fail "gen: $n Source tags, expected 2"
# every puzzle has a Theme tag; a man won by quiet play (no shot, no strike, no
# promotion, at most DM_PUZZLE_QUIET_MOVES moves) has none to name: [Theme ""]
n=$(grep -cE '^\[Theme "[a-z -]*"\]$' "$tmp/p.pdn")
[ "$n" -eq 2 ] && ok || fail "gen: $n Theme tags, expected 2"
expect_run "pdn check reads the puzzles" 0 "2 games, 2 legal, 0 with illegal moves, 0 unreadable" \
    -- pdn check "$tmp/p.pdn"
rc=0
"$DAMIER" puzzles verify "$tmp/p.pdn" > "$tmp/ver" 2>&1 || rc=$?
[ "$rc" -eq 0 ] && ok || fail "verify: exit $rc: $(cat "$tmp/ver")"
matches "verify at depth 6" "$tmp/ver" '^2 puzzles, 2 verified, 0 failed \(depth 6, [0-9.]+ s\)$'
finish
