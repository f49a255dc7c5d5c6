#!/usr/bin/env bash
# `damier perft|moves --variant NAME`: published perft counts through the CLI, the
# 8x8 notations, and a clear error for an unknown variant name.
# Usage: bash variants.sh <damier binary> <shared dir>
set -u
bin=$1
fail=0
check() { # name expected actual
    if [ "$2" != "$3" ]; then
        echo "FAIL $1: expected [$2] got [$3]"
        fail=1
    fi
}
check "russian perft 5" "7482" "$("$bin" perft --variant russian 5 | awk '$1 == 5 {print $2}')"
check "english perft 5" "7361" "$("$bin" perft --variant english 5 | awk '$1 == 5 {print $2}')"
check "brazilian perft 5" "7473" "$("$bin" perft --variant brazilian 5 | awk '$1 == 5 {print $2}')"
check "canadian perft 3" "1222" "$("$bin" perft --variant canadian 3 | awk '$1 == 3 {print $2}')"
check "antidraughts perft 3" "658" "$("$bin" perft --variant antidraughts 3 | awk '$1 == 3 {print $2}')"
check "international unchanged" "$("$bin" perft 4 | cut -d' ' -f1,2)" \
    "$("$bin" perft --variant international 4 | cut -d' ' -f1,2)"
check "international moves" "$("$bin" moves)" "$("$bin" moves --variant international)"
check "russian moves" "a3-b4 c3-b4 c3-d4 e3-d4 e3-f4 g3-f4 g3-h4 7 moves" \
    "$("$bin" moves --variant russian | paste -sd' ' -)"
check "russian numeric" "21-17 22-17 22-18 23-18 23-19 24-19 24-20 7 moves" \
    "$("$bin" moves --variant russian --squares numeric | paste -sd' ' -)"
check "english first mover" "9-13 9-14 10-14 10-15 11-15 11-16 12-16 7 moves" \
    "$("$bin" moves --variant english | paste -sd' ' -)"
check "russian capture" "a3:e7 h2:f4" \
    "$("$bin" moves --variant russian --fen 'W:Wa3,h2:Bb4,d6,g3' | head -2 | paste -sd' ' -)"
check "brazilian majority" "a3xe7 1 moves" \
    "$("$bin" moves --variant brazilian --fen 'W:Wa3,h2:Bb4,d6,g3' | paste -sd' ' -)"
err=$("$bin" moves --variant armenian 2>&1 >/dev/null); rc=$?
check "unknown variant rc" "2" "$rc"
case "$err" in
*"unknown variant 'armenian'"*international*brazilian*russian*english*canadian*antidraughts*) ;;
*) echo "FAIL unknown variant message: $err"; fail=1 ;;
esac
"$bin" perft --variant nope 2 >/dev/null 2>&1
check "perft unknown variant rc" "2" "$?"

# the variants added with issue 9: dctl's published perft (tests/perft/published_perft.h)
check "czech perft 9" "3963671" "$("$bin" perft --variant czech 9 | awk '$1 == 9 {print $2}')"
check "italian perft 9" "3860875" "$("$bin" perft --variant italian 9 | awk '$1 == 9 {print $2}')"
check "spanish perft 9" "3860866" "$("$bin" perft --variant spanish 9 | awk '$1 == 9 {print $2}')"
check "pool perft 8" "929896" "$("$bin" perft --variant pool 8 | awk '$1 == 8 {print $2}')"
check "thai rules 12 men perft 9" "3963648" \
    "$("$bin" perft --variant thai --fen 'W:W1-12:B21-32' 9 | awk '$1 == 9 {print $2}')"
check "killer random178 perft 4" "5165" "$("$bin" perft --variant killer \
    --fen 'B:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46:BK17,K24' 4 | awk '$1 == 4 {print $2}')"
# Italian squares: numeric from a8 (the turned board), sorted by those numbers
check "italian moves" "21-17 21-18 22-18 22-19 23-19 23-20 24-20 7 moves" \
    "$("$bin" moves --variant italian | paste -sd' ' -)"
check "italian algebraic" "b3-a4 b3-c4 d3-c4 d3-e4 f3-e4 f3-g4 h3-g4 7 moves" \
    "$("$bin" moves --variant italian --squares algebraic | paste -sd' ' -)"
