"""The fast and the explaining run of inference must agree on whether a program has a type: a
disagreement is a bug of ours, said as an InternalError (exit 3), never a silent answer. One
policy for both dialects (the driver, `typeinf.core.driver`): the fast run first, and only on
an error the explaining run, whose errors are reported; where a dialect shows its fast run's
errors as they are (GTIR's), both runs must also say them in the same words."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

import pytest

import iterir
import typeinf
from tests.conftest import needs_pure_python
from typeinf.core import runs
from typeinf.core.constraints import Equal
from typeinf.core.errors import UnsatisfiableConstraintError
from typeinf.core.solve import Solver
from typeinf.core.terms import Mismatch, Sort, var
from typeinf.fencil.collect import Inference
from typeinf.fencil.runs import ExplainingRun, FastRun
from typeinf.frontends.cli import main
from typeinf.gtir import runs as gtir_runs
from typeinf.gtir.collect import GtirSolver

#: Each test blinds a run by patching its solver's `equal`, a method the compiled build compiles.
pytestmark = needs_pure_python

ILL_TYPED = "λ(x) → ·x + True"


def _blind(
    monkeypatch: pytest.MonkeyPatch,
    which: Literal["fast", "explaining"],
    solver: type[Solver] = Solver,
    runs: tuple[type[Any], ...] = (FastRun, ExplainingRun),
) -> None:
    """Make the `which` run accept every constraint (its solver's equality: the explaining
    run's keeps a history, the fast run's none), and type a builtin's call as anything (that
    run's class of `runs`, the fencil IR's by default): it then finds no error where the other
    run does."""
    explaining = which == "explaining"
    seeing = solver.equal

    def equal(self: Solver, *constraint: Any) -> None:
        if (self.history is not None) != explaining:
            seeing(self, *constraint)

    monkeypatch.setattr(solver, "equal", equal)
    fast, explaining_run = runs
    blinded = explaining_run if explaining else fast
    monkeypatch.setattr(blinded, "call_builtin", lambda self, *parts: var(Sort.TYPE))


def test_an_error_the_explaining_run_cannot_find_is_an_internal_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _blind(monkeypatch, "explaining")
    with pytest.raises(
        typeinf.InternalError,
        match="the fast run of inference found a type error that the explaining run did not",
    ):
        typeinf.infer(iterir.parse(ILL_TYPED))


def test_check_follows_the_same_policy(monkeypatch: pytest.MonkeyPatch) -> None:
    """`check` runs the fast run first too: an error that its explaining run, which reports
    it, cannot find is an InternalError."""
    _blind(monkeypatch, "explaining")
    with pytest.raises(
        typeinf.InternalError,
        match="the fast run of inference found a type error that the explaining run did not",
    ):
        typeinf.check(iterir.parse(ILL_TYPED))


def test_a_program_without_an_error_is_inferred_once_by_the_fast_run(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The explaining run, slower, runs only where the fast run finds an error (for `check`
    too), in both dialects."""
    explaining = 0
    keeping = runs.ExplainingRun.__init__

    def counted(self: runs.ExplainingRun, solver: Solver) -> None:
        nonlocal explaining
        explaining += 1
        keeping(self, solver)

    monkeypatch.setattr(runs.ExplainingRun, "__init__", counted)
    assert typeinf.check(iterir.parse("λ(x) → ·x + 1")).errors == []
    assert typeinf.check(iterir.parse(GTIR_WELL_TYPED, "p.itir")).errors == []
    assert explaining == 0
    assert len(typeinf.check(iterir.parse(ILL_TYPED)).errors) == 1
    assert len(typeinf.check(iterir.parse(GTIR_ILL_TYPED, "e.itir")).errors) == 1
    assert explaining == 2


def test_the_fencil_irs_runs_may_blame_two_conflicting_uses_differently() -> None:
    """The fencil IR's fast run visits in reverse pre-order and blames the first of two
    conflicting uses; its explaining run, in post-order, the later, which the error reported
    names: its fast run's errors are never shown, so their words are not compared."""
    program = iterir.parse("λ(x) → {·x + 1, ·x + 1.0}", "t.itir")
    with pytest.raises(typeinf.UnsatisfiableConstraintError) as fast:
        Inference(program, None)
    assert str(fast.value).startswith("t.itir:1:9: error: type mismatch in the call of `plus`")
    (error,) = typeinf.check(program).errors
    assert str(error).startswith("t.itir:1:22: error: type mismatch in the second argument")


def test_agreeing_runs_report_the_error(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(typeinf.UnsatisfiableConstraintError):
        typeinf.infer(iterir.parse(ILL_TYPED))
    assert len(typeinf.check(iterir.parse(ILL_TYPED)).errors) == 1
    assert not issubclass(typeinf.InternalError, typeinf.TypeInferenceError)


def test_the_command_line_exits_3_on_a_disagreement(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _blind(monkeypatch, "explaining")
    monkeypatch.delenv("TYPEINF_TRACEBACK", raising=False)
    program = tmp_path / "p.itir"
    program.write_text(ILL_TYPED, encoding="utf-8")
    assert main(["infer", str(program)]) == 3
    assert (
        "internal error (a bug in typeinf, not in the input): InternalError: the fast run"
        in capsys.readouterr().err
    )


GTIR_ILL_TYPED = (
    "p(a: Field[[IDimₕ], f64], n: i32) {\n"
    "  a @ c⟨ IDimₕ: [0, n[ ⟩ ← as_fieldop(λ(x) → ·x + 1, c⟨ IDimₕ: [0, n[ ⟩)(a);\n}"
)
GTIR_WELL_TYPED = GTIR_ILL_TYPED.replace("+ 1,", "+ 1.0,")


def test_gtir_follows_the_same_policy(monkeypatch: pytest.MonkeyPatch) -> None:
    """One policy for both dialects: GTIR's explaining run blind to every constraint finds none
    of the fast run's errors, an InternalError rather than the fast run's errors without
    reasons."""
    program = iterir.parse(GTIR_ILL_TYPED, "e.itir")
    assert len(typeinf.check(program).errors) == 1
    _blind(monkeypatch, "explaining", GtirSolver, (gtir_runs.FastRun, gtir_runs.ExplainingRun))
    with pytest.raises(
        typeinf.InternalError,
        match="the fast run of inference found a type error that the explaining run did not",
    ):
        typeinf.check(program)


def test_gtirs_runs_must_say_an_error_in_the_same_words(monkeypatch: pytest.MonkeyPatch) -> None:
    """GTIR's fast run's errors are shown as they are (the GT4Py drop-in raises them): an
    explaining run that words its error otherwise is an InternalError, for `infer` and `check`
    alike."""
    program = iterir.parse(GTIR_ILL_TYPED, "e.itir")
    saying = GtirSolver.unsatisfiable

    def reworded(
        self: GtirSolver, constraint: Equal, mismatch: Mismatch, start: int | None = None
    ) -> UnsatisfiableConstraintError:
        error = saying(self, constraint, mismatch, start)
        return error if self.history is None else error.reworded("other words")

    monkeypatch.setattr(GtirSolver, "unsatisfiable", reworded)
    for run in (typeinf.infer, typeinf.check):
        with pytest.raises(
            typeinf.InternalError,
            match="the fast run of inference found a type error that the explaining run did not",
        ):
            run(program)
