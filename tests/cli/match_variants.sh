#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/match_variants.sh: `damier match --variant NAME` (docs/MATCH.md,
# "Variants"): damier's Hub engine against itself in Russian, English (Black moves
# first), Canadian (12x12) and briefly every other variant, the handshake (set-param
# name=variant before init), positions and moves in the variant's Hub form, the
# results, the PDN with the variant's GameType read back by `damier pdn check`;
# openings from a file of the variant's FENs; the fake Hub engine of
# tests/fake/fake_hub.c ($DM_FAKE_HUB) in a variant: a capture whose captured squares
# come in descending order (legal), a wrong captured set, a quiet move to its own
# square and a malformed move (forfeits with their reason); Hub 1 and DXP refused,
# --variant international as before.
# Usage: match_variants.sh DAMIER [SHARED]
set -u
DAMIER=$1
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
FAKE=${DM_FAKE_HUB:-}
if [ -z "$FAKE" ] || [ ! -x "$FAKE" ]; then
    echo "SKIP: no fake Hub engine (DM_FAKE_HUB)"
    exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# run NAME ARGS...: damier match ARGS, stdout in $tmp/NAME.out, stderr in .err, the
# exit status in $rc.
run() {
    local name=$1
    shift
    rc=0
    timeout 120 "$DAMIER" match "$@" >"$tmp/$name.out" 2>"$tmp/$name.err" || rc=$?
}
# pdn_ok NAME FILE N VARIANT: `damier pdn check` replays the N games of FILE as legal
# games of VARIANT.
pdn_ok() {
    "$DAMIER" pdn check "$2" >"$tmp/check.out" 2>&1 || fail "$1: pdn check exit $?"
    has "$1-check" "$tmp/check.out" "$3 games, $3 legal, 0 with illegal moves, 0 unreadable"
    has "$1-check" "$tmp/check.out" "legal by variant: $3 $4"
}
# count NAME FILE ERE N: N lines of FILE match ERE.
count() {
    local n
    n=$(grep -cE -- "$3" "$2")
    if [ "$n" -eq "$4" ]; then ok; else fail "$1: $n lines match /$3/ in $2, expected $4"; fi
}
hub="$DAMIER hub"

# ---- Russian: damier against itself at depth 2 -------------------------------------
run russian --variant russian --engine "$hub" --engine "$hub" --depth 2 --games 2 \
    --pdn "$tmp/russian.pdn"
[ "$rc" -eq 0 ] || fail "russian: exit $rc: $(cat "$tmp/russian.err")"
has russian "$tmp/russian.out" \
    "match damier-1 - damier-2: russian, 2 games, depth 2, openings the start position (1), concurrency 1"
matches russian "$tmp/russian.out" '^game 1/2: damier-1 - damier-2 (2-0|0-2|1-1) [a-z]'
matches russian "$tmp/russian.out" '^game 2/2: damier-2 - damier-1 (2-0|0-2|1-1) [a-z]'
matches russian "$tmp/russian.out" '^white wins [0-2], draws [0-2], black wins [0-2]; forfeits 0 \(on time 0\)$'
count russian-pdn "$tmp/russian.pdn" '^\[GameType "25"\]$' 2
count russian-pdn "$tmp/russian.pdn" '^\[Result "(2-0|0-2|1-1)"\]$' 2
matches russian-pdn "$tmp/russian.pdn" '^1\. [a-h][1-8]-[a-h][1-8] \{\[%emt '
pdn_ok russian "$tmp/russian.pdn" 2 russian

# ---- English: Black moves first; the handshake and the positions sent -------------
run english --variant english --engine "$hub" --engine "$hub" --depth 2 --games 2 \
    --pdn "$tmp/english.pdn" --debug
[ "$rc" -eq 0 ] || fail "english: exit $rc: $(cat "$tmp/english.err")"
after english "$tmp/english.err" "> engine 1: set-param name=variant value=english" \
    "> engine 1: init"
after english "$tmp/english.err" "> engine 2: set-param name=variant value=english" \
    "> engine 2: init"
