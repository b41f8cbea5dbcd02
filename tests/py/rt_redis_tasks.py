"""Tasks for the console's Redis storage-layer round trips (tests/brokers/potatoq/redis/*.int.test.ts).

Broker URL and key prefix come from RT_BROKER and RT_PREFIX (potatoq's `global_keyprefix`
transport option); RT_QUEUE is the default queue. Each run of `rt.record` writes what it
received (Python reprs and type names) to RT_OUT/<task id>.json. Results are stored
(`result_backend = "broker"`) so the console's result reads have something to read.
RT_DEAD_AFTER / RT_MAX_DELIVERIES shorten the lease and the poison guard for the
"worker lost too many times" recipe.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

from potatoq import Potatoq
from potatoq.exceptions import Reject

app = Potatoq("rt_redis", broker=os.environ["RT_BROKER"])
app.conf.broker_transport_options = {"global_keyprefix": os.environ["RT_PREFIX"]}
app.conf.task_default_queue = os.environ.get("RT_QUEUE", "default")
app.conf.result_backend = "broker"
app.conf.worker_dead_after = float(os.environ.get("RT_DEAD_AFTER", "60"))
app.conf.task_max_deliveries = int(os.environ.get("RT_MAX_DELIVERIES", "5"))
OUT = Path(os.environ.get("RT_OUT", "."))


def _write(task_id: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> str:
    data = {
        "id": task_id,
        "args": [repr(a) for a in args],
        "types": [type(a).__name__ for a in args],
        "kwargs": {k: repr(v) for k, v in kwargs.items()},
        "at": time.time(),
    }
    # One file per run, never reused (a task run twice, even at once, leaves two), written
    # atomically (write, then rename) so a test polling the folder never reads half a file.
    name = f"{task_id}.{os.getpid()}.{time.time_ns()}"
    tmp = OUT / f".{name}.tmp"
    tmp.write_text(json.dumps(data))
    os.replace(tmp, OUT / f"{name}.json")
    return "recorded"


@app.task(name="rt.record", bind=True)
def record(self: Any, *args: Any, **kwargs: Any) -> str:
    return _write(self.request.id, args, kwargs)


@app.task(name="rt.fail")
def fail(msg: str) -> None:
    raise ValueError(msg)


@app.task(name="rt.reject")
def reject(msg: str) -> None:
    raise Reject(msg)


@app.task(name="rt.flaky", bind=True)
def flaky(self: Any, *args: Any, **kwargs: Any) -> str:
    """Fails until RT_OUT/flaky-ok exists: a dead letter that succeeds when replayed."""
    if not (OUT / "flaky-ok").exists():
        raise RuntimeError("first attempt fails")
    return _write(self.request.id, args, kwargs)
