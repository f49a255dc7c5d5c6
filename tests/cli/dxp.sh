#!/usr/bin/env bash
# tests/cli/dxp.sh: two damier processes play whole games over DXP on loopback: a
# follower (`damier dxp --listen 127.0.0.1:0`) and an initiator (`--connect`), at
# small fixed depths so that it takes seconds and is reproducible. Both must finish
# every game, agree on each result and on the moves, and write PDN that `damier pdn
# check` replays as legal; the message logs hold the whole exchange. Also: the
# options are checked, and an initiator that finds no follower fails cleanly.
# Usage: bash dxp.sh <damier binary> <shared dir>
set -u
DAMIER=$1
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
tmp=$(mktemp -d)
fpid=
trap '[ -n "$fpid" ] && kill "$fpid" 2>/dev/null; rm -rf "$tmp"' EXIT

rejects dxp "" "--listen 1 --connect h:2" "--connect nohostport" "--listen x:y" \
    "--connect h:1 --games 0" "--connect h:1 --time 1000" "--connect h:1 --moves -1" \
    "--connect h:1 --color red" "--connect h:1 --level 11" "--listen 1 --fen W:W31:B1" \
    "--connect h:1 --fen nonsense" "--connect h:1 extra" "--bogus"

# start a follower; its address in $addr
start_follower() {
    # Emptied here, before the follower starts: a listening line left by the previous
    # follower would otherwise be read before the new one's redirection truncates it
    # (the initiator then connects to a closed port and the follower waits for ever).
    : >"$tmp/f.out"
    "$DAMIER" dxp --listen 127.0.0.1:0 "$@" >"$tmp/f.out" 2>"$tmp/f.err" &
    fpid=$!
    addr=
    for _ in $(seq 200); do
        addr=$(sed -n 's/^listening: //p' "$tmp/f.out")
        [ -n "$addr" ] && break
        sleep 0.05
    done
    [ -n "$addr" ] || { fail "the follower did not listen"; cat "$tmp/f.err" >&2; }
}

# game lines without the names' order: "N result R plies P"
games() {
    sed -n 's/^game: \([0-9]*\) .* result \([^ ]*\) plies \([0-9]*\) .*/\1 \2 \3/p' "$1"
}

# the movetext of each game, tags left out (Site and Date differ)
moves_of() {
    grep -v '^\[' "$1"
}

start_follower --depth 3 --seed 1 --pdn "$tmp/f.pdn" --log "$tmp/f.log"
rc=0
timeout 120 "$DAMIER" dxp --connect "$addr" --games 3 --time 2 --moves 30 --level 3 --seed 2 \
    --pdn "$tmp/i.pdn" --log "$tmp/i.log" >"$tmp/i.out" 2>"$tmp/i.err" || rc=$?
frc=0
wait "$fpid" || frc=$?
fpid=
if [ "$rc" -eq 0 ] && [ "$frc" -eq 0 ]; then ok; else
    fail "exit status: initiator $rc, follower $frc"
    cat "$tmp/i.err" "$tmp/f.err" >&2
fi
[ "$(games "$tmp/i.out" | wc -l)" -eq 3 ] && ok || fail "the initiator did not finish 3 games: $(cat "$tmp/i.out")"
if [ "$(games "$tmp/i.out")" = "$(games "$tmp/f.out")" ]; then ok; else
    fail "the sides disagree:"; diff <(games "$tmp/i.out") <(games "$tmp/f.out") >&2
fi
games "$tmp/i.out" | grep -q ' \*' && fail "a game without a result: $(games "$tmp/i.out")"
matches "summary" "$tmp/i.out" '^match: games 3 wins [0-9]+ draws [0-9]+ losses [0-9]+ unfinished 0$'
matches "summary" "$tmp/f.out" '^match: games 3 wins [0-9]+ draws [0-9]+ losses [0-9]+ unfinished 0$'
for side in i f; do
    "$DAMIER" pdn check "$tmp/$side.pdn" >"$tmp/$side.check" 2>&1
    has "pdn check $side" "$tmp/$side.check" "3 games, 3 legal, 0 with illegal moves, 0 unreadable"
done
if [ "$(moves_of "$tmp/i.pdn")" = "$(moves_of "$tmp/f.pdn")" ]; then ok; else
    fail "the PDN movetexts differ"; diff <(moves_of "$tmp/i.pdn") <(moves_of "$tmp/f.pdn") >&2
fi
if diff <(grep '^\[Result' "$tmp/i.pdn") <(grep '^\[Result' "$tmp/f.pdn") >/dev/null; then ok; else
    fail "the PDN results differ"
fi
# colours alternate: the initiator is White in games 1 and 3
matches "colours" "$tmp/i.out" '^game: 2 white "damier [^"]*" black "damier'
matches "time control" "$tmp/i.pdn" '^\[TimeControl "30/120"\]$'
# the logs: GAMEREQ with the fields asked for, GAMEACC 0, moves, GAMEEND both ways
matches "log" "$tmp/i.log" '^ *[0-9.]+ > R01damier [0-9.]+ +Z002030A$'
matches "log" "$tmp/i.log" '^ *[0-9.]+ < Adamier [0-9.]+ +0$'
matches "log" "$tmp/i.log" '^ *[0-9.]+ > M[0-9]{4}3[1-5][0-9]{2}00$'
matches "log" "$tmp/f.log" '^ *[0-9.]+ [<>] E[0-3]1$'
[ "$(grep -c ' > M' "$tmp/i.log")" -eq "$(grep -c ' < M' "$tmp/f.log")" ] && ok ||
    fail "moves sent and received differ in number"

# A start position sent with GAMEREQ (B), no clock, one game; the follower plays White.
start_follower --depth 2 --pdn "$tmp/f2.pdn"
rc=0
timeout 60 "$DAMIER" dxp --connect "$addr" --games 1 --time 0 --moves 0 --depth 2 \
    --color black --fen "W:W27,28,32,33,37,38,K50:B12,13,17,18,19,23,K1" \
    --pdn "$tmp/i2.pdn" --log "$tmp/i2.log" >"$tmp/i2.out" 2>"$tmp/i2.err" || rc=$?
frc=0
wait "$fpid" || frc=$?
fpid=
[ "$rc" -eq 0 ] && [ "$frc" -eq 0 ] && ok || { fail "position game: exit $rc / $frc"; cat "$tmp/i2.err" "$tmp/f.err" >&2; }
matches "position sent" "$tmp/i2.log" '^ *[0-9.]+ > R01damier [0-9.]+ +W000000BW'
matches "position kept" "$tmp/i2.pdn" '^\[FEN "W:W27,28,32,33,37,38,K50:BK1,12,13,17-19,23"\]$'
"$DAMIER" pdn check "$tmp/f2.pdn" "$tmp/i2.pdn" >"$tmp/c2" 2>&1
has "position game check" "$tmp/c2" "2 games, 2 legal, 0 with illegal moves, 0 unreadable"
[ "$(games "$tmp/i2.out")" = "$(games "$tmp/f.out")" ] && ok || fail "position game: sides disagree"

# No follower: the initiator gives up after its retries, exit 1, no hang.
port=$(( (RANDOM % 20000) + 30000 ))
rc=0
timeout 30 "$DAMIER" dxp --connect "127.0.0.1:$port" --games 1 --wait 1 >"$tmp/n.out" 2>"$tmp/n.err" || rc=$?
[ "$rc" -eq 1 ] && ok || fail "no follower: exit $rc"
matches "no follower" "$tmp/n.err" "cannot connect to 127.0.0.1:$port"
finish
