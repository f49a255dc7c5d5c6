#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/match.sh: `damier match` (docs/MATCH.md) between the fake Hub engine of
# tests/fake/fake_hub.c ($DM_FAKE_HUB: plays the first legal move, and misbehaves as
# told) and damier itself: results, end reasons, forfeits (illegal move, a wrong
# captured set, loss on time, no answer, death, garbled answers), a capture whose
# captured squares come in another order (legal), Hub 1 (Scan 2.0's dialect), the PDN
# written, concurrency, the pentanomial summary, the SPRT stop, bad options.
# Usage: match.sh DAMIER [SHARED]
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

# A position whose only move is a double capture, 28x8 taking 13 and 23 (Hub
# 28x8x13x23); then a king against a king, which damier draws by repetition.
echo "W:W28,36-50:B1-7,9,10,13,23" >"$tmp/double.fen"
printf '# a comment\n\nW:WK6:BK45\n' >"$tmp/kings.fen"

# run NAME ARGS...: damier match ARGS, stdout in $tmp/NAME.out, stderr in .err, the
# exit status in $rc.
run() {
    local name=$1
    shift
    rc=0
    timeout 120 "$DAMIER" match "$@" >"$tmp/$name.out" 2>"$tmp/$name.err" || rc=$?
}
good="$FAKE --name good"

# damier against itself at depth 2 in a king endgame: a threefold repetition after
# 8 plies, both games (the referee sends the king moves since the last man move or
# capture with each position, and keeps the repetitions itself).
run kings --engine "$DAMIER hub" --engine "$DAMIER hub" --name one --name two --depth 2 \
    --games 2 --openings "$tmp/kings.fen" --pdn "$tmp/kings.pdn"
[ "$rc" -eq 0 ] || fail "kings: exit $rc: $(cat "$tmp/kings.err")"
has kings "$tmp/kings.out" "game 1/2: one - two 1-1 threefold repetition (8 plies, opening 1)"
has kings "$tmp/kings.out" "game 2/2: two - one 1-1 threefold repetition (8 plies, opening 1)"
has kings "$tmp/kings.out" "pairs 1: penta 0 0 1 0 0"
matches kings-pdn "$tmp/kings.pdn" '^\[FEN "W:WK6:BK45"\]'
matches kings-pdn "$tmp/kings.pdn" '^\[White "one"\]'
matches kings-pdn "$tmp/kings.pdn" '^\[Termination "threefold repetition"\]'
matches kings-pdn "$tmp/kings.pdn" '\{\[%emt 0:00:00\.[0-9]{3}\] [-0-9.]+/[0-9]+\}'
if [ "$(grep -c '^\[Event "damier match"\]' "$tmp/kings.pdn")" = 2 ]; then ok; else
    fail "kings: not 2 games in the PDN"; fi

# Adjudication by the engines' scores: the king endgame (damier scores it 0.00) drawn
# after 4 plies, and White 8 men up (both engines say so) won after 4 plies.
run adjdraw --engine "$DAMIER hub" --engine "$DAMIER hub" --depth 2 --games 2 \
    --openings "$tmp/kings.fen" --adjudicate-draw 0,4,0.1 --pdn "$tmp/adjdraw.pdn"
has adjdraw "$tmp/adjdraw.out" \
    "game 1/2: damier-1 - damier-2 1-1 adjudicated: every score within 0.1 for 4 plies (4 plies, opening 1)"
matches adjdraw-pdn "$tmp/adjdraw.pdn" '^\[Termination "adjudication"\]'
echo "W:W31-50:B1-12" >"$tmp/up.fen"
run adjwin --engine "$DAMIER hub" --engine "$DAMIER hub" --depth 2 --games 2 \
    --openings "$tmp/up.fen" --adjudicate-win 4,3
has adjwin "$tmp/adjwin.out" \
    "game 2/2: damier-2 - damier-1 2-0 adjudicated: White ahead by 3 or more for 4 plies (4 plies, opening 1)"
