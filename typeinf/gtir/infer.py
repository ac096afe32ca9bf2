"""GTIR behind `typeinf.infer`, `infer_all` and `check` (docs/gtir.md, "Typing"): runs a
`typeinf.gtir.collect.GtirInference` and hands out its types as `typeinf.gtir.values`, a program's as
a `GtirProgram` (its function definitions' types, then its parameters')."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator, Mapping
from dataclasses import dataclass

from iterir import FunctionDefinition, Node
from iterir.gcpause import gc_paused
from iterir.nodes import Program
from iterir.offset_types import OffsetType
from iterir.traversal import Tree, child_positions, walk
from typeinf.core import type_map
from typeinf.core.driver import checked, typed
from typeinf.core.errors import TypeInferenceError
from typeinf.core.relations import Relation
from typeinf.core.terms import Cell, DefinitionType, variables_of
from typeinf.gtir import terms as g
from typeinf.gtir.collect import GtirInference
from typeinf.gtir.notation import GtirPrinter, pformat_gtir_where
from typeinf.gtir.runs import SHOWS_FAST_ERRORS
from typeinf.gtir.values import Cyclic, GtirType, GtirValue, to_value

#: Which free names without a type are unknowns: True for all (`typeinf.infer`'s `allow_free`).
AllowFree = bool | Collection[str]
#: The offset provider as GTIR reads it: GT4Py's offset-provider types by offset name (None: no
#: offset provider), read where it came in (`typeinf.core.offsets.Offsets.gtir`).
OffsetTypes = Mapping[str, OffsetType] | None


@dataclass(frozen=True)
class GtirDefinition:
    """A function definition's generalized type, and how it prints with the relations it is
    subject to: `f :: (It[D₀, D₁, T₂]) → T₂ where D₁ ⊆ D₀`."""

    name: str
    type: GtirValue
    text: str
    #: The parts of its `where` clause (`D₁ ⊆ D₂`, `T₂: numeric`), in order.
    relations: tuple[str, ...] = ()

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class GtirProgram:
    """A GTIR program's type: `{f :: (T₀) → T₀, p(Field[[IDim], float64], int32)}`.
    `signature` is the program's own part (`program_of` makes it): its parameters numbered
    together, with the `where` clause of what their variables are subject to (a parameter
    GT4Py's printed text leaves untyped: `p(T₀, Field[D₁, T₂]) where …`)."""

    name: str
    definitions: tuple[GtirDefinition, ...]
    params: tuple[GtirValue, ...]
    signature: str

    def __str__(self) -> str:
        return "{" + ", ".join([*map(str, self.definitions), self.signature]) + "}"


def program_of(
    name: str,
    definitions: tuple[GtirDefinition, ...],
    params: list[Cell],
    relations: tuple[Relation, ...],
) -> GtirProgram:
    """A program's type from its parameters' cells and the relations still open at its end
    (those about a parameter's variables go in its `where` clause)."""
    shown = tuple(map(to_value, params))
    variables = {id(v) for c in params for v in variables_of(c)}
    if not variables:
        return GtirProgram(name, definitions, shown, f"{name}({', '.join(map(str, shown))})")
    about = tuple(r for r in relations if any(id(v) in variables for v in _cells_of(r)))
    printer = GtirPrinter([DefinitionType(name, g.tuple_of(params), about)])
    texts = ", ".join(printer.render(c) for c in params)
    return GtirProgram(name, definitions, shown, f"{name}({texts}){printer.where()}")


def _cells_of(relation: Relation) -> Iterator[Cell]:
    for cell in relation.cells:
        yield from variables_of(cell)


GtirInferred = GtirValue | GtirDefinition | GtirProgram
#: The classes of what GTIR's inference gives (`GtirInferred`), for a dispatch by dialect.
GTIR_RESULTS = (GtirType, GtirDefinition, GtirProgram)


def definition_at(inference: GtirInference, position: int) -> GtirDefinition:
    """The generalized type of the function definition at pre-order `position`."""
    definition = definition_type(inference, position)
    text, clauses = pformat_gtir_where(definition)
    return GtirDefinition(definition.name, to_value(definition.type), text, clauses)


def definition_type(inference: GtirInference, position: int) -> DefinitionType:
    """The function definition at pre-order `position` as the core prints one: its type and
    the relations it is subject to."""
    node = inference.nodes[position]
    assert isinstance(node, FunctionDefinition)
    scheme = inference.schemes.get(position)
    relations = () if scheme is None else scheme.relations
    return DefinitionType(node.id, inference.type_at(position), relations)


def program_type(inference: GtirInference) -> GtirInferred:
    root = inference.root
    if not isinstance(root, Program):
        return to_value(inference.type_at(0))
    positions = child_positions(inference.sizes, 0, root.child_count())
    ndefs, nparams = len(root.function_definitions), len(root.params)
    definitions = tuple(definition_at(inference, p) for p in positions[:ndefs])
    params = [inference.type_at(p) for p in positions[ndefs : ndefs + nparams]]
    return program_of(root.id, definitions, params, inference.solver.in_order())


def infer(
    node: Node, offsets: OffsetTypes, allow_free: AllowFree = False, tree: Tree | None = None
) -> GtirInferred:
    """The type of a GTIR program or expression (`offsets`: GT4Py's offset-provider types by
    offset name, None for no offset provider, as `Offsets.gtir` gives them; `allow_free`: its
    free names without a type that are unknowns; `tree`: `node` numbered in pre-order already);
    raises its first type error."""
    # The collector paused, as for the fencil IR (`iterir.gcpause`), and the inference freed
    # before it resumes, so that no collection walks the cells inference is still making
    # (docs/performance.md, "GTIR inference").
    with gc_paused():
        inference = typed(_runs(node, offsets, allow_free, tree), SHOWS_FAST_ERRORS)
        result = program_type(inference)
        del inference
    return result


def _runs(
    node: Node, offsets: OffsetTypes, allow_free: AllowFree, tree: Tree | None
) -> Callable[[bool, int], GtirInference]:
    """Inference of `node`, run as the driver asks: explaining or not, keeping how many
    errors."""

    def run(explain: bool, max_errors: int) -> GtirInference:
        return GtirInference(
            node, offsets, max_errors=max_errors, explain=explain, allow_free=allow_free, tree=tree
        )

    return run


def _node_types(inference: GtirInference, complete: bool) -> dict[int, GtirInferred]:
    """Every typed node's type by `id(node)` (its first occurrence), in pre-order; the
    program's own only if `complete` (no errors). The nodes' variables are numbered together,
    over the program (as `infer_all` numbers a fencil's), so that a node's type relates to its
    parent's; a function definition's and the program's are numbered on their own."""
    numbers = GtirPrinter([cell for cell in inference.types if cell is not None]).numbers
    result: dict[int, GtirInferred] = {}
    if complete:
        result[id(inference.root)] = program_type(inference)
    read_off(inference, range(len(inference.nodes)), result, numbers)
    return result


def read_off(
    inference: GtirInference,
    positions: range,
    result: dict[int, GtirInferred],
    numbers: dict[int, int] | None = None,
) -> None:
    """The types of the nodes at `positions` into `result`, by `id(node)` (a node already
    there keeps its type), variables numbered by `numbers` (a `GtirPrinter`'s; None: each type
    on its own); a definition's with its relations, a program's left out."""
    nodes, types = inference.nodes, inference.types
    for position in positions:
        node, cell = nodes[position], types[position]
        if id(node) in result or cell is None:  # a failed definition has none: anything
            continue
        try:
            if isinstance(node, FunctionDefinition) and position in inference.schemes:
                result[id(node)] = definition_at(inference, position)
            elif not isinstance(node, Program):
                result[id(node)] = to_value(cell, numbers)
        except Cyclic:
            continue  # a type that contains itself: only a failed part leaves one


def typed_nodes(inference: GtirInference) -> list[tuple[Node, GtirInferred]]:
    """Every node with a type, and its type (the program's too, if it has no errors), in
    pre-order; a node object used in several places at its first occurrence."""
    types = _node_types(inference, complete=not inference.errors)
    seen: set[int] = set()
    found = []
    for node in inference.nodes:
        key = id(node)
        if key in types and key not in seen:
            seen.add(key)
            found.append((node, types[key]))
    return found


class GtirNodeTypes(Mapping[int, GtirInferred]):
    """A GTIR program's node types by `id(node)`, read-only (as `typeinf.infer.NodeTypes`)."""

    def __init__(self, types: dict[int, GtirInferred]) -> None:
        self._types = types

    def __getitem__(self, key: int) -> GtirInferred:
        return self._types[key]

    def __iter__(self) -> Iterator[int]:
        return iter(self._types)

    def __len__(self) -> int:
        return len(self._types)

    def __repr__(self) -> str:
        return repr(self._types)


def infer_all(
    node: Node,
    offsets: OffsetTypes,
    *,
    attach: bool = False,
    allow_free: AllowFree = False,
    tree: Tree | None = None,
) -> GtirNodeTypes:
    """Every node's type (`offsets` as for `infer`); with `attach`, also set as
    `node.inferred_type`."""
    inference = typed(_runs(node, offsets, allow_free, tree), SHOWS_FAST_ERRORS)
    result = GtirNodeTypes(_node_types(inference, complete=True))
    if attach:
        type_map.attach(list(walk(node)), result, whole=False)
    return result


@dataclass
class GtirSolved:
    """What `solve` found (for the command line, snapshots and the pytest fixture, which print
    it): the inference (None when the tree could not be typed at all) and the errors."""

    inference: GtirInference | None
    errors: list[TypeInferenceError]

    @property
    def type(self) -> GtirInferred | None:
        """The program's (or expression's) type; None with errors."""
        if self.errors or self.inference is None:
            return None
        return program_type(self.inference)


def solve(
    node: Node,
    offsets: OffsetTypes,
    max_errors: int | None,
    allow_free: AllowFree = False,
    tree: Tree | None = None,
) -> GtirSolved:
    """Every independent error (one per failing function definition or statement, at most
    `max_errors`), and the inference to read the types off: the fast run's, or where it finds
    an error the explaining run's, which gives every error its reasons (the driver's
    `checked`; `offsets` as for `infer`)."""
    runs = _runs(node, offsets, allow_free, tree)
    return GtirSolved(*checked(runs, max_errors, SHOWS_FAST_ERRORS))


def check(
    node: Node,
    offsets: OffsetTypes,
    max_errors: int | None,
    allow_free: AllowFree = False,
    tree: Tree | None = None,
) -> tuple[GtirInferred | None, GtirNodeTypes, list[TypeInferenceError]]:
    """The program's type (None with errors), every node's, and the errors: one per failing
    function definition or statement, at most `max_errors`; `offsets` as for `infer`."""
    solved = solve(node, offsets, max_errors, allow_free, tree)
    if solved.inference is None:
        return None, GtirNodeTypes({}), solved.errors
    types = GtirNodeTypes(_node_types(solved.inference, complete=not solved.errors))
    return (None if solved.errors else types[id(node)]), types, solved.errors
