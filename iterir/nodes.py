"""The node classes of GT4Py's iterator IR (ITIR).

Nodes are immutable and compared structurally. A node's source span (`loc`) says where it came
from but takes no part in equality or hashing, so a parsed program equals the same program built
in Python. Equality and hashing walk the tree with an explicit stack, so a 100,000-level program
compares and hashes without touching the interpreter's recursion limit.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Iterator
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple, TypeAlias, TypeVar, cast

from iterir import vocabulary as voc
from iterir.display import value_text
from iterir.gtir_types import GType

if TYPE_CHECKING:
    from _typeshed import DataclassInstance


class SourceSpan(NamedTuple):
    """Where a node stands in a text file: 1-based line and column, end column exclusive.

    A named tuple, not a dataclass, so that the parsers make one with `tuple.__new__`, faster
    than a dataclass, checked or not: a parsed program has one a node (docs/performance.md,
    "Figures from the code's comments")."""

    filename: str | None
    line: int
    column: int
    end_line: int
    end_column: int

    def __str__(self) -> str:
        return f"{self.filename or '<string>'}:{self.line}:{self.column}"


_Made = TypeVar("_Made")


def trusted_constructor(cls: type[_Made]) -> Callable[..., _Made]:
    """A constructor of `cls` (a frozen dataclass with slots) taking every field positionally,
    `loc` last, that neither checks nor converts: for the parsers, whose nodes and spans are
    valid by construction (public construction stays checked). It fills the slots through their
    descriptors, which keeps the parsers' nodes off the checks (docs/performance.md, "Figures
    from the code's comments")."""
    names = [f.name for f in fields(cls)]  # type: ignore[arg-type]  # a dataclass
    namespace: dict[str, Any] = {"new": object.__new__, "cls": cls}
    namespace.update({f"set_{name}": cls.__dict__[name].__set__ for name in names})
    lines = [f"def make({', '.join(names)}):", "    o = new(cls)"]
    lines += [f"    set_{name}(o, {name})" for name in names]
    lines.append("    return o")
    exec("\n".join(lines), namespace)
    made: Callable[..., _Made] = namespace["make"]
    return made


def relocated(node: _Made, loc: SourceSpan) -> _Made:
    """`node` with the span `loc`, made unchecked like `trusted_constructor`'s nodes: for the
    parsers, which widen a parenthesized expression's span to its parentheses without public
    construction's checks of the fields again (docs/performance.md, "Figures from the code's
    comments")."""
    cls = type(node)
    relocate = _relocators.get(cls)
    if relocate is None:
        make = trusted_constructor(cls)
        names = [f.name for f in fields(cls) if f.name != "loc"]  # type: ignore[arg-type]
        relocate = _relocators[cls] = lambda node, loc: make(
            *[getattr(node, name) for name in names], loc
        )
    made: _Made = relocate(node, loc)
    return made


_relocators: dict[type, Callable[[Any, SourceSpan], Any]] = {}


