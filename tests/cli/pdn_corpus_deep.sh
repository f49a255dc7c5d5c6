#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/pdn_corpus_deep.sh: the whole real corpus (../shared/data/pdn) through
# `damier pdn convert`, then `damier pdn check` on the output: per file, the verdicts
# are those of `pdn check` on the original (as many legal games, games with illegal
# moves, unreadable moves and skipped variants; the games the reader cannot read are
# left out by convert and counted out), and each illegal or unreadable move is the
# same move with the same reason and position. Slow (label slow, not in the ASan
# run); exits 77 (CTest SKIP_RETURN_CODE) when the shared data is absent.
# Usage: bash pdn_corpus_deep.sh <damier binary> [<shared dir>]
set -u
DAMIER=${1:?usage: pdn_corpus_deep.sh <damier binary> [<shared dir>]}
SHARED=${2:-}
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
PDN="$SHARED/data/pdn"
if [ -z "$SHARED" ] || [ ! -d "$PDN" ]; then
    echo "skipped: no PDN corpus under '$SHARED' (shared data absent)"
    exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# counts FILE: "L I U S" from a check output (S: skipped variants, 0 when not said)
counts() {
    awk '/ skipped \(variant not supported yet\)$/ { s = $1 }
         / games, .* legal, .* with illegal moves, .* unreadable$/ { g = $1; l = $3; i = $5; u = $9 }
         END { printf "%d %d %d %d %d\n", g, l, i, u, s }' "$1"
}
# bad_moves FILE: the illegal or unreadable moves of a check output, without where
# they are (file, line, column, game number, players change in the conversion)
bad_moves() {
    grep -E ': move [0-9]+\.(\.\.)? .*; FEN before: ' "$1" | grep -v ': warning: ' |
        sed -E 's/^.*\): (move [0-9]+\.(\.\.)? )/\1/' |
        sed -E 's/ (-|\.\.\.): unknown move "(-|\.\.\.)"/ --: unknown move "--"/'
}
# (an unknown move, "-" or "...", is written "--")

files=0
while IFS= read -r f; do
    files=$((files + 1))
    "$DAMIER" pdn check "$f" >"$tmp/orig.out" 2>&1
    rc=0
    "$DAMIER" pdn convert "$f" >"$tmp/conv.pdn" 2>"$tmp/conv.err" || rc=$?
    "$DAMIER" pdn check "$tmp/conv.pdn" >"$tmp/conv.out" 2>&1
    read -r g l i u s <<<"$(counts "$tmp/orig.out")"
    read -r g2 l2 i2 u2 s2 <<<"$(counts "$tmp/conv.out")"
    dropped=$(grep -c '(not converted)$' "$tmp/conv.err")
    want="$((g - dropped)) $l $i $((u - dropped)) $s"
    if [ "$g2 $l2 $i2 $u2 $s2" != "$want" ]; then
        fail "$f: converted: games/legal/illegal/unreadable/skipped $g2 $l2 $i2 $u2 $s2, expected $want"
    elif [ "$(bad_moves "$tmp/orig.out")" != "$(bad_moves "$tmp/conv.out")" ]; then
        fail "$f: the bad moves differ after convert:"
        diff <(bad_moves "$tmp/orig.out") <(bad_moves "$tmp/conv.out") >&2
    else
        ok
    fi
    # convert says so (exit 1) exactly when something is wrong: a game it could not
    # read or a bad move (skipped variants alone are written as read, exit 0 unless
    # the rules could not be guessed)
    if [ $((dropped + i + u)) -gt 0 ] && [ "$rc" -ne 1 ]; then
        fail "$f: convert exit $rc with $dropped unreadable games, $i illegal, $u unreadable"
    elif [ "$rc" -ne 0 ] && [ "$rc" -ne 1 ]; then
        fail "$f: convert exit $rc: $(head -3 "$tmp/conv.err")"
    else
        ok
    fi
    # converting the output again changes nothing
    "$DAMIER" pdn convert "$tmp/conv.pdn" >"$tmp/conv2.pdn" 2>/dev/null
    if cmp -s "$tmp/conv.pdn" "$tmp/conv2.pdn"; then ok; else
        fail "$f: converting the output again changes it:"
        diff "$tmp/conv.pdn" "$tmp/conv2.pdn" | head -8 >&2
    fi
done < <(find "$PDN" -name '*.pdn' | sort)
echo "$files files"
[ "$files" -gt 50 ] && ok || fail "only $files PDN files under $PDN"
finish
