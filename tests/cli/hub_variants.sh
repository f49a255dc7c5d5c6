#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/hub_variants.sh: `damier hub` with the variants: the variant param and
# its values, set-param before init, `damier hub --variant NAME`, positions of the
# variant's size (side + one letter per square), moves in its notation, searches by
# the generic engine (deterministic at fixed depth, legal moves, info lines in Hub
# notation), antidraughts ("losing") giving its last man away, errors (wrong
# position length, unknown variant), stop of an infinite search, ponder-hit, and
# back to "normal" (international, the fast engine).
# Usage: bash hub_variants.sh <damier binary> [<shared dir>]
set -u
bin=${1:?usage: hub_variants.sh <damier binary> [<shared dir>]}
failed=0
passed=0
out=
fail() {
    echo "FAIL: $*" >&2
    echo "--- output:" >&2
    echo "$out" >&2
    failed=$((failed + 1))
}
ok() { passed=$((passed + 1)); }
has() { # NAME LINE
    if grep -qxF -- "$2" <<<"$out"; then ok; else fail "$1: no line '$2'"; fi
}
matches() { # NAME ERE
    if grep -qE -- "$2" <<<"$out"; then ok; else fail "$1: no line matching /$2/"; fi
}
count() { # NAME ERE N
    local n
    n=$(grep -cE -- "$2" <<<"$out")
    if [ "$n" -eq "$3" ]; then ok; else fail "$1: $n lines match /$2/, expected $3"; fi
}
# legal NAME VARIANT FEN: the move of the first done line is a legal Hub move there
legal() {
    local mv
    mv=$(grep -m1 '^done move=' <<<"$out" | sed -E 's/^done move=([^ ]+).*/\1/')
    if "$bin" moves --variant "$2" --fen "$3" --format hub | grep -qxF -- "$mv"; then
        ok
    else
        fail "$1: '$mv' is not a legal move of $2 $3"
    fi
}
en_start=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww

# ---- 1. handshake, set-param before init, Russian from the start ----------------
# (a command after a limited `go` waits for its done; quit ends the session)
out=$(printf '%s\n' "hub" "set-param name=variant value=russian" "init" \
    'pos start moves="c3-d4 f6-e5"' "level depth=4" "go" "new-game" "hub" "quit" |
    timeout 30 "$bin" hub)
[ $? -eq 0 ] && ok || fail "russian: exit status"
has russian 'param name=variant value=normal type=enum values="normal brazilian russian english canadian losing czech italian killer breakthrough spanish pool thai frisian frysk portuguese turkish"'
has russian 'param name=variant value=russian type=enum values="normal brazilian russian english canadian losing czech italian killer breakthrough spanish pool thai frisian frysk portuguese turkish"'
has russian "ready"
# the capture is White's only move: played after depth 1, as international does
count russian '^info depth=[1-4] ' 1
matches russian '^info depth=1 seldepth=[0-9]+ score=[-0-9.]+ nodes=[0-9]+ time=[0-9.]+ nps=[0-9.]+ pv="18x11x15'
matches russian '^done move=18x11x15( ponder=[0-9x]+)?$'

# same again: deterministic
first=$out
out=$(printf '%s\n' "set-param name=variant value=russian" 'pos start moves="22-18 11-15"' \
    "level depth=4" "go" "new-game" "quit" | timeout 30 "$bin" hub)
if [ "$(grep -E '^(done|info)' <<<"$out" | sed -E 's/ time=[^ ]+ nps=[^ ]+//')" = \
     "$(grep -E '^(done|info)' <<<"$first" | sed -E 's/ time=[^ ]+ nps=[^ ]+//')" ]; then
    ok
else
    fail "russian: numeric and algebraic moves= give different searches"
fi

# ---- 2. damier hub --variant english: a 33-character position ---------------------
out=$(printf '%s\n' "hub" "pos pos=$en_start" "level depth=5" "go" "pos pos=Wbbbb" \
    "pos pos=$en_start moves=\"22-18 10-14 18x9\"" "quit" | timeout 30 "$bin" hub --variant english)
[ $? -eq 0 ] && ok || fail "english: exit status"
has english 'param name=variant value=english type=enum values="normal brazilian russian english canadian losing czech italian killer breakthrough spanish pool thai frisian frysk portuguese turkish"'
count english '^info depth=[1-5] ' 5
legal english english W:W21-32:B1-12
matches english "^error message=\"bad position 'Wbbbb': english wants 33 characters"
matches english "^error message=\"illegal move 3 '18x9' in moves=: "

# ---- 3. antidraughts ("losing"): White gives its last man away -------------------
anti=W # a white man on 37, a black man on 28: 37-32 gives it away and wins
for i in $(seq 1 50); do
    case $i in 28) anti+=b ;; 37) anti+=w ;; *) anti+=e ;; esac
done
out=$(printf '%s\n' "set-param name=variant value=losing" "pos pos=$anti" "level depth=3" \
    "go" "new-game" "quit" | timeout 30 "$bin" hub)
has losing "done move=37-32 ponder=28x37x32"
matches losing '^info depth=2 .*score=99\.98 '

# ---- 4. stop, ponder-hit, errors, back to normal --------------------------------
out=$( (printf '%s\n' "set-param name=variant value=canadian" "pos start" "level infinite" "go"
    sleep 0.5
    printf '%s\n' "stop"
    sleep 0.3
    printf '%s\n' "set-param name=variant value=brazilian" "pos start" "level move-time=1" \
        "go ponder"
    sleep 0.3
    printf '%s\n' "ponder-hit"
    sleep 0.3
    printf '%s\n' "set-param name=variant value=armenian" "set-param name=variant value=normal" \
        "pos start" "level depth=3" "go" "new-game" "quit") | timeout 30 "$bin" hub)
count stops '^done move=' 3
matches stops '^done move=[0-9]+-[0-9]+( ponder=[0-9]+-[0-9]+)?$'
matches stops "^error message=\"set-param variant: 'armenian' is not one of "
# a done names the expected reply when the line has one (every variant, one engine)
matches stops '^done move=[0-9]+-[0-9]+ ponder=[0-9]+-[0-9]+$'

# ---- 5. an unknown --variant ---------------------------------------------------
rc=0
"$bin" hub --variant nosuch </dev/null >/dev/null 2>&1 || rc=$?
[ "$rc" -eq 2 ] && ok || fail "hub --variant nosuch: exit $rc"

# Turkish (the full 8x8 board, its own search instantiation): a depth-limited search
# from the start answers a White man's step (Hub squares are numbers, 41-56 White)
out=$( (printf '%s\n' "hub" "set-param name=variant value=turkish" "init" "level depth=6" "go"
    sleep 2
    echo quit) | timeout 30 "$bin" hub)
matches "turkish search" '^done move=(4[1-9]|5[0-6])-(3[3-9]|40|4[1-8])( ponder=[0-9x-]+)?$'
matches "turkish info" '^info depth=6 '

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
