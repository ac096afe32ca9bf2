"""The errors of constraints and relations that fail, in the fencil IR's words: the types
printed together, and the reasons the explaining run's history gives for each side (said in
words by `messages`, the one module that does). The fencil IR's solver raises them
(`collect.FencilSolver`, whose `unsatisfiable` and `cannot_hold` are the hooks the core's
`Solver` leaves to the dialect); only an error pays for what is here."""

from __future__ import annotations

from iterir import FunctionDefinition, Lambda, Node, SymRef
from typeinf.core.constraints import Argument, Call, ClosureStencil, Equal, Reason
from typeinf.core.constructors import fixed_params
from typeinf.core.errors import UnsatisfiableConstraintError
from typeinf.core.history import History
from typeinf.core.relations import Relation
from typeinf.core.terms import Cell, Mismatch, Sort, Type, find
from typeinf.fencil import messages
from typeinf.fencil.conflict_records import About, Conflict, Note, RelationConflict
from typeinf.fencil.notation import FencilPrinter
from typeinf.fencil.stencil_inputs import used_as_value


def cannot_hold(
    nodes: list[Node],
    history: History | None,
    relation: Relation,
    position: int,
    reason: Reason,
    why: str,
) -> UnsatisfiableConstraintError:
    """The error of a relation that can never hold: the relation with its cells named as
    variables, `with` what the known ones are, and why ("a relation of `larger` cannot
    hold: `T₂ = max(T₀, T₁)` with T₀ = bool, T₁ = int32 (`bool` has no place in the
    order)")."""
    printer = FencilPrinter([])
    names: dict[int, str] = {}
    known: list[tuple[str, Cell, Cell]] = []  # name, the relation's cell, its root
    for cell in relation.cells:
        root = find(cell)
        key = id(root) if root.ctor is None else id(cell)
        if key in names:
            continue
        if root.ctor is None:
            names[key] = printer.render(root)
        else:
            names[key] = printer.placeholder()
            known.append((names[key], cell, root))

    def name(cell: Cell) -> str:
        root = find(cell)
        return names[id(root) if root.ctor is None else id(cell)]

    notes = tuple(
        (n, printer.render(root), why, at)
        for n, cell, root in known
        for why, at in reasons(history, cell, position)
    )
    values = ", ".join(f"{n} = {printer.render(root)}" for n, _, root in known)
    conflict = RelationConflict(reason, nodes[position], relation.show(name), values, why, notes)
    return messages.cannot_hold(conflict)


def reasons(history: History | None, cell: Cell, position: int) -> list[tuple[Reason, Node]]:
    """Why `cell` has its type (its root's): the constraints on the path that joined them,
    by their nodes' positions, each with the node it is about (the failing constraint's own
    `position` left out); none in the fast run."""
    if history is None:
        return []
    return history.reasons(history.path(cell), position)


def function_of(nodes: list[Node], position: int) -> int | None:
    """The position of the function the node at `position` is: a lambda, or the function
    definition a name refers to (found by a scan of the program: only an error asks)."""
    node = nodes[position]
    if type(node) is Lambda:
        return position
    if type(node) is not SymRef:
        return None
    definitions = {n.id: p for p, n in enumerate(nodes) if type(n) is FunctionDefinition}
    return definitions.get(node.id)


def unsatisfiable(
    nodes: list[Node],
    types: list[Cell | None],
    history: History | None,
    constraint: Equal,
    mismatch: Mismatch,
    start: int | None = None,
) -> UnsatisfiableConstraintError:
    """The error `constraint` is, failing with `mismatch`: its types and the clashing parts,
    printed together, and the reasons behind each side (said in words by `messages`):
    only the constraints on the paths that joined each side to what it clashes with (the
    history's joins of the failed constraint are those from `start` on)."""
    # Locations are shown when they are what differs.
    located = mismatch.left.sort in (Sort.LOC, Sort.LROW) or mismatch.right.sort in (
        Sort.LOC,
        Sort.LROW,
    )
    reason = constraint.reason
    if isinstance(reason, ClosureStencil) and history is not None:
        start = function_of(nodes, constraint.position)
        blamed = None if start is None else used_as_value(nodes, types, history, constraint, start)
        if blamed is not None:
            return messages.input_used_as_value(blamed)
    callee = reason.callee_position if isinstance(reason, (Argument, Call)) else None
    callee_type = types[callee] if callee is not None else None
    callee_reasons = (
        reasons(history, callee_type, constraint.position) if callee_type is not None else []
    )
    shown: list[Type] = [constraint.expected, constraint.actual, mismatch.left, mismatch.right]
    printer = FencilPrinter(
        shown + ([callee_type] if callee_type is not None and callee_reasons else []), located
    )
    expected, actual, left, right = (printer.format(c) for c in shown)
    notes: list[Note] = []
    if history is not None:
        sides = history.failed(
            len(history.joins) if start is None else start,
            constraint.expected,
            constraint.actual,
            mismatch,
        )
        about: tuple[tuple[About, str], ...] = (
            ("expected", expected),
            ("actual", actual),
            ("part", left),
            ("part", right),
        )
        said = [
            [Note(kind, text, why, at) for why, at in history.reasons(side, constraint.position)]
            for (kind, text), side in zip(about, sides, strict=True)
        ]
        if callee_reasons:  # what made the callee expect that
            assert callee is not None and callee_type is not None  # it has reasons: a type
            printed = printer.format(callee_type)
            said.insert(
                1,
                [Note("callee", printed, why, at, nodes[callee]) for why, at in callee_reasons],
            )
        notes = [note for group in said for note in group]
    once: dict[int, Note] = {}
    for note in notes:  # one note per node, the first
        once.setdefault(id(note.node), note)
    node = nodes[constraint.position]
    where = printer.where()
    families = tuple(
        c.family for c in (mismatch.left, mismatch.right) if c.ctor is None and c.family
    )
    takes = None
    if isinstance(reason, ClosureStencil):
        params = fixed_params(constraint.actual)
        if params is not None and len(params) != reason.inputs:
            takes = len(params)
    conflict = Conflict(
        reason,
        node,
        expected,
        actual,
        left,
        right,
        mismatch.why,
        where,
        tuple(once.values()),
        families,
        takes,
    )
    return messages.unsatisfiable(conflict)
