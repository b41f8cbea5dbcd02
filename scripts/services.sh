#!/usr/bin/env bash
# Every service the tests need, installed from Debian's packages and started on loopback.
#
#   up [SERVICE...]      install what is missing and start (idempotent; default: the CI set)
#   down [SERVICE...]    stop (default: every service below that is running)
#   status [SERVICE...]  one line each; exit 3 if any is not running
#   env [SERVICE...]     the variables the test suites read (only for running services)
#   install [SERVICE...] install only
#   cargo ARGS...        sid's cargo 1.97 inside the chroot (CARGO_HOME cached in the chroot)
#   rabbitmq4-ctl ARGS...  rabbitmqctl of the chroot's RabbitMQ 4 (e.g. list_queues name messages)
#
# SERVICE: postgres  PostgreSQL 15 (the machine's Debian package), database `test`, loopback
#                    trust for the `postgres` user: a TEST-MACHINE setting, never for production
#          redis     Redis 7, no persistence
#          rabbitmq3 RabbitMQ 3.10 (the machine's Debian package), management plugin enabled
#          rabbitmq4 RabbitMQ 4.3 with management, in the Debian sid chroot
#          rabbitmq4b a second RabbitMQ 4.3 node (same package; its own ports, name and data)
#                    for benchmarks that flood a broker (thousands of quorum queues); never in
#                    CI's set, and `down` removes its data
#          mysql     MySQL 9.x (sid's mysql-server), in the chroot, database and user `test`
#          valkey    Valkey 9.x (sid's valkey-server), in the chroot, no persistence
#          rust      rustc/cargo 1.97 (sid's), in the chroot; nothing to start
#
# The chroot and the services' data live in a cache outside any checkout
# ($POTATOQ_CONSOLE_CACHE, default /var/cache/potatoq-console as root), so fresh clones reuse
# them. Chroot services take their default ports when free and other free ports when not;
# the ports are recorded in the cache and kept across restarts. `up` appends the names of the
# services it actually started to $POTATOQ_SERVICES_LEDGER when that is set, so whoever set it
# (.ci/run) can stop exactly those again.
set -euo pipefail
cd "$(dirname "$0")/.."

CI_SET=(postgres redis rabbitmq3 rabbitmq4)
ALL=(postgres redis rabbitmq3 rabbitmq4 rabbitmq4b mysql valkey rust)
if [ "$(id -u)" = 0 ]; then DEFAULT_CACHE=/var/cache/potatoq-console; else DEFAULT_CACHE="${XDG_CACHE_HOME:-$HOME/.cache}/potatoq-console"; fi
CACHE="${POTATOQ_CONSOLE_CACHE:-$DEFAULT_CACHE}"
CHROOT="$CACHE/sid"
RUN="$CACHE/run"
SUITE="${POTATOQ_CHROOT_SUITE:-sid}"
PG_PORT="${POTATOQ_PG_PORT:-5432}"
REDIS_PORT="${POTATOQ_REDIS_PORT:-6379}"
START_TIMEOUT="${POTATOQ_SERVICE_TIMEOUT:-120}"
# Only the chroot's own files; both the server and its CLI run as root with HOME set so they
# read the same Erlang cookie.
CENV=(env -i HOME=/var/lib/rabbitmq PATH=/usr/lib/rabbitmq/bin:/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8)
export DEBIAN_FRONTEND=noninteractive

say() { echo "services: $*" >&2; }
die() { echo "services: $*" >&2; exit 1; }
need_root() { [ "$(id -u)" = 0 ] || die "$1 needs root (apt-get, chroot, mount)"; }
listening() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
holder() {
  local h
  h=$(ss -Hltnp "sport = :$1" 2>/dev/null | grep -oE 'users:\(\("[^"]+",pid=[0-9]+' | head -n1 | sed -E 's/users:\(\("([^"]+)",pid=([0-9]+)/pid \2 (\1)/')
  echo "${h:-an unknown process}"
}
wait_for() { # seconds, description, command...
  local secs=$1 what=$2 deadline
  shift 2
  deadline=$((SECONDS + secs))
  until "$@" >/dev/null 2>&1; do
    [ $SECONDS -lt $deadline ] || return 1
    sleep 1
  done
}
record_started() { [ -z "${POTATOQ_SERVICES_LEDGER:-}" ] || echo "$1" >> "$POTATOQ_SERVICES_LEDGER"; }

