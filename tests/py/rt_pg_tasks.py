"""potatoq app for the console's PostgreSQL tests and benchmark: broker URL and transport
options (schema, table_prefix, poll_interval, ...) from the environment, so the real
`potatoq migrate`, `worker`, `queues`, `dead list/retry` run against the test's schema.

PQ_PG_URL: broker URL. PQ_PG_OPTIONS: JSON of broker_transport_options.
RT_OUT: where tasks record what they received (as rt_tasks.py does).
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

from potatoq import Potatoq

app = Potatoq("rtpg", broker=os.environ["PQ_PG_URL"])
app.conf.broker_transport_options = json.loads(os.environ.get("PQ_PG_OPTIONS") or "{}")
OUT = Path(os.environ.get("RT_OUT", "."))


@app.task(name="rt.record", bind=True)
def record(self: Any, *args: Any, **kwargs: Any) -> str:
    data = {"id": self.request.id, "args": [[type(a).__name__, repr(a)] for a in args], "ran_at": time.time()}
    (OUT / f"{self.request.id}.json").write_text(json.dumps(data, default=str))
    return "recorded"


@app.task(name="rt.slow", bind=True)
def slow(self: Any, seconds: float = 1.0) -> str:
    (OUT / f"{self.request.id}.started").write_text(str(time.time()))
    time.sleep(seconds)
    (OUT / f"{self.request.id}.json").write_text(json.dumps({"id": self.request.id, "ran_at": time.time()}))
    return "slept"


@app.task(name="rt.fail")
def fail(message: str) -> None:
    raise ValueError(message)
