"""What a RabbitMQ server does to potatoq's `<queue>.dlq` letters when they are browsed.

Run with the project's venv (pika from potatoq):
  .venv/bin/python tests/rabbitmq/dlq_probe.py --url amqp://guest:guest@127.0.0.1:5672/ --ctl rabbitmqctl
  .venv/bin/python tests/rabbitmq/dlq_probe.py --url amqp://potatoq:potatoq@127.0.0.1:5673/ \
      --ctl "scripts/services.sh rabbitmq4-ctl"
Every queue, exchange and policy it creates has a unique name and is deleted afterwards.
Prints one JSON object (the facts docs/brokers/rabbitmq.md quotes).
"""

from __future__ import annotations

import argparse
import json
import shlex
import subprocess
import time
import uuid
from typing import Any

import pika

# Exactly what potatoq 26.1a8 declares for `<queue>.dlq` (brokers/rabbitmq.py, declare_queue).
DLQ_ARGS = {"x-queue-type": "quorum", "x-delivery-limit": -1}


def connect(url: str) -> tuple[Any, Any, str]:
    conn = pika.BlockingConnection(pika.URLParameters(url))
    version = conn._impl.server_properties.get("version", b"?")
    if isinstance(version, bytes):
        version = version.decode()
    ch = conn.channel()
    ch.confirm_delivery()  # like potatoq; also makes each publish visible before the next basic_get
    return conn, ch, version


def count(ch: Any, name: str) -> int:
    # Quorum queue counts settle asynchronously after a nack; give the Raft log a moment.
    time.sleep(0.5)
    return ch.queue_declare(name, passive=True).method.message_count


def delivery_view(method: Any, props: Any, body: bytes) -> dict[str, Any]:
    headers = props.headers or {}
    return {
        "body": body.decode(),
        "redelivered": method.redelivered,
        "x-delivery-count": headers.get("x-delivery-count"),
        "x-acquired-count": headers.get("x-acquired-count"),
    }


def browse_like_potatoq(ch: Any, name: str) -> list[dict[str, Any]]:
    """`potatoq dead list`: basic_get everything (no ack), then nack(requeue=True) every tag."""
    seen, tags = [], []
    while True:
        method, props, body = ch.basic_get(name, auto_ack=False)
        if method is None:
            break
        seen.append(delivery_view(method, props, body))
        tags.append(method.delivery_tag)
    for tag in tags:
        ch.basic_nack(tag, requeue=True)
    return seen


def probe_dlq_browse(ch: Any, tag: str) -> dict[str, Any]:
    name = f"probe-{tag}.dlq"
    ch.queue_declare(name, durable=True, arguments=DLQ_ARGS)
    try:
        for i in (1, 2, 3):
            ch.basic_publish("", name, f"m{i}".encode(), pika.BasicProperties(delivery_mode=2))
        before = count(ch, name)
        rounds = []
        for _ in range(3):
            seen = browse_like_potatoq(ch, name)
            rounds.append({"got": seen, "left_after_nack": count(ch, name)})
        return {"published": 3, "count_before": before, "browse_rounds": rounds}
    finally:
        ch.queue_delete(name)


