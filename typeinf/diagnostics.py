"""Type errors as a compiler developer reads them: where (file:line:col, a JSON path, or the node
itself), the source line with the offending expression underlined, the conflicting types, and
the reasons behind them, each with its own location.

    t.itir:1:13: error: type mismatch in the second argument of `plus`
        λ(x) → ·x + x
                    ^
      expected `T₀¹`, found `It[T₀¹]`; `Value` and `Iterator` differ (different constructors)
      note: this is `It[T₀¹]` because of the first argument of `deref` at 1:9
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass, field

from iterir import Node, SymRef, pformat_short
from iterir.errors import excerpt, source_line
from iterir.files import is_json
from typeinf.constraints import (
    Annotation,
    Argument,
    Call,
    CastOperand,
    ClosureDomain,
    ClosureInput,
    ClosureOutput,
    ClosureStencil,
    Conflict,
    DomainRange,
    NeighborsOperand,
    Note,
    Reason,
    RelationConflict,
    RelationOf,
    ShapedRule,
    ShiftStart,
    TupleElement,
    TupleGetOperand,
)
from typeinf.errors import TypeInferenceError, UnboundSymbolError, UnsatisfiableConstraintError
from typeinf.terms import Why

_BOLD, _RED, _CYAN, _RESET = "\x1b[1m", "\x1b[1;31m", "\x1b[1;36m", "\x1b[0m"


@dataclass
class Source:
    """Where a program came from, which decides how its nodes are located: by their spans in
    `text` (parsed text), by JSON paths (`json_root` is the program read from JSON), or by their
    own text (IR built in Python)."""

    filename: str | None = None
    text: str | None = None
    json_root: Node | None = None
    _paths: dict[int, str] | None = field(default=None, repr=False)

    def where(self, node: Node | None) -> str:
        """The location that heads a message: `file:line:col`, `file: $.path` or the node."""
        if node is None:
            return self.filename or "<program>"
        if node.loc is not None:
            return str(node.loc)
        path = self.json_path(node)
        if path is not None:
            return f"{self.filename or '<json>'}: {path}"
        return f"<ir> {pformat_short(node, 60)}"

    def at(self, node: Node) -> str:
        """A short location for a note: `line:col`, `$.path`, or the node in backquotes."""
        if node.loc is not None:
            return f"{node.loc.line}:{node.loc.column}"
        return self.json_path(node) or f"`{pformat_short(node, 40)}`"

    def json_path(self, node: Node) -> str | None:
        if self.json_root is None:
            return None
        if self._paths is None:
            self._paths = json_paths(self.json_root)
        return self._paths.get(id(node))


def source_of(filename: str, text: str, node: Node) -> Source:
    """The source of `node`, read from `text` (JSON or the text syntax) in `filename`."""
    if is_json(text, filename):
        return Source(filename, json_root=node)
    return Source(filename, text)


def json_paths(root: Node) -> dict[int, str]:
    """The JSON path of every node under `root` (a node used twice: its first occurrence)."""
    paths: dict[int, str] = {}
    stack: list[tuple[Node, str]] = [(root, "$")]
    while stack:
        node, path = stack.pop()
        if id(node) in paths:
            continue
        paths[id(node)] = path
        children: list[tuple[Node, str]] = []
        for name in node.child_fields:
            value = getattr(node, name)
            if type(value) is tuple:
                children += [(child, f"{path}.{name}[{i}]") for i, child in enumerate(value)]
            else:
                children.append((value, f"{path}.{name}"))
        stack.extend(reversed(children))
    return paths


def render(error: TypeInferenceError, source: Source, color: bool = False) -> str:
    """The whole diagnostic for `error`, several lines, without a final newline."""
    bold, red, cyan, reset = (_BOLD, _RED, _CYAN, _RESET) if color else ("", "", "", "")
    lines = [
        f"{bold}{source.where(error.node)}{reset}: {red}error{reset}: {bold}{error.summary}{reset}"
    ]
    span = error.node.loc if error.node is not None else None
    if span is not None and source.text is not None:
        text = source_line(source.text, span.line)
        end = span.end_column if span.end_line == span.line else len(text) + 1  # to the line's end
        shown, carets = excerpt(text, span.column, end).split("\n")
        lines += [shown, f"{red}{carets}{reset}"]
    lines += [f"  {detail}" for detail in error.details]
    lines += [f"  {cyan}note{reset}: {text} at {source.at(node)}" for text, node in error.notes]
    return "\n".join(lines)


# -- reasons and conflicts in words (the only place that words them) ------------------------------
_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth")


def ordinal(i: int) -> str:
    """`first` for 0, …, `ninth`, then `10th`, `11th`, …"""
    return _ORDINALS[i] if i < len(_ORDINALS) else f"{i + 1}th"


def callee_text(callee: Node) -> str:
    """How a message names a function: `plus`, or a short text of the expression."""
    return f"`{callee.id}`" if isinstance(callee, SymRef) else f"`{pformat_short(callee, 40)}`"


def reason_text(reason: Reason) -> str:
    """A reason as the words that complete "because of …" or "type mismatch in …"."""
    match reason:
        case Argument(index, callee, _):
            return f"the {ordinal(index)} argument of {callee_text(callee)}"
        case Call(count, callee, _):
            return f"the call of {callee_text(callee)} with {count} argument" + (
                "" if count == 1 else "s"
            )
        case Annotation(name):
            return f"the annotation of `{name}`"
        case TupleElement(index):
            return f"the {ordinal(index)} element of the tuple"
        case TupleGetOperand(index):
            return f"the tuple that `tuple_get` takes element {index} of"
        case ShiftStart(offset, origin):
            return f"the shift by `{offset}`, which starts from a {origin}"
        case NeighborsOperand(tag):
            return f"the iterator whose neighbors along `{tag}` are taken"
        case CastOperand():
            return "the value that `cast_` converts"
        case DomainRange(index):
            return f"the {ordinal(index)} range of the domain"
        case ClosureDomain():
            return "a closure's domain"
        case ClosureOutput():
            return "the closure's output, which is written through a column iterator"
        case ClosureInput(index):
            return f"the {ordinal(index)} input of the closure"
        case ClosureStencil(inputs):
            return f"the stencil, which is applied to the closure's {inputs} input{'' if inputs == 1 else 's'}"
        case ShapedRule(builtin):
            return f"the typing rule of {builtin}"
        case RelationOf(callee):
            return f"a relation of {callee_text(callee)}"


#: Why two types clash, in words.
WHY: dict[Why, str] = {
    "constants": "different constants",
    "sorts": "different sorts",
    "families": "incompatible families",
    "family": "outside the family",
    "items": "different numbers of items",
    "constructors": "different constructors",
    "unknown lengths": "a row of values against a row of lists of unknown length",
}


def _note(note: Note) -> tuple[str, Node]:
    because = reason_text(note.reason)
    if note.about == "expected":
        return f"`{note.printed}` is expected because of {because}", note.node
    if note.about == "callee":
        assert note.callee is not None  # a callee's note names it
        return f"{callee_text(note.callee)} is `{note.printed}` because of {because}", note.node
    if note.about == "actual":
        return f"this is `{note.printed}` because of {because}", note.node
    return f"`{note.printed}` comes from {because}", note.node


def cannot_hold(conflict: RelationConflict) -> UnsatisfiableConstraintError:
    """The error a relation that can never hold is, in words: `a relation of `larger` cannot
    hold: `T₂ = max(T₀, T₁)` with T₀ = bool, T₁ = int32 (`bool` has no place in the order)`."""
    said = reason_text(conflict.reason)
    detail = (
        f"`{conflict.shown}`"
        + (f" with {conflict.values}" if conflict.values else "")
        + f" ({conflict.why})"
    )
    notes: dict[int, tuple[str, Node]] = {}  # one note per node, the first
    for name, value, reason, at in conflict.notes:
        notes.setdefault(id(at), (f"{name} is `{value}` because of {reason_text(reason)}", at))
    return UnsatisfiableConstraintError(
        f"{said} cannot hold: {detail}",
        conflict.node,
        conflict.shown,
        conflict.values,
        summary=f"{said} cannot hold",
        details=[detail],
        notes=list(notes.values()),
    )


def unsatisfiable(conflict: Conflict) -> UnsatisfiableConstraintError:
    """The error a constraint that cannot hold is, in words."""
    reason = reason_text(conflict.reason)
    detail = f"expected `{conflict.expected}`, found `{conflict.actual}`"
    if {conflict.left, conflict.right} != {conflict.expected, conflict.actual}:
        detail += f"; `{conflict.left}` and `{conflict.right}` differ"
    detail += f" ({WHY[conflict.why]})" + conflict.where.replace(" where", "; where", 1)
    return UnsatisfiableConstraintError(
        f"type mismatch in {reason}: {detail}",
        conflict.node,
        conflict.expected,
        conflict.actual,
        summary=f"type mismatch in {reason}",
        details=[detail],
        notes=[_note(note) for note in conflict.notes],
    )


def unbound(
    name: SymRef, suggestions: tuple[str, ...], allowed: bool, in_definition: bool
) -> UnboundSymbolError:
    """The error a free name is: not defined (with the nearest known names, if any, how to allow
    it as an unknown, and, `in_definition` inferred on its own, how to give it its fencil), or,
    `allowed`, used where an unknown cannot be (a fencil's function definition, whose type is
    generalized)."""
    quoted = f"`{name.id}`"
    if allowed:
        return UnboundSymbolError(
            f"{quoted} is allowed to be free, but a function definition of a fencil cannot use an "
            f"unknown (its type is generalized, the unknown's would not be): make {quoted} a "
            "parameter",
            name,
        )
    message = f"{quoted} is not defined: not a parameter, a function definition or a builtin"
    if suggestions:
        message += f"; did you mean {' or '.join(f'`{s}`' for s in suggestions)}?"
    details = [
        f"if {quoted} is meant to be an unknown, allow it: `--allow-free {shlex.quote(name.id)}` "
        f"(in Python: `allow_free={{{name.id!r}}}`)"
    ]
    if in_definition:
        details.append(
            "if it is a function definition of the same fencil, infer this one within it: "
            "`infer(definition, within=fencil)`"
        )
    return UnboundSymbolError(message, name, details=details)
