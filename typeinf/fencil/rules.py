"""The fencil IR's grammar builtins typed by a rule (docs/rules.md; `builtins/grammar.sig` lists
them as `rule`): `make_tuple`, `tuple_get`, `shift` and `neighbors` (by the offset provider),
`cast_`, and the domains; and the stencil closure (`closure`). Each rule is a function of the
inference, the call's position, node and argument positions, and returns the call's type, its
constraints said through the run (`inference.equal`, `inference.run`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, NoReturn

from iterir import (
    FunCall,
    Literal,
    Node,
    OffsetLiteral,
    StencilClosure,
    SymRef,
)
from iterir.vocabulary import PRIMITIVES
from typeinf.core.constraints import (
    CastOperand,
    ClosureDomain,
    ClosureInput,
    ClosureOutput,
    ClosureStencil,
    DomainRange,
    NeighborsOperand,
    Reason,
    ShiftStart,
    TupleElement,
    TupleGetOperand,
)
from typeinf.core.constructors import D_EMPTY, constant, fun, prim, row_items
from typeinf.core.driver import check_arity
from typeinf.core.offsets import Connectivity, Dimension
from typeinf.core.terms import Cell, Sort, find, make, var
from typeinf.fencil import messages, shaped
from typeinf.fencil.constructors import ITERATOR, LENGTH, LIST, SCALAR, SKIP, VAL, VALUE, loc, val

if TYPE_CHECKING:
    from typeinf.fencil.collect import Inference


def rule_make_tuple(inference: Inference, position: int, node: FunCall, args: list[int]) -> Cell:
    return inference.run.shaped(
        inference,
        shaped.make_tuple(len(args)),
        args,
        position,
        TupleElement,
    )


def rule_tuple_get(inference: Inference, position: int, node: FunCall, args: list[int]) -> Cell:
    check_arity(node, 2)
    index = _tuple_index(node.args[0])
    inference.run.check_tuple_index(inference, index, args[1])
    return inference.run.shaped(
        inference,
        shaped.tuple_get(index),
        args[1:],
        position,
        lambda _: TupleGetOperand(index),
    )


def literal(inference: Inference, position: int, node: Literal) -> Cell:
    """A literal: a value of its primitive type, of any size."""
    if node.type not in PRIMITIVES:
        raise messages.unknown_literal(node)
    return val(VALUE, prim(node.type), var(Sort.SIZE))


def misuse(node: Node, how: str) -> NoReturn:
    """Raise the error of a grammar builtin (`how`: "rule") or a type name ("dtype") used as a
    value, at its name `node`: it has no type of its own."""
    assert isinstance(node, SymRef)  # only a name has no type of its own
    raise messages.not_a_value(node, how)


def closure(inference: Inference, position: int, node: StencilClosure) -> None:
    """A stencil closure (docs/rules.md): typed as a use of its shape's signature
    (`shaped.closure`), each part with its own reason."""
    domain, stencil, output, *inputs = inference.children(position)
    reasons: list[Reason] = [
        ClosureDomain(),
        ClosureOutput(),
        *(ClosureInput(i) for i in range(len(inputs))),
        ClosureStencil(len(inputs)),
    ]
    inference.run.shaped(
        inference,
        shaped.closure(len(inputs)),
        [domain, output, *inputs, stencil],
        position,
        reasons.__getitem__,
    )


def tuple_index_in_range(inference: Inference, index: int, tuple_position: int) -> None:
    """An index past the end of a tuple whose length is known by now is said so, instead of
    as a mismatch of two rows (of which one has `index` + 1 elements)."""
    type_ = find(inference.type_at(tuple_position))
    if type_.ctor is not VAL:
        return
    items, tail = row_items(type_.args[1])
    if tail is D_EMPTY and index >= len(items):
        raise messages.tuple_index_past_end(index, len(items), inference.nodes[tuple_position])


def offset_entry(inference: Inference, node: OffsetLiteral) -> Dimension | Connectivity | None:
    if inference.offset_provider is None or not isinstance(node.value, str):
        return None
    entry = inference.offset_provider.get(node.value)
    if entry is None:
        raise messages.offset_not_provided(node, inference.offset_provider)
    return entry


def rule_shift(inference: Inference, position: int, node: FunCall, args: list[int]) -> Cell:
    current_in = var(Sort.LOC)
    if inference.offset_provider is None:
        current_out = current_in if not args else var(Sort.LOC)
    else:
        current_out = current_in
        for offset in node.args:
            entry = offset_entry(inference, offset) if isinstance(offset, OffsetLiteral) else None
            if isinstance(entry, Connectivity):
                # Only an offset literal naming a tag has an entry.
                assert isinstance(offset, OffsetLiteral) and isinstance(offset.value, str)
                inference.equal(
                    loc(entry.origin),
                    current_out,
                    position,
                    ShiftStart(offset.value, entry.origin),
                )
                current_out = loc(entry.neighbor)
    dtype, size, defined = var(Sort.DTYPE), var(Sort.SIZE), var(Sort.LOC)
    return fun(
        [val(ITERATOR, dtype, size, current_in, defined)],
        val(ITERATOR, dtype, size, current_out, defined),
    )


def rule_neighbors(inference: Inference, position: int, node: FunCall, args: list[int]) -> Cell:
    check_arity(node, 2)
    tag = node.args[0]
    if not (isinstance(tag, OffsetLiteral) and isinstance(tag.value, str)):
        raise messages.neighbors_without_tag(tag)
    entry = offset_entry(inference, tag)
    length, skip = var(Sort.LENGTH), var(Sort.SKIP)
    current, defined = var(Sort.LOC), var(Sort.LOC)
    if isinstance(entry, Dimension):
        raise messages.neighbors_of_a_dimension(tag, entry.value)
    if isinstance(entry, Connectivity):
        length, skip = (
            constant(LENGTH, entry.max_neighbors),
            constant(SKIP, entry.has_skip_values),
        )
        current, defined = loc(entry.origin), loc(entry.neighbor)
    dtype, size = var(Sort.DTYPE), var(Sort.SIZE)
    inference.equal(
        val(ITERATOR, dtype, size, current, defined),
        inference.type_at(args[1]),
        args[1],
        NeighborsOperand(tag.value),
    )
    return val(VALUE, make(LIST, dtype, length, skip), size)


def rule_cast_(inference: Inference, position: int, node: FunCall, args: list[int]) -> Cell:
    check_arity(node, 2)
    target = node.args[1]
    if not (isinstance(target, SymRef) and inference.uncalled.get(args[1]) == "dtype"):
        raise messages.cast_without_type_name(target)
    del inference.uncalled[args[1]]
    size = var(Sort.SIZE)
    inference.equal(
        val(VALUE, var(Sort.DTYPE), size),
        inference.type_at(args[0]),
        args[0],
        CastOperand(),
    )
    result = val(VALUE, prim(target.id), size)
    inference.types[args[1]] = result
    return result


def rule_domain(inference: Inference, position: int, node: FunCall, args: list[int]) -> Cell:
    for i, arg in enumerate(args):
        inference.equal(
            val(VALUE, prim("named_range"), SCALAR),
            inference.type_at(arg),
            arg,
            DomainRange(i),
        )
    return val(VALUE, prim("domain"), SCALAR)


#: How each builtin of the grammar is typed (`builtins/grammar.sig` lists them as `rule`): an
#: explicit table, checked against the signature files by `tests/test_constructors.py`.
RULES: dict[str, Callable[[Inference, int, FunCall, list[int]], Cell]] = {
    "make_tuple": rule_make_tuple,
    "tuple_get": rule_tuple_get,
    "shift": rule_shift,
    "neighbors": rule_neighbors,
    "cast_": rule_cast_,
    "cartesian_domain": rule_domain,
    "unstructured_domain": rule_domain,
}


def _tuple_index(index: Node) -> int:
    """The index `tuple_get` is given: an integer literal, below `shaped.MOST_TUPLE_ELEMENTS`."""
    if not (
        isinstance(index, Literal)
        and index.type in PRIMITIVES
        and index.type.startswith(("int", "uint"))
        and index.value.isascii()
        and index.value.isdigit()
    ):
        raise messages.tuple_index_not_literal(index)
    digits = index.value.lstrip("0") or "0"
    if (
        len(digits) > len(str(shaped.MOST_TUPLE_ELEMENTS))
        or int(digits) >= shaped.MOST_TUPLE_ELEMENTS
    ):
        raise messages.tuple_index_too_large(index, digits, shaped.MOST_TUPLE_ELEMENTS)
    return int(digits)
