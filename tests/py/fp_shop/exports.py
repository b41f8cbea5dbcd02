from __future__ import annotations

import json
from pathlib import Path


def load_manifest(path: str, raw: str) -> dict[str, object]:
    try:
        return json.loads(raw)
    except json.JSONDecodeError as e:
        raise ValueError(f"bad manifest {path} for order #{Path(path).stem}: {e} (\"{raw[:12]}\")") from e


def export(path: str, raw: str) -> None:
    load_manifest(path, raw)
