"""Generalized types (schemes) and their instantiation: a plan of the type's cells, children
first, that is interpreted (`Scheme.copy`) or turned into straight-line code (`compiled`); and
`copy_graph`, which copies a solved graph without a plan."""

from __future__ import annotations

from collections.abc import Callable
from operator import itemgetter
from typing import Any

from typeinf.constructors import TTUPLE, fixed_params
from typeinf.terms import Cell, find, new_marks, root_of


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
                cell.sort, cell.family = ctor.sort, None
            append(cell)
        return cells


def copy_graph(root: Cell, copies: dict[int, Cell]) -> Cell:
    """A copy of the graph at `root` with fresh variables and shared constants, but for the
    cells `copies` maps already (by the id of their root) to what stands for them; every cell
    copied is added to `copies`. Each cell is copied when first reached, and structures get
    their arguments' copies once all are made."""
    structures: list[tuple[Cell, tuple[Cell, ...]]] = []
    stack = [root]
    new = Cell.__new__
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
        while row.ctor is TTUPLE:
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
    names[f"t{i}"], names[f"l{i}"], names[f"s{i}"] = ctor, second, ctor.sort
    return line + (
        f"{target}.ctor = t{i}; {target}.label = l{i}; {target}.args = ({', '.join(arguments)},); "
        f"{target}.sort = s{i}; {target}.family = None"
    )


class Template:
    """A type that nothing changes any more (a definition's solved type, in the fast run),
    instantiated by copying its graph. Most definitions are used once or twice: copying is then
    cheaper than compiling a `Scheme`'s plan. It does not look for cycles (a Scheme does)."""

    __slots__ = ("root",)

    def __init__(self, root: Cell) -> None:
        self.root = root

    def instantiate(self) -> Cell:
        return copy_graph(self.root, {})
