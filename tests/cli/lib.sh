# SPDX-License-Identifier: MIT
# tests/cli/lib.sh: the check helpers the tests/cli/*.sh scripts share. Not a test
# itself (tests/CMakeLists.txt leaves it out); a script sources it with
#     . "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
# Counters: $passed and $failed; the script ends with `finish`.
failed=0
passed=0

# fail MESSAGE: count a failed check and say why on stderr.
fail() {
    echo "FAIL: $*" >&2
    failed=$((failed + 1))
}
# ok: count a passed check.
ok() {
    passed=$((passed + 1))
}

# has NAME FILE LINE: FILE contains LINE exactly.
has() {
    if grep -qxF -- "$3" "$2"; then ok; else fail "$1: no line '$3' in:"; cat "$2" >&2; fi
}
# matches NAME FILE ERE: some line of FILE matches the extended regular expression.
matches() {
    if grep -qE -- "$3" "$2"; then ok; else fail "$1: no line matching /$3/ in:"; cat "$2" >&2; fi
}
# after NAME FILE LINE NEXT: the line after the first LINE is NEXT.
after() {
    local got
    got=$(grep -A1 -xF -- "$3" "$2" | sed -n 2p)
    if [ "$got" = "$4" ]; then ok; else fail "$1: after '$3' came '$got', expected '$4'"; fi
}

# rejects COMMAND ARGS...: each ARGS (one string, split on spaces) given to
# `$DAMIER COMMAND` with no input exits 2 with a message on stderr and nothing on
# stdout. Uses $DAMIER and $tmp.
rejects() {
    local cmd=$1 bad rc
    shift
    for bad in "$@"; do
        rc=0
        # shellcheck disable=SC2086
        "$DAMIER" "$cmd" $bad </dev/null >"$tmp/bad.out" 2>"$tmp/bad.err" || rc=$?
        if [ "$rc" -eq 2 ] && [ -s "$tmp/bad.err" ] && [ ! -s "$tmp/bad.out" ]; then
            ok
        else
            fail "options '$bad': exit $rc, stderr '$(cat "$tmp/bad.err")'"
        fi
    done
}

# expect_run NAME RC EXPECTED_STDOUT -- ARGS...: run "$DAMIER" ARGS (stdout and
# stderr in $tmp/out, $tmp/err); its exit status must be RC and stdout exactly as given.
expect_run() {
    local name=$1 want_rc=$2 want=$3
    shift 4
    local rc=0
    "$DAMIER" "$@" >"$tmp/out" 2>"$tmp/err" || rc=$?
    if [ "$rc" -ne "$want_rc" ]; then
        fail "$name: exit $rc, expected $want_rc: $(cat "$tmp/err")"
    elif [ "$(cat "$tmp/out")" != "$want" ]; then
        fail "$name: output differs:"
        diff <(printf '%s\n' "$want") "$tmp/out" >&2
    else
        passed=$((passed + 1))
    fi
}

# ---- the terminal tests (tmux) ----------------------------------------------------
# tmux_setup: exit 77 (CTest's SKIP_RETURN_CODE) when tmux is missing; else $tmp, a
# private tmux server on $sock and a trap that ends it and removes $tmp.
tmux_setup() {
    if ! command -v tmux >/dev/null 2>&1; then
        echo "SKIP: tmux is not installed (scripts/install-deps installs it)"
        exit 77
    fi
    tmp=$(mktemp -d)
    sock=$tmp/tmux.sock
    trap 'tmux -S "$sock" kill-server >/dev/null 2>&1; rm -rf "$tmp"' EXIT
}
tm() { tmux -S "$sock" "$@"; }
# screen NAME: the text of session NAME's screen.
screen() { tm capture-pane -p -t "$1"; }
# wait_for NAME ERE: until the screen matches ($wait_tries tenths of a second at most,
# 10 s unless set); 1 on timeout.
wait_tries=100
wait_for() {
    for _ in $(seq "$wait_tries"); do
        screen "$1" | grep -qE -- "$2" && return 0
        sleep 0.1
    done
    return 1
}
# expect NAME ERE: the screen shows ERE (waiting for it); expect_not: it does not now.
expect() {
    if wait_for "$1" "$2"; then
        ok
    else
        fail "$1: screen never showed /$2/:"
        screen "$1" >&2
    fi
}
expect_not() {
    if screen "$1" | grep -qE -- "$2"; then
        fail "$1: screen shows /$2/:"
        screen "$1" >&2
    else
        ok
    fi
}
# send NAME TEXT: type TEXT and Enter.
send() { tm send-keys -t "$1" "$2" Enter; }

# finish: the summary line; the exit status of the script (0 when nothing failed).
finish() {
    echo "$passed passed, $failed failed"
    [ "$failed" -eq 0 ]
}