apt_updated=0
apt_install() { # packages...: installs the missing ones from Debian's packages
  local missing=() p
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ "${#missing[@]}" -gt 0 ] || return 0
  need_root "installing ${missing[*]}"
  say "apt-get install ${missing[*]}"
  if [ $apt_updated = 0 ]; then apt-get update -qq; apt_updated=1; fi
  apt-get install -y -qq --no-install-recommends -o Dpkg::Options::=--force-confold "${missing[@]}" >/dev/null
}

# --- ports of the chroot services -------------------------------------------------------
# A port recorded by an earlier start is kept (clients hold URLs across a restart); a default
# port held by another program is replaced by a free one.
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
port_of() { # name default: the recorded port, else the default if free, else a free one
  local f="$RUN/ports/$1" p
  mkdir -p "$RUN/ports"
  if [ -f "$f" ]; then cat "$f"; return; fi
  p=$2
  if listening "$p"; then
    say "port $p (default for $1) is held by $(holder "$p"); using a free one"
    p=$(free_port)
  fi
  echo "$p" > "$f"
  echo "$p"
}
claim_port() { # name port: refuse to start on a port another program holds, naming it
  listening "$2" && die "$1: port $2 is held by $(holder "$2"); stop it or remove $RUN/ports to pick new ports"
  return 0
}

# --- postgres ------------------------------------------------------------------------
pg_version() { ls /usr/lib/postgresql 2>/dev/null | sort -V | tail -n1; }
pg_conf() { echo "/etc/postgresql/$(pg_version)/main"; }
postgres_install() {
  apt_install postgresql
  local v; v=$(pg_version)
  [ -n "$v" ] || die "postgres: no server under /usr/lib/postgresql after installing"
  [ -d "$(pg_conf)" ] || pg_createcluster "$v" main --port "$PG_PORT" >/dev/null
  local hba; hba="$(pg_conf)/pg_hba.conf"
  if ! grep -q 'potatoq-console: test machine' "$hba"; then
    # First matching line wins: the trust lines go first. Only loopback, only user postgres.
    local tmp; tmp=$(mktemp)
    { echo "# potatoq-console: test machine only: loopback trust for the test user"
      echo "host    all    postgres    127.0.0.1/32    trust"
      echo "host    all    postgres    ::1/128         trust"
      cat "$hba"; } > "$tmp"
    cat "$tmp" > "$hba"
    rm -f "$tmp"
    pg_running && pg_ctlcluster --skip-systemctl-redirect "$(pg_version)" main reload
  fi
  return 0
}
postgres_running() { pg_running; }
pg_running() { pg_isready -q -h 127.0.0.1 -p "$PG_PORT" 2>/dev/null; }
postgres_up() {
  if ! pg_running; then
    claim_port postgres "$PG_PORT"
    pg_ctlcluster --skip-systemctl-redirect "$(pg_version)" main start 9>&-
    wait_for "$START_TIMEOUT" postgres pg_running || die "postgres did not answer on :$PG_PORT"
    record_started postgres
    say "postgres $(pg_version) started on :$PG_PORT"
  fi
  psql -h 127.0.0.1 -p "$PG_PORT" -U postgres -Atc "SELECT 1 FROM pg_database WHERE datname = 'test'" | grep -q 1 \
    || createdb -h 127.0.0.1 -p "$PG_PORT" -U postgres test
}
postgres_down() { pg_running && pg_ctlcluster --skip-systemctl-redirect "$(pg_version)" main stop -m fast; return 0; }
postgres_status() { pg_running && echo "postgres: running $(psql -h 127.0.0.1 -p "$PG_PORT" -U postgres -Atc 'SHOW server_version' 2>/dev/null) on :$PG_PORT"; }
postgres_env() { echo "POTATOQ_CONSOLE_TEST_PG_URL=postgresql://postgres@127.0.0.1:$PG_PORT/test"; }

# --- redis ---------------------------------------------------------------------------
redis_install() { apt_install redis-server redis-tools; }
redis_running() { [ "$(timeout 3 redis-cli -h 127.0.0.1 -p "$REDIS_PORT" ping 2>/dev/null)" = PONG ]; }
redis_up() {
  redis_running && return 0
  claim_port redis "$REDIS_PORT"
  mkdir -p "$RUN/redis"
  redis-server --daemonize yes --bind 127.0.0.1 -::1 --port "$REDIS_PORT" --save "" --appendonly no \
    --dir "$RUN/redis" --pidfile "$RUN/redis/redis.pid" --logfile "$RUN/redis/redis.log" 9>&-
  wait_for 30 redis redis_running || die "redis did not answer on :$REDIS_PORT (log: $RUN/redis/redis.log)"
  record_started redis
  say "redis $(redis-server --version | grep -oE 'v=[0-9.]+' | cut -c3-) started on :$REDIS_PORT"
}
redis_down() { redis_running && redis-cli -h 127.0.0.1 -p "$REDIS_PORT" shutdown nosave >/dev/null 2>&1; return 0; }
redis_status() { redis_running && echo "redis: running $(redis-cli -h 127.0.0.1 -p "$REDIS_PORT" info server | grep -oE 'redis_version:[0-9.]+' | cut -d: -f2) on :$REDIS_PORT"; }
redis_env() { echo "POTATOQ_TEST_REDIS_URL=redis://127.0.0.1:$REDIS_PORT/0"; }