# Adjudication by the endgame database (a 3-piece one made here): men against a man
# that cannot be stopped from drawing, adjudicated a draw at once; two kings against a
# man, a database win for White; a king against a lone king, a database win too, but
# under the 5-move rule (FMJD 6.4) it is left to the game: White wins it on the board.
"$DAMIER" egdb gen --pieces 3 --dir "$tmp/db" >/dev/null 2>&1 || fail "egdb gen"
printf 'W:W6:B45\nW:WK33,K44:B3\nW:WK28:BK46\n' >"$tmp/eg.fen"
run adjegdb --engine "$DAMIER hub" --engine "$DAMIER hub" --depth 2 --games 6 \
    --openings "$tmp/eg.fen" --adjudicate-egdb "$tmp/db" --pdn "$tmp/adjegdb.pdn"
[ "$rc" -eq 0 ] || fail "adjegdb: exit $rc: $(cat "$tmp/adjegdb.err")"
has adjegdb "$tmp/adjegdb.out" \
    "game 1/6: damier-1 - damier-2 1-1 adjudicated: endgame database: draw (0 plies, opening 1)"
has adjegdb "$tmp/adjegdb.out" \
    "game 3/6: damier-1 - damier-2 2-0 adjudicated: endgame database: White wins (0 plies, opening 2)"
matches adjegdb-kk "$tmp/adjegdb.out" '^game 5/6: damier-1 - damier-2 2-0 (no pieces left|no legal move) '
"$DAMIER" pdn check "$tmp/adjegdb.pdn" >/dev/null && ok || fail "adjegdb: the PDN does not replay"
run adjegdbv --engine "$DAMIER hub" --engine "$DAMIER hub" --depth 2 --variant russian \
    --adjudicate-egdb "$tmp/db"
[ "$rc" -eq 2 ] && grep -q "international draughts only" "$tmp/adjegdbv.err" && ok ||
    fail "adjegdb with a variant: exit $rc, $(cat "$tmp/adjegdbv.err")"
run adjegdbn --engine "$DAMIER hub" --engine "$DAMIER hub" --depth 2 \
    --adjudicate-egdb "$tmp/nothing"
[ "$rc" -eq 2 ] && grep -q "adjudicate-egdb" "$tmp/adjegdbn.err" && ok ||
    fail "adjegdb without a database: exit $rc, $(cat "$tmp/adjegdbn.err")"
# ... which needs both engines to agree: the fake always says 0.00.
run adjfake --engine "$DAMIER hub" --engine "$good" --depth 2 --games 1 \
    --openings "$tmp/up.fen" --adjudicate-win 4,3
matches adjfake "$tmp/adjfake.out" '^game 1/1: damier - good 2-0 (no legal move|no pieces left) '

# Captured squares listed in descending order (28x8x23x13) name the same move: the
# fake playing White in game 2 must not forfeit.
run reverse --engine "$good" --engine "$FAKE --name rev --mode reverse" --depth 1 --games 2 \
    --openings "$tmp/double.fen" --pdn "$tmp/reverse.pdn"
[ "$rc" -eq 0 ] || fail "reverse: exit $rc"
matches reverse "$tmp/reverse.out" '^game 2/2: rev - good [0-2]-[0-2] (no legal move|no pieces left) '
has reverse "$tmp/reverse.out" "white wins 2, draws 0, black wins 0; forfeits 0 (on time 0)"
matches reverse-pdn "$tmp/reverse.pdn" '^1\. 28x8 '
"$DAMIER" pdn check "$tmp/reverse.pdn" >/dev/null && ok || fail "reverse: the PDN does not replay"

# A capture with a wrong captured set (28x8x13: 23 left out) is illegal; the forfeit
# says why, as in every variant.
run illegal --engine "$good" --engine "$FAKE --name bad --mode illegal" --depth 1 --games 2 \
    --openings "$tmp/double.fen"
has illegal "$tmp/illegal.out" \
    "game 2/2: bad - good 0-2 forfeit: bad played an illegal move 28x8x13 in W:W28,36-50:B1-7,9,10,13,23 (illegal move \"28x8x13\": the majority rule (FMJD 4.13) requires capturing 2 pieces: 28x8) (0 plies, opening 1)"
