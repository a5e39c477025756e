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
source deploy/lib/local-topology.sh

# The secrets compose asks for, made up for this run.
export POSTGRES_PASSWORD=$(secret)
# A key pair a module for its internal calls: INTERNAL_KEYS and each module's <MODULE>_INTERNAL_KEY.
while IFS= read -r setting; do export "$setting"; done < <("$BIN/huddle" internal-keys)
for module in AUTH CATALOG GAMES SEARCH BETTING CHAT NOTIFY PURCHASES MODERATION MEDIA; do export "${module}_DB_PASSWORD=$(secret)"; done
# The demo's administrator and the one StackTests signs in as; weather and football from the providers' stand-in, polled every second.
export ADMIN_EMAILS=ada@huddle.dev,stack-admin@example.com WEATHER_PROVIDER_URL=http://stand-in:8080 GEOCODING_PROVIDER_URL=http://stand-in:8080 FOOTBALL_POLL_LIVE_MS=1000 ODDS_POLL_MS=1000
# Purchases trusts the stand-in's App Store, whose root it writes at start into the development-trust
# volume (here the same path on this machine; an old root is removed first, so purchases waits for the new one).
export PURCHASES_APPSTORE_ENVIRONMENT=Sandbox PURCHASES_APPSTORE_ROOTS_FILE=/run/huddle-dev/appstore-root.pem
# Spans go to the stand-in's collector (GET /test/traces/{traceId}) rather than to a Jaeger that does not run here.
export OTEL_EXPORTER_OTLP_ENDPOINT=http://stand-in:8080 OTEL_EXPORTER_OTLP_PROTOCOL=http/json
# Phones reach MinIO at the name the services use (it is moto's S3 server here, below).
export MEDIA_S3_PUBLIC_URL=http://minio:9000 PUBLIC_API_URL=http://gateway:8080
mkdir -p /run/huddle-dev && rm -f "$PURCHASES_APPSTORE_ROOTS_FILE" /run/huddle-dev/smtp-certificate.pem
# Compose gives notify no push credentials (an operator brings theirs); this run gives it an FCM
# account the stand-in trusts, so the journeys see pushes reach the phones (DeployedChatPushTests).
make_fcm_account

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
start_postgres "${ADDRESS[postgres]}" "$POSTGRES_PASSWORD" -c max_connections=200
(
  while IFS= read -r line; do export "$line"; done < <(service_env postgres)
  init_databases "AUTH_DB_PASSWORD=$AUTH_DB_PASSWORD" "CATALOG_DB_PASSWORD=$CATALOG_DB_PASSWORD" \
    "GAMES_DB_PASSWORD=$GAMES_DB_PASSWORD" "SEARCH_DB_PASSWORD=$SEARCH_DB_PASSWORD" "BETTING_DB_PASSWORD=$BETTING_DB_PASSWORD" \
    "CHAT_DB_PASSWORD=$CHAT_DB_PASSWORD" "NOTIFY_DB_PASSWORD=$NOTIFY_DB_PASSWORD" \
    "PURCHASES_DB_PASSWORD=$PURCHASES_DB_PASSWORD" "MODERATION_DB_PASSWORD=$MODERATION_DB_PASSWORD" \
    "MEDIA_DB_PASSWORD=$MEDIA_DB_PASSWORD"
)

echo "== object storage at ${ADDRESS[minio]}:9000: moto's S3 server in MinIO's place (no container engine here)"
run_named minio moto_server -H "${ADDRESS[minio]}" -p 9000
for _ in $(seq 60); do curl -sf "http://minio:9000/" >/dev/null && break; sleep 0.5; done

echo "== services"
for name in "${!RUNS[@]}"; do
  runs=${RUNS[$name]}
  [ "$runs" = postgres ] || [ "$runs" = - ] && continue
  mapfile -t environment < <(service_env "$name")
  for i in "${!environment[@]}"; do
    case "${environment[$i]}" in *_HTTP_HOST=*) environment[$i]="${environment[$i]%%=*}=${ADDRESS[$name]}" ;; esac
  done
  # bcrypt at cost 10 instead of 12, as in deploy/kubernetes/replicas.sh: the journeys register
  # players from twenty suites at once, and on two cores the hashes could queue past the gateway's
  # 10 s upstream timeout.
  [ "$name" = auth ] && environment+=(AUTH_BCRYPT_COST=10)
  # The journeys are twenty suites at once from one address, which the gateway's limit for one
  # client (50 a second, 100 at once) answered with 429s in a fast run; they test journeys, not it
  # (GatewayTests and EdgeValueTests do).
  [ "$name" = gateway ] && environment+=(GATEWAY_RATELIMIT_RATE=2000 GATEWAY_RATELIMIT_BURST=4000)
  [ "$name" = notify ] && environment+=(NOTIFY_FCM_URL=http://stand-in:8080 NOTIFY_FCM_CREDENTIALS_FILE="$WORK/fcm-credentials.json")
  [ "$name" = stand-in ] && environment+=(STANDIN_FCM_KEY="$(cat "$WORK/fcm-public.pem")" STANDIN_FCM_CLIENT_EMAIL="$FCM_ACCOUNT" STANDIN_FCM_PROJECT=huddle-dev)
  run_named "$name" env -i PATH="$PATH" HOME="$WORK" "${environment[@]}" "$BIN/$runs"
  echo "  $name: $runs at ${ADDRESS[$name]}"
done
for name in "${!RUNS[@]}"; do
  case "${RUNS[$name]}" in postgres | -) continue ;; esac
  for _ in $(seq 120); do curl -sf "http://$name:8080/health" >/dev/null && continue 2; sleep 0.5; done
  echo "$name did not become healthy" >&2
  exit 1
done

echo "== seed the demo through the gateway (its unlocks bought from the stand-in's App Store)"
"$BIN/huddle" demo --url http://gateway:8080 --app-store http://stand-in:8080 --log-level warning

echo "== grounds from the stand-in's open data into catalog's store, twice: the second import changes nothing"
catalog_db=$(service_env catalog | sed -n 's/^CATALOG_DB_URL=//p')
"$BIN/huddle" import venues --source casey --url http://stand-in:8080 --set "catalog.db.url=$catalog_db"
again=$("$BIN/huddle" import venues --source casey --url http://stand-in:8080 --set "catalog.db.url=$catalog_db")
echo "  $again"
case "$again" in *" 0 created, 0 updated,"*) ;; *) echo "the second import changed venues" >&2; exit 1 ;; esac
# Catalog sends them on to search: the nearest ground to Casey Fields' record is found there, with its postcode.
token=$(curl -sf http://gateway:8080/v1/auth/login -H 'Content-Type: application/json' \
  -d '{"email":"bruno@huddle.dev","password":"huddle-demo-player"}' | python3 -c 'import json,sys; print(json.load(sys.stdin)["accessToken"])')
found=no
for _ in $(seq 60); do
  if curl -sf "http://gateway:8080/v1/search/venues?lat=-38.1038&lng=145.3140&limit=1" -H "Authorization: Bearer $token" \
    | python3 -c 'import json,sys; sys.exit(json.load(sys.stdin)["items"][0].get("postcode") != "3977")'; then
    found=yes
    break
  fi
  sleep 0.5
done
[ "$found" = yes ] || { echo "search did not find the imported grounds" >&2; exit 1; }

echo "== journeys through the gateway (StackTests against the compose topology)"
HUDDLE_TEST_GATEWAY_URL=http://gateway:8080 HUDDLE_TEST_STANDIN_URL=http://stand-in:8080 \
  swift test --skip-build --filter "StackTests|DemoThroughGatewayTests"
