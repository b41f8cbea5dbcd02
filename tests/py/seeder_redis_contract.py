"""The console's test seeder (seeder.py) on potatoq's Redis broker: the same ops through the REAL
potatoq (its enqueue, claim and dead-letter scripts), with potatoq's ``global_keyprefix``/``prefix``
transport options; inspection reads potatoq's keys with the broker's own client. For the shared
adapter battery (tests/brokers/potatoq/redis/redis-adapter.int.test.ts).

Usage: seeder_redis_contract.py BROKER_URL TRANSPORT_OPTIONS_JSON
"""

from __future__ import annotations

import json
import sys
import time
from typing import Any
from unittest import mock

import seeder  # noqa: E402  (its module-level app is replaced below)
from potatoq import Potatoq

app = Potatoq("seeder-redis", broker=sys.argv[1])
app.conf.broker_transport_options = json.loads(sys.argv[2] if len(sys.argv) > 2 else "{}")
broker = app.broker
P = broker.prefix  # type: ignore[attr-defined]
seeder.app = app
seeder.broker = broker
STATES = {"ready": "ready", "delayed": "scheduled", "active": "running"}
_dead_letter = seeder.op_dead_letter
r = broker.client  # type: ignore[attr-defined]


def op_dead_letter(req: dict[str, Any]) -> str:
    """seeder.py's recipe (claimed from a staging queue, dead-lettered by potatoq's own script),
    then the hash made what a worker on the real queue leaves: potatoq's `dead` keeps the hash's
    `q`, `pr` and `p` (the staging copy's), so they are set to the real message's."""
    seen = set(r.smembers(f"{P}:queues"))
    message = seeder._message(req)
    task_id = _dead_letter({**req, "id": message.id, "died_ago": None})
    r.hset(f"{P}:job:{task_id}", mapping={"q": message.queue, "p": message.encode(), "pr": int(message.priority)})
    for q in set(r.smembers(f"{P}:queues")) - seen:
        name = q.decode() if isinstance(q, bytes) else q
        if name.startswith("seed-staging-"):
            r.srem(f"{P}:queues", q)
            r.delete(f"{P}:q:{name}:active", f"{P}:q:{name}:marker", f"{P}:q:{name}:ready")
    r.sadd(f"{P}:queues", message.queue)
    if req.get("died_ago"):
        # potatoq's dead script stamps the server's TIME; age the letter afterwards.
        died = int((time.time() - float(req["died_ago"])) * 1000)
        r.hset(f"{P}:job:{task_id}", "died", died)
        r.zadd(f"{P}:dead", {task_id: died})
    return task_id


def op_dead_letter_raw(req: dict[str, Any]) -> None:
    """A letter whose payload potatoq can't decode, as its reaper leaves one (st=dead, r, died)."""
    died = int(time.time() * 1000)
    r.hset(f"{P}:job:{req['id']}", mapping={"q": req["queue"], "p": req["payload"], "pr": 0, "d": 1, "st": "dead", "r": req["reason"], "died": died})
    r.zadd(f"{P}:dead", {req["id"]: died})
    r.sadd(f"{P}:queues", req["queue"])


def op_job_raw(req: dict[str, Any]) -> None:
    """A waiting task with a verbatim payload, through potatoq's own enqueue script."""
    broker.run("enqueue", 1, req["id"], req["queue"], int(req.get("priority", 0)), 0, req["payload"])  # type: ignore[attr-defined]


def op_heartbeat(req: dict[str, Any]) -> None:
    with mock.patch("time.time", return_value=time.time() - float(req.get("age", 0))):
        broker.heartbeat(req["id"], req["info"])


def op_raw_worker(req: dict[str, Any]) -> None:
    r.hset(f"{P}:workers", req["id"], req["info"])


def op_job(req: dict[str, Any]) -> dict[str, Any] | None:
    st, p = r.hmget(f"{P}:job:{req['id']}", "st", "p")
    state = STATES.get(st.decode() if isinstance(st, bytes) else st or "")
    if state is None:
        return None
    return {"state": state, "payload": p.decode() if isinstance(p, bytes) else p}


def op_dead(req: dict[str, Any]) -> dict[str, Any] | None:
    st = r.hget(f"{P}:job:{req['id']}", "st")
    listed = r.zscore(f"{P}:dead", req["id"]) is not None
    return {"id": req["id"]} if listed and st in (b"dead", "dead") else None


def op_result(req: dict[str, Any]) -> dict[str, Any] | None:
    raw = r.get(f"{P}:result:{req['id']}")
    if raw is None:
        return None
    data = json.loads(raw)
    return {"state": data.get("status"), "status": data.get("status"), "name": data.get("name"), "keys": list(data), "payload": raw.decode() if isinstance(raw, bytes) else raw}


def op_queue_sizes(req: dict[str, Any]) -> dict[str, int]:
    return broker.queue_sizes()


for name, fn in list(globals().items()):
    if name.startswith("op_"):
        setattr(seeder, name, fn)

if __name__ == "__main__":
    seeder.main()
