"""potatoq app for the console's benchmarks (bench/*.ts): broker URL and transport options from
the environment, so the real `potatoq worker`, `dashboard`, `queues` and `dead list` run on the
benchmark's database.

BENCH_BROKER_URL: broker URL. BENCH_BROKER_OPTIONS: JSON of broker_transport_options.
BENCH_DEFAULT_QUEUE: task_default_queue (on RabbitMQ, the queue whose DLQ `potatoq dead` reads).
BENCH_RESULT_BACKEND / BENCH_RESULT_OPTIONS: result backend URL and its transport options (on
RabbitMQ the workers' heartbeats live there). BENCH_QUEUES: comma-separated queues potatoq should
know (routes of placeholder tasks): on RabbitMQ, `queues` and the dashboard read only known queues.
"""

from __future__ import annotations

import json
import os

from potatoq import Potatoq

app = Potatoq("bench", broker=os.environ["BENCH_BROKER_URL"], backend=os.environ.get("BENCH_RESULT_BACKEND") or None)
app.conf.broker_transport_options = json.loads(os.environ.get("BENCH_BROKER_OPTIONS") or "{}")
if os.environ.get("BENCH_DEFAULT_QUEUE"):
    app.conf.task_default_queue = os.environ["BENCH_DEFAULT_QUEUE"]
if os.environ.get("BENCH_RESULT_OPTIONS"):
    app.conf.result_backend_transport_options = json.loads(os.environ["BENCH_RESULT_OPTIONS"])
app.conf.task_routes = {
    "bench.churn": {"queue": "bench-churn"},
    **{f"bench.known.{q}": {"queue": q} for q in filter(None, os.environ.get("BENCH_QUEUES", "").split(","))},
}


@app.task(name="bench.churn")
def churn(*args: object, **kwargs: object) -> None:
    """What the churning worker runs: nothing, so it claims and completes as fast as it can."""
