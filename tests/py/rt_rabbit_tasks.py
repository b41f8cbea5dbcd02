"""Tasks for the console's RabbitMQ round trips (tests/roundtrip/rabbitmq.int.test.ts).

Broker, result backend and its key prefix come from RT_BROKER, RT_BACKEND, RT_PREFIX; each run
records what a task received to RT_OUT/<task id>.json. `rt.late` and `proj.add` (the Celery
task's name) exist only when RT_LATE=1: a worker started without it dead-letters them as
unregistered, one started with it runs them.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from potatoq import Potatoq

app = Potatoq("rt_rabbit", broker=os.environ["RT_BROKER"], backend=os.environ["RT_BACKEND"])
app.conf.result_backend_transport_options = {"prefix": os.environ["RT_PREFIX"]}
# `potatoq dead list` only looks at known queues: make the test's queue the default one.
app.conf.task_default_queue = os.environ.get("RT_QUEUE", "default")
OUT = Path(os.environ.get("RT_OUT", "."))


def _record(request: Any, name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> str:
    data = {"id": request.id, "task": name, "args": [repr(a) for a in args], "kwargs": {k: repr(v) for k, v in kwargs.items()}}
    (OUT / f"{request.id}.json").write_text(json.dumps(data))
    return "recorded"


@app.task(name="rt.record", bind=True)
def record(self: Any, *args: Any, **kwargs: Any) -> str:
    return _record(self.request, "rt.record", args, kwargs)


@app.task(name="rt.flaky", bind=True)
def flaky(self: Any, *args: Any, **kwargs: Any) -> str:
    """Fails until RT_OUT/flaky-ok exists: a dead letter that succeeds when replayed."""
    if not (OUT / "flaky-ok").exists():
        raise RuntimeError("first attempt fails")
    return _record(self.request, "rt.flaky", args, kwargs)


if os.environ.get("RT_LATE") == "1":

    @app.task(name="rt.late", bind=True)
    def late(self: Any, *args: Any, **kwargs: Any) -> str:
        return _record(self.request, "rt.late", args, kwargs)

    @app.task(name="proj.add", bind=True)
    def add(self: Any, *args: Any, **kwargs: Any) -> str:
        return _record(self.request, "proj.add", args, kwargs)
