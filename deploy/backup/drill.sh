#!/usr/bin/env bash
# The restore drill, on a throwaway PostgreSQL 15 that archives its WAL and keeps its base backups in an
# S3-compatible bucket as production's does (there by the operator's Barman Cloud plugin; here by
# archive_command, restore_command and curl's SigV4 against moto's S3 server):
#
#   1. the all-in-one runs with every module's store in that cluster, its erasure journal in a folder
#      of its own, apart from anything backed up;
#   2. a player places a ticket and sends a message (RestoreDrillTests, step "before");
#   3. a base backup is taken while it runs (pg_basebackup) and put in the bucket;
#   4. another ticket and message ("between"); the time is noted; a third ticket and message, and a
#      second player deletes his account ("after");
#   5. the node is lost: huddle and PostgreSQL are stopped, the data folder thrown away;
#   6. the base backup is fetched from the bucket and unpacked, and the archived WAL fetched and replayed
#      to the noted time (recovery_target_time), timed; huddle starts on it with the same journal, and auth deletes the player again before
#      answering anyone;
#   7. checked: the deleted player stays deleted; the first two tickets, messages and receipts are there
#      once each and the third is not; a new ticket and message flow to their receipt ("restored");
#      every account of the ledger matches its transfers and they sum to zero, no wallet below zero;
#      every subscriber's position reaches the end of its stream, nothing parked; then the journeys.
#
# With --games N, N games (two players each) are written to games' store before the base backup, to
# measure the restore at that size (deploy/kubernetes/README.md, "Backups and restores").
# Usage: deploy/backup/drill.sh [--games N] [--no-journeys]   (after `swift build --build-tests`)
set -euo pipefail
cd "$(dirname "$0")/../.."
[ -d /opt/swift/usr/bin ] && export PATH=/opt/swift/usr/bin:$PATH
source deploy/lib/modules.sh
BIN=$(swift build --show-bin-path)
PGBIN=${PGBIN:-/usr/lib/postgresql/15/bin}
PGPORT=${DRILL_PGPORT:-54341}
GAMES=0 JOURNEYS=yes
while [ $# -gt 0 ]; do
  case "$1" in
    --games) GAMES=$2; shift 2 ;;
    --no-journeys) JOURNEYS=no; shift ;;
    *) echo "usage: $0 [--games N] [--no-journeys]" >&2; exit 2 ;;
  esac
done
S3PORT=${DRILL_S3PORT:-54356}
S3="http://127.0.0.1:$S3PORT/huddle-backups"
# moto takes any keys; a real bucket's go here.
SIGNED="--aws-sigv4 aws:amz:us-east-1:s3 --user huddle:huddle-drill"
WORK=$(mktemp -d)
chmod 755 "$WORK"
mkdir -p "$WORK/journal" "$WORK/data"

as_postgres() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}
psql_in() { local database=$1; shift; as_postgres "$PGBIN/psql" -h "$WORK" -p "$PGPORT" -U postgres -d "$database" -v ON_ERROR_STOP=1 -Atq "$@"; }

