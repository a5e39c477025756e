#!/usr/bin/env bash
# Fuzzes a fresh `huddle` (debug build, demo data, SQLite in a data directory that does not exist
# yet, as on a fresh clone) through the
# gateway with schemathesis: every check, every phase, signed in by hooks.py. bcrypt runs at cost 4 on
# this throwaway instance: the hook signs in every few seconds, and at cost 12 those sign-ins time out
# on a debug build sharing two cores with the fuzzer.
# With FUZZ_POSTGRES set (a server's URL without a database, whose user may create databases),
# every module's store is a fresh database there instead: PostgreSQL refuses what SQLite takes (a
# float operation that underflows to zero, a key over about 2,700 bytes), so CI fuzzes both.
# Usage: [FUZZ_POSTGRES=postgres://user@host:port] deploy/fuzz/run.sh [examples per operation, default 20]
set -euo pipefail
cd "$(dirname "$0")/../.."
python3 -m pip install --quiet --disable-pip-version-check schemathesis requests >/dev/null
swift build --product huddle
. deploy/lib/fresh-huddle.sh
. deploy/lib/modules.sh
stores=()
if [ -n "${FUZZ_POSTGRES:-}" ]; then
  for module in "${MODULES[@]}"; do
    "${PGBIN:-/usr/lib/postgresql/15/bin}/psql" "$FUZZ_POSTGRES/postgres" -q \
      -c "DROP DATABASE IF EXISTS fuzz_$module WITH (FORCE)" -c "CREATE DATABASE fuzz_$module"
    stores+=(--set "$module.db.url=$FUZZ_POSTGRES/fuzz_$module?sslmode=disable")
  done
fi
start_fresh_huddle --set gateway.ratelimit.rate=100000 --set gateway.ratelimit.burst=100000 "${stores[@]}"
if [ -n "${FUZZ_POSTGRES:-}" ] && compgen -G "$WORK/data/*.sqlite" >/dev/null; then
  echo "modules left on SQLite, missing from deploy/lib/modules.sh: $(cd "$WORK/data" && ls -- *.sqlite)"
  exit 1
fi
# The demo registers Bruno's iPhone first, so Chloe's request to join his team is pushed to it (README), with
# the Kalev Spikers' new game he can answer from the lock screen (an rsvpToken) and Chloe's message naming him
# in their room; and Dmitri's Android phone, told of his team's new game in Estonian (he reads Huddle in it).
# Pushes are sent by notify's worker after the demo has made them, so each is waited for.
BRUNO_IPHONE=$(printf 'b0%.0s' {1..32})
pushed() { curl -sf "http://127.0.0.1:8090/test/$1/deliveries?token=$2" | grep -q "$3"; }
for _ in $(seq 60); do pushed apns "$BRUNO_IPHONE" 'Join request' && break; sleep 1; done
pushed apns "$BRUNO_IPHONE" 'Join request' || { echo "the demo's join request did not reach Bruno's iPhone at the stand-in"; exit 1; }
for _ in $(seq 60); do pushed apns "$BRUNO_IPHONE" 'rsvpToken' && pushed apns "$BRUNO_IPHONE" 'mention' && break; sleep 1; done
pushed apns "$BRUNO_IPHONE" 'rsvpToken' || { echo "the demo's team game did not reach Bruno's iPhone with an answer token"; exit 1; }
pushed apns "$BRUNO_IPHONE" 'mention' || { echo "Chloe's message naming Bruno did not reach his iPhone"; exit 1; }
for _ in $(seq 60); do pushed fcm demo-dmitri-android:APA91bHuddleDemo 'Uus m' && break; sleep 1; done
pushed fcm demo-dmitri-android:APA91bHuddleDemo 'Uus m' \
  || { echo "the demo's team game did not reach Dmitri's Android phone at the stand-in, in Estonian"; exit 1; }
SCHEMATHESIS_HOOKS=hooks PYTHONPATH=deploy/fuzz schemathesis --config-file deploy/fuzz/schemathesis.toml run http://127.0.0.1:8080/openapi.json \
  --checks all --phases examples,coverage,fuzzing,stateful -n "${1:-20}"
