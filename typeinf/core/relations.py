"""Type relations: constraints over several cells that unification alone cannot say, solved as
Relay's type relations are (a relation waits until its inputs are known and fires then).

A `Relation` relates some cells (`cells`). The solver (`solve.Solver.relate`) fires it at once;
`fire` then either

- settles it (returns True), binding what it determines through the `equate` it is given, which
  is the run's `equal` at the relation's node and reason (so that the explaining run records
  why, and an error says which relation it was);
- says it must wait (returns False), because the inputs are not known yet: the solver keeps it
  open and fires it again when its inputs may have changed (at the latest when the definition
  or closure is settled, to a fixpoint: see `Solver.settle`). A relation that waits may bind
  what it already determines; the solver counts that as progress when what one of its cells
  stands for (the root of its class) changes;
- or raises `CannotHold` when it can never hold: the solver reports that as an
  `UnsatisfiableConstraintError` at the relation's node that names it (`T₂ = max(T₀, T₁)` with
  T₀ = bool).

A relation still open when a definition is generalized becomes part of its scheme
(`schemes.Scheme.relations`, `schemes.Template.relations`): every instance copies it with the
instance's cells (`copy`) and queues it in the solver of the use, and the definition's printed
type shows it after the families, in a `where` clause (`show`, numbered with the type's
variables by `notation.Printer`). A builtin's signature may carry relations too
(`typeinf.register_builtin(…, relations=…)`).

The solver keeps, with each open relation, the position of the node that made it and the reason
("a relation of `larger`"): a relation itself is only its cells and its rule, so that a
scheme's relation is the same object at every use.

Why the dtype families stay where they are (`where T₀: float`, checked by `unify.bind` and met
by `unify._merge_variables`), not relations: a family is checked the moment its variable is
bound, inside unification, and the hot paths test it as part of a test they make anyway (a
variable without a family binds directly). As a relation, each restricted variable of each
instance would be a queued object fired at settle: every arithmetic builtin's instance would
carry one (most builtins' signatures have a family), so the generated matchers and instantiation
code, which know no relations, could no longer type their calls; and a family clash would be
found at the end of the definition rather than at the constraint that makes it, changing which
error is reported first. Only sending the calls of the signatures with families down the path
a relation needs, without queueing a relation, already cost more than the speed target allows
(docs/architecture.md, "Families stay in unification"; docs/performance.md, "Fencil inference
throughput"); so families remain the one kind of restriction that unification checks itself,
and relations are the mechanism for everything that needs more than one cell.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Self

from typeinf.core.terms import Cell, root_of

#: `equate(cell, value)`: the two are one type (the run's `equal`, at the relation's node).
Equate = Callable[[Cell, Cell], None]


class CannotHold(Exception):
    """Raised by `Relation.fire` when the relation can never hold: `why` says why in words
    (`bool has no place in the order`)."""

    def __init__(self, why: str) -> None:
        super().__init__(why)
        self.why = why


class Relation(ABC):
    """A relation between cells, fired by the solver until it settles (see the module's text).

    Subclasses give `fire` and `show`; one with parameters besides its cells also `copy`."""

    __slots__ = ("cells",)

    def __init__(self, *cells: Cell) -> None:
        self.cells: tuple[Cell, ...] = cells

    @abstractmethod
    def fire(self, equate: Equate) -> bool:
        """Settle (bind what the relation determines with `equate`, return True), wait (return
        False: inputs not known yet), or raise `CannotHold`."""

    @abstractmethod
    def show(self, name: Callable[[Cell], str]) -> str:
        """How it reads in a `where` clause, each cell named by `name` (`T₂ = max(T₀, T₁)`)."""

    def copy(self, mapping: Callable[[Cell], Cell]) -> Self:
        """The same relation over `mapping` of each cell (for an instance of a scheme)."""
        clone = object.__new__(type(self))
        clone.cells = tuple(mapping(cell) for cell in self.cells)
        return clone

    def __repr__(self) -> str:
        from typeinf.core.notation import Printer  # the notation prints relations

        printer = Printer([])
        return f"{type(self).__name__}«{self.show(printer.render)}»"


def known(cell: Cell) -> Cell | None:
    """The structure `cell` stands for (its root), or None while it is a variable: what a
    relation asks of its inputs before it fires."""
    root = root_of(cell)
    return None if root.ctor is None else root
