"""The fencil IR behind `typeinf.infer`, `infer_all` and `check` (the dispatch by dialect,
`typeinf.dialect`, sends a fencil, a closure or a tree without GTIR's marks here), and the
read-off of its types: the inference runs (`collect.Inference`, through the driver's runs), and
the types are read off its cells and handed out as the values of `typeinf.types` (`convert`;
`InternalError` when the two runs disagree), a node's when first read (`NodeTypes`).
GTIR's counterpart is `typeinf.gtir.infer`."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import islice
from typing import Any, NamedTuple, cast

from iterir import FencilDefinition, FunctionDefinition, Node, StencilClosure, SymRef
from iterir.gcpause import gc_paused
from iterir.traversal import Tree, child_positions, walk
from typeinf.core import type_map
from typeinf.core.driver import checked, typed
from typeinf.core.errors import TypeInferenceError
from typeinf.core.offsets import OffsetProvider
from typeinf.core.relations import Relation
from typeinf.core.sizes import check_node_types
from typeinf.core.terms import ClosureType, DefinitionType, FencilType, Type
from typeinf.fencil.collect import Inference
from typeinf.fencil.convert import Converter, result_value
from typeinf.fencil.runs import SHOWS_FAST_ERRORS
from typeinf.fencil.values import Inferred


class Subject(NamedTuple):
    """What inference runs over (`root`), the node whose type is asked for (`target`), which
    free names are unknowns (`allow_free`: True for all), and the names defined around `root`
    that it does not see (`known`, for a misspelled name's suggestions)."""

    root: Node
    target: Node
    allow_free: bool | frozenset[str]
    known: tuple[str, ...] = ()


def _solved(
    program: Subject, provider: OffsetProvider | None, tree: Tree | None = None
) -> Inference:
    """The solved inference of `program` (`provider`: the offset provider as the fencil IR reads
    it, `Offsets.fencil`); on a type error, inference runs again keeping the history that gives
    the error its reasons (errors are rare: the fast run keeps none), and raises that (the
    driver's `typed`)."""
    return typed(_runs(program, provider, tree), SHOWS_FAST_ERRORS)


def _runs(
    program: Subject, provider: OffsetProvider | None, tree: Tree | None
) -> Callable[[bool, int], Inference]:
    """Inference of `program`, run as the driver asks: explaining or not, keeping how many
    errors."""

    def run(explain: bool, max_errors: int) -> Inference:
        return _inference(program, provider, tree, explain=explain, max_errors=max_errors)

    return run


def _inference(
    program: Subject,
    provider: OffsetProvider | None,
    tree: Tree | None,
    *,
    explain: bool = False,
    max_errors: int = 1,
) -> Inference:
    return Inference(
        program.root,
        provider,
        explain=explain,
        max_errors=max_errors,
        allow_free=program.allow_free,
        known=program.known,
        tree=tree,
    )


def every_error(
    program: Subject, provider: OffsetProvider | None, max_errors: int | None = None
) -> Inference:
    """Collect and solve in explain mode (`provider` as for `_solved`), keeping up to
    `max_errors` errors (one per failing definition or closure, one per free name) in `errors`;
    raises only when no part can be typed (a malformed tree). For `explain`, which reports
    rather than raises."""
    return _inference(
        program, provider, None, explain=True, max_errors=max(max_errors or sys.maxsize, 2)
    )


def program_type(inference: Inference, position: int, types: Sequence[Type | None]) -> Type | None:
    """The type of the node at `position`, for definitions, closures and fencils built from the
    types of their parts (which `types` must already hold); None where inference stopped before
    one of those parts (a definition in a recursion cycle has no type)."""
    current = inference.nodes[position]
    if isinstance(current, FunctionDefinition):
        if inference.types[position] is None:
            return None
        return DefinitionType(
            current.id, inference.type_at(position), _relations(inference, position)
        )
    if isinstance(current, StencilClosure):
        _, _, output, *inputs = inference.children(position)
        if not _all_typed(inference, [output, *inputs]):
            return None
        return ClosureType(tuple(inference.type_at(i) for i in inputs), inference.type_at(output))
    if isinstance(current, FencilDefinition):
        count = len(current.function_definitions) + len(current.params)
        children = child_positions(inference.sizes, position, count)
        if not _all_typed(inference, children):
            return None
        ndefs = len(current.function_definitions)
        definitions = tuple(
            # A fencil's first children are its definitions.
            DefinitionType(
                cast(FunctionDefinition, inference.nodes[p]).id,
                inference.type_at(p),
                _relations(inference, p),
            )
            for p in children[:ndefs]
        )
        params = tuple(inference.type_at(p) for p in children[ndefs:])
        return FencilType(current.id, definitions, params)
    return types[position] if types[position] is not None else inference.built(position)


def _all_typed(inference: Inference, positions: Sequence[int]) -> bool:
    """Whether inference typed every part at `positions`: a name without a type is a grammar
    builtin used as a value, which `type_at` says; any other part was never reached."""
    return all(
        inference.types[p] is not None or type(inference.nodes[p]) is SymRef for p in positions
    )


def _position(inference: Inference, program: Subject) -> int:
    """The position of `program`'s target: its root, or one of the root fencil's definitions."""
    if program.target is program.root:
        return 0
    return next(p for p in inference.children(0) if inference.nodes[p] is program.target)


def _relations(inference: Inference, position: int) -> tuple[Relation, ...]:
    """The relations the type of the definition at `position` is subject to: its scheme's, or
    for a definition inferred on its own (never generalized), those still open at the end."""
    scheme = inference.solver.schemes.get(position)
    if scheme is not None:
        return scheme.relations
    return inference.solver.in_order() if position == 0 else ()


def infer(program: Subject, provider: OffsetProvider | None, tree: Tree | None) -> Inferred:
    """The most general type of `program`'s target, as a value of `typeinf.types` (a fencil's
    made at the first read of any of its fields); raises its first type error. `provider`: as
    for `_solved`; `tree`: the root numbered in pre-order already (`dialect.decide`)."""
    # The inference is freed before the collector resumes, so that it never scans the graph.
    with gc_paused():
        inference = _solved(program, provider, tree)
        result = program_type(inference, _position(inference, program), inference.types)
        assert result is not None  # the root has a type: a name without one is an error
        value = result_value(result)
        del inference, result
    return value


def infer_all(
    node: Node,
    program: Subject,
    provider: OffsetProvider | None,
    tree: Tree | None,
    attach: bool,
) -> NodeTypes:
    """The type of every node of `node` (`program`: what inference runs over for it), as
    `typeinf.infer_all` gives them."""
    with gc_paused():
        inference = _solved(program, provider, tree)
        result = NodeTypes(node_types(inference, complete=True))
        # `node`'s nodes in pre-order, as inference numbered them, not the tree walked again
        # (docs/performance.md, "Handing types out").
        whole = program.root is node  # else `node` is a definition of the fencil inferred
        nodes = inference.nodes if whole else list(walk(node))
        del inference
        if attach:
            # One conversion, then the values set (`type_map.attach`), with the collector
            # paused: a full collection meanwhile would scan the program, its cells and its
            # values, and cost more than the conversion (docs/performance.md, "Handing types
            # out").
            type_map.attach(nodes, result._converted(), whole)
    return result


def check(
    program: Subject, provider: OffsetProvider | None, max_errors: int | None, tree: Tree | None
) -> tuple[Inferred | None, NodeTypes, list[TypeInferenceError]]:
    """The type of `program`'s target (None with errors), every node's and the errors, as
    `typeinf.check` gives them."""
    solved = solve(program, provider, max_errors, tree)
    types = NodeTypes(solved.types, eager=bool(solved.errors))
    # The node asked about (with `within`, its copy in the fencil inferred): the one typed so.
    key = next((k for k, t in solved.types.items() if t is solved.type), None)
    return (None if key is None else types[key]), types, solved.errors


def node_types(inference: Inference, complete: bool) -> dict[int, Type]:
    """The type of every node that has one, by `id(node)` (a node object used in several
    places: its first occurrence), in pre-order; program-level types only if `complete`."""
    types: list[Type | None] = list(inference.types)
    if complete:
        # Only the nodes without a type of their own and the program-level ones change: found
        # without looking at every node in Python (docs/performance.md, "Handing types out").
        changed = {p for p, type_ in enumerate(types) if type_ is None}
        changed.update(_program_positions(inference))
        for position in sorted(changed, reverse=True):
            types[position] = program_type(inference, position, types)
    return by_node(inference.nodes, types)


def by_node(nodes: list[Node], types: Sequence[Type | None]) -> dict[int, Type]:
    """The types of `nodes` (by pre-order position) by `id(node)`, a node object used in several
    places by its first occurrence, leaving out the nodes without one."""
    keys = list(map(id, nodes))
    result = {key: type_ for key, type_ in zip(keys, types, strict=True) if type_ is not None}
    if len(result) == len(types) - list(types).count(None):  # no node object in two places
        return result
    result = {}  # the first occurrence's type, for a node in several places
    for key, type_ in zip(keys, types, strict=True):
        if type_ is not None and key not in result:
            result[key] = type_
    return result


def _program_positions(inference: Inference) -> list[int]:
    """Where a definition, a closure or a fencil can be: the root, and a root fencil's
    children (a tree with one anywhere else is refused before inference)."""
    root = inference.nodes[0]
    if not isinstance(root, FencilDefinition):
        return [0]
    return [0, *child_positions(inference.sizes, 0, len(root.children()))]


class NodeTypes(Mapping[int, Inferred]):
    """The types of a program's nodes by `id(node)`, in pre-order, read-only, made into values
    when first read: reading a node's type converts the types before it in pre-order too
    (once), so every value is the one converting them all in order gives (one numbering over
    the program, shared parts once) whatever order they are read in. Keys, `len` and `in`
    convert nothing. Runs of node types convert in one walk each (`Converter.programs`), so
    that nothing is paid up front and a value is made once, when read (docs/performance.md,
    "Handing types out")."""

    def __init__(self, types: Mapping[int, Type], *, eager: bool = False) -> None:
        self._known: Mapping[int, Any] = types  # the keys: the cells' until all are converted
        self._values: dict[int, Inferred] = {}
        self._pending: Iterator[tuple[int, Type]] | None = iter(types.items())
        self._taken = 0  # how many of `_pending` were converted
        self._converter = Converter()
        if eager:  # after errors: a type that contains itself is left out, so keys change
            self._convert(None)

    def _convert(self, key: int | None) -> None:
        """Convert in pre-order up to `key`'s type (all with None). A type that contains
        itself, which only a failed inference leaves (its `InfiniteTypeError` says so), is
        left out."""
        pending = self._pending
        if pending is None:
            return
        # All of them in a loop that C runs; up to `key` in ours.
        batch: list[tuple[int, Type]] = list(pending) if key is None else []
        for item in pending:
            batch.append(item)
            if item[0] == key:
                break
        # Past `key`, as many again as were converted before: a reader of every value pauses
        # the collector a logarithmic number of times, not once per node (docs/performance.md,
        # "Handing types out").
        batch += islice(pending, self._taken + len(batch))
        self._taken += len(batch)
        with gc_paused():
            self._converter.programs(batch, self._values)
        if key is None or self._taken == len(self._known):
            self._pending = None  # all converted: the cells are let go
            self._known = self._values
            del self._converter

    def _converted(self) -> dict[int, Inferred]:
        """Every value, converted now (the dict this mapping reads from then on), for `attach`."""
        self._convert(None)
        return self._values

    def __getitem__(self, key: int) -> Inferred:
        try:
            return self._values[key]
        except KeyError:
            if key not in self._known:
                raise
        self._convert(key)
        return self._values[key]

    def __iter__(self) -> Iterator[int]:
        return iter(self._known)

    def __len__(self) -> int:
        return len(self._known)

    def __contains__(self, key: object) -> bool:
        return key in self._known

    def __repr__(self) -> str:
        return repr(dict(self))


@dataclass
class Solved:
    """What `solve` found, in cells (for the command line and snapshots, which print them): the
    program's type (None when it has errors), every node's, and the errors."""

    type: Type | None
    types: dict[int, Type]
    errors: list[TypeInferenceError]


def solve(
    program: Subject,
    provider: OffsetProvider | None = None,
    max_errors: int | None = None,
    tree: Tree | None = None,
) -> Solved:
    """`check`, in cells: every independent error (at least one per failing function definition
    and closure, one per free name, at most `max_errors`) instead of the first. The fast run
    first; only where it finds an error, the explaining run, which gives every error its
    reasons (the driver's `checked`). `provider`: as for `_solved`; `tree`: the root numbered in
    pre-order already (`dialect.decide`)."""
    with gc_paused():
        runs = _runs(program, provider, tree)
        inference, errors = checked(runs, max_errors, SHOWS_FAST_ERRORS)
        if inference is None:  # before any part could be typed: a malformed tree
            return Solved(None, {}, errors)
        result = node_types(inference, complete=not errors)
        too_large = None if errors else check_node_types(inference.nodes, result)
        del inference
    if too_large is not None:  # every type `check` gives must be printable (docs/rules.md)
        return Solved(None, result, [too_large])
    return Solved(None if errors else result[id(program.target)], result, errors)