class Node:
    """Base of all IR nodes: structural, iterative equality and a cached structural hash."""

    # `inferred_type` is where `typeinf.infer_all(..., attach=True)` leaves a node's type.
    __slots__ = ("_hash", "inferred_type")
    _hash: int  # set by `__hash__`, once per node

    #: Fields holding nodes or tuples of nodes, in field order; every other field but `loc` is a
    #: plain value. Filled in by `_register` for each concrete class.
    child_fields: ClassVar[tuple[str, ...]] = ()
    value_fields: ClassVar[tuple[str, ...]] = ()
    sequence_fields: ClassVar[tuple[str, ...]] = ()

    loc: SourceSpan | None

    def __post_init__(self) -> None:
        # Each node class has its own, generated from its fields (`_checker`).
        raise TypeError(f"{type(self).__name__} is not a node class of iterir")

    def children(self) -> tuple[Node, ...]:
        """The direct child nodes, in field order (each class lists its own)."""
        return ()

    def child_count(self) -> int:
        return len(self.children())

    def iter_children(self) -> Iterator[Node]:
        return iter(self.children())

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if not isinstance(other, Node):
            return NotImplemented
        pairs: list[tuple[object, object]] = [(self, other)]
        while pairs:
            a, b = pairs.pop()
            if a is b:
                continue
            if type(a) is not type(b):
                return False
            if type(a) is tuple:
                t: tuple[object, ...] = b  # type: ignore[assignment]  # type(b) is type(a)
                if len(a) != len(t):
                    return False
                pairs.extend(zip(a, t))  # noqa: B905  # lengths checked; a keyword costs time here
                continue
            assert isinstance(a, Node)
            ha, hb = _cached_hash(a), _cached_hash(b)
            if ha is not None and hb is not None and ha != hb:
                return False
            for name in a.value_fields:
                x, y = getattr(a, name), getattr(b, name)
                if type(x) is not type(y) or x != y:
                    return False
            pairs.extend((getattr(a, name), getattr(b, name)) for name in a.child_fields)
        return True

    def __ne__(self, other: object) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    def __hash__(self) -> int:
        cached = _cached_hash(self)
        if cached is not None:
            return cached
        # Reversed pre-order visits every child before its parent.
        order: list[Node] = []
        stack: list[Node] = [self]
        while stack:
            node = stack.pop()
            if _cached_hash(node) is None:
                order.append(node)
                stack.extend(node.iter_children())
        for node in reversed(order):
            key = (
                type(node).__name__,
                *(getattr(node, name) for name in node.value_fields),
                *(c._hash for c in node.iter_children()),
            )
            object.__setattr__(node, "_hash", hash(key))
        return self._hash

    def __repr__(self) -> str:
        from iterir.printer import pformat_short  # the printer depends on the nodes

        return f"{type(self).__name__}«{pformat_short(self)}»"


def _wrong_value(node: Node, name: str, value: object, expected: str) -> str:
    return f"{type(node).__name__}.{name} must be {expected}, not {value_text(value)}"


def _as_tuple(node: Node, name: str) -> None:
    """Builders and users may pass lists; tuples keep the node immutable and hashable."""
    value = getattr(node, name)
    if isinstance(value, (str, bytes)) or not hasattr(value, "__iter__"):
        raise TypeError(
            f"{type(node).__name__}.{name} must be a tuple or list of nodes, not {value_text(value)}"
        )
    object.__setattr__(node, name, tuple(value))


def _not_admitted(value: object, admitted: tuple[type, ...]) -> bool:
    return not isinstance(value, admitted) or type(value) is bool  # an int, but not a number


def _checker(cls: type[Node]) -> Callable[[Node], None]:
    """The `__post_init__` of `cls`, generated: its plain fields are checked once, when a node
    is made, so that every node that exists can be printed and typed (a tree's shape is checked
    where it is walked: `traversal.preorder`). The parser and the JSON reader make every node:
    generated code checks faster than a loop over `_VALUE_RULES` (docs/performance.md, "Figures
    from the code's comments").
    """
    namespace: dict[str, object] = {
        "_as_tuple": _as_tuple,
        "_not_admitted": _not_admitted,
        "_wrong_value": _wrong_value,
    }
    lines = ["def __post_init__(self):"]
    lines += [
        f"    if type(self.{name}) is not tuple: _as_tuple(self, {name!r})"
        for name in cls.sequence_fields
    ]
    for i, (name, exact, admitted, fits, expected) in enumerate(_VALUE_RULES[cls]):
        namespace.update({f"E{i}": exact, f"A{i}": admitted, f"F{i}": fits, f"X{i}": expected})
        lines += [
            f"    v = self.{name}",
            f"    if type(v) not in E{i} and _not_admitted(v, A{i}):",
            f"        raise TypeError(_wrong_value(self, {name!r}, v, X{i}))",
        ]
        if fits is not None:
            lines += [
                f"    if v is not None and not F{i}(v):",
                f"        raise ValueError(_wrong_value(self, {name!r}, v, X{i}))",
            ]
    if len(lines) == 1:
        lines.append("    pass")
    exec("\n".join(lines), namespace)
    return namespace["__post_init__"]  # type: ignore[return-value]  # the function just made


def _cached_hash(node: object) -> int | None:
    return getattr(node, "_hash", None)


