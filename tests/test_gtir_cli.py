"""The command line, snapshots and the pytest fixture on GTIR (docs/gtir.md, "Typing"; the JSON
report: docs/json-output.md, "GTIR"), on the GTIR example `examples/gtir_vertex_sum.itir` (a
temporary, two function definitions, an `IfStmt`, a connectivity from its offset provider)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

import iterir
import typeinf
from tests.conftest import ROOT
from tests.test_offset_types_cli import _as_offset_types
from typeinf.core.diagnostics import Source
from typeinf.core.offsets import read_offsets
from typeinf.frontends.cli import main
from typeinf.frontends.snapshots import expected_text
from typeinf.route import route, solve_either

EXAMPLE = ROOT / "examples" / "gtir_vertex_sum.itir"
EDGE_SUM = (
    "edge_sum :: (It[D₀, D₁, float64]) → float64 where D₂ = shift(D₀, Offset[Vertex→Edge]), D₁ ⊆ D₂"
)
SCALED_WHERE = ["T₂: numeric", "D₁ ⊆ D₀", "D₄ ⊆ D₃"]
SCALED_SHARED = "scaled :: (It[D₂, D₃, T₄], It[D₅, D₆, T₄]) → T₄, vertex_sum("
SCALED = f"scaled :: (It[D₀, D₁, T₂], It[D₃, D₄, T₂]) → T₂ where {', '.join(SCALED_WHERE)}"
FIELD = "Field[[Vertex, KDimᵥ], float64]"
SIGNATURE = f"vertex_sum(Field[[Edge, KDimᵥ], float64], {FIELD}, {FIELD}, int32, int32, bool)"
BAD = """p(a: Field[[IDimₕ], f64], out: Field[[IDimₕ], i32], n: i32) {
  out @ c⟨ IDimₕ: [0, n[ ⟩ ← a;
  if (n) { out @ c⟨ IDimₕ: [0, n[ ⟩ ← a; } else { }
}
"""
WROTE = "the expression written is `Field[[IDim], float64]`, its target `Field[[IDim], int32]`"


def _run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_infer_prints_each_definition_then_the_program(capsys: pytest.CaptureFixture[str]) -> None:
    assert _run(["infer", str(EXAMPLE)], capsys) == (0, f"{EDGE_SUM}\n{SCALED}\n{SIGNATURE}\n", "")
    code, out, _ = _run(["infer", str(EXAMPLE), "--one-line"], capsys)
    assert (code, out) == (0, f"{{{EDGE_SUM}, {SCALED}, {SIGNATURE}}}\n")
    assert _run(["infer", str(EXAMPLE), "--defs"], capsys) == (0, f"{EDGE_SUM}\n{SCALED}\n", "")


def test_infer_all_lists_every_typed_node(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(["infer", str(EXAMPLE), "--all"], capsys)
    assert code == 0
    lines = out.splitlines()
    assert f"{EXAMPLE}:2:3: edge_sum = λ(it) → reduce(plus, 0.0)(ne… :: {EDGE_SUM}" in lines
    assert f"{EXAMPLE}:1:129: flag: i1 :: bool" in lines
    assert f"{EXAMPLE}:4:3: __tmp = temporary(domain=u⟨ Vertexₕ: [0… :: {FIELD}" in lines


def test_shared_names_number_every_gtir_node_s_type_as_one(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """As the fencil IR's: one numbering, so one `where` clause, on a line of its own."""
    code, out, err = _run(["infer", str(EXAMPLE), "--all", "--shared-names"], capsys)
    assert (code, err) == (0, "")
    lines = out.splitlines()
    shared = {line.partition(": ")[2] for line in lines}
    assert {
        "scaled = λ(a, b) → ·a × ·b; :: scaled :: (It[D₂, D₃, T₄], It[D₅, D₆, T₄]) → T₄",
        "a :: It[D₂, D₃, T₄]",
        "b :: It[D₅, D₆, T₄]",
        "·a × ·b :: T₄",
        "it :: It[D₀, D₁, float64]",
    } <= shared
    assert lines[-1] == (
        "where T₄: numeric, D₇ = shift(D₀, Offset[Vertex→Edge]), D₁ ⊆ D₇, D₃ ⊆ D₂, D₆ ⊆ D₅"
    )
    assert f":: {{edge_sum :: (It[D₀, D₁, float64]) → float64, {SCALED_SHARED}" in lines[0]
    code, out, _ = _run(["infer", str(EXAMPLE), "--all", "--shared-names", "--json"], capsys)
    (report,) = json.loads(out)["files"]  # the file is reported, not left out
    assert code == 0 and report["file"] == str(EXAMPLE) and report["diagnostics"] == []


def test_json_reports_every_part_as_gt4py_records_it(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(["infer", str(EXAMPLE), "--json"], capsys)
    assert code == 0
    (report,) = json.loads(out)["files"]
    field = {
        "t": "FieldType",
        "dims": [
            {"t": "Dimension", "value": "Vertex", "kind": "horizontal"},
            {"t": "Dimension", "value": "KDim", "kind": "vertical"},
        ],
        "dtype": {"t": "ScalarType", "kind": "float64", "shape": None},
    }
    assert [(p["name"], p["type"]) for p in report["params"]][1:] == [
        ("w", FIELD),
        ("out", FIELD),
        ("nv", "int32"),
        ("nk", "int32"),
        ("flag", "bool"),
    ]
    assert report["params"][1]["gt4py"] == field
    assert report["params"][1]["gt4py_str"] == "Field[[Vertex, KDim], float64]"  # GT4Py's str()
    assert report["params"][5]["tree"] == "bool"
    assert report["params"][1]["tree"]["dims"][1] == {
        "class": "Dimension",
        "value": "KDim",
        "kind": "vertical",
    }
    definitions = report["function_definitions"]
    assert [(d["name"], d["type"]) for d in definitions] == [
        ("edge_sum", EDGE_SUM.removeprefix("edge_sum :: ")),
        ("scaled", SCALED.removeprefix("scaled :: ")),
    ]
    assert not any("gt4py" in d for d in definitions)  # polymorphic: GT4Py has no form
    relations = [["D₂ = shift(D₀, Offset[Vertex→Edge])", "D₁ ⊆ D₂"], SCALED_WHERE]
    assert [d["relations"] for d in definitions] == relations
    trees = report["tree"]["definitions"]  # as a fencil's definitions' trees keep them
    assert [(d["name"], d["relations"]) for d in trees] == [
        ("edge_sum", relations[0]),
        ("scaled", relations[1]),
    ]
    assert trees[0]["type"] == definitions[0]["tree"]
    (temporary,) = report["temporaries"]
    assert (temporary["name"], temporary["type"], temporary["gt4py"]) == ("__tmp", FIELD, field)
    assert [(s["path"], s["target"]) for s in report["set_ats"]] == [
        ("0", "__tmp"),
        ("1.t.0", "out"),
        ("1.f.0", "out"),
    ]
    for set_at in report["set_ats"]:
        assert set_at["expr"]["gt4py"] == set_at["target_type"]["gt4py"] == field
        assert set_at["domain"]["type"] == "Domain[[Vertex, KDimᵥ]]"
        assert set_at["domain"]["gt4py"] == {"t": "DomainType", "dims": field["dims"]}
        assert set_at["domain"]["gt4py_str"] == (
            "DomainType(dims=[Dimension(value='Vertex', kind=<DimensionKind.HORIZONTAL: "
            "'horizontal'>), Dimension(value='KDim', kind=<DimensionKind.VERTICAL: 'vertical'>)])"
        )
    assert report["diagnostics"] == []


def test_json_of_an_expression_gives_gt4py_form_when_ground(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ground, open_ = tmp_path / "ground.itir", tmp_path / "open.itir"
    ground.write_text("(a: Field[[IDimₕ], i32]) + (b: Field[[IDimₕ], i32])\n", encoding="utf-8")
    open_.write_text("λ(x) → {x, (y: i32)}\n", encoding="utf-8")
    code, out, _ = _run(["infer", "--json", str(ground), str(open_)], capsys)
    first, second = json.loads(out)["files"]
    assert code == 1  # `plus` of fields: the first is an error
    assert (
        first["type"] is None and first["diagnostics"][0]["kind"] == "UnsatisfiableConstraintError"
    )
    assert second["type"] == "(T₀) → tuple[T₀, int32]" and "gt4py" not in second
    ground.write_text("get_domain_range((a: Field[[IDimₕ], i32]), IDimₕ)\n", encoding="utf-8")
    code, out, _ = _run(["infer", "--json", str(ground)], capsys)
    (report,) = json.loads(out)["files"]
    assert report["gt4py"] == {
        "t": "TupleType",
        "types": [{"t": "ScalarType", "kind": "int32", "shape": None}] * 2,
    }


def test_every_independent_error_is_located(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.itir"
    bad.write_text(BAD, encoding="utf-8")
    code, out, err = _run(["infer", str(bad)], capsys)
    assert (code, out) == (1, "")
    assert f"{bad}:2:30: error: {WROTE}\n" in err
    assert f"{bad}:3:7: error: the condition of `if` must be `bool`, not `int32`\n" in err
    assert f"{bad}:3:39: error: {WROTE}\n" in err
    assert err.endswith(f"{bad}: 3 type errors\n")
    code, _, err = _run(["infer", str(bad), "--max-errors", "1"], capsys)
    assert code == 1 and err.endswith(
        f"{bad}: 1 of at least 2 type errors shown (--max-errors 1)\n"
    )
    code, out, _ = _run(["infer", str(bad), "--json"], capsys)
    (report,) = json.loads(out)["files"]
    assert report["type"] is None and "params" not in report
    assert [
        (d["message"], d["span"]["line"], d["span"]["column"]) for d in report["diagnostics"]
    ] == [
        (WROTE, 2, 30),
        ("the condition of `if` must be `bool`, not `int32`", 3, 7),
        (WROTE, 3, 39),
    ]


def test_a_gtir_program_takes_gt4py_offset_provider_types(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ours = tmp_path / "ours.json"
    ours.write_text(
        '{"V2E": {"type": "Connectivity", "origin": "Vertex", "target": "Edge", '
        '"max_neighbors": 6, "has_skip_values": false}}',
        encoding="utf-8",
    )
    code, _, err = _run(["infer", str(EXAMPLE), "--offset-provider", str(ours)], capsys)
    assert code == 2 and err.startswith(f"{ours}: ")
    code, _, err = _run(
        ["infer", str(EXAMPLE), "--offset-provider", str(tmp_path / "none.json")], capsys
    )
    assert code == 2
    empty = tmp_path / "empty.json"
    empty.write_text("{}", encoding="utf-8")
    code, _, err = _run(["infer", str(EXAMPLE), "--offset-provider", str(empty)], capsys)
    assert code == 1
    assert "offset `V2E` is unknown: the offset provider does not name it" in err


def test_snapshots_of_a_gtir_program(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for suffix in (".itir", ".offsets.json"):
        shutil.copy(EXAMPLE.with_suffix("").with_suffix(suffix), tmp_path / f"g{suffix}")
    (tmp_path / "bad.itir").write_text(BAD, encoding="utf-8")
    code, out, _ = _run(["snapshot", "update", str(tmp_path)], capsys)
    assert code == 1 and "1 created, 1 not updated (type errors)" in out
    assert (tmp_path / "g.types").read_text(
        encoding="utf-8"
    ) == f"{EDGE_SUM}\n{SCALED}\n{SIGNATURE}\n"
    code, out, _ = _run(["snapshot", "update", "--accept-errors", str(tmp_path)], capsys)
    assert (tmp_path / "bad.types").read_text(encoding="utf-8").splitlines() == [
        f"2:30: error: {WROTE}",
        "3:7: error: the condition of `if` must be `bool`, not `int32`",
        f"3:39: error: {WROTE}",
    ]
    assert _run(["snapshot", "check", str(tmp_path)], capsys)[:2] == (0, "2 match\n")
    program = tmp_path / "g.itir"
    text = program.read_text(encoding="utf-8")
    program.write_text(text.replace("flag: bool", "flag: bool, m: i64"), encoding="utf-8")
    code, out, _ = _run(["snapshot", "check", str(tmp_path)], capsys)
    assert code == 1 and f"\n+{SIGNATURE[:-1]}, int64)\n" in out


PLUGIN_TEST = """
import iterir

def test_gtir(typeinf_snapshot):
    typeinf_snapshot.check(iterir.parse(
        "p(a: Field[[IDimₕ], f64], out: Field[[IDimₕ], f64]) {"
        " f = λ(x) → ·x; out @ c⟨ IDimₕ: [0, 5[ ⟩ ← as_fieldop(f, c⟨ IDimₕ: [0, 5[ ⟩)(a); }"
    ))
    typeinf_snapshot.check(
        iterir.parse("(⇑(λ(it) → ·⟪V2Eₒ, 0ₒ⟫(it)))((e: Field[[Edgeₕ], i32]))"),
        {"V2E": {"t": "NeighborConnectivityType",
                 "domain": [{"t": "Dimension", "value": "Vertex", "kind": "horizontal"},
                            {"t": "Dimension", "value": "V2E", "kind": "local"}],
                 "codomain": {"t": "Dimension", "value": "Edge", "kind": "horizontal"},
                 "skip_value": None, "dtype": "int32", "max_neighbors": 4}},
        name="expression",
    )
"""


def test_the_pytest_fixture_on_gtir(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_compiler=PLUGIN_TEST)
    pytester.runpytest("-p", "no:cacheprovider", "--typeinf-update").assert_outcomes(passed=1)
    folder = Path(pytester.path) / "__typeinf_snapshots__"
    assert (folder / "test_compiler.test_gtir.types").read_text(encoding="utf-8") == (
        "f :: (It[D₀, D₁, T₂]) → T₂ where D₁ ⊆ D₀\n"
        "p(Field[[IDim], float64], Field[[IDim], float64])\n"
    )
    assert (folder / "test_compiler.test_gtir.expression.types").read_text(encoding="utf-8") == (
        "Field[[Vertex], int32]\n"
    )
    pytester.runpytest("-p", "no:cacheprovider").assert_outcomes(passed=1)
    pytester.makepyfile(test_compiler=PLUGIN_TEST.replace("f64", "f32"))
    result = pytester.runpytest("-p", "no:cacheprovider")
    result.assert_outcomes(failed=1)
    assert "\n+p(Field[[IDim], float32], Field[[IDim], float32])\n" in result.stdout.str()


def test_explain_says_why_a_gtir_node_has_its_type(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(["explain", f"{EXAMPLE}:7:109"], capsys)
    assert code == 0
    assert out.splitlines() == [
        f"{EXAMPLE}:7:109: __tmp",
        f"  :: {FIELD}",
        "  because of a relation of `__tmp = temporary(domain=u⟨ Vertexₕ: [0…` at 4:3: "
        "__tmp = temporary(domain=u⟨ Vertexₕ: [0, nv[, KDi…",
        "  because of the typing of `__tmp` at 9:51: __tmp",
    ]
    code, out, _ = _run(["explain", f"{EXAMPLE}:3:24"], capsys)
    assert out.splitlines()[1:] == [
        "  :: T₀ where T₀: numeric",
        "  because of the typing of `multiplies` at 3:22: ·a × ·b",
    ]


def test_explain_in_a_gtir_program_with_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.itir"
    bad.write_text(BAD, encoding="utf-8")
    code, out, err = _run(["explain", f"{bad}:2:30"], capsys)
    assert code == 1
    assert (
        out
        == f"{bad}:2:30: a\n  :: Field[[IDim], float64]\n  (nothing constrains it beyond its own form)\n"
    )
    assert f"{bad}:2:30: error: {WROTE}\n" in err


def test_explain_at_a_builtin_name_or_the_program_gives_the_enclosing_type(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A builtin's name and a statement have no type of their own: the nearest enclosing node
    that has one is explained (the call; for the program, its type built from its parts)."""
    code, out, err = _run(["explain", f"{EXAMPLE}:2:22"], capsys)
    assert (code, err) == (0, "")
    assert out.splitlines()[:3] == [
        f"{EXAMPLE}:2:22: reduce",
        "  has no type of its own; the enclosing reduce(plus, 0.0) at 2:22 has",
        "  :: (List[float64, V2Eₗ]) → float64",
    ]
    for position in ("1:1", "6:3"):
        code, out, err = _run(["explain", f"{EXAMPLE}:{position}"], capsys)
        assert (code, err) == (0, "")
        assert f"  :: {{{EDGE_SUM}, {SCALED}, {SIGNATURE}}}" in out.splitlines()
        assert "because of the typing of `neighbors` at 2:40" in out


@pytest.mark.parametrize(
    ("text", "provider", "expected", "expected_located"),
    [  # an expression both IRs type: GT4Py's offset-provider types make it GTIR's
        ("λ(it) → ·⟪V2Eₒ, 0ₒ⟫(it)", "gtir", "(It[D₀, D₁, T₂]) → T₂", "(It[D₀, D₁, T₂]) → T₂"),
        (
            "λ(it) → ·⟪V2Eₒ, 0ₒ⟫(it)",
            "fencil",
            "(It[T₀¹]) → T₀¹",
            "(It[Vertex, Edge, T₀¹]) → T₀¹",
        ),
        # no GTIR mark: the fencil IR's
        ("λ(it) → ·it", None, "(It[T₀¹]) → T₀¹", "(It[T₂, T₂, T₀¹]) → T₀¹"),
    ],
)
def test_the_command_line_snapshots_the_fixture_and_the_api_type_an_input_alike(
    text: str,
    provider: str | None,
    expected: str,
    expected_located: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    program = tmp_path / "e.itir"
    program.write_text(text + "\n", encoding="utf-8")
    node = iterir.parse(text)
    data = None
    if provider is not None:
        source = EXAMPLE if provider == "gtir" else ROOT / "examples" / "edge_sum.itir"
        data = json.loads(source.with_suffix("").with_suffix(".offsets.json").read_text())
        (tmp_path / "e.offsets.json").write_text(json.dumps(data), encoding="utf-8")
    api = str(typeinf.infer(node, data))
    assert str(typeinf.check(node, data).type) == api
    assert _run(["infer", str(program)], capsys)[1] == api + "\n"
    located = _run(["infer", "--locations", str(program)], capsys)[1]
    assert _run(["snapshot", "update", str(tmp_path)], capsys)[0] == 0
    assert (tmp_path / "e.types").read_text(encoding="utf-8") == located
    assert (
        expected_text(solve_either(node, route(node, read_offsets(data))), Source()) == located
    )  # the fixture's
    assert api == expected
    assert located == expected_located + "\n"


def test_a_fencil_with_gt4pys_offset_provider_types_is_the_fencil_irs() -> None:
    """GT4Py's form is read for a fencil too: `typeinf.infer` typed it as GTIR and crashed."""
    nabla = ROOT / "examples" / "nabla.itir"
    ours = json.loads(nabla.with_suffix(".offsets.json").read_text(encoding="utf-8"))
    node = iterir.parse(nabla.read_text(encoding="utf-8"))
    assert typeinf.infer(node, _as_offset_types(ours)) == typeinf.infer(node, ours)


def test_ascii_spells_gtir_types_in_ascii(capsys: pytest.CaptureFixture[str]) -> None:
    for options in ([], ["--defs"], ["--one-line"]):
        code, out, _ = _run(["infer", str(EXAMPLE), "--ascii", *options], capsys)
        assert code == 0 and out.isascii(), out
    out = _run(["infer", str(EXAMPLE), "--ascii"], capsys)[1]
    assert "where D2 = shift(D0, Offset[Vertex->Edge]), D1 <= D2" in out
    assert "Field[[Vertex, KDim^v], float64]" in out
    lines = _run(["infer", str(EXAMPLE), "--ascii", "--all"], capsys)[1].splitlines()
    assert all(line.rpartition(" :: ")[2].isascii() for line in lines)  # the types
    explained = _run(["explain", f"{EXAMPLE}:1:1", "--ascii"], capsys)[1].splitlines()
    assert explained[1].startswith("  :: {edge_sum :: (It[D0, D1, float64]) -> float64")
    assert explained[1].isascii()
