"""The drop-in switched on from outside a program, as a user turns it on: the environment
variable `TYPEINF_GT4PY` and pytest's `--typeinf-gt4py`, each in a subprocess of a fresh
virtual environment where the built wheel is installed (GT4Py and the other dependencies come
from this environment, by a `.pth` file: a fresh install of GT4Py would download it); and the
summary both print (`typeinf.gt4py.summary`), in this process."""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
import venv
import warnings
from pathlib import Path

import pytest
from gt4py.next import common
from gt4py.next.iterator.ir_utils import ir_makers as im
from gt4py.next.iterator.type_system import inference as theirs
from gt4py.next.type_system import type_specifications as ts

from tests.conftest import ROOT
from tests.with_gt4py.test_fallback import ours_rejects, well_typed  # noqa: F401  # a fixture
from typeinf.gt4py import install, summary, uninstall

IDim = common.Dimension("IDim")
FIELD = ts.FieldType(dims=[IDim], dtype=ts.ScalarType(kind=ts.ScalarKind.FLOAT64))

#: A program a user runs: a field operator on GT4Py's roundtrip backend, which runs GT4Py's
#: pass manager (and so its type inference) before it computes.
PROGRAM = """
import numpy as np
import gt4py.next as gtx
import typeinf.gt4py

IDim = gtx.Dimension("IDim")
F = gtx.Field[[IDim], gtx.float64]

@gtx.field_operator
def add(a: F, b: F) -> F:
    return a + b

@gtx.program(backend=gtx.itir_python)
def program(a: F, b: F, out: F):
    add(a, b, out=out)

if __name__ == "__main__":  # GT4Py's own compiles in worker processes, which import this
    out = gtx.as_field([IDim], np.zeros(4))
    program(gtx.as_field([IDim], np.arange(4.0)), gtx.as_field([IDim], np.ones(4)), out,
            offset_provider={})
    print("computed", out.asnumpy().tolist(), "installed", typeinf.gt4py.is_installed())
"""

#: A test file for the pytest option: it runs the program above (kept in `program.py` beside
#: it: GT4Py reads a field operator's source from its file).
TEST_FILE = """
import runpy
import warnings

def test_the_program():
    warnings.simplefilter("ignore", UserWarning)  # GT4Py's advice to run optimized
    runpy.run_path("program.py", run_name="__main__")
"""


