#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/play_tmux.sh: the interactive board of `damier play` on a real terminal:
# tmux runs it in a detached session of fixed size on a private server socket; keys
# are sent and the screen is read back with capture-pane. Checks the board, the
# panel, a move and the engine's reply, a wrong move's message, the numbers and flip
# commands, colours on and off (NO_COLOR), the clocks running while the engine thinks,
# review, rematch and a new game after a game ends, and that quit and Ctrl-C save the
# game.
# Skipped (exit 77, CTest's SKIP_RETURN_CODE) when tmux is missing.
# Usage: bash play_tmux.sh <damier binary> [<shared dir>]
set -u
DAMIER=${1:?usage: play_tmux.sh <damier binary> [<shared dir>]}
DAMIER=$(cd "$(dirname "$DAMIER")" && pwd)/$(basename "$DAMIER")
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
tmux_setup

# start NAME ENV...: damier play in session NAME, 100x32, UTF-8; the shell then
# prints "EXITED <status>" and stays so the screen can be read.
start() {
    local name=$1
    shift
    tm new-session -d -s "$name" -x 100 -y 32 \
        "env LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=xterm-256color XDG_DATA_HOME=$tmp/$name $* \
         '$DAMIER' play --level 2 --seed 3; echo EXITED \$?; sleep 60"
}

# ---- the board, a move, the reply --------------------------------------------------
start main
expect main 'damier play'
expect main 'Your move> *$'
expect main 'White  you'
expect main 'Black  damier level 2'
expect main 'Move 1, White to move'
# 20 black and 20 white men (colour mode draws both as discs); empty squares numbered
n=$(screen main | grep -o '●' | wc -l)
[ "$n" -eq 40 ] && ok || fail "main: $n pieces on the start board, expected 40"
expect main '^ +21 +22 +23 +24 +25'
expect main '^ +26 +27 +28 +29 +30'
# colours on: the board squares carry background colours
tm capture-pane -p -e -t main | grep -q $'\033\\[48;5;94m' && ok || fail "main: no board colours"

send main "32-28"
expect main 'Last move: 1\.\.\. [0-9]+-[0-9]+'
expect main 'Move 2, White to move'
expect main 'damier level 2 played [0-9]+-[0-9]+'
expect main 'Engine \(for Black\): [-+][0-9.]+ d[0-9]+ \| [0-9]'
# White's man went from 32 to 28 (Black's reply lands on 21-25: rows 6 and 7 are White's)
expect main '^ +26 +27 +● +29 +30'
expect main '^ +● +32 +● +● +●'
expect main 'captured 0'

# the last move is highlighted (its from and to squares get their own background)
tm capture-pane -p -e -t main | grep -q $'\033\\[48;5;136m' && ok || fail "main: last move not highlighted"

# undo takes back the move and the reply, and the engine's line about them goes too
send main "undo"
expect main 'undo: 2 plies taken back|2 plies taken back'
expect main 'Move 1, White to move'
expect_not main 'Engine \(for'
send main "32-28"
expect main 'Move 2, White to move'
expect main 'Engine \(for Black\): [-+][0-9.]+ d[0-9]+ \| [0-9]'

# the engine's line can be hidden and shown again; hint says whose score it gives
send main "engine"
expect main "the engine's line hidden"
expect_not main 'Engine \(for'
send main "engine"
expect main "the engine's line shown"
expect main 'Engine \(for Black\): '
send main "hint"
expect main 'Hint: [0-9]+[-x][0-9]+ score [-+][0-9.]+ depth [0-9]+ pv .*\(score for White\)'

send main "32-23"
expect main 'illegal move "32-23"'
expect main 'Move 2, White to move'

send main "numbers"
expect main 'square numbers hidden'
expect_not main '^ +26 +27'
send main "numbers"
expect main 'square numbers shown'

