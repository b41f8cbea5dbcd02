"""potatoq app of the fingerprint tests (tests/triage/fingerprint.int.test.ts)."""

from __future__ import annotations

import json
import os
from decimal import Decimal
from typing import Any

from potatoq import Potatoq

from fp_shop import billing, exports

app = Potatoq("fp", broker=os.environ["FP_BROKER"])
app.conf.broker_transport_options = json.loads(os.environ.get("FP_OPTIONS") or "{}")


@app.task(name="shop.charge")
def charge(customer: str, amount: str, took_ms: int, ref: int, why: str) -> None:
    billing.charge(customer, Decimal(amount), took_ms, ref, why)


@app.task(name="shop.export")
def export(path: str, raw: str) -> Any:
    exports.export(path, raw)
