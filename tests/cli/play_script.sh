#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/play_script.sh: `damier play` driven by a script (plain mode, piped input):
# a whole short game with a wrong move, a hint, an undo, a draw offer and a
# resignation; the saved PDN (readable by `damier pdn check`, moves as played);
# determinism with --seed; compulsory-capture and ambiguity messages; draws (agreed,
# by the rules); end of input and Ctrl-C both save; save/load; option errors.
# Usage: bash play_script.sh <damier binary> [<shared dir>]
set -u
DAMIER=${1:?usage: play_script.sh <damier binary> [<shared dir>]}
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
tmp=$(mktemp -d)
bgpid=
cleanup() {
    if [ -n "$bgpid" ]; then kill "$bgpid" 2>/dev/null; fi
    rm -rf "$tmp"
}
trap cleanup EXIT

# play NAME INPUT ARGS...: run damier play with XDG_DATA_HOME=$tmp/NAME, input piped;
# output in $tmp/NAME.out, stderr in $tmp/NAME.err, exit status in $rc.
play() {
    local name=$1 input=$2
    shift 2
    rc=0
    printf '%s' "$input" | XDG_DATA_HOME="$tmp/$name" HOME="$tmp/home" \
        "$DAMIER" play "$@" >"$tmp/$name.out" 2>"$tmp/$name.err" || rc=$?
}

