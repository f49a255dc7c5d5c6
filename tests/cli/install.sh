#!/usr/bin/env bash
# make install's rules (cmake --install) put a working damier, libdamier.so and the
# headers under a prefix: the installed binary runs, and a program built against the
# installed header and library alone reports the header's version.
set -euo pipefail
bin=$1
build=$(dirname "$bin")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/prefix" >/dev/null
"$tmp/prefix/bin/damier" --version | grep -Eq '^damier [0-9]+\.[0-9]+\.[0-9]+$' ||
    { echo "installed damier --version failed"; exit 1; }
test -f "$tmp/prefix/include/damier.h" || { echo "damier.h not installed"; exit 1; }
# the ballot of `damier match`, found beside the installed bin/
"$tmp/prefix/bin/damier" match --engine "$tmp/prefix/bin/damier hub" \
    --engine "$tmp/prefix/bin/damier hub" --depth 1 --games 2 --max-plies 2 >"$tmp/match.out"
grep -q "openings $(realpath "$tmp")/prefix/share/damier/ballot.fen (" "$tmp/match.out" ||
    { echo "installed damier match does not find share/damier/ballot.fen"; exit 1; }
test -f "$tmp/prefix/include/damier/variant.h" || { echo "damier/variant.h not installed"; exit 1; }
lib=$(dirname "$(find "$tmp/prefix" -name 'libdamier.so' | head -1)")
if [ "$lib" = . ]; then # a build without DM_SHARED (the sanitizer build)
    echo "install: ok (no libdamier.so in this build: library link not checked)"
    exit 0
fi
cat > "$tmp/user.c" <<'C'
#include <damier.h>
#include <stdio.h>
#include <string.h>
int main(void) { return strcmp(dm_version(NULL, NULL, NULL), DM_VERSION) != 0; }
C
cc -std=c17 -I"$tmp/prefix/include" "$tmp/user.c" -L"$lib" -ldamier -o "$tmp/user"
LD_LIBRARY_PATH="$lib" "$tmp/user" || { echo "a program linked to the installed library failed"; exit 1; }
echo "install: ok"
