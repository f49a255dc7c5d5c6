#!/bin/bash
# SPDX-License-Identifier: MIT
# tests/cli/diagram.sh: damier diagram: the SVG parses as XML (python3's parser) and has
# each piece of the FEN, of the right kind, on its square's centre (square 1 top left
# unless --flip), with the arrows and marks asked for; the PNG (when the build has cairo,
# else the refusal that says so) starts with the PNG signature and has the picture's
# size; --pdn FILE --ply N draws a moment of a game; a bad FEN, arrow, mark, size, file
# name or game move is an error that says what and where (exit 2).
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
DAMIER=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if ! command -v python3 >/dev/null 2>&1; then
    echo "SKIP: python3 is needed to read the SVG (scripts/install-deps installs it)"
    exit 77
fi
FEN="B:W32,38,K42,45:B11,16,22,K24"

# check_svg FILE CELL FLIP: the pieces of $FEN on their squares, 10x10 cells + frame
check_svg() {
    python3 - "$1" "$2" "$3" <<'PY'
import sys, xml.etree.ElementTree as ET
path, cell, flip = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "1"
ns = "{http://www.w3.org/2000/svg}"
root = ET.parse(path).getroot()
assert root.tag == ns + "svg", root.tag
size = 10 * cell + 2 * (cell // 4)
assert root.get("width") == str(size) and root.get("height") == str(size), root.attrib
want = {32: "white man", 38: "white man", 42: "white king", 45: "white man",
        11: "black man", 16: "black man", 22: "black man", 24: "black king"}
def centre(sq):
    r = (sq - 1) // 5; k = (sq - 1) % 5
    c = 2 * k + 1 if r % 2 == 0 else 2 * k
    if flip: r, c = 9 - r, 9 - c
    f = cell // 4
    return f + c * cell + cell / 2, f + r * cell + cell / 2
got = {}
for e in root.iter(ns + "circle"):
    cls = e.get("class").split()
    if cls[0] != "piece":
        continue
    sq = int(e.get("data-square"))
    got[sq] = " ".join(cls[1:])
    x, y = centre(sq)
    assert abs(float(e.get("cx")) - x) < 0.01 and abs(float(e.get("cy")) - y) < 0.01, (sq, e.attrib)
assert got == want, got
crowns = sorted(int(e.get("data-square")) for e in root.iter(ns + "circle") if e.get("class") == "crown")
assert crowns == [24, 42], crowns
dark = [e for e in root.iter(ns + "rect") if e.get("class") == "dark"]
assert sorted(int(e.get("data-square")) for e in dark) == list(range(1, 51))
assert root.find(ns + "title").text == "B:W32,38,K42,45:B11,16,22,K24", root.find(ns + "title").text
arrows = [(e.get("data-from"), e.get("data-to")) for e in root.iter(ns + "line") if e.get("class") == "arrow"]
marks = [e.get("data-square") for e in root.iter(ns + "rect") if e.get("class") == "mark"]
numbers = [e.text for e in root.iter(ns + "text") if e.get("class") == "number"]
print("arrows", " ".join(f + "-" + t for f, t in arrows))
print("marks", " ".join(marks))
print("numbers", len(numbers))
PY
}

rc=0
"$DAMIER" diagram --fen "$FEN" --arrow 22-27 --arrow 32x21 --mark 27 --mark 21 --numbers \
    -o "$tmp/a.svg" 2> "$tmp/err" || rc=$?
[ "$rc" -eq 0 ] && ok || fail "svg: exit $rc: $(cat "$tmp/err")"
check_svg "$tmp/a.svg" 40 0 > "$tmp/a.txt" 2>&1 && ok || fail "svg contents: $(cat "$tmp/a.txt")"
has "svg: arrows" "$tmp/a.txt" "arrows 22-27 32-21"
has "svg: marks" "$tmp/a.txt" "marks 27 21"
has "svg: numbers" "$tmp/a.txt" "numbers 50"
# flipped, another size, to standard output, no extras
"$DAMIER" diagram --fen "$FEN" --flip --size 24 > "$tmp/b.svg" 2> "$tmp/err" && ok ||
    fail "svg flip: $(cat "$tmp/err")"
check_svg "$tmp/b.svg" 24 1 > "$tmp/b.txt" 2>&1 && ok || fail "svg flipped: $(cat "$tmp/b.txt")"
has "svg flipped: no arrows" "$tmp/b.txt" "arrows "
has "svg flipped: no numbers" "$tmp/b.txt" "numbers 0"

# PNG: signature and size (IHDR width and height), or the reason it is not in the build
rc=0
"$DAMIER" diagram --fen "$FEN" --arrow 22-27 --mark 27 --numbers -o "$tmp/a.png" 2> "$tmp/err" || rc=$?
if "$DAMIER" diagram --help | grep -q "drawn with cairo"; then
    [ "$rc" -eq 0 ] && ok || fail "png: exit $rc: $(cat "$tmp/err")"
    python3 - "$tmp/a.png" 420 > "$tmp/png.txt" 2>&1 <<'PY' && ok || fail "png: $(cat "$tmp/png.txt")"
import struct, sys
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", data[:8]
assert data[12:16] == b"IHDR", data[12:16]
w, h = struct.unpack(">II", data[16:24])
assert (w, h) == (int(sys.argv[2]),) * 2, (w, h)
PY
    "$DAMIER" diagram --fen "$FEN" --size 8 -o "$tmp/small.PNG" && ok || fail "png small"
    python3 -c 'import struct,sys; d=open(sys.argv[1],"rb").read(); assert struct.unpack(">II", d[16:24]) == (84, 84)' \
        "$tmp/small.PNG" && ok || fail "png small: size"
else
    [ "$rc" -eq 2 ] && grep -q "PNG output is not in this build.*libcairo2-dev" "$tmp/err" && ok ||
        fail "png without cairo: exit $rc: $(cat "$tmp/err")"
fi

# a moment of a game: --pdn FILE --ply N (--last-move: its move as an arrow)
printf '[White "A"]\n[Black "B"]\n\n1. 32-28 19-23 2. 28x19 14x23 *\n' > "$tmp/g.pdn"
"$DAMIER" diagram --pdn "$tmp/g.pdn" --ply 2 --last-move > "$tmp/g.svg" 2> "$tmp/err" && ok ||
    fail "pdn: $(cat "$tmp/err")"
has "pdn: the position after 2 plies" "$tmp/g.svg" "<title>W:W28,31,33-50:B1-18,20,23</title>"
matches "pdn: the last move as an arrow" "$tmp/g.svg" '^<line class="arrow" data-from="19" data-to="23" '
"$DAMIER" diagram --pdn "$tmp/g.pdn" > "$tmp/g.svg" 2> "$tmp/err" && ok || fail "pdn end: $(cat "$tmp/err")"
has "pdn: the end by default" "$tmp/g.svg" "<title>W:W31,33-50:B1-13,15-18,20,23</title>"
printf '1. 32-28 19-24 2. 28x19 *\n' > "$tmp/bad.pdn"

# errors: what and where, exit 2, nothing written
bad() {
    local name=$1 want=$2
    shift 2
    local rc=0
    "$DAMIER" diagram "$@" > "$tmp/out" 2> "$tmp/err" || rc=$?
    if [ "$rc" -eq 2 ] && grep -qF -- "$want" "$tmp/err" && [ ! -s "$tmp/out" ]; then
        ok
    else
        fail "$name: exit $rc, stderr '$(cat "$tmp/err")', expected '$want'"
    fi
}
bad "bad FEN" "bad FEN at character 14: expected ',' or ':' or the end, found 'x'" --fen "W:W32,K42:B22x"
bad "man on the promotion row" "white man on square 3, White's promotion row" --fen "W:W3:B22"
bad "arrow off the board" "--arrow '32-51', character 4: square 51 is not 1..50" --fen "$FEN" --arrow 32-51
bad "arrow without separator" "--arrow '3228', character 1: square 3228 is not 1..50" --fen "$FEN" --arrow 3228
bad "arrow to itself" "--arrow '32-32', character 1: an arrow needs two different squares" --fen "$FEN" --arrow 32-32
bad "arrow cut short" "--arrow '32-', character 4: expected a square number 1..50, found the end" --fen "$FEN" --arrow 32-
bad "mark" "--mark '0', character 1: square 0 is not 1..50" --fen "$FEN" --mark 0
bad "mark junk" "--mark '12a', character 3: unexpected 'a' after the square number" --fen "$FEN" --mark 12a
bad "size" "--size needs a number of pixels from 8 to 200, not '7'" --fen "$FEN" --size 7
bad "file name" "-o x.gif: the file name must end in .svg or .png" --fen "$FEN" -o x.gif
bad "no FEN" "usage: damier diagram --fen FEN" --flip
bad "unknown option" "unknown option '--frobnicate'" --fen "$FEN" --frobnicate
bad "illegal move in the game" "bad.pdn: game 1: line 1, column 19: move 2. 28x19: illegal move" --pdn "$tmp/bad.pdn"
bad "ply past the end" "--ply 9: the game of $tmp/g.pdn has 4 plies" --pdn "$tmp/g.pdn" --ply 9
bad "both positions" "--fen and --pdn name the position twice" --fen "$FEN" --pdn "$tmp/g.pdn"
bad "ply without pdn" "--ply and --last-move go with --pdn" --fen "$FEN" --ply 3
finish
