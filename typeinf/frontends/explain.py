"""`typeinf explain`: the type of the expression at a source position, and the constraints that
gave it that type (those on the paths that joined its type, and each part of it, to what it is:
see `history`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from iterir import Node
from iterir.gcpause import gc_paused
from iterir.traversal import walk
from typeinf.core.constraints import Reason
from typeinf.core.diagnostics import MAX_REASONS
from typeinf.core.errors import TypeInferenceError
from typeinf.core.offsets import Offsets
from typeinf.core.sizes import check_node_types
from typeinf.core.terms import Type, roots
from typeinf.fencil.infer import every_error, program_type
from typeinf.gtir import infer as gtir_infer
from typeinf.gtir.collect import GtirInference
from typeinf.gtir.infer import GtirInferred
from typeinf.infer import AllowFree
from typeinf.within import subject


@dataclass
class Explained:
    #: None when inference stopped before reaching the node; a GTIR program's is a `GtirProgram`.
    type: Type | GtirInferred | None
    #: In evaluation order, each with the node it is about; at most `MAX_REASONS`.
    reasons: list[tuple[Reason, Node]]
    errors: list[TypeInferenceError]
    more: int = 0  # how many more reasons there are than `reasons` shows
    #: The node whose type `type` is, when `target` has none of its own (a builtin's name, a
    #: statement): the nearest enclosing one that has (`enclosing_typed`); None: `target`'s.
    of: Node | None = None


def enclosing_typed(sizes: Sequence[int], position: int, typed: Callable[[int], bool]) -> int:
    """The position of the nearest node enclosing the one at pre-order `position` (itself
    first) that is `typed`; the root (0) when none is, for the caller to type from its parts."""
    current = position
    while current and not typed(current):
        parent = current - 1
        while parent + sizes[parent] <= current:  # not an ancestor: its subtree ends before
            parent -= 1
        current = parent
    return current


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


def why(root: Node, target: Node, offsets: Offsets, *, allow_free: AllowFree = False) -> Explained:
    """The type of `target` (a node of `root`) and the reasons behind it (`offsets`: the offset
    provider read); `allow_free` as for `infer`."""
    with gc_paused():
        try:
            inference = every_error(subject(root, allow_free, None), offsets.fencil)
        except TypeInferenceError as error:
            return Explained(None, [], [error])
        errors = [error for _, error in inference.errors]
        position = next(p for p, n in enumerate(inference.nodes) if n is target)
        types = inference.types

        def typed(at: int) -> bool:  # a grammar builtin has no type of its own
            try:
                return program_type(inference, at, types) is not None
            except TypeInferenceError:
                return False

        found = enclosing_typed(inference.sizes, position, typed)
        try:
            type_ = program_type(inference, found, types)
        except TypeInferenceError:
            type_ = None
        if type_ is None:
            return Explained(None, [], errors)
        of = None if found == position else inference.nodes[found]
        too_large = check_node_types([of or target], {id(of or target): type_})
        if too_large is not None:  # it cannot be shown: said as an error (docs/rules.md)
            return Explained(None, [], [*errors, too_large])
        history = inference.solver.history
        assert history is not None  # every_error runs the explaining run
        reasons = history.of_type(list(roots(type_)))
        more = max(0, len(reasons) - MAX_REASONS)
        return Explained(type_, reasons[:MAX_REASONS], errors, more, of)


def why_gtir(
    root: Node, target: Node, offsets: Offsets, allow_free: AllowFree = False
) -> Explained:
    """`why` for GTIR: the explaining run keeps what each typing rule joined (docs/gtir.md,
    "Typing")."""
    try:
        inference = GtirInference(
            root, offsets.gtir, max_errors=1 << 30, explain=True, allow_free=allow_free
        )
    except TypeInferenceError as error:
        return Explained(None, [], [error])
    errors = [error for _, error in inference.errors]
    position = next(p for p, n in enumerate(inference.nodes) if n is target)
    types = inference.types
    found = enclosing_typed(inference.sizes, position, lambda at: types[at] is not None)
    of = None if found == position else inference.nodes[found]
    history = inference.solver.history
    assert history is not None  # an explaining run
    cell = types[found]
    type_: Type | GtirInferred
    if cell is not None:
        type_, cells = cell, [cell]
    elif errors:  # the program's type is built from its parts, which errors leave unfinished
        return Explained(None, [], errors)
    else:
        type_ = gtir_infer.program_type(inference)
        cells = [cell for cell in types if cell is not None]
    reasons = history.of_type(cells)
    return Explained(type_, reasons[:MAX_REASONS], errors, max(0, len(reasons) - MAX_REASONS), of)
