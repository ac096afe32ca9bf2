"""The Python ≥ 3.12 virtual environment where GT4Py-side code runs (tests/with_gt4py, and what
needs GT4Py 1.2 itself), made once and reused.

    python3 -m tools.gt4py_venv          make it if needed, print its python and the time taken
    python3 -m tools.gt4py_venv pytest   also run tests/with_gt4py in it (extra arguments to pytest;
                                         test files or nodes named there run instead of all)

It holds this checkout's dependencies, with its `test` and `gt4py` extras, as pyproject.toml
lists them, but not the checkout itself: the code run in it is always the caller's checkout
(first on PYTHONPATH), so one environment serves every checkout with the same dependencies, and
nothing in it points at any checkout. Its pip is the one the interpreter's `venv` brings (no
upgrade: the same environment from one build to the next, and no network access but the
install).

Where: `$TYPEINF_GT4PY_VENV` if set (used if it holds bin/python, else made there; a folder
that holds something else is an error, and is left alone), else
`$XDG_CACHE_HOME/typeinf/gt4py-venv-<key>` (default `~/.cache`), the key a digest of the
requirements and the interpreter (its path and version): changed requirements make a new one.
It is built in a temporary folder beside it and renamed into place only once complete, so a
half-made environment (an interrupted or failed install) is never used; it is always run as
`<venv>/bin/python -m …`, which a renamed environment supports (its scripts' first lines do
not). The interpreter: `$TYPEINF_PYTHON312` (an error if it does not run or is older), else
this one if ≥ 3.12, else the first of `python3.12`, `python3.13`, `python3.14` on PATH, then of
pyenv's versions, that runs and is ≥ 3.12.

What goes wrong is a VenvError; `main` prints it and exits 2.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import time
import tomllib
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: The extras the environment holds besides the dependencies.
EXTRAS = ("test", "gt4py")
#: Generous limits that only a hang reaches: a cold install took 30–60 s here.
INSTALL_TIMEOUT = 1800
TESTS_TIMEOUT = 3600


class VenvError(Exception):
    """The environment could not be made: the command that failed and its output."""


def find_python312() -> str | None:
    """A Python ≥ 3.12 interpreter that runs, or None."""
    given = os.environ.get("TYPEINF_PYTHON312")
    if given:
        if not _is_312(given):
            raise VenvError(
                f"TYPEINF_PYTHON312={given!r} does not name a Python ≥ 3.12 that runs: "
                "set it to one, or unset it to search PATH and pyenv"
            )
        return given
    if sys.version_info >= (3, 12):
        return sys.executable
    candidates = [shutil.which(f"python3.{minor}") for minor in (12, 13, 14)]
    pyenv = Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv")) / "versions"
    candidates += [str(p) for p in sorted(pyenv.glob("3.1[2-9]*/bin/python3"))]
    # A pyenv shim on PATH exists but fails unless its version is selected: each is run.
    return next((c for c in candidates if c and _is_312(c)), None)


def _is_312(python: str) -> bool:
    try:
        probe = subprocess.run(
            [python, "-c", "import sys; sys.exit(sys.version_info < (3, 12))"],
            capture_output=True,
            timeout=60,
        )
    except (OSError, subprocess.TimeoutExpired):
        return False
    return probe.returncode == 0


def requirements(pins: Sequence[str] = ()) -> list[str]:
    """What the environment installs: pyproject.toml's dependencies and those of EXTRAS, as
    written there (pip evaluates their markers), then `pins` (more requirements, such as
    `gt4py==1.2.1` to choose one release the extra allows, or another tool's test packages)."""
    pyproject = ROOT / "pyproject.toml"
    try:
        project = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]
        extras = project.get("optional-dependencies", {})
        listed = [*project.get("dependencies", []), *(r for e in EXTRAS for r in extras[e])]
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, KeyError) as error:
        raise VenvError(f"cannot read the requirements in {pyproject}: {error!r}") from None
    return [*listed, *pins]


def venv_path(python: str, pins: Sequence[str] = ()) -> Path:
    """Where the environment for `python` and these requirements (with `pins`) is."""
    given = os.environ.get("TYPEINF_GT4PY_VENV")
    if given:
        return Path(given)
    command = [python, "-c", "import sys; print(sys.version)"]
    try:
        version = subprocess.run(
            command, capture_output=True, text=True, check=True, timeout=60
        ).stdout
    except (OSError, subprocess.SubprocessError) as error:
        raise VenvError(f"`{' '.join(command)}` failed: {error}") from None
    digest = hashlib.sha256("\n".join(requirements(pins)).encode())
    digest.update(f"\0{os.path.realpath(python)}\0{version}".encode())
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return cache / "typeinf" / f"gt4py-venv-{digest.hexdigest()[:16]}"


