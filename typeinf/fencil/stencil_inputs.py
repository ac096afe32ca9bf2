"""A stencil that uses an input as a value where the closure passes an iterator (`it + 1.0`
instead of `·it + 1.0`): the clash is found where the closure applies the stencil, but the
mistake is at the use inside the stencil, so the error is said there, with the hint `·it`.
"""

from __future__ import annotations

from iterir import FunctionDefinition, Lambda, Node
from typeinf.core.constraints import Equal
from typeinf.core.constructors import fixed_params
from typeinf.core.history import History
from typeinf.core.terms import Cell, root_of
from typeinf.fencil.conflict_records import InputUsedAsValue
from typeinf.fencil.constructors import ITERATOR_KIND, VAL, VALUE_KIND


def used_as_value(
    nodes: list[Node], types: list[Cell | None], history: History, constraint: Equal, start: int
) -> InputUsedAsValue | None:
    """The first input of the stencil that the closure passes as an iterator and the stencil
    uses as a value, with the use that made it one; None if there is none (`constraint` is
    the closure's stencil constraint that failed, `start` the position of the stencil's
    function: a lambda, or the definition the stencil names)."""
    function, passed = nodes[start], fixed_params(constraint.expected)
    if not isinstance(function, (Lambda, FunctionDefinition)) or passed is None:
        return None
    for index, (param, given) in enumerate(zip(function.params, passed, strict=False)):
        type_ = types[start + 1 + index]  # a function's first children are its parameters
        if type_ is None or not (_kind(given) is ITERATOR_KIND and _kind(type_) is VALUE_KIND):
            continue
        uses = history.reasons(history.path(type_))
        if uses:
            use, at = uses[0]
            return InputUsedAsValue(param.id, index, use, at, nodes[constraint.position])
    return None


def _kind(type_: Cell) -> object:
    """The constructor of the kind of a value or iterator type (None if it is not one yet)."""
    root = root_of(type_)
    return root_of(root.args[0]).ctor if root.ctor is VAL else None
