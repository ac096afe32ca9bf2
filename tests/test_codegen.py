"""Generated code (`typeinf.core.codegen`): its source is registered so that tracebacks show it, and
the interpreted forms that `TYPEINF_NO_CODEGEN=1` runs give the same types."""

from __future__ import annotations

import linecache
import os
import subprocess
import sys
import traceback

import pytest

import iterir
from tests.conftest import ROOT
from typeinf import pformat
from typeinf.core import codegen
from typeinf.core.terms import Cell
from typeinf.fencil.signatures import BUILTINS


def test_a_traceback_through_generated_code_shows_its_lines() -> None:
    match = BUILTINS["plus"].match
    assert match is not None and codegen.CODEGEN
    broken = object()  # not a cell: reading its root fails inside the generated code
    with pytest.raises(AttributeError) as info:
        match([broken, broken], [])
    frames = [
        frame
        for frame in traceback.extract_tb(info.value.__traceback__)
        if "typeinf codegen" in frame.filename
    ]
    assert frames, "the generated function's frame is missing"
    assert frames[-1].line and "parent" in frames[-1].line
    assert linecache.getline(frames[-1].filename, frames[-1].lineno).strip() == frames[-1].line


def test_every_builtin_has_generated_forms_that_name_what_they_are() -> None:
    for name, signature in BUILTINS.items():
        if signature.how != "signature":
            continue
        for form, what in ((signature.instantiate, "instantiation"), (signature.instantiate_call, "call"),
                           (signature.match, "match")):  # fmt: skip
            code = getattr(form, "__code__", None)
            assert code is not None and code.co_filename.endswith(f": {what}>"), (name, what)


PROGRAM = "λ(a, b) → {·(↑(λ(x, y) → ·x + ·y))(a, b), reduce(plus, 0.0)(neighbors(V2Eₒ, a)), tuple_get(1, {1, ·b})}"


def test_the_interpreted_forms_give_the_same_types() -> None:
    script = (
        "import iterir, typeinf, typeinf.core.codegen as c; "
        f"print(c.CODEGEN, typeinf.pformat(typeinf.infer(iterir.parse({PROGRAM!r})), locations=True))"
    )
    outputs = []
    for flag in ("", "1"):
        environment = {**os.environ, "TYPEINF_NO_CODEGEN": flag, "PYTHONPATH": str(ROOT)}
        run = subprocess.run(
            [sys.executable, "-c", script],
            capture_output=True,
            text=True,
            env=environment,
            check=True,
        )
        outputs.append(run.stdout.split(" ", 1))
    assert [flag for flag, _ in outputs] == ["True", "False"]
    assert (
        outputs[0][1]
        == outputs[1][1]
        == pformat(__import__("typeinf").infer(iterir.parse(PROGRAM)), locations=True) + "\n"
    )
    assert isinstance(BUILTINS["deref"].instantiate(), Cell)
