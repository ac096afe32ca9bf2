"""`typeinf.parse_type`: a type's text, in the fencil IR's notation, read into the public values
(`typeinf.types`): the cells `reader` reads, converted as `typeinf.fencil.convert` converts an
inferred type."""

from __future__ import annotations

from typeinf.fencil import reader
from typeinf.fencil.convert import to_value
from typeinf.fencil.values import Inferred


def parse_type(text: str, locations: bool | None = None) -> Inferred:
    """Read a type (or `name :: type`, `inputs ⇒ output`, `{…}`) in either notation.

    `locations=True` reads GT4Py's located notation (`It[d¹]` at both locations `ANYWHERE`); by
    default each iterator is read as written, `It[d¹]` at two fresh locations of its own.
    Variables are numbered afresh, as the located notation would print them.
    """
    return to_value(reader.parse_type(text, locations))