def ensure_venv(python: str, pins: Sequence[str] = ()) -> tuple[Path, float | None]:
    """The environment's folder (for the requirements with `pins`), made if absent, and the
    seconds making it took (None when it was there already)."""
    venv = venv_path(python, pins)
    if (venv / "bin" / "python").exists():
        return venv, None
    start = time.monotonic()
    needed = requirements(pins)
    try:
        venv.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise VenvError(f"cannot make {venv.parent}: {error}") from None
    _remove_abandoned(venv)
    building = venv.parent / f".{venv.name}.tmp-{os.getpid()}"
    shutil.rmtree(building, ignore_errors=True)
    try:
        _run([python, "-m", "venv", str(building)])
        _run([str(building / "bin" / "python"), "-m", "pip", "install", "-q", *needed])
        try:
            building.rename(venv)
        except OSError as error:
            if not (venv / "bin" / "python").exists():  # not another process's, just made
                raise VenvError(
                    f"cannot put the environment at {venv} ({error.strerror}): "
                    "it is there already but is not a virtual environment (no bin/python)"
                ) from None
    finally:
        shutil.rmtree(building, ignore_errors=True)
    return venv, time.monotonic() - start


def _remove_abandoned(venv: Path) -> None:
    """Temporary folders of builds whose process is gone (killed half-way)."""
    for folder in venv.parent.glob(f".{venv.name}.tmp-*"):
        pid = folder.name.rsplit("-", 1)[1]
        if pid.isdigit() and not _alive(int(pid)):
            shutil.rmtree(folder, ignore_errors=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _run(command: list[str]) -> None:
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=INSTALL_TIMEOUT)
    except subprocess.TimeoutExpired:
        raise VenvError(f"`{' '.join(command)}` did not finish in {INSTALL_TIMEOUT} s") from None
    except OSError as error:
        raise VenvError(f"`{' '.join(command)}` cannot run: {error}") from None
    if done.returncode != 0:
        raise VenvError(
            f"`{' '.join(command)}` failed (exit {done.returncode}):\n{done.stdout}{done.stderr}"
        )


def run_tests(venv: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """tests/with_gt4py (or the test files or nodes among `args`) run in the environment on
    this checkout; its output is captured."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    command = [str(venv / "bin" / "python"), "-m", "pytest", "-p", "no:cacheprovider"]
    named = any(map(_names_tests, args))
    return subprocess.run(
        [*command, *([] if named else ["tests/with_gt4py"]), *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=TESTS_TIMEOUT,
    )


def run_module(module: str, arguments: list[str]) -> int:
    """`python -m module arguments` in the environment (made if missing), on this checkout,
    its output not captured (a benchmark that moves itself there); its exit code, or 2 with
    the reason printed if the environment cannot be made."""
    try:
        venv, seconds = environment()
    except VenvError as error:
        print(f"{module}: {error}", file=sys.stderr)
        return 2
    made = "reused" if seconds is None else f"made in {seconds:.0f} s"
    print(f"GT4Py environment: {venv} ({made})", flush=True)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    command = [str(venv / "bin" / "python"), "-m", module, *arguments]
    return subprocess.run(command, cwd=ROOT, env=env, check=False).returncode


def _names_tests(arg: str) -> bool:
    """Whether a pytest argument names tests (a test file, a node in one, or a folder under
    tests/), not an option or an option's value (`-k docs`, `--rootdir .`)."""
    path = arg.partition("::")[0]
    if arg.startswith("-") or not (path.endswith(".py") or path.startswith("tests/")):
        return False
    return (ROOT / path).exists()


def environment() -> tuple[Path, float | None]:
    """The environment for the first Python ≥ 3.12 found, made if missing, and the seconds
    making it took (None: it was there); a VenvError if there is none or it cannot be made."""
    python = find_python312()
    if python is None:
        raise VenvError("no Python ≥ 3.12 found (set TYPEINF_PYTHON312)")
    return ensure_venv(python)


def main(argv: list[str]) -> int:
    try:
        venv, seconds = environment()
    except VenvError as error:
        print(f"tools.gt4py_venv: {error}", file=sys.stderr)
        return 2
    made = "already made" if seconds is None else f"made in {seconds:.1f} s"
    print(f"{venv / 'bin' / 'python'} ({made})")
    if argv[:1] != ["pytest"]:
        return 0
    start = time.monotonic()
    result = run_tests(venv, *argv[1:])
    print(result.stdout + result.stderr, end="")
    print(f"tests/with_gt4py took {time.monotonic() - start:.1f} s")
    return result.returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
