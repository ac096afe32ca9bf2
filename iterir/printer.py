"""Print nodes in GT4Py's ITIR text syntax, breaking long programs into readable lines.

Two passes, both linear and without recursion: `_tokens` turns the tree into a stream of text,
group and line-break tokens (inserting only the parentheses precedence requires), then `_layout`
measures every group once and prints each one flat if it fits in the line, broken otherwise.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from itertools import islice
from typing import TypeAlias

from iterir import gtir_types as gt
from iterir import vocabulary as voc
from iterir.jsontext import dumps
from iterir.nodes import (
    GTIR_CLASSES,
    AxisLiteral,
    CartesianOffset,
    FencilDefinition,
    FunCall,
    FunctionDefinition,
    IfStmt,
    InfinityLiteral,
    Lambda,
    Literal,
    Node,
    OffsetLiteral,
    Program,
    SetAt,
    StencilClosure,
    Sym,
    SymRef,
    Temporary,
    holds_gtir,
)
from iterir.traversal import check_tree

WIDTH = 100
MAX_INDENT = 60  # deeper nesting stops indenting, so that deep programs print in linear size


class _Break:
    """A place to break a line: `flat` when its group fits, else a newline and indentation."""

    __slots__ = ("dedent", "fill", "flat", "hang")

    def __init__(
        self, flat: str | None, dedent: bool = False, fill: int = 0, hang: int = 0
    ) -> None:
        self.flat = flat  # None: always a newline
        self.dedent = dedent  # the closing break of a group goes back to the outer indentation
        # fill > 0: even in a broken group, break only if the next `fill` columns do not fit.
        self.fill = fill
        # hang > 0: a broken line goes `hang` columns further in, and the rest of the group too
        # (GTIR's `target @ domain` / `     ← expr;`).
        self.hang = hang


class _Mark:
    """Where a group begins or ends: `BEGIN` or `END`, told apart by identity."""

    __slots__ = ()


BEGIN, END = _Mark(), _Mark()
SPACE, SOFT, CLOSE, SPACE_CLOSE, HARD, HANG = (
    _Break(" "),
    _Break(""),
    _Break("", dedent=True),
    _Break(" ", dedent=True),
    _Break(None),
    _Break(" ", hang=3),
)
Token: TypeAlias = str | _Break | _Mark
Piece: TypeAlias = Token | tuple[Node, int]  # a token, or a node to print at a minimum precedence


def pformat(node: Node) -> str:
    """The text of `node`, lines broken to fit in WIDTH columns where possible. GTIR (a tree
    with anything only GTIR has, `is_gtir`) prints in GTIR's syntax, else in the fencil IR's.
    A cycle or a tree too large once shared subtrees are written out is a TreeShapeError."""
    check_tree(node)
    return _layout(list(_tokens(node, is_gtir(node))))


def pformat_short(node: Node, limit: int = 80) -> str:
    """The text of `node` on one line, cut to `limit` characters (for reprs and messages).
    Which notation is guessed from the first `limit` nodes; a node only GTIR has met after them
    (a `let`'s value prints before its body) has it printed again as GTIR."""
    gtir = is_gtir(node, limit)
    try:
        return _short(node, limit, gtir)
    except _GtirOnly:
        return _short(node, limit, True)


class _GtirOnly(Exception):
    """The fencil IR's notation met a node only GTIR has."""


def _short(node: Node, limit: int, gtir: bool) -> str:
    out, size = [], 0
    for token in _tokens(node, gtir):
        if type(token) is str:
            text = token
        elif isinstance(token, _Break):
            text = token.flat if token.flat is not None else " "
        else:
            continue
        out.append(text)
        size += len(text)
        if size > limit:
            return "".join(out)[: limit - 1] + "…"
    return "".join(out)


def name_text(name: str) -> str:
    """A name as written: bare when it can be, else in backquotes with JSON string escapes."""
    if voc.is_plain_name(name):
        return name
    escaped = dumps(name)[1:-1].replace("`", "\\u0060")
    return f"`{escaped}`"


def literal_text(value: str, dtype: str) -> str:
    """A literal as written: bare for bool, int32 and float64 where the text allows, else with
    a type suffix (`1.0f32`, `3i64`), or quoted when the text is not a number (`"inf"f64`)."""
    suffix = voc.PRIMITIVE_SUFFIXES.get(dtype)
    if suffix is None:
        raise ValueError(f"cannot print a literal of type {dtype!r}: not a primitive type")
    if dtype == "bool" and value in ("True", "False"):
        return value
    if dtype == "int32" and voc.INT_RE.fullmatch(value):
        return value
    if dtype == "float64" and voc.FLOAT_RE.fullmatch(value):
        return value
    if voc.NUMBER_BODY_RE.fullmatch(value):
        return value + suffix
    return dumps(value) + suffix


def sym_text(sym: Sym) -> str:
    """A parameter with its optional annotation: `x`, `x: It[float64]`, `x: L[int32]`."""
    text = name_text(sym.id)
    if sym.kind is None and sym.dtype is None:
        return text
    dtype = None
    if sym.dtype is not None:
        name, is_list = sym.dtype
        if name not in voc.PRIMITIVES:
            raise ValueError(f"cannot print parameter {sym.id!r}: unknown dtype {name!r}")
        dtype = f"L[{name}]" if is_list else name
    if sym.kind is None:
        return f"{text}: {dtype}"
    head = {"Iterator": "It", "Value": "Val"}.get(sym.kind)
    if head is None:
        raise ValueError(f"cannot print parameter {sym.id!r}: unknown kind {sym.kind!r}")
    return f"{text}: {head}" if dtype is None else f"{text}: {head}[{dtype}]"


def is_gtir(root: Node, limit: int | None = None) -> bool:
    """Whether `root` prints as GTIR: a GTIR statement or program, or a tree holding a node
    only GTIR has (`nodes.holds_gtir`). `limit` looks at that many nodes at most."""
    if isinstance(root, GTIR_CLASSES):
        return True
    if isinstance(root, (FencilDefinition, StencilClosure)):
        return False
    return holds_gtir(islice(_objects(root), limit))


def _objects(root: Node) -> Iterator[object]:
    """What `root` holds, each node before its children but the last child first (so a
    `limit` can miss a node only GTIR has early in the text: `pformat_short` then prints again as
    GTIR). A tree built in Python may hold anything (the printer says so where it prints it), so
    a child that is no node is given and not entered."""
    stack: list[object] = [root]
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, Node):
            stack.extend(node.children())


