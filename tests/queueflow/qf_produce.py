"""The Python client 0.5.0 as producer: reads a JSON list of jobs on stdin, enqueues each with
QueueFlow.create_job (tenant token from QUEUEFLOW_TOKEN) and prints the created job records
(as the client parsed them) as a JSON list on stdout.

Each item: {"task", "payload"?, "queue"?, "max_retries"?, "retry_delay_secs"?, "retry_backoff"?,
"idempotency_key"?, "run_at"? (ISO 8601)}.
"""
import json
import os
import sys
from datetime import datetime

from queueflow.facade import QueueFlow

KEYS = ('queue', 'max_retries', 'retry_delay_secs', 'retry_backoff', 'idempotency_key', 'priority', 'timeout')


def main():
    qf = QueueFlow(os.environ['QUEUEFLOW_URL'], os.environ['QUEUEFLOW_TOKEN'])
    out = []
    for item in json.load(sys.stdin):
        kw = {k: item[k] for k in KEYS if k in item}
        if 'run_at' in item:
            kw['run_at'] = datetime.fromisoformat(item['run_at'].replace('Z', '+00:00'))
        job = qf.create_job(item['task'], payload=item.get('payload') or {}, **kw)
        out.append(job.to_dict())
    json.dump(out, sys.stdout, default=str)


if __name__ == '__main__':
    main()
