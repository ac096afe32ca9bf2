"""A GTIR builtin with a relation of its own, added as a newcomer would add one: by following
docs/architecture.md's checklist ("Adding a GTIR builtin") alone. Each edit the checklist asks
for is made here, in a copy of the packages, and the copy types programs in a subprocess; the
repository's own files are not touched, so no other test sees the toy.

The toy is `widest(a, b)`: the wider of two numeric scalars, in the order int32 < int64 <
float32 < float64. No signature can say it (its result is a function of both arguments' types,
known only once they are), so it is a rule and a new relation, `Widest(a, b, out)`, which waits
until both inputs are known, then settles `out`; a `bool` has no place in the order and is a
located error. As a signature of a generalized definition it prints in the `where` clause:
`(T₀, T₁) → T₂ where T₂ = widest(T₀, T₁)`.

`test_the_checklist_names_every_file_this_test_edits` keeps the page and this test together: a
step that moves to another file must move in both.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import NamedTuple

import pytest

ROOT = Path(__file__).resolve().parent.parent
ARCHITECTURE = ROOT / "docs" / "architecture.md"
SECTION = "## Adding a GTIR builtin"


class Edit(NamedTuple):
    """One step of the checklist: in `path`, `text` inserted after the line `after` (the end of
    the file where `after` is None)."""

    step: str
    path: str
    after: str | None
    text: str


EDITS = [
    Edit(
        "its words",
        "typeinf/gtir/messages.py",
        None,
        """

def no_width(label: str) -> str:
    return f"`{label}` has no place in the order"
""",
    ),
    Edit(
        "its name",
        "iterir/vocabulary.py",
        None,
        '\nGTIR_BUILTINS = GTIR_BUILTINS | frozenset(["widest"])\n',
    ),
    Edit(
        "its relation",
        "typeinf/gtir/relations.py",
        None,
        '''

#: `widest`'s order of scalars.
WIDTHS = ("int32", "int64", "float32", "float64")


class Widest(Relation):
    """`out` is the wider of the scalars `a` and `b` (`widest`)."""

    __slots__ = ()

    def fire(self, equate: Equate) -> bool:
        a, b, out = self.cells
        inputs = [known(a), known(b)]
        for cell in inputs:
            if cell is not None and (cell.ctor is not PRIM or cell.label not in WIDTHS):
                raise CannotHold(messages.no_width(str(cell.label)))
        if inputs[0] is None or inputs[1] is None:
            return False
        labels = [str(cell.label) for cell in inputs if cell is not None]
        equate(out, g.scalar(max(labels, key=WIDTHS.index)))
        return True

    def show(self, name: Callable[[Cell], str]) -> str:
        a, b, out = self.cells
        return f"{name(out)} = widest({name(a)}, {name(b)})"
''',
    ),
    Edit(
        "its rule",
        "typeinf/gtir/tuples.py",
        None,
        '''

def rule_widest(inf: GtirInference, position: int, node: FunCall, args: list[int]) -> Cell:
    """`widest(a, b)`: the wider of two scalars (`relations.Widest`)."""
    check_arity(node, 2)
    result = var(Sort.DTYPE)
    inf.relate(Widest(inf.type_at(args[0]), inf.type_at(args[1]), result), position)
    return result
''',
    ),
    Edit(
        "its rule's import",
        "typeinf/gtir/tuples.py",
        "from typeinf.gtir.relations import Scalar, TupleMapped, as_lists, promoted",
        "from typeinf.gtir.relations import Widest\n",
    ),
    Edit(
        "its entry in the table",
        "typeinf/gtir/rules.py",
        "RULES: dict[str, Rule] = {",
        '    "widest": Rule(tuples.rule_widest),\n',
    ),
]

#: What the copy types, and what each must give (`str` of the type, or `Class: message`).
PROGRAMS = {
    "widest((x: i32), (y: f64))": "float64",
    "widest((x: i64), 1.0:f32) + (z: f32)": "float32",
    "widest(widest((x: i32), (y: i64)), 1.0:f32)": "float32",
    "p(a: Field[[IDimₕ], f64], n: i32) { f = λ(u, v) → widest(u, v); a @ c⟨ IDimₕ: [0, n[ ⟩ ← a; }": (
        "{f :: (T₀, T₁) → T₂ where T₂ = widest(T₀, T₁), p(Field[[IDim], float64], int32)}"
    ),
    "widest((b: bool), (x: i32))": (
        "UnsatisfiableConstraintError: `T₀ = widest(bool, int32)` cannot hold: "
        "`bool` has no place in the order"
    ),
    "widest((x: i32))": "GrammarBuiltinError: `widest` takes 2 arguments, not 1",
}

#: Run in the copy: each program's type or error, as JSON.
TYPE_THEM = """
import json, sys
import iterir, typeinf
out = {}
for text in json.loads(sys.argv[1]):
    try:
        out[text] = str(typeinf.infer(iterir.parse(text)))
    except typeinf.TypeInferenceError as error:
        out[text] = f"{type(error).__name__}: {error.args[0]}"
print(json.dumps(out))
"""


def edited_copy(folder: Path) -> Path:
    """The packages and the builtins' data copied into `folder`, with every edit made: the
    sources alone, without a compiled build's modules (`tools/compile.py`), which Python would
    import in place of the edited sources."""
    skipped = shutil.ignore_patterns("__pycache__", "*.so", "*.pyd")
    for name in ("iterir", "typeinf", "builtins"):
        shutil.copytree(ROOT / name, folder / name, ignore=skipped)
    for edit in EDITS:
        path = folder / edit.path
        text = path.read_text(encoding="utf-8")
        if edit.after is None:
            text += edit.text
        else:
            line = edit.after + "\n"
            assert text.count(line) == 1, f"{edit.path}: the line to follow is not there once"
            text = text.replace(line, line + edit.text)
        path.write_text(text, encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def typed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """What the edited copy says of each of `PROGRAMS`."""
    folder = edited_copy(tmp_path_factory.mktemp("newcomer"))
    done = subprocess.run(
        [sys.executable, "-c", TYPE_THEM, json.dumps(list(PROGRAMS))],
        cwd=folder,
        env={"PYTHONPATH": str(folder), "PATH": ""},
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    result: dict[str, str] = json.loads(done.stdout)
    return result


@pytest.mark.parametrize("text", list(PROGRAMS))
def test_the_new_builtin_types_as_its_relation_says(typed: dict[str, str], text: str) -> None:
    assert typed[text] == PROGRAMS[text]


def test_without_the_edits_the_name_is_unknown() -> None:
    """The toy is not in the repository: the same program is an error there."""
    import iterir
    import typeinf

    with pytest.raises(typeinf.TypeInferenceError, match="widest"):
        typeinf.infer(iterir.parse("widest((x: i32), (y: f64))"))


def test_the_checklist_names_every_file_this_test_edits() -> None:
    page = ARCHITECTURE.read_text(encoding="utf-8")
    assert SECTION in page
    section = page.split(SECTION, 1)[1].split("\n## ", 1)[0]
    named = set(re.findall(r"`([\w/]+\.py)`", section))
    assert {edit.path for edit in EDITS} <= named
    assert "tests/test_newcomer_gtir_builtin.py" in section
