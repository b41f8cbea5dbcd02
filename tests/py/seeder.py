"""Seeds and inspects a potatoq broker through the REAL installed potatoq, for the console's
tests. One JSON request per stdin line, one JSON reply per stdout line:
``{"op": ..., ...}`` -> ``{"ok": true, "result": ...}`` or ``{"ok": false, "error": "..."}``.

Writes go through potatoq's own producer, consumer and broker code, so the rows are exactly
what potatoq writes, on any broker potatoq supports. Inspection uses SQL on SQLite (stored
bytes and column types) and potatoq's own `peek`/`dead_letters`/`get_result` elsewhere. Rows
potatoq can't produce (foreign payloads, garbage heartbeats) are SQLite-only here.

Usage: seeder.py BROKER_URL
"""

from __future__ import annotations

import json
import sqlite3
import sys
import time
import traceback
import uuid
from typing import Any
from unittest import mock

from potatoq import Potatoq, serialization, states
from potatoq.brokers.base import ResultRecord

URL = sys.argv[1]
app = Potatoq("seeder", broker=URL)
broker = app.broker
STATE_NAMES = {0: "scheduled", 1: "ready", 2: "running"}


def _sql() -> sqlite3.Connection:
    if not URL.startswith("sqlite"):
        raise NotImplementedError("SQL inspection is SQLite-only in this seeder")
    return broker.conn  # type: ignore[attr-defined]


def _message(req: dict[str, Any], queue: str | None = None):
    task = app.tasks.get(req["task"]) or app._task_from_fun(lambda *a, **k: None, name=req["task"], typing=False)
    options: dict[str, Any] = {"queue": queue or req.get("queue") or "default"}
    for key in ("priority", "countdown", "expires"):
        if req.get(key) is not None:
            options[key] = req[key]
    message = task.build_message(list(req.get("args") or []), dict(req.get("kwargs") or {}), req.get("id"), **options)
    if req.get("headers"):
        message.headers = req["headers"]
    return message


def op_enqueue(req: dict[str, Any]) -> str:
    message = _message(req)
    broker.enqueue([message])
    return message.id


def op_enqueue_many(req: dict[str, Any]) -> list[str]:
    messages = [_message(r) for r in req["items"]]
    broker.enqueue(messages)
    return [m.id for m in messages]


def op_claim(req: dict[str, Any]) -> str | None:
    consumer = broker.consumer([req["queue"]], req.get("worker") or "seeder@test:1:solo", pid=req.get("pid") or 4242)
    delivery = consumer.fetch(timeout=float(req.get("timeout", 1.0)))
    return delivery.message.id if delivery else None


def op_dead_letter(req: dict[str, Any]) -> str:
    """A task dead-lettered by a worker: claimed, then settled with ``dead_letter``."""
    message = _message(req)
    staging = f"seed-staging-{uuid.uuid4()}"
    copy = _message({**req, "id": message.id, "countdown": None}, queue=staging)
    broker.enqueue([copy])
    consumer = broker.consumer([staging], "seeder@test:1:solo", pid=4242)
    delivery = consumer.fetch(timeout=2.0)
    assert delivery is not None and delivery.message.id == message.id, "staging claim failed"
    delivery.message = message  # the letter keeps the real queue, eta and payload
    record = None
    if req.get("with_result", True):
        record = ResultRecord(
            task_id=message.id, state=states.FAILURE, result={"exc_type": "ValueError", "exc_module": "builtins", "exc_message": ["boom"]},
            traceback=req["reason"], date_done=time.time(), task_name=message.task, args=message.args, kwargs=message.kwargs,
        )  # fmt: skip
    if req.get("died_ago"):
        with mock.patch("time.time", return_value=time.time() - float(req["died_ago"])):
            consumer.dead_letter(delivery, req["reason"], record)
    else:
        consumer.dead_letter(delivery, req["reason"], record)
    return message.id


def op_dead_letter_raw(req: dict[str, Any]) -> None:
    """A letter whose payload potatoq can't decode (it came from a foreign producer)."""
    with broker._write() as conn:  # type: ignore[attr-defined]
        conn.execute(
            "INSERT INTO potatoq_dead (id, queue, task, reason, died_at, payload) VALUES (?, ?, ?, ?, ?, ?)",
            (req["id"], req["queue"], req["task"], req["reason"], time.time(),
             bytes.fromhex(req["blob_hex"]) if req.get("blob_hex") else req["payload"]),
        )  # fmt: skip