def _register(cls: type[Node]) -> type[Node]:
    """Record which fields of `cls` hold one child, a tuple of children, or a plain value."""
    kinds = FIELD_KINDS[cls.__name__]
    cls.child_fields = tuple(name for name, kind in kinds.items() if kind != "value")
    cls.value_fields = tuple(name for name, kind in kinds.items() if kind == "value")
    cls.sequence_fields = tuple(name for name, kind in kinds.items() if kind == "nodes")
    dataclass_ = cast("type[DataclassInstance]", cls)  # every registered class is a dataclass
    assert [f.name for f in fields(dataclass_) if f.name != "loc"] == list(kinds), cls.__name__
    assert (cls.children is Node.children) == (not cls.child_fields), cls.__name__
    return cls


#: For each node class, its fields in GT4Py's order: "value" (plain data), "node" (one child),
#: "node?" (one child or None) or "nodes" (a tuple of children). The JSON codec and the
#: traversal helpers read this table. The fencil IR and GTIR share the expression classes:
#: `Sym.kind`/`dtype` are the fencil IR's annotations, `Sym.type`, `SymRef.type` and
#: `AxisLiteral.kind` GTIR's (None where a dialect has no such field).
FIELD_KINDS: dict[str, dict[str, str]] = {
    "Sym": {"id": "value", "kind": "value", "dtype": "value", "type": "value"},
    "SymRef": {"id": "value", "type": "value"},
    "Literal": {"value": "value", "type": "value"},
    "InfinityLiteral": {"name": "value"},
    "OffsetLiteral": {"value": "value"},
    "AxisLiteral": {"value": "value", "kind": "value"},
    "CartesianOffset": {"domain": "node", "codomain": "node"},
    "Lambda": {"params": "nodes", "expr": "node"},
    "FunCall": {"fun": "node", "args": "nodes"},
    "FunctionDefinition": {"id": "value", "params": "nodes", "expr": "node"},
    "StencilClosure": {"domain": "node", "stencil": "node", "output": "node", "inputs": "nodes"},
    "FencilDefinition": {
        "id": "value",
        "function_definitions": "nodes",
        "params": "nodes",
        "closures": "nodes",
    },
    "SetAt": {"expr": "node", "domain": "node", "target": "node"},
    "IfStmt": {"cond": "node", "true_branch": "nodes", "false_branch": "nodes"},
    "Temporary": {"id": "value", "domain": "node?", "dtype": "value"},
    "Program": {
        "id": "value",
        "function_definitions": "nodes",
        "params": "nodes",
        "declarations": "nodes",
        "body": "nodes",
    },
}

_LOC = field(default=None, kw_only=True)


@dataclass(frozen=True, slots=True, eq=False, repr=False)
class Sym(Node):
    """A declared name: a parameter. Fencil IR: `kind` is "Iterator" or "Value", `dtype` is
    (name, is_list). GTIR: `type`, the parameter's type (always set on program parameters)."""

    id: str
    kind: str | None = None
    dtype: tuple[str, bool] | None = None
    type: GType | None = None
    loc: SourceSpan | None = _LOC


@dataclass(frozen=True, slots=True, eq=False, repr=False)
class SymRef(Node):
    """A use of a name: a parameter, a function definition, a fencil parameter or a builtin.
    GTIR keeps a `type` on a reference free in a standalone expression."""

    id: str
    type: GType | None = None
    loc: SourceSpan | None = _LOC


@dataclass(frozen=True, slots=True, eq=False, repr=False)
class Literal(Node):
    """A constant: its text as written and its primitive type name (`int32`, `float64`, …)."""

    value: str
    type: str
    loc: SourceSpan | None = _LOC


@dataclass(frozen=True, slots=True, eq=False, repr=False)
class OffsetLiteral(Node):
    """An offset for `shift`/`neighbors`: an integer, or a tag naming a dimension/connectivity."""

    value: int | str
    loc: SourceSpan | None = _LOC


@dataclass(frozen=True, slots=True, eq=False, repr=False)
class AxisLiteral(Node):
    """A dimension name, as the first argument of `named_range`. GTIR gives it a `kind`
    ("horizontal", "vertical" or "local"), part of its identity; the fencil IR none."""

    value: str
    kind: str | None = None
    loc: SourceSpan | None = _LOC


