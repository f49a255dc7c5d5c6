#!/usr/bin/env bash
# `damier analyse --variant NAME`: the one engine analyses every variant in the
# variant's notation: Russian multi-PV lines of legal moves from the start, a forced
# English capture, antidraughts giving its last man away (a win), Canadian on 12x12;
# clear errors for a bad FEN of the variant, an unknown variant, and --egdb for a
# variant without endgame databases (international, Brazilian, Russian and English
# have them: tests/cli/egdb8.sh).
# Usage: bash analyse_variants.sh <damier binary>
set -u
bin=$1
fail=0
check() { # name expected actual
    if [ "$2" != "$3" ]; then
        echo "FAIL $1: expected [$2] got [$3]"
        fail=1
    fi
}
has() { # name pattern text
    if ! grep -Eq -- "$2" <<<"$3"; then
        echo "FAIL $1: no line matching /$2/ in:"
        echo "$3"
        fail=1
    fi
}

out=$("$bin" analyse --variant russian --depth 6 --multipv 2)
check "russian rc" 0 $?
check "russian lines at depth 6" 2 "$(grep -c '^depth 6 multipv [12] ' <<<"$out")"
legal=$("$bin" moves --variant russian | sed '$d')
best=$(sed -n 's/^bestmove \([^ ]*\).*/\1/p' <<<"$out")
grep -qx -- "$best" <<<"$legal" || { echo "FAIL russian: bestmove '$best' is not legal"; fail=1; }
for k in 1 2; do
    first=$(grep "^depth 6 multipv $k " <<<"$out" | sed 's/.* pv \([^ ]*\).*/\1/')
    grep -qx -- "$first" <<<"$legal" || { echo "FAIL russian line $k: '$first' not legal"; fail=1; }
done
has "russian algebraic" '^depth 1 (multipv 1 )?seldepth [0-9]+ score -?[0-9]+ .* pv [a-h][1-8]-[a-h][1-8]' "$out"

out=$("$bin" analyse --variant english --fen "B:W18:B14" --depth 5)
has "english forced capture" '^bestmove 14x23$' "$out"
has "english win" 'score win 1 ' "$out"

anti="W:W37:B28" # antidraughts: 37-32 gives the last man away and wins
out=$("$bin" analyse --variant antidraughts --fen "$anti" --depth 3)
has "antidraughts gives away" '^bestmove 37-32' "$out"
has "antidraughts win" 'score win 2 ' "$out"

out=$("$bin" analyse --variant canadian --depth 3)
check "canadian rc" 0 $?
has "canadian bestmove" '^bestmove [0-9]+-[0-9]+' "$out"

err=$("$bin" analyse --variant russian --fen "W:Wz9" 2>&1 >/dev/null)
check "bad fen rc" 2 $?
has "bad fen message" "not a square of russian" "$err"
err=$("$bin" analyse --variant nosuch 2>&1 >/dev/null)
check "unknown variant rc" 2 $?
has "unknown variant message" "unknown variant 'nosuch'" "$err"
err=$("$bin" analyse --variant italian --egdb /nonexistent 2>&1 >/dev/null)
check "egdb rc" 2 $?
has "egdb message" "not italian" "$err"

[ "$fail" -eq 0 ] && echo "analyse_variants: ok"
exit "$fail"
