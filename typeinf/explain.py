"""`typeinf explain`: the type of the expression at a source position, and the constraints that
gave it that type (those on the paths that joined its type, and each part of it, to what it is:
see `history`)."""

from __future__ import annotations

from dataclasses import dataclass

from iterir import Node
from iterir.gcpause import gc_paused
from iterir.traversal import walk
from typeinf import gtir_infer
from typeinf.constraints import Reason
from typeinf.diagnostics import MAX_REASONS
from typeinf.errors import TypeInferenceError
from typeinf.gtir_collect import GtirInference
from typeinf.infer import AllowFree, Provider, _program_type, every_error
from typeinf.sizes import check_node_types
from typeinf.terms import Type, roots


@dataclass
class Explained:
    type: Type | None  # None when inference stopped before reaching the node
    #: In evaluation order, each with the node it is about; at most `MAX_REASONS`.
    reasons: list[tuple[Reason, Node]]
    errors: list[TypeInferenceError]
    more: int = 0  # how many more reasons there are than `reasons` shows


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
        history = inference.solver.history
        assert history is not None  # every_error runs the explaining run
        reasons = history.of_type(list(roots(type_)))
        return Explained(type_, reasons[:MAX_REASONS], errors, max(0, len(reasons) - MAX_REASONS))


def why_gtir(root: Node, target: Node, offset_provider: object = None) -> Explained:
    """`why` for GTIR (`offset_provider`: GT4Py's offset-provider types): the explaining run
    keeps what each typing rule joined (docs/gtir.md, "Typing")."""
    try:
        offsets = gtir_infer.offset_types(offset_provider)
        inference = GtirInference(root, offsets, max_errors=1 << 30, explain=True)
    except TypeInferenceError as error:
        return Explained(None, [], [error])
    errors = [error for _, error in sorted(inference.errors, key=lambda e: e[0])]
    position = next(p for p, n in enumerate(inference.nodes) if n is target)
    cell = inference.types[position]
    history = inference.solver.history
    if cell is None or history is None:
        return Explained(None, [], errors)
    reasons = history.of_type([cell])
    return Explained(cell, reasons[:MAX_REASONS], errors, max(0, len(reasons) - MAX_REASONS))
