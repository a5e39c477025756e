#!/usr/bin/env bash
# Gateway overhead benchmark: the same cheap authenticated route (GET /v1/users/me) called
# directly on auth and through the gateway, side by side in one run, on loopback, with wrk.
# Prints requests/s and p50/p99 for both, the throughput ratio and the p50 the gateway adds.
# Targets: ratio >= 0.70, added p50 <= 0.5 ms.
#
#   deploy/load/gateway-overhead.sh [duration-seconds] [connections]
set -euo pipefail
cd "$(dirname "$0")/../.."
[ -d /opt/swift/usr/bin ] && export PATH=/opt/swift/usr/bin:$PATH
DURATION=${1:-10}
CONNECTIONS=${2:-32}
command -v wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk; }

swift build -c release --product huddle >/dev/null
DATA=$(mktemp -d)
.build/release/huddle --no-demo --no-oauth-stub --data-dir "$DATA" --log-level warning \
  --set gateway.ratelimit.rate=100000000 --set gateway.ratelimit.burst=100000000 >"$DATA/huddle.log" 2>&1 &
PID=$!
trap 'kill $PID 2>/dev/null; wait $PID 2>/dev/null; rm -rf "$DATA"' EXIT
for _ in $(seq 100); do curl -sf http://127.0.0.1:8080/health >/dev/null && break; sleep 0.1; done

TOKEN=$(curl -sf -X POST http://127.0.0.1:8080/v1/auth/register -H 'content-type: application/json' \
  -d '{"email":"bench@example.com","password":"benchmark password","name":"Bench"}' |
  python3 -c 'import json,sys; print(json.load(sys.stdin)["accessToken"])')

run() { # name url -> "rps p50ms p99ms"
  wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" --latency -H "Authorization: Bearer $TOKEN" "$2" >"$DATA/$1.txt"
  python3 - "$DATA/$1.txt" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
def ms(label):
    value, unit = re.search(rf"^\s+{label}%\s+([\d.]+)(us|ms|s)\s*$", text, re.M).groups()
    return float(value) * {"us": 0.001, "ms": 1, "s": 1000}[unit]
rps = float(re.search(r"Requests/sec:\s+([\d.]+)", text).group(1))
non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", text)
if non2xx: sys.exit(f"{non2xx.group(1)} failed responses in {sys.argv[1]}")
print(rps, ms(50), ms(99))
PY
}

curl -sf -H "Authorization: Bearer $TOKEN" http://127.0.0.1:8081/v1/users/me >/dev/null
run warmup http://127.0.0.1:8080/v1/users/me >/dev/null
read -r DIRECT_RPS DIRECT_P50 DIRECT_P99 < <(run direct http://127.0.0.1:8081/v1/users/me)
read -r GATEWAY_RPS GATEWAY_P50 GATEWAY_P99 < <(run gateway http://127.0.0.1:8080/v1/users/me)

python3 - "$DIRECT_RPS" "$DIRECT_P50" "$DIRECT_P99" "$GATEWAY_RPS" "$GATEWAY_P50" "$GATEWAY_P99" "$CONNECTIONS" "$DURATION" <<'PY'
import sys
d_rps, d50, d99, g_rps, g50, g99 = map(float, sys.argv[1:7])
print(f"GET /v1/users/me, {sys.argv[7]} connections, {sys.argv[8]} s each, release build, loopback")
print(f"{'':10} {'req/s':>10} {'p50 ms':>8} {'p99 ms':>8}")
print(f"{'direct':10} {d_rps:10.0f} {d50:8.2f} {d99:8.2f}")
print(f"{'gateway':10} {g_rps:10.0f} {g50:8.2f} {g99:8.2f}")
print(f"throughput ratio gateway/direct: {g_rps / d_rps:.2f} (target >= 0.70)")
print(f"added p50: {g50 - d50:.2f} ms (target <= 0.5 ms)")
PY
