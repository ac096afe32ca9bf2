"""Cells to public type values and back (`typeinf.types`), and the public functions that take or
give values by way of them: `pformat`, `is_instance`, `substitution` (`parse_type` reads with
the fencil IR's reader: `typeinf.fencil.value_reader`).

Cells → values (`Converter`): one walk per result, children first, memoized by root cell, so
that a shared part becomes one shared value (a type of exponential printed size converts in
time linear in its graph); variables are numbered as the located notation numbers them (a
depth-first walk over the fields in order, first meeting first). Values → cells (`Builder`):
fresh cells for the engine, shared where the values are, each part checked against the sort its
place needs (a `ValueError` names the part). Both use explicit stacks: 100,000-level types
convert at the default recursion limit.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from itertools import compress, repeat
from operator import is_not, itemgetter
from typing import Any, NoReturn, TypeVar, cast

from iterir.gcpause import gc_paused
from iterir.vocabulary import PRIMITIVES
from typeinf.core import arguments, instance, messages
from typeinf.core import relations as rel
from typeinf.core.constructors import (
    DEMPTY,
    DTUPLE,
    FUN,
    PRIM,
    TEMPTY,
    TTUPLE,
    Constructor,
    constant,
    prim,
    row,
)
from typeinf.core.terms import (
    FAMILY_NAMES,
    SPECIAL_DTYPES,
    Cell,
    ClosureType,
    DefinitionType,
    FencilType,
    Sort,
    find,
    make,
    roots,
    sort_meet,
    var,
)
from typeinf.core.terms import Type as CellType
from typeinf.core.values import (
    VARIABLE_SORTS,
    Cyclic,
    Type,
    Var,
    adopt,
    fast_maker,
    on_demand,
    variable_of,
)
from typeinf.fencil import notation
from typeinf.fencil.constructors import (
    COLUMN,
    CONSTRUCTORS,
    ITERATOR,
    LEMPTY,
    LENGTH,
    LIST,
    LOC,
    LTUPLE,
    OWN_NOTATION,
    SCALAR,
    SKIP,
    VAL,
    VALLISTTUPLE,
    VALTUPLE,
    VALUE,
    loc,
)
from typeinf.fencil.values import (
    Closure,
    Constructed,
    Definition,
    Fencil,
    Fun,
    Inferred,
    List,
    ListRow,
    Relation,
    Tuple,
    TypeValue,
    Val,
    ValRow,
)

# Made without the dataclasses' `__init__`: one per class of cells (see `fast_maker`).
_var, _val, _fun = fast_maker(Var), fast_maker(Val), fast_maker(Fun)
_tuple, _list, _definition = fast_maker(Tuple), fast_maker(List), fast_maker(Definition)
_EMPTY = Tuple(())
#: What the memo holds for a structure whose parts are being converted.
_PENDING = object()
_EMPTIES = (TEMPTY, DEMPTY, LEMPTY)
K = TypeVar("K")
#: The constructors whose structures convert with their rows flattened (`Converter.values`).
_FLATTENED = frozenset((FUN, TTUPLE, DTUPLE, LTUPLE))  # no registered one is a row


class Converter:
    """Cells to values, for one result: every value it makes shares one numbering of variables
    and one memo, so a part shared by several types (the nodes of one program) converts once."""

    def __init__(self) -> None:
        self.memo: dict[Cell, Any] = {}  # a root cell → its value
        self.numbers = itertools.count()  # the next variable's number, and on

    def program(self, type_: CellType) -> Inferred:
        """A program-level type's value (raises `Cyclic`). Its parts convert in one walk, in
        printing order, then the definitions' relations (whose cells the notation numbers
        after the types')."""
        values = self.values(list(roots(type_)))
        if isinstance(type_, Cell):
            return cast(TypeValue, values[0])
        if isinstance(type_, ClosureType):
            return Closure(tuple(values[:-1]), values[-1])
        if isinstance(type_, DefinitionType):
            return self.definition(type_, values[0])
        count = len(type_.definitions)
        definitions = tuple(map(self.definition, type_.definitions, values[:count]))
        return Fencil(type_.name, definitions, tuple(values[count:]))

    def programs(
        self, types: list[tuple[K, CellType]], found: dict[K, Inferred] | None = None
    ) -> dict[K, Inferred]:
        """The values of many types, by their keys, in order, as `program` gives them one by
        one, added to `found` (a new dict by default), which it returns; a type that contains
        itself (`Cyclic`) is left out. `NodeTypes` passes its own dict, so that nothing is
        copied into it afterwards. A run of node types converts in one walk, and the runs are
        found by loops that C runs (`map`, `compress`), `values` flattening rows without a call:
        no Python call per node (docs/performance.md, "Handing types out")."""
        keys = list(map(itemgetter(0), types))
        cells = list(map(itemgetter(1), types))
        if found is None:
            found = {}
        start = 0
        for end in compress(itertools.count(), map(is_not, map(type, cells), repeat(Cell))):
            self._run(keys[start:end], cells[start:end], found)
            try:
                found[keys[end]] = self.program(cells[end])
            except Cyclic:
                pass
            start = end + 1
        self._run(keys[start:], cells[start:], found)
        return found

    def _run(self, keys: list[K], cells: list[Any], found: dict[K, Inferred]) -> None:
        """Convert a run of node types (cells) into `found`; if one contains itself, one by
        one."""
        try:
            found.update(zip(keys, self.values(cells), strict=True))
        except Cyclic:  # the part before it is in the memo: met again at once
            for key, cell in zip(keys, cells, strict=True):
                try:
                    found[key] = self.values([cell])[0]
                except Cyclic:
                    continue

    def definition(self, type_: DefinitionType, value: Any) -> Definition:
        relations = tuple(map(self.relation, type_.relations)) if type_.relations else ()
        return _definition(type_.name, value, relations)  # type: ignore[no-any-return]

    def relation(self, relation: rel.Relation) -> Relation:
        """The relation over values; it keeps its rule over placeholder cells, for printing."""
        placeholders: dict[int, Cell] = {}
        for cell in relation.cells:
            placeholders.setdefault(id(cell), var(cell.sort))
        template = relation.copy(lambda cell: placeholders[id(cell)])
        args = tuple(self.values(list(relation.cells)))
        return Relation(type(relation).__name__, args, (template, template.cells))

    def value(self, cell: Cell) -> Any:
        """The value of `cell`'s type."""
        return self.values([cell])[0]

    def values(self, cells: list[Cell]) -> list[Any]:
        """The values of some types, in order (raises `Cyclic` for a type that contains
        itself), and of their parts not converted yet: depth first, over the parts in order, so
        that variables are numbered as met. A structure is a frame (the cell, an iterator over
        its parts, their values so far) while its parts convert; a variable or a constant is
        converted where it is met, and so is a value type whose parts are such (most are): a
        frame, and a look-up in the memo (keyed by cells), only where a structure needs one
        (docs/performance.md, "Handing types out")."""
        memo = self.memo
        get = memo.get
        leaf = self.leaf
        # `cells` are the parts of a frame without a cell, which ends the walk.
        frames: list[tuple[Cell | None, Iterator[Cell], list[Any]]] = [(None, iter(cells), [])]
        while True:
            root, parts, values = frames[-1]
            for part in parts:
                parent = part.parent
                if parent is not None:  # one step inline, else a call (`terms.root_of`)
                    part = parent if parent.parent is None else find(part)
                value = get(part)
                if value is None:
                    if not part.args:
                        value = leaf(part)
                    else:
                        ctor = part.ctor
                        if ctor is VAL:  # made at once if its parts are leaves (as most are)
                            leaves = []
                            for arg in part.args:
                                parent = arg.parent
                                if parent is not None:
                                    arg = parent if parent.parent is None else find(arg)
                                value = get(arg)
                                if value is None:
                                    if arg.args:  # a structure: the value becomes a frame
                                        break
                                    value = leaf(arg)
                                elif value is _PENDING:
                                    raise Cyclic
                                leaves.append(value)
                            else:
                                value = memo[part] = _val(*leaves)
                                values.append(value)
                                continue
                        # Marked as being converted in the memo itself: meeting it again
                        # before it is built means a cycle.
                        memo[part] = _PENDING
                        if ctor in _FLATTENED:  # a row's items and tail, then a result
                            args = []
                            row = part.args[0] if ctor is FUN else part
                            while True:
                                if row.parent is not None:
                                    row = find(row)
                                cons = row.ctor
                                if cons is None or not cons.is_cons:
                                    break
                                item, row = row.args
                                args.append(item)
                            args.append(row)
                            if ctor is FUN:
                                args.append(part.args[1])
                            frames.append((part, iter(args), []))
                        else:
                            frames.append((part, iter(part.args), []))
                        break
                elif value is _PENDING:
                    raise Cyclic
                values.append(value)
            else:  # every part converted: build the structure
                if root is None:
                    return values
                frames.pop()
                ctor = root.ctor
                if ctor is VAL:
                    value = _val(*values)
                elif ctor is FUN:
                    result = values.pop()
                    tail = values.pop()
                    value = _fun(tuple(values), result, None if tail is _EMPTY else tail)
                else:
                    build: Callable[[Cell, list[Any]], Any] = _BUILD.get(ctor, _constructed)
                    value = build(root, values)
                memo[root] = value
                frames[-1][2].append(value)

    def leaf(self, cell: Cell) -> Any:
        """The value of a variable (numbered next) or a constant, met for the first time."""
        if cell.ctor is not None:
            value = self.memo[cell] = _constant(cell)
            return value
        family = cell.family
        value = self.memo[cell] = _var(
            cell.sort.value, next(self.numbers), None if family is None else _family(family)
        )
        return value


