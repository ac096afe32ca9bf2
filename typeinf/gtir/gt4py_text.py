"""Deprecated: where docs/gtir.md sent users for GT4Py 1.2.3's `str()` of one of its types,
`typeinf.gtir.gt4py_text.gt4py_str(value)`. The name still works, as it did, until the next
release; it warns (`DeprecationWarning`) when it is read, naming what replaces it:
`typeinf.gt4py_str(value)`. Importing this module alone does not warn.
"""

from __future__ import annotations

import warnings
from typing import Any

#: Each name this module kept, and what to use instead.
MOVED = {"gt4py_str": "use typeinf.gt4py_str(value)"}


def __getattr__(name: str) -> Any:  # Any: old code type-checks as it did, calling it
    """`gt4py_str` as it was, with a `DeprecationWarning` naming the new one."""
    if name not in MOVED:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    warnings.warn(
        f"typeinf.gtir.gt4py_text.{name} is deprecated: {MOVED[name]}",
        DeprecationWarning,
        stacklevel=2,
    )
    from typeinf.frontends import gt4py_text

    return getattr(gt4py_text, name)
