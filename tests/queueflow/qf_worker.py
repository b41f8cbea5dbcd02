"""A real QueueFlow worker for the round-trip tests: the Python client 0.5.0's run_worker.

Environment: QUEUEFLOW_URL, QUEUEFLOW_TOKEN (tenant), QUEUEFLOW_WORKER_TOKEN, QF_QUEUE (the queue
it leases from), QF_OUT (a directory: one line per handler run is appended to QF_OUT/<job id>,
so a test can tell whether, and how often, a job ran). SIGTERM stops it gracefully.

Handlers: `qf.ok` succeeds (result echoes the payload), `qf.fatal` raises NonRetryableError (until QF_OUT/fixed-<payload n> exists),
`qf.flaky` always raises RuntimeError (retryable), `qf.slow` runs until its job is cancelled
(seen by the heartbeat, every QF_LEASE_SECS/2 s). Any other task has no handler here.
"""
import json
import logging
import os
import signal
import sys
import threading
import time

from queueflow.facade import NonRetryableError, QueueFlow

OUT = os.environ['QF_OUT']


def record(job, outcome):
    with open(os.path.join(OUT, job.id), 'a') as f:
        f.write(json.dumps({'task': job.task_name, 'queue': job.queue_name, 'payload': job.payload, 'outcome': outcome, 'at': time.time()}) + '\n')


def ok(job):
    record(job, 'ok')
    return {'echo': job.payload}


def fatal(job):
    # Permanent until the test "deploys the fix" (creates QF_OUT/fixed-<n>): then a replay of the
    # dead letter succeeds, as it would after a real fix.
    n = job.payload.get('n')
    if os.path.exists(os.path.join(OUT, f'fixed-{n}')):
        record(job, 'ok')
        return {'fixed': n}
    record(job, 'fatal')
    raise NonRetryableError(f'refused: payload n={n} is not valid')


def flaky(job):
    record(job, 'flaky')
    raise RuntimeError(f'still failing on delivery {job.delivery_count}')


def slow(job, ctx):
    # Runs until the server says the job is no longer ours (the heartbeat sees the cancel).
    record(job, 'started')
    end = time.time() + 30
    while time.time() < end:
        if ctx.cancelled:
            record(job, 'saw-cancel')
            return {}
        time.sleep(0.1)
    record(job, 'ok')
    return {}


def when(job):
    # Refuses (for good) a payload whose `at` is not an ISO 8601 date-time: a letter to replay
    # with an edited `at`. Records the value as Python parsed it.
    from datetime import datetime

    try:
        at = datetime.fromisoformat(str(job.payload.get('at')))
    except ValueError:
        record(job, 'fatal')
        raise NonRetryableError(f"at is not a date-time: {job.payload.get('at')!r}")
    record(job, repr(at))
    return {'at': at.isoformat()}


def main():
    logging.basicConfig(level=logging.INFO, stream=sys.stderr, format='%(asctime)s %(levelname)s %(name)s %(message)s')
    qf = QueueFlow(os.environ['QUEUEFLOW_URL'], os.environ['QUEUEFLOW_TOKEN'], worker_token=os.environ['QUEUEFLOW_WORKER_TOKEN'])
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    print('worker ready', flush=True)
    qf.run_worker(os.environ['QF_QUEUE'], {'qf.ok': ok, 'qf.fatal': fatal, 'qf.flaky': flaky, 'qf.slow': slow, 'qf.when': when}, lease_secs=int(os.environ.get('QF_LEASE_SECS', '30')), stop=stop, poll_wait_secs=1, concurrency=2, drain_timeout=5)


if __name__ == '__main__':
    main()
