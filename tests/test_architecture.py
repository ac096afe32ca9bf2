"""The layout's rules (docs/architecture.md, "Layout"), read from the sources' imports:

- the core imports neither dialect, nor re-inference, the front ends or the GT4Py bridge; a
  dialect imports the core, never the other dialect;
- no module imports another module's private name (`_name`);
- no import circle at run time, but the ones listed in `KNOWN_CIRCLES` with their reason
  (imports under `if TYPE_CHECKING:` are annotations only and do not count).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
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
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    typing_only = {
        id(inner)
        for node in ast.walk(tree)
        if isinstance(node, ast.If) and getattr(node.test, "id", None) == "TYPE_CHECKING"
        for inner in ast.walk(node)
    }
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in MODULES:
                    yield alias.name, node
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module in MODULES:
            submodules = [f"{node.module}.{a.name}" for a in node.names]
            if not all(name in MODULES for name in submodules):
                yield node.module, node
            yield from ((name, node) for name in submodules if name in MODULES)


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
