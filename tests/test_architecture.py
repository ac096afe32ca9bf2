"""The layout's rules (docs/architecture.md, "Layout"), read from the sources' imports:

- the core imports neither dialect, nor re-inference, the front ends or the GT4Py bridge; a
  dialect imports the core, never the other dialect;
- no module imports another module's private name (`_name`);
- the solver's imports, followed through the package (inside functions and under
  `if TYPE_CHECKING:` too), reach no dialect's type language: no reader, conversions or words;
- no import circle at run time, but the ones listed in `KNOWN_CIRCLES` with their reason
  (imports under `if TYPE_CHECKING:` are annotations only and do not count).
"""

from __future__ import annotations

import ast
import itertools
from collections.abc import Collection, Iterator, Mapping
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("typeinf", "iterir")

#: What each layer may import, besides the standard library, lark and itself. `typeinf.types`
#: (the public type values, kept at the package's top for their public name) is the core's.
MAY_IMPORT: dict[str, set[str]] = {
    "iterir": set(),
    "core": {"iterir"},
    "fencil": {"iterir", "core"},
    "gtir": {"iterir", "core"},
}

#: Circles through function-local imports that remain, each with why (a ratchet: a circle not
#: listed fails, and so does a listed one that is gone, so that the list shrinks with the code).
KNOWN_CIRCLES: dict[frozenset[str], str] = {
    frozenset({"iterir.nodes", "iterir.printer", "iterir.traversal"}): (
        "a node's repr prints it; the printer walks nodes"
    ),
    frozenset(
        {
            "typeinf.core.constructors",
            "typeinf.core.notation",
            "typeinf.core.sizes",
            "typeinf.core.terms",
        }
    ): "a cell's repr prints it in the notation, which is made of cells",
    frozenset({"typeinf.core.arguments", "typeinf.core.convert", "typeinf.types"}): (
        "a type value's str() converts it to cells to print it"
    ),
}


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES: dict[str, Path] = {
    module_name(path): path for package in PACKAGES for path in (ROOT / package).rglob("*.py")
}


def layer(module: str) -> str:
    parts = module.split(".")
    if parts[0] == "iterir":
        return "iterir"
    if module == "typeinf.types":
        return "core"
    return parts[1] if len(parts) > 1 and (ROOT / "typeinf" / parts[1]).is_dir() else "api"


def runtime_imports(module: str) -> Iterator[tuple[str, ast.ImportFrom | ast.Import]]:
    """(imported module, the import) for each import of `module` of a module of ours, outside
    `if TYPE_CHECKING:` blocks; `from package import module` imports the module only."""
    return imports_in(MODULES[module].read_text(encoding="utf-8"), MODULES, typing_too=False)


def imports_in(
    source: str, modules: Collection[str], typing_too: bool
) -> Iterator[tuple[str, ast.ImportFrom | ast.Import]]:
    """(imported module, the import) for each import in `source` of one of `modules`, those
    inside a function included, those under `if TYPE_CHECKING:` only if `typing_too`; `from
    package import module` imports the module only."""
    tree = ast.parse(source)
    typing_only = (
        set()
        if typing_too
        else {
            id(inner)
            for node in ast.walk(tree)
            if isinstance(node, ast.If) and getattr(node.test, "id", None) == "TYPE_CHECKING"
            for inner in ast.walk(node)
        }
    )
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in modules:
                    yield alias.name, node
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module in modules:
            submodules = [f"{node.module}.{a.name}" for a in node.names]
            if not all(name in modules for name in submodules):
                yield node.module, node
            yield from ((name, node) for name in submodules if name in modules)


IMPORTS: dict[str, set[str]] = {
    module: {imported for imported, _ in runtime_imports(module)} - {module} for module in MODULES
}


@pytest.mark.parametrize("module", sorted(m for m in MODULES if layer(m) in MAY_IMPORT))
def test_a_layer_imports_only_those_below_it(module: str) -> None:
    own = layer(module)
    wrong = sorted(
        imported
        for imported in IMPORTS[module]
        if layer(imported) != own and layer(imported) not in MAY_IMPORT[own]
    )
    assert not wrong, f"{module} ({own}) imports {wrong}"


def test_no_module_imports_a_private_name_of_another() -> None:
    reached = [
        f"{module} imports {node.module}.{alias.name}"
        for module in MODULES
        for _, node in runtime_imports(module)
        if isinstance(node, ast.ImportFrom) and node.module != module
        for alias in node.names
        if alias.name.startswith("_") and not alias.name.startswith("__")
    ]
    assert sorted(set(reached)) == []


