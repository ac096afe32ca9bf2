"""The public functions take and give both IRs' results: `typeinf.pformat` prints what `infer`
gives for a GTIR program as for a fencil; one loader, `typeinf.load_offset_provider`, reads both
JSON forms of an offset provider (told apart by content), from a path or decoded JSON, losing
nothing; every `offset_provider=` takes either form, as objects, JSON or a file's path."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import iterir
import typeinf
from iterir.gtir_types import Dimension as GTIRDimension
from iterir.offset_types import NeighborConnectivityType
from tests.conftest import ROOT

EXAMPLES = ROOT / "examples"
OURS = EXAMPLES / "nabla.offsets.json"  # our form
GT4PYS = EXAMPLES / "gtir_vertex_sum.offsets.json"  # GT4Py's offset-provider types
PROGRAM = "p(a: Field[[IDimₕ], f64], out: Field[[IDimₕ], f64]) { out @ c⟨ IDimₕ: [0, 5[ ⟩ ← a; }"


def test_pformat_prints_a_gtir_program_a_value_and_a_fencils_type() -> None:
    assert typeinf.pformat(typeinf.infer(iterir.parse(PROGRAM))) == (
        "{p(Field[[IDim], float64], Field[[IDim], float64])}"
    )
    assert typeinf.pformat(typeinf.infer(iterir.parse("(x: i32) + 1"))) == "int32"
    assert typeinf.pformat(typeinf.infer(iterir.parse("deref"))) == "(It[T₀¹]) → T₀¹"
    with pytest.raises(TypeError, match=r"typeinf\.pformat"):
        typeinf.pformat(iterir.parse(PROGRAM))  # type: ignore[arg-type]  # not a type


@pytest.mark.parametrize("path", [OURS, GT4PYS], ids=["ours", "GT4Py's"])
def test_one_loader_reads_both_forms_from_a_path_or_decoded_json(path: Path) -> None:
    decoded = json.loads(path.read_text(encoding="utf-8"))
    assert typeinf.load_offset_provider(path) == typeinf.load_offset_provider(decoded)
    assert typeinf.load_offset_provider(str(path)) == typeinf.load_offset_provider(decoded)


def test_gt4pys_form_loads_as_gt4pys_types_with_nothing_lost() -> None:
    vertical = {"Koff": {"t": "Dimension", "value": "K", "kind": "vertical"}}
    loaded = typeinf.load_offset_provider(vertical)
    assert loaded == {"Koff": GTIRDimension("K", "vertical")}
    v2e = typeinf.load_offset_provider(GT4PYS)["V2E"]
    assert isinstance(v2e, NeighborConnectivityType) and v2e.max_neighbors == 6
    assert v2e.domain[1] == GTIRDimension("V2E", "local")
    assert typeinf.load_offset_provider(OURS)["V2E"] == typeinf.Connectivity(
        "Vertex", "Edge", 7, True
    )


def test_every_offset_provider_argument_takes_either_form_or_a_path() -> None:
    gtir = iterir.load(str(EXAMPLES / "gtir_vertex_sum.itir"))
    expected = str(typeinf.infer(gtir, typeinf.load_offset_provider(GT4PYS)))
    assert str(typeinf.infer(gtir, str(GT4PYS))) == expected
    assert str(typeinf.infer(gtir, GT4PYS)) == expected
    # Ours, read as GT4Py's: the local dimension named by its tag.
    assert (
        str(typeinf.infer(gtir, {"V2E": typeinf.Connectivity("Vertex", "Edge", 6, False)}))
        == expected
    )
    fencil = iterir.load(str(EXAMPLES / "nabla.itir"))
    expected = str(typeinf.infer(fencil, typeinf.load_offset_provider(OURS)))
    assert str(typeinf.infer(fencil, OURS)) == expected
    as_gt4pys = {
        "V2E": NeighborConnectivityType(
            (GTIRDimension("Vertex"), GTIRDimension("V2E", "local")),
            GTIRDimension("Edge"),
            -1,
            "int32",
            7,
        ),
        "E2V": NeighborConnectivityType(
            (GTIRDimension("Edge"), GTIRDimension("E2V", "local")),
            GTIRDimension("Vertex"),
            None,
            "int32",
            2,
        ),
    }
    assert str(typeinf.infer(fencil, as_gt4pys)) == expected


def test_a_path_that_is_not_an_offset_provider_says_so(tmp_path: Path) -> None:
    missing = tmp_path / "none.json"
    with pytest.raises(iterir.ParseError, match=r"none\.json"):
        typeinf.load_offset_provider(missing)
    broken = tmp_path / "broken.json"
    broken.write_text("{", encoding="utf-8")
    with pytest.raises(iterir.ParseError, match=r"broken\.json"):
        typeinf.infer(iterir.parse(PROGRAM), broken)
