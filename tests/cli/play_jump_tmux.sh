#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/play_jump_tmux.sh: `damier play --game` (the jumping games, play_jump.c)
# on a real terminal: tmux runs it detached at a fixed size on a private socket; keys
# are sent and the screen read back. A 3-player Chinese checkers game (one human, two
# engines): the star drawn with one colour per seat (and plain letters with
# NO_COLOR), a move and both engines' replies, a wrong move's message, quit saves the
# game, and `damier pdn check` reads the saved game as legal. A 2-player Halma game
# on 8x8 the same way. Then the plain mode (no terminal) of a Ge Wu game between two
# engines to its end. Skipped (exit 77) when tmux is missing.
set -u
DAMIER=${1:?usage: play_jump_tmux.sh <damier binary>}
DAMIER=$(cd "$(dirname "$DAMIER")" && pwd)/$(basename "$DAMIER")
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
tmux_setup
wait_tries=150

# start NAME ENV ARGS...: damier play ARGS in session NAME (100x45); the shell then
# prints "EXITED <status>" and stays so the screen can be read.
start() {
    local name=$1 env=$2
    shift 2
    tm new-session -d -s "$name" -x 100 -y 45 \
        "env LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=xterm-256color XDG_DATA_HOME=$tmp/$name $env \
         '$DAMIER' play $*; echo EXITED \$?; sleep 60"
}
saved_legal() { # NAME: the saved game reads back legal
    local f
    f=$(find "$tmp/$1" -name '*.pdn' | head -1)
    if [ -z "$f" ]; then
        fail "$1: no saved game"
        return
    fi
    "$DAMIER" pdn check "$f" >"$tmp/$1.check" 2>&1
    has "$1 saved game" "$tmp/$1.check" "1 games, 1 legal, 0 with illegal moves, 0 unreadable"
}

# ---- Chinese checkers, 3 players ------------------------------------------------
start cc "" --game chinese-checkers --players 3 --seats human,engine,engine --level 2
expect cc "A \(red\) to move>"
expect cc "^ +11 B B B B \. \. \. \. \. C C C C +23$"
expect cc "^ +121 +A +121$"
if tm capture-pane -e -p -t cc | grep -q '31mA'; then ok; else fail "cc: no red A"; fi
if tm capture-pane -e -p -t cc | grep -q '34mB'; then ok; else fail "cc: no blue B"; fi
tm send-keys -t cc "112-99" Enter
expect cc "error: move \"112-99\": 112 cannot reach 99"
tm send-keys -t cc "112-103" Enter
expect cc "^A plays 112-103$"
expect cc "^B plays [0-9]+-"
expect cc "^C plays [0-9]+-"
tm send-keys -t cc "quit" Enter
expect cc "saved: .*chinese-checkers\.pdn"
expect cc "EXITED 0"
saved_legal cc

start nc "NO_COLOR=1" --game chinese-checkers --players 3 --seats human,engine,engine
expect nc "A \(human\) to move>"
if tm capture-pane -e -p -t nc | grep -q $'\033\[1;3'; then fail "nc: colours with NO_COLOR"; else ok; fi
tm send-keys -t nc "quit" Enter
expect nc "EXITED 0"

# ---- Halma, 2 players, 8x8 --------------------------------------------------------
start ha "" --game halma --board 8 --seats human,engine --level 2
expect ha "A \(red\) to move>"
expect ha "^ +1 +A A A A \. \. \. \. *$"
expect ha "^ +a b c d e f g h$"
tm send-keys -t ha "moves" Enter
expect ha "moves: a1-c3 "
tm send-keys -t ha "c1-e1" Enter
expect ha "^A plays c1-e1$"
expect ha "^B plays [a-h][0-9]+-"
tm send-keys -t ha "quit" Enter
expect ha "EXITED 0"
saved_legal ha

# ---- Ge Wu in plain mode, two engines to the end --------------------------------------
XDG_DATA_HOME=$tmp/gw "$DAMIER" play --game gewu --seats engine,engine --seed 7 --level 3 \
    </dev/null >"$tmp/gw.out" 2>&1
matches "gewu throws" "$tmp/gw.out" "^throw: W (wu|sai|bai|hei)$"
matches "gewu result" "$tmp/gw.out" "^result: (1-0 W|0-1 B) wins$"
saved_legal gw

# ---- the capture puzzle (--options capture, one player) in plain mode -------------
printf '63-61\n61-63\nquit\n' | XDG_DATA_HOME=$tmp/cap "$DAMIER" play --plain \
    --game chinese-checkers --players 1 --options capture >"$tmp/cap.out" 2>&1
has "capture move" "$tmp/cap.out" "move: A 63-61"
matches "capture refused" "$tmp/cap.out" '^error: move "61-63": 61 cannot reach 63'
saved_legal cap
finish
