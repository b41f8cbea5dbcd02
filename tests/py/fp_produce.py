"""Enqueues N failing tasks of the two kinds with varied ids, amounts, durations, paths and
quoted values (argv: N)."""

from __future__ import annotations

import random
import sys
import uuid

from fp_tasks import charge, export

n = int(sys.argv[1])
rng = random.Random(12)
reasons = ["insufficient funds", "card expired", "do not honour", "suspected fraud"]
for i in range(n):
    if i % 3 == 0:
        order = rng.randint(10_000, 99_999)
        day = f"2026-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
        # Always "Expecting value: line 1 column 1 (char 0)": one bug, whatever the bytes.
        raw = rng.choice(["<html>", "not json", "'quoted'", "nope", "error: "]) + str(rng.randint(0, 9999))
        export.apply_async((f"/srv/exports/{day}/{order}.json", raw), queue="fp-exports")
    else:
        charge.apply_async(
            (str(uuid.uuid4()), f"{rng.randint(501, 99_999)}.{rng.randint(0, 99):02d}", rng.randint(3, 30_000), rng.getrandbits(32), rng.choice(reasons)),
            queue="fp-billing",
        )
