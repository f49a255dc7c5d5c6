#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/pdn.sh: `damier pdn check` and `damier pdn convert`: stable output (the
# summary line scripts parse), exit codes, errors for missing or unreadable files, and
# the real corpus is checked by pdn_corpus.sh.
# Usage: bash pdn.sh <damier binary> [<shared dir>]
set -u
DAMIER=${1:?usage: pdn.sh <damier binary> [<shared dir>]}
SHARED=${2:-}
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# expect_err NAME RC STDERR_PATTERN -- ARGS...: exit RC, stderr matching the pattern.
expect_err() {
    local name=$1 want_rc=$2 pattern=$3
    shift 4
    local rc=0
    "$DAMIER" "$@" >"$tmp/out" 2>"$tmp/err" || rc=$?
    if [ "$rc" -ne "$want_rc" ]; then
        fail "$name: exit $rc, expected $want_rc"
    elif ! grep -Eq -- "$pattern" "$tmp/err"; then
        fail "$name: stderr does not match /$pattern/: $(cat "$tmp/err")"
    else
        passed=$((passed + 1))
    fi
}

# ---- check ---------------------------------------------------------------------------

printf '[Event "a"]\n[White "W1"]\n[Black "B1"]\n\n1. 32-28 19-23 2. 28x19 14x23 2-0\n\n' \
    >"$tmp/good.pdn"
printf '[White "Ann"]\n[Black "Bob"]\n1.32-28 19- 23 2-0\n' >>"$tmp/good.pdn"

expect_run "check legal file" 0 "2 games, 2 legal, 0 with illegal moves, 0 unreadable" \
    -- pdn check "$tmp/good.pdn"

printf '[White "Ann"]\r\n[Black "Bob"]\r\n\r\n1. 32-28 19-23 2. 28x19 14x23 3. 27-22 *\r\n' \
    >"$tmp/illegal.pdn"
expect_run "check illegal move" 1 \
"$tmp/illegal.pdn:4:34: game 1 (Ann - Bob): move 3. 27-22: illegal move \"27-22\": square 27 is empty; FEN before: W:W31,33-50:B1-13,15-18,20,23
1 games, 0 legal, 1 with illegal moves, 0 unreadable" -- pdn check "$tmp/illegal.pdn"

printf '[FEN "W:W37,38:B31,21,33"]\n1. 37-32 *\n' >"$tmp/capture.pdn"
expect_run "check compulsory capture" 1 \
"$tmp/capture.pdn:2:4: game 1 (? - ?): move 1. 37-32: illegal move \"37-32\": capture is compulsory (FMJD 4.1): 2 pieces can be captured with 37x17; FEN before: W:W37,38:B21,31,33
1 games, 0 legal, 1 with illegal moves, 0 unreadable" -- pdn check "$tmp/capture.pdn"

# an unreadable game, then a good one: one error, one game, both counted
printf '[Event "bad"]\n1. 32-28 { open { nested } *\n\n[Event "ok"]\n1. 32-28 *\n' \
    >"$tmp/unreadable.pdn"
expect_run "check unreadable then good" 1 \
"$tmp/unreadable.pdn: game 1, line 2, column 17: expected '}' to close the comment opened at line 2, column 10, found '{' (comments do not nest)
2 games, 1 legal, 0 with illegal moves, 1 unreadable" -- pdn check "$tmp/unreadable.pdn"

# variants: the GameType selects the rules; legal games counted per variant, those not
# played (Spantsiretti, 10x8) skipped on their own line; the summary keeps its format
printf '[GameType "25"]\n1. c3-d4 f6-g5 *\n\n[GameType "20"]\n1. 32-28 *\n\n[GameType "41"]\n1. 32-28 *\n' \
    >"$tmp/variant.pdn"
