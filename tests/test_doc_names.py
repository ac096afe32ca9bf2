"""No stale names: every module, file or definition the documentation and the code's docstrings
and comments name exists, so that a name that moved cannot linger where readers follow it.

Read: the pages (`PAGES`: docs/*.md, the README, CONTRIBUTING.md, PACKAGE.md and the other
READMEs), whole, code blocks included, and the docstrings and comments of every Python file of
`CODE`. CHANGELOG.md is left out: it is history, and an entry names what it changed as it was
named then.

Found, and checked:

- a dotted name rooted in one of our packages (`typeinf.core.solve`, `iterir.nodes.holds_gtir`,
  `benchmarks.compare`): its longest prefix that is a module must be one, and what follows a
  name that module defines; through a class, a member the class or a base of ours defines (a
  method, a field, or `self.name = …` in a method). A module whose docstring starts
  "Deprecated" is kept for old code only: naming it, or a name in it, is stale too;
- in backquotes, a dotted name that starts with a module's own name (`solve.Solver.equal`,
  `terms.DIM`): the module meant must define the rest. In a Python file that is the module it
  imports by that name, or else its package's module of that name, if any; on a page, any of
  our modules of that name. Not checked: `NOT_MODULES`, words that are something else in prose,
  and `HISTORY`, code that a page says was deleted;
- a path (`typeinf/core/solve.py`, `gtir/relations.py`, `docs/examples/…`): it must exist from
  the repository's root, from `typeinf/`, or from the folder of the file naming it;
- a module's name from before the modules moved into packages (`RENAMED`: GTIR's lost their
  `gtir_` prefix), but in a Python file that binds that name itself (an import's `as` name).

Definitions are read from the sources with `ast`; nothing is imported (`typeinf.gt4py` needs
GT4Py, tools run things). Where a source cannot tell (a function's result, a base class not
ours, a module or class with `__getattr__`), the rest of the name is taken as it is.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

from tests.conftest import ROOT

PACKAGES = ("typeinf", "iterir", "tools", "benchmarks", "tests")
#: The Python files whose docstrings and comments are read (tests/data holds inputs, not code).
CODE = sorted(
    path
    for package in PACKAGES
    for path in (ROOT / package).rglob("*.py")
    if ROOT / "tests" / "data" not in path.parents
)
PAGES = sorted(
    [
        *(ROOT / "docs").glob("*.md"),
        *(ROOT / name for name in ("README.md", "CONTRIBUTING.md", "PACKAGE.md")),
        ROOT / "builtins" / "README.md",
        ROOT / "benchmarks" / "data" / "icon4py" / "README.md",
    ]
)
#: The modules renamed when they moved into packages, by their old names, and where each went.
RENAMED = {
    "gtir_collect": "typeinf.gtir.collect",
    "gtir_incremental": "typeinf.incremental.gtir",
    "gtir_infer": "typeinf.gtir.infer",
    "gtir_notation": "typeinf.gtir.notation",
    "gtir_reader": "typeinf.gtir.reader",
    "gtir_relations": "typeinf.gtir.relations",
    "gtir_rules": "typeinf.gtir.rules",
    "gtir_shifts": "typeinf.gtir.shifts",
    "gtir_structured": "typeinf.gtir.structured",
    "gtir_terms": "typeinf.gtir.terms",
    "gtir_values": "typeinf.gtir.values",
}
#: Paths named that are not in the repository, and where they are.
ELSEWHERE = {
    "typeinf/builtins": "in the wheel: builtins/ installed inside the package",
    "typeinf/docs": "in the wheel: docs/ installed inside the package",
    "tests/next_tests": "in a GT4Py checkout: GT4Py's tests",
    "tests/test_a.py": "an example of a pytest node id",
    "docs/examples/offsets-vertex-diff.offsets.json": "an example of a file that is missing",
}
#: Words that are a module's own name and, in prose, something else.
NOT_MODULES = {
    "gt4py": "GT4Py's own package (`gt4py.next.…`): ours is written `typeinf.gt4py`",
    "inference": "the collector, an `Inference` object (`inference.run`), or GT4Py's module",
}
#: Names of code since deleted, where the text says it was deleted: (file, name) and why.
HISTORY = {
    ("docs/performance.md", "cells._MADE"): "a cache of the bridge, deleted (the text says)",
    ("docs/performance.md", "gtir.runs.FastRun.declared_type"): "a cache tried, then deleted",
}
#: Stale names left in files being reworked on another branch, as (file, name): a ratchet, each
#: must go and then off the list, so that the list only shrinks.
KNOWN: set[tuple[str, str]] = set()

_ROOTS = "|".join(PACKAGES)
_DOTTED = re.compile(rf"(?<![\w./-])(?:{_ROOTS})(?:\.[A-Za-z_]\w*)+")
_RELATIVE = re.compile(r"`([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+)(?:\([^`]*\))?`")
_FOLDERS = "typeinf|iterir|tools|benchmarks|tests|docs|builtins|examples"
_SUBPACKAGES = "core|fencil|gtir|frontends|incremental|gt4py"
_PATH = re.compile(
    rf"(?<![\w./-])(?:(?:{_FOLDERS})/[\w./-]*\w|(?:{_SUBPACKAGES})/[\w/-]*\.py)(?![\w/-])"
)
_RENAMED = re.compile(rf"\b(?:{'|'.join(RENAMED)})\b")
_SUFFIXES = {"py", "md", "json", "itir", "types", "sig", "gsig", "toml", "lark"}


# -- the text read --------------------------------------------------------------------------------
def shown(path: Path) -> str:
    """`path` from the repository's root (a file outside it, as the planted ones: its name)."""
    return path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else path.name


