#!/usr/bin/env bash
# tests/cli/jump.sh: the jumping games on the command line (issue 14): `damier moves`
# and `damier perft` with --game, the same through `damier jump`, and bad input
# (unknown game, player count, position string) answered with exit status 2 and a
# message that says what and where. The counts are derived in tests/rules/test_jump.c.
set -u
bin=$1
fail() { echo "FAIL: $*"; exit 1; }
out=$("$bin" moves --game chinese-checkers) || fail "moves chinese-checkers"
[ "$(tail -1 <<<"$out")" = "14 moves" ] || fail "chinese start: $(tail -1 <<<"$out")"
[ "$(head -1 <<<"$out")" = "112-103" ] || fail "first move $(head -1 <<<"$out")"
out=$("$bin" perft --game chinese-checkers --players 3 2) || fail "perft 3 players"
[ "$(cut -d' ' -f1,2 <<<"$out" | tr '\n' ' ')" = "1 14 2 196 " ] || fail "perft: $out"
# Deeper counts of the fast generator (the slow one agrees to depth 3 in test_jump).
out=$("$bin" perft --game chinese-checkers 4) || fail "perft chinese 4"
[ "$(tail -1 <<<"$out" | cut -d' ' -f1,2)" = "4 115600" ] || fail "chinese perft 4: $out"
out=$("$bin" perft --game halma 3) || fail "perft halma 3"
[ "$(tail -1 <<<"$out" | cut -d' ' -f1,2)" = "3 85440" ] || fail "halma perft 3: $out"
out=$("$bin" perft --game gewu 6) || fail "perft gewu 6"
[ "$(tail -1 <<<"$out" | cut -d' ' -f1,2)" = "6 6558" ] || fail "gewu perft 6: $out"
out=$("$bin" jump search --game chinese-checkers 3) || fail "jump search"
grep -qE '^best [0-9-]+ score -?[0-9]+ nodes [0-9]+ seconds [0-9.]+ nps [0-9]+$' <<<"$out" ||
    fail "search line: $out"
out=$("$bin" jump perft --game gewu 1) || fail "jump perft gewu"
[ "$(cut -d' ' -f1,2 <<<"$out")" = "1 4" ] || fail "gewu perft 1: $out"
out=$("$bin" moves --game halma --fen "A:Ac3:Bd3,e4,d5,c4") || fail "halma loop"
grep -qx 'c3-e3-e5' <<<"$out" || fail "no chain c3-e3-e5: $out"
[ "$(tail -1 <<<"$out")" = "9 moves" ] || fail "halma loop count: $out"
out=$("$bin" perft --game halma --board 8 --divide 1) || fail "halma divide"
[ "$(grep -c ' 1$' <<<"$out")" = 24 ] || fail "halma 8x8 divide: $out"
err=$("$bin" moves --game chinese-checkers --fen "A:A1-10:B12x" 2>&1) && fail "bad fen accepted"
grep -q "column 12" <<<"$err" || fail "bad fen message: $err"
err=$("$bin" moves --game sternhalma 2>&1) && fail "unknown game accepted"
grep -q "chinese-checkers, halma, gewu" <<<"$err" || fail "unknown game message: $err"
err=$("$bin" perft --game chinese-checkers --players 5 1 2>&1) && fail "5 players accepted"
grep -q "2, 3, 4 or 6" <<<"$err" || fail "players message: $err"
"$bin" perft --game halma 0 >/dev/null 2>&1 && fail "depth 0 accepted"
# The capture game (食棋) for several players: any seat moves any peg, the last
# capture wins; engines that see the danger avoid giving it, and the no-progress rule
# ends the game (the terminal game applied only its own 3000-action cap before).
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
out=$("$bin" moves --game chinese-checkers --players 3 --options capture --fen "C:A61,62") ||
    fail "capture moves"
