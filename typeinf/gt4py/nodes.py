"""GTIR node trees between iterir (`iterir.nodes`) and GT4Py 1.2.1–1.2.3
(`gt4py.next.iterator.ir`).

The node classes and their fields are the same on both sides (iterir took GT4Py's names and
order); the plain fields and types convert as `typeinf.gt4py.types` says, and:

- `Literal.type` is a `ts.ScalarType` in GT4Py, its kind's name in iterir;
- `AxisLiteral.kind` is a `DimensionKind` in GT4Py, its name in iterir; an iterir `AxisLiteral`
  without a kind, and a `Sym` with the fencil IR's `kind`/`dtype`, are the fencil IR's, which
  GT4Py 1.2 no longer has (nor `FencilDefinition`, `StencilClosure`): a ConversionError;
- GT4Py 1.2.1's `NoneLiteral` (the IR's `None`, which 1.2.2 removed, and which GT4Py 1.2.1's own
  inference and printer cannot handle either) has no counterpart in iterir: a ConversionError;
- GT4Py's `location` (`SourceLocation`) is iterir's `loc` (`SourceSpan`, same five fields, same
  1-based numbering with an exclusive end column). A location without an end becomes an empty
  span (end = start), which goes back as a location without an end; a `SourceLocationGroup` (a
  merge of several, which GT4Py's own passes do not put on GTIR) becomes its first location;
- the `type` GT4Py's inference leaves on every other node (a `FunCall`, a `Lambda`, …) is its
  result, not part of the program (GT4Py compares and hashes nodes without it): it is not
  carried; `Sym.type` and `SymRef.type`, which iterir keeps, are.

Both directions walk the tree with an explicit stack (no recursion, however deep), and build
each node once its children are built.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from operator import is_not
from typing import Any

from gt4py.eve import concepts
from gt4py.next import common
from gt4py.next.iterator import ir
from gt4py.next.type_system import type_specifications as ts

from iterir.nodes import (
    FIELD_CHOICES,
    FIELD_KINDS,
    NODE_CLASSES,
    AxisLiteral,
    CartesianOffset,
    FunCall,
    Lambda,
    Literal,
    MisplacedNodeError,
    Node,
    OffsetLiteral,
    SourceSpan,
    Sym,
    trusted_constructor,
)
from iterir.traversal import MOST_NODES, check_tree
from typeinf.gt4py.errors import ConversionError, a_class
from typeinf.gt4py.types import (
    SCALAR_KIND_NAMES,
    GT4PyObject,
    made,
    scalar_kind_name,
    type_from_gt4py,
    type_to_gt4py,
)

#: GT4Py's class of each iterir class it has (all but the fencil IR's two).
GT4PY_CLASSES: dict[str, Any] = {
    name: getattr(ir, name) for name in NODE_CLASSES if hasattr(ir, name)
}
_OURS: dict[Any, type[Node]] = {cls: NODE_CLASSES[name] for name, cls in GT4PY_CLASSES.items()}
#: The plain fields that hold a GTIR type on both sides.
_TYPED = {("Sym", "type"), ("SymRef", "type"), ("Temporary", "dtype")}


# -- locations -------------------------------------------------------------------------------------
def location_to_gt4py(span: SourceSpan | None) -> GT4PyObject:
    """GT4Py's `SourceLocation` for a span (an empty span is a location without an end)."""
    if span is None:
        return None
    filename, line, column, end_line, end_column = span
    if (end_line, end_column) == (line, column):
        return concepts.SourceLocation(filename, line, column)
    return concepts.SourceLocation(filename, line, column, end_line, end_column)


def location_from_gt4py(location: GT4PyObject, path: str = "$") -> SourceSpan | None:
    """iterir's span for a GT4Py location (see the module's docstring for the two that lose)."""
    if location is None:
        return None
    if isinstance(location, concepts.SourceLocationGroup):
        location = location.locations[0]
    if not isinstance(location, concepts.SourceLocation):
        raise ConversionError(f"a location must be a SourceLocation, not {location!r}", path)
    line, column = location.line, location.column
    if location.end_column is None:
        return SourceSpan(location.filename, line, column, line, column)
    return SourceSpan(location.filename, line, column, location.end_line, location.end_column)


