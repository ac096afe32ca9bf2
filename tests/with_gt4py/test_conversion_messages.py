"""The words of the GT4Py bridge's messages (`typeinf.gt4py`): a value it refuses is named with
its class and the article the class's name takes."""

from __future__ import annotations

import pytest
from gt4py.next import common

from typeinf.gt4py import ConversionError
from typeinf.gt4py.types import dimension_from_gt4py


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (3, r"expected a gt4py Dimension, found an int \(3\)"),
        ("IDim", r"expected a gt4py Dimension, found a str \('IDim'\)"),
        (common.Dimension(3), r"a dimension's name must be a str, not an int \(3\)"),  # type: ignore[arg-type]
        (common.Dimension(b"I"), r"a dimension's name must be a str, not a bytes \(b'I'\)"),  # type: ignore[arg-type]
    ],
)
def test_a_refused_value_is_named_with_its_article(value: object, message: str) -> None:
    with pytest.raises(ConversionError, match=message):
        dimension_from_gt4py(value, "$.dims[0]")


def test_a_kind_that_is_no_kind_is_refused_where_it_stands() -> None:
    """A literal's kind equal to a `ScalarKind` but no `ScalarKind` (an int: the enum is an
    IntEnum), or an axis's kind that cannot be hashed, is refused with its path, as by the
    general conversion, not converted (nor a raw TypeError)."""
    from gt4py.next.iterator import ir
    from gt4py.next.iterator.ir_utils import ir_makers as im
    from gt4py.next.type_system import type_specifications as ts

    from typeinf.gt4py import from_gt4py

    literal = im.literal("1.0", "float64")
    literal.type.__dict__["kind"] = int(ts.ScalarKind.FLOAT64)
    with pytest.raises(
        ConversionError, match=r"\$\.type\.kind: error: scalar kind 11 has no counterpart"
    ):
        from_gt4py(literal)
    axis = ir.AxisLiteral(value="IDim")
    axis.__dict__["kind"] = ["horizontal"]
    with pytest.raises(ConversionError):
        from_gt4py(axis)
