"""The syntax a type text reads as (`fencil.typeparser` makes it, `cellbuilder` builds its
cells), and the explicit stack the descent runs on (`run`).

A part of a type read inside a group may read as a type or as a dtype, which is known only later
(`(T₀, T₁)` is an argument tuple, `(T₀, T₁)¹` a value of a dtype tuple): its `Node` has both
methods and a `Choice` decided once that is known.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

TYPE, DTYPE = 1, 2  # what a part of a type reads as (a bit set: both, while undecided)


class Node:
    """A production to build: the `CellBuilder` method and its arguments (nodes, built first and in
    order, and texts). A variable or group that reads as a type or a dtype has the two `methods`
    instead and a `choice` that decides between them."""

    __slots__ = ("args", "choice", "method", "methods")

    def __init__(
        self,
        method: str | None,
        args: list[object],
        methods: tuple[str, str] = ("", ""),
        choice: Choice | None = None,
    ) -> None:
        self.method = method
        self.args = args
        self.methods = methods
        self.choice = choice

    def resolved(self) -> str:
        if self.method is None:
            assert self.choice is not None  # a node without a method has the choice between two
            self.method = self.methods[self.choice.decided() == DTYPE]
        return self.method


class Choice:
    """Whether a group (and the variables and groups in it that read either way) is read as types
    or dtypes: known from what follows the group or from its items, or else the same as the
    group around it (`outer`), known later."""

    __slots__ = ("outer", "reading")

    def __init__(self, reading: int | None = None) -> None:
        self.reading = reading
        self.outer: Choice | None = None

    def decided(self) -> int:
        choice, undecided = self, []
        while choice.reading is None:
            undecided.append(choice)
            outer = choice.outer
            assert outer is not None  # a choice not made yet is made by the group around it
            choice = outer
        for each in undecided:  # shortened for the other parts that ask
            each.reading = choice.reading
        return choice.reading


class Part:
    """What reading a type or dtype gave: its node, how it may still read (`reads`), the choice
    that decides that, and, for the first item of a group, its node as the first of a row
    (`row`: `It[T¹]` in `(It[T¹], …)₀`; `only_row`: it cannot be anything else)."""

    __slots__ = ("bare_t", "choice", "node", "only_row", "reads", "row")

    def __init__(
        self,
        node: Node | None,
        reads: int,
        choice: Choice | None = None,
        row: Node | None = None,
        only_row: bool = False,
        bare_t: bool = False,
    ) -> None:
        self.node, self.reads, self.choice = node, reads, choice
        self.row, self.only_row, self.bare_t = row, only_row, bare_t  # bare_t: the dtype `T`

    def decide(self, reading: int, outer: Choice | None = None) -> None:
        """Read as `reading`; if that is both, as the group around it (`outer`) turns out."""
        if self.choice is None:
            return
        if reading in (TYPE, DTYPE):
            self.choice.reading = reading
        else:
            self.choice.outer = outer


#: A step of the descent, run by `run`: it yields the steps it needs the results of.
Step = Generator["Step", Any, Any]


def run(step: Step) -> Any:
    """Run a descent whose steps call each other by yielding: an explicit stack, not Python's."""
    stack, result = [step], None
    while stack:
        try:
            called = stack[-1].send(result)
        except StopIteration as done:
            stack.pop()
            result = done.value
        else:
            stack.append(called)
            result = None
    return result
