#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/jump_pdn.sh: records of the jumping games (issue 14) through `damier pdn
# check` and `damier pdn convert`: legal games of each game counted legal; convert
# normalises (tags first, move numbers per round) and its output checks legal and
# converts to itself; bad records are reported with FILE:LINE:COL and what; a
# draughts file in the same run keeps its own path.
set -u
DAMIER=$1
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cat >"$tmp/good.pdn" <<'PDN'
[Event "test"]
[Game "chinese-checkers"]
[Players "3"]
[SeatA "Ann"]

1. 112-103 {a comment} 14-15 ; to the end of the line
20-19 2. 103-91 *

[Game "halma"]
[Board "8"]

1. c1-e1 h5-g4 *

[Game "gewu"]

1. bai:5-6-7 wu sai:8-6 wu 2. sai:7-8 *
PDN
"$DAMIER" pdn check "$tmp/good.pdn" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 0 ] && ok || fail "check good: exit $rc: $(cat "$tmp/out" "$tmp/err")"
has "check good" "$tmp/out" "3 games, 3 legal, 0 with illegal moves, 0 unreadable"

"$DAMIER" pdn convert "$tmp/good.pdn" -o "$tmp/conv.pdn" 2>"$tmp/err"
rc=$?
[ $rc -eq 0 ] && ok || fail "convert good: exit $rc: $(cat "$tmp/err")"
has "convert tags" "$tmp/conv.pdn" '[Game "chinese-checkers"]'
has "convert seat" "$tmp/conv.pdn" '[SeatA "Ann"]'
has "convert movetext" "$tmp/conv.pdn" "1. 112-103 14-15 20-19 2. 103-91 *"
has "convert gewu" "$tmp/conv.pdn" "1. bai:5-6-7 wu sai:8-6 wu 2. sai:7-8 *"
"$DAMIER" pdn check "$tmp/conv.pdn" >"$tmp/out" 2>&1
has "converted checks" "$tmp/out" "3 games, 3 legal, 0 with illegal moves, 0 unreadable"
"$DAMIER" pdn convert "$tmp/conv.pdn" -o "$tmp/conv2.pdn" 2>"$tmp/err"
cmp -s "$tmp/conv.pdn" "$tmp/conv2.pdn" && ok || fail "convert is not a fixed point"

# A finished game: the result names the winner and is checked against the position.
cat >"$tmp/won.pdn" <<'PDN'
[Game "chinese-checkers"]
[FEN "A:A1-4,6-10,16:B57-66"]

1. 16-5 1-0

[Game "chinese-checkers"]
[FEN "A:A1-4,6-10,16:B57-66"]

1. 16-5 0-1
PDN
"$DAMIER" pdn check "$tmp/won.pdn" >"$tmp/out" 2>&1
matches "result checked" "$tmp/out" "won.pdn:9:9: game 2 \(\? - \?\): result 0-1: seat A has won in the final position"
has "won counts" "$tmp/out" "2 games, 1 legal, 1 with illegal moves, 0 unreadable"

# Bad records: what and where.
cat >"$tmp/bad.pdn" <<'PDN'
[Game "chinese-checkers"]

1. 112-103 10-1 *

[Game "halma"
[Board "8"]

1. a1-b2 *

[Game "halma"]
[Players "3"]

*

[Game "gewu"]

1. 5-6 *
PDN
"$DAMIER" pdn check "$tmp/bad.pdn" >"$tmp/out" 2>&1
rc=$?
[ $rc -eq 1 ] && ok || fail "check bad: exit $rc"
matches "bad move" "$tmp/out" '^.*bad.pdn:3:15: game 1 \(\? - \?\): move 2 10-1: .*10 cannot reach 1; position before: B:'
matches "bad tag" "$tmp/out" "bad.pdn:5:14: game 2, line 5, column 14: expected '\]' to end the tag"
matches "bad players" "$tmp/out" 'bad.pdn:10: game 3: halma is played by 2 players .*not 3'
matches "no throw" "$tmp/out" 'bad.pdn:17:4: game 4 .*no throw to play'
has "bad counts" "$tmp/out" "4 games, 0 legal, 2 with illegal moves, 2 unreadable"
"$DAMIER" pdn convert "$tmp/bad.pdn" >"$tmp/conv" 2>"$tmp/err"
rc=$?
[ $rc -eq 1 ] && ok || fail "convert bad: exit $rc"
matches "convert reports" "$tmp/err" "bad.pdn:3:15: game 1"

# A draughts file beside them still goes the draughts way.
printf '[Event "d"]\n[GameType "20"]\n\n1. 32-28 19-23 *\n' >"$tmp/draughts.pdn"
"$DAMIER" pdn check "$tmp/draughts.pdn" "$tmp/good.pdn" >"$tmp/out" 2>&1
has "mixed files" "$tmp/out" "4 games, 4 legal, 0 with illegal moves, 0 unreadable"
finish