@dataclass(frozen=True, slots=True, eq=False, repr=False)
class InfinityLiteral(Node):
    """GTIR: an unbounded end of a range, `∞` (name "POSITIVE") or `-∞` ("NEGATIVE")."""

    name: str
    loc: SourceSpan | None = _LOC


@dataclass(frozen=True, slots=True, eq=False, repr=False)
class CartesianOffset(Node):
    """GTIR: a Cartesian shift tag, `IDimₕ→JDimₕ`: from one axis to another."""

    domain: AxisLiteral
    codomain: AxisLiteral
    loc: SourceSpan | None = _LOC

    def children(self) -> tuple[Node, ...]:
        return (self.domain, self.codomain)


@dataclass(frozen=True, slots=True, eq=False, repr=False)
class Lambda(Node):
    """An anonymous function `λ(params) → expr`."""

    params: tuple[Sym, ...]
    expr: Expr
    loc: SourceSpan | None = _LOC

    def children(self) -> tuple[Node, ...]:
        return (*self.params, self.expr)


@dataclass(frozen=True, slots=True, eq=False, repr=False)
class FunCall(Node):
    """A call `fun(args…)`; builtins such as `deref` or `plus` are called through a SymRef."""

    fun: Expr
    args: tuple[Expr, ...]
    loc: SourceSpan | None = _LOC

    def children(self) -> tuple[Node, ...]:
        return (self.fun, *self.args)


@dataclass(frozen=True, slots=True, eq=False, repr=False)
class FunctionDefinition(Node):
    """A named function of a fencil, `id = λ(params) → expr;`."""

    id: str
    params: tuple[Sym, ...]
    expr: Expr
    loc: SourceSpan | None = _LOC

    def children(self) -> tuple[Node, ...]:
        return (*self.params, self.expr)


@dataclass(frozen=True, slots=True, eq=False, repr=False)
class StencilClosure(Node):
    """`output ← (stencil)(inputs…) @ domain;`: apply a stencil over a domain."""

    domain: Expr
    stencil: Expr
    output: Expr
    inputs: tuple[Expr, ...]
    loc: SourceSpan | None = _LOC

    def children(self) -> tuple[Node, ...]:
        return (self.domain, self.stencil, self.output, *self.inputs)


@dataclass(frozen=True, slots=True, eq=False, repr=False)
class FencilDefinition(Node):
    """A whole program: parameters, function definitions and stencil closures."""

    id: str
    function_definitions: tuple[FunctionDefinition, ...]
    params: tuple[Sym, ...]
    closures: tuple[StencilClosure, ...]
    loc: SourceSpan | None = _LOC

    def children(self) -> tuple[Node, ...]:
        return (*self.function_definitions, *self.params, *self.closures)


@dataclass(frozen=True, slots=True, eq=False, repr=False)
class SetAt(Node):
    """GTIR statement `target @ domain ← expr;`: write `expr` into `target` over `domain`."""

    expr: Expr
    domain: Expr
    target: Expr
    loc: SourceSpan | None = _LOC

    def children(self) -> tuple[Node, ...]:
        return (self.expr, self.domain, self.target)


@dataclass(frozen=True, slots=True, eq=False, repr=False)
class IfStmt(Node):
    """GTIR statement `if (cond) { … } else { … }`."""

    cond: Expr
    true_branch: tuple[Stmt, ...]
    false_branch: tuple[Stmt, ...]
    loc: SourceSpan | None = _LOC

    def children(self) -> tuple[Node, ...]:
        return (self.cond, *self.true_branch, *self.false_branch)


@dataclass(frozen=True, slots=True, eq=False, repr=False)
class Temporary(Node):
    """GTIR declaration `id = temporary(domain=…, dtype=…);`: a field the program allocates."""

    id: str
    domain: Expr | None = None
    dtype: GType | None = None
    loc: SourceSpan | None = _LOC

    def children(self) -> tuple[Node, ...]:
        return () if self.domain is None else (self.domain,)


