#!/bin/sh
# man-help.sh --help | --version — what help2man reads to write a man page,
# taken from the binary itself so the pages cannot drift from the options:
#   NB_MAN_PROGRAM   the executable (navbench-cli or navbench)
#   NB_MAN_COMMAND   a navbench-cli command ("campaign"): its help, then the
#                    help of each of its subcommands; empty: the program's help
set -eu
program=$NB_MAN_PROGRAM
command=${NB_MAN_COMMAND:-}

# help2man names the page after the first word of --version.
if [ "${1:-}" = "--version" ]; then
  version=$("$program" --version 2>/dev/null | awk '{ print $NF; exit }') || true
  echo "$(basename "$program")${command:+-$command} ${version:-${NB_MAN_VERSION:-}}"
  exit 0
fi

# shellcheck disable=SC2086
help=$("$program" $command --help)
printf '%s\n' "$help"
[ -n "$command" ] || exit 0

# The subcommands are the "Commands:" block of the command's own help.
printf '%s\n' "$help" | awk '/^Commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 } on && /^$/ { on = 0 }' |
while read -r sub; do
  printf '\n%s %s:\n\n' "$command" "$sub"
  subhelp=$("$program" "$command" "$sub" --help)
  printf '%s\n' "$subhelp" | sed '/^Help Options:/,/^$/d'
  # A subcommand with commands of its own (compute iso9283 pose, …): theirs too.
  printf '%s\n' "$subhelp" | awk '/^Commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 } on && /^$/ { on = 0 }' |
  while read -r subsub; do
    printf '\n%s %s %s:\n\n' "$command" "$sub" "$subsub"
    "$program" "$command" "$sub" "$subsub" --help | sed '/^Help Options:/,/^$/d'
  done
done