# ... and a quiet move to its own square.
run illegal2 --engine "$FAKE --name bad --mode illegal" --engine "$good" --depth 1 --games 1 \
    --openings start
has illegal2 "$tmp/illegal2.out" \
    "game 1/1: bad - good 0-2 forfeit: bad played an illegal move 31-31 in W:W31-50:B1-20 (illegal move \"31-31\": the man on 31 can play 31-26, 31-27) (0 plies, opening 1)"

# Death, garbage, a line that is not Hub, no answer (--timeout), each from the
# engine's third search on; the other engine wins every game.
for mode in die garbage garbled mute; do
    run $mode --engine "$good" --engine "$FAKE --name bad --mode $mode --after 3" --depth 1 \
        --games 2 --timeout 1 --fail-on-forfeit --openings start
    [ "$rc" -eq 1 ] || fail "$mode: exit $rc with --fail-on-forfeit, expected 1"
    has $mode "$tmp/$mode.out" "games 2: good - bad 2.0 - 0.0 [+2 =0 -0] (100.0%)"
    has $mode "$tmp/$mode.out" "white wins 1, draws 0, black wins 1; forfeits 2 (on time 0)"
done
matches die "$tmp/die.out" '^game 1/2: good - bad 2-0 forfeit: bad died \(exit status 3\) \(5 plies'
matches garbage "$tmp/garbage.out" "^game 1/2: good - bad 2-0 forfeit: bad sent a garbled move 'zz!!'"
matches garbled "$tmp/garbled.out" "^game 2/2: bad - good 0-2 forfeit: bad sent a garbled line 'done move=\"32-27'"
matches mute "$tmp/mute.out" '^game 1/2: good - bad 2-0 forfeit: bad gave no answer in 1 s \(5 plies'

# Past its time: 1 s for the game, the fake sleeps 3 s at its second move.
run sleep --engine "$good" --engine "$FAKE --name slow --mode sleep --sleep 3 --after 2" \
    --tc 1+0 --games 1 --pdn "$tmp/sleep.pdn" --openings start
matches sleep "$tmp/sleep.out" '^game 1/1: good - slow 2-0 loss on time: slow lost on time '
has sleep "$tmp/sleep.out" "white wins 1, draws 0, black wins 0; forfeits 1 (on time 1)"
matches sleep-pdn "$tmp/sleep.pdn" '^\[Termination "loss on time"\]'
matches sleep-pdn "$tmp/sleep.pdn" '^\[TimeControl "1"\]'
tr '\n' ' ' <"$tmp/sleep.pdn" | grep -Eq '\[%clk 0:00:0[01]\.[0-9]{3}\]' && ok ||
    fail "sleep-pdn: no %clk comment"

# Hub version 1 (Scan 2.0): found from its `name` line, or forced with --proto.
run hub1 --engine "$FAKE --proto hub1 --name old" --engine "$good" --tc 30+0.1 --games 2 \
    --max-plies 20 --openings start
[ "$rc" -eq 0 ] || fail "hub1: exit $rc: $(cat "$tmp/hub1.err")"
has hub1 "$tmp/hub1.out" "game 1/2: old - good 1-1 adjudicated: 20 plies (20 plies, opening 1)"
has hub1 "$tmp/hub1.out" "white wins 0, draws 2, black wins 0; forfeits 0 (on time 0)"
run hub1n --engine "$FAKE --proto hub1" --engine "$good" --nodes 1000 --games 2
[ "$rc" -eq 1 ] && grep -q "no nodes limit" "$tmp/hub1n.err" && ok ||
    fail "hub1 with --nodes: exit $rc, $(cat "$tmp/hub1n.err")"

# Pairs and the SPRT: an engine that always forfeits loses every pair; the test
# decides for H1 after 5 pairs (it is not judged before), long before 100 games.
run sprt --engine "$good" --engine "$FAKE --name bad --mode garbage" --depth 1 --games 100 \
    --sprt 0 50 --concurrency 2 --openings start