@cache
def parsed(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"))


def prose(path: Path) -> Iterator[tuple[int, str]]:
    """(line number, text) of what `path` says to readers: a page's lines, a Python file's
    docstrings and comments."""
    text = path.read_text(encoding="utf-8")
    if path.suffix != ".py":
        yield from enumerate(text.splitlines(), start=1)
        return
    for node in ast.walk(parsed(path)):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            first = node.body[0] if node.body else None
            if (
                isinstance(first, ast.Expr)
                and isinstance(first.value, ast.Constant)
                and isinstance(first.value.value, str)
            ):
                yield from enumerate(first.value.value.splitlines(), start=first.lineno)
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        if token.type == tokenize.COMMENT:
            yield token.start[0], token.string


@cache
def imported(path: Path) -> dict[str, str]:
    """The names a Python file binds by importing, and what each is (`x.y` for `from x import
    y`)."""
    names: dict[str, str] = {}
    for node in ast.walk(parsed(path)):
        for alias in node.names if isinstance(node, ast.Import) else ():
            top = alias.name.split(".")[0]  # `import a.b` binds `a`
            names[alias.asname or top] = alias.name if alias.asname else top
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.update({a.asname or a.name: f"{node.module}.{a.name}" for a in node.names})
    return names


# -- what our sources define ----------------------------------------------------------------------
@dataclass(frozen=True)
class Class:
    """A class of ours, as its source defines it."""

    module: str
    source: Path
    node: ast.ClassDef


@dataclass(frozen=True)
class Missing:
    why: str


@dataclass(frozen=True)
class Deprecated(Missing):
    """A name in a module kept for old code only (`source`)."""

    source: Path


#: What a name leads to: a class of ours (whose members can be checked), the reason it names
#: nothing, or None: it names something (or the sources cannot tell what it holds).
Found = Class | Missing | None


def module_file(name: str) -> Path | None:
    """The source of module `name` of ours (a package: its `__init__.py`, or the folder)."""
    if name.split(".")[0] not in PACKAGES:
        return None
    base = ROOT.joinpath(*name.split("."))
    candidates = (base.with_suffix(".py"), base / "__init__.py", base)
    return next((candidate for candidate in candidates if candidate.exists()), None)


@cache
def definitions(source: Path) -> dict[str, ast.stmt]:
    """What a module defines at its top level (in `if` and `try` blocks too), by name: the
    statement that binds it."""
    if source.is_dir():
        return {}
    found: dict[str, ast.stmt] = {}
    statements = list(parsed(source).body)
    while statements:
        statement = statements.pop(0)
        if isinstance(statement, ast.If | ast.Try):
            handlers = [line for h in getattr(statement, "handlers", []) for line in h.body]
            finals = getattr(statement, "finalbody", [])
            statements[:0] = [*statement.body, *statement.orelse, *handlers, *finals]
        for name in bound_by(statement):
            found.setdefault(name, statement)
    return found


def bound_by(statement: ast.stmt) -> list[str]:
    """The names one statement binds in its scope."""
    if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return [statement.name]
    if isinstance(statement, ast.Import | ast.ImportFrom):
        return [(alias.asname or alias.name).split(".")[0] for alias in statement.names]
    targets: list[ast.expr] = []
    if isinstance(statement, ast.Assign):
        targets = statement.targets
    elif isinstance(statement, ast.AnnAssign | ast.AugAssign | ast.For):
        targets = [statement.target]
    names = [name for target in targets for name in ast.walk(target)]
    return [name.id for name in names if isinstance(name, ast.Name)]


def find(dotted: str) -> Found:
    """What `dotted` names among our modules and what they define."""
    parts = dotted.split(".")
    for end in range(len(parts), 0, -1):
        source = module_file(".".join(parts[:end]))
        if source is not None:
            break
    else:
        return Missing(f"no module {parts[0]}")
    module = ".".join(parts[:end])
    if deprecated(source):
        return Deprecated(f"{module} is deprecated", source)
    return in_module(module, source, parts[end:])


@cache
def deprecated(source: Path) -> bool:
    """Whether a module is kept for old code only: its docstring starts "Deprecated"."""
    if source.is_dir():
        return False
    docstring = ast.get_docstring(parsed(source))
    return (docstring or "").startswith("Deprecated")


def in_module(module: str, source: Path, names: list[str]) -> Found:
    """What `names` (`a.b.c`) leads to in `module`."""
    if not names:
        return None
    defined = definitions(source)
    statement = defined.get(names[0])
    if statement is None:
        package = source.is_dir() or source.name == "__init__.py"
        if "__getattr__" in defined or (package and names[0].isupper()):
            return None  # a lazy module; a placeholder, as in `benchmarks.NAME`
        return Missing(f"{module} has no {names[0]}")
    if isinstance(statement, ast.Import | ast.ImportFrom):
        origin = imported(source)[names[0]]
        return find(".".join([origin, *names[1:]])) if module_file(origin.split(".")[0]) else None
    if isinstance(statement, ast.ClassDef):
        return in_class(Class(module, source, statement), names[1:])
    return None  # a function or a value: what it holds is not read from the source


def in_class(cls: Class, names: list[str]) -> Found:
    """What `names` leads to from class `cls`: its members, and its bases' of ours."""
    if not names:
        return cls
    name = names[0]
    members = {n: s for s in cls.node.body for n in bound_by(s)}
    member = members.get(name)
    if isinstance(member, ast.ClassDef):
        return in_class(Class(cls.module, cls.source, member), names[1:])
    if member is not None:
        return None
    if name.startswith("__") or name in set_on_self(cls.node) or "__getattr__" in members:
        return None
    for base in cls.node.bases:
        expression = base.value if isinstance(base, ast.Subscript) else base  # Generic[T]
        found = in_module(cls.module, cls.source, ast.unparse(expression).split("."))
        if not isinstance(found, Class):
            return None  # a base not ours (Exception, NamedTuple, Enum, …): it may hold it
        if not isinstance(in_class(found, names), Missing):
            return None
    return Missing(f"{cls.module}.{cls.node.name} has no {name}")


def set_on_self(cls: ast.ClassDef) -> set[str]:
    """The attributes the methods of `cls` set on `self`."""
    return {
        node.attr
        for node in ast.walk(cls)
        if isinstance(node, ast.Attribute)
        and isinstance(node.ctx, ast.Store)
        and isinstance(node.value, ast.Name)
        and node.value.id == "self"
    }


@cache
def modules_named() -> dict[str, list[str]]:
    """Our modules by their own (last) name."""
    named: dict[str, list[str]] = {}
    for path in CODE:
        parts = path.relative_to(ROOT).with_suffix("").parts
        parts = parts[:-1] if parts[-1] == "__init__" else parts
        named.setdefault(parts[-1], []).append(".".join(parts))
    return named


def modules_meant(stem: str, path: Path) -> list[str]:
    """The modules `stem.…` may mean in `path`: in a Python file, the one it imports by that
    name or its package's module of that name; on a page, any module of that name."""
    if stem in NOT_MODULES:
        return []
    if path.suffix != ".py":
        return modules_named().get(stem, [])
    origin = imported(path).get(stem)
    if origin is not None:
        return [origin] if module_file(origin) is not None else []
    package = ".".join(Path(shown(path)).parts[:-1])
    return [f"{package}.{stem}"] if module_file(f"{package}.{stem}") is not None else []


# -- the check ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Stale:
    file: str
    line: int
    name: str
    why: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.name} ({self.why})"


