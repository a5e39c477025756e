#!/usr/bin/env bash
# Gateway overhead benchmark: the same cheap authenticated route (GET /v1/users/me) called
# directly on auth and through the gateway, side by side in one run, on loopback, with wrk.
# auth and the gateway run as their own executables, as deployed.
# Two phases: throughput with many connections (the saturated rate of each path), and latency
# with one connection (what a request pays for the extra hop when nothing queues).
# Targets: throughput ratio >= 0.70, added p50 <= 0.5 ms.
# The gateway gets GATEWAY_EVENT_LOOPS event loops (default here 1): on these shared cores, where
# auth and wrk run too, one loop spares it the thread hops between loops.
#
#   [GATEWAY_EVENT_LOOPS=n] [ROUNDS=3] deploy/load/gateway-overhead.sh [duration-seconds] [connections]
set -euo pipefail
cd "$(dirname "$0")/../.."
[ -d /opt/swift/usr/bin ] && export PATH=/opt/swift/usr/bin:$PATH
DURATION=${1:-10}
CONNECTIONS=${2:-32}
command -v wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk; }

# As deployed: the gateway and auth each in their own process (the thin executables).
for product in gateway auth; do swift build -c release --product "$product" >/dev/null; done
DATA=$(mktemp -d)
export INTERNAL_TOKEN=benchmark-internal-token-0123456789 LOG_LEVEL=warning
AUTH_HTTP_PORT=8081 AUTH_DB_URL="sqlite:$DATA/auth.sqlite" .build/release/auth >"$DATA/auth.log" 2>&1 &
AUTH_PID=$!
AUTH_URL=http://127.0.0.1:8081 GATEWAY_HTTP_PORT=8080 GATEWAY_MODULES=auth GATEWAY_EVENT_LOOPS=${GATEWAY_EVENT_LOOPS:-1} \
  GATEWAY_RATELIMIT_RATE=100000000 GATEWAY_RATELIMIT_BURST=100000000 .build/release/gateway >"$DATA/gateway.log" 2>&1 &
GATEWAY_PID=$!
trap 'kill $AUTH_PID $GATEWAY_PID 2>/dev/null; wait 2>/dev/null; rm -rf "$DATA"' EXIT
for _ in $(seq 100); do curl -sf http://127.0.0.1:8080/health >/dev/null && break; sleep 0.1; done

TOKEN=$(curl -sf -X POST http://127.0.0.1:8080/v1/auth/register -H 'content-type: application/json' \
  -d '{"email":"bench@example.com","password":"benchmark password","name":"Bench"}' |
  python3 -c 'import json,sys; print(json.load(sys.stdin)["accessToken"])')

run() { # name url connections -> "rps p50ms p99ms"
  wrk -t"$(( $3 < 2 ? 1 : 2 ))" -c"$3" -d"${DURATION}s" --latency -H "Authorization: Bearer $TOKEN" "$2" >"$DATA/$1.txt"
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
run warmup http://127.0.0.1:8080/v1/users/me "$CONNECTIONS" >/dev/null
# Direct and gateway runs alternate, ROUNDS times each, and the medians are compared: a shared
# machine's speed drifts over a minute, and back-to-back pairs see the same drift.
results=()
for connections in "$CONNECTIONS" 1; do
  for _ in $(seq "${ROUNDS:-3}"); do
    results+=("$connections" $(run direct http://127.0.0.1:8081/v1/users/me "$connections") \
      $(run gateway http://127.0.0.1:8080/v1/users/me "$connections"))
  done
done

python3 - "$DURATION" "${GATEWAY_EVENT_LOOPS:-1}" "${results[@]}" <<'PY'
import statistics, sys
duration, loops, values = sys.argv[1], sys.argv[2], sys.argv[3:]
print(f"GET /v1/users/me, {duration} s per run, release build, loopback, wrk, gateway on {loops} event loop(s)")
print(f"{'connections':>11} {'path':8} {'req/s':>8} {'p50 ms':>7} {'p99 ms':>7}")
runs = {}
for i in range(0, len(values), 7):
    runs.setdefault(int(values[i]), []).append(tuple(map(float, values[i + 1:i + 7])))
phases = []
for connections, pairs in runs.items():
    ratios = [g[3] / g[0] for g in pairs]
    for d_rps, d50, d99, g_rps, g50, g99 in pairs:
        print(f"{connections:11} {'direct':8} {d_rps:8.0f} {d50:7.2f} {d99:7.2f}")
        print(f"{connections:11} {'gateway':8} {g_rps:8.0f} {g50:7.2f} {g99:7.2f}   ratio {g_rps / d_rps:.2f}")
    median = lambda column: statistics.median(pair[column] for pair in pairs)
    phases.append((connections, median(0), median(1), median(3), median(4), statistics.median(ratios)))
saturated, single = phases[0], phases[-1]
print(f"throughput ratio gateway/direct at {saturated[0]} connections (median of the rounds): {saturated[5]:.2f} (target >= 0.70)")
print(f"added p50 at 1 connection (medians): {single[4] - single[2]:.2f} ms (target <= 0.5 ms)")
print(f"added p50 at {saturated[0]} connections (includes queueing): {saturated[4] - saturated[2]:.2f} ms")
PY
