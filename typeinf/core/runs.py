"""The two runs of inference, what they share in both dialects (docs/architecture.md, "Two runs,
one equality").

Inference first runs fast (`FastRun`): it only has to find out whether the program has a type,
so its solver keeps no history, and a rule may read the parts of a type already known
(`known`: a tuple's item, an iterator's parts) rather than unify it with a fresh pattern, as
each dialect's fast run reads more of its own (a builtin's call matched against the arguments'
types). Only when that run finds an error
does inference run again (`ExplainingRun`), its solver keeping the history an error's reasons
need (`typeinf.core.history`); it reads nothing, since a type read rather than unified was
joined without a reason to show, and states every constraint.

Both runs visit a part's nodes children before parents. The fast runs, and GTIR's explaining run,
do so in reverse pre-order (`reverse_preorder`: nothing to compute); the fencil IR's explaining
run in post-order (`postorder`: the order of evaluation, so that an error blames the later of
two conflicting uses), where GTIR's must find the very error its fast run found (the driver
compares their messages: `typeinf.core.driver`, `gtir.runs.SHOWS_FAST_ERRORS`). Which run goes
first, and which errors are reported, is the driver's too.

Each dialect builds its own runs on these (`typeinf.fencil.runs`, `typeinf.gtir.runs`) with
what its rules do differently in each; a collector and its rules ask their run (`inf.run`) and
never which run it is in. How a definition is generalized is the dialect's: a fencil's fast run
copies its solved graph at each use (a `Template`), GTIR compiles a `Scheme` in both runs.
"""

from __future__ import annotations

from collections.abc import Iterable

from iterir.traversal import depths
from typeinf.core.solve import Solver
from typeinf.core.terms import Cell, find


def reverse_preorder(sizes: list[int], start: int) -> range:
    """The positions of the subtree at `start`, children before parents: pre-order reversed."""
    return range(start + sizes[start] - 1, start - 1, -1)


class FastRun:
    """The run without history: fast, and enough to tell whether there is an error."""

    def __init__(self, solver: Solver) -> None:
        self.solver = solver

    def order(self, sizes: list[int], start: int) -> Iterable[int]:
        """Reverse pre-order: children before parents, with no ordering to compute."""
        return reverse_preorder(sizes, start)

    def known(self, cell: Cell) -> Cell | None:
        """What a rule may read of `cell`'s type rather than unify it with a fresh pattern: its
        root, here (no pattern is built and unified: docs/performance.md, "GTIR inference")."""
        return find(cell)


class ExplainingRun:
    """The run with history, for reporting errors with their reasons."""

    def __init__(self, solver: Solver) -> None:
        assert solver.history is not None  # this run's solver keeps what it joins, and why
        self.solver = solver
        #: Each position's depth (see `postorder`), made when first needed.
        self.depths: list[int] = []

    def order(self, sizes: list[int], start: int) -> Iterable[int]:
        """Post-order, left to right: the order of evaluation, so that an error is the one a
        reader meets first."""
        return self.postorder(sizes, start)

    def postorder(self, sizes: list[int], start: int) -> list[int]:
        """The positions of the subtree at `start`, children before parents, left to right.

        A node's post-order rank is its pre-order rank, plus its descendants, less its
        ancestors: no search is needed."""
        if len(self.depths) != len(sizes):
            self.depths = depths(sizes)
        depths_ = self.depths
        base = start - depths_[start] + 1
        order = [0] * sizes[start]
        for position in range(start, start + sizes[start]):
            order[position + sizes[position] - depths_[position] - base] = position
        return order

    def known(self, cell: Cell) -> Cell | None:
        """Nothing: a part read rather than unified would be joined without a reason, and the
        notes of an error name the rule behind each join."""
        return None
