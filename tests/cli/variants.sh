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
err=$("$bin" moves --variant frisian 2>&1 >/dev/null); rc=$?
check "unknown variant rc" "2" "$rc"
case "$err" in
*"unknown variant 'frisian'"*international*brazilian*russian*english*canadian*antidraughts*) ;;
*) echo "FAIL unknown variant message: $err"; fail=1 ;;
esac
"$bin" perft --variant nope 2 >/dev/null 2>&1
check "perft unknown variant rc" "2" "$?"
exit $fail
