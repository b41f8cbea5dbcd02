"""Real potatoq tasks behind the console's embedded demo broker.

The console seeds `.data/demo.sqlite3` with messages for these task names (lib/demo/seed.ts),
so a real worker can drain the demo queues:

    POTATOQ_BROKER_URL=sqlite:///.data/demo.sqlite3 .venv/bin/potatoq -A demo.tasks worker \
        -P solo -Q default,emails,reports,billing

Do not point a worker at the `poison` queue: its messages (a Celery protocol-2 body and an
argument nested 1,000 lists deep) make potatoq 26.1a8's claim raise, which kills the worker.

Every call appends one JSON line to $POTATOQ_DEMO_CALLS (when set) naming the task, its id
and the Python type of each argument, so tests can prove the worker decoded tagged values.
"""

from __future__ import annotations

import json
import os
import time
from typing import Any

from potatoq import Potatoq
from potatoq.exceptions import Reject

app = Potatoq("demo")

#: The names the demo seeds, in the order of the registered-tasks record.
NAMES = (
    "demo.add",
    "demo.build_report",
    "demo.charge_card",
    "demo.echo",
    "demo.send_email",
)


def _describe(value: Any) -> Any:
    if isinstance(value, (list, tuple)):
        return [_describe(v) for v in value[:20]]
    if isinstance(value, dict):
        return {str(k): _describe(v) for k, v in list(value.items())[:20]}
    return type(value).__name__


def _record(task: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    path = os.environ.get("POTATOQ_DEMO_CALLS")
    if not path:
        return
    line = {
        "task": task.name,
        "id": task.request.id,
        "queue": task.request.delivery_info.get("routing_key") if task.request.delivery_info else None,
        "args": _describe(list(args)),
        "kwargs": _describe(kwargs),
        "at": time.time(),
    }
    # One write per line keeps lines whole when several processes append.
    with open(path, "a", encoding="utf-8") as f:
        f.write(json.dumps(line) + "\n")


@app.task(name="demo.add", bind=True)
def add(self: Any, x: int, y: int) -> int:
    _record(self, (x, y), {})
    return x + y


@app.task(name="demo.send_email", bind=True, queue="emails")
def send_email(self: Any, to: str, subject: str, **context: Any) -> str:
    _record(self, (to, subject), context)
    if context.get("reject"):
        raise Reject(context["reject"], requeue=False)
    return f"sent to {to}"


@app.task(name="demo.build_report", bind=True, queue="reports")
def build_report(self: Any, *args: Any, **kwargs: Any) -> dict[str, Any]:
    _record(self, args, kwargs)
    return {"rows": len(args) + len(kwargs)}


@app.task(name="demo.charge_card", bind=True, queue="billing")
def charge_card(self: Any, *args: Any, **kwargs: Any) -> str:
    _record(self, args, kwargs)
    if kwargs.get("decline"):
        raise ValueError("card declined")
    return "charged"


@app.task(name="demo.echo", bind=True)
def echo(self: Any, *args: Any, **kwargs: Any) -> int:
    _record(self, args, kwargs)
    return len(args) + len(kwargs)
