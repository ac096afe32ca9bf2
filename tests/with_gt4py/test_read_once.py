"""The GT4Py bridge reads the offset provider once, as every way in does (issue 33, item 6;
tests/test_read_once.py for the others): followed from `infer` and `reinfer` on samples that
shift, `read_offsets` is its one reading, GTIR's view of it is made once, and it never climbs
back."""

from __future__ import annotations

import pytest

import iterir
from iterir.offset_types import offset_types_from_json
from tests.offset_flow import follow
from tests.test_gtir_samples import SAMPLES
from typeinf.gt4py import infer, offset_types_to_gt4py, reinfer, to_gt4py

#: Programs given a connectivity, a few: each way is the same for all.
MESHED = [
    s
    for s in SAMPLES
    if "NeighborConnectivityType" in str(s["offset_provider_type"]) and s["ir"]["node"] == "Program"
][:3]


def test_there_are_samples_given_a_connectivity() -> None:
    assert len(MESHED) == 3


@pytest.mark.parametrize("sample", MESHED, ids=[s["id"] for s in MESHED])
def test_the_bridge_reads_the_offset_provider_once(sample: dict) -> None:
    node = to_gt4py(iterir.from_json(sample["ir"]))
    provider = offset_types_to_gt4py(offset_types_from_json(sample["offset_provider_type"]))
    for run in (
        lambda: infer(node, offset_provider_type=provider),
        lambda: reinfer(node, offset_provider_type=provider),  # `node` is still untyped
    ):
        flow = follow(run, provider)
        assert flow.reads == ["typeinf.core.offsets.read_offsets"]
        assert flow.views == ["typeinf.core.offsets.Offsets.gtir"]
        assert flow.climbs == []