[ "$rc" -eq 0 ] || fail "sprt: exit $rc"
# Two games at once: the pair that decides may complete after one or two games of the
# next pairs have ended, so 10 to 12 games (5 or 6 pairs) are done when it stops.
matches sprt "$tmp/sprt.out" '^pairs ([56]): penta 0 0 0 0 \1$'
matches sprt "$tmp/sprt.out" '^stopped after 1[0-2] of 100 games: the SPRT decided$'
matches sprt "$tmp/sprt.out" '^sprt elo0 0 elo1 50 alpha 0.05 beta 0.05: llr [0-9.]+ \(-2.94, 2.94\): H1 accepted$'
matches sprt "$tmp/sprt.out" '^elo good - bad: \+inf '

# damier against damier at depth 2, 4 games, 2 at once, from a ballot of two
# openings; the PDN replays.
printf 'W:W31-50:B1-20\nB:W31-40,42-50,28:B1-20\n' >"$tmp/two.fen"
run self --engine "$DAMIER hub" --engine "$DAMIER hub" --depth 2 --games 4 --concurrency 2 \
    --openings "$tmp/two.fen" --max-plies 60 --pdn "$tmp/self.pdn"
[ "$rc" -eq 0 ] || fail "self: exit $rc: $(cat "$tmp/self.err")"
matches self "$tmp/self.out" '^match damier-1 - damier-2: 4 games, depth 2, openings .* \(2\), concurrency 2$'
if [ "$(grep -c '^game [1-4]/4: ' "$tmp/self.out")" = 4 ]; then ok; else fail "self: not 4 games"; fi
has self "$tmp/self.out" "pairs 2: penta $(grep -o 'penta .*' "$tmp/self.out" | tail -1 | cut -d' ' -f2-)"
matches self "$tmp/self.out" '^elo damier-1 - damier-2: '
"$DAMIER" pdn check "$tmp/self.pdn" | grep -qx "4 games, 4 legal, 0 with illegal moves, 0 unreadable" &&
    ok || fail "self: the PDN does not replay"

# damier ballot: the position after 2 plies of the games from the initial position
# (games 1 and 2, the same moves: one position), not of those with a FEN (3 and 4).
"$DAMIER" ballot --plies 2 --depth 0 "$tmp/self.pdn" >"$tmp/ballot.fen" 2>"$tmp/ballot.err"
if [ "$(grep -vc '^#' "$tmp/ballot.fen")" = 1 ]; then ok; else
    fail "ballot: not one position: $(cat "$tmp/ballot.fen")"; fi
has ballot "$tmp/ballot.err" "damier ballot: 4 games read, 2 used, 1 positions, 1 kept"
# damier ballot --pieces 7-9: the first position of a game with 7 to 9 pieces and no
# capture to make (endgame starts, from any start position): the first game reaches 9
# pieces by 28x17 (Black to move, quiet); the second keeps 10 pieces; the third falls
# from 10 to 9 and 8 pieces by captures that leave the next capture pending, then to
# 7 (quiet: its position is the one taken).
cat >"$tmp/end.pdn" <<'PDN'
[FEN "W:W28,45,46,47,48:B22,1,2,3,4"]
1. 28x17 4-10 *

[FEN "W:W45,46,47,48,49:B1,2,3,4,5"]
1. 46-41 *

[FEN "W:W28,29,39,44,46:B22,24,1,2,3"]
1. 28x17 24x33 2. 39x28 *
PDN
"$DAMIER" ballot --pieces 7-9 --depth 0 "$tmp/end.pdn" >"$tmp/end.fen" 2>"$tmp/end.err"
if [ "$(grep -v '^#' "$tmp/end.fen" | tr '\n' ' ')" = "B:W17,45-48:B1-4 B:W17,28,44,46:B1-3 " ]; then
    ok; else fail "ballot --pieces: $(cat "$tmp/end.fen" "$tmp/end.err")"; fi
