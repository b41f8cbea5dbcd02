"""potatoq tasks for the edit-and-replay round trips (tests/roundtrip/edit-replay-potatoq.int.test.ts).

ER_BROKER is the broker URL (Redis db 2 or RabbitMQ), ER_PREFIX potatoq's `global_keyprefix` on
Redis, ER_OUT a folder. `er.when` fails unless its `at` is a datetime, so the real worker
dead-letters a call with a text `at`; a replay with an edited, typed `at` runs and appends what
it received (types and reprs) as one JSON line per run to ER_OUT/<task id>.runs.
"""

from __future__ import annotations

import json
import os
from datetime import datetime
from pathlib import Path
from typing import Any

from potatoq import Potatoq

app = Potatoq("er", broker=os.environ["ER_BROKER"])
if os.environ.get("ER_PREFIX"):
    app.conf.broker_transport_options = {"global_keyprefix": os.environ["ER_PREFIX"]}
OUT = Path(os.environ.get("ER_OUT", "."))


@app.task(name="er.when", bind=True)
def when(self: Any, *args: Any, **kwargs: Any) -> str:
    at = kwargs.get("at")
    if not isinstance(at, datetime):
        raise TypeError(f"at must be a datetime, got {type(at).__name__}")
    line = {
        "args": [[type(a).__name__, repr(a)] for a in args],
        "kwargs": {k: [type(v).__name__, repr(v)] for k, v in kwargs.items()},
    }
    with open(OUT / f"{self.request.id}.runs", "a") as f:
        f.write(json.dumps(line) + "\n")
    return "ok"