def _family(members: frozenset[str]) -> str:
    name = FAMILY_NAMES.get(members)
    if name is None:  # families are read by name, and meet only into named ones or none
        raise AssertionError(messages.unnamed_family(members))
    return name


def _constant(cell: Cell) -> Any:
    """A structure without arguments: a plain value (a name, a length, a flag), an empty tuple,
    or a registered constructor's constant."""
    ctor = cell.ctor
    assert ctor is not None  # a structure
    if ctor is PRIM or ctor is LOC or ctor is LENGTH:
        return cell.label
    if ctor is SKIP:
        return bool(cell.label)
    if ctor in _EMPTIES:
        return _EMPTY
    if ctor in OWN_NOTATION:
        return ctor.name  # "Iterator", "Value", "Column", "Scalar"
    return Constructed(ctor.name, (), cell.label)


def _tail(value: Any) -> Any:
    return None if value is _EMPTY else value


def _build_row(cell: Cell, parts: list[Any]) -> Tuple:
    return _tuple(tuple(parts[:-1]), _tail(parts[-1]))  # type: ignore[no-any-return]


def _constructed(cell: Cell, parts: list[Any]) -> Constructed:
    assert cell.ctor is not None  # a structure
    return Constructed(cell.ctor.name, tuple(parts), cell.label)