# -- iterir → GT4Py --------------------------------------------------------------------------------
def to_gt4py(node: Node) -> GT4PyObject:
    """GT4Py's GTIR node for an iterir one, every node converted (with its span as location).

    A ConversionError names our node and its path: a node GT4Py has no class for, a field it
    has no place for, or what GT4Py's own validation refuses (an unbound name in a `Program`)."""
    if not isinstance(node, Node):
        raise ConversionError(f"{a_class(node)} is not an iterir node", "$")
    try:
        check_tree(node)
    except MisplacedNodeError as error:
        raise ConversionError(str(error), "$", error.parent) from None
    built: list[GT4PyObject] = []
    stack: list[tuple[bool, Node, str, Node]] = [(False, node, "$", node)]
    while stack:
        ready, current, path, parent = stack.pop()
        if not isinstance(current, Node):
            raise ConversionError(f"{a_class(current)} is not an IR node", path, parent)
        name = type(current).__name__
        kinds = FIELD_KINDS[name]
        if not ready:
            if name not in GT4PY_CLASSES:
                raise ConversionError(
                    f"a {name} is the fencil IR's; GT4Py 1.2's GTIR has no such node",
                    path,
                    current,
                )
            stack.append((True, current, path, parent))
            stack.extend(
                (False, c, p, current) for c, p in reversed(_children(current, kinds, path))
            )
            continue
        fields = _values_to_gt4py(current, path)
        fields.update(_take_children(current, kinds, built))
        built.append(
            made(
                path,
                GT4PY_CLASSES[name],
                current,
                location=location_to_gt4py(current.loc),
                **fields,
            )
        )
    (result,) = built
    return result


def _values_to_gt4py(node: Node, path: str) -> dict[str, GT4PyObject]:
    name = type(node).__name__
    values: dict[str, GT4PyObject] = {}
    for field in node.value_fields:
        value = getattr(node, field)
        where = f"{path}.{field}"
        if name == "Sym" and field in ("kind", "dtype"):
            if value is not None:
                raise ConversionError(
                    f"`{field}` is the fencil IR's annotation of a parameter; GTIR has no "
                    "place for it (GTIR types a parameter with `type`)",
                    where,
                    node,
                )
        elif (name, field) in _TYPED:
            try:
                values[field] = None if value is None else type_to_gt4py(value, where)
            except ConversionError as error:  # about the node that holds the type
                raise ConversionError(error.message, error.path, node) from None
        elif name == "Literal" and field == "type":
            values[field] = made(where, ts.ScalarType, node, kind=ts.ScalarKind[value.upper()])
        elif name == "AxisLiteral" and field == "kind":
            if value is None:
                raise ConversionError(
                    "an axis without a kind is the fencil IR's; a GTIR axis is horizontal, "
                    "vertical or local",
                    where,
                    node,
                )
            values[field] = common.DimensionKind(value)
        else:
            values[field] = value
    return values


# -- GT4Py → iterir --------------------------------------------------------------------------------
#: What `from_gt4py` puts in place of a GT4Py node (and its subtree), or None to convert it.
StandIn = Callable[[GT4PyObject], Node | None]
#: Told of each GT4Py node converted (not stood in for), once its subtree is.
Leave = Callable[[GT4PyObject], None]

#: Pushed above a node whose children are being converted: the next pop is that node, to build.
_BUILD = object()


