"""Reads through the Python client 0.5.0's own models (so a test sees whether the client parses
what the server answers): prints {"queues": [...], "dead_letters": [...], "whoami": {...}}."""
import json
import os
import sys

from queueflow.facade import QueueFlow


def main():
    qf = QueueFlow(os.environ['QUEUEFLOW_URL'], os.environ['QUEUEFLOW_TOKEN'])
    queue = sys.argv[1] if len(sys.argv) > 1 else None
    letters = qf.dlq.list_dead_letters(queue=queue, limit=100).dead_letters
    json.dump({
        'queues': [q.to_dict() for q in qf.queues()],
        'dead_letters': [d.to_dict() for d in letters],
        'whoami': qf.whoami().to_dict(),
    }, sys.stdout, default=str)


if __name__ == '__main__':
    main()
