#!/usr/bin/env bash
# `damier analyse --variant NAME`: the one engine analyses every variant in the
# variant's notation: Russian multi-PV lines of legal moves from the start, a forced
# English capture, antidraughts giving its last man away (a win), Canadian on 12x12;
# clear errors for a bad FEN of the variant, an unknown variant, and --egdb for a
# variant without endgame databases (international, Brazilian, Russian and English
# have them: tests/cli/egdb8.sh); --eval with weights of the position's variant, and
# another variant's refused.
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

# --eval: weights of the position's variant are used (the committed Russian file is
# the built-in one: the same search), another variant's are refused, both ways.
data=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../data/eval" && pwd)
strip() { sed 's/ time [0-9.]* nps [0-9]*//'; }
def=$("$bin" analyse --variant russian --depth 8 | strip)
out=$("$bin" analyse --variant russian --depth 8 --eval "$data/russian.dmev")
check "russian --eval rc" 0 $?
check "russian --eval = built-in" "$def" "$(strip <<<"$out")"
err=$("$bin" analyse --variant russian --depth 4 --eval "$data/brazilian.dmev" 2>&1 >/dev/null)
check "brazilian weights for russian rc" 1 $?
has "brazilian weights for russian message" \
    "brazilian.dmev: weights for brazilian, the position is russian \(another variant's" "$err"
err=$("$bin" analyse --depth 4 --eval "$data/russian.dmev" 2>&1 >/dev/null)
check "russian weights for international rc" 1 $?
has "russian weights for international message" \
    "weights for russian, the position is international" "$err"
err=$("$bin" analyse --variant brazilian --depth 4 --eval "$data/international.dmev" 2>&1 >/dev/null)
check "international weights for brazilian rc" 1 $?
has "international weights for brazilian message" \
    "weights for international, the position is brazilian" "$err"

[ "$fail" -eq 0 ] && echo "analyse_variants: ok"
exit "$fail"