def from_gt4py(
    node: GT4PyObject,
    stand_in: StandIn | None = None,
    visited: list[GT4PyObject] | None = None,
    leave: Leave | None = None,
    previous: Sequence[Node] = (),
) -> Node:
    """iterir's node for a GT4Py GTIR node, every node converted (its location as span).

    `stand_in`, asked about each node before its children, may give our node for it (its
    subtree is then not converted): the drop-in inference (`typeinf.gt4py.inference`) puts a
    typed name in place of what GT4Py already typed. `visited` receives GT4Py's node of each
    of ours, in pre-order (the order of `iterir.traversal.preorder`'s positions). `leave` is
    told of each node converted once its subtree is: with `stand_in`, which is asked before,
    it tells a node's scope (the drop-in's `_StandIns` knows the names bound there).
    `previous` is a tree of ours in pre-order (`iterir.traversal.preorder`'s positions): a node
    equal to its node at the same position (values and children, as `==`, and the same span: see
    `_reused`) is that node, until the first that is not, so that a tree equal to `previous` is its
    root itself (`_reused` says why that is cheaper than `==` afterwards).

    A ConversionError names the path of what is not a GTIR node of GT4Py 1.2, or has no
    counterpart in iterir (a `ScalarKind.STRING` literal, a `DeferredType` constraint, GT4Py
    1.2.1's `NoneLiteral`).

    The walk keeps no paths: a failing node's path is found again by `_path_to`, only then
    (the drop-in converts every tree GT4Py's passes infer, nearly all without a failure;
    docs/performance.md, "Against GT4Py inside its pass manager")."""
    built: list[Node] = []
    stack: list[GT4PyObject] = [node]
    seen = 0
    position = -1  # the pre-order position of `current`, stand-ins included
    same = len(previous) > 0  # whether every node built so far is `previous`'s
    while stack:
        current = stack.pop()
        if current is _BUILD:
            at = stack.pop()
            current = stack.pop()
            if leave is not None:
                leave(current)
            if same and type(current) in _CHILDREN_ONLY and current.location is None:
                same = _taken(current, built, previous, at)
                if same:
                    continue
            _build(current, built, node)
            same = same and _reused(built, previous, at)
            continue
        position += 1
        cls = type(current)
        if stand_in is not None:
            replaced = stand_in(current)
            if replaced is not None:
                built.append(replaced)
                same = same and _reused(built, previous, position)
                if visited is not None:
                    visited.append(current)
                continue
        known = _OURS.get(cls)
        if known is None:
            raise ConversionError(_not_ours(current), _path_to(node, current))
        seen += 1
        if seen > MOST_NODES:
            raise ConversionError(
                f"the IR has more than {MOST_NODES:,} nodes", _path_to(node, current)
            )
        if visited is not None:
            visited.append(current)
        if cls in _LEAVES:  # built at once: nothing to wait for
            if leave is not None:
                leave(current)
            _build(current, built, node)
            same = same and _reused(built, previous, position)
            continue
        stack.append(current)
        stack.append(position)
        stack.append(_BUILD)
        stacked = _STACKED[cls](current) if cls in _STACKED else None
        if stacked is None:
            try:
                stacked = _child_nodes(current, FIELD_KINDS[known.__name__])
            except ConversionError as error:  # its path is the field's below the node's
                path = _path_to(node, current) + error.path
                raise ConversionError(error.message, path) from None
            stacked.reverse()
        stack.extend(stacked)
    (result,) = built
    return result


#: Whether a node keeps its annex (`node.annex`, eve's `__node_annex__`) in its `__dict__`, as up to
#: GT4Py 1.2.2, rather than in the slot eve's `Node` has from 1.2.3 on: a copy of a node's
#: `__dict__` must then leave it out, or it shares the original's annex (and writes to it).
ANNEX_IN_DICT: bool = "__node_annex__" not in getattr(concepts.Node, "__slots__", ())
#: GT4Py 1.2.1's node for the IR's `None` (`im.ensure_expr(None)`, `tracing`); None from 1.2.2 on,
#: which has no such class.
NONE_LITERAL: type | None = getattr(ir, "NoneLiteral", None)


def _not_ours(value: GT4PyObject) -> str:
    """Why `value`, met where a GTIR node is due, has no counterpart among our nodes."""
    if NONE_LITERAL is not None and type(value) is NONE_LITERAL:
        return (
            "a NoneLiteral (GT4Py 1.2.1's `None`, removed in 1.2.2) has no counterpart in iterir; "
            "GT4Py's own type inference has no rule for it either"
        )
    return f"{a_class(value)} is not a GTIR node of GT4Py 1.2 (gt4py.next.iterator.ir)"


