"""Sends one chord (three parts, the middle one failing) and one chain, on the queue given as
the first argument (default: the app's default queue); prints the chord callback's id. With
FAM_CHAIN_FAILS=1 the chain's middle step is `fam.flaky` (it fails until replayed)."""

from __future__ import annotations

import json
import os
import sys

from fam_tasks import add, collect, flaky
from potatoq import chain, chord

q = {"queue": sys.argv[1]} if len(sys.argv) > 1 else {}
c = chord([add.s(1, 1).set(**q), flaky.s(2).set(**q), add.s(3, 3).set(**q)], collect.s().set(**q))
res = c.apply_async()
middle = flaky.s() if os.environ.get("FAM_CHAIN_FAILS") == "1" else add.s(3)
chain(add.s(1, 2).set(**q), middle.set(**q), add.s(4).set(**q)).apply_async()
print(json.dumps({"callback": res.id}))
