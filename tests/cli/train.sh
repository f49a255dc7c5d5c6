#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/train.sh: the evaluation pipeline end to end on a tiny scale: `damier
# selfplay --gen` writes complete chunk files and resumes, `damier train` fits weights
# that `analyse --eval` and `hub --eval` use, a truncated or missing weights file is
# refused with a clear message, `selfplay --match` reports an Elo, bad options exit 2.
# Usage: bash train.sh <damier binary> [<shared dir>]
set -u
DAMIER=${1:?usage: train.sh <damier binary> [<shared dir>]}
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

rc=0
"$DAMIER" selfplay --gen "$tmp/sp" --chunks 2 --chunk-games 2 --nodes 300 --max-plies 60 \
    >"$tmp/gen" 2>"$tmp/err" || rc=$?
[ "$rc" -eq 0 ] && ok || fail "gen: exit $rc: $(cat "$tmp/err")"
[ -f "$tmp/sp/chunk-00000.dmsp" ] && [ -f "$tmp/sp/chunk-00001.dmsp" ] && ok ||
    fail "gen: chunk files missing: $(ls "$tmp/sp")"
[ "$(find "$tmp/sp" -name '*.tmp' | wc -l)" -eq 0 ] && ok || fail "gen left temporary files"
matches "gen summary" "$tmp/gen" '^selfplay: 4 games, [1-9][0-9]* samples'
# Resumed: the chunks are there, nothing is played again.
"$DAMIER" selfplay --gen "$tmp/sp" --chunks 2 --chunk-games 2 --nodes 300 --max-plies 60 \
    >"$tmp/gen2" 2>&1
matches "resume" "$tmp/gen2" '^selfplay: 0 games, 0 samples'

rc=0
"$DAMIER" train "$tmp/sp" --out "$tmp/w.dmev" --epochs 2 --batch 64 --name tiny \
    >"$tmp/train" 2>"$tmp/err" || rc=$?
[ "$rc" -eq 0 ] && ok || fail "train: exit $rc: $(cat "$tmp/err")"
matches "train epochs" "$tmp/train" '^epoch 2: loss [0-9.]+, held-out [0-9.]+$'
[ "$(wc -c <"$tmp/w.dmev")" -eq 367732 ] && ok || fail "weights file size $(wc -c <"$tmp/w.dmev")"
"$DAMIER" train "$tmp/sp" --loss --eval "$tmp/w.dmev" >"$tmp/loss" 2>&1
matches "loss" "$tmp/loss" '^loss [0-9.]+ \(tiny, lambda 0.50, scale 250\)$'

"$DAMIER" analyse --depth 4 --eval "$tmp/w.dmev" >"$tmp/an" 2>&1
matches "analyse --eval" "$tmp/an" '^bestmove [0-9]+-[0-9]+'
printf 'hub\ninit\nlevel depth=3\ngo think\n' | timeout 20 "$DAMIER" hub --eval "$tmp/w.dmev" \
    >"$tmp/hub" 2>&1
matches "hub --eval" "$tmp/hub" '^done move=[0-9]+-[0-9]+'

# A truncated file and a missing one: refused, saying why, exit 1.
head -c 1000 "$tmp/w.dmev" >"$tmp/short.dmev"
rc=0
"$DAMIER" analyse --depth 2 --eval "$tmp/short.dmev" >"$tmp/out" 2>"$tmp/err" || rc=$?
[ "$rc" -eq 1 ] && grep -q "short.dmev: weights file of 1000 bytes, expected 367732 (truncated)" \
    "$tmp/err" && ok || fail "truncated weights: exit $rc, '$(cat "$tmp/err")'"
rc=0
"$DAMIER" hub --eval "$tmp/none.dmev" </dev/null >"$tmp/out" 2>"$tmp/err" || rc=$?
[ "$rc" -eq 1 ] && grep -q "none.dmev: No such file" "$tmp/err" && ok ||
    fail "missing weights: exit $rc, '$(cat "$tmp/err")'"

"$DAMIER" selfplay --match "$tmp/w.dmev" hand --pairs 1 --nodes 200 --max-plies 40 \
    >"$tmp/match" 2>&1
matches "match" "$tmp/match" '^Elo of A - B: -?[0-9.]+ \(95%: '

rejects selfplay "--gen $tmp/x --nodes 0" "--gen $tmp/x --random-plies 5-2" "--jobs 2" \
    "--gen $tmp/x --bogus 1"
rejects train "--out $tmp/y.dmev" "$tmp/sp --epochs x --out $tmp/y.dmev" "$tmp/sp"
finish