@cache
def stale_in(path: Path) -> tuple[Stale, ...]:
    """The stale names `path` gives."""
    return tuple(stale_names(path))


def stale_names(path: Path) -> Iterator[Stale]:
    """Each stale name `path` gives, with where and why."""
    where = shown(path)
    bound = imported(path) if path.suffix == ".py" else {}
    for line, text in prose(path):
        for match in _DOTTED.finditer(text):
            found = find(match.group())
            if isinstance(found, Missing) and not excused(found, path):
                yield Stale(where, line, match.group(), found.why)
        for match in _RELATIVE.finditer(text):
            stem, *rest = match.group(1).split(".")
            if stem in PACKAGES or rest[-1] in _SUFFIXES:
                continue
            meant = [find(".".join([module, *rest])) for module in modules_meant(stem, path)]
            whys = [found.why for found in meant if isinstance(found, Missing)]
            if meant and len(whys) == len(meant) and (where, match.group(1)) not in HISTORY:
                yield Stale(where, line, match.group(1), "; ".join(whys))
        for match in _PATH.finditer(text):
            reference = match.group().rstrip(".")
            bases = (ROOT, ROOT / "typeinf", path.parent)
            if reference not in ELSEWHERE and not any((b / reference).exists() for b in bases):
                yield Stale(where, line, reference, "no such file")
        for match in _RENAMED.finditer(text):
            if match.group() not in bound:
                yield Stale(where, line, match.group(), f"now {RENAMED[match.group()]}")


