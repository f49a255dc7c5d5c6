#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/play_variants_save.sh: the plain game of every variant (issue 10), one short
# game each: the player's move and the engine's reply, `save FILE`, `damier pdn check`
# of the file (legal, in its variant), then the file loaded back into a game started
# without --variant (its GameType picks the variant), the game continued with a move,
# and the automatic save of the continued game checked again.
# Usage: bash play_variants_save.sh <damier binary> [<shared dir>]
set -u
DAMIER=${1:?usage: play_variants_save.sh <damier binary> [<shared dir>]}
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# play NAME INPUT ARGS...: the plain game, output $tmp/NAME.out, games in $tmp/NAME/.
play() {
    local name=$1 input=$2
    shift 2
    printf '%s' "$input" | HOME="$tmp/home" \
        "$DAMIER" play --plain --level 1 --seed 1 --save-dir "$tmp/$name" "$@" \
        >"$tmp/$name.out" 2>"$tmp/$name.err" || fail "$name: exit status $?: $(cat "$tmp/$name.err")"
}
# first_move FILE: the first move of the last `moves:` line.
first_move() {
    grep '^moves: ' "$1" | tail -1 | sed -E 's/^moves: ([^ ]+).*/\1/'
}
check() { # NAME FILE VARIANT
    if "$DAMIER" pdn check "$2" >"$tmp/$1.check" 2>&1; then ok; else
        fail "$1: pdn check $2: $(cat "$tmp/$1.check")"
    fi
    matches "$1" "$tmp/$1.check" "1 games, 1 legal, 0 with illegal moves"
    [ "$3" = international ] || has "$1" "$tmp/$1.check" "legal by variant: 1 $3"
}

for v in international brazilian russian english canadian antidraughts czech italian killer \
    breakthrough spanish pool thai frisian frysk portuguese turkish; do
    play "$v-0" $'moves\nquit\n' --variant "$v"
    has "$v-0" "$tmp/$v-0.out" "variant: $v"
    m1=$(first_move "$tmp/$v-0.out")
    [ -n "$m1" ] && ok || { fail "$v: no legal move listed"; continue; }
    # the move, the engine's reply, save
    play "$v-1" "$m1
save $tmp/$v.pdn
quit
" --variant "$v"
    matches "$v-1" "$tmp/$v-1.out" "^move: [0-9]+\\.(\\.\\.)? $m1\$"
    matches "$v-1" "$tmp/$v-1.out" '^engine: score '
    has "$v-1" "$tmp/$v-1.out" "saved: $tmp/$v.pdn"
    check "$v-1" "$tmp/$v.pdn" "$v"
    # loaded back (no --variant: the record's GameType says it) and continued
    plies=$(grep -c '^move: ' "$tmp/$v-1.out")
    play "$v-2" "load $tmp/$v.pdn
moves
quit
"
    has "$v-2" "$tmp/$v-2.out" "loaded: $tmp/$v.pdn, $plies plies"
    m2=$(first_move "$tmp/$v-2.out")
    [ -n "$m2" ] && ok || { fail "$v: no legal move after the load"; continue; }
    play "$v-3" "load $tmp/$v.pdn
$m2
quit
"
    matches "$v-3" "$tmp/$v-3.out" "^move: [0-9]+\\.(\\.\\.)? $m2\$"
    f=$(ls "$tmp/$v-3"/*.pdn 2>/dev/null | head -1)
    if [ -z "$f" ]; then
        fail "$v: the continued game was not saved"
        continue
    fi
    [ "$v" = international ] || case $f in *-"$v".pdn) ok ;; *) fail "$v: saved as $f" ;; esac
    check "$v-3" "$f" "$v"
    # the continued record holds the first game's moves and the new one
    grep -qF -- "$m1" "$f" && grep -qF -- "$m2" "$f" && ok || fail "$v: $f lacks $m1 or $m2: $(cat "$f")"
done

finish
