#!/usr/bin/env bash
# QueueFlow's real server (the Rust crate `queueflow`) for the tests: built with the sid
# chroot's Rust (the machine's is older than the crate's rust-version 1.96) and run inside the
# chroot, since the binary links against sid's glibc. See docs/systems/queueflow.md.
#
#   install              cargo install --locked queueflow@$QUEUEFLOW_VERSION into the chroot's
#                        /opt/queueflow (skipped when that version is already there)
#   up [DATABASE_URL]    install, then start `queueflow serve` on a free port against a database
#                        of its own (created as qf_<random> on $QUEUEFLOW_PG_ADMIN_URL unless a
#                        URL is given), with generated tenant API keys and a worker token; waits
#                        for /health and prints VAR=value lines (URL, credentials, run dir)
#   down RUN_DIR         stop that server and drop the database `up` created
#                        (with QUEUEFLOW_OWNER_PID set, `up` also leaves a reaper that does this
#                        when that process is gone: a test runner killed mid-suite, e.g. on a
#                        timeout, never leaves a server running)
#   version              the pinned server version
#
# Credentials go to the server through its environment (never its argv, so `ps` does not show
# them) and to the caller on stdout only; the run dir holding them is mode 700.
set -euo pipefail
cd "$(dirname "$0")/.."

# 0.6.0: the Python client 0.5.0 is generated from the server's OpenAPI document 0.6.0
# (`queueflow/__init__.py`: "The version of the OpenAPI document: 0.6.0") and calls routes that
# only 0.6.0 has (POST /api/v1/workflows/{id}/retry, GET /api/v1/workflows/{id}/events).
QUEUEFLOW_VERSION="${QUEUEFLOW_VERSION:-0.6.0}"
if [ "$(id -u)" = 0 ]; then DEFAULT_CACHE=/var/cache/potatoq-console; else DEFAULT_CACHE="${XDG_CACHE_HOME:-$HOME/.cache}/potatoq-console"; fi
CACHE="${POTATOQ_CONSOLE_CACHE:-$DEFAULT_CACHE}"
CHROOT="$CACHE/sid"
ROOT_IN=/opt/queueflow # inside the chroot
BIN_IN="$ROOT_IN/bin/queueflow"
PG_ADMIN_URL="${QUEUEFLOW_PG_ADMIN_URL:-postgresql://postgres@127.0.0.1:5432/postgres}"
START_TIMEOUT="${QUEUEFLOW_START_TIMEOUT:-60}"

say() { echo "queueflow: $*" >&2; }
die() { echo "queueflow: $*" >&2; exit 1; }
need_root() { [ "$(id -u)" = 0 ] || die "$1 needs root (chroot, mount)"; }
is_mounted() { awk -v p="$1" '$2 == p { found = 1 } END { exit !found }' /proc/mounts; }
listening() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
random_hex() { od -An -N"$1" -tx1 /dev/urandom | tr -d ' \n'; }
free_port() { python3 -c "import socket; s=socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1]); s.close()"; }

installed() { # the pinned version is in the chroot (cargo install's own record, and the binary)
  [ -x "$CHROOT$BIN_IN" ] && grep -q "^\"queueflow $QUEUEFLOW_VERSION " "$CHROOT$ROOT_IN/.crates.toml" 2>/dev/null
}

