"""Messages never pass a program's control or bidirectional characters to the terminal, stay
about one screen long whatever the size of a name, cycle or type, and warn about bidirectional
controls (Trojan Source)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import iterir
import typeinf
from iterir.display import LINE_WIDTH, escaped, is_unsafe, shortened, shown
from iterir.errors import excerpt
from iterir.trojan import bidi_warnings

ROOT = Path(__file__).resolve().parent.parent
FENCIL_END = "  a ← (λ(i) → ·i)(a) @ c⟨ IDim: [0, 1) ⟩;\n}\n"


def _infer(path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "typeinf", "infer", str(path), *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
        check=False,
    )


def _run(
    tmp_path: Path, name: str, text: str, *args: str
) -> tuple[Path, subprocess.CompletedProcess[str]]:
    """`typeinf infer` of `text`, written to the file `name`."""
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path, _infer(path, *args)


def _declared_twice(name: str) -> str:
    return f"f(a) {{\n  {name} = λ(x) → x;\n  {name} = λ(x) → x;\n{FENCIL_END}"


# -- escaping ---------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "stderr"),
    [
        (
            "λ(x) → x + `a\x1b]0;pwned\x07\x1b[2J` + 1.0 + \x00\n",
            ":1:12: error: invalid escape in a quoted name: Invalid control character at\n"
            "    λ(x) → x + `a\\u001b]0;pwned\\u0007\\u001b[2J` + 1.0 + \\u0000\n"
            "               ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n",
        ),
        (
            "λ(x) → 1.0 + \x00\n",
            ":1:14: error: unexpected character `\\u0000`; expected an operand\n"
            "    λ(x) → 1.0 + \\u0000\n"
            "                 ^^^^^^\n",
        ),
    ],
)
def test_control_characters_in_the_program_are_shown_escaped(
    tmp_path: Path, text: str, stderr: str
) -> None:
    """A terminal escape (title, clear screen) and a NUL byte: escaped, carets under them."""
    path, done = _run(tmp_path, "p.itir", text)
    assert (done.returncode, done.stdout, done.stderr) == (2, "", f"{path}{stderr}")


def test_a_name_with_control_characters_is_escaped_in_messages(tmp_path: Path) -> None:
    name = "`b\\u001b[2J\\u0000`"
    path, done = _run(tmp_path, "p.itir", _declared_twice(name))
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == (
        f"{path}:3:3: error: `b\\u001b[2J\\u0000` is declared twice\n"
        "      `b\\u001b[2J\\u0000` = λ(x) → x;\n"
        "      ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n"
        "  note: the first `b\\u001b[2J\\u0000` is declared at 2:3\n"
        f"{path}: 1 type error\n"
    )


def test_excerpt_escapes_and_keeps_the_caret_under_its_character() -> None:
    assert excerpt("a\x00b\u202ec + 1", 5, 6) == ("    a\\u0000b\\u202ec + 1\n                  ^")
    assert excerpt("\ttab\r\n", 2, 5) == "     tab\n     ^^^"


@given(
    st.lists(
        st.sampled_from(["a", " ", "\x1b", "\x00", "\u202e", "\u2066", "\x85", "\t", "λ"]),
        min_size=1,
        max_size=300,
    ),
    st.data(),
)
def test_excerpt_property(chars: list[str], data: st.DataObject) -> None:
    """Whatever the line, nothing unsafe is shown, and the caret stands where the character it
    marks begins in the shown line."""
    line = "".join(chars)
    column = data.draw(st.integers(1, len(line)))
    shown_line, carets = excerpt(line, column, column + 1).split("\n")
    assert not any(is_unsafe(c) for c in shown_line + carets)
    at = carets.index("^")
    char = line[column - 1]
    expected = " " if char == "\t" else escaped(char)
    assert shown_line[at : at + len(expected)] == expected
    assert len(carets) - at == len(expected)


def test_str_of_errors_is_escaped_and_short() -> None:
    with pytest.raises(typeinf.TypeInferenceError) as caught:
        typeinf.infer(
            iterir.parse(
                "f(a) { `x\\u001b` = λ(y) → y; `x\\u001b` = λ(y) → y; a ← (λ(i) → ·i)(a) @ c⟨ IDim: [0, 1) ⟩; }"
            )
        )
    assert str(caught.value) == "<string>:1:30: error: `x\\u001b` is declared twice"
    with pytest.raises(iterir.ParseError) as parse_error:
        iterir.from_json({"node": "Sym" + "\x1b" * 1000, "id": "x"}, "p.json")
    text = str(parse_error.value)
    assert "\x1b" not in text and len(text) < 200
    assert text.startswith("p.json: $: error: unknown node 'Sym\\x1b\\x1b")


# -- shortening -------------------------------------------------------------------------------------
def test_shortened_keeps_both_ends_and_says_the_length() -> None:
    assert shortened("abc", 3) == "abc"
    assert shortened("g" * 1000, 40) == "gggggggggggggg…(1,000 characters)…gggggg"
    assert shortened("d0 → d1 → d2 → d3 → d4 → d5 → d6 → d7 → d8 → d9 → d0", 40) == (
        "d0 → d1 → d2 → …(52 characters)… → d0"
    )
    assert shown("`" + "x" * 200 + "` is declared twice") == (
        "`xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…(200 characters)…xxxxxxxxxxxxxxxxxxxx` "
        "is declared twice"
    )


def test_a_million_character_name_is_shortened(tmp_path: Path) -> None:
    name = "g" * 1_000_000
    path, done = _run(tmp_path, "p.itir", _declared_twice(name))
    assert (done.returncode, done.stdout) == (1, "")
    short = "g" * 38 + "…(1,000,000 characters)…" + "g" * 18
    assert done.stderr == (
        f"{path}:3:3: error: `{short}` is declared twice\n"
        f"      {'g' * 98}…\n"
        f"      {'^' * 98}\n"
        f"  note: the first `{short}` is declared at 2:3\n"
        f"{path}: 1 type error\n"
    )


def test_a_ten_thousand_definition_cycle_is_shortened(tmp_path: Path) -> None:
    count = 10_000
    definitions = "".join(f"  d{i} = λ(x) → d{(i + 1) % count}(x);\n" for i in range(count))
    path, done = _run(tmp_path, "p.itir", f"f(a) {{\n{definitions}{FENCIL_END}")
    assert (done.returncode, done.stdout) == (1, "")
    first, *rest = done.stderr.splitlines()
    assert len(done.stderr) < 1000
    assert first.startswith(f"{path}:10001:18: error: recursion is not allowed: d0 → d1 → d2 → ")
    assert first.endswith(" → d9998 → d9999 → d0") and "…(78," in first
    assert rest == [
        "      d9999 = λ(x) → d0(x);",
        "                     ^^",
        f"{path}: 1 type error",
    ]


def test_a_three_thousand_element_tuple_type_is_shortened(tmp_path: Path) -> None:
    items = ", ".join("1" for _ in range(3000))
    _, done = _run(tmp_path, "p.itir", f"λ(x) → {{{items}}} + 1\n")
    assert (done.returncode, done.stdout) == (1, "")
    details = done.stderr.splitlines()[3]
    # Two long types: what they share is cut, where they differ (the `²`) kept.
    assert details == (
        "  expected `T₀¹`, found `(int32, int32, …(20,971 alike)… int32, int32)²`; `plus` needs "
        "a number, found `(int32, int32, …(20,971 alike)… int32, int32)`; where T₀: numeric"
    )
    assert all(len(line) <= LINE_WIDTH + 10 for line in done.stderr.splitlines())


def test_json_output_carries_the_full_text(tmp_path: Path) -> None:
    name = "g" * 500
    _, done = _run(tmp_path, "p.itir", _declared_twice(name), "--json")
    (diagnostic,) = json.loads(done.stdout)["files"][0]["diagnostics"]
    assert diagnostic["message"] == f"`{name}` is declared twice"


# -- Trojan Source -----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "stdout", "stderr"),
    [
        (
            "# access \u202e ytiruces\nλ(x) → x\n",
            "(T₀) → T₀\n",
            ":1:10: warning: bidirectional control character U+202E (RIGHT-TO-LEFT OVERRIDE): "
            "it can make the program read otherwise than it runs (Trojan Source)\n"
            "    # access \\u202e ytiruces\n"
            "             ^^^^^^\n",
        ),
        (
            "λ(`is\\u2066admin`) → `is\\u2066admin` + 1\n",
            "(int32⁰) → int32⁰\n",
            ":1:3: warning: `is\\u2066admin` holds the bidirectional control character U+2066 "
            "(LEFT-TO-RIGHT ISOLATE): it can make the program read otherwise than it runs "
            "(Trojan Source)\n"
            "    λ(`is\\u2066admin`) → `is\\u2066admin` + 1\n"
            "      ^^^^^^^^^^^^^^^\n",
        ),
    ],
)
def test_a_bidi_control_in_text_is_a_located_warning(
    tmp_path: Path, text: str, stdout: str, stderr: str
) -> None:
    """In a comment (raw), in a name (written as an escape): a warning; the exit code stays."""
    path, done = _run(tmp_path, "p.itir", text)
    assert (done.returncode, done.stdout, done.stderr) == (0, stdout, f"{path}{stderr}")


def test_a_bidi_control_in_a_json_name_is_a_warning_at_its_path(tmp_path: Path) -> None:
    program = {
        "node": "Lambda",
        "params": [{"node": "Sym", "id": "x\u202e"}],
        "expr": {"node": "SymRef", "id": "x\u202e"},
    }
    path, done = _run(tmp_path, "p.json", json.dumps(program))
    assert (done.returncode, done.stdout) == (0, "(T₀) → T₀\n")
    assert done.stderr == (
        f"{path}: $.params[0]: warning: `x\\u202e` holds the bidirectional control character U+202E "
        "(RIGHT-TO-LEFT OVERRIDE): it can make the program read otherwise than it runs "
        "(Trojan Source)\n"
    )
    report = json.loads(_infer(path, "--json").stdout)["files"][0]
    (warning,) = report["diagnostics"]
    assert (warning["severity"], warning["kind"], warning["json_path"]) == (
        "warning",
        "BidiWarning",
        "$.params[0]",
    )
    assert report["type"] == "(T₀) → T₀"


def test_no_warning_without_bidi_controls() -> None:
    node = iterir.parse("λ(x) → `a\\u0041b` + 1  # ok")
    assert bidi_warnings(node, "λ(x) → `a\\u0041b` + 1  # ok") == []
    assert bidi_warnings(iterir.parse("λ(x) → x"), None) == []
