"""Tasks for the console's task-family tests: a chord with one failing part and a chain.
`fam.flaky` fails until FAM_OUT/<task id>.ok exists, so a replay can succeed."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from potatoq import Potatoq

app = Potatoq("fam", broker=os.environ["RT_BROKER"])
# PostgreSQL: the test's own schema and table prefix (as rt_pg_tasks.py takes them).
app.conf.broker_transport_options = json.loads(os.environ.get("PQ_PG_OPTIONS") or "{}")
if os.environ.get("FAM_RESULT_BACKEND"):
    # Redis stores results (and so chords) only with an explicit result_backend.
    app.conf.result_backend = os.environ["FAM_RESULT_BACKEND"]
if os.environ.get("FAM_RESULT_OPTIONS"):
    # A result backend shared by several runs: this run's key prefix (Redis) or schema (PostgreSQL).
    app.conf.result_backend_transport_options = json.loads(os.environ["FAM_RESULT_OPTIONS"])
OUT = Path(os.environ.get("FAM_OUT", "."))


@app.task(name="fam.add")
def add(a: int, b: int) -> int:
    return a + b


@app.task(name="fam.flaky", bind=True)
def flaky(self: Any, n: int) -> int:
    if not (OUT / f"{self.request.id}.ok").exists():
        raise RuntimeError(f"flaky part {n} failed")
    return n


@app.task(name="fam.collect")
def collect(parts: list[int]) -> int:
    return sum(parts)
