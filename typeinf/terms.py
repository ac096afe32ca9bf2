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

from operator import itemgetter
from collections.abc import Callable, Iterator
from typing import Any, ClassVar
from dataclasses import dataclass

from iterir.vocabulary import PRIMITIVES


class Sort:
    """What a type variable may stand for. Not an `enum.Enum`: Python 3.11 reads an Enum's
    members and hashes them in Python code, ten times slower than this plain class, and sorts
    are read in inference's hottest loops."""

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


#: Constructor → (its sort, its argument sorts). Argument order is the printing walk order.
CONSTRUCTORS: dict[str, tuple[Sort, tuple[Sort, ...]]] = {
    "Val": (Sort.TYPE, (Sort.KIND, Sort.DTYPE, Sort.SIZE, Sort.LOC, Sort.LOC)),
    "Fun": (Sort.TYPE, (Sort.TROW, Sort.TYPE)),
    "TTuple": (Sort.TROW, (Sort.TYPE, Sort.TROW)),
    "TEmpty": (Sort.TROW, ()),
    "ValTuple": (Sort.TROW, (Sort.KIND, Sort.DROW, Sort.SIZE, Sort.LOC, Sort.LROW)),
    "ValListTuple": (Sort.TROW, (Sort.KIND, Sort.DROW, Sort.LENGTH, Sort.SKIP, Sort.SIZE)),
    "DTuple": (Sort.DROW, (Sort.DTYPE, Sort.DROW)),
    "DEmpty": (Sort.DROW, ()),
    "LTuple": (Sort.LROW, (Sort.LOC, Sort.LROW)),
    "LEmpty": (Sort.LROW, ()),
    "List": (Sort.DTYPE, (Sort.DTYPE, Sort.LENGTH, Sort.SKIP)),
    "Prim": (Sort.DTYPE, ()),
    "Iterator": (Sort.KIND, ()),
    "Value": (Sort.KIND, ()),
    "Column": (Sort.SIZE, ()),
    "Scalar": (Sort.SIZE, ()),
    "Loc": (Sort.LOC, ()),
    "Length": (Sort.LENGTH, ()),
    "Skip": (Sort.SKIP, ()),
}

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


class Cell:
    """A node of a type graph; only a root's content (ctor, label, args, sort, family) counts."""

    __slots__ = ("parent", "rank", "ctor", "label", "args", "sort", "family", "mark")

    def __init__(
        self,
        ctor: str | None,
        args: tuple[Cell, ...] = (),
        label: object = None,
        sort: Sort | None = None,
        family: frozenset[str] | None = None,
    ) -> None:
        self.parent: Cell | None = None
        self.rank = 0
        self.ctor = ctor  # None: a variable
        self.label = label
        self.args = args
        self.sort = CONSTRUCTORS[ctor][0] if ctor is not None else sort
        self.family = family
        self.mark = 0  # scratch space for graph searches (see `new_marks`)

    def __repr__(self) -> str:
        from typeinf.notation import pformat  # the notation depends on the terms

        return f"Cell«{pformat(self, locations=True)}»"


def find(cell: Cell) -> Cell:
    """The root of `cell`'s class, compressing the path on the way."""
    root = cell
    while root.parent is not None:
        root = root.parent
    while cell.parent is not None and cell.parent is not root:
        cell.parent, cell = root, cell.parent
    return root


def root_of(cell: Cell) -> Cell:
    """`find` without path compression, for searches that must not change the graph."""
    while cell.parent is not None:
        cell = cell.parent
    return cell


def var(sort: Sort, family: frozenset[str] | None = None) -> Cell:
    # Fills the slots directly, one by one (a tuple assignment would build a tuple), as
    # `Scheme.instantiate` does: the collector makes a fresh variable for nearly every node.
    cell = _new_cell(Cell)
    cell.parent = None
    cell.rank = 0
    cell.mark = 0
    cell.ctor = None
    cell.label = None
    cell.args = ()
    cell.sort = sort
    cell.family = family
    return cell


