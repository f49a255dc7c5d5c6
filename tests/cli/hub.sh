#!/usr/bin/env bash
# tests/cli/hub.sh: drive `damier hub` through a pipe: handshake, a search with
# bad lines around it (each answered by an error, the engine keeps going), stop of
# an infinite analysis, and end of input as quit.
# Usage: bash hub.sh <damier binary> <shared dir>
set -u
bin=$1
fail() { echo "FAIL: $*"; echo "--- output:"; echo "$out"; exit 1; }
start=Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww

out=$(printf '%s\n' "hub" "set-param name=hash value=8" "init" "ping" \
    "pos pos=$start moves=\"32-28 19-23 28x19\"" "level depth=6" "go think" \
    "this is garbage" "pos pos=Wbad" "pos pos=$start moves=\"32-29\"" "level depth=minus" \
    'level move-time="' "pos pos=$start" "level move-time=0.05" "go think" "quit" |
    timeout 30 "$bin" hub)
rc=$?
[ $rc -eq 0 ] || fail "exit status $rc"
grep -q '^id name=damier' <<<"$out" || fail "no id line"
grep -q '^param name=threads ' <<<"$out" || fail "no threads param"
grep -q '^wait$' <<<"$out" || fail "no wait"
grep -q '^ready$' <<<"$out" || fail "no ready"
grep -q '^pong$' <<<"$out" || fail "no pong"
grep -q '^info depth=6 .* pv="' <<<"$out" || fail "no depth-6 info line"
[ "$(grep -c '^done move=' <<<"$out")" -eq 2 ] || fail "expected two done lines"
grep -q '^error message="bad position' <<<"$out" || fail "bad position not reported"
grep -q "^error message=\"illegal move 1 '32-29'" <<<"$out" || fail "illegal move not reported"
grep -q '^error message="bad level: depth=' <<<"$out" || fail "bad level not reported"
grep -q '^error message="cannot read the line' <<<"$out" || fail "unterminated quote not reported"
grep -q 'garbage' <<<"$out" && fail "an unknown command was answered"

# The first search's move must be legal after 32-28 19-23 28x19 (Black to move:
# Black must capture 19, so the move is a capture ending the exchange).
move=$(grep '^done move=' <<<"$out" | head -1 | sed 's/^done move=\([^ ]*\).*/\1/')
"$bin" moves --format hub --fen "B:W19,31,33-50:B1-18,20" | grep -qx -- "$move" ||
    fail "first move $move is not legal"
move=$(grep '^done move=' <<<"$out" | tail -1 | sed 's/^done move=\([^ ]*\).*/\1/')
"$bin" moves --format hub | grep -qx -- "$move" || fail "second move $move is not legal"

# Infinite analysis stopped by `stop`; then end of input (no quit) ends the engine.
t0=$(date +%s%N)
out=$({ printf 'hub\ninit\nlevel infinite\ngo analyze\n'; sleep 0.5; printf 'ping\nstop\n'; } |
    timeout 20 "$bin" hub)
rc=$?
t1=$(date +%s%N)
[ $rc -eq 0 ] || fail "exit status $rc after stop + EOF"
grep -q '^pong$' <<<"$out" || fail "no pong during the search"
grep -q '^done move=' <<<"$out" || fail "no done after stop"
ms=$(( (t1 - t0) / 1000000 ))
[ $ms -lt 5000 ] || fail "stop + EOF took $ms ms"

# Commands right after `stop` (before `done`) wait for the stopped search.
out=$({ printf 'level infinite\ngo analyze\n'; sleep 0.3;
        printf 'stop\nlevel depth=4\ngo think\n'; sleep 0.5; } | timeout 20 "$bin" hub)
[ "$(grep -c '^done move=' <<<"$out")" -eq 2 ] || fail "expected two done lines after stop"
grep -q '^error' <<<"$out" && fail "a command after stop was refused"

# Ponder then ponder-hit under a move time: done comes by itself.
out=$({ printf 'pos pos=%s\nlevel move-time=0.2\ngo ponder\n' "$start"; sleep 0.3;
        printf 'ponder-hit\n'; sleep 1; } | timeout 20 "$bin" hub)
grep -q '^done move=' <<<"$out" || fail "no done after ponder-hit"

# The endgame database param: a bad folder (on the command line and by set-param) is
# an error and the engine plays on; the default folder ($XDG_DATA_HOME/damier/egdb)
# is used when present and announced by `hub`; --egdb "" turns it off.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
kvk=WeeeeeeeeeWeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeBeeee
out=$(printf '%s\n' "set-param name=egdb value=$tmp/missing" "hub" "init" "pos pos=$start" \
    "level depth=2" "go think" | timeout 30 "$bin" hub --egdb "$tmp/nowhere" 2>"$tmp/err")
grep -q "^damier hub: error message=\"set-param egdb: cannot use '$tmp/nowhere': No such file or directory" \
    "$tmp/err" || fail "hub --egdb on a missing folder: stderr $(cat "$tmp/err")"
grep -q "^error message=\"set-param egdb: cannot use '$tmp/missing': No such file or directory; the engine plays on without one\"$" \
    <<<"$out" || fail "set-param egdb on a missing folder not reported"
grep -q '^param name=egdb value="" type=string$' <<<"$out" || fail "egdb param not announced empty"
grep -q '^done move=' <<<"$out" || fail "no move after a bad egdb folder"
mkdir -p "$tmp/xdg/damier"
"$bin" egdb gen --pieces 2 --dir "$tmp/xdg/damier/egdb" >/dev/null 2>&1 || fail "egdb gen"
out=$(printf '%s\n' "hub" "pos pos=$kvk" "level depth=1" "go think" |
    XDG_DATA_HOME=$tmp/xdg timeout 30 "$bin" hub 2>"$tmp/err")
grep -q "^param name=egdb value=$tmp/xdg/damier/egdb type=string$" <<<"$out" ||
    fail "the default egdb folder is not used"
grep -q '^info depth=1 .*score=89.97 egdb=win dtc=3 ' <<<"$out" || fail "no database score from the default folder"
[ -s "$tmp/err" ] && fail "stderr with the default folder: $(cat "$tmp/err")"
out=$(printf '%s\n' "hub" "pos pos=$kvk" "level depth=1" "go think" |
    XDG_DATA_HOME=$tmp/xdg timeout 30 "$bin" hub --egdb "" 2>"$tmp/err")
grep -q '^param name=egdb value="" type=string$' <<<"$out" || fail "hub --egdb \"\" kept a database"
grep -q 'egdb=win ' <<<"$out" && fail "hub --egdb \"\" still probes"

# --book: no book by default; builtin is announced as the book param; a file that is
# not there stops the engine with exit 2 and the reason (the command line asked for it).
out=$(printf '%s\n' "hub" "quit" | timeout 30 "$bin" hub 2>"$tmp/err")
grep -q '^param name=book value=off type=string$' <<<"$out" || fail "a book is on by default"
out=$(printf '%s\n' "hub" "quit" | timeout 30 "$bin" hub --book builtin 2>"$tmp/err")
grep -q '^param name=book value=builtin type=string$' <<<"$out" || fail "hub --book builtin not announced"
out=$(printf '%s\n' "hub" "quit" | timeout 30 "$bin" hub --book "$tmp/none.dmbk" 2>"$tmp/err")
rc=$?
[ $rc -eq 2 ] || fail "hub --book with a missing file: exit $rc, not 2"
grep -q "none.dmbk: No such file" "$tmp/err" || fail "hub --book with a missing file: no reason: $(cat "$tmp/err")"
echo "ok"
