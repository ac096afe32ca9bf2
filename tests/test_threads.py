"""Inferences in several threads at once, as GT4Py may call the drop-in: each gives what it gives
alone, byte for byte (every node's type in both notations, every error's words), for the fencil
IR and GTIR through `typeinf.infer` and `typeinf.check` (tests/with_gt4py/test_threads.py runs the
drop-in so); and the cells every inference shares (constants, the builtins' cached types and
schemes) are never written: none holds a mark or a link after inferences ("Marks" in
typeinf/core/terms.py, docs/architecture.md "What inferences share")."""

from __future__ import annotations

import json
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import iterir
import typeinf
from iterir import Literal, Node, NodeTranslator
from iterir.offset_types import offset_types_from_json
from iterir.traversal import Visit
from iterir.vocabulary import PRIMITIVES
from tests import strategies
from tests.conftest import load_samples
from tests.test_gtir_errors import ERRORS
from tests.test_gtir_samples import SAMPLES as GTIR_SAMPLES
from tests.test_spec_table import SPEC
from tests.welltyped import well_typed_programs
from typeinf.core import constructors as engine
from typeinf.core.terms import SPECIAL_DTYPES, Cell, Sort
from typeinf.fencil import constructors as c
from typeinf.fencil import shaped
from typeinf.fencil.signatures import BUILTINS
from typeinf.gtir import signatures as gtir_signatures
from typeinf.gtir import terms as gtir_terms

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
#: Threads inferring at once, and how many times each infers every program.
THREADS = 4
ROUNDS = 2
#: How often the interpreter switches threads while they run (seconds; Python's default is 5 ms):
#: often, so that inferences interleave within a search rather than between programs.
SWITCH_INTERVAL = 1e-5

Program = tuple[Node, object]


def outcome(node: Node, provider: object) -> str:
    """What inference says of `node`: the type `infer` gives or its error, and what `check`
    gives (every node's type in both notations, then every error), as text."""
    try:
        type_ = typeinf.infer(node, provider)  # type: ignore[arg-type]
        said = [f"{typeinf.pformat(type_)} | {typeinf.pformat(type_, locations=True)}"]
    except typeinf.TypeInferenceError as error:
        said = [f"{type(error).__name__}: {error}"]
    checked = typeinf.check(node, provider)  # type: ignore[arg-type]
    said += [
        f"{typeinf.pformat(t)} | {typeinf.pformat(t, locations=True)}"
        for t in checked.types.values()
    ]
    said += [f"{type(e).__name__}: {e}" for e in checked.errors]
    return "\n".join(said)


