"""Constraints and their provenance: what the typing rules hand the solver (`Equal`), why two
types must agree (one small frozen record per kind of reason), and what the solver reports when
a constraint cannot hold (`Conflict`). Only `diagnostics` turns these into words, as Elm's type
checker keeps `Expected`/`Context` apart from its reporting: the rules say what happened, the
report says it to the user.

A constraint is about the IR node at its pre-order `position`; its reason adds what that node
is to the rule (the second argument of `plus`, the closure's output, …).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, NamedTuple

from iterir import FunCall, Node, SymRef
from typeinf.core.terms import Cell, Why


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
        return GtirRule(f"`{callee.id}`")
    return GtirRule(f"a {type(node).__name__}")


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


#: What a note explains: the expected type, the callee's type, the actual type, or a clashing part.
About = Literal["expected", "callee", "actual", "part"]


@dataclass(frozen=True, slots=True)
class Note:
    """One reason behind a failed constraint's types, for a note: the part it explains (`about`:
    the expected type, the callee's type, the actual type, or a clashing part), that part as
    printed, the reason, and the node it is about (`callee`: the callee's node for `about` =
    "callee")."""

    about: About
    printed: str
    reason: Reason
    node: Node
    callee: Node | None = None


@dataclass(frozen=True, slots=True)
class Conflict:
    """A constraint that cannot hold, as the solver found it: its reason and node, its two
    types and the innermost parts that clash (printed, numbered together), why they clash, the
    `where` clause of the families involved, and the notes. The fencil IR's solver says it
    (`typeinf.fencil.messages.unsatisfiable`)."""

    reason: Reason
    node: Node
    expected: str
    actual: str
    left: str
    right: str
    why: Why
    where: str
    notes: tuple[Note, ...]
    #: The families of the clashing parts that are variables restricted to one (`float`), left
    #: before right: what a builtin needs, when `why` is "family" or "families".
    families: tuple[frozenset[str], ...] = ()
    #: How many inputs the stencil takes, when a closure passes it another number of them.
    stencil_takes: int | None = None


@dataclass(frozen=True, slots=True)
class InputUsedAsValue:
    """A stencil input `name` (the `index`-th) that the closure passes as an iterator, used as a
    value inside the stencil: by `use` at `node`; `stencil` is the closure's stencil."""

    name: str
    index: int
    use: Reason
    node: Node
    stencil: Node


@dataclass(frozen=True, slots=True)
class RelationConflict:
    """A relation that can never hold, as the solver found it: its reason and node, the relation
    with its cells named (`shown`), the known ones' values (`values`, `T₀ = bool, …`), the
    relation's own account of why (`why`), and, per known cell, why it is what it is."""

    reason: Reason
    node: Node
    shown: str
    values: str
    why: str
    notes: tuple[tuple[str, str, Reason, Node], ...]  # name, printed value, reason, node


class Equal(NamedTuple):
    """`expected` and `actual` are the same type: a constraint as the solver reports it when it
    fails (the collector passes the four fields to the solver without building this)."""

    expected: Cell
    actual: Cell
    position: int
    reason: Reason
