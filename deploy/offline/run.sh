#!/usr/bin/env bash
# HuddleKit's own tests, run as an app's developer runs them (`swift test` in its package), with the
# offline journey against the all-in-one: two phones behind a proxy the test cuts score a round and
# chat without signal, then converge. Fails if that journey was skipped.
# Usage: deploy/offline/run.sh (after `swift build`)
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN=$(swift build --show-bin-path)
PORT=${OFFLINE_PORT:-28580}
DATA=$(mktemp -d)
"$BIN/huddle" --no-demo --no-stand-in --data-dir "$DATA" --log-level error \
  --set gateway.http.port="$PORT" --set auth.bcrypt.cost=4 >"$DATA/huddle.log" 2>&1 &
HUDDLE=$!
trap 'kill $HUDDLE 2>/dev/null; wait $HUDDLE 2>/dev/null; rm -rf "$DATA"' EXIT
for _ in $(seq 120); do curl -sf "http://127.0.0.1:$PORT/health" >/dev/null && break; sleep 0.5; done
curl -sf "http://127.0.0.1:$PORT/health" >/dev/null || { echo "the all-in-one did not start:" >&2; tail -20 "$DATA/huddle.log" >&2; exit 1; }
HUDDLE_GATEWAY_URL="http://127.0.0.1:$PORT" swift test --package-path Shared/HuddleKit 2>&1 | tee "$DATA/test.log"
grep -q 'Suite "Offline through a proxy" passed' "$DATA/test.log" || { echo "the offline journey did not run" >&2; exit 1; }
