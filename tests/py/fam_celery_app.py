"""A Celery 5.7 app for the console's task-family tests: a chord with one failing part, a
group and a chain. `fam.flaky` fails until FAM_OUT/<task id>.ok exists, so a replay can
succeed. Environment as rt_celery_app: CT_BROKER, CT_BACKEND, CT_BROKER_PREFIX,
CT_RESULT_PREFIX, FAM_OUT."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from celery import Celery

app = Celery("fam_celery_app", broker=os.environ["CT_BROKER"], backend=os.environ.get("CT_BACKEND") or None)
app.conf.result_extended = True
app.conf.worker_prefetch_multiplier = 1
app.conf.broker_connection_retry_on_startup = True
if os.environ.get("CT_RESULT_PREFIX"):
    app.conf.result_backend_transport_options = {"global_keyprefix": os.environ["CT_RESULT_PREFIX"]}
if app.conf.broker_url.startswith("amqp"):
    app.conf.broker_transport_options = {"confirm_publish": True}
elif os.environ.get("CT_BROKER_PREFIX"):
    app.conf.broker_transport_options = {"global_keyprefix": os.environ["CT_BROKER_PREFIX"]}
OUT = Path(os.environ.get("FAM_OUT", "/tmp"))


@app.task(name="fam.add")
def add(a: int, b: int) -> int:
    return a + b


@app.task(name="fam.flaky", bind=True)
def flaky(self: Any, n: int) -> int:
    if not (OUT / f"{self.request.id}.ok").exists():
        raise RuntimeError(f"flaky part {n} failed")
    return n


@app.task(name="fam.collect")
def collect(parts: list[int]) -> int:
    return sum(parts)