_new_cell = Cell.__new__
_SORT_OF = {ctor: sorts[0] for ctor, sorts in CONSTRUCTORS.items()}


def make(ctor: str, *args: Cell) -> Cell:
    cell = _new_cell(Cell)  # slots filled directly, as in `var`
    cell.parent = None
    cell.rank = 0
    cell.mark = 0
    cell.ctor = ctor
    cell.label = None
    cell.args = args
    cell.sort = _SORT_OF[ctor]
    cell.family = None
    return cell


# Constants are shared: a constant's content never changes, so one cell serves every use.
_CONSTANTS: dict[tuple[str, object], Cell] = {}


def constant(ctor: str, label: object = None) -> Cell:
    key = (ctor, label)
    cell = _CONSTANTS.get(key)
    if cell is None:
        cell = _CONSTANTS[key] = Cell(ctor, label=label)
    return cell


def prim(name: str) -> Cell:
    return constant("Prim", name)


def loc(name: str) -> Cell:
    return constant("Loc", name)


ITERATOR = constant("Iterator")
VALUE = constant("Value")
COLUMN = constant("Column")
SCALAR = constant("Scalar")
ANYWHERE = loc("ANYWHERE")
T_EMPTY = constant("TEmpty")
D_EMPTY = constant("DEmpty")
L_EMPTY = constant("LEmpty")


def val(
    kind: Cell, dtype: Cell, size: Cell, current: Cell = ANYWHERE, defined: Cell = ANYWHERE
) -> Cell:
    return make("Val", kind, dtype, size, current, defined)


def fun(args: list[Cell], ret: Cell) -> Cell:
    return make("Fun", row("TTuple", args, T_EMPTY), ret)


def row(ctor: str, items: list[Cell], tail: Cell) -> Cell:
    """A cons list `ctor(items[0], ctor(items[1], … tail))` (TTuple, DTuple or LTuple)."""
    for item in reversed(items):
        tail = make(ctor, item, tail)
    return tail


def row_items(cell: Cell) -> tuple[list[Cell], Cell]:
    """The known items of a row and its tail (an empty-row constant or a variable)."""
    items: list[Cell] = []
    cell = find(cell)
    while cell.ctor in ("TTuple", "DTuple", "LTuple"):
        items.append(cell.args[0])
        cell = find(cell.args[1])
    return items, cell


def fixed_params(function: Cell) -> list[Cell] | None:
    """The parameters of `function` if it is a function type of a fixed number of them (its
    result is `find(function).args[1]`), else None."""
    root = find(function)
    if root.ctor != "Fun":
        return None
    params, tail = row_items(root.args[0])
    return params if tail.ctor == "TEmpty" else None


@dataclass(frozen=True)
class ClosureType:
    """A stencil closure: `inputs ⇒ output`."""

    inputs: tuple[Cell, ...]
    output: Cell


@dataclass(frozen=True)
class DefinitionType:
    """A function definition: `name :: type`."""

    name: str
    type: Cell


@dataclass(frozen=True)
class FencilType:
    """A fencil: `{def :: …, …, name(param types…)}`."""

    name: str
    definitions: tuple[DefinitionType, ...]
    params: tuple[Cell, ...]


Type = Cell | ClosureType | DefinitionType | FencilType


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


_marks = iter(range(1, 1 << 62, 2))


def new_marks() -> tuple[int, int]:
    """Two values no cell's `mark` holds yet: a search marks cells without a dictionary."""
    first = next(_marks)
    return first, first + 1