_BUILD: dict[Constructor | None, Callable[[Cell, list[Any]], Any]] = {
    LIST: lambda cell, parts: _list(*parts),
    TTUPLE: _build_row,
    DTUPLE: _build_row,
    LTUPLE: _build_row,
    VALTUPLE: lambda cell, parts: ValRow(*parts),
    VALLISTTUPLE: lambda cell, parts: ListRow(*parts),
}


def to_value(type_: CellType) -> Inferred:
    """The value of one result (variables numbered from 0). A type that contains itself
    (`Cyclic`) only comes out of a failed inference, which reports it."""
    return Converter().program(type_)


def result_value(type_: CellType) -> Inferred:
    """`to_value` of what `infer` found (which contains no cycle), but a fencil's value is made
    when first read (`on_demand`): its type holds every definition's, which a caller that only
    checks that the fencil is well typed never reads, so `infer` adds nothing for it; the
    first read costs what converting at once did (docs/performance.md, "Handing types
    out")."""
    if type(type_) is not FencilType:
        return to_value(type_)

    def fill(shell: Fencil) -> None:
        with gc_paused():  # as inference: only acyclic values are made
            adopt(shell, to_value(type_))

    return on_demand(Fencil, fill)


# -- values → cells ----------------------------------------------------------------------------------
class Builder:
    """Values to fresh cells, shared where the values are; a variable's number names one cell."""

    def __init__(self) -> None:
        self.memo: dict[tuple[int, Sort], Cell] = {}
        self.variables: dict[int, Cell] = {}

    def program(self, value: Type) -> CellType:
        if isinstance(value, Closure):
            return ClosureType(tuple(self.cell(c) for c in value.inputs), self.cell(value.output))
        if isinstance(value, Definition):
            return self.definition(value)
        if isinstance(value, Fencil):
            definitions = tuple(self.definition(d) for d in value.definitions)
            return FencilType(value.name, definitions, tuple(self.cell(p) for p in value.params))
        return self.cell(value, _sort_of(value))

    def definition(self, value: Definition) -> DefinitionType:
        if not isinstance(value, Definition):
            raise ValueError(messages.not_a_definition(value))
        type_ = self.cell(value.type)
        return DefinitionType(value.name, type_, tuple(map(self.relation, value.relations)))

    def relation(self, value: Relation) -> rel.Relation:
        if value._template is None:
            raise ValueError(messages.relation_not_ours(value))
        template, placeholders = value._template
        cells = {id(p): self.cell(a, p.sort) for p, a in zip(placeholders, value.args, strict=True)}
        return template.copy(lambda cell: cells[id(cell)])

    def cell(self, top: object, sort: Sort = Sort.TYPE) -> Cell:
        """The cell of `top` standing where a `sort` is expected."""
        memo = self.memo
        # A task: (value, sort, parent task, field) — the parent and field say where, for errors.
        stack: list[tuple[Any, Sort, Any, str, list[Any] | None]] = [(top, sort, None, "", None)]
        result: list[Cell] = []
        while stack:
            task = stack.pop()
            value, want, _, _, parts = task
            if parts is None:
                leaf = self.leaf(task)
                if leaf is not None:
                    result.append(leaf)
                    continue
                cached = memo.get((id(value), want))
                if cached is not None:
                    result.append(cached)
                    continue
                parts = _parts(value, want, task)
                stack.append((value, want, task[2], task[3], parts))
                for child, child_sort, field in reversed(parts):
                    stack.append((child, child_sort, task, field, None))
                continue
            count = len(parts)
            args = result[len(result) - count :] if count else []
            del result[len(result) - count :]
            made = _assemble(value, want, args)
            memo[(id(value), want)] = made
            result.append(made)
        return result[0]

    def leaf(self, task: tuple[Any, Sort, Any, str, Any]) -> Cell | None:
        """The cell of a variable or a constant; None for a structure."""
        value, want = task[0], task[1]
        if value is None and want in _ROWS:  # where a tuple or parameter list ends
            return _EMPTY_OF[want]
        if isinstance(value, Var):
            return self.variable(value, want, task)
        if isinstance(value, Type):
            if type(value) is Tuple and not value.items and value.tail is None:
                empty = _EMPTY_OF.get(want)
                if empty is None:
                    _wrong(task, messages.AN_EMPTY_TUPLE)
                return empty
            if type(value) is Constructed and not value.args:
                return _registered_constant(value, want, task)
            return None
        if want is Sort.KIND and value in _KINDS:
            return _KINDS[value]
        if want is Sort.SIZE and value in _SIZES:
            return _SIZES[value]
        if type(value) is str and want is Sort.DTYPE and _is_dtype(value):
            return prim(value)
        if type(value) is str and want is Sort.LOC:
            return loc(value)
        if type(value) is int and want is Sort.LENGTH:
            return constant(LENGTH, value)
        if type(value) is bool and want is Sort.SKIP:
            return constant(SKIP, value)
        _wrong(task, repr(value))

    def variable(self, value: Var, want: Sort, task: Any) -> Cell:
        content = variable_of(value, want)
        if isinstance(content, str):
            _wrong(task, content)
        sort, family = content
        cell = self.variables.get(value.number)
        if cell is None:
            cell = self.variables[value.number] = var(sort, family)
        elif cell.sort is not sort or cell.family != family:
            _wrong(task, messages.variable_changed(value.number))
        return cell


