#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/match_dxp.sh: `damier match` with DXP engines (docs/MATCH.md). damier's
# own Hub engine against `damier dxp --listen 127.0.0.1:0` (started by the match, its
# address read from its `listening:` line; two games at once, each with its own
# follower) and against a follower that is already listening (--engine dxp:ADDR): the
# results, legal moves (`damier pdn check`), the follower's own record agreeing with
# the referee's. The fake DXP follower of tests/fake/fake_dxp.c ($DM_FAKE_DXP) plays
# an illegal move, a malformed one, drops the connection, goes silent, resigns or
# claims a draw the rules do not give: each a forfeit (or a loss on time, or a
# resignation) with the PDN kept, never a hang. Bad options.
# Usage: match_dxp.sh DAMIER [SHARED]
set -u
DAMIER=$1
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
FAKE=${DM_FAKE_DXP:-}
if [ -z "$FAKE" ] || [ ! -x "$FAKE" ]; then
    echo "SKIP: no fake DXP follower (DM_FAKE_DXP)"
    exit 77
fi
tmp=$(mktemp -d)
fpid=
trap '[ -n "$fpid" ] && kill "$fpid" 2>/dev/null; rm -rf "$tmp"' EXIT

run() {
    local name=$1
    shift
    rc=0
    timeout 60 "$DAMIER" match "$@" >"$tmp/$name.out" 2>"$tmp/$name.err" || rc=$?
}
# the results of a PDN file, sorted
results() {
    sed -n 's/^\[Result "\(.*\)"\]$/\1/p' "$1" | sort
}

# The start position (drawn by the referee after 40 plies) and one that White wins
# in a few moves; each opening twice, colours swapped; two games at once.
printf 'W:W31-50:B1-20\nW:W32,33,34:B23,24\n' >"$tmp/open.fen"
follower="$DAMIER dxp --listen 127.0.0.1:0 --depth 3 --seed 1 --pdn $tmp/follower.pdn"
run loop --engine "$DAMIER hub" --engine "$follower 2>$tmp/follower.err" --proto auto --proto dxp \
    --depth 3 --games 4 --concurrency 2 --openings "$tmp/open.fen" --max-plies 40 \
    --pdn "$tmp/loop.pdn" --fail-on-forfeit
[ "$rc" -eq 0 ] || fail "loop: exit $rc: $(cat "$tmp/loop.err")"
matches loop "$tmp/loop.out" '^game [1-4]/4: damier - damier [0-9.]+ 1-1 adjudicated: 40 plies \(40 plies, opening 1\)$'
matches loop "$tmp/loop.out" '^game [1-4]/4: damier [0-9.]+ - damier 2-0 no pieces left \([0-9]+ plies, opening 2\)$'
matches loop "$tmp/loop.out" '^game [1-4]/4: damier - damier [0-9.]+ 2-0 no pieces left \([0-9]+ plies, opening 2\)$'
has loop "$tmp/loop.out" "white wins 2, draws 2, black wins 0; forfeits 0 (on time 0)"
"$DAMIER" pdn check "$tmp/loop.pdn" >"$tmp/loop.check" 2>&1
has loop-check "$tmp/loop.check" "4 games, 4 legal, 0 with illegal moves, 0 unreadable"
matches loop-pdn "$tmp/loop.pdn" '^\[White "damier [0-9.]+"\]$'
matches loop-pdn "$tmp/loop.pdn" '^\[FEN "W:W32-34:B23,24"\]$'
# the follower's own records: the same four results (its games end as the referee
# says), legal moves
if [ "$(results "$tmp/loop.pdn")" = "$(results "$tmp/follower.pdn")" ]; then ok; else
    fail "loop: the follower's results differ: $(results "$tmp/follower.pdn" | tr '\n' ' ')"
fi
"$DAMIER" pdn check "$tmp/follower.pdn" >"$tmp/follower.check" 2>&1
has follower-check "$tmp/follower.check" "4 games, 4 legal, 0 with illegal moves, 0 unreadable"

# A follower already listening (it serves one connection after the other): two
# games on one connection, on a clock; its name comes from its GAMEACC.
: >"$tmp/f.out"
"$DAMIER" dxp --listen 127.0.0.1:0 --keep-listening --depth 2 >"$tmp/f.out" 2>"$tmp/f.err" &
fpid=$!
addr=
for _ in $(seq 200); do
    addr=$(sed -n 's/^listening: //p' "$tmp/f.out")
    [ -n "$addr" ] && break
    sleep 0.05
done
[ -n "$addr" ] || fail "the follower did not listen"
run addr --engine "dxp:$addr" --engine "$DAMIER hub" --depth 2 --tc 60+0.5 --games 2 \
    --openings "$tmp/open.fen" --max-plies 12 --pdn "$tmp/addr.pdn"