expect_run "check variants" 1 "1 skipped (variant not supported yet)
legal by variant: 1 international, 1 russian
3 games, 2 legal, 0 with illegal moves, 0 unreadable" -- pdn check "$tmp/variant.pdn"
expect_run "check variants verbose" 1 "$tmp/variant.pdn:7: game 3 (? - ?): skipped: GameType 41 (Spantsiretti): variant not supported yet
1 skipped (variant not supported yet)
legal by variant: 1 international, 1 russian
3 games, 2 legal, 0 with illegal moves, 0 unreadable" -- pdn check --verbose "$tmp/variant.pdn"

# a Russian game: algebraic squares, ':' captures; the bad move reported as for
# international games, FEN before in algebraic squares
printf '[White "A"]\n[Black "B"]\n[GameType "25"]\n\n1. c3-d4 f6-g5 2. d4-e5 d6:f4 3. g3-h4 *\n' \
    >"$tmp/russian.pdn"
expect_run "check russian illegal" 1 \
"$tmp/russian.pdn:5:34: game 1 (A - B): move 3. g3-h4: illegal move \"g3-h4\": capture is compulsory: 1 piece can be captured with g3:e5; FEN before: W:Wa3,e3,g3,b2,d2,f2,h2,a1,c1,e1,g1:Bb8,d8,f8,h8,a7,c7,e7,g7,b6,h6,g5,f4
1 games, 0 legal, 1 with illegal moves, 0 unreadable" -- pdn check "$tmp/russian.pdn"

# English checkers: Black moves first, so Black's move is "2." and White's "2...";
# men do not move backwards
printf '[GameType "21"]\n1. 11-15 23-19 2. 8-11 19-23 *\n' >"$tmp/english.pdn"
expect_run "check english illegal" 1 \
"$tmp/english.pdn:2:24: game 1 (? - ?): move 2... 19-23: illegal move \"19-23\": the man on 19 can play 19-16; FEN before: W:W19,21,22,24-32:B1-7,9-12,15
1 games, 0 legal, 1 with illegal moves, 0 unreadable" -- pdn check "$tmp/english.pdn"

# Russian, no majority rule: the king takes one piece (f8:b4, its whole path) or four
# ending on b4 too; "f8:b4" (as damier writes it) used to be rejected as ambiguous
printf '[GameType "25"]\n[FEN "W:We3,g3,h4,a5,b2,h2,a3,Kf8:Bc5,e5,g5,g7,h8"]\n\n1. f8:b4 *\n' \
    >"$tmp/rking.pdn"
expect_run "check russian whole short path" 0 "legal by variant: 1 russian
1 games, 1 legal, 0 with illegal moves, 0 unreadable" -- pdn check "$tmp/rking.pdn"
"$DAMIER" moves --variant russian --fen "W:We3,g3,h4,a5,b2,h2,a3,Kf8:Bc5,e5,g5,g7,h8" >"$tmp/rmoves"
has "moves russian long capture with its path" "$tmp/rmoves" "f8:h6:f4:d6:b4"
has "moves russian short capture" "$tmp/rmoves" "f8:b4"
printf 'f8:b4\nquit\n' | "$DAMIER" play --variant russian --human-vs-human --plain \
    --fen "W:We3,g3,h4,a5,b2,h2,a3,Kf8:Bc5,e5,g5,g7,h8" --save-dir "$tmp/rsave" >"$tmp/rplay" 2>&1
