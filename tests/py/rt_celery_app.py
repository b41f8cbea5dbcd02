"""A plain Celery 5.7 app for the console's Celery tests: its worker runs what the console
enqueues and replays; its producer writes what the console reads.

Environment: CT_BROKER (redis://.../10 or amqp://...), CT_BACKEND (redis://.../11), CT_OUT (a
folder: each run writes <task id>.json with the args as Python saw them).
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

from celery import Celery

app = Celery("rt_celery_app", broker=os.environ["CT_BROKER"], backend=os.environ.get("CT_BACKEND") or None)
app.conf.result_extended = True
if os.environ.get("CT_RESULT_PREFIX"):
    app.conf.result_backend_transport_options = {"global_keyprefix": os.environ["CT_RESULT_PREFIX"]}
app.conf.worker_prefetch_multiplier = 1
app.conf.broker_connection_retry_on_startup = True
if app.conf.broker_url.startswith("amqp"):
    # Publisher confirms: a test reads the queue right after send_task.
    app.conf.broker_transport_options = {"confirm_publish": True}
elif os.environ.get("CT_BROKER_PREFIX"):
    app.conf.broker_transport_options = {"global_keyprefix": os.environ["CT_BROKER_PREFIX"]}
elif os.environ.get("CT_VISIBILITY"):
    # A short visibility timeout, swept every second: a lost reservation comes back quickly.
    app.conf.broker_transport_options = {
        "visibility_timeout": int(os.environ["CT_VISIBILITY"]),
        "unacked_restore_interval": 1,
        "unacked_restore_throttle": 1,
        # A worker killed with SIGKILL during its own sweep leaves kombu's restore mutex behind,
        # and no other worker restores anything until it expires (300 s by default).
        "unacked_mutex_expire": 5,
    }
if os.environ.get("CT_FAILURE_EXPIRES"):
    # FAILURE records get their own TTL (Celery 5.7's result_failure_expires).
    app.conf.result_failure_expires = int(os.environ["CT_FAILURE_EXPIRES"])
if os.environ.get("CT_RESULT_EXPIRES"):
    # Results expire this soon (Redis drops the key itself): a campaign's "gone".
    app.conf.result_expires = int(os.environ["CT_RESULT_EXPIRES"])
OUT = Path(os.environ.get("CT_OUT", "/tmp"))


def _record(task_id: str, args, kwargs) -> None:
    described = {"args": [[type(a).__name__, repr(a)] for a in args], "kwargs": {k: [type(v).__name__, repr(v)] for k, v in kwargs.items()}}
    # Written whole, then renamed: a test polling for the file never reads half of it.
    tmp = OUT / f".{task_id}.json.tmp"
    tmp.write_text(json.dumps(described))
    tmp.rename(OUT / f"{task_id}.json")


@app.task(bind=True, name="ct.record")
def record(self, *args, **kwargs):
    """Writes what it was called with, so a test can check the types a worker saw."""
    _record(self.request.id, args, kwargs)
    return len(args)


@app.task(bind=True, name="ct.sleep")
def sleep(self, seconds: float):
    (OUT / f"{self.request.id}.started").write_text("1")
    time.sleep(seconds)
    _record(self.request.id, [seconds], {})
    return seconds


@app.task(bind=True, name="ct.flaky")
def flaky(self, flag: str):
    """Fails until the file `flag` exists in CT_OUT: a failure the console can replay."""
    if not (OUT / flag).exists():
        raise ValueError(f"flag {flag} is not set")
    _record(self.request.id, [flag], {})
    return "ok"


@app.task(bind=True, name="ct.fail_long")
def fail_long(self, n: int, end: str):
    """Fails with an exception message n characters long, `end` at its very end."""
    raise ValueError("x" * n + " " + end)


if os.environ.get("CT_DLX"):
    # "queue:dlq": the worker declares `queue` dead-lettering into `dlq` (as the test declared it).
    from kombu import Exchange, Queue

    _q, _dlq = os.environ["CT_DLX"].split(":", 1)
    app.conf.task_queues = [Queue(_q, Exchange(_q, "direct"), routing_key=_q, queue_arguments={"x-dead-letter-exchange": "", "x-dead-letter-routing-key": _dlq})]


if os.environ.get("CT_ROUTING_KEY"):
    # "queue:key": `queue` is bound to a direct exchange of its name with routing key `key`: a task
    # sent with exchange=queue, routing_key=key (as task_routes would) reaches it, and its result
    # record's `queue` is that key (send_task(queue=...) uses the default exchange instead).
    from kombu import Exchange, Queue

    _q, _rk = os.environ["CT_ROUTING_KEY"].split(":", 1)
    app.conf.task_queues = [Queue(_q, Exchange(_q, "direct"), routing_key=_rk)]


@app.task(bind=True, name="ct.reject", acks_late=True)
def reject(self, why: str):
    """Rejected without requeue: RabbitMQ dead-letters the message into the queue's DLX."""
    from celery.exceptions import Reject

    raise Reject(why, requeue=False)


@app.task(bind=True, name="ct.reject_quiet", acks_late=True, ignore_result=True)
def reject_quiet(self, why: str):
    """As ct.reject, but no FAILURE record is stored: the DLQ message is all there is."""
    from celery.exceptions import Reject

    raise Reject(why, requeue=False)


def _reject_until(self, flag: str):
    """Counts its runs (a line per run in CT_OUT/<id>.runs); rejected without requeue until the
    file `flag` exists in CT_OUT, then succeeds: a dead-lettered task the console can replay."""
    from celery.exceptions import Reject

    with open(OUT / f"{self.request.id}.runs", "a") as f:
        f.write("run\n")
    if not (OUT / flag).exists():
        raise Reject(f"flag {flag} is not set", requeue=False)
    return "ok"


reject_until = app.task(bind=True, name="ct.reject_until", acks_late=True)(_reject_until)
# As ct.reject_until, with no FAILURE record: the DLQ message is all there is of it.
reject_until_quiet = app.task(bind=True, name="ct.reject_until_quiet", acks_late=True, ignore_result=True)(_reject_until)


@app.task(bind=True, name="ct.hold", acks_late=True)
def hold(self, seconds: float):
    """Acknowledged only when it returns: while it runs its message stays in kombu's unacked
    hash. A second delivery (after its worker was killed) returns at once."""
    started = OUT / f"{self.request.id}.started"
    if not started.exists():
        started.write_text("1")
        time.sleep(seconds)
    _record(self.request.id, [seconds], {})
    return seconds


@app.task(bind=True, name="er.when")
def when(self, *args, **kwargs):
    """Fails unless `at` is a datetime (a letter to replay with an edited, typed `at`); each run
    appends its queue to <id>.runs, so a test can count runs and see where the task came from."""
    if not hasattr(kwargs.get("at"), "tzinfo"):
        raise TypeError(f"at must be a datetime, got {type(kwargs.get('at')).__name__}")
    # What it was called with first, then the run: a test that sees the run can read the record.
    _record(self.request.id, args, kwargs)
    with open(OUT / f"{self.request.id}.runs", "a") as f:
        f.write(f"{(self.request.delivery_info or {}).get('routing_key')}\n")
    return "ok"


@app.task(name="cp.half")
def cp_half(n: int) -> int:
    """Fails until the file `fixed` exists in CT_OUT; then a quarter of the calls still fail with
    the same error and a quarter with a new one (a campaign where half die again)."""
    if not (OUT / "fixed").exists() or n % 4 == 1:
        raise ValueError(f"card {n} declined")
    if n % 4 == 3:
        raise KeyError(f"account {n} closed")
    return n * 2
