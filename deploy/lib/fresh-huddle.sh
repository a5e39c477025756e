# What the steps that drive a fresh `huddle` share (the fuzzer, the generated client, the console in
# a browser): the debug build started with demo data in a data directory that does not exist yet,
# as on a fresh clone, its log shown when the step failed, and the process waited for on exit so the
# next step does not find its ports still bound. Source it from the repository root, then call
# `start_fresh_huddle [extra huddle arguments]`; it sets WORK and HUDDLE.
WORK=$(mktemp -d)

start_fresh_huddle() {
  ./.build/debug/huddle --data-dir "$WORK/data" --set auth.bcrypt.cost=4 "$@" >"$WORK/huddle.log" 2>&1 &
  HUDDLE=$!
  trap stop_fresh_huddle EXIT
  # Up, and the demo seeded: the gateway answers /health before the demo's accounts and games exist.
  for _ in $(seq 120); do grep -q '^Huddle is up' "$WORK/huddle.log" && break; sleep 1; done
  curl -sf http://127.0.0.1:8080/health >/dev/null || { echo "huddle did not start"; return 1; }
}

stop_fresh_huddle() {
  status=$?
  kill "$HUDDLE" 2>/dev/null && wait "$HUDDLE" 2>/dev/null || true
  if [ $status -ne 0 ]; then echo "== huddle's log (last 40 lines)"; tail -40 "$WORK/huddle.log"; fi
  rm -rf "$WORK"
}