@dataclass(frozen=True, slots=True, eq=False, repr=False)
class Program(Node):
    """GTIR's root: parameters, function definitions, temporaries and statements."""

    id: str
    function_definitions: tuple[FunctionDefinition, ...]
    params: tuple[Sym, ...]
    declarations: tuple[Temporary, ...]
    body: tuple[Stmt, ...]
    loc: SourceSpan | None = _LOC

    def children(self) -> tuple[Node, ...]:
        return (*self.function_definitions, *self.params, *self.declarations, *self.body)


#: The names a plain field may hold, for those drawn from a fixed set (the JSON codec reads
#: this table too).
FIELD_CHOICES: dict[tuple[str, str], tuple[str, ...]] = {
    ("AxisLiteral", "kind"): ("horizontal", "vertical", "local"),
    ("InfinityLiteral", "name"): ("POSITIVE", "NEGATIVE"),
    ("Sym", "kind"): ("Iterator", "Value"),
}


def _one_of(choices: tuple[str, ...]) -> str:
    return " or ".join(repr(choice) for choice in choices)


def _is_dtype_pair(value: object) -> bool:
    return (
        isinstance(value, tuple)
        and len(value) == 2
        and isinstance(value[0], str)
        and value[0] in voc.PRIMITIVES
        and type(value[1]) is bool
    )


_Rule = tuple[str, frozenset[type], tuple[type, ...], "Callable[[object], bool] | None", str]
_NONE = type(None)
_RULES: dict[tuple[str, str], tuple[tuple[type, ...], Callable[[object], bool] | None, str]] = {
    ("Sym", "dtype"): (
        (tuple, _NONE),
        _is_dtype_pair,
        "None or a (dtype name, is_list) pair such as ('float64', False)",
    ),
    ("Sym", "type"): ((GType, _NONE), None, "None or a GTIR type"),
    ("SymRef", "type"): ((GType, _NONE), None, "None or a GTIR type"),
    ("Temporary", "dtype"): ((GType, _NONE), None, "None or a GTIR type"),
    ("OffsetLiteral", "value"): ((int, str), None, "an int or a str"),
    ("Literal", "value"): ((str,), None, "a str (the literal's text, such as '1.0')"),
    ("Literal", "type"): (
        (str,),
        voc.PRIMITIVES.__contains__,
        "a primitive type name such as 'int32' or 'float64' (docs/notation.md)",
    ),
}


def _rule(cls: type[Node], name: str) -> _Rule:
    """How `__post_init__` checks the plain field `name` of `cls`."""
    known = _RULES.get((cls.__name__, name))
    if known is not None:
        admitted, fits, expected = known
    else:
        choices = FIELD_CHOICES.get((cls.__name__, name))
        optional = cls.__dataclass_fields__[name].default is None  # type: ignore[attr-defined]  # a dataclass
        admitted = (str, _NONE) if optional else (str,)
        fits = None if choices is None else choices.__contains__
        expected = (
            ("a str or None" if optional else "a str")
            if choices is None
            else ("None or " if optional else "") + _one_of(choices)
        )
    exact = frozenset(kind for kind in admitted if kind is not GType)
    return name, exact, admitted, fits, expected


Expr: TypeAlias = (
    SymRef
    | Literal
    | InfinityLiteral
    | OffsetLiteral
    | AxisLiteral
    | CartesianOffset
    | Lambda
    | FunCall
)
Stmt: TypeAlias = SetAt | IfStmt

NODE_CLASSES: dict[str, type[Node]] = {
    cls.__name__: _register(cls)
    for cls in (
        Sym,
        SymRef,
        Literal,
        OffsetLiteral,
        AxisLiteral,
        Lambda,
        FunCall,
        FunctionDefinition,
        StencilClosure,
        FencilDefinition,
        InfinityLiteral,
        CartesianOffset,
        SetAt,
        IfStmt,
        Temporary,
        Program,
    )
}
EXPR_CLASSES: tuple[type[Node], ...] = (
    SymRef,
    Literal,
    OffsetLiteral,
    AxisLiteral,
    Lambda,
    FunCall,
    InfinityLiteral,
    CartesianOffset,
)
_VALUE_RULES: dict[type[Node], tuple[_Rule, ...]] = {
    cls: tuple(_rule(cls, name) for name in cls.value_fields) for cls in NODE_CLASSES.values()
}
for _cls in NODE_CLASSES.values():
    _cls.__post_init__ = _checker(_cls)  # type: ignore[method-assign, assignment]  # its own