def together(count: int, call: Callable[[int, int], str]) -> list[list[str]]:
    """`call(thread, program)` for each of `count` programs, `ROUNDS` times, in each of
    `THREADS` threads, each call started with the others' (a barrier); what each thread got, by
    round and program (an exception is what it got, too). Two threads go in one order, so that
    they run the same program at once, step by step alike, and the next two in another
    (rotated), so that different programs overlap."""
    got = [[""] * (count * ROUNDS) for _ in range(THREADS)]
    barrier = threading.Barrier(THREADS)

    def run(thread: int) -> None:
        for round_ in range(ROUNDS):
            for step in range(count):
                program = (step + thread // 2 * count // THREADS) % count
                barrier.wait()
                try:
                    said = call(thread, program)
                except Exception as error:  # an error not typeinf's: said, and compared
                    said = f"raised {type(error).__name__}: {error}"
                got[thread][round_ * count + program] = said

    before = sys.getswitchinterval()
    sys.setswitchinterval(SWITCH_INTERVAL)
    try:
        running = [threading.Thread(target=run, args=(i,)) for i in range(THREADS)]
        for thread in running:
            thread.start()
        for thread in running:
            thread.join()
    finally:
        sys.setswitchinterval(before)
    return got


def assert_as_alone(alone: Sequence[str], call: Callable[[int, int], str]) -> None:
    """`call(thread, program)` in several threads at once (`together`) says of each program
    what it said alone (`alone`, by program)."""
    count = len(alone)
    for thread, got in enumerate(together(count, call)):
        for at, said in enumerate(got):
            assert said == alone[at % count], (
                f"thread {thread}, round {at // count}: program {at % count} gave another answer"
            )


def assert_alike_in_threads(programs: Sequence[Program]) -> None:
    """Inferring `programs` in several threads at once gives, for each, what it gives alone."""
    alone = [outcome(node, provider) for node, provider in programs]
    assert_as_alone(alone, lambda thread, program: outcome(*programs[program]))


def _examples() -> list[Program]:
    """examples/*.itir, each with its offset provider if it has one."""
    programs: list[Program] = []
    for path in sorted(EXAMPLES.glob("*.itir")):
        offsets = path.with_suffix(".offsets.json")
        provider = json.loads(offsets.read_text(encoding="utf-8")) if offsets.is_file() else None
        programs.append((iterir.parse(path.read_text(encoding="utf-8"), path.name), provider))
    return programs


def _fencil_programs() -> list[Program]:
    """The docs' examples, the rule table's programs (errors among them), GT4Py's fencils, and
    each of those with its first literal of another dtype (a type error the explaining run
    explains, generalizing each definition)."""
    table = [(iterir.parse(text), None) for _, text, _ in SPEC]
    samples = [(iterir.from_json(s["ir"]), s["offset_provider"]) for s in load_samples()]
    ill_typed = []
    for node, provider in samples:
        first = next(n for n in iterir.walk(node) if isinstance(n, Literal))
        other = "int32" if first.type == "float64" else "float64"
        ill_typed.append((_retyped(node, first, other), provider))
    return [*_examples(), *table, *samples, *ill_typed]


def _gtir_programs() -> list[Program]:
    """GTIR's errors, and every 16th of GT4Py's GTIR samples (all kinds of programs)."""
    errors = [(iterir.parse(text, "e.itir"), provider) for _, text, provider, _ in ERRORS]
    samples = [
        (iterir.from_json(s["ir"]), offset_types_from_json(s["offset_provider_type"]))
        for s in GTIR_SAMPLES[::16]
    ]
    return [*errors, *samples]


def test_fencil_programs_in_threads_give_what_they_give_alone() -> None:
    assert_alike_in_threads(_fencil_programs())


def test_gtir_programs_in_threads_give_what_they_give_alone() -> None:
    assert_alike_in_threads(_gtir_programs())


def _mutated(node: Node, data: st.DataObject) -> Node:
    """`node` with one literal's dtype changed, which makes most programs ill-typed."""
    literals = [n for n in iterir.walk(node) if isinstance(n, Literal)]
    if not literals:
        return node
    target = data.draw(st.sampled_from(literals))
    return _retyped(node, target, data.draw(st.sampled_from(sorted(PRIMITIVES - {target.type}))))


def _retyped(node: Node, literal: Literal, dtype: str) -> Node:
    """`node` with `literal` (by identity) of `dtype`."""
    return _OneReplaced(literal, Literal(literal.value, dtype)).visit(node)  # type: ignore[no-any-return]


class _OneReplaced(NodeTranslator):
    """A tree with the node `target` (by identity) made `replacement`."""

    def __init__(self, target: Node, replacement: Node) -> None:
        self.target, self.replacement = target, replacement

    def generic_visit(self, node: Node, **kwargs: Any) -> Visit:
        if node is self.target:
            return self.replacement
        rebuilt = yield from super().generic_visit(node, **kwargs)
        return rebuilt


@settings(max_examples=10)
@given(st.data())
def test_generated_programs_in_threads_give_what_they_give_alone(data: st.DataObject) -> None:
    """Well-typed programs, the same with a literal's dtype changed (type errors, which the
    explaining run explains), and arbitrary ones (mostly names not defined)."""
    typed = [node for node, _ in data.draw(st.lists(well_typed_programs, min_size=2, max_size=4))]
    mutated = [_mutated(node, data) for node in typed]
    arbitrary = data.draw(st.lists(strategies.programs, min_size=1, max_size=3))
    assert_alike_in_threads([(node, None) for node in (*typed, *mutated, *arbitrary)])


# -- the cells every inference shares are never written ------------------------------------------
def _graph(cells: Sequence[Cell]) -> Iterator[Cell]:
    """Every cell reachable from `cells`, each once (through links and arguments)."""
    seen: set[int] = set()
    stack = list(cells)
    while stack:
        cell = stack.pop()
        if id(cell) in seen:
            continue
        seen.add(id(cell))
        yield cell
        if cell.parent is not None:
            stack.append(cell.parent)
        stack += cell.args


def _shared_cells() -> list[Cell]:
    """The cells that every inference reaches: the constants of the core and GTIR, and the
    builtins' cached types and schemes (the fencil's, their forms for an arity, GTIR's)."""
    constants = [
        c.ITERATOR,
        c.VALUE,
        c.COLUMN,
        c.SCALAR,
        c.ANYWHERE,
        engine.T_EMPTY,
        engine.D_EMPTY,
    ]
    constants += [c.L_EMPTY, gtir_terms.NO_DIM, gtir_terms.axis_cell("Vertex", "horizontal")]
    constants += [engine.prim(name) for name in sorted(PRIMITIVES | SPECIAL_DTYPES)]
    roots: list[Cell] = []
    for signature in BUILTINS.values():
        if signature.type is None or signature.scheme is None:
            continue
        roots += [signature.type, *signature.scheme.cells]
        if signature.takes_any_arity:
            for arity in (1, 2, 3):
                made = shaped.for_arity(signature, arity)
                roots += [made.type] if made.type is not None else []
    for made in (shaped.make_tuple(2), shaped.tuple_get(1), shaped.closure(2)):
        roots += [made.type] if made.type is not None else []
    for name in gtir_signatures.SIGNATURES:
        roots += gtir_signatures.scheme(name).cells
    return [*constants, *_graph(roots)]


def test_no_inference_writes_a_cell_that_inferences_share() -> None:
    """After inferences of every kind (the fast run and the explaining run, both dialects, both
    notations printed), no shared cell holds a search's mark, nor a link under another cell (so
    that `find` there writes nothing either)."""
    for node, provider in [*_fencil_programs()[::3], *_gtir_programs()[::3]]:
        outcome(node, provider)
    shared = _shared_cells()
    assert len(shared) > 500  # the builtins' types are there
    marked = [cell for cell in shared if cell.mark is not None]
    assert not marked, f"{len(marked)} shared cells marked, e.g. {marked[:3]}"
    linked = [cell for cell in shared if cell.parent is not None]
    assert not linked, f"{len(linked)} shared cells linked, e.g. {linked[:3]}"


def test_a_constant_is_one_cell_without_arguments_nor_meet_rule() -> None:
    """One cell per constructor and label, the same in every thread; a constructor whose
    structures take arguments, or that has a `meet` rule (which relinks a structure), makes
    none: a constant is never written."""
    assert engine.constant(c.LENGTH, 7) is engine.constant(c.LENGTH, 7)
    label = "a location no other test names"
    made = together(1, lambda thread, program: f"{id(engine.constant(c.LOC, label))}")
    assert len({said for got in made for said in got}) == 1
    assert engine.constant(c.LOC, label).label == label
    with pytest.raises(ValueError, match="takes arguments or has a `meet` rule"):
        engine.constant(c.VAL)
    with pytest.raises(ValueError, match="takes arguments or has a `meet` rule"):
        engine.constant(engine.Constructor("Bare", Sort.DTYPE, meet=lambda x, y, postponed: []))