@pytest.fixture(scope="module")
def fresh_python(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The python of a new virtual environment holding the wheel built from this checkout, and
    what this environment holds, GT4Py among it, through a `.pth` file."""
    folder = tmp_path_factory.mktemp("fresh")
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(folder), str(ROOT)],
        capture_output=True,
        text=True,
    )
    assert built.returncode == 0, built.stderr
    (wheel,) = folder.glob("itir_typeinf-*.whl")
    environment = folder / "venv"
    venv.create(environment, with_pip=True)
    python = environment / "bin" / "python"
    site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    (Path(site) / "gt4py_from_the_test_environment.pth").write_text(
        sysconfig.get_paths()["purelib"] + "\n", encoding="utf-8"
    )
    installed = subprocess.run(
        [str(python), "-m", "pip", "install", "-q", "--no-deps", str(wheel)],
        capture_output=True,
        text=True,
    )
    assert installed.returncode == 0, installed.stderr
    return python


def _run(
    python: Path, arguments: list[str], cwd: Path, variable: str | None
) -> subprocess.CompletedProcess[str]:
    environment = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "TYPEINF_GT4PY")}
    if variable is not None:
        environment["TYPEINF_GT4PY"] = variable
    return subprocess.run(
        [str(python), *arguments],
        cwd=cwd,
        env=environment,
        capture_output=True,
        text=True,
        timeout=600,
    )


@pytest.mark.parametrize(
    ("variable", "mode"),
    [("strict", "strict"), (" On ", "on, with GT4Py's inference as the fallback")],
)
def test_the_variable_installs_the_drop_in_for_the_process(
    fresh_python: Path, tmp_path: Path, variable: str, mode: str
) -> None:
    (tmp_path / "program.py").write_text(PROGRAM, encoding="utf-8")
    run = _run(fresh_python, ["program.py"], tmp_path, variable)
    assert run.returncode == 0, run.stderr
    assert "computed [1.0, 2.0, 3.0, 4.0] installed True" in run.stdout
    said = run.stderr[run.stderr.index("typeinf's drop-in") :]
    assert said.startswith(f"typeinf's drop-in for GT4Py's type inference ({mode}):\n  calls: ")
    assert " of `infer`" in said and "\n  DisagreementWarnings: 0" in said
    assert said.count("typeinf's drop-in") == 1  # one summary, at the end


@pytest.mark.parametrize("variable", [None, "off", ""])
def test_without_the_variable_gt4pys_own_inference_runs(
    fresh_python: Path, tmp_path: Path, variable: str | None
) -> None:
    (tmp_path / "program.py").write_text(PROGRAM, encoding="utf-8")
    run = _run(fresh_python, ["program.py"], tmp_path, variable)
    assert run.returncode == 0, run.stderr
    assert "installed False" in run.stdout
    assert "typeinf's drop-in" not in run.stderr and "typeinf:" not in run.stderr


def test_a_bad_value_is_said_once_and_leaves_the_drop_in_off(
    fresh_python: Path, tmp_path: Path
) -> None:
    message = (
        "typeinf: TYPEINF_GT4PY='strickt' is not one of off, on, strict; the drop-in stays off"
    )
    alone = _run(fresh_python, ["-c", "pass"], tmp_path, "strickt")
    assert alone.returncode == 0 and alone.stderr == message + "\n"  # once, though read twice
    (tmp_path / "program.py").write_text(PROGRAM, encoding="utf-8")
    run = _run(fresh_python, ["program.py"], tmp_path, "strickt")  # GT4Py's workers say it too
    assert run.returncode == 0, run.stderr
    assert "installed False" in run.stdout and message in run.stderr


@pytest.mark.parametrize("mode", ["strict", "on"])
def test_the_pytest_option_installs_it_for_the_session(
    fresh_python: Path, tmp_path: Path, mode: str
) -> None:
    (tmp_path / "test_program.py").write_text(TEST_FILE, encoding="utf-8")
    (tmp_path / "program.py").write_text(PROGRAM, encoding="utf-8")
    run = _run(
        fresh_python,
        ["-m", "pytest", "-q", "-p", "no:cacheprovider", f"--typeinf-gt4py={mode}"],
        tmp_path,
        None,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "1 passed" in run.stdout
    report = run.stdout[run.stdout.index("typeinf drop-in") :]
    assert f"typeinf's drop-in for GT4Py's type inference ({mode}" in report
    assert " of `infer`" in report and "DisagreementWarnings: 0" in report
    assert "typeinf's drop-in" not in run.stderr  # said in the report, not again at exit


def test_the_pytest_option_off_wins_over_the_variable(fresh_python: Path, tmp_path: Path) -> None:
    (tmp_path / "test_program.py").write_text(
        TEST_FILE + "    import typeinf.gt4py\n    assert not typeinf.gt4py.is_installed()\n",
        encoding="utf-8",
    )
    (tmp_path / "program.py").write_text(PROGRAM, encoding="utf-8")
    run = _run(
        fresh_python,
        ["-m", "pytest", "-q", "-p", "no:cacheprovider", "--typeinf-gt4py=off"],
        tmp_path,
        "strict",
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "typeinf drop-in" not in run.stdout and "typeinf's drop-in" not in run.stderr


def test_a_bad_pytest_option_is_a_usage_error(fresh_python: Path, tmp_path: Path) -> None:
    (tmp_path / "test_program.py").write_text(TEST_FILE, encoding="utf-8")
    run = _run(fresh_python, ["-m", "pytest", "--typeinf-gt4py=yes"], tmp_path, None)
    assert run.returncode == 4  # pytest's usage error
    assert "--typeinf-gt4py='yes' is not one of off, on, strict" in run.stderr
    assert "Traceback" not in run.stdout + run.stderr


@pytest.mark.usefixtures("ours_rejects")  # ours raises on every node
def test_the_summary_counts_calls_and_lists_each_disagreement_once() -> None:
    assert summary() is None  # not installed
    install()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name in ("first", "first", "second"):
            theirs.infer(well_typed(name), offset_provider_type={})
        theirs.reinfer(im.op_as_fieldop("plus")(im.ref("a", FIELD), im.ref("a", FIELD)))
    done = summary()
    assert done is not None and not done.strict
    assert done.calls == (("infer", 3), ("reinfer", 1)) and done.seconds > 0
    programs = [program for program, _ in done.disagreements]
    assert programs == ["program `first`", "program `second`", "a node"]
    said = [first for _, first in done.disagreements]  # our message's first line, located
    assert said[0].startswith("<ir> first(") and said[1].startswith("<ir> second(")
    assert all(first.endswith(": error: typeinf says no") for first in said)
    assert done.text().splitlines() == [
        "typeinf's drop-in for GT4Py's type inference (on, with GT4Py's inference as the fallback):",
        f"  calls: 3 of `infer`, 1 of `reinfer`; {done.seconds:.3f} s in inference",
        "  DisagreementWarnings: 3",
        *(f"    {program}: {first}" for program, first in done.disagreements),
    ]
    uninstall()
    install(strict=True)  # a new installation starts afresh
    assert summary() == type(done)(True, (), 0.0, ())
