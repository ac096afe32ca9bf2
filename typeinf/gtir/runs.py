"""GTIR's two runs of inference, built on the core's (`typeinf.core.runs`: what both dialects'
runs share), with what GTIR's rules do differently in each.

The fast run (`FastRun`) reads the parts of a type already known (`known`: a tuple's item, an
iterator's parts, a domain's dimensions) rather than unifying it with a fresh pattern, unifies a
builtin's arguments with its signature's parameters directly (`call_builtin`), types
`shift(…)(it)` where it is applied (`shift`) and gives its relations no reason (none is read):
each spares building and unifying what it would only take apart (docs/performance.md, "GTIR
inference"). The explaining run (`ExplainingRun`) does none of it: its notes name the rules that
joined each type, and a type read was joined without a rule to name.

Unlike the fencil IR's, GTIR's explaining run visits nodes in the fast run's order (reverse
pre-order) and both generalize a definition to a `Scheme` (`GtirInference._definition`): the
explaining run must find the very error the fast run found (`SHOWS_FAST_ERRORS`: the driver
compares their messages), and an allowed free name's unknown is one cell for the whole program, which a
later statement may bind, so a definition's type is taken when it is generalized, not copied
at each use. The collector and the rules ask their run (`inf.run`) and never which run it is in.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from iterir import FunCall
from typeinf.core import runs
from typeinf.core.constraints import GtirRule, RelationOf
from typeinf.core.relations import Relation
from typeinf.core.schemes import Scheme, Shared
from typeinf.core.terms import Cell, Mismatch
from typeinf.core.unify import Trail, undo, unify
from typeinf.gtir import calls, iterators, messages
from typeinf.gtir.signatures import call_plan

if TYPE_CHECKING:
    from typeinf.gtir.collect import GtirInference


class FastRun(runs.FastRun):
    """The run without history: fast, and enough to tell whether there is an error."""

    def call_builtin(self, inf: GtirInference, name: str, position: int, args: list[int]) -> Cell:
        """A call of the builtin `name` typed by its signature: each argument unified with its
        parameter of a fresh instance, rather than the instance with the call's function type,
        which a call would build only to take apart (docs/performance.md, "GTIR inference");
        on a mismatch the changes are undone and `calls.signature_call` says the error, as it
        shows the whole types."""
        plan = call_plan(name)
        if plan is not None and plan[1] == len(args):
            parts = plan[0]().args
            trail: Trail = []
            types = inf.types
            try:
                for part, a in zip(parts, args):  # noqa: B905  # one more part: the result
                    for x, y in unify(part, types[a] or inf.type_at(a), trail):
                        inf.equal(x, y, position)
                return parts[-1]
            except Mismatch:
                undo(trail)
        return calls.signature_call(inf, name, position, args)

    def shift(self, inf: GtirInference, position: int, node: FunCall) -> Cell | None:
        """The type of the `shift(…)` call at `position`; None if it is applied to one
        iterator, whose type its application reads (`iterators.shifted`)."""
        if iterators.shift_applied(inf, position):
            return None
        return iterators.shift(inf, position, node)

    def relate(self, relation: Relation, position: int) -> None:
        """`relation` must hold, for the node at `position`. Its reason is left out: this run
        reads none (its `equal` and `GtirSolver.cannot_hold` take no reason), and a `RelationOf`
        is a frozen dataclass, slow to make (docs/performance.md, "GTIR inference")."""
        self.solver.relate(relation, position, _UNSAID)

    def instance(self, scheme: Scheme | Shared, position: int) -> Cell:
        """An instance of a function definition's type for its use at `position`, its
        relations related there (`Solver.instantiate`: they wait), without a reason, as
        `relate`."""
        return self.solver.instantiate(scheme, position, waits=True, reason=_UNSAID)


class ExplainingRun(runs.ExplainingRun):
    """The run with history, for reporting errors with their reasons."""

    def order(self, sizes: list[int], start: int) -> Iterable[int]:
        """Reverse pre-order, as the fast run: the explaining run must find the error it found."""
        return runs.reverse_preorder(sizes, start)

    def call_builtin(self, inf: GtirInference, name: str, position: int, args: list[int]) -> Cell:
        """A call of the builtin `name`: its signature's instance unified with the call's
        function type, one constraint whose rule the notes can name."""
        return calls.signature_call(inf, name, position, args)

    def shift(self, inf: GtirInference, position: int, node: FunCall) -> Cell | None:
        """The type of the `shift(…)` call at `position`, a function its application unifies."""
        return iterators.shift(inf, position, node)

    def relate(self, relation: Relation, position: int) -> None:
        """`relation` must hold, because of the node at `position`, which its notes name."""
        self.solver.relate(relation, position, RelationOf(self.solver.nodes[position]))

    def instance(self, scheme: Scheme | Shared, position: int) -> Cell:
        """An instance of a function definition's type for its use at `position`, its
        relations related there (`Solver.instantiate`: they wait), which the notes name."""
        return self.solver.instantiate(scheme, position, waits=True)


#: The reason the fast run gives its relations (see `FastRun.relate`): never read.
_UNSAID = GtirRule(messages.A_RELATION)

#: GTIR's fast run's errors are shown as they are: the GT4Py drop-in (`typeinf.gt4py`) raises
#: them with no second run. So its unification undoes a mismatch, for the error to show the
#: types as they were (`Solver.equal`); its explaining run visits nodes in the same order
#: (`ExplainingRun.order`), to find the same error; and the driver checks that both runs say
#: it in the same words (`typeinf.core.driver`).
SHOWS_FAST_ERRORS = True