cmd_install() {
  need_root install
  installed && return 0
  mkdir -p "$CACHE"
  exec 8> "$CACHE/queueflow-install.lock"
  flock -w 3600 8 || die "waited an hour for another install ($CACHE/queueflow-install.lock)"
  installed && return 0
  [ -x "$CHROOT/usr/bin/cargo" ] || bash scripts/services.sh up rust >&2
  mkdir -p "$CHROOT$ROOT_IN"
  # The chroot's CA list is sid's; this machine reaches the crate registry through a proxy whose
  # CA only the host trusts. Hand cargo the host's bundle (a superset) for this install.
  local cainfo=()
  if [ -f /etc/ssl/certs/ca-certificates.crt ]; then
    cp /etc/ssl/certs/ca-certificates.crt "$CHROOT$ROOT_IN/host-ca.crt"
    cainfo=(--config "http.cainfo=\"$ROOT_IN/host-ca.crt\"")
  fi
  local t0=$SECONDS log="$CACHE/queueflow-install.log"
  say "cargo install --locked queueflow --version $QUEUEFLOW_VERSION (in the chroot; log: $log)"
  if ! bash scripts/cargo-sid "${cainfo[@]}" install --locked queueflow --version "$QUEUEFLOW_VERSION" --root "$ROOT_IN" > "$log" 2>&1; then
    tail -n 30 "$log" >&2
    die "cargo install failed (log: $log)"
  fi
  installed || die "cargo install finished but $CHROOT$BIN_IN is not version $QUEUEFLOW_VERSION"
  say "installed queueflow $QUEUEFLOW_VERSION in $((SECONDS - t0))s"
}

cmd_up() {
  need_root up
  cmd_install
  is_mounted "$CHROOT/proc" || mount -t proc proc "$CHROOT/proc"
  local db_url="${1:-}" created_db=""
  if [ -z "$db_url" ]; then
    created_db="qf_$(random_hex 6)"
    psql -q -v ON_ERROR_STOP=1 "$PG_ADMIN_URL" -c "CREATE DATABASE $created_db" >/dev/null || die "cannot create database $created_db on $PG_ADMIN_URL"
    db_url="${PG_ADMIN_URL%/*}/$created_db"
  fi
  local port metrics run
  port=$(free_port)
  metrics=$(free_port)
  run=$(mktemp -d "${TMPDIR:-/tmp}/queueflow-run.XXXXXX")
  chmod 700 "$run"
  # Two tenants (to see tenant scoping), a read-only key of tenant A, a JWT secret, and the worker
  # credential.
  local tok_a="qfa_$(random_hex 16)" tok_b="qfb_$(random_hex 16)" tok_ro="qfr_$(random_hex 16)" worker="qfw_$(random_hex 16)"
  local jwt_secret="qfj_$(random_hex 24)" # HS256 tenant JWTs: `sub` = tenant, `exp` required
  local tenant_a="${QUEUEFLOW_TENANT_A:-acme}" tenant_b="${QUEUEFLOW_TENANT_B:-globex}"
  # The in-process Rust workers drain only this queue (with the builtin tasks echo, log, sleep,
  # fail): a job there whose task has no builtin dead-letters as `handler_not_found`. Every
  # other queue is left to remote workers (the Python client's run_worker).
  local inproc="${QUEUEFLOW_INPROC_QUEUE:-qf_inproc}"
  echo "$db_url" > "$run/database_url"
  [ -z "$created_db" ] || echo "$created_db" > "$run/created_db"
  setsid chroot "$CHROOT" env -i PATH=/usr/bin:/bin HOME=/root LANG=C.UTF-8 RUST_LOG="${QUEUEFLOW_RUST_LOG:-info}" \
    DATABASE_URL="$db_url" QUEUEFLOW_API_KEYS="$tok_a:$tenant_a,$tok_b:$tenant_b,$tok_ro:$tenant_a:ro" \
    QUEUEFLOW_WORKER_TOKEN="$worker" QUEUEFLOW_JWT_SECRET="$jwt_secret" QUEUEFLOW_CORS_ORIGINS="http://127.0.0.1" \
    "$BIN_IN" serve --mode all --api-port "$port" --metrics-port "$metrics" --queues "$inproc" --workers 2 \
    --janitor-interval-secs 1 --max-db-connections 10 > "$run/server.log" 2>&1 < /dev/null 8>&- &
  local pid=$!
  echo "$pid" > "$run/pid"
  local deadline=$((SECONDS + START_TIMEOUT))
  until curl -fsS "http://127.0.0.1:$port/health" >/dev/null 2>&1; do
    if ! kill -0 "$pid" 2>/dev/null || [ $SECONDS -ge $deadline ]; then
      # (the log could quote a credential, e.g. in an --api-keys parse error: redact ours)
      tail -n 30 "$run/server.log" | sed -e "s/$tok_a/<token>/g; s/$tok_b/<token>/g; s/$tok_ro/<token>/g; s/$worker/<token>/g; s/$jwt_secret/<secret>/g" >&2
      local why="did not answer /health on :$port within ${START_TIMEOUT}s"
      kill -0 "$pid" 2>/dev/null || why="exited before answering /health (its log is above)"
      cmd_down "$run"
      die "queueflow serve $why"
    fi
    sleep 0.3
  done
  say "queueflow $QUEUEFLOW_VERSION serving on 127.0.0.1:$port (pid $pid, log $run/server.log)"
  if [ -n "${QUEUEFLOW_OWNER_PID:-}" ]; then
    # Detached, stdio closed: the caller reading our stdout must not wait for it.
    setsid bash "$0" reap "$QUEUEFLOW_OWNER_PID" "$run" > /dev/null 2>&1 < /dev/null 8>&- &
  fi
  cat <<EOF
QUEUEFLOW_URL=http://127.0.0.1:$port
QUEUEFLOW_VERSION=$QUEUEFLOW_VERSION
QUEUEFLOW_TOKEN=$tok_a
QUEUEFLOW_TENANT=$tenant_a
QUEUEFLOW_TOKEN_B=$tok_b
QUEUEFLOW_TENANT_B=$tenant_b
QUEUEFLOW_TOKEN_RO=$tok_ro
QUEUEFLOW_WORKER_TOKEN=$worker
QUEUEFLOW_JWT_SECRET=$jwt_secret
QUEUEFLOW_INPROC_QUEUE=$inproc
QUEUEFLOW_METRICS_URL=http://127.0.0.1:$metrics/metrics
QUEUEFLOW_DATABASE_URL=$db_url
QUEUEFLOW_PID=$pid
QUEUEFLOW_RUN_DIR=$run
EOF
}

