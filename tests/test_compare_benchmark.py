"""`benchmarks.compare` runs two versions side by side: a smoke run of one pair on GT4Py's
samples, on icon4py's programs and on a small generated shape, HEAD against the working tree."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_compare_times_both_versions_on_samples_and_shapes() -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "benchmarks.compare",
            "HEAD",
            "--pairs",
            "1",
            "--size",
            "3",
            "--shapes",
            "gt4py_samples",
            "icon4py",
            "plus_chain",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    out = done.stdout
    for shape in ("gt4py_samples", "icon4py", "plus_chain"):
        assert re.search(rf"^{shape} +HEAD/BASE throughput \d+\.\d\d× \(pairs ", out, re.M), out
    # Both workers typed the three largest samples: the same node count for both versions.
    rows = re.findall(r"^gt4py_samples +(\d+) +BASE", out, re.M)
    assert rows and int(rows[0]) > 1000, out
