#!/bin/bash
# tests/web/run-e2e.sh: the browser end-to-end tests of damier serve (e2e.mjs), or a
# skip (exit 77) saying what is missing: node, tests/web/node_modules (npm ci), or
# Debian's chromium. Never downloads a browser.
here=$(cd "$(dirname "$0")" && pwd)
command -v node >/dev/null || { echo "skipped: node is not installed (scripts/install-deps)"; exit 77; }
[ -d "$here/node_modules/playwright-core" ] || { echo "skipped: no tests/web/node_modules (cd tests/web && npm ci; scripts/install-deps does it)"; exit 77; }
CHROMIUM=${CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}
[ -n "$CHROMIUM" ] || { echo "skipped: chromium is not installed (apt-get install chromium; scripts/install-deps does it)"; exit 77; }
export CHROMIUM PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
exec node "$here/e2e.mjs"
