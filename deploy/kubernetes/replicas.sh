#!/usr/bin/env bash
# Runs the production overlay's topology without a cluster, then drives it: two instances of every
# module and two gateways on one PostgreSQL, each on a loopback address of its own, started from the
# built executables with the configuration the production overlay renders (each Deployment's
# ConfigMap, its secrets written as files in a secrets directory as Kubernetes mounts them). Names
# resolve as in the cluster, through /etc/hosts: `<module>` and `<module>-instances` (the headless
# Service the gateways balance over) to both of a module's instances.
#
# Deviations, because this machine has one network namespace and no outside network: each
# `*_HTTP_HOST` is the instance's own address instead of 0.0.0.0; the providers are the stand-in's
# (as in the development overlay), polled every second; the object store is moto's; PostgreSQL is one
# server, not the overlay's CloudNativePG cluster, so the modules' URLs come from secret files.
#
# Then: the demo is seeded, the StackTests journeys run with requests alternating between the two
# gateways, each event is checked delivered once per subscriber (the outboxes against both instances'
# counters, every cursor at its stream's end, nothing parked), and ReplicaKillTests (HUDDLE_TEST_REPLICAS) kills one instance of every module with
# SIGKILL in the middle of journeys and live sockets, and reads the stand-in's log of provider calls to
# see that each poller ran in one instance at a time.
#
# Needs write access to /etc/hosts (CI runs as root); restores it on exit.
# Usage: deploy/kubernetes/replicas.sh   (after `swift build --build-tests`)
set -euo pipefail
cd "$(dirname "$0")/../.."
source deploy/lib/local-topology.sh
source deploy/lib/modules.sh

POSTGRES_PASSWORD=$(secret)
# A key pair a module for its internal calls, as an operator makes them (deploy/kubernetes/README.md).
"$BIN/huddle" internal-keys --secrets-dir "$WORK/internal-keys"
declare -A PASSWORD
for module in "${MODULES[@]}"; do PASSWORD[$module]=$(secret); done

echo "== render the production overlay"
kubectl kustomize deploy/kubernetes/overlays/production >"$WORK/production.yaml"
# Each Deployment's environment (its ConfigMap, then its own env), one KEY=VALUE a line, in $WORK/<name>.env.
python3 - "$WORK" <<'PY'
import sys, yaml
work = sys.argv[1]
docs = [d for d in yaml.safe_load_all(open(f"{work}/production.yaml")) if d]
maps = {d["metadata"]["name"]: d.get("data", {}) for d in docs if d["kind"] == "ConfigMap"}
for d in docs:
    if d["kind"] != "Deployment":
        continue
    container = d["spec"]["template"]["spec"]["containers"][0]
    env = {}
    for source in container.get("envFrom", []):
        env.update(maps[source["configMapRef"]["name"]])
    for variable in container.get("env", []):
        env[variable["name"]] = variable["value"]
    with open(f"{work}/{d['metadata']['name']}.env", "w") as out:
        out.writelines(f"{k}={v}\n" for k, v in env.items())
PY

echo "== names: two instances of each module, two gateways, postgres and the stand-in"
declare -A ADDRESS
{
  echo "127.0.3.1 postgres"
  echo "127.0.3.2 stand-in"
  echo "127.0.3.3 object-storage"
  echo "127.0.3.11 gateway-1"
  echo "127.0.3.12 gateway-2"
  n=20
  for module in "${MODULES[@]}"; do
    for instance in 1 2; do
      ADDRESS[$module-$instance]=127.0.3.$n
      echo "127.0.3.$n $module $module-instances $module-$instance"
      n=$((n + 1))
    done
  done
} >>/etc/hosts
ADDRESS[gateway-1]=127.0.3.11 ADDRESS[gateway-2]=127.0.3.12

