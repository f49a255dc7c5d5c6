#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/tourney.sh: `damier tourney` on tournament files made here (docs/TOURNEY.md):
# a six-player round robin paired round by round (FIDE's Berger table for 6), results
# entered, standings and crosstable; a Swiss with a bye; a team event on four boards;
# bad files and commands answered with the place and exit status 1 or 2, the file
# untouched.
set -u
DAMIER=${1:?usage: tourney.sh <damier binary>}
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# expect_err NAME RC STDERR -- ARGS...: exit status RC, stderr exactly STDERR, no stdout.
expect_err() {
    local name=$1 want_rc=$2 want=$3 rc=0
    shift 4
    "$DAMIER" "$@" >"$tmp/out" 2>"$tmp/err" || rc=$?
    if [ "$rc" -ne "$want_rc" ] || [ -s "$tmp/out" ] || [ "$(cat "$tmp/err")" != "$want" ]; then
        fail "$name: exit $rc (wanted $want_rc), stderr '$(cat "$tmp/err")', wanted '$want'"
    else
        ok
    fi
}

rr=$tmp/rr.txt
{
    echo 'event "Club round robin"'
    echo 'system roundrobin'
    for n in A B C D E F; do echo "entrant \"$n\""; done
} >"$rr"
expect_run "check" 0 "ok: 6 entrants, 0 of 5 rounds paired, 0 pairings" -- tourney check "$rr"
# Berger table for 6 (FIDE C.05 Annex 1): 1-6 2-5 3-4 / 6-4 5-3 1-2 / 2-6 3-1 4-5 /
# 6-5 1-4 2-3 / 3-6 4-2 5-1. White wins every game.
want=("A - F|B - E|C - D" "F - D|E - C|A - B" "B - F|C - A|D - E" "F - E|A - D|B - C"
    "C - F|D - B|E - A")
for r in 1 2 3 4 5; do
    out=$("$DAMIER" tourney pair "$rr") || fail "pair round $r: exit $?"
    got=$(sed -n 's/^[0-9]: //p' <<<"$out" | paste -sd'|')
    [ "$got" = "${want[$((r - 1))]}" ] && ok || fail "round $r: '$got', wanted '${want[$((r - 1))]}'"
    for i in 1 2 3; do
        "$DAMIER" tourney result "$rr" "$i" 2-0 || fail "result $r.$i"
    done
done
expect_err "all paired" 1 "damier tourney pair: every round (5) is paired" -- tourney pair "$rr"
"$DAMIER" tourney standings "$rr" >"$tmp/st" || fail "standings"
has "standings head" "$tmp/st" "rank name points games direct wins sonneborn-berger"
# A, B, C 6 points each (each beat the other two once: a cycle, all tie-breaks equal)
has "standings A" "$tmp/st" '1 "A" 6 5 2 3 14'
has "standings F" "$tmp/st" '4 "F" 4 5 4 2 8'
"$DAMIER" tourney crosstable "$rr" >"$tmp/ct" || fail "crosstable"
has "crosstable A" "$tmp/ct" '1 "A" 4w2 2w2 3b0 5w2 6b0 6'
"$DAMIER" tourney check "$rr" >/dev/null && ok || fail "the written file does not read back"

# Swiss, five entrants: Monrad's first round and the bye to the last placed.
sw=$tmp/sw.txt
printf 'system swiss 3\nentrant "V" rating 1500 category "women"\nentrant "W" rating 1900\nentrant "X" rating 1800\nentrant "Y" rating 1700 category "women"\nentrant "Z" rating 1600\n' >"$sw"
out=$("$DAMIER" tourney pair "$sw") || fail "swiss pair"
[ "$(paste -sd'|' <<<"$out")" = "round 1|1: W - X|2: Y - Z|3: V bye (2)" ] && ok ||
    fail "swiss round 1: $out"
"$DAMIER" tourney result "$sw" 1 0-1 && "$DAMIER" tourney result "$sw" 2 1/2-1/2 || fail "swiss results"
"$DAMIER" tourney standings "$sw" --category women >"$tmp/sw.st" || fail "swiss standings"
has "women first" "$tmp/sw.st" '1 "V" 2 1 0 0 0 0'
has "women second" "$tmp/sw.st" '2 "Y" 1 1 1 1 0.5 0'
expect_err "bye again" 2 "damier tourney result: pairing 3 is a bye" -- tourney result "$sw" 3 2-0

# A team event: four boards, board results home player first, match points.
tm=$tmp/team.txt
printf 'system roundrobin\nboards 4\nentrant "Amsterdam"\nentrant "Beijing"\nentrant "Cairo"\nentrant "Dakar"\n' >"$tm"
"$DAMIER" tourney pair "$tm" >/dev/null || fail "team pair"
"$DAMIER" tourney result "$tm" 1 2-0 1-1 1-1 0-2 || fail "team result"
"$DAMIER" tourney result "$tm" 2 +- || fail "team forfeit"
"$DAMIER" tourney standings "$tm" >"$tmp/tm.st" || fail "team standings"
has "team head" "$tmp/tm.st" "rank name points games board-points direct wins sonneborn-berger"
has "team Beijing" "$tmp/tm.st" '1 "Beijing" 2 1 8 0 1 0'
has "team Amsterdam" "$tmp/tm.st" '2 "Amsterdam" 1 1 4 1 0 0.5'
expect_err "team one result" 2 "damier tourney result: give one result (a forfeit or *) or one per board" -- \
    tourney result "$tm" 1 2-0 2-0

