"""The Python client 0.5.0 and its cron schedules: reads a JSON command on stdin and prints
the answer as JSON. {"create": [{"name", "schedule", "task", "payload"?, "queue"?}]} creates
each through QueueFlow.create_cron and prints their ids; {"list": true} prints every
schedule as the client's own CronSchedule model parsed it.
"""
import json
import os
import sys

from queueflow.facade import QueueFlow


def main():
    qf = QueueFlow(os.environ['QUEUEFLOW_URL'], os.environ['QUEUEFLOW_TOKEN'])
    cmd = json.load(sys.stdin)
    if 'create' in cmd:
        ids = [
            qf.create_cron(c['name'], c['schedule'], c['task'], payload=c.get('payload'), queue=c.get('queue'))
            for c in cmd['create']
        ]
        json.dump(ids, sys.stdout)
    else:
        crons = qf.cron.list_crons(limit=100).crons
        json.dump([c.to_dict() for c in crons], sys.stdout, default=str)


if __name__ == '__main__':
    main()
