"""Reporting N type errors: seconds of `typeinf.check` on a fencil of N definitions that each
fail, every error with its reasons (the explaining run, which keeps the history), in a fresh
interpreter per measurement.

    python3 -m benchmarks.error_reporting [--sizes 1000 2000 5000] [--shapes notes constants]

Shapes: `notes`, each definition `λ(x) → ·x + x` (an iterator where a value is expected, with
a note on why it is an iterator); `constants`, each `λ(x) → ·x + 1 + True` (every `int32` of
the program is one shared constant, so each error's reasons are looked for in one large class).
Reasons are read off the path that joined the two sides (`typeinf.core.history`), so the time grows
linearly with N; before, every error scanned the whole history, and the list of errors kept.
Measured on the shared 2-core machine (calibration loop 0.72-0.76 s), seconds of `check`:

    errors            1,000   2,000   4,000   5,000   scaling exponent
    notes, before      4.37   26.95  110.72       -   2.33
    notes, after       0.50    1.25       -    2.72   1.04
    constants, before 15.18   65.72  317.25       -   2.19
    constants, after   0.84    1.01       -    3.55   0.92
"""

from __future__ import annotations

import time
from typing import Any

import iterir
import typeinf
from benchmarks.runner import run

BODIES = {"notes": "·x + x", "constants": "·x + 1 + True"}


def program(shape: str, errors: int) -> str:
    """A fencil of `errors` definitions with the failing body of `shape`, and one closure."""
    definitions = "".join(f"  g{i} = λ(x) → {BODIES[shape]};\n" for i in range(errors))
    return f"f(a, b, n) {{\n{definitions}  b ← (λ(i) → ·i)(a) @ c⟨ IDim: [0, n) ⟩;\n}}\n"


def measure(shape: str, errors: int) -> dict[str, Any]:
    node = iterir.parse(program(shape, errors))
    start = time.perf_counter()
    checked = typeinf.check(node)
    seconds = time.perf_counter() - start
    assert len(checked.errors) == errors, len(checked.errors)
    return {"nodes": sum(1 for _ in iterir.walk(node)), "errors": errors, "seconds": seconds}


def main() -> None:
    run(
        "benchmarks.error_reporting",
        __doc__.splitlines()[0],
        measure,
        list(BODIES),
        list(BODIES),
        [("errors", lambda r: f"{r['errors']:,}"), ("check s", lambda r: f"{r['seconds']:.2f}")],
        "seconds",
        default_sizes=(1_000, 2_000, 5_000),
    )


if __name__ == "__main__":
    main()
