"""What a GTIR program's report holds (`typeinf infer --json`, docs/json-output.md, "GTIR"): the
type of every parameter, function definition, temporary, and each `SetAt`'s expression, target
and domain — the types GT4Py's own inference leaves for its passes to read, as the samples'
`gt4py_types` record them. `SetAt`s come in body order, each named by its path as the samples
name it: `2` the third statement of the body, `0.t.1` the second statement of the true branch of
the first (an `IfStmt`), `0.f.0` the first of its false branch.

Each type is given our notation, our value as a tree, and — when it is ground — GT4Py's
structured form (`{"t": "FieldType", …}`) and GT4Py's `str()` of it, which a tool compares with
GT4Py's."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from iterir import Node, pformat
from iterir import gtir_types as gt
from iterir.nodes import FunctionDefinition, IfStmt, Program, SetAt
from iterir.traversal import child_positions
from typeinf.core.sizes import check_printable
from typeinf.core.terms import Cell, FencilType, Type
from typeinf.frontends.gt4py_text import gt4py_str
from typeinf.gtir.collect import GtirInference
from typeinf.gtir.infer import (
    GtirDefinition,
    GtirInferred,
    GtirProgram,
    GtirSolved,
    definition_at,
    definition_type,
    typed_nodes,
)
from typeinf.gtir.notation import GtirPrinter, pformat_gtir
from typeinf.gtir.structured import NotStructured, to_gt4py
from typeinf.gtir.values import GtirValue, to_value
from typeinf.types import tree


@dataclass(frozen=True)
class SetAtParts:
    """A `SetAt`, its path in the body, and the pre-order positions of its three parts."""

    path: str
    node: SetAt
    expr: int
    domain: int
    target: int


@dataclass(frozen=True)
class ProgramParts:
    """The pre-order positions of what a GTIR program's report types, each with its name."""

    params: list[tuple[str, int]]
    definitions: list[tuple[str, int]]
    temporaries: list[tuple[str, int]]
    set_ats: list[SetAtParts]


def program_parts(inference: GtirInference) -> ProgramParts:
    """The parts of the program `inference` typed, in GT4Py's field order."""
    root = inference.root
    assert isinstance(root, Program)
    children = child_positions(inference.sizes, 0, root.child_count())
    ndefs, nparams = len(root.function_definitions), len(root.params)
    ntemps = len(root.declarations)
    named = [(getattr(inference.nodes[p], "id", ""), p) for p in children]
    body = [(str(i), p) for i, p in enumerate(children[ndefs + nparams + ntemps :])]
    return ProgramParts(
        named[ndefs : ndefs + nparams],
        named[:ndefs],
        named[ndefs + nparams : ndefs + nparams + ntemps],
        list(_set_ats(inference, body)),
    )


def _set_ats(inference: GtirInference, body: list[tuple[str, int]]) -> Iterator[SetAtParts]:
    """Every `SetAt` under `body` in pre-order (an explicit stack: `IfStmt`s nest freely)."""
    pending = body[::-1]
    while pending:
        path, at = pending.pop()
        node = inference.nodes[at]
        children = child_positions(inference.sizes, at, node.child_count())
        if isinstance(node, SetAt):
            expr, domain, target = children
            yield SetAtParts(path, node, expr, domain, target)
        elif isinstance(node, IfStmt):
            split = 1 + len(node.true_branch)
            branches = [(f"{path}.t.{i}", p) for i, p in enumerate(children[1:split])]
            branches += [(f"{path}.f.{i}", p) for i, p in enumerate(children[split:])]
            pending.extend(reversed(branches))


def ground_gt4py(cell: Cell) -> gt.GType | None:
    """GT4Py's type of a ground type; None for a type that is not ground (a variable, an
    unknown set) or that GT4Py's form cannot say."""
    try:
        value = to_gt4py(cell)
    except NotStructured:
        return None
    return None if _deferred(gt.type_to_json(value)) else value


def _deferred(data: Any) -> bool:
    stack = [data]
    while stack:
        item = stack.pop()
        if item == "unknown" or (isinstance(item, dict) and item.get("t") == "DeferredType"):
            return True
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


def json_tree(value: GtirValue) -> Any:
    """`typeinf.types.tree` of a GTIR value, JSON-ready: a dimension as `{"class":
    "Dimension", "value", "kind"}`; a scalar is its kind's name, as its value is."""
    return value if isinstance(value, str) else _dimensions_as_json(tree(value))


def _dimensions_as_json(data: Any) -> Any:
    if isinstance(data, gt.Dimension):
        return {"class": "Dimension", "value": data.value, "kind": data.kind}
    if isinstance(data, dict):
        return {key: _dimensions_as_json(item) for key, item in data.items()}
    if isinstance(data, list):
        return [_dimensions_as_json(item) for item in data]
    return data


def typed(cell: Cell) -> dict[str, Any]:
    """A type's entry: `type` (our notation), `tree`, and when it is ground `gt4py` and
    `gt4py_str`."""
    entry: dict[str, Any] = {"type": pformat_gtir(cell), "tree": json_tree(to_value(cell))}
    return entry | _gt4py_keys(cell)


def _gt4py_keys(cell: Cell) -> dict[str, Any]:
    """`gt4py` and `gt4py_str` of a ground type; nothing for another."""
    value = ground_gt4py(cell)
    if value is None:
        return {}
    return {"gt4py": gt.type_to_json(value), "gt4py_str": gt4py_str(value)}


