"""What both benchmarks share: one fresh interpreter per measurement, and the scaling fit."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from typing import Any


def in_child(module: str, shape: str, size: int) -> dict[str, Any]:
    """Run `python -m module --child shape size` and return the JSON it prints; a fresh process
    per measurement keeps each peak-memory figure its own."""
    child = subprocess.run(
        [sys.executable, "-m", module, "--child", shape, str(size)],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    return json.loads(child.stdout)  # type: ignore[no-any-return]


def scaling_exponent(points: list[tuple[float, float]]) -> float:
    """The slope of log(time) over log(size), fitted by least squares: 1.0 is linear."""
    xs = [math.log(n) for n, _ in points]
    ys = [math.log(t) for _, t in points]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)
