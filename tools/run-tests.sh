#!/bin/sh
# The whole test suite: installs what is needed, builds with -Werror, runs
# every test, and ends with the line "N passed, N failed" (GLib TAP subtests).
#
#   tools/run-tests.sh                 the suite, in build-tests/
#   tools/run-tests.sh --sanitize      the same under AddressSanitizer and UBSan,
#                                      in build-asan/
set -eu
cd "$(dirname "$0")/.."

builddir=build-tests
options="-Dwerror=true"
multiplier=1
if [ "${1:-}" = "--sanitize" ]; then
  builddir=build-asan
  options="$options -Db_sanitize=address,undefined -Db_lundef=false"
  # ASan runs the simulator-heavy tests (ISO 9283 campaigns, the exhaustive
  # number checks) 5-7 times slower than the plain build.
  multiplier=4
fi

tools/install-deps.sh
# install-deps.sh has just installed the independent MCAP reader (tests/mcap):
# the tests that read bags with it fail here instead of skipping without it.
NAVBENCH_REQUIRE_MCAP_READER=1
export NAVBENCH_REQUIRE_MCAP_READER
if [ -f "$builddir/build.ninja" ]; then
  # shellcheck disable=SC2086
  meson configure "$builddir" $options >/dev/null
else
  # shellcheck disable=SC2086
  meson setup "$builddir" $options >/dev/null
fi
ninja -C "$builddir"

status=0
meson test -C "$builddir" --print-errorlogs --num-processes 2 --timeout-multiplier "$multiplier" || status=$?
/usr/bin/python3 tools/tap-summary.py "$builddir/meson-logs/testlog.json"
exit "$status"
