"""Re-encodes every row of a demo broker file with the installed potatoq and reports rows
whose bytes differ: the demo writes payloads itself, so this proves they are potatoq's."""
import json
import sqlite3
import sys

from potatoq import serialization
from potatoq.message import Message

db = sqlite3.connect(sys.argv[1])
problems = []
checked = 0
for table in ("potatoq_jobs", "potatoq_dead"):
    for row_id, queue, payload in db.execute(f"SELECT id, queue, payload FROM {table}"):
        if queue == "poison":
            continue
        checked += 1
        message = Message.decode(payload)
        if message.encode() != payload:
            problems.append({"table": table, "id": row_id, "ours": payload[:300], "potatoq": message.encode()[:300]})
for row_id, payload in db.execute("SELECT id, payload FROM potatoq_results"):
    checked += 1
    if serialization.dumps(serialization.loads(payload)) != payload:
        problems.append({"table": "potatoq_results", "id": row_id, "ours": payload[:300]})
for row_id, info in db.execute("SELECT id, info FROM potatoq_workers"):
    checked += 1
    if json.dumps(json.loads(info)) != info:
        problems.append({"table": "potatoq_workers", "id": row_id, "ours": info})
print(json.dumps({"checked": checked, "problems": problems}))
