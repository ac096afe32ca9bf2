"""The pytest plugin keeps every test's snapshot apart: the file name is the whole node id (class
and parameters included), escaped injectively, and still a readable, valid file name."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import unquote

import pytest
from hypothesis import given
from hypothesis import strategies as st

from typeinf.frontends.pytest_plugin import _escaped, _stem

# Each test of a colliding pair has a type of its own: were their files one, one would fail.
COLLISIONS = """
import iterir
import pytest

class TestA:
    def test_same(self, typeinf_snapshot):
        typeinf_snapshot.check(iterir.parse("1.0"))

class TestB:
    def test_same(self, typeinf_snapshot):
        typeinf_snapshot.check(iterir.parse("1"))

@pytest.mark.parametrize("literal", ["True", "1.0"], ids=["int/32", "int_32"])
def test_ids(typeinf_snapshot, literal):
    typeinf_snapshot.check(iterir.parse(literal))

def test_names(typeinf_snapshot):
    typeinf_snapshot.check(iterir.parse("1"))
    typeinf_snapshot.check(iterir.parse("1.0"))
    typeinf_snapshot.check(iterir.parse("True"), name="2")
    typeinf_snapshot.check(iterir.parse("λ(x) → x"), name="a.b/c")
"""


def test_tests_of_one_name_in_two_classes_and_colliding_ids_keep_apart(
    pytester: pytest.Pytester,
) -> None:
    pytester.makepyfile(test_compiler=COLLISIONS)
    pytester.runpytest("-p", "no:cacheprovider", "--typeinf-update").assert_outcomes(passed=5)
    folder = Path(pytester.path) / "__typeinf_snapshots__"
    assert {p.name: p.read_text(encoding="utf-8") for p in folder.iterdir()} == {
        "test_compiler.TestA.test_same.types": "float64⁰\n",
        "test_compiler.TestB.test_same.types": "int32⁰\n",
        "test_compiler.test_ids[int%2F32].types": "bool⁰\n",
        "test_compiler.test_ids[int_32].types": "float64⁰\n",
        "test_compiler.test_names.types": "int32⁰\n",
        "test_compiler.test_names.2.types": "float64⁰\n",
        "test_compiler.test_names.%32.types": "bool⁰\n",
        "test_compiler.test_names.a%2Eb%2Fc.types": "(T₀) → T₀\n",
    }
    pytester.runpytest("-p", "no:cacheprovider").assert_outcomes(passed=5)


def test_a_name_checked_twice_in_one_test_fails(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        test_twice="""
import iterir

def test_twice(typeinf_snapshot):
    typeinf_snapshot.check(iterir.parse("1"), name="x")
    typeinf_snapshot.check(iterir.parse("1.0"), name="x")
"""
    )
    result = pytester.runpytest("-p", "no:cacheprovider", "--typeinf-update")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        ["*test_twice.test_twice.x.types is already checked in this test: give another name=*"]
    )


def test_an_expected_file_that_cannot_be_read_fails_naming_it(
    pytester: pytest.Pytester,
) -> None:
    pytester.makepyfile(
        test_bad="""
import iterir

def test_bad(typeinf_snapshot):
    typeinf_snapshot.check(iterir.parse("1"))
"""
    )
    folder = Path(pytester.path) / "__typeinf_snapshots__"
    folder.mkdir()
    (folder / "test_bad.test_bad.types").write_bytes(b"int32\xff\n")
    result = pytester.runpytest("-p", "no:cacheprovider")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        ["*test_bad.test_bad.types:1:6: error: not UTF-8 text (byte 0xff at offset 5)*"]
    )


@pytest.mark.parametrize(
    ("node_id", "stem"),
    [
        ("t/test_a.py::test_x", "test_a.test_x"),
        ("t/test_a.py::TestA::TestInner::test_x", "test_a.TestA.TestInner.test_x"),
        ("t/test_a.py::test_x[a::b.c]", "test_a.test_x[a%3A%3Ab%2Ec]"),
        ("t/test_a.py::test_x[λ-1 %]", "test_a.test_x[λ-1%20%25]"),
    ],
)
def test_stems_of_node_ids(node_id: str, stem: str) -> None:
    assert _stem(Path("t/test_a.py"), node_id) == stem


def test_escaping_keeps_apart_the_ids_that_used_to_collide() -> None:
    texts = ["int/32", "int_32", "int 32", "int.32", "int%2F32", "int%32", "int:32", "int[32]"]
    assert len({_escaped(text) for text in texts}) == len(texts)


@given(st.text(st.characters(exclude_categories=("Cs",))))
def test_escaping_is_injective_and_gives_one_name(text: str) -> None:
    """Percent-decoding gives the text back (so two texts are never one name), and the result
    has no `/`, `.`, NUL or brackets: one file name part, never `..`."""
    escaped = _escaped(text)
    assert unquote(escaped, errors="strict") == text
    assert not set(escaped) & set("/.\0[]:\\")


def test_a_very_long_id_is_shortened_to_a_valid_file_name(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        test_long="""
import iterir
import pytest

@pytest.mark.parametrize("n", [1, 2], ids=["x" * 300 + "1", "x" * 300 + "2"])
def test_long(typeinf_snapshot, n):
    typeinf_snapshot.check(iterir.parse(str(n)))
"""
    )
    pytester.runpytest("-p", "no:cacheprovider", "--typeinf-update").assert_outcomes(passed=2)
    names = [p.name for p in (Path(pytester.path) / "__typeinf_snapshots__").iterdir()]
    assert len(names) == 2
    assert all(len(name.encode()) <= 200 and name.endswith(".types") for name in names)
    assert all(name.startswith("test_long.test_long[xxxx") for name in names)
    pytester.runpytest("-p", "no:cacheprovider").assert_outcomes(passed=2)
