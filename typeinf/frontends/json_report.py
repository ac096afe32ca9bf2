"""The `--json` output of `typeinf infer` (docs/json-output.md): one report per FILE, its type,
with `--all` every node's, and its diagnostics (type errors, parse errors, warnings), each
saying where by span, JSON path and the node's short text. Its objects are typed here, and
their keys print in the order they are made."""

from __future__ import annotations

from typing import Any, Literal, NotRequired, TypedDict, cast

import iterir
from iterir.trojan import BidiWarning
from typeinf.core.diagnostics import Source
from typeinf.core.errors import TypeInferenceError
from typeinf.core.terms import DefinitionType, FencilType, Type
from typeinf.core.values import Cyclic
from typeinf.fencil.convert import Converter
from typeinf.fencil.infer import Solved
from typeinf.fencil.notation import pformat
from typeinf.frontends import gtir_report
from typeinf.gtir.infer import GtirSolved
from typeinf.types import tree


def definitions(type_: Type | None) -> tuple[DefinitionType, ...]:
    """The function definitions a fencil's (or a definition's) type gives."""
    if isinstance(type_, FencilType):
        return type_.definitions
    return (type_,) if isinstance(type_, DefinitionType) else ()


class Span(TypedDict):
    line: int
    column: int | None
    end_line: int
    end_column: int | None


class Where(TypedDict):
    span: Span | None
    json_path: str | None
    node: str | None


class Note(TypedDict):
    message: str
    span: Span | None
    json_path: str | None
    node: str | None


class Diagnostic(TypedDict):
    severity: Literal["error", "warning"]
    kind: str
    message: str
    summary: str
    span: Span | None
    json_path: str | None
    node: str | None
    details: list[str]
    expected: str | None
    actual: str | None
    notes: list[Note]


class Typed(TypedDict):
    type: str
    tree: dict[str, Any]  # types.tree's


class Definition(TypedDict):
    name: str
    type: str
    tree: dict[str, Any]


class NodeReport(TypedDict):
    span: Span | None
    json_path: str | None
    node: str | None
    type: str
    tree: dict[str, Any]


class Report(TypedDict):
    file: str
    type: str | None
    tree: NotRequired[dict[str, Any]]
    definitions: NotRequired[list[Definition]]
    # GTIR's (`gtir_report.report`): an expression's `gt4py`, a program's parts
    gt4py: NotRequired[Any]
    params: NotRequired[list[dict[str, Any]]]
    function_definitions: NotRequired[list[dict[str, Any]]]
    temporaries: NotRequired[list[dict[str, Any]]]
    set_ats: NotRequired[list[dict[str, Any]]]
    nodes: NotRequired[list[NodeReport]]
    diagnostics: NotRequired[list[Diagnostic]]  # always there, added last: it is printed last


def _where(node: iterir.Node | None, source: Source) -> Where:
    """Where a node is, for JSON output: its span, or its JSON path, and its short text."""
    if node is None:
        return {"span": None, "json_path": None, "node": None}
    loc = node.loc
    span = None if loc is None else _span_json(loc.line, loc.column, loc.end_line, loc.end_column)
    return {
        "span": span,
        "json_path": source.json_path(node),
        "node": iterir.pformat_short(node, 60),
    }


def _span_json(line: int, column: int | None, end_line: int, end_column: int | None) -> Span:
    return {"line": line, "column": column, "end_line": end_line, "end_column": end_column}


def _diagnostic(
    kind: str,
    message: str,
    summary: str,
    at: Where,
    details: list[str],
    expected: str | None,
    actual: str | None,
    notes: list[Note],
) -> Diagnostic:
    """One entry of `diagnostics` in the JSON output (its schema is docs/json-output.md)."""
    return {
        "severity": "error",
        "kind": kind,
        "message": message,
        "summary": summary,
        **at,
        "details": details,
        "expected": expected,
        "actual": actual,
        "notes": notes,
    }


def report(
    path: str,
    node: iterir.Node,
    source: Source,
    checked: Solved | GtirSolved,
    *,
    every_node: bool,
    locations: bool,
) -> Report:
    """The JSON report of one FILE (`typeinf infer --json`): its type, with `every_node` every
    node's, and its type errors (docs/json-output.md)."""
    if isinstance(checked, GtirSolved):
        report = cast("Report", {"file": path, **gtir_report.report(checked)})
        if every_node:
            report["nodes"] = [
                cast("NodeReport", {**_where(part, source), **gtir_report.entry(value)})
                for part, value in gtir_report.every_node(checked)
            ]
        report["diagnostics"] = type_errors(checked.errors, source)
        return report
    return _fencil_report(path, node, source, checked, every_node, locations)


def _fencil_report(
    path: str, node: iterir.Node, source: Source, checked: Solved, every_node: bool, locations: bool
) -> Report:
    def typed(type_: Type) -> Typed | None:
        """The type's text and its value's tree (variables numbered as the located notation
        numbers this type); None for a type that contains itself (an infinite type's error says
        so), which has no tree."""
        try:
            value = Converter().program(type_)
        except Cyclic:
            return None
        return {"type": pformat(type_, locations), "tree": tree(value)}

    report: Report = {"file": path, "type": None}
    if checked.type is not None:
        shown = typed(checked.type)
        assert shown is not None  # a program without errors has a finite type
        report["type"], report["tree"] = shown["type"], shown["tree"]
        report["definitions"] = [
            {"name": d.name, **typed_definition}
            for d in definitions(checked.type)
            if (typed_definition := typed(d.type)) is not None
        ]
    if every_node:
        report["nodes"] = [
            {**_where(part, source), **shown_node}
            for part in iterir.walk(node)
            if id(part) in checked.types
            and (shown_node := typed(checked.types[id(part)])) is not None
        ]
    report["diagnostics"] = type_errors(checked.errors, source)
    return report


def type_errors(errors: list[TypeInferenceError], source: Source) -> list[Diagnostic]:
    """The type errors of a report's `diagnostics`."""
    return [
        _diagnostic(
            type(error).__name__,
            error.message,
            error.summary,
            _where(error.node, source),
            error.details,
            getattr(error, "expected", None),
            getattr(error, "actual", None),
            [{"message": text, **_where(node, source)} for text, node in error.notes],
        )
        for error in errors
    ]


def warning(warning: BidiWarning, source: Source) -> Diagnostic:
    """A warning (`iterir.trojan`), as an entry of `diagnostics`."""
    if warning.line is None:
        at = _where(warning.node, source)
    else:
        span = _span_json(warning.line, warning.column, warning.line, (warning.column or 0) + 1)
        at = {"span": span, "json_path": None, "node": None}
    entry = _diagnostic("BidiWarning", warning.message, warning.message, at, [], None, None, [])
    entry["severity"] = "warning"
    return entry


def parse_error(error: iterir.ParseError, filename: str) -> Diagnostic:
    """A ParseError in FILE (`filename`), or in its offset provider: that one's location is in the
    message, as a span would say where in FILE."""
    if error.filename != filename:
        message = f"{error.location}: {error.message}"
        nowhere: Where = {"span": None, "json_path": None, "node": None}
        return _diagnostic("ParseError", message, message, nowhere, [], None, None, [])
    span = (
        None
        if error.line is None
        else _span_json(error.line, error.column, error.line, error.end_column)
    )
    at: Where = {"span": span, "json_path": error.json_path, "node": None}
    return _diagnostic("ParseError", error.message, error.message, at, [], None, None, [])
