#!/bin/sh
# Builds the sample campaign data/sample-campaign.nbc from the measurements in
# data/samples (every clause filled): what the README's first command reports.
#   tools/make-sample-campaign.sh [navbench-cli] [OUT]
set -eu
cd "$(dirname "$0")/.."
cli=${1:-build/app/cli/navbench-cli}
out=${2:-data/sample-campaign.nbc}
s=data/samples

rm -f "$out" "$out-wal" "$out-shm"
$cli campaign new --db "$out" --name "Rover 2 — acceptance per ISO 18646-2" \
  robot.maker="ACME Robotics" robot.model="Rover 2" robot.serial=17 \
  robot.length_mm=900 robot.width_mm=730 robot.height_mm=1200 \
  robot.rated_speed_mm_s=1000 robot.rated_load_kg=20 robot.preparation_done=yes \
  conditions.environment=indoor conditions.temperature_c=21.5 conditions.humidity_pct=45 \
  conditions.illuminance_lx=420 conditions.friction_coefficient=0.72 \
  conditions.surface="epoxy-coated concrete" conditions.landmarks="none (lidar SLAM)" \
  instrument.kind="laser tracker" instrument.model="simulated tracker" \
  instrument.accuracy_mm=0.05 instrument.sample_rate_hz=100 \
  instrument.registration="rigid fit to 4 surveyed points" instrument.registration_rms_mm=0.08 \
  operator="I. Ivanov" >/dev/null
imp() { $cli campaign import --db "$out" --who "sample" "$@" >/dev/null; }
imp --clause 5 --config "straight, no load" --route straight --load-kg 0 \
  --input $s/pose-straight-noload.csv --command 5000,0,0
imp --clause 5 --config "straight, rated load" --route straight --load-kg 20 \
  --input $s/pose-straight-load.csv --command 5000,0,0
imp --clause 5 --config "rectangular, no load" --route rectangular --load-kg 0 \
  --input $s/pose-rectangular-noload.csv --command 0,0,0
imp --clause 6 --config "table 2 obstacles" --input $s/detection.csv
imp --clause 7 --input $s/avoidance.csv
imp --clause 8 --config "straight, no load" --route straight --load-kg 0 \
  --input $s/path-straight-noload.csv --from 0,0 --to 5000,0
imp --clause 9 --input $s/passage.csv
imp --clause 10 --config "arena 7 LU" --input $s/mapping-map.csv --truth $s/mapping-truth.csv \
  --parameters "autonomous mapping"
echo "$out"
