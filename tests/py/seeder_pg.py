"""The console's test seeder (seeder.py) on PostgreSQL: the same ops through the REAL potatoq,
with potatoq's ``schema``/``table_prefix`` transport options and SQL inspection written for
PostgreSQL (through the broker's own connection and table names).

Usage: seeder_pg.py BROKER_URL TRANSPORT_OPTIONS_JSON
"""

from __future__ import annotations

import json
import sys
import time
from typing import Any

import seeder  # noqa: E402  (its module-level app is replaced below)
from potatoq import Potatoq, serialization
from potatoq.brokers.base import ResultRecord

app = Potatoq("seeder-pg", broker=sys.argv[1])
app.conf.broker_transport_options = json.loads(sys.argv[2] if len(sys.argv) > 2 else "{}")
broker = app.broker
seeder.app = app
seeder.broker = broker
STATE_NAMES = {0: "scheduled", 1: "ready", 2: "running"}
_dead_letter = seeder.op_dead_letter


def _q(template: str, params: tuple[Any, ...] = ()) -> Any:
    return broker._run(lambda conn: conn.execute(broker._sql(template), params).fetchall())  # type: ignore[attr-defined]


def op_dead_letter_raw(req: dict[str, Any]) -> None:
    _q("INSERT INTO {dead} (id, queue, task, reason, payload) VALUES (%s, %s, %s, %s, %s) RETURNING id",
       (req["id"], req["queue"], req["task"], req["reason"], req["payload"]))  # fmt: skip


def op_job_raw(req: dict[str, Any]) -> None:
    _q("INSERT INTO {jobs} (id, queue, task, state, priority, payload) VALUES (%s, %s, %s, 1, %s, %s) RETURNING id",
       (req["id"], req["queue"], req["task"], req.get("priority", 0), req["payload"]))  # fmt: skip


def op_raw_worker(req: dict[str, Any]) -> None:
    _q("INSERT INTO {workers} (id, heartbeat, info) VALUES (%s, now(), %s) RETURNING id", (req["id"], req["info"]))


def op_heartbeat(req: dict[str, Any]) -> None:
    # potatoq stamps heartbeats with the server's now(); age them afterwards.
    broker.heartbeat(req["id"], req["info"])
    _q("UPDATE {workers} SET heartbeat = now() - make_interval(secs => %s) WHERE id = %s RETURNING id", (float(req.get("age", 0)), req["id"]))


def op_dead_letter(req: dict[str, Any]) -> str:
    task_id = _dead_letter({**req, "died_ago": None})
    if req.get("died_ago"):
        _q("UPDATE {dead} SET died_at = now() - make_interval(secs => %s) WHERE id = %s RETURNING id", (float(req["died_ago"]), task_id))
    return task_id


def op_job(req: dict[str, Any]) -> dict[str, Any] | None:
    rows = _q("SELECT state, queue, task, priority, extract(epoch FROM run_at)::float8, extract(epoch FROM created_at)::float8, deliveries, payload "
              "FROM {jobs} WHERE id = %s", (req["id"],))  # fmt: skip
    if not rows:
        return None
    keys = ("state", "queue", "task", "priority", "run_at", "created_at", "deliveries", "payload")
    out = dict(zip(keys, rows[0]))
    out["state"] = STATE_NAMES.get(out["state"], str(out["state"]))
    return out


def op_dead(req: dict[str, Any]) -> dict[str, Any] | None:
    rows = _q("SELECT id, queue, task, reason, extract(epoch FROM died_at)::float8, payload FROM {dead} WHERE id = %s", (req["id"],))
    return dict(zip(("id", "queue", "task", "reason", "died_at", "payload"), rows[0])) if rows else None


def op_result(req: dict[str, Any]) -> dict[str, Any] | None:
    rows = _q("SELECT state, payload, extract(epoch FROM expires_at - now())::float8 FROM {results} WHERE id = %s", (req["id"],))
    if not rows:
        return None
    state, payload, expires_in = rows[0]
    record = ResultRecord.from_dict(serialization.loads(payload))  # potatoq must be able to read it back
    data = json.loads(payload)
    return {"state": state, "status": record.state, "name": record.task_name, "keys": list(data), "date_done": record.date_done,
            "date_done_type": type(record.date_done).__name__, "expires_in": expires_in, "payload": payload}  # fmt: skip


def op_count(req: dict[str, Any]) -> dict[str, int]:
    rows = _q("SELECT (SELECT count(*) FROM {jobs}), (SELECT count(*) FROM {dead}), (SELECT count(*) FROM {results})")
    return {"jobs": rows[0][0], "dead": rows[0][1], "results": rows[0][2]}


for name, fn in list(globals().items()):
    if name.startswith("op_"):
        setattr(seeder, name, fn)

if __name__ == "__main__":
    seeder.main()