echo "== postgres, initialised by deploy/postgres/init.sql"
start_postgres 127.0.3.1 "$POSTGRES_PASSWORD" -c max_connections=400
init_databases "AUTH_DB_PASSWORD=${PASSWORD[auth]}" "CATALOG_DB_PASSWORD=${PASSWORD[catalog]}" "GAMES_DB_PASSWORD=${PASSWORD[games]}" \
  "SEARCH_DB_PASSWORD=${PASSWORD[search]}" "BETTING_DB_PASSWORD=${PASSWORD[betting]}" "CHAT_DB_PASSWORD=${PASSWORD[chat]}" \
  "NOTIFY_DB_PASSWORD=${PASSWORD[notify]}" "PURCHASES_DB_PASSWORD=${PASSWORD[purchases]}" \
  "MODERATION_DB_PASSWORD=${PASSWORD[moderation]}" "MEDIA_DB_PASSWORD=${PASSWORD[media]}"

echo "== object storage: moto's S3 server in the bucket's place"
run_named object-storage moto_server -H 127.0.3.3 -p 9000
for _ in $(seq 60); do curl -sf http://object-storage:9000/ >/dev/null && break; sleep 0.5; done

echo "== a service account for the stand-in's FCM, made fresh as huddle makes its own"
make_fcm_account

echo "== the providers' stand-in"
run_named stand-in env -i PATH="$PATH" HOME="$WORK" STANDIN_HTTP_HOST=127.0.3.2 STANDIN_HTTP_PORT=8080 \
  STANDIN_FOOTBALL_MATCHDAY_SEED=1 STANDIN_FCM_KEY="$(cat "$WORK/fcm-public.pem")" STANDIN_FCM_CLIENT_EMAIL="$FCM_ACCOUNT" \
  STANDIN_FCM_PROJECT=huddle-dev STANDIN_APPSTORE_BUNDLE_ID=app.huddle.ios STANDIN_APPSTORE_ROOT_FILE="$WORK/appstore-root.pem" \
  STANDIN_SMTP_PORT=2525 STANDIN_SMTP_CERT_FILE="$WORK/smtp-certificate.pem" \
  "$BIN/stand-in"

