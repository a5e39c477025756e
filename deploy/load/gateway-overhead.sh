#!/usr/bin/env bash
# The gateway beside nginx in front of auth, on the same route in one run: builds the release
# executables (auth, gateway, huddle-bench) and runs `huddle-bench gateway`, which starts auth, the
# gateway and Debian's nginx as a keep-alive reverse proxy, and measures all three with wrk in
# alternating rounds (see Services/Server/bench/README.md).
#
#   deploy/load/gateway-overhead.sh [--seconds 10] [--connections 32] [--rounds 3] [--event-loops 1]
set -euo pipefail
cd "$(dirname "$0")/../.."
[ -d /opt/swift/usr/bin ] && export PATH=/opt/swift/usr/bin:$PATH
if ! command -v wrk >/dev/null || ! [ -x /usr/sbin/nginx ]; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk nginx-light
fi
for product in auth gateway huddle-bench; do swift build -c release --product "$product" >/dev/null; done
exec .build/release/huddle-bench gateway "$@"
