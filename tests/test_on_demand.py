"""Values made on demand (`typeinf.types.on_demand`): the fencil's type that `infer` hands out is
made at the first read of any of its fields, and every way of reading it gives what converting
at once gives; before that it is as immutable, and a fill that fails is tried again."""

from __future__ import annotations

import copy
import dataclasses
import json
import sys
import threading
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings

import iterir
import typeinf
from benchmarks.shapes import chained_definitions
from tests.conftest import ROOT
from tests.welltyped import well_typed_fencils
from typeinf.core.offsets import read_offsets
from typeinf.fencil.convert import to_value
from typeinf.fencil.infer import _solved, program_type
from typeinf.types import Fencil, FillError, Type, Val, adopt, made, on_demand, tree
from typeinf.within import subject


def _at_once(fencil: iterir.Node, offset_provider: Any = None) -> Type:
    """The fencil's type converted at once, from the cells `infer` converts."""
    inference = _solved(subject(fencil, False, None), read_offsets(offset_provider).fencil)
    type_ = program_type(inference, 0, inference.types)
    assert type_ is not None  # a well-typed fencil has a type
    return to_value(type_)


def _matched(value: Type) -> object:
    match value:
        case Fencil(name=name, definitions=definitions, params=params):
            return name, definitions, params
    return None


#: Each way a caller reads a value, and what it gives.
READS: dict[str, Callable[[Type], object]] = {
    "field": lambda value: value.definitions,  # type: ignore[attr-defined]
    "equality": lambda value: value,
    "hash": hash,
    "repr": repr,
    "str": str,
    "located": lambda value: format(value, "located"),
    "match": _matched,
    "tree": tree,
    "fields": lambda value: [getattr(value, f.name) for f in dataclasses.fields(value)],
    "replace": lambda value: dataclasses.replace(value, name="renamed"),
    "copy": copy.copy,
}


@settings(max_examples=40)
@given(well_typed_fencils())
def test_every_read_of_a_fencil_s_type_gives_what_converting_at_once_gives(
    generated: tuple[iterir.FencilDefinition, Any],
) -> None:
    fencil, _ = generated
    expected = _at_once(fencil)
    for read in READS.values():
        value = typeinf.infer(fencil)
        assert type(value) is Fencil and not made(value)
        assert read(value) == read(expected)
        assert made(value)


@pytest.mark.parametrize("name", ["nabla", "hdiff", "tridiagonal"])
def test_the_examples_fencils_are_made_on_demand_as_converted_at_once(name: str) -> None:
    program = iterir.parse((ROOT / "examples" / f"{name}.itir").read_text())
    offsets = ROOT / "examples" / f"{name}.offsets.json"
    provider = json.loads(offsets.read_text()) if offsets.exists() else None
    value = typeinf.infer(program, provider)
    expected = _at_once(program, provider)
    assert not made(value)
    assert repr(value) == repr(expected) and value == expected and value.alpha_eq(expected)


def test_before_it_is_made_a_value_is_immutable_and_has_only_its_fields() -> None:
    value = typeinf.infer(iterir.parse((ROOT / "examples" / "hdiff.itir").read_text()))
    with pytest.raises(dataclasses.FrozenInstanceError):
        value.name = "other"  # type: ignore[misc]
    with pytest.raises(AttributeError, match="'Fencil' object has no attribute 'nmae'"):
        value.nmae  # type: ignore[attr-defined]  # noqa: B018
    assert not made(value)
    assert value.name == "hdiff"


def test_a_fill_that_fails_is_tried_again_at_the_next_read() -> None:
    calls = []

    def fill(shell: Fencil) -> None:
        calls.append(shell)
        if len(calls) == 1:
            raise MemoryError("the first time")
        adopt(shell, Fencil("f", (), (Val("Value", "float64", "Scalar"),)))

    value = on_demand(Fencil, fill)
    with pytest.raises(MemoryError):
        value.params  # noqa: B018
    assert not made(value)
    assert value == Fencil("f", (), (Val("Value", "float64", "Scalar"),))
    assert made(value) and len(calls) == 2
    assert value.name == "f" and len(calls) == 2


def test_a_fill_that_does_not_fill_is_a_bug_said_as_one() -> None:
    value = on_demand(Fencil, lambda shell: None)
    with pytest.raises(AssertionError, match="did not fill its value"):
        value.name  # noqa: B018


def test_an_attribute_error_while_filling_is_not_taken_for_a_missing_field() -> None:
    def fill(shell: Fencil) -> None:
        raise AttributeError("a bug inside the fill")

    for read in (
        lambda v: hasattr(v, "name"),
        lambda v: getattr(v, "params", "DEFAULT"),
        lambda v: v.name,
    ):
        with pytest.raises(FillError, match="failed: a bug inside the fill") as caught:
            read(on_demand(Fencil, fill))
        assert isinstance(caught.value.__cause__, AttributeError)
    matched = on_demand(Fencil, fill)
    with pytest.raises(FillError):
        match matched:
            case Fencil(name=_):
                pass


def test_threads_reading_one_value_made_on_demand_see_one_value() -> None:
    """The first reader fills it; readers meanwhile wait and see the same parts."""
    switch = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # threads switch often, inside the fill too
    try:
        for _ in range(3):
            value = typeinf.infer(chained_definitions(2000))
            seen: list[object] = []

            def read(fencil: Fencil = value, into: list[object] = seen) -> None:
                into.append(fencil.definitions)

            threads = [threading.Thread(target=read) for _ in range(4)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            assert len(seen) == 4 and all(s is value.definitions for s in seen)
    finally:
        sys.setswitchinterval(switch)
