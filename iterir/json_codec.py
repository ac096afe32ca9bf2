"""The JSON snapshot encoding: each node an object `{"node": ClassName, field: value, …}`.

Field names and order are GT4Py's. Both directions use an explicit stack, so 100,000-level
programs convert without recursion. A malformed document raises a ParseError naming the JSON
path of the problem (`$.closures[0].stencil: unknown node 'Lamda'`).
"""

from __future__ import annotations

from typing import Any

from iterir import vocabulary as voc
from iterir.display import value_text
from iterir.errors import ParseError
from iterir.gcpause import gc_paused
from iterir.gtir_types import GType, TypeFormatError, json_kind, type_from_json, type_to_json
from iterir.jsontext import path_step
from iterir.nodes import (
    EXPR_NAMES,
    FIELD_CHOICES,
    FIELD_KINDS,
    NODE_CLASSES,
    Node,
    allowed_children,
)
from iterir.traversal import check_tree

JSON = Any


class _Path:
    """A JSON path, built as a chain so that a million nodes cost no string building."""

    __slots__ = ("key", "parent")

    def __init__(self, parent: _Path | None, key: str | int) -> None:
        self.parent, self.key = parent, key

    def __str__(self) -> str:
        keys: list[str] = []
        path: _Path | None = self
        while path is not None and path.parent is not None:
            keys.append(path_step(path.key))
            path = path.parent
        return "$" + "".join(reversed(keys))


def to_json(node: Node) -> JSON:
    """The JSON value (dicts, lists, strings, numbers, booleans) encoding `node`. A cycle or a
    tree too large once shared subtrees are written out is a TreeShapeError."""
    check_tree(node)
    holder: list[JSON] = [None]
    stack: list[tuple[Node, Any, int | str]] = [(node, holder, 0)]
    while stack:
        current, container, key = stack.pop()
        name = type(current).__name__
        data: dict[str, JSON] = {"node": name}
        for field, kind in FIELD_KINDS[name].items():
            value = getattr(current, field)
            if kind == "node" or (kind == "node?" and value is not None):
                data[field] = None
                stack.append((value, data, field))
            elif kind == "nodes":
                items: list[JSON] = [None] * len(value)
                data[field] = items
                stack.extend((child, items, i) for i, child in enumerate(value))
            elif isinstance(value, GType):
                data[field] = type_to_json(value)
            elif value is not None and kind == "value":
                data[field] = list(value) if field == "dtype" else value
        container[key] = data
    return holder[0]


def from_json(data: JSON, filename: str | None = None) -> Node:
    """The node encoded by a decoded JSON value; a ParseError names the path of any problem."""
    with gc_paused():
        return _from_json(data, filename)


def _from_json(data: JSON, filename: str | None) -> Node:
    # Frames are either ("visit", value, path, allowed classes) or ("build", class, path, shape):
    # a build frame pops its children's nodes from `built` once they have all been made.
    stack: list[tuple[Any, ...]] = [("visit", data, _Path(None, "$"), tuple(NODE_CLASSES))]
    built: list[Node] = []

    def fail(message: str, path: _Path) -> ParseError:
        return ParseError(message, filename, json_path=str(path))

    while stack:
        frame = stack.pop()
        if frame[0] == "build":
            _, cls, plain_values, child_shape = frame
            fields = dict(plain_values)
            for field, count in reversed(child_shape):
                if count is None:
                    fields[field] = built.pop()
                else:
                    fields[field] = tuple(built[len(built) - count :])
                    del built[len(built) - count :]
            built.append(cls(**fields))
            continue
        _, value, path, allowed = frame
        if not isinstance(value, dict):
            raise fail(f"expected a node object, found {json_kind(value)}", path)
        name = value.get("node")
        if not isinstance(name, str):
            raise fail("missing field 'node'" if name is None else "'node' must be a string", path)
        if name not in NODE_CLASSES:
            raise fail(f"unknown node {value_text(name)}", path)
        if name not in allowed:
            raise fail(f"expected {_one_of(allowed)}, found {value_text(name)}", path)
        kinds = FIELD_KINDS[name]
        for key in value:
            if key != "node" and (key not in kinds or _not_gtir_type(name, key, value[key])):
                raise fail(f"unknown field {value_text(key)} of {name}", path)
        values: dict[str, Any] = {}
        shape: list[tuple[str, int | None]] = []
        children: list[tuple[Any, ...]] = []
        for field, kind in kinds.items():
            field_path = _Path(path, field)
            if kind == "value":
                values[field] = _value(name, field, value, field_path, fail)
                continue
            if kind == "node?" and value.get(field) is None:
                values[field] = None
                continue
            if field not in value:
                raise fail(f"missing field {field!r}", path)
            child_allowed = allowed_children(name, field)
            if kind != "nodes":
                shape.append((field, None))
                children.append(("visit", value[field], field_path, child_allowed))
            else:
                items = value[field]
                if not isinstance(items, list):
                    raise fail(f"expected a list, found {json_kind(items)}", field_path)
                shape.append((field, len(items)))
                children.extend(
                    ("visit", item, _Path(field_path, i), child_allowed)
                    for i, item in enumerate(items)
                )
        stack.append(("build", NODE_CLASSES[name], values, shape))
        stack.extend(reversed(children))
    (node,) = built
    return node


