"""Lone surrogates in names and quoted literals (issue: hostile input, §3).

JSON `"\\ud800"` and text `` `\\ud800` `` both read as a lone surrogate, which UTF-8 cannot
encode. Every command that prints the program or its names writes the surrogate as its escape,
which reads back as the same character: nothing crashes and nothing is altered.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import iterir
from iterir.jsontext import escape_surrogates

ROOT = Path(__file__).resolve().parent.parent
TEXT = 'λ(`\\ud800`, y) → if_(y, `\\udc00x`, "\\udfff"f32)\n'
COMMANDS = [
    ["format"],
    ["format", "--to", "json"],
    ["infer"],
    ["infer", "--all"],
    ["infer", "--json"],
    ["infer", "--locations"],
    ["infer", "--all", "--locations"],
]


def _run(args: list[str]) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONIOENCODING": "utf-8"}
    return subprocess.run(
        [sys.executable, "-m", "typeinf", *args], capture_output=True, env=env, timeout=120
    )


@pytest.fixture(params=["text", "json"])
def program(request: pytest.FixtureRequest, tmp_path: Path) -> Path:
    node = iterir.parse(TEXT)
    if request.param == "text":
        path = tmp_path / "p.itir"
        path.write_text(TEXT, encoding="utf-8")
    else:
        path = tmp_path / "p.json"
        path.write_text(json.dumps(iterir.to_json(node)), encoding="ascii")
    return path


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_every_printing_command_escapes_lone_surrogates(command: list[str], program: Path) -> None:
    result = _run([*command, str(program)])
    assert result.returncode == 0, result.stderr.decode("utf-8", "replace")
    out = result.stdout.decode("utf-8")  # strict: the output is valid UTF-8
    if command[0] == "format" or "--all" in command:  # these print the names
        assert "\\ud800" in out and "\\udc00x" in out


@pytest.mark.parametrize("to", ["text", "json"])
def test_format_output_reads_back_as_the_same_program(to: str, program: Path) -> None:
    args = ["format", str(program)] + (["--to", "json"] if to == "json" else [])
    result = _run(args)
    assert result.returncode == 0, result.stderr.decode("utf-8", "replace")
    printed = result.stdout.decode("utf-8")
    again = iterir.from_json(json.loads(printed)) if to == "json" else iterir.parse(printed)
    assert iterir.to_json(again) == iterir.to_json(iterir.parse(TEXT))


def test_escape_surrogates_only_touches_lone_surrogates() -> None:
    assert escape_surrogates("a\ud800b→\udfff") == "a\\ud800b→\\udfff"
    assert escape_surrogates("plain → ⁰") == "plain → ⁰"
    assert json.loads(escape_surrogates(json.dumps("\udc00", ensure_ascii=False))) == "\udc00"
