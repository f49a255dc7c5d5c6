#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/egdb8.sh (label fast): `damier egdb gen|probe|info|verify --variant` for
# the 8x8 variants (docs/EGDB.md) on 2-3 piece databases made here: an English
# ending of Lasker's (king 32 against 26: White to move wins, Black to move draws),
# Petrov's Russian three kings need 4 pieces (test_egdb8_deep), a probe of another
# variant's position refused with a message naming both, a variant without
# databases refused, `analyse --variant english --egdb` scoring a database win,
# `egdb bench` over an 8x8 folder (random quiet positions of its variant); `hub
# --variant english --egdb` (the folder taken after the variant, database scores in
# Scan's band) and a folder of another variant refused; `play --variant english
# --egdb`: the hint's database score, a database draw ending the game (neither side
# can win), a folder of another variant and a variant without databases refused;
# `serve` refusing two --egdb folders of one variant (the web analysis probes the
# folder of its position's variant: tests/web/e2e.mjs).
# Usage: bash egdb8.sh <damier binary> [<shared dir>]
set -u
DAMIER=${1:?usage: egdb8.sh <damier binary> [<shared dir>]}
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

rc=0
"$DAMIER" egdb gen --pieces 3 --variant english --dir "$tmp/en" >"$tmp/gen" 2>"$tmp/err" || rc=$?
[ "$rc" -eq 0 ] && ok || fail "gen english: exit $rc: $(cat "$tmp/err")"
[ "$(grep -c '^slice d[0-9]\{4\} positions [0-9]* wins' "$tmp/gen")" -eq 16 ] && ok ||
    fail "gen english: 16 slice lines expected"
"$DAMIER" egdb gen --pieces 2 --variant russian --dir "$tmp/ru" >/dev/null 2>&1 && ok ||
    fail "gen russian failed"

"$DAMIER" egdb probe --variant english --fen W:WK32:BK26 --dir "$tmp/en" >"$tmp/out" 2>&1
has "English K32 v K26, White to move" "$tmp/out" "value win dtc 9"
"$DAMIER" egdb probe --variant english --fen B:WK32:BK26 --dir "$tmp/en" >"$tmp/out" 2>&1
has "English K32 v K26, Black to move" "$tmp/out" "value draw"

"$DAMIER" egdb info --dir "$tmp/en" >"$tmp/out" 2>&1
has "info names the variant" "$tmp/out" "variant english"
"$DAMIER" egdb verify --dir "$tmp/ru" >"$tmp/out" 2>&1
has "verify russian" "$tmp/out" "verified 4 slices, 0 failed"

# bench over an 8x8 folder: positions of its variant, every one of them answered
# by the database (none unknown).
"$DAMIER" egdb bench --dir "$tmp/en" --probes 20000 >"$tmp/out" 2>&1
has "bench english names the variant" "$tmp/out" "variant english"
matches "bench english cached" "$tmp/out" '^probe cached [0-9]+ ns$'
matches "bench english uncached" "$tmp/out" '^probe uncached [0-9]+ ns$'
matches "bench english pieces" "$tmp/out" "^pieces 3 probes 20000 check [01]$"
has "bench english: every position in the database" "$tmp/out" "positions 4096 unknown 0"
"$DAMIER" egdb bench --dir "$tmp/ru" --probes 1000 >"$tmp/out" 2>&1
has "bench russian: every position in the database" "$tmp/out" "positions 4096 unknown 0"

# Another variant's position: refused, saying which is which.
rc=0
"$DAMIER" egdb probe --variant brazilian --fen W:WK29:BK4 --dir "$tmp/ru" >"$tmp/out" 2>"$tmp/err" || rc=$?
[ "$rc" -eq 1 ] && ok || fail "probe of a brazilian position in a russian folder: exit $rc"
has "wrong variant" "$tmp/err" "damier egdb probe: the database in $tmp/ru is of russian, the position of brazilian (give --variant russian, or a folder of brazilian slices)"
[ ! -s "$tmp/out" ] && ok || fail "wrong variant printed a value: $(cat "$tmp/out")"
# Generation into a folder of another variant.
rc=0
"$DAMIER" egdb gen --pieces 2 --variant english --dir "$tmp/ru" >/dev/null 2>"$tmp/err" || rc=$?
[ "$rc" -eq 1 ] && ok || fail "gen english into a russian folder: exit $rc"
matches "gen into another variant's folder" "$tmp/err" 'is a slice of another variant than english'
# A variant without databases.
rc=0
"$DAMIER" egdb gen --pieces 2 --variant italian --dir "$tmp/it" >/dev/null 2>"$tmp/err" || rc=$?
[ "$rc" -eq 2 ] && ok || fail "gen italian: exit $rc"
matches "no italian databases" "$tmp/err" 'no endgame databases of italian'