# Starts instance $2 of deployment $1 (its rendered environment, its secrets as files, its own address);
# with a third argument `migrate`, runs the module's migration Job instead (`--migrate`), and waits for it.
start() {
  local name=$1 instance=$2 module=$1 secrets="$WORK/secrets-$1-$2" job=${3:-}
  local address=${ADDRESS[$name-$instance]}
  mkdir -p "$secrets"
  # Every pod reads the public keys (huddle-internal); a module's pods alone hold its private key (huddle-<module>).
  cp "$WORK/internal-keys/internal-keys" "$secrets/internal-keys"
  if [ "$module" != gateway ]; then
    cp "$WORK/internal-keys/$module-internal-key" "$secrets/$module-internal-key"
    printf '%s' "postgres://huddle_$module:${PASSWORD[$module]}@postgres:5432/huddle_$module?sslmode=disable" >"$secrets/$module-db-url"
  fi
  printf '%s' huddle-dev-football-key >"$secrets/games-matches-provider-key"
  printf '%s' huddle-dev-football-key >"$secrets/betting-odds-provider-key"
  cp "$WORK/fcm-credentials.json" "$secrets/notify-fcm-credentials"
  # The relay's URL carries its password: a secret (huddle-auth-providers' mail-smtp-url), here the stand-in's.
  printf '%s' "smtp://huddle:huddle-dev-mail@stand-in:2525" >"$secrets/mail-smtp-url"
  # The bucket's keys: a secret (huddle-media-storage), here moto's, which takes any.
  printf '%s' huddle >"$secrets/media-s3-access-key"
  printf '%s' huddle-dev-storage >"$secrets/media-s3-secret-key"
  # The journal's bucket: moto's, which takes any keys (a secret, huddle-erasure-journal).
  printf '%s' huddle >"$secrets/auth-erasure-journal-s3-access-key"
  printf '%s' huddle-dev-storage >"$secrets/auth-erasure-journal-s3-secret-key"
  mapfile -t rendered <"$WORK/$name.env"
  local environment=()
  for variable in "${rendered[@]}"; do
    case "$variable" in
      *_HTTP_HOST=*) environment+=("${variable%%=*}=$address") ;;
      HUDDLE_SECRETS_DIR=*) environment+=("HUDDLE_SECRETS_DIR=$secrets") ;;
      # The overlay's CloudNativePG pooler is not here: the database URL comes from the secret file above.
      *_DB_URL=*) ;;
      *) environment+=("$variable") ;;
    esac
  done
  environment+=(
    AUTH_OAUTH_FACEBOOK_URL=http://stand-in:8080 AUTH_OAUTH_APPLE_URL=http://stand-in:8080 AUTH_OAUTH_GOOGLE_URL=http://stand-in:8080 CATALOG_WEATHER_URL=http://stand-in:8080
    SEARCH_GEOCODING_URL=http://stand-in:8080
    GAMES_MATCHES_PROVIDER_URL=http://stand-in:8080 BETTING_ODDS_PROVIDER_URL=http://stand-in:8080
    GAMES_MATCHES_POLL_LIVE_MS=1000 BETTING_ODDS_POLL_MS=1000 AUTH_ADMIN_EMAILS=ada@huddle.dev,stack-admin@example.com
    NOTIFY_FCM_URL=http://stand-in:8080 MAIL_SMTP_TRUST_FILE="$WORK/smtp-certificate.pem"
    # The bucket here, made at start; the journeys reach the gateways by these names.
    MEDIA_S3_URL=http://object-storage:9000 MEDIA_S3_CREATE_BUCKET=true MEDIA_API_URL=http://gateway-1:8080
    AUTH_ERASURE_JOURNAL_S3_URL=http://object-storage:9000 AUTH_ERASURE_JOURNAL_S3_CREATE_BUCKET=true
    # Spans to the stand-in's collector instead of the production overlay's (components/tracing).
    OTEL_EXPORTER_OTLP_ENDPOINT=http://stand-in:8080 OTEL_EXPORTER_OTLP_PROTOCOL=http/json
    PURCHASES_APPSTORE_ENVIRONMENT=Sandbox PURCHASES_APPSTORE_ROOTS_FILE="$WORK/appstore-root.pem"
    # bcrypt at cost 10 instead of the overlay's 12: the journeys start about twenty suites at once,
    # each registering its players, and on two cores the hashes queued past the gateway's 10 s
    # upstream timeout (504s from auth in the first seconds of a run).
    AUTH_BCRYPT_COST=10
    # The journeys' administrator signs in with a password alone; SecondFactorTests hold the overlay's rule.
    AUTH_STAFF_SECOND_FACTOR=optional
  )
  # The journeys come from one address, twenty suites at once: the gateways' limit for one client is
  # lifted for them (deploy/compose/topology.sh says why).
  [ "$module" = gateway ] && environment+=(GATEWAY_RATELIMIT_RATE=2000 GATEWAY_RATELIMIT_BURST=4000)
  if [ "$job" = migrate ]; then
    env -i PATH="$PATH" HOME="$WORK" HOSTNAME="migrate-$module" "${environment[@]}" "$BIN/$module" --migrate >>"$WORK/migrate.log" 2>&1
    return
  fi
  # HOSTNAME as Kubernetes gives it (the pod's name): it names the instance to the providers.
  run_named "$name-$instance" env -i PATH="$PATH" HOME="$WORK" HOSTNAME="$name-$instance" "${environment[@]}" "$BIN/$module"
}

ready() {
  local url=$1
  for _ in $(seq 240); do curl -sf "$url" >/dev/null && return 0; sleep 0.5; done
  echo "$url did not become ready" >&2
  return 1
}

echo "== two instances of every module, which wait for their schema (<MODULE>_DB_MIGRATE=wait), then the migration Jobs, then two gateways"
for module in "${MODULES[@]}"; do start "$module" 1; start "$module" 2; done
for module in "${MODULES[@]}"; do start "$module" 1 migrate; done
for module in "${MODULES[@]}"; do for instance in 1 2; do ready "http://$module-$instance:8080/health/ready"; done; done
ADDRESS[gateway-1]=127.0.3.11 ADDRESS[gateway-2]=127.0.3.12
start gateway 1
start gateway 2
ready http://gateway-1:9180/health/ready
ready http://gateway-2:9180/health/ready

echo "== seed the demo through a gateway"
"$BIN/huddle" demo --url http://gateway-1:8080 --app-store http://stand-in:8080 --log-level warning

