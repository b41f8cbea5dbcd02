"""Sends a chord (three parts: one failing, one held on a queue no worker takes yet), a group
and a chain, each step on the queue given; prints their ids as JSON."""

from __future__ import annotations

import json
import os
import sys

from celery import chain, chord, group
from fam_celery_app import add, collect, flaky

queue, held = sys.argv[1], sys.argv[2]
c = chord([add.s(1, 1).set(queue=queue), flaky.s(2).set(queue=queue), add.s(3, 3).set(queue=held)], collect.s().set(queue=queue))
cres = c.apply_async()
g = group(add.s(5, 5).set(queue=queue), add.s(6, 6).set(queue=queue)).apply_async()
ch = chain(add.s(1, 2).set(queue=queue), add.s(3).set(queue=queue), add.s(4).set(queue=queue)).apply_async()
chain_ids = []
r = ch
while r is not None:
    chain_ids.insert(0, r.id)
    r = r.parent
print(json.dumps({
    "chord": {"callback": cres.id, "parts": [x.id for x in cres.parent.results], "group": cres.parent.id},
    "group": {"id": g.id, "parts": [x.id for x in g.results]},
    "chain": chain_ids,
}))
sys.stdout.flush()
# The AsyncResults above unsubscribe from Redis in __del__ during interpreter shutdown, when
# Celery's modules are half torn down (an ImportError printed at exit): leave without that.
os._exit(0)
