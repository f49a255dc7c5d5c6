#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/play_variants.sh: `damier play --variant NAME --plain` for the variants
# of the generic rules core, in the one game of every variant (cmd_play.c): a short
# Russian and a short English game against the engine (fixed --depth and --seed:
# deterministic; the levels and keys of international), compulsory capture and wrong-side
# messages, the board at 8x8 with algebraic labels (Russian) or square numbers
# (English), Russian ':' captures and free choice of capture, threefold repetition,
# the result by dm_variant_result (antidraughts reversed), the saved PDN (GameType
# tag, readable by `damier pdn check`), option errors; in all 17 variants a short
# game saved, checked, loaded back (its GameType picks the variant) and continued.
# Usage: bash play_variants.sh <damier binary> [<shared dir>]
set -u
DAMIER=${1:?usage: play_variants.sh <damier binary> [<shared dir>]}
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# play NAME INPUT ARGS...: output $tmp/NAME.out, stderr $tmp/NAME.err, games in
# $tmp/NAME/, exit status in $rc.
play() {
    local name=$1 input=$2
    shift 2
    rc=0
    printf '%s' "$input" | HOME="$tmp/home" \
        "$DAMIER" play --plain --save-dir "$tmp/$name" "$@" >"$tmp/$name.out" \
        2>"$tmp/$name.err" || rc=$?
}
saved_file() {
    ls "$tmp/$1"/*.pdn 2>/dev/null | head -1
}
# Every engine line's PV starts with the move the engine then plays.
pv_first_played() {
    grep -A1 '^engine: ' "$2" | grep -v '^--$' | paste - - | while IFS=$'\t' read -r e m; do
        first=$(echo "$e" | sed -E 's/.* pv ([^ ]+).*/\1/')
        played=$(echo "$m" | awk '{print $3}')
        [ "$first" = "$played" ] || echo "engine line '$e' but played '$m'"
    done >"$tmp/pvcheck"
    [ -s "$tmp/pvcheck" ] && fail "$1: $(cat "$tmp/pvcheck")" || ok
}
check_pdn() { # NAME VARIANT
    local pdn
    pdn=$(saved_file "$1")
    if [ -z "$pdn" ]; then
        fail "$1: no PDN saved"
        return
    fi
    "$DAMIER" pdn check "$pdn" >"$tmp/$1.check" 2>&1 && ok || fail "$1: pdn check: $(cat "$tmp/$1.check")"
    has "$1" "$tmp/$1.check" "legal by variant: 1 $2"
    cp "$pdn" "$tmp/$1.pdn"
}

# ---- 1. Russian: human White against the engine --------------------------------
play russian $'a3-c5\nc3-d4\nmoves\nboard\nhint\nc1-b2\nquit\n' --variant russian --depth 4 --seed 3
out=$tmp/russian.out
[ "$rc" -eq 0 ] && ok || fail "russian: exit $rc: $(cat "$tmp/russian.err")"
[ -s "$tmp/russian.err" ] && fail "russian: stderr: $(cat "$tmp/russian.err")" || ok
has russian "$out" "white: human"
has russian "$out" "black: engine level 5 depth 4"
has russian "$out" "variant: russian"
has russian "$out" "seed: 3"
has russian "$out" "fen: W:Wa3,c3,e3,g3,b2,d2,f2,h2,a1,c1,e1,g1:Bb8,d8,f8,h8,a7,c7,e7,g7,b6,d6,f6,h6"
matches russian "$out" '^error: illegal move "a3-c5": '
after russian "$out" "$(grep -m1 '^error: illegal move "a3-c5"' "$out")" "turn: 1 white"
has russian "$out" "move: 1. c3-d4"
# The engine's line at level 5 with depth 4 (every root move searched, one within
# 0.20 drawn with the seed; dm_engine_search, the one search of every variant, with the
# built-in Russian weights damier-rus-w2, damier/eval8.h).
has russian "$out" "engine: score +0.03 depth 4 pv d6-c5 b2-c3 b6-a5"
has russian "$out" "move: 1... d6-c5"
pv_first_played russian "$out"
has russian "$out" "moves: d4-e5 a3-b4 e3-f4 g3-f4 g3-h4 b2-c3 d2-c3"
[ "$(grep -c '^board: ' "$out")" -eq 9 ] && ok || fail "russian: board is not 8 rows + files"
has russian "$out" "board:    .   w   .   .   4"
has russian "$out" "board:  w   w   w   w     1"
has russian "$out" "board:  a b c d e f g h"
matches russian "$out" '^hint: d2-c3 score [-+][0-9]+\.[0-9]{2} depth 8 pv d2-c3 '
has russian "$out" 'error: illegal move "c1-b2": the man on c1 cannot move'
matches russian "$out" "^saved: $tmp/russian/[0-9]{8}-[0-9]{6}-russian\\.pdn\$"
check_pdn russian russian
has russian-pdn "$tmp/russian.pdn" '[GameType "25"]'
has russian-pdn "$tmp/russian.pdn" '[Result "*"]'
has russian-pdn "$tmp/russian.pdn" '1. c3-d4 d6-c5 *'