# --- rabbitmq3 (the machine's) -------------------------------------------------------------
rabbitmq3_install() {
  apt_install rabbitmq-server
  # "Available": enabled offline, so it is there the first time the node boots.
  grep -q rabbitmq_management /etc/rabbitmq/enabled_plugins 2>/dev/null \
    || rabbitmq-plugins enable --offline rabbitmq_management >/dev/null
}
# The CLI waits 60 s for a node that is not there: look at the port first.
rabbitmq3_running() { listening 5672 && timeout 20 rabbitmq-diagnostics -q ping >/dev/null 2>&1; }
rabbitmq3_up() {
  rabbitmq3_running && return 0
  claim_port rabbitmq3 5672
  rabbitmq-server -detached 9>&-
  wait_for "$START_TIMEOUT" rabbitmq3 rabbitmq3_running || die "RabbitMQ 3 did not answer on :5672 (logs: /var/log/rabbitmq)"
  timeout 60 rabbitmqctl -q await_startup
  record_started rabbitmq3
  say "rabbitmq3 $(rabbitmq3_version) started on :5672 (management :15672)"
}
rabbitmq3_version() { timeout 10 rabbitmqctl -q eval 'rabbit_misc:version().' 2>/dev/null | tr -d '"'; }
rabbitmq3_down() {
  if listening 5672; then timeout 60 rabbitmqctl -q stop >/dev/null 2>&1 || true; fi
  # The node started the machine's epmd (4369) and leaves it behind; epmd refuses to die while
  # another Erlang node still uses it, so this only ends an idle one.
  if listening 4369; then epmd -kill >/dev/null 2>&1 || true; fi
  return 0
}
rabbitmq3_status() { rabbitmq3_running && echo "rabbitmq3: running $(rabbitmq3_version) on :5672, management :15672"; }
rabbitmq3_env() { echo "POTATOQ_TEST_RABBITMQ3_URL=amqp://guest:guest@127.0.0.1:5672/"; echo "POTATOQ_TEST_RABBITMQ3_MGMT=http://127.0.0.1:15672"; }

# --- the sid chroot --------------------------------------------------------------------
is_mounted() { awk -v p="$1" '$2 == p { found = 1 } END { exit !found }' /proc/mounts; }
mount_proc() { is_mounted "$CHROOT/proc" || mount -t proc proc "$CHROOT/proc"; }
in_chroot() { chroot "$CHROOT" "${CENV[@]}" "$@"; }
mirror() {
  # The host's own Debian mirror: the only package source this machine (and CI) reaches.
  local m
  m="$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources 2>/dev/null \
    | grep -oE 'https?://[^ ]+/debian/?( |$)' | grep -v security | head -n1 | tr -d ' ')" || true
  [ -n "$m" ] || die "no Debian mirror found in /etc/apt/sources.list* for debootstrap"
  echo "$m"
}
chroot_ready() { [ -f "$CACHE/sid.debootstrapped" ]; }
chroot_base() {
  need_root "the sid chroot"
  chroot_ready && { mount_proc; return 0; }
  apt_install debootstrap
  mkdir -p "$CACHE"
  if [ -d "$CHROOT" ]; then # a half-made chroot from an interrupted run
    is_mounted "$CHROOT/proc" && umount "$CHROOT/proc"
    rm -rf --one-file-system "$CHROOT"
  fi
  say "debootstrap $SUITE into $CHROOT (a few minutes, once per machine)"
  local include=()
  case "$(mirror)" in https:*) include=(--include=ca-certificates) ;; esac
  debootstrap --variant=minbase "${include[@]}" "$SUITE" "$CHROOT" "$(mirror)" > "$CACHE/debootstrap.log" 2>&1 \
    || { tail -n 20 "$CACHE/debootstrap.log" >&2; die "debootstrap failed (log: $CACHE/debootstrap.log)"; }
  # sid's Release is valid for a week only; mirror snapshots are often older.
  echo 'Acquire::Check-Valid-Until "false";' > "$CHROOT/etc/apt/apt.conf.d/99no-valid-until"
  printf '#!/bin/sh\nexit 101\n' > "$CHROOT/usr/sbin/policy-rc.d" # packages never start daemons
  chmod 755 "$CHROOT/usr/sbin/policy-rc.d"
  touch "$CACHE/sid.debootstrapped"
  mount_proc
}
chroot_apt() { # packages...: installs the missing ones inside the chroot
  chroot_base
  local missing=() p
  for p in "$@"; do
    in_chroot dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ "${#missing[@]}" -gt 0 ] || return 0
  cp /etc/hosts "$CHROOT/etc/hosts"
  cp -L /etc/resolv.conf "$CHROOT/etc/resolv.conf" 2>/dev/null || true
  say "chroot: apt-get install ${missing[*]}"
  { in_chroot DEBIAN_FRONTEND=noninteractive apt-get update -q \
      && in_chroot DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
        -o Dpkg::Options::=--force-confold "${missing[@]}" \
      && in_chroot apt-get clean; } > "$CACHE/chroot-apt.log" 2>&1 \
    || { tail -n 30 "$CACHE/chroot-apt.log" >&2; die "chroot: apt-get install ${missing[*]} failed (log: $CACHE/chroot-apt.log)"; }
}
# The chroot's /proc stays mounted only while one of its services runs.
chroot_release() {
  rabbitmq4_alive || rabbitmq4b_alive || mysql_alive || valkey_alive || { is_mounted "$CHROOT/proc" && umount "$CHROOT/proc" 2>/dev/null || umount -l "$CHROOT/proc" 2>/dev/null; }
  return 0
}

