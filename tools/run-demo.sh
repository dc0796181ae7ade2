#!/bin/sh
# The main job on the built-in defaults: installs what is needed, builds
# navbench, runs `navbench-cli demo` (a sample robot's whole campaign on the
# simulator: build/demo), computes every ISO 18646-2 figure from the sample campaign in
# data/samples (the measurements of a simulated robot, w = 730 mm), then runs
# clauses 5 to 9 on the simulator (the simulated base watched by the
# simulated tracker) into a campaign file and issues its protocol.
set -eu
cd "$(dirname "$0")/.."

tools/install-deps.sh
[ -f build/build.ninja ] || meson setup build >/dev/null
ninja -C build >/dev/null

cli=build/app/cli/navbench-cli
s=data/samples
step() { printf '\n━━ %s\n\n' "$*"; }

step "navbench-cli demo --out build/demo: a sample robot's whole ISO 18646-2 campaign on the simulator"
# The plan of clauses 5 to 10 with the standard's trial counts, the protocol
# (ru, en) and its tables as CSV in build/demo.
rm -rf build/demo
$cli demo --out build/demo

step "navbench-cli lu --width-mm 730"
$cli lu --width-mm 730
step "navbench-cli route rectangular --lu-mm 1000"
$cli route rectangular --lu-mm 1000
step "Clause 5, straight route, no load"
$cli compute pose --input $s/pose-straight-noload.csv --command 5000,0,0
step "Clause 5, straight route, rated load"
$cli compute pose --input $s/pose-straight-load.csv --command 5000,0,0
step "Clause 5, rectangular route, no load"
$cli compute pose --input $s/pose-rectangular-noload.csv --command 0,0,0
step "Clause 6"
$cli compute detection --input $s/detection.csv
step "Clause 7"
$cli compute avoidance --input $s/avoidance.csv
step "Clause 8, straight route, no load"
$cli compute path --input $s/path-straight-noload.csv --from 0,0 --to 5000,0
step "Clause 9"
$cli compute passage --input $s/passage.csv
step "Clause 10"
$cli compute mapping --truth $s/mapping-truth.csv --map $s/mapping-map.csv

step "The campaign file build/sample-campaign.nbc (every clause, from data/samples)"
tools/make-sample-campaign.sh "$cli" build/sample-campaign.nbc >/dev/null
$cli campaign results --db build/sample-campaign.nbc
step "The test protocol"
$cli report --db build/sample-campaign.nbc --lang ru -o build/protocol-ru.pdf
$cli report --db build/sample-campaign.nbc --lang en -o build/protocol-en.pdf
echo "build/protocol-ru.pdf (GOST wording) and build/protocol-en.pdf (ISO wording) written."

step "A campaign run on the simulator (build/sim-campaign.nbc): clauses 5 to 9"
rm -f build/sim-campaign.nbc build/sim-campaign.nbc-wal build/sim-campaign.nbc-shm
$cli campaign new --db build/sim-campaign.nbc --name "Simulated base — ISO 18646-2 clauses 5 to 9" \
  robot.model="navbench simulated base" robot.width_mm=600 robot.rated_load_kg=20 \
  robot.rated_speed_mm_s=1000 robot.maker="navbench" robot.serial="sim-1" \
  robot.length_mm=600 robot.height_mm=800 robot.min_avoidance_distance_mm=50 \
  robot.preparation="simulator started with its defaults (seed 7)" robot.battery="simulated: full" \
  conditions.environment=indoor conditions.temperature_c=20 conditions.humidity_pct=50 \
  conditions.illuminance_lx=500 conditions.friction_coefficient=0.8 conditions.surface="simulated floor" \
  conditions.landmarks="none" conditions.operating="normal operating conditions (simulated)" \
  instrument.kind="laser tracker" instrument.model="navbench simulated tracker" \
  instrument.accuracy_mm=0.05 instrument.angular_accuracy_deg=0.01 instrument.sample_rate_hz=100 \
  instrument.calibration_certificate="none: simulated instrument" instrument.calibration_due=2099-12-31 \
  report.id=NB-DEMO-SIM report.revision=1 report.issued="$(date -u +%Y-%m-%d)" \
  lab.name="navbench demo" lab.address="this machine" test.location="the navbench simulator" \
  customer.name="navbench demo" customer.address="none" item.condition="simulated robot" \
  item.received="$(date -u +%Y-%m-%d)" method.deviations="simulated robot and instrument" \
  signatory.name="demo" signatory.function="none (demonstration)" operator="run-demo.sh" >/dev/null
run() { $cli campaign run --db build/sim-campaign.nbc --seed 7 "$@" | tail -n 2; }
run --clause 5 --config "straight, no load" --route straight
run --clause 5 --config "straight, rated load" --route straight --load-kg 20
run --clause 5 --config "rectangular, no load" --route rectangular
run --clause 8 --config "straight, no load"
run --clause 6 --config "table 2 obstacles"
run --clause 7 --config "wooden wall, behaviour 1" --obstacle "wooden wall" --behaviour 1
run --clause 7 --config "small cylinder, behaviour 2" --obstacle "small cylinder" --behaviour 2
run --clause 9 --config "passage w + 200 mm"
$cli report --db build/sim-campaign.nbc --lang ru -o build/protocol-sim-ru.pdf
$cli report --db build/sim-campaign.nbc --lang en -o build/protocol-sim-en.pdf
echo "build/protocol-sim-ru.pdf and build/protocol-sim-en.pdf written."
