"""Constraints: what the collector learns from the IR, each with where it comes from and why.

`position` is the pre-order position of the IR node the constraint is about; `reason` says, in
words a user reads in an error, why the two types must agree.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from typeinf.terms import Cell


@dataclass(frozen=True, slots=True)
class Equal:
    """`expected` and `actual` are the same type."""

    expected: Cell
    actual: Cell
    position: int
    reason: str


@dataclass(frozen=True, slots=True)
class Instance:
    """`cell` is a fresh instance of the (generalized) type of the definition at `definition`."""

    cell: Cell
    definition: int
    position: int


Constraint = Equal | Instance


@dataclass
class Group:
    """The constraints of one function definition, closure or standalone program, solved
    together; a definition's type is generalized once its group is solved."""

    position: int
    constraints: list[Constraint] = field(default_factory=list)
    #: (definition position, referring SymRef position) for every definition this group uses.
    uses: list[tuple[int, int]] = field(default_factory=list)
