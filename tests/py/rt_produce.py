"""Produces the round-trip test's tasks with potatoq's own `.delay`/`send_task`; prints their
ids as JSON."""

from __future__ import annotations

import json
import uuid
from datetime import UTC, datetime, timedelta
from decimal import Decimal

from rt_tasks import app, fail, flaky, record

TYPED = (
    datetime(2024, 1, 2, 3, 4, 5, tzinfo=UTC),
    Decimal("1.10"),
    uuid.UUID("12345678-1234-5678-1234-567812345678"),
    b"\x00\xff",
    {1, 2},
    timedelta(seconds=90),
)

ids = {
    "typed": record.delay(*TYPED, big=2**70).id,
    "fail": fail.delay("boom-rt").id,
    "unknown": app.send_task("rt.unknown", [1]).id,
    "flaky": flaky.delay(*TYPED, big=2**70).id,
    "revoked": record.apply_async((1,), countdown=3600).id,
    "revoked_ready": record.apply_async((2,), queue="rt-held").id,
    "purged": record.apply_async((3,), queue="rt-purge").id,
    "purged_later": record.apply_async((4,), queue="rt-purge", countdown=3600).id,
    "cli_revoked": record.apply_async((5,), queue="rt-held").id,
}
print(json.dumps(ids))
