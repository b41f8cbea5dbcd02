"""The Celery 5.7 app of `npm run bench:celery` (bench/celery.ts): the app its workers, its
producer (celery_bench_seed.py) and Flower all load, so the console and Flower read what the real
Celery wrote.

CB_BROKER / CB_BACKEND: the private Redis of the run (broker on db 0, results on db 1).
"""

from __future__ import annotations

import os
import time

from celery import Celery

app = Celery("celery_bench_app", broker=os.environ["CB_BROKER"], backend=os.environ["CB_BACKEND"])
# Name, args, kwargs and queue in each result record: what the console shows on a failure (and
# needs to replay it). Celery's default is off; the console says so when a record lacks them.
app.conf.result_extended = True
app.conf.worker_prefetch_multiplier = 1
app.conf.broker_connection_retry_on_startup = True
# bench/queues.ts seeds the shared bench Redis db under a key prefix of its own.
if os.environ.get("CB_KEYPREFIX"):
    app.conf.broker_transport_options = {"global_keyprefix": os.environ["CB_KEYPREFIX"]}

# Five kinds of failure, each with its own message shape, as a live app would have.
_ERRORS = [
    (ConnectionError, "upstream {n} refused the connection"),
    (TimeoutError, "payment gateway timed out after {n} ms"),
    (ValueError, "order order-{n} has no line items"),
    (KeyError, "customer-{n}"),
    (RuntimeError, "inventory lock for sku-{n} held by another worker"),
]


def _charge(n: int) -> None:
    kind, text = _ERRORS[n % len(_ERRORS)]
    raise kind(text.format(n=n))


@app.task(name="bench.slow", ignore_result=True)
def slow(n: int, order: str, note: str = "") -> int:
    """The backlog's task: slower than the producer, so its queues stay long while workers run.
    No result kept: the result backend's db then holds the FAILURE records (and the churn's)."""
    time.sleep(0.5)
    return n


@app.task(name="bench.ok")
def ok(n: int) -> int:
    return n


@app.task(name="bench.fail")
def fail(n: int, order: str) -> None:
    """Always fails, with a traceback two frames deep."""
    _charge(n)
