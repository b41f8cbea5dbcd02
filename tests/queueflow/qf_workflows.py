"""The Python client 0.5.0 creating workflows: reads a JSON list of workflows on stdin, builds
each with its WorkflowBuilder (validated locally, as an application would) and creates it with
QueueFlow.create_workflow (tenant token from QUEUEFLOW_TOKEN). Prints [{"id", "name", "status"}].

Each item: {"name", "steps": [{"name", "task", "after"?, "payload"?, "queue"?, "on_failure"?,
"fan_out"?}]}.
"""
import json
import os
import sys

from queueflow.facade import QueueFlow, WorkflowBuilder

KEYS = ('after', 'payload', 'queue', 'on_failure', 'fan_out')


def main():
    qf = QueueFlow(os.environ['QUEUEFLOW_URL'], os.environ['QUEUEFLOW_TOKEN'])
    out = []
    for item in json.load(sys.stdin):
        b = WorkflowBuilder(item['name'])
        for st in item['steps']:
            b.step(st['name'], st['task'], **{k: st[k] for k in KEYS if k in st})
        wf = qf.create_workflow(b)
        out.append({'id': wf.id, 'name': wf.name, 'status': str(wf.status.value if hasattr(wf.status, 'value') else wf.status)})
    json.dump(out, sys.stdout)


if __name__ == '__main__':
    main()
