#!/bin/bash
# tests/web/run-pg.sh: two `damier serve --pg` on one PostgreSQL (pg_two.mjs). The
# database: DAMIER_PG_URL when set (a database the test may fill), else a throwaway
# cluster made here (DAMIER_PG_BIN's or Debian's initdb in a temporary folder, pg_ctl on a free port of the
# loopback, as the user postgres, or nobody, when run as root; removed at the end).
# Skipped (77) without node, tests/web/node_modules or PostgreSQL's server programs
# (apt-get install postgresql; scripts/install-deps does it) -- except when
# DAMIER_PG_REQUIRED=1 (.ci/run), where a missing PostgreSQL fails the test.
here=$(cd "$(dirname "$0")" && pwd)
skip() {
  if [ "${DAMIER_PG_REQUIRED:-0}" = 1 ]; then
    echo "FAILED: $1 (DAMIER_PG_REQUIRED=1: PostgreSQL must be there)"; exit 1
  fi
  echo "skipped: $1"; exit 77
}
command -v node >/dev/null || skip "node is not installed (scripts/install-deps)"
[ -d "$here/node_modules/ws" ] || skip "no tests/web/node_modules (cd tests/web && npm ci; scripts/install-deps does it)"
if [ -n "${DAMIER_PG_URL:-}" ]; then
  exec node "$here/pg_two.mjs" --damier "$DAMIER" --pg "$DAMIER_PG_URL"
fi
# PostgreSQL's programs: DAMIER_PG_BIN, else Debian's newest
bin=${DAMIER_PG_BIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)}
[ -n "$bin" ] && [ -x "$bin/initdb" ] && [ -x "$bin/pg_ctl" ] ||
  skip "PostgreSQL's server is not installed (apt-get install postgresql; scripts/install-deps), nor DAMIER_PG_URL set"
dir=$(mktemp -d /tmp/damier-pg.XXXXXX)
as=()
if [ "$(id -u)" = 0 ]; then # PostgreSQL refuses to run as root
  user=postgres
  id -u "$user" >/dev/null 2>&1 || user=nobody
  chown "$user" "$dir"
  as=(runuser -u "$user" --)
fi
port=$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
cleanup() {
  "${as[@]}" "$bin/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1
  rm -rf "$dir"
}
trap cleanup EXIT
"${as[@]}" "$bin/initdb" -D "$dir/data" -A trust -U damier -E UTF8 --no-locale >"$dir/initdb.log" 2>&1 ||
  { cat "$dir/initdb.log"; echo "FAILED: initdb"; exit 1; }
"${as[@]}" "$bin/pg_ctl" -D "$dir/data" -l "$dir/pg.log" -w -t 60 \
  -o "-p $port -k $dir -c listen_addresses=127.0.0.1" start >/dev/null ||
  { cat "$dir/pg.log"; echo "FAILED: pg_ctl start"; exit 1; }
node "$here/pg_two.mjs" --damier "$DAMIER" --pg "postgresql://damier@127.0.0.1:$port/postgres"
