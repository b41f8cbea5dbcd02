"""Writes and inspects a Celery app's Redis broker and result backend through the REAL Celery
5.7 / kombu, for the console's Celery adapter tests; one JSON request per line (as seeder.py).

Environment as rt_celery_app.py. Claims hold the message unacked on a channel kept open.
"""

from __future__ import annotations

import json
import sys
import time
import traceback
from datetime import UTC, datetime, timedelta
from typing import Any

from celery import states
from celery.app.task import Context
from kombu.utils.json import loads as kloads

from rt_celery_app import app

conn = app.connection_for_write()
chan = conn.default_channel
# The Redis transport's client; None on RabbitMQ (py-amqp), where nothing can be browsed.
client = getattr(chan, "client", None)
backend = app.backend
held: dict[str, Any] = {}
sent_queues: set[str] = set()


def _options(req: dict[str, Any]) -> dict[str, Any]:
    # `exchange` + `routing_key` instead of `queue`: routed as task_routes would route it.
    options: dict[str, Any] = {"queue": req["queue"]} if req.get("queue") else {}
    for key in ("countdown", "priority", "exchange", "routing_key"):
        if req.get(key) is not None:
            options[key] = req[key]
    if req.get("id"):
        options["task_id"] = req["id"]
    if req.get("headers"):
        options["headers"] = req["headers"]
    return options


def op_enqueue(req: dict[str, Any]) -> str:
    """`app.send_task`, as a producer would."""
    if req.get("queue"):
        sent_queues.add(req["queue"])
    return app.send_task(req["task"], list(req.get("args") or []), dict(req.get("kwargs") or {}), **_options(req)).id


def op_enqueue_many(req: dict[str, Any]) -> list[str]:
    return [op_enqueue(m) for m in req["messages"]]


def op_enqueue_typed(req: dict[str, Any]) -> str:
    """send_task with values kombu's JSON marks: datetime, date, Decimal, UUID, bytes."""
    import uuid
    from datetime import date
    from decimal import Decimal

    kwargs = {"when": datetime(2026, 1, 2, 3, 4, 5, 6, tzinfo=UTC), "day": date(2026, 2, 3), "price": Decimal("19.99"),
              "ref": uuid.UUID("12345678-1234-5678-1234-567812345678"), "blob": b"hi", "raw": b"\xff\x00"}
    return app.send_task(req["task"], [1, "two"], kwargs, queue=req["queue"]).id


def op_captured_send(req: dict[str, Any]) -> Any:
    """send_task, then takes the message off the list again: the exact item Celery wrote
    (on RabbitMQ: its headers, properties and body, taken with basic_get and acked)."""
    tid = op_enqueue(req)
    if client is None:
        return op_get_one(req)
    key = req["queue"] if not req.get("priority") else None
    for k in [key] if key else [req["queue"], f"{req['queue']}\x06\x163", f"{req['queue']}\x06\x166", f"{req['queue']}\x06\x169"]:
        for item in client.lrange(k, 0, -1):
            if json.loads(item)["headers"]["id"] == tid:
                client.lrem(k, 1, item)
                return item.decode()
    raise RuntimeError("sent message not found")


def op_get_one(req: dict[str, Any]) -> Any:
    """RabbitMQ: takes (and acks) the next message of the queue: its headers, properties and body."""
    # A publish without confirms (send_task's) may not be in the queue yet: wait a little.
    deadline = time.time() + 5
    message = chan.basic_get(req["queue"], no_ack=True)
    while message is None and time.time() < deadline:
        time.sleep(0.05)
        message = chan.basic_get(req["queue"], no_ack=True)
    if message is None:
        return None
    props = {k: v for k, v in message.properties.items() if k != "application_headers"}
    body = message.body.decode() if isinstance(message.body, bytes) else message.body
    return {"headers": message.headers, "properties": props, "body": body}


def op_claim(req: dict[str, Any]) -> str | None:
    """kombu's basic_get without ack (what a worker's prefetch does): the message moves to unacked."""
    message = chan.basic_get(req["queue"], no_ack=False)
    if message is None:
        return None
    tid = message.headers.get("id")
    held[tid] = message
    return tid


def _exc(reason: str) -> BaseException:
    last = reason.strip().splitlines()[-1] if reason.strip() else "Exception"
    name, _, msg = last.partition(": ")
    import builtins

    if name.isidentifier():
        cls = getattr(builtins, name, None) or type(name, (Exception,), {})
        if isinstance(cls, type) and issubclass(cls, BaseException):
            return cls(msg) if msg else cls()
    return Exception(last)


