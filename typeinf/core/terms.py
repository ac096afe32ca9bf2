"""Type terms as union-find cells.

Every type is a graph of `Cell`s. A root cell holds the content: a variable (a sort, and for
dtypes an optional family) or a structure (a constructor, a label for constants such as `int32`
or `Vertex`, and argument cells). Unifying two cells makes one the parent of the other, so a
solved type is read by following `find` from any cell.

Sorts keep variables honest: a size variable only ever stands for a size. Argument rows are a
subsort of types and dtype rows a subsort of dtypes (a tuple can stand where a type or a dtype
is expected), but never the reverse.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar, Literal, final

from iterir.vocabulary import PRIMITIVES

if TYPE_CHECKING:
    from typeinf.core.constructors import Constructor
    from typeinf.core.relations import Relation


class Sort:
    """What a type variable may stand for. Not an `enum.Enum`: Python 3.11 reads an Enum's
    members and hashes them in Python code, and sorts are read in inference's hottest loops
    (docs/performance.md, "Fencil inference throughput")."""

    __slots__ = ("name", "value")

    TYPE: ClassVar[Sort]
    TROW: ClassVar[Sort]
    KIND: ClassVar[Sort]
    DTYPE: ClassVar[Sort]
    DROW: ClassVar[Sort]
    SIZE: ClassVar[Sort]
    LOC: ClassVar[Sort]
    LROW: ClassVar[Sort]
    LENGTH: ClassVar[Sort]
    SKIP: ClassVar[Sort]
    DIM: ClassVar[Sort]
    DIMS: ClassVar[Sort]

    def __init__(self, name: str, value: str) -> None:
        self.name, self.value = name, value  # `value`: how messages name it

    def __repr__(self) -> str:
        return f"Sort.{self.name}"


for _name, _value in [
    ("TYPE", "type"),
    ("TROW", "argument row"),
    ("KIND", "kind"),
    ("DTYPE", "dtype"),
    ("DROW", "dtype row"),
    ("SIZE", "size"),
    ("LOC", "location"),
    ("LROW", "location row"),
    ("LENGTH", "list length"),
    ("SKIP", "skip flag"),
    ("DIM", "dimension"),  # GTIR's (typeinf.gtir.terms)
    ("DIMS", "dimension set"),
]:
    setattr(Sort, _name, Sort(_name, _value))


_PARENT_SORT = {Sort.TROW: Sort.TYPE, Sort.DROW: Sort.DTYPE}


def sort_meet(a: Sort, b: Sort) -> Sort | None:
    """The sort a variable has once it is known to be both `a` and `b` (None: impossible)."""
    if a is b or _PARENT_SORT.get(a) is b:
        return a
    if _PARENT_SORT.get(b) is a:
        return b
    return None


INTEGERS = frozenset(p for p in PRIMITIVES if p.startswith(("int", "uint")))
FLOATS = frozenset({"float32", "float64"})
#: Dtype families a variable can be restricted to (docs/builtins.md), by the name printed in
#: `where` clauses.
FAMILIES: dict[str, frozenset[str]] = {
    "numeric": INTEGERS | FLOATS,
    "integer": INTEGERS,
    "float": FLOATS,
}
FAMILY_NAMES = {members: name for name, members in FAMILIES.items()}
#: Dtypes that are not data: the types of axes, ranges and domains.
SPECIAL_DTYPES = frozenset({"axis", "named_range", "domain"})


@final  # final: a test `type(x) is Cell` then tells mypy what `x` is when it fails, too
class Cell:
    """A node of a type graph; only a root's content (ctor, label, args, sort, family) counts."""

    # Not sorted: in the order of the annotations below, the layout the benchmarks measured.
    __slots__ = ("parent", "rank", "ctor", "label", "args", "sort", "family", "mark")  # noqa: RUF023

    parent: Cell | None
    rank: int
    ctor: Constructor | None  # None: a variable
    label: object  # a constant's: `int32` of `Prim`, `Vertex` of `Loc`
    args: tuple[Cell, ...]
    sort: Sort
    family: frozenset[str] | None  # a dtype variable's restriction
    mark: object  # scratch space for graph searches (see "Marks" below)

    # Cells are made by `var` and `make`, which fill the slots one by one: the collector makes one
    # for nearly every node, and an `__init__` call would cost more than the filling.

    def __repr__(self) -> str:
        from typeinf.core.notation import written  # the notation depends on the terms
        from typeinf.core.sizes import TypeTooLargeError, placeholder

        try:  # by the engine's printer: a dialect's own constructors in the generic notation
            return f"Cell«{written(self, locations=True)}»"
        except TypeTooLargeError as error:  # a repr never raises: said by its size
            return f"Cell«{placeholder(error.cells)}»"


def find(cell: Cell) -> Cell:
    """The root of `cell`'s class, compressing the path on the way."""
    root = cell
    while root.parent is not None:
        root = root.parent
    while cell.parent is not None and cell.parent is not root:
        cell.parent, cell = root, cell.parent
    return root


