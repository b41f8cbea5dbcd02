"""Seeds and inspects potatoq's RabbitMQ broker (4.x) through the REAL installed potatoq, for
the console's RabbitMQ tests; protocol as tests/py/seeder.py (one JSON request per line).

Usage: seeder_rabbit.py BROKER_URL RESULT_BACKEND_URL ISOLATION
ISOLATION keeps runs apart in the result backend: the key prefix on Redis, the schema on
PostgreSQL (created by potatoq, dropped by `cleanup`); ignored on SQLite (use a fresh file).

Writes use potatoq's producer, consumer and backend code. Inspection of queues uses
basic_get + nack(requeue), which is only safe on RabbitMQ 4.x (3.x drops requeued letters of
potatoq's DLQs), so this seeder refuses to inspect on 3.x.
"""

from __future__ import annotations

import json
import sys
import time
import traceback
import uuid
from typing import Any
from unittest import mock

import pika
from potatoq import Potatoq, states
from potatoq.brokers.base import ResultRecord
from potatoq.brokers.rabbitmq import DLX

URL, BACKEND, PREFIX = sys.argv[1], sys.argv[2], sys.argv[3]
app = Potatoq("seeder_rabbit", broker=URL, backend=BACKEND)
KIND = BACKEND.split(":", 1)[0].split("+", 1)[0]
app.conf.result_backend_transport_options = (
    {"prefix": PREFIX} if KIND in ("redis", "rediss") else {"schema": PREFIX} if KIND.startswith("postgres") else {}
)
broker = app.broker
backend = app.backend
queues: set[str] = set()
held: list[Any] = []  # consumers holding a claimed (unacked) delivery, with its id


def _track(q: str) -> str:
    queues.add(q)
    return q


def _message(req: dict[str, Any], queue: str | None = None):
    task = app.tasks.get(req["task"]) or app._task_from_fun(lambda *a, **k: None, name=req["task"], typing=False)
    options: dict[str, Any] = {"queue": queue or _track(req.get("queue") or "default")}
    for key in ("priority", "countdown", "expires"):
        if req.get(key) is not None:
            options[key] = req[key]
    message = task.build_message(list(req.get("args") or []), dict(req.get("kwargs") or {}), req.get("id"), **options)
    if req.get("headers"):
        message.headers = req["headers"]
    return message


def _declare(q: str) -> None:
    broker.declare_queue(broker._channel(), _track(q))


def _browse(name: str) -> list[tuple[Any, Any, bytes]]:
    """Every message of a queue, each returned with nack(requeue): RabbitMQ 4.x only."""
    conn = pika.BlockingConnection(broker.params)
    try:
        version = conn._impl.server_properties.get("version", b"")
        version = version.decode() if isinstance(version, bytes) else str(version)
        if int(version.split(".")[0]) < 4:
            raise RuntimeError(f"refusing to browse on RabbitMQ {version}: 3.x drops requeued DLQ letters")
        ch = conn.channel()
        out, tags = [], []
        try:
            while True:
                method, props, body = ch.basic_get(name, auto_ack=False)
                if method is None:
                    break
                out.append((method, props, body))
                tags.append(method.delivery_tag)
        except pika.exceptions.ChannelClosedByBroker:
            return []
        for tag in tags:
            ch.basic_nack(tag, requeue=True)
        return out
    finally:
        conn.close()


def _find(id_: str, dlq: bool) -> tuple[Any, Any, bytes] | None:
    for q in sorted(queues):
        for m in _browse(f"{q}.dlq" if dlq else q):
            if m[1].message_id == id_:
                return m
    return None


def op_enqueue(req: dict[str, Any]) -> str:
    message = _message(req)
    broker.enqueue([message])
    return message.id


def op_enqueue_many(req: dict[str, Any]) -> list[str]:
    messages = [_message(r) for r in req["items"]]
    broker.enqueue(messages)
    return [m.id for m in messages]


def op_claim(req: dict[str, Any]) -> str | None:
    consumer = broker.consumer([_track(req["queue"])], "seeder@test:1:solo", pid=4242)
    delivery = consumer.fetch(timeout=float(req.get("timeout", 2.0)))
    if delivery is None:
        consumer.close()
        return None
    held.append((consumer, delivery.message.id))
    return delivery.message.id


def op_dead_letter(req: dict[str, Any]) -> str:
    """A task dead-lettered by a worker's consumer (potatoq-reason / potatoq-died) + FAILURE."""
    message = _message(req)
    _declare(message.queue)
    staging = f"seedstaging{uuid.uuid4().hex[:12]}"
    copy = _message({**req, "id": message.id, "countdown": None}, queue=staging)
    broker.enqueue([copy])
    consumer = broker.consumer([staging], "seeder@test:1:solo", pid=4242)
    try:
        delivery = consumer.fetch(timeout=5.0)
        assert delivery is not None and delivery.message.id == message.id, "staging claim failed"
        delivery.message = message
        if req.get("with_result", True):
            backend.store_result(ResultRecord(
                task_id=message.id, state=states.FAILURE, result={"exc_type": "ValueError", "exc_module": "builtins", "exc_message": ["boom"]},
                traceback=req["reason"], date_done=time.time(), task_name=message.task, args=message.args, kwargs=message.kwargs,
            ), app.conf.result_expires)  # fmt: skip
        with mock.patch("time.time", return_value=time.time() - float(req.get("died_ago") or 0)):
            consumer.dead_letter(delivery, req["reason"], None)
    finally:
        consumer.close()
        ch = broker._channel()
        ch.queue_delete(staging)
        ch.queue_delete(f"{staging}.dlq")
    return message.id