def program_tree(type_: GtirInferred) -> Any:
    """The tree of a program's type (`{"class": "Program", "name", "definitions", "params"}`),
    of a definition's (its type's), or of an expression's."""
    if isinstance(type_, GtirDefinition):
        return json_tree(type_.type)
    if not isinstance(type_, GtirProgram):
        return json_tree(type_)
    return {
        "class": "Program",
        "name": type_.name,
        "definitions": [_definition_tree(d) for d in type_.definitions],
        "params": [json_tree(p) for p in type_.params],
    }


def _definition_tree(definition: GtirDefinition) -> Any:
    """As a fencil's definition's: its type, and the `where` clause's parts (`relations`),
    without which the type reads as too general."""
    return {
        "class": "Definition",
        "name": definition.name,
        "type": json_tree(definition.type),
        "relations": list(definition.relations),
    }


def program_report(inference: GtirInference) -> dict[str, Any]:
    """The report's GTIR keys of a program typed without errors: `params`,
    `function_definitions`, `temporaries` (`[{"name", "type", "tree", "gt4py"?,
    "gt4py_str"?}]`) and
    `set_ats` (`[{"path", "target", "expr", "target_type", "domain"}]`, `target` the target's
    text, the other three types)."""
    parts = program_parts(inference)
    at = inference.type_at

    def definition(name: str, position: int) -> dict[str, Any]:
        shown = definition_at(inference, position)
        text = shown.text.removeprefix(f"{name} :: ")  # its type, with its `where` clause
        tree = json_tree(shown.type)
        found = {"name": name, "type": text, "tree": tree, "relations": list(shown.relations)}
        return found | _gt4py_keys(at(position))

    return {
        "params": [{"name": n, **typed(at(p))} for n, p in parts.params],
        "function_definitions": [definition(n, p) for n, p in parts.definitions],
        "temporaries": [{"name": n, **typed(at(p))} for n, p in parts.temporaries],
        "set_ats": [
            {
                "path": s.path,
                "target": pformat(s.node.target),
                "expr": typed(at(s.expr)),
                "target_type": typed(at(s.target)),
                "domain": typed(at(s.domain)),
            }
            for s in parts.set_ats
        ],
    }


def type_lines(type_: GtirInferred, one_line: bool = False) -> list[str]:
    """A type as `typeinf infer` and snapshots print it: a program's one line per function
    definition, then its own `p(…)` (with `one_line`, all as one `{f :: …, p(…)}`); an
    expression's on one line."""
    if isinstance(type_, GtirProgram) and not one_line:
        return [*map(str, type_.definitions), type_.signature]
    return [str(type_)]


def definition_lines(type_: GtirInferred | None) -> list[str]:
    """A program's function definitions' types (`--defs`)."""
    return [str(d) for d in type_.definitions] if isinstance(type_, GtirProgram) else []


def entry(value: GtirInferred) -> dict[str, Any]:
    """A node's type as `--json --all` gives it: `type` and `tree`."""
    return {"type": str(value), "tree": program_tree(value)}


def every_node(solved: GtirSolved) -> list[tuple[Node, GtirInferred]]:
    """`--all`: every node with a type, in pre-order."""
    return [] if solved.inference is None else typed_nodes(solved.inference)


def every_node_shared(solved: GtirSolved) -> tuple[list[tuple[Node, str]], str]:
    """`--all --shared-names`: every node with a type and its type's text, in pre-order, all
    numbered as one (function definitions and the program too, as the fencil IR's), and the
    one `where` clause they share ("" if none)."""
    inference = solved.inference
    if inference is None:
        return [], ""
    nodes = [node for node, _ in typed_nodes(inference)]
    wanted = {id(node) for node in nodes}
    types: dict[int, Type] = {}
    for position, node in enumerate(inference.nodes):
        if id(node) in wanted and id(node) not in types:
            types[id(node)] = _core_type(inference, position)
    check_printable(list(types.values()))
    printer = GtirPrinter(list(types.values()))
    texts = [(node, printer.format(types[id(node)])) for node in nodes]
    return texts, printer.where().strip()


def _core_type(inference: GtirInference, position: int) -> Type:
    """The type of the node at `position` as the core's printer takes it: a function
    definition's with its relations; the program's as a fencil's (`{f :: …, p(…)}`)."""
    node = inference.nodes[position]
    if isinstance(node, FunctionDefinition) and position in inference.schemes:
        return definition_type(inference, position)
    if isinstance(node, Program):
        positions = child_positions(inference.sizes, position, node.child_count())
        ndefs, nparams = len(node.function_definitions), len(node.params)
        definitions = tuple(definition_type(inference, p) for p in positions[:ndefs])
        params = tuple(inference.type_at(p) for p in positions[ndefs : ndefs + nparams])
        return FencilType(node.id, definitions, params)
    return inference.type_at(position)


def report(solved: GtirSolved) -> dict[str, Any]:
    """The keys of a GTIR file's `--json` report besides its diagnostics: `type` and `tree`
    (null without them), `gt4py` and `gt4py_str` for an expression of ground type, and a
    program's parts
    (`program_report`)."""
    type_ = solved.type
    if type_ is None or solved.inference is None:
        return {"type": None}
    found: dict[str, Any] = {"type": str(type_), "tree": program_tree(type_)}
    if not isinstance(type_, GtirProgram):
        return found | _gt4py_keys(solved.inference.type_at(0))
    return found | program_report(solved.inference)