_KINDS = {"Iterator": ITERATOR, "Value": VALUE}
_SIZES = {"Column": COLUMN, "Scalar": SCALAR}
_ROWS = (Sort.TROW, Sort.DROW, Sort.LROW)
_EMPTY_OF = {
    Sort.TYPE: constant(TEMPTY),
    Sort.TROW: constant(TEMPTY),
    Sort.DTYPE: constant(DEMPTY),
    Sort.DROW: constant(DEMPTY),
    Sort.LROW: constant(LEMPTY),
}
#: A tuple's cons constructor, item sort and tail sort, by the sort its place expects.
_ROW_OF = {
    Sort.TYPE: (TTUPLE, Sort.TYPE, Sort.TROW),
    Sort.TROW: (TTUPLE, Sort.TYPE, Sort.TROW),
    Sort.DTYPE: (DTUPLE, Sort.DTYPE, Sort.DROW),
    Sort.DROW: (DTUPLE, Sort.DTYPE, Sort.DROW),
    Sort.LROW: (LTUPLE, Sort.LOC, Sort.LROW),
}
_PLACES: dict[type, tuple[tuple[Sort, ...], tuple[tuple[str, Sort], ...]]] = {
    Val: ((Sort.TYPE,), (("kind", Sort.KIND), ("dtype", Sort.DTYPE), ("size", Sort.SIZE),
          ("current_loc", Sort.LOC), ("defined_loc", Sort.LOC))),
    List: ((Sort.DTYPE, Sort.DROW), (("dtype", Sort.DTYPE), ("length", Sort.LENGTH),
           ("skip", Sort.SKIP))),
    ValRow: ((Sort.TYPE, Sort.TROW), (("kind", Sort.KIND), ("dtypes", Sort.DROW),
             ("size", Sort.SIZE), ("current_loc", Sort.LOC), ("defined_locs", Sort.LROW))),
    ListRow: ((Sort.TYPE, Sort.TROW), (("kind", Sort.KIND), ("dtypes", Sort.DROW),
              ("length", Sort.LENGTH), ("skip", Sort.SKIP), ("size", Sort.SIZE))),
}  # fmt: skip