def op_dead_letter_raw(req: dict[str, Any]) -> None:
    """A letter as a worker dead-letters a body it can't decode (`_dead_letter_raw`)."""
    _declare(req["queue"])
    headers = dict(req.get("headers") or {})
    headers.update({"potatoq-reason": req["reason"][-2000:], "potatoq-died": int(time.time() * 1000)})
    props = pika.BasicProperties(message_id=req.get("id") or headers.get("id"), content_type="application/json", headers=headers, delivery_mode=2)
    broker._channel().basic_publish(DLX, req["queue"], req["payload"].encode(), props, mandatory=True)


def op_dead_letter_bulk(req: dict[str, Any]) -> list[str]:
    """`n` letters as potatoq's consumer writes them (re-encoded message, its properties,
    potatoq-reason/potatoq-died), published with confirms, much faster than `dead_letter`."""
    _declare(req["queue"])
    ch = broker._channel()
    ids = []
    task = app._task_from_fun(lambda *a, **k: None, name=req.get("task", "ct.bulk"), typing=False)
    for i in range(int(req["n"])):
        message = task.build_message([i], {}, None, queue=req["queue"])
        reason = f"Traceback (most recent call last):\nValueError: bulk {i % 3}\n"
        props = broker.properties(message, {"potatoq-reason": reason, "potatoq-died": int(time.time() * 1000) - i})
        ch.basic_publish(DLX, message.queue, message.encode().encode(), props, mandatory=True)
        ids.append(message.id)
    return ids


def op_broker_dead_letter(req: dict[str, Any]) -> str:
    """A task RabbitMQ itself dead-letters: rejected (requeue) until the quorum queue's
    x-delivery-limit is reached, as when every worker holding it crashed."""
    message = _message(req)
    broker.enqueue([message])
    conn = pika.BlockingConnection(broker.params)
    try:
        ch = conn.channel()
        for _ in range(50):
            method, props, _ = ch.basic_get(message.queue, auto_ack=False)
            if method is None:
                break
            ch.basic_reject(method.delivery_tag, requeue=True)
    finally:
        conn.close()
    return message.id


def op_heartbeat(req: dict[str, Any]) -> None:
    with mock.patch("time.time", return_value=time.time() - float(req.get("age", 0))):
        backend.heartbeat(req["id"], req["info"])


def op_raw_worker(req: dict[str, Any]) -> None:
    if KIND in ("redis", "rediss"):
        backend.client.hset(f"{backend.prefix}:workers", req["id"], req["info"])
    else:
        raise NotImplementedError("garbage heartbeats are Redis-only in this seeder")


def op_store_registered(req: dict[str, Any]) -> None:
    rec = ResultRecord(task_id=f"potatoq-registered-{req['digest']}", state=states.SUCCESS, result=list(req["names"]), date_done=time.time())
    backend.store_result(rec, 7 * 86400)


def op_job_state(req: dict[str, Any]) -> str | None:
    if any(i == req["id"] for _, i in held):
        return "running"
    return "ready" if _find(req["id"], dlq=False) else None


def op_job_payload(req: dict[str, Any]) -> str | None:
    m = _find(req["id"], dlq=False)
    return m[2].decode() if m else None


def op_is_dead(req: dict[str, Any]) -> bool:
    return _find(req["id"], dlq=True) is not None


def op_messages(req: dict[str, Any]) -> list[dict[str, Any]]:
    """A queue's messages (ids, bodies, headers) without removing them (4.x)."""
    return [{"id": p.message_id, "body": b.decode("utf-8", "replace"), "priority": p.priority,
             "headers": json.loads(json.dumps(p.headers or {}, default=str))} for _, p, b in _browse(req["queue"])]  # fmt: skip


def op_result(req: dict[str, Any]) -> dict[str, Any] | None:
    if KIND in ("redis", "rediss"):
        data = backend.client.get(f"{backend.prefix}:result:{req['id']}")
        if data is None:
            return None
        rec = json.loads(data)
        return {"status": rec.get("status"), "name": rec.get("name"), "keys": list(rec.keys())}
    record = backend.get_result(req["id"])
    if record is None:
        return None
    rec = record.to_dict()
    return {"status": rec.get("status"), "name": rec.get("name"), "keys": list(rec.keys())}


def op_queue_sizes(req: dict[str, Any]) -> dict[str, int]:
    sizes = {}
    for q in sorted(queues):
        try:
            n = broker._channel().queue_declare(q, passive=True).method.message_count
            if n:
                sizes[q] = n
        except Exception:
            broker._local.channel = None
    return sizes


def op_declare(req: dict[str, Any]) -> None:
    _declare(req["queue"])


def op_track(req: dict[str, Any]) -> None:
    _track(req["queue"])


def op_cleanup(req: dict[str, Any]) -> None:
    for consumer, _ in held:
        consumer.close()
    held.clear()
    conn = pika.BlockingConnection(broker.params)
    try:
        for q in sorted(queues):
            for name in (q, f"{q}.dlq"):
                ch = conn.channel()
                try:
                    ch.queue_delete(name)
                    ch.close()
                except Exception:
                    pass
    finally:
        conn.close()
    queues.clear()
    if KIND in ("redis", "rediss"):
        keys = list(backend.client.scan_iter(match=f"{backend.prefix}:*", count=1000))
        if keys:
            backend.client.delete(*keys)
    elif KIND.startswith("postgres"):
        import psycopg

        with psycopg.connect(BACKEND.replace("postgres://", "postgresql://")) as pg:
            pg.execute(f'DROP SCHEMA IF EXISTS "{PREFIX}" CASCADE')


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