"$DAMIER" analyse --variant english --fen W:WK32:BK26 --depth 3 --egdb "$tmp/en" >"$tmp/out" 2>&1
matches "analyse english with the database" "$tmp/out" '^depth 3 .*score dbwin 9 '
rc=0
"$DAMIER" analyse --variant english --fen W:WK32:BK26 --depth 3 --egdb "$tmp/ru" >"$tmp/out" 2>&1 || rc=$?
[ "$rc" -eq 2 ] && ok || fail "analyse english with a russian database: exit $rc"
has "analyse with another variant's database" "$tmp/out" "damier analyse: the database in $tmp/ru is of russian, the position of english"

# hub: --egdb is set after --variant, so an English folder serves an English session;
# the database win of K32 v K26 in 9 plies is shown in Scan's band (90 - 0.09).
kvk=WeeeeeeeeeeeeeeeeeeeeeeeeeBeeeeeW
out=$(printf '%s\n' "hub" "pos pos=$kvk" "level depth=2" "go think" |
    timeout 30 "$DAMIER" hub --variant english --egdb "$tmp/en" 2>"$tmp/err")
grep -qxF "param name=egdb value=$tmp/en type=string" <<<"$out" && ok ||
    fail "hub --variant english --egdb: not announced: $out $(cat "$tmp/err")"
grep -qE '^info depth=[0-9]+ .*score=89\.91 egdb=win dtc=9 ' <<<"$out" && ok ||
    fail "hub english: no database score: $out"
[ ! -s "$tmp/err" ] && ok || fail "hub english: stderr $(cat "$tmp/err")"
out=$(printf '%s\n' "hub" | timeout 30 "$DAMIER" hub --variant english --egdb "$tmp/ru" 2>"$tmp/err")
grep -qF "damier hub: error message=\"set-param egdb: the database in '$tmp/ru' is of russian, the game of english" "$tmp/err" && ok ||
    fail "hub english with a russian folder: stderr $(cat "$tmp/err")"
grep -qxF 'param name=egdb value="" type=string' <<<"$out" && ok || fail "hub english kept a russian folder"

# play: the hint probes the English database (a database win, dbwin N), a database
# draw (K32 v K26 with Black to move) ends the game at once, and not without it.
printf 'hint\nquit\n' | XDG_DATA_HOME="$tmp/xdg" "$DAMIER" play --variant english --human-vs-human \
    --fen W:WK32:BK26 --egdb "$tmp/en" >"$tmp/out" 2>"$tmp/err"
matches "play english: the hint's database score" "$tmp/out" '^hint: [0-9]+-[0-9]+ score dbwin9 depth [0-9]+ pv '
XDG_DATA_HOME="$tmp/xdg" "$DAMIER" play --variant english --human-vs-human --fen B:WK32:BK26 \
    --egdb "$tmp/en" </dev/null >"$tmp/out" 2>"$tmp/err"
has "play english: a database draw" "$tmp/out" "result: 1-1 neither side can win"
printf 'quit\n' | XDG_DATA_HOME="$tmp/xdg" "$DAMIER" play --variant english --human-vs-human \
    --fen B:WK32:BK26 >"$tmp/out" 2>"$tmp/err"
grep -q '^result: 1-1 neither' "$tmp/out" && fail "play english: a draw declared without a database" || ok
rc=0
XDG_DATA_HOME="$tmp/xdg" "$DAMIER" play --variant english --human-vs-human --egdb "$tmp/ru" \
    </dev/null >"$tmp/out" 2>"$tmp/err" || rc=$?
[ "$rc" -eq 2 ] && ok || fail "play english with a russian folder: exit $rc"
has "play english with a russian folder" "$tmp/err" "damier play: --egdb: the database in $tmp/ru is of russian, the game of english"
rc=0
XDG_DATA_HOME="$tmp/xdg" "$DAMIER" play --variant italian --human-vs-human --egdb "$tmp/ru" \
    </dev/null >"$tmp/out" 2>"$tmp/err" || rc=$?
[ "$rc" -eq 2 ] && ok || fail "play italian --egdb: exit $rc"
matches "play italian --egdb" "$tmp/err" 'not of italian$'

# serve: one --egdb folder a variant (when the web board is built)
rc=0
timeout 20 "$DAMIER" serve --port 0 --db "$tmp/web.sqlite" --egdb "$tmp/ru" --egdb "$tmp/ru" \
    --quiet </dev/null >"$tmp/out" 2>"$tmp/err" || rc=$?
if grep -q "built without the web board" "$tmp/err"; then
    echo "serve not built: its --egdb check skipped"
else
    [ "$rc" -eq 2 ] && ok || fail "serve with two russian folders: exit $rc"
    has "serve with two russian folders" "$tmp/err" "damier serve: --egdb $tmp/ru: a second folder of russian"
fi

finish
