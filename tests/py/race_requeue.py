"""Replays dead letters with potatoq's own `requeue_dead` (what `potatoq dead retry` runs), as
fast as it can, while the console replays the same ids. Prints the ids potatoq requeued."""

import json
import sys

from potatoq import Potatoq

app = Potatoq("race", broker=sys.argv[1])
ids = json.loads(sys.stdin.readline())
print("ready", flush=True)
sys.stdin.readline()  # go
print(json.dumps([i for i in ids if app.broker.requeue_dead(i)]), flush=True)
