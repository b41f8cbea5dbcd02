"""A task that outlives its worker, for the console's stuck-work tests: the test kills the
worker (SIGKILL) while `stuck.hold` runs, leaving potatoq's row running with a silent node."""

from __future__ import annotations

import os
import time

from potatoq import Potatoq

app = Potatoq("stuck", broker=os.environ["RT_BROKER"])


@app.task(name="stuck.hold")
def hold(seconds: float) -> str:
    time.sleep(seconds)
    return "held"
