#!/usr/bin/env bash
# Runs the topology of docker-compose.yml without a container engine, then drives it through its
# gateway: every service on a loopback address of its own under its compose hostname (/etc/hosts),
# started from the built executables with exactly its compose environment (read from the file by
# `huddle compose env`, secrets made up for the run), against a PostgreSQL initialised by
# deploy/postgres/init.sql as the postgres image does (scram passwords, init script as superuser).
# Then `huddle demo --url` seeds it and the StackTests target (journeys, HuddleKit, the demo) runs
# against its gateway.
#
# One deviation, because the services share a network namespace here: each `*_HTTP_HOST` is the
# service's own address instead of 0.0.0.0 (in a container, 0.0.0.0 is the container's alone).
#
# Needs write access to /etc/hosts (CI runs as root); restores it on exit.
# Usage: deploy/compose/topology.sh   (after `swift build --build-tests`)
set -euo pipefail
cd "$(dirname "$0")/../.."
[ -d /opt/swift/usr/bin ] && export PATH=/opt/swift/usr/bin:$PATH
BIN=$(swift build --show-bin-path)
PGBIN=${PGBIN:-/usr/lib/postgresql/15/bin}
WORK=$(mktemp -d)
[ -w /etc/hosts ] || { echo "topology.sh: needs write access to /etc/hosts to give each service its compose hostname" >&2; exit 1; }
cp /etc/hosts "$WORK/hosts.orig"
PIDS=()

as_postgres() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

finish() {
  status=$?
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  as_postgres "$PGBIN/pg_ctl" -D "$WORK/pgdata" -m fast -w stop >/dev/null 2>&1 || true
  cat "$WORK/hosts.orig" >/etc/hosts
  if [ $status -ne 0 ]; then
    for log in "$WORK"/*.log; do echo "== $(basename "$log") (last 30 lines)"; tail -30 "$log"; done
  fi
  rm -rf "$WORK"
}
trap finish EXIT

# The secrets compose asks for, made up for this run.
secret() { head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n'; }
export INTERNAL_TOKEN=$(secret) POSTGRES_PASSWORD=$(secret)
for module in AUTH CATALOG GAMES SEARCH BETTING CHAT NOTIFY; do export "${module}_DB_PASSWORD=$(secret)"; done
# The demo's administrator and the one StackTests signs in as; weather and football from the providers' stand-in, polled every second.
export ADMIN_EMAILS=ada@huddle.dev,stack-admin@example.com WEATHER_PROVIDER_URL=http://stand-in:8080 FOOTBALL_POLL_LIVE_MS=1000 ODDS_POLL_MS=1000

# Each service gets 127.0.0.N under its compose name.
declare -A ADDRESS RUNS
n=10
while read -r name runs; do
  ADDRESS[$name]=127.0.0.$n
  RUNS[$name]=$runs
  echo "127.0.0.$n $name" >>/etc/hosts
  n=$((n + 1))
done < <("$BIN/huddle" compose services)

# A service's compose environment, one KEY=VALUE a line.
service_env() { "$BIN/huddle" compose env "$1"; }

echo "== postgres at ${ADDRESS[postgres]}:5432, initialised by deploy/postgres/init.sql"
if [ "$(id -u)" = 0 ]; then
  id postgres >/dev/null 2>&1 || useradd -r postgres
  chown postgres:postgres "$WORK"
  chmod 755 "$WORK"
fi
echo "$POSTGRES_PASSWORD" >"$WORK/pgpass" && chmod 644 "$WORK/pgpass"
as_postgres "$PGBIN/initdb" -D "$WORK/pgdata" -U postgres --pwfile="$WORK/pgpass" --auth-local=trust \
  --auth-host=scram-sha-256 -E UTF8 --no-sync >"$WORK/initdb.log"
as_postgres "$PGBIN/pg_ctl" -D "$WORK/pgdata" -l "$WORK/postgres.log" -w -t 30 \
  -o "-c listen_addresses=${ADDRESS[postgres]} -p 5432 -k $WORK -c fsync=off" start >/dev/null
(
  while IFS= read -r line; do export "$line"; done < <(service_env postgres)
  as_postgres env "AUTH_DB_PASSWORD=$AUTH_DB_PASSWORD" "CATALOG_DB_PASSWORD=$CATALOG_DB_PASSWORD" \
    "GAMES_DB_PASSWORD=$GAMES_DB_PASSWORD" "SEARCH_DB_PASSWORD=$SEARCH_DB_PASSWORD" "BETTING_DB_PASSWORD=$BETTING_DB_PASSWORD" "CHAT_DB_PASSWORD=$CHAT_DB_PASSWORD" "NOTIFY_DB_PASSWORD=$NOTIFY_DB_PASSWORD" \
    "$PGBIN/psql" -v ON_ERROR_STOP=1 -h "$WORK" -p 5432 -U postgres -d postgres -q -f deploy/postgres/init.sql
) >"$WORK/init.log" 2>&1

echo "== services"
for name in "${!RUNS[@]}"; do
  runs=${RUNS[$name]}
  [ "$runs" = postgres ] || [ "$runs" = - ] && continue
  mapfile -t environment < <(service_env "$name")
  for i in "${!environment[@]}"; do
    case "${environment[$i]}" in *_HTTP_HOST=*) environment[$i]="${environment[$i]%%=*}=${ADDRESS[$name]}" ;; esac
  done
  env -i PATH="$PATH" HOME="$WORK" "${environment[@]}" "$BIN/$runs" >"$WORK/$name.log" 2>&1 &
  PIDS+=($!)
  echo "  $name: $runs at ${ADDRESS[$name]}"
done
for name in "${!RUNS[@]}"; do
  case "${RUNS[$name]}" in postgres | -) continue ;; esac
  for _ in $(seq 120); do curl -sf "http://$name:8080/health" >/dev/null && continue 2; sleep 0.5; done
  echo "$name did not become healthy" >&2
  exit 1
done

echo "== seed the demo through the gateway"
"$BIN/huddle" demo --url http://gateway:8080 --log-level warning

echo "== journeys through the gateway (StackTests against the compose topology)"
HUDDLE_TEST_GATEWAY_URL=http://gateway:8080 swift test --skip-build --filter "StackTests|DemoThroughGatewayTests"
