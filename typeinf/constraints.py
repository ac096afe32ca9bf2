"""Constraints: what the collector learns from the IR, each with where it comes from and why.

`position` is the pre-order position of the IR node the constraint is about; `reason` says, in
words a user reads in an error, why the two types must agree.
"""

from __future__ import annotations

from typing import NamedTuple, TypeAlias

from iterir import Node, SymRef, pformat_short
from typeinf.terms import Cell

_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth")


def ordinal(i: int) -> str:
    return _ORDINALS[i] if i < len(_ORDINALS) else f"{i + 1}th"


#: A reason is words, or for the most frequent ones, built only when an error needs them:
#: ("argument", index, callee node, callee position) or ("call", arity, callee node, callee position).
Reason: TypeAlias = str | tuple[str, int, Node, int]


def callee_text(callee: Node) -> str:
    """How a message names a function: `plus`, or a short text of the expression."""
    return f"`{callee.id}`" if isinstance(callee, SymRef) else f"`{pformat_short(callee, 40)}`"


def reason_text(reason: Reason) -> str:
    if isinstance(reason, str):
        return reason
    callee = callee_text(reason[2])
    if reason[0] == "argument":
        return f"the {ordinal(reason[1])} argument of {callee}"
    return f"the call of {callee} with {reason[1]} argument" + ("" if reason[1] == 1 else "s")


class Equal(NamedTuple):
    """`expected` and `actual` are the same type: a constraint as the solver reports it when it
    fails (the collector passes the four fields to the solver without building this)."""

    expected: Cell
    actual: Cell
    position: int
    reason: Reason
