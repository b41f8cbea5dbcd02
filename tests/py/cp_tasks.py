"""Tasks for the console's campaign follow-up tests: `cp.half` fails until CP_OUT/fixed exists;
then a quarter of the tasks still fail with the same error and a quarter with a new one.
CP_RESULT_EXPIRES sets potatoq's result_expires (a result that expires: gone). CP_BACKEND (with
CP_PREFIX, its key prefix) is the result backend where the broker keeps none (RabbitMQ)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from potatoq import Potatoq

if os.environ.get("CP_BACKEND"):
    app = Potatoq("cp", broker=os.environ["CP_BROKER"], backend=os.environ["CP_BACKEND"])
    app.conf.result_backend_transport_options = {"prefix": os.environ["CP_PREFIX"]}
else:
    app = Potatoq("cp", broker=os.environ["CP_BROKER"])
app.conf["result_expires"] = float(os.environ.get("CP_RESULT_EXPIRES", "86400"))
OUT = Path(os.environ.get("CP_OUT", "."))


@app.task(name="cp.half")
def half(n: int) -> int:
    if not (OUT / "fixed").exists() or n % 4 == 1:
        raise ValueError(f"card {n} declined")
    if n % 4 == 3:
        raise KeyError(f"account {n} closed")
    return n * 2


if __name__ == "__main__":
    # `python cp_tasks.py produce QUEUE N`: prints the ids; `python cp_tasks.py maintenance`:
    # potatoq's own maintenance pass (drops expired results).
    if sys.argv[1] == "produce":
        ids = [half.apply_async((i,), queue=sys.argv[2]).id for i in range(int(sys.argv[3]))]
        print(" ".join(ids))
    else:
        app.broker.maintenance()
