#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/play_i18n.sh: `damier play` in Chinese (gettext, po/): plain mode (piped
# input) with LANG=zh_CN.UTF-8 says its messages, the rules' reasons for refusing a
# move, the draw answer, the help and the result's reason in Simplified Chinese, with
# zh_TW.UTF-8 in Traditional; LANGUAGE and LC_ALL choose as gettext says; the plain
# output's keys and the moves stay as they are; without a Chinese locale asked for,
# the output is English; the jumping games (--game) and the other variants too. The locales need not be generated (a fresh Debian machine has
# only C.UTF-8): damier picks the catalog from the name. With tmux, the board screen
# too. Every catalog has every string of the code. Skipped (77) only when the build has no catalogs because msgfmt (Debian's
# `gettext`) is not installed.
# Usage: bash play_i18n.sh <damier binary>
set -u
DAMIER=${1:?usage: play_i18n.sh <damier binary>}
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
mo=$(dirname "$DAMIER")/locale/zh_CN/LC_MESSAGES/damier.mo
if [ ! -f "$mo" ]; then
    if ! command -v msgfmt >/dev/null; then
        echo "skipped: msgfmt is not installed (apt-get install gettext; scripts/install-deps), so the build has no message catalogs"
        exit 77
    fi
    echo "FAIL: msgfmt is installed but the build made no catalog ($mo)" >&2
    exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# every marked string of the code translated in every catalog (no untranslated, no
