#!/bin/sh
# A sequence runner that ignores SIGTERM, as one stuck on a robot that never
# answers would: POST /stop must still end it (SIGKILL after the grace period).
trap '' TERM
echo "stubborn runner: $*"
while :; do sleep 0.05; done
