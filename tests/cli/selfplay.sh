#!/usr/bin/env bash
# tests/cli/selfplay.sh: a two-game match between two `damier hub` engines through
# scripts/selfplay (the referee checks every move against `damier moves`, keeps the
# clocks and the FMJD end rules); games are cut at 24 plies to keep it short. The
# 100-game match of BENCHMARKS.md/the engine report is run by hand.
set -u
bin=$1
here=$(cd "$(dirname "$0")" && pwd)
command -v python3 >/dev/null || { echo "SKIP: python3 not installed"; exit 77; }
plies=24
# A sanitizer build starts slowly (the referee runs `damier moves` every ply): shorter.
grep -q __asan_init "$bin" && plies=8
out=$(timeout 120 python3 "$here/../../scripts/selfplay" --games 2 --time 1 --inc 0.05 \
    --max-plies $plies --binary "$bin" --seed 3)
rc=$?
echo "$out"
[ $rc -eq 0 ] || { echo "FAIL: selfplay exit status $rc"; exit 1; }
grep -q '^games 2 .* failures 0 ' <<<"$out" || { echo "FAIL: summary"; exit 1; }
