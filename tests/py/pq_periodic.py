"""A potatoq app with two periodic tasks, for the console's Schedules tab: its `beat` (or any
worker's scheduler) writes a durable claim per firing, which the console reads. Broker URL
from RT_BROKER, Redis key prefix from RT_PREFIX, PostgreSQL schema and table prefix from
PQ_PG_OPTIONS (JSON transport options)."""

from __future__ import annotations

import json
import os

from potatoq import Potatoq

app = Potatoq("periodic", broker=os.environ["RT_BROKER"])
options = json.loads(os.environ.get("PQ_PG_OPTIONS") or "{}")
if os.environ.get("RT_PREFIX"):
    options["global_keyprefix"] = os.environ["RT_PREFIX"]
app.conf.broker_transport_options = options
app.conf.beat_schedule = {
    "pq-every-second": {"task": "pq.tick", "schedule": 1.0, "options": {"queue": os.environ.get("RT_QUEUE", "default")}},
    "pq-every-two": {"task": "pq.tick", "schedule": 2.0, "options": {"queue": os.environ.get("RT_QUEUE", "default")}},
}


@app.task(name="pq.tick")
def tick() -> str:
    return "tick"