def op_dead_letter(req: dict[str, Any]) -> str:
    """A FAILURE record as a worker stores it with result_extended (backend.mark_as_failure)."""
    import uuid

    tid = req.get("id") or str(uuid.uuid4())
    request = Context(id=tid, task=req["task"], args=list(req.get("args") or []), kwargs=dict(req.get("kwargs") or {}),
                      hostname="celery@seeder", retries=0, delivery_info={"routing_key": req["queue"], "exchange": ""})
    reason = req["reason"]
    backend.mark_as_failure(tid, _exc(reason), traceback=reason, request=request)
    if req.get("diedAgo"):
        key = backend.get_key_for_task(tid)
        meta = kloads(client_backend().get(key))
        meta["date_done"] = (datetime.now(UTC) - timedelta(seconds=req["diedAgo"])).isoformat()
        client_backend().set(key, backend.encode(meta), ex=86400)
    return tid


def client_backend():
    return backend.client


def op_state(req: dict[str, Any]) -> str | None:
    """ready / scheduled (waiting in a list, by its ETA), running (unacked), or null."""
    tid = req["id"]
    if client is None:
        return "running" if tid in held else None
    for tag, entry in client.hgetall("unacked").items():
        if json.loads(entry)[0]["headers"].get("id") == tid:
            return "running"
    item = _find(tid)
    if item is None:
        return None
    eta = json.loads(item)["headers"].get("eta")
    return "scheduled" if eta and datetime.fromisoformat(eta) > datetime.now(UTC) else "ready"


def _find(tid: str) -> str | None:
    if client is None:
        return None
    for key in client.scan_iter(count=1000):
        if client.type(key) != b"list":
            continue
        for item in client.lrange(key, 0, -1):
            try:
                if json.loads(item)["headers"].get("id") == tid:
                    return item.decode()
            except Exception:
                continue
    for entry in client.hgetall("unacked").values():
        message = json.loads(entry)[0]
        if message["headers"].get("id") == tid:
            return json.dumps(message)
    return None


def op_payload(req: dict[str, Any]) -> str | None:
    return _find(req["id"])


def op_message(req: dict[str, Any]) -> dict[str, Any] | None:
    """The waiting message as a worker decodes it: name, args, kwargs, eta, headers, queue key."""
    item = _find(req["id"])
    if item is None:
        return None
    env = json.loads(item)
    import base64

    args, kwargs, embed = kloads(base64.b64decode(env["body"]))
    out = {"task": env["headers"]["task"], "args": args, "kwargs": kwargs, "eta": env["headers"].get("eta"), "headers": env["headers"],
           "properties": env["properties"], "embed": embed}
    return json.loads(json.dumps(out, default=str))


def op_result(req: dict[str, Any]) -> dict[str, Any] | None:
    raw = client_backend().get(backend.get_key_for_task(req["id"]))
    if raw is None:
        return None
    meta = kloads(raw)
    return {"status": meta.get("status"), "name": meta.get("name"), "keys": list(meta.keys())}


def op_is_dead(req: dict[str, Any]) -> bool:
    r = op_result(req)
    return bool(r and r["status"] == states.FAILURE)


def op_sizes(req: dict[str, Any]) -> dict[str, int]:
    """Waiting messages per queue: LLEN over every priority bucket, as kombu's _size counts."""
    sizes: dict[str, int] = {}
    if client is None:
        for name in sent_queues:
            try:
                n = conn.default_channel.queue_declare(name, passive=True).message_count
            except Exception:
                continue
            if n:
                sizes[name] = n
        return sizes
    for key in client.scan_iter(count=1000):
        if client.type(key) != b"list":
            continue
        name = key.decode().split("\x06\x16")[0]
        if name.endswith(".reply.celery.pidbox"):
            continue
        sizes[name] = sizes.get(name, 0) + client.llen(key)
    return {k: v for k, v in sizes.items() if v}


def op_ack_all(req: dict[str, Any]) -> int:
    n = 0
    for message in held.values():
        if hasattr(message, "ack"):
            message.ack()
        else:  # py-amqp's own message
            chan.basic_ack(message.delivery_tag)
        n += 1
    held.clear()
    return n


def op_flush(req: dict[str, Any]) -> bool:
    """Empties the broker's and the backend's databases (the caller owns both)."""
    if client is not None:
        client.flushdb()
    client_backend().flushdb()
    return True


def op_delete_queues(req: dict[str, Any]) -> int:
    """RabbitMQ: deletes the queues (and their same-named exchanges) this seeder sent to, and `names`."""
    n = 0
    for name in sent_queues | set(req.get("names") or []):
        try:
            conn.default_channel.queue_delete(name)
            conn.default_channel.exchange_delete(name)
            n += 1
        except Exception:
            pass
    return n


def op_inspect(req: dict[str, Any]) -> Any:
    return getattr(app.control.inspect(timeout=req.get("timeout", 1.0)), req["method"])()


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
    time.sleep(0)
