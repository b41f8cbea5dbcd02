"""A Celery 5.7 app for the console's cross-broker move tests (tests/move-*.int.test.ts): the
same task names as mv_potatoq_app.py, so a letter moved between the two runs in either.

Environment: CT_BROKER (redis://.../4), CT_BACKEND (redis://.../5), CT_OUT (each run writes
<task id>.json with the args and kwargs as Python saw them: type names and reprs).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from celery import Celery

app = Celery("mv_celery_app", broker=os.environ["CT_BROKER"], backend=os.environ["CT_BACKEND"])
app.conf.result_extended = True
app.conf.worker_prefetch_multiplier = 1
app.conf.broker_connection_retry_on_startup = True
OUT = Path(os.environ.get("CT_OUT", "/tmp"))


def _record(task_id: str, system: str, args, kwargs) -> None:
    described = {
        "system": system,
        "args": [[type(a).__name__, repr(a)] for a in args],
        "kwargs": {k: [type(v).__name__, repr(v)] for k, v in kwargs.items()},
    }
    tmp = OUT / f".{task_id}.json.tmp"
    tmp.write_text(json.dumps(described))
    tmp.rename(OUT / f"{task_id}.json")
    # One line per run: a test counts them to see a task ran once.
    with open(OUT / "runs.log", "a") as f:
        f.write(task_id + "\n")


@app.task(bind=True, name="mv.record")
def record(self, *args, **kwargs):
    _record(self.request.id, "celery", args, kwargs)
    return len(args)


@app.task(bind=True, name="mv.fail")
def fail(self, *args, **kwargs):
    """Fails unless CT_OUT/ok exists; when it does, records like mv.record."""
    if not (OUT / "ok").exists():
        raise ValueError("mv.fail failed on Celery")
    _record(self.request.id, "celery", args, kwargs)
    return "ok"


@app.task(bind=True, name="mv.quiet")
def quiet(self, *args, **kwargs):
    """Like mv.fail, and like any task here it stores its result, unless the message's
    ignore_result header says not to (the potatoq task of this name ignores its result)."""
    if not (OUT / "ok").exists():
        raise ValueError("mv.quiet failed on Celery")
    _record(self.request.id, "celery", args, kwargs)
    return "ok"
