"""Text parsing of two versions side by side, and its ratio to inference, interleaved.

    python3 -m benchmarks.parse_compare BASE [--size 100000] [--rounds 3] [--shapes …]

BASE is a git revision, exported with `git archive` into a temporary folder; it is compared with
this checkout's working tree. Each round runs one fresh interpreter per version, alternating
which goes first (A B, B A, …), so that the shared machine's load falls on both alike; each
interpreter builds and prints every shape (`benchmarks.shapes.SHAPES`), then times
`iterir.parse` and `typeinf.infer` of the text in CPU time (`time.process_time`), which other
processes' load disturbs less than wall time. Figures are medians over the rounds; HEAD/BASE is
the median of the per-round ratios.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.shapes import SHAPES

HERE = Path(__file__).resolve().parent.parent


def child(size: int, shapes: list[str]) -> None:
    """Print, as JSON, {shape: [parse CPU s, infer CPU s]} for this interpreter's version."""
    import iterir
    import typeinf

    iterir.parse("x")  # the parse tables are loaded
    figures: dict[str, list[float]] = {}
    for shape in shapes:
        text = iterir.pformat(SHAPES[shape](size))
        start = time.process_time()
        node = iterir.parse(text)
        parsed = time.process_time()
        typeinf.infer(node)
        figures[shape] = [parsed - start, time.process_time() - parsed]
    print(json.dumps(figures))


def run_version(root: Path, size: int, shapes: list[str]) -> dict[str, list[float]]:
    env = {**os.environ, "PYTHONPATH": str(root)}
    # This file runs in both: BASE may predate it. PYTHONPATH makes `iterir` the version's.
    command = [sys.executable, str(Path(__file__).resolve()), "--child", str(size)]
    command += ["--shapes", *shapes]
    done = subprocess.run(command, cwd=root, env=env, capture_output=True, text=True, check=True)
    figures: dict[str, list[float]] = json.loads(done.stdout)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("base", nargs="?")
    parser.add_argument("--size", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--shapes", nargs="+", default=list(SHAPES), choices=list(SHAPES))
    parser.add_argument("--child", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child is not None:
        child(args.child, args.shapes)
        return
    if args.base is None:
        parser.error("BASE, a git revision, is required")
    with tempfile.TemporaryDirectory() as scratch:
        base = Path(scratch)
        archive = subprocess.run(
            ["git", "archive", args.base], cwd=HERE, capture_output=True, check=True
        )
        subprocess.run(["tar", "-x", "-C", str(base)], input=archive.stdout, check=True)
        runs: dict[str, list[dict[str, list[float]]]] = {"base": [], "head": []}
        for i in range(args.rounds):
            order = [("base", base), ("head", HERE)]
            for name, root in order if i % 2 == 0 else order[::-1]:
                runs[name].append(run_version(root, args.size, args.shapes))
    print(f"size {args.size}, {args.rounds} rounds; CPU seconds, medians")
    print(f"{'shape':<24} {'parse base':>10} {'parse head':>10} {'head/base':>9} "
          f"{'parse/infer base':>16} {'parse/infer head':>16}")  # fmt: skip
    for shape in args.shapes:
        base_runs = [r[shape] for r in runs["base"]]
        head_runs = [r[shape] for r in runs["head"]]
        cells = [
            statistics.median(b[0] for b in base_runs),
            statistics.median(h[0] for h in head_runs),
            statistics.median(h[0] / b[0] for b, h in zip(base_runs, head_runs, strict=True)),
            statistics.median(b[0] / b[1] for b in base_runs),
            statistics.median(h[0] / h[1] for h in head_runs),
        ]
        print(f"{shape:<24} {cells[0]:>10.3f} {cells[1]:>10.3f} {cells[2]:>9.2f} "
              f"{cells[3]:>16.2f} {cells[4]:>16.2f}")  # fmt: skip


if __name__ == "__main__":
    main()
