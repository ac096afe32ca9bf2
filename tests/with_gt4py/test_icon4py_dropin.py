"""The drop-in on real programs (benchmarks/data/icon4py, icon4py 0.4.1 as GTIR): on every
program of the corpus, the type `typeinf.gt4py.infer` leaves on each node equals the one
GT4Py 1.2.3's inference leaves (on its copy) wherever GT4Py's is ground, and is compatible
elsewhere; and `benchmarks.icon4py_inference` runs (one program, one round)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from gt4py.next.iterator.type_system import inference as theirs

from benchmarks.icon4py_inference import built, load_corpus
from tests.with_gt4py.test_dropin import typed_alike
from typeinf.gt4py import infer

ROOT = Path(__file__).resolve().parent.parent.parent
RECORDS = load_corpus()


@pytest.mark.parametrize("record", RECORDS, ids=[r["id"] for r in RECORDS])
def test_our_types_are_gt4pys_on_icon4py(record: dict) -> None:
    node, offsets = built(record)
    expected = theirs.infer(node, offset_provider_type=offsets)
    ours = infer(node, offset_provider_type=offsets)
    typed_alike(expected, ours)


def test_the_benchmark_times_one_program() -> None:
    smallest = min(RECORDS, key=lambda r: (r["nodes"], r["id"]))
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "benchmarks.icon4py_inference",
            "--ids",
            smallest["id"],
            "--rounds=1",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    name = re.escape(smallest["id"].removeprefix("icon4py.model."))
    assert re.search(
        rf"^{name} +{smallest['nodes']} +[\d.]+ +[\d.]+ +[\d.]+× +[\d.]+  equal$", done.stdout, re.M
    ), done.stdout
    assert "1 of 1 equal to GT4Py's on every node" in done.stdout, done.stdout