cmd_down() {
  local run="${1:-}"
  [ -n "$run" ] && [ -d "$run" ] || die "usage: down RUN_DIR (the QUEUEFLOW_RUN_DIR that up printed)"
  if [ -f "$run/pid" ]; then
    local pid
    pid=$(cat "$run/pid")
    if kill -0 "$pid" 2>/dev/null; then
      kill -TERM "$pid" 2>/dev/null || true
      for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
      kill -0 "$pid" 2>/dev/null && kill -KILL "$pid" 2>/dev/null || true
    fi
  fi
  if [ -f "$run/created_db" ]; then
    psql -q "$PG_ADMIN_URL" -c "DROP DATABASE IF EXISTS $(cat "$run/created_db") WITH (FORCE)" >/dev/null || say "could not drop $(cat "$run/created_db")"
  fi
  rm -rf "$run"
}

# Waits for the owner to exit (or the run dir to go: a normal `down`), then stops the server.
# Also when it is told to stop itself (CI's cleanup ends what is left in the checkout).
cmd_reap() {
  local owner="$1" run="$2"
  trap '[ -d "$run" ] && cmd_down "$run"; exit 0' TERM INT
  while kill -0 "$owner" 2>/dev/null && [ -d "$run" ]; do sleep 1; done
  [ -d "$run" ] && cmd_down "$run"
  exit 0
}

cmd=${1:-}
[ $# -gt 0 ] && shift
case "$cmd" in
  install) cmd_install ;;
  up) cmd_up "$@" ;;
  down) cmd_down "$@" ;;
  reap) cmd_reap "$@" ;;
  version) echo "$QUEUEFLOW_VERSION" ;;
  *) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
esac