def _is_dtype(name: str) -> bool:
    return name in PRIMITIVES or name in SPECIAL_DTYPES


def _parts(value: Any, want: Sort, task: Any) -> list[tuple[Any, Sort, str]]:
    """The parts of a structure value, each with the sort its place expects and its field."""
    shape = _PLACES.get(type(value))
    if shape is not None:
        allowed, places = shape
        if want not in allowed:
            _wrong(task, messages.a_value_of(type(value).__name__))
        return [(getattr(value, name), sort, name) for name, sort in places]
    if type(value) is Fun:
        if want is not Sort.TYPE:
            _wrong(task, messages.A_FUNCTION)
        params = [(p, Sort.TYPE, f"params[{i}]") for i, p in enumerate(value.params)]
        return [*params, (value.tail, Sort.TROW, "tail"), (value.result, Sort.TYPE, "result")]
    if type(value) is Tuple:
        row_of = _ROW_OF.get(want)
        if row_of is None:
            _wrong(task, messages.A_TUPLE)
        _, item, rest = row_of
        items = [(v, item, f"items[{i}]") for i, v in enumerate(value.items)]
        return [*items, (value.tail, rest, "tail")]
    if type(value) is Constructed:
        ctor = _registered(value, want, task)
        if len(value.args) != len(ctor.params):
            _wrong(task, messages.constructor_with(value.name, len(value.args)))
        return [
            (a, s, f"args[{i}]")
            for i, (a, s) in enumerate(zip(value.args, ctor.params, strict=True))
        ]
    _wrong(task, messages.a_value_of(type(value).__name__))


def _assemble(value: Any, want: Sort, args: list[Cell]) -> Cell:
    """The cell of a structure value from its parts' cells, in the order of `_parts`."""
    kind = type(value)
    if kind is Val:
        return make(VAL, *args)
    if kind is List:
        return make(LIST, *args)
    if kind is ValRow:
        return make(VALTUPLE, *args)
    if kind is ListRow:
        return make(VALLISTTUPLE, *args)
    if kind is Fun:
        *params, tail, result = args
        return make(FUN, row(TTUPLE, params, tail), result)
    if kind is Tuple:
        *items, tail = args
        return row(_ROW_OF[want][0], items, tail)
    return make(CONSTRUCTORS[value.name], *args)


def _registered(value: Constructed, want: Sort, task: Any) -> Constructor:
    ctor = CONSTRUCTORS.get(value.name)
    if ctor is None or ctor in OWN_NOTATION:
        _wrong(task, messages.unregistered(value.name))
    assert ctor is not None  # `_wrong` raised otherwise
    if sort_meet(ctor.sort, want) is not ctor.sort:
        _wrong(task, messages.constructor_of_sort(value.name, ctor.sort.value))
    return ctor


