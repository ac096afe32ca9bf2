"""Reporting N type errors: seconds of `typeinf.check` on a fencil of N definitions that each
fail, every error with its reasons (the explaining run, which keeps the history), in a fresh
interpreter per measurement.

    python3 -m benchmarks.error_reporting [--sizes 1000 2000 5000] [--shapes notes constants]

Shapes: `notes`, each definition `λ(x) → ·x + x` (an iterator where a value is expected, with
a note on why it is an iterator); `constants`, each `λ(x) → ·x + 1 + True` (every `int32` of
the program is one shared constant, so each error's reasons are looked for in one large class).
Reasons are read off the path that joined the two sides (`typeinf.history`), so the time grows
linearly with N (a scaling exponent near 1.0); before, every error scanned the whole history
and the list of errors kept (exponent near 2: 1,000 errors 1.9 s, 5,000 over 30 s).
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