def root_of(cell: Cell) -> Cell:
    """`find` without path compression, for searches that must not change the graph. The core's
    hottest loops (unification, the generated matchers, the copies of schemes, the size and
    cycle checks, conversion) write this loop out rather than call it: the calls cost them
    5-17% (docs/performance.md, "Tricks deleted and kept")."""
    while cell.parent is not None:
        cell = cell.parent
    return cell


def var(sort: Sort, family: frozenset[str] | None = None) -> Cell:
    # Fills the slots directly, one by one (a tuple assignment would build a tuple), as
    # `Scheme.instantiate` does: the collector makes a fresh variable for nearly every node.
    cell = _new_cell(Cell)
    cell.parent = None
    cell.rank = 0
    cell.mark = None
    cell.ctor = None
    cell.label = None
    cell.args = ()
    cell.sort = sort
    cell.family = family
    return cell


_new_cell = Cell.__new__


def make(ctor: Constructor, *args: Cell) -> Cell:
    cell = _new_cell(Cell)  # slots filled directly, as in `var`
    cell.parent = None
    cell.rank = 0
    cell.mark = None
    cell.ctor = ctor
    cell.label = None
    cell.args = args
    cell.sort = ctor.sort
    cell.family = None
    return cell


@dataclass(frozen=True)
class ClosureType:
    """A stencil closure: `inputs ⇒ output`."""

    inputs: tuple[Cell, ...]
    output: Cell


@dataclass(frozen=True)
class DefinitionType:
    """A function definition: `name :: type`, and the relations its type is subject to (those
    still open when it was generalized, printed in its `where` clause)."""

    name: str
    type: Cell
    relations: tuple[Relation, ...] = field(default=(), repr=False, compare=False)


@dataclass(frozen=True)
class FencilType:
    """A fencil: `{def :: …, …, name(param types…)}`."""

    name: str
    definitions: tuple[DefinitionType, ...]
    params: tuple[Cell, ...]


Type = Cell | ClosureType | DefinitionType | FencilType


def variables_of(cell: Cell) -> Iterator[Cell]:
    """The variables (roots) `cell` holds, each once, on an explicit stack (any depth, and a
    cyclic graph too)."""
    seen: set[int] = set()
    stack = [cell]
    while stack:
        root = find(stack.pop())
        if id(root) in seen:
            continue
        seen.add(id(root))
        if root.ctor is None:
            yield root
        else:
            stack.extend(root.args)


def relations_of(type_: Type) -> Iterator[Relation]:
    """The relations a program-level type is subject to, in printing order."""
    if isinstance(type_, DefinitionType):
        yield from type_.relations
    elif isinstance(type_, FencilType):
        for definition in type_.definitions:
            yield from definition.relations


def roots(type_: Type) -> Iterator[Cell]:
    """The cells a program-level type is made of, in printing order."""
    if isinstance(type_, Cell):
        yield type_
    elif isinstance(type_, ClosureType):
        yield from type_.inputs
        yield type_.output
    elif isinstance(type_, DefinitionType):
        yield type_.type
    else:
        for definition in type_.definitions:
            yield definition.type
        yield from type_.params


# -- Marks ----------------------------------------------------------------------------------------
# A graph search that must meet each cell once marks the cells it has met (`Cell.mark`) rather
# than keep their ids in a dictionary: it runs at every wait of a relation, and over every type
# at the end of an inference. A search makes its own marker, `object()`, and compares it by
# identity: no counter is shared between searches, and no later search can make a marker that a
# cell still holds (the cell keeps it alive).
#
# Invariant (inferences in several threads, as GT4Py may run them): a search marks only cells
# that its own inference made. The cells that several inferences reach are written by none of
# them once made, so that no inference writes what another reads:
# - constants (`constructors.constant`: argument-less structures, one cell per constructor and
#   label) are leaves, which no search marks (`watch.watched` passes them by, `solve._cycle`
#   never enters a leaf, `sizes.graph_cells` counts them in a set of its own); unification never
#   links one (two equal constants are one cell) nor does a `meet` rule relink one (no constant
#   has one);
# - the types of builtins and their schemes, cached for every inference
#   (`fencil.signatures.Signature`, `gtir.signatures.scheme`, `fencil.shaped`), are only read
#   once published: made of roots alone, so that `find` writes nothing there; generalized
#   (`schemes.Scheme`) and measured (`sizes.WrittenOut`) with dictionaries of their own, not
#   marks; instantiated by copying.
# tests/test_threads.py checks both: no shared cell holds a mark after inferences, and
# inferences in several threads at once give what each gives alone.


#: Why two types cannot be made equal (`diagnostics` says it in words): two constants, two sorts,
#: two families that share no dtype, a dtype outside a variable's family, rows of different
#: lengths, two constructors, or a row of values against a row of lists of unknown length.
Why = Literal[
    "constants", "sorts", "families", "family", "items", "constructors", "unknown lengths"
]


class Mismatch(Exception):
    """Two types that cannot be made equal: the innermost conflicting pair, and why."""

    def __init__(self, left: Cell, right: Cell, why: Why) -> None:
        super().__init__(why)
        self.left, self.right, self.why = left, right, why
