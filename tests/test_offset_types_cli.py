"""GT4Py 1.2's offset-provider types (the form the GTIR samples record and GT4Py passes to its
inference) are accepted wherever an offset provider is: the command line and the Python API."""

from __future__ import annotations

import json
import lzma
from pathlib import Path

import pytest

import typeinf
from iterir.gtir_types import Dimension as GTIRDimension
from iterir.offset_types import NeighborConnectivityType, offset_types_from_json
from tests.conftest import DATA, ROOT, required_file
from typeinf.core.offsets import Connectivity, fencil_provider
from typeinf.frontends.cli import main


def _dimension(name: str, kind: str) -> dict[str, str]:
    return {"t": "Dimension", "value": name, "kind": kind}


def _connectivity(
    origin: str, local: str, target: str, count: int, skip: int | None
) -> dict[str, object]:
    return {
        "t": "NeighborConnectivityType",
        "domain": [_dimension(origin, "horizontal"), _dimension(local, "local")],
        "codomain": _dimension(target, "horizontal"),
        "skip_value": skip,
        "dtype": "int32",
        "max_neighbors": count,
    }


def _as_offset_types(provider: dict[str, dict[str, object]]) -> dict[str, object]:
    """Our offset-provider JSON written in GT4Py's form."""
    out: dict[str, object] = {}
    for tag, entry in provider.items():
        if entry["type"] == "Dimension":
            out[tag] = _dimension(str(entry["value"]), "horizontal")
        else:
            skip = -1 if entry["has_skip_values"] else None
            out[tag] = _connectivity(
                str(entry["origin"]), tag, str(entry["neighbor"]), int(entry["max_neighbors"]), skip
            )  # type: ignore[call-overload]  # a JSON integer
    return out


def test_the_command_line_types_a_program_with_gt4pys_form(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ours = ROOT / "examples" / "nabla.offsets.json"
    theirs = tmp_path / "nabla.types.json"
    theirs.write_text(
        json.dumps(_as_offset_types(json.loads(ours.read_text(encoding="utf-8")))), encoding="utf-8"
    )
    program = str(ROOT / "examples" / "nabla.itir")
    assert main(["infer", program, "--offset-provider", str(ours)]) == 0
    expected = capsys.readouterr().out
    assert main(["infer", program, "--offset-provider", str(theirs)]) == 0
    assert capsys.readouterr().out == expected
    assert "L[" in expected


def test_a_malformed_offset_type_is_said_with_its_json_path(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"V2E": {"t": "NeighborConnectivityType", "domain": []}}', encoding="utf-8")
    assert (
        main(["infer", str(ROOT / "examples" / "nabla.itir"), "--offset-provider", str(bad)]) == 2
    )
    err = capsys.readouterr().err
    assert err.startswith(f"{bad}: $.V2E") and "Traceback" not in err
    with pytest.raises(typeinf.core.offsets.OffsetProviderFormatError, match=r"^\$\.V2E"):
        typeinf.load_offset_provider({"V2E": {"t": "NeighborConnectivityType"}})


@pytest.mark.parametrize(
    ("name", "step"),
    [("V2E.x", '["V2E.x"]'), ("a b", '["a b"]'), ("\x1f", '["\\u001f"]'), ("2E", '["2E"]')],
)
def test_a_key_that_is_no_plain_name_is_quoted_in_the_json_path(name: str, step: str) -> None:
    """`$.V2E.x` would name a field x of V2E; a control character would be shown escaped, so
    that the path in the message would differ from the one the error carries."""
    with pytest.raises(typeinf.core.offsets.OffsetProviderFormatError) as caught:
        typeinf.load_offset_provider({name: {"t": "NeighborConnectivityType"}})
    assert str(caught.value).startswith(f"${step}: ")


def test_every_gtir_samples_offset_provider_loads() -> None:
    path = required_file(DATA / "gtir-samples" / "samples.jsonl.xz")
    with lzma.open(path, "rt", encoding="utf-8") as lines:
        providers = [record["offset_provider_type"] for record in map(json.loads, lines)]
    loaded = [typeinf.load_offset_provider(p) for p in providers if p]
    assert len(loaded) > 100
    # GT4Py's form loads as GT4Py's offset-provider types, nothing lost; the fencil IR reads
    # them as our connectivities (`offsets.fencil_provider`).
    assert all(
        isinstance(entry, (NeighborConnectivityType, GTIRDimension))
        for provider in loaded
        for entry in provider.values()
    )
    neighbors = next(p for p in providers if p and "V2E" in p)["V2E"]
    assert fencil_provider({"V2E": neighbors})["V2E"] == Connectivity(
        neighbors["domain"][0]["value"],
        neighbors["codomain"]["value"],
        neighbors["max_neighbors"],
        neighbors["skip_value"] is not None,
    )
    assert typeinf.load_offset_provider({"V2E": neighbors}) == offset_types_from_json(
        {"V2E": neighbors}
    )