# Shared by the chroot's RabbitMQ nodes (rabbitmq4, rabbitmq4b). NAME is the service; CTL its
# rabbitmqctl function; the node's ports are claimed and its config written by the caller.
rabbit_node_claim() { # NAME EPMD_PORT OTHER_PORTS...
  local name=$1 epmd=$2 p
  # An epmd left by an earlier node of ours would hold its port: ours to stop.
  listening "$epmd" && in_chroot ERL_EPMD_PORT="$epmd" epmd -kill >/dev/null 2>&1 && sleep 1
  for p in "${@:2}"; do claim_port "$name" "$p"; done
}
rabbit_node_config() { # DIR NODENAME AMQP MGMT EPMD DIST [ENV_LINE...]: the node's three files
  local dir=$1 line
  mkdir -p "$dir"
  {
    cat <<EOF
NODENAME=$2
USE_LONGNAME=false
NODE_PORT=$3
DIST_PORT=$6
ERL_EPMD_PORT=$5
ERL_EPMD_ADDRESS=127.0.0.1
SERVER_ADDITIONAL_ERL_ARGS="-kernel inet_dist_use_interface {127,0,0,1}"
EOF
    for line in "${@:7}"; do echo "$line"; done
  } > "$dir/rabbitmq-env.conf"
  cat > "$dir/rabbitmq.conf" <<EOF
listeners.tcp.default = 127.0.0.1:$3
management.tcp.port = $4
management.tcp.ip = 127.0.0.1
EOF
  echo '[rabbitmq_management].' > "$dir/enabled_plugins"
}
rabbit_node_start() { # NAME CTL ENV...: starts rabbitmq-server with ENV, waits, adds the login
  local name=$1 ctl=$2
  shift 2
  cp /etc/hosts "$CHROOT/etc/hosts"
  mount_proc
  mkdir -p "$RUN"
  setsid chroot "$CHROOT" "${CENV[@]}" "$@" /usr/lib/rabbitmq/bin/rabbitmq-server > "$RUN/$name.log" 2>&1 < /dev/null 9>&- &
  echo $! > "$RUN/$name.pid"
  local deadline=$((SECONDS + START_TIMEOUT))
  until "$ctl" ping >/dev/null 2>&1; do
    "${name}_alive" || { tail -n 30 "$RUN/$name.log" >&2; die "$name exited during startup (log: $RUN/$name.log)"; }
    [ $SECONDS -lt $deadline ] || { tail -n 30 "$RUN/$name.log" >&2; die "$name did not answer within ${START_TIMEOUT}s"; }
    sleep 2
  done
  "$ctl" await_startup
  # A login besides guest (guest is loopback-only, which is enough here).
  "$ctl" add_user potatoq potatoq >/dev/null 2>&1 || true
  "$ctl" set_user_tags potatoq administrator >/dev/null
  "$ctl" set_permissions -p / potatoq '.*' '.*' '.*' >/dev/null
  record_started "$name"
}
rabbit_node_stop() { # NAME CTL EPMD_PORT
  local name=$1 ctl=$2 epmd=$3 pid
  if "${name}_alive"; then
    pid=$(cat "$RUN/$name.pid")
    mount_proc
    "$ctl" shutdown >/dev/null 2>&1 || "$ctl" stop >/dev/null 2>&1 || true
    for _ in $(seq 1 30); do kill -0 "$pid" 2>/dev/null || break; sleep 1; done
    kill -0 "$pid" 2>/dev/null && kill -TERM -- "-$pid" 2>/dev/null || true
  fi
  rm -f "$RUN/$name.pid"
  # The node started its own epmd on its own port: only that one is ours to stop.
  if [ -d "$CHROOT/proc" ] && listening "$epmd"; then
    mount_proc
    in_chroot ERL_EPMD_PORT="$epmd" epmd -kill >/dev/null 2>&1 || true
  fi
}

