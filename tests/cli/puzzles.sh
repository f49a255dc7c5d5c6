#!/bin/bash
# SPDX-License-Identifier: MIT
# tests/cli/puzzles.sh: damier puzzles find|gen|verify on positions written here (no
# shared data; the corpus run is puzzles_corpus.sh): the two-for-one shot
# W:W32,38,42,45:B11,16,22,24 (32-28 22x33 38x20) is found, a quiet position is not;
# gen writes it as a PDN puzzle that `pdn check` reads and `puzzles verify` accepts;
# verify names the puzzle and the reason for a wrong solution, a position with no win,
# a bad FEN, an illegal solution move, a missing FEN, an unknown theme and a line that
# stops before the material is won (exit 1);
# bad options exit 2.
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
DAMIER=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
SHOT="W:W32,38,42,45:B11,16,22,24"

# find: the shot, and a quiet position
rc=0
"$DAMIER" puzzles find --depth 8 --fen "$SHOT" > "$tmp/find" 2>&1 || rc=$?
[ "$rc" -eq 0 ] && ok || fail "find shot: exit $rc"
has "find: a puzzle" "$tmp/find" "verdict puzzle"
matches "find: best move" "$tmp/find" '^best 32-28 score [0-9]+ second -?[0-9]+ depth 8$'
has "find: the line" "$tmp/find" "line 1. 32-28 22x33 2. 38x20"
has "find: themes" "$tmp/find" "themes shot endgame"
rc=0
"$DAMIER" puzzles find --depth 8 --fen "W:W31-50:B1-20" > "$tmp/quiet" 2>&1 || rc=$?
[ "$rc" -eq 1 ] && ok || fail "find quiet: exit $rc"
has "find: quiet position" "$tmp/quiet" "verdict no move wins material or the game"
rc=0
"$DAMIER" puzzles find --fen "W:W31-50:B1-20x" > "$tmp/badfen" 2>&1 || rc=$?
[ "$rc" -eq 2 ] && grep -q "bad FEN at character 15" "$tmp/badfen" && ok || fail "find bad FEN: exit $rc: $(cat "$tmp/badfen")"

# gen: a game that starts from the shot's position
printf '[Event "x"]\n[White "A"]\n[Black "B"]\n[FEN "%s"]\n\n1. 45-40 24-29 2. 40-34 29x40 *\n' "$SHOT" > "$tmp/game.pdn"
rc=0
"$DAMIER" puzzles gen --depth 8 -o "$tmp/out.pdn" "$tmp/game.pdn" 2> "$tmp/gen.err" || rc=$?
[ "$rc" -eq 0 ] && ok || fail "gen: exit $rc: $(cat "$tmp/gen.err")"
has "gen: one puzzle" "$tmp/gen.err" "winning 1: puzzles 1, not unique 0 (0.0% of the winning), unstable 0, line too short 0, no combination 0"
has "gen: the position" "$tmp/out.pdn" "[FEN \"$SHOT\"]"
has "gen: event" "$tmp/out.pdn" '[Event "puzzle"]'
has "gen: themes" "$tmp/out.pdn" '[Theme "shot endgame"]'
has "gen: depth" "$tmp/out.pdn" '[Depth "8"]'
has "gen: source" "$tmp/out.pdn" "[Source \"game.pdn, game 1, before ply 1 (move 1)\"]"
has "gen: solution" "$tmp/out.pdn" "1. 32-28! 22x33 2. 38x20 *"
expect_run "gen: pdn check reads it" 0 "1 games, 1 legal, 0 with illegal moves, 0 unreadable" \
    -- pdn check "$tmp/out.pdn"
rc=0
"$DAMIER" puzzles verify "$tmp/out.pdn" > "$tmp/ver" 2>&1 || rc=$?
[ "$rc" -eq 0 ] && ok || fail "verify gen output: exit $rc: $(cat "$tmp/ver")"
matches "verify: at depth 6" "$tmp/ver" '^1 puzzles, 1 verified, 0 failed \(depth 6, [0-9.]+ s\)$'

# verify: failures, one line each, exit 1
{
    printf '[Event "wrong"]\n[FEN "%s"]\n\n1. 45-40 *\n\n' "$SHOT"
    printf '[Event "quiet"]\n[FEN "W:W31-50:B1-20"]\n\n1. 32-28 *\n\n'
    printf '[Event "badfen"]\n[FEN "W:W32,38,42,45:B11,16,22,2x4"]\n\n1. 32-28 *\n\n'
    printf '[Event "illegal"]\n[FEN "%s"]\n\n1. 32-28 22x33 2. 38x29 *\n\n' "$SHOT"
    printf '[Event "nofen"]\n\n1. 32-28 *\n\n'
    printf '[Event "theme"]\n[FEN "%s"]\n[Theme "shot fork"]\n\n1. 32-28 22x33 2. 38x20 *\n\n' "$SHOT"
    printf '[Event "short"]\n[FEN "%s"]\n[Theme "shot"]\n\n1. 32-28 22x33 *\n\n' "$SHOT"
    printf '[Event "good"]\n[FEN "%s"]\n\n1. 32-28 22x33 2. 38x20 *\n' "$SHOT"
} > "$tmp/bad.pdn"
rc=0
"$DAMIER" puzzles verify --depth 8 "$tmp/bad.pdn" > "$tmp/bad.out" 2>&1 || rc=$?
[ "$rc" -eq 1 ] && ok || fail "verify bad: exit $rc"
matches "verify: wrong solution" "$tmp/bad.out" \
    ':1: puzzle 1 \(wrong\): at depth 8 the unique win is 32-28 \(score [0-9]+\), not the solution.s 45-40$'
matches "verify: no win" "$tmp/bad.out" \
    ': puzzle 2 \(quiet\): at depth 8 no move wins material or the game: best [0-9-]+ scores -?[0-9]+, the second best -?[0-9]+ \(solution 32-28\)$'
matches "verify: bad FEN" "$tmp/bad.out" ': puzzle 3 \(badfen\): FEN "W:W32,38,42,45:B11,16,22,2x4", column 27: '
matches "verify: illegal solution move" "$tmp/bad.out" ': puzzle 4 \(illegal\): solution move 2\. 38x29: '
matches "verify: no FEN" "$tmp/bad.out" ': puzzle 5 \(nofen\): no FEN tag: a puzzle needs its position$'
matches "verify: bad theme" "$tmp/bad.out" ": puzzle 6 \\(theme\\): Theme \"shot fork\", column 6: unknown theme 'fork'"
matches "verify: line without the gain" "$tmp/bad.out" \
    ': puzzle 7 \(short\): the solution line ends without a man won \(gain -100, White to move, a capture pending\)$'
matches "verify: summary" "$tmp/bad.out" '^8 puzzles, 1 verified, 7 failed \(depth 8, [0-9.]+ s\)$'

# usage errors
rejects puzzles "" "nosuch" "gen" "gen x.pdn" "gen --depth 0 -o $tmp/x.pdn x.pdn" "verify" \
    "verify --depth 99 x.pdn" "find" "find --fen W:W31-50:B1-20 --depth x" \
    "gen --depth 4 --stable 4 -o $tmp/x.pdn x.pdn"
rc=0
"$DAMIER" puzzles verify "$tmp/missing.pdn" > /dev/null 2> "$tmp/miss" || rc=$?
[ "$rc" -eq 2 ] && grep -q "cannot open" "$tmp/miss" && ok || fail "verify missing file: exit $rc"
finish
