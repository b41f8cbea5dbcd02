#!/usr/bin/env bash
# Schemathesis (from PyPI, pinned) in its own virtualenv in the services cache, never in .venv.
#   scripts/schemathesis.sh ensure      create it when missing; print the binary's path
#   scripts/schemathesis.sh path        print the binary's path (exit 1 when not installed)
#   scripts/schemathesis.sh run ARGS    `schemathesis run ARGS` (ensures first)
# e2e/schemathesis.spec.ts runs it against a live console.
set -euo pipefail
SCHEMATHESIS_VERSION=4.32.5
if [ "$(id -u)" = 0 ]; then default_cache=/var/cache/potatoq-console; else default_cache="${XDG_CACHE_HOME:-$HOME/.cache}/potatoq-console"; fi
key=$( { python3 -c 'import sys; print(sys.version)'; echo "schemathesis==$SCHEMATHESIS_VERSION"; } | sha256sum | cut -c1-16)
venv="${POTATOQ_CONSOLE_CACHE:-$default_cache}/schemathesis/$key"
bin="$venv/bin/schemathesis"

ensure() {
  mkdir -p "$(dirname "$venv")"
  exec 9> "$venv.lock"
  flock -w 600 9 || { echo "schemathesis.sh: waited 10 min for $venv.lock" >&2; exit 1; }
  if [ ! -f "$venv/.complete" ]; then
    rm -rf "$venv"
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check "schemathesis==$SCHEMATHESIS_VERSION" 2> >(grep -v "^WARNING: Location" >&2)
    touch "$venv/.complete"
  fi
  exec 9>&-
}

case "${1:-}" in
  ensure) ensure; echo "$bin" ;;
  path) [ -f "$venv/.complete" ] && echo "$bin" || exit 1 ;;
  run) shift; ensure; exec "$bin" run "$@" ;;
  *) echo "usage: $0 ensure|path|run ARGS" >&2; exit 2 ;;
esac