def _reused(built: list[Node], previous: Sequence[Node], position: int) -> bool:
    """Whether the node just built (last on `built`) equals `previous`'s at `position`, its
    children being `previous`'s already (compared by identity), and has the same source span
    (an error found in this tree must cite this tree's places): then `previous`'s takes its
    place. Node by node as built, a tree equal to `previous` is known equal at its root,
    without `==` walking both trees again (docs/performance.md, "Against GT4Py inside its pass
    manager")."""
    if position >= len(previous):
        return False
    made, old = built[-1], previous[position]
    cls = type(made)
    if type(old) is not cls or made.loc != old.loc:  # equal spans: errors must cite this tree
        return False
    for name in cls.value_fields:
        mine, theirs = getattr(made, name), getattr(old, name)
        if type(mine) is not type(theirs) or mine != theirs:
            return False
    for name in cls.child_fields:
        mine, theirs = getattr(made, name), getattr(old, name)
        if type(mine) is tuple:
            if len(mine) != len(theirs) or any(map(is_not, mine, theirs)):
                return False
        elif mine is not theirs:
            return False
    built[-1] = old
    return True


def _taken(current: GT4PyObject, built: list[Node], previous: Sequence[Node], at: int) -> bool:
    """`_reused` for a call or a lambda without a location, before ours is built (it holds
    nothing but its children, the last on `built`): whether `previous`'s at `at` has these
    children, by identity; then it takes their place, and ours is never built. A node with a
    location is left to `_reused`, which compares the spans: an error must cite this tree's
    places, not the previous one's (docs/performance.md, "Against GT4Py inside its pass
    manager")."""
    if at >= len(previous):
        return False
    old, cls = previous[at], type(current)
    if type(old) is not _OURS[cls] or old.loc is not None:  # no span, as `current` has none
        return False
    children = old.children()
    count = len(children)
    if count != 1 + len(current.args if cls is ir.FunCall else current.params):
        return False
    if any(map(is_not, children, built[len(built) - count :])):
        return False
    del built[len(built) - count :]
    built.append(old)
    return True


def _build(current: GT4PyObject, built: list[Node], root: GT4PyObject) -> None:
    """Our node for `current`, its children taken off the end of `built`, put on `built`."""
    location = current.location
    fast = _FAST.get(type(current))
    if fast is not None and location is None:
        made = fast(current, built)
        if made is not None:
            built.append(made)
            return
    ours = _OURS[type(current)]  # known: checked before its children
    try:
        fields = _values_from_gt4py(current, ours, "")
    except ConversionError:  # again, with the path in the message
        _values_from_gt4py(current, ours, _path_to(root, current))
        raise
    fields.update(_take_children(current, FIELD_KINDS[ours.__name__], built))
    if location is not None:
        try:
            location = location_from_gt4py(location)
        except ConversionError:  # again, with the path in the message
            location_from_gt4py(location, f"{_path_to(root, current)}.location")
            raise
    try:
        make: Callable[..., Node] = ours  # each class's dataclass constructor
        built.append(make(loc=location, **fields))
    except (TypeError, ValueError) as refused:
        raise ConversionError(str(refused), _path_to(root, current)) from None


#: GT4Py's classes without child fields.
_LEAVES = frozenset(cls for cls, ours in _OURS.items() if not ours.child_fields)


def _fast_call(node: GT4PyObject, built: list[Node]) -> Node:
    """A call of its children just built (its callee, then its arguments)."""
    count = len(node.args)
    args = tuple(built[len(built) - count :])
    del built[len(built) - count :]
    return _make_call(built.pop(), args, None)


def _fast_lambda(node: GT4PyObject, built: list[Node]) -> Node:
    """A lambda of its children just built (its parameters, then its body)."""
    expr = built.pop()
    count = len(node.params)
    params = tuple(built[len(built) - count :])
    del built[len(built) - count :]
    return _make_lambda(params, expr, None)