# ---- 2. English checkers: human Black (moves first) against the engine ---------
# The engine answers 1. 11-15 with 24-19 at depth 4 with seed 2, so the human must
# take 15x24.
play english $'11-15\n9-13\n21-17\n15x24\nboard\nresign\n' --variant english --black --depth 4 \
    --seed 2
out=$tmp/english.out
[ "$rc" -eq 0 ] && ok || fail "english: exit $rc: $(cat "$tmp/english.err")"
has english "$out" "white: engine level 5 depth 4"
has english "$out" "black: human"
has english "$out" "fen: B:W21-32:B1-12"
[ "$(sed -n 7p "$out")" = "turn: 1 black" ] && ok || fail "english: line 7 is not 'turn: 1 black'"
has english "$out" "move: 1. 11-15"
has english "$out" "move: 1... 24-19"
has english "$out" 'error: illegal move "9-13": capture is compulsory: 1 piece can be captured with 15x24'
has english "$out" 'error: illegal move "21-17": square 21 holds a piece of the opponent (Black to move)'
has english "$out" "move: 2. 15x24"
has english "$out" "move: 2... 27x20"
pv_first_played english "$out"
[ "$(grep -c '^board: ' "$out")" -eq 8 ] && ok || fail "english: board is not 8 rows"
# Black's view (the human plays Black): White's men at the top, squares 32-29 first
has english "$out" "board:    .   .   .   .   16-13"
has english "$out" "board:    w   w   w   w   32-29"
has english "$out" "result: 2-0 resignation"
check_pdn english english
has english-pdn "$tmp/english.pdn" '[GameType "21"]'
has english-pdn "$tmp/english.pdn" '[Result "2-0"]'
has english-pdn "$tmp/english.pdn" '1. 11-15 24-19 2. 15x24 27x20 2-0'

# same input, same output (deterministic at fixed depth)
play english2 $'11-15\n9-13\n21-17\n15x24\nboard\nresign\n' --variant english --black --depth 4 \
    --seed 2
diff <(grep -v '^saved: ' "$tmp/english.out") <(grep -v '^saved: ' "$tmp/english2.out") >/dev/null \
    && ok || fail "english: two runs differ"

# ---- 3. Russian between two humans: free choice of capture, threefold ----------
play hvh $'c3-d4\nf6-e5\nd4:f6\nmoves\ng7:e5\n' --variant russian --human-vs-human
has hvh "$tmp/hvh.out" "move: 2. d4:f6"
has hvh "$tmp/hvh.out" "moves: e7:g5 g7:e5"
has hvh "$tmp/hvh.out" "move: 2... g7:e5"
play rep $'g1-h2\nb8-a7\nh2-g1\na7-b8\ng1-h2\nb8-a7\nh2-g1\na7-b8\n' \
    --variant russian --human-vs-human --fen W:WKg1:BKb8
has rep "$tmp/rep.out" "result: 1-1 threefold repetition"
[ "$(grep -c '^move: ' "$tmp/rep.out")" -eq 8 ] && ok || fail "rep: not 8 moves"
check_pdn rep russian
has rep-pdn "$tmp/rep.pdn" '[FEN "W:WKg1:BKb8"]'
has rep-pdn "$tmp/rep.pdn" '[Termination "threefold repetition"]'

# ---- 4. whole engine games: every variant ends, the record replays --------------
for v in russian english brazilian; do
    play "auto-$v" '' --variant "$v" --auto --depth 2
    matches "auto-$v" "$tmp/auto-$v.out" '^result: (2-0|0-2|1-1) '
    check_pdn "auto-$v" "$v"
done
# antidraughts: White to move must take Black's last man and so LOSES
play anti '' --variant antidraughts --auto --depth 2 --fen W:W33:B28
has anti "$tmp/anti.out" "move: 1. 33x22"
has anti "$tmp/anti.out" "result: 0-2 no pieces left"
# ... and gives its last man away when it can (37-32 forces 28x37: White wins)
play antigive '' --variant antidraughts --auto --depth 3 --fen W:W37:B28
matches antigive "$tmp/antigive.out" "^engine: score win[0-9]+ depth [0-9]+ pv 37-32 28x37\$"
has antigive "$tmp/antigive.out" "result: 2-0 no pieces left"
play intl '' --variant international --auto --depth 2 --fen W:W33:B28
has intl "$tmp/intl.out" "result: 2-0 no pieces left"

# ---- 5. option errors -------------------------------------------------------------
rejects play "--variant nosuch" "--variant italian --egdb $tmp" "--variant english --depth 0" \
    "--variant russian --fen W:Wz9" "--variant english --auto --human-vs-human" \
    "--variant canadian extra"

# A line longer than the input buffer is one bad line, not several (its tail dropped).
long=$(head -c 3000 /dev/zero | tr '\0' a)
play longline "c3-d4
$long
quit
" --variant russian --depth 1
n=$(grep -c '^error' "$tmp/longline.out")
if [ "$n" -eq 1 ]; then ok; else fail "long line: $n error lines, expected 1"; cat "$tmp/longline.out" >&2; fi

