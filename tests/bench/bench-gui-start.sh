#!/bin/sh
# bench-gui-start — how long `navbench CAMPAIGN` takes to put its window on
# screen: from the start of the process until its window is mapped
# (`xdotool search --sync --onlyvisible --pid`), on the demo's campaign
# (`navbench-cli demo`: clauses 5–10 run, every page has something to show),
# under an X server of its own with the renderer the GUI tests use (cairo,
# no GL).  Each run is a fresh process; the minimum, median and maximum of
# RUNS are printed.  A benchmark, not a test.
#   bench-gui-start.sh RUN_XVFB NAVBENCH NAVBENCH_CLI [RUNS]
set -eu
run_xvfb="$1"
navbench="$2"
cli="$3"
runs="${4:-5}"

if [ -z "${DISPLAY:-}" ] || [ -z "${NB_BENCH_IN_XVFB:-}" ]; then
  dir="$(mktemp -d)"
  trap 'rm -rf "$dir"' EXIT INT TERM
  "$cli" demo --out "$dir/demo" >/dev/null
  NB_BENCH_IN_XVFB=1 NB_BENCH_CAMPAIGN="$(ls "$dir"/demo/*.nbc)" \
    "$run_xvfb" 1280x800x24 sh "$0" "$@"
  exit $?
fi

export GDK_BACKEND=x11 GSK_RENDERER=cairo GDK_DEBUG=gl-disable GSETTINGS_BACKEND=memory \
       GTK_A11Y=none NO_AT_BRIDGE=1
times=""
i=0
while [ "$i" -lt "$runs" ]; do
  t0=$(date +%s%N)
  "$navbench" "$NB_BENCH_CAMPAIGN" >/dev/null 2>&1 &
  pid=$!
  xdotool search --sync --onlyvisible --pid "$pid" >/dev/null
  t1=$(date +%s%N)
  kill "$pid"
  wait "$pid" 2>/dev/null || true
  times="$times $(( (t1 - t0) / 1000000 ))"
  i=$((i + 1))
done
echo "$times" | tr ' ' '\n' | sed '/^$/d' | sort -n | awk -v load="$(cut -d' ' -f1 /proc/loadavg)" '
  { t[NR] = $1 }
  END { printf "window on screen: min %.2f s, median %.2f s, max %.2f s over %d starts (load average %s)\n",
               t[1] / 1000, t[int((NR + 1) / 2)] / 1000, t[NR] / 1000, NR, load }'