[ "$rc" -eq 0 ] || fail "addr: exit $rc: $(cat "$tmp/addr.err")"
has addr "$tmp/addr.out" "white wins 0, draws 2, black wins 0; forfeits 0 (on time 0)"
matches addr "$tmp/addr.out" '^game 1/2: damier [0-9.]+ - damier 1-1 adjudicated: 12 plies'
matches addr-pdn "$tmp/addr.pdn" '^\[TimeControl "60\+0\.5"\]$'
matches addr-pdn "$tmp/addr.pdn" '\[%clk 0:0[01]:[0-9]{2}\.[0-9]{3}\]'
# the follower played both games and kept listening
if [ "$(grep -c '^game: ' "$tmp/f.out")" = 2 ]; then ok; else fail "addr: $(cat "$tmp/f.out")"; fi
kill "$fpid" 2>/dev/null
wait "$fpid" 2>/dev/null
fpid=

# The faulty follower: from its 3rd move of each game on. Each game ends at once (a
# clock of 2 s: a silent follower loses on time), White and Black in turn.
fault() {
    local mode=$1
    run "$mode" --engine "$DAMIER hub" --engine "$FAKE --mode $mode --after 3" --proto auto \
        --proto dxp --depth 2 --tc 2+0.1 --games 2 --openings start --pdn "$tmp/$mode.pdn"
    [ "$rc" -eq 0 ] || fail "$mode: exit $rc: $(cat "$tmp/$mode.err")"
    matches "$mode" "$tmp/$mode.out" "^game 1/2: damier - fake dxp 2-0 $2 \\(5 plies, opening 1\\)\$"
    matches "$mode" "$tmp/$mode.out" "^game 2/2: fake dxp - damier 0-2 $2 \\(4 plies, opening 1\\)\$"
    "$DAMIER" pdn check "$tmp/$mode.pdn" >"$tmp/$mode.check" 2>&1
    has "$mode-check" "$tmp/$mode.check" "2 games, 2 legal, 0 with illegal moves, 0 unreadable"
}
fault illegal 'forfeit: fake dxp played M0000[0-9]{6} in [^ ]+: illegal move .*'
fault garbage "forfeit: fake dxp sent a malformed move 'M12': .*"
fault drop 'forfeit: fake dxp: connection lost \(closed by the peer\)'
fault mute 'loss on time: fake dxp lost on time \(no move in 2\.[0-9]+ s\)'
fault resign 'resignation: fake dxp resigned'
fault claim 'forfeit: fake dxp claimed a draw that the rules do not give'
# a follower that refuses every game: each is lost by forfeit, the match goes on
run refuse --engine "$DAMIER hub" --engine "$FAKE --mode refuse" --proto auto --proto dxp \
    --depth 2 --games 2 --openings start
[ "$rc" -eq 0 ] || fail "refuse: exit $rc: $(cat "$tmp/refuse.err")"
has refuse "$tmp/refuse.out" "game 1/2: damier - fake dxp 2-0 forfeit: fake dxp refused the game (GAMEACC 2) (0 plies, opening 1)"
has refuse "$tmp/refuse.out" "game 2/2: fake dxp - damier 0-2 forfeit: fake dxp refused the game (GAMEACC 2) (0 plies, opening 1)"
has drop "$tmp/drop.out" "white wins 1, draws 0, black wins 1; forfeits 2 (on time 0)"
matches drop-pdn "$tmp/drop.pdn" '^\[Termination "forfeit"\]$'
matches drop-pdn "$tmp/drop.pdn" 'lost \(closed by the peer\)\} 0-2$'
matches mute-pdn "$tmp/mute.pdn" '^\[Termination "loss on time"\]$'
# a correct fake that lists its captured squares in descending order (the first
# engine, a DXP engine against a DXP engine): no forfeit
run first --engine "$FAKE" --engine "$follower 2>/dev/null" --proto dxp --proto dxp --games 2 \
    --tc 30 --openings "$tmp/open.fen" --max-plies 30 --pdn "$tmp/first.pdn" --fail-on-forfeit
[ "$rc" -eq 0 ] || fail "first: exit $rc: $(cat "$tmp/first.err")"
has first "$tmp/first.out" "white wins 0, draws 2, black wins 0; forfeits 0 (on time 0)"
"$DAMIER" pdn check "$tmp/first.pdn" >"$tmp/first.check" 2>&1
has first-check "$tmp/first.check" "2 games, 2 legal, 0 with illegal moves, 0 unreadable"
matches first-pdn "$tmp/first.pdn" 'x[0-9]+ \{'

# Nobody listens: the match does not start (exit 1), within its --timeout.
port=$(((RANDOM % 20000) + 30000))
run none --engine "dxp:127.0.0.1:$port" --engine "$DAMIER hub" --depth 2 --timeout 1
if [ "$rc" -eq 1 ]; then ok; else fail "none: exit $rc"; fi
matches none "$tmp/none.err" "did not start: no connection to 127\\.0\\.0\\.1:$port in 1 s"

rejects match "--engine dxp:host: --engine x --depth 1" "--engine dxp:1:2:x --engine x --depth 1" \
    "--engine dxp:0 --engine x --depth 1" "--engine dxp:1 --engine x --proto hub --depth 1" \
    "--engine dxp:1 --engine x --concurrency 2 --depth 1" "--engine dxp:1 --engine x --movetime 1" \
    "--engine x --engine y --proto dxp:a:b --depth 1" "--engine x --engine y --proto dxpx --depth 1"
finish
