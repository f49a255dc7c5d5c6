#!/bin/bash
# tests/web/run-load.sh: the bounded load test of damier serve (load.mjs): 500 games,
# 1000 WebSockets on the loopback, 20 plies each, players thinking 0.5-1.5 s; fails on
# any error or a p99 move round trip above P99_MS (50). Skipped (77) without node or
# tests/web/node_modules.
here=$(cd "$(dirname "$0")" && pwd)
command -v node >/dev/null || { echo "skipped: node is not installed (scripts/install-deps)"; exit 77; }
[ -d "$here/node_modules/ws" ] || { echo "skipped: no tests/web/node_modules (cd tests/web && npm ci; scripts/install-deps does it)"; exit 77; }
# two descriptors per game on each side, and some
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
[ "$(ulimit -n)" = unlimited ] || [ "$(ulimit -n)" -ge 2200 ] || { echo "skipped: the open files limit ($(ulimit -n)) is below 2200"; exit 77; }
export P99_MS=${P99_MS:-50}
exec node "$here/load.mjs" --games "${GAMES:-500}" --plies "${PLIES:-20}" --damier "$DAMIER"
