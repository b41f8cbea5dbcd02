#!/usr/bin/env bash
# `.venv`: the pinned real potatoq (the package our round-trip tests run against), Celery,
# QueueFlow's Python client and Flower (for the Celery benchmark).
# The virtualenv itself lives in a cache outside the checkout, keyed by the Python version and
# the pins, and `.venv` is a link to it, so fresh clones reuse it. A `.venv` that is a real
# directory (made by hand) is used as it is when it has the pinned versions.
set -euo pipefail
cd "$(dirname "$0")/.."
POTATOQ_VERSION="$(cat scripts/potatoq-version)"
# Celery (with kombu's Redis transport: packaging) is a real foreign producer for the RabbitMQ
# forensics tests and the broker of the Celery adapter's round trips on Redis and RabbitMQ.
CELERY_VERSION=5.7.0
# QueueFlow's Python client (producer and run_worker) for tests/queueflow; it talks to the server
# pinned in scripts/queueflow.sh (0.6.0, the OpenAPI version this client was generated from).
# Flower, Celery's own monitor, side by side with the console in `npm run bench:celery`.
FLOWER_VERSION=2.2.0
PINS=("potatoq[all]==$POTATOQ_VERSION" "celery[redis]==$CELERY_VERSION" "queueflow==0.5.0" "flower==$FLOWER_VERSION")

has_pins() { # python: exit 0 when it has exactly the pinned version of every pin
  "$1" - "${PINS[@]}" <<'PY' 2>/dev/null
import importlib.metadata as m, re, sys
for pin in sys.argv[1:]:
    name, version = re.fullmatch(r"([A-Za-z0-9_.-]+)(?:\[[^\]]*\])?==(.+)", pin).groups()
    if m.version(name) != version:
        sys.exit(1)
PY
}
if [ -d .venv ] && [ ! -L .venv ] && [ -x .venv/bin/python ] && has_pins .venv/bin/python; then
  exit 0
fi

if [ "$(id -u)" = 0 ]; then default_cache=/var/cache/potatoq-console; else default_cache="${XDG_CACHE_HOME:-$HOME/.cache}/potatoq-console"; fi
cache="${POTATOQ_CONSOLE_CACHE:-$default_cache}/venv"
key=$( { python3 -c 'import sys; print(sys.version)'; printf '%s\n' "${PINS[@]}"; } | sha256sum | cut -c1-16)
venv="$cache/$key"
mkdir -p "$cache"
exec 9> "$venv.lock"
flock -w 900 9 || { echo "ensure-venv: waited 15 min for $venv.lock" >&2; exit 1; }
if ! { [ -f "$venv/.complete" ] && has_pins "$venv/bin/python"; }; then
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "${PINS[@]}" 2> >(grep -v "^WARNING: Location" >&2)
  touch "$venv/.complete"
fi
if [ "$(readlink .venv 2>/dev/null)" != "$venv" ]; then
  rm -rf .venv
  ln -s "$venv" .venv
fi
.venv/bin/python -c "import potatoq, importlib.metadata as m; print('potatoq', m.version('potatoq'), 'in .venv ->', '$venv')"