def excused(found: Missing, path: Path) -> bool:
    """Whether `path` may name what `found` says is missing: a deprecated module in itself, and
    in the tests, which check that the old names still work."""
    tests = ROOT / "tests" in path.parents
    return isinstance(found, Deprecated) and (tests or path == found.source)


@pytest.mark.parametrize("path", PAGES + CODE, ids=shown)
def test_every_name_given_exists(path: Path) -> None:
    stale = [str(s) for s in stale_in(path) if (s.file, s.name) not in KNOWN]
    assert not stale, "names of nothing:\n" + "\n".join(stale)


def test_the_known_stale_names_are_still_there() -> None:
    """A stale name fixed leaves `KNOWN`."""
    found = {(stale.file, stale.name) for path in PAGES + CODE for stale in stale_in(path)}
    assert sorted(KNOWN - found) == [], "fixed: take it off KNOWN"


#: A page that names what does not exist, each kind once, line by line, and then what does.
PLANTED = """\
`typeinf.core.solver` is a module that does not exist, `typeinf.core.solve.Solver.equals` a method
typeinf/core/solver.py or `core/solver.py`
`gtir_collect.GtirInference`, `gtir.runs.FastRun.equal`
`typeinf.gt4py.inference.infer_gt4py`, read without GT4Py
`typeinf.diagnostics.render(error, Source(…))`
`typeinf.core.solve.Solver.equal`, `gtir.collect.GtirInference`, `core/solve.py`, `typeinf.render`
"""
#: What the check says of it: a page, then a Python file's docstring (the same lines, a line
#: further down) and comments.
FOUND = [
    (1, "typeinf.core.solver", "typeinf.core has no solver"),
    (1, "typeinf.core.solve.Solver.equals", "typeinf.core.solve.Solver has no equals"),
    (2, "typeinf/core/solver.py", "no such file"),
    (2, "core/solver.py", "no such file"),
    (
        3,
        "gtir.runs.FastRun.equal",
        "typeinf.gtir.runs.FastRun has no equal; typeinf.incremental.gtir has no runs",
    ),
    (3, "gtir_collect", "now typeinf.gtir.collect"),
    (4, "typeinf.gt4py.inference.infer_gt4py", "typeinf.gt4py.inference has no infer_gt4py"),
    (5, "typeinf.diagnostics.render", "typeinf.diagnostics is deprecated"),
]


def test_the_check_finds_the_names_planted(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(PLANTED, encoding="utf-8")
    assert [(s.line, s.name, s.why) for s in stale_names(page)] == FOUND
    code = tmp_path / "module.py"
    comments = "from typeinf.core import solve\n\n# `solve.Solver.equals`, `solve.Solver.equal`\n"
    code.write_text(f'"""\n{PLANTED}"""\n\n{comments}', encoding="utf-8")
    # A Python file means by `gtir.…` only a module it imports so (here none), by `solve.…` this.
    relative = (12, "solve.Solver.equals", "typeinf.core.solve.Solver has no equals")
    docstring = [(line + 1, name, why) for line, name, why in FOUND if name[:5] != "gtir."]
    expected = [*docstring, relative]
    assert [(s.line, s.name, s.why) for s in stale_names(code)] == expected
