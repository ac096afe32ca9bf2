"""Most-general type inference for GT4Py's iterator IR.

    infer(node, offset_provider=None) -> Type           the type of a program or expression
    infer_all(node, offset_provider=None) -> Mapping     the type of every node, in pre-order
    check(node, offset_provider=None, max_errors=None)   every independent error, with reasons
        (each also takes allow_free={"x"} or True: free names as unknowns, else errors; and
        within=fencil: a function definition of the fencil, typed with the ones it calls)
    pformat(type, locations=False) / parse_type(text)    the notation (docs/notation.md);
        to_ascii(text) its ASCII spelling
    register_builtin(name, signature)                    a compiler's own builtin
    render(error, text, filename)                        an error as the command line prints
        it: where, the line quoted and underlined, the reasons (docs/api.md)
    gt4py_str(value)                                     GT4Py 1.2.3's str() of one of its
        structured types (`iterir.gtir_types`), exactly (docs/gtir.md)
    Reinference(offset_provider).check(root)            `check` again after a pass, reusing
        the definitions the pass left alone (docs/api.md, "Re-inference after a pass")
    is_instance(general, specific) / substitution(…)     whether a type is at least as general

Types are immutable values of `typeinf.types` (`Val`, `Fun`, `Tuple`, `Var`, …, `Definition`,
`Fencil`): read their fields, `match` them, compare them; `str(t)` is the compact notation and
`format(t, "located")` the located one (docs/api.md).
GTIR's type values, their notation and GT4Py's structured form are `typeinf.gtir`'s (docs/gtir.md).

The notation, the typing rules, the builtins' signatures and the offset-provider format are
documented in the pages that `typeinf docs` lists (in a checkout: `docs/*.md`).
"""

from typeinf import types
from typeinf.core.errors import (
    DuplicateNameError,
    GrammarBuiltinError,
    InfiniteTypeError,
    InternalError,
    MalformedIRError,
    OffsetProviderError,
    RecursionCycleError,
    TypeInferenceError,
    UnboundSymbolError,
    UnsatisfiableConstraintError,
)
from typeinf.core.notation import to_ascii
from typeinf.core.offsets import (
    Connectivity,
    Dimension,
    OffsetProviderFormatError,
    load_offset_provider,
)
from typeinf.core.sizes import TypeTooLargeError
from typeinf.fencil.convert import is_instance, substitution
from typeinf.fencil.reader import TypeSyntaxError
from typeinf.fencil.signatures import register_builtin
from typeinf.fencil.value_reader import parse_type
from typeinf.frontends.gt4py_text import gt4py_str
from typeinf.frontends.rendering import render
from typeinf.incremental.reinference import Reinference, Reused
from typeinf.infer import Checked, check, infer, infer_all, pformat

#: The one source of the version: the wheel's metadata and `typeinf --version` read it.
__version__ = "0.1.0"

__all__ = [
    "Checked",
    "Connectivity",
    "Dimension",
    "DuplicateNameError",
    "GrammarBuiltinError",
    "InfiniteTypeError",
    "InternalError",
    "MalformedIRError",
    "OffsetProviderError",
    "OffsetProviderFormatError",
    "RecursionCycleError",
    "Reinference",
    "Reused",
    "TypeInferenceError",
    "TypeSyntaxError",
    "TypeTooLargeError",
    "UnboundSymbolError",
    "UnsatisfiableConstraintError",
    "check",
    "gt4py_str",
    "infer",
    "infer_all",
    "is_instance",
    "load_offset_provider",
    "parse_type",
    "pformat",
    "register_builtin",
    "render",
    "substitution",
    "to_ascii",
    "types",
]