has ballot-pieces "$tmp/end.err" "damier ballot: 3 games read, 2 used, 2 positions, 2 kept"
for bad in 9-7 1-9 7 7-9x; do
    rc=0
    "$DAMIER" ballot --pieces "$bad" "$tmp/end.pdn" >"$tmp/bad-pieces.out" 2>&1 || rc=$?
    [ "$rc" -eq 2 ] && grep -q "^damier ballot: --pieces '$bad': give MIN-MAX" "$tmp/bad-pieces.out" &&
        ok || fail "ballot --pieces $bad: exit $rc: $(cat "$tmp/bad-pieces.out")"
done
# ... which match reads back; without --openings the ballot shipped in data/ is
# played when it is there (it is beside the build folder).
run ballot --engine "$good" --engine "$good" --depth 1 --games 2 --openings "$tmp/ballot.fen"
matches ballot "$tmp/ballot.out" '^match good-1 - good-2: 2 games, depth 1, openings .*/ballot.fen \(1\), concurrency 1$'
if [ -f "$(dirname "$DAMIER")/../data/ballot.fen" ]; then
    run default --engine "$good" --engine "$good" --depth 1 --games 2 --max-plies 4
    matches default "$tmp/default.out" '^match .* openings .*/data/ballot.fen \([0-9]{3,}\), '
fi

# SIGINT: the game under way is dropped, the summary printed, exit status 130.
rc=0
timeout --preserve-status -s INT 2 "$DAMIER" match --engine "$good" --engine "$FAKE --mode sleep --sleep 10" \
    --depth 1 --games 4 --openings start --pdn "$tmp/int.pdn" >"$tmp/int.out" 2>&1 || rc=$?
[ "$rc" -eq 130 ] || fail "interrupt: exit $rc"
has interrupt "$tmp/int.out" "interrupted after 0 of 4 games"
matches interrupt "$tmp/int.out" '^games 0: '

# An engine that cannot start stops the match with exit status 1.
run nostart --engine "$tmp/no-such-engine" --engine "$good" --depth 1
[ "$rc" -eq 1 ] && grep -q "did not start" "$tmp/nostart.err" && ok ||
    fail "nostart: exit $rc, $(cat "$tmp/nostart.err")"
run nodir --engine "$good" --dir "$tmp/no-such-dir" --engine "$good" --depth 1
[ "$rc" -eq 1 ] && grep -q "cannot enter folder" "$tmp/nodir.err" && ok ||
    fail "nodir: exit $rc, $(cat "$tmp/nodir.err")"

# Bad options: exit 2, a message, nothing on stdout.
echo "W:W31-50:B1-20:X" >"$tmp/bad.fen"
rejects match "" "--engine $FAKE" "--engine $FAKE --engine $FAKE" \
    "--engine $FAKE --engine $FAKE --engine $FAKE --depth 1" \
    "--engine $FAKE --engine $FAKE --tc 40/60:30" "--engine $FAKE --engine $FAKE --tc abc" \
    "--engine $FAKE --engine $FAKE --depth 0" "--engine $FAKE --engine $FAKE --depth 1 --games 0" \
    "--engine $FAKE --engine $FAKE --depth 1 --variant russian --proto hub1" \
    "--engine $FAKE --engine $FAKE --depth 1 --variant nosuch" \
    "--engine $FAKE --engine $FAKE --depth 1 --openings $tmp/none.fen" \
    "--engine $FAKE --engine $FAKE --depth 1 --openings $tmp/bad.fen" \
    "--engine $FAKE --engine $FAKE --depth 1 --sprt 5 0" \
    "--engine $FAKE --engine $FAKE --depth 1 --proto uci" \
    "--engine $FAKE --engine $FAKE --depth 1 --param novalue" \
    "--engine $FAKE --engine $FAKE --inc 1" "--engine $FAKE --engine $FAKE --depth 1 extra" \
    "--engine $FAKE --engine $FAKE --depth 1 --adjudicate-draw 10,5" \
    "--engine $FAKE --engine $FAKE --depth 1 --adjudicate-win 0,3"
finish
