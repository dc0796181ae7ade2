#!/bin/sh
# Renders the reviewers' pages of the sample campaign's protocol
# (data/sample-campaign.nbc) as tests/golden/report-LANG-page-NN.png, 80 dpi
# (docs/protocol.md).  Run after a change to the report's layout or words,
# then look at them.
#   tools/make-report-pages.sh [navbench-cli] ["LANG PAGE" …]
set -eu
cd "$(dirname "$0")/.."
cli=${1:-build/app/cli/navbench-cli}
[ $# -gt 0 ] && shift
[ $# -gt 0 ] || set -- "ru 4" "en 15" "en 22" "ru 25"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for spec in "$@"; do
  lang=${spec% *}
  page=${spec#* }
  [ -f "$tmp/$lang.pdf" ] || $cli report --db data/sample-campaign.nbc --lang "$lang" -o "$tmp/$lang.pdf"
  pdftoppm -png -r 80 -f "$page" -l "$page" -singlefile "$tmp/$lang.pdf" \
    "tests/golden/report-$lang-page-$(printf %02d "$page")"
done