finish() {
  status=$?
  [ -n "${HUDDLE:-}" ] && kill "$HUDDLE" 2>/dev/null && wait "$HUDDLE" 2>/dev/null
  [ -n "${MOTO:-}" ] && kill "$MOTO" 2>/dev/null
  as_postgres "$PGBIN/pg_ctl" -D "$WORK/pgdata" -m fast -w stop >/dev/null 2>&1 || true
  if [ $status -ne 0 ]; then
    for log in "$WORK"/*.log; do echo "== $(basename "$log") (last 30 lines)"; tail -30 "$log"; done
  fi
  rm -rf "$WORK"
}
trap finish EXIT

start_postgres() {
  as_postgres "$PGBIN/pg_ctl" -D "$WORK/pgdata" -l "$WORK/postgres.log" -w -t 600 -o "-c listen_addresses=127.0.0.1 -p $PGPORT -k $WORK \
    -c max_connections=300 -c wal_level=replica -c archive_mode=on -c archive_timeout=60 \
    -c archive_command='curl -sf $SIGNED -T %p $S3/wal/%f'" start >/dev/null
}

start_huddle() {
  local settings=(--set auth.bcrypt.cost=4 --set auth.erasure.journal.file="$WORK/journal/erasure-journal.jsonl"
    --set auth.admin.emails=ada@huddle.dev,stack-admin@example.com --set auth.staff.second-factor=optional
    --set gateway.ratelimit.rate=2000 --set gateway.ratelimit.burst=4000
    --set auth.oauth.apple.audiences=dev.huddle.app,app.huddle.ios
    # The steps bet on the stand-in's matchday: priced within seconds of games reporting it, rather than at
    # betting's next minute, so a step never finds only the demo's match, being played, open.
    --set betting.odds.poll.ms=5000)
  for module in "${MODULES[@]}"; do
    settings+=(--set "$module.db.url=postgres://huddle_$module@127.0.0.1:$PGPORT/huddle_$module?sslmode=disable")
  done
  : >"$WORK/huddle.log"
  "$BIN/huddle" --data-dir "$WORK/data" "${settings[@]}" "$@" >>"$WORK/huddle.log" 2>&1 &
  HUDDLE=$!
  for _ in $(seq 300); do grep -q '^Huddle is up' "$WORK/huddle.log" && return 0; sleep 1; done
  echo "huddle did not start" >&2
  return 1
}

stop_huddle() { kill "$HUDDLE" && wait "$HUDDLE" 2>/dev/null || true; HUDDLE=; }

step() {
  echo "== step: $1"
  HUDDLE_DRILL_PHASE=$1 HUDDLE_DRILL_STATE="$WORK/state.json" HUDDLE_TEST_GATEWAY_URL=http://127.0.0.1:8080 \
    swift test --skip-build --filter RestoreDrillTests 2>&1 | tee "$WORK/step-$1.log" | grep -E "✘|✔ Test run|recorded an issue" || true
  grep -q "✔ Test run with 1 test" "$WORK/step-$1.log" || { echo "the drill's step $1 failed" >&2; cat "$WORK/step-$1.log" | tail -30; return 1; }
}

echo "== the bucket: moto's S3-compatible server on 127.0.0.1:$S3PORT"
moto_server -H 127.0.0.1 -p "$S3PORT" >"$WORK/moto.log" 2>&1 &
MOTO=$!
for _ in $(seq 60); do curl -s "http://127.0.0.1:$S3PORT/" >/dev/null && break; sleep 0.5; done
curl -sf $SIGNED -X PUT "$S3" >/dev/null

echo "== PostgreSQL 15 on 127.0.0.1:$PGPORT, archiving its WAL to $S3/wal"
if [ "$(id -u)" = 0 ]; then
  id postgres >/dev/null 2>&1 || useradd -r postgres
  chown -R postgres:postgres "$WORK"
fi
as_postgres "$PGBIN/initdb" -D "$WORK/pgdata" -U postgres --auth=trust -E UTF8 --no-locale --no-sync >"$WORK/initdb.log"
start_postgres
for module in "${MODULES[@]}"; do
  psql_in postgres -c "CREATE ROLE huddle_$module LOGIN" -c "CREATE DATABASE huddle_$module OWNER huddle_$module"
done
psql_in huddle_search -c "CREATE EXTENSION cube" -c "CREATE EXTENSION earthdistance" -c "CREATE EXTENSION btree_gist"

echo "== huddle, every store in that PostgreSQL, the erasure journal in a folder of its own"
start_huddle
step before

if [ "$GAMES" -gt 0 ]; then
  echo "== $GAMES games with two players each, written to games' store"
  started=$(date +%s.%N)
  psql_in huddle_games <<SQL
INSERT INTO games (id, kind, status, organizer_id, starts_at, sport, privacy, age_group, gender, skill, subs_needed, lat, lng, created_at)
SELECT 'drill-' || n, 'pickup', 'scheduled', 'drill-organizer', now() + n * interval '1 minute', 'soccer', 'public', 'adult', 'coed', 'any',
       0, 58 + (n % 1000) / 500.0, 24 + (n / 1000 % 1000) / 500.0, now()
FROM generate_series(1, $GAMES) AS n;
INSERT INTO roster (game_id, user_id, status, substitute, updated_at)
SELECT 'drill-' || n, 'drill-player-' || p, 'going', false, now() FROM generate_series(1, $GAMES) AS n, generate_series(1, 2) AS p;
SQL
  echo "written in $(echo "$(date +%s.%N) - $started" | bc) s; the cluster holds $(psql_in postgres -c "SELECT pg_size_pretty(sum(pg_database_size(datname))) FROM pg_database")"
fi

echo "== base backup, taken while huddle runs, into the bucket"
started=$(date +%s.%N)
as_postgres "$PGBIN/pg_basebackup" -h "$WORK" -p "$PGPORT" -U postgres -D "$WORK/base" -Ft -z -X stream -c fast
for part in base pg_wal; do curl -sf $SIGNED -T "$WORK/base/$part.tar.gz" "$S3/base/$part.tar.gz"; done
echo "base backup: $(du -sh "$WORK/base" | cut -f1) compressed, taken and stored in $(echo "$(date +%s.%N) - $started" | bc) s"
rm -rf "$WORK/base"

step between
target=$(psql_in postgres -c "SELECT clock_timestamp()")
echo "== restore time: $target"
step after
# Every WAL segment up to now in the archive, as the plugin keeps it.
segment=$(psql_in postgres -c "SELECT pg_walfile_name(pg_switch_wal())")
for _ in $(seq 60); do
  last=$(psql_in postgres -c "SELECT coalesce(last_archived_wal, '') FROM pg_stat_archiver")
  [[ "$last" > "$segment" || "$last" == "$segment" ]] && break
  sleep 1
done

echo "archived through $segment"
echo "== the node is lost: huddle and PostgreSQL stop, the data folder is thrown away"
stop_huddle
as_postgres "$PGBIN/pg_ctl" -D "$WORK/pgdata" -m immediate -w stop >/dev/null
rm -rf "$WORK/pgdata"

echo "== restore: the base backup from the bucket, then the archived WAL fetched and replayed to $target"
started=$(date +%s.%N)
as_postgres mkdir -m 700 "$WORK/pgdata"
for part in base pg_wal; do as_postgres curl -sf $SIGNED -o "$WORK/$part.tar.gz" "$S3/base/$part.tar.gz"; done
as_postgres tar -xzf "$WORK/base.tar.gz" -C "$WORK/pgdata"
as_postgres tar -xzf "$WORK/pg_wal.tar.gz" -C "$WORK/pgdata/pg_wal"
as_postgres tee -a "$WORK/pgdata/postgresql.auto.conf" >/dev/null <<CONF
restore_command = 'curl -sf $SIGNED -o %p $S3/wal/%f'
recovery_target_time = '$target'
recovery_target_action = 'promote'
CONF
as_postgres touch "$WORK/pgdata/recovery.signal"
start_postgres
for _ in $(seq 600); do [ "$(psql_in postgres -c "SELECT pg_is_in_recovery()")" = f ] && break; sleep 0.2; done
[ "$(psql_in postgres -c "SELECT pg_is_in_recovery()")" = f ] || { echo "PostgreSQL did not finish recovery" >&2; exit 1; }
echo "restored and taking writes after $(echo "$(date +%s.%N) - $started" | bc) s"
grep -E "recovery stopping|starting point-in-time recovery|archive recovery complete" "$WORK/postgres.log" || true

echo "== huddle on the restored stores, with the same erasure journal"
start_huddle --no-demo
grep -E "erasure journal|deleted again|replay" "$WORK/huddle.log" || true
step restored

echo "== the ledger: transfers sum to zero, every wallet matches its transfers, none below zero"
# As betting's own check (Ledger.check) reads it: the house's and the grants' accounts keep no running
# totals (every ticket would write their row), so their balances are their transfers.
ledger=$(psql_in huddle_betting -c "
  SELECT (SELECT coalesce(sum(credits - debits), 0) FROM accounts WHERE kind = 'wallet')
         + (SELECT coalesce(sum(t.amount), 0) FROM transfers t JOIN accounts a ON a.id = t.credit_account WHERE a.kind <> 'wallet')
         - (SELECT coalesce(sum(t.amount), 0) FROM transfers t JOIN accounts a ON a.id = t.debit_account WHERE a.kind <> 'wallet'),
         (SELECT count(*) FROM accounts a WHERE a.kind = 'wallet' AND (
            a.debits <> (SELECT coalesce(sum(amount), 0) FROM transfers WHERE debit_account = a.id)
            OR a.credits <> (SELECT coalesce(sum(amount), 0) FROM transfers WHERE credit_account = a.id))),
         (SELECT count(*) FROM accounts WHERE kind = 'wallet' AND debits > credits),
         (SELECT count(*) FROM transfers)")
echo "sum of balances | wallets out of step with their transfers | wallets below zero | transfers: $ledger"
[[ "$ledger" == 0\|0\|0\|* ]] || { echo "the ledger does not hold after the restore" >&2; exit 1; }

echo "== events: every subscriber's position at its stream's end, nothing parked"
for attempt in $(seq 60); do
  behind=""
  for module in "${MODULES[@]}"; do
    psql_in "huddle_$module" -c "SELECT 1 FROM information_schema.tables WHERE table_name = 'outbox_cursors'" | grep -q 1 || continue
    behind+=$(psql_in "huddle_$module" -c "
      SELECT string_agg('$module to ' || c.subscriber, ', ')
      FROM outbox_cursors c, (SELECT tx, seq FROM outbox ORDER BY tx DESC, seq DESC LIMIT 1) e
      WHERE (c.delivered_tx, c.delivered_seq) <> (e.tx, e.seq)")
    parked=$(psql_in "huddle_$module" -c "SELECT count(*) FROM outbox_dead_letters")
    [ "$parked" = 0 ] || { echo "$module: $parked events parked" >&2; exit 1; }
  done
  [ -z "$behind" ] && break
  [ "$attempt" = 60 ] && { echo "still behind after a minute: $behind" >&2; exit 1; }
  sleep 1
done
echo "every stream delivered to its end"

if [ "$JOURNEYS" = yes ]; then
  echo "== the journeys through the restored stack"
  HUDDLE_TEST_GATEWAY_URL=http://127.0.0.1:8080 HUDDLE_TEST_STANDIN_URL=http://127.0.0.1:8090 \
    swift test --skip-build --filter "StackTests"
fi
