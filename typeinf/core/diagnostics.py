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

from iterir import FunCall, FunctionDefinition, Literal, Node, Sym, SymRef, pformat_short
from iterir.display import escaped, shown
from iterir.errors import excerpt, source_line
from iterir.files import is_json
from iterir.nodes import Temporary
from iterir.trojan import BidiWarning
from typeinf.core.constraints import (
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
    GtirRule,
    InputUsedAsValue,
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
from typeinf.core.constructors import VAL, fixed_params
from typeinf.core.errors import (
    DuplicateNameError,
    GrammarBuiltinError,
    TypeInferenceError,
    UnboundSymbolError,
    UnsatisfiableConstraintError,
    node_text,
)
from typeinf.core.signatures import BUILTINS
from typeinf.core.terms import FAMILY_NAMES, Why, root_of

_BOLD, _RED, _CYAN, _RESET = "\x1b[1m", "\x1b[1;31m", "\x1b[1;36m", "\x1b[0m"
_MAGENTA = "\x1b[1;35m"

#: At most this many reasons are shown, as an error's notes or by `explain`; a line says how
#: many more there are.
MAX_REASONS = 8


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
        return f"<ir> {node_text(node, 60)}"

    def at(self, node: Node) -> str:
        """A short location for a note: `line:col`, `$.path`, or the node in backquotes."""
        if node.loc is not None:
            return f"{node.loc.line}:{node.loc.column}"
        return self.json_path(node) or f"`{node_text(node, 40)}`"

    def json_path(self, node: Node) -> str | None:
        if self.json_root is None:
            return None
        if self._paths is None:
            self._paths = json_paths(self.json_root)
        return self._paths.get(id(node))


def source_of(filename: str | None, text: str, node: Node) -> Source:
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
    where, summary = escaped(source.where(error.node)), shown(error.summary)
    lines = [f"{bold}{where}{reset}: {red}error{reset}: {bold}{summary}{reset}"]
    lines += _node_quoted(source, error.node, red, reset)
    lines += [f"  {shown(detail)}" for detail in error.details]
    lines += [
        f"  {cyan}note{reset}: {shown(f'{text} at {source.at(node)}')}"
        for text, node in error.notes
    ]
    return "\n".join(lines)


def _quoted(
    source: Source, line: int, column: int, end: int | None, red: str, reset: str
) -> list[str]:
    """The excerpt of line `line` of the source's text, columns [column, end) underlined (to
    the line's end when `end` is None); nothing without a text."""
    if source.text is None:
        return []
    text = source_line(source.text, line)
    quoted, carets = excerpt(text, column, len(text) + 1 if end is None else end).split("\n")
    return [quoted, f"{red}{carets}{reset}"]


def _node_quoted(source: Source, node: Node | None, red: str, reset: str) -> list[str]:
    """The excerpt that underlines `node`, if it was parsed from the source's text."""
    span = node.loc if node is not None else None
    if span is None:
        return []
    end = span.end_column if span.end_line == span.line else None  # None: to the line's end
    return _quoted(source, span.line, span.column, end, red, reset)


def render_warning(warning: BidiWarning, source: Source, color: bool = False) -> str:
    """A warning (`iterir.trojan`) as a diagnostic: where, what, and the line it is on."""
    bold, magenta, reset = (_BOLD, _MAGENTA, _RESET) if color else ("", "", "")
    if warning.line is not None and warning.column is not None:
        where = f"{source.filename or '<string>'}:{warning.line}:{warning.column}"
        quoted = _quoted(source, warning.line, warning.column, warning.column + 1, magenta, reset)
    else:
        where = source.where(warning.node)
        quoted = _node_quoted(source, warning.node, magenta, reset)
    message = shown(warning.message)
    head = f"{bold}{escaped(where)}{reset}: {magenta}warning{reset}: {bold}{message}{reset}"
    return "\n".join([head, *quoted])


# -- reasons and conflicts in words (the only place that words them) ------------------------------
_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth")


def ordinal(i: int) -> str:
    """`first` for 0, …, `ninth`, then `10th`, `11th`, …"""
    return _ORDINALS[i] if i < len(_ORDINALS) else f"{i + 1}th"


def callee_text(callee: Node) -> str:
    """How a message names a function: `plus`, or a short text of the expression."""
    return f"`{callee.id}`" if isinstance(callee, SymRef) else f"`{pformat_short(callee, 40)}`"


def arity_error(node: FunCall, params: int, given: int) -> UnsatisfiableConstraintError:
    """The error of a call that gives its callee, which takes `params` arguments, `given`."""
    return UnsatisfiableConstraintError(
        f"{callee_text(node.fun)} takes {params} argument{'' if params == 1 else 's'}, "
        f"but is given {given}",
        node,
        str(params),
        str(given),
    )


def rule_arity_error(call: FunCall, count: int) -> GrammarBuiltinError:
    """The error of a call of a builtin typed by a rule, which takes `count` arguments, with
    another number of them."""
    return GrammarBuiltinError(
        f"{callee_text(call.fun)} takes {count} arguments, not {len(call.args)}", call
    )


def declared_twice_error(
    node: Sym | FunctionDefinition | Temporary, first: Node
) -> DuplicateNameError:
    """The error of the name declared at `node` that `first` declared already, in one
    parameter list, or among a program's definitions, parameters and temporaries."""
    return DuplicateNameError(
        f"`{node.id}` is declared twice",
        node,
        notes=[(f"the first `{node.id}` is declared", first)],
    )


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
        case GtirRule(what):
            return f"the typing of {what}"


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


def more_reasons(count: int) -> str:
    """The line that says `count` reasons were left out: `…and 3 more`."""
    return f"…and {count} more"


def _at_most(notes: list[tuple[str, Node]]) -> list[tuple[str, Node]]:
    """`MAX_REASONS` notes, and then, if there are more, one that says how many, at the next."""
    if len(notes) <= MAX_REASONS:
        return notes
    rest = len(notes) - MAX_REASONS
    return [*notes[:MAX_REASONS], (f"{more_reasons(rest)}, the next", notes[MAX_REASONS][1])]


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
        notes=_at_most(list(notes.values())),
    )