class Scheme:
    """A generalized type, compiled for fast instantiation (let-polymorphism).

    The cells reachable from the type are listed children first; instantiating builds a copy in
    that order, with fresh variables and shared constants, without searching the graph again.
    """

    __slots__ = ("cells", "plan")

    def __init__(self, root: Cell) -> None:
        order: list[Cell] = []  # post-order: a cell after all its arguments
        #: Per cell of `order`: a shared constant, (None, sort, family) for a variable, or
        #: (ctor, label, getter of its arguments from the copies made before it).
        plan: list[Cell | tuple] = []
        index: dict[int, int] = {}  # id of a cell → its place in `order`
        active, done = new_marks()  # on the current path / ordered
        root = find(root)
        root.mark = active
        path, pending = [root], [iter(root.args)]  # the current path, and what is left of each
        while pending:
            for child in pending[-1]:
                while child.parent is not None:
                    child = child.parent
                if child.mark == done:
                    continue
                if child.args:
                    if child.mark == active:
                        raise ValueError("cannot generalize a cyclic type")
                    child.mark = active
                    path.append(child)
                    pending.append(iter(child.args))
                    break
                child.mark = done  # a leaf: a variable or a constant
                index[id(child)] = len(order)
                order.append(child)
                plan.append((None, child.sort, child.family) if child.ctor is None else child)
            else:  # every argument of the cell on top is ordered: order it
                cell = path.pop()
                pending.pop()
                cell.mark = done
                index[id(cell)] = len(order)
                order.append(cell)
                if not cell.args:
                    plan.append((None, cell.sort, cell.family) if cell.ctor is None else cell)
                    continue
                indices = [index[id(root_of(a))] for a in cell.args]
                getter = (
                    itemgetter(*indices)
                    if len(indices) > 1
                    else (lambda cells, i=indices[0]: (cells[i],))
                )
                plan.append((cell.ctor, cell.label, getter))
        self.plan = plan
        self.cells = order  # the generalized cells, in the order of the plan

    def instantiate(self) -> Cell:
        return self.copy()[-1]

    def copy(self) -> list[Cell]:
        """A fresh copy of every cell of `cells`, in the same order (the root last)."""
        # Fills the slots `Cell.__init__` fills, without its call: this runs for every use of a
        # builtin or definition, and is the collector's hottest loop.
        cells: list[Cell] = []
        append = cells.append
        new = Cell.__new__
        for step in self.plan:
            if type(step) is Cell:
                append(step)
                continue
            cell = new(Cell)
            cell.parent, cell.rank, cell.mark = None, 0, 0
            ctor = step[0]
            if ctor is None:
                cell.ctor, cell.label, cell.args, cell.sort, cell.family = (
                    None,
                    None,
                    (),
                    step[1],
                    step[2],
                )
            else:
                cell.ctor, cell.label, cell.args = ctor, step[1], step[2](cells)
                cell.sort, cell.family = CONSTRUCTORS[ctor][0], None
            append(cell)
        return cells


def copy_graph(root: Cell, copies: dict[int, Cell]) -> Cell:
    """A copy of the graph at `root` with fresh variables and shared constants, but for the
    cells `copies` maps already (by the id of their root) to what stands for them; every cell
    copied is added to `copies`. Each cell is copied when first reached, and structures get
    their arguments' copies once all are made."""
    structures: list[tuple[Cell, tuple[Cell, ...]]] = []
    stack = [root]
    new = _new_cell
    while stack:
        cell = stack.pop()
        while cell.parent is not None:
            cell = cell.parent
        key = id(cell)
        if key in copies:
            continue
        args = cell.args
        if not args and cell.ctor is not None:  # a constant
            copies[key] = cell
            continue
        # Slots filled one by one: a tuple assignment would build a tuple for each cell.
        copy = new(Cell)
        copy.parent = None
        copy.rank = 0
        copy.mark = 0
        copy.ctor = cell.ctor
        copy.label = cell.label
        copy.sort = cell.sort
        copy.family = cell.family
        if args:
            structures.append((copy, args))
            stack += args
        else:
            copy.args = ()
        copies[key] = copy
    for copy, args in structures:
        arguments = []
        for argument in args:
            while argument.parent is not None:
                argument = argument.parent
            arguments.append(copies[id(argument)])
        copy.args = tuple(arguments)
    return copies[id(root_of(root))]


