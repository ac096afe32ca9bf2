"""GTIR (what GT4Py 1.2 compiles, docs/gtir.md): its types as terms of the core (`terms`), its
builtins' signatures and relations (`rules`), relations on dimension sets (`relations`), the
collector (`collect`) with its rules by construct (`expressions`, `calls`, `fieldops`,
`iterators`, `tuples`), its words (`messages`), the run behind `typeinf.infer` (`infer`), its
notation and reader, its public values, and GT4Py's structured types.

The names below are its public API (docs/gtir.md, "Types"): GTIR's type values, reading and
printing them, and converting them to and from GT4Py's structured types.
"""

from typeinf.gtir.notation import GTIR_ASCII_SPELLING, to_ascii_gtir
from typeinf.gtir.reader import parse_gtir_type
from typeinf.gtir.structured import NotStructured, value_from_gt4py, value_to_gt4py
from typeinf.gtir.values import (
    CartesianOffset,
    DimensionType,
    Domain,
    Field,
    Function,
    GtirType,
    It,
    List,
    NamedRange,
    Offset,
    OffsetAmount,
    Tuple,
    Var,
    to_value,
)

__all__ = [
    "GTIR_ASCII_SPELLING",
    "CartesianOffset",
    "DimensionType",
    "Domain",
    "Field",
    "Function",
    "GtirType",
    "It",
    "List",
    "NamedRange",
    "NotStructured",
    "Offset",
    "OffsetAmount",
    "Tuple",
    "Var",
    "parse_gtir_type",
    "to_ascii_gtir",
    "to_value",
    "value_from_gt4py",
    "value_to_gt4py",
]