# fuzzy one): the template made afresh from the sources, as `make pot` does
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
if command -v xgettext >/dev/null && command -v msgcmp >/dev/null; then
    sources=$(sed -n '/^POT_SOURCES = /,/[^\\]$/p' "$src/Makefile" | sed 's/POT_SOURCES = //; s/\\//g')
    # shellcheck disable=SC2086
    (cd "$src" && xgettext --language=C --keyword=_ --keyword=N_ --keyword=ngettext:1,2 \
        --from-code=UTF-8 -o "$tmp/damier.pot" $sources) && ok || fail "xgettext failed"
    for po in "$src"/po/*.po; do
        if msgcmp "$po" "$tmp/damier.pot" 2>"$tmp/msgcmp"; then ok; else
            fail "$(basename "$po"): strings missing or untranslated: $(cat "$tmp/msgcmp")"
        fi
    done
else
    echo "(xgettext not installed: the catalogs are not compared with the sources)"
fi

# play NAME INPUT ENV...: damier play with the environment ENV (and nothing of this
# shell's locale), input piped; output in $tmp/NAME.out
play() {
    local name=$1 input=$2
    shift 2
    rc=0
    printf '%s' "$input" | env -u LANGUAGE -u LC_ALL -u LC_MESSAGES -u LANG "$@" \
        XDG_DATA_HOME="$tmp/$name" HOME="$tmp/home" \
        "$DAMIER" play --level 1 --seed 7 >"$tmp/$name.out" 2>"$tmp/$name.err" || rc=$?
    [ "$rc" -eq 0 ] && ok || fail "$name: exit $rc: $(cat "$tmp/$name.err")"
}

input='32-23
foo
32-28
undo
flip
draw
help
resign
'
play cn "$input" LANG=zh_CN.UTF-8
out=$tmp/cn.out
# the keys, the colours in them and the moves as before
has cn "$out" "turn: 1 white"
has cn "$out" "move: 1. 32-28"
# the rule that forbids the move, in Chinese, with the move and squares as written
has cn "$out" 'error: 不合规则的着法“32-23”：第 32 格的普通棋子可以走 32-27, 32-28'
has cn "$out" "error: 未知命令“foo”（输入 help 查看命令）"
has cn "$out" "undo: 已悔 2 步"
has cn "$out" "info: 棋盘已翻转：黑方在下方"
has cn "$out" "draw: 拒绝和棋：局面还有得下"
matches cn "$out" '^help:   undo +悔棋'
has cn "$out" "result: 0-2 认输"
# no English left: every value is Chinese, notation, a number, a path or a command
# word the player types (help, draw, save FILE, level N; foo, the unknown one)
grep -v -E '^(white|black|variant|time|seed|fen|turn|move|engine|hint|board|saved): ' "$out" |
    sed -E 's/^[a-z]+: //; s/^  [a-z]+( FILE| N)? //' |
    grep -o -E '[A-Za-z]{2,}' | grep -v -x -E 'foo|help|draw|save|load|level|FILE|PDN|FMJD|damier' \
    >"$tmp/cn.english"
[ -s "$tmp/cn.english" ] && fail "cn: English left: $(cat "$tmp/cn.english")" || ok

# Traditional Chinese: by LANG, and by LANGUAGE over an English LANG
play tw 'resign
' LANG=zh_TW.UTF-8
has tw "$tmp/tw.out" "result: 0-2 認輸"
play language 'resign
' LANG=C.UTF-8 LANGUAGE=zh_TW
has language "$tmp/language.out" "result: 0-2 認輸"
# LC_ALL over LANG
play lcall 'resign
' LANG=en_US.UTF-8 LC_ALL=zh_CN.UTF-8
has lcall "$tmp/lcall.out" "result: 0-2 认输"
# English without a Chinese locale asked for: the output of before
for l in C C.UTF-8 en_US.UTF-8; do
    play "en-$l" "$input" LANG=$l
    has "en-$l" "$tmp/en-$l.out" 'error: illegal move "32-23": the man on 32 can play 32-27, 32-28'
    has "en-$l" "$tmp/en-$l.out" "result: 0-2 resignation"
    has "en-$l" "$tmp/en-$l.out" "undo: 2 plies taken back"
done
play en-unset "$input"
has en-unset "$tmp/en-unset.out" "result: 0-2 resignation"

# The jumping games (play_jump.c): the help and the undo in Chinese, the keys kept
printf 'help\n112-103\nundo\nquit\n' | env -u LANGUAGE -u LC_ALL LANG=zh_CN.UTF-8 XDG_DATA_HOME="$tmp/jump" \
    "$DAMIER" play --game chinese-checkers --level 1 >"$tmp/jump.out" 2>"$tmp/jump.err" && ok ||
    fail "jump: $(cat "$tmp/jump.err")"
matches jump "$tmp/jump.out" '^help: 着法（112-103, 111-89-67）、moves（列出着法）'
has jump "$tmp/jump.out" "move: A 112-103"
has jump "$tmp/jump.out" "undo: 退回到第 1 回合，轮到 A 走棋"

# The other variants (the same game, cmd_play.c): the same, with the variant's notation
printf 'foo\nc3-d4\nundo\nresign\n' | env -u LANGUAGE -u LC_ALL LANG=zh_CN.UTF-8 XDG_DATA_HOME="$tmp/variant" \
    "$DAMIER" play --variant russian --level 1 >"$tmp/variant.out" 2>"$tmp/variant.err" && ok ||
    fail "variant: $(cat "$tmp/variant.err")"
has variant "$tmp/variant.out" "move: 1. c3-d4"
has variant "$tmp/variant.out" "error: 未知命令“foo”（输入 help 查看命令）"
has variant "$tmp/variant.out" "undo: 已悔 2 步"
has variant "$tmp/variant.out" "result: 0-2 认输"

# The board screen in a terminal (tmux): the header, the panel and the prompt
if command -v tmux >/dev/null; then
    sock=damier-i18n-$$
    tmux -L "$sock" new-session -d -s g -x 100 -y 30 \
        "env -u LANGUAGE -u LC_ALL LANG=zh_CN.UTF-8 TERM=xterm XDG_DATA_HOME=$tmp/tty $DAMIER play --level 1 --seed 7; sleep 30"
    screen=""
    for _ in $(seq 1 50); do
        screen=$(tmux -L "$sock" capture-pane -p -t g 2>/dev/null)
        case $screen in *请你走棋*) break ;; esac
        sleep 0.1
    done
    tmux -L "$sock" send-keys -t g "resign" Enter
    for _ in $(seq 1 50); do
        screen2=$(tmux -L "$sock" capture-pane -p -t g 2>/dev/null)
        case $screen2 in *认输*) break ;; esac
        sleep 0.1
    done
    tmux -L "$sock" kill-server 2>/dev/null
    for want in "国际跳棋" "第 1 回合，轮到白方走棋" "棋钟" "吃子" "你执白方" "请你走棋>"; do
        case $screen in *"$want"*) ok ;; *) fail "tty: no '$want' on the screen: $screen" ;; esac
    done
    case $screen2 in *"对局结束：0-2（认输）"*) ok ;; *) fail "tty: no result in Chinese: $screen2" ;; esac
else
    echo "(tmux not installed: the board screen is not checked)"
fi
finish
