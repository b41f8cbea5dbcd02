"""Sends a chord (three parts, the middle one failing), a group and a chain; prints ids."""

from __future__ import annotations

import json
import sys

from celery import chain, chord, group
from fam_celery_app import add, collect, flaky

queue = sys.argv[1] if len(sys.argv) > 1 else "celery"
c = chord([add.s(1, 1), flaky.s(2), add.s(3, 3)], collect.s()).set(queue=queue)
cres = c.apply_async(queue=queue)
g = group(add.s(5, 5), add.s(6, 6)).apply_async(queue=queue)
ch = chain(add.s(1, 2), add.s(3), add.s(4)).apply_async(queue=queue)
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