def circles() -> set[frozenset[str]]:
    """The strongly connected components of more than one module (Tarjan's, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: set[frozenset[str]] = set()
    for start in sorted(IMPORTS):
        if start in index:
            continue
        work: list[tuple[str, Iterator[str]]] = [(start, iter(sorted(IMPORTS[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(IMPORTS[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.add(frozenset(component))
    return found


def test_no_import_circles_but_the_known_ones() -> None:
    found = circles()
    assert sorted(map(sorted, found - KNOWN_CIRCLES.keys())) == []
    assert sorted(map(sorted, KNOWN_CIRCLES.keys() - found)) == [], "gone: take it off the list"


def test_the_rules_are_read_from_real_imports() -> None:
    """The walk sees imports at all: the core's solver imports the unifier, and a module that
    imports only under TYPE_CHECKING (each dialect's runs, for its collector) is not counted."""
    assert "typeinf.core.unify" in IMPORTS["typeinf.core.solve"]
    assert "typeinf.fencil.collect" not in IMPORTS["typeinf.fencil.runs"]
    assert "typeinf.gtir.collect" not in IMPORTS["typeinf.gtir.runs"]
    assert layer("typeinf.gtir.rules") == "gtir" and layer("typeinf.infer") == "api"


# -- the engine: the solver reaches no dialect's type language ------------------------------------
#: The core's modules that hold part of a type language: the reading both dialects' readers
#: share, the fencil IR's conversions to the public values (in the core while `typeinf.infer`
#: imports them from there), the words both dialects say. None of them is the engine's, so the
#: solver reaches none of them; the dialects' own packages are outside the engine anyway. (The
#: constructors' table and the notation still hold the fencil IR's constructors and printer
#: arms beside what both dialects share; the solver reaches them, as a cell prints itself.)
TYPE_LANGUAGE_IN_CORE = frozenset(
    {
        "typeinf.core.typetokens",
        "typeinf.core.typesyntax",
        "typeinf.core.cellbuilder",
        "typeinf.core.convert",
        "typeinf.core.arguments",
        "typeinf.core.diagnostics",
    }
)


def reached(start: str, sources: Mapping[str, str]) -> set[str]:
    """The modules `start` imports, those they import, and so on, among `sources` (each
    module's source by name): every import counts, inside a function or under
    `if TYPE_CHECKING:` too. A package's `__init__` that an import runs is not followed, so
    that what `typeinf/__init__.py` imports (the whole API) is not counted as the solver's."""
    seen, pending = {start}, [start]
    while pending:
        for imported, _ in imports_in(sources[pending.pop()], sources, typing_too=True):
            if imported not in seen:
                seen.add(imported)
                pending.append(imported)
    return seen - {start}


def outside_the_engine(module: str) -> bool:
    """Whether `module` is none of the engine's: a dialect's (its package, or its type language
    still in the core), the public values (`typeinf.types`), or anything above the core."""
    engine = module.startswith(("iterir", "typeinf.core.")) or module == "typeinf.core"
    return not engine or module in TYPE_LANGUAGE_IN_CORE


SOURCES = {module: path.read_text(encoding="utf-8") for module, path in MODULES.items()}


def test_the_solver_reaches_no_dialects_type_language() -> None:
    """The engine is dialect-neutral: the solver's imports, followed through the package, reach
    neither dialect's reader, conversions nor messages (a dialect gives its words through its
    solver's hooks, `Solver.unsatisfiable` and `Solver.cannot_hold`)."""
    closure = reached("typeinf.core.solve", SOURCES)
    assert "typeinf.core.unify" in closure and "typeinf.core.relations" in closure
    assert sorted(filter(outside_the_engine, closure)) == []


def test_a_planted_reach_into_a_dialect_is_caught(tmp_path: Path) -> None:
    """A small tree, written out and read back as the package is: the solver imports a helper
    inside a function, which imports the fencil IR's words under `if TYPE_CHECKING:`, which
    import its conversions; all three are reached, and the check names the two outside the engine.
    GTIR's notation, which only `typeinf/__init__.py` imports, is not reached."""
    tree = {
        "typeinf/__init__.py": "from typeinf.gtir import notation\n",
        "typeinf/core/__init__.py": "",
        "typeinf/fencil/__init__.py": "",
        "typeinf/core/solve.py": "def f() -> None:\n    from typeinf.core import helper\n",
        "typeinf/core/helper.py": (
            "from typing import TYPE_CHECKING\n"
            "if TYPE_CHECKING:\n    from typeinf.fencil.messages import said\n"
        ),
        "typeinf/fencil/messages.py": "import typeinf.core.convert\n",
        "typeinf/core/convert.py": "",
        "typeinf/gtir/notation.py": "",
    }
    for name, text in tree.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    sources = {
        ".".join(path.relative_to(tmp_path).with_suffix("").parts).removesuffix(".__init__"): (
            path.read_text(encoding="utf-8")
        )
        for path in tmp_path.rglob("*.py")
    }
    closure = reached("typeinf.core.solve", sources)
    assert closure == {"typeinf.core.helper", "typeinf.fencil.messages", "typeinf.core.convert"}
    assert sorted(filter(outside_the_engine, closure)) == [
        "typeinf.core.convert",
        "typeinf.fencil.messages",
    ]


# -- one driver: no function of one dialect has a twin in the other -------------------------------
#: How many statements (nested ones counted, a docstring not) a function holds before a twin of
#: it counts: shorter ones (`return x`, a test and a raise) are alike by nature.
TWIN_STATEMENTS = 3


class _Anonymous(ast.NodeTransformer):
    """A function's shape: every name, attribute, argument, keyword and constant made one and the
    same, annotations, decorators and the docstring dropped; what is left is its statements and
    expressions, nested as they are."""

    def visit_Name(self, node: ast.Name) -> ast.Name:
        return ast.Name("_", node.ctx)

    def visit_Attribute(self, node: ast.Attribute) -> ast.Attribute:
        return ast.Attribute(self.visit(node.value), "_", node.ctx)

    def visit_arg(self, node: ast.arg) -> ast.arg:
        return ast.arg("_")

    def visit_keyword(self, node: ast.keyword) -> ast.keyword:
        return ast.keyword(None if node.arg is None else "_", self.visit(node.value))

    def visit_Constant(self, node: ast.Constant) -> ast.Constant:
        return ast.Constant(None)

    def visit_JoinedStr(self, node: ast.JoinedStr) -> ast.Constant:
        return ast.Constant(None)

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.FunctionDef:
        body = node.body[1:] if ast.get_docstring(node) is not None else node.body
        return ast.FunctionDef(
            "_", self.visit(node.args), [self.visit(s) for s in body] or [ast.Pass()], [], None
        )


def shapes(source: str) -> Iterator[tuple[str, str]]:
    """(name, shape) of each function and method of `source` that holds `TWIN_STATEMENTS`
    statements or more."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef):
            body = node.body[1:] if ast.get_docstring(node) is not None else node.body
            count = sum(isinstance(inner, ast.stmt) for s in body for inner in ast.walk(s))
            if count >= TWIN_STATEMENTS:
                yield f"{node.name}:{node.lineno}", ast.dump(_Anonymous().visit(node))


def twins(dialects: dict[str, dict[str, str]]) -> list[tuple[str, str]]:
    """The pairs of functions of the same shape in two dialects (each dialect: its modules'
    sources by name), each as `dialect.module.function:line`."""
    seen: dict[str, list[tuple[str, str]]] = {}
    for dialect, modules in sorted(dialects.items()):
        for module, source in sorted(modules.items()):
            for name, shape in shapes(source):
                seen.setdefault(shape, []).append((dialect, f"{dialect}.{module}.{name}"))
    return [
        (first, second)
        for places in seen.values()
        for (one, first), (other, second) in itertools.combinations(places, 2)
        if one != other
    ]


DIALECTS = {
    dialect: {
        path.stem: path.read_text(encoding="utf-8")
        for path in sorted((ROOT / "typeinf" / dialect).glob("*.py"))
    }
    for dialect in ("fencil", "gtir")
}


def test_no_function_of_one_dialect_has_a_twin_in_the_other() -> None:
    """What both dialects do alike is written once, in the core (`typeinf.core.driver`), and
    parametrized by the dialect: a function copied from one dialect into the other, with other
    names, fails here."""
    assert twins(DIALECTS) == []


def test_a_planted_twin_is_caught() -> None:
    """A function of GTIR's collector copied into the fencil IR with every name and constant
    changed is a twin; with one statement more, it is not."""
    source = DIALECTS["gtir"]["collect"]
    original = next(
        node
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.FunctionDef) and node.name == "_statement"
    )
    line = original.lineno
    renamed = ast.unparse(_Renamed().visit(original))
    planted = {**DIALECTS, "fencil": {**DIALECTS["fencil"], "planted": renamed}}
    assert twins(planted) == [
        ("fencil.planted._statement_copy:1", f"gtir.collect._statement:{line}")
    ]
    planted["fencil"]["planted"] = renamed + "\n    pending_copy.clear()"
    assert twins(planted) == []


class _Renamed(ast.NodeTransformer):
    """Every name, attribute and argument with `_copy` added, every number one more, every
    string another."""

    def visit_Name(self, node: ast.Name) -> ast.Name:
        return ast.Name(f"{node.id}_copy", node.ctx)

    def visit_Attribute(self, node: ast.Attribute) -> ast.Attribute:
        return ast.Attribute(self.visit(node.value), f"{node.attr}_copy", node.ctx)

    def visit_arg(self, node: ast.arg) -> ast.arg:
        return ast.arg(f"{node.arg}_copy")

    def visit_Constant(self, node: ast.Constant) -> ast.Constant:
        if isinstance(node.value, int) and not isinstance(node.value, bool):
            return ast.Constant(node.value + 1)
        return ast.Constant(f"{node.value!r}, copied")

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.FunctionDef:
        self.generic_visit(node)
        node.name = f"{node.name}_copy"
        node.lineno = 1
        return node