check "spanish moves" "9-13 10-13 10-14 11-14 11-15 12-15 12-16 7 moves" \
    "$("$bin" moves --variant spanish | paste -sd' ' -)"
check "czech king first" "h8xf6 h8xe5 h8xd4 h8xc3 h8xb2 h8xa1 6 moves" \
    "$("$bin" moves --variant czech --fen 'W:WKh8,g3:Bg7,f4' | paste -sd' ' -)"
check "killer halt" "46x32 1 moves" "$("$bin" moves --variant killer --fen 'W:WK46:BK37' | paste -sd' ' -)"
check "pool black first" "9-13 9-14 10-14 10-15 11-15 11-16 12-16 7 moves" \
    "$("$bin" moves --variant pool | paste -sd' ' -)"
# Portuguese: Spanish rules on the same turned board (PDN 28 and 24 share N1,1)
check "portuguese perft 9" "3860866" "$("$bin" perft --variant portuguese 9 | awk '$1 == 9 {print $2}')"
check "portuguese moves" "9-13 10-13 10-14 11-14 11-15 12-15 12-16 7 moves" \
    "$("$bin" moves --variant portuguese | paste -sd' ' -)"
# Turkish: 64 squares, orthogonal; kish's perft (every path counted) equals damier's
# to depth 6 (docs/VARIANT_PERFT.md)
check "turkish perft 6" "931312" "$("$bin" perft --variant turkish 6 | awk '$1 == 6 {print $2}')"
check "turkish moves" "a3-a4 b3-b4 c3-c4 d3-d4 e3-e4 f3-f4 g3-g4 h3-h4 8 moves" \
    "$("$bin" moves --variant turkish | paste -sd' ' -)"
check "turkish numeric" "41-33 42-34" "$("$bin" moves --variant turkish --squares numeric | head -2 | paste -sd' ' -)"
# a king flies along a5 and the fifth rank, pieces leave as they are jumped: the
# majority rule takes three (a4, d5, e6), landing on e7 or e8
check "turkish king majority" "a1xe8 a1xe7 2 moves" \
    "$("$bin" moves --variant turkish --fen 'W:Wd4,Ka1:Bd5,c6,a4,a6,e6' | paste -sd' ' -)"
check "turkish man promotes at the end" "d4xd8 1 moves" \
    "$("$bin" moves --variant turkish --fen 'W:Wd4,Kd1:Bd5,d7,b5' | paste -sd' ' -)"
err=$("$bin" moves --variant turkish --fen 'W:Wi3:B1' 2>&1 >/dev/null)
case "$err" in
*"'i3' is not a square of turkish (1-64 or a1-h8)"*) ;;
*) echo "FAIL turkish bad FEN message: $err"; fail=1 ;;
esac
# the terminal board of the full 8x8 board: every square, rank 8 empty, men on 6-7 (the
# plain board of every variant: the squares, then the rank)
check "turkish board" "board:  . . . . . . . .   8 board:  b b b b b b b b   7" \
    "$(printf 'board\nquit\n' | "$bin" play --plain --variant turkish 2>&1 | grep '^board' | head -2 |
        paste -sd' ' -)"
check "breakthrough over" "0 moves" "$("$bin" moves --variant breakthrough --fen 'B:WK1:B45' | paste -sd' ' -)"
# the terminal game: engine against engine, the saved game replays legal
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for v in czech italian killer breakthrough spanish pool thai frisian frysk portuguese turkish; do
    out=$(printf '' | HOME="$tmp" "$bin" play --plain --auto --variant "$v" --depth 2 --seed 1 \
        --save-dir "$tmp/$v" 2>&1)
    case "$out" in
    *"result: "*) ;;
    *) echo "FAIL play $v: no result: $(echo "$out" | tail -3)"; fail=1 ;;
    esac
    check "play $v saved game" "1 games, 1 legal, 0 with illegal moves, 0 unreadable" \
        "$("$bin" pdn check "$tmp/$v"/*.pdn | tail -1)"
done
check "breakthrough ends at the first king" "1" \
    "$(printf '' | HOME="$tmp" "$bin" play --plain --auto --variant breakthrough --depth 2 --seed 1 \
        --save-dir "$tmp/b2" 2>&1 | grep -c 'first king (breakthrough)')"
exit $fail