# Material draw rule (FMJD 5-move rule, Brazilian uses the FMJD set): two kings
# against a lone king, drawn after 5 further moves of each side (10 plies), not after 9;
# Russian (its source-material set has no such rule) plays on.
five='a1-b2
h2-g1
b2-c3
g1-h2
c3-d2
h2-g1
d2-e1
g1-h2
e1-d2
'
play five9 "$five" --variant brazilian --human-vs-human --fen "W:WKa1,Kb8:BKh2"
if grep -q '^result:' "$tmp/five9.out"; then fail "5-move rule: drawn after 9 plies"; else ok; fi
play five10 "${five}h2-g1
" --variant brazilian --human-vs-human --fen "W:WKa1,Kb8:BKh2"
after five10 "$tmp/five10.out" "move: 5... h2-g1" "result: 1-1 5-move rule (two pieces or fewer against a lone king)"
play fiveru "${five}h2-g1
" --variant russian --human-vs-human --fen "W:WKa1,Kb8:BKh2"
if grep -q '^result:' "$tmp/fiveru.out"; then fail "Russian: drawn by a rule it does not have"; else ok; fi

# Words are commands, never moves: an unknown one is said to be so (issue 10); the
# commands of the one game work in every variant (history, flip, side, level, ...).
play words 'histroy
c3-d4
history
flip
board
quit
' --variant russian --human-vs-human
has words "$tmp/words.out" "error: unknown command 'histroy' (type help for the commands)"
has words "$tmp/words.out" "history: 1. c3-d4"
has words "$tmp/words.out" "info: board flipped: Black at the bottom"
grep -qxF "board:  a b c d e f g h" "$tmp/words.out" && fail "words: flipped board with files a-h" || ok
has words "$tmp/words.out" "board:  h g f e d c b a"

# ---- 6. every variant: save, pdn check, load back, continue (issue 10) -----------
# One short game each: the player's move and the engine's reply, `save FILE`, `damier
# pdn check` of the file (legal, in its variant), then the file loaded back into a
# game started without --variant (its GameType picks the variant), continued with a
# move, and the automatic save of the continued game checked again.
# first_move FILE: the first move of the last `moves:` line.
first_move() {
    grep '^moves: ' "$1" | tail -1 | sed -E 's/^moves: ([^ ]+).*/\1/'
}
check_file() { # NAME FILE VARIANT
    if "$DAMIER" pdn check "$2" >"$tmp/$1.check" 2>&1; then ok; else
        fail "$1: pdn check $2: $(cat "$tmp/$1.check")"
    fi
    matches "$1" "$tmp/$1.check" "1 games, 1 legal, 0 with illegal moves"
    [ "$3" = international ] || has "$1" "$tmp/$1.check" "legal by variant: 1 $3"
}

for v in international brazilian russian english canadian antidraughts czech italian killer \
    breakthrough spanish pool thai frisian frysk portuguese turkish; do
    play "$v-0" $'moves\nquit\n' --variant "$v" --level 1 --seed 1
    has "$v-0" "$tmp/$v-0.out" "variant: $v"
    m1=$(first_move "$tmp/$v-0.out")
    [ -n "$m1" ] && ok || { fail "$v: no legal move listed"; continue; }
    # the move, the engine's reply, save
    play "$v-1" "$m1
save $tmp/$v.pdn
quit
" --variant "$v" --level 1 --seed 1
    matches "$v-1" "$tmp/$v-1.out" "^move: [0-9]+\\.(\\.\\.)? $m1\$"
    matches "$v-1" "$tmp/$v-1.out" '^engine: score '
    has "$v-1" "$tmp/$v-1.out" "saved: $tmp/$v.pdn"
    check_file "$v-1" "$tmp/$v.pdn" "$v"
    # loaded back (no --variant: the record's GameType says it) and continued
    plies=$(grep -c '^move: ' "$tmp/$v-1.out")
    play "$v-2" "load $tmp/$v.pdn
moves
quit
" --level 1 --seed 1
    has "$v-2" "$tmp/$v-2.out" "loaded: $tmp/$v.pdn, $plies plies"
    m2=$(first_move "$tmp/$v-2.out")
    [ -n "$m2" ] && ok || { fail "$v: no legal move after the load"; continue; }
    play "$v-3" "load $tmp/$v.pdn
$m2
quit
" --level 1 --seed 1
    matches "$v-3" "$tmp/$v-3.out" "^move: [0-9]+\\.(\\.\\.)? $m2\$"
    f=$(ls "$tmp/$v-3"/*.pdn 2>/dev/null | head -1)
    if [ -z "$f" ]; then
        fail "$v: the continued game was not saved"
        continue
    fi
    [ "$v" = international ] || case $f in *-"$v".pdn) ok ;; *) fail "$v: saved as $f" ;; esac
    check_file "$v-3" "$f" "$v"
    # the continued record holds the first game's moves and the new one
    grep -qF -- "$m1" "$f" && grep -qF -- "$m2" "$f" && ok || fail "$v: $f lacks $m1 or $m2: $(cat "$f")"
done

finish
