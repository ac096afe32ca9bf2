"""GTIR typing scored against GT4Py 1.2.3 on every vendored sample, as GTIR.md's section 6 (and
docs/gtir.md, "Agreement with GT4Py") defines it; any disagreement fails the test.

A record agrees when (1) it parses, loads and round-trips (`tests/test_gtir_samples.py`, for all
942); (2) it types — the one record GT4Py rejects too; (3) every type GT4Py gives that is ground
(the program's parameters, function definitions, temporaries, each `SetAt`'s expression, target
and domain; an expression's own type) equals ours in GT4Py's structured form, printed exactly as
GT4Py's `str()` (`typeinf.frontends.gt4py_text`), and for a function definition GT4Py's
monomorphic type is an instance of our polymorphic one (relations included); (4) where GT4Py
says `DeferredType` or "unknown", ours is consistent with it (unifies), counted as "more
precise" when it says more. The test prints the counts (the README quotes them)."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import iterir
import typeinf
from iterir import gtir_types as gt
from iterir.nodes import Program
from iterir.offset_types import offset_types_from_json
from tests.test_gtir_samples import SAMPLES
from typeinf.core.errors import TypeInferenceError
from typeinf.core.relations import CannotHold
from typeinf.core.schemes import Scheme, copy_graph
from typeinf.core.terms import Cell, Mismatch, find
from typeinf.core.unify import unify
from typeinf.frontends.gt4py_text import gt4py_str
from typeinf.frontends.gtir_report import ground_gt4py, program_parts
from typeinf.gtir.collect import GtirInference
from typeinf.gtir.structured import from_gt4py


@dataclass
class Score:
    records: int = 0
    typed: int = 0
    ground: int = 0  # GT4Py's ground types compared
    agree: int = 0
    deferred: int = 0  # GT4Py's types with a `DeferredType` or an "unknown" set
    more_precise: int = 0  # of those, where ours says more (and is consistent)
    rejected_but_typed: list[str] = field(default_factory=list)
    disagreements: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Compared:
    what: str  # `param a`, `set_at 0.t.0 expr`, …
    ours: Cell
    theirs: dict  # GT4Py's `{"str", "json"}`
    scheme: Scheme | None = None  # a function definition's: GT4Py's type must be an instance


def _unifies(ours: Cell, theirs: dict) -> bool:
    """Whether our type and GT4Py's (its `DeferredType`s and unknown sets variables) can be one
    type; on a copy of ours, which stays as it was."""
    try:
        unify(copy_graph(ours, {}), from_gt4py(gt.type_from_json(theirs)), [])
    except Mismatch:
        return False
    return True


def _instance(scheme: Scheme, theirs: dict) -> bool:
    """Whether GT4Py's (ground, monomorphic) type of a definition is an instance of our scheme:
    a fresh instance unifies with it, and its relations, fired to a fixpoint, never fail (one
    about the definition's insides alone, which GT4Py's type does not reach, may still wait)."""
    instance, relations = scheme.instantiate_related()

    def equate(cell: Cell, value: Cell) -> None:
        for left, right in unify(cell, value, []):
            equate(left, right)

    try:
        unify(instance, from_gt4py(gt.type_from_json(theirs)), [])
        while relations:
            waiting = [relation for relation in relations if not relation.fire(equate)]
            if len(waiting) == len(relations):
                break
            relations = waiting
    except (Mismatch, CannotHold):
        return False
    return True


def _structure(cell: Cell) -> int:
    """How much of a type is known: the structures (not variables) in its tree."""
    count, stack = 0, [cell]
    while stack:
        root = find(stack.pop())
        if root.ctor is not None:
            count += 1
            stack.extend(root.args)
    return count


def _compared(inference: GtirInference, types: dict) -> Iterator[Compared]:
    """Our type beside each of GT4Py's the record holds, in the order the report gives them;
    a `SetAt`'s path and target text must be GT4Py's too (else an AssertionError)."""
    at = inference.type_at
    if not isinstance(inference.root, Program):
        yield Compared("expression", at(0), types["root"])
        return
    parts = program_parts(inference)
    for name, position in parts.params:
        yield Compared(f"param {name}", at(position), types["params"][name])
    for name, position in parts.definitions:
        theirs = types["function_definitions"][name]
        yield Compared(f"definition {name}", at(position), theirs, inference.schemes[position])
    for name, position in parts.temporaries:
        yield Compared(f"temporary {name}", at(position), types["temporaries"][name])
    assert [(s.path, iterir.pformat(s.node.target)) for s in parts.set_ats] == [
        (s["path"], s["target"]) for s in types["set_ats"]
    ]
    for ours, theirs in zip(parts.set_ats, types["set_ats"], strict=True):
        yield Compared(f"set_at {ours.path} expr", at(ours.expr), theirs["expr"])
        yield Compared(f"set_at {ours.path} target", at(ours.target), theirs["target_type"])
        yield Compared(f"set_at {ours.path} domain", at(ours.domain), theirs["domain"])


def _ground(data: dict) -> bool:
    text = json.dumps(data)
    return "DeferredType" not in text and '"unknown"' not in text


def _score_one(result: Score, sample: dict, inference: GtirInference) -> None:
    for compared in _compared(inference, sample["gt4py_types"]):
        where = f"{sample['id']}: {compared.what}"
        theirs = compared.theirs["json"]
        if _ground(theirs):
            result.ground += 1
            if compared.scheme is not None:
                agrees = _instance(compared.scheme, theirs)
            else:
                ours = ground_gt4py(compared.ours)
                agrees = (
                    ours is not None
                    and gt.type_to_json(ours) == theirs
                    and gt4py_str(ours) == compared.theirs["str"]  # printed as GT4Py prints it
                )
            if agrees:
                result.agree += 1
            else:
                result.disagreements.append(f"{where}: ours is not GT4Py's")
            continue
        result.deferred += 1
        if not _unifies(compared.ours, theirs):
            result.disagreements.append(f"{where}: ours is inconsistent with GT4Py's")
        elif _structure(compared.ours) > _structure(from_gt4py(gt.type_from_json(theirs))):
            result.more_precise += 1


def score() -> Score:
    result = Score()
    for sample in SAMPLES:
        result.records += 1
        offsets = offset_types_from_json(sample["offset_provider_type"])
        try:
            inference = GtirInference(iterir.from_json(sample["ir"]), offsets)
        except TypeInferenceError as error:
            result.disagreements.append(f"{sample['id']}: does not type: {error.message}")
            continue
        result.typed += 1
        if "gt4py_error" in sample:
            result.rejected_but_typed.append(sample["id"])
        else:
            _score_one(result, sample, inference)
    return result


def test_every_sample_types_and_agrees_with_gt4py() -> None:
    result = score()
    print(
        f"\nGTIR samples: {result.typed}/{result.records} records type "
        f"({len(result.rejected_but_typed)} that GT4Py rejects); "
        f"{result.agree}/{result.ground} of GT4Py's ground types agree; "
        f"{result.more_precise} of its {result.deferred} deferred or unknown types are more "
        "precise here, the rest as precise"
    )
    assert result.disagreements == []
    assert result.typed == result.records == len(SAMPLES) == 942
    assert result.agree == result.ground
    assert result.rejected_but_typed == ["test_hdiff.test_hdiff.pre.01"]
    assert result.ground > 5_000 and result.deferred > 0  # the scoring saw what it scores


def _scored(sample: dict) -> Score:
    """`score` of one record."""
    result = Score()
    program = iterir.from_json(sample["ir"])
    inference = GtirInference(program, offset_types_from_json(sample["offset_provider_type"]))
    _score_one(result, sample, inference)
    return result


def _field(kind: str, dims: list[dict]) -> dict:
    return {
        "t": "FieldType",
        "dims": dims,
        "dtype": {"t": "ScalarType", "kind": kind, "shape": None},
    }


def test_a_disagreement_is_reported() -> None:
    """The scoring can fail: a record whose recorded type is changed disagrees, at that type."""
    (sample,) = [s for s in SAMPLES if s["id"] == "test_anton_toy.test_anton_toy.pre.01"]
    assert _scored(sample).disagreements == []
    where = f"{sample['id']}: "
    dims = [{"t": "Dimension", "value": d, "kind": "horizontal"} for d in ("IDim", "JDim", "KDim")]
    assert sample["gt4py_types"]["params"]["inp"]["json"] == _field("float64", dims)

    def tampered(change: Callable[[dict], None]) -> list[str]:
        record = copy.deepcopy(sample)
        change(record["gt4py_types"])
        return _scored(record).disagreements

    def param(value: dict) -> Callable[[dict], None]:
        return lambda types: types["params"]["inp"].update(value)

    assert tampered(param({"json": _field("float32", dims)})) == [
        where + "param inp: ours is not GT4Py's"
    ]
    assert tampered(param({"str": "Field[[IDim, JDim, KDim], float32]"})) == [
        where + "param inp: ours is not GT4Py's"  # the same type, printed otherwise
    ]
    deferred = {
        "t": "FieldType",
        "dims": dims[:1],
        "dtype": {"t": "DeferredType", "constraint": None},
    }
    assert tampered(param({"json": deferred})) == [
        where + "param inp: ours is inconsistent with GT4Py's"  # deferred, and not ours
    ]

    def returns_int32(types: dict) -> None:  # no instance of `lap_flat`'s type
        types["function_definitions"]["lap_flat"]["json"]["returns"]["kind"] = "int32"

    assert tampered(returns_int32) == [where + "definition lap_flat: ours is not GT4Py's"]


def test_every_typed_program_ties_each_set_at_both_ways() -> None:
    """A SetAt's expression and target are one type, in every program."""
    for sample in SAMPLES:
        if sample["ir"]["node"] != "Program":
            continue
        offsets = offset_types_from_json(sample["offset_provider_type"])
        inference = GtirInference(iterir.from_json(sample["ir"]), offsets)
        for set_at in program_parts(inference).set_ats:
            assert find(inference.type_at(set_at.expr)) is find(inference.type_at(set_at.target))


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