def _tokens(root: Node, gtir: bool) -> Iterator[Token]:
    pieces = _gtir_pieces if gtir else _pieces
    stack: list[Piece] = [(root, voc.LAMBDA_PRECEDENCE)]
    while stack:
        item = stack.pop()
        if type(item) is tuple:
            stack.extend(reversed(pieces(*item)))
        else:
            yield item  # type: ignore[misc]  # not a tuple: a token


def _listed(items: tuple[Node, ...] | list[Node]) -> list[Piece]:
    """`a, b, c`, each item at the lowest precedence, with a break after every comma."""
    out: list[Piece] = []
    for i, item in enumerate(items):
        if i:
            out += [",", SPACE]
        out.append((item, voc.LAMBDA_PRECEDENCE))
    return out


def _params(
    open_: str, params: tuple[Sym, ...], text_of: Callable[[Sym], str] = sym_text
) -> list[Piece]:
    """`open_p1, p2)`, as many parameters on each line as fit."""
    pieces: list[Piece] = [open_, BEGIN]
    for i, param in enumerate(params):
        text = text_of(param)
        pieces += [",", _Break(" ", fill=len(text) + 2), text] if i else [text]
    return [*pieces, END, ")"]


def _group(open_: str, items: tuple[Node, ...] | list[Node], close: str) -> list[Piece]:
    """`open_ items close`, the items one per line when they do not fit."""
    return [open_, BEGIN, SOFT, *_listed(items), CLOSE, END, close]


def _parenthesized(pieces: list[Piece], precedence: int, minimum: int) -> list[Piece]:
    return ["(", *pieces, ")"] if precedence < minimum else pieces


