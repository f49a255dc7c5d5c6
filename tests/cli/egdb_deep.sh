#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/egdb_deep.sh (label slow: the optimised build; about 30 s of CPU under
# ASan, 2 s optimised): `damier egdb verify` over every slice of a 2-3 piece database
# made here, and over the same folder with a corrupt and a truncated file (the 14
# slices left verified, exit 1). The quick checks of the egdb command are in egdb.sh
# (label fast).
# Usage: bash egdb_deep.sh <damier binary> [<shared dir>]
set -u
DAMIER=${1:?usage: egdb_deep.sh <damier binary> [<shared dir>]}
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
db=$tmp/db

rc=0
"$DAMIER" egdb gen --pieces 3 --dir "$db" --threads 2 >"$tmp/gen" 2>"$tmp/err" || rc=$?
[ "$rc" -eq 0 ] && ok || fail "gen: exit $rc: $(cat "$tmp/err")"

rc=0
"$DAMIER" egdb verify --dir "$db" >"$tmp/out" 2>"$tmp/err" || rc=$?
[ "$rc" -eq 0 ] && ok || fail "verify: exit $rc: $(cat "$tmp/err")"
has "verify" "$tmp/out" "verified 16 slices, 0 failed"
[ "$(grep -c '^slice d[0-9]\{4\} ok$' "$tmp/out")" -eq 16 ] && ok || fail "verify: 16 ok lines expected"

# A corrupt and a truncated file (as in egdb.sh): refused, the 14 others verified;
# the 4 of them that reach d0201 or d1101 through a move (the colour-flipped twin of
# a successor with Black to move) fail with the successor missing, the 10 others pass.
cp -r "$db" "$tmp/bad"
printf '\377' | dd of="$tmp/bad/d0201.egdb" bs=1 seek=200 conv=notrunc 2>/dev/null
head -c 100 "$db/d1101.egdb" >"$tmp/bad/d1101.egdb"
rc=0
"$DAMIER" egdb verify --dir "$tmp/bad" >"$tmp/out" 2>"$tmp/err" || rc=$?
[ "$rc" -eq 1 ] && ok || fail "verify with refused files: exit $rc"
has "verify with refused files" "$tmp/out" "verified 14 slices, 4 failed"
[ "$(grep -c '^slice d[0-9]\{4\} ok$' "$tmp/out")" -eq 10 ] && ok || fail "verify: 10 ok lines expected"
[ "$(grep -c '^slice d[0-9]\{4\} FAILED: .* is not in the database$' "$tmp/out")" -eq 4 ] && ok ||
    fail "verify: 4 slices failing for a missing successor expected: $(cat "$tmp/out")"
grep -q "refused: .*d0201" "$tmp/err" && grep -q "refused: .*d1101" "$tmp/err" && ok ||
    fail "verify did not report the refused files: $(cat "$tmp/err")"


# annotate with the database (issue 18: a move that changes its value is a decisive
# error): Hoyle's p. 410, the lone king on the great line draws against three kings,
# but 46-5 loses it; 46-41 keeps the draw (database scores count as forced ends).
"$DAMIER" egdb gen --pieces 4 --dir "$tmp/db4" --threads 2 >/dev/null 2>"$tmp/err" ||
    fail "gen 4: $(cat "$tmp/err")"
printf '[FEN "W:WK46:BK13,K16,K27"]\n1. 46-5 *\n' >"$tmp/blunder.pdn"
printf '[FEN "W:WK46:BK13,K16,K27"]\n1. 46-41 *\n' >"$tmp/keeps.pdn"
out=$("$DAMIER" annotate --depth 1 --egdb "$tmp/db4" "$tmp/blunder.pdn" 2>"$tmp/err")
grep -q '46-5??' <<<"$out" && ok || fail "annotate --egdb: 46-5 not marked ??: $out $(cat "$tmp/err")"
out=$("$DAMIER" annotate --depth 1 --egdb "$tmp/db4" "$tmp/keeps.pdn" 2>"$tmp/err")
grep -qE '46-41[?]' <<<"$out" && fail "annotate --egdb: 46-41 marked a mistake: $out" || ok
finish