def unsatisfiable(conflict: Conflict) -> UnsatisfiableConstraintError:
    """The error a constraint that cannot hold is, in words: in the stencil writer's terms where
    the clash has a name (a value dereferenced, a stencil of the wrong arity, a dtype outside
    what a builtin takes), else the two types and why they differ."""
    summary = f"type mismatch in {reason_text(conflict.reason)}"
    notes = [_note(note) for note in conflict.notes]
    if conflict.stencil_takes is not None:
        assert isinstance(conflict.reason, ClosureStencil)  # only its conflicts count inputs
        passes = conflict.reason.inputs
        summary = (
            f"the stencil takes {_count(conflict.stencil_takes, 'input')} but the closure "
            f"passes {passes}"
        )
        clash = ""
    elif _dereferences_a_value(conflict):
        summary = "a value is dereferenced: `·` (`deref`) reads the value an iterator points at"
        clash = ""
        origin = _became_a_value(conflict.node)
        if origin is not None:
            notes.insert(0, (origin, conflict.node))
    else:
        clash = _clash(conflict)
    detail = (
        f"expected `{conflict.expected}`, found `{conflict.actual}`"
        + clash
        + conflict.where.replace(" where", "; where", 1)
        + _hint(conflict)
    )
    return UnsatisfiableConstraintError(
        f"{summary}: {detail}",
        conflict.node,
        conflict.expected,
        conflict.actual,
        summary=summary,
        details=[detail],
        notes=_at_most(notes),
    )


def input_used_as_value(blamed: InputUsedAsValue) -> UnsatisfiableConstraintError:
    """A stencil input the closure passes as an iterator, used as a value: said at the use."""
    name = blamed.name
    summary = f"`{name}` is an iterator, used as a value in {reason_text(blamed.use)}"
    hint = f"did you mean `·{name}`?"
    passed = f"the closure passes an iterator as the stencil's {ordinal(blamed.index)} input"
    return UnsatisfiableConstraintError(
        f"{summary}: {hint}",
        blamed.node,
        "a value",
        "an iterator",
        summary=summary,
        details=[hint],
        notes=[(passed, blamed.stencil)],
    )


def _count(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


#: A family of dtypes, as what a builtin needs: `sqrt` needs a float.
_FAMILY_WORDS = {"float": "a float", "integer": "an integer", "numeric": "a number"}


def _family_words(family: frozenset[str]) -> str:
    name = FAMILY_NAMES.get(family)
    if name is not None:
        return _FAMILY_WORDS[name]
    return "one of " + ", ".join(f"`{member}`" for member in sorted(family))


def _clash(conflict: Conflict) -> str:
    """Why the clashing parts differ, after the two types: `; `float64` is not `int32``."""
    left, right, why = conflict.left, conflict.right, conflict.why
    if why == "constants":
        return (
            ""
            if (left, right) == (conflict.expected, conflict.actual)
            else f"; `{left}` is not `{right}`"
        )
    if why == "family" and conflict.families:
        family = conflict.families[0]
        reason = conflict.reason
        if isinstance(reason, Argument) and _parameter_family(reason) == family:
            return f"; {callee_text(reason.callee)} needs {_family_words(family)}, found `{right}`"
        return f"; `{left}` must be {_family_words(family)}, found `{right}`"
    if why == "families" and len(conflict.families) == 2:
        first, second = (_family_words(f) for f in conflict.families)
        return f"; no dtype is both {first} and {second}"
    differ = ""
    if {left, right} != {conflict.expected, conflict.actual}:
        differ = f"; `{left}` and `{right}` differ"
    return f"{differ} ({WHY[why]})"


def _hint(conflict: Conflict) -> str:
    """What the writer probably meant: `·x` for an iterator `x` where a value is expected."""
    node = conflict.node
    if (conflict.left, conflict.right) == ("Value", "Iterator") and isinstance(node, SymRef):
        return f"; did you mean `·{node.id}`?"
    return ""


def _parameter_family(reason: Argument) -> frozenset[str] | None:
    """The family the signature of a builtin restricts the dtype of its argument to (`sqrt`'s:
    `float`), if the callee is a builtin typed by a signature."""
    callee = reason.callee
    signature = BUILTINS.get(callee.id) if isinstance(callee, SymRef) else None
    type_ = signature.type if signature is not None else None
    params = fixed_params(type_) if type_ is not None else None
    if params is None or reason.index >= len(params):
        return None
    param = root_of(params[reason.index])
    return root_of(param.args[1]).family if param.ctor is VAL else None


def _dereferences_a_value(conflict: Conflict) -> bool:
    """The argument of `deref` is a value where an iterator is expected."""
    reason = conflict.reason
    return (
        isinstance(reason, Argument)
        and isinstance(reason.callee, SymRef)
        and reason.callee.id == "deref"
        and (conflict.left, conflict.right) == ("Iterator", "Value")
    )


def _became_a_value(node: Node) -> str | None:
    """Where the value `node` stands for became one, when the node itself says it."""
    if isinstance(node, FunCall):
        return f"this is a value: what {callee_text(node.fun)} returns"
    if isinstance(node, Literal):
        return "this is a value: a literal"
    return None


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
