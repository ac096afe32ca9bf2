"""Principal types, checked on generated well-typed programs: inference succeeds, the type the
program was built for is an instance of the inferred one, and the result does not depend on
names, on the order of definitions, or on the process."""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
from typing import Any

from hypothesis import event, given, settings
from hypothesis import strategies as st

import iterir
import typeinf
from iterir import FencilDefinition, Node, NodeTranslator, Sym, SymRef
from iterir.jsontext import dumps
from tests.conftest import ROOT
from tests.welltyped import well_typed_expressions, well_typed_fencils, well_typed_programs
from typeinf.core.terms import FencilType
from typeinf.fencil.convert import to_value
from typeinf.types import Closure, Definition, Fencil, Inferred


def _printed(type_: Inferred) -> list[str]:
    """Each part of a type, printed on its own (so that parts can be compared by name)."""
    if isinstance(type_, Fencil):
        return [f"{d.name} :: {d.type:located}" for d in type_.definitions] + [
            format(p, "located") for p in type_.params
        ]
    if isinstance(type_, Closure):
        return [format(p, "located") for p in (*type_.inputs, type_.output)]
    if isinstance(type_, Definition):
        return [format(type_.type, "located")]
    return [format(type_, "located")]


@given(well_typed_programs)
def test_the_known_type_is_an_instance_of_the_inferred_type(
    generated: tuple[Node, Any],
) -> None:
    program, cells = generated
    known = to_value(cells)
    inferred = typeinf.infer(program)
    event(f"nodes: {'≤ 20' if sum(1 for _ in iterir.walk(program)) <= 20 else '> 20'}")
    assert typeinf.substitution(inferred, known) is not None, (
        f"{iterir.pformat(program)}\n  inferred: {_printed(inferred)}\n  known:    {_printed(known)}"
    )


@given(well_typed_programs)
def test_every_node_of_a_well_typed_program_has_a_type(
    generated: tuple[Node, Any],
) -> None:
    program, _ = generated
    types = typeinf.infer_all(program)
    assert set(types) == {id(n) for n in iterir.walk(program)}
    assert all(typeinf.pformat(t, locations=True) for t in types.values())


@given(well_typed_programs)
def test_the_fast_run_and_the_run_with_history_give_every_node_the_same_type(
    generated: tuple[Node, Any],
) -> None:
    # `infer_all` runs without history (nodes in reverse pre-order, calls typed by matching);
    # `check` keeps the history error messages need (post-order, unification only).
    program, _ = generated
    fast, careful = typeinf.infer_all(program), typeinf.check(program)
    assert careful.errors == [] and list(fast) == list(careful.types)
    for key, type_ in fast.items():
        assert _printed(type_) == _printed(careful.types[key])


class _Rename(NodeTranslator):
    def __init__(self, mapping: dict[str, str]) -> None:
        self.mapping = mapping

    def visit_Sym(self, node: Sym) -> Sym:
        return dataclasses.replace(node, id=self.mapping.get(node.id, node.id))

    def visit_SymRef(self, node: SymRef) -> SymRef:
        return dataclasses.replace(node, id=self.mapping.get(node.id, node.id))


def _user_names(program: Node) -> list[str]:
    return sorted({n.id for n in iterir.walk(program) if isinstance(n, Sym)})


@given(well_typed_programs, st.randoms(use_true_random=False))
def test_renaming_parameters_does_not_change_the_type(
    generated: tuple[Node, Any], random: Any
) -> None:
    program, _ = generated
    names = _user_names(program)
    shuffled = names[:]
    random.shuffle(shuffled)
    # A permutation of the declared names, plus a fresh spelling: a bijection keeps every binding.
    renamed = _Rename({a: f"{b}_ᐞ" for a, b in zip(names, shuffled, strict=True)}).visit(program)
    assert _printed(typeinf.infer(renamed)) == _printed(typeinf.infer(program))


@given(well_typed_fencils(), st.randoms(use_true_random=False))
def test_reordering_definitions_does_not_change_the_type(
    generated: tuple[FencilDefinition, FencilType], random: Any
) -> None:
    program, _ = generated
    definitions = list(program.function_definitions)
    random.shuffle(definitions)
    reordered = dataclasses.replace(program, function_definitions=tuple(definitions))
    by_name = lambda t: sorted(_printed(dataclasses.replace(t, params=())))  # noqa: E731
    original, shuffled = typeinf.infer(program), typeinf.infer(reordered)
    assert by_name(shuffled) == by_name(original)
    assert [typeinf.pformat(p, locations=True) for p in shuffled.params] == [
        typeinf.pformat(p, locations=True) for p in original.params
    ]


@given(well_typed_fencils())
def test_renaming_definitions_does_not_change_their_types(
    generated: tuple[FencilDefinition, FencilType],
) -> None:
    program, _ = generated
    mapping = {d.id: f"renamed_{d.id}" for d in program.function_definitions}
    renamed = _Rename(mapping).visit(program)
    renamed = dataclasses.replace(
        renamed,
        function_definitions=tuple(
            dataclasses.replace(d, id=mapping[d.id]) for d in renamed.function_definitions
        ),
    )
    original = typeinf.infer(program)
    after = typeinf.infer(renamed)
    assert [mapping[d.name] for d in original.definitions] == [d.name for d in after.definitions]
    assert [typeinf.pformat(d.type) for d in original.definitions] == [
        typeinf.pformat(d.type) for d in after.definitions
    ]


_CHILD = """
import sys, iterir, typeinf
from iterir.jsontext import loads
for line in sys.stdin:
    print(typeinf.pformat(typeinf.infer(iterir.from_json(loads(line))), locations=True))
"""


@settings(max_examples=3)
@given(
    st.lists(
        st.one_of(
            well_typed_expressions().map(lambda g: g[0]), well_typed_fencils().map(lambda g: g[0])
        ),
        min_size=10,
        max_size=10,
    )
)
def test_a_fresh_process_with_another_hash_seed_prints_the_same_types(programs: list[Node]) -> None:
    here = [typeinf.pformat(typeinf.infer(p), locations=True) for p in programs]
    lines = "".join(dumps(iterir.to_json(p)) + "\n" for p in programs)
    for seed in ("0", "4242"):
        env = {**os.environ, "PYTHONHASHSEED": seed, "PYTHONPATH": str(ROOT)}
        child = subprocess.run(
            [sys.executable, "-c", _CHILD],
            input=lines,
            capture_output=True,
            text=True,
            env=env,
            check=True,
        )
        assert child.stdout.splitlines() == here