# Bad input: the place, exit 1 (a bad file) or 2 (a bad command), the file untouched.
printf 'system swiss 3\nentrant "A"\nentrant "B"\nround 1\n1 - 2 3-0\n' >"$tmp/bad.txt"
cp "$tmp/bad.txt" "$tmp/bad.orig"
expect_err "bad result" 1 "damier tourney: $tmp/bad.txt: line 5, column 7: 3-0 is no game's result (2-0, 1-1, 0-2)" -- \
    tourney check "$tmp/bad.txt"
expect_err "bad pair" 1 "damier tourney: $tmp/bad.txt: line 5, column 7: 3-0 is no game's result (2-0, 1-1, 0-2)" -- \
    tourney pair "$tmp/bad.txt"
cmp -s "$tmp/bad.txt" "$tmp/bad.orig" && ok || fail "a bad file was changed"
expect_err "missing file" 2 "damier tourney: cannot open $tmp/none.txt: No such file or directory" -- \
    tourney check "$tmp/none.txt"
expect_err "unknown command" 2 "damier tourney: unknown command 'draw' (check, pair, result, standings, crosstable)" -- \
    tourney draw "$rr"
expect_err "no such pairing" 2 "damier tourney result: round 1 has no pairing 9" -- tourney result "$sw" 9 2-0
# A round robin of four engines played by `damier tourney play` (one `damier match`
# game a pairing, from the start): damier twice, and twice the fake Hub engine of
# tests/fake (the first legal move). damier beats the fake every time; the two damiers
# (the same deterministic search, no opening book) draw or the colour decides, as the
# built-in weights make it. Every game in the PDN, read back.
FAKE=${DM_FAKE_HUB:-}
if [ -n "$FAKE" ] && [ -x "$FAKE" ]; then
    eng=$tmp/eng.txt
    printf 'event "Engines"\nsystem roundrobin\nentrant "alpha"\nentrant "beta"\nentrant "first"\nentrant "second"\n' >"$eng"
    "$DAMIER" tourney play "$eng" --all --pdn "$tmp/eng.pdn" --engine "alpha=$DAMIER hub --book off" \
        --engine "beta=$DAMIER hub --book off" --engine "first=$FAKE" --engine "second=$FAKE --name fake2" \
        -- --depth 3 >"$tmp/eng.out" 2>"$tmp/eng.err" && ok || fail "play: $(cat "$tmp/eng.err")"
    [ "$(grep -c ' plies, opening 1)$' "$tmp/eng.out")" = 6 ] && ok || fail "play: six games: $(cat "$tmp/eng.out")"
    "$DAMIER" tourney standings "$eng" >"$tmp/eng.st" || fail "engine standings"
    # the game between the damiers: a draw shares the first place; a win (the colour
    # can decide at depth 3, depending on the built-in weights) gives the winner 6
    # points and Sonneborn-Berger 4 + 2, the loser 4 and 2 (first 0, second 2)
    ab=$(awk '{ v = $2; gsub(/[]"]/, "", v) } /^\[White /{w=v} /^\[Black /{b=v}
        /^\[Result /{ if ((w == "alpha" && b == "beta") || (w == "beta" && b == "alpha")) print w, b, v }' "$tmp/eng.pdn")
    set -- $ab "" "" ""
    case "$3" in
        1-1)
            has "alpha" "$tmp/eng.st" '1 "alpha" 5 3 1 2 4.5'
            has "beta" "$tmp/eng.st" '1 "beta" 5 3 1 2 4.5' ;;
        2-0 | 0-2)
            if [ "$3" = 2-0 ]; then win=$1 lose=$2; else win=$2 lose=$1; fi
            has "$win" "$tmp/eng.st" "1 \"$win\" 6 3 0 3 6"
            has "$lose" "$tmp/eng.st" "2 \"$lose\" 4 3 0 2 2" ;;
        *) fail "no game between alpha and beta in the PDN ($ab)" ;;
    esac
    [ "$(awk 'NR > 2 { s += $3 } END { print s }' "$tmp/eng.st")" = 12 ] && ok ||
        fail "engine points do not add up to 12: $(cat "$tmp/eng.st")"
    out=$("$DAMIER" pdn check "$tmp/eng.pdn" | tail -1)
    [ "$out" = "6 games, 6 legal, 0 with illegal moves, 0 unreadable" ] && ok || fail "engine PDN: $out"
    grep -q '^\[Event "Engines"\]' "$tmp/eng.pdn" && ok || fail "engine PDN: no Event tag"
    expect_err "an entrant without engine" 2 'damier tourney play: no --engine for entrant "second"' -- \
        tourney play "$eng" --engine "alpha=x" --engine "beta=x" --engine "first=x"
fi
finish
