#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/play_variants_tmux.sh: the one terminal game of every variant (issue 10) on
# a real terminal, 80x24 and 120x40, for international (10x10), Russian (8x8, files
# and ranks), English checkers (8x8, Black moves first) and Canadian (12x12): the
# board and its pieces, the clocks (only the side to move's runs), a move and the
# engine's reply, help on a screen of its own and the board back in place after it,
# resignation, review, a rematch with the sides swapped, the saved games named after
# the variant.
# Skipped (exit 77, CTest's SKIP_RETURN_CODE) when tmux is missing.
# Usage: bash play_variants_tmux.sh <damier binary> [<shared dir>]
set -u
DAMIER=${1:?usage: play_variants_tmux.sh <damier binary> [<shared dir>]}
DAMIER=$(cd "$(dirname "$DAMIER")" && pwd)/$(basename "$DAMIER")
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
tmux_setup

# The two clocks as the panel shows them, top player's first.
clocks() { screen "$1" | grep -oE 'clock [0-9:.]+' | tr '\n' ' '; }

# game NAME WIDTH HEIGHT VARIANT PIECES MOVE YOU ARGS...: a game of VARIANT against the
# engine at level 1; PIECES on the start board; the human (YOU: White or Black, at the
# bottom) plays MOVE, resigns, reviews, asks for a rematch and quits.
game() {
    local name=$1 w=$2 h=$3 v=$4 pieces=$5 move=$6 you=$7
    shift 7
    local engine_side=White
    [ "$you" = White ] && engine_side=Black
    tm new-session -d -s "$name" -x "$w" -y "$h" \
        "env LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=xterm-256color XDG_DATA_HOME=$tmp/$name \
         '$DAMIER' play --variant $v --level 1 --seed 3 --time 300 $*; echo EXITED \$?; sleep 60"
    expect "$name" 'Your move> *$'
    expect "$name" "^damier play . "
    expect "$name" "$you  you"
    expect "$name" "$engine_side  damier level 1"
    local n
    n=$(screen "$name" | grep -o '●' | wc -l)
    [ "$n" -eq "$pieces" ] && ok || fail "$name: $n pieces on the start board, expected $pieces"
    # the player's clock (the bottom one) runs, the engine's stands while it waits
    local c1 c2
    c1=$(clocks "$name")
    sleep 1.2
    c2=$(clocks "$name")
    [ "${c1%% clock*}" = "${c2%% clock*}" ] && ok || fail "$name: the waiting side's clock ran: $c1 / $c2"
    [ "${c1#* clock}" != "${c2#* clock}" ] && ok || fail "$name: the clock to move stood still: $c1 / $c2"
    send "$name" "$move"
    expect "$name" "Last move: 1\\.\\.\\. "
    expect "$name" "Move 2, $you to move"
    expect "$name" "damier level 1 played "
    # help has the screen to itself (its first line stays at the top), and the board
    # comes back where it was: the title on line 1, the top player on line 3
    send "$name" "help"
    expect "$name" 'quit +stop \(the game is saved\)'
    screen "$name" | head -1 | grep -q '^damier play: commands' && ok ||
        { fail "$name: the help's first line scrolled away:"; screen "$name" >&2; }
    send "$name" "board"
    expect "$name" "Move 2, $you to move"
    screen "$name" | sed -n 1p | grep -q '^damier play . ' && ok || fail "$name: title not on line 1"
    screen "$name" | sed -n 3p | grep -q "$engine_side  damier level 1" && ok ||
        { fail "$name: the board moved (line 3):"; screen "$name" >&2; }
    send "$name" "resign"
    expect "$name" "Game over: $engine_side wins"
    expect "$name" 'After the game> *$'
    send "$name" "review"
    expect "$name" 'Review: ply 0 of 2\.'
    n=$(screen "$name" | grep -o '●' | wc -l)
    [ "$n" -eq "$pieces" ] && ok || fail "$name: $n pieces at ply 0 of the review, expected $pieces"
    tm send-keys -t "$name" Enter
    expect "$name" "Review: ply 1 of 2 after 1\\. "
    send "$name" "done"
    send "$name" "rematch"
    expect "$name" "$engine_side  you"
    expect "$name" "$you  damier level 1"
    expect "$name" 'Your move> *$'
    send "$name" "quit"
    expect "$name" 'EXITED 0'
    n=$(ls "$tmp/$name"/damier/games/*.pdn 2>/dev/null | wc -l)
    [ "$n" -eq 2 ] && ok || fail "$name: $n saved games, expected 2 (the game, the rematch)"
    if [ "$v" != international ]; then
        n=$(ls "$tmp/$name"/damier/games/*-"$v".pdn 2>/dev/null | wc -l)
        [ "$n" -eq 2 ] && ok || fail "$name: the saved games are not named after $v"
    fi
    for f in "$tmp/$name"/damier/games/*.pdn; do
        "$DAMIER" pdn check "$f" >"$tmp/check" 2>&1 && ok || fail "$name: pdn check $f: $(cat "$tmp/check")"
    done
    tm kill-session -t "$name"
}

for size in 80x24 120x40; do
    w=${size%x*}
    h=${size#*x}
    game "intl-$size" "$w" "$h" international 40 32-28 White
    game "russian-$size" "$w" "$h" russian 24 c3-d4 White
    # Black moves first in English checkers: the player takes Black, at the bottom
    game "english-$size" "$w" "$h" english 24 11-15 Black --black
    game "canadian-$size" "$w" "$h" canadian 60 43-37 White
done
# Russian's board has files under it and ranks beside it
tm new-session -d -s files -x 80 -y 24 \
    "env LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=xterm-256color XDG_DATA_HOME=$tmp/files \
     '$DAMIER' play --variant russian --level 1; echo EXITED \$?; sleep 60"
expect files '^ +a +b +c +d +e +f +g +h *$'
expect files '^ 8 '
send files "flip"
expect files '^ +h +g +f +e +d +c +b +a *$'
expect files '^ 1 '
send files "quit"
expect files 'EXITED 0'

finish
