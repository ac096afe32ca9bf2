"""The one dispatch by dialect (`typeinf.dialect.decide`, docs/architecture.md): made from the
input alone, before inference, and never retried after an error."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import pytest

import iterir
import typeinf
from iterir.gtir_types import ScalarType
from iterir.nodes import AxisLiteral, FunCall, Lambda, Literal, Node, Sym, SymRef, holds_gtir
from iterir.printer import is_gtir
from typeinf import route
from typeinf.core.errors import MalformedIRError
from typeinf.core.offsets import Offsets, read_offsets
from typeinf.dialect import Decided, Dialect, decide
from typeinf.fencil import collect as fencil_collect
from typeinf.frontends import cli
from typeinf.gtir import collect as gtir_collect

#: No offset provider, read.
NONE = read_offsets(None)

FENCIL_TEXT = """\
f(inp, out, n) {
  id = λ(a) → a;
  out ← (λ(a) → ·a)(inp) @ c⟨ IDim: [0, n) ⟩;
}"""
GTIR_PROGRAM_TEXT = """\
f(inp: Field[[IDimₕ], f64], out: Field[[IDimₕ], f64]) {
  out @ c⟨ IDimₕ: [0, 5[ ⟩ ← as_fieldop(λ(a) → ·a, c⟨ IDimₕ: [0, 5[ ⟩)(inp);
}"""


def _named_range(axis: AxisLiteral) -> Node:
    return FunCall(SymRef("named_range"), (axis, Literal("0", "int32"), Literal("5", "int32")))


#: A tree, and the dialect that types it, with why.
TABLE: list[tuple[str, Node, Dialect]] = [
    ("a fencil", iterir.parse(FENCIL_TEXT), Dialect.FENCIL),
    ("a GTIR program", iterir.parse(GTIR_PROGRAM_TEXT), Dialect.GTIR),
    ("an expression without marks", iterir.parse("λ(it) → ·it"), Dialect.FENCIL),
    (
        "an expression calling as_fieldop",
        iterir.parse("λ(a) → as_fieldop(λ(x) → ·x)(a)"),
        Dialect.GTIR,
    ),
    (
        "a parameter with a type",
        Lambda((Sym("x", type=ScalarType("int32")),), SymRef("x")),
        Dialect.GTIR,
    ),
    (
        "a free name with a type",
        FunCall(SymRef("plus"), (SymRef("a", type=ScalarType("int32")), Literal("1", "int32"))),
        Dialect.GTIR,
    ),
    ("an axis with a kind", _named_range(AxisLiteral("IDim", kind="horizontal")), Dialect.GTIR),
    ("an axis without one", _named_range(AxisLiteral("IDim")), Dialect.FENCIL),
]


@pytest.mark.parametrize(("what", "tree", "dialect"), TABLE, ids=[row[0] for row in TABLE])
def test_the_dialect_is_decided_from_the_input(what: str, tree: Node, dialect: Dialect) -> None:
    assert decide(tree, NONE).dialect is dialect


@pytest.mark.parametrize(("what", "tree", "dialect"), TABLE, ids=[row[0] for row in TABLE])
def test_inference_runs_only_the_collector_of_the_dialect_decided(
    what: str, tree: Node, dialect: Dialect, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No guess and no retry: the other dialect's collector is never started, so a program is
    never typed once as the wrong IR and then again."""
    other = gtir_collect.GtirInference if dialect is Dialect.FENCIL else fencil_collect.Inference

    def refused(*args: object, **kwargs: object) -> None:
        raise AssertionError(f"{what}: the other dialect's collector was started")

    monkeypatch.setattr(other, "__init__", refused)
    typeinf.check(tree)
    typeinf.infer_all(tree)


def test_the_numbering_made_to_decide_is_handed_on_not_made_again() -> None:
    tree = iterir.parse("λ(it) → ·it")
    decided = decide(tree, NONE)
    assert decided.tree is not None
    nodes, sizes = decided.tree
    assert nodes[0] is tree and sizes[0] == len(nodes) == len(list(iterir.walk(tree)))
    # A root whose class decides alone is not numbered here.
    assert decide(iterir.parse(FENCIL_TEXT), NONE).tree is None


@pytest.mark.parametrize("text", [FENCIL_TEXT, GTIR_PROGRAM_TEXT, "λ(it) → ·it", "λ(x: f64) → x"])
@pytest.mark.parametrize("command", ["infer", "explain"])
def test_the_command_line_decides_once_per_file(
    text: str, command: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`route` hands the decision on with the provider: `solve_either` and `explain` do not
    decide again (an expression's second decision was a second walk of its tree)."""
    path = tmp_path / "program.itir"
    path.write_text(text + "\n", encoding="utf-8")
    calls: list[Node] = []

    def counted(node: Node, offsets: Offsets, within: Node | None = None) -> Decided:
        calls.append(node)
        return decide(node, offsets, within)

    monkeypatch.setattr(route, "decide", counted)
    target = f"{path}:1:1" if command == "explain" else str(path)
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        cli.main([command, target])
    assert len(calls) == 1


def test_an_offset_provider_in_gt4pys_form_makes_an_expression_gtir() -> None:
    expression = iterir.parse("λ(it) → ·it")
    gt4py_form = {"V2E": {"t": "NeighborConnectivityType", "domain": [], "codomain": {}}}
    assert decide(expression, read_offsets(gt4py_form)).dialect is Dialect.GTIR
    # A fencil reads that form too: still the fencil IR's.
    assert decide(iterir.parse(FENCIL_TEXT), read_offsets(gt4py_form)).dialect is Dialect.FENCIL


def test_a_definition_inferred_within_a_fencil_is_the_fencil_irs() -> None:
    fencil = iterir.parse(FENCIL_TEXT)
    assert isinstance(fencil, iterir.FencilDefinition)
    definition = fencil.function_definitions[0]
    assert decide(definition, NONE, within=fencil).dialect is Dialect.FENCIL
    assert str(typeinf.infer(definition, within=fencil)) == "id :: (T₀) → T₀"


def test_a_typed_parameter_is_read_not_ignored() -> None:
    """Before the dispatch was explicit, the fencil IR typed this tree first and, finding no
    error, ignored the parameter's type."""
    tree = Lambda((Sym("x", type=ScalarType("int32")),), SymRef("x"))
    assert str(typeinf.infer(tree)) == "(int32) → int32"


def test_an_ill_typed_expression_without_marks_gets_the_fencil_irs_error() -> None:
    with pytest.raises(typeinf.TypeInferenceError) as error:
        typeinf.infer(iterir.parse("deref(1)"))
    assert "deref" in str(error.value)


def test_a_malformed_tree_is_said_malformed() -> None:
    tree = FunCall(SymRef("deref"), ("not a node",))  # type: ignore[arg-type]  # malformed on purpose
    assert decide(tree, NONE).dialect is Dialect.FENCIL
    with pytest.raises(MalformedIRError):
        typeinf.infer(tree)


def test_the_printer_and_inference_share_one_definition_of_gtir_marks() -> None:
    """`as_fieldop` marks a tree for inference (only GTIR has the builtin), not for the printer
    (fencil text can spell the call)."""
    for what, tree, dialect in TABLE:
        marked = holds_gtir(list(iterir.walk(tree)))
        if what != "an expression calling as_fieldop":
            assert is_gtir(tree) is (dialect is Dialect.GTIR), what
            assert marked is (dialect is Dialect.GTIR) or isinstance(tree, iterir.Program), what
        else:
            assert not is_gtir(tree) and not marked
            assert holds_gtir(list(iterir.walk(tree)), {"as_fieldop"})
