"""GTIR typing scored against GT4Py 1.2.3 on the vendored samples (GTIR.md's section 6, as far
as the rules typed so far reach): how many records type, and how many of GT4Py's ground types
(parameters, function definitions, temporaries, each `SetAt`'s expression, target and domain)
equal ours. The counts are pinned so that they can only go up; the test prints them."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field

import iterir
import typeinf
from iterir import gtir_types as gt
from iterir.nodes import Program, SetAt
from iterir.offset_types import offset_types_from_json
from tests.test_gtir_samples import SAMPLES
from typeinf.errors import TypeInferenceError
from typeinf.gtir_collect import GtirInference
from typeinf.gtir_structured import NotStructured, from_gt4py, to_gt4py
from typeinf.terms import Cell, Mismatch
from typeinf.unify import unify

#: Today's counts: raise them when the rules type more, never lower them.
TYPED_AT_LEAST = 844
AGREE_AT_LEAST = 5_413


@dataclass
class Score:
    records: int = 0
    typed: int = 0
    ground: int = 0  # GT4Py's ground types compared
    agree: int = 0
    reasons: Counter[str] = field(default_factory=Counter)


def _ground(data: dict | None) -> bool:
    text = json.dumps(data)
    return data is not None and "DeferredType" not in text and '"unknown"' not in text


def _equal(ours: Cell | None, theirs: dict) -> bool:
    """Whether our type, in GT4Py's structured form, is GT4Py's."""
    if ours is None:
        return False
    try:
        return gt.type_to_json(to_gt4py(ours)) == theirs
    except NotStructured:
        return False


def _instance(ours: Cell | None, theirs: dict) -> bool:
    """Whether GT4Py's (monomorphic) type of a definition is an instance of ours."""
    if ours is None:
        return False
    try:
        unify(ours, from_gt4py(gt.type_from_json(theirs)), [])
    except (Mismatch, ValueError):
        return False
    return True


def _compared(inference: GtirInference, types: dict) -> list[tuple[str, Cell | None, dict, bool]]:
    """(what, our type, GT4Py's, is a definition) for every type of GT4Py's the record holds."""
    by_node = {id(n): t for n, t in zip(inference.nodes, inference.types, strict=True)}
    program = inference.root
    assert isinstance(program, Program)
    out: list[tuple[str, Cell | None, dict, bool]] = []
    for sym in program.params:
        out.append(("param", by_node.get(id(sym)), types["params"][sym.id], False))
    for definition in program.function_definitions:
        entry = types["function_definitions"].get(definition.id)
        out.append(("definition", by_node.get(id(definition)), entry, True))
    for temporary in program.declarations:
        out.append(
            ("temporary", by_node.get(id(temporary)), types["temporaries"][temporary.id], False)
        )
    set_ats = [n for n in inference.nodes if isinstance(n, SetAt)]
    assert len(set_ats) == len(types["set_ats"])
    for node, theirs in zip(set_ats, types["set_ats"], strict=True):
        out.append(("set_at expr", by_node.get(id(node.expr)), theirs["expr"], False))
        out.append(("set_at target", by_node.get(id(node.target)), theirs["target_type"], False))
        out.append(("set_at domain", by_node.get(id(node.domain)), theirs["domain"], False))
    return [(w, o, t["json"], d) for w, o, t, d in out if t is not None]


def _reason(error: TypeInferenceError) -> str:
    message = error.message
    for mark in ("builtin `", "offset `"):
        if mark in message:
            return message[: message.index("`", message.index(mark) + len(mark)) + 1]
    return message.split(":")[0][:60]


def score() -> Score:
    result = Score()
    for sample in SAMPLES:
        if sample["ir"]["node"] != "Program" or "gt4py_types" not in sample:
            continue
        result.records += 1
        program = iterir.from_json(sample["ir"])
        offsets = offset_types_from_json(sample["offset_provider_type"])
        try:
            inference = GtirInference(program, offsets)
        except TypeInferenceError as error:
            result.reasons[_reason(error)] += 1
            continue
        result.typed += 1
        for what, ours, theirs, definition in _compared(inference, sample["gt4py_types"]):
            if not _ground(theirs):
                continue
            result.ground += 1
            if (_instance if definition else _equal)(ours, theirs):
                result.agree += 1
            else:
                result.reasons[f"differs: {what}"] += 1
    return result


def test_the_samples_type_and_agree_with_gt4py() -> None:
    result = score()
    print(
        f"\nGTIR samples: {result.typed}/{result.records} programs type; "
        f"{result.agree}/{result.ground} of GT4Py's ground types agree"
    )
    for reason, count in result.reasons.most_common(15):
        print(f"  {count:5}  {reason}")
    assert result.typed >= TYPED_AT_LEAST
    assert result.agree >= AGREE_AT_LEAST


def test_every_typed_program_ties_each_set_at_both_ways() -> None:
    """A SetAt's expression and target are one type, in every program that types."""
    for sample in SAMPLES[:200]:
        if sample["ir"]["node"] != "Program":
            continue
        offsets = offset_types_from_json(sample["offset_provider_type"])
        try:
            inference = GtirInference(iterir.from_json(sample["ir"]), offsets)
        except TypeInferenceError:
            continue
        by_node = {id(n): t for n, t in zip(inference.nodes, inference.types, strict=True)}
        for node in inference.nodes:
            if isinstance(node, SetAt):
                expr, target = by_node[id(node.expr)], by_node[id(node.target)]
                assert expr is not None and target is not None
                unify(expr, target, [])  # no Mismatch: already one type


def test_the_program_gt4py_rejects_types_here() -> None:
    """`test_hdiff.pre.01`: GT4Py's monomorphic inference fails on `flux`, used with two
    offsets; let-polymorphism types it, each definition with its relations."""
    (sample,) = [s for s in SAMPLES if "gt4py_error" in s]
    program = iterir.from_json(sample["ir"])
    inference = GtirInference(program, offset_types_from_json(sample["offset_provider_type"]))
    assert isinstance(program, Program)
    assert [str(t) for t in typeinf.infer(program, sample["offset_provider_type"]).params] == [  # type: ignore[union-attr]
        "Field[[IDim, JDim], float64]"
    ] * 3 + ["int32"] * 2
    assert inference.schemes  # every definition generalized
