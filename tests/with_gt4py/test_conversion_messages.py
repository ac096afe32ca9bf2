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