def _pieces(node: Node, minimum: int) -> list[Piece]:
    """What `node` prints as, in a place that needs at least precedence `minimum`."""
    if isinstance(node, SymRef):
        return [name_text(node.id)]
    if isinstance(node, Literal):
        return [literal_text(node.value, node.type)]
    if isinstance(node, OffsetLiteral):
        value = node.value
        return [(str(value) if isinstance(value, int) else name_text(value)) + "ₒ"]
    if isinstance(node, AxisLiteral):
        return [name_text(node.value) + "ₐ"]
    if isinstance(node, Sym):
        return [sym_text(node)]
    if isinstance(node, Lambda):
        pieces: list[Piece] = [BEGIN, *_params("λ(", node.params), " →", SPACE, (node.expr, 0), END]
        return _parenthesized(pieces, voc.LAMBDA_PRECEDENCE, minimum)
    if isinstance(node, FunCall):
        return _call_pieces(node, minimum)
    if isinstance(node, FunctionDefinition):
        head = _params(f"{name_text(node.id)} = λ(", node.params)
        return [BEGIN, *head, " →", SPACE, (node.expr, 0), ";", END]
    if isinstance(node, StencilClosure):
        return [
            BEGIN,
            (node.output, 0),
            " ←",
            SPACE,
            "(",
            (node.stencil, 0),
            ")",
            *_group("(", node.inputs, ")"),
            " @",
            SPACE,
            (node.domain, 0),
            ";",
            END,
        ]
    if isinstance(node, FencilDefinition):
        body: list[Piece] = []
        for item in (*node.function_definitions, *node.closures):
            body += [HARD, (item, 0)]
        return [*_params(f"{name_text(node.id)}(", node.params), " {", BEGIN, *body, END, HARD, "}"]
    if isinstance(node, GTIR_CLASSES):
        raise _GtirOnly
    raise TypeError(f"cannot print {type(node).__name__}: not an IR node")


def _call_pieces(
    node: FunCall,
    minimum: int,
    infix: dict[str, tuple[str, int]] = voc.INFIX_BY_BUILTIN,
    prefix: dict[str, str] = voc.PREFIX_BY_BUILTIN,
) -> list[Piece]:
    """A call, in its sugared form where the callee is a builtin with sugar (and no type of its
    own, which the sugar could not show)."""
    name = node.fun.id if isinstance(node.fun, SymRef) and node.fun.type is None else None
    args = node.args
    if name in infix and len(args) == 2:
        return _infix_chain(node, minimum, infix)
    if name in prefix and len(args) == 1:
        pieces: list[Piece] = [prefix[name], (args[0], voc.PREFIX_PRECEDENCE)]
        return _parenthesized(pieces, voc.PREFIX_PRECEDENCE, minimum)
    if name == "if_" and len(args) == 3:
        level = voc.IF_PRECEDENCE
        pieces = [
            BEGIN,
            "if ",
            (args[0], level),
            SPACE,
            "then ",
            (args[1], level),
            SPACE,
            "else ",
            (args[2], level),
            END,
        ]
        return _parenthesized(pieces, level, minimum)
    if name == "tuple_get" and len(args) == 2:
        pieces = [(args[1], voc.POSTFIX_PRECEDENCE), "[", (args[0], 0), "]"]
        return _parenthesized(pieces, voc.POSTFIX_PRECEDENCE, minimum)
    if name == "make_tuple":
        return _group("{", args, "}")
    if name == "shift":
        return _group("⟪", args, "⟫")
    if name in ("cartesian_domain", "unstructured_domain"):
        return [f"{name[0]}⟨", BEGIN, SPACE, *_listed(args), SPACE_CLOSE, END, "⟩"]
    if name == "named_range" and len(args) == 3 and isinstance(args[0], AxisLiteral):
        return [f"{name_text(args[0].value)}: [", (args[1], 0), ", ", (args[2], 0), ")"]
    pieces = [(node.fun, voc.POSTFIX_PRECEDENCE), *_group("(", args, ")")]
    return _parenthesized(pieces, voc.POSTFIX_PRECEDENCE, minimum)


