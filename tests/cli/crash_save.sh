#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/crash_save.sh: crash safety of `damier play`'s saves. The game is driven
# through its standard input (as in play_script.sh): the moves of a long game, each
# followed by `save FILE`, then many more `save FILE` lines, so that it is saving
# (automatic save after every move, and the explicit saves) nearly all the time. It
# is killed with SIGKILL after a random delay, many times, in every variant, and
# after each kill:
#   - FILE (which starts as a copy of the user's own game: `save` overwrites it) is
#     always a complete game: `damier pdn check` reads one legal game, and the text
#     ends with its result token and a blank line as the writer ends it;
#   - every file of the automatic save directory is such a complete game (none is
#     empty or cut short);
#   - the user's other files (beside FILE, with FILE's name plus .tmp, and in the
#     save directory under the names the automatic save would choose) are unchanged;
#   - a temporary file is left only by a save the kill interrupted: at most one beside
#     each target, never named *.pdn; a run that ends normally leaves none.
# Seeded: DM_CRASH_SEED (default 1), DM_CRASH_ITERATIONS (default 120), DM_CRASH_VARIANTS
# (default: every variant).
# Usage: bash crash_save.sh <damier binary> [<shared dir>]
set -u
DAMIER=${1:?usage: crash_save.sh <damier binary> [<shared dir>]}
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
tmp=$(mktemp -d)
pid=
cleanup() {
    if [ -n "$pid" ]; then kill -9 "$pid" 2>/dev/null; fi
    rm -rf "$tmp"
}
trap cleanup EXIT
seed=${DM_CRASH_SEED:-1}
iterations=${DM_CRASH_ITERATIONS:-120}
RANDOM=$seed
echo "crash_save: seed $seed, $iterations iterations (DM_CRASH_SEED, DM_CRASH_ITERATIONS)"
variants=${DM_CRASH_VARIANTS:-"international russian english brazilian canadian antidraughts"}
nvariants=$(wc -w <<<"$variants")

# complete NAME FILE: FILE is one legal game, complete as the writer ends it.
complete() {
    local name=$1 f=$2 out rc=0
    out=$("$DAMIER" pdn check "$f" 2>&1) || rc=$?
    if [ "$rc" -ne 0 ] || ! tail -n 1 <<<"$out" | grep -q '^1 games, 1 legal, 0 with illegal'; then
        fail "$name: $f is not one legal game (exit $rc): $out; $(wc -c <"$f") bytes"
        return 1
    fi
    # the writer's last two lines: the movetext ending with the result, then a blank line
    if [ -n "$(tail -n 1 "$f")" ] ||
        ! tail -n 2 "$f" | head -n 1 | grep -qE '(^| )(\*|2-0|0-2|1-1|1-0|0-1|1/2-1/2)$'; then
        fail "$name: $f does not end with a result and a blank line: $(tail -c 80 "$f")"
        return 1
    fi
    ok
}

# The moves of a long game of each variant: the engine against itself at depth 1.
for v in $variants; do
    "$DAMIER" play --variant "$v" --auto --depth 1 --seed 5 --plain \
        --save-dir "$tmp/gen-$v" </dev/null 2>&1 |
        sed -nE 's/^move: [0-9]+\.(\.\.)? (.*)$/\2/p' | head -n 150 >"$tmp/moves-$v"
    n=$(wc -l <"$tmp/moves-$v")
    [ "$n" -ge 20 ] && ok || fail "$v: the engine's game has only $n moves"
    # the user's own game of this variant (what `save FILE` overwrites)
    cp "$(ls "$tmp/gen-$v"/*.pdn | head -n 1)" "$tmp/user-$v.pdn"
    complete "$v: the user's game" "$tmp/user-$v.pdn"
done

