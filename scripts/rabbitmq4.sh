#!/usr/bin/env bash
# A RabbitMQ 4.x test broker (Debian sid's rabbitmq-server) in a debootstrap chroot under
# .rabbitmq/, running beside the system RabbitMQ 3.10 without sharing any port or epmd.
#   install  build the chroot (idempotent, non-interactive, needs root)
#   start    start the node and wait until it answers; creates user potatoq/potatoq
#   stop     stop the node, its epmd, and unmount what start mounted
#   status   running or not, with the server version
#   env      print POTATOQ_TEST_RABBITMQ4_URL / POTATOQ_TEST_RABBITMQ4_MGMT
#   ctl ...  rabbitmqctl inside the chroot (e.g. ctl set_policy ...), node must be running
# Ports (override with env): AMQP 5673, management 15673, epmd 4370, distribution 25673.
set -euo pipefail
cd "$(dirname "$0")/.."
BASE="$PWD/.rabbitmq"
CHROOT="$BASE/chroot"
AMQP_PORT="${RABBITMQ4_AMQP_PORT:-5673}"
MGMT_PORT="${RABBITMQ4_MGMT_PORT:-15673}"
EPMD_PORT="${RABBITMQ4_EPMD_PORT:-4370}"
DIST_PORT="${RABBITMQ4_DIST_PORT:-25673}"
START_TIMEOUT="${RABBITMQ4_START_TIMEOUT:-120}"
SUITE="${RABBITMQ4_SUITE:-sid}"
# Only the chroot's own files: the CLI must read the same cookie as the server, so both run
# as root with the rabbitmq user's HOME.
CENV=(env -i HOME=/var/lib/rabbitmq PATH=/usr/lib/rabbitmq/bin:/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8)

die() { echo "rabbitmq4: $*" >&2; exit 1; }
need_root() { [ "$(id -u)" = 0 ] || die "$1 needs root (chroot, mount)"; }
in_chroot() { chroot "$CHROOT" "${CENV[@]}" "$@"; }
ctl() { in_chroot /usr/lib/rabbitmq/bin/rabbitmqctl -q "$@"; }
is_mounted() { awk -v p="$1" '$2 == p { found = 1 } END { exit !found }' /proc/mounts; }

mirror() {
  # Same Debian mirror as the host's apt (the only registry CI can reach).
  local m
  m="$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources 2>/dev/null \
    | grep -oE 'https?://[^ ]+/debian/?( |$)' | grep -v security | head -n1 | tr -d ' ')" || true
  echo "${m:-http://deb.debian.org/debian}"
}

mount_proc() { is_mounted "$CHROOT/proc" || mount -t proc proc "$CHROOT/proc"; }

unmount_all() {
  # Deepest first; everything under the chroot was mounted by this script.
  local p
  for p in $(awk -v b="$CHROOT/" 'index($2, b) == 1 { print $2 }' /proc/mounts | sort -r); do
    umount "$p" || umount -l "$p"
  done
}

write_config() {
  mkdir -p "$CHROOT/etc/rabbitmq"
  cat > "$CHROOT/etc/rabbitmq/rabbitmq-env.conf" <<EOF
NODENAME=rabbit4@localhost
USE_LONGNAME=false
NODE_PORT=$AMQP_PORT
DIST_PORT=$DIST_PORT
ERL_EPMD_PORT=$EPMD_PORT
ERL_EPMD_ADDRESS=127.0.0.1
SERVER_ADDITIONAL_ERL_ARGS="-kernel inet_dist_use_interface {127,0,0,1}"
EOF
  cat > "$CHROOT/etc/rabbitmq/rabbitmq.conf" <<EOF
listeners.tcp.default = 127.0.0.1:$AMQP_PORT
management.tcp.port = $MGMT_PORT
management.tcp.ip = 127.0.0.1
EOF
  echo '[rabbitmq_management].' > "$CHROOT/etc/rabbitmq/enabled_plugins"
}

cmd_install() {
  need_root install
  local t0=$SECONDS
  export DEBIAN_FRONTEND=noninteractive
  if ! command -v debootstrap >/dev/null; then
    apt-get install -y -q debootstrap >/dev/null 2>&1 \
      || { apt-get update -q >/dev/null && apt-get install -y -q debootstrap >/dev/null; } \
      || die "could not apt-get install debootstrap on the host"
  fi
  if [ -x "$CHROOT/usr/lib/rabbitmq/bin/rabbitmq-server" ] && [ -f "$BASE/installed" ]; then
    write_config
    echo "rabbitmq4: reusing $CHROOT ($(cat "$BASE/installed"))"
    return
  fi
  if [ -d "$CHROOT" ] && [ ! -f "$BASE/debootstrapped" ]; then
    unmount_all
    rm -rf --one-file-system "$CHROOT"
  fi
  mkdir -p "$BASE"
  if [ ! -f "$BASE/debootstrapped" ]; then
    echo "rabbitmq4: debootstrap $SUITE from $(mirror) (a few minutes)"
    local include=()
    case "$(mirror)" in https:*) include=(--include=ca-certificates) ;; esac
    debootstrap --variant=minbase "${include[@]}" "$SUITE" "$CHROOT" "$(mirror)" > "$BASE/debootstrap.log" 2>&1 \
      || { tail -n 20 "$BASE/debootstrap.log" >&2; die "debootstrap failed (log: $BASE/debootstrap.log)"; }
    touch "$BASE/debootstrapped"
  fi
  # sid's Release is only valid for a week; mirror snapshots are often older.
  echo 'Acquire::Check-Valid-Until "false";' > "$CHROOT/etc/apt/apt.conf.d/99no-valid-until"
  printf '#!/bin/sh\nexit 101\n' > "$CHROOT/usr/sbin/policy-rc.d"
  chmod 755 "$CHROOT/usr/sbin/policy-rc.d"
  cp /etc/hosts "$CHROOT/etc/hosts"
  cp -L /etc/resolv.conf "$CHROOT/etc/resolv.conf" 2>/dev/null || true
  write_config
  mount_proc
  trap unmount_all EXIT
  in_chroot DEBIAN_FRONTEND=noninteractive apt-get update -q > "$BASE/apt.log" 2>&1 \
    && in_chroot DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
      -o Dpkg::Options::=--force-confold rabbitmq-server >> "$BASE/apt.log" 2>&1 \
    || { tail -n 30 "$BASE/apt.log" >&2; die "apt-get install rabbitmq-server failed (log: $BASE/apt.log)"; }
  in_chroot apt-get clean
  write_config
  in_chroot dpkg-query -W -f='rabbitmq-server ${Version}' rabbitmq-server > "$BASE/installed"
  echo "rabbitmq4: installed $(cat "$BASE/installed") in $((SECONDS - t0))s"
}

