#!/bin/sh
# Runs a command on an X server of its own: Xvfb picks a free display itself
# (-displayfd), so parallel GUI tests (gui and gui-ru, other worktrees' suites)
# never share one — xvfb-run -a can hand two of them the same display, and
# the windows then take each other's focus.
#   run-xvfb.sh WxHxD COMMAND [ARG...]
set -eu
screen="$1"
shift
fifo="$(mktemp -u)"
mkfifo "$fifo"
Xvfb -displayfd 3 -screen 0 "$screen" -nolisten tcp 3>"$fifo" 2>/dev/null &
xvfb=$!
trap 'kill "$xvfb" 2>/dev/null; rm -f "$fifo"' EXIT INT TERM
read -r display <"$fifo"
DISPLAY=":$display" "$@"
