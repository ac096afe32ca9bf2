"""A GT4Py program as a GT4Py user writes it (field operators and a program in GT4Py's Python
frontend) runs end to end on GT4Py's pure-Python backend (`roundtrip`, which lowers to GTIR,
runs the pass manager and executes generated Python) with typeinf's inference installed, and
computes what it computes with GT4Py's own, and what numpy says."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import gt4py.next as gtx
import numpy as np
import pytest
from gt4py.next import config
from gt4py.next.otf import runners

from typeinf.gt4py import inference, installed

IDim = gtx.Dimension("IDim")
KDim = gtx.Dimension("KDim", kind=gtx.DimensionKind.VERTICAL)
SHAPE = (10, 5)


#: The user's code, as written in a module of its own (GT4Py reads a program's source); `{tag}`
#: names it apart: GT4Py caches what it compiled by the program's text, and each run must
#: compile (run the pass manager) anew.
SOURCE = """
import gt4py.next as gtx
from gt4py.next.program_processors.runners import roundtrip

IDim = gtx.Dimension("IDim")
KDim = gtx.Dimension("KDim", kind=gtx.DimensionKind.VERTICAL)
Field = gtx.Field[[IDim, KDim], gtx.float64]


@gtx.field_operator
def laplacian_{tag}(a: Field, s: gtx.float64) -> Field:
    return s * (a(IDim + 1) - 2.0 * a + a(IDim - 1))


@gtx.field_operator
def both_{tag}(a: Field, s: gtx.float64) -> tuple[Field, Field]:
    lap = laplacian_{tag}(a, s)
    return lap, lap * lap + a


@gtx.program(backend=roundtrip.default)
def apply_{tag}(a: Field, s: gtx.float64, out1: Field, out2: Field):
    both_{tag}(a, s, out=(out1, out2), domain={{IDim: (1, 9), KDim: (0, 5)}})
"""


def _program(folder: Path, tag: str) -> Any:
    path = folder / f"user_{tag}.py"
    path.write_text(SOURCE.format(tag=tag))
    spec = importlib.util.spec_from_file_location(f"user_{tag}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # GT4Py's frontend looks its module up
    spec.loader.exec_module(module)
    return getattr(module, f"apply_{tag}")


@pytest.fixture
def in_this_process(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """GT4Py compiles in this process, also without typeinf (spawned workers would not see
    what a test counts)."""
    monkeypatch.setattr(config, "BUILD_JOBS_MODE", config.BuildJobsMode.THREAD)
    runners.reset_default_runner()
    yield
    runners.reset_default_runner()


def _run(program: Any, a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    out1, out2 = (
        gtx.zeros({IDim: SHAPE[0], KDim: SHAPE[1]}),
        gtx.zeros({IDim: SHAPE[0], KDim: SHAPE[1]}),
    )
    program(gtx.as_field([IDim, KDim], a), 0.5, out1, out2)
    return out1.asnumpy(), out2.asnumpy()


def test_a_frontend_program_computes_the_same_with_our_inference(
    in_this_process: None, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    a = np.random.default_rng(7).random(SHAPE)
    theirs = _run(_program(tmp_path, "theirs"), a)
    calls = []
    inferred = inference._inferred
    monkeypatch.setattr(inference, "_inferred", lambda *args: calls.append(1) or inferred(*args))
    with installed(strict=True):
        ours = _run(_program(tmp_path, "ours"), a)
    assert calls, "our inference did not run"
    for mine, expected in zip(ours, theirs, strict=True):
        assert np.array_equal(mine, expected)
    lap = 0.5 * (a[2:] - 2.0 * a[1:-1] + a[:-2])
    assert np.allclose(ours[0][1:9], lap) and np.allclose(ours[1][1:9], lap * lap + a[1:-1])
    assert not ours[0][0].any() and not ours[0][9].any()  # outside the domain: untouched