def _infix_chain(node: FunCall, minimum: int, infix: dict[str, tuple[str, int]]) -> list[Piece]:
    """`a + b - c` as one group: the left-nested calls of one precedence level, flattened."""
    level = infix[node.fun.id][1]  # type: ignore[union-attr]  # the caller found `fun` a SymRef
    rights: list[Piece] = []
    left: Node = node
    while (
        isinstance(left, FunCall)
        and isinstance(left.fun, SymRef)
        and left.fun.type is None
        and left.fun.id in infix
        and len(left.args) == 2
        and infix[left.fun.id][1] == level
    ):
        symbol = infix[left.fun.id][0]
        rights += [(left.args[1], level + 1), f"{symbol} ", SPACE]
        left = left.args[0]
    pieces: list[Piece] = [BEGIN, (left, level), *reversed(rights), END]
    return _parenthesized(pieces, level, minimum)


# -- GTIR ----------------------------------------------------------------------------------------
def gtir_literal_text(value: str, dtype: str) -> str:
    """A GTIR literal as GT4Py writes it: bare where the text implies the type (`1`, `1.0`,
    `True`), else typed (`1:i64`, `1.0:f32`), quoted when the text is not a number."""
    short = gt.ABBREVIATIONS.get(dtype)
    if short is None:
        raise ValueError(f"cannot print a literal of type {dtype!r}: not a scalar type")
    if (
        (dtype == "bool" and value in ("True", "False"))
        or (dtype == "int32" and voc.INT_RE.fullmatch(value))
        or (dtype == "float64" and voc.FLOAT_RE.fullmatch(value))
    ):
        return value
    if voc.NUMBER_BODY_RE.fullmatch(value) or value in ("True", "False"):
        return f"{value}:{short}"
    return dumps(value) + ":" + short


def type_text(value: gt.GType, braces: bool = False) -> str:
    """A GTIR type in text (docs/gtir.md): `Field[[IDimₕ, KDimᵥ], f64]`."""
    return gt.type_text(value, name_text, braces)


def axis_text(axis: AxisLiteral) -> str:
    """`IDimₕ`, `KDimᵥ`, `V2Eₗ`; the fencil IR's axes, which have no kind, `IDimₐ`."""
    return name_text(axis.value) + ("ₐ" if axis.kind is None else gt.KIND_SUFFIXES[axis.kind])


def gtir_sym_text(sym: Sym) -> str:
    """A GTIR parameter with its type, if it has one: `x`, `inp: Field[[IDimₕ], f64]`."""
    if sym.kind is not None or sym.dtype is not None:
        return sym_text(sym)
    if sym.type is None:
        return name_text(sym.id)
    return f"{name_text(sym.id)}: {type_text(sym.type)}"


def _statements(items: tuple[Node, ...]) -> list[Piece]:
    """Each item on its own line, indented."""
    body: list[Piece] = [BEGIN]
    for item in items:
        body += [HARD, (item, 0)]
    return [*body, END]


