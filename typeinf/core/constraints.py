"""Constraints and their provenance: what the typing rules hand the solver (`Equal`), and why
two types must agree (one small frozen record per kind of reason). Only the reporting modules
turn these into words (`diagnostics`, and each dialect's: the fencil IR's
`typeinf.fencil.messages`), as Elm's type checker keeps `Expected`/`Context` apart from its
reporting: the rules say what happened, the report says it to the user.

A constraint is about the IR node at its pre-order `position`; its reason adds what that node
is to the rule (the second argument of `plus`, the closure's output, …).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from iterir import FunCall, Node, SymRef
from typeinf.core import messages
from typeinf.core.terms import Cell


@dataclass(frozen=True, slots=True)
class Argument:
    """The `index`-th argument (from 0) of a call of `callee` (the node at `callee_position`)."""

    index: int
    callee: Node
    callee_position: int


@dataclass(frozen=True, slots=True)
class Call:
    """A call of `callee` (the node at `callee_position`) with `count` arguments, as a whole."""

    count: int
    callee: Node
    callee_position: int


@dataclass(frozen=True, slots=True)
class Annotation:
    """The annotation of the parameter `name` (GT4Py's `Sym.kind`, `Sym.dtype`)."""

    name: str


@dataclass(frozen=True, slots=True)
class TupleElement:
    """The `index`-th element of a `make_tuple`."""

    index: int


@dataclass(frozen=True, slots=True)
class TupleGetOperand:
    """The tuple that `tuple_get` takes element `index` of."""

    index: int


@dataclass(frozen=True, slots=True)
class ShiftStart:
    """A shift by the connectivity `offset`, which starts from an `origin` location."""

    offset: str
    origin: str


@dataclass(frozen=True, slots=True)
class NeighborsOperand:
    """The iterator whose neighbours along `tag` are taken."""

    tag: str


@dataclass(frozen=True, slots=True)
class CastOperand:
    """The value that `cast_` converts."""


@dataclass(frozen=True, slots=True)
class DomainRange:
    """The `index`-th named range of a domain."""

    index: int


@dataclass(frozen=True, slots=True)
class ClosureDomain:
    """A stencil closure's domain."""


@dataclass(frozen=True, slots=True)
class ClosureOutput:
    """A stencil closure's output, written through a column iterator."""


@dataclass(frozen=True, slots=True)
class ClosureInput:
    """The `index`-th input of a stencil closure."""

    index: int


@dataclass(frozen=True, slots=True)
class ClosureStencil:
    """A closure's stencil, applied to the closure's `inputs` inputs."""

    inputs: int


@dataclass(frozen=True, slots=True)
class RelationOf:
    """A relation that a use of `callee` (a definition or builtin whose type carries it) brings."""

    callee: Node


@dataclass(frozen=True, slots=True)
class ShapedRule:
    """The typing rule of a builtin of the grammar whose use was matched as a whole (the fast run
    says no more; the explaining run gives each part its own reason)."""

    builtin: str


@dataclass(frozen=True, slots=True)
class GtirRule:
    """The typing rule of a GTIR construct (`typeinf.gtir.collect`): `what` names it."""

    what: str


def rule_of(node: Node) -> GtirRule:
    """The reason of a constraint whose rule gives none (`Solver.equal`): the typing rule of
    its node, `` `as_fieldop` `` for a call (or an applied call) of a builtin or definition,
    `` `it` `` for a name, else the node's kind."""
    callee = node.fun if isinstance(node, FunCall) else node
    if isinstance(callee, FunCall):
        callee = callee.fun
    if isinstance(callee, SymRef):
        return GtirRule(messages.rule_of_callee(callee.id))
    return GtirRule(messages.rule_of_kind(type(node).__name__))


Reason = (
    Argument
    | Call
    | Annotation
    | TupleElement
    | TupleGetOperand
    | ShiftStart
    | NeighborsOperand
    | CastOperand
    | DomainRange
    | ClosureDomain
    | ClosureOutput
    | ClosureInput
    | ClosureStencil
    | ShapedRule
    | RelationOf
    | GtirRule
)


class Equal(NamedTuple):
    """`expected` and `actual` are the same type: a constraint as the solver reports it when it
    fails (the collector passes the four fields to the solver without building this)."""

    expected: Cell
    actual: Cell
    position: int
    reason: Reason