#: A type of more cells than this (a tuple of many elements, say) is instantiated and matched
#: without generated code: its code would cost more to compile than it saves, for a shape that
#: is used a few times.
MOST_COMPILED_CELLS = 128


def compiled(scheme: Scheme, call: bool = False) -> Callable[[], Any] | None:
    """`scheme.instantiate` as straight-line code, without the plan's interpretation: for the
    builtins, which are instantiated at nearly every call of a program.

    With `call`, the code makes only what a direct call needs, the parameters and the result
    (returned as a tuple, result last), not the function and argument-tuple cells around them;
    None if the type is not a function of a fixed number of parameters. Past
    `MOST_COMPILED_CELLS`, the same is done by interpreting the plan."""
    cells = scheme.cells
    if len(cells) > MOST_COMPILED_CELLS:
        return _interpreted_call(scheme) if call else scheme.instantiate
    position = {id(c): i for i, c in enumerate(cells)}
    returned, skipped = [len(cells) - 1], set()
    if call:
        root, params = cells[-1], fixed_params(cells[-1])
        if params is None:
            return None
        skipped.add(len(cells) - 1)
        row = find(root.args[0])
        while row.ctor == "TTuple":
            skipped.add(position[id(row)])
            row = find(row.args[1])
        returned = [position[id(find(p))] for p in params] + [position[id(find(root.args[1]))]]
        if any(
            position[id(find(a))] in skipped
            for i, c in enumerate(cells)
            if i not in skipped
            for a in c.args
        ):
            return None  # a skipped cell is part of another: make them all
    names: dict[str, object] = {"new": Cell.__new__, "Cell": Cell}
    lines = ["def instantiate():"]
    for i, step in enumerate(scheme.plan):
        if i in skipped:
            continue
        if type(step) is Cell:
            names[f"k{i}"] = step
            lines.append(f"    c{i} = k{i}")
            continue
        lines.append(
            creation(
                f"c{i}",
                i,
                step,
                [f"c{position[id(find(a))]}" for a in cells[i].args],
                "    ",
                names,
            )
        )
    if call:
        lines.append(f"    return ({', '.join(f'c{i}' for i in returned)},)")
    else:
        lines.append(f"    return c{returned[0]}")
    exec("\n".join(lines), names)  # noqa: S102 - our own generated code, from our own plan
    return names["instantiate"]  # type: ignore[return-value]


def _interpreted_call(scheme: Scheme) -> Callable[[], tuple[Cell, ...]] | None:
    """What `compiled(scheme, call=True)` gives, by copying the whole type."""
    if fixed_params(scheme.cells[-1]) is None:
        return None

    def instantiate() -> tuple[Cell, ...]:
        copy = scheme.copy()[-1]
        return (*fixed_params(copy), copy.args[1])  # type: ignore[misc]

    return instantiate


def creation(
    target: str, i: int, step: tuple, arguments: list[str], indent: str, names: dict[str, object]
) -> str:
    """A line of generated code that makes `target`, a fresh copy of step `i` of a scheme's plan
    (a variable, or a structure of the cells named `arguments`), with the values it refers to
    added to `names`. The slots are filled directly, without `Cell.__init__`'s call."""
    ctor, second, third = step
    line = f"{indent}{target} = new(Cell); {target}.parent = None; {target}.rank = 0; {target}.mark = 0; "
    if ctor is None:
        names[f"s{i}"], names[f"f{i}"] = second, third
        return (
            line
            + f"{target}.ctor = None; {target}.label = None; {target}.args = (); {target}.sort = s{i}; {target}.family = f{i}"
        )
    names[f"t{i}"], names[f"l{i}"], names[f"s{i}"] = ctor, second, CONSTRUCTORS[ctor][0]
    return line + (
        f"{target}.ctor = t{i}; {target}.label = l{i}; {target}.args = ({', '.join(arguments)},); "
        f"{target}.sort = s{i}; {target}.family = None"
    )
