"""GT4Py's own pass manager with typeinf's inference in place of GT4Py's (`installed()`, which
patches the module attributes GT4Py's passes call): on every `pre` sample (a pass manager's
input captured from GT4Py's tests), `apply_common_transforms` and `apply_fieldview_transforms`
produce the same program as with GT4Py's inference, and ours is what they call."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from gt4py.next.iterator.pretty_printer import pformat
from gt4py.next.iterator.transforms import pass_manager

import iterir
from iterir.offset_types import offset_types_from_json
from tests.test_gtir_samples import SAMPLES
from tests.with_gt4py.providers import offset_provider
from typeinf.gt4py import inference, installed, offset_types_to_gt4py, to_gt4py

PRE = [s for s in SAMPLES if ".pre." in s["id"]]
PIPELINES: dict[str, Callable[..., Any]] = {
    "common": pass_manager.apply_common_transforms,
    "fieldview": pass_manager.apply_fieldview_transforms,
}


def test_every_pre_sample_is_here() -> None:
    assert len(PRE) == 205


@pytest.mark.parametrize("pipeline", PIPELINES)
@pytest.mark.parametrize("sample", PRE, ids=[s["id"] for s in PRE])
def test_gt4pys_pass_manager_gives_the_same_program_with_our_inference(
    sample: dict, pipeline: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    run = PIPELINES[pipeline]
    types = offset_types_to_gt4py(offset_types_from_json(sample["offset_provider_type"]))
    provider = offset_provider(types)
    expected = run(to_gt4py(iterir.from_json(sample["ir"])), offset_provider=provider)
    calls = []
    inferred = inference._inferred
    monkeypatch.setattr(inference, "_inferred", lambda *a: calls.append(1) or inferred(*a))
    with installed(strict=True):
        ours = run(to_gt4py(iterir.from_json(sample["ir"])), offset_provider=provider)
    assert calls  # ours ran
    assert ours == expected, f"{pformat(ours)}\n!=\n{pformat(expected)}"
    assert pformat(ours) == pformat(expected)