# --- rabbitmq4 (chroot) ----------------------------------------------------------------------
r4_ports() {
  R4_AMQP=$(port_of rabbitmq4-amqp "${RABBITMQ4_AMQP_PORT:-5673}")
  R4_MGMT=$(port_of rabbitmq4-mgmt "${RABBITMQ4_MGMT_PORT:-15673}")
  R4_EPMD=$(port_of rabbitmq4-epmd "${RABBITMQ4_EPMD_PORT:-4370}")
  R4_DIST=$(port_of rabbitmq4-dist "${RABBITMQ4_DIST_PORT:-25673}")
}
r4_ctl() { in_chroot /usr/lib/rabbitmq/bin/rabbitmqctl -q "$@"; }
rabbitmq4_alive() { [ -f "$RUN/rabbitmq4.pid" ] && kill -0 "$(cat "$RUN/rabbitmq4.pid")" 2>/dev/null; }
rabbitmq4_running() { r4_ports; rabbitmq4_alive && listening "$R4_AMQP"; }
rabbitmq4_install() { chroot_apt rabbitmq-server; }
r4_config() { rabbit_node_config "$CHROOT/etc/rabbitmq" rabbit4@localhost "$R4_AMQP" "$R4_MGMT" "$R4_EPMD" "$R4_DIST"; }
rabbitmq4_up() {
  rabbitmq4_install
  r4_ports
  if rabbitmq4_alive && r4_ctl ping >/dev/null 2>&1; then return 0; fi
  rabbit_node_claim rabbitmq4 "$R4_EPMD" "$R4_AMQP" "$R4_MGMT" "$R4_DIST"
  r4_config
  rabbit_node_start rabbitmq4 r4_ctl
  say "rabbitmq4 $(r4_ctl eval 'rabbit_misc:version().' | tr -d '"') started on amqp :$R4_AMQP, management :$R4_MGMT"
}
rabbitmq4_down() {
  [ -f "$CACHE/sid.debootstrapped" ] || return 0
  r4_ports
  rabbit_node_stop rabbitmq4 r4_ctl "$R4_EPMD"
  chroot_release
}
rabbitmq4_status() { rabbitmq4_running && echo "rabbitmq4: running $(r4_ctl eval 'rabbit_misc:version().' 2>/dev/null | tr -d '"') on amqp :$R4_AMQP, management :$R4_MGMT"; }
rabbitmq4_env() {
  r4_ports
  echo "POTATOQ_TEST_RABBITMQ4_URL=amqp://potatoq:potatoq@127.0.0.1:$R4_AMQP/"
  echo "POTATOQ_TEST_RABBITMQ4_MGMT=http://127.0.0.1:$R4_MGMT"
}

# --- rabbitmq4b (chroot): a node of its own for benchmarks ------------------------------------
R4B_ENV=/etc/rabbitmq-bench/rabbitmq-env.conf # inside the chroot
R4B_DATA=/var/lib/rabbitmq-bench
r4b_ports() {
  R4B_AMQP=$(port_of rabbitmq4b-amqp "${RABBITMQ4B_AMQP_PORT:-5674}")
  R4B_MGMT=$(port_of rabbitmq4b-mgmt "${RABBITMQ4B_MGMT_PORT:-15674}")
  R4B_EPMD=$(port_of rabbitmq4b-epmd "${RABBITMQ4B_EPMD_PORT:-4371}")
  R4B_DIST=$(port_of rabbitmq4b-dist "${RABBITMQ4B_DIST_PORT:-25674}")
}
r4b_ctl() { in_chroot RABBITMQ_CONF_ENV_FILE="$R4B_ENV" /usr/lib/rabbitmq/bin/rabbitmqctl -q "$@"; }
rabbitmq4b_alive() { [ -f "$RUN/rabbitmq4b.pid" ] && kill -0 "$(cat "$RUN/rabbitmq4b.pid")" 2>/dev/null; }
rabbitmq4b_running() { r4b_ports; rabbitmq4b_alive && listening "$R4B_AMQP"; }
rabbitmq4b_install() { chroot_apt rabbitmq-server; }
r4b_config() {
  mkdir -p "$CHROOT$R4B_DATA"
  rabbit_node_config "$CHROOT/etc/rabbitmq-bench" rabbitbench@localhost "$R4B_AMQP" "$R4B_MGMT" "$R4B_EPMD" "$R4B_DIST" \
    CONFIG_FILE=/etc/rabbitmq-bench/rabbitmq.conf ENABLED_PLUGINS_FILE=/etc/rabbitmq-bench/enabled_plugins \
    "MNESIA_BASE=$R4B_DATA/mnesia" "LOG_BASE=$R4B_DATA/log"
}
rabbitmq4b_up() {
  rabbitmq4b_install
  r4b_ports
  if rabbitmq4b_alive && r4b_ctl ping >/dev/null 2>&1; then return 0; fi
  rabbit_node_claim rabbitmq4b "$R4B_EPMD" "$R4B_AMQP" "$R4B_MGMT" "$R4B_DIST"
  r4b_config
  rabbit_node_start rabbitmq4b r4b_ctl RABBITMQ_CONF_ENV_FILE="$R4B_ENV"
  say "rabbitmq4b $(r4b_ctl eval 'rabbit_misc:version().' | tr -d '"') started on amqp :$R4B_AMQP, management :$R4B_MGMT (a node of its own)"
}
rabbitmq4b_down() {
  [ -f "$CACHE/sid.debootstrapped" ] || return 0
  r4b_ports
  rabbit_node_stop rabbitmq4b r4b_ctl "$R4B_EPMD"
  # A benchmark's thousands of queues are not worth keeping: the next start is a clean node.
  rm -rf "${CHROOT:?}$R4B_DATA"
  chroot_release
}
rabbitmq4b_status() { rabbitmq4b_running && echo "rabbitmq4b: running $(r4b_ctl eval 'rabbit_misc:version().' 2>/dev/null | tr -d '"') on amqp :$R4B_AMQP, management :$R4B_MGMT"; }
rabbitmq4b_env() {
  r4b_ports
  echo "POTATOQ_BENCH_RABBITMQ4_URL=amqp://potatoq:potatoq@127.0.0.1:$R4B_AMQP/"
  echo "POTATOQ_BENCH_RABBITMQ4_MGMT=http://127.0.0.1:$R4B_MGMT"
}

# --- mysql (chroot) --------------------------------------------------------------------------
MYSQL_DATA=/var/lib/potatoq-mysql # inside the chroot; our own datadir, not the package's
mysql_alive() { [ -f "$RUN/mysql.pid" ] && kill -0 "$(cat "$RUN/mysql.pid")" 2>/dev/null; }
mysql_port() { MY_PORT=$(port_of mysql "${POTATOQ_MYSQL_PORT:-3307}"); }
mysql_cli() { in_chroot mysql --protocol=socket --socket=/run/mysqld/potatoq.sock -uroot "$@"; }
mysql_running() { mysql_port; mysql_alive && listening "$MY_PORT"; }
mysql_install() { chroot_apt mysql-server mysql-client; }
mysql_up() {
  mysql_install
  mysql_port
  mysql_alive && mysql_cli -e 'SELECT 1' >/dev/null 2>&1 && return 0
  claim_port mysql "$MY_PORT"
  mount_proc
  mkdir -p "$CHROOT/run/mysqld" "$CHROOT/var/log/mysql"
  in_chroot chown mysql:mysql /run/mysqld /var/log/mysql
  if [ ! -d "$CHROOT$MYSQL_DATA/mysql" ]; then
    rm -rf "${CHROOT:?}$MYSQL_DATA"
    in_chroot mysqld --no-defaults --initialize-insecure --user=mysql --datadir="$MYSQL_DATA" > "$RUN/mysql-init.log" 2>&1 \
      || { tail -n 20 "$RUN/mysql-init.log" >&2; die "mysql: --initialize failed (log: $RUN/mysql-init.log)"; }
  fi
  mkdir -p "$RUN"
  setsid chroot "$CHROOT" "${CENV[@]}" /usr/sbin/mysqld --no-defaults --user=mysql --datadir="$MYSQL_DATA" \
    --bind-address=127.0.0.1 --port="$MY_PORT" --socket=/run/mysqld/potatoq.sock --mysqlx=OFF \
    --skip-log-bin --innodb-buffer-pool-size=256M --log-error=/var/log/mysql/potatoq.log \
    > "$RUN/mysql.log" 2>&1 < /dev/null 9>&- &
  echo $! > "$RUN/mysql.pid"
  local deadline=$((SECONDS + START_TIMEOUT))
  until mysql_cli -e 'SELECT 1' >/dev/null 2>&1; do
    mysql_alive || { tail -n 30 "$CHROOT/var/log/mysql/potatoq.log" >&2; die "mysql exited during startup (log: $CHROOT/var/log/mysql/potatoq.log)"; }
    [ $SECONDS -lt $deadline ] || die "mysql did not answer within ${START_TIMEOUT}s"
    sleep 1
  done
  mysql_cli -e "CREATE DATABASE IF NOT EXISTS test; CREATE USER IF NOT EXISTS 'test'@'127.0.0.1' IDENTIFIED BY 'test';
    CREATE USER IF NOT EXISTS 'test'@'localhost' IDENTIFIED BY 'test'; GRANT ALL ON *.* TO 'test'@'127.0.0.1' WITH GRANT OPTION;
    GRANT ALL ON *.* TO 'test'@'localhost' WITH GRANT OPTION;"
  record_started mysql
  say "mysql $(mysql_cli -Nse 'SELECT VERSION()') started on :$MY_PORT"
}
mysql_down() {
  mysql_alive || { rm -f "$RUN/mysql.pid"; [ -f "$CACHE/sid.debootstrapped" ] && chroot_release; return 0; }
  local pid; pid=$(cat "$RUN/mysql.pid")
  kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq 1 60); do kill -0 "$pid" 2>/dev/null || break; sleep 1; done
  kill -KILL -- "-$pid" 2>/dev/null || true
  rm -f "$RUN/mysql.pid"
  chroot_release
}
mysql_status() { mysql_running && echo "mysql: running $(mysql_cli -Nse 'SELECT VERSION()' 2>/dev/null) on :$MY_PORT"; }
mysql_env() { mysql_port; echo "POTATOQ_TEST_MYSQL_URL=mysql://test:test@127.0.0.1:$MY_PORT/test"; }

# --- valkey (chroot) -------------------------------------------------------------------------
VALKEY_DATA=/var/lib/potatoq-valkey # inside the chroot; nothing is written there (no RDB, no AOF)
valkey_alive() { [ -f "$RUN/valkey.pid" ] && kill -0 "$(cat "$RUN/valkey.pid")" 2>/dev/null; }
valkey_port() { VK_PORT=$(port_of valkey "${POTATOQ_VALKEY_PORT:-6380}"); }
valkey_cli() { in_chroot valkey-cli -h 127.0.0.1 -p "$VK_PORT" "$@"; }
valkey_pong() { [ "$(timeout 3 chroot "$CHROOT" "${CENV[@]}" valkey-cli -h 127.0.0.1 -p "$VK_PORT" ping 2>/dev/null)" = PONG ]; }
valkey_running() { valkey_port; valkey_alive && listening "$VK_PORT"; }
valkey_version() { valkey_cli info server 2>/dev/null | grep -oE 'valkey_version:[0-9.]+' | cut -d: -f2; }
valkey_install() { chroot_apt valkey-server; }
valkey_up() {
  valkey_install
  valkey_port
  valkey_alive && valkey_pong && return 0
  claim_port valkey "$VK_PORT"
  mount_proc
  mkdir -p "$CHROOT$VALKEY_DATA" "$RUN"
  setsid chroot "$CHROOT" "${CENV[@]}" /usr/bin/valkey-server --bind 127.0.0.1 --port "$VK_PORT" --save "" \
    --appendonly no --dir "$VALKEY_DATA" --daemonize no --logfile "" > "$RUN/valkey.log" 2>&1 < /dev/null 9>&- &
  echo $! > "$RUN/valkey.pid"
  local deadline=$((SECONDS + 30))
  until valkey_pong; do
    valkey_alive || { tail -n 30 "$RUN/valkey.log" >&2; die "valkey exited during startup (log: $RUN/valkey.log)"; }
    [ $SECONDS -lt $deadline ] || die "valkey did not answer on :$VK_PORT within 30s (log: $RUN/valkey.log)"
    sleep 1
  done
  record_started valkey
  say "valkey $(valkey_version) started on :$VK_PORT"
}
valkey_down() {
  valkey_alive || { rm -f "$RUN/valkey.pid"; [ -f "$CACHE/sid.debootstrapped" ] && chroot_release; return 0; }
  local pid; pid=$(cat "$RUN/valkey.pid")
  valkey_port
  valkey_cli shutdown nosave >/dev/null 2>&1 || kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq 1 30); do kill -0 "$pid" 2>/dev/null || break; sleep 1; done
  kill -KILL -- "-$pid" 2>/dev/null || true
  rm -f "$RUN/valkey.pid"
  chroot_release
}
valkey_status() { valkey_running && echo "valkey: running $(valkey_version) on :$VK_PORT"; }
valkey_env() { valkey_port; echo "POTATOQ_TEST_VALKEY_URL=valkey://127.0.0.1:$VK_PORT/0"; }

