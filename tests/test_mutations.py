"""Ill-typed programs, made by mutating well-typed ones: inference reports a TypeInferenceError
at a node inside the program (or, when the mutation happens to keep the program typable,
succeeds), and never raises anything else."""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Callable
from typing import Any

from hypothesis import event, given
from hypothesis import strategies as st

import iterir
import typeinf
from iterir import FencilDefinition, FunCall, Literal, Node, NodeTranslator, SymRef
from tests.welltyped import is_call_of, well_typed_fencils, well_typed_programs

OTHER_LITERALS = [
    Literal("True", "bool"),
    Literal("3", "int32"),
    Literal("0.5", "float32"),
    Literal("2", "int64"),
]


class _Replace(NodeTranslator):
    def __init__(self, target: Node, replacement: Callable[[Node], Node]) -> None:
        self.target, self.replacement = target, replacement

    def generic_visit(self, node: Node, **kwargs: Any) -> Any:
        if node is self.target:
            return self.replacement(node)
        return (yield from super().generic_visit(node, **kwargs))


def _swap_arguments(call: FunCall) -> FunCall:
    args = list(call.args)
    args[0], args[-1] = args[-1], args[0]
    return dataclasses.replace(call, args=tuple(args))


#: Mutation name → (which nodes it applies to, how it changes one).
MUTATIONS: dict[str, tuple[Callable[[Node], bool], Callable[[Node, Any], Node]]] = {
    "swap arguments": (
        lambda n: isinstance(n, FunCall) and len(n.args) >= 2 and n.args[0] != n.args[-1],
        lambda n, draw: _swap_arguments(n),
    ),  # type: ignore[arg-type]
    "drop a deref": (lambda n: is_call_of(n, "deref"), lambda n, draw: n.args[0]),  # type: ignore[attr-defined]
    "change a literal's type": (
        lambda n: isinstance(n, Literal),
        lambda n, draw: draw(st.sampled_from([x for x in OTHER_LITERALS if x.type != n.type])),
    ),  # type: ignore[attr-defined]
    "deref a value": (
        lambda n: is_call_of(n, "plus") or is_call_of(n, "cast_"),
        lambda n, draw: FunCall(SymRef("deref"), (n,)),
    ),
}


def _outcome(program: Node) -> typeinf.TypeInferenceError | None:
    """Infer the program as read from its text, so that every node has a location."""
    text = iterir.pformat(program)
    parsed = iterir.parse(text, "mutant.itir")
    try:
        type_ = typeinf.infer(parsed)
    except typeinf.TypeInferenceError as error:
        node = error.node
        assert node is not None and any(node is n for n in iterir.walk(parsed)), (
            "the error names no node of the program"
        )
        lines = text.split("\n")
        assert node.loc is not None and 1 <= node.loc.line <= len(lines)
        assert 1 <= node.loc.column <= len(lines[node.loc.line - 1]) + 1
        assert str(error).startswith(f"mutant.itir:{node.loc.line}:{node.loc.column}: error: ")
        return error
    # A mutant that still types (a literal swapped for one of its type, say) has a type as any
    # program has: printed, it reads back to itself, and inferring again prints it alike.
    # Located text reads back exactly, but for an ItOrVal's places, which neither notation
    # writes (their variables are numbered all the same, as GT4Py numbers them); the compact
    # notation writes no place: what either reads back is at least as general.
    located = typeinf.pformat(type_, locations=True)
    read = typeinf.parse_type(located, True)
    assert typeinf.is_instance(read, type_)
    if "ItOrVal" not in located:
        assert typeinf.pformat(read, locations=True) == located
    assert typeinf.is_instance(typeinf.parse_type(typeinf.pformat(type_)), type_)
    again = typeinf.infer(parsed)
    assert typeinf.pformat(again, locations=True) == typeinf.pformat(type_, locations=True)
    return None


@given(well_typed_programs, st.sampled_from(sorted(MUTATIONS)), st.data())
def test_a_mutated_program_fails_with_a_located_error_or_types_soundly(
    generated: tuple[Node, Any], mutation: str, data: st.DataObject
) -> None:
    program, _ = generated
    applies, change = MUTATIONS[mutation]
    candidates = [n for n in iterir.walk(program) if applies(n)]
    if not candidates:
        event(f"{mutation}: nothing to mutate")
        return
    target = data.draw(st.sampled_from(candidates))
    mutant = _Replace(target, lambda n: change(n, data.draw)).visit(program)
    error = _outcome(mutant)
    event(f"{mutation}: {'still well typed' if error is None else type(error).__name__}")


@given(well_typed_fencils(), st.data())
def test_a_recursive_reference_is_reported_as_recursion(
    generated: tuple[FencilDefinition, Any], data: st.DataObject
) -> None:
    program, _ = generated
    definitions = list(program.function_definitions)
    k = data.draw(st.integers(0, len(definitions) - 1))
    # Definition k calls a definition that (now or already) reaches k: itself, or a later one
    # made to call k.
    callee = data.draw(st.integers(k, len(definitions) - 1))

    def calling(index: int, target: int) -> Any:
        d = definitions[index]
        call = FunCall(SymRef(definitions[target].id), tuple(SymRef(p.id) for p in d.params))
        return dataclasses.replace(
            d, expr=FunCall(SymRef("if_"), (Literal("True", "bool"), d.expr, call))
        )

    definitions[k] = calling(k, callee)
    if callee != k:
        definitions[callee] = calling(callee, k)
    error = _outcome(dataclasses.replace(program, function_definitions=tuple(definitions)))
    assert isinstance(error, typeinf.RecursionCycleError)
    # The cycle named is a real one: each definition in it uses the next. (It need not be the
    # one made here: the generated definitions may call each other already.)
    names = {d.id for d in definitions}
    uses = {
        d.id: {n.id for n in iterir.walk(d.expr) if isinstance(n, SymRef) and n.id in names}
        for d in definitions
    }
    cycle = error.cycle
    assert (
        cycle[0] == cycle[-1] and len(cycle) >= 2 and definitions[k].id in cycle
    )  # every cycle is new
    assert all(after in uses[before] for before, after in itertools.pairwise(cycle)), (cycle, uses)