pid_alive() { [ -f "$BASE/server.pid" ] && kill -0 "$(cat "$BASE/server.pid")" 2>/dev/null; }

cmd_start() {
  need_root start
  [ -f "$BASE/installed" ] || die "not installed; run: $0 install"
  if pid_alive && ctl ping >/dev/null 2>&1; then echo "rabbitmq4: already running"; return; fi
  write_config
  cp /etc/hosts "$CHROOT/etc/hosts"
  mount_proc
  setsid chroot "$CHROOT" "${CENV[@]}" /usr/lib/rabbitmq/bin/rabbitmq-server \
    > "$BASE/server.log" 2>&1 < /dev/null &
  echo $! > "$BASE/server.pid"
  local deadline=$((SECONDS + START_TIMEOUT))
  until ctl ping >/dev/null 2>&1; do
    pid_alive || { tail -n 30 "$BASE/server.log" >&2; die "node exited during startup (log: $BASE/server.log)"; }
    [ $SECONDS -lt $deadline ] || { tail -n 30 "$BASE/server.log" >&2; die "node did not answer within ${START_TIMEOUT}s"; }
    sleep 2
  done
  ctl await_startup
  # A second login besides guest (guest is loopback-only, which is enough on this host).
  ctl add_user potatoq potatoq >/dev/null 2>&1 || true
  ctl set_user_tags potatoq administrator >/dev/null
  ctl set_permissions -p / potatoq '.*' '.*' '.*' >/dev/null
  echo "rabbitmq4: running $(ctl eval 'rabbit_misc:version().' | tr -d '"') on amqp :$AMQP_PORT, management :$MGMT_PORT"
}

cmd_stop() {
  need_root stop
  if [ -d "$CHROOT/proc" ] && is_mounted "$CHROOT/proc"; then
    ctl shutdown >/dev/null 2>&1 || ctl stop >/dev/null 2>&1 || true
  fi
  if pid_alive; then
    local pid; pid="$(cat "$BASE/server.pid")"
    for _ in $(seq 1 30); do kill -0 "$pid" 2>/dev/null || break; sleep 1; done
    kill -0 "$pid" 2>/dev/null && kill -TERM -- "-$pid" 2>/dev/null || true
  fi
  rm -f "$BASE/server.pid"
  # The node started its own epmd on EPMD_PORT; only that one is ours to stop.
  if is_mounted "$CHROOT/proc"; then
    in_chroot ERL_EPMD_PORT="$EPMD_PORT" epmd -kill >/dev/null 2>&1 || true
  fi
  unmount_all
  echo "rabbitmq4: stopped"
}

cmd_status() {
  if [ ! -f "$BASE/installed" ]; then echo "rabbitmq4: not installed"; exit 3; fi
  # Without root (no chroot) the best evidence is the AMQP port answering.
  if { [ "$(id -u)" = 0 ] && pid_alive && ctl ping >/dev/null 2>&1; } \
    || { [ "$(id -u)" != 0 ] && (exec 3<>"/dev/tcp/127.0.0.1/$AMQP_PORT") 2>/dev/null; }; then
    [ "$(id -u)" = 0 ] || { echo "rabbitmq4: running (amqp :$AMQP_PORT answers)"; return; }
    echo "rabbitmq4: running $(ctl eval 'rabbit_misc:version().' | tr -d '"') ($(cat "$BASE/installed")), amqp :$AMQP_PORT, management :$MGMT_PORT"
  else
    echo "rabbitmq4: stopped ($(cat "$BASE/installed"))"; exit 3
  fi
}

cmd_env() {
  echo "POTATOQ_TEST_RABBITMQ4_URL=amqp://potatoq:potatoq@127.0.0.1:$AMQP_PORT/"
  echo "POTATOQ_TEST_RABBITMQ4_MGMT=http://127.0.0.1:$MGMT_PORT"
}

case "${1:-}" in
  install) cmd_install ;;
  start) cmd_start ;;
  stop) cmd_stop ;;
  status) cmd_status ;;
  env) cmd_env ;;
  ctl) need_root ctl; shift; ctl "$@" ;;
  *) echo "usage: $0 install|start|stop|status|env" >&2; exit 2 ;;
esac