# --- rust (chroot) ---------------------------------------------------------------------------
rust_install() { chroot_apt rustc cargo gcc libc6-dev pkg-config libssl-dev ca-certificates; }
rust_up() { rust_install; }
rust_running() { [ -x "$CHROOT/usr/bin/cargo" ]; }
rust_down() { return 0; }
rust_status() { rust_running && echo "rust: $(chroot "$CHROOT" /usr/bin/cargo --version 2>/dev/null) in the chroot (scripts/cargo-sid ...)"; }
rust_env() { echo "POTATOQ_TEST_CARGO=$PWD/scripts/cargo-sid"; }
cmd_cargo() {
  need_root cargo
  rust_running || die "rust is not installed: scripts/services.sh up rust"
  mount_proc
  # Build outputs and the crate cache stay in the chroot, so they survive fresh clones. The
  # registry may be reached through a proxy only the host's CA bundle trusts: cargo gets it.
  local rc=0
  cp -L /etc/ssl/certs/ca-certificates.crt "$CHROOT/etc/ssl/host-ca.crt" 2>/dev/null || true
  chroot "$CHROOT" env -i HOME=/root PATH=/usr/local/cargo/bin:/usr/bin:/bin CARGO_HOME=/var/cache/cargo \
    CARGO_TARGET_DIR=/var/cache/cargo-target CARGO_HTTP_CAINFO=/etc/ssl/host-ca.crt LANG=C.UTF-8 cargo "$@" || rc=$?
  chroot_release
  return $rc
}