[ "$(tr '\n' ' ' <<<"$out")" = "61-63 62-60 2 moves " ] || fail "capture moves: $out"
err=$("$bin" moves --game chinese-checkers --players 2 --options capture --fen "A:A61:B62" 2>&1) &&
    fail "a peg of seat B accepted"
grep -q "belong to no seat" <<<"$err" || fail "capture seat message: $err"
out=$("$bin" play --game chinese-checkers --players 3 --options capture --seats engine,engine,engine \
    --level 6 --plain --save-dir "$tmp" 2>&1) || fail "capture game: $out"
grep -q '^result: 0-0-0 no winner: 50 rounds without progress' <<<"$out" ||
    fail "capture game end: $(tail -3 <<<"$out")"
"$bin" pdn check "$tmp"/*.pdn >/dev/null || fail "capture game record"
out=$("$bin" play --game chinese-checkers --players 2 --options capture --seats engine,engine \
    --level 1 --plain --save-dir "$tmp/g" 2>&1) || fail "greedy capture game: $out"
grep -q '^result: 0-1 B wins' <<<"$out" || fail "greedy capture end: $(tail -3 <<<"$out")"
"$bin" pdn check "$tmp"/g/*.pdn >/dev/null || fail "greedy capture record"
out=$("$bin" jump match --game chinese-checkers --players 2 --options capture --games 20 --level 6) ||
    fail "capture match"
grep -q "engine won 20 " <<<"$out" || fail "capture match vs greedy: $out"
# The last pegs' table: sizes and distances (derived in tests/rules/test_jump_pegdb.c:
# a peg alone on its home tip needs 13 moves), a race position's distance and move.
out=$("$bin" jump pegdb --game chinese-checkers 1) || fail "pegdb 1"
[ "$(head -1 <<<"$out" | cut -d' ' -f1-6)" = "pegs 1 squares 121 entries 121" ] || fail "pegdb: $out"
grep -q "max 13$" <<<"$(head -1 <<<"$out")" || fail "pegdb max: $out"
grep -qx "distance 0 sets 10" <<<"$out" || fail "pegdb goal: $out"
grep -qx "unreached 0" <<<"$out" || fail "pegdb unreached: $out"
out=$("$bin" jump pegdb --game chinese-checkers --fen "A:A1-7,15,30,52:B100-109" 3) ||
    fail "pegdb fen"
grep -qE '^race yes distance [0-9]+$' <<<"$out" || fail "pegdb race: $out"
grep -qE '^move [0-9-]+$' <<<"$out" || fail "pegdb move: $out"
out=$("$bin" jump pegdb --game chinese-checkers --fen "A:A1-7,15,30,99:B100-109" 3) ||
    fail "pegdb no race"
grep -qE '^race no distance [0-9]+$' <<<"$out" || fail "pegdb no race: $out"
err=$("$bin" jump pegdb --game chinese-checkers 5 2>&1) && fail "pegdb 5 accepted"
grep -q "1..4" <<<"$err" || fail "pegdb 5 message: $err"
err=$("$bin" jump pegdb --game gewu 1 2>&1) && fail "pegdb gewu accepted"
grep -q "chinese-checkers and halma" <<<"$err" || fail "pegdb gewu message: $err"
# The engine at level 2 (one ply) with the table (--endgame 3): in the races it won it
# took exactly the table's minimum from 3 pegs out (the seeded games are the same in
# every run).
out=$("$bin" jump match --game halma --board 8 --options anti-spoil --games 4 --level 2 \
    --endgame 3) || fail "match --endgame"
line=$(grep '^endgame table 3: ' <<<"$out") || fail "match --endgame line: $out"
grep -qE 'races won [1-9][0-9]*, from at most 3 pegs out: engine.s moves ([0-9]+), table minimum \1 \(0\.00 more a race\)' <<<"$line" ||
    fail "match --endgame: $line"
err=$("$bin" jump match --game halma --endgame 7 2>&1) && fail "--endgame 7 accepted"
echo ok
