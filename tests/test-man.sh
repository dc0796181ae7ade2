#!/bin/sh
# test-man.sh CLI MANDIR — the man pages against the program (TAP): a page for
# every command `navbench-cli --help` lists, and every option of a command's
# help (and of its subcommands') in its page.
set -u
cli=$1
mandir=$2
n=0
fail=0
commands=$("$cli" --help | awk '/^Commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 } on && /^$/ { on = 0 }')
for c in "" $commands; do
  page="$mandir/navbench-cli${c:+-$c}.1"
  n=$((n + 1))
  if [ ! -f "$page" ]; then
    echo "not ok $n - no man page for '${c:-navbench-cli}' ($page): add it to docs/meson.build"
    fail=1
    continue
  fi
  # Options of the command and its subcommands, as --name (man escapes '-' as '\-').
  opts=$(NB_MAN_PROGRAM=$cli NB_MAN_COMMAND=$c "$(dirname "$0")/../tools/man-help.sh" --help |
         grep -o -- '--[a-z][a-z0-9-]*' | sort -u)
  text=$(sed 's/\\-/-/g' "$page")
  missing=""
  for o in $opts; do
    printf '%s\n' "$text" | grep -q -- "$o" || missing="$missing $o"
  done
  if [ -n "$missing" ]; then
    echo "not ok $n - $page lacks$missing"
    fail=1
  else
    echo "ok $n - $page has the $(echo "$opts" | wc -w) options of '${c:-navbench-cli}'"
  fi
done
echo "1..$n"
exit $fail
