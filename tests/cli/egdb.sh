#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/egdb.sh (label fast: about 4 s of CPU under ASan): `damier egdb
# gen|verify|probe|info|bench` on a 2-3 piece database made here: the stable output,
# resuming, the XDG default folder (also the engine's default), a corrupt and a truncated file refused with a
# clear message, a bad FEN, `analyse --egdb`. verify runs on 2-piece slices only
# here; verify of every 3-piece slice (about 20 s of CPU under ASan) is in
# egdb_deep.sh (label slow, the optimised build).
# Usage: bash egdb.sh <damier binary> [<shared dir>]
set -u
DAMIER=${1:?usage: egdb.sh <damier binary> [<shared dir>]}
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
db=$tmp/db

rc=0
"$DAMIER" egdb gen --pieces 3 --dir "$db" --threads 2 >"$tmp/gen" 2>"$tmp/err" || rc=$?
[ "$rc" -eq 0 ] && ok || fail "gen: exit $rc: $(cat "$tmp/err")"
[ "$(grep -c '^slice d[0-9]\{4\} positions [0-9]* wins' "$tmp/gen")" -eq 16 ] && ok ||
    fail "gen: 16 slice lines expected"
# K v K, White to move: 16 wins (Black's king cornered on the long diagonal), 2
# losses, checked against the brute force in test_egdb.
matches "gen d0101" "$tmp/gen" '^slice d0101 positions 2450 wins 16 losses 2 draws 2024 dontcare 408 max_dtc 3 bytes [0-9]+ seconds'
[ "$(find "$db" -name '*.tmp' | wc -l)" -eq 0 ] && ok || fail "gen left temporary files"

# Resumed: nothing recomputed.
"$DAMIER" egdb gen --pieces 3 --dir "$db" >"$tmp/gen2" 2>&1
[ "$(grep -c ' kept$' "$tmp/gen2")" -eq 16 ] && ok || fail "second gen recomputed slices: $(cat "$tmp/gen2")"


"$DAMIER" egdb info --dir "$db" >"$tmp/out" 2>&1 || fail "info: exit $?"
matches "info" "$tmp/out" '^slice d0201 positions 58800 wins 2330 losses 0 draws 39402 dontcare 17068 max_dtc 7 bytes [0-9]+ crc32 [0-9a-f]{8}$'
matches "info total" "$tmp/out" '^slices 16, bytes [0-9]+, complete up to 3 pieces$'

# Probes (derivations in tests/egdb/test_egdb.c).
expect_run "probe blocked" 0 "value loss dtc 0" -- egdb probe --dir "$db" --fen "W:W46:B41,37"
expect_run "probe flying capture" 0 "value win dtc 1" -- egdb probe --dir "$db" --fen "B:WK28:BK46"
expect_run "probe draw" 0 "value draw" -- egdb probe --dir "$db" --fen "W:W6:B45"
expect_run "probe 4 pieces" 0 "value unknown" -- egdb probe --dir "$db" --fen "W:WK1,K2,K3:BK50"

# A bad FEN: the library's message with the column, exit 2.
rc=0
"$DAMIER" egdb probe --dir "$db" --fen "W:WK28:BK46x" >"$tmp/out" 2>"$tmp/err" || rc=$?
[ "$rc" -eq 2 ] && [ ! -s "$tmp/out" ] && grep -q "bad FEN at character 12" "$tmp/err" && ok ||
    fail "bad FEN: exit $rc, stderr $(cat "$tmp/err")"
rejects egdb "gen" "gen --pieces 9" "probe" "frobnicate" "info --threads 0"

# The default folder: $XDG_DATA_HOME/damier/egdb.
XDG_DATA_HOME=$tmp/xdg "$DAMIER" egdb gen --pieces 2 >/dev/null 2>&1
[ -f "$tmp/xdg/damier/egdb/d0101.egdb" ] && ok || fail "gen without --dir did not use XDG_DATA_HOME"
rc=0
XDG_DATA_HOME=$tmp/xdg "$DAMIER" egdb probe --fen "W:WK1:BK50" >"$tmp/out" 2>&1 || rc=$?
[ "$rc" -eq 0 ] && [ "$(cat "$tmp/out")" = "value draw" ] && ok || fail "probe in the XDG folder: $(cat "$tmp/out")"
# verify on the 2-piece folder (every slice of 3 pieces: test_egdb_deep).
"$DAMIER" egdb verify --dir "$tmp/xdg/damier/egdb" >"$tmp/out" 2>&1 || fail "verify: exit $?"
has "verify" "$tmp/out" "verified 4 slices, 0 failed"
has "verify line" "$tmp/out" "slice d0110 ok"
# Two threads, and only the slices of 2 pieces of the 2-3 piece folder.
"$DAMIER" egdb verify --dir "$db" --threads 2 --pieces 2 >"$tmp/out" 2>&1 || fail "verify --threads 2: exit $?"
has "verify --pieces 2" "$tmp/out" "verified 4 slices, 0 failed"
[ "$(grep -c '^slice d[0-9]\{4\} ok$' "$tmp/out")" -eq 4 ] && ok || fail "verify --pieces 2: 4 ok lines expected"

