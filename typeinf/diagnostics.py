"""Deprecated: where 0.1.0's README sent users to render an error,
`typeinf.diagnostics.render(error, Source(…))`. Both names still work, as they did, until the
next release; each warns (`DeprecationWarning`) when it is read, naming what replaces it:
`typeinf.render(error, text, filename, program)`. Importing this module alone does not warn.
"""

from __future__ import annotations

import warnings
from typing import Any

from typeinf.core import diagnostics

#: Each name this module kept, and what to use instead.
MOVED = {
    "render": "use typeinf.render(error, text, filename, program)",
    "Source": "give typeinf.render(error, text, filename, program) what a Source held",
}


def __getattr__(name: str) -> Any:  # Any: old code type-checks as it did, calling them
    """`render` and `Source` as 0.1.0 had them, with a `DeprecationWarning` naming the new way."""
    if name not in MOVED:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    warnings.warn(
        f"typeinf.diagnostics.{name} is deprecated: {MOVED[name]}", DeprecationWarning, stacklevel=2
    )
    return getattr(diagnostics, name)
