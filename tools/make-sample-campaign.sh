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
  robot.preparation="assembled and commissioned per the maker's manual; lidar calibrated; map of the hall cleared" \
  robot.battery="fully charged before each test session" robot.min_avoidance_distance_mm=100 \
  conditions.environment=indoor conditions.temperature_c=21.5 conditions.humidity_pct=45 \
  conditions.illuminance_lx=420 conditions.friction_coefficient=0.72 \
  conditions.surface="epoxy-coated concrete" conditions.landmarks="none (lidar SLAM)" \
  conditions.operating="normal operating conditions per the manufacturer" \
  instrument.kind="laser tracker" instrument.model="simulated tracker" \
  instrument.accuracy_mm=0.05 instrument.angular_accuracy_deg=0.01 instrument.sample_rate_hz=100 \
  instrument.calibration_certificate="CAL-2026-0412, example calibration laboratory" \
  instrument.calibration_due=2027-04-12 \
  instrument.registration="rigid fit to 4 surveyed points" instrument.registration_rms_mm=0.08 \
  instrument.registration_max_mm=0.12 \
  instrument.registration_points="[[-1000,-4500,0.07],[11000,-4500,-0.12],[11000,4500,0.08],[-1000,4500,-0.04]]" \
  instrument.accuracy_ppm=6 instrument.sync_s=0.002 instrument.target_centring_mm=0.02 \
  mapping.resolution_mm=50 \
  report.id=NB-2026-017 report.revision=1 report.issued=2026-11-06 \
  lab.name="navbench example test laboratory" lab.address="1 Example Street, Example City" \
  test.location="the laboratory's indoor test hall 2" test.dates=2026-11-02/2026-11-04 \
  customer.name="ACME Robotics" customer.address="ACME Robotics, 2 Sample Road, Sample Town" \
  item.condition="new, undamaged, with charger and manual" item.received=2026-10-30 \
  method.deviations="none" \
  method.exclusions="not ordered by the customer (the robot's rated-load use is on straight aisles only)" \
  signatory.name="P. Petrov" signatory.function="head of the test laboratory" \
  obstacle.wooden_wall.material="plywood" obstacle.wooden_wall.colour="natural wood" \
  obstacle.glass_wall.material="clear acrylic" obstacle.glass_wall.colour="transparent" \
  obstacle.wooden_table.material="wood" obstacle.wooden_table.colour="light oak" \
  obstacle.metal_table.material="steel" obstacle.metal_table.colour="grey" \
  obstacle.large_cylinder.material="PVC pipe" obstacle.large_cylinder.colour="white" \
  obstacle.small_cylinder.material="PVC pipe" obstacle.small_cylinder.colour="white" \
  operator="I. Ivanov" notes="sample campaign: measurements of the navbench simulator" >/dev/null
imp() { $cli campaign import --db "$out" --who "sample" "$@" >/dev/null; }
imp --clause 5 --config "straight, no load" --route straight --load-kg 0 \
  --input $s/pose-straight-noload.csv --command 5000,0,0
imp --clause 5 --config "straight, rated load" --route straight --load-kg 20 \
  --input $s/pose-straight-load.csv --command 5000,0,0
imp --clause 5 --config "rectangular, no load" --route rectangular --load-kg 0 \
  --input $s/pose-rectangular-noload.csv --command 0,0,0
imp --clause 6 --config "table 2 obstacles" --input $s/detection.csv \
  --parameters '{"min_range_mm": 300, "max_range_mm": 4000}'
# Clause 7: each configuration of the file with its behaviour and obstacle (7.2).
imp7() { imp --clause 7 --input $s/avoidance.csv --config "$1" --behaviour "$2" --obstacle "$3" \
  --parameters '{"obstacle_speed_mm_s": 1600}'; }
imp7 "1 wooden wall" 1 "wooden wall"
imp7 "1 table" 1 "wooden table"
imp7 "1 large cylinder lying" 1 "large cylinder"
imp7 "1 small cylinder standing" 1 "small cylinder"
for b in 2 3 4; do
  imp7 "$b large cylinder 0.5 m" $b "large cylinder"
  imp7 "$b small cylinder floor" $b "small cylinder"
done
imp --clause 8 --config "straight, no load" --route straight --load-kg 0 \
  --input $s/path-straight-noload.csv --from 0,0 --to 5000,0
imp --clause 9 --input $s/passage.csv --config "no load" --load-kg 0 \
  --parameters '{"passage_width_mm": 900}'
imp --clause 9 --input $s/passage.csv --config "rated load" --load-kg 20 \
  --parameters '{"passage_width_mm": 900}'
imp --clause 10 --config "arena 7 LU" --input $s/mapping-map.csv --truth $s/mapping-truth.csv \
  --parameters "autonomous mapping" --defect-range-mm 50
# 10.3 c: the time each map took to build (the corner file carries none).
t=1260
for id in $($cli campaign info --db "$out" --trials | sed -n "/^clause 10 /,\$s/.*(id \([0-9]*\)).*/\1/p"); do
  $cli campaign edit --db "$out" --trial "$id" --reason "build time from the run sheet" \
    time_s=$t >/dev/null
  t=$((t + 75))
done
echo "$out"
