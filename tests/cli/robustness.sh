#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/robustness.sh: hostile input found by fuzzing, one check per bug fixed:
# each input must give one clear error and leave the program running (protocols,
# play) or exit nonzero (one-shot commands); never a crash, hang or silent guess.
# Usage: bash robustness.sh <damier binary> [<shared dir>]
set -u
DAMIER=${1:?usage: robustness.sh <damier binary> [<shared dir>]}
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export XDG_DATA_HOME="$tmp/xdg"

# count NAME FILE ERE WANT: exactly WANT lines of FILE match ERE.
count() {
    local got
    got=$(grep -cE -- "$3" "$2")
    if [ "$got" -eq "$4" ]; then ok; else fail "$1: $got lines matching /$3/, expected $4 in:"; head -c 2000 "$2" >&2; fi
}

# play: a line longer than the 8 KiB input buffer is one bad line, not many (its
# tail used to be read as further moves: 100 000 digits gave 12 errors).
{ head -c 100000 /dev/zero | tr '\0' '3'; printf '\n32-28\nquit\n'; } |
    timeout 60 "$DAMIER" play --depth 1 --seed 1 >"$tmp/long" 2>&1
count "play long line" "$tmp/long" '^error: ' 1
has "play long line" "$tmp/long" "move: 1. 32-28"
{ printf 'save '; head -c 20000 /dev/zero | tr '\0' 'x'; printf '\nquit\n'; } |
    timeout 60 "$DAMIER" play --depth 1 --seed 1 >"$tmp/longsave" 2>&1
count "play long save" "$tmp/longsave" '^error: ' 1

# analyse: conflicting or stray arguments used to print only the usage, not why.
rc=0; "$DAMIER" analyse --depth 3 --movetime 1 >"$tmp/out" 2>"$tmp/err" || rc=$?
[ "$rc" -eq 2 ] && ok || fail "analyse --depth --movetime: exit $rc"
matches "analyse --depth --movetime" "$tmp/err" '^damier analyse: --depth and --movetime exclude each other$'
rc=0; "$DAMIER" analyse 7 >"$tmp/out" 2>"$tmp/err" || rc=$?
[ "$rc" -eq 2 ] && ok || fail "analyse stray argument: exit $rc"
matches "analyse stray argument" "$tmp/err" "^damier analyse: unexpected argument '7'$"

# hub: a command the protocol forbids during a search (here `level`) waits for the
# search; a `stop` sent after it used to stay unread, so a deep search hung the
# engine. Now the stop is seen while waiting: both searches answer within seconds.
start=$(date +%s)
{ printf 'level depth=60\ngo think\n'; sleep 0.5; printf 'level depth=2\nstop\n'; sleep 0.3
  printf 'go think\n'; sleep 0.5; printf 'ping\n'; } | timeout 30 "$DAMIER" hub >"$tmp/hub" 2>&1
rc=$?
[ "$rc" -eq 0 ] && ok || fail "hub level+stop during a deep search: exit $rc (124: hung)"
count "hub level+stop" "$tmp/hub" '^done move=' 2
has "hub level+stop" "$tmp/hub" "pong"
[ $(( $(date +%s) - start )) -lt 15 ] && ok || fail "hub level+stop: took over 15 s"

# One-shot commands whose output cannot be written (full disk) exited 0.
if [ -w /dev/full ]; then
    for args in "moves" "perft 2" "moves --variant russian" "analyse --depth 2"; do
        rc=0; $DAMIER $args >/dev/full 2>"$tmp/err" || rc=$?
        [ "$rc" -ne 0 ] && ok || fail "$args >/dev/full: exit 0"
        matches "$args >/dev/full" "$tmp/err" 'cannot write the output'
    done
fi

# play `save PATH` wrote PATH.tmp and renamed it over PATH, whatever PATH was: a
# symbolic link became a plain file (and, as root, `save /dev/full` replaced the
# device and said "saved"). Links and special files are now written in place.
ln -s "$tmp/target.pdn" "$tmp/link.pdn"
printf '32-28\nsave %s\nquit\n' "$tmp/link.pdn" |
    timeout 60 "$DAMIER" play --depth 1 --seed 1 >"$tmp/save" 2>&1
[ -L "$tmp/link.pdn" ] && ok || fail "save through a symbolic link replaced the link"
grep -q '^1\. 32-28' "$tmp/target.pdn" 2>/dev/null && ok || fail "save through a link: target not written"

# ... and the temporary file was "PATH.tmp", so a user's own file of that name was
# overwritten and removed. It is now a unique mkstemp name.
echo precious >"$tmp/mine.pdn.tmp"
printf '32-28\nsave %s\nquit\n' "$tmp/mine.pdn" |
    XDG_DATA_HOME="$tmp/xdg" timeout 60 "$DAMIER" play --depth 1 --seed 1 >"$tmp/save2" 2>&1
[ "$(cat "$tmp/mine.pdn.tmp" 2>/dev/null)" = precious ] && ok || fail "save clobbered PATH.tmp"
grep -q '^1\. 32-28' "$tmp/mine.pdn" 2>/dev/null && ok || fail "save PATH: not written"

finish
