"""Writes and inspects potatoq's Redis broker through the REAL installed potatoq, for the
console's Redis storage-layer tests; protocol as tests/py/seeder.py (one JSON request per line).

Usage: seeder_redis.py (RT_BROKER, RT_PREFIX, RT_QUEUE from the environment, as rt_redis_tasks).
"""

from __future__ import annotations

import json
import sys
import traceback
import uuid
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from typing import Any

from rt_redis_tasks import app

broker = app.broker

TYPED = (
    datetime(2024, 1, 2, 3, 4, 5, tzinfo=UTC),
    Decimal("1.10"),
    uuid.UUID("12345678-1234-5678-1234-567812345678"),
    b"\x00\xff",
    {1, 2},
    timedelta(seconds=90),
    2**70,
)


def op_send(req: dict[str, Any]) -> str:
    """`send_task` as a producer would: task, args, kwargs, queue, countdown, priority, id; typed=True adds TYPED."""
    args = list(req.get("args") or [])
    if req.get("typed"):
        args += list(TYPED)
    options: dict[str, Any] = {}
    for key in ("queue", "countdown", "priority"):
        if req.get(key) is not None:
            options[key] = req[key]
    if req.get("id"):
        options["task_id"] = req["id"]
    return app.send_task(req["task"], args, dict(req.get("kwargs") or {}), **options).id


def op_send_many(req: dict[str, Any]) -> list[str]:
    """n tasks in one batch (`RedisBroker.enqueue` in batches of 500, like a bulk producer)."""
    task = app.tasks[req["task"]]
    messages = [task.build_message([i], {}, None, queue=req.get("queue") or app.conf.task_default_queue) for i in range(req["n"])]
    broker.enqueue(messages)
    return [m.id for m in messages]


def op_raw(req: dict[str, Any]) -> str:
    """A task whose stored payload is `payload` verbatim, through potatoq's own enqueue script."""
    task_id = req.get("id") or str(uuid.uuid4())
    broker.run("enqueue", 1, task_id, req["queue"], 0, 0, req["payload"])
    return task_id


def op_purge_race(req: dict[str, Any]) -> dict[str, Any]:
    """potatoq's own `purge` with a worker's claim landing between its ZRANGE and its MULTI
    (the window it leaves open), then that worker completing the task it claimed."""
    from potatoq import states
    from potatoq.brokers.base import ResultRecord

    queue = req["queue"]
    consumer = broker.consumer([queue], "racer@test:1:abcdef", 1)
    client = broker.client
    original = client.pipeline
    claimed: list[Any] = []

    def pipeline(*args: Any, **kwargs: Any) -> Any:
        if kwargs.get("transaction", True) and not claimed:
            claimed.append(consumer._claim())
        return original(*args, **kwargs)

    client.pipeline = pipeline  # type: ignore[method-assign]
    try:
        purged = broker.purge(queue)
    finally:
        del client.pipeline
    delivery = claimed[0]
    record = ResultRecord(delivery.message.id, states.SUCCESS, "done", task_name=delivery.message.task)
    completed = consumer._run_retrying(
        "complete", delivery.message.id, queue, delivery.handle, *consumer._result_args(record), 0
    )
    return {"purged": purged, "claimed": delivery.message.id, "completed": bool(completed)}


_held: list[Any] = []


def op_claim(req: dict[str, Any]) -> str:
    """A worker's claim of the next task of `queue`, held until `complete`."""
    consumer = broker.consumer([req["queue"]], "holder@test:1:abcdef", 1)
    delivery = consumer._claim()
    _held.append((consumer, delivery))
    return delivery.message.id


def op_complete(req: dict[str, Any]) -> bool:
    """Completes the held claim with a SUCCESS result, as a worker does; False if the fence refused it."""
    from potatoq import states
    from potatoq.brokers.base import ResultRecord

    consumer, delivery = _held.pop()
    record = ResultRecord(delivery.message.id, states.SUCCESS, "done", task_name=delivery.message.task)
    m = delivery.message
    return bool(consumer._run_retrying("complete", m.id, m.queue, delivery.handle, *consumer._result_args(record), 0))


def op_result(req: dict[str, Any]) -> dict[str, Any] | None:
    r = broker.get_result(req["id"])
    return None if r is None else {"state": r.state, "name": r.task_name, "result": repr(r.result)}


def op_dead(req: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"id": e["id"], "queue": e["queue"], "task": e["task"], "reason": e["reason"], "died_at": e["died_at"]} for e in broker.dead_letters(req.get("limit", 100))]


def op_sizes(req: dict[str, Any]) -> dict[str, int]:
    return broker.queue_sizes()


def main() -> None:
    for line in sys.stdin:
        req = json.loads(line)
        try:
            result = globals()[f"op_{req['op']}"](req)
            print(json.dumps({"ok": True, "result": result}), flush=True)
        except Exception as exc:
            print(json.dumps({"ok": False, "error": f"{type(exc).__name__}: {exc}", "traceback": traceback.format_exc()}), flush=True)


if __name__ == "__main__":
    main()
