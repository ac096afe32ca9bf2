"""Which dialect types a tree: the one dispatch by dialect, made once at the API boundary from
the input alone, never after an error (docs/architecture.md, "The dispatch by dialect").

`typeinf.infer`, `infer_all`, `check`, `typeinf.Reinference`, the command line, snapshots and
the pytest fixture all ask `decide`, so that every way in types an input alike. The rule, in
order:

1. a function definition inferred `within` a fencil, a fencil or a stencil closure: the fencil
   IR;
2. a GTIR program or statement: GTIR;
3. given an offset provider in GT4Py's form (offset-provider types, `iterir.offset_types`;
   `Offsets.gt4py_form`, told once where the provider is read): GTIR, whose offset provider
   that is;
4. any other tree (an expression, a function definition): GTIR if it holds anything only GTIR
   has (`iterir.nodes.holds_gtir`: a GTIR node, a name with a type, an axis with a kind, or a
   reference to `as_fieldop`), else the fencil IR.

Only the last case looks into the tree: it numbers it in pre-order, as inference would, and
hands that numbering on (`Decided.tree`), so that deciding costs one pass over a list, not a
walk of the tree.
"""

from __future__ import annotations

from enum import Enum
from typing import NamedTuple

from iterir import FencilDefinition, Node, StencilClosure
from iterir.nodes import GTIR_CLASSES, PLACEMENT, holds_gtir
from iterir.traversal import Tree
from typeinf.core.errors import MalformedIRError, checked_preorder
from typeinf.core.offsets import Offsets

#: The builtins only GTIR has whose name alone marks a tree as GTIR (docs/gtir.md, "Typing").
GTIR_MARKS = frozenset({"as_fieldop"})


class Dialect(Enum):
    """The IR a tree is typed as."""

    FENCIL = "the fencil IR"
    GTIR = "GTIR"


class Decided(NamedTuple):
    """The dialect that types a tree, and the tree numbered in pre-order where deciding needed
    it (None: the collector numbers it)."""

    dialect: Dialect
    tree: Tree | None = None


def decide(node: Node, offsets: Offsets, within: Node | None = None) -> Decided:
    """The dialect that types `node` (`within`: the fencil it is a definition of; `offsets`:
    the offset provider, read)."""
    if within is not None or isinstance(node, FencilDefinition | StencilClosure):
        return Decided(Dialect.FENCIL)
    if isinstance(node, GTIR_CLASSES) or offsets.gt4py_form:
        return Decided(Dialect.GTIR)
    if type(node) not in PLACEMENT:  # not a node: the fencil IR's checks say so
        return Decided(Dialect.FENCIL)
    try:
        tree = checked_preorder(node)
    except MalformedIRError:  # said by the fencil IR's collector, which numbers it again
        return Decided(Dialect.FENCIL)
    dialect = Dialect.GTIR if holds_gtir(tree[0], GTIR_MARKS) else Dialect.FENCIL
    return Decided(dialect, tree)
