#!/usr/bin/env bash
# Runs every `huddle-bench` subcommand once at a small size, so that no benchmark breaks unnoticed:
# the debug build, seconds rather than minutes, figures not read. A subcommand added without a line
# here fails the run. Needs wrk, nginx (installed when missing) and, for the tickets' pgbench
# yardstick, PostgreSQL at $HUDDLE_TEST_POSTGRES_URL (SQLite alone without it).
# Usage: deploy/bench/smoke.sh (after `swift build`)
set -euo pipefail
cd "$(dirname "$0")/../.."
if ! command -v wrk >/dev/null || ! [ -x /usr/sbin/nginx ]; then
  apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk nginx-light >/dev/null
fi
swift build --product huddle-bench >/dev/null
BIN=$(swift build --show-bin-path)
POSTGRES=()
[ -n "${HUDDLE_TEST_POSTGRES_URL:-}" ] && POSTGRES=(--postgres "$HUDDLE_TEST_POSTGRES_URL")

small() { # the arguments that make a subcommand's run small
  case "$1" in
    gateway) echo "--seconds 1 --rounds 1" ;;
    balance) echo "--seconds 1 --rounds 1" ;;
    tracing) echo "--seconds 1 --rounds 1" ;;
    tickets) echo "--seconds 1 --concurrency 1,4 ${POSTGRES[*]}" ;;
    chat) echo "--sockets 20 --rate 5 --seconds 2 --history 2000 --pages 20 --idle 1" ;;
    live-scores) echo "--clients 10 --rate 5 --seconds 2" ;;
    live-match) echo "--clients 20 --seconds 3 --get-seconds 1 --concurrency 2" ;;
    search) echo "--games 5000 --queries 20 --wrk-seconds 1" ;;
    pushes) echo "--reminders 500 --window 5 --team 5 --games 3" ;;
    chatpush) echo "--members 50 --online 5 --rooms 2 --sends 20 --rounds 1 --burst 3 --apart" ;;
    json) echo "--count 20 --runs 1 --seconds 1" ;;
    events) echo "--events 500 --samples 5 --held-seconds 2 ${POSTGRES[*]}" ;;
    forgot) echo "--accounts 10 --rounds 1" ;;
    media) echo "--width 1200 --height 900 --rounds 1" ;;
    uploads) echo "--count 2 --width 800 --rounds 1" ;;
    home) echo "--games 20 --teams 3 --rounds 1 --at-most 5" ;;  # the figure itself: bytes do not vary with load
    *) return 1 ;;
  esac
}

subcommands=$("$BIN/huddle-bench" --help | awk '/^SUBCOMMANDS:/{on=1; next} on && /^  [a-z]/ {print $1}')
for subcommand in $subcommands; do
  arguments=$(small "$subcommand") || { echo "huddle-bench $subcommand has no small run in $0" >&2; exit 1; }
  echo "== huddle-bench $subcommand $arguments"
  # shellcheck disable=SC2086
  timeout -k 10 300 "$BIN/huddle-bench" "$subcommand" $arguments
done
# Chat's devices through a gateway of their own, as phones connect.
echo "== huddle-bench chat --through-gateway"
# shellcheck disable=SC2046
timeout -k 10 300 "$BIN/huddle-bench" chat $(small chat) --history 0 --through-gateway
# The live match's devices through the gateway, as phones connect, spread over two of them.
echo "== huddle-bench live-match --through-gateway --gateways 2"
# shellcheck disable=SC2046
timeout -k 10 300 "$BIN/huddle-bench" live-match $(small live-match) --through-gateway --gateways 2
