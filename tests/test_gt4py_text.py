"""`typeinf.frontends.gt4py_text`: GT4Py 1.2.3's `str()` of its types, exactly, checked against
every distinct type the samples record (their `gt4py_types`, each `{"str", "json"}`)."""

from __future__ import annotations

from iterir import gtir_types as gt
from tests.test_gtir_samples import SAMPLES
from typeinf.frontends.gt4py_text import gt4py_repr, gt4py_str


def _recorded() -> dict[str, dict]:
    """Each distinct `str` the samples record, with its structured form."""
    found: dict[str, dict] = {}
    stack: list[object] = [s.get("gt4py_types") for s in SAMPLES]
    while stack:
        item = stack.pop()
        if isinstance(item, dict) and set(item) == {"str", "json"}:
            if item["json"]["t"] != "ProgramType":  # a program's: no GTIR type of ours
                found.setdefault(item["str"], item["json"])
        elif isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return found


def test_every_recorded_type_prints_as_gt4py_printed_it() -> None:
    recorded = _recorded()
    assert len(recorded) > 150
    assert any("DomainType(" in text for text in recorded)  # reprs are there too
    for text, data in recorded.items():
        assert gt4py_str(gt.type_from_json(data)) == text


def test_shapes_keywords_and_void() -> None:
    vector = gt.ScalarType("float32", (3,))
    assert gt4py_str(vector) == "float32[3]"
    assert gt4py_repr(vector) == "ScalarType(kind=<ScalarKind.FLOAT32: 10>, shape=[3])"
    function = gt.FunctionType((vector,), (("b", gt.ScalarType("bool")),), (), gt.VoidType())
    assert gt4py_str(function) == "(float32[3], b: bool) -> VoidType()"
    assert gt4py_repr(gt.ListType(gt.ScalarType("int8"))) == (
        "ListType(element_type=ScalarType(kind=<ScalarKind.INT8: 2>, shape=None), offset_type=None)"
    )