def op_job_raw(req: dict[str, Any]) -> None:
    """A waiting row with an arbitrary payload, inserted with potatoq's own statement."""
    now = time.time()
    with broker._write() as conn:  # type: ignore[attr-defined]
        conn.execute(broker._INSERT, (req["id"], req["queue"], req["task"], 1, req.get("priority", 0), now, now, req["payload"]))  # type: ignore[attr-defined]


def op_heartbeat(req: dict[str, Any]) -> None:
    with mock.patch("time.time", return_value=time.time() - float(req.get("age", 0))):
        broker.heartbeat(req["id"], req["info"])


def op_raw_worker(req: dict[str, Any]) -> None:
    with broker._write() as conn:  # type: ignore[attr-defined]
        conn.execute("INSERT INTO potatoq_workers (id, heartbeat, info) VALUES (?, ?, ?)", (req["id"], time.time(), req["info"]))


def op_store_result(req: dict[str, Any]) -> None:
    record = ResultRecord(req["id"], req["state"], req.get("result"), traceback=req.get("traceback"), task_name=req.get("name"), date_done=time.time())
    broker.store_result(record, expires=req.get("expires", 86400))


def _is_sqlite() -> bool:
    return URL.startswith("sqlite")


def op_job(req: dict[str, Any]) -> dict[str, Any] | None:
    if not _is_sqlite():
        # Other brokers: potatoq's own view (the payload re-encoded, not the stored bytes).
        peeked = broker.peek(req["id"])
        return None if peeked is None else {"state": peeked[1], "payload": peeked[0].encode()}
    row = _sql().execute(
        "SELECT state, queue, task, priority, run_at, created_at, deliveries, payload FROM potatoq_jobs WHERE id = ?", (req["id"],)
    ).fetchone()
    if row is None:
        return None
    keys = ("state", "queue", "task", "priority", "run_at", "created_at", "deliveries", "payload")
    out = dict(zip(keys, row))
    out["state"] = STATE_NAMES.get(out["state"], str(out["state"]))
    out["priority_type"] = type(row[3]).__name__
    out["run_at_type"] = type(row[4]).__name__
    out["created_at_type"] = type(row[5]).__name__
    return out


def op_dead(req: dict[str, Any]) -> dict[str, Any] | None:
    if not _is_sqlite():
        found = [e for e in broker.dead_letters(100_000) if e.get("id") == req["id"]]
        return json.loads(json.dumps(found[0], default=str)) if found else None
    row = _sql().execute("SELECT id, queue, task, reason, died_at, payload FROM potatoq_dead WHERE id = ?", (req["id"],)).fetchone()
    return None if row is None else dict(zip(("id", "queue", "task", "reason", "died_at", "payload"), row))


def op_result(req: dict[str, Any]) -> dict[str, Any] | None:
    if not _is_sqlite():
        record = app.backend.get_result(req["id"]) if app.backend is not None else None
        if record is None or record.state == states.STARTED:  # STARTED is synthesised, not stored
            return None
        data = record.to_dict()
        return {"state": record.state, "status": record.state, "name": record.task_name, "keys": list(data),
                "date_done": record.date_done, "date_done_type": type(record.date_done).__name__,
                "payload": serialization.dumps(data)}  # fmt: skip
    row = _sql().execute("SELECT state, payload, expires_at FROM potatoq_results WHERE id = ?", (req["id"],)).fetchone()
    if row is None:
        return None
    record = ResultRecord.from_dict(serialization.loads(row[1]))  # potatoq must be able to read it back
    data = json.loads(row[1])
    return {"state": row[0], "status": record.state, "name": record.task_name, "keys": list(data), "date_done": record.date_done,
            "date_done_type": type(record.date_done).__name__, "expires_at": row[2], "payload": row[1]}  # fmt: skip


def op_queue_sizes(req: dict[str, Any]) -> dict[str, int]:
    return broker.queue_sizes()


def op_dead_letters(req: dict[str, Any]) -> Any:
    return json.loads(json.dumps(broker.dead_letters(int(req.get("limit", 100))), default=str))


def op_revoke(req: dict[str, Any]) -> None:
    app.control.revoke(req["ids"])


def op_requeue_dead(req: dict[str, Any]) -> bool:
    return bool(broker.requeue_dead(req["id"]))  # type: ignore[attr-defined]


def main() -> None:
    for line in sys.stdin:
        if not line.strip():
            continue
        req = json.loads(line)
        try:
            result = globals()[f"op_{req['op']}"](req)
            reply = {"ok": True, "result": result}
        except Exception as exc:  # reported to the test, which fails with it
            reply = {"ok": False, "error": f"{type(exc).__name__}: {exc}", "traceback": traceback.format_exc()}
        sys.stdout.write(json.dumps(reply, default=str) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
