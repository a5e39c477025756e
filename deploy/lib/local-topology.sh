# What deploy/compose/topology.sh and deploy/kubernetes/replicas.sh share: a work folder, the
# processes they start (one pid file each in it), a PostgreSQL initialised as the postgres image
# initialises it, /etc/hosts restored on exit, and the logs shown when the run failed.
# Source it after `cd` to the repository root; it sets BIN, PGBIN and WORK.
[ -d /opt/swift/usr/bin ] && export PATH=/opt/swift/usr/bin:$PATH
BIN=$(swift build --show-bin-path)
PGBIN=${PGBIN:-/usr/lib/postgresql/15/bin}
WORK=$(mktemp -d)
[ -w /etc/hosts ] || { echo "$(basename "$0"): needs write access to /etc/hosts to give each service its name" >&2; exit 1; }
cp /etc/hosts "$WORK/hosts.orig"

as_postgres() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

# A secret made up for this run.
secret() { head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n'; }

# A service account for the stand-in's FCM, made fresh as huddle makes its own: its key in
# $WORK/fcm-key.pem (public half fcm-public.pem), notify's credentials in $WORK/fcm-credentials.json
# (their token URI the stand-in's), the account's email in FCM_ACCOUNT.
make_fcm_account() {
  openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$WORK/fcm-key.pem" 2>/dev/null
  openssl pkey -in "$WORK/fcm-key.pem" -pubout -out "$WORK/fcm-public.pem"
  FCM_ACCOUNT=notify@huddle-dev.iam.gserviceaccount.com
  python3 - "$WORK/fcm-key.pem" "$FCM_ACCOUNT" >"$WORK/fcm-credentials.json" <<'PY'
import json, sys
print(json.dumps({"type": "service_account", "project_id": "huddle-dev", "client_email": sys.argv[2],
                  "private_key": open(sys.argv[1]).read(), "token_uri": "http://stand-in:8080/token"}))
PY
}

# Runs a command in the background with its output in $WORK/<name>.log and its pid in $WORK/<name>.pid.
run_named() {
  local name=$1
  shift
  "$@" >"$WORK/$name.log" 2>&1 &
  echo $! >"$WORK/$name.pid"
}

finish() {
  status=$?
  for pidfile in "$WORK"/*.pid; do [ -e "$pidfile" ] && kill "$(cat "$pidfile")" 2>/dev/null || true; done
  wait 2>/dev/null || true
  as_postgres "$PGBIN/pg_ctl" -D "$WORK/pgdata" -m fast -w stop >/dev/null 2>&1 || true
  cat "$WORK/hosts.orig" >/etc/hosts
  if [ $status -ne 0 ]; then
    for log in "$WORK"/*.log; do echo "== $(basename "$log") (last 30 lines)"; tail -30 "$log"; done
  fi
  rm -rf "$WORK"
}
trap finish EXIT

# start_postgres ADDRESS SUPERUSER-PASSWORD [server options]: scram passwords over TCP, as the image does.
start_postgres() {
  local address=$1 password=$2
  shift 2
  if [ "$(id -u)" = 0 ]; then
    id postgres >/dev/null 2>&1 || useradd -r postgres
    chown postgres:postgres "$WORK"
    chmod 755 "$WORK"
  fi
  echo "$password" >"$WORK/pgpass" && chmod 644 "$WORK/pgpass"
  as_postgres "$PGBIN/initdb" -D "$WORK/pgdata" -U postgres --pwfile="$WORK/pgpass" --auth-local=trust \
    --auth-host=scram-sha-256 -E UTF8 --no-sync >"$WORK/initdb.log"
  as_postgres "$PGBIN/pg_ctl" -D "$WORK/pgdata" -l "$WORK/postgres.log" -w -t 30 \
    -o "-c listen_addresses=$address -p 5432 -k $WORK -c fsync=off $*" start >/dev/null
}

# init_databases VAR=VALUE…: runs deploy/postgres/init.sql as the superuser with the roles' passwords in its environment.
init_databases() {
  as_postgres env "$@" "$PGBIN/psql" -v ON_ERROR_STOP=1 -h "$WORK" -p 5432 -U postgres -d postgres -q \
    -f deploy/postgres/init.sql >"$WORK/init.log" 2>&1
}
