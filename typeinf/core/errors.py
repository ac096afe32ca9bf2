"""The errors inference raises. Each names the IR node it is about and says where it is."""

from __future__ import annotations

from typing import TypedDict, TypeVar, Unpack

from iterir import Node, pformat_short
from iterir.display import escaped, shown
from iterir.nodes import MisplacedNodeError
from iterir.traversal import Tree, preorder
from typeinf.core import messages


def node_text(node: Node, width: int) -> str:
    """A node's text, shortened, for a message; a node that cannot be printed (one of its
    children is not a node, or a node of a class that cannot stand there, a `Literal` for a
    `CartesianOffset`'s axis: the error is about that) is named by its class."""
    try:
        return pformat_short(node, width)
    except (TypeError, ValueError, AttributeError):
        name = type(node).__name__
        return f"{'an' if name[0] in 'AEIOU' else 'a'} {name}"


class TypeInferenceError(Exception):
    """A program that has no type. `node` is the offending IR node (with its span when parsed).

    `message` says it all on one line; a diagnostic shows `summary`, then the source with the
    node underlined, then `details` (the conflicting types), then `notes`: the reasons behind
    them, each about a node of its own.
    """

    def __init__(
        self,
        message: str,
        node: Node | None = None,
        *,
        summary: str | None = None,
        details: list[str] | None = None,
        notes: list[tuple[str, Node]] | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.node = node
        self.summary = summary or message
        self.details = details or []
        self.notes = notes or []

    @property
    def location(self) -> str:
        """`file:line:col` for parsed IR, else the node itself, shortened."""
        if self.node is None:
            return "<program>"
        if self.node.loc is not None:
            return str(self.node.loc)
        return f"<ir> {node_text(self.node, 60)}"

    def __str__(self) -> str:
        return f"{escaped(self.location)}: error: {shown(self.message)}"


class _Parts(TypedDict, total=False):
    """The optional parts of a TypeInferenceError, as its keyword arguments."""

    summary: str | None
    details: list[str] | None
    notes: list[tuple[str, Node]] | None


class UnsatisfiableConstraintError(TypeInferenceError):
    """Two types that must be equal cannot be: `expected` and `actual` say which, and
    `difference`, where there are words for it, how they differ ("KDimᵥ is extra")."""

    def __init__(
        self,
        message: str,
        node: Node | None,
        expected: str,
        actual: str,
        difference: str | None = None,
        **parts: Unpack[_Parts],
    ) -> None:
        super().__init__(message, node, **parts)
        self.expected, self.actual = expected, actual
        self.difference = difference

    def reworded(self, message: str, node: Node | None = None) -> UnsatisfiableConstraintError:
        """This error said as `message` (which names the two types in its own words), with
        the difference in words after it, at `node` if given; the rest as it is."""
        said = message if self.difference is None else f"{message}: {self.difference}"
        where = self.node if node is None else node
        return UnsatisfiableConstraintError(
            said, where, self.expected, self.actual, self.difference, notes=self.notes
        )


class InfiniteTypeError(TypeInferenceError):
    """A type that would have to contain itself, as in `λ(f) → f(f)`."""


class RecursionCycleError(TypeInferenceError):
    """Function definitions that reach themselves; `cycle` lists them, first one again last."""

    def __init__(self, message: str, node: Node | None, cycle: list[str]) -> None:
        super().__init__(message, node)
        self.cycle = cycle


class UnboundSymbolError(TypeInferenceError):
    """A name that a fencil uses but does not declare."""


class DuplicateNameError(TypeInferenceError):
    """A name declared twice in one parameter list, by two function definitions of a fencil or
    a GTIR program, or by two of a GTIR program's parameters and temporaries."""


class GrammarBuiltinError(TypeInferenceError):
    """A builtin typed by rule used where the rule does not apply (not called, bad arguments)."""


class OffsetProviderError(TypeInferenceError):
    """An offset tag that the given offset provider does not define, or defines otherwise."""


class MalformedIRError(TypeInferenceError):
    """A node standing where the IR does not allow its class (built in Python, not parsed)."""


def checked_preorder(root: Node) -> Tree:
    """`root`'s nodes in pre-order and their subtrees' sizes; a node where its class may not
    stand is a MalformedIRError at its parent (not iterir's MisplacedNodeError, which no caller
    of inference takes for a verdict on the program)."""
    try:
        return preorder(root, checked=True)
    except MisplacedNodeError as error:
        raise MalformedIRError(str(error), error.parent) from None


class InternalError(Exception):
    """A bug of ours, not of the program: for example the two runs of inference disagreeing on
    whether it has a type. Never a TypeInferenceError, so that no caller takes it for a verdict
    on the program; the command line exits 3 with it."""


def runs_disagree(found: str, other: str, error: TypeInferenceError | str) -> InternalError:
    """The one policy of both dialects when their two runs disagree (the fast one, which keeps
    no history, and the explaining one, which gives errors their reasons): a bug of ours, said
    as one, never an answer. `found` is the run that found `error`, `other` the one that did
    not find it (or found another)."""
    return InternalError(messages.runs_disagree(found, other, error))


_E = TypeVar("_E", bound=BaseException)


def unchained(error: _E) -> _E:
    """`error`, to be raised while another is handled and shown without it: what `raise error
    from None` says, said so that the compiled build (tools/compile.py) says it too (mypyc's
    `from None` keeps the context it should hide)."""
    error.__cause__ = None
    error.__suppress_context__ = True
    return error
