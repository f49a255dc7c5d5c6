#!/bin/bash
# SPDX-License-Identifier: MIT
# tests/cli/annotate.sh: damier annotate: the engine's marks and an evaluation after
# every move, as PDN that reads back as the same legal game; a blunder gets ??, a forced
# move *, the move that wins +; a bad
# move in the input is reported with file, line and column (exit 1), bad options exit 2.
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
DAMIER=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# a king put where a man takes it: 46-28 loses it, most other king moves keep it (the
# engine names one of them, which depends on the weights)
printf '[White "A"]\n[Black "B"]\n[FEN "W:WK46,50:B5,22"]\n\n1. 46-28 22x33 *\n' > "$tmp/blunder.pdn"
"$DAMIER" annotate "$tmp/blunder.pdn" > "$tmp/out.pdn" 2> "$tmp/err" && ok || fail "annotate exit $?"
matches "blunder marked" "$tmp/out.pdn" '^1\. 46-28\?\? \{-[0-9]+\.[0-9]{2}, best (46|50)-[0-9]+\} 1\.\.\. 22x33 \{-[0-9.]+\} \*$'
has "tags kept" "$tmp/out.pdn" '[White "A"]'

# a forced move (FMJD notation "*"): both captures take one man, but 44x33 loses by force
printf '[FEN "W:W23,44:B39,18"]\n\n1. 23x12 *\n' > "$tmp/forced.pdn"
"$DAMIER" annotate "$tmp/forced.pdn" > "$tmp/forced.out" 2> "$tmp/err" && ok || fail "annotate forced exit $?"
matches "forced move marked *" "$tmp/forced.out" '^1\. 23x12\* \{[-+][0-9.]+\} \*$'
printf '[FEN "W:W23,44:B39,18"]\n\n1. 44x33 *\n' > "$tmp/forced-not.pdn"
"$DAMIER" annotate "$tmp/forced-not.pdn" > "$tmp/forced-not.out" 2> "$tmp/err" && ok || fail "annotate exit $?"
matches "the losing one is not" "$tmp/forced-not.out" '^1\. 44x33\?\? \{Black wins, best 23x12\} \*$'

# a winning position (FMJD notation "+"): the first move after which the win is found,
# not the moves that keep it; a move that lets it go gets none
printf '[FEN "W:WK46,K50:B5"]\n\n1. 46-14 5-10 2. 14x5 *\n' > "$tmp/win.pdn"
"$DAMIER" annotate "$tmp/win.pdn" > "$tmp/win.out" 2> "$tmp/err" && ok || fail "annotate win exit $?"
matches "winning move marked +" "$tmp/win.out" \
    '^1\. 46-14\+ \{White wins\} 1\.\.\. 5-10 \{White wins\} 2\. 14x5 \{White wins\} 2-0$'
printf '[FEN "W:WK46,K50:B5"]\n\n1. 46-10 *\n' > "$tmp/nowin.pdn"
"$DAMIER" annotate "$tmp/nowin.pdn" > "$tmp/nowin.out" 2> "$tmp/err" && ok || fail "annotate exit $?"
# (46-14 and 46-41 both win at once: either may be named best)
matches "no + without the win" "$tmp/nowin.out" '^1\. 46-10\?\? \{\+0\.[0-9]{2}, best 46-(14|41)\} \*$'

# a whole game: one comment per move, marks from the set, and legal when read back
printf '[White "C"]\n[Black "D"]\n\n1. 31-27 17-21 2. 37-31 12-17 3. 42-37 17-22 4. 47-42 20-25 5. 34-30 25x34\n6. 39x30 19-24 7. 30x19 13x24 8. 33-29 24x33 9. 38x29 *\n' > "$tmp/game.pdn"
"$DAMIER" annotate --depth 4 "$tmp/game.pdn" > "$tmp/game.out" && ok || fail "annotate game exit $?"
# (a comment may be broken across lines by the writer: count on the joined text)
n=$(tr '\n' ' ' < "$tmp/game.out" | grep -o '{[^}]*}' | wc -l)
[ "$n" -eq 17 ] && ok || fail "17 comments expected, got $n"
bad=$(grep -oE '[0-9]+[-x][0-9]+[!?]+' "$tmp/game.out" | grep -vE '[0-9](!|!!|\?|\?\?|!\?|\?!)$' || true)
[ -z "$bad" ] && ok || fail "marks outside the set: $bad"
"$DAMIER" pdn check "$tmp/game.out" > "$tmp/check" && ok || fail "annotated game not legal"
has "read back" "$tmp/check" "1 games, 1 legal, 0 with illegal moves, 0 unreadable"

# a game of another variant (Russian, GameType 25): the same marks and comments, its
# algebraic squares and ':' captures kept, legal when read back
printf '[GameType "25"]\n\n1. c3-d4 f6-e5 2. d4xf6 g7xe5 *\n' > "$tmp/ru.pdn"
"$DAMIER" annotate --depth 4 "$tmp/ru.pdn" > "$tmp/ru.out" && ok || fail "annotate Russian exit $?"
has "Russian GameType" "$tmp/ru.out" '[GameType "25"]'
n=$(tr '\n' ' ' < "$tmp/ru.out" | grep -o '{[^}]*}' | wc -l)
[ "$n" -eq 4 ] && ok || fail "Russian: 4 comments expected, got $n"
# (a marked move's comment names the best move, in the variant's squares too)
matches "Russian moves" "$tmp/ru.out" '^1\. c3-d4[!?]* \{[-+][0-9.]+(, best [a-h][1-8][-:][a-h][1-8])?\} 1\.\.\. f6-e5[!?]* \{.*2\. d4:f6'
"$DAMIER" pdn check "$tmp/ru.out" > "$tmp/check" && ok || fail "annotated Russian game not legal"

# errors
printf '[White "E"]\n\n1. 32-28 28-23 *\n' > "$tmp/illegal.pdn"
"$DAMIER" annotate "$tmp/illegal.pdn" > "$tmp/o" 2> "$tmp/e"
[ $? -eq 1 ] && ok || fail "illegal move: exit 1 expected"
matches "where" "$tmp/e" "illegal.pdn:3:[0-9]+: .*28-23"
"$DAMIER" annotate --depth 0 "$tmp/game.pdn" > /dev/null 2>&1
[ $? -eq 2 ] && ok || fail "--depth 0: exit 2 expected"
"$DAMIER" annotate "$tmp/missing.pdn" > /dev/null 2>&1
[ $? -eq 2 ] && ok || fail "missing file: exit 2 expected"
finish
