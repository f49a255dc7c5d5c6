#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/train_russian.sh: the evaluation pipeline for an 8x8 variant (Russian) end
# to end on a tiny scale: `selfplay --gen --variant russian` writes chunk files whose
# header names the variant and resumes, `--eval builtin|hand` choose the players,
# `train` reads the variant from the samples
# and writes Russian weights that `hub --eval` and `selfplay --match --variant
# russian` use; weights or samples of another variant are refused with a clear message.
# Usage: bash train_russian.sh <damier binary> [<shared dir>]
set -u
DAMIER=${1:?usage: train_russian.sh <damier binary> [<shared dir>]}
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

gen() {
    "$DAMIER" selfplay --gen "$tmp/sp" --variant russian --chunks 2 --chunk-games 2 \
        --nodes 300 --max-plies 60 "$@"
}
rc=0
gen >"$tmp/gen" 2>"$tmp/err" || rc=$?
[ "$rc" -eq 0 ] && ok || fail "gen: exit $rc: $(cat "$tmp/err")"
matches "gen summary" "$tmp/gen" '^selfplay: 4 games, [1-9][0-9]* samples'
# The header: DMSP, version 1, 32-byte records, variant 2 (Russian).
[ "$(od -An -tx1 -N16 "$tmp/sp/chunk-00000.dmsp" | tr -d ' \n')" = \
    "444d53500100000020000000""02000000" ] && ok || fail "sample header: $(od -An -tx1 -N16 "$tmp/sp/chunk-00000.dmsp")"
gen >"$tmp/gen2" 2>&1
matches "resume" "$tmp/gen2" '^selfplay: 0 games, 0 samples'
# --eval builtin plays the default games, --eval hand the hand evaluation's (a
# generation of the hand evaluation, as the first weights were trained on, is made
# again by the same binary).
"$DAMIER" selfplay --gen "$tmp/spb" --variant russian --chunks 1 --chunk-games 2 --nodes 300 \
    --max-plies 60 --eval builtin >"$tmp/genb" 2>&1
cmp -s "$tmp/sp/chunk-00000.dmsp" "$tmp/spb/chunk-00000.dmsp" && ok ||
    fail "gen --eval builtin: not the default games ($(cat "$tmp/genb"))"
rc=0
"$DAMIER" selfplay --gen "$tmp/sph" --variant russian --chunks 1 --chunk-games 2 --nodes 300 \
    --max-plies 60 --eval hand >"$tmp/genh" 2>&1 || rc=$?
[ "$rc" -eq 0 ] && ok || fail "gen --eval hand: exit $rc: $(cat "$tmp/genh")"
matches "gen --eval hand summary" "$tmp/genh" '^selfplay: 2 games, [1-9][0-9]* samples'
cmp -s "$tmp/sp/chunk-00000.dmsp" "$tmp/sph/chunk-00000.dmsp" &&
    fail "gen --eval hand: the built-in weights' games" || ok

rc=0
"$DAMIER" train "$tmp/sp" --out "$tmp/r.dmev" --epochs 2 --batch 64 --name tinyrus \
    >"$tmp/train" 2>"$tmp/err" || rc=$?
[ "$rc" -eq 0 ] && ok || fail "train: exit $rc: $(cat "$tmp/err")"
matches "train variant" "$tmp/train" '^train: [0-9]+ samples \(russian\)$'
matches "train epochs" "$tmp/train" '^epoch 2: loss [0-9.]+, held-out [0-9.]+$'
[ "$(wc -c <"$tmp/r.dmev")" -eq 210040 ] && ok || fail "weights file size $(wc -c <"$tmp/r.dmev")"
"$DAMIER" train "$tmp/sp" --loss --eval "$tmp/r.dmev" >"$tmp/loss" 2>&1
matches "loss" "$tmp/loss" '^loss [0-9.]+ \(tinyrus, lambda 0.50, scale 250\)$'

# analyse --eval searches with the trained weights (not the built-in ones).
"$DAMIER" analyse --variant russian --depth 8 | sed 's/ time .*//' >"$tmp/a0"
rc=0
"$DAMIER" analyse --variant russian --depth 8 --eval "$tmp/r.dmev" >"$tmp/a1" 2>&1 || rc=$?
[ "$rc" -eq 0 ] && ok || fail "analyse --eval: exit $rc: $(cat "$tmp/a1")"
sed -i 's/ time .*//' "$tmp/a1"
matches "analyse --eval bestmove" "$tmp/a1" '^bestmove [a-h][1-8]'
cmp -s "$tmp/a0" "$tmp/a1" && fail "analyse --eval: the same search as the built-in weights" || ok

printf 'hub\ninit\nlevel depth=3\ngo think\n' | timeout 20 "$DAMIER" hub --variant russian \
    --eval "$tmp/r.dmev" >"$tmp/hub" 2>&1
matches "hub --eval (russian)" "$tmp/hub" '^done move=[a-h1-8-]+'

"$DAMIER" selfplay --match "$tmp/r.dmev" hand --variant russian --pairs 1 --nodes 200 \
    --max-plies 40 >"$tmp/match" 2>&1
matches "match header" "$tmp/match" '^match: A=.* B=hand, russian, 1 pairs'
matches "match Elo" "$tmp/match" '^Elo of A - B: -?[0-9.]+ \(95%: '

# Another variant's weights, a truncated file, samples of two variants: refused.
rc=0
"$DAMIER" selfplay --match "$tmp/r.dmev" hand --variant brazilian --pairs 1 --nodes 100 \
    >"$tmp/out" 2>"$tmp/err" || rc=$?
[ "$rc" -eq 1 ] && grep -q "r.dmev: weights for variant 2, expected variant 1" "$tmp/err" && ok ||
    fail "brazilian with russian weights: exit $rc, '$(cat "$tmp/err")'"
rc=0
"$DAMIER" selfplay --match "$tmp/r.dmev" hand --pairs 1 --nodes 100 >"$tmp/out" 2>"$tmp/err" || rc=$?
[ "$rc" -eq 1 ] && grep -q "variant 2" "$tmp/err" && ok ||
    fail "international with russian weights: exit $rc, '$(cat "$tmp/err")'"
head -c 5000 "$tmp/r.dmev" >"$tmp/short.dmev"
rc=0
"$DAMIER" selfplay --gen "$tmp/x" --variant russian --eval "$tmp/short.dmev" >"$tmp/out" \
    2>"$tmp/err" || rc=$?
[ "$rc" -eq 1 ] && grep -q "short.dmev: weights file of 5000 bytes, expected 210040 (truncated)" \
    "$tmp/err" && ok || fail "truncated russian weights: exit $rc, '$(cat "$tmp/err")'"
"$DAMIER" selfplay --gen "$tmp/intl" --chunks 1 --chunk-games 1 --nodes 100 --max-plies 20 \
    >/dev/null 2>&1
rc=0
"$DAMIER" train "$tmp/sp" "$tmp/intl" --out "$tmp/mix.dmev" >"$tmp/out" 2>"$tmp/err" || rc=$?
[ "$rc" -eq 1 ] && grep -q "samples of variant 0, the others of 2" "$tmp/err" && ok ||
    fail "mixed samples: exit $rc, '$(cat "$tmp/err")'"
rejects selfplay "--gen $tmp/y --variant antidraughts" "--gen $tmp/y --variant nosuch"
finish
