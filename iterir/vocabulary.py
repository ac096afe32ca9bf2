"""The fixed names of the IR: primitive types, builtin functions, and the text syntax's sugar.

The parser and the printer both read these tables, so the sugar one writes is exactly the sugar
the other reads.
"""

from __future__ import annotations

import re

#: Primitive dtypes (docs/notation.md), with the suffix that marks a typed literal in text.
PRIMITIVE_SUFFIXES: dict[str, str] = {
    "bool": "b",
    "int8": "i8",
    "int16": "i16",
    "int32": "i32",
    "int64": "i64",
    "uint8": "u8",
    "uint16": "u16",
    "uint32": "u32",
    "uint64": "u64",
    "float32": "f32",
    "float64": "f64",
}
PRIMITIVES: frozenset[str] = frozenset(PRIMITIVE_SUFFIXES)
SUFFIX_TYPES: dict[str, str] = {suffix: name for name, suffix in PRIMITIVE_SUFFIXES.items()}

#: Builtin functions of GT4Py's ITIR, by family. Type names (for `cast_`) are builtins too.
GRAMMAR_BUILTINS: frozenset[str] = frozenset(
    {
        "make_tuple",
        "tuple_get",
        "shift",
        "neighbors",
        "cast_",
        "cartesian_domain",
        "unstructured_domain",
    }
)
FUNCTION_BUILTINS: frozenset[str] = frozenset(
    [
        "deref",
        "can_deref",
        "lift",
        "scan",
        "reduce",
        "map_",
        "make_const_list",
        "list_get",
        "named_range",
        "if_",
        "not_",
        "and_",
        "or_",
        "xor_",
        "plus",
        "minus",
        "multiplies",
        "divides",
        "mod",
        "floordiv",
        "minimum",
        "maximum",
        "fmod",
        "eq",
        "not_eq",
        "less",
        "greater",
        "less_equal",
        "greater_equal",
        "power",
        "abs",
        "sin",
        "cos",
        "tan",
        "arcsin",
        "arccos",
        "arctan",
        "sinh",
        "cosh",
        "tanh",
        "arcsinh",
        "arccosh",
        "arctanh",
        "sqrt",
        "exp",
        "log",
        "gamma",
        "cbrt",
        "floor",
        "ceil",
        "trunc",
        "isfinite",
        "isinf",
        "isnan",
    ]
)
BUILTINS: frozenset[str] = GRAMMAR_BUILTINS | FUNCTION_BUILTINS | PRIMITIVES
#: GTIR's builtins (GT4Py 1.2.3): `map_list` replaces `map_`, and GTIR adds field operations.
GTIR_BUILTINS: frozenset[str] = (BUILTINS - {"map_"}) | frozenset(
    [
        "as_fieldop",
        "index",
        "broadcast",
        "concat_where",
        "get_domain_range",
        "map_list",
        "map_tuple",
        "tree_map_tuple",
        "neg",  # GT4Py 1.2.3's 80th: unary minus (the fencil IR has none)
    ]
)

#: Infix operators: symbol → (builtin, precedence level). All are left-associative.
INFIX: dict[str, tuple[str, int]] = {
    "∨": ("or_", 2),
    "∧": ("and_", 3),
    "==": ("eq", 4),
    "<": ("less", 4),
    ">": ("greater", 4),
    "+": ("plus", 5),
    "-": ("minus", 5),
    "×": ("multiplies", 6),
    "/": ("divides", 6),
}
INFIX_BY_BUILTIN: dict[str, tuple[str, int]] = {b: (sym, prec) for sym, (b, prec) in INFIX.items()}
#: Prefix operators: symbol → builtin; they bind at level PREFIX_PRECEDENCE.
PREFIX: dict[str, str] = {"·": "deref", "¬": "not_", "↑": "lift"}
PREFIX_BY_BUILTIN: dict[str, str] = {b: sym for sym, b in PREFIX.items()}

#: GTIR's text has more sugar than the fencil IR's: `<=`, `>=` and `⇑stencil` (`as_fieldop`
#: with no domain).
GTIR_INFIX: dict[str, tuple[str, int]] = {"<=": ("less_equal", 4), ">=": ("greater_equal", 4)}
GTIR_INFIX_BY_BUILTIN: dict[str, tuple[str, int]] = {
    **INFIX_BY_BUILTIN,
    **{b: (sym, prec) for sym, (b, prec) in GTIR_INFIX.items()},
}
GTIR_PREFIX: dict[str, str] = {"⇑": "as_fieldop"}
GTIR_PREFIX_BY_BUILTIN: dict[str, str] = {
    **PREFIX_BY_BUILTIN,
    **{b: sym for sym, b in GTIR_PREFIX.items()},
}

LAMBDA_PRECEDENCE = 0
IF_PRECEDENCE = 1
PREFIX_PRECEDENCE = 7
POSTFIX_PRECEDENCE = 8  # calls and x[i]
ATOM_PRECEDENCE = 9

KEYWORDS: frozenset[str] = frozenset({"if", "then", "else", "True", "False", "λ"})
NAME_RE = re.compile(r"(?:(?![ₒₐ])[^\W\d])(?:(?![ₒₐ])\w)*")
INT_RE = re.compile(r"-?\d+")
FLOAT_RE = re.compile(r"-?(?:(?:\d+\.\d*|\.\d+)(?:[eE][+-]?\d+)?|\d+[eE][+-]?\d+)")
NUMBER_BODY_RE = re.compile(r"-?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?")


#: GTIR's axis kinds: a bare name ending in one reads as an axis (`IDimₕ`).
AXIS_KIND_SUFFIXES = "ₕᵥₗ"


def is_plain_name(name: str) -> bool:
    """Whether `name` can be written bare in text (else it is written in backquotes)."""
    return (
        NAME_RE.fullmatch(name) is not None
        and name not in KEYWORDS
        and not name.endswith(tuple(AXIS_KIND_SUFFIXES))
    )
