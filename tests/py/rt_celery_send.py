"""A real Celery producer: `send_task` of `proj.add` onto an existing potatoq (quorum) queue.

Usage: rt_celery_send.py BROKER_URL QUEUE -> prints the Celery task id.
The queue is potatoq's, so Celery must not declare it (its classic declare would be refused):
the message goes through the default exchange with the queue name as routing key.
"""

import sys

from celery import Celery
from kombu import Exchange, Queue

url, queue = sys.argv[1], sys.argv[2]
app = Celery("rtcelery", broker=url)
target = Queue(queue, exchange=Exchange("", type="direct"), routing_key=queue, no_declare=True)
result = app.send_task("proj.add", args=[2, 3], kwargs={"z": 1}, queue=target)
print(result.id)