# game 1: engine 2 has Black, which moves first, from the 33-character start
has english "$tmp/english.err" "> damier-2: pos pos=Bbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww"
matches english "$tmp/english.err" '^< damier-2: done move=(9|10|11|12)-[0-9]+( ponder=[0-9x-]+)?$'
count english "$tmp/english.out" '^game [12]/2: .* (2-0|0-2|1-1) [a-z]' 2
count english-pdn "$tmp/english.pdn" '^\[GameType "21"\]$' 2
matches english-pdn "$tmp/english.pdn" '^1\. (9|10|11|12)-(13|14|15|16) '
pdn_ok english "$tmp/english.pdn" 2 english

# ---- Canadian (12x12): 73-character positions ---------------------------------------
run canadian --variant canadian --engine "$hub" --engine "$hub" --depth 1 --games 2 \
    --max-plies 80 --pdn "$tmp/canadian.pdn" --debug
[ "$rc" -eq 0 ] || fail "canadian: exit $rc: $(cat "$tmp/canadian.err")"
matches canadian "$tmp/canadian.err" '^> damier-1: pos pos=W[wbWBe]{72}( |$)'
count canadian "$tmp/canadian.out" '^game [12]/2: .* (2-0|0-2|1-1) ' 2
count canadian-pdn "$tmp/canadian.pdn" '^\[GameType "27"\]$' 2
pdn_ok canadian "$tmp/canadian.pdn" 2 canadian

# ---- every other variant, one short game each ---------------------------------------
for v in brazilian antidraughts czech italian killer breakthrough spanish pool thai \
    frisian frysk; do
    run "v-$v" --variant "$v" --engine "$hub" --engine "$hub" --depth 1 --games 1 \
        --max-plies 40 --pdn "$tmp/$v.pdn"
    [ "$rc" -eq 0 ] || fail "$v: exit $rc: $(cat "$tmp/v-$v.err")"
    matches "$v" "$tmp/v-$v.out" "^match damier-1 - damier-2: $v, 1 games, "
    matches "$v" "$tmp/v-$v.out" '^game 1/1: damier-1 - damier-2 (2-0|0-2|1-1) '
    pdn_ok "$v" "$tmp/$v.pdn" 1 "$v"
done

# ---- a fixed time a move ------------------------------------------------------------
run movetime --variant russian --engine "$hub" --engine "$hub" --movetime 0.2 \
    --time-margin 2000 --games 1 --max-plies 6 --pdn "$tmp/movetime.pdn"
[ "$rc" -eq 0 ] || fail "movetime: exit $rc: $(cat "$tmp/movetime.err")"
has movetime "$tmp/movetime.out" "game 1/1: damier-1 - damier-2 1-1 adjudicated: 6 plies (6 plies, opening 1)"

# ---- openings of the variant's FEN; the fake engine ----------------------------------
# White's only move is the double capture c3:g7 (Hub 22x8x11x18, squares ascending);
# then Black's h8:f6.
printf '# Russian, algebraic\nW:Wc3,a1:Bd4,f6,h8\n' >"$tmp/double.fen"
good="$FAKE --name good"
run reverse --variant russian --engine "$good" --engine "$FAKE --name rev --mode reverse" \
    --depth 1 --games 2 --openings "$tmp/double.fen" --pdn "$tmp/reverse.pdn" --debug
[ "$rc" -eq 0 ] || fail "reverse: exit $rc: $(cat "$tmp/reverse.err")"
has reverse "$tmp/reverse.err" "< rev: done move=22x8x18x11"
has reverse "$tmp/reverse.out" "white wins 2, draws 0, black wins 0; forfeits 0 (on time 0)"
matches reverse-pdn "$tmp/reverse.pdn" '^\[FEN "W:W(c3,a1|a1,c3):B(d4,f6,h8|h8,f6,d4)"\]$'
matches reverse-pdn "$tmp/reverse.pdn" '^1\. c3:g7 '
pdn_ok reverse "$tmp/reverse.pdn" 2 russian

# a wrong captured set, a quiet move to its own square, a malformed move: forfeits
run wrongset --variant russian --engine "$good" --engine "$FAKE --name bad --mode illegal" \
    --depth 1 --games 2 --openings "$tmp/double.fen" --pdn "$tmp/wrongset.pdn"
[ "$rc" -eq 0 ] || fail "wrongset: exit $rc"
has wrongset "$tmp/wrongset.out" \
    'game 2/2: bad - good 0-2 forfeit: bad played an illegal move 22x8x1 in W:Wc3,a1:Bh8,f6,d4 (illegal move "22x8x1": capture is compulsory: 2 pieces can be captured with c3:g7) (0 plies, opening 1)'