def probe_policy(ch: Any, tag: str, ctl: list[str], operator: bool) -> dict[str, Any]:
    """Can a (operator) policy `delivery-limit` stop a `-1` DLQ from dropping on requeue?"""
    name = f"probe-{tag}-{'op' if operator else 'pol'}.dlq"
    policy = f"probe-{tag}-{'op' if operator else 'pol'}"
    cmd = "set_operator_policy" if operator else "set_policy"
    clear = "clear_operator_policy" if operator else "clear_policy"
    ch.queue_declare(name, durable=True, arguments=DLQ_ARGS)
    out: dict[str, Any] = {"command": f"{cmd} {policy} '^{name}$' '{{\"delivery-limit\": 100}}' --apply-to queues"}
    try:
        res = subprocess.run(
            [*ctl, cmd, policy, f"^{name.replace('.', '[.]')}$", '{"delivery-limit": 100}', "--apply-to", "queues"],
            capture_output=True, text=True,
        )
        out["set_ok"] = res.returncode == 0
        if res.returncode != 0:
            out["error"] = (res.stderr or res.stdout).strip()[-400:]
            return out
        time.sleep(1.5)  # policies apply asynchronously
        listed = subprocess.run([*ctl, "list_queues", "-q", "--no-table-headers", "name", "policy"],
                                capture_output=True, text=True).stdout  # fmt: skip
        out["applied_policy"] = next((ln.split()[1:] for ln in listed.splitlines() if ln.startswith(name)), None)
        ch.basic_publish("", name, b"p1", pika.BasicProperties(delivery_mode=2))
        rounds = []
        for _ in range(3):
            seen = browse_like_potatoq(ch, name)
            rounds.append({"got": len(seen), "left_after_nack": count(ch, name)})
        out["browse_rounds"] = rounds
        return out
    finally:
        subprocess.run([*ctl, clear, policy], capture_output=True)
        ch.queue_delete(name)


def probe_x_death(ch: Any, tag: str, settle: str) -> dict[str, Any]:
    """A task-queue-like quorum queue with delivery limit 1: requeue twice, see what dead-letters."""
    dlx, src, dst = f"probe-{tag}-dlx", f"probe-{tag}-{settle}-src", f"probe-{tag}-{settle}-dst"
    ch.exchange_declare(dlx, "direct", durable=False, auto_delete=False)
    ch.queue_declare(dst, durable=True, arguments={"x-queue-type": "quorum"})
    ch.queue_bind(dst, dlx, routing_key=src)
    ch.queue_declare(src, durable=True, arguments={
        "x-queue-type": "quorum", "x-delivery-limit": 1, "x-dead-letter-exchange": dlx,
        "x-dead-letter-strategy": "at-least-once", "x-overflow": "reject-publish",
        "x-dead-letter-routing-key": src,
    })  # fmt: skip
    try:
        ch.basic_publish("", src, b"poison", pika.BasicProperties(delivery_mode=2))
        attempts = []
        for _ in range(4):
            method, props, body = ch.basic_get(src, auto_ack=False)
            if method is None:
                break
            attempts.append(delivery_view(method, props, body))
            if settle == "reject":
                ch.basic_reject(method.delivery_tag, requeue=True)
            else:
                ch.basic_nack(method.delivery_tag, requeue=True)
        time.sleep(1)
        method, props, body = ch.basic_get(dst, auto_ack=True)
        headers = (props.headers or {}) if method else {}
        death = headers.get("x-death")
        return {
            "settle": settle, "deliveries_before_dead": attempts, "left_in_src": count(ch, src),
            "dead_lettered": method is not None,
            "x-death": json.loads(json.dumps(death, default=str)) if death else None,
            "x-first-death-reason": headers.get("x-first-death-reason"),
            "x-last-death-reason": headers.get("x-last-death-reason"),
        }  # fmt: skip
    finally:
        ch.queue_delete(src)
        ch.queue_delete(dst)
        ch.exchange_delete(dlx)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--url", required=True)
    ap.add_argument("--ctl", default="rabbitmqctl", help="command prefix that runs rabbitmqctl on that node")
    args = ap.parse_args()
    ctl = shlex.split(args.ctl)
    conn, ch, version = connect(args.url)
    tag = uuid.uuid4().hex[:8]
    result: dict[str, Any] = {"server_version": version, "probe_id": tag}
    try:
        result["dlq_browse"] = probe_dlq_browse(ch, tag)
        result["policy"] = probe_policy(ch, tag, ctl, operator=False)
        result["operator_policy"] = probe_policy(ch, tag, ctl, operator=True)
        result["x_death_reject"] = probe_x_death(ch, tag, "reject")
        result["x_death_nack"] = probe_x_death(ch, tag, "nack")
    finally:
        conn.close()
    print(json.dumps(result, indent=1, default=str))


if __name__ == "__main__":
    main()