# the one saved game of run NAME
saved_file() {
    ls "$tmp/$1"/damier/games/*.pdn 2>/dev/null | head -1
}

# ---- 1. a whole short game --------------------------------------------------------
game_input='32-23
32-28
hint
undo
moves
34-29
board
help
draw
resign
'
play game "$game_input" --level 3 --seed 7
out=$tmp/game.out
[ "$rc" -eq 0 ] && ok || fail "game: exit $rc: $(cat "$tmp/game.err")"
[ -s "$tmp/game.err" ] && fail "game: stderr: $(cat "$tmp/game.err")" || ok
if grep -q $'\033' "$out"; then fail "game: escape codes in plain mode"; else ok; fi
has game "$out" "white: human"
has game "$out" "black: engine level 3 depth 3"
has game "$out" "variant: international"
has game "$out" "time: -"
has game "$out" "seed: 7"
has game "$out" "fen: W:W31-50:B1-20"
[ "$(sed -n 7p "$out")" = "turn: 1 white" ] && ok || fail "game: line 7 is not 'turn: 1 white'"
# the wrong move: its reason, then the same question again, nothing else
matches game "$out" '^error: illegal move "32-23": '
after game "$out" "$(grep -m1 '^error: illegal move "32-23"' "$out")" "turn: 1 white"
after game "$out" "move: 1. 32-28" "$(grep -m1 '^engine: ' "$out")"
# every engine line's PV starts with the move the engine then plays
grep -A1 '^engine: ' "$out" | grep -v '^--$' | paste - - | while IFS=$'\t' read -r e m; do
    first=$(echo "$e" | sed -E 's/.* pv ([^ ]+).*/\1/')
    played=$(echo "$m" | awk '{print $3}')
    [ "$first" = "$played" ] || echo "engine line '$e' but played '$m'"
done >"$tmp/pvcheck"
[ -s "$tmp/pvcheck" ] && fail "game: $(cat "$tmp/pvcheck")" || ok
matches game "$out" '^engine: score [-+][0-9]+\.[0-9]{2} depth [0-9]+ pv [0-9]+[-x][0-9]+'
matches game "$out" '^hint: [0-9]+[-x][0-9]+ score [-+][0-9]+\.[0-9]{2} depth [0-9]+ pv [0-9]'
after game "$out" "undo: 2 plies taken back" "turn: 1 white"
has game "$out" "moves: 31-26 31-27 32-27 32-28 33-28 33-29 34-29 34-30 35-30"
has game "$out" "move: 1. 34-29"
[ "$(grep -c '^board: ' "$out")" -eq 10 ] && ok || fail "game: board is not 10 lines"
matches game "$out" '^board:  w   w   w   w   w     46-50$'
matches game "$out" '^help:   undo '
has game "$out" "draw: declined: the position is still alive"
has game "$out" "result: 0-2 resignation"
matches game "$out" "^saved: $tmp/game/damier/games/[0-9]{8}-[0-9]{6}\\.pdn\$"
pdn=$(saved_file game)
if [ -z "$pdn" ]; then
    fail "game: no PDN saved under \$XDG_DATA_HOME/damier/games"
else
    has game-pdn "$pdn" '[Result "0-2"]'
    has game-pdn "$pdn" '[Termination "resignation"]'
    has game-pdn "$pdn" '[Black "damier (level 3)"]'
    has game-pdn "$pdn" '[GameType "20"]'
    # the movetext is the moves announced after the undo, then the result
    want=$(awk '/^undo: /{n=0; delete mv} /^move: /{mv[++n]=$2" "$3} END{for(i=1;i<=n;i++) printf "%s ", mv[i]}' "$out" |
        sed -E 's/ [0-9]+\.\.\. / /g')"0-2"
    got=$(sed -n '/^$/,$p' "$pdn" | tr '\n' ' ' | sed -E 's/  +/ /g; s/^ //; s/ $//')
    [ "$got" = "$want" ] && ok || fail "game-pdn: movetext '$got', expected '$want'"
    "$DAMIER" pdn check "$pdn" >"$tmp/check.out" 2>&1 && ok || fail "game-pdn: pdn check failed"
    has game-pdn "$tmp/check.out" "1 games, 1 legal, 0 with illegal moves, 0 unreadable"
fi
# determinism: the same input and seed give the same game
play game2 "$game_input" --level 3 --seed 7
if diff <(grep -v '^saved: ' "$tmp/game.out") <(grep -v '^saved: ' "$tmp/game2.out") >/dev/null; then
    ok
else
    fail "determinism: two runs with --seed 7 differ"
fi

# ---- 2. errors that change nothing -------------------------------------------------
play capture '33-29
32x23
quit
' --human-vs-human --fen "W:W32,33,38:B28,18,10"
has capture "$tmp/capture.out" 'error: illegal move "33-29": capture is compulsory (FMJD 4.1): 2 pieces can be captured with 32x12, 33x13'
matches capture "$tmp/capture.out" '^error: illegal move "32x23": the majority rule .*32x12, 33x13'
has capture "$tmp/capture.out" "info: no move played; nothing saved"
[ -z "$(saved_file capture)" ] && ok || fail "capture: a game without moves was saved"

play ambiguous '43x1
43x27x1
resign
' --human-vs-human --fen "W:WK43:B7,17,22,32"
matches ambiguous "$tmp/ambiguous.out" '^error: ambiguous move "43x1": 2 legal moves match .*43x27x18x1.*43x21x12x1'
has ambiguous "$tmp/ambiguous.out" "move: 1. 43x27x18x1"
has ambiguous "$tmp/ambiguous.out" "turn: 1 black"
has ambiguous "$tmp/ambiguous.out" "result: 2-0 resignation"

# ---- 2b. the move list and the level during a game ---------------------------------
play hist "$(printf '32-28\nhistory\nlevel 3\nlevel 11\nlevel\n33-29\nhistory\nquit\n')" \
    --level 1 --seed 3
out=$tmp/hist.out
[ "$rc" -eq 0 ] && ok || fail "hist: exit $rc: $(cat "$tmp/hist.err")"
matches hist "$out" '^history: 1\. 32-28 [0-9]+-[0-9]+$'
has hist "$out" "level: 3"
has hist "$out" "error: level 11: the levels are 1 to 10"
has hist "$out" "error: level needs a number: level N"
# level 1 searches depth 2, level 3 depth 3 (play_level_get): the second reply is level 3's
matches hist "$out" '^engine: score [-+][0-9.]+ depth 2 '
matches hist "$out" '^engine: score [-+][0-9.]+ depth 3 '
matches hist "$out" '^history: 1\. 32-28 [0-9]+-[0-9]+ 2\. 33-29 [0-9]+-[0-9]+$'

# ---- 3. draws ---------------------------------------------------------------------
play hvhdraw '32-28
draw
19-23
draw
' --human-vs-human
has hvhdraw "$tmp/hvhdraw.out" "draw: offered by black; after black's move white accepts with draw or declines with a move"
has hvhdraw "$tmp/hvhdraw.out" "draw: accepted by white"
has hvhdraw "$tmp/hvhdraw.out" "result: 1-1 draw by agreement"
has hvhdraw-pdn "$(saved_file hvhdraw)" '[Termination "draw by agreement"]'

play hvhdecline 'draw
32-28
19-23
quit
' --human-vs-human
after hvhdecline "$tmp/hvhdecline.out" "move: 1... 19-23" "draw: declined by black (a move was played)"

play enginedraw 'draw
' --fen "W:WK47:BK4" --level 3 --seed 1
matches enginedraw "$tmp/enginedraw.out" '^draw: accepted: level position'
has enginedraw "$tmp/enginedraw.out" "result: 1-1 draw by agreement"

play rules '' --auto --fen "W:WK47:BK4" --level 6 --depth 4
matches rules "$tmp/rules.out" '^result: 1-1 (5-move rule|threefold repetition)$'

# the game ends by itself: no pieces left, no legal move (FMJD 7.2)
play nopieces '28x19
' --human-vs-human --fen "W:W28:B23"
has nopieces "$tmp/nopieces.out" "result: 2-0 no pieces left"
play blocked '' --human-vs-human --fen "B:W50:B45"
has blocked "$tmp/blocked.out" "result: 2-0 no legal move"
has blocked-pdn "$(saved_file blocked)" '[Termination "no legal move"]'

# help's example move is the variant's notation (Russian: algebraic squares)
play helpru 'help
quit
' --human-vs-human --variant russian
matches helpru "$tmp/helpru.out" "^help: Type a move in this game's notation, e.g. [a-h][1-8]-[a-h][1-8];"

# neither side can win (FMJD 7.3), proved by the endgame database (--egdb): a king
# against a king that the database draws ends at once; one it wins (46 against 5:
# White must move onto the long diagonal and be taken) plays on, and the capture after
# 46-41 is no draw either.
"$DAMIER" egdb gen --pieces 2 --dir "$tmp/egdb2" >/dev/null 2>&1 || fail "egdb gen"
play nowin '' --human-vs-human --fen "W:WK47:BK3" --egdb "$tmp/egdb2"
has nowin "$tmp/nowin.out" "result: 1-1 neither side can win"
has nowin-pdn "$(saved_file nowin)" '[Termination "neither side can win"]'
out=$("$DAMIER" pdn check "$(saved_file nowin)" | tail -1)
[ "$out" = "1 games, 1 legal, 0 with illegal moves, 0 unreadable" ] && ok || fail "nowin PDN: $out"
play nowin2 '46-41
quit
' --human-vs-human --fen "W:WK46:BK5" --egdb "$tmp/egdb2"
has nowin2 "$tmp/nowin2.out" "move: 1. 46-41"
grep -q '^result: ' "$tmp/nowin2.out" && fail "nowin2: ended: $(cat "$tmp/nowin2.out")" || ok
play nowin3 '' --human-vs-human --fen "W:WK47:BK3"
grep -q '^result: ' "$tmp/nowin3.out" && fail "nowin3: ended without a database" || ok

# loss on time (FMJD 9): the flag falls while the player thinks, with nobody pressing
mkfifo "$tmp/fifo2"
XDG_DATA_HOME="$tmp/flag" "$DAMIER" play --human-vs-human --time 0.3 <"$tmp/fifo2" \
    >"$tmp/flag.out" 2>&1 &
bgpid=$!
exec 4>"$tmp/fifo2"
for _ in $(seq 50); do
    grep -q '^result: ' "$tmp/flag.out" && break
    sleep 0.1
done
exec 4>&-
wait "$bgpid"
bgpid=
has flag "$tmp/flag.out" "time: 0.3"
has flag "$tmp/flag.out" "result: 0-2 loss on time"

# ---- 4. nothing is lost: end of input, Ctrl-C ---------------------------------------
play eof '32-28
' --level 2 --seed 1
has eof "$tmp/eof.out" "info: end of input; the game is unfinished"
has eof-pdn "$(saved_file eof)" '[Result "*"]'
matches eof-pdn "$(saved_file eof)" '^1\. 32-28 [0-9]+-[0-9]+ \*$'

mkfifo "$tmp/fifo"
XDG_DATA_HOME="$tmp/sigint" "$DAMIER" play --level 2 --seed 1 <"$tmp/fifo" >"$tmp/sigint.out" 2>&1 &
bgpid=$!
exec 3>"$tmp/fifo"
echo 32-28 >&3
for _ in $(seq 100); do
    grep -q '^turn: 2 white' "$tmp/sigint.out" && break
    sleep 0.1
done
kill -INT "$bgpid"
rc=0
wait "$bgpid" || rc=$?
bgpid=
exec 3>&-
[ "$rc" -eq 130 ] && ok || fail "sigint: exit $rc, expected 130"
has sigint "$tmp/sigint.out" "info: interrupted; the game is unfinished"
matches sigint-pdn "$(saved_file sigint)" '^1\. 32-28 [0-9]+-[0-9]+ \*$'

# ---- 5. save and load ---------------------------------------------------------------
play save "32-28
19-23
save $tmp/mine.pdn
quit
" --human-vs-human
has save "$tmp/save.out" "saved: $tmp/mine.pdn"
matches save-pdn "$tmp/mine.pdn" '^1\. 32-28 19-23 \*$'
play load "load $tmp/mine.pdn
28x19
quit
" --human-vs-human
has load "$tmp/load.out" "loaded: $tmp/mine.pdn, 2 plies"
after load "$tmp/load.out" "loaded: $tmp/mine.pdn, 2 plies" "turn: 2 white"
has load "$tmp/load.out" "move: 2. 28x19"
play loadbad "load $tmp/nonexistent.pdn
quit
" --human-vs-human
matches loadbad "$tmp/loadbad.out" "^error: cannot open $tmp/nonexistent.pdn"
# a game of another variant reads as that variant's game (its GameType) and goes on in
# its rules and notation, in the one game of every variant
printf '[GameType "25"]\n1. c3-d4 f6-g5 *\n' > "$tmp/russian.pdn"
play loadvar "load $tmp/russian.pdn
b2-c3
board
quit
" --human-vs-human
has loadvar "$tmp/loadvar.out" "loaded: $tmp/russian.pdn, 2 plies"
has loadvar "$tmp/loadvar.out" "move: 2. b2-c3"
has loadvar "$tmp/loadvar.out" "board:  a b c d e f g h"
matches loadvar "$tmp/loadvar.out" "^saved: .*-russian\\.pdn\$"

# ---- 6. options ---------------------------------------------------------------------
play tc 'quit
' --black --level 2 --seed 1 --time 40/60
has tc "$tmp/tc.out" "time: 40/60"
# Black's clock has run since White's move when the line is printed: a loaded machine
# can take a millisecond, and the display shows whole seconds left (rounded down).
matches tc "$tmp/tc.out" '^clock: white [0-9:.]+ \(39 to go\) black (1:00|0:59) \(40 to go\)$'
has tc-pdn "$(saved_file tc)" '[TimeControl "40/60"]'

play handicap 'quit
' --black --handicap 2 --level 1 --seed 1
has handicap "$tmp/handicap.out" "fen: W:W31-45,48-50:B1-20"

# A word that cannot be a move is an unknown command, not an illegal move (issue 10).
play unknown 'histroy
quit
' --human-vs-human
has unknown "$tmp/unknown.out" "error: unknown command 'histroy' (type help for the commands)"
if grep -q '^error: illegal move' "$tmp/unknown.out"; then fail "unknown: read as a move"; else ok; fi

rejects play "--level 11" "--level x" "--depth 0" "--time 1x" "--fen W:W99" \
    "--handicap 3 --fen W:W31-50:B1-20" "--auto --human-vs-human" "--white --black" "extra"

finish
