"""The error of a conversion between GT4Py's objects and iterir's: what could not be converted,
and where (iterir's node, with its span, or the path from GT4Py's root)."""

from __future__ import annotations

from iterir import Node
from typeinf.errors import MalformedIRError


class ConversionError(MalformedIRError):
    """An object that has no counterpart on the other side, or that the other side refuses.

    `path` is where it stands from the converted root, in the JSON codec's notation
    (`$.body[0].expr.args[1].type`); `node` is our node it is about, when converting ours (so
    that the location is its span, or its text). Converting GT4Py's, the location is the path.
    """

    def __init__(self, message: str, path: str, node: Node | None = None) -> None:
        super().__init__(f"{message} (at {path})" if node is not None else message, node)
        self.path = path

    @property
    def location(self) -> str:
        if self.node is None:
            return f"<gt4py> {self.path}"
        return super().location
