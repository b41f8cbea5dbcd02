"""A potatoq app for the console's cross-broker move tests (tests/move-*.int.test.ts): the same
task names as mv_celery_app.py. MV_BROKER: broker URL; MV_OPTIONS: JSON of
broker_transport_options (a PostgreSQL schema, ...). MV_OUT: where runs record what they got.
MV_RESULT_EXPIRES: result_expires in seconds (potatoq's default: a day).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from potatoq import Potatoq

app = Potatoq("mv", broker=os.environ["MV_BROKER"])
app.conf.broker_transport_options = json.loads(os.environ.get("MV_OPTIONS") or "{}")
if os.environ.get("MV_RESULT_EXPIRES"):
    app.conf.result_expires = float(os.environ["MV_RESULT_EXPIRES"])
OUT = Path(os.environ.get("MV_OUT", "."))


def _record(task_id: str, args: Any, kwargs: Any) -> None:
    described = {
        "system": "potatoq",
        "args": [[type(a).__name__, repr(a)] for a in args],
        "kwargs": {k: [type(v).__name__, repr(v)] for k, v in kwargs.items()},
    }
    tmp = OUT / f".{task_id}.json.tmp"
    tmp.write_text(json.dumps(described))
    tmp.rename(OUT / f"{task_id}.json")
    # One line per run: a test counts them to see a task ran once.
    with open(OUT / "runs.log", "a") as f:
        f.write(task_id + "\n")


@app.task(name="mv.record", bind=True)
def record(self: Any, *args: Any, **kwargs: Any) -> int:
    _record(self.request.id, args, kwargs)
    return len(args)


@app.task(name="mv.fail", bind=True)
def fail(self: Any, *args: Any, **kwargs: Any) -> str:
    """Fails unless MV_OUT/ok exists: a dead letter made by a real worker."""
    if not (OUT / "ok").exists():
        raise ValueError("mv.fail failed on potatoq")
    _record(self.request.id, args, kwargs)
    return "ok"


@app.task(name="mv.quiet", bind=True, ignore_result=True)
def quiet(self: Any, *args: Any, **kwargs: Any) -> str:
    """Like mv.fail, but stores no result: once it ran, its broker keeps no trace of it."""
    if not (OUT / "ok").exists():
        raise ValueError("mv.quiet failed on potatoq")
    _record(self.request.id, args, kwargs)
    return "ok"
