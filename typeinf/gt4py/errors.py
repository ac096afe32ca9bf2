"""The error of a conversion between GT4Py's objects and iterir's: what could not be converted,
and where (iterir's node, with its span, or the path from GT4Py's root)."""

from __future__ import annotations

from iterir import Node
from typeinf.core.errors import MalformedIRError


class ConversionError(MalformedIRError):
    """An object that has no counterpart on the other side, or that the other side refuses.

    `path` is where it stands from the converted root, in the JSON codec's notation
    (`$.body[0].expr.args[1].type`); `node` is our node it is about, when converting ours. The
    location is that node's span, with the path in the message; else `<gt4py> {path}`, which
    needs no printing of the node (a node that fails conversion may fail printing too).
    """

    def __init__(self, message: str, path: str, node: Node | None = None) -> None:
        located = node is not None and node.loc is not None
        super().__init__(f"{message} (at {path})" if located else message, node)
        self.path = path

    @property
    def location(self) -> str:
        if self.node is not None and self.node.loc is not None:
            return str(self.node.loc)
        return f"<gt4py> {self.path}"


def a_class(value: object) -> str:
    """`value`'s class with its article, for a message: "an int", "a Dimension"."""
    name = type(value).__name__
    return f"{'an' if name[:1].lower() in 'aeiou' else 'a'} {name}"


class DisagreementWarning(UserWarning):
    """typeinf's inference rejected a node that GT4Py's own accepts, and the drop-in used GT4Py's
    types (`typeinf.gt4py.install`): our located message, and how to report it."""