# The engine with the database: White's king on 10 wins against the king on 46 in 3
# plies to the capture (probe above); analyse says so from depth 1.
rc=0
"$DAMIER" analyse --egdb "$db" --fen "W:WK10:BK46" --depth 2 >"$tmp/out" 2>"$tmp/err" || rc=$?
[ "$rc" -eq 0 ] && ok || fail "analyse --egdb: exit $rc: $(cat "$tmp/err")"
matches "analyse --egdb" "$tmp/out" '^depth 2 seldepth [0-9]+ score dbwin 3 '
expect_run "probe W:WK10:BK46" 0 "value win dtc 3" -- egdb probe --dir "$db" --fen "W:WK10:BK46"
# Without --egdb the engine probes the default folder when it exists (the 2-piece one
# made above); --egdb "" turns it off.
XDG_DATA_HOME=$tmp/xdg "$DAMIER" analyse --fen "W:WK10:BK46" --depth 2 >"$tmp/out" 2>"$tmp/err"
matches "analyse, default folder" "$tmp/out" '^depth 2 seldepth [0-9]+ score dbwin 3 '
[ ! -s "$tmp/err" ] && ok || fail "analyse with the default folder: stderr $(cat "$tmp/err")"
XDG_DATA_HOME=$tmp/xdg "$DAMIER" analyse --egdb "" --fen "W:WK10:BK46" --depth 2 >"$tmp/out" 2>&1
grep -q "dbwin" "$tmp/out" && fail "analyse --egdb \"\" still probes" || ok
rc=0
"$DAMIER" analyse --egdb "$tmp/none" --fen "W:WK10:BK46" --depth 2 >"$tmp/out" 2>"$tmp/err" || rc=$?
[ "$rc" -eq 0 ] && grep -q "warning: no endgame database slices" "$tmp/err" && ok ||
    fail "analyse --egdb on an empty folder: exit $rc, $(cat "$tmp/err")"

# A corrupt and a truncated file: refused with the reason, the rest still works.
cp -r "$db" "$tmp/bad"
printf '\377' | dd of="$tmp/bad/d0201.egdb" bs=1 seek=200 conv=notrunc 2>/dev/null
head -c 100 "$db/d1101.egdb" >"$tmp/bad/d1101.egdb"
rc=0
"$DAMIER" egdb info --dir "$tmp/bad" >"$tmp/out" 2>"$tmp/err" || rc=$?
[ "$rc" -eq 1 ] && ok || fail "info with bad files: exit $rc"
matches "corrupt" "$tmp/err" 'refused: .*/d0201\.egdb: corrupt: body CRC-32 [0-9a-f]{8}, the header says [0-9a-f]{8}$'
matches "truncated" "$tmp/err" 'refused: .*/d1101\.egdb: truncated: 100 bytes, shorter than the 128-byte header$'
matches "info rest" "$tmp/out" '^slices 14, bytes [0-9]+, complete up to 2 pieces$'
expect_run "probe without the slice" 0 "value unknown" -- egdb probe --dir "$tmp/bad" --fen "W:WK1,K2:BK50"
grep -q "refused: .*d0201" "$tmp/err" && ok || fail "probe did not report the refused file"
expect_run "probe other slice" 0 "value draw" -- egdb probe --dir "$tmp/bad" --fen "W:WK1:BK50"
# verify with refused files fails (exit 1) even when every loaded slice is right: on
# the 2-piece slices and the two bad files (verify of the 14 slices left in $tmp/bad,
# 9 s of CPU under ASan: egdb_deep.sh).
mkdir "$tmp/bad2"
cp "$tmp/bad"/d0201.egdb "$tmp/bad"/d1101.egdb "$db"/d0101.egdb "$db"/d0110.egdb \
    "$db"/d1001.egdb "$db"/d1010.egdb "$tmp/bad2/"
rc=0
"$DAMIER" egdb verify --dir "$tmp/bad2" >"$tmp/out" 2>"$tmp/err" || rc=$?
[ "$rc" -eq 1 ] && ok || fail "verify with refused files: exit $rc"
has "verify with refused files" "$tmp/out" "verified 4 slices, 0 failed"
grep -q "refused: .*d1101" "$tmp/err" && ok || fail "verify did not report the refused file"

finish