def _fast_literal(node: GT4PyObject, built: list[Node]) -> Node | None:
    """A literal of a scalar kind iterir has and a text value; None: anything else. The kind
    must be a `ScalarKind` itself: an int equal to one (`ScalarKind` is an IntEnum), or an
    unhashable value, is for the general path to refuse."""
    scalar = node.type
    if type(scalar) is not ts.ScalarType or scalar.shape is not None:
        return None
    kind = scalar.kind
    name = SCALAR_KIND_NAMES.get(kind) if type(kind) is ts.ScalarKind else None
    value = node.value
    if name is None or type(value) is not str:
        return None
    return _make_literal(value, name, None)


def _fast_sym(node: GT4PyObject, built: list[Node]) -> Node | None:
    """An untyped parameter; None: a typed one (its type is converted the general way)."""
    name = node.id
    if node.type is not None or not isinstance(name, str):
        return None
    return _make_sym(str(name), None, None, None, None)


def _fast_axis(node: GT4PyObject, built: list[Node]) -> Node | None:
    """An axis of a text name and a `DimensionKind` iterir has; None: anything else (the
    kind tested by type first: an unhashable one is for the general path to refuse)."""
    value = node.value
    kind = _AXIS_KINDS.get(node.kind) if type(node.kind) is common.DimensionKind else None
    if type(value) is not str or kind is None:
        return None
    return _make_axis(value, kind, None)


def _fast_offset(node: GT4PyObject, built: list[Node]) -> Node | None:
    """An offset of a text name or an int amount; None: anything else."""
    value = node.value
    if type(value) is not str and type(value) is not int:
        return None
    return _make_offset(value, None)


def _fast_cartesian(node: GT4PyObject, built: list[Node]) -> Node:
    """A Cartesian offset of its two dimensions just built."""
    codomain = built.pop()
    return _make_cartesian(built.pop(), codomain, None)


_make_call = trusted_constructor(FunCall)
_make_lambda = trusted_constructor(Lambda)
_make_literal = trusted_constructor(Literal)
_make_sym = trusted_constructor(Sym)
_make_axis = trusted_constructor(AxisLiteral)
_make_offset = trusted_constructor(OffsetLiteral)
_make_cartesian = trusted_constructor(CartesianOffset)
#: Our name of each GT4Py dimension kind iterir has (`DimensionKind.LOCAL` → "local").
_AXIS_KINDS = {
    kind: str(kind.value)
    for kind in common.DimensionKind
    if str(kind.value) in FIELD_CHOICES["AxisLiteral", "kind"]
}

#: Builders of the most frequent nodes without a location: a call, a lambda or a Cartesian
#: offset holds nothing but its children (our nodes, valid as made; where they stand is
#: checked where the tree is walked), a literal, an axis, an offset or an untyped parameter
#: only what the builder checks, so that our unchecked constructor fits; None: the general
#: way, which says what is wrong. The common nodes pay for no check
#: (docs/performance.md, "Against GT4Py inside its pass manager").
_FAST: dict[type, Callable[[GT4PyObject, list[Node]], Node | None]] = {
    ir.FunCall: _fast_call,
    ir.Lambda: _fast_lambda,
    ir.Literal: _fast_literal,
    ir.Sym: _fast_sym,
    ir.AxisLiteral: _fast_axis,
    ir.OffsetLiteral: _fast_offset,
    ir.CartesianOffset: _fast_cartesian,
}


def _stacked_call(node: GT4PyObject) -> list[GT4PyObject] | None:
    args = node.args
    if type(args) is not list:
        return None
    stacked = args[::-1]
    stacked.append(node.fun)
    return stacked


def _stacked_lambda(node: GT4PyObject) -> list[GT4PyObject] | None:
    params = node.params
    if type(params) is not list:
        return None
    return [node.expr, *reversed(params)]


#: GT4Py's classes whose nodes (ours) hold nothing but their children, when without a location.
_CHILDREN_ONLY = frozenset((ir.FunCall, ir.Lambda))

