"""A potatoq app whose only task always fails: used by worker_dead_letter_check.py.

Queue, broker and result backend come from the environment so each check run is isolated.
"""

import os

from potatoq import Potatoq

app = Potatoq(
    "rabbitprobe",
    broker=os.environ["POTATOQ_BROKER_URL"],
    backend=os.environ["POTATOQ_RESULT_BACKEND"],
)
app.conf.task_default_queue = os.environ["RABBITPROBE_QUEUE"]


@app.task
def boom(n: int) -> None:
    raise ValueError(f"rabbit probe failure {n}")


@app.task
def crash(n: int) -> None:
    # Kills the worker process mid-task: only the broker's delivery limit can dead-letter this.
    os._exit(1)
