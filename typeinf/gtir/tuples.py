"""GTIR's rules for tuples, conditionals and casts (docs/gtir.md, "Typing"): `make_tuple`,
`tuple_get`, `map_tuple`/`tree_map_tuple`, `if_` (with list promotion) and `cast_`. Each rule is
a function of the inference, the call's position, node and argument positions, and returns the
call's type (see `typeinf.gtir.fieldops`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from iterir import (
    FunCall,
    Literal,
    SymRef,
)
from iterir.vocabulary import PRIMITIVES
from typeinf.core.constructors import DEMPTY, DTUPLE, row, row_items
from typeinf.core.driver import check_arity
from typeinf.core.errors import (
    GrammarBuiltinError,
    UnsatisfiableConstraintError,
    unchained,
)
from typeinf.core.terms import Cell, Sort, find, var
from typeinf.gtir import calls, messages
from typeinf.gtir import terms as g
from typeinf.gtir.notation import pformat_gtir_all
from typeinf.gtir.relations import Scalar, TupleMapped, as_lists, promoted
from typeinf.gtir.signatures import SIGNATURES, scheme

if TYPE_CHECKING:
    from typeinf.gtir.collect import GtirInference


def rule_make_tuple(inf: GtirInference, position: int, node: FunCall, args: list[int]) -> Cell:
    return g.tuple_of([inf.type_at(a) for a in args])


def rule_tuple_get(inf: GtirInference, position: int, node: FunCall, args: list[int]) -> Cell:
    check_arity(node, 2)
    index = node.args[0]
    if not (isinstance(index, Literal) and index.value.isdigit()):
        raise GrammarBuiltinError(messages.TUPLE_GET_INDEX, index)
    operand = inf.type_at(args[1])
    known = inf.run.known(operand)  # an item read where it is known (see `runs`)
    if known is not None:
        item = _item(known, int(index.value))
        if item is not None:
            return item
    items = [var(Sort.DTYPE) for _ in range(int(index.value) + 1)]
    try:
        inf.equal(row(DTUPLE, items, var(Sort.DROW)), operand, position)
    except UnsatisfiableConstraintError:
        length = _length(operand)
        if length is None or length >= len(items):
            raise
        expected, found = pformat_gtir_all([row(DTUPLE, items, var(Sort.DROW)), operand])
        raise unchained(
            UnsatisfiableConstraintError(
                messages.index_out_of_range(index.value, found, length),
                node,
                expected,
                found,
            )
        ) from None
    return items[-1]


def map_tuple(inf: GtirInference, position: int, inner: FunCall, args: list[int]) -> Cell:
    """`map_tuple(f)(t)`: `f` applied to each item of the tuple `t`; `tree_map_tuple`
    to each leaf of nested tuples (`TupleMapped`). A builtin `f` is instantiated afresh
    for each item, as GT4Py types each application on its own."""
    check_arity(inner, 1)
    name = inner.fun.id  # type: ignore[union-attr]  # a builtin's name (see `call`)
    if len(args) != 1:
        raise GrammarBuiltinError(messages.takes_one_tuple(name), inf.nodes[position])
    (function,) = inf.args(position + 1, inner)
    op = inner.args[0]
    fresh = scheme(op.id) if isinstance(op, SymRef) and op.id in SIGNATURES else None
    result = var(Sort.DTYPE)
    mapped = TupleMapped(
        fresh, name == "tree_map_tuple", inf.type_at(function), inf.type_at(args[0]), result
    )
    inf.relate(mapped, position)
    inf.types[position + 1] = g.function([inf.type_at(args[0])], result)
    return result


def rule_if_(inf: GtirInference, position: int, node: FunCall, args: list[int]) -> Cell:
    """`if_(c, a, b)`: `c` is `bool`, `a` and `b` one type, as `if_`'s signature says
    (`builtins/gtir.gsig`); two lists, as GT4Py promotes them, of one element type, along
    one local dimension or along none (a `make_const_list`'s goes with any); a field with a
    local dimension as a field of lists along it, as GT4Py's inference sees it (the result then
    the first branch's type, as GT4Py's)."""
    branches = [find(inf.type_at(a)) for a in args[1:]]
    if len(args) == 3 and all(b.ctor is g.FIELD for b in branches):
        # A field with a local dimension is a field of lists to GT4Py's inference.
        # The result is the first branch's, as GT4Py's (1.2.1–1.2.3) is.
        lists = [as_lists(b) for b in branches]
        if any(lists):
            seen = [find(c or b) for c, b in zip(lists, branches, strict=True)]
            inf.equal(g.scalar("bool"), inf.type_at(args[0]), args[0])
            inf.equal(seen[0].args[0], seen[1].args[0], args[2])
            promoted(equate_at(inf, args[2]), [find(b.args[1]) for b in seen])  # one dtype
            return branches[0]
    if len(args) != 3 or not all(b.ctor is g.LIST for b in branches):
        return calls.by_signature(inf, "if_", position, node, args)
    inf.equal(g.scalar("bool"), inf.type_at(args[0]), args[0])
    return promoted(equate_at(inf, args[2]), branches)


def equate_at(inf: GtirInference, position: int) -> Callable[[Cell, Cell], None]:
    """`equal` of two cells, an error located at `position` (for the rules' `promoted`)."""
    return lambda one, other: inf.equal(one, other, position)


def rule_cast_(inf: GtirInference, position: int, node: FunCall, args: list[int]) -> Cell:
    check_arity(node, 2)
    name = node.args[1]
    if not (isinstance(name, SymRef) and name.id in PRIMITIVES):
        raise GrammarBuiltinError(messages.CAST_TYPE_NAME, name)
    inf.relate(Scalar(inf.type_at(args[0])), position)
    return g.scalar(name.id)


def _length(cell: Cell) -> int | None:
    """How many items a tuple known to end has; None for anything else."""
    root = find(cell)
    if root.ctor is not DTUPLE and root.ctor is not DEMPTY:
        return None
    items, tail = row_items(root)
    return len(items) if tail.ctor is DEMPTY else None


def _item(tuple_: Cell, index: int) -> Cell | None:
    """The item at `index` of a tuple known that far; None if it is not known (yet)."""
    cell = find(tuple_)
    for _ in range(index):
        if cell.ctor is not DTUPLE:
            return None
        cell = find(cell.args[1])
    return cell.args[0] if cell.ctor is DTUPLE else None
