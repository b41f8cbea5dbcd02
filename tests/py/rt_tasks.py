"""Tasks for the console's potatoq round-trip tests. Each run records what the task received
(Python type names and reprs) to RT_OUT/<task id>.json, so a test can check that values the
console wrote (tagged datetimes, Decimals, ...) arrive with their real types."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from potatoq import Potatoq

app = Potatoq("rt", broker=os.environ["RT_BROKER"])
OUT = Path(os.environ.get("RT_OUT", "."))


def _describe(value: Any) -> list[Any]:
    return [type(value).__name__, repr(value)]


def _record(request: Any, name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    data = {
        "id": request.id,
        "task": name,
        "args": [_describe(a) for a in args],
        "kwargs": {k: _describe(v) for k, v in kwargs.items()},
        "headers": request.headers if isinstance(request.headers, dict) else None,
    }
    (OUT / f"{request.id}.json").write_text(json.dumps(data, default=str))


@app.task(name="rt.record", bind=True)
def record(self: Any, *args: Any, **kwargs: Any) -> str:
    _record(self.request, "rt.record", args, kwargs)
    return "recorded"


@app.task(name="rt.fail")
def fail(message: str) -> None:
    raise ValueError(message)


@app.task(name="rt.flaky", bind=True)
def flaky(self: Any, *args: Any, **kwargs: Any) -> str:
    """Fails until RT_OUT/flaky-ok exists: a dead letter that succeeds when replayed."""
    if not (OUT / "flaky-ok").exists():
        raise RuntimeError("first attempt fails")
    _record(self.request, "rt.flaky", args, kwargs)
    return "ok"