matches "play russian f8:b4" "$tmp/rplay" '^move: 1\. f8:b4$'
if "$DAMIER" pdn check "$tmp"/rsave/*.pdn >"$tmp/rcheck"; then ok; else fail "saved russian game: $(cat "$tmp/rcheck")"; fi

# --variant: the rules of games without a GameType tag
printf '1. 11-15 23-19 2. 8-11 22-17 *\n' >"$tmp/notag.pdn"
expect_run "check --variant english" 0 "legal by variant: 1 english
1 games, 1 legal, 0 with illegal moves, 0 unreadable" -- pdn check --variant english "$tmp/notag.pdn"
expect_run "check --variant russian" 1 \
"$tmp/notag.pdn:1:4: game 1 (? - ?): move 1. 11-15: illegal move \"11-15\": square f6 holds a piece of the opponent (White to move); FEN before: W:Wa3,c3,e3,g3,b2,d2,f2,h2,a1,c1,e1,g1:Bb8,d8,f8,h8,a7,c7,e7,g7,b6,d6,f6,h6
1 games, 0 legal, 1 with illegal moves, 0 unreadable" -- pdn check --variant russian "$tmp/notag.pdn"
# a GameType tag wins over --variant
printf '[GameType "21"]\n1. 11-15 23-19 *\n' >"$tmp/english21.pdn"
expect_run "check --variant vs GameType" 0 "legal by variant: 1 english
1 games, 1 legal, 0 with illegal moves, 0 unreadable" -- pdn check --variant russian "$tmp/english21.pdn"
expect_err "check bad variant" 2 "--variant: unknown variant 'checkers'.*russian" \
    -- pdn check --variant checkers "$tmp/notag.pdn"
expect_run "convert --variant english" 0 "$(printf '%s\n' '[Event "?"]' '[Site "?"]' '[Date "????.??.??"]' \
    '[Round "?"]' '[White "?"]' '[Black "?"]' '[Result "*"]' '[GameType "21"]' '' \
    '1. 11-15 23-19 2. 8-11 22-17 *')" -- pdn convert --variant english "$tmp/notag.pdn"

# --game-type for files without GameType tags
printf '1. 32-28 17x37 *\n' >"$tmp/spantsiretti.pdn"
expect_run "check --game-type 41" 1 "1 skipped (variant not supported yet)
1 games, 0 legal, 0 with illegal moves, 0 unreadable" -- pdn check --game-type 41 "$tmp/spantsiretti.pdn"
# Turkish (GameType 30): algebraic squares on all 64 squares, orthogonal moves; a man
# takes d5 and d7 (the most pieces) and is crowned on the empty eighth rank
printf '[GameType "30"]\n1. d3-d4 d6-d5 2. d4xd8 *\n' >"$tmp/turkish.pdn"
expect_run "check turkish" 0 "legal by variant: 1 turkish
1 games, 1 legal, 0 with illegal moves, 0 unreadable" -- pdn check "$tmp/turkish.pdn"

# what the reader tolerates is said, the game stays legal
printf '[White "A"]\n[Black "B"]\n1. 32-28 19-23 . 2. 2-0\n' >"$tmp/notes.pdn"
expect_run "check notes" 0 "$tmp/notes.pdn:1: game 1 (A - B): note: a stray '.' in the movetext was ignored
$tmp/notes.pdn:1: game 1 (A - B): note: move number 2. without a move was ignored
1 games, 1 legal, 0 with illegal moves, 0 unreadable" -- pdn check "$tmp/notes.pdn"

# several files add up
expect_run "check two files" 1 \
"$tmp/illegal.pdn:4:34: game 1 (Ann - Bob): move 3. 27-22: illegal move \"27-22\": square 27 is empty; FEN before: W:W31,33-50:B1-13,15-18,20,23
3 games, 2 legal, 1 with illegal moves, 0 unreadable" -- pdn check "$tmp/good.pdn" "$tmp/illegal.pdn"

# files that cannot be read: a clear error, exit 2
expect_err "check missing file" 2 "cannot open $tmp/nope.pdn: No such file" \
    -- pdn check "$tmp/nope.pdn"
expect_err "check a directory" 2 "cannot (open|read) $tmp" -- pdn check "$tmp"
expect_err "check no file" 2 "no FILE" -- pdn check
expect_err "pdn no subcommand" 2 "usage" -- pdn
expect_err "pdn bad subcommand" 2 "unknown subcommand" -- pdn frobnicate x
expect_err "check bad game type" 2 "game-type" -- pdn check --game-type x "$tmp/good.pdn"
expect_err "check --full is for convert" 2 "usage" -- pdn check --full "$tmp/good.pdn"

# an empty file: no games, all (zero) legal
: >"$tmp/empty.pdn"
expect_run "check empty file" 0 "0 games, 0 legal, 0 with illegal moves, 0 unreadable" \
    -- pdn check "$tmp/empty.pdn"

# ---- convert -------------------------------------------------------------------------

printf '[Black "Bob"]\n[White "Ann"]\n[Site "Here"]\n[Extra "x"]\n\n01. 32-28 {ok} 19-23 2. 28x19 14x23 2-0\n' \
    >"$tmp/conv.pdn"
expect_run "convert normalises" 0 '[Event "?"]
[Site "Here"]
[Date "????.??.??"]
[Round "?"]
[White "Ann"]
[Black "Bob"]
[Result "2-0"]
[Extra "x"]

1. 32-28 {ok} 1... 19-23 2. 28x19 14x23 2-0' -- pdn convert "$tmp/conv.pdn"

printf '[FEN "W:W37,38:B31,21,33"]\n1. 37x17 *\n' >"$tmp/full.pdn"
expect_run "convert short" 0 "$(printf '%s\n' '[Event "?"]' '[Site "?"]' '[Date "????.??.??"]' \
    '[Round "?"]' '[White "?"]' '[Black "?"]' '[Result "*"]' '[FEN "W:W37,38:B21,31,33"]' '' \
    '1. 37x17 *')" -- pdn convert "$tmp/full.pdn"
expect_run "convert --full" 0 "$(printf '%s\n' '[Event "?"]' '[Site "?"]' '[Date "????.??.??"]' \
    '[Round "?"]' '[White "?"]' '[Black "?"]' '[Result "*"]' '[FEN "W:W37,38:B21,31,33"]' '' \
    '1. 37x26x17 *')" -- pdn convert --full "$tmp/full.pdn"

expect_run "convert -o" 0 "" -- pdn convert -o "$tmp/out.pdn" "$tmp/conv.pdn"
if grep -q '^1. 32-28 {ok} 1... 19-23 2. 28x19 14x23 2-0$' "$tmp/out.pdn"; then
    passed=$((passed + 1))
else
    fail "convert -o: $tmp/out.pdn lacks the movetext"
fi
# the converted file reads back as legal
expect_run "converted file checks" 0 "1 games, 1 legal, 0 with illegal moves, 0 unreadable" \
    -- pdn check "$tmp/out.pdn"

# a Russian game keeps its GameType and writes its FEN and moves in algebraic squares,
# captures with ':'; a split capture (playstrategy.org) is written as one move
printf '[GameType "25"]\n[FEN "W:W21,22:B17,18"]\n1. c3xe5 *\n' >"$tmp/rfen.pdn"
expect_run "convert russian" 0 "$(printf '%s\n' '[Event "?"]' '[Site "?"]' '[Date "????.??.??"]' \
    '[Round "?"]' '[White "?"]' '[Black "?"]' '[Result "*"]' '[GameType "25"]' \
    '[FEN "W:Wa3,c3:Bb4,d4"]' '' '1. c3:e5 *')" -- pdn convert "$tmp/rfen.pdn"
# --capture-sep x: Russian captures with x, for readers that do not take ':'; the
# output reads back as the same game
printf '[GameType "25"]\n\n1. c3-d4 f6-g5 2. d4-e5 d6:f4 3. g3:e5 *\n' >"$tmp/rsep.pdn"
expect_run "convert --capture-sep x" 0 "$(printf '%s\n' '[Event "?"]' '[Site "?"]' '[Date "????.??.??"]' \
    '[Round "?"]' '[White "?"]' '[Black "?"]' '[Result "*"]' '[GameType "25"]' '' \
    '1. c3-d4 f6-g5 2. d4-e5 d6xf4 3. g3xe5 *')" -- pdn convert --capture-sep x "$tmp/rsep.pdn"
"$DAMIER" pdn convert --capture-sep x "$tmp/rsep.pdn" >"$tmp/rsep_x.pdn"
"$DAMIER" pdn convert "$tmp/rsep_x.pdn" >"$tmp/rsep_back.pdn"
if "$DAMIER" pdn convert "$tmp/rsep.pdn" | cmp -s - "$tmp/rsep_back.pdn"; then ok; else
    fail "convert --capture-sep x does not read back as the same game"; fi
expect_run "convert --capture-sep : (international)" 0 "$(printf '%s\n' '[Event "?"]' '[Site "?"]' \
    '[Date "????.??.??"]' '[Round "?"]' '[White "?"]' '[Black "?"]' '[Result "*"]' \
    '[FEN "W:W37,38:B21,31,33"]' '' '1. 37:26:17 *')" -- pdn convert --full --capture-sep : "$tmp/full.pdn"
expect_err "convert --capture-sep y" 2 "capture-sep wants x or :" \
    -- pdn convert --capture-sep y "$tmp/rsep.pdn"
expect_err "check --capture-sep is for convert" 2 "usage" -- pdn check --capture-sep x "$tmp/rsep.pdn"
printf '[Variant "American/English"]\n[FEN "B:W18,26:B14"]\n1. 14x23 23x30 *\n' >"$tmp/split.pdn"
expect_run "convert split capture" 0 "$(printf '%s\n' '[Event "?"]' '[Site "?"]' '[Date "????.??.??"]' \
    '[Round "?"]' '[White "?"]' '[Black "?"]' '[Result "*"]' '[GameType "21"]' \
    '[FEN "B:W18,26:B14"]' '[Variant "American/English"]' '' '1. 14x23x30 *')" \
    -- pdn convert --full "$tmp/split.pdn"

# an unreadable game is reported on stderr, the others are converted, exit 1
rc=0
"$DAMIER" pdn convert "$tmp/unreadable.pdn" >"$tmp/out" 2>"$tmp/err" || rc=$?
if [ "$rc" -eq 1 ] && grep -q 'game 1, line 2' "$tmp/err" && grep -q 'not converted' "$tmp/err" &&
    grep -q '^\[Event "ok"\]$' "$tmp/out" && ! grep -q 'bad' "$tmp/out"; then
    passed=$((passed + 1))
else
    fail "convert unreadable: exit $rc, stderr $(cat "$tmp/err")"
fi
# an ambiguous short capture or an illegal move is reported on stderr as check reports
# it (what and where), the game is still written, exit 1 (it used to be copied, exit 0)
# convert_reports NAME FILE STDOUT_PATTERN: exit 1, stderr = check's report lines.
convert_reports() {
    local name=$1 file=$2 pattern=$3 rc=0
    "$DAMIER" pdn convert "$file" >"$tmp/out" 2>"$tmp/err" || rc=$?
    "$DAMIER" pdn check --verbose "$file" | grep -v ' games, \|^[0-9]* skipped' >"$tmp/want"
    if [ "$rc" -eq 1 ] && [ -s "$tmp/err" ] && cmp -s "$tmp/err" "$tmp/want" &&
        grep -qE -- "$pattern" "$tmp/out"; then
        ok
    else
        fail "$name: exit $rc, stderr '$(cat "$tmp/err")', expected '$(cat "$tmp/want")'"
    fi
}
printf '[GameType "20"]\n[FEN "W:WK1:B12,13,19,20"]\n\n1. 1x25 *\n' >"$tmp/amb.pdn"
convert_reports "convert ambiguous capture" "$tmp/amb.pdn" '^1\. 1x25 \*$'
grep -q 'amb.pdn:4:4: game 1 (? - ?): move 1. 1x25: ambiguous move "1x25": 2 legal moves match' \
    "$tmp/err" && ok || fail "convert ambiguous capture: $(cat "$tmp/err")"
printf '[FEN "W:WK1:B12,13,19,20"]\n\n1. 1x25 *\n' >"$tmp/amb2.pdn"
convert_reports "convert ambiguous capture, no GameType" "$tmp/amb2.pdn" '^1\. 1x25 \*$'
printf '[Event "x"]\n\n1. 32-28 19-23 2. 28-22 14x23 *\n' >"$tmp/ill.pdn"
convert_reports "convert illegal move" "$tmp/ill.pdn" '^1\. 32-28 19-23 2\. 28-22 14x23 \*$'
grep -q 'ill.pdn:3:19: game 1 (? - ?): move 2. 28-22: illegal move "28-22": capture is compulsory' \
    "$tmp/err" && ok || fail "convert illegal move: $(cat "$tmp/err")"
# a variant not played is written as read and said on stderr, exit 0
rc=0
"$DAMIER" pdn convert "$tmp/variant.pdn" >"$tmp/out" 2>"$tmp/err" || rc=$?
if [ "$rc" -eq 0 ] && grep -q 'game 3 (? - ?): skipped: GameType 41' "$tmp/err" &&
    grep -q '^1\. 32-28 \*$' "$tmp/out"; then
    ok
else
    fail "convert variant not played: exit $rc, stderr '$(cat "$tmp/err")'"
fi
expect_err "convert missing file" 2 "cannot open" -- pdn convert "$tmp/nope.pdn"
expect_err "convert unwritable output" 2 "cannot write" \
    -- pdn convert -o "$tmp/no/such/dir/x.pdn" "$tmp/conv.pdn"

# ---- accepted irregularities (docs/PDN.md) ----------------------------------------------
# White ignores the compulsory capture 28x19 and Black plays on: with the annotation the
# game checks with a warning (exit 0), the position as played; without it it is illegal.
printf '[White "Ann"]\n[Black "Bob"]\n\n1. 32-28 19-23 2. 33-29 {accepted irregularity: Black played on} 23x32 3. 38x27 *\n' \
    >"$tmp/irregular.pdn"
expect_run "check accepted irregularity" 0 \
"$tmp/irregular.pdn:4:19: game 1 (Ann - Bob): move 2. 33-29: warning: accepted irregularity at move 2. (illegal move \"33-29\": capture is compulsory (FMJD 4.1): 1 piece can be captured with 28x19); replayed as written
1 games, 1 legal, 0 with illegal moves, 0 unreadable" -- pdn check "$tmp/irregular.pdn"
sed 's/ {accepted irregularity: Black played on}//' "$tmp/irregular.pdn" >"$tmp/irregular-plain.pdn"
expect_run "check the same irregularity without the annotation" 1 \
"$tmp/irregular-plain.pdn:4:19: game 1 (Ann - Bob): move 2. 33-29: illegal move \"33-29\": capture is compulsory (FMJD 4.1): 1 piece can be captured with 28x19; FEN before: W:W28,31,33-50:B1-18,20,23
1 games, 0 legal, 1 with illegal moves, 0 unreadable" -- pdn check "$tmp/irregular-plain.pdn"
# convert keeps the annotation and the moves after it (normalised), and says the warning
rc=0
"$DAMIER" pdn convert "$tmp/irregular.pdn" >"$tmp/irregular-out.pdn" 2>"$tmp/err" || rc=$?
if [ "$rc" -eq 0 ] && grep -q "warning: accepted irregularity at move 2\." "$tmp/err"; then ok; else
    fail "convert accepted irregularity: exit $rc, stderr '$(cat "$tmp/err")'"; fi
matches "convert keeps the annotation" "$tmp/irregular-out.pdn" \
    '2\. 33-29 \{accepted irregularity: Black played on\} 2\.\.\. 23x32'
expect_run "the converted game checks the same" 0 \
"$tmp/irregular-out.pdn:9:19: game 1 (Ann - Bob): move 2. 33-29: warning: accepted irregularity at move 2. (illegal move \"33-29\": capture is compulsory (FMJD 4.1): 1 piece can be captured with 28x19); replayed as written
1 games, 1 legal, 0 with illegal moves, 0 unreadable" -- pdn check "$tmp/irregular-out.pdn"
# an annotated move that cannot be played as written stays an error
printf '1. 32-28 19-23 2. 27-22 {accepted irregularity} 23x32 *\n' >"$tmp/irregular-bad.pdn"
expect_run "check annotated move from an empty square" 1 \
"$tmp/irregular-bad.pdn:1:19: game 1 (? - ?): move 2. 27-22: illegal move \"27-22\": square 27 is empty; marked as an accepted irregularity, but it cannot be played as written: square 27 is empty: nothing to move; FEN before: W:W28,31,33-50:B1-18,20,23
1 games, 0 legal, 1 with illegal moves, 0 unreadable" -- pdn check "$tmp/irregular-bad.pdn"

# ---- annotation marks (docs/PDN.md) ---------------------------------------------------
printf '1. 32-28! 19-23?? 2. 28x19* 14x23+ 3. 33-28= 10-14+1 4. 39-33(-2) 5-10a.l. 5. 28x19!? 23x14?! *\n' \
    >"$tmp/marks.pdn"
"$DAMIER" pdn convert "$tmp/marks.pdn" >"$tmp/marks-out.pdn" 2>"$tmp/err" || true
matches "convert keeps every mark" "$tmp/marks-out.pdn" \
    '^1\. 32-28! 19-23\?\? 2\. 28x19\* 14x23\+ 3\. 33-28= 10-14\+1 4\. 39-33\(-2\) 5-10a\.l\.'
"$DAMIER" pdn convert --nags "$tmp/marks.pdn" >"$tmp/marks-nags.pdn" 2>"$tmp/err" || true
matches "convert --nags writes the NAG forms" "$tmp/marks-nags.pdn" \
    '^1\. 32-28 \$1 19-23 \$4 2\. 28x19 \$7 14x23 \$19 3\. 33-28 \$10 10-14\+1'
rejects pdn "check --nags $tmp/marks.pdn"
printf '1. 32-28!x 19-23 *\n' >"$tmp/badmark.pdn"
expect_run "check malformed mark" 1 \
"$tmp/badmark.pdn: game 1, line 1, column 10: malformed mark \"!x\" after the move 32-28: expected one of ! ? !! ?? !? ?! * + = +N -N a.l. (docs/PDN.md) or a delimiter, found 'x'
1 games, 0 legal, 0 with illegal moves, 1 unreadable" -- pdn check "$tmp/badmark.pdn"

# The real corpus (../shared/data/pdn) is checked by tests/cli/pdn_corpus.sh.

# convert -o onto one of its inputs would truncate the input before reading it: refused,
# and the input is left as it was.
printf '[Event "keep me"]\n1. 32-28 19-23 *\n' >"$tmp/same.pdn"
cp "$tmp/same.pdn" "$tmp/same.orig"
rc=0
"$DAMIER" pdn convert -o "$tmp/same.pdn" "$tmp/same.pdn" >"$tmp/out" 2>"$tmp/err" || rc=$?
if [ "$rc" -eq 2 ] && grep -q "also an input" "$tmp/err" && cmp -s "$tmp/same.pdn" "$tmp/same.orig"; then
    ok
else
    fail "convert -o onto its input: exit $rc, stderr '$(cat "$tmp/err")'"
fi
# an endless input (/dev/zero) stops at the size limit with an error, not out of memory
rc=0
timeout 60 "$DAMIER" pdn check /dev/zero >"$tmp/out" 2>"$tmp/err" || rc=$?
if [ "$rc" -eq 2 ] && grep -q "larger than" "$tmp/err"; then
    ok
else
    fail "pdn check /dev/zero: exit $rc, stderr '$(cat "$tmp/err")'"
fi

finish
