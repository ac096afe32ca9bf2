"""GTIR's builtins that a signature can say (`builtins/gtir.gsig`, in the GTIR notation, read by
`reader`): each one's generalized type (`scheme`) and, for a call, the code that makes only its
parameters and result (`call_plan`). The builtins typed by a rule of their own are in the table
of `typeinf.gtir.rules`.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from typeinf.core.codegen import compiled
from typeinf.core.constructors import DEMPTY, Constructor, row_items
from typeinf.core.messages import two_signatures
from typeinf.core.packaged import data_folder
from typeinf.core.schemes import Scheme
from typeinf.core.signature_entries import signature_entries
from typeinf.core.terms import Cell, Sort, find, make
from typeinf.gtir import terms as g
from typeinf.gtir.reader import parse_gtir_type


def _load() -> dict[str, str]:
    """Each builtin's signature text, from the `.gsig` files."""
    table: dict[str, str] = {}
    for path in sorted(data_folder("builtins", "*.gsig").glob("*.gsig")):
        for names, text in signature_entries(path.read_text(encoding="utf-8")):
            for name in names:
                if name in table:
                    raise ValueError(two_signatures(path.name, name))
                table[name] = text
    return table


#: GTIR builtins typed by a signature, by name (the signature's text).
SIGNATURES: dict[str, str] = _load()


@cache
def scheme(name: str) -> Scheme:
    """The generalized type of the builtin `name` (read once)."""
    return Scheme(parse_gtir_type(SIGNATURES[name]))


#: What holds a signature's parameters and result in `call_plan`'s scheme (never unified).
_PARTS = Constructor("Parts", Sort.DTYPE)


@cache
def call_plan(name: str) -> tuple[Callable[[], Cell], int] | None:
    """For a call of the builtin `name` (None unless it takes a fixed number of parameters):
    code that makes fresh parameters and result only (a `_PARTS` cell whose arguments they
    are, result last), not the function and parameter-row cells a call never uses, and how
    many parameters it takes: a call pays for what it uses, not for copying the whole scheme
    (docs/performance.md, "GTIR inference")."""
    function = find(parse_gtir_type(SIGNATURES[name]))
    if function.ctor is not g.FUNCTION:
        return None
    params, tail = row_items(function.args[0])
    if tail.ctor is not DEMPTY:
        return None
    return compiled(Scheme(make(_PARTS, *params, function.args[1]))), len(params)
