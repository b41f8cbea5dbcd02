"""The producer of `npm run bench:celery`: `app.send_task`, as an application sends, over one
producer connection (kombu's Redis transport: one LPUSH a message).

argv[1]: JSON list of batches {"task", "queues": [...], "n", "first"}; task i of a batch goes to
queues[i % len(queues)] with args (first + i, "order-<first + i>"). Prints one JSON line: per
batch the first and last task id sent (the last one is the last a worker takes from its queue).
"""

from __future__ import annotations

import json
import sys

from celery._state import _set_task_join_will_block

from celery_bench_app import app

# The producer never waits on a result: it skips the Redis backend's SUBSCRIBE per sent task (a
# worker sending tasks does the same), which would cap seeding at a few hundred tasks a second.
_set_task_join_will_block(True)

NOTE = "x" * 180  # a payload of about 250 bytes, like the other benchmarks'


def main() -> None:
    out = []
    with app.producer_or_acquire() as producer:
        for batch in json.loads(sys.argv[1]):
            queues, first, ids = batch["queues"], batch["first"], []
            for i in range(batch["n"]):
                n = first + i
                kwargs = {"note": NOTE} if batch["task"] == "bench.slow" else {}
                r = app.send_task(batch["task"], [n, f"order-{n}"] if batch["task"] != "bench.ok" else [n], kwargs,
                                  queue=queues[i % len(queues)], producer=producer)
                if i == 0 or i == batch["n"] - 1:
                    ids.append(r.id)
            out.append({"task": batch["task"], "first": ids[0] if ids else None, "last": ids[-1] if ids else None})
    print(json.dumps(out), flush=True)


if __name__ == "__main__":
    main()
