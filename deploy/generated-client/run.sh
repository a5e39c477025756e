#!/usr/bin/env bash
# Builds a client of Huddle from the live /openapi.json with Apple's swift-openapi-generator, as an
# iOS team that prefers it to HuddleKit would, and drives a journey through it against a fresh
# `huddle` with demo data. Fails on any warning of the generator (a warning is a field or an
# operation the generated client silently lacks) and on any answer the generated types cannot read.
# Usage: deploy/generated-client/run.sh (after `swift build --product huddle`)
set -euo pipefail
cd "$(dirname "$0")"
HERE=$(pwd)
ROOT=$(cd ../.. && pwd)
cd "$ROOT"
. deploy/lib/fresh-huddle.sh
start_fresh_huddle
cd "$HERE"

swift build --product swift-openapi-generator
curl -sf http://127.0.0.1:8080/openapi.json >"$WORK/openapi.json"

rm -rf Sources/GeneratedClientJourney/Generated && mkdir -p Sources/GeneratedClientJourney/Generated
"$(swift build --show-bin-path)/swift-openapi-generator" generate "$WORK/openapi.json" --config openapi-generator-config.yaml \
  --output-directory Sources/GeneratedClientJourney/Generated 2>&1 | tee "$WORK/generator.log"
if grep -qi "warning" "$WORK/generator.log"; then
  echo "swift-openapi-generator warned about the document:" >&2
  grep -i "warning" "$WORK/generator.log" >&2
  exit 1
fi
swift build --product GeneratedClientJourney 2>&1 | tee "$WORK/build.log"
if grep -q "warning:" "$WORK/build.log"; then echo "the generated client built with warnings" >&2; exit 1; fi

# The demo is seeded once its last step, Chloe's request to join Bruno's team, reached Bruno's iPhone.
BRUNO_IPHONE=$(printf 'b0%.0s' {1..32})
for _ in $(seq 60); do
  curl -sf "http://127.0.0.1:8090/test/apns/deliveries?token=$BRUNO_IPHONE" | grep -q 'Join request' && break
  sleep 1
done
"$(swift build --show-bin-path)/GeneratedClientJourney" http://127.0.0.1:8080