def _gtir_pieces(node: Node, minimum: int) -> list[Piece]:
    """What a GTIR node prints as, in a place that needs at least precedence `minimum`."""
    cls = type(node)
    if cls is SymRef:
        ref: SymRef = node  # type: ignore[assignment]  # cls is SymRef
        if ref.type is None:
            return [name_text(ref.id)]
        return [f"({name_text(ref.id)}: {type_text(ref.type)})"]
    if cls is Literal:
        literal: Literal = node  # type: ignore[assignment]  # cls is Literal
        return [gtir_literal_text(literal.value, literal.type)]
    if cls is AxisLiteral:
        return [axis_text(node)]  # type: ignore[arg-type]  # cls is AxisLiteral
    if isinstance(node, Sym):
        return [gtir_sym_text(node)]
    if isinstance(node, InfinityLiteral):
        return ["∞" if node.name == "POSITIVE" else "-∞"]
    if isinstance(node, CartesianOffset):
        return [f"{axis_text(node.domain)}→{axis_text(node.codomain)}"]
    if isinstance(node, FunCall):
        args = node.args
        if (
            isinstance(node.fun, SymRef)
            and node.fun.id == "named_range"
            and len(args) == 3
            and isinstance(args[0], AxisLiteral)
            and args[0].kind is not None
        ):
            # `IDimₕ: [lo, hi[`: its last `[` reads as a range's end only before what ends an
            # expression at the lowest precedence, so elsewhere it takes parentheses.
            pieces: list[Piece] = [
                f"{axis_text(args[0])}: [",
                (args[1], 0),
                ", ",
                (args[2], 0),
                "[",
            ]
            return _parenthesized(pieces, voc.LAMBDA_PRECEDENCE, minimum)
        return _call_pieces(node, minimum, voc.GTIR_INFIX_BY_BUILTIN, voc.GTIR_PREFIX_BY_BUILTIN)
    if isinstance(node, Lambda):
        pieces = [
            BEGIN,
            *_params("λ(", node.params, gtir_sym_text),
            " →",
            SPACE,
            (node.expr, 0),
            END,
        ]
        return _parenthesized(pieces, voc.LAMBDA_PRECEDENCE, minimum)
    if isinstance(node, FunctionDefinition):
        head = _params(f"{name_text(node.id)} = λ(", node.params, gtir_sym_text)
        return [BEGIN, *head, " →", SPACE, (node.expr, 0), ";", END]
    if isinstance(node, SetAt):
        return [
            BEGIN,
            (node.target, 0),
            " @ ",
            (node.domain, 0),
            HANG,
            "← ",
            (node.expr, 0),
            ";",
            END,
        ]
    if isinstance(node, IfStmt):
        return [
            "if (",
            (node.cond, 0),
            ") {",
            *_statements(node.true_branch),
            HARD,
            "} else {",
            *_statements(node.false_branch),
            HARD,
            "}",
        ]
    if isinstance(node, Temporary):
        fields: list[Piece] = []
        if node.domain is not None:
            fields += ["domain=", (node.domain, 0)]
        if node.dtype is not None:
            fields += [",", SPACE] if fields else []
            fields.append("dtype=" + type_text(node.dtype, braces=True))
        opening = f"{name_text(node.id)} = temporary("
        return [opening, BEGIN, SOFT, *fields, CLOSE, END, ");"]
    if isinstance(node, Program):
        # A program with no statements would read back as a fencil: `program` marks it.
        mark = "" if node.declarations or node.body else "program "
        head = _params(f"{mark}{name_text(node.id)}(", node.params, gtir_sym_text)
        items = (*node.function_definitions, *node.declarations, *node.body)
        return [*head, " {", *_statements(items), HARD, "}"]
    return _pieces(node, minimum)


def _layout(tokens: list[Token]) -> str:
    """Print the token stream; a group goes flat when it fits on the rest of the line."""
    never_fits = WIDTH * 1000
    widths: dict[int, int] = {}
    starts: list[tuple[int, int]] = []
    position = 0
    for i, token in enumerate(tokens):
        if type(token) is str:
            position += len(token)
        elif token is BEGIN:
            starts.append((i, position))
        elif token is END:
            begin, start = starts.pop()
            widths[begin] = position - start
        else:
            flat = token.flat  # type: ignore[union-attr]  # not a str, BEGIN or END: a break
            position += never_fits if flat is None else len(flat)
    out: list[str] = []
    column = 0
    modes: list[tuple[bool, int]] = [(True, 0)]  # (broken, indentation) of each open group
    for i, token in enumerate(tokens):
        if type(token) is str:
            out.append(token)
            column += len(token)
        elif token is BEGIN:
            broken, indent = modes[-1]
            if broken and column + widths[i] > WIDTH:
                modes.append((True, min(indent + 2, MAX_INDENT)))
            else:
                modes.append((False, indent))
        elif token is END:
            modes.pop()
        else:
            brk: _Break = token  # type: ignore[assignment]  # not a str, BEGIN or END: a break
            # A hard break (`flat` None) stands only in broken groups (its group never fits)
            # and has no fill, so `text` is read below only where it is a str.
            text: str = brk.flat  # type: ignore[assignment]  # None only where it goes unread
            broken, indent = modes[-1]
            fill = brk.fill
            if broken and not (fill and column + len(text) + fill <= WIDTH):
                if brk.dedent:
                    indent = modes[-2][1] if len(modes) > 1 else 0
                elif brk.hang:
                    indent += brk.hang
                    modes[-1] = (broken, indent)
                out.append("\n" + " " * indent)
                column = indent
            else:
                out.append(text)
                column += len(text)
    return "".join(out)
