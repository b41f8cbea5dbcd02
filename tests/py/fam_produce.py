"""Sends one chord (three parts, the middle one failing) and one chain; prints their ids."""

from __future__ import annotations

import json

from fam_tasks import add, collect, flaky
from potatoq import chain, chord

c = chord([add.s(1, 1), flaky.s(2), add.s(3, 3)], collect.s())
res = c.apply_async()
parts = [t.id for t in c.tasks]
ch = chain(add.s(1, 2), add.s(3), add.s(4))
cres = ch.apply_async()
steps = [t.id for t in ch.tasks]
print(json.dumps({"chordParts": parts, "callback": res.id, "group": c.options.get("group_id"), "chain": steps}))
