"""The opt-in compiled build: the inference core compiled with mypyc, in place.

    python3 -m tools.compile            compile COMPILED into extension modules beside them
    python3 -m tools.compile --clean    remove them: the pure-Python source is used again
    python3 -m tools.compile --status   say which build an import of typeinf gets

The pure-Python source is the reference and the fallback: nothing imports the compiled modules
by name. Python's import system prefers an extension module to a `.py` of the same name, so
after a build `import typeinf` runs the compiled core, and after `--clean` the source again.
`.gitignore` keeps the built files out of the repository; CI runs the fast test path on both
builds (CONTRIBUTING.md). Needs mypy (the `test` extra brings it), a C compiler and Python's
headers. docs/performance.md gives both builds' speed.

The build runs in a temporary folder holding a copy of `iterir/` and `typeinf/` only (setuptools,
which mypyc drives, would read this repository's `pyproject.toml` and refuse hatch's license
field), then copies the extension modules back.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: The modules compiled: the unifier, the solver and both collectors with their rules, where
#: inference spends its time, and the driver whose `Collector` they subclass (a compiled class
#: cannot inherit from an interpreted one); the incremental layouts, which subclass the
#: collectors (an interpreted class cannot inherit from a compiled one); the type reader's
#: tokens, parser and cell builder, which every run that reads a signature uses. Each compiles unchanged from its
#: typed source. The relations stay interpreted: `Relation` is an extension point, subclassed by
#: a compiler's own relations (docs/architecture.md, "Where relations live").
COMPILED = (
    "typeinf/core/terms.py",
    "typeinf/core/unify.py",
    "typeinf/core/constructors.py",
    "typeinf/fencil/constructors.py",
    "typeinf/core/constraints.py",
    "typeinf/core/driver.py",
    "typeinf/core/history.py",
    "typeinf/core/runs.py",
    "typeinf/core/schemes.py",
    "typeinf/core/solve.py",
    "typeinf/core/watch.py",
    "typeinf/core/typetokens.py",
    "typeinf/fencil/typesyntax.py",
    "typeinf/fencil/typeparser.py",
    "typeinf/core/cellbuilder.py",
    "typeinf/fencil/cellbuilder.py",
    "typeinf/fencil/collect.py",
    "typeinf/fencil/rules.py",
    "typeinf/fencil/runs.py",
    "typeinf/fencil/shaped.py",
    "typeinf/gtir/calls.py",
    "typeinf/gtir/collect.py",
    "typeinf/gtir/expressions.py",
    "typeinf/gtir/fieldops.py",
    "typeinf/gtir/iterators.py",
    "typeinf/gtir/runs.py",
    "typeinf/gtir/terms.py",
    "typeinf/gtir/tuples.py",
    "typeinf/incremental/gtir.py",
    "typeinf/incremental/part_layout.py",
)
SUFFIX = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
SETUP = """\
from mypyc.build import mypycify
from setuptools import setup

setup(
    name="typeinf-compiled",
    ext_modules=mypycify({modules!r}, opt_level="3"),
    script_args=["build_ext", "--inplace"],
)
"""


class CompileError(Exception):
    """The build could not be made: what went wrong, in a line or two."""


def built_files(root: Path) -> list[Path]:
    """The extension modules in `root`'s packages and mypyc's shared library of the group at
    its top: those a build made (of this list of modules or an earlier one)."""
    files = [
        path for package in ("iterir", "typeinf") for path in (root / package).rglob(f"*{SUFFIX}")
    ]
    return sorted(files) + sorted(root.glob(f"*__mypyc{SUFFIX}"))


def clean(root: Path) -> list[Path]:
    """Remove a build's extension modules from `root`; the ones removed."""
    removed = built_files(root)
    for path in removed:
        path.unlink()
    return removed


def build(root: Path) -> list[Path]:
    """Compile `COMPILED` of `root` in place; the extension modules made."""
    missing = [module for module in COMPILED if not (root / module).is_file()]
    if missing:
        raise CompileError(f"{root} lacks {', '.join(missing)}: not a checkout of typeinf")
    clean(root)
    with tempfile.TemporaryDirectory(prefix="typeinf-mypyc-") as scratch:
        work = Path(scratch)
        for package in ("iterir", "typeinf"):
            shutil.copytree(
                root / package, work / package, ignore=shutil.ignore_patterns("__pycache__")
            )
        (work / "setup.py").write_text(SETUP.format(modules=list(COMPILED)), encoding="utf-8")
        done = subprocess.run(
            [sys.executable, "setup.py"], cwd=work, capture_output=True, text=True, check=False
        )
        if done.returncode != 0:
            tail = "\n".join((done.stdout + done.stderr).splitlines()[-25:])
            raise CompileError(f"mypyc could not compile the core:\n{tail}")
        made = built_files(work)
        if len(made) != len(COMPILED) + 1:
            raise CompileError(
                f"the build made {len(made)} extension modules, not {len(COMPILED) + 1}"
            )
        for path in made:
            shutil.copy2(path, root / path.relative_to(work))
    return built_files(root)


def status(root: Path) -> str:
    """Which build `import typeinf` gets from `root`."""
    made = built_files(root)
    if not made:
        return "pure Python (no compiled module)"
    if len(made) != len(COMPILED) + 1:
        return f"a partial build ({len(made)} of {len(COMPILED) + 1} files): rebuild or --clean"
    return f"compiled: {len(COMPILED)} modules by mypyc"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python3 -m tools.compile", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout (default: this one)")
    what = parser.add_mutually_exclusive_group()
    what.add_argument("--clean", action="store_true", help="remove the compiled modules")
    what.add_argument("--status", action="store_true", help="say which build is in place")
    options = parser.parse_args(argv)
    root: Path = options.root.resolve()
    try:
        if options.status:
            print(status(root))
        elif options.clean:
            print(f"removed {len(clean(root))} compiled files; {status(root)}")
        else:
            made = build(root)
            print(f"built {len(made)} files in {root}; {status(root)}")
    except (CompileError, OSError) as error:
        print(f"tools.compile: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