#: A call's or lambda's children as the walk stacks them (last first), without `_child_nodes`'
#: loop over the fields; None: not a list where one is due, which `_child_nodes` says.
_STACKED: dict[type, Callable[[GT4PyObject], list[GT4PyObject] | None]] = {
    ir.FunCall: _stacked_call,
    ir.Lambda: _stacked_lambda,
}


def _child_nodes(node: Any, kinds: dict[str, str]) -> list[Any]:
    """A node's children in field order (`_children`'s, without paths); a field that should
    hold a list and does not is an error at the field's path below the node."""
    children: list[Any] = []
    for field, kind in kinds.items():
        if kind == "value":
            continue
        value = getattr(node, field)
        if kind == "nodes":
            if not isinstance(value, (list, tuple)):
                raise ConversionError(f"`{field}` must be a list of nodes", f".{field}")
            children.extend(value)
        elif value is not None or kind == "node":
            children.append(value)
    return children


def _path_to(root: GT4PyObject, target: GT4PyObject) -> str:
    """The path of `target` (its first occurrence in pre-order) in the tree under `root`."""
    stack: list[tuple[Any, str]] = [(root, "$")]
    while stack:
        current, path = stack.pop()
        if current is target:
            return path
        ours = _OURS.get(type(current))
        if ours is not None:
            stack.extend(reversed(_children(current, FIELD_KINDS[ours.__name__], path)))
    return "$"


def _values_from_gt4py(node: GT4PyObject, ours: type[Node], path: str) -> dict[str, Any]:
    name = ours.__name__
    values: dict[str, Any] = {}
    for field in ours.value_fields:
        if name == "Sym" and field in ("kind", "dtype"):
            continue  # the fencil IR's; GT4Py 1.2's Sym has neither
        value = getattr(node, field)
        where = f"{path}.{field}"
        if (name, field) in _TYPED:
            values[field] = None if value is None else type_from_gt4py(value, where)
        elif name == "Literal" and field == "type":
            if not isinstance(value, ts.ScalarType) or value.shape is not None:
                raise ConversionError(f"a literal's type must be a scalar, not {value!r}", where)
            values[field] = scalar_kind_name(value.kind, f"{where}.kind")
        elif name == "AxisLiteral" and field == "kind":
            values[field] = str(value.value) if isinstance(value, common.DimensionKind) else value
        elif isinstance(value, str):
            values[field] = str(value)  # GT4Py's names are str subclasses (`SymbolName`)
        else:
            values[field] = value
    return values


# -- both ------------------------------------------------------------------------------------------
def _children(node: Any, kinds: dict[str, str], path: str) -> list[tuple[Any, str]]:
    """A node's children (either side: the fields have the same names) with their paths, in
    field order; a field that should hold a list and does not holds none here (iterir's
    hold tuples; `_child_nodes` says what is wrong with GT4Py's)."""
    visits: list[tuple[Any, str]] = []
    for field, kind in kinds.items():
        if kind == "value":
            continue
        value = getattr(node, field)
        if kind == "nodes":
            if isinstance(value, (list, tuple)):
                visits.extend((c, f"{path}.{field}[{i}]") for i, c in enumerate(value))
        elif value is not None or kind == "node":
            visits.append((value, f"{path}.{field}"))
    return visits


def _take_children(node: Any, kinds: dict[str, str], built: list[Any]) -> dict[str, Any]:
    """The built children of `node`, taken off the end of `built`, by field: a list where the
    field holds several (GT4Py's node classes take lists; iterir's turn them into tuples)."""
    fields: dict[str, Any] = {}
    for field, kind in reversed(kinds.items()):
        if kind == "value":
            continue
        value = getattr(node, field)
        if kind == "nodes":
            count = len(value)
            fields[field] = built[len(built) - count :]
            del built[len(built) - count :]
        elif kind == "node" or value is not None:
            fields[field] = built.pop()
        elif kind == "node?":
            fields[field] = None
    return fields