def _registered_constant(value: Constructed, want: Sort, task: Any) -> Cell:
    ctor = _registered(value, want, task)
    if ctor.params:
        _wrong(task, messages.constructor_without(value.name))
    return constant(ctor, value.label) if ctor.labelled else constant(ctor)


def _wrong(task: Any, found: str) -> NoReturn:
    """Raise the error for a part that cannot stand where it is: what was expected, what was
    `found` (in `messages`' words), and where (`.params[0].kind`)."""
    _, want, parent, field, _ = task
    where: list[str] = []
    while parent is not None:
        where.append(field if field.startswith("[") else "." + field)
        _, _, parent, field, _ = parent
    raise ValueError(messages.misplaced("".join(reversed(where)), want.value, found))


def to_cells(value: Type) -> CellType:
    """Fresh cells for a value (`ValueError` for a part that cannot stand where it is)."""
    if not isinstance(value, Type):
        raise TypeError(messages.not_a_type_value(type(value).__name__))
    return Builder().program(value)


def _sort_of(value: Type) -> Sort:
    """The sort a value standing alone is printed as: a tuple of dtypes if its first item is
    one, any other tuple as a tuple of types."""
    if isinstance(value, Var):
        return VARIABLE_SORTS.get(value.sort, Sort.TYPE)
    if isinstance(value, List):
        return Sort.DTYPE
    if isinstance(value, ValRow | ListRow):
        return Sort.TROW
    if isinstance(value, Constructed):
        ctor = CONSTRUCTORS.get(value.name)
        return Sort.TYPE if ctor is None else ctor.sort
    if isinstance(value, Tuple):
        first = value.items[0] if value.items else None
        dtype = isinstance(first, str | List) or (
            isinstance(first, Var) and first.sort == Sort.DTYPE.value
        )
        return Sort.DTYPE if dtype else Sort.TYPE
    return Sort.TYPE


# -- the public functions on values ---------------------------------------------------------------
def pformat(type_: Type | str | int | bool, locations: bool = False) -> str:
    """A type in the compact notation, or the located one (GT4Py 1.0.3's) with `locations`:
    what `str(type_)` and `format(type_, "located")` give. A constant (a field such as
    `"float64"`, `4`, `True`) prints as itself."""
    if isinstance(type_, str | int):  # a bool is an int
        return str(type_)
    arguments.a_type("typeinf.pformat", "type_", type_)
    return notation.pformat(to_cells(type_), locations)


def substitution(general: Type, specific: Type) -> dict[Var, Any] | None:
    """For each variable of `general`, what it stands for in `specific` (in `specific`'s
    variables); None when `specific` is not an instance of `general`."""
    arguments.a_type("typeinf.substitution", "general", general)
    arguments.a_type("typeinf.substitution", "specific", specific)
    general_builder, specific_builder = Builder(), Builder()
    general_cells = general_builder.program(general)
    specific_cells = specific_builder.program(specific)
    images = instance.substitution(general_cells, specific_cells, in_place=True)
    if images is None:
        return None
    converter = Converter()
    named = _variables(specific)
    for number, cell in specific_builder.variables.items():  # images use `specific`'s names
        converter.memo[find(cell)] = named[number]
    converter.numbers = itertools.count(max(specific_builder.variables, default=-1) + 1)
    variables = _variables(general)
    return {
        variables[number]: converter.value(images[cell])
        for number, cell in sorted(general_builder.variables.items())
    }


def is_instance(general: Type, specific: Type) -> bool:
    """Whether `specific` is `general` with some of its variables replaced (each variable of
    `specific` standing for itself): `general` is at least as general."""
    return substitution(general, specific) is not None


def _variables(value: Type) -> dict[int, Var]:
    """Every variable of `value`, by number."""
    found: dict[int, Var] = {}
    seen: set[int] = set()
    stack: list[object] = [value]
    while stack:
        part = stack.pop()
        if isinstance(part, Var):
            found.setdefault(part.number, part)
        elif isinstance(part, Type) and id(part) not in seen:
            seen.add(id(part))
            stack.extend(part.parts())
    return found
