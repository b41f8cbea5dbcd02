#!/usr/bin/env bash
# Creates .venv with the pinned real potatoq (the package our round-trip tests run against).
# Idempotent: reuses .venv when it already has the pinned version.
set -euo pipefail
cd "$(dirname "$0")/.."
POTATOQ_VERSION="$(cat scripts/potatoq-version)"
# Celery is a real foreign producer for the RabbitMQ forensics tests.
CELERY_VERSION=5.7.0
if [ -x .venv/bin/python ] && .venv/bin/python -c "import importlib.metadata as m, sys; sys.exit(m.version('potatoq') != '$POTATOQ_VERSION' or m.version('celery') != '$CELERY_VERSION')" 2>/dev/null; then
  exit 0
fi
python3 -m venv .venv
.venv/bin/pip install --quiet --disable-pip-version-check "potatoq[all]==$POTATOQ_VERSION" "celery==$CELERY_VERSION" 2> >(grep -v "^WARNING: Location" >&2)
.venv/bin/python -c "import potatoq, importlib.metadata as m; print('potatoq', m.version('potatoq'), 'in .venv')"
