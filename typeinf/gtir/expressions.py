"""GTIR's leaves and binders (docs/gtir.md, "Typing"): symbols and the types they declare,
names (a parameter's cell, a definition's fresh instance, a builtin as a value), literals,
axes and offsets, lambdas and temporaries.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from iterir import (
    AxisLiteral,
    FunctionDefinition,
    Lambda,
    Literal,
    Node,
    OffsetLiteral,
    Sym,
    SymRef,
)
from iterir import gtir_types as gt
from iterir.nodes import (
    CartesianOffset,
    InfinityLiteral,
    Temporary,
)
from iterir.symbols import BindingKind
from iterir.traversal import child_positions
from iterir.vocabulary import PRIMITIVES
from typeinf.core.errors import (
    MalformedIRError,
    TypeInferenceError,
    unchained,
)
from typeinf.core.terms import FAMILIES, Cell, Sort, make, var
from typeinf.gtir import messages
from typeinf.gtir import terms as g
from typeinf.gtir.relations import OnDomain
from typeinf.gtir.rules import RULES
from typeinf.gtir.signatures import SIGNATURES, scheme
from typeinf.gtir.structured import from_gt4py

if TYPE_CHECKING:
    from typeinf.gtir.collect import GtirInference

_PARAMETER = BindingKind.PARAMETER
_BUILTIN = BindingKind.BUILTIN


#: The constant of each scalar kind, made once.
SCALARS = {kind: g.scalar(kind) for kind in PRIMITIVES}


def sym(inf: GtirInference, position: int, node: Sym) -> Cell:
    """A declared name: its given type; without one (a lambda's parameter, or a program's
    in GT4Py's printed text, which writes none), a variable its uses determine."""
    if node.type is not None:
        return read(node.type, node)
    return var(Sort.DTYPE)


def read(type_: gt.GType, node: Node) -> Cell:
    """The cell of a type given on `node`; a MalformedIRError if it has none."""
    try:
        return from_gt4py(type_)
    except ValueError as error:
        raise unchained(MalformedIRError(messages.unreadable_type(error), node)) from None


def temporary(inf: GtirInference, position: int, node: Temporary) -> Cell:
    if node.dtype is None or node.domain is None:
        raise TypeInferenceError(messages.temporary_untyped(node.id), node)
    positions = var(Sort.DIMS)
    inf.equal(make(g.DOMAIN, positions), inf.type_at(position + 1), position)
    result = var(Sort.DTYPE)
    inf.relate(OnDomain(positions, read(node.dtype, node), result), position)
    return result


#: The names GT4Py prints a literal infinity or NaN as (its literal's value is Python's `str` of
#: the float, printed bare when the float is a float64): where nothing binds them, the float
#: literal they stand for, of a float type the context decides.
FLOAT_WORDS = frozenset({"inf", "nan"})


def symref(inf: GtirInference, position: int, node: SymRef) -> Cell | None:
    kind, declaration, declared = inf.symbols.bindings[position]
    if kind is _BUILTIN:
        return builtin_value(inf, position, node)
    if kind is BindingKind.FUNCTION_DEFINITION:
        assert declared is not None
        return inf.run.instance(inf.schemes[declared], position)
    if kind is BindingKind.FREE:
        if node.type is not None:
            return read(node.type, node)
        allowed = inf.allow_free
        if allowed is True or (allowed is not False and node.id in allowed):
            return inf.unknowns.setdefault(node.id, var(Sort.DTYPE))
        if node.id in FLOAT_WORDS:  # GT4Py's text of a literal: some float, each time anew
            return var(Sort.DTYPE, FAMILIES["float"])
        raise TypeInferenceError(messages.undefined(node.id), node)
    assert declared is not None and declaration is not None
    if inf.types[declared] is None:
        inf.types[declared] = inf.visit(declared, declaration)
    return inf.types[declared]


def builtin_value(inf: GtirInference, position: int, node: SymRef) -> Cell | None:
    """A builtin's type where it is a value (`as_fieldop(deref, …)`): its signature's, or its
    rule's (`RULES`); None where it is a type name (`cast_`'s rule reads it). A builtin called
    is never met here: `_part` skips it (the call's rule types it)."""
    if node.id in PRIMITIVES:
        return None
    if node.id in SIGNATURES:
        return scheme(node.id).instantiate()
    rule = RULES.get(node.id)
    if rule is not None and rule.value is not None:
        return rule.value(inf, position)
    raise TypeInferenceError(messages.builtin_not_a_value(node.id), node)


def literal(inf: GtirInference, position: int, node: Literal) -> Cell:
    cell = SCALARS.get(node.type)  # a call, not three (`g.scalar`): see `_part`'s skip
    if cell is None:
        raise MalformedIRError(messages.literal_untyped(node.type), node)
    return cell


def infinity(inf: GtirInference, position: int, node: InfinityLiteral) -> Cell:
    return g.scalar("int32")


def axis(inf: GtirInference, position: int, node: AxisLiteral) -> Cell:
    return make(g.DIMENSION, g.axis_cell(node.value, node.kind or "horizontal"))


def offset(inf: GtirInference, position: int, node: OffsetLiteral) -> Cell:
    if isinstance(node.value, int):
        return g.offset_amount("int32")
    return make(g.OFFSET, g.dim(gt.Dimension(node.value, "horizontal")))


def cartesian(inf: GtirInference, position: int, node: CartesianOffset) -> Cell:
    source, target = node.domain, node.codomain
    return make(
        g.CARTESIAN_OFFSET,
        g.axis_cell(source.value, source.kind or "horizontal"),
        g.axis_cell(target.value, target.kind or "horizontal"),
    )


def function(inf: GtirInference, position: int, node: Lambda | FunctionDefinition) -> Cell:
    children = child_positions(inf.sizes, position, len(node.params) + 1)
    params = [inf.types[p] or sym(inf, p, node.params[i]) for i, p in enumerate(children[:-1])]
    for p, cell in zip(children, params, strict=False):
        inf.types[p] = cell
    return g.function(params, inf.type_at(children[-1]))
