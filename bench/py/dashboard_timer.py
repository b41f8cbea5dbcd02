"""Times potatoq's own dashboard in-process: `Dashboard.handle()` for its overview or for 100
dead letters, i.e. everything its HTTP server does for a request except the socket. Reads one
case name per line on stdin ("overview" or "dead100") and answers each with `@@ms` and the milliseconds
it took, so the benchmark can interleave these samples with its own."""

from __future__ import annotations

import sys
import time

from bench_app import app
from potatoq.dashboard import Dashboard

dashboard = Dashboard(app, read_only=True)
cases = {
    "overview": lambda: dashboard.handle("GET", "/api/overview"),
    "dead100": lambda: dashboard.handle("GET", "/api/dead", "limit=100"),
}
for line in sys.stdin:
    fn = cases[line.strip()]
    t0 = time.perf_counter()
    response = fn()
    ms = (time.perf_counter() - t0) * 1000
    if response.status != 200:
        raise SystemExit(f"dashboard answered {response.status}: {response.body[:200]!r}")
    print(f"@@ms {ms:.4f}", flush=True)