mkdir -p "$tmp/user"
printf 'my notes, not a game\n' >"$tmp/user/notes.txt"
cp "$tmp/user-international.pdn" "$tmp/user/mine.pdn"
leftovers=0
kills=0
for i in $(seq 1 "$iterations"); do
    set -- $variants
    shift $((RANDOM % nvariants))
    v=$1
    it=$tmp/it
    rm -rf "$it"
    mkdir -p "$it/games"
    target=$it/game.pdn
    cp "$tmp/user-$v.pdn" "$target"
    printf 'the user'"'"'s own file\n' >"$target.tmp"
    # the names the automatic save would choose for a game started in the next seconds
    now=$(date +%s)
    for k in 0 1 2; do
        stamp=$(date -d "@$((now + k))" +%Y%m%d-%H%M%S)
        if [ "$v" = international ]; then name=$stamp.pdn; else name=$stamp-$v.pdn; fi
        printf 'user file %s\n' "$name" >"$it/games/$name"
    done
    (cd "$it/games" && ls) >"$it/user-names"
    (cd "$it/games" && cat -- *) >"$it/user-contents"
    {
        while read -r m; do
            printf '%s\nsave %s\n' "$m" "$target"
        done <"$tmp/moves-$v"
        for _ in $(seq 1 300); do printf 'save %s\n' "$target"; done
    } >"$it/input"
    # one run in eight ends by itself (end of input): it must leave no temporary file
    natural=$((RANDOM % 8 == 0))
    if [ "$natural" -eq 1 ]; then
        head -n 30 "$it/input" >"$it/input.short"
        mv "$it/input.short" "$it/input"
    fi
    # half the kills within the first 40 ms (the first automatic save creates the file)
    if [ $((RANDOM % 2)) -eq 0 ]; then delay=$((RANDOM % 40)); else delay=$((RANDOM % 600)); fi
    XDG_DATA_HOME="$it/xdg" HOME="$it/home" "$DAMIER" play --variant "$v" --human-vs-human \
        --plain --save-dir "$it/games" <"$it/input" >"$it/out" 2>&1 &
    pid=$!
    if [ "$natural" -eq 1 ]; then
        wait "$pid"
        rc=$?
        pid=
        [ "$rc" -eq 0 ] && ok || fail "$v: a run to the end of its input exits $rc: $(tail -3 "$it/out")"
    else
        sleep "$(printf '0.%03d' "$delay")"
        kill -9 "$pid" 2>/dev/null
        wait "$pid" 2>/dev/null
        pid=
        kills=$((kills + 1))
    fi
    what="$v, iteration $i (seed $seed, ${delay} ms)"
    complete "$what: the saved game" "$target"
    if [ "$(cat "$target.tmp")" = "the user's own file" ]; then ok; else
        fail "$what: the user's $target.tmp was changed"
    fi
    cmp -s "$tmp/user/mine.pdn" "$tmp/user-international.pdn" && ok ||
        fail "$what: the user's mine.pdn was changed"
    [ "$(cat "$tmp/user/notes.txt")" = "my notes, not a game" ] && ok ||
        fail "$what: the user's notes.txt was changed"
    (cd "$it/games" && cat -- $(cat "$it/user-names")) | cmp -s - "$it/user-contents" && ok ||
        fail "$what: a user's file in the save directory was changed"
    for f in "$it/games"/*.pdn; do
        grep -qxF "$(basename "$f")" "$it/user-names" && continue
        complete "$what: the automatic save" "$f"
    done
    # temporary files: only from an interrupted save, at most one per target, not *.pdn
    for d in "$it" "$it/games"; do
        n=0
        for f in "$d"/*; do
            case $(basename "$f") in
            games | input | out | user-names | user-contents | game.pdn | game.pdn.tmp) continue ;;
            esac
            grep -qxF "$(basename "$f")" "$it/user-names" && continue
            case $f in
            *.pdn) [ "$d" = "$it/games" ] && continue ;;
            esac
            n=$((n + 1))
            echo "  left behind: $f ($(wc -c <"$f") bytes)"
        done
        leftovers=$((leftovers + n))
        if [ "$natural" -eq 1 ]; then
            [ "$n" -eq 0 ] && ok || fail "$what: a run that ended normally left $n temporary files in $d"
        else
            [ "$n" -le 1 ] && ok || fail "$what: $n temporary files left in $d"
        fi
    done
done
echo "crash_save: $kills kills, $((iterations - kills)) runs to the end, $leftovers temporary files left by interrupted saves"
finish