# --- dispatch --------------------------------------------------------------------------------
valid() { local s; for s in "${ALL[@]}"; do [ "$s" = "$1" ] && return 0; done; return 1; }
pick() { # default set, args... -> SERVICES
  local def=$1; shift
  if [ $# -eq 0 ]; then
    if [ "$def" = ci ]; then SERVICES=("${CI_SET[@]}"); else SERVICES=("${ALL[@]}"); fi
  else
    SERVICES=("$@")
  fi
  local s
  for s in "${SERVICES[@]}"; do valid "$s" || die "unknown service '$s' (one of: ${ALL[*]})"; done
}
locked() { # serialises installs and starts across concurrent runs on one machine (every
  # daemon is started with fd 9 closed, or it would hold the lock for as long as it runs)
  mkdir -p "$CACHE"
  exec 9> "$CACHE/.lock"
  flock -w 1800 9 || die "waited 30 min for another services.sh ($CACHE/.lock)"
}

cmd=${1:-}
[ $# -gt 0 ] && shift
case "$cmd" in
  up)
    pick ci "$@"; locked
    for s in "${SERVICES[@]}"; do t0=$SECONDS; "${s}_install"; "${s}_up"; say "$s ready ($((SECONDS - t0))s)"; done ;;
  install)
    pick ci "$@"; locked
    for s in "${SERVICES[@]}"; do "${s}_install"; done ;;
  down)
    pick all "$@"
    for s in "${SERVICES[@]}"; do "${s}_down"; done ;;
  status)
    pick all "$@"; rc=0
    for s in "${SERVICES[@]}"; do "${s}_status" 2>/dev/null || { echo "$s: not running"; rc=3; }; done
    exit $rc ;;
  env)
    pick all "$@"
    for s in "${SERVICES[@]}"; do if "${s}_running" 2>/dev/null; then "${s}_env"; fi; done ;;
  cargo) cmd_cargo "$@" ;;
  rabbitmq4-ctl) need_root rabbitmq4-ctl; rabbitmq4_alive || die "rabbitmq4 is not running"; mount_proc; r4_ctl "$@" ;;
  *) sed -n '2,26p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
esac