count wrongset-pdn "$tmp/wrongset.pdn" '^\[Termination "forfeit"\]$' 2
matches wrongset-pdn "$tmp/wrongset.pdn" '\{bad played an illegal move 22x8x1 in '
pdn_ok wrongset "$tmp/wrongset.pdn" 2 russian

run ownsq --variant english --engine "$FAKE --name bad --mode illegal --after 2" \
    --engine "$good" --depth 1 --games 1
[ "$rc" -eq 0 ] || fail "ownsq: exit $rc"
matches ownsq "$tmp/ownsq.out" \
    '^game 1/1: bad - good 0-2 forfeit: bad played an illegal move ([0-9]+)-\1 in W:.* \(illegal move "[0-9]+-[0-9]+": the man on \1 can play [0-9x-]+(, [0-9x-]+)*\) \(3 plies, opening 1\)$'

run garbage --variant canadian --engine "$good" --engine "$FAKE --name bad --mode garbage" \
    --depth 1 --games 2 --fail-on-forfeit --pdn "$tmp/garbage.pdn"
[ "$rc" -eq 1 ] || fail "garbage: exit $rc, expected 1 (--fail-on-forfeit)"
has garbage "$tmp/garbage.out" \
    "game 1/2: good - bad 2-0 forfeit: bad sent a garbled move 'zz!!' (move \"zz!!\": 'zz' at column 1 is not a square of canadian) in B:W37,44-72:B1-30 (1 plies, opening 1)"
matches garbage "$tmp/garbage.out" "^game 2/2: bad - good 0-2 forfeit: bad sent a garbled move 'zz!!' "
has garbage "$tmp/garbage.out" "white wins 1, draws 0, black wins 1; forfeits 2 (on time 0)"
pdn_ok garbage "$tmp/garbage.pdn" 2 canadian

run garbled --variant russian --engine "$good" --engine "$FAKE --name bad --mode garbled" \
    --depth 1 --games 1
matches garbled "$tmp/garbled.out" "^game 1/1: good - bad 2-0 forfeit: bad sent a garbled line 'done move=\"[0-9]+-[0-9]+' "

# ---- what a variant match refuses ----------------------------------------------------
# a Hub 1 engine (found in the handshake) cannot be told the variant
run hub1 --variant russian --engine "$good" --engine "$FAKE --proto hub1" --depth 1
[ "$rc" -eq 1 ] && grep -q "needs Hub 2" "$tmp/hub1.err" && ok ||
    fail "hub1: exit $rc, $(cat "$tmp/hub1.err")"
run dxp --variant russian --engine "$good" --engine "$DAMIER dxp --listen 0" --proto hub \
    --proto dxp --depth 1
[ "$rc" -eq 2 ] && grep -q "DXP, which plays international draughts only" "$tmp/dxp.err" && ok ||
    fail "dxp: exit $rc, $(cat "$tmp/dxp.err")"
echo "W:W31-50:B1-20" >"$tmp/intl.fen"
rejects match "--variant russian --engine $FAKE --engine $FAKE --depth 1 --proto hub1" \
    "--variant russian --engine dxp:127.0.0.1:1 --engine $FAKE --depth 1" \
    "--variant russian --engine $FAKE --engine $FAKE --depth 1 --param variant=english" \
    "--variant russian --engine $FAKE --engine $FAKE --depth 1 --openings $tmp/intl.fen" \
    "--variant armenian --engine $FAKE --engine $FAKE --depth 1"

# ---- --variant international is the match it always was -----------------------------
echo "W:WK6:BK45" >"$tmp/kings.fen"
run intl-a --engine "$hub" --engine "$hub" --depth 2 --games 2 --openings "$tmp/kings.fen"
run intl-b --variant international --engine "$hub" --engine "$hub" --depth 2 --games 2 \
    --openings "$tmp/kings.fen"
if diff "$tmp/intl-a.out" "$tmp/intl-b.out" >&2; then ok; else
    fail "--variant international differs from no --variant"; fi
has intl "$tmp/intl-b.out" "game 1/2: damier-1 - damier-2 1-1 threefold repetition (8 plies, opening 1)"
finish
