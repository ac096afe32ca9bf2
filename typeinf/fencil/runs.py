"""The fencil IR's two runs of inference, built on the core's (`typeinf.core.runs`: what both
dialects' runs share), with what the fencil IR's rules do differently in each.

The fast run (`FastRun`) types a builtin's call by matching its signature against the
arguments' types (`matching`), and a definition's call by walking its solved type, which it
copies at other uses (a `Template`). The explaining run (`ExplainingRun`) visits nodes in
post-order (so that an error blames the later of two conflicting uses), states one constraint
per argument, and generalizes a definition to a `Scheme`, a type that contains itself said
where.

Both runs give every node the same type (a property test checks it on generated programs); the
collector (`collect.py`) and the rules ask their run (`inference.run`) and never which run it is
in. That the explaining run finds no error where the fast run found one is a bug of ours: `infer`
says so (`InternalError`).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

from iterir import FunCall
from typeinf.core import runs
from typeinf.core.constraints import Equal, Reason, ShapedRule
from typeinf.core.constructors import fixed_params
from typeinf.core.errors import unchained
from typeinf.core.matching import Matcher, walk_match
from typeinf.core.schemes import Scheme, Template
from typeinf.core.solve import Solver, check_finite
from typeinf.core.terms import Cell, Mismatch
from typeinf.fencil import rules, shaped
from typeinf.fencil.notation import pformat_all
from typeinf.fencil.signatures import Signature

if TYPE_CHECKING:
    from typeinf.fencil.collect import Inference


class FastRun(runs.FastRun):
    """The run without history: fast, and enough to tell whether there is an error."""

    def __init__(self, solver: Solver) -> None:
        super().__init__(solver)
        self.definition_callees: dict[int, int] = {}  # SymRef position → definition it calls

    def call_builtin(self, inference: Inference, signature: Signature, node: FunCall, args: list[int],
                     position: int) -> Cell:  # fmt: skip
        """The type of a direct call of a builtin: its signature matched against the arguments'
        types (no parameter cells are made), or instantiated where no matcher fits. A builtin
        that takes a function of any arity (`lift`, …) given one of known arity is matched by its
        signature made to that arity (`shaped.for_arity`)."""
        if signature.takes_any_arity and args:
            params = fixed_params(inference.types[args[0]] or inference.type_at(args[0]))
            if params is not None:
                signature = shaped.for_arity(signature, len(params))
        if signature.match is not None:
            result = self.matched(inference, signature.match, args, position, None)
            if result is not None:
                return result
        instantiate_call = signature.instantiate_call
        assert instantiate_call is not None  # a builtin called directly: of a fixed arity
        *params, result = instantiate_call()
        inference.arguments(node, params, args, position + 1)
        return result

    def definition_use(self, inference: Inference, position: int, definition: int) -> Cell | None:
        """The type of a reference to a definition: made at the call (`call_definition`) when it
        is a callee, else a copy of its solved type."""
        if position and type(inference.nodes[position - 1]) is FunCall:  # a call's first child
            self.definition_callees[position] = definition
            return None
        return self.solver.instance(definition, position)

    def call_definition(
        self, inference: Inference, fun_position: int, args: list[int], position: int
    ) -> Cell | None:
        """The type of a call of a definition, by walking its solved type against the arguments'
        types (`matching.walk_match`) and copying only the result; None if the callee is no
        definition or the walk does not fit, or its type is subject to relations, which the walk
        would not copy (the callee then has its type, for the general way)."""
        definition = self.definition_callees.pop(fun_position, None)
        if definition is None:
            return None
        template = self.solver.schemes[definition]
        assert isinstance(template, Template)  # what this run generalizes to (`generalize`)
        if template.relations:
            inference.types[fun_position] = self.solver.instance(definition, fun_position)
            return None
        result = self.matched(inference, partial(walk_match, template.root), args, position, None)
        if result is None:
            inference.types[fun_position] = template.instantiate()
        return result

    def shaped(self, inference: Inference, signature: Signature, args: list[int], position: int,
               reason: Callable[[int], Reason]) -> Cell:  # fmt: skip
        """The type of a use typed by a signature of its shape (`shaped`), matched as a builtin's
        call is (`reason` is left to the explaining run)."""
        if signature.match is not None:
            result = self.matched(
                inference, signature.match, args, position, ShapedRule(signature.name)
            )
            if result is not None:
                return result
        return _part_by_part(self, inference, signature, args, reason)

    def matched(self, inference: Inference, match: Matcher, args: list[int], position: int,
                reason: Reason | None) -> Cell | None:  # fmt: skip
        """The call's type by `match` (see `matching`); None for a wrong number of arguments (the
        general way reports it). `reason` is what an error says (by default the call at
        `position`), made only when an error needs it."""
        types = inference.types
        undecided: list[tuple[Cell, Cell]] = []
        try:
            result = match([types[a] or inference.type_at(a) for a in args], undecided)
        except Mismatch as mismatch:
            said = reason or inference.call_reason(position, len(args))
            raise unchained(
                self.solver.unsatisfiable(
                    Equal(mismatch.left, mismatch.right, position, said), mismatch
                )
            ) from None
        if undecided:
            said = reason or inference.call_reason(position, len(args))
            for x, y in undecided:
                self.solver.postpone([(x, y)], Equal(x, y, position, said))
        return result

    def check_tuple_index(self, inference: Inference, index: int, tuple_position: int) -> None:
        """Nothing: a `tuple_get` past the end of a known tuple is a mismatch of rows here, and
        the explaining run says it in words."""

    def generalize(self, position: int, cell: Cell, types: list[Cell | None], size: int) -> None:
        """A definition's solved type, instantiated by copying its graph (a Template): most
        definitions are used once or twice, fewer than compiling a plan would pay for. The
        relations still open are part of it."""
        self.solver.schemes[position] = Template(cell, self.solver.take_open())


class ExplainingRun(runs.ExplainingRun):
    """The run with history, for reporting errors with their reasons (in post-order, the core's
    explaining run's order)."""

    def call_builtin(self, inference: Inference, signature: Signature, node: FunCall, args: list[int],
                     position: int) -> Cell:  # fmt: skip
        """The type of a direct call of a builtin: one constraint per argument, for precise errors."""
        instantiate_call = signature.instantiate_call
        assert instantiate_call is not None  # a builtin called directly: of a fixed arity
        *params, result = instantiate_call()
        inference.arguments(node, params, args, position + 1)
        return result

    def shaped(self, inference: Inference, signature: Signature, args: list[int], position: int,
               reason: Callable[[int], Reason]) -> Cell:  # fmt: skip
        """The type of a use typed by a signature of its shape: one constraint per part, each
        with its own reason."""
        return _part_by_part(self, inference, signature, args, reason)

    def check_tuple_index(self, inference: Inference, index: int, tuple_position: int) -> None:
        rules.tuple_index_in_range(inference, index, tuple_position)

    def definition_use(self, inference: Inference, position: int, definition: int) -> Cell | None:
        """A fresh instance of the definition's scheme, at every reference."""
        return self.solver.instance(definition, position)

    def call_definition(
        self, inference: Inference, fun_position: int, args: list[int], position: int
    ) -> Cell | None:
        """Nothing: the callee was typed at its reference, and the call is typed the general way."""
        return None

    def generalize(self, position: int, cell: Cell, types: list[Cell | None], size: int) -> None:
        """A definition's solved type as a scheme, with the relations still open; one that
        contains itself is said where."""
        try:
            self.solver.schemes[position] = Scheme(cell, self.solver.take_open())
        except ValueError:
            check_finite(self.solver.nodes, types, range(position, position + size), pformat_all)
            raise


Run = FastRun | ExplainingRun

#: The fencil IR's fast run's errors are never shown: the explaining run says every error, as
#: it visits nodes in post-order, to blame the later of two conflicting uses, where the fast
#: run may blame the other (`typeinf.core.driver`). Its unification undoes nothing, then.
SHOWS_FAST_ERRORS = False


def _part_by_part(run: Run, inference: Inference, signature: Signature, args: list[int],
                  reason: Callable[[int], Reason]) -> Cell:  # fmt: skip
    """`signature` instantiated, each parameter made equal to its argument's type (`reason(i)`)."""
    instantiate_call = signature.instantiate_call
    assert instantiate_call is not None  # the typing rules' signatures are of a fixed arity
    *params, result = instantiate_call()
    for i, (param, arg) in enumerate(zip(params, args, strict=True)):
        run.solver.equal(param, inference.type_at(arg), arg, reason(i))
    return result