echo "== journeys alternating between the two gateways (StackTests against the replicated topology)"
HUDDLE_TEST_GATEWAY_URL=http://gateway-1:8080,http://gateway-2:8080 HUDDLE_TEST_STANDIN_URL=http://stand-in:8080 \
  swift test --skip-build --filter "StackTests|DemoThroughGatewayTests"

echo "== each event delivered once to each subscriber by the two instances together, every cursor at its stream's end, none parked"
# Before the kills: an instance killed mid-batch may rightly send a batch again.
publishers=(auth catalog games purchases moderation betting chat)
metrics_urls=()
for module in "${publishers[@]}"; do for instance in 1 2; do metrics_urls+=("$module=http://$module-$instance:8080/metrics"); done; done
check_deliveries() {
python3 - "$WORK/outboxes.txt" "${metrics_urls[@]}" <<'PY'
import re, sys, time, urllib.request
outboxes = {}
for line in open(sys.argv[1]):
    module, events, tx, seq, parked, cursors = line.rstrip("\n").split("|")
    outboxes[module] = (int(events), (int(tx), int(seq)), int(parked), cursors)
def delivered():
    sums = {}
    for entry in sys.argv[2:]:
        module, url = entry.split("=", 1)
        text = urllib.request.urlopen(url, timeout=5).read().decode()
        for m in re.finditer(r'outbox_events_delivered_total\{([^}]*)\} ([0-9.e+]+)', text):
            labels = dict(re.findall(r'(\w+)="([^"]*)"', m.group(1)))
            key = (labels.get("publisher"), labels.get("subscriber"))
            sums[key] = sums.get(key, 0) + int(float(m.group(2)))
    return sums
failures = []
for module, (events, end, parked, cursors) in outboxes.items():
    if parked:
        failures.append(f"{module}: {parked} events parked")
    for cursor in filter(None, cursors.split(",")):
        subscriber, tx, seq = cursor.split(":")
        if (int(tx), int(seq)) != end:
            failures.append(f"{module} to {subscriber}: cursor at {(tx, seq)}, its stream ends at {end}")
sums = delivered()
for (publisher, subscriber), count in sorted(sums.items()):
    events = outboxes.get(publisher, (None,))[0]
    print(f"{publisher} to {subscriber}: {count} delivered by both instances, {events} in the outbox", file=sys.stderr)
    if events is not None and count != events:
        failures.append(f"{publisher} to {subscriber}: {count} deliveries of {events} events")
if failures:
    sys.exit("\n".join(failures))
for (publisher, subscriber), count in sorted(sums.items()):
    print(f"{publisher} to {subscriber}: each of {count} events delivered once")
PY
}
# Games' matches move every second: read until the streams and the counters agree at one moment.
read_outboxes() {
  : >"$WORK/outboxes.txt"
  for module in "${publishers[@]}"; do
    as_postgres "$PGBIN/psql" -h "$WORK" -d "huddle_$module" -Atc \
      "SELECT '$module', count(*),
              coalesce((SELECT tx FROM outbox ORDER BY tx DESC, seq DESC LIMIT 1), 0),
              coalesce((SELECT seq FROM outbox ORDER BY tx DESC, seq DESC LIMIT 1), 0),
              (SELECT count(*) FROM outbox_dead_letters),
              (SELECT string_agg(subscriber || ':' || delivered_tx || ':' || delivered_seq, ',') FROM outbox_cursors)
       FROM outbox" >>"$WORK/outboxes.txt"
  done
}
for attempt in $(seq 60); do
  read_outboxes
  if check_deliveries 2>"$WORK/deliveries.err"; then break; fi
  if [ "$attempt" = 60 ]; then cat "$WORK/deliveries.err" >&2; exit 1; fi
  sleep 1
done

echo "== one instance of every module killed with SIGKILL in the middle of journeys and live sockets"
HUDDLE_TEST_GATEWAY_URL=http://gateway-1:8080,http://gateway-2:8080 HUDDLE_TEST_REPLICAS="$WORK" HUDDLE_TEST_STANDIN_URL=http://stand-in:8080 \
  swift test --skip-build --filter "ReplicaKillTests"