send main "flip"
expect main 'board flipped: Black at the bottom'
# flipped: White's side is the top panel line, square 50 top left (row 50-46)
expect main '^ +● +● +● +● +● +White  you'

send main "quit"
expect main 'Game saved to .*/damier/games/[0-9-]+\.pdn'
expect main 'EXITED 0'
ls "$tmp"/main/damier/games/*.pdn >/dev/null 2>&1 && ok || fail "main: no saved game"

# ---- 80x24: help after a move keeps to the screen, the clocks do not draw over it ----
tm new-session -d -s small -x 80 -y 24 \
    "env LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=xterm-256color XDG_DATA_HOME=$tmp/small \
     '$DAMIER' play --level 1 --seed 3 --time 300; echo EXITED \$?; sleep 60"
expect small 'Your move> *$'
send small "32-28"
expect small 'Move 2, White to move'
send small "help"
expect small 'quit +stop \(the game is saved\)'
sleep 1.5 # the clock ticks twice a second meanwhile
screen small | head -1 | grep -q '^damier play: commands' && ok || { fail "small: the help's first line scrolled away:"; screen small >&2; }
expect_not small 'clock [0-9]'
send small "board"
expect small 'Move 2, White to move'
expect small 'clock [0-9]'
send small "quit"
expect small 'EXITED 0'

# ---- after the game: review, rematch, a new game (issue 10: the program exited) -------
start after
expect after 'Your move> *$'
send after "32-28"
expect after 'Move 2, White to move'
send after "resign"
expect after 'Game over: Black wins'
expect after 'Type review, new, rematch or quit'
expect after 'Game saved to .*/damier/games/[0-9-]+\.pdn'
expect after 'After the game> *$'
send after "review"
expect after 'Review: ply 0 of 2\.'
n=$(screen after | grep -o '●' | wc -l)
[ "$n" -eq 40 ] && ok || fail "after: $n pieces at ply 0 of the review, expected 40"
tm send-keys -t after Enter
expect after 'Review: ply 1 of 2 after 1\. 32-28'
expect after 'Move: 1\. 32-28'
expect after '^ +26 +27 +● +29 +30'
send after "last"
expect after 'Review: ply 2 of 2 after 1\.\.\. [0-9]+-[0-9]+'
send after "prev"
expect after 'Review: ply 1 of 2'
send after "9"
expect after 'ply 9: the game has plies 0 to 2'
send after "done"
send after "bogus"
expect after "the game is over: 'bogus' is not one of review"
send after "rematch"
# the engine has White now and moves first; the board is seen from Black's side
expect after 'White  damier level 2'
expect after 'Black  you'
expect after 'Move 1, Black to move'
expect after '^ +● +● +● +● +● +White  damier level 2'
expect after 'Your move> *$'
send after "resign"
expect after 'Game over: White wins'
send after "new"
expect after 'Move 1, Black to move'
# side: the player takes White from the engine in the middle of the game (Black to
# move: the engine, now Black, answers at once)
send after "side"
expect after 'White  you'
expect after 'damier level 2 played [0-9]+-[0-9]+'
expect after 'Black  damier level 2'
expect after 'Move 2, White to move'
send after "quit"
expect after 'EXITED 0'
# the game, the rematch and the new game (the engine made its first move there)
n=$(ls "$tmp"/after/damier/games/*.pdn 2>/dev/null | wc -l)
[ "$n" -eq 3 ] && ok || fail "after: $n saved games, expected 3"
grep -l 'Result "0-2"' "$tmp"/after/damier/games/*.pdn >/dev/null 2>&1 && ok || fail "after: the first game's 0-2 is not saved"
grep -l 'Result "2-0"' "$tmp"/after/damier/games/*.pdn >/dev/null 2>&1 && ok || fail "after: the rematch's 2-0 is not saved"

# ---- NO_COLOR: no colour codes, pieces told apart by shape ---------------------------
start nocolor NO_COLOR=1
expect nocolor 'Your move> *$'
if tm capture-pane -p -e -t nocolor | grep -q $'\033\\[[34][0-9;]*m'; then
    fail "nocolor: colour escapes with NO_COLOR set"
else
    ok
fi
expect nocolor '○'
expect nocolor '●'
send nocolor "quit"
expect nocolor 'EXITED 0'

# ---- no UTF-8 locale: ASCII pieces; no colours: the last move in brackets ----------
start ascii LANG=C LC_ALL=C NO_COLOR=1
expect ascii 'Your move> *$'
send ascii "32-28"
expect ascii 'Move 2, White to move'
expect ascii '^ \| +b +b +b +b +b +\| +Black  damier level 2'
expect ascii '^ \|26 +27 +w +29 +30 +\|'
expect ascii '\[[.b]\]'
send ascii "quit"
expect ascii 'EXITED 0'

# ---- line editing (libedit): cursor keys edit the line, Up recalls the last one ------
if ldd "$DAMIER" 2>/dev/null | grep -q libedit; then
    start edit
    expect edit 'Your move> *$'
    # "3228", two steps left, "-": the move 32-28 (read raw, the arrows were garbage)
    tm send-keys -t edit "3228" Left Left "-" Enter
    expect edit 'Last move: 1\.\.\. [0-9]+-[0-9]+'
    expect edit 'Move 2, White to move'
    expect edit '^ +26 +27 +● +29 +30'
    # Up: the line entered before, 32-28, is illegal now (the man is on 28)
    tm send-keys -t edit Up Enter
    expect edit 'illegal move "32-28"'
    # the clock keeps ticking while a half-typed line waits, and the line survives it
    tm send-keys -t edit "33-2"
    sleep 1.2
    tm send-keys -t edit "9" Enter
    expect edit 'Move 3, White to move'
    send edit "quit"
    expect edit 'EXITED 0'
    f=$(ls "$tmp"/edit/damier/games/*.pdn 2>/dev/null | head -1)
    if [ -n "$f" ] && grep -qE '^1\. 32-28 [0-9]+-[0-9]+ 2\. 33-29 ' "$f"; then ok; else
        fail "edit: saved game does not hold 32-28 and 33-29: $(cat "$f" 2>/dev/null)"
    fi
else
    echo "note: $DAMIER built without libedit: line editing not checked"
fi

# ---- the engine's clock runs on screen while it thinks (issue 10: it stayed frozen,
# then jumped) ------------------------------------------------------------------------
tm new-session -d -s think -x 100 -y 32 \
    "env LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=xterm-256color XDG_DATA_HOME=$tmp/think \
     '$DAMIER' play --black --level 10 --time 300; echo EXITED \$?; sleep 60"
expect think 'is thinking'
clocks() { screen think | grep -oE 'clock [0-9:.]+' | tr '\n' ' '; }
c1=$(clocks)
sleep 2.2
if screen think | grep -q 'is thinking'; then
    c2=$(clocks)
    [ "$c1" != "$c2" ] && ok || fail "think: the clocks stood still while the engine thought: $c1"
else
    echo "note: the engine answered within 2 s; the running clock was not seen" >&2
    ok
fi
expect think 'Your move> *$'
send think "quit"
expect think 'EXITED 0'

# ---- Ctrl-C saves -------------------------------------------------------------------
start sigint
expect sigint 'Your move> *$'
send sigint "33-28"
expect sigint 'Move 2, White to move'
tm send-keys -t sigint C-c
expect sigint 'Game saved to .*/damier/games/[0-9-]+\.pdn'
expect sigint 'EXITED 130'
f=$(ls "$tmp"/sigint/damier/games/*.pdn 2>/dev/null | head -1)
if [ -n "$f" ] && grep -qE '^1\. 33-28 [0-9]+-[0-9]+ \*' "$f"; then ok; else fail "sigint: saved game"; fi

finish
