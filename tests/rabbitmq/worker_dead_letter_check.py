"""A real potatoq worker dead-letters failing tasks into `<queue>.dlq`; does `potatoq dead list` keep them?

  .venv/bin/python tests/rabbitmq/worker_dead_letter_check.py --url amqp://potatoq:potatoq@127.0.0.1:5673//

Uses a fresh queue name and a throwaway SQLite result backend, deletes its queues afterwards
(the shared potatoq.dlx / potatoq.delivery exchanges stay, as potatoq itself leaves them).
Prints one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

import pika

HERE = Path(__file__).resolve().parent
POTATOQ = str(Path(sys.executable).with_name("potatoq"))
LETTERS = 2


def pika_params(url: str) -> pika.URLParameters:
    # potatoq (like Celery) reads "host//" as vhost "/"; pika would read it as vhost "".
    return pika.URLParameters(url[:-2] + "/%2F" if url.endswith("//") else url)


def dlq_count(url: str, queue: str) -> int:
    conn = pika.BlockingConnection(pika_params(url))
    try:
        return conn.channel().queue_declare(f"{queue}.dlq", passive=True).method.message_count
    finally:
        conn.close()


def peek_headers(url: str, queue: str) -> list[dict[str, Any]]:
    """basic_get + nack(requeue) like potatoq; only call where that is known to be safe (4.x)."""
    conn = pika.BlockingConnection(pika_params(url))
    ch, out, tags = conn.channel(), [], []
    try:
        while True:
            method, props, _ = ch.basic_get(f"{queue}.dlq", auto_ack=False)
            if method is None:
                break
            out.append({"message_id": props.message_id, "headers": json.loads(json.dumps(props.headers, default=str))})
            tags.append(method.delivery_tag)
        for tag in tags:
            ch.basic_nack(tag, requeue=True)
        return out
    finally:
        conn.close()


def wait_for(pred: Any, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if pred():
            return True
        time.sleep(0.5)
    return False


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--url", required=True, help="broker URL, e.g. amqp://potatoq:potatoq@127.0.0.1:5673//")
    ap.add_argument("--peek", action="store_true", help="also read the letters' headers (nack-requeue: 4.x only)")
    ap.add_argument("--task", choices=["boom", "crash"], default="boom",
                    help="boom raises (potatoq dead-letters); crash kills the process (the broker dead-letters)")
    args = ap.parse_args()
    queue = f"rabbitprobe_{uuid.uuid4().hex[:8]}"
    tmp = tempfile.mkdtemp(prefix="rabbitprobe-")
    env = {**os.environ, "POTATOQ_BROKER_URL": args.url, "RABBITPROBE_QUEUE": queue,
           "POTATOQ_RESULT_BACKEND": f"sqlite:///{tmp}/results.db", "POTATOQ_NO_EMOJI": "1", "NO_COLOR": "1", "PYTHONDONTWRITEBYTECODE": "1"}  # fmt: skip
    cli = [POTATOQ, "-A", "worker_app", "--workdir", str(HERE)]
    result: dict[str, Any] = {"queue": queue, "task": args.task}
    worker = subprocess.Popen([*cli, "worker", "-P", "solo" if args.task == "boom" else "prefork", "-c", "1",
                               "--no-scheduler", "-l", "WARNING"], env=env,
                              stdout=open(f"{tmp}/worker.log", "w"), stderr=subprocess.STDOUT)  # fmt: skip
    try:
        letters = LETTERS if args.task == "boom" else 1
        enqueue = f"from worker_app import {args.task} as t\nfor i in range({letters}): print(t.delay(i).id)"
        ids = subprocess.run([sys.executable, "-c", enqueue], env=env, cwd=HERE, check=True,
                             capture_output=True, text=True).stdout.split()  # fmt: skip
        result["task_ids"] = ids
        result["dead_lettered"] = wait_for(lambda: dlq_count(args.url, queue) >= letters, 120)
        worker.send_signal(signal.SIGTERM)
        worker.wait(30)
        result["dlq_before_list"] = dlq_count(args.url, queue)
        if args.peek:
            result["letters"] = peek_headers(args.url, queue)
        for run in (1, 2):
            listed = subprocess.run([*cli, "dead", "list", "--json"], env=env, capture_output=True, text=True)
            result[f"dead_list_{run}"] = {"rc": listed.returncode, "stdout": listed.stdout.strip()[:4000],
                                          "stderr": listed.stderr.strip()[-800:]}  # fmt: skip
            time.sleep(0.5)
            result[f"dlq_after_list_{run}"] = dlq_count(args.url, queue)
    finally:
        if worker.poll() is None:
            worker.kill()
        result["worker_log_tail"] = Path(f"{tmp}/worker.log").read_text()[-1500:]
        conn = pika.BlockingConnection(pika_params(args.url))
        ch = conn.channel()
        ch.queue_delete(queue)
        ch.queue_delete(f"{queue}.dlq")
        conn.close()
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
