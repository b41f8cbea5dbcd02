"""Sends tasks with the real Celery producer (rt_celery_app's app, so its task_queues route them
through the queue's own exchange, as an app's send_task does).

Usage: cdlq_send.py QUEUE TASK COUNT ARG [TASK_ID] -> prints the task ids as a JSON list (with
TASK_ID, COUNT must be 1: the app sends a task again under the id it had).
"""

import json
import sys

from rt_celery_app import app

queue, task, count, arg = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
task_id = sys.argv[5] if len(sys.argv) > 5 else None
with app.producer_or_acquire() as producer:
    ids = [app.send_task(task, args=[arg], queue=queue, producer=producer, task_id=task_id).id for _ in range(count)]
print(json.dumps(ids))