#: The node classes only GTIR has (the expression classes are shared with the fencil IR).
GTIR_CLASSES: tuple[type[Node], ...] = (
    InfinityLiteral,
    CartesianOffset,
    SetAt,
    IfStmt,
    Temporary,
    Program,
)


def holds_gtir(nodes: Iterable[object], names: Collection[str] = ()) -> bool:
    """Whether any of `nodes` is one only GTIR has: a node of a GTIR class, a name with a type,
    an axis with a kind, or a reference to one of `names` (GTIR-only builtins a caller counts).
    The one definition of what marks a tree as GTIR, for the printer (which notation) and for
    inference (which dialect)."""
    for node in nodes:
        cls = type(node)
        if cls is SymRef:
            ref: SymRef = node  # type: ignore[assignment]  # cls is SymRef
            if ref.type is not None or ref.id in names:
                return True
        elif cls is Sym:
            if node.type is not None:  # type: ignore[attr-defined]  # cls is Sym
                return True
        elif cls is AxisLiteral:
            if node.kind is not None:  # type: ignore[attr-defined]  # cls is AxisLiteral
                return True
        elif cls in _GTIR_CLASS_SET:
            return True
    return False


#: `GTIR_CLASSES` as a set: a class not in it is told apart by one hash, not six comparisons.
_GTIR_CLASS_SET = frozenset(GTIR_CLASSES)


#: Which node classes each child field admits; a field not listed admits any expression.
ALLOWED_CHILDREN: dict[tuple[str, str], tuple[str, ...]] = {
    ("Lambda", "params"): ("Sym",),
    ("FunctionDefinition", "params"): ("Sym",),
    ("FencilDefinition", "params"): ("Sym",),
    ("FencilDefinition", "function_definitions"): ("FunctionDefinition",),
    ("FencilDefinition", "closures"): ("StencilClosure",),
    ("CartesianOffset", "domain"): ("AxisLiteral",),
    ("CartesianOffset", "codomain"): ("AxisLiteral",),
    ("IfStmt", "true_branch"): ("SetAt", "IfStmt"),
    ("IfStmt", "false_branch"): ("SetAt", "IfStmt"),
    ("Program", "function_definitions"): ("FunctionDefinition",),
    ("Program", "params"): ("Sym",),
    ("Program", "declarations"): ("Temporary",),
    ("Program", "body"): ("SetAt", "IfStmt"),
}
EXPR_NAMES: tuple[str, ...] = tuple(cls.__name__ for cls in EXPR_CLASSES)
STMT_NAMES: tuple[str, ...] = ("SetAt", "IfStmt")


def allowed_children(class_name: str, field: str) -> tuple[str, ...]:
    """The names of the node classes that may stand in `field` of a `class_name` node."""
    return ALLOWED_CHILDREN.get((class_name, field), EXPR_NAMES)


class MisplacedNodeError(Exception):
    """A node (or a non-node) standing where its class is not allowed: built in Python, since
    neither the parser nor the JSON reader can produce one."""

    def __init__(self, child: object, parent: Node, field: str) -> None:
        name = type(child).__name__
        article = "an" if name[0] in "AEIOUaeiou" else "a"
        super().__init__(
            f"{article} {name} cannot stand inside the `{field}` of a {type(parent).__name__}"
        )
        self.child, self.parent, self.field = child, parent, field


#: Per node class: (field, holds a tuple, the classes allowed there) for each child field.
PLACEMENT: dict[type[Node], tuple[tuple[str, bool, frozenset[type]], ...]] = {
    cls: tuple(
        (
            name,
            name in cls.sequence_fields,
            frozenset(NODE_CLASSES[n] for n in allowed_children(cls.__name__, name))
            | ({type(None)} if FIELD_KINDS[cls.__name__][name] == "node?" else set()),
        )
        for name in cls.child_fields
    )
    for cls in NODE_CLASSES.values()
}
