"""Type errors as a compiler developer reads them: where (file:line:col, a JSON path, or the node
itself), the source line with the offending expression underlined, the conflicting types, and
the reasons behind them, each with its own location.

    t.itir:1:13: error: type mismatch in the second argument of `plus`
        λ(x) → ·x + x
                    ^
      expected `T₀¹`, found `It[T₀¹]`; `Value` and `Iterator` differ (different constructors)
      note: this is `It[T₀¹]` because of the first argument of `deref` at 1:9

Here is what both dialects say alike: the rendering, the reasons in words (`reason_text`), a
call's arity and a name declared twice. Each dialect words its own conflicts: the fencil IR in
`typeinf.fencil.messages`, GTIR in its solver (`typeinf.gtir.collect.GtirSolver`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from iterir import FunCall, FunctionDefinition, Node, Sym, SymRef, pformat_short
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
    DomainRange,
    GtirRule,
    NeighborsOperand,
    Reason,
    RelationOf,
    ShapedRule,
    ShiftStart,
    TupleElement,
    TupleGetOperand,
)
from typeinf.core.errors import (
    DuplicateNameError,
    GrammarBuiltinError,
    TypeInferenceError,
    UnsatisfiableConstraintError,
    node_text,
)

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


# -- reasons, arities and names declared twice in words, for both dialects ------------------------
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


def more_reasons(count: int) -> str:
    """The line that says `count` reasons were left out: `…and 3 more`."""
    return f"…and {count} more"