#: The plain fields that may be absent (or null), and those that hold a GTIR type.
_OPTIONAL = {
    ("Sym", "kind"),
    ("Sym", "dtype"),
    ("Sym", "type"),
    ("SymRef", "type"),
    ("AxisLiteral", "kind"),
    ("Temporary", "dtype"),
}
_TYPED = {("Sym", "type"), ("SymRef", "type"), ("Temporary", "dtype")}


def _not_gtir_type(name: str, field: str, value: JSON) -> bool:
    """A Sym's or SymRef's `type` that is not a type object is no field of either dialect: the
    fencil IR has no such field, and GTIR's holds `{"t": …}`."""
    return (
        field == "type" and name in ("Sym", "SymRef") and not isinstance(value, (dict, type(None)))
    )


def _value(name: str, field: str, data: dict[str, JSON], path: _Path, fail: Any) -> Any:
    """Check and convert one plain field; optional ones (`_OPTIONAL`) may be absent."""
    optional = (name, field) in _OPTIONAL
    if field not in data or (optional and data[field] is None):
        if optional:
            return None
        raise fail(f"missing field {field!r}", path.parent)
    value = data[field]
    if (name, field) in _TYPED:
        try:
            return type_from_json(value)
        except TypeFormatError as error:
            for key in error.keys:
                path = _Path(path, key)
            raise fail(error.message, path) from None
    if name == "OffsetLiteral":
        if isinstance(value, bool) or not isinstance(value, (int, str)):
            raise fail(f"expected an integer or a string, found {json_kind(value)}", path)
        return value
    if field == "dtype":
        if not (isinstance(value, list) and len(value) == 2 and isinstance(value[1], bool)):
            raise fail("expected [dtype name, is_list]", path)
        if not isinstance(value[0], str):
            raise fail(f"expected a dtype name, found {json_kind(value[0])}", _Path(path, 0))
        if value[0] not in voc.PRIMITIVES:
            raise fail(f"unknown dtype {value_text(value[0])}", _Path(path, 0))
        return (value[0], value[1])
    if not isinstance(value, str):
        raise fail(f"expected a string, found {json_kind(value)}", path)
    choices = FIELD_CHOICES.get((name, field))
    if choices is not None and value not in choices:
        expected = " or ".join(repr(c) for c in choices)
        raise fail(f"unknown {field} {value_text(value)}; expected {expected}", path)
    if name == "Literal" and field == "type" and value not in voc.PRIMITIVES:
        raise fail(f"unknown literal type {value_text(value)}", path)
    return value


def _one_of(names: tuple[str, ...]) -> str:
    if names == EXPR_NAMES:
        return "an expression node"
    return " or ".join(repr(n) for n in names)
