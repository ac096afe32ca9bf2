"""What the fencil IR's solver found when a constraint or a relation failed, as records:
made by `conflicts` (the types printed, the reasons from the explaining run's history) and said
in words by `messages` alone, so that finding a conflict and wording it stay apart."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from iterir import Node
from typeinf.core.constraints import Reason
from typeinf.core.terms import Why

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
    `where` clause of the families involved, and the notes (`messages.unsatisfiable` says
    it)."""

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
