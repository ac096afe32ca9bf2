"""`typeinf explain`: the type of the expression at a source position, and the constraints that
gave it that type (every constraint that joined its type, or a part of it, with another)."""

from __future__ import annotations

from dataclasses import dataclass

from iterir import Node
from iterir.gcpause import gc_paused
from iterir.traversal import walk
from typeinf.constraints import Reason
from typeinf.errors import TypeInferenceError
from typeinf.infer import AllowFree, Provider, _program_type, every_error
from typeinf.sizes import check_node_types
from typeinf.terms import Cell, Type, find, roots

MAX_REASONS = 8


@dataclass
class Explained:
    type: Type | None  # None when inference stopped before reaching the node
    reasons: list[tuple[Reason, Node]]  # in evaluation order, each with the node it is about
    errors: list[TypeInferenceError]


def innermost_at(root: Node, line: int, column: int) -> Node | None:
    """The innermost node whose span holds line:column (the last such one in pre-order)."""
    found = None
    for node in walk(root):
        span = node.loc
        if span is not None and (span.line, span.column) <= (line, column) < (
            span.end_line,
            span.end_column,
        ):
            found = node
    return found


def why(
    root: Node, target: Node, offset_provider: Provider = None, *, allow_free: AllowFree = False
) -> Explained:
    """The type of `target` (a node of `root`) and the reasons behind it; `allow_free` as for
    `infer`."""
    with gc_paused():
        try:
            inference = every_error(root, offset_provider, allow_free=allow_free)
        except TypeInferenceError as error:
            return Explained(None, [], [error])
        errors = [error for _, error in inference.errors]
        position = next(p for p, n in enumerate(inference.nodes) if n is target)
        try:
            type_ = _program_type(inference, position, inference.types)
        except TypeInferenceError:  # a grammar builtin: it has no type of its own
            type_ = None
        if type_ is None:
            return Explained(None, [], errors)
        too_large = check_node_types([target], {id(target): type_})
        if too_large is not None:  # it cannot be shown: said as an error (docs/rules.md)
            return Explained(None, [], [*errors, too_large])
        reasons = inference.solver.joined(_classes(list(roots(type_))), [], MAX_REASONS)
        return Explained(type_, reasons, errors)


def _classes(cells: list[Cell]) -> set[int]:
    """The ids of the roots of every class a type is made of."""
    out: set[int] = set()
    stack = [find(c) for c in cells]
    while stack:
        cell = stack.pop()
        if id(cell) not in out:
            out.add(id(cell))
            stack.extend(find(a) for a in cell.args)
    return out
